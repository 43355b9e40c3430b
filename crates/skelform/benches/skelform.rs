//! Criterion benches comparable with `../shared/oracle/perf-peers.tsv` (rusty_skelform
//! 0.8.0): `load_from_memory` (unzip + parse + resolve of the `.skf` bytes, no atlas
//! image) and `frame` (format_frame on a running counter + animate + construct, mesh
//! vertices included; physics state carried over) for every animation of both fixtures.
//!
//! Like for like with the reference's `load_from_memory` (ZipArchive, armature.json to a
//! String, serde_json): neither side decodes the atlas PNGs. Both verify the entry's CRC-32;
//! where the reference copies the entry into a String, ours borrows it from the archive
//! bytes when it is stored uncompressed (the fixtures are), and also validates the model
//! (indices, parents) and builds the lookup tables the frame path uses. Steadier than these
//! wall times on a shared machine: instruction counts with the `skf_profile` example (see
//! BENCHMARKS.md, SkelForm section).

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::time::Duration;

use skelform::AnimLayer;

const SAMPLES: [&str; 2] = ["skellina_v0.7.0.skf", "skellington_v0.7.0.skf"];

fn fixture(name: &str) -> Option<Vec<u8>> {
    let dir = skel_testkit::fixtures_dir()?;
    std::fs::read(dir.join("skelform").join(name)).ok()
}

fn load(c: &mut Criterion) {
    for name in SAMPLES {
        let Some(bytes) = fixture(name) else { return };
        c.bench_function(&format!("load_from_memory/{name}"), |b| {
            b.iter(|| skelform::load(black_box(&bytes)).expect("load"))
        });
    }
}

fn frame(c: &mut Criterion) {
    for name in SAMPLES {
        let Some(bytes) = fixture(name) else { return };
        let base = skelform::load(&bytes).expect("load");
        for (a, anim) in base.animations().iter().enumerate() {
            let mut arm = base.clone();
            let mut counter = 0u32;
            c.bench_function(&format!("frame/{name}:{:?}", anim.name), |b| {
                b.iter(|| {
                    let frame = arm.format_frame(a, counter, false, true);
                    counter = counter.wrapping_add(1);
                    arm.animate(&[AnimLayer { anim: a, frame, smooth: 0 }]);
                    arm.construct();
                    black_box(arm.world().first().copied())
                })
            });
        }
    }
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30)
}

criterion_group! { name = benches; config = config(); targets = load, frame }
criterion_main!(benches);
