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
//!
//! [`parse_head`] is [`parse_with_limits`] without the animations, which its [`Animations`]
//! reader then feeds one at a time to an [`AnimationSink`]; [`parse`] is that reader building
//! the AST, so both meet the same first error. [`parse_lean`] leaves the skins out too: its
//! [`Skins`] reader feeds them to a [`SkinSink`], lending each attachment (strings borrowed
//! from the text, arrays handed over), then returns the [`Animations`] reader (what
//! `spine-model` loads with).

mod anim;
mod attachments;
pub(crate) mod common;
mod constraints;
pub(crate) mod keys;
pub(crate) mod out;
mod skeleton;
mod skins;
mod stream;
pub(crate) mod value;
mod write;

pub use anim::*;
pub use attachments::{Attachment, AttachmentKind, Sequence, Vertices};
pub use constraints::{
    ConstraintHead, IkConstraint, PathConstraint, PathMix, PhysicsConstraint, TransformConstraint,
    TransformMix,
};
pub use skeleton::{Bone, EventDef, Info, Slot};
pub use skins::{Skin, SkinSink, SkinSlot};
pub use stream::{parse_head, parse_lean, AnimationSink, Animations, Skins};
pub use write::write;

use crate::{AnimationSummary, ConstraintCounts, Limits, SpineVersion, Summary};
use common::{list, root_object};
use serde::Serialize;
use value::{as_str, Obj, J, P, R};

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
    read(text, limits).map_err(|e| *e)
}

/// [`parse_with_limits`] with the readers' boxed error: the head, then every animation
/// streamed into the AST builder.
fn read(text: &str, limits: &Limits) -> R<Skeleton> {
    let (mut s, mut animations) = read_head(text, limits)?;
    let mut sink = stream::AstSink::default();
    s.animations.reserve_exact(animations.len());
    while let Some(r) = animations.next_boxed(&mut sink) {
        r?;
        s.animations.push(sink.take());
    }
    Ok(s)
}

/// [`parse_head`] with the readers' boxed error.
fn read_head<'t>(text: &'t str, limits: &Limits) -> R<(Skeleton, Animations<'t>)> {
    let (mut s, skins) = read_lean(text, limits)?;
    let mut sink = skins.ast_sink();
    let animations = skins.read_in_file_order(&mut sink)?;
    s.skins = sink.skins;
    Ok((s, animations))
}

/// [`parse_lean`] with the readers' boxed error. The events and the `animations` object, which
/// [`read_head`] reads after the skins, are read here too, their error kept for
/// [`Skins::read`] to report after any of the skins'.
fn read_lean<'t>(text: &'t str, limits: &Limits) -> R<(Skeleton, Skins<'t>)> {
    let doc = value::Doc::parse(text, limits)?;
    let (s, skins, rest) = {
        let rp = P::ROOT;
        let o = root_object(doc.root(), &rp)?;
        let info =
            o.opt("skeleton", |v, p| skeleton::read_info(&Obj::new(v, p)?))?.unwrap_or_default();
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
        let mut s = Skeleton {
            version,
            bones: list(&o, "bones", "bone", |o| skeleton::read_bone(o, version))?,
            slots: list(&o, "slots", "slot", skeleton::read_slot)?,
            ik: list(&o, "ik", "ik constraint", constraints::read_ik)?,
            transform: list(&o, "transform", "transform constraint", constraints::read_transform)?,
            path: list(&o, "path", "path constraint", constraints::read_path)?,
            physics: list(&o, "physics", "physics constraint", constraints::read_physics)?,
            skins: Vec::new(),
            events: Vec::new(),
            animations: Vec::new(),
            info,
        };
        let skins = o.get("skins").map(|v| v.index());
        // The animations object and its count are checked here, its entries when read.
        let rest = o.opt("events", skeleton::read_events).and_then(|events| {
            s.events = events.unwrap_or_default();
            o.opt("animations", |v, p| {
                let Some(entries) = v.entries() else { return Err(p.expected("an object", v)) };
                value::check_count(v, p, "animation", entries.len())?;
                Ok(entries.state())
            })
        });
        (s, skins, rest)
    };
    let version = s.version;
    Ok((s, stream::skins(doc, version, skins, rest)))
}

impl Skeleton {
    /// Counts and names for display (the same fields as the binary summaries). The hash of a
    /// 4.x export (the editor's base64 of the binary's 8 hash bytes) is shown as the binary
    /// summaries show those bytes, so a JSON export and its binary twin agree; any other hash
    /// string is shown as written.
    pub fn summary(&self) -> Summary {
        let mut skins: Vec<String> = self.skins.iter().map(|s| s.name.to_string()).collect();
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
            events: self.events.iter().map(|e| e.name.to_string()).collect(),
            animations: self
                .animations
                .iter()
                .map(|a| AnimationSummary { name: a.name.to_string(), duration: a.duration() })
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
