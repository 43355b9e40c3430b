//! The spine-c 3.5/3.6 path constraint rules (`Behaviour::path_scales_every_spacing`,
//! `path_unscaled_length_spacing`) against the 4.x ones, on a crafted straight path where
//! every position is known by construction. The float-for-float agreement with spine-c is checked by
//! `oracle_versions.rs` on the real 3.5/3.6 rigs.

use std::sync::Arc;

use spine_anim::{Physics, Skeleton};
use spine_model::SkeletonData;

/// Which runtime's path rules a rig follows.
#[derive(Clone, Copy, Debug)]
enum Rules {
    Spine4,
    SpineC36,
    SpineC35,
}

/// A straight vertical path from (0, 0) to (0, 100) with evenly spaced control points (so
/// the point at curve parameter `p` is `(0, 100 p)`), and two bones `a` (length 10, scale x
/// `scale_a`) and `b` on it.
fn rig(rules: Rules, constant_speed: bool, scale_a: f32, path: &str) -> Skeleton {
    let text = format!(
        r#"{{"skeleton": {{"spine": "4.2.22"}},
        "bones": [
            {{"name": "root"}},
            {{"name": "a", "parent": "root", "x": 50, "y": 50, "length": 10, "scaleX": {scale_a}}},
            {{"name": "b", "parent": "root", "x": 60, "y": 50, "length": 10}}
        ],
        "slots": [{{"name": "path", "bone": "root", "attachment": "path"}}],
        "skins": [{{"name": "default", "attachments": {{"path": {{"path": {{
            "type": "path", "closed": false, "constantSpeed": {constant_speed},
            "lengths": [100], "vertexCount": 6,
            "vertices": [0, -10, 0, 0, 0, 33.333333, 0, 66.666667, 0, 100, 0, 110]
        }}}}}}}}],
        "path": [{{"name": "p", "target": "path", {path}}}]}}"#
    );
    let mut data: SkeletonData = spine_model::load_json(&text, None).unwrap();
    let b = &mut data.behaviour;
    (b.path_scales_every_spacing, b.path_unscaled_length_spacing) = match rules {
        Rules::Spine4 => (false, false),
        Rules::SpineC36 => (true, false),
        Rules::SpineC35 => (true, true),
    };
    let mut sk = Skeleton::new(Arc::new(data));
    sk.set_to_setup_pose();
    sk.update_world_transform(Physics::None);
    sk
}

fn bone<'a>(sk: &'a Skeleton, name: &str) -> &'a spine_anim::Bone {
    &sk.bones[sk.find_bone(name).unwrap().index()]
}

fn near(a: f32, b: f32, tolerance: f32) -> bool {
    (a - b).abs() <= tolerance
}

#[test]
fn a_position_of_exactly_zero_moves_to_curve_parameter_0_0001_in_spine_c() {
    let path = r#""bones": ["a"], "positionMode": "fixed", "position": 0,
        "rotateMode": "tangent""#;
    for constant_speed in [false, true] {
        // 4.x: the start point itself.
        let sk = rig(Rules::Spine4, constant_speed, 1.0, path);
        let a = bone(&sk, "a");
        assert_eq!((a.world_x, a.world_y), (0.0, 0.0), "{constant_speed}");
        assert!(near(a.world_rotation_x(), 90.0, 1e-3), "{}", a.world_rotation_x());
        // spine-c: the point at p = 0.0001, i.e. 0.01 up the 100-long path.
        for rules in [Rules::SpineC36, Rules::SpineC35] {
            let sk = rig(rules, constant_speed, 1.0, path);
            let a = bone(&sk, "a");
            assert!(
                a.world_x == 0.0 && near(a.world_y, 0.01, 1e-5),
                "{rules:?} {constant_speed}: {a:?}"
            );
            assert!(near(a.world_rotation_x(), 90.0, 1e-3), "{}", a.world_rotation_x());
        }
    }
}

#[test]
fn spine_c_3_5_length_spacing_is_the_world_length_plus_spacing_clamped_at_zero() {
    // `a` is scaled 2x: world length 20 for a setup length of 10. Spacing 5: 4.x and 3.6
    // scale the setup length plus spacing by the world/setup ratio ((10 + 5) * 2 = 30),
    // 3.5.51 adds the spacing to the world length (20 + 5 = 25).
    let path = r#""bones": ["a", "b"], "positionMode": "fixed", "position": 20,
        "spacingMode": "length", "spacing": 5, "rotateMode": "chainScale""#;
    for (rules, expected) in
        [(Rules::Spine4, 50.0), (Rules::SpineC36, 50.0), (Rules::SpineC35, 45.0)]
    {
        let sk = rig(rules, true, 2.0, path);
        let (a, b) = (bone(&sk, "a"), bone(&sk, "b"));
        assert!(near(a.world_y, 20.0, 1e-3), "{rules:?}: {a:?}");
        assert!(near(b.world_y, expected, 1e-3), "{rules:?}: b at {}", b.world_y);
    }
    // A spacing of -25 gives 3.5.51 a space of max(0, 20 - 25) = 0 (`b` on `a`), the
    // others (10 - 25) * 2 = -30.
    let path = path.replace("\"spacing\": 5", "\"spacing\": -25");
    for (rules, expected) in
        [(Rules::Spine4, -10.0), (Rules::SpineC36, -10.0), (Rules::SpineC35, 20.0)]
    {
        let sk = rig(rules, true, 2.0, &path);
        let b = bone(&sk, "b");
        assert!(near(b.world_y, expected, 1e-3), "{rules:?}: b at {}", b.world_y);
    }
}

#[test]
fn spine_c_3_6_scales_percent_spacing_by_the_bone_length_with_chain_scale() {
    // Percent spacing 0.25 of the 100-long path. 4.x and 3.5.51 use it as is (b 25 after
    // a), 3.6 scales it by world/setup length (0.25 * 20 / 10 = 0.5: b 50 after a).
    let path = r#""bones": ["a", "b"], "positionMode": "fixed", "position": 20,
        "spacingMode": "percent", "spacing": 0.25, "rotateMode": "chainScale""#;
    for (rules, expected) in
        [(Rules::Spine4, 45.0), (Rules::SpineC36, 70.0), (Rules::SpineC35, 45.0)]
    {
        let sk = rig(rules, true, 2.0, path);
        let b = bone(&sk, "b");
        assert!(near(b.world_y, expected, 1e-3), "{rules:?}: b at {}", b.world_y);
    }
}

#[test]
fn spine_c_leaves_the_applied_pose_of_path_bones_alone() {
    // The path turns `a` (local rotation 0) to 90 degrees. 4.x recomputes the applied pose
    // from the new world transform; spine-c 3.5/3.6 mark it valid (`appliedValid = -1`) and
    // keep the pose the bone was updated with.
    let path = r#""bones": ["a"], "positionMode": "fixed", "position": 30,
        "rotateMode": "tangent""#;
    for rules in [Rules::Spine4, Rules::SpineC36, Rules::SpineC35] {
        let sk = rig(rules, false, 1.0, path);
        let a = bone(&sk, "a");
        assert!(near(a.world_rotation_x(), 90.0, 1e-3), "{rules:?}: {}", a.world_rotation_x());
        let (applied, expected) = match rules {
            Rules::Spine4 => {
                ((a.applied().rotation, a.applied().x, a.applied().y), (90.0, 0.0, 30.0))
            }
            Rules::SpineC36 | Rules::SpineC35 => {
                ((a.applied().rotation, a.applied().x, a.applied().y), (0.0, 50.0, 50.0))
            }
        };
        assert!(
            near(applied.0, expected.0, 1e-3)
                && near(applied.1, expected.1, 1e-3)
                && near(applied.2, expected.2, 1e-3),
            "{rules:?}: applied {applied:?}, expected {expected:?}"
        );
    }
}

#[test]
fn spine_c_ignores_a_path_constraint_without_a_positive_mix() {
    // Translate mix -1, rotate mix 0: 4.x moves `a` away from the path point (0, 30) by the
    // same distance, spine-c returns before doing anything.
    let path = r#""bones": ["a"], "positionMode": "fixed", "position": 30,
        "rotateMode": "tangent", "mixRotate": 0, "mixX": -1, "mixY": -1"#;
    for (rules, expected) in [
        (Rules::Spine4, (100.0, 70.0)),
        (Rules::SpineC36, (50.0, 50.0)),
        (Rules::SpineC35, (50.0, 50.0)),
    ] {
        let sk = rig(rules, false, 1.0, path);
        let a = bone(&sk, "a");
        assert!(
            near(a.world_x, expected.0, 1e-3) && near(a.world_y, expected.1, 1e-3),
            "{rules:?}: a at ({}, {})",
            a.world_x,
            a.world_y
        );
    }
}
