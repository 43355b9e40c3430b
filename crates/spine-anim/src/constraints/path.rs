//! Path constraint solver (spine-cpp 4.2 `PathConstraint::update`,
//! `computeWorldPositions`, `addBeforePosition` / `addAfterPosition` /
//! `addCurvePosition`), float for float.
//!
//! Positions along the path: the stored curve lengths of the attachment, or (constant
//! speed) lengths measured on the current world vertices by forward differencing (4
//! steps per curve for the curve lengths, 10 per curve for the segments). Before the start
//! and after the end of an open path, positions continue on the tangent line.

use spine_model::{
    AttachmentKind, BoneId, PathAttachment, PathData, PositionMode, RotateMode, SpacingMode,
    Vertices,
};

use super::{PathPose, SolverCtx};
use crate::math::{self, DEG_RAD, PI};
use crate::skeleton::{parent_world, Bone, Slot};

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

/// The per-constraint values of the bone loop without the tip (spine-cpp 4.x rules,
/// `mix_rotate > 0`, distinct bones).
struct Chain {
    mix_x: f32,
    mix_y: f32,
    mix_rotate: f32,
    scale: bool,
    tangents: bool,
    lazy_lengths: bool,
    offset_rotation: f32,
}

impl Chain {
    /// The bone loop of `update` two bones at a time: each bone's operations and the order of
    /// its writes are those of the one-bone loop; only the two final `sin_cos` share one
    /// [`math::sin_cos_pair`]. Parents are read as that loop reads them: before either bone
    /// moves, except the second bone's parent when it is the first bone (after that is done).
    #[inline(never)]
    fn place_pairs(
        &self,
        ctx: &mut SolverCtx<'_>,
        ids: &[BoneId],
        sc: &PathScratch,
        mut bone_x: f32,
        mut bone_y: f32,
    ) {
        let positions = &sc.positions;
        let mut r_prev = positions.get(2).copied().unwrap_or(0.0);
        let triples = positions.get(3..).unwrap_or_default().as_chunks::<3>().0;
        let n = ids.len().min(triples.len());
        let (ids, triples) = (&ids[..n], &triples[..n]);
        let mut i = 0;
        while i + 1 < n {
            let (id, id1) = (ids[i], ids[i + 1]);
            let (t0, t1) = (triples[i], triples[i + 1]);
            let parent = parent_world(ctx.bones, id);
            let after_first = ctx.bones.get(id1.index()).and_then(|b| b.parent) == Some(id);
            let parent1 = if after_first { None } else { parent_world(ctx.bones, id1) };
            let Ok([b0, b1]) = ctx.bones.get_disjoint_mut([id.index(), id1.index()]) else {
                break;
            };
            let r_this1 = t0[2];
            let r_this0 = std::mem::replace(&mut r_prev, t1[2]);
            let w0 = self.place(ctx.data, sc, i, b0, id, [bone_x, bone_y], t0, r_this0);
            let w1 = self.place(ctx.data, sc, i + 1, b1, id1, [t0[0], t0[1]], t1, r_this1);
            (bone_x, bone_y) = (t1[0], t1[1]);
            let ((sin0, cos0), (sin1, cos1)) = match (w0.0, w1.0) {
                (Turn::Angle(r0), Turn::Angle(r1)) => math::sin_cos_pair(r0, r1),
                (t0, t1) => (t0.sin_cos(), t1.sin_cos()),
            };
            rotate(b0, w0.1, sin0, cos0);
            b0.update_applied_transform(parent, &ctx.frame);
            let parent1 = if after_first { Some(b0.world()) } else { parent1 };
            rotate(b1, w1.1, sin1, cos1);
            b1.update_applied_transform(parent1, &ctx.frame);
            i += 2;
        }
        // The last bone of an odd count (or the rest, after a missing bone).
        while i < n {
            let (id, t) = (ids[i], triples[i]);
            let r_this = std::mem::replace(&mut r_prev, t[2]);
            let parent = parent_world(ctx.bones, id);
            if let Some(bone) = ctx.bones.get_mut(id.index()) {
                let w = self.place(ctx.data, sc, i, bone, id, [bone_x, bone_y], t, r_this);
                (bone_x, bone_y) = (t[0], t[1]);
                let (sin, cos) = w.0.sin_cos();
                rotate(bone, w.1, sin, cos);
                bone.update_applied_transform(parent, &ctx.frame);
            }
            i += 1;
        }
    }

    /// Bone `i` of the loop up to its final rotation: moves it to `from`, scales it toward
    /// its position `t` (chain scale) and returns the turn that rotates it, with its matrix
    /// after the scale (not stored: the caller's [`rotate`] writes it).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn place(
        &self,
        data: &spine_model::SkeletonData,
        sc: &PathScratch,
        i: usize,
        bone: &mut Bone,
        id: BoneId,
        from: [f32; 2],
        t: [f32; 3],
        r_this: f32,
    ) -> (Turn, [f32; 4]) {
        let [bone_x, bone_y] = from;
        let (x, y, r_next) = (t[0], t[1], t[2]);
        bone.world_x += (bone_x - bone.world_x) * self.mix_x;
        bone.world_y += (bone_y - bone.world_y) * self.mix_y;
        let (dx, dy) = (x - bone_x, y - bone_y);
        // The matrix is read once and the scaled columns stay in registers: the caller's
        // `rotate` writes the whole matrix (storing the columns here and reading the matrix
        // back whole after two single-float stores stalled store forwarding per bone).
        let (mut a, b, mut c, d) = (bone.a, bone.b, bone.c, bone.d);
        if self.scale {
            let length = if self.lazy_lengths {
                let setup = data.bones.get(id.index()).map_or(0.0, |b| b.length);
                let (x, y) = (setup * a, setup * c);
                math::sqrt(x * x + y * y)
            } else {
                sc.lengths.get(i).copied().unwrap_or(0.0)
            };
            if length >= EPSILON {
                let s = (math::sqrt(dx * dx + dy * dy) / length - 1.0) * self.mix_rotate + 1.0;
                a *= s;
                c *= s;
            }
        }
        let (r, bone_r) = if self.tangents {
            (r_this, math::atan2(c, a))
        } else if sc.spaces.get(i + 1).is_some_and(|&s| s < EPSILON) {
            (r_next, math::atan2(c, a))
        } else {
            // A full turn toward the chord: from the two directions, not their angles.
            if self.mix_rotate == 1.0 && self.offset_rotation == 0.0 {
                if let Some(turn) = chord_turn(dx, dy, a, c) {
                    return (turn, [a, b, c, d]);
                }
            }
            math::atan2_pair(dy, dx, c, a)
        };
        let turn = wrap_pi(r - bone_r + self.offset_rotation) * self.mix_rotate;
        (Turn::Angle(turn), [a, b, c, d])
    }
}

/// How a chain bone turns: by an angle (radians), or by the sine and cosine of one.
#[derive(Debug, Clone, Copy)]
enum Turn {
    /// The angle, whose sine and cosine are still to compute.
    Angle(f32),
    /// `(sin, cos)`.
    SinCos(f32, f32),
}

impl Turn {
    /// `(sin, cos)` of the turn.
    #[inline(always)]
    fn sin_cos(self) -> (f32, f32) {
        match self {
            Turn::Angle(r) => math::sin_cos(r),
            Turn::SinCos(sin, cos) => (sin, cos),
        }
    }
}

/// The turn that brings the bone's x axis `(a, c)` onto the chord `(dx, dy)`: its sine and
/// cosine from the two directions (their cross and dot products over the product of the
/// lengths), not from the difference of their atan2s. The same turn within rounding
/// (unit-tested against the angle path); `None` where a direction is undefined (a zero or
/// non-finite length), where the angles decide.
#[inline(always)]
fn chord_turn(dx: f32, dy: f32, a: f32, c: f32) -> Option<Turn> {
    let q = (dx * dx + dy * dy) * (a * a + c * c);
    if !(q > 0.0 && q.is_finite()) {
        return None;
    }
    let inv = 1.0 / math::sqrt(q);
    Some(Turn::SinCos((dy * a - dx * c) * inv, (dx * a + dy * c) * inv))
}

/// Rotates `bone`, whose matrix is `m` (`a, b, c, d`), by the angle of `sin`, `cos`.
#[inline(always)]
fn rotate(bone: &mut Bone, m: [f32; 4], sin: f32, cos: f32) {
    let [a, b, c, d] = m;
    bone.a = cos * a - sin * c;
    bone.b = cos * b - sin * d;
    bone.c = sin * a + cos * c;
    bone.d = sin * b + cos * d;
}

/// `v.resize(n, 0.0)` (spine-cpp `Vector::setSize`: kept values, new ones 0), with the
/// common case (already `n` long) tested inline instead of calling `resize`.
#[inline(always)]
fn set_len(v: &mut Vec<f32>, n: usize) {
    if v.len() != n {
        v.resize(n, 0.0);
    }
}

/// Whether the bone loop may take [`Chain::place_pairs`]: always, except in this crate's unit
/// tests, which compare it bit for bit with the one-bone loop.
#[cfg(not(test))]
#[inline(always)]
fn pairs_allowed() -> bool {
    true
}

#[cfg(test)]
thread_local! {
    static ONE_BY_ONE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(test)]
fn pairs_allowed() -> bool {
    !ONE_BY_ONE.with(|c| c.get())
}

/// Whether no bone appears twice in `ids`: a 64-bit mask of the ids modulo 64, and the
/// exact pairwise test only when two of them share a bit.
fn distinct(ids: &[BoneId]) -> bool {
    let mut mask = 0u64;
    for id in ids {
        let bit = 1u64 << (id.index() & 63);
        if mask & bit != 0 {
            return ids.iter().enumerate().all(|(k, a)| !ids[..k].contains(a));
        }
        mask |= bit;
    }
    true
}

/// spine-cpp `VertexAttachment::computeWorldVertices(slot, start, count, out, offset, 2)`:
/// `count` floats of world positions of the vertices starting at float `start`, written at
/// `out[offset..]`.
#[allow(clippy::too_many_arguments)]
fn world_vertices(
    vertices: &Vertices,
    slot: &Slot,
    bones: &[Bone],
    start: usize,
    count: usize,
    out: &mut [f32],
    offset: usize,
) {
    let end = (offset + (count >> 1) * 2).min(out.len() & !1);
    let deform = &slot.deform;
    match vertices {
        Vertices::Unweighted(setup) => {
            let verts: &[f32] = if deform.is_empty() { setup } else { deform };
            let Some(bone) = bones.get(slot.bone.index()) else { return };
            let (x, y, a, b, c, d) = (bone.world_x, bone.world_y, bone.a, bone.b, bone.c, bone.d);
            let (mut vv, mut w) = (start, offset);
            while w < end {
                let vx = verts.get(vv).copied().unwrap_or(0.0);
                let vy = verts.get(vv + 1).copied().unwrap_or(0.0);
                out[w] = vx * a + vy * b + x;
                out[w + 1] = vx * c + vy * d + y;
                vv += 2;
                w += 2;
            }
        }
        Vertices::Weighted(wv) => {
            let first = start / 2;
            let inf: usize = wv.counts.iter().take(first).map(|&n| n as usize).sum::<usize>();
            let out = out.get_mut(offset.min(end)..end).unwrap_or_default();
            let mut counts = wv.counts.get(first..).unwrap_or_default().iter();
            // The influences from `inf` on, one `(bone, [x, y, weight], deform index)` per step.
            let ids = wv.bones.get(inf..).unwrap_or_default();
            let vals = wv.values.get(inf * 3..).unwrap_or_default();
            let mut infs = ids.iter().zip(vals.chunks_exact(3));
            let mut d = inf * 2;
            for o in out.chunks_exact_mut(2) {
                let n = counts.next().copied().unwrap_or(0);
                let (mut wx, mut wy) = (0.0f32, 0.0f32);
                for _ in 0..n {
                    let Some((id, v)) = infs.next() else { break };
                    if let Some(bone) = bones.get(id.index()) {
                        let (mut vx, mut vy) = (v[0], v[1]);
                        if !deform.is_empty() {
                            vx += deform.get(d).copied().unwrap_or(0.0);
                            vy += deform.get(d + 1).copied().unwrap_or(0.0);
                        }
                        let weight = v[2];
                        wx += (vx * bone.a + vy * bone.b + bone.world_x) * weight;
                        wy += (vx * bone.c + vy * bone.d + bone.world_y) * weight;
                    }
                    d += 2;
                }
                o[0] = wx;
                o[1] = wy;
            }
        }
    }
}

/// Index of the curve containing `p` and `p` normalised within it (spine-cpp's "Determine
/// curve containing position" loop, starting at `curve`).
fn locate(lengths: &[f32], mut curve: usize, mut p: f32) -> (usize, f32) {
    loop {
        let Some(&length) = lengths.get(curve) else {
            // Not reached for valid data (p <= the path length); stay on the last curve.
            return (lengths.len().saturating_sub(1), 1.0);
        };
        if p > length {
            curve += 1;
            continue;
        }
        if curve == 0 {
            p /= length;
        } else {
            let prev = lengths[curve - 1];
            p = (p - prev) / (length - prev);
        }
        return (curve, p);
    }
}

/// Which runtime's `addCurvePosition` rules apply (see `Behaviour::path_scales_every_spacing`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CurveRule {
    /// spine-cpp 4.x: `p < EPSILON` (or NaN) gives the start point and the control tangent,
    /// `p < 0.001` the control tangent; a space below `EPSILON` takes the tangent.
    Spine4,
    /// spine-c 3.6: `p == 0` or NaN becomes `0.0001`; a space of exactly 0 takes the tangent.
    SpineC36,
    /// spine-c 3.5.51: as 3.6, but a NaN `p` stays NaN.
    SpineC35,
    /// spine-ts 4.3: `p == 0` (or NaN) gives the start point and the control tangent, `p <
    /// 0.001` the control tangent; a space of exactly 0 takes the tangent.
    SpineTs43,
}

impl CurveRule {
    /// Whether the space before a position is "zero" (the position takes the curve tangent).
    fn zero_space(self, space: f32) -> bool {
        match self {
            CurveRule::Spine4 => space < EPSILON,
            CurveRule::SpineC36 | CurveRule::SpineC35 | CurveRule::SpineTs43 => space == 0.0,
        }
    }
}

/// spine-cpp 4.2 `PathConstraint::computeWorldPositions` (spine-c 3.5/3.6 with `rule`):
/// fills `sc.positions` with `x, y, rotation` for each of the `spaces_count` spaces (plus
/// two scratch floats).
#[allow(clippy::too_many_arguments)]
fn compute_world_positions(
    path: &PathAttachment,
    slot: &Slot,
    bones: &[Bone],
    data: &PathData,
    mut position: f32,
    sc: &mut PathScratch,
    spaces_count: usize,
    tangents: bool,
    rule: CurveRule,
) {
    // `x, y, rotation` per space, plus scratch floats so that every bone has a whole
    // triple after the first position (`update` walks them in chunks of 3).
    set_len(&mut sc.positions, spaces_count * 3 + 3);
    let out = &mut sc.positions;
    let world = &mut sc.world;
    let closed = path.closed;
    let mut vertices_length = path.vertices.vertex_count() * 2;
    let mut curve_count = vertices_length / 6;
    let mut prev_curve = NONE;
    let percent = data.position_mode == PositionMode::Percent;
    let multiplier_for = |path_length: f32| match data.spacing_mode {
        SpacingMode::Percent => path_length,
        SpacingMode::Proportional => path_length / spaces_count as f32,
        SpacingMode::Length | SpacingMode::Fixed => 1.0,
    };
    let vw = |start: usize, count: usize, world: &mut [f32], offset: usize| {
        world_vertices(&path.vertices, slot, bones, start, count, world, offset)
    };

    if !path.constant_speed {
        let lengths = &path.lengths;
        curve_count = curve_count.saturating_sub(if closed { 1 } else { 2 });
        let Some(&path_length) = lengths.get(curve_count) else { return };
        if percent {
            position *= path_length;
        }
        let multiplier = multiplier_for(path_length);
        set_len(world, 8);
        let mut curve = 0usize;
        let mut last_p = f32::NAN;
        for i in 0..spaces_count {
            let o = i * 3;
            let space = sc.spaces[i] * multiplier;
            position += space;
            let mut p = position;
            if closed {
                p = wrap(p, path_length);
                curve = closed_start(curve, p, &mut last_p);
            } else if p < 0.0 {
                if prev_curve != BEFORE {
                    prev_curve = BEFORE;
                    vw(2, 4, world, 0);
                }
                add_before_position(p, world, 0, out, o);
                continue;
            } else if p > path_length {
                if prev_curve != AFTER {
                    prev_curve = AFTER;
                    vw(vertices_length.saturating_sub(6), 4, world, 0);
                }
                add_after_position(p - path_length, world, 0, out, o);
                continue;
            }
            (curve, p) = locate(lengths, curve, p);
            if curve as i32 != prev_curve {
                prev_curve = curve as i32;
                if closed && curve == curve_count {
                    vw(vertices_length - 4, 4, world, 0);
                    vw(0, 4, world, 4);
                } else {
                    vw(curve * 6 + 2, 8, world, 0);
                }
            }
            let w =
                [world[0], world[1], world[2], world[3], world[4], world[5], world[6], world[7]];
            add_curve_position(
                p,
                w,
                out,
                o,
                tangents || (i > 0 && rule.zero_space(space)),
                tangents || i > 0,
                rule,
            );
        }
        return;
    }

    // World vertices.
    if closed {
        vertices_length += 2;
        set_len(world, vertices_length);
        vw(2, vertices_length - 4, world, 0);
        vw(0, 2, world, vertices_length - 4);
        world[vertices_length - 2] = world[0];
        world[vertices_length - 1] = world[1];
    } else {
        curve_count = curve_count.saturating_sub(1);
        vertices_length = vertices_length.saturating_sub(4);
        set_len(world, vertices_length);
        vw(2, vertices_length, world, 0);
    }
    if world.len() < 2 {
        return;
    }

    // Curve lengths.
    set_len(&mut sc.curves, curve_count);
    let mut path_length = 0.0f32;
    let (mut x1, mut y1) = (world[0], world[1]);
    let (mut cx1, mut cy1, mut cx2, mut cy2, mut x2, mut y2) = (0.0f32, 0.0, 0.0, 0.0, 0.0, 0.0);
    let mut w = 2usize;
    for i in 0..curve_count {
        if w + 5 >= world.len() {
            break;
        }
        cx1 = world[w];
        cy1 = world[w + 1];
        cx2 = world[w + 2];
        cy2 = world[w + 3];
        x2 = world[w + 4];
        y2 = world[w + 5];
        let tmpx = (x1 - cx1 * 2.0 + cx2) * 0.1875;
        let tmpy = (y1 - cy1 * 2.0 + cy2) * 0.1875;
        let dddfx = ((cx1 - cx2) * 3.0 - x1 + x2) * 0.09375;
        let dddfy = ((cy1 - cy2) * 3.0 - y1 + y2) * 0.09375;
        let mut ddfx = tmpx * 2.0 + dddfx;
        let mut ddfy = tmpy * 2.0 + dddfy;
        let mut dfx = (cx1 - x1) * 0.75 + tmpx + dddfx * 0.16666667;
        let mut dfy = (cy1 - y1) * 0.75 + tmpy + dddfy * 0.16666667;
        path_length += math::sqrt(dfx * dfx + dfy * dfy);
        dfx += ddfx;
        dfy += ddfy;
        ddfx += dddfx;
        ddfy += dddfy;
        path_length += math::sqrt(dfx * dfx + dfy * dfy);
        dfx += ddfx;
        dfy += ddfy;
        path_length += math::sqrt(dfx * dfx + dfy * dfy);
        dfx += ddfx + dddfx;
        dfy += ddfy + dddfy;
        path_length += math::sqrt(dfx * dfx + dfy * dfy);
        sc.curves[i] = path_length;
        x1 = x2;
        y1 = y2;
        w += 6;
    }
    if percent {
        position *= path_length;
    }
    let multiplier = multiplier_for(path_length);
    // Cumulative lengths of the 10 segments of the current curve.
    let mut segments = [0.0f32; 10];
    let mut curve_length = 0.0f32;
    let (mut curve, mut segment) = (0usize, 0usize);
    let mut last_p = f32::NAN;
    for i in 0..spaces_count {
        let o = i * 3;
        let space = sc.spaces[i] * multiplier;
        position += space;
        let mut p = position;
        if closed {
            p = wrap(p, path_length);
            curve = closed_start(curve, p, &mut last_p);
        } else if p < 0.0 {
            add_before_position(p, world, 0, out, o);
            continue;
        } else if p > path_length {
            add_after_position(p - path_length, world, vertices_length - 4, out, o);
            continue;
        }
        (curve, p) = locate(&sc.curves, curve, p);
        // Curve segment lengths.
        if curve as i32 != prev_curve {
            prev_curve = curve as i32;
            let ii = curve * 6;
            let Some(wv) = world.get(ii..ii + 8) else { continue };
            (x1, y1, cx1, cy1, cx2, cy2, x2, y2) =
                (wv[0], wv[1], wv[2], wv[3], wv[4], wv[5], wv[6], wv[7]);
            let tmpx = (x1 - cx1 * 2.0 + cx2) * 0.03;
            let tmpy = (y1 - cy1 * 2.0 + cy2) * 0.03;
            let dddfx = ((cx1 - cx2) * 3.0 - x1 + x2) * 0.006;
            let dddfy = ((cy1 - cy2) * 3.0 - y1 + y2) * 0.006;
            let mut ddfx = tmpx * 2.0 + dddfx;
            let mut ddfy = tmpy * 2.0 + dddfy;
            let mut dfx = (cx1 - x1) * 0.3 + tmpx + dddfx * 0.16666667;
            let mut dfy = (cy1 - y1) * 0.3 + tmpy + dddfy * 0.16666667;
            curve_length = math::sqrt(dfx * dfx + dfy * dfy);
            segments[0] = curve_length;
            for s in segments.iter_mut().take(8).skip(1) {
                dfx += ddfx;
                dfy += ddfy;
                ddfx += dddfx;
                ddfy += dddfy;
                curve_length += math::sqrt(dfx * dfx + dfy * dfy);
                *s = curve_length;
            }
            dfx += ddfx;
            dfy += ddfy;
            curve_length += math::sqrt(dfx * dfx + dfy * dfy);
            segments[8] = curve_length;
            dfx += ddfx + dddfx;
            dfy += ddfy + dddfy;
            curve_length += math::sqrt(dfx * dfx + dfy * dfy);
            segments[9] = curve_length;
            segment = 0;
        }
        // Weight by segment length.
        p *= curve_length;
        loop {
            let Some(&length) = segments.get(segment) else {
                // Not reached for valid data (`p <= curve_length`): the end of the curve.
                segment = 9;
                p = 10.0;
                break;
            };
            if p > length {
                segment += 1;
                continue;
            }
            if segment == 0 {
                p /= length;
            } else {
                let prev = segments[segment - 1];
                p = segment as f32 + (p - prev) / (length - prev);
            }
            break;
        }
        add_curve_position(
            p * 0.1,
            [x1, y1, cx1, cy1, cx2, cy2, x2, y2],
            out,
            o,
            tangents || (i > 0 && rule.zero_space(space)),
            tangents || i > 0,
            rule,
        );
    }
}

/// Where the curve search of a closed path starts. spine-cpp scans from curve 0 for every
/// position; the scan for the previous position `last_p` passed only lengths below it, so
/// for `p >= last_p` the scan from 0 passes them too and reaches the previous `curve`
/// (the same result for any lengths, NaN included: a NaN length stops every scan).
#[inline]
fn closed_start(curve: usize, p: f32, last_p: &mut f32) -> usize {
    let start = if p >= *last_p { curve } else { 0 };
    *last_p = p;
    start
}

/// spine-cpp's `if (r > PI) r -= PI_2; else if (r < -PI) r += PI_2;`.
#[inline]
fn wrap_pi(r: f32) -> f32 {
    if r > PI {
        r - PI * 2.0
    } else if r < -PI {
        r + PI * 2.0
    } else {
        r
    }
}

/// `fmod(p, length)`, plus `length` when negative (spine-cpp's closed-path wrap). The
/// common cases skip the division: `fmod` is exact, and so are `p - length` for
/// `length <= p < 2 length` and `p + length` for `-2 length < p < -length` (Sterbenz).
#[inline]
fn wrap(p: f32, length: f32) -> f32 {
    let r = if p.abs() < length {
        p
    } else if p >= length && p < length + length {
        p - length
    } else if p < -length && p > -(length + length) {
        p + length
    } else {
        math::fmod(p, length)
    };
    if r < 0.0 {
        r + length
    } else {
        r
    }
}

fn add_before_position(p: f32, temp: &[f32], i: usize, out: &mut [f32], o: usize) {
    let Some(t) = temp.get(i..i + 4) else { return };
    let (x1, y1) = (t[0], t[1]);
    let r = math::atan2(t[3] - y1, t[2] - x1);
    let (sin, cos) = math::sin_cos(r);
    out[o] = x1 + p * cos;
    out[o + 1] = y1 + p * sin;
    out[o + 2] = r;
}

fn add_after_position(p: f32, temp: &[f32], i: usize, out: &mut [f32], o: usize) {
    let Some(t) = temp.get(i..i + 4) else { return };
    let (x1, y1) = (t[2], t[3]);
    let r = math::atan2(y1 - t[1], x1 - t[0]);
    let (sin, cos) = math::sin_cos(r);
    out[o] = x1 + p * cos;
    out[o + 1] = y1 + p * sin;
    out[o + 2] = r;
}

/// spine-cpp `addCurvePosition`: the point at `p` in `[0, 1]` of the cubic bezier `w`
/// (`x1, y1, cx1, cy1, cx2, cy2, x2, y2`) and, with `tangents`, its tangent angle
/// (spine-c 3.5/3.6 `_addCurvePosition` with `rule`).
///
/// `start_rotation` false: nothing reads this position's rotation (the first position
/// without tangents: the bone loop reads the rotations of spaces `1..`), so the start
/// point's control tangent (`p < EPSILON`, always written by spine-cpp) is not computed.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn add_curve_position(
    mut p: f32,
    w: [f32; 8],
    out: &mut [f32],
    o: usize,
    tangents: bool,
    start_rotation: bool,
    rule: CurveRule,
) {
    let [x1, y1, cx1, cy1, cx2, cy2, x2, y2] = w;
    match rule {
        CurveRule::Spine4 => {
            if p < EPSILON || p.is_nan() {
                out[o] = x1;
                out[o + 1] = y1;
                if start_rotation {
                    out[o + 2] = math::atan2(cy1 - y1, cx1 - x1);
                }
                return;
            }
        }
        CurveRule::SpineTs43 => {
            if p == 0.0 || p.is_nan() {
                out[o] = x1;
                out[o + 1] = y1;
                if start_rotation {
                    out[o + 2] = math::atan2(cy1 - y1, cx1 - x1);
                }
                return;
            }
        }
        CurveRule::SpineC36 if p == 0.0 || p.is_nan() => p = 0.0001,
        CurveRule::SpineC35 if p == 0.0 => p = 0.0001,
        CurveRule::SpineC36 | CurveRule::SpineC35 => {}
    }
    let (tt, u) = (p * p, 1.0 - p);
    let (ttt, uu) = (tt * p, u * u);
    let uuu = uu * u;
    let ut = u * p;
    let ut3 = ut * 3.0;
    let (uut3, utt3) = (u * ut3, ut3 * p);
    let x = x1 * uuu + cx1 * uut3 + cx2 * utt3 + x2 * ttt;
    let y = y1 * uuu + cy1 * uut3 + cy2 * utt3 + y2 * ttt;
    out[o] = x;
    out[o + 1] = y;
    if tangents {
        let control = matches!(rule, CurveRule::Spine4 | CurveRule::SpineTs43);
        out[o + 2] = if control && f64::from(p) < 0.001 {
            math::atan2(cy1 - y1, cx1 - x1)
        } else {
            math::atan2(
                y - (y1 * uu + cy1 * ut * 2.0 + cy2 * tt),
                x - (x1 * uu + cx1 * ut * 2.0 + cx2 * tt),
            )
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Physics, Skeleton};
    use std::sync::Arc;

    /// `chord_turn` is the turn of the angle path (`atan2` of the chord less `atan2` of the
    /// bone's axis, wrapped, then sine and cosine) within rounding, in every quadrant and at
    /// lengths from 1e-3 to 1e3; undefined directions are left to the angles.
    #[test]
    fn chord_turn_matches_the_angles() {
        let mut rng = crate::test_rng::Rng(0x2545_f491_4f6c_dd1d);
        let mut next = |lo: f32, hi: f32| rng.range(lo, hi);
        let mut worst = 0.0f32;
        for _ in 0..50_000 {
            let size = 10f32.powf(next(-3.0, 3.0));
            let (dx, dy) = (next(-1.0, 1.0) * size, next(-1.0, 1.0) * size);
            let (a, c) = (next(-2.0, 2.0), next(-2.0, 2.0));
            let Some(Turn::SinCos(sin, cos)) = chord_turn(dx, dy, a, c) else {
                panic!("({dx}, {dy}) ({a}, {c}): no turn");
            };
            let (r, bone_r) = math::atan2_pair(dy, dx, c, a);
            let (want_sin, want_cos) = math::sin_cos(wrap_pi(r - bone_r));
            worst = worst.max((sin - want_sin).abs()).max((cos - want_cos).abs());
        }
        assert!(worst < 2e-6, "worst difference {worst:e}");
        assert!(chord_turn(0.0, 0.0, 1.0, 0.0).is_none());
        assert!(chord_turn(1.0, 0.0, 0.0, 0.0).is_none());
        assert!(chord_turn(f32::NAN, 0.0, 1.0, 0.0).is_none());
        assert!(chord_turn(f32::INFINITY, 0.0, 1.0, 0.0).is_none());
    }

    /// A chain `c0 .. c6` (each the child of the previous one) and two loose bones, a
    /// four-curve path, and one path constraint on `bones` with the given modes.
    fn chain_rig(
        bones: &[&str],
        rotate: &str,
        spacing_mode: &str,
        spacing: f32,
        mix: f32,
        offset: f32,
    ) -> Skeleton {
        let list = bones.iter().map(|b| format!("\"{b}\"")).collect::<Vec<_>>().join(", ");
        let text = format!(
            r#"{{"skeleton": {{"spine": "4.2.22"}},
            "bones": [
                {{"name": "root"}},
                {{"name": "c0", "parent": "root", "x": 5, "y": 3, "length": 12, "rotation": 10}},
                {{"name": "c1", "parent": "c0", "x": 12, "length": 9, "rotation": -20}},
                {{"name": "c2", "parent": "c1", "x": 9, "length": 15, "rotation": 35, "scaleX": 1.3}},
                {{"name": "c3", "parent": "c2", "x": 15, "length": 7, "rotation": -5}},
                {{"name": "c4", "parent": "c3", "x": 7, "length": 11, "shearY": 12}},
                {{"name": "c5", "parent": "c4", "x": 11, "length": 0, "rotation": 60}},
                {{"name": "c6", "parent": "c5", "x": 4, "length": 13, "scaleY": 0.8}},
                {{"name": "l0", "parent": "root", "x": -30, "y": 8, "length": 10, "rotation": 170}},
                {{"name": "l1", "parent": "root", "x": 40, "y": -12, "length": 6, "rotation": -95}}
            ],
            "slots": [{{"name": "path", "bone": "root", "attachment": "path"}}],
            "skins": [{{"name": "default", "attachments": {{"path": {{"path": {{
                "type": "path", "closed": false, "lengths": [40, 90, 150, 210], "vertexCount": 15,
                "vertices": [-10, -10, 0, 0, 12, 25, 20, 30, 35, 28, 50, 40, 58, 61, 70, 70, 85, 66,
                    100, 50, 110, 52, 130, 71, 140, 90, 150, 95, 160, 91]
            }}}}}}}}],
            "path": [{{"name": "p", "bones": [{list}], "target": "path", "positionMode": "fixed",
                "position": 7, "spacingMode": "{spacing_mode}", "spacing": {spacing},
                "rotateMode": "{rotate}", "rotation": {offset}, "mixRotate": {mix}, "mixX": 0.7}}]}}"#
        );
        let data = spine_model::load_json(&text, None).unwrap();
        let mut sk = Skeleton::new(Arc::new(data));
        sk.set_to_setup_pose();
        sk
    }

    fn bits(sk: &Skeleton) -> Vec<u32> {
        let mut v = Vec::new();
        for b in &sk.bones {
            let p = b.applied();
            for f in [b.a, b.b, b.c, b.d, b.world_x, b.world_y, p.x, p.y, p.rotation, p.scale_x] {
                v.push(f.to_bits());
            }
            v.extend([p.scale_y.to_bits(), p.shear_x.to_bits(), p.shear_y.to_bits()]);
        }
        v
    }

    #[test]
    fn pairs_equal_the_one_bone_loop_bit_for_bit() {
        let orders: [&[&str]; 5] = [
            &["c0", "c1", "c2", "c3", "c4", "c5", "c6"],
            &["c6", "c5", "c4", "c3", "c2", "c1"],
            &["c1", "l0", "c2", "c0", "l1"],
            &["c3", "c4"],
            &["c2"],
        ];
        let mut paired = 0;
        for order in orders {
            for rotate in ["tangent", "chainScale", "chain"] {
                for mode in ["percent", "length", "fixed", "proportional"] {
                    for spacing in [0.0f32, 0.15, 9.0] {
                        // With no offset and a full mix, chords turn by `chord_turn`.
                        for (mix, offset) in [(1.0f32, 23.0f32), (0.6, 23.0), (1.0, 0.0)] {
                            let mut a = chain_rig(order, rotate, mode, spacing, mix, offset);
                            let mut b = chain_rig(order, rotate, mode, spacing, mix, offset);
                            for (k, (ba, bb)) in a.bones.iter_mut().zip(&mut b.bones).enumerate() {
                                let r = k as f32 * 37.3 - 80.0;
                                (ba.rotation, bb.rotation) = (r, r);
                            }
                            a.update_world_transform(Physics::None);
                            ONE_BY_ONE.with(|c| c.set(true));
                            b.update_world_transform(Physics::None);
                            ONE_BY_ONE.with(|c| c.set(false));
                            assert_eq!(
                                bits(&a),
                                bits(&b),
                                "{order:?} {rotate} {mode} {spacing} {mix} {offset}"
                            );
                            paired += usize::from(order.len() > 1 && rotate != "chain");
                        }
                    }
                }
            }
        }
        assert!(paired >= 96, "{paired}");
    }

    #[test]
    fn distinct_finds_every_repeat() {
        let ids = |v: &[u32]| v.iter().map(|&i| BoneId(i)).collect::<Vec<_>>();
        assert!(distinct(&ids(&[])));
        assert!(distinct(&ids(&[5])));
        assert!(distinct(&ids(&[3, 4, 5, 6, 7, 8, 9, 10])));
        // Different ids on the same mask bit (modulo 64) are still distinct.
        assert!(distinct(&ids(&[3, 67, 131, 4])));
        assert!(!distinct(&ids(&[3, 4, 3])));
        assert!(!distinct(&ids(&[3, 67, 4, 67])));
        assert!(!distinct(&ids(&[7, 7])));
        assert!(!distinct(&ids(&[1, 2, 3, 200, 9, 200])));
        // Every pair of positions in an 8-bone list, repeated and not.
        for a in 0..8 {
            for b in a + 1..8 {
                let mut v: Vec<u32> = (10..18).collect();
                assert!(distinct(&ids(&v)));
                v[b] = v[a];
                assert!(!distinct(&ids(&v)), "{v:?}");
            }
        }
    }
}
