//! World vertices of region and vertex attachments (spine-cpp 4.2
//! `RegionAttachment::computeWorldVertices`, `VertexAttachment::computeWorldVertices`).

use spine_model::{
    region_offsets, AttachmentKind, RegionAttachment, SlotId, Vertices, WeightedVertices,
};

use wide::f32x4;

use crate::skeleton::{Bone, Skeleton, Slot};

mod prepared;

use prepared::weighted_world_prepared;
pub(crate) use prepared::PreparedWeights;

impl Skeleton {
    /// Appends the world vertices (`x, y` pairs) of the attachment shown by `slot` to
    /// `out`: 4 corners `br, bl, ul, ur` for a region (`bl, ul, ur, br` when
    /// [`Behaviour::region_vertices_bl_first`](spine_model::Behaviour::region_vertices_bl_first);
    /// the current sequence frame's geometry), every vertex (deform applied) for meshes,
    /// bounding boxes, paths and clipping polygons. Returns false (appending nothing) for no
    /// attachment, a point attachment, or a region without atlas geometry.
    pub fn world_vertices(&self, slot: SlotId, out: &mut Vec<f32>) -> bool {
        let Some(s) = self.slots.get(slot.index()) else { return false };
        let Some(att) = s.attachment else { return false };
        let Some(bone) = self.bones.get(s.bone.index()) else { return false };
        match &self.data.attachment(att).kind {
            AttachmentKind::Region(r) => {
                let Some(o) = region_geometry(r, s) else { return false };
                let bl_first = self.data.behaviour.region_vertices_bl_first;
                out.extend_from_slice(&region_world(&o, bone, bl_first));
                true
            }
            AttachmentKind::Mesh(m) => vertex_world(&m.vertices, s, bone, &self.bones, out),
            AttachmentKind::BoundingBox(m) => vertex_world(&m.vertices, s, bone, &self.bones, out),
            AttachmentKind::Path(m) => vertex_world(&m.vertices, s, bone, &self.bones, out),
            AttachmentKind::Clipping(m) => vertex_world(&m.vertices, s, bone, &self.bones, out),
            AttachmentKind::Point(_) => false,
        }
    }
}

/// Corner offsets of the region's current sequence frame (`Sequence::apply`).
fn region_geometry(r: &RegionAttachment, s: &Slot) -> Option<[f32; 8]> {
    let regions = &r.sequence.regions;
    if r.has_sequence {
        let mut index =
            if s.sequence_index == -1 { r.sequence.setup_index as i32 } else { s.sequence_index };
        if index >= regions.len() as i32 {
            index = regions.len() as i32 - 1;
        }
        if let Some(Some(region)) = regions.get(index.max(0) as usize) {
            return Some(region_offsets(r, region));
        }
    }
    r.offsets
}

/// `VertexAttachment::computeWorldVertices`: [`vertices_world`], or, when the weights are
/// inconsistent, the lenient walk (missing deform values read as 0; stops at a missing
/// influence or bone, returning false).
fn vertex_world(v: &Vertices, s: &Slot, bone: &Bone, bones: &[Bone], out: &mut Vec<f32>) -> bool {
    if vertices_world(v, s, bone, bones, None, out) {
        return true;
    }
    let deform = &s.deform;
    match v {
        Vertices::Unweighted(setup) => {
            let verts: &[f32] = if deform.is_empty() { setup } else { deform };
            let (x, y, a, b, c, d) = (bone.world_x, bone.world_y, bone.a, bone.b, bone.c, bone.d);
            for p in verts.chunks_exact(2).take(setup.len() / 2) {
                out.push(p[0] * a + p[1] * b + x);
                out.push(p[0] * c + p[1] * d + y);
            }
        }
        Vertices::Weighted(w) => {
            let mut bi = 0usize;
            let mut f = 0usize;
            for &n in w.counts() {
                let (mut wx, mut wy) = (0.0f32, 0.0f32);
                for _ in 0..n {
                    let (Some(id), Some(vals)) =
                        (w.bones().get(bi), w.values().get(bi * 3..bi * 3 + 3))
                    else {
                        return false;
                    };
                    let Some(bn) = bones.get(id.index()) else { return false };
                    let (mut vx, mut vy) = (vals[0], vals[1]);
                    if !deform.is_empty() {
                        vx += deform.get(f).copied().unwrap_or(0.0);
                        vy += deform.get(f + 1).copied().unwrap_or(0.0);
                    }
                    let weight = vals[2];
                    wx += (vx * bn.a + vy * bn.b + bn.world_x) * weight;
                    wy += (vx * bn.c + vy * bn.d + bn.world_y) * weight;
                    bi += 1;
                    f += 2;
                }
                out.push(wx);
                out.push(wy);
            }
        }
    }
    true
}

/// The 4 region corners in output order: `o` are the corner offsets
/// (`RegionAttachment::computeWorldVertices`); `bl_first` is
/// [`Behaviour::region_vertices_bl_first`](spine_model::Behaviour::region_vertices_bl_first).
pub(crate) fn region_world(o: &[f32; 8], bone: &Bone, bl_first: bool) -> [f32; 8] {
    let (x, y, a, b, c, d) = (bone.world_x, bone.world_y, bone.a, bone.b, bone.c, bone.d);
    let order = if bl_first { [0usize, 2, 4, 6] } else { [6, 0, 2, 4] };
    let mut out = [0.0f32; 8];
    for (dst, k) in out.as_chunks_mut::<2>().0.iter_mut().zip(order) {
        let (ox, oy) = (o[k], o[k + 1]);
        dst[0] = ox * a + oy * b + x;
        dst[1] = ox * c + oy * d + y;
    }
    out
}

/// Appends the world vertices of `v` shown by `s` on `bone` to `out`, written into space
/// reserved once (no per-float `push`) with each vertex's influences taken as one window of
/// the weight arrays (one bounds check per vertex, none per influence). Returns false, with
/// `out` as it was, when the weights are inconsistent (too few influences or deform values,
/// an unknown bone): [`vertex_world`] then gives the runtime's lenient result. With `pack`,
/// weighted vertices may be computed from packed bones (see [`BonePack`]; the same result).
pub(crate) fn vertices_world(
    v: &Vertices,
    s: &Slot,
    bone: &Bone,
    bones: &[Bone],
    pack: Option<&mut BonePack>,
    out: &mut Vec<f32>,
) -> bool {
    let start = out.len();
    out.resize(start + 2 * world_count(v, s), 0.0);
    let ok = world_into(v, s, bone, bones, pack, out.get_mut(start..).unwrap_or_default());
    if !ok {
        out.truncate(start);
    }
    ok
}

/// How many vertices [`world_into`] writes for `v` shown by `s`.
#[inline]
pub(crate) fn world_count(v: &Vertices, s: &Slot) -> usize {
    match v {
        Vertices::Unweighted(setup) => {
            let verts: &[f32] = if s.deform.is_empty() { setup } else { &s.deform };
            verts.len().min(setup.len()) / 2
        }
        Vertices::Weighted(w) => w.vertex_count(),
    }
}

/// The world vertices of weighted `v` from the renderer's `prepared` influences (made from
/// it), inlined into the caller's loop (one call a draw, not two): `None` when they do not
/// serve (the caller then takes [`world_into`]), else whether the draw was written (false:
/// a target or deform offset out of range after all; the caller's other paths decide).
/// `serves` checks the records are `v`'s and fit the deform; `for_prepared` that the bones
/// are the skeleton's.
#[inline]
pub(crate) fn prepared_world_into(
    v: &Vertices,
    s: &Slot,
    bones: &[Bone],
    pack: &mut BonePack,
    prepared: &PreparedWeights,
    dst: &mut [f32],
) -> Option<bool> {
    let Vertices::Weighted(w) = v else { return None };
    if !prepared.serves(w, &s.deform, SMALL_BONES) {
        return None;
    }
    let mats = pack.for_prepared(w.influence_count(), bones, prepared.used())?;
    Some(weighted_world_prepared(prepared, &s.deform, mats, dst).is_some())
}

/// [`vertices_world`] into `dst`, which has `2 * world_count(v, s)` floats (`pack` as
/// there; the renderer tries [`prepared_world_into`] first). Returns false (`dst` partly
/// written) when the weights are inconsistent. Kept out of line: inlined into the
/// renderer's loop it made that loop slower (2–3 % more instructions per render).
#[inline(never)]
pub(crate) fn world_into(
    v: &Vertices,
    s: &Slot,
    bone: &Bone,
    bones: &[Bone],
    pack: Option<&mut BonePack>,
    dst: &mut [f32],
) -> bool {
    let deform = &s.deform;
    match v {
        Vertices::Unweighted(setup) => {
            let verts: &[f32] = if deform.is_empty() { setup } else { deform };
            let (x, y, a, b, c, d) = (bone.world_x, bone.world_y, bone.a, bone.b, bone.c, bone.d);
            let dst = dst.as_chunks_mut::<2>().0;
            for (dst, p) in dst.iter_mut().zip(verts.as_chunks::<2>().0) {
                dst[0] = p[0] * a + p[1] * b + x;
                dst[1] = p[0] * c + p[1] * d + y;
            }
            true
        }
        Vertices::Weighted(w) => {
            let Some(pack) = pack else { return weighted_world(w, deform, bones, dst) };
            if !pack.ready(w.influence_count(), bones) {
                return weighted_world(w, deform, bones, dst);
            }
            weighted_world_packed(w, deform, pack.packed(), dst)
        }
    }
}

#[inline(always)]
fn weighted_world(w: &WeightedVertices, deform: &[f32], bones: &[Bone], dst: &mut [f32]) -> bool {
    let dst = dst.as_chunks_mut::<2>().0;
    // The influences are walked with one iterator (no per-vertex window or bounds check);
    // running out of them means inconsistent weights.
    let mut influences = w.bones().iter().zip(w.values().as_chunks::<3>().0);
    if deform.is_empty() {
        for (dst, &n) in dst.iter_mut().zip(w.counts()) {
            let (mut wx, mut wy) = (0.0f32, 0.0f32);
            for _ in 0..n {
                let Some((id, v)) = influences.next() else { return false };
                let Some(bn) = bones.get(id.index()) else { return false };
                let (vx, vy, weight) = (v[0], v[1], v[2]);
                wx += (vx * bn.a + vy * bn.b + bn.world_x) * weight;
                wy += (vx * bn.c + vy * bn.d + bn.world_y) * weight;
            }
            *dst = [wx, wy];
        }
    } else {
        let mut influences = influences.zip(deform.as_chunks::<2>().0);
        for (dst, &n) in dst.iter_mut().zip(w.counts()) {
            let (mut wx, mut wy) = (0.0f32, 0.0f32);
            for _ in 0..n {
                let Some(((id, v), o)) = influences.next() else { return false };
                let Some(bn) = bones.get(id.index()) else { return false };
                let (vx, vy, weight) = (v[0] + o[0], v[1] + o[1], v[2]);
                wx += (vx * bn.a + vy * bn.b + bn.world_x) * weight;
                wy += (vx * bn.c + vy * bn.d + bn.world_y) * weight;
            }
            *dst = [wx, wy];
        }
    }
    true
}

/// A bone's world transform packed for weighted vertices: `[a, c, b, d]` (the `x` and `y`
/// columns as the two halves of one aligned load) and `[world_x, world_y, 0, 0]`.
/// See [`BonePack`].
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, align(16))]
pub(crate) struct BoneMatrix {
    m: [f32; 4],
    t: [f32; 4],
}

impl BoneMatrix {
    /// `b`'s world transform, packed.
    #[inline]
    fn of(b: &Bone) -> BoneMatrix {
        BoneMatrix { m: [b.a, b.c, b.b, b.d], t: [b.world_x, b.world_y, 0.0, 0.0] }
    }
}

/// The bones of a skeleton packed as [`BoneMatrix`]es for one render: all of them once the
/// weighted meshes drawn have as many influences as the skeleton has bones (packing a bone
/// costs about what one influence saves); before that, only the bones of each mesh drawn
/// from prepared influences ([`BonePack::for_prepared`]).
#[derive(Debug, Default, Clone)]
pub(crate) struct BonePack {
    /// The packed bones (at least [`SMALL_BONES`] entries once a table was asked for). Entries
    /// not packed in this render are stale and never read: the packed path reads the first
    /// `len` after a full pack, the prepared path only the bones its mesh uses, all packed.
    mats: Vec<BoneMatrix>,
    /// How many bones the last pack holds.
    len: usize,
    /// Influences seen while not packed.
    seen: usize,
    packed: bool,
}

/// The size of the packed table the prepared path indexes by a `u8` (no bounds check per
/// influence): meshes on a skeleton's first 256 bones.
pub(crate) const SMALL_BONES: usize = 256;

impl BonePack {
    /// Forgets the packed bones (a new render, or bones moved).
    pub(crate) fn reset(&mut self) {
        self.seen = 0;
        self.packed = false;
    }

    /// Whether the bones are packed for a mesh of `influences` influences, packing them
    /// when the influences seen reach the bone count.
    #[inline]
    fn ready(&mut self, influences: usize, bones: &[Bone]) -> bool {
        if !self.packed {
            self.seen += influences;
            if self.seen < bones.len() {
                return false;
            }
            self.pack(bones);
        }
        true
    }

    /// The packed bones (once [`BonePack::ready`]).
    #[inline]
    fn packed(&self) -> &[BoneMatrix] {
        self.mats.get(..self.len).unwrap_or_default()
    }

    /// The packed bones as a table of [`SMALL_BONES`] entries for a mesh of `influences`
    /// influences on the bones `used` (sorted; `None` when one is not below `bones.len()`):
    /// all bones are packed once the influences seen reach the bone count (as
    /// [`BonePack::ready`]), before that only `used` (a packed bone costs about what one
    /// prepared influence saves). Entries of other bones may be stale: the mesh reads only
    /// `used`.
    #[inline]
    fn for_prepared(
        &mut self,
        influences: usize,
        bones: &[Bone],
        used: &[u8],
    ) -> Option<&[BoneMatrix; SMALL_BONES]> {
        // (`used` is sorted: its last bone is its highest.)
        if used.last().is_some_and(|&i| usize::from(i) >= bones.len()) {
            return None;
        }
        if !self.packed {
            self.seen += influences;
            if self.seen < bones.len() {
                self.pack_some(bones, used);
            } else {
                self.pack(bones);
            }
        }
        self.mats.first_chunk::<SMALL_BONES>()
    }

    /// Packs the bones `used` only.
    #[inline(never)]
    fn pack_some(&mut self, bones: &[Bone], used: &[u8]) {
        if self.mats.len() < SMALL_BONES {
            self.mats.resize(SMALL_BONES, BoneMatrix::default());
        }
        for &i in used {
            let (Some(m), Some(b)) = (self.mats.get_mut(usize::from(i)), bones.get(usize::from(i)))
            else {
                continue;
            };
            *m = BoneMatrix::of(b);
        }
    }

    #[inline(never)]
    fn pack(&mut self, bones: &[Bone]) {
        // Grown once to the small table's size; after that the bones are overwritten in
        // place (entries past them are stale and never read).
        let want = bones.len().max(SMALL_BONES);
        if self.mats.len() != want {
            self.mats.resize(want, BoneMatrix::default());
        }
        for (m, b) in self.mats.iter_mut().zip(bones) {
            *m = BoneMatrix::of(b);
        }
        self.len = bones.len();
        self.packed = true;
    }
}

/// [`weighted_world`] from packed bones.
fn weighted_world_packed(
    w: &WeightedVertices,
    deform: &[f32],
    mats: &[BoneMatrix],
    dst: &mut [f32],
) -> bool {
    let dst = dst.as_chunks_mut::<2>().0;
    let mut influences = w.bones().iter().zip(w.values().as_chunks::<3>().0);
    if deform.is_empty() {
        for (dst, &n) in dst.iter_mut().zip(w.counts()) {
            let mut acc = f32x4::ZERO;
            for _ in 0..n {
                let Some((id, v)) = influences.next() else { return false };
                let Some(bm) = mats.get(id.index()) else { return false };
                acc += influence(bm, v[0], v[1], v[2]);
            }
            let [x, y, _, _] = acc.to_array();
            *dst = [x, y];
        }
    } else {
        let mut influences = influences.zip(deform.as_chunks::<2>().0);
        for (dst, &n) in dst.iter_mut().zip(w.counts()) {
            let mut acc = f32x4::ZERO;
            for _ in 0..n {
                let Some(((id, v), o)) = influences.next() else { return false };
                let Some(bm) = mats.get(id.index()) else { return false };
                acc += influence(bm, v[0] + o[0], v[1] + o[1], v[2]);
            }
            let [x, y, _, _] = acc.to_array();
            *dst = [x, y];
        }
    }
    true
}

/// One influence of a weighted vertex: lanes 0 and 1 are spine-cpp's
/// `(vx * a + vy * b + world_x) * weight` and `(vx * c + vy * d + world_y) * weight`, the
/// same operations in the same order, lane by lane (lanes 2 and 3 are don't-cares):
/// `[vx*a, vx*c, vy*b, vy*d]` plus its halves swapped. Bit for bit the scalar result, except
/// a NaN's payload and sign (neither path promises those: the compiler may swap operands).
#[inline(always)]
fn influence(bm: &BoneMatrix, vx: f32, vy: f32, weight: f32) -> f32x4 {
    influence_lanes(bm, f32x4::from([vx, vx, vy, vy]), f32x4::splat(weight))
}

/// [`influence`] from the position as `[vx, vx, vy, vy]` and the weight in lanes 0 and 1.
#[inline(always)]
fn influence_lanes(bm: &BoneMatrix, position: f32x4, weight: f32x4) -> f32x4 {
    let p = f32x4::from(bm.m) * position;
    let [p0, p1, p2, p3] = p.to_array();
    let s = p + f32x4::from([p2, p3, p0, p1]);
    (s + f32x4::from(bm.t)) * weight
}

#[cfg(test)]
mod tests {
    use super::*;
    use spine_model::{BoneId, Inherit};

    /// The packed and prepared paths give the scalar path's bits (with and without deform;
    /// finite values and now and then ±0, ±∞, subnormals, the extremes or a NaN, whose
    /// payload may differ), and the same verdict on inconsistent weights (too few
    /// influences, an unknown bone, a deform too short or of one float).
    #[test]
    fn packed_and_prepared_weighted_vertices_match_the_scalar_ones_bit_for_bit() {
        let mut rng = crate::test_rng::Rng(0x9e37_79b9_7f4a_7c15);
        const SPECIAL: [f32; 9] = [
            0.0,
            -0.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            1e-40,
            -3e-39,
            f32::MAX,
            f32::MIN,
            f32::NAN,
        ];
        let any = |rng: &mut crate::test_rng::Rng, lo: f32, hi: f32| {
            let r = rng.bits();
            if r.is_multiple_of(16) {
                SPECIAL[(r >> 8) as usize % SPECIAL.len()]
            } else {
                rng.range(lo, hi)
            }
        };
        let data = crate::skeleton::tests::bone_data(Inherit::Normal);
        let mut nans = 0;
        let mut served_300 = 0;
        for case in 0..400 {
            // Now and then more bones than the prepared table holds (meshes on the first 256
            // bones use it, the others may not).
            let n_bones = if case % 50 == 7 { 300 } else { 1 + (rng.bits() % 12) as usize };
            let bones: Vec<Bone> = (0..n_bones)
                .map(|_| {
                    let mut b = Bone::new(&data);
                    (b.a, b.b, b.c, b.d) = (
                        any(&mut rng, -3.0, 3.0),
                        any(&mut rng, -3.0, 3.0),
                        any(&mut rng, -3.0, 3.0),
                        any(&mut rng, -3.0, 3.0),
                    );
                    (b.world_x, b.world_y) =
                        (any(&mut rng, -500.0, 500.0), any(&mut rng, -500.0, 500.0));
                    b
                })
                .collect();
            let (mut counts, mut wbones, mut values) = (vec![], vec![], vec![]);
            for _ in 0..1 + rng.bits() % 40 {
                // 0 to 6 influences: every group of the prepared path, and the others.
                let n = (rng.bits() % 7) as u32;
                counts.push(n);
                for _ in 0..n {
                    // Now and then a bone past the end (inconsistent weights); on 300 bones,
                    // every other time only bones the prepared table holds.
                    let range = if n_bones == 300 && case % 100 == 57 {
                        250
                    } else {
                        n_bones as u64 + u64::from(case % 7 == 0)
                    };
                    let id = (rng.bits() % range) as usize;
                    wbones.push(BoneId::from_index(id));
                    values.extend([
                        any(&mut rng, -200.0, 200.0),
                        any(&mut rng, -200.0, 200.0),
                        any(&mut rng, 0.0, 1.0),
                    ]);
                }
            }
            if case % 5 == 0 {
                wbones.pop(); // Too few influences.
            }
            let w = WeightedVertices::new(&counts, &wbones, &values);
            let nf = 2 * w.counts().iter().sum::<u32>() as usize;
            // Deform: none, a pair per influence, one float, or one float short.
            let nd = match case % 8 {
                1 if nf > 0 => 1,
                3 => nf.saturating_sub(1),
                _ if case % 2 == 1 => nf,
                _ => 0,
            };
            let deform: Vec<f32> = (0..nd).map(|_| any(&mut rng, -20.0, 20.0)).collect();
            let mut pack = BonePack::default();
            pack.pack(&bones);
            assert_eq!(pack.packed().len(), bones.len());
            let mut scalar = vec![0.0f32; 2 * w.vertex_count()];
            let mut packed = scalar.clone();
            let ok = weighted_world(&w, &deform, &bones, &mut scalar);
            let ok_packed = weighted_world_packed(&w, &deform, pack.packed(), &mut packed);
            assert_eq!(ok, ok_packed, "case {case}");
            // The prepared path serves exactly the consistent weights on the table's bones
            // (the others are left to the paths above).
            let on_table = w.bones().iter().all(|b| b.index() < SMALL_BONES);
            let prepared = PreparedWeights::new(&w);
            // (Filled with a value no path writes, so a vertex left unwritten shows.)
            let mut via_prepared = vec![-7.5e30f32; scalar.len()];
            // Half the cases pack only the mesh's bones, into a table holding a bigger
            // skeleton's bones (stale entries that must not be read).
            let mut partial = BonePack::default();
            let other: Vec<Bone> = bones.iter().rev().chain(&bones).cloned().collect();
            partial.pack(&other);
            partial.reset();
            let table = if !prepared.serves(&w, &deform, bones.len()) {
                None
            } else if case % 4 < 2 {
                partial.for_prepared(0, &bones, prepared.used())
            } else {
                pack.for_prepared(w.influence_count(), &bones, prepared.used())
            };
            let served = table.and_then(|mats| {
                weighted_world_prepared(&prepared, &deform, mats, &mut via_prepared)
            });
            assert_eq!(served.is_some(), ok && on_table, "case {case}");
            served_300 += usize::from(served.is_some() && n_bones == 300);
            if ok {
                // Bits, any NaN as one value.
                let bits = |v: &[f32]| {
                    v.iter()
                        .map(|f| if f.is_nan() { u32::MAX } else { f.to_bits() })
                        .collect::<Vec<_>>()
                };
                assert_eq!(bits(&scalar), bits(&packed), "case {case}");
                if served.is_some() {
                    assert_eq!(bits(&scalar), bits(&via_prepared), "case {case}");
                }
                nans += scalar.iter().filter(|f| f.is_nan()).count();
            }
        }
        assert!(nans > 0, "the special values reached the output");
        assert!(served_300 > 0, "a skeleton of 300 bones took the prepared path");
    }
}
