//! Attachments as 4.3 skin entries: one function per kind, each giving its flag bits and
//! its record (linked meshes written as linked meshes).

use spine_format::binary::v43 as w;

use super::super::keys::rgba;
use super::super::notes::Notes;
use super::super::UpgradeError;
use super::Locations;
use crate::convert::common::Strings;
use crate::data::*;

/// The kind-specific flag bits (`16 << i` for each set entry) and the record of one kind.
type Kind43 = (u8, w::AttachmentKind);

/// The flag bits `16 << i` of the set entries of `list`.
fn bits(list: [bool; 4]) -> u8 {
    list.iter().enumerate().fold(0u8, |f, (i, &b)| if b { f | (16 << i) } else { f })
}

/// A color as 4.3 stores it: none for white.
fn color(c: Color) -> Option<[u8; 4]> {
    (c != Color::WHITE).then(|| rgba(c))
}

/// A skin entry as a 4.3 record (`ne`: write the nonessential data).
pub(super) fn attachment_v43(
    att: &AttachmentData,
    e: &SkinEntry,
    loc: &Locations,
    strings: &mut Strings,
    ne: bool,
    notes: &mut Notes,
) -> Result<w::SkinEntry, UpgradeError> {
    let placeholder = strings.get(&e.name);
    let name = (*att.name != *e.name).then(|| strings.get(&att.name));
    let (bits, kind) = match &att.kind {
        AttachmentKind::Region(r) => region(att, r, strings),
        AttachmentKind::BoundingBox(b) => {
            let vertices = vertices43(&b.vertices);
            let bits = bits([vertices.is_weighted(), false, false, false]);
            let color = ne.then(|| b.color.map_or([0x60, 0xf0, 0, 0xff], rgba));
            (bits, w::AttachmentKind::BoundingBox(w::BoundingBoxAttachment { vertices, color }))
        }
        AttachmentKind::Mesh(m) => {
            match m.linked_source.and_then(|s| loc.get(&s).map(|l| (s, l))) {
                Some((source, location)) => linked_mesh(att, m, source, location, strings, ne),
                None => mesh(att, m, strings, ne, notes)?,
            }
        }
        AttachmentKind::Path(p) => {
            let vertices = vertices43(&p.vertices);
            let bits = bits([p.closed, p.constant_speed, vertices.is_weighted(), false]);
            let kind = w::AttachmentKind::Path(w::PathAttachment {
                vertices,
                lengths: p.lengths.clone(),
                color: ne.then(|| p.color.map_or([0xff, 0x77, 0, 0xff], rgba)),
            });
            (bits, kind)
        }
        AttachmentKind::Point(p) => {
            let kind = w::AttachmentKind::Point(w::PointAttachment {
                rotation: p.rotation,
                x: p.x,
                y: p.y,
                color: ne.then(|| p.color.map_or([0xf1, 0xf1, 0, 0xff], rgba)),
            });
            (0, kind)
        }
        AttachmentKind::Clipping(c) => {
            let vertices = vertices43(&c.vertices);
            let bits = bits([vertices.is_weighted(), false, false, false]);
            let kind = w::AttachmentKind::Clipping(w::ClippingAttachment {
                end_slot: c.end_slot.0,
                vertices,
                color: ne.then(|| c.color.map_or([0xce, 0x3a, 0x3a, 0xff], rgba)),
            });
            (bits, kind)
        }
    };
    let flags = bits | if name.is_some() { 8 } else { 0 };
    Ok(w::SkinEntry {
        placeholder,
        attachment: w::Attachment { flags: flags | kind.type_code(), name, kind },
    })
}

fn vertices43(v: &Vertices) -> w::Vertices {
    match v {
        Vertices::Unweighted(xy) => w::Vertices::Unweighted(xy.clone()),
        Vertices::Weighted(wv) => {
            let mut out = w::WeightedVertices {
                counts: Vec::with_capacity(wv.vertex_count()),
                bones: Vec::with_capacity(wv.influence_count()),
                values: Vec::with_capacity(wv.influence_count() * 3),
            };
            let mut i = 0usize;
            for &n in wv.counts() {
                for _ in 0..n {
                    let b = wv.bones().get(i).map_or(0, |b| b.0);
                    let v = wv.values().get(i * 3..i * 3 + 3).unwrap_or(&[0.0; 3]);
                    out.bones.push(b);
                    out.values.extend_from_slice(&v[..3]);
                    i += 1;
                }
                out.counts.push(n);
            }
            w::Vertices::Weighted(out)
        }
    }
}

fn sequence43(s: &SequenceData, has: bool) -> Option<w::Sequence> {
    has.then(|| w::Sequence {
        count: s.len() as u32,
        start: s.start,
        digits: s.digits,
        setup_index: s.setup_index,
    })
}

/// The image path as 4.3 stores it: none when it is the attachment's name.
fn path43(
    path: &str,
    att: &AttachmentData,
    strings: &mut Strings,
) -> Option<spine_format::binary::StrRef> {
    (*path != *att.name).then(|| strings.get(path))
}

fn region(att: &AttachmentData, r: &RegionAttachment, strings: &mut Strings) -> Kind43 {
    let path = path43(&r.path, att, strings);
    let sequence = sequence43(&r.sequence, r.has_sequence);
    let rotation = (r.rotation != 0.0).then_some(r.rotation);
    let color = color(r.color);
    let bits = bits([path.is_some(), color.is_some(), sequence.is_some(), rotation.is_some()]);
    let kind = w::AttachmentKind::Region(w::RegionAttachment {
        path,
        color,
        sequence,
        rotation,
        x: r.x,
        y: r.y,
        scale_x: r.scale_x,
        scale_y: r.scale_y,
        width: r.width,
        height: r.height,
    });
    (bits, kind)
}

/// A mesh linked to `source`, which is at `(skin, slot, placeholder)`.
fn linked_mesh(
    att: &AttachmentData,
    m: &MeshAttachment,
    source: crate::ids::AttachmentId,
    (skin, source_slot, source_name): &(u32, u32, std::sync::Arc<str>),
    strings: &mut Strings,
    ne: bool,
) -> Kind43 {
    let path = path43(&m.path, att, strings);
    let sequence = sequence43(&m.sequence, m.has_sequence);
    let color = color(m.color);
    let inherit = m.timeline_attachment == source;
    let bits = bits([path.is_some(), color.is_some(), sequence.is_some(), inherit]);
    let kind = w::AttachmentKind::LinkedMesh(w::LinkedMeshAttachment {
        path,
        color,
        sequence,
        source_slot: *source_slot,
        skin: *skin,
        source: strings.get(source_name),
        size: ne.then_some([m.width, m.height]),
    });
    (bits, kind)
}

fn mesh(
    att: &AttachmentData,
    m: &MeshAttachment,
    strings: &mut Strings,
    ne: bool,
    notes: &mut Notes,
) -> Result<Kind43, UpgradeError> {
    let path = path43(&m.path, att, strings);
    let sequence = sequence43(&m.sequence, m.has_sequence);
    let color = color(m.color);
    let vertices = vertices43(&m.vertices);
    let hull = mesh_hull(att, m, notes)?;
    let bits = bits([path.is_some(), color.is_some(), sequence.is_some(), vertices.is_weighted()]);
    let kind = w::AttachmentKind::Mesh(w::MeshAttachment {
        path,
        color,
        sequence,
        hull_length: hull,
        vertices,
        uvs: m.region_uvs().to_vec(),
        triangles: m.triangles().to_vec(),
        timeline_slots: Vec::new(),
        nonessential: ne.then(|| w::MeshExtras {
            edges: m.edges().to_vec(),
            width: m.width,
            height: m.height,
        }),
    });
    Ok((bits, kind))
}

/// The hull count a 4.2+ binary can store for mesh `m` (noted when it changes).
fn mesh_hull(
    att: &AttachmentData,
    m: &MeshAttachment,
    notes: &mut Notes,
) -> Result<u32, UpgradeError> {
    let n = m.region_uvs().len() / 2;
    match hull_for(n, m.triangles().len(), m.hull_length) {
        Some(h) => {
            if h != m.hull_length {
                notes.add(format!(
                    "mesh {:?}: hull count {} changed to {h} (4.2+ binaries imply the \
                     triangle count from it; the hull is editor data)",
                    &*att.name, m.hull_length
                ));
            }
            Ok(h)
        }
        None => Err(UpgradeError(format!(
            "mesh {:?}: {} triangle indices cannot be stored in a 4.2+ binary \
             with {n} vertices",
            &*att.name,
            m.triangles().len()
        ))),
    }
}

/// The hull count that makes a 4.2/4.3 binary's implied triangle count agree.
fn hull_for(vertex_count: usize, triangle_indices: usize, hull: u32) -> Option<u32> {
    let implied = |h: i64| (2 * vertex_count as i64 - h - 2) * 3;
    if implied(i64::from(hull)) == triangle_indices as i64 {
        return Some(hull);
    }
    if !triangle_indices.is_multiple_of(3) {
        return None;
    }
    let h = 2 * vertex_count as i64 - 2 - (triangle_indices / 3) as i64;
    (0..=vertex_count as i64).contains(&h).then_some(h as u32)
}
