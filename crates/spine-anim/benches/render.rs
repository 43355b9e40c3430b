//! Render-command generation, named like the spine-cpp 4.2 figures in
//! `shared/oracle/perf-spine-cpp-4.2.tsv` (`render_commands/<rig>:<anim>`): the commands for the
//! current pose, 30 frames (0.5 s) into the animation, the pose not advanced between calls, one
//! `SkeletonRenderer` and one `RenderCommands` reused (the C++ harness reuses its renderer).
//!
//! Run with `cargo bench -p spine-anim --bench render`.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{criterion_group, criterion_main, Criterion};
use spine_anim::{AnimationState, AnimationStateData, Physics, Skeleton, SkeletonRenderer};
use spine_model::files::{discover_atlas, load_atlas};
use spine_model::SkinId;

/// (rig folder, skeleton file, animation, case name).
const CASES: &[(&str, &str, &str, &str)] = &[
    ("spineboy", "spineboy-pro.skel", "run", "spineboy-pro:run"),
    ("tank", "tank-pro.skel", "drive", "tank-pro(115 bones,clipping):drive"),
];

fn bench(c: &mut Criterion) {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let mut g = c.benchmark_group("render_commands");
    for &(folder, file, anim, case) in CASES {
        let path = corpus.join("4.2").join(folder).join(file);
        let atlas = discover_atlas(&path).map(|p| load_atlas(&p).expect("atlas parses"));
        let bytes = std::fs::read(&path).expect("rig is readable");
        let data = Arc::new(spine_model::load_binary(&bytes, atlas.as_ref()).expect("rig loads"));
        let mut sk = Skeleton::new(data.clone());
        if data.skins.len() > 1 {
            sk.set_skin(Some(SkinId::from_index(1)));
        }
        sk.set_to_setup_pose();
        let mut asd = AnimationStateData::new(data.clone());
        asd.default_mix = 0.2;
        let mut state = AnimationState::new(Arc::new(asd));
        state.set_animation(0, data.find_animation(anim), true);
        for _ in 0..30 {
            state.update(1.0 / 60.0);
            state.apply(&mut sk);
            sk.update(1.0 / 60.0);
            sk.update_world_transform(Physics::Update);
        }
        let mut renderer = SkeletonRenderer::new();
        let mut out = SkeletonRenderer::commands(&data);
        g.bench_function(case, |b| {
            b.iter(|| {
                renderer.render(black_box(&sk), &mut out);
                black_box(out.num_vertices() + out.num_indices())
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
