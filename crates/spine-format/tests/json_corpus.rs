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

/// The parts of an oracle golden (`oracle/spine-<v>/<example>/<file>.json.json`, written by the
/// official C/C++ runtime after loading the JSON twin) that a summary can be checked against.
#[derive(serde::Deserialize)]
struct Golden {
    #[serde(rename = "skeletonVersion")]
    version: String,
    bones: Vec<String>,
    slots: Vec<String>,
    pose: std::collections::BTreeMap<String, GoldenAnim>,
}

#[derive(serde::Deserialize)]
struct GoldenAnim {
    duration: f32,
}

#[test]
fn summaries_match_the_official_runtimes() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let Some(oracle) = skel_testkit::oracle_dir() else { return };
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut durations = 0;
    for golden_path in skel_testkit::files_with_suffix(&oracle, ".json.json") {
        let rel = golden_path.strip_prefix(&oracle).unwrap_or(&golden_path).display().to_string();
        // spine-4.2/spineboy/spineboy-pro.json.json -> 4.2/spineboy/spineboy-pro.json
        let Some(rest) = rel.strip_prefix("spine-") else { continue };
        let Some(src) = rest.strip_suffix(".json") else { continue };
        let Ok(text) = std::fs::read_to_string(corpus.join(src)) else {
            failures.push(format!("{src}: no corpus twin for {rel}"));
            continue;
        };
        let golden: Golden =
            serde_json::from_slice(&std::fs::read(&golden_path).expect("golden is readable"))
                .unwrap_or_else(|e| panic!("{rel}: {e}"));
        let skel = match json::parse(&text) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{src}: {e}"));
                continue;
            }
        };
        checked += 1;
        let sum = skel.summary();
        if sum.version != golden.version {
            failures.push(format!("{src}: version {:?} vs {:?}", sum.version, golden.version));
        }
        let bones: Vec<&str> = skel.bones.iter().map(|b| b.name.as_str()).collect();
        if bones != golden.bones {
            failures.push(format!("{src}: bone names differ"));
        }
        let slots: Vec<&str> = skel.slots.iter().map(|s| s.name.as_str()).collect();
        if slots != golden.slots {
            failures.push(format!("{src}: slot names differ"));
        }
        if sum.animations.len() != golden.pose.len() {
            failures.push(format!(
                "{src}: {} animations vs {}",
                sum.animations.len(),
                golden.pose.len()
            ));
        }
        for a in &sum.animations {
            match golden.pose.get(&a.name) {
                None => failures.push(format!("{src}: animation {:?} not in the golden", a.name)),
                Some(g) if g.duration != a.duration => failures.push(format!(
                    "{src}: animation {:?} duration {} vs {}",
                    a.name, a.duration, g.duration
                )),
                Some(_) => durations += 1,
            }
        }
    }
    eprintln!("{checked} goldens checked, {durations} durations equal, {} failures", failures.len());
    assert!(checked > 100, "only {checked} goldens found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
