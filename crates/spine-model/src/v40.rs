//! 4.0–4.2 binary → [`SkeletonData`].
//!
//! Upgrade rules applied here (each unit-tested in `tests/`):
//!
//! * Constraints: the four per-type lists are merged into one list in the order spine-cpp
//!   4.2 `Skeleton::updateCache` updates them: for `i in 0..count`, the first IK, then
//!   transform, then path, then physics constraint whose `order == i`. A constraint that
//!   loop never reaches would never be updated by the runtime and is reported.
//! * Transform constraints keep the 4.2 maths: [`TransformSolver::Legacy4x`] with
//!   `local_source = local_target = local` and `additive = relative`; `properties` holds the
//!   identity mapping of the six properties (informational).
//! * IK `uniform: true` becomes [`ScaleYMode::Uniform`].
//! * Before 4.2 there is no reference scale: it is 100 (the 4.2 default), × scale.
//! * Defaults of fields absent from 4.2 flag bytes are the loader's (mixes 0 except IK mix
//!   1 when "mix present" without a value, physics limit 5000, mass inverse 1, mix 1).

use spine_format::binary::shared::CurveFrames;
use spine_format::binary::shared::CurveType;
use spine_format::binary::v40::animation as wa;
use spine_format::binary::v40::ast as w;
use spine_format::binary::v40::stream as wst;
use spine_format::binary::StrRef;
use spine_format::BinaryError;

use crate::anim::*;
use crate::build::{draw_order, Builder, Counts, PendingLink};
use crate::curves;
use crate::data::*;
use crate::error::{LoadError, ProblemKind};
use crate::ids::*;
use crate::timelines::timeline_attachment;
use crate::LoadOptions;
use std::sync::Arc;

fn inherit(i: w::Inherit) -> Inherit {
    match i {
        w::Inherit::Normal => Inherit::Normal,
        w::Inherit::OnlyTranslation => Inherit::OnlyTranslation,
        w::Inherit::NoRotationOrReflection => Inherit::NoRotationOrReflection,
        w::Inherit::NoScale => Inherit::NoScale,
        w::Inherit::NoScaleOrReflection => Inherit::NoScaleOrReflection,
    }
}

fn blend(b: w::BlendMode) -> BlendMode {
    match b {
        w::BlendMode::Normal => BlendMode::Normal,
        w::BlendMode::Additive => BlendMode::Additive,
        w::BlendMode::Multiply => BlendMode::Multiply,
        w::BlendMode::Screen => BlendMode::Screen,
    }
}

/// The six transform properties mapped onto themselves (ratio 1, no offset).
pub(crate) fn identity_properties() -> Vec<FromProperty> {
    use TransformProperty::*;
    [Rotate, X, Y, ScaleX, ScaleY, ShearY]
        .into_iter()
        .map(|p| FromProperty {
            property: p,
            offset: 0.0,
            to: vec![ToProperty { property: p, offset: 0.0, max: 0.0, scale: 1.0 }],
        })
        .collect()
}

/// A mesh's `uvs`, `triangles` and `edges` moved out of an owned AST, keyed by the address
/// of that mesh in the AST (which stays in place while it is converted).
type MeshBuffers = (usize, Vec<f32>, Vec<u32>, Vec<u32>, w::Vertices);

struct Conv<'a, 'o> {
    s: &'a w::Skeleton,
    /// The string table (borrowed from the bytes when streaming).
    strings: &'a [&'a str],
    /// Buffers of [`take_mesh_buffers`] in skin order; a mesh not found here is cloned.
    mesh_buffers: std::collections::VecDeque<MeshBuffers>,
    /// Bone and slot names moved out of an owned skeleton (empty: clone them).
    names: Names,
    /// One shared string per string-table entry used by skin keys, attachment names and
    /// image paths (filled on first use): attachments of several skins name the same entry.
    shared: Vec<Option<Arc<str>>>,
    b: Builder<'o>,
    ik: Vec<ConstraintId>,
    transform: Vec<ConstraintId>,
    path: Vec<ConstraintId>,
    physics: Vec<ConstraintId>,
}

impl Conv<'_, '_> {
    fn text(&self, r: StrRef) -> Option<&str> {
        r.resolve(self.strings)
    }

    /// The string `r` refers to as a shared string (one allocation per table entry), or
    /// `None` where [`Conv::text`] gives `None`.
    fn shared(&mut self, r: StrRef) -> Option<Arc<str>> {
        let i = r.index()?;
        let s = *self.strings.get(i)?;
        let slot = self.shared.get_mut(i)?;
        Some(Arc::clone(slot.get_or_insert_with(|| Arc::from(s))))
    }

    /// [`share`] through the string cache: `base` when `r` is absent or spells `base`, else
    /// the table entry's shared string.
    fn share_ref(&mut self, base: &Arc<str>, r: StrRef) -> Arc<str> {
        match self.text(r) {
            Some(s) if s != &**base => self.shared(r).unwrap_or_else(|| Arc::clone(base)),
            _ => Arc::clone(base),
        }
    }

    fn vertices(&mut self, v: &w::Vertices) -> Vertices {
        match v {
            w::Vertices::Plain(xy) => self.b.unweighted(xy),
            w::Vertices::Weighted(vs) => {
                if weighted_valid(vs, self.b.data.bones.len(), self.b.scale) {
                    let mut values = vs.values.clone();
                    scale_xy(&mut values, self.b.scale);
                    return Vertices::Weighted(WeightedVertices {
                        counts: vs.counts.clone(),
                        bones: vs.bones.iter().map(|&b| BoneId(b)).collect(),
                        values,
                    });
                }
                let groups = vs.groups().map(|v| v.map(|i| (i.bone, i.x, i.y, i.weight)));
                self.b.weighted_with_capacity(groups, vs.influence_count())
            }
        }
    }

    /// [`Conv::vertices`] of vertices moved out of an owned AST: positions are scaled in
    /// place and the buffers reused (same values, same problems in the same order).
    fn vertices_owned(&mut self, v: w::Vertices) -> Vertices {
        match v {
            w::Vertices::Plain(mut xy) => {
                for v in &mut xy {
                    *v = self.b.fs("vertex", *v);
                }
                Vertices::Unweighted(xy)
            }
            w::Vertices::Weighted(mut vs) => {
                if weighted_valid(&vs, self.b.data.bones.len(), self.b.scale) {
                    scale_xy(&mut vs.values, self.b.scale);
                    // `u32` to `BoneId` in place (same layout: no allocation).
                    let bones = vs.bones.into_iter().map(BoneId).collect();
                    let (counts, values) = (vs.counts, vs.values);
                    return Vertices::Weighted(WeightedVertices { counts, bones, values });
                }
                self.vertices(&w::Vertices::Weighted(vs))
            }
        }
    }
}

/// Whether weighted vertices have nothing to report (the counts cover exactly the
/// influences, every bone index is in range, every scaled value is finite): then their
/// buffers are taken as they are (positions scaled by [`scale_xy`]); otherwise the caller
/// goes through [`Builder::weighted_with_capacity`], which reports each problem.
/// The values are those the checked path computes (`x * scale`, `y * scale`, `weight`).
fn weighted_valid(vs: &w::WeightedVertices, bones: usize, scale: f32) -> bool {
    weighted_parts_valid(&vs.counts, &vs.bones, &vs.values, bones, scale)
}

/// [`weighted_valid`] of the three flat buffers (`counts`, `bones`, `values`) of any
/// generation's weighted vertices.
pub(crate) fn weighted_parts_valid(
    counts: &[u32],
    wbones: &[u32],
    values: &[f32],
    bones: usize,
    scale: f32,
) -> bool {
    let total: u64 = counts.iter().map(|&n| u64::from(n)).sum();
    if total != wbones.len() as u64 || values.len() != wbones.len() * 3 {
        return false;
    }
    // Branch-free passes (no early exit: the common case is all valid).
    use crate::curves::non_finite_bit;
    let mut bad = 0u32;
    for v in values.chunks_exact(3) {
        bad |= non_finite_bit(v[0] * scale) | non_finite_bit(v[1] * scale) | non_finite_bit(v[2]);
    }
    let max_bone = wbones.iter().fold(0, |m, &b| m.max(b));
    bad & 0x8000_0000 == 0 && (wbones.is_empty() || (max_bone as usize) < bones)
}

/// Multiplies the `x, y` of each `x, y, weight` triple by `scale` (nothing to do for 1:
/// `v * 1.0 == v` bit for bit for the finite values [`weighted_valid`] lets through).
pub(crate) fn scale_xy(values: &mut [f32], scale: f32) {
    if scale != 1.0 {
        for v in values.chunks_exact_mut(3) {
            v[0] *= scale;
            v[1] *= scale;
        }
    }
}

/// Loads a 4.0–4.2 skeleton from its bytes (`load_binary`): everything before the
/// animations is parsed into the raw AST and converted, its mesh buffers and names moved
/// into the model instead of copied; the animations are then streamed from the bytes into
/// the model's timelines (no AST for them). Errors are the parser's, as with `parse`.
pub(crate) fn load_streaming(
    bytes: &[u8],
    options: &LoadOptions<'_>,
) -> Result<SkeletonData, LoadError> {
    let (mut s, mut animations) = wst::parse_head_without_icons(bytes, &options.limits)?;
    let buffers = take_mesh_buffers(&mut s);
    let names = Names {
        bones: s.bones.iter_mut().map(|b| std::mem::take(&mut b.name)).collect(),
        slots: s.slots.iter_mut().map(|b| std::mem::take(&mut b.name)).collect(),
    };
    let strings = animations.strings().to_vec();
    convert_with(&s, &strings, options, buffers, names, Some(&mut animations))
}

/// Bone and slot names moved out of an owned skeleton, by index.
#[derive(Default)]
struct Names {
    bones: Vec<String>,
    slots: Vec<String>,
}

/// The moved name at `i` when there is one, else a copy of the skeleton's `name`.
fn moved_or_cloned(moved: &mut [String], i: usize, name: &str) -> String {
    match moved.get_mut(i) {
        Some(n) => std::mem::take(n),
        None => name.to_owned(),
    }
}

/// Moves every mesh's `uvs`, `triangles`, `edges` and vertices out of `s`, in the order
/// [`skins`] visits the meshes.
fn take_mesh_buffers(s: &mut w::Skeleton) -> std::collections::VecDeque<MeshBuffers> {
    let mut out = std::collections::VecDeque::new();
    let skins = s.default_skin.iter_mut().chain(s.skins.iter_mut().map(|k| &mut k.slots));
    for slots in skins {
        for e in &mut slots.attachments {
            if let w::AttachmentKind::Mesh(m) = &mut e.attachment.kind {
                let key = std::ptr::from_ref::<w::Mesh>(m) as usize;
                let edges =
                    m.extras.as_mut().map(|x| std::mem::take(&mut x.edges)).unwrap_or_default();
                out.push_back((
                    key,
                    std::mem::take(&mut m.uvs),
                    std::mem::take(&mut m.triangles),
                    edges,
                    std::mem::replace(&mut m.vertices, w::Vertices::Plain(Vec::new())),
                ));
            }
        }
    }
    out
}

/// Converts a parsed 4.0–4.2 skeleton.
pub(crate) fn convert(
    s: &w::Skeleton,
    options: &LoadOptions<'_>,
) -> Result<SkeletonData, LoadError> {
    let strings: Vec<&str> = s.strings.iter().map(String::as_str).collect();
    convert_with(s, &strings, options, std::collections::VecDeque::new(), Names::default(), None)
}

fn convert_with<'a>(
    s: &'a w::Skeleton,
    strings: &'a [&'a str],
    options: &LoadOptions<'_>,
    mesh_buffers: std::collections::VecDeque<MeshBuffers>,
    names: Names,
    stream: Option<&mut wst::Animations<'_>>,
) -> Result<SkeletonData, LoadError> {
    let behaviour = Behaviour::new(s.generation, &s.header.version);
    let mut c = Conv {
        s,
        strings,
        mesh_buffers,
        names,
        shared: vec![None; strings.len()],
        b: Builder::new(behaviour, options),
        ik: Vec::new(),
        transform: Vec::new(),
        path: Vec::new(),
        physics: Vec::new(),
    };
    let skin_slots = s.default_skin.iter().chain(s.skins.iter().map(|k| &k.slots));
    c.b.reserve(Counts {
        bones: s.bones.len(),
        slots: s.slots.len(),
        constraints: s.ik_constraints.len()
            + s.transform_constraints.len()
            + s.path_constraints.len()
            + s.physics_constraints.len(),
        skins: usize::from(s.default_skin.is_some()) + s.skins.len(),
        attachments: skin_slots.map(|k| k.attachments.len()).sum(),
        events: s.events.len(),
        animations: stream.as_ref().map_or(s.animations.len(), |a| a.len()),
    });
    header(&mut c);
    bones_and_slots(&mut c);
    constraints(&mut c);
    events(&mut c);
    skins(&mut c);
    c.b.resolve_links();
    c.b.bind_atlas();
    let mut sink = AnimSink::new(&mut c);
    match stream {
        Some(animations) => {
            while animations.read_next(&mut sink)? {
                sink.finish();
            }
        }
        None => {
            for a in &s.animations {
                a.replay(&mut sink)?;
                sink.finish();
            }
        }
    }
    c.b.finish()
}

fn header(c: &mut Conv<'_, '_>) {
    let h = &c.s.header;
    let d = &mut c.b.data;
    d.hash = h.hash_string();
    d.x = h.x;
    d.y = h.y;
    d.width = h.width;
    d.height = h.height;
    d.reference_scale = h.reference_scale.unwrap_or(100.0) * c.b.scale;
    d.fps = h.nonessential.as_ref().map_or(30.0, |n| n.fps);
}

fn bones_and_slots(c: &mut Conv<'_, '_>) {
    for (i, bone) in c.s.bones.iter().enumerate() {
        let name = moved_or_cloned(&mut c.names.bones, i, &bone.name);
        c.b.enter("bone", &name);
        let data = BoneData {
            name,
            parent: None,
            length: c.b.fs("length", bone.length),
            x: c.b.fs("x", bone.x),
            y: c.b.fs("y", bone.y),
            rotation: c.b.f("rotation", bone.rotation),
            scale_x: c.b.f("scale x", bone.scale_x),
            scale_y: c.b.f("scale y", bone.scale_y),
            shear_x: c.b.f("shear x", bone.shear_x),
            shear_y: c.b.f("shear y", bone.shear_y),
            inherit: inherit(bone.inherit),
            skin_required: bone.skin_required,
            color: bone.extras.as_ref().map(|e| Color::from_bytes(e.color)),
        };
        c.b.add_bone(i, bone.parent, data);
        c.b.pop();
    }
    for (i, slot) in c.s.slots.iter().enumerate() {
        let name = moved_or_cloned(&mut c.names.slots, i, &slot.name);
        c.b.enter("slot", &name);
        let bone = c.b.bone(slot.bone);
        let attachment = c.text(slot.attachment).map(str::to_owned);
        c.b.data.slots.push(SlotData {
            name,
            bone,
            color: Color::from_bytes(slot.color),
            dark_color: slot.dark_rgb().map(Color::from_rgb),
            attachment,
            blend: blend(slot.blend),
        });
        c.b.pop();
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Ty {
    Ik,
    Transform,
    Path,
    Physics,
}

fn constraints(c: &mut Conv<'_, '_>) {
    let s = c.s;
    // (order, type, index in its list), in updateCache's type precedence.
    let mut all: Vec<(u32, Ty, usize)> = Vec::new();
    all.extend(s.ik_constraints.iter().enumerate().map(|(i, k)| (k.order, Ty::Ik, i)));
    all.extend(
        s.transform_constraints.iter().enumerate().map(|(i, k)| (k.order, Ty::Transform, i)),
    );
    all.extend(s.path_constraints.iter().enumerate().map(|(i, k)| (k.order, Ty::Path, i)));
    all.extend(s.physics_constraints.iter().enumerate().map(|(i, k)| (k.order, Ty::Physics, i)));
    let mut used = vec![false; all.len()];
    let mut sorted = Vec::with_capacity(all.len());
    for i in 0..all.len() as u32 {
        if let Some(p) = (0..all.len()).find(|&p| !used[p] && all[p].0 == i) {
            used[p] = true;
            sorted.push(all[p]);
        }
    }
    for (p, &(order, ty, index)) in all.iter().enumerate() {
        if !used[p] {
            let name = match ty {
                Ty::Ik => &s.ik_constraints[index].name,
                Ty::Transform => &s.transform_constraints[index].name,
                Ty::Path => &s.path_constraints[index].name,
                Ty::Physics => &s.physics_constraints[index].name,
            };
            c.b.enter("constraint", name);
            c.b.report(ProblemKind::Invalid(format!(
                "update order {order} is never reached by the runtime's update cache"
            )));
            c.b.pop();
            sorted.push((order, ty, index));
        }
    }
    c.ik = vec![ConstraintId(0); s.ik_constraints.len()];
    c.transform = vec![ConstraintId(0); s.transform_constraints.len()];
    c.path = vec![ConstraintId(0); s.path_constraints.len()];
    c.physics = vec![ConstraintId(0); s.physics_constraints.len()];
    for (id, &(_, ty, index)) in sorted.iter().enumerate() {
        let id = ConstraintId(id as u32);
        let data = match ty {
            Ty::Ik => {
                c.ik[index] = id;
                ik(c, &s.ik_constraints[index])
            }
            Ty::Transform => {
                c.transform[index] = id;
                transform(c, &s.transform_constraints[index])
            }
            Ty::Path => {
                c.path[index] = id;
                path(c, &s.path_constraints[index])
            }
            Ty::Physics => {
                c.physics[index] = id;
                physics(c, &s.physics_constraints[index])
            }
        };
        c.b.pop();
        c.b.data.constraints.push(data);
    }
}

fn ik(c: &mut Conv<'_, '_>, k: &w::IkConstraint) -> ConstraintData {
    c.b.enter("IK constraint", &k.name);
    let mix = match k.flags {
        Some(f) if f & 32 == 0 => 0.0,
        _ => k.mix.unwrap_or(1.0),
    };
    let data = IkData {
        bones: c.b.bones(&k.bones),
        target: c.b.bone(k.target),
        mix: c.b.f("mix", mix),
        softness: c.b.fs("softness", k.softness.unwrap_or(0.0)),
        bend_direction: if k.bend_direction < 0 { -1 } else { 1 },
        compress: k.compress,
        stretch: k.stretch,
        scale_y_mode: if k.uniform { ScaleYMode::Uniform } else { ScaleYMode::None },
    };
    if data.bones.is_empty() || data.bones.len() > 2 {
        c.b.report(ProblemKind::Invalid(format!(
            "{} constrained bones (1 or 2)",
            data.bones.len()
        )));
    }
    ConstraintData {
        name: k.name.clone(),
        skin_required: k.skin_required,
        kind: ConstraintKind::Ik(data),
    }
}

fn transform(c: &mut Conv<'_, '_>, t: &w::TransformConstraint) -> ConstraintData {
    c.b.enter("transform constraint", &t.name);
    let mut offsets = [0.0; 6];
    let mut mixes = [0.0; 6];
    for i in 0..6 {
        let o = t.values[i].unwrap_or(0.0);
        offsets[i] = if i == 1 || i == 2 { c.b.fs("offset", o) } else { c.b.f("offset", o) };
        mixes[i] = c.b.f("mix", t.values[6 + i].unwrap_or(0.0));
    }
    let data = TransformData {
        bones: c.b.bones(&t.bones),
        source: c.b.bone(t.target),
        local_source: t.local,
        local_target: t.local,
        additive: t.relative,
        clamp: false,
        properties: identity_properties(),
        offsets,
        mixes,
        solver: TransformSolver::Legacy4x,
    };
    ConstraintData {
        name: t.name.clone(),
        skin_required: t.skin_required,
        kind: ConstraintKind::Transform(data),
    }
}

fn path(c: &mut Conv<'_, '_>, p: &w::PathConstraint) -> ConstraintData {
    c.b.enter("path constraint", &p.name);
    let position_mode = match p.position_mode {
        w::PositionMode::Fixed => PositionMode::Fixed,
        w::PositionMode::Percent => PositionMode::Percent,
    };
    let spacing_mode = match p.spacing_mode {
        w::SpacingMode::Length => SpacingMode::Length,
        w::SpacingMode::Fixed => SpacingMode::Fixed,
        w::SpacingMode::Percent => SpacingMode::Percent,
        w::SpacingMode::Proportional => SpacingMode::Proportional,
    };
    let rotate_mode = match p.rotate_mode {
        w::RotateMode::Tangent => RotateMode::Tangent,
        w::RotateMode::Chain => RotateMode::Chain,
        w::RotateMode::ChainScale => RotateMode::ChainScale,
    };
    let position = if position_mode == PositionMode::Fixed {
        c.b.fs("position", p.position)
    } else {
        c.b.f("position", p.position)
    };
    let spacing = if matches!(spacing_mode, SpacingMode::Length | SpacingMode::Fixed) {
        c.b.fs("spacing", p.spacing)
    } else {
        c.b.f("spacing", p.spacing)
    };
    let data = PathData {
        bones: c.b.bones(&p.bones),
        slot: c.b.slot(p.target),
        position_mode,
        spacing_mode,
        rotate_mode,
        offset_rotation: c.b.f("offset rotation", p.offset_rotation.unwrap_or(0.0)),
        position,
        spacing,
        mix_rotate: c.b.f("mix rotate", p.mix_rotate),
        mix_x: c.b.f("mix x", p.mix_x),
        mix_y: c.b.f("mix y", p.mix_y),
    };
    ConstraintData {
        name: p.name.clone(),
        skin_required: p.skin_required,
        kind: ConstraintKind::Path(data),
    }
}

fn physics(c: &mut Conv<'_, '_>, p: &w::PhysicsConstraint) -> ConstraintData {
    c.b.enter("physics constraint", &p.name);
    let g = p.flags2;
    let data = PhysicsData {
        bone: c.b.bone(p.bone),
        x: c.b.f("x", p.x.unwrap_or(0.0)),
        y: c.b.f("y", p.y.unwrap_or(0.0)),
        rotate: c.b.f("rotate", p.rotate.unwrap_or(0.0)),
        scale_x: c.b.f("scale x", p.scale_x.unwrap_or(0.0)),
        shear_x: c.b.f("shear x", p.shear_x.unwrap_or(0.0)),
        scale_y_mode: ScaleYMode::None,
        limit: c.b.fs("limit", p.limit.unwrap_or(5000.0)),
        step: c.b.physics_step(i64::from(p.fps)),
        inertia: c.b.f("inertia", p.inertia),
        strength: c.b.f("strength", p.strength),
        damping: c.b.f("damping", p.damping),
        mass_inverse: c.b.f("mass inverse", p.mass_inverse.unwrap_or(1.0)),
        wind: c.b.f("wind", p.wind),
        gravity: c.b.f("gravity", p.gravity),
        mix: c.b.f("mix", p.mix.unwrap_or(1.0)),
        globals: PhysicsGlobals {
            inertia: g & 1 != 0,
            strength: g & 2 != 0,
            damping: g & 4 != 0,
            mass: g & 8 != 0,
            wind: g & 16 != 0,
            gravity: g & 32 != 0,
            mix: g & 64 != 0,
        },
    };
    if p.fps == 0 {
        c.b.report(ProblemKind::Invalid("physics fps is 0".into()));
    }
    ConstraintData {
        name: p.name.clone(),
        skin_required: p.skin_required(),
        kind: ConstraintKind::Physics(data),
    }
}

fn events(c: &mut Conv<'_, '_>) {
    for e in &c.s.events {
        let name = c.b.name("event", e.name.resolve(c.strings));
        c.b.data.events.push(EventData {
            name,
            int_value: e.int,
            float_value: e.float,
            string_value: e.string.clone().unwrap_or_default(),
            audio_path: e.audio.as_ref().map(|a| a.path.clone()).unwrap_or_default(),
            volume: e.audio.as_ref().map_or(1.0, |a| a.volume),
            balance: e.audio.as_ref().map_or(0.0, |a| a.balance),
        });
    }
}

struct Link {
    mesh: AttachmentId,
    skin: w::SkinRef,
    slot: u32,
    parent: String,
    inherit: bool,
    at: crate::build::PathAt,
}

fn skins(c: &mut Conv<'_, '_>) {
    let s = c.s;
    let mut links = Vec::new();
    if let Some(slots) = &s.default_skin {
        c.b.data.default_skin = Some(SkinId(0));
        let entries = skin_entries(c, slots, &mut links);
        c.b.add_skin(SkinData {
            name: "default".into(),
            bones: Vec::new(),
            constraints: Vec::new(),
            entries,
            color: None,
        });
    }
    for skin in &s.skins {
        let name = c.b.name("skin", skin.name.resolve(c.strings));
        c.b.enter("skin", &name);
        let bones = c.b.bones(&skin.bones);
        let mut constraints = Vec::new();
        for (list, ids) in [
            (&skin.ik, &c.ik),
            (&skin.transform, &c.transform),
            (&skin.path, &c.path),
            (&skin.physics, &c.physics),
        ] {
            for &i in list {
                match ids.get(i as usize) {
                    Some(&id) => constraints.push(id),
                    None => c.b.report(ProblemKind::IndexOutOfRange {
                        what: "constraint",
                        index: u64::from(i),
                        len: ids.len(),
                    }),
                }
            }
        }
        let entries = skin_entries(c, &skin.slots, &mut links);
        c.b.pop();
        c.b.add_skin(SkinData {
            name,
            bones,
            constraints,
            entries,
            color: skin.color.map(Color::from_bytes),
        });
    }
    for l in links {
        let skin = match l.skin {
            w::SkinRef::Index(i) => Some(i),
            w::SkinRef::Name(StrRef::NONE) => c.b.data.default_skin.map(|d| d.0),
            w::SkinRef::Name(r) => {
                let n = c.text(r).unwrap_or_default();
                c.b.data.skins.iter().position(|s| s.name == n).map(|i| i as u32)
            }
        };
        let skin = skin.unwrap_or(u32::MAX);
        c.b.link(PendingLink {
            mesh: l.mesh,
            skin,
            slot: l.slot,
            source: l.parent,
            inherit_timelines: l.inherit,
            at: l.at,
        });
    }
}

fn skin_entries(
    c: &mut Conv<'_, '_>,
    slots: &w::SkinSlots,
    links: &mut Vec<Link>,
) -> Vec<SkinEntry> {
    let mut entries = Vec::with_capacity(slots.attachments.len());
    for (sa_slot, attachments) in slots.groups() {
        let slot = c.b.slot(sa_slot);
        c.b.enter_slot(slot);
        for e in attachments {
            let key = match c.shared(e.key) {
                Some(key) => key,
                None => c.b.name_shared("attachment", None),
            };
            let name = c.share_ref(&key, e.attachment.name);
            c.b.enter("attachment", &key);
            let id = attachment(c, &name, &e.attachment.kind, sa_slot, links);
            c.b.pop();
            entries.push(SkinEntry { slot, name: key, attachment: id });
        }
        c.b.pop();
    }
    entries
}

fn seq(q: &Option<w::Sequence>) -> Option<[u32; 4]> {
    q.map(|q| [q.count, q.start, q.digits, q.setup_index])
}

fn attachment(
    c: &mut Conv<'_, '_>,
    name: &Arc<str>,
    kind: &w::AttachmentKind,
    slot: u32,
    links: &mut Vec<Link>,
) -> AttachmentId {
    let next = AttachmentId(c.b.data.attachments.len() as u32);
    let kind = match kind {
        w::AttachmentKind::Region(r) => {
            let path = c.share_ref(name, r.path);
            let sequence = c.b.sequence(&path, seq(&r.sequence));
            AttachmentKind::Region(RegionAttachment {
                path,
                color: Color::from_bytes(r.color),
                x: c.b.fs("x", r.x),
                y: c.b.fs("y", r.y),
                rotation: c.b.f("rotation", r.rotation),
                scale_x: c.b.f("scale x", r.scale_x),
                scale_y: c.b.f("scale y", r.scale_y),
                width: c.b.fs("width", r.width),
                height: c.b.fs("height", r.height),
                sequence,
                has_sequence: r.sequence.is_some(),
                offsets: None,
                uvs: None,
            })
        }
        w::AttachmentKind::BoundingBox(b) => AttachmentKind::BoundingBox(BoundingBoxAttachment {
            vertices: c.vertices(&b.vertices),
            color: b.color.map(Color::from_bytes),
        }),
        w::AttachmentKind::Mesh(m) => {
            let path = c.share_ref(name, m.path);
            let sequence = c.b.sequence(&path, seq(&m.sequence));
            let key = std::ptr::from_ref::<w::Mesh>(m) as usize;
            let taken = match c.mesh_buffers.front() {
                Some(f) if f.0 == key => c.mesh_buffers.pop_front(),
                _ => None,
            };
            let (vertices, region_uvs, triangles, edges) = match taken {
                Some((_, uvs, triangles, edges, v)) => (c.vertices_owned(v), uvs, triangles, edges),
                None => (
                    c.vertices(&m.vertices),
                    m.uvs.clone(),
                    m.triangles.clone(),
                    m.extras.as_ref().map(|e| e.edges.clone()).unwrap_or_default(),
                ),
            };
            check_mesh(c, &vertices, &region_uvs, &triangles, m.hull);
            let (width, height) = match &m.extras {
                Some(e) => (e.width * c.b.scale, e.height * c.b.scale),
                None => (0.0, 0.0),
            };
            AttachmentKind::Mesh(MeshAttachment {
                path,
                color: Color::from_bytes(m.color),
                vertices,
                region_uvs,
                triangles,
                hull_length: m.hull,
                edges,
                width,
                height,
                sequence,
                has_sequence: m.sequence.is_some(),
                linked_source: None,
                timeline_attachment: next,
                timeline_slots: Vec::new(),
                uvs: None,
            })
        }
        w::AttachmentKind::LinkedMesh(m) => {
            let path = c.share_ref(name, m.path);
            let sequence = c.b.sequence(&path, seq(&m.sequence));
            let parent = c.text(m.parent).map(str::to_owned);
            let parent = c.b.name("linked mesh parent", parent.as_deref());
            let at = c.b.here();
            links.push(Link {
                mesh: next,
                skin: m.skin,
                slot,
                parent,
                inherit: m.inherit_timelines,
                at,
            });
            let [width, height] = m.size.unwrap_or([0.0, 0.0]);
            AttachmentKind::Mesh(MeshAttachment {
                path,
                color: Color::from_bytes(m.color),
                vertices: Vertices::Unweighted(Vec::new()),
                region_uvs: Vec::new(),
                triangles: Vec::new(),
                hull_length: 0,
                edges: Vec::new(),
                width: width * c.b.scale,
                height: height * c.b.scale,
                sequence,
                has_sequence: m.sequence.is_some(),
                linked_source: None,
                timeline_attachment: next,
                timeline_slots: Vec::new(),
                uvs: None,
            })
        }
        w::AttachmentKind::Path(p) => AttachmentKind::Path(PathAttachment {
            vertices: c.vertices(&p.vertices),
            lengths: p.lengths.iter().map(|&l| c.b.fs("path length", l)).collect(),
            closed: p.closed,
            constant_speed: p.constant_speed,
            color: p.color.map(Color::from_bytes),
        }),
        w::AttachmentKind::Point(p) => AttachmentKind::Point(PointAttachment {
            x: c.b.fs("x", p.x),
            y: c.b.fs("y", p.y),
            rotation: c.b.f("rotation", p.rotation),
            color: p.color.map(Color::from_bytes),
        }),
        w::AttachmentKind::Clipping(k) => AttachmentKind::Clipping(ClippingAttachment {
            end_slot: c.b.slot(k.end_slot),
            vertices: c.vertices(&k.vertices),
            color: k.color.map(Color::from_bytes),
        }),
    };
    c.b.add_attachment(AttachmentData { name: Arc::clone(name), kind })
}

/// Mesh consistency: one UV pair per vertex, triangle indices in range, hull within.
pub(crate) fn check_mesh_parts(
    b: &mut Builder<'_>,
    vertices: &Vertices,
    uvs: &[f32],
    triangles: &[u32],
    hull: u32,
) {
    let n = vertices.vertex_count();
    if !triangles.len().is_multiple_of(3) {
        b.report(ProblemKind::Invalid(format!(
            "{} triangle indices, not a multiple of 3",
            triangles.len()
        )));
    }
    if uvs.len() != n * 2 {
        b.report(ProblemKind::Invalid(format!("{} UVs for {n} vertices", uvs.len())));
    }
    if let Some(&t) = triangles.iter().find(|&&t| t as usize >= n) {
        b.report(ProblemKind::IndexOutOfRange {
            what: "triangle vertex",
            index: u64::from(t),
            len: n,
        });
    }
    if hull as usize > n {
        b.report(ProblemKind::IndexOutOfRange {
            what: "hull length",
            index: u64::from(hull),
            len: n + 1,
        });
    }
}

fn check_mesh(
    c: &mut Conv<'_, '_>,
    vertices: &Vertices,
    uvs: &[f32],
    triangles: &[u32],
    hull: u32,
) {
    check_mesh_parts(&mut c.b, vertices, uvs, triangles, hull);
}

/// Builds one [`AnimationData`] from an animation read in wire order (streamed from the
/// bytes by `load_binary`, replayed from the AST by `from_binary`).
struct AnimSink<'c, 'a, 'o> {
    c: &'c mut Conv<'a, 'o>,
    name: String,
    tl: Vec<Timeline>,
    duration: f32,
    slot: SlotId,
    bone: BoneId,
    path: Option<(ConstraintId, Option<(PositionMode, SpacingMode)>)>,
    physics: Option<ConstraintId>,
    skin: SkinId,
    attachment_slot: SlotId,
    /// Indices in `tl` of curve tables with a value that may not be finite (checked, in
    /// order, when the animation ends).
    unchecked: Vec<usize>,
    /// The animation's keys ([`AnimationData::keys`]), copied out when it ends (the
    /// buffer is kept for the next animation).
    keys: Vec<f32>,
    /// Scratch for a streamed curve table.
    scratch: Vec<f32>,
}

impl<'c, 'a, 'o> AnimSink<'c, 'a, 'o> {
    fn new(c: &'c mut Conv<'a, 'o>) -> Self {
        AnimSink {
            c,
            name: String::new(),
            tl: Vec::new(),
            duration: 0.0,
            slot: SlotId(0),
            bone: BoneId(0),
            path: None,
            physics: None,
            skin: SkinId(0),
            attachment_slot: SlotId(0),
            unchecked: Vec::new(),
            keys: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// Where a streamed curve table goes.
    fn out(&mut self) -> curves::KeyOut<'_> {
        curves::KeyOut { keys: &mut self.keys, curves: &mut self.scratch }
    }

    fn see(&mut self, t: f32) {
        self.duration = self.duration.max(t);
    }

    /// Adds a streamed curve timeline.
    fn push(&mut self, timeline: Timeline, s: curves::Streamed) {
        self.see(s.last_time);
        if !s.finite {
            self.unchecked.push(self.tl.len());
        }
        self.tl.push(timeline);
    }

    /// Checks the curve tables and adds the animation (after its events).
    fn finish(&mut self) {
        let tl = std::mem::take(&mut self.tl);
        // Only the streamed tables that saw a non-finite value can report one.
        for &i in &self.unchecked {
            if let Some(
                Timeline::Bone { curves, .. }
                | Timeline::Color { curves, .. }
                | Timeline::Transform { curves, .. }
                | Timeline::Path { curves, .. }
                | Timeline::Physics { curves, .. },
            ) = tl.get(i)
            {
                self.c.b.check_curves(curves.table(&self.keys));
            }
        }
        self.unchecked.clear();
        self.c.b.pop();
        // One exactly sized copy; the buffer keeps its capacity for the next animation.
        let keys = self.keys.as_slice().to_vec();
        self.keys.clear();
        self.c.b.data.animations.push(AnimationData {
            name: std::mem::take(&mut self.name),
            duration: self.duration,
            timelines: tl,
            keys,
        });
    }
}

impl wst::AnimationSink for AnimSink<'_, '_, '_> {
    fn begin(&mut self, name: &str, _: u32, capacity: usize) {
        self.c.b.enter("animation", name);
        self.name = name.to_owned();
        // The wire's timeline count (exact for editor exports), capped by the input.
        self.tl = Vec::with_capacity(capacity);
        self.duration = 0.0;
    }

    fn slot_group(&mut self, slot: u32, _: usize) {
        self.slot = self.c.b.slot(slot);
    }

    fn slot_timeline(&mut self, t: wst::SlotTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        use wst::SlotTimelineIn as I;
        let slot = self.slot;
        let (property, (curves, streamed)) = match t {
            I::Attachment(keys) => {
                self.see(keys.last().map_or(0.0, |k| k.time));
                let c = &mut *self.c;
                self.tl.push(Timeline::Attachment {
                    slot,
                    times: keys.iter().map(|k| k.time).collect(),
                    names: keys.iter().map(|k| c.shared(k.name)).collect(),
                });
                return Ok(());
            }
            I::Rgba(f) => (ColorProperty::Rgba, curves::stream_colors(self.out(), f)?),
            I::Rgb(f) => (ColorProperty::Rgb, curves::stream_colors(self.out(), f)?),
            I::Rgba2(f) => (ColorProperty::Rgba2, curves::stream_colors(self.out(), f)?),
            I::Rgb2(f) => (ColorProperty::Rgb2, curves::stream_colors(self.out(), f)?),
            I::Alpha(f) => (ColorProperty::Alpha, curves::stream_colors(self.out(), f)?),
        };
        self.push(Timeline::Color { slot, property, curves }, streamed);
        Ok(())
    }

    fn bone_group(&mut self, bone: u32, _: usize) {
        self.bone = self.c.b.bone(bone);
    }

    fn bone_timeline(&mut self, t: wst::BoneTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        use curves::stream_floats as floats;
        use wst::BoneTimelineIn as I;
        use BoneProperty as P;
        let bone = self.bone;
        let scale = self.c.b.scale;
        let (property, (curves, streamed)) = match t {
            I::Rotate(f) => (P::Rotate, floats(self.out(), f, 1.0)?),
            I::Translate(f) => (P::Translate, floats(self.out(), f, scale)?),
            I::TranslateX(f) => (P::TranslateX, floats(self.out(), f, scale)?),
            I::TranslateY(f) => (P::TranslateY, floats(self.out(), f, scale)?),
            I::Scale(f) => (P::Scale, floats(self.out(), f, 1.0)?),
            I::ScaleX(f) => (P::ScaleX, floats(self.out(), f, 1.0)?),
            I::ScaleY(f) => (P::ScaleY, floats(self.out(), f, 1.0)?),
            I::Shear(f) => (P::Shear, floats(self.out(), f, 1.0)?),
            I::ShearX(f) => (P::ShearX, floats(self.out(), f, 1.0)?),
            I::ShearY(f) => (P::ShearY, floats(self.out(), f, 1.0)?),
            I::Inherit(keys) => {
                self.see(keys.last().map_or(0.0, |k| k.time));
                let keys = keys.iter().map(|k| (k.time, inherit(k.inherit))).collect();
                self.tl.push(Timeline::Inherit { bone, keys });
                return Ok(());
            }
        };
        self.push(Timeline::Bone { bone, property, curves }, streamed);
        Ok(())
    }

    fn ik_timeline(&mut self, t: wa::IkTimeline) {
        self.see(t.keys.last().map_or(0.0, |k| k.time));
        let c = &mut *self.c;
        let scale = c.b.scale;
        let constraint = constraint_ref(c, Kind::Ik, t.constraint);
        let n = t.keys.len();
        let beziers = t.keys.iter().filter(|k| k.curve == CurveType::Bezier).count() * 2;
        let mut curves = CurveBuf::new(2, n, beziers);
        let mut flags = Vec::with_capacity(n);
        for k in &t.keys {
            let mix = match k.flags {
                Some(f) if f & 1 == 0 => 0.0,
                _ => k.mix.unwrap_or(1.0),
            };
            curves.frames.extend_from_slice(&[k.time, mix, k.softness.unwrap_or(0.0) * scale]);
            flags.push(IkFlags {
                bend_direction: if k.bend_direction < 0 { -1 } else { 1 },
                compress: k.compress,
                stretch: k.stretch,
            });
        }
        let mut next = 0;
        for (i, k) in t.keys.iter().enumerate().skip(1) {
            // Softness beziers scale their cy like the values; mix ones do not.
            let ctl = k.bezier.map(|[m, s]| [m, [s[0], s[1] * scale, s[2], s[3] * scale]]);
            let ctl: &[[f32; 4]] = ctl.as_ref().map_or(&[], |c| c.as_slice());
            curves::segment(&mut curves, &mut next, i - 1, k.curve, ctl, 1.0);
        }
        c.b.check_curves(curves.table());
        let curves = curves.store(&mut self.keys);
        self.tl.push(Timeline::Ik { constraint, curves, flags });
    }

    fn transform_timeline(
        &mut self,
        constraint: u32,
        t: CurveFrames<'_, '_, [f32; 6]>,
    ) -> Result<(), BinaryError> {
        let constraint = constraint_ref(self.c, Kind::Transform, constraint);
        let (curves, streamed) = curves::stream_floats(self.out(), t, 1.0)?;
        self.push(Timeline::Transform { constraint, curves }, streamed);
        Ok(())
    }

    fn path_group(&mut self, constraint: u32, _: usize) {
        let constraint = constraint_ref(self.c, Kind::Path, constraint);
        let data = match self.c.b.data.constraints.get(constraint.index()).map(|d| &d.kind) {
            Some(ConstraintKind::Path(p)) => Some((p.position_mode, p.spacing_mode)),
            _ => None,
        };
        self.path = Some((constraint, data));
    }

    fn path_timeline(&mut self, t: wst::PathTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        use wst::PathTimelineIn as I;
        let Some((constraint, data)) = self.path else { return Ok(()) };
        let scale = self.c.b.scale;
        let (property, (curves, streamed)) = match t {
            I::Position(f) => {
                let s = if matches!(data, Some((PositionMode::Fixed, _))) { scale } else { 1.0 };
                (PathProperty::Position, curves::stream_floats(self.out(), f, s)?)
            }
            I::Spacing(f) => {
                let s = if matches!(data, Some((_, SpacingMode::Length | SpacingMode::Fixed))) {
                    scale
                } else {
                    1.0
                };
                (PathProperty::Spacing, curves::stream_floats(self.out(), f, s)?)
            }
            I::Mix(f) => (PathProperty::Mix, curves::stream_floats(self.out(), f, 1.0)?),
        };
        self.push(Timeline::Path { constraint, property, curves }, streamed);
        Ok(())
    }

    fn physics_group(&mut self, constraint: u32, _: usize) {
        self.physics = match constraint {
            0 => None,
            n => Some(constraint_ref(self.c, Kind::Physics, n - 1)),
        };
    }

    fn physics_timeline(&mut self, t: wst::PhysicsTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        let constraint = self.physics;
        match t {
            wst::PhysicsTimelineIn::Value(p, f) => {
                use wa::PhysicsProperty as W;
                let property = match p {
                    W::Inertia => PhysicsProperty::Inertia,
                    W::Strength => PhysicsProperty::Strength,
                    W::Damping => PhysicsProperty::Damping,
                    W::Mass => PhysicsProperty::Mass,
                    W::Wind => PhysicsProperty::Wind,
                    W::Gravity => PhysicsProperty::Gravity,
                    W::Mix => PhysicsProperty::Mix,
                };
                let (curves, streamed) = curves::stream_floats(self.out(), f, 1.0)?;
                self.push(Timeline::Physics { constraint, property, curves }, streamed);
            }
            wst::PhysicsTimelineIn::Reset(times) => {
                self.see(times.last().copied().unwrap_or(0.0));
                self.tl.push(Timeline::PhysicsReset { constraint, times });
            }
        }
        Ok(())
    }

    fn attachment_skin(&mut self, skin: u32, _: usize) {
        let skin_len = self.c.b.data.skins.len();
        self.skin = SkinId(self.c.b.check_index("skin", skin, skin_len));
    }

    fn attachment_slot(&mut self, slot: u32, _: usize) {
        self.attachment_slot = self.c.b.slot(slot);
    }

    fn attachment_timeline(&mut self, attachment: StrRef, timeline: wa::AttachmentTimeline) {
        self.see(timeline.last_time());
        let (skin, slot) = (self.skin, self.attachment_slot);
        let c = &mut *self.c;
        let key = c.text(attachment).unwrap_or_default().to_owned();
        let is_deform = matches!(timeline, wa::AttachmentTimeline::Deform(_));
        let Some(att) = timeline_attachment(&mut c.b, skin, slot, &key, is_deform) else {
            return;
        };
        match timeline {
            wa::AttachmentTimeline::Deform(d) => {
                // Borrowed out of the attachment for the duration (put back below).
                let vertices = vertices_mut(&mut c.b.data.attachments[att.index()].kind)
                    .map(|v| std::mem::replace(v, Vertices::Unweighted(Vec::new())))
                    .unwrap_or(Vertices::Unweighted(Vec::new()));
                let n = d.keys.len();
                let beziers = d.keys.iter().filter(|k| k.curve == CurveType::Bezier).count();
                let mut curves = CurveBuf::new(0, n, beziers);
                let mut keys = Vec::with_capacity(n);
                c.b.enter("deform", &key);
                for (i, k) in d.keys.iter().enumerate() {
                    curves.frames.push(k.time);
                    let vals = (!k.values.is_empty()).then_some((k.start, k.values.as_slice()));
                    keys.push(c.b.deform_key(i, &vertices, vals));
                }
                c.b.pop();
                if let Some(v) = vertices_mut(&mut c.b.data.attachments[att.index()].kind) {
                    *v = vertices;
                }
                let mut next = 0;
                for (i, k) in d.keys.iter().enumerate().skip(1) {
                    let ctl = k.bezier.as_slice();
                    curves::segment(&mut curves, &mut next, i - 1, k.curve, ctl, 1.0);
                }
                let curves = curves.store(&mut self.keys);
                self.tl.push(Timeline::Deform { slot, attachment: att, curves, vertices: keys });
            }
            wa::AttachmentTimeline::Sequence(keys) => {
                let keys = keys
                    .iter()
                    .map(|k| SequenceKey {
                        time: k.time,
                        mode: seq_mode(k.mode()),
                        index: k.index(),
                        delay: k.delay,
                    })
                    .collect();
                self.tl.push(Timeline::Sequence { slot, attachment: att, keys });
            }
        }
    }

    fn draw_order(&mut self, keys: Vec<wa::DrawOrderKey>) {
        let Some(last) = keys.last() else { return };
        self.see(last.time);
        let n = self.c.b.data.slots.len();
        let mut times = Vec::with_capacity(keys.len());
        let mut orders = Vec::with_capacity(keys.len());
        for (i, k) in keys.iter().enumerate() {
            times.push(k.time);
            if k.changes.is_empty() {
                orders.push(None);
                continue;
            }
            match draw_order(n, k.changes.iter().map(|ch| (ch.slot, ch.shift))) {
                Ok(o) => orders.push(Some(o.into_iter().map(SlotId).collect())),
                Err(detail) => {
                    self.c.b.report(ProblemKind::BadDrawOrder { key: i, detail });
                    orders.push(None);
                }
            }
        }
        self.tl.push(Timeline::DrawOrder { times, orders });
    }

    fn events(&mut self, events: Vec<wa::EventKey>) {
        let Some(last) = events.last() else { return };
        self.see(last.time);
        let mut keys = Vec::with_capacity(events.len());
        for k in events {
            let event = self.c.b.event(k.event);
            let def = self.c.b.data.events.get(event.index());
            let string_value =
                k.string.or_else(|| def.map(|d| d.string_value.clone())).unwrap_or_default();
            let [volume, balance] =
                k.audio.unwrap_or_else(|| def.map_or([1.0, 0.0], |d| [d.volume, d.balance]));
            keys.push(EventKey {
                time: k.time,
                event,
                int_value: k.int,
                float_value: k.float,
                string_value,
                volume,
                balance,
            });
        }
        self.tl.push(Timeline::Event { keys });
    }
}

pub(crate) fn seq_mode(m: Option<wa::SequenceMode>) -> SequenceMode {
    use wa::SequenceMode as W;
    match m {
        Some(W::Hold) | None => SequenceMode::Hold,
        Some(W::Once) => SequenceMode::Once,
        Some(W::Loop) => SequenceMode::Loop,
        Some(W::Pingpong) => SequenceMode::PingPong,
        Some(W::OnceReverse) => SequenceMode::OnceReverse,
        Some(W::LoopReverse) => SequenceMode::LoopReverse,
        Some(W::PingpongReverse) => SequenceMode::PingPongReverse,
    }
}

/// Which of the converter's constraint id lists a timeline indexes.
#[derive(Clone, Copy)]
enum Kind {
    Ik,
    Transform,
    Path,
    Physics,
}

/// The vertices of a vertex attachment (`None` for the others).
fn vertices_mut(kind: &mut AttachmentKind) -> Option<&mut Vertices> {
    match kind {
        AttachmentKind::Mesh(m) => Some(&mut m.vertices),
        AttachmentKind::BoundingBox(b) => Some(&mut b.vertices),
        AttachmentKind::Path(p) => Some(&mut p.vertices),
        AttachmentKind::Clipping(k) => Some(&mut k.vertices),
        _ => None,
    }
}

fn constraint_ref(c: &mut Conv<'_, '_>, kind: Kind, index: u32) -> ConstraintId {
    let (ids, ty) = match kind {
        Kind::Ik => (&c.ik, ConstraintType::Ik),
        Kind::Transform => (&c.transform, ConstraintType::Transform),
        Kind::Path => (&c.path, ConstraintType::Path),
        Kind::Physics => (&c.physics, ConstraintType::Physics),
    };
    let len = ids.len();
    match ids.get(index as usize).copied() {
        Some(id) => c.b.constraint(id, ty),
        None => {
            let what = match ty {
                ConstraintType::Ik => "IK constraint",
                ConstraintType::Transform => "transform constraint",
                ConstraintType::Path => "path constraint",
                _ => "physics constraint",
            };
            c.b.report(ProblemKind::IndexOutOfRange { what, index: u64::from(index), len });
            ConstraintId(0)
        }
    }
}
