//! Spine JSON skeletons of editor version 4.3.
//!
//! 4.3 reorganised the JSON: every constraint lives in one ordered `constraints` array with a
//! `type` (`ik`, `transform`, `path`, `physics`, `slider`), transform constraints map source
//! properties to target properties (`properties: {from: {offset, to: {to: {offset, max,
//! scale}}}}`), linked meshes name their `source` (and its `slot`), animations gained `slider`
//! timelines, `drawOrderFolder` timelines and a `color`. The reference for what is read, and
//! with which defaults, is the official 4.3 `SkeletonJson` (spine-ts / spine-libgdx, branch
//! 4.3); [`parse`] reads into a raw AST ([`Skeleton`]) in the style of [`crate::json`]: names
//! stay names (nothing is resolved), numbers stay unscaled, colors become `[u8; 4]` bytes, and
//! every field the loader reads with a default is an `Option` documenting that default (some
//! 4.3 defaults differ from 4.2: physics `inertia` 0.5 and `damping` 0.85). Keys the 4.3
//! loader does not read are ignored. Enum strings are read as the official loader reads them
//! (`Utils.enumValue` upper-cases the first letter, so `normal` and `Normal` are the same).
//!
//! Where the official loader would fail on a missing value (a region without `width`, a
//! mesh without `uvs`, a slider without `animation`, …) the reader reports it. Types shared
//! with the 3.5–4.2 AST ([`crate::json`]) are reused: keys, curves, slot and bone timelines,
//! IK keys, deform and sequence keys, events, sequences, blend and path modes.
//!
//! Errors are [`JsonError`]s naming the JSON path; [`parse_with_limits`] enforces the same
//! [`Limits`] as every other parser of this crate, under the same names.
//!
//! [`write()`] is the inverse up to formatting: `parse(&write(&s)) == s` for every parsed `s`.

mod anim;
mod attachments;
mod constraints;
mod enums;
mod skeleton;
mod skins;
mod write;

pub use anim::*;
pub use attachments::{Attachment, AttachmentKind};
pub use constraints::{
    Constraint, ConstraintKind, FromEntry, IkConstraint, PathConstraint, PhysicsConstraint,
    SliderBone, SliderConstraint, ToEntry, TransformConstraint, GLOBAL_KEYS, MIX_KEYS, OFFSET_KEYS,
};
pub use enums::{Property, ScaleYMode};
pub use skeleton::{Bone, Info, Slot};
pub use skins::{Skin, SkinSlot};
pub use write::write;

use crate::json::common::{list, root_object};
use crate::json::value::{self, each_named_some, Obj, J, P, R};
use crate::json::{BlendMode, EventDef, Inherit, JsonError, PositionMode, RotateMode, SpacingMode};
use crate::{AnimationSummary, ConstraintCounts, Limits, Summary};
use serde::Serialize;

/// Keeps one item per key with JavaScript object semantics (the official 4.3 loader reads
/// the text with `JSON.parse`): a key written twice keeps its first position and its last
/// value. `None` values (entries the loader skips) are dropped after that.
pub(crate) fn last_wins<K: std::hash::Hash + Eq, T>(items: Vec<(K, Option<T>)>) -> Vec<T> {
    let mut at = std::collections::HashMap::with_capacity(items.len());
    let mut out: Vec<Option<T>> = Vec::with_capacity(items.len());
    for (k, t) in items {
        match at.get(&k) {
            Some(&i) => out[i] = t,
            None => {
                at.insert(k, out.len());
                out.push(t);
            }
        }
    }
    out.into_iter().flatten().collect()
}

/// The entries of an object of `what`, each read with `f` (`None`: skipped), one per key
/// ([`last_wins`]).
pub(crate) fn named_some<'d, T>(
    v: J<'d>,
    p: &P<'_>,
    what: &'static str,
    mut f: impl FnMut(&'d str, J<'d>, &P<'_>) -> R<Option<T>>,
) -> R<Vec<T>> {
    let items = each_named_some(v, p, what, |k, v, p| Ok(Some((k, f(k, v, p)?))))?;
    Ok(last_wins(items))
}

/// [`named_some`] keeping every entry.
pub(crate) fn named<'d, T>(
    v: J<'d>,
    p: &P<'_>,
    what: &'static str,
    mut f: impl FnMut(&'d str, J<'d>, &P<'_>) -> R<T>,
) -> R<Vec<T>> {
    named_some(v, p, what, |k, v, p| f(k, v, p).map(Some))
}

/// A whole 4.3 JSON skeleton.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Skeleton {
    /// The `skeleton` object (all defaults when absent).
    pub info: Info,
    /// `bones`.
    pub bones: Vec<Bone>,
    /// `slots`.
    pub slots: Vec<Slot>,
    /// `constraints`, in update order.
    pub constraints: Vec<Constraint>,
    /// `skins`, in file order.
    pub skins: Vec<Skin>,
    /// `events` definitions.
    pub events: Vec<EventDef>,
    /// `animations`.
    pub animations: Vec<Animation>,
}

/// Whether `version` (a `skeleton.spine` string) is a 4.3 editor version.
pub fn is_43(version: &str) -> bool {
    crate::SpineVersion::parse(version) == Some(crate::SpineVersion::V4_3)
}

/// The `skeleton.spine` version string of a JSON skeleton, if the text is a JSON object that
/// declares one (a cheap way to pick [`parse`] or [`crate::json::parse`]).
pub fn declared_version(text: &str) -> Option<String> {
    let doc = value::Doc::parse(text, &Limits::default()).ok()?;
    let root = doc.root();
    let rp = P::ROOT;
    let o = Obj::new(root, &rp).ok()?;
    let sk = o.get("skeleton")?;
    let kp = rp.key("skeleton");
    let s = Obj::new(sk, &kp).ok()?;
    s.string("spine").ok()?
}

/// Parses a Spine 4.3 JSON skeleton within [`Limits::default`] ([`parse_with_limits`]).
pub fn parse(text: &str) -> Result<Skeleton, JsonError> {
    parse_with_limits(text, &Limits::default())
}

/// Parses a Spine 4.3 JSON skeleton, enforcing `limits` (the same [`Limits`] as
/// [`crate::binary::parse_with_limits`] and [`crate::json::parse_with_limits`]). A declared
/// `skeleton.spine` other than 4.3.x is an error; a file without one is read as 4.3.
pub fn parse_with_limits(text: &str, limits: &Limits) -> Result<Skeleton, JsonError> {
    read(text, limits).map_err(|e| *e)
}

/// [`parse_with_limits`] with the readers' boxed error.
fn read(text: &str, limits: &Limits) -> R<Skeleton> {
    let doc = value::Doc::parse(text, limits)?;
    let rp = P::ROOT;
    let o = root_object(doc.root(), &rp)?;
    let info = o.opt("skeleton", |v, p| skeleton::read_info(&Obj::new(v, p)?))?.unwrap_or_default();
    if let Some(s) = &info.spine {
        if !is_43(s) {
            return Err(rp
                .key("skeleton")
                .key("spine")
                .err(format!("not a Spine 4.3 skeleton (version {s:?})")));
        }
    }
    Ok(Skeleton {
        bones: list(&o, "bones", "bone", skeleton::read_bone)?,
        slots: list(&o, "slots", "slot", skeleton::read_slot)?,
        constraints: list(&o, "constraints", "constraint", constraints::read_constraint)?,
        skins: list(&o, "skins", "skin", skins::read_skin)?,
        events: o.opt("events", skeleton::read_events)?.unwrap_or_default(),
        animations: o
            .opt("animations", |v, p| {
                named(v, p, "animation", |name, v, p| anim::read_animation(name, &Obj::new(v, p)?))
            })?
            .unwrap_or_default(),
        info,
    })
}

/// The 8 bytes of a hash the editor writes as 11 base64 characters (4.x exports).
pub fn hash_bytes(hash: &str) -> Option<[u8; 8]> {
    let s = hash.trim_end_matches('=');
    if s.len() != 11 {
        return None;
    }
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        } as u32)
    };
    let mut bits: u128 = 0;
    for &c in s.as_bytes() {
        bits = (bits << 6) | u128::from(val(c)?);
    }
    // 66 bits: the last 2 are padding and must be zero.
    if bits & 3 != 0 {
        return None;
    }
    Some(((bits >> 2) as u64).to_be_bytes())
}

/// A 4.x JSON hash as the binary summaries show the same bytes (the second then the first
/// big-endian word, hex) when it is the editor's base64 of 8 bytes; else as written.
pub fn hash_display(hash: &str) -> String {
    match hash_bytes(hash) {
        Some(b) => {
            let low = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
            let high = u32::from_be_bytes([b[4], b[5], b[6], b[7]]);
            format!("{high:x}{low:x}")
        }
        None => hash.to_owned(),
    }
}

impl Skeleton {
    /// Counts and names for display (the same fields as the binary summaries). The hash is
    /// shown as the 4.3 binary summary shows it (the second then the first big-endian word,
    /// hex) when it is the editor's base64 of 8 bytes, so a JSON export and its binary twin
    /// agree; any other hash string is shown as written.
    pub fn summary(&self) -> Summary {
        let mut skins: Vec<String> = self.skins.iter().map(|s| s.name.to_string()).collect();
        if let Some(i) = skins.iter().position(|s| s == "default") {
            let d = skins.remove(i);
            skins.insert(0, d);
        }
        let mut constraints = ConstraintCounts::default();
        for c in &self.constraints {
            match c.kind {
                ConstraintKind::Ik(_) => constraints.ik += 1,
                ConstraintKind::Transform(_) => constraints.transform += 1,
                ConstraintKind::Path(_) => constraints.path += 1,
                ConstraintKind::Physics(_) => constraints.physics += 1,
                ConstraintKind::Slider(_) => constraints.slider += 1,
            }
        }
        let hash = self.info.hash.as_deref().map(hash_display).unwrap_or_default();
        Summary {
            version: self.info.spine.clone().unwrap_or_default(),
            hash,
            bones: self.bones.len(),
            slots: self.slots.len(),
            skins,
            constraints,
            events: self.events.iter().map(|e| e.name.to_string()).collect(),
            animations: self
                .animations
                .iter()
                .map(|a| AnimationSummary { name: a.name.to_string(), duration: a.duration() })
                .collect(),
        }
    }

    /// The skin named `name`.
    pub fn skin(&self, name: &str) -> Option<&Skin> {
        self.skins.iter().find(|s| s.name == name)
    }

    /// The animation named `name`.
    pub fn animation(&self, name: &str) -> Option<&Animation> {
        self.animations.iter().find(|a| a.name == name)
    }
}
