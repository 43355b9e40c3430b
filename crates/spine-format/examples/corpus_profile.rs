//! Parses every `.skel` below the given folders (or the given files) N times, for callgrind:
//!
//! ```sh
//! cargo build --release -p spine-format --example corpus_profile
//! valgrind --tool=callgrind --toggle-collect='*corpus_profile*measured*' \
//!     target/release/examples/corpus_profile 5 ../shared/fixtures/spine/4.2
//! ```
//!
//! The instructions of `measured` divided by N are one parse of every file (reading the files
//! is not counted). `--atlas` parses the `.atlas` files instead.

use std::hint::black_box;
use std::path::Path;

fn collect(path: &Path, suffix: &str, out: &mut Vec<Vec<u8>>) {
    if path.is_dir() {
        let mut entries: Vec<_> =
            std::fs::read_dir(path).into_iter().flatten().flatten().map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            collect(&p, suffix, out);
        }
    } else if path.to_string_lossy().ends_with(suffix) {
        out.push(std::fs::read(path).unwrap_or_else(|e| {
            eprintln!("{}: {e}", path.display());
            std::process::exit(1)
        }));
    }
}

#[inline(never)]
fn measured_binary(files: &[Vec<u8>], n: usize) -> usize {
    let mut ok = 0;
    for _ in 0..n {
        for f in files {
            ok += usize::from(spine_format::binary::parse(black_box(f)).is_ok());
        }
    }
    ok
}

#[inline(never)]
fn measured_atlas(files: &[String], n: usize) -> usize {
    let mut ok = 0;
    for _ in 0..n {
        for f in files {
            ok += usize::from(spine_format::atlas::parse(black_box(f)).is_ok());
        }
    }
    ok
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let atlas = args.first().is_some_and(|a| a == "--atlas");
    if atlas {
        args.remove(0);
    }
    let n = args.first().and_then(|a| a.parse::<usize>().ok());
    let (Some(n), true) = (n, args.len() > 1) else {
        eprintln!("usage: corpus_profile [--atlas] N DIR|FILE...");
        std::process::exit(2);
    };
    let suffix = if atlas { ".atlas" } else { ".skel" };
    let mut files = Vec::new();
    for a in &args[1..] {
        collect(Path::new(a), suffix, &mut files);
    }
    let ok = if atlas {
        let texts: Vec<String> =
            files.into_iter().map(|b| String::from_utf8_lossy(&b).into_owned()).collect();
        let ok = measured_atlas(&texts, n);
        println!("{} atlases, {ok} parses ok", texts.len());
        ok
    } else {
        let ok = measured_binary(&files, n);
        println!("{} files, {ok} parses ok", files.len());
        ok
    };
    black_box(ok);
}
