//! Bone instances: local pose and world transform (spine-cpp `Bone`).

use super::*;

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
    pub(super) ap: AppliedPose,
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
    pub(super) ap_flags: u8,
    /// With [`AP_INPUTS`]: the world `a, b, c, d` of the deferred inputs (see
    /// [`Bone::defer_inputs`]).
    pub(super) ap_more: [f32; 4],
    /// The last local matrix (see [`LocalCache`]).
    pub(super) local: LocalCache,
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

    /// A word from each cache line of the record (see [`Skeleton::touch`]): the first field,
    /// one at 64–79 bytes and the last, which meet every line the 144-byte record spans at
    /// any 16-byte offset from a line (a test checks the layout).
    #[inline(always)]
    pub(super) fn touch(&self) -> [u32; 3] {
        [self.x.to_bits(), self.d.to_bits(), self.inherit as u32]
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
    pub fn update_world_transform_with(
        &mut self,
        parent: Option<ParentWorld>,
        frame: &WorldFrame,
        pose: AppliedPose,
    ) {
        self.update_world_transform_cached(None, parent, frame, pose);
    }

    /// [`Bone::update_world_transform_with`] with the local matrix cached in `cache` (when
    /// given) instead of the bone's own cache (which serves the update cache's walk). For solvers
    /// that pose a bone every frame (IK): the bone's own cache keeps the walk's pose.
    #[inline(always)]
    pub(crate) fn update_world_transform_cached(
        &mut self,
        cache: Option<&mut LocalCache>,
        parent: Option<ParentWorld>,
        frame: &WorldFrame,
        pose: AppliedPose,
    ) {
        let AppliedPose { x, y, rotation, scale_x, scale_y, shear_x, shear_y } = pose;
        self.update_world_transform_parts(
            cache, parent, frame, x, y, rotation, scale_x, scale_y, shear_x, shear_y,
        );
    }

    /// The body of [`Bone::update_world_transform_cached`], out of line, with the pose in
    /// registers: an [`AppliedPose`] argument is passed through memory, which the callers
    /// store in pieces (16 + 8 + 4 bytes) and this reads with wider loads across them (a
    /// store-forwarding stall on every call).
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn update_world_transform_parts(
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
        let pose = AppliedPose { x, y, rotation, scale_x, scale_y, shear_x, shear_y };
        self.set_applied(pose);
        self.world_from(cache, parent, frame, pose);
    }

    /// [`Bone::update_world_transform_cached`] with its most common case inlined into the
    /// caller (a parent and [`Inherit::Normal`]: the same operations as that mode's arm of
    /// the world transform, with the local matrix computed, not taken from `cache`); the
    /// other cases call it. For the IK solvers' poses.
    #[inline(always)]
    pub(crate) fn pose_cached(
        &mut self,
        cache: Option<&mut LocalCache>,
        parent: Option<ParentWorld>,
        frame: &WorldFrame,
        pose: AppliedPose,
    ) {
        let Some(p) = parent.filter(|_| self.inherit == Inherit::Normal) else {
            self.update_world_transform_cached(cache, parent, frame, pose);
            return;
        };
        // Not through a cache: an IK solve moves its bones nearly every frame (the key
        // compare and store cost more than the rare hit saves). The same matrix either way.
        let AppliedPose { rotation, scale_x, scale_y, shear_x, shear_y, .. } = pose;
        let m = local_matrix(rotation, scale_x, scale_y, shear_x, shear_y);
        self.pose_normal(p, pose, m);
    }

    /// [`Bone::pose_cached`] for a child bone of [`Inherit::Normal`] whose local matrix `m`
    /// (`local_matrix` of the pose) is given (the IK solver computes two at once, see
    /// [`local_matrix_equal_shears`]).
    #[inline(always)]
    pub(crate) fn pose_normal(&mut self, p: ParentWorld, pose: AppliedPose, m: [f32; 4]) {
        self.set_applied(pose);
        self.world_child(p, pose.x, pose.y, m);
    }

    /// The world transform of a child of `p` (of [`Inherit::Normal`]) at `(x, y)` with the
    /// local matrix `m` (`la, lb, lc, ld`).
    #[inline(always)]
    pub(super) fn world_child(&mut self, p: ParentWorld, x: f32, y: f32, m: [f32; 4]) {
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
    #[inline(always)]
    pub(super) fn world_from(
        &mut self,
        cache: Option<&mut LocalCache>,
        parent: Option<ParentWorld>,
        frame: &WorldFrame,
        pose: AppliedPose,
    ) {
        let AppliedPose { x, y, rotation, scale_x, scale_y, shear_x, shear_y } = pose;
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
        let (pa, pb, pc, pd) = (p.a, p.b, p.c, p.d);
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
                if self.world_no_rotation(cache, p, frame, pose) {
                    return;
                }
            }
            Inherit::NoScale | Inherit::NoScaleOrReflection => self.world_no_scale(p, frame, pose),
        }
        self.a *= sx;
        self.b *= sx;
        self.c *= sy;
        self.d *= sy;
    }

    /// The parent's rotation and reflection not inherited (spine-cpp
    /// `Inherit_NoRotationOrReflection`): the bone's matrix before the skeleton scale, or,
    /// when it could take the cached local matrix, the final one (returns true).
    #[inline(always)]
    fn world_no_rotation(
        &mut self,
        cache: Option<&mut LocalCache>,
        p: ParentWorld,
        frame: &WorldFrame,
        pose: AppliedPose,
    ) -> bool {
        let AppliedPose { rotation, scale_x, scale_y, shear_x, shear_y, .. } = pose;
        let (sx, sy) = (frame.scale_x, frame.scale_y);
        let (mut pa, mut pb, mut pc, mut pd) = (p.a, p.b, p.c, p.d);
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
                return true;
            }
            prx = math::atan2_deg(pc, pa);
        } else {
            pa = 0.0;
            pc = 0.0;
            prx = 90.0 - math::atan2_deg(pd, pb);
        }
        let ((sin_x, cos_x), (sin_y, cos_y)) =
            math::sin_cos_deg_pair(rotation + shear_x - prx, rotation + shear_y - prx + 90.0);
        let la = cos_x * scale_x;
        let lb = cos_y * scale_y;
        let lc = sin_x * scale_x;
        let ld = sin_y * scale_y;
        self.a = pa * la - pb * lc;
        self.b = pa * lb - pb * ld;
        self.c = pc * la + pd * lc;
        self.d = pc * lb + pd * ld;
        false
    }

    /// The parent's scale (and with `NoScale` its reflection) not inherited (spine-cpp
    /// `Inherit_NoScale`, `Inherit_NoScaleOrReflection`): the bone's matrix before the
    /// skeleton scale.
    #[inline(always)]
    fn world_no_scale(&mut self, p: ParentWorld, frame: &WorldFrame, pose: AppliedPose) {
        let AppliedPose { rotation, scale_x, scale_y, shear_x, shear_y, .. } = pose;
        let (sx, sy) = (frame.scale_x, frame.scale_y);
        let (pa, pb, pc, pd) = (p.a, p.b, p.c, p.d);
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
        let ((sin_x, cos_x), (sin_y, cos_y)) = math::sin_cos_deg_pair(shear_x, 90.0 + shear_y);
        let la = cos_x * scale_x;
        let lb = cos_y * scale_y;
        let lc = sin_x * scale_x;
        let ld = sin_y * scale_y;
        self.a = za * la + zb * lc;
        self.b = za * lb + zb * ld;
        self.c = zc * la + zd * lc;
        self.d = zc * lb + zd * ld;
    }

    /// spine-cpp `Bone::update`: world transform from the applied pose.
    pub fn update_from_applied(&mut self, parent: Option<ParentWorld>, frame: &WorldFrame) {
        let pose = *self.applied_mut();
        self.world_from(None, parent, frame, pose);
    }

    /// [`Bone::update_from_applied`] for a child bone of [`Inherit::Normal`] (`parent` is its
    /// parent): the same arithmetic as that mode's branch, with no frame lookup.
    #[inline(always)]
    pub(super) fn update_normal_child(&mut self, parent: &Bone) {
        // No deferred pose here: bones the walk reaches after a constraint that may move
        // them compute theirs at once (`AP_READ_AFTER`).
        let ap = self.applied_in_cache();
        self.world_normal_child(parent, ap);
    }

    /// [`Bone::reset_applied`] then [`Bone::update_normal_child`]: every local field read
    /// before the applied pose is written, the world computed from those registers.
    #[inline(always)]
    pub(super) fn reset_update_normal_child(&mut self, parent: &Bone) {
        let pose = self.local_pose();
        self.world_normal_child(parent, pose);
        self.ap = pose;
        self.ap_flags &= !AP_DEFERRED;
    }

    /// The world transform of a child of [`Inherit::Normal`] from `pose` (the arithmetic of
    /// that mode's branch of the world transform).
    #[inline(always)]
    pub(super) fn world_normal_child(&mut self, parent: &Bone, pose: AppliedPose) {
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
    pub(super) fn local_pose(&self) -> AppliedPose {
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
    pub(super) fn reset_applied(&mut self) {
        self.ap = self.local_pose();
        self.ap_flags &= !AP_DEFERRED;
    }

    /// spine-cpp `Bone::updateWorldTransform()`: world transform from the local pose.
    #[inline(never)]
    pub fn update_from_local(&mut self, parent: Option<ParentWorld>, frame: &WorldFrame) {
        // The pose read here, not passed: copied whole into the applied pose and kept in
        // registers for the world transform.
        let pose = self.local_pose();
        self.set_applied(pose);
        self.world_from(None, parent, frame, pose);
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
pub(super) fn update_again(bones: &mut [Bone], i: usize, frame: &WorldFrame) {
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
    update_bone(bones, BoneId::from_index(i), frame);
}
