//! Skeleton instances: bones, slots, draw order, skin, update cache, world transforms
//! (spine-cpp 4.2 `Skeleton`, `Bone`, `Slot`).

use std::sync::Arc;

use spine_model::{
    AttachmentId, AttachmentKind, BoneData, BoneId, Color, ConstraintId, ConstraintKind, Inherit,
    SkeletonData, SkinId, SlotId, Vertices,
};

use crate::constraints::{self, Constraint, SolverCtx};
use crate::math::{self, DEG_RAD, RAD_DEG};

/// Physics mode of [`Skeleton::update_world_transform`] (spine-cpp `Physics`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Physics {
    /// Physics not updated or applied.
    #[default]
    None,
    /// Physics reset to the current pose.
    Reset,
    /// Physics updated and applied.
    Update,
    /// Physics not updated but the current pose applied.
    Pose,
}

/// Skeleton position and scale as bones see them (y-down already folded into `scale_y`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WorldFrame {
    /// Skeleton x.
    pub x: f32,
    /// Skeleton y.
    pub y: f32,
    /// Skeleton scale x.
    pub scale_x: f32,
    /// Skeleton scale y (negated when y-down).
    pub scale_y: f32,
}

/// A parent's world transform (what a child needs to compute its own).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ParentWorld {
    /// a.
    pub a: f32,
    /// b.
    pub b: f32,
    /// c.
    pub c: f32,
    /// d.
    pub d: f32,
    /// World x.
    pub world_x: f32,
    /// World y.
    pub world_y: f32,
}

/// `(sin, cos)` of `rotation + shear_x` and of `rotation + 90 + shear_y` (degrees): the
/// directions of a bone's local x and y axes. With equal shears (the common case) the y axis
/// is the x axis turned by 90°, so one evaluation serves both.
#[inline(always)]
fn local_axes(rotation: f32, shear_x: f32, shear_y: f32) -> (f32, f32, f32, f32) {
    if shear_x == shear_y {
        let (sin_x, cos_x) = math::sin_cos_deg(rotation + shear_x);
        return (sin_x, cos_x, cos_x, -sin_x);
    }
    let ((sin_x, cos_x), (sin_y, cos_y)) =
        math::sin_cos_deg_pair(rotation + shear_x, rotation + 90.0 + shear_y);
    (sin_x, cos_x, sin_y, cos_y)
}

/// [`local_matrix`] of a pose with equal shears from the sine and cosine of `rotation +
/// shear_x` ([`local_axes`]' one-evaluation case).
#[inline(always)]
pub(crate) fn local_matrix_equal_shears(
    sin: f32,
    cos: f32,
    scale_x: f32,
    scale_y: f32,
) -> [f32; 4] {
    let (sin_x, cos_x, sin_y, cos_y) = (sin, cos, cos, -sin);
    [cos_x * scale_x, cos_y * scale_y, sin_x * scale_x, sin_y * scale_y]
}

/// The local 2×2 matrix `(la, lb, lc, ld)` of a bone's rotation, scales and shears (the
/// columns are the local x and y axes scaled): `la = cos_x * scale_x`, `lb = cos_y *
/// scale_y`, `lc = sin_x * scale_x`, `ld = sin_y * scale_y`.
#[inline(always)]
fn local_matrix(rotation: f32, scale_x: f32, scale_y: f32, shear_x: f32, shear_y: f32) -> [f32; 4] {
    let (sin_x, cos_x, sin_y, cos_y) = local_axes(rotation, shear_x, shear_y);
    [cos_x * scale_x, cos_y * scale_y, sin_x * scale_x, sin_y * scale_y]
}

/// The last [`local_matrix`] a bone computed and the bit patterns of its five inputs: bones
/// whose rotation, scales and shears did not change since the last update (unkeyed bones,
/// holds, setup poses) reuse the matrix instead of evaluating sine and cosine again. The
/// result is the same bit for bit (the key is the inputs' bits). A cache, not pose state:
/// any two compare equal.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LocalCache {
    /// `rotation, scale_x, scale_y, shear_x, shear_y` as bits.
    key: [u32; 5],
    /// `local_matrix` of the key, stored as `[la, ld, lc, lb]`: the two pairs the 2×2
    /// product with the parent's matrix multiplies lane-wise (loaded without shuffles).
    m: [f32; 4],
}

impl Default for LocalCache {
    /// The matrix of an all-zero pose, keyed by its bits.
    fn default() -> LocalCache {
        let [la, lb, lc, ld] = local_matrix(0.0, 0.0, 0.0, 0.0, 0.0);
        LocalCache { key: [0; 5], m: [la, ld, lc, lb] }
    }
}

impl PartialEq for LocalCache {
    fn eq(&self, _: &LocalCache) -> bool {
        true
    }
}

impl LocalCache {
    /// [`local_matrix`] of the arguments, from the cache when they are bit-identical to the
    /// last call's.
    #[inline(always)]
    fn get(
        &mut self,
        rotation: f32,
        scale_x: f32,
        scale_y: f32,
        shear_x: f32,
        shear_y: f32,
    ) -> [f32; 4] {
        let [k0, k1, k2, k3, k4] = self.key;
        // One OR of the bit differences, not an array compare: that built the key on the
        // stack from two stores and read it back with one wider load, which the CPU cannot
        // forward from its store buffer (a stall of every bone's walk step).
        let differ = (rotation.to_bits() ^ k0)
            | (scale_x.to_bits() ^ k1)
            | (scale_y.to_bits() ^ k2)
            | (shear_x.to_bits() ^ k3)
            | (shear_y.to_bits() ^ k4);
        if differ != 0 {
            self.key = [
                rotation.to_bits(),
                scale_x.to_bits(),
                scale_y.to_bits(),
                shear_x.to_bits(),
                shear_y.to_bits(),
            ];
            let [la, lb, lc, ld] = local_matrix(rotation, scale_x, scale_y, shear_x, shear_y);
            self.m = [la, ld, lc, lb];
        }
        let [la, ld, lc, lb] = self.m;
        [la, lb, lc, ld]
    }
}

/// A bone's applied pose (spine-cpp `Bone::ax .. ashearY`): the local pose its world
/// transform was computed from (see [`Bone::applied`]).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct AppliedPose {
    /// Applied x.
    pub x: f32,
    /// Applied y.
    pub y: f32,
    /// Applied rotation, degrees.
    pub rotation: f32,
    /// Applied scale x.
    pub scale_x: f32,
    /// Applied scale y.
    pub scale_y: f32,
    /// Applied shear x, degrees.
    pub shear_x: f32,
    /// Applied shear y, degrees.
    pub shear_y: f32,
}

/// The applied pose of a deferred [`Bone::update_applied_transform`]: `d` holds `x, y` and
/// the parent-space matrix `ra, rb, rc, rd` in `rotation, scale_x, scale_y, shear_x`; the
/// rotation, scale and shear of that matrix (the end of spine-cpp
/// `Bone::updateAppliedTransform`). Out of line: deferred poses are read rarely.
#[inline(never)]
fn applied_from_local_matrix(d: AppliedPose) -> AppliedPose {
    let (ra, rb, rc, rd) = (d.rotation, d.scale_x, d.scale_y, d.shear_x);
    let scale_x = math::sqrt(ra * ra + rc * rc);
    if scale_x > 0.0001 {
        let det = ra * rd - rb * rc;
        let (shear, rotation) = math::atan2_pair(ra * rb + rc * rd, det, rc, ra);
        AppliedPose {
            x: d.x,
            y: d.y,
            rotation: rotation * RAD_DEG,
            scale_x,
            scale_y: det / scale_x,
            shear_x: 0.0,
            shear_y: -(shear * RAD_DEG),
        }
    } else {
        AppliedPose {
            x: d.x,
            y: d.y,
            rotation: 90.0 - math::atan2_deg(rd, rb),
            scale_x: 0.0,
            scale_y: math::sqrt(rb * rb + rd * rd),
            shear_x: 0.0,
            shear_y: 0.0,
        }
    }
}

/// [`Bone`] `ap_flags`: the applied pose is deferred.
const AP_DEFERRED: u8 = 1;
/// [`Bone`] `ap_flags`: the update cache walks the bone, or an IK constraint reads it, after
/// a constraint that may defer its applied pose.
const AP_READ_AFTER: u8 = 2;
/// [`Bone`] `ap_flags`, while [`Skeleton::update_cache`] runs only: a constraint before the
/// current entry may defer the bone's applied pose.
const AP_MOVED: u8 = 4;
/// [`Bone`] `ap_flags`, while [`Skeleton::update_cache`] runs only: an earlier entry of the
/// update cache walks the bone.
const AP_SEEN: u8 = 8;
/// [`Bone`] `ap_flags`, with [`AP_DEFERRED`]: the deferred pose is held as the inputs of
/// [`Bone::update_applied_transform`]'s common case (see [`Bone::defer_inputs`]), not as
/// the parent-space matrix.
const AP_INPUTS: u8 = 16;
/// [`Bone`] `ap_flags`, with [`AP_DEFERRED`]: the deferred pose is a full-mix IK pose, final
/// but for its rotation, which [`ik::aimed_rotation`](crate::constraints::ik) computes from
/// the rotation before the solve (in `ap.rotation`) and what the solve left in `ap_more`
/// (see [`Bone::pose_normal_aimed`]).
const AP_AIMED: u8 = 32;

/// The parent-space matrix of a pose deferred as the inputs of
/// [`Bone::update_applied_transform`]'s common case (a parent, [`Inherit::Normal`]): `d`
/// holds `dx, dy` and the parent's `a, b, c, d` in `x .. shear_x` (`shear_y` is not read),
/// `m` the bone's world `a, b, c, d`. The operations of that case, in its order (so the
/// same bits as computing them at once); the result is in [`applied_from_local_matrix`]'s
/// layout.
#[inline(always)]
fn local_matrix_from_inputs(d: AppliedPose, m: [f32; 4]) -> AppliedPose {
    let (pa, pb, pc, pd) = (d.rotation, d.scale_x, d.scale_y, d.shear_x);
    let [a, b, c, dd] = m;
    let pid = 1.0 / (pa * pd - pb * pc);
    let (ia, ib, ic, id) = (pd * pid, pb * pid, pc * pid, pa * pid);
    let (dx, dy) = (d.x, d.y);
    let x = dx * ia - dy * ib;
    let y = dy * id - dx * ic;
    let ra = ia * a - ib * c;
    let rb = ia * b - ib * dd;
    let rc = id * c - ic * a;
    let rd = id * dd - ic * b;
    AppliedPose { x, y, rotation: ra, scale_x: rb, scale_y: rc, shear_x: rd, shear_y: 0.0 }
}

/// A bone instance: local pose, applied pose and world transform.
///
/// Equality compares the applied poses as [`Bone::applied`] reads them (a deferred pose
/// equals the same pose computed), not the update cache's bookkeeping.
#[derive(Debug, Clone)]
pub struct Bone {
    /// Parent bone (lower id). The children are [`Skeleton::children`].
    pub parent: Option<BoneId>,
    /// Local x.
    pub x: f32,
    /// Local y.
    pub y: f32,
    /// Local rotation, degrees.
    pub rotation: f32,
    /// Local scale x.
    pub scale_x: f32,
    /// Local scale y.
    pub scale_y: f32,
    /// Local shear x, degrees.
    pub shear_x: f32,
    /// Local shear y, degrees.
    pub shear_y: f32,
    /// Applied pose (what the world transform was computed from); while deferred (see
    /// `ap_flags`), the inputs of its computation instead (see [`Bone::applied`]).
    ap: AppliedPose,
    /// World matrix a.
    pub a: f32,
    /// World matrix b.
    pub b: f32,
    /// World matrix c.
    pub c: f32,
    /// World matrix d.
    pub d: f32,
    /// World x.
    pub world_x: f32,
    /// World y.
    pub world_y: f32,
    /// Inheritance (timelines may change it).
    pub inherit: Inherit,
    /// Updated by the update cache (skin-required bones need the skin). An
    /// [`AnimationState`](crate::AnimationState) keeps which bone timelines reach active
    /// bones per [`Skeleton::update_cache`] call, so a value written here by hand is seen by
    /// it after the next `update_cache`.
    pub active: bool,
    /// Update-cache sort flag.
    pub sorted: bool,
    /// [`AP_DEFERRED`]: `ap` holds `x, y` and the parent-space matrix `ra, rb, rc, rd` (in
    /// `rotation, scale_x, scale_y, shear_x`) of a deferred
    /// [`Bone::update_applied_transform`], or with [`AP_INPUTS`] the inputs of its common
    /// case (with `ap_more`, see [`Bone::defer_inputs`]). [`AP_READ_AFTER`]: the update cache walks this
    /// bone, or an IK constraint reads it, after a constraint that may move it, so its
    /// applied pose is computed at once (those read it without testing [`AP_DEFERRED`]);
    /// set by [`Skeleton::update_cache`].
    ap_flags: u8,
    /// With [`AP_INPUTS`]: the world `a, b, c, d` of the deferred inputs (see
    /// [`Bone::defer_inputs`]).
    ap_more: [f32; 4],
    /// The last local matrix (see [`LocalCache`]).
    local: LocalCache,
}

impl PartialEq for Bone {
    fn eq(&self, o: &Bone) -> bool {
        self.parent == o.parent
            && (self.x, self.y, self.rotation) == (o.x, o.y, o.rotation)
            && (self.scale_x, self.scale_y, self.shear_x, self.shear_y)
                == (o.scale_x, o.scale_y, o.shear_x, o.shear_y)
            && self.applied() == o.applied()
            && (self.a, self.b, self.c, self.d, self.world_x, self.world_y)
                == (o.a, o.b, o.c, o.d, o.world_x, o.world_y)
            && (self.inherit, self.active, self.sorted) == (o.inherit, o.active, o.sorted)
    }
}

impl Bone {
    /// A bone in the setup pose of `data` (world transform identity).
    pub fn new(data: &BoneData) -> Bone {
        let mut b = Bone {
            parent: data.parent,
            x: 0.0,
            y: 0.0,
            rotation: 0.0,
            scale_x: 0.0,
            scale_y: 0.0,
            shear_x: 0.0,
            shear_y: 0.0,
            ap: AppliedPose::default(),
            a: 1.0,
            b: 0.0,
            c: 0.0,
            d: 1.0,
            world_x: 0.0,
            world_y: 0.0,
            inherit: Inherit::Normal,
            active: false,
            sorted: false,
            ap_flags: 0,
            ap_more: [0.0; 4],
            local: LocalCache::default(),
        };
        b.set_to_setup_pose(data);
        b
    }

    /// Local pose and inherit back to setup.
    pub fn set_to_setup_pose(&mut self, data: &BoneData) {
        self.x = data.x;
        self.y = data.y;
        self.rotation = data.rotation;
        self.scale_x = data.scale_x;
        self.scale_y = data.scale_y;
        self.shear_x = data.shear_x;
        self.shear_y = data.shear_y;
        self.inherit = data.inherit;
    }

    /// This bone's world transform, as a parent.
    pub fn world(&self) -> ParentWorld {
        ParentWorld {
            a: self.a,
            b: self.b,
            c: self.c,
            d: self.d,
            world_x: self.world_x,
            world_y: self.world_y,
        }
    }

    /// spine-cpp `Bone::updateWorldTransform(x, y, rotation, scaleX, scaleY, shearX,
    /// shearY)`: sets the applied pose to the arguments and computes the world transform
    /// from the parent's (`None` for the root), for every [`Inherit`] mode.
    #[allow(clippy::too_many_arguments)]
    pub fn update_world_transform_with(
        &mut self,
        parent: Option<ParentWorld>,
        frame: &WorldFrame,
        x: f32,
        y: f32,
        rotation: f32,
        scale_x: f32,
        scale_y: f32,
        shear_x: f32,
        shear_y: f32,
    ) {
        let (sx, sy) = (scale_x, scale_y);
        self.update_world_transform_cached(
            None, parent, frame, x, y, rotation, sx, sy, shear_x, shear_y,
        );
    }

    /// [`Bone::update_world_transform_with`] with the local matrix cached in `cache` (when
    /// given) instead of the bone's own cache (which serves the update cache's walk). For solvers
    /// that pose a bone every frame (IK): the bone's own cache keeps the walk's pose.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn update_world_transform_cached(
        &mut self,
        cache: Option<&mut LocalCache>,
        parent: Option<ParentWorld>,
        frame: &WorldFrame,
        x: f32,
        y: f32,
        rotation: f32,
        scale_x: f32,
        scale_y: f32,
        shear_x: f32,
        shear_y: f32,
    ) {
        self.set_applied(AppliedPose { x, y, rotation, scale_x, scale_y, shear_x, shear_y });
        let (sx, sy) = (scale_x, scale_y);
        self.world_from(cache, parent, frame, x, y, rotation, sx, sy, shear_x, shear_y);
    }

    /// [`Bone::update_world_transform_cached`] with its most common case inlined into the
    /// caller (a parent and [`Inherit::Normal`]: the same operations as that mode's arm of
    /// the world transform, with the local matrix computed, not taken from `cache`); the
    /// other cases call it. For the IK solvers' poses.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn pose_cached(
        &mut self,
        cache: Option<&mut LocalCache>,
        parent: Option<ParentWorld>,
        frame: &WorldFrame,
        x: f32,
        y: f32,
        rotation: f32,
        scale_x: f32,
        scale_y: f32,
        shear_x: f32,
        shear_y: f32,
    ) {
        let (sx, sy) = (scale_x, scale_y);
        let Some(p) = parent.filter(|_| self.inherit == Inherit::Normal) else {
            self.update_world_transform_cached(
                cache, parent, frame, x, y, rotation, sx, sy, shear_x, shear_y,
            );
            return;
        };
        // Not through a cache: an IK solve moves its bones nearly every frame (the key
        // compare and store cost more than the rare hit saves). The same matrix either way.
        let m = local_matrix(rotation, sx, sy, shear_x, shear_y);
        self.pose_normal(p, x, y, rotation, sx, sy, shear_x, shear_y, m);
    }

    /// [`Bone::pose_cached`] for a child bone of [`Inherit::Normal`] whose local matrix `m`
    /// (`local_matrix` of the pose) is given (the IK solver computes two at once, see
    /// [`local_matrix_equal_shears`]).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn pose_normal(
        &mut self,
        p: ParentWorld,
        x: f32,
        y: f32,
        rotation: f32,
        sx: f32,
        sy: f32,
        shear_x: f32,
        shear_y: f32,
        m: [f32; 4],
    ) {
        self.set_applied(AppliedPose {
            x,
            y,
            rotation,
            scale_x: sx,
            scale_y: sy,
            shear_x,
            shear_y,
        });
        self.world_child(p, x, y, m);
    }

    /// The world transform of a child of `p` (of [`Inherit::Normal`]) at `(x, y)` with the
    /// local matrix `m` (`la, lb, lc, ld`).
    #[inline(always)]
    fn world_child(&mut self, p: ParentWorld, x: f32, y: f32, m: [f32; 4]) {
        let (pa, pb, pc, pd) = (p.a, p.b, p.c, p.d);
        self.world_x = pa * x + pb * y + p.world_x;
        self.world_y = pc * x + pd * y + p.world_y;
        let [la, lb, lc, ld] = m;
        self.a = pa * la + pb * lc;
        self.b = pa * lb + pb * ld;
        self.c = pc * la + pd * lc;
        self.d = pc * lb + pd * ld;
    }

    /// [`Bone::pose_normal`] for a full-mix IK pose whose rotation is left to
    /// [`ik::aimed_rotation`](crate::constraints::ik) of `pose` (its `rotation` the rotation
    /// before the solve) and `aim` (what the solve left): the world transform from `m` at
    /// once, the rotation on first read of the applied pose, or at once for a bone the
    /// update cache reads later ([`AP_READ_AFTER`]). Nothing reads the rotation of most IK
    /// poses before the next frame's walk resets it.
    #[inline(always)]
    pub(crate) fn pose_normal_aimed(
        &mut self,
        p: ParentWorld,
        pose: AppliedPose,
        aim: [f32; 4],
        m: [f32; 4],
    ) {
        self.ap = pose;
        self.ap_more = aim;
        self.ap_flags = (self.ap_flags & !AP_INPUTS) | AP_DEFERRED | AP_AIMED;
        if self.ap_flags & AP_READ_AFTER != 0 {
            self.materialize_applied();
        }
        self.world_child(p, pose.x, pose.y, m);
    }

    /// The world transform from the parent's and a local pose (the applied pose is not
    /// touched): the body of [`Bone::update_world_transform_with`]; the local matrix from
    /// `cache`, else the bone's own cache.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn world_from(
        &mut self,
        cache: Option<&mut LocalCache>,
        parent: Option<ParentWorld>,
        frame: &WorldFrame,
        x: f32,
        y: f32,
        rotation: f32,
        scale_x: f32,
        scale_y: f32,
        shear_x: f32,
        shear_y: f32,
    ) {
        let (sx, sy) = (frame.scale_x, frame.scale_y);
        let Some(p) = parent else {
            let [la, lb, lc, ld] =
                cache.unwrap_or(&mut self.local).get(rotation, scale_x, scale_y, shear_x, shear_y);
            self.a = la * sx;
            self.b = lb * sx;
            self.c = lc * sy;
            self.d = ld * sy;
            self.world_x = x * sx + frame.x;
            self.world_y = y * sy + frame.y;
            return;
        };
        let (mut pa, mut pb, mut pc, mut pd) = (p.a, p.b, p.c, p.d);
        self.world_x = pa * x + pb * y + p.world_x;
        self.world_y = pc * x + pd * y + p.world_y;
        match self.inherit {
            Inherit::Normal => {
                let [la, lb, lc, ld] = cache
                    .unwrap_or(&mut self.local)
                    .get(rotation, scale_x, scale_y, shear_x, shear_y);
                self.a = pa * la + pb * lc;
                self.b = pa * lb + pb * ld;
                self.c = pc * la + pd * lc;
                self.d = pc * lb + pd * ld;
                return;
            }
            Inherit::OnlyTranslation => {
                [self.a, self.b, self.c, self.d] = cache
                    .unwrap_or(&mut self.local)
                    .get(rotation, scale_x, scale_y, shear_x, shear_y);
            }
            Inherit::NoRotationOrReflection => {
                let mut s = pa * pa + pc * pc;
                let prx;
                if s > 0.0001 {
                    s = math::abs(pa * pd - pb * pc) / s;
                    pa /= sx;
                    pc /= sy;
                    pb = pc * s;
                    pd = pa * s;
                    // The local axes turned back by the parent's rotation `prx` (the angle
                    // of `pa, pc`): the local matrix (cached while the pose holds) turned
                    // by that direction, not sine and cosine of angles less `atan2`. The
                    // same axes within rounding.
                    if let Some((cp, sp)) = math::unit(pa, pc) {
                        let [la, lb, lc, ld] = cache
                            .unwrap_or(&mut self.local)
                            .get(rotation, scale_x, scale_y, shear_x, shear_y);
                        let (la, lc) = (la * cp + lc * sp, lc * cp - la * sp);
                        let (lb, ld) = (lb * cp + ld * sp, ld * cp - lb * sp);
                        self.a = (pa * la - pb * lc) * sx;
                        self.b = (pa * lb - pb * ld) * sx;
                        self.c = (pc * la + pd * lc) * sy;
                        self.d = (pc * lb + pd * ld) * sy;
                        return;
                    }
                    prx = math::atan2_deg(pc, pa);
                } else {
                    pa = 0.0;
                    pc = 0.0;
                    prx = 90.0 - math::atan2_deg(pd, pb);
                }
                let ((sin_x, cos_x), (sin_y, cos_y)) = math::sin_cos_deg_pair(
                    rotation + shear_x - prx,
                    rotation + shear_y - prx + 90.0,
                );
                let la = cos_x * scale_x;
                let lb = cos_y * scale_y;
                let lc = sin_x * scale_x;
                let ld = sin_y * scale_y;
                self.a = pa * la - pb * lc;
                self.b = pa * lb - pb * ld;
                self.c = pc * la + pd * lc;
                self.d = pc * lb + pd * ld;
            }
            Inherit::NoScale | Inherit::NoScaleOrReflection => {
                let (sine, cosine) = math::sin_cos_deg(rotation);
                let mut za = (pa * cosine + pb * sine) / sx;
                let mut zc = (pc * cosine + pd * sine) / sy;
                let mut s = math::sqrt(za * za + zc * zc);
                if s > 0.00001 {
                    s = 1.0 / s;
                }
                za *= s;
                zc *= s;
                s = math::sqrt(za * za + zc * zc);
                if self.inherit == Inherit::NoScale
                    && ((pa * pd - pb * pc < 0.0) != ((sx < 0.0) != (sy < 0.0)))
                {
                    s = -s;
                }
                let r = math::PI / 2.0 + math::atan2(zc, za);
                let (sin_r, cos_r) = math::sin_cos(r);
                let zb = cos_r * s;
                let zd = sin_r * s;
                let ((sin_x, cos_x), (sin_y, cos_y)) =
                    math::sin_cos_deg_pair(shear_x, 90.0 + shear_y);
                let la = cos_x * scale_x;
                let lb = cos_y * scale_y;
                let lc = sin_x * scale_x;
                let ld = sin_y * scale_y;
                self.a = za * la + zb * lc;
                self.b = za * lb + zb * ld;
                self.c = zc * la + zd * lc;
                self.d = zc * lb + zd * ld;
            }
        }
        self.a *= sx;
        self.b *= sx;
        self.c *= sy;
        self.d *= sy;
    }

    /// spine-cpp `Bone::update`: world transform from the applied pose.
    pub fn update_from_applied(&mut self, parent: Option<ParentWorld>, frame: &WorldFrame) {
        let AppliedPose { x, y, rotation: r, scale_x: sx, scale_y: sy, shear_x: hx, shear_y: hy } =
            *self.applied_mut();
        self.world_from(None, parent, frame, x, y, r, sx, sy, hx, hy);
    }

    /// [`Bone::update_from_applied`] for a child bone of [`Inherit::Normal`] (`parent` is its
    /// parent): the same arithmetic as that mode's branch, with no frame lookup.
    #[inline(always)]
    fn update_normal_child(&mut self, parent: &Bone) {
        // No deferred pose here: bones the walk reaches after a constraint that may move
        // them compute theirs at once (`AP_READ_AFTER`).
        let ap = self.applied_in_cache();
        self.world_normal_child(parent, ap);
    }

    /// [`Bone::reset_applied`] then [`Bone::update_normal_child`]: every local field read
    /// before the applied pose is written, the world computed from those registers.
    #[inline(always)]
    fn reset_update_normal_child(&mut self, parent: &Bone) {
        let pose = self.local_pose();
        self.world_normal_child(parent, pose);
        self.ap = pose;
        self.ap_flags &= !AP_DEFERRED;
    }

    /// The world transform of a child of [`Inherit::Normal`] from `pose` (the arithmetic of
    /// that mode's branch of the world transform).
    #[inline(always)]
    fn world_normal_child(&mut self, parent: &Bone, pose: AppliedPose) {
        let (pa, pb, pc, pd) = (parent.a, parent.b, parent.c, parent.d);
        let (x, y) = (pose.x, pose.y);
        self.world_x = pa * x + pb * y + parent.world_x;
        self.world_y = pc * x + pd * y + parent.world_y;
        let [la, lb, lc, ld] =
            self.local.get(pose.rotation, pose.scale_x, pose.scale_y, pose.shear_x, pose.shear_y);
        self.a = pa * la + pb * lc;
        self.b = pa * lb + pb * ld;
        self.c = pc * la + pd * lc;
        self.d = pc * lb + pd * ld;
    }

    /// The local pose as an [`AppliedPose`].
    #[inline(always)]
    fn local_pose(&self) -> AppliedPose {
        AppliedPose {
            x: self.x,
            y: self.y,
            rotation: self.rotation,
            scale_x: self.scale_x,
            scale_y: self.scale_y,
            shear_x: self.shear_x,
            shear_y: self.shear_y,
        }
    }

    /// The applied pose set to the local pose (the reset before the update cache's walk).
    #[inline(always)]
    fn reset_applied(&mut self) {
        self.ap = self.local_pose();
        self.ap_flags &= !AP_DEFERRED;
    }

    /// spine-cpp `Bone::updateWorldTransform()`: world transform from the local pose.
    pub fn update_from_local(&mut self, parent: Option<ParentWorld>, frame: &WorldFrame) {
        let (x, y, r, sx, sy, hx, hy) =
            (self.x, self.y, self.rotation, self.scale_x, self.scale_y, self.shear_x, self.shear_y);
        self.update_world_transform_with(parent, frame, x, y, r, sx, sy, hx, hy);
    }

    /// The applied pose: what the world transform was computed from, or after a constraint
    /// moved the world transform, the pose that gives it (spine-cpp `ax .. ashearY`). A
    /// pose left by [`Bone::update_applied_transform`] is computed here on first read, from
    /// the values that call took (the same operations, so the same bits).
    #[inline]
    pub fn applied(&self) -> AppliedPose {
        if self.ap_flags & AP_DEFERRED != 0 {
            self.deferred_pose()
        } else {
            self.ap
        }
    }

    /// The applied pose without the deferred test, for the readers in the update cache
    /// that [`Skeleton::update_cache`] covers with [`AP_READ_AFTER`] (the walk, IK): a
    /// bone they read after a constraint that may defer its pose computes it at once.
    #[inline(always)]
    pub(crate) fn applied_in_cache(&self) -> AppliedPose {
        debug_assert!(self.ap_flags & AP_DEFERRED == 0, "deferred applied pose read in the cache");
        self.ap
    }

    /// Sets the applied pose (spine-cpp `setAX .. setAShearY`; a pending
    /// [`Bone::update_applied_transform`] is dropped).
    #[inline]
    pub fn set_applied(&mut self, pose: AppliedPose) {
        self.ap = pose;
        self.ap_flags &= !AP_DEFERRED;
    }

    /// The applied pose to read or change in place (computed first when pending).
    #[inline]
    pub fn applied_mut(&mut self) -> &mut AppliedPose {
        if self.ap_flags & AP_DEFERRED != 0 {
            self.materialize_applied();
        }
        &mut self.ap
    }

    /// Computes a pending applied pose into the fields.
    #[cold]
    #[inline(never)]
    fn materialize_applied(&mut self) {
        self.ap = self.deferred_pose();
        self.ap_flags &= !AP_DEFERRED;
    }

    /// The pose a deferred [`Bone::update_applied_transform`] gives (`ap_flags` has
    /// [`AP_DEFERRED`]).
    #[inline(never)]
    fn deferred_pose(&self) -> AppliedPose {
        if self.ap_flags & AP_AIMED != 0 {
            let rotation = crate::constraints::ik::aimed_rotation(self.ap, self.ap_more);
            return AppliedPose { rotation, ..self.ap };
        }
        if self.ap_flags & AP_INPUTS != 0 {
            applied_from_local_matrix(local_matrix_from_inputs(self.ap, self.ap_more))
        } else {
            applied_from_local_matrix(self.ap)
        }
    }

    /// Records `x, y` and the parent-space matrix `ra rb / rc rd` of
    /// [`Bone::update_applied_transform`]; the rotation, scales and shears are computed
    /// from them on first read ([`Bone::applied`]). Nothing a later change of this bone's or
    /// its parent's world transform does can alter them.
    #[inline(always)]
    fn defer_applied(&mut self, x: f32, y: f32, ra: f32, rb: f32, rc: f32, rd: f32) {
        self.ap =
            AppliedPose { x, y, rotation: ra, scale_x: rb, scale_y: rc, shear_x: rd, shear_y: 0.0 };
        self.ap_flags = (self.ap_flags & !(AP_INPUTS | AP_AIMED)) | AP_DEFERRED;
        if self.ap_flags & AP_READ_AFTER != 0 {
            self.materialize_applied();
        }
    }

    /// [`Bone::update_applied_transform`] with a parent and [`Inherit::Normal`]: records its
    /// inputs (the position relative to the parent, the parent's matrix and this bone's),
    /// from which [`local_matrix_from_inputs`] and [`applied_from_local_matrix`] compute
    /// the pose on first read. Copies, so nothing a later change of this bone's or its
    /// parent's world transform does can alter them.
    #[inline(always)]
    fn defer_inputs(&mut self, p: ParentWorld) {
        if self.ap_flags & AP_READ_AFTER != 0 {
            self.applied_from_inputs(p);
            return;
        }
        let w = [self.a, self.b, self.c, self.d, self.world_x, self.world_y];
        self.store_inputs(p, w);
    }

    /// The deferred pose's inputs: the offset to the parent, the parent's matrix and the
    /// bone's (`w`: `a, b, c, d, world_x, world_y`).
    #[inline(always)]
    fn store_inputs(&mut self, p: ParentWorld, w: [f32; 6]) {
        let [a, b, c, d, world_x, world_y] = w;
        let ap = &mut self.ap;
        (ap.x, ap.y) = (world_x - p.world_x, world_y - p.world_y);
        (ap.rotation, ap.scale_x, ap.scale_y, ap.shear_x) = (p.a, p.b, p.c, p.d);
        self.ap_more = [a, b, c, d];
        self.ap_flags = (self.ap_flags & !AP_AIMED) | AP_DEFERRED | AP_INPUTS;
    }

    /// [`Bone::defer_inputs`] computed at once (for [`AP_READ_AFTER`]).
    #[cold]
    #[inline(never)]
    fn applied_from_inputs(&mut self, p: ParentWorld) {
        let dx = self.world_x - p.world_x;
        let dy = self.world_y - p.world_y;
        let d = AppliedPose {
            x: dx,
            y: dy,
            rotation: p.a,
            scale_x: p.b,
            scale_y: p.c,
            shear_x: p.d,
            shear_y: 0.0,
        };
        let m = local_matrix_from_inputs(d, [self.a, self.b, self.c, self.d]);
        self.set_applied(applied_from_local_matrix(m));
    }

    /// spine-cpp `Bone::updateAppliedTransform`: the applied pose that gives the current
    /// world transform (after a constraint changed it).
    ///
    /// The common case (a parent, [`Inherit::Normal`], inlined into the caller) only copies
    /// its inputs (this bone's world transform relative to the parent's and the two
    /// matrices); the other cases compute the position and the parent-space matrix here
    /// (the matrix inverse and two products). The rest (a square root, two `atan2`s, and in
    /// the common case the inverse and products) is computed when [`Bone::applied`] (or the
    /// next update from the applied pose) reads the pose, with the same operations. The
    /// root bone's pose is computed at once.
    #[inline(always)]
    pub fn update_applied_transform(&mut self, parent: Option<ParentWorld>, frame: &WorldFrame) {
        match parent {
            Some(p) if self.inherit == Inherit::Normal => self.defer_inputs(p),
            _ => self.update_applied_transform_general(parent, frame),
        }
    }

    /// Sets the world transform to `w` (`a, b, c, d, world_x, world_y`), then
    /// [`Bone::update_applied_transform`] with the deferred inputs taken from `w`, not read
    /// back: a constraint that computed `w` field by field would leave single-float stores
    /// the wider reads of the copy cannot be forwarded from.
    #[inline(always)]
    pub(crate) fn set_world_update_applied(
        &mut self,
        w: [f32; 6],
        parent: Option<ParentWorld>,
        frame: &WorldFrame,
    ) {
        let [a, b, c, d, world_x, world_y] = w;
        (self.a, self.b, self.c, self.d) = (a, b, c, d);
        (self.world_x, self.world_y) = (world_x, world_y);
        match parent {
            Some(p) if self.inherit == Inherit::Normal && self.ap_flags & AP_READ_AFTER == 0 => {
                self.store_inputs(p, w);
            }
            _ => self.update_applied_transform(parent, frame),
        }
    }

    /// [`Bone::update_applied_transform`] for every parent and inherit mode.
    #[inline(never)]
    fn update_applied_transform_general(
        &mut self,
        parent: Option<ParentWorld>,
        frame: &WorldFrame,
    ) {
        let Some(p) = parent else {
            self.set_applied(AppliedPose {
                x: self.world_x - frame.x,
                y: self.world_y - frame.y,
                rotation: math::atan2_deg(self.c, self.a),
                scale_x: math::sqrt(self.a * self.a + self.c * self.c),
                scale_y: math::sqrt(self.b * self.b + self.d * self.d),
                shear_x: 0.0,
                shear_y: math::atan2_deg(
                    self.a * self.b + self.c * self.d,
                    self.a * self.d - self.b * self.c,
                ),
            });
            return;
        };
        let (mut pa, mut pb, mut pc, mut pd) = (p.a, p.b, p.c, p.d);
        let mut pid = 1.0 / (pa * pd - pb * pc);
        let (mut ia, mut ib, mut ic, mut id) = (pd * pid, pb * pid, pc * pid, pa * pid);
        let dx = self.world_x - p.world_x;
        let dy = self.world_y - p.world_y;
        let x = dx * ia - dy * ib;
        let y = dy * id - dx * ic;
        let (ra, rb, rc, rd);
        if self.inherit == Inherit::OnlyTranslation {
            ra = self.a;
            rb = self.b;
            rc = self.c;
            rd = self.d;
        } else {
            match self.inherit {
                Inherit::NoRotationOrReflection => {
                    let s = math::abs(pa * pd - pb * pc) / (pa * pa + pc * pc);
                    let sa = pa / frame.scale_x;
                    let sc = pc / frame.scale_y;
                    pb = -sc * s * frame.scale_x;
                    pd = sa * s * frame.scale_y;
                    pid = 1.0 / (pa * pd - pb * pc);
                    ia = pd * pid;
                    ib = pb * pid;
                }
                Inherit::NoScale | Inherit::NoScaleOrReflection => {
                    let r = self.rotation * DEG_RAD;
                    let (sin, cos) = math::sin_cos(r);
                    pa = (pa * cos + pb * sin) / frame.scale_x;
                    pc = (pc * cos + pd * sin) / frame.scale_y;
                    let mut s = math::sqrt(pa * pa + pc * pc);
                    if f64::from(s) > 0.00001 {
                        s = 1.0 / s;
                    }
                    pa *= s;
                    pc *= s;
                    s = math::sqrt(pa * pa + pc * pc);
                    if self.inherit == Inherit::NoScale
                        && ((pid < 0.0) != ((frame.scale_x < 0.0) != (frame.scale_y < 0.0)))
                    {
                        s = -s;
                    }
                    let r = math::PI / 2.0 + math::atan2(pc, pa);
                    let (sin_r, cos_r) = math::sin_cos(r);
                    pb = cos_r * s;
                    pd = sin_r * s;
                    pid = 1.0 / (pa * pd - pb * pc);
                    ia = pd * pid;
                    ib = pb * pid;
                    ic = pc * pid;
                    id = pa * pid;
                }
                Inherit::Normal | Inherit::OnlyTranslation => {}
            }
            ra = ia * self.a - ib * self.c;
            rb = ia * self.b - ib * self.d;
            rc = id * self.c - ic * self.a;
            rd = id * self.d - ic * self.b;
        }
        self.defer_applied(x, y, ra, rb, rc, rd);
    }

    /// World point to this bone's local space.
    pub fn world_to_local(&self, world_x: f32, world_y: f32) -> (f32, f32) {
        let inv_det = 1.0 / (self.a * self.d - self.b * self.c);
        let x = world_x - self.world_x;
        let y = world_y - self.world_y;
        (x * self.d * inv_det - y * self.b * inv_det, y * self.a * inv_det - x * self.c * inv_det)
    }

    /// Local point to world space.
    pub fn local_to_world(&self, local_x: f32, local_y: f32) -> (f32, f32) {
        (
            local_x * self.a + local_y * self.b + self.world_x,
            local_x * self.c + local_y * self.d + self.world_y,
        )
    }

    /// World rotation (degrees) to local rotation.
    pub fn world_to_local_rotation(&self, world_rotation: f32) -> f32 {
        let r = world_rotation * DEG_RAD;
        let (sine, cosine) = math::sin_cos(r);
        math::atan2_deg(self.a * sine - self.c * cosine, self.d * cosine - self.b * sine)
            + self.rotation
            - self.shear_x
    }

    /// Local rotation (degrees) to world rotation.
    pub fn local_to_world_rotation(&self, local_rotation: f32) -> f32 {
        let r = (local_rotation - self.rotation - self.shear_x) * DEG_RAD;
        let (sine, cosine) = math::sin_cos(r);
        math::atan2_deg(cosine * self.c + sine * self.d, cosine * self.a + sine * self.b)
    }

    /// Rotates the world transform by `degrees`.
    pub fn rotate_world(&mut self, degrees: f32) {
        let r = degrees * DEG_RAD;
        let (sine, cosine) = math::sin_cos(r);
        let (ra, rb) = (self.a, self.b);
        self.a = cosine * ra - sine * self.c;
        self.b = cosine * rb - sine * self.d;
        self.c = sine * ra + cosine * self.c;
        self.d = sine * rb + cosine * self.d;
    }

    /// World rotation of the x axis, degrees.
    pub fn world_rotation_x(&self) -> f32 {
        math::atan2_deg(self.c, self.a)
    }

    /// World rotation of the y axis, degrees.
    pub fn world_rotation_y(&self) -> f32 {
        math::atan2_deg(self.d, self.b)
    }

    /// World scale x.
    pub fn world_scale_x(&self) -> f32 {
        math::sqrt(self.a * self.a + self.c * self.c)
    }

    /// World scale y.
    pub fn world_scale_y(&self) -> f32 {
        math::sqrt(self.b * self.b + self.d * self.d)
    }
}

/// The parent world transform of bone `id` in `bones` (`None` for the root).
pub fn parent_world(bones: &[Bone], id: BoneId) -> Option<ParentWorld> {
    let p = bones.get(id.index())?.parent?;
    bones.get(p.index()).map(Bone::world)
}

/// spine-cpp `Bone::update`: world transform of bone `id` from its applied pose.
#[inline]
pub fn update_bone(bones: &mut [Bone], id: BoneId, frame: &WorldFrame) {
    let parent = parent_world(bones, id);
    if let Some(b) = bones.get_mut(id.index()) {
        b.update_from_applied(parent, frame);
    }
}

/// A later update-cache entry of bone `i` (see `WalkEntry::Other`): from its applied pose,
/// a child of [`Inherit::Normal`] inline as in the walk's bone arm.
#[inline(always)]
fn update_again(bones: &mut [Bone], i: usize, frame: &WorldFrame) {
    if let Some(Bone { parent: Some(p), inherit: Inherit::Normal, .. }) = bones.get(i) {
        let p = p.index();
        if p < i {
            let (head, tail) = bones.split_at_mut(i);
            if let (Some(pw), Some(b)) = (head.get(p), tail.first_mut()) {
                b.update_normal_child(pw);
                return;
            }
        }
    }
    update_bone(bones, BoneId(i as u32), frame);
}

/// A slot instance.
#[derive(Debug, Clone, PartialEq)]
pub struct Slot {
    /// The bone.
    pub bone: BoneId,
    /// Color.
    pub color: Color,
    /// Dark color (alpha unused), meaningful when `has_dark_color`.
    pub dark_color: Color,
    /// The slot has a dark color (two-color tint).
    pub has_dark_color: bool,
    /// Current attachment.
    pub attachment: Option<AttachmentId>,
    /// Deform offsets (empty = none).
    pub deform: Vec<f32>,
    /// Sequence frame, `-1` = the sequence's setup index.
    pub sequence_index: i32,
}

impl Slot {
    /// Copies `p` into this slot, reusing the deform buffer (4.3 `SlotPose.set`).
    pub(crate) fn set_from(&mut self, p: &Slot) {
        self.bone = p.bone;
        self.color = p.color;
        self.dark_color = p.dark_color;
        self.has_dark_color = p.has_dark_color;
        self.attachment = p.attachment;
        self.deform.clone_from(&p.deform);
        self.sequence_index = p.sequence_index;
    }
}

/// One entry of the update cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpdateEntry {
    /// Compute a bone's world transform.
    Bone(BoneId),
    /// Run a constraint's solver.
    Constraint(ConstraintId),
}

/// One entry of the walk [`Skeleton::update_world_transform`] runs: the update cache with a
/// bone's first entry told apart from its later ones (built with it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WalkEntry {
    /// A bone's first entry: its applied pose is set to its local pose here (the reset
    /// spine-cpp does for every bone before the walk; no entry before this one reads or
    /// writes this bone's applied pose, since constraints sort the bones they touch before
    /// them).
    Bone(BoneId),
    /// A constraint (index below the constraint count), or `constraint count + bone index`:
    /// a later entry of that bone (re-sorted after a constraint), from its applied pose.
    /// Apart from the bone arm, so the bone entries' dispatch stays one tag test.
    Other(u32),
}

/// A posable instance of shared [`SkeletonData`]. `Send`; cheap to create.
#[derive(Debug, Clone)]
pub struct Skeleton {
    /// The shared setup data.
    pub data: Arc<SkeletonData>,
    /// Bones (index = [`BoneId`]).
    pub bones: Vec<Bone>,
    /// Slots (index = [`SlotId`]).
    pub slots: Vec<Slot>,
    /// Slots in draw order.
    pub draw_order: Vec<SlotId>,
    /// Constraints (index = [`ConstraintId`], update order).
    pub constraints: Vec<Constraint>,
    /// Current skin.
    pub skin: Option<SkinId>,
    /// Update order of bones and constraints, built by [`Skeleton::update_cache`] (which
    /// also derives per-bone facts the walk relies on, so it is not public: read it through
    /// [`Skeleton::update_order`]).
    pub(crate) update_cache: Vec<UpdateEntry>,
    /// `update_cache` as the walk runs it (see [`WalkEntry`]).
    walk: Vec<WalkEntry>,
    /// The ranges of bones no [`WalkEntry::Bone`] reaches (inactive for the skin; every bone
    /// with a slider constraint): their applied pose is reset to the local pose before the
    /// walk.
    unwalked: Vec<std::ops::Range<usize>>,
    /// Per slot, the animation states' bookkeeping (spine-cpp `Slot::attachmentState`),
    /// apart from the slots so that the end of `AnimationState::apply` reads a few cache
    /// lines, not every slot (see [`AttachmentStates`]).
    pub(crate) attachment_states: AttachmentStates,
    /// Skeleton tint.
    pub color: Color,
    /// Position x.
    pub x: f32,
    /// Position y.
    pub y: f32,
    /// Scale x (negative flips).
    pub scale_x: f32,
    /// Scale y (negative flips).
    pub scale_y: f32,
    /// Y axis points down (spine-cpp's global `Bone::yDown`; default y-up).
    pub y_down: bool,
    /// Physics time, advanced by [`Skeleton::update`].
    pub time: f32,
    /// The exact time (see [`Skeleton::exact_time`]).
    time64: f64,
    /// [`Skeleton::time`] as [`Skeleton::update`] left it (a different value was set since).
    time_seen: f32,
    /// Direction the physics constraints' wind blows in (spine-cpp 4.3
    /// `Skeleton::setWindX/Y`, default `(1, 0)`). Used by the 4.3 physics solver only; 4.2
    /// and older blow along x.
    pub wind: [f32; 2],
    /// Direction the physics constraints' gravity pulls in (spine-cpp 4.3
    /// `Skeleton::setGravityX/Y`, default `(0, 1)`). Used by the 4.3 physics solver only.
    pub gravity: [f32; 2],
    /// 4.3 lazy-pose state per bone (empty unless
    /// [`Behaviour::lazy_pose_spine43`](spine_model::Behaviour::lazy_pose_spine43)).
    pub lazy43: Vec<constraints::lazy43::LazyBone>,
    /// 4.3 (spine-ts 4.3 `Slot` / `DrawOrder` poses): per slot, whether a slider's
    /// animation keys it (4.3 `Skeleton.constrained(slot)`). Such a slot's entry in
    /// [`Skeleton::slots`] is its *applied* pose, what the slider changes and rendering
    /// reads; `slot_poses` holds its pose, what animations and the setup pose set (see
    /// [`Skeleton::swap_slot_poses`]), copied to the applied pose at every
    /// [`Skeleton::update_world_transform`]. Empty for other data.
    pub(crate) slot_constrained: Vec<bool>,
    /// The poses of the constrained slots (see `slot_constrained`; other entries unused).
    pub(crate) slot_poses: Vec<Slot>,
    /// 4.3: a slider's animation keys the draw order; then [`Skeleton::draw_order`] is the
    /// applied draw order and `draw_order_pose` the pose (as for slots).
    pub(crate) draw_order_constrained: bool,
    /// The draw order pose (see `draw_order_constrained`).
    pub(crate) draw_order_pose: Vec<SlotId>,
    /// Every bone's children (from the data; one flat list, not a `Vec` in each [`Bone`],
    /// which the frame's walk would carry through the cache).
    pub(crate) children: Children,
    /// Test switch (see [`Skeleton::set_eager_applied`]).
    eager_applied: bool,
    /// Which bones are active, as a stamp: a new process-wide unique value each time
    /// [`Skeleton::update_cache`] runs (a clone keeps it: same bones, same activity). Lets
    /// an [`AnimationState`](crate::AnimationState) keep the timelines of an animation that
    /// reach an active bone (see `TrackEntry`).
    pub(crate) activity: u64,
}

/// The slots' attachment states (spine-cpp `Slot::attachmentState`, written by
/// [`AnimationState`](crate::AnimationState)s): `unkeyed + 2` (current) when an attachment
/// timeline set the slot's attachment, `unkeyed + 1` (setup) when one was applied without
/// setting it, where `unkeyed` is the state's even counter. So a state is odd exactly when
/// its last mark was a setup mark; the count of odd states lets the end of `apply`, which
/// looks for slots marked setup in this frame, skip the search when there are none.
#[derive(Debug, Clone, Default)]
pub(crate) struct AttachmentStates {
    /// One per slot (a slot past the end reads 0).
    states: Vec<i32>,
    /// How many of `states` are odd.
    odd: usize,
}

impl AttachmentStates {
    /// The state of slot `i`.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> i32 {
        self.states.get(i).copied().unwrap_or(0)
    }

    /// Sets the state of slot `i` of `slots` (the list grown to the slot count on first
    /// use; a slot out of range is ignored).
    #[inline]
    pub(crate) fn set(&mut self, i: usize, slots: usize, v: i32) {
        if self.states.len() < slots {
            self.states.resize(slots, 0);
        }
        let Some(s) = self.states.get_mut(i) else { return };
        self.odd = self.odd + (v & 1) as usize - (*s & 1) as usize;
        *s = v;
    }

    /// The first slot at or after `from` in state `v`, when `v` is odd and some state is;
    /// `None` otherwise.
    #[inline]
    pub(crate) fn find_odd(&self, from: usize, v: i32) -> Option<usize> {
        if self.odd == 0 || v & 1 == 0 {
            return None;
        }
        let rest = self.states.get(from..)?;
        rest.iter().position(|&s| s == v).map(|i| from + i)
    }
}

/// The next [`Skeleton`] `activity` stamp (never 0).
fn next_activity() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// The children of every bone, in bone order, as one flat list: bone `i`'s are
/// `ids[at[i]..at[i + 1]]` (spine-cpp `Bone::children`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Children {
    at: Vec<u32>,
    ids: Vec<BoneId>,
}

impl Children {
    /// The lists of `data`'s bones (a parent out of range has no list).
    fn new(data: &SkeletonData) -> Children {
        let n = data.bones.len();
        let mut at = vec![0u32; n + 1];
        for b in &data.bones {
            if let Some(c) = b.parent.and_then(|p| at.get_mut(p.index() + 1)) {
                *c += 1;
            }
        }
        for i in 1..at.len() {
            at[i] += at[i - 1];
        }
        let mut ids = vec![BoneId(0); at[n] as usize];
        let mut fill: Vec<u32> = at[..n].to_vec();
        for (i, b) in data.bones.iter().enumerate() {
            let Some(f) = b.parent.and_then(|p| fill.get_mut(p.index())) else { continue };
            if let Some(slot) = ids.get_mut(*f as usize) {
                *slot = BoneId(i as u32);
            }
            *f += 1;
        }
        Children { at, ids }
    }

    /// The children of bone `id`.
    pub(crate) fn of(&self, id: BoneId) -> &[BoneId] {
        let i = id.index();
        match (self.at.get(i), self.at.get(i + 1)) {
            (Some(&s), Some(&e)) => self.ids.get(s as usize..e as usize).unwrap_or_default(),
            _ => &[],
        }
    }
}

impl Skeleton {
    /// A skeleton in the setup pose, no skin (world transforms not computed yet).
    pub fn new(data: Arc<SkeletonData>) -> Skeleton {
        let bones: Vec<Bone> = data.bones.iter().map(Bone::new).collect();
        let children = Children::new(&data);
        let slots = data
            .slots
            .iter()
            .map(|s| Slot {
                bone: s.bone,
                color: s.color,
                dark_color: s
                    .dark_color
                    .filter(|_| data.behaviour.setup_pose_sets_dark)
                    .unwrap_or(Color { r: 0.0, g: 0.0, b: 0.0, a: 0.0 }),
                has_dark_color: s.dark_color.is_some(),
                attachment: None,
                deform: Vec::new(),
                sequence_index: 0,
            })
            .collect();
        let constraints = data.constraints.iter().map(Constraint::new).collect();
        let draw_order = (0..data.slots.len() as u32).map(SlotId).collect();
        let mut sk = Skeleton {
            data,
            bones,
            slots,
            draw_order,
            constraints,
            skin: None,
            update_cache: Vec::new(),
            walk: Vec::new(),
            unwalked: Vec::new(),
            attachment_states: AttachmentStates::default(),
            color: Color::WHITE,
            x: 0.0,
            y: 0.0,
            scale_x: 1.0,
            scale_y: 1.0,
            y_down: false,
            time: 0.0,
            time64: 0.0,
            time_seen: 0.0,
            wind: [1.0, 0.0],
            gravity: [0.0, 1.0],
            lazy43: Vec::new(),
            slot_constrained: Vec::new(),
            slot_poses: Vec::new(),
            draw_order_constrained: false,
            draw_order_pose: Vec::new(),
            children,
            eager_applied: false,
            activity: 0,
        };
        if sk.data.behaviour.lazy_pose_spine43 {
            sk.lazy43 = vec![constraints::lazy43::LazyBone::default(); sk.bones.len()];
            // spine-ts 4.3 `BonePose`: a bone never posed (inactive for the skin) holds a
            // zero world transform, which weighted vertices on it read (spine-cpp 4.2
            // starts from the identity).
            for b in &mut sk.bones {
                (b.a, b.b, b.c, b.d) = (0.0, 0.0, 0.0, 0.0);
            }
        }
        for i in 0..sk.slots.len() {
            sk.set_slot_to_setup_pose(SlotId(i as u32));
        }
        sk.update_cache();
        sk
    }

    /// The animation states' bookkeeping of slot `slot` (spine-cpp
    /// `Slot::getAttachmentState`; 0 for a slot out of range).
    pub fn attachment_state(&self, slot: SlotId) -> i32 {
        self.attachment_states.get(slot.index())
    }

    /// Position and scale as bones see them.
    pub fn frame(&self) -> WorldFrame {
        WorldFrame {
            x: self.x,
            y: self.y,
            scale_x: self.scale_x,
            scale_y: if self.y_down { -self.scale_y } else { self.scale_y },
        }
    }

    /// Advances the physics time.
    pub fn update(&mut self, delta: f32) {
        self.time64 = self.exact_time() + f64::from(delta);
        self.time += delta;
        self.time_seen = self.time;
    }

    /// The skeleton time as the `f64` sum of the deltas [`Skeleton::update`] added (exact
    /// for any run of frames), or [`Skeleton::time`] when that was set since. The 4.3
    /// physics solver steps by it (spine-ts 4.3 keeps its time in f64).
    pub fn exact_time(&self) -> f64 {
        if self.time == self.time_seen {
            self.time64
        } else {
            f64::from(self.time)
        }
    }

    /// spine-cpp `Skeleton::physicsTranslate`: the next [`Physics::Update`] applies forces
    /// as if every physics bone had moved an additional `(x, y)` in world space (so
    /// `physics_translate(-dx, -dy)` after moving the skeleton by `(dx, dy)` hides the move).
    pub fn physics_translate(&mut self, x: f32, y: f32) {
        for c in &mut self.constraints {
            if let constraints::ConstraintPose::Physics(p) = &mut c.pose {
                p.state.translate(x, y);
            }
        }
    }

    /// spine-cpp `Skeleton::physicsRotate`: the next [`Physics::Update`] applies forces as
    /// if every physics bone had additionally rotated `degrees` around world `(x, y)`.
    pub fn physics_rotate(&mut self, x: f32, y: f32, degrees: f32) {
        for c in &mut self.constraints {
            if let constraints::ConstraintPose::Physics(p) = &mut c.pose {
                p.state.rotate(x, y, degrees);
            }
        }
    }

    /// spine-cpp `PhysicsConstraint::reset()` on every physics constraint (at the current
    /// skeleton time): offsets and velocities cleared, the next update only records.
    pub fn reset_physics(&mut self) {
        let (now, now64) = (self.time, self.exact_time());
        for c in &mut self.constraints {
            if let constraints::ConstraintPose::Physics(p) = &mut c.pose {
                p.state.reset_at(now, now64);
            }
        }
    }

    /// Bones, constraints and slots back to setup (physics state kept).
    pub fn set_to_setup_pose(&mut self) {
        self.set_bones_to_setup_pose();
        self.set_slots_to_setup_pose();
    }

    /// Bones and constraint poses back to setup.
    pub fn set_bones_to_setup_pose(&mut self) {
        let data = &*self.data;
        for (b, d) in self.bones.iter_mut().zip(&data.bones) {
            b.set_to_setup_pose(d);
        }
        for (c, d) in self.constraints.iter_mut().zip(&data.constraints) {
            c.set_to_setup_pose(d);
        }
    }

    /// Draw order and slots back to setup.
    pub fn set_slots_to_setup_pose(&mut self) {
        // 4.3: the poses of constrained slots (see `slot_constrained`).
        self.swap_slot_poses();
        self.draw_order.clear();
        self.draw_order.extend((0..self.slots.len() as u32).map(SlotId));
        for i in 0..self.slots.len() {
            self.set_slot_to_setup_pose(SlotId(i as u32));
        }
        self.swap_slot_poses();
    }

    /// One slot back to setup (spine-cpp `Slot::setToSetupPose`).
    pub fn set_slot_to_setup_pose(&mut self, id: SlotId) {
        let data = self.data.clone();
        let sd = data.slot(id);
        let Some(slot) = self.slots.get_mut(id.index()) else { return };
        slot.color = sd.color;
        if let Some(dc) = sd.dark_color.filter(|_| data.behaviour.setup_pose_sets_dark) {
            slot.dark_color = dc;
        }
        match sd.attachment.as_deref() {
            Some(name) if !name.is_empty() => {
                slot.attachment = None;
                let att = self.get_attachment(id, name);
                self.set_attachment(id, att);
            }
            _ => self.set_attachment(id, None),
        }
    }

    /// The attachment `name` of `slot` from the current skin, else the default skin.
    pub fn get_attachment(&self, slot: SlotId, name: &str) -> Option<AttachmentId> {
        if name.is_empty() {
            return None;
        }
        if let Some(s) = self.skin {
            if let Some(a) = self.data.skin(s).attachment(slot, name) {
                return Some(a);
            }
        }
        self.data.default_skin.and_then(|d| self.data.skin(d).attachment(slot, name))
    }

    /// spine-cpp `Slot::setAttachment`: deform cleared unless both are vertex attachments
    /// sharing a timeline attachment; sequence index reset.
    pub fn set_attachment(&mut self, slot: SlotId, attachment: Option<AttachmentId>) {
        let Some(s) = self.slots.get(slot.index()) else { return };
        if s.attachment == attachment {
            return;
        }
        let keep = match (attachment, s.attachment) {
            (Some(new), Some(old)) => {
                match (timeline_attachment(&self.data, new), timeline_attachment(&self.data, old)) {
                    (Some(a), Some(b)) => a == b,
                    _ => false,
                }
            }
            _ => false,
        };
        if let Some(s) = self.slots.get_mut(slot.index()) {
            if !keep {
                s.deform.clear();
            }
            s.attachment = attachment;
            s.sequence_index = -1;
        }
    }

    /// Sets the attachment of slot `slot` by placeholder name (`None` hides).
    pub fn set_attachment_by_name(&mut self, slot: SlotId, name: Option<&str>) {
        let att = name.and_then(|n| self.get_attachment(slot, n));
        self.set_attachment(slot, att);
    }

    /// spine-cpp `Skeleton::setSkin`: attachments of the old skin that are shown are
    /// replaced by the new skin's of the same name; without an old skin, slots get their
    /// setup attachment from the new skin when it has one. Rebuilds the update cache.
    pub fn set_skin(&mut self, skin: Option<SkinId>) {
        if self.skin == skin {
            return;
        }
        if let Some(new) = skin {
            let data = self.data.clone();
            let new_skin = data.skin(new);
            if let Some(old) = self.skin {
                for e in &data.skin(old).entries {
                    let shown = self.slots.get(e.slot.index()).and_then(|s| s.attachment);
                    if shown == Some(e.attachment) {
                        if let Some(a) = new_skin.attachment(e.slot, &e.name) {
                            self.set_attachment(e.slot, Some(a));
                        }
                    }
                }
            } else {
                for (i, sd) in data.slots.iter().enumerate() {
                    if let Some(name) = sd.attachment.as_deref().filter(|n| !n.is_empty()) {
                        if let Some(a) = new_skin.attachment(SlotId(i as u32), name) {
                            self.set_attachment(SlotId(i as u32), Some(a));
                        }
                    }
                }
            }
        }
        self.skin = skin;
        self.update_cache();
    }

    /// Sets the skin by name (`None` / unknown name = no skin). Returns whether it exists.
    pub fn set_skin_by_name(&mut self, name: Option<&str>) -> bool {
        let id = name.and_then(|n| self.data.find_skin(n));
        self.set_skin(id);
        id.is_some() || name.is_none()
    }

    /// The update order [`Skeleton::update_cache`] built: bones and constraints in the
    /// order [`Skeleton::update_world_transform`] visits them.
    pub fn update_order(&self) -> &[UpdateEntry] {
        &self.update_cache
    }

    /// Rebuilds the update cache (spine-cpp `Skeleton::updateCache`): bone activity from
    /// the skin, constraints in order with their bones sorted before them.
    pub fn update_cache(&mut self) {
        if self.data.behaviour.lazy_pose_spine43 {
            self.update_cache43();
            return;
        }
        let data = self.data.clone();
        self.activity = next_activity();
        self.update_cache.clear();
        for (b, d) in self.bones.iter_mut().zip(&data.bones) {
            b.sorted = d.skin_required;
            b.active = !b.sorted;
        }
        if let Some(skin) = self.skin {
            for &id in &data.skin(skin).bones {
                let mut cur = Some(id);
                while let Some(i) = cur {
                    let Some(b) = self.bones.get_mut(i.index()) else { break };
                    b.sorted = false;
                    b.active = true;
                    cur = b.parent;
                }
            }
        }
        for (ci, cd) in data.constraints.iter().enumerate() {
            let cid = ConstraintId(ci as u32);
            let skin_ok = !cd.skin_required
                || self.skin.is_some_and(|s| data.skin(s).constraints.contains(&cid));
            let active = skin_ok
                && match &cd.kind {
                    ConstraintKind::Ik(d) => self.bone_active(d.target),
                    ConstraintKind::Transform(d) => self.bone_active(d.source),
                    ConstraintKind::Path(d) => self.bone_active(data.slot(d.slot).bone),
                    ConstraintKind::Physics(d) => self.bone_active(d.bone),
                    ConstraintKind::Slider(d) => {
                        d.bone.as_ref().is_none_or(|b| self.bone_active(b.bone))
                    }
                };
            if let Some(c) = self.constraints.get_mut(ci) {
                c.active = active;
            }
            if !active {
                continue;
            }
            match &cd.kind {
                ConstraintKind::Ik(d) => {
                    self.sort_bone(d.target);
                    let Some(&parent) = d.bones.first() else { continue };
                    self.sort_bone(parent);
                    if d.bones.len() == 1 {
                        self.update_cache.push(UpdateEntry::Constraint(cid));
                        self.sort_reset_children(parent);
                    } else {
                        let child = *d.bones.last().unwrap_or(&parent);
                        self.sort_bone(child);
                        self.update_cache.push(UpdateEntry::Constraint(cid));
                        self.sort_reset_children(parent);
                        self.set_sorted(child);
                    }
                }
                ConstraintKind::Transform(d) => {
                    self.sort_bone(d.source);
                    if d.local_target {
                        for &b in &d.bones {
                            if let Some(p) = self.bones.get(b.index()).and_then(|x| x.parent) {
                                self.sort_bone(p);
                            }
                            self.sort_bone(b);
                        }
                    } else {
                        for &b in &d.bones {
                            self.sort_bone(b);
                        }
                    }
                    self.update_cache.push(UpdateEntry::Constraint(cid));
                    for &b in &d.bones {
                        self.sort_reset_children(b);
                    }
                    for &b in &d.bones {
                        self.set_sorted(b);
                    }
                }
                ConstraintKind::Path(d) => {
                    let slot_bone = data.slot(d.slot).bone;
                    if let Some(s) = self.skin {
                        self.sort_path_skin(&data, s, d.slot, slot_bone);
                    }
                    if let Some(def) = data.default_skin.filter(|&def| Some(def) != self.skin) {
                        self.sort_path_skin(&data, def, d.slot, slot_bone);
                    }
                    for s in 0..data.skins.len() {
                        self.sort_path_skin(&data, SkinId(s as u32), d.slot, slot_bone);
                    }
                    if let Some(a) = self.slots.get(d.slot.index()).and_then(|s| s.attachment) {
                        self.sort_path_attachment(&data, a, slot_bone);
                    }
                    for &b in &d.bones {
                        self.sort_bone(b);
                    }
                    self.update_cache.push(UpdateEntry::Constraint(cid));
                    for &b in &d.bones {
                        self.sort_reset_children(b);
                    }
                    for &b in &d.bones {
                        self.set_sorted(b);
                    }
                }
                ConstraintKind::Physics(d) => {
                    self.sort_bone(d.bone);
                    self.update_cache.push(UpdateEntry::Constraint(cid));
                    self.sort_reset_children(d.bone);
                    self.set_sorted(d.bone);
                }
                ConstraintKind::Slider(d) => {
                    if let Some(b) = d.bone.as_ref().filter(|_| !d.local) {
                        self.sort_bone(b.bone);
                    }
                    self.update_cache.push(UpdateEntry::Constraint(cid));
                    // The animation's bones (and children) are recomputed after it.
                    for b in constraints::slider::animation_bones(&data, d) {
                        let Some(bone) = self.bones.get_mut(b.index()) else { continue };
                        if bone.active {
                            bone.sorted = false;
                            self.sort_reset_children(b);
                        }
                    }
                }
            }
        }
        for i in 0..self.bones.len() {
            self.sort_bone(BoneId(i as u32));
        }
        self.mark_read_after();
        self.build_walk();
    }

    /// [`Skeleton::update_cache`] for 4.3 data: spine-ts 4.3 `Skeleton.updateCache` with
    /// each constraint's 4.3 `sort` (IK: the parent re-sorted after the constraint, the
    /// child not before it; transform: the source only for a world source, the bones before
    /// the constraint only for a world target; path: the current skin, the default skin and
    /// the slot's attachment; sliders are active whatever their bone). The update cache is
    /// run by [`lazy43::run_update_cache`](constraints::lazy43::run_update_cache).
    fn update_cache43(&mut self) {
        let data = self.data.clone();
        self.activity = next_activity();
        self.update_cache.clear();
        self.walk.clear();
        self.unwalked.clear();
        for (b, d) in self.bones.iter_mut().zip(&data.bones) {
            b.sorted = d.skin_required;
            b.active = !b.sorted;
        }
        if let Some(skin) = self.skin {
            for &id in &data.skin(skin).bones {
                let mut cur = Some(id);
                while let Some(i) = cur {
                    let Some(b) = self.bones.get_mut(i.index()) else { break };
                    b.sorted = false;
                    b.active = true;
                    cur = b.parent;
                }
            }
        }
        for (ci, cd) in data.constraints.iter().enumerate() {
            let cid = ConstraintId(ci as u32);
            let skin_ok = !cd.skin_required
                || self.skin.is_some_and(|s| data.skin(s).constraints.contains(&cid));
            let active = skin_ok
                && match &cd.kind {
                    ConstraintKind::Ik(d) => self.bone_active(d.target),
                    ConstraintKind::Transform(d) => self.bone_active(d.source),
                    ConstraintKind::Path(d) => self.bone_active(data.slot(d.slot).bone),
                    ConstraintKind::Physics(d) => self.bone_active(d.bone),
                    ConstraintKind::Slider(_) => true,
                };
            if let Some(c) = self.constraints.get_mut(ci) {
                c.active = active;
            }
            if !active {
                continue;
            }
            match &cd.kind {
                ConstraintKind::Ik(d) => {
                    self.sort_bone43(d.target);
                    let Some(&parent) = d.bones.first() else { continue };
                    self.sort_bone43(parent);
                    self.update_cache.push(UpdateEntry::Constraint(cid));
                    if let Some(b) = self.bones.get_mut(parent.index()) {
                        b.sorted = false;
                    }
                    self.sort_reset_children(parent);
                }
                ConstraintKind::Transform(d) => {
                    if !d.local_source {
                        self.sort_bone43(d.source);
                    }
                    if !d.local_target {
                        for &b in &d.bones {
                            self.sort_bone43(b);
                        }
                    }
                    self.update_cache.push(UpdateEntry::Constraint(cid));
                    for &b in &d.bones {
                        self.sort_reset_children(b);
                    }
                    for &b in &d.bones {
                        if let Some(b) = self.bones.get_mut(b.index()) {
                            b.sorted = !d.local_target;
                        }
                    }
                }
                ConstraintKind::Path(d) => {
                    let slot_bone = data.slot(d.slot).bone;
                    if let Some(s) = self.skin {
                        self.sort_path_skin43(&data, s, d.slot, slot_bone);
                    }
                    if let Some(def) = data.default_skin.filter(|&def| Some(def) != self.skin) {
                        self.sort_path_skin43(&data, def, d.slot, slot_bone);
                    }
                    if let Some(a) = self.slots.get(d.slot.index()).and_then(|s| s.attachment) {
                        self.sort_path_attachment43(&data, a, slot_bone);
                    }
                    for &b in &d.bones {
                        self.sort_bone43(b);
                    }
                    self.update_cache.push(UpdateEntry::Constraint(cid));
                    for &b in &d.bones {
                        self.sort_reset_children(b);
                    }
                    for &b in &d.bones {
                        self.set_sorted(b);
                    }
                }
                ConstraintKind::Physics(d) => {
                    self.sort_bone43(d.bone);
                    self.update_cache.push(UpdateEntry::Constraint(cid));
                    self.sort_reset_children(d.bone);
                }
                ConstraintKind::Slider(d) => {
                    if let Some(b) = d.bone.as_ref().filter(|_| !d.local) {
                        self.sort_bone43(b.bone);
                    }
                    self.update_cache.push(UpdateEntry::Constraint(cid));
                    for b in constraints::slider::animation_bones(&data, d) {
                        let Some(bone) = self.bones.get_mut(b.index()) else { continue };
                        bone.sorted = false;
                        self.sort_reset_children(b);
                    }
                }
            }
        }
        for i in 0..self.bones.len() {
            self.sort_bone43(BoneId(i as u32));
        }
        self.constrain_slots43(&data);
    }

    /// The slots and draw order a slider's animation keys (4.3 `Slider.sort`:
    /// `constrained` on the slots of its slot timelines and on the draw order for draw-order
    /// timelines), and the switch of each slot between one pose and pose + applied pose.
    fn constrain_slots43(&mut self, data: &SkeletonData) {
        let n = self.slots.len();
        let mut slots = vec![false; n];
        let mut draw_order = false;
        for (ci, cd) in data.constraints.iter().enumerate() {
            let ConstraintKind::Slider(d) = &cd.kind else { continue };
            if !self.constraints.get(ci).is_some_and(|c| c.active) {
                continue;
            }
            let Some(anim) = data.animations.get(d.animation.index()) else { continue };
            for t in &anim.timelines {
                use spine_model::Timeline as T;
                match t {
                    T::Color { slot, .. }
                    | T::Attachment { slot, .. }
                    | T::Deform { slot, .. }
                    | T::Sequence { slot, .. } => {
                        if let Some(c) = slots.get_mut(slot.index()) {
                            *c = true;
                        }
                    }
                    T::DrawOrder { .. } | T::DrawOrderFolder { .. } => draw_order = true,
                    _ => {}
                }
            }
        }
        if slots.iter().all(|c| !c) && !draw_order && self.slot_constrained.is_empty() {
            return;
        }
        if self.slot_poses.len() != n {
            self.slot_poses = self.slots.clone();
            self.slot_constrained = vec![false; n];
        }
        for (i, &c) in slots.iter().enumerate() {
            if c != self.slot_constrained[i] {
                if c {
                    // The pose so far was the one pose: it is the pose from now on.
                    let (a, p) = (&self.slots[i], &mut self.slot_poses[i]);
                    p.set_from(a);
                } else {
                    let (a, p) = (&mut self.slots[i], &self.slot_poses[i]);
                    a.set_from(p);
                }
            }
        }
        self.slot_constrained = slots;
        if draw_order != self.draw_order_constrained {
            if draw_order {
                self.draw_order_pose.clone_from(&self.draw_order);
            } else {
                self.draw_order.clone_from(&self.draw_order_pose);
            }
        }
        self.draw_order_constrained = draw_order;
    }

    /// Exchanges the applied and the pose of every constrained slot and of a constrained
    /// draw order (4.3; see `slot_constrained`): what animations and the setup pose write
    /// is the pose, so the writers run between two calls (`AnimationState::apply`,
    /// [`apply_animation`](crate::apply_animation), [`Skeleton::set_slots_to_setup_pose`]).
    pub(crate) fn swap_slot_poses(&mut self) {
        for (i, c) in self.slot_constrained.iter().enumerate() {
            if *c {
                if let (Some(a), Some(p)) = (self.slots.get_mut(i), self.slot_poses.get_mut(i)) {
                    std::mem::swap(a, p);
                }
            }
        }
        if self.draw_order_constrained {
            std::mem::swap(&mut self.draw_order, &mut self.draw_order_pose);
        }
    }

    /// 4.3 `resetConstrained` of the constrained slots and draw order: the applied poses
    /// start from the poses (no allocation once the buffers have grown).
    pub(crate) fn reset_slot_poses(&mut self) {
        for (i, c) in self.slot_constrained.iter().enumerate() {
            if *c {
                if let (Some(a), Some(p)) = (self.slots.get_mut(i), self.slot_poses.get(i)) {
                    a.set_from(p);
                }
            }
        }
        if self.draw_order_constrained {
            self.draw_order.clone_from(&self.draw_order_pose);
        }
    }

    /// 4.3 `Skeleton.sortBone`: inactive bones are never sorted.
    fn sort_bone43(&mut self, id: BoneId) {
        let Some(b) = self.bones.get(id.index()) else { return };
        if b.sorted || !b.active {
            return;
        }
        if let Some(p) = b.parent {
            self.sort_bone43(p);
        }
        if let Some(b) = self.bones.get_mut(id.index()) {
            b.sorted = true;
        }
        self.update_cache.push(UpdateEntry::Bone(id));
    }

    /// 4.3 `PathConstraint.sortPathSlot`.
    fn sort_path_skin43(&mut self, data: &SkeletonData, skin: SkinId, slot: SlotId, bone: BoneId) {
        for e in data.skin(skin).slot_entries(slot) {
            self.sort_path_attachment43(data, e.attachment, bone);
        }
    }

    /// 4.3 `PathConstraint.sortPath`.
    fn sort_path_attachment43(&mut self, data: &SkeletonData, att: AttachmentId, bone: BoneId) {
        let AttachmentKind::Path(p) = &data.attachment(att).kind else { return };
        match &p.vertices {
            Vertices::Unweighted(_) => self.sort_bone43(bone),
            Vertices::Weighted(w) => {
                for &b in &w.bones {
                    self.sort_bone43(b);
                }
            }
        }
    }

    /// Builds `walk` and `unwalked` from `update_cache`. With a slider constraint (which
    /// poses bones inside the walk) every bone entry is a later one and every bone is reset
    /// before the walk, as spine-cpp does.
    fn build_walk(&mut self) {
        let n = self.data.constraints.len();
        let reset_all =
            self.data.constraints.iter().any(|c| matches!(c.kind, ConstraintKind::Slider(_)));
        let again =
            |id: BoneId| WalkEntry::Other(u32::try_from(n + id.index()).unwrap_or(u32::MAX));
        self.walk.clear();
        self.walk.reserve_exact(self.update_cache.len());
        for entry in &self.update_cache {
            self.walk.push(match *entry {
                UpdateEntry::Constraint(id) => WalkEntry::Other(id.0),
                UpdateEntry::Bone(id) => match self.bones.get_mut(id.index()) {
                    Some(b) if !reset_all && b.ap_flags & AP_SEEN == 0 => {
                        b.ap_flags |= AP_SEEN;
                        WalkEntry::Bone(id)
                    }
                    _ => again(id),
                },
            });
        }
        self.unwalked.clear();
        let mut open = None;
        for (i, b) in self.bones.iter_mut().enumerate() {
            match (b.ap_flags & AP_SEEN == 0, open) {
                (true, None) => open = Some(i),
                (false, Some(s)) => {
                    self.unwalked.push(s..i);
                    open = None;
                }
                _ => {}
            }
            b.ap_flags &= !AP_SEEN;
        }
        if let Some(s) = open {
            self.unwalked.push(s..self.bones.len());
        }
    }

    /// Sets [`AP_READ_AFTER`] on the bones the update cache walks, or an IK constraint of it
    /// reads, after a constraint that may defer their applied pose (transform, path and
    /// physics constraints: every bone they list, whatever their mode); clears it on the
    /// others.
    fn mark_read_after(&mut self) {
        // `AP_MOVED` (this pass only): a constraint before the entry may defer the pose.
        for b in &mut self.bones {
            b.ap_flags &= !(AP_READ_AFTER | AP_MOVED);
        }
        let bones = &mut self.bones;
        let flag = |bones: &mut [Bone], id: BoneId, set: u8| {
            if let Some(b) = bones.get_mut(id.index()) {
                if set == AP_MOVED || b.ap_flags & AP_MOVED != 0 {
                    b.ap_flags |= set;
                }
            }
        };
        for entry in &self.update_cache {
            match *entry {
                UpdateEntry::Constraint(cid) => {
                    // IK reads its bones, then (a full-mix pose defers its rotation,
                    // `Bone::pose_normal_aimed`) moves them for the entries after it.
                    let (ids, set, then_moved): (&[BoneId], u8, bool) =
                        match self.data.constraints.get(cid.index()).map(|c| &c.kind) {
                            Some(ConstraintKind::Ik(d)) => (&d.bones, AP_READ_AFTER, true),
                            Some(ConstraintKind::Transform(d)) => (&d.bones, AP_MOVED, false),
                            Some(ConstraintKind::Path(d)) => (&d.bones, AP_MOVED, false),
                            Some(ConstraintKind::Physics(d)) => {
                                (std::slice::from_ref(&d.bone), AP_MOVED, false)
                            }
                            Some(ConstraintKind::Slider(_)) | None => (&[], 0, false),
                        };
                    for &id in ids {
                        flag(bones, id, set);
                    }
                    if then_moved {
                        for &id in ids {
                            flag(bones, id, AP_MOVED);
                        }
                    }
                }
                UpdateEntry::Bone(id) => flag(bones, id, AP_READ_AFTER),
            }
        }
        let every = if self.eager_applied { AP_READ_AFTER } else { 0 };
        for b in bones.iter_mut() {
            b.ap_flags = (b.ap_flags & !AP_MOVED) | every;
        }
    }

    fn bone_active(&self, id: BoneId) -> bool {
        self.bones.get(id.index()).is_some_and(|b| b.active)
    }

    fn set_sorted(&mut self, id: BoneId) {
        if let Some(b) = self.bones.get_mut(id.index()) {
            b.sorted = true;
        }
    }

    fn sort_path_skin(
        &mut self,
        data: &SkeletonData,
        skin: SkinId,
        slot: SlotId,
        slot_bone: BoneId,
    ) {
        for e in data.skin(skin).slot_entries(slot) {
            self.sort_path_attachment(data, e.attachment, slot_bone);
        }
    }

    fn sort_path_attachment(&mut self, data: &SkeletonData, att: AttachmentId, slot_bone: BoneId) {
        let AttachmentKind::Path(p) = &data.attachment(att).kind else { return };
        match &p.vertices {
            Vertices::Unweighted(_) => self.sort_bone(slot_bone),
            Vertices::Weighted(w) => {
                for &b in &w.bones {
                    self.sort_bone(b);
                }
            }
        }
    }

    fn sort_bone(&mut self, id: BoneId) {
        let Some(b) = self.bones.get(id.index()) else { return };
        if b.sorted {
            return;
        }
        if let Some(p) = b.parent {
            self.sort_bone(p);
        }
        if let Some(b) = self.bones.get_mut(id.index()) {
            b.sorted = true;
        }
        self.update_cache.push(UpdateEntry::Bone(id));
    }

    /// The child bones of `id` (empty for a bone without children or out of range).
    pub fn children(&self, id: BoneId) -> &[BoneId] {
        self.children.of(id)
    }

    /// spine-cpp `sortReset(bone->children)`.
    fn sort_reset_children(&mut self, id: BoneId) {
        let n = self.children.of(id).len();
        for i in 0..n {
            let Some(&child) = self.children.of(id).get(i) else { continue };
            let Some(c) = self.bones.get(child.index()) else { continue };
            if !c.active {
                continue;
            }
            if c.sorted {
                self.sort_reset_children(child);
            }
            if let Some(c) = self.bones.get_mut(child.index()) {
                c.sorted = false;
            }
        }
    }

    /// Copies every bone's local pose to its applied pose, then runs the update cache:
    /// bones compute their world transforms, constraints run their solvers.
    pub fn update_world_transform(&mut self, physics: Physics) {
        let frame = self.frame();
        if !self.lazy43.is_empty() {
            // 4.3 poses (`constraints::lazy43`).
            constraints::lazy43::run_update_cache(self, physics, &frame);
            return;
        }
        // The bones the walk does not reset itself (see `WalkEntry`).
        for r in &self.unwalked {
            for b in self.bones.get_mut(r.clone()).unwrap_or_default() {
                b.reset_applied();
            }
        }
        let mut start = 0;
        // Runs of entries with the fields borrowed once; a slider (which needs the whole
        // skeleton) ends a run.
        while let Some((i, id)) = self.run_update_cache(start, physics, &frame) {
            constraints::slider::update(self, id);
            start = i + 1;
        }
    }

    /// The update cache from entry `start` on, until a slider constraint (returned with its
    /// entry index, not run) or the end (`None`). The skeleton's fields are borrowed once
    /// (slices in registers, not reloaded through `self` per entry).
    #[inline(always)]
    fn run_update_cache(
        &mut self,
        start: usize,
        physics: Physics,
        frame: &WorldFrame,
    ) -> Option<(usize, ConstraintId)> {
        let exact_time = self.exact_time();
        let Skeleton { data, bones, slots, constraints, walk, time, y_down, wind, gravity, .. } =
            self;
        let data: &SkeletonData = data;
        let constraints: &mut [Constraint] = constraints;
        let entries = walk.get(start..)?;
        // One solver context for the run; the bone walk uses its bones.
        let mut ctx = SolverCtx {
            data,
            bones,
            slots,
            frame: *frame,
            time: *time,
            time64: exact_time,
            physics,
            y_down: *y_down,
            wind: *wind,
            gravity: *gravity,
        };
        let mut k = 0;
        loop {
            // A run of bone entries with the bones slice in registers (the solver context's
            // address escapes to the solvers, so it is read once per run, not per bone).
            let bones = &mut *ctx.bones;
            let id = loop {
                let id = match entries.get(k) {
                    Some(&WalkEntry::Bone(id)) => id,
                    Some(&WalkEntry::Other(id)) => break id,
                    None => return None,
                };
                k += 1;
                let i = id.index();
                // The common case inline: a child bone of `Inherit::Normal` whose parent
                // has a lower index (always so for validated data), read in place.
                if let Some(Bone { parent: Some(p), inherit: Inherit::Normal, .. }) = bones.get(i) {
                    let p = p.index();
                    if p < i {
                        let (head, tail) = bones.split_at_mut(i);
                        if let (Some(pw), Some(b)) = (head.get(p), tail.first_mut()) {
                            b.reset_update_normal_child(pw);
                            continue;
                        }
                    }
                }
                // The reset and the update in one: the pose goes to the world transform
                // from registers, not stored and read back at other widths (which the CPU
                // cannot forward from its store buffer).
                let parent = parent_world(bones, id);
                if let Some(b) = bones.get_mut(i) {
                    b.update_from_local(parent, frame);
                }
            };
            k += 1;
            let Some(cd) = data.constraints.get(id as usize) else {
                // A later entry of a bone (see `WalkEntry::Other`).
                if let Some(i) = (id as usize).checked_sub(data.constraints.len()) {
                    update_again(ctx.bones, i, frame);
                }
                continue;
            };
            let id = ConstraintId(id);
            if let ConstraintKind::Slider(_) = cd.kind {
                return Some((start + k - 1, id));
            }
            let Some(c) = constraints.get_mut(id.index()) else { continue };
            constraints::update_in_cache(&mut ctx, cd, c);
        }
    }

    /// Test hook: `true` computes every applied pose a constraint leaves at once (as
    /// spine-cpp does: every bone marked as read after the constraint) instead of on first
    /// read. The results are the same bit for bit; this exists so a test can show it.
    #[doc(hidden)]
    pub fn set_eager_applied(&mut self, eager: bool) {
        self.eager_applied = eager;
        self.mark_read_after();
    }

    /// A bone by name.
    pub fn find_bone(&self, name: &str) -> Option<BoneId> {
        self.data.find_bone(name)
    }

    /// A slot by name.
    pub fn find_slot(&self, name: &str) -> Option<SlotId> {
        self.data.find_slot(name)
    }

    /// The root bone.
    pub fn root_bone(&self) -> Option<&Bone> {
        self.bones.first()
    }
}

/// The timeline attachment of a vertex attachment (`None` for region/point attachments).
pub fn timeline_attachment(data: &SkeletonData, id: AttachmentId) -> Option<AttachmentId> {
    match &data.attachments.get(id.index())?.kind {
        AttachmentKind::Mesh(m) => Some(m.timeline_attachment),
        AttachmentKind::BoundingBox(_) | AttachmentKind::Path(_) | AttachmentKind::Clipping(_) => {
            Some(id)
        }
        AttachmentKind::Region(_) | AttachmentKind::Point(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send<T: Send>() {}

    #[test]
    fn skeleton_is_send() {
        assert_send::<Skeleton>();
    }

    fn bone_data(inherit: Inherit) -> BoneData {
        BoneData {
            name: "b".into(),
            parent: None,
            length: 1.0,
            x: 0.0,
            y: 0.0,
            rotation: 0.0,
            scale_x: 1.0,
            scale_y: 1.0,
            shear_x: 0.0,
            shear_y: 0.0,
            inherit,
            skin_required: false,
            color: None,
        }
    }

    /// spine-cpp `updateAppliedTransform` for a parent and `Inherit::Normal`, computed at once.
    fn applied_at_once(b: &Bone, p: ParentWorld) -> AppliedPose {
        let pid = 1.0 / (p.a * p.d - p.b * p.c);
        let (ia, ib, ic, id) = (p.d * pid, p.b * pid, p.c * pid, p.a * pid);
        let dx = b.world_x - p.world_x;
        let dy = b.world_y - p.world_y;
        let x = dx * ia - dy * ib;
        let y = dy * id - dx * ic;
        let ra = ia * b.a - ib * b.c;
        let rb = ia * b.b - ib * b.d;
        let rc = id * b.c - ic * b.a;
        let rd = id * b.d - ic * b.b;
        let m =
            AppliedPose { x, y, rotation: ra, scale_x: rb, scale_y: rc, shear_x: rd, shear_y: 0.0 };
        applied_from_local_matrix(m)
    }

    fn pose_bits(p: AppliedPose) -> [u32; 7] {
        [p.x, p.y, p.rotation, p.scale_x, p.scale_y, p.shear_x, p.shear_y].map(f32::to_bits)
    }

    /// `Inherit::NoRotationOrReflection` turns the cached local matrix by the direction of
    /// the parent's x axis: the world matrix of spine-cpp's angle formula (sine and cosine of
    /// the local angles less the parent's `atan2`) within the rounding of those angles, for
    /// parents and poses of every quadrant, reflected or not, at any skeleton scale. An
    /// error (a sign, a swapped column) is of order one.
    #[test]
    fn no_rotation_or_reflection_turns_the_local_matrix_by_the_parent_direction() {
        let mut rng = crate::test_rng::Rng(0x9e37_79b9_7f4a_7c15);
        let mut next = |lo: f32, hi: f32| rng.range(lo, hi);
        let mut worst = 0.0f32;
        for _ in 0..20_000 {
            let frame = WorldFrame {
                x: next(-5.0, 5.0),
                y: next(-5.0, 5.0),
                scale_x: next(0.5, 2.0) * if next(0.0, 1.0) < 0.5 { -1.0 } else { 1.0 },
                scale_y: next(0.5, 2.0) * if next(0.0, 1.0) < 0.5 { -1.0 } else { 1.0 },
            };
            let p = ParentWorld {
                a: next(-2.0, 2.0),
                b: next(-2.0, 2.0),
                c: next(-2.0, 2.0),
                d: next(-2.0, 2.0),
                world_x: next(-50.0, 50.0),
                world_y: next(-50.0, 50.0),
            };
            let (r, sx, sy) = (next(-720.0, 720.0), next(-2.0, 2.0), next(-2.0, 2.0));
            let (hx, hy) = (next(-40.0, 40.0), next(-40.0, 40.0));
            let mut b = Bone::new(&bone_data(Inherit::NoRotationOrReflection));
            b.update_world_transform_with(Some(p), &frame, 1.0, 2.0, r, sx, sy, hx, hy);
            // spine-cpp's formula.
            let (mut pa, mut pb, mut pc, mut pd) = (p.a, p.b, p.c, p.d);
            let mut s = pa * pa + pc * pc;
            if s <= 0.0001 {
                continue;
            }
            s = math::abs(pa * pd - pb * pc) / s;
            pa /= frame.scale_x;
            pc /= frame.scale_y;
            pb = pc * s;
            pd = pa * s;
            let prx = math::atan2_deg(pc, pa);
            let ((sin_x, cos_x), (sin_y, cos_y)) =
                math::sin_cos_deg_pair(r + hx - prx, r + hy - prx + 90.0);
            let (la, lb, lc, ld) = (cos_x * sx, cos_y * sy, sin_x * sx, sin_y * sy);
            let want = [
                (pa * la - pb * lc) * frame.scale_x,
                (pa * lb - pb * ld) * frame.scale_x,
                (pc * la + pd * lc) * frame.scale_y,
                (pc * lb + pd * ld) * frame.scale_y,
            ];
            let got = [b.a, b.b, b.c, b.d];
            let size = want.iter().fold(1.0f32, |m, v| m.max(v.abs()));
            for (g, w) in got.iter().zip(want) {
                worst = worst.max((g - w).abs() / size);
            }
        }
        // Angles up to ~800° carry f32 roundings of ~1e-6 rad each.
        assert!(worst < 1e-5, "worst relative difference {worst:e}");
        assert!(worst > 0.0, "the turned matrix rounds like the angles' somewhere");
    }

    /// A deferred applied pose is the one computed at once from the world transforms of the
    /// call, bit for bit, whatever happens to those world transforms before it is read
    /// (through `applied`, `applied_mut`, or at once with `AP_READ_AFTER`); a later deferral
    /// of another inherit mode is not read in the first one's layout.
    #[test]
    fn deferred_applied_pose_keeps_its_inputs() {
        let frame = WorldFrame { x: 1.5, y: -2.0, scale_x: 1.25, scale_y: -0.75 };
        let parents = [
            ParentWorld { a: 0.9, b: -0.3, c: 0.2, d: 1.1, world_x: 3.0, world_y: 4.0 },
            ParentWorld { a: -1.5, b: 0.25, c: 0.75, d: 2.0, world_x: -7.0, world_y: 0.5 },
            ParentWorld { a: 0.0, b: 0.0, c: 0.0, d: 0.0, world_x: 0.0, world_y: 0.0 },
            ParentWorld { a: f32::NAN, b: 1.0, c: 0.0, d: 1.0, world_x: 0.0, world_y: 0.0 },
        ];
        let worlds: [[f32; 6]; 4] = [
            [0.5, -0.8, 0.8, 0.5, 10.0, -3.0],
            [0.0, 0.0, 0.0, 0.0, 1.0, 1.0],
            [-2.0, 0.1, 0.3, -1e-6, 1e6, -0.0],
            [1.0, 0.0, 0.0, 1.0, f32::INFINITY, 2.0],
        ];
        for p in parents {
            for [a, b, c, d, wx, wy] in worlds {
                for read in 0..3 {
                    let mut bone = Bone::new(&bone_data(Inherit::Normal));
                    (bone.a, bone.b, bone.c, bone.d, bone.world_x, bone.world_y) =
                        (a, b, c, d, wx, wy);
                    let want = pose_bits(applied_at_once(&bone, p));
                    if read == 2 {
                        bone.ap_flags |= AP_READ_AFTER;
                    }
                    bone.update_applied_transform(Some(p), &frame);
                    // The world transforms change before the read.
                    (bone.a, bone.b, bone.c, bone.d, bone.world_x, bone.world_y) =
                        (7.0, 8.0, 9.0, 10.0, 11.0, 12.0);
                    let got = if read == 1 { *bone.applied_mut() } else { bone.applied() };
                    assert_eq!(pose_bits(got), want, "{p:?} {a} {b} {c} {d} {wx} {wy} {read}");
                    // Another inherit mode defers in the matrix layout.
                    bone.inherit = Inherit::OnlyTranslation;
                    (bone.a, bone.b, bone.c, bone.d, bone.world_x, bone.world_y) =
                        (a, b, c, d, wx, wy);
                    bone.update_applied_transform(Some(p), &frame);
                    let mut fresh = Bone::new(&bone_data(Inherit::OnlyTranslation));
                    (fresh.a, fresh.b, fresh.c, fresh.d, fresh.world_x, fresh.world_y) =
                        (a, b, c, d, wx, wy);
                    fresh.update_applied_transform(Some(p), &frame);
                    assert_eq!(pose_bits(bone.applied()), pose_bits(fresh.applied()));
                }
            }
        }
    }

    /// `set_world_update_applied` gives what setting the six world fields and calling
    /// `update_applied_transform` gives, bit for bit (world and applied pose), for every
    /// inherit mode, with and without a parent, deferred and computed at once.
    #[test]
    fn set_world_update_applied_equals_fields_then_update() {
        let frame = WorldFrame { x: 1.5, y: -2.0, scale_x: 1.25, scale_y: -0.75 };
        let parents = [
            None,
            Some(ParentWorld { a: 0.9, b: -0.3, c: 0.2, d: 1.1, world_x: 3.0, world_y: 4.0 }),
            Some(ParentWorld { a: 0.0, b: 0.0, c: 0.0, d: 0.0, world_x: 0.0, world_y: 0.0 }),
            Some(ParentWorld { a: f32::NAN, b: 1.0, c: 0.0, d: 1.0, world_x: 0.0, world_y: 0.0 }),
        ];
        let worlds: [[f32; 6]; 3] = [
            [0.5, -0.8, 0.8, 0.5, 10.0, -3.0],
            [-2.0, 0.1, 0.3, -1e-6, 1e6, -0.0],
            [1.0, 0.0, 0.0, 1.0, f32::INFINITY, 2.0],
        ];
        let inherits = [
            Inherit::Normal,
            Inherit::OnlyTranslation,
            Inherit::NoRotationOrReflection,
            Inherit::NoScale,
            Inherit::NoScaleOrReflection,
        ];
        let mut checked = 0;
        for inherit in inherits {
            for p in parents {
                for w in worlds {
                    for read_after in [false, true] {
                        let mut want = Bone::new(&bone_data(inherit));
                        let mut got = want.clone();
                        if read_after {
                            want.ap_flags |= AP_READ_AFTER;
                            got.ap_flags |= AP_READ_AFTER;
                        }
                        let [a, b, c, d, wx, wy] = w;
                        (want.a, want.b, want.c, want.d, want.world_x, want.world_y) =
                            (a, b, c, d, wx, wy);
                        want.update_applied_transform(p, &frame);
                        got.set_world_update_applied(w, p, &frame);
                        let world =
                            |b: &Bone| [b.a, b.b, b.c, b.d, b.world_x, b.world_y].map(f32::to_bits);
                        assert_eq!(world(&got), world(&want), "{inherit:?} {p:?} {w:?}");
                        assert_eq!(
                            pose_bits(got.applied()),
                            pose_bits(want.applied()),
                            "{inherit:?} {p:?} {w:?} {read_after}"
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 5 * 4 * 3 * 2);
    }

    /// The IK solver's paired poses (`sin_cos_deg_pair` of two rotations plus shear x,
    /// `local_matrix_equal_shears`, `pose_normal`) give what `pose_cached` gives for each
    /// bone, bit for bit (world and applied pose), for equal shears and finite angles (the
    /// solver poses the others through `pose_cached`).
    #[test]
    fn paired_poses_equal_pose_cached() {
        let frame = WorldFrame { x: 1.5, y: -2.0, scale_x: 1.25, scale_y: -0.75 };
        let parent = ParentWorld { a: 0.9, b: -0.3, c: 0.2, d: 1.1, world_x: 3.0, world_y: 4.0 };
        let rotations = [
            0.0,
            -0.0,
            30.0,
            -45.5,
            90.0,
            179.99,
            -270.25,
            1234.5,
            1e7,
            -3e9,
            f32::NAN,
            f32::INFINITY,
        ];
        let shears = [0.0, -0.0, 12.5, f32::NAN];
        let bits = |b: &Bone| {
            let ap = b.applied();
            [b.a, b.b, b.c, b.d, b.world_x, b.world_y, ap.rotation, ap.scale_x, ap.shear_x]
                .map(f32::to_bits)
        };
        for (i, &r0) in rotations.iter().enumerate() {
            let r1 = rotations[(i * 7 + 3) % rotations.len()];
            for &h in &shears {
                if !((r0 + h).is_finite() && (r1 + h).is_finite()) {
                    continue; // The solver poses these through `pose_cached`.
                }
                let (sx, sy) = (1.5, -0.5);
                let mut want = [
                    Bone::new(&bone_data(Inherit::Normal)),
                    Bone::new(&bone_data(Inherit::Normal)),
                ];
                want[0].pose_cached(None, Some(parent), &frame, 1.0, 2.0, r0, sx, sy, h, h);
                want[1].pose_cached(None, Some(parent), &frame, -1.0, 0.5, r1, sy, sx, h, h);
                let mut got = [
                    Bone::new(&bone_data(Inherit::Normal)),
                    Bone::new(&bone_data(Inherit::Normal)),
                ];
                let ((s0, c0), (s1, c1)) = math::sin_cos_deg_pair(r0 + h, r1 + h);
                got[0].pose_normal(
                    parent,
                    1.0,
                    2.0,
                    r0,
                    sx,
                    sy,
                    h,
                    h,
                    local_matrix_equal_shears(s0, c0, sx, sy),
                );
                got[1].pose_normal(
                    parent,
                    -1.0,
                    0.5,
                    r1,
                    sy,
                    sx,
                    h,
                    h,
                    local_matrix_equal_shears(s1, c1, sy, sx),
                );
                assert_eq!(bits(&got[0]), bits(&want[0]), "{r0} {h}");
                assert_eq!(bits(&got[1]), bits(&want[1]), "{r1} {h}");
            }
        }
    }

    /// The local-matrix cache returns what a fresh computation gives, bit for bit, whatever
    /// the previous inputs were (including `-0.0` against `0.0` and NaN).
    #[test]
    fn local_matrix_cache_is_transparent() {
        let frame = WorldFrame { x: 1.5, y: -2.0, scale_x: 1.25, scale_y: -0.75 };
        let parent = ParentWorld { a: 0.9, b: -0.3, c: 0.2, d: 1.1, world_x: 3.0, world_y: 4.0 };
        let poses: [[f32; 7]; 6] = [
            [1.0, 2.0, 30.0, 1.0, 1.0, 0.0, 0.0],
            [1.0, 2.0, 30.0, 1.0, 1.0, 0.0, 0.0],
            [1.0, 2.0, -0.0, 2.0, 0.5, 10.0, -5.0],
            [1.0, 2.0, 0.0, 2.0, 0.5, 10.0, -5.0],
            [0.0, 0.0, f32::NAN, 1.0, 1.0, 0.0, 0.0],
            [1.0, 2.0, 30.0, 1.0, 1.0, 0.0, 0.0],
        ];
        for inherit in [Inherit::Normal, Inherit::OnlyTranslation] {
            let data = bone_data(inherit);
            let mut cached = Bone::new(&data);
            let mut outside = Bone::new(&data);
            let mut cache = LocalCache::default();
            for parent in [None, Some(parent)] {
                for [x, y, r, sx, sy, hx, hy] in poses {
                    cached.update_world_transform_with(parent, &frame, x, y, r, sx, sy, hx, hy);
                    let c = Some(&mut cache);
                    outside
                        .update_world_transform_cached(c, parent, &frame, x, y, r, sx, sy, hx, hy);
                    let mut fresh = Bone::new(&data);
                    fresh.update_world_transform_with(parent, &frame, x, y, r, sx, sy, hx, hy);
                    let bits =
                        |b: &Bone| [b.a, b.b, b.c, b.d, b.world_x, b.world_y].map(f32::to_bits);
                    assert_eq!(bits(&cached), bits(&fresh), "{inherit:?} {r} {sx} {hx}");
                    assert_eq!(bits(&outside), bits(&fresh), "{inherit:?} {r} {sx} {hx}");
                    // The walk's pose (the applied pose just set) through the bone's own cache.
                    outside.update_from_applied(parent, &frame);
                    assert_eq!(bits(&outside), bits(&fresh), "{inherit:?} {r} {sx} {hx}");
                }
            }
        }
    }

    /// `find_odd` finds what a scan of every slot finds, whatever marks were set before
    /// (the odd count never lets it skip a slot in the state it looks for).
    #[test]
    fn attachment_states_find_what_a_scan_finds() {
        let mut rng = crate::test_rng::Rng(0x9e37_79b9_7f4a_7c15);
        let mut st = AttachmentStates::default();
        let n = 9;
        for step in 0..4000 {
            let v = (rng.bits() % 12) as i32 - 4;
            st.set((rng.bits() % n as u64) as usize, n, v);
            assert_eq!(st.odd, st.states.iter().filter(|&&s| s & 1 != 0).count(), "{step}");
            for want in -5..9 {
                for from in 0..=n {
                    let scan = (from..n).find(|&i| st.get(i) == want).filter(|_| want & 1 != 0);
                    assert_eq!(st.find_odd(from, want), scan, "{step} {want} {from}");
                }
            }
        }
    }
}
