//! Ear-clipping triangulation and convex decomposition of a simple polygon (spine-cpp 4.2
//! `Triangulator.cpp`), with buffers reused between calls.

/// Triangulates polygons and merges the triangles into convex polygons.
///
/// Every buffer is kept between calls, so once warm a call allocates nothing.
#[derive(Debug, Default, Clone)]
pub struct Triangulator {
    indices: Vec<usize>,
    /// The vertices of `indices`, in ring order (removed with them).
    points: Vec<[f32; 2]>,
    is_concave: Vec<bool>,
    triangles: Vec<usize>,
    polygons: Vec<Vec<f32>>,
    polygon_indices: Vec<Vec<usize>>,
    /// While merging: the first two indices of each polygon that is still a triangle,
    /// [`NOT_A_TRIANGLE`] for the others.
    triangle_keys: Vec<(usize, usize)>,
    /// [`key_word`] of each of `triangle_keys`: a polygon whose key word is not among them
    /// has no triangle to merge, found without the exact scan.
    key_words: Vec<u32>,
    count: usize,
}

/// A word equal for equal keys (exact below 65,536 vertices; beyond, two keys may share a
/// word, which only costs an exact scan that finds nothing).
#[inline]
fn key_word((a, b): (usize, usize)) -> u32 {
    ((a as u32) << 16) ^ (b as u32)
}

/// Whether `word` is among `words`: sixteen compared a step, without an early exit (the
/// words of a clipping polygon's triangles fit in a few steps).
fn has_word(words: &[u32], word: u32) -> bool {
    let (steps, rest) = words.as_chunks::<16>();
    steps.iter().any(|s| s.iter().fold(false, |found, &w| found | (w == word)))
        || rest.contains(&word)
}

/// A [`Triangulator::triangle_keys`] entry no polygon matches (indices are below the
/// vertex count).
const NOT_A_TRIANGLE: (usize, usize) = (usize::MAX, usize::MAX);

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

/// Whether the ring vertex at `index` of `points` (the first `n`) is concave.
fn concave_at(points: &[[f32; 2]], index: usize, n: usize) -> bool {
    let (ax, ay) = pt(points, ring_prev(index, n));
    let (bx, by) = pt(points, index);
    let (cx, cy) = pt(points, ring_next(index, n));
    !positive_area(ax, ay, bx, by, cx, cy)
}

/// The concave ring positions: a bit set while the ring has at most 64 vertices (what
/// clipping polygons have), else the flags alone. Kept in step with `is_concave`.
#[derive(Debug, Clone, Copy)]
enum ConcaveSet {
    Bits(u64),
    Flags,
}

impl ConcaveSet {
    fn new(flags: &[bool]) -> ConcaveSet {
        if flags.len() > 64 {
            return ConcaveSet::Flags;
        }
        ConcaveSet::Bits(flags.iter().rev().fold(0, |m, &c| (m << 1) | u64::from(c)))
    }

    fn set(&mut self, k: usize, c: bool) {
        if let ConcaveSet::Bits(m) = self {
            *m = (*m & !(1 << k)) | (u64::from(c) << k);
        }
    }

    /// Position `k` removed: the positions above it move down by one.
    fn remove(&mut self, k: usize) {
        if let ConcaveSet::Bits(m) = self {
            let below = (1u64 << k) - 1;
            *m = (*m & below) | ((*m >> 1) & !below);
        }
    }
}

/// A triangle's corners, `x, y` each.
type Corners = [(f32, f32); 3];

/// Whether a concave ring vertex other than the ear's corners `previous` and `next` (the tip
/// is convex) lies in the triangle `p1, p2, p3`. spine-cpp walks the ring from `next` to
/// `previous` and stops at the first such vertex; the answer does not depend on the order,
/// so only the concave positions are visited, lowest first.
fn ear_blocked(
    points: &[[f32; 2]],
    concave: &[bool],
    set: ConcaveSet,
    previous: usize,
    next: usize,
    [(p1x, p1y), (p2x, p2y), (p3x, p3y)]: Corners,
) -> bool {
    let inside = |k: usize| {
        let (vx, vy) = pt(points, k);
        positive_area(p3x, p3y, p1x, p1y, vx, vy)
            && positive_area(p1x, p1y, p2x, p2y, vx, vy)
            && positive_area(p2x, p2y, p3x, p3y, vx, vy)
    };
    match set {
        ConcaveSet::Bits(m) => {
            let mut m = m & !(1 << previous) & !(1 << next);
            while m != 0 {
                if inside(m.trailing_zeros() as usize) {
                    return true;
                }
                m &= m - 1;
            }
            false
        }
        ConcaveSet::Flags => {
            concave.iter().enumerate().any(|(k, &c)| c && k != previous && k != next && inside(k))
        }
    }
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
        self.points.clear();
        self.points.extend_from_slice(vertices);
        self.is_concave.clear();
        for i in 0..n {
            let c = concave_at(&self.points, i, n);
            self.is_concave.push(c);
        }
        let mut set = ConcaveSet::new(&self.is_concave);
        self.triangles.clear();
        while n > 3 {
            // Find an ear tip.
            let (mut previous, mut i, mut next) = (n - 1, 0usize, 1usize);
            loop {
                let is_ear = !self.is_concave[i]
                    && !ear_blocked(
                        &self.points,
                        &self.is_concave,
                        set,
                        previous,
                        next,
                        [pt(&self.points, previous), pt(&self.points, i), pt(&self.points, next)],
                    );
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
            self.points.remove(i);
            self.is_concave.remove(i);
            set.remove(i);
            n -= 1;
            let prev_index = ring_prev(i, n);
            let next_index = if i == n { 0 } else { i };
            for k in [prev_index, next_index] {
                let c = concave_at(&self.points, k, n);
                self.is_concave[k] = c;
                set.set(k, c);
            }
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

        // Merge the remaining triangles into the fans found. The triangles still unmerged are
        // looked up by their first two indices in one flat array.
        let n = self.count;
        self.triangle_keys.clear();
        self.triangle_keys.extend(self.polygon_indices[..n].iter().map(|ix| match ix[..] {
            [a, b, _] => (a, b),
            _ => NOT_A_TRIANGLE,
        }));
        self.key_words.clear();
        self.key_words.extend(self.triangle_keys.iter().map(|&k| key_word(k)));
        for i in 0..n {
            if self.polygon_indices[i].is_empty() {
                continue;
            }
            let first_index = self.polygon_indices[i][0];
            let last_index = self.polygon_indices[i][self.polygon_indices[i].len() - 1];
            // No triangle keyed `(first, last)`: the scan below would merge nothing.
            if !has_word(&self.key_words, key_word((first_index, last_index))) {
                continue;
            }
            let p = &self.polygons[i];
            let o = p.len() - 4;
            let (mut prev_prev_x, mut prev_prev_y) = (p[o], p[o + 1]);
            let (mut prev_x, mut prev_y) = (p[o + 2], p[o + 3]);
            let (first_x, first_y, second_x, second_y) = (p[0], p[1], p[2], p[3]);
            let winding0 = winding(prev_prev_x, prev_prev_y, prev_x, prev_y, first_x, first_y);
            let mut ii = 0;
            while ii < n {
                if ii != i && self.triangle_keys[ii] == (first_index, last_index) {
                    let ol = self.polygon_indices[ii][2];
                    let op = &self.polygons[ii];
                    let (x3, y3) = (op[op.len() - 2], op[op.len() - 1]);
                    let w1 = winding(prev_prev_x, prev_prev_y, prev_x, prev_y, x3, y3);
                    let w2 = winding(x3, y3, first_x, first_y, second_x, second_y);
                    if w1 == winding0 && w2 == winding0 {
                        self.polygons[ii].clear();
                        self.polygon_indices[ii].clear();
                        self.triangle_keys[ii] = NOT_A_TRIANGLE;
                        self.key_words[ii] = key_word(NOT_A_TRIANGLE);
                        self.polygons[i].extend_from_slice(&[x3, y3]);
                        self.polygon_indices[i].push(ol);
                        self.triangle_keys[i] = NOT_A_TRIANGLE;
                        self.key_words[i] = key_word(NOT_A_TRIANGLE);
                        prev_prev_x = prev_x;
                        prev_prev_y = prev_y;
                        prev_x = x3;
                        prev_y = y3;
                        // spine-cpp sets ii = 0 and the loop increments it: the scan
                        // restarts at 1.
                        ii = 0;
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

    /// spine-cpp's ear search as it was written before the straight scan (ring walk from
    /// `next` to `previous`, first blocking vertex wins, indices into the original vertices).
    fn reference_triangulate(vertices: &[f32]) -> Vec<usize> {
        let v = vertices.as_chunks::<2>().0;
        let concave = |index: usize, n: usize, indices: &[usize]| {
            let (ax, ay) = pt(v, indices[ring_prev(index, n)]);
            let (bx, by) = pt(v, indices[index]);
            let (cx, cy) = pt(v, indices[ring_next(index, n)]);
            !positive_area(ax, ay, bx, by, cx, cy)
        };
        let mut n = v.len();
        let mut indices: Vec<usize> = (0..n).collect();
        let mut is_concave: Vec<bool> = (0..n).map(|i| concave(i, n, &indices)).collect();
        let mut triangles = Vec::new();
        while n > 3 {
            let (mut previous, mut i, mut next) = (n - 1, 0usize, 1usize);
            loop {
                let mut is_ear = false;
                if !is_concave[i] {
                    let (p1x, p1y) = pt(v, indices[previous]);
                    let (p2x, p2y) = pt(v, indices[i]);
                    let (p3x, p3y) = pt(v, indices[next]);
                    is_ear = true;
                    let mut ii = ring_next(next, n);
                    while ii != previous {
                        if is_concave[ii] {
                            let (vx, vy) = pt(v, indices[ii]);
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
                    while is_concave[i] {
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
            triangles.extend([indices[ring_prev(i, n)], indices[i], indices[ring_next(i, n)]]);
            indices.remove(i);
            is_concave.remove(i);
            n -= 1;
            let prev_index = ring_prev(i, n);
            let next_index = if i == n { 0 } else { i };
            is_concave[prev_index] = concave(prev_index, n, &indices);
            is_concave[next_index] = concave(next_index, n, &indices);
        }
        if n == 3 {
            triangles.extend([indices[2], indices[0], indices[1]]);
        }
        triangles
    }

    /// spine-cpp's `decompose` as it was written before the flat triangle lookup: the fans,
    /// then the merge scanning every polygon's index list.
    fn reference_decompose(vertices: &[f32], triangles: &[usize]) -> Vec<Vec<f32>> {
        let v = vertices.as_chunks::<2>().0;
        let (mut polygons, mut indices): (Vec<Vec<f32>>, Vec<Vec<usize>>) = (vec![], vec![]);
        let (mut fan_base, mut last_winding) = (None, 0);
        for t in triangles.chunks_exact(3) {
            let (t1, t2, t3) = (t[0], t[1], t[2]);
            let ((x1, y1), (x2, y2), (x3, y3)) = (pt(v, t1), pt(v, t2), pt(v, t3));
            let mut merged = false;
            if fan_base == Some(t1) {
                let p = polygons.last().unwrap();
                let o = p.len() - 4;
                let w1 = winding(p[o], p[o + 1], p[o + 2], p[o + 3], x3, y3);
                let w2 = winding(x3, y3, p[0], p[1], p[2], p[3]);
                if w1 == last_winding && w2 == last_winding {
                    polygons.last_mut().unwrap().extend([x3, y3]);
                    indices.last_mut().unwrap().push(t3);
                    merged = true;
                }
            }
            if !merged {
                polygons.push(vec![x1, y1, x2, y2, x3, y3]);
                indices.push(vec![t1, t2, t3]);
                last_winding = winding(x1, y1, x2, y2, x3, y3);
                fan_base = Some(t1);
            }
        }
        let n = polygons.len();
        for i in 0..n {
            if indices[i].is_empty() {
                continue;
            }
            let (first_index, last_index) = (indices[i][0], *indices[i].last().unwrap());
            let p = &polygons[i];
            let o = p.len() - 4;
            let (mut ppx, mut ppy, mut px, mut py) = (p[o], p[o + 1], p[o + 2], p[o + 3]);
            let (fx, fy, sx, sy) = (p[0], p[1], p[2], p[3]);
            let winding0 = winding(ppx, ppy, px, py, fx, fy);
            let mut ii = 0;
            while ii < n {
                if ii != i && indices[ii].len() == 3 {
                    let (of, os, ol) = (indices[ii][0], indices[ii][1], indices[ii][2]);
                    let op = &polygons[ii];
                    let (x3, y3) = (op[op.len() - 2], op[op.len() - 1]);
                    if of == first_index && os == last_index {
                        let w1 = winding(ppx, ppy, px, py, x3, y3);
                        let w2 = winding(x3, y3, fx, fy, sx, sy);
                        if w1 == winding0 && w2 == winding0 {
                            polygons[ii].clear();
                            indices[ii].clear();
                            polygons[i].extend([x3, y3]);
                            indices[i].push(ol);
                            (ppx, ppy, px, py) = (px, py, x3, y3);
                            ii = 0;
                        }
                    }
                }
                ii += 1;
            }
        }
        polygons.retain(|p| !p.is_empty());
        polygons
    }

    #[test]
    fn same_ears_and_convex_parts_as_the_reference() {
        // Star-shaped polygons (many concave vertices), both windings, some with repeated
        // and collinear points, and unconstrained random rings (self-intersecting); up to 92
        // vertices, past the 64 of the bit set.
        let mut rng = crate::test_rng::Rng(0x9e37_79b9_7f4a_7c15);
        let mut t = Triangulator::new();
        for case in 0..3000 {
            let n = 3 + (rng.bits() % 90) as usize;
            let mut poly = Vec::with_capacity(2 * n);
            for k in 0..n {
                let (x, y) = if case % 3 == 2 {
                    (rng.range(-50.0, 50.0), rng.range(-50.0, 50.0))
                } else {
                    let a = k as f32 / n as f32 * std::f32::consts::TAU;
                    let r = if rng.bits().is_multiple_of(7) { 20.0 } else { rng.range(5.0, 40.0) };
                    (r * a.cos(), r * a.sin())
                };
                poly.extend([x.round(), y]);
            }
            if case % 2 == 1 {
                let pairs: Vec<[f32; 2]> = poly.as_chunks::<2>().0.iter().rev().copied().collect();
                poly = pairs.concat();
            }
            let triangles = reference_triangulate(&poly);
            assert_eq!(t.triangulate(&poly), &triangles[..], "case {case}");
            t.decompose(&poly);
            assert_eq!(t.polygons(), &reference_decompose(&poly, &triangles)[..], "case {case}");
        }
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
