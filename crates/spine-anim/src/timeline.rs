//! Applying timelines to a skeleton (spine-cpp 4.2 `*Timeline::apply`, `CurveTimeline`).
//!
//! Every quirk of the reference is kept on purpose (they change the numbers the goldens
//! hold): `ScaleYTimeline` mixes from the bone's current *scale x*, `RGB2Timeline` reads the
//! dark channels' beziers at offsets 4–6, the last key of a curve timeline is always
//! stepped, event windows are `(last, time]`.

use spine_model::{
    AnimationId, AttachmentKind, BoneProperty, ColorProperty, ConstraintKind, CurveModel,
    CurveTable, Curves, PathProperty, PhysicsData, PhysicsProperty, RotationMix, SequenceMode,
    SkeletonData, SliderProperty, Timeline, Vertices, BEZIER, BEZIER_SIZE, LINEAR, STEPPED,
};

use wide::{f32x8, CmpGe};

use crate::constraints::{ConstraintPose, PhysicsPose};
use crate::math;
use crate::skeleton::{timeline_attachment, Skeleton};

/// How a timeline's value combines with the current pose (spine-cpp `MixBlend`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MixBlend {
    /// From the setup pose.
    #[default]
    Setup,
    /// First on a property: like `Replace` but before the first key goes to setup.
    First,
    /// Replace the current value.
    Replace,
    /// Add to the current value.
    Add,
}

/// Mixing in or out (spine-cpp `MixDirection`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MixDirection {
    /// Mixing in.
    #[default]
    In,
    /// Mixing out.
    Out,
}

/// A fired event: which key of which event timeline. Resolve with [`EventRef::key`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventRef {
    /// The animation.
    pub animation: AnimationId,
    /// Index of the event timeline in the animation.
    pub timeline: u32,
    /// Index of the key.
    pub key: u32,
}

impl EventRef {
    /// The event key (time, values) this refers to.
    pub fn key<'a>(&self, data: &'a SkeletonData) -> Option<&'a spine_model::EventKey> {
        match data.animations.get(self.animation.index())?.timelines.get(self.timeline as usize)? {
            Timeline::Event { keys } => keys.get(self.key as usize),
            _ => None,
        }
    }
}

// ---------------------------------------------------------------------------------------
// Curve evaluation.

/// spine-cpp `Animation::search(frames, time, step)` over keys: the key at or before `time`
/// (the same linear scan, over whole keys of the flat `time, values…` table).
#[inline]
pub fn search(c: CurveTable<'_>, time: f32) -> usize {
    let stride = c.stride();
    let frames = c.frames;
    // Key `k` starts at `at = k * stride`; only whole keys count (`at + stride <= len`).
    let (mut k, mut at) = (1, stride);
    while let Some(key) = frames.get(at..at + stride) {
        if key[0] > time {
            return k - 1;
        }
        k += 1;
        at += stride;
    }
    k - 1
}

fn search_times(times: &[f32], time: f32) -> usize {
    for (i, &t) in times.iter().enumerate().skip(1) {
        if t > time {
            return i - 1;
        }
    }
    times.len().saturating_sub(1)
}

/// The start in `curves` of the bezier of curve type `ty` (`BEZIER + i`, `i` a whole number
/// below 2³¹: every type a loader writes), without a saturating float-to-integer
/// conversion: `i` is exact in `f64`, and added to 2⁵² its bits end with `i`. Any other
/// `ty` (malformed) gives some start below 2³¹, which the readers' bounds checks handle.
#[inline(always)]
fn bezier_start(ty: f32) -> usize {
    const TWO_POW_52: f64 = 4_503_599_627_370_496.0;
    ((f64::from(ty - BEZIER) + TWO_POW_52).to_bits() & 0x7FFF_FFFF) as usize
}

/// Curve type of key `k` (the last key is stepped, as spine-cpp's constructor sets it).
fn curve_type(c: CurveTable<'_>, k: usize) -> f32 {
    if k + 1 >= c.frame_count() {
        STEPPED
    } else {
        c.curves.get(k).copied().unwrap_or(LINEAR)
    }
}

fn cv(c: CurveTable<'_>, i: usize) -> f32 {
    c.curves.get(i).copied().unwrap_or(0.0)
}

/// spine-cpp `CurveTimeline::getBezierValue` for key `k`, channel `ch`, bezier at `i`.
#[inline(always)]
fn bezier_value(c: CurveTable<'_>, time: f32, k: usize, ch: usize, i: usize) -> f32 {
    let Some(p) =
        c.curves.get(i..i + BEZIER_SIZE).and_then(|p| <&[f32; BEZIER_SIZE]>::try_from(p).ok())
    else {
        return bezier_value_clamped(c.frames, c.curves, c.channels, time, k, ch, i);
    };
    if p[0] > time {
        let x = c.time(k);
        let y = c.value(k, ch);
        return y + (time - x) / (p[0] - x) * (p[1] - y);
    }
    // The first sample at or after `time` (spine-cpp's scan), found without a branch per
    // sample: the eight remaining samples compared at once, the lowest set bit of the
    // x lanes' mask is the sample the scan stops at (the same one for any data, sorted or
    // not; a compare with NaN is false in both). Where the scan stops changes from frame
    // to frame, so its exit branch was mispredicted.
    let t = f32x8::splat(time);
    let lo = f32x8::from(std::array::from_fn::<f32, 8, _>(|n| p[2 + n]));
    let hi = f32x8::from(std::array::from_fn::<f32, 8, _>(|n| p[10 + n]));
    let ge = (lo.cmp_ge(t).move_mask() | (hi.cmp_ge(t).move_mask() << 8)) & 0x5555;
    if ge != 0 {
        let j = 2 + ge.trailing_zeros() as usize;
        if let (Some(&x), Some(&y), Some(&xj), Some(&yj)) =
            (p.get(j - 2), p.get(j - 1), p.get(j), p.get(j + 1))
        {
            return y + (time - x) / (xj - x) * (yj - y);
        }
    }
    let x = p[BEZIER_SIZE - 2];
    let y = p[BEZIER_SIZE - 1];
    let (nt, nv) =
        if k + 1 < c.frame_count() { (c.time(k + 1), c.value(k + 1, ch)) } else { (x, y) };
    y + (time - x) / (nt - x) * (nv - y)
}

/// [`bezier_value`] for a bezier that runs past the end of the table (malformed data):
/// missing points read as 0. Out-of-line callees take a table's parts, not the table: a
/// [`CurveTable`] argument is passed through memory, which makes its callers store it.
#[cold]
fn bezier_value_clamped(
    frames: &[f32],
    curves: &[f32],
    channels: usize,
    time: f32,
    k: usize,
    ch: usize,
    i: usize,
) -> f32 {
    let c = CurveTable { channels, frames, curves, model: CurveModel::Bezier4x };
    if cv(c, i) > time {
        let x = c.time(k);
        let y = c.value(k, ch);
        return y + (time - x) / (cv(c, i) - x) * (cv(c, i + 1) - y);
    }
    let n = i + BEZIER_SIZE;
    let mut j = i + 2;
    while j < n {
        if cv(c, j) >= time {
            let x = cv(c, j - 2);
            let y = cv(c, j - 1);
            return y + (time - x) / (cv(c, j) - x) * (cv(c, j + 1) - y);
        }
        j += 2;
    }
    let x = cv(c, n - 2);
    let y = cv(c, n - 1);
    let (nt, nv) =
        if k + 1 < c.frame_count() { (c.time(k + 1), c.value(k + 1, ch)) } else { (x, y) };
    y + (time - x) / (nt - x) * (nv - y)
}

/// Channel `ch` at `time` (key `k` found by [`search`]); `bezier_slot` is the bezier
/// offset (in beziers) spine-cpp reads for this channel (normally `ch`).
#[inline]
fn channel_value(c: CurveTable<'_>, time: f32, k: usize, ch: usize, bezier_slot: usize) -> f32 {
    if c.model == CurveModel::Sampled3x {
        if k + 1 >= c.frame_count() {
            return c.value(k, ch);
        }
        let p = percent_3x(c, time, k);
        let prev = c.value(k, ch);
        return prev + (c.value(k + 1, ch) - prev) * p;
    }
    let stride = c.stride();
    let at = k * stride;
    // Key `k` and the next one; the last key is stepped.
    let (Some(key), Some(next)) =
        (c.frames.get(at..at + stride), c.frames.get(at + stride..at + 2 * stride))
    else {
        return c.value(k, ch);
    };
    let ty = c.curves.get(k).copied().unwrap_or(LINEAR);
    if ty == LINEAR {
        let (Some(&v), Some(&nv)) = (key.get(1 + ch), next.get(1 + ch)) else {
            return linear_value_unchecked(c.frames, c.channels, time, k, ch);
        };
        let before = key[0];
        let t = (time - before) / (next[0] - before);
        v + (nv - v) * t
    } else if ty == STEPPED {
        c.value(k, ch)
    } else {
        bezier_value(c, time, k, ch, bezier_start(ty) + bezier_slot * BEZIER_SIZE)
    }
}

/// The linear segment for a channel beyond the table's channel count (reads like spine-cpp's
/// flat array would).
#[cold]
fn linear_value_unchecked(frames: &[f32], channels: usize, time: f32, k: usize, ch: usize) -> f32 {
    let c = CurveTable { channels, frames, curves: &[], model: CurveModel::Bezier4x };
    let before = c.time(k);
    let v = c.value(k, ch);
    let t = (time - before) / (c.time(k + 1) - before);
    v + (c.value(k + 1, ch) - v) * t
}

/// spine-cpp `CurveTimeline1::getCurveValue`.
#[inline(always)]
pub(crate) fn curve_value1(c: CurveTable<'_>, time: f32) -> f32 {
    let [v] = curve_values_n::<1>(c, time);
    v
}

/// The `N` channels of an `N`-channel curve timeline at `time` (channel `i` read with
/// bezier slot `i`), as [`channel_value`] reads them: the key pair and the segment's curve
/// type are looked up once, and a linear segment's interpolation factor is computed once
/// (the same value each channel would compute). Tables of another shape, 3.x sampled
/// tables and the last key go through [`channel_value`].
#[inline(always)]
fn curve_values_n<const N: usize>(c: CurveTable<'_>, time: f32) -> [f32; N] {
    curve_values_nk::<N>(c, time).0
}

/// How [`curve_values_from`] finds the key at a time in a table's key times (`frames`, keys
/// of `stride` floats): [`Scan`] from the first key, or a cursor (`&mut u32`, the key found
/// last) for a table whose key times never decrease (see [`times_sorted`]).
pub(crate) trait KeySearch {
    /// The last key whose time is at or before `time`, as [`search`] finds it (the caller
    /// has checked `time` is not before the first key).
    fn key(self, frames: &[f32], stride: usize, time: f32) -> usize;
}

/// [`KeySearch`] from the first key.
pub(crate) struct Scan;

impl KeySearch for Scan {
    #[inline(always)]
    fn key(self, frames: &[f32], stride: usize, time: f32) -> usize {
        scan_from(frames, stride, time, 0)
    }
}

/// A cursor: the scan starts at the key found last when that key's time is not after
/// `time`. For key times that never decrease every key before it is then not after `time`
/// either, so the scan from the first key would pass them all: the same key, found in one
/// step while the time stays within a key's span (the usual frame to frame) instead of a
/// scan whose length grows with the key.
impl KeySearch for &mut u32 {
    #[inline(always)]
    fn key(self, frames: &[f32], stride: usize, time: f32) -> usize {
        let h = *self as usize;
        let from = match frames.get(h.saturating_mul(stride)) {
            Some(&t) if t <= time => h,
            _ => 0,
        };
        let k = scan_from(frames, stride, time, from);
        *self = k as u32;
        k
    }
}

/// [`search`] from key `from` with the stride known at compile time, over key times only: a
/// trailing partial key (malformed table) may be counted here, but then neither a key pair
/// nor a last key is found by [`curve_values_from`] and its general path searches again.
#[inline(always)]
fn scan_from(frames: &[f32], stride: usize, time: f32, from: usize) -> usize {
    let mut k = from;
    let mut at = (from + 1) * stride;
    while let Some(&t) = frames.get(at) {
        if t > time {
            break;
        }
        k += 1;
        at += stride;
    }
    k
}

/// Whether the key times of `frames` (keys of `stride` floats, a trailing partial key
/// included, as [`scan_from`] reads them) never decrease and are not NaN: the tables a
/// cursor ([`KeySearch`] for `&mut u32`) may search.
pub(crate) fn times_sorted(frames: &[f32], stride: usize) -> bool {
    let mut times = frames.iter().step_by(stride.max(1));
    let Some(&first) = times.next() else { return true };
    let mut last = first;
    if last.is_nan() {
        return false;
    }
    for &t in times {
        // NaN compares as neither.
        if t < last || t.is_nan() {
            return false;
        }
        last = t;
    }
    true
}

/// [`curve_values_n`] and the key found by [`search`].
#[inline(always)]
fn curve_values_nk<const N: usize>(c: CurveTable<'_>, time: f32) -> ([f32; N], usize) {
    curve_values_from::<N, _>(c, time, Scan)
}

/// [`curve_values_nk`] with the key found by `search`.
#[inline(always)]
pub(crate) fn curve_values_from<const N: usize, S: KeySearch>(
    c: CurveTable<'_>,
    time: f32,
    search: S,
) -> ([f32; N], usize) {
    let mut out = [0.0; N];
    if c.model != CurveModel::Sampled3x && c.channels == N {
        let stride = N + 1;
        let k = search.key(c.frames, stride, time);
        if let Some(pair) = c.frames.get(k * stride..(k + 2) * stride) {
            let (key, next) = pair.split_at(stride);
            let ty = c.curves.get(k).copied().unwrap_or(LINEAR);
            if ty == LINEAR {
                let before = key[0];
                let t = (time - before) / (next[0] - before);
                for (ch, o) in out.iter_mut().enumerate() {
                    let v = key[1 + ch];
                    *o = v + (next[1 + ch] - v) * t;
                }
            } else if ty == STEPPED {
                out.copy_from_slice(&key[1..]);
            } else {
                let base = bezier_start(ty);
                for (ch, o) in out.iter_mut().enumerate() {
                    *o = bezier_value(c, time, k, ch, base + ch * BEZIER_SIZE);
                }
            }
            return (out, k);
        }
        // The last key (no next one): its values, as `channel_value` reads them.
        if let Some(key) = c.frames.get(k * stride + 1..(k + 1) * stride) {
            out.copy_from_slice(key);
            return (out, k);
        }
    }
    values_general(c.frames, c.curves, c.channels, c.model, time)
}

/// [`curve_values_nk`] for the tables its fast path does not take, out of line (with the
/// table's parts as arguments, see [`bezier_value_clamped`]).
#[inline(never)]
fn values_general<const N: usize>(
    frames: &[f32],
    curves: &[f32],
    channels: usize,
    model: CurveModel,
    time: f32,
) -> ([f32; N], usize) {
    let c = CurveTable { channels, frames, curves, model };
    let mut out = [0.0; N];
    let k = search(c, time);
    for (ch, o) in out.iter_mut().enumerate() {
        *o = channel_value(c, time, k, ch, ch);
    }
    (out, k)
}

/// All channels of a curve timeline at `time` into `out` (channel `i` read with bezier
/// slot `slots[i]`).
fn curve_values(c: CurveTable<'_>, time: f32, out: &mut [f32], slots: &[usize]) {
    let k = search(c, time);
    for (ch, (o, &s)) in out.iter_mut().zip(slots).enumerate() {
        *o = channel_value(c, time, k, ch, s);
    }
}

const SLOTS: [usize; 7] = [0, 1, 2, 3, 4, 5, 6];

#[inline(always)]
pub(crate) fn relative(
    c: CurveTable<'_>,
    time: f32,
    alpha: f32,
    blend: MixBlend,
    current: f32,
    setup: f32,
) -> f32 {
    relative_from(c, Scan, time, alpha, blend, current, setup)
}

/// [`relative`] with the key found by `search`.
#[inline(always)]
pub(crate) fn relative_from(
    c: CurveTable<'_>,
    search: impl KeySearch,
    time: f32,
    alpha: f32,
    blend: MixBlend,
    current: f32,
    setup: f32,
) -> f32 {
    let Some(&first) = c.frames.first() else { return current };
    if time < first {
        return match blend {
            MixBlend::Setup => setup,
            MixBlend::First => current + (setup - current) * alpha,
            _ => current,
        };
    }
    let [mut value] = curve_values_from::<1, _>(c, time, search).0;
    match blend {
        MixBlend::Setup => return setup + value * alpha,
        MixBlend::First | MixBlend::Replace => value += setup - current,
        MixBlend::Add => {}
    }
    current + value * alpha
}

/// spine-cpp `CurveTimeline1::getAbsoluteValue`. 4.2 treats [`MixBlend::Add`] like
/// `Replace`; with `add43` (4.3 data under `Add`, see
/// [`Behaviour::timelines_spine43`](spine_model::Behaviour::timelines_spine43)) the key
/// value is added to the current one (4.3 `current + value * alpha`).
#[allow(clippy::too_many_arguments)]
fn absolute_with(
    first: f32,
    time: f32,
    alpha: f32,
    blend: MixBlend,
    add43: bool,
    current: f32,
    setup: f32,
    value: impl FnOnce() -> f32,
) -> f32 {
    if time < first {
        return match blend {
            MixBlend::Setup => setup,
            MixBlend::First => current + (setup - current) * alpha,
            _ => current,
        };
    }
    let value = value();
    if blend == MixBlend::Setup {
        return setup + (value - setup) * alpha;
    }
    if add43 {
        return current + value * alpha;
    }
    current + (value - current) * alpha
}

#[allow(clippy::too_many_arguments)]
fn absolute(
    c: CurveTable<'_>,
    time: f32,
    alpha: f32,
    blend: MixBlend,
    add43: bool,
    current: f32,
    setup: f32,
) -> f32 {
    absolute_with(c.time(0), time, alpha, blend, add43, current, setup, || curve_value1(c, time))
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn scale_value(
    curves: &Curves,
    keys: &[f32],
    time: f32,
    alpha: f32,
    blend: MixBlend,
    direction: MixDirection,
    current: f32,
    setup: f32,
) -> f32 {
    let c = curves.table(keys);
    let Some(&first) = c.frames.first() else { return current };
    if time < first {
        return match blend {
            MixBlend::Setup => setup,
            MixBlend::First => current + (setup - current) * alpha,
            _ => current,
        };
    }
    let value = curve_value1(c, time) * setup;
    if alpha == 1.0 {
        if blend == MixBlend::Add {
            return current + value - setup;
        }
        return value;
    }
    if direction == MixDirection::Out {
        match blend {
            MixBlend::Setup => {
                return setup + (math::abs(value) * math::sign(setup) - setup) * alpha;
            }
            MixBlend::First | MixBlend::Replace => {
                return current + (math::abs(value) * math::sign(current) - current) * alpha;
            }
            MixBlend::Add => {}
        }
    } else {
        match blend {
            MixBlend::Setup => {
                let s = math::abs(setup) * math::sign(value);
                return s + (value - s) * alpha;
            }
            MixBlend::First | MixBlend::Replace => {
                let s = math::abs(current) * math::sign(value);
                return s + (value - s) * alpha;
            }
            MixBlend::Add => {}
        }
    }
    current + (value - setup) * alpha
}

// ---------------------------------------------------------------------------------------
// Property ids (spine-cpp `Property` << 32 | index), used by AnimationState.

const P_ROTATE: i64 = 1 << 0;
const P_X: i64 = 1 << 1;
const P_Y: i64 = 1 << 2;
const P_SCALE_X: i64 = 1 << 3;
const P_SCALE_Y: i64 = 1 << 4;
const P_SHEAR_X: i64 = 1 << 5;
const P_SHEAR_Y: i64 = 1 << 6;
const P_INHERIT: i64 = 1 << 7;
const P_RGB: i64 = 1 << 8;
const P_ALPHA: i64 = 1 << 9;
const P_RGB2: i64 = 1 << 10;
const P_ATTACHMENT: i64 = 1 << 11;
const P_DEFORM: i64 = 1 << 12;
const P_EVENT: i64 = 1 << 13;
const P_DRAW_ORDER: i64 = 1 << 14;
const P_IK: i64 = 1 << 15;
const P_TRANSFORM: i64 = 1 << 16;
const P_PATH_POSITION: i64 = 1 << 17;
const P_PATH_SPACING: i64 = 1 << 18;
const P_PATH_MIX: i64 = 1 << 19;
const P_PHYSICS_INERTIA: i64 = 1 << 20;
const P_PHYSICS_RESET: i64 = 1 << 27;
const P_SEQUENCE: i64 = 1 << 28;
const P_SLIDER_TIME: i64 = 1 << 29;
const P_SLIDER_MIX: i64 = 1 << 30;

/// spine-cpp 4.3 `Property_DrawOrderFolder` (one id per folder slot).
const P_DRAW_ORDER_FOLDER: i64 = 1 << 31;

/// The property id of the (plain) draw-order timeline.
pub const DRAW_ORDER_PROPERTY_ID: i64 = P_DRAW_ORDER << 32;

/// Property ids of a timeline: up to 3 held inline, more (a 4.3 draw-order folder has one
/// per folder slot) as a range of a shared spill table filled by [`property_ids`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PropertyIds {
    ids: [i64; 3],
    len: u8,
    /// `(start, len)` in the spill table when the ids are not inline.
    spill: Option<(u32, u32)>,
}

impl PropertyIds {
    fn of(ids: &[i64]) -> PropertyIds {
        let mut p = PropertyIds::default();
        for (d, s) in p.ids.iter_mut().zip(ids) {
            *d = *s;
        }
        p.len = ids.len().min(3) as u8;
        p
    }

    /// Stores `ids` inline when they fit, else appends them to `spill`.
    fn many(ids: impl ExactSizeIterator<Item = i64>, spill: &mut Vec<i64>) -> PropertyIds {
        let n = ids.len();
        if n <= 3 {
            let mut p = PropertyIds { len: n as u8, ..PropertyIds::default() };
            for (d, s) in p.ids.iter_mut().zip(ids) {
                *d = s;
            }
            return p;
        }
        let start = spill.len();
        spill.extend(ids);
        match (u32::try_from(start), u32::try_from(n)) {
            (Ok(s), Ok(l)) => PropertyIds { spill: Some((s, l)), ..PropertyIds::default() },
            _ => PropertyIds::default(),
        }
    }

    /// The ids; `spill` is the table passed to [`property_ids`] (unused for inline ids).
    pub fn get<'a>(&'a self, spill: &'a [i64]) -> &'a [i64] {
        match self.spill {
            Some((s, n)) => spill.get(s as usize..s as usize + n as usize).unwrap_or(&[]),
            None => &self.ids[..self.len as usize],
        }
    }
}

fn id(p: i64, index: i64) -> i64 {
    (p << 32) | index
}

/// Index of constraint `c` among the constraints of its type (spine-cpp's per-type lists).
fn type_index(data: &SkeletonData, c: spine_model::ConstraintId) -> i64 {
    let Some(ty) = data.constraints.get(c.index()).map(|x| x.kind.constraint_type()) else {
        return 0;
    };
    data.constraints[..c.index()].iter().filter(|x| x.kind.constraint_type() == ty).count() as i64
}

/// spine-cpp 4.2 property ids of a timeline, quirks included (a shear-y timeline claims the
/// shear-x id; every global physics timeline gets id `-1`). With
/// `Behaviour::timelines_spine43` (spine-ts 4.3 ids): a draw-order folder timeline gets one
/// id per folder slot (`Property_DrawOrderFolder << 32 | slot`), not the draw-order id;
/// shear y has its own id; a global physics timeline gets its property's id with index
/// `-1` (32 bits); every physics reset timeline gets the one reset id; ids that
/// do not fit inline are appended to `spill` (read them back with [`PropertyIds::get`]).
pub fn property_ids(data: &SkeletonData, tl: &Timeline, spill: &mut Vec<i64>) -> PropertyIds {
    match tl {
        Timeline::Bone { bone, property, .. } => {
            let b = bone.0 as i64;
            match property {
                BoneProperty::Rotate => PropertyIds::of(&[id(P_ROTATE, b)]),
                BoneProperty::Translate => PropertyIds::of(&[id(P_X, b), id(P_Y, b)]),
                BoneProperty::TranslateX => PropertyIds::of(&[id(P_X, b)]),
                BoneProperty::TranslateY => PropertyIds::of(&[id(P_Y, b)]),
                BoneProperty::Scale => PropertyIds::of(&[id(P_SCALE_X, b), id(P_SCALE_Y, b)]),
                BoneProperty::ScaleX => PropertyIds::of(&[id(P_SCALE_X, b)]),
                BoneProperty::ScaleY => PropertyIds::of(&[id(P_SCALE_Y, b)]),
                BoneProperty::Shear => PropertyIds::of(&[id(P_SHEAR_X, b), id(P_SHEAR_Y, b)]),
                // 4.3 gives shear y its own id (spine-cpp 4.2 claims the shear-x one).
                BoneProperty::ShearY if data.behaviour.timelines_spine43 => {
                    PropertyIds::of(&[id(P_SHEAR_Y, b)])
                }
                BoneProperty::ShearX | BoneProperty::ShearY => PropertyIds::of(&[id(P_SHEAR_X, b)]),
            }
        }
        Timeline::Inherit { bone, .. } => PropertyIds::of(&[id(P_INHERIT, bone.0 as i64)]),
        Timeline::Attachment { slot, .. } => PropertyIds::of(&[id(P_ATTACHMENT, slot.0 as i64)]),
        Timeline::Color { slot, property, .. } => {
            let s = slot.0 as i64;
            match property {
                ColorProperty::Rgba => PropertyIds::of(&[id(P_RGB, s), id(P_ALPHA, s)]),
                ColorProperty::Rgb => PropertyIds::of(&[id(P_RGB, s)]),
                ColorProperty::Rgba2 => {
                    PropertyIds::of(&[id(P_RGB, s), id(P_ALPHA, s), id(P_RGB2, s)])
                }
                ColorProperty::Rgb2 => PropertyIds::of(&[id(P_RGB, s), id(P_RGB2, s)]),
                ColorProperty::Alpha => PropertyIds::of(&[id(P_ALPHA, s)]),
            }
        }
        Timeline::Deform { slot, attachment, .. } => PropertyIds::of(&[id(
            P_DEFORM,
            ((slot.0 as i64) << 16 | attachment.0 as i64) & 0xffff_ffff,
        )]),
        Timeline::Sequence { slot, attachment, .. } => PropertyIds::of(&[id(
            P_SEQUENCE,
            ((slot.0 as i64) << 16 | attachment.0 as i64) & 0xffff_ffff,
        )]),
        Timeline::Ik { constraint, .. } => {
            PropertyIds::of(&[id(P_IK, type_index(data, *constraint))])
        }
        Timeline::Transform { constraint, .. } => {
            PropertyIds::of(&[id(P_TRANSFORM, type_index(data, *constraint))])
        }
        Timeline::Path { constraint, property, .. } => {
            let p = match property {
                PathProperty::Position => P_PATH_POSITION,
                PathProperty::Spacing => P_PATH_SPACING,
                PathProperty::Mix => P_PATH_MIX,
            };
            PropertyIds::of(&[id(p, type_index(data, *constraint))])
        }
        Timeline::Physics { constraint, property, .. } => {
            let p = P_PHYSICS_INERTIA << (*property as i64);
            match constraint {
                Some(c) => PropertyIds::of(&[id(p, type_index(data, *c))]),
                // 4.3: `property|-1`, one id per property.
                None if data.behaviour.timelines_spine43 => PropertyIds::of(&[id(p, 0xffff_ffff)]),
                None => PropertyIds::of(&[-1]),
            }
        }
        // 4.3: every reset timeline has the one id `physicsConstraintReset`.
        Timeline::PhysicsReset { .. } if data.behaviour.timelines_spine43 => {
            PropertyIds::of(&[id(P_PHYSICS_RESET, 0xffff_ffff)])
        }
        Timeline::PhysicsReset { constraint, .. } => match constraint {
            Some(c) => PropertyIds::of(&[id(P_PHYSICS_RESET, type_index(data, *c))]),
            None => PropertyIds::of(&[-1]),
        },
        Timeline::Slider { constraint, property, .. } => {
            let p = match property {
                SliderProperty::Time => P_SLIDER_TIME,
                SliderProperty::Mix => P_SLIDER_MIX,
            };
            PropertyIds::of(&[id(p, constraint.0 as i64)])
        }
        Timeline::DrawOrderFolder { slots, .. } if data.behaviour.timelines_spine43 => {
            PropertyIds::many(slots.iter().map(|s| id(P_DRAW_ORDER_FOLDER, s.0 as i64)), spill)
        }
        Timeline::DrawOrder { .. } | Timeline::DrawOrderFolder { .. } => {
            PropertyIds::of(&[id(P_DRAW_ORDER, 0)])
        }
        Timeline::Event { .. } => PropertyIds::of(&[id(P_EVENT, 0)]),
    }
}

// ---------------------------------------------------------------------------------------
// Apply.

/// spine-cpp `Animation::apply`: every timeline of `animation` at `time` (wrapped when
/// looping); fired events are appended to `events`.
#[allow(clippy::too_many_arguments)]
pub fn apply_animation(
    sk: &mut Skeleton,
    animation: AnimationId,
    last_time: f32,
    time: f32,
    looping: bool,
    events: Option<&mut Vec<EventRef>>,
    alpha: f32,
    blend: MixBlend,
    direction: MixDirection,
) {
    // 4.3: animations set the poses of the slots a slider constrains.
    sk.swap_slot_poses();
    apply_animation_to(sk, animation, last_time, time, looping, events, alpha, blend, direction);
    sk.swap_slot_poses();
}

/// [`apply_animation`] onto what `sk.slots` and `sk.draw_order` hold, which for the slots a
/// 4.3 slider constrains is the applied pose (a slider's animation, 4.3 `appliedPose`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn apply_animation_to(
    sk: &mut Skeleton,
    animation: AnimationId,
    mut last_time: f32,
    mut time: f32,
    looping: bool,
    mut events: Option<&mut Vec<EventRef>>,
    alpha: f32,
    blend: MixBlend,
    direction: MixDirection,
) {
    let data = sk.data.clone();
    let Some(anim) = data.animations.get(animation.index()) else { return };
    if looping && anim.duration != 0.0 {
        time = math::fmod(time, anim.duration);
        if last_time > 0.0 {
            last_time = math::fmod(last_time, anim.duration);
        }
    }
    for i in 0..anim.timelines.len() {
        apply_timeline_in(
            sk,
            &data,
            animation,
            i,
            last_time,
            time,
            events.as_deref_mut(),
            alpha,
            blend,
            direction,
        );
    }
}

/// Applies timeline `index` of `animation` (spine-cpp `Timeline::apply`).
#[allow(clippy::too_many_arguments)]
pub fn apply_timeline(
    sk: &mut Skeleton,
    animation: AnimationId,
    index: usize,
    last_time: f32,
    time: f32,
    events: Option<&mut Vec<EventRef>>,
    alpha: f32,
    blend: MixBlend,
    direction: MixDirection,
) {
    let data = sk.data.clone();
    apply_timeline_in(
        sk, &data, animation, index, last_time, time, events, alpha, blend, direction,
    );
}

/// [`apply_timeline`] with the skeleton's data passed in (`data` must be `sk.data`; taking
/// it once per animation saves a reference-count round trip per timeline).
#[allow(clippy::too_many_arguments)]
pub fn apply_timeline_in(
    sk: &mut Skeleton,
    data: &SkeletonData,
    animation: AnimationId,
    index: usize,
    last_time: f32,
    time: f32,
    events: Option<&mut Vec<EventRef>>,
    alpha: f32,
    blend: MixBlend,
    direction: MixDirection,
) {
    let Some(anim) = data.animations.get(animation.index()) else { return };
    let Some(tl) = anim.timelines.get(index) else { return };
    let keys = &anim.keys;
    apply_tl(
        sk, data, animation, index, tl, keys, last_time, time, events, alpha, blend, direction,
    );
}

/// [`apply_timeline_in`] for a timeline the caller already holds (`tl` is timeline `index`
/// of `animation`, `keys` that animation's keys, `data` is `sk.data`). Bone timelines, most of a typical animation, are
/// applied inline; the other kinds through one out-of-line arm.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn apply_held(
    sk: &mut Skeleton,
    data: &SkeletonData,
    animation: AnimationId,
    index: usize,
    tl: &Timeline,
    keys: &[f32],
    last_time: f32,
    time: f32,
    events: Option<&mut Vec<EventRef>>,
    alpha: f32,
    blend: MixBlend,
    direction: MixDirection,
) {
    if let Timeline::Bone { bone, property, curves } = tl {
        if !curves.is_empty() {
            let (c, p) = ((curves, keys), *property);
            apply_bone(sk, data, bone.index(), p, c, time, alpha, blend, direction);
        }
        return;
    }
    apply_tl(
        sk, data, animation, index, tl, keys, last_time, time, events, alpha, blend, direction,
    );
}

#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn apply_tl(
    sk: &mut Skeleton,
    data: &SkeletonData,
    animation: AnimationId,
    index: usize,
    tl: &Timeline,
    keys: &[f32],
    last_time: f32,
    time: f32,
    events: Option<&mut Vec<EventRef>>,
    alpha: f32,
    blend: MixBlend,
    direction: MixDirection,
) {
    // 4.3 `getAbsoluteValue(…, add = true, …)` adds the key value.
    let add43 = blend == MixBlend::Add && data.behaviour.timelines_spine43;
    match tl {
        Timeline::Bone { bone, property, curves } => {
            if curves.is_empty() {
                return;
            }
            let c = (curves, keys);
            apply_bone(sk, data, bone.index(), *property, c, time, alpha, blend, direction)
        }
        Timeline::Inherit { bone, keys } => {
            let Some(b) = sk.bones.get_mut(bone.index()) else { return };
            if !b.active || keys.is_empty() {
                return;
            }
            let setup = data.bone(*bone).inherit;
            if direction == MixDirection::Out {
                // 4.3 `InheritTimeline`: mixing out from the setup pose *or* as first
                // (anything but the current pose) restores the setup inherit.
                let first43 = blend == MixBlend::First && data.behaviour.timelines_spine43;
                if blend == MixBlend::Setup || first43 {
                    b.inherit = setup;
                }
                return;
            }
            if time < keys[0].0 {
                if matches!(blend, MixBlend::Setup | MixBlend::First) {
                    b.inherit = setup;
                }
                return;
            }
            let mut k = keys.len() - 1;
            for (i, key) in keys.iter().enumerate().skip(1) {
                if key.0 > time {
                    k = i - 1;
                    break;
                }
            }
            b.inherit = keys[k].1;
        }
        Timeline::Attachment { slot, times, names } => {
            if !slot_active(sk, slot.index()) || times.is_empty() {
                return;
            }
            let setup = data.slot(*slot).attachment.as_deref();
            if direction == MixDirection::Out {
                if blend == MixBlend::Setup {
                    sk.set_attachment_by_name(*slot, setup);
                    return;
                }
                if !data.behaviour.slot_out_applies_keys {
                    return;
                }
            }
            if time < times[0] {
                let first = blend == MixBlend::First && data.behaviour.first_blend_resets_slots;
                if blend == MixBlend::Setup || first {
                    sk.set_attachment_by_name(*slot, setup);
                }
                return;
            }
            let k = search_times(times, time);
            let name = names.get(k).and_then(|n| n.as_deref());
            sk.set_attachment_by_name(*slot, name);
        }
        Timeline::Color { slot, property, curves } => {
            if !slot_active(sk, slot.index()) || curves.is_empty() {
                return;
            }
            let curves = curves.table(keys);
            if data.behaviour.timelines_spine43 {
                apply_color43(sk, data, slot.index(), *property, curves, time, alpha, blend);
            } else {
                apply_color(sk, data, slot.index(), *property, curves, time, alpha, blend);
            }
        }
        Timeline::Deform { slot, attachment, curves, vertices } => {
            let curves = curves.table(keys);
            apply_deform(sk, data, slot.index(), *attachment, curves, vertices, time, alpha, blend);
            // 4.3: also the attachment's timeline slots (spine-ts 4.3 `DeformTimeline`).
            if data.behaviour.timelines_spine43 {
                for &ts in timeline_slots(data, *attachment) {
                    let (a, b) = (alpha, blend);
                    apply_deform(sk, data, ts.index(), *attachment, curves, vertices, time, a, b);
                }
            }
        }
        Timeline::Sequence { slot, attachment, keys } if data.behaviour.timelines_spine43 => {
            if keys.is_empty() {
                return;
            }
            let out = direction == MixDirection::Out;
            apply_sequence43(sk, data, slot.index(), *attachment, keys, time, blend, out);
            for &ts in timeline_slots(data, *attachment) {
                apply_sequence43(sk, data, ts.index(), *attachment, keys, time, blend, out);
            }
        }
        Timeline::Sequence { slot, attachment, keys } => {
            if !slot_active(sk, slot.index()) || keys.is_empty() {
                return;
            }
            let Some(s) = sk.slots.get_mut(slot.index()) else { return };
            let Some(current) = s.attachment else { return };
            if current != *attachment && timeline_attachment(data, current) != Some(*attachment) {
                return;
            }
            if time < keys[0].time {
                if matches!(blend, MixBlend::Setup | MixBlend::First) {
                    s.sequence_index = -1;
                }
                return;
            }
            let mut k = keys.len() - 1;
            for (i, key) in keys.iter().enumerate().skip(1) {
                if key.time > time {
                    k = i - 1;
                    break;
                }
            }
            let key = &keys[k];
            let count = match &data.attachment(*attachment).kind {
                AttachmentKind::Region(r) => r.sequence.len() as i32,
                AttachmentKind::Mesh(m) => m.sequence.len() as i32,
                _ => return,
            };
            let mut index = key.index;
            if key.mode != SequenceMode::Hold {
                // `delay == 0` gives +inf, saturated by `as`: saturate the sum too.
                index = index
                    .saturating_add((f64::from((time - key.time) / key.delay) + 0.0001) as i32);
                index = match key.mode {
                    SequenceMode::Hold => index,
                    SequenceMode::Once => (count - 1).min(index),
                    SequenceMode::Loop => index.checked_rem(count).unwrap_or(0),
                    SequenceMode::PingPong => {
                        let n = (count << 1) - 2;
                        let i = if n == 0 { 0 } else { index % n };
                        if i >= count {
                            n - i
                        } else {
                            i
                        }
                    }
                    SequenceMode::OnceReverse => (count - 1 - index).max(0),
                    SequenceMode::LoopReverse => count - 1 - index.checked_rem(count).unwrap_or(0),
                    SequenceMode::PingPongReverse => {
                        let n = (count << 1) - 2;
                        // In i64: `index` may be saturated at i32::MAX (delay 0).
                        let i = if n == 0 {
                            0
                        } else {
                            ((i64::from(index) + i64::from(count) - 1) % i64::from(n)) as i32
                        };
                        if i >= count {
                            n - i
                        } else {
                            i
                        }
                    }
                };
            }
            s.sequence_index = index;
        }
        Timeline::Ik { constraint, curves, flags } => {
            let Some(cd) = data.constraints.get(constraint.index()) else { return };
            let ConstraintKind::Ik(d) = &cd.kind else { return };
            let Some(c) = sk.constraints.get_mut(constraint.index()) else { return };
            let ConstraintPose::Ik(p) = &mut c.pose else { return };
            if !c.active || curves.is_empty() {
                return;
            }
            let curves = curves.table(keys);
            if time < curves.time(0) {
                match blend {
                    MixBlend::Setup => {
                        p.mix = d.mix;
                        p.softness = d.softness;
                    }
                    MixBlend::First => {
                        p.mix += (d.mix - p.mix) * alpha;
                        p.softness += (d.softness - p.softness) * alpha;
                    }
                    _ => return,
                }
                p.bend_direction = d.bend_direction;
                p.compress = d.compress;
                p.stretch = d.stretch;
                return;
            }
            let (v, k) = curve_values_nk::<2>(curves, time);
            let f = flags.get(k).copied();
            if blend == MixBlend::Setup {
                p.mix = d.mix + (v[0] - d.mix) * alpha;
                p.softness = d.softness + (v[1] - d.softness) * alpha;
                if direction == MixDirection::Out {
                    p.bend_direction = d.bend_direction;
                    p.compress = d.compress;
                    p.stretch = d.stretch;
                } else if let Some(f) = f {
                    p.bend_direction = f.bend_direction;
                    p.compress = f.compress;
                    p.stretch = f.stretch;
                }
            } else {
                p.mix += (v[0] - p.mix) * alpha;
                p.softness += (v[1] - p.softness) * alpha;
                if direction == MixDirection::In {
                    if let Some(f) = f {
                        p.bend_direction = f.bend_direction;
                        p.compress = f.compress;
                        p.stretch = f.stretch;
                    }
                }
            }
        }
        Timeline::Transform { constraint, curves } => {
            let Some(cd) = data.constraints.get(constraint.index()) else { return };
            let ConstraintKind::Transform(d) = &cd.kind else { return };
            let Some(c) = sk.constraints.get_mut(constraint.index()) else { return };
            let ConstraintPose::Transform(p) = &mut c.pose else { return };
            if !c.active || curves.is_empty() {
                return;
            }
            let curves = curves.table(keys);
            if time < curves.time(0) {
                match blend {
                    MixBlend::Setup => p.mixes = d.mixes,
                    MixBlend::First => {
                        for (m, s) in p.mixes.iter_mut().zip(d.mixes) {
                            *m += (s - *m) * alpha;
                        }
                    }
                    _ => {}
                }
                return;
            }
            let v = curve_values_n::<6>(curves, time);
            for ((m, s), v) in p.mixes.iter_mut().zip(d.mixes).zip(v) {
                if add43 {
                    // 4.3: the mixes are additive.
                    *m += v * alpha;
                } else if blend == MixBlend::Setup {
                    *m = s + (v - s) * alpha;
                } else {
                    *m += (v - *m) * alpha;
                }
            }
        }
        Timeline::Path { constraint, property, curves } => {
            let Some(cd) = data.constraints.get(constraint.index()) else { return };
            let ConstraintKind::Path(d) = &cd.kind else { return };
            let Some(c) = sk.constraints.get_mut(constraint.index()) else { return };
            let ConstraintPose::Path(p) = &mut c.pose else { return };
            if !c.active || curves.is_empty() {
                return;
            }
            let curves = curves.table(keys);
            match property {
                PathProperty::Position => {
                    p.position = absolute(curves, time, alpha, blend, add43, p.position, d.position)
                }
                PathProperty::Spacing => {
                    // 4.3: spacing is not additive (`add` is ignored).
                    let b = if add43 { MixBlend::Replace } else { blend };
                    p.spacing = absolute(curves, time, alpha, b, false, p.spacing, d.spacing)
                }
                PathProperty::Mix => {
                    let setup = [d.mix_rotate, d.mix_x, d.mix_y];
                    let mut cur = [p.mix_rotate, p.mix_x, p.mix_y];
                    if time < curves.time(0) {
                        match blend {
                            MixBlend::Setup => cur = setup,
                            MixBlend::First => {
                                for (m, s) in cur.iter_mut().zip(setup) {
                                    *m += (s - *m) * alpha;
                                }
                            }
                            _ => {}
                        }
                    } else {
                        let v = curve_values_n::<3>(curves, time);
                        for ((m, s), v) in cur.iter_mut().zip(setup).zip(v) {
                            if add43 {
                                // 4.3: the mixes are additive.
                                *m += v * alpha;
                            } else if blend == MixBlend::Setup {
                                *m = s + (v - s) * alpha;
                            } else {
                                *m += (v - *m) * alpha;
                            }
                        }
                    }
                    [p.mix_rotate, p.mix_x, p.mix_y] = cur;
                }
            }
        }
        Timeline::Physics { constraint, property, curves } => {
            if curves.is_empty() {
                return;
            }
            // 4.3: only wind and gravity are additive (`add` is ignored for the others).
            let additive = matches!(property, PhysicsProperty::Wind | PhysicsProperty::Gravity);
            let (blend, add43) =
                if add43 && !additive { (MixBlend::Replace, false) } else { (blend, add43) };
            let curves = curves.table(keys);
            match constraint {
                Some(ci) => {
                    let Some(ConstraintKind::Physics(d)) =
                        data.constraints.get(ci.index()).map(|c| &c.kind)
                    else {
                        return;
                    };
                    let Some(c) = sk.constraints.get_mut(ci.index()) else { return };
                    let ConstraintPose::Physics(p) = &mut c.pose else { return };
                    if !c.active {
                        return;
                    }
                    let v = absolute(
                        curves,
                        time,
                        alpha,
                        blend,
                        add43,
                        physics_get(p, *property),
                        physics_setup(d, *property),
                    );
                    physics_set(p, *property, v);
                }
                None => {
                    let value =
                        if time >= curves.time(0) { curve_value1(curves, time) } else { 0.0 };
                    for (c, cd) in sk.constraints.iter_mut().zip(&data.constraints) {
                        let (ConstraintPose::Physics(p), ConstraintKind::Physics(d)) =
                            (&mut c.pose, &cd.kind)
                        else {
                            continue;
                        };
                        if !c.active || !physics_global(d, *property) {
                            continue;
                        }
                        let v = absolute_with(
                            curves.time(0),
                            time,
                            alpha,
                            blend,
                            add43,
                            physics_get(p, *property),
                            physics_setup(d, *property),
                            || value,
                        );
                        physics_set(p, *property, v);
                    }
                }
            }
        }
        Timeline::PhysicsReset { constraint, times } => {
            apply_physics_reset(sk, *constraint, times, last_time, time);
        }
        Timeline::Slider { constraint, property, curves } => {
            let Some(ConstraintKind::Slider(d)) =
                data.constraints.get(constraint.index()).map(|c| &c.kind)
            else {
                return;
            };
            let Some(c) = sk.constraints.get_mut(constraint.index()) else { return };
            let ConstraintPose::Slider(p) = &mut c.pose else { return };
            if !c.active || curves.is_empty() {
                return;
            }
            let curves = curves.table(keys);
            match property {
                SliderProperty::Time => {
                    p.time = absolute(curves, time, alpha, blend, add43, p.time, d.time)
                }
                SliderProperty::Mix => {
                    p.mix = absolute(curves, time, alpha, blend, add43, p.mix, d.mix)
                }
            }
        }
        Timeline::DrawOrder { times, orders } => {
            if times.is_empty() {
                return;
            }
            let to_setup = |sk: &mut Skeleton| {
                let n = sk.slots.len() as u32;
                sk.draw_order.clear();
                sk.draw_order.extend((0..n).map(spine_model::SlotId));
            };
            if direction == MixDirection::Out {
                // 4.3: `out` goes to setup unless mixing from the current pose.
                if blend == MixBlend::Setup
                    || (blend == MixBlend::First && data.behaviour.timelines_spine43)
                {
                    to_setup(sk);
                    return;
                }
                if !data.behaviour.slot_out_applies_keys {
                    return;
                }
            }
            if time < times[0] {
                let first = blend == MixBlend::First && data.behaviour.first_blend_resets_slots;
                if blend == MixBlend::Setup || first {
                    to_setup(sk);
                }
                return;
            }
            match orders.get(search_times(times, time)) {
                Some(Some(order)) if !order.is_empty() => {
                    for (d, s) in sk.draw_order.iter_mut().zip(order) {
                        *d = *s;
                    }
                }
                _ => to_setup(sk),
            }
        }
        Timeline::DrawOrderFolder { slots, times, orders } => {
            // spine-cpp 4.3 `DrawOrderFolderTimeline::apply`: only the draw-order positions
            // holding a folder slot change; "from current" (replace/add) leaves the order
            // alone when mixing out or before the first key, else the folder goes back to
            // its setup order.
            if times.is_empty() {
                return;
            }
            if direction == MixDirection::Out || time < times[0] {
                if matches!(blend, MixBlend::Setup | MixBlend::First) {
                    place_folder(&mut sk.draw_order, slots, slots);
                }
                return;
            }
            match orders.get(search_times(times, time)) {
                Some(Some(order)) if order.len() == slots.len() => {
                    place_folder(&mut sk.draw_order, slots, order)
                }
                _ => place_folder(&mut sk.draw_order, slots, slots),
            }
        }
        Timeline::Event { keys } => {
            if let Some(events) = events {
                fire_events(animation, index as u32, keys, last_time, time, events);
            }
        }
    }
}

/// Writes `order` (a permutation of the folder's `slots`) into the positions of
/// `draw_order` that hold a folder slot, first to last (spine-cpp 4.3
/// `DrawOrderFolderTimeline::setup` / `apply`). Never allocates.
fn place_folder(
    draw_order: &mut [spine_model::SlotId],
    slots: &[spine_model::SlotId],
    order: &[spine_model::SlotId],
) {
    let mut next = order.iter();
    for d in draw_order.iter_mut() {
        if slots.contains(d) {
            let Some(s) = next.next() else { return };
            *d = *s;
        }
    }
}

fn slot_active(sk: &Skeleton, slot: usize) -> bool {
    sk.slots.get(slot).and_then(|s| sk.bones.get(s.bone.index())).is_some_and(|b| b.active)
}

fn fire_events(
    animation: AnimationId,
    timeline: u32,
    keys: &[spine_model::EventKey],
    mut last_time: f32,
    time: f32,
    events: &mut Vec<EventRef>,
) {
    let n = keys.len();
    if n == 0 {
        return;
    }
    if last_time > time {
        fire_events(animation, timeline, keys, last_time, f32::MAX, events);
        last_time = -1.0;
    } else if last_time >= keys[n - 1].time {
        return;
    }
    if time < keys[0].time {
        return;
    }
    let mut i;
    if last_time < keys[0].time {
        i = 0;
    } else {
        let mut s = n - 1;
        for (j, k) in keys.iter().enumerate().skip(1) {
            if k.time > last_time {
                s = j - 1;
                break;
            }
        }
        i = s + 1;
        let frame_time = keys.get(i).map_or(f32::NAN, |k| k.time);
        while i > 0 {
            if keys[i - 1].time != frame_time {
                break;
            }
            i -= 1;
        }
    }
    while i < n && time >= keys[i].time {
        events.push(EventRef { animation, timeline, key: i as u32 });
        i += 1;
    }
}

fn apply_physics_reset(
    sk: &mut Skeleton,
    constraint: Option<spine_model::ConstraintId>,
    times: &[f32],
    mut last_time: f32,
    time: f32,
) {
    if times.is_empty() {
        return;
    }
    if let Some(c) = constraint {
        if !sk.constraints.get(c.index()).is_some_and(|c| c.active) {
            return;
        }
    }
    if last_time > time {
        apply_physics_reset(sk, constraint, times, last_time, f32::MAX);
        last_time = -1.0;
    } else if last_time >= times[times.len() - 1] {
        return;
    }
    if time < times[0] {
        return;
    }
    let fire = last_time < times[0]
        || times.get(search_times(times, last_time) + 1).is_some_and(|&t| time >= t);
    if !fire {
        return;
    }
    let (now, now64) = (sk.time, sk.exact_time());
    for (i, c) in sk.constraints.iter_mut().enumerate() {
        if constraint.is_some_and(|x| x.index() != i) || !c.active {
            continue;
        }
        if let ConstraintPose::Physics(p) = &mut c.pose {
            p.state.reset_at(now, now64);
        }
    }
}

fn physics_get(p: &PhysicsPose, prop: PhysicsProperty) -> f32 {
    match prop {
        PhysicsProperty::Inertia => p.inertia,
        PhysicsProperty::Strength => p.strength,
        PhysicsProperty::Damping => p.damping,
        PhysicsProperty::Mass => 1.0 / p.mass_inverse,
        PhysicsProperty::Wind => p.wind,
        PhysicsProperty::Gravity => p.gravity,
        PhysicsProperty::Mix => p.mix,
    }
}

fn physics_setup(d: &PhysicsData, prop: PhysicsProperty) -> f32 {
    match prop {
        PhysicsProperty::Inertia => d.inertia,
        PhysicsProperty::Strength => d.strength,
        PhysicsProperty::Damping => d.damping,
        PhysicsProperty::Mass => 1.0 / d.mass_inverse,
        PhysicsProperty::Wind => d.wind,
        PhysicsProperty::Gravity => d.gravity,
        PhysicsProperty::Mix => d.mix,
    }
}

fn physics_set(p: &mut PhysicsPose, prop: PhysicsProperty, v: f32) {
    match prop {
        PhysicsProperty::Inertia => p.inertia = v,
        PhysicsProperty::Strength => p.strength = v,
        PhysicsProperty::Damping => p.damping = v,
        PhysicsProperty::Mass => p.mass_inverse = 1.0 / v,
        PhysicsProperty::Wind => p.wind = v,
        PhysicsProperty::Gravity => p.gravity = v,
        PhysicsProperty::Mix => p.mix = v,
    }
}

fn physics_global(d: &PhysicsData, prop: PhysicsProperty) -> bool {
    let g = &d.globals;
    match prop {
        PhysicsProperty::Inertia => g.inertia,
        PhysicsProperty::Strength => g.strength,
        PhysicsProperty::Damping => g.damping,
        PhysicsProperty::Mass => g.mass,
        PhysicsProperty::Wind => g.wind,
        PhysicsProperty::Gravity => g.gravity,
        PhysicsProperty::Mix => g.mix,
    }
}

/// 3.x rotation wrap: `r - (16384 - (int)(16384.499999999996 - r / 360)) * 360`.
pub(crate) fn wrap_3x(r: f32) -> f32 {
    let n = (16384.499999999996f64 - f64::from(r / 360.0)) as i32;
    r - (16384 - n) as f32 * 360.0
}

/// 3.x `RotateTimeline::apply` ([`RotationMix::Spine3`]): the key delta is wrapped into
/// `[-180, 180]` before interpolating, and the animated offset is wrapped again.
#[allow(clippy::too_many_arguments)]
fn rotate_3x(
    curves: &Curves,
    keys: &[f32],
    time: f32,
    alpha: f32,
    blend: MixBlend,
    current: f32,
    setup: f32,
) -> f32 {
    let c = curves.table(keys);
    let n = c.frame_count();
    if n == 0 {
        return current;
    }
    if time < c.time(0) {
        return match blend {
            MixBlend::Setup => setup,
            MixBlend::First => current + wrap_3x(setup - current) * alpha,
            _ => current,
        };
    }
    if time >= c.time(n - 1) {
        let mut r = c.value(n - 1, 0);
        return match blend {
            MixBlend::Setup => setup + r * alpha,
            MixBlend::First | MixBlend::Replace => {
                r += setup - current;
                current + wrap_3x(r) * alpha
            }
            MixBlend::Add => current + r * alpha,
        };
    }
    let k = search(c, time);
    let prev = c.value(k, 0);
    let percent = percent_3x(c, time, k);
    let mut r = prev + wrap_3x(c.value(k + 1, 0) - prev) * percent;
    match blend {
        MixBlend::Setup => setup + wrap_3x(r) * alpha,
        MixBlend::First | MixBlend::Replace => {
            r += setup - current;
            current + wrap_3x(r) * alpha
        }
        MixBlend::Add => current + wrap_3x(r) * alpha,
    }
}

#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn apply_bone(
    sk: &mut Skeleton,
    data: &SkeletonData,
    bi: usize,
    property: BoneProperty,
    (curves, keys): (&Curves, &[f32]),
    time: f32,
    alpha: f32,
    blend: MixBlend,
    direction: MixDirection,
) {
    if !sk.bones.get(bi).is_some_and(|b| b.active) {
        return;
    }
    let rules = BoneRules::of(data);
    apply_bone_in(
        &mut sk.bones,
        &data.bones,
        rules,
        bi,
        property,
        (curves, keys),
        time,
        alpha,
        blend,
        direction,
    );
}

/// The [`Behaviour`](spine_model::Behaviour) flags bone timelines read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BoneRules {
    /// 3.x rotation mixing ([`RotationMix::Spine3`]).
    pub(crate) rotate_3x: bool,
    /// 4.3 timelines (scale y reads the current scale y).
    pub(crate) spine43: bool,
}

impl BoneRules {
    /// The flags of `data`.
    #[inline(always)]
    pub(crate) fn of(data: &SkeletonData) -> BoneRules {
        BoneRules {
            rotate_3x: data.behaviour.rotation_mix == RotationMix::Spine3,
            spine43: data.behaviour.timelines_spine43,
        }
    }
}

/// The bone timelines of `timelines` from `*ii` on, until the first other kind (left at
/// `*ii`) or the end (their tables in `keys`): [`apply_held`] for each, with the skeleton's bones and the data's bone
/// list borrowed once for the whole run (not re-read through the skeleton per timeline).
///
/// The caller passes only bone timelines with keys on active bones (the state's timeline
/// ranges leave the others out, `TrackEntry::active_runs`, rebuilt when the skeleton's
/// update cache, which sets `Bone::active`, is): neither the full no-key test nor the
/// active test is repeated here, only an empty table is stepped over (what keeps the
/// readers in bounds).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(crate) fn apply_bone_run(
    bones: &mut [crate::skeleton::Bone],
    data: &SkeletonData,
    timelines: &[Timeline],
    keys: &[f32],
    ii: &mut usize,
    time: f32,
    alpha: f32,
    blend: MixBlend,
    direction: MixDirection,
) {
    let rules = BoneRules::of(data);
    // Both slices cut to one length: one bounds check per timeline serves both.
    let n = bones.len().min(data.bones.len());
    let (bones, bone_data) = (&mut bones[..n], &data.bones[..n]);
    let Some(rest) = timelines.get(*ii..) else { return };
    for tl in rest {
        let Timeline::Bone { bone, property, curves } = tl else { return };
        *ii += 1;
        debug_assert!(!curves.is_empty(), "bone timeline without keys in a run");
        let (bi, p, c) = (bone.index(), *property, (curves, keys));
        apply_bone_in(bones, bone_data, rules, bi, p, c, time, alpha, blend, direction);
    }
}

/// [`apply_bone`] over the bones and bone data slices, for an active bone (the callers test it).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn apply_bone_in(
    bones: &mut [crate::skeleton::Bone],
    bone_data: &[spine_model::BoneData],
    rules: BoneRules,
    bi: usize,
    property: BoneProperty,
    (curves, keys): (&Curves, &[f32]),
    time: f32,
    alpha: f32,
    blend: MixBlend,
    direction: MixDirection,
) {
    let Some(bd) = bone_data.get(bi) else { return };
    let Some(b) = bones.get_mut(bi) else { return };
    // The table is built where it is read inline; the out-of-line arms get its location
    // (see `bezier_value_clamped`).
    let c = curves.table(keys);
    match property {
        BoneProperty::Rotate if rules.rotate_3x => {
            b.rotation = rotate_3x(curves, keys, time, alpha, blend, b.rotation, bd.rotation)
        }
        BoneProperty::Rotate => {
            b.rotation = relative(c, time, alpha, blend, b.rotation, bd.rotation)
        }
        BoneProperty::TranslateX => b.x = relative(c, time, alpha, blend, b.x, bd.x),
        BoneProperty::TranslateY => b.y = relative(c, time, alpha, blend, b.y, bd.y),
        BoneProperty::ShearX => b.shear_x = relative(c, time, alpha, blend, b.shear_x, bd.shear_x),
        BoneProperty::ShearY => b.shear_y = relative(c, time, alpha, blend, b.shear_y, bd.shear_y),
        BoneProperty::ScaleX => {
            let (current, setup) = (b.scale_x, bd.scale_x);
            b.scale_x = scale_value(curves, keys, time, alpha, blend, direction, current, setup)
        }
        // spine-cpp 4.2 quirk: the current value passed is scale *x* (4.3 passes scale y).
        BoneProperty::ScaleY => {
            let current = if rules.spine43 { b.scale_y } else { b.scale_x };
            let setup = bd.scale_y;
            b.scale_y = scale_value(curves, keys, time, alpha, blend, direction, current, setup)
        }
        BoneProperty::Translate => {
            relative2(c, time, alpha, blend, (&mut b.x, &mut b.y), (bd.x, bd.y))
        }
        BoneProperty::Shear => relative2(
            c,
            time,
            alpha,
            blend,
            (&mut b.shear_x, &mut b.shear_y),
            (bd.shear_x, bd.shear_y),
        ),
        BoneProperty::Scale => scale2(b, bd, curves, keys, time, alpha, blend, direction),
    }
}

/// [`relative`] for a two-channel timeline (translate, shear): spine-cpp
/// `TranslateTimeline::apply` / `ShearTimeline::apply` on `(cx, cy)` with setup `(sx, sy)`.
#[inline(always)]
pub(crate) fn relative2(
    c: CurveTable<'_>,
    time: f32,
    alpha: f32,
    blend: MixBlend,
    current: (&mut f32, &mut f32),
    setup: (f32, f32),
) {
    relative2_from(c, Scan, time, alpha, blend, current, setup)
}

/// [`relative2`] with the key found by `search`.
#[inline(always)]
pub(crate) fn relative2_from(
    c: CurveTable<'_>,
    search: impl KeySearch,
    time: f32,
    alpha: f32,
    blend: MixBlend,
    (cx, cy): (&mut f32, &mut f32),
    (sx, sy): (f32, f32),
) {
    let Some(&first) = c.frames.first() else { return };
    if time < first {
        match blend {
            MixBlend::Setup => {
                *cx = sx;
                *cy = sy;
            }
            MixBlend::First => {
                *cx += (sx - *cx) * alpha;
                *cy += (sy - *cy) * alpha;
            }
            _ => {}
        }
        return;
    }
    let [x, y] = curve_values_from::<2, _>(c, time, search).0;
    match blend {
        MixBlend::Setup => {
            *cx = sx + x * alpha;
            *cy = sy + y * alpha;
        }
        MixBlend::First | MixBlend::Replace => {
            *cx += (sx + x - *cx) * alpha;
            *cy += (sy + y - *cy) * alpha;
        }
        MixBlend::Add => {
            *cx += x * alpha;
            *cy += y * alpha;
        }
    }
}

/// The `Scale` arm of [`apply_bone`] (spine-cpp `ScaleTimeline::apply`).
#[inline(never)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn scale2(
    b: &mut crate::skeleton::Bone,
    bd: &spine_model::BoneData,
    curves: &Curves,
    keys: &[f32],
    time: f32,
    alpha: f32,
    blend: MixBlend,
    direction: MixDirection,
) {
    let c = curves.table(keys);
    let Some(&first) = c.frames.first() else { return };
    if time < first {
        match blend {
            MixBlend::Setup => {
                b.scale_x = bd.scale_x;
                b.scale_y = bd.scale_y;
            }
            MixBlend::First => {
                b.scale_x += (bd.scale_x - b.scale_x) * alpha;
                b.scale_y += (bd.scale_y - b.scale_y) * alpha;
            }
            _ => {}
        }
        return;
    }
    let v = curve_values_n::<2>(c, time);
    let x = v[0] * bd.scale_x;
    let y = v[1] * bd.scale_y;
    if alpha == 1.0 {
        if blend == MixBlend::Add {
            b.scale_x += x - bd.scale_x;
            b.scale_y += y - bd.scale_y;
        } else {
            b.scale_x = x;
            b.scale_y = y;
        }
    } else if direction == MixDirection::Out {
        match blend {
            MixBlend::Setup => {
                let (bx, by) = (bd.scale_x, bd.scale_y);
                b.scale_x = bx + (math::abs(x) * math::sign(bx) - bx) * alpha;
                b.scale_y = by + (math::abs(y) * math::sign(by) - by) * alpha;
            }
            MixBlend::First | MixBlend::Replace => {
                let (bx, by) = (b.scale_x, b.scale_y);
                b.scale_x = bx + (math::abs(x) * math::sign(bx) - bx) * alpha;
                b.scale_y = by + (math::abs(y) * math::sign(by) - by) * alpha;
            }
            MixBlend::Add => {
                b.scale_x += (x - bd.scale_x) * alpha;
                b.scale_y += (y - bd.scale_y) * alpha;
            }
        }
    } else {
        match blend {
            MixBlend::Setup => {
                let bx = math::abs(bd.scale_x) * math::sign(x);
                let by = math::abs(bd.scale_y) * math::sign(y);
                b.scale_x = bx + (x - bx) * alpha;
                b.scale_y = by + (y - by) * alpha;
            }
            MixBlend::First | MixBlend::Replace => {
                let bx = math::abs(b.scale_x) * math::sign(x);
                let by = math::abs(b.scale_y) * math::sign(y);
                b.scale_x = bx + (x - bx) * alpha;
                b.scale_y = by + (y - by) * alpha;
            }
            MixBlend::Add => {
                b.scale_x += (x - bd.scale_x) * alpha;
                b.scale_y += (y - bd.scale_y) * alpha;
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn apply_color(
    sk: &mut Skeleton,
    data: &SkeletonData,
    si: usize,
    property: ColorProperty,
    c: CurveTable<'_>,
    time: f32,
    alpha: f32,
    blend: MixBlend,
) {
    let Some(sd) = data.slots.get(si) else { return };
    let Some(slot) = sk.slots.get_mut(si) else { return };
    let setup = sd.color;
    let setup_dark = sd.dark_color.unwrap_or(spine_model::Color { r: 0.0, g: 0.0, b: 0.0, a: 0.0 });
    let light = &mut slot.color;
    let dark = &mut slot.dark_color;
    let (has_rgb, has_a, has_dark) = match property {
        ColorProperty::Rgba => (true, true, false),
        ColorProperty::Rgb => (true, false, false),
        ColorProperty::Rgba2 => (true, true, true),
        ColorProperty::Rgb2 => (true, false, true),
        ColorProperty::Alpha => (false, true, false),
    };
    if time < c.time(0) {
        match blend {
            MixBlend::Setup => {
                if has_rgb {
                    light.r = setup.r;
                    light.g = setup.g;
                    light.b = setup.b;
                }
                // RGBA sets alpha too; RGB2's before-first-key setup keeps alpha, RGB's
                // `color.set(setup)` copies all four.
                if has_a || property == ColorProperty::Rgb {
                    light.a = setup.a;
                }
                if has_dark {
                    dark.r = setup_dark.r;
                    dark.g = setup_dark.g;
                    dark.b = setup_dark.b;
                }
            }
            MixBlend::First if has_dark && data.behaviour.two_color_first_away => {
                // spine-cpp 3.7/3.8: away from setup, unclamped.
                light.r += (light.r - setup.r) * alpha;
                light.g += (light.g - setup.g) * alpha;
                light.b += (light.b - setup.b) * alpha;
                light.a += (light.a - setup.a) * alpha;
                dark.r += (dark.r - setup_dark.r) * alpha;
                dark.g += (dark.g - setup_dark.g) * alpha;
                dark.b += (dark.b - setup_dark.b) * alpha;
                return;
            }
            MixBlend::First => {
                if has_rgb {
                    light.r += (setup.r - light.r) * alpha;
                    light.g += (setup.g - light.g) * alpha;
                    light.b += (setup.b - light.b) * alpha;
                }
                if has_a || property == ColorProperty::Rgb {
                    light.a += (setup.a - light.a) * alpha;
                }
                if has_dark {
                    dark.r += (setup_dark.r - dark.r) * alpha;
                    dark.g += (setup_dark.g - dark.g) * alpha;
                    dark.b += (setup_dark.b - dark.b) * alpha;
                }
            }
            _ => {}
        }
        if property != ColorProperty::Alpha {
            clamp_color(light);
        }
        return;
    }
    // Values in channel order; RGB2 reads its dark beziers at slots 4, 5, 6 (spine-cpp bug).
    let mut v = [0.0f32; 7];
    match (property, c.channels) {
        (ColorProperty::Rgb2, _) => curve_values(c, time, &mut v[..6], &[0, 1, 2, 4, 5, 6]),
        // The usual shapes read at once (the same values as the general read).
        (_, 4) => v[..4].copy_from_slice(&curve_values_n::<4>(c, time)),
        (_, 3) => v[..3].copy_from_slice(&curve_values_n::<3>(c, time)),
        (_, 1) => v[0] = curve_value1(c, time),
        (_, 7) => v = curve_values_n::<7>(c, time),
        (_, n) => {
            let slots = &SLOTS[..n.min(7)];
            curve_values(c, time, &mut v[..slots.len()], slots)
        }
    }
    let (r, g, b, a, r2, g2, b2) = match property {
        ColorProperty::Rgba => (v[0], v[1], v[2], v[3], 0.0, 0.0, 0.0),
        ColorProperty::Rgb => (v[0], v[1], v[2], 0.0, 0.0, 0.0, 0.0),
        ColorProperty::Rgba2 => (v[0], v[1], v[2], v[3], v[4], v[5], v[6]),
        ColorProperty::Rgb2 => (v[0], v[1], v[2], 0.0, v[3], v[4], v[5]),
        ColorProperty::Alpha => (0.0, 0.0, 0.0, v[0], 0.0, 0.0, 0.0),
    };
    if alpha == 1.0 {
        if has_rgb {
            light.r = r;
            light.g = g;
            light.b = b;
        }
        if has_a {
            light.a = a;
        }
        if has_dark {
            dark.r = r2;
            dark.g = g2;
            dark.b = b2;
            clamp_color(dark);
        }
    } else {
        if blend == MixBlend::Setup {
            if has_rgb {
                light.r = setup.r;
                light.g = setup.g;
                light.b = setup.b;
            }
            if has_a || property == ColorProperty::Rgba {
                light.a = setup.a;
            }
            if has_dark {
                dark.r = setup_dark.r;
                dark.g = setup_dark.g;
                dark.b = setup_dark.b;
            }
        }
        if has_rgb {
            light.r += (r - light.r) * alpha;
            light.g += (g - light.g) * alpha;
            light.b += (b - light.b) * alpha;
        }
        if has_a {
            light.a += (a - light.a) * alpha;
        }
        if has_dark {
            dark.r += (r2 - dark.r) * alpha;
            dark.g += (g2 - dark.g) * alpha;
            dark.b += (b2 - dark.b) * alpha;
        }
    }
    if property != ColorProperty::Alpha {
        clamp_color(light);
    }
}

/// The color timelines of spine-ts 4.3 (`RGBATimeline`, `RGBTimeline`, `AlphaTimeline`,
/// `RGBA2Timeline`, `RGB2Timeline` `apply1`), which differ from spine-cpp 4.2 in what they
/// clamp: every keyed value is clamped to `0..=1` (alpha too; the dark color whatever the
/// alpha), `Color.set` / `Color.add` clamp the light color of RGBA and RGBA2, and before the
/// first key `MixFrom.first` moves RGB, RGB2 and the dark colors unclamped; `MixFrom.setup`
/// before the first key leaves alpha alone for RGB and RGB2. The dark channels of RGB2 are
/// the curve's channels 3..6 (spine-cpp 4.2 reads the beziers of 4..7).
#[allow(clippy::too_many_arguments)]
fn apply_color43(
    sk: &mut Skeleton,
    data: &SkeletonData,
    si: usize,
    property: ColorProperty,
    c: CurveTable<'_>,
    time: f32,
    alpha: f32,
    blend: MixBlend,
) {
    let Some(sd) = data.slots.get(si) else { return };
    let Some(slot) = sk.slots.get_mut(si) else { return };
    let setup = sd.color;
    let setup_dark = sd.dark_color.unwrap_or(spine_model::Color { r: 0.0, g: 0.0, b: 0.0, a: 0.0 });
    let light = &mut slot.color;
    let dark = &mut slot.dark_color;
    let (has_rgb, has_a, has_dark) = match property {
        ColorProperty::Rgba => (true, true, false),
        ColorProperty::Rgb => (true, false, false),
        ColorProperty::Rgba2 => (true, true, true),
        ColorProperty::Rgb2 => (true, false, true),
        ColorProperty::Alpha => (false, true, false),
    };
    // `Color.add` / `Color.set` clamp all four channels of the light color.
    let via_color = matches!(property, ColorProperty::Rgba | ColorProperty::Rgba2);
    if time < c.time(0) {
        match blend {
            MixBlend::Setup => {
                if has_rgb {
                    (light.r, light.g, light.b) = (setup.r, setup.g, setup.b);
                }
                if has_a {
                    light.a = setup.a;
                }
                if has_dark {
                    (dark.r, dark.g, dark.b) = (setup_dark.r, setup_dark.g, setup_dark.b);
                }
            }
            MixBlend::First => {
                if has_rgb {
                    light.r += (setup.r - light.r) * alpha;
                    light.g += (setup.g - light.g) * alpha;
                    light.b += (setup.b - light.b) * alpha;
                }
                if has_a {
                    light.a += (setup.a - light.a) * alpha;
                }
                if via_color {
                    clamp_color(light);
                }
                if has_dark {
                    dark.r += (setup_dark.r - dark.r) * alpha;
                    dark.g += (setup_dark.g - dark.g) * alpha;
                    dark.b += (setup_dark.b - dark.b) * alpha;
                }
            }
            _ => {}
        }
        return;
    }
    let mut v = [0.0f32; 7];
    match c.channels {
        4 => v[..4].copy_from_slice(&curve_values_n::<4>(c, time)),
        3 => v[..3].copy_from_slice(&curve_values_n::<3>(c, time)),
        1 => v[0] = curve_value1(c, time),
        7 => v = curve_values_n::<7>(c, time),
        n => {
            let slots = &SLOTS[..n.min(7)];
            curve_values(c, time, &mut v[..slots.len()], slots)
        }
    }
    let (mut r, mut g, mut b, mut a, mut r2, mut g2, mut b2) = match property {
        ColorProperty::Rgba => (v[0], v[1], v[2], v[3], 0.0, 0.0, 0.0),
        ColorProperty::Rgb => (v[0], v[1], v[2], 0.0, 0.0, 0.0, 0.0),
        ColorProperty::Rgba2 => (v[0], v[1], v[2], v[3], v[4], v[5], v[6]),
        ColorProperty::Rgb2 => (v[0], v[1], v[2], 0.0, v[3], v[4], v[5]),
        ColorProperty::Alpha => (0.0, 0.0, 0.0, v[0], 0.0, 0.0, 0.0),
    };
    if alpha != 1.0 {
        let (base, base_dark) =
            if blend == MixBlend::Setup { (setup, setup_dark) } else { (*light, *dark) };
        r = base.r + (r - base.r) * alpha;
        g = base.g + (g - base.g) * alpha;
        b = base.b + (b - base.b) * alpha;
        a = base.a + (a - base.a) * alpha;
        r2 = base_dark.r + (r2 - base_dark.r) * alpha;
        g2 = base_dark.g + (g2 - base_dark.g) * alpha;
        b2 = base_dark.b + (b2 - base_dark.b) * alpha;
    }
    let unit = |v: f32| v.clamp(0.0, 1.0);
    if has_rgb {
        (light.r, light.g, light.b) = (unit(r), unit(g), unit(b));
    }
    if has_a {
        light.a = unit(a);
    }
    if via_color {
        clamp_color(light);
    }
    if has_dark {
        (dark.r, dark.g, dark.b) = (unit(r2), unit(g2), unit(b2));
    }
}

/// spine-cpp `Color::set`/`add` clamp every channel to `0..=1`.
fn clamp_color(c: &mut spine_model::Color) {
    c.r = c.r.clamp(0.0, 1.0);
    c.g = c.g.clamp(0.0, 1.0);
    c.b = c.b.clamp(0.0, 1.0);
    c.a = c.a.clamp(0.0, 1.0);
}

/// 3.x segment percent (`CurveModel::Sampled3x`): with `frame` the key after `time`,
/// `getCurvePercent(frame - 1, 1 - (time - frameTime) / (prevTime - frameTime))`.
pub(crate) fn percent_3x(c: CurveTable<'_>, time: f32, k: usize) -> f32 {
    let frame_time = c.time(k + 1);
    let linear = 1.0 - (time - frame_time) / (c.time(k) - frame_time);
    c.curve_percent_3x(k, linear)
}

/// spine-cpp `DeformTimeline::getCurvePercent`.
fn deform_percent(c: CurveTable<'_>, time: f32, k: usize) -> f32 {
    if c.model == CurveModel::Sampled3x {
        return if k + 1 >= c.frame_count() { 0.0 } else { percent_3x(c, time, k) };
    }
    let ty = curve_type(c, k);
    if ty == LINEAR {
        let x = c.time(k);
        return (time - x) / (c.time(k + 1) - x);
    }
    if ty == STEPPED {
        return 0.0;
    }
    let mut i = (ty - BEZIER) as usize;
    if cv(c, i) > time {
        let x = c.time(k);
        return cv(c, i + 1) * (time - x) / (cv(c, i) - x);
    }
    let n = i + BEZIER_SIZE;
    i += 2;
    while i < n {
        if cv(c, i) >= time {
            let x = cv(c, i - 2);
            let y = cv(c, i - 1);
            return y + (time - x) / (cv(c, i) - x) * (cv(c, i + 1) - y);
        }
        i += 2;
    }
    let x = cv(c, n - 2);
    let y = cv(c, n - 1);
    y + (1.0 - y) * (time - x) / (c.time(k + 1) - x)
}

/// The extra slots whose deform and sequence timelines of attachment `a` apply to (4.3
/// `Attachment.timelineSlots`, meshes only).
fn timeline_slots(data: &SkeletonData, a: spine_model::AttachmentId) -> &[spine_model::SlotId] {
    match data.attachments.get(a.index()).map(|x| &x.kind) {
        Some(AttachmentKind::Mesh(m)) => &m.timeline_slots,
        _ => &[],
    }
}

/// spine-ts 4.3 `SequenceTimeline` on slot `si` (`setupPose` / `applyToSlot`): the slot's
/// attachment must have `target` as its timeline attachment; mixing out or before the first
/// key restores the setup frame unless mixing from the current pose; the frame count is the
/// slot attachment's; the frame offset is `((time - key) / delay + 0.00001) | 0` (a zero
/// delay adds nothing).
#[allow(clippy::too_many_arguments)]
fn apply_sequence43(
    sk: &mut Skeleton,
    data: &SkeletonData,
    si: usize,
    target: spine_model::AttachmentId,
    keys: &[spine_model::SequenceKey],
    time: f32,
    blend: MixBlend,
    out: bool,
) {
    if !slot_active(sk, si) {
        return;
    }
    let Some(s) = sk.slots.get_mut(si) else { return };
    let Some(current) = s.attachment else { return };
    if timeline_attachment(data, current) != Some(target) {
        return;
    }
    if out || time < keys[0].time {
        if !matches!(blend, MixBlend::Replace | MixBlend::Add) {
            s.sequence_index = -1;
        }
        return;
    }
    let mut k = keys.len() - 1;
    for (i, key) in keys.iter().enumerate().skip(1) {
        if key.time > time {
            k = i - 1;
            break;
        }
    }
    let key = &keys[k];
    let count = match &data.attachment(current).kind {
        AttachmentKind::Region(r) => r.sequence.len() as i32,
        AttachmentKind::Mesh(m) => m.sequence.len() as i32,
        _ => return,
    };
    let mut index = key.index;
    if key.mode != SequenceMode::Hold {
        // JavaScript `| 0`: truncation to 32 bits, non-finite values give 0.
        let q = f64::from((time - key.time) / key.delay) + 0.00001;
        let add = if q.is_finite() { (q.trunc() as i64) as i32 } else { 0 };
        index = index.wrapping_add(add);
        index = match key.mode {
            SequenceMode::Hold => index,
            SequenceMode::Once => (count - 1).min(index),
            SequenceMode::Loop => index.checked_rem(count).unwrap_or(0),
            SequenceMode::PingPong => {
                let n = (count << 1) - 2;
                let i = if n == 0 { 0 } else { index % n };
                if i >= count {
                    n - i
                } else {
                    i
                }
            }
            SequenceMode::OnceReverse => (count - 1 - index).max(0),
            SequenceMode::LoopReverse => count - 1 - index.checked_rem(count).unwrap_or(0),
            SequenceMode::PingPongReverse => {
                let n = (count << 1) - 2;
                let i = if n == 0 {
                    0
                } else {
                    ((i64::from(index) + i64::from(count) - 1) % i64::from(n)) as i32
                };
                if i >= count {
                    n - i
                } else {
                    i
                }
            }
        };
    }
    s.sequence_index = index;
}

#[allow(clippy::too_many_arguments)]
fn apply_deform(
    sk: &mut Skeleton,
    data: &SkeletonData,
    si: usize,
    target: spine_model::AttachmentId,
    c: CurveTable<'_>,
    vertices: &[Vec<f32>],
    time: f32,
    mut alpha: f32,
    mut blend: MixBlend,
) {
    if !slot_active(sk, si) || c.frames.len() < c.stride() {
        return;
    }
    let Some(slot) = sk.slots.get_mut(si) else { return };
    let Some(current) = slot.attachment else { return };
    if timeline_attachment(data, current) != Some(target) {
        return;
    }
    let setup: Option<&[f32]> = match &data.attachment(current).kind {
        AttachmentKind::Mesh(m) => vert_setup(&m.vertices),
        AttachmentKind::BoundingBox(m) => vert_setup(&m.vertices),
        AttachmentKind::Path(m) => vert_setup(&m.vertices),
        AttachmentKind::Clipping(m) => vert_setup(&m.vertices),
        _ => return,
    };
    let deform = &mut slot.deform;
    if deform.is_empty() {
        blend = MixBlend::Setup;
    }
    let Some(first) = vertices.first() else { return };
    let count = first.len();
    if time < c.time(0) {
        match blend {
            MixBlend::Setup => deform.clear(),
            MixBlend::First => {
                if alpha == 1.0 {
                    deform.clear();
                    return;
                }
                deform.resize(count, 0.0);
                match setup {
                    Some(sv) => {
                        for (d, s) in deform.iter_mut().zip(sv) {
                            *d += (s - *d) * alpha;
                        }
                    }
                    None => {
                        alpha = 1.0 - alpha;
                        for d in deform.iter_mut() {
                            *d *= alpha;
                        }
                    }
                }
            }
            _ => {}
        }
        return;
    }
    deform.resize(count, 0.0);
    let n = c.frame_count();
    let zero: &[f32] = &[];
    let sv = setup.unwrap_or(zero);
    let setup_at = |i: usize| sv.get(i).copied().unwrap_or(0.0);
    if time >= c.time(n - 1) {
        let last = &vertices[vertices.len().min(n) - 1];
        let lv = |i: usize| last.get(i).copied().unwrap_or(0.0);
        if alpha == 1.0 {
            if blend == MixBlend::Add {
                for (i, d) in deform.iter_mut().enumerate() {
                    *d += if setup.is_some() { lv(i) - setup_at(i) } else { lv(i) };
                }
            } else {
                for (i, d) in deform.iter_mut().enumerate() {
                    *d = lv(i);
                }
            }
        } else {
            match blend {
                MixBlend::Setup => {
                    for (i, d) in deform.iter_mut().enumerate() {
                        *d = if setup.is_some() {
                            let s = setup_at(i);
                            s + (lv(i) - s) * alpha
                        } else {
                            lv(i) * alpha
                        };
                    }
                }
                MixBlend::First | MixBlend::Replace => {
                    for (i, d) in deform.iter_mut().enumerate() {
                        *d += (lv(i) - *d) * alpha;
                    }
                }
                MixBlend::Add => {
                    for (i, d) in deform.iter_mut().enumerate() {
                        *d += if setup.is_some() {
                            (lv(i) - setup_at(i)) * alpha
                        } else {
                            lv(i) * alpha
                        };
                    }
                }
            }
        }
        return;
    }
    let k = search(c, time);
    let percent = deform_percent(c, time, k);
    let (Some(prev), Some(next)) = (vertices.get(k), vertices.get(k + 1)) else { return };
    let pv = |i: usize| {
        let p = prev.get(i).copied().unwrap_or(0.0);
        p + (next.get(i).copied().unwrap_or(0.0) - p) * percent
    };
    if alpha == 1.0 {
        if blend == MixBlend::Add {
            for (i, d) in deform.iter_mut().enumerate() {
                *d += if setup.is_some() { pv(i) - setup_at(i) } else { pv(i) };
            }
        } else {
            for (i, d) in deform.iter_mut().enumerate() {
                *d = pv(i);
            }
        }
    } else {
        match blend {
            MixBlend::Setup => {
                for (i, d) in deform.iter_mut().enumerate() {
                    *d = if setup.is_some() {
                        let s = setup_at(i);
                        s + (pv(i) - s) * alpha
                    } else {
                        pv(i) * alpha
                    };
                }
            }
            MixBlend::First | MixBlend::Replace => {
                for (i, d) in deform.iter_mut().enumerate() {
                    *d += (pv(i) - *d) * alpha;
                }
            }
            MixBlend::Add => {
                for (i, d) in deform.iter_mut().enumerate() {
                    *d +=
                        if setup.is_some() { (pv(i) - setup_at(i)) * alpha } else { pv(i) * alpha };
                }
            }
        }
    }
}

/// Setup vertices of an unweighted attachment, `None` for weighted ones.
fn vert_setup(v: &Vertices) -> Option<&[f32]> {
    match v {
        Vertices::Unweighted(v) => Some(v),
        Vertices::Weighted(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// spine-cpp's `getBezierValue` scan as written there: one sample at a time.
    fn scan_reference(c: CurveTable<'_>, time: f32, k: usize, ch: usize, i: usize) -> f32 {
        let p = &c.curves[i..i + BEZIER_SIZE];
        if p[0] > time {
            let x = c.time(k);
            let y = c.value(k, ch);
            return y + (time - x) / (p[0] - x) * (p[1] - y);
        }
        let mut j = 2;
        while j < BEZIER_SIZE {
            if p[j] >= time {
                let x = p[j - 2];
                let y = p[j - 1];
                return y + (time - x) / (p[j] - x) * (p[j + 1] - y);
            }
            j += 2;
        }
        let x = p[BEZIER_SIZE - 2];
        let y = p[BEZIER_SIZE - 1];
        let (nt, nv) = (c.time(k + 1), c.value(k + 1, ch));
        y + (time - x) / (nt - x) * (nv - y)
    }

    /// `bezier_start` is the saturating conversion it replaced for every type a loader
    /// writes (`BEZIER + i`, `i` whole), up to the largest `f32` below 2³¹; any other type
    /// (negative, fractional, NaN, infinite, huge) still gives a start below 2³¹.
    #[test]
    fn bezier_start_matches_the_conversion() {
        let old = |ty: f32| ((ty - BEZIER) as i32).max(0) as usize;
        let mut i = 0u32;
        while i < 1 << 31 {
            let ty = BEZIER + i as f32;
            assert_eq!(bezier_start(ty), old(ty), "type {ty}");
            i = if i < 1 << 20 { i + 1 } else { i + (i >> 12) + 7 };
        }
        let largest = f32::from_bits((2.0f32.powi(31)).to_bits() - 1);
        assert_eq!(bezier_start(largest + BEZIER), old(largest + BEZIER));
        for ty in [-1.0, 0.5, 1.5, -0.0, f32::NAN, f32::INFINITY, -f32::INFINITY, 1e30, -1e30] {
            assert!(bezier_start(ty) < 1 << 31, "type {ty}");
        }
    }

    /// The masked search stops at the sample the scan stops at, bit for bit, for sorted,
    /// unsorted, repeated and NaN samples and times before, on and after every sample.
    #[test]
    fn bezier_value_matches_the_sample_scan() {
        let mut rng = crate::test_rng::Rng(0x2545_f491_4f6c_dd1d);
        let mut next = move || rng.bits();
        let mut checked = 0;
        for case in 0..2000 {
            let mut xs: Vec<f32> = (0..9).map(|_| (next() % 1000) as f32 / 1000.0).collect();
            match case % 4 {
                0 => xs.sort_by(f32::total_cmp),
                1 => {}
                2 => {
                    xs.sort_by(f32::total_cmp);
                    xs[(next() % 9) as usize] = f32::NAN;
                }
                _ => {
                    xs.sort_by(f32::total_cmp);
                    let r = (next() % 8) as usize;
                    xs[r + 1] = xs[r];
                }
            }
            let mut curves = vec![BEZIER, STEPPED];
            for x in &xs {
                curves.push(*x);
                curves.push((next() % 500) as f32 / 7.0);
            }
            let c = CurveTable {
                channels: 1,
                frames: &[-0.5, 3.0, 1.5, 9.0],
                curves: &curves,
                model: CurveModel::Bezier4x,
            };
            let mut times: Vec<f32> = xs.clone();
            times.extend([-1.0, 0.0, 0.25, 0.5, 0.999, 1.0, 2.0]);
            times.extend(xs.iter().map(|x| x + 1e-4));
            for time in times {
                let got = bezier_value(c, time, 0, 0, 2);
                let want = scan_reference(c, time, 0, 0, 2);
                assert_eq!(got.to_bits(), want.to_bits(), "case {case} time {time} samples {xs:?}");
                checked += 1;
            }
        }
        assert_eq!(checked, 2000 * 25);
    }

    /// A cursor finds the key a scan from the first key finds, for sorted key times (with
    /// repeats) and any cursor left by an earlier time, earlier or later than this one;
    /// `times_sorted` refuses decreasing and NaN times.
    #[test]
    fn cursor_finds_the_scanned_key() {
        let mut rng = crate::test_rng::Rng(0x2545_f491_4f6c_dd1d);
        for case in 0..300 {
            let stride = 1 + (case % 3);
            let n = 1 + (rng.bits() % 9) as usize;
            let mut t = 0.0f32;
            let mut frames = Vec::new();
            for _ in 0..n {
                if !rng.bits().is_multiple_of(4) {
                    t += rng.range(0.0, 1.0);
                }
                frames.push(t);
                frames.extend((1..stride).map(|_| rng.range(-9.0, 9.0)));
            }
            assert!(times_sorted(&frames, stride), "{frames:?}");
            let mut cursor = 0u32;
            for _ in 0..40 {
                let time = if rng.bits().is_multiple_of(3) {
                    frames[stride * (rng.bits() as usize % n)]
                } else {
                    rng.range(frames[0], t + 0.5)
                };
                let want = scan_from(&frames, stride, time, 0);
                assert_eq!((&mut cursor).key(&frames, stride, time), want, "{frames:?} {time}");
                assert_eq!(cursor as usize, want);
            }
        }
        assert!(!times_sorted(&[0.0, 5.0, 2.0, 3.0, 1.0, 4.0], 2));
        assert!(!times_sorted(&[0.0, f32::NAN, 1.0], 1));
        assert!(!times_sorted(&[f32::NAN], 1));
        assert!(times_sorted(&[1.0, 1.0, 2.0], 1));
    }
}
