//! Parser of one animation record: every timeline section in spec order, into an
//! [`AnimationSink`] (curve timelines handed over unread).

use nom::combinator::cond;
use nom::Parser;

use super::ast::*;
use super::read::{check_type, constraint_index, inherit_of, Ctx};
use super::stream::*;
use crate::binary::shared::{deliver_curve_frames, draw_order_into, CurveType, DrawOrderChange};
use crate::binary::wire::{
    check_count, count, each, enum_u8, f32, f32s, f32s_into, i32, i8, index, indices, items, list,
    rgba, section, str_ref, string, u8, varint, varint_signed, Above, In, PErr, Res,
};
use crate::error::BinaryError;

/// A sink's answer as a parse result: its own error passes through as it is.
fn delivered(i: In<'_>, r: Result<(), BinaryError>) -> Res<'_, ()> {
    match r {
        Ok(()) => Ok((i, ())),
        Err(e) => Err(PErr::foreign(e)),
    }
}

/// What a timeline reader is handed: the context, and the path above the animation's body
/// (for the errors a sink is handed).
#[derive(Clone, Copy)]
struct Reader<'c, 'l, 'p> {
    ctx: &'c Ctx<'l>,
    anim: Above<'p>,
}

/// A section of timeline groups: per group the index of what it animates, a timeline
/// count, then its timelines.
struct Groups {
    /// The section.
    section: &'static str,
    /// What a group's key points at (what the group count counts).
    what: &'static str,
    /// A group's label in section paths.
    label: &'static str,
    /// The fewest bytes a timeline takes.
    timeline_bytes: usize,
}

const SLOT_GROUPS: Groups =
    Groups { section: "slot timelines", what: "slot", label: "slots", timeline_bytes: 2 };
const BONE_GROUPS: Groups =
    Groups { section: "bone timelines", what: "bone", label: "bones", timeline_bytes: 2 };
const PATH_GROUPS: Groups = Groups {
    section: "path timelines",
    what: "path constraint",
    label: "constraints",
    timeline_bytes: 3,
};
const PHYSICS_GROUPS: Groups = Groups {
    section: "physics timelines",
    what: "physics constraint",
    label: "constraints",
    timeline_bytes: 2,
};
const SLIDER_GROUPS: Groups =
    Groups { section: "slider timelines", what: "slider", label: "constraints", timeline_bytes: 3 };

/// Reads a [`Groups`] section: `key` reads a group's key, `group` tells the sink of each
/// group, `timeline` reads each timeline into it (handed the path above it).
#[inline(always)]
fn groups<'a, S: AnimationSink, K: Copy>(
    r: Reader<'_, '_, '_>,
    i: In<'a>,
    sink: &mut S,
    g: &'static Groups,
    key: impl Fn(In<'a>) -> Res<'a, K>,
    group: impl Fn(&mut S, K, usize),
    timeline: impl Fn(&Ctx<'_>, In<'a>, Above<'_>, &mut S) -> Res<'a, ()>,
) -> Res<'a, ()> {
    let lim = r.ctx.lim;
    section(
        g.section,
        list(lim, g.what, 2, Some(g.label), |i, j| {
            let (i, k) = key(i)?;
            let (i, m) = count(lim, "timeline", g.timeline_bytes)(i)?;
            group(sink, k, m);
            each(m, Some("timelines"), |i, t| {
                let above = |e: PErr| {
                    (r.anim)(e.in_item("timelines", t).in_item(g.label, j).in_section(g.section))
                };
                timeline(r.ctx, i, &above, sink)
            })(i)
        }),
    )
    .parse(i)
    .map(|(i, _)| (i, ()))
}

/// Reads the body of the animation named `name` (the name is already read) into `sink`.
/// `anim` adds the path above the animation's body to an error.
pub(super) fn animation<'a, S: AnimationSink>(
    ctx: &Ctx<'_>,
    i: In<'a>,
    name: &str,
    anim: Above<'_>,
    sink: &mut S,
) -> Res<'a, ()> {
    let lim = ctx.lim;
    let r = Reader { ctx, anim };
    let (i, timeline_hint) = varint(i)?;
    // The hint capped by the input (every timeline takes a few bytes; draw order and
    // events at least one each).
    sink.begin(name, timeline_hint, (timeline_hint as usize).min(i.len() / 4 + 2));
    let slot = index("slot", ctx.slots);
    let (i, ()) = groups(r, i, sink, &SLOT_GROUPS, slot, S::slot_group, slot_timeline)?;
    let bone = index("bone", ctx.bones);
    let (i, ()) = groups(r, i, sink, &BONE_GROUPS, bone, S::bone_group, bone_timeline)?;
    let (i, _) = section(
        "ik timelines",
        list(lim, "ik timeline", 8, Some("timelines"), |i, _| {
            let (i, t) = ik(ctx, i)?;
            sink.ik_timeline(t);
            Ok((i, ()))
        }),
    )
    .parse(i)?;
    let (i, _) = section(
        "transform timelines",
        list(lim, "transform timeline", 8, Some("timelines"), |i, k| {
            let (i, constraint) = constraint_index(ctx, ConstraintType::Transform)(i)?;
            let (i, f) = varint(i)?;
            let above = |e: PErr| anim(e.in_item("timelines", k).in_section("transform timelines"));
            deliver_curve_frames(lim, ctx.total, &above, i, f as usize, |f| {
                sink.transform_timeline(constraint, f)
            })
        }),
    )
    .parse(i)?;
    let path = constraint_index(ctx, ConstraintType::Path);
    let (i, ()) = groups(r, i, sink, &PATH_GROUPS, path, S::path_group, path_timeline)?;
    let physics = physics_constraint(ctx);
    let (i, ()) = groups(r, i, sink, &PHYSICS_GROUPS, physics, S::physics_group, physics_timeline)?;
    let slider = constraint_index(ctx, ConstraintType::Slider);
    let (i, ()) = groups(r, i, sink, &SLIDER_GROUPS, slider, S::slider_group, slider_timeline)?;
    let (i, attachments) =
        section("attachment timelines", |i| attachment_timelines(ctx, i)).parse(i)?;
    sink.attachment_timelines(attachments);
    let (i, ()) = draw_orders(ctx, i, sink)?;
    let (i, events) =
        section("events", list(lim, "keyframe", 8, Some("frames"), |i, _| event_key(ctx, i)))
            .parse(i)?;
    sink.events(events);
    let (i, color) = cond(ctx.nonessential, rgba).parse(i)?;
    sink.color(color);
    Ok((i, ()))
}

/// The draw-order timeline and the draw-order folders, handed to `sink` key by key (the
/// changes of each key in a buffer reused for the next).
fn draw_orders<'a, S: AnimationSink>(ctx: &Ctx<'_>, i: In<'a>, sink: &mut S) -> Res<'a, ()> {
    let lim = ctx.lim;
    let mut changes = Vec::new();
    let (i, ()) =
        section("draw order", |i| draw_order_keys(ctx, (None, ctx.slots), i, &mut changes, sink))
            .parse(i)?;
    let (i, _) = section(
        "draw order folders",
        list(lim, "folder", 2, Some("folders"), |i, _| {
            let (i, slots) = indices(lim, "slot", ctx.slots)(i)?;
            let n = slots.len();
            draw_order_keys(ctx, (Some(slots), n), i, &mut changes, sink)
        }),
    )
    .parse(i)?;
    Ok((i, ()))
}

/// The physics constraint a group is of. Gotcha 5: physics constraints are 1-based, 0 =
/// every physics constraint.
fn physics_constraint<'a, 'c, 'l>(
    ctx: &'c Ctx<'l>,
) -> impl Fn(In<'a>) -> Res<'a, Option<u32>> + use<'a, 'c, 'l> {
    move |at| {
        let (i, k) = varint(at)?;
        let constraint = k.checked_sub(1);
        if let Some(c) = constraint {
            check_type(ctx, at, c, ConstraintType::Physics)?;
        }
        Ok((i, constraint))
    }
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

/// A draw-order timeline's keys over `slots` slots (the skeleton's: `folder` `None`; or
/// the folder's), handed to `sink` one by one (`changes` is the reused buffer).
fn draw_order_keys<'a, S: AnimationSink>(
    ctx: &Ctx<'_>,
    (folder, slots): (Option<Vec<u32>>, usize),
    i: In<'a>,
    changes: &mut Vec<DrawOrderChange>,
    sink: &mut S,
) -> Res<'a, ()> {
    let lim = ctx.lim;
    let (i, n) = count(lim, "keyframe", 5)(i)?;
    sink.draw_order(folder, n);
    let (i, ()) = each(n, Some("frames"), |i, _| {
        let (i, time) = f32(i)?;
        changes.clear();
        let (i, ()) = draw_order_into(lim, slots, changes)(i)?;
        sink.draw_order_key(time, changes);
        Ok((i, ()))
    })(i)?;
    sink.draw_order_end();
    Ok((i, ()))
}

fn slot_timeline<'a, S: AnimationSink>(
    ctx: &Ctx<'_>,
    at: In<'a>,
    a: Above<'_>,
    sink: &mut S,
) -> Res<'a, ()> {
    let lim = ctx.lim;
    let (i, ty) = u8(at)?;
    if ty == 0 {
        let (i, keys) = list(lim, "keyframe", 5, Some("frames"), |i, _| {
            let (i, time) = f32(i)?;
            let (i, attachment) = str_ref(ctx.strings)(i)?;
            Ok((i, AttachmentKey { time, attachment }))
        })(i)?;
        return delivered(i, sink.slot_timeline(SlotTimelineIn::Attachment(keys)));
    }
    if ty > 5 {
        return Err(PErr::bad_enum(at, "slot timeline type", i64::from(ty)));
    }
    let (i, f) = varint(i)?;
    let (t, f) = (ctx.total, f as usize);
    use SlotTimelineIn as I;
    match ty {
        1 => deliver_curve_frames(lim, t, a, i, f, |f| sink.slot_timeline(I::Rgba(f))),
        2 => deliver_curve_frames(lim, t, a, i, f, |f| sink.slot_timeline(I::Rgb(f))),
        3 => deliver_curve_frames(lim, t, a, i, f, |f| sink.slot_timeline(I::Rgba2(f))),
        4 => deliver_curve_frames(lim, t, a, i, f, |f| sink.slot_timeline(I::Rgb2(f))),
        _ => deliver_curve_frames(lim, t, a, i, f, |f| sink.slot_timeline(I::Alpha(f))),
    }
}

fn bone_timeline<'a, S: AnimationSink>(
    ctx: &Ctx<'_>,
    at: In<'a>,
    a: Above<'_>,
    sink: &mut S,
) -> Res<'a, ()> {
    let lim = ctx.lim;
    let (i, ty) = u8(at)?;
    if ty == 10 {
        let (i, keys) = list(lim, "keyframe", 5, Some("frames"), |i, _| {
            let (i, time) = f32(i)?;
            let (i, inherit) = enum_u8("inherit", inherit_of)(i)?;
            Ok((i, InheritKey { time, inherit }))
        })(i)?;
        return delivered(i, sink.bone_timeline(BoneTimelineIn::Inherit(keys)));
    }
    if ty > 10 {
        return Err(PErr::bad_enum(at, "bone timeline type", i64::from(ty)));
    }
    let (i, f) = varint(i)?;
    let (t, f) = (ctx.total, f as usize);
    use BoneTimelineIn as I;
    match ty {
        0 => deliver_curve_frames(lim, t, a, i, f, |f| sink.bone_timeline(I::Rotate(f))),
        1 => deliver_curve_frames(lim, t, a, i, f, |f| sink.bone_timeline(I::Translate(f))),
        2 => deliver_curve_frames(lim, t, a, i, f, |f| sink.bone_timeline(I::TranslateX(f))),
        3 => deliver_curve_frames(lim, t, a, i, f, |f| sink.bone_timeline(I::TranslateY(f))),
        4 => deliver_curve_frames(lim, t, a, i, f, |f| sink.bone_timeline(I::Scale(f))),
        5 => deliver_curve_frames(lim, t, a, i, f, |f| sink.bone_timeline(I::ScaleX(f))),
        6 => deliver_curve_frames(lim, t, a, i, f, |f| sink.bone_timeline(I::ScaleY(f))),
        7 => deliver_curve_frames(lim, t, a, i, f, |f| sink.bone_timeline(I::Shear(f))),
        8 => deliver_curve_frames(lim, t, a, i, f, |f| sink.bone_timeline(I::ShearX(f))),
        _ => deliver_curve_frames(lim, t, a, i, f, |f| sink.bone_timeline(I::ShearY(f))),
    }
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

fn path_timeline<'a, S: AnimationSink>(
    ctx: &Ctx<'_>,
    at: In<'a>,
    a: Above<'_>,
    sink: &mut S,
) -> Res<'a, ()> {
    let (i, ty) = u8(at)?;
    let (i, f) = varint(i)?;
    let (lim, t, f) = (ctx.lim, ctx.total, f as usize);
    use PathTimelineIn as I;
    match ty {
        0 => deliver_curve_frames(lim, t, a, i, f, |f| sink.path_timeline(I::Position(f))),
        1 => deliver_curve_frames(lim, t, a, i, f, |f| sink.path_timeline(I::Spacing(f))),
        2 => deliver_curve_frames(lim, t, a, i, f, |f| sink.path_timeline(I::Mix(f))),
        v => Err(PErr::bad_enum(at, "path timeline type", i64::from(v))),
    }
}

fn slider_timeline<'a, S: AnimationSink>(
    ctx: &Ctx<'_>,
    at: In<'a>,
    a: Above<'_>,
    sink: &mut S,
) -> Res<'a, ()> {
    let (i, ty) = u8(at)?;
    let (i, f) = varint(i)?;
    let (lim, t, f) = (ctx.lim, ctx.total, f as usize);
    use SliderTimelineIn as I;
    match ty {
        0 => deliver_curve_frames(lim, t, a, i, f, |f| sink.slider_timeline(I::Time(f))),
        1 => deliver_curve_frames(lim, t, a, i, f, |f| sink.slider_timeline(I::Mix(f))),
        v => Err(PErr::bad_enum(at, "slider timeline type", i64::from(v))),
    }
}

fn physics_timeline<'a, S: AnimationSink>(
    ctx: &Ctx<'_>,
    at: In<'a>,
    a: Above<'_>,
    sink: &mut S,
) -> Res<'a, ()> {
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
            return delivered(i, sink.physics_timeline(PhysicsTimelineIn::Reset(times)));
        }
        v => return Err(PErr::bad_enum(at, "physics timeline type", i64::from(v))),
    };
    let (i, f) = varint(i)?;
    deliver_curve_frames(ctx.lim, ctx.total, a, i, f as usize, |f| {
        sink.physics_timeline(PhysicsTimelineIn::Property(prop, f))
    })
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
