//! # spine-anim
//!
//! Skeleton instances over shared [`SkeletonData`](spine_model::SkeletonData), every
//! timeline type, `AnimationState` (tracks, mixing, events) and the constraint solvers,
//! following spine-cpp 4.2 (`Skeleton.cpp`, `Bone.cpp`, `Slot.cpp`, `*Timeline.cpp`,
//! `AnimationState.cpp`) float for float.
//!
//! * [`Skeleton`]: bones ([`Bone`]: local, applied and world pose), slots, draw order, skin,
//!   update cache ([`UpdateEntry`]), [`Skeleton::update_world_transform`].
//! * [`constraints`]: constraint runtime state and the solvers: IK, transform (4.2, 3.8 and
//!   the 4.3 from/to model), path, physics (spine-cpp 4.2) and the 4.3 slider.
//! * [`timeline`]: every timeline type's `apply` ([`apply_animation`], [`apply_timeline`]).
//! * [`state`]: [`AnimationState`] (tracks, queueing, mixing, listener events).
//! * World vertices of regions and vertex attachments ([`Skeleton::world_vertices`]).
//!
//! Many instances share one `Arc<SkeletonData>`; `Skeleton` and [`AnimationState`] are
//! `Send`, so instances run on worker threads (`examples/scale.rs`: 10,000 spineboys with
//! rayon). At that scale a frame waits on memory, much of it on address translation: on
//! Linux with glibc, running with `GLIBC_TUNABLES=glibc.malloc.hugetlb=1` (transparent huge
//! pages in `madvise` or `always` mode) puts the heap in 2 MiB pages, which took those
//! 10,000 instances from 2.6–3.1 µs to 1.9–2.1 µs per instance-frame on two threads of a VM
//! in its slowest state, and 8 % off in a faster one (`BENCHMARKS.md`).
//!
//! Checked against the spine-cpp 4.2 goldens in `tests/oracle_42.rs` (POSE and STATE): every
//! sample of every rig matches, constraint- and physics-driven bones included. Older
//! versions play by the model's `Behaviour` flags and are checked against their own
//! runtime's goldens in `tests/oracle_versions.rs` (4.0, 4.1 and 4.2-JSON all match; the 3.x
//! rows list their open mismatches).

mod bone_groups;
pub mod constraints;
pub mod geometry;
pub mod math;
pub mod render;
mod skeleton;
#[cfg(test)]
mod test_rng;
mod vertices;

pub use render::SkeletonRenderer;
pub use skeleton::{
    parent_world, timeline_attachment, update_bone, AppliedPose, Bone, ParentWorld, Physics,
    Skeleton, Slot, UpdateEntry, WorldFrame,
};
pub mod timeline;

pub use timeline::{
    apply_animation, apply_animation_with, apply_timeline, ApplyArgs, EventRef, MixBlend,
    MixDirection,
};
pub mod state;

pub use state::{
    AnimationState, AnimationStateData, EntryId, StateEvent, StateEventType, TrackEntry,
};
