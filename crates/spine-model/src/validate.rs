//! The library side of `skel validate FILE... [--atlas A] [--no-atlas]`, and the file rules
//! every `skel` verb shares.
//!
//! [`validate`] loads one file (parse, resolve, bind the atlas) and returns every problem as
//! one display line; an empty list means the file is valid. The CLI prints the lines and
//! exits 1 when any file has one. [`validate_bytes`] does the same on bytes already read.
//!
//! Format detection ([`sniff`]): the one content-based rule (never the file name) every
//! verb uses; see [`FileFormat`].
//!
//! Atlas discovery ([`discover_atlas`]): `<stem>.atlas` beside the file; else, for exports
//! named `<base>-pro` / `<base>-ess`, `<base>.atlas`; else the only `.atlas` in the folder
//! whose name does not end in `-pma.atlas`; else none (geometry-only).
//!
//! Page images ([`page_path`]): an atlas page names its image relative to the atlas' folder
//! and must stay inside it (no absolute path, drive, root or `..` component).

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use spine_format::atlas::Atlas;
use spine_format::Limits;

use crate::{LoadError, LoadOptions, SkeletonData};

/// Which atlas to bind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AtlasChoice {
    /// Discover one beside the file ([`discover_atlas`]).
    Auto,
    /// This file.
    File(PathBuf),
    /// Geometry only (`--no-atlas`).
    None,
}

/// The outcome of validating one file.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The atlas used, if any.
    pub atlas: Option<PathBuf>,
    /// Every problem, one display line each (empty = valid).
    pub problems: Vec<String>,
}

/// What a file holds, judged from its bytes alone by [`sniff`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileFormat {
    /// A Spine binary skeleton (`.skel`): anything not recognized as another format, or
    /// whose header holds a version string.
    SpineBinary,
    /// A Spine JSON skeleton: a JSON object (after an optional UTF-8 BOM) with a top-level
    /// `skeleton` key, or with Spine's keys and none of SkelForm's.
    SpineJson,
    /// A SkelForm `.skf` archive (a zip file).
    SkelformArchive,
    /// A bare SkelForm `armature.json`: a JSON object without a `skeleton` key.
    SkelformJson,
    /// A libgdx texture atlas (text: a page image name, then `size:` / `filter:` lines).
    Atlas,
    /// Something that is no skeleton at all; the text says what it is.
    NotSkeleton(&'static str),
}

impl FileFormat {
    /// The contract's format name (`skel info`'s `format`): `spine-binary`, `spine-json`,
    /// `skelform`; `atlas` / `unknown` for the others.
    pub fn name(self) -> &'static str {
        match self {
            FileFormat::SpineBinary => "spine-binary",
            FileFormat::SpineJson => "spine-json",
            FileFormat::SkelformArchive | FileFormat::SkelformJson => "skelform",
            FileFormat::Atlas => "atlas",
            FileFormat::NotSkeleton(_) => "unknown",
        }
    }

    /// Whether the file is SkelForm (archive or bare JSON).
    pub fn is_skelform(self) -> bool {
        matches!(self, FileFormat::SkelformArchive | FileFormat::SkelformJson)
    }

    /// Why the file cannot be loaded as a skeleton (`Atlas`, `NotSkeleton`), else `None`.
    pub fn refusal(self) -> Option<&'static str> {
        match self {
            FileFormat::Atlas => Some(
                "this is a libgdx texture atlas, not a skeleton: give the skeleton file \
                 (.skel or .json), and the atlas with --atlas",
            ),
            FileFormat::NotSkeleton(why) => Some(why),
            _ => None,
        }
    }
}

/// The bytes without a leading UTF-8 byte order mark.
pub fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// The text of a JSON document: the bytes without a UTF-8 BOM, checked to be UTF-8 (the
/// error names the first bad byte's offset in the file).
pub fn json_text(bytes: &[u8]) -> Result<&str, String> {
    let body = strip_bom(bytes);
    let bom = bytes.len() - body.len();
    std::str::from_utf8(body)
        .map_err(|e| format!("JSON is not UTF-8: invalid byte at byte {}", bom + e.valid_up_to()))
}

/// Detects the format of a skeleton file from its content (never its name). The one rule
/// every `skel` verb uses:
///
/// * a zip archive (`PK\x03\x04` / `PK\x05\x06`): SkelForm `.skf`;
/// * a header holding a Spine version string where the binary format has it: Spine binary;
/// * after an optional UTF-8 BOM and white space, `{`: JSON; Spine JSON when it has a
///   top-level `skeleton` key, SkelForm when it has one of SkelForm's keys (`version`,
///   `atlases`, `styles`, `armature`, …), Spine when it has one of Spine's other keys
///   (`slots`, `skins`, …), else SkelForm (an empty armature);
/// * other JSON (an array, a string, a number): not a skeleton;
/// * a libgdx atlas, a PNG or JPEG image, an empty file: not a skeleton (said so);
/// * anything else: Spine binary (whose parser then says what is wrong).
pub fn sniff(bytes: &[u8]) -> FileFormat {
    if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        return FileFormat::SkelformArchive;
    }
    if bytes.is_empty() {
        return FileFormat::NotSkeleton("the file is empty");
    }
    if bytes.starts_with(b"\x89PNG") {
        return FileFormat::NotSkeleton("this is a PNG image, not a skeleton");
    }
    if bytes.starts_with(b"\xFF\xD8\xFF") {
        return FileFormat::NotSkeleton("this is a JPEG image, not a skeleton");
    }
    if has_binary_version(bytes) {
        return FileFormat::SpineBinary;
    }
    let body = strip_bom(bytes);
    let start = body.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(body.len());
    let text = &body[start..];
    match text.first() {
        Some(b'{') => return json_object_format(text),
        Some(b'[') => {
            return FileFormat::NotSkeleton(
                "not a Spine JSON skeleton (the root is an array, not an object)",
            )
        }
        None => return FileFormat::NotSkeleton("the file holds only white space"),
        _ => {}
    }
    if is_json_scalar(text) {
        return FileFormat::NotSkeleton(
            "not a Spine JSON skeleton (the root is a single value, not an object)",
        );
    }
    if looks_like_atlas(body) {
        return FileFormat::Atlas;
    }
    FileFormat::SpineBinary
}

/// Whether the header holds a Spine version string (supported or not) where the binary
/// format has it.
fn has_binary_version(bytes: &[u8]) -> bool {
    use spine_format::BinaryErrorKind;
    match spine_format::binary::detect(bytes) {
        Ok(_) => true,
        Err(e) => matches!(e.kind, BinaryErrorKind::UnsupportedVersion { .. }),
    }
}

/// `null`, `true`, `false`, a number or a string, and nothing else.
fn is_json_scalar(text: &[u8]) -> bool {
    let end = text.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(0, |i| i + 1);
    let t = &text[..end];
    if matches!(t, b"null" | b"true" | b"false") {
        return true;
    }
    if t.len() >= 2 && t[0] == b'"' && t[t.len() - 1] == b'"' && !t[1..t.len() - 1].contains(&b'"')
    {
        return true;
    }
    std::str::from_utf8(t).is_ok_and(|s| s.parse::<f64>().is_ok())
}

/// Spine JSON or SkelForm `armature.json`, from the top-level keys of a JSON object.
fn json_object_format(text: &[u8]) -> FileFormat {
    const SKELFORM: &[&[u8]] = &[
        b"version",
        b"atlases",
        b"styles",
        b"visuals",
        b"armature",
        b"texture_size",
        b"ik_root_ids",
        b"ik_families",
        b"inverse_kinematics",
        b"baked_ik",
        b"img_format",
        b"clear_color",
    ];
    const SPINE: &[&[u8]] =
        &[b"slots", b"skins", b"ik", b"transform", b"path", b"slider", b"events", b"constraints"];
    let (mut skelform, mut spine) = (false, false);
    let mut verdict = None;
    top_level_keys(text, |key| {
        if key == b"skeleton" {
            verdict = Some(FileFormat::SpineJson);
            return false;
        }
        skelform |= SKELFORM.contains(&key);
        spine |= SPINE.contains(&key);
        true
    });
    verdict.unwrap_or(if skelform || !spine {
        FileFormat::SkelformJson
    } else {
        FileFormat::SpineJson
    })
}

/// Calls `f` with every key of the top-level object of `text` (which starts with `{`), as
/// written (escapes not decoded), until `f` returns false, the object ends or the text does.
/// Reads nothing into memory and keeps no stack: any nesting depth costs nothing.
fn top_level_keys(text: &[u8], mut f: impl FnMut(&[u8]) -> bool) {
    let mut depth = 0usize;
    let mut expect_key = false;
    let mut i = 0;
    while let Some(&c) = text.get(i) {
        match c {
            b'"' => {
                let start = i + 1;
                let mut j = start;
                while let Some(&d) = text.get(j) {
                    match d {
                        b'\\' => j += 2,
                        b'"' => break,
                        _ => j += 1,
                    }
                }
                if depth == 1 && expect_key {
                    expect_key = false;
                    if !f(text.get(start..j).unwrap_or_default()) {
                        return;
                    }
                }
                i = j;
            }
            b'{' | b'[' => {
                depth += 1;
                expect_key = depth == 1;
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return;
                }
            }
            b',' if depth == 1 => expect_key = true,
            _ => {}
        }
        i += 1;
    }
}

/// A libgdx atlas: its first non-blank line names an image, and one of the next lines is
/// a page entry (`size:`, `format:`, `filter:`, `repeat:`, `pma:`, `scale:`).
fn looks_like_atlas(body: &[u8]) -> bool {
    let head = &body[..body.len().min(4096)];
    let text = match std::str::from_utf8(head) {
        Ok(t) => t,
        Err(e) => std::str::from_utf8(&head[..e.valid_up_to()]).unwrap_or_default(),
    };
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let Some(first) = lines.next() else { return false };
    let lower = first.to_ascii_lowercase();
    let image = [".png", ".jpg", ".jpeg", ".webp", ".ktx", ".pvr", ".tga", ".bmp"]
        .iter()
        .any(|ext| lower.ends_with(ext));
    image
        && lines.take(8).any(|l| {
            ["size:", "format:", "filter:", "repeat:", "pma:", "scale:"]
                .iter()
                .any(|k| l.starts_with(k))
        })
}

/// The image file of the atlas page named `name`, for an atlas in `dir`: `dir/name` when
/// `name` is a relative path that stays inside `dir`; an absolute path, a drive or root,
/// a `..` component (`\` counts as a separator too), an empty name or a NUL byte is an
/// error naming the page.
pub fn page_path(dir: &Path, name: &str) -> Result<PathBuf, String> {
    let bad = |why: &str| Err(format!("atlas page {name:?} {why}"));
    if name.trim().is_empty() {
        return bad("has an empty image name");
    }
    if name.contains('\0') {
        return bad("has a NUL byte in its image name");
    }
    if name.starts_with(['/', '\\']) || name.contains(':') {
        return bad("is an absolute path: page images must be inside the atlas' folder");
    }
    for part in name.split(['/', '\\']) {
        if part == ".." {
            return bad("leaves the atlas' folder (`..`): page images must be inside it");
        }
    }
    let rel = Path::new(name);
    if rel.components().any(|c| !matches!(c, Component::Normal(_) | Component::CurDir)) {
        return bad("is not a relative path inside the atlas' folder");
    }
    Ok(dir.join(rel))
}

/// Problems of the pages of `atlas` (read from `atlas_path`): page images outside the
/// atlas' folder ([`page_path`]).
pub fn atlas_page_problems(atlas: &Atlas, atlas_path: &Path) -> Vec<String> {
    let dir = atlas_path.parent().unwrap_or(Path::new(""));
    atlas.pages.iter().filter_map(|p| page_path(dir, &p.name).err()).collect()
}

/// Finds the atlas for a skeleton file (see the module docs).
pub fn discover_atlas(skeleton: &Path) -> Option<PathBuf> {
    let dir = skeleton.parent()?;
    let stem = skeleton.file_stem()?.to_str()?;
    let direct = dir.join(format!("{stem}.atlas"));
    if direct.is_file() {
        return Some(direct);
    }
    if let Some((base, _)) = stem.rsplit_once('-') {
        let based = dir.join(format!("{base}.atlas"));
        if based.is_file() {
            return Some(based);
        }
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(".atlas") && !n.ends_with("-pma.atlas"))
        })
        .collect();
    (found.len() == 1).then(|| found.remove(0))
}

/// Reads at most `max` bytes of `path` (a larger file, device or pipe is an error naming
/// the limit, after reading `max + 1` bytes at most).
pub fn read_bounded(path: &Path, max: usize) -> Result<Vec<u8>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut bytes = Vec::new();
    file.take(max as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.len() > max {
        return Err(format!("{}: over the {max}-byte limit (max_file_bytes)", path.display()));
    }
    Ok(bytes)
}

/// Parses atlas text (an optional UTF-8 BOM skipped); errors give the line.
pub fn parse_atlas(bytes: &[u8]) -> Result<Atlas, String> {
    let body = strip_bom(bytes);
    let text = std::str::from_utf8(body)
        .map_err(|e| format!("not UTF-8: invalid byte at byte {}", e.valid_up_to()))?;
    spine_format::atlas::parse(text).map_err(|e| format!("line {}: {}", e.line, e.message))
}

/// Loads an atlas file (at most [`Limits::max_file_bytes`] of the default limits).
pub fn load_atlas(path: &Path) -> Result<Atlas, String> {
    let bytes = read_bounded(path, Limits::default().max_file_bytes)?;
    parse_atlas(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Loads a Spine skeleton from its bytes (binary or JSON, [`sniff`]ed) with `options`.
/// Formats that are not Spine skeletons are refused with a message saying what they are.
pub fn load_spine(bytes: &[u8], options: &LoadOptions<'_>) -> Result<SkeletonData, LoadError> {
    match sniff(bytes) {
        FileFormat::SpineJson => {
            let text = json_text(bytes).map_err(LoadError::Json)?;
            match spine_format::json::parse(text) {
                Ok(parsed) => SkeletonData::from_json(&parsed, options),
                // 4.3 JSON has its own reader.
                Err(e) if crate::json43::declares_43(&e, text) => {
                    let parsed = spine_format::json43::parse(text)
                        .map_err(|e| LoadError::Json(e.to_string()))?;
                    SkeletonData::from_json43(&parsed, options)
                }
                Err(e) => Err(LoadError::Json(e.to_string())),
            }
        }
        FileFormat::SpineBinary => crate::load_binary_with(bytes, options),
        FileFormat::SkelformArchive | FileFormat::SkelformJson => {
            Err(LoadError::Unsupported("a SkelForm armature (not a Spine skeleton)".to_owned()))
        }
        f => Err(LoadError::Unsupported(f.refusal().unwrap_or("this file").to_owned())),
    }
}

/// Every problem of a Spine skeleton given as bytes, bound to `atlas` (its parsed text and
/// path; `None`: geometry only), one display line each; empty when valid. Pages of the
/// atlas whose image lies outside its folder are problems too.
pub fn validate_bytes(bytes: &[u8], atlas: Option<(&Atlas, &Path)>) -> Vec<String> {
    let atlas_name =
        atlas.and_then(|(_, p)| p.file_name()).and_then(|n| n.to_str()).unwrap_or("").to_owned();
    let mut problems = atlas.map(|(a, p)| atlas_page_problems(a, p)).unwrap_or_default();
    let options = LoadOptions { scale: 1.0, atlas: atlas.map(|(a, _)| a), atlas_name: &atlas_name };
    match load_spine(bytes, &options) {
        Ok(_) => {}
        Err(LoadError::Invalid(list)) => problems.extend(list.iter().map(ToString::to_string)),
        Err(LoadError::Parse(e)) => problems.push(e.to_string()),
        Err(LoadError::Json(e) | LoadError::Atlas(e)) => problems.push(e),
        Err(LoadError::Unsupported(what)) => {
            problems.push(if what.starts_with("a SkelForm") || sniff(bytes).refusal().is_some() {
                what
            } else {
                format!("{what} is not yet supported")
            })
        }
    }
    problems
}

/// Loads `file` with the chosen atlas and reports every problem.
pub fn validate(file: &Path, atlas: &AtlasChoice) -> Report {
    let atlas_path = match atlas {
        AtlasChoice::Auto => discover_atlas(file),
        AtlasChoice::File(p) => Some(p.clone()),
        AtlasChoice::None => None,
    };
    let report = |problems| Report { atlas: atlas_path.clone(), problems };
    let max = Limits::default().max_file_bytes;
    let bytes = match read_bounded(file, max) {
        Ok(b) => b,
        Err(e) => return report(vec![e]),
    };
    let parsed_atlas = match &atlas_path {
        Some(p) => match load_atlas(p) {
            Ok(a) => Some(a),
            Err(e) => return report(vec![e]),
        },
        None => None,
    };
    let bound = parsed_atlas.as_ref().zip(atlas_path.as_deref());
    report(validate_bytes(&bytes, bound))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffing_uses_the_content() {
        assert_eq!(sniff(b"PK\x03\x04rest"), FileFormat::SkelformArchive);
        assert_eq!(sniff(br#"{"skeleton": {}, "bones": []}"#), FileFormat::SpineJson);
        assert_eq!(sniff(b"\xEF\xBB\xBF \n{\"skeleton\": {}}"), FileFormat::SpineJson);
        assert_eq!(sniff(br#"{"bones": [], "slots": []}"#), FileFormat::SpineJson);
        assert_eq!(
            sniff(br#"{"version": "0.7", "bones": [{"skeleton": 1}]}"#),
            FileFormat::SkelformJson
        );
        assert_eq!(sniff(br#"{"a": {"skeleton": 1}}"#), FileFormat::SkelformJson);
        assert_eq!(sniff(b"{}"), FileFormat::SkelformJson);
        assert!(matches!(sniff(b"[1, 2]"), FileFormat::NotSkeleton(m) if m.contains("array")));
        assert!(matches!(sniff(b" 12 "), FileFormat::NotSkeleton(_)));
        assert!(matches!(sniff(b"\"x\""), FileFormat::NotSkeleton(_)));
        assert!(matches!(sniff(b""), FileFormat::NotSkeleton(_)));
        assert!(matches!(sniff(b"\x89PNG\r\n"), FileFormat::NotSkeleton(m) if m.contains("PNG")));
        assert_eq!(sniff(b"\npage.png\nsize: 2,2\nfilter: Linear,Linear\n"), FileFormat::Atlas);
        assert_eq!(sniff(b"\x00\x01garbage"), FileFormat::SpineBinary);
        // A key whose string holds an escaped quote does not derail the scan.
        assert_eq!(sniff(br#"{"a\"b": "}", "skeleton": {}}"#), FileFormat::SpineJson);
        // Deep nesting costs nothing.
        let deep =
            format!("{{\"a\": {}{}, \"slots\": []}}", "[".repeat(100_000), "]".repeat(100_000));
        assert_eq!(sniff(deep.as_bytes()), FileFormat::SpineJson);
    }

    #[test]
    fn page_images_stay_in_the_atlas_folder() {
        let dir = Path::new("a/b");
        assert_eq!(page_path(dir, "p.png"), Ok(PathBuf::from("a/b/p.png")));
        assert_eq!(page_path(dir, "sub/p.png"), Ok(PathBuf::from("a/b/sub/p.png")));
        for bad in [
            "/etc/passwd",
            "../x.png",
            "../../x.png",
            "sub/../../x.png",
            "..\\x.png",
            "",
            "C:x.png",
            "\\\\srv\\x.png",
        ] {
            let e = page_path(dir, bad).unwrap_err();
            assert!(e.starts_with(&format!("atlas page {bad:?} ")), "{e}");
        }
    }

    #[test]
    fn json_text_names_the_first_bad_byte() {
        assert_eq!(json_text(b"\xEF\xBB\xBF{}"), Ok("{}"));
        assert_eq!(
            json_text(b"{\"a\": \xff}"),
            Err("JSON is not UTF-8: invalid byte at byte 6".to_owned())
        );
    }
}
