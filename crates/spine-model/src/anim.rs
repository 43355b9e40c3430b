//! Animations: timelines bound to typed ids, keys in flat `f32` arrays with precomputed
//! curve tables.

use crate::data::Inherit;
use crate::ids::*;

/// Curve table value of a linear segment.
pub const LINEAR: f32 = 0.0;
/// Curve table value of a stepped segment.
pub const STEPPED: f32 = 1.0;
/// Curve table values `>= BEZIER` are `BEZIER + i`, `i` the start of the segment's points.
pub const BEZIER: f32 = 2.0;
/// Floats per precomputed bezier: 9 `(x, y)` points (spine-cpp 4.2 `BEZIER_SIZE`).
pub const BEZIER_SIZE: usize = 18;

/// Where one timeline's keys and curve table are in its animation's
/// [`AnimationData::keys`]: the floats `start..start + frames_len` are the keys, the next
/// `curves_len` floats the curve table. Read them through [`Curves::table`] (or
/// [`AnimationData::table`]).
///
/// Every curve timeline of an animation shares that one buffer, so that loading allocates
/// once per animation rather than once or twice per timeline.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Curves {
    /// Values per key (0 for deform timelines, whose curve maps `0..1` percent).
    pub channels: usize,
    /// Index in the animation's keys of the first key's time.
    pub start: u32,
    /// Floats of keys (`(1 + channels)` per key).
    pub frames_len: u32,
    /// Floats of the curve table, right after the keys (its bezier points start at index
    /// [`Curves::frame_count`]).
    pub curves_len: u32,
    /// How the bezier entries were built and must be sampled: the SkeletonData's
    /// [`Behaviour::curve_model`](crate::Behaviour::curve_model), recorded per table so
    /// evaluators need not look it up ([`CurveModel::Sampled3x`](crate::CurveModel::Sampled3x)
    /// tables are built by the 3.x converters).
    pub model: crate::CurveModel,
}

impl Curves {
    /// Floats per key.
    #[inline]
    pub fn stride(&self) -> usize {
        1 + self.channels
    }

    /// Number of keys.
    pub fn frame_count(&self) -> usize {
        self.frames_len as usize / self.stride()
    }

    /// The timeline has no key (`frame_count() == 0`, without the division).
    #[inline]
    pub fn is_empty(&self) -> bool {
        (self.frames_len as usize) < self.stride()
    }

    /// The keys and curve table in `keys` (the animation's [`AnimationData::keys`]); an
    /// empty table when they do not fit in `keys`.
    #[inline]
    pub fn table<'a>(&self, keys: &'a [f32]) -> CurveTable<'a> {
        // On 64-bit targets the sums of `u32`s cannot overflow, the checked additions fold
        // away and one bounds check remains; on 32-bit ones an overflowing range reads as
        // empty too.
        let (s, f, c) = (self.start as usize, self.frames_len as usize, self.curves_len as usize);
        let all = f.checked_add(c).and_then(|len| keys.get(s..s.checked_add(len)?));
        let (frames, curves) = all.and_then(|a| a.split_at_checked(f)).unwrap_or((&[], &[]));
        CurveTable { channels: self.channels, frames, curves, model: self.model }
    }
}

/// Keyframes and curves of one timeline, borrowed from its animation's keys.
///
/// `frames` holds `1 + channels` floats per key: the time then the values (scaled, colors
/// `0..=1`). With [`CurveModel::Bezier4x`](crate::CurveModel::Bezier4x), `curves` is the
/// spine-cpp 4.2 layout: `curves[k]` (for each key `k` but the last) is [`LINEAR`],
/// [`STEPPED`] or `BEZIER + i`, and from index `frame_count()` on come [`BEZIER_SIZE`]
/// floats per bezier (one bezier per channel of each bezier segment, channel `c` of
/// segment `k` written by `setBezier(…, k, c, …)`). A table whose segments are all linear
/// (no stepped, no bezier) may leave `curves` empty: read it with [`CurveTable::curve`] (or
/// `curves.get(k)`, a missing entry being [`LINEAR`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CurveTable<'a> {
    /// Values per key (0 for deform timelines, whose curve maps `0..1` percent).
    pub channels: usize,
    /// `time, v0, v1, …` per key.
    pub frames: &'a [f32],
    /// Curve table (the bezier points start at index [`CurveTable::frame_count`]).
    pub curves: &'a [f32],
    /// How the bezier entries were built and must be sampled (see [`Curves::model`]).
    pub model: crate::CurveModel,
}

impl CurveTable<'_> {
    /// Floats per key.
    #[inline]
    pub fn stride(&self) -> usize {
        1 + self.channels
    }

    /// Number of keys.
    pub fn frame_count(&self) -> usize {
        self.frames.len() / self.stride()
    }

    /// Time of key `k`.
    pub fn time(&self, k: usize) -> f32 {
        self.frames[k * self.stride()]
    }

    /// Value `c` of key `k`.
    pub fn value(&self, k: usize, c: usize) -> f32 {
        self.frames[k * self.stride() + 1 + c]
    }

    /// Time of the last key.
    pub fn last_time(&self) -> f32 {
        let n = self.frame_count();
        if n == 0 {
            0.0
        } else {
            self.time(n - 1)
        }
    }

    /// Curve table entry `i` ([`LINEAR`] past the end: an all-linear table may be empty).
    #[inline]
    pub fn curve(&self, i: usize) -> f32 {
        self.curves.get(i).copied().unwrap_or(LINEAR)
    }
}

/// A curve table being built: the owned form of a [`CurveTable`], which
/// [`CurveBuf::store`] appends to an animation's keys.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CurveBuf {
    /// Values per key (0 for deform timelines, whose curve maps `0..1` percent).
    pub channels: usize,
    /// `time, v0, v1, …` per key.
    pub frames: Vec<f32>,
    /// Curve table ([`CurveTable::curves`]).
    pub curves: Vec<f32>,
    /// Index in `curves` where the bezier points start (the key count).
    pub bezier_base: usize,
    /// How the bezier entries were built and must be sampled (see [`Curves::model`]).
    pub model: crate::CurveModel,
}

impl CurveBuf {
    /// A table for `frame_count` keys of `channels` values and `bezier_count` beziers.
    pub fn new(channels: usize, frame_count: usize, bezier_count: usize) -> CurveBuf {
        CurveBuf {
            channels,
            frames: Vec::with_capacity(frame_count * (1 + channels)),
            // Without beziers the table stays empty (all linear) until a segment is stepped.
            curves: if bezier_count == 0 {
                Vec::new()
            } else {
                linear_table(frame_count + bezier_count * BEZIER_SIZE)
            },
            bezier_base: frame_count,
            model: crate::CurveModel::Bezier4x,
        }
    }

    /// Makes this the empty table [`CurveBuf::new`] returns, reusing its storage.
    pub fn reset(&mut self, channels: usize, frame_count: usize, bezier_count: usize) {
        self.channels = channels;
        self.frames.clear();
        self.frames.reserve(frame_count * (1 + channels));
        self.curves.clear();
        if bezier_count != 0 {
            self.curves.resize(frame_count + bezier_count * BEZIER_SIZE, LINEAR);
        }
        self.bezier_base = frame_count;
        self.model = crate::CurveModel::Bezier4x;
    }

    /// The table, borrowed.
    pub fn table(&self) -> CurveTable<'_> {
        CurveTable {
            channels: self.channels,
            frames: &self.frames,
            curves: &self.curves,
            model: self.model,
        }
    }

    /// Floats per key.
    pub fn stride(&self) -> usize {
        1 + self.channels
    }

    /// Number of keys.
    pub fn frame_count(&self) -> usize {
        self.table().frame_count()
    }

    /// Time of key `k`.
    pub fn time(&self, k: usize) -> f32 {
        self.table().time(k)
    }

    /// Value `c` of key `k`.
    pub fn value(&self, k: usize, c: usize) -> f32 {
        self.table().value(k, c)
    }

    /// Time of the last key.
    pub fn last_time(&self) -> f32 {
        self.table().last_time()
    }

    /// Appends the table to `keys` (an animation's [`AnimationData::keys`] being built) and
    /// returns where it is.
    pub fn store(&self, keys: &mut Vec<f32>) -> Curves {
        let start = keys.len();
        keys.reserve(self.frames.len() + self.curves.len());
        keys.extend_from_slice(&self.frames);
        keys.extend_from_slice(&self.curves);
        Curves {
            channels: self.channels,
            start: offset(start),
            frames_len: offset(self.frames.len()),
            curves_len: offset(self.curves.len()),
            model: self.model,
        }
    }

    /// Marks segment `frame` (to the next key) stepped.
    pub fn set_stepped(&mut self, frame: usize) {
        if frame < self.bezier_base && self.curves.len() < self.bezier_base {
            // The first non-linear segment of a table without beziers.
            self.curves.clear();
            self.curves.resize(self.bezier_base, LINEAR);
        }
        if let Some(c) = self.curves.get_mut(frame) {
            *c = STEPPED;
        }
    }

    /// Precomputes bezier number `bezier` of segment `frame`, channel `channel`, from
    /// `(time1, value1)` to `(time2, value2)` with control points `(cx1, cy1)`, `(cx2, cy2)`:
    /// spine-cpp 4.2 `CurveTimeline::setBezier` (forward differences, 9 points).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub fn set_bezier(
        &mut self,
        bezier: usize,
        frame: usize,
        channel: usize,
        time1: f32,
        value1: f32,
        [cx1, cy1, cx2, cy2]: [f32; 4],
        time2: f32,
        value2: f32,
    ) {
        let i = self.bezier_base + bezier * BEZIER_SIZE;
        if channel == 0 {
            if let Some(c) = self.curves.get_mut(frame) {
                *c = BEZIER + i as f32;
            }
        }
        let Some(points) = self.curves.get_mut(i..i + BEZIER_SIZE) else { return };
        if let Ok(points) = <&mut [f32; BEZIER_SIZE]>::try_from(points) {
            bezier_points(points, time1, value1, [cx1, cy1, cx2, cy2], time2, value2);
        }
    }
}

/// The nine `(x, y)` points of a bezier segment (spine-cpp 4.2 `CurveTimeline::setBezier`'s
/// forward differences), written to `points`.
#[inline(always)]
pub(crate) fn bezier_points(
    points: &mut [f32; BEZIER_SIZE],
    time1: f32,
    value1: f32,
    [cx1, cy1, cx2, cy2]: [f32; 4],
    time2: f32,
    value2: f32,
) {
    let tmpx = (time1 - cx1 * 2.0 + cx2) * 0.03;
    let tmpy = (value1 - cy1 * 2.0 + cy2) * 0.03;
    let dddx = ((cx1 - cx2) * 3.0 - time1 + time2) * 0.006;
    let dddy = ((cy1 - cy2) * 3.0 - value1 + value2) * 0.006;
    let mut ddx = tmpx * 2.0 + dddx;
    let mut ddy = tmpy * 2.0 + dddy;
    let mut dx = (cx1 - time1) * 0.3 + tmpx + dddx * 0.166_666_67;
    let mut dy = (cy1 - value1) * 0.3 + tmpy + dddy * 0.166_666_67;
    let mut x = time1 + dx;
    let mut y = value1 + dy;
    for p in points.chunks_exact_mut(2) {
        p[0] = x;
        p[1] = y;
        dx += ddx;
        dy += ddy;
        ddx += dddx;
        ddy += dddy;
        x += dx;
        y += dy;
    }
}

/// `n` [`LINEAR`] entries, exactly allocated (filled rather than `vec![LINEAR; n]`, which
/// becomes a slower `calloc`).
fn linear_table(n: usize) -> Vec<f32> {
    let mut c = Vec::with_capacity(n);
    c.resize(n, LINEAR);
    c
}

/// A key of an event timeline.
#[derive(Debug, Clone, PartialEq)]
pub struct EventKey {
    /// Time.
    pub time: f32,
    /// The event.
    pub event: EventId,
    /// Int value.
    pub int_value: i32,
    /// Float value.
    pub float_value: f32,
    /// String value (the event's default when not overridden).
    pub string_value: String,
    /// Volume.
    pub volume: f32,
    /// Balance.
    pub balance: f32,
}

/// Sequence playback modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SequenceMode {
    /// Hold the frame.
    Hold,
    /// Play once.
    Once,
    /// Loop.
    Loop,
    /// Ping-pong.
    PingPong,
    /// Once, reversed.
    OnceReverse,
    /// Loop, reversed.
    LoopReverse,
    /// Ping-pong, reversed.
    PingPongReverse,
}

/// A key of a sequence timeline.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SequenceKey {
    /// Time.
    pub time: f32,
    /// Mode.
    pub mode: SequenceMode,
    /// Frame index.
    pub index: i32,
    /// Seconds per frame.
    pub delay: f32,
}

/// Bone properties animated by [`Timeline::Bone`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoneProperty {
    /// 1 channel.
    Rotate,
    /// 2 channels (x, y).
    Translate,
    /// 1 channel.
    TranslateX,
    /// 1 channel.
    TranslateY,
    /// 2 channels.
    Scale,
    /// 1 channel.
    ScaleX,
    /// 1 channel.
    ScaleY,
    /// 2 channels.
    Shear,
    /// 1 channel.
    ShearX,
    /// 1 channel.
    ShearY,
}

/// Slot color timelines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorProperty {
    /// r, g, b, a.
    Rgba,
    /// r, g, b.
    Rgb,
    /// r, g, b, a, dark r, g, b.
    Rgba2,
    /// r, g, b, dark r, g, b.
    Rgb2,
    /// a.
    Alpha,
}

/// Path constraint properties.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathProperty {
    /// 1 channel.
    Position,
    /// 1 channel.
    Spacing,
    /// 3 channels: mix rotate, x, y.
    Mix,
}

/// Physics constraint properties.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhysicsProperty {
    /// Inertia.
    Inertia,
    /// Strength.
    Strength,
    /// Damping.
    Damping,
    /// Inverse mass.
    Mass,
    /// Wind.
    Wind,
    /// Gravity.
    Gravity,
    /// Mix.
    Mix,
}

/// Slider constraint properties.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SliderProperty {
    /// Time.
    Time,
    /// Mix.
    Mix,
}

/// Per-key booleans of an IK timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IkFlags {
    /// Bend direction, ±1.
    pub bend_direction: i32,
    /// Compress.
    pub compress: bool,
    /// Stretch.
    pub stretch: bool,
}

/// A timeline, bound to typed ids.
#[derive(Debug, Clone, PartialEq)]
pub enum Timeline {
    /// A bone property.
    Bone {
        /// Bone.
        bone: BoneId,
        /// Property.
        property: BoneProperty,
        /// Keys.
        curves: Curves,
    },
    /// Inherit switches (4.2+).
    Inherit {
        /// Bone.
        bone: BoneId,
        /// `(time, inherit)` keys.
        keys: Vec<(f32, Inherit)>,
    },
    /// Attachment switches.
    Attachment {
        /// Slot.
        slot: SlotId,
        /// Key times.
        times: Vec<f32>,
        /// Placeholder names (`None` = hide); a name used by several keys or timelines is
        /// one shared string.
        names: Vec<Option<std::sync::Arc<str>>>,
    },
    /// Slot color.
    Color {
        /// Slot.
        slot: SlotId,
        /// Channels.
        property: ColorProperty,
        /// Keys, values `0..=1`.
        curves: Curves,
    },
    /// Deform of one attachment in one slot.
    Deform {
        /// Slot.
        slot: SlotId,
        /// The attachment (a mesh's `timeline_attachment` selects it).
        attachment: AttachmentId,
        /// Key times and the `0..1` percent curve (`channels == 0`).
        curves: Curves,
        /// Full deform array of each key ([`Vertices::deform_length`](crate::Vertices::deform_length)
        /// floats; setup vertices already added for unweighted meshes).
        vertices: Vec<Vec<f32>>,
    },
    /// Sequence frame changes.
    Sequence {
        /// Slot.
        slot: SlotId,
        /// The attachment.
        attachment: AttachmentId,
        /// Keys.
        keys: Vec<SequenceKey>,
    },
    /// IK mix and softness.
    Ik {
        /// Constraint (checked to be IK).
        constraint: ConstraintId,
        /// 2 channels: mix, softness.
        curves: Curves,
        /// Per-key booleans.
        flags: Vec<IkFlags>,
    },
    /// Transform constraint mixes (6 channels: rotate, x, y, scale x, scale y, shear y).
    Transform {
        /// Constraint (checked to be a transform constraint).
        constraint: ConstraintId,
        /// Keys.
        curves: Curves,
    },
    /// Path constraint values.
    Path {
        /// Constraint (checked to be a path constraint).
        constraint: ConstraintId,
        /// Property.
        property: PathProperty,
        /// Keys.
        curves: Curves,
    },
    /// Physics constraint values.
    Physics {
        /// Constraint, `None` = every physics constraint (with the property global).
        constraint: Option<ConstraintId>,
        /// Property.
        property: PhysicsProperty,
        /// Keys.
        curves: Curves,
    },
    /// Physics resets.
    PhysicsReset {
        /// Constraint, `None` = every physics constraint.
        constraint: Option<ConstraintId>,
        /// Key times.
        times: Vec<f32>,
    },
    /// Slider constraint values (4.3).
    Slider {
        /// Constraint (checked to be a slider).
        constraint: ConstraintId,
        /// Property.
        property: SliderProperty,
        /// Keys.
        curves: Curves,
    },
    /// Draw order.
    DrawOrder {
        /// Key times.
        times: Vec<f32>,
        /// Per key: the slots in draw order, or `None` = setup order.
        orders: Vec<Option<Vec<SlotId>>>,
    },
    /// Draw order of a subset of slots (4.3 folders).
    DrawOrderFolder {
        /// The folder's slots.
        slots: Vec<SlotId>,
        /// Key times.
        times: Vec<f32>,
        /// Per key: the folder's slots in draw order, or `None` = setup order.
        orders: Vec<Option<Vec<SlotId>>>,
    },
    /// Events.
    Event {
        /// Keys.
        keys: Vec<EventKey>,
    },
}

/// An animation.
#[derive(Debug, Clone, PartialEq)]
pub struct AnimationData {
    /// Name.
    pub name: crate::Name,
    /// Duration: the latest key time of any timeline.
    pub duration: f32,
    /// Timelines.
    pub timelines: Vec<Timeline>,
    /// The keys and curve tables of every curve timeline, one after another (see
    /// [`Curves`]).
    pub keys: Vec<f32>,
}

/// The most timelines an animation's list is reserved for from the wire's count hint. The hint
/// is capped by the bytes left, but every animation's list lives on in the model: a file of
/// many empty animations each claiming a huge count would otherwise reserve memory growing with
/// the square of its size. Larger honest animations grow the list as they are read.
const TIMELINE_RESERVE: usize = 1024;

/// An empty timeline list for an animation whose wire count hint is `hint` (see
/// [`TIMELINE_RESERVE`]).
pub(crate) fn timeline_list(hint: usize) -> Vec<Timeline> {
    Vec::with_capacity(hint.min(TIMELINE_RESERVE))
}

impl AnimationData {
    /// The keys and curve table of `curves` (a timeline of this animation).
    #[inline]
    pub fn table(&self, curves: &Curves) -> CurveTable<'_> {
        curves.table(&self.keys)
    }
}

/// An index or length in an animation's keys as stored in [`Curves`]: past `u32::MAX`
/// (beyond any real animation) it saturates, so that the table reads as empty rather than
/// as some other timeline's keys.
pub(crate) fn offset(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
