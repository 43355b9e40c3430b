//! Test support shared by the workspace's test suites: where the licensed corpus and the
//! oracle goldens live, and how a test behaves when they are missing.
//!
//! The corpus is read from `../shared/fixtures` beside the workspace (env `SKEL_CORPUS`
//! overrides), the goldens from `../shared/oracle` (env `SKEL_ORACLE` overrides). A test that
//! cannot find them prints a loud notice and skips, unless `SKEL_REQUIRE_CORPUS=1` (set by
//! `.ci/run`), in which case it panics so CI fails instead of silently passing.

use std::path::{Path, PathBuf};

/// The workspace root (the folder holding the top `Cargo.toml`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// The shared reference folder `../shared` beside the workspace.
pub fn shared_dir() -> PathBuf {
    workspace_root().join("..").join("shared")
}

fn required() -> bool {
    std::env::var("SKEL_REQUIRE_CORPUS").is_ok_and(|v| v == "1")
}

fn locate(env: &str, default: PathBuf, what: &str) -> Option<PathBuf> {
    let dir = std::env::var_os(env).map(PathBuf::from).unwrap_or(default);
    if dir.is_dir() {
        return Some(dir);
    }
    let msg = format!(
        "\n!!! {what} not found at {} (set {env}); this test is SKIPPED !!!\n",
        dir.display()
    );
    if required() {
        panic!("{msg}SKEL_REQUIRE_CORPUS=1: failing instead of skipping");
    }
    eprintln!("{msg}");
    None
}

/// The corpus fixtures folder (`../shared/fixtures`), or `None` (after a loud notice) when
/// it is missing and not required.
pub fn fixtures_dir() -> Option<PathBuf> {
    locate("SKEL_CORPUS", shared_dir().join("fixtures"), "the shared corpus")
}

/// The Spine corpus folder (`<fixtures>/spine`).
pub fn spine_corpus() -> Option<PathBuf> {
    fixtures_dir().map(|d| d.join("spine"))
}

/// The oracle goldens folder (`../shared/oracle`).
pub fn oracle_dir() -> Option<PathBuf> {
    locate("SKEL_ORACLE", shared_dir().join("oracle"), "the oracle goldens")
}

/// Every file under `dir` (recursively) whose name ends with `suffix`, sorted. Panics when
/// there is none: every caller loops over corpus, golden or fixture files, and a loop over
/// nothing would check nothing (a moved folder, a renamed suffix).
pub fn files_with_suffix(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let out = find_files_with_suffix(dir, suffix);
    assert!(!out.is_empty(), "no file ending in {suffix:?} under {}", dir.display());
    out
}

fn find_files_with_suffix(dir: &Path, suffix: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(suffix)) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The project's own generated fixtures folder (`fixtures/` in the workspace).
pub fn project_fixtures() -> PathBuf {
    workspace_root().join("fixtures")
}

/// Reads a file of the shared corpus or goldens. A missing or unreadable file is a loud
/// notice and `None`, or a panic under `SKEL_REQUIRE_CORPUS=1`: a test that expects a
/// corpus file never passes silently without it.
pub fn read_corpus_file(path: &Path) -> Option<Vec<u8>> {
    match std::fs::read(path) {
        Ok(bytes) => Some(bytes),
        Err(e) => {
            let msg =
                format!("\n!!! corpus file {}: {e}; this check is SKIPPED !!!\n", path.display());
            if required() {
                panic!("{msg}SKEL_REQUIRE_CORPUS=1: failing instead of skipping");
            }
            eprintln!("{msg}");
            None
        }
    }
}
