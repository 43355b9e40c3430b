//! JSON animations as binary animations: one method per timeline family. Timelines the
//! generation cannot hold (4.x ones, 3.5 two-color ones) are reported.

use spine_format::binary::shared::DrawOrderChange;
use spine_format::binary::v3_common as c3;
use spine_format::json::{
    self as j, AttachmentTimeline, AttachmentTimelines, BoneTimeline, DeformKey, Key, Named,
    PathMix, SlotTimeline, TwoColor, Xy,
};
use spine_format::SpineVersion;

use super::super::values::keys_from_json;
use super::{bend_direction, transform_mixes, FromJson};
use crate::error::ProblemKind;

impl FromJson<'_> {
    /// An animation; `put` makes the generation's strings.
    pub(super) fn animation<S>(
        &mut self,
        a: &j::Animation,
        put: &mut dyn FnMut(Option<&str>) -> S,
    ) -> c3::Animation<S> {
        self.p.enter("animation", &a.name);
        let v38 = self.v38();
        let slots = a.slots.iter().map(|n| self.slot_timelines(n, put)).collect();
        let bones = a.bones.iter().map(|n| self.bone_timelines(n)).collect();
        let mut ik = Vec::new();
        for n in &a.ik {
            let constraint = self.find("IK constraint", &n.name);
            let timeline = keys_from_json(&n.timelines, v38, |k: &j::IkKey| c3::IkKey {
                mix: k.mix.unwrap_or(1.0),
                softness: if v38 { k.softness.unwrap_or(0.0) } else { 0.0 },
                bend_direction: bend_direction(k.bend_positive),
                compress: k.compress.unwrap_or(false),
                stretch: k.stretch.unwrap_or(false),
            });
            ik.push(c3::IkTimeline { constraint, timeline });
        }
        let mut transform = Vec::new();
        for n in &a.transform {
            let constraint = self.find("transform constraint", &n.name);
            let timeline = keys_from_json(&n.timelines, v38, transform_mixes);
            transform.push(c3::TransformTimeline { constraint, timeline });
        }
        let mut path = Vec::new();
        for n in &a.path {
            let constraint = self.find("path constraint", &n.name);
            let timelines = n.timelines.iter().map(|t| path_timeline(t, v38)).collect();
            path.push(c3::PathTimelines { constraint, timelines });
        }
        let deform = self.deform(&a.attachments, put);
        let draw_order = self.draw_order(a.draw_order.iter().flatten());
        let events = self.event_keys(a.events.iter().flatten());
        self.p.pop();
        c3::Animation {
            name: a.name.clone(),
            slots,
            bones,
            ik,
            transform,
            path,
            deform,
            draw_order,
            events,
        }
    }

    fn slot_timelines<S>(
        &mut self,
        n: &Named<Vec<SlotTimeline>>,
        put: &mut dyn FnMut(Option<&str>) -> S,
    ) -> c3::SlotTimelines<S> {
        let v38 = self.v38();
        let slot = self.find("slot", &n.name);
        let mut timelines = Vec::new();
        for t in &n.timelines {
            timelines.push(match t {
                SlotTimeline::Attachment(k) => c3::SlotTimeline::Attachment(
                    k.iter()
                        .map(|k| c3::AttachmentKey { time: k.time, name: put(k.value.as_deref()) })
                        .collect(),
                ),
                SlotTimeline::Rgba(k) => c3::SlotTimeline::Color(keys_from_json(k, v38, |c| *c)),
                SlotTimeline::Rgba2(k) => {
                    if !self.since(SpineVersion::V3_6, "a two-color timeline") {
                        continue;
                    }
                    c3::SlotTimeline::TwoColor(keys_from_json(k, v38, |c: &TwoColor| {
                        c3::TwoColor {
                            light: c.light,
                            dark: [0xff, c.dark[0], c.dark[1], c.dark[2]],
                        }
                    }))
                }
                _ => {
                    self.p.report(ProblemKind::Invalid(
                        "a 4.x slot timeline (rgb, alpha, rgb2) in a 3.x skeleton".into(),
                    ));
                    continue;
                }
            });
        }
        c3::SlotTimelines { slot, timelines }
    }

    fn bone_timelines(&mut self, n: &Named<Vec<BoneTimeline>>) -> c3::BoneTimelines {
        let v38 = self.v38();
        // 3.5–3.7 loaders read a missing scale value as 0, 3.8 as 1.
        let scale_default = if v38 { 1.0 } else { 0.0 };
        let bone = self.find("bone", &n.name);
        let mut timelines = Vec::new();
        for t in &n.timelines {
            let xy = |d: f32| move |v: &Xy| [v.x.unwrap_or(d), v.y.unwrap_or(d)];
            timelines.push(match t {
                BoneTimeline::Rotate(k) => {
                    c3::BoneTimeline::Rotate(keys_from_json(k, v38, |v| v.unwrap_or(0.0)))
                }
                BoneTimeline::Translate(k) => {
                    c3::BoneTimeline::Translate(keys_from_json(k, v38, xy(0.0)))
                }
                BoneTimeline::Scale(k) => {
                    c3::BoneTimeline::Scale(keys_from_json(k, v38, xy(scale_default)))
                }
                BoneTimeline::Shear(k) => c3::BoneTimeline::Shear(keys_from_json(k, v38, xy(0.0))),
                _ => {
                    self.p.report(ProblemKind::Invalid(
                        "a 4.x bone timeline in a 3.x skeleton".into(),
                    ));
                    continue;
                }
            });
        }
        c3::BoneTimelines { bone, timelines }
    }

    /// The deform timelines grouped by skin and slot (other attachment timelines are 4.x).
    fn deform<S>(
        &mut self,
        attachments: &[AttachmentTimelines],
        put: &mut dyn FnMut(Option<&str>) -> S,
    ) -> Vec<c3::DeformSkin<S>> {
        let v38 = self.v38();
        let mut deform: Vec<c3::DeformSkin<S>> = Vec::new();
        for at in attachments {
            let skin = self.find("skin", &at.skin);
            let slot = self.find("slot", &at.slot);
            for t in &at.timelines {
                let AttachmentTimeline::Deform(keys) = t else { continue };
                let timeline = keys_from_json(keys, v38, |k: &DeformKey| match &k.vertices {
                    Some(v) if !v.is_empty() => c3::DeformKey {
                        start: k.offset.unwrap_or(0).max(0) as u32,
                        offsets: v.clone(),
                    },
                    _ => c3::DeformKey { start: 0, offsets: Vec::new() },
                });
                let attachment = put(Some(&at.attachment));
                let si = match deform.iter().position(|d| d.skin == skin) {
                    Some(i) => i,
                    None => {
                        deform.push(c3::DeformSkin { skin, slots: Vec::new() });
                        deform.len() - 1
                    }
                };
                let sk = &mut deform[si];
                let li = match sk.slots.iter().position(|d| d.slot == slot) {
                    Some(i) => i,
                    None => {
                        sk.slots.push(c3::DeformSlot { slot, attachments: Vec::new() });
                        sk.slots.len() - 1
                    }
                };
                sk.slots[li].attachments.push(c3::DeformTimeline { attachment, timeline });
            }
        }
        deform
    }

    fn draw_order<'k>(
        &mut self,
        keys: impl Iterator<Item = &'k Key<Option<Vec<j::DrawOrderOffset>>>>,
    ) -> Vec<c3::DrawOrderKey> {
        keys.map(|k| c3::DrawOrderKey {
            time: k.time,
            changes: k
                .value
                .iter()
                .flatten()
                .map(|o| DrawOrderChange { slot: self.find("slot", &o.slot), shift: o.offset })
                .collect(),
        })
        .collect()
    }

    /// The event keys, the values they leave out taken from the event's definition (audio
    /// from 3.7 on).
    fn event_keys<'k>(
        &mut self,
        keys: impl Iterator<Item = &'k Key<j::EventKey>>,
    ) -> Vec<c3::EventKey> {
        let mut events = Vec::new();
        for k in keys {
            let event = self.find("event", &k.value.name);
            let def = self.s.events.get(event as usize);
            let v35 = self.gen == SpineVersion::V3_5;
            let has_audio =
                !v35 && self.gen >= SpineVersion::V3_7 && def.is_some_and(|d| d.audio.is_some());
            let def_volume = def.and_then(|d| d.volume).unwrap_or(1.0);
            let def_balance = def.and_then(|d| d.balance).unwrap_or(0.0);
            events.push(c3::EventKey {
                time: k.time,
                event,
                int: k.value.int.unwrap_or(def.and_then(|d| d.int).unwrap_or(0)),
                float: k.value.float.unwrap_or(def.and_then(|d| d.float).unwrap_or(0.0)),
                string: k.value.string.clone().map(Some),
                audio: has_audio.then(|| c3::EventAudio {
                    volume: k.value.volume.unwrap_or(def_volume),
                    balance: k.value.balance.unwrap_or(def_balance),
                }),
            });
        }
        events
    }
}

fn path_timeline(t: &j::PathTimeline, v38: bool) -> c3::PathTimeline {
    match t {
        j::PathTimeline::Position(k) => {
            c3::PathTimeline::Position(keys_from_json(k, v38, |v| v.unwrap_or(0.0)))
        }
        j::PathTimeline::Spacing(k) => {
            c3::PathTimeline::Spacing(keys_from_json(k, v38, |v| v.unwrap_or(0.0)))
        }
        j::PathTimeline::Mix(k) => c3::PathTimeline::Mix(keys_from_json(k, v38, |m: &PathMix| {
            [m.rotate_mix.unwrap_or(1.0), m.translate_mix.unwrap_or(1.0)]
        })),
    }
}
