//! The `skel render` path on hostile files: skeleton bytes (any format, sniffed as the CLI
//! does), atlas text and one page image → load with the atlas (page names confined to the
//! atlas' folder) → PNG pages decoded after their header check against the atlas' `size:`
//! → a few played frames with physics → render commands drawn into a small raster →
//! encoded as PNG in memory. SkelForm archives go through `load_skf` with the CLI's limits
//! and their textures through the same decoder.
//!
//! Input framing: `[u16 LE skeleton length][skeleton][u16 LE atlas length][atlas][page]`
//! (missing parts are empty).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| skel_fuzz_checks::cli_render::check(data));
