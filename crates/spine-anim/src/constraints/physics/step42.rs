//! spine-cpp 4.2 `PhysicsConstraint::update`: the translation springs, then the rotation /
//! shear-x and scale-x springs driven by the bone's tip, then the offsets applied.

use super::*;
use crate::skeleton::parent_world;

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

/// spine-cpp 4.2 `PhysicsConstraint::update` (see [`update`]).
pub(super) fn update_42(ctx: &mut SolverCtx<'_>, data: &PhysicsData, pose: &mut PhysicsPose) {
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

    match ctx.physics {
        Physics::None => return,
        Physics::Reset | Physics::Update => {
            let st = &mut pose.state;
            if ctx.physics == Physics::Reset {
                st.reset(ctx.time);
            }
            let delta = (ctx.time - st.last_time).max(0.0);
            st.remaining = bounded_backlog(st.remaining + delta, data.step);
            st.last_time = ctx.time;
            if st.reset {
                st.reset = false;
                st.ux = bone.world_x;
                st.uy = bone.world_y;
            } else {
                let mut qx = data.limit * delta;
                let qy = qx * math::abs(frame.scale_x);
                qx *= math::abs(frame.scale_y);
                let f = ctx.data.reference_scale;
                let k = Step { mix, i: pose.inertia, t: data.step, f, qx, qy, y_sign, l };
                let mut a = pose.state.remaining;
                if x || y {
                    a = translate(pose, bone, data, &k, a);
                }
                if rotate_or_shear_x || scale_x {
                    a = rotate_and_scale(pose, bone, data, &k);
                }
                pose.state.remaining = a;
            }
            pose.state.cx = bone.world_x;
            pose.state.cy = bone.world_y;
        }
        Physics::Pose => {
            let st = &pose.state;
            if x {
                bone.world_x += st.x_offset * mix * data.x;
            }
            if y {
                bone.world_y += st.y_offset * mix * data.y;
            }
        }
    }

    // The matrix is changed in registers and stored once (with its applied pose's inputs):
    // written field by field, it was read back as one 16-byte copy, a store-forwarding stall.
    let st = &mut pose.state;
    let mut m = [bone.a, bone.b, bone.c, bone.d];
    if rotate_or_shear_x {
        m = rotate_and_shear(m, data, st.rotate_offset * mix);
    }
    if scale_x {
        let s = 1.0 + st.scale_offset * mix * data.scale_x;
        m[0] *= s;
        m[2] *= s;
    }
    if ctx.physics != Physics::Pose {
        st.tx = l * m[0];
        st.ty = l * m[2];
    }
    let [a, b, c, d] = m;
    // 4.3 poses (`lazy43`): the bone's local pose stays stale until something reads it.
    if ctx.data.behaviour.lazy_bone_poses {
        (bone.a, bone.b, bone.c, bone.d) = (a, b, c, d);
    } else {
        bone.set_world_update_applied([a, b, c, d, bone.world_x, bone.world_y], parent, &frame);
    }
}

/// The translation springs: the bone's movement since the last update (limited) feeds the
/// offsets, the unsimulated time `a` is stepped, the offsets move the bone. Returns the time
/// left.
#[inline(always)]
fn translate(
    pose: &mut PhysicsPose,
    bone: &mut Bone,
    data: &PhysicsData,
    k: &Step,
    mut a: f32,
) -> f32 {
    let (x, y) = (data.x > 0.0, data.y > 0.0);
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

/// The rotation / shear-x and scale-x springs: the tip's movement since the last update
/// feeds the offsets, then the whole unsimulated time is stepped. Returns the time left.
#[inline(always)]
fn rotate_and_scale(pose: &mut PhysicsPose, bone: &Bone, data: &PhysicsData, k: &Step) -> f32 {
    let rotate_or_shear_x = data.rotate > 0.0 || data.shear_x > 0.0;
    let scale_x = data.scale_x > 0.0;
    let st = &mut pose.state;
    let (i, t, l) = (k.i, k.t, k.l);
    let (mut c, mut s);
    let mut mr = 0.0;
    let dx = clamp(st.cx - bone.world_x, k.qx);
    let dy = clamp(st.cy - bone.world_y, k.qy);
    // Both angles at once when the rotation needs the target's.
    let (ta, ca) = if rotate_or_shear_x {
        math::atan2_pair(dy + st.ty, dx + st.tx, bone.c, bone.a)
    } else {
        (0.0, math::atan2(bone.c, bone.a))
    };
    if rotate_or_shear_x {
        mr = (data.rotate + data.shear_x) * k.mix;
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
    let mut a = st.remaining;
    if a >= t {
        let m = pose.mass_inverse * t;
        let e = pose.strength;
        let w = pose.wind;
        let g = pose.gravity * k.y_sign;
        let h = l / k.f;
        let d = st.damping_pow.pow(pose.damping, 60.0 * t);
        loop {
            a -= t;
            if scale_x {
                st.scale_velocity += (w * c - g * s - st.scale_offset * e) * m;
                st.scale_offset += st.scale_velocity * t;
                st.scale_velocity *= d;
            }
            if rotate_or_shear_x {
                st.rotate_velocity -= ((w * s + g * c) * h + st.rotate_offset * e) * m;
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
    a
}
