//! Binary animation → JSON animation: one function per timeline family (slot, bone, IK,
//! transform, path, physics, attachment, draw order, event). JSON puts the curve of a
//! segment on the key it starts at; the binary IK and deform keys carry it on the next key.

use spine_format::binary::v40::animation as wa;
use spine_format::json::{
    self as j, AttachmentTimeline, AttachmentTimelines, BoneTimeline, DeformKey, Key, Named,
    PathMix, PhysicsProperty, PhysicsTimeline, SequenceKey, SlotTimeline,
};

use super::constraints::transform_mix_to_json;
use super::context::{name_of, ToJson};
use super::inherit_to_json;
use crate::convert::common::{curve_keys, json_curve};
use crate::convert::json_common::{
    alpha_to_json, delays_to_json, draw_order_key, mix_to_json, push_attachment_timeline,
    rgb2_to_json, rgb_to_json, rgba, rgba2_to_json, some_if, unit, xy0, xy1, zero,
};

/// The JSON form of a 4.0–4.2 binary animation.
pub(super) fn animation_to_json(c: &ToJson<'_>, a: &wa::Animation) -> j::Animation {
    j::Animation {
        name: a.name.clone(),
        slots: a
            .slot_groups()
            .map(|(slot, ts)| Named {
                name: c.slot(slot).into(),
                timelines: ts.iter().map(|t| slot_timeline(c, t)).collect(),
            })
            .collect(),
        bones: a
            .bone_groups()
            .map(|(bone, ts)| Named {
                name: c.bone(bone).into(),
                timelines: ts.iter().map(bone_timeline).collect(),
            })
            .collect(),
        ik: a.ik.iter().map(|t| ik_timeline(c, t)).collect(),
        transform: a.transform.iter().map(|t| transform_timeline(c, t)).collect(),
        path: a.path.iter().map(|p| path_timelines(c, p)).collect(),
        physics: a.physics.iter().map(|p| physics_timelines(c, p)).collect(),
        attachments: attachment_timelines(c, a),
        draw_order: (!a.draw_order.is_empty()).then(|| {
            a.draw_order.iter().map(|k| draw_order_key(k.time, &k.changes, |i| c.slot(i))).collect()
        }),
        events: (!a.events.is_empty()).then(|| a.events.iter().map(|k| event_key(c, k)).collect()),
    }
}

fn slot_timeline(c: &ToJson<'_>, t: &wa::SlotTimeline) -> SlotTimeline {
    match t {
        wa::SlotTimeline::Attachment(keys) => SlotTimeline::Attachment(
            keys.iter().map(|k| Key { time: k.time, curve: None, value: c.text(k.name) }).collect(),
        ),
        wa::SlotTimeline::Rgba(t) => SlotTimeline::Rgba(curve_keys(t, rgba)),
        wa::SlotTimeline::Rgb(t) => SlotTimeline::Rgb(curve_keys(t, rgb_to_json)),
        wa::SlotTimeline::Rgba2(t) => SlotTimeline::Rgba2(curve_keys(t, rgba2_to_json)),
        wa::SlotTimeline::Rgb2(t) => SlotTimeline::Rgb2(curve_keys(t, rgb2_to_json)),
        wa::SlotTimeline::Alpha(t) => SlotTimeline::Alpha(curve_keys(t, alpha_to_json)),
    }
}

fn bone_timeline(t: &wa::BoneTimeline) -> BoneTimeline {
    match t {
        wa::BoneTimeline::Rotate(t) => BoneTimeline::Rotate(curve_keys(t, zero)),
        wa::BoneTimeline::Translate(t) => BoneTimeline::Translate(curve_keys(t, xy0)),
        wa::BoneTimeline::TranslateX(t) => BoneTimeline::TranslateX(curve_keys(t, zero)),
        wa::BoneTimeline::TranslateY(t) => BoneTimeline::TranslateY(curve_keys(t, zero)),
        wa::BoneTimeline::Scale(t) => BoneTimeline::Scale(curve_keys(t, xy1)),
        wa::BoneTimeline::ScaleX(t) => BoneTimeline::ScaleX(curve_keys(t, unit)),
        wa::BoneTimeline::ScaleY(t) => BoneTimeline::ScaleY(curve_keys(t, unit)),
        wa::BoneTimeline::Shear(t) => BoneTimeline::Shear(curve_keys(t, xy0)),
        wa::BoneTimeline::ShearX(t) => BoneTimeline::ShearX(curve_keys(t, zero)),
        wa::BoneTimeline::ShearY(t) => BoneTimeline::ShearY(curve_keys(t, zero)),
        wa::BoneTimeline::Inherit(keys) => BoneTimeline::Inherit(
            keys.iter()
                .map(|k| Key {
                    time: k.time,
                    curve: None,
                    value: Some(inherit_to_json(k.inherit).unwrap_or(j::Inherit::Normal)),
                })
                .collect(),
        ),
    }
}

fn ik_timeline(c: &ToJson<'_>, t: &wa::IkTimeline) -> Named<Vec<Key<j::IkKey>>> {
    let timelines = (0..t.keys.len())
        .map(|i| {
            let k = &t.keys[i];
            // The transition to the next key is recorded on the next key.
            let curve = t.keys.get(i + 1).and_then(|next| {
                let b = next.bezier.unwrap_or_default();
                json_curve(next.curve, &b)
            });
            let mix = match k.flags {
                Some(f) => mix_to_json(f & 1 != 0, f & 2 != 0, k.mix),
                None => some_if(k.mix.unwrap_or(1.0), 1.0),
            };
            let softness = match k.flags {
                Some(_) => k.softness,
                None => some_if(k.softness.unwrap_or(0.0), 0.0),
            };
            let value = j::IkKey {
                mix,
                softness,
                bend_positive: (k.bend_direction < 0).then_some(false),
                compress: k.compress.then_some(true),
                stretch: k.stretch.then_some(true),
            };
            Key { time: k.time, curve, value }
        })
        .collect();
    Named { name: name_of(&c.s.ik_constraints, t.constraint, |x| &x.name), timelines }
}

fn transform_timeline(
    c: &ToJson<'_>,
    t: &wa::TransformTimeline,
) -> Named<Vec<Key<j::TransformMix>>> {
    Named {
        name: name_of(&c.s.transform_constraints, t.constraint, |x| &x.name),
        timelines: curve_keys(&t.timeline, transform_mix_to_json),
    }
}

fn path_timelines(c: &ToJson<'_>, p: &wa::PathTimelines) -> Named<Vec<j::PathTimeline>> {
    let path_mix = |v: &[f32; 3]| PathMix {
        mix_rotate: some_if(v[0], 1.0),
        mix_x: some_if(v[1], 1.0),
        mix_y: some_if(v[2], v[1]),
        ..PathMix::default()
    };
    Named {
        name: name_of(&c.s.path_constraints, p.constraint, |x| &x.name),
        timelines: p
            .timelines
            .iter()
            .map(|t| match t {
                wa::PathTimeline::Position(t) => j::PathTimeline::Position(curve_keys(t, zero)),
                wa::PathTimeline::Spacing(t) => j::PathTimeline::Spacing(curve_keys(t, zero)),
                wa::PathTimeline::Mix(t) => j::PathTimeline::Mix(curve_keys(t, path_mix)),
            })
            .collect(),
    }
}

fn physics_timelines(c: &ToJson<'_>, p: &wa::PhysicsTimelines) -> Named<Vec<PhysicsTimeline>> {
    Named {
        // The wire index is 1-based with 0 meaning every constraint (JSON: "").
        name: p
            .constraint
            .checked_sub(1)
            .and_then(|i| c.s.physics_constraints.get(i as usize))
            .map(|x| x.name.clone())
            .unwrap_or_default(),
        timelines: p.timelines.iter().map(physics_timeline).collect(),
    }
}

fn physics_timeline(t: &wa::PhysicsTimeline) -> PhysicsTimeline {
    match t {
        wa::PhysicsTimeline::Value(prop, t) => {
            let (prop, default) = match prop {
                wa::PhysicsProperty::Inertia => (PhysicsProperty::Inertia, 0.0),
                wa::PhysicsProperty::Strength => (PhysicsProperty::Strength, 0.0),
                wa::PhysicsProperty::Damping => (PhysicsProperty::Damping, 0.0),
                wa::PhysicsProperty::Mass => (PhysicsProperty::Mass, 0.0),
                wa::PhysicsProperty::Wind => (PhysicsProperty::Wind, 0.0),
                wa::PhysicsProperty::Gravity => (PhysicsProperty::Gravity, 0.0),
                wa::PhysicsProperty::Mix => (PhysicsProperty::Mix, 1.0),
            };
            PhysicsTimeline::Value(prop, curve_keys(t, |v| some_if(v[0], default)))
        }
        wa::PhysicsTimeline::Reset(times) => PhysicsTimeline::Reset(
            times.iter().map(|&time| Key { time, curve: None, value: () }).collect(),
        ),
    }
}

/// The attachment timelines, one JSON entry per skin, slot and attachment.
fn attachment_timelines(c: &ToJson<'_>, a: &wa::Animation) -> Vec<AttachmentTimelines> {
    let mut attachments: Vec<AttachmentTimelines> = Vec::new();
    for sk in &a.attachments {
        for sl in &sk.slots {
            for e in &sl.attachments {
                let names =
                    (c.skin(sk.skin), c.slot(sl.slot), c.text(e.attachment).unwrap_or_default());
                let t = match &e.timeline {
                    wa::AttachmentTimeline::Deform(d) => AttachmentTimeline::Deform(deform_keys(d)),
                    wa::AttachmentTimeline::Sequence(keys) => {
                        AttachmentTimeline::Sequence(sequence_keys(keys))
                    }
                };
                push_attachment_timeline(&mut attachments, names, t);
            }
        }
    }
    attachments
}

fn deform_keys(d: &wa::DeformTimeline) -> Vec<Key<DeformKey>> {
    let n = d.keys.len();
    d.keys
        .iter()
        .enumerate()
        .map(|(i, k)| Key {
            time: k.time,
            curve: d
                .keys
                .get(i + 1)
                .filter(|_| i + 1 < n)
                .and_then(|next| json_curve(next.curve, &[next.bezier.unwrap_or_default()])),
            value: DeformKey {
                offset: (!k.values.is_empty() && k.start != 0).then_some(k.start as i32),
                vertices: (!k.values.is_empty()).then(|| k.values.clone()),
            },
        })
        .collect()
}

fn sequence_keys(keys: &[wa::SequenceKey]) -> Vec<Key<SequenceKey>> {
    let delays = delays_to_json(keys.iter().map(|k| k.delay));
    keys.iter()
        .zip(delays)
        .map(|(k, delay)| {
            let mode = k.mode().map(|m| match m {
                wa::SequenceMode::Hold => j::SequenceMode::Hold,
                wa::SequenceMode::Once => j::SequenceMode::Once,
                wa::SequenceMode::Loop => j::SequenceMode::Loop,
                wa::SequenceMode::Pingpong => j::SequenceMode::Pingpong,
                wa::SequenceMode::OnceReverse => j::SequenceMode::OnceReverse,
                wa::SequenceMode::LoopReverse => j::SequenceMode::LoopReverse,
                wa::SequenceMode::PingpongReverse => j::SequenceMode::PingpongReverse,
            });
            let value = SequenceKey {
                mode: mode.filter(|m| *m != j::SequenceMode::Hold),
                index: some_if(k.index(), 0),
                delay,
            };
            Key { time: k.time, curve: None, value }
        })
        .collect()
}

fn event_key(c: &ToJson<'_>, k: &wa::EventKey) -> Key<j::EventKey> {
    let def = c.events.get(k.event as usize);
    Key {
        time: k.time,
        curve: None,
        value: j::EventKey {
            name: def.map(|d| d.0.clone()).unwrap_or_default().into(),
            int: some_if(k.int, def.map_or(0, |d| d.1)),
            float: some_if(k.float, def.map_or(0.0, |d| d.2)),
            string: k.string.clone(),
            volume: k.audio.map(|v| v[0]),
            balance: k.audio.map(|v| v[1]),
        },
    }
}
