//! Spine 4.3 binary AST ⇄ 4.3 JSON AST, within the version (no semantic change).
//!
//! [`to_json`] names everything the binary indexes and writes the JSON the way the official
//! 4.3 `SkeletonJson` reads it back to the same data: values equal to the JSON default are
//! left out, values whose JSON default differs from the binary's absent value are written
//! explicitly (IK and slider `mix` 0, transform mixes of every written property, physics
//! `inertia`/`damping`, event key `volume`/`balance`), colors stay bytes, the hash becomes the
//! editor's base64 of its 8 bytes, alpha keys become `byte / 255` and the physics inverse mass
//! becomes a `mass` whose inverse rounds back to the same float.
//!
//! [`from_json`] resolves every name (unknown names are reported with the object path) and
//! builds the binary records with the flag bits the values need, deriving what JSON leaves
//! implicit: the string table, the nonessential flag (set when the JSON carries `fps`,
//! `images`, `audio`, or a bone `color`/`icon`/`visible`, or a slot `visible`), mesh
//! `timelineSlots` (from the linked meshes that inherit timelines from another slot, as the
//! loader computes them), bezier counts and timeline-count hints.
//!
//! What one side cannot hold (so a round trip through the other loses it, without effect on
//! the loaded skeleton unless said):
//! * JSON → binary: alpha keys round to bytes (`value × 255`); a clipping attachment without
//!   `end` gets the last slot (clipping to the end of the draw order either way); the default
//!   skin's own `bones`/`constraints`/`color` (the binary default skin has none); a physics
//!   `scaleY: volume` with `scaleX` 0 (the wire sign trick cannot hold it); a hash that is not
//!   the editor's base64 of 8 bytes (written as 0).
//! * binary → JSON: the raw flag bits no field needs (e.g. the curve bits of an IK timeline's
//!   first key), a transform source property without targets and a transform mix of a
//!   property no target writes (the JSON loader drops the one and keeps the other at 0),
//!   a transform source property listed twice (JSON keys are unique: folded into the first
//!   entry, whose targets' offsets absorb the difference, exact unless the constraint clamps;
//!   the editor never writes such a list), a target listed twice for one source (the last
//!   is kept), a timeline written twice for one bone, slot, constraint or attachment in one
//!   animation (the last is kept; binary files apply both in order, so the pose is the same
//!   where the later one replaces the earlier, but the animation's duration can shrink), mesh `timelineSlots` other than those the linked meshes imply (JSON has no field for
//!   them; editor exports have no others), a physics inverse mass that no `f32` mass inverts
//!   to exactly (within 1 ulp), the setup time of a bone-driven slider (JSON reads no `time` with a `bone`;
//!   the bone drives the time), `bezierCount` and timeline-count hints (recomputed).

use std::collections::HashMap;

use spine_format::binary::shared::{CurveType, DrawOrderChange};
use spine_format::binary::v43 as w;
use spine_format::binary::StrRef;
use spine_format::json::{
    self as j1, AttachmentTimeline, AttachmentTimelines, BoneTimeline, DeformKey, DrawOrderOffset,
    EventDef, Key, Named, PhysicsProperty, PhysicsTimeline, SequenceKey, SlotTimeline, TwoColor,
    Xy,
};
use spine_format::json43 as j;

use super::common::*;
use crate::error::{Problem, ProblemKind};

const NO_DARK: [u8; 4] = [0xff; 4];

fn hash_string(h: &w::Header) -> Option<String> {
    if h.hash_low == 0 && h.hash_high == 0 {
        return None;
    }
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut bytes = [0u8; 8];
    bytes[..4].copy_from_slice(&h.hash_low.to_be_bytes());
    bytes[4..].copy_from_slice(&h.hash_high.to_be_bytes());
    let mut out = String::with_capacity(11);
    for chunk in bytes.chunks(3) {
        let mut n = 0u32;
        for (i, &b) in chunk.iter().enumerate() {
            n |= u32::from(b) << (16 - 8 * i);
        }
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
        }
    }
    Some(out)
}

fn some_if<T: PartialEq>(v: T, default: T) -> Option<T> {
    (v != default).then_some(v)
}

fn inherit_to_json(i: w::Inherit) -> j1::Inherit {
    match i {
        w::Inherit::Normal => j1::Inherit::Normal,
        w::Inherit::OnlyTranslation => j1::Inherit::OnlyTranslation,
        w::Inherit::NoRotationOrReflection => j1::Inherit::NoRotationOrReflection,
        w::Inherit::NoScale => j1::Inherit::NoScale,
        w::Inherit::NoScaleOrReflection => j1::Inherit::NoScaleOrReflection,
    }
}

fn inherit_from_json(i: j1::Inherit) -> w::Inherit {
    match i {
        j1::Inherit::Normal => w::Inherit::Normal,
        j1::Inherit::OnlyTranslation => w::Inherit::OnlyTranslation,
        j1::Inherit::NoRotationOrReflection => w::Inherit::NoRotationOrReflection,
        j1::Inherit::NoScale => w::Inherit::NoScale,
        j1::Inherit::NoScaleOrReflection => w::Inherit::NoScaleOrReflection,
    }
}

fn blend_to_json(b: w::BlendMode) -> j1::BlendMode {
    match b {
        w::BlendMode::Normal => j1::BlendMode::Normal,
        w::BlendMode::Additive => j1::BlendMode::Additive,
        w::BlendMode::Multiply => j1::BlendMode::Multiply,
        w::BlendMode::Screen => j1::BlendMode::Screen,
    }
}

fn blend_from_json(b: j1::BlendMode) -> w::BlendMode {
    match b {
        j1::BlendMode::Normal => w::BlendMode::Normal,
        j1::BlendMode::Additive => w::BlendMode::Additive,
        j1::BlendMode::Multiply => w::BlendMode::Multiply,
        j1::BlendMode::Screen => w::BlendMode::Screen,
    }
}

fn scale_y_to_json(m: w::ScaleYMode) -> j::ScaleYMode {
    match m {
        w::ScaleYMode::None => j::ScaleYMode::None,
        w::ScaleYMode::Uniform => j::ScaleYMode::Uniform,
        w::ScaleYMode::Volume => j::ScaleYMode::Volume,
    }
}

fn scale_y_from_json(m: j::ScaleYMode) -> w::ScaleYMode {
    match m {
        j::ScaleYMode::None => w::ScaleYMode::None,
        j::ScaleYMode::Uniform => w::ScaleYMode::Uniform,
        j::ScaleYMode::Volume => w::ScaleYMode::Volume,
    }
}

fn prop_to_json(p: w::TransformProperty) -> j::Property {
    match p {
        w::TransformProperty::Rotate => j::Property::Rotate,
        w::TransformProperty::X => j::Property::X,
        w::TransformProperty::Y => j::Property::Y,
        w::TransformProperty::ScaleX => j::Property::ScaleX,
        w::TransformProperty::ScaleY => j::Property::ScaleY,
        w::TransformProperty::ShearY => j::Property::ShearY,
    }
}

fn prop_from_json(p: j::Property) -> w::TransformProperty {
    match p {
        j::Property::Rotate => w::TransformProperty::Rotate,
        j::Property::X => w::TransformProperty::X,
        j::Property::Y => w::TransformProperty::Y,
        j::Property::ScaleX => w::TransformProperty::ScaleX,
        j::Property::ScaleY => w::TransformProperty::ScaleY,
        j::Property::ShearY => w::TransformProperty::ShearY,
    }
}

fn seq_to_json(s: &Option<w::Sequence>) -> Option<j1::Sequence> {
    s.map(|s| j1::Sequence {
        count: s.count as i32,
        start: some_if(s.start as i32, 1),
        digits: some_if(s.digits as i32, 0),
        setup: some_if(s.setup_index as i32, 0),
    })
}

fn seq_from_json(s: &Option<j1::Sequence>) -> Option<w::Sequence> {
    s.as_ref().map(|s| w::Sequence {
        count: s.count.max(0) as u32,
        start: s.start.unwrap_or(1).max(0) as u32,
        digits: s.digits.unwrap_or(0).max(0) as u32,
        setup_index: s.setup.unwrap_or(0).max(0) as u32,
    })
}

fn sequence_mode_to_json(m: w::SequenceMode) -> j1::SequenceMode {
    use j1::SequenceMode as J;
    use w::SequenceMode as W;
    match m {
        W::Hold => J::Hold,
        W::Once => J::Once,
        W::Loop => J::Loop,
        W::PingPong => J::Pingpong,
        W::OnceReverse => J::OnceReverse,
        W::LoopReverse => J::LoopReverse,
        W::PingPongReverse => J::PingpongReverse,
    }
}

fn sequence_mode_from_json(m: j1::SequenceMode) -> w::SequenceMode {
    use j1::SequenceMode as J;
    use w::SequenceMode as W;
    match m {
        J::Hold => W::Hold,
        J::Once => W::Once,
        J::Loop => W::Loop,
        J::Pingpong => W::PingPong,
        J::OnceReverse => W::OnceReverse,
        J::LoopReverse => W::LoopReverse,
        J::PingpongReverse => W::PingPongReverse,
    }
}

fn physics_prop_to_json(p: w::PhysicsProperty) -> PhysicsProperty {
    match p {
        w::PhysicsProperty::Inertia => PhysicsProperty::Inertia,
        w::PhysicsProperty::Strength => PhysicsProperty::Strength,
        w::PhysicsProperty::Damping => PhysicsProperty::Damping,
        w::PhysicsProperty::Mass => PhysicsProperty::Mass,
        w::PhysicsProperty::Wind => PhysicsProperty::Wind,
        w::PhysicsProperty::Gravity => PhysicsProperty::Gravity,
        w::PhysicsProperty::Mix => PhysicsProperty::Mix,
    }
}

fn physics_prop_from_json(p: PhysicsProperty) -> w::PhysicsProperty {
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

/// A `mass` whose inverse, as the loaders compute it (`1 / mass` in f64, then stored as
/// f32), is exactly `mass_inverse`.
pub(crate) fn mass_of(mass_inverse: f32) -> Option<f32> {
    if !(mass_inverse.is_finite() && mass_inverse != 0.0) {
        return None;
    }
    let back = |m: f32| (1.0 / f64::from(m)) as f32;
    let m0 = (1.0 / f64::from(mass_inverse)) as f32;
    if !m0.is_finite() {
        return None;
    }
    if back(m0) == mass_inverse {
        return Some(m0);
    }
    let mut lo = m0;
    let mut hi = m0;
    for _ in 0..8 {
        lo = f32::from_bits(lo.to_bits().wrapping_sub(1));
        hi = f32::from_bits(hi.to_bits().wrapping_add(1));
        for m in [lo, hi] {
            if m.is_finite() && back(m) == mass_inverse {
                return Some(m);
            }
        }
    }
    Some(m0)
}

/// The inverse of a JSON `mass` as the loaders compute it.
pub(crate) fn mass_inverse_of(mass: f32) -> f32 {
    (1.0 / f64::from(mass)) as f32
}

fn vertices_to_json(v: &w::Vertices) -> Vec<f32> {
    match v {
        w::Vertices::Unweighted(xy) => xy.clone(),
        w::Vertices::Weighted(vs) => {
            let mut out = Vec::with_capacity(vs.counts.len() + vs.bones.len() * 4);
            for (&n, g) in vs.counts.iter().zip(vs.groups()) {
                out.push(n as f32);
                for b in g {
                    out.extend([b.bone as f32, b.x, b.y, b.weight]);
                }
            }
            out
        }
    }
}

// ---------------------------------------------------------------------------------------
// Binary → JSON
// ---------------------------------------------------------------------------------------

struct ToJson<'a> {
    s: &'a w::Skeleton,
    /// Skin names by wire index (the default skin first when present).
    skins: Vec<String>,
}

impl ToJson<'_> {
    fn text(&self, r: StrRef) -> Option<String> {
        r.index().and_then(|i| self.s.strings.get(i)).and_then(|s| s.clone())
    }
    fn bone(&self, i: u32) -> String {
        self.s.bones.get(i as usize).map(|b| b.name.clone()).unwrap_or_default()
    }
    fn slot(&self, i: u32) -> String {
        self.s.slots.get(i as usize).map(|b| b.name.clone()).unwrap_or_default()
    }
    fn bones(&self, list: &[u32]) -> Vec<String> {
        list.iter().map(|&i| self.bone(i)).collect()
    }
    fn constraint(&self, i: u32) -> String {
        self.s.constraints.get(i as usize).map(|c| c.name.clone()).unwrap_or_default()
    }
    fn skin(&self, i: u32) -> String {
        self.skins.get(i as usize).cloned().unwrap_or_default()
    }
}

/// A 4.3 binary skeleton as a 4.3 JSON skeleton that loads to the same data.
pub fn to_json(s: &w::Skeleton) -> j::Skeleton {
    let mut skins = Vec::new();
    if s.default_skin.is_some() {
        skins.push("default".to_owned());
    }
    skins.extend(s.skins.iter().map(|k| k.name.clone()));
    let c = ToJson { s, skins };
    let h = &s.header;
    let ne = h.nonessential.as_ref();
    let info = j::Info {
        hash: hash_string(h),
        spine: Some(h.version.clone()),
        x: Some(h.x),
        y: Some(h.y),
        width: Some(h.width),
        height: Some(h.height),
        reference_scale: some_if(h.reference_scale, 100.0),
        fps: ne.map(|n| n.fps),
        images: ne.and_then(|n| n.images_path.clone()),
        audio: ne.and_then(|n| n.audio_path.clone()),
    };
    let bones = s
        .bones
        .iter()
        .map(|b| {
            let e = b.nonessential.as_ref();
            j::Bone {
                name: b.name.clone(),
                parent: b.parent.map(|p| c.bone(p)),
                length: some_if(b.length, 0.0),
                x: some_if(b.x, 0.0),
                y: some_if(b.y, 0.0),
                rotation: some_if(b.rotation, 0.0),
                scale_x: some_if(b.scale_x, 1.0),
                scale_y: some_if(b.scale_y, 1.0),
                shear_x: some_if(b.shear_x, 0.0),
                shear_y: some_if(b.shear_y, 0.0),
                inherit: some_if(inherit_to_json(b.inherit), j1::Inherit::Normal),
                skin: b.skin_required.then_some(true),
                color: e.map(|e| e.color),
                icon: e.and_then(|e| e.icon.clone()),
                icon_size: e.map(|e| e.icon_size),
                icon_rotation: e.map(|e| e.icon_rotation),
                visible: e.map(|e| e.visible),
            }
        })
        .collect();
    let slots = s
        .slots
        .iter()
        .map(|sl| j::Slot {
            name: sl.name.clone(),
            bone: c.bone(sl.bone),
            color: some_if(sl.color, [0xff; 4]),
            dark: (sl.dark_color != NO_DARK).then(|| {
                let [a, r, g, b] = sl.dark_color;
                [r, g, b, a]
            }),
            attachment: c.text(sl.attachment),
            blend: some_if(blend_to_json(sl.blend), j1::BlendMode::Normal),
            visible: sl.visible,
        })
        .collect();
    let constraints = s.constraints.iter().map(|k| constraint_to_json(&c, k)).collect();
    let mut json_skins = Vec::new();
    if let Some(d) = &s.default_skin {
        json_skins.push(j::Skin {
            name: "default".into(),
            slots: skin_slots_to_json(&c, d),
            ..j::Skin::default()
        });
    }
    for k in &s.skins {
        let mut skin = j::Skin {
            name: k.name.clone(),
            bones: c.bones(&k.bones),
            slots: skin_slots_to_json(&c, &k.slots),
            color: k.color,
            ..j::Skin::default()
        };
        for &ci in &k.constraints {
            let name = c.constraint(ci);
            match s.constraints.get(ci as usize).map(|x| x.kind.constraint_type()) {
                Some(w::ConstraintType::Ik) => skin.ik.push(name),
                Some(w::ConstraintType::Transform) => skin.transform.push(name),
                Some(w::ConstraintType::Path) => skin.path.push(name),
                Some(w::ConstraintType::Physics) => skin.physics.push(name),
                Some(w::ConstraintType::Slider) => skin.slider.push(name),
                None => {}
            }
        }
        json_skins.push(skin);
    }
    let events = s
        .events
        .iter()
        .map(|e| {
            let [volume, balance] = e.volume_balance.unwrap_or([1.0, 0.0]);
            EventDef {
                name: e.name.clone(),
                int: some_if(e.int_value, 0),
                float: some_if(e.float_value, 0.0),
                string: e.string_value.clone(),
                audio: e.audio_path.clone(),
                volume: e.volume_balance.map(|_| volume),
                balance: e.volume_balance.map(|_| balance),
            }
        })
        .collect();
    let animations = s.animations.iter().map(|a| animation_to_json(&c, a)).collect();
    j::Skeleton { info, bones, slots, constraints, skins: json_skins, events, animations }
}

fn constraint_to_json(c: &ToJson<'_>, k: &w::Constraint) -> j::Constraint {
    let (skin, kind) = match &k.kind {
        w::ConstraintKind::Ik(ik) => (
            ik.skin_required(),
            j::ConstraintKind::Ik(j::IkConstraint {
                bones: c.bones(&ik.bones),
                target: c.bone(ik.target),
                scale_y: ik.scale_y_mode.map(scale_y_to_json),
                mix: match (ik.flags & 32 != 0, ik.flags & 64 != 0) {
                    (false, _) => Some(0.0),
                    (true, false) => None,
                    (true, true) => Some(ik.mix.unwrap_or(1.0)),
                },
                softness: ik.softness,
                bend_positive: (ik.bend_direction() < 0).then_some(false),
                compress: ik.compress().then_some(true),
                stretch: ik.stretch().then_some(true),
            }),
        ),
        w::ConstraintKind::Transform(t) => {
            let mut written = [false; 6];
            let mut properties: Vec<j::FromEntry> = Vec::new();
            for f in t.properties.iter().filter(|f| !f.to.is_empty()) {
                let property = prop_to_json(f.property);
                // JSON keys are unique: a source property listed twice is folded into its
                // first entry (its targets' offsets absorb the difference of the source
                // offsets; exact unless the constraint clamps), a target listed twice for
                // one source keeps the last (as `JSON.parse` would).
                let i = match properties.iter().position(|e| e.property == property) {
                    Some(i) => i,
                    None => {
                        properties.push(j::FromEntry {
                            property,
                            offset: some_if(f.offset, 0.0),
                            to: Vec::new(),
                        });
                        properties.len() - 1
                    }
                };
                let entry = &mut properties[i];
                let shift = entry.offset.unwrap_or(0.0) - f.offset;
                for to in &f.to {
                    written[to.property as usize] = true;
                    let to = j::ToEntry {
                        property: prop_to_json(to.property),
                        offset: some_if(to.offset + shift * to.scale, 0.0),
                        max: some_if(to.max, 1.0),
                        scale: some_if(to.scale, 1.0),
                    };
                    match entry.to.iter_mut().find(|x| x.property == to.property) {
                        Some(x) => *x = to,
                        None => entry.to.push(to),
                    }
                }
            }
            let mut mixes = [None; 6];
            for (i, m) in mixes.iter_mut().enumerate() {
                if written[i] {
                    *m = Some(t.mixes[i].unwrap_or(0.0));
                }
            }
            (
                t.skin_required(),
                j::ConstraintKind::Transform(j::TransformConstraint {
                    bones: c.bones(&t.bones),
                    source: c.bone(t.source),
                    local_source: t.local_source().then_some(true),
                    local_target: t.local_target().then_some(true),
                    additive: t.additive().then_some(true),
                    clamp: t.clamp().then_some(true),
                    properties,
                    offsets: t.offsets,
                    mixes,
                }),
            )
        }
        w::ConstraintKind::Path(p) => (
            p.skin_required(),
            j::ConstraintKind::Path(j::PathConstraint {
                bones: c.bones(&p.bones),
                slot: c.slot(p.slot),
                position_mode: match p.position_mode() {
                    w::PositionMode::Fixed => Some(j1::PositionMode::Fixed),
                    w::PositionMode::Percent => None,
                },
                spacing_mode: match p.spacing_mode() {
                    w::SpacingMode::Length => None,
                    w::SpacingMode::Fixed => Some(j1::SpacingMode::Fixed),
                    w::SpacingMode::Percent => Some(j1::SpacingMode::Percent),
                    w::SpacingMode::Proportional => Some(j1::SpacingMode::Proportional),
                },
                rotate_mode: match p.rotate_mode() {
                    w::RotateMode::Tangent => None,
                    w::RotateMode::Chain => Some(j1::RotateMode::Chain),
                    w::RotateMode::ChainScale => Some(j1::RotateMode::ChainScale),
                },
                rotation: p.offset_rotation,
                position: some_if(p.position, 0.0),
                spacing: some_if(p.spacing, 0.0),
                mix_rotate: some_if(p.mix_rotate, 1.0),
                mix_x: some_if(p.mix_x, 1.0),
                mix_y: some_if(p.mix_y, p.mix_x),
            }),
        ),
        w::ConstraintKind::Physics(p) => {
            let (scale_x, mode) = p.scale_x_and_mode();
            let g = p.global_flags;
            let mut global = [None; 7];
            for (i, x) in global.iter_mut().enumerate() {
                *x = (g & (1 << i) != 0).then_some(true);
            }
            (
                p.skin_required(),
                j::ConstraintKind::Physics(j::PhysicsConstraint {
                    bone: c.bone(p.bone),
                    x: p.x,
                    y: p.y,
                    rotate: p.rotate,
                    scale_x: p.scale_x.map(|_| scale_x),
                    scale_y: some_if(scale_y_to_json(mode), j::ScaleYMode::None),
                    shear_x: p.shear_x,
                    limit: p.limit,
                    fps: some_if(f32::from(p.fps), 60.0),
                    inertia: Some(p.inertia),
                    strength: Some(p.strength),
                    damping: Some(p.damping),
                    mass: p.mass_inverse.and_then(mass_of),
                    wind: some_if(p.wind, 0.0),
                    gravity: some_if(p.gravity, 0.0),
                    mix: p.mix,
                    global,
                }),
            )
        }
        w::ConstraintKind::Slider(sl) => {
            let ne = c.s.nonessential();
            let bone = sl.bone.as_ref().map(|b| j::SliderBone {
                bone: c.bone(b.bone),
                property: Some(prop_to_json(b.property)),
                from: some_if(b.property_offset, 0.0),
                to: some_if(b.offset, 0.0),
                scale: some_if(b.scale, 1.0),
                max: if ne { sl.value } else { None },
                local: sl.local().then_some(true),
            });
            (
                sl.skin_required(),
                j::ConstraintKind::Slider(j::SliderConstraint {
                    additive: sl.additive().then_some(true),
                    looping: sl.looping().then_some(true),
                    mix: match (sl.flags & 16 != 0, sl.flags & 32 != 0) {
                        (false, _) => Some(0.0),
                        (true, false) => None,
                        (true, true) => Some(sl.mix.unwrap_or(1.0)),
                    },
                    time: if bone.is_none() { sl.value } else { None },
                    bone,
                    animation: c
                        .s
                        .animations
                        .get(sl.animation as usize)
                        .map(|a| a.name.clone())
                        .unwrap_or_default(),
                }),
            )
        }
    };
    j::Constraint { name: k.name.clone(), skin: skin.then_some(true), kind }
}

fn skin_slots_to_json(c: &ToJson<'_>, slots: &[w::SkinSlot]) -> Vec<j::SkinSlot> {
    slots
        .iter()
        .map(|sl| j::SkinSlot {
            slot: c.slot(sl.slot),
            attachments: sl.attachments.iter().map(|e| attachment_to_json(c, sl.slot, e)).collect(),
        })
        .collect()
}

fn attachment_to_json(c: &ToJson<'_>, slot: u32, e: &w::SkinEntry) -> j::Attachment {
    use j1::AttachmentType as T;
    let a = &e.attachment;
    let key = c.text(e.placeholder).unwrap_or_default();
    let (declared_type, kind) = match &a.kind {
        w::AttachmentKind::Region(r) => (
            None,
            j::AttachmentKind::Region {
                path: r.path.and_then(|p| c.text(p)),
                x: some_if(r.x, 0.0),
                y: some_if(r.y, 0.0),
                scale_x: some_if(r.scale_x, 1.0),
                scale_y: some_if(r.scale_y, 1.0),
                rotation: r.rotation,
                width: r.width,
                height: r.height,
                color: r.color,
                sequence: seq_to_json(&r.sequence),
            },
        ),
        w::AttachmentKind::BoundingBox(b) => (
            Some(T::BoundingBox),
            j::AttachmentKind::BoundingBox {
                vertex_count: b.vertices.vertex_count() as u32,
                vertices: vertices_to_json(&b.vertices),
                color: b.color,
            },
        ),
        w::AttachmentKind::Mesh(m) => (
            Some(T::Mesh),
            j::AttachmentKind::Mesh {
                path: m.path.and_then(|p| c.text(p)),
                color: m.color,
                width: m.nonessential.as_ref().map(|e| e.width),
                height: m.nonessential.as_ref().map(|e| e.height),
                sequence: seq_to_json(&m.sequence),
                uvs: m.uvs.clone(),
                vertices: vertices_to_json(&m.vertices),
                triangles: m.triangles.clone(),
                hull: Some(m.hull_length),
                edges: m.nonessential.as_ref().map(|e| e.edges.clone()),
            },
        ),
        w::AttachmentKind::LinkedMesh(l) => (
            Some(T::LinkedMesh),
            j::AttachmentKind::LinkedMesh {
                path: l.path.and_then(|p| c.text(p)),
                color: l.color,
                width: l.size.map(|s| s[0]),
                height: l.size.map(|s| s[1]),
                sequence: seq_to_json(&l.sequence),
                source: c.text(l.source).unwrap_or_default(),
                slot: (l.source_slot != slot).then(|| c.slot(l.source_slot)),
                skin: {
                    let default = c.s.default_skin.is_some() && l.skin == 0;
                    (!default).then(|| c.skin(l.skin))
                },
                timelines: (a.flags & 128 == 0).then_some(false),
            },
        ),
        w::AttachmentKind::Path(p) => (
            Some(T::Path),
            j::AttachmentKind::Path {
                closed: (a.flags & 16 != 0).then_some(true),
                constant_speed: (a.flags & 32 == 0).then_some(false),
                vertex_count: p.vertices.vertex_count() as u32,
                vertices: vertices_to_json(&p.vertices),
                lengths: p.lengths.clone(),
                color: p.color,
            },
        ),
        w::AttachmentKind::Point(p) => (
            Some(T::Point),
            j::AttachmentKind::Point {
                x: some_if(p.x, 0.0),
                y: some_if(p.y, 0.0),
                rotation: some_if(p.rotation, 0.0),
                color: p.color,
            },
        ),
        w::AttachmentKind::Clipping(k) => (
            Some(T::Clipping),
            j::AttachmentKind::Clipping {
                end: Some(c.slot(k.end_slot)),
                convex: (a.flags & 32 != 0).then_some(true),
                inverse: (a.flags & 64 != 0).then_some(true),
                vertex_count: k.vertices.vertex_count() as u32,
                vertices: vertices_to_json(&k.vertices),
                color: k.color,
            },
        ),
    };
    j::Attachment { key, name: a.name.and_then(|n| c.text(n)), declared_type, kind }
}

fn rgba(v: &[u8; 4]) -> [u8; 4] {
    *v
}

fn animation_to_json(c: &ToJson<'_>, a: &w::Animation) -> j::Animation {
    let slots = a
        .slots
        .iter()
        .map(|st| Named {
            name: c.slot(st.slot),
            timelines: st
                .timelines
                .iter()
                .map(|t| match t {
                    w::SlotTimeline::Attachment(keys) => SlotTimeline::Attachment(
                        keys.iter()
                            .map(|k| Key { time: k.time, curve: None, value: c.text(k.attachment) })
                            .collect(),
                    ),
                    w::SlotTimeline::Rgba(t) => SlotTimeline::Rgba(curve_keys(t, rgba)),
                    w::SlotTimeline::Rgb(t) => {
                        SlotTimeline::Rgb(curve_keys(t, |v| [v[0], v[1], v[2], 0xff]))
                    }
                    w::SlotTimeline::Rgba2(t) => SlotTimeline::Rgba2(curve_keys(t, |v| TwoColor {
                        light: [v[0], v[1], v[2], v[3]],
                        dark: [v[4], v[5], v[6], 0xff],
                    })),
                    w::SlotTimeline::Rgb2(t) => SlotTimeline::Rgb2(curve_keys(t, |v| TwoColor {
                        light: [v[0], v[1], v[2], 0xff],
                        dark: [v[3], v[4], v[5], 0xff],
                    })),
                    w::SlotTimeline::Alpha(t) => {
                        SlotTimeline::Alpha(curve_keys(t, |v| Some(f32::from(v[0]) / 255.0)))
                    }
                })
                .collect(),
        })
        .collect();
    let zero = |v: &[f32; 1]| some_if(v[0], 0.0);
    let unit = |v: &[f32; 1]| some_if(v[0], 1.0);
    let xy0 = |v: &[f32; 2]| Xy { x: some_if(v[0], 0.0), y: some_if(v[1], 0.0) };
    let xy1 = |v: &[f32; 2]| Xy { x: some_if(v[0], 1.0), y: some_if(v[1], 1.0) };
    let bones = a
        .bones
        .iter()
        .map(|bt| Named {
            name: c.bone(bt.bone),
            timelines: bt
                .timelines
                .iter()
                .map(|t| match t {
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
                })
                .collect(),
        })
        .collect();
    let ik =
        a.ik.iter()
            .map(|t| {
                let n = t.keys.len();
                let timelines = (0..n)
                    .map(|i| {
                        let k = &t.keys[i];
                        // The transition to the next key is in the next key's flags.
                        let curve = t.keys.get(i + 1).and_then(|next| {
                            if next.flags & 64 != 0 {
                                Some(j1::Curve::Stepped)
                            } else if next.flags & 128 != 0 {
                                let b = next.bezier.unwrap_or_default();
                                Some(j1::Curve::Bezier(b.iter().flatten().copied().collect()))
                            } else {
                                None
                            }
                        });
                        let mix = match (k.flags & 1 != 0, k.flags & 2 != 0) {
                            (false, _) => Some(0.0),
                            (true, false) => None,
                            (true, true) => Some(k.mix.unwrap_or(1.0)),
                        };
                        Key {
                            time: k.time,
                            curve,
                            value: j1::IkKey {
                                mix,
                                softness: k.softness,
                                bend_positive: (k.bend_direction() < 0).then_some(false),
                                compress: (k.flags & 16 != 0).then_some(true),
                                stretch: (k.flags & 32 != 0).then_some(true),
                            },
                        }
                    })
                    .collect();
                Named { name: c.constraint(t.constraint), timelines }
            })
            .collect();
    let transform = a
        .transform
        .iter()
        .map(|t| Named {
            name: c.constraint(t.constraint),
            timelines: curve_keys(&t.timeline, |v| {
                let mut mixes = [None; 6];
                for i in 0..6 {
                    let default = if i == 2 { v[1] } else { 1.0 };
                    mixes[i] = some_if(v[i], default);
                }
                j::TransformKey { mixes }
            }),
        })
        .collect();
    let path = a
        .path
        .iter()
        .map(|p| Named {
            name: c.constraint(p.constraint),
            timelines: p
                .timelines
                .iter()
                .map(|t| match t {
                    w::PathTimeline::Position(t) => {
                        j::PathTimeline::Position(curve_keys(t, |v| some_if(v[0], 0.0)))
                    }
                    w::PathTimeline::Spacing(t) => {
                        j::PathTimeline::Spacing(curve_keys(t, |v| some_if(v[0], 0.0)))
                    }
                    w::PathTimeline::Mix(t) => {
                        j::PathTimeline::Mix(curve_keys(t, |v| j::PathMixKey {
                            mix_rotate: some_if(v[0], 1.0),
                            mix_x: some_if(v[1], 1.0),
                            mix_y: some_if(v[2], v[1]),
                        }))
                    }
                })
                .collect(),
        })
        .collect();
    let physics = a
        .physics
        .iter()
        .map(|p| Named {
            name: p.constraint.map(|i| c.constraint(i)).unwrap_or_default(),
            timelines: p
                .timelines
                .iter()
                .map(|t| match t {
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
                })
                .collect(),
        })
        .collect();
    let slider = a
        .slider
        .iter()
        .map(|p| Named {
            name: c.constraint(p.constraint),
            timelines: p
                .timelines
                .iter()
                .map(|t| match t {
                    w::SliderTimeline::Time(t) => {
                        j::SliderTimeline::Time(curve_keys(t, |v| some_if(v[0], 1.0)))
                    }
                    w::SliderTimeline::Mix(t) => {
                        j::SliderTimeline::Mix(curve_keys(t, |v| some_if(v[0], 1.0)))
                    }
                })
                .collect(),
        })
        .collect();
    let mut attachments: Vec<AttachmentTimelines> = Vec::new();
    for sk in &a.attachments {
        for sl in &sk.slots {
            for at in &sl.attachments {
                let skin = c.skin(sk.skin);
                let slot = c.slot(sl.slot);
                let attachment = c.text(at.attachment).unwrap_or_default();
                let t = match &at.kind {
                    w::AttachmentTimelineKind::Deform(d) => {
                        let n = d.keys.len();
                        let mut bezier = 0;
                        let keys = d
                            .keys
                            .iter()
                            .enumerate()
                            .map(|(i, k)| {
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
                                Key {
                                    time: k.time,
                                    curve,
                                    value: DeformKey {
                                        offset: k
                                            .values
                                            .as_ref()
                                            .and_then(|v| some_if(v.start as i32, 0)),
                                        vertices: k.values.as_ref().map(|v| v.values.clone()),
                                    },
                                }
                            })
                            .collect();
                        AttachmentTimeline::Deform(keys)
                    }
                    w::AttachmentTimelineKind::Sequence(keys) => {
                        let mut last_delay = 0.0;
                        AttachmentTimeline::Sequence(
                            keys.iter()
                                .map(|k| {
                                    let delay = some_if(k.delay, last_delay);
                                    last_delay = k.delay;
                                    Key {
                                        time: k.time,
                                        curve: None,
                                        value: SequenceKey {
                                            mode: some_if(
                                                sequence_mode_to_json(k.mode),
                                                j1::SequenceMode::Hold,
                                            ),
                                            index: some_if(k.index, 0),
                                            delay,
                                        },
                                    }
                                })
                                .collect(),
                        )
                    }
                };
                match attachments
                    .iter_mut()
                    .find(|x| x.skin == skin && x.slot == slot && x.attachment == attachment)
                {
                    Some(x) => x.timelines.push(t),
                    None => attachments.push(AttachmentTimelines {
                        skin,
                        slot,
                        attachment,
                        timelines: vec![t],
                    }),
                }
            }
        }
    }
    let order = |keys: &[w::DrawOrderKey], names: &dyn Fn(u32) -> String| {
        keys.iter()
            .map(|k| Key {
                time: k.time,
                curve: None,
                value: (!k.changes.is_empty()).then(|| {
                    k.changes
                        .iter()
                        .map(|ch| DrawOrderOffset { slot: names(ch.slot), offset: ch.shift })
                        .collect()
                }),
            })
            .collect::<Vec<_>>()
    };
    let draw_order = (!a.draw_order.is_empty()).then(|| order(&a.draw_order, &|i| c.slot(i)));
    let draw_order_folders = a
        .draw_order_folders
        .iter()
        .map(|f| j::DrawOrderFolder {
            slots: f.slots.iter().map(|&i| c.slot(i)).collect(),
            keys: order(&f.keys, &|i| {
                f.slots.get(i as usize).map(|&s| c.slot(s)).unwrap_or_default()
            }),
        })
        .collect();
    let events = (!a.events.is_empty()).then(|| {
        a.events
            .iter()
            .map(|k| {
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
            })
            .collect()
    });
    // JSON keys are unique: a bone, slot or constraint listed twice is one object, and a
    // timeline type written twice for it keeps the last (see the module docs).
    for at in &mut attachments {
        let list = std::mem::take(&mut at.timelines);
        at.timelines = last_wins(list.into_iter().map(|t| (std::mem::discriminant(&t), t)));
    }
    j::Animation {
        name: a.name.clone(),
        slots: merge_named(slots, std::mem::discriminant),
        bones: merge_named(bones, std::mem::discriminant),
        ik: unique_named(ik),
        transform: unique_named(transform),
        path: merge_named(path, std::mem::discriminant),
        physics: merge_named(physics, |t| match t {
            PhysicsTimeline::Value(p, _) => Some(*p as u8),
            PhysicsTimeline::Reset(_) => None,
        }),
        slider: merge_named(slider, std::mem::discriminant),
        attachments,
        draw_order,
        draw_order_folders,
        events,
        color: a.color,
    }
}

// ---------------------------------------------------------------------------------------
// JSON → binary
// ---------------------------------------------------------------------------------------

struct FromJson<'a> {
    s: &'a j::Skeleton,
    strings: Strings,
    p: Problems,
    bones: HashMap<&'a str, u32>,
    slots: HashMap<&'a str, u32>,
    /// Per JSON constraint type name: name → index in the unified list.
    constraints: HashMap<(&'static str, &'a str), u32>,
    skins: HashMap<&'a str, u32>,
    events: HashMap<&'a str, u32>,
    animations: HashMap<&'a str, u32>,
}

impl<'a> FromJson<'a> {
    fn bone(&mut self, name: &str) -> u32 {
        match self.bones.get(name) {
            Some(&i) => i,
            None => {
                self.p.unknown("bone", name);
                0
            }
        }
    }
    fn bones(&mut self, names: &[String]) -> Vec<u32> {
        names.iter().map(|n| self.bone(n)).collect()
    }
    fn slot(&mut self, name: &str) -> u32 {
        match self.slots.get(name) {
            Some(&i) => i,
            None => {
                self.p.unknown("slot", name);
                0
            }
        }
    }
    fn constraint(&mut self, ty: &'static str, what: &'static str, name: &str) -> Option<u32> {
        let found = self.constraints.get(&(ty, name)).copied();
        if found.is_none() {
            self.p.unknown(what, name);
        }
        found
    }
    fn skin(&mut self, name: &str) -> u32 {
        match self.skins.get(name) {
            Some(&i) => i,
            None => {
                self.p.unknown("skin", name);
                0
            }
        }
    }
}

/// Whether a JSON skeleton carries nonessential data (see the module docs).
fn nonessential(s: &j::Skeleton) -> bool {
    let i = &s.info;
    i.fps.is_some()
        || i.images.is_some()
        || i.audio.is_some()
        || s.bones.iter().any(|b| b.color.is_some() || b.icon.is_some() || b.visible.is_some())
        || s.slots.iter().any(|sl| sl.visible.is_some())
}

/// A 4.3 JSON skeleton as a 4.3 binary skeleton, every name resolved. Fails with every
/// unknown name (and invalid value) found, each with its object path.
pub fn from_json(s: &j::Skeleton) -> Result<w::Skeleton, Vec<Problem>> {
    let mut c = FromJson {
        s,
        strings: Strings::default(),
        p: Problems::default(),
        bones: HashMap::new(),
        slots: index_by_name(&s.slots, |x| x.name.as_str()),
        constraints: HashMap::new(),
        skins: HashMap::new(),
        events: index_by_name(&s.events, |x| x.name.as_str()),
        animations: index_by_name(&s.animations, |x| x.name.as_str()),
    };
    for (i, k) in s.constraints.iter().enumerate() {
        c.constraints.entry((k.kind.type_name(), k.name.as_str())).or_insert(i as u32);
    }
    let default_index = s.skins.iter().position(|k| k.name == "default");
    let mut order: Vec<usize> = Vec::with_capacity(s.skins.len());
    order.extend(default_index);
    order.extend((0..s.skins.len()).filter(|&i| Some(i) != default_index));
    for (wire, &i) in order.iter().enumerate() {
        c.skins.entry(s.skins[i].name.as_str()).or_insert(wire as u32);
    }
    let ne = nonessential(s);
    let header = header_from_json(&s.info, ne);
    // Bones: a parent must come before its child.
    let mut bones = Vec::with_capacity(s.bones.len());
    for (i, b) in s.bones.iter().enumerate() {
        c.p.enter("bone", &b.name);
        let parent = match &b.parent {
            Some(p) => match c.bones.get(p.as_str()) {
                Some(&pi) => Some(pi),
                None => {
                    c.p.unknown("parent bone", p);
                    Some(0)
                }
            },
            None => None,
        };
        if parent.is_none() && i > 0 {
            c.p.report(ProblemKind::Invalid("only the first bone may have no parent".into()));
        }
        c.bones.entry(b.name.as_str()).or_insert(i as u32);
        bones.push(w::Bone {
            name: b.name.clone(),
            parent: if i == 0 { None } else { parent },
            rotation: b.rotation.unwrap_or(0.0),
            x: b.x.unwrap_or(0.0),
            y: b.y.unwrap_or(0.0),
            scale_x: b.scale_x.unwrap_or(1.0),
            scale_y: b.scale_y.unwrap_or(1.0),
            shear_x: b.shear_x.unwrap_or(0.0),
            shear_y: b.shear_y.unwrap_or(0.0),
            inherit: b.inherit.map_or(w::Inherit::Normal, inherit_from_json),
            length: b.length.unwrap_or(0.0),
            skin_required: b.skin.unwrap_or(false),
            nonessential: ne.then(|| w::BoneExtras {
                color: b.color.unwrap_or([0x98, 0x98, 0x98, 0xff]),
                icon: b.icon.clone(),
                icon_size: b.icon_size.unwrap_or(1.0),
                icon_rotation: b.icon_rotation.unwrap_or(0.0),
                visible: b.visible.unwrap_or(true),
            }),
        });
        c.p.pop();
    }
    let mut slots = Vec::with_capacity(s.slots.len());
    for sl in &s.slots {
        c.p.enter("slot", &sl.name);
        let bone = c.bone(&sl.bone);
        let dark_color = match sl.dark {
            None => NO_DARK,
            Some([r, g, b, a]) => {
                // The all-0xFF word means "no dark color"; keep the color with another
                // (ignored) high byte.
                if [a, r, g, b] == NO_DARK {
                    [0, r, g, b]
                } else {
                    [a, r, g, b]
                }
            }
        };
        slots.push(w::Slot {
            name: sl.name.clone(),
            bone,
            color: sl.color.unwrap_or([0xff; 4]),
            dark_color,
            attachment: c.strings.opt(sl.attachment.as_deref()),
            blend: sl.blend.map_or(w::BlendMode::Normal, blend_from_json),
            visible: ne.then(|| sl.visible.unwrap_or(true)),
        });
        c.p.pop();
    }
    let constraints = s.constraints.iter().map(|k| constraint_from_json(&mut c, k, ne)).collect();
    // Skins, the default first; linked meshes need every skin's index, known from `order`.
    let mut default_skin = None;
    let mut skins = Vec::new();
    let mut timeline_slots: Vec<(u32, u32, StrRef, u32)> = Vec::new();
    for &i in &order {
        let k = &s.skins[i];
        c.p.enter("skin", &k.name);
        let slots = skin_slots_from_json(&mut c, k, ne, &mut timeline_slots);
        if Some(i) == default_index {
            default_skin = Some(slots);
        } else {
            let bones = c.bones(&k.bones);
            let mut list = Vec::new();
            for (ty, what, names) in [
                ("ik", "IK constraint", &k.ik),
                ("transform", "transform constraint", &k.transform),
                ("path", "path constraint", &k.path),
                ("physics", "physics constraint", &k.physics),
                ("slider", "slider constraint", &k.slider),
            ] {
                for n in names {
                    list.extend(c.constraint(ty, what, n));
                }
            }
            skins.push(w::Skin {
                name: k.name.clone(),
                color: if ne { Some(k.color.unwrap_or([0; 4])) } else { None },
                bones,
                constraints: list,
                slots,
            });
        }
        c.p.pop();
    }
    // Mesh timeline slots, as the loader derives them from linked meshes.
    for (skin, slot, source, linked_slot) in timeline_slots {
        let target = if default_skin.is_some() {
            if skin == 0 {
                default_skin.as_mut()
            } else {
                skins.get_mut(skin as usize - 1).map(|k| &mut k.slots)
            }
        } else {
            skins.get_mut(skin as usize).map(|k| &mut k.slots)
        };
        let mesh = target.and_then(|slots| {
            slots
                .iter_mut()
                .find(|x| x.slot == slot)
                .and_then(|x| x.attachments.iter_mut().find(|e| e.placeholder == source))
        });
        if let Some(w::SkinEntry {
            attachment: w::Attachment { kind: w::AttachmentKind::Mesh(m), .. },
            ..
        }) = mesh
        {
            if !m.timeline_slots.contains(&linked_slot) {
                m.timeline_slots.push(linked_slot);
            }
        }
    }
    let events = s
        .events
        .iter()
        .map(|e| {
            let has_audio = e.audio.as_deref().is_some_and(|a| !a.is_empty());
            w::Event {
                name: e.name.clone(),
                int_value: e.int.unwrap_or(0),
                float_value: e.float.unwrap_or(0.0),
                string_value: e.string.clone(),
                audio_path: e.audio.clone(),
                volume_balance: has_audio
                    .then(|| [e.volume.unwrap_or(1.0), e.balance.unwrap_or(0.0)]),
            }
        })
        .collect();
    let animations = s.animations.iter().map(|a| animation_from_json(&mut c, a, ne)).collect();
    let strings = std::mem::take(&mut c.strings.list).into_iter().map(Some).collect();
    if !c.p.list.is_empty() {
        return Err(c.p.list);
    }
    Ok(w::Skeleton {
        header,
        strings,
        bones,
        slots,
        constraints,
        default_skin,
        skins,
        events,
        animations,
    })
}

fn header_from_json(i: &j::Info, ne: bool) -> w::Header {
    let (hash_low, hash_high) = match i.hash.as_deref().and_then(j::hash_bytes) {
        Some(b) => (
            i32::from_be_bytes([b[0], b[1], b[2], b[3]]),
            i32::from_be_bytes([b[4], b[5], b[6], b[7]]),
        ),
        None => (0, 0),
    };
    w::Header {
        hash_low,
        hash_high,
        version: i.spine.clone().unwrap_or_else(|| "4.3".to_owned()),
        x: i.x.unwrap_or(0.0),
        y: i.y.unwrap_or(0.0),
        width: i.width.unwrap_or(0.0),
        height: i.height.unwrap_or(0.0),
        reference_scale: i.reference_scale.unwrap_or(100.0),
        nonessential: ne.then(|| w::NonessentialHeader {
            fps: i.fps.unwrap_or(30.0),
            images_path: i.images.clone(),
            audio_path: i.audio.clone(),
        }),
    }
}

fn constraint_from_json(c: &mut FromJson<'_>, k: &j::Constraint, ne: bool) -> w::Constraint {
    let skin = u8::from(k.skin.unwrap_or(false));
    let kind = match &k.kind {
        j::ConstraintKind::Ik(ik) => {
            c.p.enter("IK constraint", &k.name);
            let mut flags = skin;
            if ik.scale_y.is_some() {
                flags |= 2;
            }
            if !ik.bend_positive.unwrap_or(true) {
                flags |= 4;
            }
            if ik.compress.unwrap_or(false) {
                flags |= 8;
            }
            if ik.stretch.unwrap_or(false) {
                flags |= 16;
            }
            let mix = match ik.mix {
                None => {
                    flags |= 32;
                    None
                }
                Some(0.0) => None,
                Some(m) => {
                    flags |= 32 | 64;
                    Some(m)
                }
            };
            if ik.softness.is_some() {
                flags |= 128;
            }
            let data = w::IkConstraint {
                bones: c.bones(&ik.bones),
                target: c.bone(&ik.target),
                flags,
                scale_y_mode: ik.scale_y.map(scale_y_from_json),
                mix,
                softness: ik.softness,
            };
            w::ConstraintKind::Ik(data)
        }
        j::ConstraintKind::Transform(t) => {
            c.p.enter("transform constraint", &k.name);
            let mut flags = skin;
            for (bit, v) in [t.local_source, t.local_target, t.additive, t.clamp].iter().enumerate()
            {
                if v.unwrap_or(false) {
                    flags |= 2 << bit;
                }
            }
            let mut written = [false; 6];
            let properties: Vec<w::FromProperty> = t
                .properties
                .iter()
                .filter(|f| !f.to.is_empty())
                .map(|f| w::FromProperty {
                    property: prop_from_json(f.property),
                    offset: f.offset.unwrap_or(0.0),
                    to: f
                        .to
                        .iter()
                        .map(|to| {
                            written[prop_from_json(to.property) as usize] = true;
                            w::ToProperty {
                                property: prop_from_json(to.property),
                                offset: to.offset.unwrap_or(0.0),
                                max: to.max.unwrap_or(1.0),
                                scale: to.scale.unwrap_or(1.0),
                            }
                        })
                        .collect(),
                })
                .collect();
            if properties.len() > 7 {
                c.p.report(ProblemKind::Invalid(format!(
                    "{} source properties (at most 7 fit the binary format)",
                    properties.len()
                )));
            }
            let mut offset_flags = 0;
            for (i, o) in t.offsets.iter().enumerate() {
                if o.is_some() {
                    offset_flags |= 1 << i;
                }
            }
            // The loader reads a mix only for a property some target writes.
            let mut mixes = [None; 6];
            let m = &t.mixes;
            let mix_x = m[1].unwrap_or(1.0);
            let mix_scale_x = m[3].unwrap_or(1.0);
            let defaults = [1.0, 1.0, mix_x, 1.0, mix_scale_x, 1.0];
            let mut mix_flags = 0;
            for i in 0..6 {
                if written[i] {
                    mixes[i] = Some(m[i].unwrap_or(defaults[i]));
                    mix_flags |= 1 << i;
                }
            }
            w::ConstraintKind::Transform(w::TransformConstraint {
                bones: c.bones(&t.bones),
                source: c.bone(&t.source),
                flags,
                properties,
                offset_flags,
                offsets: t.offsets,
                mix_flags,
                mixes,
            })
        }
        j::ConstraintKind::Path(p) => {
            c.p.enter("path constraint", &k.name);
            let mut flags = skin;
            if p.position_mode.unwrap_or(j1::PositionMode::Percent) == j1::PositionMode::Percent {
                flags |= 2;
            }
            flags |= match p.spacing_mode.unwrap_or(j1::SpacingMode::Length) {
                j1::SpacingMode::Length => 0,
                j1::SpacingMode::Fixed => 1,
                j1::SpacingMode::Percent => 2,
                j1::SpacingMode::Proportional => 3,
            } << 2;
            flags |= match p.rotate_mode.unwrap_or(j1::RotateMode::Tangent) {
                j1::RotateMode::Tangent => 0,
                j1::RotateMode::Chain => 1,
                j1::RotateMode::ChainScale => 2,
            } << 4;
            if p.rotation.is_some() {
                flags |= 128;
            }
            let mix_x = p.mix_x.unwrap_or(1.0);
            w::ConstraintKind::Path(w::PathConstraint {
                bones: c.bones(&p.bones),
                slot: c.slot(&p.slot),
                flags,
                offset_rotation: p.rotation,
                position: p.position.unwrap_or(0.0),
                spacing: p.spacing.unwrap_or(0.0),
                mix_rotate: p.mix_rotate.unwrap_or(1.0),
                mix_x,
                mix_y: p.mix_y.unwrap_or(mix_x),
            })
        }
        j::ConstraintKind::Physics(p) => {
            c.p.enter("physics constraint", &k.name);
            let mut flags = skin;
            let mode = p.scale_y.unwrap_or(j::ScaleYMode::None);
            let scale_x = if p.scale_x.is_some() || mode != j::ScaleYMode::None {
                let v = p.scale_x.unwrap_or(0.0);
                Some(match mode {
                    j::ScaleYMode::None => v,
                    j::ScaleYMode::Uniform => -1.0 - v,
                    j::ScaleYMode::Volume => -2.0 - v,
                })
            } else {
                None
            };
            for (bit, v) in [p.x, p.y, p.rotate, scale_x, p.shear_x, p.limit].iter().enumerate() {
                if v.is_some() {
                    flags |= 2 << bit;
                }
            }
            let mass_inverse = p.mass.map(mass_inverse_of);
            if mass_inverse.is_some() {
                flags |= 128;
            }
            let fps = p.fps.unwrap_or(60.0);
            if !(1.0..=255.0).contains(&fps) {
                c.p.report(ProblemKind::Invalid(format!(
                    "physics fps {fps} does not fit the binary format (1 to 255)"
                )));
            }
            let mut global_flags = 0;
            for (i, g) in p.global.iter().enumerate() {
                if g.unwrap_or(false) {
                    global_flags |= 1 << i;
                }
            }
            if p.mix.is_some() {
                global_flags |= 128;
            }
            w::ConstraintKind::Physics(w::PhysicsConstraint {
                bone: c.bone(&p.bone),
                flags,
                x: p.x,
                y: p.y,
                rotate: p.rotate,
                scale_x,
                shear_x: p.shear_x,
                limit: p.limit,
                fps: fps.round().clamp(1.0, 255.0) as u8,
                inertia: p.inertia.unwrap_or(0.5),
                strength: p.strength.unwrap_or(100.0),
                damping: p.damping.unwrap_or(0.85),
                mass_inverse,
                wind: p.wind.unwrap_or(0.0),
                gravity: p.gravity.unwrap_or(0.0),
                global_flags,
                mix: p.mix,
            })
        }
        j::ConstraintKind::Slider(sl) => {
            c.p.enter("slider", &k.name);
            let mut flags = skin;
            if sl.looping.unwrap_or(false) {
                flags |= 2;
            }
            if sl.additive.unwrap_or(false) {
                flags |= 4;
            }
            let value = match &sl.bone {
                Some(b) if ne => b.max,
                Some(_) => None,
                None => sl.time,
            };
            if value.is_some() {
                flags |= 8;
            }
            let mix = match sl.mix {
                None => {
                    flags |= 16;
                    None
                }
                Some(0.0) => None,
                Some(m) => {
                    flags |= 16 | 32;
                    Some(m)
                }
            };
            let bone = sl.bone.as_ref().map(|b| {
                flags |= 64;
                if b.local.unwrap_or(false) {
                    flags |= 128;
                }
                w::SliderBone {
                    bone: c.bone(&b.bone),
                    property_offset: b.from.unwrap_or(0.0),
                    property: b.property.map_or(w::TransformProperty::Rotate, prop_from_json),
                    offset: b.to.unwrap_or(0.0),
                    scale: b.scale.unwrap_or(1.0),
                }
            });
            let animation = match c.animations.get(sl.animation.as_str()) {
                Some(&i) => i,
                None => {
                    c.p.unknown("animation", &sl.animation);
                    0
                }
            };
            w::ConstraintKind::Slider(w::SliderConstraint { flags, value, mix, bone, animation })
        }
    };
    c.p.pop();
    w::Constraint { name: k.name.clone(), kind }
}

fn vertices_from_json(c: &mut FromJson<'_>, vertex_count: usize, v: &[f32]) -> w::Vertices {
    if v.len() == vertex_count * 2 {
        return w::Vertices::Unweighted(v.to_vec());
    }
    match split_weighted(v) {
        Some(list) if list.len() == vertex_count => {
            let nb = c.s.bones.len() as u32;
            let mut bad = false;
            let out = w::WeightedVertices::from_groups(list.into_iter().map(|v| {
                v.into_iter()
                    .map(|(bone, x, y, weight)| {
                        bad |= bone >= nb;
                        w::BoneWeight { bone, x, y, weight }
                    })
                    .collect::<Vec<_>>()
            }));
            if bad {
                c.p.report(ProblemKind::Invalid("weighted vertex bone index out of range".into()));
            }
            w::Vertices::Weighted(out)
        }
        _ => {
            c.p.report(ProblemKind::Invalid(format!(
                "{} vertex values are neither {vertex_count} unweighted vertices nor weighted ones",
                v.len()
            )));
            w::Vertices::Unweighted(Vec::new())
        }
    }
}

fn skin_slots_from_json(
    c: &mut FromJson<'_>,
    k: &j::Skin,
    ne: bool,
    timeline_slots: &mut Vec<(u32, u32, StrRef, u32)>,
) -> Vec<w::SkinSlot> {
    let mut out = Vec::with_capacity(k.slots.len());
    for sl in &k.slots {
        c.p.enter("slot", &sl.slot);
        let slot = c.slot(&sl.slot);
        let mut attachments = Vec::with_capacity(sl.attachments.len());
        for a in &sl.attachments {
            c.p.enter("attachment", &a.key);
            let placeholder = c.strings.get(&a.key);
            let name = a.name.as_deref().map(|n| c.strings.get(n));
            let mut flags = if name.is_some() { 8 } else { 0 };
            let kind = match &a.kind {
                j::AttachmentKind::Region {
                    path,
                    x,
                    y,
                    scale_x,
                    scale_y,
                    rotation,
                    width,
                    height,
                    color,
                    sequence,
                } => {
                    let path = path.as_deref().map(|p| c.strings.get(p));
                    let sequence = seq_from_json(sequence);
                    for (bit, set) in
                        [path.is_some(), color.is_some(), sequence.is_some(), rotation.is_some()]
                            .iter()
                            .enumerate()
                    {
                        if *set {
                            flags |= 16 << bit;
                        }
                    }
                    w::AttachmentKind::Region(w::RegionAttachment {
                        path,
                        color: *color,
                        sequence,
                        rotation: *rotation,
                        x: x.unwrap_or(0.0),
                        y: y.unwrap_or(0.0),
                        scale_x: scale_x.unwrap_or(1.0),
                        scale_y: scale_y.unwrap_or(1.0),
                        width: *width,
                        height: *height,
                    })
                }
                j::AttachmentKind::BoundingBox { vertex_count, vertices, color } => {
                    let vertices = vertices_from_json(c, *vertex_count as usize, vertices);
                    if vertices.is_weighted() {
                        flags |= 16;
                    }
                    w::AttachmentKind::BoundingBox(w::BoundingBoxAttachment {
                        vertices,
                        color: if ne {
                            Some(color.unwrap_or([0x60, 0xf0, 0x00, 0xff]))
                        } else {
                            None
                        },
                    })
                }
                j::AttachmentKind::Mesh {
                    path,
                    color,
                    width,
                    height,
                    sequence,
                    uvs,
                    vertices,
                    triangles,
                    hull,
                    edges,
                } => {
                    let path = path.as_deref().map(|p| c.strings.get(p));
                    let sequence = seq_from_json(sequence);
                    let vertices = vertices_from_json(c, uvs.len() / 2, vertices);
                    // The binary format stores no triangle count: it is implied by the
                    // vertex and hull counts, as for every triangulated editor mesh.
                    let implied = (uvs.len() as i64 - i64::from(hull.unwrap_or(0)) - 2) * 3;
                    if triangles.len() as i64 != implied {
                        c.p.report(ProblemKind::Invalid(format!(
                            "{} triangle indices; a mesh of {} vertices with a hull of {} has {implied}",
                            triangles.len(),
                            uvs.len() / 2,
                            hull.unwrap_or(0)
                        )));
                    }
                    for (bit, set) in [
                        path.is_some(),
                        color.is_some(),
                        sequence.is_some(),
                        vertices.is_weighted(),
                    ]
                    .iter()
                    .enumerate()
                    {
                        if *set {
                            flags |= 16 << bit;
                        }
                    }
                    w::AttachmentKind::Mesh(w::MeshAttachment {
                        path,
                        color: *color,
                        sequence,
                        hull_length: hull.unwrap_or(0),
                        vertices,
                        uvs: uvs.clone(),
                        triangles: triangles.clone(),
                        timeline_slots: Vec::new(),
                        nonessential: ne.then(|| w::MeshExtras {
                            edges: edges.clone().unwrap_or_default(),
                            width: width.unwrap_or(0.0),
                            height: height.unwrap_or(0.0),
                        }),
                    })
                }
                j::AttachmentKind::LinkedMesh {
                    path,
                    color,
                    width,
                    height,
                    sequence,
                    source,
                    slot: source_slot,
                    skin,
                    timelines,
                } => {
                    let path = path.as_deref().map(|p| c.strings.get(p));
                    let sequence = seq_from_json(sequence);
                    let inherit = timelines.unwrap_or(true);
                    for (bit, set) in [path.is_some(), color.is_some(), sequence.is_some(), inherit]
                        .iter()
                        .enumerate()
                    {
                        if *set {
                            flags |= 16 << bit;
                        }
                    }
                    let source_slot = match source_slot {
                        Some(n) => c.slot(n),
                        None => slot,
                    };
                    let skin = match skin {
                        Some(n) => c.skin(n),
                        None => match c.skins.get("default") {
                            Some(&i) => i,
                            None => {
                                c.p.unknown("skin", "default");
                                0
                            }
                        },
                    };
                    let source = c.strings.get(source);
                    if inherit && source_slot != slot {
                        timeline_slots.push((skin, source_slot, source, slot));
                    }
                    w::AttachmentKind::LinkedMesh(w::LinkedMeshAttachment {
                        path,
                        color: *color,
                        sequence,
                        source_slot,
                        skin,
                        source,
                        size: ne.then(|| [width.unwrap_or(0.0), height.unwrap_or(0.0)]),
                    })
                }
                j::AttachmentKind::Path {
                    closed,
                    constant_speed,
                    vertex_count,
                    vertices,
                    lengths,
                    color,
                } => {
                    let vertices = vertices_from_json(c, *vertex_count as usize, vertices);
                    if closed.unwrap_or(false) {
                        flags |= 16;
                    }
                    if constant_speed.unwrap_or(true) {
                        flags |= 32;
                    }
                    if vertices.is_weighted() {
                        flags |= 64;
                    }
                    let curves = *vertex_count as usize / 3;
                    let mut lengths = lengths.clone();
                    lengths.resize(curves, 0.0);
                    w::AttachmentKind::Path(w::PathAttachment {
                        vertices,
                        lengths,
                        color: if ne {
                            Some(color.unwrap_or([0xff, 0x77, 0x00, 0xff]))
                        } else {
                            None
                        },
                    })
                }
                j::AttachmentKind::Point { x, y, rotation, color } => {
                    w::AttachmentKind::Point(w::PointAttachment {
                        rotation: rotation.unwrap_or(0.0),
                        x: x.unwrap_or(0.0),
                        y: y.unwrap_or(0.0),
                        color: if ne {
                            Some(color.unwrap_or([0xf1, 0xf1, 0x00, 0xff]))
                        } else {
                            None
                        },
                    })
                }
                j::AttachmentKind::Clipping {
                    end,
                    convex,
                    inverse,
                    vertex_count,
                    vertices,
                    color,
                } => {
                    let vertices = vertices_from_json(c, *vertex_count as usize, vertices);
                    if vertices.is_weighted() {
                        flags |= 16;
                    }
                    if convex.unwrap_or(false) {
                        flags |= 32;
                    }
                    if inverse.unwrap_or(false) {
                        flags |= 64;
                    }
                    let end_slot = match end {
                        Some(n) => c.slot(n),
                        None => c.s.slots.len().saturating_sub(1) as u32,
                    };
                    w::AttachmentKind::Clipping(w::ClippingAttachment {
                        end_slot,
                        vertices,
                        color: if ne {
                            Some(color.unwrap_or([0xce, 0x3a, 0x3a, 0xff]))
                        } else {
                            None
                        },
                    })
                }
            };
            attachments.push(w::SkinEntry {
                placeholder,
                attachment: w::Attachment { flags: flags | kind.type_code(), name, kind },
            });
            c.p.pop();
        }
        out.push(w::SkinSlot { slot, attachments });
        c.p.pop();
    }
    out
}

fn one(v: &Option<f32>, default: f32) -> [f32; 1] {
    [v.unwrap_or(default)]
}

fn xy(v: &Xy, default: f32) -> [f32; 2] {
    [v.x.unwrap_or(default), v.y.unwrap_or(default)]
}

fn two_color7(v: &TwoColor) -> [u8; 7] {
    let (l, d) = (v.light, v.dark);
    [l[0], l[1], l[2], l[3], d[0], d[1], d[2]]
}

fn two_color6(v: &TwoColor) -> [u8; 6] {
    let (l, d) = (v.light, v.dark);
    [l[0], l[1], l[2], d[0], d[1], d[2]]
}

fn draw_order_from_json(
    c: &mut FromJson<'_>,
    keys: &j::DrawOrderKeys,
    folder: Option<&[u32]>,
) -> Vec<w::DrawOrderKey> {
    keys.iter()
        .map(|k| w::DrawOrderKey {
            time: k.time,
            changes: k
                .value
                .iter()
                .flatten()
                .map(|o| {
                    let global = c.slot(&o.slot);
                    let slot = match folder {
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
                    };
                    DrawOrderChange { slot, shift: o.offset }
                })
                .collect(),
        })
        .collect()
}

fn animation_from_json(c: &mut FromJson<'_>, a: &j::Animation, ne: bool) -> w::Animation {
    c.p.enter("animation", &a.name);
    let mut count = 0usize;
    let mut slots = Vec::with_capacity(a.slots.len());
    for n in &a.slots {
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
                SlotTimeline::Rgba(k) => w::SlotTimeline::Rgba(curve_timeline(k, |v| *v)),
                SlotTimeline::Rgb(k) => {
                    w::SlotTimeline::Rgb(curve_timeline(k, |v| [v[0], v[1], v[2]]))
                }
                SlotTimeline::Rgba2(k) => w::SlotTimeline::Rgba2(curve_timeline(k, two_color7)),
                SlotTimeline::Rgb2(k) => w::SlotTimeline::Rgb2(curve_timeline(k, two_color6)),
                SlotTimeline::Alpha(k) => {
                    w::SlotTimeline::Alpha(curve_timeline(k, |v| [byte_of(v.unwrap_or(0.0))]))
                }
            })
            .collect::<Vec<_>>();
        count += timelines.len();
        slots.push(w::SlotTimelines { slot, timelines });
    }
    let mut bones = Vec::with_capacity(a.bones.len());
    for n in &a.bones {
        let bone = c.bone(&n.name);
        let timelines = n
            .timelines
            .iter()
            .map(|t| match t {
                BoneTimeline::Rotate(k) => {
                    w::BoneTimeline::Rotate(curve_timeline(k, |v| one(v, 0.0)))
                }
                BoneTimeline::Translate(k) => {
                    w::BoneTimeline::Translate(curve_timeline(k, |v| xy(v, 0.0)))
                }
                BoneTimeline::TranslateX(k) => {
                    w::BoneTimeline::TranslateX(curve_timeline(k, |v| one(v, 0.0)))
                }
                BoneTimeline::TranslateY(k) => {
                    w::BoneTimeline::TranslateY(curve_timeline(k, |v| one(v, 0.0)))
                }
                BoneTimeline::Scale(k) => w::BoneTimeline::Scale(curve_timeline(k, |v| xy(v, 1.0))),
                BoneTimeline::ScaleX(k) => {
                    w::BoneTimeline::ScaleX(curve_timeline(k, |v| one(v, 1.0)))
                }
                BoneTimeline::ScaleY(k) => {
                    w::BoneTimeline::ScaleY(curve_timeline(k, |v| one(v, 1.0)))
                }
                BoneTimeline::Shear(k) => w::BoneTimeline::Shear(curve_timeline(k, |v| xy(v, 0.0))),
                BoneTimeline::ShearX(k) => {
                    w::BoneTimeline::ShearX(curve_timeline(k, |v| one(v, 0.0)))
                }
                BoneTimeline::ShearY(k) => {
                    w::BoneTimeline::ShearY(curve_timeline(k, |v| one(v, 0.0)))
                }
                BoneTimeline::Inherit(k) => w::BoneTimeline::Inherit(
                    k.iter()
                        .map(|k| w::InheritKey {
                            time: k.time,
                            inherit: k.value.map_or(w::Inherit::Normal, inherit_from_json),
                        })
                        .collect(),
                ),
            })
            .collect::<Vec<_>>();
        count += timelines.len();
        bones.push(w::BoneTimelines { bone, timelines });
    }
    let mut ik = Vec::with_capacity(a.ik.len());
    for n in &a.ik {
        let Some(constraint) = c.constraint("ik", "IK constraint", &n.name) else { continue };
        let mut bezier_count = 0;
        let keys = n.timelines.iter().enumerate().map(|(i, k)| {
            let v = &k.value;
            let mut flags = 0u8;
            let mix = match v.mix {
                None => {
                    flags |= 1;
                    None
                }
                Some(0.0) => None,
                Some(m) => {
                    flags |= 1 | 2;
                    Some(m)
                }
            };
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
            let mut bezier = None;
            if i > 0 {
                match binary_curve(&n.timelines[i - 1].curve, 2) {
                    (CurveType::Stepped, _) => flags |= 64,
                    (CurveType::Bezier, b) => {
                        flags |= 128;
                        bezier_count += 2;
                        bezier = Some([b[0], b[1]]);
                    }
                    _ => {}
                }
            }
            w::IkKey { flags, time: k.time, mix, softness: v.softness, bezier }
        });
        let keys = keys.collect();
        ik.push(w::IkTimeline { constraint, bezier_count, keys });
        count += 1;
    }
    let mut transform = Vec::with_capacity(a.transform.len());
    for n in &a.transform {
        let Some(constraint) = c.constraint("transform", "transform constraint", &n.name) else {
            continue;
        };
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
        transform.push(w::TransformTimeline { constraint, timeline });
        count += 1;
    }
    let mut path = Vec::with_capacity(a.path.len());
    for n in &a.path {
        let Some(constraint) = c.constraint("path", "path constraint", &n.name) else { continue };
        let timelines: Vec<_> = n
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
        count += timelines.len();
        path.push(w::PathTimelines { constraint, timelines });
    }
    let mut physics = Vec::with_capacity(a.physics.len());
    for n in &a.physics {
        let constraint = if n.name.is_empty() {
            None
        } else {
            match c.constraint("physics", "physics constraint", &n.name) {
                Some(i) => Some(i),
                None => continue,
            }
        };
        let timelines: Vec<_> = n
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
        count += timelines.len();
        physics.push(w::PhysicsTimelines { constraint, timelines });
    }
    let mut slider = Vec::with_capacity(a.slider.len());
    for n in &a.slider {
        let Some(constraint) = c.constraint("slider", "slider constraint", &n.name) else {
            continue;
        };
        let timelines: Vec<_> = n
            .timelines
            .iter()
            .map(|t| match t {
                j::SliderTimeline::Time(k) => {
                    w::SliderTimeline::Time(curve_timeline(k, |v| one(v, 1.0)))
                }
                j::SliderTimeline::Mix(k) => {
                    w::SliderTimeline::Mix(curve_timeline(k, |v| one(v, 1.0)))
                }
            })
            .collect();
        count += timelines.len();
        slider.push(w::SliderTimelines { constraint, timelines });
    }
    let mut attachments: Vec<w::AttachmentTimelinesSkin> = Vec::new();
    for at in &a.attachments {
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
                AttachmentTimeline::Deform(keys) => {
                    let n = keys.len();
                    let mut curves = Vec::with_capacity(n.saturating_sub(1));
                    let mut beziers = Vec::new();
                    for k in keys.iter().take(n.saturating_sub(1)) {
                        let (ty, b) = binary_curve(&k.curve, 1);
                        curves.push(ty);
                        beziers.extend(b);
                    }
                    w::AttachmentTimelineKind::Deform(w::DeformTimeline {
                        bezier_count: beziers.len() as u32,
                        keys: keys
                            .iter()
                            .map(|k| w::DeformKey {
                                time: k.time,
                                values: k.value.vertices.as_ref().filter(|v| !v.is_empty()).map(
                                    |v| w::DeformValues {
                                        start: k.value.offset.unwrap_or(0).max(0) as u32,
                                        values: v.clone(),
                                    },
                                ),
                            })
                            .collect(),
                        curves,
                        beziers,
                    })
                }
                AttachmentTimeline::Sequence(keys) => {
                    let mut last_delay = 0.0;
                    w::AttachmentTimelineKind::Sequence(
                        keys.iter()
                            .map(|k| {
                                let delay = k.value.delay.unwrap_or(last_delay);
                                last_delay = delay;
                                w::SequenceKey {
                                    time: k.time,
                                    mode: k
                                        .value
                                        .mode
                                        .map_or(w::SequenceMode::Hold, sequence_mode_from_json),
                                    index: k.value.index.unwrap_or(0),
                                    delay,
                                }
                            })
                            .collect(),
                    )
                }
            };
            sk.slots[li].attachments.push(w::AttachmentTimeline { attachment, kind });
            count += 1;
        }
    }
    let draw_order = match &a.draw_order {
        Some(keys) => {
            count += 1;
            draw_order_from_json(c, keys, None)
        }
        None => Vec::new(),
    };
    let mut draw_order_folders = Vec::with_capacity(a.draw_order_folders.len());
    for f in &a.draw_order_folders {
        let folder: Vec<u32> = f.slots.iter().map(|n| c.slot(n)).collect();
        let keys = draw_order_from_json(c, &f.keys, Some(&folder));
        draw_order_folders.push(w::DrawOrderFolder { slots: folder, keys });
        count += 1;
    }
    let events = match &a.events {
        Some(keys) => {
            count += 1;
            keys.iter()
                .filter_map(|k| {
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
                        volume_balance: has_audio.then(|| {
                            [
                                k.value.volume.unwrap_or(def_volume),
                                k.value.balance.unwrap_or(def_volume),
                            ]
                        }),
                    })
                })
                .collect()
        }
        None => Vec::new(),
    };
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
