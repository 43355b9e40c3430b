//! Animations: timelines per slot, bone and constraint, attachment timelines, draw order and
//! event keys.

use super::*;

/// An animation.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct Animation {
    /// Name.
    pub name: crate::Name,
    /// The leading timeline-count hint as written.
    pub timeline_hint: u32,
    /// Slot timelines.
    pub slots: Vec<SlotTimelines>,
    /// Bone timelines.
    pub bones: Vec<BoneTimelines>,
    /// IK constraint timelines.
    pub ik: Vec<IkTimeline>,
    /// Transform constraint timelines.
    pub transform: Vec<TransformTimeline>,
    /// Path constraint timelines.
    pub path: Vec<PathTimelines>,
    /// Physics constraint timelines.
    pub physics: Vec<PhysicsTimelines>,
    /// Slider timelines.
    pub slider: Vec<SliderTimelines>,
    /// Deform and sequence timelines.
    pub attachments: Vec<AttachmentTimelinesSkin>,
    /// Draw-order keys (empty = no timeline).
    pub draw_order: Vec<DrawOrderKey>,
    /// Draw-order folder timelines.
    pub draw_order_folders: Vec<DrawOrderFolder>,
    /// Event keys (empty = no timeline).
    pub events: Vec<EventKey>,
    /// Nonessential animation color (present iff the header flag is set).
    pub color: Option<[u8; 4]>,
}

/// The timelines of one slot.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct SlotTimelines {
    /// Slot index.
    pub slot: u32,
    /// Timelines.
    pub timelines: Vec<SlotTimeline>,
}

/// An attachment key.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct AttachmentKey {
    /// Time.
    pub time: f32,
    /// Attachment name (none = hide).
    pub attachment: StrRef,
}

/// A slot timeline (byte type 0–5).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum SlotTimeline {
    /// 0
    Attachment(Vec<AttachmentKey>),
    /// 1: r g b a bytes.
    Rgba(CurveTimeline<[u8; 4]>),
    /// 2: r g b bytes.
    Rgb(CurveTimeline<[u8; 3]>),
    /// 3: r g b a r2 g2 b2 bytes.
    Rgba2(CurveTimeline<[u8; 7]>),
    /// 4: r g b r2 g2 b2 bytes.
    Rgb2(CurveTimeline<[u8; 6]>),
    /// 5: alpha byte.
    Alpha(CurveTimeline<[u8; 1]>),
}

/// The timelines of one bone.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct BoneTimelines {
    /// Bone index.
    pub bone: u32,
    /// Timelines.
    pub timelines: Vec<BoneTimeline>,
}

/// An inherit key.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct InheritKey {
    /// Time.
    pub time: f32,
    /// Inherit mode.
    pub inherit: Inherit,
}

/// A bone timeline (byte type 0–10). Translate values are scaled.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum BoneTimeline {
    /// 0
    Rotate(CurveTimeline<[f32; 1]>),
    /// 1 (scaled)
    Translate(CurveTimeline<[f32; 2]>),
    /// 2 (scaled)
    TranslateX(CurveTimeline<[f32; 1]>),
    /// 3 (scaled)
    TranslateY(CurveTimeline<[f32; 1]>),
    /// 4
    Scale(CurveTimeline<[f32; 2]>),
    /// 5
    ScaleX(CurveTimeline<[f32; 1]>),
    /// 6
    ScaleY(CurveTimeline<[f32; 1]>),
    /// 7
    Shear(CurveTimeline<[f32; 2]>),
    /// 8
    ShearX(CurveTimeline<[f32; 1]>),
    /// 9
    ShearY(CurveTimeline<[f32; 1]>),
    /// 10
    Inherit(Vec<InheritKey>),
}

/// One IK timeline key.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct IkKey {
    /// Raw flags: 1 mix non-zero, 2 mix float follows, 4 softness follows, 8 bend +1
    /// (not inverted, gotcha 7), 16 compress, 32 stretch, 64 stepped, 128 bezier.
    pub flags: u8,
    /// Time.
    pub time: f32,
    /// Iff `flags & 1` and `flags & 2`.
    pub mix: Option<f32>,
    /// Softness (scaled); iff `flags & 4`.
    pub softness: Option<f32>,
    /// Bezier into this key (mix curve, softness curve); only on keys after the first,
    /// iff `flags & 128` and not `flags & 64`.
    pub bezier: Option<[[f32; 4]; 2]>,
}

impl IkKey {
    /// Bend direction: `1` when `flags & 8`, else `-1`.
    pub fn bend_direction(&self) -> i32 {
        if self.flags & 8 != 0 {
            1
        } else {
            -1
        }
    }
}

/// An IK constraint timeline.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct IkTimeline {
    /// IK constraint index (unified list).
    pub constraint: u32,
    /// `bezierCount`.
    pub bezier_count: u32,
    /// Keys.
    pub keys: Vec<IkKey>,
}

/// A transform constraint timeline (six mixes).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TransformTimeline {
    /// Transform constraint index (unified list).
    pub constraint: u32,
    /// Mix rotate, x, y, scaleX, scaleY, shearY.
    pub timeline: CurveTimeline<[f32; 6]>,
}

/// The timelines of one path constraint.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct PathTimelines {
    /// Path constraint index (unified list).
    pub constraint: u32,
    /// Timelines.
    pub timelines: Vec<PathTimeline>,
}

/// A path constraint timeline (byte type 0–2).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum PathTimeline {
    /// 0 (scaled when the position mode is `Fixed`)
    Position(CurveTimeline<[f32; 1]>),
    /// 1 (scaled when the spacing mode is `Length` or `Fixed`)
    Spacing(CurveTimeline<[f32; 1]>),
    /// 2: mix rotate, x, y.
    Mix(CurveTimeline<[f32; 3]>),
}

/// The timelines of one physics constraint, or of all of them.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct PhysicsTimelines {
    /// Physics constraint index (unified list), `None` for "all". On the wire it is
    /// 1-based with 0 meaning all (gotcha 5).
    pub constraint: Option<u32>,
    /// Timelines.
    pub timelines: Vec<PhysicsTimeline>,
}

/// Which physics property a curve timeline drives (byte type; 3 is unused, 8 is reset).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum PhysicsProperty {
    /// 0
    Inertia,
    /// 1
    Strength,
    /// 2
    Damping,
    /// 4
    Mass,
    /// 5
    Wind,
    /// 6
    Gravity,
    /// 7
    Mix,
}

/// A physics constraint timeline.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum PhysicsTimeline {
    /// Types 0–2 and 4–7.
    Property(PhysicsProperty, CurveTimeline<[f32; 1]>),
    /// Type 8: reset times.
    Reset(Vec<f32>),
}

/// The timelines of one slider.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct SliderTimelines {
    /// Slider index (unified list).
    pub constraint: u32,
    /// Timelines.
    pub timelines: Vec<SliderTimeline>,
}

/// A slider timeline (byte type 0–1).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum SliderTimeline {
    /// 0
    Time(CurveTimeline<[f32; 1]>),
    /// 1
    Mix(CurveTimeline<[f32; 1]>),
}

/// Attachment timelines of one skin.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct AttachmentTimelinesSkin {
    /// Skin index.
    pub skin: u32,
    /// Per slot.
    pub slots: Vec<AttachmentTimelinesSlot>,
}

/// Attachment timelines of one slot of a skin.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct AttachmentTimelinesSlot {
    /// Slot index.
    pub slot: u32,
    /// Per attachment.
    pub attachments: Vec<AttachmentTimeline>,
}

/// A deform or sequence timeline of one attachment.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct AttachmentTimeline {
    /// Attachment (placeholder) name.
    pub attachment: StrRef,
    /// The timeline.
    pub kind: AttachmentTimelineKind,
}

/// Attachment timeline bodies (byte type 0–1).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum AttachmentTimelineKind {
    /// 0
    Deform(DeformTimeline),
    /// 1
    Sequence(Vec<SequenceKey>),
}

/// Changed vertices of a deform key.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct DeformValues {
    /// First changed index.
    pub start: u32,
    /// Values (scaled; offsets from setup for unweighted meshes). Never empty.
    pub values: Vec<f32>,
}

/// A deform key.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct DeformKey {
    /// Time.
    pub time: f32,
    /// `None` (`end == 0`) = setup vertices.
    pub values: Option<DeformValues>,
}

/// A deform timeline: keys, curves between them, one bezier (a 0→1 percent) per bezier curve.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct DeformTimeline {
    /// `bezierCount`.
    pub bezier_count: u32,
    /// Keys (at least one).
    pub keys: Vec<DeformKey>,
    /// `curves[i]` goes from `keys[i]` to `keys[i + 1]`.
    pub curves: Vec<crate::binary::shared::CurveType>,
    /// Control points of each bezier curve, in order.
    pub beziers: Vec<[f32; 4]>,
}

/// Sequence playback mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum SequenceMode {
    /// 0
    Hold,
    /// 1
    Once,
    /// 2
    Loop,
    /// 3
    PingPong,
    /// 4
    OnceReverse,
    /// 5
    LoopReverse,
    /// 6
    PingPongReverse,
}

/// A sequence key.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct SequenceKey {
    /// Time.
    pub time: f32,
    /// Mode (low 4 bits of the wire int).
    pub mode: SequenceMode,
    /// Frame index (wire int `>> 4`, arithmetic).
    pub index: i32,
    /// Delay.
    pub delay: f32,
}

/// A draw-order key.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct DrawOrderKey {
    /// Time.
    pub time: f32,
    /// Changes (empty = setup order).
    pub changes: Vec<DrawOrderChange>,
}

/// A draw-order folder timeline.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct DrawOrderFolder {
    /// The folder's slots; change indices are positions in this list.
    pub slots: Vec<u32>,
    /// Keys.
    pub keys: Vec<DrawOrderKey>,
}

/// An event key.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct EventKey {
    /// Time.
    pub time: f32,
    /// Event index.
    pub event: u32,
    /// Int value.
    pub int_value: i32,
    /// Float value.
    pub float_value: f32,
    /// String value (`None` = the event's default).
    pub string_value: Option<String>,
    /// Volume and balance; present iff the event has a non-empty audio path.
    pub volume_balance: Option<[f32; 2]>,
}
