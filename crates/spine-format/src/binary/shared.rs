//! Records shared by several binary generations: draw-order changes (every version), image
//! sequences (4.1–4.3) and the 4.x curve timeline encoding (4.0–4.3).

use std::fmt::Debug;

use super::prim::Writer;
use super::wire::{self, check_count, check_limit, each, f32, i8, index, varint};
use super::wire::{Above, In, Lim, PErr, Res};
use crate::error::{BinaryError, BinaryErrorKind};

/// One change of a draw-order key: slot `slot` moves by `shift` positions.
///
/// On the wire the shift is an unsigned varint holding a two's-complement `i32`
/// (negative shifts take five bytes; 4.3 spec gotcha 2); it is kept here as the signed value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct DrawOrderChange {
    /// Slot index (folder-local inside draw-order folders).
    pub slot: u32,
    /// Signed offset from the slot's setup position.
    pub shift: i32,
}

/// Parses an image sequence record, four varints: frame count, start, digits, setup index.
///
/// The frames take no bytes on the wire, so the count is checked against
/// [`crate::Limits::max_sequence_frames`] only (not against the bytes left), and the zero-padding
/// width against [`crate::Limits::max_string_bytes`] (each frame's region path is at least that
/// long): a few bytes cannot ask the loader for billions of frames or gigabyte-long paths.
pub(crate) fn sequence<'a, 'l>(lim: &'l Lim) -> impl Fn(In<'a>) -> Res<'a, [u32; 4]> + use<'a, 'l> {
    move |at| {
        let (i, count) = varint(at)?;
        check_limit(lim, at, "sequence frame", u64::from(count))?;
        let (at, start) = varint(i)?;
        let (i, digits) = varint(at)?;
        let max = lim.limits.max_string_bytes;
        if digits as usize > max {
            return Err(PErr::at(
                at,
                BinaryErrorKind::LimitExceeded {
                    limit: "max_string_bytes",
                    value: u64::from(digits),
                    max: max as u64,
                },
            ));
        }
        let (i, setup) = varint(i)?;
        Ok((i, [count, start, digits, setup]))
    }
}

/// Parses a draw-order record over `slot_count` slots: a count, then `(slot, shift)` pairs.
/// An empty list means "setup order". Slot and target indices are checked to be in range.
pub(crate) fn draw_order<'a, 'l>(
    lim: &'l Lim,
    slot_count: usize,
) -> impl FnMut(In<'a>) -> Res<'a, Vec<DrawOrderChange>> + use<'a, 'l> {
    move |i| {
        let mut changes = Vec::new();
        let (i, ()) = draw_order_into(lim, slot_count, &mut changes)(i)?;
        Ok((i, changes))
    }
}

/// [`draw_order`] appending the changes to `out` (a buffer a reader reuses).
pub(crate) fn draw_order_into<'a, 'l, 'o>(
    lim: &'l Lim,
    slot_count: usize,
    out: &'o mut Vec<DrawOrderChange>,
) -> impl FnMut(In<'a>) -> Res<'a, ()> + use<'a, 'l, 'o> {
    move |i| {
        let (i, n) = wire::count(lim, "draw order change", 2)(i)?;
        out.reserve(n);
        wire::each(n, None, |i, _| {
            let (at, slot) = index("slot", slot_count)(i)?;
            let (i, shift) = varint(at)?;
            let shift = shift as i32;
            let target = i64::from(slot) + i64::from(shift);
            if target < 0 || target >= slot_count as i64 {
                return Err(PErr::at(
                    at,
                    BinaryErrorKind::IndexOutOfRange {
                        what: "draw order target",
                        index: target as u64,
                        len: slot_count,
                    },
                ));
            }
            out.push(DrawOrderChange { slot, shift });
            Ok((i, ()))
        })(i)
    }
}

/// Writes a draw-order record.
pub(crate) fn write_draw_order(w: &mut Writer, changes: &[DrawOrderChange]) {
    w.len(changes.len());
    for c in changes {
        w.varint(c.slot);
        w.varint(c.shift as u32);
    }
}

/// The value of one keyframe of a curve timeline: a fixed number of channels (implemented
/// for the channel arrays the 4.x timelines use: `[f32; 1..=7]` and `[u8; 1..=7]`).
pub trait Channels: Copy + PartialEq + Debug {
    /// Number of value channels (bezier curves carry 4 floats per channel).
    const COUNT: usize;
    /// One `(cx1, cy1, cx2, cy2)` bezier control set per channel.
    type Beziers: Copy
        + PartialEq
        + Debug
        + Default
        + AsRef<[[f32; 4]]>
        + AsMut<[[f32; 4]]>
        + serde::Serialize;

    /// Reads the keys of `frames` into `sink` ([`CurveFrames::read`]).
    #[doc(hidden)]
    fn read_frames<S: KeySink<Self>>(
        frames: CurveFrames<'_, '_, Self>,
        sink: &mut S,
    ) -> Result<(), BinaryError>;
}

/// The wire side of [`Channels`].
pub(crate) trait WireChannels: Channels {
    /// Bytes the channels take on the wire.
    const WIRE_BYTES: usize;
    /// Parses the channels.
    fn parse(i: In<'_>) -> Res<'_, Self>;
    /// Writes the channels.
    fn write(&self, w: &mut Writer);
}

macro_rules! channels {
    ($($n:literal)*) => {$(
        impl Channels for [f32; $n] {
            const COUNT: usize = $n;
            type Beziers = [[f32; 4]; $n];
            #[inline]
            fn read_frames<S: KeySink<Self>>(
                frames: CurveFrames<'_, '_, Self>,
                sink: &mut S,
            ) -> Result<(), BinaryError> {
                read_frames_impl(frames, sink)
            }
        }
        impl Channels for [u8; $n] {
            const COUNT: usize = $n;
            type Beziers = [[f32; 4]; $n];
            #[inline]
            fn read_frames<S: KeySink<Self>>(
                frames: CurveFrames<'_, '_, Self>,
                sink: &mut S,
            ) -> Result<(), BinaryError> {
                read_frames_impl(frames, sink)
            }
        }
    )*};
}
channels!(1 2 3 4 5 6 7);

impl<const N: usize> WireChannels for [f32; N]
where
    [f32; N]: Channels,
{
    const WIRE_BYTES: usize = 4 * N;
    #[inline(always)]
    fn parse(i: In<'_>) -> Res<'_, Self> {
        wire::f32s(i)
    }
    fn write(&self, w: &mut Writer) {
        for &x in self {
            w.f32(x);
        }
    }
}

impl<const N: usize> WireChannels for [u8; N]
where
    [u8; N]: Channels,
{
    const WIRE_BYTES: usize = N;
    #[inline(always)]
    fn parse(i: In<'_>) -> Res<'_, Self> {
        match i.split_first_chunk::<N>() {
            Some((a, rest)) => Ok((rest, *a)),
            None => wire::take(i, N).map(|(r, _)| (r, [0; N])),
        }
    }
    fn write(&self, w: &mut Writer) {
        w.bytes(self);
    }
}

/// How a 4.x timeline moves from one keyframe to the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub enum CurveType {
    /// `0`: linear interpolation.
    #[default]
    Linear,
    /// `1`: hold the previous value.
    Stepped,
    /// `2`: cubic bezier; the control points are in the key's [`CurveKey::bezier`].
    Bezier,
}

impl CurveType {
    /// The wire discriminant.
    pub fn to_wire(self) -> i8 {
        match self {
            CurveType::Linear => 0,
            CurveType::Stepped => 1,
            CurveType::Bezier => 2,
        }
    }
}

/// One keyframe: time and channel values (unscaled, as on the wire).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct Keyframe<V> {
    /// Key time in seconds.
    pub time: f32,
    /// Channel values.
    pub value: V,
}

/// One key of a 4.x curve timeline: time, channel values (unscaled, as on the wire) and the
/// transition to the next key.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct CurveKey<V: Channels> {
    /// Key time in seconds.
    pub time: f32,
    /// Channel values.
    pub value: V,
    /// The transition from this key to the next one (on the wire it follows the next key's
    /// values); [`CurveType::Linear`] and unused on the last key.
    pub curve: CurveType,
    /// With [`CurveType::Bezier`]: `(cx1, cy1, cx2, cy2)` per channel (unscaled); zeros
    /// otherwise.
    pub bezier: V::Beziers,
}

impl<V: Channels> CurveKey<V> {
    /// A key with a linear transition (the last key's).
    pub fn linear(time: f32, value: V) -> Self {
        CurveKey { time, value, curve: CurveType::Linear, bezier: V::Beziers::default() }
    }
}

/// A 4.x curve timeline: keys, each with the curve (and bezier controls) to the next one.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CurveTimeline<V: Channels> {
    /// The `bezierCount` written before the frames (sizes the runtime curve table).
    pub bezier_count: u32,
    /// Keys, at least one; `frames[i].curve` is the transition from `frames[i]` to
    /// `frames[i + 1]`.
    pub frames: Vec<CurveKey<V>>,
}

impl<V: Channels> CurveTimeline<V> {
    /// Time of the last keyframe.
    pub fn last_time(&self) -> f32 {
        self.frames.last().map_or(0.0, |f| f.time)
    }

    /// The transitions between consecutive keys (one fewer than the keys).
    pub fn curves(&self) -> impl ExactSizeIterator<Item = CurveType> + '_ {
        let n = self.frames.len().saturating_sub(1);
        self.frames[..n].iter().map(|f| f.curve)
    }
}

/// Receives the keys of one 4.x curve timeline as they are read: the raw AST's key list is
/// one sink, `spine-model` fills its curve tables through another.
pub trait KeySink<V: Channels> {
    /// The next key: time and channel values (unscaled, as on the wire).
    fn key(&mut self, time: f32, value: &V);
    /// The transition from key `segment` to key `segment + 1` when it is not linear
    /// ([`CurveType::Stepped`], or [`CurveType::Bezier`] with one `(cx1, cy1, cx2, cy2)` per
    /// channel in `bezier`; zeros when stepped). Called right after key `segment + 1`.
    fn curve(&mut self, segment: usize, curve: CurveType, bezier: &V::Beziers);
}

impl<V: Channels> KeySink<V> for Vec<CurveKey<V>> {
    #[inline]
    fn key(&mut self, time: f32, value: &V) {
        self.push(CurveKey::linear(time, *value));
    }
    #[inline]
    fn curve(&mut self, segment: usize, curve: CurveType, bezier: &V::Beziers) {
        if let Some(k) = self.get_mut(segment) {
            k.curve = curve;
            k.bezier = *bezier;
        }
    }
}

/// A sink that drops every key (skips a timeline a caller did not read).
struct Skip;

impl<V: Channels> KeySink<V> for Skip {
    fn key(&mut self, _: f32, _: &V) {}
    fn curve(&mut self, _: usize, _: CurveType, _: &V::Beziers) {}
}

/// The wire side of a [`CurveFrames`]: the input at its first key (the key count and the
/// input size are already checked), the file length for errors, and the error of a failed
/// read, kept for the animation reader (which adds the section path while unwinding).
pub(crate) struct Cursor<'a> {
    rest: In<'a>,
    total: usize,
    err: Option<PErr>,
}

/// Where a [`CurveFrames`] takes its keys from.
enum Source<'r, 'a, V: Channels> {
    /// The wire.
    Wire { cur: &'r mut Cursor<'a>, lim: &'r Lim, above: Above<'r> },
    /// A parsed timeline (replayed).
    Keys(&'r [CurveKey<V>]),
}

/// The keys of one curve timeline, handed to an animation sink unread: reading them with
/// [`CurveFrames::read`] streams them into a [`KeySink`] without building a key list.
/// A handle dropped unread is skipped by the animation reader.
pub struct CurveFrames<'r, 'a, V: Channels> {
    source: Source<'r, 'a, V>,
    len: usize,
    bezier_count: u32,
    bezier_capacity: usize,
}

impl<'r, 'a, V: Channels> CurveFrames<'r, 'a, V> {
    /// Keys of the wire timeline at `cur` (past `bezierCount`; `len` is checked against the
    /// input by the caller).
    fn wire(
        cur: &'r mut Cursor<'a>,
        lim: &'r Lim,
        above: Above<'r>,
        len: usize,
        bezier_count: u32,
    ) -> Self {
        // Each bezier takes 16 bytes of input per channel; at most one per channel and segment.
        let per_input = cur.rest.len() / 16;
        let per_keys = len.saturating_sub(1) * V::COUNT;
        let bezier_capacity = (bezier_count as usize).min(per_input).min(per_keys);
        let source = Source::Wire { cur, lim, above };
        CurveFrames { source, len, bezier_count, bezier_capacity }
    }

    /// Replays a parsed timeline.
    pub fn replay(t: &'r CurveTimeline<V>) -> Self {
        let beziers = t.curves().filter(|c| *c == CurveType::Bezier).count() * V::COUNT;
        CurveFrames {
            source: Source::Keys(&t.frames),
            len: t.frames.len(),
            bezier_count: t.bezier_count,
            bezier_capacity: beziers,
        }
    }

    /// Number of keys (at least one).
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no keys (never: the reader rejects empty timelines first).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The `bezierCount` written before the keys (raw, unchecked).
    pub fn bezier_count(&self) -> u32 {
        self.bezier_count
    }

    /// A capacity for the bezier curves (one per channel of each bezier segment): the wire's
    /// `bezierCount` capped by what the keys and the rest of the input can hold (exact for a
    /// replayed timeline, a hint otherwise).
    pub fn bezier_capacity(&self) -> usize {
        self.bezier_capacity
    }

    /// Reads every key into `sink`, in order ([`KeySink::curve`] after the key that ends the
    /// segment). Errors carry the offset and section path of the failing key.
    pub fn read<S: KeySink<V>>(self, sink: &mut S) -> Result<(), BinaryError> {
        V::read_frames(self, sink)
    }
}

/// Reads `frames` (through [`Channels::read_frames`], which knows the wire size of `V`).
pub(crate) fn read_frames_impl<V: WireChannels, S: KeySink<V>>(
    frames: CurveFrames<'_, '_, V>,
    sink: &mut S,
) -> Result<(), BinaryError> {
    match frames.source {
        Source::Wire { cur, lim, above } => match curve_frames(lim, cur.rest, frames.len, sink) {
            Ok((rest, ())) => {
                cur.rest = rest;
                Ok(())
            }
            Err(e) => {
                // The sink is handed the whole error (the path above the timeline added); the
                // animation reader unwinds with the one kept here.
                let e = match e {
                    nom::Err::Error(e) | nom::Err::Failure(e) => e,
                    nom::Err::Incomplete(_) => return Err(wire::into_binary(e, cur.total)),
                };
                let public = above(e.clone()).into_binary(cur.total);
                cur.err = Some(e);
                Err(public)
            }
        },
        Source::Keys(keys) => {
            let mut previous: Option<&CurveKey<V>> = None;
            for (i, k) in keys.iter().enumerate() {
                sink.key(k.time, &k.value);
                if let Some(p) = previous.replace(k) {
                    if p.curve != CurveType::Linear {
                        sink.curve(i - 1, p.curve, &p.bezier);
                    }
                }
            }
            Ok(())
        }
    }
}

/// Parses `bezierCount`, checks `frame_count` against the input and hands the unread keys
/// to `deliver`; keys `deliver` leaves unread are skipped. `total` is the file length,
/// `above` adds the section path above the timeline to the error a failed read hands
/// `deliver`. That error unwinds from here whatever `deliver` returned; an error of
/// `deliver`'s own is returned as it is.
pub(crate) fn deliver_curve_frames<'a, V: WireChannels>(
    lim: &Lim,
    total: usize,
    above: Above<'_>,
    i: In<'a>,
    frame_count: usize,
    deliver: impl for<'r> FnOnce(CurveFrames<'r, 'a, V>) -> Result<(), BinaryError>,
) -> Res<'a, ()> {
    let (i, bezier_count) = varint(i)?;
    frames_checked::<V>(lim, i, frame_count)?;
    let mut cur = Cursor { rest: i, total, err: None };
    let delivered = deliver(CurveFrames::wire(&mut cur, lim, above, frame_count, bezier_count));
    if let Some(e) = cur.err {
        return Err(nom::Err::Error(e));
    }
    delivered.map_err(PErr::foreign)?;
    if cur.rest.len() == i.len() {
        return curve_frames::<V, _>(lim, i, frame_count, &mut Skip);
    }
    Ok((cur.rest, ()))
}

/// Rejects an empty timeline and a key count the rest of the input cannot hold.
#[inline]
pub(crate) fn frames_checked<V: WireChannels>(
    lim: &Lim,
    i: In<'_>,
    frame_count: usize,
) -> Result<(), nom::Err<PErr>> {
    if frame_count == 0 {
        return Err(PErr::invalid(i, "timeline has no keyframes"));
    }
    check_count(lim, i, i, "keyframe", frame_count as u64, 4 + V::WIRE_BYTES)
}

/// Parses `frame_count` (checked) keys into `sink`; errors get `frames[k]`.
#[inline]
pub(crate) fn curve_frames<'a, V: WireChannels, S: KeySink<V>>(
    lim: &Lim,
    i: In<'a>,
    frame_count: usize,
    sink: &mut S,
) -> Res<'a, ()> {
    each(frame_count, Some("frames"), |i, k| curve_key(lim, i, k, sink))(i)
}

/// One key: time, values and (after the first) the curve to it from the previous key.
#[inline(always)]
fn curve_key<'a, V: WireChannels, S: KeySink<V>>(
    lim: &Lim,
    i: In<'a>,
    k: usize,
    sink: &mut S,
) -> Res<'a, ()> {
    let (i, time) = f32(i)?;
    let (i, value) = V::parse(i)?;
    sink.key(time, &value);
    if k == 0 {
        return Ok((i, ()));
    }
    match i8(i)? {
        (i, 0) => Ok((i, ())),
        (i, 1) => {
            sink.curve(k - 1, CurveType::Stepped, &V::Beziers::default());
            Ok((i, ()))
        }
        (mut j, 2) => {
            check_count(lim, j, j, "bezier channel", V::COUNT as u64, 16)?;
            let mut bezier = V::Beziers::default();
            for b in bezier.as_mut() {
                (j, *b) = wire::f32s::<4>(j)?;
            }
            sink.curve(k - 1, CurveType::Bezier, &bezier);
            Ok((j, ()))
        }
        (_, v) => Err(PErr::bad_enum(i, "curve type", i64::from(v))),
    }
}

/// Writes `bezierCount` and the frames of a curve timeline (the frame count is the caller's).
pub(crate) fn write_curve_timeline<V: WireChannels>(w: &mut Writer, t: &CurveTimeline<V>) {
    w.varint(t.bezier_count);
    write_curve_frames(w, t);
}

/// Writes the frames of a curve timeline.
pub(crate) fn write_curve_frames<V: WireChannels>(w: &mut Writer, t: &CurveTimeline<V>) {
    let mut previous: Option<&CurveKey<V>> = None;
    for f in &t.frames {
        w.f32(f.time);
        f.value.write(w);
        if let Some(p) = previous.replace(f) {
            w.i8(p.curve.to_wire());
            if p.curve == CurveType::Bezier {
                for b in p.bezier.as_ref() {
                    for &x in b {
                        w.f32(x);
                    }
                }
            }
        }
    }
}
