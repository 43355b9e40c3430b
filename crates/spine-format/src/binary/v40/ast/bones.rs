//! Bones and slots: the setup pose outside constraints and skins.

use super::*;

/// How a bone inherits its parent's transform (`TransformMode` before 4.2, `Inherit` in 4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Inherit {
    /// `0`
    Normal,
    /// `1`
    OnlyTranslation,
    /// `2`
    NoRotationOrReflection,
    /// `3`
    NoScale,
    /// `4`
    NoScaleOrReflection,
}

impl Inherit {
    /// Decodes the wire value.
    pub fn from_wire(v: u32) -> Option<Self> {
        Some(match v {
            0 => Inherit::Normal,
            1 => Inherit::OnlyTranslation,
            2 => Inherit::NoRotationOrReflection,
            3 => Inherit::NoScale,
            4 => Inherit::NoScaleOrReflection,
            _ => return None,
        })
    }

    /// The wire value.
    pub fn to_wire(self) -> u8 {
        self as u8
    }
}

/// A bone.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Bone {
    /// Name.
    pub name: crate::Name,
    /// Parent bone index (`None` only for bone 0, which has no parent on the wire).
    pub parent: Option<u32>,
    /// Rotation in degrees.
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
    /// Length (scaled).
    pub length: f32,
    /// Inheritance (a varint before 4.2, a byte in 4.2).
    pub inherit: Inherit,
    /// Only active when a skin contains it.
    pub skin_required: bool,
    /// Nonessential fields, `Some` exactly when the file is nonessential.
    pub extras: Option<BoneExtras>,
}

/// Nonessential bone fields.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct BoneExtras {
    /// Editor color, RGBA.
    pub color: [u8; 4],
    /// Icon name (4.2 only; always `None` before).
    pub icon: Option<String>,
    /// Visible in the editor (4.2 only; ignored before).
    pub visible: bool,
}

/// Slot blend mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum BlendMode {
    /// `0`
    Normal,
    /// `1`
    Additive,
    /// `2`
    Multiply,
    /// `3`
    Screen,
}

impl BlendMode {
    /// Decodes the wire value.
    pub fn from_wire(v: u32) -> Option<Self> {
        Some(match v {
            0 => BlendMode::Normal,
            1 => BlendMode::Additive,
            2 => BlendMode::Multiply,
            3 => BlendMode::Screen,
            _ => return None,
        })
    }

    /// The wire value.
    pub fn to_wire(self) -> u32 {
        self as u32
    }
}

/// A slot.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Slot {
    /// Name.
    pub name: crate::Name,
    /// Bone index.
    pub bone: u32,
    /// Setup color, RGBA.
    pub color: [u8; 4],
    /// Dark color as the raw `int` bytes: `ff ff ff ff` (-1) means "no dark color",
    /// otherwise bytes 1..4 are R, G, B. See [`Slot::dark_rgb`].
    pub dark: [u8; 4],
    /// Setup attachment name.
    pub attachment: StrRef,
    /// Blend mode.
    pub blend: BlendMode,
    /// Visible in the editor (4.2 nonessential only; `None` otherwise).
    pub visible: Option<bool>,
}

impl Slot {
    /// The dark color's RGB bytes, or `None` when the slot has no dark color.
    pub fn dark_rgb(&self) -> Option<[u8; 3]> {
        (self.dark != [0xff; 4]).then_some([self.dark[1], self.dark[2], self.dark[3]])
    }
}
