//! Library side of `skel commands` and `skel render` (contract: `../shared/cli-contract.md`).
//!
//! * [`commands`]: the render commands of one pose (spine-cpp 4.2 `SkeletonRenderer`
//!   batching, clipping applied) as the goldens' `render` JSON.
//! * [`render`]: draws animations with the `skel-render` software rasterizer into PNG, a PNG
//!   sequence, GIF, APNG or WebP, the view fitted to the animation's bounds.
//!
//! Two ways to pose a frame ([`PhysicsMode`]):
//!
//! * played (`render`'s default, `commands --play`): as a player does, and as `skel play`
//!   does: a fresh skeleton and an `AnimationState` with the animation looping on track 0,
//!   stepped from t = 0 at `dt = 1 / fps`, each step `state.update(dt)`,
//!   `state.apply(skeleton)`, `skeleton.update(dt)`, world transforms with
//!   `Physics::Update`. Frame k of an animated output is drawn after k steps; a still frame
//!   at `--time T` after `floor(T · fps)` steps and one shorter step making up exactly T.
//!   Frame 0 (T = 0) is one step of 0 on a skeleton of its own, so that the run of frames
//!   1, 2, … is exactly `skel play`'s.
//! * posed (`render --physics none`, `commands` without `--play`): as `skel pose` makes them:
//!   setup pose, the animation applied once at `t` (looping), world transforms without
//!   physics.
//!
//! Atlas rule (the contract's): `--atlas A`, else the one atlas beside the skeleton
//! ([`discover_atlas`](spine_model::files::discover_atlas)); when there is none the drawing
//! verbs fail with a message naming what was looked for (never a blank image). `--no-atlas`
//! is the explicit geometry-only choice: every region and mesh is bound to a 1×1 flat page,
//! [`GEOMETRY_PAGE`](rig::GEOMETRY_PAGE).
//!
//! Premultiplied alpha of a page: `--pma` / `--no-pma`, else the atlas page's `pma:` field
//! (4.x), else (3.x atlases have no such field) whether the atlas file name ends in
//! `-pma.atlas`.
//!
//! Skin rule: `--skin S`, else the first non-default skin when there is one.
//!
//! Hostile input: page images must lie inside the atlas' folder
//! ([`spine_model::files::page_path`]) and be regular files; each is read once, bounded,
//! and its PNG header is checked against the pixel limits and the atlas' `size:` before
//! anything is decoded. An output has at most `--max-frames` frames (an animation lasting
//! longer is refused before anything is written); frames are encoded as they are drawn.
//! Outputs are written under a temporary name and renamed when complete, and never over a
//! file the command read ([`crate::io`]).

mod play;
mod rig;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::raster::Raster;
use skel_render::ViewTransform;
use spine_anim::{Skeleton, SkeletonRenderer};
use spine_model::validate::AtlasChoice;
use spine_model::{AnimationId, SkeletonData, SlotId};
use spine_render_traits::RenderCommands;

use crate::output::{check_outputs, Encoding, Kind as OutputKind, Output, Shape};
use crate::pose::{check_pose, skeleton, SkeletonInput};

pub use play::PhysicsMode;
use play::{hide, play_frames, play_to, pose_at};
use rig::{load_demo, load_for_drawing, load_textures};
pub use rig::{write_demo, DEMO_JSON, DEMO_NAME};

/// Checks that no command position or uv is NaN or infinite (after [`check_pose`] named
/// the bone or slot of any bad number it could).
pub(crate) fn check_commands(cmds: &RenderCommands) -> Result<(), String> {
    for (i, c) in cmds.iter().enumerate() {
        for (what, xs) in [("position", c.positions), ("uv", c.uvs)] {
            if let Some(k) = xs.iter().position(|x| !x.is_finite()) {
                return Err(format!(
                    "render command {i} (page {:?}): vertex {} {what} {} is {}, not a finite \
                     number",
                    c.page_name,
                    k / 2,
                    ["x", "y"][k % 2],
                    xs[k]
                ));
            }
        }
    }
    Ok(())
}

/// `skel commands`: the render commands for `anim` at `time`, as a JSON document
/// `{"commands": [...]}` (the goldens' `render` shape). `play`: the frames per second and
/// steps ([`crate::args::played_steps`]) of a played run to `time`
/// ([`PhysicsMode::Update`]); `None` poses at `time` without physics.
pub fn commands(
    input: &SkeletonInput<'_>,
    atlas: &AtlasChoice,
    skin: Option<&str>,
    anim: &str,
    time: f32,
    play: Option<(f32, (u64, f32))>,
) -> Result<String, String> {
    let data = load_for_drawing(input, atlas, None, false)?.data;
    let a = crate::pose::find_animation(&data, anim)?;
    let mut out = SkeletonRenderer::commands(&data);
    let at = |e: String| format!("{anim:?} at --time {time}: {e}");
    match play {
        Some((fps, steps)) => {
            let p = play_to(&data, skin, Some(a), steps, fps)?;
            check_pose(&p.sk).map_err(at)?;
            SkeletonRenderer::new().render(&p.sk, &mut out);
        }
        None => {
            let mut sk = skeleton(&data, skin)?;
            pose_at(&mut sk, Some(a), time);
            check_pose(&sk).map_err(at)?;
            SkeletonRenderer::new().render(&sk, &mut out);
        }
    }
    check_commands(&out).map_err(at)?;
    serde_json::to_string(&out).map_err(|e| e.to_string())
}

/// What `skel render` draws and where.
#[derive(Debug, Clone)]
pub struct RenderArgs {
    /// Atlas: discovered beside the skeleton, a file (page images are read beside it), or
    /// none (geometry only, [`GEOMETRY_PAGE`](rig::GEOMETRY_PAGE)).
    pub atlas: AtlasChoice,
    /// The embedded demo rig (its atlas and page image embedded too) instead of a file.
    pub demo: bool,
    /// Premultiplied alpha of every page (`--pma` / `--no-pma`); `None`: the atlas says.
    pub pma: Option<bool>,
    /// Played with physics (default) or posed without.
    pub physics: PhysicsMode,
    /// Skin, or skins separated by commas (combined).
    pub skin: Option<String>,
    /// Slots drawn without their attachment.
    pub hide_slots: Vec<String>,
    /// Animation (default: [`crate::pose::default_animation`]; the setup pose when there
    /// is none).
    pub anim: Option<String>,
    /// One output per animation (`out` gets `-<animation>` before its extension, or a
    /// `<animation>/` sub-folder for PNG sequences).
    pub all: bool,
    /// Time of a `.png` frame.
    pub time: f32,
    /// Frames per second of animated outputs, and the step of played runs.
    pub fps: f32,
    /// Most frames of an output, and most steps of a played still frame.
    pub max_frames: u32,
    /// Image size; default: the animation's bounds at `scale`, at most 2048 per side.
    pub size: Option<(u32, u32)>,
    /// `--crop`: the image is the frames' bounds at one scale, `size` being its cap.
    pub crop: bool,
    /// Pixels per world unit; default: fit the bounds to the image.
    pub scale: Option<f32>,
    /// Background, straight RGBA.
    pub background: [u8; 4],
    /// Output path: `.png`, `.gif`, `.apng`, `.webp`, `.mp4`, `.webm`, `.mov`, or a folder
    /// ending in `/`.
    pub out: String,
    /// Encoder options (quality, GIF palette and dither, ffmpeg).
    pub encoding: Encoding,
    /// Show a progress bar (the CLI passes "stderr is a terminal").
    pub progress: bool,
    /// The file's name in the progress bar.
    pub label: String,
    /// Draw with `skel-wgpu` offscreen (`--gpu`, cargo feature `gpu`) instead of the
    /// software rasterizer.
    pub gpu: bool,
}

impl Default for RenderArgs {
    fn default() -> Self {
        RenderArgs {
            atlas: AtlasChoice::Auto,
            demo: false,
            pma: None,
            physics: PhysicsMode::Update,
            skin: None,
            hide_slots: Vec::new(),
            anim: None,
            all: false,
            time: 0.0,
            fps: 30.0,
            max_frames: crate::args::DEFAULT_MAX_FRAMES,
            size: None,
            crop: false,
            scale: None,
            background: [0, 0, 0, 0],
            out: "out.png".to_owned(),
            encoding: Encoding::default(),
            progress: false,
            label: String::new(),
            gpu: false,
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

/// The frames of an animation at `fps`: `ceil(duration * fps)`, at least 1 (one frame for
/// a zero-length animation); frame `k` is at `k / fps`. More than `max_frames` (or a
/// duration that is not finite) is an error naming the animation.
pub(crate) fn frame_count(
    name: &str,
    duration: f32,
    fps: f32,
    max_frames: u32,
) -> Result<u32, String> {
    // In f32, as the frame times are (2.2 s at 30 fps is 66 frames, not 67).
    let n = f64::from((duration * fps).ceil()).max(1.0);
    if !duration.is_finite() || n > f64::from(max_frames) {
        return Err(format!(
            "animation {name:?} lasts {} s: {} frames at --fps {fps}, over --max-frames \
             {max_frames} (raise --max-frames, or lower --fps)",
            crate::args::short(f64::from(duration)),
            crate::args::short(n)
        ));
    }
    Ok(n as u32)
}

/// The frames sampled for a view's bounds: the animation's frames at `fps`, at most
/// `max_frames`.
fn bounds_frames(duration: f32, fps: f32, max_frames: u32) -> u32 {
    let n = f64::from((duration * fps).ceil());
    if n.is_nan() {
        1
    } else {
        n.clamp(1.0, f64::from(max_frames)) as u32
    }
}

/// The union of the bounds of the frames seen, and whether a frame of the output drew.
#[derive(Debug, Default)]
struct Seen {
    bounds: Option<[f32; 4]>,
    drawn: bool,
}

impl Seen {
    /// Adds the commands of one frame; `output`: the frame is one of the output's.
    fn add(&mut self, cmds: &RenderCommands, output: bool) {
        if let Some(b) = cmds.bounds() {
            self.bounds = Some(match self.bounds {
                None => b,
                Some(a) => [a[0].min(b[0]), a[1].min(b[1]), a[2].max(b[2]), a[3].max(b[3])],
            });
        }
        self.drawn |= output && !cmds.is_empty();
    }
}

/// The name of the skin [`skeleton`] chooses.
fn skin_name(data: &SkeletonData, skin: Option<&str>) -> String {
    skin.map(str::to_owned)
        .or_else(|| data.skins.iter().find(|s| s.name != "default").map(|s| s.name.to_string()))
        .unwrap_or_else(|| "default".to_owned())
}

/// One output of `skel render`: the animation, its name and duration, its frames (1 for
/// a `.png`), and its path.
struct Plan {
    anim: Option<AnimationId>,
    name: String,
    duration: f32,
    frames: u32,
    out: String,
}

/// The progress bar of one output: the file and animation, frames done, rate and ETA.
pub(crate) fn progress_bar(len: u64, message: String, unit: &str) -> indicatif::ProgressBar {
    let b = indicatif::ProgressBar::new(len);
    let template = format!("{{msg}} [{{bar:30}}] {{pos}}/{{len}} {unit}, {{per_sec}}, ETA {{eta}}");
    if let Ok(style) = indicatif::ProgressStyle::with_template(&template) {
        b.set_style(style.progress_chars("=> "));
    }
    b.set_message(message);
    b
}

/// `skel render`: draws and writes the outputs; returns the paths written.
pub fn render(input: &SkeletonInput<'_>, args: &RenderArgs) -> Result<Vec<PathBuf>, String> {
    let kind = OutputKind::from_path(&args.out).ok_or_else(|| {
        format!("--out must end in {} (got {:?})", crate::output::OUT_FORMATS, args.out)
    })?;
    if args.encoding.uses_ffmpeg(kind) {
        args.encoding.ffmpeg(&format!("--out {}", args.out))?;
    }
    let played = args.physics == PhysicsMode::Update;
    // A played still frame: its steps (a usage error when over --max-frames).
    let still_steps = (kind == OutputKind::Png && played)
        .then(|| crate::args::played_steps(args.time, args.fps, args.max_frames))
        .transpose()?;
    let rig = if args.demo {
        load_demo(args.pma)?
    } else {
        load_for_drawing(input, &args.atlas, args.pma, true)?
    };
    let data = &rig.data;
    let skin = args.skin.as_deref();
    let sk = skeleton(data, skin)?;
    let hidden = args
        .hide_slots
        .iter()
        .map(|n| crate::pose::find_slot(data, n))
        .collect::<Result<Vec<_>, _>>()?;
    let plans = plan_outputs(data, kind, args)?;
    let mut frames = Frames {
        args,
        data,
        skin,
        hidden,
        kind,
        played,
        still_steps,
        dt: 1.0 / args.fps,
        renderer: SkeletonRenderer::new(),
        cmds: SkeletonRenderer::commands(data),
        sk,
    };

    // Pass 1: the bounds of each output over its whole animation, so the view does not jump.
    let all_bounds = plans.iter().map(|p| frames.bounds(p)).collect::<Result<Vec<_>, _>>()?;
    // One scale for every output (--crop, or --all without --size): the character keeps
    // its size from one animation to the next.
    let shared = (args.crop || (plans.len() > 1 && args.size.is_none()))
        .then(|| shared_scale(&all_bounds, args.scale, args.size));

    // Pass 2: each output drawn and written.
    let mut written = Vec::new();
    for (plan, bounds) in plans.into_iter().zip(all_bounds) {
        let (w, h, view) = canvas(bounds, shared, args);
        let mut raster = Raster::new(w, h, args.gpu)?;
        load_textures(&mut raster, &rig.pages)?;
        raster.set_view(view);
        raster.set_background(args.background);
        written.push(frames.write(plan, raster, (w, h))?);
    }
    Ok(written)
}

/// The outputs of `skel render` (`--all`: one per animation), every frame count and path
/// checked before anything is drawn.
fn plan_outputs(
    data: &SkeletonData,
    kind: OutputKind,
    args: &RenderArgs,
) -> Result<Vec<Plan>, String> {
    let anims: Vec<Option<AnimationId>> = if args.all {
        data.animation_ids().map(Some).collect()
    } else if let Some(name) = &args.anim {
        vec![Some(crate::pose::find_animation(data, name)?)]
    } else {
        vec![crate::pose::default_animation(data)]
    };
    if anims.is_empty() {
        return Err("the skeleton has no animation".to_owned());
    }
    let mut plans = Vec::with_capacity(anims.len());
    for anim in anims {
        let name =
            anim.map(|a| data.animation(a).name.to_string()).unwrap_or_else(|| "setup".into());
        let duration = anim.map(|a| data.animation(a).duration).unwrap_or(0.0);
        let frames = if kind == OutputKind::Png {
            1
        } else {
            frame_count(&name, duration, args.fps, args.max_frames)?
        };
        let out = if args.all { output_for(&args.out, kind, &name) } else { args.out.clone() };
        check_outputs(Path::new(&out), kind, frames)?;
        plans.push(Plan { anim, name, duration, frames, out });
    }
    Ok(plans)
}

/// The image size and view of one output of `bounds`: the shared scale when there is one
/// (capped by `--size`, else [`MAX_SIDE`]), else fitted to `--size`, else sized from the
/// bounds at `--scale`.
fn canvas(bounds: [f32; 4], shared: Option<f32>, args: &RenderArgs) -> (u32, u32, ViewTransform) {
    let (bw, bh) = ((bounds[2] - bounds[0]).max(1.0), (bounds[3] - bounds[1]).max(1.0));
    match (shared, args.size) {
        (Some(s), _) => {
            let side = |d: f32| ((d * s + 2.0 * MARGIN).ceil() as u32).max(1);
            let (w, h) = (side(bw), side(bh));
            let (w, h) = match args.size {
                Some((cw, ch)) => (w.min(cw), h.min(ch)),
                None => (w.min(MAX_SIDE), h.min(MAX_SIDE)),
            };
            (w, h, ViewTransform::centered(bounds, w, h, s))
        }
        (None, Some((w, h))) => {
            let view = match args.scale {
                Some(s) => ViewTransform::centered(bounds, w, h, s),
                None => ViewTransform::fit(bounds, w, h, MARGIN),
            };
            (w, h, view)
        }
        (None, None) => {
            let s = shared_scale(&[bounds], args.scale, None);
            let side = |d: f32| ((d * s + 2.0 * MARGIN).ceil() as u32).clamp(1, MAX_SIDE);
            let (w, h) = (side(bw), side(bh));
            (w, h, ViewTransform::fit(bounds, w, h, MARGIN))
        }
    }
}

/// What every output of one `skel render` run draws with: the rig and the pose settings,
/// and the renderer, command buffer and posed skeleton reused from frame to frame.
struct Frames<'a> {
    args: &'a RenderArgs,
    data: &'a Arc<SkeletonData>,
    skin: Option<&'a str>,
    /// Slots hidden after each pose (`--hide-slot`).
    hidden: Vec<SlotId>,
    kind: OutputKind,
    /// Played (`--physics update`) rather than posed.
    played: bool,
    /// The steps of a played still frame.
    still_steps: Option<(u64, f32)>,
    dt: f32,
    renderer: SkeletonRenderer,
    cmds: RenderCommands,
    /// The skeleton posed frames are set on.
    sk: Skeleton,
}

impl Frames<'_> {
    /// Poses the skeleton at `t` of `anim`, hides the hidden slots and renders it.
    fn pose(&mut self, anim: Option<AnimationId>, t: f32) {
        pose_at(&mut self.sk, anim, t);
        hide(&mut self.sk, &self.hidden);
        self.renderer.render(&self.sk, &mut self.cmds);
    }

    /// Plays the still frame's steps on a skeleton of its own and renders it.
    fn play_still(&mut self, anim: Option<AnimationId>, steps: (u64, f32)) -> Result<(), String> {
        let mut p = play_to(self.data, self.skin, anim, steps, self.args.fps)?;
        hide(&mut p.sk, &self.hidden);
        self.renderer.render(&p.sk, &mut self.cmds);
        Ok(())
    }

    /// Pass 1 for one output: its bounds over the whole animation. Posed, sampled at 30 fps
    /// plus the output's frames; played, the output's own run (a still frame: the
    /// animation's frames at --fps, then the still's run). At most --max-frames frames are
    /// sampled. Fails when no frame of the output draws anything.
    fn bounds(&mut self, plan: &Plan) -> Result<[f32; 4], String> {
        let Plan { anim, duration, frames, .. } = *plan;
        let args = self.args;
        let animated = self.kind != OutputKind::Png;
        let mut seen = Seen::default();
        if self.played {
            let n =
                if animated { frames } else { bounds_frames(duration, args.fps, args.max_frames) };
            let (hidden, renderer, cmds) = (&self.hidden, &mut self.renderer, &mut self.cmds);
            play_frames(self.data, self.skin, anim, self.dt, n as usize, &mut |sk| {
                hide(sk, hidden);
                renderer.render(sk, cmds);
                seen.add(cmds, animated);
                Ok(())
            })?;
            if let Some(steps) = self.still_steps {
                self.play_still(anim, steps)?;
                seen.add(&self.cmds, true);
            }
        } else {
            for k in 0..bounds_frames(duration, 30.0, args.max_frames) {
                self.pose(anim, k as f32 / 30.0);
                seen.add(&self.cmds, false);
            }
            let times: Box<dyn Iterator<Item = f32>> = if animated {
                Box::new((0..frames).map(|k| k as f32 / args.fps))
            } else {
                Box::new(std::iter::once(args.time))
            };
            for t in times {
                self.pose(anim, t);
                seen.add(&self.cmds, true);
            }
        }
        if !seen.drawn {
            return Err(self.nothing_to_draw(plan));
        }
        Ok(seen.bounds.unwrap_or([-1.0, -1.0, 1.0, 1.0]))
    }

    /// The message for an output none of whose frames draws anything.
    fn nothing_to_draw(&self, plan: &Plan) -> String {
        let Plan { anim, name, frames, .. } = plan;
        let when = if self.kind == OutputKind::Png {
            format!("at --time {}", self.args.time)
        } else {
            format!("in any of its {frames} frame{}", if *frames == 1 { "" } else { "s" })
        };
        let what = if anim.is_some() { format!("animation {name:?}") } else { name.clone() };
        format!(
            "nothing to draw: skin {:?}, {what} shows no region or mesh attachment {when}",
            skin_name(self.data, self.skin)
        )
    }

    /// Pass 2 for one output: draws its frames with `raster` (of `size`) and writes them;
    /// returns the path written.
    fn write(
        &mut self,
        plan: Plan,
        mut raster: Raster,
        size: (u32, u32),
    ) -> Result<PathBuf, String> {
        let Plan { anim, name, frames, out, .. } = plan;
        let args = self.args;
        let bar = args
            .progress
            .then(|| progress_bar(u64::from(frames), format!("{}: {name}", args.label), "frames"));
        let mut rgba = Vec::new();
        let mut draw = |cmds: &RenderCommands, rgba: &mut Vec<u8>| {
            raster.draw(cmds, rgba)?;
            if let Some(b) = &bar {
                b.inc(1);
            }
            Ok::<(), String>(())
        };
        let shape = Shape { size, fps: args.fps, frames, background: args.background };
        let mut output = Output::open(Path::new(&out), self.kind, shape, &args.encoding)?;
        if self.kind == OutputKind::Png {
            // The still frame again, as pass 1 drew it.
            match self.still_steps {
                Some(steps) => self.play_still(anim, steps)?,
                None => self.pose(anim, args.time),
            }
            draw(&self.cmds, &mut rgba)?;
            output.frame(&rgba)?;
        } else if self.played {
            let (hidden, renderer, cmds) = (&self.hidden, &mut self.renderer, &mut self.cmds);
            play_frames(self.data, self.skin, anim, self.dt, frames as usize, &mut |sk| {
                hide(sk, hidden);
                renderer.render(sk, cmds);
                draw(cmds, &mut rgba)?;
                output.frame(&rgba)
            })?;
        } else {
            for k in 0..frames {
                self.pose(anim, k as f32 / args.fps);
                draw(&self.cmds, &mut rgba)?;
                output.frame(&rgba)?;
            }
        }
        output.finish()?;
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        Ok(PathBuf::from(out))
    }
}

/// Largest side of an image sized from its bounds (no `--size`).
const MAX_SIDE: u32 = 2048;

/// The pixels per world unit that draw every one of `bounds` (with the margin) within the
/// cap (`--size`, else [`MAX_SIDE`] square): `--scale` (default 1), lowered when needed.
fn shared_scale(bounds: &[[f32; 4]], scale: Option<f32>, cap: Option<(u32, u32)>) -> f32 {
    let (cw, ch) = cap.unwrap_or((MAX_SIDE, MAX_SIDE));
    let room = |c: u32| (c as f32 - 2.0 * MARGIN).max(1.0);
    let mut s = scale.unwrap_or(1.0);
    for b in bounds {
        let (bw, bh) = ((b[2] - b[0]).max(1.0), (b[3] - b[1]).max(1.0));
        let k = (room(cw) / (bw * s)).min(room(ch) / (bh * s));
        if k < 1.0 {
            s *= k;
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::rig::{geometry_atlas, page_pma, GEOMETRY_PAGE};
    use super::*;
    use spine_format::atlas::Page;

    #[test]
    fn output_names_and_frame_counts() {
        assert_eq!(output_for("a/b.gif", OutputKind::Gif, "run"), "a/b-run.gif");
        assert_eq!(output_for("seq/", OutputKind::PngSequence, "x/y"), "seq/x_y/");
        assert_eq!(frame_count("a", 1.0, 4.0, 10), Ok(4));
        assert_eq!(frame_count("a", 0.0, 30.0, 10), Ok(1));
        let e = frame_count("long", 1e30, 30.0, 10_000).unwrap_err();
        assert!(e.contains("\"long\"") && e.contains("--max-frames 10000"), "{e}");
        assert!(frame_count("inf", f32::INFINITY, 30.0, 10).is_err());
        assert!(frame_count("nan", f32::NAN, 30.0, 10).is_err());
        assert_eq!(bounds_frames(1e30, 30.0, 100), 100);
        assert_eq!(bounds_frames(f32::NAN, 30.0, 100), 1);
    }

    #[test]
    fn premultiplied_alpha_flags_then_the_pma_field_then_the_file_name() {
        let page = |pma| Page { name: "p.png".into(), pma, ..Page::default() };
        let plain = Path::new("dir/raptor.atlas");
        let named = Path::new("dir/raptor-pma.atlas");
        // 3.x atlases: no `pma:` field; the name decides.
        assert!(!page_pma(plain, Some(&page(None)), None));
        assert!(page_pma(named, Some(&page(None)), None));
        assert!(page_pma(Path::new("Raptor-PMA.atlas"), None, None));
        // 4.x atlases: the field decides.
        assert!(page_pma(plain, Some(&page(Some(true))), None));
        assert!(!page_pma(named, Some(&page(Some(false))), None));
        // --pma / --no-pma override both.
        assert!(!page_pma(named, Some(&page(Some(true))), Some(false)));
        assert!(page_pma(plain, Some(&page(None)), Some(true)));
    }

    #[test]
    fn the_geometry_atlas_binds_every_region_once() {
        let bytes = DEMO_JSON;
        let data = crate::pose::load_rig_with(bytes, None, "").unwrap();
        let atlas = geometry_atlas(&data);
        assert_eq!(atlas.pages.len(), 1);
        let names: Vec<&str> = atlas.pages[0].regions.iter().map(|r| r.name.as_str()).collect();
        let unique: std::collections::HashSet<&str> = names.iter().copied().collect();
        assert_eq!(names.len(), unique.len());
        assert!(!names.is_empty());
        let bound = crate::pose::load_rig_with(bytes, Some(&atlas), GEOMETRY_PAGE);
        assert_eq!(bound.unwrap().pages.len(), 1);
    }
}
