//! # spine-model
//!
//! **Not implemented yet.** This crate will resolve the raw documents of `spine-format`
//! (binary 3.5–4.3, JSON) into one validated, version-neutral `SkeletonData` with typed ids
//! (`BoneId`, `SlotId`, …), resolved skins, linked meshes, sequences and atlas regions, and
//! the per-version upgrades that let `spine-anim` see one semantics. Nothing here works yet.
