//! The model as a 4.3 binary AST: the skeleton (header, bones, slots, skins, events) here,
//! the constraints, attachments and animations in their own files.

mod animation;
mod attachments;
mod constraints;

use std::collections::HashMap;
use std::sync::Arc;

use spine_format::binary::v43 as w;

use super::keys::{byte, rgba};
use super::notes::{semantic_notes, Notes};
use super::{Extras, UpgradeError};
use crate::convert::common::Strings;
use crate::data::*;
use crate::ids::*;

/// Where each attachment is: skin, slot, placeholder.
type Locations = HashMap<AttachmentId, (u32, u32, Arc<str>)>;

/// The SkeletonData of any version as a 4.3 binary skeleton.
pub fn to_v43(
    d: &SkeletonData,
    extras: &Extras,
    notes: &mut Notes,
) -> Result<w::Skeleton, UpgradeError> {
    semantic_notes(d, true, notes);
    let mut strings = Strings::default();
    let ne = d.bones.iter().any(|b| b.color.is_some());
    let header = header(d, extras, ne);
    let bones = d.bones.iter().map(|b| bone(b, ne)).collect();
    let slots = d.slots.iter().map(|s| slot(s, &mut strings, ne)).collect();
    let constraints = d.constraints.iter().map(constraints::constraint_v43).collect();
    let loc = locations(d);
    let (default_skin, skins) = skins(d, &loc, &mut strings, ne, notes)?;
    let events = d.events.iter().map(event).collect();
    let animations = d
        .animations
        .iter()
        .map(|a| animation::animation_v43(d, a, &loc, &mut strings, ne))
        .collect();
    Ok(w::Skeleton {
        header,
        strings: strings.list.into_iter().map(Some).collect(),
        bones,
        slots,
        constraints,
        default_skin,
        skins,
        events,
        animations,
    })
}

/// The header: the hash of the source, the bounds, the nonessential folders.
fn header(d: &SkeletonData, extras: &Extras, ne: bool) -> w::Header {
    let (hash_low, hash_high) = match extras.hash {
        Some(b) => (
            i32::from_be_bytes([b[0], b[1], b[2], b[3]]),
            i32::from_be_bytes([b[4], b[5], b[6], b[7]]),
        ),
        None => (0, 0),
    };
    w::Header {
        hash_low,
        hash_high,
        version: "4.3.0".into(),
        x: d.x,
        y: d.y,
        width: d.width,
        height: d.height,
        reference_scale: d.reference_scale,
        nonessential: ne.then(|| w::NonessentialHeader {
            fps: d.fps,
            images_path: extras.images.clone(),
            audio_path: extras.audio.clone(),
        }),
    }
}

/// A bone inherit mode in 4.3.
fn inherit43(i: Inherit) -> w::Inherit {
    match i {
        Inherit::Normal => w::Inherit::Normal,
        Inherit::OnlyTranslation => w::Inherit::OnlyTranslation,
        Inherit::NoRotationOrReflection => w::Inherit::NoRotationOrReflection,
        Inherit::NoScale => w::Inherit::NoScale,
        Inherit::NoScaleOrReflection => w::Inherit::NoScaleOrReflection,
    }
}

fn bone(b: &BoneData, ne: bool) -> w::Bone {
    w::Bone {
        name: b.name.clone(),
        parent: b.parent.map(|p| p.0),
        rotation: b.rotation,
        x: b.x,
        y: b.y,
        scale_x: b.scale_x,
        scale_y: b.scale_y,
        shear_x: b.shear_x,
        shear_y: b.shear_y,
        inherit: inherit43(b.inherit),
        length: b.length,
        skin_required: b.skin_required,
        nonessential: ne.then(|| w::BoneExtras {
            color: b.color.map_or([0x98, 0x98, 0x98, 0xff], rgba),
            icon: None,
            icon_size: 1.0,
            icon_rotation: 0.0,
            visible: true,
        }),
    }
}

fn slot(s: &SlotData, strings: &mut Strings, ne: bool) -> w::Slot {
    w::Slot {
        name: s.name.clone(),
        bone: s.bone.0,
        color: rgba(s.color),
        dark_color: s.dark_color.map_or([0xff; 4], |c| [0, byte(c.r), byte(c.g), byte(c.b)]),
        attachment: strings.opt(s.attachment.as_deref()),
        blend: match s.blend {
            BlendMode::Normal => w::BlendMode::Normal,
            BlendMode::Additive => w::BlendMode::Additive,
            BlendMode::Multiply => w::BlendMode::Multiply,
            BlendMode::Screen => w::BlendMode::Screen,
        },
        visible: ne.then_some(true),
    }
}

/// Where each attachment is: skin, slot, placeholder.
fn locations(d: &SkeletonData) -> Locations {
    let mut m = HashMap::new();
    for (si, s) in d.skins.iter().enumerate() {
        for e in &s.entries {
            m.entry(e.attachment).or_insert((si as u32, e.slot.0, e.name.clone()));
        }
    }
    m
}

/// 4.3 mesh timeline slots: the slots of the linked meshes that inherit a mesh's timelines
/// from another slot (as the 4.3 loaders derive them).
fn timeline_slots(d: &SkeletonData, loc: &Locations) -> HashMap<AttachmentId, Vec<u32>> {
    let mut extra: HashMap<AttachmentId, Vec<u32>> = HashMap::new();
    for e in d.skins.iter().flat_map(|s| &s.entries) {
        let AttachmentKind::Mesh(m) = &d.attachment(e.attachment).kind else { continue };
        let Some(source) = m.linked_source else { continue };
        let other = loc.get(&source).is_some_and(|l| l.1 != e.slot.0);
        if m.timeline_attachment == source && other {
            let list = extra.entry(source).or_default();
            if !list.contains(&e.slot.0) {
                list.push(e.slot.0);
            }
        }
    }
    extra
}

/// The default skin's slots and the other skins.
fn skins(
    d: &SkeletonData,
    loc: &Locations,
    strings: &mut Strings,
    ne: bool,
    notes: &mut Notes,
) -> Result<(Option<Vec<w::SkinSlot>>, Vec<w::Skin>), UpgradeError> {
    let extra = timeline_slots(d, loc);
    let mut default_skin = None;
    let mut skins = Vec::new();
    for (si, s) in d.skins.iter().enumerate() {
        let mut slots: Vec<w::SkinSlot> = Vec::new();
        for e in &s.entries {
            let att = d.attachment(e.attachment);
            let mut a = attachments::attachment_v43(att, e, loc, strings, ne, notes)?;
            if let w::AttachmentKind::Mesh(m) = &mut a.attachment.kind {
                m.timeline_slots = extra.get(&e.attachment).cloned().unwrap_or_default();
            }
            match slots.last_mut() {
                Some(sl) if sl.slot == e.slot.0 => sl.attachments.push(a),
                _ => slots.push(w::SkinSlot { slot: e.slot.0, attachments: vec![a] }),
            }
        }
        if Some(SkinId(si as u32)) == d.default_skin {
            default_skin = Some(slots);
        } else {
            skins.push(w::Skin {
                name: s.name.clone(),
                color: ne.then(|| s.color.map_or([0; 4], rgba)),
                bones: s.bones.iter().map(|b| b.0).collect(),
                constraints: s.constraints.iter().map(|c| c.0).collect(),
                slots,
            });
        }
    }
    Ok((default_skin, skins))
}

fn event(e: &EventData) -> w::Event {
    let audio = !e.audio_path.is_empty();
    w::Event {
        name: e.name.clone(),
        int_value: e.int_value,
        float_value: e.float_value,
        string_value: Some(e.string_value.clone()),
        audio_path: audio.then(|| e.audio_path.clone()),
        volume_balance: audio.then_some([e.volume, e.balance]),
    }
}

/// A transform property in 4.3.
fn prop43(p: TransformProperty) -> w::TransformProperty {
    match p {
        TransformProperty::Rotate => w::TransformProperty::Rotate,
        TransformProperty::X => w::TransformProperty::X,
        TransformProperty::Y => w::TransformProperty::Y,
        TransformProperty::ScaleX => w::TransformProperty::ScaleX,
        TransformProperty::ScaleY => w::TransformProperty::ScaleY,
        TransformProperty::ShearY => w::TransformProperty::ShearY,
    }
}

/// A mix as 4.3 stores it behind flag bits: none for 0, the bit `one` alone for 1, `one` and
/// `value` with the value for any other.
fn mix43(mix: f32, flags: &mut u8, one: u8, value: u8) -> Option<f32> {
    if mix == 0.0 {
        None
    } else if mix == 1.0 {
        *flags |= one;
        None
    } else {
        *flags |= one | value;
        Some(mix)
    }
}

/// Appends `t` to the group of `list` whose key is `key` (`part` gives a group's key and
/// list), starting a group made by `new` when there is none.
fn push_grouped<G, K: PartialEq, T>(
    list: &mut Vec<G>,
    key: K,
    t: T,
    part: impl Fn(&mut G) -> (&K, &mut Vec<T>),
    new: impl FnOnce(K, Vec<T>) -> G,
) {
    match list.iter_mut().map(part).find(|(k, _)| **k == key) {
        Some((_, items)) => items.push(t),
        None => list.push(new(key, vec![t])),
    }
}
