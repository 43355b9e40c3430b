//! `cargo run -p skel-view --example view -- [--port N] [FILE|DIR]...`: the viewer without
//! the `skel` command (what `skel view` runs).

fn main() {
    let mut opts = skel_view::ViewOptions::default();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--port" => opts.port = args.next().and_then(|p| p.parse().ok()).unwrap_or(0),
            "--open" => opts.open = true,
            _ => opts.paths.push(a.into()),
        }
    }
    if let Err(e) = skel_view::run(&opts) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
