//! AnimationState and timeline rules of the 3.x runtimes on small crafted rigs: the
//! expected values follow by hand from the formulas of spine-c 3.5/3.6 and spine-cpp
//! 3.7/3.8 (the goldens in `oracle_versions.rs` cover the walk → run run of the real rigs).

use std::sync::Arc;

use spine_anim::{
    apply_animation, AnimationState, AnimationStateData, MixBlend, MixDirection, Skeleton,
    StateEventType,
};
use spine_format::SpineVersion;
use spine_model::{AddDelay, Behaviour, HoldRules, SkeletonData};

fn rig(version: &str, body: &str) -> Arc<SkeletonData> {
    let text = format!(r#"{{"skeleton": {{"spine": "{version}"}}, {body}}}"#);
    Arc::new(spine_model::load_json(&text, None).unwrap())
}

const MIX_RIG: &str = r#""bones": [{"name": "root"}, {"name": "b", "parent": "root"}],
"animations": {
    "a": {"bones": {"b": {"translate": [{"time": 0, "x": 10, "y": 0}]}}},
    "b": {"bones": {"b": {"translate": [{"time": 0, "x": 20, "y": 0}]}}}
}"#;

/// `b`'s x after mixing from `a` to `b` (mix duration 1 s) for half the mix.
fn half_mix_x(version: &str) -> f32 {
    let data = rig(version, MIX_RIG);
    let mut asd = AnimationStateData::new(data.clone());
    asd.set_mix_by_name("a", "b", 1.0);
    let mut state = AnimationState::new(Arc::new(asd));
    let mut sk = Skeleton::new(data);
    sk.set_to_setup_pose();
    state.set_animation_by_name(0, "a", true).unwrap();
    state.update(0.0);
    state.apply(&mut sk);
    state.set_animation_by_name(0, "b", true).unwrap();
    state.update(0.5);
    state.apply(&mut sk);
    sk.bones[sk.find_bone("b").unwrap().index()].x
}

#[test]
fn spine35_mix_fades_the_entry_mixed_out_without_hold() {
    // spine-c 3.5: `a` from setup with alpha 1 - mix, then `b` over it with alpha mix:
    // x = 10 * (1 - m) + (20 - 10 * (1 - m)) * m = 12.5 at m = 0.5.
    let x35 = half_mix_x("3.5.51");
    assert!((x35 - 12.5).abs() < 1e-5, "{x35}");
    // 3.6+ hold `a` (the property is keyed by `b` too): x = 10 + (20 - 10) * m = 15.
    for v in ["3.6.52", "3.8.99", "4.2.22"] {
        let x = half_mix_x(v);
        assert!((x - 15.0).abs() < 1e-5, "{v}: {x}");
    }
}

#[test]
fn spine35_mix_ends_once_the_mix_time_reaches_the_duration() {
    let data = rig("3.5.51", MIX_RIG);
    let mut asd = AnimationStateData::new(data.clone());
    asd.set_mix_by_name("a", "b", 0.25);
    let mut state = AnimationState::new(Arc::new(asd));
    let mut sk = Skeleton::new(data);
    sk.set_to_setup_pose();
    state.set_animation_by_name(0, "a", true).unwrap();
    state.update(0.0);
    state.apply(&mut sk);
    let b = state.set_animation_by_name(0, "b", true).unwrap();
    for _ in 0..3 {
        state.update(0.1);
        state.apply(&mut sk);
    }
    // mix time 0.3 >= 0.25: the next update ends `a`.
    assert!(state.entry(b).mixing_from.is_some());
    state.update(0.1);
    assert!(state.entry(b).mixing_from.is_none());
    state.apply(&mut sk);
    assert_eq!(sk.bones[sk.find_bone("b").unwrap().index()].x, 20.0);
}

#[test]
fn spine_c_mix_time_follows_the_entry_time_scale() {
    for (version, expected) in [("3.5.51", 0.2), ("3.6.52", 0.2), ("3.7.94", 0.1), ("4.2.22", 0.1)]
    {
        let data = rig(version, MIX_RIG);
        let mut asd = AnimationStateData::new(data.clone());
        asd.set_mix_by_name("a", "b", 1.0);
        let mut state = AnimationState::new(Arc::new(asd));
        let mut sk = Skeleton::new(data);
        sk.set_to_setup_pose();
        state.set_animation_by_name(0, "a", true).unwrap();
        state.update(0.0);
        state.apply(&mut sk);
        let b = state.set_animation_by_name(0, "b", true).unwrap();
        state.entry_mut(b).time_scale = 2.0;
        state.update(0.1);
        let t = state.entry(b).mix_time;
        assert!((t - expected).abs() < 1e-6, "{version}: mix time {t}");
    }
}

const TWO_COLOR_RIG: &str = r#""bones": [{"name": "root"}],
"slots": [{"name": "s", "bone": "root", "color": "ffffffff", "dark": "000000"}],
"animations": {
    "tint": {"slots": {"s": {"twoColor": [{"time": 1, "light": "ffffffff", "dark": "ffffff"}]}}}
}"#;

/// Slot colors (light r, light a, dark r) after applying `tint` before its first key with
/// `MixBlend::First`, alpha 0.5, from light (0.5, 0.5, 0.5, 0), dark (0.5, 0.5, 0.5).
fn before_first_key(version: &str) -> (f32, f32, f32) {
    let data = rig(version, TWO_COLOR_RIG);
    let anim = data.find_animation("tint").unwrap();
    let mut sk = Skeleton::new(data);
    sk.set_to_setup_pose();
    let s = &mut sk.slots[0];
    assert!(s.has_dark_color);
    s.color = spine_model::Color { r: 0.5, g: 0.5, b: 0.5, a: 0.0 };
    s.dark_color = spine_model::Color { r: 0.5, g: 0.5, b: 0.5, a: 1.0 };
    apply_animation(&mut sk, anim, 0.0, 0.0, false, None, 0.5, MixBlend::First, MixDirection::In);
    let s = &sk.slots[0];
    (s.color.r, s.color.a, s.dark_color.r)
}

#[test]
fn spine_cpp_3_7_two_color_first_blend_moves_away_from_setup_unclamped() {
    // spine-cpp 3.7/3.8: color += (color - setup) * alpha, written without clamping.
    for v in ["3.7.94", "3.8.99"] {
        let (r, a, dr) = before_first_key(v);
        assert_eq!((r, a, dr), (0.25, -0.5, 0.75), "{v}");
    }
    // spine-c 3.6 (`SP_MIX_POSE_CURRENT`): towards the setup colors.
    let (r, a, dr) = before_first_key("3.6.52");
    assert_eq!((r, a, dr), (0.75, 0.5, 0.25));
}

#[test]
fn state_flags_follow_the_runtime_of_each_version() {
    for (v, mix35, time_scale_c, away) in [
        ("3.5.51", true, true, false),
        ("3.6.52", false, true, false),
        ("3.7.94", false, false, true),
        ("3.8.99", false, false, true),
    ] {
        let b = Behaviour::of(v).unwrap();
        assert_eq!(b.mix_without_hold, mix35, "{v}");
        assert_eq!(b.mix_time_scaled_by_entry, time_scale_c, "{v}");
        assert_eq!(b.rotate_mix_tests_before_wrap, time_scale_c, "{v}");
        assert_eq!(b.state_mixed_in_from_setup, time_scale_c, "{v}");
        assert_eq!(b.two_color_first_away, away, "{v}");
        let line = b.spine_version;
        let hold = if line >= SpineVersion::V3_8 {
            HoldRules::Spine38
        } else if line >= SpineVersion::V3_7 {
            HoldRules::Spine37
        } else {
            HoldRules::Spine36
        };
        assert_eq!(b.hold_rules, hold, "{v}");
        assert_eq!(b.first_blend_resets_slots, !time_scale_c, "{v}");
        assert_eq!(b.slot_out_applies_keys, line < SpineVersion::V3_8, "{v}");
        assert!(b.loop_complete_wrapped, "{v}");
    }
    let b = Behaviour::of("4.2.22").unwrap();
    assert!(!b.mix_without_hold && !b.mix_time_scaled_by_entry);
    assert!(!b.rotate_mix_tests_before_wrap && !b.two_color_first_away);
    assert!(!b.state_mixed_in_from_setup);
    assert_eq!(b.hold_rules, HoldRules::Spine38);
    assert!(b.first_blend_resets_slots && !b.slot_out_applies_keys);
    assert!(!b.loop_complete_wrapped);
    assert!(Behaviour::of("4.1.24").unwrap().loop_complete_wrapped);
    assert_eq!(b.add_delay, AddDelay::Spine4);
}

#[test]
fn spine_c_higher_track_resets_to_setup_before_its_first_key() {
    let body = r#""bones": [{"name": "root"}, {"name": "b", "parent": "root"}],
"animations": {
    "a": {"bones": {"b": {"translate": [{"time": 0, "x": 10, "y": 0}]}}},
    "late": {"bones": {"b": {"translate": [{"time": 1, "x": 30, "y": 0}]}}}
}"#;
    for (version, expected) in
        [("3.5.51", 0.0), ("3.6.52", 0.0), ("3.7.94", 10.0), ("3.8.99", 10.0)]
    {
        let data = rig(version, body);
        let mut state = AnimationState::new(Arc::new(AnimationStateData::new(data.clone())));
        let mut sk = Skeleton::new(data);
        sk.set_to_setup_pose();
        state.set_animation_by_name(0, "a", true).unwrap();
        state.set_animation_by_name(1, "late", false).unwrap();
        state.update(0.5);
        state.apply(&mut sk);
        let x = sk.bones[sk.find_bone("b").unwrap().index()].x;
        assert_eq!(x, expected, "{version}");
    }
}

#[test]
fn hold_mix_of_an_interrupted_mix_follows_each_runtime() {
    // a (x 10) -> b (x 20, mix 1) interrupted at half by c (keys another bone, mix 1),
    // then 0.25 s: b's mix is 0.75, c's 0.25, c's interrupt alpha 0.5.
    let body = r#""bones": [{"name": "root"}, {"name": "b", "parent": "root"},
    {"name": "c", "parent": "root"}],
"animations": {
    "a": {"bones": {"b": {"translate": [{"time": 0, "x": 10, "y": 0}]}}},
    "b": {"bones": {"b": {"translate": [{"time": 0, "x": 20, "y": 0}]}}},
    "c": {"bones": {"c": {"translate": [{"time": 0, "x": 5, "y": 0}]}}}
}"#;
    for (version, expected) in [
        // No hold: a from setup with alpha 1 - 0.75, b over it with 0.5 * (1 - 0.25).
        ("3.5.51", 2.5 + 17.5 * 0.375),
        // a is held and fades with c (c lacks the property): 10 * 0.75, then b over it.
        ("3.6.52", 7.5 + 12.5 * 0.375),
        // 3.7 fades with a itself, whose mix duration is 0: a is held at full alpha.
        ("3.7.94", 10.0 + 10.0 * 0.375),
        ("3.8.99", 7.5 + 12.5 * 0.375),
        ("4.2.22", 7.5 + 12.5 * 0.375),
    ] {
        let data = rig(version, body);
        let mut asd = AnimationStateData::new(data.clone());
        asd.default_mix = 1.0;
        let mut state = AnimationState::new(Arc::new(asd));
        let mut sk = Skeleton::new(data);
        sk.set_to_setup_pose();
        state.set_animation_by_name(0, "a", true).unwrap();
        state.update(0.0);
        state.apply(&mut sk);
        state.set_animation_by_name(0, "b", true).unwrap();
        state.update(0.5);
        state.apply(&mut sk);
        state.set_animation_by_name(0, "c", true).unwrap();
        state.update(0.25);
        state.apply(&mut sk);
        let x = sk.bones[sk.find_bone("b").unwrap().index()].x;
        assert!((x - expected).abs() < 1e-4, "{version}: {x} vs {expected}");
    }
}

#[test]
fn spine_c_rotation_mix_leaves_the_pose_before_the_first_key() {
    // a (rotation 90) -> b (first key at 1 s), half way through a 1 s mix at b's time 0.5.
    let body = r#""bones": [{"name": "root"}, {"name": "b", "parent": "root"}],
"animations": {
    "a": {"bones": {"b": {"rotate": [{"time": 0, "angle": 90}]}}},
    "b": {"bones": {"b": {"rotate": [{"time": 1, "angle": 30}]}}}
}"#;
    for (version, expected) in [
        // a fades from setup with alpha 0.5; b (not first) leaves the pose: 45.
        ("3.5.51", 45.0),
        // a is held at 90; spine-c 3.6 leaves the current pose before b's first key.
        ("3.6.52", 90.0),
        // 3.7+ mix the held 90 towards the setup 0 with alpha 0.5.
        ("3.7.94", 45.0),
        ("3.8.99", 45.0),
    ] {
        let data = rig(version, body);
        let mut asd = AnimationStateData::new(data.clone());
        asd.default_mix = 1.0;
        let mut state = AnimationState::new(Arc::new(asd));
        let mut sk = Skeleton::new(data);
        sk.set_to_setup_pose();
        state.set_animation_by_name(0, "a", true).unwrap();
        state.update(0.0);
        state.apply(&mut sk);
        state.set_animation_by_name(0, "b", true).unwrap();
        state.update(0.5);
        state.apply(&mut sk);
        let r = sk.bones[sk.find_bone("b").unwrap().index()].rotation;
        assert!((r - expected).abs() < 1e-4, "{version}: {r} vs {expected}");
    }
}

const SLOT_RIG: &str = r#""bones": [{"name": "root"}],
"slots": [{"name": "s", "bone": "root", "attachment": "x"}, {"name": "t", "bone": "root"}],
"skins": {"default": {"s": {
    "x": {"type": "point"}, "y": {"type": "point"}, "z": {"type": "point"}
}}},
"animations": {
    "late": {
        "slots": {"s": {"attachment": [{"time": 1, "name": "z"}]}},
        "drawOrder": [{"time": 1, "offsets": [{"slot": "t", "offset": -1}]}]
    },
    "early": {
        "slots": {"s": {"attachment": [{"time": 0, "name": "z"}]}},
        "drawOrder": [{"time": 0, "offsets": [{"slot": "t", "offset": -1}]}]
    }
}"#;

/// (attachment of `s`, draw order) after applying `anim` at 0.5 s with `blend` and
/// `direction`, from attachment `y` and the reversed draw order.
fn slot_state(
    version: &str,
    anim: &str,
    blend: MixBlend,
    direction: MixDirection,
) -> (Option<String>, Vec<u32>) {
    let data = rig(version, SLOT_RIG);
    let anim = data.find_animation(anim).unwrap();
    let mut sk = Skeleton::new(data.clone());
    sk.set_to_setup_pose();
    let s = data.find_slot("s").unwrap();
    sk.set_attachment_by_name(s, Some("y"));
    sk.draw_order.reverse();
    apply_animation(&mut sk, anim, 0.5, 0.5, false, None, 0.5, blend, direction);
    let name = sk.slots[s.index()].attachment.map(|a| data.attachment(a).name.to_string());
    (name, sk.draw_order.iter().map(|d| d.index() as u32).collect())
}

#[test]
fn spine_c_first_blend_leaves_slots_before_the_first_key() {
    let keep = (Some("y".to_owned()), vec![1, 0]);
    let setup = (Some("x".to_owned()), vec![0, 1]);
    for v in ["3.5.51", "3.6.52"] {
        assert_eq!(slot_state(v, "late", MixBlend::First, MixDirection::In), keep, "{v}");
    }
    for v in ["3.7.94", "3.8.99"] {
        assert_eq!(slot_state(v, "late", MixBlend::First, MixDirection::In), setup, "{v}");
    }
}

#[test]
fn slot_timelines_mixing_out_apply_keys_before_3_8() {
    let keyed = (Some("z".to_owned()), vec![1, 0]);
    let keep = (Some("y".to_owned()), vec![1, 0]);
    for v in ["3.5.51", "3.6.52", "3.7.94"] {
        let got = slot_state(v, "early", MixBlend::Replace, MixDirection::Out);
        assert_eq!(got.0, keyed.0, "{v}");
    }
    assert_eq!(slot_state("3.8.99", "early", MixBlend::Replace, MixDirection::Out), keep);
    let setup = (Some("x".to_owned()), vec![0, 1]);
    for v in ["3.5.51", "3.7.94", "3.8.99"] {
        assert_eq!(slot_state(v, "early", MixBlend::Setup, MixDirection::Out), setup, "{v}");
    }
}

#[test]
fn loop_complete_compares_wrapped_times_before_4_2() {
    let body = r#""bones": [{"name": "root"}, {"name": "b", "parent": "root"}],
"animations": {"a": {"bones": {"b": {"translate": [{"time": 0, "x": 0}, {"time": 1, "x": 10}]}}}}"#;
    // Track time 0 -> 1.5: fmod(0, 1) > fmod(1.5, 1) is false, one whole cycle is done.
    for (version, completes) in [("3.5.51", 0), ("3.8.99", 0), ("4.1.24", 0), ("4.2.22", 1)] {
        let data = rig(version, body);
        let mut state = AnimationState::new(Arc::new(AnimationStateData::new(data.clone())));
        let mut sk = Skeleton::new(data);
        sk.set_to_setup_pose();
        state.set_animation_by_name(0, "a", true).unwrap();
        state.update(0.0);
        state.apply(&mut sk);
        state.clear_events();
        state.update(1.5);
        state.apply(&mut sk);
        let n = state.events().iter().filter(|e| e.kind == StateEventType::Complete).count();
        assert_eq!(n, completes, "{version}");
        // 1.5 -> 2.25: fmod(1.5) = 0.5 > fmod(2.25) = 0.25 completes everywhere.
        state.clear_events();
        state.update(0.75);
        state.apply(&mut sk);
        let n = state.events().iter().filter(|e| e.kind == StateEventType::Complete).count();
        assert_eq!(n, 1, "{version}");
    }
}

#[test]
fn add_animation_delay_follows_each_runtime() {
    let body = r#""bones": [{"name": "root"}, {"name": "b", "parent": "root"}],
"animations": {
    "a": {"bones": {"b": {"translate": [{"time": 0, "x": 0}, {"time": 1, "x": 10}]}}},
    "still": {"bones": {"b": {"translate": [{"time": 0, "x": 5}]}}}
}"#;
    // Non-looping `a` (duration 1) at track time 1.5, mix 0.25; then after `still`
    // (duration 0) at track time 0.5.
    for (version, after_a, after_still) in [
        ("3.5.51", 2.0 - 0.25, 0.0),
        ("3.6.52", 1.0 - 0.25, 0.0),
        ("3.7.94", 1.5 - 0.25, 0.5),
        ("3.8.99", 1.5 - 0.25, 0.5),
        ("4.2.22", 1.5 - 0.25, 0.5 - 0.25),
    ] {
        let data = rig(version, body);
        let mut asd = AnimationStateData::new(data.clone());
        asd.default_mix = 0.25;
        let asd = Arc::new(asd);
        let mut state = AnimationState::new(asd.clone());
        state.set_animation_by_name(0, "a", false).unwrap();
        state.update(1.5);
        let e = state.add_animation_by_name(0, "a", false, 0.0).unwrap();
        let d = state.entry(e).delay;
        assert!((d - after_a).abs() < 1e-6, "{version}: {d} vs {after_a}");
        let mut state = AnimationState::new(asd);
        state.set_animation_by_name(0, "still", false).unwrap();
        state.update(0.5);
        let e = state.add_animation_by_name(0, "a", false, 0.0).unwrap();
        let d = state.entry(e).delay;
        assert!((d - after_still).abs() < 1e-6, "{version}: {d} vs {after_still}");
    }
}

#[test]
fn add_empty_animation_delay_follows_each_runtime() {
    let body = r#""bones": [{"name": "root"}, {"name": "b", "parent": "root"}],
"animations": {"a": {"bones": {"b": {"translate": [{"time": 0, "x": 0}, {"time": 1, "x": 10}]}}}}"#;
    // Non-looping `a` (duration 1) at track time 0.5, default mix 0.25, empty mix 0.5.
    for (version, expected) in [
        ("3.5.51", -0.5 + 1.0 - 0.25),
        ("3.6.52", -0.5 + 1.0 - 0.25),
        ("3.8.99", -0.5 + 1.0 - 0.25),
        ("4.2.22", 1.0 - 0.5),
    ] {
        let data = rig(version, body);
        let mut asd = AnimationStateData::new(data.clone());
        asd.default_mix = 0.25;
        let mut state = AnimationState::new(Arc::new(asd));
        state.set_animation_by_name(0, "a", false).unwrap();
        state.update(0.5);
        let e = state.add_empty_animation(0, 0.5, 0.0);
        let d = state.entry(e).delay;
        assert!((d - expected).abs() < 1e-6, "{version}: {d} vs {expected}");
        assert_eq!(state.entry(e).mix_duration, 0.5);
        assert_eq!(state.entry(e).track_end, 0.5);
    }
}
