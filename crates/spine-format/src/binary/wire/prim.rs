//! The primitive parsers: big-endian numbers, varints, colors, strings, string references,
//! indices and counts checked against the limits and the bytes left.

use super::*;

/// The limits a parse enforces, with the smallest count limit precomputed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Lim {
    /// The limits.
    pub limits: Limits,
    /// The smallest count limit: counts at or below it skip the per-kind limit lookup.
    min_count: u64,
}

impl Lim {
    /// The limits of one parse.
    pub fn new(limits: Limits) -> Self {
        Lim { min_count: limits.min_count() as u64, limits }
    }

    /// The smallest count limit: a count at or below it is under every limit.
    pub fn min_count(&self) -> u64 {
        self.min_count
    }

    /// Fails when the whole input is over [`Limits::max_file_bytes`].
    pub fn check_file_size(&self, bytes: &[u8]) -> Result<(), BinaryError> {
        let max = self.limits.max_file_bytes;
        if bytes.len() > max {
            let kind = BinaryErrorKind::LimitExceeded {
                limit: "max_file_bytes",
                value: bytes.len() as u64,
                max: max as u64,
            };
            return Err(into_binary(PErr::at(bytes, kind), bytes.len()));
        }
        Ok(())
    }
}

#[cold]
#[inline(never)]
fn eof(at: In<'_>, needed: usize) -> nom::Err<PErr> {
    PErr::at(at, BinaryErrorKind::UnexpectedEof { needed, remaining: at.len() })
}

#[inline(always)]
fn array<const N: usize>(i: In<'_>) -> Res<'_, [u8; N]> {
    match i.split_first_chunk::<N>() {
        Some((a, rest)) => Ok((rest, *a)),
        None => Err(eof(i, N)),
    }
}

/// `byte`.
#[inline]
pub(crate) fn u8(i: In<'_>) -> Res<'_, u8> {
    match i.split_first() {
        Some((&b, rest)) => Ok((rest, b)),
        None => Err(eof(i, 1)),
    }
}

/// `sbyte`.
#[inline]
pub(crate) fn i8(i: In<'_>) -> Res<'_, i8> {
    let (r, b) = u8(i)?;
    Ok((r, b as i8))
}

/// `bool`: strictly 0 or 1 (anything else would not round-trip).
#[inline]
pub(crate) fn bool(i: In<'_>) -> Res<'_, bool> {
    match u8(i)? {
        (r, 0) => Ok((r, false)),
        (r, 1) => Ok((r, true)),
        (_, b) => Err(PErr::at(i, BinaryErrorKind::InvalidBool(b))),
    }
}

/// Big-endian `int`.
#[inline]
pub(crate) fn i32(i: In<'_>) -> Res<'_, i32> {
    let (r, a) = array::<4>(i)?;
    Ok((r, i32::from_be_bytes(a)))
}

/// Big-endian `float` (bit pattern preserved).
#[inline]
pub(crate) fn f32(i: In<'_>) -> Res<'_, f32> {
    let (r, a) = array::<4>(i)?;
    Ok((r, f32::from_bits(u32::from_be_bytes(a))))
}

/// `N` big-endian floats: the values, offsets and errors of `N` [`f32()`] reads, with one
/// bounds check when all the bytes are there.
#[inline(always)]
pub(crate) fn f32s<const N: usize>(i: In<'_>) -> Res<'_, [f32; N]> {
    let mut v = [0.0f32; N];
    match i.get(..4 * N) {
        Some(bytes) => {
            for (x, b) in v.iter_mut().zip(bytes.chunks_exact(4)) {
                *x = f32::from_bits(u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
            }
            Ok((&i[4 * N..], v))
        }
        None => f32s_short(i),
    }
}

/// [`f32s`] when its bytes are not all there: float by float, for the exact error.
#[cold]
#[inline(never)]
fn f32s_short<const N: usize>(mut i: In<'_>) -> Res<'_, [f32; N]> {
    let mut v = [0.0f32; N];
    for x in &mut v {
        (i, *x) = f32(i)?;
    }
    Ok((i, v))
}

/// An optional float (`cond` on [`f32()`]).
#[inline(always)]
pub(crate) fn opt_f32(present: bool) -> impl Fn(In<'_>) -> Res<'_, Option<f32>> {
    move |i| nom::combinator::cond(present, f32).parse(i)
}

/// An optional color (`cond` on [`rgba`]).
#[inline(always)]
pub(crate) fn opt_rgba(present: bool) -> impl Fn(In<'_>) -> Res<'_, Option<[u8; 4]>> {
    move |i| nom::combinator::cond(present, rgba).parse(i)
}

/// A one-byte varint index below `len` followed by three big-endian floats (a vertex
/// influence: bone, x, y, weight), when all thirteen bytes are there and the index takes
/// one byte and is in range; `None` otherwise, for the caller's checked path.
#[inline]
pub(crate) fn index_f32x3(i: In<'_>, len: usize) -> Option<(In<'_>, (u32, [f32; 3]))> {
    let b = i.get(..13)?;
    let k = b[0];
    if k >= 0x80 || usize::from(k) >= len {
        return None;
    }
    let f = |k: usize| f32::from_bits(u32::from_be_bytes([b[k], b[k + 1], b[k + 2], b[k + 3]]));
    Some((&i[13..], (u32::from(k), [f(1), f(5), f(9)])))
}

/// Appends `n` big-endian floats to `out`: the values, offsets and errors of `n` [`f32()`]
/// reads, with one bounds check when all the bytes are there.
pub(crate) fn f32s_into<'a>(mut i: In<'a>, n: usize, out: &mut Vec<f32>) -> Res<'a, ()> {
    match n.checked_mul(4) {
        Some(len) if len <= i.len() => {
            out.extend(
                i[..len]
                    .chunks_exact(4)
                    .map(|b| f32::from_bits(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))),
            );
            Ok((&i[len..], ()))
        }
        _ => {
            for _ in 0..n {
                let x;
                (i, x) = f32(i)?;
                out.push(x);
            }
            Ok((i, ()))
        }
    }
}

/// `n` floats into a new vector, after checking that they fit.
pub(crate) fn f32_vec<'a, 'l>(
    lim: &'l Lim,
    what: &'static str,
    n: usize,
) -> impl FnOnce(In<'a>) -> Res<'a, Vec<f32>> + use<'a, 'l> {
    move |i| {
        check_count(lim, i, i, what, n as u64, 4)?;
        let mut v = Vec::with_capacity(n);
        let (i, ()) = f32s_into(i, n, &mut v)?;
        Ok((i, v))
    }
}

/// Four color bytes, R G B A.
#[inline]
pub(crate) fn rgba(i: In<'_>) -> Res<'_, [u8; 4]> {
    array::<4>(i)
}

/// `n` raw bytes.
#[inline]
pub(crate) fn take(i: In<'_>, n: usize) -> Res<'_, &[u8]> {
    if i.len() < n {
        return Err(eof(i, n));
    }
    Ok((&i[n..], &i[..n]))
}

/// A big-endian 16-bit value.
#[inline]
pub(crate) fn u16(i: In<'_>) -> Res<'_, u16> {
    let (r, b) = take(i, 2)?;
    Ok((r, u16::from_be_bytes([b[0], b[1]])))
}

/// Unsigned varint (`readInt(true)`): 1–5 bytes, canonical, at most 32 bits.
#[inline]
pub(crate) fn varint(i: In<'_>) -> Res<'_, u32> {
    // Fast path: one byte below 0x80 (always canonical).
    if let Some((&b, rest)) = i.split_first() {
        if b < 0x80 {
            return Ok((rest, u32::from(b)));
        }
    }
    varint_multi(i)
}

/// [`varint`] past the one-byte fast path.
#[inline(never)]
fn varint_multi(start: In<'_>) -> Res<'_, u32> {
    let mut i = start;
    let mut value: u32 = 0;
    for k in 0..5 {
        let Some((&b, rest)) = i.split_first() else {
            return Err(PErr::at(i, BinaryErrorKind::UnexpectedEof { needed: 1, remaining: 0 }));
        };
        i = rest;
        if k == 4 {
            if b & 0x80 != 0 {
                return Err(PErr::at(start, BinaryErrorKind::VarintTooLong));
            }
            if b & 0x70 != 0 {
                return Err(PErr::at(start, BinaryErrorKind::VarintOverflow));
            }
        }
        value |= u32::from(b & 0x7f) << (7 * k);
        if b & 0x80 == 0 {
            if k > 0 && b == 0 {
                return Err(PErr::at(start, BinaryErrorKind::NonCanonicalVarint));
            }
            return Ok((i, value));
        }
    }
    unreachable!("the fifth byte always returns")
}

/// How many of the first `max` bytes of `i` are below `0x80` before the first that is not
/// (one-byte varints), eight bytes at a time.
#[inline]
fn one_byte_run(i: In<'_>, max: usize) -> usize {
    let i = &i[..max.min(i.len())];
    let mut run = 0;
    let mut words = i.chunks_exact(8);
    for w in &mut words {
        let Ok(w) = <[u8; 8]>::try_from(w) else { break };
        let high = u64::from_le_bytes(w) & 0x8080_8080_8080_8080;
        if high != 0 {
            return run + (high.trailing_zeros() / 8) as usize;
        }
        run += 8;
    }
    run + words.remainder().iter().take_while(|&&b| b < 0x80).count()
}

/// Appends `n` unsigned varints to `out` (the caller has checked the count against the
/// input): runs of one-byte values are copied in one pass, longer ones go through [`varint`].
pub(crate) fn varints_into<'a>(mut i: In<'a>, n: usize, out: &mut Vec<u32>) -> Res<'a, ()> {
    out.reserve(n);
    let mut left = n;
    while left > 0 {
        let run = one_byte_run(i, left);
        out.extend(i[..run].iter().map(|&b| u32::from(b)));
        i = &i[run..];
        left -= run;
        if left > 0 {
            let v;
            (i, v) = varint(i)?;
            out.push(v);
            left -= 1;
        }
    }
    Ok((i, ()))
}

/// Signed (zigzag) varint (`readInt(false)`).
#[inline]
pub(crate) fn varint_signed(i: In<'_>) -> Res<'_, i32> {
    let (r, u) = varint(i)?;
    Ok((r, ((u >> 1) as i32) ^ -((u & 1) as i32)))
}

/// A varint read as a count of `what`, items of at least `min_item_bytes` bytes each;
/// fails when the rest of the input could not hold that many or a limit is exceeded, so
/// callers may reserve that many.
#[inline(always)]
pub(crate) fn count<'a, 'l>(
    lim: &'l Lim,
    what: &'static str,
    min_item_bytes: usize,
) -> impl Fn(In<'a>) -> Res<'a, usize> + use<'a, 'l> {
    move |at| {
        let (i, n) = varint(at)?;
        check_count(lim, at, i, what, u64::from(n), min_item_bytes)?;
        Ok((i, n as usize))
    }
}

/// Checks that `count` items of at least `min_item_bytes` each fit in `i` (the input left)
/// and are under the limit for `what`; an error is reported at `at`.
#[inline(always)]
pub(crate) fn check_count(
    lim: &Lim,
    at: In<'_>,
    i: In<'_>,
    what: &'static str,
    count: u64,
    min_item_bytes: usize,
) -> Result<(), nom::Err<PErr>> {
    // Fast path: under every limit and fits (the full check below agrees).
    if count <= lim.min_count
        && (count == 0 || count.saturating_mul(min_item_bytes.max(1) as u64) <= i.len() as u64)
    {
        return Ok(());
    }
    check_count_full(lim, at.len(), i.len(), what, count, min_item_bytes)
}

/// [`check_count`] past its fast path.
#[inline(never)]
fn check_count_full(
    lim: &Lim,
    at: usize,
    remaining: usize,
    what: &'static str,
    count: u64,
    min_item_bytes: usize,
) -> Result<(), nom::Err<PErr>> {
    if count > lim.min_count {
        let (limit, max) = lim.limits.for_count(what);
        if count > max as u64 {
            return Err(PErr::at_rest(
                at,
                BinaryErrorKind::LimitExceeded { limit, value: count, max: max as u64 },
            ));
        }
    }
    let need = count.saturating_mul(min_item_bytes.max(1) as u64);
    if need > remaining as u64 && count > 0 {
        if min_item_bytes == 0 && count <= remaining as u64 {
            return Ok(());
        }
        return Err(PErr::at_rest(at, BinaryErrorKind::CountTooLarge { what, count, remaining }));
    }
    Ok(())
}

/// Checks `count` against the limit for `what` only: for counts of things that take no
/// bytes of their own (the frames of an image sequence).
#[inline]
pub(crate) fn check_limit(
    lim: &Lim,
    at: In<'_>,
    what: &'static str,
    count: u64,
) -> Result<(), nom::Err<PErr>> {
    if count <= lim.min_count {
        return Ok(());
    }
    let (limit, max) = lim.limits.for_count(what);
    if count > max as u64 {
        return Err(PErr::at(
            at,
            BinaryErrorKind::LimitExceeded { limit, value: count, max: max as u64 },
        ));
    }
    Ok(())
}

/// A varint index that must be `< len`.
#[inline(always)]
pub(crate) fn index<'a>(what: &'static str, len: usize) -> impl Fn(In<'a>) -> Res<'a, u32> {
    move |at| {
        let (i, k) = varint(at)?;
        if k as usize >= len {
            return Err(index_error(at, what, k, len));
        }
        Ok((i, k))
    }
}

#[cold]
#[inline(never)]
fn index_error(at: In<'_>, what: &'static str, k: u32, len: usize) -> nom::Err<PErr> {
    PErr::at(at, BinaryErrorKind::IndexOutOfRange { what, index: u64::from(k), len })
}

/// A list of varint indices each `< len`: a count, then the indices.
pub(crate) fn indices<'a, 'l>(
    lim: &'l Lim,
    what: &'static str,
    len: usize,
) -> impl FnMut(In<'a>) -> Res<'a, Vec<u32>> + use<'a, 'l> {
    list(lim, what, 1, None, move |i, _| index(what, len)(i))
}

/// Length-prefixed string, borrowed: `None` for length 0.
#[inline]
pub(crate) fn str<'a, 'l>(
    lim: &'l Lim,
) -> impl Fn(In<'a>) -> Res<'a, Option<&'a str>> + use<'a, 'l> {
    move |at| {
        let (i, n) = varint(at)?;
        let n = n as usize;
        if n == 0 {
            return Ok((i, None));
        }
        if n - 1 > lim.limits.max_string_bytes {
            return Err(PErr::at(
                at,
                BinaryErrorKind::LimitExceeded {
                    limit: "max_string_bytes",
                    value: (n - 1) as u64,
                    max: lim.limits.max_string_bytes as u64,
                },
            ));
        }
        let (i, bytes) = take(i, n - 1)?;
        match std::str::from_utf8(bytes) {
            Ok(s) => Ok((i, Some(s))),
            Err(_) => Err(PErr::at(at, BinaryErrorKind::InvalidUtf8)),
        }
    }
}

/// Length-prefixed string, owned.
#[inline]
pub(crate) fn string<'a, 'l>(
    lim: &'l Lim,
) -> impl Fn(In<'a>) -> Res<'a, Option<String>> + use<'a, 'l> {
    move |i| {
        let (i, s) = str(lim)(i)?;
        Ok((i, s.map(str::to_owned)))
    }
}

/// A string that must be present (a name): `None` on the wire is an error.
#[inline]
pub(crate) fn name<'a, 'l>(
    lim: &'l Lim,
    what: &'static str,
) -> impl Fn(In<'a>) -> Res<'a, &'a str> + use<'a, 'l> {
    move |at| match str(lim)(at)? {
        (i, Some(s)) => Ok((i, s)),
        (_, None) => Err(PErr::invalid(at, format!("{what} name is null"))),
    }
}

/// A string reference: `0` is none, `n` is `table[n - 1]`; checked against the table length.
#[inline(always)]
pub(crate) fn str_ref<'a>(table_len: usize) -> impl Fn(In<'a>) -> Res<'a, crate::binary::StrRef> {
    move |at| {
        let (i, n) = varint(at)?;
        if n as usize > table_len {
            return Err(PErr::at(
                at,
                BinaryErrorKind::IndexOutOfRange {
                    what: "string table",
                    index: u64::from(n - 1),
                    len: table_len,
                },
            ));
        }
        Ok((i, crate::binary::StrRef(n)))
    }
}

/// A byte enum read through `f`, which maps the known values.
#[inline]
pub(crate) fn enum_u8<'a, T>(
    what: &'static str,
    f: impl Fn(u8) -> Option<T>,
) -> impl Fn(In<'a>) -> Res<'a, T> {
    move |at| {
        let (i, v) = u8(at)?;
        match f(v) {
            Some(t) => Ok((i, t)),
            None => Err(PErr::bad_enum(at, what, i64::from(v))),
        }
    }
}

/// A varint enum read through `f`, which maps the known values.
#[inline]
pub(crate) fn enum_varint<'a, T>(
    what: &'static str,
    f: impl Fn(u32) -> Option<T>,
) -> impl Fn(In<'a>) -> Res<'a, T> {
    move |at| {
        let (i, v) = varint(at)?;
        match f(v) {
            Some(t) => Ok((i, t)),
            None => Err(PErr::bad_enum(at, what, i64::from(v))),
        }
    }
}

/// Fails unless the input is fully consumed.
pub(crate) fn expect_end(i: In<'_>) -> Res<'_, ()> {
    if i.is_empty() {
        Ok((i, ()))
    } else {
        Err(PErr::at(i, BinaryErrorKind::TrailingBytes { count: i.len() }))
    }
}
