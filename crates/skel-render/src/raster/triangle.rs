//! Triangle setup and traversal: fixed-point edge functions, the top-left fill rule, the
//! covered run of each row, and the attribute planes handed to the fragment stage.

use glam::{Vec2, Vec4};
use spine_render_traits::{BlendMode, TextureWrap};

use super::fragment::{
    filler, span_colour, AnySampler, BilinearClamp, FillFn, NearestClamp, Span, ADDITIVE,
    F32_INDEX_TEXELS, MULTIPLY, NORMAL, SCREEN,
};
use super::{Scratch, HALF, SUB};
use crate::texture::Texture;

/// Where a command draws: the (premultiplied) frame, its size, and the page.
pub(super) struct TriRaster<'a> {
    pub frame: &'a mut [Vec4],
    pub width: u32,
    pub height: u32,
    pub tex: &'a Texture,
    pub blend: BlendMode,
    pub pma: bool,
    /// Fragments shaded so far.
    pub fragments: u64,
}

/// One edge `a → b`: `E(p) = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)`,
/// positive inside (after orienting the triangle).
#[derive(Clone, Copy)]
pub(super) struct Edge {
    /// E at the first sample of the current row.
    pub row: i64,
    /// Change per pixel step in x.
    pub step_x: i64,
    /// Change per pixel step in y.
    pub step_y: i64,
    /// 0 for top-left edges, -1 otherwise (top-left fill rule).
    pub bias: i64,
}

impl Edge {
    pub fn new(a: (i64, i64), b: (i64, i64), px: i64, py: i64) -> Edge {
        let dx = b.0 - a.0;
        let dy = b.1 - a.1;
        let top_left = (dy == 0 && dx > 0) || dy < 0;
        Edge {
            row: dx * (py - a.1) - dy * (px - a.0),
            step_x: -dy * SUB,
            step_y: dx * SUB,
            bias: if top_left { 0 } else { -1 },
        }
    }
}

/// The covered pixels `lo..=hi` (offsets from the bounding box's left column, `hi` at most
/// `last`) of the row whose edge values at the first column are `e[i].row`: exactly the
/// pixels where every biased edge value is 0 or more (each is linear in x, so the run is
/// found by division, not by testing pixels). Empty when `hi < lo`.
fn row_run(e: &[Edge; 3], last: i64) -> (i64, i64) {
    let mut lo = 0i64;
    let mut hi = last;
    for edge in e {
        let v = edge.row + edge.bias;
        let s = edge.step_x;
        // Divisions of a non-negative divisor: `/` truncates towards zero, which is the
        // floor for a non-negative numerator and, for a negative one, a value that leaves
        // the run as it is (left edges) or empty (right edges).
        if s > 0 {
            // First k with v + k · s >= 0: ceil(−v / s) when v < 0, else 0 or less.
            lo = lo.max((s - 1 - v) / s);
        } else if s < 0 {
            // Last k with v − k · |s| >= 0: floor(v / |s|), or less than 0 when v < 0.
            hi = hi.min((v - s) / -s - 1);
        } else if v < 0 {
            hi = -1;
        }
    }
    (lo, hi)
}

/// `Σ w[i] · a[i]` in `f64`.
#[inline(always)]
fn dot(w: [f64; 3], a: [f32; 3]) -> f64 {
    w[0] * f64::from(a[0]) + w[1] * f64::from(a[1]) + w[2] * f64::from(a[2])
}

/// A vector attribute at the weights `w`.
#[inline(always)]
fn dot4(w: [f64; 3], a: &[Vec4; 3]) -> Vec4 {
    let lane = |k: usize| dot(w, [a[0][k], a[1][k], a[2][k]]) as f32;
    Vec4::new(lane(0), lane(1), lane(2), lane(3))
}

impl TriRaster<'_> {
    /// The span filler for this command's blend mode and page with the given colour
    /// variation and sampler choice.
    fn fill_fn(&self, smooth: bool, bilinear: bool, fast: bool) -> FillFn {
        let mode = match self.blend {
            BlendMode::Normal => NORMAL,
            BlendMode::Additive => ADDITIVE,
            BlendMode::Multiply => MULTIPLY,
            BlendMode::Screen => SCREEN,
        };
        match (fast, bilinear) {
            (true, true) if self.tex.pixels.len() <= F32_INDEX_TEXELS => {
                filler::<BilinearClamp<true>>(mode, self.pma, smooth)
            }
            (true, true) => filler::<BilinearClamp<false>>(mode, self.pma, smooth),
            (true, false) => filler::<NearestClamp>(mode, self.pma, smooth),
            (false, true) => filler::<AnySampler<true>>(mode, self.pma, smooth),
            (false, false) => filler::<AnySampler<false>>(mode, self.pma, smooth),
        }
    }

    /// Rasterizes triangle `v` (vertex indices into `s` and `uvs`).
    pub fn triangle(&mut self, s: &Scratch, uvs: &[f32], v: [usize; 3]) {
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
        let (w, h) = (i64::from(self.width), i64::from(self.height));
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
        let e = [Edge::new(p1, p2, sx, sy), Edge::new(p2, p0, sx, sy), Edge::new(p0, p1, sx, sy)];
        let uv = |i: usize| {
            [uvs.get(2 * i).copied().unwrap_or(0.0), uvs.get(2 * i + 1).copied().unwrap_or(0.0)]
        };
        let uvv = [uv(v[0]), uv(v[1]), uv(v[2])];
        let us = [uvv[0][0], uvv[1][0], uvv[2][0]];
        let vs = [uvv[0][1], uvv[1][1], uvv[2][1]];
        let col = |c: &[Vec4], i: usize| c.get(i).copied().unwrap_or(Vec4::ZERO);
        let light = [col(&s.light, v[0]), col(&s.light, v[1]), col(&s.light, v[2])];
        let dark = [col(&s.dark, v[0]), col(&s.dark, v[1]), col(&s.dark, v[2])];
        let smooth = !(light[0] == light[1]
            && light[0] == light[2]
            && dark[0] == dark[1]
            && dark[0] == dark[2]);
        // Texels per pixel (area ratio) decides minification vs magnification.
        let tex = self.tex;
        let tex_area = ((us[1] - us[0]) * (vs[2] - vs[0]) - (vs[1] - vs[0]) * (us[2] - us[0]))
            .abs()
            * tex.width as f32
            * tex.height as f32;
        let px_area = area as f32 / (SUB * SUB) as f32;
        let bilinear = if tex_area > px_area { tex.min_linear } else { tex.mag_linear };
        let clamped =
            tex.wrap_u == TextureWrap::ClampToEdge && tex.wrap_v == TextureWrap::ClampToEdge;
        let finite = us.iter().chain(&vs).all(|x| x.is_finite());
        let fill = self.fill_fn(smooth, bilinear, clamped && finite);

        // Attribute planes: at a sample with edge values E_i the attribute is
        // Σ E_i · a_i / area; along a row E_i grows by step_x each pixel.
        let inv_area = 1.0 / area as f64;
        let dw = [
            e[0].step_x as f64 * inv_area,
            e[1].step_x as f64 * inv_area,
            e[2].step_x as f64 * inv_area,
        ];
        let mut span = Span {
            uv: Vec2::ZERO,
            duv: Vec2::new(dot(dw, us) as f32, dot(dw, vs) as f32),
            light: span_colour(light[0]),
            dlight: Vec4::ZERO,
            dark: span_colour(dark[0]),
            ddark: Vec4::ZERO,
        };
        if smooth {
            span.dlight = span_colour(dot4(dw, &light));
            span.ddark = span_colour(dot4(dw, &dark));
        }
        let mut rows = RowWalk {
            e,
            x0,
            x1,
            y0,
            y1,
            inv_area,
            us,
            vs,
            light,
            dark,
            width: self.width as usize,
            span,
            fragments: 0,
        };
        fill(tex, self.frame, &mut rows);
        self.fragments += rows.fragments;
    }
}

/// A triangle's rows from `y0` to `y1`: the edges at the current row, and what each row's
/// span needs (its covered run, its attributes at the run's first pixel).
pub(super) struct RowWalk {
    e: [Edge; 3],
    x0: i64,
    x1: i64,
    y0: i64,
    y1: i64,
    inv_area: f64,
    us: [f32; 3],
    vs: [f32; 3],
    light: [Vec4; 3],
    dark: [Vec4; 3],
    width: usize,
    span: Span,
    /// Fragments handed to `fill` so far.
    pub fragments: u64,
}

impl RowWalk {
    /// The texture coordinates' change per pixel along a row (the same on every row).
    pub fn duv(&self) -> Vec2 {
        self.span.duv
    }

    /// Calls `fill` with each row's covered run of `frame` and its [`Span`]; `SMOOTH`:
    /// the vertex colours vary over the triangle (the filler was chosen for that).
    #[inline(always)]
    pub fn for_each_span<const SMOOTH: bool>(
        &mut self,
        frame: &mut [Vec4],
        mut fill: impl FnMut(&mut [Vec4], &Span),
    ) {
        let (e, span) = (&mut self.e, &mut self.span);
        let (us, vs, inv_area) = (self.us, self.vs, self.inv_area);
        for y in self.y0..self.y1 + 1 {
            let (lo, hi) = row_run(e, self.x1 - self.x0);
            if hi >= lo {
                self.fragments += (hi - lo + 1) as u64;
                let wt = |k: usize| (e[k].row + lo * e[k].step_x) as f64 * inv_area;
                let wts = [wt(0), wt(1), wt(2)];
                span.uv = Vec2::new(dot(wts, us) as f32, dot(wts, vs) as f32);
                if SMOOTH {
                    span.light = span_colour(dot4(wts, &self.light));
                    span.dark = span_colour(dot4(wts, &self.dark));
                }
                let row = y as usize * self.width;
                let (a, b) = (row + (self.x0 + lo) as usize, row + (self.x0 + hi) as usize);
                if let Some(dst) = frame.get_mut(a..=b) {
                    fill(dst, span);
                }
            }
            for edge in e.iter_mut() {
                edge.row += edge.step_y;
            }
        }
    }
}
