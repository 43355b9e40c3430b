//! 3.x attachments: one function per textured kind, the others built inline.

use std::sync::Arc;

use spine_format::binary::v3_common as w;

use super::skins::Link3;
use super::{Conv, Text};
use crate::build::check_mesh_parts;
use crate::build::empty_mesh;
use crate::build::{share, Builder};
use crate::data::*;
use crate::ids::*;

/// Scaled vertices, weighted ones validated.
fn vertices(b: &mut Builder<'_>, v: &w::Vertices) -> Vertices {
    match v {
        w::Vertices::Unweighted(xy) => b.unweighted(xy),
        w::Vertices::Weighted(vs) => {
            b.weighted(vs.iter().map(|v| v.iter().map(|i| (i.bone, i.x, i.y, i.weight))))
        }
    }
}

/// Adds the attachment `name` of `slot`; a linked mesh is queued on `links`.
pub(super) fn attachment<S, T: Text<S>>(
    c: &mut Conv<'_, '_, T>,
    name: &Arc<str>,
    a: &w::Attachment<S>,
    slot: u32,
    links: &mut Vec<Link3>,
) -> AttachmentId {
    let next = AttachmentId(c.b.data.attachments.len() as u32);
    let kind = match a {
        w::Attachment::Region(r) => region(c, name, r),
        w::Attachment::BoundingBox(bb) => AttachmentKind::BoundingBox(BoundingBoxAttachment {
            vertices: vertices(&mut c.b, &bb.vertices),
            color: bb.color.map(Color::from_bytes),
        }),
        w::Attachment::Mesh(m) => mesh(c, name, m, next),
        w::Attachment::LinkedMesh(m) => {
            let at = (slot, next);
            linked_mesh(c, name, m, at, links)
        }
        w::Attachment::Path(p) => AttachmentKind::Path(PathAttachment {
            vertices: vertices(&mut c.b, &p.vertices),
            lengths: p.lengths.iter().map(|&l| c.b.fs("path length", l)).collect(),
            closed: p.closed,
            constant_speed: p.constant_speed,
            color: p.color.map(Color::from_bytes),
        }),
        w::Attachment::Point(p) => AttachmentKind::Point(PointAttachment {
            x: c.b.fs("x", p.x),
            y: c.b.fs("y", p.y),
            rotation: c.b.f("rotation", p.rotation),
            color: p.color.map(Color::from_bytes),
        }),
        w::Attachment::Clipping(k) => AttachmentKind::Clipping(ClippingAttachment {
            end_slot: c.b.slot(k.end_slot),
            vertices: vertices(&mut c.b, &k.vertices),
            color: k.color.map(Color::from_bytes),
        }),
    };
    c.b.add_attachment(AttachmentData { name: Arc::clone(name), kind })
}

/// A region attachment (no sequences in 3.x).
fn region<S, T: Text<S>>(
    c: &mut Conv<'_, '_, T>,
    name: &Arc<str>,
    r: &w::Region<S>,
) -> AttachmentKind {
    let path = share(name, c.t.text(&r.path));
    let sequence = c.b.sequence(&path, None);
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
        has_sequence: false,
        offsets: None,
        uvs: None,
    })
}

/// A mesh (`u16` triangles and edges widened).
fn mesh<S, T: Text<S>>(
    c: &mut Conv<'_, '_, T>,
    name: &Arc<str>,
    m: &w::Mesh<S>,
    next: AttachmentId,
) -> AttachmentKind {
    let path = share(name, c.t.text(&m.path));
    let sequence = c.b.sequence(&path, None);
    let verts = vertices(&mut c.b, &m.vertices);
    let triangles: Vec<u32> = m.triangles.iter().map(|&t| u32::from(t)).collect();
    check_mesh_parts(&mut c.b, &verts, &m.uvs, &triangles, m.hull_length);
    let (edges, width, height) = match &m.extras {
        Some(e) => (
            e.edges.iter().map(|&x| u32::from(x)).collect(),
            e.size.width * c.b.scale,
            e.size.height * c.b.scale,
        ),
        None => (Vec::new(), 0.0, 0.0),
    };
    AttachmentKind::Mesh(MeshAttachment {
        path,
        color: Color::from_bytes(m.color),
        vertices: verts,
        arrays: c.b.mesh_arrays(&m.uvs, &triangles, &edges),
        hull_length: m.hull_length,
        width,
        height,
        sequence,
        has_sequence: false,
        linked_source: None,
        timeline_attachment: next,
        timeline_slots: Vec::new(),
    })
}

/// A linked mesh (`(slot, next)`: its slot and id), queued on `links`.
fn linked_mesh<S, T: Text<S>>(
    c: &mut Conv<'_, '_, T>,
    name: &Arc<str>,
    m: &w::LinkedMesh<S>,
    (slot, next): (u32, AttachmentId),
    links: &mut Vec<Link3>,
) -> AttachmentKind {
    let path = share(name, c.t.text(&m.path));
    let sequence = c.b.sequence(&path, None);
    let parent = c.t.text(&m.parent).map(str::to_owned);
    let parent = c.b.name("linked mesh parent", parent.as_deref());
    let at = c.b.here();
    links.push(Link3 {
        mesh: next,
        skin: c.t.text(&m.skin).map(str::to_owned),
        slot,
        parent,
        inherit: m.inherit_deform,
        at,
    });
    let (width, height) = m.size.map_or((0.0, 0.0), |s| (s.width, s.height));
    AttachmentKind::Mesh(empty_mesh(
        path,
        Color::from_bytes(m.color),
        [width * c.b.scale, height * c.b.scale],
        (sequence, false),
        next,
    ))
}
