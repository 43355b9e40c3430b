//! Image and animation encoders: PNG, PNG sequence, GIF, APNG, animated WebP.
//!
//! Every animated encoder implements [`FrameSink`]: hand it straight-alpha RGBA8 frames
//! (e.g. from [`SoftwareRenderer::read_rgba8`](crate::SoftwareRenderer::read_rgba8) into a
//! reused buffer), then call [`FrameSink::finish`]. Frame `k` is shown from `k / fps` to
//! `(k + 1) / fps`; per-frame delays are rounded so that the rounding error never
//! accumulates.

use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::error::RenderError;
use crate::texture::check_size;

/// A consumer of equally sized straight-alpha RGBA8 frames.
pub trait FrameSink {
    /// Appends one frame (`width * height * 4` bytes).
    fn write_frame(&mut self, rgba: &[u8]) -> Result<(), RenderError>;
    /// Completes the output. Frames written after this are an error or ignored.
    fn finish(&mut self) -> Result<(), RenderError>;
    /// Frames written so far.
    fn frames_written(&self) -> u32;
}

fn check_frame(width: u32, height: u32, rgba: &[u8]) -> Result<(), RenderError> {
    let expected = width as usize * height as usize * 4;
    if rgba.len() != expected {
        return Err(RenderError::FrameSize { expected, got: rgba.len() });
    }
    Ok(())
}

fn check_fps(fps: f32) -> Result<(), RenderError> {
    if !(fps.is_finite() && fps > 0.0 && fps <= 1000.0) {
        return Err(RenderError::BadSize { width: 0, height: 0, why: "fps must be in (0, 1000]" });
    }
    Ok(())
}

/// The delay of frame `k` in units of `1 / units_per_second`, rounded without drift.
fn frame_delay(k: u32, fps: f32, units_per_second: f64) -> u32 {
    let at = |k: u32| (f64::from(k) * units_per_second / f64::from(fps)).round();
    (at(k + 1) - at(k)).max(1.0) as u32
}

fn create(path: &Path) -> Result<BufWriter<File>, RenderError> {
    File::create(path).map(BufWriter::new).map_err(|e| RenderError::io(path, e))
}

/// Encodes one straight-alpha RGBA8 image as PNG.
pub fn write_png<W: Write>(
    out: W,
    width: u32,
    height: u32,
    rgba: &[u8],
) -> Result<(), RenderError> {
    check_size(width, height)?;
    check_frame(width, height, rgba)?;
    let mut enc = png::Encoder::new(out, width, height);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header()?;
    w.write_image_data(rgba)?;
    w.finish()?;
    Ok(())
}

/// Writes one straight-alpha RGBA8 image to a PNG file.
pub fn save_png(path: &Path, width: u32, height: u32, rgba: &[u8]) -> Result<(), RenderError> {
    let mut f = create(path)?;
    write_png(&mut f, width, height, rgba)?;
    f.flush().map_err(|e| RenderError::io(path, e))
}

/// Encodes one straight-alpha RGBA8 image as lossless WebP.
pub fn write_webp<W: Write>(
    mut out: W,
    width: u32,
    height: u32,
    rgba: &[u8],
) -> Result<(), RenderError> {
    check_size(width, height)?;
    check_frame(width, height, rgba)?;
    image_webp::WebPEncoder::new(&mut out).encode(
        rgba,
        width,
        height,
        image_webp::ColorType::Rgba8,
    )?;
    Ok(())
}

/// A PNG sequence: `dir/<prefix>00000.png`, `dir/<prefix>00001.png`, …
#[derive(Debug)]
pub struct PngSequence {
    dir: PathBuf,
    prefix: String,
    width: u32,
    height: u32,
    index: u32,
    name: String,
}

impl PngSequence {
    /// Creates `dir` (and parents) if needed.
    pub fn new(
        dir: &Path,
        prefix: &str,
        width: u32,
        height: u32,
    ) -> Result<PngSequence, RenderError> {
        check_size(width, height)?;
        std::fs::create_dir_all(dir).map_err(|e| RenderError::io(dir, e))?;
        Ok(PngSequence {
            dir: dir.to_path_buf(),
            prefix: prefix.to_owned(),
            width,
            height,
            index: 0,
            name: String::new(),
        })
    }

    /// The path frame `index` is written to.
    pub fn frame_path(&self, index: u32) -> PathBuf {
        self.dir.join(format!("{}{index:05}.png", self.prefix))
    }
}

impl FrameSink for PngSequence {
    fn write_frame(&mut self, rgba: &[u8]) -> Result<(), RenderError> {
        use std::fmt::Write as _;
        check_frame(self.width, self.height, rgba)?;
        self.name.clear();
        let _ = write!(self.name, "{}{:05}.png", self.prefix, self.index);
        let path = self.dir.join(&self.name);
        save_png(&path, self.width, self.height, rgba)?;
        self.index += 1;
        Ok(())
    }

    fn finish(&mut self) -> Result<(), RenderError> {
        Ok(())
    }

    fn frames_written(&self) -> u32 {
        self.index
    }
}

/// Animated GIF, looping forever. Alpha becomes 1-bit transparency (alpha < 128 is
/// transparent); each frame gets its own palette of at most 256 colors (exact when the frame
/// has ≤ 256 colors, NeuQuant otherwise), and is disposed to the background so transparency
/// does not accumulate. Delays are in 1/100 s.
pub struct GifWriter<W: Write> {
    enc: Option<gif::Encoder<W>>,
    width: u16,
    height: u16,
    fps: f32,
    frames: u32,
    scratch: Vec<u8>,
}

impl<W: Write> GifWriter<W> {
    /// Starts a GIF of `width × height` (each ≤ 16384) at `fps` frames per second.
    pub fn new(out: W, width: u32, height: u32, fps: f32) -> Result<GifWriter<W>, RenderError> {
        check_size(width, height)?;
        check_fps(fps)?;
        let (w, h) = (width as u16, height as u16);
        let mut enc = gif::Encoder::new(out, w, h, &[])?;
        enc.set_repeat(gif::Repeat::Infinite)?;
        Ok(GifWriter { enc: Some(enc), width: w, height: h, fps, frames: 0, scratch: Vec::new() })
    }

    /// Finishes and returns the underlying writer.
    pub fn into_inner(mut self) -> Result<W, RenderError> {
        match self.enc.take() {
            Some(enc) => Ok(enc.into_inner()?),
            None => Err(RenderError::BadSize {
                width: 0,
                height: 0,
                why: "GIF writer already finished",
            }),
        }
    }
}

impl<W: Write> FrameSink for GifWriter<W> {
    fn write_frame(&mut self, rgba: &[u8]) -> Result<(), RenderError> {
        check_frame(u32::from(self.width), u32::from(self.height), rgba)?;
        let Some(enc) = self.enc.as_mut() else {
            return Ok(());
        };
        self.scratch.clear();
        self.scratch.extend_from_slice(rgba);
        for p in self.scratch.chunks_exact_mut(4) {
            p[3] = if p[3] < 128 { 0 } else { 255 };
        }
        let mut frame = gif::Frame::from_rgba_speed(self.width, self.height, &mut self.scratch, 10);
        frame.delay = frame_delay(self.frames, self.fps, 100.0).min(u32::from(u16::MAX)) as u16;
        frame.dispose = gif::DisposalMethod::Background;
        enc.write_frame(&frame)?;
        self.frames += 1;
        Ok(())
    }

    fn finish(&mut self) -> Result<(), RenderError> {
        if let Some(enc) = self.enc.take() {
            let mut w = enc.into_inner()?;
            w.flush().map_err(|e| RenderError::Io { path: "gif".into(), source: e })?;
        }
        Ok(())
    }

    fn frames_written(&self) -> u32 {
        self.frames
    }
}

/// Animated PNG (full 8-bit alpha), looping forever. The frame count is part of the APNG
/// header, so it must be given up front; `finish` fails if fewer frames were written.
pub struct ApngWriter<W: Write> {
    writer: Option<png::Writer<W>>,
    width: u32,
    height: u32,
    frames: u32,
    expected: u32,
}

impl<W: Write> ApngWriter<W> {
    /// Starts an APNG of `num_frames` (≥ 1) frames at `fps`.
    pub fn new(
        out: W,
        width: u32,
        height: u32,
        num_frames: u32,
        fps: f32,
    ) -> Result<ApngWriter<W>, RenderError> {
        check_size(width, height)?;
        check_fps(fps)?;
        if num_frames == 0 {
            return Err(RenderError::BadSize {
                width,
                height,
                why: "an APNG needs at least one frame",
            });
        }
        let mut enc = png::Encoder::new(out, width, height);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_animated(num_frames, 0)?;
        if fps.fract() == 0.0 {
            enc.set_frame_delay(1, fps as u16)?;
        } else {
            enc.set_frame_delay((1000.0 / fps).round().max(1.0) as u16, 1000)?;
        }
        enc.set_blend_op(png::BlendOp::Source)?;
        enc.set_dispose_op(png::DisposeOp::None)?;
        let writer = enc.write_header()?;
        Ok(ApngWriter { writer: Some(writer), width, height, frames: 0, expected: num_frames })
    }
}

impl<W: Write> FrameSink for ApngWriter<W> {
    fn write_frame(&mut self, rgba: &[u8]) -> Result<(), RenderError> {
        check_frame(self.width, self.height, rgba)?;
        let Some(w) = self.writer.as_mut() else {
            return Ok(());
        };
        if self.frames >= self.expected {
            return Err(RenderError::BadSize {
                width: self.width,
                height: self.height,
                why: "more APNG frames than announced",
            });
        }
        w.write_image_data(rgba)?;
        self.frames += 1;
        Ok(())
    }

    fn finish(&mut self) -> Result<(), RenderError> {
        if let Some(w) = self.writer.take() {
            w.finish()?;
        }
        Ok(())
    }

    fn frames_written(&self) -> u32 {
        self.frames
    }
}

/// Animated lossless WebP (full 8-bit alpha), looping forever: each frame is encoded with
/// `image-webp`'s lossless (VP8L) encoder and wrapped in `ANMF` chunks of an extended
/// (`VP8X` + `ANIM`) container, without blending between frames. Delays are in ms. Frames
/// are buffered in memory (compressed) and the file is written by `finish`; for files, see
/// [`WebpStreamWriter`], which writes each frame as it comes.
pub struct WebpWriter<W: Write> {
    out: Option<W>,
    width: u32,
    height: u32,
    fps: f32,
    frames: u32,
    chunks: Vec<u8>,
    scratch: Vec<u8>,
}

impl<W: Write> WebpWriter<W> {
    /// Starts an animated WebP at `fps`.
    pub fn new(out: W, width: u32, height: u32, fps: f32) -> Result<WebpWriter<W>, RenderError> {
        check_size(width, height)?;
        check_fps(fps)?;
        Ok(WebpWriter {
            out: Some(out),
            width,
            height,
            fps,
            frames: 0,
            chunks: Vec::new(),
            scratch: Vec::new(),
        })
    }
}

fn put24(v: &mut Vec<u8>, x: u32) {
    v.extend_from_slice(&x.to_le_bytes()[..3]);
}

fn io_err(e: std::io::Error) -> RenderError {
    RenderError::Io { path: "webp".into(), source: e }
}

/// Encodes one frame as an `ANMF` chunk (header, then the VP8L chunk) appended to `out`;
/// `scratch` is reused between frames.
fn webp_frame_chunk(
    out: &mut Vec<u8>,
    scratch: &mut Vec<u8>,
    (width, height): (u32, u32),
    delay_ms: u32,
    rgba: &[u8],
) -> Result<(), RenderError> {
    scratch.clear();
    image_webp::WebPEncoder::new(&mut *scratch).encode(
        rgba,
        width,
        height,
        image_webp::ColorType::Rgba8,
    )?;
    // "RIFF" size "WEBP" then the VP8L chunk (header, payload, padding).
    let vp8l = scratch.get(12..).unwrap_or_default();
    out.extend_from_slice(b"ANMF");
    out.extend_from_slice(&(16 + vp8l.len() as u32).to_le_bytes());
    put24(out, 0); // x / 2
    put24(out, 0); // y / 2
    put24(out, width - 1);
    put24(out, height - 1);
    put24(out, delay_ms.min(0xff_ffff));
    out.push(0b10); // do not blend, do not dispose
    out.extend_from_slice(vp8l);
    Ok(())
}

/// The `VP8X` and `ANIM` chunks of an animated WebP with alpha, looping forever.
fn webp_head(width: u32, height: u32) -> Vec<u8> {
    let mut head = Vec::with_capacity(32);
    head.extend_from_slice(b"VP8X");
    head.extend_from_slice(&10u32.to_le_bytes());
    head.push(0x10 | 0x02); // alpha, animation
    head.extend_from_slice(&[0; 3]);
    put24(&mut head, width - 1);
    put24(&mut head, height - 1);
    head.extend_from_slice(b"ANIM");
    head.extend_from_slice(&6u32.to_le_bytes());
    head.extend_from_slice(&[0, 0, 0, 0]); // background: transparent (BGRA)
    head.extend_from_slice(&0u16.to_le_bytes()); // loop forever
    head
}

impl<W: Write> FrameSink for WebpWriter<W> {
    fn write_frame(&mut self, rgba: &[u8]) -> Result<(), RenderError> {
        check_frame(self.width, self.height, rgba)?;
        if self.out.is_none() {
            return Ok(());
        }
        let delay = frame_delay(self.frames, self.fps, 1000.0);
        let size = (self.width, self.height);
        webp_frame_chunk(&mut self.chunks, &mut self.scratch, size, delay, rgba)?;
        self.frames += 1;
        Ok(())
    }

    fn finish(&mut self) -> Result<(), RenderError> {
        let Some(mut out) = self.out.take() else {
            return Ok(());
        };
        let head = webp_head(self.width, self.height);
        let riff = 4 + head.len() + self.chunks.len();
        let riff = u32::try_from(riff).map_err(|_| RenderError::BadSize {
            width: self.width,
            height: self.height,
            why: "animated WebP over 4 GiB",
        })?;
        out.write_all(b"RIFF").map_err(io_err)?;
        out.write_all(&riff.to_le_bytes()).map_err(io_err)?;
        out.write_all(b"WEBP").map_err(io_err)?;
        out.write_all(&head).map_err(io_err)?;
        out.write_all(&self.chunks).map_err(io_err)?;
        out.flush().map_err(io_err)?;
        self.chunks = Vec::new();
        Ok(())
    }

    fn frames_written(&self) -> u32 {
        self.frames
    }
}

/// [`WebpWriter`] for a seekable output (a file): the same bytes, but each frame is written
/// as soon as it is encoded, so memory stays one frame whatever the frame count. The RIFF
/// size is patched by `finish`.
pub struct WebpStreamWriter<W: Write + Seek> {
    out: Option<W>,
    width: u32,
    height: u32,
    fps: f32,
    frames: u32,
    /// Bytes after the RIFF size field written so far.
    riff: u64,
    chunk: Vec<u8>,
    scratch: Vec<u8>,
}

impl<W: Write + Seek> WebpStreamWriter<W> {
    /// Starts an animated WebP at `fps`, writing its header at once.
    pub fn new(
        mut out: W,
        width: u32,
        height: u32,
        fps: f32,
    ) -> Result<WebpStreamWriter<W>, RenderError> {
        check_size(width, height)?;
        check_fps(fps)?;
        let head = webp_head(width, height);
        out.write_all(b"RIFF\0\0\0\0WEBP").map_err(io_err)?;
        out.write_all(&head).map_err(io_err)?;
        Ok(WebpStreamWriter {
            out: Some(out),
            width,
            height,
            fps,
            frames: 0,
            riff: 4 + head.len() as u64,
            chunk: Vec::new(),
            scratch: Vec::new(),
        })
    }
}

impl<W: Write + Seek> FrameSink for WebpStreamWriter<W> {
    fn write_frame(&mut self, rgba: &[u8]) -> Result<(), RenderError> {
        check_frame(self.width, self.height, rgba)?;
        let Some(out) = self.out.as_mut() else {
            return Ok(());
        };
        let delay = frame_delay(self.frames, self.fps, 1000.0);
        self.chunk.clear();
        let size = (self.width, self.height);
        webp_frame_chunk(&mut self.chunk, &mut self.scratch, size, delay, rgba)?;
        if self.riff + self.chunk.len() as u64 > u64::from(u32::MAX) {
            return Err(RenderError::BadSize {
                width: self.width,
                height: self.height,
                why: "animated WebP over 4 GiB",
            });
        }
        out.write_all(&self.chunk).map_err(io_err)?;
        self.riff += self.chunk.len() as u64;
        self.frames += 1;
        Ok(())
    }

    fn finish(&mut self) -> Result<(), RenderError> {
        let Some(mut out) = self.out.take() else {
            return Ok(());
        };
        out.seek(SeekFrom::Start(4)).map_err(io_err)?;
        out.write_all(&(self.riff as u32).to_le_bytes()).map_err(io_err)?;
        out.seek(SeekFrom::End(0)).map_err(io_err)?;
        out.flush().map_err(io_err)?;
        Ok(())
    }

    fn frames_written(&self) -> u32 {
        self.frames
    }
}

/// The output kinds of `skel render --out PATH`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputKind {
    /// `*.png`: one frame.
    Png,
    /// A path ending in `/`: a PNG sequence in that folder.
    PngSequence,
    /// `*.gif`.
    Gif,
    /// `*.apng`.
    Apng,
    /// `*.webp`.
    Webp,
}

impl OutputKind {
    /// Chooses the kind from the path's spelling (case-insensitive extension), or `None`.
    pub fn from_path(path: &str) -> Option<OutputKind> {
        if path.ends_with('/') || path.ends_with(std::path::MAIN_SEPARATOR) {
            return Some(OutputKind::PngSequence);
        }
        let lower = path.to_ascii_lowercase();
        [
            (".png", OutputKind::Png),
            (".gif", OutputKind::Gif),
            (".apng", OutputKind::Apng),
            (".webp", OutputKind::Webp),
        ]
        .into_iter()
        .find(|(ext, _)| lower.ends_with(ext))
        .map(|(_, k)| k)
    }
}

/// Opens an animation sink for `path` (kinds other than [`OutputKind::Png`]):
/// `num_frames` is needed by APNG only.
pub fn open_animation(
    path: &Path,
    kind: OutputKind,
    width: u32,
    height: u32,
    fps: f32,
    num_frames: u32,
) -> Result<Box<dyn FrameSink>, RenderError> {
    Ok(match kind {
        OutputKind::PngSequence => Box::new(PngSequence::new(path, "frame_", width, height)?),
        OutputKind::Gif => Box::new(GifWriter::new(create(path)?, width, height, fps)?),
        OutputKind::Apng => {
            Box::new(ApngWriter::new(create(path)?, width, height, num_frames, fps)?)
        }
        OutputKind::Webp => Box::new(WebpStreamWriter::new(create(path)?, width, height, fps)?),
        OutputKind::Png => {
            return Err(RenderError::BadSize {
                width,
                height,
                why: "a .png output holds one frame; use save_png",
            })
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_do_not_drift() {
        let cs: u32 = (0..30).map(|k| frame_delay(k, 30.0, 100.0)).sum();
        assert_eq!(cs, 100);
        let ms: u32 = (0..60).map(|k| frame_delay(k, 60.0, 1000.0)).sum();
        assert_eq!(ms, 1000);
        assert_eq!(frame_delay(0, 30.0, 100.0), 3);
    }

    #[test]
    fn streamed_webp_is_the_buffered_webp() {
        let (w, h) = (5u32, 3u32);
        let frame = |k: u8| -> Vec<u8> {
            (0..w * h)
                .flat_map(|i| [i as u8 * 9, k * 40, 7, if i % 2 == 0 { 255 } else { 0 }])
                .collect()
        };
        let mut buffered = Vec::new();
        let mut a = WebpWriter::new(&mut buffered, w, h, 24.0).unwrap();
        let mut streamed = std::io::Cursor::new(Vec::new());
        let mut b = WebpStreamWriter::new(&mut streamed, w, h, 24.0).unwrap();
        for k in 0..4 {
            a.write_frame(&frame(k)).unwrap();
            b.write_frame(&frame(k)).unwrap();
        }
        a.finish().unwrap();
        b.finish().unwrap();
        assert_eq!(b.frames_written(), 4);
        assert_eq!(streamed.into_inner(), buffered);
    }

    #[test]
    fn output_kinds() {
        assert_eq!(OutputKind::from_path("a/b.GIF"), Some(OutputKind::Gif));
        assert_eq!(OutputKind::from_path("out/"), Some(OutputKind::PngSequence));
        assert_eq!(OutputKind::from_path("x.apng"), Some(OutputKind::Apng));
        assert_eq!(OutputKind::from_path("x.png"), Some(OutputKind::Png));
        assert_eq!(OutputKind::from_path("x.webp"), Some(OutputKind::Webp));
        assert_eq!(OutputKind::from_path("x.jpg"), None);
    }
}
