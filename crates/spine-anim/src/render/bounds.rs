//! Skeleton bounds and bounding-box hit tests (spine-cpp 4.2 `Skeleton::getBounds` and
//! `SkeletonBounds`).

use spine_model::{AttachmentId, AttachmentKind, SlotId};

use super::{SkeletonClipping, SkeletonRenderer, QUAD};
use crate::skeleton::Skeleton;

impl SkeletonRenderer {
    /// The axis-aligned bounds `[min_x, min_y, max_x, max_y]` of every region and mesh
    /// attachment on a slot whose bone is active (spine-cpp `Skeleton::getBounds`: colors and
    /// alpha are not looked at), clipped by clipping attachments when `clip` is set. `None`
    /// when nothing is attached. Reuses the renderer's buffers.
    pub fn bounds(&mut self, skeleton: &Skeleton, clip: bool) -> Option<[f32; 4]> {
        let data = &*skeleton.data;
        let mut b = [f32::INFINITY, f32::INFINITY, f32::NEG_INFINITY, f32::NEG_INFINITY];
        let clipper: &mut SkeletonClipping = &mut self.clipper;
        for &slot_id in &skeleton.draw_order {
            let Some(slot) = skeleton.slots.get(slot_id.index()) else { continue };
            if !skeleton.bones.get(slot.bone.index()).is_some_and(|b| b.active) {
                continue;
            }
            self.world.clear();
            self.triangles.clear();
            if let Some(att) = slot.attachment {
                match &data.attachment(att).kind {
                    AttachmentKind::Region(_)
                        if skeleton.world_vertices(slot_id, &mut self.world) =>
                    {
                        self.triangles.extend_from_slice(&QUAD);
                    }
                    AttachmentKind::Mesh(m)
                        if skeleton.world_vertices(slot_id, &mut self.world) =>
                    {
                        self.triangles.extend(m.triangles().iter().map(|&t| t as u16));
                    }
                    AttachmentKind::Clipping(c) if clip => {
                        if skeleton.world_vertices(slot_id, &mut self.world) {
                            clipper.clip_start(att, c.end_slot, &self.world);
                        }
                        self.world.clear();
                    }
                    _ => {}
                }
            }
            if !self.world.is_empty() {
                let verts: &[f32] = if clipper.is_clipping() {
                    // UVs are not needed: the positions stand in for them.
                    clipper.clip_triangles(&self.world, &self.triangles, &self.world);
                    clipper.clipped_vertices()
                } else {
                    &self.world
                };
                for p in verts.chunks_exact(2) {
                    b = [b[0].min(p[0]), b[1].min(p[1]), b[2].max(p[0]), b[3].max(p[1])];
                }
            }
            clipper.clip_end_slot(slot_id);
        }
        clipper.clip_end();
        (b[0] <= b[2] && b[1] <= b[3]).then_some(b)
    }
}

/// The world polygons of the bounding-box attachments of a posed skeleton, for hit tests
/// (spine-cpp `SkeletonBounds`). Buffers are reused between updates.
#[derive(Debug, Default, Clone)]
pub struct SkeletonBounds {
    boxes: Vec<(SlotId, AttachmentId)>,
    polygons: Vec<Vec<f32>>,
    aabb: [f32; 4],
}

impl SkeletonBounds {
    /// Empty bounds.
    pub fn new() -> SkeletonBounds {
        SkeletonBounds::default()
    }

    /// Collects the bounding boxes shown by slots whose bone is active (in slot order) and
    /// their world polygons; computes the AABB when `update_aabb` is set (otherwise the AABB
    /// is unbounded, as in spine-cpp). Unlike spine-cpp (whose max starts at `FLT_MIN`), the
    /// AABB of polygons lying entirely at negative coordinates is exact.
    pub fn update(&mut self, skeleton: &Skeleton, update_aabb: bool) {
        let data = &*skeleton.data;
        self.boxes.clear();
        let mut n = 0;
        for (i, slot) in skeleton.slots.iter().enumerate() {
            if !skeleton.bones.get(slot.bone.index()).is_some_and(|b| b.active) {
                continue;
            }
            let Some(att) = slot.attachment else { continue };
            if !matches!(data.attachment(att).kind, AttachmentKind::BoundingBox(_)) {
                continue;
            }
            if n == self.polygons.len() {
                self.polygons.push(Vec::new());
            }
            let poly = &mut self.polygons[n];
            poly.clear();
            let id = SlotId::from_index(i);
            skeleton.world_vertices(id, poly);
            self.boxes.push((id, att));
            n += 1;
        }
        self.aabb = if update_aabb {
            let mut b = [f32::INFINITY, f32::INFINITY, f32::NEG_INFINITY, f32::NEG_INFINITY];
            for p in self.polygons().iter().flat_map(|p| p.chunks_exact(2)) {
                b = [b[0].min(p[0]), b[1].min(p[1]), b[2].max(p[0]), b[3].max(p[1])];
            }
            b
        } else {
            [f32::NEG_INFINITY, f32::NEG_INFINITY, f32::INFINITY, f32::INFINITY]
        };
    }

    /// The bounding boxes found by the last update: (slot, attachment), in slot order.
    pub fn bounding_boxes(&self) -> &[(SlotId, AttachmentId)] {
        &self.boxes
    }

    /// The world polygons (`x, y` pairs), parallel to [`bounding_boxes`](Self::bounding_boxes).
    pub fn polygons(&self) -> &[Vec<f32>] {
        &self.polygons[..self.boxes.len()]
    }

    /// The AABB `[min_x, min_y, max_x, max_y]` of all polygons.
    pub fn aabb(&self) -> [f32; 4] {
        self.aabb
    }

    /// Whether the point is inside the AABB (edges included).
    pub fn aabb_contains_point(&self, x: f32, y: f32) -> bool {
        let [x0, y0, x1, y1] = self.aabb;
        x >= x0 && x <= x1 && y >= y0 && y <= y1
    }

    /// Whether the segment may intersect the AABB (spine-cpp `aabbIntersectsSegment`).
    pub fn aabb_intersects_segment(&self, x1: f32, y1: f32, x2: f32, y2: f32) -> bool {
        let [min_x, min_y, max_x, max_y] = self.aabb;
        if (x1 <= min_x && x2 <= min_x)
            || (y1 <= min_y && y2 <= min_y)
            || (x1 >= max_x && x2 >= max_x)
            || (y1 >= max_y && y2 >= max_y)
        {
            return false;
        }
        let m = (y2 - y1) / (x2 - x1);
        let y = m * (min_x - x1) + y1;
        if y > min_y && y < max_y {
            return true;
        }
        let y = m * (max_x - x1) + y1;
        if y > min_y && y < max_y {
            return true;
        }
        let x = (min_y - y1) / m + x1;
        if x > min_x && x < max_x {
            return true;
        }
        let x = (max_y - y1) / m + x1;
        x > min_x && x < max_x
    }

    /// Whether the two AABBs overlap.
    pub fn aabb_intersects(&self, other: &SkeletonBounds) -> bool {
        let (a, b) = (self.aabb, other.aabb);
        a[0] < b[2] && a[2] > b[0] && a[1] < b[3] && a[3] > b[1]
    }

    /// The first bounding box whose polygon contains the point (even-odd rule).
    pub fn contains_point(&self, x: f32, y: f32) -> Option<(SlotId, AttachmentId)> {
        self.polygons().iter().position(|p| polygon_contains_point(p, x, y)).map(|i| self.boxes[i])
    }

    /// The first bounding box whose polygon intersects the segment.
    pub fn intersects_segment(
        &self,
        x1: f32,
        y1: f32,
        x2: f32,
        y2: f32,
    ) -> Option<(SlotId, AttachmentId)> {
        self.polygons()
            .iter()
            .position(|p| polygon_intersects_segment(p, x1, y1, x2, y2))
            .map(|i| self.boxes[i])
    }
}

/// Even-odd point-in-polygon test (spine-cpp `SkeletonBounds::containsPoint`).
pub fn polygon_contains_point(v: &[f32], x: f32, y: f32) -> bool {
    let nn = v.len() & !1;
    if nn < 2 {
        return false;
    }
    let mut prev = nn - 2;
    let mut inside = false;
    for ii in (0..nn).step_by(2) {
        let (vx, vy) = (v[ii], v[ii + 1]);
        let (px, py) = (v[prev], v[prev + 1]);
        if ((vy < y && py >= y) || (py < y && vy >= y)) && vx + (y - vy) / (py - vy) * (px - vx) < x
        {
            inside = !inside;
        }
        prev = ii;
    }
    inside
}

/// Whether the segment crosses an edge of the polygon (spine-cpp
/// `SkeletonBounds::intersectsSegment`).
pub fn polygon_intersects_segment(v: &[f32], x1: f32, y1: f32, x2: f32, y2: f32) -> bool {
    let nn = v.len() & !1;
    if nn < 2 {
        return false;
    }
    let (w12, h12) = (x1 - x2, y1 - y2);
    let det1 = x1 * y2 - y1 * x2;
    let (mut x3, mut y3) = (v[nn - 2], v[nn - 1]);
    for ii in (0..nn).step_by(2) {
        let (x4, y4) = (v[ii], v[ii + 1]);
        let det2 = x3 * y4 - y3 * x4;
        let (w34, h34) = (x3 - x4, y3 - y4);
        let det3 = w12 * h34 - h12 * w34;
        let x = (det1 * w34 - w12 * det2) / det3;
        if ((x >= x3 && x <= x4) || (x >= x4 && x <= x3))
            && ((x >= x1 && x <= x2) || (x >= x2 && x <= x1))
        {
            let y = (det1 * h34 - h12 * det2) / det3;
            if ((y >= y3 && y <= y4) || (y >= y4 && y <= y3))
                && ((y >= y1 && y <= y2) || (y >= y2 && y <= y1))
            {
                return true;
            }
        }
        x3 = x4;
        y3 = y4;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polygon_tests() {
        let sq = [0.0, 0.0, 10.0, 0.0, 10.0, 10.0, 0.0, 10.0];
        assert!(polygon_contains_point(&sq, 5.0, 5.0));
        assert!(!polygon_contains_point(&sq, 15.0, 5.0));
        assert!(polygon_intersects_segment(&sq, -5.0, 5.0, 5.0, 5.0));
        assert!(!polygon_intersects_segment(&sq, 2.0, 2.0, 8.0, 8.0), "inside, crosses no edge");
        let mut b = SkeletonBounds::new();
        b.aabb = [0.0, 0.0, 10.0, 10.0];
        assert!(b.aabb_contains_point(10.0, 0.0));
        assert!(b.aabb_intersects_segment(-5.0, 5.0, 5.0, 6.0));
        assert!(!b.aabb_intersects_segment(-5.0, -5.0, -1.0, 20.0));
    }
}
