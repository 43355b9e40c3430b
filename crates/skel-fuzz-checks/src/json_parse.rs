//! Any bytes through the Spine JSON parser: `Ok` or a typed error naming a JSON path.
//!
//! Each input is also parsed within tiny limits, which runs the limit-checking reader that
//! default limits only use for multi-megabyte texts. Limits only ever refuse: an input the
//! tiny limits accept parses to the same skeleton with the defaults, and one they refuse for
//! any other reason fails with the same error with the defaults.

use spine_format::json::{self, JsonErrorKind};
use spine_format::Limits;

/// The `json_parse` fuzz target's check (module docs).
pub fn check(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        let parsed = json::parse(text);
        if let Ok(skeleton) = &parsed {
            // The summary walks every timeline; the writer must accept what the parser made.
            let _ = skeleton.summary();
            let _ = json::write(skeleton);
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
