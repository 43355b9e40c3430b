//! 4.3 animations in the 4.2 layout: one function per timeline family. Draw-order folders
//! and slider timelines are 4.3 only and refused.

use spine_format::binary::shared::CurveType;
use spine_format::binary::v40::animation as wa;
use spine_format::binary::v43 as w;

use super::super::UpgradeError;
use super::inherit42;

/// A 4.3 animation in the 4.2 layout (`local` maps each unified constraint index to its
/// index in its type's list).
pub(super) fn animation_v42(
    a: &w::Animation,
    local: &[u32],
) -> Result<wa::Animation, UpgradeError> {
    if !a.draw_order_folders.is_empty() {
        return Err(UpgradeError(format!(
            "animation {:?}: draw-order folders are 4.3 only",
            a.name
        )));
    }
    if !a.slider.is_empty() {
        return Err(UpgradeError(format!("animation {:?}: slider timelines are 4.3 only", a.name)));
    }
    let at = |i: u32| local.get(i as usize).copied().unwrap_or(0);
    let slots =
        a.slots.iter().map(|g| wa::SlotTimelines { slot: g.slot, count: g.timelines.len() as u32 });
    let bones =
        a.bones.iter().map(|g| wa::BoneTimelines { bone: g.bone, count: g.timelines.len() as u32 });
    Ok(wa::Animation {
        name: a.name.clone(),
        timeline_count: a.timeline_hint,
        slots: slots.collect(),
        slot_timelines: a.slots.iter().flat_map(|g| &g.timelines).map(slot_timeline).collect(),
        bones: bones.collect(),
        bone_timelines: a.bones.iter().flat_map(|g| &g.timelines).map(bone_timeline).collect(),
        ik: a.ik.iter().map(|t| ik_timeline(at(t.constraint), t)).collect(),
        transform: a
            .transform
            .iter()
            .map(|t| wa::TransformTimeline {
                constraint: at(t.constraint),
                timeline: t.timeline.clone(),
            })
            .collect(),
        path: a
            .path
            .iter()
            .map(|p| wa::PathTimelines {
                constraint: at(p.constraint),
                timelines: p.timelines.iter().map(path_timeline).collect(),
            })
            .collect(),
        physics: a
            .physics
            .iter()
            .map(|p| wa::PhysicsTimelines {
                constraint: p.constraint.map_or(0, |c| at(c) + 1),
                timelines: p.timelines.iter().map(physics_timeline).collect(),
            })
            .collect(),
        attachments: a.attachments.iter().map(skin_timelines).collect(),
        draw_order: a
            .draw_order
            .iter()
            .map(|k| wa::DrawOrderKey { time: k.time, changes: k.changes.clone() })
            .collect(),
        events: a.events.iter().map(event_key).collect(),
    })
}

fn slot_timeline(t: &w::SlotTimeline) -> wa::SlotTimeline {
    match t {
        w::SlotTimeline::Attachment(k) => wa::SlotTimeline::Attachment(
            k.iter().map(|k| wa::AttachmentKey { time: k.time, name: k.attachment }).collect(),
        ),
        w::SlotTimeline::Rgba(c) => wa::SlotTimeline::Rgba(c.clone()),
        w::SlotTimeline::Rgb(c) => wa::SlotTimeline::Rgb(c.clone()),
        w::SlotTimeline::Rgba2(c) => wa::SlotTimeline::Rgba2(c.clone()),
        w::SlotTimeline::Rgb2(c) => wa::SlotTimeline::Rgb2(c.clone()),
        w::SlotTimeline::Alpha(c) => wa::SlotTimeline::Alpha(c.clone()),
    }
}

fn bone_timeline(t: &w::BoneTimeline) -> wa::BoneTimeline {
    match t {
        w::BoneTimeline::Rotate(c) => wa::BoneTimeline::Rotate(c.clone()),
        w::BoneTimeline::Translate(c) => wa::BoneTimeline::Translate(c.clone()),
        w::BoneTimeline::TranslateX(c) => wa::BoneTimeline::TranslateX(c.clone()),
        w::BoneTimeline::TranslateY(c) => wa::BoneTimeline::TranslateY(c.clone()),
        w::BoneTimeline::Scale(c) => wa::BoneTimeline::Scale(c.clone()),
        w::BoneTimeline::ScaleX(c) => wa::BoneTimeline::ScaleX(c.clone()),
        w::BoneTimeline::ScaleY(c) => wa::BoneTimeline::ScaleY(c.clone()),
        w::BoneTimeline::Shear(c) => wa::BoneTimeline::Shear(c.clone()),
        w::BoneTimeline::ShearX(c) => wa::BoneTimeline::ShearX(c.clone()),
        w::BoneTimeline::ShearY(c) => wa::BoneTimeline::ShearY(c.clone()),
        w::BoneTimeline::Inherit(k) => wa::BoneTimeline::Inherit(
            k.iter()
                .map(|k| wa::InheritKey { time: k.time, inherit: inherit42(k.inherit) })
                .collect(),
        ),
    }
}

/// An IK timeline: the 4.3 key flags, with the 4.2 fields they imply.
fn ik_timeline(constraint: u32, t: &w::IkTimeline) -> wa::IkTimeline {
    let key = |(i, k): (usize, &w::IkKey)| {
        let curve = if i == 0 {
            CurveType::Linear
        } else if k.flags & 64 != 0 {
            CurveType::Stepped
        } else if k.flags & 128 != 0 {
            CurveType::Bezier
        } else {
            CurveType::Linear
        };
        wa::IkKey {
            flags: Some(k.flags),
            time: k.time,
            mix: k.mix,
            softness: k.softness,
            bend_direction: k.bend_direction() as i8,
            compress: k.flags & 16 != 0,
            stretch: k.flags & 32 != 0,
            curve,
            bezier: k.bezier,
        }
    };
    let keys = t.keys.iter().enumerate().map(key).collect();
    wa::IkTimeline { constraint, bezier_count: t.bezier_count, keys }
}

fn path_timeline(t: &w::PathTimeline) -> wa::PathTimeline {
    match t {
        w::PathTimeline::Position(c) => wa::PathTimeline::Position(c.clone()),
        w::PathTimeline::Spacing(c) => wa::PathTimeline::Spacing(c.clone()),
        w::PathTimeline::Mix(c) => wa::PathTimeline::Mix(c.clone()),
    }
}

fn physics_timeline(t: &w::PhysicsTimeline) -> wa::PhysicsTimeline {
    match t {
        w::PhysicsTimeline::Property(prop, c) => {
            let p = match prop {
                w::PhysicsProperty::Inertia => wa::PhysicsProperty::Inertia,
                w::PhysicsProperty::Strength => wa::PhysicsProperty::Strength,
                w::PhysicsProperty::Damping => wa::PhysicsProperty::Damping,
                w::PhysicsProperty::Mass => wa::PhysicsProperty::Mass,
                w::PhysicsProperty::Wind => wa::PhysicsProperty::Wind,
                w::PhysicsProperty::Gravity => wa::PhysicsProperty::Gravity,
                w::PhysicsProperty::Mix => wa::PhysicsProperty::Mix,
            };
            wa::PhysicsTimeline::Value(p, c.clone())
        }
        w::PhysicsTimeline::Reset(t) => wa::PhysicsTimeline::Reset(t.clone()),
    }
}

/// The attachment timelines of one skin.
fn skin_timelines(sk: &w::AttachmentTimelinesSkin) -> wa::SkinTimelines {
    let slot = |sl: &w::AttachmentTimelinesSlot| wa::SlotAttachmentTimelines {
        slot: sl.slot,
        attachments: sl
            .attachments
            .iter()
            .map(|e| wa::AttachmentTimelineEntry {
                attachment: e.attachment,
                timeline: match &e.kind {
                    w::AttachmentTimelineKind::Deform(d) => deform_timeline(d),
                    w::AttachmentTimelineKind::Sequence(keys) => {
                        wa::AttachmentTimeline::Sequence(keys.iter().map(sequence_key).collect())
                    }
                },
            })
            .collect(),
    };
    wa::SkinTimelines { skin: sk.skin, slots: sk.slots.iter().map(slot).collect() }
}

/// A deform timeline: the curve of the segment before each key moved onto the key.
fn deform_timeline(d: &w::DeformTimeline) -> wa::AttachmentTimeline {
    let mut bezier = 0;
    let keys = d
        .keys
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let curve = if i == 0 {
                CurveType::Linear
            } else {
                d.curves.get(i - 1).copied().unwrap_or_default()
            };
            let b = (curve == CurveType::Bezier).then(|| {
                bezier += 1;
                d.beziers.get(bezier - 1).copied().unwrap_or_default()
            });
            let (start, values) = match &k.values {
                Some(v) => (v.start, v.values.clone()),
                None => (0, Vec::new()),
            };
            wa::DeformKey { time: k.time, curve, bezier: b, start, values }
        })
        .collect();
    wa::AttachmentTimeline::Deform(wa::DeformTimeline { bezier_count: d.bezier_count, keys })
}

fn sequence_key(k: &w::SequenceKey) -> wa::SequenceKey {
    let mode = match k.mode {
        w::SequenceMode::Hold => 0,
        w::SequenceMode::Once => 1,
        w::SequenceMode::Loop => 2,
        w::SequenceMode::PingPong => 3,
        w::SequenceMode::OnceReverse => 4,
        w::SequenceMode::LoopReverse => 5,
        w::SequenceMode::PingPongReverse => 6,
    };
    wa::SequenceKey { time: k.time, mode_and_index: (k.index << 4) | mode, delay: k.delay }
}

fn event_key(k: &w::EventKey) -> wa::EventKey {
    wa::EventKey {
        time: k.time,
        event: k.event,
        int: k.int_value,
        float: k.float_value,
        string: k.string_value.clone(),
        audio: k.volume_balance,
    }
}
