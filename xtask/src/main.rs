//! `cargo xtask <chore>`: project chores.
//!
//! * `cargo xtask snapshot [--review | --accept]` — run the insta golden tests of the whole
//!   workspace. Without a flag, mismatches fail and new snapshots are left as `.snap.new`
//!   files; `--accept` rewrites the snapshots; `--review` opens `cargo insta review`
//!   (needs `cargo install cargo-insta`).
//! * `cargo xtask gen-demo` — regenerate the demo rig in `fixtures/demo/`
//! * `cargo xtask gen-fixtures` — regenerate the Spine 4.3 fixtures
//!   (`fixtures/spine-4.3/*.skel`) from `spine-gen`; the tests check the committed files
//!   match the generator byte for byte.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_default()
}

fn run(cmd: &mut Command) -> ExitCode {
    match cmd.status() {
        Ok(s) if s.success() => ExitCode::SUCCESS,
        Ok(s) => ExitCode::from(u8::try_from(s.code().unwrap_or(1)).unwrap_or(1)),
        Err(e) => {
            eprintln!("xtask: could not run {cmd:?}: {e}");
            ExitCode::from(1)
        }
    }
}

fn has_cargo_insta() -> bool {
    Command::new("cargo").args(["insta", "--version"]).output().is_ok_and(|o| o.status.success())
}

fn snapshot(args: &[String]) -> ExitCode {
    let root = workspace_root();
    let mode = args.first().map(String::as_str);
    match mode {
        Some("--review") => {
            if !has_cargo_insta() {
                eprintln!("xtask: --review needs cargo-insta (cargo install cargo-insta)");
                return ExitCode::from(2);
            }
            run(Command::new("cargo").current_dir(&root).args([
                "insta",
                "test",
                "--workspace",
                "--review",
            ]))
        }
        Some("--accept") => run(Command::new("cargo")
            .current_dir(&root)
            .env("INSTA_UPDATE", "always")
            .args(["test", "--workspace"])),
        None => run(Command::new("cargo")
            .current_dir(&root)
            .env("INSTA_UPDATE", "new")
            .args(["test", "--workspace"])),
        Some(other) => {
            eprintln!("xtask snapshot: unknown flag {other} (expected --review or --accept)");
            ExitCode::from(2)
        }
    }
}

fn gen_fixtures() -> ExitCode {
    let dir = workspace_root().join("fixtures").join("spine-4.3");
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("xtask: cannot create {}: {e}", dir.display());
        return ExitCode::from(1);
    }
    for (name, ast) in spine_gen::named_fixtures() {
        let bytes = spine_format::binary::v43::write(&ast);
        let path = dir.join(format!("{name}.skel"));
        if let Err(e) = std::fs::write(&path, &bytes) {
            eprintln!("xtask: cannot write {}: {e}", path.display());
            return ExitCode::from(1);
        }
        println!("{:>8} bytes  {}", bytes.len(), path.display());
    }
    ExitCode::SUCCESS
}

fn gen_demo() -> ExitCode {
    let dir = workspace_root().join("fixtures").join("demo");
    let rig = spine_gen::demo::demo_rig();
    let result = std::fs::create_dir_all(&dir)
        .map_err(|e| e.to_string())
        .and_then(|()| {
            std::fs::write(dir.join("demo.json"), &rig.skeleton_json).map_err(|e| e.to_string())
        })
        .and_then(|()| {
            std::fs::write(dir.join("demo.atlas"), &rig.atlas).map_err(|e| e.to_string())
        })
        .and_then(|()| {
            skel_render::encode::save_png(&dir.join("demo.png"), rig.width, rig.height, &rig.rgba)
                .map_err(|e| e.to_string())
        });
    match result {
        Ok(()) => {
            println!("wrote demo.json, demo.atlas, demo.png to {}", dir.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("xtask: gen-demo: {e}");
            ExitCode::from(1)
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("snapshot") => snapshot(&args[1..]),
        Some("gen-fixtures") => gen_fixtures(),
        Some("gen-demo") => gen_demo(),
        _ => {
            eprintln!(
                "usage: cargo xtask snapshot [--review | --accept] | gen-fixtures | gen-demo"
            );
            ExitCode::from(2)
        }
    }
}
