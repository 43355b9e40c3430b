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

mod combinators;
mod prim;

pub(crate) use combinators::*;
pub(crate) use prim::*;

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
