//! Constraints: IK, transform, path and physics (4.2).

use super::*;

pub(super) fn ik<'a>(c: &Ctx, i: In<'a>) -> Res<'a, IkConstraint> {
    let (i, name) = name(&c.lim, "ik constraint")(i)?;
    named(name, i, |i| {
        let (i, order) = varint(i)?;
        if c.v42() {
            let (i, bones) = indices(&c.lim, "bone", c.bones)(i)?;
            let (i, target) = index("target bone", c.bones)(i)?;
            let (i, flags) = u8(i)?;
            let (i, mix) = opt_f32(flags & 32 != 0 && flags & 64 != 0)(i)?;
            let (i, softness) = opt_f32(flags & 128 != 0)(i)?;
            let ik = IkConstraint {
                name: name.into(),
                order,
                bones,
                target,
                flags: Some(flags),
                skin_required: flags & 1 != 0,
                mix,
                softness,
                bend_direction: if flags & 2 != 0 { 1 } else { -1 },
                compress: flags & 4 != 0,
                stretch: flags & 8 != 0,
                uniform: flags & 16 != 0,
            };
            return Ok((i, ik));
        }
        let (i, skin_required) = bool(i)?;
        let (i, bones) = indices(&c.lim, "bone", c.bones)(i)?;
        let (i, target) = index("target bone", c.bones)(i)?;
        let (i, [mix, softness]) = f32s(i)?;
        let (i, bend_direction) = i8(i)?;
        let (i, (compress, stretch, uniform)) = (bool, bool, bool).parse(i)?;
        let ik = IkConstraint {
            name: name.into(),
            order,
            bones,
            target,
            flags: None,
            skin_required,
            mix: Some(mix),
            softness: Some(softness),
            bend_direction,
            compress,
            stretch,
            uniform,
        };
        Ok((i, ik))
    })
}

pub(super) fn transform<'a>(c: &Ctx, i: In<'a>) -> Res<'a, TransformConstraint> {
    let (i, name) = name(&c.lim, "transform constraint")(i)?;
    named(name, i, |i| {
        let (i, order) = varint(i)?;
        let mut values = [None; 12];
        if c.v42() {
            let (i, bones) = indices(&c.lim, "bone", c.bones)(i)?;
            let (i, target) = index("target bone", c.bones)(i)?;
            let (mut i, f0) = u8(i)?;
            for (k, v) in values.iter_mut().enumerate().take(5) {
                (i, *v) = opt_f32(f0 & (8 << k) != 0)(i)?;
            }
            let (mut i, f1) = u8(i)?;
            for (k, v) in values.iter_mut().enumerate().skip(5) {
                (i, *v) = opt_f32(f1 & (1 << (k - 5)) != 0)(i)?;
            }
            let t = TransformConstraint {
                name: name.into(),
                order,
                bones,
                target,
                flags: Some([f0, f1]),
                skin_required: f0 & 1 != 0,
                local: f0 & 2 != 0,
                relative: f0 & 4 != 0,
                values,
            };
            return Ok((i, t));
        }
        let (i, skin_required) = bool(i)?;
        let (i, bones) = indices(&c.lim, "bone", c.bones)(i)?;
        let (i, target) = index("target bone", c.bones)(i)?;
        let (i, (local, relative)) = (bool, bool).parse(i)?;
        let (i, all) = f32s::<12>(i)?;
        for (v, x) in values.iter_mut().zip(all) {
            *v = Some(x);
        }
        let t = TransformConstraint {
            name: name.into(),
            order,
            bones,
            target,
            flags: None,
            skin_required,
            local,
            relative,
            values,
        };
        Ok((i, t))
    })
}

pub(super) fn path<'a>(c: &Ctx, i: In<'a>) -> Res<'a, PathConstraint> {
    let (i, name) = name(&c.lim, "path constraint")(i)?;
    named(name, i, |i| {
        let (i, order) = varint(i)?;
        let (i, skin_required) = bool(i)?;
        let (i, bones) = indices(&c.lim, "bone", c.bones)(i)?;
        let (at, target) = index("target slot", c.slots)(i)?;
        let (i, (flags, p, s, ro)) = if c.v42() {
            let (i, f) = u8(at)?;
            (i, (Some(f), u32::from(f & 1), u32::from((f >> 1) & 3), u32::from((f >> 3) & 3)))
        } else {
            let (i, (p, s, ro)) = (varint, varint, varint).parse(at)?;
            (i, (None, p, s, ro))
        };
        let Some(position_mode) = PositionMode::from_wire(p) else {
            return Err(PErr::bad_enum(at, "position mode", p.into()));
        };
        let Some(spacing_mode) = SpacingMode::from_wire(s) else {
            return Err(PErr::bad_enum(at, "spacing mode", s.into()));
        };
        let Some(rotate_mode) = RotateMode::from_wire(ro) else {
            return Err(PErr::bad_enum(at, "rotate mode", ro.into()));
        };
        let (i, offset_rotation) = opt_f32(flags.is_none_or(|f| f & 128 != 0))(i)?;
        let (i, [position, spacing, mix_rotate, mix_x, mix_y]) = f32s(i)?;
        let p = PathConstraint {
            name: name.into(),
            order,
            skin_required,
            bones,
            target,
            flags,
            position_mode,
            spacing_mode,
            rotate_mode,
            offset_rotation,
            position,
            spacing,
            mix_rotate,
            mix_x,
            mix_y,
        };
        Ok((i, p))
    })
}

pub(super) fn physics<'a>(c: &Ctx, i: In<'a>) -> Res<'a, PhysicsConstraint> {
    let (i, name) = name(&c.lim, "physics constraint")(i)?;
    named(name, i, |i| {
        let (i, order) = varint(i)?;
        let (i, bone) = index("bone", c.bones)(i)?;
        let (i, flags) = u8(i)?;
        let (i, x) = opt_f32(flags & 2 != 0)(i)?;
        let (i, y) = opt_f32(flags & 4 != 0)(i)?;
        let (i, rotate) = opt_f32(flags & 8 != 0)(i)?;
        let (i, scale_x) = opt_f32(flags & 16 != 0)(i)?;
        let (i, shear_x) = opt_f32(flags & 32 != 0)(i)?;
        let (i, limit) = opt_f32(flags & 64 != 0)(i)?;
        let (i, fps) = u8(i)?;
        let (i, [inertia, strength, damping]) = f32s(i)?;
        let (i, mass_inverse) = opt_f32(flags & 128 != 0)(i)?;
        let (i, [wind, gravity]) = f32s(i)?;
        let (i, flags2) = u8(i)?;
        let (i, mix) = opt_f32(flags2 & 128 != 0)(i)?;
        let p = PhysicsConstraint {
            name: name.into(),
            order,
            bone,
            flags,
            x,
            y,
            rotate,
            scale_x,
            shear_x,
            limit,
            fps,
            inertia,
            strength,
            damping,
            mass_inverse,
            wind,
            gravity,
            flags2,
            mix,
        };
        Ok((i, p))
    })
}
