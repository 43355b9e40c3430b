//! Spine 4.0–4.2 binary AST ⇄ the JSON AST of the same version (no semantic change).
//!
//! [`to_json`] names what the binary indexes; the JSON writer spells keys for the version
//! (`transform` vs `inherit`, `deform` vs `attachments`, linked mesh `deform` vs `timelines`).
//! Values equal to the JSON default are left out; values whose JSON default differs from the
//! binary's absent value are written (4.2 IK `mix` 0, transform mixes absent from a 4.2 binary,
//! i.e. 0, physics `inertia`/`damping`). The hash becomes the editor's base64 of its 8 bytes,
//! alpha keys `byte / 255`, the physics inverse mass a `mass` whose inverse (as 4.2 loaders
//! compute it, `1 / mass` in float) is the same float when one exists.
//!
//! [`from_json`] resolves the names back (every unknown name reported with its object path)
//! and sets the 4.2 flag bits the values need.
//!
//! What one side cannot hold:
//! * JSON → binary: alpha keys round to bytes; a clipping attachment without `end` gets the
//!   last slot; the default skin's own bone/constraint lists and color are dropped; a 4.2
//!   mesh whose triangle count differs from what its vertex and hull counts imply (4.2
//!   binaries store no count) is reported; 16-bit triangle and edge indices (4.0/4.1) are
//!   checked; a hash that is not the editor's base64 of 8 bytes becomes 0.
//! * binary → JSON: raw flag bits no value needs, `bezierCount` and timeline-count hints
//!   (recomputed), a physics inverse mass no float mass inverts to exactly (within 1 ulp). A
//!   4.0 `rgba2` key's dark red is read by spine-cpp 4.0's JSON loader as the dark green (its
//!   `setFrame(…, color2.g, color2.g, …)` bug, reproduced by `spine-model`): 4.0 rigs with
//!   two-color keys lose their dark red when their JSON is loaded by that runtime.

use std::collections::HashMap;

use spine_format::binary::shared::{CurveType, DrawOrderChange};
use spine_format::binary::v40::{animation as wa, ast as w};
use spine_format::binary::StrRef;
use spine_format::json::{
    self as j, AttachmentTimeline, AttachmentTimelines, BoneTimeline, DeformKey, DrawOrderOffset,
    EventDef, Key, Named, PathMix, PhysicsProperty, PhysicsTimeline, SequenceKey, SlotTimeline,
    TransformMix, TwoColor, Xy,
};
use spine_format::SpineVersion;

use super::common::*;
use crate::error::{Problem, ProblemKind};

fn some_if<T: PartialEq>(v: T, default: T) -> Option<T> {
    (v != default).then_some(v)
}

fn inherit_to_json(i: w::Inherit) -> Option<j::Inherit> {
    Some(match i {
        w::Inherit::Normal => return None,
        w::Inherit::OnlyTranslation => j::Inherit::OnlyTranslation,
        w::Inherit::NoRotationOrReflection => j::Inherit::NoRotationOrReflection,
        w::Inherit::NoScale => j::Inherit::NoScale,
        w::Inherit::NoScaleOrReflection => j::Inherit::NoScaleOrReflection,
    })
}

fn inherit_from_json(i: Option<j::Inherit>) -> w::Inherit {
    match i.unwrap_or(j::Inherit::Normal) {
        j::Inherit::Normal => w::Inherit::Normal,
        j::Inherit::OnlyTranslation => w::Inherit::OnlyTranslation,
        j::Inherit::NoRotationOrReflection => w::Inherit::NoRotationOrReflection,
        j::Inherit::NoScale => w::Inherit::NoScale,
        j::Inherit::NoScaleOrReflection => w::Inherit::NoScaleOrReflection,
    }
}

fn blend_to_json(b: w::BlendMode) -> Option<j::BlendMode> {
    Some(match b {
        w::BlendMode::Normal => return None,
        w::BlendMode::Additive => j::BlendMode::Additive,
        w::BlendMode::Multiply => j::BlendMode::Multiply,
        w::BlendMode::Screen => j::BlendMode::Screen,
    })
}

fn blend_from_json(b: Option<j::BlendMode>) -> w::BlendMode {
    match b.unwrap_or(j::BlendMode::Normal) {
        j::BlendMode::Normal => w::BlendMode::Normal,
        j::BlendMode::Additive => w::BlendMode::Additive,
        j::BlendMode::Multiply => w::BlendMode::Multiply,
        j::BlendMode::Screen => w::BlendMode::Screen,
    }
}

fn seq_to_json(s: &Option<w::Sequence>) -> Option<j::Sequence> {
    s.map(|s| j::Sequence {
        count: s.count as i32,
        start: some_if(s.start as i32, 1),
        digits: some_if(s.digits as i32, 0),
        setup: some_if(s.setup_index as i32, 0),
    })
}

fn seq_from_json(s: &Option<j::Sequence>) -> Option<w::Sequence> {
    s.as_ref().map(|s| w::Sequence {
        count: s.count.max(0) as u32,
        start: s.start.unwrap_or(1).max(0) as u32,
        digits: s.digits.unwrap_or(0).max(0) as u32,
        setup_index: s.setup.unwrap_or(0).max(0) as u32,
    })
}

fn vertices_to_json(v: &w::Vertices) -> Vec<f32> {
    match v {
        w::Vertices::Plain(xy) => xy.clone(),
        w::Vertices::Weighted(vs) => flat_weighted(
            vs.groups().map(|g| g.map(|b| (b.bone, b.x, b.y, b.weight)).collect::<Vec<_>>()),
        ),
    }
}

/// A `mass` whose inverse as the 4.x loaders compute it (`1 / mass` in float) is exactly
/// `mass_inverse`, when one exists within a few ulps.
fn mass_of(mass_inverse: f32) -> Option<f32> {
    if !(mass_inverse.is_finite() && mass_inverse != 0.0) {
        return None;
    }
    let m0 = 1.0 / mass_inverse;
    if !m0.is_finite() {
        return None;
    }
    let (mut lo, mut hi) = (m0, m0);
    if 1.0 / m0 == mass_inverse {
        return Some(m0);
    }
    for _ in 0..8 {
        lo = f32::from_bits(lo.to_bits().wrapping_sub(1));
        hi = f32::from_bits(hi.to_bits().wrapping_add(1));
        for m in [lo, hi] {
            if m.is_finite() && 1.0 / m == mass_inverse {
                return Some(m);
            }
        }
    }
    Some(m0)
}

/// The 4.x JSON defaults of the six transform mixes given the values read before them.
fn mix_defaults(m: &[f32; 6]) -> [f32; 6] {
    [1.0, 1.0, m[1], 1.0, m[3], 1.0]
}

// ---------------------------------------------------------------------------------------
// Binary → JSON
// ---------------------------------------------------------------------------------------

struct ToJson<'a> {
    s: &'a w::Skeleton,
    skins: Vec<String>,
    events: Vec<(String, i32, f32)>,
}

impl ToJson<'_> {
    fn text(&self, r: StrRef) -> Option<String> {
        r.resolve(&self.s.strings).map(str::to_owned)
    }
    fn name(&self, n: &w::Name) -> String {
        n.resolve(&self.s.strings).unwrap_or_default().to_owned()
    }
    fn bone(&self, i: u32) -> String {
        self.s.bones.get(i as usize).map(|b| b.name.clone()).unwrap_or_default()
    }
    fn bones(&self, v: &[u32]) -> Vec<String> {
        v.iter().map(|&i| self.bone(i)).collect()
    }
    fn slot(&self, i: u32) -> String {
        self.s.slots.get(i as usize).map(|b| b.name.clone()).unwrap_or_default()
    }
    fn v42(&self) -> bool {
        self.s.generation >= SpineVersion::V4_2
    }
}

fn head(name: &str, order: u32, skin: bool) -> j::ConstraintHead {
    j::ConstraintHead {
        name: name.to_owned(),
        order: Some(order as i32),
        skin: skin.then_some(true),
    }
}

/// A 4.0–4.2 binary skeleton as a JSON skeleton of the same version.
pub fn to_json(s: &w::Skeleton) -> j::Skeleton {
    let mut skins = Vec::new();
    if s.default_skin.is_some() {
        skins.push("default".to_owned());
    }
    let mut c = ToJson { s, skins, events: Vec::new() };
    c.skins
        .extend(s.skins.iter().map(|k| k.name.resolve(&s.strings).unwrap_or_default().to_owned()));
    c.events = s.events.iter().map(|e| (c.name(&e.name), e.int, e.float)).collect();
    let h = &s.header;
    let ne = h.nonessential.as_ref();
    let version = j::supported_version(&h.version).unwrap_or(SpineVersion::V4_2);
    let info = j::Info {
        hash: (h.hash != [0, 0]).then(|| h.hash_base64()),
        spine: Some(h.version.clone()),
        x: Some(h.x),
        y: Some(h.y),
        width: Some(h.width),
        height: Some(h.height),
        reference_scale: h.reference_scale.and_then(|r| some_if(r, 100.0)),
        fps: ne.map(|n| n.fps),
        images: ne.and_then(|n| n.images_path.clone()),
        audio: ne.and_then(|n| n.audio_path.clone()),
    };
    let v42 = c.v42();
    let bones = s
        .bones
        .iter()
        .map(|b| j::Bone {
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
            inherit: inherit_to_json(b.inherit),
            skin: b.skin_required.then_some(true),
            color: b.extras.as_ref().map(|e| e.color),
            icon: b.extras.as_ref().and_then(|e| e.icon.clone()),
            visible: b.extras.as_ref().filter(|_| v42).and_then(|e| (!e.visible).then_some(false)),
        })
        .collect();
    let slots = s
        .slots
        .iter()
        .map(|sl| j::Slot {
            name: sl.name.clone(),
            bone: c.bone(sl.bone),
            color: some_if(sl.color, [0xff; 4]),
            dark: sl.dark_rgb().map(|[r, g, b]| [r, g, b, 0xff]),
            attachment: c.text(sl.attachment),
            blend: blend_to_json(sl.blend),
            visible: sl.visible.and_then(|v| (!v).then_some(false)),
        })
        .collect();
    let ik = s
        .ik_constraints
        .iter()
        .map(|k| {
            let (mix, softness) = match k.flags {
                Some(f) => (
                    match (f & 32 != 0, f & 64 != 0) {
                        (false, _) => Some(0.0),
                        (true, false) => None,
                        (true, true) => Some(k.mix.unwrap_or(1.0)),
                    },
                    k.softness,
                ),
                None => {
                    (some_if(k.mix.unwrap_or(1.0), 1.0), some_if(k.softness.unwrap_or(0.0), 0.0))
                }
            };
            j::IkConstraint {
                head: head(&k.name, k.order, k.skin_required),
                bones: c.bones(&k.bones),
                target: c.bone(k.target),
                mix,
                softness,
                bend_positive: (k.bend_direction < 0).then_some(false),
                compress: k.compress.then_some(true),
                stretch: k.stretch.then_some(true),
                uniform: k.uniform.then_some(true),
            }
        })
        .collect();
    let transform = s
        .transform_constraints
        .iter()
        .map(|t| {
            let v = |i: usize| t.values[i].unwrap_or(0.0);
            let mut m = [0.0; 6];
            for (i, x) in m.iter_mut().enumerate() {
                *x = v(6 + i);
            }
            let d = mix_defaults(&m);
            j::TransformConstraint {
                head: head(&t.name, t.order, t.skin_required),
                bones: c.bones(&t.bones),
                target: c.bone(t.target),
                local: t.local.then_some(true),
                relative: t.relative.then_some(true),
                rotation: some_if(v(0), 0.0),
                x: some_if(v(1), 0.0),
                y: some_if(v(2), 0.0),
                scale_x: some_if(v(3), 0.0),
                scale_y: some_if(v(4), 0.0),
                shear_y: some_if(v(5), 0.0),
                mix: TransformMix {
                    mix_rotate: some_if(m[0], d[0]),
                    mix_x: some_if(m[1], d[1]),
                    mix_y: some_if(m[2], d[2]),
                    mix_scale_x: some_if(m[3], d[3]),
                    mix_scale_y: some_if(m[4], d[4]),
                    mix_shear_y: some_if(m[5], d[5]),
                    ..TransformMix::default()
                },
            }
        })
        .collect();
    let path = s
        .path_constraints
        .iter()
        .map(|p| j::PathConstraint {
            head: head(&p.name, p.order, p.skin_required),
            bones: c.bones(&p.bones),
            target: c.slot(p.target),
            position_mode: match p.position_mode {
                w::PositionMode::Fixed => Some(j::PositionMode::Fixed),
                w::PositionMode::Percent => None,
            },
            spacing_mode: match p.spacing_mode {
                w::SpacingMode::Length => None,
                w::SpacingMode::Fixed => Some(j::SpacingMode::Fixed),
                w::SpacingMode::Percent => Some(j::SpacingMode::Percent),
                w::SpacingMode::Proportional => Some(j::SpacingMode::Proportional),
            },
            rotate_mode: match p.rotate_mode {
                w::RotateMode::Tangent => None,
                w::RotateMode::Chain => Some(j::RotateMode::Chain),
                w::RotateMode::ChainScale => Some(j::RotateMode::ChainScale),
            },
            rotation: p.offset_rotation.and_then(|r| some_if(r, 0.0)),
            position: some_if(p.position, 0.0),
            spacing: some_if(p.spacing, 0.0),
            mix: PathMix {
                mix_rotate: some_if(p.mix_rotate, 1.0),
                mix_x: some_if(p.mix_x, 1.0),
                mix_y: some_if(p.mix_y, 1.0),
                ..PathMix::default()
            },
        })
        .collect();
    let physics = s
        .physics_constraints
        .iter()
        .map(|p| {
            let mut global = [None; 7];
            for (i, g) in global.iter_mut().enumerate() {
                *g = (p.flags2 & (1 << i) != 0).then_some(true);
            }
            j::PhysicsConstraint {
                head: head(&p.name, p.order, p.skin_required()),
                bone: c.bone(p.bone),
                x: p.x,
                y: p.y,
                rotate: p.rotate,
                scale_x: p.scale_x,
                shear_x: p.shear_x,
                limit: p.limit,
                fps: some_if(i32::from(p.fps), 60),
                inertia: some_if(p.inertia, 1.0),
                strength: some_if(p.strength, 100.0),
                damping: some_if(p.damping, 1.0),
                mass: p.mass_inverse.and_then(mass_of),
                wind: some_if(p.wind, 0.0),
                gravity: some_if(p.gravity, 0.0),
                mix: p.mix,
                global,
            }
        })
        .collect();
    let mut json_skins = Vec::new();
    if let Some(d) = &s.default_skin {
        json_skins.push(j::Skin {
            name: "default".into(),
            slots: skin_slots_to_json(&c, d),
            ..j::Skin::default()
        });
    }
    for k in &s.skins {
        json_skins.push(j::Skin {
            name: c.name(&k.name),
            bones: c.bones(&k.bones),
            ik: k
                .ik
                .iter()
                .map(|&i| {
                    s.ik_constraints.get(i as usize).map(|x| x.name.clone()).unwrap_or_default()
                })
                .collect(),
            transform: k
                .transform
                .iter()
                .map(|&i| {
                    s.transform_constraints
                        .get(i as usize)
                        .map(|x| x.name.clone())
                        .unwrap_or_default()
                })
                .collect(),
            path: k
                .path
                .iter()
                .map(|&i| {
                    s.path_constraints.get(i as usize).map(|x| x.name.clone()).unwrap_or_default()
                })
                .collect(),
            physics: k
                .physics
                .iter()
                .map(|&i| {
                    s.physics_constraints
                        .get(i as usize)
                        .map(|x| x.name.clone())
                        .unwrap_or_default()
                })
                .collect(),
            slots: skin_slots_to_json(&c, &k.slots),
            color: k.color,
        });
    }
    let events = s
        .events
        .iter()
        .map(|e| EventDef {
            name: c.name(&e.name),
            int: some_if(e.int, 0),
            float: some_if(e.float, 0.0),
            string: e.string.clone(),
            audio: e.audio.as_ref().map(|a| a.path.clone()),
            volume: e.audio.as_ref().map(|a| a.volume),
            balance: e.audio.as_ref().map(|a| a.balance),
        })
        .collect();
    let animations = s.animations.iter().map(|a| animation_to_json(&c, a)).collect();
    j::Skeleton {
        version,
        info,
        bones,
        slots,
        ik,
        transform,
        path,
        physics,
        skins: json_skins,
        events,
        animations,
    }
}

fn skin_slots_to_json(c: &ToJson<'_>, slots: &w::SkinSlots) -> Vec<j::SkinSlot> {
    slots
        .groups()
        .map(|(slot, atts)| j::SkinSlot {
            slot: c.slot(slot),
            attachments: atts.iter().map(|a| attachment_to_json(c, a)).collect(),
        })
        .collect()
}

fn attachment_to_json(c: &ToJson<'_>, e: &w::SkinAttachment) -> j::Attachment {
    use j::AttachmentType as T;
    let a = &e.attachment;
    let (ty, kind) = match &a.kind {
        w::AttachmentKind::Region(r) => (
            None,
            j::AttachmentKind::Region {
                path: c.text(r.path),
                x: some_if(r.x, 0.0),
                y: some_if(r.y, 0.0),
                scale_x: some_if(r.scale_x, 1.0),
                scale_y: some_if(r.scale_y, 1.0),
                rotation: some_if(r.rotation, 0.0),
                width: r.width,
                height: r.height,
                color: some_if(r.color, [0xff; 4]),
                sequence: seq_to_json(&r.sequence),
            },
        ),
        w::AttachmentKind::BoundingBox(b) => (
            Some(T::BoundingBox),
            j::AttachmentKind::BoundingBox {
                vertex_count: b.vertices.count() as u32,
                vertices: vertices_to_json(&b.vertices),
                color: b.color,
            },
        ),
        w::AttachmentKind::Mesh(m) => (
            Some(T::Mesh),
            j::AttachmentKind::Mesh {
                path: c.text(m.path),
                color: some_if(m.color, [0xff; 4]),
                width: m.extras.as_ref().map(|x| x.width),
                height: m.extras.as_ref().map(|x| x.height),
                sequence: seq_to_json(&m.sequence),
                uvs: m.uvs.clone(),
                vertices: vertices_to_json(&m.vertices),
                triangles: m.triangles.clone(),
                hull: Some(m.hull),
                edges: m.extras.as_ref().map(|x| x.edges.clone()),
            },
        ),
        w::AttachmentKind::LinkedMesh(l) => (
            Some(T::LinkedMesh),
            j::AttachmentKind::LinkedMesh {
                path: c.text(l.path),
                color: some_if(l.color, [0xff; 4]),
                width: l.size.map(|s| s[0]),
                height: l.size.map(|s| s[1]),
                sequence: seq_to_json(&l.sequence),
                parent: c.text(l.parent).unwrap_or_default(),
                skin: match l.skin {
                    w::SkinRef::Name(r) => c.text(r),
                    w::SkinRef::Index(i) => {
                        let default = c.s.default_skin.is_some() && i == 0;
                        (!default).then(|| c.skins.get(i as usize).cloned().unwrap_or_default())
                    }
                },
                timelines: (!l.inherit_timelines).then_some(false),
            },
        ),
        w::AttachmentKind::Path(p) => (
            Some(T::Path),
            j::AttachmentKind::Path {
                closed: p.closed.then_some(true),
                constant_speed: (!p.constant_speed).then_some(false),
                vertex_count: p.vertices.count() as u32,
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
                vertex_count: k.vertices.count() as u32,
                vertices: vertices_to_json(&k.vertices),
                color: k.color,
            },
        ),
    };
    let key = c.text(e.key).unwrap_or_default();
    let name = c.text(a.name).filter(|n| *n != key);
    j::Attachment { key, name, declared_type: ty, kind }
}

fn animation_to_json(c: &ToJson<'_>, a: &wa::Animation) -> j::Animation {
    let slots = a
        .slot_groups()
        .map(|(slot, ts)| Named {
            name: c.slot(slot),
            timelines: ts
                .iter()
                .map(|t| match t {
                    wa::SlotTimeline::Attachment(keys) => SlotTimeline::Attachment(
                        keys.iter()
                            .map(|k| Key { time: k.time, curve: None, value: c.text(k.name) })
                            .collect(),
                    ),
                    wa::SlotTimeline::Rgba(t) => SlotTimeline::Rgba(curve_keys(t, |v| *v)),
                    wa::SlotTimeline::Rgb(t) => {
                        SlotTimeline::Rgb(curve_keys(t, |v| [v[0], v[1], v[2], 0xff]))
                    }
                    wa::SlotTimeline::Rgba2(t) => SlotTimeline::Rgba2(curve_keys(t, |v| {
                        TwoColor { light: [v[0], v[1], v[2], v[3]], dark: [v[4], v[5], v[6], 0xff] }
                    })),
                    wa::SlotTimeline::Rgb2(t) => SlotTimeline::Rgb2(curve_keys(t, |v| TwoColor {
                        light: [v[0], v[1], v[2], 0xff],
                        dark: [v[3], v[4], v[5], 0xff],
                    })),
                    wa::SlotTimeline::Alpha(t) => {
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
        .bone_groups()
        .map(|(bone, ts)| Named {
            name: c.bone(bone),
            timelines: ts
                .iter()
                .map(|t| match t {
                    wa::BoneTimeline::Rotate(t) => BoneTimeline::Rotate(curve_keys(t, zero)),
                    wa::BoneTimeline::Translate(t) => BoneTimeline::Translate(curve_keys(t, xy0)),
                    wa::BoneTimeline::TranslateX(t) => {
                        BoneTimeline::TranslateX(curve_keys(t, zero))
                    }
                    wa::BoneTimeline::TranslateY(t) => {
                        BoneTimeline::TranslateY(curve_keys(t, zero))
                    }
                    wa::BoneTimeline::Scale(t) => BoneTimeline::Scale(curve_keys(t, xy1)),
                    wa::BoneTimeline::ScaleX(t) => BoneTimeline::ScaleX(curve_keys(t, unit)),
                    wa::BoneTimeline::ScaleY(t) => BoneTimeline::ScaleY(curve_keys(t, unit)),
                    wa::BoneTimeline::Shear(t) => BoneTimeline::Shear(curve_keys(t, xy0)),
                    wa::BoneTimeline::ShearX(t) => BoneTimeline::ShearX(curve_keys(t, zero)),
                    wa::BoneTimeline::ShearY(t) => BoneTimeline::ShearY(curve_keys(t, zero)),
                    wa::BoneTimeline::Inherit(keys) => BoneTimeline::Inherit(
                        keys.iter()
                            .map(|k| Key {
                                time: k.time,
                                curve: None,
                                value: Some(
                                    inherit_to_json(k.inherit).unwrap_or(j::Inherit::Normal),
                                ),
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
                        // The transition to the next key is recorded on the next key.
                        let curve = t.keys.get(i + 1).and_then(|next| {
                            let b = next.bezier.unwrap_or_default();
                            json_curve(next.curve, &b)
                        });
                        let mix = match k.flags {
                            Some(f) => match (f & 1 != 0, f & 2 != 0) {
                                (false, _) => Some(0.0),
                                (true, false) => None,
                                (true, true) => Some(k.mix.unwrap_or(1.0)),
                            },
                            None => some_if(k.mix.unwrap_or(1.0), 1.0),
                        };
                        let softness = match k.flags {
                            Some(_) => k.softness,
                            None => some_if(k.softness.unwrap_or(0.0), 0.0),
                        };
                        Key {
                            time: k.time,
                            curve,
                            value: j::IkKey {
                                mix,
                                softness,
                                bend_positive: (k.bend_direction < 0).then_some(false),
                                compress: k.compress.then_some(true),
                                stretch: k.stretch.then_some(true),
                            },
                        }
                    })
                    .collect();
                let name =
                    c.s.ik_constraints
                        .get(t.constraint as usize)
                        .map(|x| x.name.clone())
                        .unwrap_or_default();
                Named { name, timelines }
            })
            .collect();
    let transform = a
        .transform
        .iter()
        .map(|t| Named {
            name: c
                .s
                .transform_constraints
                .get(t.constraint as usize)
                .map(|x| x.name.clone())
                .unwrap_or_default(),
            timelines: curve_keys(&t.timeline, |v| {
                // Keys: mixY defaults to mixX, mixScaleY to mixScaleX (4.x loaders).
                let d = mix_defaults(v);
                TransformMix {
                    mix_rotate: some_if(v[0], d[0]),
                    mix_x: some_if(v[1], d[1]),
                    mix_y: some_if(v[2], d[2]),
                    mix_scale_x: some_if(v[3], d[3]),
                    mix_scale_y: some_if(v[4], d[4]),
                    mix_shear_y: some_if(v[5], d[5]),
                    ..TransformMix::default()
                }
            }),
        })
        .collect();
    let path = a
        .path
        .iter()
        .map(|p| Named {
            name: c
                .s
                .path_constraints
                .get(p.constraint as usize)
                .map(|x| x.name.clone())
                .unwrap_or_default(),
            timelines: p
                .timelines
                .iter()
                .map(|t| match t {
                    wa::PathTimeline::Position(t) => j::PathTimeline::Position(curve_keys(t, zero)),
                    wa::PathTimeline::Spacing(t) => j::PathTimeline::Spacing(curve_keys(t, zero)),
                    wa::PathTimeline::Mix(t) => j::PathTimeline::Mix(curve_keys(t, |v| PathMix {
                        mix_rotate: some_if(v[0], 1.0),
                        mix_x: some_if(v[1], 1.0),
                        mix_y: some_if(v[2], v[1]),
                        ..PathMix::default()
                    })),
                })
                .collect(),
        })
        .collect();
    let physics = a
        .physics
        .iter()
        .map(|p| Named {
            // The wire index is 1-based with 0 meaning every constraint (JSON: "").
            name: p
                .constraint
                .checked_sub(1)
                .and_then(|i| c.s.physics_constraints.get(i as usize))
                .map(|x| x.name.clone())
                .unwrap_or_default(),
            timelines: p
                .timelines
                .iter()
                .map(|t| match t {
                    wa::PhysicsTimeline::Value(prop, t) => {
                        let (prop, default) = match prop {
                            wa::PhysicsProperty::Inertia => (PhysicsProperty::Inertia, 0.0),
                            wa::PhysicsProperty::Strength => (PhysicsProperty::Strength, 0.0),
                            wa::PhysicsProperty::Damping => (PhysicsProperty::Damping, 0.0),
                            wa::PhysicsProperty::Mass => (PhysicsProperty::Mass, 0.0),
                            wa::PhysicsProperty::Wind => (PhysicsProperty::Wind, 0.0),
                            wa::PhysicsProperty::Gravity => (PhysicsProperty::Gravity, 0.0),
                            wa::PhysicsProperty::Mix => (PhysicsProperty::Mix, 1.0),
                        };
                        PhysicsTimeline::Value(prop, curve_keys(t, |v| some_if(v[0], default)))
                    }
                    wa::PhysicsTimeline::Reset(times) => PhysicsTimeline::Reset(
                        times.iter().map(|&time| Key { time, curve: None, value: () }).collect(),
                    ),
                })
                .collect(),
        })
        .collect();
    let mut attachments: Vec<AttachmentTimelines> = Vec::new();
    for sk in &a.attachments {
        for sl in &sk.slots {
            for e in &sl.attachments {
                let skin = c.skins.get(sk.skin as usize).cloned().unwrap_or_default();
                let slot = c.slot(sl.slot);
                let attachment = c.text(e.attachment).unwrap_or_default();
                let t = match &e.timeline {
                    wa::AttachmentTimeline::Deform(d) => {
                        let n = d.keys.len();
                        AttachmentTimeline::Deform(
                            d.keys
                                .iter()
                                .enumerate()
                                .map(|(i, k)| Key {
                                    time: k.time,
                                    curve: d.keys.get(i + 1).filter(|_| i + 1 < n).and_then(
                                        |next| {
                                            json_curve(
                                                next.curve,
                                                &[next.bezier.unwrap_or_default()],
                                            )
                                        },
                                    ),
                                    value: DeformKey {
                                        offset: (!k.values.is_empty() && k.start != 0)
                                            .then_some(k.start as i32),
                                        vertices: (!k.values.is_empty()).then(|| k.values.clone()),
                                    },
                                })
                                .collect(),
                        )
                    }
                    wa::AttachmentTimeline::Sequence(keys) => {
                        let mut last_delay = 0.0;
                        AttachmentTimeline::Sequence(
                            keys.iter()
                                .map(|k| {
                                    let delay = some_if(k.delay, last_delay);
                                    last_delay = k.delay;
                                    let mode = k.mode().map(|m| match m {
                                        wa::SequenceMode::Hold => j::SequenceMode::Hold,
                                        wa::SequenceMode::Once => j::SequenceMode::Once,
                                        wa::SequenceMode::Loop => j::SequenceMode::Loop,
                                        wa::SequenceMode::Pingpong => j::SequenceMode::Pingpong,
                                        wa::SequenceMode::OnceReverse => {
                                            j::SequenceMode::OnceReverse
                                        }
                                        wa::SequenceMode::LoopReverse => {
                                            j::SequenceMode::LoopReverse
                                        }
                                        wa::SequenceMode::PingpongReverse => {
                                            j::SequenceMode::PingpongReverse
                                        }
                                    });
                                    Key {
                                        time: k.time,
                                        curve: None,
                                        value: SequenceKey {
                                            mode: mode.filter(|m| *m != j::SequenceMode::Hold),
                                            index: some_if(k.index(), 0),
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
    let draw_order = (!a.draw_order.is_empty()).then(|| {
        a.draw_order
            .iter()
            .map(|k| Key {
                time: k.time,
                curve: None,
                value: (!k.changes.is_empty()).then(|| {
                    k.changes
                        .iter()
                        .map(|ch| DrawOrderOffset { slot: c.slot(ch.slot), offset: ch.shift })
                        .collect()
                }),
            })
            .collect()
    });
    let events = (!a.events.is_empty()).then(|| {
        a.events
            .iter()
            .map(|k| {
                let def = c.events.get(k.event as usize);
                Key {
                    time: k.time,
                    curve: None,
                    value: j::EventKey {
                        name: def.map(|d| d.0.clone()).unwrap_or_default(),
                        int: some_if(k.int, def.map_or(0, |d| d.1)),
                        float: some_if(k.float, def.map_or(0.0, |d| d.2)),
                        string: k.string.clone(),
                        volume: k.audio.map(|v| v[0]),
                        balance: k.audio.map(|v| v[1]),
                    },
                }
            })
            .collect()
    });
    j::Animation {
        name: a.name.clone(),
        slots,
        bones,
        ik,
        transform,
        path,
        physics,
        attachments,
        draw_order,
        events,
    }
}

// ---------------------------------------------------------------------------------------
// JSON → binary
// ---------------------------------------------------------------------------------------

struct FromJson<'a> {
    s: &'a j::Skeleton,
    gen: SpineVersion,
    strings: Strings,
    p: Problems,
    bones: HashMap<&'a str, u32>,
    slots: HashMap<&'a str, u32>,
    ik: HashMap<&'a str, u32>,
    transform: HashMap<&'a str, u32>,
    path: HashMap<&'a str, u32>,
    physics: HashMap<&'a str, u32>,
    skins: HashMap<&'a str, u32>,
    events: HashMap<&'a str, u32>,
}

impl<'a> FromJson<'a> {
    fn find(&mut self, what: &'static str, name: &str) -> u32 {
        let map = match what {
            "bone" => &self.bones,
            "slot" => &self.slots,
            "IK constraint" => &self.ik,
            "transform constraint" => &self.transform,
            "path constraint" => &self.path,
            "physics constraint" => &self.physics,
            "skin" => &self.skins,
            _ => &self.events,
        };
        match map.get(name) {
            Some(&i) => i,
            None => {
                self.p.unknown(what, name);
                0
            }
        }
    }
    fn bones(&mut self, names: &[String]) -> Vec<u32> {
        names.iter().map(|n| self.find("bone", n)).collect()
    }
    fn v41(&self) -> bool {
        self.gen >= SpineVersion::V4_1
    }
    fn v42(&self) -> bool {
        self.gen >= SpineVersion::V4_2
    }
    fn vertices(&mut self, count: usize, v: &[f32]) -> w::Vertices {
        if v.len() == count * 2 {
            return w::Vertices::Plain(v.to_vec());
        }
        match split_weighted(v) {
            Some(list) if list.len() == count => {
                let mut out = w::WeightedVertices::default();
                for vertex in list {
                    out.counts.push(vertex.len() as u32);
                    for (bone, x, y, weight) in vertex {
                        out.bones.push(bone);
                        out.values.extend([x, y, weight]);
                    }
                }
                w::Vertices::Weighted(out)
            }
            _ => {
                self.p.report(ProblemKind::Invalid(format!(
                    "{} vertex values are neither {count} unweighted vertices nor weighted ones",
                    v.len()
                )));
                w::Vertices::Plain(Vec::new())
            }
        }
    }
    fn short_indices(&mut self, v: &[u32], what: &str) -> Vec<u32> {
        if !self.v42() && v.iter().any(|&x| x > u32::from(u16::MAX)) {
            self.p.report(ProblemKind::Invalid(format!(
                "{what} over 65535 does not fit a {:?} binary (16 bits)",
                self.gen
            )));
        }
        v.to_vec()
    }
}

fn nonessential(s: &j::Skeleton) -> bool {
    let i = &s.info;
    i.fps.is_some()
        || i.images.is_some()
        || i.audio.is_some()
        || s.bones.iter().any(|b| b.color.is_some() || b.icon.is_some() || b.visible.is_some())
        || s.slots.iter().any(|sl| sl.visible.is_some())
}

fn hash_of(h: &Option<String>) -> [i32; 2] {
    match h.as_deref().and_then(spine_format::json43::hash_bytes) {
        Some(b) => [
            i32::from_be_bytes([b[0], b[1], b[2], b[3]]),
            i32::from_be_bytes([b[4], b[5], b[6], b[7]]),
        ],
        None => [0, 0],
    }
}

/// A 4.0–4.2 JSON skeleton as a binary skeleton of its declared version.
pub fn from_json(s: &j::Skeleton) -> Result<w::Skeleton, Vec<Problem>> {
    let version = s.info.spine.clone().unwrap_or_else(|| "4.2".into());
    let gen = match SpineVersion::parse(&version) {
        Some(v @ (SpineVersion::V4_0 | SpineVersion::V4_1)) => v,
        _ => SpineVersion::V4_2,
    };
    let mut skins = HashMap::new();
    let default_index = s.skins.iter().position(|k| k.name == "default");
    let mut order: Vec<usize> = Vec::new();
    order.extend(default_index);
    order.extend((0..s.skins.len()).filter(|&i| Some(i) != default_index));
    for (wire, &i) in order.iter().enumerate() {
        skins.entry(s.skins[i].name.as_str()).or_insert(wire as u32);
    }
    let mut c = FromJson {
        s,
        gen,
        strings: Strings::default(),
        p: Problems::default(),
        bones: HashMap::new(),
        slots: index_by_name(&s.slots, |x| x.name.as_str()),
        ik: index_by_name(&s.ik, |x| x.head.name.as_str()),
        transform: index_by_name(&s.transform, |x| x.head.name.as_str()),
        path: index_by_name(&s.path, |x| x.head.name.as_str()),
        physics: index_by_name(&s.physics, |x| x.head.name.as_str()),
        skins,
        events: index_by_name(&s.events, |x| x.name.as_str()),
    };
    let ne = nonessential(s);
    let v42 = c.v42();
    let mut bones = Vec::with_capacity(s.bones.len());
    for (i, b) in s.bones.iter().enumerate() {
        c.p.enter("bone", &b.name);
        let parent = match (&b.parent, i) {
            (_, 0) => None,
            (Some(p), _) => Some(match c.bones.get(p.as_str()) {
                Some(&pi) => pi,
                None => {
                    c.p.unknown("parent bone", p);
                    0
                }
            }),
            (None, _) => {
                c.p.report(ProblemKind::Invalid("only the first bone may have no parent".into()));
                Some(0)
            }
        };
        c.bones.entry(b.name.as_str()).or_insert(i as u32);
        bones.push(w::Bone {
            name: b.name.clone(),
            parent,
            rotation: b.rotation.unwrap_or(0.0),
            x: b.x.unwrap_or(0.0),
            y: b.y.unwrap_or(0.0),
            scale_x: b.scale_x.unwrap_or(1.0),
            scale_y: b.scale_y.unwrap_or(1.0),
            shear_x: b.shear_x.unwrap_or(0.0),
            shear_y: b.shear_y.unwrap_or(0.0),
            length: b.length.unwrap_or(0.0),
            inherit: inherit_from_json(b.inherit),
            skin_required: b.skin.unwrap_or(false),
            extras: ne.then(|| w::BoneExtras {
                color: b.color.unwrap_or([0x98, 0x98, 0x98, 0xff]),
                icon: if v42 { b.icon.clone() } else { None },
                visible: b.visible.unwrap_or(true),
            }),
        });
        c.p.pop();
    }
    let mut slots = Vec::with_capacity(s.slots.len());
    for sl in &s.slots {
        c.p.enter("slot", &sl.name);
        let bone = c.find("bone", &sl.bone);
        slots.push(w::Slot {
            name: sl.name.clone(),
            bone,
            color: sl.color.unwrap_or([0xff; 4]),
            // The editor's `00 R G B` (all `FF` means none).
            dark: match sl.dark {
                None => [0xff; 4],
                Some([r, g, b, _]) => [0, r, g, b],
            },
            attachment: c.strings.opt(sl.attachment.as_deref()),
            blend: blend_from_json(sl.blend),
            visible: (ne && v42).then(|| sl.visible.unwrap_or(true)),
        });
        c.p.pop();
    }
    let order_of = |h: &j::ConstraintHead| u32::try_from(h.order.unwrap_or(0)).unwrap_or(0);
    let mut ik = Vec::new();
    for k in &s.ik {
        c.p.enter("IK constraint", &k.head.name);
        let skin = k.head.skin.unwrap_or(false);
        let bend = if k.bend_positive.unwrap_or(true) { 1 } else { -1 };
        let (flags, mix, softness) = if v42 {
            let mut f = u8::from(skin);
            if bend > 0 {
                f |= 2;
            }
            for (bit, v) in [k.compress, k.stretch, k.uniform].iter().enumerate() {
                if v.unwrap_or(false) {
                    f |= 4 << bit;
                }
            }
            let mix = match k.mix {
                None => {
                    f |= 32;
                    None
                }
                Some(0.0) => None,
                Some(m) => {
                    f |= 32 | 64;
                    Some(m)
                }
            };
            if k.softness.is_some() {
                f |= 128;
            }
            (Some(f), mix, k.softness)
        } else {
            (None, Some(k.mix.unwrap_or(1.0)), Some(k.softness.unwrap_or(0.0)))
        };
        ik.push(w::IkConstraint {
            name: k.head.name.clone(),
            order: order_of(&k.head),
            bones: c.bones(&k.bones),
            target: c.find("bone", &k.target),
            flags,
            skin_required: skin,
            mix,
            softness,
            bend_direction: bend,
            compress: k.compress.unwrap_or(false),
            stretch: k.stretch.unwrap_or(false),
            uniform: k.uniform.unwrap_or(false),
        });
        c.p.pop();
    }
    let mut transform = Vec::new();
    for t in &s.transform {
        c.p.enter("transform constraint", &t.head.name);
        let skin = t.head.skin.unwrap_or(false);
        let (local, relative) = (t.local.unwrap_or(false), t.relative.unwrap_or(false));
        let m = &t.mix;
        let x = m.mix_x.unwrap_or(1.0);
        let sx = m.mix_scale_x.unwrap_or(1.0);
        let all = [
            t.rotation.unwrap_or(0.0),
            t.x.unwrap_or(0.0),
            t.y.unwrap_or(0.0),
            t.scale_x.unwrap_or(0.0),
            t.scale_y.unwrap_or(0.0),
            t.shear_y.unwrap_or(0.0),
            m.mix_rotate.unwrap_or(1.0),
            x,
            m.mix_y.unwrap_or(x),
            sx,
            m.mix_scale_y.unwrap_or(sx),
            m.mix_shear_y.unwrap_or(1.0),
        ];
        let (flags, values) = if v42 {
            let mut f0 = u8::from(skin) | (u8::from(local) << 1) | (u8::from(relative) << 2);
            let mut f1 = 0u8;
            let mut values = [None; 12];
            for (k, v) in all.iter().enumerate() {
                if *v != 0.0 {
                    values[k] = Some(*v);
                    if k < 5 {
                        f0 |= 8 << k;
                    } else {
                        f1 |= 1 << (k - 5);
                    }
                }
            }
            (Some([f0, f1]), values)
        } else {
            (None, all.map(Some))
        };
        transform.push(w::TransformConstraint {
            name: t.head.name.clone(),
            order: order_of(&t.head),
            bones: c.bones(&t.bones),
            target: c.find("bone", &t.target),
            flags,
            skin_required: skin,
            local,
            relative,
            values,
        });
        c.p.pop();
    }
    let mut path = Vec::new();
    for p in &s.path {
        c.p.enter("path constraint", &p.head.name);
        let pm = match p.position_mode.unwrap_or(j::PositionMode::Percent) {
            j::PositionMode::Fixed => w::PositionMode::Fixed,
            j::PositionMode::Percent => w::PositionMode::Percent,
        };
        let sm = match p.spacing_mode.unwrap_or(j::SpacingMode::Length) {
            j::SpacingMode::Length => w::SpacingMode::Length,
            j::SpacingMode::Fixed => w::SpacingMode::Fixed,
            j::SpacingMode::Percent => w::SpacingMode::Percent,
            j::SpacingMode::Proportional => w::SpacingMode::Proportional,
        };
        let rm = match p.rotate_mode.unwrap_or(j::RotateMode::Tangent) {
            j::RotateMode::Tangent => w::RotateMode::Tangent,
            j::RotateMode::Chain => w::RotateMode::Chain,
            j::RotateMode::ChainScale => w::RotateMode::ChainScale,
        };
        let rotation = p.rotation.unwrap_or(0.0);
        let (flags, offset_rotation) = if v42 {
            let mut f = (pm as u8) | ((sm as u8) << 1) | ((rm as u8) << 3);
            if rotation != 0.0 {
                f |= 128;
            }
            (Some(f), (rotation != 0.0).then_some(rotation))
        } else {
            (None, Some(rotation))
        };
        path.push(w::PathConstraint {
            name: p.head.name.clone(),
            order: order_of(&p.head),
            skin_required: p.head.skin.unwrap_or(false),
            bones: c.bones(&p.bones),
            target: c.find("slot", &p.target),
            flags,
            position_mode: pm,
            spacing_mode: sm,
            rotate_mode: rm,
            offset_rotation,
            position: p.position.unwrap_or(0.0),
            spacing: p.spacing.unwrap_or(0.0),
            mix_rotate: p.mix.mix_rotate.unwrap_or(1.0),
            mix_x: p.mix.mix_x.unwrap_or(1.0),
            mix_y: p.mix.mix_y.unwrap_or(1.0),
        });
        c.p.pop();
    }
    let mut physics = Vec::new();
    if v42 {
        for p in &s.physics {
            c.p.enter("physics constraint", &p.head.name);
            let mut flags = u8::from(p.head.skin.unwrap_or(false));
            for (bit, v) in [p.x, p.y, p.rotate, p.scale_x, p.shear_x, p.limit].iter().enumerate() {
                if v.is_some() {
                    flags |= 2 << bit;
                }
            }
            let mass_inverse = p.mass.map(|m| 1.0 / m);
            if mass_inverse.is_some() {
                flags |= 128;
            }
            let fps = p.fps.unwrap_or(60);
            if !(1..=255).contains(&fps) {
                c.p.report(ProblemKind::Invalid(format!(
                    "physics fps {fps} does not fit the binary format (1 to 255)"
                )));
            }
            let mut flags2 = 0u8;
            for (i, g) in p.global.iter().enumerate() {
                if g.unwrap_or(false) {
                    flags2 |= 1 << i;
                }
            }
            if p.mix.is_some() {
                flags2 |= 128;
            }
            physics.push(w::PhysicsConstraint {
                name: p.head.name.clone(),
                order: order_of(&p.head),
                bone: c.find("bone", &p.bone),
                flags,
                x: p.x,
                y: p.y,
                rotate: p.rotate,
                scale_x: p.scale_x,
                shear_x: p.shear_x,
                limit: p.limit,
                fps: fps.clamp(1, 255) as u8,
                inertia: p.inertia.unwrap_or(1.0),
                strength: p.strength.unwrap_or(100.0),
                damping: p.damping.unwrap_or(1.0),
                mass_inverse,
                wind: p.wind.unwrap_or(0.0),
                gravity: p.gravity.unwrap_or(0.0),
                flags2,
                mix: p.mix,
            });
            c.p.pop();
        }
    }
    let mut default_skin = None;
    let mut skins = Vec::new();
    for &i in &order {
        let k = &s.skins[i];
        c.p.enter("skin", &k.name);
        let slots = skin_slots_from_json(&mut c, k, ne);
        if Some(i) == default_index {
            default_skin = Some(slots);
        } else {
            let name = if v42 {
                w::Name::Inline(k.name.clone())
            } else {
                w::Name::Ref(c.strings.get(&k.name))
            };
            let bones = c.bones(&k.bones);
            let ik = k.ik.iter().map(|n| c.find("IK constraint", n)).collect();
            let transform = k.transform.iter().map(|n| c.find("transform constraint", n)).collect();
            let path = k.path.iter().map(|n| c.find("path constraint", n)).collect();
            let physics = k.physics.iter().map(|n| c.find("physics constraint", n)).collect();
            skins.push(w::Skin {
                name,
                color: (v42 && ne).then(|| k.color.unwrap_or([0; 4])),
                bones,
                ik,
                transform,
                path,
                physics,
                slots,
            });
        }
        c.p.pop();
    }
    let events = s
        .events
        .iter()
        .map(|e| w::EventData {
            name: if v42 {
                w::Name::Inline(e.name.clone())
            } else {
                w::Name::Ref(c.strings.get(&e.name))
            },
            int: e.int.unwrap_or(0),
            float: e.float.unwrap_or(0.0),
            string: e.string.clone(),
            audio: e.audio.clone().map(|path| w::EventAudio {
                path,
                volume: e.volume.unwrap_or(1.0),
                balance: e.balance.unwrap_or(0.0),
            }),
        })
        .collect::<Vec<_>>();
    let animations = s.animations.iter().map(|a| animation_from_json(&mut c, a, &events)).collect();
    if !c.p.list.is_empty() {
        return Err(c.p.list);
    }
    let i = &s.info;
    Ok(w::Skeleton {
        generation: gen,
        header: w::Header {
            hash: hash_of(&i.hash),
            version,
            x: i.x.unwrap_or(0.0),
            y: i.y.unwrap_or(0.0),
            width: i.width.unwrap_or(0.0),
            height: i.height.unwrap_or(0.0),
            reference_scale: v42.then(|| i.reference_scale.unwrap_or(100.0)),
            nonessential: ne.then(|| w::HeaderExtras {
                fps: i.fps.unwrap_or(30.0),
                images_path: i.images.clone(),
                audio_path: i.audio.clone(),
            }),
        },
        strings: std::mem::take(&mut c.strings.list),
        bones,
        slots,
        ik_constraints: ik,
        transform_constraints: transform,
        path_constraints: path,
        physics_constraints: physics,
        default_skin,
        skins,
        events,
        animations,
    })
}

fn skin_slots_from_json(c: &mut FromJson<'_>, k: &j::Skin, ne: bool) -> w::SkinSlots {
    let mut out = w::SkinSlots::default();
    let v42 = c.v42();
    for sl in &k.slots {
        c.p.enter("slot", &sl.slot);
        let slot = c.find("slot", &sl.slot);
        let mut list = Vec::with_capacity(sl.attachments.len());
        for a in &sl.attachments {
            c.p.enter("attachment", &a.key);
            let key = c.strings.get(&a.key);
            let name = c.strings.opt(a.name.as_deref());
            let (mut flags, kind) = attachment_from_json(c, a, ne);
            if v42 {
                if name != StrRef::NONE {
                    flags |= 8;
                }
            } else {
                flags &= 7;
            }
            list.push(w::SkinAttachment { key, attachment: w::Attachment { flags, name, kind } });
            c.p.pop();
        }
        out.push_slot(slot, list);
        c.p.pop();
    }
    out
}

/// The attachment and its flag byte (4.2 bits; the type code alone before 4.2).
fn attachment_from_json(
    c: &mut FromJson<'_>,
    a: &j::Attachment,
    ne: bool,
) -> (u8, w::AttachmentKind) {
    use w::attachment_type as t;
    let v41 = c.v41();
    let bits = |list: [bool; 4]| {
        list.iter().enumerate().fold(0u8, |f, (i, &b)| if b { f | (16 << i) } else { f })
    };
    let sequence_of = |c: &mut FromJson<'_>, s: &Option<j::Sequence>| {
        if s.is_some() && !v41 {
            c.p.report(ProblemKind::Invalid("a sequence cannot be written in a 4.0 binary".into()));
        }
        if v41 {
            seq_from_json(s)
        } else {
            None
        }
    };
    match &a.kind {
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
            let sequence = sequence_of(c, sequence);
            let path_ref = c.strings.opt(path.as_deref());
            let rotation = rotation.unwrap_or(0.0);
            let color = color.unwrap_or([0xff; 4]);
            let f = t::REGION
                | bits([path.is_some(), color != [0xff; 4], sequence.is_some(), rotation != 0.0]);
            (
                f,
                w::AttachmentKind::Region(w::Region {
                    path: path_ref,
                    color,
                    sequence,
                    rotation,
                    x: x.unwrap_or(0.0),
                    y: y.unwrap_or(0.0),
                    scale_x: scale_x.unwrap_or(1.0),
                    scale_y: scale_y.unwrap_or(1.0),
                    width: *width,
                    height: *height,
                }),
            )
        }
        j::AttachmentKind::BoundingBox { vertex_count, vertices, color } => {
            let vertices = c.vertices(*vertex_count as usize, vertices);
            let f = t::BOUNDING_BOX | bits([vertices.is_weighted(), false, false, false]);
            (
                f,
                w::AttachmentKind::BoundingBox(w::VertexShape {
                    vertices,
                    color: if ne { Some(color.unwrap_or([0x60, 0xf0, 0x00, 0xff])) } else { None },
                }),
            )
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
            let sequence = sequence_of(c, sequence);
            let vertices = c.vertices(uvs.len() / 2, vertices);
            let hull = hull.unwrap_or(0);
            if c.v42() {
                let implied = (uvs.len() as i64 - i64::from(hull) - 2) * 3;
                if triangles.len() as i64 != implied {
                    c.p.report(ProblemKind::Invalid(format!(
                        "{} triangle indices; a mesh of {} vertices with a hull of {hull} has {implied}",
                        triangles.len(),
                        uvs.len() / 2
                    )));
                }
            }
            let triangles = c.short_indices(triangles, "triangle index");
            let edges = c.short_indices(edges.as_deref().unwrap_or(&[]), "edge index");
            let color = color.unwrap_or([0xff; 4]);
            let f = t::MESH
                | bits([
                    path.is_some(),
                    color != [0xff; 4],
                    sequence.is_some(),
                    vertices.is_weighted(),
                ]);
            (
                f,
                w::AttachmentKind::Mesh(w::Mesh {
                    path: c.strings.opt(path.as_deref()),
                    color,
                    sequence,
                    uvs: uvs.clone(),
                    triangles,
                    vertices,
                    hull,
                    extras: ne.then(|| w::MeshExtras {
                        edges,
                        width: width.unwrap_or(0.0),
                        height: height.unwrap_or(0.0),
                    }),
                }),
            )
        }
        j::AttachmentKind::LinkedMesh {
            path,
            color,
            width,
            height,
            sequence,
            parent,
            skin,
            timelines,
        } => {
            let sequence = sequence_of(c, sequence);
            let inherit = timelines.unwrap_or(true);
            let color = color.unwrap_or([0xff; 4]);
            let f = t::LINKED_MESH
                | bits([path.is_some(), color != [0xff; 4], sequence.is_some(), inherit]);
            let skin = if c.v42() {
                w::SkinRef::Index(match skin {
                    Some(n) => c.find("skin", n),
                    None => match c.skins.get("default") {
                        Some(&i) => i,
                        None => {
                            c.p.unknown("skin", "default");
                            0
                        }
                    },
                })
            } else {
                w::SkinRef::Name(c.strings.opt(skin.as_deref()))
            };
            (
                f,
                w::AttachmentKind::LinkedMesh(w::LinkedMesh {
                    path: c.strings.opt(path.as_deref()),
                    color,
                    sequence,
                    skin,
                    parent: c.strings.get(parent),
                    inherit_timelines: inherit,
                    size: ne.then(|| [width.unwrap_or(0.0), height.unwrap_or(0.0)]),
                }),
            )
        }
        j::AttachmentKind::Path {
            closed,
            constant_speed,
            vertex_count,
            vertices,
            lengths,
            color,
        } => {
            let vertices = c.vertices(*vertex_count as usize, vertices);
            let (closed, constant_speed) =
                (closed.unwrap_or(false), constant_speed.unwrap_or(true));
            let f = t::PATH | bits([closed, constant_speed, vertices.is_weighted(), false]);
            let mut lengths = lengths.clone();
            lengths.resize(*vertex_count as usize / 3, 0.0);
            (
                f,
                w::AttachmentKind::Path(w::PathAttachment {
                    closed,
                    constant_speed,
                    vertices,
                    lengths,
                    color: if ne { Some(color.unwrap_or([0xff, 0x77, 0x00, 0xff])) } else { None },
                }),
            )
        }
        j::AttachmentKind::Point { x, y, rotation, color } => (
            t::POINT,
            w::AttachmentKind::Point(w::Point {
                rotation: rotation.unwrap_or(0.0),
                x: x.unwrap_or(0.0),
                y: y.unwrap_or(0.0),
                color: if ne { Some(color.unwrap_or([0xf1, 0xf1, 0x00, 0xff])) } else { None },
            }),
        ),
        j::AttachmentKind::Clipping { end, vertex_count, vertices, color } => {
            let end_slot = match end {
                Some(n) => c.find("slot", n),
                None => c.s.slots.len().saturating_sub(1) as u32,
            };
            let vertices = c.vertices(*vertex_count as usize, vertices);
            let f = t::CLIPPING | bits([vertices.is_weighted(), false, false, false]);
            (
                f,
                w::AttachmentKind::Clipping(w::Clipping {
                    end_slot,
                    vertices,
                    color: if ne { Some(color.unwrap_or([0xce, 0x3a, 0x3a, 0xff])) } else { None },
                }),
            )
        }
    }
}

fn one(v: &Option<f32>, d: f32) -> [f32; 1] {
    [v.unwrap_or(d)]
}

fn xy(v: &Xy, d: f32) -> [f32; 2] {
    [v.x.unwrap_or(d), v.y.unwrap_or(d)]
}

fn animation_from_json(
    c: &mut FromJson<'_>,
    a: &j::Animation,
    events_def: &[w::EventData],
) -> wa::Animation {
    c.p.enter("animation", &a.name);
    let v42 = c.v42();
    let v41 = c.v41();
    let mut count = 0usize;
    let mut slots = Vec::new();
    let mut slot_timelines = Vec::new();
    for n in &a.slots {
        let slot = c.find("slot", &n.name);
        let before = slot_timelines.len();
        for t in &n.timelines {
            slot_timelines.push(match t {
                SlotTimeline::Attachment(k) => wa::SlotTimeline::Attachment(
                    k.iter()
                        .map(|k| wa::AttachmentKey {
                            time: k.time,
                            name: c.strings.opt(k.value.as_deref()),
                        })
                        .collect(),
                ),
                SlotTimeline::Rgba(k) => wa::SlotTimeline::Rgba(curve_timeline(k, |v| *v)),
                SlotTimeline::Rgb(k) => {
                    wa::SlotTimeline::Rgb(curve_timeline(k, |v| [v[0], v[1], v[2]]))
                }
                SlotTimeline::Rgba2(k) => {
                    wa::SlotTimeline::Rgba2(curve_timeline(k, |v: &TwoColor| {
                        let (l, d) = (v.light, v.dark);
                        [l[0], l[1], l[2], l[3], d[0], d[1], d[2]]
                    }))
                }
                SlotTimeline::Rgb2(k) => {
                    wa::SlotTimeline::Rgb2(curve_timeline(k, |v: &TwoColor| {
                        let (l, d) = (v.light, v.dark);
                        [l[0], l[1], l[2], d[0], d[1], d[2]]
                    }))
                }
                SlotTimeline::Alpha(k) => {
                    wa::SlotTimeline::Alpha(curve_timeline(k, |v| [byte_of(v.unwrap_or(0.0))]))
                }
            });
        }
        let n_t = slot_timelines.len() - before;
        count += n_t;
        slots.push(wa::SlotTimelines { slot, count: n_t as u32 });
    }
    let mut bones = Vec::new();
    let mut bone_timelines = Vec::new();
    for n in &a.bones {
        let bone = c.find("bone", &n.name);
        let before = bone_timelines.len();
        for t in &n.timelines {
            bone_timelines.push(match t {
                BoneTimeline::Rotate(k) => {
                    wa::BoneTimeline::Rotate(curve_timeline(k, |v| one(v, 0.0)))
                }
                BoneTimeline::Translate(k) => {
                    wa::BoneTimeline::Translate(curve_timeline(k, |v| xy(v, 0.0)))
                }
                BoneTimeline::TranslateX(k) => {
                    wa::BoneTimeline::TranslateX(curve_timeline(k, |v| one(v, 0.0)))
                }
                BoneTimeline::TranslateY(k) => {
                    wa::BoneTimeline::TranslateY(curve_timeline(k, |v| one(v, 0.0)))
                }
                BoneTimeline::Scale(k) => {
                    wa::BoneTimeline::Scale(curve_timeline(k, |v| xy(v, 1.0)))
                }
                BoneTimeline::ScaleX(k) => {
                    wa::BoneTimeline::ScaleX(curve_timeline(k, |v| one(v, 1.0)))
                }
                BoneTimeline::ScaleY(k) => {
                    wa::BoneTimeline::ScaleY(curve_timeline(k, |v| one(v, 1.0)))
                }
                BoneTimeline::Shear(k) => {
                    wa::BoneTimeline::Shear(curve_timeline(k, |v| xy(v, 0.0)))
                }
                BoneTimeline::ShearX(k) => {
                    wa::BoneTimeline::ShearX(curve_timeline(k, |v| one(v, 0.0)))
                }
                BoneTimeline::ShearY(k) => {
                    wa::BoneTimeline::ShearY(curve_timeline(k, |v| one(v, 0.0)))
                }
                BoneTimeline::Inherit(k) => {
                    if !v42 {
                        c.p.report(ProblemKind::Invalid("an inherit timeline before 4.2".into()));
                    }
                    wa::BoneTimeline::Inherit(
                        k.iter()
                            .map(|k| wa::InheritKey {
                                time: k.time,
                                inherit: inherit_from_json(k.value),
                            })
                            .collect(),
                    )
                }
            });
        }
        let n_t = bone_timelines.len() - before;
        count += n_t;
        bones.push(wa::BoneTimelines { bone, count: n_t as u32 });
    }
    let mut ik = Vec::new();
    for n in &a.ik {
        let constraint = c.find("IK constraint", &n.name);
        let mut bezier_count = 0;
        let keys = n
            .timelines
            .iter()
            .enumerate()
            .map(|(i, k)| {
                let v = &k.value;
                let bend = if v.bend_positive.unwrap_or(true) { 1 } else { -1 };
                let (curve, bezier) = if i > 0 {
                    match binary_curve(&n.timelines[i - 1].curve, 2) {
                        (CurveType::Bezier, b) => {
                            bezier_count += 2;
                            (CurveType::Bezier, Some([b[0], b[1]]))
                        }
                        (ty, _) => (ty, None),
                    }
                } else {
                    (CurveType::Linear, None)
                };
                if v42 {
                    let mut f = 0u8;
                    let mix = match v.mix {
                        None => {
                            f |= 1;
                            None
                        }
                        Some(0.0) => None,
                        Some(m) => {
                            f |= 1 | 2;
                            Some(m)
                        }
                    };
                    if v.softness.is_some() {
                        f |= 4;
                    }
                    if bend > 0 {
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
                    wa::IkKey {
                        flags: Some(f),
                        time: k.time,
                        mix,
                        softness: v.softness,
                        bend_direction: bend,
                        compress: v.compress.unwrap_or(false),
                        stretch: v.stretch.unwrap_or(false),
                        curve,
                        bezier,
                    }
                } else {
                    wa::IkKey {
                        flags: None,
                        time: k.time,
                        mix: Some(v.mix.unwrap_or(1.0)),
                        softness: Some(v.softness.unwrap_or(0.0)),
                        bend_direction: bend,
                        compress: v.compress.unwrap_or(false),
                        stretch: v.stretch.unwrap_or(false),
                        curve,
                        bezier,
                    }
                }
            })
            .collect();
        ik.push(wa::IkTimeline { constraint, bezier_count, keys });
        count += 1;
    }
    let mut transform = Vec::new();
    for n in &a.transform {
        let constraint = c.find("transform constraint", &n.name);
        let timeline = curve_timeline(&n.timelines, |m: &TransformMix| {
            let x = m.mix_x.unwrap_or(1.0);
            let sx = m.mix_scale_x.unwrap_or(1.0);
            [
                m.mix_rotate.unwrap_or(1.0),
                x,
                m.mix_y.unwrap_or(x),
                sx,
                m.mix_scale_y.unwrap_or(sx),
                m.mix_shear_y.unwrap_or(1.0),
            ]
        });
        transform.push(wa::TransformTimeline { constraint, timeline });
        count += 1;
    }
    let mut path = Vec::new();
    for n in &a.path {
        let constraint = c.find("path constraint", &n.name);
        let timelines: Vec<_> = n
            .timelines
            .iter()
            .map(|t| match t {
                j::PathTimeline::Position(k) => {
                    wa::PathTimeline::Position(curve_timeline(k, |v| one(v, 0.0)))
                }
                j::PathTimeline::Spacing(k) => {
                    wa::PathTimeline::Spacing(curve_timeline(k, |v| one(v, 0.0)))
                }
                j::PathTimeline::Mix(k) => {
                    wa::PathTimeline::Mix(curve_timeline(k, |m: &PathMix| {
                        let x = m.mix_x.unwrap_or(1.0);
                        [m.mix_rotate.unwrap_or(1.0), x, m.mix_y.unwrap_or(x)]
                    }))
                }
            })
            .collect();
        count += timelines.len();
        path.push(wa::PathTimelines { constraint, timelines });
    }
    let mut physics = Vec::new();
    for n in &a.physics {
        let constraint =
            if n.name.is_empty() { 0 } else { c.find("physics constraint", &n.name) + 1 };
        let timelines: Vec<_> = n
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
        count += timelines.len();
        physics.push(wa::PhysicsTimelines { constraint, timelines });
    }
    let mut attachments: Vec<wa::SkinTimelines> = Vec::new();
    for at in &a.attachments {
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
        let li = match attachments[si].slots.iter().position(|s| s.slot == slot) {
            Some(i) => i,
            None => {
                attachments[si]
                    .slots
                    .push(wa::SlotAttachmentTimelines { slot, attachments: Vec::new() });
                attachments[si].slots.len() - 1
            }
        };
        for t in &at.timelines {
            let timeline = match t {
                AttachmentTimeline::Deform(keys) => {
                    let mut bezier_count = 0;
                    let keys = keys
                        .iter()
                        .enumerate()
                        .map(|(i, k)| {
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
                                Some(v) if !v.is_empty() => {
                                    (k.value.offset.unwrap_or(0).max(0) as u32, v.clone())
                                }
                                _ => (0, Vec::new()),
                            };
                            wa::DeformKey { time: k.time, curve, bezier, start, values }
                        })
                        .collect();
                    wa::AttachmentTimeline::Deform(wa::DeformTimeline { bezier_count, keys })
                }
                AttachmentTimeline::Sequence(keys) => {
                    if !v41 {
                        c.p.report(ProblemKind::Invalid("a sequence timeline before 4.1".into()));
                    }
                    let mut last_delay = 0.0;
                    wa::AttachmentTimeline::Sequence(
                        keys.iter()
                            .map(|k| {
                                let delay = k.value.delay.unwrap_or(last_delay);
                                last_delay = delay;
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
                            .collect(),
                    )
                }
            };
            attachments[si].slots[li]
                .attachments
                .push(wa::AttachmentTimelineEntry { attachment, timeline });
            count += 1;
        }
    }
    let draw_order = match &a.draw_order {
        Some(keys) => {
            count += 1;
            keys.iter()
                .map(|k| wa::DrawOrderKey {
                    time: k.time,
                    changes: k
                        .value
                        .iter()
                        .flatten()
                        .map(|o| DrawOrderChange { slot: c.find("slot", &o.slot), shift: o.offset })
                        .collect(),
                })
                .collect()
        }
        None => Vec::new(),
    };
    let mut events = Vec::new();
    if let Some(keys) = &a.events {
        count += 1;
        for k in keys {
            let event = c.find("event", &k.value.name);
            let def = events_def.get(event as usize);
            let audio = def.and_then(|d| d.audio.as_ref());
            events.push(wa::EventKey {
                time: k.time,
                event,
                int: k.value.int.unwrap_or(def.map_or(0, |d| d.int)),
                float: k.value.float.unwrap_or(def.map_or(0.0, |d| d.float)),
                string: k.value.string.clone(),
                audio: audio.map(|a| {
                    [k.value.volume.unwrap_or(a.volume), k.value.balance.unwrap_or(a.balance)]
                }),
            });
        }
    }
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
