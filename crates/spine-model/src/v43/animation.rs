//! 4.3 animations: one function per timeline family, [`animation`] dispatching.

use std::sync::Arc;

use spine_format::binary::shared::{Channels, CurveFrames, CurveTimeline, CurveType};
use spine_format::binary::v43 as w;

use super::{inherit, Conv};
use crate::anim::*;
use crate::curves;
use crate::data::*;
use crate::ids::*;
use crate::timelines::{
    check_tables, event_key, ik_table, path_scales, timeline_attachment, vertices_of, DrawOrders,
    EventKeyIn, IkKeyIn,
};

/// The constraint at wire index `index`, checked to be of type `ty`.
fn constraint_ref(c: &mut Conv<'_, '_>, index: u32, ty: ConstraintType) -> ConstraintId {
    let n = c.b.data.constraints.len();
    let i = c.b.check_index("constraint", index, n);
    if i as usize >= n {
        return ConstraintId(0);
    }
    c.b.constraint(ConstraintId(i), ty)
}

/// An animation's keys being built: curve tables are streamed into `pool` (no table built
/// apart and copied), `unchecked` lists the timelines (indices in the animation's list)
/// whose tables saw a value that may not be finite.
#[derive(Default)]
struct Keys {
    /// The animation's timelines.
    tl: Vec<Timeline>,
    /// Every curve table ([`AnimationData::keys`]).
    pool: Vec<f32>,
    /// Scratch for a streamed table.
    scratch: Vec<f32>,
    /// Timelines whose tables may hold a non-finite value.
    unchecked: Vec<usize>,
}

impl Keys {
    /// Records the `at`-th timeline as unchecked when its table may not be finite.
    fn note(&mut self, at: usize, (c, s): (Curves, curves::Streamed)) -> Curves {
        if !s.finite {
            self.unchecked.push(at);
        }
        c
    }

    /// A float curve timeline (values and `cy` times `scale`), the `at`-th timeline.
    fn floats<const N: usize>(&mut self, at: usize, t: &CurveTimeline<[f32; N]>, s: f32) -> Curves
    where
        [f32; N]: Channels<Beziers = [[f32; 4]; N]>,
    {
        let out = curves::KeyOut { keys: &mut self.pool, curves: &mut self.scratch };
        match curves::stream_floats(out, CurveFrames::replay(t), s) {
            Ok(r) => self.note(at, r),
            // A replay reads no input and cannot fail; built apart all the same if it did.
            Err(_) => {
                self.unchecked.push(at);
                curves::floats(t, s).store(&mut self.pool)
            }
        }
    }

    /// A color curve timeline, the `at`-th timeline.
    fn colors<const N: usize>(&mut self, at: usize, t: &CurveTimeline<[u8; N]>) -> Curves
    where
        [u8; N]: Channels<Beziers = [[f32; 4]; N]>,
    {
        let out = curves::KeyOut { keys: &mut self.pool, curves: &mut self.scratch };
        match curves::stream_colors(out, CurveFrames::replay(t)) {
            Ok(r) => self.note(at, r),
            Err(_) => {
                self.unchecked.push(at);
                curves::colors(t).store(&mut self.pool)
            }
        }
    }
}

/// The number of timelines `a` becomes (exact).
fn timeline_count(a: &w::Animation) -> usize {
    a.slots.iter().map(|g| g.timelines.len()).sum::<usize>()
        + a.bones.iter().map(|g| g.timelines.len()).sum::<usize>()
        + a.ik.len()
        + a.transform.len()
        + a.path.iter().map(|g| g.timelines.len()).sum::<usize>()
        + a.physics.iter().map(|g| g.timelines.len()).sum::<usize>()
        + a.slider.iter().map(|g| g.timelines.len()).sum::<usize>()
        + a.attachments.iter().flat_map(|s| &s.slots).map(|s| s.attachments.len()).sum::<usize>()
        + usize::from(!a.draw_order.is_empty())
        + a.draw_order_folders.len()
        + usize::from(!a.events.is_empty())
}

/// Builds one animation, family by family, and adds it to the skeleton.
pub(super) fn animation(c: &mut Conv<'_, '_>, a: &w::Animation) {
    c.b.enter("animation", &a.name);
    let mut k = Keys { tl: Vec::with_capacity(timeline_count(a)), ..Keys::default() };
    for st in &a.slots {
        let slot = c.b.slot(st.slot);
        for t in &st.timelines {
            slot_timeline(c, slot, t, &mut k);
        }
    }
    for bt in &a.bones {
        let bone = c.b.bone(bt.bone);
        for t in &bt.timelines {
            bone_timeline(c, bone, t, &mut k);
        }
    }
    for t in &a.ik {
        ik_timeline(c, t, &mut k);
    }
    for t in &a.transform {
        let constraint = constraint_ref(c, t.constraint, ConstraintType::Transform);
        let curves = k.floats(k.tl.len(), &t.timeline, 1.0);
        k.tl.push(Timeline::Transform { constraint, curves });
    }
    for pt in &a.path {
        path_timelines(c, pt, &mut k);
    }
    for pt in &a.physics {
        physics_timelines(c, pt, &mut k);
    }
    for st in &a.slider {
        slider_timelines(c, st, &mut k);
    }
    for sk in &a.attachments {
        attachment_timelines(c, sk, &mut k);
    }
    draw_orders(c, a, &mut k);
    if !a.events.is_empty() {
        let keys = a.events.iter().map(|e| event_key(&mut c.b, event_in(e))).collect();
        k.tl.push(Timeline::Event { keys });
    }
    // Only the tables that saw a value that may not be finite can report one (in order).
    check_tables(&mut c.b, &k.tl, &k.pool, k.unchecked.iter().copied());
    c.b.pop();
    c.b.data.animations.push(AnimationData {
        name: a.name.clone(),
        duration: a.duration(),
        timelines: k.tl,
        keys: k.pool,
    });
}

/// A slot's attachment or color timeline.
fn slot_timeline(c: &mut Conv<'_, '_>, slot: SlotId, t: &w::SlotTimeline, k: &mut Keys) {
    let at = k.tl.len();
    let (property, curves) = match t {
        w::SlotTimeline::Attachment(keys) => {
            k.tl.push(Timeline::Attachment {
                slot,
                times: keys.iter().map(|k| k.time).collect(),
                names: keys.iter().map(|k| c.text(k.attachment).map(Arc::from)).collect(),
            });
            return;
        }
        w::SlotTimeline::Rgba(t) => (ColorProperty::Rgba, k.colors(at, t)),
        w::SlotTimeline::Rgb(t) => (ColorProperty::Rgb, k.colors(at, t)),
        w::SlotTimeline::Rgba2(t) => (ColorProperty::Rgba2, k.colors(at, t)),
        w::SlotTimeline::Rgb2(t) => (ColorProperty::Rgb2, k.colors(at, t)),
        w::SlotTimeline::Alpha(t) => (ColorProperty::Alpha, k.colors(at, t)),
    };
    k.tl.push(Timeline::Color { slot, property, curves });
}

/// A bone's property or inherit timeline (translations scaled).
fn bone_timeline(c: &mut Conv<'_, '_>, bone: BoneId, t: &w::BoneTimeline, k: &mut Keys) {
    use BoneProperty as P;
    let scale = c.b.scale;
    let at = k.tl.len();
    let (property, curves) = match t {
        w::BoneTimeline::Rotate(t) => (P::Rotate, k.floats(at, t, 1.0)),
        w::BoneTimeline::Translate(t) => (P::Translate, k.floats(at, t, scale)),
        w::BoneTimeline::TranslateX(t) => (P::TranslateX, k.floats(at, t, scale)),
        w::BoneTimeline::TranslateY(t) => (P::TranslateY, k.floats(at, t, scale)),
        w::BoneTimeline::Scale(t) => (P::Scale, k.floats(at, t, 1.0)),
        w::BoneTimeline::ScaleX(t) => (P::ScaleX, k.floats(at, t, 1.0)),
        w::BoneTimeline::ScaleY(t) => (P::ScaleY, k.floats(at, t, 1.0)),
        w::BoneTimeline::Shear(t) => (P::Shear, k.floats(at, t, 1.0)),
        w::BoneTimeline::ShearX(t) => (P::ShearX, k.floats(at, t, 1.0)),
        w::BoneTimeline::ShearY(t) => (P::ShearY, k.floats(at, t, 1.0)),
        w::BoneTimeline::Inherit(keys) => {
            let keys = keys.iter().map(|k| (k.time, inherit(k.inherit))).collect();
            k.tl.push(Timeline::Inherit { bone, keys });
            return;
        }
    };
    k.tl.push(Timeline::Bone { bone, property, curves });
}

/// An IK timeline: mix (0 when the key's mix bit is clear) and softness (scaled, its
/// bezier `cy` too), bend/compress/stretch from the key's flags.
fn ik_timeline(c: &mut Conv<'_, '_>, t: &w::IkTimeline, k: &mut Keys) {
    let constraint = constraint_ref(c, t.constraint, ConstraintType::Ik);
    let beziers = t.keys.iter().filter(|k| k.bezier.is_some()).count() * 2;
    let keys: Vec<IkKeyIn> = t
        .keys
        .iter()
        .map(|k| IkKeyIn {
            time: k.time,
            mix: if k.flags & 1 == 0 { 0.0 } else { k.mix.unwrap_or(1.0) },
            softness: k.softness.unwrap_or(0.0),
            flags: IkFlags {
                bend_direction: k.bend_direction(),
                compress: k.flags & 16 != 0,
                stretch: k.flags & 32 != 0,
            },
            curve: match k.bezier {
                Some(_) => CurveType::Bezier,
                None if k.flags & 64 != 0 => CurveType::Stepped,
                None => CurveType::Linear,
            },
            bezier: k.bezier,
        })
        .collect();
    let (curves, flags) = ik_table(&mut c.b, &keys, beziers, &mut k.pool);
    k.tl.push(Timeline::Ik { constraint, curves, flags });
}

/// A path constraint's timelines (position and spacing scaled by its modes).
fn path_timelines(c: &mut Conv<'_, '_>, pt: &w::PathTimelines, k: &mut Keys) {
    let constraint = constraint_ref(c, pt.constraint, ConstraintType::Path);
    let scales = path_scales(&c.b, constraint);
    for t in &pt.timelines {
        let at = k.tl.len();
        let (property, curves) = match t {
            w::PathTimeline::Position(t) => {
                (PathProperty::Position, k.floats(at, t, scales.position))
            }
            w::PathTimeline::Spacing(t) => (PathProperty::Spacing, k.floats(at, t, scales.spacing)),
            w::PathTimeline::Mix(t) => (PathProperty::Mix, k.floats(at, t, 1.0)),
        };
        k.tl.push(Timeline::Path { constraint, property, curves });
    }
}

/// A physics constraint's timelines (`None` = every physics constraint).
fn physics_timelines(c: &mut Conv<'_, '_>, pt: &w::PhysicsTimelines, k: &mut Keys) {
    let constraint = pt.constraint.map(|i| constraint_ref(c, i, ConstraintType::Physics));
    for t in &pt.timelines {
        match t {
            w::PhysicsTimeline::Property(p, t) => {
                use w::PhysicsProperty as W;
                let property = match p {
                    W::Inertia => PhysicsProperty::Inertia,
                    W::Strength => PhysicsProperty::Strength,
                    W::Damping => PhysicsProperty::Damping,
                    W::Mass => PhysicsProperty::Mass,
                    W::Wind => PhysicsProperty::Wind,
                    W::Gravity => PhysicsProperty::Gravity,
                    W::Mix => PhysicsProperty::Mix,
                };
                let curves = k.floats(k.tl.len(), t, 1.0);
                k.tl.push(Timeline::Physics { constraint, property, curves });
            }
            w::PhysicsTimeline::Reset(times) => {
                k.tl.push(Timeline::PhysicsReset { constraint, times: times.clone() })
            }
        }
    }
}

/// A slider's time and mix timelines.
fn slider_timelines(c: &mut Conv<'_, '_>, st: &w::SliderTimelines, k: &mut Keys) {
    let constraint = constraint_ref(c, st.constraint, ConstraintType::Slider);
    for t in &st.timelines {
        let at = k.tl.len();
        let (property, curves) = match t {
            w::SliderTimeline::Time(t) => (SliderProperty::Time, k.floats(at, t, 1.0)),
            w::SliderTimeline::Mix(t) => (SliderProperty::Mix, k.floats(at, t, 1.0)),
        };
        k.tl.push(Timeline::Slider { constraint, property, curves });
    }
}

/// A skin's deform and sequence timelines, slot by slot.
fn attachment_timelines(c: &mut Conv<'_, '_>, sk: &w::AttachmentTimelinesSkin, k: &mut Keys) {
    let skin_len = c.b.data.skins.len();
    let skin = SkinId(c.b.check_index("skin", sk.skin, skin_len));
    for sl in &sk.slots {
        let slot = c.b.slot(sl.slot);
        for e in &sl.attachments {
            let key = c.text(e.attachment).unwrap_or_default().to_owned();
            let is_deform = matches!(e.kind, w::AttachmentTimelineKind::Deform(_));
            let Some(att) = timeline_attachment(&mut c.b, skin, slot, &key, is_deform) else {
                continue;
            };
            match &e.kind {
                w::AttachmentTimelineKind::Deform(d) => {
                    let (curves, vertices) = deform(c, &key, att, d, k);
                    k.tl.push(Timeline::Deform { slot, attachment: att, curves, vertices });
                }
                w::AttachmentTimelineKind::Sequence(keys) => {
                    let keys = keys
                        .iter()
                        .map(|k| SequenceKey {
                            time: k.time,
                            mode: seq_mode(k.mode),
                            index: k.index,
                            delay: k.delay,
                        })
                        .collect();
                    k.tl.push(Timeline::Sequence { slot, attachment: att, keys });
                }
            }
        }
    }
}

/// A deform timeline's table (times only) and vertices per key.
fn deform(
    c: &mut Conv<'_, '_>,
    key: &str,
    att: AttachmentId,
    d: &w::DeformTimeline,
    k: &mut Keys,
) -> (Curves, Vec<Vec<f32>>) {
    let vertices = vertices_of(&c.b.data.attachments[att.index()].kind);
    let n = d.keys.len();
    let beziers = d.curves.iter().filter(|k| **k == CurveType::Bezier).count();
    let mut curves = CurveBuf::new(0, n, beziers);
    let mut keys = Vec::with_capacity(n);
    c.b.enter("deform", key);
    for (i, k) in d.keys.iter().enumerate() {
        curves.frames.push(k.time);
        let vals = k.values.as_ref().map(|v| (v.start, v.values.as_slice()));
        keys.push(c.b.deform_key(i, &vertices, vals));
    }
    c.b.pop();
    let mut next = 0;
    let mut controls = d.beziers.iter();
    for (i, &curve) in d.curves.iter().enumerate().take(n.saturating_sub(1)) {
        let ctl: Vec<[f32; 4]> = if curve == CurveType::Bezier {
            controls.next().copied().into_iter().collect()
        } else {
            Vec::new()
        };
        curves::segment(&mut curves, &mut next, i, curve, &ctl, 1.0);
    }
    (curves.store(&mut k.pool), keys)
}

/// The draw-order timeline and the draw-order folder timelines (each ordering its own
/// slots).
fn draw_orders(c: &mut Conv<'_, '_>, a: &w::Animation, k: &mut Keys) {
    if !a.draw_order.is_empty() {
        let n = c.b.data.slots.len();
        let (times, orders) = orders(c, n, &a.draw_order, SlotId);
        k.tl.push(Timeline::DrawOrder { times, orders });
    }
    for f in &a.draw_order_folders {
        let slots: Vec<SlotId> = f.slots.iter().map(|&s| c.b.slot(s)).collect();
        let map = slots.clone();
        let (times, orders) =
            orders(c, slots.len(), &f.keys, |i| map.get(i as usize).copied().unwrap_or_default());
        k.tl.push(Timeline::DrawOrderFolder { slots, times, orders });
    }
}

/// Draw-order keys over `n` slots, each resolved index mapped to a slot by `map`.
fn orders(
    c: &mut Conv<'_, '_>,
    n: usize,
    keys: &[w::DrawOrderKey],
    map: impl Fn(u32) -> SlotId,
) -> (Vec<f32>, Vec<Option<Vec<SlotId>>>) {
    let mut out = DrawOrders::new(n, keys.len());
    for (i, k) in keys.iter().enumerate() {
        let changes =
            (!k.changes.is_empty()).then(|| k.changes.iter().map(|ch| (ch.slot, ch.shift)));
        out.push(&mut c.b, (i, k.time), changes, &map);
    }
    (out.times, out.orders)
}

/// An event key's own values.
fn event_in(k: &w::EventKey) -> EventKeyIn {
    EventKeyIn {
        time: k.time,
        event: k.event,
        int_value: k.int_value,
        float_value: k.float_value,
        string: k.string_value.clone(),
        audio: k.volume_balance,
    }
}

/// A sequence timeline's mode.
fn seq_mode(m: w::SequenceMode) -> SequenceMode {
    match m {
        w::SequenceMode::Hold => SequenceMode::Hold,
        w::SequenceMode::Once => SequenceMode::Once,
        w::SequenceMode::Loop => SequenceMode::Loop,
        w::SequenceMode::PingPong => SequenceMode::PingPong,
        w::SequenceMode::OnceReverse => SequenceMode::OnceReverse,
        w::SequenceMode::LoopReverse => SequenceMode::LoopReverse,
        w::SequenceMode::PingPongReverse => SequenceMode::PingPongReverse,
    }
}
