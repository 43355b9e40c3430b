//! Ear-clipping triangulation and convex decomposition of a simple polygon (spine-cpp 4.2
//! `Triangulator.cpp`), with buffers reused between calls.

/// Triangulates polygons and merges the triangles into convex polygons.
///
/// Every buffer is kept between calls, so once warm a call allocates nothing.
#[derive(Debug, Default, Clone)]
pub struct Triangulator {
    indices: Vec<usize>,
    is_concave: Vec<bool>,
    triangles: Vec<usize>,
    polygons: Vec<Vec<f32>>,
    polygon_indices: Vec<Vec<usize>>,
    count: usize,
}

fn positive_area(p1x: f32, p1y: f32, p2x: f32, p2y: f32, p3x: f32, p3y: f32) -> bool {
    p1x * (p3y - p2y) + p2x * (p1y - p3y) + p3x * (p2y - p1y) >= 0.0
}

fn winding(p1x: f32, p1y: f32, p2x: f32, p2y: f32, p3x: f32, p3y: f32) -> i32 {
    let px = p2x - p1x;
    let py = p2y - p1y;
    if p3x * py - p3y * px + px * p1y - p1x * py >= 0.0 {
        1
    } else {
        -1
    }
}

fn pt(v: &[[f32; 2]], i: usize) -> (f32, f32) {
    let [x, y] = v.get(i).copied().unwrap_or_default();
    (x, y)
}

/// The index after `i` in a ring of `n` (`(i + 1) % n` without a division).
#[inline]
fn ring_next(i: usize, n: usize) -> usize {
    if i + 1 >= n {
        0
    } else {
        i + 1
    }
}

/// The index before `i` in a ring of `n` (`(n + i - 1) % n` for `i < n`).
#[inline]
fn ring_prev(i: usize, n: usize) -> usize {
    if i == 0 {
        n - 1
    } else {
        i - 1
    }
}

fn is_concave(index: usize, n: usize, v: &[[f32; 2]], indices: &[usize]) -> bool {
    let prev = indices[ring_prev(index, n)];
    let cur = indices[index];
    let next = indices[ring_next(index, n)];
    let (ax, ay) = pt(v, prev);
    let (bx, by) = pt(v, cur);
    let (cx, cy) = pt(v, next);
    !positive_area(ax, ay, bx, by, cx, cy)
}

impl Triangulator {
    /// A triangulator with empty buffers.
    pub fn new() -> Triangulator {
        Triangulator::default()
    }

    /// Ear-clips the polygon `vertices` (`x, y` pairs) and returns its triangles as vertex
    /// indices (three per triangle), in spine-cpp's order.
    pub fn triangulate(&mut self, vertices: &[f32]) -> &[usize] {
        let vertices = vertices.as_chunks::<2>().0;
        let mut n = vertices.len();
        self.indices.clear();
        self.indices.extend(0..n);
        self.is_concave.clear();
        for i in 0..n {
            let c = is_concave(i, n, vertices, &self.indices);
            self.is_concave.push(c);
        }
        self.triangles.clear();
        while n > 3 {
            // Find an ear tip.
            let (mut previous, mut i, mut next) = (n - 1, 0usize, 1usize);
            loop {
                let mut is_ear = false;
                if !self.is_concave[i] {
                    let (p1x, p1y) = pt(vertices, self.indices[previous]);
                    let (p2x, p2y) = pt(vertices, self.indices[i]);
                    let (p3x, p3y) = pt(vertices, self.indices[next]);
                    is_ear = true;
                    let mut ii = ring_next(next, n);
                    while ii != previous {
                        if self.is_concave[ii] {
                            let (vx, vy) = pt(vertices, self.indices[ii]);
                            if positive_area(p3x, p3y, p1x, p1y, vx, vy)
                                && positive_area(p1x, p1y, p2x, p2y, vx, vy)
                                && positive_area(p2x, p2y, p3x, p3y, vx, vy)
                            {
                                is_ear = false;
                                break;
                            }
                        }
                        ii = ring_next(ii, n);
                    }
                }
                if is_ear {
                    break;
                }
                if next == 0 {
                    loop {
                        if !self.is_concave[i] {
                            break;
                        }
                        i -= 1;
                        if i == 0 {
                            break;
                        }
                    }
                    break;
                }
                previous = i;
                i = next;
                next = ring_next(next, n);
            }
            // Cut the ear tip.
            self.triangles.push(self.indices[ring_prev(i, n)]);
            self.triangles.push(self.indices[i]);
            self.triangles.push(self.indices[ring_next(i, n)]);
            self.indices.remove(i);
            self.is_concave.remove(i);
            n -= 1;
            let prev_index = ring_prev(i, n);
            let next_index = if i == n { 0 } else { i };
            self.is_concave[prev_index] = is_concave(prev_index, n, vertices, &self.indices);
            self.is_concave[next_index] = is_concave(next_index, n, vertices, &self.indices);
        }
        if n == 3 {
            self.triangles.push(self.indices[2]);
            self.triangles.push(self.indices[0]);
            self.triangles.push(self.indices[1]);
        }
        &self.triangles
    }

    /// Takes a fresh (cleared) polygon slot at the end of the list.
    fn push_polygon(&mut self) -> usize {
        if self.count == self.polygons.len() {
            self.polygons.push(Vec::new());
            self.polygon_indices.push(Vec::new());
        }
        self.polygons[self.count].clear();
        self.polygon_indices[self.count].clear();
        self.count += 1;
        self.count - 1
    }

    /// Merges the triangles of the last [`triangulate`](Self::triangulate) call over the same
    /// `vertices` into convex polygons (triangle fans), as spine-cpp's `decompose`. The
    /// polygons are read with [`polygons`](Self::polygons).
    pub fn decompose(&mut self, vertices: &[f32]) {
        let vertices = vertices.as_chunks::<2>().0;
        self.count = 0;
        let mut fan_base: Option<usize> = None;
        let mut last_winding = 0;
        let mut cur: Option<usize> = None;
        let mut t = 0;
        while t + 2 < self.triangles.len() {
            let (t1, t2, t3) = (self.triangles[t], self.triangles[t + 1], self.triangles[t + 2]);
            t += 3;
            let (x1, y1) = pt(vertices, t1);
            let (x2, y2) = pt(vertices, t2);
            let (x3, y3) = pt(vertices, t3);
            let mut merged = false;
            if let (Some(base), Some(c)) = (fan_base, cur) {
                if base == t1 {
                    let p = &self.polygons[c];
                    let o = p.len() - 4;
                    let w1 = winding(p[o], p[o + 1], p[o + 2], p[o + 3], x3, y3);
                    let w2 = winding(x3, y3, p[0], p[1], p[2], p[3]);
                    if w1 == last_winding && w2 == last_winding {
                        self.polygons[c].extend_from_slice(&[x3, y3]);
                        self.polygon_indices[c].push(t3);
                        merged = true;
                    }
                }
            }
            if !merged {
                let c = self.push_polygon();
                self.polygons[c].extend_from_slice(&[x1, y1, x2, y2, x3, y3]);
                self.polygon_indices[c].extend_from_slice(&[t1, t2, t3]);
                last_winding = winding(x1, y1, x2, y2, x3, y3);
                fan_base = Some(t1);
                cur = Some(c);
            }
        }

        // Merge the remaining triangles into the fans found.
        let n = self.count;
        for i in 0..n {
            if self.polygon_indices[i].is_empty() {
                continue;
            }
            let first_index = self.polygon_indices[i][0];
            let last_index = self.polygon_indices[i][self.polygon_indices[i].len() - 1];
            let p = &self.polygons[i];
            let o = p.len() - 4;
            let (mut prev_prev_x, mut prev_prev_y) = (p[o], p[o + 1]);
            let (mut prev_x, mut prev_y) = (p[o + 2], p[o + 3]);
            let (first_x, first_y, second_x, second_y) = (p[0], p[1], p[2], p[3]);
            let winding0 = winding(prev_prev_x, prev_prev_y, prev_x, prev_y, first_x, first_y);
            let mut ii = 0;
            while ii < n {
                if ii != i && self.polygon_indices[ii].len() == 3 {
                    let oi = &self.polygon_indices[ii];
                    let (of, os, ol) = (oi[0], oi[1], oi[2]);
                    let op = &self.polygons[ii];
                    let (x3, y3) = (op[op.len() - 2], op[op.len() - 1]);
                    if of == first_index && os == last_index {
                        let w1 = winding(prev_prev_x, prev_prev_y, prev_x, prev_y, x3, y3);
                        let w2 = winding(x3, y3, first_x, first_y, second_x, second_y);
                        if w1 == winding0 && w2 == winding0 {
                            self.polygons[ii].clear();
                            self.polygon_indices[ii].clear();
                            self.polygons[i].extend_from_slice(&[x3, y3]);
                            self.polygon_indices[i].push(ol);
                            prev_prev_x = prev_x;
                            prev_prev_y = prev_y;
                            prev_x = x3;
                            prev_y = y3;
                            // spine-cpp sets ii = 0 and the loop increments it: the scan
                            // restarts at 1.
                            ii = 0;
                        }
                    }
                }
                ii += 1;
            }
        }

        // Drop the polygons emptied by the merge, keeping order.
        // Contents are copied (not the vectors swapped) so every slot keeps its capacity
        // and a warm triangulator does not allocate.
        let mut w = 0;
        for r in 0..self.count {
            if self.polygons[r].is_empty() {
                continue;
            }
            if w != r {
                let (lo, hi) = self.polygons.split_at_mut(r);
                lo[w].clear();
                lo[w].extend_from_slice(&hi[0]);
                let (lo, hi) = self.polygon_indices.split_at_mut(r);
                lo[w].clear();
                lo[w].extend_from_slice(&hi[0]);
            }
            w += 1;
        }
        self.count = w;
    }

    /// The convex polygons of the last [`decompose`](Self::decompose) (`x, y` pairs each).
    pub fn polygons(&self) -> &[Vec<f32>] {
        &self.polygons[..self.count]
    }

    /// Mutable access to the convex polygons of the last [`decompose`](Self::decompose).
    pub fn polygons_mut(&mut self) -> &mut [Vec<f32>] {
        &mut self.polygons[..self.count]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_is_two_triangles_merged_into_one_convex_polygon() {
        let sq = [0.0, 0.0, 10.0, 0.0, 10.0, 10.0, 0.0, 10.0];
        let mut t = Triangulator::new();
        let tris = t.triangulate(&sq).to_vec();
        assert_eq!(tris.len(), 6);
        t.decompose(&sq);
        assert_eq!(t.polygons().len(), 1);
        assert_eq!(t.polygons()[0].len(), 8);
    }

    #[test]
    fn concave_l_shape_needs_two_convex_parts() {
        // An L: concave at (5, 5).
        let l = [0.0, 0.0, 10.0, 0.0, 10.0, 5.0, 5.0, 5.0, 5.0, 10.0, 0.0, 10.0];
        let mut t = Triangulator::new();
        let tris = t.triangulate(&l).to_vec();
        assert_eq!(tris.len(), 12, "4 triangles for 6 vertices");
        t.decompose(&l);
        assert!(t.polygons().len() >= 2);
        let total: usize = t.polygons().iter().map(|p| p.len() / 2 - 2).sum();
        assert_eq!(total, 4, "the convex parts cover the 4 triangles");
    }
}
