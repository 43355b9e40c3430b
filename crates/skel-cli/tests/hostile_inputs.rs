//! Hostile inputs and arguments through the `skel` binary: every case exits 1 (bad input)
//! or 2 (wrong usage) with one line on stderr, quickly, and writes nothing it should not.
//! Every crafted input is built here, in a temporary folder, at test time (the project's
//! own demo rig and 4.3 fixtures are copied or read; nothing of the shared corpus).
//!
//! One test per item of the hostile-input issue's command-line half (3 to 12).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn skel() -> Command {
    Command::new(env!("CARGO_BIN_EXE_skel"))
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// Longest a refused case may take here (debug build on a busy machine; the release
/// figures are in the issue's report: all under 2 s).
const QUICK: Duration = Duration::from_secs(20);

fn run(args: &[&str]) -> (Output, Duration) {
    let t = Instant::now();
    let o = skel().args(args).output().expect("skel runs");
    (o, t.elapsed())
}

/// Runs a case that must be refused with `code`: one `error: ` line on stderr, nothing on
/// stdout. Returns the line.
fn refused(args: &[&str], code: i32) -> String {
    let (o, took) = run(args);
    check_refused(&o, took, code, &args)
}

fn check_refused(o: &Output, took: Duration, code: i32, what: &dyn std::fmt::Debug) -> String {
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(code), "{what:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{what:?}: one line expected: {err}");
    assert!(err.starts_with("error: "), "{what:?}: {err}");
    assert!(o.stdout.is_empty(), "{what:?}: stdout {}", String::from_utf8_lossy(&o.stdout));
    assert!(took < QUICK, "{what:?} took {took:?}");
    err.trim_end().to_owned()
}

fn ok(args: &[&str]) -> Output {
    let (o, _) = run(args);
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    o
}

/// A fresh temporary folder for one test.
fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("skel-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The project's demo rig copied into `dir`: (skeleton, atlas, page image).
fn demo(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("demo");
    let names = ["demo.json", "demo.atlas", "demo.png"];
    for n in names {
        std::fs::copy(src.join(n), dir.join(n)).unwrap();
    }
    (dir.join(names[0]), dir.join(names[1]), dir.join(names[2]))
}

/// The demo rig's JSON with `edit` applied, written to `dir/name` beside a copy of its atlas
/// (named after it) and page image.
fn demo_variant(dir: &Path, name: &str, edit: impl FnOnce(&mut serde_json::Value)) -> PathBuf {
    let (json, atlas, _) = demo(dir);
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    edit(&mut v);
    let path = dir.join(name);
    std::fs::write(&path, v.to_string()).unwrap();
    std::fs::copy(&atlas, path.with_extension("atlas")).unwrap();
    path
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in bytes {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
        }
    }
    !c
}

/// A PNG of a few dozen bytes whose header declares `w × h` RGBA pixels (a decompression
/// bomb's header: no pixel data follows).
fn png_header(w: u32, h: u32) -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut chunk = |kind: &[u8], data: &[u8]| {
        png.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let mut body = kind.to_vec();
        body.extend_from_slice(data);
        png.extend_from_slice(&body);
        png.extend_from_slice(&crc32(&body).to_be_bytes());
    };
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&w.to_be_bytes());
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    chunk(b"IHDR", &ihdr);
    chunk(b"IDAT", &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]);
    chunk(b"IEND", &[]);
    png
}

/// A stored zip archive of `entries`.
fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    use zip::write::SimpleFileOptions;
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, data) in entries {
        let o = SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
        w.start_file(*name, o).unwrap();
        w.write_all(data).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// A minimal SkelForm armature: one bone, one animation `a` at 10 fps with a key at
/// `last_frame`, and `atlases` (file names).
fn armature(last_frame: u64, atlases: &[&str]) -> String {
    let atlases: Vec<String> =
        atlases.iter().map(|a| format!(r#"{{"filename":"{a}","size":{{"x":2,"y":2}}}}"#)).collect();
    format!(
        r#"{{"version":"0.7.0","bones":[{{"id":0,"name":"root"}}],"atlases":[{}],
        "animations":[{{"name":"a","fps":10,"keyframes":[
          {{"frame":0,"bone_id":0,"element":"PositionX","value":0}},
          {{"frame":{last_frame},"bone_id":0,"element":"PositionX","value":5}}]}}]}}"#,
        atlases.join(",")
    )
}

// ---------------------------------------------------------------------------------------

#[test]
fn item3_numeric_arguments_are_checked_in_one_place_exit_2_with_the_range() {
    let physics = skel_testkit::project_fixtures().join("spine-4.3/physics.skel");
    let p = s(&physics);
    let dir = temp("args");
    let out = dir.join("x.png");
    let o = s(&out);
    let play = ["play", p, "--anim", "anim1", "--json"];
    for (extra, expect) in [
        (&["--fps", "0"][..], "1 to 1000"),
        (&["--fps", "1e-30"], "1 to 1000"),
        (&["--fps", "NaN"], "1 to 1000"),
        (&["--fps", "-5"], "1 to 1000"),
        (&["--frames", "0"], "from 1"),
        (&["--frames", "-3"], "from 1"),
        (&["--every", "0"], "from 1"),
        (&["--mix", "-1"], "0 to 3600"),
        (&["--mix", "inf"], "0 to 3600"),
        (&["--delay", "NaN"], "-3600 to 3600"),
        (&["--max-frames", "0"], "from 1"),
    ] {
        let line = refused(&[&play[..], extra].concat(), 2);
        assert!(line.contains(expect), "{extra:?}: {line}");
    }
    let render = ["render", "--out", o];
    for (extra, expect) in [
        (&["--fps", "0"][..], "1 to 1000"),
        (&["--scale", "0"], "0.0001 to 10000"),
        (&["--scale", "-1"], "0.0001 to 10000"),
        (&["--scale", "1e30"], "0.0001 to 10000"),
        (&["--size", "0x10"], "1 to 8192"),
        (&["--size", "99999x10"], "1 to 8192"),
        (&["--time", "NaN"], "finite"),
        (&["--time", "inf"], "finite"),
        (&["--time", "-inf"], "finite"),
        (&["--time", "-5"], "0 or more"),
        (&["--time", "1e9"], "--max-frames"),
        (&["--background", "red"], "RRGGBBAA"),
    ] {
        let line = refused(&[&render[..], extra].concat(), 2);
        assert!(line.contains(expect), "{extra:?}: {line}");
    }
    assert!(!out.exists());
    for args in [
        &["pose", p, "--anim", "anim1", "--time", "NaN"][..],
        &["commands", p, "--no-atlas", "--anim", "anim1", "--time", "nan"],
        &["commands", p, "--no-atlas", "--anim", "anim1", "--play", "--fps", "0"],
        &["bench", p, "--budget-ms", "0"],
    ] {
        refused(args, 2);
    }
    // Negative numbers are values: `--time -5` poses at -5 s, `--delay -0.25` queues B.
    ok(&["pose", p, "--anim", "anim1", "--time", "-5", "--json"]);
    ok(&["play", p, "--anim", "anim1,anim2", "--delay", "-0.25", "--frames", "3", "--json"]);
    // The physics rig plays at the lowest fps allowed, quickly.
    let (o, took) = run(&[&play[..], &["--fps", "1", "--frames", "30"]].concat());
    assert!(o.status.success() && took < QUICK, "{took:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn item4_page_images_are_checked_from_the_header_before_decoding() {
    let dir = temp("pages");
    let (json, _, png) = demo(&dir);
    let out = dir.join("x.png");
    // A 100000 x 100000 page in 80 bytes: refused from its header.
    std::fs::write(&png, png_header(100_000, 100_000)).unwrap();
    let line = refused(&["render", s(&json), "--out", s(&out)], 1);
    assert!(line.contains("atlas page image") && line.contains("demo.png"), "{line}");
    // 8192 x 8192 passes the pixel limit but not the atlas' `size: 256, 256`.
    std::fs::write(&png, png_header(8192, 8192)).unwrap();
    let line = refused(&["render", s(&json), "--out", s(&out)], 1);
    assert!(line.contains("demo.png") && line.contains("256"), "{line}");
    assert!(!out.exists());
    // A .skf texture is checked the same way.
    let arm = armature(5, &["atlas0.png"]);
    let bomb = png_header(100_000, 100_000);
    let skf = dir.join("bomb.skf");
    std::fs::write(&skf, zip_of(&[("armature.json", arm.as_bytes()), ("atlas0.png", &bomb)]))
        .unwrap();
    let line = refused(&["render", s(&skf), "--out", s(&out)], 1);
    assert!(line.contains("atlas0.png"), "{line}");
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn item5_frames_are_capped_before_anything_is_written() {
    let dir = temp("frames");
    // One crafted key makes `long` last 1e30 s.
    let long = demo_variant(&dir, "long.json", |v| {
        v["animations"] = serde_json::json!({"long": {"bones": {"hip": {"rotate": [
            {"time": 0, "value": 0}, {"time": 1e30, "value": 90}]}}}});
    });
    for out in ["x.gif", "x.webp", "x.apng", "seq/"] {
        let path = dir.join(out);
        let line = refused(&["render", s(&long), "--out", s(&path)], 1);
        assert!(line.contains("\"long\" lasts 1e30 s") && line.contains("--max-frames 10000"));
        assert!(!path.exists(), "{out}");
    }
    // A still frame of it is one frame: drawn, in bounded time.
    ok(&["render", s(&long), "--out", s(&dir.join("still.png"))]);
    // --max-frames sets the cap: `walk` (1 s) is 30 frames at 30 fps.
    let demo_json = dir.join("demo.json");
    let walk = ["render", s(&demo_json), "--anim", "walk", "--size", "8x8", "--out"];
    let gif = dir.join("walk.gif");
    let line = refused(&[&walk[..], &[s(&gif), "--max-frames", "29"]].concat(), 1);
    assert!(line.contains("\"walk\" lasts 1 s: 30 frames"), "{line}");
    assert!(!gif.exists());
    ok(&[&walk[..], &[s(&gif), "--max-frames", "30"]].concat());
    // `play --frames` beyond the cap is a usage error; within it, samples stream.
    let line = refused(&["play", s(&demo_json), "--anim", "walk", "--frames", "100000000"], 2);
    assert!(line.contains("--max-frames 10000"), "{line}");
    let o = ok(&["play", s(&demo_json), "--anim", "walk", "--frames", "2000", "--every", "1"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON document");
    assert_eq!(v["samples"].as_array().map(Vec::len), Some(2000));
    // A SkelForm animation whose last key is at frame 4e9.
    let skf = dir.join("long-armature.json");
    std::fs::write(&skf, armature(4_000_000_000, &[])).unwrap();
    let line = refused(&["play", s(&skf), "--anim", "a", "--json"], 1);
    assert!(line.contains("--max-frames"), "{line}");
    let arc = dir.join("long.skf");
    let arm = armature(4_000_000_000, &["atlas0.png"]);
    let png = png_header(2, 2);
    std::fs::write(&arc, zip_of(&[("armature.json", arm.as_bytes()), ("atlas0.png", &png)]))
        .unwrap();
    let gif = dir.join("skf.gif");
    let line = refused(&["render", s(&arc), "--out", s(&gif)], 1);
    assert!(line.contains("--max-frames"), "{line}");
    assert!(!gif.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn item6_inputs_are_read_once_bounded_and_from_pipes() {
    let dir = temp("inputs");
    let (json, atlas, png) = demo(&dir);
    // Devices are read to the limit, then refused.
    let line = refused(&["info", "/dev/zero"], 1);
    assert!(line.contains("max_file_bytes"), "{line}");
    let line =
        refused(&["pose", s(&json), "--atlas", "/dev/zero", "--anim", "walk", "--time", "0"], 1);
    assert!(line.contains("atlas /dev/zero") && line.contains("max_file_bytes"), "{line}");
    // Endless standard input likewise.
    let t = Instant::now();
    let o = skel()
        .args(["info", "-"])
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .output()
        .unwrap();
    check_refused(&o, t.elapsed(), 1, &"info - < /dev/zero");
    // A page image that is a device is refused without reading it.
    std::fs::remove_file(&png).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &png).unwrap();
    let line = refused(&["render", s(&json), "--out", s(&dir.join("x.png"))], 1);
    assert!(line.contains("not a regular file"), "{line}");
    std::fs::remove_file(&png).unwrap();
    std::fs::copy(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("demo/demo.png"), &png)
        .unwrap();
    // Standard input and a FIFO are read once and work.
    let mut child = skel()
        .args(["pose", "-", "--atlas", s(&atlas), "--anim", "walk", "--time", "0.5"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&std::fs::read(&json).unwrap()).unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let fifo = dir.join("rig.fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
    if made {
        let bytes = std::fs::read(&json).unwrap();
        let f = fifo.clone();
        let writer = std::thread::spawn(move || std::fs::write(f, bytes));
        let out = dir.join("fifo.png");
        ok(&["render", s(&fifo), "--atlas", s(&atlas), "--size", "32x32", "--out", s(&out)]);
        writer.join().unwrap().unwrap();
        assert!(out.exists());
    }
    // Standard input is read at most once per command.
    let mut child = skel()
        .args(["pose", "-", "--atlas", "-", "--anim", "walk", "--time", "0"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&std::fs::read(&json).unwrap()).unwrap();
    let t = Instant::now();
    let o = child.wait_with_output().unwrap();
    let line = check_refused(&o, t.elapsed(), 1, &"pose - --atlas -");
    assert!(line.contains("atlas -: standard input (-) can be read only once"), "{line}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn item7_outputs_never_overwrite_inputs_and_appear_whole() {
    let dir = temp("outputs");
    let (json, atlas, png) = demo(&dir);
    let before: Vec<Vec<u8>> =
        [&json, &atlas, &png].iter().map(|p| std::fs::read(p).unwrap()).collect();
    let line = refused(&["render", s(&json), "--out", s(&png)], 1);
    assert!(line.contains("refusing to write") && line.contains("atlas page image"), "{line}");
    // Another spelling of the same file.
    let other = dir.join(".").join("demo.png");
    refused(&["render", s(&json), "--out", s(&other)], 1);
    // The skeleton itself (a JSON skeleton named .png) and a link to the atlas.
    let skel_png = dir.join("rig.png");
    std::fs::copy(&json, &skel_png).unwrap();
    let line = refused(&["render", s(&skel_png), "--atlas", s(&atlas), "--out", s(&skel_png)], 1);
    assert!(line.contains("the skeleton"), "{line}");
    #[cfg(unix)]
    {
        let link = dir.join("link.gif");
        std::os::unix::fs::symlink(&atlas, &link).unwrap();
        let line = refused(&["render", s(&json), "--out", s(&link)], 1);
        assert!(line.contains("the atlas"), "{line}");
        let hard = dir.join("frame_00000.png");
        std::fs::hard_link(&png, &hard).unwrap();
        let line = refused(&["render", s(&json), "--out", &format!("{}/", dir.display())], 1);
        assert!(line.contains("frame_00000.png"), "{line}");
    }
    let after: Vec<Vec<u8>> =
        [&json, &atlas, &png].iter().map(|p| std::fs::read(p).unwrap()).collect();
    assert!(before == after, "an input changed");
    // A render that is killed while writing leaves nothing under the output's name.
    let gif = dir.join("killed.gif");
    let mut child = skel()
        .args(["render", s(&json), "--anim", "walk", "--fps", "1000", "--size", "512x512"])
        .args(["--out", s(&gif)])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let tmp_seen = loop {
        let tmp = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .any(|e| e.file_name().to_string_lossy().contains("killed.gif.skel-tmp"));
        if tmp || start.elapsed() > Duration::from_secs(60) {
            break tmp;
        }
        if child.try_wait().unwrap().is_some() {
            break false;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let _ = child.kill();
    let _ = child.wait();
    if tmp_seen {
        assert!(!gif.exists(), "a killed render left {}", gif.display());
    }
    // A completed render leaves its output and no temporary file.
    let done = dir.join("done.gif");
    ok(&["render", s(&json), "--anim", "walk", "--size", "32x32", "--out", s(&done)]);
    assert_eq!(&std::fs::read(&done).unwrap()[..6], b"GIF89a");
    let leftovers: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("done.gif.skel-tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn item8_atlas_page_paths_stay_in_the_atlas_folder() {
    let dir = temp("escape");
    let (json, atlas, _) = demo(&dir);
    let text = std::fs::read_to_string(&atlas).unwrap();
    for page in ["/etc/passwd", "../../x.png", "sub/../../x.png"] {
        let bad = dir.join("bad.atlas");
        std::fs::write(&bad, text.replacen("demo.png", page, 1)).unwrap();
        for args in [
            &["render", s(&json), "--atlas", s(&bad), "--out", s(&dir.join("x.png"))][..],
            &["commands", s(&json), "--atlas", s(&bad), "--anim", "walk"],
            &["validate", s(&json), "--atlas", s(&bad)],
        ] {
            let line = refused(args, 1);
            assert!(line.contains(&format!("atlas page {page:?}")), "{args:?}: {line}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn item9_non_finite_numbers_are_errors_naming_the_bone_never_null() {
    let dir = temp("finite");
    // Scales of 1e38 on two chained bones overflow the world transform to infinity.
    let big = demo_variant(&dir, "big.json", |v| {
        for b in v["bones"].as_array_mut().unwrap() {
            if b["name"] == "hip" || b["name"] == "torso" {
                b["scaleX"] = 1e38.into();
                b["scaleY"] = 1e38.into();
            }
        }
    });
    let b = s(&big);
    for args in [
        &["pose", b, "--anim", "walk", "--time", "0", "--json"][..],
        &["pose", b, "--anim", "walk", "--time", "0", "--vertices", "--json"],
        &["play", b, "--anim", "walk", "--json"],
        &["commands", b, "--anim", "walk", "--json"],
        &["commands", b, "--anim", "walk", "--play", "--json"],
    ] {
        let line = refused(args, 1);
        assert!(line.contains("bone \"torso\"") && line.contains("not a finite number"), "{line}");
    }
    refused(&["pose", b, "--anim", "walk", "--time", "NaN"], 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn item11_one_format_detection_for_every_verb() {
    let dir = temp("formats");
    let (json, atlas, png) = demo(&dir);
    // A UTF-8 BOM before Spine JSON: every verb reads it.
    let bom = dir.join("bom.json");
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend(std::fs::read(&json).unwrap());
    std::fs::write(&bom, bytes).unwrap();
    std::fs::copy(&atlas, dir.join("bom.atlas")).unwrap();
    let b = s(&bom);
    for args in [
        &["info", b][..],
        &["validate", b],
        &["dump", b, "--json"],
        &["pose", b, "--anim", "walk", "--time", "0.2", "--json"],
        &["play", b, "--anim", "walk", "--frames", "2", "--json"],
        &["commands", b, "--anim", "walk", "--json"],
        &["render", b, "--size", "16x16", "--out", s(&dir.join("bom.png"))],
        &["bench", b, "--budget-ms", "1"],
    ] {
        ok(args);
    }
    // A SkelForm archive: every verb reads it too.
    let arm = armature(5, &["atlas0.png"]);
    let tex = {
        let mut v = Vec::new();
        skel_render::encode::write_png(&mut v, 2, 2, &[255; 16]).unwrap();
        v
    };
    let skf = dir.join("tiny.skf");
    std::fs::write(&skf, zip_of(&[("armature.json", arm.as_bytes()), ("atlas0.png", &tex)]))
        .unwrap();
    let k = s(&skf);
    let out = ok(&["validate", k]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("ok (skelform)"));
    for args in [
        &["info", k][..],
        &["dump", k],
        &["dump", k, "--json"],
        &["pose", k, "--anim", "a", "--frame", "2", "--json"],
        &["play", k, "--anim", "a", "--json"],
        &["commands", k, "--anim", "a", "--time", "0.2", "--json"],
        &["bench", k, "--budget-ms", "1"],
    ] {
        ok(args);
    }
    let v: serde_json::Value = serde_json::from_slice(&ok(&["dump", k, "--json"]).stdout).unwrap();
    assert_eq!(v["version"], "0.7.0");
    // Verbs that do not apply say why.
    let line = refused(&["commands", k, "--anim", "a", "--play"], 2);
    assert!(line.contains("--play apply only to Spine skeletons"), "{line}");
    let bare = dir.join("armature.json");
    std::fs::write(&bare, &arm).unwrap();
    let line = refused(&["render", s(&bare), "--out", s(&dir.join("bare.png"))], 1);
    assert!(line.contains("needs a .skf archive"), "{line}");
    // Not skeletons: an atlas, an image, non-object JSON, an empty file.
    let array = dir.join("array.json");
    std::fs::write(&array, "[1, 2, 3]").unwrap();
    let empty = dir.join("empty.skel");
    std::fs::write(&empty, "").unwrap();
    for (file, expect) in [
        (&atlas, "texture atlas, not a skeleton"),
        (&png, "PNG image, not a skeleton"),
        (&array, "not a Spine JSON skeleton"),
        (&empty, "empty"),
    ] {
        for verb in [
            &["info", s(file)][..],
            &["validate", s(file)],
            &["dump", s(file)],
            &["pose", s(file), "--anim", "a", "--time", "0"],
            &["play", s(file), "--anim", "a"],
            &["commands", s(file), "--anim", "a"],
            &["render", s(file), "--out", s(&dir.join("no.png"))],
            &["bench", s(file)],
        ] {
            let line = refused(verb, 1);
            assert!(line.contains(expect), "{verb:?}: {line}");
            assert!(!line.contains("binary"), "{verb:?}: {line}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn item12_messages_are_one_line_name_the_file_once_and_escape_controls() {
    let dir = temp("messages");
    // Not UTF-8: the file is named once, the byte is given.
    let bad = dir.join("bad.json");
    std::fs::write(&bad, b"{\"skeleton\": {\"spine\": \"4.2\xff\"}}").unwrap();
    for verb in ["validate", "info"] {
        let line = refused(&[verb, s(&bad)], 1);
        assert_eq!(line.matches("bad.json").count(), 1, "{line}");
        assert!(line.contains("not UTF-8") && line.contains("at byte 27"), "{line}");
    }
    // Names with control characters are escaped: one line, no escape sequence reaches the
    // terminal.
    let evil = dir.join("evil.json");
    std::fs::write(
        &evil,
        r#"{"skeleton": {"spine": "4.2.22"}, "bones": [{"name": "root"}],
            "slots": [{"name": "s\u001b[2J\nx", "bone": "no\u001bbone"}]}"#,
    )
    .unwrap();
    for args in [
        &["validate", "--no-atlas", s(&evil)][..],
        &["pose", s(&evil), "--anim", "a", "--time", "0"],
    ] {
        let line = refused(args, 1);
        assert!(!line.contains('\u{1b}'), "{line:?}");
        assert!(line.contains("\\u{1b}"), "{line:?}");
    }
    // Several problems: one line for the drawing verbs (validate lists them all).
    let many = dir.join("many.json");
    std::fs::write(
        &many,
        r#"{"skeleton": {"spine": "4.2.22"}, "bones": [{"name": "root"}],
            "slots": [{"name": "a", "bone": "x"}, {"name": "b", "bone": "y"}]}"#,
    )
    .unwrap();
    let line = refused(&["pose", s(&many), "--anim", "a", "--time", "0"], 1);
    assert!(line.contains("1 more problem") && line.contains("skel validate"), "{line}");
    let (o, _) = run(&["validate", "--no-atlas", s(&many)]);
    assert_eq!(String::from_utf8_lossy(&o.stderr).lines().count(), 2);
    // A missing linked-mesh skin: one line naming the attachment.
    let linked = dir.join("linked.json");
    std::fs::write(
        &linked,
        r#"{"skeleton": {"spine": "4.2.22"}, "bones": [{"name": "root"}],
            "slots": [{"name": "s", "bone": "root", "attachment": "l"}],
            "skins": [{"name": "default", "attachments": {"s": {
              "m": {"type": "mesh", "uvs": [0,0,1,0,0,1], "vertices": [0,0,10,0,0,10],
                    "triangles": [0,1,2], "hull": 3},
              "l": {"type": "linkedmesh", "parent": "m", "skin": "nope"}}}}],
            "animations": {"a": {}}}"#,
    )
    .unwrap();
    let line = refused(&["pose", s(&linked), "--anim", "a", "--time", "0"], 1);
    assert!(line.contains("attachment \"l\""), "{line}");
    // Usage errors are one line too.
    let line = refused(&["pose", s(&many), "--anim", "a"], 2);
    assert!(line.contains("--time"), "{line}");
    let _ = std::fs::remove_dir_all(&dir);
}
