//! `skel render --gpu`: with the `gpu` feature, frames drawn by skel-wgpu offscreen match the
//! software rasterizer's (same tolerance as `crates/skel-wgpu/tests/reference.rs`: ≥ 99 % of
//! pixels within 2/255 per channel, here on straight RGBA of opaque-background frames);
//! without it, `--gpu` is a usage error naming the feature. Without any adapter (no GPU, no
//! lavapipe) the GPU checks skip loudly, or fail under `SKEL_REQUIRE_CORPUS=1`.

use std::process::Command;

fn skel() -> Command {
    Command::new(env!("CARGO_BIN_EXE_skel"))
}

#[cfg(not(feature = "gpu"))]
#[test]
fn gpu_flag_needs_the_feature() {
    let out = skel().args(["render", "--gpu", "--out", "never.png"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "a usage error");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--features gpu"), "{err}");
    assert!(!std::path::Path::new("never.png").exists());
}

/// Renders with and without `--gpu`; `None` when no adapter exists (after a loud notice).
#[cfg(feature = "gpu")]
fn both(args: &[&str], name: &str) -> Option<(Vec<u8>, Vec<u8>)> {
    let dir = std::env::temp_dir().join(format!("skel-gpu-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut frames = Vec::new();
    for gpu in [false, true] {
        let out = dir.join(format!("{gpu}.png"));
        let mut cmd = skel();
        cmd.arg("render").args(args).args(["--size", "160x160", "--background", "303030ff"]);
        if gpu {
            cmd.arg("--gpu");
        }
        let o = cmd.arg("--out").arg(&out).output().expect("skel runs");
        let err = String::from_utf8_lossy(&o.stderr);
        if gpu && !o.status.success() && err.contains("no GPU adapter") {
            let msg = format!("\n!!! {err}: the skel render --gpu check is SKIPPED !!!\n");
            if std::env::var("SKEL_REQUIRE_CORPUS").is_ok_and(|v| v == "1") {
                panic!("{msg}SKEL_REQUIRE_CORPUS=1: failing instead of skipping");
            }
            eprintln!("{msg}");
            return None;
        }
        assert!(o.status.success(), "{name} gpu={gpu}: {err}");
        let img = skel_render::decode_png(&std::fs::read(&out).unwrap()).unwrap();
        assert_eq!((img.width, img.height), (160, 160));
        frames.push(img.pixels);
    }
    let _ = std::fs::remove_dir_all(&dir);
    let gpu = frames.pop().unwrap();
    Some((frames.pop().unwrap(), gpu))
}

#[cfg(feature = "gpu")]
fn assert_close(name: &str, (cpu, gpu): (Vec<u8>, Vec<u8>)) {
    let mut within = 0;
    let mut max = 0;
    for (p, q) in cpu.chunks_exact(4).zip(gpu.chunks_exact(4)) {
        let d = p.iter().zip(q).map(|(a, b)| a.abs_diff(*b)).max().unwrap_or(0);
        within += usize::from(d <= 2);
        max = max.max(d);
    }
    let n = cpu.len() / 4;
    let drawn = cpu.chunks_exact(4).filter(|p| p[..3] != [0x30; 3]).count();
    eprintln!("{name}: {within} of {n} pixels within 2/255, max {max}; {drawn} drawn");
    assert!(drawn > n / 20, "{name}: too little drawn ({drawn} pixels)");
    assert!(within as f64 >= 0.99 * n as f64, "{name}: {within} of {n} pixels within 2/255");
}

#[cfg(feature = "gpu")]
#[test]
fn gpu_render_of_the_demo_rig_matches_the_software_one() {
    if let Some(f) = both(&["--anim", "portal", "--time", "0.5"], "demo") {
        assert_close("demo portal", f);
    }
}

#[cfg(feature = "gpu")]
#[test]
fn gpu_render_of_spine_and_skelform_rigs_matches_the_software_one() {
    let Some(fixtures) = skel_testkit::fixtures_dir() else { return };
    let spineboy = fixtures.join("spine/4.2/spineboy/spineboy-pro.skel");
    let skf = fixtures.join("skelform/skellington_v0.7.0.skf");
    for (file, anim, time) in [(&spineboy, "run", "0.5"), (&skf, "Jump", "0.2")] {
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        let args = [file.to_str().unwrap(), "--anim", anim, "--time", time];
        if let Some(f) = both(&args, &name) {
            assert_close(&name, f);
        }
    }
}
