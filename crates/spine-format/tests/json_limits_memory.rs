//! The big hostile JSON inputs of the hostile-input issue stay under 256 MB of peak memory
//! (this process's `VmHWM`, so this file holds a single test) and fail with a typed error.
//! Their time is checked in optimized builds only (`cargo test --release`); the figures for
//! the issue come from `examples/hostile_inputs.rs` under `/usr/bin/time -v`.

mod hostile;

use spine_format::json::{self, JsonErrorKind};
use std::time::{Duration, Instant};

/// Peak resident memory of this process so far, in bytes (`None` off Linux).
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    Some(kb.trim().strip_suffix("kB")?.trim().parse::<u64>().ok()? * 1024)
}

/// What the input is, how to make it, the limit that refuses it.
type Case = (&'static str, fn() -> String, &'static str);

#[test]
fn big_hostile_documents_fail_fast_within_256_mb() {
    let cases: [Case; 3] = [
        ("3M-vertex mesh (30 MB)", || hostile::json_mesh(3_000_000), "max_json_values"),
        (
            "1.5M-key timeline (32 MB)",
            || hostile::json_keys(1_500_000, r#"{"time":1,"value":2}"#),
            "max_json_values",
        ),
        ("1.5M-key timeline (4.5 MB)", || hostile::json_keys(1_500_000, "{}"), "max_keyframes"),
    ];
    for (what, make, want) in cases {
        let text = make();
        let start = Instant::now();
        let e = json::parse(&text).expect_err(what);
        let took = start.elapsed();
        assert!(
            matches!(e.kind, JsonErrorKind::LimitExceeded { limit, .. } if limit == want),
            "{what}: {e}"
        );
        if !cfg!(debug_assertions) {
            assert!(took < Duration::from_secs(2), "{what}: {took:?}");
        }
        drop(text);
        if let Some(peak) = peak_rss() {
            assert!(peak < 256 << 20, "{what}: peak {} MB", peak >> 20);
        }
    }
}
