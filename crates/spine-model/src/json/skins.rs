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

/// Converts skins as a [`j::SkinSink`] feeds them (the ones named `"default"` first), each
/// attachment's arrays taken; [`SkinConv::finish`] then queues the linked meshes.
pub(super) struct SkinConv<'c, 'a, 'o> {
    c: &'c mut Conv<'a, 'o>,
    links: Vec<Link>,
    /// The current skin's bones, constraints and attachments.
    bones: Vec<BoneId>,
    constraints: Vec<ConstraintId>,
    entries: Vec<SkinEntry>,
    /// The current slot.
    slot: SlotId,
}

impl<'c, 'a, 'o> SkinConv<'c, 'a, 'o> {
    pub(super) fn new(c: &'c mut Conv<'a, 'o>) -> Self {
        SkinConv {
            c,
            links: Vec::new(),
            bones: Vec::new(),
            constraints: Vec::new(),
            entries: Vec::new(),
            slot: SlotId(0),
        }
    }

    /// Every skin read: the linked meshes queued.
    pub(super) fn finish(self) {
        link(self.c, self.links);
    }
}

impl j::SkinSink for SkinConv<'_, '_, '_> {
    fn skin(&mut self, skin: &j::Skin, slots: usize) {
        let c = &mut *self.c;
        c.b.enter("skin", &skin.name);
        self.bones = skin.bones.iter().map(|n| c.bone(n)).collect();
        self.constraints = Vec::new();
        for (ty, list) in [&skin.ik, &skin.transform, &skin.path, &skin.physics].iter().enumerate()
        {
            for n in list.iter() {
                if let Some(id) = c.constraint(ty, n) {
                    self.constraints.push(id);
                }
            }
        }
        // About one attachment a slot.
        self.entries = Vec::with_capacity(slots);
    }

    fn slot(&mut self, name: &str, count: usize) {
        let c = &mut *self.c;
        self.slot = SlotId(c.lookup("slot", name).unwrap_or(0));
        c.b.enter("slot", name);
        self.entries.reserve(count);
    }

    fn attachment(&mut self, a: j::Attachment<&str>) {
        let c = &mut *self.c;
        c.b.enter("attachment", a.key);
        let key: Arc<str> = Arc::from(a.key);
        let name = share(&key, a.name);
        let id = attachment(c, &name, a.kind, self.slot.0, &mut self.links);
        c.b.pop();
        self.entries.push(SkinEntry { slot: self.slot, name: key, attachment: id });
    }

    fn slot_end(&mut self) {
        self.c.b.pop();
    }

    fn skin_end(&mut self, skin: j::Skin) {
        let c = &mut *self.c;
        c.b.pop();
        let is_default = skin.name == "default";
        let id = c.b.add_skin(SkinData {
            name: skin.name,
            bones: std::mem::take(&mut self.bones),
            constraints: std::mem::take(&mut self.constraints),
            entries: std::mem::take(&mut self.entries),
            color: skin.color.map(Color::from_bytes),
        });
        if is_default && c.b.data.default_skin.is_none() {
            c.b.data.default_skin = Some(id);
        }
    }
}

/// Queues the linked meshes, each source skin looked up by name.
fn link(c: &mut Conv<'_, '_>, links: Vec<Link>) {
    for l in links {
        let skin = match &l.skin {
            None => c.b.data.default_skin.map(|d| d.0),
            Some(n) => c.b.data.skins.iter().position(|s| s.name == n).map(|i| i as u32),
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
