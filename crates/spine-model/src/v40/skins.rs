//! 4.0–4.2 skins: the default skin first, then the named ones; linked meshes queued.

use spine_format::binary::v40::ast as w;
use spine_format::binary::StrRef;

use super::attachments::attachment;
use super::Conv;
use crate::build::PendingLink;
use crate::data::*;
use crate::error::ProblemKind;
use crate::ids::*;

/// A linked mesh waiting for its parent (resolved after every skin).
pub(super) struct Link {
    /// The mesh attachment to fill.
    pub mesh: AttachmentId,
    /// The parent's skin (by index, by name, or the default one).
    pub skin: w::SkinRef,
    /// The slot both attachments are in.
    pub slot: u32,
    /// The parent attachment's name.
    pub parent: String,
    /// Whether the mesh plays the parent's timelines.
    pub inherit: bool,
    /// Where problems are reported.
    pub at: crate::build::PathAt,
}

/// The default skin (unnamed on the wire) then the named ones; linked meshes queued.
pub(super) fn skins(c: &mut Conv<'_, '_>) {
    let s = c.s;
    let mut links = Vec::new();
    if let Some(slots) = &s.default_skin {
        c.b.data.default_skin = Some(SkinId(0));
        let entries = skin_entries(c, slots, &mut links);
        c.b.add_skin(SkinData {
            name: "default".into(),
            bones: Vec::new(),
            constraints: Vec::new(),
            entries,
            color: None,
        });
    }
    for skin in &s.skins {
        let name = c.b.name("skin", skin.name.resolve(c.strings));
        c.b.enter("skin", &name);
        let bones = c.b.bones(&skin.bones);
        let mut constraints = Vec::new();
        for (list, ids) in [
            (&skin.ik, &c.ik),
            (&skin.transform, &c.transform),
            (&skin.path, &c.path),
            (&skin.physics, &c.physics),
        ] {
            for &i in list {
                match ids.get(i as usize) {
                    Some(&id) => constraints.push(id),
                    None => c.b.report(ProblemKind::IndexOutOfRange {
                        what: "constraint",
                        index: u64::from(i),
                        len: ids.len(),
                    }),
                }
            }
        }
        let entries = skin_entries(c, &skin.slots, &mut links);
        c.b.pop();
        c.b.add_skin(SkinData {
            name: name.into(),
            bones,
            constraints,
            entries,
            color: skin.color.map(Color::from_bytes),
        });
    }
    link(c, links);
}

/// Queues the linked meshes, each parent skin resolved.
fn link(c: &mut Conv<'_, '_>, links: Vec<Link>) {
    for l in links {
        let skin = match l.skin {
            w::SkinRef::Index(i) => Some(i),
            w::SkinRef::Name(StrRef::NONE) => c.b.data.default_skin.map(|d| d.0),
            w::SkinRef::Name(r) => {
                let n = c.text(r).unwrap_or_default();
                c.b.data.skins.iter().position(|s| s.name == n).map(|i| i as u32)
            }
        };
        let skin = skin.unwrap_or(u32::MAX);
        c.b.link(PendingLink {
            mesh: l.mesh,
            skin,
            slot: l.slot,
            source: l.parent,
            inherit_timelines: l.inherit,
            at: l.at,
        });
    }
}

/// A skin's attachments, slot by slot.
fn skin_entries(
    c: &mut Conv<'_, '_>,
    slots: &w::SkinSlots,
    links: &mut Vec<Link>,
) -> Vec<SkinEntry> {
    let mut entries = Vec::with_capacity(slots.attachments.len());
    for (sa_slot, attachments) in slots.groups() {
        let slot = c.b.slot(sa_slot);
        c.b.enter_slot(slot);
        for e in attachments {
            let key = match c.shared(e.key) {
                Some(key) => key,
                None => c.b.name_shared("attachment", None),
            };
            let name = c.share_ref(&key, e.attachment.name);
            c.b.enter("attachment", &key);
            let id = attachment(c, name, &e.attachment.kind, sa_slot, links);
            c.b.pop();
            entries.push(SkinEntry { slot, name: key, attachment: id });
        }
        c.b.pop();
    }
    entries
}
