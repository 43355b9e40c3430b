//! Physics constraint solver (spine-cpp 4.2 `PhysicsConstraint::update`; 4.3 data with
//! [`Behaviour::physics_lagged_offsets`](spine_model::Behaviour::physics_lagged_offsets)
//! goes to the 4.3 solver, see [`update`]).
//!
//! A fixed-step spring simulation: the bone's world position feeds translation offsets
//! (`x`, `y`), the tip of the bone feeds rotation/shear-x and scale-x offsets. Time comes
//! from the skeleton ([`SolverCtx::time`], advanced only by
//! [`Skeleton::update`](crate::Skeleton::update)); the elapsed time is accumulated in
//! [`PhysicsState::remaining`] and consumed in steps of [`PhysicsData::step`] seconds, so
//! the same sequence of deltas always gives bit-identical results.
//!
//! Quirks of the reference kept on purpose (the goldens depend on them):
//! * `mix == 0` returns before anything else (no state update, no applied-pose refresh);
//! * [`Physics::None`] returns early: no offsets are applied at all;
//! * the first [`Physics::Update`] after a reset only records the bone position (the delta
//!   still goes to `remaining` and is simulated on the next update);
//! * the velocity limit uses `|scale_y|` for x and `|scale_x|` for y (axes swapped);
//! * wind and gravity are multiplied by the data's reference scale in the translation part
//!   only, not in the rotation/scale part.
//!
//! One guard the reference lacks: an update simulates at most [`MAX_STEPS_PER_UPDATE`] steps
//! per constraint ([`bounded_backlog`]). The reference loops while `remaining >= step`, which
//! never ends once `step` is below the float spacing of `remaining` (a time jump of 1e30 s)
//! and runs for minutes on huge deltas; real frames need a handful of steps.

use spine_model::{PhysicsData, ScaleYMode};

use super::{PhysicsPose, SolverCtx};
use crate::math;
use crate::skeleton::{parent_world, Bone, Physics};

/// `MathUtil::Pi_2`.
const PI_2: f32 = math::PI * 2.0;
/// `MathUtil::InvPi_2`.
const INV_PI_2: f32 = 1.0 / PI_2;

/// Simulation state of a physics constraint (spine-cpp 4.2 fields of the same names).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PhysicsState {
    /// Next update only records the bone position.
    pub reset: bool,
    /// Last bone world x.
    pub ux: f32,
    /// Last bone world y.
    pub uy: f32,
    /// Last center x.
    pub cx: f32,
    /// Last center y.
    pub cy: f32,
    /// Last tip x.
    pub tx: f32,
    /// Last tip y.
    pub ty: f32,
    /// X offset.
    pub x_offset: f32,
    /// X velocity.
    pub x_velocity: f32,
    /// Y offset.
    pub y_offset: f32,
    /// Y velocity.
    pub y_velocity: f32,
    /// Rotate offset.
    pub rotate_offset: f32,
    /// Rotate velocity.
    pub rotate_velocity: f32,
    /// Scale offset.
    pub scale_offset: f32,
    /// Scale velocity.
    pub scale_velocity: f32,
    /// 4.3: what the last batch of steps added to the x offset (`_xLag`).
    pub x_lag: f32,
    /// 4.3: what the last batch of steps added to the y offset (`_yLag`).
    pub y_lag: f32,
    /// 4.3: what the last batch of steps added to the rotate offset (`_rotateLag`).
    pub rotate_lag: f32,
    /// 4.3: what the last batch of steps added to the scale offset (`_scaleLag`).
    pub scale_lag: f32,
    /// Unsimulated time.
    pub remaining: f32,
    /// Skeleton time of the last update.
    pub last_time: f32,
    /// [`PhysicsState::last_time`] from the skeleton's exact (`f64`) time, which the 4.3
    /// solver takes its step time from (see [`update_43`]).
    pub last_time64: f64,
    /// `pow(damping, 60 * step)` of the last step (the 4.2 solver recomputes it only when
    /// the damping or the step changes).
    damping_pow: PowMemo,
}

/// The arguments and result of the last `pow` call. A cache, not simulation state: any two
/// compare equal.
#[derive(Debug, Clone, Copy, Default)]
struct PowMemo {
    /// `a.to_bits()`, `b.to_bits()` of the memoized call (bit equality: `-0.0`, NaN).
    args: Option<(u32, u32)>,
    result: f32,
}

impl PartialEq for PowMemo {
    fn eq(&self, _: &PowMemo) -> bool {
        true
    }
}

impl PowMemo {
    /// `pow(a, b)`, from the memo when the arguments are bit-identical to the last call's.
    #[inline]
    fn pow(&mut self, a: f32, b: f32) -> f32 {
        let args = (a.to_bits(), b.to_bits());
        if self.args != Some(args) {
            self.args = Some(args);
            self.result = pow(a, b);
        }
        self.result
    }
}

impl PhysicsState {
    /// The constructor state (`_reset = true`, everything else 0).
    pub fn new() -> PhysicsState {
        PhysicsState { reset: true, ..PhysicsState::default() }
    }

    /// spine-cpp `PhysicsConstraint::reset()` at skeleton time `time`: offsets, velocities
    /// and the unsimulated time cleared, the next update only records the bone position.
    /// (`ux`/`uy`, `cx`/`cy` and `tx`/`ty` are kept, as in the reference.)
    pub fn reset(&mut self, time: f32) {
        self.reset_at(time, f64::from(time));
    }

    /// [`PhysicsState::reset`] at skeleton time `time`, exactly `time64`.
    pub fn reset_at(&mut self, time: f32, time64: f64) {
        self.remaining = 0.0;
        self.last_time = time;
        self.last_time64 = time64;
        self.reset = true;
        self.x_offset = 0.0;
        self.x_velocity = 0.0;
        self.y_offset = 0.0;
        self.y_velocity = 0.0;
        self.rotate_offset = 0.0;
        self.rotate_velocity = 0.0;
        self.scale_offset = 0.0;
        self.scale_velocity = 0.0;
        self.x_lag = 0.0;
        self.y_lag = 0.0;
        self.rotate_lag = 0.0;
        self.scale_lag = 0.0;
    }

    /// spine-cpp `PhysicsConstraint::translate`: the next update applies forces as if the
    /// bone had moved an additional `(x, y)` in world space (the remembered positions move
    /// by `(-x, -y)`).
    pub fn translate(&mut self, x: f32, y: f32) {
        self.ux -= x;
        self.uy -= y;
        self.cx -= x;
        self.cy -= y;
    }

    /// spine-cpp `PhysicsConstraint::rotate`: as [`PhysicsState::translate`] for a rotation
    /// of the remembered center by `degrees` around world `(x, y)`.
    pub fn rotate(&mut self, x: f32, y: f32, degrees: f32) {
        let r = degrees * math::DEG_RAD;
        let (cos, sin) = (math::cos(r), math::sin(r));
        let dx = self.cx - x;
        let dy = self.cy - y;
        self.translate(dx * cos - dy * sin - dx, dx * sin + dy * cos - dy);
    }
}

/// spine-cpp's `(float)pow((double)a, (double)b)`, evaluated as the `f32` `powf` (within
/// an ulp of it, and several times cheaper than the `f64` `pow`).
fn pow(a: f32, b: f32) -> f32 {
    a.powf(b)
}

/// Clamps `v` to `[-q, q]` the way the reference does (`v > q ? q : v < -q ? -q : v`).
fn clamp(v: f32, q: f32) -> f32 {
    if v > q {
        q
    } else if v < -q {
        -q
    } else {
        v
    }
}

/// Steps one physics constraint and applies its offsets to `data.bone` (nothing when
/// `ctx.physics` is [`Physics::None`] or the mix is 0). Never allocates.
///
/// Data with [`Behaviour::physics_lagged_offsets`](spine_model::Behaviour::physics_lagged_offsets)
/// follows spine-cpp 4.3 (see [`update_43`]); everything else spine-cpp 4.2.
#[inline]
pub fn update(ctx: &mut SolverCtx<'_>, data: &PhysicsData, pose: &mut PhysicsPose) {
    if ctx.data.behaviour.physics_lagged_offsets {
        update_43(ctx, data, pose);
        return;
    }
    let mix = pose.mix;
    if mix == 0.0 {
        return;
    }
    let x = data.x > 0.0;
    let y = data.y > 0.0;
    let rotate_or_shear_x = data.rotate > 0.0 || data.shear_x > 0.0;
    let scale_x = data.scale_x > 0.0;
    let bi = data.bone.index();
    let l = ctx.data.bones.get(bi).map_or(0.0, |b| b.length);
    let frame = ctx.frame;
    let y_sign = if ctx.y_down { -1.0 } else { 1.0 };
    let parent = parent_world(ctx.bones, data.bone);
    let Some(bone) = ctx.bones.get_mut(bi) else { return };
    let st = &mut pose.state;

    match ctx.physics {
        Physics::None => return,
        Physics::Reset | Physics::Update => {
            if ctx.physics == Physics::Reset {
                st.reset(ctx.time);
            }
            let delta = (ctx.time - st.last_time).max(0.0);
            st.remaining = bounded_backlog(st.remaining + delta, data.step);
            st.last_time = ctx.time;

            let (bx, by) = (bone.world_x, bone.world_y);
            if st.reset {
                st.reset = false;
                st.ux = bx;
                st.uy = by;
            } else {
                let mut a = st.remaining;
                let i = pose.inertia;
                let t = data.step;
                let f = ctx.data.reference_scale;
                let mut qx = data.limit * delta;
                let qy = qx * math::abs(frame.scale_x);
                qx *= math::abs(frame.scale_y);
                if x || y {
                    if x {
                        let u = (st.ux - bx) * i;
                        st.x_offset += clamp(u, qx);
                        st.ux = bx;
                    }
                    if y {
                        let u = (st.uy - by) * i;
                        st.y_offset += clamp(u, qy);
                        st.uy = by;
                    }
                    if a >= t {
                        let d = st.damping_pow.pow(pose.damping, 60.0 * t);
                        let m = pose.mass_inverse * t;
                        let e = pose.strength;
                        let w = pose.wind * f;
                        let g = pose.gravity * f * y_sign;
                        loop {
                            if x {
                                st.x_velocity += (w - st.x_offset * e) * m;
                                st.x_offset += st.x_velocity * t;
                                st.x_velocity *= d;
                            }
                            if y {
                                st.y_velocity -= (g + st.y_offset * e) * m;
                                st.y_offset += st.y_velocity * t;
                                st.y_velocity *= d;
                            }
                            a -= t;
                            if a < t {
                                break;
                            }
                        }
                    }
                    if x {
                        bone.world_x += st.x_offset * mix * data.x;
                    }
                    if y {
                        bone.world_y += st.y_offset * mix * data.y;
                    }
                }

                if rotate_or_shear_x || scale_x {
                    let (mut c, mut s);
                    let mut mr = 0.0;
                    let dx = clamp(st.cx - bone.world_x, qx);
                    let dy = clamp(st.cy - bone.world_y, qy);
                    // Both angles at once when the rotation needs the target's.
                    let (ta, ca) = if rotate_or_shear_x {
                        math::atan2_pair(dy + st.ty, dx + st.tx, bone.c, bone.a)
                    } else {
                        (0.0, math::atan2(bone.c, bone.a))
                    };
                    if rotate_or_shear_x {
                        mr = (data.rotate + data.shear_x) * mix;
                        let mut r = ta - ca - st.rotate_offset * mr;
                        st.rotate_offset += (r - ceil(r * INV_PI_2 - 0.5) * PI_2) * i;
                        r = st.rotate_offset * mr + ca;
                        (s, c) = math::sin_cos(r);
                        if scale_x {
                            let r = l * bone.world_scale_x();
                            if r > 0.0 {
                                st.scale_offset += (dx * c + dy * s) * i / r;
                            }
                        }
                    } else {
                        (s, c) = math::sin_cos(ca);
                        let r = l * bone.world_scale_x();
                        if r > 0.0 {
                            st.scale_offset += (dx * c + dy * s) * i / r;
                        }
                    }
                    a = st.remaining;
                    if a >= t {
                        let m = pose.mass_inverse * t;
                        let e = pose.strength;
                        let w = pose.wind;
                        let g = pose.gravity * y_sign;
                        let h = l / f;
                        let d = st.damping_pow.pow(pose.damping, 60.0 * t);
                        loop {
                            a -= t;
                            if scale_x {
                                st.scale_velocity += (w * c - g * s - st.scale_offset * e) * m;
                                st.scale_offset += st.scale_velocity * t;
                                st.scale_velocity *= d;
                            }
                            if rotate_or_shear_x {
                                st.rotate_velocity -=
                                    ((w * s + g * c) * h + st.rotate_offset * e) * m;
                                st.rotate_offset += st.rotate_velocity * t;
                                st.rotate_velocity *= d;
                                if a < t {
                                    break;
                                }
                                let r = st.rotate_offset * mr + ca;
                                (s, c) = math::sin_cos(r);
                            } else if a < t {
                                break;
                            }
                        }
                    }
                }
                st.remaining = a;
            }
            st.cx = bone.world_x;
            st.cy = bone.world_y;
        }
        Physics::Pose => {
            if x {
                bone.world_x += st.x_offset * mix * data.x;
            }
            if y {
                bone.world_y += st.y_offset * mix * data.y;
            }
        }
    }

    if rotate_or_shear_x {
        rotate_and_shear(bone, data, st.rotate_offset * mix);
    }
    if scale_x {
        let s = 1.0 + st.scale_offset * mix * data.scale_x;
        bone.a *= s;
        bone.c *= s;
    }
    if ctx.physics != Physics::Pose {
        st.tx = l * bone.a;
        st.ty = l * bone.c;
    }
    // 4.3 poses (`lazy43`): the bone's local pose stays stale until something reads it.
    if !ctx.data.behaviour.lazy_bone_poses {
        bone.update_applied_transform(parent, &frame);
    }
}

/// Most simulation steps one update runs per constraint: 10,000 (166 s of backlog at 60
/// steps per second). Beyond it the backlog is dropped to this many steps.
pub const MAX_STEPS_PER_UPDATE: f32 = 10_000.0;

/// The time left to simulate, bounded so that the step loops end: at most
/// [`MAX_STEPS_PER_UPDATE`] steps of `step` (whose float spacing is then far below `step`,
/// so every `remaining -= step` makes progress); nothing when `step` is not a positive
/// number (a hand-built `PhysicsData`; loaded data always has `1 / fps`, fps 1–255).
fn bounded_backlog(remaining: f32, step: f32) -> f32 {
    if step.is_nan() || step <= 0.0 {
        return 0.0;
    }
    let cap = step * MAX_STEPS_PER_UPDATE;
    if remaining > cap {
        cap
    } else {
        remaining
    }
}

/// `MathUtil::ceil` (`::ceil` of a float).
fn ceil(v: f32) -> f32 {
    v.ceil()
}

/// `MathUtil::max(0.0f, 1 - a / t)`: the part of a step not yet simulated.
fn lag_fraction(a: f32, t: f32) -> f32 {
    (1.0 - a / t).max(0.0)
}

/// spine-cpp 4.3 `PhysicsConstraint::update`. Differences from the 4.2 solver:
/// * every batch of steps remembers what it added to each offset (`*_lag`); the offsets are
///   applied minus `lag * z`, `z` = the unsimulated fraction of a step (`1 - remaining /
///   step`, at least 0), which interpolates between the last two simulated states
///   ([`Physics::Pose`] included);
/// * the rotation target and the scale length subtract the previous rotate / scale lag
///   scaled by the fraction left before this update's delta;
/// * the velocity limit is `limit * delta * |scaleX|` for x and `|scaleY|` for y;
/// * translation forces are `(wind * windDir + gravity * gravityDir) * referenceScale`
///   times the skeleton scale (y-down included via the scale), rotation/scale forces the
///   same without reference or skeleton scale (no y-down flip);
/// * scale x also scales y per [`ScaleYMode`]: `Uniform` by the
///   same factor, `Volume` by `1 / |s|` (`4 - 3.67347 |s|` below 0.7).
pub fn update_43(ctx: &mut SolverCtx<'_>, data: &PhysicsData, pose: &mut PhysicsPose) {
    let mix = pose.mix;
    if mix == 0.0 {
        return;
    }
    let x = data.x > 0.0;
    let y = data.y > 0.0;
    let rotate_or_shear_x = data.rotate > 0.0 || data.shear_x > 0.0;
    let scale_x = data.scale_x > 0.0;
    let bi = data.bone.index();
    let l = ctx.data.bones.get(bi).map_or(0.0, |b| b.length);
    let t = data.step;
    let frame = ctx.frame;
    let (wind_dir, gravity_dir) = (ctx.wind, ctx.gravity);
    let parent = parent_world(ctx.bones, data.bone);
    let Some(bone) = ctx.bones.get_mut(bi) else { return };
    let st = &mut pose.state;
    let mut z = 0.0;

    match ctx.physics {
        Physics::None => return,
        Physics::Reset | Physics::Update => {
            if ctx.physics == Physics::Reset {
                st.reset_at(ctx.time, ctx.time64);
            }
            // The time since the last update from the skeleton's exact time: spine-ts 4.3
            // keeps the time in f64, where the sum of the frame deltas does not drift, so
            // every frame of 1/60 s is one step of a 60 fps constraint (an f32 sum gives
            // deltas a rounding error apart from the step, and steps skipped or doubled).
            let delta = ((ctx.time64 - st.last_time64).max(0.0)) as f32;
            let aa = st.remaining;
            st.remaining = bounded_backlog(st.remaining + delta, t);
            st.last_time = ctx.time;
            st.last_time64 = ctx.time64;

            let (bx, by) = (bone.world_x, bone.world_y);
            if st.reset {
                st.reset = false;
                st.ux = bx;
                st.uy = by;
            } else {
                let mut a = st.remaining;
                let i = pose.inertia;
                let f = ctx.data.reference_scale;
                // (damping factor, mass * step, strength), computed once when needed.
                let mut dme: Option<(f32, f32, f32)> = None;
                let mut qx = data.limit * delta;
                let qy = qx * math::abs(frame.scale_y);
                qx *= math::abs(frame.scale_x);
                if x || y {
                    if x {
                        let u = (st.ux - bx) * i;
                        st.x_offset += clamp(u, qx);
                        st.ux = bx;
                    }
                    if y {
                        let u = (st.uy - by) * i;
                        st.y_offset += clamp(u, qy);
                        st.uy = by;
                    }
                    if a >= t {
                        let (xs, ys) = (st.x_offset, st.y_offset);
                        let (d, m, e) = *dme.insert((
                            pow(pose.damping, 60.0 * t),
                            t * pose.mass_inverse,
                            pose.strength,
                        ));
                        let w = f * pose.wind;
                        let g = f * pose.gravity;
                        let ax = (w * wind_dir[0] + g * gravity_dir[0]) * frame.scale_x;
                        let ay = (w * wind_dir[1] + g * gravity_dir[1]) * frame.scale_y;
                        loop {
                            if x {
                                st.x_velocity += (ax - st.x_offset * e) * m;
                                st.x_offset += st.x_velocity * t;
                                st.x_velocity *= d;
                            }
                            if y {
                                st.y_velocity -= (ay + st.y_offset * e) * m;
                                st.y_offset += st.y_velocity * t;
                                st.y_velocity *= d;
                            }
                            a -= t;
                            if a < t {
                                break;
                            }
                        }
                        st.x_lag = st.x_offset - xs;
                        st.y_lag = st.y_offset - ys;
                    }
                    z = lag_fraction(a, t);
                    if x {
                        bone.world_x += (st.x_offset - st.x_lag * z) * mix * data.x;
                    }
                    if y {
                        bone.world_y += (st.y_offset - st.y_lag * z) * mix * data.y;
                    }
                }

                if rotate_or_shear_x || scale_x {
                    let (mut c, mut s);
                    let mut mr = 0.0;
                    let dx = clamp(st.cx - bone.world_x, qx);
                    let dy = clamp(st.cy - bone.world_y, qy);
                    let (ta, ca) = if rotate_or_shear_x {
                        math::atan2_pair(dy + st.ty, dx + st.tx, bone.c, bone.a)
                    } else {
                        (0.0, math::atan2(bone.c, bone.a))
                    };
                    if rotate_or_shear_x {
                        mr = (data.rotate + data.shear_x) * mix;
                        let zr = st.rotate_lag * lag_fraction(aa, t);
                        let mut r = ta - ca - (st.rotate_offset - zr) * mr;
                        st.rotate_offset += (r - ceil(r * INV_PI_2 - 0.5) * PI_2) * i;
                        r = (st.rotate_offset - zr) * mr + ca;
                        (s, c) = math::sin_cos(r);
                        if scale_x {
                            let r = l * bone.world_scale_x();
                            if r > 0.0 {
                                st.scale_offset += (dx * c + dy * s) * i / r;
                            }
                        }
                    } else {
                        (s, c) = math::sin_cos(ca);
                        let r = l * bone.world_scale_x() - st.scale_lag * lag_fraction(aa, t);
                        if r > 0.0 {
                            st.scale_offset += (dx * c + dy * s) * i / r;
                        }
                    }
                    a = st.remaining;
                    if a >= t {
                        let (d, m, e) = *dme.get_or_insert_with(|| {
                            (pow(pose.damping, 60.0 * t), t * pose.mass_inverse, pose.strength)
                        });
                        let ax = pose.wind * wind_dir[0] + pose.gravity * gravity_dir[0];
                        let ay = pose.wind * wind_dir[1] + pose.gravity * gravity_dir[1];
                        let (rs, ss) = (st.rotate_offset, st.scale_offset);
                        let h = l / f;
                        loop {
                            a -= t;
                            if scale_x {
                                st.scale_velocity += (ax * c - ay * s - st.scale_offset * e) * m;
                                st.scale_offset += st.scale_velocity * t;
                                st.scale_velocity *= d;
                            }
                            if rotate_or_shear_x {
                                st.rotate_velocity -=
                                    ((ax * s + ay * c) * h + st.rotate_offset * e) * m;
                                st.rotate_offset += st.rotate_velocity * t;
                                st.rotate_velocity *= d;
                                if a < t {
                                    break;
                                }
                                let r = st.rotate_offset * mr + ca;
                                (s, c) = math::sin_cos(r);
                            } else if a < t {
                                break;
                            }
                        }
                        st.rotate_lag = st.rotate_offset - rs;
                        st.scale_lag = st.scale_offset - ss;
                    }
                    z = lag_fraction(a, t);
                }
                st.remaining = a;
            }
            st.cx = bone.world_x;
            st.cy = bone.world_y;
        }
        Physics::Pose => {
            z = lag_fraction(st.remaining, t);
            if x {
                bone.world_x += (st.x_offset - st.x_lag * z) * mix * data.x;
            }
            if y {
                bone.world_y += (st.y_offset - st.y_lag * z) * mix * data.y;
            }
        }
    }

    if rotate_or_shear_x {
        rotate_and_shear(bone, data, (st.rotate_offset - st.rotate_lag * z) * mix);
    }
    if scale_x {
        let mut s = 1.0 + (st.scale_offset - st.scale_lag * z) * mix * data.scale_x;
        bone.a *= s;
        bone.c *= s;
        match data.scale_y_mode {
            ScaleYMode::Uniform => {
                bone.b *= s;
                bone.d *= s;
            }
            ScaleYMode::Volume => {
                s = math::abs(s);
                s = if s >= 0.7 { 1.0 / s } else { 4.0 - 3.67347 * s };
                bone.b *= s;
                bone.d *= s;
            }
            ScaleYMode::None => {}
        }
    }
    if ctx.physics != Physics::Pose {
        st.tx = l * bone.a;
        st.ty = l * bone.c;
    }
    // 4.3 poses (`lazy43`): the bone's local pose stays stale until something reads it.
    if !ctx.data.behaviour.lazy_bone_poses {
        bone.update_applied_transform(parent, &frame);
    }
}

/// Turns the bone's world axes by the mixed rotate offset `o` (radians): both axes by
/// `o * rotate`, or, with a shear-x mix, the y axis by `o * rotate` and the x axis by
/// `o * (rotate + shearX)` (spine-cpp `PhysicsConstraint::update`, same in 4.2 and 4.3).
#[inline(always)]
fn rotate_and_shear(bone: &mut Bone, data: &PhysicsData, mut o: f32) {
    if data.shear_x > 0.0 {
        let mut r = 0.0;
        if data.rotate > 0.0 {
            r = o * data.rotate;
            let (s, c) = math::sin_cos(r);
            let a = bone.b;
            bone.b = c * a - s * bone.d;
            bone.d = s * a + c * bone.d;
        }
        r += o * data.shear_x;
        let (s, c) = math::sin_cos(r);
        let a = bone.a;
        bone.a = c * a - s * bone.c;
        bone.c = s * a + c * bone.c;
    } else {
        o *= data.rotate;
        let (s, c) = math::sin_cos(o);
        let a = bone.a;
        bone.a = c * a - s * bone.c;
        bone.c = s * a + c * bone.c;
        let a = bone.b;
        bone.b = c * a - s * bone.d;
        bone.d = s * a + c * bone.d;
    }
}
