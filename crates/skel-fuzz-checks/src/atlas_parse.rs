//! Any bytes through the atlas parser: `Ok` or a typed error naming a line.

/// The `atlas_parse` fuzz target's check (module docs).
pub fn check(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(atlas) = spine_format::atlas::parse(text) {
            for (page, region) in atlas.regions() {
                let _ = (page.width(), page.height(), region.bounds(), region.offsets());
                let _ = region.degrees();
            }
        }
    }
}
