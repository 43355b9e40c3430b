//! A purpose-built JSON reader: one pass over the bytes into a flat, borrowed document, and
//! path-tracking accessors over it.
//!
//! [`Doc::parse`] checks the JSON grammar (RFC 8259) and stores every value as one [`Node`] of a
//! single vector, in document order: a container is followed by its items (an object by
//! key/value node pairs) and records where its subtree ends, so walking it needs no nested
//! allocations. Strings borrow the text unless they contain escapes (those are decoded once into
//! one side buffer); numbers are parsed as they are scanned. The parser is iterative, so hostile
//! nesting cannot overflow the stack; it stops at [`MAX_DEPTH`] levels like serde_json did.
//!
//! The document is bounded while it is read: [`Limits::max_json_values`] caps the node vector
//! (16 bytes a value; its capacity never grows past the limit) and
//! [`Limits::max_string_bytes`] every string, so the memory of a hostile text is bounded before
//! any skeleton field is read. The accessors then check array and object lengths against the
//! count limits ([`check_count`]) before anything is allocated for them.
//!
//! The Spine loaders walk JSON objects in document order (bone timelines, skins in the 3.x object
//! form, events…), so objects keep their entry order; duplicate keys are kept too, and lookups
//! return the first one, as libgdx `JsonValue.get` does. A `null` value counts as absent
//! (libgdx `getFloat(name, default)` returns the default for it).

mod parser;
#[cfg(test)]
mod tests;

use super::{JsonError, JsonErrorKind};
use crate::Limits;
use parser::Parser;

/// Deepest nesting of arrays and objects accepted (serde_json's default recursion limit).
pub(crate) const MAX_DEPTH: usize = 128;

/// One value of a [`Doc`]. Scalars span one node; a container spans itself and its items up to
/// (not including) `end`.
#[derive(Debug, Clone, Copy)]
enum Node {
    Null,
    Bool(bool),
    Num(f64),
    /// An escape-free string: `text[start..start + len]`.
    Str {
        start: u32,
        len: u32,
    },
    /// A string with escapes, decoded: `Doc::decoded[start..start + len]`.
    Esc {
        start: u32,
        len: u32,
    },
    /// An object key, escape-free: `text[start..start + len]`; its value ends before node
    /// `next`, where the object's next key (or the object's end) is, so lookups skip an entry
    /// without looking at its value.
    Key {
        start: u32,
        len: u32,
        next: u32,
    },
    /// An object key with escapes, decoded (as [`Node::Esc`]), and `next` as [`Node::Key`].
    EscKey {
        start: u32,
        len: u32,
        next: u32,
    },
    /// An array of `count` items.
    Arr {
        count: u32,
        end: u32,
    },
    /// An object of `count` key/value pairs (the key nodes are always strings).
    Obj {
        count: u32,
        end: u32,
    },
}

/// A parsed JSON document borrowing its text.
pub(crate) struct Doc<'t> {
    text: &'t str,
    nodes: Vec<Node>,
    /// The decoded text of every string with escapes, one after the other.
    decoded: String,
    /// The limits the accessors check counts against.
    limits: Limits,
    /// [`Limits::min_count`]: counts at or below it pass every count check.
    min_count: usize,
}

impl<'t> Doc<'t> {
    /// Parses `text` within `limits` (file size, values, string lengths); errors say what
    /// was expected, with the line, column and byte offset.
    pub(crate) fn parse(text: &'t str, limits: &Limits) -> Result<Doc<'t>, JsonError> {
        if text.len() > limits.max_file_bytes {
            let (value, max) = (text.len() as u64, limits.max_file_bytes as u64);
            return Err(JsonError::limit("(root)".into(), "max_file_bytes", value, max));
        }
        let (nodes, decoded) =
            if text.len() > limits.max_json_values || text.len() > limits.max_string_bytes {
                Parser::<true>::run(text, limits)?
            } else {
                Parser::<false>::run(text, limits)?
            };
        Ok(Doc { text, nodes, decoded, limits: *limits, min_count: limits.min_count() })
    }

    /// The root value.
    pub(crate) fn root(&self) -> J<'_> {
        J { doc: self, i: 0 }
    }

    /// The value [`J::index`] returned.
    pub(crate) fn at(&self, index: usize) -> J<'_> {
        J { doc: self, i: index }
    }

    fn node(&self, i: usize) -> Node {
        self.nodes.get(i).copied().unwrap_or(Node::Null)
    }

    /// One past the last node of the subtree at `i`.
    fn end(&self, i: usize) -> usize {
        match self.node(i) {
            Node::Arr { end, .. } | Node::Obj { end, .. } => end as usize,
            _ => i + 1,
        }
    }

    /// Whether the decoded string at `start..start + len` is `k` (escaped keys are rare: out of
    /// line, so that `Obj::get`'s loop stays small).
    #[cold]
    #[inline(never)]
    fn decoded_eq(&self, start: u32, len: u32, k: &str) -> bool {
        self.decoded.get(start as usize..start as usize + len as usize).is_some_and(|s| s == k)
    }

    fn str_at(&self, i: usize) -> Option<&str> {
        match self.node(i) {
            Node::Str { start, len } | Node::Key { start, len, .. } => {
                let s = start as usize;
                self.text.get(s..s + len as usize)
            }
            Node::Esc { start, len } | Node::EscKey { start, len, .. } => {
                let s = start as usize;
                self.decoded.get(s..s + len as usize)
            }
            _ => None,
        }
    }
}

/// A value of a [`Doc`] (a cheap copyable handle).
#[derive(Clone, Copy)]
pub(crate) struct J<'d> {
    doc: &'d Doc<'d>,
    i: usize,
}

impl<'d> J<'d> {
    fn node(&self) -> Node {
        self.doc.node(self.i)
    }
    /// Where the value is in its document ([`Doc::at`]).
    pub(crate) fn index(&self) -> usize {
        self.i
    }
    pub(crate) fn kind(&self) -> &'static str {
        match self.node() {
            Node::Null => "null",
            Node::Bool(_) => "a boolean",
            Node::Num(_) => "a number",
            Node::Str { .. } | Node::Esc { .. } | Node::Key { .. } | Node::EscKey { .. } => {
                "a string"
            }
            Node::Arr { .. } => "an array",
            Node::Obj { .. } => "an object",
        }
    }
    pub(crate) fn num(&self) -> Option<f64> {
        match self.node() {
            Node::Num(n) => Some(n),
            _ => None,
        }
    }
    pub(crate) fn bool(&self) -> Option<bool> {
        match self.node() {
            Node::Bool(b) => Some(b),
            _ => None,
        }
    }
    pub(crate) fn str(&self) -> Option<&'d str> {
        self.doc.str_at(self.i)
    }
    /// The limits the document is read with.
    pub(crate) fn limits(&self) -> &'d Limits {
        &self.doc.limits
    }
    pub(crate) fn is_obj(&self) -> bool {
        matches!(self.node(), Node::Obj { .. })
    }
    /// The items of an array.
    pub(crate) fn items(&self) -> Option<Items<'d>> {
        match self.node() {
            Node::Arr { count, .. } => Some(Items { doc: self.doc, next: self.i + 1, left: count }),
            _ => None,
        }
    }
    /// The entries of an object, in document order.
    pub(crate) fn entries(&self) -> Option<Entries<'d>> {
        match self.node() {
            Node::Obj { count, .. } => {
                Some(Entries { doc: self.doc, next: self.i + 1, left: count })
            }
            _ => None,
        }
    }
}

/// The items of an array.
#[derive(Clone)]
pub(crate) struct Items<'d> {
    doc: &'d Doc<'d>,
    next: usize,
    left: u32,
}

impl<'d> Iterator for Items<'d> {
    type Item = J<'d>;
    fn next(&mut self) -> Option<J<'d>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let i = self.next;
        self.next = self.doc.end(i);
        Some(J { doc: self.doc, i })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left as usize, Some(self.left as usize))
    }
}

impl ExactSizeIterator for Items<'_> {}

/// The key/value entries of an object.
#[derive(Clone)]
pub(crate) struct Entries<'d> {
    doc: &'d Doc<'d>,
    next: usize,
    left: u32,
}

impl<'d> Iterator for Entries<'d> {
    type Item = (&'d str, J<'d>);
    fn next(&mut self) -> Option<(&'d str, J<'d>)> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let k = self.next;
        self.next = match self.doc.node(k) {
            Node::Key { next, .. } | Node::EscKey { next, .. } => next as usize,
            _ => self.doc.end(k + 1),
        };
        Some((self.doc.str_at(k).unwrap_or_default(), J { doc: self.doc, i: k + 1 }))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left as usize, Some(self.left as usize))
    }
}

impl ExactSizeIterator for Entries<'_> {}

impl<'d> Entries<'d> {
    /// Where the iteration stands (for [`Entries::resume`] by an owner of the document).
    pub(crate) fn state(&self) -> (usize, u32) {
        (self.next, self.left)
    }
    /// Resumes an iteration of `doc` at a [`Entries::state`] it returned.
    pub(crate) fn resume(doc: &'d Doc<'d>, (next, left): (usize, u32)) -> Entries<'d> {
        Entries { doc, next, left }
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
                Seg::Key(k) => push_key(&mut s, k),
                Seg::Index(i) => s.push_str(&format!("[{i}]")),
            }
        }
        if s.is_empty() {
            s.push_str("(root)");
        }
        s
    }
    /// A [`JsonErrorKind::Invalid`] error here (boxed: the readers' results stay small).
    #[cold]
    pub(crate) fn err(&self, message: impl Into<String>) -> Box<JsonError> {
        let kind = JsonErrorKind::Invalid;
        Box::new(JsonError { path: self.render(), message: message.into(), kind })
    }
    /// A [`JsonErrorKind::LimitExceeded`] error here.
    #[cold]
    pub(crate) fn limit(&self, limit: &'static str, value: usize, max: usize) -> Box<JsonError> {
        Box::new(JsonError::limit(self.render(), limit, value as u64, max as u64))
    }
    #[cold]
    pub(crate) fn expected(&self, what: &str, found: J<'_>) -> Box<JsonError> {
        self.err(format!("expected {what}, found {}", found.kind()))
    }
}

/// Appends an object key to a rendered path (`.` before it unless it starts the path),
/// escaped as a Rust string literal's contents, so control characters, quotes and backslashes in
/// names cannot garble a message.
pub(super) fn push_key(s: &mut String, k: &str) {
    if !s.is_empty() {
        s.push('.');
    }
    s.extend(k.escape_debug());
}

/// A reader's result. The error is boxed: a `JsonError` is 80 bytes, so every `?` between
/// the readers would move results of that size instead of a value and a pointer.
pub(crate) type R<T> = Result<T, Box<JsonError>>;

/// Fails with [`JsonErrorKind::LimitExceeded`] when `count` items of `what` (the binary
/// parsers' labels: [`Limits::for_count`]) are over their limit; `v` is any value of the
/// document, for its limits.
#[inline]
pub(crate) fn check_count(v: J<'_>, p: &P<'_>, what: &'static str, count: usize) -> R<()> {
    if count <= v.doc.min_count {
        return Ok(());
    }
    check_count_slow(&v.doc.limits, p, what, count)
}

#[cold]
#[inline(never)]
fn check_count_slow(limits: &Limits, p: &P<'_>, what: &'static str, count: usize) -> R<()> {
    let (limit, max) = limits.for_count(what);
    if count > max {
        return Err(p.limit(limit, count, max));
    }
    Ok(())
}

/// The length of an array (`None` for any other value).
pub(crate) fn array_len(v: J<'_>) -> Option<usize> {
    match v.node() {
        Node::Arr { count, .. } => Some(count as usize),
        _ => None,
    }
}

/// Checks the vertex count of a `vertices` array against [`Limits::max_vertices`]: pairs of
/// numbers when it holds `2 × declared` of them (unweighted), else per vertex a bone count and
/// four numbers per bone, each bone count also checked (`vertex bone`, as the binary parsers
/// do). A vertex count is at most half the array length, so only long arrays are walked; the
/// walk stops at the first item that is not a count (the reader reports it).
pub(crate) fn check_vertices(v: J<'_>, p: &P<'_>, declared: usize) -> R<()> {
    let Some(len) = array_len(v) else { return Ok(()) };
    check_count(v, p, "vertex", len / 2).or_else(|e| {
        if declared.checked_mul(2) == Some(len) {
            return Err(e);
        }
        let first = v.i + 1;
        let items = v.doc.nodes.get(first..first + len).unwrap_or_default();
        let (mut i, mut vertices) = (0usize, 0usize);
        while let Some(&Node::Num(n)) = items.get(i) {
            if !(n >= 0.0 && n.fract() == 0.0) {
                break;
            }
            let bones = n.min(usize::MAX as f64) as usize;
            check_count(v, &p.idx(i), "vertex bone", bones)?;
            i = i.saturating_add(1).saturating_add(bones.saturating_mul(4));
            vertices += 1;
        }
        check_count(v, p, "vertex", vertices)
    })
}

#[inline]
pub(crate) fn as_f32(v: J<'_>, p: &P<'_>) -> R<f32> {
    match v.num() {
        Some(n) if (n as f32).is_finite() => Ok(n as f32),
        Some(n) => Err(p.err(format!("number {n} is out of the 32-bit float range"))),
        None => Err(p.expected("a number", v)),
    }
}

pub(crate) fn as_i32(v: J<'_>, p: &P<'_>) -> R<i32> {
    match v.num() {
        Some(n) if is_i32(n) => Ok(n as i32),
        Some(n) => Err(p.err(format!("expected a 32-bit integer, found {n}"))),
        None => Err(p.expected("an integer", v)),
    }
}

pub(crate) fn as_u32(v: J<'_>, p: &P<'_>) -> R<u32> {
    match v.num() {
        Some(n) if is_u32(n) => Ok(n as u32),
        Some(n) => Err(p.err(format!("expected a non-negative integer, found {n}"))),
        None => Err(p.expected("a non-negative integer", v)),
    }
}

pub(crate) fn as_str<'d>(v: J<'d>, p: &P<'_>) -> R<&'d str> {
    v.str().ok_or_else(|| p.expected("a string", v))
}

/// `RRGGBBAA` (or `RRGGBB`, alpha 255) hex as bytes, as libgdx `Color.valueOf` reads it.
pub(crate) fn as_color(v: J<'_>, p: &P<'_>) -> R<[u8; 4]> {
    let s = as_str(v, p)?;
    let s = s.strip_prefix('#').unwrap_or(s);
    let bad = || p.err(format!("expected an RRGGBBAA or RRGGBB hex color, found {s:?}"));
    if !(s.len() == 8 || s.len() == 6) {
        return Err(bad());
    }
    let hex = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    };
    let mut out = [255u8; 4];
    for (o, pair) in out.iter_mut().zip(s.as_bytes().chunks_exact(2)) {
        *o = (hex(pair[0]).ok_or_else(bad)? << 4) | hex(pair[1]).ok_or_else(bad)?;
    }
    Ok(out)
}

/// An array of numbers as `f32`s: one pass over the (scalar) item nodes, with the errors of
/// [`as_f32`] at the first item that is not a finite 32-bit number.
pub(crate) fn f32s(v: J<'_>, p: &P<'_>) -> R<Vec<f32>> {
    let Node::Arr { count, .. } = v.node() else { return Err(p.expected("an array", v)) };
    let first = v.i + 1;
    let items = v.doc.nodes.get(first..first + count as usize).unwrap_or_default();
    let mut out = Vec::with_capacity(items.len());
    for (i, n) in items.iter().enumerate() {
        match *n {
            Node::Num(x) if (x as f32).is_finite() => out.push(x as f32),
            // The items so far were scalars, so item `i` is node `first + i`.
            _ => return Err(item_error(as_f32, v, first + i, p, i)),
        }
    }
    Ok(out)
}

/// A bezier `curve` array, like [`f32s`] (the same errors) but held inline when short.
pub(crate) fn bezier(v: J<'_>, p: &P<'_>) -> R<crate::json::Bezier> {
    use crate::json::Bezier;
    let Node::Arr { count, .. } = v.node() else { return Err(p.expected("an array", v)) };
    let first = v.i + 1;
    let items = v.doc.nodes.get(first..first + count as usize).unwrap_or_default();
    if items.len() > Bezier::INLINE {
        return f32s(v, p).map(Bezier::from);
    }
    // Each of the eight read with a constant index, so the array is built in registers and
    // stored whole: built a float at a time in memory, then copied, it made the copy's wide
    // loads wait for the narrow stores to retire.
    let value = |i: usize| match items.get(i) {
        Some(&Node::Num(x)) => x as f32,
        Some(_) => f32::NAN,
        None => 0.0,
    };
    let values: [f32; Bezier::INLINE] = std::array::from_fn(value);
    // The first item that is not a number (a container's items come after it) or not a
    // finite `f32`.
    if let Some(i) = values.iter().position(|x| !x.is_finite()) {
        return Err(item_error(as_f32, v, first + i, p, i));
    }
    Ok(Bezier::inline(values, items.len()))
}

/// Whether `x` is an integer in `0..=u32::MAX` (in range, `as` truncates, so the round trip
/// keeps exactly the integers; `x.fract()` would be a libm call, `trunc` being no SSE2
/// instruction).
#[inline]
fn is_u32(x: f64) -> bool {
    x >= 0.0 && x <= f64::from(u32::MAX) && f64::from(x as u32) == x
}

/// Whether `x` is an integer in the `i32` range (as [`is_u32`]).
#[inline]
fn is_i32(x: f64) -> bool {
    x >= f64::from(i32::MIN) && x <= f64::from(i32::MAX) && f64::from(x as i32) == x
}

/// An array of non-negative integers, like [`f32s`] with the errors of [`as_u32`].
pub(crate) fn u32s(v: J<'_>, p: &P<'_>) -> R<Vec<u32>> {
    let Node::Arr { count, .. } = v.node() else { return Err(p.expected("an array", v)) };
    let first = v.i + 1;
    let items = v.doc.nodes.get(first..first + count as usize).unwrap_or_default();
    let mut out = Vec::with_capacity(items.len());
    for (i, n) in items.iter().enumerate() {
        match *n {
            Node::Num(x) if is_u32(x) => out.push(x as u32),
            _ => return Err(item_error(as_u32, v, first + i, p, i)),
        }
    }
    Ok(out)
}

/// The error `read` gives for item `i` (node `node`) of the array `v`.
#[cold]
fn item_error<T>(
    read: fn(J<'_>, &P<'_>) -> R<T>,
    v: J<'_>,
    node: usize,
    p: &P<'_>,
    i: usize,
) -> Box<JsonError> {
    let ip = p.idx(i);
    read(J { doc: v.doc, i: node }, &ip).err().unwrap_or_else(|| ip.err("unexpected value"))
}

/// Maps each element of an array of `what` (its length checked by [`check_count`] first).
pub(crate) fn each<'d, T>(
    v: J<'d>,
    p: &P<'_>,
    what: &'static str,
    mut f: impl FnMut(J<'d>, &P<'_>) -> R<T>,
) -> R<Vec<T>> {
    let Some(items) = v.items() else { return Err(p.expected("an array", v)) };
    check_count(v, p, what, items.len())?;
    let mut out = Vec::with_capacity(items.len());
    for (i, x) in items.enumerate() {
        out.push(f(x, &p.idx(i))?);
    }
    Ok(out)
}

/// Maps each entry of an object of `what`, in document order (its length checked by
/// [`check_count`] first).
pub(crate) fn each_named<'d, T>(
    v: J<'d>,
    p: &P<'_>,
    what: &'static str,
    mut f: impl FnMut(&'d str, J<'d>, &P<'_>) -> R<T>,
) -> R<Vec<T>> {
    let Some(entries) = v.entries() else { return Err(p.expected("an object", v)) };
    check_count(v, p, what, entries.len())?;
    let mut out = Vec::with_capacity(entries.len());
    for (k, x) in entries {
        out.push(f(k, x, &p.key(k))?);
    }
    Ok(out)
}

/// Calls `f` on each entry of an object of `what`, in document order (its length checked by
/// [`check_count`] first).
pub(crate) fn each_entry<'d>(
    v: J<'d>,
    p: &P<'_>,
    what: &'static str,
    mut f: impl FnMut(&'d str, J<'d>, &P<'_>) -> R<()>,
) -> R<()> {
    let Some(entries) = v.entries() else { return Err(p.expected("an object", v)) };
    check_count(v, p, what, entries.len())?;
    for (k, x) in entries {
        f(k, x, &p.key(k))?;
    }
    Ok(())
}

/// [`each`] into `out` (cleared first; its storage is reused).
pub(crate) fn each_into<'d, T>(
    v: J<'d>,
    p: &P<'_>,
    what: &'static str,
    out: &mut Vec<T>,
    mut f: impl FnMut(J<'d>, &P<'_>) -> R<T>,
) -> R<()> {
    let Some(items) = v.items() else { return Err(p.expected("an array", v)) };
    check_count(v, p, what, items.len())?;
    out.clear();
    if out.capacity() < items.len() {
        // A new list of exactly this size (an empty list taken from a sink) or of at least
        // twice the old one's (a reused list): not `reserve`, whose realloc would copy the
        // stale items, nor a list of four for one or two items.
        *out = Vec::with_capacity(items.len().max(2 * out.capacity()));
    }
    for (i, x) in items.enumerate() {
        out.push(f(x, &p.idx(i))?);
    }
    Ok(())
}

/// Maps each entry of an object, in document order, keeping the `Some` results (one vector,
/// sized for every entry).
pub(crate) fn each_named_some<'d, T>(
    v: J<'d>,
    p: &P<'_>,
    what: &'static str,
    mut f: impl FnMut(&'d str, J<'d>, &P<'_>) -> R<Option<T>>,
) -> R<Vec<T>> {
    let Some(entries) = v.entries() else { return Err(p.expected("an object", v)) };
    check_count(v, p, what, entries.len())?;
    let mut out = Vec::with_capacity(entries.len());
    for (k, x) in entries {
        if let Some(t) = f(k, x, &p.key(k))? {
            out.push(t);
        }
    }
    Ok(out)
}

/// An object being read, with its path.
#[derive(Clone, Copy)]
pub(crate) struct Obj<'a> {
    doc: &'a Doc<'a>,
    /// The node of the first key.
    first: usize,
    count: u32,
    pub(crate) p: &'a P<'a>,
}

/// Whether the escape-free key `text[start..start + len]` is `k`. Keys are short: a byte
/// loop beats a `memcmp` call.
#[inline(always)]
fn key_is(text: &[u8], start: u32, len: u32, k: &[u8]) -> bool {
    len as usize == k.len()
        && text
            .get(start as usize..start as usize + k.len())
            .is_some_and(|n| n.iter().zip(k).all(|(a, b)| a == b))
}

impl<'a> Obj<'a> {
    pub(crate) fn new(v: J<'a>, p: &'a P<'a>) -> R<Obj<'a>> {
        match v.node() {
            Node::Obj { count, .. } => Ok(Obj { doc: v.doc, first: v.i + 1, count, p }),
            _ => Err(p.expected("an object", v)),
        }
    }
    /// The first value named `k`, `None` when absent or `null`.
    #[inline(always)]
    pub(crate) fn get(&self, k: &str) -> Option<J<'a>> {
        let doc = self.doc;
        let bytes = doc.text.as_bytes();
        let kb = k.as_bytes();
        let nodes = doc.nodes.as_slice();
        let mut i = self.first;
        for _ in 0..self.count {
            // A key node: compared, then the next key is where it says.
            i = match nodes.get(i) {
                Some(&Node::Key { start, len, next }) => {
                    if key_is(bytes, start, len, kb) {
                        return self.value(i);
                    }
                    next as usize
                }
                Some(&Node::EscKey { start, len, next }) => {
                    if doc.decoded_eq(start, len, k) {
                        return self.value(i);
                    }
                    next as usize
                }
                _ => break,
            };
        }
        None
    }
    /// [`Obj::get`] of `a` and of `b` (two different keys) in one pass over the entries.
    #[inline(always)]
    pub(crate) fn get2(&self, a: &str, b: &str) -> (Option<J<'a>>, Option<J<'a>>) {
        // With `a == b` the second result would come from a duplicate entry.
        debug_assert_ne!(a, b);
        let bytes = self.doc.text.as_bytes();
        let (ab, bb) = (a.as_bytes(), b.as_bytes());
        let nodes = self.doc.nodes.as_slice();
        // The key nodes found (0: not yet; a key node is never node 0).
        let (mut ka, mut kb) = (0, 0);
        let mut i = self.first;
        for _ in 0..self.count {
            let Some(&Node::Key { start, len, next }) = nodes.get(i) else {
                // A key with escapes (rare): one lookup each.
                return (self.get(a), self.get(b));
            };
            if ka == 0 && key_is(bytes, start, len, ab) {
                ka = i;
            } else if kb == 0 && key_is(bytes, start, len, bb) {
                kb = i;
            }
            i = next as usize;
        }
        let value = |k: usize| if k == 0 { None } else { self.value(k) };
        (value(ka), value(kb))
    }
    /// Reads the value `v` of `k` (as [`Obj::get`] finds it) with `f`, as [`Obj::opt`].
    pub(crate) fn opt_of<T>(
        &self,
        k: &str,
        v: Option<J<'a>>,
        f: impl FnOnce(J<'a>, &P<'_>) -> R<T>,
    ) -> R<Option<T>> {
        match v {
            None => Ok(None),
            Some(v) => f(v, &self.p.key(k)).map(Some),
        }
    }
    /// The value of the key at node `i`, `None` when `null`.
    #[inline]
    fn value(&self, i: usize) -> Option<J<'a>> {
        match self.doc.nodes.get(i + 1) {
            Some(Node::Null) | None => None,
            Some(_) => Some(J { doc: self.doc, i: i + 1 }),
        }
    }
    pub(crate) fn has(&self, k: &str) -> bool {
        self.get(k).is_some()
    }
    /// Reads an optional value with `f`.
    #[inline]
    pub(crate) fn opt<T>(&self, k: &str, f: impl FnOnce(J<'a>, &P<'_>) -> R<T>) -> R<Option<T>> {
        self.opt_of(k, self.get(k), f)
    }
    /// Reads a required value with `f`.
    #[inline]
    pub(crate) fn req<T>(&self, k: &str, f: impl FnOnce(J<'a>, &P<'_>) -> R<T>) -> R<T> {
        self.req_of(k, self.get(k), f)
    }
    /// Reads the value `v` of `k` (as [`Obj::get`] finds it) with `f`, as [`Obj::req`].
    pub(crate) fn req_of<T>(
        &self,
        k: &str,
        v: Option<J<'a>>,
        f: impl FnOnce(J<'a>, &P<'_>) -> R<T>,
    ) -> R<T> {
        match v {
            None => Err(self.p.err(format!("missing required field `{k}`"))),
            Some(v) => f(v, &self.p.key(k)),
        }
    }
    #[inline]
    pub(crate) fn f32(&self, k: &str) -> R<Option<f32>> {
        self.opt(k, as_f32)
    }
    #[inline]
    pub(crate) fn i32(&self, k: &str) -> R<Option<i32>> {
        self.opt(k, as_i32)
    }
    #[inline]
    pub(crate) fn bool(&self, k: &str) -> R<Option<bool>> {
        self.opt(k, |v, p| v.bool().ok_or_else(|| p.expected("true or false", v)))
    }
    pub(crate) fn string(&self, k: &str) -> R<Option<String>> {
        self.text(k)
    }
    /// An optional string, made an `S` (a `String`, or the `&str` borrowed from the document).
    pub(crate) fn text<S: From<&'a str>>(&self, k: &str) -> R<Option<S>> {
        self.opt(k, |v, p| as_str(v, p).map(S::from))
    }
    pub(crate) fn req_string(&self, k: &str) -> R<String> {
        self.req(k, |v, p| as_str(v, p).map(str::to_owned))
    }
    /// A required name, made from the document's text (inline when short: no allocation).
    pub(crate) fn req_name(&self, k: &str) -> R<crate::Name> {
        self.req(k, |v, p| as_str(v, p).map(crate::Name::from))
    }
    pub(crate) fn color(&self, k: &str) -> R<Option<[u8; 4]>> {
        self.opt(k, as_color)
    }
    /// An array of numbers of `what` (its length checked).
    pub(crate) fn floats(&self, k: &str, what: &'static str) -> R<Option<Vec<f32>>> {
        self.opt(k, |v, p| {
            check_count(v, p, what, array_len(v).unwrap_or(0))?;
            f32s(v, p)
        })
    }
    /// An array of strings of `what` (its length checked).
    pub(crate) fn strings(&self, k: &str, what: &'static str) -> R<Vec<String>> {
        Ok(self
            .opt(k, |v, p| each(v, p, what, |x, p| as_str(x, p).map(str::to_owned)))?
            .unwrap_or_default())
    }
}
