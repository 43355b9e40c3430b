//! Structure-aware: fuzz bytes choose the numbers of a Spine 4.2 JSON skeleton built around
//! physics constraints and a sequence attachment (constraint settings, physics and sequence
//! timelines, sequence count / start / digits / setup, bone transforms, extreme values
//! included) and a matching atlas; the skeleton is loaded, played with physics at fuzzed
//! time steps (huge ones included) and turned into world vertices and render commands.
//! Nothing may panic or hang, and every step ends in bounded time.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| skel_fuzz_checks::json_physics_sequences::check(data));
