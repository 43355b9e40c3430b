//! The binary readers' nom layer: primitive parsers over `&[u8]` and the combinators the
//! readers of every generation are built from.
//!
//! * **Primitives** are nom parsers (`fn(&'a [u8]) -> IResult<&'a [u8], T, PErr>`, or
//!   functions returning one when they take a parameter): big-endian numbers read with
//!   `from_be_bytes` (nom's `be_f32` cost a quarter of the parse time), varints, strings,
//!   string references, indices and counts checked against [`Limits`] and the bytes left.
//! * **Structure** is nom: [`list`] / [`items`] are the counted lists (the count checked before
//!   anything is reserved, then a fill into a vector reserved for exactly that many), [`each`]
//!   the same for items read into a sink, [`groups`] a list of timeline groups; [`section`] is
//!   nom's `context`, optional fields are nom's `cond`.
//! * **Streaming** (4.0–4.2): a curve timeline's keys are handed to a sink unread; an error of
//!   their read gets the path above the timeline from an [`Above`] closure, so the sink is
//!   handed the whole error, and the animation reader unwinds with the same one.
//! * **Errors** ([`PErr`], private to the crate) record where a read failed as the input left
//!   at that point, and gather the section path only while an error unwinds
//!   (`ContextError::add_context` for sections, [`items`] for `label[i]`, [`named`] for an
//!   item's name), so the parse itself keeps no path. [`PErr::into_binary`] turns one into the
//!   public [`BinaryError`] (offset = input length − bytes left).

use nom::error::{ContextError, ErrorKind, ParseError};
use nom::{IResult, Parser};

use crate::error::{render_path, BinaryError, BinaryErrorKind};
use crate::Limits;

/// The input: the bytes not yet read (a suffix of the file).
pub(crate) type In<'a> = &'a [u8];

/// What every parser of this layer returns.
pub(crate) type Res<'a, T> = IResult<In<'a>, T, PErr>;

/// A failed read, boxed so a parser's result stays small.
#[derive(Debug, Clone)]
pub(crate) struct PErr(Box<Inner>);

#[derive(Debug, Clone)]
enum Inner {
    /// A read of this layer failed.
    Wire {
        /// Bytes left in the input where the failing read began.
        rest: usize,
        kind: BinaryErrorKind,
        /// The section path, innermost first (added while unwinding).
        path: Vec<Seg>,
        /// The name of the innermost item, for the item segment added next.
        name: Option<String>,
    },
    /// An error a caller's sink returned: passed through as it is.
    Foreign(BinaryError),
}

/// One step of a section path (owned: errors outlive the input).
#[derive(Debug, Clone)]
struct Seg {
    label: &'static str,
    index: Option<usize>,
    name: Option<String>,
}

impl PErr {
    /// An error of `kind` at the input `at` (the bytes left where the read began).
    #[cold]
    #[inline(never)]
    pub fn at(at: In<'_>, kind: BinaryErrorKind) -> nom::Err<PErr> {
        Self::at_rest(at.len(), kind)
    }

    /// An error of `kind` where `rest` bytes were left.
    #[cold]
    #[inline(never)]
    pub fn at_rest(rest: usize, kind: BinaryErrorKind) -> nom::Err<PErr> {
        nom::Err::Error(PErr(Box::new(Inner::Wire { rest, kind, path: Vec::new(), name: None })))
    }

    /// A [`BinaryErrorKind::Invalid`] error at `at`.
    #[cold]
    #[inline(never)]
    pub fn invalid(at: In<'_>, msg: impl Into<String>) -> nom::Err<PErr> {
        Self::at(at, BinaryErrorKind::Invalid(msg.into()))
    }

    /// A [`BinaryErrorKind::BadEnum`] error at `at`.
    #[cold]
    #[inline(never)]
    pub fn bad_enum(at: In<'_>, what: &'static str, value: i64) -> nom::Err<PErr> {
        Self::at(at, BinaryErrorKind::BadEnum { what, value })
    }

    /// An error a sink returned, passed through untouched.
    #[cold]
    pub fn foreign(e: BinaryError) -> nom::Err<PErr> {
        nom::Err::Error(PErr(Box::new(Inner::Foreign(e))))
    }

    fn push(mut self, label: &'static str, index: Option<usize>) -> Self {
        if let Inner::Wire { path, name, .. } = &mut *self.0 {
            let name = if index.is_some() { name.take() } else { None };
            path.push(Seg { label, index, name });
        }
        self
    }

    /// What unwinding out of item `label[index]` adds ([`items`], [`item`]).
    #[cold]
    pub fn in_item(self, label: &'static str, index: usize) -> Self {
        self.push(label, Some(index))
    }

    /// What unwinding out of section `label` adds ([`section`]).
    #[cold]
    pub fn in_section(self, label: &'static str) -> Self {
        self.push(label, None)
    }

    /// What unwinding out of an item named `item` adds ([`named`]).
    #[cold]
    pub fn in_named(mut self, item: &str) -> Self {
        if let Inner::Wire { name, .. } = &mut *self.0 {
            *name = Some(item.to_owned());
        }
        self
    }

    /// The public error, for an input of `total` bytes.
    #[cold]
    pub fn into_binary(self, total: usize) -> BinaryError {
        match *self.0 {
            Inner::Foreign(e) => e,
            Inner::Wire { rest, kind, path, .. } => {
                let segs: Vec<crate::error::Seg<'_>> = path
                    .iter()
                    .rev()
                    .map(|s| crate::error::Seg {
                        label: s.label,
                        index: s.index,
                        name: s.name.as_deref(),
                    })
                    .collect();
                let section = render_path(&segs);
                BinaryError { offset: total.saturating_sub(rest), section, kind }
            }
        }
    }
}

impl<'a> ParseError<In<'a>> for PErr {
    fn from_error_kind(input: In<'a>, kind: ErrorKind) -> Self {
        match PErr::at(input, BinaryErrorKind::Invalid(format!("{kind:?}"))) {
            nom::Err::Error(e) | nom::Err::Failure(e) => e,
            nom::Err::Incomplete(_) => unreachable!("PErr::at makes an error"),
        }
    }
    fn append(_: In<'a>, _: ErrorKind, other: Self) -> Self {
        other
    }
}

impl<'a> ContextError<In<'a>> for PErr {
    /// A section: `label`.
    fn add_context(_: In<'a>, label: &'static str, other: Self) -> Self {
        other.push(label, None)
    }
}

/// The section path above a parser that hands its input to a caller (a streamed timeline):
/// adds to an error what unwinding out to the top would, so the error the caller is handed
/// is already the whole one.
pub(crate) type Above<'p> = &'p dyn Fn(PErr) -> PErr;

/// Converts a parse result to the public one, for an input of `total` bytes.
pub(crate) fn finish<T>(r: Res<'_, T>, total: usize) -> Result<T, BinaryError> {
    match r {
        Ok((_, v)) => Ok(v),
        Err(e) => Err(into_binary(e, total)),
    }
}

/// The public error of a failed parser, for an input of `total` bytes.
#[cold]
pub(crate) fn into_binary(e: nom::Err<PErr>, total: usize) -> BinaryError {
    match e {
        nom::Err::Error(e) | nom::Err::Failure(e) => e.into_binary(total),
        nom::Err::Incomplete(_) => BinaryError {
            offset: total,
            section: "header".to_owned(),
            kind: BinaryErrorKind::UnexpectedEof { needed: 1, remaining: 0 },
        },
    }
}

/// A section of the file: errors inside it get `label` in their path (nom's `context`).
#[inline(always)]
pub(crate) fn section<'a, P>(
    label: &'static str,
    parser: P,
) -> impl Parser<In<'a>, Output = P::Output, Error = PErr>
where
    P: Parser<In<'a>, Error = PErr>,
{
    nom::error::context(label, parser)
}

/// Runs `f` on `i`; an error it returns names the item being read `name`
/// (`animations[3] "run"`).
#[inline(always)]
pub(crate) fn named<'a, T>(
    name: &str,
    i: In<'a>,
    f: impl FnOnce(In<'a>) -> Res<'a, T>,
) -> Res<'a, T> {
    f(i).map_err(|e| name_error(e, name))
}

#[cold]
#[inline(never)]
fn name_error(e: nom::Err<PErr>, item: &str) -> nom::Err<PErr> {
    e.map(|e| e.in_named(item))
}

#[cold]
#[inline(never)]
fn item_error(e: nom::Err<PErr>, label: &'static str, index: usize) -> nom::Err<PErr> {
    e.map(|e| e.push(label, Some(index)))
}

/// Adds `label[index]` to the path of an error (an item read outside [`items`]).
#[inline(always)]
pub(crate) fn item<'a, T>(
    label: &'static str,
    index: usize,
    i: In<'a>,
    f: impl FnOnce(In<'a>) -> Res<'a, T>,
) -> Res<'a, T> {
    f(i).map_err(|e| item_error(e, label, index))
}

/// `n` items (a count already checked against the input), each read by `item` with its
/// index for its effect (into a sink); an error in item `i` gets `label[i]` in its path
/// (nothing with `label` `None`).
#[inline(always)]
pub(crate) fn each<'a, F>(
    n: usize,
    label: Option<&'static str>,
    mut item: F,
) -> impl FnMut(In<'a>) -> Res<'a, ()>
where
    F: FnMut(In<'a>, usize) -> Res<'a, ()>,
{
    move |mut i: In<'a>| {
        for k in 0..n {
            match item(i, k) {
                Ok((rest, ())) => i = rest,
                Err(e) => {
                    return Err(match label {
                        Some(l) => item_error(e, l, k),
                        None => e,
                    })
                }
            }
        }
        Ok((i, ()))
    }
}

/// [`each`] collecting the items into a vector reserved for them.
#[inline(always)]
pub(crate) fn items<'a, T, F>(
    n: usize,
    label: Option<&'static str>,
    mut item: F,
) -> impl FnMut(In<'a>) -> Res<'a, Vec<T>>
where
    F: FnMut(In<'a>, usize) -> Res<'a, T>,
{
    move |i: In<'a>| {
        let mut out = Vec::with_capacity(n);
        let (i, ()) = each(n, label, |i, k| {
            let (i, v) = item(i, k)?;
            out.push(v);
            Ok((i, ()))
        })(i)?;
        Ok((i, out))
    }
}

/// The counted list: a varint count of `what` (each item at least `min_bytes` on the wire)
/// checked against the input and the limits, then [`items`].
#[inline(always)]
pub(crate) fn list<'a, 'l, T, F>(
    lim: &'l Lim,
    what: &'static str,
    min_bytes: usize,
    label: Option<&'static str>,
    item: F,
) -> impl FnMut(In<'a>) -> Res<'a, Vec<T>> + use<'a, 'l, T, F>
where
    F: FnMut(In<'a>, usize) -> Res<'a, T>,
{
    let mut item = item;
    move |i: In<'a>| {
        let (i, n) = count(lim, what, min_bytes)(i)?;
        items(n, label, &mut item)(i)
    }
}

/// Items read until they have used exactly `budget` units: `item` is given the units left
/// and returns its item with its cost, which must be from 1 to the units left (an item
/// that would overrun fails itself, with its own message; a cost out of that range is
/// [`BinaryErrorKind::Invalid`] at the item). The 4.3 weighted vertices' `bonesLength`:
/// groups of a count and its influences until that many entries are read.
#[inline(always)]
pub(crate) fn budgeted<'a, T, F>(
    budget: usize,
    capacity: usize,
    mut item: F,
) -> impl FnMut(In<'a>) -> Res<'a, Vec<T>>
where
    F: FnMut(In<'a>, usize) -> Res<'a, (T, usize)>,
{
    move |mut i: In<'a>| {
        let mut out = Vec::with_capacity(capacity);
        let mut left = budget;
        while left > 0 {
            let at = i;
            let (rest, (v, cost)) = item(i, left)?;
            if cost == 0 || cost > left {
                return Err(PErr::invalid(at, format!("item of {cost} units, {left} left")));
            }
            left -= cost;
            out.push(v);
            i = rest;
        }
        Ok((i, out))
    }
}

/// A list of timeline groups (`what`, each labelled `label[i]`): per group a key read by
/// `key`, then a counted list of `timelines` (`(what, fewest bytes)`, labelled
/// `timelines[k]`) read by `item`; `make` builds the group.
#[inline(always)]
pub(crate) fn groups<'a, 'l, K, T, G, KF, TF, MF>(
    lim: &'l Lim,
    (what, label): (&'static str, &'static str),
    key: KF,
    timelines: (&'static str, usize),
    mut item: TF,
    make: MF,
) -> impl FnMut(In<'a>) -> Res<'a, Vec<G>> + use<'a, 'l, K, T, G, KF, TF, MF>
where
    KF: Fn(In<'a>) -> Res<'a, K>,
    TF: FnMut(In<'a>, usize) -> Res<'a, T>,
    MF: Fn(K, Vec<T>) -> G,
{
    list(lim, what, 2, Some(label), move |i, _| {
        let (i, k) = key(i)?;
        let (i, t) = list(lim, timelines.0, timelines.1, Some("timelines"), &mut item)(i)?;
        Ok((i, make(k, t)))
    })
}

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

/// Appends `n` unsigned varints to `out` (the caller has checked the count against the
/// input): runs of one-byte values are copied in one pass, longer ones go through [`varint`].
pub(crate) fn varints_into<'a>(mut i: In<'a>, n: usize, out: &mut Vec<u32>) -> Res<'a, ()> {
    out.reserve(n);
    let mut left = n;
    while left > 0 {
        let run = i.iter().take(left).take_while(|&&b| b < 0x80).count();
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
pub(crate) fn str_ref<'a>(table_len: usize) -> impl Fn(In<'a>) -> Res<'a, super::StrRef> {
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
        Ok((i, super::StrRef(n)))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::binary::prim::Writer;

    fn kind<T: std::fmt::Debug>(r: Res<'_, T>, total: usize) -> BinaryErrorKind {
        into_binary(r.unwrap_err(), total).kind
    }

    #[test]
    fn varint_round_trips_and_rejects_bad_encodings() {
        for v in [0u32, 1, 127, 128, 300, 16_383, 16_384, 0x0fff_ffff, 0xffff_fffe, u32::MAX] {
            let mut w = Writer::default();
            w.varint(v);
            let bytes = w.finish();
            let (rest, got) = varint(&bytes).unwrap();
            assert_eq!(got, v);
            assert!(rest.is_empty());
        }
        let k = |b: &[u8]| kind(varint(b), b.len());
        assert_eq!(k(&[0x80, 0x00]), BinaryErrorKind::NonCanonicalVarint);
        assert_eq!(k(&[0xff, 0xff, 0xff, 0xff, 0x80]), BinaryErrorKind::VarintTooLong);
        assert_eq!(k(&[0xff, 0xff, 0xff, 0xff, 0x1f]), BinaryErrorKind::VarintOverflow);
        assert!(matches!(k(&[0x80]), BinaryErrorKind::UnexpectedEof { .. }));
    }

    #[test]
    fn zigzag_round_trips() {
        for v in [0i32, -1, 1, -64, 64, i32::MIN, i32::MAX] {
            let mut w = Writer::default();
            w.varint_signed(v);
            let bytes = w.finish();
            assert_eq!(varint_signed(&bytes).unwrap().1, v);
        }
    }

    #[test]
    fn counts_are_checked_against_remaining_input() {
        let mut w = Writer::default();
        w.varint(50_000);
        let bytes = w.finish();
        let lim = Lim::new(Limits::default());
        let k = kind(count(&lim, "bones", 1)(&bytes), bytes.len());
        assert!(matches!(k, BinaryErrorKind::CountTooLarge { count: 50_000, .. }));
    }

    #[test]
    fn errors_carry_offsets_and_paths_added_while_unwinding() {
        let bytes = [3u8, b'h', b'i', 3, 0xff, 0xfe];
        let lim = Lim::new(Limits::default());
        let (rest, s) = str(&lim)(&bytes).unwrap();
        assert_eq!(s, Some("hi"));
        let r = section("bones", |i| item("bones", 2, i, |i| named("b", i, str(&lim)))).parse(rest);
        let e = into_binary(r.unwrap_err(), bytes.len());
        assert_eq!(e.offset, 3);
        assert_eq!(e.section, "bones > bones[2] \"b\"");
        assert_eq!(e.kind, BinaryErrorKind::InvalidUtf8);
    }
}
