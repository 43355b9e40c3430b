//! # spine-format
//!
//! Bytes and text in, raw documents out. This crate parses every Spine export generation
//! (binary `.skel` 3.5–4.3, JSON, libgdx `.atlas`) into a *raw AST*: what the wire says, with
//! indices unresolved and nothing interpreted, and writes the binary ASTs back byte for byte.
//! It does no I/O and knows nothing about poses; `spine-model` turns these documents into
//! validated skeleton data.
//!
//! * [`binary`] — `.skel` files: [`binary::parse`] detects the version from the header and
//!   returns a [`binary::SkeletonFile`]; [`binary::write`] is its inverse.
//! * [`json`] — Spine JSON skeletons (3.5–4.2); [`json43`] — Spine 4.3 JSON skeletons.
//! * Streaming: a loader that builds its own timelines can skip the raw animations. The
//!   binary 4.0–4.2 and 4.3 readers ([`binary::v40::stream`], [`binary::v43::stream`]) and the
//!   JSON reader ([`json::parse_head`]) read everything before the animations, then feed one
//!   animation at a time to an `AnimationSink`, lending the keys they reuse.
//! * [`atlas`] — libgdx texture atlases (the 3.x and 4.x syntaxes).
//! * [`SpineVersion`] — the ordered `major.minor` version line every layer compares
//!   (`v >= SpineVersion::V3_8`), parsed once from the header or `skeleton.spine`.
//!
//! Errors are typed ([`Error`]); binary errors carry the byte offset and the section path
//! where parsing stopped, JSON errors the JSON path and a [`json::JsonErrorKind`]. No input
//! makes a parser panic, loop forever, or allocate more than the remaining input could justify;
//! one [`Limits`] bounds counts, strings and sizes for the binary and the JSON parsers alike
//! (`parse_with_limits` in each), so a small hostile file cannot ask for more either.

pub mod atlas;
pub mod binary;
mod error;
pub mod json;
pub mod json43;
mod limits;
mod summary;
mod version;

pub use error::{BinaryError, BinaryErrorKind, Error};
pub use limits::Limits;
pub use summary::{AnimationSummary, ConstraintCounts, Summary};
pub use version::SpineVersion;

/// The name of a skeleton item (bone, slot, constraint, skin, event, animation) in every
/// raw AST and in `spine-model`'s data: a string kept inline up to 23 bytes, so that loading
/// a skeleton does not allocate once per name (spineboy-pro: 119 bone and slot names, 4 % of
/// its load's instructions). It dereferences to `str`; build one with `Name::from(&str)`.
pub type Name = smol_str::SmolStr;
