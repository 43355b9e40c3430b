//! `skel render`'s export options through the binary: video through ffmpeg (read back
//! with ffprobe), lossy WebP, GIF palette and dither, size and crop, skins combined,
//! hidden slots, the default animation, name suggestions and usage errors.
//!
//! Tests that need ffmpeg and ffprobe print a skip notice when they are missing, and fail
//! under `SKEL_REQUIRE_CORPUS=1` (CI installs them: `.ci/run`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn skel() -> Command {
    Command::new(env!("CARGO_BIN_EXE_skel"))
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("skel-export-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(args: &[&str]) -> Output {
    skel().args(args).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn ok(o: &Output) {
    assert!(o.status.success(), "{}", stderr(o));
}

/// Whether ffmpeg and ffprobe are on PATH; missing, a loud skip (a failure in CI).
fn have_ffmpeg() -> bool {
    let found =
        |exe: &str| Command::new(exe).arg("-version").output().is_ok_and(|o| o.status.success());
    if found("ffmpeg") && found("ffprobe") {
        return true;
    }
    let msg = "\n!!! ffmpeg/ffprobe not found on PATH (apt-get install ffmpeg); this test is SKIPPED !!!\n";
    if std::env::var("SKEL_REQUIRE_CORPUS").is_ok_and(|v| v == "1") {
        panic!("{msg}SKEL_REQUIRE_CORPUS=1: failing instead of skipping");
    }
    eprintln!("{msg}");
    false
}

/// ffprobe's view of the first video stream: frames counted by decoding, size, pixel
/// format, codec, and the alpha_mode tag (VP9 alpha).
fn probe(path: &Path) -> serde_json::Value {
    let o = Command::new("ffprobe")
        .args(["-v", "error", "-count_frames", "-select_streams", "v:0"])
        .args([
            "-show_entries",
            "stream=codec_name,width,height,pix_fmt,nb_read_frames:stream_tags",
        ])
        .args(["-of", "json"])
        .arg(path)
        .output()
        .unwrap();
    assert!(o.status.success(), "ffprobe {}: {}", path.display(), stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    v["streams"][0].clone()
}

fn frames(s: &serde_json::Value) -> u64 {
    s["nb_read_frames"].as_str().unwrap().parse().unwrap()
}

#[test]
fn video_round_trips_through_ffprobe() {
    if !have_ffmpeg() {
        return;
    }
    let d = tmp("video");
    // The demo's walk lasts 1 s: 10 frames at 10 fps, 65x49 (odd: MP4 pads to even).
    let common = ["render", "--anim", "walk", "--fps", "10", "--size", "65x49"];
    for ext in ["webm", "mov", "mp4"] {
        let out = d.join(format!("walk.{ext}"));
        let o = skel().args(common).arg("--out").arg(&out).output().unwrap();
        ok(&o);
        let s = probe(&out);
        assert_eq!(frames(&s), 10, "{ext}: {s}");
        match ext {
            "webm" => {
                // VP9 with alpha: yuva420p, stored as an alpha side channel that ffprobe
                // reports through the alpha_mode tag.
                assert_eq!(s["codec_name"], "vp9");
                assert_eq!((s["width"].as_u64(), s["height"].as_u64()), (Some(65), Some(49)));
                assert_eq!(s["tags"]["alpha_mode"], "1", "{s}");
            }
            "mov" => {
                assert_eq!(s["codec_name"], "prores");
                assert_eq!((s["width"].as_u64(), s["height"].as_u64()), (Some(65), Some(49)));
                assert!(s["pix_fmt"].as_str().unwrap().starts_with("yuva444p"), "{s}");
            }
            _ => {
                assert_eq!(s["codec_name"], "h264");
                assert_eq!(s["pix_fmt"], "yuv420p");
                assert_eq!((s["width"].as_u64(), s["height"].as_u64()), (Some(66), Some(50)));
            }
        }
    }
    // Nothing but the outputs is left in the folder (no temporary files).
    let mut names: Vec<String> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["walk.mov", "walk.mp4", "walk.webm"]);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn lossy_webp_and_gif_palettes() {
    if !have_ffmpeg() {
        return;
    }
    let d = tmp("lossy");
    let base = ["render", "--anim", "walk", "--fps", "10"];
    let lossless = d.join("lossless.webp");
    ok(&skel().args(base).arg("--out").arg(&lossless).output().unwrap());
    let (q90, q10) = (d.join("q90.webp"), d.join("q10.webp"));
    ok(&skel().args(base).args(["--quality", "90", "--out"]).arg(&q90).output().unwrap());
    ok(&skel().args(base).args(["--quality", "10", "--out"]).arg(&q10).output().unwrap());
    let size = |p: &Path| std::fs::metadata(p).unwrap().len();
    assert!(size(&q10) < size(&q90), "{} vs {}", size(&q10), size(&q90));
    assert!(size(&q90) < size(&lossless), "{} vs {}", size(&q90), size(&lossless));
    for p in [&q90, &q10] {
        let bytes = std::fs::read(p).unwrap();
        assert!(&bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP");
        // Animated, with alpha (the ANIM and ALPH/VP8X chunks).
        assert!(bytes.windows(4).any(|w| w == b"ANIM"));
    }
    for (name, opts) in [
        ("global.gif", &["--gif-palette", "global"][..]),
        ("bayer.gif", &["--gif-dither", "bayer"][..]),
        ("none.gif", &["--gif-palette", "global", "--gif-dither", "none"][..]),
    ] {
        let out = d.join(name);
        ok(&skel().args(base).args(opts).arg("--out").arg(&out).output().unwrap());
        assert!(std::fs::read(&out).unwrap().starts_with(b"GIF89a"));
        assert_eq!(frames(&probe(&out)), 10, "{name}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_missing_ffmpeg_is_an_error_with_the_install_hint() {
    let d = tmp("noffmpeg");
    let out = d.join("a.webm");
    let o =
        skel().args(["render", "--out"]).arg(&out).env("PATH", d.join("empty")).output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("apt-get install ffmpeg") && e.contains("--ffmpeg PATH"), "{e}");
    let o = skel().args(["render", "--ffmpeg", "/nonexistent/ffmpeg", "--out"]).arg(&out).output();
    let o = o.unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("/nonexistent/ffmpeg"));
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn usage_errors_exit_2() {
    let d = tmp("usage");
    let png = d.join("a.png");
    let png = png.to_str().unwrap();
    for args in [
        &["render", "--out", "x.avi"][..],
        &["render", "--size", "100", "--out", png],
        &["render", "--background", "red", "--out", png],
        &["render", "--scale", "-1", "--out", png],
        &["render", "--quality", "50", "--out", "x.gif"],
        &["render", "--quality", "101", "--out", "x.webp"],
        &["render", "--gif-dither", "bayer", "--out", png],
        &["render", "--style", "Default", "--out", png],
        &["render", "--shard", "1/2", "--out", png],
        &["render", "--threads", "2", "--out", png],
        &["render", "--shard", "3/2", "--out", "o/"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(e.starts_with("error: ") && e.lines().count() == 1, "{args:?}: {e}");
    }
    // A negative-looking value is read as the value: --scale -1 is out of range, not an
    // unknown flag; --time -0.5 is a time.
    assert!(stderr(&run(&["render", "--scale", "-1", "--out", png])).contains("out of range"));
    ok(&run(&["render", "--physics", "none", "--time", "-0.5", "--out", png]));
    assert!(!d.join("x.gif").exists());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn unknown_names_suggest_close_ones() {
    let d = tmp("names");
    let png = d.join("a.png");
    let png = png.to_str().unwrap();
    for (args, want) in [
        (
            &["render", "--anim", "walkk", "--out", png][..],
            "no animation 'walkk'; did you mean 'walk'?",
        ),
        (
            &["render", "--skin", "defualt", "--out", png],
            "no skin 'defualt'; did you mean 'default'?",
        ),
        (&["render", "--skin", "default,defualt", "--out", png], "did you mean 'default'?"),
        (&["render", "--anim", "zzzz", "--out", png], "(animations: 'portal', 'walk', 'wave')"),
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
    let o = run(&["render", "--hide-slot", "nosuchslot", "--out", png]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no slot 'nosuchslot'"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_embedded_demo_renders_from_any_folder_with_the_longest_animation() {
    let d = tmp("demo");
    // From a folder with nothing in it: the rig, atlas and page are in the binary.
    let o = skel().current_dir(&d).args(["render", "--out", "demo.png"]).output().unwrap();
    ok(&o);
    // The default animation is the longest one: the demo's "portal" (2 s).
    ok(&skel()
        .current_dir(&d)
        .args(["render", "--anim", "portal", "--out", "p.png"])
        .output()
        .unwrap());
    assert_eq!(std::fs::read(d.join("demo.png")).unwrap(), std::fs::read(d.join("p.png")).unwrap());
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn hidden_slots_are_not_drawn() {
    let d = tmp("hide");
    let (all, hidden) = (d.join("all.png"), d.join("hidden.png"));
    let base = ["render", "--anim", "walk", "--size", "128x96"];
    ok(&skel().args(base).arg("--out").arg(&all).output().unwrap());
    let slots = {
        let o = run(&["pose", "demo/demo.json", "--anim", "walk", "--time", "0"]);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["slot_names"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_owned())
            .collect::<Vec<_>>()
    };
    let mut cmd = skel();
    cmd.args(base);
    for s in &slots {
        cmd.args(["--hide-slot", s]);
    }
    // Every slot hidden: nothing to draw is an error naming why.
    let o = cmd.arg("--out").arg(&hidden).output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("nothing to draw"), "{}", stderr(&o));
    // One slot hidden: fewer pixels drawn.
    let mut cmd = skel();
    cmd.args(base).args(["--hide-slot", &slots[slots.len() / 2]]).arg("--out").arg(&hidden);
    ok(&cmd.output().unwrap());
    let drawn =
        |p: &Path| skel_render::load_png(p).unwrap().pixels.chunks(4).filter(|p| p[3] > 0).count();
    assert!(drawn(&hidden) < drawn(&all), "{} vs {}", drawn(&hidden), drawn(&all));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn size_caps_include_the_margin_and_crop_shares_one_scale() {
    let d = tmp("crop");
    // --crop with --size: each image is its animation's bounds at one scale, within the cap.
    let o = skel()
        .args(["render", "--all", "--crop", "--size", "200x150", "--out"])
        .arg(d.join("c.png"))
        .output()
        .unwrap();
    ok(&o);
    let mut sizes = Vec::new();
    for a in ["portal", "walk", "wave"] {
        let img = skel_render::load_png(&d.join(format!("c-{a}.png"))).unwrap();
        assert!(img.width <= 200 && img.height <= 150, "{a}: {}x{}", img.width, img.height);
        sizes.push((img.width, img.height));
    }
    assert!(sizes.iter().any(|s| s.0 == 200 || s.1 == 150), "{sizes:?}");
    // --scale 1000 without --size: capped at 2048 per side, margin included.
    let o = skel().args(["render", "--scale", "1000", "--out"]).arg(d.join("big.png")).output();
    ok(&o.unwrap());
    let img = skel_render::load_png(&d.join("big.png")).unwrap();
    assert!(img.width.max(img.height) == 2048 && img.width <= 2048 && img.height <= 2048);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn skins_combine_later_ones_winning() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let rig = corpus.join("4.2/mix-and-match/mix-and-match-pro.skel");
    let d = tmp("skins");
    let render = |skin: &str, out: &str| {
        let mut cmd = skel();
        cmd.arg("render").arg(&rig).args(["--skin", skin, "--out"]).arg(d.join(out));
        let o = cmd.output().unwrap();
        ok(&o);
        std::fs::read(d.join(out)).unwrap()
    };
    let base = render("skin-base", "base.png");
    let dressed = render("skin-base,clothes/dress-blue,hair/pink", "dressed.png");
    let swapped = render("hair/pink,clothes/dress-blue,skin-base", "swapped.png");
    assert!(base != dressed);
    // The dress replaces some of skin-base's attachments (same slot and name) only when it
    // comes later.
    assert!(dressed != swapped);
    // Two hair skins: the later one's attachments replace the earlier one's.
    let pink_then_brown = render("skin-base,hair/pink,hair/brown", "pb.png");
    let brown = render("skin-base,hair/brown", "b.png");
    assert!(pink_then_brown == brown);
    // `skel commands` takes the same combined skins.
    let o = skel()
        .arg("commands")
        .arg(&rig)
        .args(["--skin", "skin-base,hair/pink", "--anim", "walk", "--time", "0", "--json"])
        .output()
        .unwrap();
    ok(&o);
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn skelform_pose_and_play_honour_json() {
    let Some(dir) = skel_testkit::fixtures_dir() else { return };
    let skf = dir.join("skelform/skellina_v0.6.0.skf");
    for verb in [&["pose", "--anim", "Walk", "--frame", "3"][..], &["play", "--anim", "Walk"]] {
        let text = skel().arg(verb[0]).arg(&skf).args(&verb[1..]).output().unwrap();
        ok(&text);
        assert!(!text.stdout.starts_with(b"{"), "{verb:?}");
        let json = skel().arg(verb[0]).arg(&skf).args(&verb[1..]).arg("--json").output().unwrap();
        ok(&json);
        let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
        assert!(v.is_object(), "{verb:?}");
    }
}
