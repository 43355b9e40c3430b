//! The front door: [`load`] turns the bytes of any Spine skeleton (binary `.skel` 3.5–4.3,
//! JSON 3.5–4.2, 4.3 JSON; a UTF-8 BOM allowed) into [`SkeletonData`], detecting the format
//! from the content alone ([`sniff`], the one rule every `skel` verb uses).
//!
//! Errors are typed all the way up: a [`LoadError`] holds the format crate's
//! [`BinaryError`](spine_format::BinaryError), [`JsonError`](spine_format::json::JsonError)
//! or [`AtlasError`](spine_format::atlas::AtlasError), or every validation [`Problem`](crate::Problem).
//! Reading files (bounded), finding the atlas and its page images is [`crate::files`]' job.

use crate::files::strip_bom;
use crate::{LoadError, LoadOptions, SkeletonData};

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

/// Loads a Spine skeleton from its bytes with `options` (atlas, scale, [`Limits`]):
/// binary, JSON 3.5–4.2 or 4.3 JSON, told apart by [`sniff`] (a UTF-8 BOM is skipped).
/// Files that are not Spine skeletons (SkelForm, an atlas, an image…) are refused with
/// [`LoadError::Unsupported`] saying what they are.
///
/// [`Limits`]: spine_format::Limits
pub fn load(bytes: &[u8], options: &LoadOptions<'_>) -> Result<SkeletonData, LoadError> {
    match sniff(bytes) {
        FileFormat::SpineJson => load_json_bytes(bytes, options),
        FileFormat::SpineBinary => crate::load_binary_with(bytes, options),
        FileFormat::SkelformArchive | FileFormat::SkelformJson => {
            Err(LoadError::Unsupported("a SkelForm armature (not a Spine skeleton)".to_owned()))
        }
        f => Err(LoadError::Unsupported(f.refusal().unwrap_or("this file").to_owned())),
    }
}

/// A JSON skeleton: the 3.5–4.2 reader, or the 4.3 one when the file declares 4.3.
fn load_json_bytes(bytes: &[u8], options: &LoadOptions<'_>) -> Result<SkeletonData, LoadError> {
    let body = strip_bom(bytes);
    let text = std::str::from_utf8(body)
        .map_err(|e| LoadError::NotUtf8 { offset: bytes.len() - body.len() + e.valid_up_to() })?;
    crate::json::load_text(text, options)
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
}
