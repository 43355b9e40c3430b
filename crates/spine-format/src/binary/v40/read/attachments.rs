//! Attachments: regions, meshes and linked meshes, bounding boxes, paths, points, clipping
//! polygons, their vertices (weighted or not) and sequences.

use super::*;

/// An optional sequence: 4.1 writes a presence bool, 4.2 uses flag bit 64, 4.0 has none.
pub(super) fn opt_sequence<'a>(c: &Ctx, i: In<'a>, flags: u8) -> Res<'a, Option<Sequence>> {
    let (i, present) = if c.v42() {
        (i, flags & 64 != 0)
    } else if c.v41() {
        bool(i)?
    } else {
        (i, false)
    };
    cond(present, |i| {
        let (i, [count, start, digits, setup_index]) = wire_sequence(&c.lim)(i)?;
        Ok((i, Sequence { count, start, digits, setup_index }))
    })
    .parse(i)
}

/// `count` vertices, weighted or not.
pub(super) fn vertices<'a>(c: &Ctx, i: In<'a>, count: usize, weighted: bool) -> Res<'a, Vertices> {
    let lim = &c.lim;
    if !weighted {
        check_count(lim, i, i, "vertex", count as u64, 8)?;
        let mut v = Vec::with_capacity(count * 2);
        let (i, ()) = f32s_into(i, count * 2, &mut v)?;
        return Ok((i, Vertices::Plain(v)));
    }
    check_count(lim, i, i, "vertex", count as u64, 1)?;
    // Above 128 bones, meshes weighted to the later bones have two-byte indices.
    let fast = if c.bones > 0x80 {
        weighted_varint(c, i, count)
    } else {
        weighted_one_byte(lim, i, count, c.bones)
    };
    match fast {
        Some(done) => Ok(done),
        None => weighted_checked(c, i, count),
    }
}

/// Weighted [`vertices`] read with every count, bone index and float checked (what the fast
/// paths decline: errors, long varints, out-of-range bones).
pub(super) fn weighted_checked<'a>(c: &Ctx, i: In<'a>, count: usize) -> Res<'a, Vertices> {
    let lim = &c.lim;
    // The influences go to reused scratch buffers, then are copied into exact ones (the
    // influence count is only known at the end; growing two buffers costs more).
    let mut bones = c.weight_bones.take();
    let mut values = c.weight_values.take();
    bones.clear();
    values.clear();
    // Most meshes have one to three influences per vertex; bounded by the remaining input.
    let guess = (count * 2).min(i.len() / 13);
    bones.reserve(guess);
    values.reserve(guess * 3);
    let r = items(count, None, |i, _| {
        let (i, n) = crate::binary::wire::count(lim, "vertex bone", 13)(i)?;
        bones.reserve(n);
        values.reserve(n * 3);
        let (i, ()) = each(n, None, |i, _| {
            let (i, (bone, xyw)) = match index_f32x3(i, c.bones) {
                Some(w) => w,
                None => {
                    let (i, bone) = index("vertex bone", c.bones)(i)?;
                    let (i, xyw) = f32s::<3>(i)?;
                    (i, (bone, xyw))
                }
            };
            bones.push(bone);
            values.extend_from_slice(&xyw);
            Ok((i, ()))
        })(i)?;
        Ok((i, n as u32))
    })(i);
    let r = r.map(|(i, counts)| {
        let v = WeightedVertices { counts, bones: bones.to_vec(), values: values.to_vec() };
        (i, Vertices::Weighted(v))
    });
    c.weight_bones.set(bones);
    c.weight_values.set(values);
    r
}

/// The first pass of the weighted fast paths: the influence count of each of `count`
/// vertices (one byte, within the smallest limit) into `counts` (its contents replaced),
/// `skip(at, n)` giving where the `n` influences starting at `at` end. Returns where the
/// vertices end and the influence total; `None` when a count is longer, over a limit or
/// past the input.
#[inline(always)]
fn influence_counts(
    lim: &Lim,
    i: In<'_>,
    count: usize,
    counts: &mut Vec<u32>,
    skip: impl Fn(usize, usize) -> Option<usize>,
) -> Option<(usize, usize)> {
    let min_count = lim.min_count();
    counts.clear();
    counts.resize(count, 0);
    let mut at = 0usize;
    let mut total = 0usize;
    for c in counts.iter_mut() {
        let n = *i.get(at)?;
        // Counts above the smallest limit go through the checked path's limit lookup.
        if n >= 0x80 || u64::from(n) > min_count {
            return None;
        }
        *c = u32::from(n);
        total += usize::from(n);
        at = skip(at + 1, usize::from(n))?;
    }
    Some((at, total))
}

/// [`vertices`] (weighted) when every influence count and bone index takes one byte and
/// all is in range (the usual file): a first pass reads the influence counts, a second
/// writes the influences into exactly sized buffers and checks their bones. `None`
/// (nothing read) sends the caller to the checked path, which reads the same values and
/// reports any error.
pub(super) fn weighted_one_byte<'a>(
    lim: &Lim,
    i: In<'a>,
    count: usize,
    bones: usize,
) -> Option<(In<'a>, Vertices)> {
    let mut w = WeightedVertices::default();
    let rest = weighted_one_byte_into(lim, i, count, bones, &mut w)?;
    Some((rest, Vertices::Weighted(w)))
}

/// [`weighted_one_byte`] into `w`'s buffers (their contents replaced; empty ones are
/// allocated exactly).
pub(super) fn weighted_one_byte_into<'a>(
    lim: &Lim,
    i: In<'a>,
    count: usize,
    bones: usize,
    w: &mut WeightedVertices,
) -> Option<In<'a>> {
    // Pass 1: `n` influences of 13 bytes (bone, x, y, weight) after each count.
    let (at, total) = influence_counts(lim, i, count, &mut w.counts, |at, n| Some(at + 13 * n))?;
    // Pass 2: at most one influence per 13 bytes of input, written in place. (`resize`,
    // not `vec![0; n]`: a zeroed allocation is glibc's `calloc`, which here made the heap
    // trim and regrow around each load: spineboy +7 % wall.)
    let (mut body, rest) = i.split_at_checked(at)?;
    w.bones.clear();
    w.values.clear();
    w.bones.resize(total, 0);
    w.values.resize(3 * total, 0.0);
    let f = |b: &[u8], k: usize| {
        f32::from_bits(u32::from_be_bytes([b[k], b[k + 1], b[k + 2], b[k + 3]]))
    };
    let (mut ob, mut ov) = (w.bones.as_mut_slice(), w.values.as_chunks_mut::<3>().0);
    // The largest bone index byte: checked once at the end (a byte of 0x80 or more is a
    // longer varint, which the checked path reads).
    let mut max = 0u8;
    for &n in &w.counts {
        let n = n as usize;
        let (recs, r) = body.get(1..)?.split_at_checked(13 * n)?;
        let (b, rb) = std::mem::take(&mut ob).split_at_mut_checked(n)?;
        let (v, rv) = std::mem::take(&mut ov).split_at_mut_checked(n)?;
        for ((rec, b), v) in recs.chunks_exact(13).zip(b).zip(v) {
            max = max.max(rec[0]);
            *b = u32::from(rec[0]);
            *v = [f(rec, 1), f(rec, 5), f(rec, 9)];
        }
        (body, ob, ov) = (r, rb, rv);
    }
    if max >= 0x80 || usize::from(max) >= bones {
        return None;
    }
    Some(rest)
}

/// Weighted [`vertices`] of a skeleton of more than 128 bones, whose bone indices take one or
/// two bytes (canonical varints below 16 384), when every influence count takes one byte and
/// all is in range: one pass into the reused scratch buffers, then copies of exact size.
/// `None` (nothing read) sends the caller to the checked path, which reads the same values
/// and reports any error.
///
/// One pass: [`weighted_one_byte`]'s first pass over the counts alone is a chain of dependent
/// loads as long as the vertices, which pays for itself when records are 13 bytes each, but
/// not with a branch per bone index to find where each vertex ends.
fn weighted_varint<'a>(c: &Ctx, i: In<'a>, count: usize) -> Option<(In<'a>, Vertices)> {
    let mut bones = c.weight_bones.take();
    let mut values = c.weight_values.take();
    let mut counts = Vec::with_capacity(count);
    let r = weighted_varint_into(c, i, count, &mut bones, &mut values, &mut counts).and_then(
        |(i, done)| {
            let v = WeightedVertices {
                counts,
                bones: bones.get(..done)?.to_vec(),
                values: values.get(..3 * done)?.to_vec(),
            };
            Some((i, Vertices::Weighted(v)))
        },
    );
    c.weight_bones.set(bones);
    c.weight_values.set(values);
    r
}

/// [`weighted_varint`] with its scratch buffers, written by index (their lengths are their
/// sizes; grown, within what the input can hold, when a vertex does not fit): a `push` per
/// influence checked the capacity and kept each buffer's length in memory (mix-and-match's
/// load: 2.4 % more instructions).
#[inline(always)]
pub(super) fn weighted_varint_into<'a>(
    c: &Ctx,
    i: In<'a>,
    count: usize,
    bones: &mut Vec<u32>,
    values: &mut Vec<f32>,
    counts: &mut Vec<u32>,
) -> Option<(In<'a>, usize)> {
    let min_count = c.lim.min_count();
    // At most one influence per 13 bytes of input.
    let most = i.len() / 13;
    let f = |b: &[u8; 12], k: usize| {
        f32::from_bits(u32::from_be_bytes([b[k], b[k + 1], b[k + 2], b[k + 3]]))
    };
    counts.clear();
    counts.reserve(count);
    let mut body = i;
    // Influences written, and the largest bone index (checked once at the end).
    let (mut done, mut max) = (0usize, 0u32);
    for _ in 0..count {
        let (&n, r) = body.split_first()?;
        // Counts above the smallest limit go through the checked path's limit lookup.
        if n >= 0x80 || u64::from(n) > min_count {
            return None;
        }
        counts.push(u32::from(n));
        body = r;
        let end = done + usize::from(n);
        if end > bones.len() {
            grow_scratch(bones, values, end, count.saturating_mul(4), most)?;
        }
        let ob = bones.get_mut(done..end)?;
        let ov = values.get_mut(3 * done..3 * end)?.as_chunks_mut::<3>().0;
        for (b, v) in ob.iter_mut().zip(ov) {
            let (&b0, r) = body.split_first()?;
            let (bone, r) = if b0 < 0x80 {
                (u32::from(b0), r)
            } else {
                let (&b1, r) = r.split_first()?;
                if b1 == 0 || b1 >= 0x80 {
                    return None;
                }
                (u32::from(b0 & 0x7f) | u32::from(b1) << 7, r)
            };
            let (rec, r) = r.split_first_chunk::<12>()?;
            max = max.max(bone);
            *b = bone;
            *v = [f(rec, 0), f(rec, 4), f(rec, 8)];
            body = r;
        }
        done = end;
    }
    if max as usize >= c.bones {
        return None;
    }
    Some((body, done))
}

/// Grows the weighted scratch buffers to hold at least `need` influences: to twice their
/// size or `guess`, whichever is larger, and never past `most` (`None` when `need` is past
/// it: the input cannot hold that many).
#[cold]
#[inline(never)]
fn grow_scratch(
    bones: &mut Vec<u32>,
    values: &mut Vec<f32>,
    need: usize,
    guess: usize,
    most: usize,
) -> Option<()> {
    if need > most {
        return None;
    }
    let len = need.max(bones.len() * 2).max(guess).min(most);
    bones.resize(len, 0);
    values.resize(3 * len, 0.0);
    Some(())
}

/// A vertex count and the vertices (4.0/4.1: a `weighted` bool follows the count).
pub(super) fn counted_vertices<'a>(c: &Ctx, i: In<'a>, weighted_flag: bool) -> Res<'a, Vertices> {
    let (i, count) = count(&c.lim, "vertex", 1)(i)?;
    let (i, weighted) = if c.v42() { (i, weighted_flag) } else { bool(i)? };
    vertices(c, i, count, weighted)
}

/// 4.0/4.1: a count then 16-bit values. 4.2: `n` varints (the caller knows the count).
pub(super) fn shorts<'a>(
    c: &Ctx,
    i: In<'a>,
    what: &'static str,
    n: Option<usize>,
) -> Res<'a, Vec<u32>> {
    let min = if c.v42() { 1 } else { 2 };
    let (i, n) = match n {
        Some(n) => (i, n),
        None => count(&c.lim, what, min)(i)?,
    };
    check_count(&c.lim, i, i, what, n as u64, min)?;
    if c.v42() {
        let mut v = Vec::with_capacity(n);
        let (i, ()) = varints_into(i, n, &mut v)?;
        return Ok((i, v));
    }
    items(n, None, |i, _| u16(i).map(|(i, v)| (i, u32::from(v))))(i)
}

// Inlined into the skin reader: returned by value, the attachment is copied twice more.
#[inline(always)]
pub(super) fn attachment<'a>(
    c: &Ctx,
    i: In<'a>,
    linked_skins: &mut Vec<(usize, u32)>,
) -> Res<'a, Attachment> {
    let v42 = c.v42();
    let (i, (flags, name, ty, type_at)) = if v42 {
        let (j, flags) = u8(i)?;
        let (j, name) = cond(flags & 8 != 0, str_ref(c.strings)).parse(j)?;
        (j, (flags, name.unwrap_or(StrRef::NONE), flags & 7, i))
    } else {
        let (at, name) = str_ref(c.strings)(i)?;
        let (j, t) = u8(at)?;
        (j, (t, name, t, at))
    };
    let bit = |b: u8| flags & b != 0;
    let (i, kind) = match ty {
        attachment_type::REGION => {
            section("region", |i| region(c, i, flags).map(|(i, r)| (i, AttachmentKind::Region(r))))
                .parse(i)?
        }
        attachment_type::BOUNDING_BOX => section("bounding box", |i| {
            let (i, vertices) = counted_vertices(c, i, bit(16))?;
            let (i, color) = opt_rgba(c.nonessential)(i)?;
            Ok((i, AttachmentKind::BoundingBox(VertexShape { vertices, color })))
        })
        .parse(i)?,
        attachment_type::MESH => {
            section("mesh", |i| mesh(c, i, flags).map(|(i, m)| (i, AttachmentKind::Mesh(m))))
                .parse(i)?
        }
        attachment_type::LINKED_MESH => section("linked mesh", |i| {
            let (i, lm) = linked_mesh(c, i, flags, linked_skins)?;
            Ok((i, AttachmentKind::LinkedMesh(lm)))
        })
        .parse(i)?,
        attachment_type::PATH => section("path", |i| {
            let (i, (closed, constant_speed)) =
                if v42 { (i, (bit(16), bit(32))) } else { (bool, bool).parse(i)? };
            let (i, vertices) = counted_vertices(c, i, bit(64))?;
            let (i, lengths) = f32_vec(&c.lim, "path length", vertices.count() / 3)(i)?;
            let (i, color) = opt_rgba(c.nonessential)(i)?;
            let p = PathAttachment { closed, constant_speed, vertices, lengths, color };
            Ok((i, AttachmentKind::Path(p)))
        })
        .parse(i)?,
        attachment_type::POINT => section("point", |i| {
            let (i, [rotation, x, y]) = f32s(i)?;
            let (i, color) = opt_rgba(c.nonessential)(i)?;
            Ok((i, AttachmentKind::Point(Point { rotation, x, y, color })))
        })
        .parse(i)?,
        attachment_type::CLIPPING => section("clipping", |i| {
            let (i, end_slot) = index("clipping end slot", c.slots)(i)?;
            let (i, vertices) = counted_vertices(c, i, bit(16))?;
            let (i, color) = opt_rgba(c.nonessential)(i)?;
            Ok((i, AttachmentKind::Clipping(Clipping { end_slot, vertices, color })))
        })
        .parse(i)?,
        t => return Err(PErr::bad_enum(type_at, "attachment type", t.into())),
    };
    Ok((i, Attachment { flags, name, kind }))
}

/// A string-table reference when `present` (4.2 flag bits), else [`StrRef::NONE`].
pub(super) fn opt_ref<'a>(c: &Ctx, present: bool, i: In<'a>) -> Res<'a, StrRef> {
    cond(present, str_ref(c.strings)).parse(i).map(|(i, r)| (i, r.unwrap_or_default()))
}

/// A color when `present` (4.2 flag bits), else white.
pub(super) fn color_or_white(present: bool, i: In<'_>) -> Res<'_, [u8; 4]> {
    opt_rgba(present)(i).map(|(i, r)| (i, r.unwrap_or([0xff; 4])))
}

/// A region attachment: 4.2 gates path, color, sequence and rotation by `flags` bits.
pub(super) fn region<'a>(c: &Ctx, i: In<'a>, flags: u8) -> Res<'a, Region> {
    if c.v42() {
        let (i, path) = opt_ref(c, flags & 16 != 0, i)?;
        let (i, color) = color_or_white(flags & 32 != 0, i)?;
        let (i, sequence) = opt_sequence(c, i, flags)?;
        let (i, rotation) = opt_f32(flags & 128 != 0)(i)?;
        let (i, [x, y, scale_x, scale_y, width, height]) = f32s(i)?;
        let rotation = rotation.unwrap_or(0.0);
        let r = Region { path, color, sequence, rotation, x, y, scale_x, scale_y, width, height };
        Ok((i, r))
    } else {
        let (i, path) = str_ref(c.strings)(i)?;
        let (i, [rotation, x, y, scale_x, scale_y, width, height]) = f32s(i)?;
        let (i, color) = rgba(i)?;
        let (i, sequence) = opt_sequence(c, i, flags)?;
        let r = Region { path, color, sequence, rotation, x, y, scale_x, scale_y, width, height };
        Ok((i, r))
    }
}

/// A linked mesh: 4.2 names its skin by index (checked once every skin is known, so its
/// position goes to `linked_skins`), earlier versions by name.
pub(super) fn linked_mesh<'a>(
    c: &Ctx,
    i: In<'a>,
    flags: u8,
    linked_skins: &mut Vec<(usize, u32)>,
) -> Res<'a, LinkedMesh> {
    let mut size = cond(c.nonessential, f32s::<2>);
    if c.v42() {
        let (i, path) = opt_ref(c, flags & 16 != 0, i)?;
        let (i, color) = color_or_white(flags & 32 != 0, i)?;
        let (skin_at, sequence) = opt_sequence(c, i, flags)?;
        let (i, skin) = varint(skin_at)?;
        linked_skins.push((skin_at.len(), skin));
        let (i, parent) = str_ref(c.strings)(i)?;
        let (i, size) = size.parse(i)?;
        let lm = LinkedMesh {
            path,
            color,
            sequence,
            skin: SkinRef::Index(skin),
            parent,
            inherit_timelines: flags & 128 != 0,
            size,
        };
        Ok((i, lm))
    } else {
        let (i, path) = str_ref(c.strings)(i)?;
        let (i, color) = rgba(i)?;
        let (i, skin) = str_ref(c.strings)(i)?;
        let (i, parent) = str_ref(c.strings)(i)?;
        let (i, inherit_timelines) = bool(i)?;
        let (i, sequence) = opt_sequence(c, i, flags)?;
        let (i, size) = size.parse(i)?;
        let skin = SkinRef::Name(skin);
        Ok((i, LinkedMesh { path, color, sequence, skin, parent, inherit_timelines, size }))
    }
}

pub(super) fn mesh<'a>(c: &Ctx, i: In<'a>, flags: u8) -> Res<'a, Mesh> {
    let lim = &c.lim;
    let extras = |i| {
        let (i, edges) = shorts(c, i, "edge", None)?;
        let (i, [width, height]) = f32s(i)?;
        Ok((i, MeshExtras { edges, width, height }))
    };
    if c.v42() {
        let (i, path) = cond(flags & 16 != 0, str_ref(c.strings)).parse(i)?;
        let (i, color) = opt_rgba(flags & 32 != 0)(i)?;
        let (i, sequence) = opt_sequence(c, i, flags)?;
        let (i, hull) = varint(i)?;
        // One read of the arrays into reused buffers: lent to the loader's sink, or copied
        // into the AST (exactly sized).
        let weighted = flags & 128 != 0;
        let mut scratch = c.mesh_scratch.take();
        let r = super::lent_mesh::mesh_arrays(c, i, weighted, hull, &mut scratch);
        let sink = c.mesh_sink.take();
        let owned = match (&r, sink) {
            (Ok(_), Some(mut sink)) => {
                sink(scratch.lend());
                c.mesh_sink.set(Some(sink));
                None
            }
            (Ok(_), None) => Some(scratch.lend().to_owned_arrays()),
            (Err(_), sink) => {
                c.mesh_sink.set(sink);
                None
            }
        };
        c.mesh_scratch.set(scratch);
        let (i, mut extras) = r?;
        let (vertices, uvs, triangles) = match owned {
            Some((vertices, uvs, triangles, edges)) => {
                if let Some(e) = &mut extras {
                    e.edges = edges;
                }
                (vertices, uvs, triangles)
            }
            // Lent: the kind stays known, the arrays are the sink's.
            None if weighted => (Vertices::Weighted(WeightedVertices::default()), vec![], vec![]),
            None => (Vertices::Plain(Vec::new()), vec![], vec![]),
        };
        let m = Mesh {
            path: path.unwrap_or_default(),
            color: color.unwrap_or([0xff; 4]),
            sequence,
            uvs,
            triangles,
            vertices,
            hull,
            extras,
        };
        return Ok((i, m));
    }
    let (i, path) = str_ref(c.strings)(i)?;
    let (i, color) = rgba(i)?;
    let (i, n) = count(lim, "vertex", 8)(i)?;
    let (i, uvs) = f32_vec(lim, "uv", n * 2)(i)?;
    let (i, triangles) = shorts(c, i, "triangle index", None)?;
    let (i, weighted) = bool(i)?;
    let (i, vertices) = vertices(c, i, n, weighted)?;
    let (i, hull) = varint(i)?;
    let (i, sequence) = opt_sequence(c, i, flags)?;
    let (i, extras) = cond(c.nonessential, extras).parse(i)?;
    Ok((i, Mesh { path, color, sequence, uvs, triangles, vertices, hull, extras }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Weighted vertices: `(bone, x, y, weight)` influences per vertex, counts and bones as
    /// varints (bones up to 16 383).
    fn encode(vertices: &[Vec<(u16, f32, f32, f32)>]) -> Vec<u8> {
        let mut out = Vec::new();
        let varint = |out: &mut Vec<u8>, v: u16| {
            if v < 0x80 {
                out.push(v as u8);
            } else {
                out.extend([(v & 0x7f) as u8 | 0x80, (v >> 7) as u8]);
            }
        };
        for inf in vertices {
            varint(&mut out, inf.len() as u16);
            for &(b, x, y, w) in inf {
                varint(&mut out, b);
                for f in [x, y, w] {
                    out.extend(f.to_be_bytes());
                }
            }
        }
        out.extend([0xAB, 0xCD]); // what follows the vertices
        out
    }

    /// The one-byte, varint and checked paths read the same vertices: the same values once
    /// with bones 0–2 (all three paths) and once with bone 2 renumbered 130 (a two-byte
    /// varint: not the one-byte path).
    #[test]
    fn one_byte_and_checked_weighted_vertices_agree() {
        let verts = vec![
            vec![(0, 1.5, -2.0, 1.0)],
            vec![(1, 0.25, 3.0, 0.5), (2, -7.0, 0.0, 0.5)],
            vec![],
            vec![(2, f32::MAX, -0.0, 0.1), (0, 1e-40, 8.0, 0.2), (1, 4.0, 5.0, 0.7)],
        ];
        let renumbered: Vec<Vec<_>> = verts
            .iter()
            .map(|v| {
                v.iter().map(|&(b, x, y, w)| (if b == 2 { 130 } else { b }, x, y, w)).collect()
            })
            .collect();
        let mut c = Ctx::new(Lim::new(Limits::default()), 0, SpineVersion::V4_2, false, false);
        c.bones = 131;
        let (fast, slow) = (encode(&verts), encode(&renumbered));
        assert!(weighted_one_byte(&c.lim, &fast, verts.len(), c.bones).is_some());
        assert!(weighted_one_byte(&c.lim, &slow, verts.len(), c.bones).is_none());
        // The varint path reads both, the same as the checked path.
        let weighted = |r: Option<(In<'_>, Vertices)>| match r {
            Some((rest, Vertices::Weighted(w))) => (rest.len(), w),
            _ => panic!("a fast path declined"),
        };
        for v in [&fast, &slow] {
            let two = weighted(weighted_varint(&c, v, verts.len()));
            let checked = weighted(weighted_checked(&c, v, verts.len()).ok());
            assert_eq!(
                (two.0, &two.1.counts, &two.1.bones),
                (checked.0, &checked.1.counts, &checked.1.bones)
            );
            let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&two.1.values), bits(&checked.1.values));
        }
        // A non-canonical two-byte index (second byte 0), a three-byte one and a bone out of
        // range: the varint path declines and the checked path reports each.
        let at = slow.iter().position(|&b| b == 0x82).unwrap();
        for (patch, kind) in [
            (vec![0x82, 0x00], "NonCanonicalVarint"),
            (
                vec![0x82, 0x81, 0x01],
                r#"IndexOutOfRange { what: "vertex bone", index: 16514, len: 131 }"#,
            ),
            (vec![0x83, 0x01], r#"IndexOutOfRange { what: "vertex bone", index: 131, len: 131 }"#),
        ] {
            let mut bad = slow.clone();
            bad.splice(at..at + 2, patch);
            assert!(weighted_varint(&c, &bad, verts.len()).is_none(), "{kind}");
            let err = match vertices(&c, &bad, 4, true) {
                Err(nom::Err::Error(e) | nom::Err::Failure(e)) => format!("{e:?}"),
                other => panic!("expected an error, got {:?}", other.map(|(rest, _)| rest.len())),
            };
            assert!(err.contains(kind), "{kind}: {err}");
        }
        let (rest_fast, a) = vertices(&c, &fast, 4, true).unwrap();
        let (rest_slow, b) = vertices(&c, &slow, 4, true).unwrap();
        assert_eq!((rest_fast, rest_slow), (&[0xAB, 0xCD][..], &[0xAB, 0xCD][..]));
        let (Vertices::Weighted(a), Vertices::Weighted(mut b)) = (a, b) else { panic!() };
        b.bones.iter_mut().filter(|b| **b == 130).for_each(|b| *b = 2);
        assert_eq!(a.counts, [1, 2, 0, 3]);
        assert_eq!(a.bones, [0, 1, 2, 2, 0, 1]);
        assert_eq!((&a.counts, &a.bones), (&b.counts, &b.bones));
        let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&a.values), bits(&b.values));
        // A bone out of range: the one-byte path declines, the checked one reports it.
        c.bones = 2;
        assert!(weighted_one_byte(&c.lim, &fast, verts.len(), c.bones).is_none());
        let err = match vertices(&c, &fast, 4, true) {
            Err(nom::Err::Error(e) | nom::Err::Failure(e)) => format!("{e:?}"),
            other => panic!("expected an error, got {:?}", other.map(|(rest, _)| rest.len())),
        };
        let kind = r#"IndexOutOfRange { what: "vertex bone", index: 2, len: 2 }"#;
        assert!(err.contains(kind), "{err}");
    }

    use spine_gen::Rng;

    /// Random weighted vertices: mostly valid, with 1-3 byte and non-canonical bone
    /// varints, bones around the limit, long counts, then a few mutations.
    fn gen(r: &mut Rng, bones: usize, count: usize) -> Vec<u8> {
        let mut out = Vec::new();
        for _ in 0..count {
            let n = match r.below(10) {
                0 => r.below(256) as u8,
                _ => r.below(5) as u8,
            };
            out.push(n);
            for _ in 0..n {
                let b = match r.below(4) {
                    0 => r.below(0x80) as u32,
                    1 => bones as u32 - 1 - r.below(3) as u32,
                    2 => bones as u32 + r.below(3) as u32,
                    _ => r.below(bones + 10) as u32,
                };
                match r.below(12) {
                    0 => out.extend([(b as u8) | 0x80, 0x00]),
                    1 => out.extend([(b as u8) | 0x80, 0x80 | (b >> 7) as u8, r.below(3) as u8]),
                    _ => {
                        let mut v = b;
                        loop {
                            let byte = (v & 0x7f) as u8;
                            v >>= 7;
                            if v == 0 {
                                out.push(byte);
                                break;
                            }
                            out.push(byte | 0x80);
                        }
                    }
                }
                for _ in 0..12 {
                    out.push(r.below(256) as u8);
                }
            }
        }
        out.extend([0xAB, 0xCD]);
        // mutations
        for _ in 0..r.below(3) {
            if out.is_empty() {
                break;
            }
            let k = r.below(out.len());
            match r.below(3) {
                0 => out[k] = r.below(256) as u8,
                1 => out.truncate(k),
                _ => out[k] ^= 0x80,
            }
        }
        out
    }

    /// The varint path never accepts what the checked path rejects, and what it accepts
    /// it reads the same (rest, counts, bones, value bits); `vertices` as a whole never
    /// accepts what the checked path rejects. (Review fuzz, 400k inputs once; 40k here.)
    #[test]
    fn varint_and_checked_agree_on_random_input() {
        let mut r = Rng::new(0x9E37_79B9_7F4A_7C15);
        let mut accepted = 0u64;
        let all_bones = [129usize, 130, 131, 200, 255, 256, 1000, 16383, 16384, 20000];
        // One context per bone count kept for the whole run, as a load keeps its own from
        // mesh to mesh: its scratch buffers hold what earlier inputs left in them.
        let kept: Vec<Ctx> = all_bones
            .iter()
            .map(|&bones| {
                let mut c =
                    Ctx::new(Lim::new(Limits::default()), 0, SpineVersion::V4_2, false, false);
                c.bones = bones;
                c
            })
            .collect();
        for iter in 0..40_000u64 {
            let bones = all_bones[(iter % 10) as usize];
            let mut limits = Limits::default();
            if iter % 7 == 0 {
                limits.max_vertices = r.below(6);
            }
            let mut c = Ctx::new(Lim::new(limits), 0, SpineVersion::V4_2, false, false);
            c.bones = bones;
            let count = r.below(6);
            let input = gen(&mut r, bones, count);
            let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
            if iter % 7 != 0 {
                // The kept context reads what a fresh one reads.
                let fresh = weighted_varint(&c, &input, count);
                let reused = weighted_varint(&kept[(iter % 10) as usize], &input, count);
                let read = |r: &Option<(In<'_>, Vertices)>| {
                    r.as_ref().map(|(rest, v)| match v {
                        Vertices::Weighted(w) => {
                            (rest.len(), w.counts.clone(), w.bones.clone(), bits(&w.values))
                        }
                        Vertices::Plain(_) => panic!("weighted vertices expected"),
                    })
                };
                assert_eq!(read(&fresh), read(&reused), "{input:?}");
            } else {
                // The checked path shares the scratch (and leaves its length changed).
                let _ = weighted_checked(&kept[(iter % 10) as usize], &input, count);
            }
            match (weighted_varint(&c, &input, count), weighted_checked(&c, &input, count)) {
                (Some((rest, Vertices::Weighted(a))), Ok((rest2, Vertices::Weighted(b)))) => {
                    accepted += 1;
                    assert_eq!(rest.len(), rest2.len(), "{input:?}");
                    assert_eq!((&a.counts, &a.bones), (&b.counts, &b.bones), "{input:?}");
                    assert_eq!(bits(&a.values), bits(&b.values), "{input:?}");
                }
                (Some(_), other) => {
                    panic!("varint accepted, checked: {:?}; {input:?}", other.map(|x| x.0.len()))
                }
                (None, _) => {}
            }
            if vertices(&c, &input, count, true).is_ok() {
                assert!(weighted_checked(&c, &input, count).is_ok(), "{input:?}");
            }
        }
        assert!(accepted > 1_000, "{accepted}");
    }
}
