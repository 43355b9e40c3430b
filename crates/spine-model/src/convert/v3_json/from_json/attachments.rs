//! JSON attachments as binary skin entries: one method per kind that needs more than a few
//! lines. Point and clipping attachments need 3.6.

use spine_format::binary::v3_common as c3;
use spine_format::json as j;
use spine_format::SpineVersion;

use super::FromJson;
use crate::convert::common::Problems;
use crate::error::ProblemKind;

/// Indexes as the 16-bit values of the 3.x binaries (each one too large reported as `what`).
fn shorts(p: &mut Problems, v: &[u32], what: &str) -> Vec<u16> {
    v.iter()
        .map(|&x| {
            u16::try_from(x).unwrap_or_else(|_| {
                p.report(ProblemKind::Invalid(format!(
                    "{what} {x} does not fit the 3.x binary format (16 bits)"
                )));
                0
            })
        })
        .collect()
}

/// A nonessential color (`ne`), `default` when the JSON has none.
fn color_if(ne: bool, color: &Option<[u8; 4]>, default: [u8; 4]) -> Option<[u8; 4]> {
    if ne {
        Some(color.unwrap_or(default))
    } else {
        None
    }
}

impl FromJson<'_> {
    /// The slots of a skin; `put` makes the generation's strings.
    pub(super) fn skin_slots<S>(
        &mut self,
        slots: &[j::SkinSlot],
        ne: bool,
        put: &mut dyn FnMut(Option<&str>) -> S,
    ) -> Vec<c3::SkinSlot<S>> {
        let mut out = Vec::with_capacity(slots.len());
        for sl in slots {
            self.p.enter("slot", &sl.slot);
            let slot = self.find("slot", &sl.slot);
            let mut entries = Vec::with_capacity(sl.attachments.len());
            for a in &sl.attachments {
                self.p.enter("attachment", &a.key);
                entries.extend(self.attachment(a, ne, put));
                self.p.pop();
            }
            out.push(c3::SkinSlot { slot, entries });
            self.p.pop();
        }
        out
    }

    /// The attachment (`None` when the generation cannot hold its kind); `put` makes the
    /// generation's strings.
    fn attachment<S>(
        &mut self,
        a: &j::Attachment,
        ne: bool,
        put: &mut dyn FnMut(Option<&str>) -> S,
    ) -> Option<c3::SkinEntry<S>> {
        let attachment = match &a.kind {
            j::AttachmentKind::Region { .. } => region(&a.kind, put),
            j::AttachmentKind::BoundingBox { vertex_count, vertices, color } => {
                c3::Attachment::BoundingBox(c3::BoundingBox {
                    vertices: self.vertices(*vertex_count as usize, vertices),
                    color: color_if(ne, color, [0x60, 0xf0, 0x00, 0xff]),
                })
            }
            j::AttachmentKind::Mesh { .. } => self.mesh(&a.kind, ne, put),
            j::AttachmentKind::LinkedMesh { .. } => linked_mesh(&a.kind, ne, put),
            j::AttachmentKind::Path { .. } => self.path(&a.kind, ne),
            j::AttachmentKind::Point { x, y, rotation, color } => {
                if !self.since(SpineVersion::V3_6, "a point attachment") {
                    return None;
                }
                c3::Attachment::Point(c3::Point {
                    rotation: rotation.unwrap_or(0.0),
                    x: x.unwrap_or(0.0),
                    y: y.unwrap_or(0.0),
                    color: color_if(ne, color, [0xf1, 0xf1, 0x00, 0xff]),
                })
            }
            j::AttachmentKind::Clipping { .. } => self.clipping(&a.kind, ne)?,
        };
        Some(c3::SkinEntry { key: put(Some(&a.key)), name: put(a.name.as_deref()), attachment })
    }

    /// A mesh attachment (`kind` is a [`j::AttachmentKind::Mesh`]).
    fn mesh<S>(
        &mut self,
        kind: &j::AttachmentKind,
        ne: bool,
        put: &mut dyn FnMut(Option<&str>) -> S,
    ) -> c3::Attachment<S> {
        let j::AttachmentKind::Mesh {
            path,
            color,
            width,
            height,
            uvs,
            vertices,
            triangles,
            hull,
            edges,
            ..
        } = kind
        else {
            unreachable!("mesh called with another kind")
        };
        let vertices = self.vertices(uvs.len() / 2, vertices);
        c3::Attachment::Mesh(c3::Mesh {
            path: put(path.as_deref()),
            color: color.unwrap_or([0xff; 4]),
            uvs: uvs.clone(),
            triangles: shorts(&mut self.p, triangles, "triangle index"),
            vertices,
            hull_length: hull.unwrap_or(0),
            extras: ne.then(|| c3::MeshExtras {
                edges: shorts(&mut self.p, edges.as_deref().unwrap_or(&[]), "edge index"),
                size: c3::Size { width: width.unwrap_or(0.0), height: height.unwrap_or(0.0) },
            }),
        })
    }

    /// A path attachment (`kind` is a [`j::AttachmentKind::Path`]); its lengths padded or
    /// cut to one per curve.
    fn path<S>(&mut self, kind: &j::AttachmentKind, ne: bool) -> c3::Attachment<S> {
        let j::AttachmentKind::Path {
            closed,
            constant_speed,
            vertex_count,
            vertices,
            lengths,
            color,
        } = kind
        else {
            unreachable!("path called with another kind")
        };
        let mut lengths = lengths.clone();
        lengths.resize(*vertex_count as usize / 3, 0.0);
        c3::Attachment::Path(c3::PathAttachment {
            closed: closed.unwrap_or(false),
            constant_speed: constant_speed.unwrap_or(true),
            vertices: self.vertices(*vertex_count as usize, vertices),
            lengths,
            color: color_if(ne, color, [0xff, 0x77, 0x00, 0xff]),
        })
    }

    /// A clipping attachment (`kind` is a [`j::AttachmentKind::Clipping`]; 3.6+), ending at
    /// the last slot when the JSON names none.
    fn clipping<S>(&mut self, kind: &j::AttachmentKind, ne: bool) -> Option<c3::Attachment<S>> {
        let j::AttachmentKind::Clipping { end, vertex_count, vertices, color } = kind else {
            unreachable!("clipping called with another kind")
        };
        if !self.since(SpineVersion::V3_6, "a clipping attachment") {
            return None;
        }
        let end_slot = match end {
            Some(n) => self.find("slot", n),
            None => self.s.slots.len().saturating_sub(1) as u32,
        };
        Some(c3::Attachment::Clipping(c3::Clipping {
            end_slot,
            vertices: self.vertices(*vertex_count as usize, vertices),
            color: color_if(ne, color, [0xce, 0x3a, 0x3a, 0xff]),
        }))
    }
}

/// A region attachment (`kind` is a [`j::AttachmentKind::Region`]).
fn region<S>(
    kind: &j::AttachmentKind,
    put: &mut dyn FnMut(Option<&str>) -> S,
) -> c3::Attachment<S> {
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
        ..
    } = kind
    else {
        unreachable!("region called with another kind")
    };
    c3::Attachment::Region(c3::Region {
        path: put(path.as_deref()),
        rotation: rotation.unwrap_or(0.0),
        x: x.unwrap_or(0.0),
        y: y.unwrap_or(0.0),
        scale_x: scale_x.unwrap_or(1.0),
        scale_y: scale_y.unwrap_or(1.0),
        width: *width,
        height: *height,
        color: color.unwrap_or([0xff; 4]),
    })
}

/// A linked mesh (`kind` is a [`j::AttachmentKind::LinkedMesh`]).
fn linked_mesh<S>(
    kind: &j::AttachmentKind,
    ne: bool,
    put: &mut dyn FnMut(Option<&str>) -> S,
) -> c3::Attachment<S> {
    let j::AttachmentKind::LinkedMesh {
        path, color, width, height, parent, skin, timelines, ..
    } = kind
    else {
        unreachable!("linked_mesh called with another kind")
    };
    c3::Attachment::LinkedMesh(c3::LinkedMesh {
        path: put(path.as_deref()),
        color: color.unwrap_or([0xff; 4]),
        skin: put(skin.as_deref()),
        parent: put(Some(parent)),
        inherit_deform: timelines.unwrap_or(true),
        size: ne.then(|| c3::Size { width: width.unwrap_or(0.0), height: height.unwrap_or(0.0) }),
    })
}
