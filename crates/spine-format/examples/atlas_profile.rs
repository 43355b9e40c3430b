//! Parses an atlas N times (for callgrind: `atlas_profile <file.atlas> <N>`).

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(path), n) = (args.next(), args.next().and_then(|n| n.parse::<usize>().ok())) else {
        eprintln!("usage: atlas_profile <file.atlas> <N>");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let mut regions = 0;
    for _ in 0..n.unwrap_or(1) {
        match spine_format::atlas::parse(std::hint::black_box(&text)) {
            Ok(a) => regions += a.regions().count(),
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(1);
            }
        }
    }
    println!("{regions} regions");
}
