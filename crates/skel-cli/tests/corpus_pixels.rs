//! Pixel goldens of corpus rigs drawn by `skel render`: each frame is rendered at 128×128 on
//! a transparent background and reduced to a 16×16 grid of mean straight RGBA (8×8-pixel
//! blocks), kept as an insta snapshot (only the digest is committed, never an image of the
//! licensed textures). Exact: the rasterizer is bit-reproducible (see `demo_pixels.rs`);
//! `cargo xtask snapshot --review` shows a changed picture block by block.

use std::process::Command;

fn digest(args: &[&str], name: &str) -> String {
    let dir =
        std::env::temp_dir().join(format!("skel-corpus-pixels-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("frame.png");
    let o = Command::new(env!("CARGO_BIN_EXE_skel"))
        .arg("render")
        .args(args)
        .args(["--size", "128x128", "--out", out.to_str().unwrap()])
        .output()
        .expect("skel runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let img = skel_render::decode_png(&std::fs::read(&out).unwrap()).expect("a PNG");
    assert_eq!((img.width, img.height), (128, 128));
    let mut text = String::new();
    let mut covered = 0;
    for by in 0..16 {
        for bx in 0..16 {
            let mut sum = [0u32; 4];
            for y in by * 8..by * 8 + 8 {
                for x in bx * 8..bx * 8 + 8 {
                    let i = (y * 128 + x) * 4;
                    for (acc, &p) in sum.iter_mut().zip(&img.pixels[i..i + 4]) {
                        *acc += u32::from(p);
                    }
                }
            }
            let m = sum.map(|s| s / 64);
            covered += usize::from(m[3] > 0);
            text.push_str(&format!("{:02x}{:02x}{:02x}{:02x} ", m[0], m[1], m[2], m[3]));
        }
        text.push('\n');
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(covered > 32, "{name}: the rig covers only {covered} blocks");
    text
}

/// Spine 3.5 spineboy `walk` at 0.25 s (its regions in spine-c 3.5's corner order).
#[test]
fn spineboy_3_5_walk() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let rig = corpus.join("3.5/spineboy/spineboy.skel");
    insta::assert_snapshot!(digest(
        &[rig.to_str().unwrap(), "--anim", "walk", "--time", "0.25"],
        "spineboy-3.5"
    ));
}

/// Spine 4.2 celestial-circus `swing` played to 1 s with physics (30 steps of 1/30 s).
#[test]
fn celestial_circus_4_2_swing_with_physics() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let rig = corpus.join("4.2/celestial-circus/celestial-circus-pro.skel");
    insta::assert_snapshot!(digest(
        &[rig.to_str().unwrap(), "--anim", "swing", "--time", "1"],
        "celestial-circus-4.2"
    ));
}
