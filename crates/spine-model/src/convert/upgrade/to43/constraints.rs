//! Constraints as 4.3 records: one function per kind, the optional values behind flag bits.

use spine_format::binary::v43 as w;

use super::{mix43, prop43};
use crate::data::*;

/// A constraint as a 4.3 record (the skin-required flag is bit 0 of every kind).
pub(super) fn constraint_v43(c: &ConstraintData) -> w::Constraint {
    let skin = u8::from(c.skin_required);
    let kind = match &c.kind {
        ConstraintKind::Ik(k) => w::ConstraintKind::Ik(ik(k, skin)),
        ConstraintKind::Transform(t) => w::ConstraintKind::Transform(transform(t, skin)),
        ConstraintKind::Path(p) => w::ConstraintKind::Path(path(p, skin)),
        ConstraintKind::Physics(p) => w::ConstraintKind::Physics(physics(p, skin)),
        ConstraintKind::Slider(s) => w::ConstraintKind::Slider(slider(s, skin)),
    };
    w::Constraint { name: c.name.clone(), kind }
}

fn scale_y43(m: ScaleYMode) -> w::ScaleYMode {
    match m {
        ScaleYMode::None => w::ScaleYMode::None,
        ScaleYMode::Uniform => w::ScaleYMode::Uniform,
        ScaleYMode::Volume => w::ScaleYMode::Volume,
    }
}

fn ik(k: &IkData, mut flags: u8) -> w::IkConstraint {
    if k.scale_y_mode != ScaleYMode::None {
        flags |= 2;
    }
    if k.bend_direction < 0 {
        flags |= 4;
    }
    if k.compress {
        flags |= 8;
    }
    if k.stretch {
        flags |= 16;
    }
    let mix = mix43(k.mix, &mut flags, 32, 64);
    let softness = (k.softness != 0.0).then_some(k.softness);
    if softness.is_some() {
        flags |= 128;
    }
    w::IkConstraint {
        bones: k.bones.iter().map(|b| b.0).collect(),
        target: k.target.0,
        flags,
        scale_y_mode: (k.scale_y_mode != ScaleYMode::None).then(|| scale_y43(k.scale_y_mode)),
        mix,
        softness,
    }
}

/// The from/to mapping of a transform constraint: its own (4.3), else the identity mapping
/// of the six properties (3.x / 4.0–4.2).
fn transform_properties(t: &TransformData) -> Vec<w::FromProperty> {
    if t.solver == TransformSolver::FromTo {
        return t
            .properties
            .iter()
            .map(|f| w::FromProperty {
                property: prop43(f.property),
                offset: f.offset,
                to: f
                    .to
                    .iter()
                    .map(|to| w::ToProperty {
                        property: prop43(to.property),
                        offset: to.offset,
                        max: to.max,
                        scale: to.scale,
                    })
                    .collect(),
            })
            .collect();
    }
    [
        w::TransformProperty::Rotate,
        w::TransformProperty::X,
        w::TransformProperty::Y,
        w::TransformProperty::ScaleX,
        w::TransformProperty::ScaleY,
        w::TransformProperty::ShearY,
    ]
    .into_iter()
    .map(|p| w::FromProperty {
        property: p,
        offset: 0.0,
        to: vec![w::ToProperty { property: p, offset: 0.0, max: 1.0, scale: 1.0 }],
    })
    .collect()
}

fn transform(t: &TransformData, mut flags: u8) -> w::TransformConstraint {
    for (bit, v) in [t.local_source, t.local_target, t.additive, t.clamp].iter().enumerate() {
        if *v {
            flags |= 2 << bit;
        }
    }
    let mut offsets = [None; 6];
    let mut offset_flags = 0u8;
    let mut mixes = [None; 6];
    let mut mix_flags = 0u8;
    for i in 0..6 {
        if t.offsets[i] != 0.0 {
            offsets[i] = Some(t.offsets[i]);
            offset_flags |= 1 << i;
        }
        if t.mixes[i] != 0.0 {
            mixes[i] = Some(t.mixes[i]);
            mix_flags |= 1 << i;
        }
    }
    w::TransformConstraint {
        bones: t.bones.iter().map(|b| b.0).collect(),
        source: t.source.0,
        flags,
        properties: transform_properties(t),
        offset_flags,
        offsets,
        mix_flags,
        mixes,
    }
}

fn path(p: &PathData, mut flags: u8) -> w::PathConstraint {
    if p.position_mode == PositionMode::Percent {
        flags |= 2;
    }
    flags |= (match p.spacing_mode {
        SpacingMode::Length => 0,
        SpacingMode::Fixed => 1,
        SpacingMode::Percent => 2,
        SpacingMode::Proportional => 3,
    }) << 2;
    flags |= (match p.rotate_mode {
        RotateMode::Tangent => 0,
        RotateMode::Chain => 1,
        RotateMode::ChainScale => 2,
    }) << 4;
    let offset_rotation = (p.offset_rotation != 0.0).then_some(p.offset_rotation);
    if offset_rotation.is_some() {
        flags |= 128;
    }
    w::PathConstraint {
        bones: p.bones.iter().map(|b| b.0).collect(),
        slot: p.slot.0,
        flags,
        offset_rotation,
        position: p.position,
        spacing: p.spacing,
        mix_rotate: p.mix_rotate,
        mix_x: p.mix_x,
        mix_y: p.mix_y,
    }
}

fn physics(p: &PhysicsData, mut flags: u8) -> w::PhysicsConstraint {
    let scale_x = match p.scale_y_mode {
        ScaleYMode::None => p.scale_x,
        ScaleYMode::Uniform => -1.0 - p.scale_x,
        ScaleYMode::Volume => -2.0 - p.scale_x,
    };
    let opt = |v: f32| (v != 0.0).then_some(v);
    let (x, y, rotate, scale_x, shear_x) =
        (opt(p.x), opt(p.y), opt(p.rotate), opt(scale_x), opt(p.shear_x));
    let limit = (p.limit != 5000.0).then_some(p.limit);
    for (bit, v) in [x, y, rotate, scale_x, shear_x, limit].iter().enumerate() {
        if v.is_some() {
            flags |= 2 << bit;
        }
    }
    let mass_inverse = (p.mass_inverse != 1.0).then_some(p.mass_inverse);
    if mass_inverse.is_some() {
        flags |= 128;
    }
    let g = &p.globals;
    let mut global_flags = 0u8;
    for (i, v) in
        [g.inertia, g.strength, g.damping, g.mass, g.wind, g.gravity, g.mix].iter().enumerate()
    {
        if *v {
            global_flags |= 1 << i;
        }
    }
    let mix = (p.mix != 1.0).then_some(p.mix);
    if mix.is_some() {
        global_flags |= 128;
    }
    w::PhysicsConstraint {
        bone: p.bone.0,
        flags,
        x,
        y,
        rotate,
        scale_x,
        shear_x,
        limit,
        fps: (1.0 / p.step).round().clamp(1.0, 255.0) as u8,
        inertia: p.inertia,
        strength: p.strength,
        damping: p.damping,
        mass_inverse,
        wind: p.wind,
        gravity: p.gravity,
        global_flags,
        mix,
    }
}

fn slider(s: &SliderData, mut flags: u8) -> w::SliderConstraint {
    if s.looping {
        flags |= 2;
    }
    if s.additive {
        flags |= 4;
    }
    let value = (s.bone.is_none() && s.time != 0.0).then_some(s.time);
    if value.is_some() {
        flags |= 8;
    }
    let mix = mix43(s.mix, &mut flags, 16, 32);
    let bone = s.bone.as_ref().map(|b| {
        flags |= 64;
        if s.local {
            flags |= 128;
        }
        w::SliderBone {
            bone: b.bone.0,
            property_offset: b.property_offset,
            property: prop43(b.property),
            offset: b.offset,
            scale: b.scale,
        }
    });
    w::SliderConstraint { flags, value, mix, bone, animation: s.animation.0 }
}
