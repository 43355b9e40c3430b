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

use spine_model::{BoneId, IkData, Inherit, ScaleYMode};

use super::{IkPose, SolverCtx};
use crate::math::{self, PI, RAD_DEG};
use crate::skeleton::{
    local_matrix_equal_shears, parent_world, AppliedPose, Bone, LocalCache, ParentWorld, WorldFrame,
};

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
    mut caches: Option<&mut [LocalCache; 2]>,
) {
    if pose.mix == 0.0 {
        return;
    }
    let Some(target) = ctx.bones.get(data.target.index()) else { return };
    let (tx, ty) = (target.world_x, target.world_y);
    let mode = data.scale_y_mode;
    if ctx.data.behaviour.ik_without_inherit {
        match *data.bones.as_slice() {
            [bone] => {
                let length = bone_length(ctx, bone);
                let (c, s) = (pose.compress, pose.stretch);
                apply_one_3x(ctx.bones, &ctx.frame, bone, length, tx, ty, c, s, mode, pose.mix);
            }
            [parent, child] => {
                let length = bone_length(ctx, child);
                let (bend, s) = (pose.bend_direction, pose.stretch);
                let bones = (parent, child);
                apply_two_3x(ctx.bones, &ctx.frame, bones, length, tx, ty, bend, s, pose.mix);
            }
            _ => {}
        }
        return;
    }
    let rules =
        if ctx.data.behaviour.ik_keeps_parent_shear { IkRules::SPINE43 } else { IkRules::SPINE42 };
    match *data.bones.as_slice() {
        [bone] => {
            let length = bone_length(ctx, bone);
            apply_one_impl(
                caches.as_mut().map(|c| &mut c[0]),
                rules,
                ctx.bones,
                &ctx.frame,
                bone,
                length,
                tx,
                ty,
                pose.compress,
                pose.stretch,
                mode,
                pose.mix,
            );
        }
        [parent, child] => {
            let lengths = (bone_length(ctx, parent), bone_length(ctx, child));
            apply_two_impl(
                caches,
                rules,
                ctx.bones,
                &ctx.frame,
                (parent, child),
                lengths,
                tx,
                ty,
                pose.bend_direction,
                pose.stretch,
                mode,
                pose.softness,
                pose.mix,
            );
        }
        _ => {}
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
#[allow(clippy::too_many_arguments)]
pub fn apply_one(
    bones: &mut [Bone],
    frame: &WorldFrame,
    id: BoneId,
    length: f32,
    target_x: f32,
    target_y: f32,
    compress: bool,
    stretch: bool,
    mode: ScaleYMode,
    alpha: f32,
) {
    let (tx, ty) = (target_x, target_y);
    let rules = IkRules::SPINE42;
    apply_one_with(rules, bones, frame, id, length, tx, ty, compress, stretch, mode, alpha);
}

/// spine-cpp 4.2 / 4.3 (per `rules`) `IkConstraint::apply(bone, targetX, targetY, compress,
/// stretch, uniform / scaleYMode, alpha)`. A root bone (no parent) is posed as if its
/// parent were the skeleton frame (spine-cpp dereferences a null parent there).
#[allow(clippy::too_many_arguments)]
pub fn apply_one_with(
    rules: IkRules,
    bones: &mut [Bone],
    frame: &WorldFrame,
    id: BoneId,
    length: f32,
    target_x: f32,
    target_y: f32,
    compress: bool,
    stretch: bool,
    mode: ScaleYMode,
    alpha: f32,
) {
    let (tx, ty) = (target_x, target_y);
    compute_applied(bones, &[id]);
    apply_one_impl(None, rules, bones, frame, id, length, tx, ty, compress, stretch, mode, alpha);
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
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn apply_one_impl(
    cache: Option<&mut LocalCache>,
    rules: IkRules,
    bones: &mut [Bone],
    frame: &WorldFrame,
    id: BoneId,
    length: f32,
    target_x: f32,
    target_y: f32,
    compress: bool,
    stretch: bool,
    mode: ScaleYMode,
    alpha: f32,
) {
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
    let (ax, ay, ar, hx, hy) = (ap.x, ap.y, ap.rotation, ap.shear_x, ap.shear_y);
    if let Some((p, (cos, sin))) = aimed {
        let m = local_matrix_equal_shears(sin, cos, sx, sy);
        let pose = AppliedPose {
            x: ax,
            y: ay,
            rotation: ar,
            scale_x: sx,
            scale_y: sy,
            shear_x: hx,
            shear_y: hy,
        };
        let code =
            AIM_ONE | if flip { AIM_FLIP } else { 0 } | if rules.spine43 { AIM_43 } else { 0 };
        bone.pose_normal_aimed(p, pose, [tx, ty, 0.0, code as f32], m);
        return;
    }
    bone.pose_cached(cache, parent, frame, ax, ay, ar + rotation_ik * alpha, sx, sy, hx, hy);
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
#[allow(clippy::too_many_arguments)]
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

/// spine-cpp 4.2 `IkConstraint::apply(Bone &parent, Bone &child, targetX, targetY,
/// bendDir, stretch, uniform, softness, alpha)`: [`apply_two_with`] with
/// [`IkRules::SPINE42`].
#[allow(clippy::too_many_arguments)]
pub fn apply_two(
    bones: &mut [Bone],
    frame: &WorldFrame,
    ids: (BoneId, BoneId),
    lengths: (f32, f32),
    target_x: f32,
    target_y: f32,
    bend_dir: i32,
    stretch: bool,
    mode: ScaleYMode,
    softness: f32,
    alpha: f32,
) {
    let (tx, ty, s) = (target_x, target_y, stretch);
    let rules = IkRules::SPINE42;
    apply_two_with(rules, bones, frame, ids, lengths, tx, ty, bend_dir, s, mode, softness, alpha);
}

/// spine-cpp 4.2 / 4.3 (per `rules`) `IkConstraint::apply(parent, child, targetX, targetY,
/// bendDir, stretch, uniform / scaleYMode, softness, alpha)`. Does nothing unless both
/// bones inherit [`Inherit::Normal`] and the parent has a parent.
///
/// 4.3 writes `child._y = 0` into the child's pose when the parent scale is non-uniform or
/// with stretch; here the child is posed with that `y` (its applied `ay`), as in 4.2. The
/// near-zero parent fallback sets the child's rotation to 0 in both versions.
#[allow(clippy::too_many_arguments)]
pub fn apply_two_with(
    rules: IkRules,
    bones: &mut [Bone],
    frame: &WorldFrame,
    (parent_id, child_id): (BoneId, BoneId),
    (parent_length, child_length): (f32, f32),
    target_x: f32,
    target_y: f32,
    bend_dir: i32,
    stretch: bool,
    mode: ScaleYMode,
    softness: f32,
    alpha: f32,
) {
    let (tx, ty, bend, s) = (target_x, target_y, bend_dir, stretch);
    let (ids, lens) = ((parent_id, child_id), (parent_length, child_length));
    compute_applied(bones, &[parent_id, child_id]);
    apply_two_impl(None, rules, bones, frame, ids, lens, tx, ty, bend, s, mode, softness, alpha);
}

/// [`apply_two_with`], posing the parent through `caches[0]` and the child through
/// `caches[1]` (see [`Bone::update_world_transform_cached`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn apply_two_impl(
    caches: Option<&mut [LocalCache; 2]>,
    rules: IkRules,
    bones: &mut [Bone],
    frame: &WorldFrame,
    (parent_id, child_id): (BoneId, BoneId),
    (parent_length, child_length): (f32, f32),
    target_x: f32,
    target_y: f32,
    bend_dir: i32,
    stretch: bool,
    mode: ScaleYMode,
    mut softness: f32,
    alpha: f32,
) {
    let (Some(parent), Some(child)) = (bones.get(parent_id.index()), bones.get(child_id.index()))
    else {
        return;
    };
    if parent.inherit != Inherit::Normal || child.inherit != Inherit::Normal {
        return;
    }
    let Some(pp) = parent_world(bones, parent_id) else { return };
    let (parent_cache, child_cache) = match caches {
        Some([p, c]) => (Some(p), Some(c)),
        None => (None, None),
    };
    let parent = parent.clone_pose();
    let child = child.clone_pose();
    let bend = bend_dir as f32;
    let px = parent.ax;
    let py = parent.ay;
    let mut psx = parent.ascale_x;
    let mut psy = parent.ascale_y;
    let mut sx = psx;
    let mut sy = psy;
    let mut csx = child.ascale_x;
    let (o1, mut s2): (f32, f32) = if psx < 0.0 {
        psx = -psx;
        (180.0, -1.0)
    } else {
        (0.0, 1.0)
    };
    if psy < 0.0 {
        psy = -psy;
        s2 = -s2;
    }
    let o2: f32 = if csx < 0.0 {
        csx = -csx;
        180.0
    } else {
        0.0
    };
    let r = psx - psy;
    let cx = child.ax;
    let u = rules.near_zero(r);
    let (cy, cwx, cwy);
    if !u || stretch {
        cy = 0.0;
        cwx = parent.a * cx + parent.world_x;
        cwy = parent.c * cx + parent.world_y;
    } else {
        cy = child.ay;
        cwx = parent.a * cx + parent.b * cy + parent.world_x;
        cwy = parent.c * cx + parent.d * cy + parent.world_y;
    }
    let (mut a, mut b, c, mut d) = (pp.a, pp.b, pp.c, pp.d);
    let mut id = a * d - b * c;
    id = if rules.near_zero(id) { 0.0 } else { 1.0 / id };
    let mut x = cwx - pp.world_x;
    let mut y = cwy - pp.world_y;
    let dx = (x * d - y * b) * id - px;
    let dy = (y * a - x * c) * id - py;
    let l1 = math::sqrt(dx * dx + dy * dy);
    let mut l2 = child_length * csx;
    if rules.length_below(l1) {
        apply_one_impl(
            parent_cache,
            rules,
            bones,
            frame,
            parent_id,
            parent_length,
            target_x,
            target_y,
            false,
            stretch,
            ScaleYMode::None,
            alpha,
        );
        let pw = parent_world(bones, child_id);
        if let Some(ch) = bones.get_mut(child_id.index()) {
            let cp = ch.applied_in_cache();
            let (csx, csy, hx, hy) = (cp.scale_x, cp.scale_y, cp.shear_x, cp.shear_y);
            ch.update_world_transform_cached(child_cache, pw, frame, cx, cy, 0.0, csx, csy, hx, hy);
        }
        return;
    }
    x = target_x - pp.world_x;
    y = target_y - pp.world_y;
    let mut tx = (x * d - y * b) * id - px;
    let mut ty = (y * a - x * c) * id - py;
    let mut dd = tx * tx + ty * ty;
    if softness != 0.0 {
        softness *= psx * (csx + 1.0) * 0.5;
        let td = math::sqrt(dd);
        let sd = td - l1 - l2 * psx + softness;
        if sd > 0.0 {
            let mut p = min_f(1.0, sd / (softness * 2.0)) - 1.0;
            p = (sd - softness * (1.0 - p * p)) / td;
            tx -= p * tx;
            ty -= p * ty;
            dd = tx * tx + ty * ty;
        }
    }
    // `os_raw` = `atan2(cy, cx)`, computed beside another angle in each branch.
    let (a1, a2, os_raw);
    'outer: {
        if u {
            l2 *= psx;
            let mut cosine = (dd - l1 * l1 - l2 * l2) / (2.0 * l1 * l2);
            let a2v;
            if cosine < -1.0 {
                cosine = -1.0;
                a2v = PI * bend;
            } else if cosine > 1.0 {
                cosine = 1.0;
                a2v = 0.0;
                if stretch {
                    a = (math::sqrt(dd) / (l1 + l2) - 1.0) * alpha + 1.0;
                    sx *= a;
                    sy = scale_y(mode, sy, a);
                }
            } else {
                // Full mix, shears the aimed axes allow: the pose from vectors, its angles
                // on first read (`pose_two_aimed`).
                let (chx, chy) = (child.ashear_x, child.ashear_y);
                let (hx, hy) =
                    if rules.spine43 { (parent.ashear_x, parent.ashear_y) } else { (0.0, 0.0) };
                if alpha == 1.0
                    && (bend == 1.0 || bend == -1.0)
                    && hx == 0.0
                    && hy == 0.0
                    && chx == chy
                    && (s2 == 1.0 || chx == 0.0)
                {
                    let two = TwoAimed {
                        ids: (parent_id, child_id),
                        pp,
                        parent: (parent.ax, parent.ay, parent.arotation, sx, sy),
                        child: (cx, cy, child.arotation, child.ascale_x, child.ascale_y, chx),
                        target: (tx, ty),
                        lengths: (l1, l2),
                        cosine,
                        bend,
                        flips: (o1 != 0.0, o2 != 0.0, s2),
                        spine43: rules.spine43,
                    };
                    if pose_two_aimed(bones, &two) {
                        return;
                    }
                }
                a2v = acos(cosine) * bend;
            }
            a = l1 + l2 * cosine;
            b = l2 * math::sin(a2v);
            // The child's offset angle in the other lane.
            (a1, os_raw) = math::atan2_pair(ty * a - tx * b, tx * a + ty * b, cy, cx);
            a2 = a2v;
        } else {
            a = psx * l2;
            b = psy * l2;
            let (ta, os) = math::atan2_pair(ty, tx, cy, cx);
            os_raw = os;
            let (aa, bb, ll) = (a * a, b * b, l1 * l1);
            let c0 = bb * ll + aa * dd - aa * bb;
            let c1 = -2.0 * bb * l1;
            let c2 = bb - aa;
            d = c1 * c1 - 4.0 * c2 * c0;
            if d >= 0.0 {
                let mut q = math::sqrt(d);
                if c1 < 0.0 {
                    q = -q;
                }
                q = -(c1 + q) * 0.5;
                let r0 = q / c2;
                let r1 = c0 / q;
                let r = if math::abs(r0) < math::abs(r1) { r0 } else { r1 };
                if dd - r * r >= 0.0 {
                    y = math::sqrt(dd - r * r) * bend;
                    let (t1, t2) = math::atan2_pair(y, r, y / psy, (r - l1) / psx);
                    a1 = ta - t1;
                    a2 = t2;
                    break 'outer;
                }
            }
            (a1, a2) = ellipse_fallback(a, b, l1, aa, bb, dd, ta, bend);
        }
    }
    let os = os_raw * s2;
    let a1 = parent_turn(a1, os, o1, parent.arotation, rules);
    let a2 = child_turn(a2, os, child.ashear_x, s2, o2, child.arotation, rules);
    let rot = parent.arotation + a1 * alpha;
    let (hx, hy) = if rules.spine43 { (parent.ashear_x, parent.ashear_y) } else { (0.0, 0.0) };
    let crot = child.arotation + a2 * alpha;
    let (chx, chy) = (child.ashear_x, child.ashear_y);
    // Both bones inherit normally (tested above): with equal shears each local matrix is
    // one sine and cosine, and neither depends on the other's pose, so they are computed
    // as one pair (the same bits as `sin_cos_deg` per lane). Infinite and NaN angles go
    // through `pose_cached`: their NaN results may take another sign bit when computed in
    // another place.
    let (r0, r1) = (rot + hx, crot + chx);
    let child_parent = bones.get(child_id.index()).and_then(|c| c.parent);
    if hx == hy
        && chx == chy
        && r0.is_finite()
        && r1.is_finite()
        && child_parent.is_some_and(|p| p.index() < bones.len())
    {
        let ((ps, pc), (cs, cc)) = math::sin_cos_deg_pair(r0, r1);
        if let Some(pb) = bones.get_mut(parent_id.index()) {
            let m = local_matrix_equal_shears(ps, pc, sx, sy);
            pb.pose_normal(pp, px, py, rot, sx, sy, hx, hy, m);
        }
        let pw = parent_world(bones, child_id);
        if let (Some(ch), Some(pw)) = (bones.get_mut(child_id.index()), pw) {
            let (csx, csy) = (child.ascale_x, child.ascale_y);
            let m = local_matrix_equal_shears(cs, cc, csx, csy);
            ch.pose_normal(pw, cx, cy, crot, csx, csy, chx, chy, m);
        }
        return;
    }
    if let Some(pb) = bones.get_mut(parent_id.index()) {
        pb.pose_cached(parent_cache, Some(pp), frame, px, py, rot, sx, sy, hx, hy);
    }
    let pw = parent_world(bones, child_id);
    if let Some(ch) = bones.get_mut(child_id.index()) {
        let (csx, csy) = (child.ascale_x, child.ascale_y);
        ch.pose_cached(child_cache, pw, frame, cx, cy, crot, csx, csy, chx, chy);
    }
}

/// `((sin, cos), (sin, cos))` of the parent's and the child's x axes after a full-mix
/// uniform two-bone solve, from the solve's vectors instead of its angles (as
/// [`aimed_axis`] does for one bone), before the 180° turns of negative scales: the
/// parent's axis is the direction of `(x1, y1)` = `(tx * a + ty * b, ty * a - tx * b)`
/// (whose atan2 is the solve's `a1`) turned back by the child's offset angle `os`
/// (`atan2(cy, cx)`, times `s2`), the child's is its bend angle (cosine `ca`, sine `sa`)
/// turned by `os`, its sine times `s2`. `None` where a direction is undefined (a zero or
/// non-finite vector), where the angle path decides.
#[inline(always)]
fn aimed_pair(
    x1: f32,
    y1: f32,
    (cx, cy): (f32, f32),
    (ca, sa): (f32, f32),
    s2: f32,
) -> Option<((f32, f32), (f32, f32))> {
    let ((c1, s1), (co, so)) = (math::unit(x1, y1)?, math::unit(cx, cy)?);
    let so = s2 * so;
    let parent = (s1 * co - c1 * so, c1 * co + s1 * so);
    let child = (s2 * (sa * co + ca * so), ca * co - sa * so);
    Some((parent, child))
}

/// What [`pose_two_aimed`] needs of a uniform two-bone solve whose target is within reach.
struct TwoAimed {
    /// Parent and child bone.
    ids: (BoneId, BoneId),
    /// The parent's parent's world transform.
    pp: ParentWorld,
    /// The parent's applied `x, y, rotation` and the scales it is posed with.
    parent: (f32, f32, f32, f32, f32),
    /// The child's `x, y` as posed, applied rotation, scales and shear (x = y).
    child: (f32, f32, f32, f32, f32, f32),
    /// The target in the parent's parent space, relative to the parent.
    target: (f32, f32),
    /// `l1, l2` of the solve.
    lengths: (f32, f32),
    /// The cosine of the child's bend, in (-1, 1).
    cosine: f32,
    /// The bend direction, ±1.
    bend: f32,
    /// `o1 != 0`, `o2 != 0` (negative scales turn by 180°) and `s2`.
    flips: (bool, bool, f32),
    /// 4.3's wrap.
    spine43: bool,
}

/// Poses both bones of a full-mix uniform two-bone solve whose target is within reach:
/// their world axes from [`aimed_pair`] (the bend's sine `bend * sqrt(1 - cosine²)`, no
/// `acos` then sine), their rotations left to [`aimed_rotation`] (the parent's from the
/// vector whose atan2 is its angle, the child's from the cosine), computed on first read:
/// the world transforms no longer wait for `acos`, sine, atan2 and then sine and cosine,
/// and nothing computes the angles of most poses. `false`
/// (nothing posed) where a direction is undefined.
#[inline(always)]
fn pose_two_aimed(bones: &mut [Bone], t: &TwoAimed) -> bool {
    let (parent_id, child_id) = t.ids;
    let (tx, ty) = t.target;
    let (l1, l2) = t.lengths;
    let (flip1, flip2, s2) = t.flips;
    let (cx, cy, car, csx, csy, chx) = t.child;
    let (px, py, par, sx, sy) = t.parent;
    let child_parent_ok =
        bones.get(child_id.index()).and_then(|c| c.parent).is_some_and(|p| p.index() < bones.len());
    if !child_parent_ok || parent_id.index() >= bones.len() {
        return false;
    }
    let sine = t.bend * math::sqrt(1.0 - t.cosine * t.cosine);
    let (a, b) = (l1 + l2 * t.cosine, l2 * sine);
    let (x1, y1) = (tx * a + ty * b, ty * a - tx * b);
    let Some(((ps, pc), (cs, cc))) = aimed_pair(x1, y1, (cx, cy), (t.cosine, sine), s2) else {
        return false;
    };
    let os = math::atan2(cy, cx) * s2;
    let turn = |(s, c): (f32, f32), flip: bool| if flip { (-s, -c) } else { (s, c) };
    let ((ps, pc), (cs, cc)) = (turn((ps, pc), flip1), turn((cs, cc), flip2));
    let rules = if t.spine43 { AIM_43 } else { 0 };
    let flag = |on: bool, bit: u32| if on { bit } else { 0 };
    if let Some(pb) = bones.get_mut(parent_id.index()) {
        let pose = AppliedPose {
            x: px,
            y: py,
            rotation: par,
            scale_x: sx,
            scale_y: sy,
            shear_x: 0.0,
            shear_y: 0.0,
        };
        let code = AIM_PARENT | flag(flip1, AIM_FLIP) | rules;
        let m = local_matrix_equal_shears(ps, pc, sx, sy);
        pb.pose_normal_aimed(t.pp, pose, [y1, x1, os, code as f32], m);
    }
    let pw = parent_world(bones, child_id);
    if let (Some(ch), Some(pw)) = (bones.get_mut(child_id.index()), pw) {
        let pose = AppliedPose {
            x: cx,
            y: cy,
            rotation: car,
            scale_x: csx,
            scale_y: csy,
            shear_x: chx,
            shear_y: chx,
        };
        let code = AIM_CHILD | flag(flip2, AIM_FLIP) | flag(t.bend < 0.0, AIM_BEND_NEG) | rules;
        let m = local_matrix_equal_shears(cs, cc, csx, csy);
        ch.pose_normal_aimed(pw, pose, [t.cosine, os, s2, code as f32], m);
    }
    true
}

/// The two-bone solve when the target is out of reach: the closest or farthest point of the
/// ellipse the child's tip can reach (spine-cpp `IkConstraint::apply`, identical in every
/// version). Returns the parent and child angles `(a1, a2)` in radians.
#[allow(clippy::too_many_arguments)]
fn ellipse_fallback(
    a: f32,
    b: f32,
    l1: f32,
    aa: f32,
    bb: f32,
    dd: f32,
    ta: f32,
    bend: f32,
) -> (f32, f32) {
    let (mut min_angle, mut min_x, mut min_y) = (PI, l1 - a, 0.0f32);
    let mut min_dist = min_x * min_x;
    let (mut max_angle, mut max_x, mut max_y) = (0.0f32, l1 + a, 0.0f32);
    let mut max_dist = max_x * max_x;
    let c0 = -a * l1 / (aa - bb);
    if (-1.0..=1.0).contains(&c0) {
        let c0 = acos(c0);
        let (sin_c0, cos_c0) = math::sin_cos(c0);
        let x = a * cos_c0 + l1;
        let y = b * sin_c0;
        let d = x * x + y * y;
        if d < min_dist {
            min_angle = c0;
            min_dist = d;
            min_x = x;
            min_y = y;
        }
        if d > max_dist {
            max_angle = c0;
            max_dist = d;
            max_x = x;
            max_y = y;
        }
    }
    if dd <= (min_dist + max_dist) * 0.5 {
        (ta - math::atan2(min_y * bend, min_x), min_angle * bend)
    } else {
        (ta - math::atan2(max_y * bend, max_x), max_angle * bend)
    }
}

/// `MathUtil::acos` (`acos` of the float).
fn acos(v: f32) -> f32 {
    (v as f64).acos() as f32
}

/// The pose and world fields of a bone the two-bone solve reads (a copy, so the bones can
/// be written while it runs).
#[derive(Clone, Copy)]
struct PoseCopy {
    ax: f32,
    ay: f32,
    arotation: f32,
    ascale_x: f32,
    ascale_y: f32,
    ashear_x: f32,
    ashear_y: f32,
    a: f32,
    b: f32,
    c: f32,
    d: f32,
    world_x: f32,
    world_y: f32,
}

trait ClonePose {
    fn clone_pose(&self) -> PoseCopy;
}

impl ClonePose for Bone {
    fn clone_pose(&self) -> PoseCopy {
        let p = self.applied_in_cache();
        PoseCopy {
            ax: p.x,
            ay: p.y,
            arotation: p.rotation,
            ascale_x: p.scale_x,
            ascale_y: p.scale_y,
            ashear_x: p.shear_x,
            ashear_y: p.shear_y,
            a: self.a,
            b: self.b,
            c: self.c,
            d: self.d,
            world_x: self.world_x,
            world_y: self.world_y,
        }
    }
}

/// 3.5–3.7 `IkConstraint::apply(Bone &bone, …)` (spine-c 3.5/3.6, spine-cpp 3.7): no
/// inherit-mode handling, the parent's inverse as `1 / det` with no singular guard, and
/// (3.7) compress/stretch compare the target distance itself with the bone length.
#[allow(clippy::too_many_arguments)]
pub fn apply_one_3x(
    bones: &mut [Bone],
    frame: &WorldFrame,
    id: BoneId,
    length: f32,
    target_x: f32,
    target_y: f32,
    compress: bool,
    stretch: bool,
    mode: ScaleYMode,
    alpha: f32,
) {
    compute_applied(bones, &[id]);
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
    let inv = 1.0 / (p.a * p.d - p.b * p.c);
    let x = target_x - p.world_x;
    let y = target_y - p.world_y;
    let tx = (x * p.d - y * p.b) * inv - ap.x;
    let ty = (y * p.a - x * p.c) * inv - ap.y;
    let mut rotation_ik = math::atan2(ty, tx) * RAD_DEG - ap.shear_x - ap.rotation;
    if ap.scale_x < 0.0 {
        rotation_ik += 180.0;
    }
    if rotation_ik > 180.0 {
        rotation_ik -= 360.0;
    } else if rotation_ik < -180.0 {
        rotation_ik += 360.0;
    }
    let mut sx = ap.scale_x;
    let mut sy = ap.scale_y;
    if compress || stretch {
        let b = length * sx;
        let dd = math::sqrt(tx * tx + ty * ty);
        if ((compress && dd < b) || (stretch && dd > b)) && b > 0.0001 {
            let s = (dd / b - 1.0) * alpha + 1.0;
            sx *= s;
            sy = scale_y(mode, sy, s);
        }
    }
    let (ax, ay, ar, hx, hy) = (ap.x, ap.y, ap.rotation, ap.shear_x, ap.shear_y);
    bone.update_world_transform_with(
        parent,
        frame,
        ax,
        ay,
        ar + rotation_ik * alpha,
        sx,
        sy,
        hx,
        hy,
    );
}

/// 3.5–3.7 `IkConstraint::apply(Bone &parent, Bone &child, …)`: no inherit-mode check, no
/// softness, no zero-length parent path; the child keeps its y unless the parent scale is
/// non-uniform (even with stretch); (3.7) stretch scales only the parent's x; and the
/// parent is posed from its **local** rotation plus the solved delta (`parent.rotation + a1
/// * alpha`, the delta itself relative to the applied rotation).
#[allow(clippy::too_many_arguments)]
pub fn apply_two_3x(
    bones: &mut [Bone],
    frame: &WorldFrame,
    (parent_id, child_id): (BoneId, BoneId),
    child_length: f32,
    target_x: f32,
    target_y: f32,
    bend_dir: i32,
    stretch: bool,
    alpha: f32,
) {
    compute_applied(bones, &[parent_id, child_id]);
    let (Some(parent), Some(child)) = (bones.get(parent_id.index()), bones.get(child_id.index()))
    else {
        return;
    };
    let Some(pp) = parent_world(bones, parent_id) else { return };
    let parent_rotation = parent.rotation;
    let parent = parent.clone_pose();
    let child = child.clone_pose();
    let bend = bend_dir as f32;
    let px = parent.ax;
    let py = parent.ay;
    let mut psx = parent.ascale_x;
    let mut sx = psx;
    let mut psy = parent.ascale_y;
    let mut csx = child.ascale_x;
    let (o1, mut s2): (f32, f32) = if psx < 0.0 {
        psx = -psx;
        (180.0, -1.0)
    } else {
        (0.0, 1.0)
    };
    if psy < 0.0 {
        psy = -psy;
        s2 = -s2;
    }
    let o2: f32 = if csx < 0.0 {
        csx = -csx;
        180.0
    } else {
        0.0
    };
    let r = psx - psy;
    let cx = child.ax;
    let u = (if r < 0.0 { -r } else { r }) <= 0.0001;
    let (cy, cwx, cwy);
    if !u {
        cy = 0.0;
        cwx = parent.a * cx + parent.world_x;
        cwy = parent.c * cx + parent.world_y;
    } else {
        cy = child.ay;
        cwx = parent.a * cx + parent.b * cy + parent.world_x;
        cwy = parent.c * cx + parent.d * cy + parent.world_y;
    }
    let inv = 1.0 / (pp.a * pp.d - pp.b * pp.c);
    let mut x = target_x - pp.world_x;
    let mut y = target_y - pp.world_y;
    let tx = (x * pp.d - y * pp.b) * inv - px;
    let ty = (y * pp.a - x * pp.c) * inv - py;
    let dd = tx * tx + ty * ty;
    x = cwx - pp.world_x;
    y = cwy - pp.world_y;
    let dx = (x * pp.d - y * pp.b) * inv - px;
    let dy = (y * pp.a - x * pp.c) * inv - py;
    let l1 = math::sqrt(dx * dx + dy * dy);
    let mut l2 = child_length * csx;
    // `os_raw` = `atan2(cy, cx)`, computed beside another angle in each branch.
    let (a1, a2, os_raw);
    'outer: {
        if u {
            l2 *= psx;
            let mut cosine = (dd - l1 * l1 - l2 * l2) / (2.0 * l1 * l2);
            if cosine < -1.0 {
                cosine = -1.0;
            } else if cosine > 1.0 {
                cosine = 1.0;
                if stretch && l1 + l2 > 0.0001 {
                    sx *= (math::sqrt(dd) / (l1 + l2) - 1.0) * alpha + 1.0;
                }
            }
            let a2v = acos(cosine) * bend;
            let a = l1 + l2 * cosine;
            let b = l2 * math::sin(a2v);
            // The child's offset angle in the other lane.
            (a1, os_raw) = math::atan2_pair(ty * a - tx * b, tx * a + ty * b, cy, cx);
            a2 = a2v;
        } else {
            let a = psx * l2;
            let b = psy * l2;
            let (ta, os) = math::atan2_pair(ty, tx, cy, cx);
            os_raw = os;
            let (aa, bb, ll) = (a * a, b * b, l1 * l1);
            let c0 = bb * ll + aa * dd - aa * bb;
            let c1 = -2.0 * bb * l1;
            let c2 = bb - aa;
            let d = c1 * c1 - 4.0 * c2 * c0;
            if d >= 0.0 {
                let mut q = math::sqrt(d);
                if c1 < 0.0 {
                    q = -q;
                }
                q = -(c1 + q) / 2.0;
                let r0 = q / c2;
                let r1 = c0 / q;
                let r = if math::abs(r0) < math::abs(r1) { r0 } else { r1 };
                if r * r <= dd {
                    y = math::sqrt(dd - r * r) * bend;
                    let (t1, t2) = math::atan2_pair(y, r, y / psy, (r - l1) / psx);
                    a1 = ta - t1;
                    a2 = t2;
                    break 'outer;
                }
            }
            (a1, a2) = ellipse_fallback(a, b, l1, aa, bb, dd, ta, bend);
        }
    }
    let os = os_raw * s2;
    let mut a1 = (a1 - os) * RAD_DEG + o1 - parent.arotation;
    if a1 > 180.0 {
        a1 -= 360.0;
    } else if a1 < -180.0 {
        a1 += 360.0;
    }
    if let Some(pb) = bones.get_mut(parent_id.index()) {
        let rot = parent_rotation + a1 * alpha;
        let psy = parent.ascale_y;
        pb.update_world_transform_with(Some(pp), frame, px, py, rot, sx, psy, 0.0, 0.0);
    }
    let mut a2 = ((a2 + os) * RAD_DEG - child.ashear_x) * s2 + o2 - child.arotation;
    if a2 > 180.0 {
        a2 -= 360.0;
    } else if a2 < -180.0 {
        a2 += 360.0;
    }
    let pw = parent_world(bones, child_id);
    if let Some(ch) = bones.get_mut(child_id.index()) {
        let rot = child.arotation + a2 * alpha;
        let (csx, csy, hx, hy) = (child.ascale_x, child.ascale_y, child.ashear_x, child.ashear_y);
        ch.update_world_transform_with(pw, frame, cx, cy, rot, csx, csy, hx, hy);
    }
}

// ---------------------------------------------------------------------------------------
// Spine 4.3 (spine-ts 4.3 `IkConstraint.update` / `apply1` / `apply2`), on the 4.3 poses of
// `lazy43`: each bone is `modifyLocal`-ed first and only its applied local pose changes; the
// world transforms read are the bones' current ones (the update cache recomputes the
// constrained bones after the constraint).

use super::lazy43::{Poses, EPSILON as EPSILON43};
use spine_model::SkeletonData;

fn signum43(v: f32) -> f32 {
    if v > 0.0 {
        1.0
    } else if v < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// 4.3 `IkConstraint.update`.
pub(crate) fn update43(poses: &mut Poses<'_>, data: &SkeletonData, d: &IkData, p: &mut IkPose) {
    if p.mix == 0.0 {
        return;
    }
    let Some(target) = poses.bones.get(d.target.index()) else { return };
    let (tx, ty) = (target.world_x, target.world_y);
    match d.bones[..] {
        [bone] => {
            apply1_43(poses, data, bone, tx, ty, p.compress, p.stretch, d.scale_y_mode, p.mix)
        }
        [parent, child] => apply2_43(
            poses,
            data,
            parent,
            child,
            tx,
            ty,
            p.bend_direction as f32,
            p.stretch,
            d.scale_y_mode,
            p.softness,
            p.mix,
        ),
        _ => {}
    }
}

/// 4.3 `IkConstraint.apply1`. A root bone (no parent: 4.3 throws) is left alone.
#[allow(clippy::too_many_arguments)]
fn apply1_43(
    poses: &mut Poses<'_>,
    data: &SkeletonData,
    id: BoneId,
    target_x: f32,
    target_y: f32,
    compress: bool,
    stretch: bool,
    scale_y_mode: ScaleYMode,
    mix: f32,
) {
    let Some(parent) = poses.bones.get(id.index()).and_then(|b| b.parent) else { return };
    poses.modify_local(id);
    let Some(p) = poses.bones.get(parent.index()).map(Bone::world) else { return };
    let inherit = poses.inherit(id);
    let (sx, sy) = (poses.frame.scale_x, poses.frame.scale_y);
    let length = data.bones.get(id.index()).map_or(0.0, |b| b.length);
    let Some(bone) = poses.bones.get_mut(id.index()) else { return };
    let (world_x, world_y) = (bone.world_x, bone.world_y);
    let ap = bone.applied_mut();
    let (pa, mut pb, pc, mut pd) = (p.a, p.b, p.c, p.d);
    let mut rotation_ik = -ap.shear_x - ap.rotation;
    let (mut tx, mut ty);
    if inherit == Inherit::OnlyTranslation {
        tx = (target_x - world_x) * signum43(sx);
        ty = (target_y - world_y) * signum43(sy);
    } else {
        if inherit == Inherit::NoRotationOrReflection {
            let s = math::abs(pa * pd - pb * pc) / EPSILON43.max(pa * pa + pc * pc);
            let sa = pa / sx;
            let sc = pc / sy;
            pb = -sc * s * sx;
            pd = sa * s * sy;
            rotation_ik += math::atan2_deg(sc, sa);
        }
        let (x, y) = (target_x - p.world_x, target_y - p.world_y);
        let d = pa * pd - pb * pc;
        if math::abs(d) <= EPSILON43 {
            tx = 0.0;
            ty = 0.0;
        } else {
            tx = (x * pd - y * pb) / d - ap.x;
            ty = (y * pa - x * pc) / d - ap.y;
        }
    }
    rotation_ik += math::atan2_deg(ty, tx);
    if ap.scale_x < 0.0 {
        rotation_ik += 180.0;
    }
    if rotation_ik > 180.0 {
        rotation_ik -= 360.0;
    } else if rotation_ik <= -180.0 {
        rotation_ik += 360.0;
    }
    ap.rotation += rotation_ik * mix;
    if compress || stretch {
        if matches!(inherit, Inherit::NoScale | Inherit::NoScaleOrReflection) {
            tx = target_x - world_x;
            ty = target_y - world_y;
        }
        let b = length * ap.scale_x;
        if b > EPSILON43 {
            let dd = tx * tx + ty * ty;
            if (compress && dd < b * b) || (stretch && dd > b * b) {
                let s = (math::sqrt(dd) / b - 1.0) * mix + 1.0;
                ap.scale_x *= s;
                match scale_y_mode {
                    ScaleYMode::Uniform => ap.scale_y *= s,
                    ScaleYMode::Volume => {
                        ap.scale_y /= if s < 0.7 { 0.25 + 0.642857 * s } else { s };
                    }
                    ScaleYMode::None => {}
                }
            }
        }
    }
}

/// 4.3 `IkConstraint.apply2`. A parent without a parent (4.3 throws) is left alone.
#[allow(clippy::too_many_arguments)]
fn apply2_43(
    poses: &mut Poses<'_>,
    data: &SkeletonData,
    parent: BoneId,
    child: BoneId,
    target_x: f32,
    target_y: f32,
    bend_dir: f32,
    stretch: bool,
    scale_y_mode: ScaleYMode,
    mut softness: f32,
    mix: f32,
) {
    if poses.inherit(parent) != Inherit::Normal || poses.inherit(child) != Inherit::Normal {
        return;
    }
    let Some(pp_id) = poses.bones.get(parent.index()).and_then(|b| b.parent) else { return };
    if poses.bones.get(child.index()).is_none() {
        return;
    }
    poses.modify_local(parent);
    poses.modify_local(child);
    let bones = &mut *poses.bones;
    let pap = bones[parent.index()].applied();
    let pw = bones[parent.index()].world();
    let mut cap = bones[child.index()].applied();
    let (px, py) = (pap.x, pap.y);
    let (mut psx, mut psy, mut csx) = (pap.scale_x, pap.scale_y, cap.scale_x);
    let (os1, mut s2);
    if psx < 0.0 {
        psx = -psx;
        os1 = 180.0;
        s2 = -1.0;
    } else {
        os1 = 0.0;
        s2 = 1.0;
    }
    if psy < 0.0 {
        psy = -psy;
        s2 = -s2;
    }
    let os2 = if csx < 0.0 {
        csx = -csx;
        180.0
    } else {
        0.0
    };
    let (cwx, cwy);
    let (mut a, mut b, mut c, mut d) = (pw.a, pw.b, pw.c, pw.d);
    let u = math::abs(psx - psy) <= EPSILON43;
    if !u || stretch {
        cap.y = 0.0;
        cwx = a * cap.x + pw.world_x;
        cwy = c * cap.x + pw.world_y;
    } else {
        cwx = a * cap.x + b * cap.y + pw.world_x;
        cwy = c * cap.x + d * cap.y + pw.world_y;
    }
    bones[child.index()].set_applied(cap);
    let pp = bones[pp_id.index()].world();
    (a, b, c, d) = (pp.a, pp.b, pp.c, pp.d);
    let mut id = a * d - b * c;
    let (mut x, mut y) = (cwx - pp.world_x, cwy - pp.world_y);
    id = if math::abs(id) <= EPSILON43 { 0.0 } else { 1.0 / id };
    let dx = (x * d - y * b) * id - px;
    let dy = (y * a - x * c) * id - py;
    let l1 = math::sqrt(dx * dx + dy * dy);
    let mut l2 = data.bones.get(child.index()).map_or(0.0, |b| b.length) * csx;
    if l1 < EPSILON43 {
        apply1_43(poses, data, parent, target_x, target_y, false, stretch, ScaleYMode::None, mix);
        if let Some(cb) = poses.bones.get_mut(child.index()) {
            cb.applied_mut().rotation = 0.0;
        }
        return;
    }
    x = target_x - pp.world_x;
    y = target_y - pp.world_y;
    let mut tx = (x * d - y * b) * id - px;
    let mut ty = (y * a - x * c) * id - py;
    let mut dd = tx * tx + ty * ty;
    if softness != 0.0 {
        softness *= psx * (csx + 1.0) * 0.5;
        let td = math::sqrt(dd);
        let sd = td - l1 - l2 * psx + softness;
        if sd > 0.0 {
            let mut p = (sd / (softness * 2.0)).min(1.0) - 1.0;
            p = (sd - softness * (1.0 - p * p)) / td;
            tx -= p * tx;
            ty -= p * ty;
            dd = tx * tx + ty * ty;
        }
    }
    let (a1, a2);
    let mut parent_scale = None;
    'outer: {
        if u {
            l2 *= psx;
            let mut cos = (dd - l1 * l1 - l2 * l2) / (2.0 * l1 * l2);
            let a2v;
            if cos < -1.0 {
                cos = -1.0;
                a2v = PI * bend_dir;
            } else if cos > 1.0 {
                cos = 1.0;
                a2v = 0.0;
                if stretch {
                    parent_scale = Some((math::sqrt(dd) / (l1 + l2) - 1.0) * mix + 1.0);
                }
            } else {
                a2v = acos(cos) * bend_dir;
            }
            a2 = a2v;
            let aa = l1 + l2 * cos;
            let bb = l2 * math::sin(a2);
            a1 = math::atan2(ty * aa - tx * bb, tx * aa + ty * bb);
        } else {
            let a = psx * l2;
            let b = psy * l2;
            let (aa, bb, ta) = (a * a, b * b, math::atan2(ty, tx));
            let c = bb * l1 * l1 + aa * dd - aa * bb;
            let c1 = -2.0 * bb * l1;
            let c2 = bb - aa;
            let d = c1 * c1 - 4.0 * c2 * c;
            if d >= 0.0 {
                let mut q = math::sqrt(d);
                if c1 < 0.0 {
                    q = -q;
                }
                q = -(c1 + q) * 0.5;
                let r0 = q / c2;
                let r1 = c / q;
                let r = if math::abs(r0) < math::abs(r1) { r0 } else { r1 };
                let r0 = dd - r * r;
                if r0 >= 0.0 {
                    let y = math::sqrt(r0) * bend_dir;
                    a1 = ta - math::atan2(y, r);
                    a2 = math::atan2(y / psy, (r - l1) / psx);
                    break 'outer;
                }
            }
            let (mut min_angle, mut min_x, mut min_y) = (PI, l1 - a, 0.0);
            let mut min_dist = min_x * min_x;
            let (mut max_angle, mut max_x, mut max_y) = (0.0, l1 + a, 0.0);
            let mut max_dist = max_x * max_x;
            let c = -a * l1 / (aa - bb);
            if (-1.0..=1.0).contains(&c) {
                let c = acos(c);
                let (sin, cos) = math::sin_cos(c);
                let x = a * cos + l1;
                let y = b * sin;
                let d = x * x + y * y;
                if d < min_dist {
                    min_angle = c;
                    min_dist = d;
                    min_x = x;
                    min_y = y;
                }
                if d > max_dist {
                    max_angle = c;
                    max_dist = d;
                    max_x = x;
                    max_y = y;
                }
            }
            if dd <= (min_dist + max_dist) * 0.5 {
                a1 = ta - math::atan2(min_y * bend_dir, min_x);
                a2 = min_angle * bend_dir;
            } else {
                a1 = ta - math::atan2(max_y * bend_dir, max_x);
                a2 = max_angle * bend_dir;
            }
        }
    }
    let bones = &mut *poses.bones;
    let cap = bones[child.index()].applied();
    let os = math::atan2(cap.y, cap.x) * s2;
    let pap = bones[parent.index()].applied_mut();
    if let Some(s) = parent_scale {
        pap.scale_x *= s;
        match scale_y_mode {
            ScaleYMode::Uniform => pap.scale_y *= s,
            ScaleYMode::Volume => pap.scale_y /= if s < 0.7 { 0.25 + 0.642857 * s } else { s },
            ScaleYMode::None => {}
        }
    }
    let mut a1 = (a1 - os) * RAD_DEG + os1 - pap.rotation;
    if a1 > 180.0 {
        a1 -= 360.0;
    } else if a1 <= -180.0 {
        a1 += 360.0;
    }
    pap.rotation += a1 * mix;
    let cap = bones[child.index()].applied_mut();
    let mut a2 = ((a2 + os) * RAD_DEG - cap.shear_x) * s2 + os2 - cap.rotation;
    if a2 > 180.0 {
        a2 -= 360.0;
    } else if a2 <= -180.0 {
        a2 += 360.0;
    }
    cap.rotation += a2 * mix;
}
