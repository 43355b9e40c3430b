//! `cargo xtask <chore>`: project chores.
//!
//! * `cargo xtask snapshot [--review | --accept]` — run the insta golden tests of the whole
//!   workspace. Without a flag, mismatches fail and new snapshots are left as `.snap.new`
//!   files; `--accept` rewrites the snapshots; `--review` opens `cargo insta review`
//!   (needs `cargo install cargo-insta`).
//! * `cargo xtask gen-demo` — regenerate the demo rig in `crates/skel-cli/demo/`
//! * `cargo xtask gallery [--out DIR]` — render a few frames of corpus rigs of every Spine
//!   generation (3.5 spineboy, 3.6 vine, 3.8 raptor, 4.0 goblins, 4.2 celestial-circus with
//!   physics) with the release `skel` binary into DIR (default `target/gallery`), with an
//!   `index.md` saying what each image shows. The corpus (`../shared/fixtures`, or
//!   `SKEL_CORPUS`) is licensed: the images stay out of the repository.
//! * `cargo xtask gen-fixtures` — regenerate the Spine 4.3 fixtures
//!   (`fixtures/spine-4.3/*.skel`) from `spine-gen`; the tests check the committed files
//!   match the generator byte for byte.
//! * `cargo xtask shape [--top N] [--root DIR]` — the codebase's size figures: largest
//!   library files, longest library functions, `too_many_arguments` allows.

mod shape;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

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
    let dir = workspace_root().join("crates").join("skel-cli").join("demo");
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

/// One gallery image: file name, corpus skeleton (under `<corpus>/spine/`), `skel render`
/// arguments after the skeleton, and what the image shows.
struct Shot {
    name: &'static str,
    rig: &'static str,
    args: &'static [&'static str],
    shows: &'static str,
}

const GALLERY: &[Shot] = &[
    Shot {
        name: "3.5-spineboy-idle.png",
        rig: "3.5/spineboy/spineboy.skel",
        args: &["--anim", "idle", "--time", "0"],
        shows: "Spine 3.5 (regions in spine-c 3.5's corner order): spineboy standing in `idle`, \
                head upright, visor pale and see-through, gun held level at chest height \
                pointing right, the free hand down at his side",
    },
    Shot {
        name: "3.5-spineboy-run.png",
        rig: "3.5/spineboy/spineboy.skel",
        args: &["--anim", "run", "--time", "0.2"],
        shows: "Spine 3.5: spineboy mid-stride in `run`, leaning forward, teeth gritted, the \
                back leg kicked up behind him",
    },
    Shot {
        name: "3.6-vine-grow-0.7s.png",
        rig: "3.6/vine/vine-pro.skel",
        args: &["--anim", "grow", "--time", "0.7"],
        shows: "Spine 3.6: the vine sprouting early in `grow`, a short S-curved green stalk \
                (one mesh bent by a chain of bones) at the bottom of the frame",
    },
    Shot {
        name: "3.6-vine-grow-8s.png",
        rig: "3.6/vine/vine-pro.skel",
        args: &["--anim", "grow", "--time", "8"],
        shows: "Spine 3.6: the vine later in `grow`, a tall stalk in a double S-curve filling \
                the frame",
    },
    Shot {
        name: "3.8-raptor-walk.png",
        rig: "3.8/raptor/raptor-pro.skel",
        args: &["--anim", "walk", "--time", "0.3"],
        shows: "Spine 3.8: raptor and rider in `walk` with the straight-alpha raptor.atlas; the \
                rider's visor is pale teal and see-through",
    },
    Shot {
        name: "3.8-raptor-walk-pma.png",
        rig: "3.8/raptor/raptor-pro.skel",
        args: &["--anim", "walk", "--time", "0.3", "--atlas", "@/3.8/raptor/raptor-pma.atlas"],
        shows: "Spine 3.8, the same frame with raptor-pma.atlas: premultiplied (3.x atlases have \
                no pma: field; the -pma name tells), indistinguishable from the straight one, \
                the visor not grey",
    },
    Shot {
        name: "4.0-goblins-goblin-walk.png",
        rig: "4.0/goblins/goblins-pro.skel",
        args: &["--skin", "goblin", "--anim", "walk", "--time", "0.25"],
        shows: "Spine 4.0: the `goblin` skin walking, spear upright in his right hand, round \
                wooden shield and dagger on the other arm",
    },
    Shot {
        name: "4.0-goblins-goblingirl-walk.png",
        rig: "4.0/goblins/goblins-pro.skel",
        args: &["--skin", "goblingirl", "--anim", "walk", "--time", "0.5"],
        shows: "Spine 4.0: the `goblingirl` skin (same skeleton, other attachments): teal skin, \
                hair in a bun, the same spear and shield",
    },
    Shot {
        name: "4.2-celestial-circus-swing-physics.png",
        rig: "4.2/celestial-circus/celestial-circus-pro.skel",
        args: &["--anim", "swing", "--time", "1"],
        shows: "Spine 4.2: celestial-circus `swing` played to 1 s with physics (30 steps of \
                1/30 s, frame 30 of `skel play --fps 30`): the seat hangs close under the \
                cloud, the ropes almost vertical, the feet below the knees",
    },
    Shot {
        name: "4.2-celestial-circus-swing-no-physics.png",
        rig: "4.2/celestial-circus/celestial-circus-pro.skel",
        args: &["--anim", "swing", "--time", "1", "--physics", "none"],
        shows: "Spine 4.2: the same frame posed with `--physics none` (the keyed pose): the \
                seat swung further out to the right, legs stretched forward",
    },
    Shot {
        name: "4.2-celestial-circus-swing.gif",
        rig: "4.2/celestial-circus/celestial-circus-pro.skel",
        args: &["--anim", "swing", "--size", "320x320"],
        shows: "Spine 4.2: the whole `swing` (2.2 s at 30 fps) played with physics: she swings \
                left and right under the cloud",
    },
];

/// The Spine corpus folder: `$SKEL_CORPUS/spine`, else `../shared/fixtures/spine`.
fn spine_corpus() -> PathBuf {
    std::env::var_os("SKEL_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("..").join("shared").join("fixtures"))
        .join("spine")
}

fn gallery(args: &[String]) -> ExitCode {
    let root = workspace_root();
    let mut out = root.join("target").join("gallery");
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match (a.as_str(), it.next()) {
            ("--out", Some(dir)) => out = PathBuf::from(dir),
            _ => {
                eprintln!("usage: cargo xtask gallery [--out DIR]");
                return ExitCode::from(2);
            }
        }
    }
    let corpus = spine_corpus();
    if !corpus.is_dir() {
        eprintln!(
            "xtask gallery: the Spine corpus is not at {} (set SKEL_CORPUS to the fixtures \
             folder holding spine/)",
            corpus.display()
        );
        return ExitCode::from(1);
    }
    let built = run(Command::new("cargo").current_dir(&root).args([
        "build",
        "--release",
        "--quiet",
        "-p",
        "skel-cli",
    ]));
    if built != ExitCode::SUCCESS {
        return built;
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    let skel = target.join("release").join(format!("skel{}", std::env::consts::EXE_SUFFIX));
    if let Err(e) = std::fs::create_dir_all(&out) {
        eprintln!("xtask: cannot create {}: {e}", out.display());
        return ExitCode::from(1);
    }
    let mut index = String::from(
        "# skel gallery\n\nRendered by `cargo xtask gallery` from the shared Spine corpus \
         (licensed example exports: keep these images out of the repository). Each \
         command also has `--background e8e8e8ff` and, unless it says otherwise, `--size \
         512x512`.\n\n",
    );
    for shot in GALLERY {
        let path = out.join(shot.name);
        let mut cmd = Command::new(&skel);
        cmd.arg("render").arg(corpus.join(shot.rig));
        for a in shot.args {
            match a.strip_prefix("@/") {
                Some(rel) => cmd.arg(corpus.join(rel)),
                None => cmd.arg(a),
            };
        }
        if !shot.args.contains(&"--size") {
            cmd.args(["--size", "512x512"]);
        }
        cmd.args(["--background", "e8e8e8ff", "--out"]).arg(&path).stdout(Stdio::null());
        let status = run(&mut cmd);
        if status != ExitCode::SUCCESS {
            eprintln!("xtask gallery: {} failed", shot.name);
            return status;
        }
        println!("{}", path.display());
        let args = shot.args.join(" ").replace("@/", "");
        index.push_str(&format!(
            "## {}\n\n`skel render {} {args}`\n\n{}\n\n![{}]({})\n\n",
            shot.name, shot.rig, shot.shows, shot.name, shot.name
        ));
    }
    if let Err(e) = std::fs::write(out.join("index.md"), index) {
        eprintln!("xtask: cannot write index.md: {e}");
        return ExitCode::from(1);
    }
    println!("{}", out.join("index.md").display());
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("snapshot") => snapshot(&args[1..]),
        Some("gen-fixtures") => gen_fixtures(),
        Some("gen-demo") => gen_demo(),
        Some("gallery") => gallery(&args[1..]),
        Some("shape") => shape::shape(&args[1..]),
        _ => {
            eprintln!(
                "usage: cargo xtask snapshot [--review | --accept] | gen-fixtures | gen-demo \
                 | gallery [--out DIR] | shape [--top N] [--root DIR]"
            );
            ExitCode::from(2)
        }
    }
}
