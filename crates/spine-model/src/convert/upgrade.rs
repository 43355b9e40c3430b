//! Upgrading any 3.5–4.2 skeleton to 4.2 or 4.3, the way the editor upgrades old projects:
//! the source is loaded into [`SkeletonData`] (the version-neutral model every loader of this
//! crate produces) and written back as a 4.3 ([`to_v43`]) or 4.2 ([`to_v42`]) binary AST; the
//! JSON forms are those ASTs through [`super::v43_json`] / [`super::v40_json`].
//!
//! # Mappings
//!
//! * **Curves.** 3.x curves are sampled in *percent* space, one bezier per segment shared by
//!   every channel (`setCurve`, 10 linear pieces); 4.x curves are one bezier per channel in
//!   time/value space (9 precomputed points). The 3.x control points are recovered from the
//!   model's sampled table and mapped per channel (`cx → t1 + cx·(t2 − t1)`,
//!   `cy → v1 + cy·(v2 − v1)`; deform curves keep `cy` as a percent): both runtimes then
//!   interpolate linearly between the same 11 points, so the curve is the same up to float
//!   rounding. 4.x tables give their control points back the same way (least squares over
//!   the 9 points, exact up to rounding).
//! * **Rotation.** 3.x `RotateTimeline` interpolates from one key to the next along the
//!   shorter way (the difference wrapped into `[-180, 180]`); 4.x interpolates the values.
//!   Each 3.x key is unwrapped against the previous one (`v'ₖ = v'ₖ₋₁ + wrap(vₖ − vₖ₋₁)`), so
//!   every pose is the same (angles equal modulo 360°).
//! * **Mixes.** The 3.x four transform mixes (rotate, translate, scale, shear) and two path
//!   mixes (rotate, translate) were expanded to the 4.x six and three by the loaders (`x = y`,
//!   `scaleX = scaleY`); timelines likewise.
//! * **Transform constraints** (4.3 target). 3.x and 4.0–4.2 constraints become 4.3 from/to
//!   constraints with the identity mapping (rotate → rotate, x → x, y → y, scaleX → scaleX,
//!   scaleY → scaleY, shearY → shearY; offset 0, scale 1) plus the 4.x offsets, `local` →
//!   `localSource` and `localTarget`, `relative` → `additive`. The 4.3 maths equals the 4.2
//!   maths for the world-space variants and the relative local one.
//! * **IK**: `uniform` → scale-y mode `uniform`; bend, compress, stretch, softness as is.
//! * **Path constraints**: modes, offsets and mixes as is.
//! * **Linked meshes** are written as linked meshes (source skin, slot and placeholder found
//!   in the data); 4.3 mesh `timelineSlots` are derived from them as the 4.3 loaders do.
//! * **Draw orders** are written as the `(slot, offset)` changes that rebuild the model's
//!   order; deform keys as offsets from the setup vertices (unweighted) trimmed to the
//!   changed range.
//! * **Colors** are written as bytes (`round(v × 255)`): exact for binary sources; a JSON
//!   alpha key that is not a multiple of 1/255 rounds.
//!
//! # What cannot be expressed, and what the converter does
//!
//! The converter keeps the data and lets the target version's runtime apply its own rules,
//! and says so in [`Output::notes`](super::Output::notes) when the source uses one of these:
//!
//! * 3.5–3.7 IK (`ik_without_inherit`: no inherit-mode handling, the parent of a two-bone chain posed
//!   from its local rotation): solved with the target's IK.
//! * 3.5/3.6 path constraints (spine-c spacing and tangent rules, `path_scales_every_spacing`): solved
//!   with the target's path constraint.
//! * 3.x transform constraints: the local absolute variant no longer wraps the rotation and
//!   shear differences into `[-180, 180]`, and negative scale/shear mixes apply (3.x applied
//!   them only when `> 0`).
//! * 4.0–4.2 local absolute transform constraints with a scale mix (4.3 target): 4.x divides
//!   the mixed scale by the bone's scale (`(s + (t − s + o)·m) / s`); 4.3 mixes
//!   (`s + (t + o − s)·m`). The 4.3 maths applies.
//! * 4.2 physics (4.3 target): 4.3 interpolates the simulation's lag per step and treats
//!   scale limits, wind and gravity differently; the constraint is kept and simulated with
//!   the 4.3 rules.
//! * AnimationState behaviour (mixing between animations, hold/dip rules, the 3.x rotation
//!   mixing, event windows): not data; the target runtime's rules apply.
//! * Editor-only data the model does not keep: bone icons, editor visibility, the images and
//!   audio folders (kept when the caller passes them in [`Extras`]).
//! * A mesh whose triangle count differs from what its vertex and hull counts imply (3.x–4.1
//!   binaries store the count, 4.2/4.3 binaries do not): the hull count is adjusted (it is
//!   editor data) when that makes the counts agree; otherwise the conversion fails.
//!
//! Downgrades are refused ([`super::convert`]).
//!
//! # Measured, with the official runtimes as referees
//!
//! Every corpus rig (147 `.skel`, 147 `.json`, 3.5–4.2) converted to 4.3 binary and to 4.3
//! JSON loads in the official 4.3 runtime (spine-core 4.3.13, `spine43-oracle`), including
//! 3.8 `hero-pro.json`, which spine-cpp 3.8 itself cannot load. Posed at the times of its own
//! version's goldens (`../shared/oracle/spine-<v>`, that version's official runtime) and
//! compared bone by bone within `1e-3 · max(1, |golden|)` (`tests/convert_oracle.rs`), the 4.3
//! binary and the 4.3 JSON give the same figures:
//!
//! | source | pose samples matching | rigs matching at every sample |
//! | ------ | --------------------- | ----------------------------- |
//! | 3.5    | 986 / 1036 (95.2 %)   | 28 / 36                       |
//! | 3.6    | 1302 / 1366 (95.3 %)  | 30 / 36                       |
//! | 3.7    | 1382 / 1396 (99.0 %)  | 40 / 42                       |
//! | 3.8    | 1452 / 1452 (100 %)   | 41 / 41                       |
//! | 4.0    | 1576 / 1576 (100 %)   | 42 / 42                       |
//! | 4.1    | 2280 / 2280 (100 %)   | 44 / 44                       |
//! | 4.2    | 2654 / 2654 (100 %)   | 52 / 52                       |
//!
//! Each remaining difference is one of the documented semantic ones, and the test checks
//! that every differing bone is explained:
//! * 3.5 `stretchyman`, `tank`, `test`, `vine` and 3.6 `stretchyman-pro`, `tank-pro`,
//!   `vine-pro` (binary and JSON sources): bones on path constraints, which spine-c 3.5/3.6
//!   space and orient with their own rules;
//! * 3.7 `stretchyman-stretchy-ik-pro`: path-constrained legs whose path attachments are
//!   weighted to bones of stretching IK chains, which 3.7 IK solves differently.
//!
//! The 4.2 target, posed by this project's runtime (which matches the 4.2 goldens
//! everywhere), gives exactly the same figures.

use std::collections::HashMap;

use spine_format::binary::shared::{Channels, CurveKey, CurveTimeline, CurveType, DrawOrderChange};
use spine_format::binary::v43 as w;
use spine_format::binary::StrRef;

use super::common::Strings;
use crate::anim::*;
use crate::data::*;
use crate::ids::*;

/// What the model does not keep but the source had: carried into the target file.
#[derive(Debug, Clone, Default)]
pub struct Extras {
    /// The 8 bytes of a 4.x hash (or of an 11-character base64 3.x hash).
    pub hash: Option<[u8; 8]>,
    /// The images folder.
    pub images: Option<String>,
    /// The audio folder.
    pub audio: Option<String>,
}

/// Things the conversion could not carry over exactly, one line each (deduplicated).
#[derive(Debug, Default)]
pub struct Notes {
    lines: Vec<String>,
}

impl Notes {
    /// Adds a line once.
    pub fn add(&mut self, line: impl Into<String>) {
        let line = line.into();
        if !self.lines.contains(&line) {
            self.lines.push(line);
        }
    }
    /// The lines.
    pub fn into_lines(self) -> Vec<String> {
        self.lines
    }
}

/// Why an upgrade failed.
#[derive(Debug, Clone, PartialEq)]
pub struct UpgradeError(pub String);

// ---------------------------------------------------------------------------------------
// Curves
// ---------------------------------------------------------------------------------------

/// Weights of the two inner control points at the 9 sample parameters `t = 0.1 … 0.9`.
fn basis(j: usize) -> (f64, f64, f64, f64) {
    let t = (j + 1) as f64 / 10.0;
    let u = 1.0 - t;
    (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t)
}

/// The inner control points `(c1, c2)` of one coordinate of a cubic bezier from `p0` to `p3`
/// whose samples at `t = 0.1 … 0.9` are `samples` (least squares).
fn inner(samples: [f64; 9], p0: f64, p3: f64) -> (f64, f64) {
    let (mut s11, mut s12, mut s22, mut r1, mut r2) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for (j, &x) in samples.iter().enumerate() {
        let (a, b1, b2, d) = basis(j);
        let r = x - a * p0 - d * p3;
        s11 += b1 * b1;
        s12 += b1 * b2;
        s22 += b2 * b2;
        r1 += b1 * r;
        r2 += b2 * r;
    }
    let det = s11 * s22 - s12 * s12;
    ((r1 * s22 - r2 * s12) / det, (s11 * r2 - s12 * r1) / det)
}

/// `(cx1, cy1, cx2, cy2)` of the bezier whose 9 precomputed points are `p` (18 floats),
/// from `(x0, y0)` to `(x3, y3)`.
fn bezier_of(p: &[f32], (x0, y0): (f32, f32), (x3, y3): (f32, f32)) -> [f32; 4] {
    let mut xs = [0.0; 9];
    let mut ys = [0.0; 9];
    for j in 0..9 {
        xs[j] = f64::from(p.get(2 * j).copied().unwrap_or(0.0));
        ys[j] = f64::from(p.get(2 * j + 1).copied().unwrap_or(0.0));
    }
    let (cx1, cx2) = inner(xs, f64::from(x0), f64::from(x3));
    let (cy1, cy2) = inner(ys, f64::from(y0), f64::from(y3));
    [cx1 as f32, cy1 as f32, cx2 as f32, cy2 as f32]
}

/// 3.x `RotateTimeline`'s wrap of a difference into `[-180, 180)`.
fn wrap180(r: f32) -> f32 {
    let r = f64::from(r);
    (r - f64::from(16384 - (16384.499999999996 - r / 360.0) as i32) * 360.0) as f32
}

/// A timeline's keys in the 4.x form: times, values per key, and per segment its curve with
/// one `(cx1, cy1, cx2, cy2)` per channel (one for deform curves, `cy` a percent).
struct Keys {
    times: Vec<f32>,
    values: Vec<Vec<f32>>,
    curves: Vec<(CurveType, Vec<[f32; 4]>)>,
}

fn keys_of(a: &AnimationData, c: &Curves, unwrap_rotation: bool) -> Keys {
    let t = a.table(c);
    let n = t.frame_count();
    let ch = t.channels;
    let times: Vec<f32> = (0..n).map(|k| t.time(k)).collect();
    let original: Vec<Vec<f32>> =
        (0..n).map(|k| (0..ch).map(|c| t.value(k, c)).collect()).collect();
    let mut values = original.clone();
    if unwrap_rotation {
        for k in 1..n {
            for c in 0..ch {
                values[k][c] = values[k - 1][c] + wrap180(original[k][c] - original[k - 1][c]);
            }
        }
    }
    let mut curves = Vec::with_capacity(n.saturating_sub(1));
    for k in 0..n.saturating_sub(1) {
        let ty = t.curve(k);
        if ty == LINEAR {
            curves.push((CurveType::Linear, Vec::new()));
            continue;
        }
        if ty == STEPPED {
            curves.push((CurveType::Stepped, Vec::new()));
            continue;
        }
        let i = (ty - BEZIER) as usize;
        let (t1, t2) = (times[k], times[k + 1]);
        let mut b = Vec::new();
        match t.model {
            CurveModel::Sampled3x => {
                let p = t.curves.get(i..i + BEZIER_SIZE).unwrap_or(&[]);
                let [cx1, cy1, cx2, cy2] = bezier_of(p, (0.0, 0.0), (1.0, 1.0));
                let (x1, x2) = (t1 + cx1 * (t2 - t1), t1 + cx2 * (t2 - t1));
                if ch == 0 {
                    b.push([x1, cy1, x2, cy2]);
                }
                for (&v1, &v2) in values[k].iter().zip(&values[k + 1]) {
                    b.push([x1, v1 + cy1 * (v2 - v1), x2, v1 + cy2 * (v2 - v1)]);
                }
            }
            CurveModel::Bezier4x => {
                if ch == 0 {
                    let p = t.curves.get(i..i + BEZIER_SIZE).unwrap_or(&[]);
                    b.push(bezier_of(p, (t1, 0.0), (t2, 1.0)));
                }
                for (c, (&v1, &v2)) in values[k].iter().zip(&values[k + 1]).enumerate() {
                    let at = i + c * BEZIER_SIZE;
                    let p = t.curves.get(at..at + BEZIER_SIZE).unwrap_or(&[]);
                    b.push(bezier_of(p, (t1, v1), (t2, v2)));
                }
            }
        }
        curves.push((CurveType::Bezier, b));
    }
    Keys { times, values, curves }
}

impl Keys {
    /// A 4.x curve timeline with values made by `make` (from each key's channels).
    fn timeline<V: Channels>(&self, make: impl Fn(&[f32]) -> V) -> CurveTimeline<V> {
        let mut bezier_count = 0;
        let frames = (0..self.times.len())
            .map(|k| {
                let mut key = CurveKey::linear(self.times[k], make(&self.values[k]));
                if let Some((ty, b)) = self.curves.get(k) {
                    key.curve = *ty;
                    if *ty == CurveType::Bezier {
                        bezier_count += V::COUNT as u32;
                        for (dst, src) in key.bezier.as_mut().iter_mut().zip(b) {
                            *dst = *src;
                        }
                    }
                }
                key
            })
            .collect();
        CurveTimeline { bezier_count, frames }
    }
}

fn byte(v: f32) -> u8 {
    (v * 255.0).round().clamp(0.0, 255.0) as u8
}

fn rgba(c: Color) -> [u8; 4] {
    [byte(c.r), byte(c.g), byte(c.b), byte(c.a)]
}

fn arr<const N: usize>(v: &[f32]) -> [f32; N] {
    let mut out = [0.0; N];
    for (o, x) in out.iter_mut().zip(v) {
        *o = *x;
    }
    out
}

fn bytes<const N: usize>(v: &[f32]) -> [u8; N] {
    let mut out = [0; N];
    for (o, x) in out.iter_mut().zip(v) {
        *o = byte(*x);
    }
    out
}

/// The `(slot, offset)` changes that rebuild `order` from the setup order (the runtimes'
/// `readDrawOrder`); `indices` map each slot to its position in the list being reordered.
pub(crate) fn draw_order_changes(order: &[u32]) -> Vec<DrawOrderChange> {
    let n = order.len();
    let mut pos = vec![0usize; n];
    for (p, &s) in order.iter().enumerate() {
        if let Some(x) = pos.get_mut(s as usize) {
            *x = p;
        }
    }
    let moved: Vec<DrawOrderChange> = (0..n)
        .filter(|&s| pos[s] != s)
        .map(|s| DrawOrderChange { slot: s as u32, shift: pos[s] as i32 - s as i32 })
        .collect();
    if decode(n, &moved) == order {
        return moved;
    }
    (0..n).map(|s| DrawOrderChange { slot: s as u32, shift: pos[s] as i32 - s as i32 }).collect()
}

/// The runtimes' `readDrawOrder`.
fn decode(n: usize, changes: &[DrawOrderChange]) -> Vec<u32> {
    let mut order = vec![u32::MAX; n];
    let mut unchanged = Vec::with_capacity(n);
    let mut original = 0usize;
    for c in changes {
        while original < c.slot as usize {
            unchanged.push(original as u32);
            original += 1;
        }
        let at = original as i64 + i64::from(c.shift);
        if let Some(x) = usize::try_from(at).ok().and_then(|a| order.get_mut(a)) {
            *x = original as u32;
        }
        original += 1;
    }
    while original < n {
        unchanged.push(original as u32);
        original += 1;
    }
    for i in (0..n).rev() {
        if order[i] == u32::MAX {
            order[i] = unchanged.pop().unwrap_or(0);
        }
    }
    order
}

// ---------------------------------------------------------------------------------------
// The 4.3 target
// ---------------------------------------------------------------------------------------

/// Where each attachment is: skin, slot, placeholder.
fn locations(d: &SkeletonData) -> HashMap<AttachmentId, (u32, u32, std::sync::Arc<str>)> {
    let mut m = HashMap::new();
    for (si, s) in d.skins.iter().enumerate() {
        for e in &s.entries {
            m.entry(e.attachment).or_insert((si as u32, e.slot.0, e.name.clone()));
        }
    }
    m
}

fn semantic_notes(d: &SkeletonData, to43: bool, notes: &mut Notes) {
    let b = &d.behaviour;
    let has = |ty: ConstraintType| d.constraints.iter().any(|c| c.kind.constraint_type() == ty);
    if b.ik_without_inherit && has(ConstraintType::Ik) {
        notes.add(
            "IK: 3.5-3.7 IK (no inherit-mode handling, the chain parent posed from its local \
             rotation) is solved with the target version's IK",
        );
    }
    if b.path_scales_every_spacing && has(ConstraintType::Path) {
        notes.add(
            "path constraints: the 3.5/3.6 spine-c spacing and tangent rules are replaced by \
             the target version's",
        );
    }
    for (ci, c) in d.constraints.iter().enumerate() {
        let ConstraintKind::Transform(t) = &c.kind else { continue };
        let keyed = || {
            d.animations.iter().flat_map(|a| a.timelines.iter().map(move |x| (a, x))).filter_map(
                move |(a, x)| match x {
                    Timeline::Transform { constraint, curves } if constraint.index() == ci => {
                        Some(a.table(curves))
                    }
                    _ => None,
                },
            )
        };
        // The mixes of a channel, setup and keys.
        let mixes = |ch: usize| {
            let mut v = vec![t.mixes[ch]];
            for table in keyed() {
                v.extend((0..table.frame_count()).map(|k| table.value(k, ch)));
            }
            v
        };
        let (sx, sy, sh) = (
            mixes(transform_slot::SCALE_X),
            mixes(transform_slot::SCALE_Y),
            mixes(transform_slot::SHEAR_Y),
        );
        let local_absolute = t.local_target && !t.additive;
        if t.solver == TransformSolver::Legacy3x {
            if local_absolute {
                notes.add(format!(
                    "transform constraint {:?}: 3.x wraps the local rotation and shear differences \
                     into [-180, 180]; the target does not",
                    c.name
                ));
            }
            if sx.iter().chain(&sy).chain(&sh).any(|&m| m < 0.0) {
                notes.add(format!(
                    "transform constraint {:?}: 3.x ignores negative scale and shear mixes; the \
                     target applies them",
                    c.name
                ));
            }
        }
        let scale_mixed = sx.iter().chain(&sy).any(|&m| m != 0.0);
        if to43 && local_absolute && scale_mixed && t.solver != TransformSolver::FromTo {
            notes.add(format!(
                "transform constraint {:?}: 4.x local absolute scale mixing (divided by the bone's \
                 scale) becomes 4.3's",
                c.name
            ));
        }
    }
    if to43 && b.physics && !b.physics_lagged_offsets && has(ConstraintType::Physics) {
        notes.add(
            "physics: simulated with the 4.3 rules (lag interpolation, limits, wind, gravity)",
        );
    }
    if b.rotation_mix == RotationMix::Spine3
        || b.mix_without_hold
        || b.event_window == EventWindow::Spine3
    {
        notes.add(
            "AnimationState: mixing between animations, rotation mixing and event windows \
             follow the target version's rules",
        );
    }
}

/// The SkeletonData of any version as a 4.3 binary skeleton.
pub fn to_v43(
    d: &SkeletonData,
    extras: &Extras,
    notes: &mut Notes,
) -> Result<w::Skeleton, UpgradeError> {
    semantic_notes(d, true, notes);
    let mut strings = Strings::default();
    let ne = d.bones.iter().any(|b| b.color.is_some());
    let (hash_low, hash_high) = match extras.hash {
        Some(b) => (
            i32::from_be_bytes([b[0], b[1], b[2], b[3]]),
            i32::from_be_bytes([b[4], b[5], b[6], b[7]]),
        ),
        None => (0, 0),
    };
    let header = w::Header {
        hash_low,
        hash_high,
        version: "4.3.0".into(),
        x: d.x,
        y: d.y,
        width: d.width,
        height: d.height,
        reference_scale: d.reference_scale,
        nonessential: ne.then(|| w::NonessentialHeader {
            fps: d.fps,
            images_path: extras.images.clone(),
            audio_path: extras.audio.clone(),
        }),
    };
    let bones = d
        .bones
        .iter()
        .map(|b| w::Bone {
            name: b.name.clone(),
            parent: b.parent.map(|p| p.0),
            rotation: b.rotation,
            x: b.x,
            y: b.y,
            scale_x: b.scale_x,
            scale_y: b.scale_y,
            shear_x: b.shear_x,
            shear_y: b.shear_y,
            inherit: match b.inherit {
                Inherit::Normal => w::Inherit::Normal,
                Inherit::OnlyTranslation => w::Inherit::OnlyTranslation,
                Inherit::NoRotationOrReflection => w::Inherit::NoRotationOrReflection,
                Inherit::NoScale => w::Inherit::NoScale,
                Inherit::NoScaleOrReflection => w::Inherit::NoScaleOrReflection,
            },
            length: b.length,
            skin_required: b.skin_required,
            nonessential: ne.then(|| w::BoneExtras {
                color: b.color.map_or([0x98, 0x98, 0x98, 0xff], rgba),
                icon: None,
                icon_size: 1.0,
                icon_rotation: 0.0,
                visible: true,
            }),
        })
        .collect();
    let slots = d
        .slots
        .iter()
        .map(|s| w::Slot {
            name: s.name.clone(),
            bone: s.bone.0,
            color: rgba(s.color),
            dark_color: s.dark_color.map_or([0xff; 4], |c| [0, byte(c.r), byte(c.g), byte(c.b)]),
            attachment: strings.opt(s.attachment.as_deref()),
            blend: match s.blend {
                BlendMode::Normal => w::BlendMode::Normal,
                BlendMode::Additive => w::BlendMode::Additive,
                BlendMode::Multiply => w::BlendMode::Multiply,
                BlendMode::Screen => w::BlendMode::Screen,
            },
            visible: ne.then_some(true),
        })
        .collect();
    let constraints = d.constraints.iter().map(constraint_v43).collect();
    let loc = locations(d);
    // 4.3 mesh timeline slots: the slots of the linked meshes that inherit a mesh's
    // timelines from another slot (as the 4.3 loaders derive them).
    let mut extra: HashMap<AttachmentId, Vec<u32>> = HashMap::new();
    for s in &d.skins {
        for e in &s.entries {
            if let AttachmentKind::Mesh(m) = &d.attachment(e.attachment).kind {
                if let Some(source) = m.linked_source {
                    let other = loc.get(&source).is_some_and(|l| l.1 != e.slot.0);
                    if m.timeline_attachment == source && other {
                        let list = extra.entry(source).or_default();
                        if !list.contains(&e.slot.0) {
                            list.push(e.slot.0);
                        }
                    }
                }
            }
        }
    }
    let mut default_skin = None;
    let mut skins = Vec::new();
    for (si, s) in d.skins.iter().enumerate() {
        let mut slots: Vec<w::SkinSlot> = Vec::new();
        for e in &s.entries {
            let att = d.attachment(e.attachment);
            let mut a = attachment_v43(att, e, &loc, &mut strings, ne, notes)?;
            if let w::AttachmentKind::Mesh(m) = &mut a.attachment.kind {
                m.timeline_slots = extra.get(&e.attachment).cloned().unwrap_or_default();
            }
            match slots.last_mut() {
                Some(sl) if sl.slot == e.slot.0 => sl.attachments.push(a),
                _ => slots.push(w::SkinSlot { slot: e.slot.0, attachments: vec![a] }),
            }
        }
        if Some(SkinId(si as u32)) == d.default_skin {
            default_skin = Some(slots);
        } else {
            skins.push(w::Skin {
                name: s.name.clone(),
                color: ne.then(|| s.color.map_or([0; 4], rgba)),
                bones: s.bones.iter().map(|b| b.0).collect(),
                constraints: s.constraints.iter().map(|c| c.0).collect(),
                slots,
            });
        }
    }
    let events = d
        .events
        .iter()
        .map(|e| w::Event {
            name: e.name.clone(),
            int_value: e.int_value,
            float_value: e.float_value,
            string_value: Some(e.string_value.clone()),
            audio_path: (!e.audio_path.is_empty()).then(|| e.audio_path.clone()),
            volume_balance: (!e.audio_path.is_empty()).then_some([e.volume, e.balance]),
        })
        .collect();
    let animations =
        d.animations.iter().map(|a| animation_v43(d, a, &loc, &mut strings, ne)).collect();
    Ok(w::Skeleton {
        header,
        strings: strings.list.into_iter().map(Some).collect(),
        bones,
        slots,
        constraints,
        default_skin,
        skins,
        events,
        animations,
    })
}

fn prop43(p: TransformProperty) -> w::TransformProperty {
    match p {
        TransformProperty::Rotate => w::TransformProperty::Rotate,
        TransformProperty::X => w::TransformProperty::X,
        TransformProperty::Y => w::TransformProperty::Y,
        TransformProperty::ScaleX => w::TransformProperty::ScaleX,
        TransformProperty::ScaleY => w::TransformProperty::ScaleY,
        TransformProperty::ShearY => w::TransformProperty::ShearY,
    }
}

fn scale_y43(m: ScaleYMode) -> w::ScaleYMode {
    match m {
        ScaleYMode::None => w::ScaleYMode::None,
        ScaleYMode::Uniform => w::ScaleYMode::Uniform,
        ScaleYMode::Volume => w::ScaleYMode::Volume,
    }
}

fn constraint_v43(c: &ConstraintData) -> w::Constraint {
    let skin = u8::from(c.skin_required);
    let kind = match &c.kind {
        ConstraintKind::Ik(k) => {
            let mut flags = skin;
            if k.scale_y_mode != ScaleYMode::None {
                flags |= 2;
            }
            if k.bend_direction < 0 {
                flags |= 4;
            }
            if k.compress {
                flags |= 8;
            }
            if k.stretch {
                flags |= 16;
            }
            let mix = if k.mix == 0.0 {
                None
            } else if k.mix == 1.0 {
                flags |= 32;
                None
            } else {
                flags |= 32 | 64;
                Some(k.mix)
            };
            let softness = (k.softness != 0.0).then_some(k.softness);
            if softness.is_some() {
                flags |= 128;
            }
            w::ConstraintKind::Ik(w::IkConstraint {
                bones: k.bones.iter().map(|b| b.0).collect(),
                target: k.target.0,
                flags,
                scale_y_mode: (k.scale_y_mode != ScaleYMode::None)
                    .then(|| scale_y43(k.scale_y_mode)),
                mix,
                softness,
            })
        }
        ConstraintKind::Transform(t) => {
            let mut flags = skin;
            for (bit, v) in [t.local_source, t.local_target, t.additive, t.clamp].iter().enumerate()
            {
                if *v {
                    flags |= 2 << bit;
                }
            }
            let properties = match t.solver {
                TransformSolver::FromTo => t
                    .properties
                    .iter()
                    .map(|f| w::FromProperty {
                        property: prop43(f.property),
                        offset: f.offset,
                        to: f
                            .to
                            .iter()
                            .map(|to| w::ToProperty {
                                property: prop43(to.property),
                                offset: to.offset,
                                max: to.max,
                                scale: to.scale,
                            })
                            .collect(),
                    })
                    .collect(),
                // 3.x / 4.0–4.2: the identity mapping of the six properties.
                _ => [
                    w::TransformProperty::Rotate,
                    w::TransformProperty::X,
                    w::TransformProperty::Y,
                    w::TransformProperty::ScaleX,
                    w::TransformProperty::ScaleY,
                    w::TransformProperty::ShearY,
                ]
                .into_iter()
                .map(|p| w::FromProperty {
                    property: p,
                    offset: 0.0,
                    to: vec![w::ToProperty { property: p, offset: 0.0, max: 1.0, scale: 1.0 }],
                })
                .collect(),
            };
            let mut offsets = [None; 6];
            let mut offset_flags = 0u8;
            let mut mixes = [None; 6];
            let mut mix_flags = 0u8;
            for i in 0..6 {
                if t.offsets[i] != 0.0 {
                    offsets[i] = Some(t.offsets[i]);
                    offset_flags |= 1 << i;
                }
                if t.mixes[i] != 0.0 {
                    mixes[i] = Some(t.mixes[i]);
                    mix_flags |= 1 << i;
                }
            }
            w::ConstraintKind::Transform(w::TransformConstraint {
                bones: t.bones.iter().map(|b| b.0).collect(),
                source: t.source.0,
                flags,
                properties,
                offset_flags,
                offsets,
                mix_flags,
                mixes,
            })
        }
        ConstraintKind::Path(p) => {
            let mut flags = skin;
            if p.position_mode == PositionMode::Percent {
                flags |= 2;
            }
            flags |= (match p.spacing_mode {
                SpacingMode::Length => 0,
                SpacingMode::Fixed => 1,
                SpacingMode::Percent => 2,
                SpacingMode::Proportional => 3,
            }) << 2;
            flags |= (match p.rotate_mode {
                RotateMode::Tangent => 0,
                RotateMode::Chain => 1,
                RotateMode::ChainScale => 2,
            }) << 4;
            let offset_rotation = (p.offset_rotation != 0.0).then_some(p.offset_rotation);
            if offset_rotation.is_some() {
                flags |= 128;
            }
            w::ConstraintKind::Path(w::PathConstraint {
                bones: p.bones.iter().map(|b| b.0).collect(),
                slot: p.slot.0,
                flags,
                offset_rotation,
                position: p.position,
                spacing: p.spacing,
                mix_rotate: p.mix_rotate,
                mix_x: p.mix_x,
                mix_y: p.mix_y,
            })
        }
        ConstraintKind::Physics(p) => {
            let mut flags = skin;
            let scale_x = match p.scale_y_mode {
                ScaleYMode::None => p.scale_x,
                ScaleYMode::Uniform => -1.0 - p.scale_x,
                ScaleYMode::Volume => -2.0 - p.scale_x,
            };
            let opt = |v: f32| (v != 0.0).then_some(v);
            let (x, y, rotate, scale_x, shear_x) =
                (opt(p.x), opt(p.y), opt(p.rotate), opt(scale_x), opt(p.shear_x));
            let limit = (p.limit != 5000.0).then_some(p.limit);
            for (bit, v) in [x, y, rotate, scale_x, shear_x, limit].iter().enumerate() {
                if v.is_some() {
                    flags |= 2 << bit;
                }
            }
            let mass_inverse = (p.mass_inverse != 1.0).then_some(p.mass_inverse);
            if mass_inverse.is_some() {
                flags |= 128;
            }
            let g = &p.globals;
            let mut global_flags = 0u8;
            for (i, v) in [g.inertia, g.strength, g.damping, g.mass, g.wind, g.gravity, g.mix]
                .iter()
                .enumerate()
            {
                if *v {
                    global_flags |= 1 << i;
                }
            }
            let mix = (p.mix != 1.0).then_some(p.mix);
            if mix.is_some() {
                global_flags |= 128;
            }
            w::ConstraintKind::Physics(w::PhysicsConstraint {
                bone: p.bone.0,
                flags,
                x,
                y,
                rotate,
                scale_x,
                shear_x,
                limit,
                fps: (1.0 / p.step).round().clamp(1.0, 255.0) as u8,
                inertia: p.inertia,
                strength: p.strength,
                damping: p.damping,
                mass_inverse,
                wind: p.wind,
                gravity: p.gravity,
                global_flags,
                mix,
            })
        }
        ConstraintKind::Slider(s) => {
            let mut flags = skin;
            if s.looping {
                flags |= 2;
            }
            if s.additive {
                flags |= 4;
            }
            let value = (s.bone.is_none() && s.time != 0.0).then_some(s.time);
            if value.is_some() {
                flags |= 8;
            }
            let mix = if s.mix == 0.0 {
                None
            } else if s.mix == 1.0 {
                flags |= 16;
                None
            } else {
                flags |= 16 | 32;
                Some(s.mix)
            };
            let bone = s.bone.as_ref().map(|b| {
                flags |= 64;
                if s.local {
                    flags |= 128;
                }
                w::SliderBone {
                    bone: b.bone.0,
                    property_offset: b.property_offset,
                    property: prop43(b.property),
                    offset: b.offset,
                    scale: b.scale,
                }
            });
            w::ConstraintKind::Slider(w::SliderConstraint {
                flags,
                value,
                mix,
                bone,
                animation: s.animation.0,
            })
        }
    };
    w::Constraint { name: c.name.clone(), kind }
}

fn vertices43(v: &Vertices) -> w::Vertices {
    match v {
        Vertices::Unweighted(xy) => w::Vertices::Unweighted(xy.clone()),
        Vertices::Weighted(wv) => {
            let mut out = w::WeightedVertices {
                counts: Vec::with_capacity(wv.counts.len()),
                bones: Vec::with_capacity(wv.bones.len()),
                values: Vec::with_capacity(wv.bones.len() * 3),
            };
            let mut i = 0usize;
            for &n in &wv.counts {
                for _ in 0..n {
                    let b = wv.bones.get(i).map_or(0, |b| b.0);
                    let v = wv.values.get(i * 3..i * 3 + 3).unwrap_or(&[0.0; 3]);
                    out.bones.push(b);
                    out.values.extend_from_slice(&v[..3]);
                    i += 1;
                }
                out.counts.push(n);
            }
            w::Vertices::Weighted(out)
        }
    }
}

fn sequence43(s: &SequenceData, has: bool) -> Option<w::Sequence> {
    has.then(|| w::Sequence {
        count: s.len() as u32,
        start: s.start,
        digits: s.digits,
        setup_index: s.setup_index,
    })
}

/// The hull count that makes a 4.2/4.3 binary's implied triangle count agree.
pub(crate) fn hull_for(vertex_count: usize, triangle_indices: usize, hull: u32) -> Option<u32> {
    let implied = |h: i64| (2 * vertex_count as i64 - h - 2) * 3;
    if implied(i64::from(hull)) == triangle_indices as i64 {
        return Some(hull);
    }
    if !triangle_indices.is_multiple_of(3) {
        return None;
    }
    let h = 2 * vertex_count as i64 - 2 - (triangle_indices / 3) as i64;
    (0..=vertex_count as i64).contains(&h).then_some(h as u32)
}

fn attachment_v43(
    att: &AttachmentData,
    e: &SkinEntry,
    loc: &HashMap<AttachmentId, (u32, u32, std::sync::Arc<str>)>,
    strings: &mut Strings,
    ne: bool,
    notes: &mut Notes,
) -> Result<w::SkinEntry, UpgradeError> {
    let placeholder = strings.get(&e.name);
    let name = (*att.name != *e.name).then(|| strings.get(&att.name));
    let mut flags = if name.is_some() { 8 } else { 0 };
    let color = |c: Color| (c != Color::WHITE).then(|| rgba(c));
    let bits = |list: [bool; 4]| {
        list.iter().enumerate().fold(0u8, |f, (i, &b)| if b { f | (16 << i) } else { f })
    };
    let kind = match &att.kind {
        AttachmentKind::Region(r) => {
            let path = (*r.path != *att.name).then(|| strings.get(&r.path));
            let sequence = sequence43(&r.sequence, r.has_sequence);
            let rotation = (r.rotation != 0.0).then_some(r.rotation);
            let color = color(r.color);
            flags |=
                bits([path.is_some(), color.is_some(), sequence.is_some(), rotation.is_some()]);
            w::AttachmentKind::Region(w::RegionAttachment {
                path,
                color,
                sequence,
                rotation,
                x: r.x,
                y: r.y,
                scale_x: r.scale_x,
                scale_y: r.scale_y,
                width: r.width,
                height: r.height,
            })
        }
        AttachmentKind::BoundingBox(b) => {
            let vertices = vertices43(&b.vertices);
            flags |= bits([vertices.is_weighted(), false, false, false]);
            w::AttachmentKind::BoundingBox(w::BoundingBoxAttachment {
                vertices,
                color: ne.then(|| b.color.map_or([0x60, 0xf0, 0, 0xff], rgba)),
            })
        }
        AttachmentKind::Mesh(m) => {
            let path = (*m.path != *att.name).then(|| strings.get(&m.path));
            let sequence = sequence43(&m.sequence, m.has_sequence);
            let color = color(m.color);
            match m.linked_source.and_then(|s| loc.get(&s).map(|l| (s, l))) {
                Some((source, (skin, source_slot, source_name))) => {
                    let inherit = m.timeline_attachment == source;
                    flags |= bits([path.is_some(), color.is_some(), sequence.is_some(), inherit]);
                    w::AttachmentKind::LinkedMesh(w::LinkedMeshAttachment {
                        path,
                        color,
                        sequence,
                        source_slot: *source_slot,
                        skin: *skin,
                        source: strings.get(source_name),
                        size: ne.then_some([m.width, m.height]),
                    })
                }
                None => {
                    let vertices = vertices43(&m.vertices);
                    let n = m.region_uvs.len() / 2;
                    let hull = match hull_for(n, m.triangles.len(), m.hull_length) {
                        Some(h) => {
                            if h != m.hull_length {
                                notes.add(format!(
                                    "mesh {:?}: hull count {} changed to {h} (4.2+ binaries imply the \
                                     triangle count from it; the hull is editor data)",
                                    &*att.name, m.hull_length
                                ));
                            }
                            h
                        }
                        None => {
                            return Err(UpgradeError(format!(
                                "mesh {:?}: {} triangle indices cannot be stored in a 4.2+ binary \
                                 with {n} vertices",
                                &*att.name,
                                m.triangles.len()
                            )))
                        }
                    };
                    flags |= bits([
                        path.is_some(),
                        color.is_some(),
                        sequence.is_some(),
                        vertices.is_weighted(),
                    ]);
                    w::AttachmentKind::Mesh(w::MeshAttachment {
                        path,
                        color,
                        sequence,
                        hull_length: hull,
                        vertices,
                        uvs: m.region_uvs.clone(),
                        triangles: m.triangles.clone(),
                        timeline_slots: Vec::new(),
                        nonessential: ne.then(|| w::MeshExtras {
                            edges: m.edges.clone(),
                            width: m.width,
                            height: m.height,
                        }),
                    })
                }
            }
        }
        AttachmentKind::Path(p) => {
            let vertices = vertices43(&p.vertices);
            flags |= bits([p.closed, p.constant_speed, vertices.is_weighted(), false]);
            w::AttachmentKind::Path(w::PathAttachment {
                vertices,
                lengths: p.lengths.clone(),
                color: ne.then(|| p.color.map_or([0xff, 0x77, 0, 0xff], rgba)),
            })
        }
        AttachmentKind::Point(p) => w::AttachmentKind::Point(w::PointAttachment {
            rotation: p.rotation,
            x: p.x,
            y: p.y,
            color: ne.then(|| p.color.map_or([0xf1, 0xf1, 0, 0xff], rgba)),
        }),
        AttachmentKind::Clipping(c) => {
            let vertices = vertices43(&c.vertices);
            flags |= bits([vertices.is_weighted(), false, false, false]);
            w::AttachmentKind::Clipping(w::ClippingAttachment {
                end_slot: c.end_slot.0,
                vertices,
                color: ne.then(|| c.color.map_or([0xce, 0x3a, 0x3a, 0xff], rgba)),
            })
        }
    };
    Ok(w::SkinEntry {
        placeholder,
        attachment: w::Attachment { flags: flags | kind.type_code(), name, kind },
    })
}

fn animation_v43(
    d: &SkeletonData,
    a: &AnimationData,
    loc: &HashMap<AttachmentId, (u32, u32, std::sync::Arc<str>)>,
    strings: &mut Strings,
    ne: bool,
) -> w::Animation {
    let unwrap = d.behaviour.rotation_mix == RotationMix::Spine3;
    let mut out =
        w::Animation { name: a.name.clone(), color: ne.then_some([0; 4]), ..Default::default() };
    let mut count = 0u32;
    let slot_group = |list: &mut Vec<w::SlotTimelines>, slot: u32, t: w::SlotTimeline| match list
        .iter_mut()
        .find(|g| g.slot == slot)
    {
        Some(g) => g.timelines.push(t),
        None => list.push(w::SlotTimelines { slot, timelines: vec![t] }),
    };
    for t in &a.timelines {
        count += 1;
        match t {
            Timeline::Bone { bone, property, curves } => {
                let k = keys_of(a, curves, unwrap && *property == BoneProperty::Rotate);
                let t = match property {
                    BoneProperty::Rotate => w::BoneTimeline::Rotate(k.timeline(arr::<1>)),
                    BoneProperty::Translate => w::BoneTimeline::Translate(k.timeline(arr::<2>)),
                    BoneProperty::TranslateX => w::BoneTimeline::TranslateX(k.timeline(arr::<1>)),
                    BoneProperty::TranslateY => w::BoneTimeline::TranslateY(k.timeline(arr::<1>)),
                    BoneProperty::Scale => w::BoneTimeline::Scale(k.timeline(arr::<2>)),
                    BoneProperty::ScaleX => w::BoneTimeline::ScaleX(k.timeline(arr::<1>)),
                    BoneProperty::ScaleY => w::BoneTimeline::ScaleY(k.timeline(arr::<1>)),
                    BoneProperty::Shear => w::BoneTimeline::Shear(k.timeline(arr::<2>)),
                    BoneProperty::ShearX => w::BoneTimeline::ShearX(k.timeline(arr::<1>)),
                    BoneProperty::ShearY => w::BoneTimeline::ShearY(k.timeline(arr::<1>)),
                };
                push_bone(&mut out.bones, bone.0, t);
            }
            Timeline::Inherit { bone, keys } => {
                let t = w::BoneTimeline::Inherit(
                    keys.iter()
                        .map(|&(time, i)| w::InheritKey {
                            time,
                            inherit: match i {
                                Inherit::Normal => w::Inherit::Normal,
                                Inherit::OnlyTranslation => w::Inherit::OnlyTranslation,
                                Inherit::NoRotationOrReflection => {
                                    w::Inherit::NoRotationOrReflection
                                }
                                Inherit::NoScale => w::Inherit::NoScale,
                                Inherit::NoScaleOrReflection => w::Inherit::NoScaleOrReflection,
                            },
                        })
                        .collect(),
                );
                push_bone(&mut out.bones, bone.0, t);
            }
            Timeline::Attachment { slot, times, names } => {
                let keys = times
                    .iter()
                    .zip(names)
                    .map(|(&time, n)| w::AttachmentKey {
                        time,
                        attachment: strings.opt(n.as_deref()),
                    })
                    .collect();
                slot_group(&mut out.slots, slot.0, w::SlotTimeline::Attachment(keys));
            }
            Timeline::Color { slot, property, curves } => {
                let k = keys_of(a, curves, false);
                let t = match property {
                    ColorProperty::Rgba => w::SlotTimeline::Rgba(k.timeline(bytes::<4>)),
                    ColorProperty::Rgb => w::SlotTimeline::Rgb(k.timeline(bytes::<3>)),
                    ColorProperty::Rgba2 => w::SlotTimeline::Rgba2(k.timeline(bytes::<7>)),
                    ColorProperty::Rgb2 => w::SlotTimeline::Rgb2(k.timeline(bytes::<6>)),
                    ColorProperty::Alpha => w::SlotTimeline::Alpha(k.timeline(bytes::<1>)),
                };
                slot_group(&mut out.slots, slot.0, t);
            }
            Timeline::Deform { slot, attachment, curves, vertices } => {
                let Some((skin, _, name)) = loc.get(attachment) else { continue };
                let setup = match &d.attachment(*attachment).kind {
                    AttachmentKind::Mesh(m) => &m.vertices,
                    AttachmentKind::BoundingBox(b) => &b.vertices,
                    AttachmentKind::Path(p) => &p.vertices,
                    AttachmentKind::Clipping(c) => &c.vertices,
                    _ => continue,
                };
                let k = keys_of(a, curves, false);
                let keys = k
                    .times
                    .iter()
                    .zip(vertices)
                    .map(|(&time, v)| {
                        let offsets: Vec<f32> = match setup {
                            Vertices::Unweighted(xy) => {
                                v.iter().zip(xy).map(|(a, b)| a - b).collect()
                            }
                            Vertices::Weighted(_) => v.clone(),
                        };
                        let first = offsets.iter().position(|&x| x != 0.0);
                        let values = first.map(|s| {
                            let e = offsets.iter().rposition(|&x| x != 0.0).unwrap_or(s) + 1;
                            w::DeformValues { start: s as u32, values: offsets[s..e].to_vec() }
                        });
                        w::DeformKey { time, values }
                    })
                    .collect::<Vec<_>>();
                let mut beziers = Vec::new();
                let curves_t = k
                    .curves
                    .iter()
                    .map(|(ty, b)| {
                        if *ty == CurveType::Bezier {
                            beziers.extend(b.first().copied());
                        }
                        *ty
                    })
                    .collect();
                let timeline = w::DeformTimeline {
                    bezier_count: beziers.len() as u32,
                    keys,
                    curves: curves_t,
                    beziers,
                };
                push_attachment(
                    &mut out.attachments,
                    *skin,
                    slot.0,
                    strings.get(name),
                    w::AttachmentTimelineKind::Deform(timeline),
                );
            }
            Timeline::Sequence { slot, attachment, keys } => {
                let Some((skin, _, name)) = loc.get(attachment) else { continue };
                let keys = keys
                    .iter()
                    .map(|k| w::SequenceKey {
                        time: k.time,
                        mode: match k.mode {
                            SequenceMode::Hold => w::SequenceMode::Hold,
                            SequenceMode::Once => w::SequenceMode::Once,
                            SequenceMode::Loop => w::SequenceMode::Loop,
                            SequenceMode::PingPong => w::SequenceMode::PingPong,
                            SequenceMode::OnceReverse => w::SequenceMode::OnceReverse,
                            SequenceMode::LoopReverse => w::SequenceMode::LoopReverse,
                            SequenceMode::PingPongReverse => w::SequenceMode::PingPongReverse,
                        },
                        index: k.index,
                        delay: k.delay,
                    })
                    .collect();
                push_attachment(
                    &mut out.attachments,
                    *skin,
                    slot.0,
                    strings.get(name),
                    w::AttachmentTimelineKind::Sequence(keys),
                );
            }
            Timeline::Ik { constraint, curves, flags } => {
                let k = keys_of(a, curves, false);
                let mut bezier_count = 0;
                let keys = (0..k.times.len())
                    .map(|i| {
                        let (mix, softness) = (k.values[i][0], k.values[i][1]);
                        let f = flags.get(i).copied().unwrap_or(IkFlags {
                            bend_direction: 1,
                            compress: false,
                            stretch: false,
                        });
                        let mut fl = 0u8;
                        let mix_v = if mix == 0.0 {
                            None
                        } else if mix == 1.0 {
                            fl |= 1;
                            None
                        } else {
                            fl |= 1 | 2;
                            Some(mix)
                        };
                        let soft = (softness != 0.0).then_some(softness);
                        if soft.is_some() {
                            fl |= 4;
                        }
                        if f.bend_direction > 0 {
                            fl |= 8;
                        }
                        if f.compress {
                            fl |= 16;
                        }
                        if f.stretch {
                            fl |= 32;
                        }
                        let mut bezier = None;
                        if i > 0 {
                            match &k.curves[i - 1] {
                                (CurveType::Stepped, _) => fl |= 64,
                                (CurveType::Bezier, b) => {
                                    fl |= 128;
                                    bezier_count += 2;
                                    bezier = Some([
                                        b.first().copied().unwrap_or_default(),
                                        b.get(1).copied().unwrap_or_default(),
                                    ]);
                                }
                                _ => {}
                            }
                        }
                        w::IkKey { flags: fl, time: k.times[i], mix: mix_v, softness: soft, bezier }
                    })
                    .collect();
                out.ik.push(w::IkTimeline { constraint: constraint.0, bezier_count, keys });
            }
            Timeline::Transform { constraint, curves } => {
                let k = keys_of(a, curves, false);
                out.transform.push(w::TransformTimeline {
                    constraint: constraint.0,
                    timeline: k.timeline(arr::<6>),
                });
            }
            Timeline::Path { constraint, property, curves } => {
                let k = keys_of(a, curves, false);
                let t = match property {
                    PathProperty::Position => w::PathTimeline::Position(k.timeline(arr::<1>)),
                    PathProperty::Spacing => w::PathTimeline::Spacing(k.timeline(arr::<1>)),
                    PathProperty::Mix => w::PathTimeline::Mix(k.timeline(arr::<3>)),
                };
                match out.path.iter_mut().find(|g| g.constraint == constraint.0) {
                    Some(g) => g.timelines.push(t),
                    None => out
                        .path
                        .push(w::PathTimelines { constraint: constraint.0, timelines: vec![t] }),
                }
            }
            Timeline::Physics { constraint, property, curves } => {
                let k = keys_of(a, curves, false);
                let p = match property {
                    PhysicsProperty::Inertia => w::PhysicsProperty::Inertia,
                    PhysicsProperty::Strength => w::PhysicsProperty::Strength,
                    PhysicsProperty::Damping => w::PhysicsProperty::Damping,
                    PhysicsProperty::Mass => w::PhysicsProperty::Mass,
                    PhysicsProperty::Wind => w::PhysicsProperty::Wind,
                    PhysicsProperty::Gravity => w::PhysicsProperty::Gravity,
                    PhysicsProperty::Mix => w::PhysicsProperty::Mix,
                };
                let t = w::PhysicsTimeline::Property(p, k.timeline(arr::<1>));
                push_physics(&mut out.physics, constraint.map(|c| c.0), t);
            }
            Timeline::PhysicsReset { constraint, times } => {
                push_physics(
                    &mut out.physics,
                    constraint.map(|c| c.0),
                    w::PhysicsTimeline::Reset(times.clone()),
                );
            }
            Timeline::Slider { constraint, property, curves } => {
                let k = keys_of(a, curves, false);
                let t = match property {
                    SliderProperty::Time => w::SliderTimeline::Time(k.timeline(arr::<1>)),
                    SliderProperty::Mix => w::SliderTimeline::Mix(k.timeline(arr::<1>)),
                };
                match out.slider.iter_mut().find(|g| g.constraint == constraint.0) {
                    Some(g) => g.timelines.push(t),
                    None => out
                        .slider
                        .push(w::SliderTimelines { constraint: constraint.0, timelines: vec![t] }),
                }
            }
            Timeline::DrawOrder { times, orders } => {
                out.draw_order = times
                    .iter()
                    .zip(orders)
                    .map(|(&time, o)| w::DrawOrderKey {
                        time,
                        changes: o.as_ref().map_or_else(Vec::new, |o| {
                            draw_order_changes(&o.iter().map(|s| s.0).collect::<Vec<_>>())
                        }),
                    })
                    .collect();
            }
            Timeline::DrawOrderFolder { slots, times, orders } => {
                let folder: Vec<u32> = slots.iter().map(|s| s.0).collect();
                let keys = times
                    .iter()
                    .zip(orders)
                    .map(|(&time, o)| w::DrawOrderKey {
                        time,
                        changes: o.as_ref().map_or_else(Vec::new, |o| {
                            let local: Vec<u32> = o
                                .iter()
                                .map(|s| folder.iter().position(|f| *f == s.0).unwrap_or(0) as u32)
                                .collect();
                            draw_order_changes(&local)
                        }),
                    })
                    .collect();
                out.draw_order_folders.push(w::DrawOrderFolder { slots: folder, keys });
            }
            Timeline::Event { keys } => {
                out.events = keys
                    .iter()
                    .map(|k| {
                        let def = d.event(k.event);
                        let audio = !def.audio_path.is_empty();
                        w::EventKey {
                            time: k.time,
                            event: k.event.0,
                            int_value: k.int_value,
                            float_value: k.float_value,
                            string_value: (k.string_value != def.string_value)
                                .then(|| k.string_value.clone()),
                            volume_balance: audio.then_some([k.volume, k.balance]),
                        }
                    })
                    .collect();
            }
        }
    }
    out.timeline_hint = count;
    out
}

fn push_bone(list: &mut Vec<w::BoneTimelines>, bone: u32, t: w::BoneTimeline) {
    match list.iter_mut().find(|g| g.bone == bone) {
        Some(g) => g.timelines.push(t),
        None => list.push(w::BoneTimelines { bone, timelines: vec![t] }),
    }
}

fn push_physics(
    list: &mut Vec<w::PhysicsTimelines>,
    constraint: Option<u32>,
    t: w::PhysicsTimeline,
) {
    match list.iter_mut().find(|g| g.constraint == constraint) {
        Some(g) => g.timelines.push(t),
        None => list.push(w::PhysicsTimelines { constraint, timelines: vec![t] }),
    }
}

fn push_attachment(
    list: &mut Vec<w::AttachmentTimelinesSkin>,
    skin: u32,
    slot: u32,
    attachment: StrRef,
    kind: w::AttachmentTimelineKind,
) {
    let si = match list.iter().position(|s| s.skin == skin) {
        Some(i) => i,
        None => {
            list.push(w::AttachmentTimelinesSkin { skin, slots: Vec::new() });
            list.len() - 1
        }
    };
    let slots = &mut list[si].slots;
    let li = match slots.iter().position(|s| s.slot == slot) {
        Some(i) => i,
        None => {
            slots.push(w::AttachmentTimelinesSlot { slot, attachments: Vec::new() });
            slots.len() - 1
        }
    };
    slots[li].attachments.push(w::AttachmentTimeline { attachment, kind });
}

// ---------------------------------------------------------------------------------------
// The 4.2 target: the 4.3 AST made from the model, written in the 4.2 layout
// ---------------------------------------------------------------------------------------

use spine_format::binary::v40::{animation as wa, ast as v4};
use spine_format::SpineVersion;

/// The SkeletonData of a 3.5–4.2 skeleton as a 4.2 binary skeleton: the 4.3 form ([`to_v43`])
/// in the 4.2 layout (separate constraint lists with update `order`s, identity transform
/// constraints back to offsets and mixes, the 4.2 flag bits). A source using what 4.2 cannot
/// hold (4.3 sliders, draw-order folders, non-identity transform mappings) is refused.
pub fn to_v42(
    d: &SkeletonData,
    extras: &Extras,
    notes: &mut Notes,
) -> Result<v4::Skeleton, UpgradeError> {
    let mut n43 = Notes::default();
    let s = to_v43(d, extras, &mut n43)?;
    for line in n43.into_lines() {
        // The 4.3-only notes do not apply to a 4.2 target.
        if !line.contains("4.3") {
            notes.add(line);
        }
    }
    let strings: Vec<String> = s.strings.iter().map(|x| x.clone().unwrap_or_default()).collect();
    let h = &s.header;
    let header = v4::Header {
        hash: [h.hash_low, h.hash_high],
        version: "4.2.0".into(),
        x: h.x,
        y: h.y,
        width: h.width,
        height: h.height,
        reference_scale: Some(h.reference_scale),
        nonessential: h.nonessential.as_ref().map(|n| v4::HeaderExtras {
            fps: n.fps,
            images_path: n.images_path.clone(),
            audio_path: n.audio_path.clone(),
        }),
    };
    let bones = s
        .bones
        .iter()
        .map(|b| v4::Bone {
            name: b.name.clone(),
            parent: b.parent,
            rotation: b.rotation,
            x: b.x,
            y: b.y,
            scale_x: b.scale_x,
            scale_y: b.scale_y,
            shear_x: b.shear_x,
            shear_y: b.shear_y,
            length: b.length,
            inherit: match b.inherit {
                w::Inherit::Normal => v4::Inherit::Normal,
                w::Inherit::OnlyTranslation => v4::Inherit::OnlyTranslation,
                w::Inherit::NoRotationOrReflection => v4::Inherit::NoRotationOrReflection,
                w::Inherit::NoScale => v4::Inherit::NoScale,
                w::Inherit::NoScaleOrReflection => v4::Inherit::NoScaleOrReflection,
            },
            skin_required: b.skin_required,
            extras: b.nonessential.as_ref().map(|e| v4::BoneExtras {
                color: e.color,
                icon: e.icon.clone(),
                visible: e.visible,
            }),
        })
        .collect();
    let slots = s
        .slots
        .iter()
        .map(|sl| v4::Slot {
            name: sl.name.clone(),
            bone: sl.bone,
            color: sl.color,
            dark: sl.dark_color,
            attachment: sl.attachment,
            blend: match sl.blend {
                w::BlendMode::Normal => v4::BlendMode::Normal,
                w::BlendMode::Additive => v4::BlendMode::Additive,
                w::BlendMode::Multiply => v4::BlendMode::Multiply,
                w::BlendMode::Screen => v4::BlendMode::Screen,
            },
            visible: sl.visible,
        })
        .collect();
    // Per type: the unified index → the index in its list.
    let mut local = vec![0u32; s.constraints.len()];
    let (mut ik, mut transform, mut path, mut physics) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (order, c) in s.constraints.iter().enumerate() {
        let order = order as u32;
        match &c.kind {
            w::ConstraintKind::Ik(k) => {
                local[order as usize] = ik.len() as u32;
                let mut f = u8::from(k.skin_required());
                if k.bend_direction() > 0 {
                    f |= 2;
                }
                if k.compress() {
                    f |= 4;
                }
                if k.stretch() {
                    f |= 8;
                }
                match k.scale_y_mode {
                    Some(w::ScaleYMode::Uniform) => f |= 16,
                    Some(w::ScaleYMode::Volume) => {
                        return Err(UpgradeError(format!(
                            "IK constraint {:?}: the volume scale-y mode is 4.3 only",
                            c.name
                        )))
                    }
                    _ => {}
                }
                f |= k.flags & (32 | 64 | 128);
                ik.push(v4::IkConstraint {
                    name: c.name.clone(),
                    order,
                    bones: k.bones.clone(),
                    target: k.target,
                    flags: Some(f),
                    skin_required: k.skin_required(),
                    mix: k.mix,
                    softness: k.softness,
                    bend_direction: k.bend_direction() as i8,
                    compress: k.compress(),
                    stretch: k.stretch(),
                    uniform: f & 16 != 0,
                });
            }
            w::ConstraintKind::Transform(t) => {
                local[order as usize] = transform.len() as u32;
                let identity = t.properties.len() == 6
                    && t.properties.iter().all(|f| {
                        f.offset == 0.0
                            && f.to.len() == 1
                            && f.to[0].property == f.property
                            && f.to[0].offset == 0.0
                            && f.to[0].scale == 1.0
                    })
                    && !t.clamp()
                    && t.local_source() == t.local_target();
                if !identity {
                    return Err(UpgradeError(format!(
                        "transform constraint {:?}: a 4.3 property mapping cannot be written in 4.2",
                        c.name
                    )));
                }
                let mut values = [None; 12];
                let mut f0 = u8::from(t.skin_required())
                    | (u8::from(t.local_target()) << 1)
                    | (u8::from(t.additive()) << 2);
                let mut f1 = 0u8;
                let all = t.offsets.iter().chain(t.mixes.iter());
                for (k, v) in all.enumerate() {
                    if let Some(v) = v {
                        values[k] = Some(*v);
                        if k < 5 {
                            f0 |= 8 << k;
                        } else {
                            f1 |= 1 << (k - 5);
                        }
                    }
                }
                transform.push(v4::TransformConstraint {
                    name: c.name.clone(),
                    order,
                    bones: t.bones.clone(),
                    target: t.source,
                    flags: Some([f0, f1]),
                    skin_required: t.skin_required(),
                    local: t.local_target(),
                    relative: t.additive(),
                    values,
                });
            }
            w::ConstraintKind::Path(p) => {
                local[order as usize] = path.len() as u32;
                let (pm, sm, rm) = (p.position_mode(), p.spacing_mode(), p.rotate_mode());
                let f = (pm as u8) | ((sm as u8) << 1) | ((rm as u8) << 3) | (p.flags & 128);
                path.push(v4::PathConstraint {
                    name: c.name.clone(),
                    order,
                    skin_required: p.skin_required(),
                    bones: p.bones.clone(),
                    target: p.slot,
                    flags: Some(f),
                    position_mode: match pm {
                        w::PositionMode::Fixed => v4::PositionMode::Fixed,
                        w::PositionMode::Percent => v4::PositionMode::Percent,
                    },
                    spacing_mode: match sm {
                        w::SpacingMode::Length => v4::SpacingMode::Length,
                        w::SpacingMode::Fixed => v4::SpacingMode::Fixed,
                        w::SpacingMode::Percent => v4::SpacingMode::Percent,
                        w::SpacingMode::Proportional => v4::SpacingMode::Proportional,
                    },
                    rotate_mode: match rm {
                        w::RotateMode::Tangent => v4::RotateMode::Tangent,
                        w::RotateMode::Chain => v4::RotateMode::Chain,
                        w::RotateMode::ChainScale => v4::RotateMode::ChainScale,
                    },
                    offset_rotation: p.offset_rotation,
                    position: p.position,
                    spacing: p.spacing,
                    mix_rotate: p.mix_rotate,
                    mix_x: p.mix_x,
                    mix_y: p.mix_y,
                });
            }
            w::ConstraintKind::Physics(p) => {
                local[order as usize] = physics.len() as u32;
                let (scale_x, mode) = p.scale_x_and_mode();
                if mode != w::ScaleYMode::None {
                    return Err(UpgradeError(format!(
                        "physics constraint {:?}: the scale-y mode is 4.3 only",
                        c.name
                    )));
                }
                physics.push(v4::PhysicsConstraint {
                    name: c.name.clone(),
                    order,
                    bone: p.bone,
                    flags: p.flags,
                    x: p.x,
                    y: p.y,
                    rotate: p.rotate,
                    scale_x: p.scale_x.map(|_| scale_x),
                    shear_x: p.shear_x,
                    limit: p.limit,
                    fps: p.fps,
                    inertia: p.inertia,
                    strength: p.strength,
                    damping: p.damping,
                    mass_inverse: p.mass_inverse,
                    wind: p.wind,
                    gravity: p.gravity,
                    flags2: p.global_flags,
                    mix: p.mix,
                });
            }
            w::ConstraintKind::Slider(_) => {
                return Err(UpgradeError(format!("slider {:?}: sliders are 4.3 only", c.name)))
            }
        }
    }
    let skin_slots = |slots: &[w::SkinSlot]| -> Result<v4::SkinSlots, UpgradeError> {
        let mut out = v4::SkinSlots::default();
        for sl in slots {
            let list: Result<Vec<_>, _> = sl
                .attachments
                .iter()
                .map(|e| {
                    Ok(v4::SkinAttachment {
                        key: e.placeholder,
                        attachment: attachment_v42(&e.attachment)?,
                    })
                })
                .collect();
            out.push_slot(sl.slot, list?);
        }
        Ok(out)
    };
    let default_skin = match &s.default_skin {
        Some(sl) => Some(skin_slots(sl)?),
        None => None,
    };
    let mut skins = Vec::new();
    for k in &s.skins {
        let of = |ty: w::ConstraintType| -> Vec<u32> {
            k.constraints
                .iter()
                .filter(|&&i| {
                    s.constraints.get(i as usize).is_some_and(|c| c.kind.constraint_type() == ty)
                })
                .map(|&i| local[i as usize])
                .collect()
        };
        skins.push(v4::Skin {
            name: v4::Name::Inline(k.name.clone()),
            color: k.color,
            bones: k.bones.clone(),
            ik: of(w::ConstraintType::Ik),
            transform: of(w::ConstraintType::Transform),
            path: of(w::ConstraintType::Path),
            physics: of(w::ConstraintType::Physics),
            slots: skin_slots(&k.slots)?,
        });
    }
    let events = s
        .events
        .iter()
        .map(|e| v4::EventData {
            name: v4::Name::Inline(e.name.clone()),
            int: e.int_value,
            float: e.float_value,
            string: e.string_value.clone(),
            audio: e.audio_path.clone().map(|path| {
                let [volume, balance] = e.volume_balance.unwrap_or([1.0, 0.0]);
                v4::EventAudio { path, volume, balance }
            }),
        })
        .collect();
    let mut animations = Vec::with_capacity(s.animations.len());
    for a in &s.animations {
        animations.push(animation_v42(a, &local)?);
    }
    Ok(v4::Skeleton {
        generation: SpineVersion::V4_2,
        header,
        strings,
        bones,
        slots,
        ik_constraints: ik,
        transform_constraints: transform,
        path_constraints: path,
        physics_constraints: physics,
        default_skin,
        skins,
        events,
        animations,
    })
}

fn vertices42(v: &w::Vertices) -> v4::Vertices {
    match v {
        w::Vertices::Unweighted(xy) => v4::Vertices::Plain(xy.clone()),
        // The same flat layout in both generations.
        w::Vertices::Weighted(vs) => v4::Vertices::Weighted(v4::WeightedVertices {
            counts: vs.counts.clone(),
            bones: vs.bones.clone(),
            values: vs.values.clone(),
        }),
    }
}

fn sequence42(s: &Option<w::Sequence>) -> Option<v4::Sequence> {
    s.map(|s| v4::Sequence {
        count: s.count,
        start: s.start,
        digits: s.digits,
        setup_index: s.setup_index,
    })
}

/// A 4.3 attachment record in the 4.2 layout (the flag bits of both versions agree for
/// every type 4.2 has; the clipping convex/inverse bits are 4.3 only).
fn attachment_v42(a: &w::Attachment) -> Result<v4::Attachment, UpgradeError> {
    let white = [0xff; 4];
    let kind = match &a.kind {
        w::AttachmentKind::Region(r) => v4::AttachmentKind::Region(v4::Region {
            path: r.path.unwrap_or(StrRef::NONE),
            color: r.color.unwrap_or(white),
            sequence: sequence42(&r.sequence),
            rotation: r.rotation.unwrap_or(0.0),
            x: r.x,
            y: r.y,
            scale_x: r.scale_x,
            scale_y: r.scale_y,
            width: r.width,
            height: r.height,
        }),
        w::AttachmentKind::BoundingBox(b) => v4::AttachmentKind::BoundingBox(v4::VertexShape {
            vertices: vertices42(&b.vertices),
            color: b.color,
        }),
        w::AttachmentKind::Mesh(m) => v4::AttachmentKind::Mesh(v4::Mesh {
            path: m.path.unwrap_or(StrRef::NONE),
            color: m.color.unwrap_or(white),
            sequence: sequence42(&m.sequence),
            uvs: m.uvs.clone(),
            triangles: m.triangles.clone(),
            vertices: vertices42(&m.vertices),
            hull: m.hull_length,
            extras: m.nonessential.as_ref().map(|e| v4::MeshExtras {
                edges: e.edges.clone(),
                width: e.width,
                height: e.height,
            }),
        }),
        w::AttachmentKind::LinkedMesh(l) => v4::AttachmentKind::LinkedMesh(v4::LinkedMesh {
            path: l.path.unwrap_or(StrRef::NONE),
            color: l.color.unwrap_or(white),
            sequence: sequence42(&l.sequence),
            skin: v4::SkinRef::Index(l.skin),
            parent: l.source,
            inherit_timelines: a.flags & 128 != 0,
            size: l.size,
        }),
        w::AttachmentKind::Path(p) => v4::AttachmentKind::Path(v4::PathAttachment {
            closed: a.flags & 16 != 0,
            constant_speed: a.flags & 32 != 0,
            vertices: vertices42(&p.vertices),
            lengths: p.lengths.clone(),
            color: p.color,
        }),
        w::AttachmentKind::Point(p) => v4::AttachmentKind::Point(v4::Point {
            rotation: p.rotation,
            x: p.x,
            y: p.y,
            color: p.color,
        }),
        w::AttachmentKind::Clipping(c) => {
            if a.flags & (32 | 64) != 0 {
                return Err(UpgradeError("convex or inverse clipping is 4.3 only".into()));
            }
            v4::AttachmentKind::Clipping(v4::Clipping {
                end_slot: c.end_slot,
                vertices: vertices42(&c.vertices),
                color: c.color,
            })
        }
    };
    let flags = if matches!(a.kind, w::AttachmentKind::Clipping(_)) {
        a.flags & !(32 | 64)
    } else {
        a.flags
    };
    Ok(v4::Attachment { flags, name: a.name.unwrap_or(StrRef::NONE), kind })
}

fn animation_v42(a: &w::Animation, local: &[u32]) -> Result<wa::Animation, UpgradeError> {
    if !a.draw_order_folders.is_empty() {
        return Err(UpgradeError(format!(
            "animation {:?}: draw-order folders are 4.3 only",
            a.name
        )));
    }
    if !a.slider.is_empty() {
        return Err(UpgradeError(format!("animation {:?}: slider timelines are 4.3 only", a.name)));
    }
    let mut slots = Vec::new();
    let mut slot_timelines = Vec::new();
    for g in &a.slots {
        slots.push(wa::SlotTimelines { slot: g.slot, count: g.timelines.len() as u32 });
        for t in &g.timelines {
            slot_timelines.push(match t {
                w::SlotTimeline::Attachment(k) => wa::SlotTimeline::Attachment(
                    k.iter()
                        .map(|k| wa::AttachmentKey { time: k.time, name: k.attachment })
                        .collect(),
                ),
                w::SlotTimeline::Rgba(c) => wa::SlotTimeline::Rgba(c.clone()),
                w::SlotTimeline::Rgb(c) => wa::SlotTimeline::Rgb(c.clone()),
                w::SlotTimeline::Rgba2(c) => wa::SlotTimeline::Rgba2(c.clone()),
                w::SlotTimeline::Rgb2(c) => wa::SlotTimeline::Rgb2(c.clone()),
                w::SlotTimeline::Alpha(c) => wa::SlotTimeline::Alpha(c.clone()),
            });
        }
    }
    let mut bones = Vec::new();
    let mut bone_timelines = Vec::new();
    for g in &a.bones {
        bones.push(wa::BoneTimelines { bone: g.bone, count: g.timelines.len() as u32 });
        for t in &g.timelines {
            bone_timelines.push(match t {
                w::BoneTimeline::Rotate(c) => wa::BoneTimeline::Rotate(c.clone()),
                w::BoneTimeline::Translate(c) => wa::BoneTimeline::Translate(c.clone()),
                w::BoneTimeline::TranslateX(c) => wa::BoneTimeline::TranslateX(c.clone()),
                w::BoneTimeline::TranslateY(c) => wa::BoneTimeline::TranslateY(c.clone()),
                w::BoneTimeline::Scale(c) => wa::BoneTimeline::Scale(c.clone()),
                w::BoneTimeline::ScaleX(c) => wa::BoneTimeline::ScaleX(c.clone()),
                w::BoneTimeline::ScaleY(c) => wa::BoneTimeline::ScaleY(c.clone()),
                w::BoneTimeline::Shear(c) => wa::BoneTimeline::Shear(c.clone()),
                w::BoneTimeline::ShearX(c) => wa::BoneTimeline::ShearX(c.clone()),
                w::BoneTimeline::ShearY(c) => wa::BoneTimeline::ShearY(c.clone()),
                w::BoneTimeline::Inherit(k) => wa::BoneTimeline::Inherit(
                    k.iter()
                        .map(|k| wa::InheritKey {
                            time: k.time,
                            inherit: match k.inherit {
                                w::Inherit::Normal => v4::Inherit::Normal,
                                w::Inherit::OnlyTranslation => v4::Inherit::OnlyTranslation,
                                w::Inherit::NoRotationOrReflection => {
                                    v4::Inherit::NoRotationOrReflection
                                }
                                w::Inherit::NoScale => v4::Inherit::NoScale,
                                w::Inherit::NoScaleOrReflection => v4::Inherit::NoScaleOrReflection,
                            },
                        })
                        .collect(),
                ),
            });
        }
    }
    let at = |i: u32| local.get(i as usize).copied().unwrap_or(0);
    let ik =
        a.ik.iter()
            .map(|t| wa::IkTimeline {
                constraint: at(t.constraint),
                bezier_count: t.bezier_count,
                keys: t
                    .keys
                    .iter()
                    .enumerate()
                    .map(|(i, k)| {
                        let curve = if i == 0 {
                            CurveType::Linear
                        } else if k.flags & 64 != 0 {
                            CurveType::Stepped
                        } else if k.flags & 128 != 0 {
                            CurveType::Bezier
                        } else {
                            CurveType::Linear
                        };
                        wa::IkKey {
                            flags: Some(k.flags),
                            time: k.time,
                            mix: k.mix,
                            softness: k.softness,
                            bend_direction: k.bend_direction() as i8,
                            compress: k.flags & 16 != 0,
                            stretch: k.flags & 32 != 0,
                            curve,
                            bezier: k.bezier,
                        }
                    })
                    .collect(),
            })
            .collect();
    let transform = a
        .transform
        .iter()
        .map(|t| wa::TransformTimeline {
            constraint: at(t.constraint),
            timeline: t.timeline.clone(),
        })
        .collect();
    let path = a
        .path
        .iter()
        .map(|p| wa::PathTimelines {
            constraint: at(p.constraint),
            timelines: p
                .timelines
                .iter()
                .map(|t| match t {
                    w::PathTimeline::Position(c) => wa::PathTimeline::Position(c.clone()),
                    w::PathTimeline::Spacing(c) => wa::PathTimeline::Spacing(c.clone()),
                    w::PathTimeline::Mix(c) => wa::PathTimeline::Mix(c.clone()),
                })
                .collect(),
        })
        .collect();
    let physics = a
        .physics
        .iter()
        .map(|p| wa::PhysicsTimelines {
            constraint: p.constraint.map_or(0, |c| at(c) + 1),
            timelines: p
                .timelines
                .iter()
                .map(|t| match t {
                    w::PhysicsTimeline::Property(prop, c) => wa::PhysicsTimeline::Value(
                        match prop {
                            w::PhysicsProperty::Inertia => wa::PhysicsProperty::Inertia,
                            w::PhysicsProperty::Strength => wa::PhysicsProperty::Strength,
                            w::PhysicsProperty::Damping => wa::PhysicsProperty::Damping,
                            w::PhysicsProperty::Mass => wa::PhysicsProperty::Mass,
                            w::PhysicsProperty::Wind => wa::PhysicsProperty::Wind,
                            w::PhysicsProperty::Gravity => wa::PhysicsProperty::Gravity,
                            w::PhysicsProperty::Mix => wa::PhysicsProperty::Mix,
                        },
                        c.clone(),
                    ),
                    w::PhysicsTimeline::Reset(t) => wa::PhysicsTimeline::Reset(t.clone()),
                })
                .collect(),
        })
        .collect();
    let attachments = a
        .attachments
        .iter()
        .map(|sk| wa::SkinTimelines {
            skin: sk.skin,
            slots: sk
                .slots
                .iter()
                .map(|sl| wa::SlotAttachmentTimelines {
                    slot: sl.slot,
                    attachments: sl
                        .attachments
                        .iter()
                        .map(|e| wa::AttachmentTimelineEntry {
                            attachment: e.attachment,
                            timeline: match &e.kind {
                                w::AttachmentTimelineKind::Deform(d) => {
                                    let mut bezier = 0;
                                    let keys = d
                                        .keys
                                        .iter()
                                        .enumerate()
                                        .map(|(i, k)| {
                                            let curve = if i == 0 {
                                                CurveType::Linear
                                            } else {
                                                d.curves.get(i - 1).copied().unwrap_or_default()
                                            };
                                            let b = (curve == CurveType::Bezier).then(|| {
                                                bezier += 1;
                                                d.beziers
                                                    .get(bezier - 1)
                                                    .copied()
                                                    .unwrap_or_default()
                                            });
                                            let (start, values) = match &k.values {
                                                Some(v) => (v.start, v.values.clone()),
                                                None => (0, Vec::new()),
                                            };
                                            wa::DeformKey {
                                                time: k.time,
                                                curve,
                                                bezier: b,
                                                start,
                                                values,
                                            }
                                        })
                                        .collect();
                                    wa::AttachmentTimeline::Deform(wa::DeformTimeline {
                                        bezier_count: d.bezier_count,
                                        keys,
                                    })
                                }
                                w::AttachmentTimelineKind::Sequence(keys) => {
                                    wa::AttachmentTimeline::Sequence(
                                        keys.iter()
                                            .map(|k| {
                                                let mode = match k.mode {
                                                    w::SequenceMode::Hold => 0,
                                                    w::SequenceMode::Once => 1,
                                                    w::SequenceMode::Loop => 2,
                                                    w::SequenceMode::PingPong => 3,
                                                    w::SequenceMode::OnceReverse => 4,
                                                    w::SequenceMode::LoopReverse => 5,
                                                    w::SequenceMode::PingPongReverse => 6,
                                                };
                                                wa::SequenceKey {
                                                    time: k.time,
                                                    mode_and_index: (k.index << 4) | mode,
                                                    delay: k.delay,
                                                }
                                            })
                                            .collect(),
                                    )
                                }
                            },
                        })
                        .collect(),
                })
                .collect(),
        })
        .collect();
    let draw_order = a
        .draw_order
        .iter()
        .map(|k| wa::DrawOrderKey { time: k.time, changes: k.changes.clone() })
        .collect();
    let events = a
        .events
        .iter()
        .map(|k| wa::EventKey {
            time: k.time,
            event: k.event,
            int: k.int_value,
            float: k.float_value,
            string: k.string_value.clone(),
            audio: k.volume_balance,
        })
        .collect();
    Ok(wa::Animation {
        name: a.name.clone(),
        timeline_count: a.timeline_hint,
        slots,
        slot_timelines,
        bones,
        bone_timelines,
        ik,
        transform,
        path,
        physics,
        attachments,
        draw_order,
        events,
    })
}
