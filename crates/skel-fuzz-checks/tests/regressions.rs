//! Replays the regression inputs of every fuzz target: each file of
//! `fuzz/regressions/<target>/` through that target's check (as `cargo fuzz run <target>
//! <file>` would, on stable and in the normal test run). When a fuzz run finds a crash, its
//! minimized input goes into the target's folder under a name saying what it found.

use std::path::PathBuf;

fn regressions_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/regressions")
}

#[test]
fn every_target_has_regression_inputs_and_no_stray_folder() {
    let dir = regressions_dir();
    let mut folders: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .filter(|e| e.path().is_dir())
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    folders.sort();
    let mut targets: Vec<String> =
        skel_fuzz_checks::TARGETS.iter().map(|(name, _)| (*name).to_owned()).collect();
    targets.sort();
    assert_eq!(folders, targets, "one folder per fuzz target in {}", dir.display());
}

#[test]
fn regression_inputs_replay_cleanly() {
    let mut replayed = 0;
    for (name, check) in skel_fuzz_checks::TARGETS {
        let dir = regressions_dir().join(name);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        assert!(!files.is_empty(), "no regression input for {name} in {}", dir.display());
        for file in files {
            let bytes = std::fs::read(&file).expect("readable regression input");
            let result = std::panic::catch_unwind(|| check(&bytes));
            assert!(result.is_ok(), "{name}: {} fails its check again", file.display());
            replayed += 1;
        }
    }
    eprintln!("replayed {replayed} regression inputs");
}
