//! Animations of a JSON skeleton: timelines and their keys, as written.

use super::keys::{
    deform_key, draw_order_offsets, event_key, ik_key, last, physics_property, required_color,
    sequence_key, two_color, xy,
};
use super::stream::AnimationSink;
use super::value::{array_len, as_f32, bezier, check_count, each_entry, each_into, Obj, J, P, R};
use super::{Inherit, PathMix, SequenceMode, TransformMix};
use crate::SpineVersion;
use serde::Serialize;

/// A key's `curve` as written. What it means depends on the version:
/// * 3.5–3.7: `"stepped"` is stepped, an array `[cx1, cy1, cx2, cy2]` is a bezier, anything
///   else is linear;
/// * 3.8: any string is stepped; a number is `cx1` of a bezier whose `cy1`, `cx2`, `cy2` are the
///   key's `c2`, `c3`, `c4` (defaults 0, 1, 1);
/// * 4.x: `"stepped"` is stepped, another string linear; an array holds 4 numbers
///   `cx1, cy1, cx2, cy2` per channel of the timeline (curve values unscaled, in value units).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum Curve {
    /// `"stepped"`.
    Stepped,
    /// Any other string (e.g. `"linear"`).
    Other(String),
    /// An array of numbers.
    Bezier(Bezier),
    /// 3.8: `"curve": cx1` with the key's `c2`, `c3`, `c4`.
    Number {
        /// `curve`.
        c1: f32,
        /// `c2` (default 0).
        c2: Option<f32>,
        /// `c3` (default 1).
        c3: Option<f32>,
        /// `c4` (default 1).
        c4: Option<f32>,
    },
}

/// The numbers of a bezier `curve` array (4 per channel in 4.x), used as a `[f32]` (read and
/// written in place; [`Vec<f32>`] in and out with `From`). Up to eight of them (two channels:
/// every 3.x curve and most 4.x ones) are held without a heap allocation.
#[derive(Clone)]
pub struct Bezier(BezierRepr);

#[derive(Clone)]
enum BezierRepr {
    Inline { len: u8, values: [f32; Bezier::INLINE] },
    Heap(Vec<f32>),
}

impl Bezier {
    /// The most numbers held inline.
    pub(crate) const INLINE: usize = 8;

    /// The numbers `v`.
    pub fn from_slice(v: &[f32]) -> Bezier {
        let mut values = [0.0; Bezier::INLINE];
        match values.get_mut(..v.len()) {
            Some(inline) => {
                inline.copy_from_slice(v);
                Bezier(BezierRepr::Inline { len: v.len() as u8, values })
            }
            None => Bezier(BezierRepr::Heap(v.to_vec())),
        }
    }

    /// The numbers.
    pub fn as_slice(&self) -> &[f32] {
        match &self.0 {
            BezierRepr::Inline { len, values } => {
                values.get(..usize::from(*len)).unwrap_or_default()
            }
            BezierRepr::Heap(v) => v,
        }
    }

    /// The first `len` (at most [`Bezier::INLINE`]) of `values`, held inline.
    pub(crate) fn inline(values: [f32; Bezier::INLINE], len: usize) -> Bezier {
        Bezier(BezierRepr::Inline { len: len.min(Bezier::INLINE) as u8, values })
    }

    /// The numbers, to change in place.
    pub fn as_mut_slice(&mut self) -> &mut [f32] {
        match &mut self.0 {
            BezierRepr::Inline { len, values } => {
                values.get_mut(..usize::from(*len)).unwrap_or_default()
            }
            BezierRepr::Heap(v) => v,
        }
    }
}

impl Default for Bezier {
    /// No numbers.
    fn default() -> Bezier {
        Bezier::from_slice(&[])
    }
}

impl std::ops::Deref for Bezier {
    type Target = [f32];
    fn deref(&self) -> &[f32] {
        self.as_slice()
    }
}

impl std::ops::DerefMut for Bezier {
    fn deref_mut(&mut self) -> &mut [f32] {
        self.as_mut_slice()
    }
}

impl AsRef<[f32]> for Bezier {
    fn as_ref(&self) -> &[f32] {
        self.as_slice()
    }
}

impl From<&[f32]> for Bezier {
    fn from(v: &[f32]) -> Bezier {
        Bezier::from_slice(v)
    }
}

impl<const N: usize> From<[f32; N]> for Bezier {
    fn from(v: [f32; N]) -> Bezier {
        Bezier::from_slice(&v)
    }
}

impl From<Bezier> for Vec<f32> {
    fn from(b: Bezier) -> Vec<f32> {
        match b.0 {
            BezierRepr::Heap(v) => v,
            BezierRepr::Inline { .. } => b.as_slice().to_vec(),
        }
    }
}

impl<'a> IntoIterator for &'a Bezier {
    type Item = &'a f32;
    type IntoIter = std::slice::Iter<'a, f32>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl PartialEq<[f32]> for Bezier {
    fn eq(&self, other: &[f32]) -> bool {
        self.as_slice() == other
    }
}

impl PartialEq<Vec<f32>> for Bezier {
    fn eq(&self, other: &Vec<f32>) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl From<Vec<f32>> for Bezier {
    fn from(v: Vec<f32>) -> Bezier {
        if v.len() <= Bezier::INLINE {
            Bezier::from_slice(&v)
        } else {
            Bezier(BezierRepr::Heap(v))
        }
    }
}

impl FromIterator<f32> for Bezier {
    fn from_iter<I: IntoIterator<Item = f32>>(iter: I) -> Bezier {
        Bezier::from(iter.into_iter().collect::<Vec<f32>>())
    }
}

impl PartialEq for Bezier {
    fn eq(&self, other: &Bezier) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl std::fmt::Debug for Bezier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_slice().fmt(f)
    }
}

impl Serialize for Bezier {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(s)
    }
}

/// One key of a timeline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Key<V> {
    /// `time` (default 0; required by the 3.5–3.7 loaders).
    pub time: f32,
    /// `curve` to the next key (only read for curve timelines; absent = linear).
    pub curve: Option<Curve>,
    /// The key's values.
    pub value: V,
}

/// `x`, `y` of translate/scale/shear keys (default 0, or 1 for scale since 3.8 — 0 in 3.5–3.7).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Xy {
    /// `x`.
    pub x: Option<f32>,
    /// `y`.
    pub y: Option<f32>,
}

/// `light` (RGBA) and `dark` (RGB, alpha ignored) colors of a two-color key (both required).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TwoColor {
    /// `light`.
    pub light: [u8; 4],
    /// `dark`.
    pub dark: [u8; 4],
}

/// Values of an IK constraint key.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct IkKey {
    /// `mix` (default 1).
    pub mix: Option<f32>,
    /// `softness` (3.8+; default 0; scaled).
    pub softness: Option<f32>,
    /// `bendPositive` (default true).
    pub bend_positive: Option<bool>,
    /// `compress` (3.7+; default false).
    pub compress: Option<bool>,
    /// `stretch` (3.7+; default false).
    pub stretch: Option<bool>,
}

/// Values of a deform key.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct DeformKey {
    /// `offset` of the first vertex value (default 0).
    pub offset: Option<i32>,
    /// `vertices` (absent: the setup pose, or zero offsets when weighted).
    pub vertices: Option<Vec<f32>>,
}

/// Values of a sequence key (4.1+).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct SequenceKey {
    /// `mode` (default `hold`).
    pub mode: Option<SequenceMode>,
    /// `index` (default 0).
    pub index: Option<i32>,
    /// `delay` (default: the previous key's delay, 0 for the first).
    pub delay: Option<f32>,
}

/// One changed slot of a draw order key.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DrawOrderOffset {
    /// `slot` name (required).
    pub slot: String,
    /// `offset` from the setup position (required).
    pub offset: i32,
}

/// Values of an event key. `int`, `float`, `string` default to the event definition's, and
/// `volume`, `balance` too (read only when the definition has `audio`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct EventKey {
    /// `name` of the event definition (required).
    pub name: crate::Name,
    /// `int`.
    pub int: Option<i32>,
    /// `float`.
    pub float: Option<f32>,
    /// `string`.
    pub string: Option<String>,
    /// `volume` (3.7+).
    pub volume: Option<f32>,
    /// `balance` (3.7+).
    pub balance: Option<f32>,
}

/// Single-value keys: `value` in 4.x (3.x rotate: `angle`; 3.x path: `position` / `spacing`).
/// Defaults: 0, except 1 for scale X/Y.
pub type Keys1 = Vec<Key<Option<f32>>>;

/// A slot timeline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum SlotTimeline {
    /// `attachment`: keys with the attachment `name` (`None`: hide).
    Attachment(Vec<Key<Option<String>>>),
    /// `color` (3.x) / `rgba` (4.x): `color` (required).
    Rgba(Vec<Key<[u8; 4]>>),
    /// `rgb` (4.x): `color` (required; alpha ignored).
    Rgb(Vec<Key<[u8; 4]>>),
    /// `alpha` (4.x).
    Alpha(Keys1),
    /// `twoColor` (3.6–3.8) / `rgba2` (4.x).
    Rgba2(Vec<Key<TwoColor>>),
    /// `rgb2` (4.x).
    Rgb2(Vec<Key<TwoColor>>),
}

/// A bone timeline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum BoneTimeline {
    /// `rotate`.
    Rotate(Keys1),
    /// `translate`.
    Translate(Vec<Key<Xy>>),
    /// `translatex` (4.x).
    TranslateX(Keys1),
    /// `translatey` (4.x).
    TranslateY(Keys1),
    /// `scale`.
    Scale(Vec<Key<Xy>>),
    /// `scalex` (4.x).
    ScaleX(Keys1),
    /// `scaley` (4.x).
    ScaleY(Keys1),
    /// `shear`.
    Shear(Vec<Key<Xy>>),
    /// `shearx` (4.x).
    ShearX(Keys1),
    /// `sheary` (4.x).
    ShearY(Keys1),
    /// `inherit` (4.2; default `normal`).
    Inherit(Vec<Key<Option<Inherit>>>),
}

/// A path constraint timeline (unknown names are skipped, as the loaders do).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum PathTimeline {
    /// `position`.
    Position(Keys1),
    /// `spacing`.
    Spacing(Keys1),
    /// `mix`.
    Mix(Vec<Key<PathMix>>),
}

/// A physics constraint property (4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum PhysicsProperty {
    /// `inertia`.
    Inertia,
    /// `strength`.
    Strength,
    /// `damping`.
    Damping,
    /// `mass`.
    Mass,
    /// `wind`.
    Wind,
    /// `gravity`.
    Gravity,
    /// `mix`.
    Mix,
}

/// A physics constraint timeline (4.2; unknown names are skipped, as the loader does).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum PhysicsTimeline {
    /// `reset`: keys with only a time.
    Reset(Vec<Key<()>>),
    /// A property's values.
    Value(PhysicsProperty, Keys1),
}

/// A timeline of one attachment.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum AttachmentTimeline {
    /// `deform`.
    Deform(Vec<Key<DeformKey>>),
    /// `sequence` (4.1+).
    Sequence(Vec<Key<SequenceKey>>),
}

/// The timelines of one attachment of one slot in one skin.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AttachmentTimelines {
    /// Skin name.
    pub skin: String,
    /// Slot name.
    pub slot: String,
    /// Attachment (skin placeholder) name.
    pub attachment: String,
    /// Timelines in file order.
    pub timelines: Vec<AttachmentTimeline>,
}

/// Something named with its timelines.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Named<T> {
    /// The bone, slot or constraint name (physics: empty for "all constraints").
    pub name: crate::Name,
    /// The timelines.
    pub timelines: T,
}

/// An animation.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Animation {
    /// The key in `animations`.
    pub name: crate::Name,
    /// `slots.<slot>.<timeline>`.
    pub slots: Vec<Named<Vec<SlotTimeline>>>,
    /// `bones.<bone>.<timeline>`.
    pub bones: Vec<Named<Vec<BoneTimeline>>>,
    /// `ik.<constraint>`: keys.
    pub ik: Vec<Named<Vec<Key<IkKey>>>>,
    /// `transform.<constraint>`: keys.
    pub transform: Vec<Named<Vec<Key<TransformMix>>>>,
    /// `path` (3.8+) / `paths` (3.5–3.7) `.<constraint>.<timeline>`.
    pub path: Vec<Named<Vec<PathTimeline>>>,
    /// `physics.<constraint>.<timeline>` (4.2).
    pub physics: Vec<Named<Vec<PhysicsTimeline>>>,
    /// `deform.<skin>.<slot>.<attachment>` (≤4.0) and
    /// `attachments.<skin>.<slot>.<attachment>.<deform|sequence>` (4.1+), flattened.
    pub attachments: Vec<AttachmentTimelines>,
    /// `drawOrder` (3.5–3.7 also `draworder`): keys with optional `offsets`.
    pub draw_order: Option<Vec<Key<Option<Vec<DrawOrderOffset>>>>>,
    /// `events` keys.
    pub events: Option<Vec<Key<EventKey>>>,
}

impl Animation {
    /// The duration as the loaders compute it: the largest last-key time over all timelines.
    pub fn duration(&self) -> f32 {
        let mut d = 0f32;
        let mut add = |t: f32| d = d.max(t);
        self.slots.iter().flat_map(|n| &n.timelines).for_each(|t| add(t.end()));
        self.bones.iter().flat_map(|n| &n.timelines).for_each(|t| add(t.end()));
        self.ik.iter().for_each(|n| add(last(&n.timelines)));
        self.transform.iter().for_each(|n| add(last(&n.timelines)));
        self.path.iter().flat_map(|n| &n.timelines).for_each(|t| add(t.end()));
        self.physics.iter().flat_map(|n| &n.timelines).for_each(|t| add(t.end()));
        self.attachments.iter().flat_map(|a| &a.timelines).for_each(|t| add(t.end()));
        if let Some(k) = &self.draw_order {
            add(last(k));
        }
        if let Some(k) = &self.events {
            add(last(k));
        }
        d
    }
}

impl PathTimeline {
    /// The time of its last key.
    fn end(&self) -> f32 {
        match self {
            PathTimeline::Position(k) | PathTimeline::Spacing(k) => last(k),
            PathTimeline::Mix(k) => last(k),
        }
    }
}

/// The `curve` of a key (`v`: its value, as `o.get("curve")` finds it).
fn read_curve<'a>(o: &Obj<'a>, v: Option<J<'a>>) -> R<Option<Curve>> {
    o.opt_of("curve", v, |v, p| match (v.str(), v.num()) {
        (Some("stepped"), _) => Ok(Curve::Stepped),
        (Some(s), _) => Ok(Curve::Other(s.to_owned())),
        (None, Some(n)) => {
            Ok(Curve::Number { c1: n as f32, c2: o.f32("c2")?, c3: o.f32("c3")?, c4: o.f32("c4")? })
        }
        _ if v.items().is_some() => {
            check_count(v, p, "bezier value", array_len(v).unwrap_or(0))?;
            bezier(v, p).map(Curve::Bezier)
        }
        _ => Err(p.expected("\"stepped\", a number or an array of numbers", v)),
    })
}

/// Reads an array of keys. `channels` is the number of curve channels (0: the timeline has no
/// curves). A bezier curve of a key that has a next key must hold 4 numbers (3.x) or 4 per
/// channel (4.x), as the loaders index them. The key count is checked against
/// [`crate::Limits::max_keyframes`].
fn keys<V>(
    v: J<'_>,
    p: &P,
    ver: SpineVersion,
    channels: usize,
    f: impl FnMut(&Obj) -> R<V>,
) -> R<Vec<Key<V>>> {
    keys_of("keyframe", v, p, ver, channels, f)
}

/// [`keys`] of `what` (`"event key"`, `"draw order key"`: the binary parsers' labels).
fn keys_of<V>(
    what: &'static str,
    v: J<'_>,
    p: &P,
    ver: SpineVersion,
    channels: usize,
    f: impl FnMut(&Obj) -> R<V>,
) -> R<Vec<Key<V>>> {
    let mut out = Vec::new();
    keys_into(what, v, p, ver, channels, f, &mut out)?;
    Ok(out)
}

/// [`keys_of`] into `out` (cleared first; its storage is reused).
fn keys_into<V>(
    what: &'static str,
    v: J<'_>,
    p: &P,
    ver: SpineVersion,
    channels: usize,
    mut f: impl FnMut(&Obj) -> R<V>,
    out: &mut Vec<Key<V>>,
) -> R<()> {
    let Some(n) = v.items().map(|a| a.len()) else {
        return Err(p.expected("an array of keys", v));
    };
    each_into(v, p, what, out, |x, kp| {
        let o = Obj::new(x, kp)?;
        // `time` and `curve` found in one pass, read in that order.
        let (time, curve) =
            if channels > 0 { o.get2("time", "curve") } else { (o.get("time"), None) };
        let time = if ver < SpineVersion::V3_8 {
            o.req_of("time", time, as_f32)?
        } else {
            o.opt_of("time", time, as_f32)?.unwrap_or(0.0)
        };
        let curve = if channels > 0 { read_curve(&o, curve)? } else { None };
        let has_next = kp_index(kp).is_some_and(|i| i + 1 < n);
        match &curve {
            Some(Curve::Bezier(c)) if has_next => {
                let need = if ver.is_v3() { 4 } else { 4 * channels };
                if c.len() < need {
                    return Err(kp.key("curve").err(format!(
                        "expected at least {need} curve numbers, found {}",
                        c.len()
                    )));
                }
            }
            // The 4.x loaders index into the curve value as an array.
            Some(Curve::Number { .. }) if has_next && !ver.is_v3() => {
                return Err(kp.key("curve").err(format!(
                    "expected \"stepped\" or an array of {} numbers (4 per channel), found a number",
                    4 * channels
                )));
            }
            _ => {}
        }
        Ok(Key { time, curve, value: f(&o)? })
    })
}

/// The index of a key path's last segment (keys are always read through `each_into`).
fn kp_index(p: &P) -> Option<usize> {
    p.last_index()
}

/// `Some(())` when a 4.x loader would skip this slot/bone timeline without looking at its name:
/// it has no keys. Such timelines are left out of the AST.
fn skip_empty(v: J<'_>, ver: SpineVersion) -> Option<()> {
    match v.items() {
        Some(a) if a.len() == 0 && !ver.is_v3() => Some(()),
        _ => None,
    }
}

/// Keys of one value named `name`.
fn keys1(v: J<'_>, p: &P<'_>, ver: SpineVersion, name: &str) -> R<Keys1> {
    keys(v, p, ver, 1, |o| o.f32(name))
}

/// The key lists of the slot, bone, IK and transform timelines, reused from one timeline to
/// the next while animations are streamed (a sink borrows them, or takes them: then the next
/// timeline of the kind starts a new list).
#[derive(Default)]
pub(crate) struct KeyBuffers {
    values: Keys1,
    xy: Vec<Key<Xy>>,
    colors: Vec<Key<[u8; 4]>>,
    two_colors: Vec<Key<TwoColor>>,
    names: Vec<Key<Option<String>>>,
    inherit: Vec<Key<Option<Inherit>>>,
    ik: Vec<Key<IkKey>>,
    transform: Vec<Key<TransformMix>>,
}

impl KeyBuffers {
    /// Takes back the key list of a slot timeline the sink has seen.
    fn recycle_slot(&mut self, t: SlotTimeline) {
        match t {
            SlotTimeline::Attachment(k) => self.names = k,
            SlotTimeline::Rgba(k) | SlotTimeline::Rgb(k) => self.colors = k,
            SlotTimeline::Alpha(k) => self.values = k,
            SlotTimeline::Rgba2(k) | SlotTimeline::Rgb2(k) => self.two_colors = k,
        }
    }

    /// Takes back the key list of a bone timeline the sink has seen.
    fn recycle_bone(&mut self, t: BoneTimeline) {
        use BoneTimeline as B;
        match t {
            B::Rotate(k)
            | B::TranslateX(k)
            | B::TranslateY(k)
            | B::ScaleX(k)
            | B::ScaleY(k)
            | B::ShearX(k)
            | B::ShearY(k) => self.values = k,
            B::Translate(k) | B::Scale(k) | B::Shear(k) => self.xy = k,
            B::Inherit(k) => self.inherit = k,
        }
    }
}

/// Keys into the buffer `buf` (taken; given back by the `recycle` functions).
fn keys_in<V>(
    buf: &mut Vec<Key<V>>,
    v: J<'_>,
    p: &P<'_>,
    ver: SpineVersion,
    channels: usize,
    f: impl FnMut(&Obj) -> R<V>,
) -> R<Vec<Key<V>>> {
    let mut out = std::mem::take(buf);
    keys_into("keyframe", v, p, ver, channels, f, &mut out)?;
    Ok(out)
}

/// A slot timeline `name`, spelled as `ver` spells it.
fn read_slot_timeline(
    name: &str,
    v: J<'_>,
    p: &P<'_>,
    ver: SpineVersion,
    b: &mut KeyBuffers,
) -> R<SlotTimeline> {
    let color = |o: &Obj| required_color(o, "color");
    Ok(match (name, ver.is_v3()) {
        ("attachment", _) => {
            SlotTimeline::Attachment(keys_in(&mut b.names, v, p, ver, 0, |o| o.string("name"))?)
        }
        ("color", true) => SlotTimeline::Rgba(keys_in(&mut b.colors, v, p, ver, 1, color)?),
        ("twoColor", true) => {
            SlotTimeline::Rgba2(keys_in(&mut b.two_colors, v, p, ver, 1, two_color)?)
        }
        ("rgba", false) => SlotTimeline::Rgba(keys_in(&mut b.colors, v, p, ver, 4, color)?),
        ("rgb", false) => SlotTimeline::Rgb(keys_in(&mut b.colors, v, p, ver, 3, color)?),
        ("alpha", false) => {
            SlotTimeline::Alpha(keys_in(&mut b.values, v, p, ver, 1, |o| o.f32("value"))?)
        }
        ("rgba2", false) => {
            SlotTimeline::Rgba2(keys_in(&mut b.two_colors, v, p, ver, 7, two_color)?)
        }
        ("rgb2", false) => SlotTimeline::Rgb2(keys_in(&mut b.two_colors, v, p, ver, 6, two_color)?),
        _ => {
            let valid = if ver.is_v3() {
                "attachment, color, twoColor"
            } else {
                "attachment, rgba, rgb, alpha, rgba2, rgb2"
            };
            return Err(p.err(format!("unknown slot timeline {name:?} (expected one of {valid})")));
        }
    })
}

/// A bone timeline `name`, spelled as `ver` spells it.
fn read_bone_timeline(
    name: &str,
    v: J<'_>,
    p: &P<'_>,
    ver: SpineVersion,
    b: &mut KeyBuffers,
) -> R<BoneTimeline> {
    use BoneTimeline as B;
    let v4 = !ver.is_v3();
    let value = |o: &Obj| o.f32("value");
    Ok(match name {
        "rotate" => {
            let key = if v4 { "value" } else { "angle" };
            B::Rotate(keys_in(&mut b.values, v, p, ver, 1, |o| o.f32(key))?)
        }
        "translate" => B::Translate(keys_in(&mut b.xy, v, p, ver, 2, xy)?),
        "scale" => B::Scale(keys_in(&mut b.xy, v, p, ver, 2, xy)?),
        "shear" => B::Shear(keys_in(&mut b.xy, v, p, ver, 2, xy)?),
        "translatex" if v4 => B::TranslateX(keys_in(&mut b.values, v, p, ver, 1, value)?),
        "translatey" if v4 => B::TranslateY(keys_in(&mut b.values, v, p, ver, 1, value)?),
        "scalex" if v4 => B::ScaleX(keys_in(&mut b.values, v, p, ver, 1, value)?),
        "scaley" if v4 => B::ScaleY(keys_in(&mut b.values, v, p, ver, 1, value)?),
        "shearx" if v4 => B::ShearX(keys_in(&mut b.values, v, p, ver, 1, value)?),
        "sheary" if v4 => B::ShearY(keys_in(&mut b.values, v, p, ver, 1, value)?),
        "inherit" if ver >= SpineVersion::V4_2 => {
            B::Inherit(keys_in(&mut b.inherit, v, p, ver, 0, |o| o.opt("inherit", Inherit::read))?)
        }
        _ => return Err(p.err(format!("unknown bone timeline {name:?}"))),
    })
}

/// The timelines of one path constraint (unknown names are ignored).
fn read_path_timelines(v: J<'_>, p: &P<'_>, ver: SpineVersion) -> R<Vec<PathTimeline>> {
    let mut timelines = Vec::new();
    each_entry(v, p, "path timeline", |tl, v, p| {
        let value_key = if ver.is_v3() { tl } else { "value" };
        match tl {
            "position" => timelines.push(PathTimeline::Position(keys1(v, p, ver, value_key)?)),
            "spacing" => timelines.push(PathTimeline::Spacing(keys1(v, p, ver, value_key)?)),
            "mix" => timelines.push(PathTimeline::Mix(keys(v, p, ver, 3, PathMix::read)?)),
            _ => {}
        }
        Ok(())
    })?;
    Ok(timelines)
}

/// The timelines of one physics constraint (unknown names are ignored).
fn read_physics_timelines(v: J<'_>, p: &P<'_>, ver: SpineVersion) -> R<Vec<PhysicsTimeline>> {
    let mut timelines = Vec::new();
    each_entry(v, p, "physics timeline", |tl, v, p| {
        if tl == "reset" {
            timelines.push(PhysicsTimeline::Reset(keys(v, p, ver, 0, |_| Ok(()))?));
        } else if let Some(prop) = physics_property(tl) {
            timelines.push(PhysicsTimeline::Value(prop, keys1(v, p, ver, "value")?));
        }
        Ok(())
    })?;
    Ok(timelines)
}

/// The 4.1+ timelines of one attachment: `deform` and `sequence` (others are ignored).
fn read_attachment_timelines(v: J<'_>, p: &P<'_>, ver: SpineVersion) -> R<Vec<AttachmentTimeline>> {
    let mut t = Vec::new();
    each_entry(v, p, "timeline", |tl, v, p| {
        match tl {
            "deform" => t.push(AttachmentTimeline::Deform(keys(v, p, ver, 1, deform_key)?)),
            "sequence" => t.push(AttachmentTimeline::Sequence(keys(v, p, ver, 0, sequence_key)?)),
            _ => {}
        }
        Ok(())
    })?;
    Ok(t)
}

/// The attachment timelines, skin > slot > attachment, into the sink: `deform` (≤4.0, deform
/// keys directly) or `attachments` (4.1+, timelines by name).
fn read_attachments<S: AnimationSink + ?Sized>(o: &Obj, ver: SpineVersion, sink: &mut S) -> R<()> {
    let nested = ver >= SpineVersion::V4_1;
    o.opt(if nested { "attachments" } else { "deform" }, |v, p| {
        each_entry(v, p, "skin", |skin, v, p| {
            each_entry(v, p, "slot", |slot, v, p| {
                each_entry(v, p, "attachment", |att, v, p| {
                    let mut timelines = if nested {
                        read_attachment_timelines(v, p, ver)?
                    } else {
                        vec![AttachmentTimeline::Deform(keys(v, p, ver, 1, deform_key)?)]
                    };
                    sink.take_attachment(skin, slot, att, &mut timelines);
                    Ok(())
                })
            })
        })
    })?;
    Ok(())
}

/// Reads one animation into `sink`, in file order of its families (the order of
/// [`AnimationSink`]); `b` holds the key lists it reuses.
pub(crate) fn read_animation<S: AnimationSink + ?Sized>(
    name: &str,
    o: &Obj,
    ver: SpineVersion,
    b: &mut KeyBuffers,
    sink: &mut S,
) -> R<()> {
    sink.begin(name);
    o.opt("slots", |v, p| {
        each_entry(v, p, "slot", |slot, v, p| {
            sink.slot(slot);
            each_entry(v, p, "slot timeline", |tl, v, p| {
                if skip_empty(v, ver).is_none() {
                    let mut t = read_slot_timeline(tl, v, p, ver, b)?;
                    sink.take_slot_timeline(&mut t);
                    b.recycle_slot(t);
                }
                Ok(())
            })?;
            sink.slot_end();
            Ok(())
        })
    })?;
    o.opt("bones", |v, p| {
        each_entry(v, p, "bone", |bone, v, p| {
            sink.bone(bone);
            each_entry(v, p, "bone timeline", |tl, v, p| {
                if skip_empty(v, ver).is_none() {
                    let mut t = read_bone_timeline(tl, v, p, ver, b)?;
                    sink.take_bone_timeline(&mut t);
                    b.recycle_bone(t);
                }
                Ok(())
            })?;
            sink.bone_end();
            Ok(())
        })
    })?;
    o.opt("ik", |v, p| {
        each_entry(v, p, "ik timeline", |name, v, p| {
            let mut keys = keys_in(&mut b.ik, v, p, ver, 2, ik_key)?;
            sink.take_ik(name, &mut keys);
            b.ik = keys;
            Ok(())
        })
    })?;
    o.opt("transform", |v, p| {
        each_entry(v, p, "transform timeline", |name, v, p| {
            let mut keys = keys_in(&mut b.transform, v, p, ver, 6, TransformMix::read)?;
            sink.take_transform(name, &mut keys);
            b.transform = keys;
            Ok(())
        })
    })?;
    let path_key = if ver < SpineVersion::V3_8 { "paths" } else { "path" };
    o.opt(path_key, |v, p| {
        each_entry(v, p, "path constraint", |name, v, p| {
            sink.take_path(name, &mut read_path_timelines(v, p, ver)?);
            Ok(())
        })
    })?;
    if ver >= SpineVersion::V4_2 {
        o.opt("physics", |v, p| {
            each_entry(v, p, "physics constraint", |name, v, p| {
                sink.take_physics(name, &mut read_physics_timelines(v, p, ver)?);
                Ok(())
            })
        })?;
    }
    read_attachments(o, ver, sink)?;
    let draw_order_key =
        if ver < SpineVersion::V3_8 && !o.has("drawOrder") { "draworder" } else { "drawOrder" };
    let draw_order =
        o.opt(draw_order_key, |v, p| keys_of("draw order key", v, p, ver, 0, draw_order_offsets))?;
    if let Some(mut keys) = draw_order {
        sink.take_draw_order(&mut keys);
    }
    let events = o.opt("events", |v, p| keys_of("event key", v, p, ver, 0, event_key))?;
    if let Some(mut keys) = events {
        sink.take_events(&mut keys);
    }
    sink.end();
    Ok(())
}

#[cfg(test)]
mod bezier_tests {
    use super::Bezier;

    /// Inline (up to eight numbers) or not, a `Bezier` reads, edits, compares, prints and
    /// converts as the `Vec<f32>` it replaced.
    #[test]
    fn bezier_is_used_like_a_vec() {
        for n in [0usize, 1, 4, 8, 9, 16] {
            let v: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
            let mut b = Bezier::from(v.clone());
            assert_eq!(b, v);
            assert_eq!(format!("{b:?}"), format!("{v:?}"));
            assert_eq!(serde_json::to_string(&b).ok(), serde_json::to_string(&v).ok());
            if let Some(x) = b.first_mut() {
                *x = 7.0;
            }
            let mut w = v.clone();
            if let Some(x) = w.first_mut() {
                *x = 7.0;
            }
            assert_eq!(b.iter().sum::<f32>(), (&b).into_iter().sum::<f32>());
            assert_eq!(Vec::from(b.clone()), w);
            assert_eq!(Bezier::from(w.as_slice()), b);
            assert_eq!(b.len(), n);
        }
        assert_eq!(Bezier::default(), Vec::<f32>::new());
        assert_eq!(Bezier::from([1.0, 2.0]).as_ref(), &[1.0, 2.0]);
    }
}
