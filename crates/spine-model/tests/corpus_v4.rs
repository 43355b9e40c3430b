//! Every 4.0–4.2 binary rig of the corpus resolves with its atlas.

use std::path::PathBuf;

use spine_model::files::discover_atlas;
use spine_model::validate::{validate, AtlasChoice};

fn skels(version: &str) -> Vec<PathBuf> {
    let Some(dir) = skel_testkit::spine_corpus() else { return Vec::new() };
    skel_testkit::files_with_suffix(&dir.join(version), ".skel")
}

#[test]
fn every_4x_rig_resolves_with_its_atlas() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for v in ["4.0", "4.1", "4.2"] {
        for f in skels(v) {
            let report = validate(&f, &AtlasChoice::Auto);
            let name = f.file_name().unwrap().to_str().unwrap().to_owned();
            if !name.starts_with("spinosaurus") {
                assert!(report.atlas.is_some(), "{}: no atlas found", f.display());
            }
            if !report.problems.is_empty() {
                failures.push(format!("{}:\n  {}", f.display(), report.problems.join("\n  ")));
            }
            checked += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    if skel_testkit::spine_corpus().is_some() {
        assert!(checked >= 40, "only {checked} files");
    }
}

#[test]
fn spineboy_atlas_is_discovered() {
    let Some(dir) = skel_testkit::spine_corpus() else { return };
    let atlas = discover_atlas(&dir.join("4.2/spineboy/spineboy-pro.skel")).unwrap();
    assert_eq!(atlas.file_name().unwrap(), "spineboy.atlas");
    assert_eq!(discover_atlas(&dir.join("4.2/spinosaurus/spinosaurus-ess.skel")), None);
}

#[test]
fn generated_4_3_fixtures_resolve_geometry_only() {
    let dir = skel_testkit::project_fixtures().join("spine-4.3");
    let files = skel_testkit::files_with_suffix(&dir, ".skel");
    assert!(files.len() >= 6, "{} 4.3 fixtures in {}", files.len(), dir.display());
    for f in files {
        let report = validate(&f, &AtlasChoice::None);
        assert_eq!(report.problems, Vec::<String>::new(), "{}", f.display());
    }
}
