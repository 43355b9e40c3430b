//! Library side of `skel pose` and `skel play` (contract: `../shared/cli-contract.md`):
//! the JSON documents, in the shapes of the spine-cpp 4.2 goldens.
//!
//! Skin rule (the goldens'): `--skin S` selects S; without it, the first non-default skin
//! is used when the data has one, else only the default skin.

use std::path::Path;
use std::sync::Arc;

use serde_json::{json, Map, Value};
use spine_anim::{
    apply_animation, AnimationState, AnimationStateData, MixBlend, MixDirection, Physics, Skeleton,
    StateEventType,
};
use spine_format::atlas::Atlas;
use spine_model::validate::{discover_atlas, load_atlas};
use spine_model::{AnimationId, LoadOptions, SkeletonData, SlotId};

/// Loads a Spine skeleton (binary or JSON, detected from the content) with `atlas` (or the
/// atlas found next to it).
pub fn load_rig(file: &Path, atlas: Option<&Path>) -> Result<Arc<SkeletonData>, String> {
    let atlas_path = atlas.map(Path::to_path_buf).or_else(|| discover_atlas(file));
    let atlas = atlas_path.as_deref().map(load_atlas).transpose()?;
    let atlas_name = atlas_path
        .as_deref()
        .and_then(Path::file_name)
        .and_then(|n| n.to_str())
        .unwrap_or("atlas")
        .to_owned();
    load_rig_with(file, atlas.as_ref(), &atlas_name)
}

/// Loads a Spine skeleton (binary or JSON, detected from the content) binding regions from
/// an already parsed atlas (`None`: geometry only); `atlas_name` names it in problems.
pub(crate) fn load_rig_with(
    file: &Path,
    atlas: Option<&Atlas>,
    atlas_name: &str,
) -> Result<Arc<SkeletonData>, String> {
    let bytes = std::fs::read(file).map_err(|e| e.to_string())?;
    let options = LoadOptions { scale: 1.0, atlas, atlas_name };
    let is_json = bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    let data = if is_json {
        let text = std::str::from_utf8(&bytes).map_err(|e| format!("JSON is not UTF-8: {e}"))?;
        let parsed = spine_format::json::parse(text).map_err(|e| e.to_string())?;
        SkeletonData::from_json(&parsed, &options).map_err(|e| e.to_string())?
    } else {
        spine_model::load_binary_with(&bytes, &options).map_err(|e| match e {
            spine_model::LoadError::Parse(e) => e.to_string(),
            e => e.to_string(),
        })?
    };
    Ok(Arc::new(data))
}

/// Reads `--time T` as an `f32` exactly as written.
pub fn parse_time(text: &str) -> Result<f32, String> {
    text.trim().parse::<f32>().map_err(|_| format!("not a number: {text:?}"))
}

/// A new skeleton with the chosen skin, in the setup pose.
pub(crate) fn skeleton(data: &Arc<SkeletonData>, skin: Option<&str>) -> Result<Skeleton, String> {
    let mut sk = Skeleton::new(data.clone());
    let chosen = match skin {
        Some(name) => Some(data.find_skin(name).ok_or_else(|| format!("no skin named {name:?}"))?),
        None => data
            .skins
            .iter()
            .position(|s| s.name != "default")
            .map(|i| spine_model::SkinId(i as u32)),
    };
    sk.set_skin(chosen);
    sk.set_to_setup_pose();
    Ok(sk)
}

fn animation(data: &SkeletonData, name: &str) -> Result<AnimationId, String> {
    data.find_animation(name).ok_or_else(|| format!("no animation named {name:?}"))
}

/// An `f32` as the shortest decimal that reads back as the same `f32`.
fn num(x: f32) -> Value {
    if !x.is_finite() {
        return Value::Null;
    }
    x.to_string()
        .parse::<f64>()
        .ok()
        .and_then(serde_json::Number::from_f64)
        .map_or(Value::Null, Value::Number)
}

/// `bones`, `slots` and `drawOrder` of the current pose (golden sample shape).
fn sample(sk: &Skeleton, out: &mut Map<String, Value>) {
    let bones = sk
        .bones
        .iter()
        .map(|b| {
            if b.active {
                Value::Array([b.a, b.b, b.c, b.d, b.world_x, b.world_y].map(num).to_vec())
            } else {
                Value::Null
            }
        })
        .collect();
    let slots = sk
        .slots
        .iter()
        .map(|s| {
            let name = s.attachment.map_or(Value::Null, |a| json!(&*sk.data.attachment(a).name));
            let c = s.color;
            let mut v = vec![name, Value::Array([c.r, c.g, c.b, c.a].map(num).to_vec())];
            if s.has_dark_color {
                let d = s.dark_color;
                v.push(Value::Array([d.r, d.g, d.b].map(num).to_vec()));
            }
            Value::Array(v)
        })
        .collect();
    out.insert("bones".into(), Value::Array(bones));
    out.insert("slots".into(), Value::Array(slots));
    out.insert("drawOrder".into(), json!(sk.draw_order.iter().map(|s| s.0).collect::<Vec<_>>()));
}

/// `{slotName: [x0, y0, …]}` for every region or mesh shown on an active bone.
fn vertices(sk: &Skeleton) -> Value {
    let mut map = Map::new();
    let mut buf = Vec::new();
    for (i, s) in sk.slots.iter().enumerate() {
        let Some(a) = s.attachment else { continue };
        let shown = matches!(
            sk.data.attachment(a).kind,
            spine_model::AttachmentKind::Region(_) | spine_model::AttachmentKind::Mesh(_)
        );
        if !shown || !sk.bones[s.bone.index()].active {
            continue;
        }
        buf.clear();
        if sk.world_vertices(SlotId(i as u32), &mut buf) {
            map.insert(
                sk.data.slots[i].name.clone(),
                Value::Array(buf.iter().map(|&x| num(x)).collect()),
            );
        }
    }
    Value::Object(map)
}

/// `skel pose`: setup pose, `anim` applied once at `time` (no loop, alpha 1, blend setup,
/// direction in), world transforms with physics off.
pub fn pose(
    file: &Path,
    atlas: Option<&Path>,
    skin: Option<&str>,
    anim: &str,
    time: f32,
    with_vertices: bool,
) -> Result<Value, String> {
    let data = load_rig(file, atlas)?;
    let id = animation(&data, anim)?;
    let mut sk = skeleton(&data, skin)?;
    let mut events = Vec::new();
    apply_animation(
        &mut sk,
        id,
        time,
        time,
        false,
        Some(&mut events),
        1.0,
        MixBlend::Setup,
        MixDirection::In,
    );
    sk.update_world_transform(Physics::None);
    let mut out = Map::new();
    out.insert("anim".into(), json!(anim));
    out.insert("t".into(), num(time));
    out.insert("bone_names".into(), json!(data.bones.iter().map(|b| &b.name).collect::<Vec<_>>()));
    out.insert("slot_names".into(), json!(data.slots.iter().map(|s| &s.name).collect::<Vec<_>>()));
    sample(&sk, &mut out);
    if with_vertices {
        out.insert("vertices".into(), vertices(&sk));
    }
    Ok(Value::Object(out))
}

/// Options of `skel play`.
#[derive(Debug, Clone)]
pub struct PlayOptions {
    /// Animation A (looping on track 0) and optional B (queued looping after `delay`).
    pub anims: Vec<String>,
    /// Default mix.
    pub mix: f32,
    /// Delay of B.
    pub delay: f32,
    /// Frames per second (`dt = 1 / fps` as `f32`).
    pub fps: f32,
    /// Frames to run.
    pub frames: usize,
    /// Sample every n-th frame (plus frame 1).
    pub every: usize,
    /// Add world vertices to each sample.
    pub vertices: bool,
}

impl Default for PlayOptions {
    fn default() -> Self {
        PlayOptions {
            anims: Vec::new(),
            mix: 0.2,
            delay: 0.5,
            fps: 60.0,
            frames: 180,
            every: 10,
            vertices: false,
        }
    }
}

/// `skel play`: an AnimationState run; JSON in the shape of the goldens' `state` object.
pub fn play(
    file: &Path,
    atlas: Option<&Path>,
    skin: Option<&str>,
    o: &PlayOptions,
) -> Result<Value, String> {
    let data = load_rig(file, atlas)?;
    let a = animation(&data, o.anims.first().ok_or("no animation given")?)?;
    let b = o.anims.get(1).map(|n| animation(&data, n)).transpose()?;
    let mut sk = skeleton(&data, skin)?;
    let mut asd = AnimationStateData::new(data.clone());
    asd.default_mix = o.mix;
    let mut state = AnimationState::new(Arc::new(asd));
    state.set_animation(0, Some(a), true);
    if b.is_some() {
        state.add_animation(0, b, true, o.delay);
    }
    let name =
        |a: Option<AnimationId>| a.map_or("<empty>".to_owned(), |a| data.animation(a).name.clone());
    let mut events = Vec::new();
    let mut track_events = Vec::new();
    let mut record = |state: &mut AnimationState, frame: usize| {
        for e in state.events() {
            let anim = name(e.animation);
            let ty = match e.kind {
                StateEventType::Start => "start",
                StateEventType::Interrupt => "interrupt",
                StateEventType::End => "end",
                StateEventType::Dispose => "dispose",
                StateEventType::Complete => "complete",
                StateEventType::Event(r) => {
                    if let Some(k) = r.key(&data) {
                        events.push(json!([
                            frame,
                            data.event(k.event).name,
                            k.int_value,
                            num(k.float_value),
                            k.string_value,
                            num(k.time),
                            num(k.volume),
                            num(k.balance),
                            anim
                        ]));
                    }
                    continue;
                }
            };
            track_events.push(json!([frame, ty, anim, e.track]));
        }
        state.clear_events();
    };
    record(&mut state, 0);
    let dt = 1.0 / o.fps;
    let every = o.every.max(1);
    let mut samples = Vec::new();
    for frame in 1..=o.frames {
        state.update(dt);
        record(&mut state, frame);
        state.apply(&mut sk);
        record(&mut state, frame);
        sk.update(dt);
        sk.update_world_transform(Physics::Update);
        if frame == 1 || frame % every == 0 {
            let mut s = Map::new();
            s.insert("frame".into(), json!(frame));
            sample(&sk, &mut s);
            if o.vertices {
                s.insert("vertices".into(), vertices(&sk));
            }
            samples.push(Value::Object(s));
        }
    }
    Ok(json!({"samples": samples, "events": events, "trackEvents": track_events}))
}
