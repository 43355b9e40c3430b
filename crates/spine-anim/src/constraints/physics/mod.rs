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
//! per constraint (`bounded_backlog`). The reference loops while `remaining >= step`, which
//! never ends once `step` is below the float spacing of `remaining` (a time jump of 1e30 s)
//! and runs for minutes on huge deltas; real frames need a handful of steps.

use spine_model::{BoneData, BoneId, PhysicsData};

use super::{PhysicsPose, SolverCtx};
use crate::math;
use crate::skeleton::{Bone, Physics};

mod step42;
mod step43;

pub(crate) use step42::update_42_pair;
pub use step43::update_43;

/// What a 4.2 update reads of its constraint's data, in 36 bytes (see
/// [`Skeleton`](crate::Skeleton)'s copy of them): [`PhysicsData`]'s fields, and the length of
/// its bone from the bone's [`BoneData`], read where the data's records (spread over more
/// cache lines) are not.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Physics42 {
    /// [`PhysicsData::bone`].
    pub(crate) bone: BoneId,
    /// The bone's setup length.
    pub(crate) length: f32,
    /// [`PhysicsData::x`].
    pub(crate) x: f32,
    /// [`PhysicsData::y`].
    pub(crate) y: f32,
    /// [`PhysicsData::rotate`].
    pub(crate) rotate: f32,
    /// [`PhysicsData::scale_x`].
    pub(crate) scale_x: f32,
    /// [`PhysicsData::shear_x`].
    pub(crate) shear_x: f32,
    /// [`PhysicsData::limit`].
    pub(crate) limit: f32,
    /// [`PhysicsData::step`].
    pub(crate) step: f32,
    /// Which mixes are positive (the tests the update makes of them): [`Physics42::X`],
    /// [`Physics42::Y`], [`Physics42::ROTATE`], [`Physics42::SHEAR_X`],
    /// [`Physics42::SCALE_X`].
    pub(crate) on: u8,
}

impl Physics42 {
    /// `x > 0`.
    pub(crate) const X: u8 = 1;
    /// `y > 0`.
    pub(crate) const Y: u8 = 2;
    /// `rotate > 0`.
    pub(crate) const ROTATE: u8 = 4;
    /// `shear_x > 0`.
    pub(crate) const SHEAR_X: u8 = 8;
    /// `scale_x > 0`.
    pub(crate) const SCALE_X: u8 = 16;

    /// The fields of `data`, its bone's length from `bones` (0 when out of range).
    pub(crate) fn of(data: &PhysicsData, bones: &[BoneData]) -> Physics42 {
        let positive = |v: f32, bit: u8| if v > 0.0 { bit } else { 0 };
        Physics42 {
            on: positive(data.x, Self::X)
                | positive(data.y, Self::Y)
                | positive(data.rotate, Self::ROTATE)
                | positive(data.shear_x, Self::SHEAR_X)
                | positive(data.scale_x, Self::SCALE_X),
            bone: data.bone,
            length: bones.get(data.bone.index()).map_or(0.0, |b| b.length),
            x: data.x,
            y: data.y,
            rotate: data.rotate,
            scale_x: data.scale_x,
            shear_x: data.shear_x,
            limit: data.limit,
            step: data.step,
        }
    }

    /// Whether any of the mixes `bits` is positive.
    #[inline(always)]
    pub(crate) fn any(&self, bits: u8) -> bool {
        self.on & bits != 0
    }
}

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
/// follows spine-cpp 4.3 (see [`update_43`]); everything else spine-cpp 4.2 (`step42.rs`).
#[inline]
pub fn update(ctx: &mut SolverCtx<'_>, data: &PhysicsData, pose: &mut PhysicsPose) {
    if ctx.data.behaviour.physics_lagged_offsets {
        update_43(ctx, data, pose);
    } else {
        step42::update_42(ctx, data, pose);
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

/// `MathUtil::ceil` (`::ceil` of a float). The springs wrap angle differences with it,
/// mostly differences within (-π, π), whose `v` is in (-1, 0), where `ceil` is `-0.0`:
/// answered without the libm call (which the wrap waited for), the same bits.
#[inline(always)]
fn ceil(v: f32) -> f32 {
    if v > -1.0 && v < 0.0 {
        -0.0
    } else {
        v.ceil()
    }
}

/// `MathUtil::max(0.0f, 1 - a / t)`: the part of a step not yet simulated.
fn lag_fraction(a: f32, t: f32) -> f32 {
    (1.0 - a / t).max(0.0)
}

/// Turns the world axes `m` (`a, b, c, d`) by the mixed rotate offset `o` (radians): both axes by
/// `o * rotate`, or, with a shear-x mix, the y axis by `o * rotate` and the x axis by
/// `o * (rotate + shearX)` (spine-cpp `PhysicsConstraint::update`, same in 4.2 and 4.3).
#[inline(always)]
fn rotate_and_shear(m: [f32; 4], (rotate, shear_x): (f32, f32), mut o: f32) -> [f32; 4] {
    let [mut a, mut b, mut c, mut d] = m;
    if shear_x > 0.0 {
        let mut r = 0.0;
        if rotate > 0.0 {
            r = o * rotate;
            let (s, co) = math::sin_cos(r);
            (b, d) = (co * b - s * d, s * b + co * d);
        }
        r += o * shear_x;
        let (s, co) = math::sin_cos(r);
        (a, c) = (co * a - s * c, s * a + co * c);
    } else {
        o *= rotate;
        let (s, co) = math::sin_cos(o);
        (a, c) = (co * a - s * c, s * a + co * c);
        (b, d) = (co * b - s * d, s * b + co * d);
    }
    [a, b, c, d]
}

/// The rotation springs' force `(w * s + g * c) * h + oe` of a step (spine-cpp's
/// `(w * s + g * c) * h + rotateOffset * e`; 4.3 names the accelerations `ax, ay`), `s, c`
/// the sine and cosine of `r`, taken from `sc` or computed into it. `calm`: `w` and `g` are
/// zeros and `h` is finite. Then `(w * s + g * c) * h` is a zero (of either sign) for any
/// finite `r`, and a zero added to a non-zero `oe` gives `oe` (a NaN too): the force
/// without the sine and cosine, so the step neither waits for them nor computes them. The
/// same bits either way (`tests::calm_force_is_exact`).
#[inline(always)]
fn rotation_force(
    calm: bool,
    oe: f32,
    r: f32,
    sc: &mut Option<(f32, f32)>,
    (w, g, h): (f32, f32, f32),
) -> f32 {
    if calm && oe != 0.0 && r.is_finite() {
        return oe;
    }
    let (s, c) = *sc.get_or_insert_with(|| sin_cos_apart(r));
    (w * s + g * c) * h + oe
}

/// [`math::sin_cos`] out of line, for the spring steps that read it only sometimes:
/// inlined, the compiler computed its libm branch (for huge angles) on every step, ahead of
/// the test.
#[inline(never)]
fn sin_cos_apart(r: f32) -> (f32, f32) {
    math::sin_cos(r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    /// The shortcut `ceil` is libm's, bit for bit (signed zeros, the interval's ends, NaN).
    #[test]
    fn ceil_is_libm_ceil() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let ends = [-1.0, -0.999_999_94, -1e-45, -0.0, 0.0, 1e-45, -1.000_000_1, f32::NAN];
        for v in ends
            .into_iter()
            .chain((0..100_000).map(|n| rng.range(-3.0, 1.0) * [1.0, 1e-3, 1e6][n % 3]))
        {
            assert_eq!(ceil(v).to_bits(), v.ceil().to_bits(), "ceil({v:e})");
        }
    }

    /// The force without the sine and cosine is bit for bit the force with them, whenever
    /// `rotation_force` takes that way.
    #[test]
    fn calm_force_is_exact() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let specials =
            [0.0, -0.0, 1e-45, -1e-45, 1e-30, -3.5, 1e30, f32::INFINITY, -f32::INFINITY, f32::NAN];
        let mut shortcuts = 0;
        for n in 0..200_000 {
            let pick = |rng: &mut Rng, scale: f32| {
                let v = rng.range(-1.0, 1.0) * scale;
                if rng.bits().is_multiple_of(8) {
                    specials[(rng.bits() % specials.len() as u64) as usize]
                } else {
                    v
                }
            };
            let oe = pick(&mut rng, 10f32.powi((n % 13) as i32 - 6));
            let r = pick(&mut rng, 10f32.powi((n % 9) as i32 - 2));
            let h = pick(&mut rng, 100.0);
            let (w, g) = ([0.0f32, -0.0][n % 2], [0.0f32, -0.0][(n / 2) % 2]);
            let calm = h.is_finite();
            let mut sc = None;
            let got = rotation_force(calm, oe, r, &mut sc, (w, g, h));
            shortcuts += usize::from(sc.is_none());
            let (s, c) = math::sin_cos(r);
            let want = (w * s + g * c) * h + oe;
            assert!(
                got.to_bits() == want.to_bits(),
                "oe {oe:e} r {r:e} h {h:e} w {w} g {g}: {got:e} against {want:e}"
            );
        }
        assert!(shortcuts > 100_000, "the shortcut was taken {shortcuts} times");
    }
}
