//! IK constraint solver (spine-cpp 4.2 `IkConstraint::update`, `apply` for one and two
//! bones), float for float.
//!
//! One bone: rotates the bone so its x axis points at the target; with `compress` /
//! `stretch` scales x (and y per [`ScaleYMode`]) so its tip reaches the target. Two bones:
//! law-of-cosines solve (uniform parent scale) or the ellipse solve (non-uniform), bend
//! direction, softness, stretch of the parent. Both blend by `mix`.
//!
//! 4.3 data
//! ([`Behaviour::ik_keeps_parent_shear`](spine_model::Behaviour::ik_keeps_parent_shear))
//! follows spine-cpp 4.3 where it differs ([`IkRules::SPINE43`]); everything older keeps the 4.2
//! maths unchanged ([`IkRules::SPINE42`]).
//!
//! Files: this one, the update and the one-bone solve shared by 3.8–4.3; `two_bones.rs`, the
//! two-bone solve (4.2 / 4.3 rules); `spine3x.rs`, the 3.5–3.7 solvers
//! ([`Behaviour::ik_without_inherit`](spine_model::Behaviour::ik_without_inherit));
//! `spine43.rs`, the 4.3 solver on the lazy 4.3 poses.

use spine_model::{BoneId, IkData, Inherit, ScaleYMode};

use super::{IkPose, SolverCtx};
use crate::math::{self, PI, RAD_DEG};
use crate::skeleton::{
    local_matrix_equal_shears, parent_world, AppliedPose, Bone, LocalCache, ParentWorld, WorldFrame,
};

mod spine3x;
mod spine43;
mod two_bones;

pub use spine3x::{apply_one_3x, apply_two_3x};
pub(crate) use spine43::update43;
pub(crate) use two_bones::*;
pub use two_bones::{apply_two, apply_two_with};

/// Solves one IK constraint: rotates (and with stretch/compress scales) `data.bones` toward
/// `data.target`, blending by `pose.mix`, writing the bones' world transforms in
/// `ctx.bones`.
pub fn update(ctx: &mut SolverCtx<'_>, data: &IkData, pose: &mut IkPose) {
    compute_applied(ctx.bones, &data.bones);
    update_cached(ctx, data, pose, None);
}

/// [`update`], posing the constrained bones through `caches` (the constraint's own
/// local-matrix caches, see [`Bone::update_world_transform_cached`]).
pub(crate) fn update_cached(
    ctx: &mut SolverCtx<'_>,
    data: &IkData,
    pose: &mut IkPose,
    caches: Option<&mut [LocalCache; 2]>,
) {
    if pose.mix == 0.0 {
        return;
    }
    let Some(target) = ctx.bones.get(data.target.index()) else { return };
    let target = (target.world_x, target.world_y);
    let behaviour = &ctx.data.behaviour;
    if !behaviour.ik_without_inherit {
        let rules =
            if behaviour.ik_keeps_parent_shear { IkRules::SPINE43 } else { IkRules::SPINE42 };
        match *data.bones.as_slice() {
            [bone] if pose_one_aimed(rules, ctx.bones, bone, target, pose) => return,
            [parent, child] => {
                let solve = IkSolve::new(target, pose, data.scale_y_mode);
                let lengths = (bone_length(ctx, parent), bone_length(ctx, child));
                let ids = (parent, child);
                apply_two_impl(caches, rules, ctx.bones, &ctx.frame, ids, lengths, solve);
                return;
            }
            _ => {}
        }
    }
    update_general(ctx, data, IkSolve::new(target, pose, data.scale_y_mode), caches);
}

/// The common one-bone solve on its own: full mix, neither compress nor stretch, a child
/// of [`Inherit::Normal`] with equal shears and the target off its position; the
/// operations of [`apply_one_impl`] for that case, in its order (the same bits). `false`
/// (nothing written) for every other solve.
#[inline(always)]
fn pose_one_aimed(
    rules: IkRules,
    bones: &mut [Bone],
    id: BoneId,
    (target_x, target_y): (f32, f32),
    pose: &IkPose,
) -> bool {
    if pose.mix != 1.0 || pose.compress || pose.stretch {
        return false;
    }
    let Some(p) = parent_world(bones, id) else { return false };
    let Some(bone) = bones.get_mut(id.index()) else { return false };
    let ap = bone.applied_in_cache();
    if bone.inherit != Inherit::Normal || ap.shear_x != ap.shear_y {
        return false;
    }
    let (pa, pb, pc, pd) = (p.a, p.b, p.c, p.d);
    let x = target_x - p.world_x;
    let y = target_y - p.world_y;
    let d = pa * pd - pb * pc;
    if rules.near_zero(d) {
        return false;
    }
    let tx = (x * pd - y * pb) / d - ap.x;
    let ty = (y * pa - x * pc) / d - ap.y;
    let flip = ap.scale_x < 0.0;
    let Some((cos, sin)) = aimed_axis(tx, ty, flip) else { return false };
    let m = local_matrix_equal_shears(sin, cos, ap.scale_x, ap.scale_y);
    let code = AIM_ONE | if flip { AIM_FLIP } else { 0 } | if rules.spine43 { AIM_43 } else { 0 };
    bone.pose_normal_aimed(p, ap, [tx, ty, 0.0, code as f32], m);
    true
}

/// [`update_cached`] for the 3.5–3.7 solvers and the one-bone solves
/// [`pose_one_aimed`] does not take, out of line.
#[inline(never)]
fn update_general(
    ctx: &mut SolverCtx<'_>,
    data: &IkData,
    solve: IkSolve,
    mut caches: Option<&mut [LocalCache; 2]>,
) {
    if ctx.data.behaviour.ik_without_inherit {
        match *data.bones.as_slice() {
            [bone] => {
                let length = bone_length(ctx, bone);
                apply_one_3x(ctx.bones, &ctx.frame, bone, length, solve);
            }
            [parent, child] => {
                let length = bone_length(ctx, child);
                apply_two_3x(ctx.bones, &ctx.frame, (parent, child), length, solve);
            }
            _ => {}
        }
        return;
    }
    let rules =
        if ctx.data.behaviour.ik_keeps_parent_shear { IkRules::SPINE43 } else { IkRules::SPINE42 };
    if let [bone] = *data.bones.as_slice() {
        let length = bone_length(ctx, bone);
        let cache = caches.as_mut().map(|c| &mut c[0]);
        apply_one_impl(cache, rules, ctx.bones, &ctx.frame, bone, length, solve);
    }
}

fn bone_length(ctx: &SolverCtx<'_>, id: BoneId) -> f32 {
    ctx.data.bones.get(id.index()).map_or(0.0, |b| b.length)
}

/// Scales `sy` for a stretch factor `s` applied to `sx` (4.x `uniform`; 4.3 `ScaleYMode`,
/// `Volume` as spine-cpp 4.3 `IkConstraint::apply`).
fn scale_y(mode: ScaleYMode, sy: f32, s: f32) -> f32 {
    match mode {
        ScaleYMode::None => sy,
        ScaleYMode::Uniform => sy * s,
        // spine-cpp 4.3: y shrinks as x stretches, damped below 0.7.
        ScaleYMode::Volume => sy / if s < 0.7 { 0.25 + 0.642857 * s } else { s },
    }
}

/// One IK solve's target and settings: spine-cpp `IkConstraint::apply`'s arguments after
/// the bones. The one-bone solves read `compress`, the two-bone solves `bend_direction` and
/// `softness`; the 3.5–3.7 solvers ignore `softness` and (two bones) `scale_y_mode`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IkSolve {
    /// Target x, world space.
    pub target_x: f32,
    /// Target y, world space.
    pub target_y: f32,
    /// Bend direction of a two-bone solve, ±1.
    pub bend_direction: i32,
    /// Scales a bone down when the target is nearer than its tip (one bone).
    pub compress: bool,
    /// Scales the bone (the parent of two) up when the target is out of reach.
    pub stretch: bool,
    /// How scale y follows a compress or stretch (4.x `uniform`; 4.3 `scaleYMode`).
    pub scale_y_mode: ScaleYMode,
    /// Softness of a two-bone solve.
    pub softness: f32,
    /// Mix (spine-cpp's `alpha`).
    pub mix: f32,
}

impl IkSolve {
    /// The solve of a constraint's `pose` (timelines applied) toward `(x, y)`.
    pub fn new((target_x, target_y): (f32, f32), pose: &IkPose, scale_y_mode: ScaleYMode) -> Self {
        IkSolve {
            target_x,
            target_y,
            bend_direction: pose.bend_direction,
            compress: pose.compress,
            stretch: pose.stretch,
            scale_y_mode,
            softness: pose.softness,
            mix: pose.mix,
        }
    }
}

/// Where the 4.2 and 4.3 IK solvers differ (spine-cpp `IkConstraint::apply`, both
/// overloads).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IkRules {
    /// spine-cpp 4.3: thresholds are `MathUtil::Epsilon` (`0.00001f`, float compares)
    /// instead of 4.2's `0.0001`; rotation deltas wrap at `<= -180` instead of `< -180`;
    /// the two-bone solve keeps the parent's shear instead of posing it with shear 0.
    pub spine43: bool,
}

impl IkRules {
    /// spine-cpp 4.2 (also used for 3.8–4.1 data).
    pub const SPINE42: IkRules = IkRules { spine43: false };
    /// spine-cpp 4.3.
    pub const SPINE43: IkRules = IkRules { spine43: true };

    /// `|v| <= 0.0001f` (4.2) / `|v| <= Epsilon` (4.3).
    fn near_zero(self, v: f32) -> bool {
        math::abs(v) <= if self.spine43 { 0.00001 } else { 0.0001 }
    }

    /// `max(0.0001f, v)` (4.2) / `max(Epsilon, v)` (4.3).
    fn at_least_epsilon(self, v: f32) -> f32 {
        max_f(if self.spine43 { 0.00001 } else { 0.0001 }, v)
    }

    /// A length above the threshold: 4.2 `b > 0.0001` (a double compare), 4.3
    /// `b > Epsilon`.
    fn length_above(self, v: f32) -> bool {
        if self.spine43 {
            v > 0.00001
        } else {
            f64::from(v) > 0.0001
        }
    }

    /// A near-zero length: 4.2 `l1 < 0.0001` (a double compare), 4.3 `l1 < Epsilon`.
    fn length_below(self, v: f32) -> bool {
        if self.spine43 {
            v < 0.00001
        } else {
            f64::from(v) < 0.0001
        }
    }

    /// Wraps a rotation delta into (-180, 180] (4.3) or [-180, 180] (4.2) with one step.
    fn wrap(self, mut deg: f32) -> f32 {
        if deg > 180.0 {
            deg -= 360.0;
        } else if deg < -180.0 || (self.spine43 && deg == -180.0) {
            deg += 360.0;
        }
        deg
    }
}

/// spine-cpp 4.2 `IkConstraint::apply(Bone &bone, targetX, targetY, compress, stretch,
/// uniform, alpha)`: [`apply_one_with`] with [`IkRules::SPINE42`].
pub fn apply_one(bones: &mut [Bone], frame: &WorldFrame, id: BoneId, length: f32, solve: IkSolve) {
    apply_one_with(IkRules::SPINE42, bones, frame, id, length, solve);
}

/// spine-cpp 4.2 / 4.3 (per `rules`) `IkConstraint::apply(bone, targetX, targetY, compress,
/// stretch, uniform / scaleYMode, alpha)`, the arguments after the bone in `solve`. A root
/// bone (no parent) is posed as if its parent were the skeleton frame (spine-cpp
/// dereferences a null parent there).
pub fn apply_one_with(
    rules: IkRules,
    bones: &mut [Bone],
    frame: &WorldFrame,
    id: BoneId,
    length: f32,
    solve: IkSolve,
) {
    compute_applied(bones, &[id]);
    apply_one_impl(None, rules, bones, frame, id, length, solve);
}

/// Computes the deferred applied poses of `ids` (see [`Bone::applied`]): the solvers read
/// the fields directly, which inside the update cache `Skeleton::update_cache` guarantees.
fn compute_applied(bones: &mut [Bone], ids: &[BoneId]) {
    for id in ids {
        if let Some(b) = bones.get_mut(id.index()) {
            b.applied_mut();
        }
    }
}

/// [`apply_one_with`], posing the bone through `cache` (see
/// [`Bone::update_world_transform_cached`]).
#[inline(always)]
pub(crate) fn apply_one_impl(
    cache: Option<&mut LocalCache>,
    rules: IkRules,
    bones: &mut [Bone],
    frame: &WorldFrame,
    id: BoneId,
    length: f32,
    solve: IkSolve,
) {
    let IkSolve { target_x, target_y, compress, stretch, scale_y_mode: mode, mix: alpha, .. } =
        solve;
    let parent = parent_world(bones, id);
    let Some(bone) = bones.get_mut(id.index()) else { return };
    let ap = bone.applied_in_cache();
    let p = parent.unwrap_or(ParentWorld {
        a: frame.scale_x,
        b: 0.0,
        c: 0.0,
        d: frame.scale_y,
        world_x: frame.x,
        world_y: frame.y,
    });
    let (pa, mut pb, pc, mut pd) = (p.a, p.b, p.c, p.d);
    let mut rotation_ik = -ap.shear_x - ap.rotation;
    let (mut tx, mut ty);
    if bone.inherit == Inherit::OnlyTranslation {
        tx = (target_x - bone.world_x) * math::sign(frame.scale_x);
        ty = (target_y - bone.world_y) * math::sign(frame.scale_y);
    } else {
        if bone.inherit == Inherit::NoRotationOrReflection {
            let s = math::abs(pa * pd - pb * pc) / rules.at_least_epsilon(pa * pa + pc * pc);
            let sa = pa / frame.scale_x;
            let sc = pc / frame.scale_y;
            pb = -sc * s * frame.scale_x;
            pd = sa * s * frame.scale_y;
            rotation_ik += math::atan2_deg(sc, sa);
        }
        let x = target_x - p.world_x;
        let y = target_y - p.world_y;
        let d = pa * pd - pb * pc;
        if rules.near_zero(d) {
            tx = 0.0;
            ty = 0.0;
        } else {
            tx = (x * pd - y * pb) / d - ap.x;
            ty = (y * pa - x * pc) / d - ap.y;
        }
    }
    let flip = ap.scale_x < 0.0;
    // A full-mix pose of a child of `Inherit::Normal` with equal shears: its axes from the
    // direction to the target, its rotation on first read (`aimed_rotation`, the same
    // operations as below in the same order).
    let aimed = parent
        .filter(|_| bone.inherit == Inherit::Normal && alpha == 1.0 && ap.shear_x == ap.shear_y)
        .and_then(|p| aimed_axis(tx, ty, flip).map(|axis| (p, axis)));
    if aimed.is_none() {
        rotation_ik = one_bone_turn(rotation_ik, tx, ty, flip, rules);
    }
    let mut sx = ap.scale_x;
    let mut sy = ap.scale_y;
    if compress || stretch {
        if matches!(bone.inherit, Inherit::NoScale | Inherit::NoScaleOrReflection) {
            tx = target_x - bone.world_x;
            ty = target_y - bone.world_y;
        }
        let b = length * sx;
        if rules.length_above(b) {
            let dd = tx * tx + ty * ty;
            if (compress && dd < b * b) || (stretch && dd > b * b) {
                let s = (math::sqrt(dd) / b - 1.0) * alpha + 1.0;
                sx *= s;
                sy = scale_y(mode, sy, s);
            }
        }
    }
    let pose = AppliedPose { scale_x: sx, scale_y: sy, ..ap };
    if let Some((p, (cos, sin))) = aimed {
        let m = local_matrix_equal_shears(sin, cos, sx, sy);
        let code =
            AIM_ONE | if flip { AIM_FLIP } else { 0 } | if rules.spine43 { AIM_43 } else { 0 };
        bone.pose_normal_aimed(p, pose, [tx, ty, 0.0, code as f32], m);
        return;
    }
    let pose = AppliedPose { rotation: ap.rotation + rotation_ik * alpha, ..pose };
    bone.pose_cached(cache, parent, frame, pose);
}

/// `aim[3]` of a deferred one-bone pose (see [`aimed_rotation`]).
const AIM_ONE: u32 = 0;
/// `aim[3]` of a deferred two-bone parent pose.
const AIM_PARENT: u32 = 4;
/// `aim[3]` of a deferred two-bone child pose.
const AIM_CHILD: u32 = 8;
/// `aim[3]` kind bits.
const AIM_KIND: u32 = 12;
/// `aim[3]` flag: the solve turns the bone by 180° (a negative scale).
const AIM_FLIP: u32 = 1;
/// `aim[3]` flag: 4.3's wrap ([`IkRules::SPINE43`]).
const AIM_43: u32 = 2;
/// `aim[3]` flag: a two-bone child bends the negative way.
const AIM_BEND_NEG: u32 = 16;

/// The rotation of a full-mix IK pose deferred by `Bone::pose_normal_aimed`: `ap` is the
/// applied pose with the rotation before the solve, `aim` what the solve left (`aim[3]`
/// the kind and flags). The operations of the solve at full mix, in its order:
/// - one bone (`aim` = target offset `tx, ty`): [`apply_one_impl`]'s;
/// - two-bone parent (`aim` = `y1, x1, os`): `a1 = atan2(y1, x1)`, then
///   [`apply_two_impl`]'s `rot`;
/// - two-bone child (`aim` = `cosine, os, s2`): `a2 = acos(cosine) * bend`, then its
///   `crot`.
pub(crate) fn aimed_rotation(ap: AppliedPose, aim: [f32; 4]) -> f32 {
    let code = aim[3] as u32;
    let rules = if code & AIM_43 != 0 { IkRules::SPINE43 } else { IkRules::SPINE42 };
    let turn: f32 = if code & AIM_FLIP != 0 { 180.0 } else { 0.0 };
    match code & AIM_KIND {
        AIM_PARENT => {
            let [y1, x1, os, _] = aim;
            ap.rotation + parent_turn(math::atan2(y1, x1), os, turn, ap.rotation, rules)
        }
        AIM_CHILD => {
            let [cosine, os, s2, _] = aim;
            let bend: f32 = if code & AIM_BEND_NEG != 0 { -1.0 } else { 1.0 };
            let a2 = acos(cosine) * bend;
            ap.rotation + child_turn(a2, os, ap.shear_x, s2, turn, ap.rotation, rules)
        }
        _ => {
            let [tx, ty, _, _] = aim;
            let base = -ap.shear_x - ap.rotation;
            ap.rotation + one_bone_turn(base, tx, ty, code & AIM_FLIP != 0, rules)
        }
    }
}

/// The one-bone solve's rotation delta: `base` (the applied rotation and shear x, negated,
/// plus the parent's angle for `NoRotationOrReflection`) turned to the target offset's angle,
/// by 180° more when `flip`, wrapped.
#[inline(always)]
fn one_bone_turn(base: f32, tx: f32, ty: f32, flip: bool, rules: IkRules) -> f32 {
    let mut rotation_ik = base + math::atan2_deg(ty, tx);
    if flip {
        rotation_ik += 180.0;
    }
    rules.wrap(rotation_ik)
}

/// The two-bone solve's parent rotation delta from its angle `a1` (radians), the child's
/// offset angle `os` and the 180° turn `o1` of a negative scale, relative to `arotation`.
#[inline(always)]
fn parent_turn(a1: f32, os: f32, o1: f32, arotation: f32, rules: IkRules) -> f32 {
    rules.wrap((a1 - os) * RAD_DEG + o1 - arotation)
}

/// The two-bone solve's child rotation delta from its bend angle `a2` (radians).
#[inline(always)]
fn child_turn(
    a2: f32,
    os: f32,
    shear_x: f32,
    s2: f32,
    o2: f32,
    arotation: f32,
    rules: IkRules,
) -> f32 {
    rules.wrap(((a2 + os) * RAD_DEG - shear_x) * s2 + o2 - arotation)
}

/// The x axis (`cos, sin`) of a bone fully aimed at `(tx, ty)` (its parent-space offset to
/// the target), turned by 180° when `flip` (a negative scale x); with equal shears its y
/// axis is 90° further. That is the pose the one-bone solve sets (`rotation + shear_x` is
/// `atan2(ty, tx)` in degrees, plus 180° when flipped, up to whole turns), with the axis
/// taken from the offset itself instead of the sine and cosine of the angle computed from
/// it: the same axis within rounding (the angle's `f32` roundings are skipped), and the
/// world transform no longer waits for atan2 and then sine and cosine. `None` at a zero or
/// non-finite distance, where the angle path decides.
#[inline(always)]
fn aimed_axis(tx: f32, ty: f32, flip: bool) -> Option<(f32, f32)> {
    let (cos, sin) = math::unit(tx, ty)?;
    Some(if flip { (-cos, -sin) } else { (cos, sin) })
}

/// `MathUtil::max(a, b)` (`a > b ? a : b`).
fn max_f(a: f32, b: f32) -> f32 {
    if a > b {
        a
    } else {
        b
    }
}

/// `MathUtil::min(a, b)` (`a < b ? a : b`).
fn min_f(a: f32, b: f32) -> f32 {
    if a < b {
        a
    } else {
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skeleton::tests::bone_data;
    use crate::test_rng::Rng;

    /// The common one-bone solve on its own (`pose_one_aimed`) poses the bone as
    /// `apply_one_impl` does, bit for bit (world transform and applied pose), with both rule
    /// sets, for parents and poses of every quadrant; and it declines (nothing written) every
    /// solve it does not cover: a mix below 1, compress or stretch, unequal shears, another
    /// inherit mode.
    #[test]
    fn the_common_one_bone_solve_equals_the_general_one() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let frame = WorldFrame { x: 0.0, y: 0.0, scale_x: 1.0, scale_y: 1.0 };
        let bits = |b: &Bone| {
            let ap = b.applied();
            [b.a, b.b, b.c, b.d, b.world_x, b.world_y, ap.x, ap.y, ap.rotation, ap.scale_x]
                .map(f32::to_bits)
        };
        let (mut taken, mut declined) = (0, 0);
        for i in 0..4_000 {
            let mut next = |lo: f32, hi: f32| rng.range(lo, hi);
            let mut parent = Bone::new(&bone_data(Inherit::Normal));
            // Scales of 0.25 to 2 either sign: no near-zero determinant (which both decline).
            let mut scale = || next(0.25, 2.0) * if next(0.0, 1.0) < 0.5 { -1.0 } else { 1.0 };
            let (psx, psy) = (scale(), scale());
            let p = AppliedPose {
                x: next(-50.0, 50.0),
                y: next(-50.0, 50.0),
                rotation: next(-360.0, 360.0),
                scale_x: psx,
                scale_y: psy,
                shear_x: 0.0,
                shear_y: next(-20.0, 20.0),
            };
            parent.update_world_transform_with(None, &frame, p);
            let variant = i % 8;
            let mut child = Bone::new(&bone_data(match variant {
                6 => Inherit::NoScale,
                _ => Inherit::Normal,
            }));
            child.parent = Some(BoneId::from_index(0));
            let shear = next(-30.0, 30.0);
            let c = AppliedPose {
                x: next(-20.0, 20.0),
                y: next(-20.0, 20.0),
                rotation: next(-360.0, 360.0),
                scale_x: next(-2.0, 2.0),
                scale_y: next(-2.0, 2.0),
                shear_x: shear,
                shear_y: if variant == 5 { shear + 1.0 } else { shear },
            };
            child.update_world_transform_with(Some(parent.world()), &frame, c);
            let pose = IkPose {
                mix: if variant == 2 { 0.5 } else { 1.0 },
                softness: 0.0,
                bend_direction: 1,
                compress: variant == 3,
                stretch: variant == 4,
            };
            let target = (next(-100.0, 100.0), next(-100.0, 100.0));
            let rules = if i % 16 < 8 { IkRules::SPINE42 } else { IkRules::SPINE43 };
            let solve = IkSolve::new(target, &pose, ScaleYMode::None);
            let id = BoneId::from_index(1);
            let mut general = vec![parent.clone(), child.clone()];
            apply_one_impl(None, rules, &mut general, &frame, id, 10.0, solve);
            let mut lean = vec![parent, child.clone()];
            if pose_one_aimed(rules, &mut lean, id, target, &pose) {
                assert!(variant < 2 || variant == 7, "case {i}: variant {variant} taken");
                assert_eq!(bits(&lean[1]), bits(&general[1]), "case {i}");
                taken += 1;
            } else {
                assert_eq!(bits(&lean[1]), bits(&child), "case {i}: declined, yet wrote");
                declined += 1;
            }
        }
        // Variants 0, 1 and 7 (3 of 8) are taken, the other five declined.
        assert_eq!((taken, declined), (1_500, 2_500));
    }
}
