//! Binary animation → JSON animation: one function per timeline family (slot, bone, IK,
//! transform, path, physics, slider, attachment, draw order and its folders, event).
//! JSON object keys are unique, so timelines listed twice for one name are merged and a
//! timeline type written twice keeps the last (see the module docs).

use spine_format::binary::shared::CurveType;
use spine_format::binary::v43 as w;
use spine_format::json::{
    self as j1, AttachmentTimeline, AttachmentTimelines, BoneTimeline, DeformKey, Key, Named,
    PhysicsTimeline, SequenceKey, SlotTimeline,
};
use spine_format::json43 as j;

use super::context::ToJson;
use super::{inherit_to_json, physics_prop_to_json, sequence_mode_to_json};
use crate::convert::common::{curve_keys, json_curve, last_wins, merge_named, unique_named};
use crate::convert::json_common::{
    alpha_to_json, delays_to_json, draw_order_key, mix_to_json, push_attachment_timeline,
    rgb2_to_json, rgb_to_json, rgba, rgba2_to_json, some_if, unit, xy0, xy1, zero,
};

/// The JSON form of a 4.3 binary animation.
pub(super) fn animation_to_json(c: &ToJson<'_>, a: &w::Animation) -> j::Animation {
    let slots = a.slots.iter().map(|st| Named {
        name: c.slot(st.slot).into(),
        timelines: st.timelines.iter().map(|t| slot_timeline(c, t)).collect(),
    });
    let bones = a.bones.iter().map(|bt| Named {
        name: c.bone(bt.bone).into(),
        timelines: bt.timelines.iter().map(bone_timeline).collect(),
    });
    let path = a.path.iter().map(|p| Named {
        name: c.constraint(p.constraint).into(),
        timelines: p.timelines.iter().map(path_timeline).collect(),
    });
    let physics = a.physics.iter().map(|p| Named {
        name: p.constraint.map(|i| c.constraint(i)).unwrap_or_default().into(),
        timelines: p.timelines.iter().map(physics_timeline).collect(),
    });
    let slider = a.slider.iter().map(|p| Named {
        name: c.constraint(p.constraint).into(),
        timelines: p.timelines.iter().map(slider_timeline).collect(),
    });
    j::Animation {
        name: a.name.clone(),
        slots: merge_named(slots.collect(), std::mem::discriminant),
        bones: merge_named(bones.collect(), std::mem::discriminant),
        ik: unique_named(a.ik.iter().map(|t| ik_timeline(c, t)).collect()),
        transform: unique_named(a.transform.iter().map(|t| transform_timeline(c, t)).collect()),
        path: merge_named(path.collect(), std::mem::discriminant),
        physics: merge_named(physics.collect(), |t| match t {
            PhysicsTimeline::Value(p, _) => Some(*p as u8),
            PhysicsTimeline::Reset(_) => None,
        }),
        slider: merge_named(slider.collect(), std::mem::discriminant),
        attachments: attachment_timelines(c, a),
        draw_order: (!a.draw_order.is_empty()).then(|| {
            a.draw_order.iter().map(|k| draw_order_key(k.time, &k.changes, |i| c.slot(i))).collect()
        }),
        draw_order_folders: a.draw_order_folders.iter().map(|f| draw_order_folder(c, f)).collect(),
        events: (!a.events.is_empty()).then(|| a.events.iter().map(|k| event_key(c, k)).collect()),
        color: a.color,
    }
}

fn slot_timeline(c: &ToJson<'_>, t: &w::SlotTimeline) -> SlotTimeline {
    match t {
        w::SlotTimeline::Attachment(keys) => SlotTimeline::Attachment(
            keys.iter()
                .map(|k| Key { time: k.time, curve: None, value: c.text(k.attachment) })
                .collect(),
        ),
        w::SlotTimeline::Rgba(t) => SlotTimeline::Rgba(curve_keys(t, rgba)),
        w::SlotTimeline::Rgb(t) => SlotTimeline::Rgb(curve_keys(t, rgb_to_json)),
        w::SlotTimeline::Rgba2(t) => SlotTimeline::Rgba2(curve_keys(t, rgba2_to_json)),
        w::SlotTimeline::Rgb2(t) => SlotTimeline::Rgb2(curve_keys(t, rgb2_to_json)),
        w::SlotTimeline::Alpha(t) => SlotTimeline::Alpha(curve_keys(t, alpha_to_json)),
    }
}

fn bone_timeline(t: &w::BoneTimeline) -> BoneTimeline {
    match t {
        w::BoneTimeline::Rotate(t) => BoneTimeline::Rotate(curve_keys(t, zero)),
        w::BoneTimeline::Translate(t) => BoneTimeline::Translate(curve_keys(t, xy0)),
        w::BoneTimeline::TranslateX(t) => BoneTimeline::TranslateX(curve_keys(t, zero)),
        w::BoneTimeline::TranslateY(t) => BoneTimeline::TranslateY(curve_keys(t, zero)),
        w::BoneTimeline::Scale(t) => BoneTimeline::Scale(curve_keys(t, xy1)),
        w::BoneTimeline::ScaleX(t) => BoneTimeline::ScaleX(curve_keys(t, unit)),
        w::BoneTimeline::ScaleY(t) => BoneTimeline::ScaleY(curve_keys(t, unit)),
        w::BoneTimeline::Shear(t) => BoneTimeline::Shear(curve_keys(t, xy0)),
        w::BoneTimeline::ShearX(t) => BoneTimeline::ShearX(curve_keys(t, zero)),
        w::BoneTimeline::ShearY(t) => BoneTimeline::ShearY(curve_keys(t, zero)),
        w::BoneTimeline::Inherit(keys) => BoneTimeline::Inherit(
            keys.iter()
                .map(|k| Key {
                    time: k.time,
                    curve: None,
                    value: some_if(inherit_to_json(k.inherit), j1::Inherit::Normal),
                })
                .collect(),
        ),
    }
}

fn ik_timeline(c: &ToJson<'_>, t: &w::IkTimeline) -> Named<Vec<Key<j1::IkKey>>> {
    let timelines = (0..t.keys.len())
        .map(|i| {
            let k = &t.keys[i];
            // The transition to the next key is in the next key's flags.
            let curve = t.keys.get(i + 1).and_then(|next| {
                let ty = if next.flags & 64 != 0 {
                    CurveType::Stepped
                } else if next.flags & 128 != 0 {
                    CurveType::Bezier
                } else {
                    CurveType::Linear
                };
                json_curve(ty, &next.bezier.unwrap_or_default())
            });
            let value = j1::IkKey {
                mix: mix_to_json(k.flags & 1 != 0, k.flags & 2 != 0, k.mix),
                softness: k.softness,
                bend_positive: (k.bend_direction() < 0).then_some(false),
                compress: (k.flags & 16 != 0).then_some(true),
                stretch: (k.flags & 32 != 0).then_some(true),
            };
            Key { time: k.time, curve, value }
        })
        .collect();
    Named { name: c.constraint(t.constraint).into(), timelines }
}

fn transform_timeline(
    c: &ToJson<'_>,
    t: &w::TransformTimeline,
) -> Named<Vec<Key<j::TransformKey>>> {
    Named {
        name: c.constraint(t.constraint).into(),
        timelines: curve_keys(&t.timeline, |v| {
            // mixY defaults to mixX.
            let mut mixes = [None; 6];
            for i in 0..6 {
                let default = if i == 2 { v[1] } else { 1.0 };
                mixes[i] = some_if(v[i], default);
            }
            j::TransformKey { mixes }
        }),
    }
}

fn path_timeline(t: &w::PathTimeline) -> j::PathTimeline {
    match t {
        w::PathTimeline::Position(t) => j::PathTimeline::Position(curve_keys(t, zero)),
        w::PathTimeline::Spacing(t) => j::PathTimeline::Spacing(curve_keys(t, zero)),
        w::PathTimeline::Mix(t) => j::PathTimeline::Mix(curve_keys(t, |v| j::PathMixKey {
            mix_rotate: some_if(v[0], 1.0),
            mix_x: some_if(v[1], 1.0),
            mix_y: some_if(v[2], v[1]),
        })),
    }
}

fn physics_timeline(t: &w::PhysicsTimeline) -> PhysicsTimeline {
    match t {
        w::PhysicsTimeline::Property(prop, t) => {
            let default = if *prop == w::PhysicsProperty::Mix { 1.0 } else { 0.0 };
            PhysicsTimeline::Value(
                physics_prop_to_json(*prop),
                curve_keys(t, |v| some_if(v[0], default)),
            )
        }
        w::PhysicsTimeline::Reset(times) => PhysicsTimeline::Reset(
            times.iter().map(|&time| Key { time, curve: None, value: () }).collect(),
        ),
    }
}

fn slider_timeline(t: &w::SliderTimeline) -> j::SliderTimeline {
    match t {
        w::SliderTimeline::Time(t) => j::SliderTimeline::Time(curve_keys(t, unit)),
        w::SliderTimeline::Mix(t) => j::SliderTimeline::Mix(curve_keys(t, unit)),
    }
}

/// The attachment timelines, one JSON entry per skin, slot and attachment, each timeline
/// type once (the last).
fn attachment_timelines(c: &ToJson<'_>, a: &w::Animation) -> Vec<AttachmentTimelines> {
    let mut attachments: Vec<AttachmentTimelines> = Vec::new();
    for sk in &a.attachments {
        for sl in &sk.slots {
            for at in &sl.attachments {
                let names =
                    (c.skin(sk.skin), c.slot(sl.slot), c.text(at.attachment).unwrap_or_default());
                let t = match &at.kind {
                    w::AttachmentTimelineKind::Deform(d) => {
                        AttachmentTimeline::Deform(deform_keys(d))
                    }
                    w::AttachmentTimelineKind::Sequence(keys) => {
                        AttachmentTimeline::Sequence(sequence_keys(keys))
                    }
                };
                push_attachment_timeline(&mut attachments, names, t);
            }
        }
    }
    for at in &mut attachments {
        let list = std::mem::take(&mut at.timelines);
        at.timelines = last_wins(list.into_iter().map(|t| (std::mem::discriminant(&t), t)));
    }
    attachments
}

fn deform_keys(d: &w::DeformTimeline) -> Vec<Key<DeformKey>> {
    let n = d.keys.len();
    let mut bezier = 0;
    d.keys
        .iter()
        .enumerate()
        .map(|(i, k)| {
            // The curve types of the segments, and the beziers of those that have one.
            let curve = if i + 1 < n {
                let ty = d.curves.get(i).copied().unwrap_or_default();
                let b = if ty == CurveType::Bezier {
                    bezier += 1;
                    vec![d.beziers.get(bezier - 1).copied().unwrap_or_default()]
                } else {
                    Vec::new()
                };
                json_curve(ty, &b)
            } else {
                None
            };
            let value = DeformKey {
                offset: k.values.as_ref().and_then(|v| some_if(v.start as i32, 0)),
                vertices: k.values.as_ref().map(|v| v.values.clone()),
            };
            Key { time: k.time, curve, value }
        })
        .collect()
}

fn sequence_keys(keys: &[w::SequenceKey]) -> Vec<Key<SequenceKey>> {
    let delays = delays_to_json(keys.iter().map(|k| k.delay));
    keys.iter()
        .zip(delays)
        .map(|(k, delay)| Key {
            time: k.time,
            curve: None,
            value: SequenceKey {
                mode: some_if(sequence_mode_to_json(k.mode), j1::SequenceMode::Hold),
                index: some_if(k.index, 0),
                delay,
            },
        })
        .collect()
}

/// A draw order folder: its slots, and keys whose slot indexes are folder positions.
fn draw_order_folder(c: &ToJson<'_>, f: &w::DrawOrderFolder) -> j::DrawOrderFolder {
    let slot = |i: u32| f.slots.get(i as usize).map(|&s| c.slot(s)).unwrap_or_default();
    j::DrawOrderFolder {
        slots: f.slots.iter().map(|&i| c.slot(i)).collect(),
        keys: f.keys.iter().map(|k| draw_order_key(k.time, &k.changes, slot)).collect(),
    }
}

fn event_key(c: &ToJson<'_>, k: &w::EventKey) -> Key<j1::EventKey> {
    let def = c.s.events.get(k.event as usize);
    let name = def.map(|e| e.name.clone()).unwrap_or_default();
    Key {
        time: k.time,
        curve: None,
        value: j1::EventKey {
            name,
            int: some_if(k.int_value, def.map_or(0, |e| e.int_value)),
            float: some_if(k.float_value, def.map_or(0.0, |e| e.float_value)),
            string: k.string_value.clone(),
            volume: k.volume_balance.map(|v| v[0]),
            balance: k.volume_balance.map(|v| v[1]),
        },
    }
}
