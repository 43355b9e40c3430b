//! Many skeletons per frame in few draw calls, and warm frames that allocate nothing while
//! staging and never recreate the GPU buffers, with a counting global allocator. The binary
//! runs without libtest (`harness = false`) so that no harness thread allocates while the
//! counter is read. Needs an adapter (lavapipe): without one it skips loudly, or fails under
//! `SKEL_REQUIRE_CORPUS=1`.

use std::alloc::System;

use skel_wgpu::{GpuRenderer, OFFSCREEN_FORMAT};
use spine_render_traits::{
    Argb, BlendMode, Draw, PageId, RenderBackend, RenderCommands, TextureDesc, VertexColors,
};
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// One "skeleton": `parts` quads on page 0 (normal) then one additive quad on page 0, at
/// `(x, y)`; 4 vertices and 6 indices per quad.
fn skeleton(c: &mut RenderCommands, parts: usize, (x, y): (f32, f32)) {
    c.clear();
    for i in 0..=parts {
        let (x, y) = (x + i as f32, y);
        let blend = if i == parts { BlendMode::Additive } else { BlendMode::Normal };
        c.push(&Draw {
            page: PageId(0),
            blend_mode: blend,
            positions: &[x, y, x + 10.0, y, x + 10.0, y + 10.0, x, y + 10.0],
            uvs: &[0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0],
            colors: VertexColors::Uniform { light: Argb::WHITE, dark: Argb::BLACK },
            indices: &[0, 1, 2, 2, 3, 0],
        })
        .unwrap();
    }
}

fn frame(gpu: &mut GpuRenderer, c: &mut RenderCommands, skeletons: usize) {
    gpu.begin_frame().unwrap();
    for k in 0..skeletons {
        skeleton(c, 40, (k as f32 * 3.0, k as f32));
        for cmd in c.iter() {
            gpu.draw(&cmd).unwrap();
        }
    }
}

fn main() {
    let (device, queue) = match skel_wgpu::headless_device(wgpu::Backends::VULKAN, true) {
        Ok((d, q, _)) => (d, q),
        Err(e) => {
            let msg = format!("\n!!! no software Vulkan adapter ({e}): SKIPPED !!!\n");
            if std::env::var("SKEL_REQUIRE_CORPUS").is_ok_and(|v| v == "1") {
                panic!("{msg}SKEL_REQUIRE_CORPUS=1: failing instead of skipping");
            }
            eprintln!("{msg}");
            return;
        }
    };
    let mut gpu = GpuRenderer::new(&device, &queue, OFFSCREEN_FORMAT);
    let texel = [255u8; 4];
    let desc = TextureDesc {
        name: "white.png",
        width: 1,
        height: 1,
        pixels: &texel,
        premultiplied_alpha: false,
        min_filter: Default::default(),
        mag_filter: Default::default(),
        wrap_u: Default::default(),
        wrap_v: Default::default(),
    };
    gpu.create_texture(PageId(0), &desc).unwrap();
    let mut c = RenderCommands::new();
    c.add_page("white.png", false);

    // 100 skeletons of 41 quads, each ending with an additive part: normal and additive
    // alternate, so 200 draw calls; 1 000 skeletons: 2 000.
    for n in [1usize, 100, 1000] {
        frame(&mut gpu, &mut c, n);
        gpu.end_frame().unwrap();
        assert_eq!(gpu.draw_calls(), 2 * n, "{n} skeletons");
        assert_eq!(gpu.staged(), (n * 41 * 4, n * 41 * 6));
    }
    println!("test alternating_blend_modes_split_draw_calls ... ok");

    // Skeletons without the additive part share one draw call until 65 536 vertices.
    gpu.begin_frame().unwrap();
    for k in 0..1000 {
        skeleton(&mut c, 40, (k as f32, 0.0));
        for cmd in c.iter().filter(|cmd| cmd.blend_mode == BlendMode::Normal) {
            gpu.draw(&cmd).unwrap();
        }
    }
    gpu.end_frame().unwrap();
    // 1 000 × 160 vertices = 160 000: 409 skeletons (65 440 vertices) per draw call.
    assert_eq!(gpu.draw_calls(), 3);
    println!("test one_draw_call_per_65536_vertices_of_one_page_and_blend ... ok");

    // Warm: the largest frame again; staging allocates nothing, buffers keep their size.
    frame(&mut gpu, &mut c, 1000);
    gpu.end_frame().unwrap();
    queue.submit(std::iter::empty());
    device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    let capacity = gpu.buffer_capacity();
    let region = Region::new(GLOBAL);
    for n in [1000, 100, 1, 1000] {
        frame(&mut gpu, &mut c, n);
    }
    let stats = region.change();
    assert_eq!(stats.allocations, 0, "{stats:?}");
    assert_eq!(stats.reallocations, 0, "{stats:?}");
    for _ in 0..5 {
        frame(&mut gpu, &mut c, 1000);
        gpu.end_frame().unwrap();
        queue.submit(std::iter::empty());
        device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
        assert_eq!(gpu.buffer_capacity(), capacity);
    }
    println!("test warm_frames_stage_without_allocating_and_reuse_gpu_buffers ... ok");
}
