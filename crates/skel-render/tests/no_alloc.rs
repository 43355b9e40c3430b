//! A warm renderer draws and reads back frames without allocating (counting global
//! allocator; this binary's only test).

use std::alloc::System;

use skel_render::{SoftwareRenderer, ViewTransform};
use spine_render_traits::{
    render, Argb, BlendMode, Draw, RenderCommands, TextureDesc, VertexColors,
};
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

fn frame(c: &mut RenderCommands, page: spine_render_traits::PageId, t: f32) {
    c.clear();
    for i in 0..40 {
        let o = i as f32 + t;
        let n = 3 + i % 5; // meshes of different sizes
        let mut pos = [0.0f32; 16];
        let mut uv = [0.0f32; 16];
        for k in 0..n {
            let a = k as f32 / n as f32 * std::f32::consts::TAU;
            pos[2 * k] = o + 10.0 * a.cos();
            pos[2 * k + 1] = o * 0.5 + 10.0 * a.sin();
            uv[2 * k] = 0.5 + 0.5 * a.cos();
            uv[2 * k + 1] = 0.5 + 0.5 * a.sin();
        }
        let mut idx = [0u16; 18];
        for k in 0..n - 2 {
            idx[3 * k..3 * k + 3].copy_from_slice(&[0, k as u16 + 1, k as u16 + 2]);
        }
        c.push(&Draw {
            page,
            blend_mode: BlendMode::ALL[i % 4],
            positions: &pos[..2 * n],
            uvs: &uv[..2 * n],
            colors: VertexColors::Uniform {
                light: Argb::from_argb8(200, 255, 128, 64),
                dark: Argb::BLACK,
            },
            indices: &idx[..3 * (n - 2)],
        })
        .unwrap();
    }
}

#[test]
fn warm_render_and_readback_allocate_nothing() {
    let tex = vec![200u8; 16 * 16 * 4];
    let mut c = RenderCommands::new();
    let page = c.add_page("t.png", false);
    let mut r = SoftwareRenderer::new(96, 64).unwrap();
    r.set_texture(
        page,
        &TextureDesc {
            name: "t.png",
            width: 16,
            height: 16,
            pixels: &tex,
            premultiplied_alpha: false,
            min_filter: Default::default(),
            mag_filter: Default::default(),
            wrap_u: Default::default(),
            wrap_v: Default::default(),
        },
    )
    .unwrap();
    r.set_view(ViewTransform::new(1.5, 10.0, 60.0));
    let mut out = Vec::new();
    frame(&mut c, page, 0.0);
    render(&c, &mut r).unwrap();
    r.read_rgba8(&mut out);
    let region = Region::new(GLOBAL);
    let mut painted = 0;
    for f in 1..20 {
        frame(&mut c, page, f as f32 * 0.25);
        render(&c, &mut r).unwrap();
        r.read_rgba8(&mut out);
        painted = out.chunks_exact(4).filter(|p| p[3] != 0).count();
    }
    let stats = region.change();
    assert!(painted > 500, "{painted} painted pixels");
    assert_eq!(stats.allocations, 0, "{stats:?}");
    assert_eq!(stats.reallocations, 0, "{stats:?}");
}
