//! Attachments: regions, meshes and linked meshes, bounding boxes, paths, points, clipping
//! polygons, their vertices (weighted or not) and sequences.

use super::*;

pub(super) fn sequence<'a, 'c>(
    ctx: &'c Ctx<'_>,
    present: bool,
) -> impl FnMut(In<'a>) -> Res<'a, Option<Sequence>> + use<'a, 'c> {
    move |i| {
        cond(present, |i| {
            let (i, [count, start, digits, setup_index]) = wire_sequence(ctx.lim)(i)?;
            Ok((i, Sequence { count, start, digits, setup_index }))
        })
        .parse(i)
    }
}

pub(super) fn vertices<'a>(ctx: &Ctx<'_>, i: In<'a>, weighted: bool) -> Res<'a, Vertices> {
    section("vertices", |at| {
        let (i, vertex_count) = varint(at)?;
        let lim = ctx.lim;
        if !weighted {
            check_count(lim, at, i, "vertex", u64::from(vertex_count), 8)?;
            let (i, v) = f32_vec(lim, "vertex", vertex_count as usize * 2)(i)?;
            return Ok((i, Vertices::Unweighted(v)));
        }
        check_count(lim, at, i, "vertex", u64::from(vertex_count), 1)?;
        let at = i;
        let (i, bones_length) = varint(at)?;
        let bones_length = bones_length as usize;
        check_count(lim, at, i, "bones entry", bones_length as u64, 1)?;
        // Groups of influences (a count and its influences: `n + 1` entries each) until
        // `bonesLength` entries are read.
        // Influences: at most `bonesLength - vertex count`, each at least 13 bytes.
        let influences = bones_length.saturating_sub(vertex_count as usize).min(i.len() / 13);
        let mut w = WeightedVertices {
            counts: Vec::with_capacity(vertex_count as usize),
            bones: Vec::with_capacity(influences),
            values: Vec::with_capacity(influences * 3),
        };
        let (i, groups) = budgeted(bones_length, 0, |group_at, left| {
            let (j, n) = varint(group_at)?;
            let n = n as usize;
            if n >= left {
                return Err(PErr::invalid(
                    group_at,
                    format!("vertex bone count {n} overruns bonesLength {bones_length}"),
                ));
            }
            check_count(lim, group_at, j, "vertex bone", n as u64, 13)?;
            let (j, ()) = each(n, None, |i, _| {
                let (i, bone) = index("bone", ctx.bones)(i)?;
                let (i, xyw) = f32s::<3>(i)?;
                w.bones.push(bone);
                w.values.extend_from_slice(&xyw);
                Ok((i, ()))
            })(j)?;
            w.counts.push(n as u32);
            Ok((j, ((), n + 1)))
        })(i)?;
        if groups.len() != vertex_count as usize {
            return Err(PErr::invalid(
                at,
                format!(
                    "bonesLength {bones_length} covers {} vertices, not {vertex_count}",
                    groups.len()
                ),
            ));
        }
        Ok((i, Vertices::Weighted(w)))
    })
    .parse(i)
}

pub(super) fn attachment<'a>(
    ctx: &Ctx<'_>,
    at: In<'a>,
    linked: &mut Vec<(usize, u32)>,
) -> Res<'a, Attachment> {
    let (i, flags) = u8(at)?;
    let (i, name) = cond(flags & 8 != 0, str_ref(ctx.strings)).parse(i)?;
    let ne = ctx.nonessential;
    let lim = ctx.lim;
    let opt_ref = |present: bool| cond(present, str_ref(ctx.strings));
    let (i, kind) = match flags & 7 {
        0 => {
            let (i, path) = opt_ref(flags & 16 != 0).parse(i)?;
            let (i, color) = opt_rgba(flags & 32 != 0)(i)?;
            let (i, sequence) = sequence(ctx, flags & 64 != 0)(i)?;
            let (i, rotation) = opt_f32(flags & 128 != 0)(i)?;
            let (i, [x, y, scale_x, scale_y, width, height]) = f32s(i)?;
            let region = RegionAttachment {
                path,
                color,
                sequence,
                rotation,
                x,
                y,
                scale_x,
                scale_y,
                width,
                height,
            };
            (i, AttachmentKind::Region(region))
        }
        1 => {
            let (i, vertices) = vertices(ctx, i, flags & 16 != 0)?;
            let (i, color) = opt_rgba(ne)(i)?;
            (i, AttachmentKind::BoundingBox(BoundingBoxAttachment { vertices, color }))
        }
        2 => {
            let (i, mesh) = mesh_attachment(ctx, i, flags)?;
            (i, AttachmentKind::Mesh(mesh))
        }
        3 => {
            let (i, path) = opt_ref(flags & 16 != 0).parse(i)?;
            let (i, color) = opt_rgba(flags & 32 != 0)(i)?;
            let (i, sequence) = sequence(ctx, flags & 64 != 0)(i)?;
            let (skin_at, source_slot) = index("slot", ctx.slots)(i)?;
            let (i, skin) = varint(skin_at)?;
            linked.push((skin_at.len(), skin));
            let (i, source) = str_ref(ctx.strings)(i)?;
            let (i, size) = cond(ne, f32s::<2>).parse(i)?;
            let mesh =
                LinkedMeshAttachment { path, color, sequence, source_slot, skin, source, size };
            (i, AttachmentKind::LinkedMesh(mesh))
        }
        4 => {
            let (i, vertices) = vertices(ctx, i, flags & 64 != 0)?;
            let (i, lengths) = f32_vec(lim, "path length", vertices.world_length() / 6)(i)?;
            let (i, color) = opt_rgba(ne)(i)?;
            (i, AttachmentKind::Path(PathAttachment { vertices, lengths, color }))
        }
        5 => {
            let (i, [rotation, x, y]) = f32s(i)?;
            let (i, color) = opt_rgba(ne)(i)?;
            (i, AttachmentKind::Point(PointAttachment { rotation, x, y, color }))
        }
        6 => {
            let (i, end_slot) = index("slot", ctx.slots)(i)?;
            let (i, vertices) = vertices(ctx, i, flags & 16 != 0)?;
            let (i, color) = opt_rgba(ne)(i)?;
            (i, AttachmentKind::Clipping(ClippingAttachment { end_slot, vertices, color }))
        }
        v => return Err(PErr::bad_enum(at, "attachment type", i64::from(v))),
    };
    Ok((i, Attachment { flags, name, kind }))
}

/// A mesh attachment (4.3): path, color and sequence gated by `flags` bits, the hull, the
/// vertices, UVs and triangles, the slots its timelines apply to, and the nonessential extras.
pub(super) fn mesh_attachment<'a>(ctx: &Ctx<'_>, i: In<'a>, flags: u8) -> Res<'a, MeshAttachment> {
    let ne = ctx.nonessential;
    let lim = ctx.lim;
    let (i, path) = cond(flags & 16 != 0, str_ref(ctx.strings)).parse(i)?;
    let (i, color) = opt_rgba(flags & 32 != 0)(i)?;
    let (i, sequence) = sequence(ctx, flags & 64 != 0)(i)?;
    let (i, hull_length) = varint(i)?;
    let (i, vertices) = vertices(ctx, i, flags & 128 != 0)?;
    let len = vertices.world_length();
    let (at, uvs) = f32_vec(lim, "uv", len)(i)?;
    // Gotcha 1: the hull count is undoubled while `len` is doubled.
    let tri = (len as i64 - i64::from(hull_length) - 2) * 3;
    if tri < 0 {
        return Err(PErr::invalid(
            at,
            format!("hull length {hull_length} too large for {len} vertex floats"),
        ));
    }
    check_count(lim, at, at, "triangle index", tri as u64, 1)?;
    let mut triangles = Vec::with_capacity(tri as usize);
    let (i, ()) = varints_into(at, tri as usize, &mut triangles)?;
    let (i, timeline_slots) = indices(lim, "slot", ctx.slots)(i)?;
    let (i, nonessential) = cond(ne, |i| {
        let (i, n) = count(lim, "edge", 1)(i)?;
        let mut edges = Vec::with_capacity(n);
        let (i, ()) = varints_into(i, n, &mut edges)?;
        let (i, [width, height]) = f32s(i)?;
        Ok((i, MeshExtras { edges, width, height }))
    })
    .parse(i)?;
    let mesh = MeshAttachment {
        path,
        color,
        sequence,
        hull_length,
        vertices,
        uvs,
        triangles,
        timeline_slots,
        nonessential,
    };
    Ok((i, mesh))
}
