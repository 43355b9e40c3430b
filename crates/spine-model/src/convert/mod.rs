//! Conversion between Spine export formats and versions.
//!
//! * Within a version, binary ⇄ JSON: the raw ASTs of `spine-format` are mapped onto each
//!   other with every name resolved or spelled out ([`v3_json`] for 3.5–3.8, [`v40_json`] for
//!   4.0–4.2, [`v43_json`] for 4.3).
//!
//! Nothing here changes what a skeleton means within a version: the converted file loads,
//! in the official runtime of that version, to the data the source loads to (each module
//! lists what one side cannot hold).

mod common;
pub mod v3_json;
pub mod v40_json;
pub mod v43_json;

use spine_format::binary::{self, SkeletonFile};
use spine_format::{json, json43};

use crate::error::{LoadError, Problem};

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Binary `.skel`.
    Binary,
    /// JSON.
    Json,
}

/// Why a conversion failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConvertError {
    /// The input is not a skeleton this crate reads.
    #[error("{0}")]
    Parse(String),
    /// The input does not load (every problem found).
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The requested target version is older than the input's.
    #[error("cannot downgrade a {from} skeleton to {to}")]
    Downgrade {
        /// The input's version.
        from: String,
        /// The requested version.
        to: String,
    },
    /// The requested conversion is not one this crate does.
    #[error("{0}")]
    Unsupported(String),
    /// Names or values the target format cannot resolve (every problem found).
    #[error("{} problem(s):\n{}", .0.len(), .0.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n"))]
    Invalid(Vec<Problem>),
}

/// A converted skeleton.
#[derive(Debug, Clone, PartialEq)]
pub struct Output {
    /// The file's bytes (UTF-8 text for JSON).
    pub bytes: Vec<u8>,
    /// What the conversion could not carry over or had to approximate, one line each.
    pub notes: Vec<String>,
}

/// A parsed input of any supported format and version.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)]
pub enum Document {
    /// A binary skeleton.
    Binary(SkeletonFile),
    /// A 3.5–4.2 JSON skeleton.
    Json(json::Skeleton),
    /// A 4.3 JSON skeleton.
    Json43(json43::Skeleton),
}

impl Document {
    /// Parses bytes of any supported format (JSON when the first non-blank byte is `{`).
    pub fn parse(bytes: &[u8]) -> Result<Document, ConvertError> {
        let first = bytes.iter().copied().find(|b| !b.is_ascii_whitespace());
        if first == Some(b'{') || bytes.starts_with(b"\xEF\xBB\xBF") {
            let text = std::str::from_utf8(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes))
                .map_err(|e| ConvertError::Parse(format!("not UTF-8 text: {e}")))?;
            if json43::declared_version(text).is_some_and(|v| json43::is_43(&v)) {
                return json43::parse(text)
                    .map(Document::Json43)
                    .map_err(|e| ConvertError::Parse(e.to_string()));
            }
            return json::parse(text)
                .map(Document::Json)
                .map_err(|e| ConvertError::Parse(e.to_string()));
        }
        binary::parse(bytes).map(Document::Binary).map_err(|e| ConvertError::Parse(e.to_string()))
    }

    /// The editor version string the document declares (empty when absent).
    pub fn version(&self) -> String {
        match self {
            Document::Binary(f) => f.summary().version,
            Document::Json(s) => s.info.spine.clone().unwrap_or_default(),
            Document::Json43(s) => s.info.spine.clone().unwrap_or_default(),
        }
    }
}

/// `(major, minor)` of a version string such as `"4.2.22"` or `"4.3"`.
pub fn version_pair(v: &str) -> Option<(u32, u32)> {
    let mut it = v.split('.');
    let major = it.next()?.trim().parse().ok()?;
    let minor = it.next()?.chars().take_while(char::is_ascii_digit).collect::<String>();
    Some((major, minor.parse().ok()?))
}

/// Converts a skeleton (binary or JSON, 3.5–4.3) to `to` (a `major.minor` version) in
/// `format`: within its own version binary ⇄ JSON.
pub fn convert(input: &[u8], to: &str, format: Format) -> Result<Output, ConvertError> {
    let doc = Document::parse(input)?;
    let from = doc.version();
    let source = version_pair(&from).unwrap_or((4, 3));
    let target = version_pair(to)
        .ok_or_else(|| ConvertError::Unsupported(format!("unknown target version {to:?}")))?;
    if target < source {
        return Err(ConvertError::Downgrade { from, to: to.to_owned() });
    }
    let mut notes = Vec::new();
    if target == source {
        return within(doc, format, &mut notes).map(|bytes| Output { bytes, notes });
    }
    Err(ConvertError::Unsupported(format!("conversion from {from} to {to} is not supported")))
}

/// The binary form of a 3.5–4.2 JSON skeleton, in its declared version.
pub fn json_to_binary(s: &json::Skeleton) -> Result<SkeletonFile, ConvertError> {
    let v = s.version;
    Ok(if v >= json::Version(4, 0) {
        SkeletonFile::V40(v40_json::from_json(s).map_err(ConvertError::Invalid)?)
    } else if v >= json::Version(3, 8) {
        SkeletonFile::V38(v3_json::json_to_v38(s).map_err(ConvertError::Invalid)?)
    } else {
        SkeletonFile::V35(v3_json::json_to_v35(s).map_err(ConvertError::Invalid)?)
    })
}

/// The JSON form of a binary skeleton, in its version.
pub fn binary_to_json(f: &SkeletonFile) -> Result<Document, ConvertError> {
    Ok(match f {
        SkeletonFile::V35(s) => Document::Json(v3_json::v35_to_json(s)),
        SkeletonFile::V38(s) => Document::Json(v3_json::v38_to_json(s)),
        SkeletonFile::V40(s) => Document::Json(v40_json::to_json(s)),
        SkeletonFile::V43(s) => Document::Json43(v43_json::to_json(s)),
        _ => return Err(ConvertError::Unsupported("this binary generation".into())),
    })
}

/// Binary ⇄ JSON within the document's version.
fn within(
    doc: Document,
    format: Format,
    _notes: &mut Vec<String>,
) -> Result<Vec<u8>, ConvertError> {
    Ok(match (doc, format) {
        (Document::Binary(f), Format::Binary) => binary::write(&f),
        (Document::Json43(s), Format::Json) => json43::write(&s).into_bytes(),
        (Document::Json(s), Format::Json) => json::write(&s).into_bytes(),
        (Document::Binary(SkeletonFile::V43(s)), Format::Json) => {
            json43::write(&v43_json::to_json(&s)).into_bytes()
        }
        (Document::Json43(s), Format::Binary) => {
            let b = v43_json::from_json(&s).map_err(ConvertError::Invalid)?;
            binary::write(&SkeletonFile::V43(b))
        }
        (Document::Binary(SkeletonFile::V40(s)), Format::Json) => {
            json::write(&v40_json::to_json(&s)).into_bytes()
        }
        (Document::Binary(SkeletonFile::V38(s)), Format::Json) => {
            json::write(&v3_json::v38_to_json(&s)).into_bytes()
        }
        (Document::Binary(SkeletonFile::V35(s)), Format::Json) => {
            json::write(&v3_json::v35_to_json(&s)).into_bytes()
        }
        (Document::Json(s), Format::Binary) => binary::write(&json_to_binary(&s)?),
        (d, _) => {
            return Err(ConvertError::Unsupported(format!(
                "binary ⇄ JSON of {} is not supported yet",
                d.version()
            )))
        }
    })
}
