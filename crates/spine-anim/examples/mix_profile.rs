//! Like `frame_profile`, but crossfading: every 30 frames the other of two animations is
//! set on track 0 (mix 0.4 s), so two thirds of the frames mix two entries (for
//! `valgrind --tool=callgrind`; per frame = (count at N frames - count at 0) / N).
//!
//! `cargo run --release -p spine-anim --example mix_profile -- <rig> <file> <anim> <anim> [frames]`
//! e.g. `... -- spineboy spineboy-pro.skel run walk 600`. Prints a checksum of the world
//! transforms so the work cannot be optimised away.

use std::sync::Arc;

use spine_anim::{AnimationState, AnimationStateData, Physics, Skeleton};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rig = args.get(1).map_or("spineboy", String::as_str);
    let file = args.get(2).map_or("spineboy-pro.skel", String::as_str);
    let first = args.get(3).map_or("run", String::as_str);
    let second = args.get(4).map_or("walk", String::as_str);
    let frames: usize = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(600);
    let Some(corpus) = skel_testkit::spine_corpus() else {
        eprintln!("no corpus");
        return;
    };
    let bytes = std::fs::read(corpus.join("4.2").join(rig).join(file)).expect("rig readable");
    let data = Arc::new(spine_model::load_binary(&bytes, None).expect("rig loads"));
    let mut sk = Skeleton::new(data.clone());
    sk.set_to_setup_pose();
    let mut asd = AnimationStateData::new(data.clone());
    asd.default_mix = 0.4;
    let mut state = AnimationState::new(Arc::new(asd));
    let ids = [
        data.find_animation(first).expect("animation exists"),
        data.find_animation(second).expect("animation exists"),
    ];
    state.set_animation(0, Some(ids[0]), true);
    let dt = 1.0f32 / 60.0;
    for f in 0..frames {
        if f % 30 == 29 {
            state.set_animation(0, Some(ids[(f / 30 + 1) % 2]), true);
        }
        state.update(dt);
        state.apply(&mut sk);
        sk.update(dt);
        sk.update_world_transform(Physics::Update);
        state.clear_events();
    }
    let sum: f64 = sk.bones.iter().map(|b| f64::from(b.world_x) + f64::from(b.world_y)).sum();
    println!("{frames} frames, checksum {sum}");
}
