//! JSON attachments (region, mesh, linked mesh, bounding box, path, point, clipping).

use std::sync::Arc;

use spine_format::json as j;

use super::skins::Link;
use super::Conv;
use crate::build::check_mesh_parts;
use crate::build::empty_mesh;
use crate::build::share;
use crate::data::*;
use crate::error::ProblemKind;
use crate::ids::*;

/// JSON vertices: `x, y` pairs when `values.len() == 2 × vertex_count`, else weighted
/// `boneCount, (bone, x, y, weight) × boneCount` per vertex.
fn vertices(c: &mut Conv<'_, '_>, vertex_count: usize, values: Vec<f32>) -> Vertices {
    if vertex_count.checked_mul(2) == Some(values.len()) {
        return c.b.unweighted_owned(values);
    }
    let values = values.as_slice();
    // The usual file: one pass into the builder's reused flat buffers, packed as they are
    // when nothing needs reporting (the same values as the checked path below).
    let mut scratch = std::mem::take(&mut c.b.weighted_scratch);
    let mut done = None;
    if weighted_exact(vertex_count, values, &mut scratch) {
        let (counts, bones, xyw) = &scratch;
        if c.b.weighted_ok(counts, bones, xyw) {
            done = Some(c.b.weighted_packed(counts, bones, xyw));
        }
    }
    c.b.weighted_scratch = scratch;
    if let Some(v) = done {
        return v;
    }
    // One pass to find the whole vertices (and count their influences), so the builder reads
    // them straight from `values`, without a vector per vertex.
    let (mut i, mut vertices, mut influences) = (0, 0, 0);
    let mut bad = false;
    while i < values.len() {
        let n = values[i];
        // `n` comes from the file: a huge count must not overflow the end index.
        let end = (n as usize).checked_mul(4).and_then(|k| k.checked_add(i + 1));
        if n < 0.0 || !integral(n) || end.is_none_or(|end| end > values.len()) {
            bad = true;
            break;
        }
        let n = n as usize;
        for k in 0..n {
            let bone = values[i + 1 + k * 4];
            if bone < 0.0 || !integral(bone) {
                bad = true;
            }
        }
        vertices += 1;
        influences += n;
        i += 1 + n * 4;
    }
    if bad || vertices != vertex_count {
        c.b.report(ProblemKind::Invalid(format!(
            "{} vertex values are neither {vertex_count} unweighted nor {vertex_count} weighted vertices",
            values.len()
        )));
    }
    let values = values.get(..i).unwrap_or_default();
    let weighted = Weighted { values, left: vertices };
    c.b.weighted_with_capacity(weighted, influences)
}

/// Weighted JSON vertex values split into influence counts, bones and `x, y, weight`
/// triples in one pass (into the given buffers, cleared first), when they are exactly
/// `vertex_count` whole vertices with integral, non-negative counts and bones (else false:
/// the checked path reads and reports them). Such values hold `vertex_count` counts and
/// four values per influence: reserved once.
fn weighted_exact(
    vertex_count: usize,
    values: &[f32],
    (counts, bones, xyw): &mut (Vec<u32>, Vec<u32>, Vec<f32>),
) -> bool {
    counts.clear();
    bones.clear();
    xyw.clear();
    let Some(influences) = values.len().checked_sub(vertex_count).map(|n| n / 4) else {
        return false;
    };
    counts.reserve(vertex_count);
    bones.reserve(influences);
    xyw.reserve(influences * 3);
    let mut rest = values;
    while let Some((&n, r)) = rest.split_first() {
        if n < 0.0 || !integral(n) {
            return false;
        }
        let Some((v, r)) = (n as usize).checked_mul(4).and_then(|k| r.split_at_checked(k)) else {
            return false;
        };
        counts.push(n as u32);
        for inf in v.chunks_exact(4) {
            if inf[0] < 0.0 || !integral(inf[0]) {
                return false;
            }
            bones.push(inf[0] as u32);
            xyw.extend_from_slice(&inf[1..]);
        }
        rest = r;
    }
    counts.len() == vertex_count
}

/// Whether `x` is a finite integer, as `x.fract() == 0.0` says (without its libm `trunc` call):
/// every `f32` of magnitude 2^23 or more is one, and below that `as i32` truncates exactly.
fn integral(x: f32) -> bool {
    x.is_finite() && (x.abs() >= 8_388_608.0 || x as i32 as f32 == x)
}

/// The weighted vertices of JSON vertex values already checked by [`vertices`]: per vertex,
/// its `(bone, x, y, weight)` influences.
struct Weighted<'a> {
    /// `boneCount, (bone, x, y, weight) × boneCount` per vertex.
    values: &'a [f32],
    /// The vertices left.
    left: usize,
}

/// One influence of a weighted vertex.
type Influence = (u32, f32, f32, f32);

impl<'a> Iterator for Weighted<'a> {
    type Item = std::iter::Map<std::slice::ChunksExact<'a, f32>, fn(&[f32]) -> Influence>;

    fn next(&mut self) -> Option<Self::Item> {
        self.left = self.left.checked_sub(1)?;
        let (&n, rest) = self.values.split_first()?;
        let (v, rest) = rest.split_at_checked((n as usize).checked_mul(4)?)?;
        self.values = rest;
        let influence: fn(&[f32]) -> Influence = |b| (b[0] as u32, b[1], b[2], b[3]);
        Some(v.chunks_exact(4).map(influence))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

/// A sequence's `[count, start, digits, setup]` (negative numbers read as 0).
fn seq(q: &Option<j::Sequence>) -> Option<[u32; 4]> {
    q.as_ref().map(|q| {
        let u = |v: i32| u32::try_from(v).unwrap_or(0);
        [u(q.count), u(q.start.unwrap_or(1)), u(q.digits.unwrap_or(0)), u(q.setup.unwrap_or(0))]
    })
}

/// The fields every textured attachment (region, mesh, linked mesh) has.
struct Textured<'a> {
    /// The image path (`None` = the attachment's name).
    path: Option<&'a str>,
    /// The tint.
    color: Option<[u8; 4]>,
    /// The image sequence.
    sequence: Option<j::Sequence>,
}

/// Adds the attachment `name` of `slot` (its arrays taken); a linked mesh is queued on
/// `links`.
pub(super) fn attachment(
    c: &mut Conv<'_, '_>,
    name: &Arc<str>,
    kind: j::AttachmentKind<&str>,
    slot: u32,
    links: &mut Vec<Link>,
) -> AttachmentId {
    use j::AttachmentKind as K;
    let kind = match kind {
        K::Region { path, x, y, scale_x, scale_y, rotation, width, height, color, sequence } => {
            let t = Textured { path, color, sequence };
            region(c, name, t, [x, y, rotation, scale_x, scale_y], [width, height])
        }
        K::Mesh {
            path,
            color,
            width,
            height,
            sequence,
            uvs,
            vertices: v,
            triangles,
            hull,
            edges,
        } => {
            let mut m = mesh(c, name, Textured { path, color, sequence }, width, height);
            let edges = edges.unwrap_or_default();
            let verts = vertices(c, uvs.len() / 2, v);
            let hull = hull.unwrap_or(0);
            check_mesh_parts(&mut c.b, &verts, &uvs, &triangles, hull);
            m.vertices = verts;
            m.arrays = c.b.mesh_arrays(&uvs, &triangles, &edges);
            m.hull_length = hull;
            AttachmentKind::Mesh(m)
        }
        K::LinkedMesh { path, color, width, height, sequence, parent, skin, timelines } => {
            let m = mesh(c, name, Textured { path, color, sequence }, width, height);
            let at = c.b.here();
            let inherit = timelines.unwrap_or(true);
            let (skin, parent) = (skin.map(str::to_owned), parent.to_owned());
            links.push(Link { mesh: m.timeline_attachment, skin, slot, parent, inherit, at });
            AttachmentKind::Mesh(m)
        }
        K::BoundingBox { vertex_count, vertices: v, color: col } => {
            AttachmentKind::BoundingBox(BoundingBoxAttachment {
                vertices: vertices(c, vertex_count as usize, v),
                color: col.map(Color::from_bytes),
            })
        }
        K::Path { closed, constant_speed, vertex_count, vertices: v, lengths, color: col } => {
            AttachmentKind::Path(PathAttachment {
                vertices: vertices(c, vertex_count as usize, v),
                lengths: lengths.iter().map(|&l| c.b.fs("path length", l)).collect(),
                closed: closed.unwrap_or(false),
                constant_speed: constant_speed.unwrap_or(true),
                color: col.map(Color::from_bytes),
            })
        }
        K::Point { x, y, rotation, color: col } => AttachmentKind::Point(PointAttachment {
            x: c.b.fs("x", x.unwrap_or(0.0)),
            y: c.b.fs("y", y.unwrap_or(0.0)),
            rotation: c.b.f("rotation", rotation.unwrap_or(0.0)),
            color: col.map(Color::from_bytes),
        }),
        K::Clipping { end, vertex_count, vertices: v, color: col } => {
            let end_slot = match end {
                Some(e) => c.slot(e),
                None => {
                    c.b.report(ProblemKind::MissingName { what: "clipping end slot" });
                    SlotId(0)
                }
            };
            AttachmentKind::Clipping(ClippingAttachment {
                end_slot,
                vertices: vertices(c, vertex_count as usize, v),
                color: col.map(Color::from_bytes),
            })
        }
    };
    c.b.add_attachment(AttachmentData { name: Arc::clone(name), kind })
}

/// A region attachment: `xf` = x, y, rotation, scale x, scale y; `size` = width, height.
fn region(
    c: &mut Conv<'_, '_>,
    name: &Arc<str>,
    t: Textured<'_>,
    [x, y, rotation, scale_x, scale_y]: [Option<f32>; 5],
    [width, height]: [f32; 2],
) -> AttachmentKind {
    let path = share(name, t.path);
    let sq = c.b.sequence(&path, seq(&t.sequence));
    AttachmentKind::Region(RegionAttachment {
        path,
        color: color(t.color),
        x: c.b.fs("x", x.unwrap_or(0.0)),
        y: c.b.fs("y", y.unwrap_or(0.0)),
        rotation: c.b.f("rotation", rotation.unwrap_or(0.0)),
        scale_x: c.b.f("scale x", scale_x.unwrap_or(1.0)),
        scale_y: c.b.f("scale y", scale_y.unwrap_or(1.0)),
        width: c.b.fs("width", width),
        height: c.b.fs("height", height),
        sequence: sq,
        has_sequence: t.sequence.is_some(),
        offsets: None,
        uvs: None,
    })
}

/// A mesh without geometry (a linked mesh's until it is resolved; a mesh fills it in).
fn mesh(
    c: &mut Conv<'_, '_>,
    name: &Arc<str>,
    t: Textured<'_>,
    width: Option<f32>,
    height: Option<f32>,
) -> MeshAttachment {
    let next = AttachmentId(c.b.data.attachments.len() as u32);
    let scale = c.b.scale;
    let path = share(name, t.path);
    let sq = c.b.sequence(&path, seq(&t.sequence));
    empty_mesh(
        path,
        color(t.color),
        [width.unwrap_or(0.0) * scale, height.unwrap_or(0.0) * scale],
        (sq, t.sequence.is_some()),
        next,
    )
}

/// A tint, white when absent.
fn color(c: Option<[u8; 4]>) -> Color {
    c.map_or(Color::WHITE, Color::from_bytes)
}

#[cfg(test)]
mod tests {
    use super::integral;

    /// `integral` says what `fract() == 0.0` says, on edge values and pseudo-random bit patterns.
    #[test]
    fn integral_matches_fract() {
        let mut xs = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            8_388_607.5,
            8_388_608.0,
            -8_388_608.0,
            16_777_217.0,
            2_147_483_648.0,
            -2_147_483_904.0,
            1e30,
            -1e30,
            f32::MIN_POSITIVE,
            f32::MAX,
            f32::MIN,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ];
        let mut s = 0x9E37_79B9u32;
        for _ in 0..1_000_000 {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            xs.push(f32::from_bits(s));
            xs.push((s % 100_000) as f32 / [1.0, 2.0, 4.0, 10.0][(s % 4) as usize]);
        }
        for x in xs {
            assert_eq!(integral(x), x.fract() == 0.0, "{x:?}");
        }
    }
}
