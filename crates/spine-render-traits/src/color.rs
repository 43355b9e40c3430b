//! Packed colors and blend modes.

use serde::Serialize;

/// A color packed as `a << 24 | r << 16 | g << 8 | b`, the layout spine-cpp's
/// `SkeletonRenderer` uses for its `colors` and `darkColors` arrays (and the shape of the
/// goldens' `render` objects).
///
/// Colors in render commands are **straight** (not premultiplied): a backend premultiplies
/// them itself when the page it draws from has premultiplied alpha.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
#[repr(transparent)]
pub struct Argb(pub u32);

impl Argb {
    /// Opaque white, the light color of an untinted attachment.
    pub const WHITE: Argb = Argb(0xffff_ffff);
    /// Opaque black, the dark color spine-cpp emits for a slot without a dark color.
    pub const BLACK: Argb = Argb(0xff00_0000);
    /// Fully transparent black.
    pub const TRANSPARENT: Argb = Argb(0);

    /// Packs 8-bit channels.
    pub const fn from_argb8(a: u8, r: u8, g: u8, b: u8) -> Argb {
        Argb(((a as u32) << 24) | ((r as u32) << 16) | ((g as u32) << 8) | (b as u32))
    }

    /// Packs 8-bit channels given in RGBA order.
    pub const fn from_rgba8(rgba: [u8; 4]) -> Argb {
        Argb::from_argb8(rgba[3], rgba[0], rgba[1], rgba[2])
    }

    /// Packs float channels in `[0, 1]` the way spine-cpp does: `(uint8_t)(v * 255)`,
    /// i.e. truncation, not rounding. Values are clamped to `[0, 1]` first; NaN becomes 0.
    pub fn from_rgba_f32(r: f32, g: f32, b: f32, a: f32) -> Argb {
        fn q(v: f32) -> u8 {
            // `as` saturates and maps NaN to 0; clamp keeps the product in range anyway.
            (v.clamp(0.0, 1.0) * 255.0) as u8
        }
        Argb::from_argb8(q(a), q(r), q(g), q(b))
    }

    /// The alpha channel.
    pub const fn a(self) -> u8 {
        (self.0 >> 24) as u8
    }

    /// The red channel.
    pub const fn r(self) -> u8 {
        (self.0 >> 16) as u8
    }

    /// The green channel.
    pub const fn g(self) -> u8 {
        (self.0 >> 8) as u8
    }

    /// The blue channel.
    pub const fn b(self) -> u8 {
        self.0 as u8
    }

    /// The channels in RGBA order.
    pub const fn to_rgba8(self) -> [u8; 4] {
        [self.r(), self.g(), self.b(), self.a()]
    }

    /// The channels in RGBA order as floats in `[0, 1]` (`channel / 255`).
    pub fn to_rgba_f32(self) -> [f32; 4] {
        let [r, g, b, a] = self.to_rgba8();
        [f32::from(r) / 255.0, f32::from(g) / 255.0, f32::from(b) / 255.0, f32::from(a) / 255.0]
    }
}

impl From<u32> for Argb {
    fn from(v: u32) -> Argb {
        Argb(v)
    }
}

impl From<Argb> for u32 {
    fn from(c: Argb) -> u32 {
        c.0
    }
}

/// How a command's pixels are combined with what is already drawn.
///
/// The discriminants follow Spine's order (`normal`, `additive`, `multiply`, `screen`), the
/// index stored in skeleton files. The exact blend factors are the backend's business; the
/// reference ones (spine-libgdx `BlendMode`) are documented in `skel-render`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BlendMode {
    /// Source over destination.
    #[default]
    Normal = 0,
    /// Source added to destination.
    Additive = 1,
    /// Source multiplied with destination.
    Multiply = 2,
    /// Inverse of the product of inverses.
    Screen = 3,
}

impl BlendMode {
    /// All blend modes in Spine's order.
    pub const ALL: [BlendMode; 4] =
        [BlendMode::Normal, BlendMode::Additive, BlendMode::Multiply, BlendMode::Screen];

    /// The mode for Spine's stored index (0–3), or `None` for any other value.
    pub const fn from_index(index: u32) -> Option<BlendMode> {
        match index {
            0 => Some(BlendMode::Normal),
            1 => Some(BlendMode::Additive),
            2 => Some(BlendMode::Multiply),
            3 => Some(BlendMode::Screen),
            _ => None,
        }
    }

    /// The name used in the `skel commands` JSON (`"normal"`, `"additive"`, …).
    pub const fn as_str(self) -> &'static str {
        match self {
            BlendMode::Normal => "normal",
            BlendMode::Additive => "additive",
            BlendMode::Multiply => "multiply",
            BlendMode::Screen => "screen",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_matches_spine_cpp_layout() {
        let c = Argb::from_argb8(0x11, 0x22, 0x33, 0x44);
        assert_eq!(c.0, 0x1122_3344);
        assert_eq!((c.a(), c.r(), c.g(), c.b()), (0x11, 0x22, 0x33, 0x44));
        assert_eq!(c.to_rgba8(), [0x22, 0x33, 0x44, 0x11]);
        assert_eq!(Argb::from_rgba8([0x22, 0x33, 0x44, 0x11]), c);
        // Golden value for opaque white and "no dark color".
        assert_eq!(Argb::WHITE.0, 4_294_967_295);
        assert_eq!(Argb::BLACK.0, 4_278_190_080);
    }

    #[test]
    fn float_packing_truncates_like_spine_cpp() {
        // 0.5 * 255 = 127.5 -> 127 (truncation), 0.999 * 255 = 254.7 -> 254.
        let c = Argb::from_rgba_f32(0.5, 0.999, 1.0, 1.0);
        assert_eq!(c.to_rgba8(), [127, 254, 255, 255]);
        let c = Argb::from_rgba_f32(f32::NAN, -1.0, 2.0, 0.0);
        assert_eq!(c.to_rgba8(), [0, 0, 255, 0]);
        assert_eq!(Argb::WHITE.to_rgba_f32(), [1.0; 4]);
    }

    #[test]
    fn blend_mode_names_and_indices() {
        for (i, m) in BlendMode::ALL.iter().enumerate() {
            assert_eq!(BlendMode::from_index(i as u32), Some(*m));
            assert_eq!(*m as usize, i);
        }
        assert_eq!(BlendMode::from_index(4), None);
        assert_eq!(BlendMode::Screen.as_str(), "screen");
    }
}
