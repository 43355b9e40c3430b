//! The 3.8 reader.

use super::ast::*;
use crate::binary::prim::Reader;
use crate::binary::v3_common::read::{
    read_animation, read_enum, read_indices, read_skin_slots, Ctx,
};
use crate::binary::{generation_of, Generation};
use crate::error::{BinaryError, BinaryErrorKind};
use crate::Limits;

fn read_header(r: &mut Reader<'_>) -> Result<Header, BinaryError> {
    let hash = r.string()?;
    let at = r.pos();
    let version = r.name("version")?.to_owned();
    // The 3.8 loaders refuse 3.8.75 exports ("please export with a newer version").
    if generation_of(&version) != Some(Generation::V38) || version == "3.8.75" {
        return Err(r.err_at(
            at,
            BinaryErrorKind::UnsupportedVersion { found: version, supported: "3.8 (not 3.8.75)" },
        ));
    }
    let [x, y, width, height] = [r.f32()?, r.f32()?, r.f32()?, r.f32()?];
    let nonessential = if r.bool()? {
        Some(Nonessential { fps: r.f32()?, images: r.string()?, audio: r.string()? })
    } else {
        None
    };
    Ok(Header { hash, version, x, y, width, height, nonessential })
}

/// Name and order of a constraint, then its `skinRequired` flag and bone list.
fn read_constraint_head<'a>(
    r: &mut Reader<'a>,
    what: &'static str,
    bones: usize,
) -> Result<(String, u32, bool, Vec<u32>), BinaryError> {
    let name = r.name(what)?;
    r.name_item(name);
    let order = r.varint()?;
    let skin_required = r.bool()?;
    let cbones = read_indices(r, "bone", bones)?;
    Ok((name.to_owned(), order, skin_required, cbones))
}

/// Parses a 3.8 skeleton.
pub(super) fn parse(bytes: &[u8], limits: Limits) -> Result<Skeleton, BinaryError> {
    let mut r = Reader::with_limits(bytes, limits);
    r.check_file_size()?;
    let r = &mut r;
    let header = read_header(r)?;
    let nonessential = header.nonessential.is_some();

    r.enter("strings");
    let n = r.count("string", 1)?;
    let mut table: Vec<&str> = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("strings", i);
        table.push(r.name("string table entry")?);
        r.leave();
    }
    r.leave();
    let strings: Vec<String> = table.iter().map(|s| (*s).to_owned()).collect();

    r.enter("bones");
    let n = r.count("bone", 35)?;
    let mut bones = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("bones", i);
        let name = r.name("bone")?;
        r.name_item(name);
        let parent = if i == 0 { None } else { Some(r.index("parent bone", i)?) };
        let [rotation, x, y, scale_x, scale_y, shear_x, shear_y, length] =
            [r.f32()?, r.f32()?, r.f32()?, r.f32()?, r.f32()?, r.f32()?, r.f32()?, r.f32()?];
        let transform_mode = read_enum(r, TransformMode::WHAT, TransformMode::from_wire)?;
        let skin_required = r.bool()?;
        let color = if nonessential { Some(r.rgba()?) } else { None };
        bones.push(Bone {
            name: name.to_owned(),
            parent,
            rotation,
            x,
            y,
            scale_x,
            scale_y,
            shear_x,
            shear_y,
            length,
            transform_mode,
            skin_required,
            color,
        });
        r.leave();
    }
    r.leave();

    r.enter("slots");
    let n = r.count("slot", 12)?;
    let mut slots = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("slots", i);
        let name = r.name("slot")?;
        r.name_item(name);
        let bone = r.index("bone", bones.len())?;
        let color = r.rgba()?;
        let dark_color = r.rgba()?;
        let attachment = r.str_ref(strings.len())?;
        let blend = read_enum(r, BlendMode::WHAT, BlendMode::from_wire)?;
        slots.push(Slot { name: name.to_owned(), bone, color, dark_color, attachment, blend });
        r.leave();
    }
    r.leave();

    r.enter("ik constraints");
    let n = r.count("ik constraint", 17)?;
    let mut ik = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("ik constraints", i);
        let (name, order, skin_required, cbones) =
            read_constraint_head(r, "ik constraint", bones.len())?;
        ik.push(IkConstraint {
            name,
            order,
            skin_required,
            bones: cbones,
            target: r.index("bone", bones.len())?,
            mix: r.f32()?,
            softness: r.f32()?,
            bend_direction: r.i8()?,
            compress: r.bool()?,
            stretch: r.bool()?,
            uniform: r.bool()?,
        });
        r.leave();
    }
    r.leave();

    r.enter("transform constraints");
    let n = r.count("transform constraint", 47)?;
    let mut transform = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("transform constraints", i);
        let (name, order, skin_required, cbones) =
            read_constraint_head(r, "transform constraint", bones.len())?;
        let target = r.index("bone", bones.len())?;
        let local = r.bool()?;
        let relative = r.bool()?;
        let mut offsets = [0.0; 6];
        for o in &mut offsets {
            *o = r.f32()?;
        }
        let mut mixes = [0.0; 4];
        for m in &mut mixes {
            *m = r.f32()?;
        }
        transform.push(TransformConstraint {
            name,
            order,
            skin_required,
            bones: cbones,
            target,
            local,
            relative,
            offsets,
            mixes,
        });
        r.leave();
    }
    r.leave();

    r.enter("path constraints");
    let n = r.count("path constraint", 28)?;
    let mut path = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("path constraints", i);
        let (name, order, skin_required, cbones) =
            read_constraint_head(r, "path constraint", bones.len())?;
        path.push(PathConstraint {
            name,
            order,
            skin_required,
            bones: cbones,
            target: r.index("slot", slots.len())?,
            position_mode: read_enum(r, PositionMode::WHAT, PositionMode::from_wire)?,
            spacing_mode: read_enum(r, SpacingMode::WHAT, SpacingMode::from_wire)?,
            rotate_mode: read_enum(r, RotateMode::WHAT, RotateMode::from_wire)?,
            offset_rotation: r.f32()?,
            position: r.f32()?,
            spacing: r.f32()?,
            rotate_mix: r.f32()?,
            translate_mix: r.f32()?,
        });
        r.leave();
    }
    r.leave();

    let mut ctx = Ctx {
        gen: Generation::V38,
        nonessential,
        strings: strings.len(),
        bones: bones.len(),
        slots: slots.len(),
        ik: ik.len(),
        transforms: transform.len(),
        paths: path.len(),
        skins: 0,
        event_audio: Vec::new(),
    };

    r.enter("default skin");
    let default_skin = read_skin_slots(r, &ctx)?;
    r.leave();

    r.enter("skins");
    let n = r.count("skin", 6)?;
    let mut skins = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("skins", i);
        let name = r.str_ref(strings.len())?;
        if let Some(s) = name.index().and_then(|i| table.get(i)) {
            r.name_item(s);
        }
        let sbones = read_indices(r, "bone", bones.len())?;
        let sik = read_indices(r, "ik constraint", ik.len())?;
        let stc = read_indices(r, "transform constraint", transform.len())?;
        let spc = read_indices(r, "path constraint", path.len())?;
        let sslots = read_skin_slots(r, &ctx)?;
        skins.push(Skin { name, bones: sbones, ik: sik, transform: stc, path: spc, slots: sslots });
        r.leave();
    }
    r.leave();
    ctx.skins = usize::from(!default_skin.is_empty()) + skins.len();

    r.enter("events");
    let n = r.count("event", 8)?;
    let mut events = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("events", i);
        let name = r.str_ref(strings.len())?;
        if let Some(s) = name.index().and_then(|i| table.get(i)) {
            r.name_item(s);
        }
        let int = r.varint_signed()?;
        let float = r.f32()?;
        let string = r.string()?;
        let audio = match r.string()? {
            Some(path) => Some(EventDataAudio { path, volume: r.f32()?, balance: r.f32()? }),
            None => None,
        };
        events.push(EventData { name, int, float, string, audio });
        r.leave();
    }
    r.leave();
    ctx.event_audio = events.iter().map(|e| e.audio.is_some()).collect();

    r.enter("animations");
    let n = r.count("animation", 9)?;
    let mut animations = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("animations", i);
        animations.push(read_animation(r, &ctx)?);
        r.leave();
    }
    r.leave();
    r.expect_end()?;

    Ok(Skeleton {
        header,
        strings,
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
