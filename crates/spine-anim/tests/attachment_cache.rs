//! `AnimationState` caches what each attachment timeline key resolves to (per skin) while
//! the skeleton plays the state's own `SkeletonData`; a skeleton built on a separately
//! loaded copy of the same file bypasses the cache (different data). Both must show the
//! same attachments every frame, across skin switches and animation changes with mixing.
//! The per-key answers live in the `AnimationStateData`, shared by its states: a second
//! pair plays the same animations in another skin at the same time.

use std::sync::Arc;

use spine_anim::{AnimationState, AnimationStateData, Physics, Skeleton};
use spine_model::{SkeletonData, SkinId, Timeline};

fn load(rig: &str, file: &str) -> Option<SkeletonData> {
    let corpus = skel_testkit::spine_corpus()?;
    let bytes = skel_testkit::read_corpus_file(&corpus.join("4.2").join(rig).join(file))?;
    Some(spine_model::load_binary(&bytes, None).expect("rig loads"))
}

fn has_attachment_timelines(d: &SkeletonData, a: usize) -> bool {
    d.animations[a].timelines.iter().any(|t| matches!(t, Timeline::Attachment { .. }))
}

#[test]
fn cached_attachment_lookups_match_uncached_across_skins_and_mixes() {
    let rigs = [
        ("goblins", "goblins-pro.skel"),
        ("celestial-circus", "celestial-circus-pro.skel"),
        ("mix-and-match", "mix-and-match-pro.skel"),
        ("spineboy", "spineboy-pro.skel"),
    ];
    let mut checked_rigs = 0;
    let mut changes = 0usize;
    for (rig, file) in rigs {
        let (Some(a), Some(b)) = (load(rig, file), load(rig, file)) else { continue };
        let (a, b) = (Arc::new(a), Arc::new(b));
        let mut asd = AnimationStateData::new(a.clone());
        asd.default_mix = 0.2;
        let asd = Arc::new(asd);
        let mut state_a = AnimationState::new(asd.clone());
        let mut state_b = AnimationState::new(asd.clone());
        let mut state_c = AnimationState::new(asd.clone());
        let mut state_d = AnimationState::new(asd);
        let mut sk_a = Skeleton::new(a.clone());
        let mut sk_b = Skeleton::new(b.clone());
        let mut sk_c = Skeleton::new(a.clone());
        let mut sk_d = Skeleton::new(b.clone());
        let anims: Vec<usize> =
            (0..a.animations.len()).filter(|&i| has_attachment_timelines(&a, i)).collect();
        if anims.is_empty() {
            continue;
        }
        checked_rigs += 1;
        let skins = a.skins.len();
        let mut frame = 0usize;
        for (n, &anim) in anims.iter().enumerate() {
            let id = spine_model::AnimationId::from_index(anim);
            for state in [&mut state_a, &mut state_b, &mut state_c, &mut state_d] {
                state.set_animation(0, Some(id), n % 2 == 0);
            }
            for _ in 0..90 {
                if frame.is_multiple_of(23) && skins > 1 {
                    let skin = Some(SkinId::from_index(frame / 23 % skins));
                    let other = Some(SkinId::from_index((frame / 23 + 1) % skins));
                    for (sk, skin) in [
                        (&mut sk_a, skin),
                        (&mut sk_b, skin),
                        (&mut sk_c, other),
                        (&mut sk_d, other),
                    ] {
                        sk.set_skin(skin);
                        sk.set_slots_to_setup_pose();
                    }
                }
                let before: Vec<_> = sk_a.slots.iter().map(|s| s.attachment).collect();
                for (state, sk) in [
                    (&mut state_a, &mut sk_a),
                    (&mut state_c, &mut sk_c),
                    (&mut state_b, &mut sk_b),
                    (&mut state_d, &mut sk_d),
                ] {
                    state.update(1.0 / 60.0);
                    state.apply(sk);
                    sk.update(1.0 / 60.0);
                    sk.update_world_transform(Physics::Update);
                    state.clear_events();
                }
                for (cached, uncached) in [(&sk_a, &sk_b), (&sk_c, &sk_d)] {
                    for (i, (x, y)) in cached.slots.iter().zip(&uncached.slots).enumerate() {
                        assert_eq!(x.attachment, y.attachment, "{rig} frame {frame} slot {i}");
                        assert_eq!(
                            x.sequence_index, y.sequence_index,
                            "{rig} frame {frame} slot {i}"
                        );
                    }
                }
                changes +=
                    sk_a.slots.iter().zip(&before).filter(|(s, b)| s.attachment != **b).count();
                frame += 1;
            }
        }
    }
    if checked_rigs > 0 {
        assert!(changes > 0, "some attachment timeline changed an attachment");
    }
}

/// An attachment timeline of a slot whose bone is inactive (skin-required, its skin not set)
/// does nothing, frame after frame (spine-cpp returns before touching the slot); with the
/// skin that activates the bone it keys the slot, keeps it keyed while the key holds, then
/// takes the next key; and it stops when the skin goes, even while its key holds.
#[test]
fn attachment_timelines_of_inactive_bones_do_nothing() {
    let text = r#"{"skeleton": {"spine": "4.2.22"},
        "bones": [{"name": "root"}, {"name": "b", "parent": "root", "skin": true}],
        "slots": [{"name": "s", "bone": "b", "attachment": "a1"}],
        "skins": [
            {"name": "default", "attachments": {"s": {
                "a1": {"type": "point"}, "a2": {"type": "point"}}}},
            {"name": "extra", "bones": ["b"]}],
        "animations": {"swap": {"slots": {"s": {"attachment": [
            {"time": 0, "name": "a2"}, {"time": 0.505, "name": "a1"}]}}}}}"#;
    let data = Arc::new(spine_model::load_json(text, None).expect("rig loads"));
    let name = |sk: &Skeleton| sk.slots[0].attachment.map(|a| data.attachment(a).name.to_string());
    for (skin, keyed) in [(None, false), (data.find_skin("extra"), true)] {
        let mut sk = Skeleton::new(data.clone());
        sk.set_skin(skin);
        sk.set_slots_to_setup_pose();
        let mut state = AnimationState::new(Arc::new(AnimationStateData::new(data.clone())));
        state.set_animation(0, data.find_animation("swap"), false);
        let mut changes = 0;
        for frame in 0..50 {
            state.update(1.0 / 60.0);
            state.apply(&mut sk);
            // Keyed: a2 before 0.505 s, then a1; else the setup a1.
            let t = state.current(0).map_or(0.0, |e| state.entry(e).animation_time());
            let want = if keyed && t < 0.505 { "a2" } else { "a1" };
            let got = name(&sk);
            assert_eq!(got.as_deref(), Some(want), "skin {skin:?} frame {frame} at {t}");
            changes += usize::from(keyed && want == "a1");
        }
        assert_eq!(changes > 0, keyed, "skin {skin:?}: the last key was reached");
    }
    // The bone made inactive while its first key holds: the key (kept for the frames it
    // holds) does not apply any more.
    let mut sk = Skeleton::new(data.clone());
    sk.set_skin(data.find_skin("extra"));
    sk.set_slots_to_setup_pose();
    let mut state = AnimationState::new(Arc::new(AnimationStateData::new(data.clone())));
    state.set_animation(0, data.find_animation("swap"), false);
    for frame in 0..20 {
        if frame == 10 {
            sk.set_skin(None);
            sk.set_slots_to_setup_pose();
        }
        state.update(1.0 / 60.0);
        state.apply(&mut sk);
        let want = if frame < 10 { "a2" } else { "a1" };
        assert_eq!(name(&sk).as_deref(), Some(want), "frame {frame}");
    }
}
