//! Independent 4.2 physics constraints run in pairs, side by side (`update_42_pair`), in a
//! walk reordered to bring them together (across bone entries and transform constraints). For every 4.2 rig of the corpus
//! with physics (binary and JSON), several animations, a crossfade and every physics mode:
//! the bones of a skeleton whose walk pairs them are bit-identical, frame by frame, to those
//! of one running the update cache's order one constraint at a time
//! (`Skeleton::set_paired_physics(false)`), and pairs were formed.

use std::sync::Arc;

use spine_anim::Physics;
use spine_model::{AnimationId, ConstraintKind, SkeletonData};
use twin::{bits, Runner};

mod twin;

/// Runs `data` paired and unpaired side by side; returns (pairs formed, bone comparisons).
fn compare(data: &Arc<SkeletonData>, what: &str) -> (usize, usize) {
    let mut paired = Runner::new(data, |sk| sk.set_paired_physics(true));
    let mut apart = Runner::new(data, |sk| sk.set_paired_physics(false));
    assert_eq!(apart.sk.physics_pairs(), 0, "{what}");
    let pairs = paired.sk.physics_pairs();
    let n = data.animations.len();
    let mut picks = vec![0, n / 2, n.saturating_sub(1)];
    picks.dedup();
    let mut compared = 0;
    for (k, &a) in picks.iter().enumerate() {
        for r in [&mut paired, &mut apart] {
            r.state.set_animation(0, Some(AnimationId::from_index(a)), true);
        }
        for f in 0..90 {
            // Mostly updates; now and then a reset, a pose-only and a physics-free frame,
            // and frame times that leave a backlog of steps or none.
            let physics = match (f + k) % 23 {
                7 => Physics::Reset,
                11 => Physics::Pose,
                17 => Physics::None,
                _ => Physics::Update,
            };
            let dt = if f % 5 == 0 { 1.0 / 24.0 } else { 1.0 / 60.0 };
            paired.frame(dt, physics);
            apart.frame(dt, physics);
            for (i, (p, u)) in paired.sk.bones.iter().zip(&apart.sk.bones).enumerate() {
                assert_eq!(bits(p), bits(u), "{what}: animation {a} frame {f} bone {i}");
                compared += 1;
            }
        }
    }
    (pairs, compared)
}

#[test]
fn paired_physics_equals_one_at_a_time_bit_for_bit() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let dir = corpus.join("4.2");
    let (mut rigs, mut pairs, mut compared) = (0, 0, 0);
    for suffix in [".skel", ".json"] {
        for file in skel_testkit::files_with_suffix(&dir, suffix) {
            let bytes = std::fs::read(&file).unwrap();
            let data = if suffix == ".skel" {
                spine_model::load_binary(&bytes, None)
            } else {
                spine_model::load_json(std::str::from_utf8(&bytes).unwrap(), None)
            };
            let Ok(data) = data else { continue };
            if !data.constraints.iter().any(|c| matches!(c.kind, ConstraintKind::Physics(_))) {
                continue;
            }
            let (p, c) = compare(&Arc::new(data), &file.display().to_string());
            rigs += 1;
            pairs += p;
            compared += c;
        }
    }
    // celestial-circus, cloud-pot, sack and snowglobe, binary and JSON.
    assert!(rigs >= 8, "{rigs} rigs with physics");
    // 120 at the time of writing (of 122 possible: 14 of celestial-circus' 15, whose first
    // constraints are a chain; every other rig's all), 82 when only neighbours paired.
    assert!(pairs >= 110, "{pairs} pairs of physics constraints");
    assert!(compared > 100_000, "{compared} bone comparisons");
}
