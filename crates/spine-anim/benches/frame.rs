//! Frame benchmarks named like the spine-cpp 4.2 figures in
//! `shared/oracle/perf-spine-cpp-4.2.tsv`. One iteration is the C++ harness's frame:
//! `state.update(1/60); state.apply(sk); sk.update(1/60); sk.update_world_transform(Physics::Update)`
//! on a looping track 0 (AnimationStateData default mix 0.2), after setting the skin (the
//! named one, else the first non-default skin if any) and the setup pose.
//!
//! Run with `cargo bench -p spine-anim --bench frame`.

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use spine_anim::{AnimationState, AnimationStateData, Physics, Skeleton};
use spine_model::SkinId;

/// (rig folder, skeleton file, skin, animation, case name).
const CASES: &[(&str, &str, Option<&str>, &str, &str)] = &[
    ("spineboy", "spineboy-pro.skel", None, "run", "spineboy-pro:run"),
    (
        "mix-and-match",
        "mix-and-match-pro.skel",
        Some("skin-base"),
        "walk",
        "mix-and-match-pro(143 bones,skin-base):walk",
    ),
    (
        "celestial-circus",
        "celestial-circus-pro.skel",
        None,
        "swing",
        "celestial-circus-pro(30 physics):swing",
    ),
    ("tank", "tank-pro.skel", None, "drive", "tank-pro(115 bones,clipping):drive"),
];

/// A skeleton and a state set up like the C++ harness.
pub fn setup(bytes: &[u8], skin: Option<&str>, anim: &str) -> (Skeleton, AnimationState) {
    let data = Arc::new(spine_model::load_binary(bytes, None).expect("rig loads"));
    let mut sk = Skeleton::new(data.clone());
    let skin_id = match skin {
        Some(name) => data.find_skin(name),
        None => (data.skins.len() > 1).then_some(SkinId::from_index(1)),
    };
    if skin_id.is_some() {
        sk.set_skin(skin_id);
    }
    sk.set_to_setup_pose();
    let mut asd = AnimationStateData::new(data.clone());
    asd.default_mix = 0.2;
    let mut state = AnimationState::new(Arc::new(asd));
    state.set_animation(0, Some(data.find_animation(anim).expect("animation exists")), true);
    (sk, state)
}

/// One frame of the C++ harness.
pub fn frame(state: &mut AnimationState, sk: &mut Skeleton) {
    let dt = 1.0f32 / 60.0;
    state.update(dt);
    state.apply(sk);
    sk.update(dt);
    sk.update_world_transform(Physics::Update);
    state.clear_events();
}

fn bench(c: &mut Criterion) {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let mut g = c.benchmark_group("frame");
    g.sample_size(30).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    for &(rig, file, skin, anim, case) in CASES {
        let bytes = std::fs::read(corpus.join("4.2").join(rig).join(file)).expect("rig readable");
        let (mut sk, mut state) = setup(&bytes, skin, anim);
        g.bench_function(format!("frame_update_apply_worldtransform_physicsupdate/{case}"), |b| {
            b.iter(|| {
                frame(&mut state, &mut sk);
                black_box(&sk);
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
