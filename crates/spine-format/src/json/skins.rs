//! Skins: the 3.5–3.7 object form and the 3.8+ array form, with their attachments per slot,
//! read into a [`SkinSink`] (the AST builder, or a loader's own).

use super::attachments::{read_attachment, Attachment};
use super::value::{array_len, each, each_entry, Obj, J, P, R};
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
    pub name: crate::Name,
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

/// Receives skins as the reader reads them ([`super::Skins::read`]): per skin `skin`, then
/// per slot `slot`, its attachments and `slot_end`, then `skin_end`. Names are raw (nothing is
/// resolved) and values unscaled, as in the AST. When reading fails, the sink has seen the
/// calls before the error.
pub trait SkinSink {
    /// A skin starts: its head (`slots` empty; `color`, which the reader reads after the
    /// attachments, not yet), and how many slots it lists.
    fn skin(&mut self, skin: &Skin, slots: usize);
    /// The attachments of slot `name` of the current skin follow (`count` of them), until
    /// [`SkinSink::slot_end`].
    fn slot(&mut self, name: &str, count: usize);
    /// An attachment of the current slot: its arrays are the sink's, its strings borrowed
    /// from the document.
    fn attachment(&mut self, attachment: Attachment<&str>);
    /// The current slot's attachments ended.
    fn slot_end(&mut self);
    /// The current skin ended: its head, `color` read (`slots` empty).
    fn skin_end(&mut self, skin: Skin);
}

/// The `<slot>: {<key>: attachment}` object of a skin.
fn read_skin_slots<S: SkinSink + ?Sized>(
    v: J<'_>,
    p: &P<'_>,
    ver: SpineVersion,
    sink: &mut S,
) -> R<()> {
    each_entry(v, p, "skin slot", |slot, v, p| {
        sink.slot(slot, v.entries().map_or(0, |e| e.len()));
        each_entry(v, p, "attachment", |key, v, p| {
            sink.attachment(read_attachment(key, &Obj::new(v, p)?, ver)?);
            Ok(())
        })?;
        sink.slot_end();
        Ok(())
    })
}

/// Reads the `skins`, an object (3.5–3.7) or an array (3.8+), in file order into `sink`.
pub(super) fn read_skins<S: SkinSink + ?Sized>(
    v: J<'_>,
    p: &P<'_>,
    ver: SpineVersion,
    sink: &mut S,
) -> R<()> {
    let slots = |v: J<'_>| v.entries().map_or(0, |e| e.len());
    if v.is_obj() {
        // 3.5–3.7: { "default": { "slot": { "attachment": {...} } } }
        each_entry(v, p, "skin", |name, v, p| {
            let skin = Skin { name: name.into(), ..Skin::default() };
            sink.skin(&skin, slots(v));
            read_skin_slots(v, p, ver, sink)?;
            sink.skin_end(skin);
            Ok(())
        })
    } else if v.items().is_some() {
        // 3.8+: [ { "name": "default", "attachments": {...} } ]
        each(v, p, "skin", |v, p| {
            let o = Obj::new(v, p)?;
            let mut skin = Skin {
                name: o.req_name("name")?,
                bones: o.strings("bones", "bone")?,
                ik: o.strings("ik", "ik constraint")?,
                transform: o.strings("transform", "transform constraint")?,
                path: o.strings("path", "path constraint")?,
                physics: o.strings("physics", "physics constraint")?,
                ..Skin::default()
            };
            sink.skin(&skin, o.get("attachments").map_or(0, slots));
            o.opt("attachments", |v, p| read_skin_slots(v, p, ver, sink))?;
            skin.color = o.color("color")?;
            sink.skin_end(skin);
            Ok(())
        })
        .map(drop)
    } else {
        Err(p.expected("an array (3.8+) or an object (3.5–3.7) of skins", v))
    }
}

/// Whether the skins of `v` (the `skins` value), in file order, already come with those named
/// `default` first: no skin named `default` follows one named otherwise. `false` too when a
/// name cannot be told (reading them in file order will say why).
pub(super) fn default_first(v: J<'_>) -> bool {
    let mut other = false;
    let mut see = |name: Option<&str>| match name {
        None => false,
        Some("default") => !other,
        Some(_) => {
            other = true;
            true
        }
    };
    if let Some(entries) = v.entries() {
        entries.into_iter().all(|(name, _)| see(Some(name)))
    } else if let Some(items) = v.items() {
        let p = P::ROOT;
        items.into_iter().all(|x| see(Obj::new(x, &p).ok().and_then(|o| o.get("name")?.str())))
    } else {
        false
    }
}

/// Builds the AST's skins (the sink behind [`super::parse`]).
#[derive(Default)]
pub(super) struct AstSkins {
    /// The skins read.
    pub(super) skins: Vec<Skin>,
    slots: Vec<SkinSlot>,
}

impl AstSkins {
    /// Room for the skins of `v` (the `skins` value).
    pub(super) fn for_value(v: J<'_>) -> AstSkins {
        let n = v.entries().map(|e| e.len()).or_else(|| array_len(v)).unwrap_or(0);
        AstSkins { skins: Vec::with_capacity(n), slots: Vec::new() }
    }
}

impl SkinSink for AstSkins {
    fn skin(&mut self, _: &Skin, slots: usize) {
        self.slots = Vec::with_capacity(slots);
    }
    fn slot(&mut self, name: &str, count: usize) {
        self.slots.push(SkinSlot { slot: name.to_owned(), attachments: Vec::with_capacity(count) });
    }
    fn attachment(&mut self, attachment: Attachment<&str>) {
        if let Some(s) = self.slots.last_mut() {
            s.attachments.push(attachment.into_owned());
        }
    }
    fn slot_end(&mut self) {}
    fn skin_end(&mut self, mut skin: Skin) {
        skin.slots = std::mem::take(&mut self.slots);
        self.skins.push(skin);
    }
}

impl Skin {
    /// Feeds this skin to `sink` as the reader would, lending each attachment
    /// ([`Attachment::lend`]: the arrays move to the sink, `self` keeps empty ones).
    pub fn replay<S: SkinSink + ?Sized>(&mut self, sink: &mut S) {
        let head = self.clone_head();
        sink.skin(&head, self.slots.len());
        for slot in &mut self.slots {
            sink.slot(&slot.slot, slot.attachments.len());
            for a in &mut slot.attachments {
                sink.attachment(a.lend());
            }
            sink.slot_end();
        }
        sink.skin_end(Skin { color: self.color, ..head });
    }

    /// The skin's name, bone and constraint lists (no slots, no color).
    fn clone_head(&self) -> Skin {
        Skin {
            name: self.name.clone(),
            bones: self.bones.clone(),
            ik: self.ik.clone(),
            transform: self.transform.clone(),
            path: self.path.clone(),
            physics: self.physics.clone(),
            slots: Vec::new(),
            color: None,
        }
    }
}
