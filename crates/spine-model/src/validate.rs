//! The library side of `skel validate FILE... [--atlas A] [--no-atlas]`.
//!
//! [`validate`] loads one file (parse, resolve, bind the atlas) and returns every problem as
//! one display line; an empty list means the file is valid. The CLI prints the lines and
//! exits 1 when any file has one. [`validate_bytes`] does the same on bytes already read.
//!
//! Format detection and loading live in [`crate::load`] (re-exported at the crate root),
//! file-system rules in [`crate::files`]; both are re-exported here under their old paths.

use std::path::{Path, PathBuf};

use spine_format::atlas::Atlas;
use spine_format::Limits;

pub use crate::files::{
    atlas_page_problems, discover_atlas, json_text, load_atlas, page_path, parse_atlas,
    read_bounded, strip_bom,
};
pub use crate::load::{load as load_spine, sniff, FileFormat};
use crate::{LoadError, LoadOptions};

/// Which atlas to bind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AtlasChoice {
    /// Discover one beside the file ([`discover_atlas`]).
    Auto,
    /// This file.
    File(PathBuf),
    /// Geometry only (`--no-atlas`).
    None,
}

/// The outcome of validating one file.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The atlas used, if any.
    pub atlas: Option<PathBuf>,
    /// Every problem, one display line each (empty = valid).
    pub problems: Vec<String>,
}

/// Every problem of a Spine skeleton given as bytes, bound to `atlas` (its parsed text and
/// path; `None`: geometry only), one display line each; empty when valid. Pages of the
/// atlas whose image lies outside its folder are problems too.
pub fn validate_bytes(bytes: &[u8], atlas: Option<(&Atlas, &Path)>) -> Vec<String> {
    let atlas_name =
        atlas.and_then(|(_, p)| p.file_name()).and_then(|n| n.to_str()).unwrap_or("").to_owned();
    let mut problems = atlas.map(|(a, p)| atlas_page_problems(a, p)).unwrap_or_default();
    let options = LoadOptions {
        atlas: atlas.map(|(a, _)| a),
        atlas_name: &atlas_name,
        ..LoadOptions::default()
    };
    match crate::load(bytes, &options) {
        Ok(_) => {}
        Err(LoadError::Invalid(list)) => problems.extend(list.iter().map(ToString::to_string)),
        Err(LoadError::Parse(e)) => problems.push(e.to_string()),
        Err(LoadError::Json(e)) => problems.push(e.to_string()),
        Err(LoadError::Atlas(e)) => problems.push(e.to_string()),
        Err(e @ LoadError::NotUtf8 { .. }) => problems.push(e.to_string()),
        Err(LoadError::Unsupported(what)) => {
            problems.push(if what.starts_with("a SkelForm") || sniff(bytes).refusal().is_some() {
                what
            } else {
                format!("{what} is not yet supported")
            })
        }
    }
    problems
}

/// Loads `file` with the chosen atlas and reports every problem.
pub fn validate(file: &Path, atlas: &AtlasChoice) -> Report {
    let atlas_path = match atlas {
        AtlasChoice::Auto => discover_atlas(file),
        AtlasChoice::File(p) => Some(p.clone()),
        AtlasChoice::None => None,
    };
    let report = |problems| Report { atlas: atlas_path.clone(), problems };
    let max = Limits::default().max_file_bytes;
    let bytes = match read_bounded(file, max) {
        Ok(b) => b,
        Err(e) => return report(vec![e]),
    };
    let parsed_atlas = match &atlas_path {
        Some(p) => match load_atlas(p) {
            Ok(a) => Some(a),
            Err(e) => return report(vec![e]),
        },
        None => None,
    };
    let bound = parsed_atlas.as_ref().zip(atlas_path.as_deref());
    report(validate_bytes(&bytes, bound))
}
