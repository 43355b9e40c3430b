//! The 4.0–4.2 animation reader: every timeline section in wire order.

use crate::binary::prim::Reader;
use crate::binary::shared::{read_curve_timeline, read_draw_order, CurveType};
use crate::error::BinaryError;

use super::animation::*;
use super::ast::Inherit;
use super::read::{bad_enum, Ctx};

/// Reads the body of the animation named `name` (the name is already read).
pub(super) fn read_animation(
    r: &mut Reader<'_>,
    c: &Ctx,
    name: String,
) -> Result<Animation, BinaryError> {
    let timeline_count = r.varint()?;

    r.enter("slot timelines");
    let n = r.count("slot", 2)?;
    let mut slots = Vec::with_capacity(n);
    let mut slot_timelines = Vec::new();
    for i in 0..n {
        r.enter_item("slots", i);
        let slot = r.index("slot", c.slots)?;
        let m = r.count("slot timeline", 6)?;
        slot_timelines.reserve(m);
        for j in 0..m {
            r.enter_item("timelines", j);
            slot_timelines.push(read_slot_timeline(r, c)?);
            r.leave();
        }
        slots.push(SlotTimelines { slot, count: m as u32 });
        r.leave();
    }
    r.leave();

    r.enter("bone timelines");
    let n = r.count("bone", 2)?;
    let mut bones = Vec::with_capacity(n);
    let mut bone_timelines = Vec::new();
    for i in 0..n {
        r.enter_item("bones", i);
        let bone = r.index("bone", c.bones)?;
        let m = r.count("bone timeline", 6)?;
        bone_timelines.reserve(m);
        for j in 0..m {
            r.enter_item("timelines", j);
            bone_timelines.push(read_bone_timeline(r, c)?);
            r.leave();
        }
        bones.push(BoneTimelines { bone, count: m as u32 });
        r.leave();
    }
    r.leave();

    r.enter("ik timelines");
    let n = r.count("ik timeline", 8)?;
    let mut ik = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("ik timelines", i);
        ik.push(read_ik_timeline(r, c)?);
        r.leave();
    }
    r.leave();

    r.enter("transform timelines");
    let n = r.count("transform timeline", 31)?;
    let mut transform = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("transform timelines", i);
        let constraint = r.index("transform constraint", c.transform)?;
        let frames = r.count("keyframe", 28)?;
        let timeline = read_curve_timeline::<[f32; 6]>(r, frames)?;
        transform.push(TransformTimeline { constraint, timeline });
        r.leave();
    }
    r.leave();

    r.enter("path timelines");
    let n = r.count("path constraint", 2)?;
    let mut path = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("path constraints", i);
        let constraint = r.index("path constraint", c.path)?;
        let m = r.count("path timeline", 11)?;
        let mut timelines = Vec::with_capacity(m);
        for j in 0..m {
            r.enter_item("timelines", j);
            let at = r.pos();
            let ty = r.u8()?;
            let frames = r.count("keyframe", 8)?;
            timelines.push(match ty {
                0 => PathTimeline::Position(read_curve_timeline(r, frames)?),
                1 => PathTimeline::Spacing(read_curve_timeline(r, frames)?),
                2 => PathTimeline::Mix(read_curve_timeline(r, frames)?),
                t => return Err(bad_enum(r, at, "path timeline type", t.into())),
            });
            r.leave();
        }
        path.push(PathTimelines { constraint, timelines });
        r.leave();
    }
    r.leave();

    let mut physics = Vec::new();
    if c.v42() {
        r.enter("physics timelines");
        let n = r.count("physics constraint", 2)?;
        physics.reserve_exact(n);
        for i in 0..n {
            r.enter_item("physics constraints", i);
            // 0 = every constraint, n = constraint n - 1.
            let constraint = r.index("physics constraint", c.physics + 1)?;
            let m = r.count("physics timeline", 6)?;
            let mut timelines = Vec::with_capacity(m);
            for j in 0..m {
                r.enter_item("timelines", j);
                let at = r.pos();
                let ty = r.u8()?;
                let frames = r.count("keyframe", 4)?;
                timelines.push(if ty == 8 {
                    let mut times = Vec::with_capacity(frames);
                    for _ in 0..frames {
                        times.push(r.f32()?);
                    }
                    PhysicsTimeline::Reset(times)
                } else {
                    let p = PhysicsProperty::from_wire(ty)
                        .ok_or_else(|| bad_enum(r, at, "physics timeline type", ty.into()))?;
                    PhysicsTimeline::Value(p, read_curve_timeline(r, frames)?)
                });
                r.leave();
            }
            physics.push(PhysicsTimelines { constraint, timelines });
            r.leave();
        }
        r.leave();
    }

    r.enter("attachment timelines");
    let n = r.count("skin", 2)?;
    let mut attachments = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("skins", i);
        let skin = r.index("skin", c.skins)?;
        let m = r.count("slot", 2)?;
        let mut slots = Vec::with_capacity(m);
        for j in 0..m {
            r.enter_item("slots", j);
            let slot = r.index("slot", c.slots)?;
            let k = r.count("attachment", 8)?;
            let mut entries = Vec::with_capacity(k);
            for e in 0..k {
                r.enter_item("attachments", e);
                let attachment = r.str_ref(c.strings)?;
                let timeline = read_attachment_timeline(r, c)?;
                entries.push(AttachmentTimelineEntry { attachment, timeline });
                r.leave();
            }
            slots.push(SlotAttachmentTimelines { slot, attachments: entries });
            r.leave();
        }
        attachments.push(SkinTimelines { skin, slots });
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

    Ok(Animation {
        name,
        timeline_count,
        slots,
        slot_timelines,
        bones,
        bone_timelines,
        ik,
        transform,
        path,
        physics,
        attachments,
        draw_order,
        events,
    })
}

fn read_slot_timeline(r: &mut Reader<'_>, c: &Ctx) -> Result<SlotTimeline, BinaryError> {
    let at = r.pos();
    let ty = r.u8()?;
    let frames = r.count("keyframe", 5)?;
    Ok(match ty {
        0 => {
            let mut keys = Vec::with_capacity(frames);
            for _ in 0..frames {
                keys.push(AttachmentKey { time: r.f32()?, name: r.str_ref(c.strings)? });
            }
            SlotTimeline::Attachment(keys)
        }
        1 => SlotTimeline::Rgba(read_curve_timeline(r, frames)?),
        2 => SlotTimeline::Rgb(read_curve_timeline(r, frames)?),
        3 => SlotTimeline::Rgba2(read_curve_timeline(r, frames)?),
        4 => SlotTimeline::Rgb2(read_curve_timeline(r, frames)?),
        5 => SlotTimeline::Alpha(read_curve_timeline(r, frames)?),
        t => return Err(bad_enum(r, at, "slot timeline type", t.into())),
    })
}

fn read_bone_timeline(r: &mut Reader<'_>, c: &Ctx) -> Result<BoneTimeline, BinaryError> {
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
        return Ok(BoneTimeline::Inherit(keys));
    }
    Ok(match ty {
        0 => BoneTimeline::Rotate(read_curve_timeline(r, frames)?),
        1 => BoneTimeline::Translate(read_curve_timeline(r, frames)?),
        2 => BoneTimeline::TranslateX(read_curve_timeline(r, frames)?),
        3 => BoneTimeline::TranslateY(read_curve_timeline(r, frames)?),
        4 => BoneTimeline::Scale(read_curve_timeline(r, frames)?),
        5 => BoneTimeline::ScaleX(read_curve_timeline(r, frames)?),
        6 => BoneTimeline::ScaleY(read_curve_timeline(r, frames)?),
        7 => BoneTimeline::Shear(read_curve_timeline(r, frames)?),
        8 => BoneTimeline::ShearX(read_curve_timeline(r, frames)?),
        9 => BoneTimeline::ShearY(read_curve_timeline(r, frames)?),
        t => return Err(bad_enum(r, at, "bone timeline type", t.into())),
    })
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
