//! Animations of a JSON skeleton: timelines and their keys, as written.

use super::value::{
    array_len, as_f32, check_count, each, each_named, each_named_some, f32s, Obj, J, P, R,
};
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
    Bezier(Vec<f32>),
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
    pub name: String,
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
    pub name: String,
    /// The timelines.
    pub timelines: T,
}

/// An animation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Animation {
    /// The key in `animations`.
    pub name: String,
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

fn last<V>(keys: &[Key<V>]) -> f32 {
    keys.last().map_or(0.0, |k| k.time)
}

impl Animation {
    /// The duration as the loaders compute it: the largest last-key time over all timelines.
    pub fn duration(&self) -> f32 {
        let mut d = 0f32;
        let mut add = |t: f32| d = d.max(t);
        for n in &self.slots {
            for t in &n.timelines {
                add(match t {
                    SlotTimeline::Attachment(k) => last(k),
                    SlotTimeline::Rgba(k) | SlotTimeline::Rgb(k) => last(k),
                    SlotTimeline::Alpha(k) => last(k),
                    SlotTimeline::Rgba2(k) | SlotTimeline::Rgb2(k) => last(k),
                });
            }
        }
        for n in &self.bones {
            for t in &n.timelines {
                add(match t {
                    BoneTimeline::Rotate(k)
                    | BoneTimeline::TranslateX(k)
                    | BoneTimeline::TranslateY(k)
                    | BoneTimeline::ScaleX(k)
                    | BoneTimeline::ScaleY(k)
                    | BoneTimeline::ShearX(k)
                    | BoneTimeline::ShearY(k) => last(k),
                    BoneTimeline::Translate(k)
                    | BoneTimeline::Scale(k)
                    | BoneTimeline::Shear(k) => last(k),
                    BoneTimeline::Inherit(k) => last(k),
                });
            }
        }
        self.ik.iter().for_each(|n| add(last(&n.timelines)));
        self.transform.iter().for_each(|n| add(last(&n.timelines)));
        for n in &self.path {
            for t in &n.timelines {
                add(match t {
                    PathTimeline::Position(k) | PathTimeline::Spacing(k) => last(k),
                    PathTimeline::Mix(k) => last(k),
                });
            }
        }
        for n in &self.physics {
            for t in &n.timelines {
                add(match t {
                    PhysicsTimeline::Reset(k) => last(k),
                    PhysicsTimeline::Value(_, k) => last(k),
                });
            }
        }
        for a in &self.attachments {
            for t in &a.timelines {
                add(match t {
                    AttachmentTimeline::Deform(k) => last(k),
                    AttachmentTimeline::Sequence(k) => last(k),
                });
            }
        }
        if let Some(k) = &self.draw_order {
            add(last(k));
        }
        if let Some(k) = &self.events {
            add(last(k));
        }
        d
    }
}

fn read_curve(o: &Obj) -> R<Option<Curve>> {
    o.opt("curve", |v, p| match (v.str(), v.num()) {
        (Some("stepped"), _) => Ok(Curve::Stepped),
        (Some(s), _) => Ok(Curve::Other(s.to_owned())),
        (None, Some(n)) => {
            Ok(Curve::Number { c1: n as f32, c2: o.f32("c2")?, c3: o.f32("c3")?, c4: o.f32("c4")? })
        }
        _ if v.items().is_some() => {
            check_count(v, p, "bezier value", array_len(v).unwrap_or(0))?;
            f32s(v, p).map(Curve::Bezier)
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
    mut f: impl FnMut(&Obj) -> R<V>,
) -> R<Vec<Key<V>>> {
    let Some(n) = v.items().map(|a| a.len()) else {
        return Err(p.expected("an array of keys", v));
    };
    each(v, p, what, |x, kp| {
        let o = Obj::new(x, kp)?;
        let time = if ver < SpineVersion::V3_8 {
            o.req("time", as_f32)?
        } else {
            o.f32("time")?.unwrap_or(0.0)
        };
        let curve = if channels > 0 { read_curve(&o)? } else { None };
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

/// The index of a key path's last segment (keys are always read through `each`).
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

fn keys1(v: J<'_>, p: &P<'_>, ver: SpineVersion, name: &str) -> R<Keys1> {
    keys(v, p, ver, 1, |o| o.f32(name))
}

fn keys_xy(v: J<'_>, p: &P<'_>, ver: SpineVersion) -> R<Vec<Key<Xy>>> {
    keys(v, p, ver, 2, |o| Ok(Xy { x: o.f32("x")?, y: o.f32("y")? }))
}

fn required_color(o: &Obj, k: &str) -> R<[u8; 4]> {
    o.req(k, super::value::as_color)
}

fn read_slot_timeline(name: &str, v: J<'_>, p: &P<'_>, ver: SpineVersion) -> R<SlotTimeline> {
    let two = |o: &Obj| {
        Ok(TwoColor { light: required_color(o, "light")?, dark: required_color(o, "dark")? })
    };
    Ok(match (name, ver.is_v3()) {
        ("attachment", _) => SlotTimeline::Attachment(keys(v, p, ver, 0, |o| o.string("name"))?),
        ("color", true) => SlotTimeline::Rgba(keys(v, p, ver, 1, |o| required_color(o, "color"))?),
        ("twoColor", true) => SlotTimeline::Rgba2(keys(v, p, ver, 1, two)?),
        ("rgba", false) => SlotTimeline::Rgba(keys(v, p, ver, 4, |o| required_color(o, "color"))?),
        ("rgb", false) => SlotTimeline::Rgb(keys(v, p, ver, 3, |o| required_color(o, "color"))?),
        ("alpha", false) => SlotTimeline::Alpha(keys1(v, p, ver, "value")?),
        ("rgba2", false) => SlotTimeline::Rgba2(keys(v, p, ver, 7, two)?),
        ("rgb2", false) => SlotTimeline::Rgb2(keys(v, p, ver, 6, two)?),
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

fn read_bone_timeline(name: &str, v: J<'_>, p: &P<'_>, ver: SpineVersion) -> R<BoneTimeline> {
    use BoneTimeline as B;
    let v4 = !ver.is_v3();
    Ok(match name {
        "rotate" => B::Rotate(keys1(v, p, ver, if v4 { "value" } else { "angle" })?),
        "translate" => B::Translate(keys_xy(v, p, ver)?),
        "scale" => B::Scale(keys_xy(v, p, ver)?),
        "shear" => B::Shear(keys_xy(v, p, ver)?),
        "translatex" if v4 => B::TranslateX(keys1(v, p, ver, "value")?),
        "translatey" if v4 => B::TranslateY(keys1(v, p, ver, "value")?),
        "scalex" if v4 => B::ScaleX(keys1(v, p, ver, "value")?),
        "scaley" if v4 => B::ScaleY(keys1(v, p, ver, "value")?),
        "shearx" if v4 => B::ShearX(keys1(v, p, ver, "value")?),
        "sheary" if v4 => B::ShearY(keys1(v, p, ver, "value")?),
        "inherit" if ver >= SpineVersion::V4_2 => {
            B::Inherit(keys(v, p, ver, 0, |o| o.opt("inherit", Inherit::read))?)
        }
        _ => return Err(p.err(format!("unknown bone timeline {name:?}"))),
    })
}

fn read_deform_keys(v: J<'_>, p: &P<'_>, ver: SpineVersion) -> R<Vec<Key<DeformKey>>> {
    keys(v, p, ver, 1, |o| {
        Ok(DeformKey { offset: o.i32("offset")?, vertices: o.floats("vertices", "deform value")? })
    })
}

/// Reads one animation.
pub(super) fn read_animation(name: &str, o: &Obj, ver: SpineVersion) -> R<Animation> {
    let slots = o
        .opt("slots", |v, p| {
            each_named(v, p, "slot", |slot, v, p| {
                let timelines = each_named_some(v, p, "slot timeline", |tl, v, p| {
                    skip_empty(v, ver)
                        .map_or_else(|| read_slot_timeline(tl, v, p, ver).map(Some), |_| Ok(None))
                })?;
                Ok(Named { name: slot.to_owned(), timelines })
            })
        })?
        .unwrap_or_default();
    let bones = o
        .opt("bones", |v, p| {
            each_named(v, p, "bone", |bone, v, p| {
                let timelines = each_named_some(v, p, "bone timeline", |tl, v, p| {
                    skip_empty(v, ver)
                        .map_or_else(|| read_bone_timeline(tl, v, p, ver).map(Some), |_| Ok(None))
                })?;
                Ok(Named { name: bone.to_owned(), timelines })
            })
        })?
        .unwrap_or_default();
    let ik = o
        .opt("ik", |v, p| {
            each_named(v, p, "ik timeline", |c, v, p| {
                let timelines = keys(v, p, ver, 2, |o| {
                    Ok(IkKey {
                        mix: o.f32("mix")?,
                        softness: o.f32("softness")?,
                        bend_positive: o.bool("bendPositive")?,
                        compress: o.bool("compress")?,
                        stretch: o.bool("stretch")?,
                    })
                })?;
                Ok(Named { name: c.to_owned(), timelines })
            })
        })?
        .unwrap_or_default();
    let transform = o
        .opt("transform", |v, p| {
            each_named(v, p, "transform timeline", |c, v, p| {
                Ok(Named { name: c.to_owned(), timelines: keys(v, p, ver, 6, TransformMix::read)? })
            })
        })?
        .unwrap_or_default();
    let path_key = if ver < SpineVersion::V3_8 { "paths" } else { "path" };
    let path = o
        .opt(path_key, |v, p| {
            each_named(v, p, "path constraint", |c, v, p| {
                let mut timelines = Vec::new();
                each_named(v, p, "path timeline", |tl, v, p| {
                    let value_key = if ver.is_v3() { tl } else { "value" };
                    match tl {
                        "position" => {
                            timelines.push(PathTimeline::Position(keys1(v, p, ver, value_key)?))
                        }
                        "spacing" => {
                            timelines.push(PathTimeline::Spacing(keys1(v, p, ver, value_key)?))
                        }
                        "mix" => {
                            timelines.push(PathTimeline::Mix(keys(v, p, ver, 3, PathMix::read)?))
                        }
                        _ => {}
                    }
                    Ok(())
                })?;
                Ok(Named { name: c.to_owned(), timelines })
            })
        })?
        .unwrap_or_default();
    let physics = if ver >= SpineVersion::V4_2 {
        o.opt("physics", |v, p| {
            each_named(v, p, "physics constraint", |c, v, p| {
                let mut timelines = Vec::new();
                each_named(v, p, "physics timeline", |tl, v, p| {
                    use PhysicsProperty as Pp;
                    let prop = match tl {
                        "reset" => {
                            timelines.push(PhysicsTimeline::Reset(keys(v, p, ver, 0, |_| Ok(()))?));
                            return Ok(());
                        }
                        "inertia" => Pp::Inertia,
                        "strength" => Pp::Strength,
                        "damping" => Pp::Damping,
                        "mass" => Pp::Mass,
                        "wind" => Pp::Wind,
                        "gravity" => Pp::Gravity,
                        "mix" => Pp::Mix,
                        _ => return Ok(()),
                    };
                    timelines.push(PhysicsTimeline::Value(prop, keys1(v, p, ver, "value")?));
                    Ok(())
                })?;
                Ok(Named { name: c.to_owned(), timelines })
            })
        })?
        .unwrap_or_default()
    } else {
        Vec::new()
    };
    // Attachment timelines: skin > slot > attachment > (deform keys | timelines).
    let mut attachments = Vec::new();
    let mut walk =
        |key: &str, nested: bool| -> R<()> {
            o.opt(key, |v, p| {
                each_named(v, p, "skin", |skin, v, p| {
                    each_named(v, p, "slot", |slot, v, p| {
                        each_named(v, p, "attachment", |att, v, p| {
                            let timelines =
                                if nested {
                                    let mut t = Vec::new();
                                    each_named(v, p, "timeline", |tl, v, p| {
                                        match tl {
                                            "deform" => t.push(AttachmentTimeline::Deform(
                                                read_deform_keys(v, p, ver)?,
                                            )),
                                            "sequence" => t.push(AttachmentTimeline::Sequence(
                                                keys(v, p, ver, 0, |o| {
                                                    Ok(SequenceKey {
                                                        mode: o.opt("mode", SequenceMode::read)?,
                                                        index: o.i32("index")?,
                                                        delay: o.f32("delay")?,
                                                    })
                                                })?,
                                            )),
                                            _ => {}
                                        }
                                        Ok(())
                                    })?;
                                    t
                                } else {
                                    vec![AttachmentTimeline::Deform(read_deform_keys(v, p, ver)?)]
                                };
                            attachments.push(AttachmentTimelines {
                                skin: skin.to_owned(),
                                slot: slot.to_owned(),
                                attachment: att.to_owned(),
                                timelines,
                            });
                            Ok(())
                        })
                    })
                })
            })?;
            Ok(())
        };
    if ver < SpineVersion::V4_1 {
        walk("deform", false)?;
    } else {
        walk("attachments", true)?;
    }
    let draw_order_key =
        if ver < SpineVersion::V3_8 && !o.has("drawOrder") { "draworder" } else { "drawOrder" };
    let draw_order = o.opt(draw_order_key, |v, p| {
        keys_of("draw order key", v, p, ver, 0, |o| {
            o.opt("offsets", |v, p| {
                each(v, p, "draw order change", |x, p| {
                    let e = Obj::new(x, p)?;
                    Ok(DrawOrderOffset {
                        slot: e.req_string("slot")?,
                        offset: e.req("offset", super::value::as_i32)?,
                    })
                })
            })
        })
    })?;
    let events = o.opt("events", |v, p| {
        keys_of("event key", v, p, ver, 0, |o| {
            Ok(EventKey {
                name: o.req_string("name")?,
                int: o.i32("int")?,
                float: o.f32("float")?,
                string: o.string("string")?,
                volume: o.f32("volume")?,
                balance: o.f32("balance")?,
            })
        })
    })?;
    Ok(Animation {
        name: name.to_owned(),
        slots,
        bones,
        ik,
        transform,
        path,
        physics,
        attachments,
        draw_order,
        events,
    })
}
