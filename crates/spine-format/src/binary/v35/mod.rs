//! Binary skeletons of Spine 3.5, 3.6 and 3.7.
//!
//! One generation: 3.6 added two-color tint (slot dark colors, two-color timelines),
//! transform constraint `local`/`relative`, point and clipping attachments; 3.7 added the
//! header audio path, IK `compress`/`stretch`/`uniform` (and the IK keys' `compress` and
//! `stretch`) and event audio (path, volume, balance; event keys then carry volume and
//! balance). The [`Skeleton::generation`] says which fields are on the wire.
//!
//! Strings are inline (`Option<String>`); the records shared with 3.8 live in
//! [`crate::binary::v3_common`].

pub mod ast;
mod read;
mod write;

pub use ast::*;

use crate::error::BinaryError;
use crate::{AnimationSummary, ConstraintCounts, Summary};

impl Skeleton {
    /// Counts and names for display.
    pub fn summary(&self) -> Summary {
        let mut skins = Vec::with_capacity(self.skins.len() + 1);
        if !self.default_skin.is_empty() {
            skins.push("default".to_owned());
        }
        skins.extend(self.skins.iter().map(|s| s.name.clone().unwrap_or_default()));
        Summary {
            version: self.header.version.clone(),
            hash: self.header.hash.clone().unwrap_or_default(),
            bones: self.bones.len(),
            slots: self.slots.len(),
            skins,
            constraints: ConstraintCounts {
                ik: self.ik.len(),
                transform: self.transform.len(),
                path: self.path.len(),
                ..ConstraintCounts::default()
            },
            events: self.events.iter().map(|e| e.name.to_string()).collect(),
            animations: self
                .animations
                .iter()
                .map(|a| AnimationSummary { name: a.name.to_string(), duration: a.duration() })
                .collect(),
        }
    }
}

/// Parses a 3.5, 3.6 or 3.7 skeleton; every byte must be consumed.
pub fn parse(bytes: &[u8]) -> Result<Skeleton, BinaryError> {
    parse_with_limits(bytes, &crate::Limits::default())
}

/// Parses with explicit [`crate::Limits`] (checked before anything is allocated).
pub fn parse_with_limits(bytes: &[u8], limits: &crate::Limits) -> Result<Skeleton, BinaryError> {
    read::parse(bytes, *limits)
}

/// Writes a 3.5–3.7 skeleton back to bytes (`write(&parse(b)?) == b`).
pub fn write(skeleton: &Skeleton) -> Vec<u8> {
    write::write(skeleton)
}
