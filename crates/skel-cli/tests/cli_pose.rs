//! `skel pose` / `skel play` through the command line, against the spine-cpp 4.2 goldens.

use std::path::Path;
use std::process::Command;

/// Runs `skel ARGS`; `Ok(stdout as JSON)` on success, `Err(stderr)` on exit 1.
fn skel_json(args: &[&str]) -> Result<serde_json::Value, String> {
    let out = Command::new(env!("CARGO_BIN_EXE_skel")).args(args).output().expect("skel runs");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    match out.status.code() {
        Some(0) => Ok(serde_json::from_slice(&out.stdout).expect("one JSON document")),
        Some(1) => Err(err),
        other => panic!("skel {args:?}: exit {other:?}: {err}"),
    }
}

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn spineboy() -> Option<(std::path::PathBuf, serde_json::Value)> {
    let corpus = skel_testkit::spine_corpus()?;
    let oracle = skel_testkit::oracle_dir()?;
    let golden =
        std::fs::read_to_string(oracle.join("spine-4.2/spineboy/spineboy-pro.skel.json")).unwrap();
    Some((corpus.join("4.2/spineboy/spineboy-pro.skel"), serde_json::from_str(&golden).unwrap()))
}

fn close(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => (x - y).abs() <= 1e-3 * y.abs().max(1.0),
        _ => match (a.as_array(), b.as_array()) {
            (Some(x), Some(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| close(p, q)),
            _ => a == b,
        },
    }
}

#[test]
fn pose_json_has_the_golden_shape_and_values() {
    let Some((skel, golden)) = spineboy() else { return };
    let s = &golden["pose"]["walk"]["samples"][5];
    let t = format!("{}", s["t"].as_f64().unwrap() as f32);
    let out =
        skel_json(&["pose", path(&skel), "--anim", "walk", "--time", &t, "--vertices", "--json"])
            .unwrap();
    assert_eq!(out["bone_names"], golden["bones"]);
    assert_eq!(out["slot_names"], golden["slots"]);
    assert_eq!(out["drawOrder"], s["drawOrder"]);
    assert!(close(&out["slots"], &s["slots"]));
    // The hip is not constraint-driven: its world transform matches.
    assert!(close(&out["bones"][1], &s["bones"][1]), "{} vs {}", out["bones"][1], s["bones"][1]);
    assert!(out["vertices"]["head"].as_array().unwrap().len() >= 8);
    let err = skel_json(&["pose", path(&skel), "--anim", "no-such-animation", "--time", "0"])
        .unwrap_err();
    assert!(err.starts_with("error: ") && err.contains("no-such-animation"), "{err}");
}

#[test]
fn play_json_has_the_golden_events() {
    let Some((skel, golden)) = spineboy() else { return };
    let out = skel_json(&["play", path(&skel), "--anim", "walk,run", "--json"]).unwrap();
    let st = &golden["state"];
    assert!(close(&out["trackEvents"], &st["trackEvents"]), "{}", out["trackEvents"]);
    assert!(close(&out["events"], &st["events"]), "{}", out["events"]);
    let frames: Vec<u64> =
        out["samples"].as_array().unwrap().iter().map(|s| s["frame"].as_u64().unwrap()).collect();
    let golden_frames: Vec<u64> =
        st["samples"].as_array().unwrap().iter().map(|s| s["frame"].as_u64().unwrap()).collect();
    assert_eq!(frames, golden_frames);
}

#[test]
fn pose_time_is_read_as_an_f32_exactly_as_written() {
    let Some((skel, _)) = spineboy() else { return };
    // The f32 just above 0.8 (a key time of spineboy-pro `hoverboard`).
    let out = skel_json(&[
        "pose",
        path(&skel),
        "--anim",
        "hoverboard",
        "--time",
        "0.800000072",
        "--json",
    ])
    .unwrap();
    let t = out["t"].as_f64().expect("t") as f32;
    assert_eq!(t.to_bits(), 0.8f32.to_bits() + 1, "{}", out["t"]);
}
