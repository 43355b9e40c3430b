//! Spine 4.0–4.2 binary AST ⇄ the JSON AST of the same version (no semantic change).
//!
//! [`to_json`] names what the binary indexes; the JSON writer spells keys for the version
//! (`transform` vs `inherit`, `deform` vs `attachments`, linked mesh `deform` vs `timelines`).
//! Values equal to the JSON default are left out; values whose JSON default differs from the
//! binary's absent value are written (4.2 IK `mix` 0, transform mixes absent from a 4.2 binary,
//! i.e. 0, physics `inertia`/`damping`). The hash becomes the editor's base64 of its 8 bytes,
//! alpha keys `byte / 255`, the physics inverse mass a `mass` whose inverse (as 4.2 loaders
//! compute it, `1 / mass` in float) is the same float when one exists.
//!
//! [`from_json`] resolves the names back (every unknown name reported with its object path)
//! and sets the 4.2 flag bits the values need.
//!
//! What one side cannot hold:
//! * JSON → binary: alpha keys round to bytes; a clipping attachment without `end` gets the
//!   last slot; the default skin's own bone/constraint lists and color are dropped; a 4.2
//!   mesh whose triangle count differs from what its vertex and hull counts imply (4.2
//!   binaries store no count) is reported; 16-bit triangle and edge indices (4.0/4.1) are
//!   checked; a hash that is not the editor's base64 of 8 bytes becomes 0.
//! * binary → JSON: raw flag bits no value needs, `bezierCount` and timeline-count hints
//!   (recomputed), a physics inverse mass no float mass inverts to exactly (within 1 ulp). A
//!   4.0 `rgba2` key's dark red is read by spine-cpp 4.0's JSON loader as the dark green (its
//!   `setFrame(…, color2.g, color2.g, …)` bug, reproduced by `spine-model`): 4.0 rigs with
//!   two-color keys lose their dark red when their JSON is loaded by that runtime.
//!
//! The module is split by concept: `context` holds the two conversion states (name
//! lookups one way, string table and problems the other), `skeleton` the skeleton-level
//! records (header, bones, slots, skins, events), `constraints` and `attachments` those
//! records, `animation_to` and `animation_from` the timelines. Mappings the 4.3
//! converter shares are in `super::json_common`.

mod animation_from;
mod animation_to;
mod attachments;
mod constraints;
mod context;
mod skeleton;

pub use skeleton::{from_json, to_json};

use spine_format::binary::v40::ast as w;
use spine_format::json as j;

use super::common::flat_weighted;
use super::json_common::{mass_for, some_if};

/// The JSON `transform` (inherit) of a bone (left out for `normal`).
fn inherit_to_json(i: w::Inherit) -> Option<j::Inherit> {
    Some(match i {
        w::Inherit::Normal => return None,
        w::Inherit::OnlyTranslation => j::Inherit::OnlyTranslation,
        w::Inherit::NoRotationOrReflection => j::Inherit::NoRotationOrReflection,
        w::Inherit::NoScale => j::Inherit::NoScale,
        w::Inherit::NoScaleOrReflection => j::Inherit::NoScaleOrReflection,
    })
}

/// The binary inherit mode of a JSON one (absent: `normal`).
fn inherit_from_json(i: Option<j::Inherit>) -> w::Inherit {
    match i.unwrap_or(j::Inherit::Normal) {
        j::Inherit::Normal => w::Inherit::Normal,
        j::Inherit::OnlyTranslation => w::Inherit::OnlyTranslation,
        j::Inherit::NoRotationOrReflection => w::Inherit::NoRotationOrReflection,
        j::Inherit::NoScale => w::Inherit::NoScale,
        j::Inherit::NoScaleOrReflection => w::Inherit::NoScaleOrReflection,
    }
}

/// The JSON blend mode of a slot (left out for `normal`).
fn blend_to_json(b: w::BlendMode) -> Option<j::BlendMode> {
    Some(match b {
        w::BlendMode::Normal => return None,
        w::BlendMode::Additive => j::BlendMode::Additive,
        w::BlendMode::Multiply => j::BlendMode::Multiply,
        w::BlendMode::Screen => j::BlendMode::Screen,
    })
}

/// The binary blend mode of a JSON one (absent: `normal`).
fn blend_from_json(b: Option<j::BlendMode>) -> w::BlendMode {
    match b.unwrap_or(j::BlendMode::Normal) {
        j::BlendMode::Normal => w::BlendMode::Normal,
        j::BlendMode::Additive => w::BlendMode::Additive,
        j::BlendMode::Multiply => w::BlendMode::Multiply,
        j::BlendMode::Screen => w::BlendMode::Screen,
    }
}

/// The JSON form of an attachment's sequence.
fn seq_to_json(s: &Option<w::Sequence>) -> Option<j::Sequence> {
    s.map(|s| j::Sequence {
        count: s.count as i32,
        start: some_if(s.start as i32, 1),
        digits: some_if(s.digits as i32, 0),
        setup: some_if(s.setup_index as i32, 0),
    })
}

/// The binary form of an attachment's sequence (negative numbers read as 0).
fn seq_from_json(s: &Option<j::Sequence>) -> Option<w::Sequence> {
    s.as_ref().map(|s| w::Sequence {
        count: s.count.max(0) as u32,
        start: s.start.unwrap_or(1).max(0) as u32,
        digits: s.digits.unwrap_or(0).max(0) as u32,
        setup_index: s.setup.unwrap_or(0).max(0) as u32,
    })
}

/// The JSON vertex array of binary vertices.
fn vertices_to_json(v: &w::Vertices) -> Vec<f32> {
    match v {
        w::Vertices::Plain(xy) => xy.clone(),
        w::Vertices::Weighted(vs) => flat_weighted(
            vs.groups().map(|g| g.map(|b| (b.bone, b.x, b.y, b.weight)).collect::<Vec<_>>()),
        ),
    }
}

/// A `mass` whose inverse as the 4.x loaders compute it (`1 / mass` in float) is exactly
/// `mass_inverse`, when one exists within a few ulps.
fn mass_of(mass_inverse: f32) -> Option<f32> {
    mass_for(mass_inverse, |m| 1.0 / m)
}

/// The 4.x JSON defaults of the six transform mixes given the values read before them.
fn mix_defaults(m: &[f32; 6]) -> [f32; 6] {
    [1.0, 1.0, m[1], 1.0, m[3], 1.0]
}
