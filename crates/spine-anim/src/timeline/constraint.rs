//! Constraint timelines: physics reset and the physics properties.

use super::*;
use spine_model::{ConstraintId, IkFlags};

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

/// spine-cpp `IkConstraintTimeline::apply`: mix and softness keyed, bend direction,
/// compress and stretch stepped.
#[inline(always)]
pub(super) fn apply_ik(
    sk: &mut Skeleton,
    data: &SkeletonData,
    constraint: &ConstraintId,
    curves: &Curves,
    keys: &[f32],
    flags: &[IkFlags],
    args: ApplyArgs,
) {
    let ApplyArgs { time, alpha, blend, direction, .. } = args;
    let Some(cd) = data.constraints.get(constraint.index()) else { return };
    let ConstraintKind::Ik(d) = &cd.kind else { return };
    let Some(c) = sk.constraints.get_mut(constraint.index()) else { return };
    let ConstraintPose::Ik(p) = &mut c.pose else { return };
    if !c.active || curves.is_empty() {
        return;
    }
    let curves = curves.table(keys);
    if time < curves.time(0) {
        match blend {
            MixBlend::Setup => {
                p.mix = d.mix;
                p.softness = d.softness;
            }
            MixBlend::First => {
                p.mix += (d.mix - p.mix) * alpha;
                p.softness += (d.softness - p.softness) * alpha;
            }
            _ => return,
        }
        p.bend_direction = d.bend_direction;
        p.compress = d.compress;
        p.stretch = d.stretch;
        return;
    }
    let (v, k) = curve_values_nk::<2>(curves, time);
    let f = flags.get(k).copied();
    if blend == MixBlend::Setup {
        p.mix = d.mix + (v[0] - d.mix) * alpha;
        p.softness = d.softness + (v[1] - d.softness) * alpha;
        if direction == MixDirection::Out {
            p.bend_direction = d.bend_direction;
            p.compress = d.compress;
            p.stretch = d.stretch;
        } else if let Some(f) = f {
            p.bend_direction = f.bend_direction;
            p.compress = f.compress;
            p.stretch = f.stretch;
        }
    } else {
        p.mix += (v[0] - p.mix) * alpha;
        p.softness += (v[1] - p.softness) * alpha;
        if direction == MixDirection::In {
            if let Some(f) = f {
                p.bend_direction = f.bend_direction;
                p.compress = f.compress;
                p.stretch = f.stretch;
            }
        }
    }
}

/// spine-cpp `TransformConstraintTimeline::apply`: the six mixes.
#[inline(always)]
pub(super) fn apply_transform(
    sk: &mut Skeleton,
    data: &SkeletonData,
    constraint: &ConstraintId,
    curves: &Curves,
    keys: &[f32],
    args: ApplyArgs,
) {
    let ApplyArgs { time, alpha, blend, .. } = args;
    // 4.3 `getAbsoluteValue(…, add = true, …)` adds the key value.
    let add43 = blend == MixBlend::Add && data.behaviour.mix_from_add_model;
    let Some(cd) = data.constraints.get(constraint.index()) else { return };
    let ConstraintKind::Transform(d) = &cd.kind else { return };
    let Some(c) = sk.constraints.get_mut(constraint.index()) else { return };
    let ConstraintPose::Transform(p) = &mut c.pose else { return };
    if !c.active || curves.is_empty() {
        return;
    }
    let curves = curves.table(keys);
    if time < curves.time(0) {
        match blend {
            MixBlend::Setup => p.mixes = d.mixes,
            MixBlend::First => {
                for (m, s) in p.mixes.iter_mut().zip(d.mixes) {
                    *m += (s - *m) * alpha;
                }
            }
            _ => {}
        }
        return;
    }
    let v = curve_values_n::<6>(curves, time);
    for ((m, s), v) in p.mixes.iter_mut().zip(d.mixes).zip(v) {
        if add43 {
            // 4.3: the mixes are additive.
            *m += v * alpha;
        } else if blend == MixBlend::Setup {
            *m = s + (v - s) * alpha;
        } else {
            *m += (v - *m) * alpha;
        }
    }
}

/// spine-cpp `PathConstraintPositionTimeline` / `SpacingTimeline` / `MixTimeline::apply`.
#[inline(always)]
pub(super) fn apply_path(
    sk: &mut Skeleton,
    data: &SkeletonData,
    constraint: &ConstraintId,
    property: &PathProperty,
    curves: &Curves,
    keys: &[f32],
    args: ApplyArgs,
) {
    let ApplyArgs { time, alpha, blend, .. } = args;
    // 4.3 `getAbsoluteValue(…, add = true, …)` adds the key value.
    let add43 = blend == MixBlend::Add && data.behaviour.mix_from_add_model;
    let Some(cd) = data.constraints.get(constraint.index()) else { return };
    let ConstraintKind::Path(d) = &cd.kind else { return };
    let Some(c) = sk.constraints.get_mut(constraint.index()) else { return };
    let ConstraintPose::Path(p) = &mut c.pose else { return };
    if !c.active || curves.is_empty() {
        return;
    }
    let curves = curves.table(keys);
    match property {
        PathProperty::Position => {
            p.position = absolute(curves, args, add43, (p.position, d.position))
        }
        PathProperty::Spacing => {
            // 4.3: spacing is not additive (`add` is ignored).
            let blend = if add43 { MixBlend::Replace } else { blend };
            p.spacing = absolute(curves, ApplyArgs { blend, ..args }, false, (p.spacing, d.spacing))
        }
        PathProperty::Mix => {
            let setup = [d.mix_rotate, d.mix_x, d.mix_y];
            let mut cur = [p.mix_rotate, p.mix_x, p.mix_y];
            if time < curves.time(0) {
                match blend {
                    MixBlend::Setup => cur = setup,
                    MixBlend::First => {
                        for (m, s) in cur.iter_mut().zip(setup) {
                            *m += (s - *m) * alpha;
                        }
                    }
                    _ => {}
                }
            } else {
                let v = curve_values_n::<3>(curves, time);
                for ((m, s), v) in cur.iter_mut().zip(setup).zip(v) {
                    if add43 {
                        // 4.3: the mixes are additive.
                        *m += v * alpha;
                    } else if blend == MixBlend::Setup {
                        *m = s + (v - s) * alpha;
                    } else {
                        *m += (v - *m) * alpha;
                    }
                }
            }
            [p.mix_rotate, p.mix_x, p.mix_y] = cur;
        }
    }
}

/// spine-cpp `PhysicsConstraintTimeline::apply`: one constraint's value, or (no
/// constraint) the value of every physics constraint that takes the global one.
#[inline(always)]
pub(super) fn apply_physics(
    sk: &mut Skeleton,
    data: &SkeletonData,
    constraint: &Option<ConstraintId>,
    property: &PhysicsProperty,
    curves: &Curves,
    keys: &[f32],
    args: ApplyArgs,
) {
    let ApplyArgs { time, blend, .. } = args;
    // 4.3 `getAbsoluteValue(…, add = true, …)` adds the key value.
    let add43 = blend == MixBlend::Add && data.behaviour.mix_from_add_model;
    if curves.is_empty() {
        return;
    }
    // 4.3: only wind and gravity are additive (`add` is ignored for the others).
    let additive = matches!(property, PhysicsProperty::Wind | PhysicsProperty::Gravity);
    let (blend, add43) =
        if add43 && !additive { (MixBlend::Replace, false) } else { (blend, add43) };
    let args = ApplyArgs { blend, ..args };
    let curves = curves.table(keys);
    match constraint {
        Some(ci) => {
            let Some(ConstraintKind::Physics(d)) =
                data.constraints.get(ci.index()).map(|c| &c.kind)
            else {
                return;
            };
            let Some(c) = sk.constraints.get_mut(ci.index()) else { return };
            let ConstraintPose::Physics(p) = &mut c.pose else { return };
            if !c.active {
                return;
            }
            let cs = (physics_get(p, *property), physics_setup(d, *property));
            let v = absolute(curves, args, add43, cs);
            physics_set(p, *property, v);
        }
        None => {
            let value = if time >= curves.time(0) { curve_value1(curves, time) } else { 0.0 };
            for (c, cd) in sk.constraints.iter_mut().zip(&data.constraints) {
                let (ConstraintPose::Physics(p), ConstraintKind::Physics(d)) =
                    (&mut c.pose, &cd.kind)
                else {
                    continue;
                };
                if !c.active || !physics_global(d, *property) {
                    continue;
                }
                let cs = (physics_get(p, *property), physics_setup(d, *property));
                let v = absolute_with(curves.time(0), args, add43, cs, || value);
                physics_set(p, *property, v);
            }
        }
    }
}

/// spine-ts 4.3 `SliderTimeline` / `SliderMixTimeline::apply`.
#[inline(always)]
pub(super) fn apply_slider(
    sk: &mut Skeleton,
    data: &SkeletonData,
    constraint: &ConstraintId,
    property: &SliderProperty,
    curves: &Curves,
    keys: &[f32],
    args: ApplyArgs,
) {
    // 4.3 `getAbsoluteValue(…, add = true, …)` adds the key value.
    let add43 = args.blend == MixBlend::Add && data.behaviour.mix_from_add_model;
    let Some(ConstraintKind::Slider(d)) = data.constraints.get(constraint.index()).map(|c| &c.kind)
    else {
        return;
    };
    let Some(c) = sk.constraints.get_mut(constraint.index()) else { return };
    let ConstraintPose::Slider(p) = &mut c.pose else { return };
    if !c.active || curves.is_empty() {
        return;
    }
    let curves = curves.table(keys);
    match property {
        SliderProperty::Time => p.time = absolute(curves, args, add43, (p.time, d.time)),
        SliderProperty::Mix => p.mix = absolute(curves, args, add43, (p.mix, d.mix)),
    }
}
