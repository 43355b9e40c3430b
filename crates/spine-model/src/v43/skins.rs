//! 4.3 skins: the default skin first, then the named ones with their bones and constraints.

use spine_format::binary::v43 as w;

use super::attachments::attachment;
use super::Conv;
use crate::data::*;
use crate::ids::*;

/// The skins (the default one, unnamed on the wire, first).
pub(super) fn skins(c: &mut Conv<'_, '_>) {
    let s = c.s;
    if let Some(slots) = &s.default_skin {
        c.b.data.default_skin = Some(SkinId(0));
        let entries = skin_entries(c, slots);
        c.b.add_skin(SkinData {
            name: "default".into(),
            bones: Vec::new(),
            constraints: Vec::new(),
            entries,
            color: None,
        });
    }
    for skin in &s.skins {
        c.b.enter("skin", &skin.name);
        let bones = c.b.bones(&skin.bones);
        let n = s.constraints.len();
        let constraints = skin
            .constraints
            .iter()
            .map(|&i| ConstraintId(c.b.check_index("constraint", i, n)))
            .collect();
        let entries = skin_entries(c, &skin.slots);
        c.b.pop();
        c.b.add_skin(SkinData {
            name: skin.name.clone(),
            bones,
            constraints,
            entries,
            color: skin.color.map(Color::from_bytes),
        });
    }
}

/// A skin's attachments, slot by slot.
fn skin_entries(c: &mut Conv<'_, '_>, slots: &[w::SkinSlot]) -> Vec<SkinEntry> {
    let mut entries = Vec::with_capacity(slots.iter().map(|s| s.attachments.len()).sum());
    for sa in slots {
        let slot = c.b.slot(sa.slot);
        c.b.enter_slot(slot);
        for e in &sa.attachments {
            let key = match c.shared(e.placeholder) {
                Some(key) => key,
                None => c.b.name_shared("attachment", None),
            };
            let name = c.share_ref(&key, e.attachment.name);
            c.b.enter("attachment", &key);
            let id = attachment(c, &name, &e.attachment);
            c.b.pop();
            entries.push(SkinEntry { slot, name: key, attachment: id });
        }
        c.b.pop();
    }
    entries
}
