//! 4.3 constraints (IK, transform, path, physics, slider): one function per kind.

use spine_format::binary::v43 as w;

use super::{property, scale_y_mode, Conv};
use crate::build::physics_globals;
use crate::data::*;
use crate::error::ProblemKind;
use crate::ids::*;

/// A constraint: its kind's data and whether it is skin-required.
pub(super) fn constraint(c: &mut Conv<'_, '_>, con: &w::Constraint) -> ConstraintData {
    let (kind, skin_required) = match &con.kind {
        w::ConstraintKind::Ik(k) => {
            c.b.enter("IK constraint", &con.name);
            ik(c, k)
        }
        w::ConstraintKind::Transform(t) => {
            c.b.enter("transform constraint", &con.name);
            transform(c, t)
        }
        w::ConstraintKind::Path(p) => {
            c.b.enter("path constraint", &con.name);
            path(c, p)
        }
        w::ConstraintKind::Physics(p) => {
            c.b.enter("physics constraint", &con.name);
            physics(c, p)
        }
        w::ConstraintKind::Slider(sl) => {
            c.b.enter("slider", &con.name);
            slider(c, sl)
        }
    };
    c.b.pop();
    ConstraintData { name: con.name.clone(), skin_required, kind }
}

/// An IK constraint (1 or 2 bones).
fn ik(c: &mut Conv<'_, '_>, k: &w::IkConstraint) -> (ConstraintKind, bool) {
    let data = IkData {
        bones: c.b.bones(&k.bones),
        target: c.b.bone(k.target),
        mix: c.b.f("mix", k.mix_value()),
        softness: c.b.fs("softness", k.softness.unwrap_or(0.0)),
        bend_direction: k.bend_direction(),
        compress: k.compress(),
        stretch: k.stretch(),
        scale_y_mode: k.scale_y_mode.map_or(ScaleYMode::None, scale_y_mode),
    };
    if data.bones.is_empty() || data.bones.len() > 2 {
        let n = data.bones.len();
        c.b.report(ProblemKind::Invalid(format!("{n} constrained bones (1 or 2)")));
    }
    (ConstraintKind::Ik(data), k.skin_required())
}

/// A transform constraint: from/to properties, the x/y ones scaled.
fn transform(c: &mut Conv<'_, '_>, t: &w::TransformConstraint) -> (ConstraintKind, bool) {
    let mut properties = Vec::with_capacity(t.properties.len());
    for from in &t.properties {
        let fs = c.property_scale(from.property);
        let mut to = Vec::with_capacity(from.to.len());
        for p in &from.to {
            let ts = c.property_scale(p.property);
            to.push(ToProperty {
                property: property(p.property),
                offset: c.b.f("to offset", p.offset * ts),
                max: c.b.f("to max", p.max * ts),
                scale: c.b.f("to scale", p.scale * ts / fs),
            });
        }
        properties.push(FromProperty {
            property: property(from.property),
            offset: c.b.f("from offset", from.offset * fs),
            to,
        });
    }
    let mut offsets = [0.0; 6];
    let mut mixes = [0.0; 6];
    for i in 0..6 {
        let o = t.offsets[i].unwrap_or(0.0);
        offsets[i] = if i == 1 || i == 2 { c.b.fs("offset", o) } else { c.b.f("offset", o) };
        mixes[i] = c.b.f("mix", t.mixes[i].unwrap_or(0.0));
    }
    let data = TransformData {
        bones: c.b.bones(&t.bones),
        source: c.b.bone(t.source),
        local_source: t.local_source(),
        local_target: t.local_target(),
        additive: t.additive(),
        clamp: t.clamp(),
        properties,
        offsets,
        mixes,
        solver: TransformSolver::FromTo,
    };
    (ConstraintKind::Transform(data), t.skin_required())
}

/// A path constraint; position and spacing scaled by their modes.
fn path(c: &mut Conv<'_, '_>, p: &w::PathConstraint) -> (ConstraintKind, bool) {
    let position_mode = match p.position_mode() {
        w::PositionMode::Fixed => PositionMode::Fixed,
        w::PositionMode::Percent => PositionMode::Percent,
    };
    let spacing_mode = match p.spacing_mode() {
        w::SpacingMode::Length => SpacingMode::Length,
        w::SpacingMode::Fixed => SpacingMode::Fixed,
        w::SpacingMode::Percent => SpacingMode::Percent,
        w::SpacingMode::Proportional => SpacingMode::Proportional,
    };
    let rotate_mode = match p.rotate_mode() {
        w::RotateMode::Tangent => RotateMode::Tangent,
        w::RotateMode::Chain => RotateMode::Chain,
        w::RotateMode::ChainScale => RotateMode::ChainScale,
    };
    let ps = if position_mode == PositionMode::Fixed { c.b.scale } else { 1.0 };
    let ss = if matches!(spacing_mode, SpacingMode::Length | SpacingMode::Fixed) {
        c.b.scale
    } else {
        1.0
    };
    let data = PathData {
        bones: c.b.bones(&p.bones),
        slot: c.b.slot(p.slot),
        position_mode,
        spacing_mode,
        rotate_mode,
        offset_rotation: c.b.f("offset rotation", p.offset_rotation.unwrap_or(0.0)),
        position: c.b.f("position", p.position * ps),
        spacing: c.b.f("spacing", p.spacing * ss),
        mix_rotate: c.b.f("mix rotate", p.mix_rotate),
        mix_x: c.b.f("mix x", p.mix_x),
        mix_y: c.b.f("mix y", p.mix_y),
    };
    (ConstraintKind::Path(data), p.skin_required())
}

/// A physics constraint (the scale-y mode in the sign of `scaleX`).
fn physics(c: &mut Conv<'_, '_>, p: &w::PhysicsConstraint) -> (ConstraintKind, bool) {
    let (scale_x, mode) = p.scale_x_and_mode();
    let g = p.global_flags;
    let data = PhysicsData {
        bone: c.b.bone(p.bone),
        x: c.b.f("x", p.x.unwrap_or(0.0)),
        y: c.b.f("y", p.y.unwrap_or(0.0)),
        rotate: c.b.f("rotate", p.rotate.unwrap_or(0.0)),
        scale_x: c.b.f("scale x", scale_x),
        shear_x: c.b.f("shear x", p.shear_x.unwrap_or(0.0)),
        scale_y_mode: scale_y_mode(mode),
        limit: c.b.fs("limit", p.limit.unwrap_or(5000.0)),
        step: c.b.physics_step(i64::from(p.fps)),
        inertia: c.b.f("inertia", p.inertia),
        strength: c.b.f("strength", p.strength),
        damping: c.b.f("damping", p.damping),
        mass_inverse: c.b.f("mass inverse", p.mass_inverse.unwrap_or(1.0)),
        wind: c.b.f("wind", p.wind),
        gravity: c.b.f("gravity", p.gravity),
        mix: c.b.f("mix", p.mix.unwrap_or(1.0)),
        globals: physics_globals(g),
    };
    if p.fps == 0 {
        c.b.report(ProblemKind::Invalid("physics fps is 0".into()));
    }
    (ConstraintKind::Physics(data), p.skin_required())
}

/// A slider constraint.
fn slider(c: &mut Conv<'_, '_>, sl: &w::SliderConstraint) -> (ConstraintKind, bool) {
    let n = c.animation_count;
    let animation = AnimationId(c.b.check_index("animation", sl.animation, n));
    let bone = sl.bone.as_ref().map(|sb| {
        let ps = c.property_scale(sb.property);
        SliderBone {
            bone: c.b.bone(sb.bone),
            property: property(sb.property),
            property_offset: c.b.f("property offset", sb.property_offset * ps),
            offset: c.b.f("offset", sb.offset),
            scale: c.b.f("scale", sb.scale / ps),
        }
    });
    // With nonessential data a bone-driven slider's value is the editor's maximum
    // time, not the setup time (spine-ts 4.3 `SkeletonBinary`).
    let setup_time = match sl.value {
        Some(_) if c.s.nonessential() && sl.bone.is_some() => 0.0,
        v => v.unwrap_or(0.0),
    };
    let data = SliderData {
        animation,
        time: c.b.f("time", setup_time),
        mix: c.b.f("mix", sl.mix_value()),
        looping: sl.looping(),
        additive: sl.additive(),
        local: sl.local(),
        bone,
    };
    (ConstraintKind::Slider(data), sl.skin_required())
}
