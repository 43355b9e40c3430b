//! The raw AST of a 4.3 binary skeleton: one type per wire record, fields in wire order.
//!
//! Conventions (see the module docs of [`super`]): numbers are unscaled, string-table
//! references stay [`StrRef`]s, colors stay bytes, indices are unresolved. A flag byte whose
//! bits gate optional fields is kept raw (`flags`), and each gated field is an `Option` that
//! is `Some` exactly when its bit is set; accessor methods decode the other bits. The writer
//! trusts the flag byte: a gated field is written when its bit is set (its default when the
//! `Option` is `None`) and skipped otherwise.

use crate::binary::shared::{CurveTimeline, DrawOrderChange};
use crate::binary::StrRef;

mod animation;
mod attachments;
mod bones;
mod constraints;
mod skins;

pub use animation::*;
pub use attachments::*;
pub use bones::*;
pub use constraints::*;
pub use skins::*;

/// A whole 4.3 skeleton file.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct Skeleton {
    /// Header fields.
    pub header: Header,
    /// The string table that [`StrRef`]s index.
    pub strings: Vec<Option<String>>,
    /// Bones, parent first.
    pub bones: Vec<Bone>,
    /// Slots in setup draw order.
    pub slots: Vec<Slot>,
    /// The unified constraint list, in update order.
    pub constraints: Vec<Constraint>,
    /// The default skin's slots (`None` when the file has no default skin; it is then not
    /// counted in skin indices).
    pub default_skin: Option<Vec<SkinSlot>>,
    /// Named skins (skin index = position + 1 when there is a default skin).
    pub skins: Vec<Skin>,
    /// Event definitions.
    pub events: Vec<Event>,
    /// Animations.
    pub animations: Vec<Animation>,
}

impl Skeleton {
    /// Whether the file carries nonessential data (the header flag).
    pub fn nonessential(&self) -> bool {
        self.header.nonessential.is_some()
    }

    /// Number of skins as indexed on the wire (the default skin counts when present).
    pub fn skin_count(&self) -> usize {
        self.skins.len() + usize::from(self.default_skin.is_some())
    }
}

/// The file header.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct Header {
    /// First hash word (`hashLow`).
    pub hash_low: i32,
    /// Second hash word (`hashHigh`).
    pub hash_high: i32,
    /// Editor version, starting with `"4.3"`.
    pub version: String,
    /// Bounds origin x.
    pub x: f32,
    /// Bounds origin y.
    pub y: f32,
    /// Bounds width.
    pub width: f32,
    /// Bounds height.
    pub height: f32,
    /// Reference scale (scaled).
    pub reference_scale: f32,
    /// Nonessential header fields; `Some` exactly when the nonessential flag is set.
    pub nonessential: Option<NonessentialHeader>,
}

/// Header fields present only in nonessential exports.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct NonessentialHeader {
    /// Dopesheet frames per second.
    pub fps: f32,
    /// Images folder hint.
    pub images_path: Option<String>,
    /// Audio folder hint.
    pub audio_path: Option<String>,
}

/// An event definition.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct Event {
    /// Name.
    pub name: crate::Name,
    /// Int value (zigzag varint).
    pub int_value: i32,
    /// Float value.
    pub float_value: f32,
    /// String value.
    pub string_value: Option<String>,
    /// Audio path.
    pub audio_path: Option<String>,
    /// Volume and balance; present iff the audio path is non-empty.
    pub volume_balance: Option<[f32; 2]>,
}

impl Event {
    /// Whether keys of this event carry volume and balance.
    pub fn has_audio(&self) -> bool {
        self.audio_path.as_deref().is_some_and(|p| !p.is_empty())
    }
}
