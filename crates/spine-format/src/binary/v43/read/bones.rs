//! Bones and slots.

use super::*;

pub(super) fn blend_of(v: u32) -> Option<BlendMode> {
    Some(match v {
        0 => BlendMode::Normal,
        1 => BlendMode::Additive,
        2 => BlendMode::Multiply,
        3 => BlendMode::Screen,
        _ => return None,
    })
}

pub(super) fn bone<'a>(ctx: &Ctx<'_>, i: In<'a>, k: usize) -> Res<'a, Bone> {
    let (i, name) = name(ctx.lim, "bone")(i)?;
    named(name, i, |i| {
        let (i, parent) = cond(k > 0, index("parent bone", k)).parse(i)?;
        let (i, [rotation, x, y, scale_x, scale_y, shear_x, shear_y]) = f32s(i)?;
        let (i, inherit) = enum_u8("inherit", inherit_of)(i)?;
        let (i, length) = f32(i)?;
        let (i, skin_required) = bool(i)?;
        let (i, nonessential) = cond(ctx.nonessential, |i| {
            let (i, color) = rgba(i)?;
            let (i, icon) = string(ctx.lim)(i)?;
            let (i, [icon_size, icon_rotation]) = f32s(i)?;
            let (i, visible) = bool(i)?;
            Ok((i, BoneExtras { color, icon, icon_size, icon_rotation, visible }))
        })
        .parse(i)?;
        let bone = Bone {
            name: name.into(),
            parent,
            rotation,
            x,
            y,
            scale_x,
            scale_y,
            shear_x,
            shear_y,
            inherit,
            length,
            skin_required,
            nonessential,
        };
        Ok((i, bone))
    })
}

pub(super) fn slot<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, Slot> {
    let (i, name) = name(ctx.lim, "slot")(i)?;
    named(name, i, |i| {
        let (i, bone) = index("bone", ctx.bones)(i)?;
        let (i, color) = rgba(i)?;
        let (i, dark_color) = rgba(i)?;
        let (i, attachment) = str_ref(ctx.strings)(i)?;
        let (i, blend) = enum_varint("blend mode", blend_of)(i)?;
        let (i, visible) = cond(ctx.nonessential, bool).parse(i)?;
        let slot = Slot { name: name.into(), bone, color, dark_color, attachment, blend, visible };
        Ok((i, slot))
    })
}
