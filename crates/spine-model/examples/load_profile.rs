//! Loads one binary skeleton (with its atlas) `N` times: a driver for profilers
//! (`valgrind --tool=callgrind target/release/examples/load_profile <skel> <atlas> [N]`).

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(skel), Some(atlas)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: load_profile <file.skel|file.json> <file.atlas> [iterations]");
        std::process::exit(2);
    };
    let n: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let atlas_text = std::fs::read_to_string(atlas).expect("atlas readable");
    let atlas = spine_format::atlas::parse(&atlas_text).expect("atlas parses");
    let bytes = std::fs::read(skel).expect("skeleton readable");
    let mut bones = 0;
    for _ in 0..n {
        let data = if skel.ends_with(".json") {
            let text = std::str::from_utf8(&bytes).expect("utf-8");
            spine_model::load_json(text, Some(&atlas)).expect("loads")
        } else {
            spine_model::load_binary(&bytes, Some(&atlas)).expect("loads")
        };
        bones += data.bones.len();
    }
    println!("{bones}");
}
