//! The software rasterizer.

use spine_render_traits::{
    Argb, BlendMode, CommandView, PageId, RenderBackend, TextureDesc, TextureFilter, TextureWrap,
};

use crate::error::RenderError;
use crate::texture::{check_size, RgbaImage, Texture};
use crate::view::ViewTransform;

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
    light: Vec<[f32; 4]>,
    /// Dark color rgb and the shader's `dark.a` (1 for pma pages, 0 otherwise).
    dark: Vec<[f32; 4]>,
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
    frame: Vec<[f32; 4]>,
    background: [f32; 4],
    view: ViewTransform,
    textures: Vec<Option<Texture>>,
    scratch: Scratch,
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
            frame: vec![[0.0; 4]; iw as usize * ih as usize],
            background: [0.0; 4],
            view: ViewTransform::default(),
            textures: Vec::new(),
            scratch: Scratch::default(),
        })
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
        self.background = [
            f32::from(rgba[0]) / 255.0 * a,
            f32::from(rgba[1]) / 255.0 * a,
            f32::from(rgba[2]) / 255.0 * a,
            a,
        ];
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
                s.light.push([l[0] * l[3], l[1] * l[3], l[2] * l[3], l[3]]);
                s.dark.push([d[0] * l[3], d[1] * l[3], d[2] * l[3], 1.0]);
            } else {
                s.light.push(l);
                s.dark.push([d[0], d[1], d[2], 0.0]);
            }
        }
        let target = Target { frame: &mut self.frame, width: self.iw, height: self.ih };
        let mut tri = TriRaster { target, tex, blend: cmd.blend_mode, pma };
        for t in cmd.indices.chunks_exact(3) {
            let v = [usize::from(t[0]), usize::from(t[1]), usize::from(t[2])];
            tri.triangle(&self.scratch, cmd.uvs, v);
        }
        Ok(())
    }

    /// Writes the frame as straight-alpha RGBA8 into `out` (resized to
    /// `width * height * 4`; no allocation once it has that capacity), box-filtering when
    /// supersampling.
    pub fn read_rgba8(&self, out: &mut Vec<u8>) {
        let (w, h) = (self.width as usize, self.height as usize);
        out.resize(w * h * 4, 0);
        let ss = self.options.supersample as usize;
        if ss == 1 {
            for (o, p) in out.chunks_exact_mut(4).zip(&self.frame) {
                o.copy_from_slice(&to_straight8(*p));
            }
            return;
        }
        let inv = 1.0 / (ss * ss) as f32;
        for y in 0..h {
            for x in 0..w {
                let mut acc = [0.0f32; 4];
                for sy in 0..ss {
                    let row = (y * ss + sy) * self.iw as usize;
                    for sx in 0..ss {
                        if let Some(p) = self.frame.get(row + x * ss + sx) {
                            for k in 0..4 {
                                acc[k] += p[k];
                            }
                        }
                    }
                }
                let px = to_straight8([acc[0] * inv, acc[1] * inv, acc[2] * inv, acc[3] * inv]);
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

/// Premultiplied float → straight RGBA8 (rounded).
fn to_straight8(p: [f32; 4]) -> [u8; 4] {
    let a = p[3].clamp(0.0, 1.0);
    let a8 = (a * 255.0).round() as u8;
    if a8 == 0 {
        return [0, 0, 0, 0];
    }
    let k = 255.0 / a;
    let c = |v: f32| (v * k).clamp(0.0, 255.0).round() as u8;
    [c(p[0]), c(p[1]), c(p[2]), a8]
}

/// Snaps a pixel position to fixed point; `None` when not finite or too far away.
fn fixed(x: f32, y: f32) -> Option<(i64, i64)> {
    if x.is_finite() && y.is_finite() && x.abs() < MAX_COORD && y.abs() < MAX_COORD {
        Some(((x * SUB as f32).round() as i64, (y * SUB as f32).round() as i64))
    } else {
        None
    }
}

struct Target<'a> {
    frame: &'a mut [[f32; 4]],
    width: u32,
    height: u32,
}

struct TriRaster<'a> {
    target: Target<'a>,
    tex: &'a Texture,
    blend: BlendMode,
    pma: bool,
}

/// One edge `a → b`: `E(p) = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)`,
/// positive inside (after orienting the triangle).
#[derive(Clone, Copy)]
struct Edge {
    /// E at the first sample of the current row.
    row: i64,
    /// Change per pixel step in x.
    step_x: i64,
    /// Change per pixel step in y.
    step_y: i64,
    /// 0 for top-left edges, -1 otherwise (top-left fill rule).
    bias: i64,
}

impl Edge {
    fn new(a: (i64, i64), b: (i64, i64), px: i64, py: i64) -> Edge {
        let dx = b.0 - a.0;
        let dy = b.1 - a.1;
        let top_left = (dy == 0 && dx > 0) || dy < 0;
        Edge {
            row: dx * (py - a.1) - dy * (px - a.0),
            step_x: -dy * SUB,
            step_y: dx * SUB,
            bias: if top_left { 0 } else { -1 },
        }
    }
}

impl TriRaster<'_> {
    fn triangle(&mut self, s: &Scratch, uvs: &[f32], v: [usize; 3]) {
        let (Some(&Some(p0)), Some(&Some(p1)), Some(&Some(p2))) =
            (s.pos.get(v[0]), s.pos.get(v[1]), s.pos.get(v[2]))
        else {
            return;
        };
        let (mut p1, mut p2, mut v) = (p1, p2, v);
        let mut area = (p1.0 - p0.0) * (p2.1 - p0.1) - (p1.1 - p0.1) * (p2.0 - p0.0);
        if area == 0 {
            return;
        }
        if area < 0 {
            std::mem::swap(&mut p1, &mut p2);
            v.swap(1, 2);
            area = -area;
        }
        let (w, h) = (i64::from(self.target.width), i64::from(self.target.height));
        let min_x = p0.0.min(p1.0).min(p2.0);
        let max_x = p0.0.max(p1.0).max(p2.0);
        let min_y = p0.1.min(p1.1).min(p2.1);
        let max_y = p0.1.max(p1.1).max(p2.1);
        let x0 = min_x.div_euclid(SUB).max(0);
        let x1 = max_x.div_euclid(SUB).min(w - 1);
        let y0 = min_y.div_euclid(SUB).max(0);
        let y1 = max_y.div_euclid(SUB).min(h - 1);
        if x0 > x1 || y0 > y1 {
            return;
        }
        let (sx, sy) = (x0 * SUB + HALF, y0 * SUB + HALF);
        // e0 is opposite p0 (edge p1→p2), and so on: e_i / area is vertex i's weight.
        let mut e =
            [Edge::new(p1, p2, sx, sy), Edge::new(p2, p0, sx, sy), Edge::new(p0, p1, sx, sy)];
        let uv = |i: usize| {
            [uvs.get(2 * i).copied().unwrap_or(0.0), uvs.get(2 * i + 1).copied().unwrap_or(0.0)]
        };
        let uvv = [uv(v[0]), uv(v[1]), uv(v[2])];
        let col = |c: &[[f32; 4]], i: usize| c.get(i).copied().unwrap_or([0.0; 4]);
        let light = [col(&s.light, v[0]), col(&s.light, v[1]), col(&s.light, v[2])];
        let dark = [col(&s.dark, v[0]), col(&s.dark, v[1]), col(&s.dark, v[2])];
        let flat = light[0] == light[1]
            && light[0] == light[2]
            && dark[0] == dark[1]
            && dark[0] == dark[2];
        // Texels per pixel (area ratio) decides minification vs magnification.
        let tex_area = ((uvv[1][0] - uvv[0][0]) * (uvv[2][1] - uvv[0][1])
            - (uvv[1][1] - uvv[0][1]) * (uvv[2][0] - uvv[0][0]))
            .abs()
            * self.tex.width as f32
            * self.tex.height as f32;
        let px_area = area as f32 / (SUB * SUB) as f32;
        let bilinear = if tex_area > px_area { self.tex.min_linear } else { self.tex.mag_linear };
        let inv_area = 1.0 / area as f64;
        let width = self.target.width as usize;
        for y in y0..=y1 {
            // The span of this row where every edge test can pass; the per-pixel test below
            // stays the authority, the span only skips pixels that cannot be inside.
            let mut lo = 0i64;
            let mut hi = x1 - x0;
            for edge in &e {
                let v = edge.row + edge.bias;
                match edge.step_x.cmp(&0) {
                    std::cmp::Ordering::Greater if v < 0 => {
                        // First k with v + k * step_x >= 0: ceil(-v / step_x).
                        let need = -v;
                        lo = lo.max(
                            need.div_euclid(edge.step_x)
                                + i64::from(need.rem_euclid(edge.step_x) != 0),
                        );
                    }
                    std::cmp::Ordering::Less => {
                        if v < 0 {
                            hi = -1;
                        } else {
                            hi = hi.min(v.div_euclid(-edge.step_x));
                        }
                    }
                    std::cmp::Ordering::Equal if v < 0 => hi = -1,
                    _ => {}
                }
            }
            let row_base = y as usize * width;
            let mut cur = [
                e[0].row + lo * e[0].step_x,
                e[1].row + lo * e[1].step_x,
                e[2].row + lo * e[2].step_x,
            ];
            for x in x0 + lo..=x0 + hi {
                if cur[0] + e[0].bias >= 0 && cur[1] + e[1].bias >= 0 && cur[2] + e[2].bias >= 0 {
                    let b0 = (cur[0] as f64 * inv_area) as f32;
                    let b1 = (cur[1] as f64 * inv_area) as f32;
                    let b2 = 1.0 - b0 - b1;
                    let u = b0 * uvv[0][0] + b1 * uvv[1][0] + b2 * uvv[2][0];
                    let vv = b0 * uvv[0][1] + b1 * uvv[1][1] + b2 * uvv[2][1];
                    let (l, d) = if flat {
                        (light[0], dark[0])
                    } else {
                        (lerp3(&light, b0, b1, b2), lerp3(&dark, b0, b1, b2))
                    };
                    let t = self.tex.sample(u, vv, bilinear);
                    if let Some(dst) = self.target.frame.get_mut(row_base + x as usize) {
                        *dst = shade_blend(t, l, d, *dst, self.blend, self.pma);
                    }
                }
                for k in 0..3 {
                    cur[k] += e[k].step_x;
                }
            }
            for edge in &mut e {
                edge.row += edge.step_y;
            }
        }
    }
}

#[inline]
fn lerp3(c: &[[f32; 4]; 3], b0: f32, b1: f32, b2: f32) -> [f32; 4] {
    let mut o = [0.0; 4];
    for k in 0..4 {
        o[k] = c[0][k] * b0 + c[1][k] * b1 + c[2][k] * b2;
    }
    o
}

/// The two-color tint fragment followed by the blend with the (premultiplied) destination.
#[inline]
fn shade_blend(
    tex: [f32; 4],
    light: [f32; 4],
    dark: [f32; 4],
    dst: [f32; 4],
    blend: BlendMode,
    pma: bool,
) -> [f32; 4] {
    let ta = tex[3];
    let sa = ta * light[3];
    let mut src = [0.0f32; 3];
    for k in 0..3 {
        src[k] = ((ta - 1.0) * dark[3] + 1.0 - tex[k]) * dark[k] + tex[k] * light[k];
    }
    let mut out = [0.0f32; 4];
    match blend {
        BlendMode::Normal => {
            let sf = if pma { 1.0 } else { sa };
            for k in 0..3 {
                out[k] = src[k] * sf + dst[k] * (1.0 - sa);
            }
            out[3] = sa + dst[3] * (1.0 - sa);
        }
        BlendMode::Additive => {
            let sf = if pma { 1.0 } else { sa };
            for k in 0..3 {
                out[k] = src[k] * sf + dst[k];
            }
            out[3] = sa + dst[3];
        }
        BlendMode::Multiply => {
            for k in 0..3 {
                out[k] = src[k] * dst[k] + dst[k] * (1.0 - sa);
            }
            out[3] = dst[3];
        }
        BlendMode::Screen => {
            for k in 0..3 {
                out[k] = src[k] + dst[k] * (1.0 - src[k]);
            }
            out[3] = sa + dst[3] * (1.0 - sa);
        }
    }
    for c in &mut out {
        *c = c.clamp(0.0, 1.0);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn straight_conversion() {
        assert_eq!(to_straight8([0.5, 0.25, 0.0, 0.5]), [255, 128, 0, 128]);
        assert_eq!(to_straight8([0.0, 0.0, 0.0, 0.0]), [0, 0, 0, 0]);
        assert_eq!(to_straight8([1.0, 1.0, 1.0, 1.0]), [255; 4]);
    }

    #[test]
    fn fixed_rejects_far_and_nan() {
        assert_eq!(fixed(1.5, -2.0), Some((384, -512)));
        assert_eq!(fixed(f32::NAN, 0.0), None);
        assert_eq!(fixed(1e9, 0.0), None);
    }
}
