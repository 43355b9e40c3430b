//! Spine 4.3 bone poses ([`Behaviour::lazy_bone_poses`](spine_model::Behaviour::lazy_bone_poses)),
//! following spine-ts 4.3 (`BonePose`, `Skeleton.updateWorldTransform`; the referee of
//! `tests/oracle_43.rs` is spine-core 4.3.13).
//!
//! A 4.3 bone pose keeps two per-update marks: its world transform is valid (`world ==
//! update`), and its local pose is stale (`local == update`: a constraint changed the world
//! transform, `modifyWorld`; the local values are recomputed from it, by the 4.3
//! `updateLocalTransform`, only when something needs them). The update cache computes a
//! bone's world transform only when it is not valid (`BonePose.update`). Constraints call
//! `modifyLocal` (local pose made current, world invalid) or `modifyWorld` (world valid,
//! local stale) on each bone before changing it; both then walk the children whose world is
//! valid (`resetWorld`): a child with a stale local pose gets it recomputed from its world
//! transform (so a world-space change made to it earlier is kept, relative to its parent's
//! world at that moment), and every such child's world becomes invalid, so the update cache
//! recomputes it after the constraint.
//!
//! Here the marks live in [`LazyBone`] (one per bone in
//! [`Skeleton::lazy43`](crate::Skeleton::lazy43)) with the applied `inherit` (4.3 poses carry
//! their own, which a slider's animation may key); the applied local pose and the world
//! transform are the [`Bone`]'s. A constraint never recomputes a world transform itself:
//! what a later constraint reads before the update cache reaches the bone again is the
//! previous one, as in 4.3.

use spine_model::{ConstraintKind, Inherit, SkeletonData};

use super::{Constraint, ConstraintPose, SolverCtx};
use crate::math;
use crate::skeleton::{AppliedPose, Bone, Children, Physics, Skeleton, UpdateEntry, WorldFrame};
use spine_model::BoneId;

/// `MathUtils.epsilon`.
pub(crate) const EPSILON: f32 = 0.00001;
/// `MathUtils.epsilon2`.
const EPSILON2: f32 = EPSILON * EPSILON;

/// 4.3 pose state of one bone for the current update.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LazyBone {
    /// The world transform is valid (`world == update`).
    pub world_valid: bool,
    /// A constraint changed the world transform; the local pose is stale (`local ==
    /// update`).
    pub local_stale: bool,
    /// The applied pose's inherit (reset from [`Bone::inherit`] every update).
    pub inherit: Inherit,
}

/// The bones, their 4.3 marks and the skeleton's frame: what `BonePose` methods reach.
pub(crate) struct Poses<'a> {
    /// Every bone.
    pub bones: &'a mut [Bone],
    /// Their marks.
    pub lazy: &'a mut [LazyBone],
    /// The children lists.
    pub children: &'a Children,
    /// Skeleton position and scale.
    pub frame: WorldFrame,
}

impl Poses<'_> {
    /// The applied inherit of `id`.
    pub fn inherit(&self, id: BoneId) -> Inherit {
        self.lazy.get(id.index()).map_or(Inherit::Normal, |l| l.inherit)
    }

    /// 4.3 `BonePose.update`: the world transform, unless it is valid.
    pub fn update(&mut self, id: BoneId) {
        if self.lazy.get(id.index()).is_some_and(|l| !l.world_valid) {
            self.update_world(id);
        }
    }

    /// 4.3 `BonePose.updateWorldTransform`: a stale local pose is recomputed first, then the
    /// world transform from the applied local pose and the parent's world transform.
    pub fn update_world(&mut self, id: BoneId) {
        let i = id.index();
        let Some(&l) = self.lazy.get(i) else { return };
        if l.local_stale {
            self.update_local(id);
        } else {
            self.lazy[i].world_valid = true;
        }
        let inherit = self.inherit(id);
        let parent =
            self.bones.get(i).and_then(|b| b.parent).and_then(|p| self.bones.get(p.index()));
        let parent = parent.map(Bone::world);
        let frame = self.frame;
        if let Some(b) = self.bones.get_mut(i) {
            let ap = b.applied();
            world43(b, ap, inherit, parent, &frame);
        }
    }

    /// 4.3 `BonePose.updateLocalTransform`: the applied local pose from the world transform
    /// (the parent's as it is now); the local pose is current and the world valid again.
    pub fn update_local(&mut self, id: BoneId) {
        let i = id.index();
        let inherit = self.inherit(id);
        if let Some(l) = self.lazy.get_mut(i) {
            l.local_stale = false;
            l.world_valid = true;
        }
        let parent =
            self.bones.get(i).and_then(|b| b.parent).and_then(|p| self.bones.get(p.index()));
        let parent = parent.map(Bone::world);
        let frame = self.frame;
        if let Some(b) = self.bones.get_mut(i) {
            let rotation = b.applied().rotation;
            let ap = local43(b, rotation, inherit, parent, &frame);
            b.set_applied(ap);
        }
    }

    /// 4.3 `BonePose.validateLocalTransform`.
    pub fn validate_local(&mut self, id: BoneId) {
        if self.lazy.get(id.index()).is_some_and(|l| l.local_stale) {
            self.update_local(id);
        }
    }

    /// 4.3 `BonePose.modifyLocal`: before a constraint changes the applied local pose.
    pub fn modify_local(&mut self, id: BoneId) {
        self.validate_local(id);
        if let Some(l) = self.lazy.get_mut(id.index()) {
            l.world_valid = false;
        }
        self.reset_world(id);
    }

    /// 4.3 `BonePose.modifyWorld`: before a constraint changes the world transform.
    pub fn modify_world(&mut self, id: BoneId) {
        if let Some(l) = self.lazy.get_mut(id.index()) {
            l.local_stale = true;
            l.world_valid = true;
        }
        self.reset_world(id);
    }

    /// 4.3 `BonePose.resetWorld` for the children of `id`.
    fn reset_world(&mut self, id: BoneId) {
        let children = self.children;
        for &c in children.of(id) {
            let Some(l) = self.lazy.get(c.index()) else { continue };
            if !l.world_valid {
                continue;
            }
            if l.local_stale {
                self.update_local(c);
            }
            if let Some(l) = self.lazy.get_mut(c.index()) {
                l.world_valid = false;
            }
            self.reset_world(c);
        }
    }
}

/// 4.3 `BonePose.updateWorldTransform`'s arithmetic: the world transform of `b` from the
/// applied local pose `ap` with inherit `inherit` under `parent` (`None` for the root).
pub(crate) fn world43(
    b: &mut Bone,
    ap: AppliedPose,
    inherit: Inherit,
    parent: Option<crate::skeleton::ParentWorld>,
    frame: &WorldFrame,
) {
    let AppliedPose { x, y, rotation, scale_x, scale_y, shear_x, shear_y } = ap;
    let (sx, sy) = (frame.scale_x, frame.scale_y);
    let axes = |r: f32| {
        let ((sin_x, cos_x), (sin_y, cos_y)) =
            math::sin_cos_deg_pair(r + shear_x, r + 90.0 + shear_y);
        [cos_x * scale_x, cos_y * scale_y, sin_x * scale_x, sin_y * scale_y]
    };
    let Some(p) = parent else {
        let [la, lb, lc, ld] = axes(rotation);
        (b.a, b.b, b.c, b.d) = (la * sx, lb * sx, lc * sy, ld * sy);
        b.world_x = x * sx + frame.x;
        b.world_y = y * sy + frame.y;
        return;
    };
    let (mut pa, mut pb, mut pc, mut pd) = (p.a, p.b, p.c, p.d);
    b.world_x = pa * x + pb * y + p.world_x;
    b.world_y = pc * x + pd * y + p.world_y;
    match inherit {
        Inherit::Normal => {
            let [la, lb, lc, ld] = axes(rotation);
            b.a = pa * la + pb * lc;
            b.b = pa * lb + pb * ld;
            b.c = pc * la + pd * lc;
            b.d = pc * lb + pd * ld;
        }
        Inherit::OnlyTranslation => {
            let [la, lb, lc, ld] = axes(rotation);
            (b.a, b.b, b.c, b.d) = (la * sx, lb * sx, lc * sy, ld * sy);
        }
        Inherit::NoRotationOrReflection => {
            let (sxi, syi) = (1.0 / sx, 1.0 / sy);
            pa *= sxi;
            pc *= syi;
            let mut s = pa * pa + pc * pc;
            let r;
            if s > EPSILON2 {
                s = math::abs(pa * pd * syi - pb * sxi * pc) / s;
                pb = pc * s;
                pd = pa * s;
                r = rotation - math::atan2_deg(pc, pa);
            } else {
                pa = 0.0;
                pc = 0.0;
                r = rotation - 90.0 + math::atan2_deg(pd, pb);
            }
            let [la, lb, lc, ld] = axes(r);
            b.a = (pa * la - pb * lc) * sx;
            b.b = (pa * lb - pb * ld) * sx;
            b.c = (pc * la + pd * lc) * sy;
            b.d = (pc * lb + pd * ld) * sy;
        }
        Inherit::NoScale | Inherit::NoScaleOrReflection => {
            let (sxi, syi) = (1.0 / sx, 1.0 / sy);
            let (sin, cos) = math::sin_cos_deg(rotation);
            let mut za = (pa * cos + pb * sin) * sxi;
            let mut zc = (pc * cos + pd * sin) * syi;
            let s = 1.0 / math::sqrt(za * za + zc * zc);
            za *= s;
            zc *= s;
            let (mut zb, mut zd) = (-zc, za);
            if inherit == Inherit::NoScale
                && ((pa * pd - pb * pc < 0.0) != ((sx < 0.0) != (sy < 0.0)))
            {
                zb = -zb;
                zd = -zd;
            }
            let ((sin_x, cos_x), (sin_y, cos_y)) = math::sin_cos_deg_pair(shear_x, 90.0 + shear_y);
            let (la, lb, lc, ld) =
                (cos_x * scale_x, cos_y * scale_y, sin_x * scale_x, sin_y * scale_y);
            b.a = (za * la + zb * lc) * sx;
            b.b = (za * lb + zb * ld) * sx;
            b.c = (zc * la + zd * lc) * sy;
            b.d = (zc * lb + zd * ld) * sy;
        }
    }
}

/// 4.3 `BonePose.set5`: rotation (plus `ro`), scales and shear y of the parent-space matrix
/// `ra rb / rc rd`, shear x 0.
fn set5(ap: &mut AppliedPose, ra: f32, rb: f32, rc: f32, rd: f32, ro: f32) {
    ap.shear_x = 0.0;
    let (x, y) = (ra * ra + rc * rc, rb * rb + rd * rd);
    if x > EPSILON2 {
        let r = math::atan2_deg(rc, ra);
        ap.rotation = r + ro;
        ap.scale_x = math::sqrt(x);
        ap.scale_y = math::sqrt(y);
        if y > EPSILON2 {
            ap.shear_y = math::atan2_deg(rd, rb);
            if ra * rd - rb * rc < 0.0 {
                ap.scale_y = -ap.scale_y;
                ap.shear_y += 90.0 - r;
            } else {
                ap.shear_y -= 90.0 + r;
            }
            ap.shear_y = wrap180(ap.shear_y);
        } else {
            ap.shear_y = 0.0;
        }
    } else {
        ap.scale_x = 0.0;
        ap.scale_y = math::sqrt(y);
        ap.shear_y = 0.0;
        ap.rotation = if y > EPSILON2 { math::atan2_deg(rd, rb) - 90.0 + ro } else { ro };
    }
}

/// 4.3 `BonePose.set4`: scales and shears of `ra rb / rc rd` (the rotation is set apart).
fn set4(ap: &mut AppliedPose, ra: f32, rb: f32, rc: f32, rd: f32) {
    let (x, y) = (ra * ra + rc * rc, rb * rb + rd * rd);
    if x > EPSILON2 {
        ap.shear_x = math::atan2_deg(rc, ra);
        ap.scale_x = math::sqrt(x);
    } else {
        ap.shear_x = 0.0;
        ap.scale_x = 0.0;
    }
    ap.scale_y = math::sqrt(y);
    if y > EPSILON2 {
        ap.shear_y = math::atan2_deg(rd, rb);
        if ra * rd - rb * rc < 0.0 {
            ap.scale_y = -ap.scale_y;
            ap.shear_y += 90.0;
        } else {
            ap.shear_y -= 90.0;
        }
        ap.shear_y = wrap180(ap.shear_y);
    } else {
        ap.shear_y = 0.0;
    }
}

/// `if (v > 180) v -= 360; else if (v <= -180) v += 360;`
fn wrap180(v: f32) -> f32 {
    if v > 180.0 {
        v - 360.0
    } else if v <= -180.0 {
        v + 360.0
    } else {
        v
    }
}

/// 4.3 `BonePose.updateLocalTransform`'s arithmetic: the applied local pose that gives the
/// world transform of `b` under `parent` with inherit `inherit`; `rotation` is the current
/// applied rotation (kept by no mode: every mode sets it).
pub(crate) fn local43(
    b: &Bone,
    rotation: f32,
    inherit: Inherit,
    parent: Option<crate::skeleton::ParentWorld>,
    frame: &WorldFrame,
) -> AppliedPose {
    let (sx, sy) = (frame.scale_x, frame.scale_y);
    let mut ap = AppliedPose { rotation, ..AppliedPose::default() };
    let Some(p) = parent else {
        let (sxi, syi) = (1.0 / sx, 1.0 / sy);
        ap.x = (b.world_x - frame.x) * sxi;
        ap.y = (b.world_y - frame.y) * syi;
        set5(&mut ap, b.a * sxi, b.b * sxi, b.c * syi, b.d * syi, 0.0);
        return ap;
    };
    let (mut pa, pb, mut pc, pd) = (p.a, p.b, p.c, p.d);
    let pad = pa * pd - pb * pc;
    let pid = 1.0 / (pa * pd - pb * pc);
    let (ia, ib, ic, id) = (pd * pid, pb * pid, pc * pid, pa * pid);
    let (dx, dy) = (b.world_x - p.world_x, b.world_y - p.world_y);
    ap.x = dx * ia - dy * ib;
    ap.y = dy * id - dx * ic;
    match inherit {
        Inherit::Normal => set5(
            &mut ap,
            ia * b.a - ib * b.c,
            ia * b.b - ib * b.d,
            id * b.c - ic * b.a,
            id * b.d - ic * b.b,
            0.0,
        ),
        Inherit::OnlyTranslation => {
            let (sxi, syi) = (1.0 / sx, 1.0 / sy);
            set5(&mut ap, b.a * sxi, b.b * sxi, b.c * syi, b.d * syi, 0.0);
        }
        Inherit::NoRotationOrReflection => {
            let (sxi, syi) = (1.0 / sx, 1.0 / sy);
            pa *= sxi;
            pc *= syi;
            let (wa, wb, wc, wd) = (b.a * sxi, b.b * sxi, b.c * syi, b.d * syi);
            let s = 1.0 / (pa * pa + pc * pc);
            let det = 1.0 / math::abs(pad * sxi * syi);
            set5(
                &mut ap,
                (pa * wa + pc * wc) * s,
                (pa * wb + pc * wd) * s,
                (pa * wc - pc * wa) * det,
                (pa * wd - pc * wb) * det,
                math::atan2_deg(pc, pa),
            );
        }
        Inherit::NoScale | Inherit::NoScaleOrReflection => {
            let (sxi, syi) = (1.0 / sx, 1.0 / sy);
            let (wa, wb, wc, wd) = (b.a * sxi, b.b * sxi, b.c * syi, b.d * syi);
            let (mut tx, mut ty) = (pd * b.a - pb * b.c, pa * b.c - pc * b.a);
            if pad < 0.0 {
                tx = -tx;
                ty = -ty;
            }
            let r = math::atan2_deg(ty, tx);
            ap.rotation = r;
            let (sin, cos) = math::sin_cos_deg(r);
            let mut za = (pa * cos + pb * sin) * sxi;
            let mut zc = (pc * cos + pd * sin) * syi;
            let s = 1.0 / math::sqrt(za * za + zc * zc);
            za *= s;
            zc *= s;
            let si = if inherit == Inherit::NoScale && ((pad < 0.0) != ((sx < 0.0) != (sy < 0.0))) {
                -1.0
            } else {
                1.0
            };
            set4(
                &mut ap,
                za * wa + zc * wc,
                za * wb + zc * wd,
                (za * wc - zc * wa) * si,
                (za * wd - zc * wb) * si,
            );
        }
    }
    ap
}

/// `Skeleton::update_world_transform` for 4.3 data (4.3 `Skeleton.updateWorldTransform`):
/// every applied pose starts from the pose, then the update cache runs with the marks of
/// `Poses`.
pub fn run_update_cache(sk: &mut Skeleton, physics: Physics, frame: &WorldFrame) {
    sk.reset_slot_poses();
    for (b, l) in sk.bones.iter_mut().zip(sk.lazy43.iter_mut()) {
        let p = AppliedPose {
            x: b.x,
            y: b.y,
            rotation: b.rotation,
            scale_x: b.scale_x,
            scale_y: b.scale_y,
            shear_x: b.shear_x,
            shear_y: b.shear_y,
        };
        b.set_applied(p);
        *l = LazyBone { world_valid: false, local_stale: false, inherit: b.inherit };
    }
    for i in 0..sk.update_cache.len() {
        match sk.update_cache[i] {
            UpdateEntry::Bone(id) => {
                let Skeleton { bones, lazy43, children, .. } = sk;
                Poses { bones, lazy: lazy43, children, frame: *frame }.update(id);
            }
            UpdateEntry::Constraint(id) => {
                let data = sk.data.clone();
                let Some(cd) = data.constraints.get(id.index()) else { continue };
                if let ConstraintKind::Slider(_) = cd.kind {
                    super::slider::update(sk, id);
                    continue;
                }
                let time64 = sk.exact_time();
                let Skeleton {
                    bones,
                    lazy43,
                    children,
                    slots,
                    constraints,
                    time,
                    y_down,
                    wind,
                    gravity,
                    ..
                } = sk;
                let Some(c) = constraints.get_mut(id.index()) else { continue };
                let mut poses = Poses { bones, lazy: lazy43, children, frame: *frame };
                let step = PhysicsStep {
                    time: *time,
                    time64,
                    physics,
                    y_down: *y_down,
                    wind: *wind,
                    gravity: *gravity,
                };
                update(&mut poses, &data, slots, cd, c, step);
            }
        }
    }
}

/// The skeleton's settings a 4.3 physics constraint steps with (the [`SolverCtx`] fields
/// that are not poses).
#[derive(Clone, Copy)]
struct PhysicsStep {
    time: f32,
    time64: f64,
    physics: Physics,
    y_down: bool,
    wind: [f32; 2],
    gravity: [f32; 2],
}

/// Runs one 4.3 constraint (not a slider) on `poses`.
fn update(
    poses: &mut Poses<'_>,
    data: &SkeletonData,
    slots: &[crate::skeleton::Slot],
    cd: &spine_model::ConstraintData,
    c: &mut Constraint,
    step: PhysicsStep,
) {
    let PhysicsStep { time, time64, physics, y_down, wind, gravity } = step;
    match (&cd.kind, &mut c.pose) {
        (ConstraintKind::Ik(d), ConstraintPose::Ik(p)) => super::ik::update43(poses, data, d, p),
        (ConstraintKind::Transform(d), ConstraintPose::Transform(p))
            if p.mixes.iter().any(|&m| m != 0.0) =>
        {
            super::transform43::update43(poses, d, p.mixes);
        }
        (ConstraintKind::Path(d), ConstraintPose::Path(p)) => {
            super::path::update43(poses, data, slots, d, p)
        }
        (ConstraintKind::Physics(d), ConstraintPose::Physics(p)) => {
            if p.mix != 0.0 && physics != Physics::None {
                poses.modify_world(d.bone);
            }
            let mut ctx = SolverCtx {
                data,
                bones: poses.bones,
                slots,
                frame: poses.frame,
                time,
                time64,
                physics,
                y_down,
                wind,
                gravity,
            };
            super::physics::update(&mut ctx, d, p);
        }
        _ => {}
    }
    if c.slider_saved() {
        c.restore_slider_base();
    }
}

/// The slider's `modifyLocal` of its animation's bones.
pub(crate) fn modify_local_all(sk: &mut Skeleton, ids: impl Iterator<Item = BoneId>) {
    let frame = sk.frame();
    let Skeleton { bones, lazy43, children, .. } = sk;
    let mut poses = Poses { bones, lazy: lazy43, children, frame };
    for id in ids {
        poses.modify_local(id);
    }
}

/// [`Poses::validate_local`] of bone `id` of `sk`.
pub(crate) fn validate_local_of(sk: &mut Skeleton, id: BoneId) {
    let frame = sk.frame();
    let Skeleton { bones, lazy43, children, .. } = sk;
    Poses { bones, lazy: lazy43, children, frame }.validate_local(id);
}
