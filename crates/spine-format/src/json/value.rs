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

use super::{JsonError, JsonErrorKind};
use crate::Limits;

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

/// Exact powers of ten for the fast number path.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// The reader. `CHECKED` readers enforce `max_nodes` and `max_string`; they are only needed
/// when the text is long enough to exceed one (every value starts at a byte of its own, and
/// a string is shorter than the text), so short texts, every real export among them, skip the
/// checks (they cost 2 % of `Doc::parse`'s instructions over the 4.2 corpus).
struct Parser<'t, const CHECKED: bool> {
    text: &'t str,
    b: &'t [u8],
    pos: usize,
    nodes: Vec<Node>,
    decoded: String,
    /// [`Limits::max_json_values`].
    max_nodes: usize,
    /// [`Limits::max_string_bytes`].
    max_string: usize,
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
            Node::Str { start, len } => {
                let s = start as usize;
                self.text.get(s..s + len as usize)
            }
            Node::Esc { start, len } => {
                let s = start as usize;
                self.decoded.get(s..s + len as usize)
            }
            _ => None,
        }
    }
}

/// Bytes that end an escape-free run of string text: `"`, `\` and control characters.
const STRING_STOP: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// An open container: its node, its item count so far, whether it is an object.
struct Open {
    at: usize,
    count: u32,
    is_obj: bool,
}

impl<'t, const CHECKED: bool> Parser<'t, CHECKED> {
    /// Reads `text` into nodes and the decoded string buffer.
    fn run(text: &'t str, limits: &Limits) -> Result<(Vec<Node>, String), JsonError> {
        let mut p = Parser::<CHECKED> {
            text,
            b: text.as_bytes(),
            pos: 0,
            nodes: Vec::new(),
            decoded: String::new(),
            max_nodes: limits.max_json_values,
            max_string: limits.max_string_bytes,
        };
        if u32::try_from(text.len()).is_err() {
            return Err(p.error("document larger than 4 GiB"));
        }
        // Spine exports hold one value per 6-9 bytes. Any text holds at most (len + 1) / 2
        // (every value but the root owns its first byte and the separator or bracket after
        // it), so an unchecked reader's doubling never passes len + 1 <= the limit + 1, and a
        // checked one grows only up to the limit (`push`).
        p.nodes.reserve_exact((text.len() / 8 + 1).min(p.max_nodes));
        p.document()?;
        Ok((p.nodes, p.decoded))
    }

    #[cold]
    #[inline(never)]
    fn error(&self, what: &str) -> JsonError {
        let pos = self.pos.min(self.b.len());
        let before = &self.b[..pos];
        let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
        let line_start = before.iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
        let column =
            self.text.get(line_start..pos).map_or(pos - line_start, |s| s.chars().count()) + 1;
        JsonError {
            path: "(root)".into(),
            message: format!("invalid JSON: {what} at line {line} column {column} (byte {pos})"),
            kind: JsonErrorKind::Syntax,
        }
    }

    /// A [`JsonErrorKind::LimitExceeded`] error at the current byte; [`Parser::document`]
    /// fills in the path.
    #[cold]
    #[inline(never)]
    fn limit_error(&self, limit: &'static str, value: u64, max: u64) -> JsonError {
        let mut e = JsonError::limit("(root)".into(), limit, value, max);
        e.message.push_str(&format!(" (byte {})", self.pos.min(self.b.len())));
        e
    }

    /// Appends a node; fails when the document would hold more than `max_nodes`. The vector
    /// grows by doubling but never past the limit, so its capacity is what the limit bounds.
    #[inline(always)]
    fn push(&mut self, node: Node) -> Result<(), JsonError> {
        if CHECKED && self.nodes.len() == self.nodes.capacity() {
            self.grow()?;
        }
        self.nodes.push(node);
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn grow(&mut self) -> Result<(), JsonError> {
        let len = self.nodes.len();
        if len >= self.max_nodes {
            return Err(self.limit_error("max_json_values", len as u64 + 1, self.max_nodes as u64));
        }
        self.nodes.reserve_exact(len.max(1024).min(self.max_nodes - len));
        Ok(())
    }

    /// The JSON path of the value being read when an error stopped the parser with the
    /// containers of `stack` open: each open object's current key (its finished entries are
    /// skipped by their recorded ends), each open array's current index.
    #[cold]
    #[inline(never)]
    fn path(&self, stack: &[Open]) -> String {
        let node = |i: usize| self.nodes.get(i).copied();
        let mut s = String::new();
        for o in stack {
            if !o.is_obj {
                s.push_str(&format!("[{}]", o.count));
                continue;
            }
            let mut i = o.at + 1;
            for _ in 0..o.count {
                i = match node(i + 1) {
                    Some(Node::Arr { end, .. } | Node::Obj { end, .. }) => end as usize,
                    _ => i + 2,
                };
            }
            let key = match node(i) {
                Some(Node::Str { start, len }) => {
                    self.text.get(start as usize..start as usize + len as usize)
                }
                Some(Node::Esc { start, len }) => {
                    self.decoded.get(start as usize..start as usize + len as usize)
                }
                _ => None,
            };
            match key {
                Some(k) => push_key(&mut s, k),
                // The key itself was being read.
                None => break,
            }
        }
        if s.is_empty() {
            s.push_str("(root)");
        }
        s
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    /// Skips whitespace and returns the next byte.
    #[inline(always)]
    fn next_token(&mut self) -> Option<u8> {
        // Most tokens follow the previous one directly (every token byte is above the space),
        // or one space (`": "`, `", "`) of the editor's one-line objects.
        match self.b.get(self.pos) {
            Some(&c) if c > b' ' => Some(c),
            Some(b' ') => match self.b.get(self.pos + 1) {
                Some(&c) if c > b' ' => {
                    self.pos += 1;
                    Some(c)
                }
                _ => self.skip_ws(),
            },
            _ => self.skip_ws(),
        }
    }

    /// Skips whitespace and returns the next byte (the out-of-line part of `next_token`).
    #[inline(never)]
    fn skip_ws(&mut self) -> Option<u8> {
        let b = self.b;
        let mut pos = self.pos;
        while pos < b.len() {
            let c = b[pos];
            if !matches!(c, b' ' | b'\n' | b'\r' | b'\t') {
                self.pos = pos;
                return Some(c);
            }
            pos += 1;
        }
        self.pos = pos;
        None
    }

    fn idx(&self) -> u32 {
        // Fits: there are fewer nodes than bytes, and the text is under 4 GiB.
        self.nodes.len() as u32
    }

    /// The whole document: one value and trailing whitespace. Open containers are tracked on an
    /// explicit stack, so nesting costs no native stack. A limit error gets the path of the
    /// value being read.
    fn document(&mut self) -> Result<(), JsonError> {
        let mut stack: Vec<Open> = Vec::new();
        match self.values(&mut stack) {
            Err(mut e) if matches!(e.kind, JsonErrorKind::LimitExceeded { .. }) => {
                e.path = self.path(&stack);
                Err(e)
            }
            r => r,
        }
    }

    fn values(&mut self, stack: &mut Vec<Open>) -> Result<(), JsonError> {
        loop {
            // A value starts here.
            match self.next_token() {
                Some(c @ (b'{' | b'[')) => {
                    let is_obj = c == b'{';
                    self.pos += 1;
                    let at = self.nodes.len();
                    self.push(if is_obj {
                        Node::Obj { count: 0, end: 0 }
                    } else {
                        Node::Arr { count: 0, end: 0 }
                    })?;
                    let close = if is_obj { b'}' } else { b']' };
                    if self.next_token() == Some(close) {
                        self.pos += 1;
                        let end = self.idx();
                        if let Some(Node::Arr { end: e, .. } | Node::Obj { end: e, .. }) =
                            self.nodes.get_mut(at)
                        {
                            *e = end;
                        }
                    } else {
                        if stack.len() >= MAX_DEPTH {
                            return Err(
                                self.error(&format!("nesting deeper than {MAX_DEPTH} levels"))
                            );
                        }
                        stack.push(Open { at, count: 0, is_obj });
                        if is_obj {
                            self.key()?;
                        }
                        continue;
                    }
                }
                Some(b'"') => self.string()?,
                Some(b'-' | b'0'..=b'9') => self.number()?,
                Some(b't') => self.literal("true", Node::Bool(true))?,
                Some(b'f') => self.literal("false", Node::Bool(false))?,
                Some(b'n') => self.literal("null", Node::Null)?,
                None => return Err(self.error("unexpected end of input")),
                Some(_) => return Err(self.error("expected a value")),
            }
            // A value ended: go on to the next item or close the enclosing containers.
            loop {
                let Some(top) = stack.last_mut() else {
                    if self.next_token().is_some() {
                        return Err(self.error("trailing characters"));
                    }
                    return Ok(());
                };
                top.count += 1;
                let is_obj = top.is_obj;
                match self.next_token() {
                    Some(b',') => {
                        self.pos += 1;
                        if is_obj {
                            self.next_token();
                            self.key()?;
                        }
                        break;
                    }
                    Some(b'}') if is_obj => {}
                    Some(b']') if !is_obj => {}
                    _ => {
                        return Err(self.error(if is_obj {
                            "expected `,` or `}`"
                        } else {
                            "expected `,` or `]`"
                        }))
                    }
                }
                self.pos += 1;
                let (at, count) = (top.at, top.count);
                stack.pop();
                let end = self.idx();
                if let Some(n) = self.nodes.get_mut(at) {
                    *n = if is_obj { Node::Obj { count, end } } else { Node::Arr { count, end } };
                }
            }
        }
    }

    /// `"key"` and `:`, leaving the position before the value.
    #[inline(always)]
    fn key(&mut self) -> Result<(), JsonError> {
        if self.peek() != Some(b'"') {
            return Err(self.error("expected a string key"));
        }
        self.string()?;
        if self.next_token() != Some(b':') {
            return Err(self.error("expected `:`"));
        }
        self.pos += 1;
        Ok(())
    }

    fn literal(&mut self, word: &str, node: Node) -> Result<(), JsonError> {
        if self.b.get(self.pos..self.pos + word.len()) == Some(word.as_bytes()) {
            self.pos += word.len();
            self.push(node)
        } else {
            Err(self.error("expected a value"))
        }
    }

    /// A string starting at its opening quote.
    #[inline(always)]
    fn string(&mut self) -> Result<(), JsonError> {
        let b = self.b;
        let start = self.pos + 1;
        let mut pos = start;
        while pos < b.len() && !STRING_STOP[usize::from(b[pos])] {
            pos += 1;
        }
        self.pos = pos;
        match b.get(pos) {
            Some(b'"') => {
                if CHECKED && pos - start > self.max_string {
                    return Err(self.string_limit(pos - start));
                }
                self.pos += 1;
                self.push(Node::Str { start: start as u32, len: (pos - start) as u32 })
            }
            Some(b'\\') => self.escaped_string(start),
            Some(_) => Err(self.error("control character in a string")),
            None => Err(self.error("unterminated string")),
        }
    }

    /// The error for a string of `len` bytes over `max_string`.
    #[cold]
    #[inline(never)]
    fn string_limit(&self, len: usize) -> JsonError {
        self.limit_error("max_string_bytes", len as u64, self.max_string as u64)
    }

    /// The rest of a string with escapes; `self.pos` is at the first backslash. The decoded
    /// text is appended to `decoded`.
    fn escaped_string(&mut self, start: usize) -> Result<(), JsonError> {
        let mut out = std::mem::take(&mut self.decoded);
        let first = out.len();
        out.push_str(self.text.get(start..self.pos).unwrap_or_default());
        let r = self.unescape(&mut out);
        let len = out.len() - first;
        self.decoded = out;
        r?;
        if CHECKED && len > self.max_string {
            return Err(self.string_limit(len));
        }
        self.pos += 1;
        self.push(Node::Esc { start: first as u32, len: len as u32 })
    }

    /// Decodes string text with escapes into `out` up to the closing quote (left unread).
    fn unescape(&mut self, out: &mut String) -> Result<(), JsonError> {
        loop {
            let run = self.pos;
            while let Some(c) = self.peek() {
                if STRING_STOP[usize::from(c)] {
                    break;
                }
                self.pos += 1;
            }
            // Runs stop at ASCII bytes, so they are whole UTF-8 sequences.
            out.push_str(self.text.get(run..self.pos).unwrap_or_default());
            match self.peek() {
                Some(b'"') => break,
                Some(b'\\') => {
                    self.pos += 1;
                    let c = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.pos += 1;
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) {
                                if self.b.get(self.pos..self.pos + 2) != Some(b"\\u") {
                                    return Err(self.error("lone leading surrogate"));
                                }
                                self.pos += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err(self.error("invalid trailing surrogate"));
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            let c = char::from_u32(code)
                                .ok_or_else(|| self.error("lone trailing surrogate"))?;
                            out.push(c);
                            continue;
                        }
                        _ => return Err(self.error("invalid escape")),
                    };
                    self.pos += 1;
                    out.push(c);
                }
                Some(_) => return Err(self.error("control character in a string")),
                None => return Err(self.error("unterminated string")),
            }
        }
        Ok(())
    }

    /// Four hex digits of a `\u` escape.
    fn hex4(&mut self) -> Result<u32, JsonError> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = match self.peek() {
                Some(c @ b'0'..=b'9') => c - b'0',
                Some(c @ b'a'..=b'f') => c - b'a' + 10,
                Some(c @ b'A'..=b'F') => c - b'A' + 10,
                _ => return Err(self.error("invalid \\u escape")),
            };
            v = v * 16 + u32::from(d);
            self.pos += 1;
        }
        Ok(v)
    }

    /// A number (`-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`), read as the nearest `f64`.
    #[inline]
    fn number(&mut self) -> Result<(), JsonError> {
        let b = self.b;
        let start = self.pos;
        let mut pos = start;
        let neg = b.get(pos) == Some(&b'-');
        if neg {
            pos += 1;
        }
        // Up to 19 digits fit a u64 exactly; wrapping only matters past that (slow path).
        let mut m = 0u64;
        let int_start = pos;
        while pos < b.len() && b[pos].is_ascii_digit() {
            m = m.wrapping_mul(10).wrapping_add(u64::from(b[pos] - b'0'));
            pos += 1;
        }
        let int_digits = pos - int_start;
        if int_digits == 0 || (int_digits > 1 && b[int_start] == b'0') {
            self.pos = pos;
            return Err(self.error("invalid number"));
        }
        let mut frac_digits = 0;
        if pos < b.len() && b[pos] == b'.' {
            pos += 1;
            let frac_start = pos;
            while pos < b.len() && b[pos].is_ascii_digit() {
                m = m.wrapping_mul(10).wrapping_add(u64::from(b[pos] - b'0'));
                pos += 1;
            }
            frac_digits = pos - frac_start;
            if frac_digits == 0 {
                self.pos = pos;
                return Err(self.error("invalid number"));
            }
        }
        let mut exp = 0i64;
        if pos < b.len() && (b[pos] | 0x20) == b'e' {
            pos += 1;
            let eneg = b.get(pos) == Some(&b'-');
            if matches!(b.get(pos), Some(b'-' | b'+')) {
                pos += 1;
            }
            let exp_start = pos;
            while pos < b.len() && b[pos].is_ascii_digit() {
                exp = (exp * 10 + i64::from(b[pos] - b'0')).min(1_000_000);
                pos += 1;
            }
            if pos == exp_start {
                self.pos = pos;
                return Err(self.error("invalid number"));
            }
            if eneg {
                exp = -exp;
            }
        }
        self.pos = pos;
        let e = exp - frac_digits as i64;
        let value = if int_digits + frac_digits <= 19 && m < (1u64 << 53) && (-22..=22).contains(&e)
        {
            // Clinger's fast path: both operands are exact, so one rounding gives the nearest.
            let f = m as f64;
            let f = if e < 0 { f / POW10[(-e) as usize] } else { f * POW10[e as usize] };
            if neg {
                -f
            } else {
                f
            }
        } else {
            self.text
                .get(start..pos)
                .and_then(|s| s.parse::<f64>().ok())
                .ok_or_else(|| self.error("invalid number"))?
        };
        self.push(Node::Num(value))
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
    pub(crate) fn kind(&self) -> &'static str {
        match self.node() {
            Node::Null => "null",
            Node::Bool(_) => "a boolean",
            Node::Num(_) => "a number",
            Node::Str { .. } | Node::Esc { .. } => "a string",
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
        self.next = self.doc.end(k + 1);
        Some((self.doc.str_at(k).unwrap_or_default(), J { doc: self.doc, i: k + 1 }))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left as usize, Some(self.left as usize))
    }
}

impl ExactSizeIterator for Entries<'_> {}

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
    pub(crate) fn err(&self, message: impl Into<String>) -> JsonError {
        JsonError { path: self.render(), message: message.into(), kind: JsonErrorKind::Invalid }
    }
    /// A [`JsonErrorKind::LimitExceeded`] error here.
    #[cold]
    pub(crate) fn limit(&self, limit: &'static str, value: usize, max: usize) -> JsonError {
        JsonError::limit(self.render(), limit, value as u64, max as u64)
    }
    pub(crate) fn expected(&self, what: &str, found: J<'_>) -> JsonError {
        self.err(format!("expected {what}, found {}", found.kind()))
    }
}

/// Appends an object key to a rendered path (`.` before it unless it starts the path),
/// escaped as a Rust string literal's contents, so control characters, quotes and backslashes in
/// names cannot garble a message.
fn push_key(s: &mut String, k: &str) {
    if !s.is_empty() {
        s.push('.');
    }
    s.extend(k.escape_debug());
}

pub(crate) type R<T> = Result<T, JsonError>;

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

pub(crate) fn as_f32(v: J<'_>, p: &P<'_>) -> R<f32> {
    match v.num() {
        Some(n) if (n as f32).is_finite() => Ok(n as f32),
        Some(n) => Err(p.err(format!("number {n} is out of the 32-bit float range"))),
        None => Err(p.expected("a number", v)),
    }
}

pub(crate) fn as_i32(v: J<'_>, p: &P<'_>) -> R<i32> {
    match v.num() {
        Some(n) if n.fract() == 0.0 && n >= f64::from(i32::MIN) && n <= f64::from(i32::MAX) => {
            Ok(n as i32)
        }
        Some(n) => Err(p.err(format!("expected a 32-bit integer, found {n}"))),
        None => Err(p.expected("an integer", v)),
    }
}

pub(crate) fn as_u32(v: J<'_>, p: &P<'_>) -> R<u32> {
    match v.num() {
        Some(n) if n.fract() == 0.0 && n >= 0.0 && n <= f64::from(u32::MAX) => Ok(n as u32),
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

/// An array of non-negative integers, like [`f32s`] with the errors of [`as_u32`].
pub(crate) fn u32s(v: J<'_>, p: &P<'_>) -> R<Vec<u32>> {
    let Node::Arr { count, .. } = v.node() else { return Err(p.expected("an array", v)) };
    let first = v.i + 1;
    let items = v.doc.nodes.get(first..first + count as usize).unwrap_or_default();
    let mut out = Vec::with_capacity(items.len());
    for (i, n) in items.iter().enumerate() {
        match *n {
            Node::Num(x) if x.fract() == 0.0 && x >= 0.0 && x <= f64::from(u32::MAX) => {
                out.push(x as u32)
            }
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
) -> JsonError {
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

impl<'a> Obj<'a> {
    pub(crate) fn new(v: J<'a>, p: &'a P<'a>) -> R<Obj<'a>> {
        match v.node() {
            Node::Obj { count, .. } => Ok(Obj { doc: v.doc, first: v.i + 1, count, p }),
            _ => Err(p.expected("an object", v)),
        }
    }
    /// The first value named `k`, `None` when absent or `null`.
    pub(crate) fn get(&self, k: &str) -> Option<J<'a>> {
        let doc = self.doc;
        let bytes = doc.text.as_bytes();
        let kb = k.as_bytes();
        let nodes = doc.nodes.as_slice();
        let mut i = self.first;
        for _ in 0..self.count {
            // A key node and its value node (the object's nodes are all in the vector).
            let (Some(key), Some(&value)) = (nodes.get(i), nodes.get(i + 1)) else { break };
            let hit = match *key {
                // Keys are short: a byte loop beats a `memcmp` call.
                Node::Str { start, len } if len as usize == kb.len() => bytes
                    .get(start as usize..start as usize + kb.len())
                    .is_some_and(|n| n.iter().zip(kb).all(|(a, b)| a == b)),
                Node::Esc { start, len } => doc.decoded_eq(start, len, k),
                _ => false,
            };
            if hit {
                return (!matches!(value, Node::Null)).then_some(J { doc, i: i + 1 });
            }
            i = match value {
                Node::Arr { end, .. } | Node::Obj { end, .. } => end as usize,
                _ => i + 2,
            };
        }
        None
    }
    pub(crate) fn has(&self, k: &str) -> bool {
        self.get(k).is_some()
    }
    /// Reads an optional value with `f`.
    pub(crate) fn opt<T>(&self, k: &str, f: impl FnOnce(J<'a>, &P<'_>) -> R<T>) -> R<Option<T>> {
        match self.get(k) {
            None => Ok(None),
            Some(v) => f(v, &self.p.key(k)).map(Some),
        }
    }
    /// Reads a required value with `f`.
    pub(crate) fn req<T>(&self, k: &str, f: impl FnOnce(J<'a>, &P<'_>) -> R<T>) -> R<T> {
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
        self.opt(k, |v, p| v.bool().ok_or_else(|| p.expected("true or false", v)))
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// The document as a serde_json value (objects keep the last of duplicate keys, as serde does).
    fn to_serde(v: J<'_>) -> Value {
        if let Some(items) = v.items() {
            return Value::Array(items.map(to_serde).collect());
        }
        if let Some(entries) = v.entries() {
            return Value::Object(entries.map(|(k, x)| (k.to_owned(), to_serde(x))).collect());
        }
        match (v.num(), v.str(), v.bool()) {
            (Some(n), ..) => serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number),
            (_, Some(s), _) => Value::String(s.to_owned()),
            (.., Some(b)) => Value::Bool(b),
            _ => Value::Null,
        }
    }

    /// Equal, numbers within an ulp or two (serde_json's default float parsing is not always
    /// the nearest double; ours is).
    fn same(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => {
                let (x, y) = (x.as_f64().unwrap_or(f64::NAN), y.as_f64().unwrap_or(f64::NAN));
                x == y || (x - y).abs() <= x.abs() * 4e-16
            }
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
            }
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
            }
            _ => a == b,
        }
    }

    fn check_like_serde(text: &str) {
        let theirs = serde_json::from_str::<Value>(text);
        let ours = Doc::parse(text, &Limits::default());
        match (&theirs, &ours) {
            (Ok(t), Ok(o)) => {
                let o = to_serde(o.root());
                assert!(same(t, &o), "{text:?}: serde {t} vs ours {o}");
            }
            (Err(_), Err(e)) => assert!(e.message.starts_with("invalid JSON: "), "{e}"),
            (t, o) => panic!("{text:?}: serde {t:?} vs ours {:?}", o.as_ref().map(|_| ())),
        }
    }

    #[test]
    fn agrees_with_serde_json_on_valid_documents() {
        for text in [
            r#"{"a": [1, -2.5, 3e2, 4E-2, 5.5e+1, 0, -0, 0.1, 123456789.125], "b": {}, "c": []}"#,
            r#"["", "plain", "a\"b\\c\/d\b\f\n\r\t", "\u00e9\u4e2d\ud83d\ude00", "é中😀"]"#,
            r#"[true, false, null, [[[]]], [{}], {"x": {"y": {"z": null}}}]"#,
            r#"[9007199254740993, 12345678901234567890123, 1e22, 1e23, 1.7976931348623157e308]"#,
            r#"[2.2250738585072014e-308, 5e-324, 0.30000000000000004, 1234567890.0987654321]"#,
            r#"[0.000000000000000000000000001, 1e-22, 123.456e-30, -9.87654321e15]"#,
            " \t\r\n { \"k\" \n : \"v\" } \n ",
            "42",
            "\"top\"",
        ] {
            check_like_serde(text);
        }
        let deep = format!("{}{}", "[".repeat(100), "]".repeat(100));
        check_like_serde(&deep);
    }

    #[test]
    fn agrees_with_serde_json_on_invalid_documents() {
        for text in [
            "",
            " ",
            "[1,]",
            r#"{"a":1,}"#,
            "[01]",
            "[1.]",
            "[.5]",
            "[-]",
            "[1e]",
            "[1e+]",
            "[+1]",
            "\"\u{1}\"",
            r#""\ud800""#,
            r#""\udc00""#,
            r#""\ud800\u0041""#,
            r#""\q""#,
            r#""\u12""#,
            "tru",
            "nul",
            "[1 2]",
            r#"{"a" 1}"#,
            "{1:2}",
            "[",
            "{",
            r#"{"a":"#,
            r#""""x"#,
            r#""abc"#,
            "[1]]",
            "{}}",
            "[}",
            "{]",
            "1 2",
            "[NaN]",
            "[Infinity]",
            "[0x10]",
        ] {
            check_like_serde(text);
        }
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        check_like_serde(&deep);
    }

    #[test]
    fn errors_give_line_column_and_offset() {
        let e = Doc::parse("{\n  \"a\": [1,\n  2,,]}", &Limits::default()).err().map(|e| e.message);
        assert_eq!(
            e.as_deref(),
            Some("invalid JSON: expected a value at line 3 column 5 (byte 17)")
        );
        let e = Doc::parse(&"[".repeat(129), &Limits::default()).err().map(|e| e.message);
        assert!(e.is_some_and(|m| m.contains("nesting deeper than 128")));
    }

    #[test]
    fn objects_read_the_first_duplicate_and_skip_null() {
        let doc =
            Doc::parse(r#"{"a": 1, "a": 2, "n": null, "e\u0078": "esc"}"#, &Limits::default())
                .expect("parses");
        let p = P::ROOT;
        let o = Obj::new(doc.root(), &p).expect("object");
        assert_eq!(o.f32("a"), Ok(Some(1.0)));
        assert!(!o.has("n"));
        assert_eq!(o.string("ex"), Ok(Some("esc".to_owned())));
        assert!(o.get("missing").is_none());
    }

    #[test]
    fn corpus_documents_read_like_serde_json() {
        let Some(corpus) = skel_testkit::spine_corpus() else { return };
        let mut files = vec![corpus];
        let mut checked = 0;
        while let Some(path) = files.pop() {
            if path.is_dir() {
                let Ok(dir) = std::fs::read_dir(&path) else { continue };
                files.extend(dir.flatten().map(|e| e.path()));
            } else if path.extension().is_some_and(|x| x == "json") {
                let Ok(text) = std::fs::read_to_string(&path) else { continue };
                check_like_serde(&text);
                checked += 1;
            }
        }
        assert!(checked > 100, "only {checked} JSON files found");
    }
}
