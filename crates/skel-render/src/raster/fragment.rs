//! The fragment stage: texture sampling, the two-colour tint and blending, on `glam::Vec4`
//! (four `f32` lanes: one SSE register on x86-64).
//!
//! Everything the inner loop decides is decided once per triangle: the blend mode and the
//! page's premultiplied-alpha flag are const parameters of [`fill_span`], the sampler a type
//! ([`BilinearClamp`], [`NearestClamp`], or [`AnySampler`] for the other wrap modes and for
//! triangles with non-finite texture coordinates), and whether the vertex colours vary over
//! the triangle (`SMOOTH`).

use glam::{Vec2, Vec4, Vec4Swizzles};

use super::triangle::RowWalk;
use crate::texture::{fast_floor, Texture};

/// Blend modes as const parameters.
pub(super) const NORMAL: u8 = 0;
pub(super) const ADDITIVE: u8 = 1;
pub(super) const MULTIPLY: u8 = 2;
pub(super) const SCREEN: u8 = 3;

/// Reads a texture at a point given in the sampler's own coordinates ([`Sampler::map`]),
/// channels in `[0, 255]` (the 1/255 is folded into the vertex colours, see [`tint`]). Points are `Vec4`s `(x, y, 0, 0)` so that both axes are handled
/// in one register.
pub(super) trait Sampler {
    /// Maps texture coordinates `(u, v)` (0..1, v down) into the sampler's coordinates
    /// (an affine map, so that it can be applied to a span's start and step once).
    fn map(tex: &Texture, uv: Vec2, is_step: bool) -> Vec4;
    /// The filtered texel at `p` (mapped coordinates).
    fn sample(tex: &Texture, p: Vec4) -> Vec4;
    /// The filtered texels at two points `(p.x, p.y)` and `(p.z, p.w)`: what
    /// [`Sampler::sample`] gives for each, with the work of both points done in one register
    /// where the sampler can.
    #[inline(always)]
    fn sample_pair(tex: &Texture, p: Vec4) -> (Vec4, Vec4) {
        (Self::sample(tex, p), Self::sample(tex, p.zwxy()))
    }
}

/// One texel as four floats in `0..=255`.
#[inline(always)]
fn texel(p: [u8; 4]) -> Vec4 {
    Vec4::new(f32::from(p[0]), f32::from(p[1]), f32::from(p[2]), f32::from(p[3]))
}

/// Two neighbouring texels as four floats each, [`texel`]'s values plus 2^23: both in one
/// register (one 8-byte load), widened bytewise to 32 bits with the top byte set to 2^23's
/// exponent (`0x4B00_00xx` is the float 2^23 + xx). Differences of two such texels, and a
/// texel less 2^23, are exactly those of [`texel`]'s floats, one conversion fewer.
#[cfg(target_endian = "little")]
#[inline(always)]
fn biased_texel_pair(a: [u8; 4], b: [u8; 4]) -> (Vec4, Vec4) {
    use wide::{u64x2, u8x16};
    const E: u8 = (TWO_23_BITS >> 24) as u8;
    // Interleaved with 16-bit texel channels `[xx, 0]` this gives `[xx, 0, 0, E]`.
    const HIGH: u8x16 = u8x16::new([0, E, 0, E, 0, E, 0, E, 0, E, 0, E, 0, E, 0, E]);
    let pair = u64::from(u32::from_le_bytes(a)) | u64::from(u32::from_le_bytes(b)) << 32;
    let bytes: u8x16 = bytemuck::cast(u64x2::new([pair, 0]));
    // Bytes to 16 bits (high byte 0), then to 32 bits, the new high half `E << 8`.
    let words = u8x16::unpack_low(bytes, u8x16::ZERO);
    let float = |x: u8x16| Vec4::from_array(bytemuck::cast::<u8x16, [f32; 4]>(x));
    (float(u8x16::unpack_low(words, HIGH)), float(u8x16::unpack_high(words, HIGH)))
}

/// [`texel`] of each plus 2^23 (the byte order above is little-endian's).
#[cfg(not(target_endian = "little"))]
#[inline(always)]
fn biased_texel_pair(a: [u8; 4], b: [u8; 4]) -> (Vec4, Vec4) {
    (texel(a) + TWO_23, texel(b) + TWO_23)
}

/// Texel space: `(u · width, v · height)`.
#[inline(always)]
fn texel_space(tex: &Texture, uv: Vec2) -> Vec4 {
    Vec4::new(uv.x * tex.sides.size.x, uv.y * tex.sides.size.y, 0.0, 0.0)
}

/// 1.5 · 2^23: adding it to a float in `[−2^22, 2^22]` rounds that to an integer (the
/// sum is in `[2^23, 2^24)`, where floats are the integers), held in the low mantissa bits
/// as an offset from the shifter's own bits.
const SHIFTER: f32 = 12_582_912.0;
/// The bits of [`SHIFTER`].
const SHIFTER_BITS: u32 = 0x4B40_0000;

/// Bilinear filtering, both axes clamped to the edge (the atlas default). Texel centers
/// at `i + ½`, as OpenGL samples. With `F32_INDEX` (textures of at most
/// [`F32_INDEX_TEXELS`] padded texels) a footprint's index is computed in `f32`, exact there.
pub(super) struct BilinearClamp<const F32_INDEX: bool>;

/// The most padded texels a texture may have for [`BilinearClamp`]'s `f32` index: every
/// index is below 2^23, where `f32` holds integers exactly (and converts them to `i32`
/// exactly).
pub(super) const F32_INDEX_TEXELS: usize = 1 << 23;

/// 2^23 and its bits: floats from 2^23 to 2^24 are the integers, the low mantissa bits
/// holding the offset from 2^23 (see [`biased_texel_pair`]).
const TWO_23: f32 = 8_388_608.0;
const TWO_23_BITS: u32 = 0x4B00_0000;

impl<const F32_INDEX: bool> Sampler for BilinearClamp<F32_INDEX> {
    /// Texel space with texel centers at whole numbers: `(u · width − ½, v · height − ½)`.
    #[inline(always)]
    fn map(tex: &Texture, uv: Vec2, is_step: bool) -> Vec4 {
        let p = texel_space(tex, uv);
        if is_step {
            p
        } else {
            p - Vec4::new(0.5, 0.5, 0.0, 0.0)
        }
    }

    #[inline(always)]
    fn sample(tex: &Texture, p: Vec4) -> Vec4 {
        Self::sample_pair(tex, p).0
    }

    #[inline(always)]
    fn sample_pair(tex: &Texture, p: Vec4) -> (Vec4, Vec4) {
        // Clamping the point between the centers of the edge texels gives what clamping
        // the texel indices gives: beyond the last center both texels of the footprint are
        // the edge texel (the weight is then 0, and the padding column or row repeats it).
        let c = p.max(Vec4::ZERO).min(tex.sides.last);
        // floor(c) by the shifter: c − ½ rounded to nearest (c is in 0..2^14, so c − ½ is
        // exact from ½ up and rounds to 0 below). A tie (c a whole number n) may round to
        // n − 1, with a weight of exactly 1 on texel n: the same texel as floor's.
        let t = (c - 0.5) + SHIFTER;
        let whole = t - SHIFTER;
        let f = c - whole;
        let i = if F32_INDEX {
            // (x + y · stride) of both points, exact: whole numbers below 2^23.
            let rows = whole * tex.sides.index_step;
            // Whole numbers: converted exactly (one instruction on SSE2), then summed in
            // pairs as integers (the same sums: all below 2^23).
            let r = wide::f32x4::new(rows.to_array()).fast_round_int().to_array();
            let i = wide::i32x4::new(r) + wide::i32x4::new([r[1], r[0], r[3], r[2]]);
            let i = i.to_array();
            [i[0] as u32, i[2] as u32]
        } else {
            let s = tex.width + 1;
            let xy = t.to_array().map(|v| v.to_bits().wrapping_sub(SHIFTER_BITS));
            [xy[1].wrapping_mul(s).wrapping_add(xy[0]), xy[3].wrapping_mul(s).wrapping_add(xy[2])]
        };
        (footprint(tex, i[0], f.xy()), footprint(tex, i[1], f.zw()))
    }
}

/// The bilinear blend of the 2×2 footprint whose top-left texel is at `i` in the padded
/// texture, with weights `f` (in `0..=1`) towards the right and lower texels.
#[inline(always)]
fn footprint(tex: &Texture, i: u32, f: Vec2) -> Vec4 {
    // The padded texture always has the right and lower neighbours: one slice holds the
    // whole footprint (the clamped point keeps `i + stride + 1` inside it); `i + stride + 2`
    // is computed in `usize` and cannot overflow (a texture has fewer than 2^29 texels).
    let stride = tex.stride();
    let i = i as usize;
    // The first footprint stands in for one outside (which the clamp rules out): a
    // select, not a branch around the filtering (`fill_rows` has checked that the
    // texture has a first footprint).
    let Some(q) = tex.pixels.get(i..i + stride + 2).or(tex.pixels.get(..stride + 2)) else {
        return Vec4::ZERO;
    };
    // Texels plus 2^23: `a − 2^23` and `b − a` are the texels' own values (exact).
    let (a, b) = biased_texel_pair(q[0], q[1]);
    let (c, d) = biased_texel_pair(q[stride], q[stride + 1]);
    let (fx, fy) = (Vec4::splat(f.x), Vec4::splat(f.y));
    let top = (a - TWO_23) + (b - a) * fx;
    let bot = (c - TWO_23) + (d - c) * fx;
    top + (bot - top) * fy
}

/// Nearest filtering, clamped to the edge.
pub(super) struct NearestClamp;

impl Sampler for NearestClamp {
    #[inline(always)]
    fn map(tex: &Texture, uv: Vec2, _: bool) -> Vec4 {
        texel_space(tex, uv)
    }

    #[inline(always)]
    fn sample(tex: &Texture, p: Vec4) -> Vec4 {
        let (w, h) = (tex.width as i32, tex.height as i32);
        let x = (fast_floor(p.x) as i32).clamp(0, w - 1) as usize;
        let y = (fast_floor(p.y) as i32).clamp(0, h - 1) as usize;
        tex.pixels.get(y * tex.stride() + x).map_or(Vec4::ZERO, |p| texel(*p))
    }
}

/// Any filter and wrap mode, and non-finite coordinates (which sample texel `(0, 0)`): the
/// texture's general sampler, on `(u, v)` itself.
pub(super) struct AnySampler<const BILINEAR: bool>;

impl<const BILINEAR: bool> Sampler for AnySampler<BILINEAR> {
    #[inline(always)]
    fn map(_: &Texture, uv: Vec2, _: bool) -> Vec4 {
        Vec4::new(uv.x, uv.y, 0.0, 0.0)
    }

    #[inline(always)]
    fn sample(tex: &Texture, p: Vec4) -> Vec4 {
        Vec4::from_array(tex.sample(p.x, p.y, BILINEAR)) * 255.0
    }
}

/// Spine's two-colour tint, `a = tex.a · light.a`, `rgb = ((tex.a − 1) · dark.a + 1 −
/// tex.rgb) · dark.rgb + tex.rgb · light.rgb`, where `dark.a` is 1 for premultiplied pages
/// and 0 otherwise. Here `tex` is in `0..=255` and `light`, `dark` are the vertex colours
/// divided by 255 ([`span_colour`]), `dark.w` 0 (so the alpha lane is `tex.a · light.a`).
#[inline(always)]
pub(super) fn tint<const PMA: bool>(tex: Vec4, light: Vec4, dark: Vec4) -> Vec4 {
    // (ta − 1) · dark.a + 1, times 255: ta for pma pages, 255 otherwise.
    let k = if PMA { Vec4::splat(tex.w) } else { Vec4::splat(255.0) };
    (k - tex) * dark + tex * light
}

/// A vertex colour as [`tint`] takes it (divided by 255, which the samplers leave out).
#[inline(always)]
pub(super) fn span_colour(c: Vec4) -> Vec4 {
    c * (1.0 / 255.0)
}

/// Blends the tinted source over the premultiplied destination (spine-libgdx's blend
/// functions; see [`super::SoftwareRenderer`]), clamped to `[0, 1]`.
#[inline(always)]
pub(super) fn blend<const MODE: u8, const PMA: bool>(src: Vec4, dst: Vec4) -> Vec4 {
    let sa = src.w;
    // The source factor of normal and additive: 1 for pma pages, `src.a` otherwise (alpha
    // itself is never multiplied by it).
    let scaled = || {
        if PMA {
            src
        } else {
            let mut s = src * sa;
            s.w = sa;
            s
        }
    };
    let keep = Vec4::ONE - Vec4::splat(sa);
    let out = match MODE {
        NORMAL => scaled() + dst * keep,
        ADDITIVE => scaled() + dst,
        MULTIPLY => {
            let mut o = src * dst + dst * keep;
            o.w = dst.w;
            o
        }
        _ => src + dst * (Vec4::ONE - src),
    };
    out.clamp(Vec4::ZERO, Vec4::ONE)
}

/// What one row of a triangle needs: the texture coordinates at its first pixel and their
/// change per pixel, and the same for the vertex colours (used when `SMOOTH`).
#[derive(Clone, Copy)]
pub(super) struct Span {
    pub uv: Vec2,
    pub duv: Vec2,
    pub light: Vec4,
    pub dlight: Vec4,
    pub dark: Vec4,
    pub ddark: Vec4,
}

/// Shades and blends every pixel of `dst` (one row's covered run), two pixels at a time.
/// `dp` is the sampler's step per pixel (`S::map` of the span's `duv`); the texture has a
/// first footprint (`fill_rows` checks).
#[inline(never)]
pub(super) fn fill_span<S: Sampler, const MODE: u8, const PMA: bool, const SMOOTH: bool>(
    tex: &Texture,
    dst: &mut [Vec4],
    s: &Span,
    dp: Vec4,
) {
    // Two pixels' points in one register: `(x, y)` of pixel k and of pixel k + 1.
    let p0 = S::map(tex, s.uv, false).xyxy();
    let dp = dp.xyxy();
    // Attributes at pixel k are `start + k · step`, k counted in f32 (exact), so that the
    // rounding of a long run does not accumulate.
    let mut k = Vec4::new(0.0, 0.0, 1.0, 1.0);
    let mut pairs = dst.chunks_exact_mut(2);
    for pair in &mut pairs {
        let (t0, t1) = S::sample_pair(tex, p0 + dp * k);
        if let [d0, d1] = pair {
            shade::<MODE, PMA, SMOOTH>(t0, s, k.x, d0);
            shade::<MODE, PMA, SMOOTH>(t1, s, k.z, d1);
        }
        k += 2.0;
    }
    if let [d] = pairs.into_remainder() {
        shade::<MODE, PMA, SMOOTH>(S::sample(tex, p0 + dp * k), s, k.x, d);
    }
}

/// Tints the texel `t` of pixel `k` of the span and blends it into `d`.
#[inline(always)]
fn shade<const MODE: u8, const PMA: bool, const SMOOTH: bool>(
    t: Vec4,
    s: &Span,
    k: f32,
    d: &mut Vec4,
) {
    let (light, dark) =
        if SMOOTH { (s.light + s.dlight * k, s.dark + s.ddark * k) } else { (s.light, s.dark) };
    *d = blend::<MODE, PMA>(tint::<PMA>(t, light, dark), *d);
}

/// Fills every row of a triangle ([`RowWalk`]) into the frame with [`fill_span`]: one
/// call per triangle, the row loop inside the specialised filler.
#[inline(never)]
fn fill_rows<S: Sampler, const MODE: u8, const PMA: bool, const SMOOTH: bool>(
    tex: &Texture,
    frame: &mut [Vec4],
    rows: &mut RowWalk,
) {
    // Every texture has a footprint (it has at least two rows once padded): the samplers
    // fall back on the first one.
    if tex.pixels.len() < tex.stride() + 2 {
        rows.for_each_span::<SMOOTH>(frame, |_, _| {});
        return;
    }
    // The step per pixel is the triangle's.
    let dp = S::map(tex, rows.duv(), true);
    rows.for_each_span::<SMOOTH>(frame, |dst, span| {
        fill_span::<S, MODE, PMA, SMOOTH>(tex, dst, span, dp)
    });
}

/// A triangle filler chosen per triangle.
pub(super) type FillFn = fn(&Texture, &mut [Vec4], &mut RowWalk);

/// The span filler for a blend mode, page kind, colour variation and sampler.
pub(super) fn filler<S: Sampler>(mode: u8, pma: bool, smooth: bool) -> FillFn {
    macro_rules! pick {
        ($($m:ident),*) => {
            match (mode, pma, smooth) {
                $(
                    ($m, true, true) => fill_rows::<S, $m, true, true>,
                    ($m, true, false) => fill_rows::<S, $m, true, false>,
                    ($m, false, true) => fill_rows::<S, $m, false, true>,
                    ($m, false, false) => fill_rows::<S, $m, false, false>,
                )*
                (_, true, true) => fill_rows::<S, SCREEN, true, true>,
                (_, true, false) => fill_rows::<S, SCREEN, true, false>,
                (_, false, true) => fill_rows::<S, SCREEN, false, true>,
                (_, false, false) => fill_rows::<S, SCREEN, false, false>,
            }
        };
    }
    pick!(NORMAL, ADDITIVE, MULTIPLY)
}

#[cfg(test)]
mod tests {
    use super::*;
    use spine_render_traits::{TextureDesc, TextureWrap};

    #[test]
    fn bilinear_clamp_matches_the_general_sampler() {
        let (w, h) = (5u32, 3u32);
        let px: Vec<u8> = (0..w * h * 4).map(|i| (i * 37 % 251) as u8).collect();
        let desc = TextureDesc {
            name: "t",
            width: w,
            height: h,
            pixels: &px,
            premultiplied_alpha: false,
            min_filter: Default::default(),
            mag_filter: Default::default(),
            wrap_u: TextureWrap::ClampToEdge,
            wrap_v: TextureWrap::ClampToEdge,
        };
        let tex = Texture::from_desc(&desc, false).unwrap();
        for i in -20..=120 {
            for j in -20..=120 {
                let uv = Vec2::new(i as f32 / 100.0, j as f32 / 100.0);
                let want = Vec4::from_array(tex.sample(uv.x, uv.y, true));
                let f32_index = BilinearClamp::<true>::sample(
                    &tex,
                    BilinearClamp::<true>::map(&tex, uv, false),
                );
                let u32_index = BilinearClamp::<false>::sample(
                    &tex,
                    BilinearClamp::<false>::map(&tex, uv, false),
                );
                assert_eq!(f32_index, u32_index, "{uv}");
                let have = f32_index / 255.0;
                assert!((want - have).abs().max_element() < 1e-4, "{uv}: {want} vs {have}");
            }
        }
    }

    #[test]
    fn a_pair_is_two_samples_and_both_indices_agree_up_to_the_f32_limit() {
        // Padded by a column and a row: 2896 × 2896 = 8,386,816 texels, just under 2^23.
        let (w, h) = (2895u32, 2895u32);
        let px: Vec<u8> = (0..w as usize * h as usize * 4).map(|i| (i * 37 % 251) as u8).collect();
        let desc = TextureDesc {
            name: "big",
            width: w,
            height: h,
            pixels: &px,
            premultiplied_alpha: false,
            min_filter: Default::default(),
            mag_filter: Default::default(),
            wrap_u: TextureWrap::ClampToEdge,
            wrap_v: TextureWrap::ClampToEdge,
        };
        let tex = Texture::from_desc(&desc, false).unwrap();
        assert!(((w + 1) * (h + 1)) as usize <= F32_INDEX_TEXELS);
        let points = [(0.9999, 0.9998), (0.5, 0.99991), (0.00013, 0.99977), (1.2, -0.3)];
        for a in points {
            for b in points {
                let pa = BilinearClamp::<true>::map(&tex, Vec2::new(a.0, a.1), false);
                let pb = BilinearClamp::<true>::map(&tex, Vec2::new(b.0, b.1), false);
                let p = Vec4::new(pa.x, pa.y, pb.x, pb.y);
                let pair = BilinearClamp::<true>::sample_pair(&tex, p);
                let one_by_one = (
                    BilinearClamp::<true>::sample(&tex, pa),
                    BilinearClamp::<true>::sample(&tex, pb),
                );
                assert_eq!(pair, one_by_one, "{a:?} {b:?}");
                assert_eq!(pair, BilinearClamp::<false>::sample_pair(&tex, p), "{a:?} {b:?}");
            }
        }
    }
}
