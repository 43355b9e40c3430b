//! Parser of one animation record: every timeline section in spec order.

use nom::combinator::cond;
use nom::Parser;

use super::ast::*;
use super::read::{check_type, constraint_index, inherit_of, Ctx};
use crate::binary::shared::{curve_timeline, draw_order, CurveType};
use crate::binary::wire::{
    check_count, count, enum_u8, f32, f32s, f32s_into, groups, i32, i8, index, indices, items,
    list, rgba, section, str_ref, string, u8, varint, varint_signed, In, PErr, Res,
};

/// The body of the animation named `name` (the name is already read).
pub(super) fn animation<'a>(ctx: &Ctx<'_>, i: In<'a>, name: String) -> Res<'a, Animation> {
    let lim = ctx.lim;
    let (i, timeline_hint) = varint(i)?;
    let (i, slots) = section("slot timelines", |i| slot_timelines(ctx, i)).parse(i)?;
    let (i, bones) = section("bone timelines", |i| bone_timelines(ctx, i)).parse(i)?;
    let (i, ik) =
        section("ik timelines", list(lim, "ik timeline", 8, Some("timelines"), |i, _| ik(ctx, i)))
            .parse(i)?;
    let (i, transform) = section(
        "transform timelines",
        list(lim, "transform timeline", 8, Some("timelines"), |i, _| transform_timeline(ctx, i)),
    )
    .parse(i)?;
    let (i, path) = section(
        "path timelines",
        groups(
            lim,
            ("path constraint", "constraints"),
            constraint_index(ctx, ConstraintType::Path),
            ("timeline", 3),
            |i, _| path_timeline(ctx, i),
            |constraint, timelines| PathTimelines { constraint, timelines },
        ),
    )
    .parse(i)?;
    let (i, physics) = section("physics timelines", |i| physics_timelines(ctx, i)).parse(i)?;
    let (i, slider) = section(
        "slider timelines",
        groups(
            lim,
            ("slider", "constraints"),
            constraint_index(ctx, ConstraintType::Slider),
            ("timeline", 3),
            |i, _| slider_timeline(ctx, i),
            |constraint, timelines| SliderTimelines { constraint, timelines },
        ),
    )
    .parse(i)?;
    let (i, attachments) =
        section("attachment timelines", |i| attachment_timelines(ctx, i)).parse(i)?;
    let (i, draw_order) = section("draw order", |i| draw_order_keys(ctx, ctx.slots, i)).parse(i)?;
    let (i, draw_order_folders) = section(
        "draw order folders",
        list(lim, "folder", 2, Some("folders"), |i, _| {
            let (i, slots) = indices(lim, "slot", ctx.slots)(i)?;
            let (i, keys) = draw_order_keys(ctx, slots.len(), i)?;
            Ok((i, DrawOrderFolder { slots, keys }))
        }),
    )
    .parse(i)?;
    let (i, events) =
        section("events", list(lim, "keyframe", 8, Some("frames"), |i, _| event_key(ctx, i)))
            .parse(i)?;
    let (i, color) = cond(ctx.nonessential, rgba).parse(i)?;
    let animation = Animation {
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
    };
    Ok((i, animation))
}

/// The slot timelines, grouped by slot.
fn slot_timelines<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, Vec<SlotTimelines>> {
    groups(
        ctx.lim,
        ("slot", "slots"),
        index("slot", ctx.slots),
        ("timeline", 2),
        |i, _| slot_timeline(ctx, i),
        |slot, timelines| SlotTimelines { slot, timelines },
    )
    .parse(i)
}

/// The bone timelines, grouped by bone.
fn bone_timelines<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, Vec<BoneTimelines>> {
    groups(
        ctx.lim,
        ("bone", "bones"),
        index("bone", ctx.bones),
        ("timeline", 2),
        |i, _| bone_timeline(ctx, i),
        |bone, timelines| BoneTimelines { bone, timelines },
    )
    .parse(i)
}

/// One transform constraint timeline.
fn transform_timeline<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, TransformTimeline> {
    let (i, constraint) = constraint_index(ctx, ConstraintType::Transform)(i)?;
    let (i, f) = varint(i)?;
    let (i, timeline) = curve_timeline(ctx.lim, f as usize)(i)?;
    Ok((i, TransformTimeline { constraint, timeline }))
}

/// The physics constraint timelines. Gotcha 5: physics constraints are 1-based, 0 = every
/// physics constraint.
fn physics_timelines<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, Vec<PhysicsTimelines>> {
    let physics_constraint = |at| {
        let (i, k) = varint(at)?;
        let constraint = k.checked_sub(1);
        if let Some(c) = constraint {
            check_type(ctx, at, c, ConstraintType::Physics)?;
        }
        Ok((i, constraint))
    };
    groups(
        ctx.lim,
        ("physics constraint", "constraints"),
        physics_constraint,
        ("timeline", 2),
        |i, _| physics_timeline(ctx, i),
        |constraint, timelines| PhysicsTimelines { constraint, timelines },
    )
    .parse(i)
}

/// The attachment timelines, skin > slot > attachment.
fn attachment_timelines<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, Vec<AttachmentTimelinesSkin>> {
    let lim = ctx.lim;
    list(lim, "skin", 2, Some("skins"), |i, _| {
        let (i, skin) = index("skin", ctx.skins)(i)?;
        let (i, slots) = list(lim, "slot", 2, Some("slots"), |i, _| {
            let (i, slot) = index("slot", ctx.slots)(i)?;
            let (i, attachments) = list(lim, "attachment", 3, Some("attachments"), |i, _| {
                attachment_timeline(ctx, i)
            })(i)?;
            Ok((i, AttachmentTimelinesSlot { slot, attachments }))
        })(i)?;
        Ok((i, AttachmentTimelinesSkin { skin, slots }))
    })(i)
}

/// Draw order keys over `slots` slots (the skeleton's, or a folder's).
fn draw_order_keys<'a>(ctx: &Ctx<'_>, slots: usize, i: In<'a>) -> Res<'a, Vec<DrawOrderKey>> {
    let lim = ctx.lim;
    list(lim, "keyframe", 5, Some("frames"), move |i, _| {
        let (i, time) = f32(i)?;
        let (i, changes) = draw_order(lim, slots)(i)?;
        Ok((i, DrawOrderKey { time, changes }))
    })(i)
}

fn slot_timeline<'a>(ctx: &Ctx<'_>, at: In<'a>) -> Res<'a, SlotTimeline> {
    let lim = ctx.lim;
    let (i, ty) = u8(at)?;
    if ty == 0 {
        let (i, keys) = list(lim, "keyframe", 5, Some("frames"), |i, _| {
            let (i, time) = f32(i)?;
            let (i, attachment) = str_ref(ctx.strings)(i)?;
            Ok((i, AttachmentKey { time, attachment }))
        })(i)?;
        return Ok((i, SlotTimeline::Attachment(keys)));
    }
    if ty > 5 {
        return Err(PErr::bad_enum(at, "slot timeline type", i64::from(ty)));
    }
    let (i, f) = varint(i)?;
    let f = f as usize;
    Ok(match ty {
        1 => curve_timeline(lim, f)(i).map(|(i, t)| (i, SlotTimeline::Rgba(t)))?,
        2 => curve_timeline(lim, f)(i).map(|(i, t)| (i, SlotTimeline::Rgb(t)))?,
        3 => curve_timeline(lim, f)(i).map(|(i, t)| (i, SlotTimeline::Rgba2(t)))?,
        4 => curve_timeline(lim, f)(i).map(|(i, t)| (i, SlotTimeline::Rgb2(t)))?,
        _ => curve_timeline(lim, f)(i).map(|(i, t)| (i, SlotTimeline::Alpha(t)))?,
    })
}

fn bone_timeline<'a>(ctx: &Ctx<'_>, at: In<'a>) -> Res<'a, BoneTimeline> {
    let lim = ctx.lim;
    let (i, ty) = u8(at)?;
    if ty == 10 {
        let (i, keys) = list(lim, "keyframe", 5, Some("frames"), |i, _| {
            let (i, time) = f32(i)?;
            let (i, inherit) = enum_u8("inherit", inherit_of)(i)?;
            Ok((i, InheritKey { time, inherit }))
        })(i)?;
        return Ok((i, BoneTimeline::Inherit(keys)));
    }
    if ty > 10 {
        return Err(PErr::bad_enum(at, "bone timeline type", i64::from(ty)));
    }
    let (i, f) = varint(i)?;
    let f = f as usize;
    Ok(match ty {
        0 => curve_timeline(lim, f)(i).map(|(i, t)| (i, BoneTimeline::Rotate(t)))?,
        1 => curve_timeline(lim, f)(i).map(|(i, t)| (i, BoneTimeline::Translate(t)))?,
        2 => curve_timeline(lim, f)(i).map(|(i, t)| (i, BoneTimeline::TranslateX(t)))?,
        3 => curve_timeline(lim, f)(i).map(|(i, t)| (i, BoneTimeline::TranslateY(t)))?,
        4 => curve_timeline(lim, f)(i).map(|(i, t)| (i, BoneTimeline::Scale(t)))?,
        5 => curve_timeline(lim, f)(i).map(|(i, t)| (i, BoneTimeline::ScaleX(t)))?,
        6 => curve_timeline(lim, f)(i).map(|(i, t)| (i, BoneTimeline::ScaleY(t)))?,
        7 => curve_timeline(lim, f)(i).map(|(i, t)| (i, BoneTimeline::Shear(t)))?,
        8 => curve_timeline(lim, f)(i).map(|(i, t)| (i, BoneTimeline::ShearX(t)))?,
        _ => curve_timeline(lim, f)(i).map(|(i, t)| (i, BoneTimeline::ShearY(t)))?,
    })
}

fn ik<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, IkTimeline> {
    let (at, constraint) = constraint_index(ctx, ConstraintType::Ik)(i)?;
    let (i, f) = count(ctx.lim, "keyframe", 5)(at)?;
    if f == 0 {
        return Err(PErr::invalid(at, "timeline has no keyframes"));
    }
    let (i, bezier_count) = varint(i)?;
    let (i, keys) = items(f, Some("frames"), |i, k| {
        let (i, flags) = u8(i)?;
        let (i, time) = f32(i)?;
        let (i, mix) = cond(flags & 1 != 0 && flags & 2 != 0, f32).parse(i)?;
        let (i, softness) = cond(flags & 4 != 0, f32).parse(i)?;
        let (i, bezier) = cond(k > 0 && flags & 64 == 0 && flags & 128 != 0, |i| {
            let (i, a) = f32s::<4>(i)?;
            let (i, b) = f32s::<4>(i)?;
            Ok((i, [a, b]))
        })
        .parse(i)?;
        Ok((i, IkKey { flags, time, mix, softness, bezier }))
    })(i)?;
    Ok((i, IkTimeline { constraint, bezier_count, keys }))
}

fn path_timeline<'a>(ctx: &Ctx<'_>, at: In<'a>) -> Res<'a, PathTimeline> {
    let (i, ty) = u8(at)?;
    let (i, f) = varint(i)?;
    let (lim, f) = (ctx.lim, f as usize);
    Ok(match ty {
        0 => curve_timeline(lim, f)(i).map(|(i, t)| (i, PathTimeline::Position(t)))?,
        1 => curve_timeline(lim, f)(i).map(|(i, t)| (i, PathTimeline::Spacing(t)))?,
        2 => curve_timeline(lim, f)(i).map(|(i, t)| (i, PathTimeline::Mix(t)))?,
        v => return Err(PErr::bad_enum(at, "path timeline type", i64::from(v))),
    })
}

fn slider_timeline<'a>(ctx: &Ctx<'_>, at: In<'a>) -> Res<'a, SliderTimeline> {
    let (i, ty) = u8(at)?;
    let (i, f) = varint(i)?;
    let (lim, f) = (ctx.lim, f as usize);
    Ok(match ty {
        0 => curve_timeline(lim, f)(i).map(|(i, t)| (i, SliderTimeline::Time(t)))?,
        1 => curve_timeline(lim, f)(i).map(|(i, t)| (i, SliderTimeline::Mix(t)))?,
        v => return Err(PErr::bad_enum(at, "slider timeline type", i64::from(v))),
    })
}

fn physics_timeline<'a>(ctx: &Ctx<'_>, at: In<'a>) -> Res<'a, PhysicsTimeline> {
    let (i, ty) = u8(at)?;
    let prop = match ty {
        0 => PhysicsProperty::Inertia,
        1 => PhysicsProperty::Strength,
        2 => PhysicsProperty::Damping,
        4 => PhysicsProperty::Mass,
        5 => PhysicsProperty::Wind,
        6 => PhysicsProperty::Gravity,
        7 => PhysicsProperty::Mix,
        8 => {
            let (i, f) = count(ctx.lim, "keyframe", 4)(i)?;
            let mut times = Vec::with_capacity(f);
            let (i, ()) = f32s_into(i, f, &mut times)?;
            return Ok((i, PhysicsTimeline::Reset(times)));
        }
        v => return Err(PErr::bad_enum(at, "physics timeline type", i64::from(v))),
    };
    let (i, f) = varint(i)?;
    let (i, t) = curve_timeline(ctx.lim, f as usize)(i)?;
    Ok((i, PhysicsTimeline::Property(prop, t)))
}

fn sequence_mode(v: i32) -> Option<SequenceMode> {
    Some(match v {
        0 => SequenceMode::Hold,
        1 => SequenceMode::Once,
        2 => SequenceMode::Loop,
        3 => SequenceMode::PingPong,
        4 => SequenceMode::OnceReverse,
        5 => SequenceMode::LoopReverse,
        6 => SequenceMode::PingPongReverse,
        _ => return None,
    })
}

fn attachment_timeline<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, AttachmentTimeline> {
    let (at, attachment) = str_ref(ctx.strings)(i)?;
    let (i, kind) = match u8(at)? {
        (i, 0) => deform(ctx, i).map(|(i, d)| (i, AttachmentTimelineKind::Deform(d)))?,
        (i, 1) => {
            let (i, keys) = list(ctx.lim, "keyframe", 12, Some("frames"), |i, _| {
                let (mat, time) = f32(i)?;
                let (i, mi) = i32(mat)?;
                let Some(mode) = sequence_mode(mi & 0xf) else {
                    return Err(PErr::bad_enum(mat, "sequence mode", i64::from(mi & 0xf)));
                };
                let (i, delay) = f32(i)?;
                Ok((i, SequenceKey { time, mode, index: mi >> 4, delay }))
            })(i)?;
            (i, AttachmentTimelineKind::Sequence(keys))
        }
        (_, v) => return Err(PErr::bad_enum(at, "attachment timeline type", i64::from(v))),
    };
    Ok((i, AttachmentTimeline { attachment, kind }))
}

fn deform<'a>(ctx: &Ctx<'_>, at: In<'a>) -> Res<'a, DeformTimeline> {
    let lim = ctx.lim;
    let (i, f) = count(lim, "keyframe", 5)(at)?;
    if f == 0 {
        return Err(PErr::invalid(at, "timeline has no keyframes"));
    }
    let (i, bezier_count) = varint(i)?;
    let mut curves = Vec::with_capacity(f - 1);
    let mut beziers = Vec::new();
    let (i, mut time) = f32(i)?;
    let (i, keys) = items(f, Some("frames"), |at, k| {
        let (i, end) = varint(at)?;
        let (i, values) = cond(end != 0, |i| {
            let (i, start) = varint(i)?;
            if u64::from(start) + u64::from(end) > u64::from(u32::MAX) {
                return Err(PErr::invalid(at, "deform range overflows"));
            }
            check_count(lim, at, i, "deform value", u64::from(end), 4)?;
            let mut values = Vec::with_capacity(end as usize);
            let (i, ()) = f32s_into(i, end as usize, &mut values)?;
            Ok((i, DeformValues { start, values }))
        })
        .parse(i)?;
        let key = DeformKey { time, values };
        if k + 1 == f {
            return Ok((i, key));
        }
        let (cat, next) = f32(i)?;
        time = next;
        let (i, curve) = match i8(cat)? {
            (i, 0) => (i, CurveType::Linear),
            (i, 1) => (i, CurveType::Stepped),
            (i, 2) => {
                let (i, b) = f32s::<4>(i)?;
                beziers.push(b);
                (i, CurveType::Bezier)
            }
            (_, v) => return Err(PErr::bad_enum(cat, "curve type", i64::from(v))),
        };
        curves.push(curve);
        Ok((i, key))
    })(i)?;
    Ok((i, DeformTimeline { bezier_count, keys, curves, beziers }))
}

fn event_key<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, EventKey> {
    let (i, time) = f32(i)?;
    let (i, event) = index("event", ctx.event_audio.len())(i)?;
    let (i, int_value) = varint_signed(i)?;
    let (i, float_value) = f32(i)?;
    let (i, string_value) = string(ctx.lim)(i)?;
    let audio = ctx.event_audio.get(event as usize).copied().unwrap_or(false);
    let (i, volume_balance) = cond(audio, f32s::<2>).parse(i)?;
    Ok((i, EventKey { time, event, int_value, float_value, string_value, volume_balance }))
}
