//! JSON keys to curve tables: 3.x sampled curves or 4.x per-channel beziers.

use spine_format::binary::shared::CurveType;
use spine_format::json as j;
use spine_format::SpineVersion;

use super::Conv;
use crate::anim::*;
use crate::curves::{self, sampled3x, Curve3};
use crate::error::ProblemKind;

/// Builds a curve table from JSON keys: `values` per key (already scaled), and for 4.x the
/// per-channel `cy` scale.
pub(super) fn table<V>(
    c: &mut Conv<'_, '_>,
    keys: &[j::Key<V>],
    channels: usize,
    values: impl Fn(&V) -> Vals,
    cy_scale: &[f32],
) -> CurveBuf {
    if c.v3 {
        return table3(c, keys, channels, values);
    }
    let n = keys.len();
    let ch = channels.max(1);
    let kind = |k: &j::Key<V>| match &k.curve {
        Some(j::Curve::Stepped) => CurveType::Stepped,
        Some(j::Curve::Bezier(_)) => CurveType::Bezier,
        _ => CurveType::Linear,
    };
    let segments = &keys[..n.saturating_sub(1)];
    let beziers = segments.iter().filter(|k| kind(k) == CurveType::Bezier).count() * ch;
    // The previous table's storage, reused (see `Conv::spare`).
    let mut t = std::mem::take(&mut c.spare);
    t.reset(channels, n, beziers);
    for k in keys {
        t.frames.push(k.time);
        let v = values(&k.value);
        let v = v.as_slice();
        t.frames.extend((0..channels).map(|i| v.get(i).copied().unwrap_or(0.0)));
    }
    let mut next = 0;
    for (i, k) in segments.iter().enumerate() {
        let kind = kind(k);
        let mut b: &[f32] = &[];
        if let Some(j::Curve::Bezier(bezier)) = &k.curve {
            b = bezier;
            if b.len() < 4 * ch {
                c.b.report(ProblemKind::Invalid(format!(
                    "key {i}: curve has {} numbers, {} expected",
                    b.len(),
                    4 * ch
                )));
                continue;
            }
        }
        // One segment's controls per channel, `cy` scaled per channel.
        let controls = b.chunks_exact(4).take(ch).enumerate().map(|(q, b)| {
            let s = cy_scale.get(q).copied().unwrap_or(1.0);
            [b[0], b[1] * s, b[2], b[3] * s]
        });
        curves::segment(&mut t, &mut next, i, kind, controls, 1.0);
    }
    t
}

/// A 3.x table: one sampled `setCurve` bezier per segment (3.5–3.7 `curve: [cx1, cy1, cx2,
/// cy2]`, 3.8 `curve: cx1` + `c2`, `c3`, `c4` defaulting to 0, 1, 1; a 3.8 string is stepped).
fn table3<V>(
    c: &Conv<'_, '_>,
    keys: &[j::Key<V>],
    channels: usize,
    values: impl Fn(&V) -> Vals,
) -> CurveBuf {
    let v38 = c.s.version >= SpineVersion::V3_8;
    let curves: Vec<Curve3> = keys
        .iter()
        .map(|k| match &k.curve {
            None => Curve3::Linear,
            Some(j::Curve::Stepped) => Curve3::Stepped,
            Some(j::Curve::Other(_)) if v38 => Curve3::Stepped,
            Some(j::Curve::Other(_)) => Curve3::Linear,
            Some(j::Curve::Bezier(b)) if b.len() >= 4 => Curve3::Bezier([b[0], b[1], b[2], b[3]]),
            Some(j::Curve::Bezier(_)) => Curve3::Linear,
            Some(j::Curve::Number { c1, c2, c3, c4 }) => {
                Curve3::Bezier([*c1, c2.unwrap_or(0.0), c3.unwrap_or(1.0), c4.unwrap_or(1.0)])
            }
        })
        .collect();
    let k: Vec<(f32, Vec<f32>)> =
        keys.iter().map(|k| (k.time, values(&k.value).as_slice().to_vec())).collect();
    sampled3x(channels, k.into_iter(), &curves)
}

/// The values of one key (at most 7 channels), without a heap allocation per key.
#[derive(Clone, Copy, Default)]
pub(super) struct Vals {
    v: [f32; 7],
    n: usize,
}

impl Vals {
    /// The values `x` (at most 7 kept).
    pub(super) fn of(x: &[f32]) -> Vals {
        let mut o = Vals::default();
        o.extend(x);
        o
    }
    /// Appends `x` (up to 7 values in all).
    pub(super) fn extend(&mut self, x: &[f32]) {
        for &f in x {
            if let Some(slot) = self.v.get_mut(self.n) {
                *slot = f;
                self.n += 1;
            }
        }
    }
    /// The values.
    pub(super) fn as_slice(&self) -> &[f32] {
        self.v.get(..self.n).unwrap_or_default()
    }
}

/// The first `n` channels of a color as `0..=1` values.
pub(super) fn rgb(c: [u8; 4], n: usize) -> Vals {
    let mut o = Vals::default();
    for &x in c.iter().take(n) {
        o.extend(&[f32::from(x) / 255.0]);
    }
    o
}
