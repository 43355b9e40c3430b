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
