//! Binary `.skel` skeletons of every supported generation.
//!
//! [`parse`] reads the header to find the version, then hands the bytes to that
//! generation's parser; [`write()`] turns any [`SkeletonFile`] back into bytes such that
//! `write(&parse(b)?) == b`.
//!
//! | module  | versions      |
//! | ------- | ------------- |
//! | [`v35`] | 3.5, 3.6, 3.7 |
//! | [`v38`] | 3.8           |
//! | [`v3_common`] | records shared by 3.5–3.8 |
//! | [`v40`] | 4.0, 4.1, 4.2 |
//! | [`v43`] | 4.3           |
//!
//! The raw ASTs keep what the wire says: indices unresolved, string references as
//! [`StrRef`]s into the file's string table, colors as bytes, and every number **unscaled**
//! (the load-time `scale` factor is applied by `spine-model`, which knows which fields the
//! format marks "scaled").

mod prim;
pub mod shared;
pub mod v35;
pub mod v38;
pub mod v3_common;
pub mod v40;
pub mod v43;
mod wire;

pub use prim::StrRef;

use crate::error::{BinaryError, BinaryErrorKind};
use crate::{Limits, SpineVersion, Summary};
use nom::sequence::preceded;
use nom::Parser;
use wire::{into_binary, str, take, Lim, PErr};

/// The versions this crate reads, for error messages.
pub const SUPPORTED_VERSIONS: &str = "3.5, 3.6, 3.7, 3.8, 4.0, 4.1, 4.2, 4.3";

/// What the header says: the version string and its generation.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Header {
    /// The editor version string, e.g. `"4.2.22"`.
    pub version: String,
    /// Its version line (`major.minor`), which selects the reader and the wire layout.
    pub generation: SpineVersion,
}

/// A parsed binary skeleton of any supported generation.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[non_exhaustive]
#[allow(clippy::large_enum_variant)] // every generation's AST is a few hundred bytes
pub enum SkeletonFile {
    /// 3.5–3.7.
    V35(v35::Skeleton),
    /// 3.8.
    V38(v38::Skeleton),
    /// 4.0–4.2.
    V40(v40::Skeleton),
    /// 4.3.
    V43(v43::Skeleton),
}

impl SkeletonFile {
    /// Counts and names for display.
    pub fn summary(&self) -> Summary {
        match self {
            SkeletonFile::V35(s) => s.summary(),
            SkeletonFile::V38(s) => s.summary(),
            SkeletonFile::V40(s) => s.summary(),
            SkeletonFile::V43(s) => s.summary(),
        }
    }
}

fn looks_like_version(v: &str) -> bool {
    v.len() <= 32
        && v.starts_with(|c: char| c.is_ascii_digit())
        && v.contains('.')
        && v.chars().all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
}

fn major_of(v: &str) -> Option<u32> {
    v.split('.').next()?.parse().ok()
}

/// The supported version line of a header's version string: `major.minor` with a minor of
/// digits only (`"3.8.99"`, `"4.2"`), from 3.5 to 4.3.
pub(crate) fn generation_of(version: &str) -> Option<SpineVersion> {
    let mut parts = version.split('.');
    let (major, minor) = (parts.next()?, parts.next()?);
    let v = SpineVersion::new(major.parse().ok()?, minor.parse().ok()?);
    (v.is_supported() && format!("{major}.{minor}") == v.to_string()).then_some(v)
}

/// Reads the version from the header alone.
///
/// 4.x files start with an 8-byte hash followed by the version string; 3.x files start
/// with a hash *string* followed by the version string. The 4.x reading is tried first.
pub fn detect(bytes: &[u8]) -> Result<Header, BinaryError> {
    let lim = Lim::new(Limits::default());
    let try4 = || -> Option<String> {
        let (_, v) = preceded(|i| take(i, 8), str(&lim)).parse(bytes).ok()?;
        let v = v?;
        (looks_like_version(v) && major_of(v) >= Some(4)).then(|| v.to_owned())
    };
    let try3 = || -> Option<String> {
        let (_, v) = preceded(str(&lim), str(&lim)).parse(bytes).ok()?;
        let v = v?;
        looks_like_version(v).then(|| v.to_owned())
    };
    let header_error = |kind| into_binary(PErr::at(bytes, kind), bytes.len());
    let Some(found) = try4().or_else(try3) else {
        return Err(header_error(BinaryErrorKind::Invalid(
            "not a Spine binary skeleton: no version string in the header".into(),
        )));
    };
    match generation_of(&found) {
        Some(generation) => Ok(Header { version: found, generation }),
        None => Err(header_error(BinaryErrorKind::UnsupportedVersion {
            found,
            supported: SUPPORTED_VERSIONS,
        })),
    }
}

/// Parses a binary skeleton of any supported version, with the default [`Limits`].
pub fn parse(bytes: &[u8]) -> Result<SkeletonFile, BinaryError> {
    parse_with_limits(bytes, &Limits::default())
}

/// Parses a binary skeleton of any supported version, enforcing `limits`.
pub fn parse_with_limits(bytes: &[u8], limits: &Limits) -> Result<SkeletonFile, BinaryError> {
    Lim::new(*limits).check_file_size(bytes)?;
    let header = detect(bytes)?;
    let v = header.generation;
    Ok(if v < SpineVersion::V3_8 {
        SkeletonFile::V35(v35::parse_with_limits(bytes, limits)?)
    } else if v < SpineVersion::V4_0 {
        SkeletonFile::V38(v38::parse_with_limits(bytes, limits)?)
    } else if v < SpineVersion::V4_3 {
        SkeletonFile::V40(v40::parse_with_limits(bytes, limits)?)
    } else {
        SkeletonFile::V43(v43::parse_with_limits(bytes, limits)?)
    })
}

/// Writes a binary skeleton back to bytes.
pub fn write(file: &SkeletonFile) -> Vec<u8> {
    match file {
        SkeletonFile::V35(s) => v35::write(s),
        SkeletonFile::V38(s) => v38::write(s),
        SkeletonFile::V40(s) => v40::write(s),
        SkeletonFile::V43(s) => v43::write(s),
    }
}
