//! The applied pose a path, transform (world mode) or physics constraint leaves is computed
//! on first read (`Bone::applied`), not when the constraint runs. For every 4.2 rig of the
//! corpus, a few animations over a run of frames and a crossfade, with physics: the applied
//! pose read through the accessor and the world transforms are bit-identical to those of a
//! skeleton driven the same way with the pose computed at once (as spine-cpp does,
//! `Skeleton::set_eager_applied(true)`), and some constraint did move bones (so the
//! deferred path ran). The 3.5–4.1 binary rigs of the corpus are compared the same way.

use std::sync::Arc;

use spine_anim::constraints::ik;
use spine_anim::{Physics, Skeleton};
use spine_model::{AnimationId, BoneId, ConstraintKind, ScaleYMode, SkeletonData};
use twin::{bits, Runner};

mod twin;

/// Whether a constraint of the kinds that recompute the applied pose exists in `data`.
fn has_world_constraint(data: &SkeletonData) -> bool {
    data.constraints.iter().any(|c| {
        matches!(
            c.kind,
            ConstraintKind::Path(_) | ConstraintKind::Transform(_) | ConstraintKind::Physics(_)
        )
    })
}

/// Runs `file` lazily and eagerly side by side; returns (bone comparisons, applied poses
/// that differ from the local pose).
fn compare_rig(file: &std::path::Path) -> (usize, usize) {
    let dt = 1.0f32 / 30.0;
    let (mut compared, mut differing_from_local) = (0usize, 0usize);
    let bytes = std::fs::read(file).unwrap();
    let data = Arc::new(spine_model::load_binary(&bytes, None).unwrap());
    let n = data.animations.len();
    if n == 0 {
        return (0, 0);
    }
    // The first, a middle and the last animation; then a crossfade between two of them.
    let mut picks = vec![0, n / 2, n - 1];
    picks.dedup();
    let mut lazy = Runner::new(&data, |sk| sk.set_eager_applied(false));
    let mut eager = Runner::new(&data, |sk| sk.set_eager_applied(true));
    let mut schedule: Vec<(usize, AnimationId)> =
        picks.iter().enumerate().map(|(k, &a)| (k * 20, AnimationId::from_index(a))).collect();
    // A crossfade (mixing two entries) in the middle of the last animation.
    schedule.push((picks.len() * 20 - 10, AnimationId::from_index(0)));
    let frames = picks.len() * 20 + 15;
    for f in 0..frames {
        for &(at, anim) in &schedule {
            if at == f {
                for r in [&mut lazy, &mut eager] {
                    r.state.set_animation(0, Some(anim), true);
                }
            }
        }
        lazy.frame(dt, Physics::Update);
        eager.frame(dt, Physics::Update);
        if f % 9 == 4 {
            compared += public_ik_matches(&lazy.sk, &eager.sk);
        }
        for (i, (l, e)) in lazy.sk.bones.iter().zip(&eager.sk.bones).enumerate() {
            assert_eq!(bits(l), bits(e), "{} frame {f} bone {i}", file.display());
            // Equality reads the applied pose (deferred here, computed there).
            if bits(l).iter().all(|v| f32::from_bits(*v).is_finite()) {
                assert!(l == e, "{} frame {f} bone {i}", file.display());
            }
            compared += 1;
            let p = l.applied();
            if (p.x, p.y, p.rotation) != (l.x, l.y, l.rotation) {
                differing_from_local += 1;
            }
        }
    }
    (compared, differing_from_local)
}

/// The public IK entry points outside the update cache read applied poses a constraint left
/// deferred (they compute them first): every bone of `lazy` and `eager` bent towards a
/// point, bit-identical.
fn public_ik_matches(lazy: &Skeleton, eager: &Skeleton) -> usize {
    let frame = lazy.frame();
    let mut checked = 0;
    let solve = ik::IkSolve {
        target_x: 5.0,
        target_y: 7.0,
        bend_direction: 1,
        compress: true,
        stretch: true,
        scale_y_mode: ScaleYMode::None,
        softness: 0.0,
        mix: 0.5,
    };
    for i in 0..lazy.bones.len() {
        let id = BoneId::from_index(i);
        let (mut l, mut e) = (lazy.bones.clone(), eager.bones.clone());
        for bones in [&mut l, &mut e] {
            ik::apply_one(bones, &frame, id, 10.0, solve);
        }
        assert_eq!(bits(&l[i]), bits(&e[i]), "IK on bone {i}");
        checked += 1;
    }
    checked
}

#[test]
fn lazy_applied_pose_equals_eager_bit_for_bit() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let files = skel_testkit::files_with_suffix(&corpus.join("4.2"), ".skel");
    assert!(files.len() >= 20, "{} 4.2 rigs", files.len());
    let (mut rigs_with_constraints, mut compared, mut differing_from_local) = (0, 0usize, 0usize);
    for file in &files {
        let bytes = std::fs::read(file).unwrap();
        let data = spine_model::load_binary(&bytes, None).unwrap();
        rigs_with_constraints += usize::from(has_world_constraint(&data));
        let (c, d) = compare_rig(file);
        compared += c;
        differing_from_local += d;
    }
    assert!(rigs_with_constraints >= 10, "{rigs_with_constraints} rigs with constraints");
    assert!(compared > 50_000, "{compared} bone comparisons");
    // Constraints did leave applied poses that differ from the local ones.
    assert!(differing_from_local > 1_000, "{differing_from_local} applied poses moved");
    // The 3.5–4.1 solvers (the same deferral behind their `Behaviour` flags).
    let mut older = 0usize;
    for v in ["3.5", "3.6", "3.7", "3.8", "4.0", "4.1"] {
        for file in skel_testkit::files_with_suffix(&corpus.join(v), ".skel") {
            older += compare_rig(&file).0;
        }
    }
    assert!(older > 100_000, "{older} bone comparisons in 3.5-4.1 rigs");
}
