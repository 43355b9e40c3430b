//! Path constraint solver (spine-cpp 4.2 `PathConstraint::update`,
//! `computeWorldPositions`, `addBeforePosition` / `addAfterPosition` /
//! `addCurvePosition`), float for float.
//!
//! Positions along the path: the stored curve lengths of the attachment, or (constant
//! speed) lengths measured on the current world vertices by forward differencing (4
//! steps per curve for the curve lengths, 10 per curve for the segments). Before the start
//! and after the end of an open path, positions continue on the tangent line.
//!
//! Files: this one, [`update`] (3.5–4.2 rules) and `update43`; `chain.rs`, the bone loop's
//! per-constraint values and turns; `positions.rs`, the path's world vertices and the
//! positions along it (`computeWorldPositions` and its helpers).

use spine_model::{
    AttachmentKind, BoneId, PathAttachment, PathData, PositionMode, RotateMode, SpacingMode,
    Vertices,
};

use super::{PathPose, SolverCtx};
use crate::math::{self, DEG_RAD, PI};
use crate::skeleton::{parent_world, Bone, Slot};

mod chain;
mod positions;
#[cfg(test)]
mod tests;

use chain::*;
use positions::*;

const EPSILON: f32 = 0.00001;
const NONE: i32 = -1;
const BEFORE: i32 = -2;
const AFTER: i32 = -3;

/// Buffers reused by the path solver between frames (no allocation after warm-up).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PathScratch {
    /// Spaces.
    pub spaces: Vec<f32>,
    /// Positions.
    pub positions: Vec<f32>,
    /// World vertices of the path.
    pub world: Vec<f32>,
    /// Curve lengths.
    pub curves: Vec<f32>,
    /// Bone lengths.
    pub lengths: Vec<f32>,
}

/// Solves one path constraint: places `data.bones` along the path attachment of
/// `data.slot` (`ctx.slots`, deform included).
pub fn update(ctx: &mut SolverCtx<'_>, data: &PathData, pose: &mut PathPose) {
    let Some(slot) = ctx.slots.get(data.slot.index()) else { return };
    let Some(att) = slot.attachment else { return };
    let Some(AttachmentKind::Path(path)) = ctx.data.attachments.get(att.index()).map(|a| &a.kind)
    else {
        return;
    };
    let (mix_rotate, mix_x, mix_y) = (pose.mix_rotate, pose.mix_x, pose.mix_y);
    if mix_rotate == 0.0 && mix_x == 0.0 && mix_y == 0.0 {
        return;
    }
    // spine-c 3.5/3.6: `if (!(translateMix > 0) && !(rotateMix > 0)) return;` (one
    // translate mix, so `mix_x == mix_y`): negative mixes do nothing.
    if ctx.data.behaviour.path_scales_every_spacing && !(mix_x > 0.0 || mix_rotate > 0.0) {
        return;
    }
    let tangents = data.rotate_mode == RotateMode::Tangent;
    let scale = data.rotate_mode == RotateMode::ChainScale;
    let bone_count = data.bones.len();
    let spaces_count = if tangents { bone_count } else { bone_count + 1 };
    let sc = &mut pose.scratch;
    // spine-cpp `Vector::setSize`: existing values are kept, new ones are 0.
    set_len(&mut sc.spaces, spaces_count);
    if scale {
        set_len(&mut sc.lengths, bone_count);
    }
    let spacing = pose.spacing;
    let bone_len = |i: usize| -> (f32, f32, f32) {
        let id = data.bones[i];
        let setup = ctx.data.bones.get(id.index()).map_or(0.0, |b| b.length);
        let (a, c) = ctx.bones.get(id.index()).map_or((0.0, 0.0), |b| (b.a, b.c));
        (setup, setup * a, setup * c)
    };
    let spine_c = ctx.data.behaviour.path_scales_every_spacing;
    let spine_c35 = spine_c && ctx.data.behaviour.path_unscaled_length_spacing;
    let length_spacing = data.spacing_mode == SpacingMode::Length;
    // Percent spacing uses the bone lengths only for the chain scale: with distinct bones
    // each length is computed in the bone loop, from the bone's matrix before it moves (the
    // same values: nothing else moves it before its turn).
    let percent_scale = scale && data.spacing_mode == SpacingMode::Percent;
    // The bone loop below pairs bones without the tip (see `place_pairs`).
    let tip_mode = data.offset_rotation == 0.0 && data.rotate_mode == RotateMode::Chain;
    let unique =
        !spine_c && (percent_scale || (!tip_mode && mix_rotate > 0.0)) && distinct(&data.bones);
    let lazy_lengths = percent_scale && unique;
    match data.spacing_mode {
        _ if spine_c35 => {
            // spine-c 3.5.51: world length + spacing (clamped at 0 as `MAX(0, x)`, which
            // keeps a NaN), plain spacing otherwise; no zero-length case.
            for i in 0..spaces_count - 1 {
                if scale || length_spacing {
                    let (_, x, y) = bone_len(i);
                    let length = math::sqrt(x * x + y * y);
                    if scale {
                        sc.lengths[i] = length;
                    }
                    sc.spaces[i + 1] = if !length_spacing {
                        spacing
                    } else if 0.0 > length + spacing {
                        0.0
                    } else {
                        length + spacing
                    };
                } else {
                    sc.spaces[i + 1] = spacing;
                }
            }
        }
        _ if spine_c => {
            if scale || length_spacing {
                for i in 0..spaces_count - 1 {
                    let (setup, x, y) = bone_len(i);
                    if setup < EPSILON {
                        if scale {
                            sc.lengths[i] = 0.0;
                        }
                        sc.spaces[i + 1] = 0.0;
                    } else {
                        let length = math::sqrt(x * x + y * y);
                        if scale {
                            sc.lengths[i] = length;
                        }
                        let s = if length_spacing { setup + spacing } else { spacing };
                        sc.spaces[i + 1] = s * length / setup;
                    }
                }
            } else {
                for s in sc.spaces.iter_mut().skip(1) {
                    *s = spacing;
                }
            }
        }
        SpacingMode::Percent => {
            if scale && !lazy_lengths {
                for i in 0..spaces_count - 1 {
                    let (_, x, y) = bone_len(i);
                    sc.lengths[i] = math::sqrt(x * x + y * y);
                }
            }
            for s in sc.spaces.iter_mut().skip(1) {
                *s = spacing;
            }
        }
        SpacingMode::Proportional => {
            let mut sum = 0.0f32;
            for i in 0..spaces_count - 1 {
                let (setup, x, y) = bone_len(i);
                if setup < EPSILON {
                    if scale {
                        sc.lengths[i] = 0.0;
                    }
                    sc.spaces[i + 1] = spacing;
                } else {
                    let length = math::sqrt(x * x + y * y);
                    if scale {
                        sc.lengths[i] = length;
                    }
                    sc.spaces[i + 1] = length;
                    sum += length;
                }
            }
            if sum > 0.0 {
                sum = spaces_count as f32 / sum * spacing;
                for s in sc.spaces.iter_mut().skip(1) {
                    *s *= sum;
                }
            }
        }
        SpacingMode::Length | SpacingMode::Fixed => {
            // Spaces `1..` (one per bone but the last with tangents), walked with the bones.
            let spaces = sc.spaces.get_mut(1..).unwrap_or_default();
            for (i, (space, &id)) in spaces.iter_mut().zip(&data.bones).enumerate() {
                let setup = ctx.data.bones.get(id.index()).map_or(0.0, |b| b.length);
                let (a, c) = ctx.bones.get(id.index()).map_or((0.0, 0.0), |b| (b.a, b.c));
                let (x, y) = (setup * a, setup * c);
                if setup < EPSILON {
                    if scale {
                        sc.lengths[i] = 0.0;
                    }
                    *space = spacing;
                } else {
                    let length = math::sqrt(x * x + y * y);
                    if scale {
                        sc.lengths[i] = length;
                    }
                    let s = if length_spacing { setup + spacing } else { spacing };
                    *space = s * length / setup;
                }
            }
        }
    }

    let slot_bone_id = slot.bone;
    let rule = match (spine_c, spine_c35) {
        (false, _) => CurveRule::Spine4,
        (true, false) => CurveRule::SpineC36,
        (true, true) => CurveRule::SpineC35,
    };
    compute_world_positions(
        path,
        slot,
        ctx.bones,
        data,
        pose.position,
        sc,
        spaces_count,
        tangents,
        rule,
    );
    let positions = &sc.positions;
    let (mut bone_x, mut bone_y) = (positions[0], positions[1]);
    let mut offset_rotation = data.offset_rotation;
    let tip;
    if offset_rotation == 0.0 {
        tip = data.rotate_mode == RotateMode::Chain;
    } else {
        tip = false;
        let p = ctx.bones.get(slot_bone_id.index());
        let det = p.map_or(1.0, |p| p.a * p.d - p.b * p.c);
        offset_rotation *= if det > 0.0 { DEG_RAD } else { -DEG_RAD };
    }
    // Without the tip (whose position feeds the next bone) two distinct bones are independent
    // until their final rotation: their two `sin_cos` run as one pair.
    if !tip && mix_rotate > 0.0 && unique && pairs_allowed() {
        let chain =
            Chain { mix_x, mix_y, mix_rotate, scale, tangents, lazy_lengths, offset_rotation };
        chain.place_pairs(ctx, &data.bones, sc, bone_x, bone_y);
        return;
    }
    // Bone `i` reads space `i + 1`: its position and (zero space) its rotation, or (tangents)
    // the rotation of space `i`, kept from the previous triple.
    let mut r_prev = positions.get(2).copied().unwrap_or(0.0);
    let triples = positions.get(3..).unwrap_or_default().chunks_exact(3);
    let chords = !spine_c && !tip && !tangents && mix_rotate == 1.0 && offset_rotation == 0.0;
    for (i, (&id, t)) in data.bones.iter().zip(triples).enumerate() {
        let (x, y, r_next) = (t[0], t[1], t[2]);
        let r_this = std::mem::replace(&mut r_prev, r_next);
        let parent = parent_world(ctx.bones, id);
        let Some(bone) = ctx.bones.get_mut(id.index()) else { continue };
        bone.world_x += (bone_x - bone.world_x) * mix_x;
        bone.world_y += (bone_y - bone.world_y) * mix_y;
        let (dx, dy) = (x - bone_x, y - bone_y);
        if scale {
            let length = if lazy_lengths {
                let setup = ctx.data.bones.get(id.index()).map_or(0.0, |b| b.length);
                let (x, y) = (setup * bone.a, setup * bone.c);
                math::sqrt(x * x + y * y)
            } else {
                sc.lengths[i]
            };
            if (spine_c && length != 0.0) || (!spine_c && length >= EPSILON) {
                let s = (math::sqrt(dx * dx + dy * dy) / length - 1.0) * mix_rotate + 1.0;
                bone.a *= s;
                bone.c *= s;
            }
        }
        bone_x = x;
        bone_y = y;
        if mix_rotate > 0.0 {
            let (a, b, c, d) = (bone.a, bone.b, bone.c, bone.d);
            // A full turn toward the chord (4.x rules, no offset): from the two directions,
            // as `Chain::place` does, so that both loops give the same bits.
            let chord = chords && sc.spaces[i + 1] >= EPSILON;
            let turn = if chord { chord_turn(dx, dy, a, c) } else { None };
            let (sin, cos) = if let Some(turn) = turn {
                turn.sin_cos()
            } else {
                let (mut r, bone_r) = if tangents {
                    (r_this, math::atan2(c, a))
                } else if (spine_c && sc.spaces[i + 1] == 0.0)
                    || (!spine_c && sc.spaces[i + 1] < EPSILON)
                {
                    (r_next, math::atan2(c, a))
                } else {
                    math::atan2_pair(dy, dx, c, a)
                };
                if spine_c {
                    r -= bone_r - offset_rotation * DEG_RAD;
                } else {
                    r -= bone_r;
                }
                if tip {
                    let (sin, cos) = math::sin_cos(r);
                    let length_setup = ctx.data.bones.get(id.index()).map_or(0.0, |b| b.length);
                    bone_x += (length_setup * (cos * a - sin * c) - dx) * mix_rotate;
                    bone_y += (length_setup * (sin * a + cos * c) - dy) * mix_rotate;
                    // Without a wrap and with `mix_rotate == 1` the final rotation is this `r`
                    // (`r * 1.0 == r`): its sine and cosine are reused.
                    if mix_rotate == 1.0 && (-PI..=PI).contains(&r) {
                        (sin, cos)
                    } else {
                        math::sin_cos(wrap_pi(r) * mix_rotate)
                    }
                } else {
                    math::sin_cos(wrap_pi(r + offset_rotation) * mix_rotate)
                }
            };
            bone.a = cos * a - sin * c;
            bone.b = cos * b - sin * d;
            bone.c = sin * a + cos * c;
            bone.d = sin * b + cos * d;
        }
        // spine-c 3.5/3.6 end with `bone->appliedValid = -1` (true): the applied pose is not
        // recomputed and keeps the values the bone was last posed with.
        if !spine_c {
            bone.update_applied_transform(parent, &ctx.frame);
        }
    }
}

/// spine-ts 4.3 `PathConstraint.update` on the 4.3 poses of [`lazy43`](super::lazy43):
/// the spaces from the constrained bones' current world transforms, the positions along the
/// path (4.3 rules: see [`CurveRule::SpineTs43`]), then each bone `modifyWorld`-ed and
/// moved, scaled (chain scale) and turned in world space. Length spacing is `max(0, setup
/// length + spacing)` scaled by world / setup length.
pub(crate) fn update43(
    poses: &mut super::lazy43::Poses<'_>,
    skeleton: &spine_model::SkeletonData,
    slots: &[Slot],
    data: &PathData,
    pose: &mut PathPose,
) {
    let Some(slot) = slots.get(data.slot.index()) else { return };
    let Some(att) = slot.attachment else { return };
    let Some(AttachmentKind::Path(path)) = skeleton.attachments.get(att.index()).map(|a| &a.kind)
    else {
        return;
    };
    let (mix_rotate, mix_x, mix_y) = (pose.mix_rotate, pose.mix_x, pose.mix_y);
    if mix_rotate == 0.0 && mix_x == 0.0 && mix_y == 0.0 {
        return;
    }
    let tangents = data.rotate_mode == RotateMode::Tangent;
    let scale = data.rotate_mode == RotateMode::ChainScale;
    let bone_count = data.bones.len();
    let spaces_count = if tangents { bone_count } else { bone_count + 1 };
    let sc = &mut pose.scratch;
    set_len(&mut sc.spaces, spaces_count);
    if scale {
        set_len(&mut sc.lengths, bone_count);
    }
    let spacing = pose.spacing;
    let bones = &*poses.bones;
    // Setup length and the world x axis scaled by it, of constrained bone `i`.
    let bone_len = |i: usize| -> (f32, f32, f32) {
        let id = data.bones[i];
        let setup = skeleton.bones.get(id.index()).map_or(0.0, |b| b.length);
        let (a, c) = bones.get(id.index()).map_or((0.0, 0.0), |b| (b.a, b.c));
        (setup, setup * a, setup * c)
    };
    match data.spacing_mode {
        SpacingMode::Percent => {
            if scale {
                for i in 0..spaces_count - 1 {
                    let (_, x, y) = bone_len(i);
                    sc.lengths[i] = math::sqrt(x * x + y * y);
                }
            }
            for s in sc.spaces.iter_mut().skip(1) {
                *s = spacing;
            }
        }
        SpacingMode::Proportional => {
            let mut sum = 0.0f32;
            for i in 0..spaces_count - 1 {
                let (setup, x, y) = bone_len(i);
                if setup < EPSILON {
                    if scale {
                        sc.lengths[i] = 0.0;
                    }
                    sc.spaces[i + 1] = spacing;
                } else {
                    let length = math::sqrt(x * x + y * y);
                    if scale {
                        sc.lengths[i] = length;
                    }
                    sc.spaces[i + 1] = length;
                    sum += length;
                }
            }
            if sum > 0.0 {
                sum = spaces_count as f32 / sum * spacing;
                for s in sc.spaces.iter_mut().skip(1) {
                    *s *= sum;
                }
            }
        }
        SpacingMode::Length | SpacingMode::Fixed => {
            let length_spacing = data.spacing_mode == SpacingMode::Length;
            for i in 0..spaces_count - 1 {
                let (setup, x, y) = bone_len(i);
                if setup < EPSILON {
                    if scale {
                        sc.lengths[i] = 0.0;
                    }
                    sc.spaces[i + 1] = spacing;
                } else {
                    let length = math::sqrt(x * x + y * y);
                    if scale {
                        sc.lengths[i] = length;
                    }
                    let s = if length_spacing { (setup + spacing).max(0.0) } else { spacing };
                    sc.spaces[i + 1] = s * length / setup;
                }
            }
        }
    }
    compute_world_positions(
        path,
        slot,
        bones,
        data,
        pose.position,
        sc,
        spaces_count,
        tangents,
        CurveRule::SpineTs43,
    );
    let positions = &sc.positions;
    let (mut bone_x, mut bone_y) = (positions[0], positions[1]);
    let mut offset_rotation = data.offset_rotation;
    let tip;
    if offset_rotation == 0.0 {
        tip = data.rotate_mode == RotateMode::Chain;
    } else {
        tip = false;
        let p = bones.get(slot.bone.index());
        let det = p.map_or(1.0, |p| p.a * p.d - p.b * p.c);
        offset_rotation *= if det > 0.0 { DEG_RAD } else { -DEG_RAD };
    }
    for (i, &id) in data.bones.iter().enumerate() {
        let ip = 3 * (i + 1);
        poses.modify_world(id);
        let Some(bone) = poses.bones.get_mut(id.index()) else { continue };
        bone.world_x += (bone_x - bone.world_x) * mix_x;
        bone.world_y += (bone_y - bone.world_y) * mix_y;
        let (x, y) = (positions[ip], positions[ip + 1]);
        let (dx, dy) = (x - bone_x, y - bone_y);
        if scale {
            let length = sc.lengths[i];
            if length != 0.0 {
                let s = (math::sqrt(dx * dx + dy * dy) / length - 1.0) * mix_rotate + 1.0;
                bone.a *= s;
                bone.c *= s;
            }
        }
        bone_x = x;
        bone_y = y;
        if mix_rotate > 0.0 {
            let (a, b, c, d) = (bone.a, bone.b, bone.c, bone.d);
            let mut r = if tangents {
                positions[ip - 1]
            } else if sc.spaces[i + 1] == 0.0 {
                positions[ip + 2]
            } else {
                math::atan2(dy, dx)
            };
            r -= math::atan2(c, a);
            if tip {
                let (sin, cos) = math::sin_cos(r);
                let length = skeleton.bones.get(id.index()).map_or(0.0, |b| b.length);
                bone_x += (length * (cos * a - sin * c) - dx) * mix_rotate;
                bone_y += (length * (sin * a + cos * c) - dy) * mix_rotate;
            } else {
                r += offset_rotation;
            }
            let (sin, cos) = math::sin_cos(wrap_pi(r) * mix_rotate);
            bone.a = cos * a - sin * c;
            bone.b = cos * b - sin * d;
            bone.c = sin * a + cos * c;
            bone.d = sin * b + cos * d;
        }
    }
}
