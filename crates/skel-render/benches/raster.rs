//! Rasterizes a 512×512 frame of 400 textured quads (800 triangles) from a checker atlas.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion};
use skel_render::{SoftwareRenderer, ViewTransform};
use spine_render_traits::{
    render, Argb, BlendMode, Draw, RenderCommands, TextureDesc, VertexColors,
};

fn checker(size: u32) -> Vec<u8> {
    let mut px = Vec::with_capacity((size * size * 4) as usize);
    for y in 0..size {
        for x in 0..size {
            let on = ((x / 8) + (y / 8)) % 2 == 0;
            px.extend_from_slice(if on { &[230, 80, 40, 255] } else { &[20, 90, 200, 160] });
        }
    }
    px
}

fn scene(cmds: &mut RenderCommands, page: spine_render_traits::PageId, t: f32) {
    cmds.clear();
    let mut seed = 12345u32;
    let mut rnd = || {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    for i in 0..400 {
        let (cx, cy) = (rnd() * 512.0 - 256.0, rnd() * 512.0 - 256.0);
        let r = 10.0 + rnd() * 40.0;
        let a = rnd() * std::f32::consts::TAU + t;
        let (s, c) = a.sin_cos();
        let mut pos = [0.0f32; 8];
        for (k, (dx, dy)) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].iter().enumerate()
        {
            pos[2 * k] = cx + r * (dx * c - dy * s);
            pos[2 * k + 1] = cy + r * (dx * s + dy * c);
        }
        let (u0, v0) = (rnd() * 0.75, rnd() * 0.75);
        let uvs = [u0, v0 + 0.25, u0 + 0.25, v0 + 0.25, u0 + 0.25, v0, u0, v0];
        cmds.push(&Draw {
            page,
            blend_mode: BlendMode::ALL[(i / 100) % 4],
            positions: &pos,
            uvs: &uvs,
            colors: VertexColors::Uniform {
                light: Argb::from_argb8(220, 255, 230, 200),
                dark: Argb::from_argb8(255, 30, 0, 60),
            },
            indices: &[0, 1, 2, 2, 3, 0],
        })
        .expect("valid draw");
    }
}

fn bench(c: &mut Criterion) {
    let tex = checker(256);
    let mut cmds = RenderCommands::new();
    let page = cmds.add_page("checker.png", true);
    let mut r = SoftwareRenderer::new(512, 512).expect("renderer");
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
    )
    .expect("texture");
    r.set_view(ViewTransform::new(1.0, 256.0, 256.0));
    r.set_background([40, 40, 40, 255]);
    scene(&mut cmds, page, 0.0);
    c.bench_function("raster_512x512_800_triangles", |b| {
        b.iter(|| render(&cmds, &mut r).expect("render"))
    });
    let mut out = Vec::new();
    c.bench_function("read_rgba8_512x512", |b| b.iter(|| r.read_rgba8(&mut out)));
}

criterion_group!(benches, bench);
criterion_main!(benches);
