//! 3.x skins: the default skin first, then the named ones; linked meshes queued by name.

use spine_format::binary::v3_common as w;

use super::attachments::attachment;
use super::{Conv, Skin3, Text};
use crate::build::{share, PendingLink};
use crate::data::*;
use crate::error::ProblemKind;
use crate::ids::*;

/// A linked mesh waiting for its parent (skin named by name, resolved after every skin).
pub(super) struct Link3 {
    /// The mesh attachment to fill.
    pub mesh: AttachmentId,
    /// The parent's skin (`None` = the default skin).
    pub skin: Option<String>,
    /// The slot both attachments are in.
    pub slot: u32,
    /// The parent attachment's name.
    pub parent: String,
    /// Whether the mesh plays the parent's deform timelines.
    pub inherit: bool,
    /// Where problems are reported.
    pub at: crate::build::PathAt,
}

/// The default skin (`default`, unnamed on the wire) then `skins`; linked meshes queued.
pub(super) fn skins3<S, T: Text<S>>(
    c: &mut Conv<'_, '_, T>,
    default: &[w::SkinSlot<S>],
    skins: &[Skin3<'_, S>],
) {
    let mut links = Vec::new();
    if !default.is_empty() {
        c.b.data.default_skin = Some(SkinId(0));
        c.b.push("skin \"default\"");
        let entries = skin_entries(c, default, &mut links);
        c.b.pop();
        c.b.add_skin(SkinData {
            name: "default".into(),
            bones: Vec::new(),
            constraints: Vec::new(),
            entries,
            color: None,
        });
    }
    for skin in skins {
        c.b.enter("skin", &skin.name);
        let bones = c.b.bones(skin.bones);
        let mut constraints = Vec::new();
        for (k, list) in skin.cons.iter().enumerate() {
            for &i in *list {
                match c.ids[k].get(i as usize) {
                    Some(&id) => constraints.push(id),
                    None => c.b.report(ProblemKind::IndexOutOfRange {
                        what: "constraint",
                        index: u64::from(i),
                        len: c.ids[k].len(),
                    }),
                }
            }
        }
        let entries = skin_entries(c, skin.slots, &mut links);
        c.b.pop();
        c.b.add_skin(SkinData {
            name: skin.name.as_str().into(),
            bones,
            constraints,
            entries,
            color: None,
        });
    }
    link(c, links);
}

/// Queues the linked meshes, each parent skin looked up by name.
fn link<T>(c: &mut Conv<'_, '_, T>, links: Vec<Link3>) {
    for l in links {
        let skin = match &l.skin {
            None => c.b.data.default_skin.map(|d| d.0),
            Some(n) => c.b.data.skins.iter().position(|s| s.name == n).map(|i| i as u32),
        };
        c.b.link(PendingLink {
            mesh: l.mesh,
            skin: skin.unwrap_or(u32::MAX),
            slot: l.slot,
            source: l.parent,
            inherit_timelines: l.inherit,
            at: l.at,
        });
    }
}

/// A skin's attachments, slot by slot.
fn skin_entries<S, T: Text<S>>(
    c: &mut Conv<'_, '_, T>,
    slots: &[w::SkinSlot<S>],
    links: &mut Vec<Link3>,
) -> Vec<SkinEntry> {
    let mut entries = Vec::new();
    for sa in slots {
        let slot = c.b.slot(sa.slot);
        let slot_name =
            c.b.data.slots.get(slot.index()).map(|s| s.name.clone()).unwrap_or_default();
        c.b.enter("slot", &slot_name);
        for e in &sa.entries {
            let key = c.b.name_shared("attachment", c.t.text(&e.key));
            let name = share(&key, c.t.text(&e.name));
            c.b.enter("attachment", &key);
            let id = attachment(c, &name, &e.attachment, sa.slot, links);
            c.b.pop();
            entries.push(SkinEntry { slot, name: key, attachment: id });
        }
        c.b.pop();
    }
    entries
}
