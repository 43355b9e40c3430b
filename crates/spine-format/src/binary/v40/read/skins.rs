//! The default skin and the named skins with their slots; linked-mesh skin indices (4.2)
//! are checked once every skin is known.

use super::*;

/// The default skin and the named skins. Linked-mesh skin indices (4.2; where they were read,
/// the index) are checked once every skin is known.
pub(super) fn all_skins<'a>(
    c: &Ctx,
    table: &[&str],
    i: In<'a>,
) -> Res<'a, (Option<SkinSlots>, Vec<Skin>)> {
    let mut linked_skins = Vec::new();
    let (i, default_skin) = section("default skin", |i| {
        let (i, n) = count(&c.lim, "default skin slot", 2)(i)?;
        let r = cond(n > 0, |i| skin_slots(c, i, n, &mut linked_skins)).parse(i);
        r
    })
    .parse(i)?;
    let (i, skins) = section(
        "skins",
        list(&c.lim, "skin", 6, Some("skins"), |i, _| skin(c, i, table, &mut linked_skins)),
    )
    .parse(i)?;
    let n_skins = skins.len() + usize::from(default_skin.is_some());
    if let Some(&(rest, index)) = linked_skins.iter().find(|&&(_, k)| k as usize >= n_skins) {
        return Err(PErr::at_rest(
            rest,
            BinaryErrorKind::IndexOutOfRange {
                what: "linked mesh skin",
                index: u64::from(index),
                len: n_skins,
            },
        ));
    }
    Ok((i, (default_skin, skins)))
}

pub(super) fn skin<'a>(
    c: &Ctx,
    at: In<'a>,
    table: &[&str],
    linked_skins: &mut Vec<(usize, u32)>,
) -> Res<'a, Skin> {
    let rest = |i| {
        let lim = &c.lim;
        let (i, color) = opt_rgba(c.v42() && c.nonessential)(i)?;
        let (i, bones) = indices(lim, "skin bone", c.bones)(i)?;
        let (i, ik) = indices(lim, "skin ik constraint", c.ik)(i)?;
        let (i, transform) = indices(lim, "skin transform constraint", c.transform)(i)?;
        let (i, path) = indices(lim, "skin path constraint", c.path)(i)?;
        let (i, physics) =
            cond(c.v42(), indices(lim, "skin physics constraint", c.physics)).parse(i)?;
        let (i, n) = count(lim, "skin slot", 2)(i)?;
        let (i, slots) = skin_slots(c, i, n, linked_skins)?;
        Ok((i, (color, bones, ik, transform, path, physics.unwrap_or_default(), slots)))
    };
    let (i, (name, (color, bones, ik, transform, path, physics, slots))) = if c.v42() {
        let (i, n) = name(&c.lim, "skin")(at)?;
        let (i, r) = named(n, i, rest)?;
        (i, (Name::Inline(n.to_owned()), r))
    } else {
        let (i, n) = str_ref(c.strings)(at)?;
        let (i, r) = named_ref(table, "skin", n, at, i, rest)?;
        (i, (Name::Ref(n), r))
    };
    Ok((i, Skin { name, color, bones, ik, transform, path, physics, slots }))
}

/// `n` (checked) slots of a skin, each with its attachments.
pub(super) fn skin_slots<'a>(
    c: &Ctx,
    i: In<'a>,
    n: usize,
    linked_skins: &mut Vec<(usize, u32)>,
) -> Res<'a, SkinSlots> {
    // The attachments go to a reused scratch list, then are moved into an exact one (their
    // count is only known at the end).
    let mut attachments = c.skin_attachments.take();
    attachments.clear();
    // At least one attachment per slot (bounded by the remaining input).
    attachments.reserve(n.min(i.len() / 3));
    let r = items(n, Some("slots"), |i, _| {
        let (i, slot) = index("slot", c.slots)(i)?;
        let (i, m) = count(&c.lim, "attachment", 3)(i)?;
        attachments.reserve(m);
        let (i, ()) = each(m, Some("attachments"), |i, _| {
            let (i, key) = str_ref(c.strings)(i)?;
            let (i, attachment) = attachment(c, i, linked_skins)?;
            attachments.push(SkinAttachment { key, attachment });
            Ok((i, ()))
        })(i)?;
        Ok((i, (slot, m as u32)))
    })(i);
    // Drained, not taken: the scratch keeps its capacity, the skin gets an exact list.
    #[allow(clippy::drain_collect)]
    let r =
        r.map(|(i, slots)| (i, SkinSlots { slots, attachments: attachments.drain(..).collect() }));
    c.skin_attachments.set(attachments);
    r
}
