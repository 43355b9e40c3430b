//! The `skel render` path on hostile files: skeleton bytes (any format, sniffed as the CLI
//! does), atlas text and one page image → load with the atlas (page names confined to the
//! atlas' folder) → PNG pages decoded after their header check against the atlas' `size:`
//! → a few played frames with physics → render commands drawn into a small raster →
//! encoded as PNG in memory. SkelForm archives go through `load_skf` with the CLI's limits
//! and their textures through the same decoder.
//!
//! Input framing: `[u16 LE skeleton length][skeleton][u16 LE atlas length][atlas][page]`
//! (missing parts are empty).

use std::path::Path;
use std::sync::Arc;

use skel_render::SoftwareRenderer;
use spine_anim::{AnimationState, AnimationStateData, Physics, Skeleton, SkeletonRenderer};
use spine_model::files::{page_path, parse_atlas};
use spine_model::LoadOptions;
use spine_model::{sniff, FileFormat};
use spine_render_traits::{PageId, RenderCommands};

/// The next `u16`-length-prefixed part of `data`.
fn part<'a>(data: &mut &'a [u8]) -> &'a [u8] {
    let len = match data {
        [a, b, ..] => usize::from(u16::from_le_bytes([*a, *b])),
        _ => 0,
    };
    let rest = data.get(2..).unwrap_or_default();
    let (p, r) = rest.split_at(len.min(rest.len()));
    *data = r;
    p
}

/// Draws `cmds` into a 48×48 raster and encodes the frame (as `skel render` does).
fn draw(raster: &mut SoftwareRenderer, cmds: &RenderCommands, rgba: &mut Vec<u8>) {
    if let Some(b) = cmds.bounds() {
        raster.set_view(skel_render::ViewTransform::fit(b, 48, 48, 2.0));
    }
    raster.clear();
    let _ = spine_render_traits::render(cmds, raster);
    raster.read_rgba8(rgba);
    let mut png = Vec::new();
    skel_render::encode::write_png(&mut png, 48, 48, rgba).expect("a frame encodes");
}

fn skelform(bytes: &[u8]) {
    let limits = skelform::Limits { max_entry_size: 4 << 20, max_ratio: 200 };
    let Ok(skf) = skelform::load_skf(bytes, &limits) else { return };
    let mut arm = skf.armature.clone();
    let mut cmds = RenderCommands::new();
    let mut drawer = skelform::SkfDrawer::new(&arm, &mut cmds);
    let Ok(mut raster) = SoftwareRenderer::new(48, 48) else { return };
    for (i, img) in skf.atlas_images.iter().enumerate() {
        if let Some(page) = drawer.page(i) {
            let _ = raster.load_png_texture(page, "atlas", img, false);
        }
    }
    let mut rgba = Vec::new();
    let anims = arm.animations().len();
    for frame in 0..4u32 {
        if anims > 0 {
            let a = (frame as usize) % anims;
            let f = arm.format_frame(a, frame * 7, false, true);
            arm.animate(&[skelform::AnimLayer { anim: a, frame: f, smooth: 0 }]);
        }
        arm.construct();
        cmds.clear();
        if drawer.draw(&arm, &mut cmds).is_ok() {
            draw(&mut raster, &cmds, &mut rgba);
        }
    }
}

/// The `cli_render` fuzz target's check (module docs).
pub fn check(data: &[u8]) {
    let mut rest = data;
    let skeleton = part(&mut rest);
    let atlas_text = part(&mut rest);
    let page = rest;
    let format = sniff(skeleton);
    if format.is_skelform() {
        if format == FileFormat::SkelformArchive {
            skelform(skeleton);
        }
        return;
    }
    if format.refusal().is_some() {
        return;
    }
    let atlas = parse_atlas(atlas_text).ok();
    if let Some(a) = &atlas {
        // The CLI refuses an atlas whose pages leave its folder; the check must not panic.
        for p in &a.pages {
            let _ = page_path(Path::new("rig"), &p.name);
        }
    }
    let options = LoadOptions {
        scale: 1.0,
        atlas: atlas.as_ref(),
        atlas_name: "fuzz.atlas",
        ..Default::default()
    };
    let Ok(data) = spine_model::load(skeleton, &options) else { return };
    let data = Arc::new(data);
    let Ok(mut raster) = SoftwareRenderer::new(48, 48) else { return };
    for (i, p) in data.pages.iter().enumerate() {
        let declared = (p.width > 0 && p.height > 0).then_some((p.width as u32, p.height as u32));
        let _ = raster.load_png_page(PageId(i as u32), &p.name, page, p.pma, declared);
    }
    let mut sk = Skeleton::new(data.clone());
    sk.set_to_setup_pose();
    let mut state = AnimationState::new(Arc::new(AnimationStateData::new(data.clone())));
    if let Some(first) = data.animation_ids().next() {
        state.set_animation(0, Some(first), true);
    }
    let mut renderer = SkeletonRenderer::new();
    let mut cmds = SkeletonRenderer::commands(&data);
    let mut rgba = Vec::new();
    for dt in [0.0, 1.0 / 30.0, 0.25, 1.0 / 30.0] {
        state.update(dt);
        state.apply(&mut sk);
        state.clear_events();
        sk.update(dt);
        sk.update_world_transform(Physics::Update);
        renderer.render(&sk, &mut cmds);
        draw(&mut raster, &cmds, &mut rgba);
    }
}
