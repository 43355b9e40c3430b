//! Skin attachments (`skins[i].attachments.<slot>.<key>`): regions, meshes and linked
//! meshes (naming their `source`), bounding boxes, paths, points and clipping polygons
//! (`convex`, `inverse`).

use crate::json::common::{
    attachment_kind_readers, read_sequence_count_default, vertex_count, vertices,
};
use crate::json::value::{Obj, R};
use crate::json::{AttachmentType, Sequence, Vertices};
use serde::Serialize;

/// An attachment of a skin.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Attachment {
    /// The key in the skin's slot map (the skin placeholder name).
    pub key: String,
    /// `name` (default: the key).
    pub name: Option<String>,
    /// `type` as written (default `region`).
    pub declared_type: Option<AttachmentType>,
    /// The type-specific data.
    pub kind: AttachmentKind,
}

/// Type-specific attachment data.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum AttachmentKind {
    /// `region`.
    Region {
        /// `path` (default: the attachment name).
        path: Option<String>,
        /// `x` (default 0).
        x: Option<f32>,
        /// `y` (default 0).
        y: Option<f32>,
        /// `scaleX` (default 1).
        scale_x: Option<f32>,
        /// `scaleY` (default 1).
        scale_y: Option<f32>,
        /// `rotation` (default 0).
        rotation: Option<f32>,
        /// `width` (required).
        width: f32,
        /// `height` (required).
        height: f32,
        /// `color` (default white).
        color: Option<[u8; 4]>,
        /// `sequence` (`count` default 0).
        sequence: Option<Sequence>,
    },
    /// `boundingbox`.
    BoundingBox {
        /// `vertexCount` (required).
        vertex_count: u32,
        /// `vertices` (required).
        vertices: Vertices,
        /// `color` (nonessential).
        color: Option<[u8; 4]>,
    },
    /// `mesh` (or `linkedmesh`) without `source`.
    Mesh {
        /// `path` (default: the attachment name).
        path: Option<String>,
        /// `color` (default white).
        color: Option<[u8; 4]>,
        /// `width` (nonessential; default 0).
        width: Option<f32>,
        /// `height` (nonessential; default 0).
        height: Option<f32>,
        /// `sequence`.
        sequence: Option<Sequence>,
        /// `uvs` (required).
        uvs: Vec<f32>,
        /// `vertices` (required; weighted when its length differs from `uvs`).
        vertices: Vertices,
        /// `triangles` (required).
        triangles: Vec<u32>,
        /// `hull` vertex count (default 0).
        hull: Option<u32>,
        /// `edges` (nonessential).
        edges: Option<Vec<u32>>,
    },
    /// `mesh` or `linkedmesh` with a `source`.
    LinkedMesh {
        /// `path` (default: the attachment name).
        path: Option<String>,
        /// `color` (default white).
        color: Option<[u8; 4]>,
        /// `width` (nonessential; default 0).
        width: Option<f32>,
        /// `height` (nonessential; default 0).
        height: Option<f32>,
        /// `sequence`.
        sequence: Option<Sequence>,
        /// `source` mesh placeholder name (required here).
        source: String,
        /// `slot` of the source mesh (default: this attachment's slot).
        slot: Option<String>,
        /// `skin` of the source mesh (default: the default skin).
        skin: Option<String>,
        /// `timelines`: use the source's deform and sequence timelines (default true).
        timelines: Option<bool>,
    },
    /// `path`.
    Path {
        /// `closed` (default false).
        closed: Option<bool>,
        /// `constantSpeed` (default true).
        constant_speed: Option<bool>,
        /// `vertexCount` (required).
        vertex_count: u32,
        /// `vertices` (required).
        vertices: Vertices,
        /// `lengths` (required; one per curve, `vertexCount / 3`).
        lengths: Vec<f32>,
        /// `color` (nonessential).
        color: Option<[u8; 4]>,
    },
    /// `point`.
    Point {
        /// `x` (default 0).
        x: Option<f32>,
        /// `y` (default 0).
        y: Option<f32>,
        /// `rotation` (default 0).
        rotation: Option<f32>,
        /// `color` (nonessential).
        color: Option<[u8; 4]>,
    },
    /// `clipping`.
    Clipping {
        /// `end` slot name.
        end: Option<String>,
        /// `convex` (default false).
        convex: Option<bool>,
        /// `inverse` (default false).
        inverse: Option<bool>,
        /// `vertexCount` (required).
        vertex_count: u32,
        /// `vertices` (required).
        vertices: Vertices,
        /// `color` (nonessential).
        color: Option<[u8; 4]>,
    },
}

attachment_kind_readers!(read_sequence_count_default);

/// The attachment `key` of a skin slot.
pub(super) fn read_attachment(key: &str, o: &Obj) -> R<Attachment> {
    let declared_type = o.opt("type", AttachmentType::read)?;
    let color = o.color("color")?;
    let kind = match declared_type.unwrap_or(AttachmentType::Region) {
        AttachmentType::Region => region(o, color)?,
        AttachmentType::BoundingBox => bounding_box(o, color)?,
        AttachmentType::Mesh | AttachmentType::LinkedMesh => match o.string("source")? {
            Some(source) => linked_mesh(o, color, source)?,
            None => mesh(o, color)?,
        },
        AttachmentType::Path => path(o, color)?,
        AttachmentType::Point => point(o, color)?,
        AttachmentType::Clipping => clipping(o, color)?,
    };
    Ok(Attachment { key: key.to_owned(), name: o.string("name")?, declared_type, kind })
}

/// A `mesh` or `linkedmesh` with a `source`.
fn linked_mesh(o: &Obj, color: Option<[u8; 4]>, source: String) -> R<AttachmentKind> {
    Ok(AttachmentKind::LinkedMesh {
        path: o.string("path")?,
        color,
        width: o.f32("width")?,
        height: o.f32("height")?,
        sequence: o.opt("sequence", read_sequence_count_default)?,
        source,
        slot: o.string("slot")?,
        skin: o.string("skin")?,
        timelines: o.bool("timelines")?,
    })
}

/// `clipping`.
fn clipping(o: &Obj, color: Option<[u8; 4]>) -> R<AttachmentKind> {
    let (end, convex, inverse) = (o.string("end")?, o.bool("convex")?, o.bool("inverse")?);
    let vertex_count = vertex_count(o)?;
    Ok(AttachmentKind::Clipping {
        end,
        convex,
        inverse,
        vertex_count,
        vertices: vertices(o, vertex_count as usize)?,
        color,
    })
}
