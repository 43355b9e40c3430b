//! Parse throughput over the shared corpus: every `.skel` of each version folder, and every
//! `.json` and `.atlas` of the 4.2 folder; plus `parse_binary/spineboy-pro.skel` (4.2), the
//! case the C++ figures in `../shared/oracle/perf-spine-cpp-4.2.tsv` name.
//!
//! `cargo bench -p spine-format --bench corpus`; criterion reports MB/s per group.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use spine_format::{atlas, binary, json};

fn read_all(dir: &std::path::Path, suffix: &str) -> Vec<Vec<u8>> {
    skel_testkit::files_with_suffix(dir, suffix)
        .iter()
        .map(|p| std::fs::read(p).expect("corpus file is readable"))
        .collect()
}

fn bench(c: &mut Criterion) {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let mut g = c.benchmark_group("corpus binary");
    for v in ["3.5", "3.6", "3.7", "3.8", "4.0", "4.1", "4.2"] {
        let files = read_all(&corpus.join(v), ".skel");
        let bytes: usize = files.iter().map(Vec::len).sum();
        g.throughput(Throughput::Bytes(bytes as u64));
        g.bench_function(format!("parse {v} ({} files)", files.len()), |b| {
            b.iter(|| {
                for f in &files {
                    black_box(binary::parse(black_box(f)).is_ok());
                }
            })
        });
    }
    g.finish();

    let spineboy = std::fs::read(corpus.join("4.2/spineboy/spineboy-pro.skel")).expect("spineboy");
    let mut g = c.benchmark_group("parse_binary_from_memory");
    g.throughput(Throughput::Bytes(spineboy.len() as u64));
    g.bench_function("spineboy-pro.skel", |b| b.iter(|| binary::parse(black_box(&spineboy))));
    g.finish();

    let mut g = c.benchmark_group("corpus text");
    let jsons: Vec<String> = read_all(&corpus.join("4.2"), ".json")
        .into_iter()
        .map(|b| String::from_utf8(b).expect("utf-8"))
        .collect();
    g.throughput(Throughput::Bytes(jsons.iter().map(String::len).sum::<usize>() as u64));
    g.bench_function(format!("json 4.2 ({} files)", jsons.len()), |b| {
        b.iter(|| {
            for t in &jsons {
                black_box(json::parse(black_box(t)).is_ok());
            }
        })
    });
    let atlases: Vec<String> = read_all(&corpus.join("4.2"), ".atlas")
        .into_iter()
        .map(|b| String::from_utf8(b).expect("utf-8"))
        .collect();
    g.throughput(Throughput::Bytes(atlases.iter().map(String::len).sum::<usize>() as u64));
    g.bench_function(format!("atlas 4.2 ({} files)", atlases.len()), |b| {
        b.iter(|| {
            for t in &atlases {
                black_box(atlas::parse(black_box(t)).is_ok());
            }
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench
}
criterion_main!(benches);
