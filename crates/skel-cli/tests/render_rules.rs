//! `skel render` / `skel commands` rules: played frames with physics (the same run as
//! `skel play`), the atlas rule and its errors (never a blank image with exit 0), and
//! premultiplied alpha in every version. Corpus files are copied into temporary folders at
//! test time only; nothing of the corpus is written into the repository.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn skel(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_skel")).args(args).output().expect("skel runs")
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn ok(o: &Output) -> &Output {
    assert!(o.status.success(), "exit {:?}: {}", o.status.code(), stderr(o));
    o
}

fn json(o: &Output) -> Value {
    serde_json::from_slice(&ok(o).stdout).expect("one JSON document")
}

/// A fresh temporary folder for one test.
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skel-render-rules-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Straight RGBA pixels of a PNG.
fn pixels(png: &Path) -> (u32, u32, Vec<u8>) {
    let img = skel_render::decode_png(&std::fs::read(png).unwrap()).expect("a PNG");
    (img.width, img.height, img.pixels)
}

/// Mean absolute difference per channel between two same-sized images.
fn mean_diff(a: &Path, b: &Path) -> f64 {
    let (wa, ha, pa) = pixels(a);
    let (wb, hb, pb) = pixels(b);
    assert_eq!((wa, ha), (wb, hb));
    let sum: u64 = pa.iter().zip(&pb).map(|(x, y)| u64::from(x.abs_diff(*y))).sum();
    sum as f64 / pa.len() as f64
}

fn celestial_circus() -> Option<PathBuf> {
    Some(skel_testkit::spine_corpus()?.join("4.2/celestial-circus/celestial-circus-pro.skel"))
}

// ---------------------------------------------------------------------------------------
// Played frames

#[test]
fn a_physics_frame_is_skel_plays_frame_and_differs_from_the_physics_off_pose() {
    let Some(rig) = celestial_circus() else { return };
    let rig = s(&rig);
    let at = ["--anim", "swing", "--time", "1"];
    // 30 steps of 1/30 s: `skel play`'s frame 30 at --fps 30.
    let played =
        json(&skel(&[&["commands", rig][..], &at, &["--play", "--fps", "30", "--json"]].concat()));
    let posed = json(&skel(&[&["commands", rig][..], &at, &["--json"]].concat()));
    let play = json(&skel(&[
        "play",
        rig,
        "--anim",
        "swing",
        "--fps",
        "30",
        "--frames",
        "30",
        "--every",
        "30",
        "--vertices",
        "--json",
    ]));
    let names = json(&skel(&["pose", rig, "--anim", "swing", "--time", "0", "--json"]));
    let names = names["slot_names"].as_array().unwrap();
    let sample = play["samples"].as_array().unwrap().last().unwrap();
    assert_eq!(sample["frame"], 30);

    // The drawn positions are the played skeleton's world vertices, slot by slot in draw
    // order (celestial-circus has no clipping).
    let flat = |v: &Value| -> Vec<f64> {
        v["commands"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|c| c["positions"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()))
            .collect()
    };
    let mut expected = Vec::new();
    for i in sample["drawOrder"].as_array().unwrap() {
        let name = names[i.as_u64().unwrap() as usize].as_str().unwrap();
        if let Some(v) = sample["vertices"].get(name) {
            expected.extend(v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()));
        }
    }
    let drawn = flat(&played);
    assert_eq!(drawn.len(), expected.len());
    for (k, (a, b)) in drawn.iter().zip(&expected).enumerate() {
        assert!((a - b).abs() <= 1e-3 * b.abs().max(1.0), "position {k}: {a} vs {b}");
    }
    // Physics moves the rig: the physics-off pose is elsewhere.
    let off = flat(&posed);
    assert_eq!(off.len(), drawn.len());
    let moved = drawn.iter().zip(&off).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
    assert!(moved > 20.0, "physics moved the swing by only {moved}");

    // The rendered PNG is that frame: it differs from --physics none.
    let dir = temp("physics");
    let (phys, none) = (dir.join("phys.png"), dir.join("none.png"));
    let size = ["--size", "96x96", "--out"];
    ok(&skel(&[&["render", rig][..], &at, &size, &[s(&phys)]].concat()));
    ok(&skel(&[&["render", rig][..], &at, &["--physics", "none"], &size, &[s(&none)]].concat()));
    let d = mean_diff(&phys, &none);
    assert!(d > 1.0, "physics and physics-off frames differ by only {d} per channel");

    // A still at t = 1 is frame 30 of the animated output (same run, same view).
    let seq = dir.join("seq/");
    ok(&skel(&["render", rig, "--anim", "swing", "--size", "96x96", "--out", s(&seq)]));
    let frames = std::fs::read_dir(&seq).unwrap().count();
    assert_eq!(frames, 66, "2.2 s at 30 fps");
    assert_eq!(std::fs::read(&phys).unwrap(), std::fs::read(seq.join("frame_00030.png")).unwrap());
    // And t = 0 is frame 0.
    let first = dir.join("first.png");
    ok(&skel(&["render", rig, "--anim", "swing", "--size", "96x96", "--out", s(&first)]));
    assert_eq!(std::fs::read(&first).unwrap(), std::fs::read(seq.join("frame_00000.png")).unwrap());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn physics_none_and_played_frames_agree_on_a_rig_without_physics() {
    let dir = temp("demo");
    let (a, b) = (dir.join("a.png"), dir.join("b.png"));
    for (anim, t) in [("walk", "0.25"), ("portal", "0.37")] {
        let base = ["render", "--anim", anim, "--time", t, "--size", "96x96", "--out"];
        ok(&skel(&[&base[..], &[s(&a)]].concat()));
        ok(&skel(&[&base[..], &[s(&b), "--physics", "none"]].concat()));
        assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap(), "{anim} at {t}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn commands_play_starts_from_zero_and_rejects_a_negative_time() {
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("demo/demo.json");
    let d = s(&demo);
    let at0 = json(&skel(&["commands", d, "--anim", "walk", "--play", "--json"]));
    let posed = json(&skel(&["commands", d, "--anim", "walk", "--json"]));
    // The demo rig has no physics: at t = 0 the played and posed frames are the same.
    assert_eq!(at0, posed);
    // A usage error (exit 2), as every argument out of its range.
    let o = skel(&["commands", d, "--anim", "walk", "--time=-1", "--play", "--json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--time must be 0 or more"), "{}", stderr(&o));
    // --fps belongs to --play.
    assert_eq!(skel(&["commands", d, "--anim", "walk", "--fps", "60"]).status.code(), Some(2));
}

// ---------------------------------------------------------------------------------------
// The atlas rule: no blank output

#[test]
fn render_without_an_atlas_exits_1_naming_what_was_looked_for() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let dir = temp("no-atlas");
    let rig = dir.join("raptor-pro.skel");
    std::fs::copy(corpus.join("3.8/raptor/raptor-pro.skel"), &rig).unwrap();
    // A pma atlas alone is not picked up (the contract's rule).
    std::fs::copy(corpus.join("3.8/raptor/raptor-pma.atlas"), dir.join("raptor-pma.atlas"))
        .unwrap();
    let out = dir.join("x.png");
    for verb in
        [&["render", s(&rig), "--out", s(&out)][..], &["commands", s(&rig), "--anim", "walk"]]
    {
        let o = skel(verb);
        assert_eq!(o.status.code(), Some(1), "{verb:?}");
        let err = stderr(&o);
        assert!(err.starts_with(&format!("error: {}: no atlas found", rig.display())), "{err}");
        for part in [
            &format!("looked in {}", dir.display())[..],
            "raptor-pro.atlas",
            "raptor.atlas",
            "single non-pma .atlas (found none",
            "raptor-pma.atlas is used only when given with --atlas",
            "--no-atlas",
        ] {
            assert!(err.contains(part), "{part:?} not in {err}");
        }
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    assert!(!out.exists(), "no image is written");

    // --no-atlas is the explicit geometry-only choice: a visible, untextured drawing.
    ok(&skel(&[
        "render",
        s(&rig),
        "--no-atlas",
        "--anim",
        "walk",
        "--size",
        "64x64",
        "--out",
        s(&out),
    ]));
    let (_, _, px) = pixels(&out);
    let covered = px.chunks(4).filter(|p| p[3] > 0).count();
    assert!(covered > 500, "geometry covers {covered} pixels");
    let cmds = json(&skel(&["commands", s(&rig), "--no-atlas", "--anim", "walk", "--json"]));
    let cmds = cmds["commands"].as_array().unwrap();
    assert!(!cmds.is_empty());
    assert!(cmds.iter().all(|c| c["texture"] == "(no atlas)"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_page_image_exits_1_naming_its_path() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let dir = temp("no-page");
    let rig = dir.join("spineboy.skel");
    std::fs::copy(corpus.join("3.5/spineboy/spineboy.skel"), &rig).unwrap();
    std::fs::copy(corpus.join("3.5/spineboy/spineboy.atlas"), dir.join("spineboy.atlas")).unwrap();
    let out = dir.join("x.png");
    let o = skel(&["render", s(&rig), "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    let page = dir.join("spineboy.png");
    assert!(
        err.contains(&format!(
            "atlas page image \"spineboy.png\" not found: looked for {}",
            page.display()
        )),
        "{err}"
    );
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn render_commands_need_no_page_image() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let dir = temp("commands-no-page");
    let rig = dir.join("spineboy.skel");
    std::fs::copy(corpus.join("3.5/spineboy/spineboy.skel"), &rig).unwrap();
    std::fs::copy(corpus.join("3.5/spineboy/spineboy.atlas"), dir.join("spineboy.atlas")).unwrap();
    let o = skel(&["commands", s(&rig), "--anim", "run", "--time", "0.2", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let commands = doc["commands"].as_array().expect("a commands list");
    assert!(!commands.is_empty());
    assert!(commands.iter().all(|c| c["texture"] == "spineboy.png"), "{doc}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A self-made rig (no corpus): one slot showing a 10×10 region, `color` its slot color.
fn tiny_rig(dir: &Path, color: &str) -> PathBuf {
    let json = format!(
        r#"{{"skeleton": {{"spine": "4.2.22"}}, "bones": [{{"name": "root"}}],
  "slots": [{{"name": "s", "bone": "root", "color": "{color}", "attachment": "r"}}],
  "skins": [{{"name": "default", "attachments": {{"s": {{"r": {{"width": 10, "height": 10}}}}}}}}],
  "animations": {{"hidden": {{}}}}}}"#
    );
    let rig = dir.join("tiny.json");
    std::fs::write(&rig, json).unwrap();
    std::fs::write(
        dir.join("tiny.atlas"),
        "tiny.png\nsize: 2,2\nfilter: Linear,Linear\nr\n  bounds: 0,0,2,2\n",
    )
    .unwrap();
    skel_render::encode::save_png(&dir.join("tiny.png"), 2, 2, &[255; 16]).unwrap();
    rig
}

#[test]
fn an_output_that_draws_nothing_exits_1_naming_the_skin_and_animation() {
    let dir = temp("nothing");
    let rig = tiny_rig(&dir, "ffffff00");
    for (out, when) in [("x.png", "at --time 0"), ("x.gif", "in any of its 1 frame")] {
        let out = dir.join(out);
        let o = skel(&["render", s(&rig), "--out", s(&out)]);
        assert_eq!(o.status.code(), Some(1));
        let err = stderr(&o);
        assert!(
            err.contains(&format!(
                "nothing to draw: skin \"default\", animation \"hidden\" shows no region or mesh attachment {when}"
            )),
            "{err}"
        );
        assert!(!out.exists());
        assert_eq!(
            skel(&["render", s(&rig), "--physics", "none", "--out", s(&out)]).status.code(),
            Some(1)
        );
    }
    // The same rig with its slot visible draws.
    let rig = tiny_rig(&dir, "ffffffff");
    ok(&skel(&["render", s(&rig), "--out", s(&dir.join("x.png"))]));
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------
// Premultiplied alpha

#[test]
fn pma_atlases_draw_like_straight_ones_in_3_x_and_4_x() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let dir = temp("pma");
    for v in ["3.8", "4.2"] {
        let folder = corpus.join(v).join("raptor");
        let rig = folder.join("raptor-pro.skel");
        let pma_atlas = folder.join("raptor-pma.atlas");
        let render = |name: &str, extra: &[&str]| {
            let out = dir.join(format!("{v}-{name}.png"));
            let base = ["render", s(&rig), "--anim", "walk", "--time", "0.3", "--size", "160x140"];
            ok(&skel(
                &[&base[..], &["--background", "808080ff", "--out", s(&out)], extra].concat(),
            ));
            out
        };
        let straight = render("straight", &[]);
        // 3.x: named `-pma.atlas`, no `pma:` field; 4.x: `pma: true`.
        let detected = render("detected", &["--atlas", s(&pma_atlas)]);
        let forced = render("forced", &["--atlas", s(&pma_atlas), "--pma"]);
        let wrong = render("wrong", &["--atlas", s(&pma_atlas), "--no-pma"]);
        let wrong_other_way = render("wrong2", &["--pma"]);
        let same = mean_diff(&straight, &detected);
        assert_eq!(std::fs::read(&detected).unwrap(), std::fs::read(&forced).unwrap(), "{v}");
        // Premultiplied pages drawn as straight alpha go grey at semi-transparent texels
        // (the visor), and straight pages drawn as premultiplied go light at the edges.
        let grey = mean_diff(&straight, &wrong);
        let light = mean_diff(&straight, &wrong_other_way);
        eprintln!("{v}: straight vs pma atlas {same:.3}, --no-pma {grey:.3}, --pma {light:.3}");
        assert!(same < 0.5, "{v}: the pma atlas draws differently: {same}");
        assert!(grey > 2.0 * same && light > 2.0 * same, "{v}: {same} vs {grey} / {light}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn spine_only_flags_are_refused_for_skelform() {
    let Some(fixtures) = skel_testkit::fixtures_dir() else { return };
    let skf = fixtures.join("skelform/skellina_v0.7.0.skf");
    for flag in ["--pma", "--no-pma", "--no-atlas"] {
        let o = skel(&["render", s(&skf), flag, "--out", "never.png"]);
        assert_eq!(o.status.code(), Some(2), "{flag}");
        assert!(
            stderr(&o).contains(&format!("{flag} apply only to Spine skeletons")),
            "{}",
            stderr(&o)
        );
    }
    let o = skel(&["render", s(&skf), "--physics", "none", "--out", "never.png"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!Path::new("never.png").exists());
}
