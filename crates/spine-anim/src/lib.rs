//! # spine-anim
//!
//! **Not implemented yet.** This crate will hold skeleton instances over shared
//! `SkeletonData`, every timeline type, `AnimationState` (tracks, mixing, events), the
//! constraint solvers (IK, transform, path, physics, slider), world vertices and clipping.
//! Nothing here works yet.
