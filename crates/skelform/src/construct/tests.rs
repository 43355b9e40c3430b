//! Lockstep FABRIK against the sequential solver, bit for bit.

use crate::{AnimLayer, Armature};

/// World transforms as bits (so -0.0 ≠ 0.0 and NaN payloads count).
fn bits(a: &Armature) -> Vec<[u32; 5]> {
    a.world()
        .iter()
        .map(|w| {
            let b = |f: f32| f.to_bits();
            [b(w.pos.x), b(w.pos.y), b(w.rot), b(w.scale.x), b(w.scale.y)]
        })
        .collect()
}

/// Lockstep FABRIK (independent families, SoA lanes) against one family after the other.
fn same_as_sequential(arm: &Armature, frames: u32) {
    assert!(arm.ik_independent);
    let mut lock = arm.clone();
    let mut seq = arm.clone();
    seq.ik_independent = false;
    for a in 0..arm.animations().len().max(1) {
        for c in 0..frames {
            for x in [&mut lock, &mut seq] {
                if !x.animations().is_empty() {
                    let frame = x.format_frame(a, c, false, true);
                    x.animate(&[AnimLayer { anim: a, frame, smooth: 0 }]);
                }
                x.construct();
            }
            assert_eq!(bits(&lock), bits(&seq), "animation {a} frame {c}");
        }
    }
}

#[test]
fn lockstep_fabrik_is_bit_identical_on_fixtures() {
    let Some(dir) = skel_testkit::fixtures_dir() else { return };
    for name in ["skellina_v0.7.0.skf", "skellington_v0.7.0.skf"] {
        let Ok(bytes) = std::fs::read(dir.join("skelform").join(name)) else { continue };
        same_as_sequential(&crate::load(&bytes).expect("load"), 120);
    }
}

/// Eleven chains (two lane groups) of lengths 1 to 6 with bent rest poses, targets out
/// of reach, in reach and on the root (zero-length directions).
#[test]
fn lockstep_fabrik_is_bit_identical_on_many_chains() {
    let mut bones = vec![serde_json::json!({"id": 0, "name": "root", "parent_id": -1})];
    let mut iks = Vec::new();
    for c in 0..11usize {
        let len = 1 + c % 6;
        let target = bones.len();
        let (tx, ty) = match c % 3 {
            0 => (500.0, -40.0 * c as f64),
            1 => (30.0, 20.0),
            _ => (0.0, 0.0),
        };
        bones.push(serde_json::json!({"id": target, "name": "t", "parent_id": 0,
            "pos": {"x": tx, "y": ty}}));
        let mut ids = Vec::new();
        for j in 0..len {
            let id = bones.len();
            let parent = if j == 0 { 0 } else { id - 1 };
            bones.push(serde_json::json!({"id": id, "name": "b", "parent_id": parent,
                "pos": {"x": if j == 0 { 3.0 * c as f64 } else { 25.0 + j as f64 }, "y": 0.0},
                "rot": 0.3 * (j as f64 + 1.0) * if c % 2 == 0 { 1.0 } else { -1.0 }}));
            ids.push(id);
        }
        iks.push(serde_json::json!({"mode": "FABRIK", "target_id": target,
            "bone_ids": ids, "constraint": "None"}));
    }
    let doc = serde_json::json!({"version": "0.7.0", "bones": bones,
        "inverse_kinematics": iks, "animations": []});
    let arm = crate::parse_armature_json(doc.to_string().as_bytes()).expect("parse");
    assert_eq!(arm.ik_families().len(), 11);
    same_as_sequential(&arm, 3);
}
