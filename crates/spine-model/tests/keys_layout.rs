//! Every animation keeps its curve timelines' keys in one buffer (`AnimationData::keys`):
//! the tables tile it exactly (no gap, no overlap, nothing past the end), for every loader
//! (binary streamed and replayed from the AST, JSON) on every rig of the corpus and on the
//! project's 4.3 fixtures.

use std::path::Path;

use spine_model::*;

/// The curve tables of `a`, or why they do not tile its keys.
fn tiling(a: &AnimationData) -> Result<usize, String> {
    let mut spans: Vec<(usize, usize)> = a
        .timelines
        .iter()
        .filter_map(|t| match t {
            Timeline::Bone { curves, .. }
            | Timeline::Color { curves, .. }
            | Timeline::Deform { curves, .. }
            | Timeline::Ik { curves, .. }
            | Timeline::Transform { curves, .. }
            | Timeline::Path { curves, .. }
            | Timeline::Physics { curves, .. }
            | Timeline::Slider { curves, .. } => Some(curves),
            _ => None,
        })
        .map(|c| (c.start as usize, (c.frames_len + c.curves_len) as usize))
        .collect();
    spans.sort_unstable();
    let mut at = 0;
    for &(start, len) in &spans {
        if start != at {
            return Err(format!("a table starts at {start}, the previous one ends at {at}"));
        }
        at += len;
    }
    if at != a.keys.len() {
        return Err(format!("the tables end at {at} of {} keys", a.keys.len()));
    }
    Ok(spans.len())
}

fn check(what: &str, data: &SkeletonData, failures: &mut Vec<String>) -> usize {
    let mut tables = 0;
    for a in &data.animations {
        match tiling(a) {
            Ok(n) => tables += n,
            Err(e) => failures.push(format!("{what}, animation \"{}\": {e}", a.name)),
        }
    }
    tables
}

fn load_all(path: &Path, failures: &mut Vec<String>) -> usize {
    let bytes = std::fs::read(path).unwrap();
    let what = path.display().to_string();
    let mut tables = 0;
    if what.ends_with(".json") {
        let data = load_json(std::str::from_utf8(&bytes).unwrap(), None).unwrap();
        tables += check(&what, &data, failures);
        // 4.x JSON animations size their key pool from the keys read, once and exactly.
        if !what.contains("/3.") {
            for a in &data.animations {
                if a.keys.capacity() != a.keys.len() {
                    failures.push(format!(
                        "{what}, animation \"{}\": {} keys, capacity {}",
                        a.name,
                        a.keys.len(),
                        a.keys.capacity()
                    ));
                }
            }
        }
    } else {
        let streamed = load_binary(&bytes, None).unwrap();
        tables += check(&format!("{what} (streamed)"), &streamed, failures);
        let raw = spine_format::binary::parse(&bytes).unwrap();
        let replayed = SkeletonData::from_binary(&raw, &LoadOptions::default()).unwrap();
        tables += check(&format!("{what} (replayed)"), &replayed, failures);
    }
    tables
}

#[test]
fn curve_tables_tile_each_animations_keys() {
    let mut failures = Vec::new();
    let mut files = 0;
    let mut tables = 0;
    let fixtures = skel_testkit::project_fixtures().join("spine-4.3");
    for f in skel_testkit::files_with_suffix(&fixtures, ".skel") {
        tables += load_all(&f, &mut failures);
        files += 1;
    }
    assert!(files >= 6, "only {files} 4.3 fixtures");
    if let Some(corpus) = skel_testkit::spine_corpus() {
        for v in ["3.5", "3.6", "3.7", "3.8", "4.0", "4.1", "4.2"] {
            for suffix in [".skel", ".json"] {
                for f in skel_testkit::files_with_suffix(&corpus.join(v), suffix) {
                    tables += load_all(&f, &mut failures);
                    files += 1;
                }
            }
        }
        assert!(files >= 150, "only {files} files");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(tables > 1000, "only {tables} curve tables");
}

#[test]
fn a_table_outside_the_keys_reads_as_empty() {
    let keys = [0.0, 1.0, 1.0, 2.0, 0.0, 0.0];
    let c = Curves { channels: 1, start: 0, frames_len: 4, curves_len: 2, ..Curves::default() };
    let t = c.table(&keys);
    assert_eq!((t.frames, t.curves, t.frame_count()), (&keys[..4], &keys[4..], 2));
    for bad in [
        Curves { start: 1, ..c },
        Curves { curves_len: 3, ..c },
        Curves { start: u32::MAX, ..c },
        Curves { frames_len: u32::MAX, curves_len: u32::MAX, ..c },
    ] {
        let t = bad.table(&keys);
        assert!(t.frames.is_empty() && t.curves.is_empty(), "{bad:?}");
    }
}
