//! `skel info` and `skel dump`.

use std::path::Path;

use serde_json::json;
use spine_format::binary::{self, SkeletonFile};
use spine_format::{json, Summary};

use crate::Failure;

/// A loaded document of a detected format.
#[allow(clippy::large_enum_variant)] // one per process run
enum Document {
    SpineBinary(SkeletonFile),
    SpineJson(json::Skeleton),
}

fn read(file: &Path) -> Result<Vec<u8>, Failure> {
    crate::check_size(file)?;
    std::fs::read(file).map_err(|e| Failure::new(file, e))
}

/// Whether the bytes look like JSON text (an object after optional BOM and white space).
fn looks_like_json(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

/// Detects the format from the content (never the file name) and parses it.
fn load(file: &Path, bytes: &[u8]) -> Result<Document, Failure> {
    if looks_like_json(bytes) {
        let text = std::str::from_utf8(bytes)
            .map_err(|e| Failure::new(file, format!("JSON is not UTF-8: {e}")))?;
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        return json::parse(text).map(Document::SpineJson).map_err(|e| Failure::new(file, e));
    }
    binary::parse(bytes).map(Document::SpineBinary).map_err(|e| Failure::new(file, e))
}

fn summary(doc: &Document) -> (&'static str, Summary) {
    match doc {
        Document::SpineBinary(s) => ("spine-binary", s.summary()),
        Document::SpineJson(s) => ("spine-json", s.summary()),
    }
}

/// `skel info FILE [--json]`.
pub(crate) fn info(file: &Path, as_json: bool) -> Result<(), Failure> {
    let bytes = read(file)?;
    let doc = load(file, &bytes)?;
    let (format, s) = summary(&doc);
    if as_json {
        let v = json!({
            "file": file.display().to_string(),
            "format": format,
            "version": s.version,
            "hash": s.hash,
            "bones": s.bones,
            "slots": s.slots,
            "skins": s.skins,
            "constraints": {
                "ik": s.constraints.ik,
                "transform": s.constraints.transform,
                "path": s.constraints.path,
                "physics": s.constraints.physics,
                "slider": s.constraints.slider,
            },
            "events": s.events,
            "animations": s.animations.iter()
                .map(|a| json!({"name": a.name, "duration": a.duration}))
                .collect::<Vec<_>>(),
            "bytes_total": bytes.len(),
            // The parser fails unless it consumed every byte.
            "bytes_consumed": bytes.len(),
        });
        outln!("{v}");
    } else {
        let c = s.constraints;
        outln!("file:        {}", file.display());
        outln!("format:      {format} {}", s.version);
        outln!("hash:        {}", s.hash);
        outln!("bones:       {}", s.bones);
        outln!("slots:       {}", s.slots);
        outln!("skins:       {}", s.skins.join(", "));
        outln!(
            "constraints: ik {}, transform {}, path {}, physics {}, slider {}",
            c.ik,
            c.transform,
            c.path,
            c.physics,
            c.slider
        );
        outln!("events:      {}", s.events.join(", "));
        outln!("animations:");
        for a in &s.animations {
            outln!("  {:<24} {:.4} s", a.name, a.duration);
        }
        outln!("bytes:       {} (all consumed)", bytes.len());
    }
    Ok(())
}

/// `skel dump FILE [--json]`.
pub(crate) fn dump(file: &Path, as_json: bool) -> Result<(), Failure> {
    let bytes = read(file)?;
    let doc = load(file, &bytes)?;
    match doc {
        Document::SpineBinary(s) => print_dump(file, &s, as_json),
        Document::SpineJson(s) => print_dump(file, &s, as_json),
    }
}

fn print_dump<T: serde::Serialize + std::fmt::Debug>(
    file: &Path,
    doc: &T,
    as_json: bool,
) -> Result<(), Failure> {
    if as_json {
        let v = serde_json::to_string(doc).map_err(|e| Failure::new(file, e))?;
        outln!("{v}");
    } else {
        outln!("{doc:#?}");
    }
    Ok(())
}
