//! Slider constraint (4.3 `Slider::update`): poses an animation at a time that comes from
//! the constraint's pose (slider timelines) or, when the slider has a bone, from a
//! property of that bone.
//!
//! The animation is applied to the *applied* pose of its bones (what the update cache
//! computes world transforms from), with alpha = the slider's mix, additive sliders
//! adding ([`MixBlend::Add`]) and the others replacing ([`MixBlend::Replace`]), no events.
//! The update cache recomputes the animation's bones (and their children) after the
//! slider (see [`animation_bones`]).
//!
//! spine-cpp 4.3 applies the animation with `MixFrom_Current` and `add = additive`. For
//! every timeline kind that maps exactly onto `Replace` / `Add` of the 4.2 timelines, except
//! where 4.3 changed the timeline itself; those changes are behind
//! [`Behaviour::mix_from_add_model`](spine_model::Behaviour::mix_from_add_model)
//! (absolute-valued timelines add the key value under `Add`, `ScaleY` mixes from scale y).
//! 4.3 writes the slider's animation into *applied* poses, which start every update from
//! the poses again. Bones: the animation is applied to the applied local pose (reset from
//! the local pose by `update_world_transform`), after `modifyLocal` of the animation's
//! bones. Constraints: the values are saved in the constraint and restored once it ran
//! ([`Constraint::restore_slider_base`](super::Constraint::restore_slider_base), see
//! [`update`]). Slots and the draw order a slider keys keep their pose
//! apart from the applied pose the slider changes (`Skeleton::swap_slot_poses`).
//!
//! Bone-driven time: `offset + (property - property_offset) * scale`, where the property is
//! read from the bone's applied local pose (`local`) or from its world transform (divided
//! by the skeleton scale; rotation in `[0, 360)`). Looping sliders then wrap the time
//! into the animation (`duration + fmod(time, duration)`), the others clamp it at 0.

use spine_model::{ConstraintId, ConstraintKind, SliderData, Timeline, TransformProperty};

use super::ConstraintPose;
use crate::math;
use crate::skeleton::{Bone, Skeleton, WorldFrame};
use crate::timeline::{apply_animation_to, ApplyArgs, MixBlend};

/// The bones the animation of `data` has bone timelines for (rotate/translate/scale/
/// shear/inherit), possibly repeated. The update cache marks them (and their children) to
/// be recomputed after the slider.
pub fn animation_bones<'a>(
    skeleton: &'a spine_model::SkeletonData,
    data: &SliderData,
) -> impl Iterator<Item = spine_model::BoneId> + 'a {
    let timelines = skeleton.animations.get(data.animation.index()).map(|a| a.timelines.as_slice());
    timelines.unwrap_or(&[]).iter().filter_map(|t| match t {
        Timeline::Bone { bone, .. } | Timeline::Inherit { bone, .. } => Some(*bone),
        _ => None,
    })
}

/// The value of `property` of `bone` a slider reads (4.3 `FromProperty::value` with zero
/// offsets): from the applied local pose when `local`, else from the world transform
/// divided by the skeleton scale.
pub fn property_value(
    bone: &Bone,
    property: TransformProperty,
    local: bool,
    frame: &WorldFrame,
) -> f32 {
    let (sx, sy) = (frame.scale_x, frame.scale_y);
    if local {
        let ap = bone.applied();
        return match property {
            TransformProperty::Rotate => ap.rotation,
            TransformProperty::X => ap.x,
            TransformProperty::Y => ap.y,
            TransformProperty::ScaleX => ap.scale_x,
            TransformProperty::ScaleY => ap.scale_y,
            TransformProperty::ShearY => ap.shear_y,
        };
    }
    match property {
        TransformProperty::Rotate => {
            let v = math::atan2(bone.c / sy, bone.a / sx) * math::RAD_DEG;
            if v < 0.0 {
                v + 360.0
            } else {
                v
            }
        }
        TransformProperty::X => bone.world_x / sx,
        TransformProperty::Y => bone.world_y / sy,
        TransformProperty::ScaleX => {
            let (a, c) = (bone.a / sx, bone.c / sy);
            math::sqrt(a * a + c * c)
        }
        TransformProperty::ScaleY => {
            let (b, d) = (bone.b / sx, bone.d / sy);
            math::sqrt(b * b + d * d)
        }
        TransformProperty::ShearY => {
            let (ix, iy) = (1.0 / sx, 1.0 / sy);
            (math::atan2(bone.d * iy, bone.b * ix) - math::atan2(bone.c * iy, bone.a * ix))
                * math::RAD_DEG
                - 90.0
        }
    }
}

/// Exchanges a bone's local and applied pose (so that timelines, which write the local
/// pose, write the applied one).
fn swap_local_applied(b: &mut Bone) {
    let mut ap = *b.applied_mut();
    std::mem::swap(&mut b.x, &mut ap.x);
    std::mem::swap(&mut b.y, &mut ap.y);
    std::mem::swap(&mut b.rotation, &mut ap.rotation);
    std::mem::swap(&mut b.scale_x, &mut ap.scale_x);
    std::mem::swap(&mut b.scale_y, &mut ap.scale_y);
    std::mem::swap(&mut b.shear_x, &mut ap.shear_x);
    std::mem::swap(&mut b.shear_y, &mut ap.shear_y);
    b.set_applied(ap);
}

/// [`swap_local_applied`] for every bone, and with 4.3 poses the applied inherit too.
fn swap_all(sk: &mut Skeleton) {
    for b in &mut sk.bones {
        swap_local_applied(b);
    }
    for (b, l) in sk.bones.iter_mut().zip(sk.lazy43.iter_mut()) {
        std::mem::swap(&mut b.inherit, &mut l.inherit);
    }
}

/// The constraints timeline `t` writes (`f` may see one several times).
fn keyed_constraints(
    t: &Timeline,
    count: usize,
    data: &spine_model::SkeletonData,
    mut f: impl FnMut(usize),
) {
    match t {
        Timeline::Ik { constraint, .. }
        | Timeline::Transform { constraint, .. }
        | Timeline::Path { constraint, .. }
        | Timeline::Slider { constraint, .. }
        | Timeline::Physics { constraint: Some(constraint), .. } => f(constraint.index()),
        Timeline::Physics { constraint: None, .. } => {
            for (i, c) in data.constraints.iter().enumerate().take(count) {
                if matches!(c.kind, ConstraintKind::Physics(_)) {
                    f(i);
                }
            }
        }
        _ => {}
    }
}

/// Runs slider constraint `id` of `sk` (called by the update cache; needs the whole
/// skeleton because it applies an animation). Does nothing when the mix is 0, the
/// constraint is not a slider, or its bone is inactive. Never allocates.
///
/// Constraint values the animation changes hold for this update only (spine-cpp 4.3
/// applies them to the constraints' applied poses): the previous values are saved in the
/// constraint and put back ([`Constraint::restore_slider_base`](super::Constraint::restore_slider_base)) right after
/// the constraint ran, or right away for constraints that ran before this slider
/// (constraint list order = update order in 4.3).
pub fn update(sk: &mut Skeleton, id: ConstraintId) {
    update_inner(sk, id);
    // Values another slider applied to this one.
    if let Some(c) = sk.constraints.get_mut(id.index()) {
        c.restore_slider_base();
    }
}

fn update_inner(sk: &mut Skeleton, id: ConstraintId) {
    let data = sk.data.clone();
    let Some(ConstraintKind::Slider(d)) = data.constraints.get(id.index()).map(|c| &c.kind) else {
        return;
    };
    let Some(anim) = data.animations.get(d.animation.index()) else { return };
    let frame = sk.frame();
    let Some(ConstraintPose::Slider(p)) = sk.constraints.get(id.index()).map(|c| &c.pose) else {
        return;
    };
    if p.mix == 0.0 {
        return;
    }
    if let Some(b) = &d.bone {
        let Some(bone) = sk.bones.get(b.bone.index()) else { return };
        if !bone.active {
            return;
        }
        if d.local && !sk.lazy43.is_empty() {
            // 4.3: `validateLocalTransform` of the bone read.
            super::lazy43::validate_local_of(sk, b.bone);
        }
        let Some(bone) = sk.bones.get(b.bone.index()) else { return };
        let value = property_value(bone, b.property, d.local, &frame);
        let mut time = b.offset + (value - b.property_offset) * b.scale;
        if d.looping {
            time = anim.duration + math::fmod(time, anim.duration);
        } else {
            time = time.max(0.0);
        }
        if let Some(ConstraintPose::Slider(p)) =
            sk.constraints.get_mut(id.index()).map(|c| &mut c.pose)
        {
            p.time = time;
        }
    }
    let Some(ConstraintPose::Slider(p)) = sk.constraints.get(id.index()).map(|c| &c.pose) else {
        return;
    };
    let (time, mix) = (p.time, p.mix);
    let blend = if d.additive { MixBlend::Add } else { MixBlend::Replace };
    // 4.3: `modifyLocal` on the animation's bones.
    if !sk.lazy43.is_empty() {
        super::lazy43::modify_local_all(sk, animation_bones(&data, d));
    }
    let n = sk.constraints.len();
    for t in &anim.timelines {
        keyed_constraints(t, n, &data, |ci| {
            if let Some(c) = sk.constraints.get_mut(ci) {
                if c.active {
                    c.save_slider_base();
                }
            }
        });
    }
    swap_all(sk);
    let args = ApplyArgs { alpha: mix, blend, ..ApplyArgs::at(time) };
    apply_animation_to(sk, d.animation, d.looping, None, args);
    swap_all(sk);
    // Constraints that already ran this update (and this slider itself, which restores in
    // `update`) do not see the values: put them back now.
    for t in &anim.timelines {
        keyed_constraints(t, n, &data, |ci| {
            if ci < id.index() {
                if let Some(c) = sk.constraints.get_mut(ci) {
                    c.restore_slider_base();
                }
            }
        });
    }
}
