//! Skins: the bones and constraints they activate and their attachments per slot.

use super::attachments::{read_attachment, Attachment};
use super::named;
use crate::json::value::{Obj, R};
use serde::Serialize;

/// The attachments of one slot in a skin.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct SkinSlot {
    /// Slot name.
    pub slot: String,
    /// Attachments in file order.
    pub attachments: Vec<Attachment>,
}

/// A skin (`skins[i]`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Skin {
    /// `name` (required).
    pub name: crate::Name,
    /// `bones` it activates.
    pub bones: Vec<String>,
    /// `ik` constraint names.
    pub ik: Vec<String>,
    /// `transform` constraint names.
    pub transform: Vec<String>,
    /// `path` constraint names.
    pub path: Vec<String>,
    /// `physics` constraint names.
    pub physics: Vec<String>,
    /// `slider` constraint names.
    pub slider: Vec<String>,
    /// `attachments` per slot.
    pub slots: Vec<SkinSlot>,
    /// `color` (nonessential).
    pub color: Option<[u8; 4]>,
}

/// A skin (`skins[i]`) with its attachments per slot.
pub(super) fn read_skin(o: &Obj) -> R<Skin> {
    Ok(Skin {
        name: o.req_name("name")?,
        bones: o.strings("bones", "bone")?,
        ik: o.strings("ik", "ik constraint")?,
        transform: o.strings("transform", "transform constraint")?,
        path: o.strings("path", "path constraint")?,
        physics: o.strings("physics", "physics constraint")?,
        slider: o.strings("slider", "slider constraint")?,
        slots: o
            .opt("attachments", |v, p| {
                named(v, p, "skin slot", |slot, v, p| {
                    Ok(SkinSlot {
                        slot: slot.to_owned(),
                        attachments: named(v, p, "attachment", |key, v, p| {
                            read_attachment(key, &Obj::new(v, p)?)
                        })?,
                    })
                })
            })?
            .unwrap_or_default(),
        color: o.color("color")?,
    })
}
