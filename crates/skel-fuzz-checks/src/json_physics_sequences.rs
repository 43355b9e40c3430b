//! Structure-aware: fuzz bytes choose the numbers of a Spine 4.2 JSON skeleton built around
//! physics constraints and a sequence attachment (constraint settings, physics and sequence
//! timelines, sequence count / start / digits / setup, bone transforms, extreme values
//! included) and a matching atlas; the skeleton is loaded, played with physics at fuzzed
//! time steps (huge ones included) and turned into world vertices and render commands.
//! Nothing may panic or hang, and every step ends in bounded time.

use std::sync::Arc;

use serde_json::{json, Value};
use spine_anim::{AnimationState, AnimationStateData, Physics, Skeleton, SkeletonRenderer};
use spine_model::{AnimationId, LoadOptions, SkeletonData, SlotId};

/// Reads choices from the fuzz bytes (zeros once they run out).
struct Src<'a>(&'a [u8]);

impl Src<'_> {
    fn byte(&mut self) -> u8 {
        let (b, rest) = self.0.split_first().map_or((0, &[][..]), |(b, r)| (*b, r));
        self.0 = rest;
        b
    }

    /// A number: one of the interesting values, or an arbitrary finite `f32`.
    fn num(&mut self) -> f64 {
        const SPECIAL: [f64; 24] = [
            0.0, 1.0, -1.0, 0.5, 2.0, 60.0, 100.0, 1000.0, 1e-30, 1e30, 1e38, -1e38, 3.4e38, 1e-45,
            0.001, -0.5, 1e6, -1e6, 30.0, 0.1, 5000.0, 1e20, -1e20, 360.0,
        ];
        let b = self.byte();
        if usize::from(b) < SPECIAL.len() * 8 {
            return SPECIAL[usize::from(b) % SPECIAL.len()];
        }
        let x = f32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()]);
        if x.is_finite() {
            f64::from(x)
        } else {
            0.0
        }
    }

    /// A count in `0..n` (for the generator's own loops).
    fn small(&mut self, n: u8) -> usize {
        usize::from(self.byte() % n)
    }

    /// A small integer in `lo..=hi`, or now and then an extreme one.
    fn int(&mut self, lo: i64, hi: i64) -> i64 {
        match self.byte() {
            0 => i64::from(i32::MIN),
            1 => i64::from(i32::MAX),
            2 => -1,
            b => lo + i64::from(b) % (hi - lo + 1),
        }
    }
}

const MODES: [&str; 7] =
    ["hold", "once", "loop", "pingpong", "onceReverse", "loopReverse", "pingpongReverse"];

/// A physics constraint; `order` must differ between constraints (the model refuses
/// constraints the update cache never reaches).
fn physics(src: &mut Src<'_>, name: &str, bone: &str, order: u32) -> Value {
    let mut c = json!({"name": name, "bone": bone, "order": order, "fps": src.int(-2, 240)});
    for key in [
        "x", "y", "rotate", "scaleX", "shearX", "limit", "inertia", "strength", "damping", "mass",
        "wind", "gravity", "mix",
    ] {
        if src.byte() & 1 == 1 {
            c[key] = json!(src.num());
        }
    }
    c
}

fn keys(src: &mut Src<'_>, n: usize, value: bool) -> Value {
    let mut t = 0.0;
    let mut out = Vec::new();
    for _ in 0..n {
        t += src.num().abs().min(1e30);
        let mut k = json!({"time": t});
        if value {
            k["value"] = json!(src.num());
        }
        out.push(k);
    }
    Value::Array(out)
}

/// The `json_physics_sequences` fuzz target's check (module docs).
pub fn check(data: &[u8]) {
    let mut src = Src(data);
    let count = src.int(0, 12);
    let start = src.int(0, 20);
    let digits = src.int(0, 4);
    let setup = src.int(-1, 12);
    let mut bones = vec![json!({"name": "root"})];
    for (name, parent) in [("b1", "root"), ("b2", "b1")] {
        bones.push(json!({"name": name, "parent": parent, "length": src.num(),
            "x": src.num(), "rotation": src.num(), "scaleX": src.num(), "scaleY": src.num(),
            "shearX": src.num()}));
    }
    let mut seq_keys = Vec::new();
    let mut t = 0.0;
    for _ in 0..src.small(5) {
        t += src.num().abs().min(1e30);
        let mode = MODES[usize::from(src.byte()) % MODES.len()];
        seq_keys.push(json!({"time": t, "mode": mode, "index": src.int(-2, 14),
            "delay": src.num()}));
    }
    let (n1, n2, n3) = (src.small(4), src.small(4), src.small(4));
    let doc = json!({
        "skeleton": {"spine": "4.2.40"},
        "bones": bones,
        "slots": [{"name": "s", "bone": "b2", "attachment": "r"}],
        "physics": [physics(&mut src, "p1", "b1", 0), physics(&mut src, "p2", "b2", 1)],
        "skins": [{"name": "default", "attachments": {"s": {"r": {
            "width": src.num(), "height": src.num(),
            "sequence": {"count": count, "start": start, "digits": digits, "setup": setup}
        }}}}],
        "animations": {"a": {
            "attachments": {"default": {"s": {"r": {"sequence": seq_keys}}}},
            "physics": {"p1": {"inertia": keys(&mut src, n1, true), "wind": keys(&mut src, n2, true),
                               "reset": keys(&mut src, n3, false)},
                        "": {"mix": keys(&mut src, 1, true)}},
            "bones": {"b1": {"rotate": keys(&mut src, 2, true)}}
        }}
    });
    let text = doc.to_string();
    let Ok(parsed) = spine_format::json::parse(&text) else { return };
    // An atlas with the sequence's frame regions (as many as the count asks, up to 16).
    let use_atlas = src.byte() & 1 == 0;
    let mut atlas_text = String::from("p.png\nsize: 64,64\nfilter: Linear,Linear\n");
    let width = usize::try_from(digits).unwrap_or(0).min(8);
    for i in 0..count.clamp(0, 16) {
        atlas_text.push_str(&format!("r{:0width$}\n  bounds: 0,0,8,8\n", start + i));
    }
    let atlas = spine_format::atlas::parse(&atlas_text).expect("the generated atlas parses");
    let options = LoadOptions {
        scale: 1.0,
        atlas: use_atlas.then_some(&atlas),
        atlas_name: "fuzz.atlas",
        ..Default::default()
    };
    let Ok(data) = SkeletonData::from_json(&parsed, &options) else { return };
    let data = Arc::new(data);
    let mut sk = Skeleton::new(data.clone());
    sk.set_to_setup_pose();
    let mut state = AnimationState::new(Arc::new(AnimationStateData::new(data.clone())));
    state.set_animation(0, Some(AnimationId::from_index(0)), true);
    let mut renderer = SkeletonRenderer::new();
    let mut cmds = SkeletonRenderer::commands(&data);
    let mut verts = Vec::new();
    for _ in 0..6 {
        const DT: [f32; 8] = [0.0, 1.0 / 60.0, 1.0 / 30.0, 0.25, 1.0, 10.0, 1000.0, 1e30];
        let dt = DT[usize::from(src.byte()) % DT.len()];
        let physics = [Physics::Update, Physics::Update, Physics::Reset, Physics::Pose]
            [usize::from(src.byte()) % 4];
        state.update(dt);
        state.apply(&mut sk);
        state.clear_events();
        sk.update(dt);
        sk.update_world_transform(physics);
        verts.clear();
        let _ = sk.world_vertices(SlotId::from_index(0), &mut verts);
        renderer.render(&sk, &mut cmds);
        let _ = cmds.bounds();
    }
}
