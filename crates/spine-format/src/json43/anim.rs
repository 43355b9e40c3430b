//! Animations of a 4.3 JSON skeleton: timelines and their keys, as written.

use super::{last_wins, named, named_some};
use crate::json::keys::{
    deform_key, draw_order_offsets, event_key, ik_key, last, physics_property, required_color,
    sequence_key, two_color, xy,
};
use crate::json::value::{array_len, bezier, check_count, each, Obj, J, P, R};
use crate::json::{
    AttachmentTimeline, AttachmentTimelines, BoneTimeline, Curve, DrawOrderOffset, EventKey, IkKey,
    Key, Keys1, Named, PhysicsTimeline, SlotTimeline, Xy,
};
use serde::Serialize;

/// Values of a transform constraint key (`mixRotate` … `mixShearY`). Defaults 1 each, except
/// `mixY` which defaults to the key's `mixX` (`mixScaleY` defaults to 1, not `mixScaleX`).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct TransformKey {
    /// Mixes rotate, x, y, scale x, scale y, shear y ([`super::MIX_KEYS`]).
    pub mixes: [Option<f32>; 6],
}

/// Values of a path constraint `mix` key: `mixRotate`, `mixX` (default 1), `mixY` (default
/// `mixX`).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct PathMixKey {
    /// `mixRotate`.
    pub mix_rotate: Option<f32>,
    /// `mixX`.
    pub mix_x: Option<f32>,
    /// `mixY`.
    pub mix_y: Option<f32>,
}

/// A path constraint timeline (unknown names are skipped, as the loader does).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum PathTimeline {
    /// `position` (`value`, default 0).
    Position(Keys1),
    /// `spacing` (`value`, default 0).
    Spacing(Keys1),
    /// `mix`.
    Mix(Vec<Key<PathMixKey>>),
}

/// A slider timeline (unknown names are skipped, as the loader does).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum SliderTimeline {
    /// `time` (`value`, default 1).
    Time(Keys1),
    /// `mix` (`value`, default 1).
    Mix(Keys1),
}

/// A draw order key: `offsets` (absent = the setup order).
pub type DrawOrderKeys = Vec<Key<Option<Vec<DrawOrderOffset>>>>;

/// A `drawOrderFolder` timeline: a subset of slots reordered among themselves.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct DrawOrderFolder {
    /// `slots` names (default none).
    pub slots: Vec<String>,
    /// `keys` (default none); each offset's slot must be one of `slots`.
    pub keys: DrawOrderKeys,
}

/// An animation.
#[derive(Debug, Clone, PartialEq, Serialize)]
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
    pub transform: Vec<Named<Vec<Key<TransformKey>>>>,
    /// `path.<constraint>.<timeline>`.
    pub path: Vec<Named<Vec<PathTimeline>>>,
    /// `physics.<constraint>.<timeline>` (the empty name: every physics constraint).
    pub physics: Vec<Named<Vec<PhysicsTimeline>>>,
    /// `slider.<constraint>.<timeline>`.
    pub slider: Vec<Named<Vec<SliderTimeline>>>,
    /// `attachments.<skin>.<slot>.<attachment>.<deform|sequence>`, flattened.
    pub attachments: Vec<AttachmentTimelines>,
    /// `drawOrder`.
    pub draw_order: Option<DrawOrderKeys>,
    /// `drawOrderFolder`.
    pub draw_order_folders: Vec<DrawOrderFolder>,
    /// `events` keys.
    pub events: Option<Vec<Key<EventKey>>>,
    /// `color` (nonessential).
    pub color: Option<[u8; 4]>,
}

impl Animation {
    /// The duration as the loader computes it: the largest last-key time over all timelines.
    pub fn duration(&self) -> f32 {
        let mut d = 0f32;
        let mut add = |t: f32| d = d.max(t);
        self.slots.iter().flat_map(|n| &n.timelines).for_each(|t| add(t.end()));
        self.bones.iter().flat_map(|n| &n.timelines).for_each(|t| add(t.end()));
        self.ik.iter().for_each(|n| add(last(&n.timelines)));
        self.transform.iter().for_each(|n| add(last(&n.timelines)));
        self.path.iter().flat_map(|n| &n.timelines).for_each(|t| add(t.end()));
        self.physics.iter().flat_map(|n| &n.timelines).for_each(|t| add(t.end()));
        self.slider.iter().flat_map(|n| &n.timelines).for_each(|t| add(t.end()));
        self.attachments.iter().flat_map(|a| &a.timelines).for_each(|t| add(t.end()));
        if let Some(k) = &self.draw_order {
            add(last(k));
        }
        self.draw_order_folders.iter().for_each(|f| add(last(&f.keys)));
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

impl SliderTimeline {
    /// The time of its last key.
    fn end(&self) -> f32 {
        match self {
            SliderTimeline::Time(k) | SliderTimeline::Mix(k) => last(k),
        }
    }
}

fn read_curve(o: &Obj) -> R<Option<Curve>> {
    o.opt("curve", |v, p| match v.str() {
        Some("stepped") => Ok(Curve::Stepped),
        Some(s) => Ok(Curve::Other(s.to_owned())),
        None if v.items().is_some() => {
            check_count(v, p, "bezier value", array_len(v).unwrap_or(0))?;
            bezier(v, p).map(Curve::Bezier)
        }
        None => Err(p.expected("\"stepped\" or an array of numbers", v)),
    })
}

/// Reads an array of keys of `what`. `channels` is the number of curve channels (0: the
/// timeline has no curves). A bezier curve of a key that has a next key must hold 4 numbers
/// per channel, as the loader indexes them. The key count is checked against
/// [`crate::Limits::max_keyframes`].
fn keys_of<V>(
    what: &'static str,
    v: J<'_>,
    p: &P,
    channels: usize,
    mut f: impl FnMut(&Obj) -> R<V>,
) -> R<Vec<Key<V>>> {
    let Some(n) = v.items().map(|a| a.len()) else {
        return Err(p.expected("an array of keys", v));
    };
    each(v, p, what, |x, kp| {
        let o = Obj::new(x, kp)?;
        let time = o.f32("time")?.unwrap_or(0.0);
        let curve = if channels > 0 { read_curve(&o)? } else { None };
        let has_next = kp.last_index().is_some_and(|i| i + 1 < n);
        if let (Some(Curve::Bezier(c)), true) = (&curve, has_next) {
            let need = 4 * channels;
            if c.len() < need {
                return Err(kp
                    .key("curve")
                    .err(format!("expected at least {need} curve numbers, found {}", c.len())));
            }
        }
        Ok(Key { time, curve, value: f(&o)? })
    })
}

/// [`keys_of`] keyframes.
fn keys<V>(v: J<'_>, p: &P, channels: usize, f: impl FnMut(&Obj) -> R<V>) -> R<Vec<Key<V>>> {
    keys_of("keyframe", v, p, channels, f)
}

/// Keys of one `value`.
fn keys1(v: J<'_>, p: &P<'_>) -> R<Keys1> {
    keys(v, p, 1, |o| o.f32("value"))
}

/// Keys of `x`, `y`.
fn keys_xy(v: J<'_>, p: &P<'_>) -> R<Vec<Key<Xy>>> {
    keys(v, p, 2, xy)
}

/// Whether a timeline value is an empty array (the loader skips such timelines; they are
/// left out of the AST).
fn is_empty(v: J<'_>) -> bool {
    matches!(v.items(), Some(a) if a.len() == 0)
}

/// A slot timeline `name`.
fn read_slot_timeline(name: &str, v: J<'_>, p: &P<'_>) -> R<SlotTimeline> {
    let color = |o: &Obj| required_color(o, "color");
    Ok(match name {
        "attachment" => SlotTimeline::Attachment(keys(v, p, 0, |o| o.string("name"))?),
        "rgba" => SlotTimeline::Rgba(keys(v, p, 4, color)?),
        "rgb" => SlotTimeline::Rgb(keys(v, p, 3, color)?),
        "alpha" => SlotTimeline::Alpha(keys1(v, p)?),
        "rgba2" => SlotTimeline::Rgba2(keys(v, p, 7, two_color)?),
        "rgb2" => SlotTimeline::Rgb2(keys(v, p, 6, two_color)?),
        _ => {
            return Err(p.err(format!(
                "unknown slot timeline {name:?} (expected one of attachment, rgba, rgb, alpha, rgba2, rgb2)"
            )))
        }
    })
}

/// A bone timeline `name`.
fn read_bone_timeline(name: &str, v: J<'_>, p: &P<'_>) -> R<BoneTimeline> {
    use BoneTimeline as B;
    Ok(match name {
        "rotate" => B::Rotate(keys1(v, p)?),
        "translate" => B::Translate(keys_xy(v, p)?),
        "translatex" => B::TranslateX(keys1(v, p)?),
        "translatey" => B::TranslateY(keys1(v, p)?),
        "scale" => B::Scale(keys_xy(v, p)?),
        "scalex" => B::ScaleX(keys1(v, p)?),
        "scaley" => B::ScaleY(keys1(v, p)?),
        "shear" => B::Shear(keys_xy(v, p)?),
        "shearx" => B::ShearX(keys1(v, p)?),
        "sheary" => B::ShearY(keys1(v, p)?),
        "inherit" => B::Inherit(keys(v, p, 0, |o| o.opt("inherit", super::enums::inherit))?),
        _ => return Err(p.err(format!("unknown bone timeline {name:?}"))),
    })
}

/// Draw order keys.
fn draw_order_keys(v: J<'_>, p: &P<'_>) -> R<DrawOrderKeys> {
    keys_of("draw order key", v, p, 0, draw_order_offsets)
}

/// `name.<constraint>: [keys]` maps whose empty key lists the loader skips.
fn constraint_keys<V>(
    o: &Obj,
    key: &str,
    what: &'static str,
    channels: usize,
    f: impl Fn(&Obj) -> R<V> + Copy,
) -> R<Vec<Named<Vec<Key<V>>>>> {
    Ok(o.opt(key, |v, p| {
        named_some(v, p, what, |c, v, p| {
            if is_empty(v) {
                return Ok(None);
            }
            Ok(Some(Named { name: c.into(), timelines: keys(v, p, channels, f)? }))
        })
    })?
    .unwrap_or_default())
}

/// The object `key` of `<name>: {<timeline>: [keys]}` (absent: empty), one per name
/// ([`super::last_wins`]): each timeline is read by `read` (`None`: an unknown name, ignored);
/// timelines without keys are left out, as the loader skips them.
fn timeline_map<T>(
    o: &Obj,
    key: &str,
    what: &'static str,
    timeline: &'static str,
    read: fn(&str, J<'_>, &P<'_>) -> R<Option<T>>,
) -> R<Vec<Named<Vec<T>>>> {
    Ok(o.opt(key, |v, p| {
        named(v, p, what, |name, v, p| {
            let timelines = named_some(v, p, timeline, |tl, v, p| {
                if is_empty(v) {
                    return Ok(None);
                }
                read(tl, v, p)
            })?;
            Ok(Named { name: name.into(), timelines })
        })
    })?
    .unwrap_or_default())
}

/// A path constraint timeline `name` (`None`: unknown).
fn read_path_timeline(name: &str, v: J<'_>, p: &P<'_>) -> R<Option<PathTimeline>> {
    Ok(match name {
        "position" => Some(PathTimeline::Position(keys1(v, p)?)),
        "spacing" => Some(PathTimeline::Spacing(keys1(v, p)?)),
        "mix" => Some(PathTimeline::Mix(keys(v, p, 3, |o| {
            Ok(PathMixKey {
                mix_rotate: o.f32("mixRotate")?,
                mix_x: o.f32("mixX")?,
                mix_y: o.f32("mixY")?,
            })
        })?)),
        _ => None,
    })
}

/// A physics constraint timeline `name` (`None`: unknown).
fn read_physics_timeline(name: &str, v: J<'_>, p: &P<'_>) -> R<Option<PhysicsTimeline>> {
    if name == "reset" {
        return Ok(Some(PhysicsTimeline::Reset(keys(v, p, 0, |_| Ok(()))?)));
    }
    match physics_property(name) {
        Some(prop) => Ok(Some(PhysicsTimeline::Value(prop, keys1(v, p)?))),
        None => Ok(None),
    }
}

/// A slider constraint timeline `name` (`None`: unknown).
fn read_slider_timeline(name: &str, v: J<'_>, p: &P<'_>) -> R<Option<SliderTimeline>> {
    Ok(match name {
        "time" => Some(SliderTimeline::Time(keys1(v, p)?)),
        "mix" => Some(SliderTimeline::Mix(keys1(v, p)?)),
        _ => None,
    })
}

/// An attachment timeline `name` (`None`: unknown).
fn read_attachment_timeline(name: &str, v: J<'_>, p: &P<'_>) -> R<Option<AttachmentTimeline>> {
    Ok(match name {
        "deform" => Some(AttachmentTimeline::Deform(keys(v, p, 1, deform_key)?)),
        "sequence" => Some(AttachmentTimeline::Sequence(keys(v, p, 0, sequence_key)?)),
        _ => None,
    })
}

/// The `attachments` timelines, skin > slot > attachment, flattened (one per attachment,
/// [`last_wins`]).
fn read_attachments(o: &Obj) -> R<Vec<AttachmentTimelines>> {
    let mut attachments = Vec::new();
    o.opt("attachments", |v, p| {
        named(v, p, "skin", |skin, v, p| {
            named(v, p, "slot", |slot, v, p| {
                named(v, p, "attachment", |att, v, p| {
                    let timelines = named_some(v, p, "timeline", |tl, v, p| {
                        if is_empty(v) {
                            return Ok(None);
                        }
                        read_attachment_timeline(tl, v, p)
                    })?;
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
    Ok(last_wins(
        attachments
            .into_iter()
            .map(|a| ((a.skin.clone(), a.slot.clone(), a.attachment.clone()), Some(a)))
            .collect(),
    ))
}

/// The `drawOrderFolder` array.
fn read_draw_order_folders(o: &Obj) -> R<Vec<DrawOrderFolder>> {
    Ok(o.opt("drawOrderFolder", |v, p| {
        each(v, p, "draw order folder", |x, p| {
            let f = Obj::new(x, p)?;
            Ok(DrawOrderFolder {
                slots: f.strings("slots", "slot")?,
                keys: f.opt("keys", draw_order_keys)?.unwrap_or_default(),
            })
        })
    })?
    .unwrap_or_default())
}

/// The transform constraint key mixes.
fn transform_key(o: &Obj) -> R<TransformKey> {
    let mut mixes = [None; 6];
    for (m, k) in mixes.iter_mut().zip(super::MIX_KEYS) {
        *m = o.f32(k)?;
    }
    Ok(TransformKey { mixes })
}

/// Reads one animation.
pub(super) fn read_animation(name: &str, o: &Obj) -> R<Animation> {
    let slots = timeline_map(o, "slots", "slot", "slot timeline", |tl, v, p| {
        read_slot_timeline(tl, v, p).map(Some)
    })?;
    let bones = timeline_map(o, "bones", "bone", "bone timeline", |tl, v, p| {
        read_bone_timeline(tl, v, p).map(Some)
    })?;
    let ik = constraint_keys(o, "ik", "ik timeline", 2, ik_key)?;
    let transform = constraint_keys(o, "transform", "transform timeline", 6, transform_key)?;
    let path = timeline_map(o, "path", "path constraint", "path timeline", read_path_timeline)?;
    let physics = timeline_map(
        o,
        "physics",
        "physics constraint",
        "physics timeline",
        read_physics_timeline,
    )?;
    let slider =
        timeline_map(o, "slider", "slider constraint", "slider timeline", read_slider_timeline)?;
    let attachments = read_attachments(o)?;
    let draw_order = o.opt("drawOrder", draw_order_keys)?;
    let draw_order_folders = read_draw_order_folders(o)?;
    let events = o.opt("events", |v, p| keys_of("event key", v, p, 0, event_key))?;
    Ok(Animation {
        name: name.into(),
        slots,
        bones,
        ik,
        transform,
        path,
        physics,
        slider,
        attachments,
        draw_order,
        draw_order_folders,
        events,
        color: o.color("color")?,
    })
}
