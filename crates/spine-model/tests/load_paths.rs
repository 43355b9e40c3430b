//! `load_binary` (which owns the AST and moves buffers out of it) builds exactly what
//! `SkeletonData::from_binary` builds from a borrowed AST, for every 4.0–4.2 rig of the
//! corpus, with and without its atlas.

use std::path::PathBuf;

use spine_model::files::discover_atlas;
use spine_model::{load_binary, LoadOptions, SkeletonData};

fn skels(version: &str) -> Vec<PathBuf> {
    let Some(dir) = skel_testkit::spine_corpus() else { return Vec::new() };
    skel_testkit::files_with_suffix(&dir.join(version), ".skel")
}

#[test]
fn owned_load_equals_borrowed_conversion() {
    let mut checked = 0;
    let mut with_atlas = 0;
    for v in ["4.0", "4.1", "4.2"] {
        for f in skels(v) {
            let bytes = std::fs::read(&f).unwrap();
            let atlas = discover_atlas(&f)
                .map(|p| spine_format::atlas::parse(&std::fs::read_to_string(p).unwrap()).unwrap());
            for atlas in [atlas.as_ref(), None] {
                let file = spine_format::binary::parse(&bytes).unwrap();
                let options =
                    LoadOptions { scale: 1.0, atlas, atlas_name: "atlas", ..Default::default() };
                let borrowed = SkeletonData::from_binary(&file, &options);
                let owned = load_binary(&bytes, atlas);
                match (borrowed, owned) {
                    (Ok(b), Ok(o)) => assert!(b == o, "{}: the two paths differ", f.display()),
                    (Err(b), Err(o)) => assert_eq!(b.to_string(), o.to_string(), "{}", f.display()),
                    (b, o) => panic!("{}: {:?} vs {:?}", f.display(), b.is_ok(), o.is_ok()),
                }
                with_atlas += usize::from(atlas.is_some());
                checked += 1;
            }
        }
    }
    if skel_testkit::spine_corpus().is_some() {
        assert!(
            checked >= 80 && with_atlas >= 30,
            "only {checked} loads ({with_atlas} with atlas)"
        );
    }
}

/// Streaming the animations from damaged bytes reports exactly what parsing them first does
/// (same error, offset and section path), and a load that still succeeds builds the same data.
#[test]
fn streamed_load_of_damaged_bytes_matches_parse_then_convert() {
    let mut checked = 0;
    for v in ["4.0", "4.1", "4.2"] {
        for f in skels(v).into_iter().filter(|f| f.to_string_lossy().contains("spineboy-pro")) {
            let bytes = std::fs::read(&f).unwrap();
            let step = (bytes.len() / 200).max(1);
            let mut variants: Vec<Vec<u8>> = Vec::new();
            for at in (0..bytes.len()).step_by(step) {
                variants.push(bytes[..at].to_vec());
                let mut flipped = bytes.clone();
                flipped[at] ^= 0x5a;
                variants.push(flipped);
            }
            variants.push([bytes.as_slice(), &[0]].concat());
            for b in &variants {
                let options = LoadOptions {
                    scale: 1.0,
                    atlas: None,
                    atlas_name: "atlas",
                    ..Default::default()
                };
                let parsed = spine_format::binary::parse(b)
                    .map_err(spine_model::LoadError::from)
                    .and_then(|file| SkeletonData::from_binary(&file, &options));
                let streamed = load_binary(b, None);
                match (parsed, streamed) {
                    (Ok(p), Ok(s)) => assert!(p == s, "{}: the two paths differ", f.display()),
                    (Err(p), Err(s)) => assert_eq!(p.to_string(), s.to_string()),
                    (p, s) => panic!("{}: {:?} vs {:?}", f.display(), p.is_ok(), s.is_ok()),
                }
                checked += 1;
            }
        }
    }
    if skel_testkit::spine_corpus().is_some() {
        assert!(checked >= 1000, "only {checked} damaged loads");
    }
}
