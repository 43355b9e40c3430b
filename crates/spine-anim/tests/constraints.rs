//! IK, transform and path solvers on small crafted rigs (facts that hold by construction:
//! a reached target, a copied rotation, bones placed along a straight path). The spine-cpp
//! 4.2 float-for-float behaviour is checked by `oracle_42.rs` on the real rigs.

use std::sync::Arc;

use spine_anim::{Physics, Skeleton};
use spine_model::{ConstraintKind, SkeletonData, TransformSolver};

fn rig(body: &str) -> SkeletonData {
    let text = format!(r#"{{"skeleton": {{"spine": "4.2.22"}}, {body}}}"#);
    spine_model::load_json(&text, None).unwrap()
}

fn posed(data: SkeletonData) -> Skeleton {
    let mut sk = Skeleton::new(Arc::new(data));
    sk.set_to_setup_pose();
    sk.update_world_transform(Physics::None);
    sk
}

fn bone<'a>(sk: &'a Skeleton, name: &str) -> &'a spine_anim::Bone {
    &sk.bones[sk.find_bone(name).unwrap().index()]
}

fn near(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-3 * b.abs().max(1.0)
}

const ARM: &str = r#""bones": [
    {"name": "root"},
    {"name": "upper", "parent": "root", "length": 10},
    {"name": "lower", "parent": "upper", "x": 10, "length": 10},
    {"name": "target", "parent": "root", "x": TX, "y": TY}
]"#;

fn arm(tx: f32, ty: f32, constraints: &str) -> SkeletonData {
    let bones = ARM.replace("TX", &tx.to_string()).replace("TY", &ty.to_string());
    rig(&format!("{bones}, {constraints}"))
}

#[test]
fn ik_one_bone_points_at_the_target_and_stretches() {
    let sk =
        posed(arm(0.0, 20.0, r#""ik": [{"name": "ik", "bones": ["upper"], "target": "target"}]"#));
    let upper = bone(&sk, "upper");
    assert!(near(upper.world_rotation_x(), 90.0), "{}", upper.world_rotation_x());
    assert!(near(upper.world_scale_x(), 1.0));
    // The child follows its rotated parent: its origin is 10 up.
    let lower = bone(&sk, "lower");
    assert!(near(lower.world_x, 0.0) && near(lower.world_y, 10.0), "{lower:?}");

    let c = r#""ik": [{"name": "ik", "bones": ["upper"], "target": "target", "stretch": true}]"#;
    let sk = posed(arm(0.0, 20.0, c));
    assert!(near(bone(&sk, "upper").world_scale_x(), 2.0), "stretched to reach the target");
    let c = r#""ik": [{"name": "ik", "bones": ["upper"], "target": "target", "mix": 0.5}]"#;
    let sk = posed(arm(0.0, 20.0, c));
    assert!(near(bone(&sk, "upper").world_rotation_x(), 45.0), "half mix, half rotation");
    let c = r#""ik": [{"name": "ik", "bones": ["upper"], "target": "target", "mix": 0}]"#;
    let sk = posed(arm(0.0, 20.0, c));
    assert!(near(bone(&sk, "upper").world_rotation_x(), 0.0), "mix 0 leaves the bone");
}

#[test]
fn ik_two_bones_reach_the_target_on_the_bend_side() {
    let mut elbows = Vec::new();
    for bend in [true, false] {
        let c = format!(
            r#""ik": [{{"name": "ik", "bones": ["upper", "lower"], "target": "target",
                "bendPositive": {bend}}}]"#
        );
        let sk = posed(arm(12.0, 9.0, &c));
        let lower = bone(&sk, "lower");
        let (tip_x, tip_y) = lower.local_to_world(10.0, 0.0);
        assert!(near(tip_x, 12.0) && near(tip_y, 9.0), "bend {bend}: tip at ({tip_x}, {tip_y})");
        elbows.push((lower.world_x, lower.world_y));
    }
    // The two bend directions mirror the elbow across the root-target line.
    let ((x0, y0), (x1, y1)) = (elbows[0], elbows[1]);
    let side = |x: f32, y: f32| 12.0 * y - 9.0 * x;
    // bendPositive turns the child counter-clockwise, so the elbow sits clockwise of the line.
    assert!(side(x0, y0) < -1.0 && side(x1, y1) > 1.0, "{elbows:?}");

    // Out of reach: the chain points straight at the target; with stretch the parent
    // scales so the tip gets there.
    let c = r#""ik": [{"name": "ik", "bones": ["upper", "lower"], "target": "target"}]"#;
    let sk = posed(arm(30.0, 40.0, c));
    let (tip_x, tip_y) = bone(&sk, "lower").local_to_world(10.0, 0.0);
    assert!(near(tip_x, 12.0) && near(tip_y, 16.0), "({tip_x}, {tip_y})");
    let c = r#""ik": [{"name": "ik", "bones": ["upper", "lower"], "target": "target",
        "stretch": true}]"#;
    let sk = posed(arm(30.0, 40.0, c));
    let (tip_x, tip_y) = bone(&sk, "lower").local_to_world(10.0, 0.0);
    assert!(near(tip_x, 30.0) && near(tip_y, 40.0), "({tip_x}, {tip_y})");
}

#[test]
fn transform_copies_world_and_local_values() {
    let bones = r#""bones": [
        {"name": "root"},
        {"name": "src", "parent": "root", "x": 5, "y": 7, "rotation": 30, "scaleX": 2},
        {"name": "b", "parent": "root", "x": -4, "rotation": -20}
    ]"#;
    let sk = posed(rig(&format!(
        r#"{bones}, "transform": [{{"name": "t", "bones": ["b"], "target": "src", "x": 1}}]"#
    )));
    let (b, src) = (bone(&sk, "b"), bone(&sk, "src"));
    assert!(near(b.world_rotation_x(), 30.0), "{}", b.world_rotation_x());
    assert!(near(b.world_scale_x(), 2.0));
    let (ox, oy) = src.local_to_world(1.0, 0.0);
    assert!(near(b.world_x, ox) && near(b.world_y, oy), "offset x in the source's space");
    // Applied pose re-derived from the world transform.
    assert!(near(b.applied().rotation, 30.0) && near(b.applied().scale_x, 2.0));

    // Relative + local: adds the source's local values.
    let sk = posed(rig(&format!(
        r#"{bones}, "transform": [{{"name": "t", "bones": ["b"], "target": "src",
            "local": true, "relative": true, "mixX": 0, "mixY": 0, "mixScaleX": 0,
            "mixScaleY": 0, "mixShearY": 0}}]"#
    )));
    assert!(near(bone(&sk, "b").world_rotation_x(), 10.0), "-20 + 30");
}

#[test]
fn transform_local_rotation_wraps_like_each_runtime() {
    // Delta exactly 180 degrees: 4.x keeps +180 (ceil(0.5 - 0.5) = 0), 3.x wraps to -180.
    let text = r#""bones": [
        {"name": "root"},
        {"name": "src", "parent": "root", "rotation": 180},
        {"name": "b", "parent": "root"}
    ], "transform": [{"name": "t", "bones": ["b"], "target": "src", "local": true,
        "mixRotate": 0.5, "mixX": 0, "mixY": 0, "mixScaleX": 0, "mixScaleY": 0,
        "mixShearY": 0}]"#;
    let data = rig(text);
    let sk = posed(data.clone());
    assert!(near(bone(&sk, "b").applied().rotation, 90.0), "{}", bone(&sk, "b").applied().rotation);
    let mut d3 = data;
    for c in &mut d3.constraints {
        if let ConstraintKind::Transform(t) = &mut c.kind {
            t.solver = TransformSolver::Legacy3x;
        }
    }
    let sk = posed(d3);
    assert!(
        near(bone(&sk, "b").applied().rotation, -90.0),
        "{}",
        bone(&sk, "b").applied().rotation
    );
}

/// A straight vertical path from (0, 0) to (0, 100), evenly spaced control points.
fn path_rig(
    constant_speed: bool,
    position_mode: &str,
    position: f32,
    spacing: f32,
    rotate: &str,
) -> SkeletonData {
    rig(&format!(
        r#""bones": [
            {{"name": "root"}},
            {{"name": "a", "parent": "root", "x": 50, "y": 50, "length": 10}},
            {{"name": "b", "parent": "a", "x": 10, "length": 10}}
        ],
        "slots": [{{"name": "path", "bone": "root", "attachment": "path"}}],
        "skins": [{{"name": "default", "attachments": {{"path": {{"path": {{
            "type": "path", "closed": false, "constantSpeed": {constant_speed},
            "lengths": [100], "vertexCount": 6,
            "vertices": [0, -10, 0, 0, 0, 33.333333, 0, 66.666667, 0, 100, 0, 110]
        }}}}}}}}],
        "path": [{{"name": "p", "bones": ["a", "b"], "target": "path",
            "positionMode": "{position_mode}", "spacingMode": "length", "rotateMode": "{rotate}",
            "position": {position}, "spacing": {spacing}}}]"#
    ))
}

#[test]
fn path_places_a_chain_along_a_straight_path() {
    for constant_speed in [true, false] {
        let sk = posed(path_rig(constant_speed, "fixed", 20.0, 0.0, "chain"));
        let (a, b) = (bone(&sk, "a"), bone(&sk, "b"));
        assert!(near(a.world_x, 0.0) && near(a.world_y, 20.0), "{constant_speed}: {a:?}");
        assert!(near(a.world_rotation_x(), 90.0), "{}", a.world_rotation_x());
        assert!(near(b.world_x, 0.0) && near(b.world_y, 30.0), "{constant_speed}: {b:?}");
        assert!(near(b.world_rotation_x(), 90.0));
    }
    // Percent position, spacing added to the bone length. Chain: the next bone starts at the
    // previous one's tip; chain-scale stretches the previous bone to the next position.
    let sk = posed(path_rig(true, "percent", 0.5, 5.0, "chain"));
    let (a, b) = (bone(&sk, "a"), bone(&sk, "b"));
    assert!(near(a.world_y, 50.0) && near(b.world_y, 60.0), "{} {}", a.world_y, b.world_y);
    let sk = posed(path_rig(true, "percent", 0.5, 5.0, "chainScale"));
    let (a, b) = (bone(&sk, "a"), bone(&sk, "b"));
    assert!(near(a.world_y, 50.0) && near(b.world_y, 65.0), "{} {}", a.world_y, b.world_y);
    assert!(near(a.world_scale_x(), 1.5), "{}", a.world_scale_x());
    // Tangent: every bone sits on its own position, rotated along the path.
    let sk = posed(path_rig(false, "fixed", 10.0, 5.0, "tangent"));
    let (a, b) = (bone(&sk, "a"), bone(&sk, "b"));
    assert!(near(a.world_y, 10.0) && near(b.world_y, 25.0), "{} {}", a.world_y, b.world_y);
    assert!(near(b.world_rotation_x(), 90.0));
    // Past the end of an open path the chain continues on the end tangent.
    let sk = posed(path_rig(true, "fixed", 95.0, 0.0, "chain"));
    let b = bone(&sk, "b");
    assert!(near(b.world_x, 0.0) && near(b.world_y, 105.0), "{b:?}");
}

#[test]
fn ik_stretch_scale_y_modes() {
    let c = r#""ik": [{"name": "ik", "bones": ["upper"], "target": "target", "stretch": true}]"#;
    let mut sy = Vec::new();
    for mode in [
        spine_model::ScaleYMode::None,
        spine_model::ScaleYMode::Uniform,
        spine_model::ScaleYMode::Volume,
    ] {
        let mut data = arm(0.0, 20.0, c);
        for k in &mut data.constraints {
            if let ConstraintKind::Ik(ik) = &mut k.kind {
                ik.scale_y_mode = mode;
            }
        }
        let sk = posed(data);
        let upper = bone(&sk, "upper");
        assert!(near(upper.world_scale_x(), 2.0));
        sy.push(upper.world_scale_y());
    }
    // None keeps y, Uniform doubles it, Volume (4.3) halves it (stretch 2 >= 0.7).
    assert!(near(sy[0], 1.0) && near(sy[1], 2.0) && near(sy[2], 0.5), "{sy:?}");
}

/// `data` following the 4.3 IK rules (`ik_keeps_parent_shear`) or the 4.2 ones.
fn with_ik43(mut data: SkeletonData, ik43: bool) -> SkeletonData {
    data.behaviour.ik_keeps_parent_shear = ik43;
    data
}

#[test]
fn ik_spine43_flag_is_set_for_4_3_data_only() {
    use spine_model::Behaviour;
    assert!(Behaviour::of("4.3.39-beta").unwrap().ik_keeps_parent_shear);
    assert!(!Behaviour::of("4.2.43").unwrap().ik_keeps_parent_shear);
    assert!(!Behaviour::of("4.1.24").unwrap().ik_keeps_parent_shear);
    assert!(!Behaviour::of("3.8.99").unwrap().ik_keeps_parent_shear);
    // The 4.3 binary converter picks it up from the export's version.
    let p = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/spine-4.3/constraints.skel");
    let data = spine_model::load_binary(&std::fs::read(p).unwrap(), None).unwrap();
    assert_eq!(data.behaviour.spine_version, spine_format::SpineVersion::V4_3);
    assert!(data.behaviour.ik_keeps_parent_shear);
    // And a 4.2 JSON export keeps the 4.2 maths.
    assert!(!rig(r#""bones": [{"name": "root"}]"#).behaviour.ik_keeps_parent_shear);
}

#[test]
fn ik_two_bones_4_3_keeps_the_parent_shear() {
    let bones = r#""bones": [
        {"name": "root"},
        {"name": "upper", "parent": "root", "length": 10, "shearX": 10, "shearY": 5},
        {"name": "lower", "parent": "upper", "x": 10, "length": 10},
        {"name": "target", "parent": "root", "x": 12, "y": 9}
    ]"#;
    let c = r#""ik": [{"name": "ik", "bones": ["upper", "lower"], "target": "target"}]"#;
    let data = rig(&format!("{bones}, {c}"));
    let sk42 = posed(with_ik43(data.clone(), false));
    let sk43 = posed(with_ik43(data, true));
    let (u42, u43) = (bone(&sk42, "upper"), bone(&sk43, "upper"));
    // 4.2 poses the parent with shear 0; 4.3 leaves the parent's shear alone.
    assert_eq!((u42.applied().shear_x, u42.applied().shear_y), (0.0, 0.0));
    assert_eq!((u43.applied().shear_x, u43.applied().shear_y), (10.0, 5.0));
    // The solved rotation is the same (shear does not enter the solve), so the parent's
    // world x axis differs by exactly the kept shear x.
    assert!(
        near(u42.applied().rotation, u43.applied().rotation),
        "{} {}",
        u42.applied().rotation,
        u43.applied().rotation
    );
    let diff = u43.world_rotation_x() - u42.world_rotation_x();
    assert!(near(diff, 10.0), "{diff}");
    // Without shear, the 4.2 solve reaches the target: the lower tip is on it.
    let (tip_x, tip_y) = bone(&sk42, "lower").local_to_world(10.0, 0.0);
    assert!(near(tip_x, 12.0) && near(tip_y, 9.0), "({tip_x}, {tip_y})");
}

#[test]
fn ik_one_bone_4_3_wraps_minus_180_to_180() {
    // The bone points left (rotation 180), the target is straight right: the IK delta is
    // exactly -180. 4.2 keeps -180 (`< -180` wraps), 4.3 turns it into 180 (`<= -180`),
    // so with half mix the bone ends up pointing down (4.2) or up (4.3).
    let body = r#""bones": [
        {"name": "root"},
        {"name": "b", "parent": "root", "rotation": 180, "length": 10},
        {"name": "target", "parent": "root", "x": 20}
    ], "ik": [{"name": "ik", "bones": ["b"], "target": "target", "mix": 0.5}]"#;
    let data = rig(body);
    let sk42 = posed(with_ik43(data.clone(), false));
    let sk43 = posed(with_ik43(data, true));
    let (b42, b43) = (bone(&sk42, "b"), bone(&sk43, "b"));
    assert_eq!(b42.applied().rotation, 90.0);
    assert_eq!(b43.applied().rotation, 270.0);
    assert!(b42.c > 0.99 && b43.c < -0.99, "x axis up (4.2) / down (4.3): {} {}", b42.c, b43.c);
}

#[test]
fn ik_two_bones_4_3_near_zero_parent_uses_epsilon() {
    // The child sits 0.00005 from the parent: below 4.2's 0.0001 (fallback: the parent
    // alone points at the target, the child's rotation is set to 0), above 4.3's Epsilon
    // 0.00001 (the two-bone solve runs, the child bends).
    let arm = |child_x: f32| {
        let body = format!(
            r#""bones": [
                {{"name": "root"}},
                {{"name": "upper", "parent": "root", "length": 10}},
                {{"name": "lower", "parent": "upper", "x": {child_x}, "rotation": 30,
                  "length": 10}},
                {{"name": "target", "parent": "root", "x": 0, "y": 5}}
            ], "ik": [{{"name": "ik", "bones": ["upper", "lower"], "target": "target"}}]"#
        );
        rig(&body)
    };
    let sk42 = posed(with_ik43(arm(0.00005), false));
    let sk43 = posed(with_ik43(arm(0.00005), true));
    let (l42, l43) = (bone(&sk42, "lower"), bone(&sk43, "lower"));
    assert_eq!(l42.applied().rotation, 0.0, "4.2 fallback zeroes the child rotation");
    assert!(near(bone(&sk42, "upper").world_rotation_x(), 90.0), "4.2: parent aims at target");
    assert!(
        l43.applied().rotation.abs() > 1.0,
        "4.3 solves both bones: {}",
        l43.applied().rotation
    );
    // Below 4.3's Epsilon, 4.3 falls back too: parent aims, child rotation 0.
    let sk43 = posed(with_ik43(arm(0.000005), true));
    assert_eq!(bone(&sk43, "lower").applied().rotation, 0.0);
    assert!(near(bone(&sk43, "upper").world_rotation_x(), 90.0));
}
