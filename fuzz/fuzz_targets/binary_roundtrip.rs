//! Whatever the binary parser accepts writes back byte for byte and re-parses.
//! (The ASTs are not compared with `==`: a NaN in the file makes `PartialEq` false.)
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| skel_fuzz_checks::binary_roundtrip::check(data));
