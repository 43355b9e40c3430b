//! Spine 4.3 IK (spine-ts 4.3 `IkConstraint.update` / `apply1` / `apply2`), on the 4.3 poses of
//! `lazy43`: each bone is `modifyLocal`-ed first and only its applied local pose changes; the
//! world transforms read are the bones' current ones (the update cache recomputes the
//! constrained bones after the constraint).

use super::*;

use crate::constraints::lazy43::{Poses, EPSILON as EPSILON43};
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
    let solve = IkSolve::new((target.world_x, target.world_y), p, d.scale_y_mode);
    match d.bones[..] {
        [bone] => apply1_43(poses, data, bone, solve),
        [parent, child] => apply2_43(poses, data, parent, child, solve),
        _ => {}
    }
}

/// 4.3 `IkConstraint.apply1`. A root bone (no parent: 4.3 throws) is left alone.
fn apply1_43(poses: &mut Poses<'_>, data: &SkeletonData, id: BoneId, solve: IkSolve) {
    let IkSolve { target_x, target_y, compress, stretch, scale_y_mode, mix, .. } = solve;
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
fn apply2_43(
    poses: &mut Poses<'_>,
    data: &SkeletonData,
    parent: BoneId,
    child: BoneId,
    solve: IkSolve,
) {
    let IkSolve { target_x, target_y, stretch, scale_y_mode, mut softness, mix, .. } = solve;
    let bend_dir = solve.bend_direction as f32;
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
        let one = IkSolve { compress: false, scale_y_mode: ScaleYMode::None, ..solve };
        apply1_43(poses, data, parent, one);
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
