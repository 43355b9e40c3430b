//! The 4.3 transform constraint ([`TransformSolver::FromTo`](spine_model::TransformSolver)):
//! every [`FromProperty`] of the source bone is read (local or world, minus its offset), mapped
//! to each [`ToProperty`] (`offset + value * scale`, clamped to `max` with `clamp`) and
//! applied to the constrained bones (local or world, additive or mixed toward the value),
//! following spine-cpp 4.3 `TransformConstraint::update` and the `From*::value` /
//! `To*::apply` functions of `TransformConstraintData.cpp`.
//!
//! Two entry points: [`update43`] follows spine-ts 4.3 exactly on the 4.3 poses of
//! [`lazy43`](super::lazy43) (what 4.3 data uses); `update` is the same maths on the eager
//! (4.2-style) update cache, where a local-target bone gets its world transform recomputed
//! right after and a world-target bone its applied pose (rigs of other versions switched to
//! the from/to model by hand).

use spine_model::{
    transform_slot as ts, FromProperty, ToProperty, TransformData, TransformProperty as P,
};

use super::SolverCtx;
use crate::math::{self, DEG_RAD, PI, RAD_DEG};
use crate::skeleton::{parent_world, AppliedPose, Bone};

/// The source bone's values the "from" properties read.
#[derive(Clone, Copy)]
struct Source {
    rotation: f32,
    x: f32,
    y: f32,
    scale_x: f32,
    scale_y: f32,
    shear_y: f32,
    a: f32,
    b: f32,
    c: f32,
    d: f32,
    world_x: f32,
    world_y: f32,
}

impl Source {
    /// The values of bone `t` (its applied pose and world transform).
    #[inline]
    fn of(t: &Bone) -> Source {
        let ap = t.applied();
        Source {
            rotation: ap.rotation,
            x: ap.x,
            y: ap.y,
            scale_x: ap.scale_x,
            scale_y: ap.scale_y,
            shear_y: ap.shear_y,
            a: t.a,
            b: t.b,
            c: t.c,
            d: t.d,
            world_x: t.world_x,
            world_y: t.world_y,
        }
    }
}

fn from_value(p: &FromProperty, s: &Source, local: bool, o: &[f32; 6], sx: f32, sy: f32) -> f32 {
    let v = match p.property {
        P::Rotate => {
            if local {
                s.rotation + o[ts::ROTATE]
            } else {
                let off = if (s.a * s.d - s.b * s.c) * sx * sy > 0.0 {
                    o[ts::ROTATE]
                } else {
                    -o[ts::ROTATE]
                };
                let mut v = math::atan2(s.c / sy, s.a / sx) * RAD_DEG + off;
                if v < 0.0 {
                    v += 360.0;
                }
                v
            }
        }
        P::X => {
            if local {
                s.x + o[ts::X]
            } else {
                (o[ts::X] * s.a + o[ts::Y] * s.b + s.world_x) / sx
            }
        }
        P::Y => {
            if local {
                s.y + o[ts::Y]
            } else {
                (o[ts::X] * s.c + o[ts::Y] * s.d + s.world_y) / sy
            }
        }
        P::ScaleX => {
            if local {
                s.scale_x + o[ts::SCALE_X]
            } else {
                let (a, c) = (s.a / sx, s.c / sy);
                math::sqrt(a * a + c * c) + o[ts::SCALE_X]
            }
        }
        P::ScaleY => {
            if local {
                s.scale_y + o[ts::SCALE_Y]
            } else {
                let (b, d) = (s.b / sx, s.d / sy);
                math::sqrt(b * b + d * d) + o[ts::SCALE_Y]
            }
        }
        P::ShearY => {
            if local {
                s.shear_y + o[ts::SHEAR_Y]
            } else {
                let (ix, iy) = (1.0 / sx, 1.0 / sy);
                (math::atan2(s.d * iy, s.b * ix) - math::atan2(s.c * iy, s.a * ix)) * RAD_DEG - 90.0
                    + o[ts::SHEAR_Y]
            }
        }
    };
    v - p.offset
}

fn mix_of(p: P, m: &[f32; 6]) -> f32 {
    m[match p {
        P::Rotate => ts::ROTATE,
        P::X => ts::X,
        P::Y => ts::Y,
        P::ScaleX => ts::SCALE_X,
        P::ScaleY => ts::SCALE_Y,
        P::ShearY => ts::SHEAR_Y,
    }]
}

fn wrap_pi(mut v: f32) -> f32 {
    if v > PI {
        v -= PI * 2.0;
    } else if v < -PI {
        v += PI * 2.0;
    }
    v
}

/// `To*::apply` on the bone's applied (local) pose or world matrix (per
/// `data.local_target`), adding the value or mixing toward it (per `data.additive`).
#[inline]
fn apply_to(p: P, mix: f32, bone: &mut Bone, value: f32, data: &TransformData, sx: f32, sy: f32) {
    if data.local_target {
        apply_local(p, mix, bone.applied_mut(), value, data.additive);
    } else {
        apply_world(p, mix, bone, value, data.additive, sx, sy);
    }
}

/// `To*::apply` on the applied (local) pose.
#[inline]
fn apply_local(p: P, mix: f32, ap: &mut AppliedPose, value: f32, additive: bool) {
    match p {
        P::Rotate => add_or_mix(&mut ap.rotation, value, mix, additive),
        P::X => add_or_mix(&mut ap.x, value, mix, additive),
        P::Y => add_or_mix(&mut ap.y, value, mix, additive),
        P::ScaleX => scale_local(&mut ap.scale_x, value, mix, additive),
        P::ScaleY => scale_local(&mut ap.scale_y, value, mix, additive),
        P::ShearY => add_or_mix(&mut ap.shear_y, value, mix, additive),
    }
}

/// `To*::apply` on the world matrix (`sx`, `sy`: the skeleton's scale).
#[inline]
fn apply_world(p: P, mix: f32, bone: &mut Bone, value: f32, additive: bool, sx: f32, sy: f32) {
    match p {
        P::Rotate => rotate_world(bone, value, mix, additive, sx, sy),
        P::X => translate_world(&mut bone.world_x, value, mix, additive, sx),
        P::Y => translate_world(&mut bone.world_y, value, mix, additive, sy),
        P::ScaleX => scale_world(&mut bone.a, &mut bone.c, value, mix, additive, sx, sy),
        P::ScaleY => scale_world(&mut bone.b, &mut bone.d, value, mix, additive, sx, sy),
        P::ShearY => shear_world(bone, value, mix, additive, sx, sy),
    }
}

/// A local value: `value` added (additive) or mixed toward, by `mix`.
#[inline]
fn add_or_mix(field: &mut f32, value: f32, mix: f32, additive: bool) {
    *field += (if additive { value } else { value - *field }) * mix;
}

/// A local scale: multiplied (additive) or mixed toward `value` (a zero scale stays zero).
#[inline]
fn scale_local(scale: &mut f32, value: f32, mix: f32, additive: bool) {
    if additive {
        *scale *= 1.0 + (value - 1.0) * mix;
    } else if *scale != 0.0 {
        *scale += (value - *scale) * mix;
    }
}

/// The world rotation (all four matrix entries turned by the mixed angle).
#[inline]
fn rotate_world(bone: &mut Bone, mut value: f32, mix: f32, additive: bool, sx: f32, sy: f32) {
    let (ix, iy) = (1.0 / sx, 1.0 / sy);
    let (a, b, c, d) = (bone.a * ix, bone.b * ix, bone.c * iy, bone.d * iy);
    value *= DEG_RAD;
    if !additive {
        value -= math::atan2(c, a);
    }
    value = wrap_pi(value) * mix;
    let (cos, sin) = (math::cos(value), math::sin(value));
    bone.a = (cos * a - sin * c) * sx;
    bone.b = (cos * b - sin * d) * sx;
    bone.c = (sin * a + cos * c) * sy;
    bone.d = (sin * b + cos * d) * sy;
}

/// A world position (`world_x` with `sx`, or `world_y` with `sy`).
#[inline]
fn translate_world(world: &mut f32, mut value: f32, mix: f32, additive: bool, s: f32) {
    if !additive {
        value -= *world / s;
    }
    *world += value * mix * s;
}

/// A world scale: the matrix column `x`, `y` (`a`, `c` for X; `b`, `d` for Y) scaled.
#[inline]
fn scale_world(x: &mut f32, y: &mut f32, value: f32, mix: f32, additive: bool, sx: f32, sy: f32) {
    if additive {
        let s = 1.0 + (value - 1.0) * mix;
        *x *= s;
        *y *= s;
    } else {
        let (a, c) = (*x / sx, *y / sy);
        let mut s = math::sqrt(a * a + c * c);
        if s != 0.0 {
            s = 1.0 + (value - s) * mix / s;
            *x *= s;
            *y *= s;
        }
    }
}

/// The world shear Y (the `b`, `d` column turned, its length kept).
#[inline]
fn shear_world(bone: &mut Bone, mut value: f32, mix: f32, additive: bool, sx: f32, sy: f32) {
    let (b, d) = (bone.b / sx, bone.d / sy);
    let by = math::atan2(d, b);
    value = (value + 90.0) * DEG_RAD;
    if additive {
        value -= PI / 2.0;
    } else {
        value = wrap_pi(value - (by - math::atan2(bone.c / sy, bone.a / sx)));
    }
    value = by + value * mix;
    let s = math::sqrt(b * b + d * d);
    bone.b = math::cos(value) * s * sx;
    bone.d = math::sin(value) * s * sy;
}

fn clamp(v: f32, min: f32, max: f32) -> f32 {
    if v < min {
        min
    } else if v > max {
        max
    } else {
        v
    }
}

fn mapped(to: &ToProperty, value: f32, clamp_on: bool) -> f32 {
    let v = to.offset + value * to.scale;
    if !clamp_on {
        v
    } else if to.offset < to.max {
        clamp(v, to.offset, to.max)
    } else {
        clamp(v, to.max, to.offset)
    }
}

/// Solves one 4.3 transform constraint with mixes `m` (already known not to be all zero).
pub(super) fn update(ctx: &mut SolverCtx<'_>, data: &TransformData, m: [f32; 6]) {
    let frame = ctx.frame;
    let (sx, sy) = (frame.scale_x, frame.scale_y);
    for &id in &data.bones {
        let bones = &mut *ctx.bones;
        let Some(t) = bones.get(data.source.index()) else { return };
        let src = Source::of(t);
        let parent = parent_world(bones, id);
        let Some(bone) = bones.get_mut(id.index()) else { continue };
        for from in &data.properties {
            let value = from_value(from, &src, data.local_source, &data.offsets, sx, sy);
            for to in &from.to {
                let mix = mix_of(to.property, &m);
                if mix != 0.0 {
                    let v = mapped(to, value, data.clamp);
                    apply_to(to.property, mix, bone, v, data, sx, sy);
                }
            }
        }
        if data.local_target {
            bone.update_from_applied(parent, &frame);
        } else {
            bone.update_applied_transform(parent, &frame);
        }
    }
}

/// spine-ts 4.3 `TransformConstraint.update` on the 4.3 poses of
/// [`lazy43`](super::lazy43) (mixes `m`, not all zero): a local source is validated once;
/// then for each constrained bone, `modifyLocal` (local target) or `modifyWorld` (world
/// target), and each "from" value is read from the source *as it is then* (the source may
/// be the bone itself, or under it), mapped and applied. No world transform is recomputed
/// here (the update cache does it for local targets).
pub(crate) fn update43(poses: &mut super::lazy43::Poses<'_>, data: &TransformData, m: [f32; 6]) {
    let (sx, sy) = (poses.frame.scale_x, poses.frame.scale_y);
    if data.local_source {
        poses.validate_local(data.source);
    }
    for &id in &data.bones {
        if data.local_target {
            poses.modify_local(id);
        } else {
            poses.modify_world(id);
        }
        for from in &data.properties {
            let Some(t) = poses.bones.get(data.source.index()) else { return };
            let src = Source::of(t);
            let value = from_value(from, &src, data.local_source, &data.offsets, sx, sy);
            let Some(bone) = poses.bones.get_mut(id.index()) else { continue };
            for to in &from.to {
                let mix = mix_of(to.property, &m);
                if mix != 0.0 {
                    let v = mapped(to, value, data.clamp);
                    apply_to(to.property, mix, bone, v, data, sx, sy);
                }
            }
        }
    }
}
