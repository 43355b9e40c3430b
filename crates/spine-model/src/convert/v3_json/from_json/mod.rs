//! JSON → binary for 3.5–3.7 and 3.8: the name resolver [`FromJson`] and the skeleton
//! (bones, slots, constraints, skins, events) here, the attachments and animations in their
//! own files.

mod animation;
mod attachments;

use std::collections::HashMap;

use spine_format::binary::v3_common as c3;
use spine_format::binary::{v35, v38, StrRef};
use spine_format::json::{self as j, TransformMix};
use spine_format::SpineVersion;

use super::values::*;
use crate::convert::common::*;
use crate::error::{Problem, ProblemKind};

/// JSON → binary shared by 3.5–3.7 and 3.8: every name resolved to its index, every unknown
/// one reported with its object path.
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
    /// The index of the `what` named `name` (0, reported, when there is none).
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
    /// Whether the target generation has `what` (reported when it does not).
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
    /// Whether the target is a 3.8 binary.
    fn v38(&self) -> bool {
        self.gen >= SpineVersion::V3_8
    }
    /// `count` vertices, unweighted or weighted as their number of values says.
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

    /// The parent of bone `i` (only the first bone may have none).
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

/// The 3.x binary bend direction of a JSON `bendPositive`.
fn bend_direction(positive: Option<bool>) -> i8 {
    if positive.unwrap_or(true) {
        1
    } else {
        -1
    }
}

/// A bone's nonessential color (`ne`), the editor's gray when it has none.
fn bone_color(b: &j::Bone, ne: bool) -> Option<[u8; 4]> {
    ne.then(|| b.color.unwrap_or([0x98, 0x98, 0x98, 0xff]))
}

/// An event's audio, when it has one.
fn event_audio(e: &j::EventDef) -> Option<c3::EventDataAudio> {
    e.audio.clone().map(|path| c3::EventDataAudio {
        path,
        volume: e.volume.unwrap_or(1.0),
        balance: e.balance.unwrap_or(0.0),
    })
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

// 3.5–3.7 and 3.8 binary ASTs name their bone and constraint fields alike: each macro below
// writes the fields both have once, `$m::$ty` naming the version's type and `$field: $value`
// (or `$field`) its own fields, written last (none of them reports a problem, so the report
// order is kept).

/// A binary bone from JSON bone `$b` (the `$i`th); `$ne`: with its nonessential color.
macro_rules! bone3 {
    (
        $m:ident::$ty:ident, $c:expr, $i:expr, $b:expr, $ne:expr
        $(, $field:ident $(: $value:expr)?)*
    ) => {
        $m::$ty {
            name: $b.name.clone(),
            parent: $c.parent($i, $b),
            rotation: $b.rotation.unwrap_or(0.0),
            x: $b.x.unwrap_or(0.0),
            y: $b.y.unwrap_or(0.0),
            scale_x: $b.scale_x.unwrap_or(1.0),
            scale_y: $b.scale_y.unwrap_or(1.0),
            shear_x: $b.shear_x.unwrap_or(0.0),
            shear_y: $b.shear_y.unwrap_or(0.0),
            length: $b.length.unwrap_or(0.0),
            transform_mode: inherit_from_json($b.inherit),
            color: bone_color($b, $ne),
            $($field $(: $value)?,)*
        }
    };
}

/// A binary IK constraint from JSON constraint `$k`.
macro_rules! ik3 {
    ($m:ident::$ty:ident, $c:expr, $k:expr $(, $field:ident $(: $value:expr)?)*) => {
        $m::$ty {
            name: $k.head.name.clone(),
            order: order_of(&$k.head),
            bones: $c.bones(&$k.bones),
            target: $c.find("bone", &$k.target),
            mix: $k.mix.unwrap_or(1.0),
            bend_direction: bend_direction($k.bend_positive),
            compress: $k.compress.unwrap_or(false),
            stretch: $k.stretch.unwrap_or(false),
            uniform: $k.uniform.unwrap_or(false),
            $($field $(: $value)?,)*
        }
    };
}

/// A binary transform constraint from JSON constraint `$t`.
macro_rules! transform3 {
    ($m:ident::$ty:ident, $c:expr, $t:expr $(, $field:ident $(: $value:expr)?)*) => {
        $m::$ty {
            name: $t.head.name.clone(),
            order: order_of(&$t.head),
            bones: $c.bones(&$t.bones),
            target: $c.find("bone", &$t.target),
            offsets: transform_offsets($t),
            mixes: transform_mixes(&$t.mix),
            $($field $(: $value)?,)*
        }
    };
}

/// A binary path constraint from JSON constraint `$p` (its modes resolved first; `$c` a
/// `&mut FromJson`).
macro_rules! path3 {
    ($m:ident::$ty:ident, $c:expr, $p:expr $(, $field:ident $(: $value:expr)?)*) => {{
        let (position_mode, spacing_mode, rotate_mode) = modes($p, $c);
        $m::$ty {
            name: $p.head.name.clone(),
            order: order_of(&$p.head),
            bones: $c.bones(&$p.bones),
            target: $c.find("slot", &$p.target),
            position_mode,
            spacing_mode,
            rotate_mode,
            offset_rotation: $p.rotation.unwrap_or(0.0),
            position: $p.position.unwrap_or(0.0),
            spacing: $p.spacing.unwrap_or(0.0),
            rotate_mix: $p.mix.rotate_mix.unwrap_or(1.0),
            translate_mix: $p.mix.translate_mix.unwrap_or(1.0),
            $($field $(: $value)?,)*
        }
    }};
}

/// The default skin's slots (the binary default skin has no bones or constraints); `put`
/// makes the generation's strings.
fn default_skin<S>(
    c: &mut FromJson<'_>,
    ne: bool,
    put: &mut dyn FnMut(Option<&str>) -> S,
) -> Vec<c3::SkinSlot<S>> {
    let slots = c.s.skins.iter().find(|k| k.name == "default").map(|k| k.slots.clone());
    c.p.enter("skin", "default");
    let default_skin = c.skin_slots(&slots.unwrap_or_default(), ne, put);
    c.p.pop();
    default_skin
}

/// A 3.5–3.7 JSON skeleton as a binary skeleton of its declared version.
pub fn json_to_v35(s: &j::Skeleton) -> Result<v35::Skeleton, Vec<Problem>> {
    let version = s.info.spine.clone().unwrap_or_else(|| "3.7".into());
    let gen = generation_of(&version);
    let mut c = FromJson::new(s, gen);
    let ne = nonessential(s);
    let mut put = |x: Option<&str>| x.map(str::to_owned);
    let bones = s.bones.iter().enumerate().map(|(i, b)| bone3!(v35::Bone, c, i, b, ne)).collect();
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
    let (ik, transform, path) = constraints35(&mut c, s);
    let default_skin = default_skin(&mut c, ne, &mut put);
    let mut skins = Vec::new();
    for k in s.skins.iter().filter(|k| k.name != "default") {
        c.p.enter("skin", &k.name);
        let slots = c.skin_slots(&k.slots, ne, &mut put);
        skins.push(v35::Skin { name: Some(k.name.to_string()), slots });
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
            audio: event_audio(e).filter(|_| audio),
        })
        .collect();
    let animations = s.animations.iter().map(|a| c.animation(a, &mut put)).collect();
    if !c.p.list.is_empty() {
        return Err(c.p.list);
    }
    Ok(v35::Skeleton {
        generation: gen,
        header: header35(&s.info, version, ne, audio),
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

fn header35(i: &j::Info, version: String, ne: bool, audio: bool) -> v35::Header {
    v35::Header {
        hash: i.hash.clone(),
        version,
        width: i.width.unwrap_or(0.0),
        height: i.height.unwrap_or(0.0),
        nonessential: ne.then(|| v35::Nonessential {
            fps: i.fps.unwrap_or(30.0),
            images: i.images.clone(),
            audio: if audio { i.audio.clone() } else { None },
        }),
    }
}

/// The IK, transform and path constraints in the 3.5–3.7 layout.
fn constraints35(
    c: &mut FromJson<'_>,
    s: &j::Skeleton,
) -> (Vec<v35::IkConstraint>, Vec<v35::TransformConstraint>, Vec<v35::PathConstraint>) {
    let ik = s.ik.iter().map(|k| ik3!(v35::IkConstraint, c, k)).collect();
    // 3.5 has no local/relative transform constraints (its loaders do not read the flags).
    let flags = c.gen >= SpineVersion::V3_6;
    let transform = s
        .transform
        .iter()
        .map(|t| {
            let local = flags && t.local.unwrap_or(false);
            let relative = flags && t.relative.unwrap_or(false);
            transform3!(v35::TransformConstraint, c, t, local, relative)
        })
        .collect();
    let path = s.path.iter().map(|p| path3!(v35::PathConstraint, c, p)).collect();
    (ik, transform, path)
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
        .map(|(i, b)| bone3!(v38::Bone, c, i, b, ne, skin_required: b.skin.unwrap_or(false)))
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
    let (ik, transform, path) = constraints38(&mut c, s);
    let mut put = |x: Option<&str>| strings.opt(x);
    let default_skin = default_skin(&mut c, ne, &mut put);
    let skins = skins38(&mut c, ne, &mut put);
    let events = s
        .events
        .iter()
        .map(|e| v38::EventData {
            name: put(Some(&e.name)),
            int: e.int.unwrap_or(0),
            float: e.float.unwrap_or(0.0),
            string: e.string.clone(),
            audio: event_audio(e),
        })
        .collect();
    let animations = s.animations.iter().map(|a| c.animation(a, &mut put)).collect();
    if !c.p.list.is_empty() {
        return Err(c.p.list);
    }
    Ok(v38::Skeleton {
        header: header38(&s.info, version, ne),
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

/// The IK, transform and path constraints in the 3.8 layout.
fn constraints38(
    c: &mut FromJson<'_>,
    s: &j::Skeleton,
) -> (Vec<v38::IkConstraint>, Vec<v38::TransformConstraint>, Vec<v38::PathConstraint>) {
    let ik =
        s.ik.iter()
            .map(|k| {
                let skin_required = k.head.skin.unwrap_or(false);
                ik3!(v38::IkConstraint, c, k, skin_required, softness: k.softness.unwrap_or(0.0))
            })
            .collect();
    let transform = s
        .transform
        .iter()
        .map(|t| {
            let (local, relative) = (t.local.unwrap_or(false), t.relative.unwrap_or(false));
            let skin_required = t.head.skin.unwrap_or(false);
            transform3!(v38::TransformConstraint, c, t, local, relative, skin_required)
        })
        .collect();
    let path = s
        .path
        .iter()
        .map(|p| path3!(v38::PathConstraint, c, p, skin_required: p.head.skin.unwrap_or(false)))
        .collect();
    (ik, transform, path)
}

/// The skins other than the default one, with their bones and constraints.
fn skins38(
    c: &mut FromJson<'_>,
    ne: bool,
    put: &mut dyn FnMut(Option<&str>) -> StrRef,
) -> Vec<v38::Skin> {
    let mut skins = Vec::new();
    for k in c.s.skins.iter().filter(|k| k.name != "default") {
        c.p.enter("skin", &k.name);
        let slots = c.skin_slots(&k.slots, ne, put);
        let bones = c.bones(&k.bones);
        let ik = k.ik.iter().map(|n| c.find("IK constraint", n)).collect();
        let transform = k.transform.iter().map(|n| c.find("transform constraint", n)).collect();
        let path = k.path.iter().map(|n| c.find("path constraint", n)).collect();
        skins.push(v38::Skin { name: put(Some(&k.name)), bones, ik, transform, path, slots });
        c.p.pop();
    }
    skins
}

fn header38(i: &j::Info, version: String, ne: bool) -> v38::Header {
    v38::Header {
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
    }
}
