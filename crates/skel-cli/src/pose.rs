//! Library side of `skel pose` and `skel play` (contract: `../shared/cli-contract.md`):
//! the JSON documents, in the shapes of the spine-cpp 4.2 goldens.
//!
//! Skin rule (the goldens'): `--skin S` selects S; without it, the first non-default skin
//! is used when the data has one, else only the default skin.
//!
//! Numbers: every number printed is finite. A pose whose world transform, color, vertex or
//! event value is NaN or infinite (e.g. a bone scale of 1e38 overflowing) is an error naming
//! the bone, slot or event, never a `null` in the output.
//!
//! `skel play` streams: each sample is written to stdout when it is taken, so memory does
//! not grow with `--frames`; events and track events (at most [`MAX_CALLBACK_BYTES`]) follow
//! the samples.

use std::path::Path;
use std::sync::Arc;

use serde_json::{json, Map, Value};
use spine_anim::{
    apply_animation, AnimationState, AnimationStateData, MixBlend, MixDirection, Physics, Skeleton,
    StateEventType,
};
use spine_format::atlas::Atlas;
use spine_model::files::{discover_atlas, parse_atlas};
use spine_model::{AnimationId, LoadError, LoadOptions, SkeletonData, SlotId};

use crate::io::{is_stdin, read_input};
use crate::JsonOut;

/// A Spine skeleton file read once: its name and bytes.
pub struct SkeletonInput<'a> {
    /// The path given (`-`: standard input).
    pub path: &'a Path,
    /// Its bytes.
    pub bytes: &'a [u8],
}

/// One line for a load error: a single problem as is; several, the first and how many more
/// (`skel validate` lists them all).
pub(crate) fn load_error(e: LoadError) -> String {
    match e {
        LoadError::Invalid(p) => match p.len() {
            0 => "invalid skeleton".to_owned(),
            1 => p[0].to_string(),
            n => format!(
                "{} (and {} more problem{}; skel validate lists them all)",
                p[0],
                n - 1,
                if n == 2 { "" } else { "s" }
            ),
        },
        LoadError::Parse(e) => e.to_string(),
        LoadError::Json(e) => e.to_string(),
        LoadError::Atlas(e) => e.to_string(),
        e => e.to_string(),
    }
}

/// Reads and parses an atlas file (bounded, once); errors name the atlas.
pub(crate) fn read_atlas(path: &Path) -> Result<Atlas, String> {
    let bytes = read_input(path, "atlas").map_err(|e| format!("atlas {}: {e}", path.display()))?;
    parse_atlas(&bytes).map_err(|e| format!("atlas {}: {e}", path.display()))
}

/// The atlas of a posing verb: `--atlas A`, else the one beside the skeleton (none found,
/// or the skeleton read from standard input: geometry only).
pub fn optional_atlas(file: &Path, atlas: Option<&Path>) -> Option<std::path::PathBuf> {
    atlas
        .map(Path::to_path_buf)
        .or_else(|| if is_stdin(file) { None } else { discover_atlas(file) })
}

/// Loads a Spine skeleton (binary or JSON, detected from the content) with `atlas` (or the
/// atlas found next to it).
pub fn load_rig(
    input: &SkeletonInput<'_>,
    atlas: Option<&Path>,
) -> Result<Arc<SkeletonData>, String> {
    let atlas_path = optional_atlas(input.path, atlas);
    let atlas = atlas_path.as_deref().map(read_atlas).transpose()?;
    let atlas_name = atlas_path
        .as_deref()
        .and_then(Path::file_name)
        .and_then(|n| n.to_str())
        .unwrap_or("atlas")
        .to_owned();
    load_rig_with(input.bytes, atlas.as_ref(), &atlas_name)
}

/// Loads a Spine skeleton (binary or JSON, detected from the content) binding regions from
/// an already parsed atlas (`None`: geometry only); `atlas_name` names it in problems.
pub(crate) fn load_rig_with(
    bytes: &[u8],
    atlas: Option<&Atlas>,
    atlas_name: &str,
) -> Result<Arc<SkeletonData>, String> {
    let options = LoadOptions { scale: 1.0, atlas, atlas_name, ..Default::default() };
    spine_model::load(bytes, &options).map(Arc::new).map_err(load_error)
}

/// A new skeleton with the chosen skin, in the setup pose. `skin` may name several skins
/// separated by commas (`a,b`): they are combined as spine-cpp's `Skin::addSkin` does
/// ([`combined_skin`]).
pub(crate) fn skeleton(data: &Arc<SkeletonData>, skin: Option<&str>) -> Result<Skeleton, String> {
    let (data, chosen) = match skin {
        Some(name) => match data.find_skin(name) {
            Some(id) => (data.clone(), Some(id)),
            None if name.contains(',') => {
                let ids = name
                    .split(',')
                    .map(|n| find_skin(data, n.trim()))
                    .collect::<Result<Vec<_>, _>>()?;
                let mut combined = (**data).clone();
                combined.skins.push(combined_skin(data, name, &ids));
                let id = combined.skin_ids().last();
                (Arc::new(combined), id)
            }
            None => return Err(find_skin(data, name).err().unwrap_or_default()),
        },
        None => (data.clone(), data.skin_ids().find(|&id| data.skin(id).name != "default")),
    };
    let mut sk = Skeleton::new(data);
    sk.set_skin(chosen);
    sk.set_to_setup_pose();
    Ok(sk)
}

/// A skin by name; unknown, the message names the close ones.
fn find_skin(data: &SkeletonData, name: &str) -> Result<spine_model::SkinId, String> {
    data.find_skin(name).ok_or_else(|| {
        let names: Vec<&str> = data.skins.iter().map(|s| s.name.as_str()).collect();
        crate::names::unknown("skin", name, &names)
    })
}

/// The skins `ids` combined in order, as spine-cpp `Skin::addSkin` of each into a new skin:
/// bones and constraints unioned (first occurrence order), attachments of a later skin
/// replacing an earlier one's under the same slot and placeholder name.
pub(crate) fn combined_skin(
    data: &SkeletonData,
    name: &str,
    ids: &[spine_model::SkinId],
) -> spine_model::SkinData {
    let mut bones = Vec::new();
    let mut constraints = Vec::new();
    let mut entries = std::collections::BTreeMap::new();
    for id in ids {
        let s = &data.skins[id.index()];
        for b in &s.bones {
            if !bones.contains(b) {
                bones.push(*b);
            }
        }
        for c in &s.constraints {
            if !constraints.contains(c) {
                constraints.push(*c);
            }
        }
        for e in &s.entries {
            entries.insert((e.slot, e.name.clone()), e.clone());
        }
    }
    spine_model::SkinData {
        name: name.into(),
        bones,
        constraints,
        entries: entries.into_values().collect(),
        color: None,
    }
}

fn animation(data: &SkeletonData, name: &str) -> Result<AnimationId, String> {
    find_animation(data, name)
}

/// An animation by name; unknown, the message names the close ones.
pub(crate) fn find_animation(data: &SkeletonData, name: &str) -> Result<AnimationId, String> {
    data.find_animation(name).ok_or_else(|| {
        let names: Vec<&str> = data.animations.iter().map(|a| a.name.as_str()).collect();
        crate::names::unknown("animation", name, &names)
    })
}

/// A slot by name; unknown, the message names the close ones.
pub(crate) fn find_slot(data: &SkeletonData, name: &str) -> Result<SlotId, String> {
    data.find_slot(name).ok_or_else(|| {
        let names: Vec<&str> = data.slots.iter().map(|s| s.name.as_str()).collect();
        crate::names::unknown("slot", name, &names)
    })
}

/// The animation drawn when none is named: the longest one with timelines (the first of
/// equals), else the first; `None` when there are none.
pub(crate) fn default_animation(data: &SkeletonData) -> Option<AnimationId> {
    let mut best: Option<(AnimationId, f32)> = None;
    for id in data.animation_ids() {
        let a = data.animation(id);
        if a.timelines.is_empty() {
            continue;
        }
        if best.is_none_or(|(_, d)| a.duration > d) {
            best = Some((id, a.duration));
        }
    }
    best.map(|(id, _)| id).or_else(|| data.animation_ids().next())
}

/// An `f32` as the shortest decimal that reads back as the same `f32`; `what` names it
/// when it is not finite.
pub(crate) fn num(x: f32, what: impl FnOnce() -> String) -> Result<Value, String> {
    let n = if x.is_finite() {
        x.to_string().parse::<f64>().ok().and_then(serde_json::Number::from_f64)
    } else {
        None
    };
    n.map(Value::Number).ok_or_else(|| format!("{} is {x}, not a finite number", what()))
}

fn nums(xs: &[f32], what: &dyn Fn(usize) -> String) -> Result<Value, String> {
    xs.iter()
        .enumerate()
        .map(|(i, &x)| num(x, || what(i)))
        .collect::<Result<_, _>>()
        .map(Value::Array)
}

const BONE_FIELDS: [&str; 6] = ["a", "b", "c", "d", "worldX", "worldY"];

/// Checks that every active bone's world transform is finite (the first bad one is named).
pub(crate) fn check_bones(sk: &Skeleton) -> Result<(), String> {
    for (i, b) in sk.bones.iter().enumerate() {
        if !b.active {
            continue;
        }
        let v = [b.a, b.b, b.c, b.d, b.world_x, b.world_y];
        if let Some(k) = v.iter().position(|x| !x.is_finite()) {
            return Err(format!(
                "bone {:?}: world transform {} is {}, not a finite number",
                sk.data.bones[i].name, BONE_FIELDS[k], v[k]
            ));
        }
    }
    Ok(())
}

/// `bones`, `slots` and `drawOrder` of the current pose (golden sample shape).
fn sample(sk: &Skeleton, out: &mut Map<String, Value>) -> Result<(), String> {
    check_bones(sk)?;
    let mut bones = Vec::with_capacity(sk.bones.len());
    for (i, b) in sk.bones.iter().enumerate() {
        bones.push(if b.active {
            let v = [b.a, b.b, b.c, b.d, b.world_x, b.world_y];
            nums(&v, &|k| format!("bone {:?}: world {}", sk.data.bones[i].name, BONE_FIELDS[k]))?
        } else {
            Value::Null
        });
    }
    let mut slots = Vec::with_capacity(sk.slots.len());
    for (i, s) in sk.slots.iter().enumerate() {
        let slot = || sk.data.slots[i].name.as_str();
        let name = s.attachment.map_or(Value::Null, |a| json!(&*sk.data.attachment(a).name));
        let c = s.color;
        let rgba = ["r", "g", "b", "a"];
        let mut v = vec![
            name,
            nums(&[c.r, c.g, c.b, c.a], &|k| format!("slot {:?}: color {}", slot(), rgba[k]))?,
        ];
        if s.has_dark_color {
            let d = s.dark_color;
            v.push(nums(&[d.r, d.g, d.b], &|k| {
                format!("slot {:?}: dark color {}", slot(), rgba[k])
            })?);
        }
        slots.push(Value::Array(v));
    }
    out.insert("bones".into(), Value::Array(bones));
    out.insert("slots".into(), Value::Array(slots));
    out.insert(
        "drawOrder".into(),
        json!(sk.draw_order.iter().map(|s| s.index()).collect::<Vec<_>>()),
    );
    Ok(())
}

/// `{slotName: [x0, y0, …]}` for every region or mesh shown on an active bone.
fn vertices(sk: &Skeleton) -> Result<Value, String> {
    let mut map = Map::new();
    let mut buf = Vec::new();
    for (id, s) in sk.data.slot_ids().zip(&sk.slots) {
        let Some(a) = s.attachment else { continue };
        let shown = matches!(
            sk.data.attachment(a).kind,
            spine_model::AttachmentKind::Region(_) | spine_model::AttachmentKind::Mesh(_)
        );
        if !shown || !sk.bones[s.bone.index()].active {
            continue;
        }
        buf.clear();
        if sk.world_vertices(id, &mut buf) {
            let name = &sk.data.slot(id).name;
            let v = nums(&buf, &|k| {
                format!("slot {name:?}: world vertex {} {}", k / 2, ["x", "y"][k % 2])
            })?;
            map.insert(name.to_string(), v);
        }
    }
    Ok(Value::Object(map))
}

/// Checks that every number a sample of the pose (with vertices) would print is finite;
/// the error names the first bad bone or slot.
pub(crate) fn check_pose(sk: &Skeleton) -> Result<(), String> {
    sample(sk, &mut Map::new())?;
    vertices(sk).map(|_| ())
}

/// `skel pose`: setup pose, `anim` applied once at `time` (no loop, alpha 1, blend setup,
/// direction in), world transforms with physics off.
pub fn pose(
    input: &SkeletonInput<'_>,
    atlas: Option<&Path>,
    skin: Option<&str>,
    anim: &str,
    time: f32,
    with_vertices: bool,
) -> Result<Value, String> {
    let data = load_rig(input, atlas)?;
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
    let at = |e: String| format!("{anim:?} at --time {time}: {e}");
    let mut out = Map::new();
    out.insert("anim".into(), json!(anim));
    out.insert("t".into(), num(time, || "--time".to_owned())?);
    out.insert("bone_names".into(), json!(data.bones.iter().map(|b| &b.name).collect::<Vec<_>>()));
    out.insert("slot_names".into(), json!(data.slots.iter().map(|s| &s.name).collect::<Vec<_>>()));
    sample(&sk, &mut out).map_err(at)?;
    if with_vertices {
        out.insert("vertices".into(), vertices(&sk).map_err(at)?);
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
    pub frames: u32,
    /// Sample every n-th frame (plus frame 1).
    pub every: u32,
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

/// Most bytes of events plus track events `skel play` records (as JSON text, kept until
/// the samples are written): a rig firing more is refused rather than growing memory
/// without end.
pub const MAX_CALLBACK_BYTES: usize = 64 << 20;

/// Appends `v` to a JSON array's text (without its brackets).
fn push_json(list: &mut String, v: &Value) {
    if !list.is_empty() {
        list.push(',');
    }
    list.push_str(&v.to_string());
}

/// `skel play`: an AnimationState run, written to `out` as it goes (the shape of the
/// goldens' `state` object: `{"samples": [...], "events": [...], "trackEvents": [...]}`).
/// An error after the first sample leaves `out` incomplete.
pub fn play(
    input: &SkeletonInput<'_>,
    atlas: Option<&Path>,
    skin: Option<&str>,
    o: &PlayOptions,
    out: &mut JsonOut,
) -> Result<(), String> {
    let data = load_rig(input, atlas)?;
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
    let mut rec = Recorder::default();
    let mut record = |state: &mut AnimationState, frame: u32| rec.record(&data, state, frame);
    record(&mut state, 0)?;
    let dt = 1.0 / o.fps;
    let every = o.every.max(1);
    out.raw("{\"samples\":[");
    let mut first = true;
    for frame in 1..=o.frames {
        state.update(dt);
        record(&mut state, frame)?;
        state.apply(&mut sk);
        record(&mut state, frame)?;
        sk.update(dt);
        sk.update_world_transform(Physics::Update);
        if frame == 1 || frame % every == 0 {
            let at = |e: String| format!("frame {frame}: {e}");
            let mut s = Map::new();
            s.insert("frame".into(), json!(frame));
            sample(&sk, &mut s).map_err(at)?;
            if o.vertices {
                s.insert("vertices".into(), vertices(&sk).map_err(at)?);
            }
            if !first {
                out.raw(",");
            }
            first = false;
            out.value(&Value::Object(s));
        }
    }
    out.raw("],\"events\":[");
    out.raw(&rec.events);
    out.raw("],\"trackEvents\":[");
    out.raw(&rec.track_events);
    out.raw("]}");
    Ok(())
}

/// The events and track events of a `skel play` run, as JSON array items.
#[derive(Default)]
struct Recorder {
    /// `[frame, name, int, float, string, time, volume, balance, animation]` per event.
    events: String,
    /// `[frame, type, animation, track]` per track event.
    track_events: String,
}

impl Recorder {
    /// Records (and clears) the state's queued events at `frame`; fails when the run fires
    /// more than [`MAX_CALLBACK_BYTES`].
    fn record(
        &mut self,
        data: &SkeletonData,
        state: &mut AnimationState,
        frame: u32,
    ) -> Result<(), String> {
        let name = |a: Option<AnimationId>| {
            a.map_or("<empty>".to_owned(), |a| data.animation(a).name.to_string())
        };
        for e in state.events() {
            let anim = name(e.animation);
            let ty = match e.kind {
                StateEventType::Start => "start",
                StateEventType::Interrupt => "interrupt",
                StateEventType::End => "end",
                StateEventType::Dispose => "dispose",
                StateEventType::Complete => "complete",
                StateEventType::Event(r) => {
                    if let Some(k) = r.key(data) {
                        let ev = &data.event(k.event).name;
                        let what = |f: &str| format!("frame {frame}: event {ev:?}: {f}");
                        push_json(
                            &mut self.events,
                            &json!([
                                frame,
                                ev,
                                k.int_value,
                                num(k.float_value, || what("float value"))?,
                                k.string_value,
                                num(k.time, || what("time"))?,
                                num(k.volume, || what("volume"))?,
                                num(k.balance, || what("balance"))?,
                                anim
                            ]),
                        );
                    }
                    continue;
                }
            };
            push_json(&mut self.track_events, &json!([frame, ty, anim, e.track]));
        }
        state.clear_events();
        if self.events.len() + self.track_events.len() > MAX_CALLBACK_BYTES {
            return Err(format!(
                "over {MAX_CALLBACK_BYTES} bytes of events and track events by frame {frame}: \
                 the rig fires too many to record"
            ));
        }
        Ok(())
    }
}
