//! # spine-render-traits
//!
//! **Not implemented yet.** This crate will define what a backend receives for a frame —
//! render commands batched by texture page and blend mode, with positions, UVs, light and
//! dark colors and indices — and the trait a backend implements, with sink-style APIs that
//! reuse buffers. Nothing here works yet.
