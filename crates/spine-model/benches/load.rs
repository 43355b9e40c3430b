//! Load benchmarks named like the spine-cpp 4.2 figures in
//! `shared/oracle/perf-spine-cpp-4.2.tsv`, with the C++ harness's call sequence:
//!
//! * `load_binary_with_atlas_from_file/<rig>.skel`: read + parse the atlas file, read the
//!   `.skel` file, parse + resolve it against that atlas (C++: `new Atlas(path)` +
//!   `SkeletonBinary::readSkeletonDataFile`);
//! * `parse_binary_from_memory/<rig>.skel`: parse + resolve bytes already in memory with a
//!   pre-loaded atlas (C++: `readSkeletonData(bytes)`);
//! * `parse_json_from_memory/<rig>.json`, `load_json_with_atlas_from_file/<rig>.json`: the same
//!   for JSON;
//! * `load_atlas_from_file/spineboy.atlas`: read + parse the atlas.
//!
//! Dropping the loaded data is outside the timed region (as in C++). Run with
//! `cargo bench -p spine-model --bench load`.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use spine_format::atlas::{self, Atlas};
use spine_model::{load_binary, load_json, SkeletonData};

/// (rig folder, skeleton file, atlas file, case-name suffix).
const BINARY: &[(&str, &str, &str, &str)] = &[
    ("spineboy", "spineboy-pro.skel", "spineboy.atlas", "spineboy-pro.skel"),
    (
        "celestial-circus",
        "celestial-circus-pro.skel",
        "celestial-circus.atlas",
        "celestial-circus-pro.skel",
    ),
    (
        "mix-and-match",
        "mix-and-match-pro.skel",
        "mix-and-match.atlas",
        "mix-and-match-pro.skel(largest)",
    ),
];

fn load_atlas_file(path: &Path) -> Atlas {
    let text = std::fs::read_to_string(path).expect("atlas readable");
    atlas::parse(&text).expect("atlas parses")
}

fn load_binary_file(skel: &Path, atlas_path: &Path) -> (Atlas, SkeletonData) {
    let atlas = load_atlas_file(atlas_path);
    let bytes = std::fs::read(skel).expect("skel readable");
    let data = load_binary(&bytes, Some(&atlas)).expect("skel loads");
    (atlas, data)
}

fn load_json_file(json: &Path, atlas_path: &Path) -> (Atlas, SkeletonData) {
    let atlas = load_atlas_file(atlas_path);
    let text = std::fs::read_to_string(json).expect("json readable");
    let data = load_json(&text, Some(&atlas)).expect("json loads");
    (atlas, data)
}

/// Times `f` per call, excluding the drop of what it returns.
fn time_excluding_drop<T>(iters: u64, mut f: impl FnMut() -> T) -> Duration {
    let mut out = Vec::with_capacity(iters.min(64) as usize);
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        let t = Instant::now();
        let v = black_box(f());
        total += t.elapsed();
        out.push(v);
        if out.len() == 64 {
            out.clear();
        }
    }
    total
}

fn bench(c: &mut Criterion) {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let dir = |rig: &str| -> PathBuf { corpus.join("4.2").join(rig) };
    let mut g = c.benchmark_group("load");
    g.sample_size(20).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    for &(rig, skel, atlas_file, case) in BINARY {
        let skel_path = dir(rig).join(skel);
        let atlas_path = dir(rig).join(atlas_file);
        g.bench_function(format!("load_binary_with_atlas_from_file/{case}"), |b| {
            b.iter_custom(|n| time_excluding_drop(n, || load_binary_file(&skel_path, &atlas_path)))
        });
        let atlas = load_atlas_file(&atlas_path);
        let bytes = std::fs::read(&skel_path).unwrap();
        g.bench_function(format!("parse_binary_from_memory/{case}"), |b| {
            b.iter_custom(|n| {
                time_excluding_drop(n, || load_binary(black_box(&bytes), Some(&atlas)).unwrap())
            })
        });
        // Raw parse only (no model build): how much of a load the format layer takes.
        g.bench_function(format!("raw_parse_binary_from_memory/{case}"), |b| {
            b.iter_batched(
                || (),
                |_| spine_format::binary::parse(black_box(&bytes)).unwrap(),
                BatchSize::SmallInput,
            )
        });
    }
    let json_path = dir("spineboy").join("spineboy-pro.json");
    let atlas_path = dir("spineboy").join("spineboy.atlas");
    g.bench_function("load_json_with_atlas_from_file/spineboy-pro.json", |b| {
        b.iter_custom(|n| time_excluding_drop(n, || load_json_file(&json_path, &atlas_path)))
    });
    let atlas = load_atlas_file(&atlas_path);
    let text = std::fs::read_to_string(&json_path).unwrap();
    g.bench_function("parse_json_from_memory/spineboy-pro.json", |b| {
        b.iter_custom(|n| {
            time_excluding_drop(n, || load_json(black_box(&text), Some(&atlas)).unwrap())
        })
    });
    g.bench_function("load_atlas_from_file/spineboy.atlas", |b| {
        b.iter_custom(|n| time_excluding_drop(n, || load_atlas_file(&atlas_path)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
