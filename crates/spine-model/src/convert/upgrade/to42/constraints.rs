//! 4.3 constraints in the 4.2 layout: one list per type with update `order`s, one function
//! per type. Sliders, the volume scale-y mode and non-identity transform mappings are 4.3
//! only and refused.

use spine_format::binary::v40::ast as v4;
use spine_format::binary::v43 as w;

use super::super::UpgradeError;

/// The constraints split by type, in update order.
pub(super) struct Split {
    /// Per unified index: the index in its type's list.
    pub(super) local: Vec<u32>,
    pub(super) ik: Vec<v4::IkConstraint>,
    pub(super) transform: Vec<v4::TransformConstraint>,
    pub(super) path: Vec<v4::PathConstraint>,
    pub(super) physics: Vec<v4::PhysicsConstraint>,
}

impl Split {
    /// Splits the unified 4.3 list (its index is the update order).
    pub(super) fn of(constraints: &[w::Constraint]) -> Result<Split, UpgradeError> {
        let mut s = Split {
            local: vec![0u32; constraints.len()],
            ik: Vec::new(),
            transform: Vec::new(),
            path: Vec::new(),
            physics: Vec::new(),
        };
        for (order, c) in constraints.iter().enumerate() {
            let (name, o) = (&c.name, order as u32);
            s.local[order] = match &c.kind {
                w::ConstraintKind::Ik(k) => push(&mut s.ik, ik(name, o, k)?),
                w::ConstraintKind::Transform(t) => push(&mut s.transform, transform(name, o, t)?),
                w::ConstraintKind::Path(p) => push(&mut s.path, path(name, o, p)),
                w::ConstraintKind::Physics(p) => push(&mut s.physics, physics(name, o, p)?),
                w::ConstraintKind::Slider(_) => {
                    return Err(UpgradeError(format!("slider {name:?}: sliders are 4.3 only")))
                }
            };
        }
        Ok(s)
    }
}

/// Pushes `t`, giving its index.
fn push<T>(list: &mut Vec<T>, t: T) -> u32 {
    list.push(t);
    list.len() as u32 - 1
}

fn ik(name: &str, order: u32, k: &w::IkConstraint) -> Result<v4::IkConstraint, UpgradeError> {
    let mut f = u8::from(k.skin_required());
    if k.bend_direction() > 0 {
        f |= 2;
    }
    if k.compress() {
        f |= 4;
    }
    if k.stretch() {
        f |= 8;
    }
    match k.scale_y_mode {
        Some(w::ScaleYMode::Uniform) => f |= 16,
        Some(w::ScaleYMode::Volume) => {
            return Err(UpgradeError(format!(
                "IK constraint {name:?}: the volume scale-y mode is 4.3 only"
            )))
        }
        _ => {}
    }
    f |= k.flags & (32 | 64 | 128);
    Ok(v4::IkConstraint {
        name: name.into(),
        order,
        bones: k.bones.clone(),
        target: k.target,
        flags: Some(f),
        skin_required: k.skin_required(),
        mix: k.mix,
        softness: k.softness,
        bend_direction: k.bend_direction() as i8,
        compress: k.compress(),
        stretch: k.stretch(),
        uniform: f & 16 != 0,
    })
}

/// Whether a 4.3 transform constraint is the identity mapping 4.2 can write.
fn is_identity(t: &w::TransformConstraint) -> bool {
    t.properties.len() == 6
        && t.properties.iter().all(|f| {
            f.offset == 0.0
                && f.to.len() == 1
                && f.to[0].property == f.property
                && f.to[0].offset == 0.0
                && f.to[0].scale == 1.0
        })
        && !t.clamp()
        && t.local_source() == t.local_target()
}

fn transform(
    name: &str,
    order: u32,
    t: &w::TransformConstraint,
) -> Result<v4::TransformConstraint, UpgradeError> {
    if !is_identity(t) {
        return Err(UpgradeError(format!(
            "transform constraint {name:?}: a 4.3 property mapping cannot be written in 4.2"
        )));
    }
    let mut values = [None; 12];
    let mut f0 = u8::from(t.skin_required())
        | (u8::from(t.local_target()) << 1)
        | (u8::from(t.additive()) << 2);
    let mut f1 = 0u8;
    let all = t.offsets.iter().chain(t.mixes.iter());
    for (k, v) in all.enumerate() {
        if let Some(v) = v {
            values[k] = Some(*v);
            if k < 5 {
                f0 |= 8 << k;
            } else {
                f1 |= 1 << (k - 5);
            }
        }
    }
    Ok(v4::TransformConstraint {
        name: name.into(),
        order,
        bones: t.bones.clone(),
        target: t.source,
        flags: Some([f0, f1]),
        skin_required: t.skin_required(),
        local: t.local_target(),
        relative: t.additive(),
        values,
    })
}

fn path(name: &str, order: u32, p: &w::PathConstraint) -> v4::PathConstraint {
    let (pm, sm, rm) = (p.position_mode(), p.spacing_mode(), p.rotate_mode());
    let f = (pm as u8) | ((sm as u8) << 1) | ((rm as u8) << 3) | (p.flags & 128);
    v4::PathConstraint {
        name: name.into(),
        order,
        skin_required: p.skin_required(),
        bones: p.bones.clone(),
        target: p.slot,
        flags: Some(f),
        position_mode: match pm {
            w::PositionMode::Fixed => v4::PositionMode::Fixed,
            w::PositionMode::Percent => v4::PositionMode::Percent,
        },
        spacing_mode: match sm {
            w::SpacingMode::Length => v4::SpacingMode::Length,
            w::SpacingMode::Fixed => v4::SpacingMode::Fixed,
            w::SpacingMode::Percent => v4::SpacingMode::Percent,
            w::SpacingMode::Proportional => v4::SpacingMode::Proportional,
        },
        rotate_mode: match rm {
            w::RotateMode::Tangent => v4::RotateMode::Tangent,
            w::RotateMode::Chain => v4::RotateMode::Chain,
            w::RotateMode::ChainScale => v4::RotateMode::ChainScale,
        },
        offset_rotation: p.offset_rotation,
        position: p.position,
        spacing: p.spacing,
        mix_rotate: p.mix_rotate,
        mix_x: p.mix_x,
        mix_y: p.mix_y,
    }
}

fn physics(
    name: &str,
    order: u32,
    p: &w::PhysicsConstraint,
) -> Result<v4::PhysicsConstraint, UpgradeError> {
    let (scale_x, mode) = p.scale_x_and_mode();
    if mode != w::ScaleYMode::None {
        return Err(UpgradeError(format!(
            "physics constraint {name:?}: the scale-y mode is 4.3 only"
        )));
    }
    Ok(v4::PhysicsConstraint {
        name: name.into(),
        order,
        bone: p.bone,
        flags: p.flags,
        x: p.x,
        y: p.y,
        rotate: p.rotate,
        scale_x: p.scale_x.map(|_| scale_x),
        shear_x: p.shear_x,
        limit: p.limit,
        fps: p.fps,
        inertia: p.inertia,
        strength: p.strength,
        damping: p.damping,
        mass_inverse: p.mass_inverse,
        wind: p.wind,
        gravity: p.gravity,
        flags2: p.global_flags,
        mix: p.mix,
    })
}
