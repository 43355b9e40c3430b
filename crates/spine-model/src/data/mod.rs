//! The resolved setup data: bones, slots, constraints, skins, attachments, events.
//!
//! Everything is stored the way the 4.3 runtime models it; older exports are upgraded while
//! building (each rule is documented where it is applied, in the conversion modules).
//! Numbers are **scaled** (the load-time `scale` has been applied) and colors are `0..=1`
//! floats.

mod attachments;
mod behaviour;
mod bones;
mod constraints;
mod packed;
mod skeleton;
mod skins;

pub use attachments::*;
pub use behaviour::*;
pub use bones::*;
pub use constraints::*;
pub use packed::{MeshArrays, WeightedVertices};
pub use skeleton::*;
pub use skins::*;

/// An RGBA color, each channel `0..=1`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Color {
    /// Red.
    pub r: f32,
    /// Green.
    pub g: f32,
    /// Blue.
    pub b: f32,
    /// Alpha.
    pub a: f32,
}

impl Color {
    /// Opaque white.
    pub const WHITE: Color = Color { r: 1.0, g: 1.0, b: 1.0, a: 1.0 };

    /// From RGBA bytes (`byte / 255`).
    pub fn from_bytes(c: [u8; 4]) -> Color {
        let f = |b: u8| f32::from(b) / 255.0;
        Color { r: f(c[0]), g: f(c[1]), b: f(c[2]), a: f(c[3]) }
    }

    /// From RGB bytes with alpha 1.
    pub fn from_rgb(c: [u8; 3]) -> Color {
        Color::from_bytes([c[0], c[1], c[2], 255])
    }
}
