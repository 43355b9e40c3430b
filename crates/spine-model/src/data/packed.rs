//! Vertex and mesh arrays packed into one allocation each: a weighted attachment's counts,
//! bones and values ([`WeightedVertices`]), a mesh's UVs, triangles and edges
//! ([`MeshArrays`]). A rig of two hundred weighted meshes made seven allocations a mesh
//! with one `Vec` per array; packed it makes two (loading, and dropping, does far less
//! work in the allocator). Read through the typed slices; nothing is interpreted.

use crate::ids::BoneId;

/// Words of `f32`s (their bits) and `u32`s side by side.
#[inline]
fn floats(words: &[u32]) -> &[f32] {
    bytemuck::cast_slice(words)
}

/// Mutable [`floats`].
#[inline]
fn floats_mut(words: &mut [u32]) -> &mut [f32] {
    bytemuck::cast_slice_mut(words)
}

/// Weighted vertices, flat: for each vertex its number of influences, for each influence
/// (vertex after vertex) its bone and its `x, y, weight` (bind position in bone space).
/// One allocation holds the three arrays.
#[derive(Clone, Default)]
pub struct WeightedVertices {
    /// `counts`, then `bones`, then `values` (as bits).
    words: Box<[u32]>,
    /// Length of `counts`.
    counts: u32,
    /// Length of `bones`.
    bones: u32,
}

impl WeightedVertices {
    /// Weighted vertices from their three arrays (copied; lengths as given: the loaders
    /// check that `counts` sums to `bones.len()` and that `values` holds three per bone).
    pub fn new(counts: &[u32], bones: &[BoneId], values: &[f32]) -> WeightedVertices {
        WeightedVertices::from_words(counts, bytemuck::cast_slice(bones), values, 1.0)
    }

    /// From raw bone indices (already checked in range), positions scaled: `x * scale`,
    /// `y * scale`, `weight` as it is. `scale` 1 copies the values bit for bit.
    pub(crate) fn from_words(
        counts: &[u32],
        bones: &[u32],
        values: &[f32],
        scale: f32,
    ) -> WeightedVertices {
        let (c, b) = (counts.len(), bones.len());
        let mut words = Vec::with_capacity(c + b + values.len());
        words.extend_from_slice(counts);
        words.extend_from_slice(bones);
        if scale == 1.0 {
            words.extend_from_slice(bytemuck::cast_slice(values));
        } else {
            let mut k = 0;
            words.extend(values.iter().map(|&v| {
                let v = if k == 2 { v } else { v * scale };
                k = if k == 2 { 0 } else { k + 1 };
                v.to_bits()
            }));
        }
        WeightedVertices {
            words: words.into_boxed_slice(),
            counts: u32::try_from(c).unwrap_or(u32::MAX),
            bones: u32::try_from(b).unwrap_or(u32::MAX),
        }
    }

    /// From raw bone indices (checked later: [`crate::build`]'s `weighted_ok`), values as
    /// they are.
    pub(crate) fn from_raw(counts: &[u32], bones: &[u32], values: &[f32]) -> WeightedVertices {
        WeightedVertices::from_words(counts, bones, values, 1.0)
    }

    /// Scales the positions (`x, y` of each `x, y, weight`) in place; nothing for 1.
    pub(crate) fn scale_positions(&mut self, scale: f32) {
        if scale == 1.0 {
            return;
        }
        let start = (self.counts + self.bones) as usize;
        for v in floats_mut(&mut self.words[start..]).chunks_exact_mut(3) {
            v[0] *= scale;
            v[1] *= scale;
        }
    }

    /// Number of vertices (the length of [`WeightedVertices::counts`]).
    #[inline]
    pub fn vertex_count(&self) -> usize {
        self.counts as usize
    }

    /// Number of influences (the length of [`WeightedVertices::bones`]).
    #[inline]
    pub fn influence_count(&self) -> usize {
        self.bones as usize
    }

    /// Number of influences of each vertex.
    #[inline]
    pub fn counts(&self) -> &[u32] {
        &self.words[..self.counts as usize]
    }

    /// The bone of each influence, vertex after vertex.
    #[inline]
    pub fn bones(&self) -> &[BoneId] {
        let c = self.counts as usize;
        bytemuck::cast_slice(&self.words[c..c + self.bones as usize])
    }

    /// `x, y, weight` of each influence (bind position in bone space).
    #[inline]
    pub fn values(&self) -> &[f32] {
        floats(&self.words[(self.counts + self.bones) as usize..])
    }
}

impl PartialEq for WeightedVertices {
    fn eq(&self, o: &WeightedVertices) -> bool {
        self.counts() == o.counts() && self.bones() == o.bones() && self.values() == o.values()
    }
}

impl std::fmt::Debug for WeightedVertices {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WeightedVertices")
            .field("counts", &self.counts())
            .field("bones", &self.bones())
            .field("values", &self.values())
            .finish()
    }
}

/// Whether a mesh's page UVs have room, and whether they were written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum Page {
    /// No room (no atlas).
    #[default]
    None,
    /// Room reserved, not written yet.
    Reserved,
    /// Written.
    Bound,
}

/// A mesh's arrays in one allocation: texture coordinates relative to the region
/// (`u, v` per vertex), triangles (vertex indices), the editor's edges, and, once the
/// mesh is bound to an atlas region, the texture coordinates mapped into the page.
#[derive(Clone, Default)]
pub struct MeshArrays {
    /// `region_uvs` (bits), `triangles`, `edges`, then the page UVs (bits) when there is
    /// room for them.
    words: Box<[u32]>,
    /// End of `region_uvs` (its length, and the page UVs').
    uvs: u32,
    /// End of `triangles`.
    triangles_end: u32,
    /// End of `edges` (where the page UVs start).
    edges_end: u32,
    /// The page UVs' state.
    page: Page,
}

impl MeshArrays {
    /// A mesh's arrays (copied), without page UVs.
    pub fn new(region_uvs: &[f32], triangles: &[u32], edges: &[u32]) -> MeshArrays {
        MeshArrays::with_room(region_uvs, triangles, edges, false)
    }

    /// [`MeshArrays::new`], with room for the page UVs when `page` (a loader that binds
    /// an atlas reserves it: binding then writes in place).
    pub(crate) fn with_room(
        region_uvs: &[f32],
        triangles: &[u32],
        edges: &[u32],
        page: bool,
    ) -> MeshArrays {
        let (u, t, e) = (region_uvs.len(), triangles.len(), edges.len());
        let total = u + t + e + if page { u } else { 0 };
        let mut words = Vec::with_capacity(total);
        words.extend_from_slice(bytemuck::cast_slice(region_uvs));
        words.extend_from_slice(triangles);
        words.extend_from_slice(edges);
        words.resize(total, 0);
        let len = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        MeshArrays {
            words: words.into_boxed_slice(),
            uvs: len(u),
            triangles_end: len(u + t),
            edges_end: len(u + t + e),
            page: if page { Page::Reserved } else { Page::None },
        }
    }

    /// Start of the page UVs.
    fn page_start(&self) -> usize {
        self.edges_end as usize
    }

    /// Texture coordinates `u, v` per vertex, relative to the region.
    #[inline]
    pub fn region_uvs(&self) -> &[f32] {
        floats(&self.words[..self.uvs as usize])
    }

    /// Triangles (vertex indices).
    #[inline]
    pub fn triangles(&self) -> &[u32] {
        &self.words[self.uvs as usize..self.triangles_end as usize]
    }

    /// Editor edges (nonessential; empty when the export has none).
    #[inline]
    pub fn edges(&self) -> &[u32] {
        &self.words[self.triangles_end as usize..self.edges_end as usize]
    }

    /// The region UVs mapped into the atlas page (`MeshAttachment::updateRegion`), `None`
    /// until the mesh is bound to a region.
    #[inline]
    pub fn uvs(&self) -> Option<&[f32]> {
        match self.page {
            Page::Bound => Some(floats(&self.words[self.page_start()..])),
            _ => None,
        }
    }

    /// Writes the page UVs: `fill(region_uvs, page_uvs)` (the page UVs as long as the
    /// region UVs). In place when room was reserved, else the arrays grow once.
    pub fn bind_page_uvs(&mut self, fill: impl FnOnce(&[f32], &mut [f32])) {
        if self.page == Page::None {
            let mut words = std::mem::take(&mut self.words).into_vec();
            words.resize(words.len() + self.uvs as usize, 0);
            self.words = words.into_boxed_slice();
        }
        let start = self.page_start();
        let (head, page) = self.words.split_at_mut(start);
        fill(floats(&head[..self.uvs as usize]), floats_mut(page));
        self.page = Page::Bound;
    }
}

impl PartialEq for MeshArrays {
    fn eq(&self, o: &MeshArrays) -> bool {
        self.region_uvs() == o.region_uvs()
            && self.triangles() == o.triangles()
            && self.edges() == o.edges()
            && self.uvs() == o.uvs()
    }
}

impl std::fmt::Debug for MeshArrays {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MeshArrays")
            .field("region_uvs", &self.region_uvs())
            .field("triangles", &self.triangles())
            .field("edges", &self.edges())
            .field("uvs", &self.uvs())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weighted_arrays_read_back_as_given_and_scale_positions_only() {
        let w = WeightedVertices::from_words(&[2, 1], &[0, 3, 1], &[1.0; 9], 2.0);
        assert_eq!(w.counts(), &[2, 1]);
        assert_eq!(w.bones(), &[BoneId(0), BoneId(3), BoneId(1)]);
        assert_eq!(w.values(), &[2.0, 2.0, 1.0, 2.0, 2.0, 1.0, 2.0, 2.0, 1.0]);
        let same = WeightedVertices::new(w.counts(), w.bones(), w.values());
        assert_eq!(same, w);
        assert_eq!(WeightedVertices::default().values(), &[] as &[f32]);
    }

    #[test]
    fn page_uvs_bind_in_reserved_room_or_grow_once() {
        let uvs = [0.0, 0.5, 1.0, 0.25];
        for room in [true, false] {
            let mut m = MeshArrays::with_room(&uvs, &[0, 1, 0], &[0, 1], room);
            assert_eq!(m.uvs(), None);
            m.bind_page_uvs(|r, p| {
                for (p, r) in p.iter_mut().zip(r) {
                    *p = r * 2.0;
                }
            });
            assert_eq!(m.region_uvs(), &uvs);
            assert_eq!(m.triangles(), &[0, 1, 0]);
            assert_eq!(m.edges(), &[0, 1]);
            assert_eq!(m.uvs(), Some(&[0.0, 1.0, 2.0, 0.5][..]));
        }
    }
}
