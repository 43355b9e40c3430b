//! Where the frame goes, by phase: wall time per frame of `state.update + apply` and of
//! `skeleton.update + update_world_transform(Update)`, timed separately over many frames (a
//! clock read costs ~20 ns). spine-cpp's side is `tools/cpp-bench/bench.cpp` with `phases FRAMES` (its README).
//!
//! `cargo run --release -p spine-anim --example frame_phases -- <rig> <file> <skin|-> <anim> [frames]`
//! e.g. `... -- spineboy spineboy-pro.skel - run 200000`.

#[path = "common/rig.rs"]
mod rig;

use std::time::{Duration, Instant};

use spine_anim::Physics;

fn main() {
    let args = rig::Args::parse("-", "run", 200_000);
    let Some(data) = args.load() else { return };
    let (mut sk, mut state) = rig::posed(&data, Some(&args.third), 0.2);
    let anim = data.find_animation(&args.fourth).expect("animation exists");
    state.set_animation(0, Some(anim), true);
    let dt = 1.0f32 / 60.0;
    let (mut apply, mut world) = (Duration::ZERO, Duration::ZERO);
    for _ in 0..args.frames {
        let a = Instant::now();
        state.update(dt);
        state.apply(&mut sk);
        let b = Instant::now();
        sk.update(dt);
        sk.update_world_transform(Physics::Update);
        let c = Instant::now();
        state.clear_events();
        apply += b - a;
        world += c - b;
    }
    let per = |d: Duration| d.as_nanos() as f64 / args.frames.max(1) as f64;
    println!("apply {:.0} ns, world {:.0} ns per frame", per(apply), per(world));
}
