//! The body of the `scale` and `scale_mimalloc` examples: `N` (default 10,000) independent
//! spineboy-pro instances (each a `Skeleton` and an `AnimationState`, all sharing one
//! `Arc<SkeletonData>`) advanced frame by frame, first on one thread, then across threads
//! with rayon (`par_iter_mut`). Prints the time per frame for all instances and the speed-up.

use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;
use spine_anim::{AnimationState, AnimationStateData, Physics, Skeleton};

fn frame(state: &mut AnimationState, sk: &mut Skeleton) {
    let dt = 1.0f32 / 60.0;
    state.update(dt);
    state.apply(sk);
    sk.update(dt);
    sk.update_world_transform(Physics::Update);
    state.clear_events();
}

/// Runs the measurement and prints it; `allocator` names the global allocator.
pub fn run(allocator: &str) {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let frames: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(60);
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let bytes = std::fs::read(corpus.join("4.2/spineboy/spineboy-pro.skel")).expect("rig");
    let data = Arc::new(spine_model::load_binary(&bytes, None).expect("loads"));
    let mut asd = AnimationStateData::new(data.clone());
    asd.default_mix = 0.2;
    let asd = Arc::new(asd);
    let anims = ["run", "walk", "idle", "jump"].map(|a| data.find_animation(a).expect("animation"));
    let mut instances: Vec<(AnimationState, Skeleton)> = (0..n)
        .map(|i| {
            let mut sk = Skeleton::new(data.clone());
            sk.set_to_setup_pose();
            let mut st = AnimationState::new(asd.clone());
            st.set_animation(0, Some(anims[i % anims.len()]), true);
            // Desynchronise the instances a little.
            st.update((i % 97) as f32 / 60.0);
            (st, sk)
        })
        .collect();
    // Warm-up (pools, caches).
    instances.par_iter_mut().for_each(|(st, sk)| frame(st, sk));

    let t = Instant::now();
    for _ in 0..frames {
        instances.iter_mut().for_each(|(st, sk)| frame(st, sk));
    }
    let serial = t.elapsed().as_secs_f64() / frames as f64;

    let t = Instant::now();
    for _ in 0..frames {
        instances.par_iter_mut().for_each(|(st, sk)| frame(st, sk));
    }
    let parallel = t.elapsed().as_secs_f64() / frames as f64;

    let checksum: f32 =
        instances.iter().map(|(_, sk)| sk.bones[0].world_x + sk.bones[1].world_y).sum();
    println!(
        "{n} instances, {frames} frames, {} rayon threads, {allocator}: serial {:.2} ms/frame ({:.0} ns/instance), \
         parallel {:.2} ms/frame ({:.0} ns/instance), speed-up {:.2}x (checksum {checksum:.1})",
        rayon::current_num_threads(),
        serial * 1e3,
        serial * 1e9 / n as f64,
        parallel * 1e3,
        parallel * 1e9 / n as f64,
        serial / parallel
    );
}
