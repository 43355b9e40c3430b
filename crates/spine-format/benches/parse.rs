//! Parse and write throughput of the largest committed 4.3 fixture (`showcase-pro.skel`).
//!
//! `cargo bench -p spine-format --bench parse`; criterion reports the throughput in MB/s.

use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use spine_format::binary::v43;

fn fixture() -> Vec<u8> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/spine-4.3/showcase-pro.skel");
    match std::fs::read(&path) {
        Ok(b) => b,
        // Fall back to the generator when the committed file is missing.
        Err(_) => v43::write(&spine_gen::named_fixtures()[0].1),
    }
}

fn bench(c: &mut Criterion) {
    let bytes = fixture();
    let ast = v43::parse(&bytes).expect("the fixture parses");
    let mut g = c.benchmark_group("v43 showcase-pro");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("parse", |b| b.iter(|| v43::parse(black_box(&bytes))));
    g.bench_function("write", |b| b.iter(|| v43::write(black_box(&ast))));
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
