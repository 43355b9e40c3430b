//! A bone's applied pose: read, set, deferred until first read, recomputed from the world
//! transform (spine-cpp `Bone::updateAppliedTransform`).

use super::*;

impl Bone {
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
    pub(super) fn materialize_applied(&mut self) {
        // Computed here, not returned by `deferred_pose` through memory: that result, stored
        // field by field, was copied with wider loads (a store-forwarding stall).
        self.ap = self.compute_deferred_pose();
        self.ap_flags &= !AP_DEFERRED;
    }

    /// The pose a deferred [`Bone::update_applied_transform`] gives (`ap_flags` has
    /// [`AP_DEFERRED`]).
    #[inline(never)]
    pub(super) fn deferred_pose(&self) -> AppliedPose {
        self.compute_deferred_pose()
    }

    /// The body of [`Bone::deferred_pose`].
    #[inline(always)]
    fn compute_deferred_pose(&self) -> AppliedPose {
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
    pub(super) fn defer_applied(&mut self, x: f32, y: f32, ra: f32, rb: f32, rc: f32, rd: f32) {
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
    pub(super) fn defer_inputs(&mut self, p: ParentWorld) {
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
    pub(super) fn store_inputs(&mut self, p: ParentWorld, w: [f32; 6]) {
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
    pub(super) fn applied_from_inputs(&mut self, p: ParentWorld) {
        if self.ap_flags & (AP_DEFERRED | AP_CACHE_READ) == AP_CACHE_READ
            && self.moved_keeping_pose(p)
        {
            return;
        }
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

    /// The applied pose after a constraint moved only this bone's world position, for a bone
    /// the update cache reads after the constraint ([`AP_CACHE_READ`]; the others defer
    /// their pose, which costs less than this test, and compute it as spine-cpp does when
    /// it is read). Where the world matrix is, bit for bit, the one the applied pose (not
    /// deferred) gives under the parent `p` through the local-matrix cache (the walk or a
    /// solver left it, and nothing turned or scaled it since), and that pose is one
    /// spine-cpp's `updateAppliedTransform` recovers as it is (no shear, positive scales
    /// well inside its thresholds, a rotation inside ±180°), the rotation, scales and shears
    /// are kept and only the position is computed, with that function's operations
    /// (returns `true`). spine-cpp computes the parent-space matrix, a square root and two
    /// `atan2`s, which give the same pose within rounding; kept, the bone's next update
    /// takes its matrix from the cache instead of a sine and cosine (and the walk's next
    /// frame finds the cache holding its own key, not this pose's). `false`: nothing
    /// changed.
    fn moved_keeping_pose(&mut self, p: ParentWorld) -> bool {
        let ap = self.ap;
        let canonical = |s: f32| s > 0.001 && s < 1000.0;
        if !(ap.shear_x == 0.0
            && ap.shear_y == 0.0
            && canonical(ap.scale_x)
            && canonical(ap.scale_y)
            && math::abs(ap.rotation) < 179.0)
        {
            return false;
        }
        let Some([la, lb, lc, ld]) = self.local.peek(ap) else { return false };
        let (pa, pb, pc, pd) = (p.a, p.b, p.c, p.d);
        let m = [pa * la + pb * lc, pa * lb + pb * ld, pc * la + pd * lc, pc * lb + pd * ld];
        if m.map(f32::to_bits) != [self.a, self.b, self.c, self.d].map(f32::to_bits) {
            return false;
        }
        let pid = 1.0 / (pa * pd - pb * pc);
        let (ia, ib, ic, id) = (pd * pid, pb * pid, pc * pid, pa * pid);
        let (dx, dy) = (self.world_x - p.world_x, self.world_y - p.world_y);
        (self.ap.x, self.ap.y) = (dx * ia - dy * ib, dy * id - dx * ic);
        true
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
    pub(super) fn update_applied_transform_general(
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
}
