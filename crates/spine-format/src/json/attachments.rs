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

/// An attachment of a skin. Its strings are `String`s in the AST, and borrowed (`&str`) in
/// what a [`super::SkinSink`] is lent.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Attachment<S = String> {
    /// The key in the skin's slot map (the skin placeholder name).
    pub key: S,
    /// `name` (default: the key).
    pub name: Option<S>,
    /// `type` as written (default `region`).
    pub declared_type: Option<AttachmentType>,
    /// The type-specific data.
    pub kind: AttachmentKind<S>,
}

/// Type-specific attachment data (strings as in [`Attachment`]).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum AttachmentKind<S = String> {
    /// `region`.
    Region {
        /// `path` (default: the attachment name).
        path: Option<S>,
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
        path: Option<S>,
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
        path: Option<S>,
        /// `color` (default white).
        color: Option<[u8; 4]>,
        /// `width` (nonessential; default 0).
        width: Option<f32>,
        /// `height` (nonessential; default 0).
        height: Option<f32>,
        /// `sequence` (4.1+).
        sequence: Option<Sequence>,
        /// `parent` mesh name (required here).
        parent: S,
        /// `skin` of the parent (default: the default skin).
        skin: Option<S>,
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
        end: Option<S>,
        /// `vertexCount` (required).
        vertex_count: u32,
        /// `vertices` (required).
        vertices: Vertices,
        /// `color` (nonessential).
        color: Option<[u8; 4]>,
    },
}

attachment_kind_readers!(read_sequence, S);

/// The attachment `key` of a skin slot, read as `ver` spells it, its strings made `S`s.
pub(super) fn read_attachment<'a, S: From<&'a str>>(
    key: &'a str,
    o: &Obj<'a>,
    ver: SpineVersion,
) -> R<Attachment<S>> {
    let declared_type = o.opt("type", AttachmentType::read)?;
    let color = o.color("color")?;
    let kind = match declared_type.unwrap_or(AttachmentType::Region) {
        AttachmentType::Region => region(o, color)?,
        AttachmentType::BoundingBox => bounding_box(o, color)?,
        AttachmentType::Mesh | AttachmentType::LinkedMesh => match o.text("parent")? {
            Some(parent) => linked_mesh(o, color, parent, ver)?,
            None => mesh(o, color)?,
        },
        AttachmentType::Path => path(o, color)?,
        AttachmentType::Point => point(o, color)?,
        AttachmentType::Clipping => clipping(o, color)?,
    };
    Ok(Attachment { key: S::from(key), name: o.text("name")?, declared_type, kind })
}

/// A `mesh` or `linkedmesh` with a `parent`.
fn linked_mesh<'a, S: From<&'a str>>(
    o: &Obj<'a>,
    color: Option<[u8; 4]>,
    parent: S,
    ver: SpineVersion,
) -> R<AttachmentKind<S>> {
    Ok(AttachmentKind::LinkedMesh {
        path: o.text("path")?,
        color,
        width: o.f32("width")?,
        height: o.f32("height")?,
        sequence: o.opt("sequence", read_sequence)?,
        parent,
        skin: o.text("skin")?,
        timelines: o.bool(if ver >= SpineVersion::V4_1 { "timelines" } else { "deform" })?,
    })
}

/// `clipping`.
fn clipping<'a, S: From<&'a str>>(o: &Obj<'a>, color: Option<[u8; 4]>) -> R<AttachmentKind<S>> {
    let end = o.text("end")?;
    let vertex_count = vertex_count(o)?;
    Ok(AttachmentKind::Clipping {
        end,
        vertex_count,
        vertices: vertices(o, vertex_count as usize)?,
        color,
    })
}

impl Attachment<&str> {
    /// The attachment with its strings owned (what the AST holds).
    pub fn into_owned(self) -> Attachment {
        Attachment {
            key: self.key.to_owned(),
            name: self.name.map(str::to_owned),
            declared_type: self.declared_type,
            kind: self.kind.into_owned(),
        }
    }
}

impl AttachmentKind<&str> {
    /// The data with its strings owned (what the AST holds).
    pub fn into_owned(self) -> AttachmentKind {
        use AttachmentKind as K;
        let own = |s: Option<&str>| s.map(str::to_owned);
        match self {
            K::Region {
                path,
                x,
                y,
                scale_x,
                scale_y,
                rotation,
                width,
                height,
                color,
                sequence,
            } => {
                let path = own(path);
                K::Region { path, x, y, scale_x, scale_y, rotation, width, height, color, sequence }
            }
            K::BoundingBox { vertex_count, vertices, color } => {
                K::BoundingBox { vertex_count, vertices, color }
            }
            K::Mesh {
                path,
                color,
                width,
                height,
                sequence,
                uvs,
                vertices,
                triangles,
                hull,
                edges,
            } => K::Mesh {
                path: own(path),
                color,
                width,
                height,
                sequence,
                uvs,
                vertices,
                triangles,
                hull,
                edges,
            },
            K::LinkedMesh { path, color, width, height, sequence, parent, skin, timelines } => {
                K::LinkedMesh {
                    path: own(path),
                    color,
                    width,
                    height,
                    sequence,
                    parent: parent.to_owned(),
                    skin: own(skin),
                    timelines,
                }
            }
            K::Path { closed, constant_speed, vertex_count, vertices, lengths, color } => {
                K::Path { closed, constant_speed, vertex_count, vertices, lengths, color }
            }
            K::Point { x, y, rotation, color } => K::Point { x, y, rotation, color },
            K::Clipping { end, vertex_count, vertices, color } => {
                K::Clipping { end: own(end), vertex_count, vertices, color }
            }
        }
    }
}

impl Attachment {
    /// The attachment lent with borrowed strings: its arrays moved out (`self` keeps empty
    /// ones), its strings borrowed.
    pub fn lend(&mut self) -> Attachment<&str> {
        use std::mem::take;
        use AttachmentKind as K;
        let kind = match &mut self.kind {
            K::Region {
                path,
                x,
                y,
                scale_x,
                scale_y,
                rotation,
                width,
                height,
                color,
                sequence,
            } => K::Region {
                path: path.as_deref(),
                x: *x,
                y: *y,
                scale_x: *scale_x,
                scale_y: *scale_y,
                rotation: *rotation,
                width: *width,
                height: *height,
                color: *color,
                sequence: sequence.clone(),
            },
            K::BoundingBox { vertex_count, vertices, color } => K::BoundingBox {
                vertex_count: *vertex_count,
                vertices: take(vertices),
                color: *color,
            },
            K::Mesh {
                path,
                color,
                width,
                height,
                sequence,
                uvs,
                vertices,
                triangles,
                hull,
                edges,
            } => K::Mesh {
                path: path.as_deref(),
                color: *color,
                width: *width,
                height: *height,
                sequence: sequence.clone(),
                uvs: take(uvs),
                vertices: take(vertices),
                triangles: take(triangles),
                hull: *hull,
                edges: take(edges),
            },
            K::LinkedMesh { path, color, width, height, sequence, parent, skin, timelines } => {
                K::LinkedMesh {
                    path: path.as_deref(),
                    color: *color,
                    width: *width,
                    height: *height,
                    sequence: sequence.clone(),
                    parent: parent.as_str(),
                    skin: skin.as_deref(),
                    timelines: *timelines,
                }
            }
            K::Path { closed, constant_speed, vertex_count, vertices, lengths, color } => K::Path {
                closed: *closed,
                constant_speed: *constant_speed,
                vertex_count: *vertex_count,
                vertices: take(vertices),
                lengths: take(lengths),
                color: *color,
            },
            K::Point { x, y, rotation, color } => {
                K::Point { x: *x, y: *y, rotation: *rotation, color: *color }
            }
            K::Clipping { end, vertex_count, vertices, color } => K::Clipping {
                end: end.as_deref(),
                vertex_count: *vertex_count,
                vertices: take(vertices),
                color: *color,
            },
        };
        Attachment {
            key: self.key.as_str(),
            name: self.name.as_deref(),
            declared_type: self.declared_type,
            kind,
        }
    }
}
