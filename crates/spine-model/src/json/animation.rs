//! JSON animations: one function per timeline family, [`AnimSink`] dispatching what the
//! animation reader (or a parsed animation's replay) feeds it.

use std::sync::Arc;

use spine_format::json as j;
use spine_format::SpineVersion;

use super::tables::{rgb, table, Vals};
use super::{inherit, Conv};
use crate::anim::*;
use crate::data::*;
use crate::error::ProblemKind;
use crate::ids::*;
use crate::timelines::{check_tables, path_scales, timeline_attachment, vertices_of, DrawOrders};
use crate::v40::seq_mode;

/// An animation being built: its timelines, their key pool and the duration so far. The
/// vectors are reused from one animation to the next (each animation gets exact copies).
#[derive(Default)]
struct Anim {
    /// The timelines, in file order of their families.
    tl: Vec<Timeline>,
    /// Every curve table of the animation ([`AnimationData::keys`]).
    keys: Vec<f32>,
    /// The last key time seen.
    duration: f32,
}

impl Anim {
    /// Extends the duration to `t`.
    fn see(&mut self, t: f32) {
        self.duration = self.duration.max(t);
    }

    /// Stores a curve table in the pool (its last time extends the duration), keeping its
    /// storage for the next table (`Conv::spare`).
    fn store(&mut self, c: &mut Conv<'_, '_>, curves: CurveBuf) -> Curves {
        self.see(curves.last_time());
        let stored = curves.store(&mut self.keys);
        c.spare = curves;
        stored
    }

    /// The time of the last of `keys` (0 when empty), seen.
    fn see_last<V>(&mut self, keys: &[j::Key<V>]) {
        self.see(keys.last().map_or(0.0, |k| k.time));
    }
}

/// Builds animations from what a JSON animation reader (or a parsed animation's replay)
/// feeds it, family by family, and adds each to the skeleton at its end.
pub(super) struct AnimSink<'c, 'a, 'o> {
    c: &'c mut Conv<'a, 'o>,
    out: Anim,
    name: String,
    /// The slot of the current slot group.
    slot: SlotId,
    /// The bone of the current bone group.
    bone: BoneId,
}

impl<'c, 'a, 'o> AnimSink<'c, 'a, 'o> {
    /// A sink adding animations to the skeleton `c` builds.
    pub(super) fn new(c: &'c mut Conv<'a, 'o>) -> Self {
        AnimSink { c, out: Anim::default(), name: String::new(), slot: SlotId(0), bone: BoneId(0) }
    }
}

impl j::AnimationSink for AnimSink<'_, '_, '_> {
    fn begin(&mut self, name: &str) {
        self.c.b.enter("animation", name);
        self.name = name.to_owned();
        self.out.tl.clear();
        self.out.keys.clear();
        self.out.duration = 0.0;
    }
    fn slot(&mut self, name: &str) {
        self.c.b.enter("slot", name);
        self.slot = self.c.slot(name);
    }
    fn slot_timeline(&mut self, t: &j::SlotTimeline) {
        slot_timeline(self.c, self.slot, t, &mut self.out);
    }
    fn slot_end(&mut self) {
        self.c.b.pop();
    }
    fn bone(&mut self, name: &str) {
        self.c.b.enter("bone", name);
        self.bone = self.c.bone(name);
    }
    fn bone_timeline(&mut self, t: &j::BoneTimeline) {
        bone_timeline(self.c, self.bone, t, &mut self.out);
    }
    fn bone_end(&mut self) {
        self.c.b.pop();
    }
    fn ik(&mut self, name: &str, keys: &[j::Key<j::IkKey>]) {
        ik_timeline(self.c, name, keys, &mut self.out);
    }
    fn transform(&mut self, name: &str, keys: &[j::Key<j::TransformMix>]) {
        transform_timeline(self.c, name, keys, &mut self.out);
    }
    fn path(&mut self, name: &str, timelines: &[j::PathTimeline]) {
        path_timelines(self.c, name, timelines, &mut self.out);
    }
    fn physics(&mut self, name: &str, timelines: &[j::PhysicsTimeline]) {
        physics_timelines(self.c, name, timelines, &mut self.out);
    }
    fn attachment(
        &mut self,
        skin: &str,
        slot: &str,
        attachment: &str,
        timelines: &[j::AttachmentTimeline],
    ) {
        attachment_timelines(self.c, [skin, slot, attachment], timelines, &mut self.out);
    }
    fn draw_order(&mut self, keys: &[j::Key<Option<Vec<j::DrawOrderOffset>>>]) {
        draw_order(self.c, keys, &mut self.out);
    }
    fn events(&mut self, keys: &[j::Key<j::EventKey>]) {
        events(self.c, keys, &mut self.out);
    }
    fn end(&mut self) {
        let out = &mut self.out;
        check_tables(&mut self.c.b, &out.tl, &out.keys, 0..out.tl.len());
        self.c.b.pop();
        // Exactly sized copies; the buffers keep their capacity for the next animation.
        let timelines = out.tl.drain(..).collect();
        let keys = out.keys.as_slice().to_vec();
        out.keys.clear();
        let name = std::mem::take(&mut self.name);
        let duration = out.duration;
        self.c.b.data.animations.push(AnimationData {
            name: name.into(),
            duration,
            timelines,
            keys,
        });
    }
}

/// The values of a light and a dark color key (`n` light channels, 3 dark).
fn two_color(v: &j::TwoColor, n: usize) -> Vals {
    let mut o = rgb(v.light, n);
    o.extend(rgb(v.dark, 3).as_slice());
    o
}

/// A slot's attachment or color timeline.
fn slot_timeline(c: &mut Conv<'_, '_>, slot: SlotId, t: &j::SlotTimeline, out: &mut Anim) {
    let (property, mut curves) = match t {
        j::SlotTimeline::Attachment(keys) => {
            out.see_last(keys);
            out.tl.push(Timeline::Attachment {
                slot,
                times: keys.iter().map(|k| k.time).collect(),
                names: keys.iter().map(|k| k.value.as_deref().map(Arc::from)).collect(),
            });
            return;
        }
        j::SlotTimeline::Rgba(k) => (ColorProperty::Rgba, table(c, k, 4, |v| rgb(*v, 4), &[])),
        j::SlotTimeline::Rgb(k) => (ColorProperty::Rgb, table(c, k, 3, |v| rgb(*v, 3), &[])),
        j::SlotTimeline::Alpha(k) => {
            (ColorProperty::Alpha, table(c, k, 1, |v| Vals::of(&[v.unwrap_or(0.0)]), &[]))
        }
        j::SlotTimeline::Rgba2(k) => {
            (ColorProperty::Rgba2, table(c, k, 7, |v| two_color(v, 4), &[]))
        }
        j::SlotTimeline::Rgb2(k) => (ColorProperty::Rgb2, table(c, k, 6, |v| two_color(v, 3), &[])),
    };
    if property == ColorProperty::Rgba2
        && c.s.version >= SpineVersion::V4_0
        && c.s.version < SpineVersion::V4_1
    {
        dark_red_quirk_40(&mut curves);
    }
    let curves = out.store(c, curves);
    out.tl.push(Timeline::Color { slot, property, curves });
}

/// spine-cpp 4.0 SkeletonJson quirk: `setFrame(…, color2.g, color2.g, color2.b)` stores the
/// dark green as the dark red of every key, while the bezier points (built from the key
/// values) keep the right red.
fn dark_red_quirk_40(curves: &mut CurveBuf) {
    let stride = curves.stride();
    for k in 0..curves.frame_count() {
        let g2 = curves.value(k, 5);
        if let Some(r2) = curves.frames.get_mut(k * stride + 5) {
            *r2 = g2;
        }
    }
}

/// A bone's property or inherit timeline (3.5–3.7 `scale` keys default to 0, 3.8+ to 1).
fn bone_timeline(c: &mut Conv<'_, '_>, bone: BoneId, t: &j::BoneTimeline, out: &mut Anim) {
    use j::BoneTimeline as B;
    use BoneProperty as P;
    let scale = c.b.scale;
    let scale_default = if c.s.version >= SpineVersion::V3_8 { 1.0 } else { 0.0 };
    let one = |d: f32, s: f32| move |v: &Option<f32>| Vals::of(&[v.unwrap_or(d) * s]);
    let two =
        |d: f32, s: f32| move |v: &j::Xy| Vals::of(&[v.x.unwrap_or(d) * s, v.y.unwrap_or(d) * s]);
    let (property, curves) = match t {
        B::Rotate(k) => (P::Rotate, table(c, k, 1, one(0.0, 1.0), &[1.0])),
        B::Translate(k) => (P::Translate, table(c, k, 2, two(0.0, scale), &[scale, scale])),
        B::TranslateX(k) => (P::TranslateX, table(c, k, 1, one(0.0, scale), &[scale])),
        B::TranslateY(k) => (P::TranslateY, table(c, k, 1, one(0.0, scale), &[scale])),
        B::Scale(k) => (P::Scale, table(c, k, 2, two(scale_default, 1.0), &[])),
        B::ScaleX(k) => (P::ScaleX, table(c, k, 1, one(1.0, 1.0), &[])),
        B::ScaleY(k) => (P::ScaleY, table(c, k, 1, one(1.0, 1.0), &[])),
        B::Shear(k) => (P::Shear, table(c, k, 2, two(0.0, 1.0), &[])),
        B::ShearX(k) => (P::ShearX, table(c, k, 1, one(0.0, 1.0), &[])),
        B::ShearY(k) => (P::ShearY, table(c, k, 1, one(0.0, 1.0), &[])),
        B::Inherit(keys) => {
            out.see_last(keys);
            let keys = keys.iter().map(|k| (k.time, inherit(k.value))).collect();
            out.tl.push(Timeline::Inherit { bone, keys });
            return;
        }
    };
    let curves = out.store(c, curves);
    out.tl.push(Timeline::Bone { bone, property, curves });
}

/// An IK constraint's timeline: mix and softness curves, bend/compress/stretch per key.
fn ik_timeline(c: &mut Conv<'_, '_>, name: &str, keys: &[j::Key<j::IkKey>], out: &mut Anim) {
    let scale = c.b.scale;
    c.b.enter("IK constraint", name);
    if let Some(constraint) = c.constraint(0, name) {
        let constraint = c.b.constraint(constraint, ConstraintType::Ik);
        let curves = table(
            c,
            keys,
            2,
            |k| Vals::of(&[k.mix.unwrap_or(1.0), k.softness.unwrap_or(0.0) * scale]),
            &[1.0, scale],
        );
        let flags = keys
            .iter()
            .map(|k| IkFlags {
                bend_direction: if k.value.bend_positive.unwrap_or(true) { 1 } else { -1 },
                compress: k.value.compress.unwrap_or(false),
                stretch: k.value.stretch.unwrap_or(false),
            })
            .collect();
        let curves = out.store(c, curves);
        out.tl.push(Timeline::Ik { constraint, curves, flags });
    }
    c.b.pop();
}

/// A transform constraint's six mixes: 3.x rotate, translate (x and y), scale (x and y),
/// shear; 4.x the six, y defaulting to x.
fn transform_mixes(v3: bool, m: &j::TransformMix) -> Vals {
    if v3 {
        let t = m.translate_mix.unwrap_or(1.0);
        let s = m.scale_mix.unwrap_or(1.0);
        Vals::of(&[m.rotate_mix.unwrap_or(1.0), t, t, s, s, m.shear_mix.unwrap_or(1.0)])
    } else {
        let x = m.mix_x.unwrap_or(1.0);
        let sx = m.mix_scale_x.unwrap_or(1.0);
        Vals::of(&[
            m.mix_rotate.unwrap_or(1.0),
            x,
            m.mix_y.unwrap_or(x),
            sx,
            m.mix_scale_y.unwrap_or(sx),
            m.mix_shear_y.unwrap_or(1.0),
        ])
    }
}

/// A transform constraint's timeline.
fn transform_timeline(
    c: &mut Conv<'_, '_>,
    name: &str,
    keys: &[j::Key<j::TransformMix>],
    out: &mut Anim,
) {
    let v3 = c.v3;
    c.b.enter("transform constraint", name);
    if let Some(constraint) = c.constraint(1, name) {
        let constraint = c.b.constraint(constraint, ConstraintType::Transform);
        let curves = table(c, keys, 6, |m| transform_mixes(v3, m), &[]);
        let curves = out.store(c, curves);
        out.tl.push(Timeline::Transform { constraint, curves });
    }
    c.b.pop();
}

/// A path constraint's timelines (position and spacing scaled by its modes; the mixes
/// 3.x rotate, translate as x and y, 4.x rotate, x, y defaulting to x).
fn path_timelines(c: &mut Conv<'_, '_>, name: &str, timelines: &[j::PathTimeline], out: &mut Anim) {
    let v3 = c.v3;
    c.b.enter("path constraint", name);
    if let Some(constraint) = c.constraint(2, name) {
        let constraint = c.b.constraint(constraint, ConstraintType::Path);
        let scales = path_scales(&c.b, constraint);
        for t in timelines {
            let one = |s: f32| move |v: &Option<f32>| Vals::of(&[v.unwrap_or(0.0) * s]);
            let (property, curves) = match t {
                j::PathTimeline::Position(k) => {
                    let s = scales.position;
                    (PathProperty::Position, table(c, k, 1, one(s), &[s]))
                }
                j::PathTimeline::Spacing(k) => {
                    let s = scales.spacing;
                    (PathProperty::Spacing, table(c, k, 1, one(s), &[s]))
                }
                j::PathTimeline::Mix(k) => {
                    let mix = |m: &j::PathMix| {
                        if v3 {
                            let t = m.translate_mix.unwrap_or(1.0);
                            Vals::of(&[m.rotate_mix.unwrap_or(1.0), t, t])
                        } else {
                            let x = m.mix_x.unwrap_or(1.0);
                            Vals::of(&[m.mix_rotate.unwrap_or(1.0), x, m.mix_y.unwrap_or(x)])
                        }
                    };
                    (PathProperty::Mix, table(c, k, 3, mix, &[]))
                }
            };
            let curves = out.store(c, curves);
            out.tl.push(Timeline::Path { constraint, property, curves });
        }
    }
    c.b.pop();
}

/// A physics constraint's timelines (an empty name = every physics constraint).
fn physics_timelines(
    c: &mut Conv<'_, '_>,
    name: &str,
    timelines: &[j::PhysicsTimeline],
    out: &mut Anim,
) {
    c.b.enter("physics constraint", name);
    let constraint = if name.is_empty() {
        None
    } else {
        match c.constraint(3, name) {
            Some(id) => Some(c.b.constraint(id, ConstraintType::Physics)),
            None => {
                c.b.pop();
                return;
            }
        }
    };
    for t in timelines {
        match t {
            j::PhysicsTimeline::Reset(keys) => {
                out.see_last(keys);
                let times = keys.iter().map(|k| k.time).collect();
                out.tl.push(Timeline::PhysicsReset { constraint, times });
            }
            j::PhysicsTimeline::Value(p, k) => {
                use j::PhysicsProperty as W;
                let property = match p {
                    W::Inertia => PhysicsProperty::Inertia,
                    W::Strength => PhysicsProperty::Strength,
                    W::Damping => PhysicsProperty::Damping,
                    W::Mass => PhysicsProperty::Mass,
                    W::Wind => PhysicsProperty::Wind,
                    W::Gravity => PhysicsProperty::Gravity,
                    W::Mix => PhysicsProperty::Mix,
                };
                let curves = table(c, k, 1, |v| Vals::of(&[v.unwrap_or(0.0)]), &[]);
                let curves = out.store(c, curves);
                out.tl.push(Timeline::Physics { constraint, property, curves });
            }
        }
    }
    c.b.pop();
}

/// The deform and sequence timelines of one skin/slot/attachment (named in that order).
fn attachment_timelines(
    c: &mut Conv<'_, '_>,
    [skin_name, slot_name, attachment]: [&str; 3],
    timelines: &[j::AttachmentTimeline],
    out: &mut Anim,
) {
    let skin = c.b.data.skins.iter().position(|s| s.name == skin_name);
    let Some(skin) = skin else {
        c.b.report(ProblemKind::UnknownName { what: "skin", name: skin_name.to_owned() });
        return;
    };
    let Some(slot) = c.lookup("slot", slot_name) else { return };
    let (skin, slot) = (SkinId(skin as u32), SlotId(slot));
    for t in timelines {
        let deform = matches!(t, j::AttachmentTimeline::Deform(_));
        let Some(att) = timeline_attachment(&mut c.b, skin, slot, attachment, deform) else {
            continue;
        };
        match t {
            j::AttachmentTimeline::Deform(keys) => {
                let verts = vertices_of(&c.b.data.attachments[att.index()].kind);
                let curves = table(c, keys, 0, |_| Vals::default(), &[]);
                c.b.enter("deform", attachment);
                let mut vertices = Vec::with_capacity(keys.len());
                for (i, k) in keys.iter().enumerate() {
                    let start = u32::try_from(k.value.offset.unwrap_or(0)).unwrap_or(u32::MAX);
                    let vals = k.value.vertices.as_deref().map(|v| (start, v));
                    vertices.push(c.b.deform_key(i, &verts, vals));
                }
                c.b.pop();
                let curves = out.store(c, curves);
                out.tl.push(Timeline::Deform { slot, attachment: att, curves, vertices });
            }
            j::AttachmentTimeline::Sequence(keys) => {
                out.see_last(keys);
                let keys = sequence_keys(keys);
                out.tl.push(Timeline::Sequence { slot, attachment: att, keys });
            }
        }
    }
}

/// Sequence keys, a key without a delay keeping the previous key's.
fn sequence_keys(keys: &[j::Key<j::SequenceKey>]) -> Vec<SequenceKey> {
    use spine_format::binary::v40::animation::SequenceMode as W;
    let mut delay = 0.0;
    keys.iter()
        .map(|k| {
            delay = k.value.delay.unwrap_or(delay);
            let mode = k.value.mode.map(|m| match m {
                j::SequenceMode::Hold => W::Hold,
                j::SequenceMode::Once => W::Once,
                j::SequenceMode::Loop => W::Loop,
                j::SequenceMode::Pingpong => W::Pingpong,
                j::SequenceMode::OnceReverse => W::OnceReverse,
                j::SequenceMode::LoopReverse => W::LoopReverse,
                j::SequenceMode::PingpongReverse => W::PingpongReverse,
            });
            SequenceKey {
                time: k.time,
                mode: seq_mode(mode),
                index: k.value.index.unwrap_or(0),
                delay,
            }
        })
        .collect()
}

/// The draw-order timeline (slots named; an unknown slot is reported and skipped).
fn draw_order(
    c: &mut Conv<'_, '_>,
    keys: &[j::Key<Option<Vec<j::DrawOrderOffset>>>],
    out: &mut Anim,
) {
    let mut orders = DrawOrders::new(c.b.data.slots.len(), keys.len());
    for (i, k) in keys.iter().enumerate() {
        out.see(k.time);
        let changes = k.value.as_ref().map(|offsets| {
            let mut changes = Vec::with_capacity(offsets.len());
            for o in offsets {
                if let Some(s) = c.lookup("slot", &o.slot) {
                    changes.push((s, o.offset));
                }
            }
            changes
        });
        orders.push(&mut c.b, (i, k.time), changes, SlotId);
    }
    out.tl.push(orders.timeline());
}

/// The event timeline (a key's values default to its event's; audio values only when
/// the event has audio).
fn events(c: &mut Conv<'_, '_>, keys: &[j::Key<j::EventKey>], out: &mut Anim) {
    let mut events = Vec::with_capacity(keys.len());
    for k in keys {
        out.see(k.time);
        let Some(e) = c.lookup("event", &k.value.name) else { continue };
        let d = c.b.data.events[e as usize].clone();
        let audio = !d.audio_path.is_empty()
            || c.s.events.get(e as usize).is_some_and(|x| x.audio.is_some());
        events.push(EventKey {
            time: k.time,
            event: EventId(e),
            int_value: k.value.int.unwrap_or(d.int_value),
            float_value: k.value.float.unwrap_or(d.float_value),
            string_value: k.value.string.clone().unwrap_or(d.string_value),
            volume: if audio { k.value.volume.unwrap_or(d.volume) } else { d.volume },
            balance: if audio { k.value.balance.unwrap_or(d.balance) } else { d.balance },
        });
    }
    out.tl.push(Timeline::Event { keys: events });
}
