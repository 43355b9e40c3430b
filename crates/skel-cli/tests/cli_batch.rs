//! `skel render DIR --out OUTDIR/`: discovery, the summary and exit code, and `--shard`
//! covering every rig exactly once, on a small generated folder (copies of the project's
//! demo rig, files that are not rigs, and a broken rig).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn skel() -> Command {
    Command::new(env!("CARGO_BIN_EXE_skel"))
}

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("demo")
}

/// A folder of 6 demo rigs (JSON) in nested folders, plus an atlas, a page image, a JSON
/// file that is no rig, a `.skel` that is no rig, and one broken rig.
fn archive(name: &str) -> PathBuf {
    let root = std::env::temp_dir().join(format!("skel-batch-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    for (k, sub) in ["a", "a", "b/c", "b/c", "d", "e/f/g"].iter().enumerate() {
        let dir = root.join(sub);
        std::fs::create_dir_all(&dir).unwrap();
        let stem = format!("rig{k}");
        std::fs::copy(demo().join("demo.json"), dir.join(format!("{stem}.json"))).unwrap();
        // The atlas beside it, named after the rig (the contract's discovery rule).
        std::fs::copy(demo().join("demo.atlas"), dir.join(format!("{stem}.atlas"))).unwrap();
        std::fs::copy(demo().join("demo.png"), dir.join("demo.png")).unwrap();
    }
    std::fs::write(root.join("d/package.json"), br#"{"name": "not-a-rig", "version": "1.0.0"}"#)
        .unwrap();
    std::fs::write(root.join("d/notes.skel"), b"just some text, not a skeleton").unwrap();
    std::fs::write(root.join("d/readme.txt"), b"hello").unwrap();
    // A Spine JSON skeleton whose bone list is not a list: a rig that fails.
    std::fs::write(root.join("e/broken.json"), br#"{"skeleton": {"spine": "4.2.22"}, "bones": 7}"#)
        .unwrap();
    root
}

fn lines(o: &Output) -> BTreeSet<String> {
    String::from_utf8_lossy(&o.stdout).lines().map(str::to_owned).collect()
}

#[test]
fn a_folder_is_rendered_with_a_summary_and_failures_named() {
    let root = archive("all");
    let out = root.join("out");
    let o = skel()
        .arg("render")
        .arg(&root)
        .args(["--threads", "2", "--size", "64x64", "--out"])
        .arg(format!("{}/", out.display()))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    // The broken rig fails; the others are rendered; exit 1.
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("rendered 6 of 7 rigs"), "{err}");
    assert!(err.contains("1 failed"), "{err}");
    assert!(err.lines().any(|l| l.starts_with("error: ") && l.contains("broken.json")), "{err}");
    let written = lines(&o);
    assert_eq!(written.len(), 6, "{written:?}");
    for p in &written {
        let img = skel_render::load_png(Path::new(p)).unwrap();
        assert_eq!((img.width, img.height), (64, 64));
    }
    // Outputs mirror the folders: OUTDIR/<relative path>.png.
    assert!(out.join("b/c/rig2.json.png").is_file());
    assert!(!out.join("d/package.json.png").exists());
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn shards_cover_every_rig_exactly_once() {
    let root = archive("shard");
    std::fs::remove_file(root.join("e/broken.json")).unwrap();
    let run = |extra: &[&str], out: &str| {
        let o = skel()
            .arg("render")
            .arg(&root)
            .args(["--all", "--size", "32x32", "--threads", "1"])
            .args(extra)
            .arg("--out")
            .arg(format!("{}/{out}/", root.display()))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        // Relative to the output folder, so that the runs can be compared.
        let prefix = format!("{}/{out}/", root.display());
        lines(&o).into_iter().map(|l| l.replace(&prefix, "")).collect::<BTreeSet<_>>()
    };
    let all = run(&[], "all");
    // 6 rigs x 3 animations.
    assert_eq!(all.len(), 18, "{all:?}");
    let mut union = BTreeSet::new();
    let mut sizes = Vec::new();
    for i in 1..=4 {
        let part = run(&["--shard", &format!("{i}/4")], &format!("s{i}"));
        assert!(part.is_disjoint(&union), "shard {i} repeats a rig");
        sizes.push(part.len() / 3);
        union.extend(part);
    }
    assert_eq!(union, all);
    // Rig k of the sorted list goes to shard (k mod 4) + 1: 6 rigs are 2, 2, 1, 1.
    assert_eq!(sizes, [2, 2, 1, 1]);
    // The same split every time.
    assert_eq!(run(&["--shard", "2/4"], "again"), run(&["--shard", "2/4"], "again2"));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_folder_needs_an_output_folder() {
    let root = archive("usage");
    let o = skel().arg("render").arg(&root).args(["--out", "x.png"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("ending in /"));
    let _ = std::fs::remove_dir_all(&root);
}
