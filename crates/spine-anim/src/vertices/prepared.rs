//! Weighted mesh influences laid out once for drawing (see [`PreparedWeights`]).

use spine_model::WeightedVertices;
use wide::f32x4;

use super::{influence_lanes, BoneMatrix, SMALL_BONES};

/// One influence laid out for [`weighted_world_prepared`]: the bind position as
/// `[vx, vx, vy, vy]` (the lanes multiplied by a [`BoneMatrix`]'s `[a, c, b, d]`), then the
/// weight twice and, in the two lanes the result does not use, the vertex it moves and the
/// bone, each as the bits of a float in [1, 2) (see [`lane_of`], no subnormal): the second
/// half is the multiplier, one aligned 16-byte operand; the two lanes the ids scale are
/// never read. One 32-byte record.
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, align(16))]
struct Influence {
    position: [f32; 4],
    weight: [f32; 4],
}

/// The exponent bits of 1.0: a value below 2²³ in the mantissa gives a float in [1, 2).
const ONE_BITS: u32 = 0x3F80_0000;

/// `v` (below 2²³) as the bits of a float in [1, 2).
fn lane_of(v: u32) -> f32 {
    f32::from_bits(ONE_BITS | (v & 0x7F_FFFF))
}

impl Influence {
    /// The bone (a `u8`: the low byte of the last lane).
    #[inline(always)]
    fn bone(&self) -> u8 {
        self.weight[3].to_bits() as u8
    }

    /// The vertex this influence moves.
    #[inline(always)]
    fn vertex(&self) -> u32 {
        self.weight[2].to_bits() & 0x7F_FFFF
    }
}

/// Where a vertex writes, and its first influence in the source order (for deform offsets).
/// The grouped loops read the destination from the vertex's first record instead; the
/// vertices past the groups read it here (one with no influence has no record).
#[derive(Debug, Clone, Copy, Default)]
struct Target {
    vertex: u32,
    first: u32,
}

/// Vertices with this many influences or fewer are drawn by a loop made for their count.
const GROUPS: usize = 4;

/// A weighted mesh's influences prepared once (per skeleton data, by the renderer) for
/// meshes whose bones are among a skeleton's first [`SMALL_BONES`]. The vertices are grouped
/// by their number of influences (1, 2, 3, 4, then the others), so each group is drawn by a
/// loop without a per-vertex count, and an influence is one record read plus a table lookup without a
/// bounds check. Each vertex still sums its own influences in their order: the bits are
/// those of the other paths. Unusable (the other paths draw) when a bone index does not fit
/// in a `u8` or the weights are inconsistent.
#[derive(Debug, Clone, Default)]
pub(crate) struct PreparedWeights {
    /// The records, group after group, each vertex's together and in order.
    influences: Vec<Influence>,
    /// Each vertex's target, in the order of `influences`.
    targets: Vec<Target>,
    /// Vertices in the groups of 1 to [`GROUPS`] influences (the rest follow).
    group_len: [u32; GROUPS],
    /// The influence counts of the vertices after the groups.
    other_counts: Vec<u32>,
    /// The bones the influences use, each once, in increasing order.
    used: Vec<u8>,
    /// One more than the highest bone index: the bones a skeleton must have
    /// (`usize::MAX` when unusable).
    pub(super) bone_count: usize,
}

impl PreparedWeights {
    /// The bones the influences use, each once.
    pub(super) fn used(&self) -> &[u8] {
        &self.used
    }

    /// The records of `w`'s influences.
    pub(crate) fn new(w: &WeightedVertices) -> PreparedWeights {
        let unusable = PreparedWeights { bone_count: usize::MAX, ..PreparedWeights::default() };
        let total: u64 = w.counts().iter().map(|&n| u64::from(n)).sum();
        let values = w.values().as_chunks::<3>().0;
        if total != w.influence_count() as u64
            || values.len() != w.influence_count()
            || u32::try_from(w.influence_count()).is_err()
            || w.vertex_count() >= 1 << 23
        {
            return unusable;
        }
        let mut records = Vec::with_capacity(w.influence_count());
        let mut bone_count = 0;
        for (id, v) in w.bones().iter().zip(values) {
            let Ok(bone) = u8::try_from(id.index()) else { return unusable };
            bone_count = bone_count.max(usize::from(bone) + 1);
            records.push(Influence {
                position: [v[0], v[0], v[1], v[1]],
                weight: [v[2], v[2], lane_of(0), lane_of(u32::from(bone))],
            });
        }
        // Each vertex's first influence.
        let firsts: Vec<u32> = w
            .counts()
            .iter()
            .scan(0u32, |at, &n| {
                let first = *at;
                *at += n;
                Some(first)
            })
            .collect();
        let mut used: Vec<u8> = records.iter().map(Influence::bone).collect();
        used.sort_unstable();
        used.dedup();
        let mut prepared = PreparedWeights {
            used,
            influences: Vec::with_capacity(records.len()),
            targets: Vec::with_capacity(w.vertex_count()),
            bone_count,
            ..PreparedWeights::default()
        };
        let is_other = |n: u32| n == 0 || n as usize > GROUPS;
        for (k, len) in (1..).zip(prepared.group_len.iter_mut()) {
            *len = w.counts().iter().filter(|&&n| n == k).count() as u32;
        }
        let order = (1..=GROUPS as u32)
            .flat_map(|k| w.counts().iter().enumerate().filter(move |&(_, &n)| n == k))
            .chain(w.counts().iter().enumerate().filter(|&(_, &n)| is_other(n)));
        for (vertex, &n) in order {
            let first = firsts.get(vertex).copied().unwrap_or(0);
            let Some(r) = records.get(first as usize..(first + n) as usize) else {
                return unusable;
            };
            let at = prepared.influences.len();
            prepared.influences.extend_from_slice(r);
            for r in prepared.influences.get_mut(at..).into_iter().flatten() {
                r.weight[2] = lane_of(vertex as u32);
            }
            prepared.targets.push(Target { vertex: vertex as u32, first });
            if is_other(n) {
                prepared.other_counts.push(n);
            }
        }
        prepared
    }
}

/// The world position of one vertex from its influences `r` (`moved`: their deform
/// offsets, or none): spine-cpp's sum, lanes 0 and 1 (see [`super::influence`]).
#[inline(always)]
fn vertex(
    r: &[Influence],
    moved: Option<&[[f32; 2]]>,
    mats: &[BoneMatrix; SMALL_BONES],
) -> [f32; 2] {
    let mut acc = f32x4::ZERO;
    for (i, r) in r.iter().enumerate() {
        let bm = &mats[usize::from(r.bone())];
        let mut position = f32x4::from(r.position);
        if let Some(o) = moved.and_then(|m| m.get(i)) {
            position += f32x4::from([o[0], o[0], o[1], o[1]]);
        }
        acc += influence_lanes(bm, position, f32x4::from(r.weight));
    }
    let [x, y, _, _] = acc.to_array();
    [x, y]
}

/// One group of vertices with `K` influences each: `None` when a target or a deform offset
/// is out of range.
#[inline(always)]
fn group<const K: usize>(
    records: &[Influence],
    targets: &[Target],
    deform: &[[f32; 2]],
    mats: &[BoneMatrix; SMALL_BONES],
    dst: &mut [[f32; 2]],
) -> Option<()> {
    let records = records.as_chunks::<K>().0;
    if deform.is_empty() {
        for r in records {
            let at = r.first()?.vertex() as usize;
            *dst.get_mut(at)? = vertex(r, None, mats);
        }
    } else {
        for (r, t) in records.iter().zip(targets) {
            let moved = deform.get(t.first as usize..)?.first_chunk::<K>()?;
            let at = r.first()?.vertex() as usize;
            *dst.get_mut(at)? = vertex(r, Some(moved), mats);
        }
    }
    Some(())
}

/// The groups of 1 to [`GROUPS`] influences of `prepared`, cutting their records (and,
/// with `TARGETS`, their targets) off the front of `records` (and `targets`).
#[inline(always)]
fn groups<const TARGETS: bool>(
    prepared: &PreparedWeights,
    mut cut: (&mut &[Influence], &mut &[Target]),
    deform: &[[f32; 2]],
    mats: &[BoneMatrix; SMALL_BONES],
    dst: &mut [[f32; 2]],
) -> Option<()> {
    let [n1, n2, n3, n4] = prepared.group_len.map(|n| n as usize);
    cut_group::<1, TARGETS>(&mut cut, n1, deform, mats, dst)?;
    cut_group::<2, TARGETS>(&mut cut, n2, deform, mats, dst)?;
    cut_group::<3, TARGETS>(&mut cut, n3, deform, mats, dst)?;
    cut_group::<4, TARGETS>(&mut cut, n4, deform, mats, dst)
}

/// The group of `n` vertices of `K` influences at the front of `records` (and `targets`),
/// cut off.
#[inline(always)]
fn cut_group<const K: usize, const TARGETS: bool>(
    (records, targets): &mut (&mut &[Influence], &mut &[Target]),
    n: usize,
    deform: &[[f32; 2]],
    mats: &[BoneMatrix; SMALL_BONES],
    dst: &mut [[f32; 2]],
) -> Option<()> {
    if n == 0 {
        return Some(());
    }
    let (r, rest) = records.split_at_checked(K * n)?;
    **records = rest;
    let t = if TARGETS {
        let (t, rest) = targets.split_at_checked(n)?;
        **targets = rest;
        t
    } else {
        &[]
    };
    group::<K>(r, t, deform, mats, dst)
}

impl PreparedWeights {
    /// Whether these records can draw `w` (they were made from it) with `deform` on a
    /// skeleton of `bone_count` bones: usable, every bone of theirs below `bone_count`, and
    /// `deform` empty or an offset pair for every influence (a shorter one, even a single
    /// float, is left to the lenient path, which reads what there is).
    pub(super) fn serves(&self, w: &WeightedVertices, deform: &[f32], bone_count: usize) -> bool {
        self.bone_count <= bone_count
            && self.influences.len() == w.influence_count()
            && self.targets.len() == w.vertex_count()
            && (deform.is_empty() || deform.len() / 2 >= self.influences.len())
    }
}

/// The world vertices of the weighted vertices `prepared` was made from, with the packed
/// bones `mats` (holding at least the bones `prepared` uses) and `deform`, for a caller that
/// has checked `prepared` [serves](PreparedWeights::serves) them: `None` when a target or a
/// deform offset is out of range after all (the caller's other paths decide). Out of line,
/// called from the renderer's loop (its loops inlined there: +1.1 % instructions). The
/// bits of [`super::weighted_world_packed`].
#[inline(never)]
pub(super) fn weighted_world_prepared(
    prepared: &PreparedWeights,
    deform: &[f32],
    mats: &[BoneMatrix; SMALL_BONES],
    dst: &mut [f32],
) -> Option<()> {
    let deform = deform.as_chunks::<2>().0;
    let dst = dst.as_chunks_mut::<2>().0;
    let mut records = prepared.influences.as_slice();
    let mut targets = prepared.targets.as_slice();
    // Without deform offsets the groups need no targets (each vertex's destination is in
    // its first record): only the records are cut.
    if deform.is_empty() {
        groups::<false>(prepared, (&mut records, &mut targets), deform, mats, dst)?;
        if prepared.other_counts.is_empty() {
            return Some(());
        }
        targets = prepared.targets.get(prepared.group_len.iter().map(|&n| n as usize).sum()..)?;
    } else {
        groups::<true>(prepared, (&mut records, &mut targets), deform, mats, dst)?;
    }
    for &n in &prepared.other_counts {
        let (r, rest) = records.split_at_checked(n as usize)?;
        let (t, rest_t) = targets.split_first()?;
        (records, targets) = (rest, rest_t);
        let moved = if deform.is_empty() {
            None
        } else {
            Some(deform.get(t.first as usize..)?.get(..n as usize)?)
        };
        *dst.get_mut(t.vertex as usize)? = vertex(r, moved, mats);
    }
    Some(())
}
