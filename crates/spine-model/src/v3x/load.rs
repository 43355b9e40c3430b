//! The two 3.x entry points: 3.5–3.7 (inline strings) and 3.8 (string table) skeletons,
//! each normalised into the shared records and built the same way.

use spine_format::binary::v3_common as w;
use spine_format::binary::{v35, v38, StrRef};
use spine_format::SpineVersion;

use super::animation::animation;
use super::constraints::{constraints3, mixes3, Con3, Ik3, Path3, Transform3};
use super::skins::skins3;
use super::*;
use crate::build::Builder;
use crate::data::*;
use crate::error::LoadError;
use crate::LoadOptions;

/// Converts a parsed 3.5–3.7 skeleton.
pub(crate) fn from_v35(
    s: &v35::Skeleton,
    options: &LoadOptions<'_>,
) -> Result<SkeletonData, LoadError> {
    let mut b = Builder::new(Behaviour::new(s.generation, &s.header.version), options);
    let h = &s.header;
    b.data.hash = h.hash.clone().unwrap_or_default();
    b.data.width = h.width;
    b.data.height = h.height;
    b.data.fps = h.nonessential.as_ref().map_or(30.0, |n| n.fps);
    b.data.reference_scale = 100.0 * b.scale;
    for (i, bone) in s.bones.iter().enumerate() {
        let values = bone_values(bone);
        let (mode, color) = (bone.transform_mode, bone.color);
        let bone3_in = Bone3 {
            name: &bone.name,
            parent: bone.parent,
            values,
            mode,
            skin_required: false,
            color,
        };
        bone3(&mut b, i, bone3_in);
    }
    let t = Inline;
    let cpp37 = s.generation == SpineVersion::V3_7;
    for slot in &s.slots {
        let dark = if cpp37 { dark_rgb_cpp(slot.dark_color) } else { slot.dark_rgb() };
        slot3(
            &mut b,
            &slot.name,
            slot.bone,
            slot.color,
            dark,
            t.text(&slot.attachment),
            slot.blend,
        );
    }
    let ids = constraints3(&mut b, constraints_v35(s));
    for e in &s.events {
        event3(&mut b, &e.name, e.int, e.float, e.string.as_deref(), e.audio.as_ref());
    }
    let skins: Vec<Skin3<'_, Option<String>>> = s
        .skins
        .iter()
        .map(|k| Skin3 {
            name: k.name.clone().unwrap_or_default(),
            bones: &[],
            cons: [&[], &[], &[]],
            slots: &k.slots,
        })
        .collect();
    let c = Conv { t: &t, b, ids };
    finish(c, &s.default_skin, &skins, &s.animations)
}

/// Converts a parsed 3.8 skeleton.
pub(crate) fn from_v38(
    s: &v38::Skeleton,
    options: &LoadOptions<'_>,
) -> Result<SkeletonData, LoadError> {
    let mut b = Builder::new(Behaviour::new(SpineVersion::V3_8, &s.header.version), options);
    let h = &s.header;
    b.data.hash = h.hash.clone().unwrap_or_default();
    b.data.x = h.x;
    b.data.y = h.y;
    b.data.width = h.width;
    b.data.height = h.height;
    b.data.fps = h.nonessential.as_ref().map_or(30.0, |n| n.fps);
    b.data.reference_scale = 100.0 * b.scale;
    for (i, bone) in s.bones.iter().enumerate() {
        let v = [
            bone.length,
            bone.x,
            bone.y,
            bone.rotation,
            bone.scale_x,
            bone.scale_y,
            bone.shear_x,
            bone.shear_y,
        ];
        let (mode, skin_required, color) = (bone.transform_mode, bone.skin_required, bone.color);
        let bone3_in =
            Bone3 { name: &bone.name, parent: bone.parent, values: v, mode, skin_required, color };
        bone3(&mut b, i, bone3_in);
    }
    let t = Table(&s.strings);
    for slot in &s.slots {
        let dark = dark_rgb_cpp(slot.dark_color);
        slot3(
            &mut b,
            &slot.name,
            slot.bone,
            slot.color,
            dark,
            t.text(&slot.attachment),
            slot.blend,
        );
    }
    let ids = constraints3(&mut b, constraints_v38(s));
    for e in &s.events {
        let name = t.text(&e.name).map(str::to_owned);
        let name = b.name("event", name.as_deref());
        event3(&mut b, &name, e.int, e.float, e.string.as_deref(), e.audio.as_ref());
    }
    let skins: Vec<Skin3<'_, StrRef>> = s
        .skins
        .iter()
        .map(|k| Skin3 {
            name: t.text(&k.name).unwrap_or_default().to_owned(),
            bones: &k.bones,
            cons: [&k.ik, &k.transform, &k.path],
            slots: &k.slots,
        })
        .collect();
    let c = Conv { t: &t, b, ids };
    finish(c, &s.default_skin, &skins, &s.animations)
}

fn bone_values(bone: &v35::Bone) -> [f32; 8] {
    [
        bone.length,
        bone.x,
        bone.y,
        bone.rotation,
        bone.scale_x,
        bone.scale_y,
        bone.shear_x,
        bone.shear_y,
    ]
}

fn path3(p: &v35::PathConstraint) -> Path3 {
    Path3 {
        bones: p.bones.clone(),
        target: p.target,
        position_mode: position_mode(p.position_mode),
        spacing_mode: spacing_mode(p.spacing_mode),
        rotate_mode: rotate_mode(p.rotate_mode),
        offset_rotation: p.offset_rotation,
        position: p.position,
        spacing: p.spacing,
        rotate_mix: p.rotate_mix,
        mix_x: p.translate_mix,
        mix_y: p.translate_mix,
    }
}

/// A 3.x bone record, normalised (3.5–3.7 and 3.8 differ in their types, not in meaning).
struct Bone3<'a> {
    /// Name.
    name: &'a str,
    /// Parent index (`None` for the root).
    parent: Option<u32>,
    /// Length, x, y, rotation, scale x, scale y, shear x, shear y.
    values: [f32; 8],
    /// Transform mode.
    mode: w::TransformMode,
    /// Skin required (3.8; `false` before).
    skin_required: bool,
    /// Editor color.
    color: Option<[u8; 4]>,
}

/// Adds bone `i`.
fn bone3(b: &mut Builder<'_>, i: usize, bone: Bone3<'_>) {
    let Bone3 { name, parent, values: v, mode, skin_required, color } = bone;
    b.enter("bone", name);
    let data = BoneData {
        name: name.into(),
        parent: None,
        length: b.fs("length", v[0]),
        x: b.fs("x", v[1]),
        y: b.fs("y", v[2]),
        rotation: b.f("rotation", v[3]),
        scale_x: b.f("scale x", v[4]),
        scale_y: b.f("scale y", v[5]),
        shear_x: b.f("shear x", v[6]),
        shear_y: b.f("shear y", v[7]),
        inherit: inherit(mode),
        skin_required,
        color: color.map(Color::from_bytes),
    };
    b.add_bone(i, parent, data);
    b.pop();
}

fn slot3(
    b: &mut Builder<'_>,
    name: &str,
    bone: u32,
    color: [u8; 4],
    dark: Option<[u8; 3]>,
    attachment: Option<&str>,
    mode: w::BlendMode,
) {
    b.enter("slot", name);
    let bone = b.bone(bone);
    b.data.slots.push(SlotData {
        name: name.into(),
        bone,
        color: Color::from_bytes(color),
        dark_color: dark.map(Color::from_rgb),
        attachment: attachment.map(str::to_owned),
        blend: blend(mode),
    });
    b.pop();
}

fn event3(
    b: &mut Builder<'_>,
    name: &str,
    int: i32,
    float: f32,
    string: Option<&str>,
    audio: Option<&w::EventDataAudio>,
) {
    b.data.events.push(EventData {
        name: name.into(),
        int_value: int,
        float_value: float,
        string_value: string.unwrap_or_default().to_owned(),
        audio_path: audio.map(|a| a.path.clone()).unwrap_or_default(),
        volume: audio.map_or(1.0, |a| a.volume),
        balance: audio.map_or(0.0, |a| a.balance),
    });
}

/// Builds the skins, resolves linked meshes and atlas regions, then the animations.
fn finish<S, T: Text<S>>(
    mut c: Conv<'_, '_, T>,
    default: &[w::SkinSlot<S>],
    skins: &[Skin3<'_, S>],
    animations: &[w::Animation<S>],
) -> Result<SkeletonData, LoadError> {
    skins3(&mut c, default, skins);
    c.b.resolve_links();
    c.b.bind_atlas();
    for a in animations {
        animation(&mut c, a);
    }
    c.b.finish()
}

/// The 3.5–3.7 constraints (no softness, no skin-required flags), normalised.
fn constraints_v35(s: &v35::Skeleton) -> Vec<Con3<'_>> {
    let mut cons = Vec::new();
    for k in &s.ik {
        let data = Ik3 {
            bones: k.bones.clone(),
            target: k.target,
            mix: k.mix,
            softness: 0.0,
            bend: i32::from(k.bend_direction),
            compress: k.compress,
            stretch: k.stretch,
            uniform: k.uniform,
        };
        cons.push(Con3::Ik { name: &k.name, order: k.order, skin: false, data });
    }
    for k in &s.transform {
        let data = Transform3 {
            bones: k.bones.clone(),
            target: k.target,
            local: k.local,
            relative: k.relative,
            offsets: k.offsets,
            mixes: mixes3(k.mixes),
            solver: TransformSolver::Legacy3x,
        };
        cons.push(Con3::Transform { name: &k.name, order: k.order, skin: false, data });
    }
    for p in &s.path {
        cons.push(Con3::Path { name: &p.name, order: p.order, skin: false, data: path3(p) });
    }
    cons
}

/// The 3.8 constraints, normalised.
fn constraints_v38(s: &v38::Skeleton) -> Vec<Con3<'_>> {
    let mut cons = Vec::new();
    for k in &s.ik {
        let data = Ik3 {
            bones: k.bones.clone(),
            target: k.target,
            mix: k.mix,
            softness: k.softness,
            bend: i32::from(k.bend_direction),
            compress: k.compress,
            stretch: k.stretch,
            uniform: k.uniform,
        };
        cons.push(Con3::Ik { name: &k.name, order: k.order, skin: k.skin_required, data });
    }
    for k in &s.transform {
        let data = Transform3 {
            bones: k.bones.clone(),
            target: k.target,
            local: k.local,
            relative: k.relative,
            offsets: k.offsets,
            mixes: mixes3(k.mixes),
            solver: TransformSolver::Legacy3x,
        };
        cons.push(Con3::Transform { name: &k.name, order: k.order, skin: k.skin_required, data });
    }
    for p in &s.path {
        let data = Path3 {
            bones: p.bones.clone(),
            target: p.target,
            position_mode: position_mode(p.position_mode),
            spacing_mode: spacing_mode(p.spacing_mode),
            rotate_mode: rotate_mode(p.rotate_mode),
            offset_rotation: p.offset_rotation,
            position: p.position,
            spacing: p.spacing,
            rotate_mix: p.rotate_mix,
            mix_x: p.translate_mix,
            mix_y: p.translate_mix,
        };
        cons.push(Con3::Path { name: &p.name, order: p.order, skin: p.skin_required, data });
    }
    cons
}
