//! The unified 4.3 constraint list (IK, transform, path, physics, slider) both ways, one
//! function per kind. A binary constraint codes which values are present in flag bits
//! (an absent value is the loader's default).

use spine_format::binary::v43 as w;
use spine_format::json as j1;
use spine_format::json43 as j;

use super::context::{FromJson, ToJson};
use super::{mass_inverse_of, mass_of, prop_from_json, prop_to_json};
use super::{scale_y_from_json, scale_y_to_json};
use crate::convert::json_common::{
    global_flags, global_to_json, mix_from_json, mix_to_json, some_if,
};
use crate::error::ProblemKind;

// ---------------------------------------------------------------------------------------
// Binary → JSON
// ---------------------------------------------------------------------------------------

/// The JSON form of a constraint.
pub(super) fn constraint_to_json(c: &ToJson<'_>, k: &w::Constraint) -> j::Constraint {
    let (skin, kind) = match &k.kind {
        w::ConstraintKind::Ik(ik) => (ik.skin_required(), j::ConstraintKind::Ik(ik_to_json(c, ik))),
        w::ConstraintKind::Transform(t) => {
            (t.skin_required(), j::ConstraintKind::Transform(transform_to_json(c, t)))
        }
        w::ConstraintKind::Path(p) => {
            (p.skin_required(), j::ConstraintKind::Path(path_to_json(c, p)))
        }
        w::ConstraintKind::Physics(p) => {
            (p.skin_required(), j::ConstraintKind::Physics(physics_to_json(c, p)))
        }
        w::ConstraintKind::Slider(sl) => {
            (sl.skin_required(), j::ConstraintKind::Slider(slider_to_json(c, sl)))
        }
    };
    j::Constraint { name: k.name.clone(), skin: skin.then_some(true), kind }
}

fn ik_to_json(c: &ToJson<'_>, ik: &w::IkConstraint) -> j::IkConstraint {
    j::IkConstraint {
        bones: c.bones(&ik.bones),
        target: c.bone(ik.target),
        scale_y: ik.scale_y_mode.map(scale_y_to_json),
        mix: mix_to_json(ik.flags & 32 != 0, ik.flags & 64 != 0, ik.mix),
        softness: ik.softness,
        bend_positive: (ik.bend_direction() < 0).then_some(false),
        compress: ik.compress().then_some(true),
        stretch: ik.stretch().then_some(true),
    }
}

fn transform_to_json(c: &ToJson<'_>, t: &w::TransformConstraint) -> j::TransformConstraint {
    let (properties, written) = transform_properties_to_json(t);
    let mut mixes = [None; 6];
    for (i, m) in mixes.iter_mut().enumerate() {
        if written[i] {
            *m = Some(t.mixes[i].unwrap_or(0.0));
        }
    }
    j::TransformConstraint {
        bones: c.bones(&t.bones),
        source: c.bone(t.source),
        local_source: t.local_source().then_some(true),
        local_target: t.local_target().then_some(true),
        additive: t.additive().then_some(true),
        clamp: t.clamp().then_some(true),
        properties,
        offsets: t.offsets,
        mixes,
    }
}

/// The JSON source properties of a transform constraint (those with targets) and which
/// target properties are written.
fn transform_properties_to_json(t: &w::TransformConstraint) -> (Vec<j::FromEntry>, [bool; 6]) {
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
    (properties, written)
}

fn path_to_json(c: &ToJson<'_>, p: &w::PathConstraint) -> j::PathConstraint {
    j::PathConstraint {
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
    }
}

fn physics_to_json(c: &ToJson<'_>, p: &w::PhysicsConstraint) -> j::PhysicsConstraint {
    let (scale_x, mode) = p.scale_x_and_mode();
    j::PhysicsConstraint {
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
        global: global_to_json(p.global_flags),
    }
}

fn slider_to_json(c: &ToJson<'_>, sl: &w::SliderConstraint) -> j::SliderConstraint {
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
    j::SliderConstraint {
        additive: sl.additive().then_some(true),
        looping: sl.looping().then_some(true),
        mix: mix_to_json(sl.flags & 16 != 0, sl.flags & 32 != 0, sl.mix),
        time: if bone.is_none() { sl.value } else { None },
        bone,
        animation: c
            .s
            .animations
            .get(sl.animation as usize)
            .map(|a| a.name.to_string())
            .unwrap_or_default(),
    }
}

// ---------------------------------------------------------------------------------------
// JSON → binary
// ---------------------------------------------------------------------------------------

/// The binary form of a constraint (`ne`: the skeleton carries nonessential data).
pub(super) fn constraint_from_json(
    c: &mut FromJson<'_>,
    k: &j::Constraint,
    ne: bool,
) -> w::Constraint {
    let skin = u8::from(k.skin.unwrap_or(false));
    let what = match &k.kind {
        j::ConstraintKind::Ik(_) => "IK constraint",
        j::ConstraintKind::Transform(_) => "transform constraint",
        j::ConstraintKind::Path(_) => "path constraint",
        j::ConstraintKind::Physics(_) => "physics constraint",
        j::ConstraintKind::Slider(_) => "slider",
    };
    c.p.enter(what, &k.name);
    let kind = match &k.kind {
        j::ConstraintKind::Ik(ik) => w::ConstraintKind::Ik(ik_from_json(c, ik, skin)),
        j::ConstraintKind::Transform(t) => {
            w::ConstraintKind::Transform(transform_from_json(c, t, skin))
        }
        j::ConstraintKind::Path(p) => w::ConstraintKind::Path(path_from_json(c, p, skin)),
        j::ConstraintKind::Physics(p) => w::ConstraintKind::Physics(physics_from_json(c, p, skin)),
        j::ConstraintKind::Slider(sl) => {
            w::ConstraintKind::Slider(slider_from_json(c, sl, skin, ne))
        }
    };
    c.p.pop();
    w::Constraint { name: k.name.clone(), kind }
}

/// `skin` is the skin-required flag bit every constraint starts with.
fn ik_from_json(c: &mut FromJson<'_>, ik: &j::IkConstraint, skin: u8) -> w::IkConstraint {
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
    let (bits, mix) = mix_from_json(ik.mix);
    flags |= bits << 5;
    if ik.softness.is_some() {
        flags |= 128;
    }
    w::IkConstraint {
        bones: c.bones(&ik.bones),
        target: c.bone(&ik.target),
        flags,
        scale_y_mode: ik.scale_y.map(scale_y_from_json),
        mix,
        softness: ik.softness,
    }
}

fn transform_from_json(
    c: &mut FromJson<'_>,
    t: &j::TransformConstraint,
    skin: u8,
) -> w::TransformConstraint {
    let mut flags = skin;
    for (bit, v) in [t.local_source, t.local_target, t.additive, t.clamp].iter().enumerate() {
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
    let (mix_flags, mixes) = transform_mixes_from_json(&t.mixes, &written);
    w::TransformConstraint {
        bones: c.bones(&t.bones),
        source: c.bone(&t.source),
        flags,
        properties,
        offset_flags,
        offsets: t.offsets,
        mix_flags,
        mixes,
    }
}

/// The binary mixes of a transform constraint and their flag bits: the loader reads a mix
/// only for a property some target writes.
fn transform_mixes_from_json(m: &[Option<f32>; 6], written: &[bool; 6]) -> (u8, [Option<f32>; 6]) {
    let mut mixes = [None; 6];
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
    (mix_flags, mixes)
}

fn path_from_json(c: &mut FromJson<'_>, p: &j::PathConstraint, skin: u8) -> w::PathConstraint {
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
    w::PathConstraint {
        bones: c.bones(&p.bones),
        slot: c.slot(&p.slot),
        flags,
        offset_rotation: p.rotation,
        position: p.position.unwrap_or(0.0),
        spacing: p.spacing.unwrap_or(0.0),
        mix_rotate: p.mix_rotate.unwrap_or(1.0),
        mix_x,
        mix_y: p.mix_y.unwrap_or(mix_x),
    }
}

fn physics_from_json(
    c: &mut FromJson<'_>,
    p: &j::PhysicsConstraint,
    skin: u8,
) -> w::PhysicsConstraint {
    let mut flags = skin;
    let mode = p.scale_y.unwrap_or(j::ScaleYMode::None);
    // The scale Y mode rides on the sign of the wire scale X.
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
    w::PhysicsConstraint {
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
        global_flags: global_flags(&p.global, p.mix),
        mix: p.mix,
    }
}

fn slider_from_json(
    c: &mut FromJson<'_>,
    sl: &j::SliderConstraint,
    skin: u8,
    ne: bool,
) -> w::SliderConstraint {
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
    let (bits, mix) = mix_from_json(sl.mix);
    flags |= bits << 4;
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
    w::SliderConstraint { flags, value, mix, bone, animation }
}
