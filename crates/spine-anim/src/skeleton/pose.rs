//! Poses as bones see them: world frame, parent world, local matrices and their cache,
//! the applied pose.

use super::*;

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
pub(super) fn local_axes(rotation: f32, shear_x: f32, shear_y: f32) -> (f32, f32, f32, f32) {
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
pub(super) fn local_matrix(
    rotation: f32,
    scale_x: f32,
    scale_y: f32,
    shear_x: f32,
    shear_y: f32,
) -> [f32; 4] {
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
    pub(super) key: [u32; 5],
    /// `local_matrix` of the key, stored as `[la, ld, lc, lb]`: the two pairs the 2×2
    /// product with the parent's matrix multiplies lane-wise (loaded without shuffles).
    pub(super) m: [f32; 4],
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
    /// A word of the cache (see `Skeleton::touch`).
    #[inline]
    pub(crate) fn touch(&self) -> u32 {
        self.key[0]
    }

    /// The cached [`local_matrix`] when the arguments are bit-identical to the last call's
    /// of [`LocalCache::get`] (`la, lb, lc, ld`); `None` otherwise (the cache untouched).
    #[inline(always)]
    pub(super) fn peek(&self, pose: AppliedPose) -> Option<[f32; 4]> {
        let key = [pose.rotation, pose.scale_x, pose.scale_y, pose.shear_x, pose.shear_y];
        (key.map(f32::to_bits) == self.key).then(|| {
            let [la, ld, lc, lb] = self.m;
            [la, lb, lc, ld]
        })
    }

    /// [`local_matrix`] of the arguments, from the cache when they are bit-identical to the
    /// last call's.
    #[inline(always)]
    pub(super) fn get(
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
/// `Bone::updateAppliedTransform`). Inlined into its two out-of-line callers (which store
/// the result into the bone): returned through memory, its field-by-field stores were
/// copied with wider loads (a store-forwarding stall).
#[inline(always)]
pub(super) fn applied_from_local_matrix(d: AppliedPose) -> AppliedPose {
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
pub(super) const AP_DEFERRED: u8 = 1;

/// [`Bone`] `ap_flags`: the update cache walks the bone, or an IK constraint reads it, after
/// a constraint that may defer its applied pose.
pub(super) const AP_READ_AFTER: u8 = 2;

/// [`Bone`] `ap_flags`, while [`Skeleton::update_cache`] runs only: a constraint before the
/// current entry may defer the bone's applied pose.
pub(super) const AP_MOVED: u8 = 4;

/// [`Bone`] `ap_flags`, while [`Skeleton::update_cache`] runs only: an earlier entry of the
/// update cache walks the bone.
pub(super) const AP_SEEN: u8 = 8;

/// [`Bone`] `ap_flags`, with [`AP_DEFERRED`]: the deferred pose is held as the inputs of
/// [`Bone::update_applied_transform`]'s common case (see [`Bone::defer_inputs`]), not as
/// the parent-space matrix.
pub(super) const AP_INPUTS: u8 = 16;

/// [`Bone`] `ap_flags`, with [`AP_DEFERRED`]: the deferred pose is a full-mix IK pose, final
/// but for its rotation, which [`ik::aimed_rotation`](crate::constraints::ik) computes from
/// the rotation before the solve (in `ap.rotation`) and what the solve left in `ap_more`
/// (see [`Bone::pose_normal_aimed`]).
pub(super) const AP_AIMED: u8 = 32;

/// [`Bone`] `ap_flags`: [`AP_READ_AFTER`] as the update cache's order sets it, without the
/// test switch that sets that flag on every bone (see [`Skeleton::set_eager_applied`]): the
/// bones whose applied pose a translation-only move keeps (see `Bone::moved_keeping_pose`),
/// the same ones whether the others' poses are deferred or computed at once.
pub(super) const AP_CACHE_READ: u8 = 64;

/// The parent-space matrix of a pose deferred as the inputs of
/// [`Bone::update_applied_transform`]'s common case (a parent, [`Inherit::Normal`]): `d`
/// holds `dx, dy` and the parent's `a, b, c, d` in `x .. shear_x` (`shear_y` is not read),
/// `m` the bone's world `a, b, c, d`. The operations of that case, in its order (so the
/// same bits as computing them at once); the result is in [`applied_from_local_matrix`]'s
/// layout.
#[inline(always)]
pub(super) fn local_matrix_from_inputs(d: AppliedPose, m: [f32; 4]) -> AppliedPose {
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
