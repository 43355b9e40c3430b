//! The library side of `skel validate FILE... [--atlas A] [--no-atlas]`.
//!
//! [`validate`] loads one file (parse, resolve, bind the atlas) and returns every problem as
//! one display line; an empty list means the file is valid. The CLI prints the lines and
//! exits 1 when any file has one.
//!
//! Atlas discovery ([`discover_atlas`]): `<stem>.atlas` beside the file; else, for exports
//! named `<base>-pro` / `<base>-ess`, `<base>.atlas`; else the only `.atlas` in the folder
//! whose name does not end in `-pma.atlas`; else none (geometry-only).

use std::path::{Path, PathBuf};

use spine_format::atlas::Atlas;

use crate::{LoadError, LoadOptions, SkeletonData};

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

/// Finds the atlas for a skeleton file (see the module docs).
pub fn discover_atlas(skeleton: &Path) -> Option<PathBuf> {
    let dir = skeleton.parent()?;
    let stem = skeleton.file_stem()?.to_str()?;
    let direct = dir.join(format!("{stem}.atlas"));
    if direct.is_file() {
        return Some(direct);
    }
    if let Some((base, _)) = stem.rsplit_once('-') {
        let based = dir.join(format!("{base}.atlas"));
        if based.is_file() {
            return Some(based);
        }
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(".atlas") && !n.ends_with("-pma.atlas"))
        })
        .collect();
    (found.len() == 1).then(|| found.remove(0))
}

/// Loads an atlas file.
pub fn load_atlas(path: &Path) -> Result<Atlas, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    spine_format::atlas::parse(&text)
        .map_err(|e| format!("{}: line {}: {}", path.display(), e.line, e.message))
}

/// Loads `file` with the chosen atlas and reports every problem.
pub fn validate(file: &Path, atlas: &AtlasChoice) -> Report {
    let atlas_path = match atlas {
        AtlasChoice::Auto => discover_atlas(file),
        AtlasChoice::File(p) => Some(p.clone()),
        AtlasChoice::None => None,
    };
    let report = |problems| Report { atlas: atlas_path.clone(), problems };
    let bytes = match std::fs::read(file) {
        Ok(b) => b,
        Err(e) => return report(vec![format!("{}: {e}", file.display())]),
    };
    let parsed_atlas = match &atlas_path {
        Some(p) => match load_atlas(p) {
            Ok(a) => Some(a),
            Err(e) => return report(vec![e]),
        },
        None => None,
    };
    let atlas_name = atlas_path
        .as_ref()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_owned();
    let options = LoadOptions { scale: 1.0, atlas: parsed_atlas.as_ref(), atlas_name: &atlas_name };
    let text_start = bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace() && **b != 0xEF && **b != 0xBB && **b != 0xBF);
    if text_start == Some(&b'{') {
        let text = match std::str::from_utf8(&bytes) {
            Ok(t) => t.trim_start_matches('\u{feff}'),
            Err(e) => return report(vec![format!("{}: not UTF-8: {e}", file.display())]),
        };
        let skeleton = match spine_format::json::parse(text) {
            Ok(s) => s,
            Err(e) => return report(vec![e.to_string()]),
        };
        return match SkeletonData::from_json(&skeleton, &options) {
            Ok(_) => report(Vec::new()),
            Err(LoadError::Invalid(problems)) => {
                report(problems.iter().map(ToString::to_string).collect())
            }
            Err(e) => report(vec![e.to_string()]),
        };
    }
    let file_ast = match spine_format::binary::parse(&bytes) {
        Ok(f) => f,
        Err(e) => return report(vec![e.to_string()]),
    };
    match SkeletonData::from_binary(&file_ast, &options) {
        Ok(_) => report(Vec::new()),
        Err(LoadError::Invalid(problems)) => {
            report(problems.iter().map(ToString::to_string).collect())
        }
        Err(e) => report(vec![e.to_string()]),
    }
}
