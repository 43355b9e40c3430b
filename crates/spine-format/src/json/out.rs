//! Writing helpers the 3.5–4.2 writer and the 4.3 writer share: the owned JSON value ([`Jv`]),
//! the ordered object builder ([`O`]), numbers and colors as the editor spells them, and the
//! writers of the keys and timelines both ASTs have in common.

use super::anim::{
    AttachmentTimeline, AttachmentTimelines, BoneTimeline, Curve, DeformKey, DrawOrderOffset,
    EventKey, IkKey, Key, Keys1, Named, PhysicsProperty, PhysicsTimeline, SequenceKey,
    SlotTimeline, TwoColor, Xy,
};
use super::{EventDef, Sequence};
use crate::SpineVersion;

/// An owned JSON value with ordered objects: what the writers build and serialize.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Jv {
    /// `true` / `false`.
    Bool(bool),
    /// A number (integral values print without a fraction).
    Num(f64),
    /// A string.
    Str(String),
    /// An array.
    Arr(Vec<Jv>),
    /// An object, keys in writing order.
    Obj(Vec<(String, Jv)>),
}

impl serde::Serialize for Jv {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeMap, SerializeSeq};
        match self {
            Jv::Bool(b) => s.serialize_bool(*b),
            // Integral values print without a fraction, as the Spine editor writes them.
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

/// Pretty-printed JSON text of `root`.
pub(crate) fn to_text(root: &Jv) -> String {
    serde_json::to_string_pretty(root).unwrap_or_default()
}

/// A number: the shortest decimal that reads back to the same `f32`.
pub(crate) fn num(x: f32) -> Jv {
    // Rust prints the shortest decimal that reads back to the same f32.
    Jv::Num(format!("{x}").parse().unwrap_or(f64::from(x)))
}

/// An unsigned count or index.
pub(crate) fn uint(x: u32) -> Jv {
    Jv::Num(f64::from(x))
}

/// A color as lowercase `rrggbbaa`.
pub(crate) fn color(c: [u8; 4]) -> Jv {
    Jv::Str(c.iter().map(|b| format!("{b:02x}")).collect())
}

/// A string.
pub(crate) fn str_(s: &str) -> Jv {
    Jv::Str(s.to_owned())
}

/// An array of strings.
pub(crate) fn strs(v: &[String]) -> Jv {
    Jv::Arr(v.iter().map(|s| str_(s)).collect())
}

/// An array of numbers.
pub(crate) fn floats(v: &[f32]) -> Jv {
    Jv::Arr(v.iter().map(|x| num(*x)).collect())
}

/// An array of indices.
pub(crate) fn u32s(v: &[u32]) -> Jv {
    Jv::Arr(v.iter().map(|x| uint(*x)).collect())
}

/// Builds an object in key order; the optional setters leave `None` out.
#[derive(Default)]
pub(crate) struct O(Vec<(String, Jv)>);

impl O {
    /// Adds `k: v`.
    pub(crate) fn put(&mut self, k: &str, v: Jv) -> &mut Self {
        self.0.push((k.to_owned(), v));
        self
    }
    /// Adds a number when present.
    pub(crate) fn f(&mut self, k: &str, v: Option<f32>) -> &mut Self {
        if let Some(x) = v {
            self.put(k, num(x));
        }
        self
    }
    /// Adds an integer when present.
    pub(crate) fn i(&mut self, k: &str, v: Option<i32>) -> &mut Self {
        if let Some(x) = v {
            self.put(k, Jv::Num(f64::from(x)));
        }
        self
    }
    /// Adds a boolean when present.
    pub(crate) fn b(&mut self, k: &str, v: Option<bool>) -> &mut Self {
        if let Some(x) = v {
            self.put(k, Jv::Bool(x));
        }
        self
    }
    /// Adds a string when present.
    pub(crate) fn s(&mut self, k: &str, v: &Option<String>) -> &mut Self {
        if let Some(x) = v {
            self.put(k, str_(x));
        }
        self
    }
    /// Adds an enum's spelling when present.
    pub(crate) fn e(&mut self, k: &str, v: Option<&'static str>) -> &mut Self {
        if let Some(x) = v {
            self.put(k, str_(x));
        }
        self
    }
    /// Adds a color when present.
    pub(crate) fn c(&mut self, k: &str, v: Option<[u8; 4]>) -> &mut Self {
        if let Some(x) = v {
            self.put(k, color(x));
        }
        self
    }
    /// Adds a list of names unless it is empty.
    pub(crate) fn list(&mut self, k: &str, v: &[String]) -> &mut Self {
        if !v.is_empty() {
            self.put(k, strs(v));
        }
        self
    }
    /// The object built so far (the builder is left empty).
    pub(crate) fn done(&mut self) -> Jv {
        Jv::Obj(std::mem::take(&mut self.0))
    }
}

/// An attachment's `sequence`, when it has one.
pub(crate) fn sequence(o: &mut O, s: &Option<Sequence>) {
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

/// The `events` object of the setup pose.
pub(crate) fn event_defs(events: &[EventDef]) -> Jv {
    let events = events.iter().map(|e| {
        let j = O::default()
            .i("int", e.int)
            .f("float", e.float)
            .s("string", &e.string)
            .s("audio", &e.audio)
            .f("volume", e.volume)
            .f("balance", e.balance)
            .done();
        (e.name.to_string(), j)
    });
    Jv::Obj(events.collect())
}

/// A key's curve; a [`Curve::Number`] as the 3.x keys `curve`, `c2`, `c3`, `c4`.
pub(crate) fn curve(o: &mut O, c: &Option<Curve>) {
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
        Some(Curve::Number { c1, c2, c3, c4 }) => {
            o.f("curve", Some(*c1)).f("c2", *c2).f("c3", *c3).f("c4", *c4);
        }
    }
}

/// How a writer spells what differs between the generations: the version's key names and
/// the form of a [`Curve::Number`].
#[derive(Clone, Copy)]
pub(crate) struct Style {
    /// The version whose key spellings are written.
    pub(crate) ver: SpineVersion,
    /// Writes a key's curve.
    pub(crate) curve: fn(&mut O, &Option<Curve>),
}

impl Style {
    /// Writes keys: `time`, the values (by `f`), then the curve.
    pub(crate) fn keys<V>(self, keys: &[Key<V>], mut f: impl FnMut(&mut O, &V)) -> Jv {
        Jv::Arr(
            keys.iter()
                .map(|k| {
                    let mut o = O::default();
                    o.f("time", Some(k.time));
                    f(&mut o, &k.value);
                    (self.curve)(&mut o, &k.curve);
                    o.done()
                })
                .collect(),
        )
    }

    /// Keys of one value named `name`.
    pub(crate) fn keys1(self, k: &Keys1, name: &str) -> Jv {
        self.keys(k, |o, v| {
            o.f(name, *v);
        })
    }

    /// Keys of `x`, `y`.
    pub(crate) fn keys_xy(self, k: &[Key<Xy>]) -> Jv {
        self.keys(k, |o, v| {
            o.f("x", v.x).f("y", v.y);
        })
    }

    /// A slot timeline's key and keys.
    pub(crate) fn slot_timeline(self, t: &SlotTimeline) -> (&'static str, Jv) {
        let v3 = self.ver.is_v3();
        let col = |o: &mut O, c: &[u8; 4]| {
            o.c("color", Some(*c));
        };
        match t {
            SlotTimeline::Attachment(k) => (
                "attachment",
                self.keys(k, |o, v| {
                    o.s("name", v);
                }),
            ),
            SlotTimeline::Rgba(k) => (if v3 { "color" } else { "rgba" }, self.keys(k, col)),
            SlotTimeline::Rgb(k) => ("rgb", self.keys(k, col)),
            SlotTimeline::Alpha(k) => ("alpha", self.keys1(k, "value")),
            SlotTimeline::Rgba2(k) => (if v3 { "twoColor" } else { "rgba2" }, self.keys(k, two)),
            SlotTimeline::Rgb2(k) => ("rgb2", self.keys(k, two)),
        }
    }

    /// A bone timeline's key and keys.
    pub(crate) fn bone_timeline(self, t: &BoneTimeline) -> (&'static str, Jv) {
        use BoneTimeline as B;
        let k1 = |k| self.keys1(k, "value");
        match t {
            B::Rotate(k) => {
                ("rotate", self.keys1(k, if self.ver.is_v3() { "angle" } else { "value" }))
            }
            B::Translate(k) => ("translate", self.keys_xy(k)),
            B::TranslateX(k) => ("translatex", k1(k)),
            B::TranslateY(k) => ("translatey", k1(k)),
            B::Scale(k) => ("scale", self.keys_xy(k)),
            B::ScaleX(k) => ("scalex", k1(k)),
            B::ScaleY(k) => ("scaley", k1(k)),
            B::Shear(k) => ("shear", self.keys_xy(k)),
            B::ShearX(k) => ("shearx", k1(k)),
            B::ShearY(k) => ("sheary", k1(k)),
            B::Inherit(k) => (
                "inherit",
                self.keys(k, |o, v| {
                    o.e("inherit", v.map(|i| i.as_str()));
                }),
            ),
        }
    }

    /// IK constraint keys.
    pub(crate) fn ik_keys(self, k: &[Key<IkKey>]) -> Jv {
        self.keys(k, |o, v| {
            o.f("mix", v.mix)
                .f("softness", v.softness)
                .b("bendPositive", v.bend_positive)
                .b("compress", v.compress)
                .b("stretch", v.stretch);
        })
    }

    /// A physics timeline's key and keys.
    pub(crate) fn physics_timeline(self, t: &PhysicsTimeline) -> (&'static str, Jv) {
        match t {
            PhysicsTimeline::Reset(k) => ("reset", self.keys(k, |_, _| {})),
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
                (name, self.keys1(k, "value"))
            }
        }
    }

    /// Deform keys.
    pub(crate) fn deform_keys(self, k: &[Key<DeformKey>]) -> Jv {
        self.keys(k, |o, v| {
            o.i("offset", v.offset);
            if let Some(vs) = &v.vertices {
                o.put("vertices", floats(vs));
            }
        })
    }

    /// The 4.1+ timelines of one attachment: `deform` and `sequence`.
    pub(crate) fn attachment_timeline_object(self, ts: &[AttachmentTimeline]) -> Jv {
        timelines(ts, |t| match t {
            AttachmentTimeline::Deform(k) => ("deform", self.deform_keys(k)),
            AttachmentTimeline::Sequence(k) => (
                "sequence",
                self.keys(k, |o, v: &SequenceKey| {
                    o.e("mode", v.mode.map(|m| m.as_str())).i("index", v.index).f("delay", v.delay);
                }),
            ),
        })
    }

    /// Draw order keys.
    pub(crate) fn draw_order(self, d: &[Key<Option<Vec<DrawOrderOffset>>>]) -> Jv {
        self.keys(d, |o, v| {
            if let Some(offsets) = v {
                let list = offsets
                    .iter()
                    .map(|x| {
                        O::default().put("slot", str_(&x.slot)).i("offset", Some(x.offset)).done()
                    })
                    .collect();
                o.put("offsets", Jv::Arr(list));
            }
        })
    }

    /// Event keys.
    pub(crate) fn event_keys(self, e: &[Key<EventKey>]) -> Jv {
        self.keys(e, |o, v| {
            o.put("name", str_(&v.name))
                .i("int", v.int)
                .f("float", v.float)
                .s("string", &v.string)
                .f("volume", v.volume)
                .f("balance", v.balance);
        })
    }
}

/// A two-color key's `light` and `dark`.
fn two(o: &mut O, v: &TwoColor) {
    o.c("light", Some(v.light)).c("dark", Some(v.dark));
}

/// An object of `name: f(timelines)` in order.
pub(crate) fn named<T>(items: &[Named<T>], mut f: impl FnMut(&T) -> Jv) -> Jv {
    Jv::Obj(items.iter().map(|n| (n.name.to_string(), f(&n.timelines))).collect())
}

/// An object of timelines, each written by `f` as its key and keys.
pub(crate) fn timelines<T>(ts: &[T], f: impl Fn(&T) -> (&'static str, Jv)) -> Jv {
    Jv::Obj(ts.iter().map(f).map(|(k, v)| (k.to_owned(), v)).collect())
}

/// A slot name with its attachments' timeline objects.
type SlotGroup = (String, Vec<(String, Jv)>);

/// Groups the flattened attachment timelines back into skin > slot > attachment objects.
pub(crate) fn attachment_timelines(
    list: &[AttachmentTimelines],
    mut leaf: impl FnMut(&[AttachmentTimeline]) -> Jv,
) -> Jv {
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
    Jv::Obj(
        skins
            .into_iter()
            .map(|(s, slots)| {
                (s, Jv::Obj(slots.into_iter().map(|(n, a)| (n, Jv::Obj(a))).collect()))
            })
            .collect(),
    )
}
