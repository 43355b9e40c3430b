//! Skins: their slots and the attachments in them.

use super::*;

/// A named skin.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Skin {
    /// Name.
    pub name: Name,
    /// Editor color (4.2 nonessential only).
    pub color: Option<[u8; 4]>,
    /// Skin bones.
    pub bones: Vec<u32>,
    /// Skin IK constraints.
    pub ik: Vec<u32>,
    /// Skin transform constraints.
    pub transform: Vec<u32>,
    /// Skin path constraints.
    pub path: Vec<u32>,
    /// Skin physics constraints (4.2 only).
    pub physics: Vec<u32>,
    /// Attachments per slot.
    pub slots: SkinSlots,
}

/// The attachments of a skin, slot after slot, in one list (not one list per slot).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct SkinSlots {
    /// Per slot, in wire order: the slot index and how many of `attachments` (the next ones
    /// in order) it has.
    pub slots: Vec<(u32, u32)>,
    /// Every attachment by skin placeholder name, slot after slot.
    pub attachments: Vec<SkinAttachment>,
}

impl SkinSlots {
    /// Each slot and its attachments, in wire order (a count that overruns `attachments`
    /// is cut short, which the parser never produces).
    pub fn groups(&self) -> impl Iterator<Item = (u32, &[SkinAttachment])> + '_ {
        let mut start = 0usize;
        self.slots.iter().map(move |&(slot, n)| {
            let end = start.saturating_add(n as usize).min(self.attachments.len());
            let group = self.attachments.get(start.min(end)..end).unwrap_or(&[]);
            start = end;
            (slot, group)
        })
    }

    /// The attachments of `slot` (its first group).
    pub fn slot(&self, slot: u32) -> Option<&[SkinAttachment]> {
        self.groups().find(|(s, _)| *s == slot).map(|(_, a)| a)
    }

    /// Appends a slot and its attachments.
    pub fn push_slot(&mut self, slot: u32, attachments: impl IntoIterator<Item = SkinAttachment>) {
        let before = self.attachments.len();
        self.attachments.extend(attachments);
        let n = u32::try_from(self.attachments.len() - before).unwrap_or(u32::MAX);
        self.slots.push((slot, n));
    }

    /// No slot.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }
}

/// One skin entry: the placeholder name and the attachment.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SkinAttachment {
    /// Skin placeholder name.
    pub key: StrRef,
    /// The attachment.
    pub attachment: Attachment,
}
