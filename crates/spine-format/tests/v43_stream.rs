//! Reading a 4.3 skeleton one animation at a time (`binary::v43::parse_head`) gives the tree
//! `parse_with_limits` gives, and on damaged input the same error (message, section, offset).

use spine_format::binary::v43::{self, ConstraintKind, Skeleton};
use spine_format::{BinaryError, Limits};
use std::path::PathBuf;

fn fixtures() -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/spine-4.3");
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "skel"))
        .map(|p| (p.display().to_string(), std::fs::read(&p).unwrap()))
        .collect();
    out.sort();
    assert!(out.len() >= 6, "the generated 4.3 fixtures are missing from {}", dir.display());
    out
}

/// The whole skeleton, streamed: head, every animation, then the slider animation indices.
fn streamed(bytes: &[u8]) -> Result<Skeleton, BinaryError> {
    let (mut skeleton, mut animations) = v43::parse_head(bytes, &Limits::default())?;
    let n = animations.len();
    while let Some(a) = animations.read_next()? {
        skeleton.animations.push(a);
    }
    assert_eq!(skeleton.animations.len(), n);
    for (k, animation) in animations.finish()? {
        match skeleton.constraints.get_mut(k).map(|c| &mut c.kind) {
            Some(ConstraintKind::Slider(s)) => s.animation = animation,
            other => panic!("finish named constraint {k}, not a slider: {other:?}"),
        }
    }
    Ok(skeleton)
}

#[test]
fn streamed_fixtures_equal_the_parsed_tree() {
    let mut animations = 0;
    for (name, bytes) in fixtures() {
        let whole = v43::parse_with_limits(&bytes, &Limits::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let stream = streamed(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(stream, whole, "{name}");
        animations += whole.animations.len();
    }
    assert!(animations > 0, "the fixtures have animations to stream");
}

#[test]
fn streamed_errors_equal_the_parser_errors_on_damaged_input() {
    let mut compared = 0usize;
    let mut in_animations = 0usize;
    for (name, bytes) in fixtures() {
        let step = (bytes.len() / 300).max(1);
        for cut in (0..bytes.len()).step_by(step) {
            let mut variants = vec![bytes[..cut].to_vec()];
            let mut flipped = bytes.clone();
            flipped[cut] ^= 0xa5;
            variants.push(flipped);
            for input in variants {
                let whole = v43::parse_with_limits(&input, &Limits::default());
                let stream = streamed(&input);
                match (&whole, &stream) {
                    (Ok(a), Ok(b)) => assert_eq!(a, b, "{name} at {cut}"),
                    (Err(a), Err(b)) => {
                        assert_eq!(a.to_string(), b.to_string(), "{name} at {cut}");
                        assert_eq!(a.offset, b.offset, "{name} at {cut}");
                        if a.section.contains("animations") {
                            in_animations += 1;
                        }
                    }
                    _ => panic!("{name} at {cut}: parse {whole:?} but stream {stream:?}"),
                }
                compared += 1;
            }
        }
    }
    assert!(compared > 1000, "{compared} inputs compared");
    assert!(in_animations > 100, "only {in_animations} errors inside the animations");
}
