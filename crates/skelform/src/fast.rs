//! A fast path for reading `armature.json` into the raw structs: a byte-level reader that
//! knows the schema, borrows key strings, and gives up (returns `None`) on anything
//! unusual (escapes in strings, `null`, deep nesting, a number where an integer is
//! expected with a fraction, malformed input). The caller then falls back to serde_json,
//! which yields the same structs or a precise error with its JSON path.

use crate::model::{Element, HandlePreset, IkConstraint, IkMode};
use crate::raw::*;

struct P<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    depth: u32,
}

type R<T> = Option<T>;

/// Bytes that end the fast scan of a string: `"`, `\\` and control characters.
const STRING_STOP: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// Bytes [`P::number`] takes as part of a number.
const NUMBER_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = b'0';
    while i <= b'9' {
        t[i as usize] = true;
        i += 1;
    }
    t[b'-' as usize] = true;
    t[b'+' as usize] = true;
    t[b'.' as usize] = true;
    t[b'e' as usize] = true;
    t[b'E' as usize] = true;
    t
};

const POW10: [f64; 16] =
    [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

impl<'a> P<'a> {
    /// Skips whitespace; the compact exports have none, so one test usually decides.
    #[inline]
    fn ws(&mut self) {
        if self.b.get(self.i).is_none_or(|&c| c > b' ') {
            return;
        }
        self.ws_slow();
    }
    fn ws_slow(&mut self) {
        while let Some(c) = self.b.get(self.i) {
            if matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
                self.i += 1;
            } else {
                break;
            }
        }
    }
    #[inline]
    fn peek(&mut self) -> R<u8> {
        let c = *self.b.get(self.i)?;
        if c > b' ' {
            return Some(c);
        }
        self.ws_slow();
        self.b.get(self.i).copied()
    }
    #[inline]
    fn eat(&mut self, c: u8) -> R<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }
    /// The bytes of a string without escapes (the input is valid UTF-8 as a whole, and `"`
    /// and `\\` cannot occur inside a multi-byte sequence, so they are a whole string).
    #[inline]
    fn raw_str(&mut self) -> R<&'a [u8]> {
        self.eat(b'"')?;
        let start = self.i;
        let mut j = start;
        loop {
            let c = *self.b.get(j)?;
            if STRING_STOP[c as usize] {
                if c != b'"' {
                    return None;
                }
                break;
            }
            j += 1;
        }
        self.i = j + 1;
        self.b.get(start..j)
    }
    /// A string without escapes, borrowed.
    fn str(&mut self) -> R<&'a str> {
        let start = self.peek().map(|_| self.i + 1)?;
        let len = self.raw_str()?.len();
        self.s.get(start..start + len)
    }
    fn number(&mut self) -> R<&'a str> {
        self.ws();
        let start = self.i;
        let rest = self.b.get(start..)?;
        let len = rest
            .iter()
            .position(|c| !matches!(c, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
            .unwrap_or(rest.len());
        if len == 0 {
            return None;
        }
        self.i = start + len;
        self.s.get(start..start + len)
    }
    /// As serde_json's `f32`: parsed as f64, then narrowed. Plain decimals are parsed in
    /// the one scan ([`simple_decimal`]'s rules); anything else goes through [`P::f32_slow`].
    #[inline]
    fn f32(&mut self) -> R<f32> {
        self.ws();
        let start = self.i;
        match self.decimal() {
            Some(v) => Some(v as f32),
            None => {
                self.i = start;
                self.f32_slow()
            }
        }
    }
    /// `-?digits(.digits)?` with at most 15 significant digits and no superfluous leading
    /// zero, followed by a byte that cannot continue a number: its correctly rounded value
    /// (exactly what [`simple_decimal`] returns for that token). `None` (position
    /// unspecified) for anything else.
    #[inline]
    fn decimal(&mut self) -> R<f64> {
        let b = self.b;
        let mut j = self.i;
        let neg = b.get(j) == Some(&b'-');
        if neg {
            j += 1;
        }
        let first = j;
        let mut m: u64 = 0;
        while let Some(&c) = b.get(j).filter(|c| c.is_ascii_digit()) {
            m = m.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
            j += 1;
        }
        let int_digits = j - first;
        let mut frac_digits = 0;
        if b.get(j) == Some(&b'.') {
            j += 1;
            while let Some(&c) = b.get(j).filter(|c| c.is_ascii_digit()) {
                m = m.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
                j += 1;
                frac_digits += 1;
            }
            if frac_digits == 0 {
                return None;
            }
        }
        let leading_zero = int_digits > 1 && b.get(first) == Some(&b'0');
        if int_digits == 0
            || int_digits + frac_digits > 15
            || leading_zero
            || NUMBER_BYTE[usize::from(*b.get(j).unwrap_or(&b' '))]
        {
            return None;
        }
        self.i = j;
        let v = m as f64 / *POW10.get(frac_digits)?;
        Some(if neg { -v } else { v })
    }
    fn f32_slow(&mut self) -> R<f32> {
        let s = self.number()?;
        if let Some(v) = simple_decimal(s.as_bytes()) {
            return Some(v as f32);
        }
        if s.starts_with('+') || s.starts_with('.') {
            return None;
        }
        s.parse::<f64>().ok().map(|v| v as f32).filter(|v| v.is_finite())
    }
    #[inline]
    fn i64(&mut self) -> R<i64> {
        self.ws();
        let start = self.i;
        let b = self.b;
        let mut j = start;
        let neg = b.get(j) == Some(&b'-');
        if neg {
            j += 1;
        }
        let first = j;
        let mut m: i64 = 0;
        while let Some(&c) = b.get(j).filter(|c| c.is_ascii_digit()) {
            m = m.wrapping_mul(10).wrapping_add(i64::from(c - b'0'));
            j += 1;
        }
        let n = j - first;
        if n > 0 && n <= 18 && !NUMBER_BYTE[usize::from(*b.get(j).unwrap_or(&b' '))] {
            self.i = j;
            return Some(if neg { -m } else { m });
        }
        self.i = start;
        self.i64_slow()
    }
    fn i64_slow(&mut self) -> R<i64> {
        let s = self.number()?;
        if s.contains(['.', 'e', 'E', '+']) {
            return None;
        }
        s.parse().ok()
    }
    fn u32(&mut self) -> R<u32> {
        u32::try_from(self.i64()?).ok()
    }
    fn i32(&mut self) -> R<i32> {
        i32::try_from(self.i64()?).ok()
    }
    fn bool(&mut self) -> R<bool> {
        self.ws();
        let rest = self.b.get(self.i..)?;
        if rest.starts_with(b"true") {
            self.i += 4;
            Some(true)
        } else if rest.starts_with(b"false") {
            self.i += 5;
            Some(false)
        } else {
            None
        }
    }
    fn string(&mut self) -> R<String> {
        self.str().map(str::to_string)
    }
    fn enter(&mut self) -> R<()> {
        self.depth += 1;
        (self.depth < 64).then_some(())
    }
    fn object(&mut self, mut f: impl FnMut(&mut Self, &'a [u8]) -> R<()>) -> R<()> {
        self.eat(b'{')?;
        self.enter()?;
        if self.peek()? == b'}' {
            self.i += 1;
            self.depth -= 1;
            return Some(());
        }
        loop {
            let k = self.raw_str()?;
            self.eat(b':')?;
            f(self, k)?;
            match self.peek()? {
                b',' => self.i += 1,
                b'}' => {
                    self.i += 1;
                    self.depth -= 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }
    fn array<T>(&mut self, mut f: impl FnMut(&mut Self) -> R<T>) -> R<Vec<T>> {
        self.eat(b'[')?;
        self.enter()?;
        let mut out = Vec::new();
        if self.peek()? == b']' {
            self.i += 1;
            self.depth -= 1;
            return Some(out);
        }
        loop {
            out.push(f(self)?);
            match self.peek()? {
                b',' => self.i += 1,
                b']' => {
                    self.i += 1;
                    self.depth -= 1;
                    return Some(out);
                }
                _ => return None,
            }
        }
    }
    fn skip(&mut self) -> R<()> {
        match self.peek()? {
            b'"' => self.raw_str().map(drop),
            b'{' => self.object(|p, _| p.skip()),
            b'[' => self.array(|p| p.skip()).map(drop),
            b't' | b'f' => self.bool().map(drop),
            _ => self.number().map(drop),
        }
    }
    /// A `{"x":…,"y":…}` object; the exporters' compact form (no whitespace, plain
    /// decimals) is matched byte for byte, anything else goes through the general reader.
    #[inline]
    fn vec2(&mut self) -> R<RawVec2> {
        self.ws();
        let start = self.i;
        if let Some(v) = self.vec2_compact() {
            return Some(v);
        }
        self.i = start;
        self.vec2_general()
    }
    #[inline]
    fn vec2_compact(&mut self) -> R<RawVec2> {
        self.b.get(self.i..)?.starts_with(b"{\"x\":").then_some(())?;
        self.i += 5;
        let x = self.decimal()?;
        self.b.get(self.i..)?.starts_with(b",\"y\":").then_some(())?;
        self.i += 5;
        let y = self.decimal()?;
        (self.b.get(self.i) == Some(&b'}')).then_some(())?;
        self.i += 1;
        Some(RawVec2 { x: x as f32, y: y as f32 })
    }
    fn vec2_general(&mut self) -> R<RawVec2> {
        let mut v = RawVec2::default();
        self.object(|p, k| {
            match k {
                b"x" => v.x = p.f32()?,
                b"y" => v.y = p.f32()?,
                _ => p.skip()?,
            }
            Some(())
        })?;
        Some(v)
    }
    fn color(&mut self) -> R<RawColor> {
        let mut c = RawColor::default();
        self.object(|p, k| {
            match k {
                b"r" => c.r = p.f32()?,
                b"g" => c.g = p.f32()?,
                b"b" => c.b = p.f32()?,
                b"a" => c.a = p.f32()?,
                _ => p.skip()?,
            }
            Some(())
        })?;
        Some(c)
    }
}

/// `-?digits(.digits)?` with at most 15 significant digits: the mantissa and the power of
/// ten are exact in f64, so one division gives the correctly rounded value (Clinger's
/// fast path), the same f64 a full parser returns. Anything else → `None`.
fn simple_decimal(b: &[u8]) -> Option<f64> {
    let (neg, digits) = match b.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, b),
    };
    let mut m: u64 = 0;
    let mut n = 0usize;
    let mut frac: Option<usize> = None;
    for (i, &c) in digits.iter().enumerate() {
        match c {
            b'0'..=b'9' => {
                m = m.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
                n += 1;
                if n > 15 {
                    return None;
                }
            }
            b'.' if frac.is_none() && i > 0 => frac = Some(i),
            _ => return None,
        }
    }
    let scale = match frac {
        Some(i) if i + 1 < digits.len() => digits.len() - i - 1,
        Some(_) => return None,
        None => 0,
    };
    if n == 0 || (digits.len() > 1 && digits.first() == Some(&b'0') && frac != Some(1)) {
        return None;
    }
    let v = m as f64 / *POW10.get(scale)?;
    Some(if neg { -v } else { v })
}

fn bone(p: &mut P<'_>) -> R<RawBone> {
    let mut b = RawBone::default();
    p.object(|p, k| {
        match k {
            b"id" => b.id = Some(p.i64()?),
            b"name" => b.name = p.string()?,
            b"parent_id" => b.parent_id = Some(p.i64()?),
            b"pos" => b.pos = p.vec2()?,
            b"rot" => b.rot = p.f32()?,
            b"scale" => b.scale = Some(p.vec2()?),
            b"hidden" => b.hidden = p.bool()?,
            b"init_pos" => b.init_pos = Some(p.vec2()?),
            b"init_rot" => b.init_rot = Some(p.f32()?),
            b"init_scale" => b.init_scale = Some(p.vec2()?),
            b"init_hidden" => b.init_hidden = Some(p.bool()?),
            b"ik_family_id" => b.ik_family_id = Some(p.i64()?),
            b"inverse_kinematics_id" => b.inverse_kinematics_id = Some(p.i64()?),
            b"physics_id" => b.physics_id = Some(p.i64()?),
            b"visuals_id" => b.visuals_id = Some(p.i64()?),
            _ => p.skip()?,
        }
        Some(())
    })?;
    Some(b)
}

fn visual(p: &mut P<'_>) -> R<RawVisual> {
    let mut v = RawVisual::default();
    p.object(|p, k| {
        match k {
            b"tex" => v.tex = p.string()?,
            b"zindex" => v.zindex = p.i32()?,
            b"tint" => v.tint = Some(p.color()?),
            b"pivot_pos" => v.pivot_pos = p.vec2()?,
            b"pivot_rot" => v.pivot_rot = p.f32()?,
            b"pivot_scale" => v.pivot_scale = Some(p.vec2()?),
            b"vertices" => {
                v.vertices = p.array(|p| {
                    let mut x = RawVertex::default();
                    p.object(|p, k| {
                        match k {
                            b"pos" => x.pos = p.vec2()?,
                            b"uv" => x.uv = p.vec2()?,
                            b"init_pos" => x.init_pos = Some(p.vec2()?),
                            _ => p.skip()?,
                        }
                        Some(())
                    })?;
                    Some(x)
                })?
            }
            b"indices" => v.indices = p.array(P::i64)?,
            b"binds" => {
                v.binds = p.array(|p| {
                    let mut b = RawBind::default();
                    p.object(|p, k| {
                        match k {
                            b"bone_id" => b.bone_id = Some(p.i64()?),
                            b"id" => b.id = Some(p.i64()?),
                            b"is_path" => b.is_path = p.bool()?,
                            b"verts" => {
                                b.verts = p.array(|p| {
                                    let mut bv = RawBindVert::default();
                                    p.object(|p, k| {
                                        match k {
                                            b"id" => bv.id = p.i64()?,
                                            b"weight" => bv.weight = p.f32()?,
                                            _ => p.skip()?,
                                        }
                                        Some(())
                                    })?;
                                    Some(bv)
                                })?
                            }
                            _ => p.skip()?,
                        }
                        Some(())
                    })?;
                    Some(b)
                })?
            }
            b"init_tex" => v.init_tex = Some(p.string()?),
            b"init_tint" => v.init_tint = Some(p.color()?),
            b"init_zindex" => v.init_zindex = Some(p.i32()?),
            _ => p.skip()?,
        }
        Some(())
    })?;
    Some(v)
}

fn mode(s: &str) -> ModeKey {
    ModeKey(if s == "FABRIK" { IkMode::Fabrik } else { IkMode::Arc })
}

fn ik(p: &mut P<'_>) -> R<RawIk> {
    let mut f = RawIk::default();
    p.object(|p, k| {
        match k {
            b"constraint" => f.constraint = Some(ConstraintKey(IkConstraint::from_name(p.str()?))),
            b"mode" => f.mode = Some(mode(p.str()?)),
            b"target_id" => f.target_id = Some(p.i64()?),
            b"bone_ids" => f.bone_ids = p.array(P::i64)?,
            b"mimic_target" => f.mimic_target = p.bool()?,
            b"init_constraint" => {
                f.init_constraint = Some(ConstraintKey(IkConstraint::from_name(p.str()?)))
            }
            b"init_mode" => f.init_mode = Some(mode(p.str()?)),
            b"init_mimic_target" => f.init_mimic_target = Some(p.bool()?),
            _ => p.skip()?,
        }
        Some(())
    })?;
    Some(f)
}

fn physics(p: &mut P<'_>) -> R<RawPhysics> {
    let mut f = RawPhysics::default();
    p.object(|p, k| {
        match k {
            b"global_pos" => f.global_pos = p.vec2()?,
            b"global_scale" => f.global_scale = p.vec2()?,
            b"global_rot" => f.global_rot = p.f32()?,
            b"pos_damping" => f.pos_damping = p.f32()?,
            b"scale_damping" => f.scale_damping = p.f32()?,
            b"rot_damping" => f.rot_damping = p.f32()?,
            b"pos_ratio" => f.pos_ratio = p.f32()?,
            b"scale_ratio" => f.scale_ratio = p.f32()?,
            b"global_orbit" => f.global_orbit = p.f32()?,
            b"global_orbit_diff" => f.global_orbit_diff = p.f32()?,
            b"global_orbit_vel" => f.global_orbit_vel = p.f32()?,
            b"sway" => f.sway = p.f32()?,
            b"rot_bounce" => f.rot_bounce = p.f32()?,
            _ => p.skip()?,
        }
        Some(())
    })?;
    Some(f)
}

fn keyframe(p: &mut P<'_>) -> R<RawKeyframe> {
    let mut kf = RawKeyframe::default();
    p.object(|p, k| {
        match k {
            b"frame" => kf.frame = p.u32()?,
            b"bone_id" => kf.bone_id = p.i64()?,
            b"element" => kf.element = ElementKey(Element::from_name(p.str()?)),
            b"value" => kf.value = p.f32()?,
            b"value_str" => kf.value_str = Some(p.string()?),
            b"next_kf" => kf.next_kf = Some(p.i64()?),
            b"start_handle" => kf.start_handle = p.vec2()?,
            b"end_handle" => kf.end_handle = p.vec2()?,
            b"handle_preset" => {
                kf.handle_preset = Some(PresetKey(HandlePreset::from_name(p.str()?)))
            }
            _ => p.skip()?,
        }
        Some(())
    })?;
    Some(kf)
}

fn animation(p: &mut P<'_>) -> R<RawAnimation> {
    let mut a = RawAnimation::default();
    p.object(|p, k| {
        match k {
            b"name" => a.name = p.string()?,
            b"fps" => a.fps = p.u32()?,
            b"keyframes" => a.keyframes = p.array(keyframe)?,
            _ => p.skip()?,
        }
        Some(())
    })?;
    Some(a)
}

fn style(p: &mut P<'_>) -> R<RawStyle> {
    let mut s = RawStyle::default();
    p.object(|p, k| {
        match k {
            b"name" => s.name = p.string()?,
            b"textures" => {
                s.textures = p.array(|p| {
                    let mut t = RawTexture::default();
                    p.object(|p, k| {
                        match k {
                            b"name" => t.name = p.string()?,
                            b"offset" => t.offset = p.vec2()?,
                            b"size" => t.size = p.vec2()?,
                            b"atlas_idx" => t.atlas_idx = p.u32()?,
                            _ => p.skip()?,
                        }
                        Some(())
                    })?;
                    Some(t)
                })?
            }
            _ => p.skip()?,
        }
        Some(())
    })?;
    Some(s)
}

/// The document as [`RawArmature`], or `None` to fall back to serde_json. Documents with
/// legacy markers (`ik_root_ids`, `texture_size`, `armature`) are left to the slow path.
pub(crate) fn parse(text: &str) -> Option<RawArmature> {
    let mut p = P { s: text, b: text.as_bytes(), i: 0, depth: 0 };
    let mut a = RawArmature::default();
    p.object(|p, k| {
        match k {
            b"version" => a.version = Some(p.string()?),
            b"baked_ik" => a.baked_ik = p.bool()?,
            b"img_format" => a.img_format = Some(p.string()?),
            b"clear_color" => a.clear_color = Some(p.color()?),
            b"bones" => a.bones = p.array(bone)?,
            b"animations" => a.animations = p.array(animation)?,
            b"atlases" => {
                a.atlases = p.array(|p| {
                    let mut at = RawAtlas::default();
                    p.object(|p, k| {
                        match k {
                            b"filename" => at.filename = p.string()?,
                            b"size" => at.size = p.vec2()?,
                            _ => p.skip()?,
                        }
                        Some(())
                    })?;
                    Some(at)
                })?
            }
            b"styles" => a.styles = p.array(style)?,
            b"visuals" => a.visuals = p.array(visual)?,
            b"inverse_kinematics" => a.inverse_kinematics = p.array(ik)?,
            b"physics" => a.physics = p.array(physics)?,
            b"ik_root_ids" | b"texture_size" | b"armature" => return None,
            _ => p.skip()?,
        }
        Some(())
    })?;
    // Only whitespace may follow.
    (p.peek().is_none()).then_some(a)
}

#[cfg(test)]
mod tests {
    use super::P;

    /// The one-scan number readers agree with the token-then-parse ones (value and end
    /// position) on plain and unusual tokens.
    #[test]
    fn fused_numbers_match_token_parsing() {
        let tokens = [
            "0",
            "-0",
            "0.5",
            "-0.0",
            "00.5",
            "05",
            "1.",
            ".5",
            "-.5",
            "1e5",
            "1E-3",
            "1.2.3",
            "123456789012345",
            "1234567890123456",
            "0.123456789012345",
            "-",
            "+1",
            "1-2",
            "3.4028236e38",
            "0.1",
            "-603.1413",
            "1016.6481",
            "999999999999999999",
            "9999999999999999999",
            "-12",
            "7",
            "2.5e",
            "1.5x",
            "12}",
            "-1,",
        ];
        for t in tokens {
            for tail in ["", ",", "}", " ]"] {
                let text = format!("{t}{tail}");
                let run = |slow: bool, int: bool| {
                    let mut p = P { s: &text, b: text.as_bytes(), i: 0, depth: 0 };
                    let v = match (slow, int) {
                        (false, false) => p.f32().map(|v| v.to_bits() as i64),
                        (true, false) => p.f32_slow().map(|v| v.to_bits() as i64),
                        (false, true) => p.i64(),
                        (true, true) => p.i64_slow(),
                    };
                    (v, v.map(|_| p.i))
                };
                assert_eq!(run(false, false), run(true, false), "f32 {text:?}");
                assert_eq!(run(false, true), run(true, true), "i64 {text:?}");
            }
        }
    }

    /// The fast path and serde_json build identical armatures for every current-format
    /// sample (and the fast path declines every legacy one).
    #[test]
    fn fast_path_equals_serde() {
        let Some(dir) = skel_testkit::fixtures_dir() else { return };
        let mut compared = 0;
        for f in skel_testkit::files_with_suffix(&dir.join("skelform"), ".skf") {
            let bytes = std::fs::read(&f).expect("read");
            let mut zip = zip::ZipArchive::new(std::io::Cursor::new(&bytes[..])).expect("zip");
            let mut text = String::new();
            std::io::Read::read_to_string(
                &mut zip.by_name("armature.json").expect("entry"),
                &mut text,
            )
            .expect("utf8");
            let text = text.trim_start_matches('\u{feff}');
            let legacy = f.to_string_lossy().contains("legacy");
            let fast = super::parse(text);
            if legacy {
                assert!(fast.is_none() || f.to_string_lossy().contains("v0.2"), "{f:?}");
                continue;
            }
            let fast = fast.unwrap_or_else(|| panic!("{f:?}: fast path declined"));
            let slow: crate::raw::RawArmature = serde_json::from_str(text).expect("serde");
            let a = crate::load::build_for_test(fast);
            let b = crate::load::build_for_test(slow);
            assert_eq!(format!("{a:?}"), format!("{b:?}"), "{f:?}");
            // The same document pretty-printed (whitespace everywhere, keys reordered).
            let v: serde_json::Value = serde_json::from_str(text).expect("value");
            let pretty = serde_json::to_string_pretty(&v).expect("pretty");
            let fast = super::parse(&pretty).unwrap_or_else(|| panic!("{f:?}: pretty declined"));
            let c = crate::load::build_for_test(fast);
            assert_eq!(format!("{c:?}"), format!("{b:?}"), "{f:?} pretty-printed");
            compared += 1;
        }
        assert_eq!(compared, 4);
    }
}
