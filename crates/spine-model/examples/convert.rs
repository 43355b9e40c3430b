//! `cargo run -p spine-model --example convert -- IN --to VERSION [--format skel|json] --out OUT`:
//! the library side of `skel convert` ([`spine_model::convert::convert`]).

use spine_model::convert::{convert, Format};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut input = None;
    let (mut to, mut format, mut out) = (None, None, None);
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--to" => {
                to = args.get(i + 1).cloned();
                i += 1;
            }
            "--format" => {
                format = args.get(i + 1).cloned();
                i += 1;
            }
            "--out" => {
                out = args.get(i + 1).cloned();
                i += 1;
            }
            a => input = Some(a.to_owned()),
        }
        i += 1;
    }
    let (Some(input), Some(to), Some(out)) = (input, to, out) else {
        eprintln!("usage: convert IN --to VERSION [--format skel|json] --out OUT");
        std::process::exit(2);
    };
    let format = match format.as_deref() {
        Some("json") => Some(Format::Json),
        Some("skel") => Some(Format::Binary),
        None => None,
        Some(f) => {
            eprintln!("unknown format {f}");
            std::process::exit(2);
        }
    };
    let bytes = std::fs::read(&input).expect("readable input");
    let format =
        format.unwrap_or(if out.ends_with(".json") { Format::Json } else { Format::Binary });
    match convert(&bytes, &to, format) {
        Ok(o) => {
            for n in &o.notes {
                eprintln!("note: {n}");
            }
            std::fs::write(&out, &o.bytes).expect("writable output");
        }
        Err(e) => {
            eprintln!("error: {input}: {e}");
            std::process::exit(1);
        }
    }
}
