//! 4.0–4.2 constraints: the four per-type lists merged into one update-order list, one
//! function per kind.

use spine_format::binary::v40::ast as w;

use super::Conv;
use crate::build::{physics_globals, update_order};
use crate::data::*;
use crate::error::ProblemKind;
use crate::ids::*;

#[derive(Clone, Copy, PartialEq)]
/// A constraint list of the wire.
enum Ty {
    Ik,
    Transform,
    Path,
    Physics,
}

/// Adds every constraint in update order and records the ids of each list.
pub(super) fn constraints(c: &mut Conv<'_, '_>) {
    let s = c.s;
    // (order, type, index in its list), in updateCache's type precedence.
    let mut all: Vec<(u32, Ty, usize)> = Vec::new();
    all.extend(s.ik_constraints.iter().enumerate().map(|(i, k)| (k.order, Ty::Ik, i)));
    all.extend(
        s.transform_constraints.iter().enumerate().map(|(i, k)| (k.order, Ty::Transform, i)),
    );
    all.extend(s.path_constraints.iter().enumerate().map(|(i, k)| (k.order, Ty::Path, i)));
    all.extend(s.physics_constraints.iter().enumerate().map(|(i, k)| (k.order, Ty::Physics, i)));
    let keys: Vec<(u32, &str)> = all
        .iter()
        .map(|&(order, ty, index)| {
            let name = match ty {
                Ty::Ik => &s.ik_constraints[index].name,
                Ty::Transform => &s.transform_constraints[index].name,
                Ty::Path => &s.path_constraints[index].name,
                Ty::Physics => &s.physics_constraints[index].name,
            };
            (order, name.as_str())
        })
        .collect();
    let sorted = update_order(&mut c.b, &keys);
    c.ik = vec![ConstraintId(0); s.ik_constraints.len()];
    c.transform = vec![ConstraintId(0); s.transform_constraints.len()];
    c.path = vec![ConstraintId(0); s.path_constraints.len()];
    c.physics = vec![ConstraintId(0); s.physics_constraints.len()];
    for (id, &p) in sorted.iter().enumerate() {
        let (_, ty, index) = all[p];
        let id = ConstraintId(id as u32);
        let data = match ty {
            Ty::Ik => {
                c.ik[index] = id;
                ik(c, &s.ik_constraints[index])
            }
            Ty::Transform => {
                c.transform[index] = id;
                transform(c, &s.transform_constraints[index])
            }
            Ty::Path => {
                c.path[index] = id;
                path(c, &s.path_constraints[index])
            }
            Ty::Physics => {
                c.physics[index] = id;
                physics(c, &s.physics_constraints[index])
            }
        };
        c.b.pop();
        c.b.data.constraints.push(data);
    }
}

/// An IK constraint (`uniform` → [`ScaleYMode::Uniform`]).
fn ik(c: &mut Conv<'_, '_>, k: &w::IkConstraint) -> ConstraintData {
    c.b.enter("IK constraint", &k.name);
    let mix = match k.flags {
        Some(f) if f & 32 == 0 => 0.0,
        _ => k.mix.unwrap_or(1.0),
    };
    let data = IkData {
        bones: c.b.bones(&k.bones),
        target: c.b.bone(k.target),
        mix: c.b.f("mix", mix),
        softness: c.b.fs("softness", k.softness.unwrap_or(0.0)),
        bend_direction: if k.bend_direction < 0 { -1 } else { 1 },
        compress: k.compress,
        stretch: k.stretch,
        scale_y_mode: if k.uniform { ScaleYMode::Uniform } else { ScaleYMode::None },
    };
    if data.bones.is_empty() || data.bones.len() > 2 {
        c.b.report(ProblemKind::Invalid(format!(
            "{} constrained bones (1 or 2)",
            data.bones.len()
        )));
    }
    ConstraintData {
        name: k.name.clone(),
        skin_required: k.skin_required,
        kind: ConstraintKind::Ik(data),
    }
}

/// A transform constraint: [`TransformSolver::Legacy4x`], identity properties.
fn transform(c: &mut Conv<'_, '_>, t: &w::TransformConstraint) -> ConstraintData {
    c.b.enter("transform constraint", &t.name);
    let mut offsets = [0.0; 6];
    let mut mixes = [0.0; 6];
    for i in 0..6 {
        let o = t.values[i].unwrap_or(0.0);
        offsets[i] = if i == 1 || i == 2 { c.b.fs("offset", o) } else { c.b.f("offset", o) };
        mixes[i] = c.b.f("mix", t.values[6 + i].unwrap_or(0.0));
    }
    let data = TransformData {
        bones: c.b.bones(&t.bones),
        source: c.b.bone(t.target),
        local_source: t.local,
        local_target: t.local,
        additive: t.relative,
        clamp: false,
        properties: Vec::new(),
        offsets,
        mixes,
        solver: TransformSolver::Legacy4x,
    };
    ConstraintData {
        name: t.name.clone(),
        skin_required: t.skin_required,
        kind: ConstraintKind::Transform(data),
    }
}

/// A path constraint; position and spacing scaled when their modes are lengths.
fn path(c: &mut Conv<'_, '_>, p: &w::PathConstraint) -> ConstraintData {
    c.b.enter("path constraint", &p.name);
    let position_mode = match p.position_mode {
        w::PositionMode::Fixed => PositionMode::Fixed,
        w::PositionMode::Percent => PositionMode::Percent,
    };
    let spacing_mode = match p.spacing_mode {
        w::SpacingMode::Length => SpacingMode::Length,
        w::SpacingMode::Fixed => SpacingMode::Fixed,
        w::SpacingMode::Percent => SpacingMode::Percent,
        w::SpacingMode::Proportional => SpacingMode::Proportional,
    };
    let rotate_mode = match p.rotate_mode {
        w::RotateMode::Tangent => RotateMode::Tangent,
        w::RotateMode::Chain => RotateMode::Chain,
        w::RotateMode::ChainScale => RotateMode::ChainScale,
    };
    let position = if position_mode == PositionMode::Fixed {
        c.b.fs("position", p.position)
    } else {
        c.b.f("position", p.position)
    };
    let spacing = if matches!(spacing_mode, SpacingMode::Length | SpacingMode::Fixed) {
        c.b.fs("spacing", p.spacing)
    } else {
        c.b.f("spacing", p.spacing)
    };
    let data = PathData {
        bones: c.b.bones(&p.bones),
        slot: c.b.slot(p.target),
        position_mode,
        spacing_mode,
        rotate_mode,
        offset_rotation: c.b.f("offset rotation", p.offset_rotation.unwrap_or(0.0)),
        position,
        spacing,
        mix_rotate: c.b.f("mix rotate", p.mix_rotate),
        mix_x: c.b.f("mix x", p.mix_x),
        mix_y: c.b.f("mix y", p.mix_y),
    };
    ConstraintData {
        name: p.name.clone(),
        skin_required: p.skin_required,
        kind: ConstraintKind::Path(data),
    }
}

/// A physics constraint (4.2).
fn physics(c: &mut Conv<'_, '_>, p: &w::PhysicsConstraint) -> ConstraintData {
    c.b.enter("physics constraint", &p.name);
    let g = p.flags2;
    let data = PhysicsData {
        bone: c.b.bone(p.bone),
        x: c.b.f("x", p.x.unwrap_or(0.0)),
        y: c.b.f("y", p.y.unwrap_or(0.0)),
        rotate: c.b.f("rotate", p.rotate.unwrap_or(0.0)),
        scale_x: c.b.f("scale x", p.scale_x.unwrap_or(0.0)),
        shear_x: c.b.f("shear x", p.shear_x.unwrap_or(0.0)),
        scale_y_mode: ScaleYMode::None,
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
    ConstraintData {
        name: p.name.clone(),
        skin_required: p.skin_required(),
        kind: ConstraintKind::Physics(data),
    }
}
