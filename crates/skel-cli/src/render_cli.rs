//! `skel render`'s command line: one file (or the embedded demo rig), or a folder of rigs
//! rendered in parallel ([`crate::batch`]).

use std::path::{Path, PathBuf};

use clap::Args;

use crate::args::{self, DEFAULT_MAX_FRAMES};
use crate::output::{Encoding, GifDither, GifPalette, Kind};
use crate::pose::SkeletonInput;
use crate::{escape, render, skf, Failure};

/// `skel render`'s arguments.
#[derive(Args, Debug, Clone)]
pub struct RenderCli {
    /// The skeleton file (.skel or .json, Spine 3.5-4.3; .skf, SkelForm; `-`: standard
    /// input), or a folder: every rig under it is rendered (see --format, --shard,
    /// --threads). Default: the demo rig embedded in `skel`.
    pub file: Option<PathBuf>,
    /// Atlas (default: the one next to the skeleton; none found is an error); page
    /// images are read next to it.
    #[arg(long, conflicts_with = "no_atlas")]
    pub atlas: Option<PathBuf>,
    /// Draw geometry only, untextured (every region and mesh a flat grey).
    #[arg(long)]
    pub no_atlas: bool,
    /// The atlas pages are premultiplied (default: the atlas' `pma:` field, else a
    /// file name ending in `-pma.atlas`). Not for SkelForm files.
    #[arg(long, conflicts_with = "no_pma")]
    pub pma: bool,
    /// The atlas pages are not premultiplied (overrides the atlas).
    #[arg(long)]
    pub no_pma: bool,
    /// How frames are posed (default: update; a still --time T is then played from 0 to
    /// T). Not for SkelForm files.
    #[arg(long, value_enum)]
    pub physics: Option<render::PhysicsMode>,
    /// Skin, or skins to combine separated by commas (`--skin hat,boots`: Spine's skin
    /// composition, later skins replacing earlier ones' attachments of the same slot and
    /// name). Default: the first non-default skin, if any. Not for SkelForm files.
    #[arg(long)]
    pub skin: Option<String>,
    /// Draw this slot without its attachment (repeatable). Not for SkelForm files.
    #[arg(long = "hide-slot", value_name = "NAME")]
    pub hide_slots: Vec<String>,
    /// Animation (default: the longest one that has timelines, else the first; none: the
    /// setup pose).
    #[arg(long, conflicts_with = "all")]
    pub anim: Option<String>,
    /// One output per animation (`-<anim>` is added before the extension).
    #[arg(long)]
    pub all: bool,
    /// Time of a single .png frame, seconds (played: 0 or more).
    #[arg(long, default_value = "0", allow_hyphen_values = true, value_parser = args::time)]
    pub time: f32,
    /// Frames per second of animated outputs, and the step of the played run; 1 to 1000.
    #[arg(long, default_value = "30", allow_hyphen_values = true, value_parser = args::fps)]
    pub fps: f32,
    /// Most frames of one output (an animation lasting longer is refused), and most
    /// steps of a played still frame.
    #[arg(long, default_value_t = DEFAULT_MAX_FRAMES, allow_hyphen_values = true,
          value_parser = args::count)]
    pub max_frames: u32,
    /// Image size WxH, each side 1 to 8192 (default: the animation's bounds at --scale
    /// plus an 8-pixel margin, at most 2048 per side, margin included). With --crop: the
    /// largest size.
    #[arg(long, value_parser = args::size)]
    pub size: Option<(u32, u32)>,
    /// Size each image to the union of all its frames' bounds (plus the margin) at one
    /// scale shared by every output (with --all, the character keeps its size from one
    /// animation to the next); --size is then a cap, not the size. Without --size this
    /// is the default for one output, and --all always shares one scale.
    #[arg(long)]
    pub crop: bool,
    /// Pixels per world unit, 0.0001 to 10000 (default: 1, lowered to fit the size cap;
    /// with --size, fit the animation's bounds).
    #[arg(long, allow_hyphen_values = true, value_parser = args::scale)]
    pub scale: Option<f32>,
    /// Background RRGGBBAA (default transparent; .mp4 has no alpha: frames are laid over
    /// this color, black when it is transparent).
    #[arg(long, default_value = "00000000", value_parser = args::background)]
    pub background: [u8; 4],
    /// Output: .png (one frame), a folder ending in `/` (PNG sequence), .gif, .apng,
    /// .webp, or video: .mp4 (H.264), .webm (VP9 with alpha), .mov (ProRes 4444 with
    /// alpha); video goes through ffmpeg. Never a file the command reads; written under
    /// a temporary name, then renamed. With a folder FILE: the output folder (ending in `/`).
    #[arg(long)]
    pub out: String,
    /// SkelForm only: an active style by name (repeatable, highest priority first;
    /// default "Default", else all).
    #[arg(long = "style")]
    pub styles: Vec<String>,
    /// 0 to 100: lossy .webp at this quality (through ffmpeg's libwebp; without it WebP is
    /// lossless), or the quality of .mp4/.webm video (default 18 / 24 CRF, about 65).
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=100))]
    pub quality: Option<u8>,
    /// .gif palette: `frame` (default: a palette per frame, in-process) or `global` (one
    /// palette from all frames, no color flicker; through ffmpeg).
    #[arg(long, value_enum)]
    pub gif_palette: Option<GifPalette>,
    /// .gif dithering (through ffmpeg): none, bayer, floyd-steinberg, sierra.
    #[arg(long, value_enum)]
    pub gif_dither: Option<GifDither>,
    /// The ffmpeg executable (default: `ffmpeg` on PATH).
    #[arg(long, value_name = "PATH")]
    pub ffmpeg: Option<PathBuf>,
    /// Folder FILE: the output of each rig: png (a frame at --time; default), gif, apng,
    /// webp, mp4, webm, mov, or seq (a PNG sequence folder).
    #[arg(long, value_parser = ["png", "gif", "apng", "webp", "mp4", "webm", "mov", "seq"])]
    pub format: Option<String>,
    /// Folder FILE: render only shard I of N (1-based): the rigs found are sorted by path
    /// and rig k (from 0) goes to shard (k mod N) + 1, so N machines given 1/N .. N/N
    /// cover every rig exactly once.
    #[arg(long, value_name = "I/N", value_parser = args::shard)]
    pub shard: Option<(u32, u32)>,
    /// Folder FILE: rigs rendered at once, 1 to 1024 (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Draw on the GPU (skel-wgpu, offscreen; a hardware adapter, else a software one such
    /// as Mesa's lavapipe) instead of the software rasterizer. Needs a skel built with the
    /// `gpu` cargo feature.
    #[arg(long)]
    pub gpu: bool,
}

impl RenderCli {
    /// The encoder options.
    fn encoding(&self) -> Encoding {
        Encoding {
            quality: self.quality,
            gif_palette: self.gif_palette.unwrap_or_default(),
            gif_dither: self.gif_dither,
            ffmpeg: self.ffmpeg.clone(),
        }
    }

    /// Checks the options that depend on the output kind (usage errors).
    fn check_kind(&self, kind: Kind) -> Result<(), Failure> {
        if self.quality.is_some() && !matches!(kind, Kind::Webp | Kind::Mp4 | Kind::Webm) {
            return Err(Failure::usage("--quality applies to .webp, .mp4 and .webm outputs"));
        }
        if (self.gif_palette.is_some() || self.gif_dither.is_some()) && kind != Kind::Gif {
            return Err(Failure::usage("--gif-palette and --gif-dither apply to .gif outputs"));
        }
        Ok(())
    }

    /// The arguments of one Spine rig's render.
    pub(crate) fn spine_args(
        &self,
        out: String,
        progress: bool,
        label: String,
    ) -> render::RenderArgs {
        render::RenderArgs {
            atlas: crate::atlas_choice(self.atlas.as_ref(), self.no_atlas),
            demo: false,
            pma: if self.pma {
                Some(true)
            } else if self.no_pma {
                Some(false)
            } else {
                None
            },
            physics: self.physics.unwrap_or_default(),
            skin: self.skin.clone(),
            hide_slots: self.hide_slots.clone(),
            anim: self.anim.clone(),
            all: self.all,
            time: self.time,
            fps: self.fps,
            max_frames: self.max_frames,
            size: self.size,
            crop: self.crop,
            scale: self.scale,
            background: self.background,
            out,
            encoding: self.encoding(),
            progress,
            label,
            gpu: self.gpu,
        }
    }

    /// The arguments of one SkelForm rig's render.
    pub(crate) fn skf_args(&self, out: String) -> skf::SkfRenderArgs {
        skf::SkfRenderArgs {
            anim: self.anim.clone(),
            all: self.all,
            time: self.time,
            fps: self.fps,
            max_frames: self.max_frames,
            size: self.size,
            scale: self.scale,
            background: self.background,
            styles: self.styles.clone(),
            out,
            encoding: self.encoding(),
            gpu: self.gpu,
        }
    }

    /// Refuses flags that apply to one kind of rig only (usage errors).
    pub(crate) fn check_flags(&self, file: &Path, skelform: bool) -> Result<(), Failure> {
        if skelform {
            crate::spine_only(
                file,
                &[
                    (self.no_atlas, "--no-atlas"),
                    (self.pma, "--pma"),
                    (self.no_pma, "--no-pma"),
                    (self.physics.is_some(), "--physics"),
                    (self.skin.is_some(), "--skin"),
                    (!self.hide_slots.is_empty(), "--hide-slot"),
                ],
                "a SkelForm .skf archive carries its own textures (straight alpha), runs its \
                 own physics and has styles (--style) instead of skins",
            )
        } else if !self.styles.is_empty() {
            Err(Failure::usage(format!(
                "{}: --style applies only to SkelForm (.skf) files; a Spine skeleton has \
                 skins (--skin)",
                escape(&file.display().to_string())
            )))
        } else {
            Ok(())
        }
    }
}

/// `skel render`.
pub fn run(r: &RenderCli) -> Result<(), Failure> {
    #[cfg(not(feature = "gpu"))]
    if r.gpu {
        return Err(Failure::usage(crate::raster::NO_GPU));
    }
    if let Some(dir) = r.file.as_ref().filter(|f| f.is_dir()) {
        return crate::batch::run(dir, r);
    }
    for (given, flag) in [
        (r.format.is_some(), "--format"),
        (r.shard.is_some(), "--shard"),
        (r.threads.is_some(), "--threads"),
    ] {
        if given {
            return Err(Failure::usage(format!("{flag} applies when FILE is a folder")));
        }
    }
    let kind = Kind::from_path(&r.out).ok_or_else(|| {
        Failure::usage(format!(
            "--out must end in {} (got {:?})",
            crate::output::OUT_FORMATS,
            escape(&r.out)
        ))
    })?;
    r.check_kind(kind)?;
    check_ffmpeg(r, kind)?;
    let (shown, bytes, format) = match &r.file {
        Some(f) => {
            let (bytes, format) = crate::read_skeleton(f)?;
            (f.clone(), bytes, format)
        }
        None => {
            let bytes = render::DEMO_JSON.to_vec();
            let format = spine_model::validate::sniff(&bytes);
            (PathBuf::from(render::DEMO_NAME), bytes, format)
        }
    };
    r.check_flags(&shown, format.is_skelform())?;
    if format.is_skelform() {
        for p in skf::render(&shown, &bytes, &r.skf_args(r.out.clone()))? {
            outln!("{}", escape(&p.display().to_string()));
        }
        return Ok(());
    }
    let physics = r.physics.unwrap_or_default();
    if kind == Kind::Png && physics == render::PhysicsMode::Update {
        args::played_steps(r.time, r.fps, r.max_frames).map_err(Failure::usage)?;
    }
    use std::io::IsTerminal;
    let label = shown
        .file_name()
        .map_or_else(|| shown.display().to_string(), |n| n.to_string_lossy().into_owned());
    let mut a = r.spine_args(r.out.clone(), std::io::stderr().is_terminal(), label);
    a.demo = r.file.is_none();
    let input = SkeletonInput { path: &shown, bytes: &bytes };
    let paths = render::render(&input, &a).map_err(|e| Failure::new(&shown, e))?;
    for p in paths {
        outln!("{}", escape(&p.display().to_string()));
    }
    Ok(())
}

/// Checks `--out` and the kind-dependent options of a folder render; returns the kind of
/// each rig's output.
pub(crate) fn batch_kind(r: &RenderCli) -> Result<Kind, Failure> {
    if !(r.out.ends_with('/') || r.out.ends_with(std::path::MAIN_SEPARATOR)) {
        return Err(Failure::usage(format!(
            "with a folder FILE, --out must be a folder ending in / (got {:?})",
            escape(&r.out)
        )));
    }
    let format = r.format.as_deref().unwrap_or("png");
    let kind = if format == "seq" {
        Kind::PngSequence
    } else {
        Kind::from_path(&format!("x.{format}")).unwrap_or(Kind::Png)
    };
    r.check_kind(kind)?;
    Ok(kind)
}

/// Fails early when ffmpeg is needed and missing (exit 1, with the install hint).
pub(crate) fn check_ffmpeg(r: &RenderCli, kind: Kind) -> Result<(), Failure> {
    let enc = r.encoding();
    if enc.uses_ffmpeg(kind) {
        enc.ffmpeg(&format!("{} output", kind.ext())).map_err(|e| Failure {
            file: None,
            message: e,
            usage: false,
        })?;
    }
    Ok(())
}
