//! `skel convert`: binary ⇄ JSON within a version (the converted file's `skel info` equals
//! the source's), upgrades to 4.3 and 4.2 that the other verbs load, 4.3 JSON read by
//! `info`/`pose`, refused downgrades and bad `--to` values.

use std::path::Path;
use std::process::Command;

fn skel(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skel")).args(args).output().expect("skel runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `skel info --json` without the fields that name the file or its format and size.
fn info(path: &Path) -> serde_json::Value {
    let (code, out, err) = skel(&["info", path.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{}: {err}", path.display());
    let mut v: serde_json::Value = serde_json::from_str(&out).unwrap();
    for k in ["file", "format", "bytes_total", "bytes_consumed"] {
        v.as_object_mut().unwrap().remove(k);
    }
    v
}

fn tmp(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("skel-cli-convert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn a_43_binary_and_its_json_twin_agree_in_info_and_pose() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let skel_file = root.join("fixtures/spine-4.3/sliders.skel");
    let json_file = tmp("sliders.json");
    let (code, _, err) = skel(&[
        "convert",
        skel_file.to_str().unwrap(),
        "--to",
        "4.3",
        "--out",
        json_file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&json_file).unwrap().trim_start().starts_with('{'));
    assert_eq!(info(&skel_file), info(&json_file));
    // Back to binary: the same again, and `pose` reads the 4.3 JSON.
    let back = tmp("sliders-back.skel");
    let (code, _, err) = skel(&[
        "convert",
        json_file.to_str().unwrap(),
        "--to",
        "4.3",
        "--out",
        back.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(info(&back), info(&skel_file));
    let pose = |f: &Path| {
        skel(&["pose", f.to_str().unwrap(), "--anim", "anim0", "--time", "0.5", "--json"])
    };
    let (a, b) = (pose(&back), pose(&json_file));
    assert_eq!((a.0, b.0), (0, 0), "{} {}", a.2, b.2);
}

#[test]
fn corpus_rigs_convert_within_their_version_and_upgrade() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    for (rel, other) in [("3.6/raptor/raptor-pro.skel", "json"), ("4.1/owl/owl-pro.json", "skel")] {
        let src = corpus.join(rel);
        let out = tmp(&format!("within.{other}"));
        let version = &rel[..3];
        let (code, _, err) = skel(&[
            "convert",
            src.to_str().unwrap(),
            "--to",
            version,
            "--format",
            other,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{rel}: {err}");
        let (a, b) = (info(&src), info(&out));
        assert_eq!(a, b, "{rel}");
        for (to, ext) in [("4.3", "skel"), ("4.3", "json"), ("4.2", "json"), ("4.2", "skel")] {
            let up = tmp(&format!("up-{to}.{ext}"));
            let (code, _, err) = skel(&[
                "convert",
                src.to_str().unwrap(),
                "--to",
                to,
                "--out",
                up.to_str().unwrap(),
            ]);
            assert_eq!(code, 0, "{rel} -> {to} {ext}: {err}");
            let v = info(&up);
            assert!(v["version"].as_str().unwrap().starts_with(to), "{v}");
            assert_eq!(v["bones"], b["bones"]);
            assert_eq!(v["animations"], b["animations"], "{rel} -> {to} {ext}");
            let (code, _, err) = skel(&["validate", up.to_str().unwrap(), "--no-atlas"]);
            assert_eq!(code, 0, "{rel} -> {to} {ext}: {err}");
        }
    }
}

#[test]
fn downgrades_and_bad_targets_are_refused() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let src = root.join("fixtures/spine-4.3/physics.skel");
    let out = tmp("down.json");
    let (code, _, err) =
        skel(&["convert", src.to_str().unwrap(), "--to", "4.2", "--out", out.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
    assert!(err.starts_with("error: ") && err.contains("downgrade"), "{err}");
    assert!(!out.exists());
    let (code, _, err) =
        skel(&["convert", src.to_str().unwrap(), "--to", "four", "--out", out.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = skel(&[
        "convert",
        src.to_str().unwrap(),
        "--to",
        "4.3",
        "--format",
        "xml",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    // Never over its own input.
    let copy = tmp("self.skel");
    std::fs::copy(&src, &copy).unwrap();
    let (code, _, err) =
        skel(&["convert", copy.to_str().unwrap(), "--to", "4.3", "--out", copy.to_str().unwrap()]);
    assert_eq!(code, 1, "{err}");
}
