//! 4.2 meshes whose arrays are lent to a [`MeshSink`](crate::binary::v40::meshes::MeshSink):
//! the same reads, checks and errors as [`super::attachments::mesh`], the arrays read into
//! a reused [`MeshScratch`].

use super::attachments::{weighted_checked, weighted_one_byte_into, weighted_varint_into};
use super::*;
use crate::binary::v40::meshes::MeshScratch;

/// A 4.2 mesh from its vertex count on (vertices, UVs, triangles, nonessential edges and
/// size): the arrays read into `a` (cleared first); the returned extras have no edges
/// (they are in `a`).
pub(super) fn mesh_arrays<'a>(
    c: &Ctx,
    i: In<'a>,
    weighted: bool,
    hull: u32,
    a: &mut MeshScratch,
) -> Res<'a, Option<MeshExtras>> {
    let lim = &c.lim;
    a.clear();
    a.weighted = weighted;
    let (i, n) = count(lim, "vertex", 1)(i)?;
    let i = if weighted {
        weighted_lent(c, i, n, a)?
    } else {
        check_count(lim, i, i, "vertex", n as u64, 8)?;
        let f0 = a.floats.len();
        let (i, ()) = f32s_into(i, n * 2, &mut a.floats)?;
        a.values = f0..a.floats.len();
        i
    };
    check_count(lim, i, i, "uv", (n * 2) as u64, 4)?;
    let f0 = a.floats.len();
    let (at, ()) = f32s_into(i, n * 2, &mut a.floats)?;
    a.uvs = f0..a.floats.len();
    let tri = (2 * n as i64 - i64::from(hull) - 2) * 3;
    if tri < 0 {
        return Err(PErr::invalid(
            at,
            format!("mesh with {n} vertices cannot have a hull of {hull} vertices"),
        ));
    }
    let (i, triangles) = varints_to(lim, at, "triangle index", tri as usize, &mut a.ints)?;
    a.triangles = triangles;
    let (i, extras) = if c.nonessential {
        let (i, e) = count(lim, "edge", 1)(i)?;
        let (i, edges) = varints_to(lim, i, "edge", e, &mut a.ints)?;
        a.edges = edges;
        let (i, [width, height]) = f32s(i)?;
        (i, Some(MeshExtras { edges: Vec::new(), width, height }))
    } else {
        (i, None)
    };
    Ok((i, extras))
}

/// `n` varints (counted, checked as 4.2's `shorts`) appended to `ints`; their range.
fn varints_to<'a>(
    lim: &Lim,
    i: In<'a>,
    what: &'static str,
    n: usize,
    ints: &mut Vec<u32>,
) -> Res<'a, std::ops::Range<usize>> {
    check_count(lim, i, i, what, n as u64, 1)?;
    let start = ints.len();
    let (i, ()) = varints_into(i, n, ints)?;
    Ok((i, start..ints.len()))
}

/// `n` weighted vertices into `a`: the fast paths of the owned read, else its checked path
/// (the same values and errors).
fn weighted_lent<'a>(
    c: &Ctx,
    i: In<'a>,
    n: usize,
    a: &mut MeshScratch,
) -> Result<In<'a>, nom::Err<PErr>> {
    check_count(&c.lim, i, i, "vertex", n as u64, 1)?;
    if c.bones > 0x80 {
        let mut bones = c.weight_bones.take();
        let mut values = c.weight_values.take();
        let mut counts = c.weight_counts.take();
        let r = weighted_varint_into(c, i, n, &mut bones, &mut values, &mut counts);
        if let Some((_, done)) = r {
            let bones = bones.get(..done).unwrap_or_default();
            let values = values.get(..3 * done).unwrap_or_default();
            push_weighted(a, &counts, bones, values);
        }
        c.weight_bones.set(bones);
        c.weight_values.set(values);
        c.weight_counts.set(counts);
        if let Some((rest, _)) = r {
            return Ok(rest);
        }
    } else {
        let mut w = WeightedVertices {
            counts: c.weight_counts.take(),
            bones: c.weight_bones.take(),
            values: c.weight_values.take(),
        };
        let r = weighted_one_byte_into(&c.lim, i, n, c.bones, &mut w);
        if r.is_some() {
            push_weighted(a, &w.counts, &w.bones, &w.values);
        }
        c.weight_counts.set(w.counts);
        c.weight_bones.set(w.bones);
        c.weight_values.set(w.values);
        if let Some(rest) = r {
            return Ok(rest);
        }
    }
    let (rest, v) = weighted_checked(c, i, n)?;
    if let Vertices::Weighted(w) = v {
        push_weighted(a, &w.counts, &w.bones, &w.values);
    }
    Ok(rest)
}

/// Appends weighted vertices' arrays and records their ranges.
fn push_weighted(a: &mut MeshScratch, counts: &[u32], bones: &[u32], v: &[f32]) {
    let (i0, f0) = (a.ints.len(), a.floats.len());
    a.ints.extend_from_slice(counts);
    a.ints.extend_from_slice(bones);
    a.floats.extend_from_slice(v);
    a.counts = i0..i0 + counts.len();
    a.bones = i0 + counts.len()..a.ints.len();
    a.values = f0..a.floats.len();
}
