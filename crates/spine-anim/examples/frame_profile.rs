//! Runs `frames` frames of one rig like the `frame` bench (for `valgrind --tool=callgrind`):
//! `state.update(1/60); state.apply(sk); sk.update(1/60); sk.update_world_transform(Update)`.
//!
//! `cargo run --release -p spine-anim --example frame_profile -- <rig> <file> <skin|-> <anim> [frames]`
//! e.g. `... -- spineboy spineboy-pro.skel - run 1000`. Prints a checksum of the world
//! transforms so the work cannot be optimised away.

#[path = "common/rig.rs"]
mod rig;

use spine_anim::Physics;

fn main() {
    let args = rig::Args::parse("-", "run", 1000);
    let Some(data) = args.load() else { return };
    let (mut sk, mut state) = rig::posed(&data, Some(&args.third), 0.2);
    let anim = data.find_animation(&args.fourth).expect("animation exists");
    state.set_animation(0, Some(anim), true);
    let frames = args.frames;
    let dt = 1.0f32 / 60.0;
    for _ in 0..frames {
        state.update(dt);
        state.apply(&mut sk);
        sk.update(dt);
        sk.update_world_transform(Physics::Update);
        state.clear_events();
    }
    let sum: f64 = sk.bones.iter().map(|b| f64::from(b.world_x) + f64::from(b.world_y)).sum();
    println!("{frames} frames, checksum {sum}");
}
