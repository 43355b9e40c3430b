//! `skel bench` through the command-line contract: the JSON keys, plausible figures, and
//! typed failures. (Timings are not asserted beyond being measured: this is not a timed test.)

use std::process::Command;

fn skel(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skel")).args(args).output().expect("skel runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn bench_json(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["bench"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--budget-ms", "20", "--json"]);
    let (code, out, err) = skel(&all);
    assert_eq!(code, 0, "skel {all:?}: {err}");
    serde_json::from_str(&out).expect("one JSON document")
}

fn assert_measured(v: &serde_json::Value) {
    for key in ["load_us", "frame_ns", "commands_ns"] {
        let x = v[key].as_f64().unwrap_or_else(|| panic!("{key} missing in {v}"));
        assert!(x.is_finite() && x > 0.0, "{key} = {x} in {v}");
    }
    for key in ["load", "frame", "commands"] {
        assert!(v["repetitions"][key].as_u64().is_some_and(|n| n >= 5), "{key} in {v}");
    }
}

#[test]
fn bench_measures_the_demo_rig() {
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("demo/demo.json");
    let v = bench_json(&[demo.to_str().unwrap(), "--anim", "walk"]);
    assert_eq!(v["format"], "spine-json");
    assert_eq!(v["anim"], "walk");
    assert_measured(&v);
    assert!(v["vertices"].as_u64().is_some_and(|n| n > 0), "{v}");
}

#[test]
fn bench_measures_a_spine_binary_and_a_skelform_archive() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let v = bench_json(&[
        corpus.join("4.2/spineboy/spineboy-pro.skel").to_str().unwrap(),
        "--anim",
        "run",
    ]);
    assert_eq!(v["format"], "spine-binary");
    assert_measured(&v);
    let Some(fixtures) = skel_testkit::fixtures_dir() else { return };
    let skf = fixtures.join("skelform/skellina_v0.7.0.skf");
    let v = bench_json(&[skf.to_str().unwrap()]);
    assert_eq!(v["format"], "skelform");
    assert_measured(&v);
}

#[test]
fn bench_reports_a_missing_animation_as_bad_input() {
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("demo/demo.json");
    let (code, out, err) =
        skel(&["bench", demo.to_str().unwrap(), "--anim", "no-such-anim", "--budget-ms", "1"]);
    assert_eq!(code, 1, "{out}");
    assert!(err.starts_with("error: ") && err.contains("no-such-anim"), "{err}");
}
