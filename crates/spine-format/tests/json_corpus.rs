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
    let (mut bytes, mut parse_time) = (0usize, std::time::Duration::ZERO);
    for path in &files {
        let rel = path.strip_prefix(&corpus).unwrap_or(path).display().to_string();
        let text = std::fs::read_to_string(path).expect("corpus json is readable");
        let start = std::time::Instant::now();
        let parsed = json::parse(&text);
        parse_time += start.elapsed();
        bytes += text.len();
        match parsed {
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
                match json::parse(&json::write(&s)) {
                    Err(e) => failures.push(format!("{rel}: written text does not parse: {e}")),
                    Ok(again) if again != s => {
                        failures.push(format!("{rel}: write/parse changes the AST"))
                    }
                    Ok(_) => {}
                }
            }
        }
    }
    eprintln!(
        "{} .json files ({bytes} bytes, parsed in {parse_time:?}), {animations} animations, {} failed",
        files.len(),
        failures.len()
    );
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
    eprintln!(
        "{checked} goldens checked, {durations} durations equal, {} failures",
        failures.len()
    );
    assert!(checked > 100, "only {checked} goldens found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn rotate_keys<'a>(s: &'a json::Skeleton, anim: &str, bone: &str) -> &'a [json::Key<Option<f32>>] {
    let a = s.animation(anim).unwrap_or_else(|| panic!("animation {anim}"));
    let b = a.bones.iter().find(|b| b.name == bone).unwrap_or_else(|| panic!("bone {bone}"));
    b.timelines
        .iter()
        .find_map(|t| match t {
            BoneTimeline::Rotate(k) => Some(k.as_slice()),
            _ => None,
        })
        .expect("rotate timeline")
}

#[test]
fn spineboy_3_5_facts_and_3x_curves() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let s = read(&corpus, "3.5/spineboy/spineboy.json");
    assert_eq!(s.version, spine_format::SpineVersion::V3_5);
    assert_eq!(s.bones.len(), 17);
    assert_eq!(s.bones[0].name, "hip");
    let names: Vec<&str> = s.animations.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["death", "hit", "idle", "jump", "run", "shoot", "test", "walk"]);
    let sum = s.summary();
    assert_eq!(sum.skins, ["default"]);
    let run = sum.animations.iter().find(|a| a.name == "run").expect("run");
    assert_eq!(run.duration, 0.8);
    let death = sum.animations.iter().find(|a| a.name == "death").expect("death");
    assert_eq!(death.duration, 4.9333);

    // 3.x array curve: [cx1, cy1, cx2, cy2] on the key, rotate values under "angle".
    let k = &rotate_keys(&s, "hit", "front_upper_arm")[0];
    assert_eq!(k.value, Some(-310.92));
    assert_eq!(k.curve, Some(Curve::Bezier(vec![0.38, 0.53, 0.744, 1.0].into())));
    // "stepped".
    let k = &rotate_keys(&s, "death", "head")[4];
    assert_eq!((k.time, k.value, k.curve.clone()), (0.4, Some(-72.66), Some(Curve::Stepped)));
}

#[test]
fn spineboy_3_8_number_curves() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let s = read(&corpus, "3.8/spineboy/spineboy-pro.json");
    // { "angle": 42.05, "curve": 0.196, "c2": 0.86, "c3": 0.75 }: no time (0), no c4 (1).
    let k = &rotate_keys(&s, "run", "front-thigh")[0];
    assert_eq!(k.time, 0.0);
    assert_eq!(k.value, Some(42.05));
    assert_eq!(
        k.curve,
        Some(Curve::Number { c1: 0.196, c2: Some(0.86), c3: Some(0.75), c4: None })
    );
    let portal = s.summary().animations.into_iter().find(|a| a.name == "portal").expect("portal");
    assert_eq!(portal.duration, 3.6);
}

#[test]
fn spineboy_4_2_facts_and_4x_curves() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let s = read(&corpus, "4.2/spineboy/spineboy-pro.json");
    assert_eq!(s.version, spine_format::SpineVersion::V4_2);
    assert_eq!(s.info.hash.as_deref(), Some("dr3Kr/vMgPA"));
    assert_eq!(s.info.x, Some(-188.63));
    assert_eq!(s.bones.len(), 67);
    let tip = s.bones.iter().find(|b| b.name == "back-foot-tip").expect("back-foot-tip");
    assert_eq!(tip.inherit, Some(json::Inherit::NoRotationOrReflection));
    let sum = s.summary();
    assert_eq!(sum.version, "4.2.22");
    assert_eq!(sum.events, ["footstep"]);
    let got: Vec<(&str, f32)> =
        sum.animations.iter().map(|a| (a.name.as_str(), a.duration)).collect();
    assert_eq!(
        got,
        [
            ("aim", 0.0),
            ("death", 4.9333),
            ("hoverboard", 1.0),
            ("idle", 1.6667),
            ("idle-turn", 0.2667),
            ("jump", 1.3333),
            ("portal", 3.1667),
            ("run", 0.6667),
            ("run-to-idle", 0.2667),
            ("shoot", 0.6333),
            ("walk", 1.0),
        ]
    );
    // 4.x translate: 4 curve numbers per channel (x then y).
    let run = s.animation("run").expect("run");
    let thigh = run.bones.iter().find(|b| b.name == "front-thigh").expect("front-thigh");
    let BoneTimeline::Translate(keys) = &thigh.timelines[0] else { panic!("translate first") };
    assert_eq!((keys[0].value.x, keys[0].value.y), (Some(-5.14), Some(11.13)));
    assert_eq!(
        keys[0].curve,
        Some(Curve::Bezier(vec![0.033, -7.77, 0.112, -9.03, 0.034, 11.13, 0.108, 9.74].into()))
    );
    assert_eq!(keys[4].time, 0.6667);
    assert_eq!(keys[4].curve, None);
    // Attachment keys: the first has no time (0).
    let death = s.animation("death").expect("death");
    let eye = death.slots.iter().find(|t| t.name == "eye").expect("eye");
    let SlotTimeline::Attachment(keys) = &eye.timelines[0] else { panic!("attachment") };
    assert_eq!(keys[0].time, 0.0);
    assert_eq!(keys[0].value.as_deref(), Some("eye-surprised"));
    assert_eq!((keys[1].time, keys[1].value.as_deref()), (0.5333, Some("eye-indifferent")));
}

#[test]
fn physics_4_2() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let s = read(&corpus, "4.2/celestial-circus/celestial-circus-pro.json");
    assert_eq!(s.physics.len(), 30);
    assert_eq!(s.summary().constraints.physics, 30);
    let a = s.animation("wind-idle").expect("wind-idle");
    let c = a.physics.iter().find(|c| c.name == "girl/feathers-front").expect("constraint");
    let json::PhysicsTimeline::Value(json::PhysicsProperty::Wind, keys) = &c.timelines[0] else {
        panic!("wind timeline first")
    };
    assert_eq!((keys[0].time, keys[0].value), (0.0, Some(-15.8)));
    assert_eq!((keys[1].time, keys[1].value), (0.7667, Some(-33.3)));
    let s = read(&corpus, "4.2/cloud-pot/cloud-pot.json");
    let a = s.animation("playing-in-the-rain").expect("animation");
    let c = a.physics.iter().find(|c| c.name == "rain/rain-blue").expect("constraint");
    let json::PhysicsTimeline::Reset(keys) = &c.timelines[0] else { panic!("reset") };
    let times: Vec<f32> = keys.iter().take(2).map(|k| k.time).collect();
    assert_eq!(times, [0.4667, 0.9333]);
}

#[test]
fn errors_name_the_json_path() {
    let bad = r#"{
        "skeleton": { "spine": "4.2.22" },
        "bones": [ { "name": "root" }, { "name": "hip", "parent": "root" } ],
        "animations": { "run": { "bones": { "hip": { "rotate": [
            { "value": 1, "curve": [0, 1, 2, 3] },
            { "time": 0.5, "value": 2, "curve": "stepped" },
            { "time": 0.6, "value": 2, "curve": { "oops": 1 } },
            { "time": 1 }
        ] } } } }
    }"#;
    let e = json::parse(bad).unwrap_err();
    assert_eq!(e.path, "animations.run.bones.hip.rotate[2].curve");
    assert!(e.message.contains("expected \"stepped\""), "{e}");

    // A 4.x bezier must hold 4 numbers per channel.
    let short = bad.replace(r#"{ "oops": 1 }"#, "[1, 2, 3]");
    let e = json::parse(&short).unwrap_err();
    assert_eq!(e.path, "animations.run.bones.hip.rotate[2].curve");
    assert!(e.message.contains("at least 4"), "{e}");

    let e = json::parse(r#"{"bones": [{"name": "root", "x": "far"}]}"#).unwrap_err();
    assert_eq!(
        (e.path.as_str(), e.message.as_str()),
        ("bones[0].x", "expected a number, found a string")
    );
    let e = json::parse(r#"{"bones": [{"x": 1}]}"#).unwrap_err();
    assert_eq!(e.path, "bones[0]");
    assert!(e.message.contains("missing required field `name`"));
    let e =
        json::parse(r#"{"slots": [{"name": "s", "bone": "b", "blend": "overlay"}]}"#).unwrap_err();
    assert_eq!(e.path, "slots[0].blend");
    assert!(e.message.contains("normal, additive, multiply, screen"), "{e}");
    let e = json::parse(r#"{"skeleton": {"spine": "2.1.27"}}"#).unwrap_err();
    assert_eq!(e.path, "skeleton.spine");
    // 3.5–3.7 keys need a time.
    let e = json::parse(
        r#"{"skeleton": {"spine": "3.6.53"}, "animations": {"a": {"slots": {"s": {"color": [{"color": "ffffffff"}]}}}}}"#,
    )
    .unwrap_err();
    assert_eq!(e.path, "animations.a.slots.s.color[0]");
    assert!(e.message.contains("`time`"), "{e}");
    let e = json::parse("[1, 2").unwrap_err();
    assert!(e.message.starts_with("invalid JSON"), "{e}");
}

#[test]
fn damaged_corpus_files_error_without_panicking() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    // A small file keeps this quick in debug builds.
    let text = std::fs::read_to_string(corpus.join("4.2/powerup/powerup-pro.json"))
        .expect("powerup json is readable");
    let bytes = text.as_bytes();
    let mut errors = 0;
    // Truncations and single-byte substitutions at spread-out offsets.
    for i in (1..bytes.len()).step_by(bytes.len() / 61 + 1) {
        if let Ok(t) = std::str::from_utf8(&bytes[..i]) {
            errors += usize::from(json::parse(t).is_err());
        }
        for sub in [b'"', b'1', b'[', b'}', b'x'] {
            let mut m = bytes.to_vec();
            m[i] = sub;
            if let Ok(t) = std::str::from_utf8(&m) {
                let _ = json::parse(t);
            }
        }
    }
    assert!(errors > 55, "truncated documents must not parse ({errors} errors)");
}

#[test]
fn version_rules() {
    // 4.x: empty timelines are skipped before their name is looked at; a number curve is refused.
    let doc = r#"{"skeleton": {"spine": "4.1.17"}, "animations": {"a": {"bones": {"b": {"wobble": []}}}}}"#;
    assert!(json::parse(doc).expect("empty unknown timeline").animations[0].bones[0]
        .timelines
        .is_empty());
    let doc = r#"{"skeleton": {"spine": "4.0.64"}, "animations": {"a": {"bones": {"b": {"rotate": [
        {"value": 1, "curve": 0.25}, {"time": 1}]}}}}}"#;
    assert_eq!(json::parse(doc).unwrap_err().path, "animations.a.bones.b.rotate[0].curve");
    // 3.x: unknown bone timelines are errors even when empty.
    let doc = r#"{"skeleton": {"spine": "3.7.94"}, "animations": {"a": {"bones": {"b": {"wobble": []}}}}}"#;
    assert_eq!(json::parse(doc).unwrap_err().path, "animations.a.bones.b.wobble");
    let e = json::parse(r#"{"skeleton": {"spine": "3.8.75"}}"#).unwrap_err();
    assert!(e.message.contains("3.8.75"), "{e}");
    // No version: the 4.2 rules.
    assert_eq!(
        json::parse("{}").expect("empty document").version,
        spine_format::SpineVersion::V4_2
    );
}
