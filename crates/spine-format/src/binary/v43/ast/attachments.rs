//! Attachments: regions, meshes (weighted or not), linked meshes, bounding boxes, paths,
//! points, clipping polygons, and their sequences.

use super::*;

/// An attachment record.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Attachment {
    /// Raw flag byte: low 3 bits = type (must match `kind`), 8 = name follows, other bits
    /// per type (documented on each body).
    pub flags: u8,
    /// Attachment name; present iff `flags & 8` (else the placeholder name).
    pub name: Option<StrRef>,
    /// Type-specific body.
    pub kind: AttachmentKind,
}

/// Attachment bodies by type (`flags & 7`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum AttachmentKind {
    /// 0
    Region(RegionAttachment),
    /// 1
    BoundingBox(BoundingBoxAttachment),
    /// 2
    Mesh(MeshAttachment),
    /// 3
    LinkedMesh(LinkedMeshAttachment),
    /// 4
    Path(PathAttachment),
    /// 5
    Point(PointAttachment),
    /// 6
    Clipping(ClippingAttachment),
}

impl AttachmentKind {
    /// The type code (`flags & 7`).
    pub fn type_code(&self) -> u8 {
        match self {
            AttachmentKind::Region(_) => 0,
            AttachmentKind::BoundingBox(_) => 1,
            AttachmentKind::Mesh(_) => 2,
            AttachmentKind::LinkedMesh(_) => 3,
            AttachmentKind::Path(_) => 4,
            AttachmentKind::Point(_) => 5,
            AttachmentKind::Clipping(_) => 6,
        }
    }
}

/// An explicit sequence record (attachment flag 64).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct Sequence {
    /// Frame count.
    pub count: u32,
    /// First frame number.
    pub start: u32,
    /// Zero-pad width.
    pub digits: u32,
    /// Setup-pose frame.
    pub setup_index: u32,
}

/// Region attachment. Flags: 16 path, 32 color, 64 sequence, 128 rotation.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct RegionAttachment {
    /// Iff `flags & 16` (else the name).
    pub path: Option<StrRef>,
    /// Iff `flags & 32` (else white).
    pub color: Option<[u8; 4]>,
    /// Iff `flags & 64` (else an implicit one-frame sequence without suffix, gotcha 6).
    pub sequence: Option<Sequence>,
    /// Iff `flags & 128` (else 0).
    pub rotation: Option<f32>,
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
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct BoneWeight {
    /// Bone index.
    pub bone: u32,
    /// Bind x (scaled).
    pub x: f32,
    /// Bind y (scaled).
    pub y: f32,
    /// Weight.
    pub weight: f32,
}

/// A vertices record (mesh, bounding box, path, clipping).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum Vertices {
    /// Interleaved x, y (scaled); length = 2 × vertex count.
    Unweighted(Vec<f32>),
    /// Per vertex, its bone influences, flat. On the wire: vertex count, `bonesLength`
    /// (= vertex count + total influences, gotcha 9), then each vertex's influences.
    Weighted(WeightedVertices),
}

/// Weighted vertices: vertex `i` has `counts[i]` influences, stored consecutively (in vertex
/// order) in `bones` and `values` — the layout of the model's weighted vertices (three
/// allocations per attachment instead of one per vertex; a loader that owns the tree moves
/// these buffers instead of copying them).
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
    /// The flat form of the influences of each vertex, in order.
    pub fn from_groups<G, I>(groups: G) -> Self
    where
        G: IntoIterator<Item = I>,
        I: IntoIterator<Item = BoneWeight>,
    {
        let mut w = WeightedVertices::default();
        for g in groups {
            let mut n = 0u32;
            for b in g {
                w.bones.push(b.bone);
                w.values.extend_from_slice(&[b.x, b.y, b.weight]);
                n += 1;
            }
            w.counts.push(n);
        }
        w
    }

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

impl Default for Vertices {
    fn default() -> Self {
        Vertices::Unweighted(Vec::new())
    }
}

impl Vertices {
    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        match self {
            Vertices::Unweighted(v) => v.len() / 2,
            Vertices::Weighted(v) => v.counts.len(),
        }
    }
    /// `verticesLength` = 2 × vertex count (the world vertices length).
    pub fn world_length(&self) -> usize {
        self.vertex_count() * 2
    }
    /// The wire `bonesLength` of a weighted record (0 when unweighted).
    pub fn bones_length(&self) -> usize {
        match self {
            Vertices::Unweighted(_) => 0,
            Vertices::Weighted(v) => v.counts.iter().map(|&n| n as usize + 1).sum(),
        }
    }
    /// Whether the record is weighted.
    pub fn is_weighted(&self) -> bool {
        matches!(self, Vertices::Weighted(_))
    }
}

/// Bounding box attachment. Flags: 16 weighted.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct BoundingBoxAttachment {
    /// Polygon.
    pub vertices: Vertices,
    /// Nonessential color.
    pub color: Option<[u8; 4]>,
}

/// Nonessential mesh fields.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct MeshExtras {
    /// Edge indices.
    pub edges: Vec<u32>,
    /// Width (scaled).
    pub width: f32,
    /// Height (scaled).
    pub height: f32,
}

/// Mesh attachment. Flags: 16 path, 32 color, 64 sequence, 128 weighted.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct MeshAttachment {
    /// Iff `flags & 16`.
    pub path: Option<StrRef>,
    /// Iff `flags & 32`.
    pub color: Option<[u8; 4]>,
    /// Iff `flags & 64`.
    pub sequence: Option<Sequence>,
    /// Hull vertex count as on the wire (undoubled; gotcha 1).
    pub hull_length: u32,
    /// Vertices.
    pub vertices: Vertices,
    /// Region UVs, `world_length()` floats (unscaled).
    pub uvs: Vec<f32>,
    /// Triangle indices, `(world_length - hull_length - 2) * 3` of them.
    pub triangles: Vec<u32>,
    /// Extra slots whose timelines this mesh follows.
    pub timeline_slots: Vec<u32>,
    /// Nonessential edges and size.
    pub nonessential: Option<MeshExtras>,
}

/// Linked mesh attachment. Flags: 16 path, 32 color, 64 sequence, 128 inherit timelines.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct LinkedMeshAttachment {
    /// Iff `flags & 16`.
    pub path: Option<StrRef>,
    /// Iff `flags & 32`.
    pub color: Option<[u8; 4]>,
    /// Iff `flags & 64`.
    pub sequence: Option<Sequence>,
    /// Slot of the source mesh (gotcha 10).
    pub source_slot: u32,
    /// Skin of the source mesh (default skin = 0 when present).
    pub skin: u32,
    /// Placeholder name of the source mesh.
    pub source: StrRef,
    /// Nonessential width and height (scaled).
    pub size: Option<[f32; 2]>,
}

/// Path attachment. Flags: 16 closed, 32 constant speed, 64 weighted.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct PathAttachment {
    /// Control points.
    pub vertices: Vertices,
    /// Segment lengths (scaled), `world_length / 6` of them.
    pub lengths: Vec<f32>,
    /// Nonessential color.
    pub color: Option<[u8; 4]>,
}

/// Point attachment.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct PointAttachment {
    /// Rotation.
    pub rotation: f32,
    /// X (scaled).
    pub x: f32,
    /// Y (scaled).
    pub y: f32,
    /// Nonessential color.
    pub color: Option<[u8; 4]>,
}

/// Clipping attachment. Flags: 16 weighted, 32 convex, 64 inverse.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct ClippingAttachment {
    /// Slot where clipping ends.
    pub end_slot: u32,
    /// Polygon.
    pub vertices: Vertices,
    /// Nonessential color.
    pub color: Option<[u8; 4]>,
}
