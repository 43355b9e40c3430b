//! The byte-level reader: whitespace, strings, numbers, objects and arrays, with the
//! lookup tables and digit loops that make numbers one scan.

use crate::model::*;

/// The reader: the document, the position, the nesting depth and the scratch buffers.
pub(super) struct P<'a> {
    pub(super) b: &'a [u8],
    pub(super) i: usize,
    pub(super) depth: u32,
    pub(super) scratch: Scratch,
}

/// Buffers the arrays that occur many times in a document (keyframes per animation, mesh
/// data per visual, ...) are read into, so each result is allocated once at its final size
/// instead of growing.
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) keyframes: Vec<Keyframe>,
    pub(super) vertices: Vec<Vertex>,
    pub(super) ids: Vec<u32>,
    pub(super) binds: Vec<Bind>,
    pub(super) verts: Vec<BindVert>,
    pub(super) textures: Vec<Texture>,
}

impl<'a> P<'a> {
    pub(super) fn new(b: &'a [u8]) -> Self {
        P { b, i: 0, depth: 0, scratch: Scratch::default() }
    }
}

pub(super) type R<T> = Option<T>;

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
    pub(super) fn ws(&mut self) {
        if self.b.get(self.i).is_none_or(|&c| c > b' ') {
            return;
        }
        self.ws_slow();
    }
    pub(super) fn ws_slow(&mut self) {
        while let Some(c) = self.b.get(self.i) {
            if matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
                self.i += 1;
            } else {
                break;
            }
        }
    }
    #[inline]
    pub(super) fn peek(&mut self) -> R<u8> {
        let c = *self.b.get(self.i)?;
        if c > b' ' {
            return Some(c);
        }
        self.ws_slow();
        self.b.get(self.i).copied()
    }
    #[inline]
    pub(super) fn eat(&mut self, c: u8) -> R<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }
    /// The bytes of a string without escapes, valid UTF-8 (checked when it has non-ASCII
    /// bytes; outside strings the reader accepts ASCII only, so a document it reads is
    /// valid UTF-8 as a whole).
    #[inline]
    pub(super) fn raw_str(&mut self) -> R<&'a [u8]> {
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
    pub(super) fn str(&mut self) -> R<&'a str> {
        std::str::from_utf8(self.raw_str()?).ok()
    }
    pub(super) fn number(&mut self) -> R<&'a str> {
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
    pub(super) fn f32(&mut self) -> R<f32> {
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
    pub(super) fn decimal(&mut self) -> R<f64> {
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
    pub(super) fn f32_slow(&mut self) -> R<f32> {
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
    pub(super) fn i64(&mut self) -> R<i64> {
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
    pub(super) fn i64_slow(&mut self) -> R<i64> {
        let s = self.number()?;
        if s.contains(['.', 'e', 'E', '+']) {
            return None;
        }
        s.parse().ok()
    }
    pub(super) fn u32(&mut self) -> R<u32> {
        u32::try_from(self.i64()?).ok()
    }
    pub(super) fn i32(&mut self) -> R<i32> {
        i32::try_from(self.i64()?).ok()
    }
    pub(super) fn bool(&mut self) -> R<bool> {
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
    pub(super) fn string(&mut self) -> R<String> {
        self.str().map(str::to_string)
    }
    pub(super) fn enter(&mut self) -> R<()> {
        self.depth += 1;
        (self.depth < 64).then_some(())
    }
    pub(super) fn object(&mut self, mut f: impl FnMut(&mut Self, &'a [u8]) -> R<()>) -> R<()> {
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
    pub(super) fn array<T>(&mut self, f: impl FnMut(&mut Self) -> R<T>) -> R<Vec<T>> {
        let mut out = Vec::new();
        self.array_into(&mut out, f)?;
        Some(out)
    }
    /// An array read into the scratch buffer `pick` selects, returned at its exact size.
    pub(super) fn array_via<T>(
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
    pub(super) fn array_into<T>(
        &mut self,
        out: &mut Vec<T>,
        mut f: impl FnMut(&mut Self) -> R<T>,
    ) -> R<()> {
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
    pub(super) fn skip(&mut self) -> R<()> {
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
    pub(super) fn skip_number(&mut self) -> R<()> {
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
    pub(super) fn vec2(&mut self) -> R<Vec2> {
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
    pub(super) fn vec2_frequent(&mut self) -> R<Vec2> {
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
    pub(super) fn lit2(&mut self, a: &[u8], c: &[u8]) -> bool {
        let rest = self.b.get(self.i..).unwrap_or_default();
        let hit = rest.starts_with(a) && rest.get(a.len()..).is_some_and(|t| t.starts_with(c));
        if hit {
            self.i += a.len() + c.len();
        }
        hit
    }
    #[inline]
    pub(super) fn vec2_compact(&mut self) -> R<Vec2> {
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
    pub(super) fn vec2_general(&mut self) -> R<Vec2> {
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
    pub(super) fn color(&mut self) -> R<Color> {
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

impl P<'_> {
    /// Consumes `s` if the input continues with it (no whitespace skipped).
    #[inline(always)]
    pub(super) fn lit(&mut self, s: &[u8]) -> bool {
        let hit = self.b.get(self.i..).is_some_and(|r| r.starts_with(s));
        if hit {
            self.i += s.len();
        }
        hit
    }
    /// An index that −1 marks absent: −1 → `None`, `0..2³²` → the index; anything else
    /// declines (the range against the array is checked once all arrays are read).
    #[inline]
    pub(super) fn opt_id(&mut self) -> R<Option<u32>> {
        match self.i64()? {
            -1 => Some(None),
            v => u32::try_from(v).ok().map(Some),
        }
    }
    /// A required index (`0..2³²`; the range is checked later).
    #[inline]
    pub(super) fn id(&mut self) -> R<u32> {
        u32::try_from(self.i64()?).ok()
    }
}
