//! Spine JSON skeletons of editor version 4.3.
//!
//! 4.3 reorganised the JSON: every constraint lives in one ordered `constraints` array with a
//! `type` (`ik`, `transform`, `path`, `physics`, `slider`), transform constraints map source
//! properties to target properties (`properties: {from: {offset, to: {to: {offset, max,
//! scale}}}}`), linked meshes name their `source` (and its `slot`), animations gained `slider`
//! timelines, `drawOrderFolder` timelines and a `color`. The reference for what is read, and
//! with which defaults, is the official 4.3 `SkeletonJson` (spine-ts / spine-libgdx, branch
//! 4.3); [`parse`] reads into a raw AST ([`Skeleton`]) in the style of [`crate::json`]: names
//! stay names (nothing is resolved), numbers stay unscaled, colors become `[u8; 4]` bytes, and
//! every field the loader reads with a default is an `Option` documenting that default (some
//! 4.3 defaults differ from 4.2: physics `inertia` 0.5 and `damping` 0.85). Keys the 4.3
//! loader does not read are ignored. Enum strings are read as the official loader reads them
//! (`Utils.enumValue` upper-cases the first letter, so `normal` and `Normal` are the same).
//!
//! Where the official loader would fail on a missing value (a region without `width`, a
//! mesh without `uvs`, a slider without `animation`, …) the reader reports it. Types shared
//! with the 3.5–4.2 AST ([`crate::json`]) are reused: keys, curves, slot and bone timelines,
//! IK keys, deform and sequence keys, events, sequences, blend and path modes.
//!
//! Errors are [`JsonError`]s naming the JSON path; [`parse_with_limits`] enforces the same
//! [`Limits`] as every other parser of this crate, under the same names.
//!
//! [`write()`] is the inverse up to formatting: `parse(&write(&s)) == s` for every parsed `s`.

mod anim;
mod write;

pub use anim::*;
pub use write::write;

use crate::json::value::{self, as_str, as_u32, check_count, each, each_named_some, Obj, J, P, R};

/// Keeps one item per key with JavaScript object semantics (the official 4.3 loader reads
/// the text with `JSON.parse`): a key written twice keeps its first position and its last
/// value. `None` values (entries the loader skips) are dropped after that.
pub(crate) fn last_wins<K: std::hash::Hash + Eq, T>(items: Vec<(K, Option<T>)>) -> Vec<T> {
    let mut at = std::collections::HashMap::with_capacity(items.len());
    let mut out: Vec<Option<T>> = Vec::with_capacity(items.len());
    for (k, t) in items {
        match at.get(&k) {
            Some(&i) => out[i] = t,
            None => {
                at.insert(k, out.len());
                out.push(t);
            }
        }
    }
    out.into_iter().flatten().collect()
}

/// The entries of an object of `what`, each read with `f` (`None`: skipped), one per key
/// ([`last_wins`]).
pub(crate) fn named_some<'d, T>(
    v: J<'d>,
    p: &P<'_>,
    what: &'static str,
    mut f: impl FnMut(&'d str, J<'d>, &P<'_>) -> R<Option<T>>,
) -> R<Vec<T>> {
    let items = each_named_some(v, p, what, |k, v, p| Ok(Some((k, f(k, v, p)?))))?;
    Ok(last_wins(items))
}

/// [`named_some`] keeping every entry.
pub(crate) fn named<'d, T>(
    v: J<'d>,
    p: &P<'_>,
    what: &'static str,
    mut f: impl FnMut(&'d str, J<'d>, &P<'_>) -> R<T>,
) -> R<Vec<T>> {
    named_some(v, p, what, |k, v, p| f(k, v, p).map(Some))
}
use crate::json::{
    AttachmentType, BlendMode, EventDef, Inherit, JsonError, JsonErrorKind, PositionMode,
    RotateMode, Sequence, SpacingMode, Vertices,
};
use crate::{AnimationSummary, ConstraintCounts, Limits, Summary};
use serde::Serialize;

/// Reads an enum spelled as the 4.3 loader reads it (`Utils.enumValue`: the first letter is
/// upper-cased before the lookup, so either case is accepted for it).
fn read_enum<T: Copy>(v: J<'_>, p: &P<'_>, all: &[T], name: fn(T) -> &'static str) -> R<T> {
    let s = as_str(v, p)?;
    let same = |n: &str| {
        let (mut a, mut b) = (s.chars(), n.chars());
        match (a.next(), b.next()) {
            (Some(x), Some(y)) => x.eq_ignore_ascii_case(&y) && a.as_str() == b.as_str(),
            (None, None) => true,
            _ => false,
        }
    };
    all.iter().copied().find(|&t| same(name(t))).ok_or_else(|| {
        let names: Vec<&str> = all.iter().map(|&t| name(t)).collect();
        p.err(format!("expected one of {}, found {s:?}", names.join(", ")))
    })
}

fn blend(v: J<'_>, p: &P<'_>) -> R<BlendMode> {
    use BlendMode as B;
    read_enum(v, p, &[B::Normal, B::Additive, B::Multiply, B::Screen], B::as_str)
}

pub(crate) fn inherit(v: J<'_>, p: &P<'_>) -> R<Inherit> {
    use Inherit as I;
    let all = [
        I::Normal,
        I::OnlyTranslation,
        I::NoRotationOrReflection,
        I::NoScale,
        I::NoScaleOrReflection,
    ];
    read_enum(v, p, &all, I::as_str)
}

fn position_mode(v: J<'_>, p: &P<'_>) -> R<PositionMode> {
    read_enum(v, p, &[PositionMode::Fixed, PositionMode::Percent], PositionMode::as_str)
}

fn spacing_mode(v: J<'_>, p: &P<'_>) -> R<SpacingMode> {
    use SpacingMode as S;
    read_enum(v, p, &[S::Length, S::Fixed, S::Percent, S::Proportional], S::as_str)
}

fn rotate_mode(v: J<'_>, p: &P<'_>) -> R<RotateMode> {
    use RotateMode as M;
    read_enum(v, p, &[M::Tangent, M::Chain, M::ChainScale], M::as_str)
}

/// How IK stretch or physics scale-x changes a bone's scale y (`scaleY`; default `none`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ScaleYMode {
    /// `none`.
    None,
    /// `uniform`.
    Uniform,
    /// `volume`.
    Volume,
}

impl ScaleYMode {
    /// The spelling written.
    pub fn as_str(self) -> &'static str {
        match self {
            ScaleYMode::None => "none",
            ScaleYMode::Uniform => "uniform",
            ScaleYMode::Volume => "volume",
        }
    }
    fn read(v: J<'_>, p: &P<'_>) -> R<Self> {
        use ScaleYMode as S;
        read_enum(v, p, &[S::None, S::Uniform, S::Volume], S::as_str)
    }
}

/// A bone property read or written by transform constraints and sliders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Property {
    /// `rotate`.
    Rotate,
    /// `x` (scaled).
    X,
    /// `y` (scaled).
    Y,
    /// `scaleX`.
    ScaleX,
    /// `scaleY`.
    ScaleY,
    /// `shearY`.
    ShearY,
}

impl Property {
    /// Every property, in the wire order.
    pub const ALL: [Property; 6] = [
        Property::Rotate,
        Property::X,
        Property::Y,
        Property::ScaleX,
        Property::ScaleY,
        Property::ShearY,
    ];
    /// The spelling in the JSON file.
    pub fn as_str(self) -> &'static str {
        match self {
            Property::Rotate => "rotate",
            Property::X => "x",
            Property::Y => "y",
            Property::ScaleX => "scaleX",
            Property::ScaleY => "scaleY",
            Property::ShearY => "shearY",
        }
    }
    /// From the spelling (exact, as the loader's `switch`).
    pub fn from_name(s: &str) -> Option<Property> {
        Property::ALL.into_iter().find(|p| p.as_str() == s)
    }
    fn read(v: J<'_>, p: &P<'_>) -> R<Self> {
        let s = as_str(v, p)?;
        Property::from_name(s).ok_or_else(|| {
            p.err(format!("expected one of rotate, x, y, scaleX, scaleY, shearY, found {s:?}"))
        })
    }
}

/// The `skeleton` object (every field optional; the whole object may be absent).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Info {
    /// `hash`.
    pub hash: Option<String>,
    /// `spine`: the editor version string.
    pub spine: Option<String>,
    /// `x` (default 0).
    pub x: Option<f32>,
    /// `y` (default 0).
    pub y: Option<f32>,
    /// `width` (default 0).
    pub width: Option<f32>,
    /// `height` (default 0).
    pub height: Option<f32>,
    /// `referenceScale` (default 100; scaled).
    pub reference_scale: Option<f32>,
    /// `fps` (nonessential; default 30).
    pub fps: Option<f32>,
    /// `images` path.
    pub images: Option<String>,
    /// `audio` path.
    pub audio: Option<String>,
}

/// A bone (`bones[i]`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Bone {
    /// `name` (required).
    pub name: String,
    /// `parent` bone name (absent for the root).
    pub parent: Option<String>,
    /// `length` (default 0; scaled).
    pub length: Option<f32>,
    /// `x` (default 0; scaled).
    pub x: Option<f32>,
    /// `y` (default 0; scaled).
    pub y: Option<f32>,
    /// `rotation` (default 0).
    pub rotation: Option<f32>,
    /// `scaleX` (default 1).
    pub scale_x: Option<f32>,
    /// `scaleY` (default 1).
    pub scale_y: Option<f32>,
    /// `shearX` (default 0).
    pub shear_x: Option<f32>,
    /// `shearY` (default 0).
    pub shear_y: Option<f32>,
    /// `inherit` (default `normal`).
    pub inherit: Option<Inherit>,
    /// `skin`: only active when a skin includes it (default false).
    pub skin: Option<bool>,
    /// `color` (nonessential; default `989898FF`).
    pub color: Option<[u8; 4]>,
    /// `icon` (nonessential).
    pub icon: Option<String>,
    /// `iconSize` (nonessential; default 1).
    pub icon_size: Option<f32>,
    /// `iconRotation` (nonessential; default 0).
    pub icon_rotation: Option<f32>,
    /// `visible` (nonessential; default true; not read by the runtime loader).
    pub visible: Option<bool>,
}

/// A slot (`slots[i]`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Slot {
    /// `name` (required).
    pub name: String,
    /// `bone` name (required).
    pub bone: String,
    /// `color` (default `FFFFFFFF`).
    pub color: Option<[u8; 4]>,
    /// `dark` color for two-color tinting (absent = no dark color; alpha ignored).
    pub dark: Option<[u8; 4]>,
    /// `attachment` visible in the setup pose.
    pub attachment: Option<String>,
    /// `blend` (default `normal`).
    pub blend: Option<BlendMode>,
    /// `visible` (nonessential; default true).
    pub visible: Option<bool>,
}

/// An IK constraint (`type: "ik"`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct IkConstraint {
    /// `bones` names.
    pub bones: Vec<String>,
    /// `target` bone name (required).
    pub target: String,
    /// `scaleY` mode (default `none`).
    pub scale_y: Option<ScaleYMode>,
    /// `mix` (default 1).
    pub mix: Option<f32>,
    /// `softness` (default 0; scaled).
    pub softness: Option<f32>,
    /// `bendPositive` (default true).
    pub bend_positive: Option<bool>,
    /// `compress` (default false).
    pub compress: Option<bool>,
    /// `stretch` (default false).
    pub stretch: Option<bool>,
}

/// A target property of a transform constraint (`properties.<from>.to.<to>`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToEntry {
    /// The key: the property written.
    pub property: Property,
    /// `offset` (default 0; scaled for `x`/`y`).
    pub offset: Option<f32>,
    /// `max` (default 1; scaled for `x`/`y`).
    pub max: Option<f32>,
    /// `scale` (default 1; × toScale / fromScale).
    pub scale: Option<f32>,
}

/// A source property of a transform constraint (`properties.<from>`). The loader keeps it
/// only when it has at least one target.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FromEntry {
    /// The key: the property read.
    pub property: Property,
    /// `offset` (default 0; scaled for `x`/`y`).
    pub offset: Option<f32>,
    /// `to` entries in file order.
    pub to: Vec<ToEntry>,
}

/// A transform constraint (`type: "transform"`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct TransformConstraint {
    /// `bones` names.
    pub bones: Vec<String>,
    /// `source` bone name (required).
    pub source: String,
    /// `localSource` (default false).
    pub local_source: Option<bool>,
    /// `localTarget` (default false).
    pub local_target: Option<bool>,
    /// `additive` (default false).
    pub additive: Option<bool>,
    /// `clamp` (default false).
    pub clamp: Option<bool>,
    /// `properties` in file order.
    pub properties: Vec<FromEntry>,
    /// Offsets `rotation`, `x`, `y` (scaled), `scaleX`, `scaleY`, `shearY` (default 0 each).
    pub offsets: [Option<f32>; 6],
    /// Mixes `mixRotate`, `mixX`, `mixY`, `mixScaleX`, `mixScaleY`, `mixShearY`. The loader
    /// reads each only when some target writes that property (default 1; `mixY` defaults to
    /// `mixX`, `mixScaleY` to `mixScaleX`); a mix of a property no target writes stays 0.
    pub mixes: [Option<f32>; 6],
}

/// The JSON keys of [`TransformConstraint::offsets`].
pub const OFFSET_KEYS: [&str; 6] = ["rotation", "x", "y", "scaleX", "scaleY", "shearY"];
/// The JSON keys of [`TransformConstraint::mixes`] (and of transform timeline keys).
pub const MIX_KEYS: [&str; 6] =
    ["mixRotate", "mixX", "mixY", "mixScaleX", "mixScaleY", "mixShearY"];

/// A path constraint (`type: "path"`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct PathConstraint {
    /// `bones` names.
    pub bones: Vec<String>,
    /// `slot` name of the path attachment (required).
    pub slot: String,
    /// `positionMode` (default `percent`).
    pub position_mode: Option<PositionMode>,
    /// `spacingMode` (default `length`).
    pub spacing_mode: Option<SpacingMode>,
    /// `rotateMode` (default `tangent`).
    pub rotate_mode: Option<RotateMode>,
    /// `rotation` offset (default 0).
    pub rotation: Option<f32>,
    /// `position` (default 0; scaled when the position mode is `fixed`).
    pub position: Option<f32>,
    /// `spacing` (default 0; scaled for `length` and `fixed` spacing).
    pub spacing: Option<f32>,
    /// `mixRotate` (default 1).
    pub mix_rotate: Option<f32>,
    /// `mixX` (default 1).
    pub mix_x: Option<f32>,
    /// `mixY` (default `mixX`).
    pub mix_y: Option<f32>,
}

/// A physics constraint (`type: "physics"`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct PhysicsConstraint {
    /// `bone` name (required).
    pub bone: String,
    /// `x` (default 0).
    pub x: Option<f32>,
    /// `y` (default 0).
    pub y: Option<f32>,
    /// `rotate` (default 0).
    pub rotate: Option<f32>,
    /// `scaleX` (default 0).
    pub scale_x: Option<f32>,
    /// `scaleY` mode (default `none`).
    pub scale_y: Option<ScaleYMode>,
    /// `shearX` (default 0).
    pub shear_x: Option<f32>,
    /// `limit` (default 5000; scaled).
    pub limit: Option<f32>,
    /// `fps` (default 60; the step is 1/fps).
    pub fps: Option<f32>,
    /// `inertia` (default 0.5).
    pub inertia: Option<f32>,
    /// `strength` (default 100).
    pub strength: Option<f32>,
    /// `damping` (default 0.85).
    pub damping: Option<f32>,
    /// `mass` (default 1; the runtime keeps 1/mass).
    pub mass: Option<f32>,
    /// `wind` (default 0).
    pub wind: Option<f32>,
    /// `gravity` (default 0).
    pub gravity: Option<f32>,
    /// `mix` (default 1).
    pub mix: Option<f32>,
    /// `inertiaGlobal`, `strengthGlobal`, `dampingGlobal`, `massGlobal`, `windGlobal`,
    /// `gravityGlobal`, `mixGlobal` (default false each), in that order.
    pub global: [Option<bool>; 7],
}

/// The JSON keys of [`PhysicsConstraint::global`].
pub const GLOBAL_KEYS: [&str; 7] = [
    "inertiaGlobal",
    "strengthGlobal",
    "dampingGlobal",
    "massGlobal",
    "windGlobal",
    "gravityGlobal",
    "mixGlobal",
];

/// The bone that drives a slider (`bone` and the keys read with it).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct SliderBone {
    /// `bone` name.
    pub bone: String,
    /// `property` read from the bone (required with `bone`).
    pub property: Option<Property>,
    /// `from`: the property offset (default 0; scaled for `x`/`y`).
    pub from: Option<f32>,
    /// `to`: the time offset (default 0).
    pub to: Option<f32>,
    /// `scale` (default 1; ÷ scale for `x`/`y`).
    pub scale: Option<f32>,
    /// `max` (nonessential editor value; default 0).
    pub max: Option<f32>,
    /// `local` (default false).
    pub local: Option<bool>,
}

/// A slider constraint (`type: "slider"`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct SliderConstraint {
    /// `additive` (default false).
    pub additive: Option<bool>,
    /// `loop` (default false).
    pub looping: Option<bool>,
    /// `mix` (default 1).
    pub mix: Option<f32>,
    /// The driving bone, when `bone` is present (then `time` is not read).
    pub bone: Option<SliderBone>,
    /// `time` (default 0; read only without `bone`).
    pub time: Option<f32>,
    /// `animation` name (required).
    pub animation: String,
}

/// A constraint body by `type`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum ConstraintKind {
    /// `ik`.
    Ik(IkConstraint),
    /// `transform`.
    Transform(TransformConstraint),
    /// `path`.
    Path(PathConstraint),
    /// `physics`.
    Physics(PhysicsConstraint),
    /// `slider`.
    Slider(SliderConstraint),
}

impl ConstraintKind {
    /// The `type` spelling.
    pub fn type_name(&self) -> &'static str {
        match self {
            ConstraintKind::Ik(_) => "ik",
            ConstraintKind::Transform(_) => "transform",
            ConstraintKind::Path(_) => "path",
            ConstraintKind::Physics(_) => "physics",
            ConstraintKind::Slider(_) => "slider",
        }
    }
}

/// One entry of `constraints` (update order).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Constraint {
    /// `name` (required).
    pub name: String,
    /// `skin`: only active when a skin includes it (default false).
    pub skin: Option<bool>,
    /// The `type` and its fields.
    pub kind: ConstraintKind,
}

/// An attachment of a skin.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Attachment {
    /// The key in the skin's slot map (the skin placeholder name).
    pub key: String,
    /// `name` (default: the key).
    pub name: Option<String>,
    /// `type` as written (default `region`).
    pub declared_type: Option<AttachmentType>,
    /// The type-specific data.
    pub kind: AttachmentKind,
}

/// Type-specific attachment data.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum AttachmentKind {
    /// `region`.
    Region {
        /// `path` (default: the attachment name).
        path: Option<String>,
        /// `x` (default 0).
        x: Option<f32>,
        /// `y` (default 0).
        y: Option<f32>,
        /// `scaleX` (default 1).
        scale_x: Option<f32>,
        /// `scaleY` (default 1).
        scale_y: Option<f32>,
        /// `rotation` (default 0).
        rotation: Option<f32>,
        /// `width` (required).
        width: f32,
        /// `height` (required).
        height: f32,
        /// `color` (default white).
        color: Option<[u8; 4]>,
        /// `sequence` (`count` default 0).
        sequence: Option<Sequence>,
    },
    /// `boundingbox`.
    BoundingBox {
        /// `vertexCount` (required).
        vertex_count: u32,
        /// `vertices` (required).
        vertices: Vertices,
        /// `color` (nonessential).
        color: Option<[u8; 4]>,
    },
    /// `mesh` (or `linkedmesh`) without `source`.
    Mesh {
        /// `path` (default: the attachment name).
        path: Option<String>,
        /// `color` (default white).
        color: Option<[u8; 4]>,
        /// `width` (nonessential; default 0).
        width: Option<f32>,
        /// `height` (nonessential; default 0).
        height: Option<f32>,
        /// `sequence`.
        sequence: Option<Sequence>,
        /// `uvs` (required).
        uvs: Vec<f32>,
        /// `vertices` (required; weighted when its length differs from `uvs`).
        vertices: Vertices,
        /// `triangles` (required).
        triangles: Vec<u32>,
        /// `hull` vertex count (default 0).
        hull: Option<u32>,
        /// `edges` (nonessential).
        edges: Option<Vec<u32>>,
    },
    /// `mesh` or `linkedmesh` with a `source`.
    LinkedMesh {
        /// `path` (default: the attachment name).
        path: Option<String>,
        /// `color` (default white).
        color: Option<[u8; 4]>,
        /// `width` (nonessential; default 0).
        width: Option<f32>,
        /// `height` (nonessential; default 0).
        height: Option<f32>,
        /// `sequence`.
        sequence: Option<Sequence>,
        /// `source` mesh placeholder name (required here).
        source: String,
        /// `slot` of the source mesh (default: this attachment's slot).
        slot: Option<String>,
        /// `skin` of the source mesh (default: the default skin).
        skin: Option<String>,
        /// `timelines`: use the source's deform and sequence timelines (default true).
        timelines: Option<bool>,
    },
    /// `path`.
    Path {
        /// `closed` (default false).
        closed: Option<bool>,
        /// `constantSpeed` (default true).
        constant_speed: Option<bool>,
        /// `vertexCount` (required).
        vertex_count: u32,
        /// `vertices` (required).
        vertices: Vertices,
        /// `lengths` (required; one per curve, `vertexCount / 3`).
        lengths: Vec<f32>,
        /// `color` (nonessential).
        color: Option<[u8; 4]>,
    },
    /// `point`.
    Point {
        /// `x` (default 0).
        x: Option<f32>,
        /// `y` (default 0).
        y: Option<f32>,
        /// `rotation` (default 0).
        rotation: Option<f32>,
        /// `color` (nonessential).
        color: Option<[u8; 4]>,
    },
    /// `clipping`.
    Clipping {
        /// `end` slot name.
        end: Option<String>,
        /// `convex` (default false).
        convex: Option<bool>,
        /// `inverse` (default false).
        inverse: Option<bool>,
        /// `vertexCount` (required).
        vertex_count: u32,
        /// `vertices` (required).
        vertices: Vertices,
        /// `color` (nonessential).
        color: Option<[u8; 4]>,
    },
}

/// The attachments of one slot in a skin.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct SkinSlot {
    /// Slot name.
    pub slot: String,
    /// Attachments in file order.
    pub attachments: Vec<Attachment>,
}

/// A skin (`skins[i]`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Skin {
    /// `name` (required).
    pub name: String,
    /// `bones` it activates.
    pub bones: Vec<String>,
    /// `ik` constraint names.
    pub ik: Vec<String>,
    /// `transform` constraint names.
    pub transform: Vec<String>,
    /// `path` constraint names.
    pub path: Vec<String>,
    /// `physics` constraint names.
    pub physics: Vec<String>,
    /// `slider` constraint names.
    pub slider: Vec<String>,
    /// `attachments` per slot.
    pub slots: Vec<SkinSlot>,
    /// `color` (nonessential).
    pub color: Option<[u8; 4]>,
}

/// A whole 4.3 JSON skeleton.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Skeleton {
    /// The `skeleton` object (all defaults when absent).
    pub info: Info,
    /// `bones`.
    pub bones: Vec<Bone>,
    /// `slots`.
    pub slots: Vec<Slot>,
    /// `constraints`, in update order.
    pub constraints: Vec<Constraint>,
    /// `skins`, in file order.
    pub skins: Vec<Skin>,
    /// `events` definitions.
    pub events: Vec<EventDef>,
    /// `animations`.
    pub animations: Vec<Animation>,
}

/// The objects of the array `k` (`what` for its count limit), each read with `f`.
fn list<T>(o: &Obj, k: &str, what: &'static str, f: impl Fn(&Obj) -> R<T>) -> R<Vec<T>> {
    Ok(o.opt(k, |v, p| each(v, p, what, |x, p| f(&Obj::new(x, p)?)))?.unwrap_or_default())
}

fn read_info(o: &Obj) -> R<Info> {
    Ok(Info {
        hash: o.string("hash")?,
        spine: o.string("spine")?,
        x: o.f32("x")?,
        y: o.f32("y")?,
        width: o.f32("width")?,
        height: o.f32("height")?,
        reference_scale: o.f32("referenceScale")?,
        fps: o.f32("fps")?,
        images: o.string("images")?,
        audio: o.string("audio")?,
    })
}

fn read_bone(o: &Obj) -> R<Bone> {
    Ok(Bone {
        name: o.req_string("name")?,
        parent: o.string("parent")?,
        length: o.f32("length")?,
        x: o.f32("x")?,
        y: o.f32("y")?,
        rotation: o.f32("rotation")?,
        scale_x: o.f32("scaleX")?,
        scale_y: o.f32("scaleY")?,
        shear_x: o.f32("shearX")?,
        shear_y: o.f32("shearY")?,
        inherit: o.opt("inherit", inherit)?,
        skin: o.bool("skin")?,
        color: o.color("color")?,
        icon: o.string("icon")?,
        icon_size: o.f32("iconSize")?,
        icon_rotation: o.f32("iconRotation")?,
        visible: o.bool("visible")?,
    })
}

fn read_slot(o: &Obj) -> R<Slot> {
    Ok(Slot {
        name: o.req_string("name")?,
        bone: o.req_string("bone")?,
        color: o.color("color")?,
        dark: o.color("dark")?,
        attachment: o.string("attachment")?,
        blend: o.opt("blend", blend)?,
        visible: o.bool("visible")?,
    })
}

fn read_transform(o: &Obj) -> R<TransformConstraint> {
    let properties = o
        .opt("properties", |v, p| {
            named(v, p, "transform property", |from, v, p| {
                let property = Property::from_name(from).ok_or_else(|| {
                    p.err(format!("invalid transform constraint from property {from:?}"))
                })?;
                let f = Obj::new(v, p)?;
                let to = f
                    .opt("to", |v, p| {
                        named(v, p, "transform property", |to, v, p| {
                            let property = Property::from_name(to).ok_or_else(|| {
                                p.err(format!("invalid transform constraint to property {to:?}"))
                            })?;
                            let t = Obj::new(v, p)?;
                            Ok(ToEntry {
                                property,
                                offset: t.f32("offset")?,
                                max: t.f32("max")?,
                                scale: t.f32("scale")?,
                            })
                        })
                    })?
                    .unwrap_or_default();
                Ok(FromEntry { property, offset: f.f32("offset")?, to })
            })
        })?
        .unwrap_or_default();
    let mut offsets = [None; 6];
    for (o_, k) in offsets.iter_mut().zip(OFFSET_KEYS) {
        *o_ = o.f32(k)?;
    }
    let mut mixes = [None; 6];
    for (m, k) in mixes.iter_mut().zip(MIX_KEYS) {
        *m = o.f32(k)?;
    }
    Ok(TransformConstraint {
        bones: o.strings("bones", "bone")?,
        source: o.req_string("source")?,
        local_source: o.bool("localSource")?,
        local_target: o.bool("localTarget")?,
        additive: o.bool("additive")?,
        clamp: o.bool("clamp")?,
        properties,
        offsets,
        mixes,
    })
}

fn read_constraint(o: &Obj) -> R<Constraint> {
    let name = o.req_string("name")?;
    let skin = o.bool("skin")?;
    let ty = o.req("type", |v, p| as_str(v, p).map(str::to_owned))?;
    let kind = match ty.as_str() {
        "ik" => ConstraintKind::Ik(IkConstraint {
            bones: o.strings("bones", "bone")?,
            target: o.req_string("target")?,
            scale_y: o.opt("scaleY", ScaleYMode::read)?,
            mix: o.f32("mix")?,
            softness: o.f32("softness")?,
            bend_positive: o.bool("bendPositive")?,
            compress: o.bool("compress")?,
            stretch: o.bool("stretch")?,
        }),
        "transform" => ConstraintKind::Transform(read_transform(o)?),
        "path" => ConstraintKind::Path(PathConstraint {
            bones: o.strings("bones", "bone")?,
            slot: o.req_string("slot")?,
            position_mode: o.opt("positionMode", position_mode)?,
            spacing_mode: o.opt("spacingMode", spacing_mode)?,
            rotate_mode: o.opt("rotateMode", rotate_mode)?,
            rotation: o.f32("rotation")?,
            position: o.f32("position")?,
            spacing: o.f32("spacing")?,
            mix_rotate: o.f32("mixRotate")?,
            mix_x: o.f32("mixX")?,
            mix_y: o.f32("mixY")?,
        }),
        "physics" => {
            let mut global = [None; 7];
            for (g, k) in global.iter_mut().zip(GLOBAL_KEYS) {
                *g = o.bool(k)?;
            }
            ConstraintKind::Physics(PhysicsConstraint {
                bone: o.req_string("bone")?,
                x: o.f32("x")?,
                y: o.f32("y")?,
                rotate: o.f32("rotate")?,
                scale_x: o.f32("scaleX")?,
                scale_y: o.opt("scaleY", ScaleYMode::read)?,
                shear_x: o.f32("shearX")?,
                limit: o.f32("limit")?,
                fps: o.f32("fps")?,
                inertia: o.f32("inertia")?,
                strength: o.f32("strength")?,
                damping: o.f32("damping")?,
                mass: o.f32("mass")?,
                wind: o.f32("wind")?,
                gravity: o.f32("gravity")?,
                mix: o.f32("mix")?,
                global,
            })
        }
        "slider" => {
            let bone = match o.string("bone")? {
                Some(bone) => Some(SliderBone {
                    bone,
                    property: Some(o.req("property", Property::read)?),
                    from: o.f32("from")?,
                    to: o.f32("to")?,
                    scale: o.f32("scale")?,
                    max: o.f32("max")?,
                    local: o.bool("local")?,
                }),
                None => None,
            };
            ConstraintKind::Slider(SliderConstraint {
                additive: o.bool("additive")?,
                looping: o.bool("loop")?,
                mix: o.f32("mix")?,
                time: if bone.is_none() { o.f32("time")? } else { None },
                bone,
                animation: o.req_string("animation")?,
            })
        }
        other => {
            return Err(o.p.key("type").err(format!(
                "unknown constraint type {other:?} (expected one of ik, transform, path, physics, slider)"
            )))
        }
    };
    Ok(Constraint { name, skin, kind })
}

/// A sequence: `count` (default 0) must be non-negative and within
/// [`Limits::max_sequence_frames`], `digits` within [`Limits::max_string_bytes`].
fn read_sequence(v: J<'_>, p: &P<'_>) -> R<Sequence> {
    let o = Obj::new(v, p)?;
    let count = o
        .opt("count", |v, p| {
            let n = value::as_i32(v, p)?;
            let n = u32::try_from(n)
                .map_err(|_| p.err(format!("expected a non-negative frame count, found {n}")))?;
            check_count(v, p, "sequence frame", n as usize)?;
            Ok(n as i32)
        })?
        .unwrap_or(0);
    let digits = o.opt("digits", |v, p| {
        let n = value::as_i32(v, p)?;
        let max = v.limits().max_string_bytes;
        if usize::try_from(n).is_ok_and(|d| d > max) {
            return Err(p.limit("max_string_bytes", n as usize, max));
        }
        Ok(n)
    })?;
    Ok(Sequence { count, start: o.i32("start")?, digits, setup: o.i32("setup")? })
}

/// An array of numbers whose length (`len` of it) is checked as a count of `what` first.
fn counted_f32s(
    what: &'static str,
    len: fn(usize) -> usize,
) -> impl Fn(J<'_>, &P<'_>) -> R<Vec<f32>> {
    move |v, p| {
        check_count(v, p, what, len(value::array_len(v).unwrap_or(0)))?;
        value::f32s(v, p)
    }
}

/// Like [`counted_f32s`] for arrays of indices.
fn counted_u32s(
    what: &'static str,
    len: fn(usize) -> usize,
) -> impl Fn(J<'_>, &P<'_>) -> R<Vec<u32>> {
    move |v, p| {
        check_count(v, p, what, len(value::array_len(v).unwrap_or(0)))?;
        value::u32s(v, p)
    }
}

/// A declared `vertexCount`, checked against [`Limits::max_vertices`].
fn vertex_count(o: &Obj) -> R<u32> {
    o.req("vertexCount", |v, p| {
        let n = as_u32(v, p)?;
        check_count(v, p, "vertex", n as usize)?;
        Ok(n)
    })
}

fn read_attachment(key: &str, o: &Obj) -> R<Attachment> {
    let declared_type = o.opt("type", AttachmentType::read)?;
    let color = o.color("color")?;
    let vertices = |o: &Obj, declared: usize| {
        o.req("vertices", |v, p| {
            value::check_vertices(v, p, declared)?;
            value::f32s(v, p)
        })
    };
    let kind = match declared_type.unwrap_or(AttachmentType::Region) {
        AttachmentType::Region => AttachmentKind::Region {
            path: o.string("path")?,
            x: o.f32("x")?,
            y: o.f32("y")?,
            scale_x: o.f32("scaleX")?,
            scale_y: o.f32("scaleY")?,
            rotation: o.f32("rotation")?,
            width: o.req("width", value::as_f32)?,
            height: o.req("height", value::as_f32)?,
            color,
            sequence: o.opt("sequence", read_sequence)?,
        },
        AttachmentType::BoundingBox => {
            let vertex_count = vertex_count(o)?;
            AttachmentKind::BoundingBox {
                vertex_count,
                vertices: vertices(o, vertex_count as usize)?,
                color,
            }
        }
        AttachmentType::Mesh | AttachmentType::LinkedMesh => match o.string("source")? {
            Some(source) => AttachmentKind::LinkedMesh {
                path: o.string("path")?,
                color,
                width: o.f32("width")?,
                height: o.f32("height")?,
                sequence: o.opt("sequence", read_sequence)?,
                source,
                slot: o.string("slot")?,
                skin: o.string("skin")?,
                timelines: o.bool("timelines")?,
            },
            None => {
                let (path, width, height) = (o.string("path")?, o.f32("width")?, o.f32("height")?);
                let sequence = o.opt("sequence", read_sequence)?;
                let uvs = o.req("uvs", counted_f32s("vertex", |n| n / 2))?;
                AttachmentKind::Mesh {
                    path,
                    color,
                    width,
                    height,
                    sequence,
                    vertices: vertices(o, uvs.len() / 2)?,
                    uvs,
                    triangles: o.req("triangles", counted_u32s("triangle", |n| n / 3))?,
                    hull: o.opt("hull", as_u32)?,
                    edges: o.opt("edges", counted_u32s("edge", |n| n))?,
                }
            }
        },
        AttachmentType::Path => {
            let (closed, constant_speed) = (o.bool("closed")?, o.bool("constantSpeed")?);
            let vertex_count = vertex_count(o)?;
            AttachmentKind::Path {
                closed,
                constant_speed,
                vertex_count,
                vertices: vertices(o, vertex_count as usize)?,
                lengths: o.req("lengths", counted_f32s("path length", |n| n))?,
                color,
            }
        }
        AttachmentType::Point => AttachmentKind::Point {
            x: o.f32("x")?,
            y: o.f32("y")?,
            rotation: o.f32("rotation")?,
            color,
        },
        AttachmentType::Clipping => {
            let (end, convex, inverse) = (o.string("end")?, o.bool("convex")?, o.bool("inverse")?);
            let vertex_count = vertex_count(o)?;
            AttachmentKind::Clipping {
                end,
                convex,
                inverse,
                vertex_count,
                vertices: vertices(o, vertex_count as usize)?,
                color,
            }
        }
    };
    Ok(Attachment { key: key.to_owned(), name: o.string("name")?, declared_type, kind })
}

fn read_skin(o: &Obj) -> R<Skin> {
    Ok(Skin {
        name: o.req_string("name")?,
        bones: o.strings("bones", "bone")?,
        ik: o.strings("ik", "ik constraint")?,
        transform: o.strings("transform", "transform constraint")?,
        path: o.strings("path", "path constraint")?,
        physics: o.strings("physics", "physics constraint")?,
        slider: o.strings("slider", "slider constraint")?,
        slots: o
            .opt("attachments", |v, p| {
                named(v, p, "skin slot", |slot, v, p| {
                    Ok(SkinSlot {
                        slot: slot.to_owned(),
                        attachments: named(v, p, "attachment", |key, v, p| {
                            read_attachment(key, &Obj::new(v, p)?)
                        })?,
                    })
                })
            })?
            .unwrap_or_default(),
        color: o.color("color")?,
    })
}

fn read_events(v: J<'_>, p: &P<'_>) -> R<Vec<EventDef>> {
    named(v, p, "event", |name, v, p| {
        let o = Obj::new(v, p)?;
        Ok(EventDef {
            name: name.to_owned(),
            int: o.i32("int")?,
            float: o.f32("float")?,
            string: o.string("string")?,
            audio: o.string("audio")?,
            volume: o.f32("volume")?,
            balance: o.f32("balance")?,
        })
    })
}

/// Whether `version` (a `skeleton.spine` string) is a 4.3 editor version.
pub fn is_43(version: &str) -> bool {
    crate::SpineVersion::parse(version) == Some(crate::SpineVersion::V4_3)
}

/// The `skeleton.spine` version string of a JSON skeleton, if the text is a JSON object that
/// declares one (a cheap way to pick [`parse`] or [`crate::json::parse`]).
pub fn declared_version(text: &str) -> Option<String> {
    let doc = value::Doc::parse(text, &Limits::default()).ok()?;
    let root = doc.root();
    let rp = P::ROOT;
    let o = Obj::new(root, &rp).ok()?;
    let sk = o.get("skeleton")?;
    let kp = rp.key("skeleton");
    let s = Obj::new(sk, &kp).ok()?;
    s.string("spine").ok()?
}

/// Parses a Spine 4.3 JSON skeleton within [`Limits::default`] ([`parse_with_limits`]).
pub fn parse(text: &str) -> Result<Skeleton, JsonError> {
    parse_with_limits(text, &Limits::default())
}

/// Parses a Spine 4.3 JSON skeleton, enforcing `limits` (the same [`Limits`] as
/// [`crate::binary::parse_with_limits`] and [`crate::json::parse_with_limits`]). A declared
/// `skeleton.spine` other than 4.3.x is an error; a file without one is read as 4.3.
pub fn parse_with_limits(text: &str, limits: &Limits) -> Result<Skeleton, JsonError> {
    let doc = value::Doc::parse(text, limits)?;
    let rp = P::ROOT;
    let root = doc.root();
    if !root.is_obj() {
        return Err(JsonError {
            path: rp.render(),
            message: format!(
                "not a Spine JSON skeleton (the root is {}, not an object)",
                root.kind()
            ),
            kind: JsonErrorKind::NotASkeleton,
        });
    }
    let o = Obj::new(root, &rp)?;
    let info = o.opt("skeleton", |v, p| read_info(&Obj::new(v, p)?))?.unwrap_or_default();
    if let Some(s) = &info.spine {
        if !is_43(s) {
            return Err(rp
                .key("skeleton")
                .key("spine")
                .err(format!("not a Spine 4.3 skeleton (version {s:?})")));
        }
    }
    Ok(Skeleton {
        bones: list(&o, "bones", "bone", read_bone)?,
        slots: list(&o, "slots", "slot", read_slot)?,
        constraints: list(&o, "constraints", "constraint", read_constraint)?,
        skins: list(&o, "skins", "skin", read_skin)?,
        events: o.opt("events", read_events)?.unwrap_or_default(),
        animations: o
            .opt("animations", |v, p| {
                named(v, p, "animation", |name, v, p| anim::read_animation(name, &Obj::new(v, p)?))
            })?
            .unwrap_or_default(),
        info,
    })
}

/// The 8 bytes of a hash the editor writes as 11 base64 characters (4.x exports).
pub fn hash_bytes(hash: &str) -> Option<[u8; 8]> {
    let s = hash.trim_end_matches('=');
    if s.len() != 11 {
        return None;
    }
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        } as u32)
    };
    let mut bits: u128 = 0;
    for &c in s.as_bytes() {
        bits = (bits << 6) | u128::from(val(c)?);
    }
    // 66 bits: the last 2 are padding and must be zero.
    if bits & 3 != 0 {
        return None;
    }
    Some(((bits >> 2) as u64).to_be_bytes())
}

/// A 4.x JSON hash as the binary summaries show the same bytes (the second then the first
/// big-endian word, hex) when it is the editor's base64 of 8 bytes; else as written.
pub fn hash_display(hash: &str) -> String {
    match hash_bytes(hash) {
        Some(b) => {
            let low = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
            let high = u32::from_be_bytes([b[4], b[5], b[6], b[7]]);
            format!("{high:x}{low:x}")
        }
        None => hash.to_owned(),
    }
}

impl Skeleton {
    /// Counts and names for display (the same fields as the binary summaries). The hash is
    /// shown as the 4.3 binary summary shows it (the second then the first big-endian word,
    /// hex) when it is the editor's base64 of 8 bytes, so a JSON export and its binary twin
    /// agree; any other hash string is shown as written.
    pub fn summary(&self) -> Summary {
        let mut skins: Vec<String> = self.skins.iter().map(|s| s.name.clone()).collect();
        if let Some(i) = skins.iter().position(|s| s == "default") {
            let d = skins.remove(i);
            skins.insert(0, d);
        }
        let mut constraints = ConstraintCounts::default();
        for c in &self.constraints {
            match c.kind {
                ConstraintKind::Ik(_) => constraints.ik += 1,
                ConstraintKind::Transform(_) => constraints.transform += 1,
                ConstraintKind::Path(_) => constraints.path += 1,
                ConstraintKind::Physics(_) => constraints.physics += 1,
                ConstraintKind::Slider(_) => constraints.slider += 1,
            }
        }
        let hash = self.info.hash.as_deref().map(hash_display).unwrap_or_default();
        Summary {
            version: self.info.spine.clone().unwrap_or_default(),
            hash,
            bones: self.bones.len(),
            slots: self.slots.len(),
            skins,
            constraints,
            events: self.events.iter().map(|e| e.name.clone()).collect(),
            animations: self
                .animations
                .iter()
                .map(|a| AnimationSummary { name: a.name.clone(), duration: a.duration() })
                .collect(),
        }
    }

    /// The skin named `name`.
    pub fn skin(&self, name: &str) -> Option<&Skin> {
        self.skins.iter().find(|s| s.name == name)
    }

    /// The animation named `name`.
    pub fn animation(&self, name: &str) -> Option<&Animation> {
        self.animations.iter().find(|a| a.name == name)
    }
}
