//! Once warm, `SkeletonRenderer::render` allocates nothing, clipping included (coin-pro and
//! spineboy-pro `portal` clip; the project's demo rig clips with a concave polygon).

use std::alloc::System;
use std::sync::Arc;

use spine_anim::{apply_animation, MixBlend, MixDirection, Physics, Skeleton, SkeletonRenderer};
use spine_model::files::{discover_atlas, load_atlas};
use spine_model::{LoadOptions, SkeletonData};
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

fn load(path: &std::path::Path) -> Arc<SkeletonData> {
    let atlas = discover_atlas(path).map(|p| load_atlas(&p).unwrap());
    let options = LoadOptions {
        scale: 1.0,
        atlas: atlas.as_ref(),
        atlas_name: "atlas",
        ..Default::default()
    };
    let text = std::fs::read(path).unwrap();
    let data = if path.extension().is_some_and(|e| e == "json") {
        let j = spine_format::json::parse(std::str::from_utf8(&text).unwrap()).unwrap();
        SkeletonData::from_json(&j, &options).unwrap()
    } else {
        let f = spine_format::binary::parse(&text).unwrap();
        SkeletonData::from_binary(&f, &options).unwrap()
    };
    Arc::new(data)
}

fn check(data: Arc<SkeletonData>, anim: &str) -> usize {
    let mut sk = Skeleton::new(data.clone());
    sk.set_to_setup_pose();
    let a = data.find_animation(anim).unwrap();
    let d = data.animation(a).duration.max(0.1);
    let mut r = SkeletonRenderer::new();
    let mut out = SkeletonRenderer::commands(&data);
    let pose = |sk: &mut Skeleton, t: f32| {
        sk.set_to_setup_pose();
        apply_animation(sk, a, t, t, true, None, 1.0, MixBlend::Setup, MixDirection::In);
        sk.update_world_transform(Physics::None);
    };
    // Warm up over the whole animation (largest clipped outputs and command lists).
    for k in 0..=60 {
        pose(&mut sk, d * k as f32 / 60.0);
        r.render(&sk, &mut out);
    }
    let mut total = 0;
    for k in 0..=60 {
        pose(&mut sk, d * k as f32 / 60.0);
        let region = Region::new(GLOBAL);
        r.render(&sk, &mut out);
        let stats = region.change();
        assert_eq!(stats.allocations, 0, "{anim} frame {k}: {stats:?}");
        assert_eq!(stats.reallocations, 0, "{anim} frame {k}: {stats:?}");
        total += out.num_vertices();
    }
    total
}

/// One renderer drawing two skeleton datas in turn (the way one renderer serves every rig
/// of a scene): once both have been drawn, switching allocates nothing.
fn alternating(a: Arc<SkeletonData>, b: Arc<SkeletonData>) {
    let mut r = SkeletonRenderer::new();
    let mut skeletons = [a, b].map(|data| {
        let mut sk = Skeleton::new(data);
        sk.set_to_setup_pose();
        sk.update_world_transform(Physics::None);
        sk
    });
    let mut outs = skeletons.each_ref().map(|sk| SkeletonRenderer::commands(&sk.data));
    for (sk, out) in skeletons.iter().zip(&mut outs) {
        r.render(sk, out);
    }
    for k in 0..20 {
        for (sk, out) in skeletons.iter_mut().zip(&mut outs) {
            let region = Region::new(GLOBAL);
            r.render(sk, out);
            let stats = region.change();
            assert_eq!(stats.allocations + stats.reallocations, 0, "switch {k}: {stats:?}");
            assert!(out.num_vertices() > 0);
        }
    }
}

fn warm_render_does_not_allocate() {
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../skel-cli/demo/demo.json");
    assert!(check(load(&demo), "portal") > 0);
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    assert!(check(load(&corpus.join("4.2/coin/coin-pro.skel")), "animation") > 0);
    assert!(check(load(&corpus.join("4.2/spineboy/spineboy-pro.skel")), "portal") > 0);
    let raptor = load(&corpus.join("4.2/raptor/raptor-pro.skel"));
    alternating(load(&corpus.join("4.2/spineboy/spineboy-pro.skel")), raptor);
}

/// Run without libtest (`harness = false` in Cargo.toml): libtest's own threads allocate
/// while the global counter is read (its "running for over 60 seconds" notice on a loaded
/// machine), which made the count flaky.
fn main() {
    warm_render_does_not_allocate();
    println!("warm_render_does_not_allocate: ok");
}
