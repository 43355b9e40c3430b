//! `skel`: the command-line face of the workspace (contract: `../shared/cli-contract.md`).
//!
//! Thin by design: argument parsing, file I/O and output encoding. Every behaviour is a
//! library function first.

mod info;
mod validate;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

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
        Command::Info { file, json } => info::info(file, *json),
        Command::Dump { file, json } => info::dump(file, *json),
        Command::Validate { files, atlas, no_atlas } => {
            return if validate::run(files, atlas.as_ref(), *no_atlas) {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            };
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("error: {}: {}", f.file.display(), f.message);
            ExitCode::from(1)
        }
    }
}
