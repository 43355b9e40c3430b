//! Skins: attachments per slot and the bones/constraints a skin activates.

use super::Color;
use crate::ids::*;
use std::sync::Arc;

/// A skin: attachments per slot and the bones/constraints it activates.
#[derive(Debug, Clone, PartialEq)]
pub struct SkinData {
    /// Name (`"default"` for the default skin).
    pub name: crate::Name,
    /// Skin-required bones this skin activates.
    pub bones: Vec<BoneId>,
    /// Skin-required constraints this skin activates.
    pub constraints: Vec<ConstraintId>,
    /// Entries sorted by `(slot, name)` (see [`SkinData::attachment`]).
    pub entries: Vec<SkinEntry>,
    /// Editor color (nonessential).
    pub color: Option<Color>,
}

/// One skin entry.
#[derive(Debug, Clone, PartialEq)]
pub struct SkinEntry {
    /// Slot.
    pub slot: SlotId,
    /// Placeholder name (shared: usually the same allocation as the attachment's name).
    pub name: Arc<str>,
    /// The attachment.
    pub attachment: AttachmentId,
}

impl SkinData {
    /// The attachment for `slot` under placeholder `name` (binary search).
    pub fn attachment(&self, slot: SlotId, name: &str) -> Option<AttachmentId> {
        self.entries
            .binary_search_by(|e| (e.slot, &*e.name).cmp(&(slot, name)))
            .ok()
            .and_then(|i| self.entries.get(i))
            .map(|e| e.attachment)
    }

    /// The entries of one slot.
    pub fn slot_entries(&self, slot: SlotId) -> &[SkinEntry] {
        let start = self.entries.partition_point(|e| e.slot < slot);
        let end = self.entries.partition_point(|e| e.slot <= slot);
        self.entries.get(start..end).unwrap_or(&[])
    }
}
