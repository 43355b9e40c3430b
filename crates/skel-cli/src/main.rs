//! `skel`: the command-line face of the workspace (contract: `../shared/cli-contract.md`).
//!
//! Thin by design: argument parsing, file I/O and output encoding. Every behaviour is a
//! library function first.

/// `println!` that never panics: a closed stdout (e.g. `skel … | head`) ends the output quietly.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::emit_line(format_args!($($arg)*))
    };
}

mod bench;
mod info;
mod pose;
mod render;
mod skf;
mod validate;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use spine_model::validate::AtlasChoice;

/// Inspect and use Spine and SkelForm skeletons.
#[derive(Parser)]
#[command(name = "skel", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Summarize a skeleton file: version, counts, skins, events, animations.
    Info {
        /// The skeleton file (.skel); the format is detected from the content.
        file: PathBuf,
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Load and resolve each file; print every problem found, one per line.
    Validate {
        /// Skeleton files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The atlas to bind regions from (default: the one next to each skeleton).
        #[arg(long, conflicts_with = "no_atlas")]
        atlas: Option<PathBuf>,
        /// Check geometry only, without an atlas.
        #[arg(long)]
        no_atlas: bool,
    },
    /// Pose: setup pose, then one animation applied once at a time; world transforms.
    Pose {
        /// The skeleton file.
        file: PathBuf,
        /// Atlas (default: the one next to the skeleton).
        #[arg(long)]
        atlas: Option<PathBuf>,
        /// Skin (default: the first non-default skin, if any).
        #[arg(long)]
        skin: Option<String>,
        /// Animation name.
        #[arg(long)]
        anim: String,
        /// Time in seconds, read as an f32 exactly as written.
        #[arg(long, required_unless_present = "frame")]
        time: Option<String>,
        /// SkelForm only: the integer frame to pose (instead of `--time`).
        #[arg(long, conflicts_with = "time")]
        frame: Option<u32>,
        /// Add world vertices of region and mesh attachments.
        #[arg(long)]
        vertices: bool,
        /// Print JSON (the only output form).
        #[arg(long)]
        json: bool,
    },
    /// Run an AnimationState: A looping, B queued after a delay; samples every n-th frame.
    Play {
        /// The skeleton file.
        file: PathBuf,
        /// Atlas (default: the one next to the skeleton).
        #[arg(long)]
        atlas: Option<PathBuf>,
        /// Skin (default: the first non-default skin, if any).
        #[arg(long)]
        skin: Option<String>,
        /// `A` or `A,B`.
        #[arg(long, value_delimiter = ',', required = true)]
        anim: Vec<String>,
        /// Default mix duration.
        #[arg(long, default_value_t = 0.2)]
        mix: f32,
        /// Delay before B.
        #[arg(long, default_value_t = 0.5)]
        delay: f32,
        /// Frames per second.
        #[arg(long, default_value_t = 60.0)]
        fps: f32,
        /// Frames to run.
        #[arg(long, default_value_t = 180)]
        frames: usize,
        /// Sample every n-th frame (and frame 1).
        #[arg(long, default_value_t = 10)]
        every: usize,
        /// Add world vertices of region and mesh attachments to each sample (as `pose`).
        #[arg(long)]
        vertices: bool,
        /// Print JSON (the only output form).
        #[arg(long)]
        json: bool,
    },
    /// The render commands of one pose (clipping and spine-cpp batching applied), as JSON.
    Commands {
        /// The skeleton file.
        file: PathBuf,
        /// Atlas (default: the one next to the skeleton; none found is an error).
        #[arg(long, conflicts_with = "no_atlas")]
        atlas: Option<PathBuf>,
        /// Geometry only: every region and mesh on one 1x1 page named "(no atlas)".
        #[arg(long)]
        no_atlas: bool,
        /// Skin (default: the first non-default skin, if any).
        #[arg(long)]
        skin: Option<String>,
        /// Animation name.
        #[arg(long)]
        anim: String,
        /// Time in seconds, read as an f32 exactly as written.
        #[arg(long, default_value = "0")]
        time: String,
        /// Play to --time as `skel play` does (AnimationState from 0 at 1/--fps steps,
        /// physics on) instead of posing at --time with physics off.
        #[arg(long)]
        play: bool,
        /// Frames per second of the --play run.
        #[arg(long, default_value_t = 30.0, requires = "play")]
        fps: f32,
        /// Print JSON (the only output form).
        #[arg(long)]
        json: bool,
    },
    /// Draw with the software renderer: PNG, PNG sequence (folder ending `/`), GIF, APNG, WebP.
    Render {
        /// The skeleton file (default: the project's demo rig).
        file: Option<PathBuf>,
        /// Atlas (default: the one next to the skeleton; none found is an error); page
        /// images are read next to it.
        #[arg(long, conflicts_with = "no_atlas")]
        atlas: Option<PathBuf>,
        /// Draw geometry only, untextured (every region and mesh a flat grey).
        #[arg(long)]
        no_atlas: bool,
        /// The atlas pages are premultiplied (default: the atlas' `pma:` field, else a
        /// file name ending in `-pma.atlas`). Not for SkelForm files.
        #[arg(long, conflicts_with = "no_pma")]
        pma: bool,
        /// The atlas pages are not premultiplied (overrides the atlas).
        #[arg(long)]
        no_pma: bool,
        /// How frames are posed (default: update; a still --time T is then played from 0 to
        /// T). Not for SkelForm files.
        #[arg(long, value_enum)]
        physics: Option<render::PhysicsMode>,
        /// Skin (default: the first non-default skin, if any).
        #[arg(long)]
        skin: Option<String>,
        /// Animation (default: the first one).
        #[arg(long, conflicts_with = "all")]
        anim: Option<String>,
        /// One output per animation (`-<anim>` is added before the extension).
        #[arg(long)]
        all: bool,
        /// Time of a single .png frame, seconds.
        #[arg(long, default_value = "0")]
        time: String,
        /// Frames per second of animated outputs, and the step of the played run.
        #[arg(long, default_value_t = 30.0)]
        fps: f32,
        /// Image size WxH (default: the animation's bounds at --scale, at most 2048).
        #[arg(long)]
        size: Option<String>,
        /// Pixels per world unit (default: fit the animation's bounds).
        #[arg(long)]
        scale: Option<f32>,
        /// Background RRGGBBAA (default transparent).
        #[arg(long, default_value = "00000000")]
        background: String,
        /// Output: .png, .gif, .apng, .webp, or a folder ending in `/`.
        #[arg(long)]
        out: String,
        /// SkelForm only: an active style by name (repeatable, highest priority first;
        /// default "Default", else all).
        #[arg(long = "style")]
        styles: Vec<String>,
    },
    /// Time loading, one frame and render-command generation (medians, in-process).
    Bench {
        /// The skeleton file (.skel, .json or .skf).
        file: PathBuf,
        /// Atlas (default: the one next to the skeleton).
        #[arg(long)]
        atlas: Option<PathBuf>,
        /// Skin (default: the first non-default skin, if any).
        #[arg(long)]
        skin: Option<String>,
        /// Animation (default: the first one).
        #[arg(long)]
        anim: Option<String>,
        /// Milliseconds spent measuring each figure, after its warm-up.
        #[arg(long, default_value_t = 1000)]
        budget_ms: u64,
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Print the raw AST the format layer read.
    Dump {
        /// The skeleton file.
        file: PathBuf,
        /// Print JSON instead of readable text.
        #[arg(long)]
        json: bool,
    },
}

/// A failure to report as `error: <file>: <message>` with exit code 1.
pub(crate) struct Failure {
    file: PathBuf,
    message: String,
}

impl Failure {
    pub(crate) fn new(file: &Path, message: impl ToString) -> Self {
        Failure { file: file.to_path_buf(), message: message.to_string() }
    }
}

/// Reads `file` when it is a SkelForm document (a zip archive, or JSON without Spine's
/// top-level `skeleton` key); `Ok(None)` for anything else (Spine binary or JSON).
fn skelform_bytes(file: &Path) -> Result<Option<Vec<u8>>, Failure> {
    check_size(file)?;
    let bytes = std::fs::read(file).map_err(|e| Failure::new(file, e))?;
    if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
        return Ok(Some(bytes));
    }
    if skf::is_skelform(&bytes) {
        // A JSON object: Spine's exports always carry a top-level "skeleton" object.
        let text = String::from_utf8_lossy(&bytes);
        let text = text.trim_start_matches('\u{feff}');
        if let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(text)
        {
            if !map.contains_key("skeleton") {
                return Ok(Some(bytes));
            }
        }
    }
    Ok(None)
}

/// Writes one line to stdout; on a broken pipe, exits quietly with success.
pub(crate) fn emit_line(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if out.write_fmt(args).and_then(|()| out.write_all(b"\n")).is_err() {
        std::process::exit(0);
    }
}

/// Refuses files over [`spine_format::Limits`]' size limit before reading them.
pub(crate) fn check_size(file: &Path) -> Result<(), Failure> {
    let max = spine_format::Limits::default().max_file_bytes;
    match std::fs::metadata(file) {
        Ok(m) if m.len() > max as u64 => Err(Failure::new(
            file,
            format!("file is {} bytes, over the {max}-byte limit (max_file_bytes)", m.len()),
        )),
        Ok(_) => Ok(()),
        Err(e) => Err(Failure::new(file, e)),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Info { file, json } => match skelform_bytes(file) {
            Ok(Some(bytes)) => skf::info(file, &bytes, *json),
            Ok(None) => info::info(file, *json),
            Err(f) => Err(f),
        },
        Command::Dump { file, json } => info::dump(file, *json),
        Command::Bench { file, atlas, skin, anim, budget_ms, json } => {
            let args = bench::BenchArgs {
                atlas: atlas.clone(),
                skin: skin.clone(),
                anim: anim.clone(),
                budget: std::time::Duration::from_millis(*budget_ms),
            };
            let report = match skelform_bytes(file) {
                Err(f) => return report(Err(f)),
                Ok(Some(bytes)) => bench::skelform(&bytes, &args),
                Ok(None) => bench::spine(file, &args),
            };
            report
                .map(|r| {
                    if *json {
                        outln!("{}", r.to_json(file));
                    } else {
                        bench::print_text(file, &r);
                    }
                })
                .map_err(|e| Failure::new(file, e))
        }
        Command::Pose { file, atlas, skin, anim, time, frame, vertices, json } => {
            let time = time.as_deref().map(pose::parse_time).transpose();
            match (skelform_bytes(file), time) {
                (Err(f), _) => Err(f),
                (_, Err(e)) => Err(Failure::new(file, e)),
                (Ok(Some(bytes)), Ok(t)) => {
                    let at = match (frame, t) {
                        (Some(n), _) => skf::PoseAt::Frame(*n),
                        (None, Some(t)) => skf::PoseAt::Time(t),
                        (None, None) => skf::PoseAt::Frame(0),
                    };
                    skf::pose(file, &bytes, anim, at, *json)
                }
                (Ok(None), Ok(None)) => {
                    Err(Failure::new(file, "--time is required for Spine skeletons"))
                }
                (Ok(None), Ok(Some(t))) => {
                    pose::pose(file, atlas.as_deref(), skin.as_deref(), anim, t, *vertices)
                        .map(|v| outln!("{v}"))
                        .map_err(|e| Failure::new(file, e))
                }
            }
        }
        Command::Play {
            file,
            atlas,
            skin,
            anim,
            mix,
            delay,
            fps,
            frames,
            every,
            vertices,
            json,
        } => {
            match skelform_bytes(file) {
                Err(f) => return report(Err(f)),
                Ok(Some(bytes)) => {
                    let name = anim.first().map(String::as_str).unwrap_or_default();
                    return report(skf::play(file, &bytes, name, *json));
                }
                Ok(None) => {}
            }
            let o = pose::PlayOptions {
                anims: anim.clone(),
                mix: *mix,
                delay: *delay,
                fps: *fps,
                frames: *frames,
                every: *every,
                vertices: *vertices,
            };
            pose::play(file, atlas.as_deref(), skin.as_deref(), &o)
                .map(|v| outln!("{v}"))
                .map_err(|e| Failure::new(file, e))
        }
        Command::Commands { file, atlas, no_atlas, skin, anim, time, play, fps, json: _ } => {
            let atlas = atlas_choice(atlas.as_ref(), *no_atlas);
            let play = play.then_some(*fps);
            pose::parse_time(time)
                .and_then(|t| render::commands(file, &atlas, skin.as_deref(), anim, t, play))
                .map(|v| outln!("{v}"))
                .map_err(|e| Failure::new(file, e))
        }
        Command::Render {
            file,
            atlas,
            no_atlas,
            pma,
            no_pma,
            physics,
            skin,
            anim,
            all,
            time,
            fps,
            size,
            scale,
            background,
            out,
            styles,
        } => {
            let shown = file.clone().unwrap_or_else(render::demo_rig_path);
            let skf_bytes = match file.as_deref().map(skelform_bytes).transpose() {
                Ok(b) => b.flatten(),
                Err(f) => return report(Err(f)),
            };
            if let Some(bytes) = skf_bytes {
                let spine_only: Vec<&str> = [
                    (*no_atlas, "--no-atlas"),
                    (*pma, "--pma"),
                    (*no_pma, "--no-pma"),
                    (physics.is_some(), "--physics"),
                ]
                .into_iter()
                .filter_map(|(given, flag)| given.then_some(flag))
                .collect();
                if !spine_only.is_empty() {
                    eprintln!(
                        "error: {}: {} apply only to Spine skeletons: a SkelForm .skf archive \
                         carries its own textures (straight alpha) and runs its own physics",
                        shown.display(),
                        spine_only.join(", ")
                    );
                    return ExitCode::from(2);
                }
                let args = (|| {
                    Ok::<_, String>(skf::SkfRenderArgs {
                        anim: anim.clone(),
                        all: *all,
                        time: pose::parse_time(time)?,
                        fps: *fps,
                        size: size.as_deref().map(render::parse_size).transpose()?,
                        scale: *scale,
                        background: skel_render::parse_rgba_hex(background).ok_or_else(|| {
                            format!("--background must be RRGGBBAA: {background:?}")
                        })?,
                        styles: styles.clone(),
                        out: out.clone(),
                    })
                })();
                let result = match args {
                    Ok(a) => skf::render(&shown, &bytes, &a),
                    Err(e) => Err(Failure::new(&shown, e)),
                };
                return report(result.map(|paths| {
                    for p in paths {
                        outln!("{}", p.display());
                    }
                }));
            }
            let args = (|| {
                use std::io::IsTerminal;
                Ok::<_, String>(render::RenderArgs {
                    file: file.clone(),
                    atlas: atlas_choice(atlas.as_ref(), *no_atlas),
                    pma: if *pma {
                        Some(true)
                    } else if *no_pma {
                        Some(false)
                    } else {
                        None
                    },
                    physics: physics.unwrap_or_default(),
                    skin: skin.clone(),
                    anim: anim.clone(),
                    all: *all,
                    time: pose::parse_time(time)?,
                    fps: *fps,
                    size: size.as_deref().map(render::parse_size).transpose()?,
                    scale: *scale,
                    background: skel_render::parse_rgba_hex(background)
                        .ok_or_else(|| format!("--background must be RRGGBBAA: {background:?}"))?,
                    out: out.clone(),
                    progress: std::io::stderr().is_terminal(),
                })
            })();
            args.and_then(|a| render::render(&a))
                .map(|paths| {
                    for p in paths {
                        outln!("{}", p.display());
                    }
                })
                .map_err(|e| Failure::new(&shown, e))
        }
        Command::Validate { files, atlas, no_atlas } => {
            return if validate::run(files, atlas.as_ref(), *no_atlas) {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            };
        }
    };
    report(result)
}

/// `--atlas A` / `--no-atlas` / neither.
fn atlas_choice(atlas: Option<&PathBuf>, no_atlas: bool) -> AtlasChoice {
    match (atlas, no_atlas) {
        (_, true) => AtlasChoice::None,
        (Some(a), false) => AtlasChoice::File(a.clone()),
        (None, false) => AtlasChoice::Auto,
    }
}

/// Prints a failure as `error: <file>: <message>` and maps the result to the exit code.
fn report(result: Result<(), Failure>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("error: {}: {}", f.file.display(), f.message);
            ExitCode::from(1)
        }
    }
}
