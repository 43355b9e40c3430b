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
