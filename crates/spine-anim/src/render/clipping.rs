//! Clipping of triangles against a clipping attachment's polygon (spine-cpp 4.2
//! `SkeletonClipping.cpp`): the polygon is made clockwise, ear-clipped and decomposed into
//! convex parts, and every triangle is clipped against each part (Sutherland–Hodgman).

use spine_model::{AttachmentId, SlotId};

use super::triangulator::Triangulator;

/// Clipping state of one render pass. Buffers are kept between frames.
#[derive(Debug, Default, Clone)]
pub struct SkeletonClipping {
    active: Option<(AttachmentId, SlotId)>,
    triangulator: Triangulator,
    clipping_polygon: Vec<f32>,
    clip_output: Vec<f32>,
    scratch: Vec<f32>,
    clipped_vertices: Vec<f32>,
    clipped_uvs: Vec<f32>,
    clipped_triangles: Vec<u16>,
}

/// Reverses the polygon (`x, y` pairs) unless it is already clockwise (spine-cpp
/// `makeClockwise`: a negative signed area counts as clockwise).
pub fn make_clockwise(polygon: &mut [f32]) {
    let len = polygon.len();
    if len < 4 {
        return;
    }
    let mut area = polygon[len - 2] * polygon[1] - polygon[0] * polygon[len - 1];
    let mut i = 0;
    while i + 3 < len {
        let (p1x, p1y, p2x, p2y) = (polygon[i], polygon[i + 1], polygon[i + 2], polygon[i + 3]);
        area += p1x * p2y - p2x * p1y;
        i += 2;
    }
    if area < 0.0 {
        return;
    }
    let last_x = len - 2;
    let n = len >> 1;
    let mut i = 0;
    while i < n {
        let other = last_x - i;
        polygon.swap(i, other);
        polygon.swap(i + 1, other + 1);
        i += 2;
    }
}

impl SkeletonClipping {
    /// An inactive clipper.
    pub fn new() -> SkeletonClipping {
        SkeletonClipping::default()
    }

    /// Starts clipping with the polygon `world` (the clipping attachment's world vertices),
    /// unless clipping is already active (spine-cpp ignores nested clips). Returns the number
    /// of convex parts.
    pub fn clip_start(
        &mut self,
        attachment: AttachmentId,
        end_slot: SlotId,
        world: &[f32],
    ) -> usize {
        if self.active.is_some() {
            return 0;
        }
        self.active = Some((attachment, end_slot));
        self.clipping_polygon.clear();
        self.clipping_polygon.extend_from_slice(world);
        make_clockwise(&mut self.clipping_polygon);
        self.triangulator.triangulate(&self.clipping_polygon);
        self.triangulator.decompose(&self.clipping_polygon);
        for p in self.triangulator.polygons_mut() {
            make_clockwise(p);
            let (x, y) = (p[0], p[1]);
            p.push(x);
            p.push(y);
        }
        self.triangulator.polygons().len()
    }

    /// Ends clipping if `slot` is the active clipping attachment's end slot.
    pub fn clip_end_slot(&mut self, slot: SlotId) {
        if matches!(self.active, Some((_, end)) if end == slot) {
            self.clip_end();
        }
    }

    /// Ends clipping.
    pub fn clip_end(&mut self) {
        if self.active.take().is_none() {
            return;
        }
        self.clipped_vertices.clear();
        self.clipped_uvs.clear();
        self.clipped_triangles.clear();
        self.clipping_polygon.clear();
    }

    /// Whether a clipping attachment is active.
    pub fn is_clipping(&self) -> bool {
        self.active.is_some()
    }

    /// Vertices (`x, y`) of the last [`clip_triangles`](Self::clip_triangles).
    pub fn clipped_vertices(&self) -> &[f32] {
        &self.clipped_vertices
    }

    /// UVs of the last [`clip_triangles`](Self::clip_triangles).
    pub fn clipped_uvs(&self) -> &[f32] {
        &self.clipped_uvs
    }

    /// Triangles of the last [`clip_triangles`](Self::clip_triangles).
    pub fn clipped_triangles(&self) -> &[u16] {
        &self.clipped_triangles
    }

    /// Clips the triangles `triangles` over `vertices` / `uvs` (`x, y` and `u, v` pairs)
    /// against every convex part; the result is read with
    /// [`clipped_vertices`](Self::clipped_vertices) and friends. A triangle a part does not
    /// clip is emitted whole and the remaining parts are skipped, as in spine-cpp.
    pub fn clip_triangles(&mut self, vertices: &[f32], triangles: &[u16], uvs: &[f32]) {
        self.clipped_vertices.clear();
        self.clipped_uvs.clear();
        self.clipped_triangles.clear();
        let get = |v: &[f32], i: u16| -> (f32, f32) {
            let o = 2 * usize::from(i);
            (v.get(o).copied().unwrap_or(0.0), v.get(o + 1).copied().unwrap_or(0.0))
        };
        let mut index: usize = 0;
        let polygons = self.triangulator.polygons();
        for tri in triangles.chunks_exact(3) {
            let (x1, y1) = get(vertices, tri[0]);
            let (u1, v1) = get(uvs, tri[0]);
            let (x2, y2) = get(vertices, tri[1]);
            let (u2, v2) = get(uvs, tri[1]);
            let (x3, y3) = get(vertices, tri[2]);
            let (u3, v3) = get(uvs, tri[2]);
            for polygon in polygons {
                let clipped = clip(
                    [x1, y1, x2, y2, x3, y3],
                    polygon,
                    &mut self.clip_output,
                    &mut self.scratch,
                );
                if clipped {
                    let out = &self.clip_output;
                    if out.is_empty() {
                        continue;
                    }
                    let d0 = y2 - y3;
                    let d1 = x3 - x2;
                    let d2 = x1 - x3;
                    let d4 = y3 - y1;
                    let d = 1.0 / (d0 * d2 + d1 * (y1 - y3));
                    let count = out.len() >> 1;
                    for p in out.chunks_exact(2) {
                        let (x, y) = (p[0], p[1]);
                        self.clipped_vertices.push(x);
                        self.clipped_vertices.push(y);
                        let c0 = x - x3;
                        let c1 = y - y3;
                        let a = (d0 * c0 + d1 * c1) * d;
                        let b = (d4 * c0 + d2 * c1) * d;
                        let c = 1.0 - a - b;
                        self.clipped_uvs.push(u1 * a + u2 * b + u3 * c);
                        self.clipped_uvs.push(v1 * a + v2 * b + v3 * c);
                    }
                    for ii in 1..count.saturating_sub(1) {
                        self.clipped_triangles.push(index as u16);
                        self.clipped_triangles.push((index + ii) as u16);
                        self.clipped_triangles.push((index + ii + 1) as u16);
                    }
                    index += count;
                } else {
                    self.clipped_vertices.extend_from_slice(&[x1, y1, x2, y2, x3, y3]);
                    self.clipped_uvs.extend_from_slice(&[u1, v1, u2, v2, u3, v3]);
                    self.clipped_triangles.extend_from_slice(&[
                        index as u16,
                        (index + 1) as u16,
                        (index + 2) as u16,
                    ]);
                    index += 3;
                    break;
                }
            }
        }
    }
}

/// Clips the triangle against a convex clockwise polygon whose first point is repeated at
/// its end (spine-cpp `SkeletonClipping::clip`). Returns whether the triangle was clipped;
/// `output` holds the clipped polygon (empty when the triangle is entirely outside).
fn clip(tri: [f32; 6], area: &[f32], output: &mut Vec<f32>, scratch: &mut Vec<f32>) -> bool {
    let mut clipped = false;
    let mut input = std::mem::take(scratch);
    let mut out = std::mem::take(output);
    // Both buffers get room for the largest possible result (a triangle clipped by a convex
    // polygon of m edges has at most 3 + m vertices, plus the closing one): the two are
    // swapped below, so both must be big enough for a warm clipper not to allocate.
    let room = 2 * (4 + area.len() / 2);
    input.clear();
    input.reserve(room);
    out.reserve(room);
    input.extend_from_slice(&tri);
    input.push(tri[0]);
    input.push(tri[1]);
    out.clear();
    if area.len() < 4 {
        *scratch = input;
        *output = out;
        return false;
    }
    let last = area.len() - 4;
    let mut i = 0;
    loop {
        let (edge_x, edge_y) = (area[i], area[i + 1]);
        let ex = edge_x - area[i + 2];
        let ey = edge_y - area[i + 3];
        let mut ii = 0;
        let nn = input.len() - 2;
        while ii < nn {
            let (ix1, iy1) = (input[ii], input[ii + 1]);
            ii += 2;
            let (ix2, iy2) = (input[ii], input[ii + 1]);
            let s2 = ey * (edge_x - ix2) > ex * (edge_y - iy2);
            let s1 = ey * (edge_x - ix1) - ex * (edge_y - iy1);
            if s1 > 0.0 {
                if s2 {
                    out.push(ix2);
                    out.push(iy2);
                    continue;
                }
                let dx = ix2 - ix1;
                let dy = iy2 - iy1;
                let t = s1 / (dx * ey - dy * ex);
                if (0.0..=1.0).contains(&t) {
                    out.push(ix1 + dx * t);
                    out.push(iy1 + dy * t);
                } else {
                    out.push(ix2);
                    out.push(iy2);
                }
            } else if s2 {
                let dx = ix2 - ix1;
                let dy = iy2 - iy1;
                let t = s1 / (dx * ey - dy * ex);
                if (0.0..=1.0).contains(&t) {
                    out.push(ix1 + dx * t);
                    out.push(iy1 + dy * t);
                    out.push(ix2);
                    out.push(iy2);
                } else {
                    out.push(ix2);
                    out.push(iy2);
                    continue;
                }
            }
            clipped = true;
        }
        if out.is_empty() {
            // Every edge outside.
            out.clear();
            *scratch = input;
            *output = out;
            return true;
        }
        let (fx, fy) = (out[0], out[1]);
        out.push(fx);
        out.push(fy);
        if i == last {
            break;
        }
        std::mem::swap(&mut input, &mut out);
        out.clear();
        i += 2;
    }
    out.truncate(out.len() - 2);
    *scratch = input;
    *output = out;
    if output.len() < 6 {
        output.clear();
        return false;
    }
    clipped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triangle_inside_is_not_clipped_and_outside_is_dropped() {
        let mut c = SkeletonClipping::new();
        // A clockwise square is kept as is; a counter-clockwise one reversed.
        c.clip_start(
            AttachmentId::from_index(0),
            SlotId::from_index(9),
            &[0.0, 0.0, 0.0, 10.0, 10.0, 10.0, 10.0, 0.0],
        );
        assert!(c.is_clipping());
        c.clip_triangles(
            &[1.0, 1.0, 2.0, 1.0, 1.0, 2.0],
            &[0, 1, 2],
            &[0.0, 0.0, 1.0, 0.0, 0.0, 1.0],
        );
        assert_eq!(c.clipped_triangles(), &[0, 1, 2]);
        assert_eq!(c.clipped_vertices(), &[1.0, 1.0, 2.0, 1.0, 1.0, 2.0]);
        c.clip_triangles(&[20.0, 20.0, 30.0, 20.0, 20.0, 30.0], &[0, 1, 2], &[0.0; 6]);
        assert!(c.clipped_vertices().is_empty());
        c.clip_end_slot(SlotId::from_index(3));
        assert!(c.is_clipping());
        c.clip_end_slot(SlotId::from_index(9));
        assert!(!c.is_clipping());
    }

    #[test]
    fn straddling_triangle_is_cut_at_the_edge_with_interpolated_uvs() {
        let mut c = SkeletonClipping::new();
        c.clip_start(
            AttachmentId::from_index(0),
            SlotId::from_index(0),
            &[0.0, 0.0, 10.0, 0.0, 10.0, 10.0, 0.0, 10.0],
        );
        // Right triangle from x = -10 to 10: half of it is inside.
        c.clip_triangles(
            &[-10.0, 0.0, 10.0, 0.0, -10.0, 10.0],
            &[0, 1, 2],
            &[0.0, 0.0, 1.0, 0.0, 0.0, 1.0],
        );
        let v = c.clipped_vertices();
        assert!(v.len() >= 6);
        assert!(v.chunks(2).all(|p| p[0] >= -1e-4 && p[0] <= 10.0 + 1e-4));
        // u = (x + 10) / 20 on this triangle.
        for (p, uv) in v.chunks(2).zip(c.clipped_uvs().chunks(2)) {
            assert!((uv[0] - (p[0] + 10.0) / 20.0).abs() < 1e-5, "{p:?} {uv:?}");
        }
        assert_eq!(c.clipped_triangles().len(), 3 * (v.len() / 2 - 2));
    }
}
