//! Records shared by the Spine 3.x binary generations ([`super::v35`] for 3.5–3.7 and
//! [`super::v38`] for 3.8): the enums, the 3.x curve record, vertices, attachments and
//! animations.
//!
//! Between 3.5 and 3.8 these records differ only in two ways, both handled here:
//! * a few fields were added by later versions (gated on the [`SpineVersion`] when reading
//!   and writing: point and clipping attachments and two-color timelines since 3.6, IK
//!   `compress`/`stretch` keys and event audio since 3.7, IK softness in 3.8);
//! * 3.8 replaced most inline strings by references into a string table. The records are
//!   therefore generic over the string type `S`: `Option<String>` (inline, `None` for a
//!   null string) in 3.5–3.7, [`StrRef`] in 3.8.
//!
//! Numbers are kept unscaled, colors as the four wire bytes, indices unresolved.

pub(crate) mod read;
pub(crate) mod write;

use super::prim::Writer;
use super::shared::{DrawOrderChange, Keyframe};
use super::wire::{str_ref, string, In, Lim, Res};
use super::{SpineVersion, StrRef};

/// A string field whose encoding depends on the generation: inline (`Option<String>`,
/// 3.5–3.7) or a string-table reference ([`StrRef`], 3.8).
pub(crate) trait WireStr: Sized {
    /// Parses the field; `strings` is the string table length (0 before 3.8).
    fn parse<'a>(i: In<'a>, lim: &Lim, strings: usize) -> Res<'a, Self>;
    /// Writes the field.
    fn write(&self, w: &mut Writer);
}

impl WireStr for Option<String> {
    #[inline]
    fn parse<'a>(i: In<'a>, lim: &Lim, _strings: usize) -> Res<'a, Self> {
        string(lim)(i)
    }
    fn write(&self, w: &mut Writer) {
        w.str(self.as_deref());
    }
}

impl WireStr for StrRef {
    #[inline]
    fn parse<'a>(i: In<'a>, _: &Lim, strings: usize) -> Res<'a, Self> {
        str_ref(strings)(i)
    }
    fn write(&self, w: &mut Writer) {
        w.str_ref(*self);
    }
}

/// Declares a wire enum read as a varint (or byte) index into its value list.
macro_rules! wire_enum {
    ($(#[$m:meta])* $name:ident, $what:literal, [$($(#[$vm:meta])* $v:ident),+ $(,)?]) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
        pub enum $name {
            $($(#[$vm])* $v),+
        }
        impl $name {
            const ALL: &'static [$name] = &[$($name::$v),+];
            /// Name used in error messages.
            pub(crate) const WHAT: &'static str = $what;
            /// The value for a wire discriminant.
            pub fn from_wire(v: u32) -> Option<Self> {
                Self::ALL.get(v as usize).copied()
            }
            /// The wire discriminant.
            pub fn to_wire(self) -> u32 {
                self as u32
            }
        }
    };
}

wire_enum!(
    /// How a bone inherits its parent's transform (`TransformMode`, varint).
    TransformMode, "transform mode",
    [
        /// `0`
        Normal,
        /// `1`
        OnlyTranslation,
        /// `2`
        NoRotationOrReflection,
        /// `3`
        NoScale,
        /// `4`
        NoScaleOrReflection,
    ]
);

wire_enum!(
    /// A slot's blend mode (varint).
    BlendMode, "blend mode",
    [
        /// `0`
        Normal,
        /// `1`
        Additive,
        /// `2`
        Multiply,
        /// `3`
        Screen,
    ]
);

wire_enum!(
    /// How a path constraint's position is measured (varint).
    PositionMode, "position mode",
    [
        /// `0`: in world units (scaled at load time).
        Fixed,
        /// `1`: as a fraction of the path length.
        Percent,
    ]
);

wire_enum!(
    /// How a path constraint's spacing is measured (varint).
    SpacingMode, "spacing mode",
    [
        /// `0`: bone-length based (scaled at load time).
        Length,
        /// `1`: in world units (scaled at load time).
        Fixed,
        /// `2`: as a fraction of the path length.
        Percent,
    ]
);

wire_enum!(
    /// How a path constraint rotates its bones (varint).
    RotateMode, "rotate mode",
    [
        /// `0`
        Tangent,
        /// `1`
        Chain,
        /// `2`
        ChainScale,
    ]
);

/// The 3.x curve record written after every keyframe but the last: a type byte
/// (`0` linear, `1` stepped, `2` bezier followed by four floats).
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub enum Curve {
    /// `0`
    #[default]
    Linear,
    /// `1`
    Stepped,
    /// `2`: control points `cx1, cy1, cx2, cy2`.
    Bezier([f32; 4]),
}

/// A 3.x curve timeline: keyframes and the curve from each keyframe to the next.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Timeline<V> {
    /// Keyframes, at least one.
    pub frames: Vec<Keyframe<V>>,
    /// `curves[i]` leads from `frames[i]` to `frames[i + 1]` (one fewer than frames).
    pub curves: Vec<Curve>,
}

impl<V> Timeline<V> {
    /// Time of the last keyframe.
    pub fn last_time(&self) -> f32 {
        self.frames.last().map_or(0.0, |f| f.time)
    }
}

/// An IK constraint key.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct IkKey {
    /// Mix.
    pub mix: f32,
    /// Softness (3.8 only; 0 before). Scaled at load time.
    pub softness: f32,
    /// Bend direction, `1` or `-1` (signed byte).
    pub bend_direction: i8,
    /// Compress (3.7+; `false` before).
    pub compress: bool,
    /// Stretch (3.7+; `false` before).
    pub stretch: bool,
}

/// A two-color (tint black) key: light color RGBA and dark color (the first byte of the
/// dark `int` is unused by the runtimes, the other three are R G B).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct TwoColor {
    /// Light color, R G B A.
    pub light: [u8; 4],
    /// Dark color as the 4 wire bytes (`_ R G B`).
    pub dark: [u8; 4],
}

/// A deform key: offsets for vertex components `start .. start + offsets.len()`.
/// No offsets (wire `end == 0`) means "the setup vertices"; `start` is then absent on
/// the wire and kept as 0.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DeformKey {
    /// First vertex component the offsets apply to.
    pub start: u32,
    /// Offsets (unscaled).
    pub offsets: Vec<f32>,
}

/// An attachment key of an attachment timeline (no curve).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct AttachmentKey<S> {
    /// Key time.
    pub time: f32,
    /// Attachment name (null: hide).
    pub name: S,
}

/// One slot timeline.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum SlotTimeline<S> {
    /// `0`: attachment keys.
    Attachment(Vec<AttachmentKey<S>>),
    /// `1`: RGBA color.
    Color(Timeline<[u8; 4]>),
    /// `2` (3.6+): light and dark color.
    TwoColor(Timeline<TwoColor>),
}

/// The timelines of one slot.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SlotTimelines<S> {
    /// Slot index.
    pub slot: u32,
    /// Timelines in file order.
    pub timelines: Vec<SlotTimeline<S>>,
}

/// One bone timeline.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum BoneTimeline {
    /// `0`: angle.
    Rotate(Timeline<f32>),
    /// `1`: x, y (scaled at load time).
    Translate(Timeline<[f32; 2]>),
    /// `2`: scale x, y.
    Scale(Timeline<[f32; 2]>),
    /// `3`: shear x, y.
    Shear(Timeline<[f32; 2]>),
}

/// The timelines of one bone.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct BoneTimelines {
    /// Bone index.
    pub bone: u32,
    /// Timelines in file order.
    pub timelines: Vec<BoneTimeline>,
}

/// The timeline of one IK constraint.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct IkTimeline {
    /// IK constraint index.
    pub constraint: u32,
    /// Keys.
    pub timeline: Timeline<IkKey>,
}

/// The timeline of one transform constraint: rotate, translate, scale, shear mixes.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TransformTimeline {
    /// Transform constraint index.
    pub constraint: u32,
    /// Keys: `[rotate, translate, scale, shear]` mixes.
    pub timeline: Timeline<[f32; 4]>,
}

/// One path constraint timeline.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum PathTimeline {
    /// `0`: position (scaled at load time when the position mode is fixed).
    Position(Timeline<f32>),
    /// `1`: spacing (scaled at load time for length/fixed spacing).
    Spacing(Timeline<f32>),
    /// `2`: rotate and translate mixes.
    Mix(Timeline<[f32; 2]>),
}

/// The timelines of one path constraint.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PathTimelines {
    /// Path constraint index.
    pub constraint: u32,
    /// Timelines in file order.
    pub timelines: Vec<PathTimeline>,
}

/// The deform timelines of one skin.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DeformSkin<S> {
    /// Skin index (the default skin, when present, is 0).
    pub skin: u32,
    /// Per slot.
    pub slots: Vec<DeformSlot<S>>,
}

/// The deform timelines of one slot of a skin.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DeformSlot<S> {
    /// Slot index.
    pub slot: u32,
    /// Per attachment.
    pub attachments: Vec<DeformTimeline<S>>,
}

/// The deform timeline of one attachment (looked up by name in the skin; unresolved here).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DeformTimeline<S> {
    /// Attachment name (the skin key).
    pub attachment: S,
    /// Keys.
    pub timeline: Timeline<DeformKey>,
}

/// A draw-order key.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DrawOrderKey {
    /// Key time.
    pub time: f32,
    /// Changes from the setup order (empty: setup order).
    pub changes: Vec<DrawOrderChange>,
}

/// Volume and balance of an event with audio (3.7+).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct EventAudio {
    /// Volume.
    pub volume: f32,
    /// Balance.
    pub balance: f32,
}

/// An event's audio (3.7+), in an event definition.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct EventDataAudio {
    /// Audio path.
    pub path: String,
    /// Default volume.
    pub volume: f32,
    /// Default balance.
    pub balance: f32,
}

/// An event key.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct EventKey {
    /// Key time.
    pub time: f32,
    /// Event index.
    pub event: u32,
    /// Integer value (zigzag varint).
    pub int: i32,
    /// Float value.
    pub float: f32,
    /// `None`: the event's default string; `Some(s)`: the key's own (possibly null) string.
    pub string: Option<Option<String>>,
    /// Volume and balance, present (3.7+) exactly when the event has an audio path.
    pub audio: Option<EventAudio>,
}

/// An animation. Sections in file order.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Animation<S> {
    /// Name (an inline string in every 3.x version).
    pub name: crate::Name,
    /// Slot timelines.
    pub slots: Vec<SlotTimelines<S>>,
    /// Bone timelines.
    pub bones: Vec<BoneTimelines>,
    /// IK constraint timelines.
    pub ik: Vec<IkTimeline>,
    /// Transform constraint timelines.
    pub transform: Vec<TransformTimeline>,
    /// Path constraint timelines.
    pub path: Vec<PathTimelines>,
    /// Deform timelines.
    pub deform: Vec<DeformSkin<S>>,
    /// Draw-order keys (empty: no draw-order timeline).
    pub draw_order: Vec<DrawOrderKey>,
    /// Event keys (empty: no event timeline).
    pub events: Vec<EventKey>,
}

impl<S> Animation<S> {
    /// Duration as the official loader computes it: the latest last-key time of any
    /// timeline (0 when there are none).
    pub fn duration(&self) -> f32 {
        let mut d = 0.0f32;
        let mut see = |t: f32| d = d.max(t);
        for s in &self.slots {
            for t in &s.timelines {
                see(match t {
                    SlotTimeline::Attachment(k) => k.last().map_or(0.0, |k| k.time),
                    SlotTimeline::Color(t) => t.last_time(),
                    SlotTimeline::TwoColor(t) => t.last_time(),
                });
            }
        }
        for b in &self.bones {
            for t in &b.timelines {
                see(match t {
                    BoneTimeline::Rotate(t) => t.last_time(),
                    BoneTimeline::Translate(t)
                    | BoneTimeline::Scale(t)
                    | BoneTimeline::Shear(t) => t.last_time(),
                });
            }
        }
        self.ik.iter().for_each(|t| see(t.timeline.last_time()));
        self.transform.iter().for_each(|t| see(t.timeline.last_time()));
        for p in &self.path {
            for t in &p.timelines {
                see(match t {
                    PathTimeline::Position(t) | PathTimeline::Spacing(t) => t.last_time(),
                    PathTimeline::Mix(t) => t.last_time(),
                });
            }
        }
        for s in &self.deform {
            for sl in &s.slots {
                sl.attachments.iter().for_each(|a| see(a.timeline.last_time()));
            }
        }
        if let Some(k) = self.draw_order.last() {
            see(k.time);
        }
        if let Some(k) = self.events.last() {
            see(k.time);
        }
        d
    }
}

/// One weighted vertex's influence.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct BoneWeight {
    /// Bone index.
    pub bone: u32,
    /// Bind position x (scaled at load time).
    pub x: f32,
    /// Bind position y (scaled at load time).
    pub y: f32,
    /// Weight.
    pub weight: f32,
}

/// A vertex list: `vertexCount`, a weighted flag, then the data.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum Vertices {
    /// `x, y` pairs (scaled at load time), `2 * vertexCount` floats.
    Unweighted(Vec<f32>),
    /// Per vertex, its bone influences.
    Weighted(Vec<Vec<BoneWeight>>),
}

impl Vertices {
    /// The number of vertices.
    pub fn vertex_count(&self) -> usize {
        match self {
            Vertices::Unweighted(v) => v.len() / 2,
            Vertices::Weighted(v) => v.len(),
        }
    }
}

/// Width and height of a mesh as drawn in the editor (nonessential).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Size {
    /// Width.
    pub width: f32,
    /// Height.
    pub height: f32,
}

/// A region attachment.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Region<S> {
    /// Image path (null: the attachment name).
    pub path: S,
    /// Rotation.
    pub rotation: f32,
    /// X.
    pub x: f32,
    /// Y.
    pub y: f32,
    /// Scale x.
    pub scale_x: f32,
    /// Scale y.
    pub scale_y: f32,
    /// Width.
    pub width: f32,
    /// Height.
    pub height: f32,
    /// Color RGBA.
    pub color: [u8; 4],
}

/// A bounding-box attachment.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct BoundingBox {
    /// Vertices.
    pub vertices: Vertices,
    /// Editor color (nonessential).
    pub color: Option<[u8; 4]>,
}

/// Nonessential mesh data.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MeshExtras {
    /// Edge vertex-index pairs (shorts).
    pub edges: Vec<u16>,
    /// Width and height.
    pub size: Size,
}

/// A mesh attachment.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Mesh<S> {
    /// Image path (null: the attachment name).
    pub path: S,
    /// Color RGBA.
    pub color: [u8; 4],
    /// Region UVs, `2 * vertexCount` floats.
    pub uvs: Vec<f32>,
    /// Triangle vertex indices (shorts).
    pub triangles: Vec<u16>,
    /// Vertices (same count as the UVs).
    pub vertices: Vertices,
    /// Hull length in vertices.
    pub hull_length: u32,
    /// Nonessential data.
    pub extras: Option<MeshExtras>,
}

/// A linked mesh attachment (its parent is recorded unresolved).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LinkedMesh<S> {
    /// Image path (null: the attachment name).
    pub path: S,
    /// Color RGBA.
    pub color: [u8; 4],
    /// Skin of the parent mesh (null: the default skin).
    pub skin: S,
    /// Parent mesh name.
    pub parent: S,
    /// Whether deform timelines of the parent apply.
    pub inherit_deform: bool,
    /// Width and height (nonessential).
    pub size: Option<Size>,
}

/// A path attachment.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PathAttachment {
    /// Closed path.
    pub closed: bool,
    /// Constant speed.
    pub constant_speed: bool,
    /// Vertices.
    pub vertices: Vertices,
    /// Curve lengths, `vertexCount / 3` floats (scaled at load time).
    pub lengths: Vec<f32>,
    /// Editor color (nonessential).
    pub color: Option<[u8; 4]>,
}

/// A point attachment (3.6+).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Point {
    /// Rotation.
    pub rotation: f32,
    /// X.
    pub x: f32,
    /// Y.
    pub y: f32,
    /// Editor color (nonessential).
    pub color: Option<[u8; 4]>,
}

/// A clipping attachment (3.6+).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Clipping {
    /// Slot index where clipping ends.
    pub end_slot: u32,
    /// Vertices.
    pub vertices: Vertices,
    /// Editor color (nonessential).
    pub color: Option<[u8; 4]>,
}

/// An attachment, by wire type byte.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum Attachment<S> {
    /// `0`
    Region(Region<S>),
    /// `1`
    BoundingBox(BoundingBox),
    /// `2`
    Mesh(Mesh<S>),
    /// `3`
    LinkedMesh(LinkedMesh<S>),
    /// `4`
    Path(PathAttachment),
    /// `5` (3.6+)
    Point(Point),
    /// `6` (3.6+)
    Clipping(Clipping),
}

/// One attachment of a skin slot.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SkinEntry<S> {
    /// The skin key (placeholder name).
    pub key: S,
    /// The attachment name (null: the key).
    pub name: S,
    /// The attachment.
    pub attachment: Attachment<S>,
}

/// The attachments of one slot in a skin.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SkinSlot<S> {
    /// Slot index.
    pub slot: u32,
    /// Attachments in file order.
    pub entries: Vec<SkinEntry<S>>,
}

/// Whether `g` is at least `min` (for version-gated fields).
pub(crate) fn since(g: SpineVersion, min: SpineVersion) -> bool {
    g >= min
}
