//! The raw AST of 4.0–4.2 animations: every timeline section in wire order.

use crate::binary::prim::StrRef;
use crate::binary::shared::{CurveTimeline, CurveType, DrawOrderChange};

use super::ast::Inherit;

/// An animation.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Animation {
    /// Name.
    pub name: crate::Name,
    /// The timeline count written first (a capacity hint for the loader; kept raw).
    pub timeline_count: u32,
    /// Slot timeline groups (slot and timeline count), in wire order; their timelines are
    /// consecutive runs of [`Animation::slot_timelines`] (see [`Animation::slot_groups`]).
    pub slots: Vec<SlotTimelines>,
    /// The timelines of every slot group, one group after the other.
    pub slot_timelines: Vec<SlotTimeline>,
    /// Bone timeline groups (bone and timeline count), in wire order; their timelines are
    /// consecutive runs of [`Animation::bone_timelines`] (see [`Animation::bone_groups`]).
    pub bones: Vec<BoneTimelines>,
    /// The timelines of every bone group, one group after the other.
    pub bone_timelines: Vec<BoneTimeline>,
    /// IK constraint timelines.
    pub ik: Vec<IkTimeline>,
    /// Transform constraint timelines.
    pub transform: Vec<TransformTimeline>,
    /// Path constraint timelines, grouped by constraint.
    pub path: Vec<PathTimelines>,
    /// Physics constraint timelines, grouped by constraint (4.2 only).
    pub physics: Vec<PhysicsTimelines>,
    /// Attachment (deform and, 4.1+, sequence) timelines, grouped by skin and slot.
    pub attachments: Vec<SkinTimelines>,
    /// Draw-order keys (empty = no draw-order timeline).
    pub draw_order: Vec<DrawOrderKey>,
    /// Event keys (empty = no event timeline).
    pub events: Vec<EventKey>,
}

/// Splits `all` into the runs of `counts` (a run past the end is cut short).
fn runs<'a, T>(
    all: &'a [T],
    groups: impl Iterator<Item = (u32, u32)> + 'a,
) -> impl Iterator<Item = (u32, &'a [T])> + 'a {
    let mut at = 0usize;
    groups.map(move |(id, count)| {
        let start = at.min(all.len());
        at = at.saturating_add(count as usize);
        (id, all.get(start..at.min(all.len())).unwrap_or(&[]))
    })
}

impl Animation {
    /// Each slot group: the slot and its timelines.
    pub fn slot_groups(&self) -> impl Iterator<Item = (u32, &[SlotTimeline])> + '_ {
        runs(&self.slot_timelines, self.slots.iter().map(|g| (g.slot, g.count)))
    }

    /// Each bone group: the bone and its timelines.
    pub fn bone_groups(&self) -> impl Iterator<Item = (u32, &[BoneTimeline])> + '_ {
        runs(&self.bone_timelines, self.bones.iter().map(|g| (g.bone, g.count)))
    }

    /// The loader's duration: the latest last-key time of any timeline (at least 0).
    pub fn duration(&self) -> f32 {
        let mut d = 0.0f32;
        let mut see = |t: f32| d = d.max(t);
        for (_, timelines) in self.slot_groups() {
            for t in timelines {
                see(t.last_time());
            }
        }
        for (_, timelines) in self.bone_groups() {
            for t in timelines {
                see(t.last_time());
            }
        }
        for t in &self.ik {
            see(t.keys.last().map_or(0.0, |k| k.time));
        }
        for t in &self.transform {
            see(t.timeline.last_time());
        }
        for p in &self.path {
            for t in &p.timelines {
                see(t.last_time());
            }
        }
        for p in &self.physics {
            for t in &p.timelines {
                see(t.last_time());
            }
        }
        for s in &self.attachments {
            for slot in &s.slots {
                for a in &slot.attachments {
                    see(a.timeline.last_time());
                }
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

/// A group of slot timelines: the slot and how many timelines follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct SlotTimelines {
    /// Slot index.
    pub slot: u32,
    /// Number of timelines (the next run of [`Animation::slot_timelines`]).
    pub count: u32,
}

/// An attachment key: time and attachment name (`NONE` = hide).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct AttachmentKey {
    /// Time.
    pub time: f32,
    /// Attachment name.
    pub name: StrRef,
}

/// A slot timeline (type byte 0–5).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum SlotTimeline {
    /// `0`: attachment switches.
    Attachment(Vec<AttachmentKey>),
    /// `1`: RGBA bytes.
    Rgba(CurveTimeline<[u8; 4]>),
    /// `2`: RGB bytes.
    Rgb(CurveTimeline<[u8; 3]>),
    /// `3`: RGBA then dark RGB bytes.
    Rgba2(CurveTimeline<[u8; 7]>),
    /// `4`: RGB then dark RGB bytes.
    Rgb2(CurveTimeline<[u8; 6]>),
    /// `5`: alpha byte.
    Alpha(CurveTimeline<[u8; 1]>),
}

impl SlotTimeline {
    /// Time of the last key.
    pub fn last_time(&self) -> f32 {
        match self {
            SlotTimeline::Attachment(k) => k.last().map_or(0.0, |k| k.time),
            SlotTimeline::Rgba(t) => t.last_time(),
            SlotTimeline::Rgb(t) => t.last_time(),
            SlotTimeline::Rgba2(t) => t.last_time(),
            SlotTimeline::Rgb2(t) => t.last_time(),
            SlotTimeline::Alpha(t) => t.last_time(),
        }
    }
}

/// A group of bone timelines: the bone and how many timelines follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct BoneTimelines {
    /// Bone index.
    pub bone: u32,
    /// Number of timelines (the next run of [`Animation::bone_timelines`]).
    pub count: u32,
}

/// An inherit key (4.2).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct InheritKey {
    /// Time.
    pub time: f32,
    /// Inheritance from this key on.
    pub inherit: Inherit,
}

/// A bone timeline (type byte 0–10). Translate values are scaled.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum BoneTimeline {
    /// `0`
    Rotate(CurveTimeline<[f32; 1]>),
    /// `1`
    Translate(CurveTimeline<[f32; 2]>),
    /// `2`
    TranslateX(CurveTimeline<[f32; 1]>),
    /// `3`
    TranslateY(CurveTimeline<[f32; 1]>),
    /// `4`
    Scale(CurveTimeline<[f32; 2]>),
    /// `5`
    ScaleX(CurveTimeline<[f32; 1]>),
    /// `6`
    ScaleY(CurveTimeline<[f32; 1]>),
    /// `7`
    Shear(CurveTimeline<[f32; 2]>),
    /// `8`
    ShearX(CurveTimeline<[f32; 1]>),
    /// `9`
    ShearY(CurveTimeline<[f32; 1]>),
    /// `10` (4.2): inherit switches.
    Inherit(Vec<InheritKey>),
}

impl BoneTimeline {
    /// Time of the last key.
    pub fn last_time(&self) -> f32 {
        match self {
            BoneTimeline::Rotate(t)
            | BoneTimeline::TranslateX(t)
            | BoneTimeline::TranslateY(t)
            | BoneTimeline::ScaleX(t)
            | BoneTimeline::ScaleY(t)
            | BoneTimeline::ShearX(t)
            | BoneTimeline::ShearY(t) => t.last_time(),
            BoneTimeline::Translate(t) | BoneTimeline::Scale(t) | BoneTimeline::Shear(t) => {
                t.last_time()
            }
            BoneTimeline::Inherit(k) => k.last().map_or(0.0, |k| k.time),
        }
    }
}

/// An IK constraint timeline.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct IkTimeline {
    /// Constraint index.
    pub constraint: u32,
    /// The `bezierCount` written before the keys.
    pub bezier_count: u32,
    /// Keys, at least one.
    pub keys: Vec<IkKey>,
}

/// One IK key. Before 4.2 every value is on the wire and the curve is an `sbyte`; in 4.2 a
/// raw flags byte precedes each key (1 mix present, 2 mix on the wire (else 1), 4 softness,
/// 8 bend +1, 16 compress, 32 stretch, 64 stepped, 128 bezier).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct IkKey {
    /// 4.2: the raw flags byte of this key.
    pub flags: Option<u8>,
    /// Time.
    pub time: f32,
    /// Mix (`None` when not on the wire in 4.2).
    pub mix: Option<f32>,
    /// Softness (scaled; `None` when not on the wire in 4.2).
    pub softness: Option<f32>,
    /// Bend direction.
    pub bend_direction: i8,
    /// Compress.
    pub compress: bool,
    /// Stretch.
    pub stretch: bool,
    /// The curve from the previous key to this one (`Linear` for the first key).
    pub curve: CurveType,
    /// Bezier control points `(cx1, cy1, cx2, cy2)` for mix then softness, when the curve is
    /// a bezier.
    pub bezier: Option<[[f32; 4]; 2]>,
}

/// A transform constraint timeline: mixes rotate, x, y, scale x, scale y, shear y.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TransformTimeline {
    /// Constraint index.
    pub constraint: u32,
    /// The curve timeline.
    pub timeline: CurveTimeline<[f32; 6]>,
}

/// The timelines of one path constraint.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PathTimelines {
    /// Constraint index.
    pub constraint: u32,
    /// Timelines.
    pub timelines: Vec<PathTimeline>,
}

/// A path constraint timeline (type byte 0–2).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum PathTimeline {
    /// `0`: position.
    Position(CurveTimeline<[f32; 1]>),
    /// `1`: spacing.
    Spacing(CurveTimeline<[f32; 1]>),
    /// `2`: mix rotate, x, y.
    Mix(CurveTimeline<[f32; 3]>),
}

impl PathTimeline {
    /// Time of the last key.
    pub fn last_time(&self) -> f32 {
        match self {
            PathTimeline::Position(t) | PathTimeline::Spacing(t) => t.last_time(),
            PathTimeline::Mix(t) => t.last_time(),
        }
    }
}

/// The timelines of one physics constraint (4.2).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PhysicsTimelines {
    /// The raw index on the wire: `0` means every physics constraint, `n` means constraint
    /// `n - 1`.
    pub constraint: u32,
    /// Timelines.
    pub timelines: Vec<PhysicsTimeline>,
}

/// Which property a physics curve timeline animates (type byte; `3` is unused).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum PhysicsProperty {
    /// `0`
    Inertia,
    /// `1`
    Strength,
    /// `2`
    Damping,
    /// `4`
    Mass,
    /// `5`
    Wind,
    /// `6`
    Gravity,
    /// `7`
    Mix,
}

impl PhysicsProperty {
    /// Decodes the wire value (not `8`, the reset timeline).
    pub fn from_wire(v: u8) -> Option<Self> {
        Some(match v {
            0 => PhysicsProperty::Inertia,
            1 => PhysicsProperty::Strength,
            2 => PhysicsProperty::Damping,
            4 => PhysicsProperty::Mass,
            5 => PhysicsProperty::Wind,
            6 => PhysicsProperty::Gravity,
            7 => PhysicsProperty::Mix,
            _ => return None,
        })
    }

    /// The wire value.
    pub fn to_wire(self) -> u8 {
        match self {
            PhysicsProperty::Inertia => 0,
            PhysicsProperty::Strength => 1,
            PhysicsProperty::Damping => 2,
            PhysicsProperty::Mass => 4,
            PhysicsProperty::Wind => 5,
            PhysicsProperty::Gravity => 6,
            PhysicsProperty::Mix => 7,
        }
    }
}

/// A physics constraint timeline.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum PhysicsTimeline {
    /// A curve timeline of one property.
    Value(PhysicsProperty, CurveTimeline<[f32; 1]>),
    /// `8`: reset key times.
    Reset(Vec<f32>),
}

impl PhysicsTimeline {
    /// Time of the last key.
    pub fn last_time(&self) -> f32 {
        match self {
            PhysicsTimeline::Value(_, t) => t.last_time(),
            PhysicsTimeline::Reset(k) => k.last().copied().unwrap_or(0.0),
        }
    }
}

/// Attachment timelines of one skin.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SkinTimelines {
    /// Skin index (the default skin, when present, is 0).
    pub skin: u32,
    /// Per slot.
    pub slots: Vec<SlotAttachmentTimelines>,
}

/// Attachment timelines of one slot.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SlotAttachmentTimelines {
    /// Slot index.
    pub slot: u32,
    /// Per attachment.
    pub attachments: Vec<AttachmentTimelineEntry>,
}

/// One attachment's timeline.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct AttachmentTimelineEntry {
    /// The attachment's skin key.
    pub attachment: StrRef,
    /// The timeline.
    pub timeline: AttachmentTimeline,
}

/// An attachment timeline (4.0 has only deform and no type byte; 4.1+ has type 0 deform,
/// 1 sequence).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum AttachmentTimeline {
    /// Vertex offsets.
    Deform(DeformTimeline),
    /// Sequence frame changes (4.1+).
    Sequence(Vec<SequenceKey>),
}

impl AttachmentTimeline {
    /// Time of the last key.
    pub fn last_time(&self) -> f32 {
        match self {
            AttachmentTimeline::Deform(d) => d.keys.last().map_or(0.0, |k| k.time),
            AttachmentTimeline::Sequence(k) => k.last().map_or(0.0, |k| k.time),
        }
    }
}

/// A deform timeline.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DeformTimeline {
    /// The `bezierCount` written before the keys.
    pub bezier_count: u32,
    /// Keys, at least one.
    pub keys: Vec<DeformKey>,
}

/// One deform key.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DeformKey {
    /// Time.
    pub time: f32,
    /// The curve from the previous key to this one (`Linear` for the first key).
    pub curve: CurveType,
    /// Bezier control points when the curve is a bezier.
    pub bezier: Option<[f32; 4]>,
    /// Index of the first changed vertex component (0 and not on the wire when `values`
    /// is empty).
    pub start: u32,
    /// Offsets (scaled) from `start` on; empty = setup vertices.
    pub values: Vec<f32>,
}

/// Sequence modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum SequenceMode {
    /// `0`
    Hold,
    /// `1`
    Once,
    /// `2`
    Loop,
    /// `3`
    Pingpong,
    /// `4`
    OnceReverse,
    /// `5`
    LoopReverse,
    /// `6`
    PingpongReverse,
}

impl SequenceMode {
    /// Decodes the wire value.
    pub fn from_wire(v: i32) -> Option<Self> {
        Some(match v {
            0 => SequenceMode::Hold,
            1 => SequenceMode::Once,
            2 => SequenceMode::Loop,
            3 => SequenceMode::Pingpong,
            4 => SequenceMode::OnceReverse,
            5 => SequenceMode::LoopReverse,
            6 => SequenceMode::PingpongReverse,
            _ => return None,
        })
    }
}

/// A sequence key (4.1+).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct SequenceKey {
    /// Time.
    pub time: f32,
    /// The raw `int`: mode in the low 4 bits, frame index in the rest.
    pub mode_and_index: i32,
    /// Delay between frames.
    pub delay: f32,
}

impl SequenceKey {
    /// The sequence mode (validated by the parser).
    pub fn mode(&self) -> Option<SequenceMode> {
        SequenceMode::from_wire(self.mode_and_index & 0xf)
    }

    /// The frame index.
    pub fn index(&self) -> i32 {
        self.mode_and_index >> 4
    }
}

/// A draw-order key.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DrawOrderKey {
    /// Time.
    pub time: f32,
    /// Changes from the setup order (empty = setup order).
    pub changes: Vec<DrawOrderChange>,
}

/// An event key.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct EventKey {
    /// Time.
    pub time: f32,
    /// Event index.
    pub event: u32,
    /// Int value.
    pub int: i32,
    /// Float value.
    pub float: f32,
    /// String value (`None` = the event's default).
    pub string: Option<String>,
    /// Volume and balance, on the wire when the event has an audio path.
    pub audio: Option<[f32; 2]>,
}
