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
//! ([`discover_atlas`]); when there is none the drawing verbs fail with a message naming
//! what was looked for (never a blank image). `--no-atlas` is the explicit geometry-only
//! choice: every region and mesh is bound to a 1×1 flat page, [`GEOMETRY_PAGE`].
//!
//! Premultiplied alpha of a page: `--pma` / `--no-pma`, else the atlas page's `pma:` field
//! (4.x), else (3.x atlases have no such field) whether the atlas file name ends in
//! `-pma.atlas`.
//!
//! Skin rule: `--skin S`, else the first non-default skin when there is one.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use skel_render::encode::{open_animation, save_png};
use skel_render::{OutputKind, SoftwareRenderer, ViewTransform};
use spine_anim::{
    apply_animation, AnimationState, AnimationStateData, MixBlend, MixDirection, Physics, Skeleton,
    SkeletonRenderer,
};
use spine_format::atlas::{Atlas, Page, Region};
use spine_model::validate::{discover_atlas, load_atlas, AtlasChoice};
use spine_model::{AnimationId, AttachmentKind, SkeletonData};
use spine_render_traits::{
    render as draw_all, PageId, RenderCommands, TextureDesc, TextureFilter, TextureWrap,
};

use crate::pose::{load_rig_with, skeleton};

/// The project's demo rig (`cargo xtask gen-demo` writes it), rendered when no FILE is given.
pub fn demo_rig_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/demo/demo.json")
}

/// How `skel render` poses its frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum PhysicsMode {
    /// Play the animation as a player (and `skel play`) does: an AnimationState stepped
    /// from t = 0 at 1/--fps, physics updated.
    #[default]
    Update,
    /// Pose each frame at its time (setup pose, animation applied once), physics off.
    None,
}

/// Poses `sk` at `t` of `anim` (setup pose first), world transforms without physics.
fn pose_at(sk: &mut Skeleton, anim: Option<AnimationId>, t: f32) {
    sk.set_to_setup_pose();
    if let Some(a) = anim {
        apply_animation(sk, a, t, t, true, None, 1.0, MixBlend::Setup, MixDirection::In);
    }
    sk.update_world_transform(Physics::None);
}

/// A skeleton played by an `AnimationState`, as `skel play` runs it.
struct Player {
    sk: Skeleton,
    state: AnimationState,
}

impl Player {
    /// A fresh skeleton (setup pose, chosen skin) and a state with `anim` looping on track 0.
    fn new(
        data: &Arc<SkeletonData>,
        skin: Option<&str>,
        anim: Option<AnimationId>,
    ) -> Result<Player, String> {
        let sk = skeleton(data, skin)?;
        let mut state = AnimationState::new(Arc::new(AnimationStateData::new(data.clone())));
        if let Some(a) = anim {
            state.set_animation(0, Some(a), true);
        }
        state.clear_events();
        Ok(Player { sk, state })
    }

    /// One frame of `skel play`: state update, state apply, skeleton update, world
    /// transforms with physics updated. Delivered callbacks are dropped (their buffer kept).
    fn step(&mut self, dt: f32) {
        self.state.update(dt);
        self.state.apply(&mut self.sk);
        self.state.clear_events();
        self.sk.update(dt);
        self.sk.update_world_transform(Physics::Update);
    }
}

/// Most steps a still frame is played over (`--time` × `--fps`).
const MAX_STEPS: f64 = 1_000_000.0;

/// The steps of a played run from 0 to exactly `t`: `n` steps of `1 / fps`, then one of
/// `rest` (0 when `t · fps` is a whole number, to 1e-4 frame).
fn steps_to(t: f32, fps: f32) -> Result<(u64, f32), String> {
    if !(t >= 0.0 && t.is_finite()) {
        return Err(format!(
            "--time must be 0 or more to play the animation from 0 (got {t}; \
             --physics none poses any time)"
        ));
    }
    let dt = 1.0 / fps;
    let x = f64::from(t) * f64::from(fps);
    let whole = x.round();
    let (n, rest) = if (x - whole).abs() < 1e-4 {
        (whole, 0.0)
    } else {
        let n = x.floor();
        (n, (f64::from(t) - n * f64::from(dt)) as f32)
    };
    if n > MAX_STEPS {
        return Err(format!("--time {t} at --fps {fps} is over {MAX_STEPS} frames to play"));
    }
    Ok((n as u64, rest))
}

/// A player advanced from t = 0 to exactly `t` ([`steps_to`]); `t = 0` is one step of 0.
fn play_to(
    data: &Arc<SkeletonData>,
    skin: Option<&str>,
    anim: Option<AnimationId>,
    t: f32,
    fps: f32,
) -> Result<Player, String> {
    let (n, rest) = steps_to(t, fps)?;
    let mut p = Player::new(data, skin, anim)?;
    if n == 0 && rest <= 0.0 {
        p.step(0.0);
    }
    let dt = 1.0 / fps;
    for _ in 0..n {
        p.step(dt);
    }
    if rest > 0.0 {
        p.step(rest);
    }
    Ok(p)
}

/// Plays frames `0..n` at `dt` and hands each pose to `f`: frame 0 after one step of 0 on a
/// player of its own, frames 1.. on one player stepped by `dt` (exactly `skel play`'s run).
fn play_frames(
    data: &Arc<SkeletonData>,
    skin: Option<&str>,
    anim: Option<AnimationId>,
    dt: f32,
    n: usize,
    f: &mut dyn FnMut(&Skeleton) -> Result<(), String>,
) -> Result<(), String> {
    let mut first = Player::new(data, skin, anim)?;
    first.step(0.0);
    f(&first.sk)?;
    if n > 1 {
        let mut p = Player::new(data, skin, anim)?;
        for _ in 1..n {
            p.step(dt);
            f(&p.sk)?;
        }
    }
    Ok(())
}

/// The page every region and mesh is bound to under `--no-atlas`: a 1×1 flat texture
/// ([`GEOMETRY_TEXEL`]), so that geometry-only drawing is visible.
pub const GEOMETRY_PAGE: &str = "(no atlas)";

/// The texel of [`GEOMETRY_PAGE`], straight RGBA: a 75 %-opaque mid grey, visible on light
/// and dark backgrounds (overlaps more opaque, tinted by slot colors).
const GEOMETRY_TEXEL: [u8; 4] = [0x90, 0x90, 0x90, 0xc0];

/// Where the pixels of one atlas page come from.
#[derive(Debug, Clone)]
enum PageImage {
    /// The page image file (beside the atlas).
    File(PathBuf),
    /// [`GEOMETRY_TEXEL`] (`--no-atlas`).
    Flat,
}

/// A skeleton loaded for drawing: its data and the image and alpha mode of every page it
/// uses (in the data's page order, which is the render commands' page order).
pub(crate) struct DrawRig {
    pub data: Arc<SkeletonData>,
    pages: Vec<(String, PageImage, bool)>,
}

/// `file` with an empty parent made explicit (`x.skel` → `./x.skel`), so that the folder can
/// be listed.
fn with_dir(file: &Path) -> PathBuf {
    match file.parent() {
        Some(p) if p.as_os_str().is_empty() => Path::new(".").join(file),
        _ => file.to_path_buf(),
    }
}

/// The `-pma` naming of 3.x atlases (`raptor-pma.atlas`).
fn named_pma(atlas: &Path) -> bool {
    atlas.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
        let n = n.to_ascii_lowercase();
        n.ends_with("-pma.atlas") || n.ends_with("-pma.atlas.txt")
    })
}

/// Premultiplied alpha of `page` of the atlas at `atlas`: `over` (`--pma` / `--no-pma`), else
/// the page's `pma:` field, else the `-pma.atlas` naming.
fn page_pma(atlas: &Path, page: Option<&Page>, over: Option<bool>) -> bool {
    over.or(page.and_then(|p| p.pma)).unwrap_or_else(|| named_pma(atlas))
}

/// The contract's atlas rule, failing with what was looked for and where when there is no
/// atlas; `None` only for [`AtlasChoice::None`].
pub(crate) fn resolve_atlas(file: &Path, choice: &AtlasChoice) -> Result<Option<PathBuf>, String> {
    match choice {
        AtlasChoice::None => Ok(None),
        AtlasChoice::File(p) => Ok(Some(p.clone())),
        AtlasChoice::Auto => {
            let file = with_dir(file);
            discover_atlas(&file).map(Some).ok_or_else(|| no_atlas_message(&file))
        }
    }
}

/// "No atlas found": the names [`discover_atlas`] tried, the folder, and the `.atlas` files
/// that are there.
fn no_atlas_message(file: &Path) -> String {
    let dir = file.parent().unwrap_or(Path::new("."));
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let mut tried = vec![format!("{stem}.atlas")];
    if let Some((base, _)) = stem.rsplit_once('-') {
        tried.push(format!("{base}.atlas"));
    }
    let mut plain = Vec::new();
    let mut pma = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with("-pma.atlas") {
                pma.push(name);
            } else if name.ends_with(".atlas") {
                plain.push(name);
            }
        }
    }
    plain.sort();
    pma.sort();
    let found = match plain.len() {
        0 => "found none".to_owned(),
        n => format!("found {n}: {}", plain.join(", ")),
    };
    let pma = match pma.len() {
        0 => String::new(),
        1 => format!("; {} is used only when given with --atlas", pma[0]),
        _ => format!("; {} are used only when given with --atlas", pma.join(", ")),
    };
    format!(
        "no atlas found: looked in {} for {}, then for a single non-pma .atlas ({found}{pma}); \
         pass --atlas FILE, or --no-atlas to draw geometry only",
        dir.display(),
        tried.join(", "),
    )
}

/// Loads `file` for drawing: the atlas by the contract's rule ([`resolve_atlas`]), or the
/// geometry page under `--no-atlas`; every page image must exist.
pub(crate) fn load_for_drawing(
    file: &Path,
    choice: &AtlasChoice,
    pma: Option<bool>,
) -> Result<DrawRig, String> {
    let Some(atlas_path) = resolve_atlas(file, choice)? else {
        let geometry = load_rig_with(file, None, "")?;
        let atlas = geometry_atlas(&geometry);
        let data = load_rig_with(file, Some(&atlas), GEOMETRY_PAGE)?;
        let pages = data.pages.iter().map(|p| (p.name.clone(), PageImage::Flat, false)).collect();
        return Ok(DrawRig { data, pages });
    };
    let atlas = load_atlas(&atlas_path)?;
    let name = atlas_path.file_name().and_then(|n| n.to_str()).unwrap_or("atlas");
    let data = load_rig_with(file, Some(&atlas), name)?;
    let dir = atlas_path.parent().unwrap_or(Path::new(""));
    let mut pages = Vec::with_capacity(data.pages.len());
    for p in &data.pages {
        let image = dir.join(&p.name);
        if !image.is_file() {
            return Err(format!(
                "atlas page image {:?} not found: looked for {} (page of {})",
                p.name,
                image.display(),
                atlas_path.display()
            ));
        }
        let page = atlas.pages.iter().find(|a| a.name == p.name);
        pages.push((p.name.clone(), PageImage::File(image), page_pma(&atlas_path, page, pma)));
    }
    Ok(DrawRig { data, pages })
}

/// A one-page atlas binding every region and mesh path of `data` (every sequence frame
/// included) to the whole of a 1×1 page, [`GEOMETRY_PAGE`].
fn geometry_atlas(data: &SkeletonData) -> Atlas {
    let mut seen = std::collections::HashSet::new();
    let mut regions = Vec::new();
    for a in &data.attachments {
        let seq = match &a.kind {
            AttachmentKind::Region(r) => &r.sequence,
            AttachmentKind::Mesh(m) => &m.sequence,
            _ => continue,
        };
        for path in seq.frame_paths() {
            if seen.insert(path.to_string()) {
                regions.push(Region {
                    name: path.to_string(),
                    bounds: Some([0, 0, 1, 1]),
                    ..Region::default()
                });
            }
        }
    }
    let page = Page {
        name: GEOMETRY_PAGE.to_owned(),
        size: Some([1, 1]),
        pma: Some(false),
        regions,
        ..Page::default()
    };
    Atlas { header: Vec::new(), pages: vec![page] }
}

/// `skel commands`: the render commands for `anim` at `time`, as a JSON document
/// `{"commands": [...]}` (the goldens' `render` shape). `play`: the frames per second of a
/// played run to `time` ([`PhysicsMode::Update`]); `None` poses at `time` without physics.
pub fn commands(
    file: &Path,
    atlas: &AtlasChoice,
    skin: Option<&str>,
    anim: &str,
    time: f32,
    play: Option<f32>,
) -> Result<String, String> {
    let data = load_for_drawing(file, atlas, None)?.data;
    let a = data.find_animation(anim).ok_or_else(|| format!("no animation named {anim:?}"))?;
    let mut out = SkeletonRenderer::commands(&data);
    match play {
        Some(fps) => {
            check_fps(fps)?;
            let p = play_to(&data, skin, Some(a), time, fps)?;
            SkeletonRenderer::new().render(&p.sk, &mut out);
        }
        None => {
            let mut sk = skeleton(&data, skin)?;
            pose_at(&mut sk, Some(a), time);
            SkeletonRenderer::new().render(&sk, &mut out);
        }
    }
    serde_json::to_string(&out).map_err(|e| e.to_string())
}

fn check_fps(fps: f32) -> Result<(), String> {
    if fps > 0.0 && fps <= 1000.0 {
        Ok(())
    } else {
        Err(format!("--fps must be in (0, 1000] (got {fps})"))
    }
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
    /// Atlas: discovered beside the skeleton, a file (page images are read beside it), or
    /// none (geometry only, [`GEOMETRY_PAGE`]).
    pub atlas: AtlasChoice,
    /// Premultiplied alpha of every page (`--pma` / `--no-pma`); `None`: the atlas says.
    pub pma: Option<bool>,
    /// Played with physics (default) or posed without.
    pub physics: PhysicsMode,
    /// Skin.
    pub skin: Option<String>,
    /// Animation (default: the first one; the setup pose when there is none).
    pub anim: Option<String>,
    /// One output per animation (`out` gets `-<animation>` before its extension, or a
    /// `<animation>/` sub-folder for PNG sequences).
    pub all: bool,
    /// Time of a `.png` frame.
    pub time: f32,
    /// Frames per second of animated outputs, and the step of played runs.
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
            atlas: AtlasChoice::Auto,
            pma: None,
            physics: PhysicsMode::Update,
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
        .or_else(|| data.skins.iter().find(|s| s.name != "default").map(|s| s.name.clone()))
        .unwrap_or_else(|| "default".to_owned())
}

/// Creates the raster's page textures.
fn load_textures(
    raster: &mut SoftwareRenderer,
    pages: &[(String, PageImage, bool)],
) -> Result<(), String> {
    for (i, (name, image, pma)) in pages.iter().enumerate() {
        let page = PageId(i as u32);
        match image {
            PageImage::File(path) => {
                let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
                raster
                    .load_png_texture(page, name, &bytes, *pma)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
            }
            PageImage::Flat => raster
                .set_texture(
                    page,
                    &TextureDesc {
                        name,
                        width: 1,
                        height: 1,
                        pixels: &GEOMETRY_TEXEL,
                        premultiplied_alpha: false,
                        min_filter: TextureFilter::Nearest,
                        mag_filter: TextureFilter::Nearest,
                        wrap_u: TextureWrap::ClampToEdge,
                        wrap_v: TextureWrap::ClampToEdge,
                    },
                )
                .map_err(|e| e.to_string())?,
        }
    }
    Ok(())
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
    check_fps(args.fps)?;
    if let Some(s) = args.scale {
        if !(s > 0.0 && s.is_finite()) {
            return Err(format!("--scale must be positive (got {s})"));
        }
    }
    let rig = load_for_drawing(&file, &args.atlas, args.pma)?;
    let data = &rig.data;
    let skin = args.skin.as_deref();
    let mut sk = skeleton(data, skin)?;

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
    let played = args.physics == PhysicsMode::Update;
    let dt = 1.0 / args.fps;

    let mut renderer = SkeletonRenderer::new();
    let mut cmds = SkeletonRenderer::commands(data);
    let mut written = Vec::new();
    for anim in anims {
        let name = anim.map(|a| data.animation(a).name.clone()).unwrap_or_else(|| "setup".into());
        let duration = anim.map(|a| data.animation(a).duration).unwrap_or(0.0);
        let times =
            if kind == OutputKind::Png { vec![args.time] } else { frame_times(duration, args.fps) };

        // Bounds over the whole animation, so the view does not jump: posed, sampled at 30
        // fps plus the output's frames; played, the output's own run (a still frame: the
        // animation's frames at --fps, then the still's run, whose commands stay in `cmds`).
        let mut seen = Seen::default();
        if played {
            let n = frame_times(duration, args.fps).len();
            let animated = kind != OutputKind::Png;
            play_frames(data, skin, anim, dt, n, &mut |sk| {
                renderer.render(sk, &mut cmds);
                seen.add(&cmds, animated);
                Ok(())
            })?;
            if !animated {
                let p = play_to(data, skin, anim, args.time, args.fps)?;
                renderer.render(&p.sk, &mut cmds);
                seen.add(&cmds, true);
            }
        } else {
            for t in frame_times(duration, 30.0) {
                pose_at(&mut sk, anim, t);
                renderer.render(&sk, &mut cmds);
                seen.add(&cmds, false);
            }
            for &t in &times {
                pose_at(&mut sk, anim, t);
                renderer.render(&sk, &mut cmds);
                seen.add(&cmds, true);
            }
        }
        if !seen.drawn {
            let when = if kind == OutputKind::Png {
                format!("at --time {}", args.time)
            } else {
                let n = times.len();
                format!("in any of its {n} frame{}", if n == 1 { "" } else { "s" })
            };
            let what = if anim.is_some() { format!("animation {name:?}") } else { name.clone() };
            return Err(format!(
                "nothing to draw: skin {:?}, {what} shows no region or mesh attachment {when}",
                skin_name(data, skin)
            ));
        }
        let bounds = seen.bounds.unwrap_or([-1.0, -1.0, 1.0, 1.0]);
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
        load_textures(&mut raster, &rig.pages)?;
        raster.set_view(view);
        raster.set_background(args.background);

        let out = if args.all { output_for(&args.out, kind, &name) } else { args.out.clone() };
        let bar = args.progress.then(|| {
            let b = indicatif::ProgressBar::new(times.len() as u64);
            b.set_message(name.clone());
            b
        });
        let mut rgba = Vec::new();
        let mut draw = |cmds: &RenderCommands, rgba: &mut Vec<u8>| {
            raster.clear();
            draw_all(cmds, &mut raster).map_err(|e| e.to_string())?;
            raster.read_rgba8(rgba);
            if let Some(b) = &bar {
                b.inc(1);
            }
            Ok::<(), String>(())
        };
        if kind == OutputKind::Png {
            // `cmds` holds the still frame (rendered last above).
            draw(&cmds, &mut rgba)?;
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
            if played {
                play_frames(data, skin, anim, dt, times.len(), &mut |sk| {
                    renderer.render(sk, &mut cmds);
                    draw(&cmds, &mut rgba)?;
                    sink.write_frame(&rgba).map_err(|e| e.to_string())
                })?;
            } else {
                for &t in &times {
                    pose_at(&mut sk, anim, t);
                    renderer.render(&sk, &mut cmds);
                    draw(&cmds, &mut rgba)?;
                    sink.write_frame(&rgba).map_err(|e| e.to_string())?;
                }
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

    #[test]
    fn a_still_frame_is_played_in_whole_steps_then_the_rest() {
        assert_eq!(steps_to(0.0, 30.0), Ok((0, 0.0)));
        assert_eq!(steps_to(1.0, 30.0), Ok((30, 0.0)));
        assert_eq!(steps_to(1.0, 60.0), Ok((60, 0.0)));
        // 0.1 s is 3 frames at 30 fps, to the f32 rounding of 0.1.
        assert_eq!(steps_to(0.1, 30.0), Ok((3, 0.0)));
        let (n, rest) = steps_to(0.25, 30.0).unwrap();
        assert_eq!(n, 7);
        let total = 7.0 * f64::from(1.0f32 / 30.0) + f64::from(rest);
        assert!((total - 0.25).abs() < 1e-7, "{total}");
        assert!(steps_to(-0.5, 30.0).is_err());
        assert!(steps_to(f32::NAN, 30.0).is_err());
        assert!(steps_to(1e6, 30.0).is_err());
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
        let data = crate::pose::load_rig_with(&demo_rig_path(), None, "").unwrap();
        let atlas = geometry_atlas(&data);
        assert_eq!(atlas.pages.len(), 1);
        let names: Vec<&str> = atlas.pages[0].regions.iter().map(|r| r.name.as_str()).collect();
        let unique: std::collections::HashSet<&str> = names.iter().copied().collect();
        assert_eq!(names.len(), unique.len());
        assert!(!names.is_empty());
        let bound = crate::pose::load_rig_with(&demo_rig_path(), Some(&atlas), GEOMETRY_PAGE);
        assert_eq!(bound.unwrap().pages.len(), 1);
    }
}
