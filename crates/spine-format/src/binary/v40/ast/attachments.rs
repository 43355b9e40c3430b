//! Attachments: regions, meshes (weighted or not), linked meshes, bounding boxes, paths,
//! points, clipping polygons, and their sequences.

use super::*;

/// An attachment.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Attachment {
    /// Before 4.2: the type byte. In 4.2: the raw flags byte, type in bits 0–2, bit 8 name
    /// on the wire, and per-type bits (see each kind). The writer writes this byte as is.
    pub flags: u8,
    /// Attachment name; [`StrRef::NONE`] means "same as the key" (and, in 4.2, that bit 8 is
    /// clear).
    pub name: StrRef,
    /// The type-specific data.
    pub kind: AttachmentKind,
}

/// Attachment type codes.
pub mod attachment_type {
    /// Region.
    pub const REGION: u8 = 0;
    /// Bounding box.
    pub const BOUNDING_BOX: u8 = 1;
    /// Mesh.
    pub const MESH: u8 = 2;
    /// Linked mesh.
    pub const LINKED_MESH: u8 = 3;
    /// Path.
    pub const PATH: u8 = 4;
    /// Point.
    pub const POINT: u8 = 5;
    /// Clipping.
    pub const CLIPPING: u8 = 6;
}

/// Type-specific attachment data.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum AttachmentKind {
    /// A textured quad.
    Region(Region),
    /// A polygon for hit tests.
    BoundingBox(VertexShape),
    /// A textured mesh.
    Mesh(Mesh),
    /// A mesh sharing another mesh's geometry (unresolved).
    LinkedMesh(LinkedMesh),
    /// A bezier path.
    Path(PathAttachment),
    /// A point.
    Point(Point),
    /// A clipping polygon.
    Clipping(Clipping),
}

/// An image sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Sequence {
    /// Number of regions.
    pub count: u32,
    /// First frame number.
    pub start: u32,
    /// Zero-padding digits.
    pub digits: u32,
    /// Setup frame index.
    pub setup_index: u32,
}

/// A region attachment. In 4.2 the flag bits are 16 path, 32 color, 64 sequence,
/// 128 rotation; absent fields hold the loader's defaults.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Region {
    /// Image path ([`StrRef::NONE`] = the name).
    pub path: StrRef,
    /// Color, RGBA (`ffffffff` when absent in 4.2).
    pub color: [u8; 4],
    /// Sequence (4.1+).
    pub sequence: Option<Sequence>,
    /// Rotation (0 when absent in 4.2).
    pub rotation: f32,
    /// X (scaled).
    pub x: f32,
    /// Y (scaled).
    pub y: f32,
    /// Scale x.
    pub scale_x: f32,
    /// Scale y.
    pub scale_y: f32,
    /// Width (scaled).
    pub width: f32,
    /// Height (scaled).
    pub height: f32,
}

/// One bone influence of a weighted vertex.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct BoneWeight {
    /// Bone index.
    pub bone: u32,
    /// X in bone space (scaled).
    pub x: f32,
    /// Y in bone space (scaled).
    pub y: f32,
    /// Weight.
    pub weight: f32,
}

/// Attachment vertices.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum Vertices {
    /// Unweighted: `x, y` per vertex (scaled).
    Plain(Vec<f32>),
    /// Weighted: the influences of each vertex, flat (two allocations per attachment
    /// instead of one per vertex).
    Weighted(WeightedVertices),
}

/// Weighted vertices: vertex `i` has `counts[i]` influences, stored consecutively (in vertex
/// order) in `bones` and `values` — the layout of the model's weighted vertices, so a loader
/// that owns the tree moves these buffers instead of copying them.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct WeightedVertices {
    /// Number of influences of each vertex.
    pub counts: Vec<u32>,
    /// The bone index of every influence, vertex after vertex.
    pub bones: Vec<u32>,
    /// `x, y, weight` of every influence (`x`, `y` in bone space), vertex after vertex.
    pub values: Vec<f32>,
}

impl WeightedVertices {
    /// Number of influences.
    pub fn influence_count(&self) -> usize {
        self.bones.len()
    }

    /// Influence `i`, or `None` past the end of `bones` or `values`.
    pub fn influence(&self, i: usize) -> Option<BoneWeight> {
        let bone = *self.bones.get(i)?;
        let v = self.values.get(i * 3..i * 3 + 3)?;
        Some(BoneWeight { bone, x: v[0], y: v[1], weight: v[2] })
    }

    /// The influences of each vertex, in order (a count that overruns the influences ends
    /// its vertex early, which the parser never produces).
    pub fn groups(&self) -> impl Iterator<Item = impl Iterator<Item = BoneWeight> + '_> + '_ {
        let mut start = 0usize;
        self.counts.iter().map(move |&n| {
            let end = start.saturating_add(n as usize);
            let group = (start..end).map_while(|i| self.influence(i));
            start = end;
            group
        })
    }
}

impl Vertices {
    /// Number of vertices.
    pub fn count(&self) -> usize {
        match self {
            Vertices::Plain(v) => v.len() / 2,
            Vertices::Weighted(v) => v.counts.len(),
        }
    }

    /// Whether the vertices are weighted.
    pub fn is_weighted(&self) -> bool {
        matches!(self, Vertices::Weighted(_))
    }
}

/// A bounding box: vertices and (nonessential) color. In 4.2 flag 16 means weighted.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct VertexShape {
    /// Vertices.
    pub vertices: Vertices,
    /// Editor color (nonessential).
    pub color: Option<[u8; 4]>,
}

/// A mesh attachment. In 4.2 the flag bits are 16 path, 32 color, 64 sequence, 128 weighted.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Mesh {
    /// Image path ([`StrRef::NONE`] = the name).
    pub path: StrRef,
    /// Color, RGBA (`ffffffff` when absent in 4.2).
    pub color: [u8; 4],
    /// Sequence (4.1+).
    pub sequence: Option<Sequence>,
    /// Texture coordinates, `u, v` per vertex.
    pub uvs: Vec<f32>,
    /// Triangle vertex indices (16-bit before 4.2, varints in 4.2; the count is implied by
    /// the vertex and hull counts in 4.2).
    pub triangles: Vec<u32>,
    /// Vertices.
    pub vertices: Vertices,
    /// Hull vertex count.
    pub hull: u32,
    /// Nonessential fields.
    pub extras: Option<MeshExtras>,
}

/// Nonessential mesh fields.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MeshExtras {
    /// Edge vertex-index pairs (16-bit before 4.2, varints in 4.2).
    pub edges: Vec<u32>,
    /// Width (scaled).
    pub width: f32,
    /// Height (scaled).
    pub height: f32,
}

/// Which skin a linked mesh's parent is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum SkinRef {
    /// By name (4.0, 4.1); [`StrRef::NONE`] is the default skin.
    Name(StrRef),
    /// By skin index (4.2).
    Index(u32),
}

/// A linked mesh, recorded unresolved. In 4.2 the flag bits are 16 path, 32 color,
/// 64 sequence, 128 inherit timelines.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LinkedMesh {
    /// Image path ([`StrRef::NONE`] = the name).
    pub path: StrRef,
    /// Color, RGBA (`ffffffff` when absent in 4.2).
    pub color: [u8; 4],
    /// Sequence (4.1+).
    pub sequence: Option<Sequence>,
    /// The skin holding the parent mesh.
    pub skin: SkinRef,
    /// The parent mesh's skin key.
    pub parent: StrRef,
    /// Whether deform (and 4.1+ sequence) timelines of the parent apply.
    pub inherit_timelines: bool,
    /// Width and height (scaled, nonessential).
    pub size: Option<[f32; 2]>,
}

/// A path attachment. In 4.2 the flag bits are 16 closed, 32 constant speed, 64 weighted.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PathAttachment {
    /// Closed.
    pub closed: bool,
    /// Constant speed.
    pub constant_speed: bool,
    /// Vertices.
    pub vertices: Vertices,
    /// Curve lengths (scaled), one per 3 vertices.
    pub lengths: Vec<f32>,
    /// Editor color (nonessential).
    pub color: Option<[u8; 4]>,
}

/// A point attachment.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Point {
    /// Rotation.
    pub rotation: f32,
    /// X (scaled).
    pub x: f32,
    /// Y (scaled).
    pub y: f32,
    /// Editor color (nonessential).
    pub color: Option<[u8; 4]>,
}

/// A clipping attachment. In 4.2 flag 16 means weighted.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Clipping {
    /// Slot index where clipping ends.
    pub end_slot: u32,
    /// Vertices.
    pub vertices: Vertices,
    /// Editor color (nonessential).
    pub color: Option<[u8; 4]>,
}
