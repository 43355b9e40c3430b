//! Any bytes through the binary `.skel` parser of every generation: `Ok` or a typed error.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = spine_format::binary::parse(data) {
        assert!(e.offset <= data.len());
    }
});
