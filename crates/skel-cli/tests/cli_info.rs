//! `skel info` through the command line contract.

use std::path::{Path, PathBuf};
use std::process::Command;

fn skel(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skel")).args(args).output().expect("skel runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn info_json(path: &Path) -> serde_json::Value {
    let (code, out, err) = skel(&["info", path.to_str().expect("utf-8 path"), "--json"]);
    assert_eq!(code, 0, "skel info {}: {err}", path.display());
    serde_json::from_str(&out).expect("one JSON document")
}

#[test]
fn info_reads_every_generated_4_3_fixture_fully() {
    let dir = skel_testkit::project_fixtures().join("spine-4.3");
    let files = skel_testkit::files_with_suffix(&dir, ".skel");
    assert!(files.len() >= 4, "generated fixtures missing in {}", dir.display());
    for f in files {
        let v = info_json(&f);
        assert_eq!(v["format"], "spine-binary");
        assert!(v["version"].as_str().is_some_and(|s| s.starts_with("4.3")), "{v}");
        assert_eq!(v["bytes_consumed"], v["bytes_total"], "{}", f.display());
        assert_eq!(v["bytes_total"].as_u64(), Some(std::fs::metadata(&f).unwrap().len()));
    }
}

#[test]
fn info_on_binary_and_json_twins_reports_the_same_numbers() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let mut failures = Vec::new();
    let mut pairs = 0;
    for skel_path in skel_testkit::files_with_suffix(&corpus, ".skel") {
        let json_path: PathBuf = skel_path.with_extension("json");
        if !json_path.exists() {
            continue;
        }
        pairs += 1;
        let (b, j) = (info_json(&skel_path), info_json(&json_path));
        assert_eq!(j["format"], "spine-json");
        for key in ["bones", "slots", "constraints", "events"] {
            if b[key] != j[key] {
                failures.push(format!("{}: {key}: {} vs {}", skel_path.display(), b[key], j[key]));
            }
        }
        // Some twins were exported by different patch releases (3.5.03-beta vs 3.5.49, see
        // MANIFEST.tsv): the generation must agree.
        let minor = |v: &serde_json::Value| -> String {
            v["version"].as_str().unwrap_or("").split('.').take(2).collect::<Vec<_>>().join(".")
        };
        if minor(&b) != minor(&j) {
            failures.push(format!(
                "{}: version {} vs {}",
                skel_path.display(),
                b["version"],
                j["version"]
            ));
        }
        // The binary format does not store skins that hold no attachments (3.8 hero-pro's
        // weapon skins only list bones), so every binary skin must be in the JSON, in order.
        let (bs, js) = (b["skins"].as_array().cloned(), j["skins"].as_array().cloned());
        let (bs, js) = (bs.unwrap_or_default(), js.unwrap_or_default());
        let mut it = js.iter();
        if !bs.iter().all(|s| it.any(|x| x == s)) {
            failures.push(format!("{}: skins {:?} vs {:?}", skel_path.display(), bs, js));
        }
        let names = |v: &serde_json::Value| -> Vec<(String, f64)> {
            v["animations"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .map(|x| {
                            (
                                x["name"].as_str().unwrap_or("").to_owned(),
                                x["duration"].as_f64().unwrap_or(-1.0),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let (ba, ja) = (names(&b), names(&j));
        if ba.len() != ja.len() {
            failures.push(format!(
                "{}: animation count {} vs {}",
                skel_path.display(),
                ba.len(),
                ja.len()
            ));
        }
        for ((bn, bd), (jn, jd)) in ba.iter().zip(&ja) {
            // The editor rounds JSON times to about 4 decimals.
            if bn != jn || (bd - jd).abs() > 1e-3 {
                failures.push(format!("{}: animation {bn} {bd} vs {jn} {jd}", skel_path.display()));
            }
        }
    }
    assert!(pairs > 100, "only {pairs} skel/json twins found");
    assert!(failures.is_empty(), "{} differences:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn bad_input_exits_1_with_one_clear_line_naming_the_byte() {
    let dir = std::env::temp_dir().join(format!("skel-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = skel_testkit::project_fixtures().join("spine-4.3/physics.skel");
    let bytes = std::fs::read(&src).unwrap();
    let truncated = dir.join("truncated.skel");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    let (code, out, err) = skel(&["info", truncated.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(lines[0].starts_with(&format!("error: {}: ", truncated.display())), "{err}");
    assert!(lines[0].contains("at byte "), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn wrong_usage_exits_2() {
    let (code, _, err) = skel(&["info"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn skelform_archives_are_detected_from_the_content() {
    let Some(fixtures) = skel_testkit::fixtures_dir() else { return };
    for name in ["skellina_v0.7.0.skf", "skellington_v0.6.0.skf"] {
        let v = info_json(&fixtures.join("skelform").join(name));
        assert_eq!(v["format"], "skelform", "{v}");
        assert!(v["bones"].as_u64().is_some_and(|n| n > 10), "{v}");
        assert!(v["animations"].as_array().is_some_and(|a| !a.is_empty()), "{v}");
    }
    let path = fixtures.join("skelform/skellina_v0.7.0.skf");
    let (code, out, err) =
        skel(&["pose", path.to_str().unwrap(), "--anim", "Walk", "--frame", "5", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["frame"], 5);
    assert_eq!(v["world"].as_array().map(Vec::len), v["bone_names"].as_array().map(Vec::len));
}
