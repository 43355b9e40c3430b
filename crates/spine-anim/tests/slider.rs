//! Slider constraints (4.3) on the generated fixture `fixtures/spine-4.3/sliders.skel`:
//! a slider driving its animation by time (pose or slider timeline), by a bone property,
//! looped and additive. Each test isolates one slider (the others get mix 0, and the
//! animations keep only their bone timelines plus that slider's own timelines) and compares
//! with a skeleton where the same animation is applied to the local pose directly.

use std::path::PathBuf;
use std::sync::Arc;

use spine_anim::constraints::ConstraintPose;
use spine_anim::{apply_animation, math, MixBlend, MixDirection, Physics, Skeleton};
use spine_model::{AnimationId, ConstraintId, ConstraintKind, SkeletonData, SliderData, Timeline};

fn load() -> SkeletonData {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/spine-4.3/sliders.skel");
    spine_model::load_binary(&std::fs::read(p).unwrap(), None).unwrap()
}

/// The fixture with only slider `keep` live (edited by `edit`; `None` = none live).
fn isolated(keep: Option<usize>, edit: impl FnOnce(&mut SliderData)) -> Arc<SkeletonData> {
    let mut d = load();
    let mut edit = Some(edit);
    for (i, c) in d.constraints.iter_mut().enumerate() {
        let ConstraintKind::Slider(s) = &mut c.kind else { continue };
        if Some(i) == keep {
            c.skin_required = false;
            (edit.take().unwrap())(s);
        } else {
            s.mix = 0.0;
        }
    }
    // The slider's own animation keeps no slider timelines (the fixture's animations
    // drive their own sliders, which would overwrite the time being checked).
    let own = keep.map(|k| slider(&d, k).animation);
    let keep = keep.map(ConstraintId::from_index);
    for (i, a) in d.animations.iter_mut().enumerate() {
        let own = own == Some(AnimationId::from_index(i));
        a.timelines.retain(|t| match t {
            Timeline::Bone { .. } | Timeline::Inherit { .. } => true,
            Timeline::Slider { constraint, .. } => !own && Some(*constraint) == keep,
            _ => false,
        });
    }
    Arc::new(d)
}

fn slider(d: &SkeletonData, i: usize) -> &SliderData {
    match &d.constraints[i].kind {
        ConstraintKind::Slider(s) => s,
        _ => panic!("constraint {i} is not a slider"),
    }
}

fn slider_time(sk: &Skeleton, i: usize) -> f32 {
    match &sk.constraints[i].pose {
        ConstraintPose::Slider(p) => p.time,
        _ => unreachable!(),
    }
}

fn bits(sk: &Skeleton) -> Vec<[u32; 6]> {
    sk.bones
        .iter()
        .filter(|b| b.active)
        .map(|b| [b.a, b.b, b.c, b.d, b.world_x, b.world_y].map(f32::to_bits))
        .collect()
}

/// Setup pose, `pre` applied to the local pose, world transforms (no slider live), then
/// `anim` at `time` (not looped) with `alpha`/`blend` on the local pose.
fn reference(
    pre: impl FnOnce(&mut Skeleton),
    anim: AnimationId,
    time: f32,
    alpha: f32,
    blend: MixBlend,
) -> Vec<[u32; 6]> {
    let mut sk = Skeleton::new(isolated(None, |_| {}));
    sk.set_to_setup_pose();
    pre(&mut sk);
    apply_animation(&mut sk, anim, time, time, false, None, alpha, blend, MixDirection::In);
    sk.update_world_transform(Physics::None);
    bits(&sk)
}

fn posed(data: &Arc<SkeletonData>, pre: impl FnOnce(&mut Skeleton)) -> Skeleton {
    let mut sk = Skeleton::new(data.clone());
    sk.set_to_setup_pose();
    pre(&mut sk);
    sk.update_world_transform(Physics::None);
    sk
}

#[test]
fn slider_poses_its_animation_at_its_time() {
    // constraint2 poses anim0 (bones 2 and 11). Replace, mix 1, not looped.
    let data = isolated(Some(2), |s| {
        s.additive = false;
        s.looping = false;
        s.time = 0.75;
    });
    let s = slider(&data, 2);
    let none = posed(&isolated(None, |_| {}), |_| {});
    let sk = posed(&data, |_| {});
    assert_ne!(bits(&sk), bits(&none), "the slider moved nothing");
    assert_eq!(bits(&sk), reference(|_| {}, s.animation, 0.75, 1.0, MixBlend::Replace));
    // Past the end without loop: the last frame.
    let data = isolated(Some(2), |s| {
        s.additive = false;
        s.looping = false;
        s.time = 7.0;
    });
    let end = data.animation(s.animation).duration;
    assert_eq!(
        bits(&posed(&data, |_| {})),
        reference(|_| {}, s.animation, end, 1.0, MixBlend::Replace)
    );
}

#[test]
fn looped_slider_wraps_its_time() {
    let data = isolated(Some(2), |s| {
        s.additive = false;
        s.looping = true;
        s.time = 4.0;
    });
    let s = slider(&data, 2);
    let dur = data.animation(s.animation).duration;
    let wrapped = math::fmod(4.0, dur);
    assert!(wrapped > 0.0 && wrapped < dur);
    assert_eq!(
        bits(&posed(&data, |_| {})),
        reference(|_| {}, s.animation, wrapped, 1.0, MixBlend::Replace)
    );
}

#[test]
fn additive_slider_adds_with_its_mix() {
    // constraint0: anim0, additive, mix from the data (1.0) -> use 0.4.
    let data = isolated(Some(0), |s| {
        s.additive = true;
        s.mix = 0.4;
        s.time = 0.5;
    });
    let s = slider(&data, 0);
    assert!(s.additive);
    let sk = posed(&data, |_| {});
    assert_eq!(bits(&sk), reference(|_| {}, s.animation, 0.5, 0.4, MixBlend::Add));
    assert_ne!(bits(&sk), reference(|_| {}, s.animation, 0.5, 0.4, MixBlend::Replace));
}

#[test]
fn slider_timeline_sets_the_time() {
    // anim1 has a slider-time timeline for constraint0 (which poses anim0).
    let data = isolated(Some(0), |s| {
        s.additive = false;
        s.looping = false;
        s.mix = 1.0;
    });
    let anim1 = data.find_animation("anim1").unwrap();
    let t = 0.6;
    let mut sk = Skeleton::new(data.clone());
    sk.set_to_setup_pose();
    apply_animation(&mut sk, anim1, t, t, false, None, 1.0, MixBlend::Setup, MixDirection::In);
    let time = slider_time(&sk, 0);
    assert_ne!(time, slider(&data, 0).time, "the timeline set the slider time");
    sk.update_world_transform(Physics::None);
    let anim0 = slider(&data, 0).animation;
    let expected = reference(
        |r| apply_animation(r, anim1, t, t, false, None, 1.0, MixBlend::Setup, MixDirection::In),
        anim0,
        time.min(data.animation(anim0).duration),
        1.0,
        MixBlend::Replace,
    );
    assert_eq!(bits(&sk), expected);
}

#[test]
fn bone_property_drives_the_time() {
    // constraint1: anim2 (bone 5), time from bone8's world rotation, looped.
    for rotation in [-92.0f32, 10.0, 135.5, 250.0] {
        let data = isolated(Some(1), |s| {
            s.additive = false;
            s.mix = 1.0;
        });
        let s = slider(&data, 1);
        let b = s.bone.as_ref().unwrap();
        assert!(s.looping && !s.local);
        let bone8 = b.bone.index();
        let sk = posed(&data, |sk| sk.bones[bone8].rotation = rotation);
        let bone = &sk.bones[bone8];
        let mut world = math::atan2(bone.c, bone.a) * math::RAD_DEG;
        if world < 0.0 {
            world += 360.0;
        }
        let dur = data.animation(s.animation).duration;
        let time = dur + math::fmod(b.offset + (world - b.property_offset) * b.scale, dur);
        assert_eq!(slider_time(&sk, 1), time);
        let expected = reference(
            |r| r.bones[bone8].rotation = rotation,
            s.animation,
            math::fmod(time, dur),
            1.0,
            MixBlend::Replace,
        );
        assert_eq!(bits(&sk), expected, "rotation {rotation}");
        let none = posed(&isolated(None, |_| {}), |sk| sk.bones[bone8].rotation = rotation);
        assert_ne!(bits(&sk), bits(&none), "rotation {rotation}: the slider moved nothing");
    }
}

/// The unmodified fixture (sliders whose animations drive other sliders, skin-required
/// sliders with the skin) played by AnimationState: deterministic and finite.
#[test]
fn whole_fixture_plays() {
    use spine_anim::{AnimationState, AnimationStateData};
    let data = Arc::new(load());
    let run = || {
        let mut sk = Skeleton::new(data.clone());
        assert!(sk.set_skin_by_name(Some("skin0")));
        sk.set_to_setup_pose();
        let mut st = AnimationState::new(Arc::new(AnimationStateData::new(data.clone())));
        st.set_animation(0, Some(AnimationId::from_index(1)), true);
        let mut out = Vec::new();
        for _ in 0..120 {
            st.update(1.0 / 60.0);
            st.apply(&mut sk);
            st.clear_events();
            sk.update(1.0 / 60.0);
            sk.update_world_transform(Physics::Update);
            for b in sk.bones.iter().filter(|b| b.active) {
                assert!([b.a, b.b, b.c, b.d, b.world_x, b.world_y].iter().all(|v| v.is_finite()));
            }
            out.push(bits(&sk));
        }
        out
    };
    assert_eq!(run(), run());
}

#[test]
fn local_bone_property_and_clamp_at_zero() {
    // constraint4: anim2, time from bone3's local y, not looped: negative times clamp to 0.
    for y in [-40.0f32, 0.0, 3.0, 30.0] {
        let data = isolated(Some(4), |s| {
            s.additive = false;
            s.mix = 1.0;
        });
        let s = slider(&data, 4);
        let b = s.bone.as_ref().unwrap();
        assert!(s.local && !s.looping);
        let bi = b.bone.index();
        let sk = posed(&data, |sk| sk.bones[bi].y = y);
        let time = (b.offset + (y - b.property_offset) * b.scale).max(0.0);
        assert_eq!(slider_time(&sk, 4), time, "y {y}");
        let expected = reference(|r| r.bones[bi].y = y, s.animation, time, 1.0, MixBlend::Replace);
        assert_eq!(bits(&sk), expected, "y {y}");
    }
}
