//! JSON animation → binary animation: one function per timeline family, each resolving
//! its names (a constraint timeline of an unknown constraint is reported and dropped) and
//! counting its timelines for the binary's timeline-count hint.

use spine_format::binary::shared::CurveType;
use spine_format::binary::v43 as w;
use spine_format::json::{
    self as j1, AttachmentTimeline, AttachmentTimelines, BoneTimeline, DeformKey, Key, Named,
    PhysicsProperty, PhysicsTimeline, SequenceKey, SlotTimeline,
};
use spine_format::json43 as j;

use super::context::FromJson;
use super::{inherit_from_json, physics_prop_from_json, sequence_mode_from_json};
use crate::convert::common::{binary_curve, curve_timeline};
use crate::convert::json_common::{
    alpha_from_json, delays_from_json, draw_order_changes, ik_curve_in, mix_from_json, one,
    rgb2_from_json, rgb_from_json, rgba, rgba2_from_json, xy,
};
use crate::error::ProblemKind;

/// The binary form of a JSON animation (`ne`: the skeleton carries nonessential data).
pub(super) fn animation_from_json(
    c: &mut FromJson<'_>,
    a: &j::Animation,
    ne: bool,
) -> w::Animation {
    c.p.enter("animation", &a.name);
    let slots: Vec<_> = a.slots.iter().map(|n| slot_timelines(c, n)).collect();
    let bones: Vec<_> = a.bones.iter().map(|n| bone_timelines(c, n)).collect();
    let ik: Vec<_> = a.ik.iter().filter_map(|n| ik_timeline(c, n)).collect();
    let transform: Vec<_> = a.transform.iter().filter_map(|n| transform_timeline(c, n)).collect();
    let path: Vec<_> = a.path.iter().filter_map(|n| path_timelines(c, n)).collect();
    let physics: Vec<_> = a.physics.iter().filter_map(|n| physics_timelines(c, n)).collect();
    let slider: Vec<_> = a.slider.iter().filter_map(|n| slider_timelines(c, n)).collect();
    let (attachments, attachment_count) = attachment_timelines(c, &a.attachments);
    let draw_order = match &a.draw_order {
        Some(keys) => draw_order_from_json(c, keys, None),
        None => Vec::new(),
    };
    let draw_order_folders: Vec<_> = a
        .draw_order_folders
        .iter()
        .map(|f| {
            let folder: Vec<u32> = f.slots.iter().map(|n| c.slot(n)).collect();
            let keys = draw_order_from_json(c, &f.keys, Some(&folder));
            w::DrawOrderFolder { slots: folder, keys }
        })
        .collect();
    let events = match &a.events {
        Some(keys) => keys.iter().filter_map(|k| event_key(c, k)).collect(),
        None => Vec::new(),
    };
    let count = slots.iter().map(|s| s.timelines.len()).sum::<usize>()
        + bones.iter().map(|b| b.timelines.len()).sum::<usize>()
        + ik.len()
        + transform.len()
        + path.iter().map(|p| p.timelines.len()).sum::<usize>()
        + physics.iter().map(|p| p.timelines.len()).sum::<usize>()
        + slider.iter().map(|p| p.timelines.len()).sum::<usize>()
        + attachment_count
        + usize::from(a.draw_order.is_some())
        + draw_order_folders.len()
        + usize::from(a.events.is_some());
    c.p.pop();
    w::Animation {
        name: a.name.clone(),
        timeline_hint: count as u32,
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
        color: if ne { Some(a.color.unwrap_or([0; 4])) } else { None },
    }
}

fn slot_timelines(c: &mut FromJson<'_>, n: &Named<Vec<SlotTimeline>>) -> w::SlotTimelines {
    let slot = c.slot(&n.name);
    let timelines = n
        .timelines
        .iter()
        .map(|t| match t {
            SlotTimeline::Attachment(keys) => w::SlotTimeline::Attachment(
                keys.iter()
                    .map(|k| w::AttachmentKey {
                        time: k.time,
                        attachment: c.strings.opt(k.value.as_deref()),
                    })
                    .collect(),
            ),
            SlotTimeline::Rgba(k) => w::SlotTimeline::Rgba(curve_timeline(k, rgba)),
            SlotTimeline::Rgb(k) => w::SlotTimeline::Rgb(curve_timeline(k, rgb_from_json)),
            SlotTimeline::Rgba2(k) => w::SlotTimeline::Rgba2(curve_timeline(k, rgba2_from_json)),
            SlotTimeline::Rgb2(k) => w::SlotTimeline::Rgb2(curve_timeline(k, rgb2_from_json)),
            SlotTimeline::Alpha(k) => w::SlotTimeline::Alpha(curve_timeline(k, alpha_from_json)),
        })
        .collect();
    w::SlotTimelines { slot, timelines }
}

fn bone_timelines(c: &mut FromJson<'_>, n: &Named<Vec<BoneTimeline>>) -> w::BoneTimelines {
    let bone = c.bone(&n.name);
    w::BoneTimelines { bone, timelines: n.timelines.iter().map(bone_timeline).collect() }
}

fn bone_timeline(t: &BoneTimeline) -> w::BoneTimeline {
    let one0 = |v: &Option<f32>| one(v, 0.0);
    let one1 = |v: &Option<f32>| one(v, 1.0);
    match t {
        BoneTimeline::Rotate(k) => w::BoneTimeline::Rotate(curve_timeline(k, one0)),
        BoneTimeline::Translate(k) => w::BoneTimeline::Translate(curve_timeline(k, |v| xy(v, 0.0))),
        BoneTimeline::TranslateX(k) => w::BoneTimeline::TranslateX(curve_timeline(k, one0)),
        BoneTimeline::TranslateY(k) => w::BoneTimeline::TranslateY(curve_timeline(k, one0)),
        BoneTimeline::Scale(k) => w::BoneTimeline::Scale(curve_timeline(k, |v| xy(v, 1.0))),
        BoneTimeline::ScaleX(k) => w::BoneTimeline::ScaleX(curve_timeline(k, one1)),
        BoneTimeline::ScaleY(k) => w::BoneTimeline::ScaleY(curve_timeline(k, one1)),
        BoneTimeline::Shear(k) => w::BoneTimeline::Shear(curve_timeline(k, |v| xy(v, 0.0))),
        BoneTimeline::ShearX(k) => w::BoneTimeline::ShearX(curve_timeline(k, one0)),
        BoneTimeline::ShearY(k) => w::BoneTimeline::ShearY(curve_timeline(k, one0)),
        BoneTimeline::Inherit(k) => w::BoneTimeline::Inherit(
            k.iter()
                .map(|k| w::InheritKey {
                    time: k.time,
                    inherit: k.value.map_or(w::Inherit::Normal, inherit_from_json),
                })
                .collect(),
        ),
    }
}

fn ik_timeline(c: &mut FromJson<'_>, n: &Named<Vec<Key<j1::IkKey>>>) -> Option<w::IkTimeline> {
    let constraint = c.constraint("ik", "IK constraint", &n.name)?;
    let mut bezier_count = 0;
    let keys = n
        .timelines
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let v = &k.value;
            let (bits, mix) = mix_from_json(v.mix);
            let mut flags = bits;
            if v.softness.is_some() {
                flags |= 4;
            }
            if v.bend_positive.unwrap_or(true) {
                flags |= 8;
            }
            if v.compress.unwrap_or(false) {
                flags |= 16;
            }
            if v.stretch.unwrap_or(false) {
                flags |= 32;
            }
            // The curve into this key is the previous key's `curve`.
            let (curve, bezier) = ik_curve_in(i.checked_sub(1).map(|p| &n.timelines[p].curve));
            match curve {
                CurveType::Stepped => flags |= 64,
                CurveType::Bezier => {
                    flags |= 128;
                    bezier_count += 2;
                }
                CurveType::Linear => {}
            }
            w::IkKey { flags, time: k.time, mix, softness: v.softness, bezier }
        })
        .collect();
    Some(w::IkTimeline { constraint, bezier_count, keys })
}

fn transform_timeline(
    c: &mut FromJson<'_>,
    n: &Named<Vec<Key<j::TransformKey>>>,
) -> Option<w::TransformTimeline> {
    let constraint = c.constraint("transform", "transform constraint", &n.name)?;
    let timeline = curve_timeline(&n.timelines, |v: &j::TransformKey| {
        let m = &v.mixes;
        let x = m[1].unwrap_or(1.0);
        [
            m[0].unwrap_or(1.0),
            x,
            m[2].unwrap_or(x),
            m[3].unwrap_or(1.0),
            m[4].unwrap_or(1.0),
            m[5].unwrap_or(1.0),
        ]
    });
    Some(w::TransformTimeline { constraint, timeline })
}

fn path_timelines(
    c: &mut FromJson<'_>,
    n: &Named<Vec<j::PathTimeline>>,
) -> Option<w::PathTimelines> {
    let constraint = c.constraint("path", "path constraint", &n.name)?;
    let timelines = n
        .timelines
        .iter()
        .map(|t| match t {
            j::PathTimeline::Position(k) => {
                w::PathTimeline::Position(curve_timeline(k, |v| one(v, 0.0)))
            }
            j::PathTimeline::Spacing(k) => {
                w::PathTimeline::Spacing(curve_timeline(k, |v| one(v, 0.0)))
            }
            j::PathTimeline::Mix(k) => w::PathTimeline::Mix(curve_timeline(k, |v| {
                let x = v.mix_x.unwrap_or(1.0);
                [v.mix_rotate.unwrap_or(1.0), x, v.mix_y.unwrap_or(x)]
            })),
        })
        .collect();
    Some(w::PathTimelines { constraint, timelines })
}

/// The physics timelines of one constraint (`""`: every constraint).
fn physics_timelines(
    c: &mut FromJson<'_>,
    n: &Named<Vec<PhysicsTimeline>>,
) -> Option<w::PhysicsTimelines> {
    let constraint = if n.name.is_empty() {
        None
    } else {
        Some(c.constraint("physics", "physics constraint", &n.name)?)
    };
    let timelines = n
        .timelines
        .iter()
        .map(|t| match t {
            PhysicsTimeline::Reset(k) => {
                w::PhysicsTimeline::Reset(k.iter().map(|k| k.time).collect())
            }
            PhysicsTimeline::Value(p, k) => {
                let default = if *p == PhysicsProperty::Mix { 1.0 } else { 0.0 };
                w::PhysicsTimeline::Property(
                    physics_prop_from_json(*p),
                    curve_timeline(k, |v| one(v, default)),
                )
            }
        })
        .collect();
    Some(w::PhysicsTimelines { constraint, timelines })
}

fn slider_timelines(
    c: &mut FromJson<'_>,
    n: &Named<Vec<j::SliderTimeline>>,
) -> Option<w::SliderTimelines> {
    let constraint = c.constraint("slider", "slider constraint", &n.name)?;
    let timelines = n
        .timelines
        .iter()
        .map(|t| match t {
            j::SliderTimeline::Time(k) => {
                w::SliderTimeline::Time(curve_timeline(k, |v| one(v, 1.0)))
            }
            j::SliderTimeline::Mix(k) => w::SliderTimeline::Mix(curve_timeline(k, |v| one(v, 1.0))),
        })
        .collect();
    Some(w::SliderTimelines { constraint, timelines })
}

/// The attachment timelines grouped by skin then slot, and how many there are.
fn attachment_timelines(
    c: &mut FromJson<'_>,
    list: &[AttachmentTimelines],
) -> (Vec<w::AttachmentTimelinesSkin>, usize) {
    let mut attachments: Vec<w::AttachmentTimelinesSkin> = Vec::new();
    let mut count = 0;
    for at in list {
        let skin = c.skin(&at.skin);
        let slot = c.slot(&at.slot);
        let attachment = c.strings.get(&at.attachment);
        let si = match attachments.iter().position(|s| s.skin == skin) {
            Some(i) => i,
            None => {
                attachments.push(w::AttachmentTimelinesSkin { skin, slots: Vec::new() });
                attachments.len() - 1
            }
        };
        let sk = &mut attachments[si];
        let li = match sk.slots.iter().position(|s| s.slot == slot) {
            Some(i) => i,
            None => {
                sk.slots.push(w::AttachmentTimelinesSlot { slot, attachments: Vec::new() });
                sk.slots.len() - 1
            }
        };
        for t in &at.timelines {
            let kind = match t {
                AttachmentTimeline::Deform(keys) => w::AttachmentTimelineKind::Deform(deform(keys)),
                AttachmentTimeline::Sequence(keys) => {
                    w::AttachmentTimelineKind::Sequence(sequence_keys(keys))
                }
            };
            sk.slots[li].attachments.push(w::AttachmentTimeline { attachment, kind });
            count += 1;
        }
    }
    (attachments, count)
}

fn deform(keys: &[Key<DeformKey>]) -> w::DeformTimeline {
    let n = keys.len();
    let mut curves = Vec::with_capacity(n.saturating_sub(1));
    let mut beziers = Vec::new();
    for k in keys.iter().take(n.saturating_sub(1)) {
        let (ty, b) = binary_curve(&k.curve, 1);
        curves.push(ty);
        beziers.extend(b);
    }
    w::DeformTimeline {
        bezier_count: beziers.len() as u32,
        keys: keys
            .iter()
            .map(|k| w::DeformKey {
                time: k.time,
                values: k.value.vertices.as_ref().filter(|v| !v.is_empty()).map(|v| {
                    w::DeformValues {
                        start: k.value.offset.unwrap_or(0).max(0) as u32,
                        values: v.clone(),
                    }
                }),
            })
            .collect(),
        curves,
        beziers,
    }
}

fn sequence_keys(keys: &[Key<SequenceKey>]) -> Vec<w::SequenceKey> {
    let delays = delays_from_json(keys.iter().map(|k| k.value.delay));
    keys.iter()
        .zip(delays)
        .map(|(k, delay)| w::SequenceKey {
            time: k.time,
            mode: k.value.mode.map_or(w::SequenceMode::Hold, sequence_mode_from_json),
            index: k.value.index.unwrap_or(0),
            delay,
        })
        .collect()
}

/// Draw order keys; in a folder (`folder`: its slots) a slot is named by its position.
fn draw_order_from_json(
    c: &mut FromJson<'_>,
    keys: &j::DrawOrderKeys,
    folder: Option<&[u32]>,
) -> Vec<w::DrawOrderKey> {
    keys.iter()
        .map(|k| w::DrawOrderKey {
            time: k.time,
            changes: draw_order_changes(k, |o| {
                let global = c.slot(&o.slot);
                match folder {
                    None => global,
                    Some(f) => match f.iter().position(|&s| s == global) {
                        Some(i) => i as u32,
                        None => {
                            c.p.report(ProblemKind::Invalid(format!(
                                "draw order slot {:?} is not in the folder",
                                o.slot
                            )));
                            0
                        }
                    },
                }
            }),
        })
        .collect()
}

/// An event key (`None`, reported, for an unknown event).
fn event_key(c: &mut FromJson<'_>, k: &Key<j1::EventKey>) -> Option<w::EventKey> {
    let Some(&event) = c.events.get(k.value.name.as_str()) else {
        c.p.unknown("event", &k.value.name);
        return None;
    };
    let def = &c.s.events[event as usize];
    let has_audio = def.audio.as_deref().is_some_and(|a| !a.is_empty());
    let def_volume = def.volume.unwrap_or(1.0);
    Some(w::EventKey {
        time: k.time,
        event,
        int_value: k.value.int.unwrap_or(def.int.unwrap_or(0)),
        float_value: k.value.float.unwrap_or(def.float.unwrap_or(0.0)),
        string_value: k.value.string.clone(),
        // The 4.3 loader's default balance is the event's volume.
        volume_balance: has_audio
            .then(|| [k.value.volume.unwrap_or(def_volume), k.value.balance.unwrap_or(def_volume)]),
    })
}
