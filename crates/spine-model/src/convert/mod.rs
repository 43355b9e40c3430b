//! Conversion between Spine export formats and versions: what `skel convert` does.
//!
//! [`convert`] takes a skeleton of any supported format and version (binary or JSON,
//! 3.5–4.3) and a target version and format:
//!
//! * **Within a version**, binary ⇄ JSON (3.5–4.3): the raw ASTs of `spine-format` are
//!   mapped onto each other with every name resolved or spelled out ([`v3_json`] for
//!   3.5–3.8, [`v40_json`] for 4.0–4.2, [`v43_json`] for 4.3). Nothing changes what the
//!   skeleton means: the converted file loads, in that version's official runtime, to the
//!   data the source loads to (each module lists what one side cannot hold).
//! * **Upgrades** of any 3.5–4.2 skeleton to 4.2 or 4.3 (both formats) go through the
//!   model: the source is resolved to [`crate::SkeletonData`] and written back in the newer
//!   data model ([`upgrade`], which documents every mapping, what cannot be expressed, and
//!   the match rates measured against the official runtimes).
//! * **Downgrades** are refused ([`ConvertError::Downgrade`]), and so is an upgrade to a
//!   target other than 4.2 or 4.3.
//!
//! [`Output::notes`] lists what a conversion could not carry over exactly.

mod common;
mod json_common;
pub mod upgrade;
pub mod v3_json;
pub mod v40_json;
pub mod v43_json;

use spine_format::binary::{self, SkeletonFile};
use spine_format::{json, json43, SpineVersion};

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

    /// Resolves the document (scale 1, no atlas).
    pub fn load(&self) -> Result<crate::SkeletonData, LoadError> {
        let o = crate::LoadOptions::default();
        match self {
            Document::Binary(f) => crate::SkeletonData::from_binary(f, &o),
            Document::Json(s) => crate::SkeletonData::from_json(s, &o),
            Document::Json43(s) => crate::SkeletonData::from_json43(s, &o),
        }
    }

    /// What the model does not keep: the hash bytes and the images and audio folders.
    pub fn extras(&self) -> upgrade::Extras {
        let (hash, images, audio) = match self {
            Document::Binary(SkeletonFile::V35(s)) => {
                let n = s.header.nonessential.as_ref();
                (
                    s.header.hash.as_deref().and_then(json43::hash_bytes),
                    n.and_then(|n| n.images.clone()),
                    n.and_then(|n| n.audio.clone()),
                )
            }
            Document::Binary(SkeletonFile::V38(s)) => {
                let n = s.header.nonessential.as_ref();
                (
                    s.header.hash.as_deref().and_then(json43::hash_bytes),
                    n.and_then(|n| n.images.clone()),
                    n.and_then(|n| n.audio.clone()),
                )
            }
            Document::Binary(SkeletonFile::V40(s)) => {
                let n = s.header.nonessential.as_ref();
                (
                    json43::hash_bytes(&s.header.hash_base64()),
                    n.and_then(|n| n.images_path.clone()),
                    n.and_then(|n| n.audio_path.clone()),
                )
            }
            Document::Binary(SkeletonFile::V43(s)) => {
                let n = s.header.nonessential.as_ref();
                let mut b = [0u8; 8];
                b[..4].copy_from_slice(&s.header.hash_low.to_be_bytes());
                b[4..].copy_from_slice(&s.header.hash_high.to_be_bytes());
                (
                    Some(b),
                    n.and_then(|n| n.images_path.clone()),
                    n.and_then(|n| n.audio_path.clone()),
                )
            }
            Document::Json(s) => (
                s.info.hash.as_deref().and_then(json43::hash_bytes),
                s.info.images.clone(),
                s.info.audio.clone(),
            ),
            Document::Json43(s) => (
                s.info.hash.as_deref().and_then(json43::hash_bytes),
                s.info.images.clone(),
                s.info.audio.clone(),
            ),
            _ => (None, None, None),
        };
        upgrade::Extras { hash, images, audio }
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

/// `(major, minor)` of a version string such as `"4.2.22"` or `"4.3"`
/// ([`SpineVersion::parse`]).
pub fn version_pair(v: &str) -> Option<(u32, u32)> {
    SpineVersion::parse(v).map(|v| (v.major.into(), v.minor.into()))
}

/// Converts a skeleton (binary or JSON, 3.5–4.3) to `to` (a `major.minor` version) in
/// `format`: within its own version binary ⇄ JSON.
pub fn convert(input: &[u8], to: &str, format: Format) -> Result<Output, ConvertError> {
    let doc = Document::parse(input)?;
    let from = doc.version();
    let source = SpineVersion::parse(&from).unwrap_or(SpineVersion::V4_3);
    let target = SpineVersion::parse(to)
        .ok_or_else(|| ConvertError::Unsupported(format!("unknown target version {to:?}")))?;
    if target < source {
        return Err(ConvertError::Downgrade { from, to: to.to_owned() });
    }
    let mut notes = Vec::new();
    if target == source {
        return within(doc, format, &mut notes).map(|bytes| Output { bytes, notes });
    }
    if target != SpineVersion::V4_3 && target != SpineVersion::V4_2 {
        return Err(ConvertError::Unsupported(format!(
            "a {from} skeleton can be converted to its own version, 4.2 or 4.3, not {to}"
        )));
    }
    let extras = doc.extras();
    let data = doc.load()?;
    let mut n = upgrade::Notes::default();
    let bytes = if target == SpineVersion::V4_3 {
        let s =
            upgrade::to_v43(&data, &extras, &mut n).map_err(|e| ConvertError::Unsupported(e.0))?;
        match format {
            Format::Binary => binary::write(&SkeletonFile::V43(s)),
            Format::Json => json43::write(&v43_json::to_json(&s)).into_bytes(),
        }
    } else {
        let s =
            upgrade::to_v42(&data, &extras, &mut n).map_err(|e| ConvertError::Unsupported(e.0))?;
        match format {
            Format::Binary => binary::write(&SkeletonFile::V40(s)),
            Format::Json => json::write(&v40_json::to_json(&s)).into_bytes(),
        }
    };
    notes.extend(n.into_lines());
    Ok(Output { bytes, notes })
}

/// The binary form of a 3.5–4.2 JSON skeleton, in its declared version.
pub fn json_to_binary(s: &json::Skeleton) -> Result<SkeletonFile, ConvertError> {
    let v = s.version;
    Ok(if v >= SpineVersion::V4_0 {
        SkeletonFile::V40(v40_json::from_json(s).map_err(ConvertError::Invalid)?)
    } else if v >= SpineVersion::V3_8 {
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
