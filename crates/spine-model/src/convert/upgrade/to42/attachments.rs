//! 4.3 attachment records in the 4.2 layout.

use spine_format::binary::v40::ast as v4;
use spine_format::binary::v43 as w;
use spine_format::binary::StrRef;

use super::super::UpgradeError;

/// The slots of a skin in the 4.2 layout.
pub(super) fn skin_slots(slots: &[w::SkinSlot]) -> Result<v4::SkinSlots, UpgradeError> {
    let mut out = v4::SkinSlots::default();
    for sl in slots {
        let list: Result<Vec<_>, _> = sl
            .attachments
            .iter()
            .map(|e| {
                Ok(v4::SkinAttachment {
                    key: e.placeholder,
                    attachment: attachment_v42(&e.attachment)?,
                })
            })
            .collect();
        out.push_slot(sl.slot, list?);
    }
    Ok(out)
}

fn vertices42(v: &w::Vertices) -> v4::Vertices {
    match v {
        w::Vertices::Unweighted(xy) => v4::Vertices::Plain(xy.clone()),
        // The same flat layout in both generations.
        w::Vertices::Weighted(vs) => v4::Vertices::Weighted(v4::WeightedVertices {
            counts: vs.counts.clone(),
            bones: vs.bones.clone(),
            values: vs.values.clone(),
        }),
    }
}

fn sequence42(s: &Option<w::Sequence>) -> Option<v4::Sequence> {
    s.map(|s| v4::Sequence {
        count: s.count,
        start: s.start,
        digits: s.digits,
        setup_index: s.setup_index,
    })
}

/// A 4.3 attachment record in the 4.2 layout (the flag bits of both versions agree for
/// every type 4.2 has; the clipping convex/inverse bits are 4.3 only).
fn attachment_v42(a: &w::Attachment) -> Result<v4::Attachment, UpgradeError> {
    let white = [0xff; 4];
    let kind = match &a.kind {
        w::AttachmentKind::Region(r) => v4::AttachmentKind::Region(v4::Region {
            path: r.path.unwrap_or(StrRef::NONE),
            color: r.color.unwrap_or(white),
            sequence: sequence42(&r.sequence),
            rotation: r.rotation.unwrap_or(0.0),
            x: r.x,
            y: r.y,
            scale_x: r.scale_x,
            scale_y: r.scale_y,
            width: r.width,
            height: r.height,
        }),
        w::AttachmentKind::BoundingBox(b) => v4::AttachmentKind::BoundingBox(v4::VertexShape {
            vertices: vertices42(&b.vertices),
            color: b.color,
        }),
        w::AttachmentKind::Mesh(m) => v4::AttachmentKind::Mesh(v4::Mesh {
            path: m.path.unwrap_or(StrRef::NONE),
            color: m.color.unwrap_or(white),
            sequence: sequence42(&m.sequence),
            uvs: m.uvs.clone(),
            triangles: m.triangles.clone(),
            vertices: vertices42(&m.vertices),
            hull: m.hull_length,
            extras: m.nonessential.as_ref().map(|e| v4::MeshExtras {
                edges: e.edges.clone(),
                width: e.width,
                height: e.height,
            }),
        }),
        w::AttachmentKind::LinkedMesh(l) => v4::AttachmentKind::LinkedMesh(v4::LinkedMesh {
            path: l.path.unwrap_or(StrRef::NONE),
            color: l.color.unwrap_or(white),
            sequence: sequence42(&l.sequence),
            skin: v4::SkinRef::Index(l.skin),
            parent: l.source,
            inherit_timelines: a.flags & 128 != 0,
            size: l.size,
        }),
        w::AttachmentKind::Path(p) => v4::AttachmentKind::Path(v4::PathAttachment {
            closed: a.flags & 16 != 0,
            constant_speed: a.flags & 32 != 0,
            vertices: vertices42(&p.vertices),
            lengths: p.lengths.clone(),
            color: p.color,
        }),
        w::AttachmentKind::Point(p) => v4::AttachmentKind::Point(v4::Point {
            rotation: p.rotation,
            x: p.x,
            y: p.y,
            color: p.color,
        }),
        w::AttachmentKind::Clipping(c) => {
            if a.flags & (32 | 64) != 0 {
                return Err(UpgradeError("convex or inverse clipping is 4.3 only".into()));
            }
            v4::AttachmentKind::Clipping(v4::Clipping {
                end_slot: c.end_slot,
                vertices: vertices42(&c.vertices),
                color: c.color,
            })
        }
    };
    let flags = if matches!(a.kind, w::AttachmentKind::Clipping(_)) {
        a.flags & !(32 | 64)
    } else {
        a.flags
    };
    Ok(v4::Attachment { flags, name: a.name.unwrap_or(StrRef::NONE), kind })
}
