//! Primitive readers and writers shared by every binary generation: big-endian numbers,
//! varints, strings, string references, colors, and checked counts.
//!
//! The [`Reader`] keeps the byte offset and a section path so every error says where it
//! happened. Fixed-size values are read straight from byte arrays: this is the hottest code of
//! every binary loader, and doing it through nom's `be_f32` cost a quarter of all parse time
//! (callgrind, spineboy-pro 4.2).

use crate::error::{render_path, BinaryError, BinaryErrorKind, Seg};
use crate::Limits;

/// A cursor over a binary skeleton with a section path for error reporting.
pub(crate) struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
    path: Vec<Seg<'a>>,
    limits: Limits,
    /// The smallest count limit: counts at or below it skip the per-kind limit lookup.
    min_count_limit: u64,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `buf`.
    pub fn new(buf: &'a [u8]) -> Self {
        Self::with_limits(buf, Limits::default())
    }

    /// A reader at the start of `buf` enforcing `limits`.
    pub fn with_limits(buf: &'a [u8], limits: Limits) -> Self {
        let min_count_limit = limits.min_count() as u64;
        Reader { buf, pos: 0, path: Vec::with_capacity(8), limits, min_count_limit }
    }

    /// Fails with [`BinaryErrorKind::LimitExceeded`] when the whole input is over the file
    /// size limit.
    pub fn check_file_size(&self) -> Result<(), BinaryError> {
        let max = self.limits.max_file_bytes;
        if self.buf.len() > max {
            return Err(self.err_at(
                0,
                BinaryErrorKind::LimitExceeded {
                    limit: "max_file_bytes",
                    value: self.buf.len() as u64,
                    max: max as u64,
                },
            ));
        }
        Ok(())
    }

    /// Current byte offset.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Bytes not yet read.
    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// Whether every byte has been read.
    pub fn at_end(&self) -> bool {
        self.pos == self.buf.len()
    }

    /// Enters a section (`label`), e.g. `"bones"`.
    pub fn enter(&mut self, label: &'static str) {
        self.path.push(Seg { label, index: None, name: None });
    }

    /// Enters an item of a list: `label[index]`.
    #[inline]
    pub fn enter_item(&mut self, label: &'static str, index: usize) {
        self.path.push(Seg { label, index: Some(index), name: None });
    }

    /// Moves the innermost item (entered with [`Reader::enter_item`]) to `index`: the same
    /// path as leaving it and entering `label[index]`, without the pop and push.
    #[inline]
    pub fn set_item_index(&mut self, index: usize) {
        if let Some(top) = self.path.last_mut() {
            top.index = Some(index);
            top.name = None;
        }
    }

    /// Names the innermost item once its name is known (`animations[3] "run"`).
    pub fn name_item(&mut self, name: &'a str) {
        if let Some(top) = self.path.last_mut() {
            top.name = Some(name);
        }
    }

    /// Leaves the innermost section or item.
    #[inline]
    pub fn leave(&mut self) {
        self.path.pop();
    }

    /// An error at the current offset.
    #[cold]
    #[inline(never)]
    pub fn err(&self, kind: BinaryErrorKind) -> BinaryError {
        self.err_at(self.pos, kind)
    }

    /// An error at `offset` (out of line: callers inline only their fast paths).
    #[cold]
    #[inline(never)]
    pub fn err_at(&self, offset: usize, kind: BinaryErrorKind) -> BinaryError {
        BinaryError { offset, section: render_path(&self.path), kind }
    }

    /// An [`BinaryErrorKind::Invalid`] error at `offset`.
    #[cold]
    pub fn invalid_at(&self, offset: usize, msg: impl Into<String>) -> BinaryError {
        self.err_at(offset, BinaryErrorKind::Invalid(msg.into()))
    }

    #[inline]
    fn array<const N: usize>(&mut self) -> Result<[u8; N], BinaryError> {
        match self.buf.get(self.pos..self.pos + N) {
            Some(s) => {
                let mut a = [0u8; N];
                a.copy_from_slice(s);
                self.pos += N;
                Ok(a)
            }
            None => Err(self.eof(N)),
        }
    }

    /// The end-of-input error for a read of `needed` bytes (out of line: reads inline only
    /// their fast path).
    #[cold]
    #[inline(never)]
    fn eof(&self, needed: usize) -> BinaryError {
        self.err(BinaryErrorKind::UnexpectedEof { needed, remaining: self.remaining() })
    }

    /// `byte`.
    #[inline]
    pub fn u8(&mut self) -> Result<u8, BinaryError> {
        Ok(self.array::<1>()?[0])
    }

    /// `sbyte`.
    #[inline]
    pub fn i8(&mut self) -> Result<i8, BinaryError> {
        Ok(self.u8()? as i8)
    }

    /// `bool`: strictly 0 or 1 (anything else would not round-trip).
    #[inline]
    pub fn bool(&mut self) -> Result<bool, BinaryError> {
        let at = self.pos;
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            b => Err(self.err_at(at, BinaryErrorKind::InvalidBool(b))),
        }
    }

    /// Big-endian `int`.
    #[inline]
    pub fn i32(&mut self) -> Result<i32, BinaryError> {
        Ok(i32::from_be_bytes(self.array()?))
    }

    /// Big-endian `float` (bit pattern preserved).
    #[inline]
    pub fn f32(&mut self) -> Result<f32, BinaryError> {
        Ok(f32::from_bits(u32::from_be_bytes(self.array()?)))
    }

    /// Three big-endian floats: the same values, offsets and errors as three
    /// [`Reader::f32`] calls, with one bounds check when all twelve bytes are there.
    #[inline]
    pub fn f32x3(&mut self) -> Result<[f32; 3], BinaryError> {
        if self.remaining() < 12 {
            return Ok([self.f32()?, self.f32()?, self.f32()?]);
        }
        let b: [u8; 12] = self.array()?;
        let f = |i: usize| f32::from_bits(u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]));
        Ok([f(0), f(4), f(8)])
    }

    /// `N` big-endian floats: the same values, offsets and errors as `N` [`Reader::f32`]
    /// calls, with one bounds check when all the bytes are there.
    #[inline(always)]
    pub fn f32_array<const N: usize>(&mut self) -> Result<[f32; N], BinaryError> {
        let mut v = [0.0f32; N];
        match self.buf.get(self.pos..self.pos + 4 * N) {
            Some(bytes) => {
                for (x, b) in v.iter_mut().zip(bytes.chunks_exact(4)) {
                    *x = f32::from_bits(u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
                }
                self.pos += 4 * N;
                Ok(v)
            }
            None => self.f32_array_short(),
        }
    }

    /// [`Reader::f32_array`] when its bytes are not all there: float by float, for the
    /// exact error.
    #[cold]
    #[inline(never)]
    fn f32_array_short<const N: usize>(&mut self) -> Result<[f32; N], BinaryError> {
        let mut v = [0.0f32; N];
        for x in &mut v {
            *x = self.f32()?;
        }
        Ok(v)
    }

    /// A one-byte varint index below `len` followed by three big-endian floats (a vertex
    /// influence: bone, x, y, weight), when all thirteen bytes are there and the index takes
    /// one byte and is in range; `None` (nothing consumed) otherwise, for the caller's
    /// checked path ([`Reader::index`] then [`Reader::f32x3`], with their errors).
    #[inline]
    pub fn index_f32x3(&mut self, len: usize) -> Option<(u32, [f32; 3])> {
        let b = self.buf.get(self.pos..self.pos + 13)?;
        let i = b[0];
        if i >= 0x80 || usize::from(i) >= len {
            return None;
        }
        let f = |k: usize| f32::from_bits(u32::from_be_bytes([b[k], b[k + 1], b[k + 2], b[k + 3]]));
        let v = [f(1), f(5), f(9)];
        self.pos += 13;
        Some((u32::from(i), v))
    }

    /// Appends `n` big-endian floats to `out`: the same values, offsets and errors as `n`
    /// [`Reader::f32`] calls, with one bounds check when all the bytes are there.
    pub fn f32s_into(&mut self, n: usize, out: &mut Vec<f32>) -> Result<(), BinaryError> {
        match n.checked_mul(4) {
            Some(len) if len <= self.remaining() => {
                let bytes = &self.buf[self.pos..self.pos + len];
                out.extend(
                    bytes
                        .chunks_exact(4)
                        .map(|b| f32::from_bits(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))),
                );
                self.pos += len;
            }
            _ => {
                for _ in 0..n {
                    out.push(self.f32()?);
                }
            }
        }
        Ok(())
    }

    /// Four color bytes, R G B A.
    #[inline]
    pub fn rgba(&mut self) -> Result<[u8; 4], BinaryError> {
        let b = self.bytes(4)?;
        Ok([b[0], b[1], b[2], b[3]])
    }

    /// `n` raw bytes.
    #[inline]
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8], BinaryError> {
        if self.remaining() < n {
            return Err(self.eof(n));
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    /// Unsigned varint (`readInt(true)`): 1–5 bytes, canonical, at most 32 bits.
    #[inline]
    pub fn varint(&mut self) -> Result<u32, BinaryError> {
        // Fast path: one byte below 0x80 (always canonical).
        if let Some(&b) = self.buf.get(self.pos) {
            if b < 0x80 {
                self.pos += 1;
                return Ok(u32::from(b));
            }
        }
        self.varint_multi()
    }

    /// Appends `n` unsigned varints to `out` (the caller has checked the count against the
    /// remaining input): runs of one-byte values are copied in one pass, longer ones go
    /// through [`Reader::varint`] (same values, same errors and offsets).
    pub fn varints_into(&mut self, n: usize, out: &mut Vec<u32>) -> Result<(), BinaryError> {
        out.reserve(n);
        let mut left = n;
        while left > 0 {
            let rest = self.buf.get(self.pos..).unwrap_or(&[]);
            let run = rest.iter().take(left).take_while(|&&b| b < 0x80).count();
            out.extend(rest[..run].iter().map(|&b| u32::from(b)));
            self.pos += run;
            left -= run;
            if left > 0 {
                out.push(self.varint()?);
                left -= 1;
            }
        }
        Ok(())
    }

    /// [`Reader::varint`] past the one-byte fast path.
    #[inline(never)]
    fn varint_multi(&mut self) -> Result<u32, BinaryError> {
        let start = self.pos;
        let mut value: u32 = 0;
        for i in 0..5 {
            let b = match self.buf.get(self.pos) {
                Some(&b) => b,
                None => {
                    return Err(self.err(BinaryErrorKind::UnexpectedEof { needed: 1, remaining: 0 }))
                }
            };
            self.pos += 1;
            if i == 4 {
                if b & 0x80 != 0 {
                    return Err(self.err_at(start, BinaryErrorKind::VarintTooLong));
                }
                if b & 0x70 != 0 {
                    return Err(self.err_at(start, BinaryErrorKind::VarintOverflow));
                }
            }
            value |= u32::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                if i > 0 && b == 0 {
                    return Err(self.err_at(start, BinaryErrorKind::NonCanonicalVarint));
                }
                return Ok(value);
            }
        }
        unreachable!("the fifth byte always returns")
    }

    /// Signed (zigzag) varint (`readInt(false)`).
    pub fn varint_signed(&mut self) -> Result<i32, BinaryError> {
        let u = self.varint()?;
        Ok(((u >> 1) as i32) ^ -((u & 1) as i32))
    }

    /// A varint read as a count of items that each take at least `min_item_bytes` bytes;
    /// fails when the rest of the input could not hold that many, so callers may
    /// `Vec::with_capacity(count)` safely.
    #[inline]
    pub fn count(
        &mut self,
        what: &'static str,
        min_item_bytes: usize,
    ) -> Result<usize, BinaryError> {
        let at = self.pos;
        let n = self.varint()?;
        self.check_count(at, what, u64::from(n), min_item_bytes)?;
        Ok(n as usize)
    }

    /// Checks that `count` items of at least `min_item_bytes` each fit in the rest of the input.
    #[inline]
    pub fn check_count(
        &self,
        at: usize,
        what: &'static str,
        count: u64,
        min_item_bytes: usize,
    ) -> Result<(), BinaryError> {
        // Fast path: under every limit and fits (the full check below agrees).
        if count <= self.min_count_limit
            && (count == 0
                || count.saturating_mul(min_item_bytes.max(1) as u64) <= self.remaining() as u64)
        {
            return Ok(());
        }
        self.check_count_full(at, what, count, min_item_bytes)
    }

    /// [`Reader::check_count`] past its fast path.
    #[inline(never)]
    fn check_count_full(
        &self,
        at: usize,
        what: &'static str,
        count: u64,
        min_item_bytes: usize,
    ) -> Result<(), BinaryError> {
        if count > self.min_count_limit {
            let (limit, max) = self.limits.for_count(what);
            if count > max as u64 {
                return Err(self.err_at(
                    at,
                    BinaryErrorKind::LimitExceeded { limit, value: count, max: max as u64 },
                ));
            }
        }
        let need = count.saturating_mul(min_item_bytes.max(1) as u64);
        if need > self.remaining() as u64 && count > 0 {
            if min_item_bytes == 0 && count <= self.remaining() as u64 {
                return Ok(());
            }
            return Err(self.err_at(
                at,
                BinaryErrorKind::CountTooLarge { what, count, remaining: self.remaining() },
            ));
        }
        Ok(())
    }

    /// Checks `count` against the limit for `what` only: for counts of things that take no
    /// bytes of their own (the frames of an image sequence), where [`Reader::check_count`]'s
    /// comparison with the remaining input would be wrong.
    #[inline]
    pub fn check_limit(
        &self,
        at: usize,
        what: &'static str,
        count: u64,
    ) -> Result<(), BinaryError> {
        if count <= self.min_count_limit {
            return Ok(());
        }
        let (limit, max) = self.limits.for_count(what);
        if count > max as u64 {
            return Err(self.err_at(
                at,
                BinaryErrorKind::LimitExceeded { limit, value: count, max: max as u64 },
            ));
        }
        Ok(())
    }

    /// The limits this reader enforces.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// A varint index that must be `< len`.
    #[inline]
    pub fn index(&mut self, what: &'static str, len: usize) -> Result<u32, BinaryError> {
        let at = self.pos;
        let i = self.varint()?;
        if i as usize >= len {
            return Err(self.index_error(at, what, i, len));
        }
        Ok(i)
    }

    /// The error of [`Reader::index`].
    #[cold]
    #[inline(never)]
    fn index_error(&self, at: usize, what: &'static str, i: u32, len: usize) -> BinaryError {
        self.err_at(at, BinaryErrorKind::IndexOutOfRange { what, index: u64::from(i), len })
    }

    /// Length-prefixed string, borrowed: `None` for length 0.
    pub fn str(&mut self) -> Result<Option<&'a str>, BinaryError> {
        let at = self.pos;
        let n = self.varint()? as usize;
        if n == 0 {
            return Ok(None);
        }
        if n - 1 > self.limits.max_string_bytes {
            return Err(self.err_at(
                at,
                BinaryErrorKind::LimitExceeded {
                    limit: "max_string_bytes",
                    value: (n - 1) as u64,
                    max: self.limits.max_string_bytes as u64,
                },
            ));
        }
        let bytes = self.bytes(n - 1)?;
        match std::str::from_utf8(bytes) {
            Ok(s) => Ok(Some(s)),
            Err(_) => Err(self.err_at(at, BinaryErrorKind::InvalidUtf8)),
        }
    }

    /// Length-prefixed string, owned.
    pub fn string(&mut self) -> Result<Option<String>, BinaryError> {
        Ok(self.str()?.map(str::to_owned))
    }

    /// A string that must be present (a name): `None` on the wire is an error.
    pub fn name(&mut self, what: &'static str) -> Result<&'a str, BinaryError> {
        let at = self.pos;
        match self.str()? {
            Some(s) => Ok(s),
            None => Err(self.invalid_at(at, format!("{what} name is null"))),
        }
    }

    /// A string reference: `0` is `None`, `n` is `table[n - 1]`; checked against the table length.
    #[inline]
    pub fn str_ref(&mut self, table_len: usize) -> Result<StrRef, BinaryError> {
        let at = self.pos;
        let n = self.varint()?;
        if n as usize > table_len {
            return Err(self.err_at(
                at,
                BinaryErrorKind::IndexOutOfRange {
                    what: "string table",
                    index: u64::from(n - 1),
                    len: table_len,
                },
            ));
        }
        Ok(StrRef(n))
    }

    /// Fails unless the input is fully consumed.
    pub fn expect_end(&self) -> Result<(), BinaryError> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self.err(BinaryErrorKind::TrailingBytes { count: self.remaining() }))
        }
    }
}

/// A reference into a file's string table as written on the wire: `0` means none,
/// `n > 0` means entry `n - 1`. Kept unresolved so a written file is byte-identical.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize)]
pub struct StrRef(pub u32);

impl StrRef {
    /// The null reference.
    pub const NONE: StrRef = StrRef(0);

    /// The table index this refers to, or `None`.
    pub fn index(self) -> Option<usize> {
        self.0.checked_sub(1).map(|i| i as usize)
    }

    /// Resolves against a string table (owned or borrowed strings).
    pub fn resolve<S: AsRef<str>>(self, table: &[S]) -> Option<&str> {
        self.index().and_then(|i| table.get(i)).map(AsRef::as_ref)
    }
}

/// A byte sink with the primitive encodings of [`Reader`].
#[derive(Debug, Default)]
pub(crate) struct Writer {
    out: Vec<u8>,
}

impl Writer {
    /// A writer with some capacity.
    pub fn with_capacity(n: usize) -> Self {
        Writer { out: Vec::with_capacity(n) }
    }

    /// The bytes written.
    pub fn finish(self) -> Vec<u8> {
        self.out
    }

    /// `byte`.
    pub fn u8(&mut self, v: u8) {
        self.out.push(v);
    }

    /// `sbyte`.
    pub fn i8(&mut self, v: i8) {
        self.out.push(v as u8);
    }

    /// `bool`.
    pub fn bool(&mut self, v: bool) {
        self.out.push(u8::from(v));
    }

    /// Big-endian `int`.
    pub fn i32(&mut self, v: i32) {
        self.out.extend_from_slice(&v.to_be_bytes());
    }

    /// Big-endian `float`.
    pub fn f32(&mut self, v: f32) {
        self.out.extend_from_slice(&v.to_bits().to_be_bytes());
    }

    /// Four color bytes.
    pub fn rgba(&mut self, v: [u8; 4]) {
        self.out.extend_from_slice(&v);
    }

    /// Raw bytes.
    pub fn bytes(&mut self, v: &[u8]) {
        self.out.extend_from_slice(v);
    }

    /// Unsigned varint, canonical.
    pub fn varint(&mut self, mut v: u32) {
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.out.push(b);
                return;
            }
            self.out.push(b | 0x80);
        }
    }

    /// A `usize` count or index as an unsigned varint (saturating at `u32::MAX`).
    pub fn len(&mut self, v: usize) {
        self.varint(u32::try_from(v).unwrap_or(u32::MAX));
    }

    /// Signed (zigzag) varint.
    pub fn varint_signed(&mut self, v: i32) {
        self.varint(((v << 1) ^ (v >> 31)) as u32);
    }

    /// Length-prefixed string.
    pub fn str(&mut self, v: Option<&str>) {
        match v {
            None => self.varint(0),
            Some(s) => {
                self.len(s.len() + 1);
                self.out.extend_from_slice(s.as_bytes());
            }
        }
    }

    /// A string reference.
    pub fn str_ref(&mut self, v: StrRef) {
        self.varint(v.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varint_round_trips_and_rejects_bad_encodings() {
        for v in [0u32, 1, 127, 128, 300, 16_383, 16_384, 0x0fff_ffff, 0xffff_fffe, u32::MAX] {
            let mut w = Writer::default();
            w.varint(v);
            let bytes = w.finish();
            let mut r = Reader::new(&bytes);
            assert_eq!(r.varint().unwrap(), v);
            assert!(r.at_end());
        }
        let kind = |b: &[u8]| Reader::new(b).varint().unwrap_err().kind;
        assert_eq!(kind(&[0x80, 0x00]), BinaryErrorKind::NonCanonicalVarint);
        assert_eq!(kind(&[0xff, 0xff, 0xff, 0xff, 0x80]), BinaryErrorKind::VarintTooLong);
        assert_eq!(kind(&[0xff, 0xff, 0xff, 0xff, 0x1f]), BinaryErrorKind::VarintOverflow);
        assert!(matches!(kind(&[0x80]), BinaryErrorKind::UnexpectedEof { .. }));
    }

    #[test]
    fn zigzag_round_trips() {
        for v in [0i32, -1, 1, -64, 64, i32::MIN, i32::MAX] {
            let mut w = Writer::default();
            w.varint_signed(v);
            let bytes = w.finish();
            assert_eq!(Reader::new(&bytes).varint_signed().unwrap(), v);
        }
    }

    #[test]
    fn counts_are_checked_against_remaining_input() {
        let mut w = Writer::default();
        w.varint(50_000);
        let bytes = w.finish();
        let e = Reader::new(&bytes).count("bones", 1).unwrap_err();
        assert!(matches!(e.kind, BinaryErrorKind::CountTooLarge { count: 50_000, .. }));
    }

    #[test]
    fn strings_and_errors_carry_offsets_and_paths() {
        let bytes = [3u8, b'h', b'i', 3, 0xff, 0xfe];
        let mut r = Reader::new(&bytes);
        r.enter("bones");
        r.enter_item("bones", 2);
        assert_eq!(r.str().unwrap(), Some("hi"));
        let e = r.str().unwrap_err();
        assert_eq!(e.offset, 3);
        assert_eq!(e.section, "bones > bones[2]");
        assert_eq!(e.kind, BinaryErrorKind::InvalidUtf8);
    }
}
