//! `skel pose` / `skel play` library functions (`src/pose.rs`, compiled here until the
//! lead wires them into `main.rs`) against the spine-cpp 4.2 goldens.

#[allow(dead_code)]
#[path = "../src/pose.rs"]
mod pose;

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
    let t = s["t"].as_f64().unwrap() as f32;
    let out = pose::pose(&skel, None, None, "walk", t, true).unwrap();
    assert_eq!(out["bone_names"], golden["bones"]);
    assert_eq!(out["slot_names"], golden["slots"]);
    assert_eq!(out["drawOrder"], s["drawOrder"]);
    assert!(close(&out["slots"], &s["slots"]));
    // The hip is not constraint-driven: its world transform matches.
    assert!(close(&out["bones"][1], &s["bones"][1]), "{} vs {}", out["bones"][1], s["bones"][1]);
    assert!(out["vertices"]["head"].as_array().unwrap().len() >= 8);
    assert!(pose::pose(&skel, None, None, "no-such-animation", 0.0, false).is_err());
}

#[test]
fn play_json_has_the_golden_events() {
    let Some((skel, golden)) = spineboy() else { return };
    let o = pose::PlayOptions { anims: vec!["walk".into(), "run".into()], ..Default::default() };
    let out = pose::play(&skel, None, None, &o).unwrap();
    let st = &golden["state"];
    assert!(close(&out["trackEvents"], &st["trackEvents"]), "{}", out["trackEvents"]);
    assert!(close(&out["events"], &st["events"]), "{}", out["events"]);
    let frames: Vec<u64> =
        out["samples"].as_array().unwrap().iter().map(|s| s["frame"].as_u64().unwrap()).collect();
    let golden_frames: Vec<u64> =
        st["samples"].as_array().unwrap().iter().map(|s| s["frame"].as_u64().unwrap()).collect();
    assert_eq!(frames, golden_frames);
    // The f32 just above 0.8 (a key time of spineboy-pro hoverboard).
    assert_eq!(pose::parse_time("0.800000072").unwrap().to_bits(), 0.8f32.to_bits() + 1);
}
