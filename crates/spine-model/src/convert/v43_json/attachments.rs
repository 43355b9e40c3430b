//! Skin attachments both ways, one function per attachment type. An attachment's flag
//! byte holds its type code, 8 when it has a name, and (bits 16–128) which optional values
//! its type carries.

use spine_format::binary::v43 as w;
use spine_format::binary::StrRef;
use spine_format::json as j1;
use spine_format::json43 as j;

use super::context::{FromJson, ToJson};
use super::{seq_from_json, seq_to_json, vertices_to_json};
use crate::convert::common::split_weighted;
use crate::convert::json_common::{
    attachment_bits, check_triangles, default_skin_index, editor_color, some_if,
    BOUNDING_BOX_COLOR, CLIPPING_COLOR, PATH_COLOR, POINT_COLOR,
};
use crate::error::ProblemKind;

/// A linked mesh that inherits the timelines of a mesh in another slot: the skin, the
/// source mesh's slot, the source mesh's name and the linked mesh's slot.
pub(super) type TimelineSlot = (u32, u32, StrRef, u32);

// ---------------------------------------------------------------------------------------
// Binary → JSON
// ---------------------------------------------------------------------------------------

/// The attachments of a skin, by slot.
pub(super) fn skin_slots_to_json(c: &ToJson<'_>, slots: &[w::SkinSlot]) -> Vec<j::SkinSlot> {
    slots
        .iter()
        .map(|sl| j::SkinSlot {
            slot: c.slot(sl.slot),
            attachments: sl.attachments.iter().map(|e| attachment_to_json(c, sl.slot, e)).collect(),
        })
        .collect()
}

fn attachment_to_json(c: &ToJson<'_>, slot: u32, e: &w::SkinEntry) -> j::Attachment {
    use j1::AttachmentType as T;
    let a = &e.attachment;
    let key = c.text(e.placeholder).unwrap_or_default();
    let (declared_type, kind) = match &a.kind {
        w::AttachmentKind::Region(r) => (None, region_to_json(c, r)),
        w::AttachmentKind::BoundingBox(b) => (
            Some(T::BoundingBox),
            j::AttachmentKind::BoundingBox {
                vertex_count: b.vertices.vertex_count() as u32,
                vertices: vertices_to_json(&b.vertices),
                color: b.color,
            },
        ),
        w::AttachmentKind::Mesh(m) => (Some(T::Mesh), mesh_to_json(c, m)),
        w::AttachmentKind::LinkedMesh(l) => {
            (Some(T::LinkedMesh), linked_mesh_to_json(c, slot, a.flags, l))
        }
        w::AttachmentKind::Path(p) => (
            Some(T::Path),
            j::AttachmentKind::Path {
                closed: (a.flags & 16 != 0).then_some(true),
                constant_speed: (a.flags & 32 == 0).then_some(false),
                vertex_count: p.vertices.vertex_count() as u32,
                vertices: vertices_to_json(&p.vertices),
                lengths: p.lengths.clone(),
                color: p.color,
            },
        ),
        w::AttachmentKind::Point(p) => (
            Some(T::Point),
            j::AttachmentKind::Point {
                x: some_if(p.x, 0.0),
                y: some_if(p.y, 0.0),
                rotation: some_if(p.rotation, 0.0),
                color: p.color,
            },
        ),
        w::AttachmentKind::Clipping(k) => (
            Some(T::Clipping),
            j::AttachmentKind::Clipping {
                end: Some(c.slot(k.end_slot)),
                convex: (a.flags & 32 != 0).then_some(true),
                inverse: (a.flags & 64 != 0).then_some(true),
                vertex_count: k.vertices.vertex_count() as u32,
                vertices: vertices_to_json(&k.vertices),
                color: k.color,
            },
        ),
    };
    j::Attachment { key, name: a.name.and_then(|n| c.text(n)), declared_type, kind }
}

fn region_to_json(c: &ToJson<'_>, r: &w::RegionAttachment) -> j::AttachmentKind {
    j::AttachmentKind::Region {
        path: r.path.and_then(|p| c.text(p)),
        x: some_if(r.x, 0.0),
        y: some_if(r.y, 0.0),
        scale_x: some_if(r.scale_x, 1.0),
        scale_y: some_if(r.scale_y, 1.0),
        rotation: r.rotation,
        width: r.width,
        height: r.height,
        color: r.color,
        sequence: seq_to_json(&r.sequence),
    }
}

fn mesh_to_json(c: &ToJson<'_>, m: &w::MeshAttachment) -> j::AttachmentKind {
    j::AttachmentKind::Mesh {
        path: m.path.and_then(|p| c.text(p)),
        color: m.color,
        width: m.nonessential.as_ref().map(|e| e.width),
        height: m.nonessential.as_ref().map(|e| e.height),
        sequence: seq_to_json(&m.sequence),
        uvs: m.uvs.clone(),
        vertices: vertices_to_json(&m.vertices),
        triangles: m.triangles.clone(),
        hull: Some(m.hull_length),
        edges: m.nonessential.as_ref().map(|e| e.edges.clone()),
    }
}

/// A linked mesh in `slot` (its attachment flags say whether it inherits timelines).
fn linked_mesh_to_json(
    c: &ToJson<'_>,
    slot: u32,
    flags: u8,
    l: &w::LinkedMeshAttachment,
) -> j::AttachmentKind {
    j::AttachmentKind::LinkedMesh {
        path: l.path.and_then(|p| c.text(p)),
        color: l.color,
        width: l.size.map(|s| s[0]),
        height: l.size.map(|s| s[1]),
        sequence: seq_to_json(&l.sequence),
        source: c.text(l.source).unwrap_or_default(),
        slot: (l.source_slot != slot).then(|| c.slot(l.source_slot)),
        skin: {
            let default = c.s.default_skin.is_some() && l.skin == 0;
            (!default).then(|| c.skin(l.skin))
        },
        timelines: (flags & 128 == 0).then_some(false),
    }
}

// ---------------------------------------------------------------------------------------
// JSON → binary
// ---------------------------------------------------------------------------------------

/// The attachments of a JSON skin, by slot; linked meshes that inherit the timelines of a
/// mesh in another slot are added to `timeline_slots`.
pub(super) fn skin_slots_from_json(
    c: &mut FromJson<'_>,
    k: &j::Skin,
    ne: bool,
    timeline_slots: &mut Vec<TimelineSlot>,
) -> Vec<w::SkinSlot> {
    let mut out = Vec::with_capacity(k.slots.len());
    for sl in &k.slots {
        c.p.enter("slot", &sl.slot);
        let slot = c.slot(&sl.slot);
        let mut attachments = Vec::with_capacity(sl.attachments.len());
        for a in &sl.attachments {
            c.p.enter("attachment", &a.key);
            let placeholder = c.strings.get(&a.key);
            let name = a.name.as_deref().map(|n| c.strings.get(n));
            let (bits, kind) = match &a.kind {
                j::AttachmentKind::LinkedMesh { .. } => {
                    linked_mesh_from_json(c, &a.kind, slot, ne, timeline_slots)
                }
                _ => attachment_from_json(c, &a.kind, ne),
            };
            let flags = (if name.is_some() { 8 } else { 0 }) | bits;
            attachments.push(w::SkinEntry {
                placeholder,
                attachment: w::Attachment { flags: flags | kind.type_code(), name, kind },
            });
            c.p.pop();
        }
        out.push(w::SkinSlot { slot, attachments });
        c.p.pop();
    }
    out
}

/// An attachment other than a linked mesh, and its flag bits 16–128.
fn attachment_from_json(
    c: &mut FromJson<'_>,
    kind: &j::AttachmentKind,
    ne: bool,
) -> (u8, w::AttachmentKind) {
    match kind {
        j::AttachmentKind::Region { .. } => region_from_json(c, kind),
        j::AttachmentKind::BoundingBox { vertex_count, vertices, color } => {
            let vertices = vertices_from_json(c, *vertex_count as usize, vertices);
            let bits = attachment_bits([vertices.is_weighted(), false, false, false]);
            let color = editor_color(ne, *color, BOUNDING_BOX_COLOR);
            (bits, w::AttachmentKind::BoundingBox(w::BoundingBoxAttachment { vertices, color }))
        }
        j::AttachmentKind::Mesh { .. } => mesh_from_json(c, kind, ne),
        j::AttachmentKind::Path {
            closed,
            constant_speed,
            vertex_count,
            vertices,
            lengths,
            color,
        } => {
            let vertices = vertices_from_json(c, *vertex_count as usize, vertices);
            let bits = attachment_bits([
                closed.unwrap_or(false),
                constant_speed.unwrap_or(true),
                vertices.is_weighted(),
                false,
            ]);
            let mut lengths = lengths.clone();
            lengths.resize(*vertex_count as usize / 3, 0.0);
            let color = editor_color(ne, *color, PATH_COLOR);
            (bits, w::AttachmentKind::Path(w::PathAttachment { vertices, lengths, color }))
        }
        j::AttachmentKind::Point { x, y, rotation, color } => {
            let point = w::PointAttachment {
                rotation: rotation.unwrap_or(0.0),
                x: x.unwrap_or(0.0),
                y: y.unwrap_or(0.0),
                color: editor_color(ne, *color, POINT_COLOR),
            };
            (0, w::AttachmentKind::Point(point))
        }
        j::AttachmentKind::Clipping { end, convex, inverse, vertex_count, vertices, color } => {
            let vertices = vertices_from_json(c, *vertex_count as usize, vertices);
            let bits = attachment_bits([
                vertices.is_weighted(),
                convex.unwrap_or(false),
                inverse.unwrap_or(false),
                false,
            ]);
            let end_slot = match end {
                Some(n) => c.slot(n),
                None => c.s.slots.len().saturating_sub(1) as u32,
            };
            let color = editor_color(ne, *color, CLIPPING_COLOR);
            (bits, w::AttachmentKind::Clipping(w::ClippingAttachment { end_slot, vertices, color }))
        }
        j::AttachmentKind::LinkedMesh { .. } => unreachable!("linked meshes are read apart"),
    }
}

fn region_from_json(c: &mut FromJson<'_>, kind: &j::AttachmentKind) -> (u8, w::AttachmentKind) {
    let j::AttachmentKind::Region {
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
    } = kind
    else {
        unreachable!("dispatched on the attachment kind")
    };
    let path = path.as_deref().map(|p| c.strings.get(p));
    let sequence = seq_from_json(sequence);
    let bits =
        attachment_bits([path.is_some(), color.is_some(), sequence.is_some(), rotation.is_some()]);
    let region = w::RegionAttachment {
        path,
        color: *color,
        sequence,
        rotation: *rotation,
        x: x.unwrap_or(0.0),
        y: y.unwrap_or(0.0),
        scale_x: scale_x.unwrap_or(1.0),
        scale_y: scale_y.unwrap_or(1.0),
        width: *width,
        height: *height,
    };
    (bits, w::AttachmentKind::Region(region))
}

fn mesh_from_json(
    c: &mut FromJson<'_>,
    kind: &j::AttachmentKind,
    ne: bool,
) -> (u8, w::AttachmentKind) {
    let j::AttachmentKind::Mesh {
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
    } = kind
    else {
        unreachable!("dispatched on the attachment kind")
    };
    let path = path.as_deref().map(|p| c.strings.get(p));
    let sequence = seq_from_json(sequence);
    let vertices = vertices_from_json(c, uvs.len() / 2, vertices);
    // The binary format stores no triangle count: it is implied by the vertex and hull
    // counts, as for every triangulated editor mesh.
    check_triangles(&mut c.p, uvs.len(), hull.unwrap_or(0), triangles.len());
    let bits = attachment_bits([
        path.is_some(),
        color.is_some(),
        sequence.is_some(),
        vertices.is_weighted(),
    ]);
    let mesh = w::MeshAttachment {
        path,
        color: *color,
        sequence,
        hull_length: hull.unwrap_or(0),
        vertices,
        uvs: uvs.clone(),
        triangles: triangles.clone(),
        timeline_slots: Vec::new(),
        nonessential: ne.then(|| w::MeshExtras {
            edges: edges.clone().unwrap_or_default(),
            width: width.unwrap_or(0.0),
            height: height.unwrap_or(0.0),
        }),
    };
    (bits, w::AttachmentKind::Mesh(mesh))
}

/// A linked mesh in `slot`; one that inherits the timelines of a mesh in another slot is
/// added to `timeline_slots`.
fn linked_mesh_from_json(
    c: &mut FromJson<'_>,
    kind: &j::AttachmentKind,
    slot: u32,
    ne: bool,
    timeline_slots: &mut Vec<TimelineSlot>,
) -> (u8, w::AttachmentKind) {
    let j::AttachmentKind::LinkedMesh {
        path,
        color,
        width,
        height,
        sequence,
        source,
        slot: source_slot,
        skin,
        timelines,
    } = kind
    else {
        unreachable!("dispatched on the attachment kind")
    };
    let path = path.as_deref().map(|p| c.strings.get(p));
    let sequence = seq_from_json(sequence);
    let inherit = timelines.unwrap_or(true);
    let bits = attachment_bits([path.is_some(), color.is_some(), sequence.is_some(), inherit]);
    let source_slot = match source_slot {
        Some(n) => c.slot(n),
        None => slot,
    };
    let skin = match skin {
        Some(n) => c.skin(n),
        None => default_skin_index(&c.skins, &mut c.p),
    };
    let source = c.strings.get(source);
    if inherit && source_slot != slot {
        timeline_slots.push((skin, source_slot, source, slot));
    }
    let linked = w::LinkedMeshAttachment {
        path,
        color: *color,
        sequence,
        source_slot,
        skin,
        source,
        size: ne.then(|| [width.unwrap_or(0.0), height.unwrap_or(0.0)]),
    };
    (bits, w::AttachmentKind::LinkedMesh(linked))
}

/// Binary vertices from a JSON array of `vertex_count` vertices, unweighted or weighted
/// (a weighted bone index out of range is reported).
fn vertices_from_json(c: &mut FromJson<'_>, vertex_count: usize, v: &[f32]) -> w::Vertices {
    if vertex_count.checked_mul(2) == Some(v.len()) {
        return w::Vertices::Unweighted(v.to_vec());
    }
    match split_weighted(v) {
        Some(list) if list.len() == vertex_count => {
            let nb = c.s.bones.len() as u32;
            let mut bad = false;
            let out = w::WeightedVertices::from_groups(list.into_iter().map(|v| {
                v.into_iter()
                    .map(|(bone, x, y, weight)| {
                        bad |= bone >= nb;
                        w::BoneWeight { bone, x, y, weight }
                    })
                    .collect::<Vec<_>>()
            }));
            if bad {
                c.p.report(ProblemKind::Invalid("weighted vertex bone index out of range".into()));
            }
            w::Vertices::Weighted(out)
        }
        _ => {
            c.p.report(ProblemKind::Invalid(format!(
                "{} vertex values are neither {vertex_count} unweighted vertices nor weighted ones",
                v.len()
            )));
            w::Vertices::Unweighted(Vec::new())
        }
    }
}
