//! Frames of 1, 100 and 1 000 spineboys (4.2 `spineboy-pro`, `run`, each skeleton at its
//! own time and place) through `GpuRenderer`, on the adapter `headless_device` finds
//! (`SKEL_WGPU_SOFTWARE=1`: Mesa's lavapipe, the CPU standing in for a GPU).
//!
//! - `cpu/N`: the CPU side of a frame: `SkeletonRenderer::render` of each skeleton into one
//!   reused `RenderCommands`, staged into the renderer (`draw`), then `end_frame` (one
//!   vertex and one index upload, `queue.write_buffer`) and a submit of the uploads. The
//!   poses are computed once, outside the measurement (animation is not the backend's).
//! - `frame/N`: the whole frame: the above, the render pass into a 512×512 offscreen target,
//!   submit, and a wait for the GPU to finish. On lavapipe the GPU side runs on the same
//!   two cores, so `frame − cpu` is the rasterization cost there.
//!
//! Run with `cargo bench -p skel-wgpu --bench frame`.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use skel_wgpu::{headless_device, wgpu, GpuRenderer, Offscreen, ViewTransform, OFFSCREEN_FORMAT};
use spine_anim::{apply_animation, MixBlend, MixDirection, Physics, Skeleton, SkeletonRenderer};
use spine_render_traits::{PageId, RenderBackend, RenderCommands, TextureDesc};

const COUNTS: [usize; 3] = [1, 100, 1000];

/// Draws every skeleton's commands into `gpu` as one frame (begin, draws, end: upload).
fn stage(
    gpu: &mut GpuRenderer,
    renderer: &mut SkeletonRenderer,
    cmds: &mut RenderCommands,
    skeletons: &[Skeleton],
) {
    gpu.begin_frame().unwrap();
    for sk in skeletons {
        renderer.render(sk, cmds);
        for c in cmds.iter() {
            gpu.draw(&c).unwrap();
        }
    }
    gpu.end_frame().unwrap();
}

fn bench(c: &mut Criterion) {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let software = std::env::var("SKEL_WGPU_SOFTWARE").is_ok_and(|v| v == "1");
    let (device, queue, info) = match headless_device(wgpu::Backends::PRIMARY, software)
        .or_else(|_| headless_device(wgpu::Backends::PRIMARY, true))
    {
        Ok(d) => d,
        Err(e) => {
            eprintln!("\n!!! no GPU adapter ({e}): the skel-wgpu bench is SKIPPED !!!\n");
            return;
        }
    };
    eprintln!("adapter: {} ({:?}, {})", info.name, info.device_type, info.driver_info);
    let dir = corpus.join("4.2/spineboy");
    let atlas =
        spine_model::files::parse_atlas(&std::fs::read(dir.join("spineboy.atlas")).unwrap())
            .unwrap();
    let bytes = std::fs::read(dir.join("spineboy-pro.skel")).unwrap();
    let data = Arc::new(
        spine_model::load(&bytes, &spine_model::LoadOptions::with_atlas(Some(&atlas))).unwrap(),
    );
    let mut gpu = GpuRenderer::new(&device, &queue, OFFSCREEN_FORMAT);
    for (i, p) in data.pages.iter().enumerate() {
        let img = skel_render::load_png(&dir.join(&p.name)).unwrap();
        let desc = TextureDesc {
            name: &p.name,
            width: img.width,
            height: img.height,
            pixels: &img.pixels,
            premultiplied_alpha: false,
            min_filter: Default::default(),
            mag_filter: Default::default(),
            wrap_u: Default::default(),
            wrap_v: Default::default(),
        };
        gpu.create_texture(PageId(i as u32), &desc).unwrap();
    }
    let run = data.find_animation("run").unwrap();
    let target = Offscreen::new(&gpu, 512, 512).unwrap();
    let view = target.texture().create_view(&Default::default());
    gpu.set_target_size(512, 512);
    let mut renderer = SkeletonRenderer::new();
    let mut cmds = SkeletonRenderer::commands(&data);
    let mut g = c.benchmark_group("skel_wgpu_spineboys");
    g.sample_size(20);
    for n in COUNTS {
        // A square grid of skeletons 600 world units apart, each at its own time of `run`.
        let side = (n as f32).sqrt().ceil() as usize;
        let skeletons: Vec<Skeleton> = (0..n)
            .map(|i| {
                let mut sk = Skeleton::new(data.clone());
                sk.set_to_setup_pose();
                sk.x = (i % side) as f32 * 600.0;
                sk.y = (i / side) as f32 * 600.0;
                let t = i as f32 * 0.0137;
                apply_animation(
                    &mut sk,
                    run,
                    t,
                    t,
                    true,
                    None,
                    1.0,
                    MixBlend::Setup,
                    MixDirection::In,
                );
                sk.update_world_transform(Physics::None);
                sk
            })
            .collect();
        let extent = side as f32 * 600.0;
        gpu.set_view(ViewTransform::fit([-300.0, -100.0, extent - 300.0, extent], 512, 512, 4.0));
        stage(&mut gpu, &mut renderer, &mut cmds, &skeletons);
        let (v, i) = gpu.staged();
        eprintln!(
            "{n} spineboys: {} commands each, {} draw calls, {v} vertices, {i} indices, \
             buffers {:?} bytes",
            cmds.len(),
            gpu.draw_calls(),
            gpu.buffer_capacity()
        );
        g.bench_with_input(BenchmarkId::new("cpu", n), &n, |b, _| {
            b.iter(|| {
                stage(&mut gpu, &mut renderer, &mut cmds, black_box(&skeletons));
                queue.submit(std::iter::empty());
                let _ = device.poll(wgpu::PollType::Poll);
            })
        });
        g.bench_with_input(BenchmarkId::new("frame", n), &n, |b, _| {
            b.iter(|| {
                stage(&mut gpu, &mut renderer, &mut cmds, black_box(&skeletons));
                let mut encoder = device.create_command_encoder(&Default::default());
                gpu.encode(&mut encoder, &view, Some([0, 0, 0, 0]));
                queue.submit([encoder.finish()]);
                device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
