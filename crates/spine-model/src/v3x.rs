//! 3.5–3.7 and 3.8 binary → [`SkeletonData`].
//!
//! Both generations share their records (`spine_format::binary::v3_common`); they differ in
//! the string encoding (inline vs string table, abstracted by [`Text`]) and in a few header
//! fields, normalised by [`from_v35`] and [`from_v38`] into [`Head`]. Semantics follow
//! spine-libgdx `SkeletonBinary` of each 3.x branch.
//!
//! Upgrade rules applied here (checked over the corpus by `tests/corpus_all.rs` and
//! `tests/twins.rs`; the 3.x curve maths by unit tests in `curves.rs`):
//!
//! * **Behaviour**: [`Behaviour::new`] of the 3.x version: [`CurveModel::Sampled3x`] curve tables (one 3.x
//!   `setCurve` bezier per segment, shared by every channel, see `curves.rs`),
//!   [`RotationMix::Spine3`], [`EventWindow::Spine3`], no physics, no sequences,
//!   `ik_softness` from 3.8.
//! * **Transform modes → [`Inherit`]**: the five 3.x `TransformMode`s map one to one
//!   (`normal`, `onlyTranslation`, `noRotationOrReflection`, `noScale`,
//!   `noScaleOrReflection`).
//! * **Constraint order**: every 3.x runtime (libgdx/spine-c/spine-cpp 3.5–3.8
//!   `Skeleton.updateCache`) loops `i in 0..ik+transform+path` and takes the first IK, else
//!   transform, else path constraint whose `order == i` — the same precedence as 4.x, minus
//!   physics. Constraints the loop never reaches are reported (never updated by the runtime).
//! * **Transform constraints** → [`TransformSolver::Legacy3x`] (the 3.x maths differs from
//!   4.2 in the local absolute variant's angle wrapping), `local_source = local_target =
//!   local`, `additive = relative` (both `false` before 3.6); the four 3.x mixes become the
//!   six 4.x ones: `rotate`, `x = y = translate`, `scale x = scale y = scale`,
//!   `shear y = shear`; transform timelines likewise expand 4 → 6 channels.
//! * **Path constraints**: `rotateMix` → `mix_rotate`, `translateMix` → `mix_x = mix_y`;
//!   path mix timelines expand 2 → 3 channels (rotate, x, y).
//! * **IK**: 3.5/3.6 have no `compress`/`stretch`/`uniform` (false); before 3.8 no softness
//!   (0); `uniform: true` → [`ScaleYMode::Uniform`]. IK timelines get 2 channels (mix,
//!   softness × scale).
//! * **Colors / two-color tint**: slot dark colors (3.6+) from the `_ R G B` int bytes
//!   (3.6, spine-c); 3.7/3.8 as spine-cpp reads them, `R G B _` (see `dark_rgb_cpp`);
//!   two-color timelines become [`ColorProperty::Rgba2`] (light RGBA then dark RGB).
//! * **Deform (3.x FFD)**: keys become full deform arrays exactly like 4.x (setup vertices
//!   added for unweighted attachments); a deform keyed on a linked mesh's parent applies to
//!   linked meshes with `inheritDeform` (3.x `applyDeform`), expressed by
//!   `timeline_attachment`.
//! * **Linked meshes** name their parent's skin (`null` = the default skin).
//! * No bounds x/y before 3.8 (0); reference scale 100 × scale; no skin-required bones or
//!   constraints before 3.8.

use spine_format::binary::shared::Keyframe;
use spine_format::binary::v3_common as w;
use spine_format::binary::{v35, v38, StrRef};
use spine_format::SpineVersion;

use crate::anim::*;
use crate::build::{draw_order, share, Builder, PendingLink};
use crate::curves::{sampled3x, Curve3};
use crate::data::*;
use crate::error::{LoadError, ProblemKind};
use crate::ids::*;
use crate::v40::{check_mesh_parts, identity_properties, timeline_attachment, vertices_of};
use crate::LoadOptions;
use std::sync::Arc;

/// Resolves the generation's string encoding.
pub(crate) trait Text<S> {
    /// The text of a string field (`None` = null).
    fn text<'a>(&'a self, s: &'a S) -> Option<&'a str>;
}

/// 3.5–3.7 inline strings.
struct Inline;

impl Text<Option<String>> for Inline {
    fn text<'a>(&'a self, s: &'a Option<String>) -> Option<&'a str> {
        s.as_deref()
    }
}

/// 3.8 string table.
struct Table<'t>(&'t [String]);

impl Text<StrRef> for Table<'_> {
    fn text<'a>(&'a self, s: &'a StrRef) -> Option<&'a str> {
        s.resolve(self.0)
    }
}

/// 3.x transform modes map one to one onto [`Inherit`].
pub(crate) fn inherit(m: w::TransformMode) -> Inherit {
    match m {
        w::TransformMode::Normal => Inherit::Normal,
        w::TransformMode::OnlyTranslation => Inherit::OnlyTranslation,
        w::TransformMode::NoRotationOrReflection => Inherit::NoRotationOrReflection,
        w::TransformMode::NoScale => Inherit::NoScale,
        w::TransformMode::NoScaleOrReflection => Inherit::NoScaleOrReflection,
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

/// A 3.x constraint in its per-type list, normalised.
pub(crate) enum Con3<'a> {
    /// IK: record, softness, skin required.
    Ik { name: &'a str, order: u32, skin: bool, data: Ik3 },
    /// Transform.
    Transform { name: &'a str, order: u32, skin: bool, data: Transform3 },
    /// Path.
    Path { name: &'a str, order: u32, skin: bool, data: Path3 },
    /// Physics (4.2 JSON), already resolved.
    Physics { name: &'a str, order: u32, skin: bool, data: PhysicsData },
}

/// 3.x IK setup values (indices unresolved).
pub(crate) struct Ik3 {
    pub bones: Vec<u32>,
    pub target: u32,
    pub mix: f32,
    pub softness: f32,
    pub bend: i32,
    pub compress: bool,
    pub stretch: bool,
    pub uniform: bool,
}

/// 3.x transform setup values.
pub(crate) struct Transform3 {
    pub bones: Vec<u32>,
    pub target: u32,
    pub local: bool,
    pub relative: bool,
    /// Rotation, x, y (unscaled), scale x, scale y, shear y.
    pub offsets: [f32; 6],
    /// Rotate, x, y, scale x, scale y, shear y (3.x: expanded from its four mixes).
    pub mixes: [f32; 6],
    /// The solver.
    pub solver: TransformSolver,
}

/// 3.x path setup values.
pub(crate) struct Path3 {
    pub bones: Vec<u32>,
    pub target: u32,
    pub position_mode: PositionMode,
    pub spacing_mode: SpacingMode,
    pub rotate_mode: RotateMode,
    pub offset_rotation: f32,
    pub position: f32,
    pub spacing: f32,
    pub rotate_mix: f32,
    pub mix_x: f32,
    pub mix_y: f32,
}

impl Con3<'_> {
    fn order(&self) -> u32 {
        match self {
            Con3::Ik { order, .. }
            | Con3::Transform { order, .. }
            | Con3::Path { order, .. }
            | Con3::Physics { order, .. } => *order,
        }
    }
    fn name(&self) -> &str {
        match self {
            Con3::Ik { name, .. }
            | Con3::Transform { name, .. }
            | Con3::Path { name, .. }
            | Con3::Physics { name, .. } => name,
        }
    }
}

/// Merges the three per-type lists by `order` as every 3.x `Skeleton.updateCache` does (the
/// first IK, else transform, else path constraint with `order == i`, for `i` in
/// `0..count`; 4.2 JSON: then physics), builds them, and returns the ids of each list
/// (`[ik, transform, path, physics]`). `cons` must list IK constraints, then transform, then
/// path, then physics ones, each in file order.
pub(crate) fn constraints3(b: &mut Builder<'_>, cons: Vec<Con3<'_>>) -> [Vec<ConstraintId>; 4] {
    let kind = |c: &Con3<'_>| match c {
        Con3::Ik { .. } => 0usize,
        Con3::Transform { .. } => 1,
        Con3::Path { .. } => 2,
        Con3::Physics { .. } => 3,
    };
    let n = cons.len();
    let mut used = vec![false; n];
    let mut sorted = Vec::with_capacity(n);
    for i in 0..n as u64 {
        if let Some(p) = (0..n).find(|&p| !used[p] && u64::from(cons[p].order()) == i) {
            used[p] = true;
            sorted.push(p);
        }
    }
    for p in 0..n {
        if !used[p] {
            b.push(format!("constraint \"{}\"", cons[p].name()));
            b.report(ProblemKind::Invalid(format!(
                "update order {} is never reached by the runtime's update cache",
                cons[p].order()
            )));
            b.pop();
            sorted.push(p);
        }
    }
    let mut ids: [Vec<ConstraintId>; 4] = Default::default();
    let mut within = vec![0usize; n];
    let mut counts = [0usize; 4];
    for (p, c) in cons.iter().enumerate() {
        let k = kind(c);
        within[p] = counts[k];
        counts[k] += 1;
    }
    for (k, v) in ids.iter_mut().enumerate() {
        *v = vec![ConstraintId(0); counts[k]];
    }
    for (id, &p) in sorted.iter().enumerate() {
        let id = ConstraintId(id as u32);
        ids[kind(&cons[p])][within[p]] = id;
        let data = match &cons[p] {
            Con3::Ik { name, skin, data, .. } => {
                b.enter("IK constraint", name);
                let d = IkData {
                    bones: b.bones(&data.bones),
                    target: b.bone(data.target),
                    mix: b.f("mix", data.mix),
                    softness: b.fs("softness", data.softness),
                    bend_direction: if data.bend < 0 { -1 } else { 1 },
                    compress: data.compress,
                    stretch: data.stretch,
                    scale_y_mode: if data.uniform { ScaleYMode::Uniform } else { ScaleYMode::None },
                };
                if d.bones.is_empty() || d.bones.len() > 2 {
                    b.report(ProblemKind::Invalid(format!(
                        "{} constrained bones (1 or 2)",
                        d.bones.len()
                    )));
                }
                ConstraintData {
                    name: (*name).to_owned(),
                    skin_required: *skin,
                    kind: ConstraintKind::Ik(d),
                }
            }
            Con3::Transform { name, skin, data, .. } => {
                b.enter("transform constraint", name);
                let o = data.offsets;
                let m = data.mixes;
                let offsets = [
                    b.f("offset", o[0]),
                    b.fs("offset", o[1]),
                    b.fs("offset", o[2]),
                    b.f("offset", o[3]),
                    b.f("offset", o[4]),
                    b.f("offset", o[5]),
                ];
                let mixes = m.map(|v| b.f("mix", v));
                let d = TransformData {
                    bones: b.bones(&data.bones),
                    source: b.bone(data.target),
                    local_source: data.local,
                    local_target: data.local,
                    additive: data.relative,
                    clamp: false,
                    properties: identity_properties(),
                    offsets,
                    mixes,
                    solver: data.solver,
                };
                ConstraintData {
                    name: (*name).to_owned(),
                    skin_required: *skin,
                    kind: ConstraintKind::Transform(d),
                }
            }
            Con3::Path { name, skin, data, .. } => {
                b.enter("path constraint", name);
                let position = if data.position_mode == PositionMode::Fixed {
                    b.fs("position", data.position)
                } else {
                    b.f("position", data.position)
                };
                let spacing =
                    if matches!(data.spacing_mode, SpacingMode::Length | SpacingMode::Fixed) {
                        b.fs("spacing", data.spacing)
                    } else {
                        b.f("spacing", data.spacing)
                    };
                let d = PathData {
                    bones: b.bones(&data.bones),
                    slot: b.slot(data.target),
                    position_mode: data.position_mode,
                    spacing_mode: data.spacing_mode,
                    rotate_mode: data.rotate_mode,
                    offset_rotation: b.f("offset rotation", data.offset_rotation),
                    position,
                    spacing,
                    mix_rotate: b.f("mix rotate", data.rotate_mix),
                    mix_x: b.f("mix x", data.mix_x),
                    mix_y: b.f("mix y", data.mix_y),
                };
                ConstraintData {
                    name: (*name).to_owned(),
                    skin_required: *skin,
                    kind: ConstraintKind::Path(d),
                }
            }
            Con3::Physics { name, skin, data, .. } => {
                b.enter("physics constraint", name);
                ConstraintData {
                    name: (*name).to_owned(),
                    skin_required: *skin,
                    kind: ConstraintKind::Physics(data.clone()),
                }
            }
        };
        b.pop();
        b.data.constraints.push(data);
    }
    ids
}

fn position_mode(m: w::PositionMode) -> PositionMode {
    match m {
        w::PositionMode::Fixed => PositionMode::Fixed,
        w::PositionMode::Percent => PositionMode::Percent,
    }
}

fn spacing_mode(m: w::SpacingMode) -> SpacingMode {
    match m {
        w::SpacingMode::Length => SpacingMode::Length,
        w::SpacingMode::Fixed => SpacingMode::Fixed,
        w::SpacingMode::Percent => SpacingMode::Percent,
    }
}

fn rotate_mode(m: w::RotateMode) -> RotateMode {
    match m {
        w::RotateMode::Tangent => RotateMode::Tangent,
        w::RotateMode::Chain => RotateMode::Chain,
        w::RotateMode::ChainScale => RotateMode::ChainScale,
    }
}

struct Conv<'a, 'o, T> {
    t: &'a T,
    b: Builder<'o>,
    ids: [Vec<ConstraintId>; 4],
}

/// A named skin, normalised.
struct Skin3<'a, S> {
    name: String,
    bones: &'a [u32],
    cons: [&'a [u32]; 3],
    slots: &'a [w::SkinSlot<S>],
}

/// A slot's setup dark color as spine-cpp 3.7/3.8 `SkeletonBinary` reads it: four bytes
/// taken as `R G B A` (libgdx and spine-c read the same `int` as `_ R G B`), none when all
/// four are `FF`. The official C++ runtime of those versions therefore shifts every setup
/// dark color by one byte (`00 c5 7c 1e` gives `(0, c5, 7c)`, not `(c5, 7c, 1e)`).
fn dark_rgb_cpp(bytes: [u8; 4]) -> Option<[u8; 3]> {
    let [r, g, b, _] = bytes;
    (bytes != [0xff; 4]).then_some([r, g, b])
}

/// Converts a parsed 3.5–3.7 skeleton.
pub(crate) fn from_v35(
    s: &v35::Skeleton,
    options: &LoadOptions<'_>,
) -> Result<SkeletonData, LoadError> {
    let mut b = Builder::new(Behaviour::new(s.generation, &s.header.version), options);
    let h = &s.header;
    b.data.hash = h.hash.clone().unwrap_or_default();
    b.data.width = h.width;
    b.data.height = h.height;
    b.data.fps = h.nonessential.as_ref().map_or(30.0, |n| n.fps);
    b.data.reference_scale = 100.0 * b.scale;
    for (i, bone) in s.bones.iter().enumerate() {
        bone3(
            &mut b,
            i,
            &bone.name,
            bone.parent,
            bone_values(bone),
            bone.transform_mode,
            false,
            bone.color,
        );
    }
    let t = Inline;
    let cpp37 = s.generation == SpineVersion::V3_7;
    for slot in &s.slots {
        let dark = if cpp37 { dark_rgb_cpp(slot.dark_color) } else { slot.dark_rgb() };
        slot3(
            &mut b,
            &slot.name,
            slot.bone,
            slot.color,
            dark,
            t.text(&slot.attachment),
            slot.blend,
        );
    }
    let mut cons = Vec::new();
    for k in &s.ik {
        let data = Ik3 {
            bones: k.bones.clone(),
            target: k.target,
            mix: k.mix,
            softness: 0.0,
            bend: i32::from(k.bend_direction),
            compress: k.compress,
            stretch: k.stretch,
            uniform: k.uniform,
        };
        cons.push(Con3::Ik { name: &k.name, order: k.order, skin: false, data });
    }
    for k in &s.transform {
        let data = Transform3 {
            bones: k.bones.clone(),
            target: k.target,
            local: k.local,
            relative: k.relative,
            offsets: k.offsets,
            mixes: mixes3(k.mixes),
            solver: TransformSolver::Legacy3x,
        };
        cons.push(Con3::Transform { name: &k.name, order: k.order, skin: false, data });
    }
    for p in &s.path {
        cons.push(Con3::Path { name: &p.name, order: p.order, skin: false, data: path3(p) });
    }
    let ids = constraints3(&mut b, cons);
    for e in &s.events {
        event3(&mut b, &e.name, e.int, e.float, e.string.as_deref(), e.audio.as_ref());
    }
    let skins: Vec<Skin3<'_, Option<String>>> = s
        .skins
        .iter()
        .map(|k| Skin3 {
            name: k.name.clone().unwrap_or_default(),
            bones: &[],
            cons: [&[], &[], &[]],
            slots: &k.slots,
        })
        .collect();
    let mut c = Conv { t: &t, b, ids };
    skins3(&mut c, &s.default_skin, &skins);
    c.b.resolve_links();
    c.b.bind_atlas();
    for a in &s.animations {
        animation(&mut c, a);
    }
    c.b.finish()
}

/// Converts a parsed 3.8 skeleton.
pub(crate) fn from_v38(
    s: &v38::Skeleton,
    options: &LoadOptions<'_>,
) -> Result<SkeletonData, LoadError> {
    let mut b = Builder::new(Behaviour::new(SpineVersion::V3_8, &s.header.version), options);
    let h = &s.header;
    b.data.hash = h.hash.clone().unwrap_or_default();
    b.data.x = h.x;
    b.data.y = h.y;
    b.data.width = h.width;
    b.data.height = h.height;
    b.data.fps = h.nonessential.as_ref().map_or(30.0, |n| n.fps);
    b.data.reference_scale = 100.0 * b.scale;
    for (i, bone) in s.bones.iter().enumerate() {
        let v = [
            bone.length,
            bone.x,
            bone.y,
            bone.rotation,
            bone.scale_x,
            bone.scale_y,
            bone.shear_x,
            bone.shear_y,
        ];
        bone3(
            &mut b,
            i,
            &bone.name,
            bone.parent,
            v,
            bone.transform_mode,
            bone.skin_required,
            bone.color,
        );
    }
    let t = Table(&s.strings);
    for slot in &s.slots {
        let dark = dark_rgb_cpp(slot.dark_color);
        slot3(
            &mut b,
            &slot.name,
            slot.bone,
            slot.color,
            dark,
            t.text(&slot.attachment),
            slot.blend,
        );
    }
    let mut cons = Vec::new();
    for k in &s.ik {
        let data = Ik3 {
            bones: k.bones.clone(),
            target: k.target,
            mix: k.mix,
            softness: k.softness,
            bend: i32::from(k.bend_direction),
            compress: k.compress,
            stretch: k.stretch,
            uniform: k.uniform,
        };
        cons.push(Con3::Ik { name: &k.name, order: k.order, skin: k.skin_required, data });
    }
    for k in &s.transform {
        let data = Transform3 {
            bones: k.bones.clone(),
            target: k.target,
            local: k.local,
            relative: k.relative,
            offsets: k.offsets,
            mixes: mixes3(k.mixes),
            solver: TransformSolver::Legacy3x,
        };
        cons.push(Con3::Transform { name: &k.name, order: k.order, skin: k.skin_required, data });
    }
    for p in &s.path {
        let data = Path3 {
            bones: p.bones.clone(),
            target: p.target,
            position_mode: position_mode(p.position_mode),
            spacing_mode: spacing_mode(p.spacing_mode),
            rotate_mode: rotate_mode(p.rotate_mode),
            offset_rotation: p.offset_rotation,
            position: p.position,
            spacing: p.spacing,
            rotate_mix: p.rotate_mix,
            mix_x: p.translate_mix,
            mix_y: p.translate_mix,
        };
        cons.push(Con3::Path { name: &p.name, order: p.order, skin: p.skin_required, data });
    }
    let ids = constraints3(&mut b, cons);
    for e in &s.events {
        let name = t.text(&e.name).map(str::to_owned);
        let name = b.name("event", name.as_deref());
        event3(&mut b, &name, e.int, e.float, e.string.as_deref(), e.audio.as_ref());
    }
    let skins: Vec<Skin3<'_, StrRef>> = s
        .skins
        .iter()
        .map(|k| Skin3 {
            name: t.text(&k.name).unwrap_or_default().to_owned(),
            bones: &k.bones,
            cons: [&k.ik, &k.transform, &k.path],
            slots: &k.slots,
        })
        .collect();
    let mut c = Conv { t: &t, b, ids };
    skins3(&mut c, &s.default_skin, &skins);
    c.b.resolve_links();
    c.b.bind_atlas();
    for a in &s.animations {
        animation(&mut c, a);
    }
    c.b.finish()
}

fn bone_values(bone: &v35::Bone) -> [f32; 8] {
    [
        bone.length,
        bone.x,
        bone.y,
        bone.rotation,
        bone.scale_x,
        bone.scale_y,
        bone.shear_x,
        bone.shear_y,
    ]
}

fn path3(p: &v35::PathConstraint) -> Path3 {
    Path3 {
        bones: p.bones.clone(),
        target: p.target,
        position_mode: position_mode(p.position_mode),
        spacing_mode: spacing_mode(p.spacing_mode),
        rotate_mode: rotate_mode(p.rotate_mode),
        offset_rotation: p.offset_rotation,
        position: p.position,
        spacing: p.spacing,
        rotate_mix: p.rotate_mix,
        mix_x: p.translate_mix,
        mix_y: p.translate_mix,
    }
}

/// 3.x transform mixes (rotate, translate, scale, shear) as the six 4.x ones: translate
/// drives x and y, scale drives scale x and y.
pub(crate) fn mixes3([r, t, s, sh]: [f32; 4]) -> [f32; 6] {
    [r, t, t, s, s, sh]
}

/// Adds a bone: `v` = length, x, y, rotation, scale x, scale y, shear x, shear y.
#[allow(clippy::too_many_arguments)]
fn bone3(
    b: &mut Builder<'_>,
    i: usize,
    name: &str,
    parent: Option<u32>,
    v: [f32; 8],
    mode: w::TransformMode,
    skin_required: bool,
    color: Option<[u8; 4]>,
) {
    b.enter("bone", name);
    let data = BoneData {
        name: name.to_owned(),
        parent: None,
        length: b.fs("length", v[0]),
        x: b.fs("x", v[1]),
        y: b.fs("y", v[2]),
        rotation: b.f("rotation", v[3]),
        scale_x: b.f("scale x", v[4]),
        scale_y: b.f("scale y", v[5]),
        shear_x: b.f("shear x", v[6]),
        shear_y: b.f("shear y", v[7]),
        inherit: inherit(mode),
        skin_required,
        color: color.map(Color::from_bytes),
    };
    b.add_bone(i, parent, data);
    b.pop();
}

fn slot3(
    b: &mut Builder<'_>,
    name: &str,
    bone: u32,
    color: [u8; 4],
    dark: Option<[u8; 3]>,
    attachment: Option<&str>,
    mode: w::BlendMode,
) {
    b.enter("slot", name);
    let bone = b.bone(bone);
    b.data.slots.push(SlotData {
        name: name.to_owned(),
        bone,
        color: Color::from_bytes(color),
        dark_color: dark.map(Color::from_rgb),
        attachment: attachment.map(str::to_owned),
        blend: blend(mode),
    });
    b.pop();
}

fn event3(
    b: &mut Builder<'_>,
    name: &str,
    int: i32,
    float: f32,
    string: Option<&str>,
    audio: Option<&w::EventDataAudio>,
) {
    b.data.events.push(EventData {
        name: name.to_owned(),
        int_value: int,
        float_value: float,
        string_value: string.unwrap_or_default().to_owned(),
        audio_path: audio.map(|a| a.path.clone()).unwrap_or_default(),
        volume: audio.map_or(1.0, |a| a.volume),
        balance: audio.map_or(0.0, |a| a.balance),
    });
}

struct Link3 {
    mesh: AttachmentId,
    skin: Option<String>,
    slot: u32,
    parent: String,
    inherit: bool,
    at: crate::build::PathAt,
}

fn skins3<S, T: Text<S>>(
    c: &mut Conv<'_, '_, T>,
    default: &[w::SkinSlot<S>],
    skins: &[Skin3<'_, S>],
) {
    let mut links = Vec::new();
    if !default.is_empty() {
        c.b.data.default_skin = Some(SkinId(0));
        c.b.push("skin \"default\"");
        let entries = skin_entries(c, default, &mut links);
        c.b.pop();
        c.b.add_skin(SkinData {
            name: "default".into(),
            bones: Vec::new(),
            constraints: Vec::new(),
            entries,
            color: None,
        });
    }
    for skin in skins {
        c.b.enter("skin", &skin.name);
        let bones = c.b.bones(skin.bones);
        let mut constraints = Vec::new();
        for (k, list) in skin.cons.iter().enumerate() {
            for &i in *list {
                match c.ids[k].get(i as usize) {
                    Some(&id) => constraints.push(id),
                    None => c.b.report(ProblemKind::IndexOutOfRange {
                        what: "constraint",
                        index: u64::from(i),
                        len: c.ids[k].len(),
                    }),
                }
            }
        }
        let entries = skin_entries(c, skin.slots, &mut links);
        c.b.pop();
        c.b.add_skin(SkinData {
            name: skin.name.clone(),
            bones,
            constraints,
            entries,
            color: None,
        });
    }
    for l in links {
        let skin = match &l.skin {
            None => c.b.data.default_skin.map(|d| d.0),
            Some(n) => c.b.data.skins.iter().position(|s| &s.name == n).map(|i| i as u32),
        };
        c.b.link(PendingLink {
            mesh: l.mesh,
            skin: skin.unwrap_or(u32::MAX),
            slot: l.slot,
            source: l.parent,
            inherit_timelines: l.inherit,
            at: l.at,
        });
    }
}

fn skin_entries<S, T: Text<S>>(
    c: &mut Conv<'_, '_, T>,
    slots: &[w::SkinSlot<S>],
    links: &mut Vec<Link3>,
) -> Vec<SkinEntry> {
    let mut entries = Vec::new();
    for sa in slots {
        let slot = c.b.slot(sa.slot);
        let slot_name =
            c.b.data.slots.get(slot.index()).map(|s| s.name.clone()).unwrap_or_default();
        c.b.enter("slot", &slot_name);
        for e in &sa.entries {
            let key = c.b.name_shared("attachment", c.t.text(&e.key));
            let name = share(&key, c.t.text(&e.name));
            c.b.enter("attachment", &key);
            let id = attachment(c, &name, &e.attachment, sa.slot, links);
            c.b.pop();
            entries.push(SkinEntry { slot, name: key, attachment: id });
        }
        c.b.pop();
    }
    entries
}

fn vertices(b: &mut Builder<'_>, v: &w::Vertices) -> Vertices {
    match v {
        w::Vertices::Unweighted(xy) => b.unweighted(xy),
        w::Vertices::Weighted(vs) => {
            b.weighted(vs.iter().map(|v| v.iter().map(|i| (i.bone, i.x, i.y, i.weight))))
        }
    }
}

fn attachment<S, T: Text<S>>(
    c: &mut Conv<'_, '_, T>,
    name: &Arc<str>,
    a: &w::Attachment<S>,
    slot: u32,
    links: &mut Vec<Link3>,
) -> AttachmentId {
    let next = AttachmentId(c.b.data.attachments.len() as u32);
    let kind = match a {
        w::Attachment::Region(r) => {
            let path = share(name, c.t.text(&r.path));
            let sequence = c.b.sequence(&path, None);
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
                has_sequence: false,
                offsets: None,
                uvs: None,
            })
        }
        w::Attachment::BoundingBox(bb) => AttachmentKind::BoundingBox(BoundingBoxAttachment {
            vertices: vertices(&mut c.b, &bb.vertices),
            color: bb.color.map(Color::from_bytes),
        }),
        w::Attachment::Mesh(m) => {
            let path = share(name, c.t.text(&m.path));
            let sequence = c.b.sequence(&path, None);
            let verts = vertices(&mut c.b, &m.vertices);
            let triangles: Vec<u32> = m.triangles.iter().map(|&t| u32::from(t)).collect();
            check_mesh_parts(&mut c.b, &verts, &m.uvs, &triangles, m.hull_length);
            let (edges, width, height) = match &m.extras {
                Some(e) => (
                    e.edges.iter().map(|&x| u32::from(x)).collect(),
                    e.size.width * c.b.scale,
                    e.size.height * c.b.scale,
                ),
                None => (Vec::new(), 0.0, 0.0),
            };
            AttachmentKind::Mesh(MeshAttachment {
                path,
                color: Color::from_bytes(m.color),
                vertices: verts,
                region_uvs: m.uvs.clone(),
                triangles,
                hull_length: m.hull_length,
                edges,
                width,
                height,
                sequence,
                has_sequence: false,
                linked_source: None,
                timeline_attachment: next,
                timeline_slots: Vec::new(),
                uvs: None,
            })
        }
        w::Attachment::LinkedMesh(m) => {
            let path = share(name, c.t.text(&m.path));
            let sequence = c.b.sequence(&path, None);
            let parent = c.t.text(&m.parent).map(str::to_owned);
            let parent = c.b.name("linked mesh parent", parent.as_deref());
            let at = c.b.here();
            links.push(Link3 {
                mesh: next,
                skin: c.t.text(&m.skin).map(str::to_owned),
                slot,
                parent,
                inherit: m.inherit_deform,
                at,
            });
            let (width, height) = m.size.map_or((0.0, 0.0), |s| (s.width, s.height));
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
                has_sequence: false,
                linked_source: None,
                timeline_attachment: next,
                timeline_slots: Vec::new(),
                uvs: None,
            })
        }
        w::Attachment::Path(p) => AttachmentKind::Path(PathAttachment {
            vertices: vertices(&mut c.b, &p.vertices),
            lengths: p.lengths.iter().map(|&l| c.b.fs("path length", l)).collect(),
            closed: p.closed,
            constant_speed: p.constant_speed,
            color: p.color.map(Color::from_bytes),
        }),
        w::Attachment::Point(p) => AttachmentKind::Point(PointAttachment {
            x: c.b.fs("x", p.x),
            y: c.b.fs("y", p.y),
            rotation: c.b.f("rotation", p.rotation),
            color: p.color.map(Color::from_bytes),
        }),
        w::Attachment::Clipping(k) => AttachmentKind::Clipping(ClippingAttachment {
            end_slot: c.b.slot(k.end_slot),
            vertices: vertices(&mut c.b, &k.vertices),
            color: k.color.map(Color::from_bytes),
        }),
    };
    c.b.add_attachment(AttachmentData { name: Arc::clone(name), kind })
}

fn curve3(c: &w::Curve) -> Curve3 {
    match *c {
        w::Curve::Linear => Curve3::Linear,
        w::Curve::Stepped => Curve3::Stepped,
        w::Curve::Bezier(b) => Curve3::Bezier(b),
    }
}

/// A 3.x wire timeline as a [`CurveModel::Sampled3x`] table (`values` gives the channels),
/// stored in the animation's keys `pool`.
fn table<V>(
    pool: &mut Vec<f32>,
    t: &w::Timeline<V>,
    channels: usize,
    values: impl Fn(&V) -> Vec<f32>,
) -> Curves {
    let curves: Vec<Curve3> = t.curves.iter().map(curve3).collect();
    let keys = t.frames.iter().map(|f: &Keyframe<V>| (f.time, values(&f.value)));
    sampled3x(channels, keys.collect::<Vec<_>>().into_iter(), &curves).store(pool)
}

fn constraint_ref<T>(
    c: &mut Conv<'_, '_, T>,
    list: usize,
    index: u32,
    ty: ConstraintType,
) -> ConstraintId {
    match c.ids[list].get(index as usize).copied() {
        Some(id) => c.b.constraint(id, ty),
        None => {
            let what = ["IK constraint", "transform constraint", "path constraint"][list];
            let len = c.ids[list].len();
            c.b.report(ProblemKind::IndexOutOfRange { what, index: u64::from(index), len });
            ConstraintId(0)
        }
    }
}

fn animation<S, T: Text<S>>(c: &mut Conv<'_, '_, T>, a: &w::Animation<S>) {
    c.b.enter("animation", &a.name);
    let scale = c.b.scale;
    let byte = |v: u8| f32::from(v) / 255.0;
    let mut tl = Vec::new();
    let mut pool = Vec::new();
    for st in &a.slots {
        let slot = c.b.slot(st.slot);
        for t in &st.timelines {
            match t {
                w::SlotTimeline::Attachment(keys) => tl.push(Timeline::Attachment {
                    slot,
                    times: keys.iter().map(|k| k.time).collect(),
                    names: keys.iter().map(|k| c.t.text(&k.name).map(Arc::from)).collect(),
                }),
                w::SlotTimeline::Color(t) => tl.push(Timeline::Color {
                    slot,
                    property: ColorProperty::Rgba,
                    curves: table(&mut pool, t, 4, |v| v.iter().map(|&x| byte(x)).collect()),
                }),
                w::SlotTimeline::TwoColor(t) => tl.push(Timeline::Color {
                    slot,
                    property: ColorProperty::Rgba2,
                    curves: table(&mut pool, t, 7, |v| {
                        let [r, g, b, al] = v.light;
                        let [_, dr, dg, db] = v.dark;
                        [r, g, b, al, dr, dg, db].iter().map(|&x| byte(x)).collect()
                    }),
                }),
            }
        }
    }
    for bt in &a.bones {
        let bone = c.b.bone(bt.bone);
        for t in &bt.timelines {
            let (property, curves) = match t {
                w::BoneTimeline::Rotate(t) => {
                    (BoneProperty::Rotate, table(&mut pool, t, 1, |v| vec![*v]))
                }
                w::BoneTimeline::Translate(t) => (
                    BoneProperty::Translate,
                    table(&mut pool, t, 2, |v| vec![v[0] * scale, v[1] * scale]),
                ),
                w::BoneTimeline::Scale(t) => {
                    (BoneProperty::Scale, table(&mut pool, t, 2, |v| v.to_vec()))
                }
                w::BoneTimeline::Shear(t) => {
                    (BoneProperty::Shear, table(&mut pool, t, 2, |v| v.to_vec()))
                }
            };
            tl.push(Timeline::Bone { bone, property, curves });
        }
    }
    for t in &a.ik {
        let constraint = constraint_ref(c, 0, t.constraint, ConstraintType::Ik);
        let curves = table(&mut pool, &t.timeline, 2, |k| vec![k.mix, k.softness * scale]);
        let flags = t
            .timeline
            .frames
            .iter()
            .map(|f| IkFlags {
                bend_direction: if f.value.bend_direction < 0 { -1 } else { 1 },
                compress: f.value.compress,
                stretch: f.value.stretch,
            })
            .collect();
        tl.push(Timeline::Ik { constraint, curves, flags });
    }
    for t in &a.transform {
        let constraint = constraint_ref(c, 1, t.constraint, ConstraintType::Transform);
        // 3.x rotate, translate, scale, shear → rotate, x, y, scale x, scale y, shear y.
        let curves = table(&mut pool, &t.timeline, 6, |m| vec![m[0], m[1], m[1], m[2], m[2], m[3]]);
        tl.push(Timeline::Transform { constraint, curves });
    }
    for pt in &a.path {
        let constraint = constraint_ref(c, 2, pt.constraint, ConstraintType::Path);
        let modes = match c.b.data.constraints.get(constraint.index()).map(|d| &d.kind) {
            Some(ConstraintKind::Path(p)) => Some((p.position_mode, p.spacing_mode)),
            _ => None,
        };
        for t in &pt.timelines {
            let (property, curves) = match t {
                w::PathTimeline::Position(t) => {
                    let s =
                        if matches!(modes, Some((PositionMode::Fixed, _))) { scale } else { 1.0 };
                    (PathProperty::Position, table(&mut pool, t, 1, |v| vec![v * s]))
                }
                w::PathTimeline::Spacing(t) => {
                    let s = if matches!(modes, Some((_, SpacingMode::Length | SpacingMode::Fixed)))
                    {
                        scale
                    } else {
                        1.0
                    };
                    (PathProperty::Spacing, table(&mut pool, t, 1, |v| vec![v * s]))
                }
                // 3.x rotate, translate → rotate, x, y.
                w::PathTimeline::Mix(t) => {
                    (PathProperty::Mix, table(&mut pool, t, 3, |m| vec![m[0], m[1], m[1]]))
                }
            };
            tl.push(Timeline::Path { constraint, property, curves });
        }
    }
    for sk in &a.deform {
        let skin_len = c.b.data.skins.len();
        let skin = SkinId(c.b.check_index("skin", sk.skin, skin_len));
        for sl in &sk.slots {
            let slot = c.b.slot(sl.slot);
            for d in &sl.attachments {
                let key = c.t.text(&d.attachment).unwrap_or_default().to_owned();
                let Some(att) = timeline_attachment(&mut c.b, skin, slot, &key, true) else {
                    continue;
                };
                let verts = vertices_of(&c.b.data.attachments[att.index()].kind);
                let curves = table(&mut pool, &d.timeline, 0, |_| Vec::new());
                c.b.enter("deform", &key);
                let mut keys = Vec::with_capacity(d.timeline.frames.len());
                for (i, f) in d.timeline.frames.iter().enumerate() {
                    let vals = (!f.value.offsets.is_empty())
                        .then_some((f.value.start, f.value.offsets.as_slice()));
                    keys.push(c.b.deform_key(i, &verts, vals));
                }
                c.b.pop();
                tl.push(Timeline::Deform { slot, attachment: att, curves, vertices: keys });
            }
        }
    }
    if !a.draw_order.is_empty() {
        let n = c.b.data.slots.len();
        let mut times = Vec::with_capacity(a.draw_order.len());
        let mut orders = Vec::with_capacity(a.draw_order.len());
        for (i, k) in a.draw_order.iter().enumerate() {
            times.push(k.time);
            if k.changes.is_empty() {
                orders.push(None);
                continue;
            }
            match draw_order(n, k.changes.iter().map(|ch| (ch.slot, ch.shift))) {
                Ok(o) => orders.push(Some(o.into_iter().map(SlotId).collect())),
                Err(detail) => {
                    c.b.report(ProblemKind::BadDrawOrder { key: i, detail });
                    orders.push(None);
                }
            }
        }
        tl.push(Timeline::DrawOrder { times, orders });
    }
    if !a.events.is_empty() {
        let mut keys = Vec::with_capacity(a.events.len());
        for k in &a.events {
            let event = c.b.event(k.event);
            let def = c.b.data.events.get(event.index());
            // A key's own string (possibly null = empty), else the event's default.
            let string_value = match &k.string {
                Some(s) => s.clone().unwrap_or_default(),
                None => def.map(|d| d.string_value.clone()).unwrap_or_default(),
            };
            let (volume, balance) = match k.audio {
                Some(au) => (au.volume, au.balance),
                None => def.map_or((1.0, 0.0), |d| (d.volume, d.balance)),
            };
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
        tl.push(Timeline::Event { keys });
    }
    for t in &tl {
        if let Timeline::Bone { curves, .. }
        | Timeline::Color { curves, .. }
        | Timeline::Ik { curves, .. }
        | Timeline::Transform { curves, .. }
        | Timeline::Path { curves, .. } = t
        {
            c.b.check_curves(curves.table(&pool));
        }
    }
    c.b.pop();
    c.b.data.animations.push(AnimationData {
        name: a.name.clone(),
        duration: a.duration(),
        timelines: tl,
        keys: pool,
    });
}
