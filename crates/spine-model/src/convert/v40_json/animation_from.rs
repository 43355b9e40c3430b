//! JSON animation → binary animation: one function per timeline family, each resolving
//! its names and counting its timelines for the binary's timeline-count hint.

use spine_format::binary::shared::CurveType;
use spine_format::binary::v40::{animation as wa, ast as w};
use spine_format::json::{
    self as j, AttachmentTimeline, AttachmentTimelines, BoneTimeline, DeformKey, Key, Named,
    PathMix, PhysicsProperty, PhysicsTimeline, SequenceKey, SlotTimeline,
};

use super::constraints::transform_mix_from_json;
use super::context::FromJson;
use super::inherit_from_json;
use crate::convert::common::{binary_curve, curve_timeline};
use crate::convert::json_common::{
    alpha_from_json, delays_from_json, draw_order_changes, ik_curve_in, mix_from_json, one,
    rgb2_from_json, rgb_from_json, rgba, rgba2_from_json, xy,
};
use crate::error::ProblemKind;

/// The binary form of a JSON animation (`events_def`: the binary event definitions, whose
/// values are the defaults of the event keys).
pub(super) fn animation_from_json(
    c: &mut FromJson<'_>,
    a: &j::Animation,
    events_def: &[w::EventData],
) -> wa::Animation {
    c.p.enter("animation", &a.name);
    let (slots, slot_timelines) = slot_timelines(c, &a.slots);
    let (bones, bone_timelines) = bone_timelines(c, &a.bones);
    let ik: Vec<_> = a.ik.iter().map(|n| ik_timeline(c, n)).collect();
    let transform: Vec<_> = a
        .transform
        .iter()
        .map(|n| wa::TransformTimeline {
            constraint: c.find("transform constraint", &n.name),
            timeline: curve_timeline(&n.timelines, transform_mix_from_json),
        })
        .collect();
    let path: Vec<_> = a.path.iter().map(|n| path_timelines(c, n)).collect();
    let physics: Vec<_> = a.physics.iter().map(|n| physics_timelines(c, n)).collect();
    let (attachments, attachment_count) = attachment_timelines(c, &a.attachments);
    let draw_order = match &a.draw_order {
        Some(keys) => keys
            .iter()
            .map(|k| wa::DrawOrderKey {
                time: k.time,
                changes: draw_order_changes(k, |o| c.find("slot", &o.slot)),
            })
            .collect(),
        None => Vec::new(),
    };
    let events = match &a.events {
        Some(keys) => keys.iter().map(|k| event_key(c, k, events_def)).collect(),
        None => Vec::new(),
    };
    let count = slot_timelines.len()
        + bone_timelines.len()
        + ik.len()
        + transform.len()
        + path.iter().map(|p| p.timelines.len()).sum::<usize>()
        + physics.iter().map(|p| p.timelines.len()).sum::<usize>()
        + attachment_count
        + usize::from(a.draw_order.is_some())
        + usize::from(a.events.is_some());
    c.p.pop();
    wa::Animation {
        name: a.name.clone(),
        timeline_count: count as u32,
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
    }
}

/// The slot timeline groups and the timelines they count, in order.
fn slot_timelines(
    c: &mut FromJson<'_>,
    named: &[Named<Vec<SlotTimeline>>],
) -> (Vec<wa::SlotTimelines>, Vec<wa::SlotTimeline>) {
    let mut slots = Vec::new();
    let mut timelines = Vec::new();
    for n in named {
        let slot = c.find("slot", &n.name);
        timelines.extend(n.timelines.iter().map(|t| slot_timeline(c, t)));
        slots.push(wa::SlotTimelines { slot, count: n.timelines.len() as u32 });
    }
    (slots, timelines)
}

fn slot_timeline(c: &mut FromJson<'_>, t: &SlotTimeline) -> wa::SlotTimeline {
    match t {
        SlotTimeline::Attachment(k) => wa::SlotTimeline::Attachment(
            k.iter()
                .map(|k| wa::AttachmentKey {
                    time: k.time,
                    name: c.strings.opt(k.value.as_deref()),
                })
                .collect(),
        ),
        SlotTimeline::Rgba(k) => wa::SlotTimeline::Rgba(curve_timeline(k, rgba)),
        SlotTimeline::Rgb(k) => wa::SlotTimeline::Rgb(curve_timeline(k, rgb_from_json)),
        SlotTimeline::Rgba2(k) => wa::SlotTimeline::Rgba2(curve_timeline(k, rgba2_from_json)),
        SlotTimeline::Rgb2(k) => wa::SlotTimeline::Rgb2(curve_timeline(k, rgb2_from_json)),
        SlotTimeline::Alpha(k) => wa::SlotTimeline::Alpha(curve_timeline(k, alpha_from_json)),
    }
}

/// The bone timeline groups and the timelines they count, in order.
fn bone_timelines(
    c: &mut FromJson<'_>,
    named: &[Named<Vec<BoneTimeline>>],
) -> (Vec<wa::BoneTimelines>, Vec<wa::BoneTimeline>) {
    let mut bones = Vec::new();
    let mut timelines = Vec::new();
    for n in named {
        let bone = c.find("bone", &n.name);
        timelines.extend(n.timelines.iter().map(|t| bone_timeline(c, t)));
        bones.push(wa::BoneTimelines { bone, count: n.timelines.len() as u32 });
    }
    (bones, timelines)
}

fn bone_timeline(c: &mut FromJson<'_>, t: &BoneTimeline) -> wa::BoneTimeline {
    let one0 = |v: &Option<f32>| one(v, 0.0);
    let one1 = |v: &Option<f32>| one(v, 1.0);
    match t {
        BoneTimeline::Rotate(k) => wa::BoneTimeline::Rotate(curve_timeline(k, one0)),
        BoneTimeline::Translate(k) => {
            wa::BoneTimeline::Translate(curve_timeline(k, |v| xy(v, 0.0)))
        }
        BoneTimeline::TranslateX(k) => wa::BoneTimeline::TranslateX(curve_timeline(k, one0)),
        BoneTimeline::TranslateY(k) => wa::BoneTimeline::TranslateY(curve_timeline(k, one0)),
        BoneTimeline::Scale(k) => wa::BoneTimeline::Scale(curve_timeline(k, |v| xy(v, 1.0))),
        BoneTimeline::ScaleX(k) => wa::BoneTimeline::ScaleX(curve_timeline(k, one1)),
        BoneTimeline::ScaleY(k) => wa::BoneTimeline::ScaleY(curve_timeline(k, one1)),
        BoneTimeline::Shear(k) => wa::BoneTimeline::Shear(curve_timeline(k, |v| xy(v, 0.0))),
        BoneTimeline::ShearX(k) => wa::BoneTimeline::ShearX(curve_timeline(k, one0)),
        BoneTimeline::ShearY(k) => wa::BoneTimeline::ShearY(curve_timeline(k, one0)),
        BoneTimeline::Inherit(k) => {
            if !c.v42() {
                c.p.report(ProblemKind::Invalid("an inherit timeline before 4.2".into()));
            }
            wa::BoneTimeline::Inherit(
                k.iter()
                    .map(|k| wa::InheritKey { time: k.time, inherit: inherit_from_json(k.value) })
                    .collect(),
            )
        }
    }
}

fn ik_timeline(c: &mut FromJson<'_>, n: &Named<Vec<Key<j::IkKey>>>) -> wa::IkTimeline {
    let constraint = c.find("IK constraint", &n.name);
    let v42 = c.v42();
    let mut bezier_count = 0;
    let keys = n
        .timelines
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let prev = i.checked_sub(1).map(|p| &n.timelines[p].curve);
            let (curve, bezier) = ik_curve_in(prev);
            if bezier.is_some() {
                bezier_count += 2;
            }
            let v = &k.value;
            let bend = if v.bend_positive.unwrap_or(true) { 1 } else { -1 };
            let compress = v.compress.unwrap_or(false);
            let stretch = v.stretch.unwrap_or(false);
            let (flags, mix, softness) = if v42 {
                (Some(ik_key_flags(v, curve)), mix_from_json(v.mix).1, v.softness)
            } else {
                (None, Some(v.mix.unwrap_or(1.0)), Some(v.softness.unwrap_or(0.0)))
            };
            wa::IkKey {
                flags,
                time: k.time,
                mix,
                softness,
                bend_direction: bend,
                compress,
                stretch,
                curve,
                bezier,
            }
        })
        .collect();
    wa::IkTimeline { constraint, bezier_count, keys }
}

/// The 4.2 flag byte of an IK key: 1 mix not 0, 2 mix written, 4 softness, 8 bend +1,
/// 16 compress, 32 stretch, 64 stepped, 128 bezier.
fn ik_key_flags(v: &j::IkKey, curve: CurveType) -> u8 {
    let mut f = mix_from_json(v.mix).0;
    if v.softness.is_some() {
        f |= 4;
    }
    if v.bend_positive.unwrap_or(true) {
        f |= 8;
    }
    if v.compress.unwrap_or(false) {
        f |= 16;
    }
    if v.stretch.unwrap_or(false) {
        f |= 32;
    }
    match curve {
        CurveType::Stepped => f |= 64,
        CurveType::Bezier => f |= 128,
        CurveType::Linear => {}
    }
    f
}

fn path_timelines(c: &mut FromJson<'_>, n: &Named<Vec<j::PathTimeline>>) -> wa::PathTimelines {
    let constraint = c.find("path constraint", &n.name);
    let path_mix = |m: &PathMix| {
        let x = m.mix_x.unwrap_or(1.0);
        [m.mix_rotate.unwrap_or(1.0), x, m.mix_y.unwrap_or(x)]
    };
    let timelines = n
        .timelines
        .iter()
        .map(|t| match t {
            j::PathTimeline::Position(k) => {
                wa::PathTimeline::Position(curve_timeline(k, |v| one(v, 0.0)))
            }
            j::PathTimeline::Spacing(k) => {
                wa::PathTimeline::Spacing(curve_timeline(k, |v| one(v, 0.0)))
            }
            j::PathTimeline::Mix(k) => wa::PathTimeline::Mix(curve_timeline(k, path_mix)),
        })
        .collect();
    wa::PathTimelines { constraint, timelines }
}

fn physics_timelines(
    c: &mut FromJson<'_>,
    n: &Named<Vec<PhysicsTimeline>>,
) -> wa::PhysicsTimelines {
    let constraint = if n.name.is_empty() { 0 } else { c.find("physics constraint", &n.name) + 1 };
    let timelines = n
        .timelines
        .iter()
        .map(|t| match t {
            PhysicsTimeline::Reset(k) => {
                wa::PhysicsTimeline::Reset(k.iter().map(|k| k.time).collect())
            }
            PhysicsTimeline::Value(p, k) => {
                let (prop, d) = match p {
                    PhysicsProperty::Inertia => (wa::PhysicsProperty::Inertia, 0.0),
                    PhysicsProperty::Strength => (wa::PhysicsProperty::Strength, 0.0),
                    PhysicsProperty::Damping => (wa::PhysicsProperty::Damping, 0.0),
                    PhysicsProperty::Mass => (wa::PhysicsProperty::Mass, 0.0),
                    PhysicsProperty::Wind => (wa::PhysicsProperty::Wind, 0.0),
                    PhysicsProperty::Gravity => (wa::PhysicsProperty::Gravity, 0.0),
                    PhysicsProperty::Mix => (wa::PhysicsProperty::Mix, 1.0),
                };
                wa::PhysicsTimeline::Value(prop, curve_timeline(k, |v| one(v, d)))
            }
        })
        .collect();
    wa::PhysicsTimelines { constraint, timelines }
}

/// The attachment timelines grouped by skin then slot, and how many there are.
fn attachment_timelines(
    c: &mut FromJson<'_>,
    list: &[AttachmentTimelines],
) -> (Vec<wa::SkinTimelines>, usize) {
    let mut attachments: Vec<wa::SkinTimelines> = Vec::new();
    let mut count = 0;
    for at in list {
        let skin = c.find("skin", &at.skin);
        let slot = c.find("slot", &at.slot);
        let attachment = c.strings.get(&at.attachment);
        let si = match attachments.iter().position(|s| s.skin == skin) {
            Some(i) => i,
            None => {
                attachments.push(wa::SkinTimelines { skin, slots: Vec::new() });
                attachments.len() - 1
            }
        };
        let slots = &mut attachments[si].slots;
        let li = match slots.iter().position(|s| s.slot == slot) {
            Some(i) => i,
            None => {
                slots.push(wa::SlotAttachmentTimelines { slot, attachments: Vec::new() });
                slots.len() - 1
            }
        };
        for t in &at.timelines {
            let timeline = match t {
                AttachmentTimeline::Deform(keys) => wa::AttachmentTimeline::Deform(deform(keys)),
                AttachmentTimeline::Sequence(keys) => {
                    if !c.v41() {
                        c.p.report(ProblemKind::Invalid("a sequence timeline before 4.1".into()));
                    }
                    wa::AttachmentTimeline::Sequence(sequence_keys(keys))
                }
            };
            attachments[si].slots[li]
                .attachments
                .push(wa::AttachmentTimelineEntry { attachment, timeline });
            count += 1;
        }
    }
    (attachments, count)
}

fn deform(keys: &[Key<DeformKey>]) -> wa::DeformTimeline {
    let mut bezier_count = 0;
    let keys = keys
        .iter()
        .enumerate()
        .map(|(i, k)| {
            // The curve into this key is the previous key's `curve`.
            let (curve, bezier) = if i > 0 {
                match binary_curve(&keys[i - 1].curve, 1) {
                    (CurveType::Bezier, b) => {
                        bezier_count += 1;
                        (CurveType::Bezier, Some(b[0]))
                    }
                    (ty, _) => (ty, None),
                }
            } else {
                (CurveType::Linear, None)
            };
            let (start, values) = match &k.value.vertices {
                Some(v) if !v.is_empty() => (k.value.offset.unwrap_or(0).max(0) as u32, v.clone()),
                _ => (0, Vec::new()),
            };
            wa::DeformKey { time: k.time, curve, bezier, start, values }
        })
        .collect();
    wa::DeformTimeline { bezier_count, keys }
}

fn sequence_keys(keys: &[Key<SequenceKey>]) -> Vec<wa::SequenceKey> {
    let delays = delays_from_json(keys.iter().map(|k| k.value.delay));
    keys.iter()
        .zip(delays)
        .map(|(k, delay)| {
            let mode = match k.value.mode.unwrap_or(j::SequenceMode::Hold) {
                j::SequenceMode::Hold => 0,
                j::SequenceMode::Once => 1,
                j::SequenceMode::Loop => 2,
                j::SequenceMode::Pingpong => 3,
                j::SequenceMode::OnceReverse => 4,
                j::SequenceMode::LoopReverse => 5,
                j::SequenceMode::PingpongReverse => 6,
            };
            wa::SequenceKey {
                time: k.time,
                mode_and_index: (k.value.index.unwrap_or(0) << 4) | mode,
                delay,
            }
        })
        .collect()
}

fn event_key(
    c: &mut FromJson<'_>,
    k: &Key<j::EventKey>,
    events_def: &[w::EventData],
) -> wa::EventKey {
    let event = c.find("event", &k.value.name);
    let def = events_def.get(event as usize);
    let audio = def.and_then(|d| d.audio.as_ref());
    wa::EventKey {
        time: k.time,
        event,
        int: k.value.int.unwrap_or(def.map_or(0, |d| d.int)),
        float: k.value.float.unwrap_or(def.map_or(0.0, |d| d.float)),
        string: k.value.string.clone(),
        audio: audio
            .map(|a| [k.value.volume.unwrap_or(a.volume), k.value.balance.unwrap_or(a.balance)]),
    }
}
