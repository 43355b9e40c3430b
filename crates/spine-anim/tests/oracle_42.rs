//! spine-anim against the spine-cpp 4.2 goldens (`../shared/oracle/spine-4.2`).
//!
//! POSE: every rig, animation and sample: bone world transforms, slot attachments and
//! colors, draw order. STATE: the 180-frame AnimationState run (bones every 10th frame,
//! events and track events in order).
//!
//! Tolerance: `|ours - theirs| <= 1e-3 * max(1, |theirs|)`.
//!
//! **Constraint exemption** (per constraint type, see [`EXEMPT`]): a bone is
//! *constraint-driven* when a constraint of an exempt type writes it or when it descends from
//! such a bone. A sample whose only mismatches are on constraint-driven bones is counted as
//! *exempt*, not failed. Every 4.2 solver (IK, transform, path, physics) is implemented, so
//! only the 4.3 slider type remains listed, and no 4.2 rig has one: nothing is exempt.

mod common;

use common::{
    apply_pose, close, constraint_driven, goldens, load_rig, mark_descendants, new_skeleton,
    run_pose, run_states, start_state, Excuses, Rig, StateRun, Tally, EXEMPT,
};
use serde_json::Value;
use spine_anim::{Physics, Skeleton};
use spine_model::{ConstraintKind, ConstraintType, SkeletonData};

fn rigs() -> Option<Vec<Rig>> {
    let goldens = goldens("4.2", ".skel.json")?;
    assert!(goldens.len() >= 26, "{} goldens", goldens.len());
    Some(goldens.iter().map(|g| load_rig("4.2", g, EXEMPT)).collect())
}

#[test]
fn pose_matches_spine_cpp_4_2() {
    let Some(rigs) = rigs() else { return };
    let tally = run_pose(&rigs, "POSE", Tally::per_rig(), &Excuses::NONE);
    assert!(tally.vertices > 500, "{} vertex lists", tally.vertices);
    assert!(tally.samples > 1000);
    assert_eq!(tally.failed, 0, "POSE samples failing outside the constraint exemption");
}

#[test]
fn constraint_exemption_is_computed_from_data() {
    let Some(rigs) = rigs() else { return };
    let sb = rigs.iter().find(|r| r.name == "spineboy-pro.skel").unwrap();
    let id = |n: &str| sb.data.find_bone(n).unwrap().index();
    // rear-shin is bent by the rear-leg IK; the hip drives everything but is not driven.
    let ik = constraint_driven(&sb.data, &[ConstraintType::Ik]);
    assert!(ik[id("rear-shin")]);
    assert!(ik[id("rear-foot")]);
    assert!(!ik[id("hip")]);
    assert!(!ik[id("root")]);
    // IK is solved: spineboy (no physics) has no exempt bone.
    assert!(sb.driven.iter().all(|d| !d));
}

#[test]
fn state_matches_spine_cpp_4_2() {
    let Some(rigs) = rigs() else { return };
    let StateRun { tally, failures, events, track_events } =
        run_states(&rigs, "STATE", Tally::per_rig(), &Excuses::NONE);
    assert!(events >= 30 && track_events > 100, "{events} events, {track_events} track events");
    assert!(failures.is_empty(), "event or track event lists differ");
    assert_eq!(tally.failed, 0, "STATE samples failing outside the constraint exemption");
}

/// Physics bones and their descendants (whatever else drives them).
fn physics_driven(d: &SkeletonData) -> Vec<bool> {
    let mut driven = vec![false; d.bones.len()];
    for c in &d.constraints {
        if let ConstraintKind::Physics(k) = &c.kind {
            driven[k.bone.index()] = true;
        }
    }
    mark_descendants(d, &mut driven);
    driven
}

thread_local! {
    /// Worst relative difference seen by [`physics_bones`] on bones no exempt constraint
    /// drives.
    static WORST: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
}

/// Physics-driven bone transforms of `sk` vs golden sample `s`: (compared, matching,
/// matching among those no exempt constraint drives, compared among those).
fn physics_bones(rig: &Rig, phys: &[bool], sk: &Skeleton, s: &Value) -> [usize; 4] {
    let mut n = [0; 4];
    for (i, gb) in s["bones"].as_array().unwrap().iter().enumerate() {
        let Some(v) = gb.as_array() else { continue };
        if !phys[i] {
            continue;
        }
        let b = &sk.bones[i];
        let ours = [b.a, b.b, b.c, b.d, b.world_x, b.world_y];
        let ok = ours.iter().zip(v).all(|(o, t)| close(*o, t.as_f64().unwrap()));
        if !rig.driven[i] {
            for (o, t) in ours.iter().zip(v) {
                let t = t.as_f64().unwrap();
                let rel = (*o as f64 - t).abs() / t.abs().max(1.0);
                WORST.with(|w| w.set(w.get().max(rel)));
            }
        }
        n[0] += 1;
        n[1] += ok as usize;
        if !rig.driven[i] {
            n[3] += 1;
            n[2] += ok as usize;
        }
    }
    n
}

/// The physics rigs bone by bone: physics bones (and descendants) must match in POSE
/// (`Physics::None`) and in STATE (`Physics::Update`, 180 frames at 1/60 s) wherever no
/// still-exempt constraint (IK, transform, path) also drives them.
#[test]
fn physics_rigs_match_spine_cpp_4_2() {
    let Some(rigs) = rigs() else { return };
    let mut checked = 0;
    for rig in &rigs {
        let phys = physics_driven(&rig.data);
        if !phys.iter().any(|&p| p) {
            continue;
        }
        checked += 1;
        let mut pose = [0; 4];
        let mut sk = new_skeleton(rig);
        for (name, p) in rig.golden["pose"].as_object().unwrap() {
            let anim = rig.data.find_animation(name).unwrap();
            for s in p["samples"].as_array().unwrap() {
                let t = s["t"].as_f64().unwrap() as f32;
                apply_pose(&mut sk, anim, t, None);
                let n = physics_bones(rig, &phys, &sk, s);
                for k in 0..4 {
                    pose[k] += n[k];
                }
            }
        }
        let pose_worst = WORST.with(|w| w.replace(0.0));
        let st = &rig.golden["state"];
        let (mut sk, mut state) = start_state(rig);
        let mut samples = st["samples"].as_array().unwrap().iter().peekable();
        let mut state_n = [0; 4];
        let mut first_bad = None;
        for frame in 1..=st["frames"].as_u64().unwrap() {
            state.update(1.0 / 60.0);
            state.apply(&mut sk);
            state.clear_events();
            sk.update(1.0 / 60.0);
            sk.update_world_transform(Physics::Update);
            if let Some(s) = samples.next_if(|s| s["frame"].as_u64() == Some(frame)) {
                let n = physics_bones(rig, &phys, &sk, s);
                if n[2] < n[3] && first_bad.is_none() {
                    first_bad = Some(frame);
                }
                for k in 0..4 {
                    state_n[k] += n[k];
                }
            }
        }
        println!(
            "{}: {} physics-driven bones; POSE {}/{} match ({}/{} not IK/transform/path-driven); \
             STATE {}/{} match ({}/{}), first failing frame {first_bad:?}; worst relative \
             difference POSE {pose_worst:.2e}, STATE {:.2e}",
            rig.name,
            phys.iter().filter(|&&p| p).count(),
            pose[1],
            pose[0],
            pose[2],
            pose[3],
            state_n[1],
            state_n[0],
            state_n[2],
            state_n[3],
            WORST.with(|w| w.replace(0.0)),
        );
        assert_eq!(pose[2], pose[3], "{}: POSE physics bones", rig.name);
        assert_eq!(state_n[2], state_n[3], "{}: STATE physics bones", rig.name);
    }
    assert!(checked >= 4, "{checked} physics rigs");
}
