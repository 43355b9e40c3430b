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
        a.values.clear();
        let (i, ()) = f32s_into(i, n * 2, &mut a.values)?;
        a.values_len = a.values.len();
        i
    };
    check_count(lim, i, i, "uv", (n * 2) as u64, 4)?;
    let (at, ()) = f32s_into(i, n * 2, &mut a.uvs)?;
    let tri = (2 * n as i64 - i64::from(hull) - 2) * 3;
    if tri < 0 {
        return Err(PErr::invalid(
            at,
            format!("mesh with {n} vertices cannot have a hull of {hull} vertices"),
        ));
    }
    let i = varints_counted(lim, at, "triangle index", tri as usize, &mut a.triangles)?;
    let (i, extras) = if c.nonessential {
        let (i, e) = count(lim, "edge", 1)(i)?;
        let i = varints_counted(lim, i, "edge", e, &mut a.edges)?;
        let (i, [width, height]) = f32s(i)?;
        (i, Some(MeshExtras { edges: Vec::new(), width, height }))
    } else {
        (i, None)
    };
    Ok((i, extras))
}

/// `n` varints (counted, checked as 4.2's `shorts`) appended to `out`.
fn varints_counted<'a>(
    lim: &Lim,
    i: In<'a>,
    what: &'static str,
    n: usize,
    out: &mut Vec<u32>,
) -> Result<In<'a>, nom::Err<PErr>> {
    check_count(lim, i, i, what, n as u64, 1)?;
    let (i, ()) = varints_into(i, n, out)?;
    Ok(i)
}

/// `n` weighted vertices into `a`: the fast paths of the owned read (into `a`'s buffers),
/// else its checked path (the same values and errors).
fn weighted_lent<'a>(
    c: &Ctx,
    i: In<'a>,
    n: usize,
    a: &mut MeshScratch,
) -> Result<In<'a>, nom::Err<PErr>> {
    check_count(&c.lim, i, i, "vertex", n as u64, 1)?;
    if c.bones > 0x80 {
        // The fast path sizes `values` by `bones` (a plain mesh may have left it shorter).
        if a.values.len() != 3 * a.bones.len() {
            a.values.resize(3 * a.bones.len(), 0.0);
        }
        let r = weighted_varint_into(c, i, n, &mut a.bones, &mut a.values, &mut a.counts);
        if let Some((rest, done)) = r {
            (a.bones_len, a.values_len) = (done, 3 * done);
            return Ok(rest);
        }
    } else {
        let mut w = WeightedVertices {
            counts: std::mem::take(&mut a.counts),
            bones: std::mem::take(&mut a.bones),
            values: std::mem::take(&mut a.values),
        };
        let r = weighted_one_byte_into(&c.lim, i, n, c.bones, &mut w);
        (a.counts, a.bones, a.values) = (w.counts, w.bones, w.values);
        if let Some(rest) = r {
            (a.bones_len, a.values_len) = (a.bones.len(), a.values.len());
            return Ok(rest);
        }
    }
    let (rest, v) = weighted_checked(c, i, n)?;
    if let Vertices::Weighted(w) = v {
        (a.counts, a.bones, a.values) = (w.counts, w.bones, w.values);
        (a.bones_len, a.values_len) = (a.bones.len(), a.values.len());
    }
    Ok(rest)
}
