//! `skel commands` and `skel render` through the binary.

use std::process::Command;

fn skel() -> Command {
    Command::new(env!("CARGO_BIN_EXE_skel"))
}

#[test]
fn commands_match_the_coin_golden_exactly() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let Some(oracle) = skel_testkit::oracle_dir() else { return };
    let golden: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(oracle.join("spine-4.2/coin/coin-pro.skel.json")).unwrap(),
    )
    .unwrap();
    let g = &golden["render"];
    let t = format!("{}", g["t"].as_f64().unwrap() as f32);
    let out = skel()
        .arg("commands")
        .arg(corpus.join("4.2/coin/coin-pro.skel"))
        .args(["--anim", g["animation"].as_str().unwrap(), "--time", &t, "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let ours: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let (ours, theirs) = (ours["commands"].as_array().unwrap(), g["commands"].as_array().unwrap());
    assert_eq!(ours.len(), theirs.len());
    assert!(g["clippingActive"].as_bool().unwrap());
    for (o, t) in ours.iter().zip(theirs) {
        for k in
            ["blendMode", "texture", "numVertices", "numIndices", "colors", "darkColors", "indices"]
        {
            assert_eq!(o[k], t[k], "{k}");
        }
        for k in ["positions", "uvs"] {
            for (a, b) in o[k].as_array().unwrap().iter().zip(t[k].as_array().unwrap()) {
                let (a, b) = (a.as_f64().unwrap(), b.as_f64().unwrap());
                assert!((a - b).abs() <= 1e-3 * b.abs().max(1.0), "{k}: {a} vs {b}");
            }
        }
    }
}

#[test]
fn render_without_file_draws_the_demo_rig() {
    let dir = std::env::temp_dir().join(format!("skel-cli-render-{}", std::process::id()));
    let png = dir.join("demo.png");
    let out = skel()
        .args(["render", "--anim", "portal", "--time", "0.5", "--size", "160x120"])
        .args(["--background", "ffffffff", "--out"])
        .arg(&png)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let img = skel_render::load_png(&png).unwrap();
    assert_eq!((img.width, img.height), (160, 120));
    // Something was drawn on the white background.
    let drawn = img.pixels.chunks(4).filter(|p| p[..3] != [255, 255, 255]).count();
    assert!(drawn > 1000, "{drawn} non-background pixels");

    let gif = dir.join("demo.gif");
    let out = skel()
        .args(["render", "--anim", "walk", "--fps", "8", "--size", "80x60", "--out"])
        .arg(&gif)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(&std::fs::read(&gif).unwrap()[..6], b"GIF89a");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn render_rejects_bad_arguments() {
    for args in [
        &["render", "--out", "x.jpg"][..],
        &["render", "--size", "0x10", "--out", "x.png"][..],
        &["render", "--background", "zz", "--out", "x.png"][..],
        &["render", "--anim", "nope", "--out", "x.png"][..],
    ] {
        let out = skel().args(args).output().unwrap();
        assert!(!out.status.success(), "{args:?} should fail");
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("error: "), "{args:?}");
    }
}
