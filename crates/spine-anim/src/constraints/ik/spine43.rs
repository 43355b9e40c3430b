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

/// The two-bone chain of 4.3 `apply2`, measured in the space of the parent's parent.
struct Chain43 {
    /// The parent's applied position.
    px: f32,
    py: f32,
    /// The parent's absolute scales and the child's absolute x scale.
    psx: f32,
    psy: f32,
    csx: f32,
    /// Angle offsets (degrees) of a negative parent / child x scale, and the sign of the
    /// parent's scales' product.
    os1: f32,
    os2: f32,
    s2: f32,
    /// Uniform parent scale: the law of cosines applies.
    uniform: bool,
    /// The parent's parent's world matrix `a, b, c, d`, its position, and `1 / det` (0 when
    /// singular).
    pp: [f32; 4],
    pp_world: (f32, f32),
    inv_det: f32,
    /// Parent (to the child) and child lengths.
    l1: f32,
    l2: f32,
}

impl Chain43 {
    /// World point `(x, y)` in the parent's parent space, relative to the parent.
    #[inline]
    fn local(&self, x: f32, y: f32) -> (f32, f32) {
        let [a, b, c, d] = self.pp;
        let (x, y) = (x - self.pp_world.0, y - self.pp_world.1);
        ((x * d - y * b) * self.inv_det - self.px, (y * a - x * c) * self.inv_det - self.py)
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
    if poses.inherit(parent) != Inherit::Normal || poses.inherit(child) != Inherit::Normal {
        return;
    }
    let Some(pp_id) = poses.bones.get(parent.index()).and_then(|b| b.parent) else { return };
    if poses.bones.get(child.index()).is_none() {
        return;
    }
    poses.modify_local(parent);
    poses.modify_local(child);
    let child_length = data.bones.get(child.index()).map_or(0.0, |b| b.length);
    let chain = measure43(poses.bones, [pp_id, parent, child], child_length, solve.stretch);
    if chain.l1 < EPSILON43 {
        let one = IkSolve { compress: false, scale_y_mode: ScaleYMode::None, ..solve };
        apply1_43(poses, data, parent, one);
        if let Some(cb) = poses.bones.get_mut(child.index()) {
            cb.applied_mut().rotation = 0.0;
        }
        return;
    }
    let (tx, ty, dd) = soft_target43(&chain, &solve);
    let (a1, a2, parent_scale) = angles43(&chain, tx, ty, dd, &solve);
    let bones = &mut *poses.bones;
    let cap = bones[child.index()].applied();
    let os = math::atan2(cap.y, cap.x) * chain.s2;
    let pap = bones[parent.index()].applied_mut();
    if let Some(s) = parent_scale {
        pap.scale_x *= s;
        match solve.scale_y_mode {
            ScaleYMode::Uniform => pap.scale_y *= s,
            ScaleYMode::Volume => pap.scale_y /= if s < 0.7 { 0.25 + 0.642857 * s } else { s },
            ScaleYMode::None => {}
        }
    }
    let mix = solve.mix;
    pap.rotation += wrap180(((a1 - os) * RAD_DEG + chain.os1) - pap.rotation) * mix;
    let cap = bones[child.index()].applied_mut();
    let a2 = ((a2 + os) * RAD_DEG - cap.shear_x) * chain.s2 + chain.os2 - cap.rotation;
    cap.rotation += wrap180(a2) * mix;
}

/// `deg` wrapped into (-180, 180] by one turn.
#[inline]
fn wrap180(mut deg: f32) -> f32 {
    if deg > 180.0 {
        deg -= 360.0;
    } else if deg <= -180.0 {
        deg += 360.0;
    }
    deg
}

/// Measures the chain `[parent's parent, parent, child]` (the child's applied y is zeroed
/// with a non-uniform parent scale or stretch, as 4.3 does).
fn measure43(bones: &mut [Bone], ids: [BoneId; 3], child_length: f32, stretch: bool) -> Chain43 {
    let [pp_id, parent, child] = ids;
    let pap = bones[parent.index()].applied();
    let pw = bones[parent.index()].world();
    let mut cap = bones[child.index()].applied();
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
    let uniform = math::abs(psx - psy) <= EPSILON43;
    if !uniform || stretch {
        cap.y = 0.0;
        cwx = pw.a * cap.x + pw.world_x;
        cwy = pw.c * cap.x + pw.world_y;
    } else {
        cwx = pw.a * cap.x + pw.b * cap.y + pw.world_x;
        cwy = pw.c * cap.x + pw.d * cap.y + pw.world_y;
    }
    bones[child.index()].set_applied(cap);
    let pp = bones[pp_id.index()].world();
    let det = pp.a * pp.d - pp.b * pp.c;
    let inv_det = if math::abs(det) <= EPSILON43 { 0.0 } else { 1.0 / det };
    let mut chain = Chain43 {
        px: pap.x,
        py: pap.y,
        psx,
        psy,
        csx,
        os1,
        os2,
        s2,
        uniform,
        pp: [pp.a, pp.b, pp.c, pp.d],
        pp_world: (pp.world_x, pp.world_y),
        inv_det,
        l1: 0.0,
        l2: child_length * csx,
    };
    let (dx, dy) = chain.local(cwx, cwy);
    chain.l1 = math::sqrt(dx * dx + dy * dy);
    chain
}

/// The target in the chain's space, pulled in by the softness: `(tx, ty, tx² + ty²)`.
fn soft_target43(chain: &Chain43, solve: &IkSolve) -> (f32, f32, f32) {
    let (mut tx, mut ty) = chain.local(solve.target_x, solve.target_y);
    let mut dd = tx * tx + ty * ty;
    let mut softness = solve.softness;
    if softness != 0.0 {
        softness *= chain.psx * (chain.csx + 1.0) * 0.5;
        let td = math::sqrt(dd);
        let sd = td - chain.l1 - chain.l2 * chain.psx + softness;
        if sd > 0.0 {
            let mut p = (sd / (softness * 2.0)).min(1.0) - 1.0;
            p = (sd - softness * (1.0 - p * p)) / td;
            tx -= p * tx;
            ty -= p * ty;
            dd = tx * tx + ty * ty;
        }
    }
    (tx, ty, dd)
}

/// The parent and child angles (radians) that reach `(tx, ty)`, and the parent's stretch
/// scale when the target is beyond reach: the law of cosines for a uniform parent scale,
/// else the ellipse the child's tip can reach.
fn angles43(
    chain: &Chain43,
    tx: f32,
    ty: f32,
    dd: f32,
    solve: &IkSolve,
) -> (f32, f32, Option<f32>) {
    let bend_dir = solve.bend_direction as f32;
    let (l1, psx, psy) = (chain.l1, chain.psx, chain.psy);
    if chain.uniform {
        let l2 = chain.l2 * psx;
        let mut cos = (dd - l1 * l1 - l2 * l2) / (2.0 * l1 * l2);
        let mut parent_scale = None;
        let a2;
        if cos < -1.0 {
            cos = -1.0;
            a2 = PI * bend_dir;
        } else if cos > 1.0 {
            cos = 1.0;
            a2 = 0.0;
            if solve.stretch {
                parent_scale = Some((math::sqrt(dd) / (l1 + l2) - 1.0) * solve.mix + 1.0);
            }
        } else {
            a2 = acos(cos) * bend_dir;
        }
        let aa = l1 + l2 * cos;
        let bb = l2 * math::sin(a2);
        return (math::atan2(ty * aa - tx * bb, tx * aa + ty * bb), a2, parent_scale);
    }
    let l2 = chain.l2;
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
            return (ta - math::atan2(y, r), math::atan2(y / psy, (r - l1) / psx), None);
        }
    }
    let (a1, a2) = ellipse_fallback(a, b, l1, aa, bb, dd, ta, bend_dir);
    (a1, a2, None)
}
