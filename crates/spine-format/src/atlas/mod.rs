//! libgdx texture atlases (`.atlas`), in both syntaxes the Spine exporters write.
//!
//! * The 4.x syntax (libgdx `TextureAtlas` since 2020): a page is its file name followed by
//!   `size:`, `filter:`, `repeat:`, `pma:`, `scale:` … entries; a region is its name followed by
//!   `bounds: x, y, w, h`, `offsets: ox, oy, origW, origH`, `rotate: 90`, `index: n` and any
//!   other `name: v1, v2, …` entries (kept as they are, e.g. nine-patch `split:`/`pad:`).
//! * The 3.x syntax: page entries `size:`, `format:`, `filter:`, `repeat:`; region entries
//!   `rotate: true|false`, `xy:`, `size:`, `orig:`, `offset:`, `index:`.
//!
//! Both are the same line grammar — a line without a colon names a page (after a blank line or at
//! the start) or a region (inside a page); an indented or unindented `key: values` line is an
//! entry of the page or region above it. Entries are kept raw (integers as integers, in file
//! order for the unknown ones); accessors such as [`Region::bounds`] and [`Page::pma`] give the
//! values with the official readers' defaults (spine-libgdx / spine-ts `TextureAtlas`). Lines may
//! end in `\n`, `\r\n` or `\r`; blank lines separate pages; leading blank lines are skipped.

use nom::combinator::{eof, iterator, rest};
use nom::sequence::{preceded, separated_pair, terminated};
use nom::{IResult, Parser};
use serde::Serialize;

/// An atlas could not be parsed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}, at line {line}")]
#[non_exhaustive]
pub struct AtlasError {
    /// 1-based line number.
    pub line: usize,
    /// What went wrong.
    pub message: String,
}

/// A parsed atlas: optional header entries, then pages with their regions.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Atlas {
    /// `key: values` lines before the first page (the 4.x readers ignore them).
    pub header: Vec<Entry>,
    /// Pages in file order.
    pub pages: Vec<Page>,
}

/// An entry the parser does not interpret: `name: v1, v2, …` with the values as written.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Entry {
    /// Text before the colon, trimmed.
    pub name: String,
    /// Comma-separated values after the colon, each trimmed.
    pub values: Vec<String>,
}

impl Entry {
    /// The values as integers (libgdx parses unknown region entries with `Integer.parseInt`),
    /// or `None` when one is not an integer.
    pub fn ints(&self) -> Option<Vec<i32>> {
        self.values.iter().map(|v| v.parse().ok()).collect()
    }
}

/// One texture page.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Page {
    /// Texture file name (the page's first line).
    pub name: String,
    /// `size: w, h` (absent in atlases of very old packers).
    pub size: Option<[i32; 2]>,
    /// `format: RGBA8888` (3.x syntax; ignored by the runtimes).
    pub format: Option<String>,
    /// `filter: min, mag` as written (e.g. `Linear`, `MipMapLinearLinear`).
    pub filter: Option<[String; 2]>,
    /// `repeat: none|x|y|xy` as written.
    pub repeat: Option<String>,
    /// `pma: true|false` (4.x).
    pub pma: Option<bool>,
    /// `scale: s` (4.x; written by the packer, not read by the Spine runtimes).
    pub scale: Option<f32>,
    /// Other page entries, in file order.
    pub extra: Vec<Entry>,
    /// Regions of this page, in file order.
    pub regions: Vec<Region>,
    /// 1-based line of the page name.
    pub line: usize,
}

impl Page {
    /// Page width in pixels (0 when `size` is absent).
    pub fn width(&self) -> i32 {
        self.size.map_or(0, |s| s[0])
    }
    /// Page height in pixels (0 when `size` is absent).
    pub fn height(&self) -> i32 {
        self.size.map_or(0, |s| s[1])
    }
    /// Premultiplied alpha (`pma:`; default `false`).
    pub fn pma(&self) -> bool {
        self.pma.unwrap_or(false)
    }
    /// Minification and magnification filters (default `Nearest, Nearest`).
    pub fn filters(&self) -> (&str, &str) {
        match &self.filter {
            Some([a, b]) => (a, b),
            None => ("Nearest", "Nearest"),
        }
    }
    /// Whether the texture repeats along u and v (`repeat:` contains `x` / `y`; default clamp).
    pub fn repeat_uv(&self) -> (bool, bool) {
        let r = self.repeat.as_deref().unwrap_or("none");
        if r == "none" {
            return (false, false);
        }
        (r.contains('x'), r.contains('y'))
    }
}

/// A region's `rotate:` value as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Rotate {
    /// `true` (90°) or `false` (0°).
    Bool(bool),
    /// Degrees (4.x: `rotate: 90`).
    Degrees(i32),
}

/// One region of a page.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Region {
    /// Region name (the attachment path; inline up to 23 bytes, see [`crate::Name`]).
    pub name: crate::Name,
    /// `bounds: x, y, w, h` (4.x).
    pub bounds: Option<[i32; 4]>,
    /// `xy: x, y` (3.x).
    pub xy: Option<[i32; 2]>,
    /// `size: w, h` (3.x).
    pub size: Option<[i32; 2]>,
    /// `offsets: x, y, origW, origH` (4.x).
    pub offsets: Option<[i32; 4]>,
    /// `offset: x, y` (3.x).
    pub offset: Option<[i32; 2]>,
    /// `orig: w, h` (3.x).
    pub orig: Option<[i32; 2]>,
    /// `rotate:` (default not rotated).
    pub rotate: Option<Rotate>,
    /// `index: n` (default -1: not part of a numbered sequence).
    pub index: Option<i32>,
    /// Other entries (`split:`, `pad:`, custom values), in file order.
    pub extra: Vec<Entry>,
    /// 1-based line of the region name.
    pub line: usize,
}

impl Region {
    /// `[x, y, width, height]` in page pixels, from `bounds:` or `xy:` + `size:` (missing = 0).
    pub fn bounds(&self) -> [i32; 4] {
        if let Some(b) = self.bounds {
            return b;
        }
        let [x, y] = self.xy.unwrap_or([0, 0]);
        let [w, h] = self.size.unwrap_or([0, 0]);
        [x, y, w, h]
    }
    /// `[offsetX, offsetY, originalWidth, originalHeight]` from `offsets:` or `offset:` +
    /// `orig:`; an original size of 0×0 means "the packed size" (as the readers do).
    pub fn offsets(&self) -> [i32; 4] {
        let [ox, oy, mut w, mut h] = match self.offsets {
            Some(o) => o,
            None => {
                let [ox, oy] = self.offset.unwrap_or([0, 0]);
                let [w, h] = self.orig.unwrap_or([0, 0]);
                [ox, oy, w, h]
            }
        };
        if w == 0 && h == 0 {
            let b = self.bounds();
            w = b[2];
            h = b[3];
        }
        [ox, oy, w, h]
    }
    /// Rotation in degrees (`true` = 90, `false`/absent = 0).
    pub fn degrees(&self) -> i32 {
        match self.rotate {
            None | Some(Rotate::Bool(false)) => 0,
            Some(Rotate::Bool(true)) => 90,
            Some(Rotate::Degrees(d)) => d,
        }
    }
    /// Index in a numbered sequence (default -1).
    pub fn index(&self) -> i32 {
        self.index.unwrap_or(-1)
    }
    /// An entry not interpreted by the parser, by name.
    pub fn entry(&self, name: &str) -> Option<&Entry> {
        self.extra.iter().find(|e| e.name == name)
    }
}

impl Atlas {
    /// Every region with its page, in file order.
    pub fn regions(&self) -> impl Iterator<Item = (&Page, &Region)> {
        self.pages.iter().flat_map(|p| p.regions.iter().map(move |r| (p, r)))
    }
    /// The first region named `name` (any index).
    pub fn find_region(&self, name: &str) -> Option<(&Page, &Region)> {
        self.regions().find(|(_, r)| r.name == name)
    }
    /// The first region named `name` with index `index` (`-1` for regions without `index:`).
    pub fn find_region_index(&self, name: &str, index: i32) -> Option<(&Page, &Region)> {
        self.regions().find(|(_, r)| r.name == name && r.index() == index)
    }
}

fn err(line: usize, message: impl Into<String>) -> AtlasError {
    AtlasError { line, message: message.into() }
}

/// An entry line borrowed from the text: the trimmed key and the raw value list (split and
/// trimmed on use, so the known entries allocate nothing).
#[derive(Clone, Copy)]
struct RawEntry<'a> {
    name: &'a str,
    values: &'a str,
}

impl<'a> RawEntry<'a> {
    /// The trimmed comma-separated values.
    fn values(self) -> impl Iterator<Item = &'a str> {
        self.values.split(',').map(trim)
    }

    /// The owned [`Entry`] (kept for entries the parser does not interpret).
    fn owned(self) -> Entry {
        Entry { name: self.name.to_owned(), values: self.values().map(str::to_owned).collect() }
    }
}

/// The atlas grammar's parsers: nom over `&str`. A failed parse carries no detail (the
/// caller knows the line and says what was expected).
type Res<'a, T, I = &'a str> = IResult<I, T, ()>;

/// The text before the first `byte` (not consumed); fails when there is none.
#[inline]
fn until<const BYTE: u8>(i: &str) -> Res<'_, &str> {
    match i.bytes().position(|b| b == BYTE) {
        Some(k) => Ok((&i[k..], &i[..k])),
        None => Err(nom::Err::Error(())),
    }
}

/// The separator `BYTE` (an ASCII byte).
#[inline]
fn sep<const BYTE: u8>(i: &str) -> Res<'_, ()> {
    match i.as_bytes().first() {
        Some(&b) if b == BYTE => Ok((&i[1..], ())),
        _ => Err(nom::Err::Error(())),
    }
}

/// One comma-separated value: the text up to the next comma or the end, trimmed.
#[inline]
fn field(i: &str) -> Res<'_, &str> {
    let k = i.bytes().position(|b| b == b',').unwrap_or(i.len());
    Ok((&i[k..], trim(&i[..k])))
}

/// An integer value.
#[inline]
fn int_field(i: &str) -> Res<'_, i32> {
    let (i, v) = field(i)?;
    match int(v) {
        Some(n) => Ok((i, n)),
        None => Err(nom::Err::Error(())),
    }
}

/// `key: values`: the trimmed key and the raw values; `None` when there is no colon.
#[inline]
fn split_entry(line: &str) -> Option<RawEntry<'_>> {
    let (_, (k, v)) = separated_pair(until::<b':'>, sep::<b':'>, rest).parse(line).ok()?;
    Some(RawEntry { name: trim(k), values: v })
}

/// `str::trim` with an ASCII fast path: after the ASCII whitespace is cut, a text that
/// starts and ends with a printable ASCII byte has nothing left for `trim` to remove.
#[inline]
fn trim(s: &str) -> &str {
    let t = s.trim_ascii();
    match (t.as_bytes().first(), t.as_bytes().last()) {
        (Some(&a), Some(&b)) if !plain(a) || !plain(b) => t.trim(),
        _ => t,
    }
}

/// A byte `str::trim` never removes on its own: ASCII and not whitespace (`trim_ascii`
/// leaves vertical tab 0x0B, which Unicode `White_Space` includes).
#[inline]
fn plain(b: u8) -> bool {
    b < 0x80 && b != 0x0b
}

/// `str::parse::<i32>` with a fast path for up to nine digits after an optional `-`.
#[inline]
fn int(v: &str) -> Option<i32> {
    let (neg, digits) = match v.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        all => (false, all),
    };
    if digits.is_empty() || digits.len() > 9 {
        return v.parse().ok();
    }
    let mut n = 0i32;
    for &d in digits {
        let d = d.wrapping_sub(b'0');
        if d > 9 {
            return v.parse().ok();
        }
        n = n * 10 + i32::from(d);
    }
    Some(if neg { -n } else { n })
}

/// One line: the text up to `\r\n`, `\n` or `\r` (as splitting on `\r\n` and then on
/// `\n` / `\r`), or up to the end, which makes it the last line (the input becomes `None`).
#[inline]
fn line(i: Option<&str>) -> Res<'_, &str, Option<&str>> {
    let Some(t) = i else { return Err(nom::Err::Error(())) };
    match memchr::memchr2(b'\n', b'\r', t.as_bytes()) {
        Some(k) => {
            let end = if t.as_bytes()[k..].starts_with(b"\r\n") { 2 } else { 1 };
            Ok((Some(&t[k + end..]), &t[..k]))
        }
        None => Ok((None, t)),
    }
}

/// The lines of `text` ([`line`] after [`line`]).
#[cfg(test)]
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut it = iterator(Some(text), line);
    std::iter::from_fn(move || it.next())
}

/// `N` comma-separated integers as exporters write them (ASCII spaces or tabs around each
/// value, up to nine digits after an optional `-`), in one pass; `None` (any other
/// spelling, or an error) sends the caller to the general path, which reads the same
/// values or reports the error.
#[inline]
fn ints_fast<const N: usize>(values: &str) -> Option<[i32; N]> {
    let b = values.as_bytes();
    let blank = |k: &mut usize| {
        while matches!(b.get(*k), Some(b' ' | b'\t')) {
            *k += 1;
        }
    };
    let mut out = [0i32; N];
    let mut k = 0;
    for (j, o) in out.iter_mut().enumerate() {
        if j > 0 {
            if b.get(k) != Some(&b',') {
                return None;
            }
            k += 1;
        }
        blank(&mut k);
        let neg = b.get(k) == Some(&b'-');
        k += usize::from(neg);
        let start = k;
        let mut n = 0i32;
        while let Some(&d) = b.get(k) {
            let d = d.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            if k - start == 9 {
                return None;
            }
            n = n * 10 + i32::from(d);
            k += 1;
        }
        if k == start {
            return None;
        }
        *o = if neg { -n } else { n };
        blank(&mut k);
    }
    (k == b.len()).then_some(out)
}

fn ints<const N: usize>(e: RawEntry<'_>, line: usize) -> Result<[i32; N], AtlasError> {
    if let Some(v) = ints_fast::<N>(e.values) {
        return Ok(v);
    }
    let expected = || {
        let found = e.values().collect::<Vec<_>>().join(", ");
        format!("expected {N} integer(s) for `{}`, found `{found}`", e.name)
    };
    let mut out = [0i32; N];
    // The first value, then `, value` for the others, then the end.
    let mut i = e.values;
    for (k, o) in out.iter_mut().enumerate() {
        let parsed = if k == 0 { int_field(i) } else { preceded(sep::<b','>, int_field).parse(i) };
        match parsed {
            Ok((rest, v)) => (i, *o) = (rest, v),
            Err(_) => return Err(err(line, expected())),
        }
    }
    match eof::<_, ()>(i) {
        Ok(_) => Ok(out),
        Err(_) => Err(err(line, expected())),
    }
}

fn one<'a>(e: RawEntry<'a>, line: usize) -> Result<&'a str, AtlasError> {
    match terminated(field, eof).parse(e.values) {
        Ok((_, v)) => Ok(v),
        Err(_) => Err(err(line, format!("expected one value for `{}`", e.name))),
    }
}

fn boolean(e: RawEntry<'_>, line: usize) -> Result<bool, AtlasError> {
    match one(e, line)? {
        "true" => Ok(true),
        "false" => Ok(false),
        v => Err(err(line, format!("expected `true` or `false` for `{}`, found `{v}`", e.name))),
    }
}

fn page_entry(page: &mut Page, e: RawEntry<'_>, line: usize) -> Result<(), AtlasError> {
    match e.name {
        "size" => page.size = Some(ints::<2>(e, line)?),
        "format" => page.format = Some(one(e, line)?.to_owned()),
        "filter" => match (field, preceded(sep::<b','>, field), eof).parse(e.values) {
            Ok((_, (a, b, _))) => page.filter = Some([a.to_owned(), b.to_owned()]),
            Err(_) => return Err(err(line, "expected two values `min, mag` for `filter`")),
        },
        "repeat" => page.repeat = Some(one(e, line)?.to_owned()),
        "pma" => page.pma = Some(boolean(e, line)?),
        "scale" => {
            let v = one(e, line)?;
            page.scale =
                Some(v.parse().map_err(|_| {
                    err(line, format!("expected a number for `scale`, found `{v}`"))
                })?);
        }
        _ => page.extra.push(e.owned()),
    }
    Ok(())
}

fn region_entry(region: &mut Region, e: RawEntry<'_>, line: usize) -> Result<(), AtlasError> {
    match e.name {
        "bounds" => region.bounds = Some(ints::<4>(e, line)?),
        "xy" => region.xy = Some(ints::<2>(e, line)?),
        "size" => region.size = Some(ints::<2>(e, line)?),
        "offsets" => region.offsets = Some(ints::<4>(e, line)?),
        "offset" => region.offset = Some(ints::<2>(e, line)?),
        "orig" => region.orig = Some(ints::<2>(e, line)?),
        "index" => region.index = Some(ints::<1>(e, line)?[0]),
        "rotate" => {
            region.rotate = Some(match one(e, line)? {
                "true" => Rotate::Bool(true),
                "false" => Rotate::Bool(false),
                v => Rotate::Degrees(v.parse().map_err(|_| {
                    err(
                        line,
                        format!("expected `true`, `false` or degrees for `rotate`, found `{v}`"),
                    )
                })?),
            })
        }
        _ => region.extra.push(e.owned()),
    }
    Ok(())
}

/// Parses an atlas in either syntax.
pub fn parse(text: &str) -> Result<Atlas, AtlasError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut atlas = Atlas::default();
    // False between pages (start of file or after a blank line).
    let mut in_page = false;
    let mut lines = iterator(Some(text), line);
    let mut n = 0usize;
    let mut seen_page = false;
    for raw in &mut lines {
        n += 1;
        let line = trim(raw);
        if line.is_empty() {
            in_page = false;
            continue;
        }
        if !in_page {
            // Header entries before the first page.
            if !seen_page {
                if let Some(e) = split_entry(line) {
                    atlas.header.push(e.owned());
                    continue;
                }
            }
            atlas.pages.push(Page { name: line.to_owned(), line: n, ..Page::default() });
            in_page = true;
            seen_page = true;
            continue;
        }
        let Some(page) = atlas.pages.last_mut() else {
            return Err(err(n, "expected a page name"));
        };
        match split_entry(line) {
            Some(e) => match page.regions.last_mut() {
                None => page_entry(page, e, n)?,
                Some(region) => region_entry(region, e, n)?,
            },
            None => page.regions.push(Region { name: line.into(), line: n, ..Region::default() }),
        }
    }
    Ok(atlas)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_syntaxes_and_line_endings() {
        let text = "\r\na.png\r\nsize: 64,32\r\nformat: RGBA8888\r\nfilter: Linear,Linear\r\nrepeat: none\r\nr1\r\n  rotate: true\r\n  xy: 1, 2\r\n  size: 3, 4\r\n  orig: 5, 6\r\n  offset: 0, 1\r\n  index: 7\r\n\r\nb.png\n\tsize: 8, 8\n\tpma: true\n\tscale: 0.5\nr2\n\tbounds: 1, 2, 3, 4\n\trotate: 270\n\tsplit: 1, 2, 3, 4\n";
        let a = parse(text).unwrap();
        assert_eq!(a.pages.len(), 2);
        let (p, r) = a.find_region_index("r1", 7).unwrap();
        assert_eq!((p.name.as_str(), p.width(), p.height()), ("a.png", 64, 32));
        assert_eq!(r.bounds(), [1, 2, 3, 4]);
        assert_eq!(r.offsets(), [0, 1, 5, 6]);
        assert_eq!(r.degrees(), 90);
        let (p, r) = a.find_region("r2").unwrap();
        assert!(p.pma());
        assert_eq!(p.scale, Some(0.5));
        assert_eq!((r.degrees(), r.index(), r.offsets()), (270, -1, [0, 0, 3, 4]));
        assert_eq!(r.entry("split").and_then(Entry::ints), Some(vec![1, 2, 3, 4]));
        assert_eq!(r.line, 19);
    }

    #[test]
    fn fast_paths_match_std() {
        for text in ["", "a", "a\r\r\nb\n\rc\r\n\r\nd", "\n\n", "x\r", "\r\n\r", "é\rü\n"] {
            let std_lines: Vec<&str> =
                text.split("\r\n").flat_map(|l| l.split(['\n', '\r'])).collect();
            assert_eq!(lines(text).collect::<Vec<_>>(), std_lines, "{text:?}");
        }
        for s in ["", " ", "\u{b}a\u{b}", "\u{a0}a b\u{2003}", " \tx\x0c", "é ", "\u{85}", "a"] {
            assert_eq!(trim(s), s.trim(), "{s:?}");
        }
        for v in [
            "0",
            "-0",
            "+7",
            "007",
            "-",
            "",
            "123456789",
            "2147483647",
            "-2147483648",
            "2147483648",
            "1a",
            "١",
        ] {
            assert_eq!(int(v), v.parse().ok(), "{v:?}");
        }
        for (size, ok) in
            [("1 , 2 ", true), ("1, 2,", false), ("1", false), ("1,,2", false), (" 3,4", true)]
        {
            assert_eq!(parse(&format!("p.png\nsize: {size}\n")).is_ok(), ok, "{size:?}");
        }
        // The one-pass integer lists agree with the general path wherever they answer.
        for v in [
            "1, 2",
            " -3 ,\t4\t",
            "123456789, -123456789",
            "1234567890, 1",
            "+1, 2",
            "1 2, 3",
            "1, 2, 3",
            "1,",
            "\u{a0}1, 2",
            "1, -",
            "-0, 007",
        ] {
            let e = RawEntry { name: "size", values: v };
            let general: Option<[i32; 2]> = e
                .values()
                .map(|x| x.parse().ok())
                .collect::<Option<Vec<i32>>>()
                .and_then(|v| v.try_into().ok());
            if let Some(fast) = ints_fast::<2>(v) {
                assert_eq!(Some(fast), general, "{v:?}");
            }
            assert_eq!(ints::<2>(e, 1).ok(), general, "{v:?}");
        }
        assert_eq!(ints_fast::<2>(" -3 ,\t4\t"), Some([-3, 4]));
        assert_eq!(ints_fast::<2>("1234567890, 1"), None);
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse("p.png\nsize: 1, x\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("expected 2 integer(s) for `size`"), "{e}");
        let e = parse("p.png\nr\n  rotate: maybe\n").unwrap_err();
        assert_eq!(e.line, 3);
    }
}
