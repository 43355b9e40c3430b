//! Animations of a 4.3 JSON skeleton: timelines and their keys, as written.

use super::{last_wins, named, named_some};
use crate::json::value::{array_len, as_i32, check_count, each, f32s, Obj, J, P, R};
use crate::json::{
    AttachmentTimeline, AttachmentTimelines, BoneTimeline, Curve, DeformKey, DrawOrderOffset,
    EventKey, IkKey, Key, Keys1, Named, PhysicsProperty, PhysicsTimeline, SequenceKey,
    SequenceMode, SlotTimeline, TwoColor, Xy,
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
    pub name: String,
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

fn last<V>(keys: &[Key<V>]) -> f32 {
    keys.last().map_or(0.0, |k| k.time)
}

impl Animation {
    /// The duration as the loader computes it: the largest last-key time over all timelines.
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
        for n in &self.slider {
            for t in &n.timelines {
                add(match t {
                    SliderTimeline::Time(k) | SliderTimeline::Mix(k) => last(k),
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
        for f in &self.draw_order_folders {
            add(last(&f.keys));
        }
        if let Some(k) = &self.events {
            add(last(k));
        }
        d
    }
}

fn read_curve(o: &Obj) -> R<Option<Curve>> {
    o.opt("curve", |v, p| match v.str() {
        Some("stepped") => Ok(Curve::Stepped),
        Some(s) => Ok(Curve::Other(s.to_owned())),
        None if v.items().is_some() => {
            check_count(v, p, "bezier value", array_len(v).unwrap_or(0))?;
            f32s(v, p).map(Curve::Bezier)
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

fn keys<V>(v: J<'_>, p: &P, channels: usize, f: impl FnMut(&Obj) -> R<V>) -> R<Vec<Key<V>>> {
    keys_of("keyframe", v, p, channels, f)
}

fn keys1(v: J<'_>, p: &P<'_>) -> R<Keys1> {
    keys(v, p, 1, |o| o.f32("value"))
}

fn keys_xy(v: J<'_>, p: &P<'_>) -> R<Vec<Key<Xy>>> {
    keys(v, p, 2, |o| Ok(Xy { x: o.f32("x")?, y: o.f32("y")? }))
}

/// Whether a timeline value is an empty array (the loader skips such timelines; they are
/// left out of the AST).
fn is_empty(v: J<'_>) -> bool {
    matches!(v.items(), Some(a) if a.len() == 0)
}

fn color(o: &Obj, k: &str) -> R<[u8; 4]> {
    o.req(k, crate::json::value::as_color)
}

fn read_slot_timeline(name: &str, v: J<'_>, p: &P<'_>) -> R<SlotTimeline> {
    let two = |o: &Obj| Ok(TwoColor { light: color(o, "light")?, dark: color(o, "dark")? });
    Ok(match name {
        "attachment" => SlotTimeline::Attachment(keys(v, p, 0, |o| o.string("name"))?),
        "rgba" => SlotTimeline::Rgba(keys(v, p, 4, |o| color(o, "color"))?),
        "rgb" => SlotTimeline::Rgb(keys(v, p, 3, |o| color(o, "color"))?),
        "alpha" => SlotTimeline::Alpha(keys1(v, p)?),
        "rgba2" => SlotTimeline::Rgba2(keys(v, p, 7, two)?),
        "rgb2" => SlotTimeline::Rgb2(keys(v, p, 6, two)?),
        _ => {
            return Err(p.err(format!(
                "unknown slot timeline {name:?} (expected one of attachment, rgba, rgb, alpha, rgba2, rgb2)"
            )))
        }
    })
}

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

fn draw_order_keys(v: J<'_>, p: &P<'_>) -> R<DrawOrderKeys> {
    keys_of("draw order key", v, p, 0, |o| {
        o.opt("offsets", |v, p| {
            each(v, p, "draw order change", |x, p| {
                let e = Obj::new(x, p)?;
                Ok(DrawOrderOffset {
                    slot: e.req_string("slot")?,
                    offset: e.req("offset", as_i32)?,
                })
            })
        })
    })
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
            Ok(Some(Named { name: c.to_owned(), timelines: keys(v, p, channels, f)? }))
        })
    })?
    .unwrap_or_default())
}

/// Reads one animation.
pub(super) fn read_animation(name: &str, o: &Obj) -> R<Animation> {
    let slots = o
        .opt("slots", |v, p| {
            named(v, p, "slot", |slot, v, p| {
                let timelines = named_some(v, p, "slot timeline", |tl, v, p| {
                    if is_empty(v) {
                        return Ok(None);
                    }
                    read_slot_timeline(tl, v, p).map(Some)
                })?;
                Ok(Named { name: slot.to_owned(), timelines })
            })
        })?
        .unwrap_or_default();
    let bones = o
        .opt("bones", |v, p| {
            named(v, p, "bone", |bone, v, p| {
                let timelines = named_some(v, p, "bone timeline", |tl, v, p| {
                    if is_empty(v) {
                        return Ok(None);
                    }
                    read_bone_timeline(tl, v, p).map(Some)
                })?;
                Ok(Named { name: bone.to_owned(), timelines })
            })
        })?
        .unwrap_or_default();
    let ik = constraint_keys(o, "ik", "ik timeline", 2, |o| {
        Ok(IkKey {
            mix: o.f32("mix")?,
            softness: o.f32("softness")?,
            bend_positive: o.bool("bendPositive")?,
            compress: o.bool("compress")?,
            stretch: o.bool("stretch")?,
        })
    })?;
    let transform = constraint_keys(o, "transform", "transform timeline", 6, |o| {
        let mut mixes = [None; 6];
        for (m, k) in mixes.iter_mut().zip(super::MIX_KEYS) {
            *m = o.f32(k)?;
        }
        Ok(TransformKey { mixes })
    })?;
    let path = o
        .opt("path", |v, p| {
            named(v, p, "path constraint", |c, v, p| {
                let timelines = named_some(v, p, "path timeline", |tl, v, p| {
                    if is_empty(v) {
                        return Ok(None);
                    }
                    Ok(match tl {
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
                })?;
                Ok(Named { name: c.to_owned(), timelines })
            })
        })?
        .unwrap_or_default();
    let physics = o
        .opt("physics", |v, p| {
            named(v, p, "physics constraint", |c, v, p| {
                let timelines = named_some(v, p, "physics timeline", |tl, v, p| {
                    use PhysicsProperty as Pp;
                    if is_empty(v) {
                        return Ok(None);
                    }
                    let prop = match tl {
                        "reset" => {
                            return Ok(Some(PhysicsTimeline::Reset(keys(v, p, 0, |_| Ok(()))?)))
                        }
                        "inertia" => Pp::Inertia,
                        "strength" => Pp::Strength,
                        "damping" => Pp::Damping,
                        "mass" => Pp::Mass,
                        "wind" => Pp::Wind,
                        "gravity" => Pp::Gravity,
                        "mix" => Pp::Mix,
                        _ => return Ok(None),
                    };
                    Ok(Some(PhysicsTimeline::Value(prop, keys1(v, p)?)))
                })?;
                Ok(Named { name: c.to_owned(), timelines })
            })
        })?
        .unwrap_or_default();
    let slider = o
        .opt("slider", |v, p| {
            named(v, p, "slider constraint", |c, v, p| {
                let timelines = named_some(v, p, "slider timeline", |tl, v, p| {
                    if is_empty(v) {
                        return Ok(None);
                    }
                    Ok(match tl {
                        "time" => Some(SliderTimeline::Time(keys1(v, p)?)),
                        "mix" => Some(SliderTimeline::Mix(keys1(v, p)?)),
                        _ => None,
                    })
                })?;
                Ok(Named { name: c.to_owned(), timelines })
            })
        })?
        .unwrap_or_default();
    let mut attachments = Vec::new();
    o.opt("attachments", |v, p| {
        named(v, p, "skin", |skin, v, p| {
            named(v, p, "slot", |slot, v, p| {
                named(v, p, "attachment", |att, v, p| {
                    let timelines = named_some(v, p, "timeline", |tl, v, p| {
                        if is_empty(v) {
                            return Ok(None);
                        }
                        Ok(match tl {
                            "deform" => Some(AttachmentTimeline::Deform(keys(v, p, 1, |o| {
                                Ok(DeformKey {
                                    offset: o.i32("offset")?,
                                    vertices: o.floats("vertices", "deform value")?,
                                })
                            })?)),
                            "sequence" => Some(AttachmentTimeline::Sequence(keys(v, p, 0, |o| {
                                Ok(SequenceKey {
                                    mode: o.opt("mode", SequenceMode::read)?,
                                    index: o.i32("index")?,
                                    delay: o.f32("delay")?,
                                })
                            })?)),
                            _ => None,
                        })
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
    let attachments = last_wins(
        attachments
            .into_iter()
            .map(|a| ((a.skin.clone(), a.slot.clone(), a.attachment.clone()), Some(a)))
            .collect(),
    );
    let draw_order = o.opt("drawOrder", draw_order_keys)?;
    let draw_order_folders = o
        .opt("drawOrderFolder", |v, p| {
            each(v, p, "draw order folder", |x, p| {
                let f = Obj::new(x, p)?;
                Ok(DrawOrderFolder {
                    slots: f.strings("slots", "slot")?,
                    keys: f.opt("keys", draw_order_keys)?.unwrap_or_default(),
                })
            })
        })?
        .unwrap_or_default();
    let events = o.opt("events", |v, p| {
        keys_of("event key", v, p, 0, |o| {
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
        slider,
        attachments,
        draw_order,
        draw_order_folders,
        events,
        color: o.color("color")?,
    })
}
