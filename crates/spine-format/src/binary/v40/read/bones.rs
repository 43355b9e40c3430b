//! Bones and slots.

use super::*;

#[inline]
pub(super) fn bone<'a>(c: &Ctx, i: In<'a>, k: usize) -> Res<'a, Bone> {
    let (i, name) = name(&c.lim, "bone")(i)?;
    named(name, i, |i| {
        let (i, parent) = cond(k > 0, index("parent bone", k)).parse(i)?;
        let (at, [rotation, x, y, scale_x, scale_y, shear_x, shear_y, length]) = f32s(i)?;
        let (i, raw) = if c.v42() { u8(at).map(|(i, v)| (i, u32::from(v)))? } else { varint(at)? };
        let Some(inherit) = Inherit::from_wire(raw) else {
            return Err(PErr::bad_enum(at, "inherit", raw.into()));
        };
        let (i, skin_required) = bool(i)?;
        let (i, extras) = cond(c.nonessential, |i| {
            let (i, color) = rgba(i)?;
            let (i, icon_visible) = cond(c.v42(), |i| {
                let (i, icon) = str(&c.lim)(i)?;
                let (i, visible) = bool(i)?;
                Ok((i, (icon.filter(|_| c.keep_icons).map(str::to_owned), visible)))
            })
            .parse(i)?;
            let (icon, visible) = icon_visible.unwrap_or((None, true));
            Ok((i, BoneExtras { color, icon, visible }))
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
            length,
            inherit,
            skin_required,
            extras,
        };
        Ok((i, bone))
    })
}

#[inline]
pub(super) fn slot<'a>(c: &Ctx, i: In<'a>) -> Res<'a, Slot> {
    let (i, name) = name(&c.lim, "slot")(i)?;
    named(name, i, |i| {
        let (i, bone) = index("bone", c.bones)(i)?;
        let (i, color) = rgba(i)?;
        let (i, dark) = rgba(i)?;
        let (i, attachment) = str_ref(c.strings)(i)?;
        let (i, blend) = enum_varint("blend mode", BlendMode::from_wire)(i)?;
        let (i, visible) = cond(c.nonessential && c.v42(), bool).parse(i)?;
        Ok((i, Slot { name: name.into(), bone, color, dark, attachment, blend, visible }))
    })
}
