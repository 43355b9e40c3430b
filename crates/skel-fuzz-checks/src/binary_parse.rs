//! Any bytes through the binary `.skel` parser of every generation: `Ok` or a typed error.

/// The `binary_parse` fuzz target's check (module docs).
pub fn check(data: &[u8]) {
    if let Err(e) = spine_format::binary::parse(data) {
        assert!(e.offset <= data.len());
    }
}
