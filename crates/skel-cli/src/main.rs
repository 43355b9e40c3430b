//! `skel`: the command-line face of the workspace (contract: `../shared/cli-contract.md`).
//!
//! Thin by design: argument parsing, file I/O and output encoding. Every behaviour is a
//! library function first.
//!
//! Hostile input rules, shared by every verb:
//!
//! * value arguments are checked in one place ([`args`]); a bad one is a usage error (exit 2)
//!   naming the allowed range;
//! * each input is read once, bounded, `-` being standard input ([`io`]); its format is
//!   detected from the content by one function ([`spine_model::sniff`]);
//! * outputs never overwrite an input and appear whole or not at all ([`io`]);
//! * runs and outputs have at most `--max-frames` frames; `play` streams its samples;
//! * errors are one line: `error: <file>: <what>`, control characters escaped.

/// `println!` that never panics: a closed stdout (e.g. `skel … | head`) ends the output quietly.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::emit_line(format_args!($($arg)*))
    };
}

mod args;
mod batch;
mod bench;
mod convert;
mod info;
mod io;
mod names;
mod output;
mod pose;
mod raster;
mod render;
mod render_cli;
mod skf;
mod validate;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use spine_model::validate::AtlasChoice;
use spine_model::{sniff, FileFormat};

use crate::args::DEFAULT_MAX_FRAMES;
use crate::pose::SkeletonInput;

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
        /// The skeleton file (.skel, .json, .skf; `-`: standard input); the format is
        /// detected from the content.
        file: PathBuf,
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Load and resolve each file; print every problem found, one per line.
    Validate {
        /// Skeleton files (.skel, .json, .skf; `-`: standard input).
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
        /// The skeleton file: .skel or .json (Spine 3.5-4.3), .skf or armature.json
        /// (SkelForm); `-`: standard input. The format is detected from the content.
        file: PathBuf,
        /// Atlas (default: the one next to the skeleton).
        #[arg(long)]
        atlas: Option<PathBuf>,
        /// Skin, or skins to combine separated by commas (`a,b`); default: the first
        /// non-default skin, if any.
        #[arg(long)]
        skin: Option<String>,
        /// Animation name.
        #[arg(long)]
        anim: String,
        /// Time in seconds, read as an f32 exactly as written (any finite number).
        #[arg(long, required_unless_present = "frame", allow_hyphen_values = true,
              value_parser = args::time)]
        time: Option<f32>,
        /// SkelForm only: the integer frame to pose (instead of `--time`).
        #[arg(long, conflicts_with = "time")]
        frame: Option<u32>,
        /// Add world vertices of region and mesh attachments.
        #[arg(long)]
        vertices: bool,
        /// Print JSON (Spine: the only output form; SkelForm: readable text without it).
        #[arg(long)]
        json: bool,
    },
    /// Run an AnimationState: A looping, B queued after a delay; samples every n-th frame.
    Play {
        /// The skeleton file: .skel or .json (Spine 3.5-4.3), .skf or armature.json
        /// (SkelForm); `-`: standard input. The format is detected from the content.
        file: PathBuf,
        /// Atlas (default: the one next to the skeleton).
        #[arg(long)]
        atlas: Option<PathBuf>,
        /// Skin, or skins to combine separated by commas (`a,b`); default: the first
        /// non-default skin, if any.
        #[arg(long)]
        skin: Option<String>,
        /// `A` or `A,B`.
        #[arg(long, value_delimiter = ',', required = true)]
        anim: Vec<String>,
        /// Default mix duration, 0 to 3600 seconds.
        #[arg(long, default_value = "0.2", allow_hyphen_values = true,
              value_parser = args::mix)]
        mix: f32,
        /// Delay before B, -3600 to 3600 seconds.
        #[arg(long, default_value = "0.5", allow_hyphen_values = true,
              value_parser = args::delay)]
        delay: f32,
        /// Frames per second, 1 to 1000.
        #[arg(long, default_value = "60", allow_hyphen_values = true,
              value_parser = args::fps)]
        fps: f32,
        /// Frames to run, 1 to --max-frames.
        #[arg(long, default_value = "180", allow_hyphen_values = true,
              value_parser = args::count)]
        frames: u32,
        /// Sample every n-th frame (and frame 1).
        #[arg(long, default_value = "10", allow_hyphen_values = true,
              value_parser = args::count)]
        every: u32,
        /// Most frames to run (SkelForm: the animation's frames).
        #[arg(long, default_value_t = DEFAULT_MAX_FRAMES, allow_hyphen_values = true,
              value_parser = args::count)]
        max_frames: u32,
        /// Add world vertices of region and mesh attachments to each sample (as `pose`).
        #[arg(long)]
        vertices: bool,
        /// Print JSON (Spine: the only output form; SkelForm: readable text without it).
        #[arg(long)]
        json: bool,
    },
    /// The render commands of one pose (clipping and spine-cpp batching applied), as JSON.
    Commands {
        /// The skeleton file: .skel or .json (Spine 3.5-4.3), .skf or armature.json
        /// (SkelForm); `-`: standard input. The format is detected from the content.
        file: PathBuf,
        /// Atlas (default: the one next to the skeleton; none found is an error).
        #[arg(long, conflicts_with = "no_atlas")]
        atlas: Option<PathBuf>,
        /// Geometry only: every region and mesh on one 1x1 page named "(no atlas)".
        #[arg(long)]
        no_atlas: bool,
        /// Skin, or skins to combine separated by commas (`a,b`); default: the first
        /// non-default skin, if any.
        #[arg(long)]
        skin: Option<String>,
        /// Animation name.
        #[arg(long)]
        anim: String,
        /// Time in seconds, read as an f32 exactly as written (with --play: 0 or more).
        #[arg(long, default_value = "0", allow_hyphen_values = true,
              value_parser = args::time)]
        time: f32,
        /// Play to --time as `skel play` does (AnimationState from 0 at 1/--fps steps,
        /// physics on) instead of posing at --time with physics off.
        #[arg(long)]
        play: bool,
        /// Frames per second of the --play run, 1 to 1000.
        #[arg(long, default_value = "30", requires = "play", allow_hyphen_values = true,
              value_parser = args::fps)]
        fps: f32,
        /// Most steps of the --play run.
        #[arg(long, default_value_t = DEFAULT_MAX_FRAMES, allow_hyphen_values = true,
              value_parser = args::count)]
        max_frames: u32,
        /// Print JSON (the only output form).
        #[arg(long)]
        json: bool,
    },
    /// Draw with the software renderer (or skel-wgpu: --gpu). Takes .skel / .json (Spine
    /// 3.5-4.3), .skf (SkelForm), or a folder of them; writes .png, a PNG sequence (folder
    /// ending `/`), .gif, .apng, .webp, and through ffmpeg .mp4, .webm, .mov.
    Render(render_cli::RenderCli),
    /// Time loading, one frame and render-command generation (medians, in-process).
    Bench {
        /// The skeleton file (.skel, .json or .skf; `-`: standard input).
        file: PathBuf,
        /// Atlas (default: the one next to the skeleton).
        #[arg(long)]
        atlas: Option<PathBuf>,
        /// Skin, or skins to combine separated by commas (`a,b`); default: the first
        /// non-default skin, if any.
        #[arg(long)]
        skin: Option<String>,
        /// Animation (default: the first one).
        #[arg(long)]
        anim: Option<String>,
        /// Milliseconds spent measuring each figure, after its warm-up (1 to 3600000).
        #[arg(long, default_value = "1000", value_parser = args::budget_ms)]
        budget_ms: u64,
        /// Print one JSON document instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Serve a browser viewer on 127.0.0.1 (prints its URL; Ctrl-C stops it).
    View {
        /// Skeleton files (.skel, .json, .skf) and folders of them to serve (default: the
        /// demo rig).
        paths: Vec<PathBuf>,
        /// Port (default: a free one).
        #[arg(long, default_value_t = 0)]
        port: u16,
        /// Open the page in the default browser.
        #[arg(long)]
        open: bool,
    },
    /// Convert a Spine skeleton: binary <-> JSON within its version (3.5-4.3), or upgrade a
    /// 3.5-4.2 one to 4.2 or 4.3. Downgrades are refused.
    Convert {
        /// The skeleton file (.skel or .json; `-`: standard input).
        file: PathBuf,
        /// Target version: the input's own, or 4.2 / 4.3 (e.g. `4.3`).
        #[arg(long)]
        to: String,
        /// Output format (default: from the output's extension, else the input's).
        #[arg(long, value_parser = ["skel", "json"])]
        format: Option<String>,
        /// Output file.
        #[arg(long)]
        out: PathBuf,
    },
    /// Print the raw AST the format layer read (SkelForm: the armature.json document).
    Dump {
        /// The skeleton file: .skel or .json (Spine 3.5-4.3), .skf or armature.json
        /// (SkelForm); `-`: standard input. The format is detected from the content.
        file: PathBuf,
        /// Print JSON instead of readable text.
        #[arg(long)]
        json: bool,
    },
}

/// The embedded demo rig written where the viewer can read it: one folder per user,
/// rewritten on every run (`$XDG_CACHE_HOME/skel/demo`, else `$HOME/.cache/skel/demo`), so
/// nothing piles up and nothing is written into a shared temporary folder another user could
/// prepare. Without a home, a new folder under the temporary one, created exclusively (an
/// existing path is an error, never followed).
fn demo_for_viewer() -> Result<PathBuf, Failure> {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| PathBuf::from(h).join(".cache"))
        });
    let dir = match cache {
        Some(c) => c.join("skel").join("demo"),
        None => {
            let dir = std::env::temp_dir().join(format!("skel-demo-{}", std::process::id()));
            std::fs::create_dir(&dir).map_err(|e| Failure {
                file: Some(dir.clone()),
                message: format!("cannot create a folder for the demo rig: {e}"),
                usage: false,
            })?;
            dir
        }
    };
    render::write_demo(&dir).map_err(|e| Failure {
        file: Some(dir.clone()),
        message: format!("cannot write the demo rig: {e}"),
        usage: false,
    })
}

/// A failure: an input problem (`error: <file>: <message>`, exit 1) or wrong usage (exit 2).
pub(crate) struct Failure {
    pub(crate) file: Option<PathBuf>,
    pub(crate) message: String,
    pub(crate) usage: bool,
}

impl Failure {
    /// A problem with `file` (exit 1).
    pub(crate) fn new(file: &Path, message: impl ToString) -> Self {
        Failure { file: Some(file.to_path_buf()), message: message.to_string(), usage: false }
    }

    /// Wrong usage (exit 2).
    pub(crate) fn usage(message: impl ToString) -> Self {
        Failure { file: None, message: message.to_string(), usage: true }
    }
}

/// `text` with every control character (line breaks included) escaped, so that a message
/// or a name from a file is one harmless line on a terminal.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// Writes one line to stdout; on a broken pipe, exits quietly with success.
pub(crate) fn emit_line(args: std::fmt::Arguments<'_>) {
    let mut out = std::io::stdout().lock();
    if out.write_fmt(args).and_then(|()| out.write_all(b"\n")).is_err() {
        std::process::exit(0);
    }
}

/// One JSON document written to stdout piece by piece (buffered); a closed stdout ends the
/// process quietly with success, as [`emit_line`].
pub(crate) struct JsonOut(std::io::BufWriter<std::io::StdoutLock<'static>>);

impl JsonOut {
    pub(crate) fn new() -> JsonOut {
        JsonOut(std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock()))
    }

    fn check(r: std::io::Result<()>) {
        if r.is_err() {
            std::process::exit(0);
        }
    }

    /// Writes JSON text as is.
    pub(crate) fn raw(&mut self, text: &str) {
        JsonOut::check(self.0.write_all(text.as_bytes()));
    }

    /// Writes a JSON value.
    pub(crate) fn value(&mut self, v: &serde_json::Value) {
        JsonOut::check(serde_json::to_writer(&mut self.0, v).map_err(std::io::Error::other));
    }

    /// Ends the document (a newline) and flushes.
    pub(crate) fn finish(mut self) {
        JsonOut::check(self.0.write_all(b"\n").and_then(|()| self.0.flush()));
    }

    /// Drops what is still buffered (after an error: a short document is then not printed
    /// at all; a long one stops where it was).
    pub(crate) fn abandon(self) {
        let _ = self.0.into_parts();
    }
}

/// Reads a skeleton file once (bounded) and detects its format; an atlas, an image or other
/// non-skeleton is refused saying what it is.
pub(crate) fn read_skeleton(file: &Path) -> Result<(Vec<u8>, FileFormat), Failure> {
    let bytes = io::read_input(file, "skeleton").map_err(|e| Failure::new(file, e))?;
    let format = sniff(&bytes);
    match format.refusal() {
        Some(why) => Err(Failure::new(file, why)),
        None => Ok((bytes, format)),
    }
}

/// Refuses flags that apply to Spine skeletons only, for a SkelForm file (exit 2).
pub(crate) fn spine_only(file: &Path, flags: &[(bool, &str)], why: &str) -> Result<(), Failure> {
    let given: Vec<&str> = flags.iter().filter(|(g, _)| *g).map(|(_, f)| *f).collect();
    if given.is_empty() {
        return Ok(());
    }
    Err(Failure::usage(format!(
        "{}: {} apply only to Spine skeletons: {why}",
        escape(&file.display().to_string()),
        given.join(", ")
    )))
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    match run(&cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => report(f),
    }
}

/// A clap error as one line (exit 2); help and version are printed as clap prints them.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        e.exit();
    }
    let text = e.render().to_string();
    let mut paragraphs = text
        .split("\n\n")
        .map(|p| p.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" "));
    let first = paragraphs.next().unwrap_or_else(|| "error: wrong usage".to_owned());
    let usage = paragraphs.find(|p| p.starts_with("Usage:"));
    match usage {
        Some(u) => eprintln!("{} ({})", escape(&first), escape(&u.replacen("Usage:", "usage:", 1))),
        None => eprintln!("{}", escape(&first)),
    }
    ExitCode::from(2)
}

/// Runs one verb.
fn run(command: &Command) -> Result<(), Failure> {
    match command {
        Command::Info { file, json } => {
            let (bytes, format) = read_skeleton(file)?;
            if format.is_skelform() {
                skf::info(file, &bytes, format, *json)
            } else {
                info::info(file, &bytes, format, *json)
            }
        }
        Command::View { paths, port, open } => {
            let mut paths = paths.clone();
            if paths.is_empty() {
                paths.push(demo_for_viewer()?);
            }
            let opts = skel_view::ViewOptions { paths, port: *port, open: *open };
            skel_view::run(&opts).map_err(|e| Failure { file: None, message: e, usage: false })
        }
        Command::Convert { file, to, format, out } => {
            let (bytes, input) = read_skeleton(file)?;
            convert::convert(file, &bytes, input, to, format.as_deref(), out)
        }
        Command::Dump { file, json } => {
            let (bytes, format) = read_skeleton(file)?;
            if format.is_skelform() {
                skf::dump(file, &bytes, format, *json)
            } else {
                info::dump(file, &bytes, format, *json)
            }
        }
        Command::Validate { files, atlas, no_atlas } => {
            if validate::run(files, atlas.as_ref(), *no_atlas) {
                Ok(())
            } else {
                // Every problem is printed already.
                std::process::exit(1);
            }
        }
        Command::Bench { file, atlas, skin, anim, budget_ms, json } => {
            let (bytes, format) = read_skeleton(file)?;
            let args = bench::BenchArgs {
                atlas: atlas.clone(),
                skin: skin.clone(),
                anim: anim.clone(),
                budget: std::time::Duration::from_millis(*budget_ms),
            };
            let report = if format.is_skelform() {
                bench::skelform(&bytes, format, &args)
            } else {
                bench::spine(&SkeletonInput { path: file, bytes: &bytes }, format, &args)
            };
            let r = report.map_err(|e| Failure::new(file, e))?;
            if *json {
                outln!("{}", r.to_json(file));
            } else {
                bench::print_text(file, &r);
            }
            Ok(())
        }
        Command::Pose { file, atlas, skin, anim, time, frame, vertices, json } => {
            let (bytes, format) = read_skeleton(file)?;
            if format.is_skelform() {
                let at = match (frame, time) {
                    (Some(n), _) => skf::PoseAt::Frame(*n),
                    (None, Some(t)) => skf::PoseAt::Time(*t),
                    (None, None) => skf::PoseAt::Frame(0),
                };
                return skf::pose(file, &bytes, format, anim, at, *json);
            }
            let Some(t) = time else {
                return Err(Failure::usage("--time is required for Spine skeletons"));
            };
            let input = SkeletonInput { path: file, bytes: &bytes };
            let v = pose::pose(&input, atlas.as_deref(), skin.as_deref(), anim, *t, *vertices)
                .map_err(|e| Failure::new(file, e))?;
            outln!("{v}");
            Ok(())
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
            max_frames,
            vertices,
            json,
        } => {
            let (bytes, format) = read_skeleton(file)?;
            if format.is_skelform() {
                let name = anim.first().map(String::as_str).unwrap_or_default();
                return skf::play(file, &bytes, format, name, *max_frames, *json);
            }
            args::check_frames(*frames, *max_frames).map_err(Failure::usage)?;
            let o = pose::PlayOptions {
                anims: anim.clone(),
                mix: *mix,
                delay: *delay,
                fps: *fps,
                frames: *frames,
                every: *every,
                vertices: *vertices,
            };
            let input = SkeletonInput { path: file, bytes: &bytes };
            let mut out = JsonOut::new();
            match pose::play(&input, atlas.as_deref(), skin.as_deref(), &o, &mut out) {
                Ok(()) => {
                    out.finish();
                    Ok(())
                }
                Err(e) => {
                    out.abandon();
                    Err(Failure::new(file, e))
                }
            }
        }
        Command::Commands {
            file,
            atlas,
            no_atlas,
            skin,
            anim,
            time,
            play,
            fps,
            max_frames,
            json: _,
        } => {
            let (bytes, format) = read_skeleton(file)?;
            if format.is_skelform() {
                spine_only(
                    file,
                    &[
                        (atlas.is_some(), "--atlas"),
                        (*no_atlas, "--no-atlas"),
                        (skin.is_some(), "--skin"),
                        (*play, "--play"),
                    ],
                    "a SkelForm file carries its own atlas and is posed at a frame",
                )?;
                let v = skf::commands(file, &bytes, format, anim, skf::PoseAt::Time(*time))?;
                outln!("{v}");
                return Ok(());
            }
            let play = play
                .then(|| args::played_steps(*time, *fps, *max_frames).map(|s| (*fps, s)))
                .transpose()
                .map_err(Failure::usage)?;
            let atlas = atlas_choice(atlas.as_ref(), *no_atlas);
            let input = SkeletonInput { path: file, bytes: &bytes };
            let v = render::commands(&input, &atlas, skin.as_deref(), anim, *time, play)
                .map_err(|e| Failure::new(file, e))?;
            outln!("{v}");
            Ok(())
        }
        Command::Render(r) => render_cli::run(r),
    }
}

/// `--atlas A` / `--no-atlas` / neither.
pub(crate) fn atlas_choice(atlas: Option<&PathBuf>, no_atlas: bool) -> AtlasChoice {
    match (atlas, no_atlas) {
        (_, true) => AtlasChoice::None,
        (Some(a), false) => AtlasChoice::File(a.clone()),
        (None, false) => AtlasChoice::Auto,
    }
}

/// Prints a failure as one line, `error: <file>: <message>` (usage: `error: <message>`),
/// control characters escaped, and maps it to the exit code (1, or 2 for usage).
fn report(f: Failure) -> ExitCode {
    let message = escape(&f.message);
    match &f.file {
        Some(file) if !f.usage => {
            eprintln!("error: {}: {message}", escape(&file.display().to_string()))
        }
        _ => eprintln!("error: {message}"),
    }
    ExitCode::from(if f.usage { 2 } else { 1 })
}
