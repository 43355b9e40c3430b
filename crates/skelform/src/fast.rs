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

impl<'a> P<'a> {
    #[inline]
    fn ws(&mut self) {
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
        self.ws();
        self.b.get(self.i).copied()
    }
    #[inline]
    fn eat(&mut self, c: u8) -> R<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }
    /// A string without escapes, borrowed (the input is valid UTF-8 as a whole, and `"`
    /// and `\` cannot occur inside a multi-byte sequence).
    fn str(&mut self) -> R<&'a str> {
        self.eat(b'"')?;
        let start = self.i;
        let rest = self.b.get(start..)?;
        let len = rest.iter().position(|&c| c == b'"' || c == b'\\' || c < 0x20)?;
        if rest.get(len) != Some(&b'"') {
            return None;
        }
        self.i = start + len + 1;
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
    /// As serde_json's `f32`: parsed as f64, then narrowed.
    fn f32(&mut self) -> R<f32> {
        let s = self.number()?;
        if let Some(v) = simple_decimal(s.as_bytes()) {
            return Some(v as f32);
        }
        if s.starts_with('+') || s.starts_with('.') {
            return None;
        }
        s.parse::<f64>().ok().map(|v| v as f32).filter(|v| v.is_finite())
    }
    fn i64(&mut self) -> R<i64> {
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
    fn object(&mut self, mut f: impl FnMut(&mut Self, &'a str) -> R<()>) -> R<()> {
        self.eat(b'{')?;
        self.enter()?;
        if self.peek()? == b'}' {
            self.i += 1;
            self.depth -= 1;
            return Some(());
        }
        loop {
            let k = self.str()?;
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
            b'"' => self.str().map(drop),
            b'{' => self.object(|p, _| p.skip()),
            b'[' => self.array(|p| p.skip()).map(drop),
            b't' | b'f' => self.bool().map(drop),
            _ => self.number().map(drop),
        }
    }
    fn vec2(&mut self) -> R<RawVec2> {
        let mut v = RawVec2::default();
        self.object(|p, k| {
            match k {
                "x" => v.x = p.f32()?,
                "y" => v.y = p.f32()?,
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
                "r" => c.r = p.f32()?,
                "g" => c.g = p.f32()?,
                "b" => c.b = p.f32()?,
                "a" => c.a = p.f32()?,
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
    const POW10: [f64; 16] =
        [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
    let mut m: u64 = 0;
    let mut n = 0usize;
    let mut frac: Option<usize> = None;
    for (i, &c) in digits.iter().enumerate() {
        match c {
            b'0'..=b'9' => {
                m = m * 10 + u64::from(c - b'0');
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
            "id" => b.id = Some(p.i64()?),
            "name" => b.name = p.string()?,
            "parent_id" => b.parent_id = Some(p.i64()?),
            "pos" => b.pos = p.vec2()?,
            "rot" => b.rot = p.f32()?,
            "scale" => b.scale = Some(p.vec2()?),
            "hidden" => b.hidden = p.bool()?,
            "init_pos" => b.init_pos = Some(p.vec2()?),
            "init_rot" => b.init_rot = Some(p.f32()?),
            "init_scale" => b.init_scale = Some(p.vec2()?),
            "init_hidden" => b.init_hidden = Some(p.bool()?),
            "ik_family_id" => b.ik_family_id = Some(p.i64()?),
            "inverse_kinematics_id" => b.inverse_kinematics_id = Some(p.i64()?),
            "physics_id" => b.physics_id = Some(p.i64()?),
            "visuals_id" => b.visuals_id = Some(p.i64()?),
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
            "tex" => v.tex = p.string()?,
            "zindex" => v.zindex = p.i32()?,
            "tint" => v.tint = Some(p.color()?),
            "pivot_pos" => v.pivot_pos = p.vec2()?,
            "pivot_rot" => v.pivot_rot = p.f32()?,
            "pivot_scale" => v.pivot_scale = Some(p.vec2()?),
            "vertices" => {
                v.vertices = p.array(|p| {
                    let mut x = RawVertex::default();
                    p.object(|p, k| {
                        match k {
                            "pos" => x.pos = p.vec2()?,
                            "uv" => x.uv = p.vec2()?,
                            "init_pos" => x.init_pos = Some(p.vec2()?),
                            _ => p.skip()?,
                        }
                        Some(())
                    })?;
                    Some(x)
                })?
            }
            "indices" => v.indices = p.array(P::i64)?,
            "binds" => {
                v.binds = p.array(|p| {
                    let mut b = RawBind::default();
                    p.object(|p, k| {
                        match k {
                            "bone_id" => b.bone_id = Some(p.i64()?),
                            "id" => b.id = Some(p.i64()?),
                            "is_path" => b.is_path = p.bool()?,
                            "verts" => {
                                b.verts = p.array(|p| {
                                    let mut bv = RawBindVert::default();
                                    p.object(|p, k| {
                                        match k {
                                            "id" => bv.id = p.i64()?,
                                            "weight" => bv.weight = p.f32()?,
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
            "init_tex" => v.init_tex = Some(p.string()?),
            "init_tint" => v.init_tint = Some(p.color()?),
            "init_zindex" => v.init_zindex = Some(p.i32()?),
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
            "constraint" => f.constraint = Some(ConstraintKey(IkConstraint::from_name(p.str()?))),
            "mode" => f.mode = Some(mode(p.str()?)),
            "target_id" => f.target_id = Some(p.i64()?),
            "bone_ids" => f.bone_ids = p.array(P::i64)?,
            "mimic_target" => f.mimic_target = p.bool()?,
            "init_constraint" => {
                f.init_constraint = Some(ConstraintKey(IkConstraint::from_name(p.str()?)))
            }
            "init_mode" => f.init_mode = Some(mode(p.str()?)),
            "init_mimic_target" => f.init_mimic_target = Some(p.bool()?),
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
            "global_pos" => f.global_pos = p.vec2()?,
            "global_scale" => f.global_scale = p.vec2()?,
            "global_rot" => f.global_rot = p.f32()?,
            "pos_damping" => f.pos_damping = p.f32()?,
            "scale_damping" => f.scale_damping = p.f32()?,
            "rot_damping" => f.rot_damping = p.f32()?,
            "pos_ratio" => f.pos_ratio = p.f32()?,
            "scale_ratio" => f.scale_ratio = p.f32()?,
            "global_orbit" => f.global_orbit = p.f32()?,
            "global_orbit_diff" => f.global_orbit_diff = p.f32()?,
            "global_orbit_vel" => f.global_orbit_vel = p.f32()?,
            "sway" => f.sway = p.f32()?,
            "rot_bounce" => f.rot_bounce = p.f32()?,
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
            "frame" => kf.frame = p.u32()?,
            "bone_id" => kf.bone_id = p.i64()?,
            "element" => kf.element = ElementKey(Element::from_name(p.str()?)),
            "value" => kf.value = p.f32()?,
            "value_str" => kf.value_str = Some(p.string()?),
            "next_kf" => kf.next_kf = Some(p.i64()?),
            "start_handle" => kf.start_handle = p.vec2()?,
            "end_handle" => kf.end_handle = p.vec2()?,
            "handle_preset" => {
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
            "name" => a.name = p.string()?,
            "fps" => a.fps = p.u32()?,
            "keyframes" => a.keyframes = p.array(keyframe)?,
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
            "name" => s.name = p.string()?,
            "textures" => {
                s.textures = p.array(|p| {
                    let mut t = RawTexture::default();
                    p.object(|p, k| {
                        match k {
                            "name" => t.name = p.string()?,
                            "offset" => t.offset = p.vec2()?,
                            "size" => t.size = p.vec2()?,
                            "atlas_idx" => t.atlas_idx = p.u32()?,
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
            "version" => a.version = Some(p.string()?),
            "baked_ik" => a.baked_ik = p.bool()?,
            "img_format" => a.img_format = Some(p.string()?),
            "clear_color" => a.clear_color = Some(p.color()?),
            "bones" => a.bones = p.array(bone)?,
            "animations" => a.animations = p.array(animation)?,
            "atlases" => {
                a.atlases = p.array(|p| {
                    let mut at = RawAtlas::default();
                    p.object(|p, k| {
                        match k {
                            "filename" => at.filename = p.string()?,
                            "size" => at.size = p.vec2()?,
                            _ => p.skip()?,
                        }
                        Some(())
                    })?;
                    Some(at)
                })?
            }
            "styles" => a.styles = p.array(style)?,
            "visuals" => a.visuals = p.array(visual)?,
            "inverse_kinematics" => a.inverse_kinematics = p.array(ik)?,
            "physics" => a.physics = p.array(physics)?,
            "ik_root_ids" | "texture_size" | "armature" => return None,
            _ => p.skip()?,
        }
        Some(())
    })?;
    // Only whitespace may follow.
    (p.peek().is_none()).then_some(a)
}

#[cfg(test)]
mod tests {
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
            compared += 1;
        }
        assert_eq!(compared, 4);
    }
}
