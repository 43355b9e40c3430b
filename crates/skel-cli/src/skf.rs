//! SkelForm verbs: `skel info`, `skel pose`, `skel play` on `.skf` archives and bare
//! `armature.json` (contract: `../shared/cli-contract.md`, SkelForm paragraphs).

use std::path::Path;

use serde_json::{json, Map, Value};
use skelform::{AnimLayer, Armature};

use crate::Failure;

/// Whether the bytes look like a SkelForm document: a zip archive (`.skf`) or a JSON object
/// (a bare `armature.json`). Spine JSON is also an object, so callers that support both
/// should try Spine JSON detection (a `skeleton` key) first.
pub(crate) fn is_skelform(bytes: &[u8]) -> bool {
    let b = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    b.starts_with(b"PK\x03\x04")
        || b.starts_with(b"PK\x05\x06")
        || b.iter().find(|c| !c.is_ascii_whitespace()) == Some(&b'{')
}

/// Where `skel pose` samples: an integer frame, or a time in seconds (frame
/// `trunc(T * fps)`).
#[derive(Debug, Clone, Copy)]
pub(crate) enum PoseAt {
    /// `--frame N`.
    Frame(u32),
    /// `--time T`.
    Time(f32),
}

fn load(file: &Path, bytes: &[u8]) -> Result<Armature, Failure> {
    skelform::load(bytes).map_err(|e| Failure::new(file, e))
}

fn anim_index(file: &Path, arm: &Armature, name: &str) -> Result<usize, Failure> {
    arm.animation_index(name).ok_or_else(|| {
        let names: Vec<String> = arm.animations().iter().map(|a| format!("{:?}", a.name)).collect();
        Failure::new(file, format!("no animation {name:?} (animations: {})", names.join(", ")))
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
pub(crate) fn info(file: &Path, bytes: &[u8], as_json: bool) -> Result<(), Failure> {
    let arm = load(file, bytes)?;
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
        outln!("file:        {}", file.display());
        outln!("format:      skelform {version}");
        outln!("hash:        {}", fnv1a(bytes));
        outln!("bones:       {}", arm.bones().len());
        outln!("slots:       {} (visuals)", arm.visuals().len());
        outln!("skins:       {} (styles)", skins.join(", "));
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

/// `skel pose FILE --anim NAME (--frame N | --time T) [--json]` for a SkelForm file: a
/// freshly loaded armature, animated once at that frame (not looped: frames past the end
/// hold the last values) and constructed once.
pub(crate) fn pose(
    file: &Path,
    bytes: &[u8],
    anim: &str,
    at: PoseAt,
    as_json: bool,
) -> Result<(), Failure> {
    let mut arm = load(file, bytes)?;
    let a = anim_index(file, &arm, anim)?;
    let frame = match at {
        PoseAt::Frame(n) => n,
        PoseAt::Time(t) => skelform::frame_at(t, arm.animations()[a].fps),
    };
    arm.animate(&[AnimLayer { anim: a, frame, smooth: 0 }]);
    arm.construct();
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
        outln!("{anim:?} frame {frame}:");
        print_world_text(&arm);
    }
    Ok(())
}

/// `skel play FILE --anim NAME [--json]` for a SkelForm file: one armature advanced frame by
/// frame from 0 to the animation's last frame (animate + construct per frame, physics state
/// carried over).
pub(crate) fn play(file: &Path, bytes: &[u8], anim: &str, as_json: bool) -> Result<(), Failure> {
    let mut arm = load(file, bytes)?;
    let a = anim_index(file, &arm, anim)?;
    let last = arm.animations()[a].last_frame();
    let mut frames = Vec::with_capacity(last as usize + 1);
    for frame in 0..=last {
        arm.animate(&[AnimLayer { anim: a, frame, smooth: 0 }]);
        arm.construct();
        if as_json {
            frames.push(
                json!({"frame": frame, "world": world_json(&arm), "verts": verts_json(&arm)}),
            );
        } else {
            outln!("{anim:?} frame {frame}:");
            print_world_text(&arm);
        }
    }
    if as_json {
        outln!("{}", json!({ "frames": frames }));
    }
    Ok(())
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
    /// Image size; default: the animation's bounds at `scale` plus a margin, at most 2048
    /// per side.
    pub size: Option<(u32, u32)>,
    /// Pixels per world unit; default: fit the bounds to the image (1 when no size).
    pub scale: Option<f32>,
    /// Background, straight RGBA.
    pub background: [u8; 4],
    /// Active styles by name, highest priority first (default: "Default", else all).
    pub styles: Vec<String>,
    /// Output path: `.png`, `.gif`, `.apng`, `.webp`, or a folder ending in `/`.
    pub out: String,
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
    use skel_render::OutputKind;
    let fail = |e: &dyn std::fmt::Display| Failure::new(file, e);
    let skf = skelform::load_skf(bytes, &skelform::Limits::default()).map_err(|e| {
        if matches!(e, skelform::SkfError::NotSkelForm) {
            fail(&"rendering needs a .skf archive (a bare armature.json has no atlas images)")
        } else {
            fail(&e)
        }
    })?;
    let kind = OutputKind::from_path(&args.out)
        .ok_or_else(|| fail(&format!("unknown output kind {:?}", args.out)))?;
    if !(args.fps.is_finite() && args.fps > 0.0) {
        return Err(fail(&"fps must be positive"));
    }
    let arm = &skf.armature;
    let mut styles = Vec::with_capacity(args.styles.len());
    for name in &args.styles {
        let i = arm.styles().iter().position(|s| &s.name == name).ok_or_else(|| {
            let names: Vec<String> = arm.styles().iter().map(|s| format!("{:?}", s.name)).collect();
            fail(&format!("no style {name:?} (styles: {})", names.join(", ")))
        })?;
        styles.push(i);
    }
    let anims: Vec<Option<usize>> = if args.all && !arm.animations().is_empty() {
        (0..arm.animations().len()).map(Some).collect()
    } else {
        match &args.anim {
            Some(name) => vec![Some(anim_index(file, arm, name)?)],
            None => vec![(!arm.animations().is_empty()).then_some(0)],
        }
    };
    let mut written = Vec::new();
    for a in anims {
        let out = if args.all {
            let name = a.and_then(|a| arm.animations().get(a)).map_or("", |x| x.name.as_str());
            output_for(&args.out, kind, name)
        } else {
            args.out.clone()
        };
        written.push(render_one(file, &skf, a, &styles, kind, &out, args)?);
    }
    Ok(written)
}

/// `out` with `-<anim>` before the extension, or `out/<anim>/` for a PNG sequence.
fn output_for(out: &str, kind: skel_render::OutputKind, anim: &str) -> String {
    let clean: String = anim
        .trim()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .collect();
    if kind == skel_render::OutputKind::PngSequence {
        return format!("{out}{clean}/");
    }
    match out.rfind('.') {
        Some(dot) => format!("{}-{clean}{}", &out[..dot], &out[dot..]),
        None => format!("{out}-{clean}"),
    }
}

/// The frame numbers to draw: one (`.png`) or `0 ..= duration` at `fps` (looping).
fn frame_list(
    arm: &Armature,
    anim: Option<usize>,
    kind: skel_render::OutputKind,
    args: &SkfRenderArgs,
) -> Vec<u32> {
    let Some(a) = anim else { return vec![0] };
    let fps = arm.animations().get(a).map_or(0, |x| x.fps);
    if kind == skel_render::OutputKind::Png {
        return vec![skelform::frame_at(args.time, fps)];
    }
    let last = arm.animations().get(a).map_or(0, skelform::Animation::last_frame);
    let duration = if fps == 0 { 0.0 } else { last as f32 / fps as f32 };
    let n = ((duration * args.fps).round() as u32).clamp(1, 10_000);
    (0..n).map(|k| arm.time_frame(a, k as f32 / args.fps, false, true)).collect()
}

fn render_one(
    file: &Path,
    skf: &skelform::SkfArchive,
    anim: Option<usize>,
    styles: &[usize],
    kind: skel_render::OutputKind,
    out: &str,
    args: &SkfRenderArgs,
) -> Result<std::path::PathBuf, Failure> {
    use skel_render::{encode, SoftwareRenderer, ViewTransform};
    use spine_render_traits::RenderCommands;
    let fail = |e: &dyn std::fmt::Display| Failure::new(file, e);
    let frames = frame_list(&skf.armature, anim, kind, args);
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
    for &f in &frames {
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
    let mut r = SoftwareRenderer::new(w, h).map_err(|e| fail(&e))?;
    for (i, img) in skf.atlas_images.iter().enumerate() {
        let (Some(Some(page)), Some(atlas)) = (pages.get(i), skf.armature.atlases().get(i)) else {
            continue;
        };
        r.load_png_texture(*page, &atlas.filename, img, false).map_err(|e| fail(&e))?;
    }
    r.set_view(view);
    r.set_background(args.background);
    let path = std::path::PathBuf::from(out);
    let mut sink = match kind {
        skel_render::OutputKind::Png => None,
        _ => {
            if kind == skel_render::OutputKind::PngSequence {
                std::fs::create_dir_all(&path).map_err(|e| fail(&e))?;
            }
            let n = frames.len() as u32;
            Some(encode::open_animation(&path, kind, w, h, args.fps, n).map_err(|e| fail(&e))?)
        }
    };
    // Pass 2: a fresh armature through the same frames.
    let mut arm = skf.armature.clone();
    let mut rgba = Vec::new();
    for &f in &frames {
        pose(&mut arm, f, &mut cmds)?;
        r.clear();
        spine_render_traits::render(&cmds, &mut r).map_err(|e| fail(&e))?;
        r.read_rgba8(&mut rgba);
        match sink.as_mut() {
            Some(s) => s.write_frame(&rgba).map_err(|e| fail(&e))?,
            None => encode::save_png(&path, w, h, &rgba).map_err(|e| fail(&e))?,
        }
    }
    if let Some(s) = sink.as_mut() {
        s.finish().map_err(|e| fail(&e))?;
    }
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
            size: Some((128, 128)),
            scale: None,
            background: [255, 255, 255, 255],
            styles: Vec::new(),
            out: out.display().to_string(),
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
        assert!(e.is_err_and(|m| m.contains("\"Skelson Hat\"")));
        let _ = std::fs::remove_dir_all(&tmp);
    }
}
