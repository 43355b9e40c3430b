//! Loading: `.skf` zip archives and bare `armature.json`, legacy upgrades, validation.

mod archive;
mod build;
mod upgrade;

use serde_json::Value;

use crate::armature::Armature;
use crate::error::SkfError;
use crate::raw::*;
use archive::{is_plain_name, open_zip, read_entry, stored_entry, stored_entry_direct};
use build::build;
#[cfg(test)]
pub(crate) use build::build_for_test;
pub(crate) use build::{assemble, intern, Parts};
use upgrade::{legacy_kind, upgrade, value_is_legacy};

/// Safety limits applied while reading a `.skf` archive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest uncompressed size of any entry read (bytes).
    pub max_entry_size: u64,
    /// Largest uncompressed/compressed ratio of an entry bigger than 1 MiB.
    pub max_ratio: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_entry_size: 256 << 20, max_ratio: 200 }
    }
}

/// A `.skf` archive: the armature plus its atlas images (encoded bytes, PNG or JPG).
#[derive(Debug, Clone)]
pub struct SkfArchive {
    /// The armature.
    pub armature: Armature,
    /// `atlases[i]`'s file bytes, in `Armature::atlases` order.
    pub atlas_images: Vec<Vec<u8>>,
}

fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06")
}

/// Loads an armature from the bytes of a `.skf` archive or of a bare `armature.json`
/// (detected from the content). Atlas images are not read; see [`load_skf`].
pub fn load(bytes: &[u8]) -> Result<Armature, SkfError> {
    if is_zip(bytes) {
        if let Some(stored) = stored_entry_direct(bytes, b"armature.json", &Limits::default()) {
            return parse_armature_json(stored);
        }
        let mut zip = open_zip(bytes)?;
        if let Some(stored) = stored_entry(&mut zip, bytes, "armature.json", &Limits::default()) {
            return parse_armature_json(stored);
        }
        let json =
            read_entry(&mut zip, "armature.json", &Limits::default()).map_err(|e| match e {
                SkfError::Zip(_) if zip.index_for_name("armature.json").is_none() => {
                    SkfError::MissingArmature
                }
                e => e,
            })?;
        parse_armature_json(&json)
    } else {
        let trimmed = strip_bom(bytes);
        match trimmed.iter().find(|b| !b.is_ascii_whitespace()) {
            Some(b'{') => parse_armature_json(trimmed),
            _ => Err(SkfError::NotSkelForm),
        }
    }
}

/// Loads a `.skf` archive with its atlas images, under the given limits.
pub fn load_skf(bytes: &[u8], limits: &Limits) -> Result<SkfArchive, SkfError> {
    if !is_zip(bytes) {
        return Err(SkfError::NotSkelForm);
    }
    let mut zip = open_zip(bytes)?;
    if zip.index_for_name("armature.json").is_none() {
        return Err(SkfError::MissingArmature);
    }
    let json = read_entry(&mut zip, "armature.json", limits)?;
    let armature = parse_armature_json(&json)?;
    let mut atlas_images = Vec::with_capacity(armature.atlases.len());
    for (i, a) in armature.atlases.iter().enumerate() {
        let path = format!("atlases[{i}].filename");
        if !is_plain_name(&a.filename) {
            return Err(SkfError::UnsafePath { path, name: a.filename.clone() });
        }
        if zip.index_for_name(&a.filename).is_none() {
            return Err(SkfError::MissingAtlas { path, name: a.filename.clone() });
        }
        atlas_images.push(read_entry(&mut zip, &a.filename, limits)?);
    }
    Ok(SkfArchive { armature, atlas_images })
}

fn strip_bom(b: &[u8]) -> &[u8] {
    b.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(b)
}

/// Parses the text of an `armature.json` (current format 0.6/0.7, or a legacy one that is
/// upgraded: 0.2–0.5).
pub fn parse_armature_json(bytes: &[u8]) -> Result<Armature, SkfError> {
    let bytes = strip_bom(bytes);
    // The fast reader accepts only valid UTF-8 (it checks the strings that are not ASCII).
    if let Some(armature) = crate::fast::parse(bytes) {
        return Ok(armature);
    }
    // Validating UTF-8 once up front lets serde_json skip it for every string and key.
    let text = std::str::from_utf8(bytes).map_err(|e| SkfError::Json {
        path: ".".into(),
        line: 1 + bytes.iter().take(e.valid_up_to()).filter(|&&b| b == b'\n').count(),
        column: 0,
        message: format!("invalid UTF-8 at byte {}", e.valid_up_to()),
    })?;
    parse_with_serde(text)
}

/// The general path: serde_json into the raw structs, legacy upgrades, [`build`]; every
/// error names its JSON path.
pub(crate) fn parse_with_serde(text: &str) -> Result<Armature, SkfError> {
    let bytes = text.as_bytes();
    match serde_json::from_str::<RawArmature>(text) {
        Ok(raw) => {
            if legacy_kind(&raw).is_none() {
                return build(raw, None);
            }
            let v: Value = serde_json::from_slice(bytes).map_err(|e| json_error(e, "."))?;
            upgrade(v)
        }
        Err(first) => {
            // A legacy layout may fail the typed parse (0.2: integer `element`).
            let v: Value = serde_json::from_slice(bytes).map_err(|e| json_error(e, "."))?;
            if value_is_legacy(&v) {
                return upgrade(v);
            }
            let mut de = serde_json::Deserializer::from_slice(bytes);
            match serde_path_to_error::deserialize::<_, RawArmature>(&mut de) {
                Err(e) => {
                    let path = e.path().to_string();
                    Err(json_error(e.into_inner(), &path))
                }
                Ok(_) => Err(json_error(first, ".")),
            }
        }
    }
}

fn json_error(e: serde_json::Error, path: &str) -> SkfError {
    SkfError::Json {
        path: path.to_string(),
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    }
}

/// (major, minor) of a "0.7.0"-style version string.
pub(crate) fn version_pair(v: &str) -> Option<(u32, u32)> {
    let mut it = v.trim().split('.');
    let major = it.next()?.parse().ok()?;
    let minor = it.next().map_or(Some(0), |m| m.parse().ok())?;
    Some((major, minor))
}
