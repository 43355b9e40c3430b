//! The checks of the cargo-fuzz targets (`fuzz/fuzz_targets`), one module per target, as a
//! library: the fuzz targets call them on libFuzzer's inputs, and
//! `tests/regressions.rs` replays every file of `fuzz/regressions/<target>/` through them
//! on stable Rust in the normal test run, so an input a fuzzer once found stays fixed.
//!
//! Each `check` panics on a broken invariant (that is what the fuzzer reports) and returns
//! for any input the libraries handle, refusals included.

pub mod atlas_parse;
pub mod binary_parse;
pub mod binary_roundtrip;
pub mod cli_render;
pub mod json_parse;
pub mod json_physics_sequences;
pub mod load_and_pose;
pub mod skelform_load;

/// A target's check.
pub type Check = fn(&[u8]);

/// The targets, by name (the folder of their regression inputs).
pub const TARGETS: [(&str, Check); 8] = [
    ("atlas_parse", atlas_parse::check),
    ("binary_parse", binary_parse::check),
    ("binary_roundtrip", binary_roundtrip::check),
    ("cli_render", cli_render::check),
    ("json_parse", json_parse::check),
    ("json_physics_sequences", json_physics_sequences::check),
    ("load_and_pose", load_and_pose::check),
    ("skelform_load", skelform_load::check),
];
