//! Spine 4.3 semantics on crafted rigs: the expected numbers are worked out by hand from
//! the spine-cpp 4.3 formulas (quoted next to each assertion), never by this runtime.
//! Each rig is written as 4.2 JSON and switched to the 4.3 rules through its
//! [`Behaviour`](spine_model::Behaviour) flags, so the same rig also shows the 4.2 result.

use std::sync::Arc;

use spine_anim::{Physics, Skeleton};
use spine_model::{ConstraintKind, ScaleYMode, SkeletonData};

fn rig(body: &str) -> SkeletonData {
    let text = format!(r#"{{"skeleton": {{"spine": "4.2.22"}}, {body}}}"#);
    spine_model::load_json(&text, None).unwrap()
}

fn bone<'a>(sk: &'a Skeleton, name: &str) -> &'a spine_anim::Bone {
    &sk.bones[sk.find_bone(name).unwrap().index()]
}

fn near(a: f32, b: f32) -> bool {
    (a - b).abs() <= 1e-4 * b.abs().max(1.0)
}

// ---------------------------------------------------------------------------------------
// Physics (spine-cpp 4.3 `PhysicsConstraint::update`).

/// One bone `b` (length 10) under the root with a physics constraint `physics` (JSON
/// fields), following the 4.3 solver or the 4.2 one.
fn physics_rig(physics: &str, spine43: bool, mode: ScaleYMode) -> Arc<SkeletonData> {
    let mut data = rig(&format!(
        r#""bones": [{{"name": "root"}}, {{"name": "b", "parent": "root", "length": 10}}],
           "physics": [{{"name": "p", "bone": "b", {physics}}}]"#
    ));
    data.behaviour.physics_lagged_offsets = spine43;
    for c in &mut data.constraints {
        if let ConstraintKind::Physics(p) = &mut c.kind {
            p.scale_y_mode = mode;
        }
    }
    Arc::new(data)
}

/// Frame 0 at skeleton x 0 (the reset update only records the position), then the
/// skeleton moves to `(x, 0)` and the clock advances `dt`.
fn physics_two_frames(data: &Arc<SkeletonData>, x: f32, dt: f32) -> Skeleton {
    let mut sk = Skeleton::new(data.clone());
    sk.set_to_setup_pose();
    sk.update_world_transform(Physics::Update);
    sk.x = x;
    sk.update(dt);
    sk.update_world_transform(Physics::Update);
    sk
}

#[test]
fn physics_spine43_flag_is_set_for_4_3_data_only() {
    use spine_model::Behaviour;
    assert!(Behaviour::of("4.3.39-beta").unwrap().physics_lagged_offsets);
    assert!(!Behaviour::of("4.2.43").unwrap().physics_lagged_offsets);
    assert!(!Behaviour::of("3.8.99").unwrap().physics_lagged_offsets);
    assert!(!rig(r#""bones": [{"name": "root"}]"#).behaviour.physics_lagged_offsets);
}

#[test]
fn physics_4_3_interpolates_the_translation_lag() {
    // step t = 1/60, inertia 1, strength 100, damping 1 (d = 1^(60t) = 1), mass 1, no wind
    // or gravity. Frame 1: the bone moved +10 over dt = 0.025 (1.5 steps):
    //   xOffset = (ux - bx) * i = -10 (limit 5000 * 0.025 does not clamp)
    //   one step: xVelocity = (0 - (-10) * 100) * t = 1000/60 = 16.666667
    //             xOffset = -10 + 16.666667 / 60 = -9.7222222, xLag = 0.2777778
    //   remaining a = 0.025 - 1/60 = 1/120, z = 1 - a/t = 0.5
    //   4.3: world x = 10 + (xOffset - xLag * z) = 10 - 9.8611111 = 0.1388889
    //   4.2: world x = 10 + xOffset = 0.2777778
    let body = r#""x": 1, "inertia": 1, "strength": 100, "damping": 1, "fps": 60"#;
    let sk43 = physics_two_frames(&physics_rig(body, true, ScaleYMode::None), 10.0, 0.025);
    let sk42 = physics_two_frames(&physics_rig(body, false, ScaleYMode::None), 10.0, 0.025);
    let (x43, x42) = (bone(&sk43, "b").world_x, bone(&sk42, "b").world_x);
    assert!(near(x43, 0.1388889), "4.3 {x43}");
    assert!(near(x42, 0.2777778), "4.2 {x42}");
    // Physics::Pose re-applies the same interpolated offset (z from the stored remaining).
    let mut sk = sk43;
    sk.update_world_transform(Physics::Pose);
    let x = bone(&sk, "b").world_x;
    assert!(near(x, 0.1388889), "pose {x}");
}

#[test]
fn physics_4_3_limits_x_by_scale_x() {
    // limit 100, dt 0.025: q = 2.5. 4.3: qx = q * |scaleX| = 5, 4.2: qx = q * |scaleY| =
    // 2.5. Strength 0, so the clamped inertia offset is all that moves the bone; the
    // skeleton moved +10, the offset is clamp(-10) = -5 (4.3) / -2.5 (4.2).
    let body = r#""x": 1, "inertia": 1, "strength": 0, "limit": 100, "fps": 60"#;
    let run = |spine43: bool| {
        let data = physics_rig(body, spine43, ScaleYMode::None);
        let mut sk = Skeleton::new(data);
        sk.set_to_setup_pose();
        sk.scale_x = 2.0;
        sk.update_world_transform(Physics::Update);
        sk.x = 10.0;
        sk.update(0.025);
        sk.update_world_transform(Physics::Update);
        bone(&sk, "b").world_x
    };
    let (x43, x42) = (run(true), run(false));
    assert!(near(x43, 5.0), "4.3 {x43}");
    assert!(near(x42, 7.5), "4.2 {x42}");
}

#[test]
fn physics_4_3_scale_y_modes() {
    // scaleX influence 1, inertia 1, strength 0, no rotation. Bone of length 10 along +x;
    // the skeleton moves +dx, so the remembered center is dx behind:
    //   scaleOffset += (dx' * cos 0 + 0) * i / (l * worldScaleX) = -dx / 10
    //   s = 1 + scaleOffset; a *= s; then y per ScaleYMode:
    //   None: d = 1, Uniform: d = s, Volume: d = 1/|s| (|s| >= 0.7) else 4 - 3.67347 |s|.
    let body = r#""scaleX": 1, "inertia": 1, "strength": 0, "fps": 60"#;
    let case = |dx: f32, mode: ScaleYMode, spine43: bool| {
        let sk = physics_two_frames(&physics_rig(body, spine43, mode), dx, 0.025);
        let b = bone(&sk, "b");
        (b.a, b.d)
    };
    for (mode, d) in
        [(ScaleYMode::None, 1.0), (ScaleYMode::Uniform, 0.8), (ScaleYMode::Volume, 1.25)]
    {
        let (a, dd) = case(2.0, mode, true);
        assert!(near(a, 0.8) && near(dd, d), "{mode:?}: a {a} d {dd}");
        // 4.2 ignores the mode.
        let (a, dd) = case(2.0, mode, false);
        assert!(near(a, 0.8) && near(dd, 1.0), "4.2 {mode:?}: a {a} d {dd}");
    }
    // s = 0.6 < 0.7: Volume uses the linear part, 4 - 3.67347 * 0.6 = 1.795918.
    let (a, d) = case(4.0, ScaleYMode::Volume, true);
    assert!(near(a, 0.6) && near(d, 1.795918), "a {a} d {d}");
}

#[test]
fn physics_4_3_wind_and_gravity_follow_the_skeleton_directions() {
    // 4.3 translation forces are `(wind * windDir + gravity * gravityDir) * referenceScale`
    // times the skeleton scale (spine-cpp 4.3 `PhysicsConstraint::update`: `xVelocity +=
    // (ax - xOffset * e) * m` but `yVelocity -= (ay + yOffset * e) * m`), so with x and y
    // driven alike, a direction turned from +y to +x moves the same offset, negated, from
    // y to x. 4.2 has no directions: wind pushes x, gravity pulls y.
    let run = |body: &str, spine43: bool, wind: [f32; 2], gravity: [f32; 2]| {
        let data = physics_rig(body, spine43, ScaleYMode::None);
        let mut sk = Skeleton::new(data);
        sk.wind = wind;
        sk.gravity = gravity;
        sk.set_to_setup_pose();
        sk.update_world_transform(Physics::Update);
        for _ in 0..10 {
            sk.update(1.0 / 60.0);
            sk.update_world_transform(Physics::Update);
        }
        let b = bone(&sk, "b");
        (b.world_x, b.world_y)
    };
    let gravity = r#""x": 1, "y": 1, "strength": 0, "damping": 1, "gravity": 20, "fps": 60"#;
    let (x0, y0) = run(gravity, true, [1.0, 0.0], [0.0, 1.0]);
    assert!(x0 == 0.0 && y0 != 0.0, "default gravity moves y only: {x0} {y0}");
    let (x1, y1) = run(gravity, true, [1.0, 0.0], [1.0, 0.0]);
    assert!(near(x1, -y0) && y1 == 0.0, "gravity along x: {x1} {y1} vs {y0}");
    let (x2, y2) = run(gravity, false, [1.0, 0.0], [1.0, 0.0]);
    assert!(x2 == 0.0 && y2 != 0.0, "4.2 ignores the direction: {x2} {y2}");
    let wind = r#""x": 1, "y": 1, "strength": 0, "damping": 1, "wind": 20, "fps": 60"#;
    let (x3, y3) = run(wind, true, [1.0, 0.0], [0.0, 1.0]);
    assert!(x3 != 0.0 && y3 == 0.0, "default wind moves x only: {x3} {y3}");
    let (x4, y4) = run(wind, true, [0.0, 1.0], [0.0, 1.0]);
    assert!(x4 == 0.0 && near(y4, -x3), "wind along y: {x4} {y4} vs {x3}");
}

// ---------------------------------------------------------------------------------------
// Draw-order folder timelines (spine-cpp 4.3 `DrawOrderFolderTimeline`).

use spine_anim::{apply_animation, MixBlend, MixDirection};
use spine_model::{AnimationId, SlotId, Timeline};

/// Five slots `s0..s4` and one animation holding a folder timeline over `s1, s3, s4`:
/// key 0.25 = `s4, s1, s3`, key 1.0 = setup order (no changes).
fn folder_rig() -> Skeleton {
    let slots: Vec<String> =
        (0..5).map(|i| format!(r#"{{"name": "s{i}", "bone": "root"}}"#)).collect();
    let mut data = rig(&format!(
        r#""bones": [{{"name": "root"}}], "slots": [{}], "animations": {{"a": {{}}}}"#,
        slots.join(",")
    ));
    let folder = vec![SlotId::from_index(1), SlotId::from_index(3), SlotId::from_index(4)];
    let anim = &mut data.animations[0];
    anim.timelines.push(Timeline::DrawOrderFolder {
        slots: folder,
        times: vec![0.25, 1.0],
        orders: vec![
            Some(vec![SlotId::from_index(4), SlotId::from_index(1), SlotId::from_index(3)]),
            None,
        ],
    });
    anim.duration = 1.0;
    let mut sk = Skeleton::new(Arc::new(data));
    sk.set_to_setup_pose();
    sk
}

fn order(sk: &Skeleton) -> Vec<u32> {
    sk.draw_order.iter().map(|s| s.index() as u32).collect()
}

fn set_order(sk: &mut Skeleton, o: &[u32]) {
    sk.draw_order = o.iter().map(|&s| SlotId::from_index(s as usize)).collect();
}

fn apply_at(sk: &mut Skeleton, time: f32, blend: MixBlend, dir: MixDirection) {
    apply_animation(sk, AnimationId::from_index(0), time, time, false, None, 1.0, blend, dir);
}

#[test]
fn draw_order_folder_reorders_only_the_folder_positions() {
    let mut sk = folder_rig();
    assert_eq!(order(&sk), [0, 1, 2, 3, 4]);
    // Setup order: folder slots sit at positions 1, 3, 4 and receive s4, s1, s3.
    apply_at(&mut sk, 0.5, MixBlend::Replace, MixDirection::In);
    assert_eq!(order(&sk), [0, 4, 2, 1, 3]);
    // After a full draw-order change (3, 0, 1, 2, 4) the folder slots are at positions
    // 0 (s3), 2 (s1), 4 (s4): they receive s4, s1, s3 in that order, the rest stays.
    set_order(&mut sk, &[3, 0, 1, 2, 4]);
    apply_at(&mut sk, 0.5, MixBlend::Replace, MixDirection::In);
    assert_eq!(order(&sk), [4, 0, 1, 2, 3]);
    // The key without changes puts the folder back in setup order (s1, s3, s4) in the
    // same positions 0, 2, 4.
    apply_at(&mut sk, 1.5, MixBlend::Replace, MixDirection::In);
    assert_eq!(order(&sk), [1, 0, 3, 2, 4]);
}

#[test]
fn draw_order_folder_before_the_first_key_and_mixing_out() {
    // `if (out || time < frames[0]) { if (from != MixFrom_Current) setup(...) }`.
    let start = [0, 4, 2, 1, 3];
    for (time, dir) in [(0.1, MixDirection::In), (0.5, MixDirection::Out)] {
        for (blend, want) in [
            (MixBlend::Replace, start),
            (MixBlend::Add, start),
            (MixBlend::Setup, [0, 1, 2, 3, 4]),
            (MixBlend::First, [0, 1, 2, 3, 4]),
        ] {
            let mut sk = folder_rig();
            set_order(&mut sk, &start);
            apply_at(&mut sk, time, blend, dir);
            assert_eq!(order(&sk), want, "time {time} {dir:?} {blend:?}");
        }
    }
}

#[test]
fn draw_order_mixing_out_from_first_restores_setup_in_4_3() {
    // 4.3 `DrawOrderTimeline::apply`: `if (out || time < frames[0]) { if (from !=
    // MixFrom_Current) setup }`; 4.2 restores the setup order when mixing out only for
    // MixBlend_Setup.
    for (spine43, want) in [(true, [0, 1, 2, 3, 4]), (false, [4, 3, 2, 1, 0])] {
        let mut data = (*folder_rig().data).clone();
        data.behaviour.mix_from_add_model = spine43;
        let reversed: Vec<SlotId> = (0..5).rev().map(SlotId::from_index).collect();
        data.animations[0].timelines =
            vec![Timeline::DrawOrder { times: vec![0.0], orders: vec![Some(reversed)] }];
        let mut sk = Skeleton::new(Arc::new(data));
        sk.set_to_setup_pose();
        set_order(&mut sk, &[4, 3, 2, 1, 0]);
        apply_at(&mut sk, 0.5, MixBlend::First, MixDirection::Out);
        assert_eq!(order(&sk), want, "4.3 {spine43}");
    }
}

// ---------------------------------------------------------------------------------------
// Timelines under the 4.3 `MixFrom` / `add` model (what sliders apply with: `MixFrom_Current`,
// `add = additive`).

use spine_model::{ConstraintData, SliderData};

/// Bone `b` (scale 3 x 1) with physics constraint `p` (inertia 1); animation 0 keys b's
/// scale y to 2 (a factor of the setup 1) and p's inertia to 0.5; constraint 1 is a slider
/// (time 0, `mix`, `additive`) posing animation 0.
fn mixfrom_rig(spine43: bool, mix: f32, additive: bool) -> Skeleton {
    let mut data =
        rig(r#""bones": [{"name": "root"}, {"name": "b", "parent": "root", "scaleX": 3}],
           "physics": [{"name": "p", "bone": "b", "x": 1, "inertia": 1, "wind": 1}],
           "animations": {"drive": {
               "bones": {"b": {"scaley": [{"value": 2}]}},
               "physics": {"p": {"inertia": [{"value": 0.5}], "wind": [{"value": 0.5}]}}
           }}"#);
    data.behaviour.mix_from_add_model = spine43;
    data.constraints.push(ConstraintData {
        name: "slider".into(),
        skin_required: false,
        kind: ConstraintKind::Slider(SliderData {
            animation: AnimationId::from_index(0),
            time: 0.0,
            mix,
            looping: false,
            additive,
            local: false,
            bone: None,
        }),
    });
    let mut sk = Skeleton::new(Arc::new(data));
    sk.set_to_setup_pose();
    sk
}

fn inertia(sk: &Skeleton) -> f32 {
    match &sk.constraints[0].pose {
        spine_anim::constraints::ConstraintPose::Physics(p) => p.inertia,
        _ => f32::NAN,
    }
}

fn wind(sk: &Skeleton) -> f32 {
    match &sk.constraints[0].pose {
        spine_anim::constraints::ConstraintPose::Physics(p) => p.wind,
        _ => f32::NAN,
    }
}

#[test]
fn timelines_spine43_flag_is_set_for_4_3_data_only() {
    use spine_model::Behaviour;
    assert!(Behaviour::of("4.3.39-beta").unwrap().mix_from_add_model);
    assert!(!Behaviour::of("4.2.43").unwrap().mix_from_add_model);
    assert!(!Behaviour::of("3.8.99").unwrap().mix_from_add_model);
}

#[test]
fn slider_scale_y_mixes_from_the_current_scale_y_in_4_3() {
    // Slider mix 0.5, not additive (`MixFrom_Current`, add false), ScaleYTimeline value
    // 2 * setup 1 = 2, direction in: `base = |current| * sign(2)`, `base + (2 - base) / 2`.
    // 4.3 passes current = scale y = 1 -> 1.5; 4.2 passes current = scale x = 3 -> 2.5.
    for (spine43, want) in [(true, 1.5), (false, 2.5)] {
        let mut sk = mixfrom_rig(spine43, 0.5, false);
        sk.update_world_transform(Physics::None);
        let b = bone(&sk, "b");
        assert!(near(b.applied().scale_y, want), "4.3 {spine43}: {}", b.applied().scale_y);
        // The slider writes the applied pose only.
        assert_eq!(b.scale_y, 1.0);
    }
}

#[test]
fn additive_absolute_timelines_add_the_key_value_in_4_3() {
    // Physics wind (an additive absolute-valued timeline) at key value 0.5, current 1,
    // alpha 0.5, MixBlend::Add: 4.3 `current + value * alpha` = 1.25, 4.2 (add = replace)
    // `current + (value - current) * alpha` = 0.75. Inertia is not additive in 4.3
    // (spine-ts 4.3 `PhysicsConstraintTimeline.apply`: `if (add && !this.additive) add =
    // false`): 0.75 in both.
    for (spine43, want) in [(true, 1.25), (false, 0.75)] {
        let mut sk = mixfrom_rig(spine43, 0.0, false);
        apply_animation(
            &mut sk,
            AnimationId::from_index(0),
            0.0,
            0.0,
            false,
            None,
            0.5,
            MixBlend::Add,
            MixDirection::In,
        );
        assert!(near(wind(&sk), want), "4.3 {spine43}: wind {}", wind(&sk));
        assert!(near(inertia(&sk), 0.75), "4.3 {spine43}: inertia {}", inertia(&sk));
    }
    // A slider after the physics constraint (list order = update order) changes only the
    // applied pose of a constraint that already ran: the pose is untouched.
    let mut sk = mixfrom_rig(true, 0.5, true);
    sk.update_world_transform(Physics::None);
    assert_eq!(inertia(&sk), 1.0);
}

/// Slider `a` (additive, mix 1) keys the time of slider `b` (setup time 0.2) with the value
/// 0.5; `b` poses an animation rotating bone `r` by 100 degrees per second (0..1 s,
/// clamped). `a_first`: `a` comes before `b` in the constraint list.
fn slider_chain(a_first: bool) -> Skeleton {
    let mut data = rig(r#""bones": [{"name": "root"}, {"name": "r", "parent": "root"}],
           "animations": {
               "src": {"bones": {"r": {"rotate": [{"value": 0.5}]}}},
               "drv": {"bones": {"r": {"rotate": [{"value": 0}, {"time": 1, "value": 100}]}}}
           }"#);
    data.behaviour.mix_from_add_model = true;
    let find = |d: &SkeletonData, n: &str| d.animations.iter().position(|a| a.name == n).unwrap();
    let (src, drv) = (find(&data, "src"), find(&data, "drv"));
    let (ia, ib) = if a_first { (0, 1) } else { (1, 0) };
    // The 0.5 key of `src` becomes a slider-time key for `b`.
    let Timeline::Bone { curves, .. } = data.animations[src].timelines[0].clone() else {
        panic!("src keys a rotation")
    };
    assert_eq!(data.animations[src].table(&curves).value(0, 0), 0.5);
    data.animations[src].timelines = vec![Timeline::Slider {
        constraint: spine_model::ConstraintId::from_index(ib),
        property: spine_model::SliderProperty::Time,
        curves,
    }];
    let slider = |animation: usize, time: f32, additive: bool| ConstraintData {
        name: format!("slider{animation}").into(),
        skin_required: false,
        kind: ConstraintKind::Slider(SliderData {
            animation: AnimationId::from_index(animation),
            time,
            mix: 1.0,
            looping: false,
            additive,
            local: false,
            bone: None,
        }),
    };
    let mut list = vec![slider(src, 0.0, true), slider(drv, 0.2, false)];
    if !a_first {
        list.reverse();
    }
    assert!(matches!(&list[ia].kind, ConstraintKind::Slider(d) if d.additive));
    data.constraints = list;
    let mut sk = Skeleton::new(Arc::new(data));
    sk.set_to_setup_pose();
    sk
}

fn slider_time(sk: &Skeleton, i: usize) -> f32 {
    match &sk.constraints[i].pose {
        spine_anim::constraints::ConstraintPose::Slider(p) => p.time,
        _ => f32::NAN,
    }
}

#[test]
fn slider_values_applied_to_a_later_slider_hold_for_one_update() {
    // 4.3: `a` adds 0.5 * mix 1 to `b`'s applied time, reset from b's pose (0.2) every
    // update: b poses at 0.7 -> rotation 70 in every frame; b's pose keeps 0.2.
    let mut sk = slider_chain(true);
    for frame in 0..3 {
        sk.update_world_transform(Physics::None);
        let r = bone(&sk, "r").applied().rotation;
        assert!(near(r, 70.0), "frame {frame}: {r}");
        assert_eq!(slider_time(&sk, 1), 0.2, "frame {frame}");
    }
    // `a` after `b`: b already ran when a applies, so b poses at its own 0.2 -> 20.
    let mut sk = slider_chain(false);
    for frame in 0..3 {
        sk.update_world_transform(Physics::None);
        let r = bone(&sk, "r").applied().rotation;
        assert!(near(r, 20.0), "a after b, frame {frame}: {r}");
        assert_eq!(slider_time(&sk, 0), 0.2);
    }
}

// ---------------------------------------------------------------------------------------
// The generated 4.3 fixtures play with the 4.3 rules.

#[test]
fn generated_4_3_fixtures_play_with_the_4_3_rules() {
    use spine_anim::{AnimationState, AnimationStateData};
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/spine-4.3");
    let mut folders = 0;
    for name in ["physics.skel", "draw-order.skel", "showcase-pro.skel", "sliders.skel"] {
        let data = spine_model::load_binary(&std::fs::read(dir.join(name)).unwrap(), None).unwrap();
        let b = &data.behaviour;
        assert!(
            b.physics_lagged_offsets && b.mix_from_add_model && b.ik_keeps_parent_shear,
            "{name}"
        );
        let data = Arc::new(data);
        for a in 0..data.animations.len() {
            folders += data.animations[a]
                .timelines
                .iter()
                .filter(|t| matches!(t, Timeline::DrawOrderFolder { .. }))
                .count();
            let mut sk = Skeleton::new(data.clone());
            sk.set_to_setup_pose();
            let mut state = AnimationState::new(Arc::new(AnimationStateData::new(data.clone())));
            state.set_animation(0, Some(AnimationId::from_index(a)), true);
            for _ in 0..90 {
                let dt = 1.0 / 60.0;
                state.update(dt);
                state.apply(&mut sk);
                state.clear_events();
                sk.update(dt);
                sk.update_world_transform(Physics::Update);
                // (No finiteness check: the random rigs include singular bones, e.g. a zero
                // scale, which give non-finite world values under the 4.2 rules too.)
                // The draw order stays a permutation of the slots.
                let mut seen = vec![false; sk.slots.len()];
                for s in &sk.draw_order {
                    assert!(!std::mem::replace(&mut seen[s.index()], true), "{name} dup");
                }
                assert!(seen.iter().all(|&x| x), "{name} anim {a}: draw order lost a slot");
            }
        }
    }
    assert!(folders > 0, "the fixtures hold draw-order folder timelines");
}

// ---------------------------------------------------------------------------------------
// 4.3 lazy bone poses (`BonePose::modifyWorld` / `modifyLocal` / `resetWorld`).

use spine_model::{
    transform_slot as ts, FromProperty, ToProperty, TransformData, TransformProperty,
    TransformSolver,
};

/// A 4.3 from/to transform constraint: `from` of `source` to `to` (scale `scale`) of `bone`,
/// additive, mix 1 on the `to` property.
fn transform43(
    source: u32,
    bone: u32,
    from: TransformProperty,
    to: TransformProperty,
    scale: f32,
    local_target: bool,
) -> ConstraintData {
    let slot = match to {
        TransformProperty::Rotate => ts::ROTATE,
        TransformProperty::X => ts::X,
        TransformProperty::Y => ts::Y,
        TransformProperty::ScaleX => ts::SCALE_X,
        TransformProperty::ScaleY => ts::SCALE_Y,
        TransformProperty::ShearY => ts::SHEAR_Y,
    };
    let mut mixes = [0.0; 6];
    mixes[slot] = 1.0;
    ConstraintData {
        name: format!("t{bone}").into(),
        skin_required: false,
        kind: ConstraintKind::Transform(TransformData {
            bones: vec![spine_model::BoneId::from_index(bone as usize)],
            source: spine_model::BoneId::from_index(source as usize),
            local_source: false,
            local_target,
            additive: true,
            clamp: false,
            properties: vec![FromProperty {
                property: from,
                offset: 0.0,
                to: vec![ToProperty { property: to, offset: 0.0, max: 0.0, scale }],
            }],
            offsets: [0.0; 6],
            mixes,
            solver: TransformSolver::FromTo,
        }),
    }
}

#[test]
fn lazy_pose_4_3_keeps_a_child_world_change_when_a_later_constraint_changes_the_parent() {
    // Bones: root, s (source, x 5), p (parent, at the origin), c (child of p, x 10).
    // t0 (world target c): `modifyWorld(c)`, c.worldX += s.worldX = 5 -> c at (15, 0), its
    // local pose stale. t1 (local target p): `modifyLocal(p)` walks p's children
    // (`resetWorld`): c's stale local pose is recomputed from its world transform under p
    // as it is then (`updateLocalTransform`: x 15), and c's world becomes invalid; p turns
    // by 18 * s.worldX = 90 degrees. The update cache then recomputes p, and c from x 15
    // under the turned p: (0, 15). (spine-ts 4.3.13 `BonePose.resetWorld`; the 4.2 eager
    // update keeps the change in c's applied pose the same way.)
    for (lazy, want_y) in [(true, 15.0), (false, 15.0)] {
        let mut data = rig(r#""bones": [{"name": "root"}, {"name": "s", "parent": "root", "x": 5},
                {"name": "p", "parent": "root"}, {"name": "c", "parent": "p", "x": 10}]"#);
        data.behaviour.lazy_bone_poses = lazy;
        let id = |n: &str| data.find_bone(n).unwrap().index() as u32;
        let (s, p, c) = (id("s"), id("p"), id("c"));
        data.constraints = vec![
            transform43(s, c, TransformProperty::X, TransformProperty::X, 1.0, false),
            transform43(s, p, TransformProperty::X, TransformProperty::Rotate, 18.0, true),
        ];
        let mut sk = Skeleton::new(Arc::new(data));
        sk.set_to_setup_pose();
        for frame in 0..2 {
            sk.update_world_transform(Physics::None);
            let (bp, bc) = (bone(&sk, "p"), bone(&sk, "c"));
            assert!(
                near(bp.applied().rotation, 90.0),
                "lazy {lazy} frame {frame}: p {}",
                bp.applied().rotation
            );
            assert!(
                near(bc.world_x, 0.0) && near(bc.world_y, want_y),
                "lazy {lazy} frame {frame}: c ({}, {})",
                bc.world_x,
                bc.world_y
            );
        }
    }
}

#[test]
fn lazy_pose_4_3_keeps_a_child_world_change_made_after_the_parent_changed() {
    // Same rig, constraints swapped: t1 (p rotates 90) runs first, then t0 moves c by 5 in
    // world x. Nothing resets c afterwards, so both runtimes keep it: c = (0, 10) + (5, 0).
    for lazy in [true, false] {
        let mut data = rig(r#""bones": [{"name": "root"}, {"name": "s", "parent": "root", "x": 5},
                {"name": "p", "parent": "root"}, {"name": "c", "parent": "p", "x": 10}]"#);
        data.behaviour.lazy_bone_poses = lazy;
        let id = |n: &str| data.find_bone(n).unwrap().index() as u32;
        let (s, p, c) = (id("s"), id("p"), id("c"));
        data.constraints = vec![
            transform43(s, p, TransformProperty::X, TransformProperty::Rotate, 18.0, true),
            transform43(s, c, TransformProperty::X, TransformProperty::X, 1.0, false),
        ];
        let mut sk = Skeleton::new(Arc::new(data));
        sk.set_to_setup_pose();
        sk.update_world_transform(Physics::None);
        let bc = bone(&sk, "c");
        assert!(
            near(bc.world_x, 5.0) && near(bc.world_y, 10.0),
            "lazy {lazy}: ({}, {})",
            bc.world_x,
            bc.world_y
        );
    }
}

// ---------------------------------------------------------------------------------------
// Draw-order folder property ids and `AnimationState::from` (spine-cpp 4.3).

use spine_anim::timeline::{property_ids, DRAW_ORDER_PROPERTY_ID};
use spine_anim::{AnimationState, AnimationStateData};

/// Five slots `s0..s4`; animation `i` holds `timelines[i]`, every key at 0.5 (so a state
/// applied at 0.1 is before the first key).
fn folder_state_rig(spine43: bool, timelines: Vec<Timeline>) -> Arc<SkeletonData> {
    let slots: Vec<String> =
        (0..5).map(|i| format!(r#"{{"name": "s{i}", "bone": "root"}}"#)).collect();
    let anims: Vec<String> = (0..timelines.len()).map(|i| format!(r#""a{i}": {{}}"#)).collect();
    let mut data = rig(&format!(
        r#""bones": [{{"name": "root"}}], "slots": [{}], "animations": {{{}}}"#,
        slots.join(","),
        anims.join(",")
    ));
    data.behaviour.mix_from_add_model = spine43;
    for (i, tl) in timelines.into_iter().enumerate() {
        let a = data.find_animation(&format!("a{i}")).unwrap();
        data.animations[a.index()].timelines = vec![tl];
        data.animations[a.index()].duration = 1.0;
    }
    Arc::new(data)
}

fn folder(slots: &[u32]) -> Timeline {
    let slots: Vec<SlotId> = slots.iter().map(|&s| SlotId::from_index(s as usize)).collect();
    let reversed: Vec<SlotId> = slots.iter().rev().copied().collect();
    Timeline::DrawOrderFolder { slots, times: vec![0.5], orders: vec![Some(reversed)] }
}

/// A draw-order timeline reversing the five slots from `time` on.
fn plain_draw_order(time: f32) -> Timeline {
    let reversed: Vec<SlotId> = (0..5).rev().map(SlotId::from_index).collect();
    Timeline::DrawOrder { times: vec![time], orders: vec![Some(reversed)] }
}

/// Plays animation `a{i}` on track `i` (all tracks start together), starting from draw
/// order `start`, and returns the draw order after applying at track time 0.1.
fn play_tracks(data: &Arc<SkeletonData>, start: &[u32]) -> Vec<u32> {
    let mut sk = Skeleton::new(data.clone());
    sk.set_to_setup_pose();
    set_order(&mut sk, start);
    let mut state = AnimationState::new(Arc::new(AnimationStateData::new(data.clone())));
    for i in 0..data.animations.len() {
        let a = data.find_animation(&format!("a{i}")).unwrap();
        state.set_animation(i, Some(a), false);
    }
    state.update(0.1);
    state.apply(&mut sk);
    order(&sk)
}

#[test]
fn draw_order_folder_property_ids_are_one_per_folder_slot_in_4_3() {
    // `DrawOrderFolderTimeline(...)`: `ids.add(Property_DrawOrderFolder << 32 | slots[i])`.
    for slots in [&[1u32, 3][..], &[0, 1, 2, 3, 4][..]] {
        let tl = folder(slots);
        let data = folder_state_rig(true, vec![tl.clone()]);
        let mut spill = Vec::new();
        let ids = property_ids(&data, &tl, &mut spill);
        let ids = ids.get(&spill);
        assert_eq!(ids.len(), slots.len(), "one id per folder slot");
        assert!(!ids.contains(&DRAW_ORDER_PROPERTY_ID));
        let kind = ids[0] >> 32;
        for (id, &s) in ids.iter().zip(slots) {
            assert_eq!(id >> 32, kind, "one property kind");
            assert_eq!(id & 0xffff_ffff, s as i64, "low bits = slot index");
        }
        // The plain draw-order timeline keeps its single id.
        let plain = property_ids(&data, &plain_draw_order(0.5), &mut spill);
        assert_eq!(plain.get(&spill), [DRAW_ORDER_PROPERTY_ID]);
        // Before 4.3 a folder (never produced by a 4.2 loader) shares the draw-order id.
        let old = folder_state_rig(false, vec![tl.clone()]);
        let mut spill = Vec::new();
        assert_eq!(property_ids(&old, &tl, &mut spill).get(&spill), [DRAW_ORDER_PROPERTY_ID]);
    }
}

#[test]
fn draw_order_folders_on_disjoint_slots_are_both_first_in_4_3() {
    // Track 0 folds s1, s3, s4; track 1 folds s0, s2. 4.3 `from`: none of track 1's folder
    // ids is owned and no draw-order timeline was seen, so it is `MixFrom_Setup` and,
    // before its first key, `setup` puts s0, s2 back at the positions holding them.
    // Start [2, 1, 0, 3, 4]: track 0's positions 1, 3, 4 already hold s1, s3, s4; track 1
    // restores s0 at position 0 and s2 at position 2.
    let start = [2, 1, 0, 3, 4];
    let data = folder_state_rig(true, vec![folder(&[1, 3, 4]), folder(&[0, 2])]);
    assert_eq!(play_tracks(&data, &start), [0, 1, 2, 3, 4]);
    // With the shared 4.2 id, track 1's folder is subsequent (blend replace) and keeps
    // the current order.
    let data = folder_state_rig(false, vec![folder(&[1, 3, 4]), folder(&[0, 2])]);
    assert_eq!(play_tracks(&data, &start), start);
}

#[test]
fn draw_order_folder_overlapping_another_track_mixes_from_current_in_4_3() {
    // Track 1 folds s2, s3; track 0 already owns s3's folder id, so 4.3 `from` returns
    // `MixFrom_Current` and the folder leaves the order alone before its first key (even
    // though s2's id is new). Start [3, 1, 0, 2, 4]: track 0 (blend first, before its key)
    // puts s1, s3, s4 at the positions 0, 1, 4 holding them -> [1, 3, 0, 2, 4]; track 1
    // keeps it. Were track 1 first, `setup` would put s2, s3 at positions 1, 3:
    // [1, 2, 0, 3, 4].
    let data = folder_state_rig(true, vec![folder(&[1, 3, 4]), folder(&[2, 3])]);
    assert_eq!(play_tracks(&data, &[3, 1, 0, 2, 4]), [1, 3, 0, 2, 4]);
}

#[test]
fn draw_order_folder_after_a_draw_order_timeline_mixes_from_current_in_4_3() {
    // Track 0 has a plain draw-order timeline keyed at 0 (reverses to [4, 3, 2, 1, 0]);
    // 4.3 `from` for the folder (s0, s2) on track 1: its folder ids are new, but
    // `propertyIDs.get(DrawOrderTimeline::getPropertyId())` is owned by another track ->
    // `MixFrom_Current`: before its first key the order stays. Were it first, `setup`
    // would put s0, s2 at the positions 2, 4 holding them: [4, 3, 0, 1, 2].
    let data = folder_state_rig(true, vec![plain_draw_order(0.0), folder(&[0, 2])]);
    assert_eq!(play_tracks(&data, &[0, 1, 2, 3, 4]), [4, 3, 2, 1, 0]);
}

#[test]
fn draw_order_timeline_after_a_folder_is_still_first_in_4_3() {
    // The plain draw-order timeline only checks its own id: a folder on track 0 does not
    // make it subsequent, so on track 1 it is `MixFrom_Setup` and, before its first key,
    // restores the full setup order. With the shared 4.2 id it would keep the order.
    let start = [4, 3, 2, 1, 0];
    let data = folder_state_rig(true, vec![folder(&[1, 3]), plain_draw_order(0.5)]);
    assert_eq!(play_tracks(&data, &start), [0, 1, 2, 3, 4]);
    let data = folder_state_rig(false, vec![folder(&[1, 3]), plain_draw_order(0.5)]);
    // Shared id: track 0's folder (blend first, before its key) puts s1, s3 at the
    // positions 3 and 1 holding them -> [4, 1, 2, 3, 0]; track 1 is subsequent (blend
    // replace) and keeps that order.
    assert_eq!(play_tracks(&data, &start), [4, 1, 2, 3, 0]);
}
