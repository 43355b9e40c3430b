//! Any bytes through the atlas parser: `Ok` or a typed error naming a line.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(atlas) = spine_format::atlas::parse(text) {
            for (page, region) in atlas.regions() {
                let _ = (page.width(), page.height(), region.bounds(), region.offsets());
                let _ = region.degrees();
            }
        }
    }
});
