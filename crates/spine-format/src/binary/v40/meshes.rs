//! 4.2 meshes lent to a loader as they are read, instead of a vector per array in the AST:
//! for a loader that copies the arrays into its own storage anyway
//! ([`stream::parse_head_meshes`](super::stream::parse_head_meshes)). A rig of two hundred
//! weighted meshes otherwise allocates (and later frees) six vectors a mesh for the AST
//! alone.

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

impl MeshRef<'_> {
    /// The arrays as the AST holds them (exactly sized copies): vertices, UVs, triangles,
    /// edges.
    pub(crate) fn to_owned_arrays(self) -> (super::ast::Vertices, Vec<f32>, Vec<u32>, Vec<u32>) {
        let vertices = if self.weighted {
            super::ast::Vertices::Weighted(super::ast::WeightedVertices {
                counts: self.counts.to_vec(),
                bones: self.bones.to_vec(),
                values: self.values.to_vec(),
            })
        } else {
            super::ast::Vertices::Plain(self.values.to_vec())
        };
        (vertices, self.uvs.to_vec(), self.triangles.to_vec(), self.edges.to_vec())
    }
}

/// Receives each mesh's arrays, in reading order (the default skin first, then each skin's
/// slots and attachments as the file lists them).
pub type MeshSink = Box<dyn FnMut(MeshRef<'_>)>;

/// The reader's buffers for one mesh, reused for the next (capacity kept).
#[derive(Debug, Default)]
pub(crate) struct MeshScratch {
    /// Whether the vertices are weighted.
    pub weighted: bool,
    /// Vertex values: the first `values_len` are the mesh's (the weighted fast path writes
    /// by index and uses the length as its capacity).
    pub values: Vec<f32>,
    /// How many of `values` are the mesh's.
    pub values_len: usize,
    /// Influence counts.
    pub counts: Vec<u32>,
    /// Bones of the influences: the first `bones_len` (written like `values`).
    pub bones: Vec<u32>,
    /// How many of `bones` are the mesh's.
    pub bones_len: usize,
    /// UVs.
    pub uvs: Vec<f32>,
    /// Triangles.
    pub triangles: Vec<u32>,
    /// Edges.
    pub edges: Vec<u32>,
}

impl MeshScratch {
    /// Empty, for the next mesh (capacity kept; `values` and `bones` keep their lengths,
    /// which the weighted fast path uses as sizes).
    pub fn clear(&mut self) {
        self.weighted = false;
        self.values_len = 0;
        self.bones_len = 0;
        self.counts.clear();
        self.uvs.clear();
        self.triangles.clear();
        self.edges.clear();
    }

    /// The mesh read, borrowed.
    pub fn lend(&self) -> MeshRef<'_> {
        MeshRef {
            weighted: self.weighted,
            values: self.values.get(..self.values_len).unwrap_or_default(),
            counts: &self.counts,
            bones: self.bones.get(..self.bones_len).unwrap_or_default(),
            uvs: &self.uvs,
            triangles: &self.triangles,
            edges: &self.edges,
        }
    }
}
