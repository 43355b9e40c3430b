//! Constraint timelines: physics reset and the physics properties.

use super::*;

pub(super) fn apply_physics_reset(
    sk: &mut Skeleton,
    constraint: Option<spine_model::ConstraintId>,
    times: &[f32],
    mut last_time: f32,
    time: f32,
) {
    if times.is_empty() {
        return;
    }
    if let Some(c) = constraint {
        if !sk.constraints.get(c.index()).is_some_and(|c| c.active) {
            return;
        }
    }
    if last_time > time {
        apply_physics_reset(sk, constraint, times, last_time, f32::MAX);
        last_time = -1.0;
    } else if last_time >= times[times.len() - 1] {
        return;
    }
    if time < times[0] {
        return;
    }
    let fire = last_time < times[0]
        || times.get(search_times(times, last_time) + 1).is_some_and(|&t| time >= t);
    if !fire {
        return;
    }
    let (now, now64) = (sk.time, sk.exact_time());
    for (i, c) in sk.constraints.iter_mut().enumerate() {
        if constraint.is_some_and(|x| x.index() != i) || !c.active {
            continue;
        }
        if let ConstraintPose::Physics(p) = &mut c.pose {
            p.state.reset_at(now, now64);
        }
    }
}

pub(super) fn physics_get(p: &PhysicsPose, prop: PhysicsProperty) -> f32 {
    match prop {
        PhysicsProperty::Inertia => p.inertia,
        PhysicsProperty::Strength => p.strength,
        PhysicsProperty::Damping => p.damping,
        PhysicsProperty::Mass => 1.0 / p.mass_inverse,
        PhysicsProperty::Wind => p.wind,
        PhysicsProperty::Gravity => p.gravity,
        PhysicsProperty::Mix => p.mix,
    }
}

pub(super) fn physics_setup(d: &PhysicsData, prop: PhysicsProperty) -> f32 {
    match prop {
        PhysicsProperty::Inertia => d.inertia,
        PhysicsProperty::Strength => d.strength,
        PhysicsProperty::Damping => d.damping,
        PhysicsProperty::Mass => 1.0 / d.mass_inverse,
        PhysicsProperty::Wind => d.wind,
        PhysicsProperty::Gravity => d.gravity,
        PhysicsProperty::Mix => d.mix,
    }
}

pub(super) fn physics_set(p: &mut PhysicsPose, prop: PhysicsProperty, v: f32) {
    match prop {
        PhysicsProperty::Inertia => p.inertia = v,
        PhysicsProperty::Strength => p.strength = v,
        PhysicsProperty::Damping => p.damping = v,
        PhysicsProperty::Mass => p.mass_inverse = 1.0 / v,
        PhysicsProperty::Wind => p.wind = v,
        PhysicsProperty::Gravity => p.gravity = v,
        PhysicsProperty::Mix => p.mix = v,
    }
}

pub(super) fn physics_global(d: &PhysicsData, prop: PhysicsProperty) -> bool {
    let g = &d.globals;
    match prop {
        PhysicsProperty::Inertia => g.inertia,
        PhysicsProperty::Strength => g.strength,
        PhysicsProperty::Damping => g.damping,
        PhysicsProperty::Mass => g.mass,
        PhysicsProperty::Wind => g.wind,
        PhysicsProperty::Gravity => g.gravity,
        PhysicsProperty::Mix => g.mix,
    }
}
