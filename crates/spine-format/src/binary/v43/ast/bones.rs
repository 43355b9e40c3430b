//! Bones and slots: the setup pose outside constraints and skins.

use super::*;

/// How a bone inherits its parent's transform (byte enum).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub enum Inherit {
    /// 0
    #[default]
    Normal,
    /// 1
    OnlyTranslation,
    /// 2
    NoRotationOrReflection,
    /// 3
    NoScale,
    /// 4
    NoScaleOrReflection,
}

/// A bone.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct Bone {
    /// Name.
    pub name: crate::Name,
    /// Parent bone index (`None` only for bone 0, which has no parent field).
    pub parent: Option<u32>,
    /// Rotation (degrees).
    pub rotation: f32,
    /// X (scaled).
    pub x: f32,
    /// Y (scaled).
    pub y: f32,
    /// Scale x.
    pub scale_x: f32,
    /// Scale y.
    pub scale_y: f32,
    /// Shear x.
    pub shear_x: f32,
    /// Shear y.
    pub shear_y: f32,
    /// Inherit mode.
    pub inherit: Inherit,
    /// Length (scaled).
    pub length: f32,
    /// Only active when a skin lists it.
    pub skin_required: bool,
    /// Nonessential fields (present iff the header flag is set).
    pub nonessential: Option<BoneExtras>,
}

/// Nonessential bone fields.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct BoneExtras {
    /// Editor color.
    pub color: [u8; 4],
    /// Editor icon name.
    pub icon: Option<String>,
    /// Icon size.
    pub icon_size: f32,
    /// Icon rotation.
    pub icon_rotation: f32,
    /// Editor visibility.
    pub visible: bool,
}

/// Slot blend mode (varint enum).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub enum BlendMode {
    /// 0
    #[default]
    Normal,
    /// 1
    Additive,
    /// 2
    Multiply,
    /// 3
    Screen,
}

/// A slot.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct Slot {
    /// Name.
    pub name: crate::Name,
    /// Bone index.
    pub bone: u32,
    /// Setup color, RGBA bytes.
    pub color: [u8; 4],
    /// Dark color as the four wire bytes; all `0xFF` means "no dark color".
    pub dark_color: [u8; 4],
    /// Setup attachment name.
    pub attachment: StrRef,
    /// Blend mode.
    pub blend: BlendMode,
    /// Nonessential editor visibility (present iff the header flag is set).
    pub visible: Option<bool>,
}

impl Slot {
    /// The wire value meaning "no dark color".
    pub const NO_DARK_COLOR: [u8; 4] = [0xff; 4];

    /// The dark color's RGB bytes, or `None` for the `-1` sentinel (the high byte is
    /// ignored otherwise).
    pub fn dark_rgb(&self) -> Option<[u8; 3]> {
        let [_, r, g, b] = self.dark_color;
        (self.dark_color != Self::NO_DARK_COLOR).then_some([r, g, b])
    }
}
