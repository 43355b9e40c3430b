//! `skel info` and `skel dump`.

use std::path::Path;

use serde_json::json;
use spine_format::binary::{self, SkeletonFile};
use spine_format::{json, json43, Summary};

use spine_model::files::json_text;
use spine_model::FileFormat;

use crate::{escape, Failure};

/// A loaded document of a detected format.
#[allow(clippy::large_enum_variant)] // one per process run
enum Document {
    SpineBinary(SkeletonFile),
    SpineJson(json::Skeleton),
    SpineJson43(json43::Skeleton),
}

/// Parses a Spine skeleton of the [`sniff`](spine_model::sniff)ed format.
fn load(file: &Path, bytes: &[u8], format: FileFormat) -> Result<Document, Failure> {
    if format == FileFormat::SpineJson {
        let text = json_text(bytes).map_err(|e| Failure::new(file, e))?;
        return match json::parse(text) {
            Ok(s) => Ok(Document::SpineJson(s)),
            // 4.3 JSON has its own reader.
            Err(_) if json43::declared_version(text).is_some_and(|v| json43::is_43(&v)) => {
                json43::parse(text).map(Document::SpineJson43).map_err(|e| Failure::new(file, e))
            }
            Err(e) => Err(Failure::new(file, e)),
        };
    }
    binary::parse(bytes).map(Document::SpineBinary).map_err(|e| Failure::new(file, e))
}

fn summary(doc: &Document) -> (&'static str, Summary) {
    match doc {
        Document::SpineBinary(s) => ("spine-binary", s.summary()),
        Document::SpineJson(s) => ("spine-json", s.summary()),
        Document::SpineJson43(s) => ("spine-json", s.summary()),
    }
}

/// `skel info FILE [--json]` for a Spine skeleton (binary or JSON).
pub(crate) fn info(
    file: &Path,
    bytes: &[u8],
    format: FileFormat,
    as_json: bool,
) -> Result<(), Failure> {
    let doc = load(file, bytes, format)?;
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
        outln!("file:        {}", escape(&file.display().to_string()));
        outln!("format:      {format} {}", escape(&s.version));
        outln!("hash:        {}", escape(&s.hash));
        outln!("bones:       {}", s.bones);
        outln!("slots:       {}", s.slots);
        outln!("skins:       {}", escape(&s.skins.join(", ")));
        outln!(
            "constraints: ik {}, transform {}, path {}, physics {}, slider {}",
            c.ik,
            c.transform,
            c.path,
            c.physics,
            c.slider
        );
        outln!("events:      {}", escape(&s.events.join(", ")));
        outln!("animations:");
        for a in &s.animations {
            outln!("  {:<24} {:.4} s", escape(&a.name), a.duration);
        }
        outln!("bytes:       {} (all consumed)", bytes.len());
    }
    Ok(())
}

/// `skel dump FILE [--json]` for a Spine skeleton (binary or JSON).
pub(crate) fn dump(
    file: &Path,
    bytes: &[u8],
    format: FileFormat,
    as_json: bool,
) -> Result<(), Failure> {
    let doc = load(file, bytes, format)?;
    match doc {
        Document::SpineBinary(s) => print_dump(file, &s, as_json),
        Document::SpineJson(s) => print_dump(file, &s, as_json),
        Document::SpineJson43(s) => print_dump(file, &s, as_json),
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
