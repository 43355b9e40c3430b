//! Runs `frames` frames of one rig like the `frame` bench (for `valgrind --tool=callgrind`):
//! `state.update(1/60); state.apply(sk); sk.update(1/60); sk.update_world_transform(Update)`.
//!
//! `cargo run --release -p spine-anim --example frame_profile -- <rig> <file> <skin|-> <anim> [frames]`
//! e.g. `... -- spineboy spineboy-pro.skel - run 1000`. Prints a checksum of the world
//! transforms so the work cannot be optimised away.

use std::sync::Arc;

use spine_anim::{AnimationState, AnimationStateData, Physics, Skeleton};
use spine_model::SkinId;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rig = args.get(1).map_or("spineboy", String::as_str);
    let file = args.get(2).map_or("spineboy-pro.skel", String::as_str);
    let skin = args.get(3).map_or("-", String::as_str);
    let anim = args.get(4).map_or("run", String::as_str);
    let frames: usize = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let Some(corpus) = skel_testkit::spine_corpus() else {
        eprintln!("no corpus");
        return;
    };
    let bytes = std::fs::read(corpus.join("4.2").join(rig).join(file)).expect("rig readable");
    let data = Arc::new(spine_model::load_binary(&bytes, None).expect("rig loads"));
    let mut sk = Skeleton::new(data.clone());
    let skin_id = if skin == "-" {
        (data.skins.len() > 1).then_some(SkinId(1))
    } else {
        data.find_skin(skin)
    };
    if skin_id.is_some() {
        sk.set_skin(skin_id);
    }
    sk.set_to_setup_pose();
    let mut asd = AnimationStateData::new(data.clone());
    asd.default_mix = 0.2;
    let mut state = AnimationState::new(Arc::new(asd));
    state.set_animation(0, Some(data.find_animation(anim).expect("animation exists")), true);
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
