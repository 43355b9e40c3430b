//! Exports of the current animation through the server's encoders (`skel-render`): PNG of
//! the current frame, or GIF / APNG / WebP of the whole animation, drawn by the software
//! renderer with the page's view. Runs on a worker thread; progress is polled.

use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use skel_render::encode::{write_png, ApngWriter, GifWriter, WebpWriter};
use skel_render::{FrameSink, OutputKind, SoftwareRenderer, ViewTransform};
use spine_render_traits::{render as draw_all, PageId, TextureDesc, TextureFilter, TextureWrap};

use crate::player::Instance;
use crate::rig::Textures;

/// Largest export side, pixels.
pub const MAX_SIDE: u32 = 4096;

/// What to export.
#[derive(Debug, Clone, Copy)]
pub struct ExportRequest {
    /// PNG (current frame), GIF, APNG or WebP (the whole animation).
    pub kind: OutputKind,
    /// Image size.
    pub width: u32,
    /// Image size.
    pub height: u32,
    /// World → pixel transform (the page's view of the rig).
    pub view: ViewTransform,
    /// Background, straight RGBA.
    pub background: [u8; 4],
    /// Frames per second of animated outputs.
    pub fps: f32,
}

/// A finished export.
#[derive(Debug)]
pub struct ExportFile {
    /// Download name.
    pub name: String,
    /// MIME type.
    pub mime: &'static str,
    /// The bytes.
    pub bytes: Vec<u8>,
}

/// A running or finished export.
#[derive(Debug, Default)]
pub struct Job {
    /// Frames drawn.
    pub done: AtomicU32,
    /// Frames to draw (0 until known).
    pub total: AtomicU32,
    /// `Some` when finished: the download name, or the error.
    pub result: Mutex<Option<Result<String, String>>>,
}

/// Finished exports by job id (the last few are kept).
#[derive(Debug, Default)]
pub struct Exports {
    files: Mutex<HashMap<u32, Arc<ExportFile>>>,
    order: Mutex<Vec<u32>>,
    next: AtomicU32,
}

/// How many finished exports are kept for download.
const KEEP: usize = 8;

impl Exports {
    /// A new job id.
    pub fn next_id(&self) -> u32 {
        self.next.fetch_add(1, Ordering::Relaxed)
    }

    /// The export of job `id`.
    pub fn get(&self, id: u32) -> Option<Arc<ExportFile>> {
        self.files.lock().unwrap_or_else(|e| e.into_inner()).get(&id).cloned()
    }

    fn put(&self, id: u32, file: ExportFile) {
        let mut files = self.files.lock().unwrap_or_else(|e| e.into_inner());
        let mut order = self.order.lock().unwrap_or_else(|e| e.into_inner());
        files.insert(id, Arc::new(file));
        order.push(id);
        while order.len() > KEEP {
            let old = order.remove(0);
            files.remove(&old);
        }
    }
}

/// A `Write` into a shared buffer (the encoders take their writer by value).
#[derive(Clone, Default)]
struct SharedBuf(Arc<Mutex<Vec<u8>>>);

impl Write for SharedBuf {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).extend_from_slice(data);
        Ok(data.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn sanitize(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .collect()
}

/// Checks a request's sizes and rate.
pub fn check(req: &ExportRequest) -> Result<(), String> {
    if req.width == 0 || req.height == 0 || req.width > MAX_SIDE || req.height > MAX_SIDE {
        return Err(format!(
            "export size {}x{} out of range (1..={MAX_SIDE})",
            req.width, req.height
        ));
    }
    if !(req.fps > 0.0 && req.fps <= 120.0) {
        return Err(format!("export fps must be in (0, 120] (got {})", req.fps));
    }
    if !(req.view.scale.is_finite() && req.view.scale > 0.0) {
        return Err("export view scale must be positive".into());
    }
    Ok(())
}

/// Runs an export of `inst` (a copy of the page's instance, at its current frame) and stores
/// the file under `id`.
pub fn run(
    id: u32,
    mut inst: Instance,
    req: ExportRequest,
    textures: &Textures,
    exports: &Exports,
    job: &Job,
) -> Result<String, String> {
    check(&req)?;
    let mut raster = SoftwareRenderer::new(req.width, req.height).map_err(|e| e.to_string())?;
    for (i, page) in inst.rig.pages.iter().enumerate() {
        let (w, h, pixels) = textures.decode(page.tex)?;
        let desc = TextureDesc {
            name: &page.name,
            width: w,
            height: h,
            pixels: &pixels,
            premultiplied_alpha: inst.page_pma(i),
            min_filter: TextureFilter::Linear,
            mag_filter: TextureFilter::Linear,
            wrap_u: TextureWrap::ClampToEdge,
            wrap_v: TextureWrap::ClampToEdge,
        };
        raster.set_texture(PageId(i as u32), &desc).map_err(|e| e.to_string())?;
    }
    raster.set_view(req.view);
    raster.set_background(req.background);
    let anim = inst.ctl.anim.and_then(|a| inst.animations().get(a).map(|x| x.0.clone()));
    let base = sanitize(&format!("{}-{}", inst.rig.name, anim.as_deref().unwrap_or("setup")));
    let buf = SharedBuf::default();
    let mut rgba = Vec::new();
    let (name, mime) = if req.kind == OutputKind::Png {
        job.total.store(1, Ordering::Relaxed);
        raster.clear();
        draw_all(&inst.cmds, &mut raster).map_err(|e| e.to_string())?;
        raster.read_rgba8(&mut rgba);
        write_png(buf.clone(), req.width, req.height, &rgba).map_err(|e| e.to_string())?;
        job.done.store(1, Ordering::Relaxed);
        (format!("{base}.png"), "image/png")
    } else {
        let n = inst.frame_count(req.fps) as u32;
        let (w, h, fps) = (req.width, req.height, req.fps);
        let (mut sink, ext, mime): (Box<dyn FrameSink>, _, _) = match req.kind {
            OutputKind::Gif => (
                Box::new(GifWriter::new(buf.clone(), w, h, fps).map_err(|e| e.to_string())?),
                "gif",
                "image/gif",
            ),
            OutputKind::Webp => (
                Box::new(WebpWriter::new(buf.clone(), w, h, fps).map_err(|e| e.to_string())?),
                "webp",
                "image/webp",
            ),
            _ => (
                Box::new(
                    ApngWriter::new(buf.clone(), w, h, n.max(1), fps).map_err(|e| e.to_string())?,
                ),
                "apng",
                "image/apng",
            ),
        };
        let mut frames = 0u32;
        inst.play_frames(fps, &mut |k, total, cmds| {
            job.total.store(total as u32, Ordering::Relaxed);
            raster.clear();
            draw_all(cmds, &mut raster).map_err(|e| e.to_string())?;
            raster.read_rgba8(&mut rgba);
            sink.write_frame(&rgba).map_err(|e| e.to_string())?;
            frames += 1;
            job.done.store(k as u32 + 1, Ordering::Relaxed);
            Ok(())
        })?;
        if req.kind == OutputKind::Apng && frames != n {
            return Err(format!("APNG expected {n} frames, drew {frames}"));
        }
        sink.finish().map_err(|e| e.to_string())?;
        (format!("{base}.{ext}"), mime)
    };
    let bytes = std::mem::take(&mut *buf.0.lock().unwrap_or_else(|e| e.into_inner()));
    exports.put(id, ExportFile { name: name.clone(), mime, bytes });
    Ok(name)
}
