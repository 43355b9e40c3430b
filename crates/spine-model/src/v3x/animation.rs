//! 3.x animations: one function per timeline family, [`animation`] dispatching. Every
//! table is a [`CurveModel::Sampled3x`] one.

use std::sync::Arc;

use spine_format::binary::shared::Keyframe;
use spine_format::binary::v3_common as w;

use super::{Conv, Text};
use crate::anim::*;
use crate::curves::{sampled3x, Curve3};
use crate::data::*;
use crate::error::ProblemKind;
use crate::ids::*;
use crate::timelines::{
    check_tables, event_key, path_scales, timeline_attachment, vertices_of, DrawOrders, EventKeyIn,
};

/// A 3.x wire curve.
fn curve3(c: &w::Curve) -> Curve3 {
    match *c {
        w::Curve::Linear => Curve3::Linear,
        w::Curve::Stepped => Curve3::Stepped,
        w::Curve::Bezier(b) => Curve3::Bezier(b),
    }
}

/// A 3.x wire timeline as a [`CurveModel::Sampled3x`] table (`values` gives the channels),
/// stored in the animation's keys `pool`.
fn table<V>(
    pool: &mut Vec<f32>,
    t: &w::Timeline<V>,
    channels: usize,
    values: impl Fn(&V) -> Vec<f32>,
) -> Curves {
    let curves: Vec<Curve3> = t.curves.iter().map(curve3).collect();
    let keys = t.frames.iter().map(|f: &Keyframe<V>| (f.time, values(&f.value)));
    sampled3x(channels, keys.collect::<Vec<_>>().into_iter(), &curves).store(pool)
}

/// The constraint at index `index` of list `list` (IK, transform, path), of type `ty`.
fn constraint_ref<T>(
    c: &mut Conv<'_, '_, T>,
    list: usize,
    index: u32,
    ty: ConstraintType,
) -> ConstraintId {
    match c.ids[list].get(index as usize).copied() {
        Some(id) => c.b.constraint(id, ty),
        None => {
            let what = ["IK constraint", "transform constraint", "path constraint"][list];
            let len = c.ids[list].len();
            c.b.report(ProblemKind::IndexOutOfRange { what, index: u64::from(index), len });
            ConstraintId(0)
        }
    }
}

/// An animation being built: its timelines and their key pool.
#[derive(Default)]
struct Anim {
    /// The timelines, in file order of their families.
    tl: Vec<Timeline>,
    /// Every curve table of the animation ([`AnimationData::keys`]).
    pool: Vec<f32>,
}

/// Builds one animation, family by family, and adds it to the skeleton.
pub(super) fn animation<S, T: Text<S>>(c: &mut Conv<'_, '_, T>, a: &w::Animation<S>) {
    c.b.enter("animation", &a.name);
    let mut out = Anim::default();
    for st in &a.slots {
        let slot = c.b.slot(st.slot);
        for t in &st.timelines {
            slot_timeline(c, slot, t, &mut out);
        }
    }
    for bt in &a.bones {
        let bone = c.b.bone(bt.bone);
        for t in &bt.timelines {
            bone_timeline(c, bone, t, &mut out);
        }
    }
    for t in &a.ik {
        ik_timeline(c, t, &mut out);
    }
    for t in &a.transform {
        let constraint = constraint_ref(c, 1, t.constraint, ConstraintType::Transform);
        // 3.x rotate, translate, scale, shear → rotate, x, y, scale x, scale y, shear y.
        let curves =
            table(&mut out.pool, &t.timeline, 6, |m| vec![m[0], m[1], m[1], m[2], m[2], m[3]]);
        out.tl.push(Timeline::Transform { constraint, curves });
    }
    for pt in &a.path {
        path_timelines(c, pt, &mut out);
    }
    for sk in &a.deform {
        deform_timelines(c, sk, &mut out);
    }
    if !a.draw_order.is_empty() {
        let mut orders = DrawOrders::new(c.b.data.slots.len(), a.draw_order.len());
        for (i, k) in a.draw_order.iter().enumerate() {
            let changes =
                (!k.changes.is_empty()).then(|| k.changes.iter().map(|ch| (ch.slot, ch.shift)));
            orders.push(&mut c.b, (i, k.time), changes, SlotId);
        }
        out.tl.push(orders.timeline());
    }
    if !a.events.is_empty() {
        let keys = a.events.iter().map(|k| event_key(&mut c.b, event_in(k))).collect();
        out.tl.push(Timeline::Event { keys });
    }
    check_tables(&mut c.b, &out.tl, &out.pool, 0..out.tl.len());
    c.b.pop();
    c.b.data.animations.push(AnimationData {
        name: a.name.clone(),
        duration: a.duration(),
        timelines: out.tl,
        keys: out.pool,
    });
}

/// A byte channel as a `0..=1` value.
fn byte(v: u8) -> f32 {
    f32::from(v) / 255.0
}

/// A slot's attachment, color or two-color timeline.
fn slot_timeline<S, T: Text<S>>(
    c: &mut Conv<'_, '_, T>,
    slot: SlotId,
    t: &w::SlotTimeline<S>,
    out: &mut Anim,
) {
    match t {
        w::SlotTimeline::Attachment(keys) => out.tl.push(Timeline::Attachment {
            slot,
            times: keys.iter().map(|k| k.time).collect(),
            names: keys.iter().map(|k| c.t.text(&k.name).map(Arc::from)).collect(),
        }),
        w::SlotTimeline::Color(t) => out.tl.push(Timeline::Color {
            slot,
            property: ColorProperty::Rgba,
            curves: table(&mut out.pool, t, 4, |v| v.iter().map(|&x| byte(x)).collect()),
        }),
        w::SlotTimeline::TwoColor(t) => out.tl.push(Timeline::Color {
            slot,
            property: ColorProperty::Rgba2,
            curves: table(&mut out.pool, t, 7, |v| {
                let [r, g, b, al] = v.light;
                let [_, dr, dg, db] = v.dark;
                [r, g, b, al, dr, dg, db].iter().map(|&x| byte(x)).collect()
            }),
        }),
    }
}

/// A bone's rotate, translate (scaled), scale or shear timeline.
fn bone_timeline<T>(c: &mut Conv<'_, '_, T>, bone: BoneId, t: &w::BoneTimeline, out: &mut Anim) {
    let scale = c.b.scale;
    let pool = &mut out.pool;
    let (property, curves) = match t {
        w::BoneTimeline::Rotate(t) => (BoneProperty::Rotate, table(pool, t, 1, |v| vec![*v])),
        w::BoneTimeline::Translate(t) => {
            (BoneProperty::Translate, table(pool, t, 2, |v| vec![v[0] * scale, v[1] * scale]))
        }
        w::BoneTimeline::Scale(t) => (BoneProperty::Scale, table(pool, t, 2, |v| v.to_vec())),
        w::BoneTimeline::Shear(t) => (BoneProperty::Shear, table(pool, t, 2, |v| v.to_vec())),
    };
    out.tl.push(Timeline::Bone { bone, property, curves });
}

/// An IK timeline: mix and softness (scaled) curves, bend/compress/stretch per key.
fn ik_timeline<T>(c: &mut Conv<'_, '_, T>, t: &w::IkTimeline, out: &mut Anim) {
    let scale = c.b.scale;
    let constraint = constraint_ref(c, 0, t.constraint, ConstraintType::Ik);
    let curves = table(&mut out.pool, &t.timeline, 2, |k| vec![k.mix, k.softness * scale]);
    let flags = t
        .timeline
        .frames
        .iter()
        .map(|f| IkFlags {
            bend_direction: if f.value.bend_direction < 0 { -1 } else { 1 },
            compress: f.value.compress,
            stretch: f.value.stretch,
        })
        .collect();
    out.tl.push(Timeline::Ik { constraint, curves, flags });
}

/// A path constraint's timelines (position and spacing scaled by its modes; 3.x rotate,
/// translate mixes → rotate, x, y).
fn path_timelines<T>(c: &mut Conv<'_, '_, T>, pt: &w::PathTimelines, out: &mut Anim) {
    let constraint = constraint_ref(c, 2, pt.constraint, ConstraintType::Path);
    let scales = path_scales(&c.b, constraint);
    for t in &pt.timelines {
        let pool = &mut out.pool;
        let (property, curves) = match t {
            w::PathTimeline::Position(t) => {
                let s = scales.position;
                (PathProperty::Position, table(pool, t, 1, |v| vec![v * s]))
            }
            w::PathTimeline::Spacing(t) => {
                let s = scales.spacing;
                (PathProperty::Spacing, table(pool, t, 1, |v| vec![v * s]))
            }
            w::PathTimeline::Mix(t) => {
                (PathProperty::Mix, table(pool, t, 3, |m| vec![m[0], m[1], m[1]]))
            }
        };
        out.tl.push(Timeline::Path { constraint, property, curves });
    }
}

/// A skin's deform (3.x FFD) timelines, slot by slot.
fn deform_timelines<S, T: Text<S>>(c: &mut Conv<'_, '_, T>, sk: &w::DeformSkin<S>, out: &mut Anim) {
    let skin_len = c.b.data.skins.len();
    let skin = SkinId(c.b.check_index("skin", sk.skin, skin_len));
    for sl in &sk.slots {
        let slot = c.b.slot(sl.slot);
        for d in &sl.attachments {
            let key = c.t.text(&d.attachment).unwrap_or_default().to_owned();
            let Some(att) = timeline_attachment(&mut c.b, skin, slot, &key, true) else {
                continue;
            };
            let verts = vertices_of(&c.b.data.attachments[att.index()].kind);
            let curves = table(&mut out.pool, &d.timeline, 0, |_| Vec::new());
            c.b.enter("deform", &key);
            let mut keys = Vec::with_capacity(d.timeline.frames.len());
            for (i, f) in d.timeline.frames.iter().enumerate() {
                let vals = (!f.value.offsets.is_empty())
                    .then_some((f.value.start, f.value.offsets.as_slice()));
                keys.push(c.b.deform_key(i, &verts, vals));
            }
            c.b.pop();
            out.tl.push(Timeline::Deform { slot, attachment: att, curves, vertices: keys });
        }
    }
}

/// An event key's own values (a null string key = the empty string).
fn event_in(k: &w::EventKey) -> EventKeyIn {
    EventKeyIn {
        time: k.time,
        event: k.event,
        int_value: k.int,
        float_value: k.float,
        string: k.string.clone().map(Option::unwrap_or_default),
        audio: k.audio.map(|au| [au.volume, au.balance]),
    }
}
