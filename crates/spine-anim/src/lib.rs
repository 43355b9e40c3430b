//! # spine-anim
//!
//! Skeleton instances over shared [`SkeletonData`](spine_model::SkeletonData), every
//! timeline type, `AnimationState` (tracks, mixing, events) and the constraint solvers,
//! following spine-cpp 4.2 (`Skeleton.cpp`, `Bone.cpp`, `Slot.cpp`, `*Timeline.cpp`,
//! `AnimationState.cpp`) float for float.
//!
//! * [`Skeleton`]: bones ([`Bone`]: local, applied and world pose), slots, draw order, skin,
//!   update cache ([`UpdateEntry`]), [`Skeleton::update_world_transform`].
//! * [`constraints`]: constraint runtime state and the solver entry points (the solvers
//!   are stubs that do nothing yet).
//! * [`timeline`]: every timeline type's `apply` ([`apply_animation`], [`apply_timeline`]).
//! * [`state`]: [`AnimationState`] (tracks, queueing, mixing, listener events).
//! * World vertices of regions and vertex attachments ([`Skeleton::world_vertices`]).
//!
//! Checked against the spine-cpp 4.2 goldens in `tests/oracle_42.rs` (POSE and STATE): every
//! sample matches except where constraint-driven bones are involved (solvers pending).

pub mod constraints;
pub mod math;
pub mod render;
mod skeleton;
mod vertices;

pub use render::SkeletonRenderer;
pub use skeleton::{
    parent_world, timeline_attachment, update_bone, Bone, ParentWorld, Physics, Skeleton, Slot,
    UpdateEntry, WorldFrame,
};
pub mod timeline;

pub use timeline::{apply_animation, apply_timeline, EventRef, MixBlend, MixDirection};
pub mod state;

pub use state::{
    AnimationState, AnimationStateData, EntryId, StateEvent, StateEventType, TrackEntry,
};
