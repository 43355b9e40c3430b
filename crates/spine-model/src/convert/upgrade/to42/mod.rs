//! The 4.2 target: the 4.3 AST made from the model ([`super::to_v43`]), written in the 4.2
//! layout. The skeleton (header, bones, slots, skins, events) here, the constraints,
//! attachments and animations in their own files.

mod animation;
mod attachments;
mod constraints;

use spine_format::binary::v40::ast as v4;
use spine_format::binary::v43 as w;
use spine_format::SpineVersion;

use super::notes::Notes;
use super::{to_v43, Extras, UpgradeError};
use crate::data::SkeletonData;

/// The SkeletonData of a 3.5–4.2 skeleton as a 4.2 binary skeleton: the 4.3 form ([`to_v43`])
/// in the 4.2 layout (separate constraint lists with update `order`s, identity transform
/// constraints back to offsets and mixes, the 4.2 flag bits). A source using what 4.2 cannot
/// hold (4.3 sliders, draw-order folders, non-identity transform mappings) is refused.
pub fn to_v42(
    d: &SkeletonData,
    extras: &Extras,
    notes: &mut Notes,
) -> Result<v4::Skeleton, UpgradeError> {
    let mut n43 = Notes::default();
    let s = to_v43(d, extras, &mut n43)?;
    for line in n43.into_lines() {
        // The 4.3-only notes do not apply to a 4.2 target.
        if !line.contains("4.3") {
            notes.add(line);
        }
    }
    let strings: Vec<String> = s.strings.iter().map(|x| x.clone().unwrap_or_default()).collect();
    let c = constraints::Split::of(&s.constraints)?;
    let default_skin = match &s.default_skin {
        Some(sl) => Some(attachments::skin_slots(sl)?),
        None => None,
    };
    let mut skins = Vec::with_capacity(s.skins.len());
    for k in &s.skins {
        skins.push(skin(k, &s.constraints, &c.local)?);
    }
    let mut animations = Vec::with_capacity(s.animations.len());
    for a in &s.animations {
        animations.push(animation::animation_v42(a, &c.local)?);
    }
    Ok(v4::Skeleton {
        generation: SpineVersion::V4_2,
        header: header(&s.header),
        strings,
        bones: s.bones.iter().map(bone).collect(),
        slots: s.slots.iter().map(slot).collect(),
        ik_constraints: c.ik,
        transform_constraints: c.transform,
        path_constraints: c.path,
        physics_constraints: c.physics,
        default_skin,
        skins,
        events: s.events.iter().map(event).collect(),
        animations,
    })
}

fn header(h: &w::Header) -> v4::Header {
    v4::Header {
        hash: [h.hash_low, h.hash_high],
        version: "4.2.0".into(),
        x: h.x,
        y: h.y,
        width: h.width,
        height: h.height,
        reference_scale: Some(h.reference_scale),
        nonessential: h.nonessential.as_ref().map(|n| v4::HeaderExtras {
            fps: n.fps,
            images_path: n.images_path.clone(),
            audio_path: n.audio_path.clone(),
        }),
    }
}

/// A bone inherit mode in 4.2.
fn inherit42(i: w::Inherit) -> v4::Inherit {
    match i {
        w::Inherit::Normal => v4::Inherit::Normal,
        w::Inherit::OnlyTranslation => v4::Inherit::OnlyTranslation,
        w::Inherit::NoRotationOrReflection => v4::Inherit::NoRotationOrReflection,
        w::Inherit::NoScale => v4::Inherit::NoScale,
        w::Inherit::NoScaleOrReflection => v4::Inherit::NoScaleOrReflection,
    }
}

fn bone(b: &w::Bone) -> v4::Bone {
    v4::Bone {
        name: b.name.clone(),
        parent: b.parent,
        rotation: b.rotation,
        x: b.x,
        y: b.y,
        scale_x: b.scale_x,
        scale_y: b.scale_y,
        shear_x: b.shear_x,
        shear_y: b.shear_y,
        length: b.length,
        inherit: inherit42(b.inherit),
        skin_required: b.skin_required,
        extras: b.nonessential.as_ref().map(|e| v4::BoneExtras {
            color: e.color,
            icon: e.icon.clone(),
            visible: e.visible,
        }),
    }
}

fn slot(sl: &w::Slot) -> v4::Slot {
    v4::Slot {
        name: sl.name.clone(),
        bone: sl.bone,
        color: sl.color,
        dark: sl.dark_color,
        attachment: sl.attachment,
        blend: match sl.blend {
            w::BlendMode::Normal => v4::BlendMode::Normal,
            w::BlendMode::Additive => v4::BlendMode::Additive,
            w::BlendMode::Multiply => v4::BlendMode::Multiply,
            w::BlendMode::Screen => v4::BlendMode::Screen,
        },
        visible: sl.visible,
    }
}

/// A skin other than the default one; its constraints by type, as indexes in the 4.2 lists
/// (`local` maps each unified index to its index in its type's list).
fn skin(
    k: &w::Skin,
    constraints: &[w::Constraint],
    local: &[u32],
) -> Result<v4::Skin, UpgradeError> {
    let of = |ty: w::ConstraintType| -> Vec<u32> {
        k.constraints
            .iter()
            .filter(|&&i| {
                constraints.get(i as usize).is_some_and(|c| c.kind.constraint_type() == ty)
            })
            .map(|&i| local[i as usize])
            .collect()
    };
    Ok(v4::Skin {
        name: v4::Name::Inline(k.name.to_string()),
        color: k.color,
        bones: k.bones.clone(),
        ik: of(w::ConstraintType::Ik),
        transform: of(w::ConstraintType::Transform),
        path: of(w::ConstraintType::Path),
        physics: of(w::ConstraintType::Physics),
        slots: attachments::skin_slots(&k.slots)?,
    })
}

fn event(e: &w::Event) -> v4::EventData {
    v4::EventData {
        name: v4::Name::Inline(e.name.to_string()),
        int: e.int_value,
        float: e.float_value,
        string: e.string_value.clone(),
        audio: e.audio_path.clone().map(|path| {
            let [volume, balance] = e.volume_balance.unwrap_or([1.0, 0.0]);
            v4::EventAudio { path, volume, balance }
        }),
    }
}
