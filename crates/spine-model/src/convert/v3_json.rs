//! Spine 3.5–3.8 binary ASTs ⇄ the JSON AST of the same version (no semantic change).
//!
//! [`v35_to_json`] / [`v38_to_json`] name what the binary indexes and write the version's JSON
//! spellings (the JSON writer picks them from the skeleton's [`spine_format::SpineVersion`]):
//! `angle` rotate keys, `rotateMix`/`translateMix`/`scaleMix`/`shearMix`, `color`/`twoColor` slot timelines,
//! `paths` (3.5–3.7) or `path` (3.8) animation sections, the 3.5–3.7 skin object form, 3.x
//! curves (`[cx1, cy1, cx2, cy2]` in 3.5–3.7, `curve: cx1` with `c2`–`c4` in 3.8). Every key
//! value is written (3.5–3.7 loaders read a missing scale key as 0, not 1), and so are the
//! constraint `order`s. [`json_to_v35`] / [`json_to_v38`] resolve the names back (every
//! unknown name reported with its object path).
//!
//! What one side cannot hold:
//! * JSON → binary: fields the version's own loaders do not read are dropped as they ignore
//!   them (3.5: dark colors, transform `local`/`relative`; 3.5–3.6: IK
//!   `compress`/`stretch`/`uniform`, audio); timelines and attachments the generation cannot
//!   hold (3.5: two-color timelines, point and clipping attachments; 4.x timelines) are
//!   reported; a clipping
//!   attachment without `end` gets the last slot; the default skin's bone and constraint
//!   lists (3.8 JSON) are dropped (the binary default skin has none); a key string `null`
//!   becomes `""`.
//! * binary → JSON: a 3.8 binary's skin-required flags are written (`"skin": true`) as the
//!   editor writes them, but spine-cpp 3.8's JSON loader reads them as `false` (its
//!   `Json::getBoolean` bug, reproduced by `spine-model`): such rigs lose skin-required
//!   bones and constraints when their JSON is loaded by that runtime. The identity draw
//!   order of a key without changes is written as no `offsets` (the setup order: the same).
//! * Slot dark colors are written as the editor writes them (`00 R G B`). spine-cpp 3.7/3.8
//!   `SkeletonBinary` reads that `int` one byte off (`(00, R, G)`, reproduced by
//!   `spine-model`), its `SkeletonJson` reads `R G B`: in that runtime a 3.7/3.8 rig's setup
//!   dark colors differ between its binary and its JSON, converted or exported.

use std::collections::HashMap;

use spine_format::binary::shared::{DrawOrderChange, Keyframe};
use spine_format::binary::v3_common as c3;
use spine_format::binary::{v35, v38, StrRef};
use spine_format::json::{
    self as j, AttachmentTimeline, AttachmentTimelines, BoneTimeline, Curve, DeformKey,
    DrawOrderOffset, EventDef, Key, Named, PathMix, SlotTimeline, TransformMix, TwoColor, Xy,
};
use spine_format::SpineVersion;

use super::common::*;
use crate::error::{Problem, ProblemKind};

/// The binary layout a 3.x version string selects: 3.5, 3.6, 3.7, else 3.8.
fn generation_of(version: &str) -> SpineVersion {
    SpineVersion::parse(version)
        .filter(|v| (SpineVersion::V3_5..SpineVersion::V3_8).contains(v))
        .unwrap_or(SpineVersion::V3_8)
}

/// The JSON version rules of a 3.x export: its declared version, else its generation's.
fn json_version(version: &str, gen: SpineVersion) -> SpineVersion {
    j::supported_version(version).unwrap_or(gen.min(SpineVersion::V3_8))
}

fn inherit_to_json(m: c3::TransformMode) -> Option<j::Inherit> {
    use c3::TransformMode as T;
    Some(match m {
        T::Normal => return None,
        T::OnlyTranslation => j::Inherit::OnlyTranslation,
        T::NoRotationOrReflection => j::Inherit::NoRotationOrReflection,
        T::NoScale => j::Inherit::NoScale,
        T::NoScaleOrReflection => j::Inherit::NoScaleOrReflection,
    })
}

fn inherit_from_json(i: Option<j::Inherit>) -> c3::TransformMode {
    use c3::TransformMode as T;
    match i.unwrap_or(j::Inherit::Normal) {
        j::Inherit::Normal => T::Normal,
        j::Inherit::OnlyTranslation => T::OnlyTranslation,
        j::Inherit::NoRotationOrReflection => T::NoRotationOrReflection,
        j::Inherit::NoScale => T::NoScale,
        j::Inherit::NoScaleOrReflection => T::NoScaleOrReflection,
    }
}

fn blend_to_json(b: c3::BlendMode) -> Option<j::BlendMode> {
    Some(match b {
        c3::BlendMode::Normal => return None,
        c3::BlendMode::Additive => j::BlendMode::Additive,
        c3::BlendMode::Multiply => j::BlendMode::Multiply,
        c3::BlendMode::Screen => j::BlendMode::Screen,
    })
}

fn blend_from_json(b: Option<j::BlendMode>) -> c3::BlendMode {
    match b.unwrap_or(j::BlendMode::Normal) {
        j::BlendMode::Normal => c3::BlendMode::Normal,
        j::BlendMode::Additive => c3::BlendMode::Additive,
        j::BlendMode::Multiply => c3::BlendMode::Multiply,
        j::BlendMode::Screen => c3::BlendMode::Screen,
    }
}

fn some_if<T: PartialEq>(v: T, default: T) -> Option<T> {
    (v != default).then_some(v)
}

/// The dark color of a slot as JSON writes it (`rrggbb`, alpha 255), `None` for the
/// "no dark color" word.
fn dark_to_json(d: [u8; 4]) -> Option<[u8; 4]> {
    (d != [0xff; 4]).then(|| [d[1], d[2], d[3], 0xff])
}

/// The slot dark color `int` as the editor writes it: `00 R G B` (all `FF` means none).
fn dark_from_json(d: Option<[u8; 4]>) -> [u8; 4] {
    match d {
        None => [0xff; 4],
        Some([r, g, b, _]) => [0, r, g, b],
    }
}

/// The binary `curves` of a 3.x timeline as JSON key curves (3.5–3.7 arrays, 3.8 numbers).
fn curve3_to_json(c: c3::Curve, v38: bool) -> Option<Curve> {
    match c {
        c3::Curve::Linear => None,
        c3::Curve::Stepped => Some(Curve::Stepped),
        c3::Curve::Bezier([a, b, cc, d]) if v38 => {
            Some(Curve::Number { c1: a, c2: Some(b), c3: Some(cc), c4: Some(d) })
        }
        c3::Curve::Bezier(b) => Some(Curve::Bezier(b.to_vec())),
    }
}

/// A JSON key curve as a 3.x binary curve, read as the version's loader does (3.5–3.7: any
/// string but `stepped` and any non-array is linear; 3.8: any string is stepped, a number is
/// `cx1` with `c2`, `c3`, `c4` defaulting to 0, 1, 1).
fn curve3_from_json(c: &Option<Curve>, v38: bool) -> c3::Curve {
    match c {
        None => c3::Curve::Linear,
        Some(Curve::Stepped) => c3::Curve::Stepped,
        Some(Curve::Other(_)) if v38 => c3::Curve::Stepped,
        Some(Curve::Other(_)) => c3::Curve::Linear,
        Some(Curve::Bezier(v)) => {
            let at = |i: usize| v.get(i).copied().unwrap_or(0.0);
            c3::Curve::Bezier([at(0), at(1), at(2), at(3)])
        }
        Some(Curve::Number { c1, c2, c3, c4 }) => {
            c3::Curve::Bezier([*c1, c2.unwrap_or(0.0), c3.unwrap_or(1.0), c4.unwrap_or(1.0)])
        }
    }
}

fn keys_to_json<V, T>(
    t: &c3::Timeline<V>,
    v38: bool,
    mut value: impl FnMut(&V) -> T,
) -> Vec<Key<T>> {
    let n = t.frames.len();
    t.frames
        .iter()
        .enumerate()
        .map(|(i, k)| Key {
            time: k.time,
            curve: if i + 1 < n {
                curve3_to_json(t.curves.get(i).copied().unwrap_or_default(), v38)
            } else {
                None
            },
            value: value(&k.value),
        })
        .collect()
}

fn keys_from_json<V, T>(
    keys: &[Key<T>],
    v38: bool,
    mut value: impl FnMut(&T) -> V,
) -> c3::Timeline<V> {
    let n = keys.len();
    c3::Timeline {
        frames: keys.iter().map(|k| Keyframe { time: k.time, value: value(&k.value) }).collect(),
        curves: keys
            .iter()
            .take(n.saturating_sub(1))
            .map(|k| curve3_from_json(&k.curve, v38))
            .collect(),
    }
}

fn vertices_to_json(v: &c3::Vertices) -> Vec<f32> {
    match v {
        c3::Vertices::Unweighted(xy) => xy.clone(),
        c3::Vertices::Weighted(vs) => {
            flat_weighted(vs.iter().map(|v| v.iter().map(|b| (b.bone, b.x, b.y, b.weight))))
        }
    }
}

/// The names a binary skeleton indexes, by list.
struct Names {
    bones: Vec<String>,
    slots: Vec<String>,
    ik: Vec<String>,
    transform: Vec<String>,
    path: Vec<String>,
    /// Skin names by wire index (3.x: the default skin is index 0).
    skins: Vec<String>,
    events: Vec<String>,
}

impl Names {
    fn get(list: &[String], i: u32) -> String {
        list.get(i as usize).cloned().unwrap_or_default()
    }
    fn bones(&self, v: &[u32]) -> Vec<String> {
        v.iter().map(|&i| Names::get(&self.bones, i)).collect()
    }
}

/// Binary → JSON shared by 3.5–3.7 and 3.8: `text` resolves the generation's strings.
struct ToJson<'a, S> {
    n: Names,
    v38: bool,
    text: &'a dyn Fn(&S) -> Option<String>,
    /// Per event: its defaults (int, float, string, volume, balance).
    events: Vec<(i32, f32, Option<String>, f32, f32)>,
}

impl<S> ToJson<'_, S> {
    fn attachment(&self, e: &c3::SkinEntry<S>) -> j::Attachment {
        use j::AttachmentType as T;
        let (ty, kind) = match &e.attachment {
            c3::Attachment::Region(r) => (
                None,
                j::AttachmentKind::Region {
                    path: (self.text)(&r.path),
                    x: some_if(r.x, 0.0),
                    y: some_if(r.y, 0.0),
                    scale_x: some_if(r.scale_x, 1.0),
                    scale_y: some_if(r.scale_y, 1.0),
                    rotation: some_if(r.rotation, 0.0),
                    width: r.width,
                    height: r.height,
                    color: some_if(r.color, [0xff; 4]),
                    sequence: None,
                },
            ),
            c3::Attachment::BoundingBox(b) => (
                Some(T::BoundingBox),
                j::AttachmentKind::BoundingBox {
                    vertex_count: b.vertices.vertex_count() as u32,
                    vertices: vertices_to_json(&b.vertices),
                    color: b.color,
                },
            ),
            c3::Attachment::Mesh(m) => (
                Some(T::Mesh),
                j::AttachmentKind::Mesh {
                    path: (self.text)(&m.path),
                    color: some_if(m.color, [0xff; 4]),
                    width: m.extras.as_ref().map(|x| x.size.width),
                    height: m.extras.as_ref().map(|x| x.size.height),
                    sequence: None,
                    uvs: m.uvs.clone(),
                    vertices: vertices_to_json(&m.vertices),
                    triangles: m.triangles.iter().map(|&t| u32::from(t)).collect(),
                    hull: Some(m.hull_length),
                    edges: m
                        .extras
                        .as_ref()
                        .map(|x| x.edges.iter().map(|&e| u32::from(e)).collect()),
                },
            ),
            c3::Attachment::LinkedMesh(l) => (
                Some(T::LinkedMesh),
                j::AttachmentKind::LinkedMesh {
                    path: (self.text)(&l.path),
                    color: some_if(l.color, [0xff; 4]),
                    width: l.size.map(|s| s.width),
                    height: l.size.map(|s| s.height),
                    sequence: None,
                    parent: (self.text)(&l.parent).unwrap_or_default(),
                    skin: (self.text)(&l.skin),
                    timelines: (!l.inherit_deform).then_some(false),
                },
            ),
            c3::Attachment::Path(p) => (
                Some(T::Path),
                j::AttachmentKind::Path {
                    closed: p.closed.then_some(true),
                    constant_speed: (!p.constant_speed).then_some(false),
                    vertex_count: p.vertices.vertex_count() as u32,
                    vertices: vertices_to_json(&p.vertices),
                    lengths: p.lengths.clone(),
                    color: p.color,
                },
            ),
            c3::Attachment::Point(p) => (
                Some(T::Point),
                j::AttachmentKind::Point {
                    x: some_if(p.x, 0.0),
                    y: some_if(p.y, 0.0),
                    rotation: some_if(p.rotation, 0.0),
                    color: p.color,
                },
            ),
            c3::Attachment::Clipping(k) => (
                Some(T::Clipping),
                j::AttachmentKind::Clipping {
                    end: Some(Names::get(&self.n.slots, k.end_slot)),
                    vertex_count: k.vertices.vertex_count() as u32,
                    vertices: vertices_to_json(&k.vertices),
                    color: k.color,
                },
            ),
        };
        let key = (self.text)(&e.key).unwrap_or_default();
        let name = (self.text)(&e.name).filter(|n| *n != key);
        j::Attachment { key, name, declared_type: ty, kind }
    }

    fn skin_slots(&self, slots: &[c3::SkinSlot<S>]) -> Vec<j::SkinSlot> {
        slots
            .iter()
            .map(|sl| j::SkinSlot {
                slot: Names::get(&self.n.slots, sl.slot),
                attachments: sl.entries.iter().map(|e| self.attachment(e)).collect(),
            })
            .collect()
    }

    fn animation(&self, a: &c3::Animation<S>) -> j::Animation {
        let v38 = self.v38;
        let slots = a
            .slots
            .iter()
            .map(|st| Named {
                name: Names::get(&self.n.slots, st.slot),
                timelines: st
                    .timelines
                    .iter()
                    .map(|t| match t {
                        c3::SlotTimeline::Attachment(keys) => SlotTimeline::Attachment(
                            keys.iter()
                                .map(|k| Key {
                                    time: k.time,
                                    curve: None,
                                    value: (self.text)(&k.name),
                                })
                                .collect(),
                        ),
                        c3::SlotTimeline::Color(t) => {
                            SlotTimeline::Rgba(keys_to_json(t, v38, |c| *c))
                        }
                        c3::SlotTimeline::TwoColor(t) => {
                            SlotTimeline::Rgba2(keys_to_json(t, v38, |c: &c3::TwoColor| TwoColor {
                                light: c.light,
                                dark: [c.dark[1], c.dark[2], c.dark[3], 0xff],
                            }))
                        }
                    })
                    .collect(),
            })
            .collect();
        let xy = |v: &[f32; 2]| Xy { x: Some(v[0]), y: Some(v[1]) };
        let bones = a
            .bones
            .iter()
            .map(|bt| Named {
                name: Names::get(&self.n.bones, bt.bone),
                timelines: bt
                    .timelines
                    .iter()
                    .map(|t| match t {
                        c3::BoneTimeline::Rotate(t) => {
                            BoneTimeline::Rotate(keys_to_json(t, v38, |v| Some(*v)))
                        }
                        c3::BoneTimeline::Translate(t) => {
                            BoneTimeline::Translate(keys_to_json(t, v38, xy))
                        }
                        c3::BoneTimeline::Scale(t) => BoneTimeline::Scale(keys_to_json(t, v38, xy)),
                        c3::BoneTimeline::Shear(t) => BoneTimeline::Shear(keys_to_json(t, v38, xy)),
                    })
                    .collect(),
            })
            .collect();
        let ik =
            a.ik.iter()
                .map(|t| Named {
                    name: Names::get(&self.n.ik, t.constraint),
                    timelines: keys_to_json(&t.timeline, v38, |k: &c3::IkKey| j::IkKey {
                        mix: some_if(k.mix, 1.0),
                        softness: (v38 && k.softness != 0.0).then_some(k.softness),
                        bend_positive: (k.bend_direction < 0).then_some(false),
                        compress: k.compress.then_some(true),
                        stretch: k.stretch.then_some(true),
                    }),
                })
                .collect();
        let transform = a
            .transform
            .iter()
            .map(|t| Named {
                name: Names::get(&self.n.transform, t.constraint),
                timelines: keys_to_json(&t.timeline, v38, |m: &[f32; 4]| TransformMix {
                    rotate_mix: Some(m[0]),
                    translate_mix: Some(m[1]),
                    scale_mix: Some(m[2]),
                    shear_mix: Some(m[3]),
                    ..TransformMix::default()
                }),
            })
            .collect();
        let path = a
            .path
            .iter()
            .map(|p| Named {
                name: Names::get(&self.n.path, p.constraint),
                timelines: p
                    .timelines
                    .iter()
                    .map(|t| match t {
                        c3::PathTimeline::Position(t) => {
                            j::PathTimeline::Position(keys_to_json(t, v38, |v| Some(*v)))
                        }
                        c3::PathTimeline::Spacing(t) => {
                            j::PathTimeline::Spacing(keys_to_json(t, v38, |v| Some(*v)))
                        }
                        c3::PathTimeline::Mix(t) => {
                            j::PathTimeline::Mix(keys_to_json(t, v38, |m| PathMix {
                                rotate_mix: Some(m[0]),
                                translate_mix: Some(m[1]),
                                ..PathMix::default()
                            }))
                        }
                    })
                    .collect(),
            })
            .collect();
        let mut attachments = Vec::new();
        for sk in &a.deform {
            for sl in &sk.slots {
                for d in &sl.attachments {
                    attachments.push(AttachmentTimelines {
                        skin: Names::get(&self.n.skins, sk.skin),
                        slot: Names::get(&self.n.slots, sl.slot),
                        attachment: (self.text)(&d.attachment).unwrap_or_default(),
                        timelines: vec![AttachmentTimeline::Deform(keys_to_json(
                            &d.timeline,
                            v38,
                            |k: &c3::DeformKey| DeformKey {
                                offset: (!k.offsets.is_empty() && k.start != 0)
                                    .then_some(k.start as i32),
                                vertices: (!k.offsets.is_empty()).then(|| k.offsets.clone()),
                            },
                        ))],
                    });
                }
            }
        }
        let draw_order = (!a.draw_order.is_empty()).then(|| {
            a.draw_order
                .iter()
                .map(|k| Key {
                    time: k.time,
                    curve: None,
                    value: (!k.changes.is_empty()).then(|| {
                        k.changes
                            .iter()
                            .map(|ch| DrawOrderOffset {
                                slot: Names::get(&self.n.slots, ch.slot),
                                offset: ch.shift,
                            })
                            .collect()
                    }),
                })
                .collect()
        });
        let events = (!a.events.is_empty()).then(|| {
            a.events
                .iter()
                .map(|k| {
                    let def = self.events.get(k.event as usize);
                    Key {
                        time: k.time,
                        curve: None,
                        value: j::EventKey {
                            name: Names::get(&self.n.events, k.event),
                            int: some_if(k.int, def.map_or(0, |d| d.0)),
                            float: some_if(k.float, def.map_or(0.0, |d| d.1)),
                            string: k.string.clone().map(Option::unwrap_or_default),
                            volume: k.audio.map(|x| x.volume),
                            balance: k.audio.map(|x| x.balance),
                        },
                    }
                })
                .collect()
        });
        j::Animation {
            name: a.name.clone(),
            slots,
            bones,
            ik,
            transform,
            path,
            physics: Vec::new(),
            attachments,
            draw_order,
            events,
        }
    }
}

/// An event definition: name, int, float, string, audio.
type Event3 = (String, i32, f32, Option<String>, Option<c3::EventDataAudio>);

fn event_defs(events: &[Event3]) -> Vec<EventDef> {
    events
        .iter()
        .map(|(name, int, float, string, audio)| EventDef {
            name: name.clone(),
            int: some_if(*int, 0),
            float: some_if(*float, 0.0),
            string: string.clone(),
            audio: audio.as_ref().map(|a| a.path.clone()),
            volume: audio.as_ref().map(|a| a.volume),
            balance: audio.as_ref().map(|a| a.balance),
        })
        .collect()
}

fn constraint_head(name: &str, order: u32, skin: bool) -> j::ConstraintHead {
    j::ConstraintHead {
        name: name.to_owned(),
        order: Some(order as i32),
        skin: skin.then_some(true),
    }
}

/// A 3.5–3.7 binary skeleton as a JSON skeleton of the same version.
pub fn v35_to_json(s: &v35::Skeleton) -> j::Skeleton {
    let text = |x: &Option<String>| x.clone();
    let mut skins = vec!["default".to_owned()];
    skins.extend(s.skins.iter().map(|k| k.name.clone().unwrap_or_default()));
    let events: Vec<_> = s
        .events
        .iter()
        .map(|e| (e.name.clone(), e.int, e.float, e.string.clone(), e.audio.clone()))
        .collect();
    let c = ToJson {
        n: Names {
            bones: s.bones.iter().map(|b| b.name.clone()).collect(),
            slots: s.slots.iter().map(|b| b.name.clone()).collect(),
            ik: s.ik.iter().map(|b| b.name.clone()).collect(),
            transform: s.transform.iter().map(|b| b.name.clone()).collect(),
            path: s.path.iter().map(|b| b.name.clone()).collect(),
            skins,
            events: s.events.iter().map(|e| e.name.clone()).collect(),
        },
        v38: false,
        text: &text,
        events: s
            .events
            .iter()
            .map(|e| {
                let (v, b) = e.audio.as_ref().map_or((1.0, 0.0), |a| (a.volume, a.balance));
                (e.int, e.float, e.string.clone(), v, b)
            })
            .collect(),
    };
    let h = &s.header;
    let ne = h.nonessential.as_ref();
    let version = json_version(&h.version, s.generation);
    let mut skins_json = Vec::new();
    if !s.default_skin.is_empty() {
        skins_json.push(j::Skin {
            name: "default".into(),
            slots: c.skin_slots(&s.default_skin),
            ..j::Skin::default()
        });
    }
    for k in &s.skins {
        skins_json.push(j::Skin {
            name: k.name.clone().unwrap_or_default(),
            slots: c.skin_slots(&k.slots),
            ..j::Skin::default()
        });
    }
    j::Skeleton {
        version,
        info: j::Info {
            hash: h.hash.clone(),
            spine: Some(h.version.clone()),
            width: Some(h.width),
            height: Some(h.height),
            fps: ne.map(|n| n.fps),
            images: ne.and_then(|n| n.images.clone()),
            audio: ne.and_then(|n| n.audio.clone()),
            ..j::Info::default()
        },
        bones: s
            .bones
            .iter()
            .map(|b| {
                bone_to_json(
                    &c.n,
                    &b.name,
                    b.parent,
                    [b.rotation, b.x, b.y, b.scale_x, b.scale_y, b.shear_x, b.shear_y, b.length],
                    b.transform_mode,
                    false,
                    b.color,
                )
            })
            .collect(),
        slots: s
            .slots
            .iter()
            .map(|sl| j::Slot {
                name: sl.name.clone(),
                bone: Names::get(&c.n.bones, sl.bone),
                color: some_if(sl.color, [0xff; 4]),
                dark: dark_to_json(sl.dark_color),
                attachment: sl.attachment.clone(),
                blend: blend_to_json(sl.blend),
                visible: None,
            })
            .collect(),
        ik: s
            .ik
            .iter()
            .map(|k| j::IkConstraint {
                head: constraint_head(&k.name, k.order, false),
                bones: c.n.bones(&k.bones),
                target: Names::get(&c.n.bones, k.target),
                mix: some_if(k.mix, 1.0),
                softness: None,
                bend_positive: (k.bend_direction < 0).then_some(false),
                compress: k.compress.then_some(true),
                stretch: k.stretch.then_some(true),
                uniform: k.uniform.then_some(true),
            })
            .collect(),
        transform: s
            .transform
            .iter()
            .map(|t| {
                let common = Constrained::new((&t.name, t.order, false), &t.bones, t.target);
                transform_to_json(&c.n, common, t.local, t.relative, t.offsets, t.mixes)
            })
            .collect(),
        path: s
            .path
            .iter()
            .map(|p| {
                let common = Constrained::new((&p.name, p.order, false), &p.bones, p.target);
                let modes = (p.position_mode, p.spacing_mode, p.rotate_mode);
                let values =
                    [p.offset_rotation, p.position, p.spacing, p.rotate_mix, p.translate_mix];
                path_to_json(&c.n, common, modes, values)
            })
            .collect(),
        physics: Vec::new(),
        skins: skins_json,
        events: event_defs(&events),
        animations: s.animations.iter().map(|a| c.animation(a)).collect(),
    }
}

/// A 3.8 binary skeleton as a 3.8 JSON skeleton.
pub fn v38_to_json(s: &v38::Skeleton) -> j::Skeleton {
    let strings = &s.strings;
    let text = |x: &StrRef| x.resolve(strings).map(str::to_owned);
    let name = |x: StrRef| text(&x).unwrap_or_default();
    let mut skins = vec!["default".to_owned()];
    skins.extend(s.skins.iter().map(|k| name(k.name)));
    let events: Vec<_> = s
        .events
        .iter()
        .map(|e| (name(e.name), e.int, e.float, e.string.clone(), e.audio.clone()))
        .collect();
    let c = ToJson {
        n: Names {
            bones: s.bones.iter().map(|b| b.name.clone()).collect(),
            slots: s.slots.iter().map(|b| b.name.clone()).collect(),
            ik: s.ik.iter().map(|b| b.name.clone()).collect(),
            transform: s.transform.iter().map(|b| b.name.clone()).collect(),
            path: s.path.iter().map(|b| b.name.clone()).collect(),
            skins,
            events: events.iter().map(|e| e.0.clone()).collect(),
        },
        v38: true,
        text: &text,
        events: s
            .events
            .iter()
            .map(|e| {
                let (v, b) = e.audio.as_ref().map_or((1.0, 0.0), |a| (a.volume, a.balance));
                (e.int, e.float, e.string.clone(), v, b)
            })
            .collect(),
    };
    let h = &s.header;
    let ne = h.nonessential.as_ref();
    let mut skins_json = Vec::new();
    if !s.default_skin.is_empty() {
        skins_json.push(j::Skin {
            name: "default".into(),
            slots: c.skin_slots(&s.default_skin),
            ..j::Skin::default()
        });
    }
    for k in &s.skins {
        skins_json.push(j::Skin {
            name: name(k.name),
            bones: c.n.bones(&k.bones),
            ik: k.ik.iter().map(|&i| Names::get(&c.n.ik, i)).collect(),
            transform: k.transform.iter().map(|&i| Names::get(&c.n.transform, i)).collect(),
            path: k.path.iter().map(|&i| Names::get(&c.n.path, i)).collect(),
            slots: c.skin_slots(&k.slots),
            ..j::Skin::default()
        });
    }
    j::Skeleton {
        version: json_version(&h.version, SpineVersion::V3_8),
        info: j::Info {
            hash: h.hash.clone(),
            spine: Some(h.version.clone()),
            x: Some(h.x),
            y: Some(h.y),
            width: Some(h.width),
            height: Some(h.height),
            fps: ne.map(|n| n.fps),
            images: ne.and_then(|n| n.images.clone()),
            audio: ne.and_then(|n| n.audio.clone()),
            ..j::Info::default()
        },
        bones: s
            .bones
            .iter()
            .map(|b| {
                bone_to_json(
                    &c.n,
                    &b.name,
                    b.parent,
                    [b.rotation, b.x, b.y, b.scale_x, b.scale_y, b.shear_x, b.shear_y, b.length],
                    b.transform_mode,
                    b.skin_required,
                    b.color,
                )
            })
            .collect(),
        slots: s
            .slots
            .iter()
            .map(|sl| j::Slot {
                name: sl.name.clone(),
                bone: Names::get(&c.n.bones, sl.bone),
                color: some_if(sl.color, [0xff; 4]),
                dark: dark_to_json(sl.dark_color),
                attachment: text(&sl.attachment),
                blend: blend_to_json(sl.blend),
                visible: None,
            })
            .collect(),
        ik: s
            .ik
            .iter()
            .map(|k| j::IkConstraint {
                head: constraint_head(&k.name, k.order, k.skin_required),
                bones: c.n.bones(&k.bones),
                target: Names::get(&c.n.bones, k.target),
                mix: some_if(k.mix, 1.0),
                softness: some_if(k.softness, 0.0),
                bend_positive: (k.bend_direction < 0).then_some(false),
                compress: k.compress.then_some(true),
                stretch: k.stretch.then_some(true),
                uniform: k.uniform.then_some(true),
            })
            .collect(),
        transform: s
            .transform
            .iter()
            .map(|t| {
                let head = (&t.name[..], t.order, t.skin_required);
                let common = Constrained::new(head, &t.bones, t.target);
                transform_to_json(&c.n, common, t.local, t.relative, t.offsets, t.mixes)
            })
            .collect(),
        path: s
            .path
            .iter()
            .map(|p| {
                let head = (&p.name[..], p.order, p.skin_required);
                let common = Constrained::new(head, &p.bones, p.target);
                let modes = (p.position_mode, p.spacing_mode, p.rotate_mode);
                let values =
                    [p.offset_rotation, p.position, p.spacing, p.rotate_mix, p.translate_mix];
                path_to_json(&c.n, common, modes, values)
            })
            .collect(),
        physics: Vec::new(),
        skins: skins_json,
        events: event_defs(&events),
        animations: s.animations.iter().map(|a| c.animation(a)).collect(),
    }
}

fn bone_to_json(
    n: &Names,
    name: &str,
    parent: Option<u32>,
    [rotation, x, y, scale_x, scale_y, shear_x, shear_y, length]: [f32; 8],
    mode: c3::TransformMode,
    skin: bool,
    color: Option<[u8; 4]>,
) -> j::Bone {
    j::Bone {
        name: name.to_owned(),
        parent: parent.map(|p| Names::get(&n.bones, p)),
        length: some_if(length, 0.0),
        x: some_if(x, 0.0),
        y: some_if(y, 0.0),
        rotation: some_if(rotation, 0.0),
        scale_x: some_if(scale_x, 1.0),
        scale_y: some_if(scale_y, 1.0),
        shear_x: some_if(shear_x, 0.0),
        shear_y: some_if(shear_y, 0.0),
        inherit: inherit_to_json(mode),
        skin: skin.then_some(true),
        color,
        icon: None,
        visible: None,
    }
}

/// What every 3.x transform and path constraint converts alike: the head (name, order,
/// skin required), the constrained bones and the target (a bone or a slot).
struct Constrained<'a> {
    head: j::ConstraintHead,
    bones: &'a [u32],
    target: u32,
}

impl<'a> Constrained<'a> {
    fn new((name, order, skin): (&str, u32, bool), bones: &'a [u32], target: u32) -> Self {
        Constrained { head: constraint_head(name, order, skin), bones, target }
    }
}

fn transform_to_json(
    n: &Names,
    Constrained { head, bones, target }: Constrained<'_>,
    local: bool,
    relative: bool,
    o: [f32; 6],
    m: [f32; 4],
) -> j::TransformConstraint {
    j::TransformConstraint {
        head,
        bones: n.bones(bones),
        target: Names::get(&n.bones, target),
        local: local.then_some(true),
        relative: relative.then_some(true),
        rotation: some_if(o[0], 0.0),
        x: some_if(o[1], 0.0),
        y: some_if(o[2], 0.0),
        scale_x: some_if(o[3], 0.0),
        scale_y: some_if(o[4], 0.0),
        shear_y: some_if(o[5], 0.0),
        mix: TransformMix {
            rotate_mix: some_if(m[0], 1.0),
            translate_mix: some_if(m[1], 1.0),
            scale_mix: some_if(m[2], 1.0),
            shear_mix: some_if(m[3], 1.0),
            ..TransformMix::default()
        },
    }
}

fn path_to_json(
    n: &Names,
    Constrained { head, bones, target }: Constrained<'_>,
    (pm, sm, rm): (c3::PositionMode, c3::SpacingMode, c3::RotateMode),
    [rotation, position, spacing, rotate_mix, translate_mix]: [f32; 5],
) -> j::PathConstraint {
    j::PathConstraint {
        head,
        bones: n.bones(bones),
        target: Names::get(&n.slots, target),
        position_mode: match pm {
            c3::PositionMode::Fixed => Some(j::PositionMode::Fixed),
            c3::PositionMode::Percent => None,
        },
        spacing_mode: match sm {
            c3::SpacingMode::Length => None,
            c3::SpacingMode::Fixed => Some(j::SpacingMode::Fixed),
            c3::SpacingMode::Percent => Some(j::SpacingMode::Percent),
        },
        rotate_mode: match rm {
            c3::RotateMode::Tangent => None,
            c3::RotateMode::Chain => Some(j::RotateMode::Chain),
            c3::RotateMode::ChainScale => Some(j::RotateMode::ChainScale),
        },
        rotation: some_if(rotation, 0.0),
        position: some_if(position, 0.0),
        spacing: some_if(spacing, 0.0),
        mix: PathMix {
            rotate_mix: some_if(rotate_mix, 1.0),
            translate_mix: some_if(translate_mix, 1.0),
            ..PathMix::default()
        },
    }
}

// ---------------------------------------------------------------------------------------
// JSON → binary
// ---------------------------------------------------------------------------------------

struct FromJson<'a> {
    s: &'a j::Skeleton,
    gen: SpineVersion,
    p: Problems,
    bones: HashMap<&'a str, u32>,
    slots: HashMap<&'a str, u32>,
    ik: HashMap<&'a str, u32>,
    transform: HashMap<&'a str, u32>,
    path: HashMap<&'a str, u32>,
    skins: HashMap<&'a str, u32>,
    events: HashMap<&'a str, u32>,
}

impl<'a> FromJson<'a> {
    fn new(s: &'a j::Skeleton, gen: SpineVersion) -> Self {
        let mut skins = HashMap::new();
        skins.insert("default", 0);
        let mut next = 1;
        for k in &s.skins {
            if k.name != "default" && !skins.contains_key(k.name.as_str()) {
                skins.insert(k.name.as_str(), next);
                next += 1;
            }
        }
        FromJson {
            s,
            gen,
            p: Problems::default(),
            bones: index_by_name(&s.bones, |b| b.name.as_str()),
            slots: index_by_name(&s.slots, |b| b.name.as_str()),
            ik: index_by_name(&s.ik, |b| b.head.name.as_str()),
            transform: index_by_name(&s.transform, |b| b.head.name.as_str()),
            path: index_by_name(&s.path, |b| b.head.name.as_str()),
            skins,
            events: index_by_name(&s.events, |b| b.name.as_str()),
        }
    }
    fn find(&mut self, what: &'static str, name: &str) -> u32 {
        let map = match what {
            "bone" => &self.bones,
            "slot" => &self.slots,
            "IK constraint" => &self.ik,
            "transform constraint" => &self.transform,
            "path constraint" => &self.path,
            "skin" => &self.skins,
            _ => &self.events,
        };
        match map.get(name) {
            Some(&i) => i,
            None => {
                self.p.unknown(what, name);
                0
            }
        }
    }
    fn bones(&mut self, names: &[String]) -> Vec<u32> {
        names.iter().map(|n| self.find("bone", n)).collect()
    }
    fn since(&mut self, min: SpineVersion, what: &str) -> bool {
        let ok = self.gen >= min;
        if !ok {
            self.p.report(ProblemKind::Invalid(format!(
                "{what} cannot be written in a {:?} binary",
                self.gen
            )));
        }
        ok
    }
    fn v38(&self) -> bool {
        self.gen >= SpineVersion::V3_8
    }
    fn vertices(&mut self, count: usize, v: &[f32]) -> c3::Vertices {
        if v.len() == count * 2 {
            return c3::Vertices::Unweighted(v.to_vec());
        }
        match split_weighted(v) {
            Some(list) if list.len() == count => c3::Vertices::Weighted(
                list.into_iter()
                    .map(|v| {
                        v.into_iter()
                            .map(|(bone, x, y, weight)| c3::BoneWeight { bone, x, y, weight })
                            .collect()
                    })
                    .collect(),
            ),
            _ => {
                self.p.report(ProblemKind::Invalid(format!(
                    "{} vertex values are neither {count} unweighted vertices nor weighted ones",
                    v.len()
                )));
                c3::Vertices::Unweighted(Vec::new())
            }
        }
    }

    /// The attachment; `put` makes the generation's strings.
    fn attachment<S>(
        &mut self,
        a: &j::Attachment,
        ne: bool,
        put: &mut dyn FnMut(Option<&str>) -> S,
    ) -> Option<c3::SkinEntry<S>> {
        let shorts = |p: &mut Problems, v: &[u32], what: &str| -> Vec<u16> {
            v.iter()
                .map(|&x| {
                    u16::try_from(x).unwrap_or_else(|_| {
                        p.report(ProblemKind::Invalid(format!(
                            "{what} {x} does not fit the 3.x binary format (16 bits)"
                        )));
                        0
                    })
                })
                .collect()
        };
        let attachment = match &a.kind {
            j::AttachmentKind::Region {
                path,
                x,
                y,
                scale_x,
                scale_y,
                rotation,
                width,
                height,
                color,
                ..
            } => c3::Attachment::Region(c3::Region {
                path: put(path.as_deref()),
                rotation: rotation.unwrap_or(0.0),
                x: x.unwrap_or(0.0),
                y: y.unwrap_or(0.0),
                scale_x: scale_x.unwrap_or(1.0),
                scale_y: scale_y.unwrap_or(1.0),
                width: *width,
                height: *height,
                color: color.unwrap_or([0xff; 4]),
            }),
            j::AttachmentKind::BoundingBox { vertex_count, vertices, color } => {
                c3::Attachment::BoundingBox(c3::BoundingBox {
                    vertices: self.vertices(*vertex_count as usize, vertices),
                    color: if ne { Some(color.unwrap_or([0x60, 0xf0, 0x00, 0xff])) } else { None },
                })
            }
            j::AttachmentKind::Mesh {
                path,
                color,
                width,
                height,
                uvs,
                vertices,
                triangles,
                hull,
                edges,
                ..
            } => {
                let vertices = self.vertices(uvs.len() / 2, vertices);
                c3::Attachment::Mesh(c3::Mesh {
                    path: put(path.as_deref()),
                    color: color.unwrap_or([0xff; 4]),
                    uvs: uvs.clone(),
                    triangles: shorts(&mut self.p, triangles, "triangle index"),
                    vertices,
                    hull_length: hull.unwrap_or(0),
                    extras: ne.then(|| c3::MeshExtras {
                        edges: shorts(&mut self.p, edges.as_deref().unwrap_or(&[]), "edge index"),
                        size: c3::Size {
                            width: width.unwrap_or(0.0),
                            height: height.unwrap_or(0.0),
                        },
                    }),
                })
            }
            j::AttachmentKind::LinkedMesh {
                path,
                color,
                width,
                height,
                parent,
                skin,
                timelines,
                ..
            } => c3::Attachment::LinkedMesh(c3::LinkedMesh {
                path: put(path.as_deref()),
                color: color.unwrap_or([0xff; 4]),
                skin: put(skin.as_deref()),
                parent: put(Some(parent)),
                inherit_deform: timelines.unwrap_or(true),
                size: ne.then(|| c3::Size {
                    width: width.unwrap_or(0.0),
                    height: height.unwrap_or(0.0),
                }),
            }),
            j::AttachmentKind::Path {
                closed,
                constant_speed,
                vertex_count,
                vertices,
                lengths,
                color,
            } => {
                let mut lengths = lengths.clone();
                lengths.resize(*vertex_count as usize / 3, 0.0);
                c3::Attachment::Path(c3::PathAttachment {
                    closed: closed.unwrap_or(false),
                    constant_speed: constant_speed.unwrap_or(true),
                    vertices: self.vertices(*vertex_count as usize, vertices),
                    lengths,
                    color: if ne { Some(color.unwrap_or([0xff, 0x77, 0x00, 0xff])) } else { None },
                })
            }
            j::AttachmentKind::Point { x, y, rotation, color } => {
                if !self.since(SpineVersion::V3_6, "a point attachment") {
                    return None;
                }
                c3::Attachment::Point(c3::Point {
                    rotation: rotation.unwrap_or(0.0),
                    x: x.unwrap_or(0.0),
                    y: y.unwrap_or(0.0),
                    color: if ne { Some(color.unwrap_or([0xf1, 0xf1, 0x00, 0xff])) } else { None },
                })
            }
            j::AttachmentKind::Clipping { end, vertex_count, vertices, color } => {
                if !self.since(SpineVersion::V3_6, "a clipping attachment") {
                    return None;
                }
                let end_slot = match end {
                    Some(n) => self.find("slot", n),
                    None => self.s.slots.len().saturating_sub(1) as u32,
                };
                c3::Attachment::Clipping(c3::Clipping {
                    end_slot,
                    vertices: self.vertices(*vertex_count as usize, vertices),
                    color: if ne { Some(color.unwrap_or([0xce, 0x3a, 0x3a, 0xff])) } else { None },
                })
            }
        };
        Some(c3::SkinEntry { key: put(Some(&a.key)), name: put(a.name.as_deref()), attachment })
    }

    fn skin_slots<S>(
        &mut self,
        slots: &[j::SkinSlot],
        ne: bool,
        put: &mut dyn FnMut(Option<&str>) -> S,
    ) -> Vec<c3::SkinSlot<S>> {
        let mut out = Vec::with_capacity(slots.len());
        for sl in slots {
            self.p.enter("slot", &sl.slot);
            let slot = self.find("slot", &sl.slot);
            let mut entries = Vec::with_capacity(sl.attachments.len());
            for a in &sl.attachments {
                self.p.enter("attachment", &a.key);
                entries.extend(self.attachment(a, ne, put));
                self.p.pop();
            }
            out.push(c3::SkinSlot { slot, entries });
            self.p.pop();
        }
        out
    }

    fn animation<S>(
        &mut self,
        a: &j::Animation,
        put: &mut dyn FnMut(Option<&str>) -> S,
    ) -> c3::Animation<S> {
        self.p.enter("animation", &a.name);
        let v38 = self.v38();
        let v35 = self.gen == SpineVersion::V3_5;
        let mut slots = Vec::new();
        for n in &a.slots {
            let slot = self.find("slot", &n.name);
            let mut timelines = Vec::new();
            for t in &n.timelines {
                timelines.push(match t {
                    SlotTimeline::Attachment(k) => c3::SlotTimeline::Attachment(
                        k.iter()
                            .map(|k| c3::AttachmentKey {
                                time: k.time,
                                name: put(k.value.as_deref()),
                            })
                            .collect(),
                    ),
                    SlotTimeline::Rgba(k) => {
                        c3::SlotTimeline::Color(keys_from_json(k, v38, |c| *c))
                    }
                    SlotTimeline::Rgba2(k) => {
                        if !self.since(SpineVersion::V3_6, "a two-color timeline") {
                            continue;
                        }
                        c3::SlotTimeline::TwoColor(keys_from_json(k, v38, |c: &TwoColor| {
                            c3::TwoColor {
                                light: c.light,
                                dark: [0xff, c.dark[0], c.dark[1], c.dark[2]],
                            }
                        }))
                    }
                    _ => {
                        self.p.report(ProblemKind::Invalid(
                            "a 4.x slot timeline (rgb, alpha, rgb2) in a 3.x skeleton".into(),
                        ));
                        continue;
                    }
                });
            }
            slots.push(c3::SlotTimelines { slot, timelines });
        }
        // 3.5–3.7 loaders read a missing scale value as 0, 3.8 as 1.
        let scale_default = if v38 { 1.0 } else { 0.0 };
        let mut bones = Vec::new();
        for n in &a.bones {
            let bone = self.find("bone", &n.name);
            let mut timelines = Vec::new();
            for t in &n.timelines {
                let xy = |d: f32| move |v: &Xy| [v.x.unwrap_or(d), v.y.unwrap_or(d)];
                timelines.push(match t {
                    BoneTimeline::Rotate(k) => {
                        c3::BoneTimeline::Rotate(keys_from_json(k, v38, |v| v.unwrap_or(0.0)))
                    }
                    BoneTimeline::Translate(k) => {
                        c3::BoneTimeline::Translate(keys_from_json(k, v38, xy(0.0)))
                    }
                    BoneTimeline::Scale(k) => {
                        c3::BoneTimeline::Scale(keys_from_json(k, v38, xy(scale_default)))
                    }
                    BoneTimeline::Shear(k) => {
                        c3::BoneTimeline::Shear(keys_from_json(k, v38, xy(0.0)))
                    }
                    _ => {
                        self.p.report(ProblemKind::Invalid(
                            "a 4.x bone timeline in a 3.x skeleton".into(),
                        ));
                        continue;
                    }
                });
            }
            bones.push(c3::BoneTimelines { bone, timelines });
        }
        let mut ik = Vec::new();
        for n in &a.ik {
            let constraint = self.find("IK constraint", &n.name);
            let timeline = keys_from_json(&n.timelines, v38, |k: &j::IkKey| c3::IkKey {
                mix: k.mix.unwrap_or(1.0),
                softness: if v38 { k.softness.unwrap_or(0.0) } else { 0.0 },
                bend_direction: if k.bend_positive.unwrap_or(true) { 1 } else { -1 },
                compress: k.compress.unwrap_or(false),
                stretch: k.stretch.unwrap_or(false),
            });
            ik.push(c3::IkTimeline { constraint, timeline });
        }
        let mut transform = Vec::new();
        for n in &a.transform {
            let constraint = self.find("transform constraint", &n.name);
            let timeline = keys_from_json(&n.timelines, v38, |m: &TransformMix| {
                [
                    m.rotate_mix.unwrap_or(1.0),
                    m.translate_mix.unwrap_or(1.0),
                    m.scale_mix.unwrap_or(1.0),
                    m.shear_mix.unwrap_or(1.0),
                ]
            });
            transform.push(c3::TransformTimeline { constraint, timeline });
        }
        let mut path = Vec::new();
        for n in &a.path {
            let constraint = self.find("path constraint", &n.name);
            let timelines = n
                .timelines
                .iter()
                .map(|t| match t {
                    j::PathTimeline::Position(k) => {
                        c3::PathTimeline::Position(keys_from_json(k, v38, |v| v.unwrap_or(0.0)))
                    }
                    j::PathTimeline::Spacing(k) => {
                        c3::PathTimeline::Spacing(keys_from_json(k, v38, |v| v.unwrap_or(0.0)))
                    }
                    j::PathTimeline::Mix(k) => {
                        c3::PathTimeline::Mix(keys_from_json(k, v38, |m: &PathMix| {
                            [m.rotate_mix.unwrap_or(1.0), m.translate_mix.unwrap_or(1.0)]
                        }))
                    }
                })
                .collect();
            path.push(c3::PathTimelines { constraint, timelines });
        }
        let mut deform: Vec<c3::DeformSkin<S>> = Vec::new();
        for at in &a.attachments {
            let skin = self.find("skin", &at.skin);
            let slot = self.find("slot", &at.slot);
            for t in &at.timelines {
                let AttachmentTimeline::Deform(keys) = t else { continue };
                let timeline = keys_from_json(keys, v38, |k: &DeformKey| match &k.vertices {
                    Some(v) if !v.is_empty() => c3::DeformKey {
                        start: k.offset.unwrap_or(0).max(0) as u32,
                        offsets: v.clone(),
                    },
                    _ => c3::DeformKey { start: 0, offsets: Vec::new() },
                });
                let attachment = put(Some(&at.attachment));
                let si = match deform.iter().position(|d| d.skin == skin) {
                    Some(i) => i,
                    None => {
                        deform.push(c3::DeformSkin { skin, slots: Vec::new() });
                        deform.len() - 1
                    }
                };
                let sk = &mut deform[si];
                let li = match sk.slots.iter().position(|d| d.slot == slot) {
                    Some(i) => i,
                    None => {
                        sk.slots.push(c3::DeformSlot { slot, attachments: Vec::new() });
                        sk.slots.len() - 1
                    }
                };
                sk.slots[li].attachments.push(c3::DeformTimeline { attachment, timeline });
            }
        }
        let draw_order = a
            .draw_order
            .iter()
            .flatten()
            .map(|k| c3::DrawOrderKey {
                time: k.time,
                changes: k
                    .value
                    .iter()
                    .flatten()
                    .map(|o| DrawOrderChange { slot: self.find("slot", &o.slot), shift: o.offset })
                    .collect(),
            })
            .collect();
        let mut events = Vec::new();
        for k in a.events.iter().flatten() {
            let event = self.find("event", &k.value.name);
            let def = self.s.events.get(event as usize);
            let has_audio =
                !v35 && self.gen >= SpineVersion::V3_7 && def.is_some_and(|d| d.audio.is_some());
            let def_volume = def.and_then(|d| d.volume).unwrap_or(1.0);
            let def_balance = def.and_then(|d| d.balance).unwrap_or(0.0);
            events.push(c3::EventKey {
                time: k.time,
                event,
                int: k.value.int.unwrap_or(def.and_then(|d| d.int).unwrap_or(0)),
                float: k.value.float.unwrap_or(def.and_then(|d| d.float).unwrap_or(0.0)),
                string: k.value.string.clone().map(Some),
                audio: has_audio.then(|| c3::EventAudio {
                    volume: k.value.volume.unwrap_or(def_volume),
                    balance: k.value.balance.unwrap_or(def_balance),
                }),
            });
        }
        self.p.pop();
        c3::Animation {
            name: a.name.clone(),
            slots,
            bones,
            ik,
            transform,
            path,
            deform,
            draw_order,
            events,
        }
    }

    fn parent(&mut self, i: usize, b: &j::Bone) -> Option<u32> {
        if i == 0 {
            return None;
        }
        match &b.parent {
            Some(p) => Some(self.find("bone", p)),
            None => {
                self.p.enter("bone", &b.name);
                self.p
                    .report(ProblemKind::Invalid("only the first bone may have no parent".into()));
                self.p.pop();
                Some(0)
            }
        }
    }
}

fn nonessential(s: &j::Skeleton) -> bool {
    let i = &s.info;
    i.fps.is_some()
        || i.images.is_some()
        || i.audio.is_some()
        || s.bones.iter().any(|b| b.color.is_some())
}

fn order_of(h: &j::ConstraintHead) -> u32 {
    u32::try_from(h.order.unwrap_or(0)).unwrap_or(0)
}

fn transform_offsets(t: &j::TransformConstraint) -> [f32; 6] {
    [
        t.rotation.unwrap_or(0.0),
        t.x.unwrap_or(0.0),
        t.y.unwrap_or(0.0),
        t.scale_x.unwrap_or(0.0),
        t.scale_y.unwrap_or(0.0),
        t.shear_y.unwrap_or(0.0),
    ]
}

fn transform_mixes(m: &TransformMix) -> [f32; 4] {
    [
        m.rotate_mix.unwrap_or(1.0),
        m.translate_mix.unwrap_or(1.0),
        m.scale_mix.unwrap_or(1.0),
        m.shear_mix.unwrap_or(1.0),
    ]
}

fn modes(
    p: &j::PathConstraint,
    c: &mut FromJson<'_>,
) -> (c3::PositionMode, c3::SpacingMode, c3::RotateMode) {
    let pm = match p.position_mode.unwrap_or(j::PositionMode::Percent) {
        j::PositionMode::Fixed => c3::PositionMode::Fixed,
        j::PositionMode::Percent => c3::PositionMode::Percent,
    };
    let sm = match p.spacing_mode.unwrap_or(j::SpacingMode::Length) {
        j::SpacingMode::Length => c3::SpacingMode::Length,
        j::SpacingMode::Fixed => c3::SpacingMode::Fixed,
        j::SpacingMode::Percent => c3::SpacingMode::Percent,
        j::SpacingMode::Proportional => {
            c.p.report(ProblemKind::Invalid("proportional spacing does not exist in 3.x".into()));
            c3::SpacingMode::Percent
        }
    };
    let rm = match p.rotate_mode.unwrap_or(j::RotateMode::Tangent) {
        j::RotateMode::Tangent => c3::RotateMode::Tangent,
        j::RotateMode::Chain => c3::RotateMode::Chain,
        j::RotateMode::ChainScale => c3::RotateMode::ChainScale,
    };
    (pm, sm, rm)
}

fn check_default_skin(c: &mut FromJson<'_>) -> Vec<j::SkinSlot> {
    c.s.skins.iter().find(|k| k.name == "default").map(|k| k.slots.clone()).unwrap_or_default()
}

/// A 3.5–3.7 JSON skeleton as a binary skeleton of its declared version.
pub fn json_to_v35(s: &j::Skeleton) -> Result<v35::Skeleton, Vec<Problem>> {
    let version = s.info.spine.clone().unwrap_or_else(|| "3.7".into());
    let gen = generation_of(&version);
    let mut c = FromJson::new(s, gen);
    let ne = nonessential(s);
    let mut put = |x: Option<&str>| x.map(str::to_owned);
    let bones = s
        .bones
        .iter()
        .enumerate()
        .map(|(i, b)| v35::Bone {
            name: b.name.clone(),
            parent: c.parent(i, b),
            rotation: b.rotation.unwrap_or(0.0),
            x: b.x.unwrap_or(0.0),
            y: b.y.unwrap_or(0.0),
            scale_x: b.scale_x.unwrap_or(1.0),
            scale_y: b.scale_y.unwrap_or(1.0),
            shear_x: b.shear_x.unwrap_or(0.0),
            shear_y: b.shear_y.unwrap_or(0.0),
            length: b.length.unwrap_or(0.0),
            transform_mode: inherit_from_json(b.inherit),
            color: ne.then(|| b.color.unwrap_or([0x98, 0x98, 0x98, 0xff])),
        })
        .collect();
    let mut slots = Vec::new();
    for sl in &s.slots {
        // 3.5 has no dark color (its loaders do not read one).
        let dark = if gen >= SpineVersion::V3_6 { sl.dark } else { None };
        slots.push(v35::Slot {
            name: sl.name.clone(),
            bone: c.find("bone", &sl.bone),
            color: sl.color.unwrap_or([0xff; 4]),
            dark_color: dark_from_json(dark),
            attachment: sl.attachment.clone(),
            blend: blend_from_json(sl.blend),
        });
    }
    let ik =
        s.ik.iter()
            .map(|k| v35::IkConstraint {
                name: k.head.name.clone(),
                order: order_of(&k.head),
                bones: c.bones(&k.bones),
                target: c.find("bone", &k.target),
                mix: k.mix.unwrap_or(1.0),
                bend_direction: if k.bend_positive.unwrap_or(true) { 1 } else { -1 },
                compress: k.compress.unwrap_or(false),
                stretch: k.stretch.unwrap_or(false),
                uniform: k.uniform.unwrap_or(false),
            })
            .collect();
    // 3.5 has no local/relative transform constraints (its loaders do not read the flags).
    let flags = gen >= SpineVersion::V3_6;
    let mut transform = Vec::new();
    for t in &s.transform {
        transform.push(v35::TransformConstraint {
            name: t.head.name.clone(),
            order: order_of(&t.head),
            bones: c.bones(&t.bones),
            target: c.find("bone", &t.target),
            local: flags && t.local.unwrap_or(false),
            relative: flags && t.relative.unwrap_or(false),
            offsets: transform_offsets(t),
            mixes: transform_mixes(&t.mix),
        });
    }
    let mut path = Vec::new();
    for p in &s.path {
        let (position_mode, spacing_mode, rotate_mode) = modes(p, &mut c);
        path.push(v35::PathConstraint {
            name: p.head.name.clone(),
            order: order_of(&p.head),
            bones: c.bones(&p.bones),
            target: c.find("slot", &p.target),
            position_mode,
            spacing_mode,
            rotate_mode,
            offset_rotation: p.rotation.unwrap_or(0.0),
            position: p.position.unwrap_or(0.0),
            spacing: p.spacing.unwrap_or(0.0),
            rotate_mix: p.mix.rotate_mix.unwrap_or(1.0),
            translate_mix: p.mix.translate_mix.unwrap_or(1.0),
        });
    }
    let default_slots = check_default_skin(&mut c);
    c.p.enter("skin", "default");
    let default_skin = c.skin_slots(&default_slots, ne, &mut put);
    c.p.pop();
    let mut skins = Vec::new();
    for k in s.skins.iter().filter(|k| k.name != "default") {
        c.p.enter("skin", &k.name);
        let slots = c.skin_slots(&k.slots, ne, &mut put);
        skins.push(v35::Skin { name: Some(k.name.clone()), slots });
        c.p.pop();
    }
    let audio = gen >= SpineVersion::V3_7;
    let events = s
        .events
        .iter()
        .map(|e| v35::EventData {
            name: e.name.clone(),
            int: e.int.unwrap_or(0),
            float: e.float.unwrap_or(0.0),
            string: e.string.clone(),
            audio: e.audio.clone().filter(|_| audio).map(|path| c3::EventDataAudio {
                path,
                volume: e.volume.unwrap_or(1.0),
                balance: e.balance.unwrap_or(0.0),
            }),
        })
        .collect();
    let animations = s.animations.iter().map(|a| c.animation(a, &mut put)).collect();
    if !c.p.list.is_empty() {
        return Err(c.p.list);
    }
    let i = &s.info;
    Ok(v35::Skeleton {
        generation: gen,
        header: v35::Header {
            hash: i.hash.clone(),
            version,
            width: i.width.unwrap_or(0.0),
            height: i.height.unwrap_or(0.0),
            nonessential: ne.then(|| v35::Nonessential {
                fps: i.fps.unwrap_or(30.0),
                images: i.images.clone(),
                audio: if audio { i.audio.clone() } else { None },
            }),
        },
        bones,
        slots,
        ik,
        transform,
        path,
        default_skin,
        skins,
        events,
        animations,
    })
}

/// A 3.8 JSON skeleton as a 3.8 binary skeleton.
pub fn json_to_v38(s: &j::Skeleton) -> Result<v38::Skeleton, Vec<Problem>> {
    let version = s.info.spine.clone().unwrap_or_else(|| "3.8".into());
    let mut c = FromJson::new(s, SpineVersion::V3_8);
    let ne = nonessential(s);
    let mut strings = Strings::default();
    let bones = s
        .bones
        .iter()
        .enumerate()
        .map(|(i, b)| v38::Bone {
            name: b.name.clone(),
            parent: c.parent(i, b),
            rotation: b.rotation.unwrap_or(0.0),
            x: b.x.unwrap_or(0.0),
            y: b.y.unwrap_or(0.0),
            scale_x: b.scale_x.unwrap_or(1.0),
            scale_y: b.scale_y.unwrap_or(1.0),
            shear_x: b.shear_x.unwrap_or(0.0),
            shear_y: b.shear_y.unwrap_or(0.0),
            length: b.length.unwrap_or(0.0),
            transform_mode: inherit_from_json(b.inherit),
            skin_required: b.skin.unwrap_or(false),
            color: ne.then(|| b.color.unwrap_or([0x98, 0x98, 0x98, 0xff])),
        })
        .collect();
    let slots = s
        .slots
        .iter()
        .map(|sl| v38::Slot {
            name: sl.name.clone(),
            bone: c.find("bone", &sl.bone),
            color: sl.color.unwrap_or([0xff; 4]),
            dark_color: dark_from_json(sl.dark),
            attachment: strings.opt(sl.attachment.as_deref()),
            blend: blend_from_json(sl.blend),
        })
        .collect();
    let ik =
        s.ik.iter()
            .map(|k| v38::IkConstraint {
                name: k.head.name.clone(),
                order: order_of(&k.head),
                skin_required: k.head.skin.unwrap_or(false),
                bones: c.bones(&k.bones),
                target: c.find("bone", &k.target),
                mix: k.mix.unwrap_or(1.0),
                softness: k.softness.unwrap_or(0.0),
                bend_direction: if k.bend_positive.unwrap_or(true) { 1 } else { -1 },
                compress: k.compress.unwrap_or(false),
                stretch: k.stretch.unwrap_or(false),
                uniform: k.uniform.unwrap_or(false),
            })
            .collect();
    let transform = s
        .transform
        .iter()
        .map(|t| v38::TransformConstraint {
            name: t.head.name.clone(),
            order: order_of(&t.head),
            skin_required: t.head.skin.unwrap_or(false),
            bones: c.bones(&t.bones),
            target: c.find("bone", &t.target),
            local: t.local.unwrap_or(false),
            relative: t.relative.unwrap_or(false),
            offsets: transform_offsets(t),
            mixes: transform_mixes(&t.mix),
        })
        .collect();
    let mut path = Vec::new();
    for p in &s.path {
        let (position_mode, spacing_mode, rotate_mode) = modes(p, &mut c);
        path.push(v38::PathConstraint {
            name: p.head.name.clone(),
            order: order_of(&p.head),
            skin_required: p.head.skin.unwrap_or(false),
            bones: c.bones(&p.bones),
            target: c.find("slot", &p.target),
            position_mode,
            spacing_mode,
            rotate_mode,
            offset_rotation: p.rotation.unwrap_or(0.0),
            position: p.position.unwrap_or(0.0),
            spacing: p.spacing.unwrap_or(0.0),
            rotate_mix: p.mix.rotate_mix.unwrap_or(1.0),
            translate_mix: p.mix.translate_mix.unwrap_or(1.0),
        });
    }
    let mut put = |x: Option<&str>| strings.opt(x);
    let default_slots = check_default_skin(&mut c);
    c.p.enter("skin", "default");
    let default_skin = c.skin_slots(&default_slots, ne, &mut put);
    c.p.pop();
    let mut skins = Vec::new();
    for k in s.skins.iter().filter(|k| k.name != "default") {
        c.p.enter("skin", &k.name);
        let slots = c.skin_slots(&k.slots, ne, &mut put);
        let bones = c.bones(&k.bones);
        let ik = k.ik.iter().map(|n| c.find("IK constraint", n)).collect();
        let transform = k.transform.iter().map(|n| c.find("transform constraint", n)).collect();
        let path = k.path.iter().map(|n| c.find("path constraint", n)).collect();
        skins.push(v38::Skin { name: put(Some(&k.name)), bones, ik, transform, path, slots });
        c.p.pop();
    }
    let events = s
        .events
        .iter()
        .map(|e| v38::EventData {
            name: put(Some(&e.name)),
            int: e.int.unwrap_or(0),
            float: e.float.unwrap_or(0.0),
            string: e.string.clone(),
            audio: e.audio.clone().map(|path| c3::EventDataAudio {
                path,
                volume: e.volume.unwrap_or(1.0),
                balance: e.balance.unwrap_or(0.0),
            }),
        })
        .collect();
    let animations = s.animations.iter().map(|a| c.animation(a, &mut put)).collect();
    if !c.p.list.is_empty() {
        return Err(c.p.list);
    }
    let i = &s.info;
    Ok(v38::Skeleton {
        header: v38::Header {
            hash: i.hash.clone(),
            version,
            x: i.x.unwrap_or(0.0),
            y: i.y.unwrap_or(0.0),
            width: i.width.unwrap_or(0.0),
            height: i.height.unwrap_or(0.0),
            nonessential: ne.then(|| v38::Nonessential {
                fps: i.fps.unwrap_or(30.0),
                images: i.images.clone(),
                audio: i.audio.clone(),
            }),
        },
        strings: strings.list,
        bones,
        slots,
        ik,
        transform,
        path,
        default_skin,
        skins,
        events,
        animations,
    })
}
