//! 4.3 attachments: one function per textured kind, the others built inline.

use std::sync::Arc;

use spine_format::binary::v43 as w;
use spine_format::binary::StrRef;

use super::Conv;
use crate::build::check_mesh_parts;
use crate::build::empty_mesh;
use crate::build::PendingLink;
use crate::data::*;
use crate::ids::*;

/// A sequence's `[count, start, digits, setup]`.
fn seq(q: &Option<w::Sequence>) -> Option<[u32; 4]> {
    q.map(|q| [q.count, q.start, q.digits, q.setup_index])
}

/// A tint, white when absent.
fn color(c: Option<[u8; 4]>) -> Color {
    c.map_or(Color::WHITE, Color::from_bytes)
}

/// An image path: the attachment's `name` unless the wire names another.
fn path_of(c: &mut Conv<'_, '_>, name: &Arc<str>, p: Option<StrRef>) -> Arc<str> {
    c.share_ref(name, p)
}

/// Adds the attachment `name`.
pub(super) fn attachment(c: &mut Conv<'_, '_>, name: &Arc<str>, a: &w::Attachment) -> AttachmentId {
    let next = AttachmentId(c.b.data.attachments.len() as u32);
    let kind = match &a.kind {
        w::AttachmentKind::Region(r) => region(c, name, r),
        w::AttachmentKind::BoundingBox(b) => AttachmentKind::BoundingBox(BoundingBoxAttachment {
            vertices: c.vertices_at(&b.vertices),
            color: b.color.map(Color::from_bytes),
        }),
        w::AttachmentKind::Mesh(m) => mesh(c, name, m, next),
        w::AttachmentKind::LinkedMesh(m) => linked_mesh(c, name, m, next, a.flags & 128 != 0),
        w::AttachmentKind::Path(p) => AttachmentKind::Path(PathAttachment {
            vertices: c.vertices_at(&p.vertices),
            lengths: p.lengths.iter().map(|&l| c.b.fs("path length", l)).collect(),
            closed: a.flags & 16 != 0,
            constant_speed: a.flags & 32 != 0,
            color: p.color.map(Color::from_bytes),
        }),
        w::AttachmentKind::Point(p) => AttachmentKind::Point(PointAttachment {
            x: c.b.fs("x", p.x),
            y: c.b.fs("y", p.y),
            rotation: c.b.f("rotation", p.rotation),
            color: p.color.map(Color::from_bytes),
        }),
        w::AttachmentKind::Clipping(k) => AttachmentKind::Clipping(ClippingAttachment {
            end_slot: c.b.slot(k.end_slot),
            vertices: c.vertices_at(&k.vertices),
            color: k.color.map(Color::from_bytes),
        }),
    };
    c.b.add_attachment(AttachmentData { name: Arc::clone(name), kind })
}

/// A region attachment.
fn region(c: &mut Conv<'_, '_>, name: &Arc<str>, r: &w::RegionAttachment) -> AttachmentKind {
    let path = path_of(c, name, r.path);
    let sequence = c.b.sequence(&path, seq(&r.sequence));
    AttachmentKind::Region(RegionAttachment {
        path,
        color: color(r.color),
        x: c.b.fs("x", r.x),
        y: c.b.fs("y", r.y),
        rotation: c.b.f("rotation", r.rotation.unwrap_or(0.0)),
        scale_x: c.b.f("scale x", r.scale_x),
        scale_y: c.b.f("scale y", r.scale_y),
        width: c.b.fs("width", r.width),
        height: c.b.fs("height", r.height),
        sequence,
        has_sequence: r.sequence.is_some(),
        offsets: None,
        uvs: None,
    })
}

/// A mesh, its buffers moved out of an owned tree when they were taken.
fn mesh(
    c: &mut Conv<'_, '_>,
    name: &Arc<str>,
    m: &w::MeshAttachment,
    next: AttachmentId,
) -> AttachmentKind {
    let path = path_of(c, name, m.path);
    let sequence = c.b.sequence(&path, seq(&m.sequence));
    let vertices = c.vertices_at(&m.vertices);
    let (uvs, triangles) = (&m.uvs, &m.triangles);
    let edges = m.nonessential.as_ref().map_or(&[][..], |e| &e.edges);
    check_mesh_parts(&mut c.b, &vertices, uvs, triangles, m.hull_length);
    let (width, height) = match &m.nonessential {
        Some(e) => (e.width * c.b.scale, e.height * c.b.scale),
        None => (0.0, 0.0),
    };
    let timeline_slots = m.timeline_slots.iter().map(|&s| c.b.slot(s)).collect();
    AttachmentKind::Mesh(MeshAttachment {
        path,
        color: color(m.color),
        vertices,
        arrays: c.b.mesh_arrays(uvs, triangles, edges),
        hull_length: m.hull_length,
        width,
        height,
        sequence,
        has_sequence: m.sequence.is_some(),
        linked_source: None,
        timeline_attachment: next,
        timeline_slots,
    })
}

/// A linked mesh, queued to be resolved once every skin is read.
fn linked_mesh(
    c: &mut Conv<'_, '_>,
    name: &Arc<str>,
    m: &w::LinkedMeshAttachment,
    next: AttachmentId,
    inherit_timelines: bool,
) -> AttachmentKind {
    let path = path_of(c, name, m.path);
    let sequence = c.b.sequence(&path, seq(&m.sequence));
    let source = c.text(m.source);
    let source = c.b.name("linked mesh source", source);
    let at = c.b.here();
    c.b.link(PendingLink {
        mesh: next,
        skin: m.skin,
        slot: m.source_slot,
        source,
        inherit_timelines,
        at,
    });
    let [width, height] = m.size.unwrap_or([0.0, 0.0]);
    AttachmentKind::Mesh(empty_mesh(
        path,
        color(m.color),
        [width * c.b.scale, height * c.b.scale],
        (sequence, m.sequence.is_some()),
        next,
    ))
}
