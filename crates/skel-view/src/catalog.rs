//! The served files: the skeletons named on the command line, and those found in the folders
//! named there. Built once at start; the page opens entries by their index, never by path.

use std::path::{Path, PathBuf};

use serde::Serialize;
use spine_model::{sniff, FileFormat};

/// Most files looked at while walking the given folders.
const MAX_VISITED: usize = 20_000;
/// Deepest folder level walked below a given folder.
const MAX_DEPTH: usize = 8;
/// Bytes read to classify a Spine file (header / `skeleton.spine`).
const HEAD_BYTES: u64 = 64 << 10;

/// One servable skeleton.
#[derive(Debug, Clone, Serialize)]
pub struct Entry {
    /// Index in the catalog (what the page sends to open it).
    pub id: u32,
    /// Display name: the path relative to the folder it was found in (or the file name).
    pub name: String,
    /// `spine-binary`, `spine-json` or `skelform`.
    pub format: &'static str,
    /// Editor version (`4.2.40`, `0.7.0`, `?`).
    pub version: String,
    /// The group the page lists it under (`Spine 4.2`, `SkelForm 0.7`).
    pub group: String,
    /// The file.
    #[serde(skip)]
    pub path: PathBuf,
}

fn read_head(path: &Path, max: u64) -> Option<Vec<u8>> {
    use std::io::Read;
    let f = std::fs::File::open(path).ok()?;
    let mut bytes = Vec::new();
    f.take(max).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

fn major_minor(version: &str) -> String {
    let mut parts = version.split('.');
    match (parts.next(), parts.next()) {
        (Some(a), Some(b)) => format!("{a}.{b}"),
        _ => version.to_owned(),
    }
}

/// Classifies one file: `None` when it is not a skeleton the viewer can open. `explicit`:
/// named on the command line (any skeleton format is accepted; in a folder only `.skel`,
/// `.skf` and Spine `.json` files are listed).
fn classify(path: &Path, explicit: bool) -> Option<(&'static str, String, String)> {
    let lower = path.file_name()?.to_str()?.to_ascii_lowercase();
    let listed = [".skel", ".json", ".skf"].iter().any(|e| lower.ends_with(e));
    if !explicit && !listed {
        return None;
    }
    let size = std::fs::metadata(path).ok()?.len();
    if size > crate::rig::max_file_bytes() as u64 {
        return None;
    }
    let head = read_head(path, HEAD_BYTES)?;
    match sniff(&head) {
        FileFormat::SkelformArchive => {
            let bytes = read_head(path, size)?;
            let arm = skelform::load(&bytes).ok()?;
            let v = arm.version().to_string();
            let group = format!("SkelForm {}", major_minor(&v));
            Some(("skelform", v, group))
        }
        FileFormat::SpineBinary if lower.ends_with(".skel") || explicit => {
            let h = spine_format::binary::detect(&head).ok()?;
            let group = format!("Spine {}", major_minor(&h.version));
            Some(("spine-binary", h.version, group))
        }
        FileFormat::SpineJson => {
            let v = crate::rig::spine_version(&head);
            let group = format!("Spine {}", major_minor(&v));
            Some(("spine-json", v, group))
        }
        _ => None,
    }
}

fn walk(dir: &Path, depth: usize, visited: &mut usize, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut list: Vec<_> = entries.flatten().collect();
    list.sort_by_key(|e| e.file_name());
    for e in list {
        if *visited >= MAX_VISITED {
            return;
        }
        *visited += 1;
        let name = e.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_dir() && depth < MAX_DEPTH {
            walk(&e.path(), depth + 1, visited, out);
        } else if ft.is_file() {
            out.push(e.path());
        }
    }
}

/// Builds the catalog from the command line's files and folders.
pub fn build(paths: &[PathBuf]) -> Result<Vec<Entry>, String> {
    let mut out = Vec::new();
    let mut push = |path: PathBuf, name: String, explicit: bool| {
        if let Some((format, version, group)) = classify(&path, explicit) {
            let id = out.len() as u32;
            out.push(Entry { id, name, format, version, group, path });
        } else if explicit {
            eprintln!("skel view: {}: not a skeleton the viewer can open; skipped", path.display());
        }
    };
    for p in paths {
        let meta = std::fs::metadata(p).map_err(|e| format!("{}: {e}", p.display()))?;
        if meta.is_dir() {
            let mut files = Vec::new();
            let mut visited = 0;
            walk(p, 0, &mut visited, &mut files);
            for f in files {
                let rel = f.strip_prefix(p).unwrap_or(&f).to_string_lossy().replace('\\', "/");
                push(f, rel, false);
            }
        } else {
            let name = p
                .file_name()
                .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned());
            push(p.clone(), name, true);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_folder_lists_the_demo_rig() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../skel-cli/demo");
        let c = build(&[dir]).expect("catalog");
        assert_eq!(c.len(), 1, "{c:?}");
        assert_eq!(c[0].name, "demo.json");
        assert_eq!(c[0].format, "spine-json");
        assert!(c[0].group.starts_with("Spine "), "{}", c[0].group);
        assert_eq!(major_minor("4.2.40"), "4.2");
    }
}
