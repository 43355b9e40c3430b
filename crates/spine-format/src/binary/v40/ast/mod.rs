//! The raw AST of 4.0–4.2 skeletons: setup data (header, bones, slots, constraints, skins,
//! attachments, events). Animations are in [`super::animation`].
//!
//! One AST covers the three versions; [`Skeleton::generation`] says which layout the writer
//! produces. Fields that exist in only some versions are documented as such. Where 4.2 packs
//! booleans and "field present" bits into flag bytes, the raw flag byte is kept (so unknown
//! bits round-trip) next to the decoded values; the writer trusts the flag byte and writes an
//! optional field exactly when its bit is set.

use crate::binary::prim::StrRef;
use crate::SpineVersion;

use super::animation::Animation;

mod attachments;
mod bones;
mod constraints;
mod skins;

pub use attachments::*;
pub use bones::*;
pub use constraints::*;
pub use skins::*;

/// A parsed 4.0, 4.1 or 4.2 binary skeleton.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Skeleton {
    /// [`SpineVersion::V4_0`], [`SpineVersion::V4_1`] or [`SpineVersion::V4_2`]: the wire layout.
    pub generation: SpineVersion,
    /// Hash, version, bounds and the nonessential header fields.
    pub header: Header,
    /// The string table (`readStringRef` targets).
    pub strings: Vec<String>,
    /// Bones, parents first.
    pub bones: Vec<Bone>,
    /// Slots in setup draw order.
    pub slots: Vec<Slot>,
    /// IK constraints.
    pub ik_constraints: Vec<IkConstraint>,
    /// Transform constraints.
    pub transform_constraints: Vec<TransformConstraint>,
    /// Path constraints.
    pub path_constraints: Vec<PathConstraint>,
    /// Physics constraints (4.2 only; always empty before).
    pub physics_constraints: Vec<PhysicsConstraint>,
    /// The default skin's attachments; `None` when the file has no default skin
    /// (its slot count is 0 on the wire).
    pub default_skin: Option<SkinSlots>,
    /// The named skins, in file order (skin index `i` of the file is `i + 1` when a default
    /// skin exists, `i` otherwise).
    pub skins: Vec<Skin>,
    /// Event definitions.
    pub events: Vec<EventData>,
    /// Animations.
    pub animations: Vec<Animation>,
}

/// The file header.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Header {
    /// The two big-endian `int`s of the hash, in wire order (spine-cpp calls the first one
    /// "low"); see [`Header::hash_string`].
    pub hash: [i32; 2],
    /// Editor version string, e.g. `"4.2.22"`.
    pub version: String,
    /// Bounds origin x.
    pub x: f32,
    /// Bounds origin y.
    pub y: f32,
    /// Bounds width.
    pub width: f32,
    /// Bounds height.
    pub height: f32,
    /// Physics reference scale (4.2 only; `None` before).
    pub reference_scale: Option<f32>,
    /// The nonessential header fields; `Some` exactly when the file's nonessential flag is set
    /// (which also gates nonessential fields throughout the file).
    pub nonessential: Option<HeaderExtras>,
}

impl Header {
    /// The hash as spine-cpp shows it: the second word then the first, each as unpadded
    /// lowercase hex (`"%x%x"`).
    pub fn hash_string(&self) -> String {
        format!("{:x}{:x}", self.hash[1] as u32, self.hash[0] as u32)
    }

    /// The hash as the editor writes it in JSON exports (`skeleton.hash`): the 8 wire bytes
    /// in standard base64 without padding.
    pub fn hash_base64(&self) -> String {
        const ALPHABET: &[u8; 64] =
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut bytes = [0u8; 8];
        bytes[..4].copy_from_slice(&self.hash[0].to_be_bytes());
        bytes[4..].copy_from_slice(&self.hash[1].to_be_bytes());
        let mut out = String::with_capacity(11);
        for chunk in bytes.chunks(3) {
            let mut n = 0u32;
            for (i, &b) in chunk.iter().enumerate() {
                n |= u32::from(b) << (16 - 8 * i);
            }
            for i in 0..=chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            }
        }
        out
    }
}

/// Nonessential header fields.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct HeaderExtras {
    /// Dopesheet frames per second.
    pub fps: f32,
    /// Images folder (null on the wire = `None`).
    pub images_path: Option<String>,
    /// Audio folder (null on the wire = `None`).
    pub audio_path: Option<String>,
}

/// A name that is a string-table reference before 4.2 and an inline string in 4.2
/// (skin and event names).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub enum Name {
    /// A string-table reference (4.0, 4.1).
    Ref(StrRef),
    /// An inline string (4.2).
    Inline(String),
}

impl Name {
    /// The name's text, resolving references against `strings`.
    pub fn resolve<'a, S: AsRef<str>>(&'a self, strings: &'a [S]) -> Option<&'a str> {
        match self {
            Name::Ref(r) => r.resolve(strings),
            Name::Inline(s) => Some(s),
        }
    }
}

/// An event definition.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct EventData {
    /// Name.
    pub name: Name,
    /// Default int.
    pub int: i32,
    /// Default float.
    pub float: f32,
    /// Default string.
    pub string: Option<String>,
    /// Audio, when the audio path is not null.
    pub audio: Option<EventAudio>,
}

/// An event's audio settings.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct EventAudio {
    /// Audio file path.
    pub path: String,
    /// Volume.
    pub volume: f32,
    /// Balance.
    pub balance: f32,
}
