//! Renders one posed 4.2 corpus rig (with its atlas) into commands `renders` times: a fixed
//! amount of work for `valgrind --tool=callgrind` (the `commands` bench repeats the pose its
//! time budget ended on, so its instructions per call move with the budget).
//!
//! `cargo run --release -p spine-anim --example render_profile -- <rig> <file> <skin|-> <anim>
//! [frames] [renders]`: the rig is posed by `frames` frames of `anim` (default 120) as the
//! `frame` bench, then drawn `renders` times (default 1000). Prints the vertex and index
//! counts so the work cannot be optimised away.

#[path = "common/rig.rs"]
mod rig;

use std::sync::Arc;

use spine_anim::{Physics, SkeletonRenderer};

fn main() {
    let args = rig::Args::parse("-", "run", 120);
    let renders: usize = std::env::args().nth(6).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let Some(corpus) = skel_testkit::spine_corpus() else {
        eprintln!("no corpus");
        return;
    };
    let dir = corpus.join("4.2").join(&args.rig);
    let atlas_text =
        std::fs::read_to_string(dir.join(format!("{}.atlas", args.rig))).expect("atlas readable");
    let atlas = spine_format::atlas::parse(&atlas_text).expect("atlas parses");
    let bytes = std::fs::read(dir.join(&args.file)).expect("rig readable");
    let data = Arc::new(spine_model::load_binary(&bytes, Some(&atlas)).expect("rig loads"));
    let (mut sk, mut state) = rig::posed(&data, Some(&args.third), 0.2);
    let anim = data.find_animation(&args.fourth).expect("animation exists");
    state.set_animation(0, Some(anim), true);
    let dt = 1.0f32 / 60.0;
    for _ in 0..args.frames {
        state.update(dt);
        state.apply(&mut sk);
        sk.update(dt);
        sk.update_world_transform(Physics::Update);
        state.clear_events();
    }
    let mut renderer = SkeletonRenderer::new();
    let mut commands = SkeletonRenderer::commands(&data);
    for _ in 0..renders {
        commands.clear();
        renderer.render(&sk, &mut commands);
    }
    println!(
        "{renders} renders of {} vertices, {} indices",
        commands.num_vertices(),
        commands.num_indices()
    );
}
