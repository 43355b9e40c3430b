//! An order-preserving JSON tree (deserialized with serde_json) and path-tracking accessors.
//!
//! The Spine loaders walk JSON objects in document order (bone timelines, skins in the 3.x object
//! form, events…), so objects are kept as ordered entry lists; duplicate keys are kept too, and
//! lookups return the first one, as libgdx `JsonValue.get` does. A `null` value counts as absent
//! (libgdx `getFloat(name, default)` returns the default for it).

use super::JsonError;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// A JSON value with ordered objects.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum J {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

impl J {
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            J::Null => "null",
            J::Bool(_) => "a boolean",
            J::Num(_) => "a number",
            J::Str(_) => "a string",
            J::Arr(_) => "an array",
            J::Obj(_) => "an object",
        }
    }
}

impl serde::Serialize for J {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            J::Null => s.serialize_unit(),
            J::Bool(b) => s.serialize_bool(*b),
            // Integral values print without a fraction, as the Spine editor writes them.
            J::Num(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => s.serialize_i64(*n as i64),
            J::Num(n) => s.serialize_f64(*n),
            J::Str(x) => s.serialize_str(x),
            J::Arr(a) => {
                let mut seq = s.serialize_seq(Some(a.len()))?;
                for x in a {
                    seq.serialize_element(x)?;
                }
                seq.end()
            }
            J::Obj(o) => {
                let mut map = s.serialize_map(Some(o.len()))?;
                for (k, x) in o {
                    map.serialize_entry(k, x)?;
                }
                map.end()
            }
        }
    }
}

struct JVisitor;

impl<'de> Visitor<'de> for JVisitor {
    type Value = J;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<J, E> {
        Ok(J::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<J, E> {
        Ok(J::Num(v as f64))
    }
    fn visit_u64<E>(self, v: u64) -> Result<J, E> {
        Ok(J::Num(v as f64))
    }
    fn visit_f64<E>(self, v: f64) -> Result<J, E> {
        Ok(J::Num(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<J, E> {
        Ok(J::Str(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<J, E> {
        Ok(J::Str(v))
    }
    fn visit_unit<E>(self) -> Result<J, E> {
        Ok(J::Null)
    }
    fn visit_none<E>(self) -> Result<J, E> {
        Ok(J::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<J, A::Error> {
        let mut v = Vec::new();
        while let Some(x) = seq.next_element()? {
            v.push(x);
        }
        Ok(J::Arr(v))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<J, A::Error> {
        let mut v = Vec::new();
        while let Some((k, x)) = map.next_entry::<String, J>()? {
            v.push((k, x));
        }
        Ok(J::Obj(v))
    }
}

impl<'de> Deserialize<'de> for J {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<J, D::Error> {
        d.deserialize_any(JVisitor)
    }
}

/// One step of a JSON path.
#[derive(Clone, Copy)]
enum Seg<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

/// A JSON path as a linked list on the stack; rendered only for errors.
#[derive(Clone, Copy)]
pub(crate) struct P<'a> {
    parent: Option<&'a P<'a>>,
    seg: Seg<'a>,
}

impl<'a> P<'a> {
    pub(crate) const ROOT: P<'static> = P { parent: None, seg: Seg::Root };

    pub(crate) fn key(&'a self, k: &'a str) -> P<'a> {
        P { parent: Some(self), seg: Seg::Key(k) }
    }
    pub(crate) fn idx(&'a self, i: usize) -> P<'a> {
        P { parent: Some(self), seg: Seg::Index(i) }
    }
    /// The index when the last segment is an array index.
    pub(crate) fn last_index(&self) -> Option<usize> {
        match self.seg {
            Seg::Index(i) => Some(i),
            _ => None,
        }
    }
    /// `animations.run.bones.hip.rotate[3].curve`; `(root)` for the document itself.
    pub(crate) fn render(&self) -> String {
        let mut segs = Vec::new();
        let mut cur = Some(self);
        while let Some(p) = cur {
            segs.push(p.seg);
            cur = p.parent;
        }
        let mut s = String::new();
        for seg in segs.iter().rev() {
            match seg {
                Seg::Root => {}
                Seg::Key(k) => {
                    if !s.is_empty() {
                        s.push('.');
                    }
                    s.push_str(k);
                }
                Seg::Index(i) => s.push_str(&format!("[{i}]")),
            }
        }
        if s.is_empty() {
            s.push_str("(root)");
        }
        s
    }
    pub(crate) fn err(&self, message: impl Into<String>) -> JsonError {
        JsonError { path: self.render(), message: message.into() }
    }
    pub(crate) fn expected(&self, what: &str, found: &J) -> JsonError {
        self.err(format!("expected {what}, found {}", found.kind()))
    }
}

pub(crate) type R<T> = Result<T, JsonError>;

pub(crate) fn as_f32(v: &J, p: &P) -> R<f32> {
    match v {
        J::Num(n) if (*n as f32).is_finite() => Ok(*n as f32),
        J::Num(n) => Err(p.err(format!("number {n} is out of the 32-bit float range"))),
        _ => Err(p.expected("a number", v)),
    }
}

pub(crate) fn as_i32(v: &J, p: &P) -> R<i32> {
    match v {
        J::Num(n) if n.fract() == 0.0 && *n >= f64::from(i32::MIN) && *n <= f64::from(i32::MAX) => {
            Ok(*n as i32)
        }
        J::Num(n) => Err(p.err(format!("expected a 32-bit integer, found {n}"))),
        _ => Err(p.expected("an integer", v)),
    }
}

pub(crate) fn as_u32(v: &J, p: &P) -> R<u32> {
    match v {
        J::Num(n) if n.fract() == 0.0 && *n >= 0.0 && *n <= f64::from(u32::MAX) => Ok(*n as u32),
        J::Num(n) => Err(p.err(format!("expected a non-negative integer, found {n}"))),
        _ => Err(p.expected("a non-negative integer", v)),
    }
}

pub(crate) fn as_str<'a>(v: &'a J, p: &P) -> R<&'a str> {
    match v {
        J::Str(s) => Ok(s),
        _ => Err(p.expected("a string", v)),
    }
}

/// `RRGGBBAA` (or `RRGGBB`, alpha 255) hex as bytes, as libgdx `Color.valueOf` reads it.
pub(crate) fn as_color(v: &J, p: &P) -> R<[u8; 4]> {
    let s = as_str(v, p)?;
    let s = s.strip_prefix('#').unwrap_or(s);
    let bad = || p.err(format!("expected an RRGGBBAA or RRGGBB hex color, found {s:?}"));
    if !(s.len() == 8 || s.len() == 6) || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(bad());
    }
    let mut out = [255u8; 4];
    for (i, o) in out.iter_mut().enumerate().take(s.len() / 2) {
        let pair = s.get(i * 2..i * 2 + 2).ok_or_else(bad)?;
        *o = u8::from_str_radix(pair, 16).map_err(|_| bad())?;
    }
    Ok(out)
}

/// Maps each element of an array.
pub(crate) fn each<T>(v: &J, p: &P, mut f: impl FnMut(&J, &P) -> R<T>) -> R<Vec<T>> {
    let J::Arr(items) = v else { return Err(p.expected("an array", v)) };
    let mut out = Vec::with_capacity(items.len());
    for (i, x) in items.iter().enumerate() {
        out.push(f(x, &p.idx(i))?);
    }
    Ok(out)
}

/// Maps each entry of an object, in document order.
pub(crate) fn each_named<T>(v: &J, p: &P, mut f: impl FnMut(&str, &J, &P) -> R<T>) -> R<Vec<T>> {
    let J::Obj(items) = v else { return Err(p.expected("an object", v)) };
    let mut out = Vec::with_capacity(items.len());
    for (k, x) in items {
        out.push(f(k, x, &p.key(k))?);
    }
    Ok(out)
}

/// An object being read, with its path.
#[derive(Clone, Copy)]
pub(crate) struct Obj<'a> {
    entries: &'a [(String, J)],
    pub(crate) p: &'a P<'a>,
}

impl<'a> Obj<'a> {
    pub(crate) fn new(v: &'a J, p: &'a P<'a>) -> R<Obj<'a>> {
        match v {
            J::Obj(entries) => Ok(Obj { entries, p }),
            _ => Err(p.expected("an object", v)),
        }
    }
    /// The first value named `k`, `None` when absent or `null`.
    pub(crate) fn get(&self, k: &str) -> Option<&'a J> {
        self.entries.iter().find(|(n, _)| n == k).map(|(_, v)| v).filter(|v| **v != J::Null)
    }
    pub(crate) fn has(&self, k: &str) -> bool {
        self.get(k).is_some()
    }
    /// Reads an optional value with `f`.
    pub(crate) fn opt<T>(&self, k: &str, f: impl FnOnce(&J, &P) -> R<T>) -> R<Option<T>> {
        match self.get(k) {
            None => Ok(None),
            Some(v) => f(v, &self.p.key(k)).map(Some),
        }
    }
    /// Reads a required value with `f`.
    pub(crate) fn req<T>(&self, k: &str, f: impl FnOnce(&J, &P) -> R<T>) -> R<T> {
        match self.get(k) {
            None => Err(self.p.err(format!("missing required field `{k}`"))),
            Some(v) => f(v, &self.p.key(k)),
        }
    }
    pub(crate) fn f32(&self, k: &str) -> R<Option<f32>> {
        self.opt(k, as_f32)
    }
    pub(crate) fn i32(&self, k: &str) -> R<Option<i32>> {
        self.opt(k, as_i32)
    }
    pub(crate) fn bool(&self, k: &str) -> R<Option<bool>> {
        self.opt(k, |v, p| match v {
            J::Bool(b) => Ok(*b),
            _ => Err(p.expected("true or false", v)),
        })
    }
    pub(crate) fn string(&self, k: &str) -> R<Option<String>> {
        self.opt(k, |v, p| as_str(v, p).map(str::to_owned))
    }
    pub(crate) fn req_string(&self, k: &str) -> R<String> {
        self.req(k, |v, p| as_str(v, p).map(str::to_owned))
    }
    pub(crate) fn color(&self, k: &str) -> R<Option<[u8; 4]>> {
        self.opt(k, as_color)
    }
    pub(crate) fn floats(&self, k: &str) -> R<Option<Vec<f32>>> {
        self.opt(k, |v, p| each(v, p, as_f32))
    }
    pub(crate) fn strings(&self, k: &str) -> R<Vec<String>> {
        Ok(self
            .opt(k, |v, p| each(v, p, |x, p| as_str(x, p).map(str::to_owned)))?
            .unwrap_or_default())
    }
}
