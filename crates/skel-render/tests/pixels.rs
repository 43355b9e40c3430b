//! Pixel tests of the software rasterizer on synthetic commands.

use skel_render::{RenderError, RenderOptions, SoftwareRenderer, ViewTransform};
use spine_render_traits::{
    render, Argb, BlendMode, Draw, PageId, RenderCommands, TextureDesc, TextureFilter, VertexColors,
};

fn desc<'a>(pixels: &'a [u8], w: u32, h: u32, pma: bool, filter: TextureFilter) -> TextureDesc<'a> {
    TextureDesc {
        name: "t.png",
        width: w,
        height: h,
        pixels,
        premultiplied_alpha: pma,
        min_filter: filter,
        mag_filter: filter,
        wrap_u: Default::default(),
        wrap_v: Default::default(),
    }
}

/// A renderer whose world coordinates are pixel coordinates with y down (scale 1, y
/// flipped: world y = -pixel y).
fn renderer(w: u32, h: u32, options: RenderOptions) -> SoftwareRenderer {
    let mut r = SoftwareRenderer::with_options(w, h, options).unwrap();
    r.set_view(ViewTransform::new(1.0, 0.0, 0.0));
    r
}

/// An axis-aligned quad in pixel coordinates (converted to y-up world), full texture.
fn quad_px(x0: f32, y0: f32, x1: f32, y1: f32) -> ([f32; 8], [f32; 8]) {
    ([x0, -y1, x1, -y1, x1, -y0, x0, -y0], [0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0])
}

const QUAD: [u16; 6] = [0, 1, 2, 2, 3, 0];

fn push_quad(
    c: &mut RenderCommands,
    page: PageId,
    blend: BlendMode,
    rect: [f32; 4],
    light: Argb,
    dark: Argb,
) {
    let (pos, uv) = quad_px(rect[0], rect[1], rect[2], rect[3]);
    c.push(&Draw {
        page,
        blend_mode: blend,
        positions: &pos,
        uvs: &uv,
        colors: VertexColors::Uniform { light, dark },
        indices: &QUAD,
    })
    .unwrap();
}

fn pixels(r: &SoftwareRenderer) -> Vec<u8> {
    let mut out = Vec::new();
    r.read_rgba8(&mut out);
    out
}

fn px(buf: &[u8], w: u32, x: u32, y: u32) -> [u8; 4] {
    let i = 4 * (y * w + x) as usize;
    [buf[i], buf[i + 1], buf[i + 2], buf[i + 3]]
}

#[test]
fn solid_quad_gives_exact_pixels() {
    let mut c = RenderCommands::new();
    let page = c.add_page("white.png", false);
    let orange = Argb::from_argb8(255, 255, 128, 0);
    push_quad(&mut c, page, BlendMode::Normal, [2.0, 2.0, 6.0, 6.0], orange, Argb::BLACK);
    let mut r = renderer(8, 8, RenderOptions::default());
    r.set_texture(page, &desc(&[255; 4], 1, 1, false, TextureFilter::Linear)).unwrap();
    render(&c, &mut r).unwrap();
    let buf = pixels(&r);
    let mut covered = 0;
    for y in 0..8 {
        for x in 0..8 {
            let inside = (2..6).contains(&x) && (2..6).contains(&y);
            let p = px(&buf, 8, x, y);
            if inside {
                assert_eq!(p, [255, 128, 0, 255], "pixel ({x}, {y})");
                covered += 1;
            } else {
                assert_eq!(p, [0, 0, 0, 0], "pixel ({x}, {y})");
            }
        }
    }
    assert_eq!(covered, 16);
}

#[test]
fn view_transform_flips_y_and_centers() {
    // A quad in world y-up coordinates above the origin lands in the top half.
    let mut c = RenderCommands::new();
    let page = c.add_page("white.png", false);
    c.push(&Draw {
        page,
        blend_mode: BlendMode::Normal,
        positions: &[-10.0, 0.0, 10.0, 0.0, 10.0, 10.0, -10.0, 10.0],
        uvs: &[0.0; 8],
        colors: VertexColors::Uniform { light: Argb::WHITE, dark: Argb::BLACK },
        indices: &QUAD,
    })
    .unwrap();
    let mut r = SoftwareRenderer::new(20, 20).unwrap();
    r.set_texture(page, &desc(&[255; 4], 1, 1, false, TextureFilter::Linear)).unwrap();
    r.set_view(ViewTransform::fit(c.bounds().unwrap(), 20, 20, 0.0));
    assert_eq!(r.view().scale, 1.0);
    render(&c, &mut r).unwrap();
    let buf = pixels(&r);
    // Bounds are 20 x 10, fitted at scale 1 and centered: the quad covers rows 5..15.
    assert_eq!(px(&buf, 20, 0, 5), [255; 4]);
    assert_eq!(px(&buf, 20, 19, 14), [255; 4]);
    assert_eq!(px(&buf, 20, 10, 4)[3], 0);
    assert_eq!(px(&buf, 20, 10, 15)[3], 0);
    // Now only the upper half of world space: y in [5, 10] -> rows 5..10.
    let mut c2 = RenderCommands::new();
    let page2 = c2.add_page("white.png", false);
    c2.push(&Draw {
        page: page2,
        blend_mode: BlendMode::Normal,
        positions: &[-10.0, 5.0, 10.0, 5.0, 10.0, 10.0, -10.0, 10.0],
        uvs: &[0.0; 8],
        colors: VertexColors::Uniform { light: Argb::WHITE, dark: Argb::BLACK },
        indices: &QUAD,
    })
    .unwrap();
    render(&c2, &mut r).unwrap();
    let buf = pixels(&r);
    assert_eq!(px(&buf, 20, 10, 5), [255; 4]);
    assert_eq!(px(&buf, 20, 10, 9), [255; 4]);
    assert_eq!(px(&buf, 20, 10, 10)[3], 0);
}

/// 4x4 checker of two colors, the second semi-transparent.
fn checker4() -> Vec<u8> {
    let mut t = Vec::new();
    for y in 0..4 {
        for x in 0..4 {
            t.extend_from_slice(if (x + y) % 2 == 0 {
                &[255, 0, 0, 255]
            } else {
                &[0, 0, 255, 255]
            });
        }
    }
    t
}

#[test]
fn checker_is_reproduced_one_to_one_nearest_and_linear() {
    let tex = checker4();
    for filter in [TextureFilter::Nearest, TextureFilter::Linear] {
        let mut c = RenderCommands::new();
        let page = c.add_page("checker.png", false);
        push_quad(&mut c, page, BlendMode::Normal, [0.0, 0.0, 4.0, 4.0], Argb::WHITE, Argb::BLACK);
        let mut r = renderer(4, 4, RenderOptions::default());
        r.set_texture(page, &desc(&tex, 4, 4, false, filter)).unwrap();
        render(&c, &mut r).unwrap();
        assert_eq!(pixels(&r), tex, "{filter:?}");
    }
}

#[test]
fn checker_magnified_nearest_and_bilinear() {
    // A 2x1 texture (red, green) stretched over 4x1 pixels.
    let tex = [255, 0, 0, 255, 0, 255, 0, 255];
    let mut c = RenderCommands::new();
    let page = c.add_page("rg.png", false);
    push_quad(&mut c, page, BlendMode::Normal, [0.0, 0.0, 4.0, 1.0], Argb::WHITE, Argb::BLACK);
    let mut r = renderer(4, 1, RenderOptions::default());
    r.set_texture(page, &desc(&tex, 2, 1, false, TextureFilter::Nearest)).unwrap();
    render(&c, &mut r).unwrap();
    assert_eq!(pixels(&r), [255, 0, 0, 255, 255, 0, 0, 255, 0, 255, 0, 255, 0, 255, 0, 255]);
    // Bilinear: pixel centers at texel x = -0.25, 0.25, 0.75, 1.25 (clamped at the edges):
    // weights of green 0, 0.25, 0.75, 1 -> 255 * 0.25 = 63.75 -> 64.
    r.set_texture(page, &desc(&tex, 2, 1, false, TextureFilter::Linear)).unwrap();
    render(&c, &mut r).unwrap();
    assert_eq!(pixels(&r), [255, 0, 0, 255, 191, 64, 0, 255, 64, 191, 0, 255, 0, 255, 0, 255]);
}

/// Background (0.2, 0.4, 0.6, 1); texture (200, 100, 50, 255); light white with alpha 128.
/// Expected values computed by hand from the documented blend factors.
#[test]
fn blend_modes_match_hand_computed_values() {
    let expected = [
        // (mode, non-pma, pma)
        (BlendMode::Normal, [126, 101, 101], [126, 101, 101]),
        (BlendMode::Additive, [151, 152, 178], [151, 152, 178]),
        (BlendMode::Multiply, [65, 91, 106], [45, 71, 91]),
        (BlendMode::Screen, [211, 162, 173], [131, 132, 163]),
    ];
    let light = Argb::from_argb8(128, 255, 255, 255);
    for (mode, straight, pma_rgb) in expected {
        for (pma, want) in [(false, straight), (true, pma_rgb)] {
            let mut c = RenderCommands::new();
            let page = c.add_page("t.png", pma);
            push_quad(&mut c, page, mode, [0.0, 0.0, 2.0, 2.0], light, Argb::BLACK);
            let mut r = renderer(2, 2, RenderOptions::default());
            r.set_background([51, 102, 153, 255]);
            r.set_texture(page, &desc(&[200, 100, 50, 255], 1, 1, pma, TextureFilter::Linear))
                .unwrap();
            render(&c, &mut r).unwrap();
            let p = px(&pixels(&r), 2, 1, 1);
            assert_eq!(p, [want[0], want[1], want[2], 255], "{mode:?} pma={pma}");
        }
    }
}

#[test]
fn blend_alpha_over_transparent_background() {
    // Texture alpha 0.5, light alpha 1: normal and screen give alpha 0.5, additive 0.5,
    // multiply keeps the destination's alpha (0).
    for (mode, a) in [
        (BlendMode::Normal, 128),
        (BlendMode::Additive, 128),
        (BlendMode::Multiply, 0),
        (BlendMode::Screen, 128),
    ] {
        let mut c = RenderCommands::new();
        let page = c.add_page("t.png", false);
        push_quad(&mut c, page, mode, [0.0, 0.0, 1.0, 1.0], Argb::WHITE, Argb::BLACK);
        let mut r = renderer(1, 1, RenderOptions::default());
        r.set_texture(page, &desc(&[255, 255, 255, 128], 1, 1, false, TextureFilter::Linear))
            .unwrap();
        render(&c, &mut r).unwrap();
        assert_eq!(pixels(&r)[3], a, "{mode:?}");
    }
}

#[test]
fn tint_black_uses_the_dark_color() {
    // Gray texel 128, light white, dark red: rgb = (1 - t) * dark + t * light.
    // r = 0.498 + 0.502 = 1 -> 255, g = b = 0.502 -> 128. Same for pma and straight.
    for pma in [false, true] {
        let mut c = RenderCommands::new();
        let page = c.add_page("t.png", pma);
        push_quad(
            &mut c,
            page,
            BlendMode::Normal,
            [0.0, 0.0, 1.0, 1.0],
            Argb::WHITE,
            Argb::from_argb8(255, 255, 0, 0),
        );
        let mut r = renderer(1, 1, RenderOptions::default());
        r.set_texture(page, &desc(&[128, 128, 128, 255], 1, 1, pma, TextureFilter::Linear))
            .unwrap();
        render(&c, &mut r).unwrap();
        assert_eq!(pixels(&r), [255, 128, 128, 255], "pma={pma}");
    }
    // Semi-transparent light with a dark color on a pma page: dark is scaled by light alpha,
    // so the straight result equals the opaque one with alpha 128.
    let mut c = RenderCommands::new();
    let page = c.add_page("t.png", true);
    push_quad(
        &mut c,
        page,
        BlendMode::Normal,
        [0.0, 0.0, 1.0, 1.0],
        Argb::from_argb8(128, 255, 255, 255),
        Argb::from_argb8(255, 255, 0, 0),
    );
    let mut r = renderer(1, 1, RenderOptions::default());
    r.set_texture(page, &desc(&[128, 128, 128, 255], 1, 1, true, TextureFilter::Linear)).unwrap();
    render(&c, &mut r).unwrap();
    assert_eq!(pixels(&r), [255, 128, 128, 128]);
}

/// A scene of tinted, semi-transparent textured quads drawn with `mode`.
fn scene(
    pma: bool,
    modes: &[BlendMode],
    tex: &[u8],
    options: RenderOptions,
    bg: [u8; 4],
) -> Vec<u8> {
    let mut c = RenderCommands::new();
    let page = c.add_page("t.png", pma);
    for (i, &mode) in modes.iter().enumerate() {
        let o = i as f32 * 3.0;
        let light =
            Argb::from_argb8(255 - 40 * i as u8, 255, 200 - 30 * i as u8, 100 + 20 * i as u8);
        let dark = Argb::from_argb8(255, 20 * i as u8, 60, 0);
        push_quad(&mut c, page, mode, [o, o, o + 8.0, o + 8.0], light, dark);
    }
    let mut r = renderer(24, 24, options);
    r.set_background(bg);
    r.set_texture(page, &desc(tex, 4, 4, pma, TextureFilter::Nearest)).unwrap();
    render(&c, &mut r).unwrap();
    pixels(&r)
}

fn semi_transparent_tex() -> Vec<u8> {
    let mut t = Vec::new();
    for i in 0..16u32 {
        let a = (i * 17) as u8;
        t.extend_from_slice(&[(i * 13 % 256) as u8, (255 - i * 9) as u8, (i * 40 % 256) as u8, a]);
    }
    t
}

fn premultiplied(t: &[u8]) -> Vec<u8> {
    t.chunks_exact(4)
        .flat_map(|p| {
            let a = u32::from(p[3]);
            let m = |c: u8| ((u32::from(c) * a + 127) / 255) as u8;
            [m(p[0]), m(p[1]), m(p[2]), p[3]]
        })
        .collect()
}

fn max_diff(a: &[u8], b: &[u8]) -> u8 {
    assert_eq!(a.len(), b.len());
    // Compare premultiplied values: straight colors of nearly transparent pixels are noise.
    a.chunks_exact(4)
        .zip(b.chunks_exact(4))
        .flat_map(|(p, q)| {
            (0..4).map(move |k| {
                let pm = |x: &[u8]| {
                    if k == 3 {
                        f32::from(x[3])
                    } else {
                        f32::from(x[k]) * f32::from(x[3]) / 255.0
                    }
                };
                (pm(p) - pm(q)).abs().round() as u8
            })
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn pma_and_straight_pages_render_the_same() {
    let straight = semi_transparent_tex();
    let pma_tex = premultiplied(&straight);
    let modes = [BlendMode::Normal, BlendMode::Additive, BlendMode::Normal, BlendMode::Additive];
    for bg in [[0, 0, 0, 0], [30, 120, 90, 255], [200, 10, 10, 100]] {
        let a = scene(false, &modes, &straight, RenderOptions::default(), bg);
        let b = scene(true, &modes, &pma_tex, RenderOptions::default(), bg);
        let d = max_diff(&a, &b);
        assert!(d <= 1, "normal/additive pma vs straight differ by {d} on {bg:?}");
    }
    // Multiply and screen are only equivalent when straight pages are premultiplied on load
    // (Spine's GL backends apply DST_COLOR / ONE to straight colors).
    let all = BlendMode::ALL;
    let bg = [30, 120, 90, 255];
    let faithful = scene(false, &all, &straight, RenderOptions::default(), bg);
    let converted = scene(
        false,
        &all,
        &straight,
        RenderOptions { premultiply_textures: true, ..RenderOptions::default() },
        bg,
    );
    let reference = scene(true, &all, &pma_tex, RenderOptions::default(), bg);
    assert!(max_diff(&converted, &reference) <= 1);
    assert!(max_diff(&faithful, &reference) > 10, "straight multiply/screen should differ");
}

/// A deterministic pseudo-random generator.
struct Lcg(u32);
impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self.0.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (self.0 >> 8) as f32 / (1u32 << 24) as f32
    }
}

#[test]
fn shared_edges_are_covered_exactly_once() {
    // A jittered grid mesh over [3.3, 36.7] x [2.3, 29.7] px: grid lines on pixel centers
    // (ties everywhere) and jittered interior vertices, alternating diagonals and windings.
    let n = 12;
    let (x0, y0, x1, y1) = (3.3f32, 2.3f32, 36.7f32, 29.7f32);
    let mut rng = Lcg(7);
    let mut pos = Vec::new();
    for j in 0..=n {
        for i in 0..=n {
            let mut x = x0 + (x1 - x0) * i as f32 / n as f32;
            let mut y = y0 + (y1 - y0) * j as f32 / n as f32;
            if i > 0 && i < n && j > 0 && j < n {
                if (i + j) % 3 == 0 {
                    x = x.floor() + 0.5; // exactly on pixel centers
                    y = y.floor() + 0.5;
                } else {
                    x += (rng.next() - 0.5) * 1.5;
                    y += (rng.next() - 0.5) * 1.5;
                }
            }
            pos.extend_from_slice(&[x, -y]);
        }
    }
    let mut idx: Vec<u16> = Vec::new();
    let at = |i: usize, j: usize| (j * (n + 1) + i) as u16;
    for j in 0..n {
        for i in 0..n {
            let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
            let tris =
                if (i + j) % 2 == 0 { [[a, b, c], [a, c, d]] } else { [[a, b, d], [b, c, d]] };
            for (k, t) in tris.iter().enumerate() {
                if (i + k) % 2 == 0 {
                    idx.extend_from_slice(&[t[0], t[1], t[2]]);
                } else {
                    idx.extend_from_slice(&[t[0], t[2], t[1]]);
                }
            }
        }
    }
    // Also a fan around the center of a second region: all triangles share one vertex
    // placed exactly on a pixel corner.
    let base = (pos.len() / 2) as u16;
    let (cx, cy) = (50.0f32, 16.0f32);
    pos.extend_from_slice(&[cx, -cy]);
    let m = 17;
    for k in 0..m {
        let a = k as f32 / m as f32 * std::f32::consts::TAU;
        pos.extend_from_slice(&[cx + 9.0 * a.cos(), -(cy + 9.0 * a.sin())]);
    }
    for k in 0..m as u16 {
        idx.extend_from_slice(&[base, base + 1 + k, base + 1 + (k + 1) % m as u16]);
    }
    let uvs = vec![0.0; pos.len()];
    let mut c = RenderCommands::new();
    let page = c.add_page("white.png", false);
    // Additive with alpha 1/255 steps: each coverage adds exactly 51 to red.
    c.push(&Draw {
        page,
        blend_mode: BlendMode::Additive,
        positions: &pos,
        uvs: &uvs,
        colors: VertexColors::Uniform { light: Argb::from_argb8(255, 51, 0, 0), dark: Argb::BLACK },
        indices: &idx,
    })
    .unwrap();
    let mut r = renderer(64, 32, RenderOptions::default());
    r.set_background([0, 0, 0, 255]);
    r.set_texture(page, &desc(&[255; 4], 1, 1, false, TextureFilter::Nearest)).unwrap();
    render(&c, &mut r).unwrap();
    let buf = pixels(&r);
    let mut once = 0;
    for y in 0..32u32 {
        for x in 0..64u32 {
            let red = px(&buf, 64, x, y)[0];
            assert!(
                red == 0 || red == 51,
                "pixel ({x}, {y}) covered {} times",
                f32::from(red) / 51.0
            );
            let (fx, fy) = (x as f32 + 0.5, y as f32 + 0.5);
            if fx > x0 && fx < x1 && fy > y0 && fy < y1 {
                assert_eq!(red, 51, "grid pixel ({x}, {y}) not covered");
            }
            once += usize::from(red == 51);
        }
    }
    // 34 columns x 27 rows of grid pixel centers inside, plus the fan.
    assert!(once > 34 * 27 + 200, "covered {once}");
}

#[test]
fn supersampling_antialiases_edges() {
    let mut c = RenderCommands::new();
    let page = c.add_page("white.png", false);
    push_quad(&mut c, page, BlendMode::Normal, [0.0, 0.0, 1.5, 1.0], Argb::WHITE, Argb::BLACK);
    let opts = RenderOptions { supersample: 4, ..RenderOptions::default() };
    let mut r = renderer(2, 1, opts);
    r.set_texture(page, &desc(&[255; 4], 1, 1, false, TextureFilter::Nearest)).unwrap();
    render(&c, &mut r).unwrap();
    assert_eq!(pixels(&r), [255, 255, 255, 255, 255, 255, 255, 128]);
    assert_eq!(r.options().supersample, 4);
}

#[test]
fn hostile_input_does_not_panic() {
    let mut c = RenderCommands::new();
    let page = c.add_page("white.png", false);
    let missing = c.add_page("missing.png", false);
    let big = 1.0e30f32;
    c.push(&Draw {
        page,
        blend_mode: BlendMode::Normal,
        positions: &[f32::NAN, 0.0, big, -big, 3.0, f32::INFINITY, 1.0, -1.0, 2.0, -1.0, 1.0, -3.0],
        uvs: &[
            f32::NAN,
            1e20,
            -1e20,
            0.5,
            0.0,
            0.0,
            f32::NAN,
            f32::INFINITY,
            1e30,
            -1e30,
            0.3,
            0.3,
        ],
        colors: VertexColors::Uniform { light: Argb::WHITE, dark: Argb::BLACK },
        indices: &[0, 1, 2, 3, 4, 5, 0, 4, 5, 1, 1, 1],
    })
    .unwrap();
    let mut r = renderer(4, 4, RenderOptions::default());
    let tex = checker4();
    for wrap in [
        spine_render_traits::TextureWrap::ClampToEdge,
        spine_render_traits::TextureWrap::Repeat,
        spine_render_traits::TextureWrap::MirroredRepeat,
    ] {
        let mut d = desc(&tex, 4, 4, false, TextureFilter::Linear);
        d.wrap_u = wrap;
        d.wrap_v = wrap;
        r.set_texture(page, &d).unwrap();
        render(&c, &mut r).unwrap();
    }
    // The finite triangle (3, 4, 5) was drawn.
    assert!(pixels(&r).chunks_exact(4).any(|p| p[3] == 255));
    // Drawing from a page without a texture is an error, not a panic.
    push_quad(&mut c, missing, BlendMode::Normal, [0.0, 0.0, 1.0, 1.0], Argb::WHITE, Argb::BLACK);
    let err = render(&c, &mut r).unwrap_err();
    assert!(matches!(err, RenderError::MissingTexture { .. }), "{err}");
    assert!(err.to_string().contains("missing.png"));
    // Bad textures and sizes are errors.
    assert!(r.set_texture(page, &desc(&[0; 12], 2, 2, false, TextureFilter::Linear)).is_err());
    assert!(SoftwareRenderer::new(0, 10).is_err());
    assert!(SoftwareRenderer::new(100_000, 10).is_err());
}
