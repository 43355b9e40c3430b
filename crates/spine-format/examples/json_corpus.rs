//! Parses every `.json` under a folder repeatedly and prints the time per pass — a steadier
//! A/B than the criterion group on a noisy machine, and a callgrind target
//! (`valgrind --tool=callgrind target/release/examples/json_corpus DIR 5`).

use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(dir) = args.next() else {
        eprintln!("usage: json_corpus DIR [PASSES]");
        std::process::exit(2);
    };
    let n: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(100);
    let mut texts = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from(&dir)];
    while let Some(d) = dirs.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                texts.push(std::fs::read_to_string(&p).expect("readable UTF-8 file"));
            }
        }
    }
    let bytes: usize = texts.iter().map(String::len).sum();
    let mut samples = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let start = Instant::now();
        for t in &texts {
            std::hint::black_box(spine_format::json::parse(std::hint::black_box(t)).is_ok());
        }
        samples.push(start.elapsed());
    }
    samples.sort();
    let median = samples[samples.len() / 2];
    println!(
        "{} files, {bytes} bytes: median {median:?} per pass (min {:?}), {:.1} MB/s",
        texts.len(),
        samples[0],
        bytes as f64 / median.as_secs_f64() / 1e6
    );
}
