//! Vertices: weighted and unweighted vertex buffers checked and scaled, deform keys made
//! whole, and the mesh consistency check every source shares.

use super::Builder;
use crate::data::*;
use crate::error::ProblemKind;

impl Builder<'_> {
    /// Converts checked weighted vertices: `(bone, x, y, weight)` per influence, per vertex.
    /// Bind positions are scaled.
    pub fn weighted<I, V>(&mut self, vertices: I) -> Vertices
    where
        I: IntoIterator<Item = V>,
        V: IntoIterator<Item = (u32, f32, f32, f32)>,
    {
        let vertices = vertices.into_iter();
        // Reserve for the usual one to three influences per vertex (no regrowth per push).
        let n = vertices.size_hint().0;
        self.weighted_with_capacity(vertices, n * 2)
    }

    /// [`Builder::weighted`] when the total number of influences is known (exact buffers).
    pub fn weighted_with_capacity<I, V>(&mut self, vertices: I, influences: usize) -> Vertices
    where
        I: IntoIterator<Item = V>,
        V: IntoIterator<Item = (u32, f32, f32, f32)>,
    {
        let (mut counts, mut wbones, mut values) = std::mem::take(&mut self.weighted_scratch);
        counts.clear();
        wbones.clear();
        values.clear();
        let vertices = vertices.into_iter();
        counts.reserve(vertices.size_hint().0);
        wbones.reserve(influences);
        values.reserve(influences * 3);
        for v in vertices {
            let mut n = 0;
            for (bone, x, y, weight) in v {
                n += 1;
                let b = self.bone(bone);
                wbones.push(b.0);
                let x = self.fs("vertex x", x);
                let y = self.fs("vertex y", y);
                let weight = self.f("vertex weight", weight);
                values.extend_from_slice(&[x, y, weight]);
            }
            counts.push(n);
        }
        let w = WeightedVertices::from_words(&counts, &wbones, &values, 1.0);
        self.weighted_scratch = (counts, wbones, values);
        Vertices::Weighted(w)
    }

    /// Converts unweighted vertices (scaled).
    pub fn unweighted(&mut self, xy: &[f32]) -> Vertices {
        Vertices::Unweighted(xy.iter().map(|&v| self.fs("vertex", v)).collect())
    }

    /// Checks a deform key range and builds the full deform array of a key:
    /// `None` values = setup (zeros for weighted, setup vertices for unweighted); otherwise
    /// zeros with the scaled values written from `start`, plus the setup vertices when
    /// unweighted (spine-cpp 4.2 `SkeletonBinary` deform reading).
    pub fn deform_key(
        &mut self,
        key: usize,
        vertices: &Vertices,
        values: Option<(u32, &[f32])>,
    ) -> Vec<f32> {
        let len = vertices.deform_length();
        let setup: &[f32] = match vertices {
            Vertices::Unweighted(v) => v,
            Vertices::Weighted(_) => &[],
        };
        let mut out = vec![0.0; len];
        if let Some((start, vals)) = values {
            let end = u64::from(start) + vals.len() as u64;
            if end > len as u64 {
                self.report(ProblemKind::DeformOutOfRange {
                    key,
                    start: u64::from(start),
                    end,
                    len,
                });
                return out;
            }
            for (o, &v) in out[start as usize..].iter_mut().zip(vals) {
                *o = v * self.scale;
            }
            for &v in &out {
                if !v.is_finite() {
                    self.report(ProblemKind::NonFinite { field: "deform value", value: v });
                    break;
                }
            }
            for (o, s) in out.iter_mut().zip(setup) {
                *o += s;
            }
        } else {
            for (o, s) in out.iter_mut().zip(setup) {
                *o = *s;
            }
        }
        out
    }
}

impl Builder<'_> {
    /// Whether weighted vertices given as flat buffers have nothing to report
    /// ([`weighted_parts_valid`] against this skeleton's bones and scale).
    pub fn weighted_ok(&self, counts: &[u32], bones: &[u32], values: &[f32]) -> bool {
        weighted_parts_valid(counts, bones, values, self.data.bones.len(), self.scale)
    }

    /// Weighted vertices from flat buffers that passed [`Builder::weighted_ok`], packed
    /// into one allocation: positions scaled, bone indices taken as ids.
    pub fn weighted_packed(&self, counts: &[u32], bones: &[u32], values: &[f32]) -> Vertices {
        Vertices::Weighted(WeightedVertices::from_words(counts, bones, values, self.scale))
    }

    /// [`Builder::unweighted`] of a buffer the caller gives away: scaled in place (same
    /// values, same problems).
    pub fn unweighted_owned(&mut self, mut xy: Vec<f32>) -> Vertices {
        for v in &mut xy {
            *v = self.fs("vertex", *v);
        }
        Vertices::Unweighted(xy)
    }
}

/// Whether weighted vertices, as the three flat buffers (`counts`, `bones`, `values`) of
/// any generation, have nothing to report (the counts cover exactly the influences, every
/// bone index is in range, every scaled value is finite): then their buffers are taken as
/// they are (positions scaled by [`scale_xy`]); otherwise the caller goes through
/// [`Builder::weighted_with_capacity`], which reports each problem. The values are those
/// the checked path computes (`x * scale`, `y * scale`, `weight`).
fn weighted_parts_valid(
    counts: &[u32],
    wbones: &[u32],
    values: &[f32],
    bones: usize,
    scale: f32,
) -> bool {
    let total: u64 = counts.iter().map(|&n| u64::from(n)).sum();
    if total != wbones.len() as u64 || values.len() != wbones.len() * 3 {
        return false;
    }
    // Branch-free passes (no early exit: the common case is all valid).
    use crate::curves::non_finite_bit;
    let mut bad = 0u32;
    if scale == 1.0 {
        // `v * 1.0` is finite exactly when `v` is: one flat pass (vectorised).
        bad = values.iter().fold(0, |acc, &v| acc | non_finite_bit(v));
    } else {
        for v in values.chunks_exact(3) {
            bad |=
                non_finite_bit(v[0] * scale) | non_finite_bit(v[1] * scale) | non_finite_bit(v[2]);
        }
    }
    // Every bone index below `bones`: a flag OR-ed over the indices, which the compiler
    // vectorises (a running maximum of `u32` it does not without SSE4.1's `pmaxud`: it was
    // two thirds of this function's instructions).
    let in_range = match u32::try_from(bones) {
        Ok(limit) => wbones.iter().fold(0u32, |acc, &b| acc | u32::from(b >= limit)) == 0,
        Err(_) => true,
    };
    bad & 0x8000_0000 == 0 && in_range
}

/// Mesh consistency: one UV pair per vertex, triangle indices in range, hull within.
pub(crate) fn check_mesh_parts(
    b: &mut Builder<'_>,
    vertices: &Vertices,
    uvs: &[f32],
    triangles: &[u32],
    hull: u32,
) {
    let n = vertices.vertex_count();
    if !triangles.len().is_multiple_of(3) {
        b.report(ProblemKind::Invalid(format!(
            "{} triangle indices, not a multiple of 3",
            triangles.len()
        )));
    }
    if uvs.len() != n * 2 {
        b.report(ProblemKind::Invalid(format!("{} UVs for {n} vertices", uvs.len())));
    }
    // The largest index first (a branch-free pass), the first one out of range only if it is.
    let max = triangles.iter().fold(0, |m, &t| m.max(t));
    if !triangles.is_empty() && max as usize >= n {
        if let Some(&t) = triangles.iter().find(|&&t| t as usize >= n) {
            b.report(ProblemKind::IndexOutOfRange {
                what: "triangle vertex",
                index: u64::from(t),
                len: n,
            });
        }
    }
    if hull as usize > n {
        b.report(ProblemKind::IndexOutOfRange {
            what: "hull length",
            index: u64::from(hull),
            len: n + 1,
        });
    }
}
