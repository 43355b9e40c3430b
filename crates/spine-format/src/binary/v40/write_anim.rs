//! The 4.0–4.2 animation writer: the mirror of [`super::read_anim`].

use crate::binary::shared::{
    write_curve_timeline, write_draw_order, CurveTimeline, CurveType, WireChannels,
};

use super::animation::*;
use super::write::Out;

fn curve<V: WireChannels>(o: &mut Out, ty: u8, t: &CurveTimeline<V>) {
    o.w.u8(ty);
    o.w.len(t.frames.len());
    write_curve_timeline(&mut o.w, t);
}

fn bezier(o: &mut Out, b: [f32; 4]) {
    for v in b {
        o.w.f32(v);
    }
}

/// Writes an animation, name first.
pub(super) fn write_animation(o: &mut Out, a: &Animation) {
    o.w.str(Some(&a.name));
    o.w.varint(a.timeline_count);

    write_slot_timelines(o, a);
    write_bone_timelines(o, a);
    o.w.len(a.ik.len());
    for t in &a.ik {
        write_ik_timeline(o, t);
    }

    o.w.len(a.transform.len());
    for t in &a.transform {
        o.w.varint(t.constraint);
        o.w.len(t.timeline.frames.len());
        write_curve_timeline(&mut o.w, &t.timeline);
    }

    write_path_timelines(o, a);
    write_physics_timelines(o, a);
    write_attachment_timelines(o, a);
    o.w.len(a.draw_order.len());
    for k in &a.draw_order {
        o.w.f32(k.time);
        write_draw_order(&mut o.w, &k.changes);
    }

    write_event_keys(o, a);
}

/// The slot timelines, grouped by slot.
fn write_slot_timelines(o: &mut Out, a: &Animation) {
    o.w.len(a.slots.len());
    for (slot, timelines) in a.slot_groups() {
        o.w.varint(slot);
        o.w.len(timelines.len());
        for t in timelines {
            match t {
                SlotTimeline::Attachment(keys) => {
                    o.w.u8(0);
                    o.w.len(keys.len());
                    for k in keys {
                        o.w.f32(k.time);
                        o.w.str_ref(k.name);
                    }
                }
                SlotTimeline::Rgba(t) => curve(o, 1, t),
                SlotTimeline::Rgb(t) => curve(o, 2, t),
                SlotTimeline::Rgba2(t) => curve(o, 3, t),
                SlotTimeline::Rgb2(t) => curve(o, 4, t),
                SlotTimeline::Alpha(t) => curve(o, 5, t),
            }
        }
    }
}

/// The bone timelines, grouped by bone.
fn write_bone_timelines(o: &mut Out, a: &Animation) {
    o.w.len(a.bones.len());
    for (bone, timelines) in a.bone_groups() {
        o.w.varint(bone);
        o.w.len(timelines.len());
        for t in timelines {
            match t {
                BoneTimeline::Rotate(t) => curve(o, 0, t),
                BoneTimeline::Translate(t) => curve(o, 1, t),
                BoneTimeline::TranslateX(t) => curve(o, 2, t),
                BoneTimeline::TranslateY(t) => curve(o, 3, t),
                BoneTimeline::Scale(t) => curve(o, 4, t),
                BoneTimeline::ScaleX(t) => curve(o, 5, t),
                BoneTimeline::ScaleY(t) => curve(o, 6, t),
                BoneTimeline::Shear(t) => curve(o, 7, t),
                BoneTimeline::ShearX(t) => curve(o, 8, t),
                BoneTimeline::ShearY(t) => curve(o, 9, t),
                BoneTimeline::Inherit(keys) => {
                    o.w.u8(10);
                    o.w.len(keys.len());
                    for k in keys {
                        o.w.f32(k.time);
                        o.w.u8(k.inherit.to_wire());
                    }
                }
            }
        }
    }
}

/// The path constraint timelines.
fn write_path_timelines(o: &mut Out, a: &Animation) {
    o.w.len(a.path.len());
    for p in &a.path {
        o.w.varint(p.constraint);
        o.w.len(p.timelines.len());
        for t in &p.timelines {
            match t {
                PathTimeline::Position(t) => curve(o, 0, t),
                PathTimeline::Spacing(t) => curve(o, 1, t),
                PathTimeline::Mix(t) => curve(o, 2, t),
            }
        }
    }
}

/// The physics constraint timelines (4.2 only).
fn write_physics_timelines(o: &mut Out, a: &Animation) {
    if o.v42() {
        o.w.len(a.physics.len());
        for p in &a.physics {
            o.w.varint(p.constraint);
            o.w.len(p.timelines.len());
            for t in &p.timelines {
                match t {
                    PhysicsTimeline::Value(prop, t) => curve(o, prop.to_wire(), t),
                    PhysicsTimeline::Reset(times) => {
                        o.w.u8(8);
                        o.w.len(times.len());
                        for &t in times {
                            o.w.f32(t);
                        }
                    }
                }
            }
        }
    }
}

/// The attachment timelines, skin > slot > attachment.
fn write_attachment_timelines(o: &mut Out, a: &Animation) {
    o.w.len(a.attachments.len());
    for s in &a.attachments {
        o.w.varint(s.skin);
        o.w.len(s.slots.len());
        for slot in &s.slots {
            o.w.varint(slot.slot);
            o.w.len(slot.attachments.len());
            for e in &slot.attachments {
                o.w.str_ref(e.attachment);
                write_attachment_timeline(o, &e.timeline);
            }
        }
    }
}

/// The event keys (volume and balance when the event has audio).
fn write_event_keys(o: &mut Out, a: &Animation) {
    o.w.len(a.events.len());
    for k in &a.events {
        o.w.f32(k.time);
        o.w.varint(k.event);
        o.w.varint_signed(k.int);
        o.w.f32(k.float);
        o.w.str(k.string.as_deref());
        if o.event_audio.get(k.event as usize).copied().unwrap_or(false) {
            let [v, b] = k.audio.unwrap_or([1.0, 0.0]);
            o.w.f32(v);
            o.w.f32(b);
        }
    }
}

fn write_ik_timeline(o: &mut Out, t: &IkTimeline) {
    o.w.varint(t.constraint);
    o.w.len(t.keys.len());
    o.w.varint(t.bezier_count);
    let v42 = o.v42();
    for (i, k) in t.keys.iter().enumerate() {
        if v42 {
            let f = k.flags.unwrap_or(0);
            o.w.u8(f);
            o.w.f32(k.time);
            o.opt_f32(f & 1 != 0 && f & 2 != 0, k.mix, 1.0);
            o.opt_f32(f & 4 != 0, k.softness, 0.0);
            if i > 0 && f & 64 == 0 && f & 128 != 0 {
                let [m, s] = k.bezier.unwrap_or_default();
                bezier(o, m);
                bezier(o, s);
            }
        } else {
            o.w.f32(k.time);
            o.w.f32(k.mix.unwrap_or(1.0));
            o.w.f32(k.softness.unwrap_or(0.0));
            if i > 0 {
                o.w.i8(k.curve.to_wire());
                if k.curve == CurveType::Bezier {
                    let [m, s] = k.bezier.unwrap_or_default();
                    bezier(o, m);
                    bezier(o, s);
                }
            }
            o.w.i8(k.bend_direction);
            o.w.bool(k.compress);
            o.w.bool(k.stretch);
        }
    }
}

fn write_attachment_timeline(o: &mut Out, t: &AttachmentTimeline) {
    match t {
        AttachmentTimeline::Deform(d) => {
            if o.v41() {
                o.w.u8(0);
            }
            o.w.len(d.keys.len());
            o.w.varint(d.bezier_count);
            for (i, k) in d.keys.iter().enumerate() {
                o.w.f32(k.time);
                if i > 0 {
                    o.w.i8(k.curve.to_wire());
                    if k.curve == CurveType::Bezier {
                        bezier(o, k.bezier.unwrap_or_default());
                    }
                }
                if k.values.is_empty() {
                    o.w.varint(0);
                } else {
                    o.w.len(k.values.len());
                    o.w.varint(k.start);
                    for &v in &k.values {
                        o.w.f32(v);
                    }
                }
            }
        }
        AttachmentTimeline::Sequence(keys) => {
            o.w.u8(1);
            o.w.len(keys.len());
            for k in keys {
                o.w.f32(k.time);
                o.w.i32(k.mode_and_index);
                o.w.f32(k.delay);
            }
        }
    }
}
