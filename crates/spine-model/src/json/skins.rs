//! JSON skins: bones, constraints and attachments per slot; linked meshes queued.

use std::sync::Arc;

use spine_format::json as j;

use super::attachments::attachment;
use super::Conv;
use crate::build::{share, PendingLink};
use crate::data::*;
use crate::error::ProblemKind;
use crate::ids::*;

/// A linked mesh waiting for its source (skin named by name, resolved after every skin).
pub(super) struct Link {
    /// The mesh attachment to fill.
    pub mesh: AttachmentId,
    /// The source's skin (`None` = the default skin).
    pub skin: Option<String>,
    /// The slot both attachments are in.
    pub slot: u32,
    /// The source attachment's name.
    pub parent: String,
    /// Whether the mesh plays the source's deform timelines.
    pub inherit: bool,
    /// Where problems are reported.
    pub at: crate::build::PathAt,
}

/// The skins, the one named `"default"` first, then the linked meshes resolved.
pub(super) fn skins(c: &mut Conv<'_, '_>) {
    let s = c.s;
    let mut links = Vec::new();
    let mut order: Vec<&j::Skin> = Vec::with_capacity(s.skins.len());
    order.extend(s.skins.iter().filter(|k| k.name == "default"));
    order.extend(s.skins.iter().filter(|k| k.name != "default"));
    for skin in order {
        c.b.enter("skin", &skin.name);
        let bones = skin.bones.iter().map(|n| c.bone(n)).collect();
        let mut constraints = Vec::new();
        for (ty, list) in [&skin.ik, &skin.transform, &skin.path, &skin.physics].iter().enumerate()
        {
            for n in list.iter() {
                if let Some(id) = c.constraint(ty, n) {
                    constraints.push(id);
                }
            }
        }
        let mut entries = Vec::new();
        for sa in &skin.slots {
            let slot_index = c.lookup("slot", &sa.slot);
            let slot = SlotId(slot_index.unwrap_or(0));
            c.b.enter("slot", &sa.slot);
            for a in &sa.attachments {
                c.b.enter("attachment", &a.key);
                let key: Arc<str> = Arc::from(a.key.as_str());
                let name = share(&key, a.name.as_deref());
                let id = attachment(c, &name, &a.kind, slot.0, &mut links);
                c.b.pop();
                entries.push(SkinEntry { slot, name: key, attachment: id });
            }
            c.b.pop();
        }
        c.b.pop();
        let id = c.b.add_skin(SkinData {
            name: skin.name.clone(),
            bones,
            constraints,
            entries,
            color: skin.color.map(Color::from_bytes),
        });
        if skin.name == "default" && c.b.data.default_skin.is_none() {
            c.b.data.default_skin = Some(id);
        }
    }
    link(c, links);
}

/// Queues the linked meshes, each source skin looked up by name.
fn link(c: &mut Conv<'_, '_>, links: Vec<Link>) {
    for l in links {
        let skin = match &l.skin {
            None => c.b.data.default_skin.map(|d| d.0),
            Some(n) => c.b.data.skins.iter().position(|s| &s.name == n).map(|i| i as u32),
        };
        let Some(skin) = skin else {
            let name = l.skin.clone().unwrap_or_else(|| "default".to_owned());
            c.b.report_at(l.at, ProblemKind::UnknownName { what: "linked mesh skin", name });
            continue;
        };
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
