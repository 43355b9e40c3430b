//! Curve tables as 4.x keys, and the value encodings of the 4.x binary (colors as bytes,
//! channels as fixed-size arrays).

use spine_format::binary::shared::{Channels, CurveKey, CurveTimeline, CurveType};

use crate::anim::*;
use crate::data::*;

/// Weights of the two inner control points at the 9 sample parameters `t = 0.1 … 0.9`.
fn basis(j: usize) -> (f64, f64, f64, f64) {
    let t = (j + 1) as f64 / 10.0;
    let u = 1.0 - t;
    (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t)
}

/// The inner control points `(c1, c2)` of one coordinate of a cubic bezier from `p0` to `p3`
/// whose samples at `t = 0.1 … 0.9` are `samples` (least squares).
fn inner(samples: [f64; 9], p0: f64, p3: f64) -> (f64, f64) {
    let (mut s11, mut s12, mut s22, mut r1, mut r2) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for (j, &x) in samples.iter().enumerate() {
        let (a, b1, b2, d) = basis(j);
        let r = x - a * p0 - d * p3;
        s11 += b1 * b1;
        s12 += b1 * b2;
        s22 += b2 * b2;
        r1 += b1 * r;
        r2 += b2 * r;
    }
    let det = s11 * s22 - s12 * s12;
    ((r1 * s22 - r2 * s12) / det, (s11 * r2 - s12 * r1) / det)
}

/// `(cx1, cy1, cx2, cy2)` of the bezier whose 9 precomputed points are `p` (18 floats),
/// from `(x0, y0)` to `(x3, y3)`.
fn bezier_of(p: &[f32], (x0, y0): (f32, f32), (x3, y3): (f32, f32)) -> [f32; 4] {
    let mut xs = [0.0; 9];
    let mut ys = [0.0; 9];
    for j in 0..9 {
        xs[j] = f64::from(p.get(2 * j).copied().unwrap_or(0.0));
        ys[j] = f64::from(p.get(2 * j + 1).copied().unwrap_or(0.0));
    }
    let (cx1, cx2) = inner(xs, f64::from(x0), f64::from(x3));
    let (cy1, cy2) = inner(ys, f64::from(y0), f64::from(y3));
    [cx1 as f32, cy1 as f32, cx2 as f32, cy2 as f32]
}

/// 3.x `RotateTimeline`'s wrap of a difference into `[-180, 180)`.
fn wrap180(r: f32) -> f32 {
    let r = f64::from(r);
    (r - f64::from(16384 - (16384.499999999996 - r / 360.0) as i32) * 360.0) as f32
}

/// A timeline's keys in the 4.x form: times, values per key, and per segment its curve with
/// one `(cx1, cy1, cx2, cy2)` per channel (one for deform curves, `cy` a percent).
pub(super) struct Keys {
    /// The key times.
    pub(super) times: Vec<f32>,
    /// Per key, its channels.
    pub(super) values: Vec<Vec<f32>>,
    /// Per segment, its curve type and its controls.
    pub(super) curves: Vec<(CurveType, Vec<[f32; 4]>)>,
}

/// The keys of the timeline whose curves are `c` (each rotation key unwrapped against the
/// previous one when `unwrap_rotation`).
pub(super) fn keys_of(a: &AnimationData, c: &Curves, unwrap_rotation: bool) -> Keys {
    let t = a.table(c);
    let n = t.frame_count();
    let ch = t.channels;
    let times: Vec<f32> = (0..n).map(|k| t.time(k)).collect();
    let original: Vec<Vec<f32>> =
        (0..n).map(|k| (0..ch).map(|c| t.value(k, c)).collect()).collect();
    let mut values = original.clone();
    if unwrap_rotation {
        for k in 1..n {
            for c in 0..ch {
                values[k][c] = values[k - 1][c] + wrap180(original[k][c] - original[k - 1][c]);
            }
        }
    }
    let mut curves = Vec::with_capacity(n.saturating_sub(1));
    for k in 0..n.saturating_sub(1) {
        let ty = t.curve(k);
        if ty == LINEAR {
            curves.push((CurveType::Linear, Vec::new()));
            continue;
        }
        if ty == STEPPED {
            curves.push((CurveType::Stepped, Vec::new()));
            continue;
        }
        let i = (ty - BEZIER) as usize;
        let (t1, t2) = (times[k], times[k + 1]);
        let mut b = Vec::new();
        match t.model {
            CurveModel::Sampled3x => {
                let p = t.curves.get(i..i + BEZIER_SIZE).unwrap_or(&[]);
                let [cx1, cy1, cx2, cy2] = bezier_of(p, (0.0, 0.0), (1.0, 1.0));
                let (x1, x2) = (t1 + cx1 * (t2 - t1), t1 + cx2 * (t2 - t1));
                if ch == 0 {
                    b.push([x1, cy1, x2, cy2]);
                }
                for (&v1, &v2) in values[k].iter().zip(&values[k + 1]) {
                    b.push([x1, v1 + cy1 * (v2 - v1), x2, v1 + cy2 * (v2 - v1)]);
                }
            }
            CurveModel::Bezier4x => {
                if ch == 0 {
                    let p = t.curves.get(i..i + BEZIER_SIZE).unwrap_or(&[]);
                    b.push(bezier_of(p, (t1, 0.0), (t2, 1.0)));
                }
                for (c, (&v1, &v2)) in values[k].iter().zip(&values[k + 1]).enumerate() {
                    let at = i + c * BEZIER_SIZE;
                    let p = t.curves.get(at..at + BEZIER_SIZE).unwrap_or(&[]);
                    b.push(bezier_of(p, (t1, v1), (t2, v2)));
                }
            }
        }
        curves.push((CurveType::Bezier, b));
    }
    Keys { times, values, curves }
}

impl Keys {
    /// A 4.x curve timeline with values made by `make` (from each key's channels).
    pub(super) fn timeline<V: Channels>(&self, make: impl Fn(&[f32]) -> V) -> CurveTimeline<V> {
        let mut bezier_count = 0;
        let frames = (0..self.times.len())
            .map(|k| {
                let mut key = CurveKey::linear(self.times[k], make(&self.values[k]));
                if let Some((ty, b)) = self.curves.get(k) {
                    key.curve = *ty;
                    if *ty == CurveType::Bezier {
                        bezier_count += V::COUNT as u32;
                        for (dst, src) in key.bezier.as_mut().iter_mut().zip(b) {
                            *dst = *src;
                        }
                    }
                }
                key
            })
            .collect();
        CurveTimeline { bezier_count, frames }
    }
}

/// A channel as a color byte (`round(v × 255)`).
pub(super) fn byte(v: f32) -> u8 {
    (v * 255.0).round().clamp(0.0, 255.0) as u8
}

/// A color as RGBA bytes.
pub(super) fn rgba(c: Color) -> [u8; 4] {
    [byte(c.r), byte(c.g), byte(c.b), byte(c.a)]
}

/// The first `N` channels (0 where there are fewer).
pub(super) fn arr<const N: usize>(v: &[f32]) -> [f32; N] {
    let mut out = [0.0; N];
    for (o, x) in out.iter_mut().zip(v) {
        *o = *x;
    }
    out
}

/// The first `N` channels as color bytes.
pub(super) fn bytes<const N: usize>(v: &[f32]) -> [u8; N] {
    let mut out = [0; N];
    for (o, x) in out.iter_mut().zip(v) {
        *o = byte(*x);
    }
    out
}
