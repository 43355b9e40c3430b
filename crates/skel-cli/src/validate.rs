//! `skel validate FILE... [--atlas A] [--no-atlas]`.

use std::path::{Path, PathBuf};

use spine_model::files::discover_atlas;
use spine_model::sniff;
use spine_model::validate::validate_bytes;

use crate::io::{is_stdin, read_input};
use crate::pose::read_atlas;

/// Validates one file: `Ok(what it was checked with)` or every problem, one line each.
fn check(file: &Path, atlas: Option<&PathBuf>, no_atlas: bool) -> Result<String, Vec<String>> {
    let bytes = read_input(file, "skeleton").map_err(|e| vec![e])?;
    let format = sniff(&bytes);
    if let Some(why) = format.refusal() {
        return Err(vec![why.to_owned()]);
    }
    if format.is_skelform() {
        return match crate::skf::validate(&bytes, format) {
            None => Ok("skelform".to_owned()),
            Some(problem) => Err(vec![problem]),
        };
    }
    let atlas_path = match (atlas, no_atlas) {
        (_, true) => None,
        (Some(a), false) => Some(a.clone()),
        (None, false) if is_stdin(file) => None,
        (None, false) => discover_atlas(file),
    };
    let Some(atlas_path) = atlas_path else {
        let problems = validate_bytes(&bytes, None);
        return if problems.is_empty() { Ok("geometry only".to_owned()) } else { Err(problems) };
    };
    let parsed = read_atlas(&atlas_path).map_err(|e| vec![e])?;
    // Pages whose image lies outside the atlas' folder are problems too.
    let problems = validate_bytes(&bytes, Some((&parsed, &atlas_path)));
    if problems.is_empty() {
        Ok(format!("atlas {}", atlas_path.display()))
    } else {
        Err(problems)
    }
}

/// Validates each file; prints `FILE: ok (…)` or one `error: FILE: problem` line per
/// problem. Returns whether every file was valid.
pub(crate) fn run(files: &[PathBuf], atlas: Option<&PathBuf>, no_atlas: bool) -> bool {
    let mut all_ok = true;
    for file in files {
        let name = crate::escape(&file.display().to_string());
        match check(file, atlas, no_atlas) {
            Ok(with) => outln!("{name}: ok ({})", crate::escape(&with)),
            Err(problems) => {
                all_ok = false;
                for p in &problems {
                    eprintln!("error: {name}: {}", crate::escape(p));
                }
            }
        }
    }
    all_ok
}
