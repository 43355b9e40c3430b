//! The skeleton-level records both ways: header/info, bones, slots, skins and event
//! definitions, and the two entry points that assemble a whole skeleton.

use spine_format::binary::v40::ast as w;
use spine_format::json::{self as j, EventDef};
use spine_format::SpineVersion;

use super::animation_from::animation_from_json;
use super::animation_to::animation_to_json;
use super::attachments::{skin_slots_from_json, skin_slots_to_json};
use super::constraints::{
    ik_from_json, ik_to_json, path_from_json, path_to_json, physics_from_json, physics_to_json,
    transform_from_json, transform_to_json,
};
use super::context::{names_of, FromJson, ToJson};
use super::{blend_from_json, blend_to_json, inherit_from_json, inherit_to_json};
use crate::convert::json_common::{hash_words, some_if, SkinOrder, BONE_COLOR};
use crate::error::{Problem, ProblemKind};

// ---------------------------------------------------------------------------------------
// Binary → JSON
// ---------------------------------------------------------------------------------------

/// A 4.0–4.2 binary skeleton as a JSON skeleton of the same version.
pub fn to_json(s: &w::Skeleton) -> j::Skeleton {
    let c = ToJson::new(s);
    j::Skeleton {
        version: j::supported_version(&s.header.version).unwrap_or(SpineVersion::V4_2),
        info: info_to_json(&s.header),
        bones: s.bones.iter().map(|b| bone_to_json(&c, b)).collect(),
        slots: s.slots.iter().map(|sl| slot_to_json(&c, sl)).collect(),
        ik: s.ik_constraints.iter().map(|k| ik_to_json(&c, k)).collect(),
        transform: s.transform_constraints.iter().map(|t| transform_to_json(&c, t)).collect(),
        path: s.path_constraints.iter().map(|p| path_to_json(&c, p)).collect(),
        physics: s.physics_constraints.iter().map(|p| physics_to_json(&c, p)).collect(),
        skins: skins_to_json(&c),
        events: s.events.iter().map(|e| event_to_json(&c, e)).collect(),
        animations: s.animations.iter().map(|a| animation_to_json(&c, a)).collect(),
    }
}

/// The JSON `skeleton` object of a header.
fn info_to_json(h: &w::Header) -> j::Info {
    let ne = h.nonessential.as_ref();
    j::Info {
        hash: (h.hash != [0, 0]).then(|| h.hash_base64()),
        spine: Some(h.version.clone()),
        x: Some(h.x),
        y: Some(h.y),
        width: Some(h.width),
        height: Some(h.height),
        reference_scale: h.reference_scale.and_then(|r| some_if(r, 100.0)),
        fps: ne.map(|n| n.fps),
        images: ne.and_then(|n| n.images_path.clone()),
        audio: ne.and_then(|n| n.audio_path.clone()),
    }
}

fn bone_to_json(c: &ToJson<'_>, b: &w::Bone) -> j::Bone {
    let v42 = c.v42();
    j::Bone {
        name: b.name.clone(),
        parent: b.parent.map(|p| c.bone(p)),
        length: some_if(b.length, 0.0),
        x: some_if(b.x, 0.0),
        y: some_if(b.y, 0.0),
        rotation: some_if(b.rotation, 0.0),
        scale_x: some_if(b.scale_x, 1.0),
        scale_y: some_if(b.scale_y, 1.0),
        shear_x: some_if(b.shear_x, 0.0),
        shear_y: some_if(b.shear_y, 0.0),
        inherit: inherit_to_json(b.inherit),
        skin: b.skin_required.then_some(true),
        color: b.extras.as_ref().map(|e| e.color),
        icon: b.extras.as_ref().and_then(|e| e.icon.clone()),
        visible: b.extras.as_ref().filter(|_| v42).and_then(|e| (!e.visible).then_some(false)),
    }
}

fn slot_to_json(c: &ToJson<'_>, sl: &w::Slot) -> j::Slot {
    j::Slot {
        name: sl.name.clone(),
        bone: c.bone(sl.bone),
        color: some_if(sl.color, [0xff; 4]),
        dark: sl.dark_rgb().map(|[r, g, b]| [r, g, b, 0xff]),
        attachment: c.text(sl.attachment),
        blend: blend_to_json(sl.blend),
        visible: sl.visible.and_then(|v| (!v).then_some(false)),
    }
}

/// The default skin (named `default`, attachments only) then the other skins.
fn skins_to_json(c: &ToJson<'_>) -> Vec<j::Skin> {
    let s = c.s;
    let mut json_skins = Vec::new();
    if let Some(d) = &s.default_skin {
        json_skins.push(j::Skin {
            name: "default".into(),
            slots: skin_slots_to_json(c, d),
            ..j::Skin::default()
        });
    }
    for k in &s.skins {
        json_skins.push(j::Skin {
            name: c.name(&k.name).into(),
            bones: c.bones(&k.bones),
            ik: names_of(&k.ik, &s.ik_constraints, |x| &x.name),
            transform: names_of(&k.transform, &s.transform_constraints, |x| &x.name),
            path: names_of(&k.path, &s.path_constraints, |x| &x.name),
            physics: names_of(&k.physics, &s.physics_constraints, |x| &x.name),
            slots: skin_slots_to_json(c, &k.slots),
            color: k.color,
        });
    }
    json_skins
}

fn event_to_json(c: &ToJson<'_>, e: &w::EventData) -> EventDef {
    EventDef {
        name: c.name(&e.name).into(),
        int: some_if(e.int, 0),
        float: some_if(e.float, 0.0),
        string: e.string.clone(),
        audio: e.audio.as_ref().map(|a| a.path.clone()),
        volume: e.audio.as_ref().map(|a| a.volume),
        balance: e.audio.as_ref().map(|a| a.balance),
    }
}

// ---------------------------------------------------------------------------------------
// JSON → binary
// ---------------------------------------------------------------------------------------

/// Whether a JSON skeleton carries nonessential data (`fps`, `images`, `audio`, a bone
/// `color`/`icon`/`visible` or a slot `visible`).
fn nonessential(s: &j::Skeleton) -> bool {
    let i = &s.info;
    i.fps.is_some()
        || i.images.is_some()
        || i.audio.is_some()
        || s.bones.iter().any(|b| b.color.is_some() || b.icon.is_some() || b.visible.is_some())
        || s.slots.iter().any(|sl| sl.visible.is_some())
}

/// A 4.0–4.2 JSON skeleton as a binary skeleton of its declared version.
pub fn from_json(s: &j::Skeleton) -> Result<w::Skeleton, Vec<Problem>> {
    let version = s.info.spine.clone().unwrap_or_else(|| "4.2".into());
    let gen = match SpineVersion::parse(&version) {
        Some(v @ (SpineVersion::V4_0 | SpineVersion::V4_1)) => v,
        _ => SpineVersion::V4_2,
    };
    let names: Vec<&str> = s.skins.iter().map(|k| k.name.as_str()).collect();
    let SkinOrder { default, order, index } = SkinOrder::new(&names);
    let mut c = FromJson::new(s, gen, index);
    let ne = nonessential(s);
    let v42 = c.v42();
    let bones = bones_from_json(&mut c, ne);
    let slots = s.slots.iter().map(|sl| slot_from_json(&mut c, sl, ne)).collect();
    let ik = s.ik.iter().map(|k| ik_from_json(&mut c, k)).collect();
    let transform = s.transform.iter().map(|t| transform_from_json(&mut c, t)).collect();
    let path = s.path.iter().map(|p| path_from_json(&mut c, p)).collect();
    let physics =
        if v42 { s.physics.iter().map(|p| physics_from_json(&mut c, p)).collect() } else { vec![] };
    let (default_skin, skins) = skins_from_json(&mut c, &order, default, ne);
    let events = s.events.iter().map(|e| event_from_json(&mut c, e)).collect::<Vec<_>>();
    let animations = s.animations.iter().map(|a| animation_from_json(&mut c, a, &events)).collect();
    if !c.p.list.is_empty() {
        return Err(c.p.list);
    }
    Ok(w::Skeleton {
        generation: gen,
        header: header_from_json(&s.info, version, v42, ne),
        strings: std::mem::take(&mut c.strings.list),
        bones,
        slots,
        ik_constraints: ik,
        transform_constraints: transform,
        path_constraints: path,
        physics_constraints: physics,
        default_skin,
        skins,
        events,
        animations,
    })
}

fn header_from_json(i: &j::Info, version: String, v42: bool, ne: bool) -> w::Header {
    w::Header {
        hash: hash_words(i.hash.as_deref()),
        version,
        x: i.x.unwrap_or(0.0),
        y: i.y.unwrap_or(0.0),
        width: i.width.unwrap_or(0.0),
        height: i.height.unwrap_or(0.0),
        reference_scale: v42.then(|| i.reference_scale.unwrap_or(100.0)),
        nonessential: ne.then(|| w::HeaderExtras {
            fps: i.fps.unwrap_or(30.0),
            images_path: i.images.clone(),
            audio_path: i.audio.clone(),
        }),
    }
}

/// The bones, each parent resolved among the bones before it.
fn bones_from_json(c: &mut FromJson<'_>, ne: bool) -> Vec<w::Bone> {
    let s = c.s;
    let v42 = c.v42();
    let mut bones = Vec::with_capacity(s.bones.len());
    for (i, b) in s.bones.iter().enumerate() {
        c.p.enter("bone", &b.name);
        let parent = match (&b.parent, i) {
            (_, 0) => None,
            (Some(p), _) => Some(match c.bones.get(p.as_str()) {
                Some(&pi) => pi,
                None => {
                    c.p.unknown("parent bone", p);
                    0
                }
            }),
            (None, _) => {
                c.p.report(ProblemKind::Invalid("only the first bone may have no parent".into()));
                Some(0)
            }
        };
        c.bones.entry(b.name.as_str()).or_insert(i as u32);
        bones.push(w::Bone {
            name: b.name.clone(),
            parent,
            rotation: b.rotation.unwrap_or(0.0),
            x: b.x.unwrap_or(0.0),
            y: b.y.unwrap_or(0.0),
            scale_x: b.scale_x.unwrap_or(1.0),
            scale_y: b.scale_y.unwrap_or(1.0),
            shear_x: b.shear_x.unwrap_or(0.0),
            shear_y: b.shear_y.unwrap_or(0.0),
            length: b.length.unwrap_or(0.0),
            inherit: inherit_from_json(b.inherit),
            skin_required: b.skin.unwrap_or(false),
            extras: ne.then(|| w::BoneExtras {
                color: b.color.unwrap_or(BONE_COLOR),
                icon: if v42 { b.icon.clone() } else { None },
                visible: b.visible.unwrap_or(true),
            }),
        });
        c.p.pop();
    }
    bones
}

fn slot_from_json(c: &mut FromJson<'_>, sl: &j::Slot, ne: bool) -> w::Slot {
    c.p.enter("slot", &sl.name);
    let bone = c.find("bone", &sl.bone);
    let slot = w::Slot {
        name: sl.name.clone(),
        bone,
        color: sl.color.unwrap_or([0xff; 4]),
        // The editor's `00 R G B` (all `FF` means none).
        dark: match sl.dark {
            None => [0xff; 4],
            Some([r, g, b, _]) => [0, r, g, b],
        },
        attachment: c.strings.opt(sl.attachment.as_deref()),
        blend: blend_from_json(sl.blend),
        visible: (ne && c.v42()).then(|| sl.visible.unwrap_or(true)),
    };
    c.p.pop();
    slot
}

/// The default skin (JSON `default`, attachments only) and the other skins, in wire order.
fn skins_from_json(
    c: &mut FromJson<'_>,
    order: &[usize],
    default_index: Option<usize>,
    ne: bool,
) -> (Option<w::SkinSlots>, Vec<w::Skin>) {
    let s = c.s;
    let v42 = c.v42();
    let mut default_skin = None;
    let mut skins = Vec::new();
    for &i in order {
        let k = &s.skins[i];
        c.p.enter("skin", &k.name);
        let slots = skin_slots_from_json(c, k, ne);
        if Some(i) == default_index {
            default_skin = Some(slots);
        } else {
            let name = if v42 {
                w::Name::Inline(k.name.to_string())
            } else {
                w::Name::Ref(c.strings.get(&k.name))
            };
            let bones = c.bones(&k.bones);
            let ik = k.ik.iter().map(|n| c.find("IK constraint", n)).collect();
            let transform = k.transform.iter().map(|n| c.find("transform constraint", n)).collect();
            let path = k.path.iter().map(|n| c.find("path constraint", n)).collect();
            let physics = k.physics.iter().map(|n| c.find("physics constraint", n)).collect();
            skins.push(w::Skin {
                name,
                color: (v42 && ne).then(|| k.color.unwrap_or([0; 4])),
                bones,
                ik,
                transform,
                path,
                physics,
                slots,
            });
        }
        c.p.pop();
    }
    (default_skin, skins)
}

fn event_from_json(c: &mut FromJson<'_>, e: &j::EventDef) -> w::EventData {
    w::EventData {
        name: if c.v42() {
            w::Name::Inline(e.name.to_string())
        } else {
            w::Name::Ref(c.strings.get(&e.name))
        },
        int: e.int.unwrap_or(0),
        float: e.float.unwrap_or(0.0),
        string: e.string.clone(),
        audio: e.audio.clone().map(|path| w::EventAudio {
            path,
            volume: e.volume.unwrap_or(1.0),
            balance: e.balance.unwrap_or(0.0),
        }),
    }
}
