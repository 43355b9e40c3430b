//! Binary → JSON for 3.5–3.7 and 3.8: the skeleton (bones, slots, constraints, skins, events)
//! here, the attachments and animations in their own files.

mod animation;
mod attachments;

use spine_format::binary::v3_common as c3;
use spine_format::binary::{v35, v38, StrRef};
use spine_format::json::{self as j, EventDef, PathMix, TransformMix};
use spine_format::SpineVersion;

use super::values::*;

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

/// The [`Names`] of a 3.5–3.7 or 3.8 binary skeleton `$s` (both name their lists alike), with
/// the skin names `$skins`; the event names are filled in by [`ToJson::new`].
macro_rules! names_of {
    ($s:expr, $skins:expr) => {
        Names {
            bones: $s.bones.iter().map(|b| b.name.to_string()).collect(),
            slots: $s.slots.iter().map(|b| b.name.to_string()).collect(),
            ik: $s.ik.iter().map(|b| b.name.to_string()).collect(),
            transform: $s.transform.iter().map(|b| b.name.to_string()).collect(),
            path: $s.path.iter().map(|b| b.name.to_string()).collect(),
            skins: $skins,
            events: Vec::new(),
        }
    };
}

/// A 3.5–3.7 or 3.8 binary skeleton `$s` (both name their fields alike) as JSON, converted by
/// `$c`, with the version's `version`, `info`, `skins` and event definitions `events`.
macro_rules! skeleton_json {
    ($c:expr, $s:expr, $version:expr, $info:expr, $skins:expr, $events:expr) => {{
        let c = &$c;
        let bones: Vec<j::Bone> = $s
            .bones
            .iter()
            .map(|b| {
                let values =
                    [b.rotation, b.x, b.y, b.scale_x, b.scale_y, b.shear_x, b.shear_y, b.length];
                bone_to_json(&c.n, &b.name, b.parent, values, b.transform_mode, b.skin(), b.color)
            })
            .collect();
        let slots: Vec<j::Slot> = $s
            .slots
            .iter()
            .map(|sl| j::Slot {
                name: sl.name.clone(),
                bone: Names::get(&c.n.bones, sl.bone),
                color: some_if(sl.color, [0xff; 4]),
                dark: dark_to_json(sl.dark_color),
                attachment: (c.text)(&sl.attachment),
                blend: blend_to_json(sl.blend),
                visible: None,
            })
            .collect();
        let transform: Vec<j::TransformConstraint> = $s
            .transform
            .iter()
            .map(|t| {
                let common = Constrained::new((&t.name, t.order, t.skin()), &t.bones, t.target);
                transform_to_json(&c.n, common, t.local, t.relative, t.offsets, t.mixes)
            })
            .collect();
        let path: Vec<j::PathConstraint> = $s
            .path
            .iter()
            .map(|p| {
                let common = Constrained::new((&p.name, p.order, p.skin()), &p.bones, p.target);
                let modes = (p.position_mode, p.spacing_mode, p.rotate_mode);
                let values =
                    [p.offset_rotation, p.position, p.spacing, p.rotate_mix, p.translate_mix];
                path_to_json(&c.n, common, modes, values)
            })
            .collect();
        let ik = $s.ik.iter().map(|k| j::IkConstraint {
            head: constraint_head(&k.name, k.order, k.skin()),
            bones: c.n.bones(&k.bones),
            target: Names::get(&c.n.bones, k.target),
            mix: some_if(k.mix, 1.0),
            softness: k.softness(),
            bend_positive: (k.bend_direction < 0).then_some(false),
            compress: k.compress.then_some(true),
            stretch: k.stretch.then_some(true),
            uniform: k.uniform.then_some(true),
        });
        j::Skeleton {
            version: $version,
            info: $info,
            bones,
            slots,
            ik: ik.collect(),
            transform,
            path,
            physics: Vec::new(),
            skins: $skins,
            events: event_defs($events),
            animations: $s.animations.iter().map(|a| c.animation(a)).collect(),
        }
    }};
}

/// The JSON info of a 3.5–3.7 or 3.8 binary header `$h` (both name these fields alike; the
/// 3.8 origin is added by [`v38_to_json`]).
macro_rules! info_json {
    ($h:expr) => {{
        let ne = $h.nonessential.as_ref();
        j::Info {
            hash: $h.hash.clone(),
            spine: Some($h.version.clone()),
            width: Some($h.width),
            height: Some($h.height),
            fps: ne.map(|n| n.fps),
            images: ne.and_then(|n| n.images.clone()),
            audio: ne.and_then(|n| n.audio.clone()),
            ..j::Info::default()
        }
    }};
}

/// The skin-required flag of a binary bone or constraint (3.5–3.7 have none).
trait SkinRequired {
    /// Whether the item is only active with a skin that lists it.
    fn skin(&self) -> bool {
        false
    }
}

impl SkinRequired for v35::Bone {}
impl SkinRequired for v35::IkConstraint {}
impl SkinRequired for v35::TransformConstraint {}
impl SkinRequired for v35::PathConstraint {}

impl SkinRequired for v38::IkConstraint {
    fn skin(&self) -> bool {
        self.skin_required
    }
}

impl SkinRequired for v38::Bone {
    fn skin(&self) -> bool {
        self.skin_required
    }
}

impl SkinRequired for v38::TransformConstraint {
    fn skin(&self) -> bool {
        self.skin_required
    }
}

impl SkinRequired for v38::PathConstraint {
    fn skin(&self) -> bool {
        self.skin_required
    }
}

/// The IK softness as JSON writes it (3.5–3.7 have none).
trait Softness {
    /// The softness, `None` when 0 or absent.
    fn softness(&self) -> Option<f32>;
}

impl Softness for v35::IkConstraint {
    fn softness(&self) -> Option<f32> {
        None
    }
}

impl Softness for v38::IkConstraint {
    fn softness(&self) -> Option<f32> {
        some_if(self.softness, 0.0)
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

impl<'a, S> ToJson<'a, S> {
    /// The converter of a skeleton named by `n` whose events are `events`.
    fn new(
        mut n: Names,
        events: &[Event3],
        v38: bool,
        text: &'a dyn Fn(&S) -> Option<String>,
    ) -> Self {
        n.events = events.iter().map(|e| e.0.clone()).collect();
        let events = events
            .iter()
            .map(|(_, int, float, string, audio)| {
                let (v, b) = audio.as_ref().map_or((1.0, 0.0), |a| (a.volume, a.balance));
                (*int, *float, string.clone(), v, b)
            })
            .collect();
        ToJson { n, v38, text, events }
    }

    /// The default skin (when it has slots) followed by `others`.
    fn skins(
        &self,
        default: &[c3::SkinSlot<S>],
        others: impl Iterator<Item = j::Skin>,
    ) -> Vec<j::Skin> {
        let default = (!default.is_empty()).then(|| j::Skin {
            name: "default".into(),
            slots: self.skin_slots(default),
            ..j::Skin::default()
        });
        default.into_iter().chain(others).collect()
    }
}

/// An event definition: name, int, float, string, audio.
type Event3 = (String, i32, f32, Option<String>, Option<c3::EventDataAudio>);

fn event_defs(events: &[Event3]) -> Vec<EventDef> {
    events
        .iter()
        .map(|(name, int, float, string, audio)| EventDef {
            name: name.as_str().into(),
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
    j::ConstraintHead { name: name.into(), order: Some(order as i32), skin: skin.then_some(true) }
}

/// A 3.5–3.7 binary skeleton as a JSON skeleton of the same version.
pub fn v35_to_json(s: &v35::Skeleton) -> j::Skeleton {
    let text = |x: &Option<String>| x.clone();
    let mut skins = vec!["default".to_owned()];
    skins.extend(s.skins.iter().map(|k| k.name.clone().unwrap_or_default()));
    let events: Vec<Event3> = s
        .events
        .iter()
        .map(|e| (e.name.to_string(), e.int, e.float, e.string.clone(), e.audio.clone()))
        .collect();
    let c = ToJson::new(names_of!(s, skins), &events, false, &text);
    let others = s.skins.iter().map(|k| j::Skin {
        name: k.name.clone().unwrap_or_default().into(),
        slots: c.skin_slots(&k.slots),
        ..j::Skin::default()
    });
    let version = json_version(&s.header.version, s.generation);
    let skins = c.skins(&s.default_skin, others);
    skeleton_json!(c, s, version, info_json!(s.header), skins, &events)
}

/// A 3.8 binary skeleton as a 3.8 JSON skeleton.
pub fn v38_to_json(s: &v38::Skeleton) -> j::Skeleton {
    let strings = &s.strings;
    let text = |x: &StrRef| x.resolve(strings).map(str::to_owned);
    let name = |x: StrRef| text(&x).unwrap_or_default();
    let mut skins = vec!["default".to_owned()];
    skins.extend(s.skins.iter().map(|k| name(k.name)));
    let events: Vec<Event3> = s
        .events
        .iter()
        .map(|e| (name(e.name), e.int, e.float, e.string.clone(), e.audio.clone()))
        .collect();
    let c = ToJson::new(names_of!(s, skins), &events, true, &text);
    let others = s.skins.iter().map(|k| j::Skin {
        name: name(k.name).into(),
        bones: c.n.bones(&k.bones),
        ik: k.ik.iter().map(|&i| Names::get(&c.n.ik, i)).collect(),
        transform: k.transform.iter().map(|&i| Names::get(&c.n.transform, i)).collect(),
        path: k.path.iter().map(|&i| Names::get(&c.n.path, i)).collect(),
        slots: c.skin_slots(&k.slots),
        ..j::Skin::default()
    });
    let version = json_version(&s.header.version, SpineVersion::V3_8);
    let info = j::Info { x: Some(s.header.x), y: Some(s.header.y), ..info_json!(s.header) };
    let skins = c.skins(&s.default_skin, others);
    skeleton_json!(c, s, version, info, skins, &events)
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
        name: name.into(),
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
