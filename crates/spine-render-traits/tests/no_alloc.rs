//! Proves that a warm `RenderCommands` fills a frame without allocating, with a counting
//! global allocator. The binary runs without libtest (`harness = false`) so that no harness
//! thread allocates while the counter is read.

use std::alloc::System;

use spine_render_traits::{Argb, BlendMode, Draw, RenderCommands, VertexColors};
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

fn frame(c: &mut RenderCommands, pages: &[spine_render_traits::PageId], light: &[Argb], t: f32) {
    c.clear();
    let pos = [t, 0.0, 10.0 + t, 0.0, 10.0, 10.0, 0.0, 10.0];
    let uv = [0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0];
    let dark = [Argb::BLACK; 4];
    for i in 0..300 {
        let page = pages[i % 7 / 3];
        let blend = BlendMode::ALL[i / 50 % 4];
        let colors = if i % 2 == 0 {
            VertexColors::Uniform { light: Argb::WHITE, dark: Argb::BLACK }
        } else {
            VertexColors::PerVertex { light, dark: &dark }
        };
        c.push(&Draw {
            page,
            blend_mode: blend,
            positions: &pos,
            uvs: &uv,
            colors,
            indices: &[0, 1, 2, 2, 3, 0],
        })
        .unwrap();
        c.push_with(page, blend, Argb::WHITE, Argb::BLACK, 3, 3, |m| {
            m.positions.copy_from_slice(&pos[..6]);
            m.indices.copy_from_slice(&[0, 1, 2]);
        })
        .unwrap();
        c.push_uniform(page, blend, Argb::WHITE, Argb::BLACK, &pos, &uv, &[0u32, 1, 2, 2, 3, 0])
            .unwrap();
    }
}

fn main() {
    warm_frames_allocate_nothing();
    println!("test warm_frames_allocate_nothing ... ok");
}

fn warm_frames_allocate_nothing() {
    let mut c = RenderCommands::new();
    let pages = [c.add_page("a.png", false), c.add_page("b.png", true), c.add_page("c.png", false)];
    let light = [Argb::from_argb8(200, 1, 2, 3); 4];
    frame(&mut c, &pages, &light, 0.0); // warm-up
    let commands = c.len();
    assert!(commands > 10, "expected many commands, got {commands}");
    let region = Region::new(GLOBAL);
    for f in 1..50 {
        frame(&mut c, &pages, &light, f as f32);
        let mut n = 0;
        for v in c.iter() {
            n += v.num_indices();
        }
        assert_eq!(n, 300 * 15);
    }
    let stats = region.change();
    assert_eq!(c.len(), commands);
    assert_eq!(stats.allocations, 0, "{stats:?}");
    assert_eq!(stats.reallocations, 0, "{stats:?}");
}
