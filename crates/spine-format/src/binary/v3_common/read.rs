//! Parsers for the records shared by the 3.x generations (nom, see `binary::wire`).

use nom::combinator::cond;
use nom::Parser;

use super::*;
use crate::binary::shared::draw_order;
use crate::binary::wire::{
    bool, check_count, count, f32, f32_vec, f32s, groups, i8, index, items, list, name, named,
    opt_rgba, rgba, section, string, u16, varint, varint_signed, In, Lim, PErr, Res,
};

/// What the shared readers need to know about the skeleton read so far.
pub(crate) struct Ctx<'l> {
    /// The limits of this parse.
    pub lim: &'l Lim,
    /// The generation (gates version-specific fields).
    pub gen: SpineVersion,
    /// Whether nonessential data is present.
    pub nonessential: bool,
    /// String table length (0 before 3.8).
    pub strings: usize,
    /// Bone count.
    pub bones: usize,
    /// Slot count.
    pub slots: usize,
    /// IK constraint count.
    pub ik: usize,
    /// Transform constraint count.
    pub transforms: usize,
    /// Path constraint count.
    pub paths: usize,
    /// Skin count including the default skin when present.
    pub skins: usize,
    /// Per event: whether it has an audio path (its keys then carry volume and balance).
    pub event_audio: Vec<bool>,
}

/// A big-endian short array: a count, then shorts (kept as their unsigned bits).
fn shorts<'a>(lim: &Lim, what: &'static str, i: In<'a>) -> Res<'a, Vec<u16>> {
    list(lim, what, 2, None, |i, _| u16(i))(i)
}

/// The 3.x curve record.
pub(crate) fn curve(at: In<'_>) -> Res<'_, Curve> {
    match i8(at)? {
        (i, 0) => Ok((i, Curve::Linear)),
        (i, 1) => Ok((i, Curve::Stepped)),
        (i, 2) => f32s(i).map(|(i, b)| (i, Curve::Bezier(b))),
        (_, v) => Err(PErr::bad_enum(at, "curve type", i64::from(v))),
    }
}

/// A keyframe value of a curve timeline.
pub(crate) trait Key: Sized {
    /// A lower bound of the bytes one value takes on the wire.
    fn min_bytes(gen: SpineVersion) -> usize;
    /// Parses one value.
    fn parse<'a>(i: In<'a>, lim: &Lim, gen: SpineVersion) -> Res<'a, Self>;
}

impl Key for f32 {
    fn min_bytes(_: SpineVersion) -> usize {
        4
    }
    #[inline]
    fn parse<'a>(i: In<'a>, _: &Lim, _: SpineVersion) -> Res<'a, Self> {
        f32(i)
    }
}

impl<const N: usize> Key for [f32; N] {
    fn min_bytes(_: SpineVersion) -> usize {
        4 * N
    }
    #[inline]
    fn parse<'a>(i: In<'a>, _: &Lim, _: SpineVersion) -> Res<'a, Self> {
        f32s(i)
    }
}

impl Key for [u8; 4] {
    fn min_bytes(_: SpineVersion) -> usize {
        4
    }
    #[inline]
    fn parse<'a>(i: In<'a>, _: &Lim, _: SpineVersion) -> Res<'a, Self> {
        rgba(i)
    }
}

impl Key for TwoColor {
    fn min_bytes(_: SpineVersion) -> usize {
        8
    }
    fn parse<'a>(i: In<'a>, _: &Lim, _: SpineVersion) -> Res<'a, Self> {
        let (i, light) = rgba(i)?;
        let (i, dark) = rgba(i)?;
        Ok((i, TwoColor { light, dark }))
    }
}

impl Key for IkKey {
    fn min_bytes(gen: SpineVersion) -> usize {
        match gen {
            SpineVersion::V3_5 | SpineVersion::V3_6 => 5,
            SpineVersion::V3_7 => 7,
            _ => 11,
        }
    }
    fn parse<'a>(i: In<'a>, _: &Lim, gen: SpineVersion) -> Res<'a, Self> {
        let (i, mix) = f32(i)?;
        let (i, softness) = cond(since(gen, SpineVersion::V3_8), f32).parse(i)?;
        let (i, bend_direction) = i8(i)?;
        let (i, cs) = cond(since(gen, SpineVersion::V3_7), (bool, bool)).parse(i)?;
        let (compress, stretch) = cs.unwrap_or((false, false));
        let key =
            IkKey { mix, softness: softness.unwrap_or(0.0), bend_direction, compress, stretch };
        Ok((i, key))
    }
}

impl Key for DeformKey {
    fn min_bytes(_: SpineVersion) -> usize {
        1
    }
    fn parse<'a>(at: In<'a>, lim: &Lim, _: SpineVersion) -> Res<'a, Self> {
        let (i, end) = varint(at)?;
        if end == 0 {
            return Ok((i, DeformKey { start: 0, offsets: Vec::new() }));
        }
        let (i, start) = varint(i)?;
        if start.checked_add(end).is_none() {
            return Err(PErr::invalid(at, "deform offsets end beyond 2^32"));
        }
        let (i, offsets) = f32_vec(lim, "deform offset", end as usize)(i)?;
        Ok((i, DeformKey { start, offsets }))
    }
}

/// A curve timeline: frame count, then per frame time, value and (but the last) a curve.
pub(crate) fn timeline<'a, V: Key>(ctx: &Ctx<'_>, at: In<'a>) -> Res<'a, Timeline<V>> {
    let (i, n) = count(ctx.lim, "keyframe", 4 + V::min_bytes(ctx.gen))(at)?;
    if n == 0 {
        return Err(PErr::invalid(at, "timeline has no keyframes"));
    }
    let mut curves = Vec::with_capacity(n - 1);
    let (i, frames) = items(n, Some("frames"), |i, k| {
        let (i, time) = f32(i)?;
        let (i, value) = V::parse(i, ctx.lim, ctx.gen)?;
        let (i, c) = cond(k + 1 < n, curve).parse(i)?;
        curves.extend(c);
        Ok((i, Keyframe { time, value }))
    })(i)?;
    Ok((i, Timeline { frames, curves }))
}

/// A vertex list of `vertex_count` vertices (after the count): weighted flag, then data.
fn vertices<'a>(ctx: &Ctx<'_>, i: In<'a>, vertex_count: u32) -> Res<'a, Vertices> {
    let lim = ctx.lim;
    section("vertices", |i| {
        let (i, weighted) = bool(i)?;
        if !weighted {
            let (i, v) = f32_vec(lim, "vertex", 2 * vertex_count as usize)(i)?;
            return Ok((i, Vertices::Unweighted(v)));
        }
        check_count(lim, i, i, "vertex", u64::from(vertex_count), 1)?;
        let (i, v) = items(vertex_count as usize, None, |i, _| {
            list(lim, "vertex bone", 13, None, |i, _| {
                let (i, bone) = index("bone", ctx.bones)(i)?;
                let (i, [x, y, weight]) = f32s(i)?;
                Ok((i, BoneWeight { bone, x, y, weight }))
            })(i)
        })(i)?;
        Ok((i, Vertices::Weighted(v)))
    })
    .parse(i)
}

/// A vertex count, then the vertices.
fn counted_vertices<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, (u32, Vertices)> {
    let (i, vc) = varint(i)?;
    let (i, v) = vertices(ctx, i, vc)?;
    Ok((i, (vc, v)))
}

fn attachment<'a, S: WireStr>(ctx: &Ctx<'_>, at: In<'a>) -> Res<'a, Attachment<S>> {
    let lim = ctx.lim;
    let (i, ty) = i8(at)?;
    let max = if since(ctx.gen, SpineVersion::V3_6) { 6 } else { 4 };
    if !(0..=max).contains(&ty) {
        return Err(PErr::bad_enum(at, "attachment type", i64::from(ty)));
    }
    let s = |i| S::parse(i, lim, ctx.strings);
    let color_opt = opt_rgba(ctx.nonessential);
    let size = |i| f32s::<2>(i).map(|(i, [width, height])| (i, Size { width, height }));
    Ok(match ty {
        0 => {
            let (i, path) = s(i)?;
            let (i, [rotation, x, y, scale_x, scale_y, width, height]) = f32s(i)?;
            let (i, color) = rgba(i)?;
            let r = Region { path, rotation, x, y, scale_x, scale_y, width, height, color };
            (i, Attachment::Region(r))
        }
        1 => {
            let (i, (_, vertices)) = counted_vertices(ctx, i)?;
            let (i, color) = color_opt(i)?;
            (i, Attachment::BoundingBox(BoundingBox { vertices, color }))
        }
        2 => {
            let (i, path) = s(i)?;
            let (i, color) = rgba(i)?;
            let (i, vc) = varint(i)?;
            let (i, uvs) = f32_vec(lim, "uv", 2 * vc as usize)(i)?;
            let (i, triangles) = shorts(lim, "triangle index", i)?;
            let (i, vertices) = vertices(ctx, i, vc)?;
            let (i, hull_length) = varint(i)?;
            let (i, extras) = cond(ctx.nonessential, |i| {
                let (i, edges) = shorts(lim, "edge index", i)?;
                let (i, size) = size(i)?;
                Ok((i, MeshExtras { edges, size }))
            })
            .parse(i)?;
            (
                i,
                Attachment::Mesh(Mesh {
                    path,
                    color,
                    uvs,
                    triangles,
                    vertices,
                    hull_length,
                    extras,
                }),
            )
        }
        3 => {
            let (i, path) = s(i)?;
            let (i, color) = rgba(i)?;
            let (i, skin) = s(i)?;
            let (i, parent) = s(i)?;
            let (i, inherit_deform) = bool(i)?;
            let (i, size) = cond(ctx.nonessential, size).parse(i)?;
            let m = LinkedMesh { path, color, skin, parent, inherit_deform, size };
            (i, Attachment::LinkedMesh(m))
        }
        4 => {
            let (i, (closed, constant_speed)) = (bool, bool).parse(i)?;
            let (i, (vc, vertices)) = counted_vertices(ctx, i)?;
            let (i, lengths) = f32_vec(lim, "path length", (vc / 3) as usize)(i)?;
            let (i, color) = color_opt(i)?;
            let p = PathAttachment { closed, constant_speed, vertices, lengths, color };
            (i, Attachment::Path(p))
        }
        5 => {
            let (i, [rotation, x, y]) = f32s(i)?;
            let (i, color) = color_opt(i)?;
            (i, Attachment::Point(Point { rotation, x, y, color }))
        }
        _ => {
            let (i, end_slot) = index("slot", ctx.slots)(i)?;
            let (i, (_, vertices)) = counted_vertices(ctx, i)?;
            let (i, color) = color_opt(i)?;
            (i, Attachment::Clipping(Clipping { end_slot, vertices, color }))
        }
    })
}

/// The slot list of a skin: count, then per slot its index and attachments.
pub(crate) fn skin_slots<'a, S: WireStr>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, Vec<SkinSlot<S>>> {
    let lim = ctx.lim;
    list(lim, "skin slot", 2, Some("slots"), |i, _| {
        let (i, slot) = index("slot", ctx.slots)(i)?;
        let (i, entries) = list(lim, "attachment", 3, Some("attachments"), |i, _| {
            let (i, key) = S::parse(i, lim, ctx.strings)?;
            let (i, name) = S::parse(i, lim, ctx.strings)?;
            let (i, attachment) = attachment(ctx, i)?;
            Ok((i, SkinEntry { key, name, attachment }))
        })(i)?;
        Ok((i, SkinSlot { slot, entries }))
    })(i)
}

fn slot_timeline<'a, S: WireStr>(ctx: &Ctx<'_>, at: In<'a>) -> Res<'a, SlotTimeline<S>> {
    Ok(match i8(at)? {
        (i, 0) => {
            let (j, k) = count(ctx.lim, "keyframe", 5)(i)?;
            if k == 0 {
                return Err(PErr::invalid(i, "timeline has no keyframes"));
            }
            let (j, keys) = items(k, Some("frames"), |i, _| {
                let (i, time) = f32(i)?;
                let (i, name) = S::parse(i, ctx.lim, ctx.strings)?;
                Ok((i, AttachmentKey { time, name }))
            })(j)?;
            (j, SlotTimeline::Attachment(keys))
        }
        (i, 1) => timeline(ctx, i).map(|(i, t)| (i, SlotTimeline::Color(t)))?,
        (i, 2) if since(ctx.gen, SpineVersion::V3_6) => {
            timeline(ctx, i).map(|(i, t)| (i, SlotTimeline::TwoColor(t)))?
        }
        (_, v) => return Err(PErr::bad_enum(at, "slot timeline type", i64::from(v))),
    })
}

fn bone_timeline<'a>(ctx: &Ctx<'_>, at: In<'a>) -> Res<'a, BoneTimeline> {
    Ok(match i8(at)? {
        (i, 0) => timeline(ctx, i).map(|(i, t)| (i, BoneTimeline::Rotate(t)))?,
        (i, 1) => timeline(ctx, i).map(|(i, t)| (i, BoneTimeline::Translate(t)))?,
        (i, 2) => timeline(ctx, i).map(|(i, t)| (i, BoneTimeline::Scale(t)))?,
        (i, 3) => timeline(ctx, i).map(|(i, t)| (i, BoneTimeline::Shear(t)))?,
        (_, v) => return Err(PErr::bad_enum(at, "bone timeline type", i64::from(v))),
    })
}

fn path_timeline<'a>(ctx: &Ctx<'_>, at: In<'a>) -> Res<'a, PathTimeline> {
    Ok(match i8(at)? {
        (i, 0) => timeline(ctx, i).map(|(i, t)| (i, PathTimeline::Position(t)))?,
        (i, 1) => timeline(ctx, i).map(|(i, t)| (i, PathTimeline::Spacing(t)))?,
        (i, 2) => timeline(ctx, i).map(|(i, t)| (i, PathTimeline::Mix(t)))?,
        (_, v) => return Err(PErr::bad_enum(at, "path timeline type", i64::from(v))),
    })
}

fn event_key<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, EventKey> {
    let (i, time) = f32(i)?;
    let (i, event) = index("event", ctx.event_audio.len())(i)?;
    let (i, int) = varint_signed(i)?;
    let (i, float) = f32(i)?;
    let (i, has_string) = bool(i)?;
    let (i, string) = cond(has_string, string(ctx.lim)).parse(i)?;
    let has_audio = ctx.event_audio.get(event as usize).copied().unwrap_or(false);
    let (i, audio) = cond(has_audio, f32s::<2>).parse(i)?;
    let audio = audio.map(|[volume, balance]| EventAudio { volume, balance });
    Ok((i, EventKey { time, event, int, float, string, audio }))
}

/// An animation: name, then its sections in file order.
pub(crate) fn animation<'a, S: WireStr>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, Animation<S>> {
    let lim = ctx.lim;
    let (i, name) = name(lim, "animation")(i)?;
    named(name, i, |i| {
        let (i, slots) = section(
            "slot timelines",
            groups(
                lim,
                ("slot", "slots"),
                index("slot", ctx.slots),
                ("timeline", 2),
                |i, _| slot_timeline(ctx, i),
                |slot, timelines| SlotTimelines { slot, timelines },
            ),
        )
        .parse(i)?;
        let (i, bones) = section(
            "bone timelines",
            groups(
                lim,
                ("bone", "bones"),
                index("bone", ctx.bones),
                ("timeline", 2),
                |i, _| bone_timeline(ctx, i),
                |bone, timelines| BoneTimelines { bone, timelines },
            ),
        )
        .parse(i)?;
        let (i, ik) = section(
            "ik timelines",
            list(lim, "ik constraint", 3, Some("constraints"), |i, _| {
                let (i, constraint) = index("ik constraint", ctx.ik)(i)?;
                let (i, timeline) = timeline(ctx, i)?;
                Ok((i, IkTimeline { constraint, timeline }))
            }),
        )
        .parse(i)?;
        let (i, transform) = section(
            "transform timelines",
            list(lim, "transform constraint", 3, Some("constraints"), |i, _| {
                let (i, constraint) = index("transform constraint", ctx.transforms)(i)?;
                let (i, timeline) = timeline(ctx, i)?;
                Ok((i, TransformTimeline { constraint, timeline }))
            }),
        )
        .parse(i)?;
        let (i, path) = section(
            "path timelines",
            groups(
                lim,
                ("path constraint", "constraints"),
                index("path constraint", ctx.paths),
                ("timeline", 2),
                |i, _| path_timeline(ctx, i),
                |constraint, timelines| PathTimelines { constraint, timelines },
            ),
        )
        .parse(i)?;
        let (i, deform) = section("deform timelines", |i| deform_timelines(ctx, i)).parse(i)?;
        let (i, draw_order) = section(
            "draw order",
            list(lim, "draw order key", 5, Some("keys"), |i, _| {
                let (i, time) = f32(i)?;
                let (i, changes) = draw_order(lim, ctx.slots)(i)?;
                Ok((i, DrawOrderKey { time, changes }))
            }),
        )
        .parse(i)?;
        let (i, events) =
            section("events", list(lim, "event key", 11, Some("keys"), |i, _| event_key(ctx, i)))
                .parse(i)?;
        let animation = Animation {
            name: name.into(),
            slots,
            bones,
            ik,
            transform,
            path,
            deform,
            draw_order,
            events,
        };
        Ok((i, animation))
    })
}

/// The deform timelines, skin > slot > attachment.
fn deform_timelines<'a, S: WireStr>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, Vec<DeformSkin<S>>> {
    let lim = ctx.lim;
    list(lim, "skin", 2, Some("skins"), |i, _| {
        let (i, skin) = index("skin", ctx.skins)(i)?;
        let (i, slots) = list(lim, "slot", 2, Some("slots"), |i, _| {
            let (i, slot) = index("slot", ctx.slots)(i)?;
            let (i, attachments) = list(lim, "attachment", 2, Some("attachments"), |i, _| {
                let (i, attachment) = S::parse(i, lim, ctx.strings)?;
                let (i, timeline) = timeline(ctx, i)?;
                Ok((i, DeformTimeline { attachment, timeline }))
            })(i)?;
            Ok((i, DeformSlot { slot, attachments }))
        })(i)?;
        Ok((i, DeformSkin { skin, slots }))
    })(i)
}
