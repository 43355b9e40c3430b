//! AnimationState behaviours the goldens do not exercise (spineboy-pro).

use std::sync::Arc;

use spine_anim::{AnimationState, AnimationStateData, MixBlend, Physics, Skeleton, StateEventType};

fn setup() -> Option<(Skeleton, AnimationState)> {
    let corpus = skel_testkit::spine_corpus()?;
    let bytes = std::fs::read(corpus.join("4.2/spineboy/spineboy-pro.skel")).unwrap();
    let data = Arc::new(spine_model::load_binary(&bytes, None).unwrap());
    let mut asd = AnimationStateData::new(data.clone());
    asd.default_mix = 0.2;
    Some((Skeleton::new(data), AnimationState::new(Arc::new(asd))))
}

fn step(state: &mut AnimationState, sk: &mut Skeleton, frames: usize) {
    for _ in 0..frames {
        state.update(1.0 / 60.0);
        state.apply(sk);
        sk.update_world_transform(Physics::None);
    }
}

#[test]
fn empty_animation_mixes_back_to_setup_and_ends() {
    let Some((mut sk, mut state)) = setup() else { return };
    state.set_animation_by_name(0, "walk", true).unwrap();
    step(&mut state, &mut sk, 20);
    let hip = sk.find_bone("hip").unwrap().index();
    let setup_y = sk.data.bones[hip].y;
    assert_ne!(sk.bones[hip].y, setup_y, "walk moves the hip");
    state.clear_events();
    state.set_empty_animation(0, 0.25);
    step(&mut state, &mut sk, 30);
    assert_eq!(sk.bones[hip].y, setup_y, "mixed back to the setup pose");
    let kinds: Vec<_> = state.events().iter().map(|e| (e.kind, e.animation.is_some())).collect();
    assert!(kinds.contains(&(StateEventType::Interrupt, true)));
    assert!(kinds.contains(&(StateEventType::End, true)));
    assert!(kinds.contains(&(StateEventType::Dispose, true)));
    // The empty entry ends too once its mix is done (track end = mix duration).
    step(&mut state, &mut sk, 5);
    assert_eq!(state.current(0), None);
}

#[test]
fn time_scale_doubles_event_rate_and_reverse_fires_none() {
    let Some((mut sk, mut state)) = setup() else { return };
    let count = |state: &AnimationState| {
        state.events().iter().filter(|e| matches!(e.kind, StateEventType::Event(_))).count()
    };
    state.set_animation_by_name(0, "walk", true).unwrap();
    step(&mut state, &mut sk, 240);
    let normal = count(&state);
    let (mut sk, mut state) = setup().unwrap();
    state.time_scale = 2.0;
    state.set_animation_by_name(0, "walk", true).unwrap();
    step(&mut state, &mut sk, 240);
    let fast = count(&state);
    assert!(normal >= 4 && fast >= 2 * normal - 1, "{normal} vs {fast}");
    let (mut sk, mut state) = setup().unwrap();
    let e = state.set_animation_by_name(0, "walk", true).unwrap();
    state.entry_mut(e).reverse = true;
    step(&mut state, &mut sk, 240);
    assert_eq!(count(&state), 0);
}

#[test]
fn additive_track_adds_to_track_zero() {
    let Some((mut sk, mut state)) = setup() else { return };
    state.set_animation_by_name(0, "walk", true).unwrap();
    step(&mut state, &mut sk, 10);
    let hip = sk.find_bone("hip").unwrap().index();
    let base = sk.bones[hip].rotation;
    let (mut sk2, mut state2) = setup().unwrap();
    state2.set_animation_by_name(0, "walk", true).unwrap();
    let e = state2.set_animation_by_name(1, "walk", true).unwrap();
    state2.entry_mut(e).mix_blend = MixBlend::Add;
    state2.entry_mut(e).alpha = 0.5;
    step(&mut state2, &mut sk2, 10);
    let setup_rot = sk2.data.bones[hip].rotation;
    let added = sk2.bones[hip].rotation;
    // Add blend: rotation = walk + 0.5 * (walk - setup) relative value.
    let expected = base + 0.5 * (base - setup_rot);
    assert!((added - expected).abs() < 1e-3, "{added} vs {expected}");
}

/// `AnimationState::apply` borrows the state's data through a spare reference it keeps;
/// replacing `state.data` (a public field) between frames, or posing a skeleton of another
/// data, still poses exactly as a state on the new data from the start would.
#[test]
fn replaced_state_data_and_another_skeleton_data_pose_the_same() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let bytes = std::fs::read(corpus.join("4.2/spineboy/spineboy-pro.skel")).unwrap();
    let load = || spine_model::load_binary(&bytes, None).unwrap();
    let a = Arc::new(load());
    // `b`: another copy whose `run` moves every keyed bone value by 1 (so a pass that
    // read `a`'s timelines after the replacement would pose differently).
    let mut b = load();
    let run = b.find_animation("run").unwrap();
    let anim = &mut b.animations[run.index()];
    for tl in &anim.timelines {
        if let spine_model::Timeline::Bone { curves, .. } = tl {
            let (stride, start) = (curves.stride(), curves.start as usize);
            let frames = &mut anim.keys[start..start + curves.frames_len as usize];
            for (i, v) in frames.iter_mut().enumerate() {
                if i % stride != 0 {
                    *v += 1.0;
                }
            }
        }
    }
    let b = Arc::new(b);
    let asd = |d: &Arc<spine_model::SkeletonData>, mix: f32| {
        let mut asd = AnimationStateData::new(d.clone());
        asd.default_mix = mix;
        Arc::new(asd)
    };
    // Reference: state and skeleton on `b` throughout (default mix 0.2, then 0.4).
    let mut want_sk = Skeleton::new(b.clone());
    let mut want = AnimationState::new(asd(&b, 0.2));
    // Tested: the state starts on `a` (mix 0.2) and its data is replaced by `b`'s (mix 0.4)
    // after 10 frames; the skeleton is on `b` throughout (another copy than the state's at
    // first).
    let mut got_sk = Skeleton::new(b.clone());
    let mut got = AnimationState::new(asd(&a, 0.2));
    for (sk, st) in [(&mut want_sk, &mut want), (&mut got_sk, &mut got)] {
        st.set_animation_by_name(0, "walk", true).unwrap();
        step(st, sk, 10);
    }
    got.data = asd(&b, 0.4);
    want.data = asd(&b, 0.4);
    let mut compared = 0;
    for st in [&mut want, &mut got] {
        st.set_animation_by_name(0, "run", true).unwrap();
    }
    for _ in 0..40 {
        step(&mut want, &mut want_sk, 1);
        step(&mut got, &mut got_sk, 1);
        for (g, w) in got_sk.bones.iter().zip(&want_sk.bones) {
            let bits =
                |b: &spine_anim::Bone| [b.a, b.b, b.c, b.d, b.world_x, b.world_y].map(f32::to_bits);
            assert_eq!(bits(g), bits(w));
            compared += 1;
        }
    }
    assert_eq!(compared, 40 * want_sk.bones.len());
}
