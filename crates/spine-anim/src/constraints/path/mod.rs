//! Path constraint solver (spine-cpp 4.2 `PathConstraint::update`,
//! `computeWorldPositions`, `addBeforePosition` / `addAfterPosition` /
//! `addCurvePosition`), float for float.
//!
//! Positions along the path: the stored curve lengths of the attachment, or (constant
//! speed) lengths measured on the current world vertices by forward differencing (4
//! steps per curve for the curve lengths, 10 per curve for the segments). Before the start
//! and after the end of an open path, positions continue on the tangent line.
//!
//! Files: this one, [`update`] (3.5–4.2 rules) and `update43`; `spacing.rs`, the spaces
//! between the bones' positions; `chain.rs`, the bone loops and the turns; `positions.rs`, the path's world vertices and the
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
mod spacing;
#[cfg(test)]
mod tests;

use chain::*;
use positions::*;
use spacing::Spacing;

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
    let spine_c = ctx.data.behaviour.path_scales_every_spacing;
    let spine_c35 = spine_c && ctx.data.behaviour.path_unscaled_length_spacing;
    // Percent spacing uses the bone lengths only for the chain scale: with distinct bones
    // each length is computed in the bone loop (see `Spacing::percent`).
    let percent_scale = scale && data.spacing_mode == SpacingMode::Percent;
    // The bone loop pairs bones without the tip (see `Chain::place_pairs`).
    let tip_mode = data.offset_rotation == 0.0 && data.rotate_mode == RotateMode::Chain;
    let unique =
        !spine_c && (percent_scale || (!tip_mode && mix_rotate > 0.0)) && distinct(&data.bones);
    let lazy_lengths = percent_scale && unique;
    let spacing = Spacing {
        spacing: pose.spacing,
        count: spaces_count,
        scale,
        lazy_lengths,
        spine_c,
        spine_c35,
        clamp_length: false,
    };
    spacing.fill(ctx.data, ctx.bones, data, sc);

    let slot_bone_id = slot.bone;
    let rule = match (spine_c, spine_c35) {
        (false, _) => CurveRule::Spine4,
        (true, false) => CurveRule::SpineC36,
        (true, true) => CurveRule::SpineC35,
    };
    let walk = PathWalk { path, slot, bones: ctx.bones, data, spaces_count, tangents, rule };
    compute_world_positions(&walk, pose.position, sc);
    let (bone_x, bone_y) = (sc.positions[0], sc.positions[1]);
    let (offset_rotation, tip) = offset_and_tip(data, ctx.bones.get(slot_bone_id.index()));
    let chain = Chain {
        mix_x,
        mix_y,
        mix_rotate,
        scale,
        tangents,
        lazy_lengths,
        offset_rotation,
        tip,
        spine_c,
    };
    // Without the tip (whose position feeds the next bone) two distinct bones are independent
    // until their final rotation: their two `sin_cos` run as one pair.
    if !tip && mix_rotate > 0.0 && unique && pairs_allowed() {
        chain.place_pairs(ctx, &data.bones, sc, bone_x, bone_y);
    } else {
        chain.place_each(ctx, &data.bones, sc, bone_x, bone_y);
    }
}

/// The offset rotation in radians, mirrored when the slot's bone (`slot_bone`) flips, and
/// whether the bones chain tip to tip (chain rotate mode without an offset).
fn offset_and_tip(data: &PathData, slot_bone: Option<&Bone>) -> (f32, bool) {
    if data.offset_rotation == 0.0 {
        return (data.offset_rotation, data.rotate_mode == RotateMode::Chain);
    }
    let det = slot_bone.map_or(1.0, |p| p.a * p.d - p.b * p.c);
    (data.offset_rotation * if det > 0.0 { DEG_RAD } else { -DEG_RAD }, false)
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
    let bones = &*poses.bones;
    let spacing = Spacing {
        spacing: pose.spacing,
        count: spaces_count,
        scale,
        lazy_lengths: false,
        spine_c: false,
        spine_c35: false,
        clamp_length: true,
    };
    spacing.fill(skeleton, bones, data, sc);
    let rule = CurveRule::SpineTs43;
    let walk = PathWalk { path, slot, bones, data, spaces_count, tangents, rule };
    compute_world_positions(&walk, pose.position, sc);
    let positions = &sc.positions;
    let (bone_x, bone_y) = (positions[0], positions[1]);
    let (offset_rotation, tip) = offset_and_tip(data, bones.get(slot.bone.index()));
    let chain = Chain {
        mix_x,
        mix_y,
        mix_rotate,
        scale,
        tangents,
        lazy_lengths: false,
        offset_rotation,
        tip,
        spine_c: false,
    };
    chain.place43(poses, skeleton, &data.bones, sc, (bone_x, bone_y));
}
