//! Any bytes as a SkelForm document (zip archive or bare `armature.json`): `Ok` or a typed
//! error; a loaded armature animates and constructs every animation without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| skel_fuzz_checks::skelform_load::check(data));
