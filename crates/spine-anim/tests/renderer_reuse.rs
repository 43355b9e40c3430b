//! One `SkeletonRenderer` drawing skeletons of different `SkeletonData`: its cache of mesh
//! sequence UVs (by attachment and frame) must not carry one data's UVs to another's.

use std::sync::Arc;

use spine_anim::{Physics, Skeleton, SkeletonRenderer};
use spine_model::SkeletonData;

/// A mesh with a two-frame sequence (`img1`, `img2`) whose regions sit at `x` in the page.
fn data(x: u32) -> Arc<SkeletonData> {
    let json = r#"{"skeleton": {"spine": "4.2.00"},
        "bones": [{"name": "root"}],
        "slots": [{"name": "s", "bone": "root", "attachment": "img"}],
        "skins": [{"name": "default", "attachments": {"s": {"img": {"type": "mesh",
            "uvs": [0, 0, 1, 0, 0, 1], "triangles": [0, 1, 2], "hull": 3,
            "vertices": [0, 0, 10, 0, 0, 10], "width": 10, "height": 10,
            "sequence": {"count": 2, "start": 1, "digits": 1}}}}}]}"#;
    let atlas = format!(
        "page.png\nsize: 64, 64\nimg1\n  bounds: {x}, 0, 8, 8\nimg2\n  bounds: {x}, 16, 8, 8\n"
    );
    let atlas = spine_format::atlas::parse(&atlas).expect("atlas");
    Arc::new(spine_model::load_json(json, Some(&atlas)).expect("loads"))
}

/// The UVs drawn for frame 2 of the sequence (not the setup frame: the cached path).
fn uvs(renderer: &mut SkeletonRenderer, data: &Arc<SkeletonData>) -> Vec<f32> {
    let mut sk = Skeleton::new(data.clone());
    sk.slots[0].sequence_index = 1;
    sk.update_world_transform(Physics::None);
    let mut out = SkeletonRenderer::commands(data);
    renderer.render(&sk, &mut out);
    out.get(0).expect("one draw").uvs.to_vec()
}

#[test]
fn a_renderer_reused_across_skeleton_data_draws_each_ones_uvs() {
    let (a, b) = (data(0), data(32));
    let want_b = uvs(&mut SkeletonRenderer::new(), &b);
    let want_a = uvs(&mut SkeletonRenderer::new(), &a);
    assert_ne!(want_a, want_b, "the two datas' frames differ");
    let mut shared = SkeletonRenderer::new();
    assert_eq!(uvs(&mut shared, &a), want_a);
    assert_eq!(uvs(&mut shared, &b), want_b);
    assert_eq!(uvs(&mut shared, &a), want_a);
}
