//! Binary skeletons of Spine 4.0, 4.1 and 4.2 (one generation, version-dependent parts).
//!
//! The wire format is the one read by each version's official `SkeletonBinary` loader.
//! What changed between the three:
//!
//! * **4.1** added image sequences (a presence `bool` then four varints on regions, meshes and
//!   linked meshes) and a type byte on attachment timelines (`0` deform, `1` sequence).
//! * **4.2** added the header's reference scale, bone icon/visibility and slot visibility
//!   (nonessential), physics constraints and physics timelines, the bone `inherit` timeline,
//!   and replaced many booleans and always-present values by flag bytes (IK, transform, path
//!   and physics constraints, attachments, IK keys); skin and event names became inline
//!   strings (string-table references before), named skins got a nonessential color, linked
//!   meshes name their skin by index, mesh triangles and edges became varints (16-bit before)
//!   and the triangle count became implicit.
//!
//! [`parse`] → [`Skeleton`] (see [`ast`] and [`animation`]), [`write()`] is its exact inverse;
//! [`stream`] reads the animations into a caller's [`stream::AnimationSink`] instead (the
//! reader `parse` itself uses).

pub mod animation;
pub mod ast;
pub mod meshes;
mod read;
mod read_anim;
pub mod stream;
mod write;
mod write_anim;

pub use ast::Skeleton;

use crate::error::BinaryError;
use crate::summary::{AnimationSummary, ConstraintCounts};
use crate::Summary;

impl Skeleton {
    /// Counts and names for display. The hash is shown as spine-cpp shows it
    /// ([`ast::Header::hash_string`]); animation durations are the loader's (the latest key
    /// time of any timeline).
    pub fn summary(&self) -> Summary {
        let mut skins = Vec::with_capacity(self.skins.len() + 1);
        if self.default_skin.is_some() {
            skins.push("default".to_owned());
        }
        for s in &self.skins {
            skins.push(s.name.resolve(&self.strings).unwrap_or_default().to_owned());
        }
        Summary {
            version: self.header.version.clone(),
            hash: self.header.hash_string(),
            bones: self.bones.len(),
            slots: self.slots.len(),
            skins,
            constraints: ConstraintCounts {
                ik: self.ik_constraints.len(),
                transform: self.transform_constraints.len(),
                path: self.path_constraints.len(),
                physics: self.physics_constraints.len(),
                slider: 0,
            },
            events: self
                .events
                .iter()
                .map(|e| e.name.resolve(&self.strings).unwrap_or_default().to_owned())
                .collect(),
            animations: self
                .animations
                .iter()
                .map(|a| AnimationSummary { name: a.name.to_string(), duration: a.duration() })
                .collect(),
        }
    }
}

/// Parses a 4.0, 4.1 or 4.2 skeleton; every byte must be consumed.
pub fn parse(bytes: &[u8]) -> Result<Skeleton, BinaryError> {
    parse_with_limits(bytes, &crate::Limits::default())
}

/// Parses with explicit [`crate::Limits`] (checked before anything is allocated).
pub fn parse_with_limits(bytes: &[u8], limits: &crate::Limits) -> Result<Skeleton, BinaryError> {
    read::parse(bytes, *limits)
}

/// Writes a skeleton back to bytes: `write(&parse(b)?) == b`.
pub fn write(skeleton: &Skeleton) -> Vec<u8> {
    write::write(skeleton)
}
