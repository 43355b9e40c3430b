//! 4.0–4.2 animations: [`AnimSink`] receives each timeline in wire order (streamed from
//! the bytes, or replayed from the AST) and builds the model's timelines.

use spine_format::binary::shared::{CurveFrames, CurveType};
use spine_format::binary::v40::animation as wa;
use spine_format::binary::v40::stream as wst;
use spine_format::binary::StrRef;
use spine_format::BinaryError;

use super::{inherit, Conv};
use crate::anim::*;
use crate::curves;
use crate::data::*;
use crate::error::ProblemKind;
use crate::ids::*;
use crate::timelines::{
    event_key, finish_streamed, ik_table, path_scales, timeline_attachment, vertices_mut,
    DrawOrders, EventKeyIn, IkKeyIn, PathScales, Streamed, TableScratch,
};

/// Builds one [`AnimationData`] from an animation read in wire order (streamed from the
/// bytes by `load_binary`, replayed from the AST by `from_binary`).
pub(super) struct AnimSink<'c, 'a, 'o> {
    /// The conversion.
    c: &'c mut Conv<'a, 'o>,
    /// The animation's name.
    name: spine_format::Name,
    /// Its timelines so far.
    tl: Vec<Timeline>,
    /// The last key time seen.
    duration: f32,
    /// The slot of the current slot group.
    slot: SlotId,
    /// The bone of the current bone group.
    bone: BoneId,
    /// The path constraint of the current path group and how its values scale.
    path: Option<(ConstraintId, PathScales)>,
    /// The physics constraint of the current physics group (`None` = all).
    physics: Option<ConstraintId>,
    /// The skin of the current attachment-timeline group.
    skin: SkinId,
    /// The slot of the current attachment-timeline group.
    attachment_slot: SlotId,
    /// Indices in `tl` of curve tables with a value that may not be finite (checked, in
    /// order, when the animation ends).
    unchecked: Vec<usize>,
    /// The animation's keys ([`AnimationData::keys`]), copied out when it ends (the
    /// buffer is kept for the next animation).
    keys: Vec<f32>,
    /// IK and deform timelines' buffers, reused.
    scratch: TableScratch,
}

impl<'c, 'a, 'o> AnimSink<'c, 'a, 'o> {
    /// A sink building into `c`'s skeleton.
    pub(super) fn new(c: &'c mut Conv<'a, 'o>) -> Self {
        AnimSink {
            c,
            name: spine_format::Name::default(),
            tl: Vec::new(),
            duration: 0.0,
            slot: SlotId(0),
            bone: BoneId(0),
            path: None,
            physics: None,
            skin: SkinId(0),
            attachment_slot: SlotId(0),
            unchecked: Vec::new(),
            keys: Vec::new(),
            scratch: TableScratch::default(),
        }
    }

    /// Room for `floats` keys in the buffer every animation is built in (kept between
    /// animations): one allocation instead of growing it table by table. The caller gives
    /// a bound from the input: a quarter of all the animations' bytes (as many bytes of
    /// memory as the input has), room for the largest animation's keys, more than it needs
    /// when there are several (the buffer holds one animation at a time).
    pub(super) fn reserve_keys(&mut self, floats: usize) {
        self.keys.reserve(floats);
    }

    /// Where a streamed curve table goes.
    fn out(&mut self) -> curves::KeyOut<'_> {
        curves::KeyOut { keys: &mut self.keys }
    }

    /// Extends the duration to `t`.
    fn see(&mut self, t: f32) {
        self.duration = self.duration.max(t);
    }

    /// Adds a streamed curve timeline.
    fn push(&mut self, timeline: Timeline, s: curves::Streamed) {
        self.see(s.last_time);
        if !s.finite {
            self.unchecked.push(self.tl.len());
        }
        self.tl.push(timeline);
    }

    /// Checks the curve tables and adds the animation (after its events).
    pub(super) fn finish(&mut self) {
        let streamed = Streamed {
            name: &mut self.name,
            duration: self.duration,
            timelines: &mut self.tl,
            keys: &mut self.keys,
            unchecked: &mut self.unchecked,
        };
        finish_streamed(&mut self.c.b, streamed);
    }
}

impl wst::AnimationSink for AnimSink<'_, '_, '_> {
    fn begin(&mut self, name: &str, _: u32, capacity: usize) {
        self.c.b.enter("animation", name);
        self.name = name.into();
        // The wire's timeline count (exact for editor exports), capped by the input and by
        // `TIMELINE_RESERVE`.
        self.tl = timeline_list(capacity);
        self.duration = 0.0;
    }

    fn slot_group(&mut self, slot: u32, _: usize) {
        self.slot = self.c.b.slot(slot);
    }

    fn slot_timeline(&mut self, t: wst::SlotTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        use wst::SlotTimelineIn as I;
        let slot = self.slot;
        let (property, (curves, streamed)) = match t {
            I::Attachment(keys) => {
                self.see(keys.last().map_or(0.0, |k| k.time));
                let c = &mut *self.c;
                self.tl.push(Timeline::Attachment {
                    slot,
                    times: keys.iter().map(|k| k.time).collect(),
                    names: keys.iter().map(|k| c.shared(k.name)).collect(),
                });
                return Ok(());
            }
            I::Rgba(f) => (ColorProperty::Rgba, curves::stream_colors(self.out(), f)?),
            I::Rgb(f) => (ColorProperty::Rgb, curves::stream_colors(self.out(), f)?),
            I::Rgba2(f) => (ColorProperty::Rgba2, curves::stream_colors(self.out(), f)?),
            I::Rgb2(f) => (ColorProperty::Rgb2, curves::stream_colors(self.out(), f)?),
            I::Alpha(f) => (ColorProperty::Alpha, curves::stream_colors(self.out(), f)?),
        };
        self.push(Timeline::Color { slot, property, curves }, streamed);
        Ok(())
    }

    fn bone_group(&mut self, bone: u32, _: usize) {
        self.bone = self.c.b.bone(bone);
    }

    fn bone_timeline(&mut self, t: wst::BoneTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        use curves::stream_floats as floats;
        use wst::BoneTimelineIn as I;
        use BoneProperty as P;
        let bone = self.bone;
        let scale = self.c.b.scale;
        let (property, (curves, streamed)) = match t {
            I::Rotate(f) => (P::Rotate, floats(self.out(), f, 1.0)?),
            I::Translate(f) => (P::Translate, floats(self.out(), f, scale)?),
            I::TranslateX(f) => (P::TranslateX, floats(self.out(), f, scale)?),
            I::TranslateY(f) => (P::TranslateY, floats(self.out(), f, scale)?),
            I::Scale(f) => (P::Scale, floats(self.out(), f, 1.0)?),
            I::ScaleX(f) => (P::ScaleX, floats(self.out(), f, 1.0)?),
            I::ScaleY(f) => (P::ScaleY, floats(self.out(), f, 1.0)?),
            I::Shear(f) => (P::Shear, floats(self.out(), f, 1.0)?),
            I::ShearX(f) => (P::ShearX, floats(self.out(), f, 1.0)?),
            I::ShearY(f) => (P::ShearY, floats(self.out(), f, 1.0)?),
            I::Inherit(keys) => {
                self.see(keys.last().map_or(0.0, |k| k.time));
                let keys = keys.iter().map(|k| (k.time, inherit(k.inherit))).collect();
                self.tl.push(Timeline::Inherit { bone, keys });
                return Ok(());
            }
        };
        self.push(Timeline::Bone { bone, property, curves }, streamed);
        Ok(())
    }

    fn ik_timeline(&mut self, t: wa::IkTimeline) {
        self.see(t.keys.last().map_or(0.0, |k| k.time));
        let c = &mut *self.c;
        let constraint = constraint_ref(c, Kind::Ik, t.constraint);
        let beziers = t.keys.iter().filter(|k| k.curve == CurveType::Bezier).count() * 2;
        let keys = &mut self.scratch.ik;
        keys.clear();
        keys.extend(t.keys.iter().map(|k| IkKeyIn {
            time: k.time,
            mix: match k.flags {
                Some(f) if f & 1 == 0 => 0.0,
                _ => k.mix.unwrap_or(1.0),
            },
            softness: k.softness.unwrap_or(0.0),
            flags: IkFlags {
                bend_direction: if k.bend_direction < 0 { -1 } else { 1 },
                compress: k.compress,
                stretch: k.stretch,
            },
            curve: k.curve,
            bezier: k.bezier,
        }));
        let TableScratch { ik, table } = &mut self.scratch;
        let (curves, flags) = ik_table(&mut c.b, ik, beziers, &mut self.keys, table);
        self.tl.push(Timeline::Ik { constraint, curves, flags });
    }

    fn transform_timeline(
        &mut self,
        constraint: u32,
        t: CurveFrames<'_, '_, [f32; 6]>,
    ) -> Result<(), BinaryError> {
        let constraint = constraint_ref(self.c, Kind::Transform, constraint);
        let (curves, streamed) = curves::stream_floats(self.out(), t, 1.0)?;
        self.push(Timeline::Transform { constraint, curves }, streamed);
        Ok(())
    }

    fn path_group(&mut self, constraint: u32, _: usize) {
        let constraint = constraint_ref(self.c, Kind::Path, constraint);
        self.path = Some((constraint, path_scales(&self.c.b, constraint)));
    }

    fn path_timeline(&mut self, t: wst::PathTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        use wst::PathTimelineIn as I;
        let Some((constraint, scales)) = self.path else { return Ok(()) };
        let (property, (curves, streamed)) = match t {
            I::Position(f) => {
                (PathProperty::Position, curves::stream_floats(self.out(), f, scales.position)?)
            }
            I::Spacing(f) => {
                (PathProperty::Spacing, curves::stream_floats(self.out(), f, scales.spacing)?)
            }
            I::Mix(f) => (PathProperty::Mix, curves::stream_floats(self.out(), f, 1.0)?),
        };
        self.push(Timeline::Path { constraint, property, curves }, streamed);
        Ok(())
    }

    fn physics_group(&mut self, constraint: u32, _: usize) {
        self.physics = match constraint {
            0 => None,
            n => Some(constraint_ref(self.c, Kind::Physics, n - 1)),
        };
    }

    fn physics_timeline(&mut self, t: wst::PhysicsTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        let constraint = self.physics;
        match t {
            wst::PhysicsTimelineIn::Value(p, f) => {
                use wa::PhysicsProperty as W;
                let property = match p {
                    W::Inertia => PhysicsProperty::Inertia,
                    W::Strength => PhysicsProperty::Strength,
                    W::Damping => PhysicsProperty::Damping,
                    W::Mass => PhysicsProperty::Mass,
                    W::Wind => PhysicsProperty::Wind,
                    W::Gravity => PhysicsProperty::Gravity,
                    W::Mix => PhysicsProperty::Mix,
                };
                let (curves, streamed) = curves::stream_floats(self.out(), f, 1.0)?;
                self.push(Timeline::Physics { constraint, property, curves }, streamed);
            }
            wst::PhysicsTimelineIn::Reset(times) => {
                self.see(times.last().copied().unwrap_or(0.0));
                self.tl.push(Timeline::PhysicsReset { constraint, times });
            }
        }
        Ok(())
    }

    fn attachment_skin(&mut self, skin: u32, _: usize) {
        let skin_len = self.c.b.data.skins.len();
        self.skin = SkinId(self.c.b.check_index("skin", skin, skin_len));
    }

    fn attachment_slot(&mut self, slot: u32, _: usize) {
        self.attachment_slot = self.c.b.slot(slot);
    }

    fn attachment_timeline(&mut self, attachment: StrRef, timeline: wa::AttachmentTimeline) {
        self.see(timeline.last_time());
        let (skin, slot) = (self.skin, self.attachment_slot);
        let c = &mut *self.c;
        let key = c.text(attachment).unwrap_or_default().to_owned();
        let is_deform = matches!(timeline, wa::AttachmentTimeline::Deform(_));
        let Some(att) = timeline_attachment(&mut c.b, skin, slot, &key, is_deform) else {
            return;
        };
        match timeline {
            wa::AttachmentTimeline::Deform(d) => {
                // Borrowed out of the attachment for the duration (put back below).
                let vertices = vertices_mut(&mut c.b.data.attachments[att.index()].kind)
                    .map(|v| std::mem::replace(v, Vertices::Unweighted(Vec::new())))
                    .unwrap_or(Vertices::Unweighted(Vec::new()));
                let n = d.keys.len();
                let beziers = d.keys.iter().filter(|k| k.curve == CurveType::Bezier).count();
                let curves = &mut self.scratch.table;
                curves.reset(0, n, beziers);
                let mut keys = Vec::with_capacity(n);
                c.b.enter("deform", &key);
                for (i, k) in d.keys.iter().enumerate() {
                    curves.frames.push(k.time);
                    let vals = (!k.values.is_empty()).then_some((k.start, k.values.as_slice()));
                    keys.push(c.b.deform_key(i, &vertices, vals));
                }
                c.b.pop();
                if let Some(v) = vertices_mut(&mut c.b.data.attachments[att.index()].kind) {
                    *v = vertices;
                }
                let mut next = 0;
                for (i, k) in d.keys.iter().enumerate().skip(1) {
                    let ctl = k.bezier.as_slice();
                    curves::segment_of(curves, &mut next, i - 1, k.curve, ctl, 1.0);
                }
                let curves = curves.store(&mut self.keys);
                self.tl.push(Timeline::Deform { slot, attachment: att, curves, vertices: keys });
            }
            wa::AttachmentTimeline::Sequence(keys) => {
                let keys = keys
                    .iter()
                    .map(|k| SequenceKey {
                        time: k.time,
                        mode: seq_mode(k.mode()),
                        index: k.index(),
                        delay: k.delay,
                    })
                    .collect();
                self.tl.push(Timeline::Sequence { slot, attachment: att, keys });
            }
        }
    }

    fn draw_order(&mut self, keys: Vec<wa::DrawOrderKey>) {
        let Some(last) = keys.last() else { return };
        self.see(last.time);
        let mut orders = DrawOrders::new(self.c.b.data.slots.len(), keys.len());
        for (i, k) in keys.iter().enumerate() {
            let changes =
                (!k.changes.is_empty()).then(|| k.changes.iter().map(|ch| (ch.slot, ch.shift)));
            orders.push(&mut self.c.b, (i, k.time), changes, SlotId);
        }
        self.tl.push(orders.timeline());
    }

    fn events(&mut self, events: Vec<wa::EventKey>) {
        let Some(last) = events.last() else { return };
        self.see(last.time);
        let mut keys = Vec::with_capacity(events.len());
        for k in events {
            let k = EventKeyIn {
                time: k.time,
                event: k.event,
                int_value: k.int,
                float_value: k.float,
                string: k.string,
                audio: k.audio,
            };
            keys.push(event_key(&mut self.c.b, k));
        }
        self.tl.push(Timeline::Event { keys });
    }
}

/// A sequence timeline's mode (`None` = hold).
pub(crate) fn seq_mode(m: Option<wa::SequenceMode>) -> SequenceMode {
    use wa::SequenceMode as W;
    match m {
        Some(W::Hold) | None => SequenceMode::Hold,
        Some(W::Once) => SequenceMode::Once,
        Some(W::Loop) => SequenceMode::Loop,
        Some(W::Pingpong) => SequenceMode::PingPong,
        Some(W::OnceReverse) => SequenceMode::OnceReverse,
        Some(W::LoopReverse) => SequenceMode::LoopReverse,
        Some(W::PingpongReverse) => SequenceMode::PingPongReverse,
    }
}

/// Which of the converter's constraint id lists a timeline indexes.
#[derive(Clone, Copy)]
enum Kind {
    /// IK.
    Ik,
    /// Transform.
    Transform,
    /// Path.
    Path,
    /// Physics.
    Physics,
}

/// The constraint at index `index` of the `kind` list, checked to be of that type.
fn constraint_ref(c: &mut Conv<'_, '_>, kind: Kind, index: u32) -> ConstraintId {
    let (ids, ty) = match kind {
        Kind::Ik => (&c.ik, ConstraintType::Ik),
        Kind::Transform => (&c.transform, ConstraintType::Transform),
        Kind::Path => (&c.path, ConstraintType::Path),
        Kind::Physics => (&c.physics, ConstraintType::Physics),
    };
    let len = ids.len();
    match ids.get(index as usize).copied() {
        Some(id) => c.b.constraint(id, ty),
        None => {
            let what = match ty {
                ConstraintType::Ik => "IK constraint",
                ConstraintType::Transform => "transform constraint",
                ConstraintType::Path => "path constraint",
                _ => "physics constraint",
            };
            c.b.report(ProblemKind::IndexOutOfRange { what, index: u64::from(index), len });
            ConstraintId(0)
        }
    }
}
