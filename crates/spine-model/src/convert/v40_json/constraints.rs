//! IK, transform, path and physics constraints both ways. A 4.2 binary codes which values
//! are present in flag bits (an absent value is the loader's default); 4.0/4.1 write all.

use spine_format::binary::v40::ast as w;
use spine_format::json::{self as j, PathMix, TransformMix};

use super::context::{FromJson, ToJson};
use super::{mass_of, mix_defaults};
use crate::convert::json_common::{
    global_flags, global_to_json, mix_from_json, mix_to_json, some_if,
};
use crate::error::ProblemKind;

/// The JSON name, order and skin flag shared by every constraint.
fn head(name: &str, order: u32, skin: bool) -> j::ConstraintHead {
    j::ConstraintHead { name: name.into(), order: Some(order as i32), skin: skin.then_some(true) }
}

/// The binary order of a JSON constraint (absent or negative: 0).
fn order_of(h: &j::ConstraintHead) -> u32 {
    u32::try_from(h.order.unwrap_or(0)).unwrap_or(0)
}

// ---------------------------------------------------------------------------------------
// Binary → JSON
// ---------------------------------------------------------------------------------------

pub(super) fn ik_to_json(c: &ToJson<'_>, k: &w::IkConstraint) -> j::IkConstraint {
    let (mix, softness) = match k.flags {
        Some(f) => (mix_to_json(f & 32 != 0, f & 64 != 0, k.mix), k.softness),
        None => (some_if(k.mix.unwrap_or(1.0), 1.0), some_if(k.softness.unwrap_or(0.0), 0.0)),
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
}

/// The JSON form of the six transform mixes (left out where equal to their defaults).
pub(super) fn transform_mix_to_json(m: &[f32; 6]) -> TransformMix {
    // mixY defaults to mixX, mixScaleY to mixScaleX (4.x loaders).
    let d = mix_defaults(m);
    TransformMix {
        mix_rotate: some_if(m[0], d[0]),
        mix_x: some_if(m[1], d[1]),
        mix_y: some_if(m[2], d[2]),
        mix_scale_x: some_if(m[3], d[3]),
        mix_scale_y: some_if(m[4], d[4]),
        mix_shear_y: some_if(m[5], d[5]),
        ..TransformMix::default()
    }
}

pub(super) fn transform_to_json(
    c: &ToJson<'_>,
    t: &w::TransformConstraint,
) -> j::TransformConstraint {
    let v = |i: usize| t.values[i].unwrap_or(0.0);
    let mut m = [0.0; 6];
    for (i, x) in m.iter_mut().enumerate() {
        *x = v(6 + i);
    }
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
        mix: transform_mix_to_json(&m),
    }
}

pub(super) fn path_to_json(c: &ToJson<'_>, p: &w::PathConstraint) -> j::PathConstraint {
    j::PathConstraint {
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
    }
}

pub(super) fn physics_to_json(c: &ToJson<'_>, p: &w::PhysicsConstraint) -> j::PhysicsConstraint {
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
        global: global_to_json(p.flags2),
    }
}

// ---------------------------------------------------------------------------------------
// JSON → binary
// ---------------------------------------------------------------------------------------

pub(super) fn ik_from_json(c: &mut FromJson<'_>, k: &j::IkConstraint) -> w::IkConstraint {
    c.p.enter("IK constraint", &k.head.name);
    let skin = k.head.skin.unwrap_or(false);
    let bend = if k.bend_positive.unwrap_or(true) { 1 } else { -1 };
    let (flags, mix, softness) = if c.v42() {
        let mut f = u8::from(skin);
        if bend > 0 {
            f |= 2;
        }
        for (bit, v) in [k.compress, k.stretch, k.uniform].iter().enumerate() {
            if v.unwrap_or(false) {
                f |= 4 << bit;
            }
        }
        let (bits, mix) = mix_from_json(k.mix);
        f |= bits << 5;
        if k.softness.is_some() {
            f |= 128;
        }
        (Some(f), mix, k.softness)
    } else {
        (None, Some(k.mix.unwrap_or(1.0)), Some(k.softness.unwrap_or(0.0)))
    };
    let ik = w::IkConstraint {
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
    };
    c.p.pop();
    ik
}

/// The binary channels of JSON transform mixes (mixY defaults to mixX, mixScaleY to
/// mixScaleX).
pub(super) fn transform_mix_from_json(m: &TransformMix) -> [f32; 6] {
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
}

pub(super) fn transform_from_json(
    c: &mut FromJson<'_>,
    t: &j::TransformConstraint,
) -> w::TransformConstraint {
    c.p.enter("transform constraint", &t.head.name);
    let skin = t.head.skin.unwrap_or(false);
    let (local, relative) = (t.local.unwrap_or(false), t.relative.unwrap_or(false));
    let [mr, mx, my, msx, msy, msh] = transform_mix_from_json(&t.mix);
    let all = [
        t.rotation.unwrap_or(0.0),
        t.x.unwrap_or(0.0),
        t.y.unwrap_or(0.0),
        t.scale_x.unwrap_or(0.0),
        t.scale_y.unwrap_or(0.0),
        t.shear_y.unwrap_or(0.0),
        mr,
        mx,
        my,
        msx,
        msy,
        msh,
    ];
    let (flags, values) = if c.v42() {
        // 4.2 writes only the values that are not 0, flagged.
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
    let out = w::TransformConstraint {
        name: t.head.name.clone(),
        order: order_of(&t.head),
        bones: c.bones(&t.bones),
        target: c.find("bone", &t.target),
        flags,
        skin_required: skin,
        local,
        relative,
        values,
    };
    c.p.pop();
    out
}

pub(super) fn path_from_json(c: &mut FromJson<'_>, p: &j::PathConstraint) -> w::PathConstraint {
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
    let (flags, offset_rotation) = if c.v42() {
        let mut f = (pm as u8) | ((sm as u8) << 1) | ((rm as u8) << 3);
        if rotation != 0.0 {
            f |= 128;
        }
        (Some(f), (rotation != 0.0).then_some(rotation))
    } else {
        (None, Some(rotation))
    };
    let out = w::PathConstraint {
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
    };
    c.p.pop();
    out
}

/// A physics constraint (4.2 only).
pub(super) fn physics_from_json(
    c: &mut FromJson<'_>,
    p: &j::PhysicsConstraint,
) -> w::PhysicsConstraint {
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
    let out = w::PhysicsConstraint {
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
        flags2: global_flags(&p.global, p.mix),
        mix: p.mix,
    };
    c.p.pop();
    out
}
