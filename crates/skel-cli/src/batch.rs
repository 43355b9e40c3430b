//! `skel render DIR --out OUTDIR/`: every rig under a folder, rendered in parallel.
//!
//! * Discovery ([`discover`]): files under DIR (recursively, symlinks not followed) named
//!   `.skel`, `.json` or `.skf` whose content is a rig: a `.skel` whose header holds a
//!   Spine version string (supported or not), a `.json` that is a Spine skeleton (a
//!   `skeleton` key, or Spine's keys), a `.skf` that is a zip archive. Atlases, images,
//!   other JSON (and bare SkelForm `armature.json` documents, which carry no images) are
//!   skipped. The paths are sorted (byte order of the path relative to DIR).
//! * Sharding (`--shard I/N`, [`shard`]): rig k of the sorted list (from 0) goes to shard
//!   (k mod N) + 1, so the N shards cover every rig exactly once, and the same DIR gives
//!   the same split on every machine.
//! * Outputs: `OUTDIR/<path relative to DIR>.<format>` (`raptor/raptor-pro.skel.png`;
//!   with `--all`, `raptor-pro.skel-walk.png`, …).
//! * Each rig is rendered on its own (rayon, `--threads`, default all cores); a failure is
//!   recorded and the run goes on (a panic too where panics unwind: the release profile's
//!   `panic = "abort"` ends the process). The summary on stderr counts the rigs
//!   rendered and lists each failure with its reason; exit 1 when any failed.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use spine_model::validate::{sniff, FileFormat};

use crate::output::Kind;
use crate::pose::SkeletonInput;
use crate::render_cli::RenderCli;
use crate::{escape, render, skf, Failure};

/// Most rigs one run takes (a guard against a folder of millions of files).
const MAX_RIGS: usize = 1_000_000;

/// The rigs under `dir`, sorted.
pub fn discover(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|e| format!("{}: {e}", d.display()))?;
        for e in entries.flatten() {
            let Ok(ty) = e.file_type() else { continue };
            let path = e.path();
            if ty.is_dir() {
                stack.push(path);
            } else if ty.is_file() && is_rig(&path) {
                found.push(path);
                if found.len() > MAX_RIGS {
                    return Err(format!("more than {MAX_RIGS} rigs under {}", dir.display()));
                }
            }
        }
    }
    found.sort();
    Ok(found)
}

/// Whether `path` names a rig (by extension, then content; see the module docs).
fn is_rig(path: &Path) -> bool {
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    let Some(ext) = ext.filter(|e| matches!(e.as_str(), "skel" | "json" | "skf")) else {
        return false;
    };
    let max = crate::io::max_input_bytes();
    if std::fs::metadata(path).map_or(true, |m| m.len() as usize > max) {
        // Too large to be read: listed, so that the run reports it.
        return true;
    }
    let Ok(bytes) = std::fs::read(path) else { return true };
    match ext.as_str() {
        "skel" => match spine_format::binary::detect(&bytes) {
            Ok(_) => true,
            Err(e) => matches!(e.kind, spine_format::BinaryErrorKind::UnsupportedVersion { .. }),
        },
        "json" => sniff(&bytes) == FileFormat::SpineJson,
        _ => sniff(&bytes) == FileFormat::SkelformArchive,
    }
}

/// Shard `i` of `n` (1-based) of the sorted `rigs`: rig k goes to shard (k mod n) + 1.
pub fn shard(rigs: Vec<PathBuf>, (i, n): (u32, u32)) -> Vec<PathBuf> {
    rigs.into_iter()
        .enumerate()
        .filter(|(k, _)| (k % n as usize) + 1 == i as usize)
        .map(|(_, p)| p)
        .collect()
}

/// The output of `rig` (under `dir`) in `out_dir`.
fn output_of(dir: &Path, rig: &Path, out_dir: &str, kind: Kind, format: &str) -> String {
    let rel = rig.strip_prefix(dir).unwrap_or(rig);
    let rel = rel.to_string_lossy();
    let base = format!("{}{}", out_dir, rel);
    if kind == Kind::PngSequence {
        format!("{base}/")
    } else {
        format!("{base}.{format}")
    }
}

/// Renders one rig; the written paths, or why not.
fn render_one(
    dir: &Path,
    rig: &Path,
    r: &RenderCli,
    kind: Kind,
    format: &str,
) -> Result<Vec<PathBuf>, String> {
    let out = output_of(dir, rig, &r.out, kind, format);
    let (bytes, fmt) = crate::read_skeleton(rig).map_err(|f| f.message)?;
    r.check_flags(rig, fmt.is_skelform()).map_err(|f| f.message)?;
    if fmt.is_skelform() {
        return skf::render(rig, &bytes, &r.skf_args(out)).map_err(|f| f.message);
    }
    if kind == Kind::Png && r.physics.unwrap_or_default() == render::PhysicsMode::Update {
        crate::args::played_steps(r.time, r.fps, r.max_frames)?;
    }
    let label = rig.strip_prefix(dir).unwrap_or(rig).display().to_string();
    let a = r.spine_args(out, false, label);
    render::render(&SkeletonInput { path: rig, bytes: &bytes }, &a)
}

/// `skel render DIR ...`.
pub fn run(dir: &Path, r: &RenderCli) -> Result<(), Failure> {
    let kind = crate::render_cli::batch_kind(r)?;
    crate::render_cli::check_ffmpeg(r, kind)?;
    let format = r.format.clone().unwrap_or_else(|| "png".to_owned());
    let start = Instant::now();
    let all = discover(dir).map_err(|e| Failure::new(dir, e))?;
    let found = all.len();
    let rigs = match r.shard {
        Some(s) => shard(all, s),
        None => all,
    };
    let threads = r.threads.map_or(0, usize::from);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Failure { file: None, message: e.to_string(), usage: false })?;
    use std::io::IsTerminal;
    let bar = std::io::stderr()
        .is_terminal()
        .then(|| render::progress_bar(rigs.len() as u64, dir.display().to_string(), "rigs"));
    let results: Vec<Done> = pool.install(|| {
        rigs.par_iter()
            .map(|rig| {
                if let Some(b) = &bar {
                    b.set_message(rig.strip_prefix(dir).unwrap_or(rig).display().to_string());
                }
                let began = Instant::now();
                let result = render_guarded(dir, rig, r, kind, &format);
                if let Some(b) = &bar {
                    b.inc(1);
                }
                (rig.clone(), result, began.elapsed().as_secs_f64())
            })
            .collect()
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    let threads = pool.current_num_threads();
    if report(dir, r, found, &results, start, threads) {
        Ok(())
    } else {
        std::process::exit(1);
    }
}

/// One rig's outcome: its path, the files written or the error, and the seconds it took.
type Done = (PathBuf, Result<Vec<PathBuf>, String>, f64);

/// [`render_one`] with a panic turned into the rig's error.
fn render_guarded(
    dir: &Path,
    rig: &Path,
    r: &RenderCli,
    kind: Kind,
    format: &str,
) -> Result<Vec<PathBuf>, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| render_one(dir, rig, r, kind, format)))
        .unwrap_or_else(|p| {
            let what = p
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(format!("internal error (panic): {what}"))
        })
}

/// Prints the files written (stdout), then the summary, the slowest rigs and every failure
/// (stderr); whether every rig succeeded.
fn report(
    dir: &Path,
    r: &RenderCli,
    found: usize,
    results: &[Done],
    start: Instant,
    threads: usize,
) -> bool {
    let mut files = 0;
    let mut failed = Vec::new();
    for (rig, result, _) in results {
        match result {
            Ok(paths) => {
                files += paths.len();
                for p in paths {
                    outln!("{}", escape(&p.display().to_string()));
                }
            }
            Err(e) => failed.push((rig, e)),
        }
    }
    let shard =
        r.shard.map(|(i, n)| format!(" (shard {i}/{n} of {found} found)")).unwrap_or_default();
    eprintln!(
        "rendered {} of {} rigs{shard} into {files} files in {:.1} s on {} threads; {} failed",
        results.len() - failed.len(),
        results.len(),
        start.elapsed().as_secs_f64(),
        threads,
        failed.len()
    );
    let mut slowest: Vec<&Done> = results.iter().collect();
    slowest.sort_by(|a, b| b.2.total_cmp(&a.2));
    let slowest: Vec<String> = slowest
        .iter()
        .take(3)
        .map(|(rig, _, t)| {
            let name = rig.strip_prefix(dir).unwrap_or(rig).display().to_string();
            format!("{} {t:.1} s", escape(&name))
        })
        .collect();
    if !slowest.is_empty() {
        eprintln!("slowest: {}", slowest.join(", "));
    }
    for (rig, e) in &failed {
        eprintln!("error: {}: {}", escape(&rig.display().to_string()), escape(e));
    }
    failed.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_every_rig_once() {
        let rigs: Vec<PathBuf> = (0..10).map(|k| PathBuf::from(format!("r{k}"))).collect();
        let mut seen = Vec::new();
        for i in 1..=3 {
            let s = shard(rigs.clone(), (i, 3));
            assert!(s.len() == 3 || s.len() == 4);
            seen.extend(s);
        }
        seen.sort();
        assert_eq!(seen, rigs);
        assert_eq!(
            shard(rigs.clone(), (2, 3)),
            vec![rigs[1].clone(), rigs[4].clone(), rigs[7].clone()]
        );
    }
}
