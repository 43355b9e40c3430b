//! `AnimationState` skips, on track 0 at full alpha, the bone timelines that cannot change
//! anything: no keys, or a bone that is not active for the skeleton's skin (kept per track
//! entry, rebuilt when the skeleton's update cache changes). The bones must be posed as if
//! every timeline ran: each frame is compared bit for bit with a second skeleton posed by
//! `apply_animation` (every timeline, no skipping) at the same times, across skin switches
//! (including no skin) and animation changes.

use std::sync::Arc;

use spine_anim::{
    apply_animation, AnimationState, AnimationStateData, MixBlend, MixDirection, Skeleton,
};
use spine_model::{AnimationId, SkeletonData, SkinId};

fn load(rig: &str, file: &str) -> Option<SkeletonData> {
    let corpus = skel_testkit::spine_corpus()?;
    let bytes = skel_testkit::read_corpus_file(&corpus.join("4.2").join(rig).join(file))?;
    Some(spine_model::load_binary(&bytes, None).expect("rig loads"))
}

fn local(sk: &Skeleton) -> Vec<[u32; 7]> {
    sk.bones
        .iter()
        .map(|b| {
            [b.x, b.y, b.rotation, b.scale_x, b.scale_y, b.shear_x, b.shear_y].map(f32::to_bits)
        })
        .collect()
}

#[test]
fn skipped_timelines_pose_bones_like_every_timeline() {
    let rigs = [
        ("mix-and-match", "mix-and-match-pro.skel"),
        ("goblins", "goblins-pro.skel"),
        ("spineboy", "spineboy-pro.skel"),
    ];
    let mut checked_rigs = 0;
    let mut skin_bone_changes = 0usize;
    for (rig, file) in rigs {
        let Some(data) = load(rig, file) else { continue };
        checked_rigs += 1;
        let data = Arc::new(data);
        let mut state = AnimationState::new(Arc::new(AnimationStateData::new(data.clone())));
        let mut sk_a = Skeleton::new(data.clone());
        let mut sk_b = Skeleton::new(data.clone());
        let skins = data.skins.len();
        let mut frame = 0usize;
        for anim in 0..data.animations.len() {
            let id = AnimationId::from_index(anim);
            // No mixing: every frame is track 0 at alpha 1.
            state.clear_tracks();
            let entry = state.set_animation(0, Some(id), true);
            for _ in 0..40 {
                if frame.is_multiple_of(7) {
                    // Every skin in turn, and no skin.
                    let skin = (frame / 7) % (skins + 1);
                    let skin = (skin < skins).then_some(SkinId::from_index(skin));
                    sk_a.set_skin(skin);
                    sk_b.set_skin(skin);
                }
                state.update(1.0 / 60.0);
                let e = state.entry(entry);
                let (last, time) = (e.animation_last, e.animation_time());
                let before = local(&sk_a);
                state.apply(&mut sk_a);
                state.clear_events();
                let (first, into) = (MixBlend::First, MixDirection::In);
                apply_animation(&mut sk_b, id, last, time, false, None, 1.0, first, into);
                let (a, b) = (local(&sk_a), local(&sk_b));
                for (i, (x, y)) in a.iter().zip(&b).enumerate() {
                    assert_eq!(x, y, "{rig} animation {anim} frame {frame} bone {i}");
                }
                skin_bone_changes += a
                    .iter()
                    .zip(&before)
                    .enumerate()
                    .filter(|&(i, (x, y))| x != y && data.bones[i].skin_required)
                    .count();
                frame += 1;
            }
        }
    }
    if checked_rigs > 0 {
        assert!(skin_bone_changes > 0, "some timeline moved a skin-required bone");
    }
}

/// `AnimationState` applies a full-alpha entry's bone timelines grouped by property. Two
/// timelines writing one field of a bone (here translate x before translate, an order the
/// grouping would reverse) must still run in their order: the last one wins, as in
/// `apply_animation`.
#[test]
fn timelines_writing_one_field_run_in_their_order() {
    let text = r#"{"skeleton": {"spine": "4.2.22"},
        "bones": [{"name": "root"}, {"name": "a", "parent": "root"}],
        "animations": {"a": {"bones": {"a": {
            "translate": [{"x": 1, "y": 5}, {"time": 1, "x": 2, "y": 6}],
            "translatex": [{"value": 30}, {"time": 1, "value": 40}],
            "rotate": [{"value": 10}, {"time": 1, "value": 20}]}}}}}"#;
    let mut data = spine_model::load_json(text, None).unwrap();
    let tl = &mut data.animations[0].timelines;
    use spine_model::{BoneProperty, Timeline};
    let find = |tl: &[Timeline], p: BoneProperty| {
        tl.iter().position(|t| matches!(t, Timeline::Bone { property, .. } if *property == p))
    };
    let (x, xy) =
        (find(tl, BoneProperty::TranslateX).unwrap(), find(tl, BoneProperty::Translate).unwrap());
    if x > xy {
        tl.swap(x, xy);
    }
    let data = Arc::new(data);
    let mut state = AnimationState::new(Arc::new(AnimationStateData::new(data.clone())));
    let (mut sk_a, mut sk_b) = (Skeleton::new(data.clone()), Skeleton::new(data.clone()));
    let id = AnimationId::from_index(0);
    let entry = state.set_animation(0, Some(id), true);
    for frame in 0..30 {
        state.update(1.0 / 30.0);
        let e = state.entry(entry);
        let (last, time) = (e.animation_last, e.animation_time());
        state.apply(&mut sk_a);
        let (first, into) = (MixBlend::First, MixDirection::In);
        apply_animation(&mut sk_b, id, last, time, false, None, 1.0, first, into);
        assert_eq!(local(&sk_a), local(&sk_b), "frame {frame}");
        // Translate ran last: x is its value (1..2), not translate x's (30..40).
        assert!(sk_a.bones[1].x < 3.0, "frame {frame}: x = {}", sk_a.bones[1].x);
    }
}
