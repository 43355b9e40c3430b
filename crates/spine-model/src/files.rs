//! File-system work shared by the CLI and engines: reading a file with a size limit
//! ([`read_bounded`]), its text without a BOM ([`json_text`]), finding a skeleton's atlas ([`discover_atlas`]), loading an atlas
//! file ([`load_atlas`]) and confining its page images to the atlas' folder ([`page_path`]).
//!
//! Atlas discovery: `<stem>.atlas` beside the file; else, for exports named `<base>-pro` /
//! `<base>-ess`, `<base>.atlas`; else the only `.atlas` in the folder whose name does not
//! end in `-pma.atlas`; else none (geometry-only).
//!
//! Page images: an atlas page names its image relative to the atlas' folder and must stay
//! inside it (no absolute path, drive, root or `..` component).

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use spine_format::atlas::Atlas;
use spine_format::Limits;

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
    // Sized from the file's length when it has one (never past the limit), so a whole file
    // is read at once instead of into a doubling buffer (a reallocation, a copy and a read
    // per doubling); the length is only a hint (the file may change while it is read).
    let hint = file.metadata().ok().filter(|m| m.is_file()).map_or(0, |m| m.len());
    // Up to one byte past the limit, the byte that tells an over-limit file.
    let cap = usize::try_from(hint).unwrap_or(usize::MAX).min(max.saturating_add(1));
    let mut bytes = Vec::with_capacity(cap);
    file.take((max as u64).saturating_add(1))
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

#[cfg(test)]
mod tests {
    use super::*;

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
