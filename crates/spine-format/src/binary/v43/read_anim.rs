//! Reader of one animation record: every timeline section in spec order.

use super::ast::*;
use super::read::{bad_enum, enum_u8, index_list, inherit_of, Ctx};
use crate::binary::prim::Reader;
use crate::binary::shared::{read_curve_timeline, read_draw_order, CurveType};
use crate::error::{BinaryError, BinaryErrorKind};

/// A constraint index that must point at a constraint of type `want` (gotcha 4).
fn constraint_index(
    r: &mut Reader<'_>,
    ctx: &Ctx,
    want: ConstraintType,
) -> Result<u32, BinaryError> {
    let at = r.pos();
    let i = r.index("constraint", ctx.constraints.len())?;
    check_type(r, ctx, at, i, want)?;
    Ok(i)
}

fn check_type(
    r: &Reader<'_>,
    ctx: &Ctx,
    at: usize,
    i: u32,
    want: ConstraintType,
) -> Result<(), BinaryError> {
    match ctx.constraints.get(i as usize) {
        Some(&t) if t == want => Ok(()),
        Some(t) => Err(r.invalid_at(at, format!("constraint {i} is {t:?}, expected {want:?}"))),
        None => Err(r.err_at(
            at,
            BinaryErrorKind::IndexOutOfRange {
                what: "constraint",
                index: u64::from(i),
                len: ctx.constraints.len(),
            },
        )),
    }
}

/// A frame count of a timeline whose frames take at least `min` bytes each.
fn frames(r: &mut Reader<'_>, min: usize) -> Result<usize, BinaryError> {
    r.count("keyframe", min)
}

pub(super) fn read_animation(
    r: &mut Reader<'_>,
    ctx: &Ctx,
    name: String,
) -> Result<Animation, BinaryError> {
    let timeline_hint = r.varint()?;

    r.enter("slot timelines");
    let n = r.count("slot", 2)?;
    let mut slots = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("slots", i);
        let slot = r.index("slot", ctx.slots)?;
        let m = r.count("timeline", 2)?;
        let mut timelines = Vec::with_capacity(m);
        for j in 0..m {
            r.enter_item("timelines", j);
            let at = r.pos();
            let ty = r.u8()?;
            let t = match ty {
                0 => {
                    let f = frames(r, 5)?;
                    let mut keys = Vec::with_capacity(f);
                    for k in 0..f {
                        r.enter_item("frames", k);
                        keys.push(AttachmentKey {
                            time: r.f32()?,
                            attachment: r.str_ref(ctx.strings)?,
                        });
                        r.leave();
                    }
                    SlotTimeline::Attachment(keys)
                }
                1..=5 => {
                    let f = r.varint()? as usize;
                    match ty {
                        1 => SlotTimeline::Rgba(read_curve_timeline(r, f)?),
                        2 => SlotTimeline::Rgb(read_curve_timeline(r, f)?),
                        3 => SlotTimeline::Rgba2(read_curve_timeline(r, f)?),
                        4 => SlotTimeline::Rgb2(read_curve_timeline(r, f)?),
                        _ => SlotTimeline::Alpha(read_curve_timeline(r, f)?),
                    }
                }
                v => return Err(bad_enum(r, at, "slot timeline type", i64::from(v))),
            };
            timelines.push(t);
            r.leave();
        }
        slots.push(SlotTimelines { slot, timelines });
        r.leave();
    }
    r.leave();

    r.enter("bone timelines");
    let n = r.count("bone", 2)?;
    let mut bones = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("bones", i);
        let bone = r.index("bone", ctx.bones)?;
        let m = r.count("timeline", 2)?;
        let mut timelines = Vec::with_capacity(m);
        for j in 0..m {
            r.enter_item("timelines", j);
            let at = r.pos();
            let ty = r.u8()?;
            let t = if ty == 10 {
                let f = frames(r, 5)?;
                let mut keys = Vec::with_capacity(f);
                for k in 0..f {
                    r.enter_item("frames", k);
                    keys.push(InheritKey {
                        time: r.f32()?,
                        inherit: enum_u8(r, "inherit", inherit_of)?,
                    });
                    r.leave();
                }
                BoneTimeline::Inherit(keys)
            } else {
                if ty > 10 {
                    return Err(bad_enum(r, at, "bone timeline type", i64::from(ty)));
                }
                let f = r.varint()? as usize;
                match ty {
                    0 => BoneTimeline::Rotate(read_curve_timeline(r, f)?),
                    1 => BoneTimeline::Translate(read_curve_timeline(r, f)?),
                    2 => BoneTimeline::TranslateX(read_curve_timeline(r, f)?),
                    3 => BoneTimeline::TranslateY(read_curve_timeline(r, f)?),
                    4 => BoneTimeline::Scale(read_curve_timeline(r, f)?),
                    5 => BoneTimeline::ScaleX(read_curve_timeline(r, f)?),
                    6 => BoneTimeline::ScaleY(read_curve_timeline(r, f)?),
                    7 => BoneTimeline::Shear(read_curve_timeline(r, f)?),
                    8 => BoneTimeline::ShearX(read_curve_timeline(r, f)?),
                    _ => BoneTimeline::ShearY(read_curve_timeline(r, f)?),
                }
            };
            timelines.push(t);
            r.leave();
        }
        bones.push(BoneTimelines { bone, timelines });
        r.leave();
    }
    r.leave();

    r.enter("ik timelines");
    let n = r.count("ik timeline", 8)?;
    let mut ik = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("timelines", i);
        let constraint = constraint_index(r, ctx, ConstraintType::Ik)?;
        let at = r.pos();
        let f = frames(r, 5)?;
        if f == 0 {
            return Err(r.invalid_at(at, "timeline has no keyframes"));
        }
        let bezier_count = r.varint()?;
        let mut keys = Vec::with_capacity(f);
        for k in 0..f {
            r.enter_item("frames", k);
            let flags = r.u8()?;
            let time = r.f32()?;
            let mix = if flags & 1 != 0 && flags & 2 != 0 { Some(r.f32()?) } else { None };
            let softness = if flags & 4 != 0 { Some(r.f32()?) } else { None };
            let bezier = if k > 0 && flags & 64 == 0 && flags & 128 != 0 {
                let mut b = [[0.0; 4]; 2];
                for c in &mut b {
                    for x in c.iter_mut() {
                        *x = r.f32()?;
                    }
                }
                Some(b)
            } else {
                None
            };
            keys.push(IkKey { flags, time, mix, softness, bezier });
            r.leave();
        }
        ik.push(IkTimeline { constraint, bezier_count, keys });
        r.leave();
    }
    r.leave();

    r.enter("transform timelines");
    let n = r.count("transform timeline", 8)?;
    let mut transform = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("timelines", i);
        let constraint = constraint_index(r, ctx, ConstraintType::Transform)?;
        let f = r.varint()? as usize;
        transform.push(TransformTimeline { constraint, timeline: read_curve_timeline(r, f)? });
        r.leave();
    }
    r.leave();

    r.enter("path timelines");
    let n = r.count("path constraint", 2)?;
    let mut path = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("constraints", i);
        let constraint = constraint_index(r, ctx, ConstraintType::Path)?;
        let m = r.count("timeline", 3)?;
        let mut timelines = Vec::with_capacity(m);
        for j in 0..m {
            r.enter_item("timelines", j);
            let at = r.pos();
            let ty = r.u8()?;
            let f = r.varint()? as usize;
            timelines.push(match ty {
                0 => PathTimeline::Position(read_curve_timeline(r, f)?),
                1 => PathTimeline::Spacing(read_curve_timeline(r, f)?),
                2 => PathTimeline::Mix(read_curve_timeline(r, f)?),
                v => return Err(bad_enum(r, at, "path timeline type", i64::from(v))),
            });
            r.leave();
        }
        path.push(PathTimelines { constraint, timelines });
        r.leave();
    }
    r.leave();

    r.enter("physics timelines");
    let n = r.count("physics constraint", 2)?;
    let mut physics = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("constraints", i);
        // Gotcha 5: 1-based, 0 = every physics constraint.
        let at = r.pos();
        let k = r.varint()?;
        let constraint = match k.checked_sub(1) {
            None => None,
            Some(c) => {
                check_type(r, ctx, at, c, ConstraintType::Physics)?;
                Some(c)
            }
        };
        let m = r.count("timeline", 2)?;
        let mut timelines = Vec::with_capacity(m);
        for j in 0..m {
            r.enter_item("timelines", j);
            let at = r.pos();
            let ty = r.u8()?;
            let prop = match ty {
                0 => PhysicsProperty::Inertia,
                1 => PhysicsProperty::Strength,
                2 => PhysicsProperty::Damping,
                4 => PhysicsProperty::Mass,
                5 => PhysicsProperty::Wind,
                6 => PhysicsProperty::Gravity,
                7 => PhysicsProperty::Mix,
                8 => {
                    let f = frames(r, 4)?;
                    let mut times = Vec::with_capacity(f);
                    for _ in 0..f {
                        times.push(r.f32()?);
                    }
                    timelines.push(PhysicsTimeline::Reset(times));
                    r.leave();
                    continue;
                }
                v => return Err(bad_enum(r, at, "physics timeline type", i64::from(v))),
            };
            let f = r.varint()? as usize;
            timelines.push(PhysicsTimeline::Property(prop, read_curve_timeline(r, f)?));
            r.leave();
        }
        physics.push(PhysicsTimelines { constraint, timelines });
        r.leave();
    }
    r.leave();

    r.enter("slider timelines");
    let n = r.count("slider", 2)?;
    let mut slider = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("constraints", i);
        let constraint = constraint_index(r, ctx, ConstraintType::Slider)?;
        let m = r.count("timeline", 3)?;
        let mut timelines = Vec::with_capacity(m);
        for j in 0..m {
            r.enter_item("timelines", j);
            let at = r.pos();
            let ty = r.u8()?;
            let f = r.varint()? as usize;
            timelines.push(match ty {
                0 => SliderTimeline::Time(read_curve_timeline(r, f)?),
                1 => SliderTimeline::Mix(read_curve_timeline(r, f)?),
                v => return Err(bad_enum(r, at, "slider timeline type", i64::from(v))),
            });
            r.leave();
        }
        slider.push(SliderTimelines { constraint, timelines });
        r.leave();
    }
    r.leave();

    r.enter("attachment timelines");
    let n = r.count("skin", 2)?;
    let mut attachments = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("skins", i);
        let skin = r.index("skin", ctx.skins)?;
        let m = r.count("slot", 2)?;
        let mut sl = Vec::with_capacity(m);
        for j in 0..m {
            r.enter_item("slots", j);
            let slot = r.index("slot", ctx.slots)?;
            let q = r.count("attachment", 3)?;
            let mut atts = Vec::with_capacity(q);
            for a in 0..q {
                r.enter_item("attachments", a);
                let attachment = r.str_ref(ctx.strings)?;
                let at = r.pos();
                let kind = match r.u8()? {
                    0 => AttachmentTimelineKind::Deform(read_deform(r)?),
                    1 => {
                        let f = frames(r, 12)?;
                        let mut keys = Vec::with_capacity(f);
                        for k in 0..f {
                            r.enter_item("frames", k);
                            let time = r.f32()?;
                            let mat = r.pos();
                            let mi = r.i32()?;
                            let mode = match mi & 0xf {
                                0 => SequenceMode::Hold,
                                1 => SequenceMode::Once,
                                2 => SequenceMode::Loop,
                                3 => SequenceMode::PingPong,
                                4 => SequenceMode::OnceReverse,
                                5 => SequenceMode::LoopReverse,
                                6 => SequenceMode::PingPongReverse,
                                v => return Err(bad_enum(r, mat, "sequence mode", i64::from(v))),
                            };
                            keys.push(SequenceKey { time, mode, index: mi >> 4, delay: r.f32()? });
                            r.leave();
                        }
                        AttachmentTimelineKind::Sequence(keys)
                    }
                    v => return Err(bad_enum(r, at, "attachment timeline type", i64::from(v))),
                };
                atts.push(AttachmentTimeline { attachment, kind });
                r.leave();
            }
            sl.push(AttachmentTimelinesSlot { slot, attachments: atts });
            r.leave();
        }
        attachments.push(AttachmentTimelinesSkin { skin, slots: sl });
        r.leave();
    }
    r.leave();

    r.enter("draw order");
    let n = frames(r, 5)?;
    let mut draw_order = Vec::with_capacity(n);
    for k in 0..n {
        r.enter_item("frames", k);
        let time = r.f32()?;
        draw_order.push(DrawOrderKey { time, changes: read_draw_order(r, ctx.slots)? });
        r.leave();
    }
    r.leave();

    r.enter("draw order folders");
    let n = r.count("folder", 2)?;
    let mut draw_order_folders = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("folders", i);
        let folder_slots = index_list(r, "slot", ctx.slots)?;
        let f = frames(r, 5)?;
        let mut keys = Vec::with_capacity(f);
        for k in 0..f {
            r.enter_item("frames", k);
            let time = r.f32()?;
            keys.push(DrawOrderKey { time, changes: read_draw_order(r, folder_slots.len())? });
            r.leave();
        }
        draw_order_folders.push(DrawOrderFolder { slots: folder_slots, keys });
        r.leave();
    }
    r.leave();

    r.enter("events");
    let n = frames(r, 8)?;
    let mut events = Vec::with_capacity(n);
    for k in 0..n {
        r.enter_item("frames", k);
        let time = r.f32()?;
        let event = r.index("event", ctx.event_audio.len())?;
        let mut key = EventKey {
            time,
            event,
            int_value: r.varint_signed()?,
            float_value: r.f32()?,
            string_value: r.string()?,
            volume_balance: None,
        };
        if ctx.event_audio.get(event as usize).copied().unwrap_or(false) {
            key.volume_balance = Some([r.f32()?, r.f32()?]);
        }
        events.push(key);
        r.leave();
    }
    r.leave();

    let color = if ctx.nonessential { Some(r.rgba()?) } else { None };
    Ok(Animation {
        name,
        timeline_hint,
        slots,
        bones,
        ik,
        transform,
        path,
        physics,
        slider,
        attachments,
        draw_order,
        draw_order_folders,
        events,
        color,
    })
}

fn read_deform(r: &mut Reader<'_>) -> Result<DeformTimeline, BinaryError> {
    let at = r.pos();
    let f = frames(r, 5)?;
    if f == 0 {
        return Err(r.invalid_at(at, "timeline has no keyframes"));
    }
    let bezier_count = r.varint()?;
    let mut keys = Vec::with_capacity(f);
    let mut curves = Vec::with_capacity(f - 1);
    let mut beziers = Vec::new();
    let mut time = r.f32()?;
    for k in 0..f {
        r.enter_item("frames", k);
        let at = r.pos();
        let end = r.varint()?;
        let values = if end == 0 {
            None
        } else {
            let start = r.varint()?;
            if u64::from(start) + u64::from(end) > u64::from(u32::MAX) {
                return Err(r.invalid_at(at, "deform range overflows"));
            }
            r.check_count(at, "deform value", u64::from(end), 4)?;
            let mut values = Vec::with_capacity(end as usize);
            for _ in 0..end {
                values.push(r.f32()?);
            }
            Some(DeformValues { start, values })
        };
        keys.push(DeformKey { time, values });
        if k + 1 < f {
            time = r.f32()?;
            let cat = r.pos();
            curves.push(match r.i8()? {
                0 => CurveType::Linear,
                1 => CurveType::Stepped,
                2 => {
                    beziers.push(r.f32_array::<4>()?);
                    CurveType::Bezier
                }
                v => return Err(bad_enum(r, cat, "curve type", i64::from(v))),
            });
        }
        r.leave();
    }
    Ok(DeformTimeline { bezier_count, keys, curves, beziers })
}
