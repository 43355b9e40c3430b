//! Spine 4.3 binary AST ⇄ 4.3 JSON AST, within the version (no semantic change).
//!
//! [`to_json`] names everything the binary indexes and writes the JSON the way the official
//! 4.3 `SkeletonJson` reads it back to the same data: values equal to the JSON default are
//! left out, values whose JSON default differs from the binary's absent value are written
//! explicitly (IK and slider `mix` 0, transform mixes of every written property, physics
//! `inertia`/`damping`, event key `volume`/`balance`), colors stay bytes, the hash becomes the
//! editor's base64 of its 8 bytes, alpha keys become `byte / 255` and the physics inverse mass
//! becomes a `mass` whose inverse rounds back to the same float.
//!
//! [`from_json`] resolves every name (unknown names are reported with the object path) and
//! builds the binary records with the flag bits the values need, deriving what JSON leaves
//! implicit: the string table, the nonessential flag (set when the JSON carries `fps`,
//! `images`, `audio`, or a bone `color`/`icon`/`visible`, or a slot `visible`), mesh
//! `timelineSlots` (from the linked meshes that inherit timelines from another slot, as the
//! loader computes them), bezier counts and timeline-count hints.
//!
//! What one side cannot hold (so a round trip through the other loses it, without effect on
//! the loaded skeleton unless said):
//! * JSON → binary: alpha keys round to bytes (`value × 255`); a clipping attachment without
//!   `end` gets the last slot (clipping to the end of the draw order either way); the default
//!   skin's own `bones`/`constraints`/`color` (the binary default skin has none); a physics
//!   `scaleY: volume` with `scaleX` 0 (the wire sign trick cannot hold it); a hash that is not
//!   the editor's base64 of 8 bytes (written as 0).
//! * binary → JSON: the raw flag bits no field needs (e.g. the curve bits of an IK timeline's
//!   first key), a transform source property without targets and a transform mix of a
//!   property no target writes (the JSON loader drops the one and keeps the other at 0),
//!   a transform source property listed twice (JSON keys are unique: folded into the first
//!   entry, whose targets' offsets absorb the difference, exact unless the constraint clamps;
//!   the editor never writes such a list), a target listed twice for one source (the last
//!   is kept), a timeline written twice for one bone, slot, constraint or attachment in one
//!   animation (the last is kept; binary files apply both in order, so the pose is the same
//!   where the later one replaces the earlier, but the animation's duration can shrink), mesh `timelineSlots` other than those the linked meshes imply (JSON has no field for
//!   them; editor exports have no others), a physics inverse mass that no `f32` mass inverts
//!
//! The module is split by concept: `context` holds the two conversion states (name
//! lookups one way, string table and problems the other), `skeleton` the skeleton-level
//! records (header, bones, slots, skins, events), `constraints` and `attachments` those
//! records, `animation_to` and `animation_from` the timelines. Mappings the 4.0–4.2
//! converter shares are in `super::json_common`.

mod animation_from;
mod animation_to;
mod attachments;
mod constraints;
mod context;
mod skeleton;

pub use skeleton::{from_json, to_json};

use spine_format::binary::v43 as w;
use spine_format::json::{self as j1, PhysicsProperty};
use spine_format::json43 as j;

use super::json_common::{mass_for, some_if};

/// The binary dark color word that means "no dark color".
const NO_DARK: [u8; 4] = [0xff; 4];

/// The editor's base64 of the 8 hash bytes (`None` for a zero hash).
fn hash_string(h: &w::Header) -> Option<String> {
    if h.hash_low == 0 && h.hash_high == 0 {
        return None;
    }
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut bytes = [0u8; 8];
    bytes[..4].copy_from_slice(&h.hash_low.to_be_bytes());
    bytes[4..].copy_from_slice(&h.hash_high.to_be_bytes());
    let mut out = String::with_capacity(11);
    for chunk in bytes.chunks(3) {
        let mut n = 0u32;
        for (i, &b) in chunk.iter().enumerate() {
            n |= u32::from(b) << (16 - 8 * i);
        }
        for i in 0..=chunk.len() {
            out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
        }
    }
    Some(out)
}

/// The JSON inherit mode of a binary one.
fn inherit_to_json(i: w::Inherit) -> j1::Inherit {
    match i {
        w::Inherit::Normal => j1::Inherit::Normal,
        w::Inherit::OnlyTranslation => j1::Inherit::OnlyTranslation,
        w::Inherit::NoRotationOrReflection => j1::Inherit::NoRotationOrReflection,
        w::Inherit::NoScale => j1::Inherit::NoScale,
        w::Inherit::NoScaleOrReflection => j1::Inherit::NoScaleOrReflection,
    }
}

/// The binary inherit mode of a JSON one.
fn inherit_from_json(i: j1::Inherit) -> w::Inherit {
    match i {
        j1::Inherit::Normal => w::Inherit::Normal,
        j1::Inherit::OnlyTranslation => w::Inherit::OnlyTranslation,
        j1::Inherit::NoRotationOrReflection => w::Inherit::NoRotationOrReflection,
        j1::Inherit::NoScale => w::Inherit::NoScale,
        j1::Inherit::NoScaleOrReflection => w::Inherit::NoScaleOrReflection,
    }
}

/// The JSON blend mode of a binary one.
fn blend_to_json(b: w::BlendMode) -> j1::BlendMode {
    match b {
        w::BlendMode::Normal => j1::BlendMode::Normal,
        w::BlendMode::Additive => j1::BlendMode::Additive,
        w::BlendMode::Multiply => j1::BlendMode::Multiply,
        w::BlendMode::Screen => j1::BlendMode::Screen,
    }
}

/// The binary blend mode of a JSON one.
fn blend_from_json(b: j1::BlendMode) -> w::BlendMode {
    match b {
        j1::BlendMode::Normal => w::BlendMode::Normal,
        j1::BlendMode::Additive => w::BlendMode::Additive,
        j1::BlendMode::Multiply => w::BlendMode::Multiply,
        j1::BlendMode::Screen => w::BlendMode::Screen,
    }
}

/// The JSON `scaleY` mode of an IK or physics constraint.
fn scale_y_to_json(m: w::ScaleYMode) -> j::ScaleYMode {
    match m {
        w::ScaleYMode::None => j::ScaleYMode::None,
        w::ScaleYMode::Uniform => j::ScaleYMode::Uniform,
        w::ScaleYMode::Volume => j::ScaleYMode::Volume,
    }
}

/// The binary `scaleY` mode of an IK or physics constraint.
fn scale_y_from_json(m: j::ScaleYMode) -> w::ScaleYMode {
    match m {
        j::ScaleYMode::None => w::ScaleYMode::None,
        j::ScaleYMode::Uniform => w::ScaleYMode::Uniform,
        j::ScaleYMode::Volume => w::ScaleYMode::Volume,
    }
}

/// The JSON name of a transform property.
fn prop_to_json(p: w::TransformProperty) -> j::Property {
    match p {
        w::TransformProperty::Rotate => j::Property::Rotate,
        w::TransformProperty::X => j::Property::X,
        w::TransformProperty::Y => j::Property::Y,
        w::TransformProperty::ScaleX => j::Property::ScaleX,
        w::TransformProperty::ScaleY => j::Property::ScaleY,
        w::TransformProperty::ShearY => j::Property::ShearY,
    }
}

/// The binary transform property of a JSON name.
fn prop_from_json(p: j::Property) -> w::TransformProperty {
    match p {
        j::Property::Rotate => w::TransformProperty::Rotate,
        j::Property::X => w::TransformProperty::X,
        j::Property::Y => w::TransformProperty::Y,
        j::Property::ScaleX => w::TransformProperty::ScaleX,
        j::Property::ScaleY => w::TransformProperty::ScaleY,
        j::Property::ShearY => w::TransformProperty::ShearY,
    }
}

/// The JSON form of an attachment's sequence.
fn seq_to_json(s: &Option<w::Sequence>) -> Option<j1::Sequence> {
    s.map(|s| j1::Sequence {
        count: s.count as i32,
        start: some_if(s.start as i32, 1),
        digits: some_if(s.digits as i32, 0),
        setup: some_if(s.setup_index as i32, 0),
    })
}

/// The binary form of an attachment's sequence (negative numbers read as 0).
fn seq_from_json(s: &Option<j1::Sequence>) -> Option<w::Sequence> {
    s.as_ref().map(|s| w::Sequence {
        count: s.count.max(0) as u32,
        start: s.start.unwrap_or(1).max(0) as u32,
        digits: s.digits.unwrap_or(0).max(0) as u32,
        setup_index: s.setup.unwrap_or(0).max(0) as u32,
    })
}

/// The JSON mode of a sequence key.
fn sequence_mode_to_json(m: w::SequenceMode) -> j1::SequenceMode {
    use j1::SequenceMode as J;
    use w::SequenceMode as W;
    match m {
        W::Hold => J::Hold,
        W::Once => J::Once,
        W::Loop => J::Loop,
        W::PingPong => J::Pingpong,
        W::OnceReverse => J::OnceReverse,
        W::LoopReverse => J::LoopReverse,
        W::PingPongReverse => J::PingpongReverse,
    }
}

/// The binary mode of a sequence key.
fn sequence_mode_from_json(m: j1::SequenceMode) -> w::SequenceMode {
    use j1::SequenceMode as J;
    use w::SequenceMode as W;
    match m {
        J::Hold => W::Hold,
        J::Once => W::Once,
        J::Loop => W::Loop,
        J::Pingpong => W::PingPong,
        J::OnceReverse => W::OnceReverse,
        J::LoopReverse => W::LoopReverse,
        J::PingpongReverse => W::PingPongReverse,
    }
}

/// The JSON name of a physics timeline property.
fn physics_prop_to_json(p: w::PhysicsProperty) -> PhysicsProperty {
    match p {
        w::PhysicsProperty::Inertia => PhysicsProperty::Inertia,
        w::PhysicsProperty::Strength => PhysicsProperty::Strength,
        w::PhysicsProperty::Damping => PhysicsProperty::Damping,
        w::PhysicsProperty::Mass => PhysicsProperty::Mass,
        w::PhysicsProperty::Wind => PhysicsProperty::Wind,
        w::PhysicsProperty::Gravity => PhysicsProperty::Gravity,
        w::PhysicsProperty::Mix => PhysicsProperty::Mix,
    }
}

/// The binary physics timeline property of a JSON name.
fn physics_prop_from_json(p: PhysicsProperty) -> w::PhysicsProperty {
    match p {
        PhysicsProperty::Inertia => w::PhysicsProperty::Inertia,
        PhysicsProperty::Strength => w::PhysicsProperty::Strength,
        PhysicsProperty::Damping => w::PhysicsProperty::Damping,
        PhysicsProperty::Mass => w::PhysicsProperty::Mass,
        PhysicsProperty::Wind => w::PhysicsProperty::Wind,
        PhysicsProperty::Gravity => w::PhysicsProperty::Gravity,
        PhysicsProperty::Mix => w::PhysicsProperty::Mix,
    }
}

/// A `mass` whose inverse, as the loaders compute it (`1 / mass` in f64, then stored as
/// f32), is exactly `mass_inverse`.
pub(crate) fn mass_of(mass_inverse: f32) -> Option<f32> {
    mass_for(mass_inverse, mass_inverse_of)
}

/// The inverse of a JSON `mass` as the loaders compute it.
pub(crate) fn mass_inverse_of(mass: f32) -> f32 {
    (1.0 / f64::from(mass)) as f32
}

/// The JSON vertex array of binary vertices.
fn vertices_to_json(v: &w::Vertices) -> Vec<f32> {
    match v {
        w::Vertices::Unweighted(xy) => xy.clone(),
        w::Vertices::Weighted(vs) => {
            let mut out = Vec::with_capacity(vs.counts.len() + vs.bones.len() * 4);
            for (&n, g) in vs.counts.iter().zip(vs.groups()) {
                out.push(n as f32);
                for b in g {
                    out.extend([b.bone as f32, b.x, b.y, b.weight]);
                }
            }
            out
        }
    }
}
