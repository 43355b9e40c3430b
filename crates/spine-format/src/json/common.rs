//! Reading helpers the 3.5–4.2 reader ([`super`]) and the 4.3 reader ([`crate::json43`])
//! share: the root check, arrays of objects, counted number arrays, vertices, sequences,
//! event definitions, and (as [`attachment_kind_readers`]) the attachment kinds whose fields
//! both generations spell the same way.

use super::value::{self, as_u32, check_count, each, Obj, J, P, R};
use super::{EventDef, JsonError, JsonErrorKind, Sequence};

/// The document's root as an object: [`JsonErrorKind::NotASkeleton`] when it is not one.
pub(crate) fn root_object<'a>(root: J<'a>, rp: &'a P<'a>) -> R<Obj<'a>> {
    if !root.is_obj() {
        return Err(Box::new(JsonError {
            path: rp.render(),
            message: format!(
                "not a Spine JSON skeleton (the root is {}, not an object)",
                root.kind()
            ),
            kind: JsonErrorKind::NotASkeleton,
        }));
    }
    Obj::new(root, rp)
}

/// The objects of the array `k` (`what` for its count limit), each read with `f`.
pub(crate) fn list<T>(o: &Obj, k: &str, what: &'static str, f: impl Fn(&Obj) -> R<T>) -> R<Vec<T>> {
    Ok(o.opt(k, |v, p| each(v, p, what, |x, p| f(&Obj::new(x, p)?)))?.unwrap_or_default())
}

/// An array of numbers whose length (`len` of it, e.g. pairs or triples) is checked as a count
/// of `what` first.
pub(crate) fn counted_f32s(
    what: &'static str,
    len: fn(usize) -> usize,
) -> impl Fn(J<'_>, &P<'_>) -> R<Vec<f32>> {
    move |v, p| {
        check_count(v, p, what, len(value::array_len(v).unwrap_or(0)))?;
        value::f32s(v, p)
    }
}

/// Like [`counted_f32s`] for arrays of indices.
pub(crate) fn counted_u32s(
    what: &'static str,
    len: fn(usize) -> usize,
) -> impl Fn(J<'_>, &P<'_>) -> R<Vec<u32>> {
    move |v, p| {
        check_count(v, p, what, len(value::array_len(v).unwrap_or(0)))?;
        value::u32s(v, p)
    }
}

/// A declared `vertexCount`, checked against [`crate::Limits::max_vertices`].
pub(crate) fn vertex_count(o: &Obj) -> R<u32> {
    o.req("vertexCount", |v, p| {
        let n = as_u32(v, p)?;
        check_count(v, p, "vertex", n as usize)?;
        Ok(n)
    })
}

/// The required `vertices`; `declared` is the vertex count the array holds pairs for when
/// unweighted.
pub(crate) fn vertices(o: &Obj, declared: usize) -> R<Vec<f32>> {
    o.req("vertices", |v, p| {
        value::check_vertices(v, p, declared)?;
        value::f32s(v, p)
    })
}

/// A sequence whose `count` is required (3.5–4.2): `count` must be non-negative and within
/// [`crate::Limits::max_sequence_frames`], and `digits` within
/// [`crate::Limits::max_string_bytes`] (each frame's region path is at least that long), as
/// the binary parsers check them.
pub(crate) fn read_sequence(v: J<'_>, p: &P<'_>) -> R<Sequence> {
    sequence(v, p, true)
}

/// [`read_sequence`] with `count` defaulting to 0 (4.3).
pub(crate) fn read_sequence_count_default(v: J<'_>, p: &P<'_>) -> R<Sequence> {
    sequence(v, p, false)
}

/// A sequence, its `count` required or defaulting to 0.
fn sequence(v: J<'_>, p: &P<'_>, count_required: bool) -> R<Sequence> {
    let o = Obj::new(v, p)?;
    let count = if count_required {
        o.req("count", frame_count)?
    } else {
        o.opt("count", frame_count)?.unwrap_or(0)
    };
    let digits = o.opt("digits", |v, p| {
        let n = value::as_i32(v, p)?;
        let max = v.limits().max_string_bytes;
        if usize::try_from(n).is_ok_and(|d| d > max) {
            return Err(p.limit("max_string_bytes", n as usize, max));
        }
        Ok(n)
    })?;
    Ok(Sequence { count, start: o.i32("start")?, digits, setup: o.i32("setup")? })
}

/// A sequence's frame count: non-negative and within the frame limit.
fn frame_count(v: J<'_>, p: &P<'_>) -> R<i32> {
    let n = value::as_i32(v, p)?;
    let n = u32::try_from(n)
        .map_err(|_| p.err(format!("expected a non-negative frame count, found {n}")))?;
    check_count(v, p, "sequence frame", n as usize)?;
    Ok(n as i32)
}

/// The event definition `events.<name>`.
pub(crate) fn event_def(name: &str, v: J<'_>, p: &P<'_>) -> R<EventDef> {
    let o = Obj::new(v, p)?;
    Ok(EventDef {
        name: name.into(),
        int: o.i32("int")?,
        float: o.f32("float")?,
        string: o.string("string")?,
        audio: o.string("audio")?,
        volume: o.f32("volume")?,
        balance: o.f32("balance")?,
    })
}

/// Defines, in the module that invokes it, the readers of the attachment kinds whose fields
/// every JSON generation spells the same way: `region`, `bounding_box`, `mesh` (unlinked),
/// `path` and `point`, each `fn(&Obj, color) -> R<AttachmentKind>` building that module's
/// own `AttachmentKind` (the 3.5–4.2 and 4.3 ASTs are distinct types). `$sequence` reads a
/// `sequence` value. With a type parameter name `$s` the readers are generic over the
/// strings' type (`AttachmentKind<$s>`, `$s: From<&str>`); without, the kind's strings are
/// `String`s. Fields are read in the order the loaders read them, so the first error
/// reported is the same.
macro_rules! attachment_kind_readers {
    (@str) => { String };
    (@str $s:ident) => { $s };
    ($sequence:path $(, $s:ident)?) => {
        /// `region`.
        fn region<'a $(, $s: From<&'a str>)?>(
            o: &$crate::json::value::Obj<'a>,
            color: Option<[u8; 4]>,
        ) -> $crate::json::value::R<AttachmentKind $(<$s>)?> {
            Ok(AttachmentKind::Region {
                path: o.text::<$crate::json::common::attachment_kind_readers!(@str $($s)?)>("path")?,
                x: o.f32("x")?,
                y: o.f32("y")?,
                scale_x: o.f32("scaleX")?,
                scale_y: o.f32("scaleY")?,
                rotation: o.f32("rotation")?,
                width: o.req("width", $crate::json::value::as_f32)?,
                height: o.req("height", $crate::json::value::as_f32)?,
                color,
                sequence: o.opt("sequence", $sequence)?,
            })
        }

        /// `boundingbox`.
        fn bounding_box<'a $(, $s: From<&'a str>)?>(
            o: &$crate::json::value::Obj<'a>,
            color: Option<[u8; 4]>,
        ) -> $crate::json::value::R<AttachmentKind $(<$s>)?> {
            let vertex_count = $crate::json::common::vertex_count(o)?;
            Ok(AttachmentKind::BoundingBox {
                vertex_count,
                vertices: $crate::json::common::vertices(o, vertex_count as usize)?,
                color,
            })
        }

        /// `mesh` (not linked).
        fn mesh<'a $(, $s: From<&'a str>)?>(
            o: &$crate::json::value::Obj<'a>,
            color: Option<[u8; 4]>,
        ) -> $crate::json::value::R<AttachmentKind $(<$s>)?> {
            use $crate::json::common::{counted_f32s, counted_u32s};
            let path =
                o.text::<$crate::json::common::attachment_kind_readers!(@str $($s)?)>("path")?;
            let (width, height) = (o.f32("width")?, o.f32("height")?);
            let sequence = o.opt("sequence", $sequence)?;
            // The vertex count is half the UV count.
            let uvs = o.req("uvs", counted_f32s("vertex", |n| n / 2))?;
            Ok(AttachmentKind::Mesh {
                path,
                color,
                width,
                height,
                sequence,
                vertices: $crate::json::common::vertices(o, uvs.len() / 2)?,
                uvs,
                triangles: o.req("triangles", counted_u32s("triangle", |n| n / 3))?,
                hull: o.opt("hull", $crate::json::value::as_u32)?,
                edges: o.opt("edges", counted_u32s("edge", |n| n))?,
            })
        }

        /// `path`.
        fn path<'a $(, $s: From<&'a str>)?>(
            o: &$crate::json::value::Obj<'a>,
            color: Option<[u8; 4]>,
        ) -> $crate::json::value::R<AttachmentKind $(<$s>)?> {
            let (closed, constant_speed) = (o.bool("closed")?, o.bool("constantSpeed")?);
            let vertex_count = $crate::json::common::vertex_count(o)?;
            Ok(AttachmentKind::Path {
                closed,
                constant_speed,
                vertex_count,
                vertices: $crate::json::common::vertices(o, vertex_count as usize)?,
                lengths: o
                    .req("lengths", $crate::json::common::counted_f32s("path length", |n| n))?,
                color,
            })
        }

        /// `point`.
        fn point<'a $(, $s: From<&'a str>)?>(
            o: &$crate::json::value::Obj<'a>,
            color: Option<[u8; 4]>,
        ) -> $crate::json::value::R<AttachmentKind $(<$s>)?> {
            Ok(AttachmentKind::Point {
                x: o.f32("x")?,
                y: o.f32("y")?,
                rotation: o.f32("rotation")?,
                color,
            })
        }
    };
}
pub(crate) use attachment_kind_readers;
