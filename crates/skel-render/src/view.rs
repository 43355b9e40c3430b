//! The world → pixel transform (defined by `spine-render-traits`, shared by every backend)
//! and background colours.

pub use spine_render_traits::ViewTransform;

/// Parses a background color written `RRGGBBAA` or `RRGGBB` (hex, optional leading `#`;
/// `RRGGBB` means opaque), as `skel render --background` takes it.
pub fn parse_rgba_hex(s: &str) -> Option<[u8; 4]> {
    let s = s.strip_prefix('#').unwrap_or(s);
    if !(s.len() == 6 || s.len() == 8) || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let byte = |i: usize| s.get(i..i + 2).and_then(|h| u8::from_str_radix(h, 16).ok());
    Some([byte(0)?, byte(2)?, byte(4)?, if s.len() == 8 { byte(6)? } else { 255 }])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_colors() {
        assert_eq!(parse_rgba_hex("ff800040"), Some([255, 128, 0, 64]));
        assert_eq!(parse_rgba_hex("#102030"), Some([16, 32, 48, 255]));
        assert_eq!(parse_rgba_hex("12345"), None);
        assert_eq!(parse_rgba_hex("gg000000"), None);
        assert_eq!(parse_rgba_hex("ééé"), None);
    }

    #[test]
    fn fit_centers_and_flips_y() {
        let v = ViewTransform::fit([-10.0, 0.0, 10.0, 40.0], 100, 100, 10.0);
        assert_eq!(v.scale, 2.0);
        // Top of the bounds maps to the top margin, bottom to the bottom margin.
        assert_eq!(v.apply(0.0, 40.0), (50.0, 10.0));
        assert_eq!(v.apply(0.0, 0.0), (50.0, 90.0));
        assert_eq!(v.apply(-10.0, 20.0), (30.0, 50.0));
        let d = ViewTransform::fit([0.0, 0.0, 0.0, 0.0], 10, 10, 0.0);
        assert_eq!(d.scale, 1.0);
        assert_eq!(d.apply(0.0, 0.0), (5.0, 5.0));
    }
}
