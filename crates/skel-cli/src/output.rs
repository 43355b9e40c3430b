//! The outputs of `skel render`: what `--out` names ([`Kind`]) and the writers
//! ([`Output`]).
//!
//! PNG, PNG sequences, GIF, APNG and lossless WebP are encoded in-process
//! (`skel-render`). Video (`.mp4`, `.webm`, `.mov`), lossy WebP (`--quality`) and GIFs with
//! a palette or dither option go through the system `ffmpeg` ([`Encoding::ffmpeg`]): frames
//! are piped to its standard input as raw RGBA as they are drawn (never a temporary file of
//! the whole animation), and ffmpeg writes the temporary file that is renamed over the
//! output when complete.
//!
//! | output | codec | alpha |
//! | --- | --- | --- |
//! | `.mp4` | H.264 (libx264, yuv420p; odd sides padded to even) | no: frames flattened over `--background` (transparent: black) |
//! | `.webm` | VP9 (libvpx-vp9, yuva420p) | yes |
//! | `.mov` | ProRes 4444 (prores_ks, yuva444p10le) | yes |
//! | `.webp` with `--quality` | libwebp_anim, lossy | yes |
//! | `.gif` with `--gif-palette global` or `--gif-dither` | palettegen + paletteuse | 1-bit |

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};

use skel_render::encode::{write_png, ApngWriter, FrameSink, GifWriter, WebpStreamWriter};
use skel_render::OutputKind;

use crate::io::{check_output, AtomicFile};

/// What `--out` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `.png`: one frame.
    Png,
    /// A folder ending in `/`: one PNG per frame.
    PngSequence,
    /// `.gif`.
    Gif,
    /// `.apng`.
    Apng,
    /// `.webp`.
    Webp,
    /// `.mp4` (H.264).
    Mp4,
    /// `.webm` (VP9 with alpha).
    Webm,
    /// `.mov` (ProRes 4444 with alpha).
    Mov,
}

/// The extensions `--out` takes, for messages and help.
pub const OUT_FORMATS: &str = ".png, .gif, .apng, .webp, .mp4, .webm, .mov or a folder ending in /";

impl Kind {
    /// The kind named by `path`'s spelling (case-insensitive extension), or `None`.
    pub fn from_path(path: &str) -> Option<Kind> {
        let lower = path.to_ascii_lowercase();
        for (ext, k) in [(".mp4", Kind::Mp4), (".webm", Kind::Webm), (".mov", Kind::Mov)] {
            if lower.ends_with(ext) {
                return Some(k);
            }
        }
        Some(match OutputKind::from_path(path)? {
            OutputKind::Png => Kind::Png,
            OutputKind::PngSequence => Kind::PngSequence,
            OutputKind::Gif => Kind::Gif,
            OutputKind::Apng => Kind::Apng,
            OutputKind::Webp => Kind::Webp,
        })
    }

    /// The extension, for messages (`.mp4`; `/` for a PNG sequence).
    pub fn ext(self) -> &'static str {
        match self {
            Kind::Png => ".png",
            Kind::PngSequence => "/",
            Kind::Gif => ".gif",
            Kind::Apng => ".apng",
            Kind::Webp => ".webp",
            Kind::Mp4 => ".mp4",
            Kind::Webm => ".webm",
            Kind::Mov => ".mov",
        }
    }

    /// A video container (always through ffmpeg).
    pub fn is_video(self) -> bool {
        matches!(self, Kind::Mp4 | Kind::Webm | Kind::Mov)
    }
}

/// `--gif-palette`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum GifPalette {
    /// A palette of its own for each frame (in-process; exact for frames of at most 256
    /// colors, NeuQuant otherwise).
    #[default]
    Frame,
    /// One palette for the whole animation, from the colors of all frames (ffmpeg
    /// palettegen): no color flicker between frames.
    Global,
}

/// `--gif-dither` (ffmpeg's paletteuse dithers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GifDither {
    /// No dithering (flat areas, visible banding in gradients).
    None,
    /// Ordered 8x8 Bayer dithering (stable between frames).
    Bayer,
    /// Floyd-Steinberg error diffusion.
    FloydSteinberg,
    /// Sierra-2-4A error diffusion (ffmpeg's default).
    Sierra,
}

impl GifDither {
    fn ffmpeg_name(self) -> &'static str {
        match self {
            GifDither::None => "none",
            GifDither::Bayer => "bayer",
            GifDither::FloydSteinberg => "floyd_steinberg",
            GifDither::Sierra => "sierra2_4a",
        }
    }
}

/// How outputs are encoded beyond their kind.
#[derive(Debug, Clone, Default)]
pub struct Encoding {
    /// `--quality Q`, 0 to 100: lossy WebP at that quality; for video, the codec's
    /// constant-quality setting (100 best).
    pub quality: Option<u8>,
    /// `--gif-palette`.
    pub gif_palette: GifPalette,
    /// `--gif-dither`.
    pub gif_dither: Option<GifDither>,
    /// `--ffmpeg PATH` (default: `ffmpeg` on `PATH`).
    pub ffmpeg: Option<PathBuf>,
}

impl Encoding {
    /// Whether `kind` is encoded by ffmpeg with these options.
    pub fn uses_ffmpeg(&self, kind: Kind) -> bool {
        kind.is_video()
            || (kind == Kind::Webp && self.quality.is_some())
            || (kind == Kind::Gif
                && (self.gif_palette == GifPalette::Global || self.gif_dither.is_some()))
    }

    /// The ffmpeg executable: `--ffmpeg PATH`, else `ffmpeg` on `PATH`; missing, an error
    /// saying how to install it.
    pub fn ffmpeg(&self, why: &str) -> Result<PathBuf, String> {
        if let Some(p) = &self.ffmpeg {
            return if p.is_file() {
                Ok(p.clone())
            } else {
                Err(format!("--ffmpeg {}: no such file", p.display()))
            };
        }
        find_on_path("ffmpeg").ok_or_else(|| {
            format!(
                "{why} needs ffmpeg, which is not on PATH: install it (Debian/Ubuntu: \
                 apt-get install ffmpeg; macOS: brew install ffmpeg; Windows: winget install \
                 ffmpeg) or pass --ffmpeg PATH"
            )
        })
    }
}

/// `name` in a folder of `PATH`, as an executable file.
pub fn find_on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).find_map(|dir| {
        let exe = if cfg!(windows) { format!("{name}.exe") } else { name.to_owned() };
        let p = dir.join(exe);
        p.is_file().then_some(p)
    })
}

/// The files of a PNG sequence: `dir/frame_00000.png`, …
fn sequence_frame(dir: &Path, k: u32) -> PathBuf {
    dir.join(format!("frame_{k:05}.png"))
}

/// Refuses an output plan that would write over an input: the file, or every frame file of
/// a PNG sequence of `frames` frames.
pub(crate) fn check_outputs(out: &Path, kind: Kind, frames: u32) -> Result<(), String> {
    if kind == Kind::PngSequence {
        if out.is_dir() {
            for k in 0..frames {
                check_output(&sequence_frame(out, k))?;
            }
        }
        Ok(())
    } else {
        check_output(out)
    }
}

/// An ffmpeg process encoding frames piped to its standard input.
pub(crate) struct Ffmpeg {
    child: Child,
    stdin: Option<ChildStdin>,
    stderr: Option<std::thread::JoinHandle<String>>,
    /// `.mp4`: frames are flattened over this opaque color first.
    flatten: Option<[u8; 3]>,
    scratch: Vec<u8>,
}

impl Ffmpeg {
    /// Starts `exe` writing `kind` to `dest` for frames of `width × height` at `fps`.
    fn start(
        exe: &Path,
        kind: Kind,
        (width, height): (u32, u32),
        fps: f32,
        background: [u8; 4],
        enc: &Encoding,
        dest: &Path,
    ) -> Result<Ffmpeg, String> {
        let mut cmd = Command::new(exe);
        cmd.args(["-hide_banner", "-loglevel", "error", "-nostats", "-y"]);
        cmd.args(["-f", "rawvideo", "-pix_fmt", "rgba", "-s", &format!("{width}x{height}")]);
        cmd.args(["-r", &format!("{fps}"), "-i", "pipe:0", "-an"]);
        let crf = |worst: f32, default: u8| {
            enc.quality.map_or(default, |q| (worst * (100.0 - f32::from(q)) / 100.0).round() as u8)
        };
        let mut flatten = None;
        match kind {
            Kind::Mp4 => {
                let [r, g, b, _] = background;
                flatten = Some([r, g, b]);
                cmd.args([
                    "-vf",
                    &format!("pad=ceil(iw/2)*2:ceil(ih/2)*2:color=0x{r:02x}{g:02x}{b:02x}"),
                ]);
                cmd.args(["-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "medium"]);
                cmd.args(["-crf", &crf(51.0, 18).to_string(), "-movflags", "+faststart"]);
                cmd.args(["-f", "mp4"]);
            }
            Kind::Webm => {
                cmd.args(["-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p", "-auto-alt-ref", "0"]);
                cmd.args(["-crf", &crf(63.0, 24).to_string(), "-b:v", "0"]);
                cmd.args(["-deadline", "good", "-cpu-used", "4", "-row-mt", "1", "-f", "webm"]);
            }
            Kind::Mov => {
                cmd.args(["-c:v", "prores_ks", "-profile:v", "4444", "-pix_fmt", "yuva444p10le"]);
                cmd.args(["-vendor", "apl0", "-f", "mov"]);
            }
            Kind::Webp => {
                let q = enc.quality.unwrap_or(80).to_string();
                cmd.args(["-c:v", "libwebp_anim", "-lossless", "0", "-quality", &q]);
                cmd.args(["-pix_fmt", "yuva420p", "-loop", "0", "-f", "webp"]);
            }
            Kind::Gif => {
                let stats = match enc.gif_palette {
                    GifPalette::Global => "full",
                    GifPalette::Frame => "single",
                };
                let new = if enc.gif_palette == GifPalette::Frame { ":new=1" } else { "" };
                let dither = enc.gif_dither.unwrap_or(GifDither::Sierra).ffmpeg_name();
                cmd.args([
                    "-filter_complex",
                    &format!(
                        "split[a][b];[a]palettegen=stats_mode={stats}:reserve_transparent=1[p];\
                         [b][p]paletteuse=dither={dither}:alpha_threshold=128{new}"
                    ),
                ]);
                cmd.args(["-loop", "0", "-f", "gif"]);
            }
            Kind::Png | Kind::PngSequence | Kind::Apng => {
                return Err(format!("{kind:?} is not encoded by ffmpeg"));
            }
        }
        cmd.arg(dest);
        cmd.stdin(Stdio::piped()).stdout(Stdio::null()).stderr(Stdio::piped());
        let mut child = cmd.spawn().map_err(|e| format!("starting {}: {e}", exe.display()))?;
        let stdin = child.stdin.take();
        let stderr = child.stderr.take().map(|mut s| {
            std::thread::spawn(move || {
                let mut text = String::new();
                let _ = s.read_to_string(&mut text);
                text
            })
        });
        Ok(Ffmpeg { child, stdin, stderr, flatten, scratch: Vec::new() })
    }

    fn write_frame(&mut self, rgba: &[u8]) -> Result<(), String> {
        let frame = match self.flatten {
            Some(bg) => {
                self.scratch.clear();
                self.scratch.extend_from_slice(rgba);
                for p in self.scratch.chunks_exact_mut(4) {
                    let a = u32::from(p[3]);
                    for c in 0..3 {
                        p[c] = ((u32::from(p[c]) * a + u32::from(bg[c]) * (255 - a) + 127) / 255)
                            as u8;
                    }
                    p[3] = 255;
                }
                &self.scratch[..]
            }
            None => rgba,
        };
        let Some(stdin) = self.stdin.as_mut() else { return Err("ffmpeg closed".into()) };
        if stdin.write_all(frame).is_err() {
            // ffmpeg stopped reading: its message says why.
            self.stdin = None;
            return Err(self.wait().err().unwrap_or_else(|| "ffmpeg stopped early".into()));
        }
        Ok(())
    }

    /// Closes ffmpeg's input and waits for it; an error carries ffmpeg's own message.
    fn wait(&mut self) -> Result<(), String> {
        self.stdin = None;
        let status = self.child.wait().map_err(|e| format!("ffmpeg: {e}"))?;
        let text = self.stderr.take().and_then(|t| t.join().ok()).unwrap_or_default();
        if status.success() {
            Ok(())
        } else {
            let text: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
            Err(format!("ffmpeg failed ({status}): {}", text.join(" / ")))
        }
    }
}

impl Drop for Ffmpeg {
    fn drop(&mut self) {
        if self.stdin.is_some() {
            self.stdin = None;
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// One output being written: frames are encoded as they come, into a temporary file that
/// is renamed over the output when complete (each frame file of a PNG sequence likewise).
pub(crate) enum Output {
    /// `.png`: one frame.
    Png { path: PathBuf, width: u32, height: u32 },
    /// A PNG sequence folder.
    Sequence { dir: PathBuf, width: u32, height: u32, next: u32 },
    /// GIF, APNG or WebP, in-process.
    Animation { file: AtomicFile, sink: Box<dyn FrameSink> },
    /// Through ffmpeg, which writes the temporary file.
    Piped { file: AtomicFile, ffmpeg: Ffmpeg },
}

/// The shape of one output: size, frames per second, frames, background.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Shape {
    pub size: (u32, u32),
    pub fps: f32,
    pub frames: u32,
    pub background: [u8; 4],
}

impl Output {
    /// Opens `path` for `shape.frames` frames.
    pub(crate) fn open(
        path: &Path,
        kind: Kind,
        shape: Shape,
        enc: &Encoding,
    ) -> Result<Output, String> {
        let e = |e: skel_render::RenderError| e.to_string();
        let (width, height) = shape.size;
        let fps = shape.fps;
        if enc.uses_ffmpeg(kind) {
            let exe = enc.ffmpeg(&format!("writing {}", path.display()))?;
            let file = AtomicFile::create(path)?;
            let ffmpeg =
                Ffmpeg::start(&exe, kind, shape.size, fps, shape.background, enc, file.tmp_path())?;
            return Ok(Output::Piped { file, ffmpeg });
        }
        Ok(match kind {
            Kind::Png => Output::Png { path: path.to_path_buf(), width, height },
            Kind::PngSequence => {
                std::fs::create_dir_all(path).map_err(|e| format!("{}: {e}", path.display()))?;
                Output::Sequence { dir: path.to_path_buf(), width, height, next: 0 }
            }
            Kind::Gif | Kind::Apng | Kind::Webp => {
                let file = AtomicFile::create(path)?;
                let w = file.writer();
                let sink: Box<dyn FrameSink> = match kind {
                    Kind::Gif => Box::new(GifWriter::new(w, width, height, fps).map_err(e)?),
                    Kind::Apng => {
                        Box::new(ApngWriter::new(w, width, height, shape.frames, fps).map_err(e)?)
                    }
                    _ => Box::new(WebpStreamWriter::new(w, width, height, fps).map_err(e)?),
                };
                Output::Animation { file, sink }
            }
            Kind::Mp4 | Kind::Webm | Kind::Mov => unreachable!("video goes through ffmpeg"),
        })
    }

    /// Writes one straight-alpha RGBA8 frame.
    pub(crate) fn frame(&mut self, rgba: &[u8]) -> Result<(), String> {
        let save = |path: &Path, w: u32, h: u32| -> Result<(), String> {
            let file = AtomicFile::create(path)?;
            write_png(file.writer(), w, h, rgba).map_err(|e| e.to_string())?;
            file.commit()
        };
        match self {
            Output::Png { path, width, height } => save(path, *width, *height),
            Output::Sequence { dir, width, height, next } => {
                save(&sequence_frame(dir, *next), *width, *height)?;
                *next += 1;
                Ok(())
            }
            Output::Animation { sink, .. } => sink.write_frame(rgba).map_err(|e| e.to_string()),
            Output::Piped { ffmpeg, .. } => ffmpeg.write_frame(rgba),
        }
    }

    /// Completes the output (encoder trailer, rename).
    pub(crate) fn finish(self) -> Result<(), String> {
        match self {
            Output::Animation { file, mut sink } => {
                sink.finish().map_err(|e| e.to_string())?;
                drop(sink);
                file.commit()
            }
            Output::Piped { file, mut ffmpeg } => {
                ffmpeg.wait()?;
                file.commit()
            }
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_from_names() {
        assert_eq!(Kind::from_path("a.MP4"), Some(Kind::Mp4));
        assert_eq!(Kind::from_path("a.webm"), Some(Kind::Webm));
        assert_eq!(Kind::from_path("a.mov"), Some(Kind::Mov));
        assert_eq!(Kind::from_path("a.webp"), Some(Kind::Webp));
        assert_eq!(Kind::from_path("seq/"), Some(Kind::PngSequence));
        assert_eq!(Kind::from_path("a.avi"), None);
        let mut enc = Encoding::default();
        assert!(enc.uses_ffmpeg(Kind::Mov) && !enc.uses_ffmpeg(Kind::Webp));
        enc.quality = Some(50);
        assert!(enc.uses_ffmpeg(Kind::Webp) && !enc.uses_ffmpeg(Kind::Gif));
        enc.gif_dither = Some(GifDither::Bayer);
        assert!(enc.uses_ffmpeg(Kind::Gif));
    }

    #[test]
    fn a_missing_ffmpeg_says_how_to_install_it() {
        let enc = Encoding { ffmpeg: Some("/nonexistent/ffmpeg".into()), ..Encoding::default() };
        assert!(enc.ffmpeg("x").unwrap_err().contains("--ffmpeg /nonexistent/ffmpeg"));
    }
}
