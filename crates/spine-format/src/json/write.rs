//! The JSON writer: the inverse of [`super::parse`] up to formatting.
//!
//! `parse(&write(&s)) == s` for every `s` that [`super::parse`] returned. Key spellings follow
//! `s.version` (the same rules as the reader); keys are written in a fixed order, absent
//! `Option`s are left out, every key gets an explicit `time`, colors are lowercase `rrggbbaa`, and
//! numbers are the shortest decimals that read back to the same `f32`. Unknown keys of the
//! original file are not kept, so the text is not the original text.
//!
//! A hand-built AST holding something its version cannot spell (e.g. an `rgb` slot timeline in a
//! 3.x skeleton, skin constraints in a 3.5–3.7 skeleton) is written with the 4.x spelling, or
//! dropped for skin extras; such text may not read back.

use super::anim::*;
use super::*;

/// An owned JSON value with ordered objects: what the writer builds and serializes.
#[derive(Debug, Clone, PartialEq)]
enum J {
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

impl serde::Serialize for J {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            J::Bool(b) => s.serialize_bool(*b),
            // Integral values print without a fraction, as the Spine editor writes them.
            J::Num(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => s.serialize_i64(*n as i64),
            J::Num(n) => s.serialize_f64(*n),
            J::Str(x) => s.serialize_str(x),
            J::Arr(a) => {
                let mut seq = s.serialize_seq(Some(a.len()))?;
                for x in a {
                    seq.serialize_element(x)?;
                }
                seq.end()
            }
            J::Obj(o) => {
                let mut map = s.serialize_map(Some(o.len()))?;
                for (k, x) in o {
                    map.serialize_entry(k, x)?;
                }
                map.end()
            }
        }
    }
}

/// Builds an object in key order.
#[derive(Default)]
struct O(Vec<(String, J)>);

fn num(x: f32) -> J {
    // Rust prints the shortest decimal that reads back to the same f32.
    J::Num(format!("{x}").parse().unwrap_or(f64::from(x)))
}

fn color(c: [u8; 4]) -> J {
    J::Str(c.iter().map(|b| format!("{b:02x}")).collect())
}

fn strs(v: &[String]) -> J {
    J::Arr(v.iter().map(|s| J::Str(s.clone())).collect())
}

fn floats(v: &[f32]) -> J {
    J::Arr(v.iter().map(|x| num(*x)).collect())
}

fn u32s(v: &[u32]) -> J {
    J::Arr(v.iter().map(|x| J::Num(f64::from(*x))).collect())
}

impl O {
    fn put(&mut self, k: &str, v: J) -> &mut Self {
        self.0.push((k.to_owned(), v));
        self
    }
    fn f(&mut self, k: &str, v: Option<f32>) -> &mut Self {
        if let Some(x) = v {
            self.put(k, num(x));
        }
        self
    }
    fn i(&mut self, k: &str, v: Option<i32>) -> &mut Self {
        if let Some(x) = v {
            self.put(k, J::Num(f64::from(x)));
        }
        self
    }
    fn b(&mut self, k: &str, v: Option<bool>) -> &mut Self {
        if let Some(x) = v {
            self.put(k, J::Bool(x));
        }
        self
    }
    fn s(&mut self, k: &str, v: &Option<String>) -> &mut Self {
        if let Some(x) = v {
            self.put(k, J::Str(x.clone()));
        }
        self
    }
    fn c(&mut self, k: &str, v: Option<[u8; 4]>) -> &mut Self {
        if let Some(x) = v {
            self.put(k, color(x));
        }
        self
    }
    fn list(&mut self, k: &str, v: &[String]) -> &mut Self {
        if !v.is_empty() {
            self.put(k, strs(v));
        }
        self
    }
    fn done(&mut self) -> J {
        J::Obj(std::mem::take(&mut self.0))
    }
}

fn head(o: &mut O, h: &ConstraintHead) {
    o.put("name", J::Str(h.name.clone())).i("order", h.order).b("skin", h.skin);
}

fn transform_mix(o: &mut O, m: &TransformMix) {
    o.f("rotateMix", m.rotate_mix)
        .f("translateMix", m.translate_mix)
        .f("scaleMix", m.scale_mix)
        .f("shearMix", m.shear_mix)
        .f("mixRotate", m.mix_rotate)
        .f("mixX", m.mix_x)
        .f("mixY", m.mix_y)
        .f("mixScaleX", m.mix_scale_x)
        .f("mixScaleY", m.mix_scale_y)
        .f("mixShearY", m.mix_shear_y);
}

fn path_mix(o: &mut O, m: &PathMix) {
    o.f("rotateMix", m.rotate_mix)
        .f("translateMix", m.translate_mix)
        .f("mixRotate", m.mix_rotate)
        .f("mixX", m.mix_x)
        .f("mixY", m.mix_y);
}

fn sequence(o: &mut O, s: &Option<Sequence>) {
    if let Some(s) = s {
        let j = O::default()
            .i("count", Some(s.count))
            .i("start", s.start)
            .i("digits", s.digits)
            .i("setup", s.setup)
            .done();
        o.put("sequence", j);
    }
}

fn attachment(a: &Attachment, ver: SpineVersion) -> J {
    let mut o = O::default();
    o.s("name", &a.name);
    if let Some(t) = a.declared_type {
        o.put("type", J::Str(t.as_str().to_owned()));
    }
    match &a.kind {
        AttachmentKind::Region {
            path,
            x,
            y,
            scale_x,
            scale_y,
            rotation,
            width,
            height,
            color,
            sequence: seq,
        } => {
            o.s("path", path)
                .f("x", *x)
                .f("y", *y)
                .f("scaleX", *scale_x)
                .f("scaleY", *scale_y)
                .f("rotation", *rotation)
                .f("width", Some(*width))
                .f("height", Some(*height))
                .c("color", *color);
            sequence(&mut o, seq);
        }
        AttachmentKind::BoundingBox { vertex_count, vertices, color } => {
            o.put("vertexCount", J::Num(f64::from(*vertex_count)))
                .put("vertices", floats(vertices))
                .c("color", *color);
        }
        AttachmentKind::Mesh {
            path,
            color,
            width,
            height,
            sequence: seq,
            uvs,
            vertices,
            triangles,
            hull,
            edges,
        } => {
            o.s("path", path).c("color", *color).f("width", *width).f("height", *height);
            sequence(&mut o, seq);
            o.put("uvs", floats(uvs))
                .put("vertices", floats(vertices))
                .put("triangles", u32s(triangles));
            if let Some(h) = hull {
                o.put("hull", J::Num(f64::from(*h)));
            }
            if let Some(e) = edges {
                o.put("edges", u32s(e));
            }
        }
        AttachmentKind::LinkedMesh {
            path,
            color,
            width,
            height,
            sequence: seq,
            parent,
            skin,
            timelines,
        } => {
            o.s("path", path).c("color", *color).f("width", *width).f("height", *height);
            sequence(&mut o, seq);
            o.put("parent", J::Str(parent.clone()))
                .s("skin", skin)
                .b(if ver >= SpineVersion::V4_1 { "timelines" } else { "deform" }, *timelines);
        }
        AttachmentKind::Path { closed, constant_speed, vertex_count, vertices, lengths, color } => {
            o.b("closed", *closed)
                .b("constantSpeed", *constant_speed)
                .put("vertexCount", J::Num(f64::from(*vertex_count)))
                .put("vertices", floats(vertices))
                .put("lengths", floats(lengths))
                .c("color", *color);
        }
        AttachmentKind::Point { x, y, rotation, color } => {
            o.f("x", *x).f("y", *y).f("rotation", *rotation).c("color", *color);
        }
        AttachmentKind::Clipping { end, vertex_count, vertices, color } => {
            o.s("end", end)
                .put("vertexCount", J::Num(f64::from(*vertex_count)))
                .put("vertices", floats(vertices))
                .c("color", *color);
        }
    }
    o.done()
}

fn skin_slots(slots: &[SkinSlot], ver: SpineVersion) -> J {
    J::Obj(
        slots
            .iter()
            .map(|s| {
                let atts =
                    s.attachments.iter().map(|a| (a.key.clone(), attachment(a, ver))).collect();
                (s.slot.clone(), J::Obj(atts))
            })
            .collect(),
    )
}

fn curve(o: &mut O, c: &Option<Curve>) {
    match c {
        None => {}
        Some(Curve::Stepped) => {
            o.put("curve", J::Str("stepped".into()));
        }
        Some(Curve::Other(s)) => {
            o.put("curve", J::Str(s.clone()));
        }
        Some(Curve::Bezier(v)) => {
            o.put("curve", floats(v));
        }
        Some(Curve::Number { c1, c2, c3, c4 }) => {
            o.f("curve", Some(*c1)).f("c2", *c2).f("c3", *c3).f("c4", *c4);
        }
    }
}

/// Writes keys: `time`, the values (by `f`), then the curve.
fn keys<V>(keys: &[Key<V>], mut f: impl FnMut(&mut O, &V)) -> J {
    J::Arr(
        keys.iter()
            .map(|k| {
                let mut o = O::default();
                o.f("time", Some(k.time));
                f(&mut o, &k.value);
                curve(&mut o, &k.curve);
                o.done()
            })
            .collect(),
    )
}

fn keys1(k: &Keys1, name: &str) -> J {
    keys(k, |o, v| {
        o.f(name, *v);
    })
}

fn keys_xy(k: &[Key<Xy>]) -> J {
    keys(k, |o, v| {
        o.f("x", v.x).f("y", v.y);
    })
}

fn two(o: &mut O, v: &TwoColor) {
    o.c("light", Some(v.light)).c("dark", Some(v.dark));
}

fn slot_timeline(t: &SlotTimeline, ver: SpineVersion) -> (&'static str, J) {
    let col = |o: &mut O, c: &[u8; 4]| {
        o.c("color", Some(*c));
    };
    match t {
        SlotTimeline::Attachment(k) => (
            "attachment",
            keys(k, |o, v| {
                o.s("name", v);
            }),
        ),
        SlotTimeline::Rgba(k) => (if ver.is_v3() { "color" } else { "rgba" }, keys(k, col)),
        SlotTimeline::Rgb(k) => ("rgb", keys(k, col)),
        SlotTimeline::Alpha(k) => ("alpha", keys1(k, "value")),
        SlotTimeline::Rgba2(k) => (if ver.is_v3() { "twoColor" } else { "rgba2" }, keys(k, two)),
        SlotTimeline::Rgb2(k) => ("rgb2", keys(k, two)),
    }
}

fn bone_timeline(t: &BoneTimeline, ver: SpineVersion) -> (&'static str, J) {
    use BoneTimeline as B;
    match t {
        B::Rotate(k) => ("rotate", keys1(k, if ver.is_v3() { "angle" } else { "value" })),
        B::Translate(k) => ("translate", keys_xy(k)),
        B::TranslateX(k) => ("translatex", keys1(k, "value")),
        B::TranslateY(k) => ("translatey", keys1(k, "value")),
        B::Scale(k) => ("scale", keys_xy(k)),
        B::ScaleX(k) => ("scalex", keys1(k, "value")),
        B::ScaleY(k) => ("scaley", keys1(k, "value")),
        B::Shear(k) => ("shear", keys_xy(k)),
        B::ShearX(k) => ("shearx", keys1(k, "value")),
        B::ShearY(k) => ("sheary", keys1(k, "value")),
        B::Inherit(k) => (
            "inherit",
            keys(k, |o, v| {
                if let Some(i) = v {
                    o.put("inherit", J::Str(i.as_str().to_owned()));
                }
            }),
        ),
    }
}

fn named<T>(items: &[Named<T>], mut f: impl FnMut(&T) -> J) -> J {
    J::Obj(items.iter().map(|n| (n.name.clone(), f(&n.timelines))).collect())
}

/// A slot name with its attachments' timeline objects.
type SlotGroup = (String, Vec<(String, J)>);

/// Groups the flattened attachment timelines back into skin > slot > attachment objects.
fn attachment_timelines(
    list: &[AttachmentTimelines],
    mut leaf: impl FnMut(&[AttachmentTimeline]) -> J,
) -> J {
    let mut skins: Vec<(String, Vec<SlotGroup>)> = Vec::new();
    for a in list {
        let si = match skins.iter().position(|(n, _)| *n == a.skin) {
            Some(i) => i,
            None => {
                skins.push((a.skin.clone(), Vec::new()));
                skins.len() - 1
            }
        };
        let Some((_, slots)) = skins.get_mut(si) else { continue };
        let li = match slots.iter().position(|(n, _)| *n == a.slot) {
            Some(i) => i,
            None => {
                slots.push((a.slot.clone(), Vec::new()));
                slots.len() - 1
            }
        };
        if let Some((_, atts)) = slots.get_mut(li) {
            atts.push((a.attachment.clone(), leaf(&a.timelines)));
        }
    }
    J::Obj(
        skins
            .into_iter()
            .map(|(s, slots)| (s, J::Obj(slots.into_iter().map(|(n, a)| (n, J::Obj(a))).collect())))
            .collect(),
    )
}

fn deform_keys(k: &[Key<DeformKey>]) -> J {
    keys(k, |o, v| {
        o.i("offset", v.offset);
        if let Some(vs) = &v.vertices {
            o.put("vertices", floats(vs));
        }
    })
}

fn animation(a: &Animation, ver: SpineVersion) -> J {
    let mut o = O::default();
    if !a.slots.is_empty() {
        let j = named(&a.slots, |ts| {
            J::Obj(
                ts.iter().map(|t| slot_timeline(t, ver)).map(|(k, v)| (k.to_owned(), v)).collect(),
            )
        });
        o.put("slots", j);
    }
    if !a.bones.is_empty() {
        let j = named(&a.bones, |ts| {
            J::Obj(
                ts.iter().map(|t| bone_timeline(t, ver)).map(|(k, v)| (k.to_owned(), v)).collect(),
            )
        });
        o.put("bones", j);
    }
    if !a.ik.is_empty() {
        let j = named(&a.ik, |k| {
            keys(k, |o, v| {
                o.f("mix", v.mix)
                    .f("softness", v.softness)
                    .b("bendPositive", v.bend_positive)
                    .b("compress", v.compress)
                    .b("stretch", v.stretch);
            })
        });
        o.put("ik", j);
    }
    if !a.transform.is_empty() {
        o.put("transform", named(&a.transform, |k| keys(k, transform_mix)));
    }
    if !a.path.is_empty() {
        let j = named(&a.path, |ts| {
            J::Obj(
                ts.iter()
                    .map(|t| match t {
                        PathTimeline::Position(k) => (
                            "position".to_owned(),
                            keys1(k, if ver.is_v3() { "position" } else { "value" }),
                        ),
                        PathTimeline::Spacing(k) => (
                            "spacing".to_owned(),
                            keys1(k, if ver.is_v3() { "spacing" } else { "value" }),
                        ),
                        PathTimeline::Mix(k) => ("mix".to_owned(), keys(k, path_mix)),
                    })
                    .collect(),
            )
        });
        o.put(if ver < SpineVersion::V3_8 { "paths" } else { "path" }, j);
    }
    if !a.physics.is_empty() {
        let j = named(&a.physics, |ts| {
            J::Obj(
                ts.iter()
                    .map(|t| match t {
                        PhysicsTimeline::Reset(k) => ("reset".to_owned(), keys(k, |_, _| {})),
                        PhysicsTimeline::Value(p, k) => {
                            let name = match p {
                                PhysicsProperty::Inertia => "inertia",
                                PhysicsProperty::Strength => "strength",
                                PhysicsProperty::Damping => "damping",
                                PhysicsProperty::Mass => "mass",
                                PhysicsProperty::Wind => "wind",
                                PhysicsProperty::Gravity => "gravity",
                                PhysicsProperty::Mix => "mix",
                            };
                            (name.to_owned(), keys1(k, "value"))
                        }
                    })
                    .collect(),
            )
        });
        o.put("physics", j);
    }
    if !a.attachments.is_empty() {
        if ver < SpineVersion::V4_1 {
            let j = attachment_timelines(&a.attachments, |ts| {
                ts.iter()
                    .find_map(|t| match t {
                        AttachmentTimeline::Deform(k) => Some(deform_keys(k)),
                        AttachmentTimeline::Sequence(_) => None,
                    })
                    .unwrap_or(J::Arr(Vec::new()))
            });
            o.put("deform", j);
        } else {
            let j = attachment_timelines(&a.attachments, |ts| {
                J::Obj(
                    ts.iter()
                        .map(|t| match t {
                            AttachmentTimeline::Deform(k) => ("deform".to_owned(), deform_keys(k)),
                            AttachmentTimeline::Sequence(k) => (
                                "sequence".to_owned(),
                                keys(k, |o, v| {
                                    if let Some(m) = v.mode {
                                        o.put("mode", J::Str(m.as_str().to_owned()));
                                    }
                                    o.i("index", v.index).f("delay", v.delay);
                                }),
                            ),
                        })
                        .collect(),
                )
            });
            o.put("attachments", j);
        }
    }
    if let Some(d) = &a.draw_order {
        let j = keys(d, |o, v| {
            if let Some(offsets) = v {
                let list = offsets
                    .iter()
                    .map(|x| {
                        O::default()
                            .put("slot", J::Str(x.slot.clone()))
                            .i("offset", Some(x.offset))
                            .done()
                    })
                    .collect();
                o.put("offsets", J::Arr(list));
            }
        });
        o.put("drawOrder", j);
    }
    if let Some(e) = &a.events {
        let j = keys(e, |o, v| {
            o.put("name", J::Str(v.name.clone()))
                .i("int", v.int)
                .f("float", v.float)
                .s("string", &v.string)
                .f("volume", v.volume)
                .f("balance", v.balance);
        });
        o.put("events", j);
    }
    o.done()
}

fn root(s: &Skeleton) -> J {
    let ver = s.version;
    let i = &s.info;
    let mut o = O::default();
    let info = O::default()
        .s("hash", &i.hash)
        .s("spine", &i.spine)
        .f("x", i.x)
        .f("y", i.y)
        .f("width", i.width)
        .f("height", i.height)
        .f("referenceScale", i.reference_scale)
        .f("fps", i.fps)
        .s("images", &i.images)
        .s("audio", &i.audio)
        .done();
    o.put("skeleton", info);
    let bones = s.bones.iter().map(|b| {
        let mut o = O::default();
        o.put("name", J::Str(b.name.clone()))
            .s("parent", &b.parent)
            .f("length", b.length)
            .f("x", b.x)
            .f("y", b.y)
            .f("rotation", b.rotation)
            .f("scaleX", b.scale_x)
            .f("scaleY", b.scale_y)
            .f("shearX", b.shear_x)
            .f("shearY", b.shear_y);
        if let Some(inh) = b.inherit {
            o.put(
                if ver >= SpineVersion::V4_2 { "inherit" } else { "transform" },
                J::Str(inh.as_str().to_owned()),
            );
        }
        o.b("skin", b.skin).c("color", b.color).s("icon", &b.icon).b("visible", b.visible).done()
    });
    o.put("bones", J::Arr(bones.collect()));
    let slots = s.slots.iter().map(|sl| {
        let mut o = O::default();
        o.put("name", J::Str(sl.name.clone()))
            .put("bone", J::Str(sl.bone.clone()))
            .c("color", sl.color)
            .c("dark", sl.dark)
            .s("attachment", &sl.attachment);
        if let Some(b) = sl.blend {
            o.put("blend", J::Str(b.as_str().to_owned()));
        }
        o.b("visible", sl.visible).done()
    });
    o.put("slots", J::Arr(slots.collect()));
    if !s.ik.is_empty() {
        let ik = s.ik.iter().map(|c| {
            let mut o = O::default();
            head(&mut o, &c.head);
            o.list("bones", &c.bones)
                .put("target", J::Str(c.target.clone()))
                .f("mix", c.mix)
                .f("softness", c.softness)
                .b("bendPositive", c.bend_positive)
                .b("compress", c.compress)
                .b("stretch", c.stretch)
                .b("uniform", c.uniform)
                .done()
        });
        o.put("ik", J::Arr(ik.collect()));
    }
    if !s.transform.is_empty() {
        let t = s.transform.iter().map(|c| {
            let mut o = O::default();
            head(&mut o, &c.head);
            o.list("bones", &c.bones)
                .put("target", J::Str(c.target.clone()))
                .b("local", c.local)
                .b("relative", c.relative)
                .f("rotation", c.rotation)
                .f("x", c.x)
                .f("y", c.y)
                .f("scaleX", c.scale_x)
                .f("scaleY", c.scale_y)
                .f("shearY", c.shear_y);
            transform_mix(&mut o, &c.mix);
            o.done()
        });
        o.put("transform", J::Arr(t.collect()));
    }
    if !s.path.is_empty() {
        let p = s.path.iter().map(|c| {
            let mut o = O::default();
            head(&mut o, &c.head);
            o.list("bones", &c.bones).put("target", J::Str(c.target.clone()));
            if let Some(m) = c.position_mode {
                o.put("positionMode", J::Str(m.as_str().to_owned()));
            }
            if let Some(m) = c.spacing_mode {
                o.put("spacingMode", J::Str(m.as_str().to_owned()));
            }
            if let Some(m) = c.rotate_mode {
                o.put("rotateMode", J::Str(m.as_str().to_owned()));
            }
            o.f("rotation", c.rotation).f("position", c.position).f("spacing", c.spacing);
            path_mix(&mut o, &c.mix);
            o.done()
        });
        o.put("path", J::Arr(p.collect()));
    }
    if !s.physics.is_empty() {
        let p = s.physics.iter().map(|c| {
            let mut o = O::default();
            head(&mut o, &c.head);
            o.put("bone", J::Str(c.bone.clone()))
                .f("x", c.x)
                .f("y", c.y)
                .f("rotate", c.rotate)
                .f("scaleX", c.scale_x)
                .f("shearX", c.shear_x)
                .f("limit", c.limit)
                .i("fps", c.fps)
                .f("inertia", c.inertia)
                .f("strength", c.strength)
                .f("damping", c.damping)
                .f("mass", c.mass)
                .f("wind", c.wind)
                .f("gravity", c.gravity)
                .f("mix", c.mix);
            let names = [
                "inertiaGlobal",
                "strengthGlobal",
                "dampingGlobal",
                "massGlobal",
                "windGlobal",
                "gravityGlobal",
                "mixGlobal",
            ];
            for (n, g) in names.iter().zip(c.global) {
                o.b(n, g);
            }
            o.done()
        });
        o.put("physics", J::Arr(p.collect()));
    }
    if ver < SpineVersion::V3_8 {
        let skins = s.skins.iter().map(|k| (k.name.clone(), skin_slots(&k.slots, ver))).collect();
        o.put("skins", J::Obj(skins));
    } else {
        let skins = s.skins.iter().map(|k| {
            let mut o = O::default();
            o.put("name", J::Str(k.name.clone()))
                .list("bones", &k.bones)
                .list("ik", &k.ik)
                .list("transform", &k.transform)
                .list("path", &k.path)
                .list("physics", &k.physics);
            if !k.slots.is_empty() {
                o.put("attachments", skin_slots(&k.slots, ver));
            }
            o.c("color", k.color).done()
        });
        o.put("skins", J::Arr(skins.collect()));
    }
    if !s.events.is_empty() {
        let events = s.events.iter().map(|e| {
            let j = O::default()
                .i("int", e.int)
                .f("float", e.float)
                .s("string", &e.string)
                .s("audio", &e.audio)
                .f("volume", e.volume)
                .f("balance", e.balance)
                .done();
            (e.name.clone(), j)
        });
        o.put("events", J::Obj(events.collect()));
    }
    if !s.animations.is_empty() {
        let anims = s.animations.iter().map(|a| (a.name.clone(), animation(a, ver)));
        o.put("animations", J::Obj(anims.collect()));
    }
    o.done()
}

/// Writes a skeleton as JSON text (pretty-printed) that [`super::parse`] reads back to `s`.
pub fn write(s: &Skeleton) -> String {
    serde_json::to_string_pretty(&root(s)).unwrap_or_default()
}
