//! Any bytes through the Spine JSON parser: `Ok` or a typed error naming a JSON path.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(skeleton) = spine_format::json::parse(text) {
            // The summary walks every timeline; the writer must accept what the parser made.
            let _ = skeleton.summary();
            let _ = spine_format::json::write(&skeleton);
        }
    }
});
