//! Helpers shared by the converters: a string table being built, a problem collector with an
//! object path, name lookups, and curve timelines between the binary encoding (one key per
//! frame with the transition to the next) and JSON keys (`curve` on the key a segment
//! starts at).

use std::collections::HashMap;

use spine_format::binary::shared::{Channels, CurveKey, CurveTimeline, CurveType};
use spine_format::binary::StrRef;
use spine_format::json::{Curve, Key};

use crate::error::{Problem, ProblemKind};

/// A binary string table under construction: every distinct string once, in first-use order.
#[derive(Debug, Default)]
pub(crate) struct Strings {
    pub list: Vec<String>,
    index: HashMap<String, u32>,
}

impl Strings {
    /// The reference of `s` (added when new).
    pub fn get(&mut self, s: &str) -> StrRef {
        if let Some(&i) = self.index.get(s) {
            return StrRef(i + 1);
        }
        let i = self.list.len() as u32;
        self.list.push(s.to_owned());
        self.index.insert(s.to_owned(), i);
        StrRef(i + 1)
    }
    /// [`Strings::get`] for an optional string ([`StrRef::NONE`] for `None`).
    pub fn opt(&mut self, s: Option<&str>) -> StrRef {
        s.map_or(StrRef::NONE, |s| self.get(s))
    }
}

/// Problems found while converting, each with the object path it is about.
#[derive(Debug, Default)]
pub(crate) struct Problems {
    pub list: Vec<Problem>,
    path: Vec<String>,
}

impl Problems {
    /// Enters an object (`kind "name"`).
    pub fn enter(&mut self, kind: &str, name: &str) {
        self.path.push(format!("{kind} {name:?}"));
    }
    /// Leaves the innermost object.
    pub fn pop(&mut self) {
        self.path.pop();
    }
    /// Reports a problem at the current path.
    pub fn report(&mut self, kind: ProblemKind) {
        self.list.push(Problem { at: self.path.join(" > "), kind });
    }
    /// Reports an unknown name.
    pub fn unknown(&mut self, what: &'static str, name: &str) {
        self.report(ProblemKind::UnknownName { what, name: name.to_owned() });
    }
}

/// Name → index of a list; the first of equal names wins (as the runtimes' `find*`).
pub(crate) fn index_by_name<'a, T>(
    list: &'a [T],
    name: impl Fn(&'a T) -> &'a str,
) -> HashMap<&'a str, u32> {
    let mut m = HashMap::with_capacity(list.len());
    for (i, x) in list.iter().enumerate() {
        m.entry(name(x)).or_insert(i as u32);
    }
    m
}

/// JSON keys of a binary curve timeline: `value` maps each key's channels, the curve of each
/// segment goes on the key it starts at (`stepped`, or 4 numbers per channel).
pub(crate) fn curve_keys<V: Channels, T>(
    t: &CurveTimeline<V>,
    mut value: impl FnMut(&V) -> T,
) -> Vec<Key<T>> {
    let n = t.frames.len();
    t.frames
        .iter()
        .enumerate()
        .map(|(i, k)| Key {
            time: k.time,
            curve: if i + 1 < n { json_curve(k.curve, k.bezier.as_ref()) } else { None },
            value: value(&k.value),
        })
        .collect()
}

/// The JSON form of a segment curve.
pub(crate) fn json_curve(c: CurveType, beziers: &[[f32; 4]]) -> Option<Curve> {
    match c {
        CurveType::Linear => None,
        CurveType::Stepped => Some(Curve::Stepped),
        CurveType::Bezier => Some(Curve::Bezier(beziers.iter().flatten().copied().collect())),
    }
}

/// The binary form of a JSON key's curve with `channels` channels (a missing or short
/// bezier array reads as zeros, a string other than `stepped` as linear).
pub(crate) fn binary_curve(c: &Option<Curve>, channels: usize) -> (CurveType, Vec<[f32; 4]>) {
    match c {
        None | Some(Curve::Other(_)) => (CurveType::Linear, Vec::new()),
        Some(Curve::Stepped) => (CurveType::Stepped, Vec::new()),
        Some(Curve::Bezier(v)) => {
            let b = (0..channels)
                .map(|ch| {
                    let at = |i: usize| v.get(ch * 4 + i).copied().unwrap_or(0.0);
                    [at(0), at(1), at(2), at(3)]
                })
                .collect();
            (CurveType::Bezier, b)
        }
        Some(Curve::Number { c1, c2, c3, c4 }) => (
            CurveType::Bezier,
            (0..channels)
                .map(|_| [*c1, c2.unwrap_or(0.0), c3.unwrap_or(1.0), c4.unwrap_or(1.0)])
                .collect(),
        ),
    }
}

/// A binary curve timeline from JSON keys: `value` gives each key's channels.
pub(crate) fn curve_timeline<V: Channels, T>(
    keys: &[Key<T>],
    mut value: impl FnMut(&T) -> V,
) -> CurveTimeline<V> {
    let mut beziers = 0u32;
    let n = keys.len();
    let frames = keys
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let mut key = CurveKey::linear(k.time, value(&k.value));
            if i + 1 < n {
                let (curve, b) = binary_curve(&k.curve, V::COUNT);
                key.curve = curve;
                if curve == CurveType::Bezier {
                    beziers += V::COUNT as u32;
                    for (dst, src) in key.bezier.as_mut().iter_mut().zip(b) {
                        *dst = src;
                    }
                }
            }
            key
        })
        .collect();
    CurveTimeline { bezier_count: beziers, frames }
}

/// Unweighted `x, y` pairs or weighted `[count, (bone, x, y, weight) × count]` per vertex,
/// as JSON writes vertices.
pub(crate) fn flat_weighted<I>(vertices: I) -> Vec<f32>
where
    I: IntoIterator,
    I::Item: IntoIterator<Item = (u32, f32, f32, f32)>,
    <I::Item as IntoIterator>::IntoIter: ExactSizeIterator,
{
    let mut out = Vec::new();
    for v in vertices {
        let it = v.into_iter();
        out.push(it.len() as f32);
        for (bone, x, y, w) in it {
            out.extend([bone as f32, x, y, w]);
        }
    }
    out
}

/// One bone influence of a weighted vertex: bone index, bind x, bind y, weight.
pub(crate) type Influence = (u32, f32, f32, f32);

/// Splits JSON weighted vertices into per-vertex `(bone, x, y, weight)` lists; `None` when
/// the array is not a valid weighted list.
pub(crate) fn split_weighted(v: &[f32]) -> Option<Vec<Vec<Influence>>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let n = v[i];
        if !(n >= 0.0 && n.fract() == 0.0) {
            return None;
        }
        let n = n as usize;
        i += 1;
        let end = i.checked_add(n.checked_mul(4)?)?;
        let chunk = v.get(i..end)?;
        let mut list = Vec::with_capacity(n);
        for b in chunk.chunks_exact(4) {
            if !(b[0] >= 0.0 && b[0].fract() == 0.0) {
                return None;
            }
            list.push((b[0] as u32, b[1], b[2], b[3]));
        }
        out.push(list);
        i = end;
    }
    Some(out)
}

/// The JSON text of a float as the writers print it (shortest round trip).
pub(crate) fn byte_of(v: f32) -> u8 {
    (v * 255.0).round().clamp(0.0, 255.0) as u8
}

/// Keeps one item per key with JavaScript object semantics (what a JSON loader built on
/// `JSON.parse` sees when a key is written twice): the first position, the last value.
pub(crate) fn last_wins<K: std::hash::Hash + Eq, T>(
    items: impl IntoIterator<Item = (K, T)>,
) -> Vec<T> {
    let mut at = HashMap::new();
    let mut out: Vec<T> = Vec::new();
    for (k, t) in items {
        match at.get(&k) {
            Some(&i) => out[i] = t,
            None => {
                at.insert(k, out.len());
                out.push(t);
            }
        }
    }
    out
}

/// Groups named timeline lists by name (JSON object keys are unique): the timelines of
/// every group of one name, then one timeline per JSON key (`key`, [`last_wins`]).
pub(crate) fn merge_named<T, K: std::hash::Hash + Eq>(
    items: Vec<spine_format::json::Named<Vec<T>>>,
    key: impl Fn(&T) -> K,
) -> Vec<spine_format::json::Named<Vec<T>>> {
    let mut at: HashMap<String, usize> = HashMap::new();
    let mut out: Vec<spine_format::json::Named<Vec<T>>> = Vec::new();
    for n in items {
        match at.get(n.name.as_str()) {
            Some(&i) => out[i].timelines.extend(n.timelines),
            None => {
                at.insert(n.name.to_string(), out.len());
                out.push(n);
            }
        }
    }
    for n in &mut out {
        let list = std::mem::take(&mut n.timelines);
        n.timelines = last_wins(list.into_iter().map(|t| (key(&t), t)));
    }
    out
}

/// [`last_wins`] for named key lists (one list per name).
pub(crate) fn unique_named<T>(
    items: Vec<spine_format::json::Named<T>>,
) -> Vec<spine_format::json::Named<T>> {
    last_wins(items.into_iter().map(|n| (n.name.clone(), n)))
}
