//! The path's world vertices and the positions along it (spine-cpp
//! `computeWorldPositions`, `addBeforePosition` / `addAfterPosition` / `addCurvePosition`).

use super::*;

/// spine-cpp `VertexAttachment::computeWorldVertices(slot, start, count, out, offset, 2)`:
/// `count` floats of world positions of the vertices starting at float `start`, written at
/// `out[offset..]`.
pub(super) fn world_vertices(
    vertices: &Vertices,
    slot: &Slot,
    bones: &[Bone],
    start: usize,
    count: usize,
    out: &mut [f32],
    offset: usize,
) {
    let end = (offset + (count >> 1) * 2).min(out.len() & !1);
    let deform = &slot.deform;
    match vertices {
        Vertices::Unweighted(setup) => {
            let verts: &[f32] = if deform.is_empty() { setup } else { deform };
            let Some(bone) = bones.get(slot.bone.index()) else { return };
            let (x, y, a, b, c, d) = (bone.world_x, bone.world_y, bone.a, bone.b, bone.c, bone.d);
            let (mut vv, mut w) = (start, offset);
            while w < end {
                let vx = verts.get(vv).copied().unwrap_or(0.0);
                let vy = verts.get(vv + 1).copied().unwrap_or(0.0);
                out[w] = vx * a + vy * b + x;
                out[w + 1] = vx * c + vy * d + y;
                vv += 2;
                w += 2;
            }
        }
        Vertices::Weighted(wv) => {
            let first = start / 2;
            let inf: usize = wv.counts().iter().take(first).map(|&n| n as usize).sum::<usize>();
            let out = out.get_mut(offset.min(end)..end).unwrap_or_default();
            let mut counts = wv.counts().get(first..).unwrap_or_default().iter();
            // The influences from `inf` on, one `(bone, [x, y, weight], deform index)` per step.
            let ids = wv.bones().get(inf..).unwrap_or_default();
            let vals = wv.values().get(inf * 3..).unwrap_or_default();
            let mut infs = ids.iter().zip(vals.chunks_exact(3));
            let mut d = inf * 2;
            for o in out.chunks_exact_mut(2) {
                let n = counts.next().copied().unwrap_or(0);
                let (mut wx, mut wy) = (0.0f32, 0.0f32);
                for _ in 0..n {
                    let Some((id, v)) = infs.next() else { break };
                    if let Some(bone) = bones.get(id.index()) {
                        let (mut vx, mut vy) = (v[0], v[1]);
                        if !deform.is_empty() {
                            vx += deform.get(d).copied().unwrap_or(0.0);
                            vy += deform.get(d + 1).copied().unwrap_or(0.0);
                        }
                        let weight = v[2];
                        wx += (vx * bone.a + vy * bone.b + bone.world_x) * weight;
                        wy += (vx * bone.c + vy * bone.d + bone.world_y) * weight;
                    }
                    d += 2;
                }
                o[0] = wx;
                o[1] = wy;
            }
        }
    }
}

/// Index of the curve containing `p` and `p` normalised within it (spine-cpp's "Determine
/// curve containing position" loop, starting at `curve`).
pub(super) fn locate(lengths: &[f32], mut curve: usize, p: f32) -> (usize, f32) {
    loop {
        let Some(&length) = lengths.get(curve) else {
            // Not reached for valid data (p <= the path length); stay on the last curve.
            return (lengths.len().saturating_sub(1), 1.0);
        };
        if p > length {
            curve += 1;
            continue;
        }
        let p = if curve == 0 {
            p / length
        } else {
            let prev = lengths[curve - 1];
            (p - prev) / (length - prev)
        };
        return (curve, p);
    }
}

/// Which runtime's `addCurvePosition` rules apply (see `Behaviour::path_scales_every_spacing`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CurveRule {
    /// spine-cpp 4.x: `p < EPSILON` (or NaN) gives the start point and the control tangent,
    /// `p < 0.001` the control tangent; a space below `EPSILON` takes the tangent.
    Spine4,
    /// spine-c 3.6: `p == 0` or NaN becomes `0.0001`; a space of exactly 0 takes the tangent.
    SpineC36,
    /// spine-c 3.5.51: as 3.6, but a NaN `p` stays NaN.
    SpineC35,
    /// spine-ts 4.3: `p == 0` (or NaN) gives the start point and the control tangent, `p <
    /// 0.001` the control tangent; a space of exactly 0 takes the tangent.
    SpineTs43,
}

impl CurveRule {
    /// Whether the space before a position is "zero" (the position takes the curve tangent).
    pub(super) fn zero_space(self, space: f32) -> bool {
        match self {
            CurveRule::Spine4 => space < EPSILON,
            CurveRule::SpineC36 | CurveRule::SpineC35 | CurveRule::SpineTs43 => space == 0.0,
        }
    }
}

/// What [`compute_world_positions`] reads: the path, where it is, and how to walk it.
pub(super) struct PathWalk<'a> {
    /// The path attachment.
    pub(super) path: &'a PathAttachment,
    /// Its slot (bone and deform).
    pub(super) slot: &'a Slot,
    /// The skeleton's bones (world transforms).
    pub(super) bones: &'a [Bone],
    /// The constraint (position and spacing modes).
    pub(super) data: &'a PathData,
    /// Positions to compute, one per space.
    pub(super) spaces_count: usize,
    /// Every position takes the curve tangent.
    pub(super) tangents: bool,
    /// The runtime's curve rules.
    pub(super) rule: CurveRule,
}

impl PathWalk<'_> {
    /// The multiplier of the spaces for a path of `path_length`.
    #[inline]
    fn multiplier(&self, path_length: f32) -> f32 {
        match self.data.spacing_mode {
            SpacingMode::Percent => path_length,
            SpacingMode::Proportional => path_length / self.spaces_count as f32,
            SpacingMode::Length | SpacingMode::Fixed => 1.0,
        }
    }

    /// `count` floats of the path's world vertices from float `start`, at `world[offset..]`.
    #[inline]
    fn vertices(&self, start: usize, count: usize, world: &mut [f32], offset: usize) {
        world_vertices(&self.path.vertices, self.slot, self.bones, start, count, world, offset)
    }

    /// Whether position `i`, `space` after the previous one, takes the curve tangent.
    #[inline]
    fn tangent_at(&self, i: usize, space: f32) -> bool {
        self.tangents || (i > 0 && self.rule.zero_space(space))
    }
}

/// spine-cpp 4.2 `PathConstraint::computeWorldPositions` (spine-c 3.5/3.6 with `rule`):
/// fills `sc.positions` with `x, y, rotation` for each of the `spaces_count` spaces (plus
/// two scratch floats), from the stored curve lengths or (constant speed) lengths measured
/// on the world vertices.
pub(super) fn compute_world_positions(walk: &PathWalk<'_>, position: f32, sc: &mut PathScratch) {
    // `x, y, rotation` per space, plus scratch floats so that every bone has a whole
    // triple after the first position (`update` walks them in chunks of 3).
    set_len(&mut sc.positions, walk.spaces_count * 3 + 3);
    if walk.path.constant_speed {
        constant_speed_positions(walk, position, sc);
    } else {
        stored_length_positions(walk, position, sc);
    }
}

/// The positions along a path of stored curve lengths (not constant speed): the world
/// vertices of each curve are computed when a position first lands on it.
fn stored_length_positions(walk: &PathWalk<'_>, mut position: f32, sc: &mut PathScratch) {
    let (out, world) = (&mut sc.positions, &mut sc.world);
    let closed = walk.path.closed;
    let vertices_length = walk.path.vertices.vertex_count() * 2;
    let lengths = &walk.path.lengths;
    let curve_count = (vertices_length / 6).saturating_sub(if closed { 1 } else { 2 });
    let Some(&path_length) = lengths.get(curve_count) else { return };
    if walk.data.position_mode == PositionMode::Percent {
        position *= path_length;
    }
    let multiplier = walk.multiplier(path_length);
    set_len(world, 8);
    let (mut curve, mut prev_curve) = (0usize, NONE);
    let mut last_p = f32::NAN;
    for i in 0..walk.spaces_count {
        let o = i * 3;
        let space = sc.spaces[i] * multiplier;
        position += space;
        let mut p = position;
        if closed {
            p = wrap(p, path_length);
            curve = closed_start(curve, p, &mut last_p);
        } else if p < 0.0 {
            if prev_curve != BEFORE {
                prev_curve = BEFORE;
                walk.vertices(2, 4, world, 0);
            }
            add_before_position(p, world, 0, out, o);
            continue;
        } else if p > path_length {
            if prev_curve != AFTER {
                prev_curve = AFTER;
                walk.vertices(vertices_length.saturating_sub(6), 4, world, 0);
            }
            add_after_position(p - path_length, world, 0, out, o);
            continue;
        }
        (curve, p) = locate(lengths, curve, p);
        if curve as i32 != prev_curve {
            prev_curve = curve as i32;
            if closed && curve == curve_count {
                walk.vertices(vertices_length - 4, 4, world, 0);
                walk.vertices(0, 4, world, 4);
            } else {
                walk.vertices(curve * 6 + 2, 8, world, 0);
            }
        }
        let w = [world[0], world[1], world[2], world[3], world[4], world[5], world[6], world[7]];
        let tangent = walk.tangent_at(i, space);
        add_curve_position(p, w, out, o, tangent, walk.tangents || i > 0, walk.rule);
    }
}

/// The positions along a constant-speed path: every curve's length measured on the world
/// vertices (4 forward-difference steps), and within a curve 10 segments.
fn constant_speed_positions(walk: &PathWalk<'_>, mut position: f32, sc: &mut PathScratch) {
    let Some((curve_count, vertices_length)) = path_world_vertices(walk, &mut sc.world) else {
        return;
    };
    let path_length = curve_lengths(&sc.world, curve_count, &mut sc.curves);
    if walk.data.position_mode == PositionMode::Percent {
        position *= path_length;
    }
    let along = Along { position, multiplier: walk.multiplier(path_length), path_length };
    // Positions far apart (three segments or more a position, on average) skip several
    // segments each, by counts a loop's exit branch mispredicts: they take the mask (see
    // `Segments::locate`). One loop per search, chosen once.
    if curve_count.saturating_mul(10) >= walk.spaces_count.saturating_mul(3) {
        positions_on_curves::<true>(walk, along, vertices_length, sc);
    } else {
        positions_on_curves::<false>(walk, along, vertices_length, sc);
    }
}

/// Where the positions of a constant-speed path start and how far apart they are.
#[derive(Clone, Copy)]
struct Along {
    /// The first position (before the first space is added).
    position: f32,
    /// The spaces' multiplier.
    multiplier: f32,
    /// The path's length.
    path_length: f32,
}

/// The loop of [`constant_speed_positions`] over the spaces, each position's segment found by
/// [`Segments::locate`] (`SPARSE`: by the mask).
fn positions_on_curves<const SPARSE: bool>(
    walk: &PathWalk<'_>,
    along: Along,
    vertices_length: usize,
    sc: &mut PathScratch,
) {
    let Along { mut position, multiplier, path_length } = along;
    let (out, world) = (&mut sc.positions, &sc.world);
    let mut segments = Segments::default();
    let (mut curve, mut prev_curve) = (0usize, NONE);
    let mut last_p = f32::NAN;
    for i in 0..walk.spaces_count {
        let o = i * 3;
        let space = sc.spaces[i] * multiplier;
        position += space;
        let mut p = position;
        if walk.path.closed {
            p = wrap(p, path_length);
            curve = closed_start(curve, p, &mut last_p);
        } else if p < 0.0 {
            add_before_position(p, world, 0, out, o);
            continue;
        } else if p > path_length {
            add_after_position(p - path_length, world, vertices_length - 4, out, o);
            continue;
        }
        (curve, p) = locate(&sc.curves, curve, p);
        if curve as i32 != prev_curve {
            prev_curve = curve as i32;
            let ii = curve * 6;
            let Some(wv) = world.get(ii..ii + 8) else { continue };
            segments.measure([wv[0], wv[1], wv[2], wv[3], wv[4], wv[5], wv[6], wv[7]]);
        }
        let p = segments.locate::<SPARSE>(p);
        let tangent = walk.tangent_at(i, space);
        add_curve_position(
            p * 0.1,
            segments.curve,
            out,
            o,
            tangent,
            walk.tangents || i > 0,
            walk.rule,
        );
    }
}

/// The world vertices of a constant-speed path into `world` (a closed path repeats its first
/// point at the end): `(curve count, vertices length)`, or `None` for a path without a point.
fn path_world_vertices(walk: &PathWalk<'_>, world: &mut Vec<f32>) -> Option<(usize, usize)> {
    let mut vertices_length = walk.path.vertices.vertex_count() * 2;
    let mut curve_count = vertices_length / 6;
    if walk.path.closed {
        vertices_length += 2;
        set_len(world, vertices_length);
        walk.vertices(2, vertices_length - 4, world, 0);
        walk.vertices(0, 2, world, vertices_length - 4);
        world[vertices_length - 2] = world[0];
        world[vertices_length - 1] = world[1];
    } else {
        curve_count = curve_count.saturating_sub(1);
        vertices_length = vertices_length.saturating_sub(4);
        set_len(world, vertices_length);
        walk.vertices(2, vertices_length, world, 0);
    }
    (world.len() >= 2).then_some((curve_count, vertices_length))
}

/// The cumulative lengths of the path's curves (4 forward-difference steps each) into
/// `curves`; returns the path's length.
fn curve_lengths(world: &[f32], curve_count: usize, curves: &mut Vec<f32>) -> f32 {
    set_len(curves, curve_count);
    let mut path_length = 0.0f32;
    let (mut x1, mut y1) = (world[0], world[1]);
    let mut w = 2usize;
    for length in curves.iter_mut() {
        if w + 5 >= world.len() {
            break;
        }
        let [cx1, cy1, cx2, cy2, x2, y2] =
            [world[w], world[w + 1], world[w + 2], world[w + 3], world[w + 4], world[w + 5]];
        let tmpx = (x1 - cx1 * 2.0 + cx2) * 0.1875;
        let tmpy = (y1 - cy1 * 2.0 + cy2) * 0.1875;
        let dddfx = ((cx1 - cx2) * 3.0 - x1 + x2) * 0.09375;
        let dddfy = ((cy1 - cy2) * 3.0 - y1 + y2) * 0.09375;
        let mut ddfx = tmpx * 2.0 + dddfx;
        let mut ddfy = tmpy * 2.0 + dddfy;
        let mut dfx = (cx1 - x1) * 0.75 + tmpx + dddfx * 0.16666667;
        let mut dfy = (cy1 - y1) * 0.75 + tmpy + dddfy * 0.16666667;
        path_length += math::sqrt(dfx * dfx + dfy * dfy);
        dfx += ddfx;
        dfy += ddfy;
        ddfx += dddfx;
        ddfy += dddfy;
        path_length += math::sqrt(dfx * dfx + dfy * dfy);
        dfx += ddfx;
        dfy += ddfy;
        path_length += math::sqrt(dfx * dfx + dfy * dfy);
        dfx += ddfx + dddfx;
        dfy += ddfy + dddfy;
        path_length += math::sqrt(dfx * dfx + dfy * dfy);
        *length = path_length;
        x1 = x2;
        y1 = y2;
        w += 6;
    }
    path_length
}

/// The current curve of a constant-speed path and the cumulative lengths of its 10 segments.
#[derive(Default)]
struct Segments {
    /// `x1, y1, cx1, cy1, cx2, cy2, x2, y2`.
    curve: [f32; 8],
    /// Cumulative segment lengths.
    lengths: [f32; 10],
    /// The segment the last position landed in (the search goes on from there).
    segment: usize,
}

impl Segments {
    /// Takes `curve` as the current curve and measures its segments.
    #[inline(always)]
    fn measure(&mut self, curve: [f32; 8]) {
        self.curve = curve;
        let [x1, y1, cx1, cy1, cx2, cy2, x2, y2] = curve;
        let tmpx = (x1 - cx1 * 2.0 + cx2) * 0.03;
        let tmpy = (y1 - cy1 * 2.0 + cy2) * 0.03;
        let dddfx = ((cx1 - cx2) * 3.0 - x1 + x2) * 0.006;
        let dddfy = ((cy1 - cy2) * 3.0 - y1 + y2) * 0.006;
        let mut ddfx = tmpx * 2.0 + dddfx;
        let mut ddfy = tmpy * 2.0 + dddfy;
        let mut dfx = (cx1 - x1) * 0.3 + tmpx + dddfx * 0.16666667;
        let mut dfy = (cy1 - y1) * 0.3 + tmpy + dddfy * 0.16666667;
        let mut curve_length = math::sqrt(dfx * dfx + dfy * dfy);
        self.lengths[0] = curve_length;
        for s in self.lengths.iter_mut().take(8).skip(1) {
            dfx += ddfx;
            dfy += ddfy;
            ddfx += dddfx;
            ddfy += dddfy;
            curve_length += math::sqrt(dfx * dfx + dfy * dfy);
            *s = curve_length;
        }
        dfx += ddfx;
        dfy += ddfy;
        curve_length += math::sqrt(dfx * dfx + dfy * dfy);
        self.lengths[8] = curve_length;
        dfx += ddfx + dddfx;
        dfy += ddfy + dddfy;
        curve_length += math::sqrt(dfx * dfx + dfy * dfy);
        self.lengths[9] = curve_length;
        self.segment = 0;
    }

    /// Position `p` (0..1 along the curve) weighted by segment length: 0..10, the segment
    /// index plus the fraction within it.
    ///
    /// spine-cpp steps from the last segment while `p` is above a segment's length. Where
    /// positions are far apart (`SPARSE`) the step count varies from one position to the
    /// next and the loop's exit mispredicts: the ten comparisons are one mask instead, whose
    /// run of ones from the last segment is the step count (the same segment for any
    /// lengths, NaN included). Close positions (zero to two steps) step: there the mask's
    /// ten comparisons cost more (the mask for every path: tank −3 %, mix-and-match +6 % a
    /// frame).
    #[inline]
    fn locate<const SPARSE: bool>(&mut self, p: f32) -> f32 {
        let p = p * self.lengths[9];
        let here = self.segment;
        let segment = if SPARSE {
            let mut above = 0u32;
            for (k, &length) in self.lengths.iter().enumerate() {
                above |= u32::from(p > length) << k;
            }
            // Bits past the tenth are 0 in `above`, so the run ends by the tenth segment.
            here + (!(above >> here)).trailing_zeros() as usize
        } else {
            let mut s = here;
            while self.lengths.get(s).is_some_and(|&l| p > l) {
                s += 1;
            }
            s
        };
        let Some(&length) = self.lengths.get(segment) else {
            // Not reached for valid data (`p <= curve_length`): the end of the curve.
            self.segment = 9;
            return 10.0;
        };
        self.segment = segment;
        if segment == 0 {
            p / length
        } else {
            let prev = self.lengths[segment - 1];
            segment as f32 + (p - prev) / (length - prev)
        }
    }
}

/// Where the curve search of a closed path starts. spine-cpp scans from curve 0 for every
/// position; the scan for the previous position `last_p` passed only lengths below it, so
/// for `p >= last_p` the scan from 0 passes them too and reaches the previous `curve`
/// (the same result for any lengths, NaN included: a NaN length stops every scan).
#[inline]
pub(super) fn closed_start(curve: usize, p: f32, last_p: &mut f32) -> usize {
    let start = if p >= *last_p { curve } else { 0 };
    *last_p = p;
    start
}

/// spine-cpp's `if (r > PI) r -= PI_2; else if (r < -PI) r += PI_2;`.
#[inline]
pub(super) fn wrap_pi(r: f32) -> f32 {
    if r > PI {
        r - PI * 2.0
    } else if r < -PI {
        r + PI * 2.0
    } else {
        r
    }
}

/// `fmod(p, length)`, plus `length` when negative (spine-cpp's closed-path wrap). The
/// common cases skip the division: `fmod` is exact, and so are `p - length` for
/// `length <= p < 2 length` and `p + length` for `-2 length < p < -length` (Sterbenz).
#[inline]
pub(super) fn wrap(p: f32, length: f32) -> f32 {
    let r = if p.abs() < length {
        p
    } else if p >= length && p < length + length {
        p - length
    } else if p < -length && p > -(length + length) {
        p + length
    } else {
        math::fmod(p, length)
    };
    if r < 0.0 {
        r + length
    } else {
        r
    }
}

pub(super) fn add_before_position(p: f32, temp: &[f32], i: usize, out: &mut [f32], o: usize) {
    let Some(t) = temp.get(i..i + 4) else { return };
    let (x1, y1) = (t[0], t[1]);
    let r = math::atan2(t[3] - y1, t[2] - x1);
    let (sin, cos) = math::sin_cos(r);
    out[o] = x1 + p * cos;
    out[o + 1] = y1 + p * sin;
    out[o + 2] = r;
}

pub(super) fn add_after_position(p: f32, temp: &[f32], i: usize, out: &mut [f32], o: usize) {
    let Some(t) = temp.get(i..i + 4) else { return };
    let (x1, y1) = (t[2], t[3]);
    let r = math::atan2(y1 - t[1], x1 - t[0]);
    let (sin, cos) = math::sin_cos(r);
    out[o] = x1 + p * cos;
    out[o + 1] = y1 + p * sin;
    out[o + 2] = r;
}

/// spine-cpp `addCurvePosition`: the point at `p` in `[0, 1]` of the cubic bezier `w`
/// (`x1, y1, cx1, cy1, cx2, cy2, x2, y2`) and, with `tangents`, its tangent angle
/// (spine-c 3.5/3.6 `_addCurvePosition` with `rule`).
///
/// `start_rotation` false: nothing reads this position's rotation (the first position
/// without tangents: the bone loop reads the rotations of spaces `1..`), so the start
/// point's control tangent (`p < EPSILON`, always written by spine-cpp) is not computed.
#[inline(always)]
pub(super) fn add_curve_position(
    mut p: f32,
    w: [f32; 8],
    out: &mut [f32],
    o: usize,
    tangents: bool,
    start_rotation: bool,
    rule: CurveRule,
) {
    let [x1, y1, cx1, cy1, cx2, cy2, x2, y2] = w;
    match rule {
        CurveRule::Spine4 => {
            if p < EPSILON || p.is_nan() {
                out[o] = x1;
                out[o + 1] = y1;
                if start_rotation {
                    out[o + 2] = math::atan2(cy1 - y1, cx1 - x1);
                }
                return;
            }
        }
        CurveRule::SpineTs43 => {
            if p == 0.0 || p.is_nan() {
                out[o] = x1;
                out[o + 1] = y1;
                if start_rotation {
                    out[o + 2] = math::atan2(cy1 - y1, cx1 - x1);
                }
                return;
            }
        }
        CurveRule::SpineC36 if p == 0.0 || p.is_nan() => p = 0.0001,
        CurveRule::SpineC35 if p == 0.0 => p = 0.0001,
        CurveRule::SpineC36 | CurveRule::SpineC35 => {}
    }
    let (tt, u) = (p * p, 1.0 - p);
    let (ttt, uu) = (tt * p, u * u);
    let uuu = uu * u;
    let ut = u * p;
    let ut3 = ut * 3.0;
    let (uut3, utt3) = (u * ut3, ut3 * p);
    let x = x1 * uuu + cx1 * uut3 + cx2 * utt3 + x2 * ttt;
    let y = y1 * uuu + cy1 * uut3 + cy2 * utt3 + y2 * ttt;
    out[o] = x;
    out[o + 1] = y;
    if tangents {
        let control = matches!(rule, CurveRule::Spine4 | CurveRule::SpineTs43);
        out[o + 2] = if control && f64::from(p) < 0.001 {
            math::atan2(cy1 - y1, cx1 - x1)
        } else {
            math::atan2(
                y - (y1 * uu + cy1 * ut * 2.0 + cy2 * tt),
                x - (x1 * uu + cx1 * ut * 2.0 + cx2 * tt),
            )
        };
    }
}

#[cfg(test)]
mod tests {
    use super::Segments;

    /// spine-cpp's segment loop, as [`Segments::locate`] replaced it.
    fn stepped(lengths: &[f32; 10], segment: &mut usize, p: f32) -> f32 {
        let mut p = p * lengths[9];
        loop {
            let Some(&length) = lengths.get(*segment) else {
                *segment = 9;
                return 10.0;
            };
            if p > length {
                *segment += 1;
                continue;
            }
            if *segment == 0 {
                p /= length;
            } else {
                let prev = lengths[*segment - 1];
                p = *segment as f32 + (p - prev) / (length - prev);
            }
            return p;
        }
    }

    /// Both searches give the loop's segment and value bit for bit: growing lengths,
    /// repeated ones, unsorted ones, NaNs and infinities among them, positions from every
    /// starting segment.
    #[test]
    fn segment_mask_equals_the_loop() {
        let mut rng = crate::test_rng::Rng(0x9e37_79b9_7f4a_7c15);
        let mut checked = 0;
        for case in 0..4000 {
            let mut lengths = [0.0f32; 10];
            let mut sum = 0.0;
            for l in &mut lengths {
                sum += match case % 4 {
                    0 => rng.range(0.0, 5.0),
                    1 => [0.0, 1.0][(rng.bits() & 1) as usize],
                    _ => rng.range(-2.0, 5.0),
                };
                *l = sum;
            }
            if case % 4 == 3 {
                let k = (rng.bits() % 10) as usize;
                lengths[k] = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY][case % 3];
            }
            for start in 0..10 {
                for p in [rng.range(-0.2, 1.2), 0.0, 1.0, f32::NAN, rng.range(0.0, 1.0)] {
                    let mut want_segment = start;
                    let want = stepped(&lengths, &mut want_segment, p);
                    for sparse in [false, true] {
                        let mut seg = Segments { lengths, segment: start, curve: [0.0; 8] };
                        let got =
                            if sparse { seg.locate::<true>(p) } else { seg.locate::<false>(p) };
                        assert_eq!(got.to_bits(), want.to_bits(), "{lengths:?} {start} {p}");
                        assert_eq!(seg.segment, want_segment, "{lengths:?} {start} {p}");
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 400_000);
    }
}
