//! Renders the benchmark scene (512×512, 400 textured quads = 800 triangles, all four blend
//! modes, two-color tint) N times and prints the average CPU time per frame. Run under
//! `perf stat -e task-clock` for a figure that a loaded machine does not inflate.

use std::time::Instant;

use skel_render::{SoftwareRenderer, ViewTransform};
use spine_render_traits::{
    render, Argb, BlendMode, Draw, RenderCommands, TextureDesc, VertexColors,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let frames: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let mut tex = Vec::new();
    for y in 0..256u32 {
        for x in 0..256u32 {
            let on = ((x / 8) + (y / 8)) % 2 == 0;
            tex.extend_from_slice(if on { &[230, 80, 40, 255] } else { &[20, 90, 200, 160] });
        }
    }
    let mut cmds = RenderCommands::new();
    let page = cmds.add_page("checker.png", true);
    let mut seed = 12345u32;
    let mut rnd = || {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    for i in 0..400 {
        let (cx, cy) = (rnd() * 512.0 - 256.0, rnd() * 512.0 - 256.0);
        let r = 10.0 + rnd() * 40.0;
        let (s, c) = (rnd() * std::f32::consts::TAU).sin_cos();
        let mut pos = [0.0f32; 8];
        for (k, (dx, dy)) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].iter().enumerate()
        {
            pos[2 * k] = cx + r * (dx * c - dy * s);
            pos[2 * k + 1] = cy + r * (dx * s + dy * c);
        }
        let (u0, v0) = (rnd() * 0.75, rnd() * 0.75);
        cmds.push(&Draw {
            page,
            blend_mode: BlendMode::ALL[(i / 100) % 4],
            positions: &pos,
            uvs: &[u0, v0 + 0.25, u0 + 0.25, v0 + 0.25, u0 + 0.25, v0, u0, v0],
            colors: VertexColors::Uniform {
                light: Argb::from_argb8(220, 255, 230, 200),
                dark: Argb::from_argb8(255, 30, 0, 60),
            },
            indices: &[0, 1, 2, 2, 3, 0],
        })?;
    }
    let mut r = SoftwareRenderer::new(512, 512)?;
    r.set_texture(
        page,
        &TextureDesc {
            name: "checker.png",
            width: 256,
            height: 256,
            pixels: &tex,
            premultiplied_alpha: true,
            min_filter: Default::default(),
            mag_filter: Default::default(),
            wrap_u: Default::default(),
            wrap_v: Default::default(),
        },
    )?;
    r.set_view(ViewTransform::new(1.0, 256.0, 256.0));
    r.set_background([40, 40, 40, 255]);
    let mut out = Vec::new();
    let t = Instant::now();
    for _ in 0..frames {
        render(&cmds, &mut r)?;
        r.read_rgba8(&mut out);
    }
    let per = t.elapsed().as_secs_f64() * 1e3 / f64::from(frames);
    println!(
        "{frames} frames, {per:.2} ms wall per frame (render + read_rgba8), {} fragments per frame",
        r.fragments() / u64::from(frames)
    );
    Ok(())
}
