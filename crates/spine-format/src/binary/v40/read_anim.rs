//! The 4.0–4.2 animation reader: every timeline section in wire order, into an
//! [`AnimationSink`] (nom, see `binary::wire`).

use nom::combinator::cond;
use nom::Parser;

use crate::binary::shared::{deliver_curve_frames, draw_order, CurveType};
use crate::binary::wire::{
    bool, check_count, count, each, f32, f32s, f32s_into, i32, i8, index, item, items, list,
    section, str_ref, string, u8, varint, varint_signed, Above, In, PErr, Res,
};
use crate::error::BinaryError;

use super::animation::*;
use super::ast::Inherit;
use super::read::Ctx;
use super::stream::*;

/// A sink's answer as a parse result: its own error passes through as it is.
fn delivered(i: In<'_>, r: Result<(), BinaryError>) -> Res<'_, ()> {
    match r {
        Ok(()) => Ok((i, ())),
        Err(e) => Err(PErr::foreign(e)),
    }
}

/// A section of timeline groups (slot, bone, path and physics timelines): per group the
/// index of what it animates, a timeline count, then its timelines.
struct Groups {
    /// The section.
    section: &'static str,
    /// What a group's index points at (the count of groups is of the same).
    what: &'static str,
    /// A group's label in section paths.
    label: &'static str,
    /// What is counted in a group, and the fewest bytes one takes.
    timeline: (&'static str, usize),
}

const SLOT_GROUPS: Groups = Groups {
    section: "slot timelines",
    what: "slot",
    label: "slots",
    timeline: ("slot timeline", 6),
};
const BONE_GROUPS: Groups = Groups {
    section: "bone timelines",
    what: "bone",
    label: "bones",
    timeline: ("bone timeline", 6),
};
const PATH_GROUPS: Groups = Groups {
    section: "path timelines",
    what: "path constraint",
    label: "path constraints",
    timeline: ("path timeline", 11),
};
const PHYSICS_GROUPS: Groups = Groups {
    section: "physics timelines",
    what: "physics constraint",
    label: "physics constraints",
    timeline: ("physics timeline", 6),
};

/// Reads a [`Groups`] section whose indices are `< len`: `group` tells the sink of each group,
/// `timeline` reads each timeline into it (handed the path above it, for the sink's errors).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn groups<'a, S: AnimationSink>(
    c: &Ctx,
    i: In<'a>,
    anim: Above<'_>,
    sink: &mut S,
    g: &'static Groups,
    len: usize,
    group: impl Fn(&mut S, u32, usize),
    timeline: impl Fn(&Ctx, In<'a>, Above<'_>, &mut S) -> Res<'a, ()>,
) -> Res<'a, ()> {
    let lim = &c.lim;
    section(
        g.section,
        list(lim, g.what, 2, Some(g.label), |i, j| {
            let (i, index) = index(g.what, len)(i)?;
            let (i, m) = count(lim, g.timeline.0, g.timeline.1)(i)?;
            group(sink, index, m);
            each(m, Some("timelines"), |i, k| {
                let above = |e: PErr| {
                    anim(e.in_item("timelines", k).in_item(g.label, j).in_section(g.section))
                };
                timeline(c, i, &above, sink)
            })(i)
        }),
    )
    .parse(i)
    .map(|(i, _)| (i, ()))
}

/// Reads the body of the animation named `name` (the name is already read) into `sink`.
/// `anim` adds the path above the animation's body to an error (for the errors a sink is
/// handed).
pub(super) fn read_animation<'a, S: AnimationSink>(
    c: &Ctx,
    i: In<'a>,
    name: &str,
    anim: Above<'_>,
    sink: &mut S,
) -> Res<'a, ()> {
    let lim = &c.lim;
    let (i, timeline_count) = varint(i)?;
    // Every timeline takes at least a few bytes (draw order and events: one each).
    let capacity = (timeline_count as usize).min(i.len() / 4 + 2);
    sink.begin(name, timeline_count, capacity);

    let (i, ()) = groups(c, i, anim, sink, &SLOT_GROUPS, c.slots, S::slot_group, slot_timeline)?;
    let (i, ()) = groups(c, i, anim, sink, &BONE_GROUPS, c.bones, S::bone_group, bone_timeline)?;

    let (i, _) = section(
        "ik timelines",
        list(lim, "ik timeline", 8, Some("ik timelines"), |i, _| {
            let (i, t) = ik_timeline(c, i)?;
            sink.ik_timeline(t);
            Ok((i, ()))
        }),
    )
    .parse(i)?;

    let (i, _) = section(
        "transform timelines",
        list(lim, "transform timeline", 31, Some("transform timelines"), |i, k| {
            let (i, constraint) = index("transform constraint", c.transform)(i)?;
            let (i, frames) = count(lim, "keyframe", 28)(i)?;
            let above = |e: PErr| {
                anim(e.in_item("transform timelines", k).in_section("transform timelines"))
            };
            deliver_curve_frames(lim, c.total, &above, i, frames, |f| {
                sink.transform_timeline(constraint, f)
            })
        }),
    )
    .parse(i)?;

    let (i, ()) = groups(c, i, anim, sink, &PATH_GROUPS, c.path, S::path_group, path_timeline)?;

    // Physics: 0 = every constraint, n = constraint n - 1.
    let (i, _) = cond(c.v42(), |i| {
        let phys = (&PHYSICS_GROUPS, c.physics + 1);
        groups(c, i, anim, sink, phys.0, phys.1, S::physics_group, physics_timeline)
    })
    .parse(i)?;

    let (i, _) = section("attachment timelines", |i| attachment_timelines(c, i, sink)).parse(i)?;

    let (i, keys) = section(
        "draw order",
        list(lim, "draw order key", 5, Some("keys"), |i, _| {
            let (i, time) = f32(i)?;
            let (i, changes) = draw_order(lim, c.slots)(i)?;
            Ok((i, DrawOrderKey { time, changes }))
        }),
    )
    .parse(i)?;
    sink.draw_order(keys);

    let (i, keys) =
        section("events", list(lim, "event key", 11, Some("keys"), |i, _| event_key(c, i)))
            .parse(i)?;
    sink.events(keys);
    Ok((i, ()))
}

/// The attachment timelines, skin > slot > attachment, handed to `sink` as they are read.
fn attachment_timelines<'a, S: AnimationSink>(
    c: &Ctx,
    i: In<'a>,
    sink: &mut S,
) -> Res<'a, Vec<()>> {
    let lim = &c.lim;
    list(lim, "skin", 2, Some("skins"), |i, _| {
        let (i, skin) = index("skin", c.skins)(i)?;
        let (i, m) = count(lim, "slot", 2)(i)?;
        sink.attachment_skin(skin, m);
        let (i, ()) = each(m, Some("slots"), |i, _| {
            let (i, slot) = index("slot", c.slots)(i)?;
            let (i, k) = count(lim, "attachment", 8)(i)?;
            sink.attachment_slot(slot, k);
            let (i, ()) = each(k, Some("attachments"), |i, _| {
                let (i, attachment) = str_ref(c.strings)(i)?;
                let (i, timeline) = attachment_timeline(c, i)?;
                sink.attachment_timeline(attachment, timeline);
                Ok((i, ()))
            })(i)?;
            Ok((i, ()))
        })(i)?;
        Ok((i, ()))
    })(i)
}

/// An event key (volume and balance when the event has audio).
fn event_key<'a>(c: &Ctx, i: In<'a>) -> Res<'a, EventKey> {
    let lim = &c.lim;
    let (i, time) = f32(i)?;
    let (i, event) = index("event", c.event_audio.len())(i)?;
    let (i, int) = varint_signed(i)?;
    let (i, float) = f32(i)?;
    let (i, string) = string(lim)(i)?;
    let has_audio = c.event_audio.get(event as usize).copied().unwrap_or(false);
    let (i, audio) = cond(has_audio, f32s::<2>).parse(i)?;
    Ok((i, EventKey { time, event, int, float, string, audio }))
}

fn slot_timeline<'a, S: AnimationSink>(
    c: &Ctx,
    at: In<'a>,
    a: Above<'_>,
    sink: &mut S,
) -> Res<'a, ()> {
    let lim = &c.lim;
    let (i, ty) = u8(at)?;
    let (i, frames) = count(lim, "keyframe", 5)(i)?;
    let t = c.total;
    match ty {
        0 => {
            let mut keys = c.attachment_keys.take();
            keys.clear();
            keys.reserve(frames);
            let read = each(frames, None, |i, _| {
                let (i, time) = f32(i)?;
                let (i, name) = str_ref(c.strings)(i)?;
                keys.push(AttachmentKey { time, name });
                Ok((i, ()))
            })(i);
            let r = match read {
                Ok((i, ())) => delivered(i, sink.slot_timeline(SlotTimelineIn::Attachment(&keys))),
                Err(e) => Err(e),
            };
            c.attachment_keys.set(keys);
            r
        }
        1 => deliver_curve_frames(lim, t, a, i, frames, |f| {
            sink.slot_timeline(SlotTimelineIn::Rgba(f))
        }),
        2 => deliver_curve_frames(lim, t, a, i, frames, |f| {
            sink.slot_timeline(SlotTimelineIn::Rgb(f))
        }),
        3 => deliver_curve_frames(lim, t, a, i, frames, |f| {
            sink.slot_timeline(SlotTimelineIn::Rgba2(f))
        }),
        4 => deliver_curve_frames(lim, t, a, i, frames, |f| {
            sink.slot_timeline(SlotTimelineIn::Rgb2(f))
        }),
        5 => deliver_curve_frames(lim, t, a, i, frames, |f| {
            sink.slot_timeline(SlotTimelineIn::Alpha(f))
        }),
        t => Err(PErr::bad_enum(at, "slot timeline type", t.into())),
    }
}

fn bone_timeline<'a, S: AnimationSink>(
    c: &Ctx,
    at: In<'a>,
    a: Above<'_>,
    sink: &mut S,
) -> Res<'a, ()> {
    use BoneTimelineIn as I;
    let lim = &c.lim;
    let (i, ty) = u8(at)?;
    let (i, frames) = count(lim, "keyframe", 5)(i)?;
    if ty == 10 && c.v42() {
        let (i, keys) = items(frames, None, |i, _| {
            let (iat, time) = f32(i)?;
            let (i, v) = u8(iat)?;
            let Some(inherit) = Inherit::from_wire(v.into()) else {
                return Err(PErr::bad_enum(iat, "inherit", v.into()));
            };
            Ok((i, InheritKey { time, inherit }))
        })(i)?;
        return delivered(i, sink.bone_timeline(I::Inherit(keys)));
    }
    let t = c.total;
    match ty {
        0 => deliver_curve_frames(lim, t, a, i, frames, |f| sink.bone_timeline(I::Rotate(f))),
        1 => deliver_curve_frames(lim, t, a, i, frames, |f| sink.bone_timeline(I::Translate(f))),
        2 => deliver_curve_frames(lim, t, a, i, frames, |f| sink.bone_timeline(I::TranslateX(f))),
        3 => deliver_curve_frames(lim, t, a, i, frames, |f| sink.bone_timeline(I::TranslateY(f))),
        4 => deliver_curve_frames(lim, t, a, i, frames, |f| sink.bone_timeline(I::Scale(f))),
        5 => deliver_curve_frames(lim, t, a, i, frames, |f| sink.bone_timeline(I::ScaleX(f))),
        6 => deliver_curve_frames(lim, t, a, i, frames, |f| sink.bone_timeline(I::ScaleY(f))),
        7 => deliver_curve_frames(lim, t, a, i, frames, |f| sink.bone_timeline(I::Shear(f))),
        8 => deliver_curve_frames(lim, t, a, i, frames, |f| sink.bone_timeline(I::ShearX(f))),
        9 => deliver_curve_frames(lim, t, a, i, frames, |f| sink.bone_timeline(I::ShearY(f))),
        t => Err(PErr::bad_enum(at, "bone timeline type", t.into())),
    }
}

fn path_timeline<'a, S: AnimationSink>(
    c: &Ctx,
    at: In<'a>,
    a: Above<'_>,
    sink: &mut S,
) -> Res<'a, ()> {
    let lim = &c.lim;
    let (i, ty) = u8(at)?;
    let (i, frames) = count(lim, "keyframe", 8)(i)?;
    let t = c.total;
    match ty {
        0 => deliver_curve_frames(lim, t, a, i, frames, |f| {
            sink.path_timeline(PathTimelineIn::Position(f))
        }),
        1 => deliver_curve_frames(lim, t, a, i, frames, |f| {
            sink.path_timeline(PathTimelineIn::Spacing(f))
        }),
        2 => deliver_curve_frames(lim, t, a, i, frames, |f| {
            sink.path_timeline(PathTimelineIn::Mix(f))
        }),
        t => Err(PErr::bad_enum(at, "path timeline type", t.into())),
    }
}

fn physics_timeline<'a, S: AnimationSink>(
    c: &Ctx,
    at: In<'a>,
    a: Above<'_>,
    sink: &mut S,
) -> Res<'a, ()> {
    let lim = &c.lim;
    let (i, ty) = u8(at)?;
    let (i, frames) = count(lim, "keyframe", 4)(i)?;
    if ty == 8 {
        let mut times = Vec::with_capacity(frames);
        let (i, ()) = f32s_into(i, frames, &mut times)?;
        return delivered(i, sink.physics_timeline(PhysicsTimelineIn::Reset(times)));
    }
    let Some(p) = PhysicsProperty::from_wire(ty) else {
        return Err(PErr::bad_enum(at, "physics timeline type", ty.into()));
    };
    deliver_curve_frames(lim, c.total, a, i, frames, |f| {
        sink.physics_timeline(PhysicsTimelineIn::Value(p, f))
    })
}

fn curve_byte(at: In<'_>) -> Res<'_, CurveType> {
    match i8(at)? {
        (i, 0) => Ok((i, CurveType::Linear)),
        (i, 1) => Ok((i, CurveType::Stepped)),
        (i, 2) => Ok((i, CurveType::Bezier)),
        (_, v) => Err(PErr::bad_enum(at, "curve type", v.into())),
    }
}

fn ik_timeline<'a>(c: &Ctx, i: In<'a>) -> Res<'a, IkTimeline> {
    let (at, constraint) = index("ik constraint", c.ik)(i)?;
    let (i, frames) = count(&c.lim, "keyframe", 5)(at)?;
    let (i, bezier_count) = varint(i)?;
    if frames == 0 {
        return Err(PErr::invalid(at, "timeline has no keyframes"));
    }
    let bezier2 = |i| (f32s::<4>, f32s::<4>).parse(i).map(|(i, (a, b))| (i, [a, b]));
    let (i, keys) = if c.v42() {
        items(frames, Some("frames"), |i, k| {
            let (i, flags) = u8(i)?;
            let (i, time) = f32(i)?;
            let (i, mix) = cond(flags & 1 != 0 && flags & 2 != 0, f32).parse(i)?;
            let (i, softness) = cond(flags & 4 != 0, f32).parse(i)?;
            let (i, (curve, bezier)) = if k == 0 {
                (i, (CurveType::Linear, None))
            } else if flags & 64 != 0 {
                (i, (CurveType::Stepped, None))
            } else if flags & 128 != 0 {
                let (i, b) = bezier2(i)?;
                (i, (CurveType::Bezier, Some(b)))
            } else {
                (i, (CurveType::Linear, None))
            };
            let key = IkKey {
                flags: Some(flags),
                time,
                mix,
                softness,
                bend_direction: if flags & 8 != 0 { 1 } else { -1 },
                compress: flags & 16 != 0,
                stretch: flags & 32 != 0,
                curve,
                bezier,
            };
            Ok((i, key))
        })(i)?
    } else {
        items(frames, Some("frames"), |i, k| {
            let (i, [time, mix, softness]) = f32s(i)?;
            let (i, (curve, bezier)) = if k == 0 {
                (i, (CurveType::Linear, None))
            } else {
                match curve_byte(i)? {
                    (i, CurveType::Bezier) => {
                        let (i, b) = bezier2(i)?;
                        (i, (CurveType::Bezier, Some(b)))
                    }
                    (i, other) => (i, (other, None)),
                }
            };
            let (i, bend_direction) = i8(i)?;
            let (i, (compress, stretch)) = (bool, bool).parse(i)?;
            let key = IkKey {
                flags: None,
                time,
                mix: Some(mix),
                softness: Some(softness),
                bend_direction,
                compress,
                stretch,
                curve,
                bezier,
            };
            Ok((i, key))
        })(i)?
    };
    Ok((i, IkTimeline { constraint, bezier_count, keys }))
}

fn attachment_timeline<'a>(c: &Ctx, at: In<'a>) -> Res<'a, AttachmentTimeline> {
    let lim = &c.lim;
    let (frames_at, ty) = if c.v41() { u8(at)? } else { (at, 0) };
    let (i, frames) = count(lim, "keyframe", 5)(frames_at)?;
    match ty {
        0 => {
            let (i, bezier_count) = varint(i)?;
            if frames == 0 {
                return Err(PErr::invalid(frames_at, "timeline has no keyframes"));
            }
            let (i, mut time) = f32(i)?;
            let mut curve = CurveType::Linear;
            let mut bezier = None;
            let (i, keys) = items(frames, Some("frames"), |vat, k| {
                let (i, end) = varint(vat)?;
                let (i, (start, values)) = if end == 0 {
                    (i, (0, Vec::new()))
                } else {
                    let (i, start) = varint(i)?;
                    check_count(lim, vat, i, "deform value", end.into(), 4)?;
                    let mut v = Vec::with_capacity(end as usize);
                    let (i, ()) = f32s_into(i, end as usize, &mut v)?;
                    (i, (start, v))
                };
                let key = DeformKey { time, curve, bezier, start, values };
                if k + 1 == frames {
                    return Ok((i, key));
                }
                let (i, next) = f32(i)?;
                let (i, next_curve) = curve_byte(i)?;
                let (i, next_bezier) = cond(next_curve == CurveType::Bezier, f32s::<4>).parse(i)?;
                (time, curve, bezier) = (next, next_curve, next_bezier);
                Ok((i, key))
            })(i)?;
            Ok((i, AttachmentTimeline::Deform(DeformTimeline { bezier_count, keys })))
        }
        1 => {
            let (i, keys) = items(frames, None, |i, k| {
                let (mat, time) = f32(i)?;
                let (i, mode_and_index) = i32(mat)?;
                if SequenceMode::from_wire(mode_and_index & 0xf).is_none() {
                    let mode = (mode_and_index & 0xf).into();
                    return item("frames", k, mat, |mat| {
                        Err(PErr::bad_enum(mat, "sequence mode", mode))
                    });
                }
                let (i, delay) = f32(i)?;
                Ok((i, SequenceKey { time, mode_and_index, delay }))
            })(i)?;
            Ok((i, AttachmentTimeline::Sequence(keys)))
        }
        t => Err(PErr::bad_enum(at, "attachment timeline type", t.into())),
    }
}
