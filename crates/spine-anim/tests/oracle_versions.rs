//! spine-anim against the goldens of the older official runtimes
//! (`../shared/oracle/spine-3.5` … `spine-4.1`: spine-c 3.5/3.6, spine-cpp 3.7–4.1) and the
//! JSON-load goldens of 4.2 (`spine-4.2/*/*.json.json`).
//!
//! Same procedure, tolerance and constraint exemption as `oracle_42.rs`: POSE (every
//! animation, every sample: bone world transforms, slot attachments and colors, draw order,
//! world vertices) and STATE (the 180-frame AnimationState run, events and track events).
//! Every version matches its runtime on every sample; the version differences live in the
//! model's `Behaviour` flags (e.g. `path_spine_c`, `path_spine_c35`, `state_mix_spine35`,
//! `two_color_first_away`, `hold_rules`). Each golden is compared with a load of its own
//! file (`X.skel.json` with `X.skel`, `X.json.json` with `X.json`) from
//! `fixtures/spine/<version>/`.
//!
//! **Loader-bug exemptions** (the only ones besides constraint-driven bones):
//! - the `alien-pro` `death` samples of JSON loads of 4.0–4.2. spine-cpp's `SkeletonJson`
//!   never assigns `mixShearY = mixShearY2` in the transform-constraint key loop, so those
//!   goldens carry the first key's `mixShearY` on every key; our JSON loader reads the file
//!   correctly.
//! - JSON loads of 3.5: spine-c 3.5.51's `SkeletonJson` drops every path constraint `mix`
//!   timeline (an inverted `strcmp`). A failing sample is excused only if the same rig with
//!   its path mix timelines removed matches it (see `spine_c35_json_rig`).

mod common;

use std::sync::Arc;

use common::{goldens, load_rig, run_pose, run_states, Excuses, Rig, Tally, EXEMPT};

/// Loads every golden of `version` whose name ends with `suffix` (`.skel.json` or
/// `.json.json`) together with the rig it was produced from.
fn rigs(version: &str, suffix: &str) -> Option<Vec<Rig>> {
    let goldens = goldens(version, suffix)?;
    assert!(goldens.len() >= 10, "{version}: {} goldens", goldens.len());
    let rigs = goldens.iter().map(|g| {
        let rig = load_rig(version, g, EXEMPT);
        Rig { name: format!("{version} {}", rig.name), ..rig }
    });
    Some(rigs.collect())
}

/// The named exemption: alien-pro `death` of a JSON load of 4.0+ (spine-cpp JSON
/// `mixShearY` bug, see the module docs).
fn known_loader_bug(rig: &Rig, anim: &str) -> bool {
    rig.name.ends_with("alien-pro.json") && anim == "death" && !rig.name.starts_with('3')
}

/// spine-c 3.5.51 `SkeletonJson` reads a path constraint timeline as a mix timeline only
/// when its name is *not* `mix` (`else if (strcmp(timelineName, "mix"))`), so its JSON loads
/// drop every path `mix` timeline; our loader reads them (as spine-c's binary loader and
/// the other runtimes do). For a 3.5 JSON golden this returns the rig with the path mix
/// timelines removed, if it has any: a failing sample is excused (counted under the
/// loader-bug exemption) only when that stripped rig matches the golden.
fn spine_c35_json_rig(rig: &Rig) -> Option<Rig> {
    let mut data = (*rig.data).clone();
    let mut removed = 0;
    for a in &mut data.animations {
        let before = a.timelines.len();
        a.timelines.retain(|t| {
            !matches!(
                t,
                spine_model::Timeline::Path { property: spine_model::PathProperty::Mix, .. }
            )
        });
        removed += before - a.timelines.len();
    }
    (removed > 0).then(|| Rig {
        name: rig.name.clone(),
        golden: rig.golden.clone(),
        data: Arc::new(data),
        driven: rig.driven.clone(),
    })
}

/// The loader bugs of the runtime behind the `version` goldens of `suffix` loads.
fn excuses(version: &str, suffix: &str) -> Excuses {
    Excuses {
        twin: (version == "3.5" && suffix == ".json.json").then_some(spine_c35_json_rig as _),
        known: known_loader_bug,
        null_matches_any: true,
    }
}

/// POSE over every rig of `version` loaded from `suffix` goldens.
fn pose(version: &str, suffix: &str) -> Option<Tally> {
    let rigs = rigs(version, suffix)?;
    let label = format!("POSE {version} {suffix}");
    Some(run_pose(&rigs, &label, Tally::default(), &excuses(version, suffix)))
}

/// STATE over every rig of `version` loaded from `suffix` goldens.
fn state(version: &str, suffix: &str) -> Option<(Tally, Vec<String>)> {
    let rigs = rigs(version, suffix)?;
    let label = format!("STATE {version} {suffix}");
    let run = run_states(&rigs, &label, Tally::default(), &excuses(version, suffix));
    Some((run.tally, run.failures))
}

fn check_pose(version: &str, suffix: &str) {
    let Some(t) = pose(version, suffix) else { return };
    assert!(t.samples > 300, "POSE {version} {suffix}: only {} samples", t.samples);
    println!("POSE {version} {suffix}: {} samples under the loader-bug exemptions", t.named);
    assert_eq!(t.failed, 0, "POSE {version} {suffix}: samples failing (worst listed above)");
}

fn check_state(version: &str, suffix: &str) {
    let Some((t, failures)) = state(version, suffix) else { return };
    assert!(failures.is_empty(), "STATE {version} {suffix}: event lists differ:\n{failures:?}");
    println!("STATE {version} {suffix}: {} samples under the loader-bug exemptions", t.named);
    assert_eq!(t.failed, 0, "STATE {version} {suffix}: samples failing (worst listed above)");
}

macro_rules! golden_tests {
    ($($pose:ident, $state:ident, $version:literal, $suffix:literal;)*) => {$(
        #[test]
        fn $pose() {
            check_pose($version, $suffix);
        }

        #[test]
        fn $state() {
            check_state($version, $suffix);
        }
    )*};
}

golden_tests! {
    pose_3_5_skel, state_3_5_skel, "3.5", ".skel.json";
    pose_3_5_json, state_3_5_json, "3.5", ".json.json";
    pose_3_6_skel, state_3_6_skel, "3.6", ".skel.json";
    pose_3_6_json, state_3_6_json, "3.6", ".json.json";
    pose_3_7_skel, state_3_7_skel, "3.7", ".skel.json";
    pose_3_7_json, state_3_7_json, "3.7", ".json.json";
    pose_3_8_skel, state_3_8_skel, "3.8", ".skel.json";
    pose_3_8_json, state_3_8_json, "3.8", ".json.json";
    pose_4_0_skel, state_4_0_skel, "4.0", ".skel.json";
    pose_4_0_json, state_4_0_json, "4.0", ".json.json";
    pose_4_1_skel, state_4_1_skel, "4.1", ".skel.json";
    pose_4_1_json, state_4_1_json, "4.1", ".json.json";
    pose_4_2_json, state_4_2_json, "4.2", ".json.json";
}
