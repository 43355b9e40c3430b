//! Builds one hostile input of the hostile-input issue in memory (the generators of
//! `tests/hostile/mod.rs`, no file is read), parses it with the default limits and prints the
//! outcome, the parse time and the process's memory: the resident size once the input is
//! built and the peak (`VmHWM`) after the parse. For peak-memory figures run it under
//! `/usr/bin/time -v`:
//!
//! ```sh
//! cargo build --release -p spine-format --example hostile_inputs
//! /usr/bin/time -v target/release/examples/hostile_inputs json-mesh-3m
//! ```
//!
//! Cases: `json-mesh-3m`, `json-keys-1.5m`, `json-keys-1.5m-compact`, `json-sequence-2e9`,
//! `json-sequence-1e6`, `bin-4.2-sequence-2^31`, `bin-4.3-sequence-2^31`, `all`.

#[path = "../tests/hostile/mod.rs"]
mod hostile;

use spine_format::binary;
use spine_format::json;
use spine_format::SpineVersion;
use std::time::Instant;

enum Input {
    Json(String),
    Binary(Vec<u8>),
}

const CASES: [&str; 7] = [
    "json-mesh-3m",
    "json-keys-1.5m",
    "json-keys-1.5m-compact",
    "json-sequence-2e9",
    "json-sequence-1e6",
    "bin-4.2-sequence-2^31",
    "bin-4.3-sequence-2^31",
];

fn input(case: &str) -> Option<Input> {
    Some(match case {
        "json-mesh-3m" => Input::Json(hostile::json_mesh(3_000_000)),
        "json-keys-1.5m" => Input::Json(hostile::json_keys(1_500_000, r#"{"time":1,"value":2}"#)),
        "json-keys-1.5m-compact" => Input::Json(hostile::json_keys(1_500_000, "{}")),
        "json-sequence-2e9" => Input::Json(hostile::json_sequence(r#"{"count":2000000000}"#)),
        "json-sequence-1e6" => Input::Json(hostile::json_sequence(r#"{"count":1000000}"#)),
        "bin-4.2-sequence-2^31" => {
            Input::Binary(hostile::v4x_sequence(SpineVersion::V4_2, 1 << 31, 4))
        }
        "bin-4.3-sequence-2^31" => Input::Binary(hostile::v43_sequence(1 << 31)),
        _ => return None,
    })
}

/// A `/proc/self/status` field in MB (Linux; 0 elsewhere).
fn status_mb(field: &str) -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb = status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.trim().strip_suffix("kB")?.trim().parse::<f64>().ok());
    kb.unwrap_or(0.0) / 1024.0
}

fn run(case: &str) {
    let Some(input) = input(case) else {
        eprintln!("unknown case {case:?}; cases: {}, all", CASES.join(", "));
        std::process::exit(2);
    };
    let rss_input = status_mb("VmRSS:");
    let start = Instant::now();
    let (len, outcome) = match &input {
        Input::Json(t) => (t.len(), json::parse(t).map(|_| ()).map_err(|e| e.to_string())),
        Input::Binary(b) => (b.len(), binary::parse(b).map(|_| ()).map_err(|e| e.to_string())),
    };
    let elapsed = start.elapsed();
    let outcome = match outcome {
        Ok(()) => "accepted".to_owned(),
        Err(e) => format!("error: {e}"),
    };
    println!(
        "{case}: {len} bytes, parse {elapsed:.2?}, RSS with the input {rss_input:.1} MB, \
         peak {:.1} MB; {outcome}",
        status_mb("VmHWM:")
    );
}

fn main() {
    let case = std::env::args().nth(1).unwrap_or_else(|| "all".to_owned());
    if case == "all" {
        for c in CASES {
            run(c);
        }
    } else {
        run(&case);
    }
}
