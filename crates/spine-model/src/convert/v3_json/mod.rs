//! Spine 3.5–3.8 binary ASTs ⇄ the JSON AST of the same version (no semantic change).
//!
//! [`v35_to_json`] / [`v38_to_json`] name what the binary indexes and write the version's JSON
//! spellings (the JSON writer picks them from the skeleton's [`spine_format::SpineVersion`]):
//! `angle` rotate keys, `rotateMix`/`translateMix`/`scaleMix`/`shearMix`, `color`/`twoColor` slot timelines,
//! `paths` (3.5–3.7) or `path` (3.8) animation sections, the 3.5–3.7 skin object form, 3.x
//! curves (`[cx1, cy1, cx2, cy2]` in 3.5–3.7, `curve: cx1` with `c2`–`c4` in 3.8). Every key
//! value is written (3.5–3.7 loaders read a missing scale key as 0, not 1), and so are the
//! constraint `order`s. [`json_to_v35`] / [`json_to_v38`] resolve the names back (every
//! unknown name reported with its object path).
//!
//! What one side cannot hold:
//! * JSON → binary: fields the version's own loaders do not read are dropped as they ignore
//!   them (3.5: dark colors, transform `local`/`relative`; 3.5–3.6: IK
//!   `compress`/`stretch`/`uniform`, audio); timelines and attachments the generation cannot
//!   hold (3.5: two-color timelines, point and clipping attachments; 4.x timelines) are
//!   reported; a clipping
//!   attachment without `end` gets the last slot; the default skin's bone and constraint
//!   lists (3.8 JSON) are dropped (the binary default skin has none); a key string `null`
//!   becomes `""`.
//! * binary → JSON: a 3.8 binary's skin-required flags are written (`"skin": true`) as the
//!   editor writes them, but spine-cpp 3.8's JSON loader reads them as `false` (its
//!   `Json::getBoolean` bug, reproduced by `spine-model`): such rigs lose skin-required
//!   bones and constraints when their JSON is loaded by that runtime. The identity draw
//!   order of a key without changes is written as no `offsets` (the setup order: the same).
//! * Slot dark colors are written as the editor writes them (`00 R G B`). spine-cpp 3.7/3.8
//!   `SkeletonBinary` reads that `int` one byte off (`(00, R, G)`, reproduced by
//!   `spine-model`), its `SkeletonJson` reads `R G B`: in that runtime a 3.7/3.8 rig's setup
//!   dark colors differ between its binary and its JSON, converted or exported.
//!
//! Where things are: `values` holds the conversions both directions share (inherit and
//! blend modes, dark colors, 3.x curves and keys); `to_json` the binary → JSON direction
//! (skeleton, attachments, animations), `from_json` the JSON → binary one (the same parts).

mod from_json;
mod to_json;
mod values;

pub use from_json::{json_to_v35, json_to_v38};
pub use to_json::{v35_to_json, v38_to_json};
