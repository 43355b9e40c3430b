//! Like `frame_profile`, but crossfading: every 30 frames the other of two animations is
//! set on track 0 (mix 0.4 s), so two thirds of the frames mix two entries (for
//! `valgrind --tool=callgrind`; per frame = (count at N frames - count at 0) / N).
//!
//! `cargo run --release -p spine-anim --example mix_profile -- <rig> <file> <anim> <anim> [frames]`
//! e.g. `... -- spineboy spineboy-pro.skel run walk 600`. Prints a checksum of the world
//! transforms so the work cannot be optimised away.

#[path = "common/rig.rs"]
mod rig;

use spine_anim::Physics;

fn main() {
    let args = rig::Args::parse("run", "walk", 600);
    let Some(data) = args.load() else { return };
    let (mut sk, mut state) = rig::posed(&data, None, 0.4);
    let (first, second, frames) = (&args.third, &args.fourth, args.frames);
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
