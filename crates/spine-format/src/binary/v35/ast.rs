//! The raw AST of a 3.5–3.7 binary skeleton.

use crate::binary::v3_common as c;
use crate::SpineVersion;

pub use c::{BlendMode, EventDataAudio, PositionMode, RotateMode, SpacingMode, TransformMode};

/// Inline string (`None` for a null string), the 3.5–3.7 string encoding.
pub type Str = Option<String>;
/// An attachment of this generation.
pub type Attachment = c::Attachment<Str>;
/// A skin slot of this generation.
pub type SkinSlot = c::SkinSlot<Str>;
/// An animation of this generation.
pub type Animation = c::Animation<Str>;

/// A whole 3.5–3.7 skeleton, sections in file order.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Skeleton {
    /// The generation ([`SpineVersion::V3_5`], `V36` or `V37`): the writer writes the fields of
    /// this version. It agrees with the `version` string of parsed files.
    pub generation: SpineVersion,
    /// Header.
    pub header: Header,
    /// Bones.
    pub bones: Vec<Bone>,
    /// Slots.
    pub slots: Vec<Slot>,
    /// IK constraints.
    pub ik: Vec<IkConstraint>,
    /// Transform constraints.
    pub transform: Vec<TransformConstraint>,
    /// Path constraints.
    pub path: Vec<PathConstraint>,
    /// The default skin's slots (empty: no default skin; a skin index 0 then means the
    /// first of `skins`).
    pub default_skin: Vec<SkinSlot>,
    /// The other skins.
    pub skins: Vec<Skin>,
    /// Events.
    pub events: Vec<EventData>,
    /// Animations.
    pub animations: Vec<Animation>,
}

/// The header.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Header {
    /// Skeleton hash string (may be null or empty).
    pub hash: Str,
    /// Editor version string.
    pub version: String,
    /// Setup-pose bounds width.
    pub width: f32,
    /// Setup-pose bounds height.
    pub height: f32,
    /// Nonessential data (present when the nonessential flag is set).
    pub nonessential: Option<Nonessential>,
}

/// Nonessential header data.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Nonessential {
    /// Dopesheet frames per second.
    pub fps: f32,
    /// Images path.
    pub images: Str,
    /// Audio path (written from 3.7 on; always `None` before).
    pub audio: Str,
}

/// A bone.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Bone {
    /// Name.
    pub name: crate::Name,
    /// Parent bone index (absent for the first bone).
    pub parent: Option<u32>,
    /// Rotation.
    pub rotation: f32,
    /// X (scaled at load time).
    pub x: f32,
    /// Y (scaled at load time).
    pub y: f32,
    /// Scale x.
    pub scale_x: f32,
    /// Scale y.
    pub scale_y: f32,
    /// Shear x.
    pub shear_x: f32,
    /// Shear y.
    pub shear_y: f32,
    /// Length (scaled at load time).
    pub length: f32,
    /// Transform inheritance.
    pub transform_mode: TransformMode,
    /// Editor color (nonessential).
    pub color: Option<[u8; 4]>,
}

/// A slot.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Slot {
    /// Name.
    pub name: crate::Name,
    /// Bone index.
    pub bone: u32,
    /// Color RGBA.
    pub color: [u8; 4],
    /// Dark color as the 4 wire bytes of an `int` (`_ R G B`); `FF FF FF FF` (-1) means none.
    /// Written from 3.6 on; parsed 3.5 files hold `FF FF FF FF`.
    pub dark_color: [u8; 4],
    /// Setup attachment name.
    pub attachment: Str,
    /// Blend mode.
    pub blend: BlendMode,
}

impl Slot {
    /// The dark color's R G B, or `None` when the slot has none (two-color tint off).
    pub fn dark_rgb(&self) -> Option<[u8; 3]> {
        let [_, r, g, b] = self.dark_color;
        (self.dark_color != [0xff; 4]).then_some([r, g, b])
    }
}

/// An IK constraint.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct IkConstraint {
    /// Name.
    pub name: crate::Name,
    /// Update order.
    pub order: u32,
    /// Constrained bone indices.
    pub bones: Vec<u32>,
    /// Target bone index.
    pub target: u32,
    /// Mix.
    pub mix: f32,
    /// Bend direction (signed byte).
    pub bend_direction: i8,
    /// Compress (3.7+; `false` before).
    pub compress: bool,
    /// Stretch (3.7+; `false` before).
    pub stretch: bool,
    /// Uniform (3.7+; `false` before).
    pub uniform: bool,
}

/// A transform constraint.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TransformConstraint {
    /// Name.
    pub name: crate::Name,
    /// Update order.
    pub order: u32,
    /// Constrained bone indices.
    pub bones: Vec<u32>,
    /// Target bone index.
    pub target: u32,
    /// Local (3.6+; `false` before).
    pub local: bool,
    /// Relative (3.6+; `false` before).
    pub relative: bool,
    /// Offsets: rotation, x, y (scaled), scale x, scale y, shear y.
    pub offsets: [f32; 6],
    /// Mixes: rotate, translate, scale, shear.
    pub mixes: [f32; 4],
}

/// A path constraint.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PathConstraint {
    /// Name.
    pub name: crate::Name,
    /// Update order.
    pub order: u32,
    /// Constrained bone indices.
    pub bones: Vec<u32>,
    /// Target slot index.
    pub target: u32,
    /// Position mode.
    pub position_mode: PositionMode,
    /// Spacing mode.
    pub spacing_mode: SpacingMode,
    /// Rotate mode.
    pub rotate_mode: RotateMode,
    /// Offset rotation.
    pub offset_rotation: f32,
    /// Position.
    pub position: f32,
    /// Spacing.
    pub spacing: f32,
    /// Rotate mix.
    pub rotate_mix: f32,
    /// Translate mix.
    pub translate_mix: f32,
}

/// A named skin.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Skin {
    /// Name.
    pub name: Str,
    /// Attachments per slot.
    pub slots: Vec<SkinSlot>,
}

/// An event definition.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct EventData {
    /// Name.
    pub name: crate::Name,
    /// Default integer (zigzag varint).
    pub int: i32,
    /// Default float.
    pub float: f32,
    /// Default string.
    pub string: Str,
    /// Audio (3.7+): `None` for a null audio path (and always before 3.7).
    pub audio: Option<EventDataAudio>,
}
