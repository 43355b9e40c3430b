//! A render-command buffer reused across frames (its position floats are kept between
//! frames, not zero-filled again) holds exactly what a fresh buffer gets, on every 4.2
//! binary rig of the corpus and the project's demo rig (which clips).

use std::sync::Arc;

use spine_anim::{apply_animation, MixBlend, MixDirection, Physics, Skeleton, SkeletonRenderer};
use spine_model::files::{discover_atlas, load_atlas};
use spine_model::{LoadOptions, SkeletonData};
use spine_render_traits::RenderCommands;

/// The skeleton at `path` with the atlas beside it, through the model's front door.
fn load(path: &std::path::Path) -> Arc<SkeletonData> {
    let atlas = discover_atlas(path).map(|p| load_atlas(&p).expect("atlas loads"));
    let options = LoadOptions::with_atlas(atlas.as_ref());
    let bytes = std::fs::read(path).expect("readable");
    Arc::new(spine_model::load(&bytes, &options).expect("loads"))
}

/// A command's positions and UVs by their bits, its colors (light then dark), its indices.
type Contents = (Vec<u32>, Vec<u32>, Vec<u32>, Vec<u16>);

/// Every float by its bits, with the command's shape.
fn contents(c: &RenderCommands) -> Vec<Contents> {
    c.iter()
        .map(|v| {
            (
                v.positions.iter().map(|p| p.to_bits()).collect(),
                v.uvs.iter().map(|p| p.to_bits()).collect(),
                v.colors.iter().chain(v.dark_colors).map(|c| c.0).collect(),
                v.indices.to_vec(),
            )
        })
        .collect()
}

/// Renders the first two animations of `data` at times going forth and back into one
/// reused buffer, each frame checked against a fresh buffer; returns the frames drawn.
fn check(path: &std::path::Path) -> usize {
    let data = load(path);
    let mut sk = Skeleton::new(data.clone());
    let mut renderer = SkeletonRenderer::new();
    let mut reused = SkeletonRenderer::commands(&data);
    let mut frames = 0;
    for a in data.animation_ids().take(2) {
        let d = data.animation(a).duration.max(0.1);
        for k in [0, 5, 2, 7, 1, 6, 3, 4, 0] {
            let t = d * k as f32 / 7.0;
            sk.set_to_setup_pose();
            apply_animation(&mut sk, a, t, t, true, None, 1.0, MixBlend::Setup, MixDirection::In);
            sk.update_world_transform(Physics::None);
            renderer.render(&sk, &mut reused);
            let mut fresh = SkeletonRenderer::commands(&data);
            SkeletonRenderer::new().render(&sk, &mut fresh);
            assert_eq!(contents(&reused), contents(&fresh), "{} at {t}", path.display());
            frames += 1;
        }
    }
    frames
}

#[test]
fn a_reused_command_buffer_matches_a_fresh_one() {
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../skel-cli/demo/demo.json");
    assert!(check(&demo) > 0);
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let files = skel_testkit::files_with_suffix(&corpus.join("4.2"), ".skel");
    let frames: usize = files.iter().map(|f| check(f)).sum();
    assert!(frames >= 9 * files.len(), "{frames} frames");
}
