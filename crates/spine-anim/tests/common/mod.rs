//! The oracle harness shared by `oracle_42.rs`, `oracle_versions.rs`,
//! `oracle_render_42.rs` and `oracle_43.rs` (which skips each 4.3 sample's degenerate bones
//! through [`compare_sample_skipping`]): loading a golden with the rig it was produced from, the skeleton
//! setup (the golden's skin), the tolerance, the sample comparison with its
//! constraint-driven exemption, the tally and its report, and the POSE and STATE procedures
//! of the goldens (`../shared/oracle/README`-style: POSE applies one animation at one time
//! on the setup pose; STATE runs an AnimationState for the golden's frames at 1/60 s).
//!
//! Tolerance: `|ours - theirs| <= 1e-3 * max(1, |theirs|)`.
//!
//! Not every test file uses every item; the ones a file may leave unused carry
//! `#[allow(dead_code)]`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;
use spine_anim::{
    apply_animation, AnimationState, AnimationStateData, EventRef, MixBlend, MixDirection, Physics,
    Skeleton, StateEventType,
};
use spine_model::files::{discover_atlas, load_atlas};
use spine_model::{AnimationId, ConstraintKind, ConstraintType, LoadOptions, SkeletonData};

/// Constraint types whose solvers are not checked yet: their bones (and descendants) are
/// exempt. Every 4.2 solver (IK, transform, path, physics) is implemented, so only the 4.3
/// slider type remains listed, and no golden rig has one. Remove a type once its solver
/// lands.
#[allow(dead_code)]
pub const EXEMPT: &[ConstraintType] = &[ConstraintType::Slider];

/// Every constraint type.
#[allow(dead_code)]
pub const ALL_CONSTRAINT_TYPES: &[ConstraintType] = &[
    ConstraintType::Ik,
    ConstraintType::Transform,
    ConstraintType::Path,
    ConstraintType::Physics,
    ConstraintType::Slider,
];

/// Whether `ours` is within the oracle tolerance of `theirs`.
pub fn close(ours: f32, theirs: f64) -> bool {
    let d = (ours as f64 - theirs).abs();
    d <= 1e-3 * theirs.abs().max(1.0)
}

/// A golden and the rig it was produced from.
pub struct Rig {
    /// The rig's file name (the test may prefix it, e.g. with the version).
    pub name: String,
    /// The golden.
    pub golden: Value,
    /// The loaded rig.
    pub data: Arc<SkeletonData>,
    /// Bones driven by the exempt constraint types given to [`load_rig`].
    pub driven: Vec<bool>,
}

/// The goldens of `spine-<version>` whose names end with `suffix` (`.skel.json` or
/// `.json.json`); `None` when the corpus or the oracle is missing.
#[allow(dead_code)]
pub fn goldens(version: &str, suffix: &str) -> Option<Vec<PathBuf>> {
    skel_testkit::spine_corpus()?;
    let oracle = skel_testkit::oracle_dir()?;
    Some(skel_testkit::files_with_suffix(&oracle.join(format!("spine-{version}")), suffix))
}

/// Loads golden `g` of `version` (`<oracle>/spine-<version>/[render/]<example>/…`) and the
/// rig it names from `fixtures/spine/<version>/<example>/`, with the atlas the golden names
/// ("synthetic:X" lives in `<oracle>/spine-<version>/<example>/`; a name that is not next
/// to the rig falls back to [`discover_atlas`]). `exempt` sets [`Rig::driven`].
#[allow(dead_code)]
pub fn load_rig(version: &str, g: &Path, exempt: &[ConstraintType]) -> Rig {
    let corpus = skel_testkit::spine_corpus().unwrap();
    let oracle = skel_testkit::oracle_dir().unwrap();
    let golden: Value = serde_json::from_str(&std::fs::read_to_string(g).unwrap()).unwrap();
    let example = g.parent().unwrap().file_name().unwrap();
    let file = golden["file"].as_str().unwrap().to_owned();
    let path = corpus.join(version).join(example).join(&file);
    let atlas_path = match golden["atlas"].as_str().unwrap().strip_prefix("synthetic:") {
        Some(f) => Some(oracle.join(format!("spine-{version}")).join(example).join(f)),
        None => {
            let named = path.with_file_name(golden["atlas"].as_str().unwrap());
            if named.exists() {
                Some(named)
            } else {
                discover_atlas(&path)
            }
        }
    };
    let atlas = atlas_path.map(|p| load_atlas(&p).unwrap());
    let options = LoadOptions {
        scale: 1.0,
        atlas: atlas.as_ref(),
        atlas_name: "atlas",
        ..Default::default()
    };
    let data = load(&path, &options).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let driven = constraint_driven(&data, exempt);
    Rig { name: file, golden, data: Arc::new(data), driven }
}

/// Loads a `.json` or binary rig.
#[allow(dead_code)]
fn load(path: &Path, options: &LoadOptions<'_>) -> Result<SkeletonData, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    if path.extension().is_some_and(|e| e == "json") {
        let text = std::str::from_utf8(&bytes).map_err(|e| e.to_string())?;
        let parsed = spine_format::json::parse(text).map_err(|e| e.to_string())?;
        SkeletonData::from_json(&parsed, options).map_err(|e| e.to_string())
    } else {
        let file = spine_format::binary::parse(&bytes).map_err(|e| e.to_string())?;
        SkeletonData::from_binary(&file, options).map_err(|e| e.to_string())
    }
}

/// Bones a constraint of one of the `types` writes, their descendants, and (transitively)
/// the bones of any constraint whose input (IK target, transform source, path slot bone)
/// is such a bone.
#[allow(dead_code)]
pub fn constraint_driven(d: &SkeletonData, types: &[ConstraintType]) -> Vec<bool> {
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
        mark_descendants(d, &mut driven);
        if driven == before {
            return driven;
        }
    }
}

/// Marks every descendant of a marked bone (bones are stored parents first).
#[allow(dead_code)]
pub fn mark_descendants(d: &SkeletonData, marked: &mut [bool]) {
    for (i, b) in d.bones.iter().enumerate() {
        if let Some(p) = b.parent {
            if marked[p.index()] {
                marked[i] = true;
            }
        }
    }
}

/// A skeleton of `rig` with the golden's skin, in the setup pose.
pub fn new_skeleton(rig: &Rig) -> Skeleton {
    let mut sk = Skeleton::new(rig.data.clone());
    if let Some(skin) = rig.golden["skin"].as_str() {
        assert!(sk.set_skin_by_name(Some(skin)), "{}: skin {skin}", rig.name);
    }
    sk.set_to_setup_pose();
    sk
}

/// The POSE step: `sk` to the setup pose, `anim` applied at `t` (from `t`, so no event
/// fires), world transforms without physics.
pub fn apply_pose(
    sk: &mut Skeleton,
    anim: AnimationId,
    t: f32,
    events: Option<&mut Vec<EventRef>>,
) {
    sk.set_to_setup_pose();
    apply_animation(sk, anim, t, t, false, events, 1.0, MixBlend::Setup, MixDirection::In);
    sk.update_world_transform(Physics::None);
}

/// A fresh skeleton of `rig` posed by [`apply_pose`].
pub fn posed(rig: &Rig, anim: AnimationId, t: f32) -> Skeleton {
    let mut sk = new_skeleton(rig);
    apply_pose(&mut sk, anim, t, None);
    sk
}

/// Result of comparing one sample.
#[allow(dead_code)]
#[derive(Default)]
pub struct Cmp {
    /// Mismatches on bones no constraint drives, on slots or on the draw order.
    pub hard: Vec<(f64, String)>,
    /// Mismatches on constraint-driven bones.
    pub exempt: usize,
    /// Vertex lists compared.
    pub vertices: usize,
    /// Active bone transforms compared / matching.
    pub bones: (usize, usize),
    /// Bone numbers (`a b c d worldX worldY` of the compared bones) compared / matching.
    pub numbers: (usize, usize),
    /// Bones left out of the comparison (the `skip` list of [`compare_sample_skipping`]).
    pub skipped: usize,
}

/// Whether the world vertices of `slot` depend on a constraint-driven bone.
#[allow(dead_code)]
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
        spine_model::Vertices::Weighted(w) => w.bones().iter().any(|b| rig.driven[b.index()]),
        spine_model::Vertices::Unweighted(_) => false,
    }
}

/// Whether the world vertices of `slot` are computed from a bone `bones` lists.
#[allow(dead_code)]
fn vertices_read_any(rig: &Rig, sk: &Skeleton, slot: spine_model::SlotId, bones: &[usize]) -> bool {
    let s = &sk.slots[slot.index()];
    let weighted = s.attachment.and_then(|a| match &rig.data.attachment(a).kind {
        spine_model::AttachmentKind::Mesh(m) => match &m.vertices {
            spine_model::Vertices::Weighted(w) => Some(w),
            spine_model::Vertices::Unweighted(_) => None,
        },
        _ => None,
    });
    match weighted {
        Some(w) => w.bones().iter().any(|b| bones.contains(&b.index())),
        None => bones.contains(&s.bone.index()),
    }
}

/// Compares `sk` with golden sample `s`: bone world transforms, slot attachments and
/// colors, world vertices, draw order. `ORACLE_VERBOSE` adds the vertex lists to vertex
/// mismatches.
#[allow(dead_code)]
pub fn compare_sample(rig: &Rig, sk: &Skeleton, s: &Value, what: &str) -> Cmp {
    compare_sample_skipping(rig, sk, s, what, &[])
}

/// [`compare_sample`] leaving out the bones whose indices `skip` lists (the 4.3 goldens'
/// per-sample `degenerate` bones) and the world vertices computed from them (a slot on
/// such a bone, or a weighted mesh with such a bone among its weights). A golden `null`
/// (a non-finite official value) never matches.
#[allow(dead_code)]
pub fn compare_sample_skipping(
    rig: &Rig,
    sk: &Skeleton,
    s: &Value,
    what: &str,
    skip: &[usize],
) -> Cmp {
    let mut cmp = Cmp::default();
    for (i, gb) in s["bones"].as_array().unwrap().iter().enumerate() {
        let b = &sk.bones[i];
        let bone_name = &rig.data.bones[i].name;
        if skip.contains(&i) {
            cmp.skipped += 1;
            continue;
        }
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
                    let t = t.as_f64().unwrap_or(f64::NAN);
                    cmp.numbers.0 += 1;
                    if close(*o, t) {
                        cmp.numbers.1 += 1;
                    } else {
                        let d = (*o as f64 - t).abs();
                        worst = worst.max(if d.is_nan() { f64::INFINITY } else { d });
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
        let name = slot.attachment.map(|a| &*rig.data.attachment(a).name);
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
            if !skip.is_empty() && vertices_read_any(rig, sk, id, skip) {
                continue;
            }
            buf.clear();
            let ok = sk.world_vertices(id, &mut buf);
            let gv: Vec<f64> =
                gv.as_array().unwrap().iter().map(|v| v.as_f64().unwrap_or(f64::NAN)).collect();
            let worst = if !ok || buf.len() != gv.len() {
                f64::INFINITY
            } else {
                buf.iter()
                    .zip(&gv)
                    .filter(|(o, t)| !close(**o, **t))
                    .map(|(o, t)| (*o as f64 - t).abs())
                    .map(|d| if d.is_nan() { f64::INFINITY } else { d })
                    .fold(0.0, f64::max)
            };
            if worst > 0.0 {
                if vertices_driven(rig, sk, id) {
                    cmp.exempt += 1;
                } else {
                    let detail = if std::env::var_os("ORACLE_VERBOSE").is_some() {
                        format!(": {buf:?} vs {gv:?}")
                    } else {
                        String::new()
                    };
                    cmp.hard.push((worst, format!("{what} vertices of {slot_name}{detail}")));
                }
            }
            cmp.vertices += 1;
        }
    }
    let order: Vec<u64> = sk.draw_order.iter().map(|s| s.index() as u64).collect();
    let golden: Vec<u64> =
        s["drawOrder"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    if order != golden {
        cmp.hard.push((f64::INFINITY, format!("{what} draw order differs")));
    }
    cmp
}

/// Sample counts of a POSE or STATE run.
#[allow(dead_code)]
#[derive(Default)]
pub struct Tally {
    /// Samples compared.
    pub samples: usize,
    /// Samples within tolerance everywhere.
    pub matched: usize,
    /// Samples whose only mismatches are on constraint-driven bones of an exempt type.
    pub exempt: usize,
    /// Samples with a mismatch outside the exemptions.
    pub failed: usize,
    /// World-vertex lists compared.
    pub vertices: usize,
    /// Active bone world transforms compared / matching.
    pub bones: (usize, usize),
    /// Bone numbers compared / matching (see [`Cmp::numbers`]).
    pub numbers: (usize, usize),
    /// Bones left out of the comparison (see [`Cmp::skipped`]).
    pub skipped: usize,
    /// Every mismatch outside the exemptions, with its size.
    pub worst: Vec<(f64, String)>,
    /// Failing samples excused by a named loader bug of the official runtime (see
    /// [`Excuses`]); counted neither as matched nor as exempt.
    pub named: usize,
    /// Rigs with exempt samples, and how many; `None` when not reported.
    pub exempt_rigs: Option<std::collections::BTreeMap<String, usize>>,
}

#[allow(dead_code)]
impl Tally {
    /// A tally whose report lists the rigs with exempt samples.
    pub fn per_rig() -> Self {
        Tally { exempt_rigs: Some(Default::default()), ..Default::default() }
    }

    /// Counts one sample of `rig`.
    pub fn add(&mut self, rig: &str, cmp: Cmp) {
        self.samples += 1;
        self.vertices += cmp.vertices;
        self.bones.0 += cmp.bones.0;
        self.bones.1 += cmp.bones.1;
        self.numbers.0 += cmp.numbers.0;
        self.numbers.1 += cmp.numbers.1;
        self.skipped += cmp.skipped;
        if !cmp.hard.is_empty() {
            self.failed += 1;
            self.worst.extend(cmp.hard);
        } else if cmp.exempt > 0 {
            self.exempt += 1;
            if let Some(m) = &mut self.exempt_rigs {
                *m.entry(rig.to_owned()).or_default() += 1;
            }
        } else {
            self.matched += 1;
        }
    }

    /// Counts a failing sample of `rig` as excused by a named loader bug (instead of
    /// [`Tally::add`]).
    pub fn excuse(&mut self, cmp: Cmp) {
        self.samples += 1;
        self.vertices += cmp.vertices;
        self.bones.0 += cmp.bones.0;
        self.bones.1 += cmp.bones.1;
        self.numbers.0 += cmp.numbers.0;
        self.numbers.1 += cmp.numbers.1;
        self.skipped += cmp.skipped;
        self.named += 1;
    }

    /// Prints the counts and the worst mismatches (`ORACLE_WORST` of them, 15 by default).
    pub fn report(&mut self, what: &str) {
        println!(
            "{what}: {} samples: {} match (within tolerance), {} exempt (mismatches only on \
             bones driven by exempt constraint types), {} excused (a named loader bug of the \
             official runtime), {} fail; match rate {:.2}% of all, {:.2}% of non-exempt",
            self.samples,
            self.matched,
            self.exempt,
            self.named,
            self.failed,
            100.0 * self.matched as f64 / self.samples.max(1) as f64,
            100.0 * self.matched as f64 / (self.samples - self.exempt - self.named).max(1) as f64,
        );
        println!(
            "{what}: {} of {} active bone world transforms match ({:.2}%)",
            self.bones.1,
            self.bones.0,
            100.0 * self.bones.1 as f64 / self.bones.0.max(1) as f64
        );
        if let Some(m) = self.exempt_rigs.as_ref().filter(|m| !m.is_empty()) {
            println!("{what}: exempt samples per rig: {m:?}");
        }
        self.worst.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
        for (d, m) in self
            .worst
            .iter()
            .take(std::env::var("ORACLE_WORST").ok().and_then(|v| v.parse().ok()).unwrap_or(15))
        {
            println!("  worst |diff| {d:.3e}: {m}");
        }
    }
}

/// Loader bugs of the official runtime that produced a set of goldens: failing samples
/// they explain are counted in [`Tally::named`] instead of failing.
#[allow(dead_code)]
pub struct Excuses {
    /// The rig as the official loader reads it (e.g. without the timelines it drops), if
    /// that differs: a failing sample is excused when this twin matches it.
    pub twin: Option<fn(&Rig) -> Option<Rig>>,
    /// Whether a golden `null` event field matches any value (3.5/3.6 events have no
    /// volume/balance: their goldens write null).
    pub null_matches_any: bool,
}

#[allow(dead_code)]
impl Excuses {
    /// No loader bug.
    pub const NONE: Excuses = Excuses { twin: None, null_matches_any: false };

    fn twin(&self, rig: &Rig) -> Option<Rig> {
        self.twin.and_then(|f| f(rig))
    }
}

/// Whether `anim` keys the dark color of `slot` (an `Rgba2` / `Rgb2` timeline).
#[allow(dead_code)]
fn keys_dark(d: &SkeletonData, anim: AnimationId, slot: usize) -> bool {
    d.animation(anim).timelines.iter().any(|t| {
        matches!(t, spine_model::Timeline::Color { slot: s, property, .. }
            if s.index() == slot
                && matches!(property, spine_model::ColorProperty::Rgba2 | spine_model::ColorProperty::Rgb2))
    })
}

/// spine-cpp 3.7 never resets a slot's dark color (`setup_pose_sets_dark` off): a slot
/// starts at `(0, 0, 0, 0)` and keeps whatever a two-color timeline last set, across
/// samples and animations. The official run interleaves samples held out of this copy, so
/// when an animation begins, a slot the animation does not key may carry a dark color left
/// by a held-out sample. Only such a slot, only one that some animation of the rig keys
/// (else it can never leave black) and only when its carried value differs from the
/// golden's first sample is set to the golden's value; the count is returned. A slot the
/// animation keys is never seeded: the keys decide, and a difference fails.
#[allow(dead_code)]
fn seed_carried_dark_colors(
    rig: &Rig,
    sk: &mut Skeleton,
    anim: AnimationId,
    first: &Value,
) -> usize {
    let d = &rig.data;
    let mut seeded = 0;
    for (i, (slot, gs)) in sk.slots.iter_mut().zip(first["slots"].as_array().unwrap()).enumerate() {
        let Some(g) = gs.get(2).and_then(|d| d.as_array()) else { continue };
        let g: Vec<f32> = g.iter().map(|v| v.as_f64().unwrap() as f32).collect();
        let ours = [slot.dark_color.r, slot.dark_color.g, slot.dark_color.b];
        let differs = ours.iter().zip(&g).any(|(o, t)| !close(*o, f64::from(*t)));
        let keyed_somewhere = d.animation_ids().any(|a| keys_dark(d, a, i));
        if slot.has_dark_color && differs && keyed_somewhere && !keys_dark(d, anim, i) {
            slot.dark_color.r = g[0];
            slot.dark_color.g = g[1];
            slot.dark_color.b = g[2];
            seeded += 1;
        }
    }
    seeded
}

/// spine-c 3.5.51 `SkeletonJson` reads a path constraint timeline as a mix timeline only
/// when its name is *not* `mix` (`else if (strcmp(timelineName, "mix"))`), so its JSON loads
/// drop every path `mix` timeline; our loader reads them (as spine-c's binary loader and
/// the other runtimes do). For a 3.5 JSON golden this returns the rig with the path mix
/// timelines removed, if it has any: a failing sample is excused (counted under the
/// loader-bug exemption) only when that stripped rig matches the golden.
#[allow(dead_code)]
pub fn spine_c35_json_rig(rig: &Rig) -> Option<Rig> {
    let mut data = (*rig.data).clone();
    let mut removed = 0;
    for a in &mut data.animations {
        let before = a.timelines.len();
        a.timelines.retain(|t| {
            !matches!(
                t,
                spine_model::Timeline::Path { property: spine_model::PathProperty::Mix, .. }
            )
        });
        removed += before - a.timelines.len();
    }
    (removed > 0).then(|| Rig {
        name: rig.name.clone(),
        golden: rig.golden.clone(),
        data: Arc::new(data),
        driven: rig.driven.clone(),
    })
}

/// POSE over `rigs`: every animation of each golden's `pose` in the rig's file order (the
/// official run's order), every sample; prints the report under `label`.
#[allow(dead_code)]
pub fn run_pose(rigs: &[Rig], label: &str, mut tally: Tally, excuses: &Excuses) -> Tally {
    let mut events = Vec::new();
    let mut seeded = 0;
    for rig in rigs {
        let mut sk = new_skeleton(rig);
        let twin = excuses.twin(rig);
        let poses = rig.golden["pose"].as_object().unwrap();
        let mut checked = 0;
        for (i, a) in rig.data.animations.iter().enumerate() {
            let Some(pose) = poses.get(a.name.as_str()) else { continue };
            checked += 1;
            let anim = AnimationId::from_index(i);
            let name = &a.name;
            if !rig.data.behaviour.setup_pose_sets_dark {
                seeded += seed_carried_dark_colors(rig, &mut sk, anim, &pose["samples"][0]);
            }
            for s in pose["samples"].as_array().unwrap() {
                let t = s["t"].as_f64().unwrap() as f32;
                events.clear();
                apply_pose(&mut sk, anim, t, Some(&mut events));
                assert!(events.is_empty(), "apply(t, t) fires no events");
                let what = format!("{} {name} t={t}", rig.name);
                let cmp = compare_sample(rig, &sk, s, &what);
                let loader_bug = !cmp.hard.is_empty()
                    && twin.as_ref().is_some_and(|tw| {
                        compare_sample(tw, &posed(tw, anim, t), s, &what).hard.is_empty()
                    });
                if loader_bug {
                    tally.excuse(cmp);
                } else {
                    tally.add(&rig.name, cmp);
                }
            }
        }
        assert_eq!(checked, poses.len(), "{}: golden animations missing from the rig", rig.name);
    }
    tally.report(label);
    println!("{label}: {} world-vertex lists compared", tally.vertices);
    if seeded > 0 {
        println!(
            "{label}: {seeded} slot dark colors carried over from held-out samples \
             (spine-cpp 3.7 never resets them) set from the golden before an animation"
        );
    }
    tally
}

/// Name of an animation, `<empty>` for the empty animation.
#[allow(dead_code)]
fn anim_name(d: &SkeletonData, a: Option<AnimationId>) -> String {
    a.map_or("<empty>".to_owned(), |a| d.animation(a).name.to_string())
}

/// A skeleton and an AnimationState set up as the golden's STATE procedure says.
#[allow(dead_code)]
pub fn start_state(rig: &Rig) -> (Skeleton, AnimationState) {
    let st = &rig.golden["state"];
    let sk = new_skeleton(rig);
    let mut asd = AnimationStateData::new(rig.data.clone());
    asd.default_mix = st["defaultMix"].as_f64().unwrap() as f32;
    let mut state = AnimationState::new(Arc::new(asd));
    state.set_animation_by_name(0, st["A"].as_str().unwrap(), true).unwrap();
    if let Some(b) = st["B"].as_str() {
        state.add_animation_by_name(0, b, true, st["addDelay"].as_f64().unwrap() as f32).unwrap();
    }
    (sk, state)
}

/// What a STATE run over several rigs found.
#[allow(dead_code)]
pub struct StateRun {
    /// The sample counts.
    pub tally: Tally,
    /// Event or track event lists that differ, one message per list.
    pub failures: Vec<String>,
    /// Events compared.
    pub events: usize,
    /// Track events compared.
    pub track_events: usize,
}

/// STATE over `rigs`; prints the report under `label`, the event counts and every list
/// that differs.
#[allow(dead_code)]
pub fn run_states(rigs: &[Rig], label: &str, tally: Tally, excuses: &Excuses) -> StateRun {
    let mut run = StateRun { tally, failures: Vec::new(), events: 0, track_events: 0 };
    for rig in rigs {
        let (e, t) = run_state(rig, excuses, &mut run.tally, &mut run.failures);
        run.events += e;
        run.track_events += t;
    }
    run.tally.report(label);
    println!(
        "{label}: {} events and {} track events compared; {} lists differ",
        run.events,
        run.track_events,
        run.failures.len()
    );
    for f in &run.failures {
        println!("{f}");
    }
    run
}

/// Runs the golden's STATE procedure on `rig` (bones every sampled frame into `tally`,
/// event and track event lists compared into `failures`); returns the numbers of events
/// and track events.
#[allow(dead_code)]
fn run_state(
    rig: &Rig,
    excuses: &Excuses,
    tally: &mut Tally,
    failures: &mut Vec<String>,
) -> (usize, usize) {
    let st = &rig.golden["state"];
    let d = &rig.data;
    let (mut sk, mut state) = start_state(rig);
    // The loader-bug twin (see `Excuses::twin`), run in lockstep.
    let twin_rig = excuses.twin(rig);
    let mut twin = twin_rig.as_ref().map(|r| (r, start_state(r)));
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
        if let Some((_, (tsk, tstate))) = &mut twin {
            tstate.update(dt);
            tstate.apply(tsk);
            tstate.clear_events();
            tsk.update(dt);
            tsk.update_world_transform(Physics::Update);
        }
        if let Some(s) = next_sample.peek() {
            if s["frame"].as_u64().unwrap() as usize == frame {
                let what = format!("{} state frame {frame}", rig.name);
                let cmp = compare_sample(rig, &sk, s, &what);
                let loader_bug = !cmp.hard.is_empty()
                    && twin.as_ref().is_some_and(|(r, (tsk, _))| {
                        compare_sample(r, tsk, s, &what).hard.is_empty()
                    });
                if loader_bug {
                    tally.excuse(cmp);
                } else {
                    tally.add(&rig.name, cmp);
                }
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
                        _ => (excuses.null_matches_any && b.is_null()) || a == b,
                    })
            })
    };
    for (key, ours) in [("events", &events), ("trackEvents", &track_events)] {
        if !same(ours, &st[key]) {
            failures.push(format!(
                "{}: {key}\n  ours   {}\n  theirs {}",
                rig.name,
                serde_json::to_string(ours).unwrap(),
                st[key]
            ));
        }
    }
    (events.len(), track_events.len())
}
