//! Every `.json` skeleton of the shared corpus parses (one test listing every failure), plus
//! facts per version read from real files.

use spine_format::json::{self, BoneTimeline, Curve, SlotTimeline};
use std::path::Path;

fn read(corpus: &Path, rel: &str) -> json::Skeleton {
    let text = std::fs::read_to_string(corpus.join(rel)).expect("corpus json is readable");
    json::parse(&text).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn every_corpus_json_parses() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let files = skel_testkit::files_with_suffix(&corpus, ".json");
    assert!(!files.is_empty(), "no .json files under {}", corpus.display());
    let mut failures = Vec::new();
    let mut animations = 0;
    for path in &files {
        let rel = path.strip_prefix(&corpus).unwrap_or(path).display().to_string();
        let text = std::fs::read_to_string(path).expect("corpus json is readable");
        match json::parse(&text) {
            Err(e) => failures.push(format!("{rel}: {e}")),
            Ok(s) => {
                animations += s.animations.len();
                let folder = rel.split('/').next().unwrap_or_default();
                let declared = s.info.spine.clone().unwrap_or_default();
                if !declared.starts_with(&format!("{folder}.")) {
                    failures.push(format!("{rel}: declares {declared:?} in folder {folder}"));
                }
                if s.bones.is_empty() {
                    failures.push(format!("{rel}: no bones"));
                }
            }
        }
    }
    eprintln!("{} .json files, {animations} animations, {} failed", files.len(), failures.len());
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
