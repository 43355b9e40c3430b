//! Textures: PNG decoding and sampling.

use std::io::Cursor;
use std::path::Path;

use spine_render_traits::{TextureDesc, TextureFilter, TextureWrap};

use crate::error::RenderError;

/// Largest texture or image side accepted (pixels).
pub const MAX_SIDE: u32 = 16_384;

/// Most pixels a decoded texture may have: 8192 × 8192 (256 MiB as RGBA8). Checked on the
/// PNG header, before anything is allocated, so a small file that declares a huge image (a
/// decompression bomb) is refused at once.
pub const MAX_PIXELS: u64 = 8192 * 8192;

/// How much larger than its atlas's `size:` a page image may be on either side (atlases of
/// downscaled or `@2x` textures keep the declared size; UVs are normalized).
pub const MAX_PAGE_OVERSIZE: u32 = 2;

/// An RGBA8 image: `width * height * 4` bytes, row-major, top row first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RgbaImage {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The pixels.
    pub pixels: Vec<u8>,
}

impl RgbaImage {
    /// The RGBA bytes of pixel `(x, y)`, or `None` outside the image.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = 4 * (y as usize * self.width as usize + x as usize);
        let p = self.pixels.get(i..i + 4)?;
        Some([p[0], p[1], p[2], p[3]])
    }
}

/// Decodes a PNG (any color type and bit depth) into RGBA8.
pub fn decode_png(bytes: &[u8]) -> Result<RgbaImage, RenderError> {
    decode_png_page(bytes, None)
}

/// Decodes a PNG into RGBA8 after checking its header: each side at most [`MAX_SIDE`], at
/// most [`MAX_PIXELS`] pixels, and, for an atlas page whose atlas declares `size: w, h`
/// (`declared`), no side over `MAX_PAGE_OVERSIZE` times the declared one. Nothing is
/// allocated for the pixels before these checks pass.
pub fn decode_png_page(
    bytes: &[u8],
    declared: Option<(u32, u32)>,
) -> Result<RgbaImage, RenderError> {
    let mut dec = png::Decoder::new(Cursor::new(bytes));
    dec.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = dec.read_info()?;
    let (width, height) = {
        let info = reader.info();
        (info.width, info.height)
    };
    check_size(width, height)?;
    if u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(RenderError::BadSize {
            width,
            height,
            why: "over 8192 x 8192 pixels (MAX_PIXELS)",
        });
    }
    if let Some((dw, dh)) = declared.filter(|&(w, h)| w > 0 && h > 0) {
        if width > dw.saturating_mul(MAX_PAGE_OVERSIZE)
            || height > dh.saturating_mul(MAX_PAGE_OVERSIZE)
        {
            return Err(RenderError::PageSizeMismatch { width, height, declared: (dw, dh) });
        }
    }
    let size = reader.output_buffer_size().ok_or(RenderError::BadSize {
        width,
        height,
        why: "too large to decode",
    })?;
    let mut buf = vec![0; size];
    let out = reader.next_frame(&mut buf)?;
    buf.truncate(out.buffer_size());
    let n = width as usize * height as usize;
    let pixels = match out.color_type {
        png::ColorType::Rgba => buf,
        png::ColorType::Rgb => buf.chunks_exact(3).flat_map(|p| [p[0], p[1], p[2], 255]).collect(),
        png::ColorType::Grayscale => buf.iter().flat_map(|&g| [g, g, g, 255]).collect(),
        png::ColorType::GrayscaleAlpha => {
            buf.chunks_exact(2).flat_map(|p| [p[0], p[0], p[0], p[1]]).collect()
        }
        // EXPAND turns palettes into RGB(A); keep a defined answer anyway.
        png::ColorType::Indexed => buf.iter().flat_map(|&g| [g, g, g, 255]).collect(),
    };
    if pixels.len() != n * 4 {
        return Err(RenderError::BadTexture {
            name: "png".into(),
            width,
            height,
            expected: n * 4,
            got: pixels.len(),
        });
    }
    Ok(RgbaImage { width, height, pixels })
}

/// Reads and decodes a PNG file into RGBA8.
pub fn load_png(path: &Path) -> Result<RgbaImage, RenderError> {
    let bytes = std::fs::read(path).map_err(|e| RenderError::io(path, e))?;
    decode_png(&bytes)
}

pub(crate) fn check_size(width: u32, height: u32) -> Result<(), RenderError> {
    if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
        return Err(RenderError::BadSize { width, height, why: "each side must be 1..=16384" });
    }
    Ok(())
}

/// A texture's sizes as `f32`, converted once per texture rather than once per span
/// (exact: sides are at most [`MAX_SIDE`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct SideFloats {
    /// `(width, height)`.
    pub size: glam::Vec2,
    /// `(width − 1, height − 1)` twice: the last texel centers, for two points at once.
    pub last: glam::Vec4,
    /// `(1, stride, 1, stride)`: a texel's index is `x · 1 + y · stride`.
    pub index_step: glam::Vec4,
}

impl SideFloats {
    fn new(width: u32, height: u32) -> SideFloats {
        // Through `i32`: one instruction (`u32` to `f32` is several on x86-64's baseline).
        let side = |n: u32| n as i32 as f32;
        let (w, h) = (side(width.wrapping_sub(1)), side(height.wrapping_sub(1)));
        let stride = side(width.wrapping_add(1));
        SideFloats {
            size: glam::Vec2::new(side(width), side(height)),
            last: glam::Vec4::new(w, h, w, h),
            index_step: glam::Vec4::new(1.0, stride, 1.0, stride),
        }
    }
}

/// A texture the rasterizer samples from.
#[derive(Debug, Clone)]
pub(crate) struct Texture {
    pub width: u32,
    pub height: u32,
    /// `(width + 1) × (height + 1)` texels, row-major with a stride of `width + 1`: the
    /// image, its last column repeated once on the right and its last row once below, so
    /// that a bilinear footprint clamped to the edge is always two texels of two rows.
    pub pixels: Vec<[u8; 4]>,
    /// The sizes as floats, for the rasterizer's samplers.
    pub sides: SideFloats,
    pub premultiplied_alpha: bool,
    pub min_linear: bool,
    pub mag_linear: bool,
    pub wrap_u: TextureWrap,
    pub wrap_v: TextureWrap,
}

impl Texture {
    /// Copies a texture description. With `premultiply`, straight-alpha pixels are
    /// premultiplied on load and the texture is then treated as premultiplied.
    pub fn from_desc(desc: &TextureDesc<'_>, premultiply: bool) -> Result<Texture, RenderError> {
        check_size(desc.width, desc.height)?;
        let expected = desc.width as usize * desc.height as usize * 4;
        if desc.pixels.len() != expected {
            return Err(RenderError::BadTexture {
                name: desc.name.to_owned(),
                width: desc.width,
                height: desc.height,
                expected,
                got: desc.pixels.len(),
            });
        }
        let (w, h) = (desc.width as usize, desc.height as usize);
        let mut pixels: Vec<[u8; 4]> = Vec::with_capacity((w + 1) * (h + 1));
        for row in desc.pixels.chunks_exact(4 * w) {
            pixels.extend(row.chunks_exact(4).map(|p| [p[0], p[1], p[2], p[3]]));
            pixels.push(pixels.last().copied().unwrap_or_default());
        }
        let last_row = pixels.len().saturating_sub(w + 1);
        pixels.extend_from_within(last_row..);
        let mut pma = desc.premultiplied_alpha;
        if premultiply && !pma {
            for p in pixels.iter_mut() {
                let a = u32::from(p[3]);
                for c in &mut p[..3] {
                    *c = ((u32::from(*c) * a + 127) / 255) as u8;
                }
            }
            pma = true;
        }
        Ok(Texture {
            width: desc.width,
            height: desc.height,
            pixels,
            sides: SideFloats::new(desc.width, desc.height),
            premultiplied_alpha: pma,
            min_linear: linear(desc.min_filter),
            mag_linear: linear(desc.mag_filter),
            wrap_u: desc.wrap_u,
            wrap_v: desc.wrap_v,
        })
    }

    /// Texels from one row to the next in [`Texture::pixels`].
    #[inline(always)]
    pub fn stride(&self) -> usize {
        self.width as usize + 1
    }

    #[inline]
    fn texel(&self, x: usize, y: usize) -> [f32; 4] {
        match self.pixels.get(y * self.stride() + x) {
            Some(p) => [f32::from(p[0]), f32::from(p[1]), f32::from(p[2]), f32::from(p[3])],
            None => [0.0; 4],
        }
    }

    /// Samples at `(u, v)` (0..1, v down) like OpenGL: texel centers at `(i + 0.5) / size`.
    /// Returns channels in `[0, 1]`, in the texture's own alpha representation.
    #[inline]
    pub fn sample(&self, u: f32, v: f32, bilinear: bool) -> [f32; 4] {
        let (w, h) = (self.width as i64, self.height as i64);
        // Non-finite coordinates (from hostile or degenerate input) sample texel (0, 0).
        let u = if u.is_finite() { u } else { 0.0 };
        let v = if v.is_finite() { v } else { 0.0 };
        let c = if bilinear {
            let x = u * w as f32 - 0.5;
            let y = v * h as f32 - 0.5;
            let (xf, yf) = (fast_floor(x), fast_floor(y));
            let (fx, fy) = (x - xf, y - yf);
            // `as` saturates (NaN -> 0): no overflow, then wrapped into range.
            let (x0, y0) = (xf as i64, yf as i64);
            let x0w = wrap(x0, w, self.wrap_u);
            let x1w = wrap(x0.saturating_add(1), w, self.wrap_u);
            let y0w = wrap(y0, h, self.wrap_v);
            let y1w = wrap(y0.saturating_add(1), h, self.wrap_v);
            let a = self.texel(x0w, y0w);
            let b = self.texel(x1w, y0w);
            let c = self.texel(x0w, y1w);
            let d = self.texel(x1w, y1w);
            let mut out = [0.0; 4];
            for k in 0..4 {
                let top = a[k] + (b[k] - a[k]) * fx;
                let bot = c[k] + (d[k] - c[k]) * fx;
                out[k] = top + (bot - top) * fy;
            }
            out
        } else {
            let x = wrap(fast_floor(u * w as f32) as i64, w, self.wrap_u);
            let y = wrap(fast_floor(v * h as f32) as i64, h, self.wrap_v);
            self.texel(x, y)
        };
        [c[0] / 255.0, c[1] / 255.0, c[2] / 255.0, c[3] / 255.0]
    }
}

/// `floor` without the libm call (the baseline x86-64 target has no SSE4.1 `roundss`):
/// exact for every finite `f32`; values beyond ±2^23 are already integers.
#[inline(always)]
pub(crate) fn fast_floor(x: f32) -> f32 {
    if x.abs() < 8_388_608.0 {
        let t = x as i32 as f32;
        if t > x {
            t - 1.0
        } else {
            t
        }
    } else {
        x
    }
}

fn linear(f: TextureFilter) -> bool {
    f.is_linear()
}

/// Maps a texel coordinate into `0..size` following the wrap mode.
#[inline]
fn wrap(i: i64, size: i64, mode: TextureWrap) -> usize {
    let r = match mode {
        TextureWrap::ClampToEdge => i.clamp(0, size - 1),
        TextureWrap::Repeat => i.rem_euclid(size),
        TextureWrap::MirroredRepeat => {
            let m = i.rem_euclid(2 * size);
            if m < size {
                m
            } else {
                2 * size - 1 - m
            }
        }
    };
    r as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_floor_matches_floor() {
        for x in
            [-2.5f32, -1.0, -0.25, -0.0, 0.0, 0.25, 0.999_999_9, 1.0, 3.75, -8_388_607.5, 1e9, -1e9]
        {
            assert_eq!(fast_floor(x), x.floor(), "{x}");
        }
        assert!(fast_floor(f32::NAN).is_nan());
    }

    #[test]
    fn wrap_modes() {
        assert_eq!(wrap(-1, 4, TextureWrap::ClampToEdge), 0);
        assert_eq!(wrap(9, 4, TextureWrap::ClampToEdge), 3);
        assert_eq!(wrap(-1, 4, TextureWrap::Repeat), 3);
        assert_eq!(wrap(5, 4, TextureWrap::Repeat), 1);
        assert_eq!(wrap(4, 4, TextureWrap::MirroredRepeat), 3);
        assert_eq!(wrap(-1, 4, TextureWrap::MirroredRepeat), 0);
        assert_eq!(wrap(i64::MAX, 4, TextureWrap::MirroredRepeat), 0);
    }
}
