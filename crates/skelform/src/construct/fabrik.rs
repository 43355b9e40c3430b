//! The IK chain solvers: FABRIK (one chain, or independent chains in SIMD lockstep) and arc.

use super::*;

/// Chains solved together by [`fabrik_lockstep`] (one group of structure-of-arrays lanes).
pub(crate) const LANES: usize = 8;

/// Scratch for [`fabrik_lockstep`]: chain positions by slot, one column per lane. Sized at
/// load (longest FABRIK chain), so solving never allocates.
#[derive(Debug, Clone, Default)]
pub(crate) struct FabrikScratch {
    x: Vec<f32x8>,
    y: Vec<f32x8>,
    /// Per slot: all-ones in the lanes that have a bone there.
    mask: Vec<f32x8>,
}

impl FabrikScratch {
    /// Scratch for chains of up to `slots` bones.
    pub(crate) fn new(slots: usize) -> Self {
        FabrikScratch {
            x: vec![f32x8::ZERO; slots],
            y: vec![f32x8::ZERO; slots],
            mask: vec![f32x8::ZERO; slots],
        }
    }
}

/// Ten FABRIK iterations of every FABRIK family, up to [`LANES`] families at once, step by
/// step in lockstep so the independent chains' sqrt/division latencies overlap (and the
/// lane loops vectorise). Per family the operations and their order are exactly those of
/// [`fabrik`] (IEEE sqrt and division give the same bits in any lane); only valid when the
/// families are independent (`Armature::ik_independent`).
pub(super) fn fabrik_lockstep(
    world: &mut [Transform],
    iks: &[IkFamily],
    ends: &[Option<(Vec2, Vec2)>],
    scratch: &mut FabrikScratch,
) {
    let mut group = [0u32; LANES];
    let mut n = 0;
    for (k, (fam, e)) in iks.iter().zip(ends).enumerate() {
        if fam.mode == IkMode::Fabrik && e.is_some() && !fam.sorted.is_empty() {
            if let Some(g) = group.get_mut(n) {
                *g = k as u32;
                n += 1;
            }
            if n == LANES {
                fabrik_group(world, iks, ends, &group, scratch);
                n = 0;
            }
        }
    }
    if let Some(g) = group.get(..n).filter(|g| !g.is_empty()) {
        fabrik_group(world, iks, ends, g, scratch);
    }
}

/// [`fabrik_lockstep`] for one group of at most [`LANES`] families. Lanes are ordered by
/// chain length, longest first, and chains are right-aligned in the slots (chain index j of
/// a chain of length len sits in slot j + slots − len), so the forward and backward passes
/// walk the slots in one order for every lane and the lanes active in slot t are a prefix.
fn fabrik_group(
    world: &mut [Transform],
    iks: &[IkFamily],
    ends: &[Option<(Vec2, Vec2)>],
    fams: &[u32],
    scratch: &mut FabrikScratch,
) {
    let mut order = [0u32; LANES];
    let lanes = fams.len().min(LANES);
    for (o, &f) in order.iter_mut().zip(fams) {
        *o = f;
    }
    let order = &mut order[..lanes];
    order.sort_unstable_by_key(|&f| std::cmp::Reverse(chain(iks, f).len()));
    let slots = order.first().map_or(0, |&f| chain(iks, f).len());
    let FabrikScratch { x, y, mask } = scratch;
    let (Some(xs), Some(ys), Some(masks)) =
        (x.get_mut(..slots), y.get_mut(..slots), mask.get_mut(..slots))
    else {
        // Longer than the scratch (not sized for this rig): lane by lane on the world.
        for &f in order.iter() {
            if let (Some(Some((root, target))), Some(fam)) =
                (ends.get(f as usize), iks.get(f as usize))
            {
                for _ in 0..10 {
                    fabrik(world, &fam.sorted, *root, *target);
                }
            }
        }
        return;
    };
    let [rx, ry, tx, ty] = load_lanes(world, iks, ends, order, slots, (xs, ys));
    let lane_ids = f32x8::new([0., 1., 2., 3., 4., 5., 6., 7.]);
    for (t, m) in masks.iter_mut().enumerate() {
        // masks[t]: the lanes with a bone in slot t, a prefix (lanes are longest first).
        let count = order.iter().filter(|&&f| chain(iks, f).len() + t >= slots).count();
        *m = lane_ids.cmp_lt(f32x8::splat(count as f32));
    }
    let (rx, ry, tx, ty) = (f32x8::new(rx), f32x8::new(ry), f32x8::new(tx), f32x8::new(ty));
    for _ in 0..10 {
        // Forward: from the target back to the root. A lane leaves the active prefix only
        // at its first slot and never comes back in this pass, so inactive lanes may compute
        // freely (their running values are never read, their slots never written back). The
        // length measured in a lane's first slot (j = 0) is never used.
        let (mut nx, mut ny, mut l) = (tx, ty, f32x8::ZERO);
        for t in (0..slots).rev() {
            let (lo_x, hi_x) = xs.split_at_mut(t);
            let (lo_y, hi_y) = ys.split_at_mut(t);
            let (Some(cx), Some(cy)) = (hi_x.first_mut(), hi_y.first_mut()) else { break };
            let (qx, qy) = match (lo_x.last(), lo_y.last()) {
                (Some(qx), Some(qy)) => (*qx, *qy),
                _ => (*cx, *cy),
            };
            let (px, py) = fabrik_step((nx, ny), (*cx, *cy), l);
            l = dist(*cx, *cy, qx, qy);
            (nx, ny, *cx, *cy) = (px, py, px, py);
        }
        // Backward: from the root out to the tip. Lanes join the active prefix at their
        // first slot, so until then their running values stay (root, 0).
        let (mut nx, mut ny, mut l) = (rx, ry, f32x8::ZERO);
        for t in 0..slots {
            let (lo_x, hi_x) = xs.split_at_mut(t + 1);
            let (lo_y, hi_y) = ys.split_at_mut(t + 1);
            let (Some(cx), Some(cy)) = (lo_x.last_mut(), lo_y.last_mut()) else { break };
            let (px, py) = fabrik_step((nx, ny), (*cx, *cy), l);
            let m = masks.get(t).copied().unwrap_or(f32x8::ZERO);
            if let (Some(qx), Some(qy)) = (hi_x.first(), hi_y.first()) {
                l = m.blend(dist(*cx, *cy, *qx, *qy), l);
            }
            (nx, ny) = (m.blend(px, nx), m.blend(py, ny));
            (*cx, *cy) = (px, py);
        }
    }
    store_lanes(world, iks, order, slots, (xs, ys));
}

/// The chain of family `f` (empty when out of range).
#[inline(always)]
fn chain(iks: &[IkFamily], f: u32) -> &[u32] {
    iks.get(f as usize).map_or(&[][..], |fam| fam.sorted.as_slice())
}

/// Loads each lane's chain positions into the right-aligned slots of `xs` / `ys` and
/// returns the lanes' roots and targets (x, y, x, y).
#[inline]
fn load_lanes(
    world: &[Transform],
    iks: &[IkFamily],
    ends: &[Option<(Vec2, Vec2)>],
    order: &[u32],
    slots: usize,
    (xs, ys): (&mut [f32x8], &mut [f32x8]),
) -> [[f32; LANES]; 4] {
    let (mut rx, mut ry, mut tx, mut ty) =
        ([0f32; LANES], [0f32; LANES], [0f32; LANES], [0f32; LANES]);
    for (lane, &f) in order.iter().enumerate() {
        let c = chain(iks, f);
        let p = slots - c.len();
        if let Some(Some((root, target))) = ends.get(f as usize) {
            (rx[lane], ry[lane], tx[lane], ty[lane]) = (root.x, root.y, target.x, target.y);
        }
        for (j, &b) in c.iter().enumerate() {
            let w = world.get(b as usize).map_or(Vec2::ZERO, |w| w.pos);
            if let (Some(x), Some(y)) = (xs.get_mut(p + j), ys.get_mut(p + j)) {
                x.as_array_mut()[lane] = w.x;
                y.as_array_mut()[lane] = w.y;
            }
        }
    }
    [rx, ry, tx, ty]
}

/// Writes each lane's solved positions from `xs` / `ys` back to the world.
#[inline]
fn store_lanes(
    world: &mut [Transform],
    iks: &[IkFamily],
    order: &[u32],
    slots: usize,
    (xs, ys): (&[f32x8], &[f32x8]),
) {
    for (lane, &f) in order.iter().enumerate() {
        let c = chain(iks, f);
        let p = slots - c.len();
        for (j, &b) in c.iter().enumerate() {
            if let (Some(w), Some(x), Some(y)) =
                (world.get_mut(b as usize), xs.get(p + j), ys.get(p + j))
            {
                w.pos = Vec2::new(x.as_array_ref()[lane], y.as_array_ref()[lane]);
            }
        }
    }
}

/// One FABRIK step in every lane: `n − normalize(n − c) · l`, with [`fabrik`]'s arithmetic
/// operation for operation (IEEE sqrt and division give the same bits in any lane).
#[inline(always)]
fn fabrik_step((nx, ny): (f32x8, f32x8), (cx, cy): (f32x8, f32x8), l: f32x8) -> (f32x8, f32x8) {
    let (vx, vy) = (nx - cx, ny - cy);
    let m = (vx * vx + vy * vy).sqrt();
    // 0 where m == 0 (as `normalize`), v / m elsewhere (NaN stays NaN).
    let nonzero = m.cmp_ne(f32x8::ZERO);
    let (ux, uy) = (nonzero & (vx / m), nonzero & (vy / m));
    (nx - ux * l, ny - uy * l)
}

/// `|c − q|` in every lane ([`magnitude`]'s arithmetic).
#[inline(always)]
fn dist(cx: f32x8, cy: f32x8, qx: f32x8, qy: f32x8) -> f32x8 {
    let (ex, ey) = (cx - qx, cy - qy);
    (ex * ex + ey * ey).sqrt()
}

/// FABRIK, one forward and one backward pass over the chain (bone-array order).
pub(super) fn fabrik(world: &mut [Transform], chain: &[u32], root: Vec2, target: Vec2) {
    let pos = |world: &[Transform], j: usize| {
        chain.get(j).and_then(|&b| world.get(b as usize)).map_or(Vec2::ZERO, |w| w.pos)
    };
    let n = chain.len();
    let mut next_pos = target;
    let mut next_len = 0.;
    for j in (0..n).rev() {
        let p = pos(world, j);
        let d = normalize(next_pos - p) * next_len;
        if j != 0 {
            next_len = magnitude(p - pos(world, j - 1));
        }
        let np = next_pos - d;
        if let Some(w) = chain.get(j).and_then(|&b| world.get_mut(b as usize)) {
            w.pos = np;
        }
        next_pos = np;
    }
    let mut prev_pos = root;
    let mut prev_len = 0.;
    for j in 0..n {
        let p = pos(world, j);
        let d = normalize(prev_pos - p) * prev_len;
        if j != n - 1 {
            prev_len = magnitude(p - pos(world, j + 1));
        }
        let np = prev_pos - d;
        if let Some(w) = chain.get(j).and_then(|&b| world.get_mut(b as usize)) {
            w.pos = np;
        }
        prev_pos = np;
    }
}

/// The reference's truncated π in the arc solver (kept to match it and the editor).
#[allow(clippy::approx_constant)]
const ARC_PI: f32 = 3.14;

/// The arc solver (absolute x and 3.14, as the reference and the editor).
#[allow(clippy::approx_constant)]
pub(super) fn arc(world: &mut [Transform], chain: &[u32], root: Vec2, target: Vec2) {
    let pos = |world: &[Transform], j: usize| {
        chain.get(j).and_then(|&b| world.get(b as usize)).map_or(Vec2::ZERO, |w| w.pos)
    };
    let n = chain.len();
    if n == 0 {
        return;
    }
    let max_len = magnitude(pos(world, n - 1) - root);
    let base = target - root;
    let base_angle = angle(base);
    let base_mag = magnitude(base).min(max_len);
    let peak = max_len / base_mag;
    let valley = base_mag / max_len;
    let mut prev_orig = pos(world, 0);
    let mut cur_len = 0.;
    for j in 1..n {
        let orig = pos(world, j);
        cur_len += magnitude(orig - prev_orig);
        prev_orig = orig;
        let dist = cur_len / max_len;
        let p = Vec2::new(orig.x * valley, root.y + (1. - peak) * (dist * ARC_PI).sin() * base_mag);
        let p = rotate(p - root, base_angle) + root;
        if let Some(w) = chain.get(j).and_then(|&b| world.get_mut(b as usize)) {
            w.pos = p;
        }
    }
}
