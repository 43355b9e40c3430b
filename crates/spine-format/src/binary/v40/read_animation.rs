//! The 4.0–4.2 animation reader: every timeline section in wire order.

use crate::binary::prim::Reader;
use crate::binary::shared::{deliver_curve_frames, read_draw_order, CurveType};
use crate::error::BinaryError;

use super::animation::*;
use super::ast::Inherit;
use super::read::{bad_enum, Ctx};
use super::stream::*;

/// Reads the body of the animation named `name` (the name is already read) into `sink`.
pub(super) fn read_animation<S: AnimationSink>(
    r: &mut Reader<'_>,
    c: &Ctx,
    name: &str,
    sink: &mut S,
) -> Result<(), BinaryError> {
    let timeline_count = r.varint()?;
    // Every timeline takes at least a few bytes (draw order and events: one each).
    let capacity = (timeline_count as usize).min(r.remaining() / 4 + 2);
    sink.begin(name, timeline_count, capacity);

    r.enter("slot timelines");
    let n = r.count("slot", 2)?;
    for i in 0..n {
        r.enter_item("slots", i);
        let slot = r.index("slot", c.slots)?;
        let m = r.count("slot timeline", 6)?;
        sink.slot_group(slot, m);
        for j in 0..m {
            r.enter_item("timelines", j);
            read_slot_timeline(r, c, sink)?;
            r.leave();
        }
        r.leave();
    }
    r.leave();

    r.enter("bone timelines");
    let n = r.count("bone", 2)?;
    for i in 0..n {
        r.enter_item("bones", i);
        let bone = r.index("bone", c.bones)?;
        let m = r.count("bone timeline", 6)?;
        sink.bone_group(bone, m);
        for j in 0..m {
            r.enter_item("timelines", j);
            read_bone_timeline(r, c, sink)?;
            r.leave();
        }
        r.leave();
    }
    r.leave();

    r.enter("ik timelines");
    let n = r.count("ik timeline", 8)?;
    for i in 0..n {
        r.enter_item("ik timelines", i);
        sink.ik_timeline(read_ik_timeline(r, c)?);
        r.leave();
    }
    r.leave();

    r.enter("transform timelines");
    let n = r.count("transform timeline", 31)?;
    for i in 0..n {
        r.enter_item("transform timelines", i);
        let constraint = r.index("transform constraint", c.transform)?;
        let frames = r.count("keyframe", 28)?;
        deliver_curve_frames(r, frames, |f| sink.transform_timeline(constraint, f))?;
        r.leave();
    }
    r.leave();

    r.enter("path timelines");
    let n = r.count("path constraint", 2)?;
    for i in 0..n {
        r.enter_item("path constraints", i);
        let constraint = r.index("path constraint", c.path)?;
        let m = r.count("path timeline", 11)?;
        sink.path_group(constraint, m);
        for j in 0..m {
            r.enter_item("timelines", j);
            let at = r.pos();
            let ty = r.u8()?;
            let frames = r.count("keyframe", 8)?;
            match ty {
                0 => deliver_curve_frames(r, frames, |f| {
                    sink.path_timeline(PathTimelineIn::Position(f))
                })?,
                1 => deliver_curve_frames(r, frames, |f| {
                    sink.path_timeline(PathTimelineIn::Spacing(f))
                })?,
                2 => {
                    deliver_curve_frames(r, frames, |f| sink.path_timeline(PathTimelineIn::Mix(f)))?
                }
                t => return Err(bad_enum(r, at, "path timeline type", t.into())),
            }
            r.leave();
        }
        r.leave();
    }
    r.leave();

    if c.v42() {
        r.enter("physics timelines");
        let n = r.count("physics constraint", 2)?;
        for i in 0..n {
            r.enter_item("physics constraints", i);
            // 0 = every constraint, n = constraint n - 1.
            let constraint = r.index("physics constraint", c.physics + 1)?;
            let m = r.count("physics timeline", 6)?;
            sink.physics_group(constraint, m);
            for j in 0..m {
                r.enter_item("timelines", j);
                let at = r.pos();
                let ty = r.u8()?;
                let frames = r.count("keyframe", 4)?;
                if ty == 8 {
                    let mut times = Vec::with_capacity(frames);
                    for _ in 0..frames {
                        times.push(r.f32()?);
                    }
                    sink.physics_timeline(PhysicsTimelineIn::Reset(times))?;
                } else {
                    let p = PhysicsProperty::from_wire(ty)
                        .ok_or_else(|| bad_enum(r, at, "physics timeline type", ty.into()))?;
                    deliver_curve_frames(r, frames, |f| {
                        sink.physics_timeline(PhysicsTimelineIn::Value(p, f))
                    })?;
                }
                r.leave();
            }
            r.leave();
        }
        r.leave();
    }

    r.enter("attachment timelines");
    let n = r.count("skin", 2)?;
    for i in 0..n {
        r.enter_item("skins", i);
        let skin = r.index("skin", c.skins)?;
        let m = r.count("slot", 2)?;
        sink.attachment_skin(skin, m);
        for j in 0..m {
            r.enter_item("slots", j);
            let slot = r.index("slot", c.slots)?;
            let k = r.count("attachment", 8)?;
            sink.attachment_slot(slot, k);
            for e in 0..k {
                r.enter_item("attachments", e);
                let attachment = r.str_ref(c.strings)?;
                let timeline = read_attachment_timeline(r, c)?;
                sink.attachment_timeline(attachment, timeline);
                r.leave();
            }
            r.leave();
        }
        r.leave();
    }
    r.leave();

    r.enter("draw order");
    let n = r.count("draw order key", 5)?;
    let mut draw_order = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("keys", i);
        let time = r.f32()?;
        let changes = read_draw_order(r, c.slots)?;
        draw_order.push(DrawOrderKey { time, changes });
        r.leave();
    }
    r.leave();
    sink.draw_order(draw_order);

    r.enter("events");
    let n = r.count("event key", 11)?;
    let mut events = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("keys", i);
        let time = r.f32()?;
        let event = r.index("event", c.event_audio.len())?;
        let int = r.varint_signed()?;
        let float = r.f32()?;
        let string = r.string()?;
        let has_audio = c.event_audio.get(event as usize).copied().unwrap_or(false);
        let audio = if has_audio { Some([r.f32()?, r.f32()?]) } else { None };
        events.push(EventKey { time, event, int, float, string, audio });
        r.leave();
    }
    r.leave();
    sink.events(events);
    Ok(())
}

fn read_slot_timeline<S: AnimationSink>(
    r: &mut Reader<'_>,
    c: &Ctx,
    sink: &mut S,
) -> Result<(), BinaryError> {
    let at = r.pos();
    let ty = r.u8()?;
    let frames = r.count("keyframe", 5)?;
    match ty {
        0 => {
            let mut keys = c.attachment_keys.take();
            keys.clear();
            keys.reserve(frames);
            for _ in 0..frames {
                keys.push(AttachmentKey { time: r.f32()?, name: r.str_ref(c.strings)? });
            }
            let delivered = sink.slot_timeline(SlotTimelineIn::Attachment(&keys));
            c.attachment_keys.set(keys);
            delivered
        }
        1 => deliver_curve_frames(r, frames, |f| sink.slot_timeline(SlotTimelineIn::Rgba(f))),
        2 => deliver_curve_frames(r, frames, |f| sink.slot_timeline(SlotTimelineIn::Rgb(f))),
        3 => deliver_curve_frames(r, frames, |f| sink.slot_timeline(SlotTimelineIn::Rgba2(f))),
        4 => deliver_curve_frames(r, frames, |f| sink.slot_timeline(SlotTimelineIn::Rgb2(f))),
        5 => deliver_curve_frames(r, frames, |f| sink.slot_timeline(SlotTimelineIn::Alpha(f))),
        t => Err(bad_enum(r, at, "slot timeline type", t.into())),
    }
}

fn read_bone_timeline<S: AnimationSink>(
    r: &mut Reader<'_>,
    c: &Ctx,
    sink: &mut S,
) -> Result<(), BinaryError> {
    use BoneTimelineIn as I;
    let at = r.pos();
    let ty = r.u8()?;
    let frames = r.count("keyframe", 5)?;
    if ty == 10 && c.v42() {
        let mut keys = Vec::with_capacity(frames);
        for _ in 0..frames {
            let time = r.f32()?;
            let iat = r.pos();
            let v = r.u8()?;
            let inherit = Inherit::from_wire(v.into())
                .ok_or_else(|| bad_enum(r, iat, "inherit", v.into()))?;
            keys.push(InheritKey { time, inherit });
        }
        return sink.bone_timeline(I::Inherit(keys));
    }
    match ty {
        0 => deliver_curve_frames(r, frames, |f| sink.bone_timeline(I::Rotate(f))),
        1 => deliver_curve_frames(r, frames, |f| sink.bone_timeline(I::Translate(f))),
        2 => deliver_curve_frames(r, frames, |f| sink.bone_timeline(I::TranslateX(f))),
        3 => deliver_curve_frames(r, frames, |f| sink.bone_timeline(I::TranslateY(f))),
        4 => deliver_curve_frames(r, frames, |f| sink.bone_timeline(I::Scale(f))),
        5 => deliver_curve_frames(r, frames, |f| sink.bone_timeline(I::ScaleX(f))),
        6 => deliver_curve_frames(r, frames, |f| sink.bone_timeline(I::ScaleY(f))),
        7 => deliver_curve_frames(r, frames, |f| sink.bone_timeline(I::Shear(f))),
        8 => deliver_curve_frames(r, frames, |f| sink.bone_timeline(I::ShearX(f))),
        9 => deliver_curve_frames(r, frames, |f| sink.bone_timeline(I::ShearY(f))),
        t => Err(bad_enum(r, at, "bone timeline type", t.into())),
    }
}

fn read_curve_byte(r: &mut Reader<'_>) -> Result<CurveType, BinaryError> {
    let at = r.pos();
    match r.i8()? {
        0 => Ok(CurveType::Linear),
        1 => Ok(CurveType::Stepped),
        2 => Ok(CurveType::Bezier),
        v => Err(bad_enum(r, at, "curve type", v.into())),
    }
}

fn read_bezier(r: &mut Reader<'_>) -> Result<[f32; 4], BinaryError> {
    r.f32_array()
}

fn read_ik_timeline(r: &mut Reader<'_>, c: &Ctx) -> Result<IkTimeline, BinaryError> {
    let constraint = r.index("ik constraint", c.ik)?;
    let at = r.pos();
    let frames = r.count("keyframe", 5)?;
    let bezier_count = r.varint()?;
    if frames == 0 {
        return Err(r.invalid_at(at, "timeline has no keyframes"));
    }
    let mut keys = Vec::with_capacity(frames);
    if c.v42() {
        for i in 0..frames {
            r.enter_item("frames", i);
            let flags = r.u8()?;
            let time = r.f32()?;
            let mix = if flags & 1 != 0 && flags & 2 != 0 { Some(r.f32()?) } else { None };
            let softness = if flags & 4 != 0 { Some(r.f32()?) } else { None };
            let (curve, bezier) = if i == 0 {
                (CurveType::Linear, None)
            } else if flags & 64 != 0 {
                (CurveType::Stepped, None)
            } else if flags & 128 != 0 {
                (CurveType::Bezier, Some([read_bezier(r)?, read_bezier(r)?]))
            } else {
                (CurveType::Linear, None)
            };
            keys.push(IkKey {
                flags: Some(flags),
                time,
                mix,
                softness,
                bend_direction: if flags & 8 != 0 { 1 } else { -1 },
                compress: flags & 16 != 0,
                stretch: flags & 32 != 0,
                curve,
                bezier,
            });
            r.leave();
        }
    } else {
        for i in 0..frames {
            r.enter_item("frames", i);
            let time = r.f32()?;
            let mix = Some(r.f32()?);
            let softness = Some(r.f32()?);
            let (curve, bezier) = if i == 0 {
                (CurveType::Linear, None)
            } else {
                match read_curve_byte(r)? {
                    CurveType::Bezier => {
                        (CurveType::Bezier, Some([read_bezier(r)?, read_bezier(r)?]))
                    }
                    other => (other, None),
                }
            };
            keys.push(IkKey {
                flags: None,
                time,
                mix,
                softness,
                bend_direction: r.i8()?,
                compress: r.bool()?,
                stretch: r.bool()?,
                curve,
                bezier,
            });
            r.leave();
        }
    }
    Ok(IkTimeline { constraint, bezier_count, keys })
}

fn read_attachment_timeline(
    r: &mut Reader<'_>,
    c: &Ctx,
) -> Result<AttachmentTimeline, BinaryError> {
    let at = r.pos();
    let ty = if c.v41() { r.u8()? } else { 0 };
    let frames_at = r.pos();
    let frames = r.count("keyframe", 5)?;
    match ty {
        0 => {
            let bezier_count = r.varint()?;
            if frames == 0 {
                return Err(r.invalid_at(frames_at, "timeline has no keyframes"));
            }
            let mut keys = Vec::with_capacity(frames);
            let mut time = r.f32()?;
            let mut curve = CurveType::Linear;
            let mut bezier = None;
            for i in 0..frames {
                r.enter_item("frames", i);
                let vat = r.pos();
                let end = r.varint()?;
                let (start, values) = if end == 0 {
                    (0, Vec::new())
                } else {
                    let start = r.varint()?;
                    r.check_count(vat, "deform value", end.into(), 4)?;
                    let mut v = Vec::with_capacity(end as usize);
                    for _ in 0..end {
                        v.push(r.f32()?);
                    }
                    (start, v)
                };
                keys.push(DeformKey { time, curve, bezier, start, values });
                if i + 1 < frames {
                    time = r.f32()?;
                    curve = read_curve_byte(r)?;
                    bezier = if curve == CurveType::Bezier { Some(read_bezier(r)?) } else { None };
                }
                r.leave();
            }
            Ok(AttachmentTimeline::Deform(DeformTimeline { bezier_count, keys }))
        }
        1 => {
            let mut keys = Vec::with_capacity(frames);
            for i in 0..frames {
                let time = r.f32()?;
                let mat = r.pos();
                let mode_and_index = r.i32()?;
                if SequenceMode::from_wire(mode_and_index & 0xf).is_none() {
                    r.enter_item("frames", i);
                    let e = bad_enum(r, mat, "sequence mode", (mode_and_index & 0xf).into());
                    return Err(e);
                }
                keys.push(SequenceKey { time, mode_and_index, delay: r.f32()? });
            }
            Ok(AttachmentTimeline::Sequence(keys))
        }
        t => Err(bad_enum(r, at, "attachment timeline type", t.into())),
    }
}
