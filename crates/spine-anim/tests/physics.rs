//! Physics constraints: determinism (same deltas → bit-identical poses, across runs and
//! across skeleton instances), long runs stay finite, the velocity limit caps what one
//! frame injects, reset rules, `Physics::None` / `Physics::Pose`.

use std::sync::Arc;

use spine_anim::constraints::{ConstraintPose, PhysicsPose};
use spine_anim::{AnimationState, AnimationStateData, Physics, Skeleton};
use spine_model::{ConstraintKind, SkeletonData};

const RIGS: [&str; 4] = [
    "celestial-circus/celestial-circus-pro.skel",
    "cloud-pot/cloud-pot.skel",
    "sack/sack-pro.skel",
    "snowglobe/snowglobe-pro.skel",
];

fn load(rig: &str) -> Option<Arc<SkeletonData>> {
    let corpus = skel_testkit::spine_corpus()?;
    let bytes = std::fs::read(corpus.join("4.2").join(rig)).unwrap();
    Some(Arc::new(spine_model::load_binary(&bytes, None).unwrap()))
}

fn physics_poses(sk: &Skeleton) -> impl Iterator<Item = &PhysicsPose> {
    sk.constraints.iter().filter_map(|c| match &c.pose {
        ConstraintPose::Physics(p) => Some(p),
        _ => None,
    })
}

/// Every bone's world transform as raw bits.
fn bits(sk: &Skeleton) -> Vec<u32> {
    sk.bones
        .iter()
        .flat_map(|b| [b.a, b.b, b.c, b.d, b.world_x, b.world_y])
        .map(f32::to_bits)
        .collect()
}

/// A deterministic, irregular delta sequence (like a real frame clock).
fn deltas(n: usize) -> impl Iterator<Item = f32> {
    let mut x = 0x1234_5678u32;
    (0..n).map(move |_| {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        1.0 / 240.0 + (x % 1000) as f32 * (1.0 / 30000.0)
    })
}

/// Plays the first animation with AnimationState, moving the skeleton around, for the
/// given deltas; returns the bone bits after every frame.
fn run(data: &Arc<SkeletonData>, dts: impl Iterator<Item = f32>) -> Vec<Vec<u32>> {
    let mut sk = Skeleton::new(data.clone());
    sk.set_to_setup_pose();
    let mut state = AnimationState::new(Arc::new(AnimationStateData::new(data.clone())));
    state.set_animation(0, Some(spine_model::AnimationId::from_index(0)), true);
    let mut out = Vec::new();
    for (i, dt) in dts.enumerate() {
        state.update(dt);
        state.apply(&mut sk);
        state.clear_events();
        sk.x = (i as f32 * 0.05).sin() * 80.0;
        sk.y = (i as f32 * 0.031).cos() * 40.0;
        sk.update(dt);
        sk.update_world_transform(Physics::Update);
        out.push(bits(&sk));
    }
    out
}

#[test]
fn same_deltas_give_bit_identical_poses() {
    for rig in RIGS {
        let Some(data) = load(rig) else { return };
        let a = run(&data, deltas(300));
        let b = run(&data, deltas(300));
        assert_eq!(a, b, "{rig}: two runs");
        // Two instances stepped interleaved share nothing.
        let mut s1 = Skeleton::new(data.clone());
        let mut s2 = Skeleton::new(data.clone());
        for s in [&mut s1, &mut s2] {
            s.set_to_setup_pose();
        }
        for dt in deltas(200) {
            for s in [&mut s1, &mut s2] {
                s.x += 3.0;
                s.update(dt);
                s.update_world_transform(Physics::Update);
            }
            assert_eq!(bits(&s1), bits(&s2), "{rig}: two instances");
        }
        // The simulation actually moved something (the skeleton was dragged along).
        let fresh = {
            let mut s = Skeleton::new(data.clone());
            s.set_to_setup_pose();
            s.x = s1.x;
            s.update_world_transform(Physics::None);
            bits(&s)
        };
        assert_ne!(bits(&s1), fresh, "{rig}: physics had no effect");
    }
}

/// 10 s at 1/60 s and at 1/144 s with the skeleton teleported back and forth by 1000
/// units every half second: every value stays finite, and on frames that take no step the
/// translation offsets change by at most `limit * delta * |scale|` (the velocity limit).
#[test]
fn ten_seconds_stay_finite_and_within_the_limit() {
    for rig in RIGS {
        let Some(data) = load(rig) else { return };
        for dt in [1.0f32 / 60.0, 1.0 / 144.0] {
            let mut sk = Skeleton::new(data.clone());
            sk.set_to_setup_pose();
            sk.scale_x = 1.5;
            sk.scale_y = 0.5;
            let mut state = AnimationState::new(Arc::new(AnimationStateData::new(data.clone())));
            state.set_animation(0, Some(spine_model::AnimationId::from_index(0)), true);
            let frames = (10.0 / dt).round() as usize;
            let mut limited = 0usize;
            for i in 0..frames {
                let before: Vec<PhysicsPose> = physics_poses(&sk).cloned().collect();
                state.update(dt);
                state.apply(&mut sk);
                state.clear_events();
                if i % ((0.5 / dt) as usize) == 0 {
                    sk.x = if sk.x == 0.0 { 1000.0 } else { 0.0 };
                }
                sk.update(dt);
                sk.update_world_transform(Physics::Update);
                for b in &sk.bones {
                    for v in [b.a, b.b, b.c, b.d, b.world_x, b.world_y] {
                        assert!(v.is_finite(), "{rig} dt {dt} frame {i}");
                    }
                }
                let datas = data.constraints.iter().filter_map(|c| match &c.kind {
                    ConstraintKind::Physics(d) => Some(d),
                    _ => None,
                });
                for ((p, old), d) in physics_poses(&sk).zip(&before).zip(datas) {
                    let s = &p.state;
                    for v in [s.x_offset, s.y_offset, s.rotate_offset, s.scale_offset] {
                        assert!(v.is_finite(), "{rig} dt {dt} frame {i}");
                    }
                    let stepped = s.remaining < old.state.remaining + dt * 0.5;
                    let was_reset = s.x_velocity == 0.0 && s.y_velocity == 0.0;
                    if old.state.reset || was_reset || stepped || p.mix == 0.0 {
                        continue;
                    }
                    let q = d.limit * dt * 1.5 + 1e-3;
                    if d.x > 0.0 {
                        assert!((s.x_offset - old.state.x_offset).abs() <= q, "{rig} x {i}");
                        limited += 1;
                    }
                    if d.y > 0.0 {
                        assert!(
                            (s.y_offset - old.state.y_offset).abs() <= q,
                            "{rig} y {i}: {:?} -> {:?} q {q}",
                            old.state,
                            s
                        );
                        limited += 1;
                    }
                }
            }
            if dt < 1.0 / 100.0 && rig.contains("cloud-pot") {
                assert!(limited > 100, "{rig}: {limited} limited frames checked");
            }
        }
    }
}

#[test]
fn physics_none_and_pose_and_reset() {
    let Some(data) = load("cloud-pot/cloud-pot.skel") else { return };
    let mut sk = Skeleton::new(data.clone());
    sk.set_to_setup_pose();
    sk.update_world_transform(Physics::None);
    let setup = bits(&sk);
    // The first update after construction only records the bone positions.
    sk.update(0.1);
    sk.update_world_transform(Physics::Update);
    assert!(physics_poses(&sk).all(|p| !p.state.reset));
    for _ in 0..30 {
        sk.x += 20.0;
        sk.update(1.0 / 60.0);
        sk.update_world_transform(Physics::Update);
    }
    let moved = bits(&sk);
    assert!(physics_poses(&sk).any(|p| p.state.x_offset != 0.0 || p.state.rotate_offset != 0.0));
    // None applies nothing: the plain pose at the new position.
    sk.update_world_transform(Physics::None);
    let plain = bits(&sk);
    assert_ne!(plain, moved);
    // Pose re-applies the offsets without stepping: same as the last Update, state kept.
    let state_before: Vec<_> = physics_poses(&sk).map(|p| p.state).collect();
    sk.update_world_transform(Physics::Pose);
    let posed = bits(&sk);
    assert_eq!(state_before, physics_poses(&sk).map(|p| p.state).collect::<Vec<_>>());
    assert_eq!(posed, moved);
    // set_to_setup_pose keeps the simulation state.
    sk.set_to_setup_pose();
    assert_eq!(state_before, physics_poses(&sk).map(|p| p.state).collect::<Vec<_>>());
    // Reset clears the offsets: the pose is the plain one.
    sk.update(1.0 / 60.0);
    sk.update_world_transform(Physics::Reset);
    assert!(physics_poses(&sk).all(|p| p.state.x_offset == 0.0 && p.state.rotate_offset == 0.0));
    sk.update_world_transform(Physics::None);
    let plain2 = bits(&sk);
    sk.update_world_transform(Physics::Pose);
    assert_eq!(bits(&sk), plain2);
    assert_eq!(plain, plain2);
    let _ = setup;
}

#[test]
fn physics_translate_cancels_a_skeleton_move() {
    let Some(data) = load("cloud-pot/cloud-pot.skel") else { return };
    let mut a = Skeleton::new(data.clone());
    let mut b = Skeleton::new(data.clone());
    for s in [&mut a, &mut b] {
        s.set_to_setup_pose();
        s.update_world_transform(Physics::Update);
    }
    for _ in 0..20 {
        a.update(1.0 / 60.0);
        a.update_world_transform(Physics::Update);
        b.x += 500.0;
        // The move is not a force: translate by the opposite amount.
        b.physics_translate(-500.0, 0.0);
        b.update(1.0 / 60.0);
        b.update_world_transform(Physics::Update);
    }
    let (pa, pb): (Vec<_>, Vec<_>) = (physics_poses(&a).collect(), physics_poses(&b).collect());
    for (p, q) in pa.iter().zip(&pb) {
        assert!((p.state.x_offset - q.state.x_offset).abs() < 1e-3);
        assert!(
            (p.state.rotate_offset - q.state.rotate_offset).abs() < 1e-3,
            "{:?} vs {:?}",
            p.state,
            q.state
        );
    }
}

/// A time jump of 1e30 s (a hostile or broken clock) with the step's float spacing far
/// below the backlog: each update simulates at most `MAX_STEPS_PER_UPDATE` steps and then
/// returns, on every rig, instead of looping forever; the backlog left is at most one step.
#[test]
fn a_huge_time_jump_ends_in_bounded_steps() {
    let mut checked = 0;
    for rig in RIGS {
        let Some(data) = load(rig) else { return };
        let mut sk = Skeleton::new(data.clone());
        sk.set_to_setup_pose();
        sk.update_world_transform(Physics::Update);
        for dt in [1e30f32, 1e30, 1.0 / 60.0] {
            sk.update(dt);
            sk.update_world_transform(Physics::Update);
        }
        for (c, d) in sk.constraints.iter().zip(&data.constraints) {
            if let (ConstraintPose::Physics(p), ConstraintKind::Physics(d)) = (&c.pose, &d.kind) {
                assert!(p.state.remaining < d.step, "{rig}: {} left", p.state.remaining);
            }
        }
        checked += 1;
    }
    assert!(checked == RIGS.len() || skel_testkit::spine_corpus().is_none());
}
