//! Skin attachments (`skins[i].attachments.<slot>.<key>`): regions, meshes and linked
//! meshes, bounding boxes, paths, points, clipping polygons, and their sequences.

use super::common::{attachment_kind_readers, read_sequence, vertex_count, vertices};
use super::value::{Obj, R};
use super::AttachmentType;
use crate::SpineVersion;
use serde::Serialize;

/// A sequence of numbered regions (`sequence`, 4.1+).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Sequence {
    /// `count` (required).
    pub count: i32,
    /// `start` (default 1).
    pub start: Option<i32>,
    /// `digits` (default 0).
    pub digits: Option<i32>,
    /// `setup` index (default 0).
    pub setup: Option<i32>,
}

/// Vertices of bounding boxes, paths, clipping polygons and meshes, as written: `x, y` pairs
/// when unweighted, else per vertex `boneCount, (bone, x, y, weight) × boneCount`. They are
/// weighted when their count differs from `vertexCount × 2` (meshes: the `uvs` length).
pub type Vertices = Vec<f32>;

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
        /// `sequence` (4.1+).
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
    /// `mesh` (or `linkedmesh`) without `parent`.
    Mesh {
        /// `path` (default: the attachment name).
        path: Option<String>,
        /// `color` (default white).
        color: Option<[u8; 4]>,
        /// `width` (nonessential; default 0).
        width: Option<f32>,
        /// `height` (nonessential; default 0).
        height: Option<f32>,
        /// `sequence` (4.1+).
        sequence: Option<Sequence>,
        /// `uvs` (required).
        uvs: Vec<f32>,
        /// `vertices` (required; weighted when its length differs from `uvs`).
        vertices: Vertices,
        /// `triangles` (required).
        triangles: Vec<u32>,
        /// `hull` vertex count.
        hull: Option<u32>,
        /// `edges` (nonessential).
        edges: Option<Vec<u32>>,
    },
    /// `mesh` or `linkedmesh` with a `parent`.
    LinkedMesh {
        /// `path` (default: the attachment name).
        path: Option<String>,
        /// `color` (default white).
        color: Option<[u8; 4]>,
        /// `width` (nonessential; default 0).
        width: Option<f32>,
        /// `height` (nonessential; default 0).
        height: Option<f32>,
        /// `sequence` (4.1+).
        sequence: Option<Sequence>,
        /// `parent` mesh name (required here).
        parent: String,
        /// `skin` of the parent (default: the default skin).
        skin: Option<String>,
        /// `deform` (≤4.0) / `timelines` (4.1+): use the parent's timelines (default true).
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
        /// `vertexCount` (required).
        vertex_count: u32,
        /// `vertices` (required).
        vertices: Vertices,
        /// `color` (nonessential).
        color: Option<[u8; 4]>,
    },
}

attachment_kind_readers!(read_sequence);

/// The attachment `key` of a skin slot, read as `ver` spells it.
pub(super) fn read_attachment(key: &str, o: &Obj, ver: SpineVersion) -> R<Attachment> {
    let declared_type = o.opt("type", AttachmentType::read)?;
    let color = o.color("color")?;
    let kind = match declared_type.unwrap_or(AttachmentType::Region) {
        AttachmentType::Region => region(o, color)?,
        AttachmentType::BoundingBox => bounding_box(o, color)?,
        AttachmentType::Mesh | AttachmentType::LinkedMesh => match o.string("parent")? {
            Some(parent) => linked_mesh(o, color, parent, ver)?,
            None => mesh(o, color)?,
        },
        AttachmentType::Path => path(o, color)?,
        AttachmentType::Point => point(o, color)?,
        AttachmentType::Clipping => clipping(o, color)?,
    };
    Ok(Attachment { key: key.to_owned(), name: o.string("name")?, declared_type, kind })
}

/// A `mesh` or `linkedmesh` with a `parent`.
fn linked_mesh(
    o: &Obj,
    color: Option<[u8; 4]>,
    parent: String,
    ver: SpineVersion,
) -> R<AttachmentKind> {
    Ok(AttachmentKind::LinkedMesh {
        path: o.string("path")?,
        color,
        width: o.f32("width")?,
        height: o.f32("height")?,
        sequence: o.opt("sequence", read_sequence)?,
        parent,
        skin: o.string("skin")?,
        timelines: o.bool(if ver >= SpineVersion::V4_1 { "timelines" } else { "deform" })?,
    })
}

/// `clipping`.
fn clipping(o: &Obj, color: Option<[u8; 4]>) -> R<AttachmentKind> {
    let end = o.string("end")?;
    let vertex_count = vertex_count(o)?;
    Ok(AttachmentKind::Clipping {
        end,
        vertex_count,
        vertices: vertices(o, vertex_count as usize)?,
        color,
    })
}
