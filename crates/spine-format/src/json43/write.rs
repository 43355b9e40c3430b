//! The 4.3 JSON writer: the inverse of [`super::parse`] up to formatting.
//!
//! `parse(&write(&s)) == s` for every `s` that [`super::parse`] returned. Keys are written in a
//! fixed order (the editor's where known), absent `Option`s are left out, every key gets an
//! explicit `time`, colors are lowercase `rrggbbaa`, and numbers are the shortest decimals that
//! read back to the same `f32` (integral values without a fraction). Unknown keys of the
//! original file are not kept, so the text is not the original text.

use super::*;
use crate::json::{
    AttachmentTimeline, AttachmentTimelines, BoneTimeline, Curve, DeformKey, Key, Keys1, Named,
    PhysicsProperty, PhysicsTimeline, SequenceKey, SlotTimeline, TwoColor, Xy,
};

/// An owned JSON value with ordered objects: what the writer builds and serializes.
#[derive(Debug, Clone, PartialEq)]
enum Jv {
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Jv>),
    Obj(Vec<(String, Jv)>),
}

impl serde::Serialize for Jv {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            Jv::Bool(b) => s.serialize_bool(*b),
            Jv::Num(n) if n.fract() == 0.0 && n.abs() < 9.0e15 => s.serialize_i64(*n as i64),
            Jv::Num(n) => s.serialize_f64(*n),
            Jv::Str(x) => s.serialize_str(x),
            Jv::Arr(a) => {
                let mut seq = s.serialize_seq(Some(a.len()))?;
                for x in a {
                    seq.serialize_element(x)?;
                }
                seq.end()
            }
            Jv::Obj(o) => {
                let mut map = s.serialize_map(Some(o.len()))?;
                for (k, x) in o {
                    map.serialize_entry(k, x)?;
                }
                map.end()
            }
        }
    }
}

fn num(x: f32) -> Jv {
    // Rust prints the shortest decimal that reads back to the same f32.
    Jv::Num(format!("{x}").parse().unwrap_or(f64::from(x)))
}

fn color(c: [u8; 4]) -> Jv {
    Jv::Str(c.iter().map(|b| format!("{b:02x}")).collect())
}

fn str_(s: &str) -> Jv {
    Jv::Str(s.to_owned())
}

fn strs(v: &[String]) -> Jv {
    Jv::Arr(v.iter().map(|s| str_(s)).collect())
}

fn floats(v: &[f32]) -> Jv {
    Jv::Arr(v.iter().map(|x| num(*x)).collect())
}

fn u32s(v: &[u32]) -> Jv {
    Jv::Arr(v.iter().map(|x| Jv::Num(f64::from(*x))).collect())
}

/// Builds an object in key order.
#[derive(Default)]
struct O(Vec<(String, Jv)>);

impl O {
    fn put(&mut self, k: &str, v: Jv) -> &mut Self {
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
            self.put(k, Jv::Num(f64::from(x)));
        }
        self
    }
    fn b(&mut self, k: &str, v: Option<bool>) -> &mut Self {
        if let Some(x) = v {
            self.put(k, Jv::Bool(x));
        }
        self
    }
    fn s(&mut self, k: &str, v: &Option<String>) -> &mut Self {
        if let Some(x) = v {
            self.put(k, str_(x));
        }
        self
    }
    fn e(&mut self, k: &str, v: Option<&'static str>) -> &mut Self {
        if let Some(x) = v {
            self.put(k, str_(x));
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
    fn done(&mut self) -> Jv {
        Jv::Obj(std::mem::take(&mut self.0))
    }
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

fn attachment(a: &Attachment) -> Jv {
    let mut o = O::default();
    o.s("name", &a.name);
    if let Some(t) = a.declared_type {
        o.put("type", str_(t.as_str()));
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
                .c("color", *color)
                .f("x", *x)
                .f("y", *y)
                .f("scaleX", *scale_x)
                .f("scaleY", *scale_y)
                .f("rotation", *rotation)
                .f("width", Some(*width))
                .f("height", Some(*height));
            sequence(&mut o, seq);
        }
        AttachmentKind::BoundingBox { vertex_count, vertices, color } => {
            o.put("vertexCount", Jv::Num(f64::from(*vertex_count)))
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
            o.s("path", path).c("color", *color);
            sequence(&mut o, seq);
            o.put("uvs", floats(uvs))
                .put("triangles", u32s(triangles))
                .put("vertices", floats(vertices));
            if let Some(h) = hull {
                o.put("hull", Jv::Num(f64::from(*h)));
            }
            if let Some(e) = edges {
                o.put("edges", u32s(e));
            }
            o.f("width", *width).f("height", *height);
        }
        AttachmentKind::LinkedMesh {
            path,
            color,
            width,
            height,
            sequence: seq,
            source,
            slot,
            skin,
            timelines,
        } => {
            o.s("path", path).c("color", *color);
            sequence(&mut o, seq);
            o.s("skin", skin)
                .s("slot", slot)
                .put("source", str_(source))
                .b("timelines", *timelines)
                .f("width", *width)
                .f("height", *height);
        }
        AttachmentKind::Path { closed, constant_speed, vertex_count, vertices, lengths, color } => {
            o.b("closed", *closed)
                .b("constantSpeed", *constant_speed)
                .put("lengths", floats(lengths))
                .put("vertexCount", Jv::Num(f64::from(*vertex_count)))
                .put("vertices", floats(vertices))
                .c("color", *color);
        }
        AttachmentKind::Point { x, y, rotation, color } => {
            o.f("x", *x).f("y", *y).f("rotation", *rotation).c("color", *color);
        }
        AttachmentKind::Clipping { end, convex, inverse, vertex_count, vertices, color } => {
            o.s("end", end)
                .b("convex", *convex)
                .b("inverse", *inverse)
                .put("vertexCount", Jv::Num(f64::from(*vertex_count)))
                .put("vertices", floats(vertices))
                .c("color", *color);
        }
    }
    o.done()
}

fn curve(o: &mut O, c: &Option<Curve>) {
    match c {
        None => {}
        Some(Curve::Stepped) => {
            o.put("curve", str_("stepped"));
        }
        Some(Curve::Other(s)) => {
            o.put("curve", str_(s));
        }
        Some(Curve::Bezier(v)) => {
            o.put("curve", floats(v));
        }
        // Not produced by the 4.3 reader; written as the 4.x array form.
        Some(Curve::Number { c1, c2, c3, c4 }) => {
            let v = [*c1, c2.unwrap_or(0.0), c3.unwrap_or(1.0), c4.unwrap_or(1.0)];
            o.put("curve", floats(&v));
        }
    }
}

/// Writes keys: `time`, the values (by `f`), then the curve.
fn keys<V>(keys: &[Key<V>], mut f: impl FnMut(&mut O, &V)) -> Jv {
    Jv::Arr(
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

fn keys1(k: &Keys1) -> Jv {
    keys(k, |o, v| {
        o.f("value", *v);
    })
}

fn keys_xy(k: &[Key<Xy>]) -> Jv {
    keys(k, |o, v| {
        o.f("x", v.x).f("y", v.y);
    })
}

fn two(o: &mut O, v: &TwoColor) {
    o.c("light", Some(v.light)).c("dark", Some(v.dark));
}

fn slot_timeline(t: &SlotTimeline) -> (&'static str, Jv) {
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
        SlotTimeline::Rgba(k) => ("rgba", keys(k, col)),
        SlotTimeline::Rgb(k) => ("rgb", keys(k, col)),
        SlotTimeline::Alpha(k) => ("alpha", keys1(k)),
        SlotTimeline::Rgba2(k) => ("rgba2", keys(k, two)),
        SlotTimeline::Rgb2(k) => ("rgb2", keys(k, two)),
    }
}

fn bone_timeline(t: &BoneTimeline) -> (&'static str, Jv) {
    use BoneTimeline as B;
    match t {
        B::Rotate(k) => ("rotate", keys1(k)),
        B::Translate(k) => ("translate", keys_xy(k)),
        B::TranslateX(k) => ("translatex", keys1(k)),
        B::TranslateY(k) => ("translatey", keys1(k)),
        B::Scale(k) => ("scale", keys_xy(k)),
        B::ScaleX(k) => ("scalex", keys1(k)),
        B::ScaleY(k) => ("scaley", keys1(k)),
        B::Shear(k) => ("shear", keys_xy(k)),
        B::ShearX(k) => ("shearx", keys1(k)),
        B::ShearY(k) => ("sheary", keys1(k)),
        B::Inherit(k) => (
            "inherit",
            keys(k, |o, v| {
                o.e("inherit", v.map(Inherit::as_str));
            }),
        ),
    }
}

fn named<T>(items: &[Named<T>], mut f: impl FnMut(&T) -> Jv) -> Jv {
    Jv::Obj(items.iter().map(|n| (n.name.clone(), f(&n.timelines))).collect())
}

fn timelines<T>(ts: &[T], f: impl Fn(&T) -> (&'static str, Jv)) -> Jv {
    Jv::Obj(ts.iter().map(f).map(|(k, v)| (k.to_owned(), v)).collect())
}

/// A slot name with its attachments' timeline objects.
type SlotGroup = (String, Vec<(String, Jv)>);

/// Groups the flattened attachment timelines back into skin > slot > attachment objects.
fn attachment_timelines(list: &[AttachmentTimelines]) -> Jv {
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
        let leaf = timelines(&a.timelines, |t| match t {
            AttachmentTimeline::Deform(k) => (
                "deform",
                keys(k, |o, v: &DeformKey| {
                    o.i("offset", v.offset);
                    if let Some(vs) = &v.vertices {
                        o.put("vertices", floats(vs));
                    }
                }),
            ),
            AttachmentTimeline::Sequence(k) => (
                "sequence",
                keys(k, |o, v: &SequenceKey| {
                    o.e("mode", v.mode.map(|m| m.as_str())).i("index", v.index).f("delay", v.delay);
                }),
            ),
        });
        if let Some((_, atts)) = slots.get_mut(li) {
            atts.push((a.attachment.clone(), leaf));
        }
    }
    Jv::Obj(
        skins
            .into_iter()
            .map(|(s, slots)| {
                (s, Jv::Obj(slots.into_iter().map(|(n, a)| (n, Jv::Obj(a))).collect()))
            })
            .collect(),
    )
}

fn draw_order(d: &DrawOrderKeys) -> Jv {
    keys(d, |o, v| {
        if let Some(offsets) = v {
            let list = offsets
                .iter()
                .map(|x| O::default().put("slot", str_(&x.slot)).i("offset", Some(x.offset)).done())
                .collect();
            o.put("offsets", Jv::Arr(list));
        }
    })
}

fn animation(a: &Animation) -> Jv {
    let mut o = O::default();
    o.c("color", a.color);
    if !a.slots.is_empty() {
        o.put("slots", named(&a.slots, |ts| timelines(ts, slot_timeline)));
    }
    if !a.bones.is_empty() {
        o.put("bones", named(&a.bones, |ts| timelines(ts, bone_timeline)));
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
        let j = named(&a.transform, |k| {
            keys(k, |o, v| {
                for (key, m) in MIX_KEYS.iter().zip(v.mixes) {
                    o.f(key, m);
                }
            })
        });
        o.put("transform", j);
    }
    if !a.path.is_empty() {
        let j = named(&a.path, |ts| {
            timelines(ts, |t| match t {
                PathTimeline::Position(k) => ("position", keys1(k)),
                PathTimeline::Spacing(k) => ("spacing", keys1(k)),
                PathTimeline::Mix(k) => (
                    "mix",
                    keys(k, |o, v| {
                        o.f("mixRotate", v.mix_rotate).f("mixX", v.mix_x).f("mixY", v.mix_y);
                    }),
                ),
            })
        });
        o.put("path", j);
    }
    if !a.physics.is_empty() {
        let j = named(&a.physics, |ts| {
            timelines(ts, |t| match t {
                PhysicsTimeline::Reset(k) => ("reset", keys(k, |_, _| {})),
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
                    (name, keys1(k))
                }
            })
        });
        o.put("physics", j);
    }
    if !a.slider.is_empty() {
        let j = named(&a.slider, |ts| {
            timelines(ts, |t| match t {
                SliderTimeline::Time(k) => ("time", keys1(k)),
                SliderTimeline::Mix(k) => ("mix", keys1(k)),
            })
        });
        o.put("slider", j);
    }
    if !a.attachments.is_empty() {
        o.put("attachments", attachment_timelines(&a.attachments));
    }
    if let Some(d) = &a.draw_order {
        o.put("drawOrder", draw_order(d));
    }
    if !a.draw_order_folders.is_empty() {
        let folders = a
            .draw_order_folders
            .iter()
            .map(|f| {
                O::default().put("slots", strs(&f.slots)).put("keys", draw_order(&f.keys)).done()
            })
            .collect();
        o.put("drawOrderFolder", Jv::Arr(folders));
    }
    if let Some(e) = &a.events {
        let j = keys(e, |o, v| {
            o.put("name", str_(&v.name))
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

fn constraint(c: &Constraint) -> Jv {
    let mut o = O::default();
    o.put("name", str_(&c.name)).put("type", str_(c.kind.type_name())).b("skin", c.skin);
    match &c.kind {
        ConstraintKind::Ik(k) => {
            o.list("bones", &k.bones)
                .put("target", str_(&k.target))
                .e("scaleY", k.scale_y.map(ScaleYMode::as_str))
                .f("mix", k.mix)
                .f("softness", k.softness)
                .b("bendPositive", k.bend_positive)
                .b("compress", k.compress)
                .b("stretch", k.stretch);
        }
        ConstraintKind::Transform(t) => {
            o.list("bones", &t.bones)
                .put("source", str_(&t.source))
                .b("localSource", t.local_source)
                .b("localTarget", t.local_target)
                .b("additive", t.additive)
                .b("clamp", t.clamp);
            if !t.properties.is_empty() {
                let props = t
                    .properties
                    .iter()
                    .map(|f| {
                        let to =
                            f.to.iter()
                                .map(|t| {
                                    let j = O::default()
                                        .f("offset", t.offset)
                                        .f("max", t.max)
                                        .f("scale", t.scale)
                                        .done();
                                    (t.property.as_str().to_owned(), j)
                                })
                                .collect();
                        let j = O::default().f("offset", f.offset).put("to", Jv::Obj(to)).done();
                        (f.property.as_str().to_owned(), j)
                    })
                    .collect();
                o.put("properties", Jv::Obj(props));
            }
            for (k, v) in OFFSET_KEYS.iter().zip(t.offsets) {
                o.f(k, v);
            }
            for (k, v) in MIX_KEYS.iter().zip(t.mixes) {
                o.f(k, v);
            }
        }
        ConstraintKind::Path(p) => {
            o.list("bones", &p.bones)
                .put("slot", str_(&p.slot))
                .e("positionMode", p.position_mode.map(PositionMode::as_str))
                .e("spacingMode", p.spacing_mode.map(SpacingMode::as_str))
                .e("rotateMode", p.rotate_mode.map(RotateMode::as_str))
                .f("rotation", p.rotation)
                .f("position", p.position)
                .f("spacing", p.spacing)
                .f("mixRotate", p.mix_rotate)
                .f("mixX", p.mix_x)
                .f("mixY", p.mix_y);
        }
        ConstraintKind::Physics(p) => {
            o.put("bone", str_(&p.bone))
                .f("x", p.x)
                .f("y", p.y)
                .f("rotate", p.rotate)
                .f("scaleX", p.scale_x)
                .e("scaleY", p.scale_y.map(ScaleYMode::as_str))
                .f("shearX", p.shear_x)
                .f("limit", p.limit)
                .f("fps", p.fps)
                .f("inertia", p.inertia)
                .f("strength", p.strength)
                .f("damping", p.damping)
                .f("mass", p.mass)
                .f("wind", p.wind)
                .f("gravity", p.gravity)
                .f("mix", p.mix);
            for (k, g) in GLOBAL_KEYS.iter().zip(p.global) {
                o.b(k, g);
            }
        }
        ConstraintKind::Slider(s) => {
            o.put("animation", str_(&s.animation))
                .b("additive", s.additive)
                .b("loop", s.looping)
                .f("mix", s.mix);
            match &s.bone {
                Some(b) => {
                    o.put("bone", str_(&b.bone))
                        .e("property", b.property.map(Property::as_str))
                        .f("from", b.from)
                        .f("to", b.to)
                        .f("scale", b.scale)
                        .f("max", b.max)
                        .b("local", b.local);
                }
                None => {
                    o.f("time", s.time);
                }
            }
        }
    }
    o.done()
}

fn root(s: &Skeleton) -> Jv {
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
        O::default()
            .put("name", str_(&b.name))
            .s("parent", &b.parent)
            .f("length", b.length)
            .f("rotation", b.rotation)
            .f("x", b.x)
            .f("y", b.y)
            .f("scaleX", b.scale_x)
            .f("scaleY", b.scale_y)
            .f("shearX", b.shear_x)
            .f("shearY", b.shear_y)
            .e("inherit", b.inherit.map(Inherit::as_str))
            .b("skin", b.skin)
            .c("color", b.color)
            .s("icon", &b.icon)
            .f("iconSize", b.icon_size)
            .f("iconRotation", b.icon_rotation)
            .b("visible", b.visible)
            .done()
    });
    o.put("bones", Jv::Arr(bones.collect()));
    if !s.slots.is_empty() {
        let slots = s.slots.iter().map(|sl| {
            O::default()
                .put("name", str_(&sl.name))
                .put("bone", str_(&sl.bone))
                .c("color", sl.color)
                .c("dark", sl.dark)
                .s("attachment", &sl.attachment)
                .e("blend", sl.blend.map(BlendMode::as_str))
                .b("visible", sl.visible)
                .done()
        });
        o.put("slots", Jv::Arr(slots.collect()));
    }
    if !s.constraints.is_empty() {
        o.put("constraints", Jv::Arr(s.constraints.iter().map(constraint).collect()));
    }
    if !s.skins.is_empty() {
        let skins = s.skins.iter().map(|k| {
            let mut o = O::default();
            o.put("name", str_(&k.name))
                .c("color", k.color)
                .list("bones", &k.bones)
                .list("ik", &k.ik)
                .list("transform", &k.transform)
                .list("path", &k.path)
                .list("physics", &k.physics)
                .list("slider", &k.slider);
            if !k.slots.is_empty() {
                let slots = k
                    .slots
                    .iter()
                    .map(|s| {
                        let atts =
                            s.attachments.iter().map(|a| (a.key.clone(), attachment(a))).collect();
                        (s.slot.clone(), Jv::Obj(atts))
                    })
                    .collect();
                o.put("attachments", Jv::Obj(slots));
            }
            o.done()
        });
        o.put("skins", Jv::Arr(skins.collect()));
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
        o.put("events", Jv::Obj(events.collect()));
    }
    if !s.animations.is_empty() {
        let anims = s.animations.iter().map(|a| (a.name.clone(), animation(a)));
        o.put("animations", Jv::Obj(anims.collect()));
    }
    o.done()
}

/// Writes a 4.3 skeleton as JSON text (pretty-printed) that [`super::parse`] reads back to `s`.
pub fn write(s: &Skeleton) -> String {
    serde_json::to_string_pretty(&root(s)).unwrap_or_default()
}
