//! Animations as 4.3 records: the dispatcher [`animation_v43`] and one method per timeline
//! family (bones, slots, attachments, constraints, draw order, events).

use spine_format::binary::shared::CurveType;
use spine_format::binary::v43 as w;
use spine_format::binary::StrRef;

use super::super::draw_order::draw_order_changes;
use super::super::keys::{arr, bytes, keys_of, Keys};
use super::{inherit43, mix43, push_grouped, Locations};
use crate::anim::*;
use crate::convert::common::Strings;
use crate::data::*;
use crate::ids::*;

/// An animation as a 4.3 record (`ne`: write the nonessential color).
pub(super) fn animation_v43(
    d: &SkeletonData,
    a: &AnimationData,
    loc: &Locations,
    strings: &mut Strings,
    ne: bool,
) -> w::Animation {
    let out = w::Animation {
        name: a.name.clone(),
        color: ne.then_some([0; 4]),
        timeline_hint: a.timelines.len() as u32,
        ..Default::default()
    };
    let unwrap = d.behaviour.rotation_mix == RotationMix::Spine3;
    let mut writer = Writer { d, a, loc, strings, unwrap, out };
    for t in &a.timelines {
        writer.timeline(t);
    }
    writer.out
}

/// One animation being written.
struct Writer<'a> {
    d: &'a SkeletonData,
    a: &'a AnimationData,
    loc: &'a Locations,
    strings: &'a mut Strings,
    /// Unwrap 3.x rotation keys (the 3.x shorter-way interpolation).
    unwrap: bool,
    out: w::Animation,
}

impl Writer<'_> {
    /// Writes one timeline into its group.
    fn timeline(&mut self, t: &Timeline) {
        let a = self.a;
        match t {
            Timeline::Bone { bone, property, curves } => {
                let rotate = self.unwrap && *property == BoneProperty::Rotate;
                let t = bone_timeline(*property, &keys_of(a, curves, rotate));
                self.push_bone(bone.0, t);
            }
            Timeline::Inherit { bone, keys } => {
                let keys =
                    keys.iter().map(|&(time, i)| w::InheritKey { time, inherit: inherit43(i) });
                self.push_bone(bone.0, w::BoneTimeline::Inherit(keys.collect()));
            }
            Timeline::Attachment { slot, times, names } => {
                let keys = times.iter().zip(names).map(|(&time, n)| w::AttachmentKey {
                    time,
                    attachment: self.strings.opt(n.as_deref()),
                });
                let t = w::SlotTimeline::Attachment(keys.collect());
                self.push_slot(slot.0, t);
            }
            Timeline::Color { slot, property, curves } => {
                let t = color_timeline(*property, &keys_of(a, curves, false));
                self.push_slot(slot.0, t);
            }
            Timeline::Deform { slot, attachment, curves, vertices } => {
                self.deform(slot.0, *attachment, curves, vertices)
            }
            Timeline::Sequence { slot, attachment, keys } => {
                let keys = keys.iter().map(sequence_key).collect();
                self.push_attachment(slot.0, *attachment, w::AttachmentTimelineKind::Sequence(keys))
            }
            Timeline::Ik { constraint, curves, flags } => {
                let t = ik_timeline(constraint.0, &keys_of(a, curves, false), flags);
                self.out.ik.push(t);
            }
            Timeline::Transform { constraint, curves } => {
                let timeline = keys_of(a, curves, false).timeline(arr::<6>);
                self.out.transform.push(w::TransformTimeline { constraint: constraint.0, timeline })
            }
            Timeline::Path { constraint, property, curves } => {
                let t = path_timeline(*property, &keys_of(a, curves, false));
                self.push_path(constraint.0, t);
            }
            Timeline::Physics { constraint, property, curves } => {
                let timeline = keys_of(a, curves, false).timeline(arr::<1>);
                let t = w::PhysicsTimeline::Property(physics_property(*property), timeline);
                self.push_physics(constraint.map(|c| c.0), t);
            }
            Timeline::PhysicsReset { constraint, times } => {
                self.push_physics(constraint.map(|c| c.0), w::PhysicsTimeline::Reset(times.clone()))
            }
            Timeline::Slider { constraint, property, curves } => {
                let k = keys_of(a, curves, false);
                let t = match property {
                    SliderProperty::Time => w::SliderTimeline::Time(k.timeline(arr::<1>)),
                    SliderProperty::Mix => w::SliderTimeline::Mix(k.timeline(arr::<1>)),
                };
                self.push_slider(constraint.0, t);
            }
            Timeline::DrawOrder { times, orders } => {
                self.out.draw_order = draw_order_keys(times, orders, |s| s.0);
            }
            Timeline::DrawOrderFolder { slots, times, orders } => {
                let folder: Vec<u32> = slots.iter().map(|s| s.0).collect();
                let local = |s: SlotId| folder.iter().position(|f| *f == s.0).unwrap_or(0) as u32;
                let keys = draw_order_keys(times, orders, local);
                self.out.draw_order_folders.push(w::DrawOrderFolder { slots: folder, keys });
            }
            Timeline::Event { keys } => {
                self.out.events = keys.iter().map(|k| event_key(self.d, k)).collect();
            }
        }
    }

    fn push_bone(&mut self, bone: u32, t: w::BoneTimeline) {
        push_grouped(
            &mut self.out.bones,
            bone,
            t,
            |g| (&g.bone, &mut g.timelines),
            |bone, timelines| w::BoneTimelines { bone, timelines },
        );
    }

    fn push_slot(&mut self, slot: u32, t: w::SlotTimeline) {
        push_grouped(
            &mut self.out.slots,
            slot,
            t,
            |g| (&g.slot, &mut g.timelines),
            |slot, timelines| w::SlotTimelines { slot, timelines },
        );
    }

    fn push_path(&mut self, constraint: u32, t: w::PathTimeline) {
        push_grouped(
            &mut self.out.path,
            constraint,
            t,
            |g| (&g.constraint, &mut g.timelines),
            |constraint, timelines| w::PathTimelines { constraint, timelines },
        );
    }

    fn push_slider(&mut self, constraint: u32, t: w::SliderTimeline) {
        push_grouped(
            &mut self.out.slider,
            constraint,
            t,
            |g| (&g.constraint, &mut g.timelines),
            |constraint, timelines| w::SliderTimelines { constraint, timelines },
        );
    }

    fn push_physics(&mut self, constraint: Option<u32>, t: w::PhysicsTimeline) {
        push_grouped(
            &mut self.out.physics,
            constraint,
            t,
            |g| (&g.constraint, &mut g.timelines),
            |constraint, timelines| w::PhysicsTimelines { constraint, timelines },
        );
    }

    /// Adds an attachment timeline under its skin and slot (skipped when the attachment is
    /// in no skin).
    fn push_attachment(&mut self, slot: u32, id: AttachmentId, kind: w::AttachmentTimelineKind) {
        let Some((skin, _, name)) = self.loc.get(&id) else { return };
        let attachment = self.strings.get(name);
        push_attachment(&mut self.out.attachments, *skin, slot, attachment, kind);
    }

    /// A deform timeline: each key as its offsets from the setup vertices (unweighted),
    /// trimmed to the changed range.
    fn deform(&mut self, slot: u32, id: AttachmentId, curves: &Curves, vertices: &[Vec<f32>]) {
        if !self.loc.contains_key(&id) {
            return;
        }
        let setup = match &self.d.attachment(id).kind {
            AttachmentKind::Mesh(m) => &m.vertices,
            AttachmentKind::BoundingBox(b) => &b.vertices,
            AttachmentKind::Path(p) => &p.vertices,
            AttachmentKind::Clipping(c) => &c.vertices,
            _ => return,
        };
        let k = keys_of(self.a, curves, false);
        let keys = k.times.iter().zip(vertices).map(|(&time, v)| deform_key(time, v, setup));
        let keys = keys.collect::<Vec<_>>();
        let mut beziers = Vec::new();
        let curves = k
            .curves
            .iter()
            .map(|(ty, b)| {
                if *ty == CurveType::Bezier {
                    beziers.extend(b.first().copied());
                }
                *ty
            })
            .collect();
        let bezier_count = beziers.len() as u32;
        let timeline = w::DeformTimeline { bezier_count, keys, curves, beziers };
        self.push_attachment(slot, id, w::AttachmentTimelineKind::Deform(timeline));
    }
}

fn bone_timeline(property: BoneProperty, k: &Keys) -> w::BoneTimeline {
    match property {
        BoneProperty::Rotate => w::BoneTimeline::Rotate(k.timeline(arr::<1>)),
        BoneProperty::Translate => w::BoneTimeline::Translate(k.timeline(arr::<2>)),
        BoneProperty::TranslateX => w::BoneTimeline::TranslateX(k.timeline(arr::<1>)),
        BoneProperty::TranslateY => w::BoneTimeline::TranslateY(k.timeline(arr::<1>)),
        BoneProperty::Scale => w::BoneTimeline::Scale(k.timeline(arr::<2>)),
        BoneProperty::ScaleX => w::BoneTimeline::ScaleX(k.timeline(arr::<1>)),
        BoneProperty::ScaleY => w::BoneTimeline::ScaleY(k.timeline(arr::<1>)),
        BoneProperty::Shear => w::BoneTimeline::Shear(k.timeline(arr::<2>)),
        BoneProperty::ShearX => w::BoneTimeline::ShearX(k.timeline(arr::<1>)),
        BoneProperty::ShearY => w::BoneTimeline::ShearY(k.timeline(arr::<1>)),
    }
}

fn color_timeline(property: ColorProperty, k: &Keys) -> w::SlotTimeline {
    match property {
        ColorProperty::Rgba => w::SlotTimeline::Rgba(k.timeline(bytes::<4>)),
        ColorProperty::Rgb => w::SlotTimeline::Rgb(k.timeline(bytes::<3>)),
        ColorProperty::Rgba2 => w::SlotTimeline::Rgba2(k.timeline(bytes::<7>)),
        ColorProperty::Rgb2 => w::SlotTimeline::Rgb2(k.timeline(bytes::<6>)),
        ColorProperty::Alpha => w::SlotTimeline::Alpha(k.timeline(bytes::<1>)),
    }
}

fn path_timeline(property: PathProperty, k: &Keys) -> w::PathTimeline {
    match property {
        PathProperty::Position => w::PathTimeline::Position(k.timeline(arr::<1>)),
        PathProperty::Spacing => w::PathTimeline::Spacing(k.timeline(arr::<1>)),
        PathProperty::Mix => w::PathTimeline::Mix(k.timeline(arr::<3>)),
    }
}

fn physics_property(p: PhysicsProperty) -> w::PhysicsProperty {
    match p {
        PhysicsProperty::Inertia => w::PhysicsProperty::Inertia,
        PhysicsProperty::Strength => w::PhysicsProperty::Strength,
        PhysicsProperty::Damping => w::PhysicsProperty::Damping,
        PhysicsProperty::Mass => w::PhysicsProperty::Mass,
        PhysicsProperty::Wind => w::PhysicsProperty::Wind,
        PhysicsProperty::Gravity => w::PhysicsProperty::Gravity,
        PhysicsProperty::Mix => w::PhysicsProperty::Mix,
    }
}

/// A deform key as its offsets from `setup` (unweighted), trimmed to the changed range.
fn deform_key(time: f32, v: &[f32], setup: &Vertices) -> w::DeformKey {
    let offsets: Vec<f32> = match setup {
        Vertices::Unweighted(xy) => v.iter().zip(xy).map(|(a, b)| a - b).collect(),
        Vertices::Weighted(_) => v.to_vec(),
    };
    let first = offsets.iter().position(|&x| x != 0.0);
    let values = first.map(|s| {
        let e = offsets.iter().rposition(|&x| x != 0.0).unwrap_or(s) + 1;
        w::DeformValues { start: s as u32, values: offsets[s..e].to_vec() }
    });
    w::DeformKey { time, values }
}

fn sequence_key(k: &SequenceKey) -> w::SequenceKey {
    w::SequenceKey {
        time: k.time,
        mode: match k.mode {
            SequenceMode::Hold => w::SequenceMode::Hold,
            SequenceMode::Once => w::SequenceMode::Once,
            SequenceMode::Loop => w::SequenceMode::Loop,
            SequenceMode::PingPong => w::SequenceMode::PingPong,
            SequenceMode::OnceReverse => w::SequenceMode::OnceReverse,
            SequenceMode::LoopReverse => w::SequenceMode::LoopReverse,
            SequenceMode::PingPongReverse => w::SequenceMode::PingPongReverse,
        },
        index: k.index,
        delay: k.delay,
    }
}

/// An IK timeline: per key its mix and softness (`k`'s two channels) and `flags`, the curve
/// of the segment before it in the key's flag bits.
fn ik_timeline(constraint: u32, k: &Keys, flags: &[IkFlags]) -> w::IkTimeline {
    let mut bezier_count = 0;
    let keys = (0..k.times.len())
        .map(|i| {
            let (mix, softness) = (k.values[i][0], k.values[i][1]);
            let f = flags.get(i).copied().unwrap_or(IkFlags {
                bend_direction: 1,
                compress: false,
                stretch: false,
            });
            let mut fl = 0u8;
            let mix = mix43(mix, &mut fl, 1, 2);
            let softness = (softness != 0.0).then_some(softness);
            for (bit, set) in [softness.is_some(), f.bend_direction > 0, f.compress, f.stretch]
                .into_iter()
                .enumerate()
            {
                if set {
                    fl |= 4 << bit;
                }
            }
            let mut bezier = None;
            match i.checked_sub(1).and_then(|before| k.curves.get(before)) {
                Some((CurveType::Stepped, _)) => fl |= 64,
                Some((CurveType::Bezier, b)) => {
                    fl |= 128;
                    bezier_count += 2;
                    let at = |c: usize| b.get(c).copied().unwrap_or_default();
                    bezier = Some([at(0), at(1)]);
                }
                _ => {}
            }
            w::IkKey { flags: fl, time: k.times[i], mix, softness, bezier }
        })
        .collect();
    w::IkTimeline { constraint, bezier_count, keys }
}

/// Draw-order keys as `(slot, offset)` changes; `local` gives a slot's position in the list
/// being reordered.
fn draw_order_keys(
    times: &[f32],
    orders: &[Option<Vec<SlotId>>],
    local: impl Fn(SlotId) -> u32,
) -> Vec<w::DrawOrderKey> {
    let key = |(&time, o): (&f32, &Option<Vec<SlotId>>)| w::DrawOrderKey {
        time,
        changes: o.as_ref().map_or_else(Vec::new, |o| {
            draw_order_changes(&o.iter().map(|&s| local(s)).collect::<Vec<_>>())
        }),
    };
    times.iter().zip(orders).map(key).collect()
}

fn event_key(d: &SkeletonData, k: &EventKey) -> w::EventKey {
    let def = d.event(k.event);
    let audio = !def.audio_path.is_empty();
    w::EventKey {
        time: k.time,
        event: k.event.0,
        int_value: k.int_value,
        float_value: k.float_value,
        string_value: (k.string_value != def.string_value).then(|| k.string_value.clone()),
        volume_balance: audio.then_some([k.volume, k.balance]),
    }
}

/// Adds an attachment timeline under `skin` and `slot`, starting either group when missing.
fn push_attachment(
    list: &mut Vec<w::AttachmentTimelinesSkin>,
    skin: u32,
    slot: u32,
    attachment: StrRef,
    kind: w::AttachmentTimelineKind,
) {
    let si = match list.iter().position(|s| s.skin == skin) {
        Some(i) => i,
        None => {
            list.push(w::AttachmentTimelinesSkin { skin, slots: Vec::new() });
            list.len() - 1
        }
    };
    let slots = &mut list[si].slots;
    let li = match slots.iter().position(|s| s.slot == slot) {
        Some(i) => i,
        None => {
            slots.push(w::AttachmentTimelinesSlot { slot, attachments: Vec::new() });
            slots.len() - 1
        }
    };
    slots[li].attachments.push(w::AttachmentTimeline { attachment, kind });
}
