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
//!
//! Hostile input: page images must lie inside the atlas' folder
//! ([`spine_model::files::page_path`]) and be regular files; each is read once, bounded,
//! and its PNG header is checked against the pixel limits and the atlas' `size:` before
//! anything is decoded. An output has at most `--max-frames` frames (an animation lasting
//! longer is refused before anything is written); frames are encoded as they are drawn.
//! Outputs are written under a temporary name and renamed when complete, and never over a
//! file the command read ([`crate::io`]).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::raster::Raster;
use skel_render::ViewTransform;
use spine_anim::{
    apply_animation, AnimationState, AnimationStateData, MixBlend, MixDirection, Physics, Skeleton,
    SkeletonRenderer,
};
use spine_format::atlas::{Atlas, Page, Region};
use spine_model::files::{discover_atlas, page_path};
use spine_model::validate::AtlasChoice;
use spine_model::{AnimationId, AttachmentKind, SkeletonData, SlotId};
use spine_render_traits::{PageId, RenderCommands, TextureDesc, TextureFilter, TextureWrap};

use crate::io::{is_stdin, read_input};
use crate::output::{check_outputs, Encoding, Kind as OutputKind, Output, Shape};
use crate::pose::{check_pose, load_rig_with, read_atlas, skeleton, SkeletonInput};

/// The project's demo rig (`cargo xtask gen-demo` writes it to `crates/skel-cli/demo`), rendered
/// when no FILE is given; embedded in the binary with its atlas and page image, so that an
/// installed `skel` draws it from any folder.
pub const DEMO_JSON: &[u8] = include_bytes!("../demo/demo.json");
/// The demo rig's atlas.
const DEMO_ATLAS: &[u8] = include_bytes!("../demo/demo.atlas");
/// The demo rig's one page image.
const DEMO_PNG: &[u8] = include_bytes!("../demo/demo.png");
/// The name the embedded demo rig goes by in messages.
pub const DEMO_NAME: &str = "(demo rig)";

/// Writes the embedded demo rig (skeleton, atlas, page image) into `dir` (created if
/// missing) and returns the skeleton's path: what `skel view` serves when given no path.
pub fn write_demo(dir: &Path) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("demo.atlas"), DEMO_ATLAS)?;
    std::fs::write(dir.join("demo.png"), DEMO_PNG)?;
    let json = dir.join("demo.json");
    std::fs::write(&json, DEMO_JSON)?;
    Ok(json)
}

/// The embedded demo rig, loaded for drawing.
fn load_demo(pma: Option<bool>) -> Result<DrawRig, String> {
    let atlas = spine_model::validate::parse_atlas(DEMO_ATLAS)?;
    let data = load_rig_with(DEMO_JSON, Some(&atlas), "demo.atlas")?;
    let pages = data
        .pages
        .iter()
        .map(|p| {
            let declared =
                (p.width > 0 && p.height > 0).then_some((p.width as u32, p.height as u32));
            let page = atlas.pages.iter().find(|a| a.name == p.name);
            let image =
                PageImage::File { path: p.name.clone().into(), bytes: DEMO_PNG.to_vec(), declared };
            (p.name.clone(), image, page_pma(Path::new("demo.atlas"), page, pma))
        })
        .collect();
    Ok(DrawRig { data, pages })
}

/// Hides `slots`: no attachment shown (after each pose, before drawing).
fn hide(sk: &mut Skeleton, slots: &[SlotId]) {
    for s in slots {
        sk.set_attachment(*s, None);
    }
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

/// A player advanced from t = 0 through `steps` ([`crate::args::played_steps`]: `n` steps
/// of `1 / fps`, then one of the rest); `t = 0` is one step of 0.
fn play_to(
    data: &Arc<SkeletonData>,
    skin: Option<&str>,
    anim: Option<AnimationId>,
    (n, rest): (u64, f32),
    fps: f32,
) -> Result<Player, String> {
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
    f: &mut dyn FnMut(&mut Skeleton) -> Result<(), String>,
) -> Result<(), String> {
    let mut first = Player::new(data, skin, anim)?;
    first.step(0.0);
    f(&mut first.sk)?;
    if n > 1 {
        let mut p = Player::new(data, skin, anim)?;
        for _ in 1..n {
            p.step(dt);
            f(&mut p.sk)?;
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
    /// The page image file (beside the atlas), read once: its path, bytes and the size
    /// the atlas declares for it (`size:`), if any.
    File { path: PathBuf, bytes: Vec<u8>, declared: Option<(u32, u32)> },
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
        AtlasChoice::Auto if is_stdin(file) => Err("no atlas found: the skeleton is read from \
             standard input, so there is no folder to look in; pass --atlas FILE, or \
             --no-atlas to draw geometry only"
            .to_owned()),
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

/// Loads a skeleton for drawing: the atlas by the contract's rule ([`resolve_atlas`]), or
/// the geometry page under `--no-atlas`. Every page path must stay inside the atlas'
/// folder. When `read_images` (drawing pixels), every page image must be a regular file
/// there, and is read once (bounded); otherwise (render commands name pages, they never
/// sample them) the images are neither looked for nor read.
pub(crate) fn load_for_drawing(
    input: &SkeletonInput<'_>,
    choice: &AtlasChoice,
    pma: Option<bool>,
    read_images: bool,
) -> Result<DrawRig, String> {
    let Some(atlas_path) = resolve_atlas(input.path, choice)? else {
        let geometry = load_rig_with(input.bytes, None, "")?;
        let atlas = geometry_atlas(&geometry);
        let data = load_rig_with(input.bytes, Some(&atlas), GEOMETRY_PAGE)?;
        let pages = data.pages.iter().map(|p| (p.name.clone(), PageImage::Flat, false)).collect();
        return Ok(DrawRig { data, pages });
    };
    let atlas = read_atlas(&atlas_path)?;
    let name = atlas_path.file_name().and_then(|n| n.to_str()).unwrap_or("atlas");
    let data = load_rig_with(input.bytes, Some(&atlas), name)?;
    let dir = atlas_path.parent().unwrap_or(Path::new(""));
    let mut pages = Vec::with_capacity(data.pages.len());
    for p in &data.pages {
        let image =
            page_path(dir, &p.name).map_err(|e| format!("{e} (in {})", atlas_path.display()))?;
        if !read_images {
            pages.push((p.name.clone(), PageImage::Flat, false));
            continue;
        }
        let Ok(meta) = std::fs::metadata(&image) else {
            return Err(format!(
                "atlas page image {:?} not found: looked for {} (page of {})",
                p.name,
                image.display(),
                atlas_path.display()
            ));
        };
        if !meta.is_file() {
            return Err(format!(
                "atlas page image {:?} is not a regular file: {} (page of {})",
                p.name,
                image.display(),
                atlas_path.display()
            ));
        }
        let bytes = read_input(&image, "atlas page image")
            .map_err(|e| format!("atlas page image {}: {e}", image.display()))?;
        let declared = (p.width > 0 && p.height > 0).then_some((p.width as u32, p.height as u32));
        let page = atlas.pages.iter().find(|a| a.name == p.name);
        pages.push((
            p.name.clone(),
            PageImage::File { path: image, bytes, declared },
            page_pma(&atlas_path, page, pma),
        ));
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
    /// none (geometry only, [`GEOMETRY_PAGE`]).
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
        .or_else(|| data.skins.iter().find(|s| s.name != "default").map(|s| s.name.clone()))
        .unwrap_or_else(|| "default".to_owned())
}

/// Creates the raster's page textures (each PNG header checked before decoding).
fn load_textures(raster: &mut Raster, pages: &[(String, PageImage, bool)]) -> Result<(), String> {
    for (i, (name, image, pma)) in pages.iter().enumerate() {
        let page = PageId(i as u32);
        match image {
            PageImage::File { path, bytes, declared } => raster
                .load_png_page(page, name, bytes, *pma, *declared)
                .map_err(|e| format!("atlas page image {}: {e}", path.display()))?,
            PageImage::Flat => raster.set_texture(
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
            )?,
        }
    }
    Ok(())
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
    let mut sk = skeleton(data, skin)?;
    let hidden = args
        .hide_slots
        .iter()
        .map(|n| crate::pose::find_slot(data, n))
        .collect::<Result<Vec<_>, _>>()?;

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
    // Every output's frame count and path is checked before anything is drawn.
    let mut plans = Vec::with_capacity(anims.len());
    for anim in anims {
        let name = anim.map(|a| data.animation(a).name.clone()).unwrap_or_else(|| "setup".into());
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
    let dt = 1.0 / args.fps;
    let animated = kind != OutputKind::Png;

    // Pass 1: the bounds of each output over its whole animation, so the view does not
    // jump: posed, sampled at 30 fps plus the output's frames; played, the output's own run
    // (a still frame: the animation's frames at --fps, then the still's run). At most
    // --max-frames frames are sampled.
    let mut renderer = SkeletonRenderer::new();
    let mut cmds = SkeletonRenderer::commands(data);
    let mut all_bounds = Vec::with_capacity(plans.len());
    for Plan { anim, name, duration, frames, .. } in &plans {
        let (anim, duration, frames) = (*anim, *duration, *frames);
        let mut seen = Seen::default();
        if played {
            let n =
                if animated { frames } else { bounds_frames(duration, args.fps, args.max_frames) };
            play_frames(data, skin, anim, dt, n as usize, &mut |sk| {
                hide(sk, &hidden);
                renderer.render(sk, &mut cmds);
                seen.add(&cmds, animated);
                Ok(())
            })?;
            if let Some(steps) = still_steps {
                let mut p = play_to(data, skin, anim, steps, args.fps)?;
                hide(&mut p.sk, &hidden);
                renderer.render(&p.sk, &mut cmds);
                seen.add(&cmds, true);
            }
        } else {
            for k in 0..bounds_frames(duration, 30.0, args.max_frames) {
                pose_at(&mut sk, anim, k as f32 / 30.0);
                hide(&mut sk, &hidden);
                renderer.render(&sk, &mut cmds);
                seen.add(&cmds, false);
            }
            let times: Box<dyn Iterator<Item = f32>> = if animated {
                Box::new((0..frames).map(|k| k as f32 / args.fps))
            } else {
                Box::new(std::iter::once(args.time))
            };
            for t in times {
                pose_at(&mut sk, anim, t);
                hide(&mut sk, &hidden);
                renderer.render(&sk, &mut cmds);
                seen.add(&cmds, true);
            }
        }
        if !seen.drawn {
            let when = if kind == OutputKind::Png {
                format!("at --time {}", args.time)
            } else {
                format!("in any of its {frames} frame{}", if frames == 1 { "" } else { "s" })
            };
            let what = if anim.is_some() { format!("animation {name:?}") } else { name.clone() };
            return Err(format!(
                "nothing to draw: skin {:?}, {what} shows no region or mesh attachment {when}",
                skin_name(data, skin)
            ));
        }
        all_bounds.push(seen.bounds.unwrap_or([-1.0, -1.0, 1.0, 1.0]));
    }
    // One scale for every output (--crop, or --all without --size): the character keeps
    // its size from one animation to the next.
    let shared = (args.crop || (plans.len() > 1 && args.size.is_none()))
        .then(|| shared_scale(&all_bounds, args.scale, args.size));

    let mut written = Vec::new();
    for (Plan { anim, name, frames, out, .. }, bounds) in plans.into_iter().zip(all_bounds) {
        let (bw, bh) = ((bounds[2] - bounds[0]).max(1.0), (bounds[3] - bounds[1]).max(1.0));
        let (w, h, view) = match (shared, args.size) {
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
        };
        let mut raster = Raster::new(w, h, args.gpu)?;
        load_textures(&mut raster, &rig.pages)?;
        raster.set_view(view);
        raster.set_background(args.background);

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
        let shape = Shape { size: (w, h), fps: args.fps, frames, background: args.background };
        let mut output = Output::open(Path::new(&out), kind, shape, &args.encoding)?;
        if kind == OutputKind::Png {
            // The still frame again, as pass 1 drew it.
            match still_steps {
                Some(steps) => {
                    let mut p = play_to(data, skin, anim, steps, args.fps)?;
                    hide(&mut p.sk, &hidden);
                    renderer.render(&p.sk, &mut cmds);
                }
                None => {
                    pose_at(&mut sk, anim, args.time);
                    hide(&mut sk, &hidden);
                    renderer.render(&sk, &mut cmds);
                }
            }
            draw(&cmds, &mut rgba)?;
            output.frame(&rgba)?;
        } else if played {
            play_frames(data, skin, anim, dt, frames as usize, &mut |sk| {
                hide(sk, &hidden);
                renderer.render(sk, &mut cmds);
                draw(&cmds, &mut rgba)?;
                output.frame(&rgba)
            })?;
        } else {
            for k in 0..frames {
                pose_at(&mut sk, anim, k as f32 / args.fps);
                hide(&mut sk, &hidden);
                renderer.render(&sk, &mut cmds);
                draw(&cmds, &mut rgba)?;
                output.frame(&rgba)?;
            }
        }
        output.finish()?;
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        written.push(PathBuf::from(out));
    }
    Ok(written)
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
    use super::*;

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
