//! Builds curve tables ([`CurveBuf`], or streamed into an animation's keys as [`Curves`]) from the 4.x wire curve encoding (shared by 4.0–4.3), and the
//! 3.x sampled curve kind ([`CurveModel::Sampled3x`](crate::CurveModel::Sampled3x)).

#[cfg(test)]
use spine_format::binary::shared::CurveTimeline;
use spine_format::binary::shared::{Channels, CurveFrames, CurveType, KeySink};
use spine_format::BinaryError;

use crate::anim::{
    bezier_points, offset, CurveBuf, CurveTable, Curves, BEZIER, BEZIER_SIZE, LINEAR, STEPPED,
};

/// 3.x curves ([`CurveModel::Sampled3x`](crate::CurveModel::Sampled3x)).
///
/// Layout: `curves[k]` (each key but the last) is [`LINEAR`], [`STEPPED`] or `BEZIER + i`
/// exactly as for 4.x, but a 3.x bezier is **one per segment** (shared by every channel) and
/// its [`BEZIER_SIZE`] floats at `i` are the 9 `(x, y)` points of the curve in *percent*
/// space (`0..1` of the segment's time → `0..1` of the value change), sampled by the 3.x
/// runtimes' `CurveTimeline.setCurve` (float forward differences with the float constants
/// `0.03`, `0.006`, `0.3`, `0.16666667`); the implied first point is `(0, 0)` and the last
/// `(1, 1)`. Evaluate with [`CurveTable::curve_percent_3x`] (3.x `getCurvePercent`), then
/// interpolate each value linearly with that percent.
impl CurveBuf {
    /// 3.x `CurveTimeline.setCurve(frame, cx1, cy1, cx2, cy2)` (spine-libgdx 3.8): writes
    /// bezier number `bezier` for segment `frame`.
    pub fn set_curve_3x(&mut self, bezier: usize, frame: usize, [cx1, cy1, cx2, cy2]: [f32; 4]) {
        let mut i = self.bezier_base + bezier * BEZIER_SIZE;
        if let Some(c) = self.curves.get_mut(frame) {
            *c = BEZIER + i as f32;
        }
        let tmpx = (-cx1 * 2.0 + cx2) * 0.03;
        let tmpy = (-cy1 * 2.0 + cy2) * 0.03;
        let dddfx = ((cx1 - cx2) * 3.0 + 1.0) * 0.006;
        let dddfy = ((cy1 - cy2) * 3.0 + 1.0) * 0.006;
        let mut ddfx = tmpx * 2.0 + dddfx;
        let mut ddfy = tmpy * 2.0 + dddfy;
        let mut dfx = cx1 * 0.3 + tmpx + dddfx * 0.166_666_67;
        let mut dfy = cy1 * 0.3 + tmpy + dddfy * 0.166_666_67;
        let (mut x, mut y) = (dfx, dfy);
        let n = i + BEZIER_SIZE;
        while i < n {
            if let Some(s) = self.curves.get_mut(i..i + 2) {
                s[0] = x;
                s[1] = y;
            }
            dfx += ddfx;
            dfy += ddfy;
            ddfx += dddfx;
            ddfy += dddfy;
            x += dfx;
            y += dfy;
            i += 2;
        }
    }
}

impl CurveTable<'_> {
    /// 3.x `CurveTimeline.getCurvePercent(frame, percent)` (spine-libgdx 3.8): the eased
    /// percent of segment `frame` for the linear `percent` (clamped to `0..=1`).
    pub fn curve_percent_3x(&self, frame: usize, percent: f32) -> f32 {
        let percent = percent.clamp(0.0, 1.0);
        let ty = self.curves.get(frame).copied().unwrap_or(LINEAR);
        if ty == LINEAR {
            return percent;
        }
        if ty == STEPPED {
            return 0.0;
        }
        let start = (ty - BEZIER) as usize;
        let Some(p) = self.curves.get(start..start + BEZIER_SIZE) else { return percent };
        let mut x = 0.0;
        let mut i = 0;
        while i < BEZIER_SIZE {
            x = p[i];
            if x >= percent {
                if i == 0 {
                    return p[1] * percent / x;
                }
                let (px, py) = (p[i - 2], p[i - 1]);
                return py + (p[i + 1] - py) * (percent - px) / (x - px);
            }
            i += 2;
        }
        let y = p[BEZIER_SIZE - 1];
        y + (1.0 - y) * (percent - x) / (1.0 - x)
    }
}

/// A 3.x segment curve (wire or JSON).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Curve3 {
    /// Linear.
    Linear,
    /// Stepped.
    Stepped,
    /// Bezier `cx1, cy1, cx2, cy2` in percent space.
    Bezier([f32; 4]),
}

/// Builds a 3.x table: `keys` yields `(time, values)`, `curves[k]` the segment after key `k`.
pub(crate) fn sampled3x(
    channels: usize,
    keys: impl ExactSizeIterator<Item = (f32, Vec<f32>)>,
    curves: &[Curve3],
) -> CurveBuf {
    let n = keys.len();
    let beziers =
        curves.iter().take(n.saturating_sub(1)).filter(|c| matches!(c, Curve3::Bezier(_))).count();
    let mut c = CurveBuf::new(channels, n, beziers);
    c.model = crate::CurveModel::Sampled3x;
    for (time, values) in keys {
        c.frames.push(time);
        c.frames.extend((0..channels).map(|i| values.get(i).copied().unwrap_or(0.0)));
    }
    let mut next = 0;
    for (k, curve) in curves.iter().enumerate().take(n.saturating_sub(1)) {
        match *curve {
            Curve3::Linear => {}
            Curve3::Stepped => c.set_stepped(k),
            Curve3::Bezier(b) => {
                c.set_curve_3x(next, k, b);
                next += 1;
            }
        }
    }
    c
}

/// Sets the curve of segment `k` (from key `k` to `k + 1`): stepped, linear, or one
/// bezier per channel from `controls` (`cx1, cy1, cx2, cy2`; `cy` multiplied by `cy_scale`,
/// as the loaders scale them like the values). A table with 0 channels (deform) maps a
/// `0 → 1` percent. The controls come as values (a caller computing them hands them over in
/// registers: stored a float at a time and read back wider, they waited for the stores to
/// retire).
#[inline(always)]
pub(crate) fn segment(
    c: &mut CurveBuf,
    next_bezier: &mut usize,
    k: usize,
    curve: CurveType,
    controls: impl IntoIterator<Item = [f32; 4]>,
    cy_scale: f32,
) {
    match curve {
        CurveType::Linear => {}
        CurveType::Stepped => c.set_stepped(k),
        CurveType::Bezier => {
            let (t1, t2) = (c.time(k), c.time(k + 1));
            for (ch, [cx1, cy1, cx2, cy2]) in controls.into_iter().enumerate() {
                let (v1, v2) =
                    if c.channels == 0 { (0.0, 1.0) } else { (c.value(k, ch), c.value(k + 1, ch)) };
                let b = [cx1, cy1 * cy_scale, cx2, cy2 * cy_scale];
                c.set_bezier(*next_bezier, k, ch, t1, v1, b, t2, v2);
                *next_bezier += 1;
            }
        }
    }
}

/// [`segment`] with the controls in a slice (wire keys), out of line.
#[inline(never)]
pub(crate) fn segment_of(
    c: &mut CurveBuf,
    next_bezier: &mut usize,
    k: usize,
    curve: CurveType,
    controls: &[[f32; 4]],
    cy_scale: f32,
) {
    segment(c, next_bezier, k, curve, controls.iter().copied(), cy_scale);
}

/// Converts a wire curve timeline: `value(v, c)` gives channel `c` of a key (already
/// scaled); bezier `cy` are multiplied by `cy_scale`. The reference the streamed tables
/// are tested against.
#[cfg(test)]
pub(crate) fn convert<V: Channels>(
    t: &CurveTimeline<V>,
    channels: usize,
    value: impl Fn(&V, usize) -> f32,
    cy_scale: f32,
) -> CurveBuf {
    let n = t.frames.len();
    let beziers = t.curves().filter(|c| *c == CurveType::Bezier).count() * channels.max(1);
    let mut c = CurveBuf::new(channels, n, beziers);
    for f in &t.frames {
        c.frames.push(f.time);
        c.frames.extend((0..channels).map(|ch| value(&f.value, ch)));
    }
    let mut next = 0;
    let segments = t.frames.len().saturating_sub(1);
    for (k, key) in t.frames[..segments].iter().enumerate() {
        let ctl: &[[f32; 4]] =
            if key.curve == CurveType::Bezier { key.bezier.as_ref() } else { &[] };
        segment_of(&mut c, &mut next, k, key.curve, ctl, cy_scale);
    }
    c
}

/// A float curve timeline of `N` channels, values and `cy` times `scale`.
#[cfg(test)]
pub(crate) fn floats<const N: usize>(t: &CurveTimeline<[f32; N]>, scale: f32) -> CurveBuf
where
    [f32; N]: Channels,
{
    convert(t, N, |v, c| v[c] * scale, scale)
}

/// Bit 31 is set when `v` is not finite (its exponent bits all ones: adding one to the
/// exponent field carries into bit 31); OR these up and test once.
#[inline(always)]
pub(crate) fn non_finite_bit(v: f32) -> u32 {
    (v.to_bits() & 0x7f80_0000).wrapping_add(0x0080_0000)
}

/// Fills a curve table from streamed wire keys ([`KeySink`]) straight into an animation's
/// keys: float values and bezier `cy` times `scale`, byte values `/ 255` (bezier `cy`
/// unscaled). The key count is known up front: the keys are written in place into room
/// made for them in `keys`, the curve table built right after them (its segment entries,
/// then the beziers appended as they come), so that it is not copied from a scratch buffer.
/// Builds exactly the table [`floats`] / [`colors`] build from the parsed timeline.
struct Fill<'c> {
    keys: &'c mut Vec<f32>,
    /// Index in `keys` of this table's first key.
    start: usize,
    /// Floats of keys (room for every key, from `start`).
    frames_len: usize,
    /// Keys written so far.
    written: usize,
    channels: usize,
    /// The key count (where the bezier points start in the curve table).
    bezier_base: usize,
    scale: f32,
    next: usize,
    stepped: bool,
    last_time: f32,
    /// [`non_finite_bit`] of every key and of the last point of every bezier written.
    non_finite: u32,
}

impl<'c> Fill<'c> {
    /// An empty table of `frame_count` keys of `channels` values (`frame_count` checked
    /// against the input by the reader): room for the keys, the segment entries [`LINEAR`]
    /// when beziers are expected, the bezier points reserved (appended as they are
    /// computed, not pre-filled).
    fn new(
        keys: &'c mut Vec<f32>,
        channels: usize,
        frame_count: usize,
        bezier_count: usize,
        scale: f32,
    ) -> Self {
        let start = keys.len();
        let frames_len = frame_count * (1 + channels);
        let curves = if bezier_count > 0 { frame_count + bezier_count * BEZIER_SIZE } else { 0 };
        keys.reserve(frames_len + curves);
        keys.resize(start + frames_len, 0.0);
        if bezier_count > 0 {
            keys.resize(start + frames_len + frame_count, LINEAR);
        }
        Fill {
            keys,
            start,
            frames_len,
            written: 0,
            channels,
            bezier_base: frame_count,
            scale,
            next: 0,
            stepped: false,
            last_time: 0.0,
            non_finite: 0,
        }
    }

    /// Where the curve table starts in `keys`.
    #[inline]
    fn curves_at(&self) -> usize {
        self.start + self.frames_len
    }

    /// Writes the next key (`time`, then its values from `values`); a key past the count
    /// is dropped (the reader sends exactly that many).
    #[inline(always)]
    fn put(&mut self, time: f32, values: impl Iterator<Item = f32>) {
        let stride = 1 + self.channels;
        let at = self.start + self.written * stride;
        if self.written * stride < self.frames_len {
            if let Some(dst) = self.keys.get_mut(at..at + stride) {
                dst[0] = time;
                dst[1..].iter_mut().zip(values).for_each(|(d, v)| *d = v);
            }
        }
        self.written += 1;
    }

    /// Segment `k` (keys `k` and `k + 1` are in the table): stepped, or one bezier per
    /// channel (what [`segment`] does, with the stride known).
    fn segment<const N: usize>(
        &mut self,
        k: usize,
        curve: CurveType,
        controls: &[[f32; 4]; N],
        cy_scale: f32,
    ) {
        let stride = N + 1;
        let at = self.start + k * stride;
        if k + 1 >= self.written || at + 2 * stride > self.curves_at() {
            return;
        }
        let Some(keys) = self.keys.get(at..at + 2 * stride) else { return };
        let c0 = self.curves_at();
        match curve {
            CurveType::Linear => {}
            CurveType::Stepped => {
                self.stepped = true;
                // What `CurveBuf::set_stepped` does.
                if k < self.bezier_base && self.keys.len() - c0 < self.bezier_base {
                    self.keys.resize(c0 + self.bezier_base, LINEAR);
                }
                if let Some(c) = self.keys.get_mut(c0 + k) {
                    *c = STEPPED;
                }
            }
            CurveType::Bezier => {
                // Key `k + 1` was just stored a float at a time: read it a float at a time
                // (`black_box` keeps the compiler from merging the reads into wider loads,
                // which would wait for the stores to retire instead of forwarding them).
                let (t1, t2) = (keys[0], std::hint::black_box(keys[stride]));
                let mut v1 = [0.0; N];
                let mut v2 = [0.0; N];
                v1.copy_from_slice(&keys[1..stride]);
                for (d, &s) in v2.iter_mut().zip(&keys[stride + 1..]) {
                    *d = std::hint::black_box(s);
                }
                // What `CurveBuf::set_bezier` does per channel, appending the points (the
                // beziers of a table come in order; the reserved capacity is a hint).
                let first = self.bezier_base + self.next * BEZIER_SIZE;
                let curves = &mut *self.keys;
                if curves.len() != c0 + first {
                    curves.resize(c0 + first, LINEAR);
                }
                if let Some(c) = curves.get_mut(c0 + k) {
                    *c = BEZIER + first as f32;
                }
                let mut bits = 0;
                for (ch, c) in controls.iter().enumerate() {
                    // The controls too were just stored a float at a time.
                    let [cx1, cy1, cx2, cy2] = c.map(std::hint::black_box);
                    let mut points = [0.0; BEZIER_SIZE];
                    let b = [cx1, cy1 * cy_scale, cx2, cy2 * cy_scale];
                    bezier_points(&mut points, t1, v1[ch], b, t2, v2[ch]);
                    // Each point is the previous one plus a difference: once a sum is not
                    // finite, every later one is not (inf + finite = inf, inf + inf = inf,
                    // inf - inf = NaN, NaN + any = NaN). So the last point is finite exactly
                    // when all nine are.
                    bits |= non_finite_bit(points[16]) | non_finite_bit(points[17]);
                    curves.extend_from_slice(&points);
                }
                self.non_finite |= bits;
                self.next += N;
            }
        }
    }

    /// Trims the table, already written after the keys, to the beziers used (what
    /// [`convert`] allocates) and returns where the keys and the table are.
    fn finish(self) -> (Curves, Streamed) {
        let c0 = self.curves_at();
        if self.next == 0 && !self.stepped {
            self.keys.truncate(c0);
        } else {
            self.keys.truncate(c0 + self.bezier_base + self.next * BEZIER_SIZE);
        }
        let curves = Curves {
            channels: self.channels,
            start: offset(self.start),
            frames_len: offset(self.frames_len),
            curves_len: offset(self.keys.len() - c0),
            model: crate::CurveModel::Bezier4x,
        };
        let streamed =
            Streamed { last_time: self.last_time, finite: self.non_finite & 0x8000_0000 == 0 };
        (curves, streamed)
    }
}

impl<const N: usize> KeySink<[f32; N]> for Fill<'_>
where
    [f32; N]: Channels<Beziers = [[f32; 4]; N]>,
{
    #[inline]
    fn key(&mut self, time: f32, value: &[f32; N]) {
        let scale = self.scale;
        self.put(time, value.iter().map(|v| v * scale));
        let bits = value.iter().fold(non_finite_bit(time), |a, v| a | non_finite_bit(v * scale));
        self.non_finite |= bits;
        self.last_time = time;
    }
    fn curve(&mut self, segment: usize, curve: CurveType, bezier: &[[f32; 4]; N]) {
        self.segment(segment, curve, bezier, self.scale);
    }
}

impl<const N: usize> KeySink<[u8; N]> for Fill<'_>
where
    [u8; N]: Channels<Beziers = [[f32; 4]; N]>,
{
    #[inline]
    fn key(&mut self, time: f32, value: &[u8; N]) {
        self.put(time, value.iter().map(|v| f32::from(*v) / 255.0));
        self.non_finite |= non_finite_bit(time);
        self.last_time = time;
    }
    fn curve(&mut self, segment: usize, curve: CurveType, bezier: &[[f32; 4]; N]) {
        self.segment(segment, curve, bezier, 1.0);
    }
}

/// What streaming a timeline found besides its table.
pub(crate) struct Streamed {
    /// Time of the last key.
    pub last_time: f32,
    /// Every key and bezier point is finite (the table needs no
    /// [`check_curves`](crate::build::Builder::check_curves)).
    pub finite: bool,
}

/// Where a streamed timeline's table goes: the animation's keys being built.
pub(crate) struct KeyOut<'k> {
    /// The animation's keys ([`AnimationData::keys`](crate::AnimationData::keys)).
    pub keys: &'k mut Vec<f32>,
}

/// Streams a float curve timeline of `N` channels into `out`: values and `cy` times
/// `scale`.
#[inline(always)]
pub(crate) fn stream_floats<const N: usize>(
    out: KeyOut<'_>,
    f: CurveFrames<'_, '_, [f32; N]>,
    scale: f32,
) -> Result<(Curves, Streamed), BinaryError>
where
    [f32; N]: Channels<Beziers = [[f32; 4]; N]>,
{
    let mut fill = Fill::new(out.keys, N, f.len(), f.bezier_capacity(), scale);
    f.read(&mut fill)?;
    Ok(fill.finish())
}

/// Streams a color curve timeline of `N` byte channels into `out` (values `byte / 255`).
#[inline(always)]
pub(crate) fn stream_colors<const N: usize>(
    out: KeyOut<'_>,
    f: CurveFrames<'_, '_, [u8; N]>,
) -> Result<(Curves, Streamed), BinaryError>
where
    [u8; N]: Channels<Beziers = [[f32; 4]; N]>,
{
    let mut fill = Fill::new(out.keys, N, f.len(), f.bezier_capacity(), 1.0);
    f.read(&mut fill)?;
    Ok(fill.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampled_3x_matches_libgdx_set_curve() {
        // cx1 = 0.25, cy1 = 0, cx2 = 0.75, cy2 = 1 (ease in-out): symmetric around 0.5.
        let keys = vec![(0.0, vec![0.0]), (1.0, vec![10.0])];
        let c = sampled3x(1, keys.into_iter(), &[Curve3::Bezier([0.25, 0.0, 0.75, 1.0])]);
        assert_eq!(c.curves[0], BEZIER + 2.0);
        assert_eq!(c.curves.len(), 2 + BEZIER_SIZE);
        // First sample is the cubic at t = 0.1: x = 0.028 + 0.0675*... computed by the
        // forward differences; check the symmetric midpoint and the clamped ends instead.
        assert!((c.table().curve_percent_3x(0, 0.5) - 0.5).abs() < 1e-4);
        assert_eq!(c.table().curve_percent_3x(0, 0.0), 0.0);
        assert!((c.table().curve_percent_3x(0, 1.0) - 1.0).abs() < 1e-6);
        assert!(c.table().curve_percent_3x(0, 0.2) < 0.2, "ease-in is slower at the start");
        // Point 5 (t = 0.5) of the forward-difference samples is (0.5, 0.5).
        assert!((c.curves[2 + 8] - 0.5).abs() < 1e-5 && (c.curves[2 + 9] - 0.5).abs() < 1e-5);
    }

    #[test]
    fn sampled_3x_linear_and_stepped() {
        let keys = vec![(0.0, vec![0.0]), (1.0, vec![1.0]), (2.0, vec![3.0])];
        let c = sampled3x(1, keys.into_iter(), &[Curve3::Stepped, Curve3::Linear]);
        assert_eq!(c.curves, vec![STEPPED, LINEAR, LINEAR]);
        assert_eq!(c.table().curve_percent_3x(0, 0.7), 0.0);
        assert_eq!(c.table().curve_percent_3x(1, 0.7), 0.7);
        assert_eq!(c.frames, vec![0.0, 0.0, 1.0, 1.0, 2.0, 3.0]);
    }
    use spine_format::binary::shared::CurveKey;

    /// The streamed finite flag agrees with a scan of the whole table, with overflowing
    /// bezier sums, infinite and NaN keys.
    #[test]
    fn streamed_finite_flag_matches_a_full_scan() {
        let all_finite = |c: CurveTable| c.frames.iter().chain(c.curves).all(|v| v.is_finite());
        let values = [0.0, 1.0, -2.5, 1e30, 3e38, -3.4e38, f32::MAX, f32::INFINITY, f32::NAN];
        let mut checked = 0;
        for &a in &values {
            for &b in &values {
                for &cy in &[0.5, 3e38, -3e38, f32::NAN] {
                    for scale in [1.0, 2.0] {
                        let t = CurveTimeline {
                            bezier_count: 2,
                            frames: vec![
                                CurveKey {
                                    time: 0.0,
                                    value: [a, 1.0],
                                    curve: CurveType::Bezier,
                                    bezier: [[0.25, cy, 0.75, b], [0.1, 0.0, 0.9, 1.0]],
                                },
                                CurveKey::linear(1.0, [b, a]),
                            ],
                        };
                        // Streamed after another table's floats.
                        let mut keys = vec![7.0; 3];
                        let out = KeyOut { keys: &mut keys };
                        let (c, s) =
                            stream_floats(out, CurveFrames::replay(&t), scale).expect("replay");
                        assert_eq!(c.start, 3);
                        assert_eq!(keys.len(), 3 + (c.frames_len + c.curves_len) as usize);
                        let bits = |c: CurveTable| {
                            let f = c.frames.iter().chain(c.curves).map(|v| v.to_bits());
                            (f.collect::<Vec<_>>(), c.frames.len(), c.frame_count())
                        };
                        let built = floats(&t, scale);
                        assert_eq!(bits(c.table(&keys)), bits(built.table()));
                        assert_eq!(s.finite, all_finite(c.table(&keys)), "{a} {b} {cy} {scale}");
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, values.len() * values.len() * 8);
    }

    #[test]
    fn bezier_table_matches_spine_cpp_layout() {
        let t = CurveTimeline {
            bezier_count: 1,
            frames: vec![
                CurveKey {
                    time: 0.0,
                    value: [0.0f32],
                    curve: CurveType::Bezier,
                    bezier: [[0.25, 0.0, 0.75, 10.0]],
                },
                CurveKey { curve: CurveType::Stepped, ..CurveKey::linear(1.0, [10.0]) },
                CurveKey::linear(2.0, [20.0]),
            ],
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
