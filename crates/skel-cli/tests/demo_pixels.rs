//! Pixel goldens of the project's own demo rig (`crates/skel-cli/demo`, rendered by `skel render` with
//! no FILE). Each frame is rendered at 128×128 on opaque white and reduced to a 16×16 grid of
//! mean RGB (8×8-pixel blocks), kept as an insta snapshot. Tolerance: exact — the rasterizer is
//! plain IEEE f32 arithmetic (no FMA contraction, no threads), so frames are bit-reproducible;
//! `cargo xtask snapshot --review` shows a changed picture block by block.

use std::process::Command;

fn frame_digest(anim: &str, time: &str) -> String {
    let dir = std::env::temp_dir().join(format!("skel-demo-{}-{anim}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("frame.png");
    let status = Command::new(env!("CARGO_BIN_EXE_skel"))
        .args(["render", "--anim", anim, "--time", time, "--size", "128x128"])
        .args(["--background", "ffffffff", "--out", out.to_str().unwrap()])
        .output()
        .expect("skel runs");
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
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
            let mean: Vec<u32> = sum.iter().map(|s| s / 64).collect();
            covered += usize::from(mean[..3] != [255, 255, 255]);
            text.push_str(&format!("{:02x}{:02x}{:02x} ", mean[0], mean[1], mean[2]));
        }
        text.push('\n');
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(covered > 16, "{anim} at {time}: the rig covers only {covered} blocks");
    text
}

#[test]
fn demo_walk_frame() {
    insta::assert_snapshot!(frame_digest("walk", "0.25"));
}

#[test]
fn demo_portal_frame_with_clipping() {
    insta::assert_snapshot!(frame_digest("portal", "0.5"));
}
