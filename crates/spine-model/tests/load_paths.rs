//! `load_binary` (which owns the AST and moves buffers out of it) builds exactly what
//! `SkeletonData::from_binary` builds from a borrowed AST, for every 4.0–4.2 rig of the
//! corpus, with and without its atlas.

use std::path::PathBuf;

use spine_model::validate::discover_atlas;
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
                let options = LoadOptions { scale: 1.0, atlas, atlas_name: "atlas" };
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
