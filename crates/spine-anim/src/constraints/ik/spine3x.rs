//! The 3.5–3.7 IK solvers (spine-c 3.5/3.6, spine-cpp 3.7 `IkConstraint::apply`).

use super::*;

/// 3.5–3.7 `IkConstraint::apply(Bone &bone, …)` (spine-c 3.5/3.6, spine-cpp 3.7): no
/// inherit-mode handling, the parent's inverse as `1 / det` with no singular guard, and
/// (3.7) compress/stretch compare the target distance itself with the bone length.
pub fn apply_one_3x(
    bones: &mut [Bone],
    frame: &WorldFrame,
    id: BoneId,
    length: f32,
    solve: IkSolve,
) {
    let IkSolve { target_x, target_y, compress, stretch, scale_y_mode: mode, mix: alpha, .. } =
        solve;
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
    let rotation_ik = wrap_3x(rotation_ik);
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
    let rotation = ap.rotation + rotation_ik * alpha;
    let pose = AppliedPose { rotation, scale_x: sx, scale_y: sy, ..ap };
    bone.update_world_transform_with(parent, frame, pose);
}

/// 3.5–3.7 `IkConstraint::apply(Bone &parent, Bone &child, …)`: no inherit-mode check, no
/// softness, no zero-length parent path; the child keeps its y unless the parent scale is
/// non-uniform (even with stretch); (3.7) stretch scales only the parent's x; and the
/// parent is posed from its **local** rotation plus the solved delta (`parent.rotation + a1
/// * alpha`, the delta itself relative to the applied rotation).
pub fn apply_two_3x(
    bones: &mut [Bone],
    frame: &WorldFrame,
    (parent_id, child_id): (BoneId, BoneId),
    child_length: f32,
    solve: IkSolve,
) {
    let IkSolve { target_x, target_y, bend_direction: bend_dir, stretch, mix: alpha, .. } = solve;
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
    let reach = Reach3x { l1, l2: child_length * csx, psx, psy, uniform: u, tx, ty, dd, bend };
    let (a1, a2, os_raw, stretch_scale) = angles_3x(&reach, (cx, cy), stretch, alpha);
    if let Some(s) = stretch_scale {
        sx *= s;
    }
    let os = os_raw * s2;
    let a1 = wrap_3x((a1 - os) * RAD_DEG + o1 - parent.arotation);
    if let Some(pb) = bones.get_mut(parent_id.index()) {
        let pose = AppliedPose {
            x: px,
            y: py,
            rotation: parent_rotation + a1 * alpha,
            scale_x: sx,
            scale_y: parent.ascale_y,
            shear_x: 0.0,
            shear_y: 0.0,
        };
        pb.update_world_transform_with(Some(pp), frame, pose);
    }
    let a2 = wrap_3x(((a2 + os) * RAD_DEG - child.ashear_x) * s2 + o2 - child.arotation);
    let pw = parent_world(bones, child_id);
    if let Some(ch) = bones.get_mut(child_id.index()) {
        let pose = AppliedPose {
            x: cx,
            y: cy,
            rotation: child.arotation + a2 * alpha,
            scale_x: child.ascale_x,
            scale_y: child.ascale_y,
            shear_x: child.ashear_x,
            shear_y: child.ashear_y,
        };
        ch.update_world_transform_with(pw, frame, pose);
    }
}

/// `deg` wrapped into [-180, 180] by one turn (3.x: `< -180`, not `<= -180`).
#[inline]
fn wrap_3x(mut deg: f32) -> f32 {
    if deg > 180.0 {
        deg -= 360.0;
    } else if deg < -180.0 {
        deg += 360.0;
    }
    deg
}

/// The two-bone reach problem of 3.x `apply`: the lengths, the parent's absolute scales and
/// the target `(tx, ty)` (`dd` = its squared distance) in the parent's parent space.
struct Reach3x {
    l1: f32,
    l2: f32,
    psx: f32,
    psy: f32,
    /// Uniform parent scale: the law of cosines applies.
    uniform: bool,
    tx: f32,
    ty: f32,
    dd: f32,
    /// Bend direction, ±1.
    bend: f32,
}

/// The parent and child angles (radians) of 3.x `apply`, `atan2(cy, cx)` of the child's
/// position `(cx, cy)` (computed beside another angle), and the parent's x stretch when the
/// target is beyond reach.
fn angles_3x(
    r: &Reach3x,
    (cx, cy): (f32, f32),
    stretch: bool,
    alpha: f32,
) -> (f32, f32, f32, Option<f32>) {
    let Reach3x { l1, l2, psx, psy, tx, ty, dd, bend, .. } = *r;
    if r.uniform {
        let l2 = l2 * psx;
        let mut cosine = (dd - l1 * l1 - l2 * l2) / (2.0 * l1 * l2);
        let mut stretch_scale = None;
        if cosine < -1.0 {
            cosine = -1.0;
        } else if cosine > 1.0 {
            cosine = 1.0;
            if stretch && l1 + l2 > 0.0001 {
                stretch_scale = Some((math::sqrt(dd) / (l1 + l2) - 1.0) * alpha + 1.0);
            }
        }
        let a2 = acos(cosine) * bend;
        let a = l1 + l2 * cosine;
        let b = l2 * math::sin(a2);
        // The child's offset angle in the other lane.
        let (a1, os_raw) = math::atan2_pair(ty * a - tx * b, tx * a + ty * b, cy, cx);
        return (a1, a2, os_raw, stretch_scale);
    }
    let a = psx * l2;
    let b = psy * l2;
    let (ta, os_raw) = math::atan2_pair(ty, tx, cy, cx);
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
            let y = math::sqrt(dd - r * r) * bend;
            let (t1, t2) = math::atan2_pair(y, r, y / psy, (r - l1) / psx);
            return (ta - t1, t2, os_raw, None);
        }
    }
    let (a1, a2) = ellipse_fallback(a, b, l1, aa, bb, dd, ta, bend);
    (a1, a2, os_raw, None)
}
