//! Any bytes through the atlas parser: `Ok` or a typed error naming a line.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| skel_fuzz_checks::atlas_parse::check(data));
