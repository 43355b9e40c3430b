//! Every rig of the corpus (3.5–4.2, binary and JSON) resolves with its atlas; one test
//! listing every failure.

use std::path::PathBuf;

use spine_model::validate::{validate, AtlasChoice};

const VERSIONS: [&str; 7] = ["3.5", "3.6", "3.7", "3.8", "4.0", "4.1", "4.2"];

fn files(version: &str, suffix: &str) -> Vec<PathBuf> {
    let Some(dir) = skel_testkit::spine_corpus() else { return Vec::new() };
    skel_testkit::files_with_suffix(&dir.join(version), suffix)
}

fn check(suffix: &str, versions: &[&str]) -> (usize, Vec<String>) {
    let mut checked = 0;
    let mut failures = Vec::new();
    for v in versions {
        for f in files(v, suffix) {
            let report = validate(&f, &AtlasChoice::Auto);
            let name = f.file_name().unwrap().to_str().unwrap().to_owned();
            if !name.starts_with("spinosaurus") && report.atlas.is_none() {
                failures.push(format!("{}: no atlas found", f.display()));
            }
            if !report.problems.is_empty() {
                failures.push(format!("{}:\n  {}", f.display(), report.problems.join("\n  ")));
            }
            checked += 1;
        }
    }
    (checked, failures)
}

#[test]
fn every_3x_binary_rig_resolves_with_its_atlas() {
    let (checked, failures) = check(".skel", &VERSIONS[..4]);
    assert!(
        failures.is_empty(),
        "{} failed of {checked}:\n{}",
        failures.len(),
        failures.join("\n")
    );
    if skel_testkit::spine_corpus().is_some() {
        assert!(checked >= 60, "only {checked} files");
    }
}

#[test]
fn every_json_rig_resolves_with_its_atlas() {
    let (checked, failures) = check(".json", &VERSIONS);
    assert!(
        failures.is_empty(),
        "{} failed of {checked}:\n{}",
        failures.len(),
        failures.join("\n")
    );
    if skel_testkit::spine_corpus().is_some() {
        assert!(checked >= 100, "only {checked} files");
    }
}
