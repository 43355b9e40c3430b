//! The renderer's world vertices: the same values, in the same `f32` operation order, as
//! [`Skeleton::world_vertices`](crate::skeleton::Skeleton::world_vertices), written into a
//! buffer sized once (no per-float `push`) and with the weights walked as fixed-size chunks
//! (no per-influence bounds checks).

use spine_model::{Vertices, WeightedVertices};

use crate::skeleton::{Bone, Slot};

/// The 4 region corners in output order: `o` are the corner offsets
/// (`RegionAttachment::computeWorldVertices`); `bl_first` is
/// [`Behaviour::region_vertices_bl_first`](spine_model::Behaviour::region_vertices_bl_first).
pub(super) fn region_world(o: &[f32; 8], bone: &Bone, bl_first: bool) -> [f32; 8] {
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

/// Replaces `out` with the world vertices of `v` shown by `s` on `bone`. Returns false when
/// the weights are inconsistent (too few influences or deform values, an unknown bone);
/// the caller then takes the general path.
pub(super) fn vertices_world(
    v: &Vertices,
    s: &Slot,
    bone: &Bone,
    bones: &[Bone],
    out: &mut Vec<f32>,
) -> bool {
    let deform = &s.deform;
    match v {
        Vertices::Unweighted(setup) => {
            let verts: &[f32] = if deform.is_empty() { setup } else { deform };
            let n = verts.len().min(setup.len()) / 2;
            out.clear();
            out.resize(2 * n, 0.0);
            let (x, y, a, b, c, d) = (bone.world_x, bone.world_y, bone.a, bone.b, bone.c, bone.d);
            for (dst, p) in out.as_chunks_mut::<2>().0.iter_mut().zip(verts.as_chunks::<2>().0) {
                dst[0] = p[0] * a + p[1] * b + x;
                dst[1] = p[0] * c + p[1] * d + y;
            }
            true
        }
        Vertices::Weighted(w) => weighted_world(w, deform, bones, out),
    }
}

fn weighted_world(
    w: &WeightedVertices,
    deform: &[f32],
    bones: &[Bone],
    out: &mut Vec<f32>,
) -> bool {
    let values = w.values.as_chunks::<3>().0;
    out.clear();
    out.resize(2 * w.counts.len(), 0.0);
    let dst = out.as_chunks_mut::<2>().0;
    // Each vertex's influences are taken as one window of the arrays (one bounds check per
    // vertex, none per influence).
    let mut start = 0usize;
    if deform.is_empty() {
        for (dst, &n) in dst.iter_mut().zip(&w.counts) {
            let end = start.saturating_add(n as usize);
            let (Some(ids), Some(vals)) = (w.bones.get(start..end), values.get(start..end)) else {
                return false;
            };
            start = end;
            let (mut wx, mut wy) = (0.0f32, 0.0f32);
            for (id, v) in ids.iter().zip(vals) {
                let Some(bn) = bones.get(id.index()) else { return false };
                let (vx, vy, weight) = (v[0], v[1], v[2]);
                wx += (vx * bn.a + vy * bn.b + bn.world_x) * weight;
                wy += (vx * bn.c + vy * bn.d + bn.world_y) * weight;
            }
            *dst = [wx, wy];
        }
    } else {
        let offsets = deform.as_chunks::<2>().0;
        for (dst, &n) in dst.iter_mut().zip(&w.counts) {
            let end = start.saturating_add(n as usize);
            let (Some(ids), Some(vals), Some(offs)) =
                (w.bones.get(start..end), values.get(start..end), offsets.get(start..end))
            else {
                return false;
            };
            start = end;
            let (mut wx, mut wy) = (0.0f32, 0.0f32);
            for ((id, v), o) in ids.iter().zip(vals).zip(offs) {
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
