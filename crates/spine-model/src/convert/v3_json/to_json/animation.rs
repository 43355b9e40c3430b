//! Binary animations as JSON animations: one method per timeline family.

use spine_format::binary::v3_common as c3;
use spine_format::json::{
    self as j, AttachmentTimeline, AttachmentTimelines, BoneTimeline, DeformKey, DrawOrderOffset,
    Key, Named, PathMix, SlotTimeline, TransformMix, TwoColor, Xy,
};

use super::super::values::{keys_to_json, some_if};
use super::{Names, ToJson};

impl<S> ToJson<'_, S> {
    /// An animation (3.x has no physics timelines).
    pub(super) fn animation(&self, a: &c3::Animation<S>) -> j::Animation {
        let v38 = self.v38;
        let ik = a.ik.iter().map(|t| Named {
            name: Names::get(&self.n.ik, t.constraint).into(),
            timelines: keys_to_json(&t.timeline, v38, |k: &c3::IkKey| j::IkKey {
                mix: some_if(k.mix, 1.0),
                softness: (v38 && k.softness != 0.0).then_some(k.softness),
                bend_positive: (k.bend_direction < 0).then_some(false),
                compress: k.compress.then_some(true),
                stretch: k.stretch.then_some(true),
            }),
        });
        let transform = a.transform.iter().map(|t| Named {
            name: Names::get(&self.n.transform, t.constraint).into(),
            timelines: keys_to_json(&t.timeline, v38, |m: &[f32; 4]| TransformMix {
                rotate_mix: Some(m[0]),
                translate_mix: Some(m[1]),
                scale_mix: Some(m[2]),
                shear_mix: Some(m[3]),
                ..TransformMix::default()
            }),
        });
        let path = a.path.iter().map(|p| Named {
            name: Names::get(&self.n.path, p.constraint).into(),
            timelines: p.timelines.iter().map(|t| path_timeline(t, v38)).collect(),
        });
        j::Animation {
            name: a.name.clone(),
            slots: a.slots.iter().map(|st| self.slot_timelines(st)).collect(),
            bones: a.bones.iter().map(|bt| self.bone_timelines(bt)).collect(),
            ik: ik.collect(),
            transform: transform.collect(),
            path: path.collect(),
            physics: Vec::new(),
            attachments: self.deform(&a.deform),
            draw_order: self.draw_order(&a.draw_order),
            events: self.event_keys(&a.events),
        }
    }

    fn slot_timelines(&self, st: &c3::SlotTimelines<S>) -> Named<Vec<SlotTimeline>> {
        let v38 = self.v38;
        let timeline = |t: &c3::SlotTimeline<S>| match t {
            c3::SlotTimeline::Attachment(keys) => SlotTimeline::Attachment(
                keys.iter()
                    .map(|k| Key { time: k.time, curve: None, value: (self.text)(&k.name) })
                    .collect(),
            ),
            c3::SlotTimeline::Color(t) => SlotTimeline::Rgba(keys_to_json(t, v38, |c| *c)),
            c3::SlotTimeline::TwoColor(t) => {
                SlotTimeline::Rgba2(keys_to_json(t, v38, |c: &c3::TwoColor| TwoColor {
                    light: c.light,
                    dark: [c.dark[1], c.dark[2], c.dark[3], 0xff],
                }))
            }
        };
        Named {
            name: Names::get(&self.n.slots, st.slot).into(),
            timelines: st.timelines.iter().map(timeline).collect(),
        }
    }

    fn bone_timelines(&self, bt: &c3::BoneTimelines) -> Named<Vec<BoneTimeline>> {
        let v38 = self.v38;
        let xy = |v: &[f32; 2]| Xy { x: Some(v[0]), y: Some(v[1]) };
        let timeline = |t: &c3::BoneTimeline| match t {
            c3::BoneTimeline::Rotate(t) => BoneTimeline::Rotate(keys_to_json(t, v38, |v| Some(*v))),
            c3::BoneTimeline::Translate(t) => BoneTimeline::Translate(keys_to_json(t, v38, xy)),
            c3::BoneTimeline::Scale(t) => BoneTimeline::Scale(keys_to_json(t, v38, xy)),
            c3::BoneTimeline::Shear(t) => BoneTimeline::Shear(keys_to_json(t, v38, xy)),
        };
        Named {
            name: Names::get(&self.n.bones, bt.bone).into(),
            timelines: bt.timelines.iter().map(timeline).collect(),
        }
    }

    /// The deform timelines, one JSON entry per attachment.
    fn deform(&self, deform: &[c3::DeformSkin<S>]) -> Vec<AttachmentTimelines> {
        let mut attachments = Vec::new();
        for sk in deform {
            for sl in &sk.slots {
                for d in &sl.attachments {
                    let key = |k: &c3::DeformKey| DeformKey {
                        offset: (!k.offsets.is_empty() && k.start != 0).then_some(k.start as i32),
                        vertices: (!k.offsets.is_empty()).then(|| k.offsets.clone()),
                    };
                    let keys = keys_to_json(&d.timeline, self.v38, key);
                    attachments.push(AttachmentTimelines {
                        skin: Names::get(&self.n.skins, sk.skin),
                        slot: Names::get(&self.n.slots, sl.slot),
                        attachment: (self.text)(&d.attachment).unwrap_or_default(),
                        timelines: vec![AttachmentTimeline::Deform(keys)],
                    });
                }
            }
        }
        attachments
    }

    /// The draw-order keys (a key without changes: the setup order, no `offsets`).
    fn draw_order(
        &self,
        keys: &[c3::DrawOrderKey],
    ) -> Option<Vec<Key<Option<Vec<DrawOrderOffset>>>>> {
        let offset = |ch: &spine_format::binary::shared::DrawOrderChange| DrawOrderOffset {
            slot: Names::get(&self.n.slots, ch.slot),
            offset: ch.shift,
        };
        let key = |k: &c3::DrawOrderKey| Key {
            time: k.time,
            curve: None,
            value: (!k.changes.is_empty()).then(|| k.changes.iter().map(offset).collect()),
        };
        (!keys.is_empty()).then(|| keys.iter().map(key).collect())
    }

    /// The event keys (values equal to the event's defaults left out).
    fn event_keys(&self, keys: &[c3::EventKey]) -> Option<Vec<Key<j::EventKey>>> {
        let key = |k: &c3::EventKey| {
            let def = self.events.get(k.event as usize);
            Key {
                time: k.time,
                curve: None,
                value: j::EventKey {
                    name: Names::get(&self.n.events, k.event).into(),
                    int: some_if(k.int, def.map_or(0, |d| d.0)),
                    float: some_if(k.float, def.map_or(0.0, |d| d.1)),
                    string: k.string.clone().map(Option::unwrap_or_default),
                    volume: k.audio.map(|x| x.volume),
                    balance: k.audio.map(|x| x.balance),
                },
            }
        };
        (!keys.is_empty()).then(|| keys.iter().map(key).collect())
    }
}

fn path_timeline(t: &c3::PathTimeline, v38: bool) -> j::PathTimeline {
    match t {
        c3::PathTimeline::Position(t) => {
            j::PathTimeline::Position(keys_to_json(t, v38, |v| Some(*v)))
        }
        c3::PathTimeline::Spacing(t) => {
            j::PathTimeline::Spacing(keys_to_json(t, v38, |v| Some(*v)))
        }
        c3::PathTimeline::Mix(t) => j::PathTimeline::Mix(keys_to_json(t, v38, |m| PathMix {
            rotate_mix: Some(m[0]),
            translate_mix: Some(m[1]),
            ..PathMix::default()
        })),
    }
}
