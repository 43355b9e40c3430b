//! Transform constraint solver: spine-cpp 4.2 `TransformConstraint::update`
//! ([`TransformSolver::Legacy4x`]), spine-cpp 3.8 ([`TransformSolver::Legacy3x`]) and the 4.3
//! from/to property model ([`TransformSolver::FromTo`]).
//!
//! The 4.2 maths is reproduced with its quirks: the absolute-local variant turns the
//! scales into ratios (`(s + (t - s + offset) * mix) / s`) and writes its shear-y delta to
//! the bone's *local* shear y (the applied shear y is used unchanged).

use spine_model::{transform_slot as ts, BoneId, TransformData, TransformSolver};

use super::{SolverCtx, TransformPose};
use crate::math::{self, DEG_RAD, PI};
use crate::skeleton::{parent_world, AppliedPose, Bone, ParentWorld};

const PI_2: f32 = PI * 2.0;

/// Solves one transform constraint on `ctx.bones` from `data.source` with `pose.mixes`
/// (honouring [`TransformData::solver`]).
#[inline]
pub fn update(ctx: &mut SolverCtx<'_>, data: &TransformData, pose: &mut TransformPose) {
    // The solvers read the mixes in place: a copy stored here would be read back at other
    // widths than it was stored with (a store-forwarding stall).
    let m = &pose.mixes;
    if m.iter().all(|&v| v == 0.0) {
        return;
    }
    if data.solver == TransformSolver::FromTo {
        super::transform43::update(ctx, data, *m);
        return;
    }
    let legacy3 = data.solver == TransformSolver::Legacy3x;
    match (data.local_target, data.additive) {
        (true, true) => relative_local(ctx, data, m, legacy3),
        (true, false) => absolute_local(ctx, data, m, legacy3),
        (false, true) => world(ctx, data, m, legacy3, true),
        (false, false) => world(ctx, data, m, legacy3, false),
    }
}

/// Copy of the source bone's world matrix.
fn target_matrix(bones: &[Bone], id: BoneId) -> Option<(f32, f32, f32, f32)> {
    bones.get(id.index()).map(|t| (t.a, t.b, t.c, t.d))
}

fn wrap_pi(mut r: f32) -> f32 {
    if r > PI {
        r -= PI_2;
    } else if r < -PI {
        r += PI_2;
    }
    r
}

/// `applyAbsoluteWorld` / `applyRelativeWorld`.
fn world(ctx: &mut SolverCtx<'_>, data: &TransformData, m: &[f32; 6], legacy3: bool, rel: bool) {
    let (mix_rotate, mix_scale_x, mix_scale_y) = (m[ts::ROTATE], m[ts::SCALE_X], m[ts::SCALE_Y]);
    // 4.2 scales when the mix is != 0 (relative) / > 0 (absolute); 3.8 when > 0.
    let scale_x_on = if rel && !legacy3 { mix_scale_x != 0.0 } else { mix_scale_x > 0.0 };
    let scale_y_on = if rel && !legacy3 { mix_scale_y != 0.0 } else { mix_scale_y > 0.0 };
    let shear_on = m[ts::SHEAR_Y] > 0.0;
    if !scale_x_on && !scale_y_on && !shear_on {
        rotate_translate(ctx, data, m, rel);
        return;
    }
    let bones = &mut *ctx.bones;
    let Some((ta, tb, tc, td)) = target_matrix(bones, data.source) else { return };
    let o = &data.offsets;
    let (mix_x, mix_y, mix_shear_y) = (m[ts::X], m[ts::Y], m[ts::SHEAR_Y]);
    let translate = mix_x != 0.0 || mix_y != 0.0;
    let deg_rad_reflect = if ta * td - tb * tc > 0.0 { DEG_RAD } else { -DEG_RAD };
    let offset_rotation = o[ts::ROTATE] * deg_rad_reflect;
    let offset_shear_y = o[ts::SHEAR_Y] * deg_rad_reflect;
    // The source's angles are the same for every bone (its matrix was copied above). An
    // absolute rotation computes the source's angle beside the first bone's (`first_r`,
    // taken by that bone: nothing moves it before its rotation is read).
    let mut first_r = None;
    let t_rot = if mix_rotate != 0.0 {
        source_rotation(bones, data, rel, tc, ta, &mut first_r)
    } else if mix_shear_y > 0.0 {
        math::atan2(tc, ta)
    } else {
        0.0
    };
    let t_shear = if mix_shear_y > 0.0 { math::atan2(td, tb) - t_rot } else { 0.0 };
    let rt = RotateTranslate {
        mix_rotate,
        rel,
        t_rot,
        offset_rotation,
        toward: None,
        translate,
        mix_x,
        mix_y,
    };
    for &id in &data.bones {
        let Some((parent, mut w)) = rt.rotated(bones, data, id, &mut first_r) else { continue };
        let [a, b, c, d, ..] = &mut w;
        if scale_x_on {
            let s = axis_scale(rel, legacy3, (*a, *c), (ta, tc), o[ts::SCALE_X], mix_scale_x);
            *a *= s;
            *c *= s;
        }
        if scale_y_on {
            let s = axis_scale(rel, legacy3, (*b, *d), (tb, td), o[ts::SCALE_Y], mix_scale_y);
            *b *= s;
            *d *= s;
        }
        if mix_shear_y > 0.0 {
            let (bb, dd) = (*b, *d);
            let r = if rel {
                let r = wrap_pi(t_shear);
                math::atan2(dd, bb) + (r - PI / 2.0 + offset_shear_y) * mix_shear_y
            } else {
                let (by, bx) = math::atan2_pair(dd, bb, *c, *a);
                let r = t_shear - (by - bx);
                by + (wrap_pi(r) + offset_shear_y) * mix_shear_y
            };
            let s = math::sqrt(bb * bb + dd * dd);
            let (sin, cos) = math::sin_cos(r);
            *b = cos * s;
            *d = sin * s;
        }
        if let Some(bone) = bones.get_mut(id.index()) {
            bone.set_world_update_applied(w, parent, &ctx.frame);
        }
    }
}

/// The factor a world-space scale mix multiplies one axis of a bone's matrix by: `(u, v)` is
/// the bone's column, `(tu, tv)` the source's (spine-cpp's `applyRelativeWorld` /
/// `applyAbsoluteWorld` scale steps, with the 3.8 threshold when `legacy3`).
#[inline(always)]
fn axis_scale(
    rel: bool,
    legacy3: bool,
    (u, v): (f32, f32),
    (tu, tv): (f32, f32),
    offset: f32,
    mix: f32,
) -> f32 {
    if rel {
        return (math::sqrt(tu * tu + tv * tv) - 1.0 + offset) * mix + 1.0;
    }
    let mut s = math::sqrt(u * u + v * v);
    let ok = if legacy3 { s > 0.00001 } else { s != 0.0 };
    if ok {
        s = (s + (math::sqrt(tu * tu + tv * tv) - s + offset) * mix) / s;
    }
    s
}

/// [`world`] without scale and shear mixes (rotation and translation only): the same
/// operations for what remains (rotation, world position, applied transform), without the
/// source's scales and shear angle the other mixes need.
fn rotate_translate(ctx: &mut SolverCtx<'_>, data: &TransformData, m: &[f32; 6], rel: bool) {
    let bones = &mut *ctx.bones;
    let Some((ta, tb, tc, td)) = target_matrix(bones, data.source) else { return };
    let o = &data.offsets;
    let (mix_rotate, mix_x, mix_y) = (m[ts::ROTATE], m[ts::X], m[ts::Y]);
    let translate = mix_x != 0.0 || mix_y != 0.0;
    if mix_rotate == 0.0 {
        // Translation alone, apart: with the rotation's code in the same loop, its source
        // angle (an `atan2`) was computed ahead of the loop whether a bone turned or not.
        translate_world(ctx, data, (mix_x, mix_y), rel);
        return;
    }
    let mut first_r = None;
    let (mut t_rot, mut offset_rotation, mut toward) = (0.0, 0.0, None);
    if mix_rotate != 0.0 {
        let deg_rad_reflect = if ta * td - tb * tc > 0.0 { DEG_RAD } else { -DEG_RAD };
        offset_rotation = o[ts::ROTATE] * deg_rad_reflect;
        if !rel && mix_rotate == 1.0 {
            // A full absolute turn: from the two directions (see `RotateTranslate::toward`).
            let (sin, cos) = math::sin_cos(offset_rotation);
            toward = Some([ta, tc, sin, cos]);
        } else {
            // As in `world`: an absolute rotation computes the source's angle beside the
            // first bone's.
            t_rot = source_rotation(bones, data, rel, tc, ta, &mut first_r);
        }
    }
    let rt = RotateTranslate {
        mix_rotate,
        rel,
        t_rot,
        offset_rotation,
        toward,
        translate,
        mix_x,
        mix_y,
    };
    for &id in &data.bones {
        let Some((parent, w)) = rt.rotated(bones, data, id, &mut first_r) else { continue };
        if let Some(bone) = bones.get_mut(id.index()) {
            bone.set_world_update_applied(w, parent, &ctx.frame);
        }
    }
}

/// [`rotate_translate`] without a rotate mix: each bone's world position moved toward (or,
/// `rel`, by) the source's offset point, its matrix kept.
fn translate_world(ctx: &mut SolverCtx<'_>, data: &TransformData, mix: (f32, f32), rel: bool) {
    let bones = &mut *ctx.bones;
    if bones.get(data.source.index()).is_none() {
        return;
    }
    let o = &data.offsets;
    let (mix_x, mix_y) = mix;
    let translate = mix_x != 0.0 || mix_y != 0.0;
    for &id in &data.bones {
        // Per bone, as spine-cpp: a constrained bone may be the source.
        let (tx, ty) = match bones.get(data.source.index()) {
            Some(t) if translate => t.local_to_world(o[ts::X], o[ts::Y]),
            _ => (0.0, 0.0),
        };
        let parent = parent_world(bones, id);
        let Some(bone) = bones.get_mut(id.index()) else { continue };
        let (mut world_x, mut world_y) = (bone.world_x, bone.world_y);
        if translate {
            if rel {
                world_x += tx * mix_x;
                world_y += ty * mix_y;
            } else {
                world_x += (tx - world_x) * mix_x;
                world_y += (ty - world_y) * mix_y;
            }
        }
        let w = [bone.a, bone.b, bone.c, bone.d, world_x, world_y];
        bone.set_world_update_applied(w, parent, &ctx.frame);
    }
}

/// The source's rotation (radians, `atan2(tc, ta)`) for a rotate mix. An absolute rotation
/// computes it beside the first bone's angle, left in `first_r` for that bone.
#[inline(always)]
fn source_rotation(
    bones: &[Bone],
    data: &TransformData,
    rel: bool,
    tc: f32,
    ta: f32,
    first_r: &mut Option<f32>,
) -> f32 {
    match data.bones.first().and_then(|id| bones.get(id.index())) {
        Some(b) if !rel => {
            let (t, r) = math::atan2_pair(tc, ta, b.c, b.a);
            *first_r = Some(r);
            t
        }
        _ => math::atan2(tc, ta),
    }
}

/// The rotation and translation mixes of a world-space constraint on one bone: the part
/// [`world`] and [`rotate_translate`] share (spine-cpp's `applyAbsoluteWorld` /
/// `applyRelativeWorld` rotate and translate steps).
#[derive(Clone, Copy)]
struct RotateTranslate {
    mix_rotate: f32,
    rel: bool,
    t_rot: f32,
    offset_rotation: f32,
    /// A full absolute turn (`mix_rotate == 1`) toward the source's x axis `(ta, tc)` and by
    /// the offset (its sine and cosine): `[ta, tc, sin, cos]`. The bone turns by
    /// [`math::turn_between`] its axis and the source's, then by the offset, instead of by
    /// the sine and cosine of the difference of their `atan2`s (the same turn within
    /// rounding; `t_rot` is then not computed).
    toward: Option<[f32; 4]>,
    translate: bool,
    mix_x: f32,
    mix_y: f32,
}

impl RotateTranslate {
    /// Bone `id`'s world transform (`a, b, c, d, world_x, world_y`) after the rotate and
    /// translate mixes toward `data.source`, and its parent's world (`None` when `id` is out
    /// of range): the per-bone start that [`world`] and [`rotate_translate`] share.
    #[inline(always)]
    fn rotated(
        &self,
        bones: &[Bone],
        data: &TransformData,
        id: BoneId,
        first_r: &mut Option<f32>,
    ) -> Option<(Option<ParentWorld>, [f32; 6])> {
        let o = &data.offsets;
        let (tx, ty) = match bones.get(data.source.index()) {
            Some(t) if self.translate => t.local_to_world(o[ts::X], o[ts::Y]),
            _ => (0.0, 0.0),
        };
        let parent = parent_world(bones, id);
        let bone = bones.get(id.index())?;
        let mut w = [bone.a, bone.b, bone.c, bone.d, bone.world_x, bone.world_y];
        self.apply(&mut w, first_r, tx, ty);
        Some((parent, w))
    }

    /// Rotates a bone's world matrix and moves its world position (`w`: `a, b, c, d,
    /// world_x, world_y`); an absolute rotation takes the first bone's angle from `first_r`
    /// when it was computed beside the source's.
    #[inline(always)]
    fn apply(&self, w: &mut [f32; 6], first_r: &mut Option<f32>, tx: f32, ty: f32) {
        let Self { mix_rotate, rel, t_rot, offset_rotation, toward, translate, mix_x, mix_y } =
            *self;
        let [wa, wb, wc, wd, world_x, world_y] = w;
        if mix_rotate != 0.0 {
            let (a, b, c, d) = (*wa, *wb, *wc, *wd);
            let turn = toward.and_then(|[ta, tc, so, co]| {
                let (s0, c0) = math::turn_between(ta, tc, a, c)?;
                Some((s0 * co + c0 * so, c0 * co - s0 * so))
            });
            let (sin, cos) = if let Some(turn) = turn {
                turn
            } else {
                // Without `toward`'s turn (or where a direction is undefined) the angles.
                let t_rot = match toward {
                    Some([ta, tc, ..]) => math::atan2(tc, ta),
                    None => t_rot,
                };
                let mut r = if rel {
                    t_rot + offset_rotation
                } else {
                    let bone_r = match first_r.take() {
                        Some(r) => r,
                        None => math::atan2(c, a),
                    };
                    t_rot - bone_r + offset_rotation
                };
                r = wrap_pi(r) * mix_rotate;
                math::sin_cos(r)
            };
            *wa = cos * a - sin * c;
            *wb = cos * b - sin * d;
            *wc = sin * a + cos * c;
            *wd = sin * b + cos * d;
        }
        if translate {
            if rel {
                *world_x += tx * mix_x;
                *world_y += ty * mix_y;
            } else {
                *world_x += (tx - *world_x) * mix_x;
                *world_y += (ty - *world_y) * mix_y;
            }
        }
    }
}

/// 4.2: `r -= ceil(r / 360 - 0.5) * 360`; 3.8: `r -= (16384 - (int)(16384.499999999996 -
/// r / 360)) * 360`.
fn wrap_deg(r: f32, legacy3: bool) -> f32 {
    if legacy3 {
        let k = 16384 - (16384.499999999996f64 - f64::from(r / 360.0)) as i32;
        r - (k * 360) as f32
    } else {
        r - ((f64::from(r / 360.0) - 0.5) as f32).ceil() * 360.0
    }
}

/// `applyAbsoluteLocal`.
fn absolute_local(ctx: &mut SolverCtx<'_>, data: &TransformData, m: &[f32; 6], legacy3: bool) {
    let o = &data.offsets;
    for &id in &data.bones {
        let bones = &mut *ctx.bones;
        let Some(t) = bones.get(data.source.index()) else { return };
        let tp = t.applied();
        let (t_rot, t_x, t_y, t_sx, t_sy, t_shy) =
            (tp.rotation, tp.x, tp.y, tp.scale_x, tp.scale_y, tp.shear_y);
        let parent = parent_world(bones, id);
        let Some(bone) = bones.get_mut(id.index()) else { continue };
        let ap = bone.applied();
        let mut rotation = ap.rotation;
        if m[ts::ROTATE] != 0.0 {
            let r = wrap_deg(t_rot - rotation + o[ts::ROTATE], legacy3);
            rotation += r * m[ts::ROTATE];
        }
        let (mut x, mut y) = (ap.x, ap.y);
        if !legacy3 || m[ts::X] != 0.0 || m[ts::Y] != 0.0 {
            x += (t_x - x + o[ts::X]) * m[ts::X];
            y += (t_y - y + o[ts::Y]) * m[ts::Y];
        }
        let (mut scale_x, mut scale_y) = (ap.scale_x, ap.scale_y);
        let (ok_x, ok_y) = if legacy3 {
            (m[ts::SCALE_X] != 0.0 && scale_x > 0.00001, m[ts::SCALE_Y] != 0.0 && scale_y > 0.00001)
        } else {
            (m[ts::SCALE_X] != 0.0 && scale_x != 0.0, m[ts::SCALE_Y] != 0.0 && scale_y != 0.0)
        };
        if ok_x {
            scale_x = (scale_x + (t_sx - scale_x + o[ts::SCALE_X]) * m[ts::SCALE_X]) / scale_x;
        }
        if ok_y {
            scale_y = (scale_y + (t_sy - scale_y + o[ts::SCALE_Y]) * m[ts::SCALE_Y]) / scale_y;
        }
        let shear_y = ap.shear_y;
        if m[ts::SHEAR_Y] != 0.0 {
            let r = wrap_deg(t_shy - shear_y + o[ts::SHEAR_Y], legacy3);
            bone.shear_y += r * m[ts::SHEAR_Y];
        }
        let shear_x = ap.shear_x;
        bone.update_world_transform_with(
            parent,
            &ctx.frame,
            AppliedPose { x, y, rotation, scale_x, scale_y, shear_x, shear_y },
        );
    }
}

/// `applyRelativeLocal`.
fn relative_local(ctx: &mut SolverCtx<'_>, data: &TransformData, m: &[f32; 6], legacy3: bool) {
    let o = &data.offsets;
    for &id in &data.bones {
        let bones = &mut *ctx.bones;
        let Some(t) = bones.get(data.source.index()) else { return };
        let tp = t.applied();
        let (t_rot, t_x, t_y, t_sx, t_sy, t_shy) =
            (tp.rotation, tp.x, tp.y, tp.scale_x, tp.scale_y, tp.shear_y);
        let parent = parent_world(bones, id);
        let Some(bone) = bones.get_mut(id.index()) else { continue };
        let ap = bone.applied();
        let (rotation, x, y, scale_x, scale_y, shear_y);
        if legacy3 {
            let mut r = ap.rotation;
            if m[ts::ROTATE] != 0.0 {
                r += (t_rot + o[ts::ROTATE]) * m[ts::ROTATE];
            }
            rotation = r;
            let (mut px, mut py) = (ap.x, ap.y);
            if m[ts::X] != 0.0 || m[ts::Y] != 0.0 {
                px += (t_x + o[ts::X]) * m[ts::X];
                py += (t_y + o[ts::Y]) * m[ts::Y];
            }
            (x, y) = (px, py);
            let (mut sx, mut sy) = (ap.scale_x, ap.scale_y);
            if m[ts::SCALE_X] != 0.0 && sx > 0.00001 {
                sx *= ((t_sx - 1.0 + o[ts::SCALE_X]) * m[ts::SCALE_X]) + 1.0;
            }
            if m[ts::SCALE_Y] != 0.0 && sy > 0.00001 {
                sy *= ((t_sy - 1.0 + o[ts::SCALE_Y]) * m[ts::SCALE_Y]) + 1.0;
            }
            (scale_x, scale_y) = (sx, sy);
            let mut shy = ap.shear_y;
            if m[ts::SHEAR_Y] != 0.0 {
                shy += (t_shy + o[ts::SHEAR_Y]) * m[ts::SHEAR_Y];
            }
            shear_y = shy;
        } else {
            rotation = ap.rotation + (t_rot + o[ts::ROTATE]) * m[ts::ROTATE];
            x = ap.x + (t_x + o[ts::X]) * m[ts::X];
            y = ap.y + (t_y + o[ts::Y]) * m[ts::Y];
            scale_x = ap.scale_x * (((t_sx - 1.0 + o[ts::SCALE_X]) * m[ts::SCALE_X]) + 1.0);
            scale_y = ap.scale_y * (((t_sy - 1.0 + o[ts::SCALE_Y]) * m[ts::SCALE_Y]) + 1.0);
            shear_y = ap.shear_y + (t_shy + o[ts::SHEAR_Y]) * m[ts::SHEAR_Y];
        }
        let shear_x = ap.shear_x;
        bone.update_world_transform_with(
            parent,
            &ctx.frame,
            AppliedPose { x, y, rotation, scale_x, scale_y, shear_x, shear_y },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full absolute turn toward the source by its direction and the offset's sine and
    /// cosine (`toward`) is the angle path's turn within rounding: random bone and source
    /// matrices of every orientation, offsets of either sign past a half turn.
    #[test]
    fn toward_matches_the_angles() {
        let mut rng = crate::test_rng::Rng(0x5851_f42d_4c95_7f2d);
        let mut worst = 0.0f32;
        for _ in 0..20_000 {
            let w: [f32; 6] = std::array::from_fn(|_| rng.range(-2.0, 2.0));
            let (ta, tc) = (rng.range(-2.0, 2.0), rng.range(-2.0, 2.0));
            let offset_rotation = rng.range(-200.0, 200.0) * DEG_RAD;
            let angles = RotateTranslate {
                mix_rotate: 1.0,
                rel: false,
                t_rot: math::atan2(tc, ta),
                offset_rotation,
                toward: None,
                translate: false,
                mix_x: 0.0,
                mix_y: 0.0,
            };
            let (sin, cos) = math::sin_cos(offset_rotation);
            let directions = RotateTranslate { toward: Some([ta, tc, sin, cos]), ..angles };
            let (mut a, mut b) = (w, w);
            angles.apply(&mut a, &mut None, 0.0, 0.0);
            directions.apply(&mut b, &mut None, 0.0, 0.0);
            for (x, y) in a.iter().zip(&b) {
                worst = worst.max((x - y).abs());
            }
        }
        assert!(worst > 0.0, "the two paths gave the same bits");
        assert!(worst < 4e-6, "worst difference {worst:e}");
    }
}
