//! Parses a skeleton file repeatedly and prints the time per parse — for profiling
//! (`valgrind --tool=callgrind target/release/examples/parse_file FILE 50`).

use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: parse_file FILE [ITERATIONS]");
        std::process::exit(2);
    };
    let n: u32 = args.next().and_then(|s| s.parse().ok()).unwrap_or(100);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| {
        eprintln!("error: {path}: {e}");
        std::process::exit(1)
    });
    let start = Instant::now();
    for _ in 0..n {
        if let Err(e) = spine_format::binary::parse(std::hint::black_box(&bytes)) {
            eprintln!("error: {path}: {e}");
            std::process::exit(1);
        }
    }
    let per = start.elapsed() / n;
    println!(
        "{path}: {} bytes, {per:?} per parse, {:.1} MB/s",
        bytes.len(),
        bytes.len() as f64 / per.as_secs_f64() / 1e6
    );
}
