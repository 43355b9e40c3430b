//! A fast path for reading `armature.json` straight into the model: a byte-level reader
//! that knows the schema, predicts each object's next key from the exporters' key order
//! (one fixed-size comparison instead of scanning and matching the key), and gives up
//! (returns `None`) on anything unusual (escapes in strings, `null`, deep nesting, a
//! number where an integer is expected with a fraction, an id out of range, a legacy
//! document, malformed input). The caller then falls back to serde_json and
//! `load::build`, which yield the same armature or a precise error with its JSON path.

use crate::armature::Armature;
use crate::load::{assemble, intern, version_pair, Parts};
use crate::model::*;

struct P<'a> {
    b: &'a [u8],
    i: usize,
    depth: u32,
    scratch: Scratch,
}

/// Buffers the arrays that occur many times in a document (keyframes per animation, mesh
/// data per visual, ...) are read into, so each result is allocated once at its final size
/// instead of growing.
#[derive(Default)]
struct Scratch {
    keyframes: Vec<Keyframe>,
    vertices: Vec<Vertex>,
    ids: Vec<u32>,
    binds: Vec<Bind>,
    verts: Vec<BindVert>,
    textures: Vec<Texture>,
}

impl<'a> P<'a> {
    fn new(b: &'a [u8]) -> Self {
        P { b, i: 0, depth: 0, scratch: Scratch::default() }
    }
}

type R<T> = Option<T>;

/// Bytes that end the fast scan of a string: `"`, `\\`, control characters, and the
/// non-ASCII bytes (the string is then validated as UTF-8).
const STRING_STOP: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    let mut i = 0x80;
    while i < 0x100 {
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
    /// The bytes of a string without escapes, valid UTF-8 (checked when it has non-ASCII
    /// bytes; outside strings the reader accepts ASCII only, so a document it reads is
    /// valid UTF-8 as a whole).
    #[inline]
    fn raw_str(&mut self) -> R<&'a [u8]> {
        self.eat(b'"')?;
        let start = self.i;
        let mut j = start;
        let mut ascii = true;
        loop {
            let c = *self.b.get(j)?;
            if STRING_STOP[c as usize] {
                if c == b'"' {
                    break;
                }
                if c < 0x80 {
                    return None;
                }
                ascii = false;
            }
            j += 1;
        }
        let s = self.b.get(start..j)?;
        if !ascii {
            std::str::from_utf8(s).ok()?;
        }
        self.i = j + 1;
        Some(s)
    }
    /// A string without escapes, borrowed.
    fn str(&mut self) -> R<&'a str> {
        std::str::from_utf8(self.raw_str()?).ok()
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
        std::str::from_utf8(self.b.get(start..start + len)?).ok()
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
        // The most frequent tokens, "0.0", "1.0", ..., "9.0", when nothing continues them.
        if let Some(&[d @ b'0'..=b'9', b'.', b'0', next]) = b.get(j..j + 4) {
            if !NUMBER_BYTE[usize::from(next)] {
                self.i = j + 3;
                return Some(f64::from(d - b'0'));
            }
        }
        let neg = b.get(j) == Some(&b'-');
        if neg {
            j += 1;
        }
        let first = j;
        let (mut m, end) = digits(b, j, 0);
        j = end;
        let int_digits = j - first;
        let mut frac_digits = 0;
        if b.get(j) == Some(&b'.') {
            let (m2, end) = frac_digits_word(b, j + 1, m);
            frac_digits = end - j - 1;
            if frac_digits == 0 {
                return None;
            }
            m = m2;
            j = end;
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
        // The most frequent tokens: one digit, and -1 (an absent id).
        match b.get(start..start + 3) {
            Some(&[d @ b'0'..=b'9', next, _]) if !NUMBER_BYTE[usize::from(next)] => {
                self.i = start + 1;
                return Some(i64::from(d - b'0'));
            }
            Some(&[b'-', b'1', next]) if !NUMBER_BYTE[usize::from(next)] => {
                self.i = start + 2;
                return Some(-1);
            }
            _ => {}
        }
        let mut j = start;
        let neg = b.get(j) == Some(&b'-');
        if neg {
            j += 1;
        }
        let first = j;
        let (m, end) = digits(b, j, 0);
        j = end;
        let n = j - first;
        if n > 0 && n <= 18 && !NUMBER_BYTE[usize::from(*b.get(j).unwrap_or(&b' '))] {
            self.i = j;
            // At most 18 digits: below 10¹⁸ < 2⁶³.
            let m = m as i64;
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
    fn array<T>(&mut self, f: impl FnMut(&mut Self) -> R<T>) -> R<Vec<T>> {
        let mut out = Vec::new();
        self.array_into(&mut out, f)?;
        Some(out)
    }
    /// An array read into the scratch buffer `pick` selects, returned at its exact size.
    fn array_via<T>(
        &mut self,
        pick: fn(&mut Scratch) -> &mut Vec<T>,
        f: impl FnMut(&mut Self) -> R<T>,
    ) -> R<Vec<T>> {
        let mut buf = std::mem::take(pick(&mut self.scratch));
        buf.clear();
        let read = self.array_into(&mut buf, f);
        let out = read.map(|()| {
            let mut out = Vec::with_capacity(buf.len());
            out.append(&mut buf);
            out
        });
        *pick(&mut self.scratch) = buf;
        out
    }
    fn array_into<T>(&mut self, out: &mut Vec<T>, mut f: impl FnMut(&mut Self) -> R<T>) -> R<()> {
        self.eat(b'[')?;
        self.enter()?;
        if self.peek()? == b']' {
            self.i += 1;
            self.depth -= 1;
            return Some(());
        }
        loop {
            out.push(f(self)?);
            match self.peek()? {
                b',' => self.i += 1,
                b']' => {
                    self.i += 1;
                    self.depth -= 1;
                    return Some(());
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
            _ => self.skip_number(),
        }
    }
    /// A number of the JSON grammar (`-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?`) not
    /// continued by a number byte, skipped without converting it.
    fn skip_number(&mut self) -> R<()> {
        let b = self.b;
        let mut j = self.i;
        if b.get(j) == Some(&b'-') {
            j += 1;
        }
        let (_, end) = digits(b, j, 0);
        if end == j || (end - j > 1 && b.get(j) == Some(&b'0')) {
            return None;
        }
        j = end;
        if b.get(j) == Some(&b'.') {
            let (_, end) = digits(b, j + 1, 0);
            if end == j + 1 {
                return None;
            }
            j = end;
        }
        if matches!(b.get(j), Some(b'e' | b'E')) {
            j += 1;
            if matches!(b.get(j), Some(b'+' | b'-')) {
                j += 1;
            }
            let (_, end) = digits(b, j, 0);
            if end == j {
                return None;
            }
            j = end;
        }
        if NUMBER_BYTE[usize::from(*b.get(j).unwrap_or(&b' '))] {
            return None;
        }
        self.i = j;
        Some(())
    }
    /// A `{"x":…,"y":…}` object; the exporters' compact form (no whitespace, plain
    /// decimals) is matched byte for byte, anything else goes through the general reader.
    #[inline]
    fn vec2(&mut self) -> R<Vec2> {
        self.ws();
        if let Some(v) = self.vec2_frequent() {
            return Some(v);
        }
        let start = self.i;
        if let Some(v) = self.vec2_compact() {
            return Some(v);
        }
        self.i = start;
        self.vec2_general()
    }
    /// The exporters' most frequent vectors as whole tokens: (0,0) and (1,1) (handles,
    /// scales) and the editor's default easing handles (1/3 and 2/3 as f32, shortest
    /// form), each compared in pieces of at most 16 bytes (inline loads, no `memcmp`).
    #[inline]
    fn vec2_frequent(&mut self) -> R<Vec2> {
        if self.lit2(b"{\"x\":0.0,", b"\"y\":0.0}") {
            return Some(Vec2::ZERO);
        }
        if self.lit2(b"{\"x\":1.0,", b"\"y\":1.0}") {
            return Some(Vec2::ONE);
        }
        if self.lit2(b"{\"x\":0.33333334,", b"\"y\":0.33333334}") {
            let v = 0.333_333_34_f64 as f32;
            return Some(Vec2::new(v, v));
        }
        if self.lit2(b"{\"x\":0.6666667,", b"\"y\":0.6666667}") {
            let v = 0.666_666_7_f64 as f32;
            return Some(Vec2::new(v, v));
        }
        None
    }
    /// Consumes `a` then `c` if the input continues with both.
    #[inline(always)]
    fn lit2(&mut self, a: &[u8], c: &[u8]) -> bool {
        let rest = self.b.get(self.i..).unwrap_or_default();
        let hit = rest.starts_with(a) && rest.get(a.len()..).is_some_and(|t| t.starts_with(c));
        if hit {
            self.i += a.len() + c.len();
        }
        hit
    }
    #[inline]
    fn vec2_compact(&mut self) -> R<Vec2> {
        self.b.get(self.i..)?.starts_with(b"{\"x\":").then_some(())?;
        self.i += 5;
        let x = self.decimal()?;
        self.b.get(self.i..)?.starts_with(b",\"y\":").then_some(())?;
        self.i += 5;
        let y = self.decimal()?;
        (self.b.get(self.i) == Some(&b'}')).then_some(())?;
        self.i += 1;
        Some(Vec2::new(x as f32, y as f32))
    }
    fn vec2_general(&mut self) -> R<Vec2> {
        let mut v = Vec2::ZERO;
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
    fn color(&mut self) -> R<Color> {
        let mut c = Color::TRANSPARENT;
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

/// Folds the run of ASCII digits starting at `j` into `m` (`m · 10^len + run`, wrapping
/// on overflow, which the callers reject by digit count) and returns it with the run's
/// end. (Integer parts and integers are mostly one to three digits: a word-at-a-time
/// conversion measured slower for them; fractions use [`frac_digits_word`].)
#[inline(always)]
fn digits(b: &[u8], mut j: usize, mut m: u64) -> (u64, usize) {
    while let Some(&c) = b.get(j).filter(|c| c.is_ascii_digit()) {
        m = m.wrapping_mul(10).wrapping_add(u64::from(c - b'0'));
        j += 1;
    }
    (m, j)
}

/// `10^n` for the digit counts [`frac_digits_word`] folds in.
const POW10_U64: [u64; 9] =
    [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000];

/// [`digits`] for fraction parts (often 5-9 digits in exported meshes): when eight bytes
/// are readable, one word finds the first non-digit and converts the digits before it
/// with three multiply-shift steps; a run of eight or more (or the end of the input)
/// continues byte by byte.
#[inline]
fn frac_digits_word(b: &[u8], j: usize, m: u64) -> (u64, usize) {
    let Some(word) = b.get(j..j + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()) else {
        return digits(b, j, m);
    };
    // Digits become bytes 0..=9; `a + 0x76` sets a byte's top bit exactly when it is
    // above 9, `| a` when it had it already. A carry out of a byte only happens above a
    // non-digit, so the lowest flagged byte is the first non-digit.
    let a = u64::from_le_bytes(word) ^ 0x3030_3030_3030_3030;
    let flags = (a.wrapping_add(0x7676_7676_7676_7676) | a) & 0x8080_8080_8080_8080;
    let n = (flags.trailing_zeros() / 8) as usize;
    if n == 0 || n == 8 {
        return digits(b, j, m);
    }
    // The n digits moved to the top bytes (first digit most significant), zeros below.
    let v = a << (64 - 8 * n);
    let v = ((v & 0x0F0F_0F0F_0F0F_0F0F).wrapping_mul(10 << 8 | 1)) >> 8;
    let v = ((v & 0x00FF_00FF_00FF_00FF).wrapping_mul(100 << 16 | 1)) >> 16;
    let v = ((v & 0x0000_FFFF_0000_FFFF).wrapping_mul(10_000 << 32 | 1)) >> 32;
    let scale = *POW10_U64.get(n).unwrap_or(&0);
    (m.wrapping_mul(scale).wrapping_add(v), j + n)
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

/// Reads one object into the caller's locals. Each entry is `index "key" => body`, the
/// indices counting up in the exporters' key order: after key `i` the reader first tries
/// `"key i+1":` as a fixed-size byte comparison, and only on a mismatch (another order,
/// an absent key, whitespace, an unknown key) scans the key and looks it up. Unknown keys
/// are skipped and leave the prediction where it was. `body` runs with the reader just
/// before the value and must consume it; `?` in it abandons the fast path.
macro_rules! fields {
    ($p:ident { $($idx:literal $key:literal => $body:expr,)* }) => {{
        $p.eat(b'{')?;
        $p.enter()?;
        if $p.peek()? == b'}' {
            $p.i += 1;
        } else {
            let mut next: usize = 0;
            loop {
                let field: usize = match next {
                    $( $idx if $p.lit(concat!("\"", $key, "\":").as_bytes()) => $idx, )*
                    _ => {
                        let k = $p.raw_str()?;
                        $p.eat(b':')?;
                        $( if k == $key.as_bytes() { $idx } else )* { usize::MAX }
                    }
                };
                match field {
                    $( $idx => { $body; } )*
                    _ => $p.skip()?,
                }
                if field != usize::MAX {
                    next = field + 1;
                }
                match $p.peek()? {
                    b',' => $p.i += 1,
                    b'}' => {
                        $p.i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        $p.depth -= 1;
    }};
}

impl P<'_> {
    /// Consumes `s` if the input continues with it (no whitespace skipped).
    #[inline(always)]
    fn lit(&mut self, s: &[u8]) -> bool {
        let hit = self.b.get(self.i..).is_some_and(|r| r.starts_with(s));
        if hit {
            self.i += s.len();
        }
        hit
    }
    /// An index that −1 marks absent: −1 → `None`, `0..2³²` → the index; anything else
    /// declines (the range against the array is checked once all arrays are read).
    #[inline]
    fn opt_id(&mut self) -> R<Option<u32>> {
        match self.i64()? {
            -1 => Some(None),
            v => u32::try_from(v).ok().map(Some),
        }
    }
    /// A required index (`0..2³²`; the range is checked later).
    #[inline]
    fn id(&mut self) -> R<u32> {
        u32::try_from(self.i64()?).ok()
    }
}

/// Whether `v` is a valid index into an array of `len`.
#[inline]
fn below(v: Option<u32>, len: usize) -> bool {
    v.is_none_or(|v| (v as usize) < len)
}

fn bone<'a>(p: &mut P<'a>, index: usize) -> R<Bone> {
    let mut name = String::new();
    let mut parent = None;
    let mut pos = Vec2::ZERO;
    let mut rot = 0.0;
    let mut scale = None;
    let mut hidden = false;
    let (mut init_pos, mut init_rot, mut init_scale, mut init_hidden) = (None, None, None, None);
    let (mut ik_family, mut ik_alias, mut physics, mut visual) = (None, None, None, None);
    fields!(p {
        0 "id" => (p.i64()? == index as i64).then_some(())?,
        1 "name" => name = p.string()?,
        2 "parent_id" => parent = p.opt_id()?,
        3 "pos" => pos = p.vec2()?,
        4 "scale" => scale = Some(p.vec2()?),
        5 "rot" => rot = p.f32()?,
        6 "init_pos" => init_pos = Some(p.vec2()?),
        7 "init_rot" => init_rot = Some(p.f32()?),
        8 "init_scale" => init_scale = Some(p.vec2()?),
        9 "ik_family_id" => ik_family = Some(p.opt_id()?),
        10 "physics_id" => physics = p.opt_id()?,
        11 "visuals_id" => visual = p.opt_id()?,
        12 "hidden" => hidden = p.bool()?,
        13 "init_hidden" => init_hidden = Some(p.bool()?),
        14 "inverse_kinematics_id" => ik_alias = Some(p.opt_id()?),
    });
    // A parent must come before its children.
    if parent.is_some_and(|q| q as usize >= index) {
        return None;
    }
    let scale = scale.unwrap_or(Vec2::ONE);
    Some(Bone {
        name,
        parent,
        pos,
        rot,
        scale,
        hidden,
        init_pos: init_pos.unwrap_or(pos),
        init_rot: init_rot.unwrap_or(rot),
        init_scale: init_scale.unwrap_or(scale),
        init_hidden: init_hidden.unwrap_or(hidden),
        ik_family: ik_family.or(ik_alias).flatten(),
        physics,
        visual,
    })
}

fn vertex(p: &mut P<'_>) -> R<Vertex> {
    let (mut pos, mut uv, mut init_pos) = (Vec2::ZERO, Vec2::ZERO, None);
    fields!(p {
        0 "id" => p.skip()?,
        1 "pos" => pos = p.vec2()?,
        2 "uv" => uv = p.vec2()?,
        3 "init_pos" => init_pos = Some(p.vec2()?),
    });
    Some(Vertex { init_pos: init_pos.unwrap_or(pos), uv })
}

fn bind_vert(p: &mut P<'_>) -> R<BindVert> {
    let (mut id, mut weight) = (0, 1.0);
    fields!(p {
        0 "id" => id = p.id()?,
        1 "weight" => weight = p.f32()?,
    });
    Some(BindVert { id, weight })
}

fn bind(p: &mut P<'_>) -> R<Bind> {
    let (mut bone, mut alias, mut is_path, mut verts) = (None, None, false, Vec::new());
    fields!(p {
        0 "bone_id" => bone = Some(p.opt_id()?),
        1 "is_path" => is_path = p.bool()?,
        2 "verts" => verts = p.array_via(|s| &mut s.verts, bind_vert)?,
        3 "id" => alias = Some(p.opt_id()?),
    });
    Some(Bind { bone: bone.or(alias).flatten(), is_path, verts })
}

fn visual<'a>(p: &mut P<'a>, tex_names: &mut Vec<String>) -> R<Visual> {
    let (mut tex, mut init_tex) = ("", None);
    let (mut zindex, mut init_zindex) = (0, None);
    let (mut tint, mut init_tint) = (None, None);
    let (mut pivot_pos, mut pivot_rot, mut pivot_scale) = (Vec2::ZERO, 0.0, None);
    let (mut vertices, mut indices, mut binds) = (Vec::new(), Vec::new(), Vec::new());
    fields!(p {
        0 "tex" => tex = p.str()?,
        1 "zindex" => zindex = p.i32()?,
        2 "pivot_pos" => pivot_pos = p.vec2()?,
        3 "pivot_rot" => pivot_rot = p.f32()?,
        4 "pivot_scale" => pivot_scale = Some(p.vec2()?),
        5 "vertices" => vertices = p.array_via(|s| &mut s.vertices, vertex)?,
        6 "indices" => indices = p.array_via(|s| &mut s.ids, P::id)?,
        7 "binds" => binds = p.array_via(|s| &mut s.binds, bind)?,
        8 "init_tex" => init_tex = Some(p.str()?),
        9 "init_zindex" => init_zindex = Some(p.i32()?),
        10 "tint" => tint = Some(p.color()?),
        11 "init_tint" => init_tint = Some(p.color()?),
    });
    let n = vertices.len();
    let in_mesh = |&i: &u32| (i as usize) < n;
    if !indices.iter().all(in_mesh) || !binds.iter().flat_map(|b| &b.verts).all(|v| in_mesh(&v.id))
    {
        return None;
    }
    // Interned in the order `load::build` uses: a visual's `tex`, then its `init_tex`.
    let tex_id = intern(tex_names, tex);
    let init_tex = match init_tex {
        Some(t) if t != tex => intern(tex_names, t),
        _ => tex_id,
    };
    let tex = tex_id;
    let tint = tint.unwrap_or(Color::WHITE);
    Some(Visual {
        tex,
        init_tex,
        zindex,
        init_zindex: init_zindex.unwrap_or(zindex),
        tint,
        init_tint: init_tint.unwrap_or(tint),
        pivot_pos,
        pivot_rot,
        pivot_scale: pivot_scale.unwrap_or(Vec2::ONE),
        vertices,
        indices,
        binds,
    })
}

fn mode(s: &str) -> IkMode {
    if s == "FABRIK" {
        IkMode::Fabrik
    } else {
        IkMode::Arc
    }
}

fn ik(p: &mut P<'_>) -> R<IkFamily> {
    let (mut constraint, mut mode_, mut target, mut bone_ids) = (None, None, None, Vec::new());
    let (mut mimic_target, mut init_constraint, mut init_mode, mut init_mimic) =
        (false, None, None, None);
    fields!(p {
        0 "id" => p.skip()?,
        1 "constraint" => constraint = Some(IkConstraint::from_name(p.str()?)),
        2 "mode" => mode_ = Some(mode(p.str()?)),
        3 "target_id" => target = p.opt_id()?,
        4 "bone_ids" => bone_ids = p.array_via(|s| &mut s.ids, P::id)?,
        5 "init_constraint" => init_constraint = Some(IkConstraint::from_name(p.str()?)),
        6 "init_mode" => init_mode = Some(mode(p.str()?)),
        7 "mimic_target" => mimic_target = p.bool()?,
        8 "init_mimic_target" => init_mimic = Some(p.bool()?),
    });
    let mut sorted = bone_ids.clone();
    sorted.sort_unstable();
    sorted.dedup();
    let constraint = constraint.unwrap_or(IkConstraint::None);
    let mode_ = mode_.unwrap_or(IkMode::Fabrik);
    Some(IkFamily {
        constraint,
        mode: mode_,
        target,
        bone_ids,
        mimic_target,
        init_constraint: init_constraint.unwrap_or(constraint),
        init_mode: init_mode.unwrap_or(mode_),
        init_mimic_target: init_mimic.unwrap_or(mimic_target),
        sorted,
    })
}

fn physics(p: &mut P<'_>) -> R<Physics> {
    let mut f = Physics::default();
    fields!(p {
        0 "global_pos" => f.global_pos = p.vec2()?,
        1 "pos_damping" => f.pos_damping = p.f32()?,
        2 "pos_ratio" => f.pos_ratio = p.f32()?,
        3 "global_rot" => f.global_rot = p.f32()?,
        4 "rot_damping" => f.rot_damping = p.f32()?,
        5 "global_orbit" => f.global_orbit = p.f32()?,
        6 "global_orbit_diff" => f.global_orbit_diff = p.f32()?,
        7 "global_orbit_vel" => f.global_orbit_vel = p.f32()?,
        8 "sway" => f.sway = p.f32()?,
        9 "rot_bounce" => f.rot_bounce = p.f32()?,
        10 "global_scale" => f.global_scale = p.vec2()?,
        11 "scale_damping" => f.scale_damping = p.f32()?,
        12 "scale_ratio" => f.scale_ratio = p.f32()?,
    });
    Some(f)
}

/// The element names of the exporters, tried as whole quoted tokens before the general
/// string path.
fn element(p: &mut P<'_>) -> R<Element> {
    if p.lit(b"\"PositionX\"") {
        return Some(Element::PositionX);
    }
    if p.lit(b"\"PositionY\"") {
        return Some(Element::PositionY);
    }
    if p.lit(b"\"Rotation\"") {
        return Some(Element::Rotation);
    }
    Some(Element::from_name(p.str()?))
}

/// A keyframe; `next` is checked against the animation's keyframe count by the caller.
fn keyframe(p: &mut P<'_>) -> R<Keyframe> {
    let (mut frame, mut bone, mut element_, mut value) = (0, 0, Element::Other, 0.0);
    let (mut value_str, mut next) = (None, None);
    let (mut start_handle, mut end_handle, mut handle_preset) = (Vec2::ZERO, Vec2::ZERO, None);
    fields!(p {
        0 "frame" => frame = p.u32()?,
        1 "bone_id" => bone = p.id()?,
        2 "element" => element_ = element(p)?,
        3 "value" => value = p.f32()?,
        4 "start_handle" => start_handle = p.vec2()?,
        5 "end_handle" => end_handle = p.vec2()?,
        6 "next_kf" => next = p.opt_id()?,
        7 "handle_preset" => {
            handle_preset = Some(if p.lit(b"\"Linear\"") {
                HandlePreset::Linear
            } else {
                HandlePreset::from_name(p.str()?)
            })
        },
        8 "value_str" => value_str = Some(p.string()?),
    });
    let constraint = match element_ {
        Element::IkConstraint => IkConstraint::from_name(value_str.as_deref().unwrap_or("")),
        _ => IkConstraint::None,
    };
    Some(Keyframe {
        frame,
        bone,
        element: element_,
        value,
        value_str,
        next,
        start_handle,
        end_handle,
        handle_preset,
        tex: 0,
        constraint,
        table: NO_TABLE,
    })
}

fn animation(p: &mut P<'_>) -> R<Animation> {
    let (mut name, mut fps, mut keyframes) = (String::new(), 0, Vec::new());
    fields!(p {
        0 "name" => name = p.string()?,
        1 "id" => p.skip()?,
        2 "fps" => fps = p.u32()?,
        3 "keyframes" => keyframes = p.array_via(|s| &mut s.keyframes, keyframe)?,
    });
    let nk = keyframes.len();
    if !keyframes.iter().all(|k| below(k.next, nk)) {
        return None;
    }
    Some(Animation { name, fps, keyframes, progress: Vec::new(), tabulated: false })
}

fn atlas(p: &mut P<'_>) -> R<Atlas> {
    let (mut filename, mut size) = (String::new(), Vec2::ZERO);
    fields!(p {
        0 "filename" => filename = p.string()?,
        1 "size" => size = p.vec2()?,
    });
    Some(Atlas { filename, size })
}

fn texture(p: &mut P<'_>) -> R<Texture> {
    let (mut name, mut offset, mut size, mut atlas_idx) =
        (String::new(), Vec2::ZERO, Vec2::ZERO, 0);
    fields!(p {
        0 "name" => name = p.string()?,
        1 "offset" => offset = p.vec2()?,
        2 "size" => size = p.vec2()?,
        3 "atlas_idx" => atlas_idx = p.u32()?,
    });
    Some(Texture { name, offset, size, atlas_idx })
}

fn style(p: &mut P<'_>) -> R<Style> {
    let (mut name, mut textures) = (String::new(), Vec::new());
    fields!(p {
        0 "id" => p.skip()?,
        1 "name" => name = p.string()?,
        2 "textures" => textures = p.array_via(|s| &mut s.textures, texture)?,
    });
    Some(Style { name, textures })
}

/// The armature of a current-format document, or `None` to fall back to serde_json
/// (which also reports the errors). Legacy documents (markers `ik_root_ids`,
/// `texture_size`, `armature`, or a version below 0.6) are left to the slow path.
pub(crate) fn parse(text: &[u8]) -> Option<Armature> {
    let mut p = P::new(text);
    let (mut version, mut baked_ik, mut img_format, mut clear_color) = (None, false, None, None);
    let (mut bones, mut animations, mut atlases, mut styles) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut visuals, mut iks, mut physics_) = (Vec::new(), Vec::new(), Vec::new());
    let mut tex_names = vec![String::new()];
    {
        let p = &mut p;
        fields!(p {
            0 "version" => version = Some(p.string()?),
            1 "baked_ik" => baked_ik = p.bool()?,
            2 "img_format" => img_format = Some(p.string()?),
            3 "bones" => {
                let mut i = 0;
                bones = p.array(|p| {
                    i += 1;
                    bone(p, i - 1)
                })?
            },
            4 "animations" => animations = p.array(animation)?,
            5 "atlases" => atlases = p.array(atlas)?,
            6 "styles" => styles = p.array(style)?,
            7 "visuals" => visuals = p.array(|p| visual(p, &mut tex_names))?,
            8 "inverse_kinematics" => iks = p.array(ik)?,
            9 "physics" => physics_ = p.array(physics)?,
            10 "clear_color" => clear_color = Some(p.color()?),
            11 "ik_root_ids" => return None,
            12 "texture_size" => return None,
            13 "armature" => return None,
        });
    }
    // Only whitespace may follow.
    p.peek().is_none().then_some(())?;
    if version.as_deref().and_then(version_pair).is_some_and(|v| v < (0, 6)) {
        return None;
    }
    // Cross-references, now that every array's length is known.
    let (nb, nv, nik, np, na) =
        (bones.len(), visuals.len(), iks.len(), physics_.len(), atlases.len());
    if nb > u32::MAX as usize / 2 {
        return None;
    }
    let bones_ok = bones
        .iter()
        .all(|b: &Bone| below(b.ik_family, nik) && below(b.physics, np) && below(b.visual, nv));
    let visuals_ok = visuals.iter().flat_map(|v: &Visual| &v.binds).all(|b| below(b.bone, nb));
    let iks_ok = iks
        .iter()
        .all(|f: &IkFamily| below(f.target, nb) && f.bone_ids.iter().all(|&b| (b as usize) < nb));
    let styles_ok =
        styles.iter().flat_map(|s: &Style| &s.textures).all(|t| (t.atlas_idx as usize) < na);
    if !(bones_ok && visuals_ok && iks_ok && styles_ok) {
        return None;
    }
    // Keyframe textures are interned after every visual's, as `load::build` does.
    for kf in animations.iter_mut().flat_map(|a: &mut Animation| a.keyframes.iter_mut()) {
        if (kf.bone as usize) >= nb {
            return None;
        }
        if kf.element == Element::Texture {
            if let Some(s) = kf.value_str.as_deref() {
                kf.tex = intern(&mut tex_names, s);
            }
        }
    }
    Some(assemble(Parts {
        version: version.unwrap_or_default(),
        upgraded_from: None,
        baked_ik,
        img_format: img_format.unwrap_or_else(|| "PNG".to_string()),
        clear_color: clear_color.unwrap_or(Color::TRANSPARENT),
        bones,
        animations,
        atlases,
        styles,
        visuals,
        iks,
        physics: physics_,
        tex_names,
    }))
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
            "12345678",
            "123456789",
            "-87654321.1",
            "1234567.12345678",
            "0.00044026837",
            "-65.809746",
            "99999999.9999999",
            "9999999.99999999",
            "123456789012345678",
            "1234567890123456789",
            "0.000000000000001",
            "1.2345678x",
            "00000000",
            "0.0",
            "7.0",
            "9.00",
            "1.0e5",
            "0.05",
            "0.0e1",
            "0.0.0",
            "-0.0",
        ];
        for t in tokens {
            for tail in ["", ",", "}", " ]", ",\"abcdefgh\":1", "}]]]]]]]]]]", "        ", "0"] {
                let text = format!("{t}{tail}");
                let run = |slow: bool, int: bool| {
                    let mut p = P::new(text.as_bytes());
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

    /// Edited documents (out-of-range and mismatched ids, absent, extra, reordered and
    /// optional keys, tints, aliases, value strings): whenever the serde path builds an
    /// armature the fast path builds the identical one, and whenever the serde path
    /// rejects the document the fast path declines (so the error comes from serde).
    #[test]
    fn fast_path_agrees_on_edited_documents() {
        let Some(dir) = skel_testkit::fixtures_dir() else { return };
        let path = dir.join("skelform").join("skellington_v0.7.0.skf");
        let Some(bytes) = skel_testkit::read_corpus_file(&path) else { return };
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(&bytes[..])).expect("zip");
        let mut text = String::new();
        std::io::Read::read_to_string(&mut zip.by_name("armature.json").expect("entry"), &mut text)
            .expect("utf8");
        let edits: &[(&str, &str)] = &[
            ("\"parent_id\":-1", "\"parent_id\":40"),
            ("\"parent_id\":-1", "\"parent_id\":-2"),
            ("\"id\":1,\"name\"", "\"id\":2,\"name\""),
            ("\"ik_family_id\":-1", "\"ik_family_id\":5"),
            ("\"ik_family_id\":-1", "\"inverse_kinematics_id\":0"),
            ("\"ik_family_id\":-1", "\"ik_family_id\":-1,\"inverse_kinematics_id\":0"),
            ("\"physics_id\":-1", "\"physics_id\":3"),
            ("\"visuals_id\":-1", "\"visuals_id\":21"),
            ("\"visuals_id\":-1", "\"visuals_id\":4294967296"),
            ("\"bone_id\":5", "\"bone_id\":61"),
            ("\"bone_id\":5", "\"bone_id\":-1"),
            ("\"next_kf\":12", "\"next_kf\":159"),
            ("\"next_kf\":12", "\"next_kf\":-1"),
            ("\"target_id\":", "\"target_id\":70,\"x\":"),
            ("\"bone_ids\":[", "\"bone_ids\":[61,"),
            ("\"bone_ids\":[", "\"bone_ids\":[0,"),
            ("\"atlas_idx\":0", "\"atlas_idx\":1"),
            ("\"indices\":[", "\"indices\":[13,"),
            ("\"verts\":[{\"id\":", "\"verts\":[{\"id\":200,\"z\":"),
            ("\"bone_id\":7,\"is_path\"", "\"id\":7,\"is_path\""),
            ("\"bone_id\":7,\"is_path\"", "\"bone_id\":70,\"is_path\""),
            ("\"rot\":0.0,", ""),
            ("\"scale\":{\"x\":1.0,\"y\":1.0},", "\"hidden\":true,"),
            ("\"init_rot\":0.0,", "\"init_hidden\":true,\"extra\":[1,{\"a\":null}],"),
            ("\"zindex\":0,", "\"zindex\":0,\"tint\":{\"r\":0.5,\"g\":1,\"b\":0,\"a\":1},"),
            ("\"init_zindex\":0", "\"init_zindex\":0,\"init_tint\":{\"a\":0.25}"),
            ("\"init_tex\":\"Right Shoulder\"", "\"init_tex\":\"Elsewhere\""),
            ("\"element\":\"PositionX\"", "\"element\":\"Texture\",\"value_str\":\"Neck\""),
            ("\"element\":\"PositionX\"", "\"element\":\"Tex\",\"value_str\":\"New\""),
            (
                "\"element\":\"PositionX\"",
                "\"element\":\"IkConstraint\",\"value_str\":\"Clockwise\"",
            ),
            ("\"handle_preset\":\"Linear\"", "\"handle_preset\":\"Bouncy\""),
            ("\"handle_preset\":\"Linear\"", "\"handle_preset\":\"SineIn\""),
            ("\"mode\":\"FABRIK\"", "\"mode\":\"Arc\",\"mimic_target\":true"),
            ("\"version\":\"0.7.0\"", "\"version\":\"0.5.1\""),
            ("\"version\":\"0.7.0\"", "\"clear_color\":{\"r\":255,\"g\":1,\"b\":2,\"a\":3}"),
            ("\"frame\":0,", "\"frame\":0.5,"),
            ("\"frame\":0,", "\"frame\":-1,"),
            ("\"value\":0.0", "\"value\":1e3"),
            ("\"value\":0.0", "\"value\":null"),
            ("{\"id\":0,\"pos\"", "{\"id\":1.2.3,\"pos\""),
            ("{\"id\":0,\"pos\"", "{\"id\":-01,\"pos\""),
            ("{\"id\":0,\"pos\"", "{\"id\":1e5,\"pos\""),
            ("{\"id\":0,\"pos\"", "{\"id\":-2.5E-3,\"pos\""),
            ("{\"id\":0,\"pos\"", "{\"id\":2.,\"pos\""),
            ("{\"id\":0,\"pos\"", "{\"id\":1e+,\"pos\""),
            ("\"y\":0.33333334}", "\"y\":0.33333335}"),
            ("\"x\":0.6666667,", "\"x\":0.6666667 ,"),
            ("\"name\":\"Left", "\"name\":\"\\u0041Left"),
            ("\"name\":\"Left", "\"name\":\"L\u{e9}ft \u{1F480}"),
            ("\"tex\":\"Right", "\"tex\":\"\u{2192}Right"),
            ("\"value\":0.0", "\"value\":0.0,\"note\":\"\u{e9}\""),
        ];
        let mut agreed = 0;
        for (from, to) in edits {
            for all in [false, true] {
                let edited = if all { text.replace(from, to) } else { text.replacen(from, to, 1) };
                assert_ne!(edited, text, "{from} not found");
                let fast = super::parse(edited.as_bytes());
                let slow = crate::load::parse_with_serde(&edited);
                match (&fast, &slow) {
                    (Some(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{to}"),
                    (Some(_), Err(e)) => panic!("{to} (all: {all}): fast accepted, serde: {e}"),
                    (None, _) => {}
                }
                agreed += usize::from(fast.is_some());
            }
        }
        println!("the fast path took {agreed} of {} edited documents", edits.len() * 2);
        // Invalid UTF-8 in a kept or a skipped string, or outside strings: declined, and
        // the document is rejected.
        for (from, to) in [("Left", 0), ("PNG", 1), ("\"element\":", 0)] {
            let at = text.find(from).expect("present");
            let mut bytes = text.as_bytes().to_vec();
            bytes[at + to] = 0xE9;
            assert!(super::parse(&bytes).is_none(), "{from}: invalid UTF-8 accepted");
            assert!(crate::load::parse_armature_json(&bytes).is_err(), "{from}");
        }
        assert!(agreed > 30, "the fast path took only {agreed} edited documents");
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
            let fast = super::parse(text.as_bytes());
            if legacy {
                assert!(fast.is_none() || f.to_string_lossy().contains("v0.2"), "{f:?}");
                continue;
            }
            let a = fast.unwrap_or_else(|| panic!("{f:?}: fast path declined"));
            let slow: crate::raw::RawArmature = serde_json::from_str(text).expect("serde");
            let b = crate::load::build_for_test(slow);
            assert_eq!(format!("{a:?}"), format!("{b:?}"), "{f:?}");
            // The same document pretty-printed (whitespace everywhere, keys reordered).
            let v: serde_json::Value = serde_json::from_str(text).expect("value");
            let pretty = serde_json::to_string_pretty(&v).expect("pretty");
            let c =
                super::parse(pretty.as_bytes()).unwrap_or_else(|| panic!("{f:?}: pretty declined"));
            assert_eq!(format!("{c:?}"), format!("{b:?}"), "{f:?} pretty-printed");
            compared += 1;
        }
        assert_eq!(compared, 4);
    }
}
