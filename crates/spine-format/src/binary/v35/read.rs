//! The 3.5–3.7 reader.

use super::ast::*;
use crate::binary::prim::Reader;
use crate::binary::v3_common::read::{
    read_animation, read_enum, read_indices, read_skin_slots, Ctx,
};
use crate::binary::v3_common::since;
use crate::binary::{generation_of, Generation};
use crate::error::{BinaryError, BinaryErrorKind};
use crate::Limits;

fn read_header(r: &mut Reader<'_>) -> Result<(Generation, Header), BinaryError> {
    let hash = r.string()?;
    let at = r.pos();
    let version = r.name("version")?.to_owned();
    let generation = match generation_of(&version) {
        Some(g @ (Generation::V35 | Generation::V36 | Generation::V37)) => g,
        _ => {
            return Err(r.err_at(
                at,
                BinaryErrorKind::UnsupportedVersion { found: version, supported: "3.5, 3.6, 3.7" },
            ))
        }
    };
    let width = r.f32()?;
    let height = r.f32()?;
    let nonessential = if r.bool()? {
        let fps = r.f32()?;
        let images = r.string()?;
        let audio = if since(generation, Generation::V37) { r.string()? } else { None };
        Some(Nonessential { fps, images, audio })
    } else {
        None
    };
    Ok((generation, Header { hash, version, width, height, nonessential }))
}

/// Parses a 3.5–3.7 skeleton.
pub(super) fn parse(bytes: &[u8], limits: Limits) -> Result<Skeleton, BinaryError> {
    let mut r = Reader::with_limits(bytes, limits);
    r.check_file_size()?;
    let r = &mut r;
    let (gen, header) = read_header(r)?;
    let nonessential = header.nonessential.is_some();

    r.enter("bones");
    let n = r.count("bone", 33)?;
    let mut bones = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("bones", i);
        let name = r.name("bone")?;
        r.name_item(name);
        let parent = if i == 0 { None } else { Some(r.index("parent bone", i)?) };
        let [rotation, x, y, scale_x, scale_y, shear_x, shear_y, length] =
            [r.f32()?, r.f32()?, r.f32()?, r.f32()?, r.f32()?, r.f32()?, r.f32()?, r.f32()?];
        let transform_mode = read_enum(r, TransformMode::WHAT, TransformMode::from_wire)?;
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
            color,
        });
        r.leave();
    }
    r.leave();

    r.enter("slots");
    let n = r.count("slot", 8)?;
    let mut slots = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("slots", i);
        let name = r.name("slot")?;
        r.name_item(name);
        let bone = r.index("bone", bones.len())?;
        let color = r.rgba()?;
        let dark_color = if since(gen, Generation::V36) { r.rgba()? } else { [0xff; 4] };
        let attachment = r.string()?;
        let blend = read_enum(r, BlendMode::WHAT, BlendMode::from_wire)?;
        slots.push(Slot { name: name.to_owned(), bone, color, dark_color, attachment, blend });
        r.leave();
    }
    r.leave();

    r.enter("ik constraints");
    let n = r.count("ik constraint", 9)?;
    let mut ik = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("ik constraints", i);
        let name = r.name("ik constraint")?;
        r.name_item(name);
        let order = r.varint()?;
        let cbones = read_indices(r, "bone", bones.len())?;
        let target = r.index("bone", bones.len())?;
        let mix = r.f32()?;
        let bend_direction = r.i8()?;
        let (compress, stretch, uniform) = if since(gen, Generation::V37) {
            (r.bool()?, r.bool()?, r.bool()?)
        } else {
            (false, false, false)
        };
        ik.push(IkConstraint {
            name: name.to_owned(),
            order,
            bones: cbones,
            target,
            mix,
            bend_direction,
            compress,
            stretch,
            uniform,
        });
        r.leave();
    }
    r.leave();

    r.enter("transform constraints");
    let n = r.count("transform constraint", 44)?;
    let mut transform = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("transform constraints", i);
        let name = r.name("transform constraint")?;
        r.name_item(name);
        let order = r.varint()?;
        let cbones = read_indices(r, "bone", bones.len())?;
        let target = r.index("bone", bones.len())?;
        let (local, relative) =
            if since(gen, Generation::V36) { (r.bool()?, r.bool()?) } else { (false, false) };
        let mut offsets = [0.0; 6];
        for o in &mut offsets {
            *o = r.f32()?;
        }
        let mut mixes = [0.0; 4];
        for m in &mut mixes {
            *m = r.f32()?;
        }
        transform.push(TransformConstraint {
            name: name.to_owned(),
            order,
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
    let n = r.count("path constraint", 27)?;
    let mut path = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("path constraints", i);
        let name = r.name("path constraint")?;
        r.name_item(name);
        let order = r.varint()?;
        let cbones = read_indices(r, "bone", bones.len())?;
        let target = r.index("slot", slots.len())?;
        let position_mode = read_enum(r, PositionMode::WHAT, PositionMode::from_wire)?;
        let spacing_mode = read_enum(r, SpacingMode::WHAT, SpacingMode::from_wire)?;
        let rotate_mode = read_enum(r, RotateMode::WHAT, RotateMode::from_wire)?;
        path.push(PathConstraint {
            name: name.to_owned(),
            order,
            bones: cbones,
            target,
            position_mode,
            spacing_mode,
            rotate_mode,
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
        gen,
        nonessential,
        strings: 0,
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
    let n = r.count("skin", 2)?;
    let mut skins = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("skins", i);
        let name = r.str()?;
        if let Some(name) = name {
            r.name_item(name);
        }
        let name = name.map(str::to_owned);
        let slots = read_skin_slots(r, &ctx)?;
        skins.push(Skin { name, slots });
        r.leave();
    }
    r.leave();
    ctx.skins = usize::from(!default_skin.is_empty()) + skins.len();

    r.enter("events");
    let n = r.count("event", 7)?;
    let mut events = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("events", i);
        let name = r.name("event")?;
        r.name_item(name);
        let int = r.varint_signed()?;
        let float = r.f32()?;
        let string = r.string()?;
        let audio = if since(gen, Generation::V37) {
            match r.string()? {
                Some(path) => Some(EventDataAudio { path, volume: r.f32()?, balance: r.f32()? }),
                None => None,
            }
        } else {
            None
        };
        events.push(EventData { name: name.to_owned(), int, float, string, audio });
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
        generation: gen,
        header,
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
