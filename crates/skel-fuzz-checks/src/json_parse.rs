//! Any bytes through the Spine JSON parser: `Ok` or a typed error naming a JSON path.
//!
//! Each input is also parsed within tiny limits, which runs the limit-checking reader that
//! default limits only use for multi-megabyte texts. Limits only ever refuse: an input the
//! tiny limits accept parses to the same skeleton with the defaults, and one they refuse for
//! any other reason fails with the same error with the defaults.
//!
//! The model's load, which streams the animations from the parsed document, builds what
//! converting the parsed skeleton builds, or fails the same way.

use spine_format::json::{self, JsonErrorKind};
use spine_format::json43;
use spine_format::Limits;
use spine_model::{LoadError, LoadOptions, SkeletonData};

/// The `json_parse` fuzz target's check (module docs).
pub fn check(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let parsed = json::parse(text);
        if let Ok(skeleton) = &parsed {
            // The summary walks every timeline; the writer must accept what the parser made.
            let _ = skeleton.summary();
            let _ = json::write(skeleton);
        }
        // A file declaring 4.3 is refused here and loaded by the 4.3 reader there.
        let declares_43 = matches!(&parsed, Err(e) if e.path == "skeleton.spine")
            && json43::declared_version(text).is_some_and(|v| json43::is_43(&v));
        if !declares_43 {
            let converted = parsed
                .clone()
                .map_err(LoadError::from)
                .and_then(|s| SkeletonData::from_json(&s, &LoadOptions::with_atlas(None)));
            match (converted, spine_model::load_json(text, None)) {
                (Ok(c), Ok(s)) => assert!(c == s, "the streamed load differs"),
                (Err(c), Err(s)) => assert_eq!(format!("{c:?}"), format!("{s:?}")),
                (c, s) => panic!("converted {:?}, streamed {:?}", c.is_ok(), s.is_ok()),
            }
        }
        let tiny = Limits {
            max_bones: 3,
            max_slots: 3,
            max_vertices: 8,
            max_keyframes: 4,
            max_string_bytes: 8,
            max_items: 5,
            max_sequence_frames: 6,
            max_json_values: 64,
            ..Limits::default()
        };
        match json::parse_with_limits(text, &tiny) {
            Ok(s) => assert_eq!(parsed.as_ref(), Ok(&s)),
            Err(e) if matches!(e.kind, JsonErrorKind::LimitExceeded { .. }) => {}
            Err(e) => assert_eq!(parsed.as_ref().err(), Some(&e)),
        }
    }
}
