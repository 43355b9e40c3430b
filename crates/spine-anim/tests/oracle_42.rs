//! spine-anim against the spine-cpp 4.2 goldens (`../shared/oracle/spine-4.2`).
//!
//! POSE: every rig, animation and sample: bone world transforms, slot attachments and
//! colors, draw order. STATE: the 180-frame AnimationState run (bones every 10th frame,
//! events and track events in order).
//!
//! Tolerance: `|ours - theirs| <= 1e-3 * max(1, |theirs|)`.
//!
//! **Constraint exemption** (per constraint type, see [`EXEMPT`]): a bone is
//! *constraint-driven* when a constraint of an exempt type writes it or when it descends from
//! such a bone. A sample whose only mismatches are on constraint-driven bones is counted as
//! *exempt*, not failed. Every 4.2 solver (IK, transform, path, physics) is implemented, so
//! only the 4.3 slider type remains listed, and no 4.2 rig has one: nothing is exempt.

use std::sync::Arc;

use serde_json::Value;
use spine_anim::{apply_animation, MixBlend, MixDirection, Physics, Skeleton};
use spine_model::validate::{discover_atlas, load_atlas};
use spine_model::{ConstraintKind, ConstraintType, LoadOptions, SkeletonData};

/// Constraint types whose solvers are not checked yet: their bones (and descendants) are
/// exempt. Remove a type once its solver lands.
const EXEMPT: &[ConstraintType] = &[ConstraintType::Slider];

fn close(ours: f32, theirs: f64) -> bool {
    let d = (ours as f64 - theirs).abs();
    d <= 1e-3 * theirs.abs().max(1.0)
}

struct Rig {
    name: String,
    golden: Value,
    data: Arc<SkeletonData>,
    driven: Vec<bool>,
}

fn rigs() -> Option<Vec<Rig>> {
    let corpus = skel_testkit::spine_corpus()?;
    let oracle = skel_testkit::oracle_dir()?;
    let goldens = skel_testkit::files_with_suffix(&oracle.join("spine-4.2"), ".skel.json");
    assert!(goldens.len() >= 26, "{} goldens", goldens.len());
    let mut out = Vec::new();
    for g in goldens {
        let golden: Value = serde_json::from_str(&std::fs::read_to_string(&g).unwrap()).unwrap();
        let example = g.parent().unwrap().file_name().unwrap();
        let skel = corpus.join("4.2").join(example).join(golden["file"].as_str().unwrap());
        // The golden names its atlas; "synthetic:X" lives next to the golden.
        let atlas_path = match golden["atlas"].as_str().unwrap().strip_prefix("synthetic:") {
            Some(f) => Some(g.parent().unwrap().join(f)),
            None => discover_atlas(&skel),
        };
        let atlas = atlas_path.map(|p| load_atlas(&p).unwrap());
        let file = spine_format::binary::parse(&std::fs::read(&skel).unwrap()).unwrap();
        let options = LoadOptions { scale: 1.0, atlas: atlas.as_ref(), atlas_name: "atlas" };
        let data = SkeletonData::from_binary(&file, &options).unwrap();
        let driven = constraint_driven(&data, EXEMPT);
        out.push(Rig {
            name: golden["file"].as_str().unwrap().to_owned(),
            golden,
            data: Arc::new(data),
            driven,
        });
    }
    Some(out)
}

/// Bones a constraint of one of the `types` writes, their descendants, and (transitively)
/// the bones of any constraint whose input (IK target, transform source, path slot bone)
/// is such a bone.
fn constraint_driven(d: &SkeletonData, types: &[ConstraintType]) -> Vec<bool> {
    let mut driven = vec![false; d.bones.len()];
    loop {
        let before = driven.clone();
        for c in &d.constraints {
            let (input, bones): (Option<usize>, Vec<_>) = match &c.kind {
                ConstraintKind::Ik(k) => (Some(k.target.index()), k.bones.clone()),
                ConstraintKind::Transform(k) => (Some(k.source.index()), k.bones.clone()),
                ConstraintKind::Path(k) => (Some(d.slot(k.slot).bone.index()), k.bones.clone()),
                ConstraintKind::Physics(k) => (None, vec![k.bone]),
                ConstraintKind::Slider(_) => (None, vec![]),
            };
            let exempt = types.contains(&c.kind.constraint_type());
            if exempt || input.is_some_and(|i| driven[i]) {
                for b in bones {
                    driven[b.index()] = true;
                }
            }
        }
        for (i, b) in d.bones.iter().enumerate() {
            if let Some(p) = b.parent {
                if driven[p.index()] {
                    driven[i] = true;
                }
            }
        }
        if driven == before {
            return driven;
        }
    }
}

fn new_skeleton(rig: &Rig) -> Skeleton {
    let mut sk = Skeleton::new(rig.data.clone());
    if let Some(skin) = rig.golden["skin"].as_str() {
        assert!(sk.set_skin_by_name(Some(skin)), "{}: skin {skin}", rig.name);
    }
    sk.set_to_setup_pose();
    sk
}

/// Result of comparing one sample.
#[derive(Default)]
struct Cmp {
    /// Mismatches on bones no constraint drives, on slots or on the draw order.
    hard: Vec<(f64, String)>,
    /// Mismatches on constraint-driven bones.
    exempt: usize,
    /// Vertex lists compared.
    vertices: usize,
    /// Active bone transforms compared / matching.
    bones: (usize, usize),
}

/// Whether the world vertices of `slot` depend on a constraint-driven bone.
fn vertices_driven(rig: &Rig, sk: &Skeleton, slot: spine_model::SlotId) -> bool {
    let s = &sk.slots[slot.index()];
    if rig.driven[s.bone.index()] {
        return true;
    }
    let Some(a) = s.attachment else { return false };
    let v = match &rig.data.attachment(a).kind {
        spine_model::AttachmentKind::Mesh(m) => &m.vertices,
        _ => return false,
    };
    match v {
        spine_model::Vertices::Weighted(w) => w.bones.iter().any(|b| rig.driven[b.index()]),
        spine_model::Vertices::Unweighted(_) => false,
    }
}

fn compare_sample(rig: &Rig, sk: &Skeleton, s: &Value, what: &str) -> Cmp {
    let mut cmp = Cmp::default();
    for (i, gb) in s["bones"].as_array().unwrap().iter().enumerate() {
        let b = &sk.bones[i];
        let bone_name = &rig.data.bones[i].name;
        match gb.as_array() {
            None => {
                if b.active {
                    cmp.hard.push((
                        f64::INFINITY,
                        format!("{what} bone {bone_name}: active, golden null"),
                    ));
                }
            }
            Some(v) => {
                if !b.active {
                    cmp.hard.push((f64::INFINITY, format!("{what} bone {bone_name}: inactive")));
                    continue;
                }
                let ours = [b.a, b.b, b.c, b.d, b.world_x, b.world_y];
                cmp.bones.0 += 1;
                let mut worst = 0.0f64;
                for (o, t) in ours.iter().zip(v) {
                    let t = t.as_f64().unwrap();
                    if !close(*o, t) {
                        worst = worst.max((*o as f64 - t).abs());
                    }
                }
                if worst == 0.0 {
                    cmp.bones.1 += 1;
                }
                if worst > 0.0 {
                    if rig.driven[i] {
                        cmp.exempt += 1;
                    } else {
                        cmp.hard
                            .push((worst, format!("{what} bone {bone_name}: {ours:?} vs {v:?}")));
                    }
                }
            }
        }
    }
    for (i, gs) in s["slots"].as_array().unwrap().iter().enumerate() {
        let slot = &sk.slots[i];
        let slot_name = &rig.data.slots[i].name;
        let gs = gs.as_array().unwrap();
        let name = slot.attachment.map(|a| rig.data.attachment(a).name.as_str());
        if name != gs[0].as_str() {
            cmp.hard
                .push((f64::INFINITY, format!("{what} slot {slot_name}: {name:?} vs {}", gs[0])));
        }
        let c = slot.color;
        let mut ours = vec![c.r, c.g, c.b, c.a];
        if slot.has_dark_color {
            ours.extend([slot.dark_color.r, slot.dark_color.g, slot.dark_color.b]);
        }
        let mut theirs: Vec<f64> =
            gs[1].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        if let Some(d) = gs.get(2) {
            theirs.extend(d.as_array().unwrap().iter().map(|v| v.as_f64().unwrap()));
        }
        if ours.len() != theirs.len() || ours.iter().zip(&theirs).any(|(o, t)| !close(*o, *t)) {
            cmp.hard.push((1.0, format!("{what} slot {slot_name} color: {ours:?} vs {theirs:?}")));
        }
    }
    if let Some(verts) = s.get("vertices").and_then(|v| v.as_object()) {
        let mut buf = Vec::new();
        for (slot_name, gv) in verts {
            let id = rig.data.find_slot(slot_name).unwrap();
            buf.clear();
            let ok = sk.world_vertices(id, &mut buf);
            let gv: Vec<f64> = gv.as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
            let worst = if !ok || buf.len() != gv.len() {
                f64::INFINITY
            } else {
                buf.iter()
                    .zip(&gv)
                    .filter(|(o, t)| !close(**o, **t))
                    .map(|(o, t)| (*o as f64 - t).abs())
                    .fold(0.0, f64::max)
            };
            if worst > 0.0 {
                if vertices_driven(rig, sk, id) {
                    cmp.exempt += 1;
                } else {
                    cmp.hard.push((worst, format!("{what} vertices of {slot_name}")));
                }
            }
            cmp.vertices += 1;
        }
    }
    let order: Vec<u64> = sk.draw_order.iter().map(|s| s.0 as u64).collect();
    let golden: Vec<u64> =
        s["drawOrder"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    if order != golden {
        cmp.hard.push((f64::INFINITY, format!("{what} draw order differs")));
    }
    cmp
}

#[derive(Default)]
struct Tally {
    samples: usize,
    matched: usize,
    exempt: usize,
    failed: usize,
    vertices: usize,
    bones: (usize, usize),
    worst: Vec<(f64, String)>,
    /// Rigs with exempt samples, and how many.
    exempt_rigs: std::collections::BTreeMap<String, usize>,
}

impl Tally {
    fn add(&mut self, rig: &str, cmp: Cmp) {
        self.samples += 1;
        self.vertices += cmp.vertices;
        self.bones.0 += cmp.bones.0;
        self.bones.1 += cmp.bones.1;
        if !cmp.hard.is_empty() {
            self.failed += 1;
            self.worst.extend(cmp.hard);
        } else if cmp.exempt > 0 {
            self.exempt += 1;
            *self.exempt_rigs.entry(rig.to_owned()).or_default() += 1;
        } else {
            self.matched += 1;
        }
    }

    fn report(&mut self, what: &str) {
        println!(
            "{what}: {} samples: {} match (within tolerance), {} exempt (mismatches only on \
             bones driven by exempt constraint types), {} fail; match rate \
             {:.2}% of all, {:.2}% of non-exempt",
            self.samples,
            self.matched,
            self.exempt,
            self.failed,
            100.0 * self.matched as f64 / self.samples.max(1) as f64,
            100.0 * self.matched as f64 / (self.samples - self.exempt).max(1) as f64,
        );
        println!(
            "{what}: {} of {} active bone world transforms match ({:.2}%)",
            self.bones.1,
            self.bones.0,
            100.0 * self.bones.1 as f64 / self.bones.0.max(1) as f64
        );
        if !self.exempt_rigs.is_empty() {
            println!("{what}: exempt samples per rig: {:?}", self.exempt_rigs);
        }
        self.worst.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
        for (d, m) in self.worst.iter().take(15) {
            println!("  worst |diff| {d:.3e}: {m}");
        }
    }
}

#[test]
fn pose_matches_spine_cpp_4_2() {
    let Some(rigs) = rigs() else { return };
    let mut tally = Tally::default();
    let mut events = Vec::new();
    for rig in &rigs {
        let mut sk = new_skeleton(rig);
        for (name, pose) in rig.golden["pose"].as_object().unwrap() {
            let anim = rig.data.find_animation(name).unwrap();
            for s in pose["samples"].as_array().unwrap() {
                let t = s["t"].as_f64().unwrap() as f32;
                sk.set_to_setup_pose();
                events.clear();
                apply_animation(
                    &mut sk,
                    anim,
                    t,
                    t,
                    false,
                    Some(&mut events),
                    1.0,
                    MixBlend::Setup,
                    MixDirection::In,
                );
                sk.update_world_transform(Physics::None);
                assert!(events.is_empty(), "apply(t, t) fires no events");
                let what = format!("{} {name} t={t}", rig.name);
                tally.add(&rig.name, compare_sample(rig, &sk, s, &what));
            }
        }
    }
    tally.report("POSE");
    println!("POSE: {} world-vertex lists compared", tally.vertices);
    assert!(tally.vertices > 500, "{} vertex lists", tally.vertices);
    assert!(tally.samples > 1000);
    assert_eq!(tally.failed, 0, "POSE samples failing outside the constraint exemption");
}

#[test]
fn constraint_exemption_is_computed_from_data() {
    let Some(rigs) = rigs() else { return };
    let sb = rigs.iter().find(|r| r.name == "spineboy-pro.skel").unwrap();
    let id = |n: &str| sb.data.find_bone(n).unwrap().index();
    // rear-shin is bent by the rear-leg IK; the hip drives everything but is not driven.
    let ik = constraint_driven(&sb.data, &[ConstraintType::Ik]);
    assert!(ik[id("rear-shin")]);
    assert!(ik[id("rear-foot")]);
    assert!(!ik[id("hip")]);
    assert!(!ik[id("root")]);
    // IK is solved: spineboy (no physics) has no exempt bone.
    assert!(sb.driven.iter().all(|d| !d));
}

fn anim_name(d: &SkeletonData, a: Option<spine_model::AnimationId>) -> String {
    a.map_or("<empty>".to_owned(), |a| d.animation(a).name.clone())
}

/// Runs the golden's STATE procedure; returns (samples by frame, events, track events)
/// as JSON values in the golden's shapes.
fn run_state(rig: &Rig, tally: &mut Tally, failures: &mut Vec<String>) -> (usize, usize) {
    use spine_anim::{AnimationState, AnimationStateData, StateEventType};
    let st = &rig.golden["state"];
    let d = &rig.data;
    let mut sk = new_skeleton(rig);
    let mut asd = AnimationStateData::new(d.clone());
    asd.default_mix = st["defaultMix"].as_f64().unwrap() as f32;
    let mut state = AnimationState::new(Arc::new(asd));
    let a = st["A"].as_str().unwrap();
    state.set_animation_by_name(0, a, true).unwrap();
    if let Some(b) = st["B"].as_str() {
        state.add_animation_by_name(0, b, true, st["addDelay"].as_f64().unwrap() as f32).unwrap();
    }
    let dt = 1.0f32 / 60.0;
    assert_eq!(dt, st["dt"].as_f64().unwrap() as f32);
    let frames = st["frames"].as_u64().unwrap() as usize;
    let mut events: Vec<Value> = Vec::new();
    let mut track_events: Vec<Value> = Vec::new();
    let mut record = |state: &mut AnimationState, frame: usize| {
        for e in state.events() {
            let anim = anim_name(d, e.animation);
            let ty = match e.kind {
                StateEventType::Start => "start",
                StateEventType::Interrupt => "interrupt",
                StateEventType::End => "end",
                StateEventType::Dispose => "dispose",
                StateEventType::Complete => "complete",
                StateEventType::Event(r) => {
                    let k = r.key(d).unwrap();
                    let name = &d.event(k.event).name;
                    events.push(serde_json::json!([
                        frame,
                        name,
                        k.int_value,
                        k.float_value,
                        k.string_value,
                        k.time,
                        k.volume,
                        k.balance,
                        anim
                    ]));
                    continue;
                }
            };
            track_events.push(serde_json::json!([frame, ty, anim, e.track]));
        }
        state.clear_events();
    };
    record(&mut state, 0);
    let samples = st["samples"].as_array().unwrap();
    let mut next_sample = samples.iter().peekable();
    for frame in 1..=frames {
        state.update(dt);
        record(&mut state, frame);
        state.apply(&mut sk);
        record(&mut state, frame);
        sk.update(dt);
        sk.update_world_transform(Physics::Update);
        if let Some(s) = next_sample.peek() {
            if s["frame"].as_u64().unwrap() as usize == frame {
                let what = format!("{} state frame {frame}", rig.name);
                tally.add(&rig.name, compare_sample(rig, &sk, s, &what));
                next_sample.next();
            }
        }
    }
    let same = |ours: &[Value], theirs: &Value| -> bool {
        let theirs = theirs.as_array().unwrap();
        ours.len() == theirs.len()
            && ours.iter().zip(theirs).all(|(o, t)| {
                let (o, t) = (o.as_array().unwrap(), t.as_array().unwrap());
                o.len() == t.len()
                    && o.iter().zip(t).all(|(a, b)| match (a.as_f64(), b.as_f64()) {
                        (Some(x), Some(y)) => close(x as f32, y),
                        _ => a == b,
                    })
            })
    };
    if !same(&events, &st["events"]) {
        failures.push(format!(
            "{}: events\n  ours   {}\n  theirs {}",
            rig.name,
            serde_json::to_string(&events).unwrap(),
            st["events"]
        ));
    }
    if !same(&track_events, &st["trackEvents"]) {
        failures.push(format!(
            "{}: trackEvents\n  ours   {}\n  theirs {}",
            rig.name,
            serde_json::to_string(&track_events).unwrap(),
            st["trackEvents"]
        ));
    }
    (events.len(), track_events.len())
}

#[test]
fn state_matches_spine_cpp_4_2() {
    let Some(rigs) = rigs() else { return };
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    let (mut events, mut track_events) = (0, 0);
    for rig in &rigs {
        let (e, t) = run_state(rig, &mut tally, &mut failures);
        events += e;
        track_events += t;
    }
    tally.report("STATE");
    println!(
        "STATE: {events} events and {track_events} track events compared; {} lists differ",
        failures.len()
    );
    assert!(events >= 30 && track_events > 100, "{events} events, {track_events} track events");
    for f in &failures {
        println!("{f}");
    }
    assert!(failures.is_empty(), "event or track event lists differ");
    assert_eq!(tally.failed, 0, "STATE samples failing outside the constraint exemption");
}

/// Physics bones and their descendants (whatever else drives them).
fn physics_driven(d: &SkeletonData) -> Vec<bool> {
    let mut driven = vec![false; d.bones.len()];
    for c in &d.constraints {
        if let ConstraintKind::Physics(k) = &c.kind {
            driven[k.bone.index()] = true;
        }
    }
    for (i, b) in d.bones.iter().enumerate() {
        if let Some(p) = b.parent {
            if driven[p.index()] {
                driven[i] = true;
            }
        }
    }
    driven
}

thread_local! {
    /// Worst relative difference seen by [`physics_bones`] on bones no exempt constraint
    /// drives.
    static WORST: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
}

/// Physics-driven bone transforms of `sk` vs golden sample `s`: (compared, matching,
/// matching among those no exempt constraint drives, compared among those).
fn physics_bones(rig: &Rig, phys: &[bool], sk: &Skeleton, s: &Value) -> [usize; 4] {
    let mut n = [0; 4];
    for (i, gb) in s["bones"].as_array().unwrap().iter().enumerate() {
        let Some(v) = gb.as_array() else { continue };
        if !phys[i] {
            continue;
        }
        let b = &sk.bones[i];
        let ours = [b.a, b.b, b.c, b.d, b.world_x, b.world_y];
        let ok = ours.iter().zip(v).all(|(o, t)| close(*o, t.as_f64().unwrap()));
        if !rig.driven[i] {
            for (o, t) in ours.iter().zip(v) {
                let t = t.as_f64().unwrap();
                let rel = (*o as f64 - t).abs() / t.abs().max(1.0);
                WORST.with(|w| w.set(w.get().max(rel)));
            }
        }
        n[0] += 1;
        n[1] += ok as usize;
        if !rig.driven[i] {
            n[3] += 1;
            n[2] += ok as usize;
        }
    }
    n
}

/// The physics rigs bone by bone: physics bones (and descendants) must match in POSE
/// (`Physics::None`) and in STATE (`Physics::Update`, 180 frames at 1/60 s) wherever no
/// still-exempt constraint (IK, transform, path) also drives them.
#[test]
fn physics_rigs_match_spine_cpp_4_2() {
    use spine_anim::{AnimationState, AnimationStateData};
    let Some(rigs) = rigs() else { return };
    let mut checked = 0;
    for rig in &rigs {
        let phys = physics_driven(&rig.data);
        if !phys.iter().any(|&p| p) {
            continue;
        }
        checked += 1;
        let mut pose = [0; 4];
        let mut sk = new_skeleton(rig);
        for (name, p) in rig.golden["pose"].as_object().unwrap() {
            let anim = rig.data.find_animation(name).unwrap();
            for s in p["samples"].as_array().unwrap() {
                let t = s["t"].as_f64().unwrap() as f32;
                sk.set_to_setup_pose();
                apply_animation(
                    &mut sk,
                    anim,
                    t,
                    t,
                    false,
                    None,
                    1.0,
                    MixBlend::Setup,
                    MixDirection::In,
                );
                sk.update_world_transform(Physics::None);
                let n = physics_bones(rig, &phys, &sk, s);
                for k in 0..4 {
                    pose[k] += n[k];
                }
            }
        }
        let pose_worst = WORST.with(|w| w.replace(0.0));
        let st = &rig.golden["state"];
        let mut sk = new_skeleton(rig);
        let mut asd = AnimationStateData::new(rig.data.clone());
        asd.default_mix = st["defaultMix"].as_f64().unwrap() as f32;
        let mut state = AnimationState::new(Arc::new(asd));
        state.set_animation_by_name(0, st["A"].as_str().unwrap(), true).unwrap();
        if let Some(b) = st["B"].as_str() {
            state
                .add_animation_by_name(0, b, true, st["addDelay"].as_f64().unwrap() as f32)
                .unwrap();
        }
        let mut samples = st["samples"].as_array().unwrap().iter().peekable();
        let mut state_n = [0; 4];
        let mut first_bad = None;
        for frame in 1..=st["frames"].as_u64().unwrap() {
            state.update(1.0 / 60.0);
            state.apply(&mut sk);
            state.clear_events();
            sk.update(1.0 / 60.0);
            sk.update_world_transform(Physics::Update);
            if let Some(s) = samples.next_if(|s| s["frame"].as_u64() == Some(frame)) {
                let n = physics_bones(rig, &phys, &sk, s);
                if n[2] < n[3] && first_bad.is_none() {
                    first_bad = Some(frame);
                }
                for k in 0..4 {
                    state_n[k] += n[k];
                }
            }
        }
        println!(
            "{}: {} physics-driven bones; POSE {}/{} match ({}/{} not IK/transform/path-driven); \
             STATE {}/{} match ({}/{}), first failing frame {first_bad:?}; worst relative \
             difference POSE {pose_worst:.2e}, STATE {:.2e}",
            rig.name,
            phys.iter().filter(|&&p| p).count(),
            pose[1],
            pose[0],
            pose[2],
            pose[3],
            state_n[1],
            state_n[0],
            state_n[2],
            state_n[3],
            WORST.with(|w| w.replace(0.0)),
        );
        assert_eq!(pose[2], pose[3], "{}: POSE physics bones", rig.name);
        assert_eq!(state_n[2], state_n[3], "{}: STATE physics bones", rig.name);
    }
    assert!(checked >= 4, "{checked} physics rigs");
}
