//! Writer of 4.3 animations: every timeline section in wire order (the mirror of
//! `read_anim`).

use super::ast::*;
use super::write::{index_list, inherit_code, opt_f32};
use crate::binary::prim::Writer;
use crate::binary::shared::{write_curve_timeline, write_draw_order, CurveType};

pub(super) fn write_animation(w: &mut Writer, s: &Skeleton, a: &Animation, ne: bool) {
    w.str(Some(&a.name));
    w.varint(a.timeline_hint);

    write_slot_timelines(w, &a.slots);
    write_bone_timelines(w, &a.bones);
    write_ik_timelines(w, &a.ik);
    write_transform_timelines(w, &a.transform);
    write_path_timelines(w, &a.path);
    write_physics_timelines(w, &a.physics);
    write_slider_timelines(w, &a.slider);
    write_attachment_timelines(w, &a.attachments);
    write_draw_orders(w, a);
    write_event_keys(w, &a.events, &s.events);
    if ne {
        w.rgba(a.color.unwrap_or_default());
    }
}

/// The slot timelines.
fn write_slot_timelines(w: &mut Writer, slots: &[SlotTimelines]) {
    w.len(slots.len());
    for st in slots {
        w.varint(st.slot);
        w.len(st.timelines.len());
        for t in &st.timelines {
            match t {
                SlotTimeline::Attachment(keys) => {
                    w.u8(0);
                    w.len(keys.len());
                    for k in keys {
                        w.f32(k.time);
                        w.str_ref(k.attachment);
                    }
                }
                SlotTimeline::Rgba(c) => curve(w, 1, c),
                SlotTimeline::Rgb(c) => curve(w, 2, c),
                SlotTimeline::Rgba2(c) => curve(w, 3, c),
                SlotTimeline::Rgb2(c) => curve(w, 4, c),
                SlotTimeline::Alpha(c) => curve(w, 5, c),
            }
        }
    }
}

/// The bone timelines.
fn write_bone_timelines(w: &mut Writer, bones: &[BoneTimelines]) {
    w.len(bones.len());
    for bt in bones {
        w.varint(bt.bone);
        w.len(bt.timelines.len());
        for t in &bt.timelines {
            match t {
                BoneTimeline::Rotate(c) => curve(w, 0, c),
                BoneTimeline::Translate(c) => curve(w, 1, c),
                BoneTimeline::TranslateX(c) => curve(w, 2, c),
                BoneTimeline::TranslateY(c) => curve(w, 3, c),
                BoneTimeline::Scale(c) => curve(w, 4, c),
                BoneTimeline::ScaleX(c) => curve(w, 5, c),
                BoneTimeline::ScaleY(c) => curve(w, 6, c),
                BoneTimeline::Shear(c) => curve(w, 7, c),
                BoneTimeline::ShearX(c) => curve(w, 8, c),
                BoneTimeline::ShearY(c) => curve(w, 9, c),
                BoneTimeline::Inherit(keys) => {
                    w.u8(10);
                    w.len(keys.len());
                    for k in keys {
                        w.f32(k.time);
                        w.u8(inherit_code(k.inherit));
                    }
                }
            }
        }
    }
}

/// The IK constraint timelines (keys gated by their flag byte).
fn write_ik_timelines(w: &mut Writer, ik: &[IkTimeline]) {
    w.len(ik.len());
    for t in ik {
        w.varint(t.constraint);
        w.len(t.keys.len());
        w.varint(t.bezier_count);
        for (i, k) in t.keys.iter().enumerate() {
            w.u8(k.flags);
            w.f32(k.time);
            opt_f32(w, k.flags & 1 != 0 && k.flags & 2 != 0, k.mix);
            opt_f32(w, k.flags & 4 != 0, k.softness);
            if i > 0 && k.flags & 64 == 0 && k.flags & 128 != 0 {
                for c in k.bezier.unwrap_or_default() {
                    for x in c {
                        w.f32(x);
                    }
                }
            }
        }
    }
}

/// The transform constraint timelines.
fn write_transform_timelines(w: &mut Writer, transform: &[TransformTimeline]) {
    w.len(transform.len());
    for t in transform {
        w.varint(t.constraint);
        w.len(t.timeline.frames.len());
        write_curve_timeline(w, &t.timeline);
    }
}

/// The path constraint timelines.
fn write_path_timelines(w: &mut Writer, path: &[PathTimelines]) {
    w.len(path.len());
    for pt in path {
        w.varint(pt.constraint);
        w.len(pt.timelines.len());
        for t in &pt.timelines {
            match t {
                PathTimeline::Position(c) => curve(w, 0, c),
                PathTimeline::Spacing(c) => curve(w, 1, c),
                PathTimeline::Mix(c) => curve(w, 2, c),
            }
        }
    }
}

/// The physics constraint timelines (constraint index + 1; 0: all).
fn write_physics_timelines(w: &mut Writer, physics: &[PhysicsTimelines]) {
    w.len(physics.len());
    for pt in physics {
        w.varint(pt.constraint.map_or(0, |c| c + 1));
        w.len(pt.timelines.len());
        for t in &pt.timelines {
            match t {
                PhysicsTimeline::Reset(times) => {
                    w.u8(8);
                    w.len(times.len());
                    for &x in times {
                        w.f32(x);
                    }
                }
                PhysicsTimeline::Property(p, c) => {
                    let code = match p {
                        PhysicsProperty::Inertia => 0,
                        PhysicsProperty::Strength => 1,
                        PhysicsProperty::Damping => 2,
                        PhysicsProperty::Mass => 4,
                        PhysicsProperty::Wind => 5,
                        PhysicsProperty::Gravity => 6,
                        PhysicsProperty::Mix => 7,
                    };
                    curve(w, code, c);
                }
            }
        }
    }
}

/// The slider constraint timelines.
fn write_slider_timelines(w: &mut Writer, slider: &[SliderTimelines]) {
    w.len(slider.len());
    for st in slider {
        w.varint(st.constraint);
        w.len(st.timelines.len());
        for t in &st.timelines {
            match t {
                SliderTimeline::Time(c) => curve(w, 0, c),
                SliderTimeline::Mix(c) => curve(w, 1, c),
            }
        }
    }
}

/// The attachment timelines, skin > slot > attachment: deform or sequence.
fn write_attachment_timelines(w: &mut Writer, attachments: &[AttachmentTimelinesSkin]) {
    w.len(attachments.len());
    for sk in attachments {
        w.varint(sk.skin);
        w.len(sk.slots.len());
        for sl in &sk.slots {
            w.varint(sl.slot);
            w.len(sl.attachments.len());
            for at in &sl.attachments {
                w.str_ref(at.attachment);
                match &at.kind {
                    AttachmentTimelineKind::Deform(d) => {
                        w.u8(0);
                        write_deform(w, d);
                    }
                    AttachmentTimelineKind::Sequence(keys) => {
                        w.u8(1);
                        w.len(keys.len());
                        for k in keys {
                            w.f32(k.time);
                            let mode = match k.mode {
                                SequenceMode::Hold => 0,
                                SequenceMode::Once => 1,
                                SequenceMode::Loop => 2,
                                SequenceMode::PingPong => 3,
                                SequenceMode::OnceReverse => 4,
                                SequenceMode::LoopReverse => 5,
                                SequenceMode::PingPongReverse => 6,
                            };
                            w.i32(k.index.wrapping_shl(4) | mode);
                            w.f32(k.delay);
                        }
                    }
                }
            }
        }
    }
}

/// The draw order keys and the draw order folders.
fn write_draw_orders(w: &mut Writer, a: &Animation) {
    w.len(a.draw_order.len());
    for k in &a.draw_order {
        w.f32(k.time);
        write_draw_order(w, &k.changes);
    }
    w.len(a.draw_order_folders.len());
    for f in &a.draw_order_folders {
        index_list(w, &f.slots);
        w.len(f.keys.len());
        for k in &f.keys {
            w.f32(k.time);
            write_draw_order(w, &k.changes);
        }
    }
}

/// The event keys (volume and balance when the event has audio).
fn write_event_keys(w: &mut Writer, events: &[EventKey], defs: &[Event]) {
    w.len(events.len());
    for k in events {
        w.f32(k.time);
        w.varint(k.event);
        w.varint_signed(k.int_value);
        w.f32(k.float_value);
        w.str(k.string_value.as_deref());
        if defs.get(k.event as usize).is_some_and(Event::has_audio) {
            let [v, b] = k.volume_balance.unwrap_or([1.0, 0.0]);
            w.f32(v);
            w.f32(b);
        }
    }
}

fn curve<V: crate::binary::shared::WireChannels>(
    w: &mut Writer,
    ty: u8,
    c: &crate::binary::shared::CurveTimeline<V>,
) {
    w.u8(ty);
    w.len(c.frames.len());
    write_curve_timeline(w, c);
}

fn write_deform(w: &mut Writer, d: &DeformTimeline) {
    w.len(d.keys.len());
    w.varint(d.bezier_count);
    let mut beziers = d.beziers.iter();
    for (i, k) in d.keys.iter().enumerate() {
        if i == 0 {
            w.f32(k.time);
        }
        match &k.values {
            Some(v) if !v.values.is_empty() => {
                w.len(v.values.len());
                w.varint(v.start);
                for &x in &v.values {
                    w.f32(x);
                }
            }
            _ => w.varint(0),
        }
        if let Some(next) = d.keys.get(i + 1) {
            w.f32(next.time);
            let c = d.curves.get(i).copied().unwrap_or_default();
            w.i8(c.to_wire());
            if c == CurveType::Bezier {
                for x in beziers.next().copied().unwrap_or_default() {
                    w.f32(x);
                }
            }
        }
    }
}
