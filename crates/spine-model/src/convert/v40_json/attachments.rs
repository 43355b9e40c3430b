//! Skin attachments both ways, one function per attachment type. A 4.2 attachment's flag
//! byte holds its type code and which optional values it carries; before 4.2 it is the
//! type code alone.

use spine_format::binary::v40::ast as w;
use spine_format::binary::StrRef;
use spine_format::json as j;

use super::context::{FromJson, ToJson};
use super::{seq_from_json, seq_to_json, vertices_to_json};
use crate::convert::json_common::{
    attachment_bits, check_triangles, default_skin_index, editor_color, some_if,
    BOUNDING_BOX_COLOR, CLIPPING_COLOR, PATH_COLOR, POINT_COLOR,
};
use crate::error::ProblemKind;

use w::attachment_type as t;

// ---------------------------------------------------------------------------------------
// Binary → JSON
// ---------------------------------------------------------------------------------------

/// The attachments of a skin, by slot.
pub(super) fn skin_slots_to_json(c: &ToJson<'_>, slots: &w::SkinSlots) -> Vec<j::SkinSlot> {
    slots
        .groups()
        .map(|(slot, atts)| j::SkinSlot {
            slot: c.slot(slot),
            attachments: atts.iter().map(|a| attachment_to_json(c, a)).collect(),
        })
        .collect()
}

fn attachment_to_json(c: &ToJson<'_>, e: &w::SkinAttachment) -> j::Attachment {
    use j::AttachmentType as T;
    let a = &e.attachment;
    let (ty, kind) = match &a.kind {
        w::AttachmentKind::Region(r) => (None, region_to_json(c, r)),
        w::AttachmentKind::BoundingBox(b) => (
            Some(T::BoundingBox),
            j::AttachmentKind::BoundingBox {
                vertex_count: b.vertices.count() as u32,
                vertices: vertices_to_json(&b.vertices),
                color: b.color,
            },
        ),
        w::AttachmentKind::Mesh(m) => (Some(T::Mesh), mesh_to_json(c, m)),
        w::AttachmentKind::LinkedMesh(l) => (Some(T::LinkedMesh), linked_mesh_to_json(c, l)),
        w::AttachmentKind::Path(p) => (
            Some(T::Path),
            j::AttachmentKind::Path {
                closed: p.closed.then_some(true),
                constant_speed: (!p.constant_speed).then_some(false),
                vertex_count: p.vertices.count() as u32,
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
                vertex_count: k.vertices.count() as u32,
                vertices: vertices_to_json(&k.vertices),
                color: k.color,
            },
        ),
    };
    let key = c.text(e.key).unwrap_or_default();
    let name = c.text(a.name).filter(|n| *n != key);
    j::Attachment { key, name, declared_type: ty, kind }
}

fn region_to_json(c: &ToJson<'_>, r: &w::Region) -> j::AttachmentKind {
    j::AttachmentKind::Region {
        path: c.text(r.path),
        x: some_if(r.x, 0.0),
        y: some_if(r.y, 0.0),
        scale_x: some_if(r.scale_x, 1.0),
        scale_y: some_if(r.scale_y, 1.0),
        rotation: some_if(r.rotation, 0.0),
        width: r.width,
        height: r.height,
        color: some_if(r.color, [0xff; 4]),
        sequence: seq_to_json(&r.sequence),
    }
}

fn mesh_to_json(c: &ToJson<'_>, m: &w::Mesh) -> j::AttachmentKind {
    j::AttachmentKind::Mesh {
        path: c.text(m.path),
        color: some_if(m.color, [0xff; 4]),
        width: m.extras.as_ref().map(|x| x.width),
        height: m.extras.as_ref().map(|x| x.height),
        sequence: seq_to_json(&m.sequence),
        uvs: m.uvs.clone(),
        vertices: vertices_to_json(&m.vertices),
        triangles: m.triangles.clone(),
        hull: Some(m.hull),
        edges: m.extras.as_ref().map(|x| x.edges.clone()),
    }
}

fn linked_mesh_to_json(c: &ToJson<'_>, l: &w::LinkedMesh) -> j::AttachmentKind {
    j::AttachmentKind::LinkedMesh {
        path: c.text(l.path),
        color: some_if(l.color, [0xff; 4]),
        width: l.size.map(|s| s[0]),
        height: l.size.map(|s| s[1]),
        sequence: seq_to_json(&l.sequence),
        parent: c.text(l.parent).unwrap_or_default(),
        skin: match l.skin {
            w::SkinRef::Name(r) => c.text(r),
            w::SkinRef::Index(i) => {
                let default = c.s.default_skin.is_some() && i == 0;
                (!default).then(|| c.skin(i))
            }
        },
        timelines: (!l.inherit_timelines).then_some(false),
    }
}

// ---------------------------------------------------------------------------------------
// JSON → binary
// ---------------------------------------------------------------------------------------

/// The attachments of a JSON skin, by slot.
pub(super) fn skin_slots_from_json(c: &mut FromJson<'_>, k: &j::Skin, ne: bool) -> w::SkinSlots {
    let mut out = w::SkinSlots::default();
    let v42 = c.v42();
    for sl in &k.slots {
        c.p.enter("slot", &sl.slot);
        let slot = c.find("slot", &sl.slot);
        let mut list = Vec::with_capacity(sl.attachments.len());
        for a in &sl.attachments {
            c.p.enter("attachment", &a.key);
            let key = c.strings.get(&a.key);
            let name = c.strings.opt(a.name.as_deref());
            let (mut flags, kind) = attachment_from_json(c, a, ne);
            if v42 {
                if name != StrRef::NONE {
                    flags |= 8;
                }
            } else {
                flags &= 7;
            }
            list.push(w::SkinAttachment { key, attachment: w::Attachment { flags, name, kind } });
            c.p.pop();
        }
        out.push_slot(slot, list);
        c.p.pop();
    }
    out
}

/// The attachment and its flag byte (4.2 bits; the type code alone before 4.2).
fn attachment_from_json(
    c: &mut FromJson<'_>,
    a: &j::Attachment,
    ne: bool,
) -> (u8, w::AttachmentKind) {
    match &a.kind {
        j::AttachmentKind::Region { .. } => region_from_json(c, &a.kind),
        j::AttachmentKind::BoundingBox { vertex_count, vertices, color } => {
            let vertices = c.vertices(*vertex_count as usize, vertices);
            let f =
                t::BOUNDING_BOX | attachment_bits([vertices.is_weighted(), false, false, false]);
            let color = editor_color(ne, *color, BOUNDING_BOX_COLOR);
            (f, w::AttachmentKind::BoundingBox(w::VertexShape { vertices, color }))
        }
        j::AttachmentKind::Mesh { .. } => mesh_from_json(c, &a.kind, ne),
        j::AttachmentKind::LinkedMesh { .. } => linked_mesh_from_json(c, &a.kind, ne),
        j::AttachmentKind::Path { .. } => path_from_json(c, &a.kind, ne),
        j::AttachmentKind::Point { x, y, rotation, color } => (
            t::POINT,
            w::AttachmentKind::Point(w::Point {
                rotation: rotation.unwrap_or(0.0),
                x: x.unwrap_or(0.0),
                y: y.unwrap_or(0.0),
                color: editor_color(ne, *color, POINT_COLOR),
            }),
        ),
        j::AttachmentKind::Clipping { end, vertex_count, vertices, color } => {
            let end_slot = match end {
                Some(n) => c.find("slot", n),
                None => c.s.slots.len().saturating_sub(1) as u32,
            };
            let vertices = c.vertices(*vertex_count as usize, vertices);
            let f = t::CLIPPING | attachment_bits([vertices.is_weighted(), false, false, false]);
            let color = editor_color(ne, *color, CLIPPING_COLOR);
            (f, w::AttachmentKind::Clipping(w::Clipping { end_slot, vertices, color }))
        }
    }
}

/// The binary sequence of an attachment (reported when the target is 4.0, which has none).
fn sequence_of(c: &mut FromJson<'_>, s: &Option<j::Sequence>) -> Option<w::Sequence> {
    let v41 = c.v41();
    if s.is_some() && !v41 {
        c.p.report(ProblemKind::Invalid("a sequence cannot be written in a 4.0 binary".into()));
    }
    if v41 {
        seq_from_json(s)
    } else {
        None
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
    let sequence = sequence_of(c, sequence);
    let path_ref = c.strings.opt(path.as_deref());
    let rotation = rotation.unwrap_or(0.0);
    let color = color.unwrap_or([0xff; 4]);
    let f = t::REGION
        | attachment_bits([
            path.is_some(),
            color != [0xff; 4],
            sequence.is_some(),
            rotation != 0.0,
        ]);
    let region = w::Region {
        path: path_ref,
        color,
        sequence,
        rotation,
        x: x.unwrap_or(0.0),
        y: y.unwrap_or(0.0),
        scale_x: scale_x.unwrap_or(1.0),
        scale_y: scale_y.unwrap_or(1.0),
        width: *width,
        height: *height,
    };
    (f, w::AttachmentKind::Region(region))
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
    let sequence = sequence_of(c, sequence);
    let vertices = c.vertices(uvs.len() / 2, vertices);
    let hull = hull.unwrap_or(0);
    if c.v42() {
        check_triangles(&mut c.p, uvs.len(), hull, triangles.len());
    }
    let triangles = c.short_indices(triangles, "triangle index");
    let edges = c.short_indices(edges.as_deref().unwrap_or(&[]), "edge index");
    let color = color.unwrap_or([0xff; 4]);
    let f = t::MESH
        | attachment_bits([
            path.is_some(),
            color != [0xff; 4],
            sequence.is_some(),
            vertices.is_weighted(),
        ]);
    let mesh = w::Mesh {
        path: c.strings.opt(path.as_deref()),
        color,
        sequence,
        uvs: uvs.clone(),
        triangles,
        vertices,
        hull,
        extras: ne.then(|| w::MeshExtras {
            edges,
            width: width.unwrap_or(0.0),
            height: height.unwrap_or(0.0),
        }),
    };
    (f, w::AttachmentKind::Mesh(mesh))
}

fn linked_mesh_from_json(
    c: &mut FromJson<'_>,
    kind: &j::AttachmentKind,
    ne: bool,
) -> (u8, w::AttachmentKind) {
    let j::AttachmentKind::LinkedMesh {
        path,
        color,
        width,
        height,
        sequence,
        parent,
        skin,
        timelines,
    } = kind
    else {
        unreachable!("dispatched on the attachment kind")
    };
    let sequence = sequence_of(c, sequence);
    let inherit = timelines.unwrap_or(true);
    let color = color.unwrap_or([0xff; 4]);
    let f = t::LINKED_MESH
        | attachment_bits([path.is_some(), color != [0xff; 4], sequence.is_some(), inherit]);
    let skin = if c.v42() {
        w::SkinRef::Index(match skin {
            Some(n) => c.find("skin", n),
            None => default_skin_index(&c.skins, &mut c.p),
        })
    } else {
        w::SkinRef::Name(c.strings.opt(skin.as_deref()))
    };
    let linked = w::LinkedMesh {
        path: c.strings.opt(path.as_deref()),
        color,
        sequence,
        skin,
        parent: c.strings.get(parent),
        inherit_timelines: inherit,
        size: ne.then(|| [width.unwrap_or(0.0), height.unwrap_or(0.0)]),
    };
    (f, w::AttachmentKind::LinkedMesh(linked))
}

fn path_from_json(
    c: &mut FromJson<'_>,
    kind: &j::AttachmentKind,
    ne: bool,
) -> (u8, w::AttachmentKind) {
    let j::AttachmentKind::Path { closed, constant_speed, vertex_count, vertices, lengths, color } =
        kind
    else {
        unreachable!("dispatched on the attachment kind")
    };
    let vertices = c.vertices(*vertex_count as usize, vertices);
    let (closed, constant_speed) = (closed.unwrap_or(false), constant_speed.unwrap_or(true));
    let f = t::PATH | attachment_bits([closed, constant_speed, vertices.is_weighted(), false]);
    let mut lengths = lengths.clone();
    lengths.resize(*vertex_count as usize / 3, 0.0);
    let path = w::PathAttachment {
        closed,
        constant_speed,
        vertices,
        lengths,
        color: editor_color(ne, *color, PATH_COLOR),
    };
    (f, w::AttachmentKind::Path(path))
}
