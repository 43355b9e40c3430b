//! Applying timelines to a skeleton (spine-cpp 4.2 `*Timeline::apply`, `CurveTimeline`).
//!
//! Every quirk of the reference is kept on purpose (they change the numbers the goldens
//! hold): `ScaleYTimeline` mixes from the bone's current *scale x*, `RGB2Timeline` reads the
//! dark channels' beziers at offsets 4–6, the last key of a curve timeline is always
//! stepped, event windows are `(last, time]`.

use spine_model::{
    AnimationId, AttachmentKind, BoneProperty, ColorProperty, ConstraintKind, CurveModel,
    CurveTable, Curves, PathProperty, PhysicsData, PhysicsProperty, RotationMix, SequenceMode,
    SkeletonData, SliderProperty, Timeline, Vertices, BEZIER, BEZIER_SIZE, LINEAR, STEPPED,
};

use wide::{f32x8, CmpGe};

use crate::constraints::{ConstraintPose, PhysicsPose};
use crate::math;
use crate::skeleton::{timeline_attachment, Skeleton};

mod bone;
mod constraint;
mod curves;
mod draw_order_events;
mod property;
mod slot;
#[cfg(test)]
mod tests;

pub(crate) use bone::*;
use constraint::*;
pub use curves::*;
use draw_order_events::*;
pub use property::*;
pub(crate) use slot::*;
use spine_model::{ConstraintId, IkFlags};

/// How a timeline's value combines with the current pose (spine-cpp `MixBlend`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MixBlend {
    /// From the setup pose.
    #[default]
    Setup,
    /// First on a property: like `Replace` but before the first key goes to setup.
    First,
    /// Replace the current value.
    Replace,
    /// Add to the current value.
    Add,
}

/// Mixing in or out (spine-cpp `MixDirection`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MixDirection {
    /// Mixing in.
    #[default]
    In,
    /// Mixing out.
    Out,
}

/// The arguments of one application of timelines after the skeleton (spine-cpp
/// `Timeline::apply(skeleton, lastTime, time, events, alpha, blend, direction)`, the events
/// list passed apart since it is borrowed mutably): events fire in `(last_time, time]`,
/// `alpha` weighs the keyed value against the pose, `blend` says what it combines with and
/// `direction` whether the entry is mixing in or out.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ApplyArgs {
    /// The previous application's time (the start of the event window).
    pub last_time: f32,
    /// The animation time to apply.
    pub time: f32,
    /// The weight of the keyed values, `0..=1`.
    pub alpha: f32,
    /// How the keyed values combine with the pose.
    pub blend: MixBlend,
    /// Mixing in or out.
    pub direction: MixDirection,
}

impl ApplyArgs {
    /// Posing at `time`: no event window (`last_time == time`), alpha 1, from the setup
    /// pose, mixing in.
    pub fn at(time: f32) -> ApplyArgs {
        ApplyArgs {
            last_time: time,
            time,
            alpha: 1.0,
            blend: MixBlend::Setup,
            direction: MixDirection::In,
        }
    }
}

/// A fired event: which key of which event timeline. Resolve with [`EventRef::key`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventRef {
    /// The animation.
    pub animation: AnimationId,
    /// Index of the event timeline in the animation.
    pub timeline: u32,
    /// Index of the key.
    pub key: u32,
}

impl EventRef {
    /// The event key (time, values) this refers to.
    pub fn key<'a>(&self, data: &'a SkeletonData) -> Option<&'a spine_model::EventKey> {
        match data.animations.get(self.animation.index())?.timelines.get(self.timeline as usize)? {
            Timeline::Event { keys } => keys.get(self.key as usize),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------------------
// Apply.

/// spine-cpp `Animation::apply`: every timeline of `animation` at `time` (wrapped when
/// looping); fired events are appended to `events`. The positional form of
/// [`apply_animation_with`].
#[allow(clippy::too_many_arguments)]
pub fn apply_animation(
    sk: &mut Skeleton,
    animation: AnimationId,
    last_time: f32,
    time: f32,
    looping: bool,
    events: Option<&mut Vec<EventRef>>,
    alpha: f32,
    blend: MixBlend,
    direction: MixDirection,
) {
    let args = ApplyArgs { last_time, time, alpha, blend, direction };
    apply_animation_with(sk, animation, looping, events, args);
}

/// spine-cpp `Animation::apply`: every timeline of `animation` at `args.time` (wrapped when
/// looping); fired events are appended to `events`.
pub fn apply_animation_with(
    sk: &mut Skeleton,
    animation: AnimationId,
    looping: bool,
    events: Option<&mut Vec<EventRef>>,
    args: ApplyArgs,
) {
    // 4.3: animations set the poses of the slots a slider constrains.
    sk.swap_slot_poses();
    apply_animation_to(sk, animation, looping, events, args);
    sk.swap_slot_poses();
}

/// [`apply_animation_with`] onto what `sk.slots` and `sk.draw_order` hold, which for the
/// slots a 4.3 slider constrains is the applied pose (a slider's animation, 4.3
/// `appliedPose`).
pub(crate) fn apply_animation_to(
    sk: &mut Skeleton,
    animation: AnimationId,
    looping: bool,
    mut events: Option<&mut Vec<EventRef>>,
    mut args: ApplyArgs,
) {
    let data = sk.data.clone();
    let Some(anim) = data.animations.get(animation.index()) else { return };
    if looping && anim.duration != 0.0 {
        args.time = math::fmod(args.time, anim.duration);
        if args.last_time > 0.0 {
            args.last_time = math::fmod(args.last_time, anim.duration);
        }
    }
    for i in 0..anim.timelines.len() {
        apply_timeline_in(sk, &data, animation, i, events.as_deref_mut(), args);
    }
}

/// Applies timeline `index` of `animation` (spine-cpp `Timeline::apply`).
pub fn apply_timeline(
    sk: &mut Skeleton,
    animation: AnimationId,
    index: usize,
    events: Option<&mut Vec<EventRef>>,
    args: ApplyArgs,
) {
    let data = sk.data.clone();
    apply_timeline_in(sk, &data, animation, index, events, args);
}

/// [`apply_timeline`] with the skeleton's data passed in (`data` must be `sk.data`; taking
/// it once per animation saves a reference-count round trip per timeline).
pub fn apply_timeline_in(
    sk: &mut Skeleton,
    data: &SkeletonData,
    animation: AnimationId,
    index: usize,
    events: Option<&mut Vec<EventRef>>,
    args: ApplyArgs,
) {
    let Some(anim) = data.animations.get(animation.index()) else { return };
    let Some(tl) = anim.timelines.get(index) else { return };
    apply_tl(sk, data, (animation, index), (tl, &anim.keys), events, args);
}

/// [`apply_timeline_in`] for a timeline the caller already holds (`tl` is timeline `index`
/// of `animation`, `keys` that animation's keys, `data` is `sk.data`). Bone timelines, most
/// of a typical animation, are applied inline; the other kinds through one out-of-line arm.
#[inline(always)]
pub(crate) fn apply_held(
    sk: &mut Skeleton,
    data: &SkeletonData,
    (animation, index): (AnimationId, usize),
    (tl, keys): (&Timeline, &[f32]),
    events: Option<&mut Vec<EventRef>>,
    args: ApplyArgs,
) {
    match tl {
        Timeline::Bone { bone, property, curves } => {
            if !curves.is_empty() {
                apply_bone(sk, data, bone.index(), *property, (curves, keys), args);
            }
        }
        Timeline::Ik { constraint, curves, flags } => {
            apply_ik_timeline(sk, data, constraint, (curves, keys), flags, args)
        }
        _ => apply_tl(sk, data, (animation, index), (tl, keys), events, args),
    }
}

/// An IK constraint's timeline, apart from [`apply_tl`] (whose arms for every kind make
/// each call save and restore every register): common in rigs with legs.
#[inline(never)]
fn apply_ik_timeline(
    sk: &mut Skeleton,
    data: &SkeletonData,
    constraint: &ConstraintId,
    (curves, keys): (&Curves, &[f32]),
    flags: &[IkFlags],
    args: ApplyArgs,
) {
    apply_ik(sk, data, constraint, curves, keys, flags, args)
}

#[inline(never)]
fn apply_tl(
    sk: &mut Skeleton,
    data: &SkeletonData,
    (animation, index): (AnimationId, usize),
    (tl, keys): (&Timeline, &[f32]),
    events: Option<&mut Vec<EventRef>>,
    args: ApplyArgs,
) {
    let ApplyArgs { last_time, time, .. } = args;
    match tl {
        Timeline::Bone { bone, property, curves } => {
            if curves.is_empty() {
                return;
            }
            apply_bone(sk, data, bone.index(), *property, (curves, keys), args)
        }
        Timeline::Inherit { bone, keys } => apply_inherit(sk, data, bone, keys, args),
        Timeline::Attachment { slot, times, names } => {
            apply_attachment(sk, data, slot, times, names, args)
        }
        Timeline::Color { slot, property, curves } => {
            if !slot_active(sk, slot.index()) || curves.is_empty() {
                return;
            }
            let curves = curves.table(keys);
            if data.behaviour.mix_from_add_model {
                apply_color43(sk, data, slot.index(), *property, curves, args);
            } else {
                apply_color(sk, data, slot.index(), *property, curves, args);
            }
        }
        Timeline::Deform { slot, attachment, curves, vertices } => {
            let keyed = (curves.table(keys), &vertices[..]);
            apply_deform(sk, data, slot.index(), *attachment, keyed, args);
            // 4.3: also the attachment's timeline slots (spine-ts 4.3 `DeformTimeline`).
            if data.behaviour.mix_from_add_model {
                for &ts in timeline_slots(data, *attachment) {
                    apply_deform(sk, data, ts.index(), *attachment, keyed, args);
                }
            }
        }
        Timeline::Sequence { slot, attachment, keys } if data.behaviour.mix_from_add_model => {
            if keys.is_empty() {
                return;
            }
            apply_sequence43(sk, data, slot.index(), *attachment, keys, args);
            for &ts in timeline_slots(data, *attachment) {
                apply_sequence43(sk, data, ts.index(), *attachment, keys, args);
            }
        }
        Timeline::Sequence { slot, attachment, keys } => {
            apply_sequence(sk, data, slot, attachment, keys, args)
        }
        Timeline::Ik { constraint, curves, flags } => {
            apply_ik(sk, data, constraint, curves, keys, flags, args)
        }
        Timeline::Transform { constraint, curves } => {
            apply_transform(sk, data, constraint, curves, keys, args)
        }
        Timeline::Path { constraint, property, curves } => {
            apply_path(sk, data, constraint, property, curves, keys, args)
        }
        Timeline::Physics { constraint, property, curves } => {
            apply_physics(sk, data, constraint, property, curves, keys, args)
        }
        Timeline::PhysicsReset { constraint, times } => {
            apply_physics_reset(sk, *constraint, times, last_time, time);
        }
        Timeline::Slider { constraint, property, curves } => {
            apply_slider(sk, data, constraint, property, curves, keys, args)
        }
        Timeline::DrawOrder { times, orders } => apply_draw_order(sk, data, times, orders, args),
        Timeline::DrawOrderFolder { slots, times, orders } => {
            apply_draw_order_folder(sk, slots, times, orders, args)
        }
        Timeline::Event { keys } => {
            if let Some(events) = events {
                fire_events(animation, index as u32, keys, last_time, time, events);
            }
        }
    }
}

fn slot_active(sk: &Skeleton, slot: usize) -> bool {
    sk.slots.get(slot).and_then(|s| sk.bones.get(s.bone.index())).is_some_and(|b| b.active)
}
