//! The skeleton-level records both ways: header/info, bones, slots, skins and event
//! definitions, the mesh `timelineSlots` JSON leaves implicit, and the two entry points
//! that assemble a whole skeleton.

use spine_format::binary::v43 as w;
use spine_format::binary::StrRef;
use spine_format::json::{self as j1, EventDef};
use spine_format::json43 as j;

use super::animation_from::animation_from_json;
use super::animation_to::animation_to_json;
use super::attachments::{skin_slots_from_json, skin_slots_to_json, TimelineSlot};
use super::constraints::{constraint_from_json, constraint_to_json};
use super::context::{FromJson, ToJson};
use super::NO_DARK;
use super::{blend_from_json, blend_to_json, hash_string, inherit_from_json, inherit_to_json};
use crate::convert::json_common::{hash_words, some_if, SkinOrder, BONE_COLOR};
use crate::error::{Problem, ProblemKind};

// ---------------------------------------------------------------------------------------
// Binary → JSON
// ---------------------------------------------------------------------------------------

/// A 4.3 binary skeleton as a 4.3 JSON skeleton that loads to the same data.
pub fn to_json(s: &w::Skeleton) -> j::Skeleton {
    let c = ToJson::new(s);
    j::Skeleton {
        info: info_to_json(&s.header),
        bones: s.bones.iter().map(|b| bone_to_json(&c, b)).collect(),
        slots: s.slots.iter().map(|sl| slot_to_json(&c, sl)).collect(),
        constraints: s.constraints.iter().map(|k| constraint_to_json(&c, k)).collect(),
        skins: skins_to_json(&c),
        events: s.events.iter().map(event_to_json).collect(),
        animations: s.animations.iter().map(|a| animation_to_json(&c, a)).collect(),
    }
}

/// The JSON `skeleton` object of a header.
fn info_to_json(h: &w::Header) -> j::Info {
    let ne = h.nonessential.as_ref();
    j::Info {
        hash: hash_string(h),
        spine: Some(h.version.clone()),
        x: Some(h.x),
        y: Some(h.y),
        width: Some(h.width),
        height: Some(h.height),
        reference_scale: some_if(h.reference_scale, 100.0),
        fps: ne.map(|n| n.fps),
        images: ne.and_then(|n| n.images_path.clone()),
        audio: ne.and_then(|n| n.audio_path.clone()),
    }
}

fn bone_to_json(c: &ToJson<'_>, b: &w::Bone) -> j::Bone {
    let e = b.nonessential.as_ref();
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
        inherit: some_if(inherit_to_json(b.inherit), j1::Inherit::Normal),
        skin: b.skin_required.then_some(true),
        color: e.map(|e| e.color),
        icon: e.and_then(|e| e.icon.clone()),
        icon_size: e.map(|e| e.icon_size),
        icon_rotation: e.map(|e| e.icon_rotation),
        visible: e.map(|e| e.visible),
    }
}

fn slot_to_json(c: &ToJson<'_>, sl: &w::Slot) -> j::Slot {
    j::Slot {
        name: sl.name.clone(),
        bone: c.bone(sl.bone),
        color: some_if(sl.color, [0xff; 4]),
        dark: (sl.dark_color != NO_DARK).then(|| {
            let [a, r, g, b] = sl.dark_color;
            [r, g, b, a]
        }),
        attachment: c.text(sl.attachment),
        blend: some_if(blend_to_json(sl.blend), j1::BlendMode::Normal),
        visible: sl.visible,
    }
}

/// The default skin (named `default`, attachments only) then the other skins, each
/// constraint listed under its JSON type.
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
        let mut skin = j::Skin {
            name: k.name.clone(),
            bones: c.bones(&k.bones),
            slots: skin_slots_to_json(c, &k.slots),
            color: k.color,
            ..j::Skin::default()
        };
        for &ci in &k.constraints {
            let name = c.constraint(ci);
            match s.constraints.get(ci as usize).map(|x| x.kind.constraint_type()) {
                Some(w::ConstraintType::Ik) => skin.ik.push(name),
                Some(w::ConstraintType::Transform) => skin.transform.push(name),
                Some(w::ConstraintType::Path) => skin.path.push(name),
                Some(w::ConstraintType::Physics) => skin.physics.push(name),
                Some(w::ConstraintType::Slider) => skin.slider.push(name),
                None => {}
            }
        }
        json_skins.push(skin);
    }
    json_skins
}

fn event_to_json(e: &w::Event) -> EventDef {
    let [volume, balance] = e.volume_balance.unwrap_or([1.0, 0.0]);
    EventDef {
        name: e.name.clone(),
        int: some_if(e.int_value, 0),
        float: some_if(e.float_value, 0.0),
        string: e.string_value.clone(),
        audio: e.audio_path.clone(),
        volume: e.volume_balance.map(|_| volume),
        balance: e.volume_balance.map(|_| balance),
    }
}

// ---------------------------------------------------------------------------------------
// JSON → binary
// ---------------------------------------------------------------------------------------

/// Whether a JSON skeleton carries nonessential data (see the module docs).
fn nonessential(s: &j::Skeleton) -> bool {
    let i = &s.info;
    i.fps.is_some()
        || i.images.is_some()
        || i.audio.is_some()
        || s.bones.iter().any(|b| b.color.is_some() || b.icon.is_some() || b.visible.is_some())
        || s.slots.iter().any(|sl| sl.visible.is_some())
}

/// A 4.3 JSON skeleton as a 4.3 binary skeleton, every name resolved. Fails with every
/// unknown name (and invalid value) found, each with its object path.
pub fn from_json(s: &j::Skeleton) -> Result<w::Skeleton, Vec<Problem>> {
    let names: Vec<&str> = s.skins.iter().map(|k| k.name.as_str()).collect();
    let SkinOrder { default, order, index } = SkinOrder::new(&names);
    let mut c = FromJson::new(s, index);
    let ne = nonessential(s);
    let header = header_from_json(&s.info, ne);
    let bones = bones_from_json(&mut c, ne);
    let slots = s.slots.iter().map(|sl| slot_from_json(&mut c, sl, ne)).collect();
    let constraints = s.constraints.iter().map(|k| constraint_from_json(&mut c, k, ne)).collect();
    let (mut default_skin, mut skins, timeline_slots) =
        skins_from_json(&mut c, &order, default, ne);
    add_timeline_slots(&mut default_skin, &mut skins, timeline_slots);
    let events = s.events.iter().map(event_from_json).collect();
    let animations = s.animations.iter().map(|a| animation_from_json(&mut c, a, ne)).collect();
    let strings = std::mem::take(&mut c.strings.list).into_iter().map(Some).collect();
    if !c.p.list.is_empty() {
        return Err(c.p.list);
    }
    Ok(w::Skeleton {
        header,
        strings,
        bones,
        slots,
        constraints,
        default_skin,
        skins,
        events,
        animations,
    })
}

fn header_from_json(i: &j::Info, ne: bool) -> w::Header {
    let [hash_low, hash_high] = hash_words(i.hash.as_deref());
    w::Header {
        hash_low,
        hash_high,
        version: i.spine.clone().unwrap_or_else(|| "4.3".to_owned()),
        x: i.x.unwrap_or(0.0),
        y: i.y.unwrap_or(0.0),
        width: i.width.unwrap_or(0.0),
        height: i.height.unwrap_or(0.0),
        reference_scale: i.reference_scale.unwrap_or(100.0),
        nonessential: ne.then(|| w::NonessentialHeader {
            fps: i.fps.unwrap_or(30.0),
            images_path: i.images.clone(),
            audio_path: i.audio.clone(),
        }),
    }
}

/// The bones: a parent must come before its child.
fn bones_from_json(c: &mut FromJson<'_>, ne: bool) -> Vec<w::Bone> {
    let s = c.s;
    let mut bones = Vec::with_capacity(s.bones.len());
    for (i, b) in s.bones.iter().enumerate() {
        c.p.enter("bone", &b.name);
        let parent = match &b.parent {
            Some(p) => match c.bones.get(p.as_str()) {
                Some(&pi) => Some(pi),
                None => {
                    c.p.unknown("parent bone", p);
                    Some(0)
                }
            },
            None => None,
        };
        if parent.is_none() && i > 0 {
            c.p.report(ProblemKind::Invalid("only the first bone may have no parent".into()));
        }
        c.bones.entry(b.name.as_str()).or_insert(i as u32);
        bones.push(w::Bone {
            name: b.name.clone(),
            parent: if i == 0 { None } else { parent },
            rotation: b.rotation.unwrap_or(0.0),
            x: b.x.unwrap_or(0.0),
            y: b.y.unwrap_or(0.0),
            scale_x: b.scale_x.unwrap_or(1.0),
            scale_y: b.scale_y.unwrap_or(1.0),
            shear_x: b.shear_x.unwrap_or(0.0),
            shear_y: b.shear_y.unwrap_or(0.0),
            inherit: b.inherit.map_or(w::Inherit::Normal, inherit_from_json),
            length: b.length.unwrap_or(0.0),
            skin_required: b.skin.unwrap_or(false),
            nonessential: ne.then(|| w::BoneExtras {
                color: b.color.unwrap_or(BONE_COLOR),
                icon: b.icon.clone(),
                icon_size: b.icon_size.unwrap_or(1.0),
                icon_rotation: b.icon_rotation.unwrap_or(0.0),
                visible: b.visible.unwrap_or(true),
            }),
        });
        c.p.pop();
    }
    bones
}

fn slot_from_json(c: &mut FromJson<'_>, sl: &j::Slot, ne: bool) -> w::Slot {
    c.p.enter("slot", &sl.name);
    let bone = c.bone(&sl.bone);
    let dark_color = match sl.dark {
        None => NO_DARK,
        Some([r, g, b, a]) => {
            // The all-0xFF word means "no dark color"; keep the color with another
            // (ignored) high byte.
            if [a, r, g, b] == NO_DARK {
                [0, r, g, b]
            } else {
                [a, r, g, b]
            }
        }
    };
    let slot = w::Slot {
        name: sl.name.clone(),
        bone,
        color: sl.color.unwrap_or([0xff; 4]),
        dark_color,
        attachment: c.strings.opt(sl.attachment.as_deref()),
        blend: sl.blend.map_or(w::BlendMode::Normal, blend_from_json),
        visible: ne.then(|| sl.visible.unwrap_or(true)),
    };
    c.p.pop();
    slot
}

/// The default skin and the other skins in wire order (linked meshes need every skin's
/// index, known from `order`), and the timeline slots their linked meshes imply.
fn skins_from_json(
    c: &mut FromJson<'_>,
    order: &[usize],
    default_index: Option<usize>,
    ne: bool,
) -> (Option<Vec<w::SkinSlot>>, Vec<w::Skin>, Vec<TimelineSlot>) {
    let s = c.s;
    let mut default_skin = None;
    let mut skins = Vec::new();
    let mut timeline_slots = Vec::new();
    for &i in order {
        let k = &s.skins[i];
        c.p.enter("skin", &k.name);
        let slots = skin_slots_from_json(c, k, ne, &mut timeline_slots);
        if Some(i) == default_index {
            default_skin = Some(slots);
        } else {
            let bones = c.bones(&k.bones);
            let mut list = Vec::new();
            for (ty, what, names) in [
                ("ik", "IK constraint", &k.ik),
                ("transform", "transform constraint", &k.transform),
                ("path", "path constraint", &k.path),
                ("physics", "physics constraint", &k.physics),
                ("slider", "slider constraint", &k.slider),
            ] {
                for n in names {
                    list.extend(c.constraint(ty, what, n));
                }
            }
            skins.push(w::Skin {
                name: k.name.clone(),
                color: if ne { Some(k.color.unwrap_or([0; 4])) } else { None },
                bones,
                constraints: list,
                slots,
            });
        }
        c.p.pop();
    }
    (default_skin, skins, timeline_slots)
}

/// Adds to each source mesh the slots of the linked meshes that inherit its timelines
/// from another slot, as the loader derives them.
fn add_timeline_slots(
    default_skin: &mut Option<Vec<w::SkinSlot>>,
    skins: &mut [w::Skin],
    timeline_slots: Vec<TimelineSlot>,
) {
    for (skin, slot, source, linked_slot) in timeline_slots {
        let target = if default_skin.is_some() {
            if skin == 0 {
                default_skin.as_mut()
            } else {
                skins.get_mut(skin as usize - 1).map(|k| &mut k.slots)
            }
        } else {
            skins.get_mut(skin as usize).map(|k| &mut k.slots)
        };
        if let Some(m) = target.and_then(|slots| source_mesh(slots, slot, source)) {
            if !m.timeline_slots.contains(&linked_slot) {
                m.timeline_slots.push(linked_slot);
            }
        }
    }
}

/// The mesh `source` of `slot` in a skin's slots, when it is one.
fn source_mesh(
    slots: &mut [w::SkinSlot],
    slot: u32,
    source: StrRef,
) -> Option<&mut w::MeshAttachment> {
    let entry = slots
        .iter_mut()
        .find(|x| x.slot == slot)
        .and_then(|x| x.attachments.iter_mut().find(|e| e.placeholder == source))?;
    match &mut entry.attachment.kind {
        w::AttachmentKind::Mesh(m) => Some(m),
        _ => None,
    }
}

fn event_from_json(e: &EventDef) -> w::Event {
    let has_audio = e.audio.as_deref().is_some_and(|a| !a.is_empty());
    w::Event {
        name: e.name.clone(),
        int_value: e.int.unwrap_or(0),
        float_value: e.float.unwrap_or(0.0),
        string_value: e.string.clone(),
        audio_path: e.audio.clone(),
        volume_balance: has_audio.then(|| [e.volume.unwrap_or(1.0), e.balance.unwrap_or(0.0)]),
    }
}
