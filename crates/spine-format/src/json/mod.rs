//! Spine JSON skeletons, editor versions 3.5 to 4.2.
//!
//! [`parse`] reads the text with a purpose-built reader into a flat, borrowed, order-preserving
//! document (`value.rs`) and then into one raw
//! AST ([`Skeleton`]) for every version: names stay names (nothing is resolved), numbers stay
//! unscaled, colors become `[u8; 4]` bytes. The reference for what is read is spine-libgdx
//! `SkeletonJson.java` of each branch (3.5 … 4.2). Fields the loader reads with a default are
//! `Option`s, and each field documents its default; the few defaults that depend on the version or
//! on another field say so. Keys the loader of that version does not read are ignored.
//!
//! Version-dependent spellings are folded into one AST field, chosen by the version declared in
//! `skeleton.spine` (a file without it is read with the 4.2 rules):
//! * rotate keys: `angle` (3.x) / `value` (4.x) → [`Key::value`];
//! * path position/spacing keys: `position`/`spacing` (3.x) / `value` (4.x) → [`Key::value`];
//! * animation path timelines: `paths` (3.5–3.7) / `path` (3.8+) → [`Animation::path`];
//! * deform timelines: `deform` (3.x, 4.0) / `attachments` (4.1+) → [`Animation::attachments`];
//! * bone inheritance: `transform` (≤4.1) / `inherit` (4.2) → [`Bone::inherit`];
//! * linked-mesh timeline inheritance: `deform` (≤4.0) / `timelines` (4.1+);
//! * skins: the 3.5–3.7 object form `{skin: {slot: {attachment: …}}}` and the 3.8+ array form.
//!
//! Errors name the JSON path (`animations.run.bones.hip.rotate[3].curve`) and what was expected,
//! and say what kind of problem it is ([`JsonErrorKind`]). Names in paths and messages are
//! escaped (`{:?}`-style), so control characters in a hostile file cannot garble them.
//!
//! [`parse_with_limits`] enforces the same [`Limits`] as the binary parsers, under the same
//! names: the file size, string lengths, the counts of bones, slots, vertices (per attachment),
//! keys (per timeline), sequence frames and every other list, and [`Limits::max_json_values`],
//! which bounds the parsed document itself while it is being read. [`parse`] uses
//! [`Limits::default`].
//!
//! [`write()`] is the inverse up to formatting: `parse(&write(&s)) == s` for every parsed `s`.

mod anim;
pub(crate) mod value;
mod write;

pub use anim::*;
pub use write::write;

use crate::{AnimationSummary, ConstraintCounts, Limits, SpineVersion, Summary};
use serde::Serialize;
use value::{as_str, as_u32, check_count, each, each_named, Obj, J, P, R};

/// A JSON skeleton could not be parsed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}, at {path}")]
#[non_exhaustive]
pub struct JsonError {
    /// JSON path where the problem is, e.g. `animations.run.bones.hip.rotate[3].curve`
    /// (`(root)` for the document itself; keys escaped like Rust string contents).
    pub path: String,
    /// What was expected or found.
    pub message: String,
    /// What kind of problem it is.
    pub kind: JsonErrorKind,
}

/// The kinds of [`JsonError`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum JsonErrorKind {
    /// The text is not JSON (RFC 8259); the message gives the line, column and byte.
    Syntax,
    /// The document is JSON but its root is not an object, so not a Spine JSON skeleton.
    NotASkeleton,
    /// A count, size or length is over one of the [`Limits`].
    LimitExceeded {
        /// The limit's field name in [`Limits`].
        limit: &'static str,
        /// The value found.
        value: u64,
        /// The limit.
        max: u64,
    },
    /// A value is missing, of the wrong type or out of range for a Spine skeleton.
    Invalid,
}

impl JsonError {
    /// A [`JsonErrorKind::LimitExceeded`] error at `path`.
    pub(crate) fn limit(path: String, limit: &'static str, value: u64, max: u64) -> JsonError {
        JsonError {
            path,
            message: format!("{limit} exceeded: {value} > {max}"),
            kind: JsonErrorKind::LimitExceeded { limit, value, max },
        }
    }
}

macro_rules! string_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident = $s:literal,)* }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
        pub enum $name { $($(#[$vm])* $v,)* }
        impl $name {
            /// The spelling in the JSON file.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$v => $s,)* }
            }
            pub(crate) fn read(v: J<'_>, p: &P<'_>) -> R<Self> {
                let s = as_str(v, p)?;
                match s {
                    $($s => Ok($name::$v),)*
                    _ => Err(p.err(format!(
                        "expected one of {}, found {s:?}",
                        [$($s),*].join(", ")
                    ))),
                }
            }
        }
    };
}

string_enum! {
    /// Slot blend mode (`blend`; default `normal`).
    BlendMode { /** `normal` */ Normal = "normal", /** `additive` */ Additive = "additive",
        /** `multiply` */ Multiply = "multiply", /** `screen` */ Screen = "screen", }
}
string_enum! {
    /// How a bone inherits its parent's transform (default `normal`).
    Inherit { /** `normal` */ Normal = "normal", /** `onlyTranslation` */ OnlyTranslation = "onlyTranslation",
        /** `noRotationOrReflection` */ NoRotationOrReflection = "noRotationOrReflection",
        /** `noScale` */ NoScale = "noScale", /** `noScaleOrReflection` */ NoScaleOrReflection = "noScaleOrReflection", }
}
string_enum! {
    /// Path constraint position mode (default `percent`).
    PositionMode { /** `fixed` */ Fixed = "fixed", /** `percent` */ Percent = "percent", }
}
string_enum! {
    /// Path constraint spacing mode (default `length`; `proportional` since 4.0).
    SpacingMode { /** `length` */ Length = "length", /** `fixed` */ Fixed = "fixed",
        /** `percent` */ Percent = "percent", /** `proportional` */ Proportional = "proportional", }
}
string_enum! {
    /// Path constraint rotate mode (default `tangent`).
    RotateMode { /** `tangent` */ Tangent = "tangent", /** `chain` */ Chain = "chain",
        /** `chainScale` */ ChainScale = "chainScale", }
}
string_enum! {
    /// Attachment `type` (default `region`).
    AttachmentType { /** `region` */ Region = "region", /** `boundingbox` */ BoundingBox = "boundingbox",
        /** `mesh` */ Mesh = "mesh", /** `linkedmesh` */ LinkedMesh = "linkedmesh", /** `path` */ Path = "path",
        /** `point` */ Point = "point", /** `clipping` */ Clipping = "clipping", }
}
string_enum! {
    /// Sequence timeline playback mode (4.1+; default `hold`).
    SequenceMode { /** `hold` */ Hold = "hold", /** `once` */ Once = "once", /** `loop` */ Loop = "loop",
        /** `pingpong` */ Pingpong = "pingpong", /** `onceReverse` */ OnceReverse = "onceReverse",
        /** `loopReverse` */ LoopReverse = "loopReverse", /** `pingpongReverse` */ PingpongReverse = "pingpongReverse", }
}

/// The version assumed for a file without `skeleton.spine`.
pub const DEFAULT_VERSION: SpineVersion = SpineVersion::V4_2;

/// The version line of a `skeleton.spine` string such as `"3.8.99"`; `None` unless this
/// reader reads it (3.5 ≤ version ≤ 4.2; 4.3 is [`crate::json43`]'s). It selects the
/// version's key spellings.
pub fn supported_version(s: &str) -> Option<SpineVersion> {
    SpineVersion::parse(s).filter(|&v| SpineVersion::V3_5 <= v && v <= SpineVersion::V4_2)
}

/// The `skeleton` object (every field optional; the whole object may be absent).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Info {
    /// `hash`.
    pub hash: Option<String>,
    /// `spine`: the editor version string.
    pub spine: Option<String>,
    /// `x` (3.8+; default 0).
    pub x: Option<f32>,
    /// `y` (3.8+; default 0).
    pub y: Option<f32>,
    /// `width` (default 0).
    pub width: Option<f32>,
    /// `height` (default 0).
    pub height: Option<f32>,
    /// `referenceScale` (4.2; default 100).
    pub reference_scale: Option<f32>,
    /// `fps` (nonessential; default 30).
    pub fps: Option<f32>,
    /// `images` path.
    pub images: Option<String>,
    /// `audio` path (3.7+).
    pub audio: Option<String>,
}

/// A bone (`bones[i]`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Bone {
    /// `name` (required).
    pub name: String,
    /// `parent` bone name (absent for the root).
    pub parent: Option<String>,
    /// `length` (default 0).
    pub length: Option<f32>,
    /// `x` (default 0).
    pub x: Option<f32>,
    /// `y` (default 0).
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
    /// `transform` (≤4.1) or `inherit` (4.2) (default `normal`).
    pub inherit: Option<Inherit>,
    /// `skin`: only active when a skin includes it (3.8+; default false).
    pub skin: Option<bool>,
    /// `color` (nonessential; default `989898FF`).
    pub color: Option<[u8; 4]>,
    /// `icon` (4.2, nonessential).
    pub icon: Option<String>,
    /// `visible` (4.2, nonessential; default true).
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
    /// `dark` color for two-color tinting (3.6+; absent = no dark color; alpha ignored).
    pub dark: Option<[u8; 4]>,
    /// `attachment` visible in the setup pose.
    pub attachment: Option<String>,
    /// `blend` (default `normal`).
    pub blend: Option<BlendMode>,
    /// `visible` (4.2, nonessential; default true).
    pub visible: Option<bool>,
}

/// Fields shared by every constraint.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct ConstraintHead {
    /// `name` (required).
    pub name: String,
    /// `order` (default 0).
    pub order: Option<i32>,
    /// `skin`: only active when a skin includes it (3.8+; default false).
    pub skin: Option<bool>,
}

/// An IK constraint (`ik[i]`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct IkConstraint {
    /// Name, order, skin flag.
    pub head: ConstraintHead,
    /// `bones` names.
    pub bones: Vec<String>,
    /// `target` bone name (required).
    pub target: String,
    /// `mix` (default 1).
    pub mix: Option<f32>,
    /// `softness` (3.8+; default 0).
    pub softness: Option<f32>,
    /// `bendPositive` (default true).
    pub bend_positive: Option<bool>,
    /// `compress` (3.7+; default false).
    pub compress: Option<bool>,
    /// `stretch` (3.7+; default false).
    pub stretch: Option<bool>,
    /// `uniform` (3.7+; default false).
    pub uniform: Option<bool>,
}

/// A transform constraint (`transform[i]`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct TransformConstraint {
    /// Name, order, skin flag.
    pub head: ConstraintHead,
    /// `bones` names.
    pub bones: Vec<String>,
    /// `target` bone name (required).
    pub target: String,
    /// `local` (default false).
    pub local: Option<bool>,
    /// `relative` (default false).
    pub relative: Option<bool>,
    /// `rotation` offset (default 0).
    pub rotation: Option<f32>,
    /// `x` offset (default 0).
    pub x: Option<f32>,
    /// `y` offset (default 0).
    pub y: Option<f32>,
    /// `scaleX` offset (default 0).
    pub scale_x: Option<f32>,
    /// `scaleY` offset (default 0).
    pub scale_y: Option<f32>,
    /// `shearY` offset (default 0).
    pub shear_y: Option<f32>,
    /// Mixes (3.x and 4.x spellings).
    pub mix: TransformMix,
}

/// Transform constraint mixes. 3.x reads `rotateMix`, `translateMix`, `scaleMix`, `shearMix`
/// (default 1 each); 4.x reads `mixRotate`, `mixX`, `mixScaleX`, `mixShearY` (default 1),
/// `mixY` (default `mixX`) and `mixScaleY` (default `mixScaleX`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct TransformMix {
    /// `rotateMix` (3.x).
    pub rotate_mix: Option<f32>,
    /// `translateMix` (3.x).
    pub translate_mix: Option<f32>,
    /// `scaleMix` (3.x).
    pub scale_mix: Option<f32>,
    /// `shearMix` (3.x).
    pub shear_mix: Option<f32>,
    /// `mixRotate` (4.x).
    pub mix_rotate: Option<f32>,
    /// `mixX` (4.x).
    pub mix_x: Option<f32>,
    /// `mixY` (4.x).
    pub mix_y: Option<f32>,
    /// `mixScaleX` (4.x).
    pub mix_scale_x: Option<f32>,
    /// `mixScaleY` (4.x).
    pub mix_scale_y: Option<f32>,
    /// `mixShearY` (4.x).
    pub mix_shear_y: Option<f32>,
}

impl TransformMix {
    fn read(o: &Obj) -> R<Self> {
        Ok(TransformMix {
            rotate_mix: o.f32("rotateMix")?,
            translate_mix: o.f32("translateMix")?,
            scale_mix: o.f32("scaleMix")?,
            shear_mix: o.f32("shearMix")?,
            mix_rotate: o.f32("mixRotate")?,
            mix_x: o.f32("mixX")?,
            mix_y: o.f32("mixY")?,
            mix_scale_x: o.f32("mixScaleX")?,
            mix_scale_y: o.f32("mixScaleY")?,
            mix_shear_y: o.f32("mixShearY")?,
        })
    }
}

/// Path constraint mixes: 3.x `rotateMix`, `translateMix` (default 1); 4.x `mixRotate`,
/// `mixX` (default 1), `mixY` (default 1 in the setup pose, `mixX` in timeline keys).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct PathMix {
    /// `rotateMix` (3.x).
    pub rotate_mix: Option<f32>,
    /// `translateMix` (3.x).
    pub translate_mix: Option<f32>,
    /// `mixRotate` (4.x).
    pub mix_rotate: Option<f32>,
    /// `mixX` (4.x).
    pub mix_x: Option<f32>,
    /// `mixY` (4.x).
    pub mix_y: Option<f32>,
}

impl PathMix {
    fn read(o: &Obj) -> R<Self> {
        Ok(PathMix {
            rotate_mix: o.f32("rotateMix")?,
            translate_mix: o.f32("translateMix")?,
            mix_rotate: o.f32("mixRotate")?,
            mix_x: o.f32("mixX")?,
            mix_y: o.f32("mixY")?,
        })
    }
}

/// A path constraint (`path[i]`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct PathConstraint {
    /// Name, order, skin flag.
    pub head: ConstraintHead,
    /// `bones` names.
    pub bones: Vec<String>,
    /// `target` slot name (required).
    pub target: String,
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
    /// Mixes (3.x and 4.x spellings).
    pub mix: PathMix,
}

/// A physics constraint (`physics[i]`, 4.2).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct PhysicsConstraint {
    /// Name, order, skin flag.
    pub head: ConstraintHead,
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
    /// `shearX` (default 0).
    pub shear_x: Option<f32>,
    /// `limit` (default 5000; scaled).
    pub limit: Option<f32>,
    /// `fps` (default 60; the step is 1/fps).
    pub fps: Option<i32>,
    /// `inertia` (default 1).
    pub inertia: Option<f32>,
    /// `strength` (default 100).
    pub strength: Option<f32>,
    /// `damping` (default 1).
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

/// A sequence of numbered regions (`sequence`, 4.1+).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Sequence {
    /// `count` (required).
    pub count: i32,
    /// `start` (default 1).
    pub start: Option<i32>,
    /// `digits` (default 0).
    pub digits: Option<i32>,
    /// `setup` index (default 0).
    pub setup: Option<i32>,
}

/// Vertices of bounding boxes, paths, clipping polygons and meshes, as written: `x, y` pairs
/// when unweighted, else per vertex `boneCount, (bone, x, y, weight) × boneCount`. They are
/// weighted when their count differs from `vertexCount × 2` (meshes: the `uvs` length).
pub type Vertices = Vec<f32>;

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
        /// `sequence` (4.1+).
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
    /// `mesh` (or `linkedmesh`) without `parent`.
    Mesh {
        /// `path` (default: the attachment name).
        path: Option<String>,
        /// `color` (default white).
        color: Option<[u8; 4]>,
        /// `width` (nonessential; default 0).
        width: Option<f32>,
        /// `height` (nonessential; default 0).
        height: Option<f32>,
        /// `sequence` (4.1+).
        sequence: Option<Sequence>,
        /// `uvs` (required).
        uvs: Vec<f32>,
        /// `vertices` (required; weighted when its length differs from `uvs`).
        vertices: Vertices,
        /// `triangles` (required).
        triangles: Vec<u32>,
        /// `hull` vertex count.
        hull: Option<u32>,
        /// `edges` (nonessential).
        edges: Option<Vec<u32>>,
    },
    /// `mesh` or `linkedmesh` with a `parent`.
    LinkedMesh {
        /// `path` (default: the attachment name).
        path: Option<String>,
        /// `color` (default white).
        color: Option<[u8; 4]>,
        /// `width` (nonessential; default 0).
        width: Option<f32>,
        /// `height` (nonessential; default 0).
        height: Option<f32>,
        /// `sequence` (4.1+).
        sequence: Option<Sequence>,
        /// `parent` mesh name (required here).
        parent: String,
        /// `skin` of the parent (default: the default skin).
        skin: Option<String>,
        /// `deform` (≤4.0) / `timelines` (4.1+): use the parent's timelines (default true).
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

/// A skin.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Skin {
    /// `name` (3.8+), or the key in the 3.5–3.7 object form.
    pub name: String,
    /// `bones` (3.8+).
    pub bones: Vec<String>,
    /// `ik` constraint names (3.8+).
    pub ik: Vec<String>,
    /// `transform` constraint names (3.8+).
    pub transform: Vec<String>,
    /// `path` constraint names (3.8+).
    pub path: Vec<String>,
    /// `physics` constraint names (4.2).
    pub physics: Vec<String>,
    /// `attachments` per slot (3.5–3.7: the skin object itself).
    pub slots: Vec<SkinSlot>,
    /// `color` (4.2, nonessential).
    pub color: Option<[u8; 4]>,
}

/// An event definition (`events.<name>`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct EventDef {
    /// The key.
    pub name: String,
    /// `int` (default 0).
    pub int: Option<i32>,
    /// `float` (default 0).
    pub float: Option<f32>,
    /// `string` (default "").
    pub string: Option<String>,
    /// `audio` path (3.7+).
    pub audio: Option<String>,
    /// `volume` (default 1; read only with `audio`).
    pub volume: Option<f32>,
    /// `balance` (default 0; read only with `audio`).
    pub balance: Option<f32>,
}

/// A whole JSON skeleton.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Skeleton {
    /// The version rules the file was read with (from `skeleton.spine`, else [`DEFAULT_VERSION`]).
    pub version: SpineVersion,
    /// The `skeleton` object (all defaults when absent).
    pub info: Info,
    /// `bones`.
    pub bones: Vec<Bone>,
    /// `slots`.
    pub slots: Vec<Slot>,
    /// `ik` constraints.
    pub ik: Vec<IkConstraint>,
    /// `transform` constraints.
    pub transform: Vec<TransformConstraint>,
    /// `path` constraints.
    pub path: Vec<PathConstraint>,
    /// `physics` constraints (4.2).
    pub physics: Vec<PhysicsConstraint>,
    /// `skins`, in file order.
    pub skins: Vec<Skin>,
    /// `events` definitions.
    pub events: Vec<EventDef>,
    /// `animations`.
    pub animations: Vec<Animation>,
}

impl Default for Skeleton {
    fn default() -> Self {
        Skeleton {
            version: DEFAULT_VERSION,
            info: Info::default(),
            bones: Vec::new(),
            slots: Vec::new(),
            ik: Vec::new(),
            transform: Vec::new(),
            path: Vec::new(),
            physics: Vec::new(),
            skins: Vec::new(),
            events: Vec::new(),
            animations: Vec::new(),
        }
    }
}

fn head(o: &Obj) -> R<ConstraintHead> {
    Ok(ConstraintHead {
        name: o.req_string("name")?,
        order: o.i32("order")?,
        skin: o.bool("skin")?,
    })
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

fn read_bone(o: &Obj, ver: SpineVersion) -> R<Bone> {
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
        inherit: o
            .opt(if ver >= SpineVersion::V4_2 { "inherit" } else { "transform" }, Inherit::read)?,
        skin: o.bool("skin")?,
        color: o.color("color")?,
        icon: o.string("icon")?,
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
        blend: o.opt("blend", BlendMode::read)?,
        visible: o.bool("visible")?,
    })
}

fn read_ik(o: &Obj) -> R<IkConstraint> {
    Ok(IkConstraint {
        head: head(o)?,
        bones: o.strings("bones", "bone")?,
        target: o.req_string("target")?,
        mix: o.f32("mix")?,
        softness: o.f32("softness")?,
        bend_positive: o.bool("bendPositive")?,
        compress: o.bool("compress")?,
        stretch: o.bool("stretch")?,
        uniform: o.bool("uniform")?,
    })
}

fn read_transform(o: &Obj) -> R<TransformConstraint> {
    Ok(TransformConstraint {
        head: head(o)?,
        bones: o.strings("bones", "bone")?,
        target: o.req_string("target")?,
        local: o.bool("local")?,
        relative: o.bool("relative")?,
        rotation: o.f32("rotation")?,
        x: o.f32("x")?,
        y: o.f32("y")?,
        scale_x: o.f32("scaleX")?,
        scale_y: o.f32("scaleY")?,
        shear_y: o.f32("shearY")?,
        mix: TransformMix::read(o)?,
    })
}

fn read_path(o: &Obj) -> R<PathConstraint> {
    Ok(PathConstraint {
        head: head(o)?,
        bones: o.strings("bones", "bone")?,
        target: o.req_string("target")?,
        position_mode: o.opt("positionMode", PositionMode::read)?,
        spacing_mode: o.opt("spacingMode", SpacingMode::read)?,
        rotate_mode: o.opt("rotateMode", RotateMode::read)?,
        rotation: o.f32("rotation")?,
        position: o.f32("position")?,
        spacing: o.f32("spacing")?,
        mix: PathMix::read(o)?,
    })
}

fn read_physics(o: &Obj) -> R<PhysicsConstraint> {
    let g = |k| o.bool(k);
    Ok(PhysicsConstraint {
        head: head(o)?,
        bone: o.req_string("bone")?,
        x: o.f32("x")?,
        y: o.f32("y")?,
        rotate: o.f32("rotate")?,
        scale_x: o.f32("scaleX")?,
        shear_x: o.f32("shearX")?,
        limit: o.f32("limit")?,
        fps: o.i32("fps")?,
        inertia: o.f32("inertia")?,
        strength: o.f32("strength")?,
        damping: o.f32("damping")?,
        mass: o.f32("mass")?,
        wind: o.f32("wind")?,
        gravity: o.f32("gravity")?,
        mix: o.f32("mix")?,
        global: [
            g("inertiaGlobal")?,
            g("strengthGlobal")?,
            g("dampingGlobal")?,
            g("massGlobal")?,
            g("windGlobal")?,
            g("gravityGlobal")?,
            g("mixGlobal")?,
        ],
    })
}

/// A sequence: `count` must be non-negative and within [`Limits::max_sequence_frames`], and
/// `digits` within [`Limits::max_string_bytes`] (each frame's region path is at least that
/// long), as the binary parsers check them.
fn read_sequence(v: J<'_>, p: &P<'_>) -> R<Sequence> {
    let o = Obj::new(v, p)?;
    let count = o.req("count", |v, p| {
        let n = value::as_i32(v, p)?;
        let n = u32::try_from(n)
            .map_err(|_| p.err(format!("expected a non-negative frame count, found {n}")))?;
        check_count(v, p, "sequence frame", n as usize)?;
        Ok(n as i32)
    })?;
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

/// An array of numbers whose length (`len` of it, e.g. pairs or triples) is checked as a count
/// of `what` first.
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

fn read_attachment(key: &str, o: &Obj, ver: SpineVersion) -> R<Attachment> {
    let declared_type = o.opt("type", AttachmentType::read)?;
    let color = o.color("color")?;
    // `declared`: the vertex count the array holds pairs for when unweighted.
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
        AttachmentType::Mesh | AttachmentType::LinkedMesh => match o.string("parent")? {
            Some(parent) => AttachmentKind::LinkedMesh {
                path: o.string("path")?,
                color,
                width: o.f32("width")?,
                height: o.f32("height")?,
                sequence: o.opt("sequence", read_sequence)?,
                parent,
                skin: o.string("skin")?,
                timelines: o.bool(if ver >= SpineVersion::V4_1 {
                    "timelines"
                } else {
                    "deform"
                })?,
            },
            None => {
                let (path, width, height) = (o.string("path")?, o.f32("width")?, o.f32("height")?);
                let sequence = o.opt("sequence", read_sequence)?;
                // The vertex count is half the UV count.
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
            let end = o.string("end")?;
            let vertex_count = vertex_count(o)?;
            AttachmentKind::Clipping {
                end,
                vertex_count,
                vertices: vertices(o, vertex_count as usize)?,
                color,
            }
        }
    };
    Ok(Attachment { key: key.to_owned(), name: o.string("name")?, declared_type, kind })
}

fn read_skin_slots(v: J<'_>, p: &P<'_>, ver: SpineVersion) -> R<Vec<SkinSlot>> {
    each_named(v, p, "skin slot", |slot, v, p| {
        Ok(SkinSlot {
            slot: slot.to_owned(),
            attachments: each_named(v, p, "attachment", |key, v, p| {
                read_attachment(key, &Obj::new(v, p)?, ver)
            })?,
        })
    })
}

fn read_skins(v: J<'_>, p: &P<'_>, ver: SpineVersion) -> R<Vec<Skin>> {
    if v.is_obj() {
        // 3.5–3.7: { "default": { "slot": { "attachment": {...} } } }
        each_named(v, p, "skin", |name, v, p| {
            Ok(Skin {
                name: name.to_owned(),
                slots: read_skin_slots(v, p, ver)?,
                ..Skin::default()
            })
        })
    } else if v.items().is_some() {
        // 3.8+: [ { "name": "default", "attachments": {...} } ]
        each(v, p, "skin", |v, p| {
            let o = Obj::new(v, p)?;
            Ok(Skin {
                name: o.req_string("name")?,
                bones: o.strings("bones", "bone")?,
                ik: o.strings("ik", "ik constraint")?,
                transform: o.strings("transform", "transform constraint")?,
                path: o.strings("path", "path constraint")?,
                physics: o.strings("physics", "physics constraint")?,
                slots: o.opt("attachments", |v, p| read_skin_slots(v, p, ver))?.unwrap_or_default(),
                color: o.color("color")?,
            })
        })
    } else {
        Err(p.expected("an array (3.8+) or an object (3.5–3.7) of skins", v))
    }
}

fn read_events(v: J<'_>, p: &P<'_>) -> R<Vec<EventDef>> {
    each_named(v, p, "event", |name, v, p| {
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

/// Parses a Spine JSON skeleton of editor version 3.5 to 4.2 within [`Limits::default`]
/// ([`parse_with_limits`]).
pub fn parse(text: &str) -> Result<Skeleton, JsonError> {
    parse_with_limits(text, &Limits::default())
}

/// Parses a Spine JSON skeleton of editor version 3.5 to 4.2, enforcing `limits` (the same
/// [`Limits`] as [`crate::binary::parse_with_limits`]): the text's size before anything else,
/// the number of values and every string's length while the text is read (so a hostile file's
/// memory stays bounded before any field is read), then every count before its items are read.
/// A limit error is [`JsonErrorKind::LimitExceeded`] with the limit's name and the JSON path.
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
    let version = match &info.spine {
        None => DEFAULT_VERSION,
        // The 3.8 loaders refuse exports of the broken 3.8.75 editor.
        Some(s) if s == "3.8.75" => {
            return Err(rp
                .key("skeleton")
                .key("spine")
                .err("unsupported Spine version \"3.8.75\" (re-export with a newer editor)"))
        }
        Some(s) => supported_version(s).ok_or_else(|| {
            rp.key("skeleton")
                .key("spine")
                .err(format!("unsupported Spine version {s:?} (supported: 3.5 to 4.2)"))
        })?,
    };
    Ok(Skeleton {
        version,
        bones: list(&o, "bones", "bone", |o| read_bone(o, version))?,
        slots: list(&o, "slots", "slot", read_slot)?,
        ik: list(&o, "ik", "ik constraint", read_ik)?,
        transform: list(&o, "transform", "transform constraint", read_transform)?,
        path: list(&o, "path", "path constraint", read_path)?,
        physics: list(&o, "physics", "physics constraint", read_physics)?,
        skins: o.opt("skins", |v, p| read_skins(v, p, version))?.unwrap_or_default(),
        events: o.opt("events", read_events)?.unwrap_or_default(),
        animations: o
            .opt("animations", |v, p| {
                each_named(v, p, "animation", |name, v, p| {
                    anim::read_animation(name, &Obj::new(v, p)?, version)
                })
            })?
            .unwrap_or_default(),
        info,
    })
}

impl Skeleton {
    /// Counts and names for display (the same fields as the binary summaries). The hash of a
    /// 4.x export (the editor's base64 of the binary's 8 hash bytes) is shown as the binary
    /// summaries show those bytes, so a JSON export and its binary twin agree; any other hash
    /// string is shown as written.
    pub fn summary(&self) -> Summary {
        let mut skins: Vec<String> = self.skins.iter().map(|s| s.name.clone()).collect();
        if let Some(i) = skins.iter().position(|s| s == "default") {
            let d = skins.remove(i);
            skins.insert(0, d);
        }
        Summary {
            version: self.info.spine.clone().unwrap_or_default(),
            hash: match self.info.hash.as_deref() {
                Some(h) if self.version >= SpineVersion::V4_0 => crate::json43::hash_display(h),
                h => h.unwrap_or_default().to_owned(),
            },
            bones: self.bones.len(),
            slots: self.slots.len(),
            skins,
            constraints: ConstraintCounts {
                ik: self.ik.len(),
                transform: self.transform.len(),
                path: self.path.len(),
                physics: self.physics.len(),
                slider: 0,
            },
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
