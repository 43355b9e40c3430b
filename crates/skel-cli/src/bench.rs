//! `skel bench` (contract: `../shared/cli-contract.md`): in-process timings of the three
//! jobs an engine pays for — loading, one frame, render-command generation.
//!
//! Each figure is the median over repetitions of (repetition time / calls in it), the way
//! the official runtime's figures in `shared/oracle/perf-spine-cpp-4.2.tsv` are taken: a
//! warm-up first, then repetitions of at least ~1 ms each until the time budget is spent.
//!
//! * Spine: `load_us` = read the skeleton and its atlas from disk, parse and resolve them
//!   (the TSV's `load_*_with_atlas_from_file`); `frame_ns` = `state.update(1/60)`,
//!   `state.apply`, `skeleton.update(1/60)`, world transforms with physics on, looping
//!   track 0 with default mix 0.2 (the TSV's `frame_update_apply_worldtransform_physicsupdate`);
//!   `commands_ns` = `SkeletonRenderer::render` into a reused command buffer on the pose
//!   reached after the frames (`render_commands`).
//! * SkelForm: `load_us` = unzip `armature.json` and build the armature from the file's bytes
//!   in memory (atlas images are not decoded); `frame_ns` = animate + construct (mesh
//!   vertices included) with the frame counter looping; `commands_ns` = `SkfDrawer::draw`.

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use spine_anim::{AnimationState, AnimationStateData, Physics, SkeletonRenderer};
use spine_model::FileFormat;
use spine_model::SkeletonData;

use crate::pose::SkeletonInput;

/// What `skel bench` measures and for how long.
#[derive(Debug, Clone)]
pub struct BenchArgs {
    /// Atlas (default: the one next to the skeleton).
    pub atlas: Option<std::path::PathBuf>,
    /// Skin (default: the first non-default skin, if any; Spine only).
    pub skin: Option<String>,
    /// Animation (default: the first one).
    pub anim: Option<String>,
    /// Time spent measuring each figure (after its warm-up).
    pub budget: Duration,
}

/// The measured figures.
#[derive(Debug, Clone, PartialEq)]
pub struct BenchReport {
    /// `spine-binary`, `spine-json` or `skelform`.
    pub format: &'static str,
    /// The animation played.
    pub anim: String,
    /// Median load time, microseconds.
    pub load_us: f64,
    /// Median frame time, nanoseconds.
    pub frame_ns: f64,
    /// Median render-command generation time, nanoseconds.
    pub commands_ns: f64,
    /// Repetitions behind each median: loads, frame repetitions, command repetitions.
    pub repetitions: [usize; 3],
    /// Vertices and indices the last render-command call produced.
    pub vertices: usize,
    /// Indices of the last render-command call.
    pub indices: usize,
}

impl BenchReport {
    /// The report as the contract's JSON document.
    pub fn to_json(&self, file: &Path) -> serde_json::Value {
        json!({
            "file": file.display().to_string(),
            "format": self.format,
            "anim": self.anim,
            "load_us": self.load_us,
            "frame_ns": self.frame_ns,
            "commands_ns": self.commands_ns,
            "repetitions": {
                "load": self.repetitions[0],
                "frame": self.repetitions[1],
                "commands": self.repetitions[2],
            },
            "vertices": self.vertices,
            "indices": self.indices,
        })
    }
}

/// Median of per-call times (ns) over repetitions of `calls` calls of `f`, after a warm-up
/// of a quarter of the budget (at least one repetition). Returns (median ns, repetitions).
fn measure(budget: Duration, mut f: impl FnMut()) -> (f64, usize) {
    // Calibrate: how many calls make a repetition of at least ~1 ms.
    let start = Instant::now();
    f();
    let one = start.elapsed().max(Duration::from_nanos(1));
    let calls = (Duration::from_millis(1).as_nanos() / one.as_nanos()).clamp(1, 1_000_000) as usize;
    let warm_until = Instant::now() + budget / 4;
    while Instant::now() < warm_until {
        f();
    }
    let mut per_call = Vec::new();
    let end = Instant::now() + budget;
    while per_call.len() < 5 || (Instant::now() < end && per_call.len() < 100_000) {
        let t = Instant::now();
        for _ in 0..calls {
            f();
        }
        per_call.push(t.elapsed().as_nanos() as f64 / calls as f64);
    }
    per_call.sort_by(f64::total_cmp);
    (per_call[per_call.len() / 2], per_call.len())
}

/// Benchmarks a Spine skeleton (binary or JSON). The timed load reads the skeleton and its
/// atlas from disk again each time when the skeleton is a regular file (the official
/// runtime's `load_*_with_atlas_from_file`), else parses the bytes already read.
pub fn spine(
    input: &SkeletonInput<'_>,
    format: FileFormat,
    args: &BenchArgs,
) -> Result<BenchReport, String> {
    let data: Arc<SkeletonData> = crate::pose::load_rig(input, args.atlas.as_deref())?;
    let format = format.name();
    let anim = match &args.anim {
        Some(name) => crate::pose::find_animation(&data, name)?,
        None => data.animation_ids().next().ok_or("the skeleton has no animation to play")?,
    };
    let anim_name = data.animation(anim).name.to_string();

    let mut load_error = None;
    let from_disk = !crate::io::is_stdin(input.path)
        && std::fs::metadata(input.path).is_ok_and(|m| m.is_file());
    let max = crate::io::max_input_bytes();
    let (load_ns, loads) = measure(args.budget, || {
        let loaded = if from_disk {
            spine_model::files::read_bounded(input.path, max).and_then(|bytes| {
                let again = SkeletonInput { path: input.path, bytes: &bytes };
                crate::pose::load_rig(&again, args.atlas.as_deref())
            })
        } else {
            crate::pose::load_rig(input, args.atlas.as_deref())
        };
        if let Err(e) = loaded {
            load_error = Some(e);
        }
    });
    if let Some(e) = load_error {
        return Err(e);
    }

    let mut sk = crate::pose::skeleton(&data, args.skin.as_deref())?;
    let mut asd = AnimationStateData::new(data.clone());
    asd.default_mix = 0.2;
    let mut state = AnimationState::new(Arc::new(asd));
    state.set_animation(0, Some(anim), true);
    let dt = 1.0f32 / 60.0;
    let (frame_ns, frames) = measure(args.budget, || {
        state.update(dt);
        state.apply(&mut sk);
        sk.update(dt);
        sk.update_world_transform(Physics::Update);
        state.clear_events();
        black_box(&sk);
    });

    let mut renderer = SkeletonRenderer::new();
    let mut cmds = SkeletonRenderer::commands(&data);
    let (commands_ns, renders) = measure(args.budget, || {
        cmds.clear();
        renderer.render(&sk, &mut cmds);
        black_box(&cmds);
    });
    Ok(BenchReport {
        format,
        anim: anim_name,
        load_us: load_ns / 1000.0,
        frame_ns,
        commands_ns,
        repetitions: [loads, frames, renders],
        vertices: cmds.num_vertices(),
        indices: cmds.num_indices(),
    })
}

/// Benchmarks a SkelForm armature (`.skf` or bare `armature.json` bytes).
pub fn skelform(bytes: &[u8], format: FileFormat, args: &BenchArgs) -> Result<BenchReport, String> {
    use skelform::{AnimLayer, SkfDrawer};
    use spine_render_traits::RenderCommands;

    let base = crate::skf::load_armature(bytes, format)?;
    let anim = match &args.anim {
        Some(name) => base.animation_index(name).ok_or_else(|| {
            let names: Vec<String> =
                base.animations().iter().map(|a| format!("{:?}", a.name)).collect();
            format!("no animation {name:?} (animations: {})", names.join(", "))
        })?,
        None if base.animations().is_empty() => {
            return Err("the armature has no animation to play".into())
        }
        None => 0,
    };
    let anim_name = base.animations()[anim].name.clone();

    let (load_ns, loads) = measure(args.budget, || {
        black_box(skelform::load(black_box(bytes)).ok());
    });

    let mut arm = base.clone();
    let mut counter = 0u32;
    let (frame_ns, frames) = measure(args.budget, || {
        let frame = arm.format_frame(anim, counter, false, true);
        counter = counter.wrapping_add(1);
        arm.animate(&[AnimLayer { anim, frame, smooth: 0 }]);
        arm.construct();
        black_box(arm.world().first().copied());
    });

    let mut cmds = RenderCommands::new();
    let mut drawer = SkfDrawer::new(&arm, &mut cmds);
    let mut draw_error = None;
    let (commands_ns, renders) = measure(args.budget, || {
        cmds.clear();
        if let Err(e) = drawer.draw(&arm, &mut cmds) {
            draw_error = Some(e);
        }
        black_box(&cmds);
    });
    if let Some(e) = draw_error {
        return Err(e.to_string());
    }
    Ok(BenchReport {
        format: "skelform",
        anim: anim_name,
        load_us: load_ns / 1000.0,
        frame_ns,
        commands_ns,
        repetitions: [loads, frames, renders],
        vertices: cmds.num_vertices(),
        indices: cmds.num_indices(),
    })
}

/// Prints a report as text.
pub fn print_text(file: &Path, r: &BenchReport) {
    outln!("{} ({}), animation {:?}", crate::escape(&file.display().to_string()), r.format, r.anim);
    outln!("  load      {:>10.1} us   (median of {})", r.load_us, r.repetitions[0]);
    outln!("  frame     {:>10.0} ns   (median of {} repetitions)", r.frame_ns, r.repetitions[1]);
    outln!(
        "  commands  {:>10.0} ns   (median of {} repetitions; {} vertices, {} indices)",
        r.commands_ns,
        r.repetitions[2],
        r.vertices,
        r.indices
    );
}
