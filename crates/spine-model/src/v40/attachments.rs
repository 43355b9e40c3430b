//! 4.0–4.2 attachments: one function per textured kind, the others built inline.

use std::sync::Arc;

use spine_format::binary::v40::ast as w;

use super::skins::Link;
use super::Conv;
use crate::build::check_mesh_parts;
use crate::build::empty_mesh;
use crate::data::*;
use crate::ids::*;

/// A sequence's `[count, start, digits, setup]`.
fn seq(q: &Option<w::Sequence>) -> Option<[u32; 4]> {
    q.map(|q| [q.count, q.start, q.digits, q.setup_index])
}

/// Adds the attachment `name` of `slot`; a linked mesh is queued on `links`. (`name` is
/// moved in: an `Arc` clone and drop are atomic operations, each draining the store buffer.)
pub(super) fn attachment(
    c: &mut Conv<'_, '_>,
    name: Arc<str>,
    kind: &w::AttachmentKind,
    slot: u32,
    links: &mut Vec<Link>,
) -> AttachmentId {
    let next = AttachmentId(c.b.data.attachments.len() as u32);
    let kind = match kind {
        w::AttachmentKind::Region(r) => region(c, &name, r),
        w::AttachmentKind::BoundingBox(b) => AttachmentKind::BoundingBox(BoundingBoxAttachment {
            vertices: c.vertices(&b.vertices),
            color: b.color.map(Color::from_bytes),
        }),
        w::AttachmentKind::Mesh(m) => mesh(c, &name, m, next),
        w::AttachmentKind::LinkedMesh(m) => linked_mesh(c, &name, m, (slot, next), links),
        w::AttachmentKind::Path(p) => AttachmentKind::Path(PathAttachment {
            vertices: c.vertices(&p.vertices),
            lengths: p.lengths.iter().map(|&l| c.b.fs("path length", l)).collect(),
            closed: p.closed,
            constant_speed: p.constant_speed,
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
            vertices: c.vertices(&k.vertices),
            color: k.color.map(Color::from_bytes),
        }),
    };
    c.b.add_attachment(AttachmentData { name, kind })
}

/// A region attachment.
fn region(c: &mut Conv<'_, '_>, name: &Arc<str>, r: &w::Region) -> AttachmentKind {
    let path = c.share_ref(name, r.path);
    let sequence = c.b.sequence(&path, seq(&r.sequence));
    AttachmentKind::Region(RegionAttachment {
        path,
        color: Color::from_bytes(r.color),
        x: c.b.fs("x", r.x),
        y: c.b.fs("y", r.y),
        rotation: c.b.f("rotation", r.rotation),
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

/// A mesh, its buffers moved out of an owned AST when they were taken.
fn mesh(c: &mut Conv<'_, '_>, name: &Arc<str>, m: &w::Mesh, next: AttachmentId) -> AttachmentKind {
    let path = c.share_ref(name, m.path);
    let sequence = c.b.sequence(&path, seq(&m.sequence));
    let key = std::ptr::from_ref::<w::Mesh>(m) as usize;
    let lent = match c.lent_keys.front() {
        Some(&(k, index)) if k == key => c.lent_keys.pop_front().map(|_| index),
        _ => None,
    };
    let (vertices, arrays) = match lent.and_then(|k| c.lent.get_mut(k)).map(std::mem::take) {
        Some((vertices, arrays)) => {
            let vertices = c.vertices_lent(vertices);
            check_mesh_parts(&mut c.b, &vertices, arrays.region_uvs(), arrays.triangles(), m.hull);
            (vertices, arrays)
        }
        None => {
            let vertices = c.vertices(&m.vertices);
            check_mesh_parts(&mut c.b, &vertices, &m.uvs, &m.triangles, m.hull);
            let edges = m.extras.as_ref().map_or(&[][..], |e| &e.edges);
            (vertices, c.b.mesh_arrays(&m.uvs, &m.triangles, edges))
        }
    };
    let (width, height) = match &m.extras {
        Some(e) => (e.width * c.b.scale, e.height * c.b.scale),
        None => (0.0, 0.0),
    };
    AttachmentKind::Mesh(MeshAttachment {
        path,
        color: Color::from_bytes(m.color),
        vertices,
        arrays,
        hull_length: m.hull,
        width,
        height,
        sequence,
        has_sequence: m.sequence.is_some(),
        linked_source: None,
        timeline_attachment: next,
        timeline_slots: Vec::new(),
    })
}

/// A linked mesh (`(slot, next)`: its slot and id), queued on `links`.
fn linked_mesh(
    c: &mut Conv<'_, '_>,
    name: &Arc<str>,
    m: &w::LinkedMesh,
    (slot, next): (u32, AttachmentId),
    links: &mut Vec<Link>,
) -> AttachmentKind {
    let path = c.share_ref(name, m.path);
    let sequence = c.b.sequence(&path, seq(&m.sequence));
    let parent = c.text(m.parent).map(str::to_owned);
    let parent = c.b.name("linked mesh parent", parent.as_deref());
    let at = c.b.here();
    links.push(Link { mesh: next, skin: m.skin, slot, parent, inherit: m.inherit_timelines, at });
    let [width, height] = m.size.unwrap_or([0.0, 0.0]);
    AttachmentKind::Mesh(empty_mesh(
        path,
        Color::from_bytes(m.color),
        [width * c.b.scale, height * c.b.scale],
        (sequence, m.sequence.is_some()),
        next,
    ))
}
