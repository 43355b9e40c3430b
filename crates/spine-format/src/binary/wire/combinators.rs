//! The structure combinators: sections, named items, counted lists and timeline groups
//! (errors gather their path only while unwinding).

use super::*;

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
