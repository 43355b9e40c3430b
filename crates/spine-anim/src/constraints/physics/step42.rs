//! spine-cpp 4.2 `PhysicsConstraint::update`: the translation springs, then the rotation /
//! shear-x and scale-x springs driven by the bone's tip, then the offsets applied.

use super::*;
use crate::skeleton::{parent_world, ParentWorld, WorldFrame};

/// The per-update values of one 4.2 step (spine-cpp's one-letter names).
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
    qx: f32,
    qy: f32,
    /// -1 with y down, else 1.
    y_sign: f32,
    /// The bone's setup length (`l`).
    l: f32,
}

/// What a 4.2 update reads of its solver context, copied out so that two constraints'
/// updates can hold their bones at once (see [`update_42_pair`]).
#[derive(Clone, Copy)]
struct Env {
    frame: WorldFrame,
    time: f32,
    physics: Physics,
    y_down: bool,
    reference_scale: f32,
    lazy_bone_poses: bool,
}

impl Env {
    fn of(ctx: &SolverCtx<'_>) -> Env {
        Env {
            frame: ctx.frame,
            time: ctx.time,
            physics: ctx.physics,
            y_down: ctx.y_down,
            reference_scale: ctx.data.reference_scale,
            lazy_bone_poses: ctx.data.behaviour.lazy_bone_poses,
        }
    }
}

/// An update between its parts: what [`begin`] found for [`springs`] and [`end`].
struct Flight {
    parent: Option<ParentWorld>,
    /// The rotation / scale springs to step (an update that is not the first after a reset,
    /// with a rotate, shear-x or scale-x mix).
    springs: Option<Step>,
    /// `Physics::Reset` or `Physics::Update` (not `Physics::Pose`).
    update: bool,
}

/// spine-cpp 4.2 `PhysicsConstraint::update` (see [`update`]).
pub(super) fn update_42(ctx: &mut SolverCtx<'_>, data: &PhysicsData, pose: &mut PhysicsPose) {
    update_42_with(ctx, &Physics42::of(data, &ctx.data.bones), pose);
}

/// [`update_42`] with the data's fields read from `data`.
fn update_42_with(ctx: &mut SolverCtx<'_>, data: &Physics42, pose: &mut PhysicsPose) {
    let env = Env::of(ctx);
    let parent = parent_world(ctx.bones, data.bone);
    let Some(bone) = ctx.bones.get_mut(data.bone.index()) else { return };
    if let Some(f) = begin(&env, data, pose, bone, parent) {
        springs(&f, data, pose, bone);
        end(&env, f, data, pose, bone);
    }
}

/// Two 4.2 updates whose constraints are independent (neither bone is the other's or its
/// parent, see `Skeleton::update_cache`), part by part: the rotation springs of each are one
/// long chain of dependent steps (`atan2`, `sin_cos`, the springs, `sin_cos` again), and
/// side by side the processor runs both chains at once. Each update does what [`update_42`]
/// does, in the same order: the same bits. Falls back to one after the other when the two
/// share a bone.
pub(crate) fn update_42_pair(
    ctx: &mut SolverCtx<'_>,
    (d0, p0): (&Physics42, &mut PhysicsPose),
    (d1, p1): (&Physics42, &mut PhysicsPose),
) {
    let env = Env::of(ctx);
    let (i0, i1) = (d0.bone.index(), d1.bone.index());
    if env.physics == Physics::Update
        && !env.lazy_bone_poses
        && p0.mix != 0.0
        && p1.mix != 0.0
        && !p0.state.reset
        && !p1.state.reset
        && i0 != i1
        && i0.max(i1) < ctx.bones.len()
    {
        update_pair_live(ctx.bones, &env, (d0, p0), (d1, p1));
        return;
    }
    let (q0, q1) = (parent_world(ctx.bones, d0.bone), parent_world(ctx.bones, d1.bone));
    let Ok([b0, b1]) = ctx.bones.get_disjoint_mut([i0, i1]) else {
        update_42_with(ctx, d0, p0);
        update_42_with(ctx, d1, p1);
        return;
    };
    let f0 = begin(&env, d0, p0, b0, q0);
    let f1 = begin(&env, d1, p1, b1, q1);
    match (&f0, &f1) {
        (
            Some(f0 @ Flight { springs: Some(k0), .. }),
            Some(f1 @ Flight { springs: Some(k1), .. }),
        ) => {
            // Both step their springs: each of the three steps for one, then the other.
            let (t0, t1) = (tip(p0, b0, d0, k0), tip(p1, b1, d1, k1));
            let (u0, u1) = (turn(p0, b0, d0, k0, t0), turn(p1, b1, d1, k1, t1));
            p0.state.remaining = step_springs(p0, d0, k0, u0);
            p1.state.remaining = step_springs(p1, d1, k1, u1);
            for (f, p, b) in [(f0, &mut *p0, &*b0), (f1, &mut *p1, &*b1)] {
                remember_center(f, p, b);
            }
        }
        _ => {
            if let Some(f) = &f0 {
                springs(f, d0, p0, b0);
            }
            if let Some(f) = &f1 {
                springs(f, d1, p1, b1);
            }
        }
    }
    if let Some(f) = f0 {
        end(&env, f, d0, p0, b0);
    }
    if let Some(f) = f1 {
        end(&env, f, d1, p1, b1);
    }
}

/// [`update_42_pair`] in its common case: `Physics::Update`, both mixes non-zero, neither
/// state just reset, 4.2 poses, two distinct bones in range. The same operations in the same order as
/// [`begin`], [`springs`] (or the interleaved steps) and [`end`] with those facts known:
/// no mode dispatch, no flight records, the parents' world transforms read at the end
/// (neither bone is the other's parent: the pair's constraints are independent).
#[inline(always)]
fn update_pair_live(
    bones: &mut [Bone],
    env: &Env,
    (d0, p0): (&Physics42, &mut PhysicsPose),
    (d1, p1): (&Physics42, &mut PhysicsPose),
) {
    let (i0, i1) = (d0.bone.index(), d1.bone.index());
    // Two distinct bones in range (the caller's test): this never returns.
    let Ok([b0, b1]) = bones.get_disjoint_mut([i0, i1]) else { return };
    let k0 = begin_live(env, d0, p0, b0);
    let k1 = begin_live(env, d1, p1, b1);
    let (s0, s1) = (has_springs(d0), has_springs(d1));
    if s0 && s1 {
        let (t0, t1) = (tip(p0, b0, d0, &k0), tip(p1, b1, d1, &k1));
        let (u0, u1) = (turn(p0, b0, d0, &k0, t0), turn(p1, b1, d1, &k1, t1));
        p0.state.remaining = step_springs(p0, d0, &k0, u0);
        p1.state.remaining = step_springs(p1, d1, &k1, u1);
    } else {
        if s0 {
            p0.state.remaining = rotate_and_scale(p0, b0, d0, &k0);
        }
        if s1 {
            p1.state.remaining = rotate_and_scale(p1, b1, d1, &k1);
        }
    }
    center(p0, b0);
    center(p1, b1);
    let m0 = end_matrix(d0, p0, b0);
    let m1 = end_matrix(d1, p1, b1);
    for (d, m) in [(d0, m0), (d1, m1)] {
        let parent = parent_world(bones, d.bone);
        if let Some(bone) = bones.get_mut(d.bone.index()) {
            bone.set_world_update_applied(m, parent, &env.frame);
        }
    }
}

/// Whether an update steps rotation or scale springs.
#[inline(always)]
fn has_springs(data: &Physics42) -> bool {
    data.any(Physics42::ROTATE | Physics42::SHEAR_X | Physics42::SCALE_X)
}

/// [`begin`] in `Physics::Update` with a non-zero mix and no reset pending: the time, the
/// translation springs; the step values for the rotation springs (whose time left is stored
/// here when there are none).
#[inline(always)]
fn begin_live(env: &Env, data: &Physics42, pose: &mut PhysicsPose, bone: &mut Bone) -> Step {
    let delta = advance_time(env, data, &mut pose.state);
    translation(env, data, pose, bone, delta)
}

/// The time since the last update added to the unsimulated time (bounded); returns it.
#[inline(always)]
fn advance_time(env: &Env, data: &Physics42, st: &mut PhysicsState) -> f32 {
    let delta = (env.time - st.last_time).max(0.0);
    st.remaining = bounded_backlog(st.remaining + delta, data.step);
    st.last_time = env.time;
    delta
}

/// An update's step values for `delta`, its translation springs stepped: the time they leave
/// is stored when no rotation or scale springs follow (those start again from the time
/// before the translation's steps).
#[inline(always)]
fn translation(
    env: &Env,
    data: &Physics42,
    pose: &mut PhysicsPose,
    bone: &mut Bone,
    delta: f32,
) -> Step {
    let y_sign = if env.y_down { -1.0 } else { 1.0 };
    let mut qx = data.limit * delta;
    let qy = qx * math::abs(env.frame.scale_x);
    qx *= math::abs(env.frame.scale_y);
    let f = env.reference_scale;
    let (mix, l) = (pose.mix, data.length);
    let k = Step { mix, i: pose.inertia, t: data.step, f, qx, qy, y_sign, l };
    let mut a = pose.state.remaining;
    if data.any(Physics42::X | Physics42::Y) {
        a = translate(pose, bone, data, &k, a);
    }
    if !has_springs(data) {
        pose.state.remaining = a;
    }
    k
}

/// The world matrix `a, b, c, d` turned by the rotate (and shear-x) offset and scaled by the
/// scale-x offset.
#[inline(always)]
fn offsets_applied(data: &Physics42, pose: &PhysicsPose, bone: &Bone) -> [f32; 4] {
    let (st, mix) = (&pose.state, pose.mix);
    let mut m = [bone.a, bone.b, bone.c, bone.d];
    if data.any(Physics42::ROTATE | Physics42::SHEAR_X) {
        m = rotate_and_shear(m, (data.rotate, data.shear_x), st.rotate_offset * mix);
    }
    if data.any(Physics42::SCALE_X) {
        let s = 1.0 + st.scale_offset * mix * data.scale_x;
        m[0] *= s;
        m[2] *= s;
    }
    m
}

/// [`end`]'s world matrix (its tip stored), before it is set with the applied pose's inputs.
#[inline(always)]
fn end_matrix(data: &Physics42, pose: &mut PhysicsPose, bone: &Bone) -> [f32; 6] {
    let m = offsets_applied(data, pose, bone);
    store_tip(data, pose, m);
    let [a, b, c, d] = m;
    [a, b, c, d, bone.world_x, bone.world_y]
}

/// The bone's tip (its length along the x axis of the world matrix `m`) for the next update.
#[inline(always)]
fn store_tip(data: &Physics42, pose: &mut PhysicsPose, m: [f32; 4]) {
    pose.state.tx = data.length * m[0];
    pose.state.ty = data.length * m[2];
}

/// The bone's world position remembered as the springs' center for the next update.
#[inline(always)]
fn center(pose: &mut PhysicsPose, bone: &Bone) {
    pose.state.cx = bone.world_x;
    pose.state.cy = bone.world_y;
}

/// The first part of an update: the time, the translation springs (or, in
/// `Physics::Pose`, the translation offsets). `None`: the update ends here (mix 0,
/// `Physics::None`).
#[inline(always)]
fn begin(
    env: &Env,
    data: &Physics42,
    pose: &mut PhysicsPose,
    bone: &mut Bone,
    parent: Option<ParentWorld>,
) -> Option<Flight> {
    let mix = pose.mix;
    if mix == 0.0 {
        return None;
    }
    let mut springs = None;
    match env.physics {
        Physics::None => return None,
        Physics::Reset | Physics::Update => {
            let st = &mut pose.state;
            if env.physics == Physics::Reset {
                st.reset(env.time);
            }
            let delta = advance_time(env, data, st);
            if st.reset {
                st.reset = false;
                st.ux = bone.world_x;
                st.uy = bone.world_y;
            } else {
                let k = translation(env, data, pose, bone, delta);
                // `springs` stores what the rotation springs leave.
                springs = has_springs(data).then_some(k);
            }
        }
        Physics::Pose => {
            let st = &pose.state;
            if data.any(Physics42::X) {
                bone.world_x += st.x_offset * mix * data.x;
            }
            if data.any(Physics42::Y) {
                bone.world_y += st.y_offset * mix * data.y;
            }
        }
    }
    let update = env.physics != Physics::Pose;
    Some(Flight { parent, springs, update })
}

/// The second part: the rotation and scale springs, then the center remembered.
#[inline(always)]
fn springs(f: &Flight, data: &Physics42, pose: &mut PhysicsPose, bone: &Bone) {
    if let Some(k) = &f.springs {
        pose.state.remaining = rotate_and_scale(pose, bone, data, k);
    }
    remember_center(f, pose, bone);
}

/// The bone's position remembered as the center of the next update (not in
/// `Physics::Pose`).
#[inline(always)]
fn remember_center(f: &Flight, pose: &mut PhysicsPose, bone: &Bone) {
    if f.update {
        center(pose, bone);
    }
}

/// The last part: the rotation, shear and scale offsets applied to the world matrix.
#[inline(always)]
fn end(env: &Env, f: Flight, data: &Physics42, pose: &mut PhysicsPose, bone: &mut Bone) {
    // The matrix is changed in registers and stored once (with its applied pose's inputs):
    // written field by field, it was read back as one 16-byte copy, a store-forwarding stall.
    let m = offsets_applied(data, pose, bone);
    if f.update {
        store_tip(data, pose, m);
    }
    let [a, b, c, d] = m;
    // 4.3 poses (`lazy43`): the bone's local pose stays stale until something reads it.
    if env.lazy_bone_poses {
        (bone.a, bone.b, bone.c, bone.d) = (a, b, c, d);
    } else {
        bone.set_world_update_applied(
            [a, b, c, d, bone.world_x, bone.world_y],
            f.parent,
            &env.frame,
        );
    }
}

/// The translation springs: the bone's movement since the last update (limited) feeds the
/// offsets, the unsimulated time `a` is stepped, the offsets move the bone. Returns the time
/// left.
#[inline(always)]
fn translate(
    pose: &mut PhysicsPose,
    bone: &mut Bone,
    data: &Physics42,
    k: &Step,
    mut a: f32,
) -> f32 {
    let (x, y) = (data.any(Physics42::X), data.any(Physics42::Y));
    let st = &mut pose.state;
    let (bx, by) = (bone.world_x, bone.world_y);
    let (i, t) = (k.i, k.t);
    if x {
        let u = (st.ux - bx) * i;
        st.x_offset += clamp(u, k.qx);
        st.ux = bx;
    }
    if y {
        let u = (st.uy - by) * i;
        st.y_offset += clamp(u, k.qy);
        st.uy = by;
    }
    if a >= t {
        let d = st.damping_pow.pow(pose.damping, 60.0 * t);
        let m = pose.mass_inverse * t;
        let e = pose.strength;
        let w = pose.wind * k.f;
        let g = pose.gravity * k.f * k.y_sign;
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
        bone.world_x += st.x_offset * k.mix * data.x;
    }
    if y {
        bone.world_y += st.y_offset * k.mix * data.y;
    }
    a
}

/// The tip's movement since the last update and the angles of [`rotate_and_scale`]: the
/// clamped `dx, dy`, the target angle (with a rotate or shear-x mix) and the bone's.
struct Tip {
    dx: f32,
    dy: f32,
    ta: f32,
    ca: f32,
}

/// What the offsets' update leaves for the spring steps: the angle `r` whose sine and
/// cosine the first step reads, those two when already computed (`sc`), the rotation mix
/// and the bone's angle.
struct Turn {
    r: f32,
    sc: Option<(f32, f32)>,
    mr: f32,
    ca: f32,
}

/// The rotation / shear-x and scale-x springs: the tip's movement since the last update
/// feeds the offsets, then the whole unsimulated time is stepped. Returns the time left.
/// (In three steps, which [`update_42_pair`] interleaves for two constraints.)
#[inline(always)]
fn rotate_and_scale(pose: &mut PhysicsPose, bone: &Bone, data: &Physics42, k: &Step) -> f32 {
    let tip = tip(pose, bone, data, k);
    let turn = turn(pose, bone, data, k, tip);
    step_springs(pose, data, k, turn)
}

/// [`rotate_and_scale`]'s angles.
#[inline(always)]
fn tip(pose: &PhysicsPose, bone: &Bone, data: &Physics42, k: &Step) -> Tip {
    let st = &pose.state;
    let dx = clamp(st.cx - bone.world_x, k.qx);
    let dy = clamp(st.cy - bone.world_y, k.qy);
    // Both angles at once when the rotation needs the target's.
    let (ta, ca) = if data.any(Physics42::ROTATE | Physics42::SHEAR_X) {
        math::atan2_pair(dy + st.ty, dx + st.tx, bone.c, bone.a)
    } else {
        (0.0, math::atan2(bone.c, bone.a))
    };
    Tip { dx, dy, ta, ca }
}

/// [`rotate_and_scale`]'s offsets, from the tip's movement.
#[inline(always)]
fn turn(pose: &mut PhysicsPose, bone: &Bone, data: &Physics42, k: &Step, tip: Tip) -> Turn {
    let rotate_or_shear_x = data.any(Physics42::ROTATE | Physics42::SHEAR_X);
    let scale_x = data.any(Physics42::SCALE_X);
    let st = &mut pose.state;
    let (i, l) = (k.i, k.l);
    let Tip { dx, dy, ta, ca } = tip;
    let mut mr = 0.0;
    if rotate_or_shear_x {
        mr = (data.rotate + data.shear_x) * k.mix;
        let mut r = ta - ca - st.rotate_offset * mr;
        st.rotate_offset += (r - ceil(r * INV_PI_2 - 0.5) * PI_2) * i;
        r = st.rotate_offset * mr + ca;
        // The sine and cosine of `r` only when something reads them: the scale springs, or
        // the rotation springs with wind or gravity (see `step_springs`).
        let mut sc = None;
        if scale_x {
            let (s, c) = math::sin_cos(r);
            sc = Some((s, c));
            let r = l * bone.world_scale_x();
            if r > 0.0 {
                st.scale_offset += (dx * c + dy * s) * i / r;
            }
        }
        Turn { r, sc, mr, ca }
    } else {
        let (s, c) = math::sin_cos(ca);
        let r = l * bone.world_scale_x();
        if r > 0.0 {
            st.scale_offset += (dx * c + dy * s) * i / r;
        }
        Turn { r: ca, sc: Some((s, c)), mr, ca }
    }
}

/// [`rotate_and_scale`]'s steps over the whole unsimulated time. Returns the time left.
#[inline(always)]
fn step_springs(pose: &mut PhysicsPose, data: &Physics42, k: &Step, turn: Turn) -> f32 {
    let rotate_or_shear_x = data.any(Physics42::ROTATE | Physics42::SHEAR_X);
    let scale_x = data.any(Physics42::SCALE_X);
    let st = &mut pose.state;
    let (t, l) = (k.t, k.l);
    let Turn { mut r, mut sc, mr, ca } = turn;
    let mut a = st.remaining;
    if a >= t {
        let m = pose.mass_inverse * t;
        let e = pose.strength;
        let w = pose.wind;
        let g = pose.gravity * k.y_sign;
        let h = l / k.f;
        let d = st.damping_pow.pow(pose.damping, 60.0 * t);
        // Without wind and gravity the force needs no sine and cosine (`rotation_force`).
        let calm = w == 0.0 && g == 0.0 && h.is_finite();
        loop {
            a -= t;
            if scale_x {
                let (s, c) = *sc.get_or_insert_with(|| sin_cos_apart(r));
                st.scale_velocity += (w * c - g * s - st.scale_offset * e) * m;
                st.scale_offset += st.scale_velocity * t;
                st.scale_velocity *= d;
            }
            if rotate_or_shear_x {
                let oe = st.rotate_offset * e;
                let force = rotation_force(calm, oe, r, &mut sc, (w, g, h));
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
    }
    a
}
