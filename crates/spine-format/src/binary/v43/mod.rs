//! Binary skeletons of Spine 4.3 (`/work/shared/spec/spine-4.3-binary.md`).
//!
//! [`parse`] reads a whole file into a [`Skeleton`] (every byte must be consumed, including
//! the trailing slider animation indices); [`write()`] is its exact inverse:
//! `write(&parse(b)?) == b` for every input `parse` accepts.
//!
//! Modules: [`ast`] (the types), `read` / `read_anim` (the parser, driving a
//! [`stream::AnimationSink`]), `write` (the writer).
//!
//! # Raw values
//!
//! Numbers are kept **unscaled**, as on the wire. The fields the format marks *scaled*
//! (multiplied by the load-time `scale` in `spine-model`) are:
//!
//! * header `reference_scale`;
//! * bone `x`, `y`, `length`;
//! * IK constraint `softness` and IK timeline `softness` (values and bezier `cy`);
//! * transform constraint `offsets[1]`/`offsets[2]` (x, y); from/to `offset` and `max` of
//!   `X`/`Y` properties (`to.scale` is multiplied by toScale / fromScale);
//! * path constraint `position` when the position mode is `Fixed`, `spacing` when the
//!   spacing mode is `Length` or `Fixed` (and the matching path timelines);
//! * physics `limit` (default 5000, also scaled);
//! * slider `property_offset` (× scale) and `scale` (÷ scale) for `X`/`Y` properties;
//! * region `x`, `y`, `width`, `height`; mesh and linked-mesh `width`/`height`; point `x`,
//!   `y`; unweighted vertex coordinates and weighted bind `x`/`y`; path `lengths`;
//! * bone translate timelines (values and bezier `cy`), deform values.
//!
//! String-table references stay [`StrRef`](crate::binary::StrRef)s; colors stay RGBA bytes;
//! flag bytes whose bits gate optional fields are kept raw (see [`ast`]).
//!
//! # Validation
//!
//! Every count is checked against the remaining input before allocating; every index is
//! checked against what has been read so far (skin indices of linked meshes against the
//! final skin count); constraint timelines must point at constraints of the right type;
//! unknown enum values and booleans other than 0/1 are errors.

pub mod ast;
mod read;
mod read_anim;
pub mod stream;
mod write;
mod write_anim;

pub use ast::*;

use crate::error::BinaryError;
use crate::{AnimationSummary, ConstraintCounts, Summary};

impl Skeleton {
    /// Counts and names for display.
    pub fn summary(&self) -> Summary {
        let mut constraints = ConstraintCounts::default();
        for c in &self.constraints {
            match c.kind.constraint_type() {
                ConstraintType::Ik => constraints.ik += 1,
                ConstraintType::Path => constraints.path += 1,
                ConstraintType::Transform => constraints.transform += 1,
                ConstraintType::Physics => constraints.physics += 1,
                ConstraintType::Slider => constraints.slider += 1,
            }
        }
        let mut skins = Vec::with_capacity(self.skin_count());
        if self.default_skin.is_some() {
            skins.push("default".to_owned());
        }
        skins.extend(self.skins.iter().map(|s| s.name.to_string()));
        Summary {
            version: self.header.version.clone(),
            hash: format!("{:x}{:x}", self.header.hash_high, self.header.hash_low),
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
}

fn last<T>(v: &[T], time: impl Fn(&T) -> f32) -> f32 {
    v.last().map_or(0.0, time)
}

impl Animation {
    /// The latest last-key time over all timelines (what the runtime uses as duration).
    pub fn duration(&self) -> f32 {
        let mut d = 0.0f32;
        let mut put = |t: f32| d = d.max(t);
        for s in &self.slots {
            for t in &s.timelines {
                put(match t {
                    SlotTimeline::Attachment(k) => last(k, |k| k.time),
                    SlotTimeline::Rgba(c) => c.last_time(),
                    SlotTimeline::Rgb(c) => c.last_time(),
                    SlotTimeline::Rgba2(c) => c.last_time(),
                    SlotTimeline::Rgb2(c) => c.last_time(),
                    SlotTimeline::Alpha(c) => c.last_time(),
                });
            }
        }
        for b in &self.bones {
            for t in &b.timelines {
                put(match t {
                    BoneTimeline::Rotate(c)
                    | BoneTimeline::TranslateX(c)
                    | BoneTimeline::TranslateY(c)
                    | BoneTimeline::ScaleX(c)
                    | BoneTimeline::ScaleY(c)
                    | BoneTimeline::ShearX(c)
                    | BoneTimeline::ShearY(c) => c.last_time(),
                    BoneTimeline::Translate(c)
                    | BoneTimeline::Scale(c)
                    | BoneTimeline::Shear(c) => c.last_time(),
                    BoneTimeline::Inherit(k) => last(k, |k| k.time),
                });
            }
        }
        for t in &self.ik {
            put(last(&t.keys, |k| k.time));
        }
        for t in &self.transform {
            put(t.timeline.last_time());
        }
        for p in &self.path {
            for t in &p.timelines {
                put(match t {
                    PathTimeline::Position(c) | PathTimeline::Spacing(c) => c.last_time(),
                    PathTimeline::Mix(c) => c.last_time(),
                });
            }
        }
        for p in &self.physics {
            for t in &p.timelines {
                put(match t {
                    PhysicsTimeline::Property(_, c) => c.last_time(),
                    PhysicsTimeline::Reset(times) => last(times, |t| *t),
                });
            }
        }
        for s in &self.slider {
            for t in &s.timelines {
                put(match t {
                    SliderTimeline::Time(c) | SliderTimeline::Mix(c) => c.last_time(),
                });
            }
        }
        for sk in &self.attachments {
            for sl in &sk.slots {
                for a in &sl.attachments {
                    put(match &a.kind {
                        AttachmentTimelineKind::Deform(d) => last(&d.keys, |k| k.time),
                        AttachmentTimelineKind::Sequence(k) => last(k, |k| k.time),
                    });
                }
            }
        }
        put(last(&self.draw_order, |k| k.time));
        for f in &self.draw_order_folders {
            put(last(&f.keys, |k| k.time));
        }
        put(last(&self.events, |k| k.time));
        d
    }
}

/// Parses a 4.3 skeleton. Fails on a version not starting with `"4.3"`, on any malformed
/// or out-of-range data, and on trailing bytes.
pub fn parse(bytes: &[u8]) -> Result<Skeleton, BinaryError> {
    parse_with_limits(bytes, &crate::Limits::default())
}

/// Parses with explicit [`crate::Limits`] (checked before anything is allocated).
pub fn parse_with_limits(bytes: &[u8], limits: &crate::Limits) -> Result<Skeleton, BinaryError> {
    read::read_skeleton(bytes, *limits)
}

pub use read::Animations;

/// Reads a 4.3 skeleton up to its animations, for a loader that converts one animation at a
/// time: the [`Skeleton`] (its `animations` empty, each slider constraint's `animation` 0)
/// and a reader of the animations. Reading every animation with [`Animations::read_next`]
/// and then [`Animations::finish`] (the slider constraints' animation indices and the end of
/// the input) reports exactly the errors [`parse_with_limits`] does, in the same order.
pub fn parse_head<'a>(
    bytes: &'a [u8],
    limits: &crate::Limits,
) -> Result<(Skeleton, Animations<'a>), BinaryError> {
    read::parse_head(bytes, *limits)
}

/// Writes a 4.3 skeleton; the exact inverse of [`parse`].
pub fn write(skeleton: &Skeleton) -> Vec<u8> {
    write::write_skeleton(skeleton)
}
