//! spine-cpp 4.3 `PhysicsConstraint::update`: the 4.2 springs with lagged offsets, wind and
//! gravity directions, and scale-y modes (see [`update_43`]).

use super::*;
use crate::skeleton::parent_world;
use spine_model::ScaleYMode;

/// The per-update values of one 4.3 step (spine-cpp's one-letter names).
struct Step {
    /// The constraint's mix.
    mix: f32,
    /// Inertia (`i`).
    i: f32,
    /// Step length in seconds (`t`).
    t: f32,
    /// The skeleton data's reference scale (`f`).
    f: f32,
    /// Velocity limits of this update in x and y.
    q: [f32; 2],
    /// The skeleton's scale in x and y (y down folded in).
    scale: [f32; 2],
    /// Unit wind and gravity directions.
    wind_dir: [f32; 2],
    gravity_dir: [f32; 2],
    /// The unsimulated time before this update's delta was added (`aa`).
    before: f32,
    /// The bone's setup length (`l`).
    l: f32,
    /// `(damping factor, mass * step, strength)`, computed once when needed.
    dme: Option<(f32, f32, f32)>,
}

impl Step {
    /// `(damping factor, mass * step, strength)` of `pose`.
    #[inline(always)]
    fn dme(&mut self, pose: &PhysicsPose) -> (f32, f32, f32) {
        let t = self.t;
        *self.dme.get_or_insert_with(|| {
            (pow(pose.damping, 60.0 * t), t * pose.mass_inverse, pose.strength)
        })
    }
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
    let parent = parent_world(ctx.bones, data.bone);
    let Some(bone) = ctx.bones.get_mut(bi) else { return };
    let mut z = 0.0;

    match ctx.physics {
        Physics::None => return,
        Physics::Reset | Physics::Update => {
            let st = &mut pose.state;
            if ctx.physics == Physics::Reset {
                st.reset_at(ctx.time, ctx.time64);
            }
            // The time since the last update from the skeleton's exact time: spine-ts 4.3
            // keeps the time in f64, where the sum of the frame deltas does not drift, so
            // every frame of 1/60 s is one step of a 60 fps constraint (an f32 sum gives
            // deltas a rounding error apart from the step, and steps skipped or doubled).
            let delta = ((ctx.time64 - st.last_time64).max(0.0)) as f32;
            let before = st.remaining;
            st.remaining = bounded_backlog(st.remaining + delta, t);
            st.last_time = ctx.time;
            st.last_time64 = ctx.time64;
            if st.reset {
                st.reset = false;
                st.ux = bone.world_x;
                st.uy = bone.world_y;
            } else {
                let limit = data.limit * delta;
                let mut k = Step {
                    mix,
                    i: pose.inertia,
                    t,
                    f: ctx.data.reference_scale,
                    q: [limit * math::abs(frame.scale_x), limit * math::abs(frame.scale_y)],
                    scale: [frame.scale_x, frame.scale_y],
                    wind_dir: ctx.wind,
                    gravity_dir: ctx.gravity,
                    before,
                    l,
                    dme: None,
                };
                let mut a = pose.state.remaining;
                if x || y {
                    (a, z) = translate(pose, bone, data, &mut k, a);
                }
                if rotate_or_shear_x || scale_x {
                    a = rotate_and_scale(pose, bone, data, &mut k);
                    z = lag_fraction(a, t);
                }
                pose.state.remaining = a;
            }
            pose.state.cx = bone.world_x;
            pose.state.cy = bone.world_y;
        }
        Physics::Pose => {
            let st = &pose.state;
            z = lag_fraction(st.remaining, t);
            if x {
                bone.world_x += (st.x_offset - st.x_lag * z) * mix * data.x;
            }
            if y {
                bone.world_y += (st.y_offset - st.y_lag * z) * mix * data.y;
            }
        }
    }

    let st = &mut pose.state;
    if rotate_or_shear_x {
        let m = [bone.a, bone.b, bone.c, bone.d];
        let o = (st.rotate_offset - st.rotate_lag * z) * mix;
        [bone.a, bone.b, bone.c, bone.d] = rotate_and_shear(m, (data.rotate, data.shear_x), o);
    }
    if scale_x {
        scale(bone, data, 1.0 + (st.scale_offset - st.scale_lag * z) * mix * data.scale_x);
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

/// The translation springs with lag: the bone's movement since the last update (limited)
/// feeds the offsets, the unsimulated time `a` is stepped (remembering what the steps added),
/// the lagged offsets move the bone. Returns the time left and the lag fraction `z`.
#[inline(always)]
fn translate(
    pose: &mut PhysicsPose,
    bone: &mut Bone,
    data: &PhysicsData,
    k: &mut Step,
    mut a: f32,
) -> (f32, f32) {
    let (x, y) = (data.x > 0.0, data.y > 0.0);
    let (bx, by) = (bone.world_x, bone.world_y);
    let (i, t) = (k.i, k.t);
    let st = &mut pose.state;
    if x {
        let u = (st.ux - bx) * i;
        st.x_offset += clamp(u, k.q[0]);
        st.ux = bx;
    }
    if y {
        let u = (st.uy - by) * i;
        st.y_offset += clamp(u, k.q[1]);
        st.uy = by;
    }
    if a >= t {
        let (d, m, e) = k.dme(pose);
        let st = &mut pose.state;
        let (xs, ys) = (st.x_offset, st.y_offset);
        let w = k.f * pose.wind;
        let g = k.f * pose.gravity;
        let ax = (w * k.wind_dir[0] + g * k.gravity_dir[0]) * k.scale[0];
        let ay = (w * k.wind_dir[1] + g * k.gravity_dir[1]) * k.scale[1];
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
    let st = &pose.state;
    let z = lag_fraction(a, t);
    if x {
        bone.world_x += (st.x_offset - st.x_lag * z) * k.mix * data.x;
    }
    if y {
        bone.world_y += (st.y_offset - st.y_lag * z) * k.mix * data.y;
    }
    (a, z)
}

/// The rotation / shear-x and scale-x springs with lag: the tip's movement since the last
/// update feeds the offsets, then the whole unsimulated time is stepped (remembering what
/// the steps added). Returns the time left.
#[inline(always)]
fn rotate_and_scale(pose: &mut PhysicsPose, bone: &Bone, data: &PhysicsData, k: &mut Step) -> f32 {
    let rotate_or_shear_x = data.rotate > 0.0 || data.shear_x > 0.0;
    let scale_x = data.scale_x > 0.0;
    let (i, t, l) = (k.i, k.t, k.l);
    let st = &mut pose.state;
    let mut mr = 0.0;
    let dx = clamp(st.cx - bone.world_x, k.q[0]);
    let dy = clamp(st.cy - bone.world_y, k.q[1]);
    let (ta, ca) = if rotate_or_shear_x {
        math::atan2_pair(dy + st.ty, dx + st.tx, bone.c, bone.a)
    } else {
        (0.0, math::atan2(bone.c, bone.a))
    };
    // The angle whose sine and cosine the first step reads, and those two once computed
    // (only when something reads them, see `calm` below).
    let (mut r, mut sc);
    if rotate_or_shear_x {
        mr = (data.rotate + data.shear_x) * k.mix;
        let zr = st.rotate_lag * lag_fraction(k.before, t);
        r = ta - ca - (st.rotate_offset - zr) * mr;
        st.rotate_offset += (r - ceil(r * INV_PI_2 - 0.5) * PI_2) * i;
        r = (st.rotate_offset - zr) * mr + ca;
        sc = None;
        if scale_x {
            let (s, c) = math::sin_cos(r);
            sc = Some((s, c));
            let r = l * bone.world_scale_x();
            if r > 0.0 {
                st.scale_offset += (dx * c + dy * s) * i / r;
            }
        }
    } else {
        let (s, c) = math::sin_cos(ca);
        (r, sc) = (ca, Some((s, c)));
        let r = l * bone.world_scale_x() - st.scale_lag * lag_fraction(k.before, t);
        if r > 0.0 {
            st.scale_offset += (dx * c + dy * s) * i / r;
        }
    }
    let mut a = st.remaining;
    if a >= t {
        let (d, m, e) = k.dme(pose);
        let st = &mut pose.state;
        let ax = pose.wind * k.wind_dir[0] + pose.gravity * k.gravity_dir[0];
        let ay = pose.wind * k.wind_dir[1] + pose.gravity * k.gravity_dir[1];
        let (rs, ss) = (st.rotate_offset, st.scale_offset);
        let h = l / k.f;
        // Without wind and gravity the force needs no sine and cosine (`rotation_force`).
        let calm = ax == 0.0 && ay == 0.0 && h.is_finite();
        loop {
            a -= t;
            if scale_x {
                let (s, c) = *sc.get_or_insert_with(|| sin_cos_apart(r));
                st.scale_velocity += (ax * c - ay * s - st.scale_offset * e) * m;
                st.scale_offset += st.scale_velocity * t;
                st.scale_velocity *= d;
            }
            if rotate_or_shear_x {
                let oe = st.rotate_offset * e;
                let force = rotation_force(calm, oe, r, &mut sc, (ax, ay, h));
                st.rotate_velocity -= force * m;
                st.rotate_offset += st.rotate_velocity * t;
                st.rotate_velocity *= d;
                if a < t {
                    break;
                }
                r = st.rotate_offset * mr + ca;
                sc = None;
            } else if a < t {
                break;
            }
        }
        st.rotate_lag = st.rotate_offset - rs;
        st.scale_lag = st.scale_offset - ss;
    }
    a
}

/// Scales the bone's x axis by `s`, and its y axis per the constraint's [`ScaleYMode`]:
/// `Uniform` by the same factor, `Volume` by `1 / |s|` (`4 - 3.67347 |s|` below 0.7).
#[inline(always)]
fn scale(bone: &mut Bone, data: &PhysicsData, mut s: f32) {
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
