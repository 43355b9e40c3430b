//! 4.3 `load_binary` (which streams the animations from the bytes, and sets the slider
//! constraints' animations last) builds exactly what `SkeletonData::from_binary` builds from
//! the parsed AST, for every generated 4.3 fixture, and reports exactly the same error for
//! damaged bytes.

use std::path::PathBuf;

use spine_model::{load_binary, LoadOptions, SkeletonData};

fn fixtures() -> Vec<PathBuf> {
    let dir = skel_testkit::project_fixtures().join("spine-4.3");
    skel_testkit::files_with_suffix(&dir, ".skel")
}

/// Parse then convert (the AST path), or the first error.
fn parse_then_convert(bytes: &[u8]) -> Result<SkeletonData, spine_model::LoadError> {
    let options =
        LoadOptions { scale: 1.0, atlas: None, atlas_name: "atlas", ..Default::default() };
    spine_format::binary::parse(bytes)
        .map_err(spine_model::LoadError::from)
        .and_then(|file| SkeletonData::from_binary(&file, &options))
}

fn same(what: &str, bytes: &[u8]) {
    match (parse_then_convert(bytes), load_binary(bytes, None)) {
        (Ok(p), Ok(s)) => assert!(p == s, "{what}: the two paths differ"),
        (Err(p), Err(s)) => assert_eq!(p.to_string(), s.to_string(), "{what}"),
        (p, s) => panic!("{what}: {:?} vs {:?}", p.is_ok(), s.is_ok()),
    }
}

#[test]
fn streamed_load_equals_parse_then_convert() {
    let files = fixtures();
    assert!(files.len() >= 6, "only {} 4.3 fixtures", files.len());
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let data = load_binary(&bytes, None).unwrap();
        assert!(!data.animations.is_empty(), "{}", f.display());
        same(&f.display().to_string(), &bytes);
    }
}

/// Truncated, flipped and extended bytes: the same error (offset and section path) or the
/// same data either way.
#[test]
fn streamed_load_of_damaged_bytes_matches_parse_then_convert() {
    let mut checked = 0;
    for f in fixtures() {
        let bytes = std::fs::read(&f).unwrap();
        let step = (bytes.len() / 150).max(1);
        for at in (0..bytes.len()).step_by(step) {
            let what = format!("{} at {at}", f.display());
            same(&what, &bytes[..at]);
            let mut flipped = bytes.clone();
            flipped[at] ^= 0x5a;
            same(&what, &flipped);
            checked += 2;
        }
        same(&f.display().to_string(), &[bytes.as_slice(), &[0]].concat());
    }
    assert!(checked >= 1500, "only {checked} damaged loads");
}
