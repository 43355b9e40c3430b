//! Binary skeletons of Spine 3.8.
//!
//! Differences from 3.7 ([`crate::binary::v35`]): the header has the bounds' `x` and `y`
//! before width and height; a string table follows the header and slot setup attachments,
//! skin names, attachment keys, names and paths, linked-mesh skin and parent, event names,
//! attachment-timeline and deform-timeline attachment names become [`StrRef`]s into it;
//! bones and constraints carry `skinRequired`; non-default skins list their bones and
//! constraints; IK constraints and IK keys carry `softness`. Exports declaring 3.8.75 are
//! refused, as the official loaders do.
//!
//! The records shared with 3.5–3.7 live in [`crate::binary::v3_common`].

pub mod ast;
mod read;
mod write;

pub use ast::*;

use crate::binary::StrRef;
use crate::error::BinaryError;
use crate::{AnimationSummary, ConstraintCounts, Summary};

impl Skeleton {
    /// Counts and names for display.
    pub fn summary(&self) -> Summary {
        let name = |r: StrRef| self.str(r).unwrap_or_default().to_owned();
        let mut skins = Vec::with_capacity(self.skins.len() + 1);
        if !self.default_skin.is_empty() {
            skins.push("default".to_owned());
        }
        skins.extend(self.skins.iter().map(|s| name(s.name)));
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
            events: self.events.iter().map(|e| name(e.name)).collect(),
            animations: self
                .animations
                .iter()
                .map(|a| AnimationSummary { name: a.name.to_string(), duration: a.duration() })
                .collect(),
        }
    }
}

/// Parses a 3.8 skeleton; every byte must be consumed.
pub fn parse(bytes: &[u8]) -> Result<Skeleton, BinaryError> {
    parse_with_limits(bytes, &crate::Limits::default())
}

/// Parses with explicit [`crate::Limits`] (checked before anything is allocated).
pub fn parse_with_limits(bytes: &[u8], limits: &crate::Limits) -> Result<Skeleton, BinaryError> {
    read::parse(bytes, *limits)
}

/// Writes a 3.8 skeleton back to bytes (`write(&parse(b)?) == b`).
pub fn write(skeleton: &Skeleton) -> Vec<u8> {
    write::write(skeleton)
}
