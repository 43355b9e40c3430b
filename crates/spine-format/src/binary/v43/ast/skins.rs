//! Skins: their slots and the attachment entries in them.

use super::*;

/// A named skin.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct Skin {
    /// Name.
    pub name: crate::Name,
    /// Nonessential editor color (present iff the header flag is set).
    pub color: Option<[u8; 4]>,
    /// Skin-required bones it activates.
    pub bones: Vec<u32>,
    /// Constraints it activates (indices into the unified list).
    pub constraints: Vec<u32>,
    /// Attachments per slot.
    pub slots: Vec<SkinSlot>,
}

/// The attachments of one slot in a skin.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct SkinSlot {
    /// Slot index.
    pub slot: u32,
    /// Attachments under their placeholder names.
    pub attachments: Vec<SkinEntry>,
}

/// One attachment of a skin slot.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SkinEntry {
    /// Placeholder (skin key) name.
    pub placeholder: StrRef,
    /// The attachment.
    pub attachment: Attachment,
}
