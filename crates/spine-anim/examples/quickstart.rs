//! Quick start for engine authors: load a rig, play an `AnimationState` with a crossfade,
//! and turn every frame into render commands.
//!
//! `cargo run -p spine-anim --example quickstart [SKELETON.json ATLAS]` (default: the
//! project's demo rig). The README's "Library quick start" is the part between the
//! `quick start` markers, checked by `tests/readme.rs`.

use std::error::Error;
use std::sync::Arc;

use spine_anim::{AnimationState, AnimationStateData, Physics, Skeleton, SkeletonRenderer};

fn main() -> Result<(), Box<dyn Error>> {
    let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/../skel-cli/demo/");
    let mut args = std::env::args().skip(1);
    let json_path = args.next().unwrap_or(format!("{demo}demo.json"));
    let atlas_path = args.next().unwrap_or(format!("{demo}demo.atlas"));
    // quick start: begin
    let atlas = spine_format::atlas::parse(&std::fs::read_to_string(atlas_path)?)?;
    // Binary `.skel` or JSON of any version 3.5–4.3: `load` tells them apart from the bytes.
    let bytes = std::fs::read(json_path)?;
    let options = spine_model::LoadOptions::with_atlas(Some(&atlas));
    let data = Arc::new(spine_model::load(&bytes, &options)?);

    let mut skeleton = Skeleton::new(data.clone());
    let mut mixes = AnimationStateData::new(data.clone());
    mixes.default_mix = 0.25; // seconds of crossfade between any two animations
    let mut state = AnimationState::new(Arc::new(mixes));
    state.set_animation_by_name(0, "walk", true).ok_or("no animation walk")?;
    state.add_animation_by_name(0, "wave", false, 1.0).ok_or("no animation wave")?;

    let mut renderer = SkeletonRenderer::new();
    let mut commands = SkeletonRenderer::commands(&data); // buffers reused every frame
    let mut triangles = 0;
    for _frame in 0..120 {
        state.update(1.0 / 60.0);
        state.apply(&mut skeleton);
        skeleton.update(1.0 / 60.0);
        skeleton.update_world_transform(Physics::Update);
        renderer.render(&skeleton, &mut commands);
        for cmd in commands.iter() {
            // Upload cmd.positions, cmd.uvs, cmd.colors, cmd.dark_colors and cmd.indices;
            // draw with the texture of cmd.page_name and cmd.blend_mode.
            triangles += cmd.indices.len() / 3;
        }
    }
    // quick start: end
    println!("120 frames, {triangles} triangles drawn");
    Ok(())
}
