//! JSON constraints (IK, transform, path, physics), merged by `order` into the builder's
//! one update-order list as in the binary conversions.

use spine_format::json as j;

use super::{skin_flag, Conv};
use crate::data::*;
use crate::v3x::{constraints3, mixes3, Con3, Ik3, Path3, Transform3};

/// A constraint's `order` (scan position), saturated to `u32`.
fn order(h: &j::ConstraintHead) -> u32 {
    u32::try_from(h.order.unwrap_or(0)).unwrap_or(u32::MAX)
}

/// Reads every constraint, adds them in update order and records their ids by name.
pub(super) fn constraints(c: &mut Conv<'_, '_>) {
    let s = c.s;
    let mut cons = Vec::new();
    for k in &s.ik {
        let data = ik(c, k);
        let skin = skin_flag(s, k.head.skin);
        cons.push(Con3::Ik { name: &k.head.name, order: order(&k.head), skin, data });
    }
    for t in &s.transform {
        let data = transform(c, t);
        let skin = skin_flag(s, t.head.skin);
        cons.push(Con3::Transform { name: &t.head.name, order: order(&t.head), skin, data });
    }
    for p in &s.path {
        let data = path(c, p);
        let skin = skin_flag(s, p.head.skin);
        cons.push(Con3::Path { name: &p.head.name, order: order(&p.head), skin, data });
    }
    for p in &s.physics {
        let data = physics(c, p);
        let skin = skin_flag(s, p.head.skin);
        cons.push(Con3::Physics { name: &p.head.name, order: order(&p.head), skin, data });
    }
    let ids = constraints3(&mut c.b, cons);
    let heads: [Vec<&str>; 4] = [
        s.ik.iter().map(|x| x.head.name.as_str()).collect(),
        s.transform.iter().map(|x| x.head.name.as_str()).collect(),
        s.path.iter().map(|x| x.head.name.as_str()).collect(),
        s.physics.iter().map(|x| x.head.name.as_str()).collect(),
    ];
    for (k, list) in ids.iter().enumerate() {
        for (name, &id) in heads[k].iter().zip(list) {
            c.cons[k].entry(*name).or_insert(id);
        }
    }
}

/// An IK constraint.
fn ik(c: &mut Conv<'_, '_>, k: &j::IkConstraint) -> Ik3 {
    Ik3 {
        bones: c.bone_indices(&k.bones),
        target: c.lookup("bone", &k.target).unwrap_or(0),
        mix: k.mix.unwrap_or(1.0),
        softness: k.softness.unwrap_or(0.0),
        bend: if k.bend_positive.unwrap_or(true) { 1 } else { -1 },
        compress: k.compress.unwrap_or(false),
        stretch: k.stretch.unwrap_or(false),
        uniform: k.uniform.unwrap_or(false),
    }
}

/// A transform constraint. 3.x: rotate, translate, scale, shear (default 1); 4.x: six
/// mixes, y defaulting to x.
fn transform(c: &mut Conv<'_, '_>, t: &j::TransformConstraint) -> Transform3 {
    let m = &t.mix;
    let (mixes, solver) = if c.v3 {
        let four = [
            m.rotate_mix.unwrap_or(1.0),
            m.translate_mix.unwrap_or(1.0),
            m.scale_mix.unwrap_or(1.0),
            m.shear_mix.unwrap_or(1.0),
        ];
        (mixes3(four), TransformSolver::Legacy3x)
    } else {
        let x = m.mix_x.unwrap_or(1.0);
        let sx = m.mix_scale_x.unwrap_or(1.0);
        let six = [
            m.mix_rotate.unwrap_or(1.0),
            x,
            m.mix_y.unwrap_or(x),
            sx,
            m.mix_scale_y.unwrap_or(sx),
            m.mix_shear_y.unwrap_or(1.0),
        ];
        (six, TransformSolver::Legacy4x)
    };
    Transform3 {
        bones: c.bone_indices(&t.bones),
        target: c.lookup("bone", &t.target).unwrap_or(0),
        local: t.local.unwrap_or(false),
        relative: t.relative.unwrap_or(false),
        offsets: [
            t.rotation.unwrap_or(0.0),
            t.x.unwrap_or(0.0),
            t.y.unwrap_or(0.0),
            t.scale_x.unwrap_or(0.0),
            t.scale_y.unwrap_or(0.0),
            t.shear_y.unwrap_or(0.0),
        ],
        mixes,
        solver,
    }
}

/// A path constraint. 3.x: rotateMix, translateMix (x and y); 4.x: mixRotate, mixX, mixY
/// (setup default 1).
fn path(c: &mut Conv<'_, '_>, p: &j::PathConstraint) -> Path3 {
    let m = &p.mix;
    let (r, x, y) = if c.v3 {
        let t = m.translate_mix.unwrap_or(1.0);
        (m.rotate_mix.unwrap_or(1.0), t, t)
    } else {
        (m.mix_rotate.unwrap_or(1.0), m.mix_x.unwrap_or(1.0), m.mix_y.unwrap_or(1.0))
    };
    Path3 {
        bones: c.bone_indices(&p.bones),
        target: c.lookup("slot", &p.target).unwrap_or(0),
        position_mode: match p.position_mode.unwrap_or(j::PositionMode::Percent) {
            j::PositionMode::Fixed => PositionMode::Fixed,
            j::PositionMode::Percent => PositionMode::Percent,
        },
        spacing_mode: match p.spacing_mode.unwrap_or(j::SpacingMode::Length) {
            j::SpacingMode::Length => SpacingMode::Length,
            j::SpacingMode::Fixed => SpacingMode::Fixed,
            j::SpacingMode::Percent => SpacingMode::Percent,
            j::SpacingMode::Proportional => SpacingMode::Proportional,
        },
        rotate_mode: match p.rotate_mode.unwrap_or(j::RotateMode::Tangent) {
            j::RotateMode::Tangent => RotateMode::Tangent,
            j::RotateMode::Chain => RotateMode::Chain,
            j::RotateMode::ChainScale => RotateMode::ChainScale,
        },
        offset_rotation: p.rotation.unwrap_or(0.0),
        position: p.position.unwrap_or(0.0),
        spacing: p.spacing.unwrap_or(0.0),
        rotate_mix: r,
        mix_x: x,
        mix_y: y,
    }
}

/// A physics constraint (4.2).
fn physics(c: &mut Conv<'_, '_>, p: &j::PhysicsConstraint) -> PhysicsData {
    let scale = c.b.scale;
    c.b.enter("physics constraint", &p.head.name);
    let bone = c.bone(&p.bone);
    let g = |i: usize| p.global[i].unwrap_or(false);
    let step = c.b.physics_step(i64::from(p.fps.unwrap_or(60)));
    let data = PhysicsData {
        bone,
        x: c.b.f("x", p.x.unwrap_or(0.0)),
        y: c.b.f("y", p.y.unwrap_or(0.0)),
        rotate: c.b.f("rotate", p.rotate.unwrap_or(0.0)),
        scale_x: c.b.f("scale x", p.scale_x.unwrap_or(0.0)),
        shear_x: c.b.f("shear x", p.shear_x.unwrap_or(0.0)),
        scale_y_mode: ScaleYMode::None,
        limit: c.b.f("limit", p.limit.unwrap_or(5000.0) * scale),
        step,
        inertia: c.b.f("inertia", p.inertia.unwrap_or(1.0)),
        strength: c.b.f("strength", p.strength.unwrap_or(100.0)),
        damping: c.b.f("damping", p.damping.unwrap_or(1.0)),
        mass_inverse: c.b.f("mass inverse", 1.0 / p.mass.unwrap_or(1.0)),
        wind: c.b.f("wind", p.wind.unwrap_or(0.0)),
        gravity: c.b.f("gravity", p.gravity.unwrap_or(0.0)),
        mix: c.b.f("mix", p.mix.unwrap_or(1.0)),
        globals: PhysicsGlobals {
            inertia: g(0),
            strength: g(1),
            damping: g(2),
            mass: g(3),
            wind: g(4),
            gravity: g(5),
            mix: g(6),
        },
    };
    c.b.pop();
    data
}
