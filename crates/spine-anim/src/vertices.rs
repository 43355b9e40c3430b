//! World vertices of region and vertex attachments (spine-cpp 4.2
//! `RegionAttachment::computeWorldVertices`, `VertexAttachment::computeWorldVertices`).

use spine_model::{
    region_offsets, AttachmentKind, RegionAttachment, SlotId, Vertices, WeightedVertices,
};

use crate::skeleton::{Bone, Skeleton, Slot};

impl Skeleton {
    /// Appends the world vertices (`x, y` pairs) of the attachment shown by `slot` to
    /// `out`: 4 corners `br, bl, ul, ur` for a region (`bl, ul, ur, br` when
    /// [`Behaviour::region_vertices_bl_first`](spine_model::Behaviour::region_vertices_bl_first);
    /// the current sequence frame's geometry), every vertex (deform applied) for meshes, bounding boxes, paths and
    /// clipping polygons. Returns false (appending nothing) for no attachment, a point
    /// attachment, or a region without atlas geometry.
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
    if vertices_world(v, s, bone, bones, out) {
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
            for &n in &w.counts {
                let (mut wx, mut wy) = (0.0f32, 0.0f32);
                for _ in 0..n {
                    let (Some(id), Some(vals)) =
                        (w.bones.get(bi), w.values.get(bi * 3..bi * 3 + 3))
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
/// an unknown bone): [`vertex_world`] then gives the runtime's lenient result.
pub(crate) fn vertices_world(
    v: &Vertices,
    s: &Slot,
    bone: &Bone,
    bones: &[Bone],
    out: &mut Vec<f32>,
) -> bool {
    let start = out.len();
    out.resize(start + 2 * world_count(v, s), 0.0);
    let ok = world_into(v, s, bone, bones, out.get_mut(start..).unwrap_or_default());
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
        Vertices::Weighted(w) => w.counts.len(),
    }
}

/// [`vertices_world`] into `dst`, which has `2 * world_count(v, s)` floats. Returns false
/// (`dst` partly written) when the weights are inconsistent. Kept out of line: inlined into
/// the renderer's loop it made that loop slower (2–3 % more instructions per render).
#[inline(never)]
pub(crate) fn world_into(
    v: &Vertices,
    s: &Slot,
    bone: &Bone,
    bones: &[Bone],
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
        Vertices::Weighted(w) => weighted_world(w, deform, bones, dst),
    }
}

fn weighted_world(w: &WeightedVertices, deform: &[f32], bones: &[Bone], dst: &mut [f32]) -> bool {
    let dst = dst.as_chunks_mut::<2>().0;
    // The influences are walked with one iterator (no per-vertex window or bounds check);
    // running out of them means inconsistent weights.
    let mut influences = w.bones.iter().zip(w.values.as_chunks::<3>().0);
    if deform.is_empty() {
        for (dst, &n) in dst.iter_mut().zip(&w.counts) {
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
        for (dst, &n) in dst.iter_mut().zip(&w.counts) {
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
