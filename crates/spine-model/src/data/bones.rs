//! Bones and slots: the setup pose and draw order.

use super::Color;
use crate::ids::*;

/// How a bone inherits its parent's transform.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Inherit {
    /// Everything.
    #[default]
    Normal,
    /// Translation only.
    OnlyTranslation,
    /// No rotation or reflection.
    NoRotationOrReflection,
    /// No scale.
    NoScale,
    /// No scale or reflection.
    NoScaleOrReflection,
}

/// A bone's setup data.
#[derive(Debug, Clone, PartialEq)]
pub struct BoneData {
    /// Name (unique).
    pub name: crate::Name,
    /// Parent; always a lower id than this bone. `None` only for the root.
    pub parent: Option<BoneId>,
    /// Length.
    pub length: f32,
    /// X.
    pub x: f32,
    /// Y.
    pub y: f32,
    /// Rotation, degrees.
    pub rotation: f32,
    /// Scale x.
    pub scale_x: f32,
    /// Scale y.
    pub scale_y: f32,
    /// Shear x, degrees.
    pub shear_x: f32,
    /// Shear y, degrees.
    pub shear_y: f32,
    /// Inheritance.
    pub inherit: Inherit,
    /// Only active when the current skin lists it.
    pub skin_required: bool,
    /// Editor color (nonessential).
    pub color: Option<Color>,
}

/// Slot blend mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BlendMode {
    /// Normal.
    #[default]
    Normal,
    /// Additive.
    Additive,
    /// Multiply.
    Multiply,
    /// Screen.
    Screen,
}

/// A slot's setup data.
#[derive(Debug, Clone, PartialEq)]
pub struct SlotData {
    /// Name (unique).
    pub name: crate::Name,
    /// The bone the slot follows.
    pub bone: BoneId,
    /// Setup color.
    pub color: Color,
    /// Setup dark color (two-color tint; alpha unused), `None` = no tint black.
    pub dark_color: Option<Color>,
    /// Setup attachment skin placeholder name.
    pub attachment: Option<String>,
    /// Blend mode.
    pub blend: BlendMode,
}
