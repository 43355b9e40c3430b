//! # spine-model
//!
//! Resolves the raw documents of `spine-format` into one validated, version-neutral
//! [`SkeletonData`] shaped like the Spine 4.3 runtime model:
//!
//! * typed ids ([`BoneId`], [`SlotId`], [`SkinId`], [`ConstraintId`], [`AnimationId`],
//!   [`EventId`], [`AttachmentId`], [`PageId`]) index plain `Vec`s; no raw wire index
//!   survives, so `spine-anim` never re-checks;
//! * constraints in one list in update order; skins (default first) with sorted entries;
//!   every attachment in one flat list; linked meshes resolved into meshes;
//! * timelines bound to ids, keys as flat `f32` arrays with precomputed curve tables, every
//!   table of an animation in one buffer ([`AnimationData::keys`]; a timeline's [`Curves`]
//!   says where, [`AnimationData::table`] reads it);
//! * the load-time scale applied to the fields the format marks scaled;
//! * per-version behaviour recorded in [`Behaviour`] (the only way code below may tell
//!   versions apart);
//! * atlas regions bound ([`TextureRegion`]: UVs, rotation, offsets, original size, page),
//!   or geometry-only without an atlas.
//!
//! The front door is [`load`]: bytes of any Spine skeleton (binary, JSON, 4.3 JSON; format
//! told from the content by [`sniff`]) and [`LoadOptions`] (atlas, scale, `Limits`) in,
//! [`SkeletonData`] or a typed [`LoadError`] out (the format crate's error, or
//! [`LoadError::Invalid`] with **every** problem found). Format-specific entry points:
//! [`SkeletonData::from_binary`], [`load_binary`] / [`load_binary_with`] (the same data,
//! streamed), [`load_json`], [`load_json43`]. File-system work shared by the CLI and engines
//! (bounded reads, atlas discovery, page paths) is in [`files`]; [`validate()`] is the
//! library side of `skel validate`.
//!
//! Resolved: binary 3.5–3.8 and 4.0–4.3, JSON 3.5–4.2 ([`SkeletonData::from_json`], [`load_json`])
//! and 4.3 ([`SkeletonData::from_json43`], [`load_json43`]).
//! All sources feed the same internal builder.

mod anim;
mod atlas_bind;
mod build;
pub mod convert;
mod curves;
mod data;
mod error;
pub mod files;
mod ids;
mod json;
mod json43;
mod load;
mod timelines;
mod v3x;
mod v40;
mod v43;
pub mod validate;

pub use anim::*;
pub use atlas_bind::{mesh_uvs, mesh_uvs_into, region_offsets, region_uvs, region_uvs_bl_first};
pub use data::*;
pub use error::{LoadError, Problem, ProblemKind};
pub use ids::*;
pub use json::load_json;
pub use json43::load_json43;
pub use load::{load, sniff, FileFormat};
pub use spine_format::{Name, SpineVersion};
pub use validate::{validate, AtlasChoice};

use spine_format::atlas::Atlas;
use spine_format::binary::SkeletonFile;
use spine_format::Limits;

/// How to load a skeleton.
#[derive(Debug, Clone, Copy)]
pub struct LoadOptions<'a> {
    /// Multiplies every positional value (the fields the format marks scaled) and the atlas
    /// region sizes.
    pub scale: f32,
    /// The atlas to bind regions from; `None` = geometry-only (no regions, no UVs).
    pub atlas: Option<&'a Atlas>,
    /// The atlas name used in problem messages (e.g. `"spineboy.atlas"`).
    pub atlas_name: &'a str,
    /// Bounds on counts, strings and sizes the parsers enforce before allocating.
    pub limits: Limits,
}

impl Default for LoadOptions<'_> {
    fn default() -> Self {
        LoadOptions { scale: 1.0, atlas: None, atlas_name: "", limits: Limits::default() }
    }
}

impl<'a> LoadOptions<'a> {
    /// Scale 1, `atlas` bound (named `"atlas"` in problems), default limits.
    pub fn with_atlas(atlas: Option<&'a Atlas>) -> Self {
        LoadOptions { atlas, atlas_name: "atlas", ..LoadOptions::default() }
    }
}

impl SkeletonData {
    /// Resolves and validates a parsed binary skeleton.
    pub fn from_binary(file: &SkeletonFile, options: &LoadOptions<'_>) -> Result<Self, LoadError> {
        match file {
            SkeletonFile::V40(s) => v40::convert(s, options),
            SkeletonFile::V43(s) => v43::convert(s, options),
            SkeletonFile::V35(s) => v3x::from_v35(s, options),
            SkeletonFile::V38(s) => v3x::from_v38(s, options),
            _ => Err(LoadError::Unsupported("this binary generation".into())),
        }
    }
}

/// Parses and resolves binary skeleton bytes with an optional atlas (scale 1).
pub fn load_binary(bytes: &[u8], atlas: Option<&Atlas>) -> Result<SkeletonData, LoadError> {
    load_binary_with(bytes, &LoadOptions::with_atlas(atlas))
}

/// Parses and resolves binary skeleton bytes with `options`: the same result (data, or
/// error) as [`spine_format::binary::parse`] then [`SkeletonData::from_binary`], faster (4.0–4.3
/// animations are streamed from the bytes into the model, mesh buffers moved, not copied).
pub fn load_binary_with(
    bytes: &[u8],
    options: &LoadOptions<'_>,
) -> Result<SkeletonData, LoadError> {
    use spine_format::SpineVersion as V;
    if let Ok(h) = spine_format::binary::detect(bytes) {
        if (V::V4_0..V::V4_3).contains(&h.generation) {
            return v40::load_streaming(bytes, options);
        }
        if h.generation == V::V4_3 {
            return v43::load_streaming(bytes, options);
        }
    }
    let file = spine_format::binary::parse_with_limits(bytes, &options.limits)?;
    SkeletonData::from_binary(&file, options)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn skeleton_data_is_send_and_sync() {
        assert_send_sync::<SkeletonData>();
        assert_send_sync::<std::sync::Arc<SkeletonData>>();
    }
}
