//! Any bytes through the Spine JSON parser: `Ok` or a typed error naming a JSON path.
//!
//! Each input is also parsed within tiny limits, which runs the limit-checking reader that
//! default limits only use for multi-megabyte texts. Limits only ever refuse: an input the
//! tiny limits accept parses to the same skeleton with the defaults, and one they refuse for
//! any other reason fails with the same error with the defaults.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| skel_fuzz_checks::json_parse::check(data));
