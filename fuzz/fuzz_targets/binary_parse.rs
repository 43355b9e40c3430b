//! Any bytes through the binary `.skel` parser of every generation: `Ok` or a typed error.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| skel_fuzz_checks::binary_parse::check(data));
