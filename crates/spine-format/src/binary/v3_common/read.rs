//! Readers for the records shared by the 3.x generations.

use super::*;
use crate::binary::prim::Reader;
use crate::binary::shared::read_draw_order;
use crate::error::BinaryErrorKind;

/// What the shared readers need to know about the skeleton read so far.
pub(crate) struct Ctx {
    /// The generation (gates version-specific fields).
    pub gen: Generation,
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

/// Reads a varint enum.
pub(crate) fn read_enum<E>(
    r: &mut Reader<'_>,
    what: &'static str,
    from: impl Fn(u32) -> Option<E>,
) -> Result<E, BinaryError> {
    let at = r.pos();
    let v = r.varint()?;
    from(v).ok_or_else(|| r.err_at(at, BinaryErrorKind::BadEnum { what, value: i64::from(v) }))
}

fn bad_enum(r: &Reader<'_>, at: usize, what: &'static str, v: i8) -> BinaryError {
    r.err_at(at, BinaryErrorKind::BadEnum { what, value: i64::from(v) })
}

/// A list of varint indices each `< len`.
pub(crate) fn read_indices(
    r: &mut Reader<'_>,
    what: &'static str,
    len: usize,
) -> Result<Vec<u32>, BinaryError> {
    let n = r.count(what, 1)?;
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        v.push(r.index(what, len)?);
    }
    Ok(v)
}

/// A big-endian short array: a count, then shorts (kept as their unsigned bits).
fn read_shorts(r: &mut Reader<'_>, what: &'static str) -> Result<Vec<u16>, BinaryError> {
    let n = r.count(what, 2)?;
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        let b = r.bytes(2)?;
        v.push(u16::from_be_bytes([b[0], b[1]]));
    }
    Ok(v)
}

/// `n` floats, after checking they fit.
fn read_floats(r: &mut Reader<'_>, what: &'static str, n: u64) -> Result<Vec<f32>, BinaryError> {
    r.check_count(r.pos(), what, n, 4)?;
    let mut v = Vec::with_capacity(n as usize);
    for _ in 0..n {
        v.push(r.f32()?);
    }
    Ok(v)
}

fn read_color_opt(r: &mut Reader<'_>, ctx: &Ctx) -> Result<Option<[u8; 4]>, BinaryError> {
    if ctx.nonessential {
        Ok(Some(r.rgba()?))
    } else {
        Ok(None)
    }
}

/// The 3.x curve record.
pub(crate) fn read_curve(r: &mut Reader<'_>) -> Result<Curve, BinaryError> {
    let at = r.pos();
    match r.i8()? {
        0 => Ok(Curve::Linear),
        1 => Ok(Curve::Stepped),
        2 => Ok(Curve::Bezier(r.f32_array()?)),
        v => Err(bad_enum(r, at, "curve type", v)),
    }
}

/// A keyframe value of a curve timeline.
pub(crate) trait Key: Sized {
    /// A lower bound of the bytes one value takes on the wire.
    fn min_bytes(gen: Generation) -> usize;
    /// Reads one value.
    fn read(r: &mut Reader<'_>, gen: Generation) -> Result<Self, BinaryError>;
}

impl Key for f32 {
    fn min_bytes(_: Generation) -> usize {
        4
    }
    fn read(r: &mut Reader<'_>, _: Generation) -> Result<Self, BinaryError> {
        r.f32()
    }
}

impl<const N: usize> Key for [f32; N] {
    fn min_bytes(_: Generation) -> usize {
        4 * N
    }
    fn read(r: &mut Reader<'_>, _: Generation) -> Result<Self, BinaryError> {
        let mut v = [0.0; N];
        for x in &mut v {
            *x = r.f32()?;
        }
        Ok(v)
    }
}

impl Key for [u8; 4] {
    fn min_bytes(_: Generation) -> usize {
        4
    }
    fn read(r: &mut Reader<'_>, _: Generation) -> Result<Self, BinaryError> {
        r.rgba()
    }
}

impl Key for TwoColor {
    fn min_bytes(_: Generation) -> usize {
        8
    }
    fn read(r: &mut Reader<'_>, _: Generation) -> Result<Self, BinaryError> {
        Ok(TwoColor { light: r.rgba()?, dark: r.rgba()? })
    }
}

impl Key for IkKey {
    fn min_bytes(gen: Generation) -> usize {
        match gen {
            Generation::V35 | Generation::V36 => 5,
            Generation::V37 => 7,
            _ => 11,
        }
    }
    fn read(r: &mut Reader<'_>, gen: Generation) -> Result<Self, BinaryError> {
        let mix = r.f32()?;
        let softness = if since(gen, Generation::V38) { r.f32()? } else { 0.0 };
        let bend_direction = r.i8()?;
        let (compress, stretch) =
            if since(gen, Generation::V37) { (r.bool()?, r.bool()?) } else { (false, false) };
        Ok(IkKey { mix, softness, bend_direction, compress, stretch })
    }
}

impl Key for DeformKey {
    fn min_bytes(_: Generation) -> usize {
        1
    }
    fn read(r: &mut Reader<'_>, _: Generation) -> Result<Self, BinaryError> {
        let at = r.pos();
        let end = r.varint()?;
        if end == 0 {
            return Ok(DeformKey { start: 0, offsets: Vec::new() });
        }
        let start = r.varint()?;
        if start.checked_add(end).is_none() {
            return Err(r.invalid_at(at, "deform offsets end beyond 2^32"));
        }
        let offsets = read_floats(r, "deform offset", u64::from(end))?;
        Ok(DeformKey { start, offsets })
    }
}

/// A curve timeline: frame count, then per frame time, value and (but the last) a curve.
pub(crate) fn read_timeline<V: Key>(
    r: &mut Reader<'_>,
    gen: Generation,
) -> Result<Timeline<V>, BinaryError> {
    let at = r.pos();
    let n = r.count("keyframe", 4 + V::min_bytes(gen))?;
    if n == 0 {
        return Err(r.invalid_at(at, "timeline has no keyframes"));
    }
    let mut frames = Vec::with_capacity(n);
    let mut curves = Vec::with_capacity(n - 1);
    for i in 0..n {
        r.enter_item("frames", i);
        let time = r.f32()?;
        let value = V::read(r, gen)?;
        frames.push(Keyframe { time, value });
        if i + 1 < n {
            curves.push(read_curve(r)?);
        }
        r.leave();
    }
    Ok(Timeline { frames, curves })
}

/// A vertex list of `vertex_count` vertices (after the count): weighted flag, then data.
fn read_vertices(
    r: &mut Reader<'_>,
    ctx: &Ctx,
    vertex_count: u32,
) -> Result<Vertices, BinaryError> {
    r.enter("vertices");
    let weighted = r.bool()?;
    let v = if !weighted {
        Vertices::Unweighted(read_floats(r, "vertex", 2 * u64::from(vertex_count))?)
    } else {
        r.check_count(r.pos(), "vertex", u64::from(vertex_count), 1)?;
        let mut v = Vec::with_capacity(vertex_count as usize);
        for _ in 0..vertex_count {
            let n = r.count("vertex bone", 13)?;
            let mut bones = Vec::with_capacity(n);
            for _ in 0..n {
                let bone = r.index("bone", ctx.bones)?;
                bones.push(BoneWeight { bone, x: r.f32()?, y: r.f32()?, weight: r.f32()? });
            }
            v.push(bones);
        }
        Vertices::Weighted(v)
    };
    r.leave();
    Ok(v)
}

fn read_attachment<S: WireStr>(
    r: &mut Reader<'_>,
    ctx: &Ctx,
) -> Result<Attachment<S>, BinaryError> {
    let at = r.pos();
    let ty = r.i8()?;
    let max = if since(ctx.gen, Generation::V36) { 6 } else { 4 };
    if !(0..=max).contains(&ty) {
        return Err(bad_enum(r, at, "attachment type", ty));
    }
    Ok(match ty {
        0 => Attachment::Region(Region {
            path: S::read(r, ctx.strings)?,
            rotation: r.f32()?,
            x: r.f32()?,
            y: r.f32()?,
            scale_x: r.f32()?,
            scale_y: r.f32()?,
            width: r.f32()?,
            height: r.f32()?,
            color: r.rgba()?,
        }),
        1 => {
            let vc = r.varint()?;
            let vertices = read_vertices(r, ctx, vc)?;
            Attachment::BoundingBox(BoundingBox { vertices, color: read_color_opt(r, ctx)? })
        }
        2 => {
            let path = S::read(r, ctx.strings)?;
            let color = r.rgba()?;
            let vc = r.varint()?;
            let uvs = read_floats(r, "uv", 2 * u64::from(vc))?;
            let triangles = read_shorts(r, "triangle index")?;
            let vertices = read_vertices(r, ctx, vc)?;
            let hull_length = r.varint()?;
            let extras = if ctx.nonessential {
                let edges = read_shorts(r, "edge index")?;
                Some(MeshExtras { edges, size: Size { width: r.f32()?, height: r.f32()? } })
            } else {
                None
            };
            Attachment::Mesh(Mesh { path, color, uvs, triangles, vertices, hull_length, extras })
        }
        3 => Attachment::LinkedMesh(LinkedMesh {
            path: S::read(r, ctx.strings)?,
            color: r.rgba()?,
            skin: S::read(r, ctx.strings)?,
            parent: S::read(r, ctx.strings)?,
            inherit_deform: r.bool()?,
            size: if ctx.nonessential {
                Some(Size { width: r.f32()?, height: r.f32()? })
            } else {
                None
            },
        }),
        4 => {
            let closed = r.bool()?;
            let constant_speed = r.bool()?;
            let vc = r.varint()?;
            let vertices = read_vertices(r, ctx, vc)?;
            let lengths = read_floats(r, "path length", u64::from(vc / 3))?;
            Attachment::Path(PathAttachment {
                closed,
                constant_speed,
                vertices,
                lengths,
                color: read_color_opt(r, ctx)?,
            })
        }
        5 => Attachment::Point(Point {
            rotation: r.f32()?,
            x: r.f32()?,
            y: r.f32()?,
            color: read_color_opt(r, ctx)?,
        }),
        _ => {
            let end_slot = r.index("slot", ctx.slots)?;
            let vc = r.varint()?;
            let vertices = read_vertices(r, ctx, vc)?;
            Attachment::Clipping(Clipping { end_slot, vertices, color: read_color_opt(r, ctx)? })
        }
    })
}

/// The slot list of a skin: count, then per slot its index and attachments.
pub(crate) fn read_skin_slots<S: WireStr>(
    r: &mut Reader<'_>,
    ctx: &Ctx,
) -> Result<Vec<SkinSlot<S>>, BinaryError> {
    let n = r.count("skin slot", 2)?;
    let mut slots = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("slots", i);
        let slot = r.index("slot", ctx.slots)?;
        let m = r.count("attachment", 3)?;
        let mut entries = Vec::with_capacity(m);
        for j in 0..m {
            r.enter_item("attachments", j);
            let key = S::read(r, ctx.strings)?;
            let name = S::read(r, ctx.strings)?;
            let attachment = read_attachment(r, ctx)?;
            entries.push(SkinEntry { key, name, attachment });
            r.leave();
        }
        slots.push(SkinSlot { slot, entries });
        r.leave();
    }
    Ok(slots)
}

fn read_slot_timelines<S: WireStr>(
    r: &mut Reader<'_>,
    ctx: &Ctx,
) -> Result<Vec<SlotTimelines<S>>, BinaryError> {
    r.enter("slot timelines");
    let n = r.count("slot", 2)?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("slots", i);
        let slot = r.index("slot", ctx.slots)?;
        let m = r.count("timeline", 2)?;
        let mut timelines = Vec::with_capacity(m);
        for j in 0..m {
            r.enter_item("timelines", j);
            let at = r.pos();
            let ty = r.i8()?;
            let t = match ty {
                0 => {
                    let at = r.pos();
                    let k = r.count("keyframe", 5)?;
                    if k == 0 {
                        return Err(r.invalid_at(at, "timeline has no keyframes"));
                    }
                    let mut keys = Vec::with_capacity(k);
                    for f in 0..k {
                        r.enter_item("frames", f);
                        keys.push(AttachmentKey { time: r.f32()?, name: S::read(r, ctx.strings)? });
                        r.leave();
                    }
                    SlotTimeline::Attachment(keys)
                }
                1 => SlotTimeline::Color(read_timeline(r, ctx.gen)?),
                2 if since(ctx.gen, Generation::V36) => {
                    SlotTimeline::TwoColor(read_timeline(r, ctx.gen)?)
                }
                v => return Err(bad_enum(r, at, "slot timeline type", v)),
            };
            timelines.push(t);
            r.leave();
        }
        out.push(SlotTimelines { slot, timelines });
        r.leave();
    }
    r.leave();
    Ok(out)
}

fn read_bone_timelines(r: &mut Reader<'_>, ctx: &Ctx) -> Result<Vec<BoneTimelines>, BinaryError> {
    r.enter("bone timelines");
    let n = r.count("bone", 2)?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("bones", i);
        let bone = r.index("bone", ctx.bones)?;
        let m = r.count("timeline", 2)?;
        let mut timelines = Vec::with_capacity(m);
        for j in 0..m {
            r.enter_item("timelines", j);
            let at = r.pos();
            let t = match r.i8()? {
                0 => BoneTimeline::Rotate(read_timeline(r, ctx.gen)?),
                1 => BoneTimeline::Translate(read_timeline(r, ctx.gen)?),
                2 => BoneTimeline::Scale(read_timeline(r, ctx.gen)?),
                3 => BoneTimeline::Shear(read_timeline(r, ctx.gen)?),
                v => return Err(bad_enum(r, at, "bone timeline type", v)),
            };
            timelines.push(t);
            r.leave();
        }
        out.push(BoneTimelines { bone, timelines });
        r.leave();
    }
    r.leave();
    Ok(out)
}

fn read_path_timelines(r: &mut Reader<'_>, ctx: &Ctx) -> Result<Vec<PathTimelines>, BinaryError> {
    r.enter("path timelines");
    let n = r.count("path constraint", 2)?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("constraints", i);
        let constraint = r.index("path constraint", ctx.paths)?;
        let m = r.count("timeline", 2)?;
        let mut timelines = Vec::with_capacity(m);
        for j in 0..m {
            r.enter_item("timelines", j);
            let at = r.pos();
            let t = match r.i8()? {
                0 => PathTimeline::Position(read_timeline(r, ctx.gen)?),
                1 => PathTimeline::Spacing(read_timeline(r, ctx.gen)?),
                2 => PathTimeline::Mix(read_timeline(r, ctx.gen)?),
                v => return Err(bad_enum(r, at, "path timeline type", v)),
            };
            timelines.push(t);
            r.leave();
        }
        out.push(PathTimelines { constraint, timelines });
        r.leave();
    }
    r.leave();
    Ok(out)
}

fn read_deform<S: WireStr>(
    r: &mut Reader<'_>,
    ctx: &Ctx,
) -> Result<Vec<DeformSkin<S>>, BinaryError> {
    r.enter("deform timelines");
    let n = r.count("skin", 2)?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("skins", i);
        let skin = r.index("skin", ctx.skins)?;
        let m = r.count("slot", 2)?;
        let mut slots = Vec::with_capacity(m);
        for j in 0..m {
            r.enter_item("slots", j);
            let slot = r.index("slot", ctx.slots)?;
            let k = r.count("attachment", 2)?;
            let mut attachments = Vec::with_capacity(k);
            for a in 0..k {
                r.enter_item("attachments", a);
                let attachment = S::read(r, ctx.strings)?;
                let timeline = read_timeline(r, ctx.gen)?;
                attachments.push(DeformTimeline { attachment, timeline });
                r.leave();
            }
            slots.push(DeformSlot { slot, attachments });
            r.leave();
        }
        out.push(DeformSkin { skin, slots });
        r.leave();
    }
    r.leave();
    Ok(out)
}

/// An animation: name, then its sections in file order.
pub(crate) fn read_animation<S: WireStr>(
    r: &mut Reader<'_>,
    ctx: &Ctx,
) -> Result<Animation<S>, BinaryError> {
    let name = r.name("animation")?;
    r.name_item(name);
    let slots = read_slot_timelines(r, ctx)?;
    let bones = read_bone_timelines(r, ctx)?;

    r.enter("ik timelines");
    let n = r.count("ik constraint", 3)?;
    let mut ik = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("constraints", i);
        let constraint = r.index("ik constraint", ctx.ik)?;
        ik.push(IkTimeline { constraint, timeline: read_timeline(r, ctx.gen)? });
        r.leave();
    }
    r.leave();

    r.enter("transform timelines");
    let n = r.count("transform constraint", 3)?;
    let mut transform = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("constraints", i);
        let constraint = r.index("transform constraint", ctx.transforms)?;
        transform.push(TransformTimeline { constraint, timeline: read_timeline(r, ctx.gen)? });
        r.leave();
    }
    r.leave();

    let path = read_path_timelines(r, ctx)?;
    let deform = read_deform(r, ctx)?;

    r.enter("draw order");
    let n = r.count("draw order key", 5)?;
    let mut draw_order = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("keys", i);
        let time = r.f32()?;
        let changes = read_draw_order(r, ctx.slots)?;
        draw_order.push(DrawOrderKey { time, changes });
        r.leave();
    }
    r.leave();

    r.enter("events");
    let n = r.count("event key", 11)?;
    let mut events = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("keys", i);
        let time = r.f32()?;
        let event = r.index("event", ctx.event_audio.len())?;
        let int = r.varint_signed()?;
        let float = r.f32()?;
        let string = if r.bool()? { Some(r.string()?) } else { None };
        let audio = if ctx.event_audio.get(event as usize).copied().unwrap_or(false) {
            Some(EventAudio { volume: r.f32()?, balance: r.f32()? })
        } else {
            None
        };
        events.push(EventKey { time, event, int, float, string, audio });
        r.leave();
    }
    r.leave();

    Ok(Animation {
        name: name.to_owned(),
        slots,
        bones,
        ik,
        transform,
        path,
        deform,
        draw_order,
        events,
    })
}
