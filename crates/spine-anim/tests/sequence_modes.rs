//! Sequence timelines with extreme key indices (found by the `json_physics_sequences` fuzz
//! target): `onceReverse` with index `i32::MIN` computed `count - 1 - index`, which overflows
//! (a panic with overflow checks, a wrapped negative frame without). It saturates now; as in
//! the runtimes, a frame past the end is drawn as the last one (`Sequence::apply` clamps).

use std::sync::Arc;

use spine_anim::{apply_animation, MixBlend, MixDirection, Physics, Skeleton};
use spine_model::AnimationId;

#[test]
fn once_reverse_with_the_lowest_index_does_not_overflow() {
    let json = r#"{"skeleton": {"spine": "4.2.00"},
        "bones": [{"name": "root"}],
        "slots": [{"name": "s", "bone": "root", "attachment": "img"}],
        "skins": [{"name": "default", "attachments": {"s": {"img": {"width": 10, "height": 10,
            "sequence": {"count": 3, "start": 1, "digits": 2}}}}}],
        "animations": {"a": {"attachments": {"default": {"s": {"img": {"sequence": [
            {"time": 0, "mode": "onceReverse", "index": -2147483648, "delay": 0.1},
            {"time": 0.5, "mode": "onceReverse", "index": 2147483647, "delay": 0}]}}}}}}}"#;
    let data = Arc::new(spine_model::load_json(json, None).expect("loads"));
    let mut sk = Skeleton::new(data);
    for t in [0.0, 0.25, 0.5, 1.0] {
        sk.set_to_setup_pose();
        apply_animation(
            &mut sk,
            AnimationId::from_index(0),
            t,
            t,
            false,
            None,
            1.0,
            MixBlend::Setup,
            MixDirection::In,
        );
        sk.update_world_transform(Physics::None);
        let i = sk.slots[0].sequence_index;
        assert!(i >= -1, "t = {t}: frame {i}");
    }
}
