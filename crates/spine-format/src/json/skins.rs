//! Skins: the 3.5–3.7 object form and the 3.8+ array form, with their attachments per slot.

use super::attachments::{read_attachment, Attachment};
use super::value::{each, each_named, Obj, J, P, R};
use crate::SpineVersion;
use serde::Serialize;

/// The attachments of one slot in a skin.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct SkinSlot {
    /// Slot name.
    pub slot: String,
    /// Attachments in file order.
    pub attachments: Vec<Attachment>,
}

/// A skin.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Skin {
    /// `name` (3.8+), or the key in the 3.5–3.7 object form.
    pub name: String,
    /// `bones` (3.8+).
    pub bones: Vec<String>,
    /// `ik` constraint names (3.8+).
    pub ik: Vec<String>,
    /// `transform` constraint names (3.8+).
    pub transform: Vec<String>,
    /// `path` constraint names (3.8+).
    pub path: Vec<String>,
    /// `physics` constraint names (4.2).
    pub physics: Vec<String>,
    /// `attachments` per slot (3.5–3.7: the skin object itself).
    pub slots: Vec<SkinSlot>,
    /// `color` (4.2, nonessential).
    pub color: Option<[u8; 4]>,
}

/// The `<slot>: {<key>: attachment}` object of a skin.
fn read_skin_slots(v: J<'_>, p: &P<'_>, ver: SpineVersion) -> R<Vec<SkinSlot>> {
    each_named(v, p, "skin slot", |slot, v, p| {
        Ok(SkinSlot {
            slot: slot.to_owned(),
            attachments: each_named(v, p, "attachment", |key, v, p| {
                read_attachment(key, &Obj::new(v, p)?, ver)
            })?,
        })
    })
}

/// The `skins`: an object (3.5–3.7) or an array (3.8+).
pub(super) fn read_skins(v: J<'_>, p: &P<'_>, ver: SpineVersion) -> R<Vec<Skin>> {
    if v.is_obj() {
        // 3.5–3.7: { "default": { "slot": { "attachment": {...} } } }
        each_named(v, p, "skin", |name, v, p| {
            Ok(Skin {
                name: name.to_owned(),
                slots: read_skin_slots(v, p, ver)?,
                ..Skin::default()
            })
        })
    } else if v.items().is_some() {
        // 3.8+: [ { "name": "default", "attachments": {...} } ]
        each(v, p, "skin", |v, p| {
            let o = Obj::new(v, p)?;
            Ok(Skin {
                name: o.req_string("name")?,
                bones: o.strings("bones", "bone")?,
                ik: o.strings("ik", "ik constraint")?,
                transform: o.strings("transform", "transform constraint")?,
                path: o.strings("path", "path constraint")?,
                physics: o.strings("physics", "physics constraint")?,
                slots: o.opt("attachments", |v, p| read_skin_slots(v, p, ver))?.unwrap_or_default(),
                color: o.color("color")?,
            })
        })
    } else {
        Err(p.expected("an array (3.8+) or an object (3.5–3.7) of skins", v))
    }
}
