//! 4.2 meshes lent to a loader as they are read, instead of a vector per array in the AST:
//! for a loader that copies the arrays into its own storage anyway
//! ([`stream::parse_head_meshes`](super::stream::parse_head_meshes)). A rig of two hundred
//! weighted meshes otherwise allocates (and later frees) six vectors a mesh for the AST
//! alone.

use std::ops::Range;

/// One mesh's arrays as read (unscaled; bone indices raw, checked against the bone count
/// only), borrowed from buffers the reader reuses for the next mesh.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeshRef<'a> {
    /// Whether the vertices are weighted.
    pub weighted: bool,
    /// `x, y` per vertex (unweighted) or `x, y, weight` per influence (weighted).
    pub values: &'a [f32],
    /// Influences per vertex (empty when unweighted).
    pub counts: &'a [u32],
    /// The bone of each influence, vertex after vertex (empty when unweighted).
    pub bones: &'a [u32],
    /// Texture coordinates, `u, v` per vertex.
    pub uvs: &'a [f32],
    /// Triangle vertex indices.
    pub triangles: &'a [u32],
    /// Editor edges (empty without nonessential data).
    pub edges: &'a [u32],
}

/// Receives each mesh's arrays, in reading order (the default skin first, then each skin's
/// slots and attachments as the file lists them).
pub type MeshSink = Box<dyn FnMut(MeshRef<'_>)>;

/// The reader's buffers for one mesh: its arrays appended to two vectors, where each is.
#[derive(Debug, Default)]
pub(crate) struct MeshScratch {
    /// Float arrays: vertex values, UVs.
    pub floats: Vec<f32>,
    /// Integer arrays: counts, bones, triangles, edges.
    pub ints: Vec<u32>,
    /// Whether the vertices are weighted.
    pub weighted: bool,
    /// Ranges of `floats`.
    pub values: Range<usize>,
    /// Ranges of `floats`.
    pub uvs: Range<usize>,
    /// Ranges of `ints`.
    pub counts: Range<usize>,
    /// Ranges of `ints`.
    pub bones: Range<usize>,
    /// Ranges of `ints`.
    pub triangles: Range<usize>,
    /// Ranges of `ints`.
    pub edges: Range<usize>,
}

impl MeshScratch {
    /// Empty, for the next mesh (capacity kept).
    pub fn clear(&mut self) {
        let (floats, ints) = (std::mem::take(&mut self.floats), std::mem::take(&mut self.ints));
        *self = MeshScratch { floats, ints, ..MeshScratch::default() };
        self.floats.clear();
        self.ints.clear();
    }

    /// The mesh read, borrowed.
    pub fn lend(&self) -> MeshRef<'_> {
        let f = |r: &Range<usize>| self.floats.get(r.clone()).unwrap_or_default();
        let i = |r: &Range<usize>| self.ints.get(r.clone()).unwrap_or_default();
        MeshRef {
            weighted: self.weighted,
            values: f(&self.values),
            counts: i(&self.counts),
            bones: i(&self.bones),
            uvs: f(&self.uvs),
            triangles: i(&self.triangles),
            edges: i(&self.edges),
        }
    }
}
