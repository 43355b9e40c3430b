//! Binary skin entries as JSON attachments: one method per kind that needs more than a few
//! lines.

use spine_format::binary::v3_common as c3;
use spine_format::json as j;

use super::super::values::some_if;
use super::{Names, ToJson};
use crate::convert::common::flat_weighted;

fn vertices_to_json(v: &c3::Vertices) -> Vec<f32> {
    match v {
        c3::Vertices::Unweighted(xy) => xy.clone(),
        c3::Vertices::Weighted(vs) => {
            flat_weighted(vs.iter().map(|v| v.iter().map(|b| (b.bone, b.x, b.y, b.weight))))
        }
    }
}

impl<S> ToJson<'_, S> {
    /// The slots of a skin.
    pub(super) fn skin_slots(&self, slots: &[c3::SkinSlot<S>]) -> Vec<j::SkinSlot> {
        slots
            .iter()
            .map(|sl| j::SkinSlot {
                slot: Names::get(&self.n.slots, sl.slot),
                attachments: sl.entries.iter().map(|e| self.attachment(e)).collect(),
            })
            .collect()
    }

    fn attachment(&self, e: &c3::SkinEntry<S>) -> j::Attachment {
        use j::AttachmentType as T;
        let (ty, kind) = match &e.attachment {
            c3::Attachment::Region(r) => (None, self.region(r)),
            c3::Attachment::BoundingBox(b) => (
                Some(T::BoundingBox),
                j::AttachmentKind::BoundingBox {
                    vertex_count: b.vertices.vertex_count() as u32,
                    vertices: vertices_to_json(&b.vertices),
                    color: b.color,
                },
            ),
            c3::Attachment::Mesh(m) => (Some(T::Mesh), self.mesh(m)),
            c3::Attachment::LinkedMesh(l) => (Some(T::LinkedMesh), self.linked_mesh(l)),
            c3::Attachment::Path(p) => (
                Some(T::Path),
                j::AttachmentKind::Path {
                    closed: p.closed.then_some(true),
                    constant_speed: (!p.constant_speed).then_some(false),
                    vertex_count: p.vertices.vertex_count() as u32,
                    vertices: vertices_to_json(&p.vertices),
                    lengths: p.lengths.clone(),
                    color: p.color,
                },
            ),
            c3::Attachment::Point(p) => (
                Some(T::Point),
                j::AttachmentKind::Point {
                    x: some_if(p.x, 0.0),
                    y: some_if(p.y, 0.0),
                    rotation: some_if(p.rotation, 0.0),
                    color: p.color,
                },
            ),
            c3::Attachment::Clipping(k) => (
                Some(T::Clipping),
                j::AttachmentKind::Clipping {
                    end: Some(Names::get(&self.n.slots, k.end_slot)),
                    vertex_count: k.vertices.vertex_count() as u32,
                    vertices: vertices_to_json(&k.vertices),
                    color: k.color,
                },
            ),
        };
        let key = (self.text)(&e.key).unwrap_or_default();
        let name = (self.text)(&e.name).filter(|n| *n != key);
        j::Attachment { key, name, declared_type: ty, kind }
    }

    fn region(&self, r: &c3::Region<S>) -> j::AttachmentKind {
        j::AttachmentKind::Region {
            path: (self.text)(&r.path),
            x: some_if(r.x, 0.0),
            y: some_if(r.y, 0.0),
            scale_x: some_if(r.scale_x, 1.0),
            scale_y: some_if(r.scale_y, 1.0),
            rotation: some_if(r.rotation, 0.0),
            width: r.width,
            height: r.height,
            color: some_if(r.color, [0xff; 4]),
            sequence: None,
        }
    }

    fn mesh(&self, m: &c3::Mesh<S>) -> j::AttachmentKind {
        j::AttachmentKind::Mesh {
            path: (self.text)(&m.path),
            color: some_if(m.color, [0xff; 4]),
            width: m.extras.as_ref().map(|x| x.size.width),
            height: m.extras.as_ref().map(|x| x.size.height),
            sequence: None,
            uvs: m.uvs.clone(),
            vertices: vertices_to_json(&m.vertices),
            triangles: m.triangles.iter().map(|&t| u32::from(t)).collect(),
            hull: Some(m.hull_length),
            edges: m.extras.as_ref().map(|x| x.edges.iter().map(|&e| u32::from(e)).collect()),
        }
    }

    fn linked_mesh(&self, l: &c3::LinkedMesh<S>) -> j::AttachmentKind {
        j::AttachmentKind::LinkedMesh {
            path: (self.text)(&l.path),
            color: some_if(l.color, [0xff; 4]),
            width: l.size.map(|s| s.width),
            height: l.size.map(|s| s.height),
            sequence: None,
            parent: (self.text)(&l.parent).unwrap_or_default(),
            skin: (self.text)(&l.skin),
            timelines: (!l.inherit_deform).then_some(false),
        }
    }
}
