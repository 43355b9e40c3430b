//! The two-bone IK solve (spine-cpp 4.2 `IkConstraint::apply(parent, child, …)`, with the
//! 4.3 differences of [`IkRules`]).

use super::*;

/// spine-cpp 4.2 `IkConstraint::apply(Bone &parent, Bone &child, targetX, targetY,
/// bendDir, stretch, uniform, softness, alpha)`: [`apply_two_with`] with
/// [`IkRules::SPINE42`].
pub fn apply_two(
    bones: &mut [Bone],
    frame: &WorldFrame,
    ids: (BoneId, BoneId),
    lengths: (f32, f32),
    solve: IkSolve,
) {
    apply_two_with(IkRules::SPINE42, bones, frame, ids, lengths, solve);
}

/// spine-cpp 4.2 / 4.3 (per `rules`) `IkConstraint::apply(parent, child, targetX, targetY,
/// bendDir, stretch, uniform / scaleYMode, softness, alpha)`, the arguments after the bones
/// in `solve`. Does nothing unless both bones inherit [`Inherit::Normal`] and the parent
/// has a parent.
///
/// 4.3 writes `child._y = 0` into the child's pose when the parent scale is non-uniform or
/// with stretch; here the child is posed with that `y` (its applied `ay`), as in 4.2. The
/// near-zero parent fallback sets the child's rotation to 0 in both versions.
pub fn apply_two_with(
    rules: IkRules,
    bones: &mut [Bone],
    frame: &WorldFrame,
    ids: (BoneId, BoneId),
    lengths: (f32, f32),
    solve: IkSolve,
) {
    compute_applied(bones, &[ids.0, ids.1]);
    apply_two_impl(None, rules, bones, frame, ids, lengths, solve);
}

/// [`apply_two_with`], posing the parent through `caches[0]` and the child through
/// `caches[1]` (see [`Bone::update_world_transform_cached`]).
pub(crate) fn apply_two_impl(
    caches: Option<&mut [LocalCache; 2]>,
    rules: IkRules,
    bones: &mut [Bone],
    frame: &WorldFrame,
    (parent_id, child_id): (BoneId, BoneId),
    (parent_length, child_length): (f32, f32),
    solve: IkSolve,
) {
    let IkSolve { target_x, target_y, bend_direction: bend_dir, stretch, mix: alpha, .. } = solve;
    let (mode, mut softness) = (solve.scale_y_mode, solve.softness);
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
        let one = IkSolve { compress: false, scale_y_mode: ScaleYMode::None, ..solve };
        apply_one_impl(parent_cache, rules, bones, frame, parent_id, parent_length, one);
        let pw = parent_world(bones, child_id);
        if let Some(ch) = bones.get_mut(child_id.index()) {
            let pose = AppliedPose { x: cx, y: cy, rotation: 0.0, ..ch.applied_in_cache() };
            ch.update_world_transform_cached(child_cache, pw, frame, pose);
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
    let (hx, hy) = if rules.spine43 { (parent.ashear_x, parent.ashear_y) } else { (0.0, 0.0) };
    let parent_pose = AppliedPose {
        x: px,
        y: py,
        rotation: parent.arotation + a1 * alpha,
        scale_x: sx,
        scale_y: sy,
        shear_x: hx,
        shear_y: hy,
    };
    let child_pose = AppliedPose {
        x: cx,
        y: cy,
        rotation: child.arotation + a2 * alpha,
        scale_x: child.ascale_x,
        scale_y: child.ascale_y,
        shear_x: child.ashear_x,
        shear_y: child.ashear_y,
    };
    // Both bones inherit normally (tested above): with equal shears each local matrix is
    // one sine and cosine, and neither depends on the other's pose, so they are computed
    // as one pair (the same bits as `sin_cos_deg` per lane). Infinite and NaN angles go
    // through `pose_cached`: their NaN results may take another sign bit when computed in
    // another place.
    let (r0, r1) = (parent_pose.rotation + hx, child_pose.rotation + child_pose.shear_x);
    let child_parent = bones.get(child_id.index()).and_then(|c| c.parent);
    if hx == hy
        && child_pose.shear_x == child_pose.shear_y
        && r0.is_finite()
        && r1.is_finite()
        && child_parent.is_some_and(|p| p.index() < bones.len())
    {
        let ((ps, pc), (cs, cc)) = math::sin_cos_deg_pair(r0, r1);
        if let Some(pb) = bones.get_mut(parent_id.index()) {
            pb.pose_normal(pp, parent_pose, local_matrix_equal_shears(ps, pc, sx, sy));
        }
        let pw = parent_world(bones, child_id);
        if let (Some(ch), Some(pw)) = (bones.get_mut(child_id.index()), pw) {
            let (csx, csy) = (child_pose.scale_x, child_pose.scale_y);
            ch.pose_normal(pw, child_pose, local_matrix_equal_shears(cs, cc, csx, csy));
        }
        return;
    }
    if let Some(pb) = bones.get_mut(parent_id.index()) {
        pb.pose_cached(parent_cache, Some(pp), frame, parent_pose);
    }
    let pw = parent_world(bones, child_id);
    if let Some(ch) = bones.get_mut(child_id.index()) {
        ch.pose_cached(child_cache, pw, frame, child_pose);
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
pub(super) fn aimed_pair(
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
pub(super) struct TwoAimed {
    /// Parent and child bone.
    pub(super) ids: (BoneId, BoneId),
    /// The parent's parent's world transform.
    pub(super) pp: ParentWorld,
    /// The parent's applied `x, y, rotation` and the scales it is posed with.
    pub(super) parent: (f32, f32, f32, f32, f32),
    /// The child's `x, y` as posed, applied rotation, scales and shear (x = y).
    pub(super) child: (f32, f32, f32, f32, f32, f32),
    /// The target in the parent's parent space, relative to the parent.
    pub(super) target: (f32, f32),
    /// `l1, l2` of the solve.
    pub(super) lengths: (f32, f32),
    /// The cosine of the child's bend, in (-1, 1).
    pub(super) cosine: f32,
    /// The bend direction, ±1.
    pub(super) bend: f32,
    /// `o1 != 0`, `o2 != 0` (negative scales turn by 180°) and `s2`.
    pub(super) flips: (bool, bool, f32),
    /// 4.3's wrap.
    pub(super) spine43: bool,
}

/// Poses both bones of a full-mix uniform two-bone solve whose target is within reach:
/// their world axes from [`aimed_pair`] (the bend's sine `bend * sqrt(1 - cosine²)`, no
/// `acos` then sine), their rotations left to [`aimed_rotation`] (the parent's from the
/// vector whose atan2 is its angle, the child's from the cosine), computed on first read:
/// the world transforms no longer wait for `acos`, sine, atan2 and then sine and cosine,
/// and nothing computes the angles of most poses. `false`
/// (nothing posed) where a direction is undefined.
#[inline(always)]
pub(super) fn pose_two_aimed(bones: &mut [Bone], t: &TwoAimed) -> bool {
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
pub(super) fn ellipse_fallback(
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
pub(super) fn acos(v: f32) -> f32 {
    (v as f64).acos() as f32
}

/// The pose and world fields of a bone the two-bone solve reads (a copy, so the bones can
/// be written while it runs).
#[derive(Clone, Copy)]
pub(super) struct PoseCopy {
    pub(super) ax: f32,
    pub(super) ay: f32,
    pub(super) arotation: f32,
    pub(super) ascale_x: f32,
    pub(super) ascale_y: f32,
    pub(super) ashear_x: f32,
    pub(super) ashear_y: f32,
    pub(super) a: f32,
    pub(super) b: f32,
    pub(super) c: f32,
    pub(super) d: f32,
    pub(super) world_x: f32,
    pub(super) world_y: f32,
}

pub(super) trait ClonePose {
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
