//! The one-pass JSON grammar reader behind [`super::Doc::parse`]: bytes to nodes, escaped
//! strings decoded into one side buffer, every limit checked as it goes.

use super::{push_key, Node, MAX_DEPTH};
use crate::json::{JsonError, JsonErrorKind};
use crate::Limits;
/// Exact powers of ten for the fast number path.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// The reader. `CHECKED` readers enforce `max_nodes` and `max_string`; they are only needed
/// when the text is long enough to exceed one (every value starts at a byte of its own, and
/// a string is shorter than the text), so short texts, every real export among them, skip the
/// checks (they cost 2 % of `Doc::parse`'s instructions over the 4.2 corpus).
pub(super) struct Parser<'t, const CHECKED: bool> {
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

/// An open container: its node, its item count so far, whether it is an object, and (an
/// object's) the node of its current key.
struct Open {
    at: usize,
    count: u32,
    is_obj: bool,
    key: u32,
}

impl<'t, const CHECKED: bool> Parser<'t, CHECKED> {
    /// Reads `text` into nodes and the decoded string buffer.
    pub(super) fn run(text: &'t str, limits: &Limits) -> Result<(Vec<Node>, String), JsonError> {
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
                Some(Node::Key { start, len, .. }) => {
                    self.text.get(start as usize..start as usize + len as usize)
                }
                Some(Node::EscKey { start, len, .. }) => {
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
        while let Some(&c) = b.get(pos) {
            if c == b'\n' {
                pos += 1;
                // A new line's indentation: up to 8 tabs at once (an editor export indents
                // with tabs), the rest one by one.
                if let Some(w) = b.get(pos..).and_then(|s| s.first_chunk::<8>()) {
                    let x = u64::from_le_bytes(*w) ^ 0x0909_0909_0909_0909;
                    pos += (x.trailing_zeros() / 8) as usize;
                }
                continue;
            }
            if !matches!(c, b' ' | b'\r' | b'\t') {
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
                        if !CHECKED && !is_obj && matches!(self.peek(), Some(b'-' | b'0'..=b'9')) {
                            let (count, ended) = self.number_items()?;
                            if !ended {
                                stack.push(Open { at, count, is_obj, key: 0 });
                                continue;
                            }
                            let end = self.idx();
                            if let Some(n) = self.nodes.get_mut(at) {
                                *n = Node::Arr { count, end };
                            }
                        } else {
                            stack.push(Open { at, count: 0, is_obj, key: self.idx() });
                            if is_obj {
                                self.key()?;
                            }
                            continue;
                        }
                    }
                }
                Some(b'"') => self.string::<false>()?,
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
                if is_obj {
                    // The entry ends here: its key says so.
                    let end = self.nodes.len() as u32;
                    if let Some(Node::Key { next, .. } | Node::EscKey { next, .. }) =
                        self.nodes.get_mut(top.key as usize)
                    {
                        *next = end;
                    }
                }
                match self.next_token() {
                    Some(b',') => {
                        self.pos += 1;
                        if is_obj {
                            top.key = self.idx();
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
        self.string::<true>()?;
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

    /// A string starting at its opening quote (`KEY`: an object key, its `next` left 0 until
    /// its value ends).
    #[inline(always)]
    fn string<const KEY: bool>(&mut self) -> Result<(), JsonError> {
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
                let (start, len) = (start as u32, (pos - start) as u32);
                self.push(if KEY {
                    Node::Key { start, len, next: 0 }
                } else {
                    Node::Str { start, len }
                })
            }
            Some(b'\\') => self.escaped_string::<KEY>(start),
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
    fn escaped_string<const KEY: bool>(&mut self, start: usize) -> Result<(), JsonError> {
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
        let (start, len) = (first as u32, len as u32);
        self.push(if KEY { Node::EscKey { start, len, next: 0 } } else { Node::Esc { start, len } })
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
    #[inline(always)]
    fn number(&mut self) -> Result<(), JsonError> {
        match plain_number(self.b, self.pos) {
            Some((value, end)) => {
                self.pos = end;
                self.push(Node::Num(value))
            }
            None => self.number_slow(),
        }
    }

    /// The items of an array whose first item, at the current byte, starts a number, as long as
    /// they are numbers: their count and `true` when the array ended (its `]` read), `false`
    /// when an item that is not a number comes next (the position at it). Only for
    /// unchecked readers (a checked one reads arrays item by item, to know the path of a limit
    /// error).
    fn number_items(&mut self) -> Result<(u32, bool), JsonError> {
        // The position stays in a register here (`self.pos` is written back before any call).
        let b = self.b;
        let mut pos = self.pos;
        let mut count = 0u32;
        loop {
            // Byte by byte: an array's numbers follow a pattern the branch predictor learns
            // (a mesh's `uvs`, or `vertices` repeating count, bone, x, y, weight), and
            // byte-wise reading is fewer instructions than the windowed reader's.
            match plain_number_bytewise(b, pos) {
                Some((value, end)) => {
                    pos = end;
                    self.push(Node::Num(value))?;
                }
                None => {
                    self.pos = pos;
                    self.number_slow()?;
                    pos = self.pos;
                }
            }
            count += 1;
            // The separator: `, ` (as the editor writes it) or `]` directly, else after any
            // whitespace.
            let mut c = b.get(pos).copied();
            if !matches!(c, Some(b',' | b']')) {
                self.pos = pos;
                c = self.next_token();
                pos = self.pos;
            }
            match c {
                Some(b',') => {
                    pos += 1;
                    if b.get(pos) == Some(&b' ') {
                        pos += 1;
                    }
                    if !matches!(b.get(pos), Some(b'-' | b'0'..=b'9')) {
                        self.pos = pos;
                        if !matches!(self.next_token(), Some(b'-' | b'0'..=b'9')) {
                            return Ok((count, false));
                        }
                        pos = self.pos;
                    }
                }
                Some(b']') => {
                    self.pos = pos + 1;
                    return Ok((count, true));
                }
                _ => {
                    self.pos = pos;
                    return Err(self.error("expected `,` or `]`"));
                }
            }
        }
    }

    /// A number (`-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`) that [`plain_number`] does
    /// not read, or an invalid one, read as the nearest `f64` (or failing where it stops being one).
    #[inline(never)]
    fn number_slow(&mut self) -> Result<(), JsonError> {
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

/// A number without an exponent whose digits fit Clinger's fast path (every number Spine
/// writes), at `start`: its value and the position after it; `None` for any other text.
#[inline(always)]
fn plain_number(b: &[u8], start: usize) -> Option<(f64, usize)> {
    if let Some(window) = b.get(start..).and_then(|s| s.first_chunk::<WINDOW>()) {
        if let Some(n) = windowed_number(window) {
            return Some((n.0, start + n.1));
        }
    }
    plain_number_leftover(b, start)
}

/// [`plain_number_bytewise`] out of line, for the numbers [`windowed_number`] leaves.
#[inline(never)]
fn plain_number_leftover(b: &[u8], start: usize) -> Option<(f64, usize)> {
    plain_number_bytewise(b, start)
}

/// Bytes [`windowed_number`] reads from a number's start.
const WINDOW: usize = 16;

/// Each byte's high bit where `word` has the byte `c` (bytes compared one by one: no carry
/// crosses a byte).
#[inline(always)]
fn bytes_equal(word: u64, c: u8) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let t = word ^ (u64::from(c) * 0x0101_0101_0101_0101);
    !((t & LOW7).wrapping_add(LOW7) | t) & HIGH
}

/// Each byte's high bit where `word` has a byte that cannot be part of a plain number (not
/// `-`, `.` or a digit).
#[inline(always)]
fn not_number_bytes(word: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let low = word & LOW7;
    // Per byte, `low + 0x80 - n` reaches the high bit when `low >= n` (no carry out: both
    // terms are at most 0x80).
    let from_minus = low.wrapping_add(0x5353_5353_5353_5353) & HIGH; // >= 0x2d '-'
    let past_nine = low.wrapping_add(0x4646_4646_4646_4646) & HIGH; // >= 0x3a
    (from_minus ^ HIGH) | past_nine | bytes_equal(word, b'/') | (word & HIGH)
}

/// [`plain_number`] of a number shorter than eight bytes, read from the bytes at its start
/// without a branch on its length or on its having a fraction (those branches were
/// mispredicted about once a number in keyframe objects, where integers and decimals of
/// different lengths alternate): its value and length, or `None` for anything else (the
/// byte-wise reader decides).
#[inline(always)]
fn windowed_number(w: &[u8; WINDOW]) -> Option<(f64, usize)> {
    let word =
        |at: usize| w.get(at..).and_then(|s| s.first_chunk::<8>()).map(|c| u64::from_le_bytes(*c));
    let first = word(0)?;
    // The token: the bytes up to the first that is not `-`, `.` or a digit (none: longer
    // than this reader takes).
    let stop = not_number_bytes(first);
    let len = (stop.trailing_zeros() / 8) as usize;
    let in_token = stop.wrapping_sub(1) & !stop;
    let dots = bytes_equal(first, b'.') & in_token;
    let neg = usize::from(first & 0xff == u64::from(b'-'));
    let minuses = bytes_equal(first, b'-') & in_token & !0x80;
    // The digits, after the sign, with the dot (if any) taken out.
    let digits_word = word(neg)?;
    let dot = if dots == 0 { len } else { (dots.trailing_zeros() / 8) as usize };
    let below_dot = (1u64 << (8 * dot.wrapping_sub(neg).min(7))).wrapping_sub(1);
    let joined = (digits_word & below_dot) | ((digits_word >> 8) & !below_dot);
    let int_digits = dot.wrapping_sub(neg);
    let digits = len.wrapping_sub(neg).wrapping_sub(usize::from(dots != 0));
    let frac_digits = digits.wrapping_sub(int_digits);
    let next = w.get(len).copied().unwrap_or(b'e');
    let plain = stop != 0
        && minuses == 0
        && dots & dots.wrapping_sub(1) == 0
        && int_digits.wrapping_sub(1) < 8
        && (dots == 0 || frac_digits > 0)
        && (int_digits == 1 || digits_word & 0xff != u64::from(b'0'))
        && next | 0x20 != b'e';
    if !plain {
        return None;
    }
    // At most 7 digits: below 2^53, Clinger's fast path.
    let m = eight_digits(joined, digits) as i64;
    let f = m as f64 / *POW10.get(frac_digits)?;
    Some((with_sign(f, neg == 1), len))
}

/// The value of the first `n` digits (0 to 8) of `word` (ASCII, first digit in the lowest
/// byte): the digits moved to the top bytes, then paired, quadrupled and joined.
#[inline(always)]
fn eight_digits(word: u64, n: usize) -> u64 {
    let x = word.wrapping_sub(0x3030_3030_3030_3030);
    let Some(v) = x.checked_shl(8 * (8 - n as u32)) else { return 0 };
    let v = (v.wrapping_mul(10).wrapping_add(v >> 8)) & 0x00ff_00ff_00ff_00ff;
    let v = (v.wrapping_mul(100).wrapping_add(v >> 16)) & 0x0000_ffff_0000_ffff;
    (v.wrapping_mul(10_000).wrapping_add(v >> 32)) & 0xffff_ffff
}

/// [`plain_number`] one byte at a time: arrays of numbers, and the numbers
/// [`windowed_number`] leaves.
#[inline(always)]
fn plain_number_bytewise(b: &[u8], start: usize) -> Option<(f64, usize)> {
    let neg = b.get(start) == Some(&b'-');
    let int_start = start + usize::from(neg);
    // Up to 19 digits fit a u64 exactly (more wrap, but are not read here).
    let (mut m, mut pos) = digits(b, int_start, 0);
    let int_digits = pos - int_start;
    if int_digits == 0 || (int_digits > 1 && b.get(int_start) == Some(&b'0')) {
        return None;
    }
    let mut frac_digits = 0;
    let mut next = b.get(pos).copied();
    if next == Some(b'.') {
        let frac_start = pos + 1;
        (m, pos) = digits(b, frac_start, m);
        frac_digits = pos - frac_start;
        if frac_digits == 0 {
            return None;
        }
        next = b.get(pos).copied();
    }
    if matches!(next, Some(b'e' | b'E')) || int_digits + frac_digits > 19 || m >= 1u64 << 53 {
        return None;
    }
    // Clinger's fast path: both operands are exact, so one rounding gives the nearest (and
    // dividing by 10^0 = 1 is exact).
    let f = m as f64 / *POW10.get(frac_digits)?;
    Some((with_sign(f, neg), pos))
}

/// `f` (not negative: a magnitude) negated when `neg`, by setting the sign bit rather than
/// branching: the signs of a mesh's coordinates and of key values follow no pattern a
/// branch predictor could learn.
#[inline(always)]
fn with_sign(f: f64, neg: bool) -> f64 {
    f64::from_bits(f.to_bits() | (u64::from(neg) << 63))
}

/// Reads the decimal digits from `pos` into `m` (wrapping past 19 digits); returns `m` and the
/// position after the last digit.
#[inline(always)]
fn digits(b: &[u8], mut pos: usize, mut m: u64) -> (u64, usize) {
    while let Some(&c) = b.get(pos) {
        let d = c.wrapping_sub(b'0');
        if d > 9 {
            break;
        }
        m = m.wrapping_mul(10).wrapping_add(u64::from(d));
        pos += 1;
    }
    (m, pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use spine_gen::Rng;

    /// Number-like text: a sign, digit runs, dots and exponents in any order and count,
    /// then what may follow a value (or more junk).
    fn number_like(rng: &mut Rng) -> Vec<u8> {
        const AFTER: &[&[u8]] =
            &[b",", b", ", b"]", b"}", b" ", b"\n", b"e5", b"E-2", b".", b"-", b"x", b"/", b":"];
        let mut t = Vec::new();
        if rng.below(3) == 0 {
            t.push(b'-');
        }
        for _ in 0..1 + rng.below(3) {
            match rng.below(10) {
                0 => t.push(b'.'),
                1 => t.push(b'-'),
                2 => t.push(b'0'),
                _ => {
                    for _ in 0..rng.below(10) {
                        t.push(b'0' + rng.below(10) as u8);
                    }
                }
            }
            if rng.below(2) == 0 {
                t.push(b'.');
            }
        }
        for _ in 0..rng.below(3) {
            t.extend_from_slice(AFTER[rng.below(AFTER.len())]);
        }
        while t.len() < WINDOW + 4 {
            t.push(if rng.below(4) == 0 { 0x80 + rng.below(0x80) as u8 } else { b' ' });
        }
        t
    }

    /// The windowed reader gives the byte-wise reader's value (bit for bit) and end for
    /// every text it takes, and takes every short plain number.
    #[test]
    fn windowed_numbers_read_as_the_bytewise_reader_does() {
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
        let (mut taken, mut plain_short) = (0, 0);
        for _ in 0..300_000 {
            let t = number_like(&mut rng);
            let window = t.first_chunk::<WINDOW>().expect("padded");
            let bytewise = plain_number_bytewise(&t, 0);
            match windowed_number(window) {
                Some((v, len)) => {
                    let (w, end) = bytewise.expect("the byte-wise reader takes it too");
                    assert_eq!(
                        (v.to_bits(), len),
                        (w.to_bits(), end),
                        "{:?}",
                        String::from_utf8_lossy(&t)
                    );
                    taken += 1;
                }
                None => {
                    // Left to the byte-wise reader: a number of eight bytes or more, or
                    // one followed by another number byte (`1.5.`, `2-`; an error next).
                    if let Some((_, end)) = bytewise {
                        let next = t.get(end).copied().unwrap_or(b' ');
                        assert!(
                            end >= 8 || matches!(next, b'.' | b'-' | b'0'..=b'9'),
                            "{:?} not taken",
                            String::from_utf8_lossy(&t)
                        );
                    }
                }
            }
            let ends = |end: usize| !matches!(t.get(end), Some(b'.' | b'-' | b'0'..=b'9'));
            plain_short += usize::from(bytewise.is_some_and(|(_, end)| end < 8 && ends(end)));
        }
        assert_eq!(taken, plain_short);
        assert!(taken > 20_000, "{taken}");
    }
}
