//! The rasterizer as it was first written, one fragment at a time with barycentric weights
//! and per-channel arithmetic: the reference the fast path (`triangle`, `fragment`) is
//! tested against (`tests` below: every pixel of varied scenes within one 8-bit step).

use spine_render_traits::{Argb, BlendMode, CommandView};

use super::triangle::Edge;
use super::{fixed, HALF, SUB};
use crate::texture::Texture;
use crate::view::ViewTransform;

/// Per-vertex data of one command.
#[derive(Default)]
pub(super) struct Scratch {
    pos: Vec<Option<(i64, i64)>>,
    light: Vec<[f32; 4]>,
    dark: Vec<[f32; 4]>,
}

/// Draws `cmd` into `frame` (premultiplied, `width × height`) the reference way.
pub(super) fn draw(
    frame: &mut [[f32; 4]],
    (width, height): (u32, u32),
    view: ViewTransform,
    tex: &Texture,
    cmd: &CommandView<'_>,
) {
    let pma = tex.premultiplied_alpha;
    let mut s = Scratch::default();
    for i in 0..cmd.num_vertices() {
        let (x, y) = match (cmd.positions.get(2 * i), cmd.positions.get(2 * i + 1)) {
            (Some(&x), Some(&y)) => view.apply(x, y),
            _ => (f32::NAN, f32::NAN),
        };
        s.pos.push(fixed(x, y));
        let l = cmd.colors.get(i).copied().unwrap_or(Argb::WHITE).to_rgba_f32();
        let d = cmd.dark_colors.get(i).copied().unwrap_or(Argb::BLACK).to_rgba_f32();
        if pma {
            s.light.push([l[0] * l[3], l[1] * l[3], l[2] * l[3], l[3]]);
            s.dark.push([d[0] * l[3], d[1] * l[3], d[2] * l[3], 1.0]);
        } else {
            s.light.push(l);
            s.dark.push([d[0], d[1], d[2], 0.0]);
        }
    }
    let target = Target { frame, width, height };
    let mut tri = TriRaster { target, tex, blend: cmd.blend_mode, pma };
    for t in cmd.indices.chunks_exact(3) {
        let v = [usize::from(t[0]), usize::from(t[1]), usize::from(t[2])];
        tri.triangle(&s, cmd.uvs, v);
    }
}

struct Target<'a> {
    frame: &'a mut [[f32; 4]],
    width: u32,
    height: u32,
}

struct TriRaster<'a> {
    target: Target<'a>,
    tex: &'a Texture,
    blend: BlendMode,
    pma: bool,
}

impl TriRaster<'_> {
    fn triangle(&mut self, s: &Scratch, uvs: &[f32], v: [usize; 3]) {
        let (Some(&Some(p0)), Some(&Some(p1)), Some(&Some(p2))) =
            (s.pos.get(v[0]), s.pos.get(v[1]), s.pos.get(v[2]))
        else {
            return;
        };
        let (mut p1, mut p2, mut v) = (p1, p2, v);
        let mut area = (p1.0 - p0.0) * (p2.1 - p0.1) - (p1.1 - p0.1) * (p2.0 - p0.0);
        if area == 0 {
            return;
        }
        if area < 0 {
            std::mem::swap(&mut p1, &mut p2);
            v.swap(1, 2);
            area = -area;
        }
        let (w, h) = (i64::from(self.target.width), i64::from(self.target.height));
        let min_x = p0.0.min(p1.0).min(p2.0);
        let max_x = p0.0.max(p1.0).max(p2.0);
        let min_y = p0.1.min(p1.1).min(p2.1);
        let max_y = p0.1.max(p1.1).max(p2.1);
        let x0 = min_x.div_euclid(SUB).max(0);
        let x1 = max_x.div_euclid(SUB).min(w - 1);
        let y0 = min_y.div_euclid(SUB).max(0);
        let y1 = max_y.div_euclid(SUB).min(h - 1);
        if x0 > x1 || y0 > y1 {
            return;
        }
        let (sx, sy) = (x0 * SUB + HALF, y0 * SUB + HALF);
        // e0 is opposite p0 (edge p1→p2), and so on: e_i / area is vertex i's weight.
        let mut e =
            [Edge::new(p1, p2, sx, sy), Edge::new(p2, p0, sx, sy), Edge::new(p0, p1, sx, sy)];
        let uv = |i: usize| {
            [uvs.get(2 * i).copied().unwrap_or(0.0), uvs.get(2 * i + 1).copied().unwrap_or(0.0)]
        };
        let uvv = [uv(v[0]), uv(v[1]), uv(v[2])];
        let col = |c: &[[f32; 4]], i: usize| c.get(i).copied().unwrap_or([0.0; 4]);
        let light = [col(&s.light, v[0]), col(&s.light, v[1]), col(&s.light, v[2])];
        let dark = [col(&s.dark, v[0]), col(&s.dark, v[1]), col(&s.dark, v[2])];
        let flat = light[0] == light[1]
            && light[0] == light[2]
            && dark[0] == dark[1]
            && dark[0] == dark[2];
        // Texels per pixel (area ratio) decides minification vs magnification.
        let tex_area = ((uvv[1][0] - uvv[0][0]) * (uvv[2][1] - uvv[0][1])
            - (uvv[1][1] - uvv[0][1]) * (uvv[2][0] - uvv[0][0]))
            .abs()
            * self.tex.width as f32
            * self.tex.height as f32;
        let px_area = area as f32 / (SUB * SUB) as f32;
        let bilinear = if tex_area > px_area { self.tex.min_linear } else { self.tex.mag_linear };
        let inv_area = 1.0 / area as f64;
        let width = self.target.width as usize;
        for y in y0..=y1 {
            // The span of this row where every edge test can pass; the per-pixel test below
            // stays the authority, the span only skips pixels that cannot be inside.
            let mut lo = 0i64;
            let mut hi = x1 - x0;
            for edge in &e {
                let v = edge.row + edge.bias;
                match edge.step_x.cmp(&0) {
                    std::cmp::Ordering::Greater if v < 0 => {
                        // First k with v + k * step_x >= 0: ceil(-v / step_x).
                        let need = -v;
                        lo = lo.max(
                            need.div_euclid(edge.step_x)
                                + i64::from(need.rem_euclid(edge.step_x) != 0),
                        );
                    }
                    std::cmp::Ordering::Less => {
                        if v < 0 {
                            hi = -1;
                        } else {
                            hi = hi.min(v.div_euclid(-edge.step_x));
                        }
                    }
                    std::cmp::Ordering::Equal if v < 0 => hi = -1,
                    _ => {}
                }
            }
            let row_base = y as usize * width;
            let mut cur = [
                e[0].row + lo * e[0].step_x,
                e[1].row + lo * e[1].step_x,
                e[2].row + lo * e[2].step_x,
            ];
            for x in x0 + lo..=x0 + hi {
                if cur[0] + e[0].bias >= 0 && cur[1] + e[1].bias >= 0 && cur[2] + e[2].bias >= 0 {
                    let b0 = (cur[0] as f64 * inv_area) as f32;
                    let b1 = (cur[1] as f64 * inv_area) as f32;
                    let b2 = 1.0 - b0 - b1;
                    let u = b0 * uvv[0][0] + b1 * uvv[1][0] + b2 * uvv[2][0];
                    let vv = b0 * uvv[0][1] + b1 * uvv[1][1] + b2 * uvv[2][1];
                    let (l, d) = if flat {
                        (light[0], dark[0])
                    } else {
                        (lerp3(&light, b0, b1, b2), lerp3(&dark, b0, b1, b2))
                    };
                    let t = self.tex.sample(u, vv, bilinear);
                    if let Some(dst) = self.target.frame.get_mut(row_base + x as usize) {
                        *dst = shade_blend(t, l, d, *dst, self.blend, self.pma);
                    }
                }
                for k in 0..3 {
                    cur[k] += e[k].step_x;
                }
            }
            for edge in &mut e {
                edge.row += edge.step_y;
            }
        }
    }
}

#[inline]
fn lerp3(c: &[[f32; 4]; 3], b0: f32, b1: f32, b2: f32) -> [f32; 4] {
    let mut o = [0.0; 4];
    for k in 0..4 {
        o[k] = c[0][k] * b0 + c[1][k] * b1 + c[2][k] * b2;
    }
    o
}

/// The two-color tint fragment followed by the blend with the (premultiplied) destination.
#[inline]
fn shade_blend(
    tex: [f32; 4],
    light: [f32; 4],
    dark: [f32; 4],
    dst: [f32; 4],
    blend: BlendMode,
    pma: bool,
) -> [f32; 4] {
    let ta = tex[3];
    let sa = ta * light[3];
    let mut src = [0.0f32; 3];
    for k in 0..3 {
        src[k] = ((ta - 1.0) * dark[3] + 1.0 - tex[k]) * dark[k] + tex[k] * light[k];
    }
    let mut out = [0.0f32; 4];
    match blend {
        BlendMode::Normal => {
            let sf = if pma { 1.0 } else { sa };
            for k in 0..3 {
                out[k] = src[k] * sf + dst[k] * (1.0 - sa);
            }
            out[3] = sa + dst[3] * (1.0 - sa);
        }
        BlendMode::Additive => {
            let sf = if pma { 1.0 } else { sa };
            for k in 0..3 {
                out[k] = src[k] * sf + dst[k];
            }
            out[3] = sa + dst[3];
        }
        BlendMode::Multiply => {
            for k in 0..3 {
                out[k] = src[k] * dst[k] + dst[k] * (1.0 - sa);
            }
            out[3] = dst[3];
        }
        BlendMode::Screen => {
            for k in 0..3 {
                out[k] = src[k] + dst[k] * (1.0 - src[k]);
            }
            out[3] = sa + dst[3] * (1.0 - sa);
        }
    }
    for c in &mut out {
        *c = c.clamp(0.0, 1.0);
    }
    out
}

#[cfg(test)]
mod tests {
    use spine_render_traits::{
        render, Argb, BlendMode, Draw, RenderCommands, TextureDesc, TextureFilter, TextureWrap,
        VertexColors,
    };

    use super::super::{to_straight8, RenderOptions, SoftwareRenderer};
    use crate::view::ViewTransform;

    /// A small deterministic generator.
    struct Rng(u32);
    impl Rng {
        fn f(&mut self) -> f32 {
            self.0 = self.0.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (self.0 >> 8) as f32 / (1u32 << 24) as f32
        }
        fn byte(&mut self) -> u8 {
            (self.f() * 256.0) as u8
        }
    }

    /// A texture of random texels (alpha included) with some fully transparent ones.
    fn noise(rng: &mut Rng, w: u32, h: u32, pma: bool) -> Vec<u8> {
        let mut px = Vec::new();
        for _ in 0..w * h {
            let a = if rng.f() < 0.1 { 0 } else { rng.byte() };
            let mut c = [rng.byte(), rng.byte(), rng.byte(), a];
            if pma {
                for v in &mut c[..3] {
                    *v = (u32::from(*v) * u32::from(a) / 255) as u8;
                }
            }
            px.extend_from_slice(&c);
        }
        px
    }

    /// Random triangles and quads over a 96×80 frame in every blend mode, with uniform and
    /// per-vertex colours, UVs partly outside 0..1, tiny and huge (clipped) triangles.
    fn scene(rng: &mut Rng, cmds: &mut RenderCommands, page: spine_render_traits::PageId) {
        for i in 0..120 {
            let n = if i % 3 == 0 { 3 } else { 4 };
            let r = if i % 17 == 0 {
                300.0
            } else if i % 5 == 0 {
                0.7
            } else {
                4.0 + rng.f() * 30.0
            };
            let (cx, cy) = (rng.f() * 110.0 - 55.0, rng.f() * 90.0 - 45.0);
            let mut pos = Vec::new();
            let mut uvs = Vec::new();
            for _ in 0..n {
                pos.push(cx + (rng.f() * 2.0 - 1.0) * r);
                pos.push(cy + (rng.f() * 2.0 - 1.0) * r);
                uvs.push(rng.f() * 1.2 - 0.1);
                uvs.push(rng.f() * 1.2 - 0.1);
            }
            let indices: &[u16] = if n == 3 { &[0, 1, 2] } else { &[0, 1, 2, 2, 3, 0] };
            let colours: Vec<Argb> = (0..n)
                .map(|_| Argb::from_argb8(rng.byte(), rng.byte(), rng.byte(), rng.byte()))
                .collect();
            let darks: Vec<Argb> =
                (0..n).map(|_| Argb::from_argb8(255, rng.byte(), rng.byte(), rng.byte())).collect();
            let colors = if i % 2 == 0 {
                VertexColors::Uniform { light: colours[0], dark: darks[0] }
            } else {
                VertexColors::PerVertex { light: &colours, dark: &darks }
            };
            cmds.push(&Draw {
                page,
                blend_mode: BlendMode::ALL[i % 4],
                positions: &pos,
                uvs: &uvs,
                colors,
                indices,
            })
            .expect("valid draw");
        }
    }

    /// Renders the scene both ways and returns (pixels, pixels differing, largest channel
    /// difference).
    fn compare(
        seed: u32,
        pma: bool,
        filter: TextureFilter,
        wrap: TextureWrap,
    ) -> (usize, usize, u8) {
        let mut rng = Rng(seed);
        let (tw, th) = (13, 9);
        let tex = noise(&mut rng, tw, th, pma);
        let mut cmds = RenderCommands::new();
        let page = cmds.add_page("noise.png", pma);
        scene(&mut rng, &mut cmds, page);
        let (w, h) = (96u32, 80u32);
        let desc = TextureDesc {
            name: "noise.png",
            width: tw,
            height: th,
            pixels: &tex,
            premultiplied_alpha: pma,
            min_filter: filter,
            mag_filter: filter,
            wrap_u: wrap,
            wrap_v: wrap,
        };
        let view = ViewTransform::new(1.0, 48.0, 40.0);
        let mut fast = SoftwareRenderer::with_options(w, h, RenderOptions::default()).unwrap();
        fast.set_texture(page, &desc).unwrap();
        fast.set_view(view);
        fast.set_background([10, 200, 30, 128]);
        render(&cmds, &mut fast).unwrap();
        let mut got = Vec::new();
        fast.read_rgba8(&mut got);

        let texture = crate::texture::Texture::from_desc(&desc, false).unwrap();
        let bg = fast.background.to_array();
        let mut frame = vec![bg; (w * h) as usize];
        for cmd in cmds.iter() {
            super::draw(&mut frame, (w, h), view, &texture, &cmd);
        }
        let mut differing = 0;
        let mut worst = 0u8;
        for (k, p) in frame.iter().enumerate() {
            let want = to_straight8(glam::Vec4::from_array(*p));
            let have = &got[4 * k..4 * k + 4];
            let d = (0..4).map(|c| want[c].abs_diff(have[c])).max().unwrap_or(0);
            differing += usize::from(d > 0);
            worst = worst.max(d);
        }
        (frame.len(), differing, worst)
    }

    #[test]
    fn the_fast_path_draws_what_the_reference_draws() {
        use TextureFilter::{Linear, Nearest};
        use TextureWrap::{ClampToEdge, MirroredRepeat, Repeat};
        let mut total = (0, 0);
        for seed in 1..=6 {
            for pma in [false, true] {
                for (filter, wrap) in [
                    (Linear, ClampToEdge),
                    (Nearest, ClampToEdge),
                    (Linear, Repeat),
                    (Nearest, MirroredRepeat),
                ] {
                    let (n, diff, worst) = compare(seed, pma, filter, wrap);
                    assert!(
                        worst <= 1,
                        "seed {seed}, pma {pma}, {filter:?}/{wrap:?}: a channel off by {worst}"
                    );
                    total.0 += n;
                    total.1 += diff;
                }
            }
        }
        eprintln!("{} of {} pixels differ by one step", total.1, total.0);
        // Rounding differences only: at most one pixel in 200 off by one step.
        assert!(total.1 * 200 <= total.0, "{} of {} pixels differ", total.1, total.0);
    }
}
