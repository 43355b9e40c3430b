//! Bytes → binary skeleton → resolved model (parse-then-convert and the streamed load must
//! agree) → every animation posed with physics on, and the render commands (clipping
//! included) of each pose.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| skel_fuzz_checks::load_and_pose::check(data));
