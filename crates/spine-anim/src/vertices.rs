//! World vertices of region and vertex attachments (spine-cpp 4.2
//! `RegionAttachment::computeWorldVertices`, `VertexAttachment::computeWorldVertices`).

use spine_model::{region_offsets, AttachmentKind, RegionAttachment, SlotId, Vertices};

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
                let (x, y, a, b, c, d) =
                    (bone.world_x, bone.world_y, bone.a, bone.b, bone.c, bone.d);
                let order = if self.data.behaviour.region_vertices_bl_first {
                    [0usize, 2, 4, 6]
                } else {
                    [6, 0, 2, 4]
                };
                for k in order {
                    let (ox, oy) = (o[k], o[k + 1]);
                    out.push(ox * a + oy * b + x);
                    out.push(ox * c + oy * d + y);
                }
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

fn vertex_world(v: &Vertices, s: &Slot, bone: &Bone, bones: &[Bone], out: &mut Vec<f32>) -> bool {
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
