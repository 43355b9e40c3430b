//! Builds [`Curves`] tables from the 4.x wire curve encoding (shared by 4.0–4.3).

use spine_format::binary::shared::{CurveTimeline, CurveType};

use crate::anim::Curves;

/// Sets the curve of segment `k` (from key `k` to `k + 1`): stepped, linear, or one
/// bezier per channel from `controls` (`cx1, cy1, cx2, cy2`; `cy` multiplied by `cy_scale`,
/// as the loaders scale them like the values). A table with 0 channels (deform) maps a
/// `0 → 1` percent.
pub(crate) fn segment(
    c: &mut Curves,
    next_bezier: &mut usize,
    k: usize,
    curve: CurveType,
    controls: &[[f32; 4]],
    cy_scale: f32,
) {
    match curve {
        CurveType::Linear => {}
        CurveType::Stepped => c.set_stepped(k),
        CurveType::Bezier => {
            let (t1, t2) = (c.time(k), c.time(k + 1));
            for (ch, &[cx1, cy1, cx2, cy2]) in controls.iter().enumerate() {
                let (v1, v2) =
                    if c.channels == 0 { (0.0, 1.0) } else { (c.value(k, ch), c.value(k + 1, ch)) };
                let b = [cx1, cy1 * cy_scale, cx2, cy2 * cy_scale];
                c.set_bezier(*next_bezier, k, ch, t1, v1, b, t2, v2);
                *next_bezier += 1;
            }
        }
    }
}

/// Number of bezier segments × channels a timeline needs.
pub(crate) fn bezier_count(curves: &[CurveType], channels: usize) -> usize {
    curves.iter().filter(|c| **c == CurveType::Bezier).count() * channels.max(1)
}

/// Converts a wire curve timeline: `value(v, c)` gives channel `c` of a key (already
/// scaled); bezier `cy` are multiplied by `cy_scale`.
pub(crate) fn convert<V>(
    t: &CurveTimeline<V>,
    channels: usize,
    value: impl Fn(&V, usize) -> f32,
    cy_scale: f32,
) -> Curves {
    let n = t.frames.len();
    let mut c = Curves::new(channels, n, bezier_count(&t.curves, channels));
    for f in &t.frames {
        c.frames.push(f.time);
        for ch in 0..channels {
            c.frames.push(value(&f.value, ch));
        }
    }
    let mut next = 0;
    let mut controls = t.beziers.chunks(channels.max(1));
    for (k, &curve) in t.curves.iter().enumerate().take(n.saturating_sub(1)) {
        let ctl: &[[f32; 4]] =
            if curve == CurveType::Bezier { controls.next().unwrap_or(&[]) } else { &[] };
        segment(&mut c, &mut next, k, curve, ctl, cy_scale);
    }
    c
}

/// A float curve timeline of `N` channels, values and `cy` times `scale`.
pub(crate) fn floats<const N: usize>(t: &CurveTimeline<[f32; N]>, scale: f32) -> Curves {
    convert(t, N, |v, c| v[c] * scale, scale)
}

/// A color curve timeline of `N` byte channels, values `byte / 255`.
pub(crate) fn colors<const N: usize>(t: &CurveTimeline<[u8; N]>) -> Curves {
    convert(t, N, |v, c| f32::from(v[c]) / 255.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use spine_format::binary::shared::Keyframe;

    #[test]
    fn bezier_table_matches_spine_cpp_layout() {
        let t = CurveTimeline {
            bezier_count: 1,
            frames: vec![
                Keyframe { time: 0.0, value: [0.0f32] },
                Keyframe { time: 1.0, value: [10.0] },
                Keyframe { time: 2.0, value: [20.0] },
            ],
            curves: vec![CurveType::Bezier, CurveType::Stepped],
            beziers: vec![[0.25, 0.0, 0.75, 10.0]],
        };
        let c = floats(&t, 2.0);
        assert_eq!(c.frames, vec![0.0, 0.0, 1.0, 20.0, 2.0, 40.0]);
        assert_eq!(c.curves.len(), 3 + 18);
        assert_eq!(c.curves[0], crate::anim::BEZIER + 3.0);
        assert_eq!(c.curves[1], crate::anim::STEPPED);
        // The 9th point is the cubic at t = 0.9: x = 0.918, y = 19.44.
        assert!((c.curves[3 + 16] - 0.918).abs() < 1e-4, "{}", c.curves[3 + 16]);
        assert!((c.curves[3 + 17] - 19.44).abs() < 1e-3, "{}", c.curves[3 + 17]);
    }
}
