//! SkelForm verbs: `skel info`, `dump`, `validate`, `pose`, `play`, `commands` and `render`
//! on `.skf` archives and bare `armature.json` (contract: `../shared/cli-contract.md`,
//! SkelForm paragraphs).
//!
//! Archives are read within the CLI's input limit: `armature.json` is inflated to at most
//! [`crate::io::max_input_bytes`] (any other entry likewise for `render`), and texture PNGs
//! are checked from their header against the pixel limits before decoding. Every number
//! printed is finite: a pose with a NaN or infinite value is an error naming the bone or
//! visual. `play` and `render` run at most `--max-frames` frames.

use std::io::Read;
use std::path::Path;

use serde_json::{json, Map, Value};
use skelform::{AnimLayer, Armature};
use spine_model::FileFormat;

use crate::{Failure, JsonOut};

/// Where `skel pose` samples: an integer frame, or a time in seconds (frame
/// `trunc(T * fps)`).
#[derive(Debug, Clone, Copy)]
pub(crate) enum PoseAt {
    /// `--frame N`.
    Frame(u32),
    /// `--time T`.
    Time(f32),
}

/// The limits archives are read with: entries up to the CLI's input limit.
fn archive_limits() -> skelform::Limits {
    skelform::Limits {
        max_entry_size: crate::io::max_input_bytes() as u64,
        ..skelform::Limits::default()
    }
}

/// The `armature.json` text of a SkelForm file: the bytes of a bare document, or the
/// archive's entry inflated to at most the input limit.
fn armature_json(bytes: &[u8], format: FileFormat) -> Result<std::borrow::Cow<'_, [u8]>, String> {
    if format != FileFormat::SkelformArchive {
        return Ok(bytes.into());
    }
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| format!("zip archive: {e}"))?;
    let entry = zip
        .by_name("armature.json")
        .map_err(|_| skelform::SkfError::MissingArmature.to_string())?;
    let max = crate::io::max_input_bytes();
    if entry.size() > max as u64 {
        return Err(format!(
            "zip entry `armature.json`: {} bytes exceeds the limit of {max} bytes",
            entry.size()
        ));
    }
    let mut out = Vec::with_capacity(entry.size() as usize);
    entry
        .take(max as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| format!("zip entry `armature.json`: {e}"))?;
    if out.len() > max {
        return Err(format!("zip entry `armature.json`: over the limit of {max} bytes"));
    }
    Ok(out.into())
}

/// Loads the armature of a SkelForm file (its `armature.json` read within the input limit).
pub(crate) fn load_armature(bytes: &[u8], format: FileFormat) -> Result<Armature, String> {
    let json = armature_json(bytes, format)?;
    skelform::parse_armature_json(&json).map_err(|e| e.to_string())
}

fn load(file: &Path, bytes: &[u8], format: FileFormat) -> Result<Armature, Failure> {
    load_armature(bytes, format).map_err(|e| Failure::new(file, e))
}

fn anim_index(file: &Path, arm: &Armature, name: &str) -> Result<usize, Failure> {
    arm.animation_index(name).ok_or_else(|| {
        let names: Vec<&str> = arm.animations().iter().map(|a| a.name.as_str()).collect();
        Failure::new(file, crate::names::unknown("animation", name, &names))
    })
}

/// FNV-1a 64 of the file bytes, hex (SkelForm files carry no hash of their own).
fn fnv1a(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// `skel info FILE [--json]` for a SkelForm file. Counts map onto the shared summary keys:
/// `slots` = visuals, `skins` = style names, `constraints.ik` = IK families,
/// `constraints.physics` = physics entries; `duration` = last keyframe frame / fps
/// (seconds); `hash` = FNV-1a 64 of the file bytes.
pub(crate) fn info(
    file: &Path,
    bytes: &[u8],
    format: FileFormat,
    as_json: bool,
) -> Result<(), Failure> {
    let arm = load(file, bytes, format)?;
    let duration = |a: &skelform::Animation| {
        if a.fps == 0 {
            0.0
        } else {
            a.last_frame() as f64 / a.fps as f64
        }
    };
    let skins: Vec<&str> = arm.styles().iter().map(|s| s.name.as_str()).collect();
    let version = match arm.upgraded_from() {
        Some(v) => format!("{v} (upgraded)"),
        None => arm.version().to_string(),
    };
    if as_json {
        let v = json!({
            "file": file.display().to_string(),
            "format": "skelform",
            "version": version,
            "hash": fnv1a(bytes),
            "bones": arm.bones().len(),
            "slots": arm.visuals().len(),
            "skins": skins,
            "constraints": {
                "ik": arm.ik_families().len(),
                "transform": 0,
                "path": 0,
                "physics": arm.physics().len(),
                "slider": 0,
            },
            "events": Vec::<String>::new(),
            "animations": arm.animations().iter()
                .map(|a| json!({"name": a.name, "duration": duration(a)}))
                .collect::<Vec<_>>(),
            "bytes_total": bytes.len(),
            "bytes_consumed": bytes.len(),
        });
        outln!("{v}");
    } else {
        let e = crate::escape;
        outln!("file:        {}", e(&file.display().to_string()));
        outln!("format:      skelform {}", e(&version));
        outln!("hash:        {}", fnv1a(bytes));
        outln!("bones:       {}", arm.bones().len());
        outln!("slots:       {} (visuals)", arm.visuals().len());
        outln!("skins:       {} (styles)", e(&skins.join(", ")));
        outln!(
            "constraints: ik {}, transform 0, path 0, physics {}, slider 0",
            arm.ik_families().len(),
            arm.physics().len()
        );
        outln!("events:      ");
        outln!("animations:");
        for a in arm.animations() {
            outln!(
                "  {:<24} {:.4} s ({} fps, last frame {})",
                format!("{:?}", a.name),
                duration(a),
                a.fps,
                a.last_frame()
            );
        }
        outln!("bytes:       {}", bytes.len());
    }
    Ok(())
}

/// `skel dump FILE [--json]` for a SkelForm file: the `armature.json` document (the format
/// layer of SkelForm), checked to load; text: the loaded armature.
pub(crate) fn dump(
    file: &Path,
    bytes: &[u8],
    format: FileFormat,
    as_json: bool,
) -> Result<(), Failure> {
    let json = armature_json(bytes, format).map_err(|e| Failure::new(file, e))?;
    let arm = skelform::parse_armature_json(&json).map_err(|e| Failure::new(file, e))?;
    if as_json {
        let text = spine_model::files::json_text(&json).map_err(|e| Failure::new(file, e))?;
        outln!("{}", text.trim());
    } else {
        outln!("{arm:#?}");
    }
    Ok(())
}

/// `skel validate` for a SkelForm file: loads it (with its atlas images, for an archive);
/// the one problem found, if any.
pub(crate) fn validate(bytes: &[u8], format: FileFormat) -> Option<String> {
    if format == FileFormat::SkelformArchive {
        return skelform::load_skf(bytes, &archive_limits()).err().map(|e| e.to_string());
    }
    skelform::parse_armature_json(bytes).err().map(|e| e.to_string())
}

/// Checks the numbers a pose prints (world transforms, mesh vertices) are finite.
fn check_world(arm: &Armature) -> Result<(), String> {
    const FIELDS: [&str; 5] = ["x", "y", "rot", "scaleX", "scaleY"];
    for (i, (b, w)) in arm.bones().iter().zip(arm.world()).enumerate() {
        let v = [w.pos.x, w.pos.y, w.rot, w.scale.x, w.scale.y];
        if let Some(k) = v.iter().position(|x| !x.is_finite()) {
            return Err(format!(
                "bone {i} {:?}: world {} is {}, not a finite number",
                b.name, FIELDS[k], v[k]
            ));
        }
    }
    for v in 0..arm.visuals().len() {
        if let Some(k) = arm.world_vertices(v).iter().position(|p| !p.is_finite()) {
            return Err(format!("visual {v}: world vertex {k} is not a finite number"));
        }
    }
    Ok(())
}

/// `[[x, y, rot, scaleX, scaleY, hidden], ...]` of the last construct.
fn world_json(arm: &Armature) -> Value {
    Value::Array(
        arm.world()
            .iter()
            .map(|w| json!([w.pos.x, w.pos.y, w.rot, w.scale.x, w.scale.y, w.hidden]))
            .collect(),
    )
}

/// `{visualId: [[x, y], ...]}` for every visual with mesh vertices.
fn verts_json(arm: &Armature) -> Value {
    let mut m = Map::new();
    for v in 0..arm.visuals().len() {
        let vs = arm.world_vertices(v);
        if !vs.is_empty() {
            m.insert(v.to_string(), vs.iter().map(|p| json!([p.x, p.y])).collect());
        }
    }
    Value::Object(m)
}

fn print_world_text(arm: &Armature) {
    for (i, (b, w)) in arm.bones().iter().zip(arm.world()).enumerate() {
        outln!(
            "  [{i:>3}] {:<28} x {:>11.4} y {:>11.4} rot {:>9.5} scale {:>7.4} {:>7.4}{}",
            format!("{:?}", b.name),
            w.pos.x,
            w.pos.y,
            w.rot,
            w.scale.x,
            w.scale.y,
            if w.hidden { " hidden" } else { "" }
        );
    }
}

/// The frame `skel pose` / `skel commands` take.
fn frame_of(arm: &Armature, a: usize, at: PoseAt) -> u32 {
    match at {
        PoseAt::Frame(n) => n,
        PoseAt::Time(t) => skelform::frame_at(t, arm.animations()[a].fps),
    }
}

/// `skel pose FILE --anim NAME (--frame N | --time T) [--json]` for a SkelForm file: a
/// freshly loaded armature, animated once at that frame (not looped: frames past the end
/// hold the last values) and constructed once.
pub(crate) fn pose(
    file: &Path,
    bytes: &[u8],
    format: FileFormat,
    anim: &str,
    at: PoseAt,
    as_json: bool,
) -> Result<(), Failure> {
    let mut arm = load(file, bytes, format)?;
    let a = anim_index(file, &arm, anim)?;
    let frame = frame_of(&arm, a, at);
    arm.animate(&[AnimLayer { anim: a, frame, smooth: 0 }]);
    arm.construct();
    check_world(&arm).map_err(|e| Failure::new(file, format!("{anim:?} frame {frame}: {e}")))?;
    if as_json {
        let names: Vec<&str> = arm.bones().iter().map(|b| b.name.as_str()).collect();
        let v = json!({
            "anim": anim,
            "frame": frame,
            "bone_names": names,
            "world": world_json(&arm),
            "verts": verts_json(&arm),
        });
        outln!("{v}");
    } else {
        outln!("{:?} frame {frame}:", anim);
        print_world_text(&arm);
    }
    Ok(())
}

/// `skel play FILE --anim NAME [--json]` for a SkelForm file: one armature advanced frame by
/// frame from 0 to the animation's last frame (animate + construct per frame, physics state
/// carried over), each frame written as it is computed; at most `max_frames` frames.
pub(crate) fn play(
    file: &Path,
    bytes: &[u8],
    format: FileFormat,
    anim: &str,
    max_frames: u32,
    as_json: bool,
) -> Result<(), Failure> {
    let mut arm = load(file, bytes, format)?;
    let a = anim_index(file, &arm, anim)?;
    let last = arm.animations()[a].last_frame();
    if u64::from(last) + 1 > u64::from(max_frames) {
        return Err(Failure::new(
            file,
            format!(
                "animation {anim:?} has {} frames (last frame {last}), over --max-frames \
                 {max_frames} (raise --max-frames to play it)",
                u64::from(last) + 1
            ),
        ));
    }
    let mut out = as_json.then(JsonOut::new);
    if let Some(o) = out.as_mut() {
        o.raw("{\"frames\":[");
    }
    for frame in 0..=last {
        arm.animate(&[AnimLayer { anim: a, frame, smooth: 0 }]);
        arm.construct();
        if let Err(e) = check_world(&arm) {
            if let Some(o) = out {
                o.abandon();
            }
            return Err(Failure::new(file, format!("{anim:?} frame {frame}: {e}")));
        }
        match out.as_mut() {
            Some(o) => {
                if frame > 0 {
                    o.raw(",");
                }
                o.value(
                    &json!({"frame": frame, "world": world_json(&arm), "verts": verts_json(&arm)}),
                );
            }
            None => {
                outln!("{:?} frame {frame}:", anim);
                print_world_text(&arm);
            }
        }
    }
    if let Some(mut o) = out {
        o.raw("]}");
        o.finish();
    }
    Ok(())
}

/// `skel commands FILE --anim NAME --time T` for a SkelForm file: the render commands of the
/// pose `skel pose` takes (default styles), as `{"commands": [...]}` with the atlas file
/// names as textures.
pub(crate) fn commands(
    file: &Path,
    bytes: &[u8],
    format: FileFormat,
    anim: &str,
    at: PoseAt,
) -> Result<String, Failure> {
    let fail = |e: &dyn std::fmt::Display| Failure::new(file, e);
    let mut arm = load(file, bytes, format)?;
    let a = anim_index(file, &arm, anim)?;
    let frame = frame_of(&arm, a, at);
    arm.animate(&[AnimLayer { anim: a, frame, smooth: 0 }]);
    arm.construct();
    let at = |e: String| Failure::new(file, format!("{anim:?} frame {frame}: {e}"));
    check_world(&arm).map_err(at)?;
    let mut cmds = spine_render_traits::RenderCommands::new();
    let mut drawer = skelform::SkfDrawer::new(&arm, &mut cmds);
    drawer.draw(&arm, &mut cmds).map_err(|e| fail(&e))?;
    crate::render::check_commands(&cmds).map_err(at)?;
    serde_json::to_string(&cmds).map_err(|e| fail(&e))
}

/// What `skel render` draws for a `.skf` archive and where.
#[derive(Debug, Clone)]
pub(crate) struct SkfRenderArgs {
    /// Animation (default: the first one; the bind pose when there is none).
    pub anim: Option<String>,
    /// One output per animation (`out` gets `-<animation>` before its extension, or a
    /// `<animation>/` sub-folder for PNG sequences).
    pub all: bool,
    /// Time of a `.png` frame, seconds (frame `trunc(time · fps)`, as `skel pose`).
    pub time: f32,
    /// Frames per second of animated outputs.
    pub fps: f32,
    /// Most frames of an output.
    pub max_frames: u32,
    /// Image size; default: the animation's bounds at `scale` plus a margin, at most 2048
    /// per side.
    pub size: Option<(u32, u32)>,
    /// Pixels per world unit; default: fit the bounds to the image (1 when no size).
    pub scale: Option<f32>,
    /// Background, straight RGBA.
    pub background: [u8; 4],
    /// Active styles by name, highest priority first (default: "Default", else all).
    pub styles: Vec<String>,
    /// Output path: `.png`, `.gif`, `.apng`, `.webp`, `.mp4`, `.webm`, `.mov`, or a
    /// folder ending in `/`.
    pub out: String,
    /// Encoder options (quality, GIF palette and dither, ffmpeg).
    pub encoding: crate::output::Encoding,
    /// Draw with `skel-wgpu` offscreen (`--gpu`).
    pub gpu: bool,
}

/// Margin around the fitted bounds, pixels.
const MARGIN: f32 = 8.0;

/// `skel render FILE.skf ...`: draws the armature through the render contract
/// ([`skelform::SkfDrawer`]) with the software rasterizer. A `.png` output is one frame
/// posed like `skel pose` (fresh armature, animated and constructed once at `time`);
/// animated outputs advance one armature through `0 ..= duration` at `fps` (looping frame
/// numbers, physics carried over). The view fits the union of all frames' bounds. Returns
/// the written paths.
pub(crate) fn render(
    file: &Path,
    bytes: &[u8],
    args: &SkfRenderArgs,
) -> Result<Vec<std::path::PathBuf>, Failure> {
    use crate::output::Kind as OutputKind;
    let fail = |e: &dyn std::fmt::Display| Failure::new(file, e);
    let kind = OutputKind::from_path(&args.out).ok_or_else(|| {
        fail(&format!("--out must end in {} (got {:?})", crate::output::OUT_FORMATS, args.out))
    })?;
    let skf = skelform::load_skf(bytes, &archive_limits()).map_err(|e| {
        if matches!(e, skelform::SkfError::NotSkelForm) {
            fail(&"rendering needs a .skf archive (a bare armature.json has no atlas images)")
        } else {
            fail(&e)
        }
    })?;
    let arm = &skf.armature;
    let mut styles = Vec::with_capacity(args.styles.len());
    for name in &args.styles {
        let i = arm.styles().iter().position(|s| &s.name == name).ok_or_else(|| {
            let names: Vec<&str> = arm.styles().iter().map(|s| s.name.as_str()).collect();
            fail(&crate::names::unknown("style", name, &names))
        })?;
        styles.push(i);
    }
    let anims: Vec<Option<usize>> = if args.all && !arm.animations().is_empty() {
        (0..arm.animations().len()).map(Some).collect()
    } else {
        match &args.anim {
            Some(name) => vec![Some(anim_index(file, arm, name)?)],
            None => vec![default_animation(arm)],
        }
    };
    // Every output's frames and path are checked before anything is drawn.
    let mut plans = Vec::with_capacity(anims.len());
    for a in anims {
        let out = if args.all {
            let name = a.and_then(|a| arm.animations().get(a)).map_or("", |x| x.name.as_str());
            output_for(&args.out, kind, name)
        } else {
            args.out.clone()
        };
        let frames = frame_list(arm, a, kind, args).map_err(|e| fail(&e))?;
        crate::output::check_outputs(Path::new(&out), kind, frames.len() as u32)
            .map_err(|e| fail(&e))?;
        plans.push((a, frames, out));
    }
    let mut written = Vec::new();
    for (a, frames, out) in plans {
        written.push(render_one(file, &skf, a, &frames, &styles, kind, &out, args)?);
    }
    Ok(written)
}

/// The animation drawn when none is named: the longest one with keyframes past frame 0
/// (the first of equals), else the first; `None` when there are none.
fn default_animation(arm: &Armature) -> Option<usize> {
    let seconds = |a: &skelform::Animation| {
        if a.fps == 0 {
            0.0
        } else {
            f64::from(a.last_frame()) / f64::from(a.fps)
        }
    };
    let mut best: Option<(usize, f64)> = None;
    for (i, a) in arm.animations().iter().enumerate() {
        let d = seconds(a);
        if a.last_frame() > 0 && best.is_none_or(|(_, b)| d > b) {
            best = Some((i, d));
        }
    }
    best.map(|(i, _)| i).or((!arm.animations().is_empty()).then_some(0))
}

/// `out` with `-<anim>` before the extension, or `out/<anim>/` for a PNG sequence.
fn output_for(out: &str, kind: crate::output::Kind, anim: &str) -> String {
    let clean: String = anim
        .trim()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .collect();
    if kind == crate::output::Kind::PngSequence {
        return format!("{out}{clean}/");
    }
    match out.rfind('.') {
        Some(dot) => format!("{}-{clean}{}", &out[..dot], &out[dot..]),
        None => format!("{out}-{clean}"),
    }
}

/// The frame numbers to draw: one (`.png`) or `0 ..= duration` at `fps` (looping); more
/// than `--max-frames` is an error naming the animation.
fn frame_list(
    arm: &Armature,
    anim: Option<usize>,
    kind: crate::output::Kind,
    args: &SkfRenderArgs,
) -> Result<Vec<u32>, String> {
    let Some(a) = anim else { return Ok(vec![0]) };
    let fps = arm.animations().get(a).map_or(0, |x| x.fps);
    if kind == crate::output::Kind::Png {
        return Ok(vec![skelform::frame_at(args.time, fps)]);
    }
    let last = arm.animations().get(a).map_or(0, skelform::Animation::last_frame);
    let duration = if fps == 0 { 0.0 } else { f64::from(last) / f64::from(fps) };
    let n = (duration * f64::from(args.fps)).round().max(1.0);
    if n > f64::from(args.max_frames) {
        let name = arm.animations().get(a).map_or("", |x| x.name.as_str());
        return Err(format!(
            "animation {name:?} lasts {} s: {} frames at --fps {}, over --max-frames {} \
             (raise --max-frames, or lower --fps)",
            crate::args::short(duration),
            crate::args::short(n),
            args.fps,
            args.max_frames
        ));
    }
    Ok((0..n as u32).map(|k| arm.time_frame(a, k as f32 / args.fps, false, true)).collect())
}

#[allow(clippy::too_many_arguments)]
fn render_one(
    file: &Path,
    skf: &skelform::SkfArchive,
    anim: Option<usize>,
    frames: &[u32],
    styles: &[usize],
    kind: crate::output::Kind,
    out: &str,
    args: &SkfRenderArgs,
) -> Result<std::path::PathBuf, Failure> {
    use skel_render::ViewTransform;
    use spine_render_traits::RenderCommands;
    let fail = |e: &dyn std::fmt::Display| Failure::new(file, e);
    let mut cmds = RenderCommands::new();
    let mut drawer = skelform::SkfDrawer::new(&skf.armature, &mut cmds);
    if !args.styles.is_empty() {
        drawer.set_styles(styles);
    }
    let pages: Vec<_> = (0..skf.atlas_images.len()).map(|i| drawer.page(i)).collect();
    // Pass 1: the union of every frame's bounds (same simulation as pass 2).
    let mut pose = |arm: &mut Armature, frame: u32, cmds: &mut RenderCommands| {
        if let Some(a) = anim {
            arm.animate(&[AnimLayer { anim: a, frame, smooth: 0 }]);
        }
        arm.construct();
        cmds.clear();
        drawer.draw(arm, cmds).map(|_| ()).map_err(|e| fail(&e))
    };
    let mut arm = skf.armature.clone();
    let mut bounds: Option<[f32; 4]> = None;
    for &f in frames {
        pose(&mut arm, f, &mut cmds)?;
        if let Some(b) = cmds.bounds() {
            bounds = Some(match bounds {
                None => b,
                Some(u) => [u[0].min(b[0]), u[1].min(b[1]), u[2].max(b[2]), u[3].max(b[3])],
            });
        }
    }
    let bounds = bounds.unwrap_or([0.0; 4]);
    let (w, h) = args.size.unwrap_or_else(|| {
        let s = args.scale.unwrap_or(1.0);
        let side = |d: f32| ((d * s + 2.0 * MARGIN).ceil() as u32).clamp(1, 2048);
        (side(bounds[2] - bounds[0]), side(bounds[3] - bounds[1]))
    });
    let view = match args.scale {
        Some(s) => ViewTransform::centered(bounds, w, h, s),
        None => ViewTransform::fit(bounds, w, h, MARGIN),
    };
    let mut r = crate::raster::Raster::new(w, h, args.gpu).map_err(|e| fail(&e))?;
    for (i, img) in skf.atlas_images.iter().enumerate() {
        let (Some(Some(page)), Some(atlas)) = (pages.get(i), skf.armature.atlases().get(i)) else {
            continue;
        };
        // The PNG header is checked against the pixel limits before decoding.
        r.load_png_page(*page, &atlas.filename, img, false, None)
            .map_err(|e| fail(&format!("atlas image {:?}: {e}", atlas.filename)))?;
    }
    r.set_view(view);
    r.set_background(args.background);
    let path = std::path::PathBuf::from(out);
    let n = frames.len() as u32;
    let shape = crate::output::Shape {
        size: (w, h),
        fps: args.fps,
        frames: n,
        background: args.background,
    };
    let mut output =
        crate::output::Output::open(&path, kind, shape, &args.encoding).map_err(|e| fail(&e))?;
    // Pass 2: a fresh armature through the same frames.
    let mut arm = skf.armature.clone();
    let mut rgba = Vec::new();
    for &f in frames {
        pose(&mut arm, f, &mut cmds)?;
        r.draw(&cmds, &mut rgba).map_err(|e| fail(&e))?;
        output.frame(&rgba).map_err(|e| fail(&e))?;
    }
    output.finish().map_err(|e| fail(&e))?;
    Ok(path)
}

#[cfg(test)]
mod render_tests {
    use super::*;

    fn args(out: &Path, anim: Option<&str>) -> SkfRenderArgs {
        SkfRenderArgs {
            anim: anim.map(str::to_owned),
            all: false,
            time: 0.5,
            fps: 10.0,
            max_frames: crate::args::DEFAULT_MAX_FRAMES,
            size: Some((128, 128)),
            scale: None,
            background: [255, 255, 255, 255],
            styles: Vec::new(),
            out: out.display().to_string(),
            encoding: crate::output::Encoding::default(),
            gpu: false,
        }
    }

    #[test]
    fn renders_png_and_gif() {
        let Some(dir) = skel_testkit::fixtures_dir() else { return };
        let file = dir.join("skelform").join("skellington_v0.7.0.skf");
        let bytes = std::fs::read(&file).expect("fixture");
        let tmp = std::env::temp_dir().join(format!("skf-render-{}", std::process::id()));
        std::fs::create_dir_all(&tmp).expect("tmp");
        let png = tmp.join("jump.png");
        let out = render(&file, &bytes, &args(&png, Some("Jump"))).map_err(|e| e.message);
        assert_eq!(out, Ok(vec![png.clone()]));
        let img = skel_render::load_png(&png).expect("png");
        assert_eq!((img.width, img.height), (128, 128));
        // Opaque white background, some darker figure pixels.
        assert!(img.pixels.chunks(4).all(|p| p[3] == 255));
        assert!(img.pixels.chunks(4).filter(|p| p[0] < 128).count() > 500);
        // Every animation as GIF: 4 files; Jump lasts 29/60 s → 5 frames at 10 fps.
        let mut a = args(&tmp.join("all.gif"), None);
        a.all = true;
        let out = render(&file, &bytes, &a).map_err(|e| e.message).expect("render all");
        assert_eq!(out.len(), 4);
        assert!(out.iter().any(|p| p.ends_with("all-Jump.gif")));
        assert!(out.iter().any(|p| p.ends_with("all-Run.gif")));
        assert!(out.iter().all(|p| std::fs::metadata(p).is_ok_and(|m| m.len() > 1000)));
        // Unknown style / animation are errors naming the choices.
        let mut bad = args(&png, None);
        bad.styles = vec!["Nope".into()];
        let e = render(&file, &bytes, &bad).map(|_| ()).map_err(|e| e.message);
        assert!(e.is_err_and(|m| m.contains("'Skelson Hat'")));
        // More frames than --max-frames: refused before anything is written.
        let mut long = args(&tmp.join("long.gif"), Some("Jump"));
        long.max_frames = 2;
        let e = render(&file, &bytes, &long).map(|_| ()).map_err(|e| e.message);
        assert!(e.is_err_and(|m| m.contains("--max-frames 2")));
        assert!(!tmp.join("long.gif").exists());
        let _ = std::fs::remove_dir_all(&tmp);
    }
}
