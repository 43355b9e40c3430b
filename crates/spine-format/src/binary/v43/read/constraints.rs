//! The unified constraint list: IK, transform, path, physics and slider constraints.

use super::*;

pub(super) fn property_of(v: u8) -> Option<TransformProperty> {
    Some(match v {
        0 => TransformProperty::Rotate,
        1 => TransformProperty::X,
        2 => TransformProperty::Y,
        3 => TransformProperty::ScaleX,
        4 => TransformProperty::ScaleY,
        5 => TransformProperty::ShearY,
        _ => return None,
    })
}

pub(super) fn scale_y_mode_of(v: u8) -> Option<ScaleYMode> {
    Some(match v {
        0 => ScaleYMode::None,
        1 => ScaleYMode::Uniform,
        2 => ScaleYMode::Volume,
        _ => return None,
    })
}

pub(super) fn constraint<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, Constraint> {
    let (i, name) = name(ctx.lim, "constraint")(i)?;
    named(name, i, |at| {
        let (i, kind) = match u8(at)? {
            (i, 0) => ik(ctx, i).map(|(i, c)| (i, ConstraintKind::Ik(c)))?,
            (i, 1) => path(ctx, i).map(|(i, c)| (i, ConstraintKind::Path(c)))?,
            (i, 2) => transform(ctx, i).map(|(i, c)| (i, ConstraintKind::Transform(c)))?,
            (i, 3) => physics(ctx, i).map(|(i, c)| (i, ConstraintKind::Physics(c)))?,
            (i, 4) => slider(ctx, i).map(|(i, c)| (i, ConstraintKind::Slider(c)))?,
            (_, v) => return Err(PErr::bad_enum(at, "constraint type", i64::from(v))),
        };
        Ok((i, Constraint { name: name.into(), kind }))
    })
}

pub(super) fn ik<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, IkConstraint> {
    let (i, bones) = indices(ctx.lim, "bone", ctx.bones)(i)?;
    let (i, target) = index("bone", ctx.bones)(i)?;
    let (i, flags) = u8(i)?;
    let (i, scale_y_mode) =
        cond(flags & 2 != 0, enum_u8("scale y mode", scale_y_mode_of)).parse(i)?;
    let (i, mix) = opt_f32(flags & 32 != 0 && flags & 64 != 0)(i)?;
    let (i, softness) = opt_f32(flags & 128 != 0)(i)?;
    Ok((i, IkConstraint { bones, target, flags, scale_y_mode, mix, softness }))
}

pub(super) fn to_property(i: In<'_>) -> Res<'_, ToProperty> {
    let (i, property) = enum_u8("transform property", property_of)(i)?;
    let (i, [offset, max, scale]) = f32s(i)?;
    Ok((i, ToProperty { property, offset, max, scale }))
}

pub(super) fn transform<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, TransformConstraint> {
    let (i, bones) = indices(ctx.lim, "bone", ctx.bones)(i)?;
    let (i, source) = index("bone", ctx.bones)(i)?;
    let (i, flags) = u8(i)?;
    let (i, properties) = items(usize::from(flags >> 5), Some("from"), |i, _| {
        let (i, property) = enum_u8("transform property", property_of)(i)?;
        let (at, offset) = f32(i)?;
        let (i, n_to) = u8(at)?;
        check_count(ctx.lim, at, i, "to property", u64::from(n_to), 13)?;
        let (i, to) = items(usize::from(n_to), None, |i, _| to_property(i))(i)?;
        Ok((i, FromProperty { property, offset, to }))
    })(i)?;
    let (mut i, offset_flags) = u8(i)?;
    let mut offsets = [None; 6];
    for (bit, o) in offsets.iter_mut().enumerate() {
        (i, *o) = opt_f32(offset_flags & (1 << bit) != 0)(i)?;
    }
    let (mut i, mix_flags) = u8(i)?;
    let mut mixes = [None; 6];
    for (bit, m) in mixes.iter_mut().enumerate() {
        (i, *m) = opt_f32(mix_flags & (1 << bit) != 0)(i)?;
    }
    let c = TransformConstraint {
        bones,
        source,
        flags: flags & 0x1f,
        properties,
        offset_flags,
        offsets,
        mix_flags,
        mixes,
    };
    Ok((i, c))
}

pub(super) fn path<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, PathConstraint> {
    let (i, bones) = indices(ctx.lim, "bone", ctx.bones)(i)?;
    let (at, slot) = index("slot", ctx.slots)(i)?;
    let (i, flags) = u8(at)?;
    if (flags >> 4) & 3 == 3 {
        return Err(PErr::bad_enum(at, "rotate mode", 3));
    }
    let (i, offset_rotation) = opt_f32(flags & 128 != 0)(i)?;
    let (i, [position, spacing, mix_rotate, mix_x, mix_y]) = f32s(i)?;
    let c = PathConstraint {
        bones,
        slot,
        flags,
        offset_rotation,
        position,
        spacing,
        mix_rotate,
        mix_x,
        mix_y,
    };
    Ok((i, c))
}

pub(super) fn physics<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, PhysicsConstraint> {
    let (i, bone) = index("bone", ctx.bones)(i)?;
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
    let (i, global_flags) = u8(i)?;
    let (i, mix) = opt_f32(global_flags & 128 != 0)(i)?;
    let c = PhysicsConstraint {
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
        global_flags,
        mix,
    };
    Ok((i, c))
}

pub(super) fn slider<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, SliderConstraint> {
    let (i, flags) = u8(i)?;
    let (i, value) = opt_f32(flags & 8 != 0)(i)?;
    let (i, mix) = opt_f32(flags & 16 != 0 && flags & 32 != 0)(i)?;
    let (i, bone) = cond(flags & 64 != 0, |i| {
        let (i, bone) = index("bone", ctx.bones)(i)?;
        let (i, property_offset) = f32(i)?;
        let (i, property) = enum_u8("transform property", property_of)(i)?;
        let (i, [offset, scale]) = f32s(i)?;
        Ok((i, SliderBone { bone, property_offset, property, offset, scale }))
    })
    .parse(i)?;
    Ok((i, SliderConstraint { flags, value, mix, bone, animation: 0 }))
}
