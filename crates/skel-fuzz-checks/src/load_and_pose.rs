//! Bytes → binary skeleton → resolved model (parse-then-convert and the streamed load must
//! agree) → every animation posed with physics on, and the render commands (clipping
//! included) of each pose.

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
    let mut renderer = SkeletonRenderer::new();
    let mut commands = SkeletonRenderer::commands(&skeleton);
    for id in skeleton.animation_ids().take(8) {
        let t = skeleton.animation(id).duration * 0.5;
        sk.set_to_setup_pose();
        apply_animation(&mut sk, id, t, t, false, None, 1.0, MixBlend::Setup, MixDirection::In);
        sk.update(1.0 / 60.0);
        sk.update_world_transform(Physics::Update);
        renderer.render(&sk, &mut commands);
    }
}
