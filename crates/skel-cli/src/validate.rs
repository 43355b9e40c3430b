//! `skel validate FILE... [--atlas A] [--no-atlas]`.

use std::path::PathBuf;

use spine_model::validate::{validate, AtlasChoice};

/// Validates each file; prints `FILE: ok` or one `error: FILE: problem` line per problem.
/// Returns whether every file was valid.
pub(crate) fn run(files: &[PathBuf], atlas: Option<&PathBuf>, no_atlas: bool) -> bool {
    let choice = match (atlas, no_atlas) {
        (_, true) => AtlasChoice::None,
        (Some(a), false) => AtlasChoice::File(a.clone()),
        (None, false) => AtlasChoice::Auto,
    };
    let mut all_ok = true;
    for file in files {
        if let Err(f) = crate::check_size(file) {
            all_ok = false;
            eprintln!("error: {}: {}", f.file.display(), f.message);
            continue;
        }
        let report = validate(file, &choice);
        if report.problems.is_empty() {
            match &report.atlas {
                Some(a) => outln!("{}: ok (atlas {})", file.display(), a.display()),
                None => outln!("{}: ok (geometry only)", file.display()),
            }
        } else {
            all_ok = false;
            for p in &report.problems {
                eprintln!("error: {}: {p}", file.display());
            }
        }
    }
    all_ok
}
