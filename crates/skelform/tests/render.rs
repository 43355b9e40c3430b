//! Drawing the v0.7 fixtures through the render contract: draw counts, vertex and index
//! counts, UV ranges, z-order, and a software-rendered pixel check (the PNGs are written to
//! the target's test tmp dir for inspection).

use skel_render::{encode::save_png, SoftwareRenderer, ViewTransform};
use skelform::{AnimLayer, Armature, DrawStats, SkfDrawer};
use spine_render_traits::{render, RenderCommands};

fn fixture(name: &str) -> Option<skelform::SkfArchive> {
    let dir = skel_testkit::fixtures_dir()?;
    let bytes = std::fs::read(dir.join("skelform").join(name)).expect("fixture");
    Some(skelform::load_skf(&bytes, &Default::default()).expect("load_skf"))
}

fn pose(arm: &mut Armature, anim: &str, frame: u32) {
    let a = arm.animation_index(anim).expect("animation");
    arm.animate(&[AnimLayer { anim: a, frame, smooth: 0 }]);
    arm.construct();
}

fn draw(arm: &Armature) -> (RenderCommands, SkfDrawer, DrawStats) {
    let mut cmds = RenderCommands::new();
    let mut drawer = SkfDrawer::new(arm, &mut cmds);
    let stats = drawer.draw(arm, &mut cmds).expect("draw");
    (cmds, drawer, stats)
}

/// Counts read from the fixtures' `armature.json` (style "Default" active): skellina has
/// 25 plain sprites; skellington 14 sprites and 7 meshes (13+10+20+20+16+11+13 vertices,
/// 33+24+69+69+42+27+33 indices).
#[test]
fn counts_per_fixture() {
    let cases = [
        ("skellina_v0.7.0.skf", "Walk", 25, 0, 25 * 4, 25 * 6),
        ("skellington_v0.7.0.skf", "Run ", 14, 7, 14 * 4 + 103, 14 * 6 + 297),
    ];
    for (name, anim, sprites, meshes, nv, ni) in cases {
        let Some(skf) = fixture(name) else { return };
        let mut arm = skf.armature;
        for frame in [0, 10, 33] {
            pose(&mut arm, anim, frame);
            let (cmds, drawer, stats) = draw(&arm);
            assert_eq!(drawer.styles().len(), 1, "{name}");
            assert_eq!((stats.sprites, stats.meshes), (sprites, meshes), "{name}");
            assert_eq!((stats.hidden, stats.untextured), (0, 0), "{name}");
            assert_eq!((stats.vertices, stats.indices), (nv, ni), "{name}");
            // One atlas page, one blend mode: everything batches into one command.
            assert_eq!(cmds.len(), 1, "{name}");
            assert_eq!(cmds.pages().len(), 1);
            assert_eq!(cmds.pages()[0].name, "atlas0.png");
            assert_eq!(cmds.num_vertices(), nv as usize);
            assert_eq!(cmds.num_indices(), ni as usize);
            for c in cmds.iter() {
                assert!(c.uvs.iter().all(|u| (0.0..=1.0).contains(u)), "{name}: uv out of [0,1]");
                assert!(c.positions.iter().all(|p| p.is_finite()), "{name}: position");
                assert!(c.colors.iter().all(|c| c.0 == 0xffff_ffff), "{name}: untinted");
            }
        }
    }
}

/// Every style selected (costumes first): skellina's "Princess Dress" comes from the
/// dress style (850×1205) instead of Default's 39×38 placeholder.
#[test]
fn styles_change_textures() {
    let Some(skf) = fixture("skellina_v0.7.0.skf") else { return };
    let mut arm = skf.armature;
    pose(&mut arm, "Stand", 0);
    let vi =
        arm.visuals().iter().position(|v| arm.texture_names()[v.tex as usize] == "Princess Dress");
    let vi = vi.expect("Princess Dress visual");
    let default = skelform::default_styles(&arm);
    assert_eq!(arm.styles()[default[0]].name, "Default");
    assert_eq!(arm.texture_of(vi, &default).expect("tex").size.x, 39.0);
    let all: Vec<usize> = (0..arm.styles().len()).collect();
    assert_eq!(arm.texture_of(vi, &all).expect("tex").size.x, 850.0);
    let mut cmds = RenderCommands::new();
    let mut drawer = SkfDrawer::new(&arm, &mut cmds);
    drawer.set_styles(&all);
    let stats = drawer.draw(&arm, &mut cmds).expect("draw");
    assert_eq!(stats.sprites, 25);
    // With no style active nothing has a texture.
    drawer.set_styles(&[]);
    cmds.clear();
    let stats = drawer.draw(&arm, &mut cmds).expect("draw");
    assert_eq!((stats.sprites, stats.untextured), (0, 25));
    assert!(cmds.is_empty());
}

/// Quads are emitted in ascending z-index: with `Batching::Never` each draw is one command,
/// and the command's texture rectangle tells which visual it is.
#[test]
fn z_order_and_hidden() {
    let Some(skf) = fixture("skellina_v0.7.0.skf") else { return };
    let mut arm = skf.armature;
    pose(&mut arm, "Stand", 0);
    let mut order = Vec::new();
    arm.draw_order_into(&mut order);
    let zs: Vec<i32> = order
        .iter()
        .map(|&b| arm.visuals()[arm.bones()[b as usize].visual.unwrap() as usize].zindex)
        .collect();
    assert!(zs.windows(2).all(|w| w[0] <= w[1]));
    assert_eq!(zs.first(), Some(&0));
    assert_eq!(zs.last(), Some(&23)); // the crown
    let mut cmds = RenderCommands::with_batching(spine_render_traits::Batching::Never);
    let mut drawer = SkfDrawer::new(&arm, &mut cmds);
    drawer.draw(&arm, &mut cmds).expect("draw");
    assert_eq!(cmds.len(), 25);
    // The last quad drawn is the crown's: its Default texture is the 1×1 placeholder.
    let last = cmds.get(24).expect("last");
    let (p, atlas) = (last.positions, 2048.0);
    let w = ((p[2] - p[0]).powi(2) + (p[3] - p[1]).powi(2)).sqrt();
    assert!((w - 1.0).abs() < 1e-3, "crown quad width {w}");
    assert!(((last.uvs[2] - last.uvs[0]) * atlas - 1.0).abs() < 1e-3);

    // Hiding a bone hides its descendants too (skull → eyes...).
    let skull = arm.bones().iter().position(|b| b.name == "Skull").expect("skull");
    let n_desc = (0..arm.bones().len())
        .filter(|&i| {
            let mut p = arm.bones()[i].parent;
            while let Some(q) = p {
                if q as usize == skull {
                    return arm.bones()[i].visual.is_some();
                }
                p = arm.bones()[q as usize].parent;
            }
            false
        })
        .count() as u32;
    assert!(n_desc >= 2, "skull has textured descendants");
    let mut hidden = arm.clone();
    hidden.set_hidden(skull, true);
    hidden.construct();
    cmds.clear();
    let stats = drawer.draw(&hidden, &mut cmds).expect("draw");
    assert_eq!(stats.hidden, 1 + n_desc);
    assert_eq!(stats.sprites, 25 - 1 - n_desc);
}

/// Render one frame of each fixture with the software rasterizer, fitted to the
/// commands' bounds; the picture must be non-empty, inside the bounds, and cover a
/// plausible share of them. PNGs land in the test tmp dir.
#[test]
fn pixels() {
    for (name, anim, frame, min_cover) in
        [("skellina_v0.7.0.skf", "Stand", 0, 0.25), ("skellington_v0.7.0.skf", "Run ", 10, 0.2)]
    {
        let Some(skf) = fixture(name) else { return };
        let mut arm = skf.armature;
        pose(&mut arm, anim, frame);
        let (cmds, drawer, _) = draw(&arm);
        let bounds = cmds.bounds().expect("bounds");
        // The figure is a character: taller than wide, several hundred units tall.
        let (bw, bh) = (bounds[2] - bounds[0], bounds[3] - bounds[1]);
        assert!(bh > 500.0 && bh < 5000.0 && bw > 200.0, "{name}: bounds {bounds:?}");
        let (w, h) = (256u32, 256u32);
        let mut r = SoftwareRenderer::new(w, h).expect("renderer");
        for (i, img) in skf.atlas_images.iter().enumerate() {
            let page = drawer.page(i).expect("page");
            r.load_png_texture(page, &arm.atlases()[i].filename, img, false).expect("png");
        }
        let margin = 8.0;
        let view = ViewTransform::fit(bounds, w, h, margin);
        r.set_view(view);
        r.clear();
        render(&cmds, &mut r).expect("render");
        let mut rgba = Vec::new();
        r.read_rgba8(&mut rgba);
        let (x0, y0) = view.apply(bounds[0], bounds[3]);
        let (x1, y1) = view.apply(bounds[2], bounds[1]);
        let (mut inside, mut outside, mut area) = (0u32, 0u32, 0u32);
        for y in 0..h {
            for x in 0..w {
                let a = rgba[4 * (y * w + x) as usize + 3];
                let (fx, fy) = (x as f32 + 0.5, y as f32 + 0.5);
                let within = fx >= x0 - 1.0 && fx <= x1 + 1.0 && fy >= y0 - 1.0 && fy <= y1 + 1.0;
                area += u32::from(within);
                if a > 0 {
                    if within {
                        inside += 1;
                    } else {
                        outside += 1;
                    }
                }
            }
        }
        let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
            "{}_{}_{frame}.png",
            name.trim_end_matches(".skf"),
            anim.trim()
        ));
        save_png(&out, w, h, &rgba).expect("save");
        println!("{name}: {inside} px inside of {area}, {outside} outside -> {}", out.display());
        assert_eq!(outside, 0, "{name}: pixels outside the command bounds");
        let cover = inside as f32 / area as f32;
        assert!(cover > min_cover && cover < 0.9, "{name}: coverage {cover}");
        // The skull (a big opaque texture) sits in the upper part of the picture.
        let top: u32 = (0..h / 2)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .filter(|&(x, y)| rgba[4 * (y * w + x) as usize + 3] > 0)
            .count() as u32;
        assert!(top > inside / 4, "{name}: upper half nearly empty ({top} of {inside})");
    }
}
