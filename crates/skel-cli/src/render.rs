//! Library side of `skel commands` and `skel render` (contract: `../shared/cli-contract.md`).
//!
//! * [`commands`]: the render commands of one pose (spine-cpp 4.2 `SkeletonRenderer`
//!   batching, clipping applied) as the goldens' `render` JSON.
//! * [`render`]: draws animations with the `skel-render` software rasterizer into PNG, a PNG
//!   sequence, GIF, APNG or WebP, the view fitted to the animation's bounds.
//!
//! Poses are made as `skel pose` makes them: setup pose, the animation applied once at `t`
//! (looping), world transforms without physics. Skin rule: `--skin S`, else the first
//! non-default skin when there is one.

use std::path::{Path, PathBuf};

use skel_render::encode::{open_animation, save_png};
use skel_render::{OutputKind, SoftwareRenderer, ViewTransform};
use spine_anim::{apply_animation, MixBlend, MixDirection, Physics, Skeleton, SkeletonRenderer};
use spine_model::validate::discover_atlas;
use spine_model::AnimationId;

use spine_render_traits::{render as draw_all, RenderCommands};

use crate::pose::{load_rig, skeleton};

/// The project's demo rig (`cargo xtask gen-demo` writes it), rendered when no FILE is given.
pub fn demo_rig_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/demo/demo.json")
}

/// Poses `sk` at `t` of `anim` (setup pose first), world transforms without physics.
fn pose_at(sk: &mut Skeleton, anim: Option<AnimationId>, t: f32) {
    sk.set_to_setup_pose();
    if let Some(a) = anim {
        apply_animation(sk, a, t, t, true, None, 1.0, MixBlend::Setup, MixDirection::In);
    }
    sk.update_world_transform(Physics::None);
}

/// `skel commands`: the render commands for `anim` at `time`, as a JSON document
/// `{"commands": [...]}` (the goldens' `render` shape).
pub fn commands(
    file: &Path,
    atlas: Option<&Path>,
    skin: Option<&str>,
    anim: &str,
    time: f32,
) -> Result<String, String> {
    let data = load_rig(file, atlas)?;
    let a = data.find_animation(anim).ok_or_else(|| format!("no animation named {anim:?}"))?;
    let mut sk = skeleton(&data, skin)?;
    pose_at(&mut sk, Some(a), time);
    let mut out = SkeletonRenderer::commands(&data);
    SkeletonRenderer::new().render(&sk, &mut out);
    serde_json::to_string(&out).map_err(|e| e.to_string())
}

/// Parses `--size WxH`.
pub fn parse_size(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("size must be WxH, e.g. 800x600: {text:?}");
    let (w, h) = text.trim().split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.parse().map_err(|_| bad())?;
    let h: u32 = h.parse().map_err(|_| bad())?;
    if w == 0 || h == 0 || w > 8192 || h > 8192 {
        return Err(format!("size {w}x{h} out of range (1..=8192 per side)"));
    }
    Ok((w, h))
}

/// What `skel render` draws and where.
#[derive(Debug, Clone)]
pub struct RenderArgs {
    /// The skeleton; `None` renders the demo rig ([`demo_rig_path`]).
    pub file: Option<PathBuf>,
    /// Atlas (default: the one next to the skeleton); page PNGs are read next to it.
    pub atlas: Option<PathBuf>,
    /// Skin.
    pub skin: Option<String>,
    /// Animation (default: the first one; the setup pose when there is none).
    pub anim: Option<String>,
    /// One output per animation (`out` gets `-<animation>` before its extension, or a
    /// `<animation>/` sub-folder for PNG sequences).
    pub all: bool,
    /// Time of a `.png` frame.
    pub time: f32,
    /// Frames per second of animated outputs.
    pub fps: f32,
    /// Image size; default: the animation's bounds at `scale`, at most 2048 per side.
    pub size: Option<(u32, u32)>,
    /// Pixels per world unit; default: fit the bounds to the image.
    pub scale: Option<f32>,
    /// Background, straight RGBA.
    pub background: [u8; 4],
    /// Output path: `.png`, `.gif`, `.apng`, `.webp`, or a folder ending in `/`.
    pub out: String,
    /// Show a progress bar (the CLI passes "stderr is a terminal").
    pub progress: bool,
}

impl Default for RenderArgs {
    fn default() -> Self {
        RenderArgs {
            file: None,
            atlas: None,
            skin: None,
            anim: None,
            all: false,
            time: 0.0,
            fps: 30.0,
            size: None,
            scale: None,
            background: [0, 0, 0, 0],
            out: "out.png".to_owned(),
            progress: false,
        }
    }
}

/// Margin around the fitted bounds, pixels.
const MARGIN: f32 = 8.0;

fn sanitize(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .collect()
}

/// The output path of one animation under `--all`.
fn output_for(out: &str, kind: OutputKind, anim: &str) -> String {
    let anim = sanitize(anim);
    if kind == OutputKind::PngSequence {
        return format!("{out}{anim}/");
    }
    match out.rfind('.') {
        Some(dot) => format!("{}-{anim}{}", &out[..dot], &out[dot..]),
        None => format!("{out}-{anim}"),
    }
}

/// Frame times of an animation: `k / fps` for `k = 0..ceil(duration * fps)` (one frame for
/// a zero-length animation).
fn frame_times(duration: f32, fps: f32) -> Vec<f32> {
    let n = ((duration * fps).ceil() as usize).clamp(1, 100_000);
    (0..n).map(|k| k as f32 / fps).collect()
}

/// `skel render`: draws and writes the outputs; returns the paths written.
pub fn render(args: &RenderArgs) -> Result<Vec<PathBuf>, String> {
    let file = args.file.clone().unwrap_or_else(demo_rig_path);
    if !file.is_file() {
        return Err(format!("{}: not found", file.display()));
    }
    let kind = OutputKind::from_path(&args.out).ok_or_else(|| {
        format!("--out must end in .png, .gif, .apng, .webp or / (got {:?})", args.out)
    })?;
    if !(args.fps > 0.0 && args.fps <= 1000.0) {
        return Err(format!("--fps must be in (0, 1000] (got {})", args.fps));
    }
    if let Some(s) = args.scale {
        if !(s > 0.0 && s.is_finite()) {
            return Err(format!("--scale must be positive (got {s})"));
        }
    }
    let data = load_rig(&file, args.atlas.as_deref())?;
    let mut sk = skeleton(&data, args.skin.as_deref())?;

    // Page textures: the page images next to the atlas.
    let atlas_path = args.atlas.clone().or_else(|| discover_atlas(&file));
    let atlas_dir = atlas_path.as_deref().and_then(Path::parent).map(Path::to_path_buf);
    let mut pages = Vec::new();
    for p in &data.pages {
        let dir = atlas_dir.as_deref().ok_or("no atlas: nothing to draw")?;
        let path = dir.join(&p.name);
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        pages.push((p.name.clone(), bytes, p.pma));
    }

    let anims: Vec<Option<AnimationId>> = if args.all {
        (0..data.animations.len()).map(|i| Some(AnimationId(i as u32))).collect()
    } else if let Some(name) = &args.anim {
        vec![Some(data.find_animation(name).ok_or_else(|| format!("no animation named {name:?}"))?)]
    } else {
        vec![(!data.animations.is_empty()).then_some(AnimationId(0))]
    };
    if anims.is_empty() {
        return Err("the skeleton has no animation".to_owned());
    }

    let mut renderer = SkeletonRenderer::new();
    let mut cmds = SkeletonRenderer::commands(&data);
    let mut written = Vec::new();
    for anim in anims {
        let name = anim.map(|a| data.animation(a).name.clone()).unwrap_or_else(|| "setup".into());
        let duration = anim.map(|a| data.animation(a).duration).unwrap_or(0.0);
        let times =
            if kind == OutputKind::Png { vec![args.time] } else { frame_times(duration, args.fps) };

        // Bounds over the whole animation (sampled), so the view does not jump.
        let mut bounds: Option<[f32; 4]> = None;
        for t in frame_times(duration, 30.0).into_iter().chain(times.iter().copied()) {
            pose_at(&mut sk, anim, t);
            renderer.render(&sk, &mut cmds);
            if let Some(b) = cmds.bounds() {
                bounds = Some(match bounds {
                    None => b,
                    Some(a) => [a[0].min(b[0]), a[1].min(b[1]), a[2].max(b[2]), a[3].max(b[3])],
                });
            }
        }
        let bounds = bounds.unwrap_or([-1.0, -1.0, 1.0, 1.0]);
        let (bw, bh) = ((bounds[2] - bounds[0]).max(1.0), (bounds[3] - bounds[1]).max(1.0));
        let (w, h) = match args.size {
            Some(s) => s,
            None => {
                let mut s = args.scale.unwrap_or(1.0);
                let big = (bw * s + 2.0 * MARGIN).max(bh * s + 2.0 * MARGIN);
                if big > 2048.0 {
                    s *= 2048.0 / big;
                }
                (
                    ((bw * s + 2.0 * MARGIN).ceil() as u32).max(1),
                    ((bh * s + 2.0 * MARGIN).ceil() as u32).max(1),
                )
            }
        };
        let view = match (args.size, args.scale) {
            (Some(_), Some(s)) => ViewTransform::centered(bounds, w, h, s),
            _ => ViewTransform::fit(bounds, w, h, MARGIN),
        };
        let mut raster = SoftwareRenderer::new(w, h).map_err(|e| e.to_string())?;
        for (i, (pname, bytes, pma)) in pages.iter().enumerate() {
            raster
                .load_png_texture(spine_render_traits::PageId(i as u32), pname, bytes, *pma)
                .map_err(|e| format!("{pname}: {e}"))?;
        }
        raster.set_view(view);
        raster.set_background(args.background);

        let out = if args.all { output_for(&args.out, kind, &name) } else { args.out.clone() };
        let bar = args.progress.then(|| {
            let b = indicatif::ProgressBar::new(times.len() as u64);
            b.set_message(name.clone());
            b
        });
        let mut rgba = Vec::new();
        let mut frame = |t: f32,
                         raster: &mut SoftwareRenderer,
                         cmds: &mut RenderCommands,
                         rgba: &mut Vec<u8>| {
            pose_at(&mut sk, anim, t);
            renderer.render(&sk, cmds);
            raster.clear();
            draw_all(cmds, raster).map_err(|e| e.to_string())?;
            raster.read_rgba8(rgba);
            if let Some(b) = &bar {
                b.inc(1);
            }
            Ok::<(), String>(())
        };
        if kind == OutputKind::Png {
            frame(args.time, &mut raster, &mut cmds, &mut rgba)?;
            if let Some(dir) = Path::new(&out).parent() {
                if !dir.as_os_str().is_empty() {
                    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                }
            }
            save_png(Path::new(&out), w, h, &rgba).map_err(|e| e.to_string())?;
        } else {
            let mut sink =
                open_animation(Path::new(&out), kind, w, h, args.fps, times.len() as u32)
                    .map_err(|e| e.to_string())?;
            for &t in &times {
                frame(t, &mut raster, &mut cmds, &mut rgba)?;
                sink.write_frame(&rgba).map_err(|e| e.to_string())?;
            }
            sink.finish().map_err(|e| e.to_string())?;
        }
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        written.push(PathBuf::from(out));
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_output_names() {
        assert_eq!(parse_size("800x600"), Ok((800, 600)));
        assert!(parse_size("800").is_err());
        assert!(parse_size("0x5").is_err());
        assert_eq!(output_for("a/b.gif", OutputKind::Gif, "run"), "a/b-run.gif");
        assert_eq!(output_for("seq/", OutputKind::PngSequence, "x/y"), "seq/x_y/");
        assert_eq!(frame_times(1.0, 4.0), vec![0.0, 0.25, 0.5, 0.75]);
        assert_eq!(frame_times(0.0, 30.0), vec![0.0]);
    }
}
