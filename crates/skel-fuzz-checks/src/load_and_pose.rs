//! Bytes → binary skeleton → resolved model (parse-then-convert and the streamed load must
//! agree) → every animation posed with physics on, and the render commands (clipping
//! included) of each pose; the walk's physics pairs must pose as the update cache's order
//! one constraint at a time does.

use std::sync::Arc;

use spine_anim::{apply_animation, MixBlend, MixDirection, Physics, Skeleton, SkeletonRenderer};
use spine_model::{LoadOptions, SkeletonData};

/// The `load_and_pose` fuzz target's check (module docs).
pub fn check(data: &[u8]) {
    // The streamed load (4.0-4.2 animations read straight into the model) must give what
    // parse-then-convert gives: the same data, or an error on both paths.
    let options = LoadOptions::default();
    let streamed = spine_model::load_binary_with(data, &options);
    let Ok(file) = spine_format::binary::parse(data) else {
        assert!(streamed.is_err(), "streamed load accepted bytes that parse rejects");
        return;
    };
    let converted = SkeletonData::from_binary(&file, &options);
    match (&converted, &streamed) {
        (Ok(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "load paths differ"),
        (Err(_), Err(_)) => {}
        _ => panic!("load paths disagree: {:?} vs {:?}", converted.is_ok(), streamed.is_ok()),
    }
    let Ok(skeleton) = converted else { return };
    let skeleton = Arc::new(skeleton);
    let mut sk = Skeleton::new(skeleton.clone());
    let mut apart = Skeleton::new(skeleton.clone());
    apart.set_paired_physics(false);
    let mut renderer = SkeletonRenderer::new();
    let mut commands = SkeletonRenderer::commands(&skeleton);
    for id in skeleton.animation_ids().take(8) {
        let t = skeleton.animation(id).duration * 0.5;
        for s in [&mut sk, &mut apart] {
            s.set_to_setup_pose();
            apply_animation(s, id, t, t, false, None, 1.0, MixBlend::Setup, MixDirection::In);
            s.update(1.0 / 60.0);
            s.update_world_transform(Physics::Update);
        }
        for (i, (p, u)) in sk.bones.iter().zip(&apart.bones).enumerate() {
            let (p, u) = (world(p), world(u));
            // The same operations in the same order; a NaN's payload may differ (operands
            // commuted).
            let same = p
                .iter()
                .zip(&u)
                .all(|(a, b)| a.to_bits() == b.to_bits() || a.is_nan() && b.is_nan());
            assert!(same, "bone {i}: paired physics {p:?}, one at a time {u:?}");
        }
        renderer.render(&sk, &mut commands);
    }
}

/// A bone's world transform.
fn world(b: &spine_anim::Bone) -> [f32; 6] {
    [b.a, b.b, b.c, b.d, b.world_x, b.world_y]
}
