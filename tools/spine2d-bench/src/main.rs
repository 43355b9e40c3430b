//! Loads each generated Spine 4.3 fixture with spine2d and with ours, alternating, in one
//! process; prints the median time per load, the allocation calls per load and the ratios.
//!
//! usage: spine2d-bench [--reps N] [--budget-ms MS] [--only NAME] [--tsv]
//!                      [--profile ours|spine2d N] [DIR]
//!
//! DIR defaults to `fixtures/spine-4.3` (the `.skel` files there; each one's 4.3 JSON twin is
//! written in memory by our converter and loaded as the `.json` case). A load is: parse and
//! resolve the bytes (or text) into skeleton data, then free it; no atlas (the fixtures have
//! none, and spine2d's loaders take none).

use std::alloc::System;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Skel,
    Json,
}

struct Case {
    name: String,
    kind: Kind,
    bytes: Vec<u8>,
    /// Our 4.3 JSON twin of `bytes`.
    text: String,
    /// The same JSON in the shape spine2d 0.4 reads (see [`for_spine2d`]).
    text_spine2d: String,
}

fn load_spine2d(c: &Case) {
    let d = match c.kind {
        Kind::Skel => spine2d::SkeletonData::from_skel_bytes(&c.bytes),
        Kind::Json => spine2d::SkeletonData::from_json_str(&c.text_spine2d),
    };
    drop(black_box(d.expect("spine2d load")));
}

fn load_ours(c: &Case) {
    let d = match c.kind {
        Kind::Skel => spine_model::load_binary(&c.bytes, None),
        Kind::Json => spine_model::load_json(&c.text, None),
    };
    drop(black_box(d.expect("our load")));
}

/// Allocation calls (alloc + realloc) and bytes allocated by one call of `f`, after a warm-up.
fn allocs(f: &dyn Fn()) -> (usize, usize, usize) {
    f();
    let r = Region::new(GLOBAL);
    f();
    let s = r.change();
    (s.allocations, s.reallocations, s.bytes_allocated)
}

/// Seconds per call over one repetition of `n` calls.
fn time(f: &dyn Fn(), n: u32) -> f64 {
    let t = Instant::now();
    for _ in 0..n {
        f();
    }
    t.elapsed().as_secs_f64() / f64::from(n)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        (v[m - 1] + v[m]) / 2.0
    }
}

fn main() {
    let mut reps = 21u32;
    let mut budget_ms = 100.0f64;
    let mut only: Option<String> = None;
    let mut tsv = false;
    let mut profile: Option<(String, u32)> = None;
    let mut dir = PathBuf::from("fixtures/spine-4.3");
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--reps" => reps = args.next().and_then(|v| v.parse().ok()).expect("--reps N"),
            "--budget-ms" => {
                budget_ms = args.next().and_then(|v| v.parse().ok()).expect("--budget-ms MS")
            }
            "--only" => only = args.next(),
            "--tsv" => tsv = true,
            "--profile" => {
                let side = args.next().expect("--profile ours|spine2d N");
                let n = args.next().and_then(|v| v.parse().ok()).expect("--profile ours|spine2d N");
                profile = Some((side, n));
            }
            "-h" | "--help" => {
                println!(
                    "usage: spine2d-bench [--reps N] [--budget-ms MS] [--only NAME] [--tsv] [--profile ours|spine2d N] [DIR]"
                );
                return;
            }
            _ => dir = PathBuf::from(a),
        }
    }
    let cases = cases(&dir, only.as_deref());
    if cases.is_empty() {
        eprintln!("spine2d-bench: no .skel files in {}", dir.display());
        std::process::exit(1);
    }
    if let Some((side, n)) = profile {
        // One side only, `n` loads of each case: for `perf record` / callgrind. `parse`: our
        // parse alone (the raw AST of a `.skel`), with its allocation calls.
        if side == "parse" {
            for c in cases.iter().filter(|c| c.kind == Kind::Skel) {
                let f: &dyn Fn() = &|| drop(black_box(spine_format::binary::parse(&c.bytes)));
                let (a, r, _) = allocs(f);
                let t = time(f, n);
                println!("{}: parse {:.1} µs, {} allocs", c.name, t * 1e6, a + r);
            }
            return;
        }
        for c in &cases {
            for _ in 0..n {
                if side == "ours" {
                    load_ours(c)
                } else {
                    load_spine2d(c)
                }
            }
        }
        return;
    }
    if tsv {
        println!("file\tspine2d_us\tspine2d_allocs\tours_us\tours_allocs\ttime_ratio\tpaired_ratio\talloc_ratio");
    } else {
        println!(
            "{:<22} {:>11} {:>9} {:>11} {:>9} {:>7} {:>7} {:>7}",
            "file", "spine2d µs", "allocs", "ours µs", "allocs", "time", "paired", "allocs"
        );
    }
    for c in &cases {
        let a: &dyn Fn() = &|| load_spine2d(c);
        let b: &dyn Fn() = &|| load_ours(c);
        let (a_alloc, a_realloc, _) = allocs(a);
        let (b_alloc, b_realloc, _) = allocs(b);
        // Calibrate: iterations per repetition so that each side takes about `budget_ms`.
        let warm = |f: &dyn Fn()| {
            let t = time(f, 3);
            ((budget_ms / 1000.0 / t).ceil() as u32).max(1)
        };
        let (na, nb) = (warm(a), warm(b));
        let (mut ta, mut tb, mut pr) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..reps {
            let x = time(a, na);
            let y = time(b, nb);
            ta.push(x);
            tb.push(y);
            pr.push(y / x);
        }
        let (ma, mb, mp) = (median(&mut ta), median(&mut tb), median(&mut pr));
        let alloc_ratio = (b_alloc + b_realloc) as f64 / (a_alloc + a_realloc) as f64;
        if tsv {
            println!(
                "{}\t{:.1}\t{}\t{:.1}\t{}\t{:.3}\t{:.3}\t{:.3}",
                c.name,
                ma * 1e6,
                a_alloc + a_realloc,
                mb * 1e6,
                b_alloc + b_realloc,
                mb / ma,
                mp,
                alloc_ratio
            );
        } else {
            println!(
                "{:<22} {:>11.1} {:>9} {:>11.1} {:>9} {:>7.3} {:>7.3} {:>7.3}",
                c.name,
                ma * 1e6,
                a_alloc + a_realloc,
                mb * 1e6,
                b_alloc + b_realloc,
                mb / ma,
                mp,
                alloc_ratio
            );
        }
    }
}

/// Every `.skel` in `dir` (sorted), each followed by its 4.3 JSON twin.
fn cases(dir: &Path, only: Option<&str>) -> Vec<Case> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "skel"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for p in files {
        let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
        if only.is_some_and(|o| o != stem && !o.starts_with(&format!("{stem}."))) {
            continue;
        }
        let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let json = spine_model::convert::convert(&bytes, "4.3", spine_model::convert::Format::Json)
            .unwrap_or_else(|e| panic!("{}: JSON twin: {e}", p.display()))
            .bytes;
        let text = String::from_utf8(json).expect("JSON is UTF-8");
        let text_spine2d = for_spine2d(&text);
        for (kind, ext) in [(Kind::Skel, "skel"), (Kind::Json, "json")] {
            if only.is_some_and(|o| o != stem && o != format!("{stem}.{ext}")) {
                continue;
            }
            let c = Case {
                name: format!("{stem}.{ext}"),
                kind,
                bytes: bytes.clone(),
                text: text.clone(),
                text_spine2d: text_spine2d.clone(),
            };
            // Both sides must load the case before it is timed.
            load_spine2d(&c);
            load_ours(&c);
            out.push(c);
        }
    }
    out
}

/// spine2d 0.4 reads an animation's `drawOrderFolder` as an object of folders by name
/// (`{"f": {"slots": [..], "keys": [..]}}`); our writer emits the list of folders
/// (`[{"slots": [..], "keys": [..]}]`). The same data in spine2d's shape: folder `i` named
/// `folder<i>`. Nothing else differs.
fn for_spine2d(text: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(text).expect("our JSON parses");
    if let Some(anims) = v.get_mut("animations").and_then(|a| a.as_object_mut()) {
        for anim in anims.values_mut() {
            let Some(obj) = anim.as_object_mut() else { continue };
            if let Some(serde_json::Value::Array(list)) = obj.remove("drawOrderFolder") {
                let map = list
                    .into_iter()
                    .enumerate()
                    .map(|(i, f)| (format!("folder{i}"), f))
                    .collect::<serde_json::Map<_, _>>();
                obj.insert("drawOrderFolder".into(), serde_json::Value::Object(map));
            }
        }
    }
    serde_json::to_string_pretty(&v).expect("JSON writes")
}
