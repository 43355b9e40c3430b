//! Skins and their slots.

use super::*;

pub(super) fn skin<'a>(ctx: &Ctx<'_>, i: In<'a>, linked: &mut Vec<(usize, u32)>) -> Res<'a, Skin> {
    let (i, name) = name(ctx.lim, "skin")(i)?;
    named(name, i, |i| {
        let (i, color) = opt_rgba(ctx.nonessential)(i)?;
        let (i, bones) = indices(ctx.lim, "bone", ctx.bones)(i)?;
        let (i, constraints) = indices(ctx.lim, "constraint", ctx.constraints.len())(i)?;
        let (i, n) = count(ctx.lim, "skin slot", 2)(i)?;
        let (i, slots) = skin_slots(ctx, i, n, linked)?;
        Ok((i, Skin { name: name.into(), color, bones, constraints, slots }))
    })
}

/// `n` (checked) slots of a skin, each with its attachments.
pub(super) fn skin_slots<'a>(
    ctx: &Ctx<'_>,
    i: In<'a>,
    n: usize,
    linked: &mut Vec<(usize, u32)>,
) -> Res<'a, Vec<SkinSlot>> {
    items(n, Some("slots"), |i, _| {
        let (i, slot) = index("slot", ctx.slots)(i)?;
        let (i, attachments) = list(ctx.lim, "attachment", 2, Some("attachments"), |i, _| {
            let (i, placeholder) = str_ref(ctx.strings)(i)?;
            let (i, attachment) = attachment(ctx, i, linked)?;
            Ok((i, SkinEntry { placeholder, attachment }))
        })(i)?;
        Ok((i, SkinSlot { slot, attachments }))
    })(i)
}
