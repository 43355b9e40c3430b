//! Whole-scene checks: a byte-hash golden of a small synthetic scene, and a real spine-cpp
//! golden `render` object (spineboy) drawn with its atlas page.

use serde_json::Value;
use skel_render::{encode::save_png, load_png, SoftwareRenderer, ViewTransform};
use spine_render_traits::{
    render, Argb, Batching, BlendMode, Draw, RenderCommands, TextureDesc, TextureFilter,
    VertexColors,
};

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// 64x64: a rotated checker quad per blend mode with tints, a dark color, a per-vertex
/// colored triangle, over an opaque gray background.
fn small_scene() -> Vec<u8> {
    let mut tex = Vec::new();
    for y in 0..8u32 {
        for x in 0..8u32 {
            let on = (x / 2 + y / 2) % 2 == 0;
            tex.extend_from_slice(if on { &[240, 200, 40, 255] } else { &[30, 60, 220, 140] });
        }
    }
    let mut c = RenderCommands::new();
    let page = c.add_page("checker.png", false);
    for (i, mode) in BlendMode::ALL.into_iter().enumerate() {
        let (cx, cy) = (-14.0 + 28.0 * (i % 2) as f32, -14.0 + 28.0 * (i / 2) as f32);
        let (s, co) = (0.3 * i as f32 + 0.2f32).sin_cos();
        let r = 13.0;
        let mut pos = [0.0f32; 8];
        for (k, (dx, dy)) in
            [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].into_iter().enumerate()
        {
            pos[2 * k] = cx + r * (dx * co - dy * s);
            pos[2 * k + 1] = cy + r * (dx * s + dy * co);
        }
        c.push(&Draw {
            page,
            blend_mode: mode,
            positions: &pos,
            uvs: &[0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0],
            colors: VertexColors::Uniform {
                light: Argb::from_argb8(220, 255, 200, 180),
                dark: Argb::from_argb8(255, 60, 0, 30),
            },
            indices: &[0, 1, 2, 2, 3, 0],
        })
        .unwrap();
    }
    c.push(&Draw {
        page,
        blend_mode: BlendMode::Normal,
        positions: &[-20.0, -25.0, 25.0, -5.0, 0.0, 25.0],
        uvs: &[0.1, 0.1, 0.9, 0.2, 0.5, 0.9],
        colors: VertexColors::PerVertex {
            light: &[
                Argb::from_argb8(255, 255, 0, 0),
                Argb::from_argb8(128, 0, 255, 0),
                Argb::from_argb8(200, 0, 0, 255),
            ],
            dark: &[Argb::BLACK; 3],
        },
        indices: &[0, 1, 2],
    })
    .unwrap();
    let mut r = SoftwareRenderer::new(64, 64).unwrap();
    r.set_background([90, 90, 90, 255]);
    r.set_view(ViewTransform::fit([-30.0, -30.0, 30.0, 30.0], 64, 64, 2.0));
    r.set_texture(
        page,
        &TextureDesc {
            name: "checker.png",
            width: 8,
            height: 8,
            pixels: &tex,
            premultiplied_alpha: false,
            min_filter: TextureFilter::Linear,
            mag_filter: TextureFilter::Linear,
            wrap_u: Default::default(),
            wrap_v: Default::default(),
        },
    )
    .unwrap();
    render(&c, &mut r).unwrap();
    let mut out = Vec::new();
    r.read_rgba8(&mut out);
    out
}

/// Tolerance: none (bit-exact). The rasterizer uses only IEEE f32/f64 operations with no
/// fused multiply-add (Rust never contracts), so the bytes are the same on every platform;
/// an intended change to the shading must update this hash (and say why).
#[test]
fn small_scene_matches_its_golden_hash() {
    let a = small_scene();
    let b = small_scene();
    assert_eq!(a, b, "rendering is deterministic");
    if let Ok(dir) = std::env::var("SKEL_RENDER_DUMP") {
        save_png(&std::path::Path::new(&dir).join("small_scene.png"), 64, 64, &a).unwrap();
    }
    assert_eq!(fnv1a(&a), 15_802_393_696_138_431_570, "golden hash of the 64x64 scene");
}

fn f32s(v: &Value) -> Vec<f32> {
    v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect()
}

#[test]
fn spineboy_golden_commands_render_with_the_atlas_page() {
    let (Some(oracle), Some(corpus)) = (skel_testkit::oracle_dir(), skel_testkit::spine_corpus())
    else {
        return;
    };
    let doc: Value = serde_json::from_slice(
        &std::fs::read(oracle.join("spine-4.2/spineboy/spineboy-pro.skel.json")).unwrap(),
    )
    .unwrap();
    let page_img = load_png(&corpus.join("4.2/spineboy/spineboy.png")).unwrap();
    let mut c = RenderCommands::with_batching(Batching::SpineCpp);
    let page = c.add_page("spineboy.png", false);
    for cmd in doc["render"]["commands"].as_array().unwrap() {
        assert_eq!(cmd["texture"], "spineboy.png");
        let light: Vec<Argb> = cmd["colors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| Argb(x.as_u64().unwrap() as u32))
            .collect();
        let dark: Vec<Argb> = cmd["darkColors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| Argb(x.as_u64().unwrap() as u32))
            .collect();
        let idx: Vec<u16> =
            cmd["indices"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as u16).collect();
        let mode = BlendMode::ALL.into_iter().find(|m| m.as_str() == cmd["blendMode"]).unwrap();
        c.push(&Draw {
            page,
            blend_mode: mode,
            positions: &f32s(&cmd["positions"]),
            uvs: &f32s(&cmd["uvs"]),
            colors: VertexColors::PerVertex { light: &light, dark: &dark },
            indices: &idx,
        })
        .unwrap();
    }
    let bounds = c.bounds().unwrap();
    let (w, h) = (256, 256);
    let mut r = SoftwareRenderer::new(w, h).unwrap();
    r.set_view(ViewTransform::fit(bounds, w, h, 4.0));
    r.set_texture(
        page,
        &TextureDesc {
            name: "spineboy.png",
            width: page_img.width,
            height: page_img.height,
            pixels: &page_img.pixels,
            premultiplied_alpha: false,
            min_filter: TextureFilter::Linear,
            mag_filter: TextureFilter::Linear,
            wrap_u: Default::default(),
            wrap_v: Default::default(),
        },
    )
    .unwrap();
    render(&c, &mut r).unwrap();
    let mut out = Vec::new();
    r.read_rgba8(&mut out);
    if let Ok(dir) = std::env::var("SKEL_RENDER_DUMP") {
        save_png(&std::path::Path::new(&dir).join("spineboy.png"), w, h, &out).unwrap();
    }
    let opaque = out.chunks_exact(4).filter(|p| p[3] == 255).count();
    let clear = out.chunks_exact(4).filter(|p| p[3] == 0).count();
    let total = (w * h) as usize;
    eprintln!("spineboy: {opaque} opaque, {clear} transparent of {total} pixels");
    // The figure covers a real part of the frame but not all of it; the margin is empty.
    assert!(opaque > total / 10, "{opaque} opaque pixels");
    assert!(clear > total / 4, "{clear} transparent pixels");
    for x in 0..w as usize {
        assert_eq!(out[4 * x + 3], 0, "top margin row is empty at x={x}");
    }
}
