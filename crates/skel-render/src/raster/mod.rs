//! The software rasterizer: [`SoftwareRenderer`] (vertex preparation, the frame, reading it
//! back), `triangle` (setup and traversal), `fragment` (sampling, tint, blending).

mod fragment;
mod triangle;

#[cfg(test)]
mod reference;

use glam::Vec4;
use spine_render_traits::{
    Argb, CommandView, PageId, RenderBackend, TextureDesc, TextureFilter, TextureWrap,
};

use crate::error::RenderError;
use crate::texture::{check_size, RgbaImage, Texture};
use crate::view::ViewTransform;
use triangle::TriRaster;

/// Sub-pixel precision of the rasterizer: vertex positions are snapped to 1/256 pixel.
const SUB_BITS: u32 = 8;
const SUB: i64 = 1 << SUB_BITS;
const HALF: i64 = SUB / 2;
/// Triangles with a vertex farther than this from the origin (in pixels) are skipped, so
/// that edge functions cannot overflow `i64`.
const MAX_COORD: f32 = (1u32 << 21) as f32;

/// Options of the [`SoftwareRenderer`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RenderOptions {
    /// Premultiply straight-alpha textures when they are created and draw them as
    /// premultiplied pages. Off by default: non-pma pages are then drawn exactly like
    /// Spine's GL backends do (which, for `multiply` and `screen`, is not equivalent to pma
    /// for semi-transparent texels, and filters straight colors bilinearly).
    pub premultiply_textures: bool,
    /// Supersampling factor per axis (1 = off, up to 4): the frame is rasterized at
    /// `factor ×` the size and box-filtered down when read. This is the only anti-aliasing.
    pub supersample: u32,
}

impl Default for RenderOptions {
    fn default() -> RenderOptions {
        RenderOptions { premultiply_textures: false, supersample: 1 }
    }
}

/// Per-vertex data prepared for one command, reused between commands.
#[derive(Debug, Default)]
struct Scratch {
    /// Fixed-point pixel positions, or `None` when not representable.
    pos: Vec<Option<(i64, i64)>>,
    /// Light color, premultiplied by its alpha for pma pages.
    light: Vec<Vec4>,
    /// Dark color rgb (premultiplied by the light's alpha for pma pages), `w` 0; the
    /// shader's `dark.a` (1 for pma pages, 0 otherwise) is the page's, not the vertex's.
    dark: Vec<Vec4>,
}

/// The reference software backend: rasterizes render commands into an RGBA image.
///
/// - Triangles are filled with a fixed-point (1/256 px) edge-function rasterizer sampling at
///   pixel centers with the **top-left fill rule**: a pixel on an edge shared by two
///   triangles is covered by exactly one of them; no anti-aliasing unless
///   [`RenderOptions::supersample`] is set.
/// - Textures are sampled like OpenGL (texel centers at `(i + 0.5) / size`), bilinearly
///   unless the page's filter is `Nearest` (minification uses the min filter, magnification
///   the mag filter, judged per triangle by its texel/pixel area ratio; no mipmaps).
/// - Fragment color is spine's two-color tint shader:
///   `a = tex.a * light.a`, `rgb = ((tex.a - 1) * dark.a + 1 - tex.rgb) * dark.rgb +
///   tex.rgb * light.rgb`, with vertex colors prepared as spine-ts does: for pma pages
///   `light.rgb *= light.a`, `dark.rgb *= light.a`, `dark.a = 1`; otherwise `dark.a = 0`.
/// - Blending (spine-libgdx `BlendMode`, color factors `src, dst`, the source factor of
///   normal/additive depending on the page's pma flag):
///   normal `(pma ? 1 : src.a, 1 - src.a)`, additive `(pma ? 1 : src.a, 1)`,
///   multiply `(dst.rgb, 1 - src.a)`, screen `(1, 1 - src.rgb)`. Alpha channel:
///   normal and screen `src.a + dst.a * (1 - src.a)`, additive `src.a + dst.a`,
///   multiply keeps `dst.a`. Results are clamped to `[0, 1]`.
/// - The frame buffer holds premultiplied `f32` RGBA (no 8-bit rounding between draws); it
///   is converted to straight-alpha RGBA8 when read.
#[derive(Debug)]
pub struct SoftwareRenderer {
    width: u32,
    height: u32,
    options: RenderOptions,
    /// Internal (supersampled) size.
    iw: u32,
    ih: u32,
    frame: Vec<Vec4>,
    background: Vec4,
    view: ViewTransform,
    textures: Vec<Option<Texture>>,
    scratch: Scratch,
    fragments: u64,
}

impl SoftwareRenderer {
    /// A renderer producing `width × height` images with default options, a transparent
    /// background and the identity view.
    pub fn new(width: u32, height: u32) -> Result<SoftwareRenderer, RenderError> {
        SoftwareRenderer::with_options(width, height, RenderOptions::default())
    }

    /// A renderer with the given options.
    pub fn with_options(
        width: u32,
        height: u32,
        options: RenderOptions,
    ) -> Result<SoftwareRenderer, RenderError> {
        check_size(width, height)?;
        let ss = options.supersample.clamp(1, 4);
        let options = RenderOptions { supersample: ss, ..options };
        let (iw, ih) = (width * ss, height * ss);
        Ok(SoftwareRenderer {
            width,
            height,
            options,
            iw,
            ih,
            frame: vec![Vec4::ZERO; iw as usize * ih as usize],
            background: Vec4::ZERO,
            view: ViewTransform::default(),
            textures: Vec::new(),
            scratch: Scratch::default(),
            fragments: 0,
        })
    }

    /// Fragments shaded since the renderer was made (pixels covered by triangles, counted
    /// once per triangle; supersampled pixels count each): the denominator of the
    /// per-fragment figures in `BENCHMARKS.md`.
    pub fn fragments(&self) -> u64 {
        self.fragments
    }

    /// Output width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Output height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The options in force (supersampling clamped to 1..=4).
    pub fn options(&self) -> RenderOptions {
        self.options
    }

    /// Sets the world → pixel transform (in output pixels).
    pub fn set_view(&mut self, view: ViewTransform) {
        self.view = view;
    }

    /// The world → pixel transform.
    pub fn view(&self) -> ViewTransform {
        self.view
    }

    /// Sets the background (straight-alpha RGBA8) used by [`clear`](Self::clear).
    pub fn set_background(&mut self, rgba: [u8; 4]) {
        let a = f32::from(rgba[3]) / 255.0;
        self.background = Vec4::new(
            f32::from(rgba[0]) / 255.0 * a,
            f32::from(rgba[1]) / 255.0 * a,
            f32::from(rgba[2]) / 255.0 * a,
            a,
        );
    }

    /// Fills the frame with the background color.
    pub fn clear(&mut self) {
        let bg = self.background;
        self.frame.fill(bg);
    }

    /// Creates the texture for `page` from decoded RGBA8 pixels with the given hints.
    pub fn set_texture(&mut self, page: PageId, desc: &TextureDesc<'_>) -> Result<(), RenderError> {
        let tex = Texture::from_desc(desc, self.options.premultiply_textures)?;
        let i = page.index();
        if self.textures.len() <= i {
            self.textures.resize_with(i + 1, || None);
        }
        if let Some(slot) = self.textures.get_mut(i) {
            *slot = Some(tex);
        }
        Ok(())
    }

    /// Creates the texture for `page` from PNG bytes (an atlas page image), with linear
    /// filtering and clamp-to-edge wrapping.
    pub fn load_png_texture(
        &mut self,
        page: PageId,
        name: &str,
        png_bytes: &[u8],
        premultiplied_alpha: bool,
    ) -> Result<(), RenderError> {
        self.load_png_page(page, name, png_bytes, premultiplied_alpha, None)
    }

    /// [`SoftwareRenderer::load_png_texture`] for an atlas page whose atlas declares its size
    /// (`declared`, the `size:` line): the PNG header is checked against it and against the
    /// pixel limits before decoding ([`crate::texture::decode_png_page`]).
    pub fn load_png_page(
        &mut self,
        page: PageId,
        name: &str,
        png_bytes: &[u8],
        premultiplied_alpha: bool,
        declared: Option<(u32, u32)>,
    ) -> Result<(), RenderError> {
        let img = crate::texture::decode_png_page(png_bytes, declared)?;
        self.set_texture(
            page,
            &TextureDesc {
                name,
                width: img.width,
                height: img.height,
                pixels: &img.pixels,
                premultiplied_alpha,
                min_filter: TextureFilter::Linear,
                mag_filter: TextureFilter::Linear,
                wrap_u: TextureWrap::ClampToEdge,
                wrap_v: TextureWrap::ClampToEdge,
            },
        )
    }

    /// Creates the texture for `page` from a PNG file, with the given atlas filter hints
    /// (min, mag) and clamp-to-edge wrapping.
    pub fn load_png_texture_file(
        &mut self,
        page: PageId,
        path: &std::path::Path,
        premultiplied_alpha: bool,
        filter: (TextureFilter, TextureFilter),
    ) -> Result<(), RenderError> {
        let img = crate::texture::load_png(path)?;
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        self.set_texture(
            page,
            &TextureDesc {
                name,
                width: img.width,
                height: img.height,
                pixels: &img.pixels,
                premultiplied_alpha,
                min_filter: filter.0,
                mag_filter: filter.1,
                wrap_u: TextureWrap::ClampToEdge,
                wrap_v: TextureWrap::ClampToEdge,
            },
        )
    }

    /// Draws one command on top of the frame.
    pub fn draw_command(&mut self, cmd: &CommandView<'_>) -> Result<(), RenderError> {
        let Some(Some(tex)) = self.textures.get(cmd.page.index()) else {
            return Err(RenderError::MissingTexture {
                page: cmd.page,
                name: cmd.page_name.to_owned(),
            });
        };
        let pma = tex.premultiplied_alpha;
        let ss = self.options.supersample as f32;
        let view = ViewTransform {
            scale: self.view.scale * ss,
            offset_x: self.view.offset_x * ss,
            offset_y: self.view.offset_y * ss,
        };
        // Prepare vertices.
        let n = cmd.num_vertices();
        let s = &mut self.scratch;
        s.pos.clear();
        s.light.clear();
        s.dark.clear();
        for i in 0..n {
            let (x, y) = match (cmd.positions.get(2 * i), cmd.positions.get(2 * i + 1)) {
                (Some(&x), Some(&y)) => view.apply(x, y),
                _ => (f32::NAN, f32::NAN),
            };
            s.pos.push(fixed(x, y));
            let l = cmd.colors.get(i).copied().unwrap_or(Argb::WHITE).to_rgba_f32();
            let d = cmd.dark_colors.get(i).copied().unwrap_or(Argb::BLACK).to_rgba_f32();
            if pma {
                s.light.push(Vec4::new(l[0] * l[3], l[1] * l[3], l[2] * l[3], l[3]));
                s.dark.push(Vec4::new(d[0] * l[3], d[1] * l[3], d[2] * l[3], 0.0));
            } else {
                s.light.push(Vec4::from_array(l));
                s.dark.push(Vec4::new(d[0], d[1], d[2], 0.0));
            }
        }
        let mut tri = TriRaster {
            frame: &mut self.frame,
            width: self.iw,
            height: self.ih,
            tex,
            blend: cmd.blend_mode,
            pma,
            fragments: 0,
        };
        for t in cmd.indices.chunks_exact(3) {
            let v = [usize::from(t[0]), usize::from(t[1]), usize::from(t[2])];
            tri.triangle(&self.scratch, cmd.uvs, v);
        }
        self.fragments += tri.fragments;
        Ok(())
    }

    /// Writes the frame as straight-alpha RGBA8 into `out` (resized to
    /// `width * height * 4`; no allocation once it has that capacity), box-filtering when
    /// supersampling.
    pub fn read_rgba8(&self, out: &mut Vec<u8>) {
        self.read_with(out, to_straight8);
    }

    /// [`read_rgba8`](Self::read_rgba8) without un-premultiplying: the frame's premultiplied
    /// colours, each channel clamped to `[0, 1]` and rounded to 8 bits (what an `Rgba8Unorm`
    /// GPU target holds; colour channels may exceed alpha after `screen` or `additive` draws
    /// from straight pages, which straight alpha cannot express).
    pub fn read_premultiplied_rgba8(&self, out: &mut Vec<u8>) {
        self.read_with(out, to_premultiplied8);
    }

    fn read_with(&self, out: &mut Vec<u8>, convert: fn(Vec4) -> [u8; 4]) {
        let (w, h) = (self.width as usize, self.height as usize);
        out.resize(w * h * 4, 0);
        let ss = self.options.supersample as usize;
        if ss == 1 {
            for (o, p) in out.chunks_exact_mut(4).zip(&self.frame) {
                o.copy_from_slice(&convert(*p));
            }
            return;
        }
        let inv = 1.0 / (ss * ss) as f32;
        for y in 0..h {
            for x in 0..w {
                let mut acc = Vec4::ZERO;
                for sy in 0..ss {
                    let row = (y * ss + sy) * self.iw as usize;
                    if let Some(run) = self.frame.get(row + x * ss..row + x * ss + ss) {
                        acc += run.iter().sum::<Vec4>();
                    }
                }
                let px = convert(acc * inv);
                let i = 4 * (y * w + x);
                if let Some(o) = out.get_mut(i..i + 4) {
                    o.copy_from_slice(&px);
                }
            }
        }
    }

    /// The frame as a new straight-alpha RGBA8 image.
    pub fn to_image(&self) -> RgbaImage {
        let mut pixels = Vec::new();
        self.read_rgba8(&mut pixels);
        RgbaImage { width: self.width, height: self.height, pixels }
    }
}

impl RenderBackend for SoftwareRenderer {
    type Error = RenderError;

    fn create_texture(&mut self, page: PageId, desc: &TextureDesc<'_>) -> Result<(), RenderError> {
        self.set_texture(page, desc)
    }

    /// Clears the frame to the background.
    fn begin_frame(&mut self) -> Result<(), RenderError> {
        self.clear();
        Ok(())
    }

    fn draw(&mut self, command: &CommandView<'_>) -> Result<(), RenderError> {
        self.draw_command(command)
    }
}

/// Premultiplied float → straight RGBA8 (rounded half away from zero).
#[inline]
fn to_straight8(p: Vec4) -> [u8; 4] {
    let a = p.w.clamp(0.0, 1.0);
    let a8 = round8(a * 255.0);
    if a8 == 0 {
        return [0, 0, 0, 0];
    }
    let c = (p * (255.0 / a)).clamp(Vec4::ZERO, Vec4::splat(255.0));
    [round8(c.x), round8(c.y), round8(c.z), a8]
}

/// Premultiplied float → premultiplied RGBA8 (clamped, rounded half away from zero).
#[inline]
fn to_premultiplied8(p: Vec4) -> [u8; 4] {
    let c = (p * 255.0).clamp(Vec4::ZERO, Vec4::splat(255.0));
    [round8(c.x), round8(c.y), round8(c.z), round8(c.w)]
}

/// `x.round() as u8` for `x` in `0..=255`, without the libm call (the baseline x86-64
/// target has no SSE4.1 rounding instruction).
#[inline(always)]
fn round8(x: f32) -> u8 {
    let t = x as u8;
    if x - f32::from(t) >= 0.5 {
        t.saturating_add(1)
    } else {
        t
    }
}

/// Snaps a pixel position to fixed point; `None` when not finite or too far away.
fn fixed(x: f32, y: f32) -> Option<(i64, i64)> {
    if x.is_finite() && y.is_finite() && x.abs() < MAX_COORD && y.abs() < MAX_COORD {
        Some(((x * SUB as f32).round() as i64, (y * SUB as f32).round() as i64))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn straight_conversion() {
        assert_eq!(to_straight8(Vec4::new(0.5, 0.25, 0.0, 0.5)), [255, 128, 0, 128]);
        assert_eq!(to_straight8(Vec4::ZERO), [0, 0, 0, 0]);
        assert_eq!(to_straight8(Vec4::ONE), [255; 4]);
    }

    #[test]
    fn round8_is_round_half_away_from_zero() {
        for k in 0..=255 * 64 {
            let x = k as f32 / 64.0;
            assert_eq!(round8(x), x.round() as u8, "{x}");
        }
        for x in [0.499_999_97f32, 0.5, 254.5, 254.499_98, 255.0] {
            assert_eq!(round8(x), x.round() as u8, "{x}");
        }
    }

    #[test]
    fn fixed_rejects_far_and_nan() {
        assert_eq!(fixed(1.5, -2.0), Some((384, -512)));
        assert_eq!(fixed(f32::NAN, 0.0), None);
        assert_eq!(fixed(1e9, 0.0), None);
    }
}
