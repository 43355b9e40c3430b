//! The 3.5–3.7 reader (nom, see `binary::wire`).

use nom::combinator::cond;
use nom::Parser;

use super::ast::*;
use crate::binary::generation_of;
use crate::binary::v3_common::read::{animation, skin_slots, Ctx};
use crate::binary::v3_common::since;
use crate::binary::wire::{
    bool, enum_varint, expect_end, f32, f32s, finish, i8, index, indices, list, name, named, rgba,
    section, str, string, varint, varint_signed, In, Lim, PErr, Res,
};
use crate::error::{BinaryError, BinaryErrorKind};
use crate::Limits;
use crate::SpineVersion;

fn header<'a>(lim: &Lim, i: In<'a>) -> Res<'a, (SpineVersion, Header)> {
    let (at, hash) = string(lim)(i)?;
    let (i, version) = name(lim, "version")(at)?;
    let version = version.to_owned();
    let generation = match generation_of(&version) {
        Some(g @ (SpineVersion::V3_5 | SpineVersion::V3_6 | SpineVersion::V3_7)) => g,
        _ => {
            return Err(PErr::at(
                at,
                BinaryErrorKind::UnsupportedVersion { found: version, supported: "3.5, 3.6, 3.7" },
            ))
        }
    };
    let (i, [width, height]) = f32s(i)?;
    let (i, nonessential) = bool(i)?;
    let (i, nonessential) = cond(nonessential, |i| {
        let (i, fps) = f32(i)?;
        let (i, images) = string(lim)(i)?;
        let (i, audio) = cond(since(generation, SpineVersion::V3_7), string(lim)).parse(i)?;
        Ok((i, Nonessential { fps, images, audio: audio.flatten() }))
    })
    .parse(i)?;
    Ok((i, (generation, Header { hash, version, width, height, nonessential })))
}

/// Parses a 3.5–3.7 skeleton.
pub(super) fn parse(bytes: &[u8], limits: Limits) -> Result<Skeleton, BinaryError> {
    let lim = Lim::new(limits);
    lim.check_file_size(bytes)?;
    finish(skeleton(&lim, bytes), bytes.len())
}

fn skeleton<'a>(lim: &Lim, i: In<'a>) -> Res<'a, Skeleton> {
    let (i, (gen, header)) = header(lim, i)?;
    let nonessential = header.nonessential.is_some();
    let (i, bones) = section("bones", |i| bones(lim, nonessential, i)).parse(i)?;
    let (i, slots) = section("slots", |i| slots(lim, gen, bones.len(), i)).parse(i)?;
    let (i, ik) = section("ik constraints", |i| ik(lim, gen, bones.len(), i)).parse(i)?;
    let (i, transform) =
        section("transform constraints", |i| transforms(lim, gen, bones.len(), i)).parse(i)?;
    let (i, path) =
        section("path constraints", |i| paths(lim, bones.len(), slots.len(), i)).parse(i)?;

    let mut ctx = Ctx {
        lim,
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

    let (i, default_skin) = section("default skin", |i| skin_slots(&ctx, i)).parse(i)?;
    let (i, skins) = section("skins", |i| skins(&ctx, i)).parse(i)?;
    ctx.skins = usize::from(!default_skin.is_empty()) + skins.len();
    let (i, events) = section("events", |i| events(lim, gen, i)).parse(i)?;
    ctx.event_audio = events.iter().map(|e| e.audio.is_some()).collect();

    let (i, animations) = section(
        "animations",
        list(lim, "animation", 9, Some("animations"), |i, _| animation(&ctx, i)),
    )
    .parse(i)?;
    let (i, ()) = expect_end(i)?;

    let skeleton = Skeleton {
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
    };
    Ok((i, skeleton))
}

/// The bones, parent first.
fn bones<'a>(lim: &Lim, nonessential: bool, i: In<'a>) -> Res<'a, Vec<Bone>> {
    list(lim, "bone", 33, Some("bones"), |i, k| {
        let (i, name) = name(lim, "bone")(i)?;
        named(name, i, |i| {
            let (i, parent) = cond(k > 0, index("parent bone", k)).parse(i)?;
            let (i, [rotation, x, y, scale_x, scale_y, shear_x, shear_y, length]) = f32s(i)?;
            let (i, transform_mode) =
                enum_varint(TransformMode::WHAT, TransformMode::from_wire)(i)?;
            let (i, color) = cond(nonessential, rgba).parse(i)?;
            let bone = Bone {
                name: name.into(),
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
            };
            Ok((i, bone))
        })
    })(i)
}

/// The slots, in setup draw order.
fn slots<'a>(lim: &Lim, gen: SpineVersion, bones: usize, i: In<'a>) -> Res<'a, Vec<Slot>> {
    let v36 = since(gen, SpineVersion::V3_6);
    list(lim, "slot", 8, Some("slots"), move |i, _| {
        let (i, name) = name(lim, "slot")(i)?;
        named(name, i, |i| {
            let (i, bone) = index("bone", bones)(i)?;
            let (i, color) = rgba(i)?;
            let (i, dark_color) = cond(v36, rgba).parse(i)?;
            let (i, attachment) = string(lim)(i)?;
            let (i, blend) = enum_varint(BlendMode::WHAT, BlendMode::from_wire)(i)?;
            let dark_color = dark_color.unwrap_or([0xff; 4]);
            Ok((i, Slot { name: name.into(), bone, color, dark_color, attachment, blend }))
        })
    })(i)
}

/// The IK constraints.
fn ik<'a>(lim: &Lim, gen: SpineVersion, bones: usize, i: In<'a>) -> Res<'a, Vec<IkConstraint>> {
    let v37 = since(gen, SpineVersion::V3_7);
    list(lim, "ik constraint", 9, Some("ik constraints"), move |i, _| {
        let (i, name) = name(lim, "ik constraint")(i)?;
        named(name, i, |i| {
            let (i, order) = varint(i)?;
            let (i, cbones) = indices(lim, "bone", bones)(i)?;
            let (i, target) = index("bone", bones)(i)?;
            let (i, mix) = f32(i)?;
            let (i, bend_direction) = i8(i)?;
            let (i, flags) = cond(v37, (bool, bool, bool)).parse(i)?;
            let (compress, stretch, uniform) = flags.unwrap_or((false, false, false));
            let c = IkConstraint {
                name: name.into(),
                order,
                bones: cbones,
                target,
                mix,
                bend_direction,
                compress,
                stretch,
                uniform,
            };
            Ok((i, c))
        })
    })(i)
}

/// The transform constraints.
fn transforms<'a>(
    lim: &Lim,
    gen: SpineVersion,
    bones: usize,
    i: In<'a>,
) -> Res<'a, Vec<TransformConstraint>> {
    let v36 = since(gen, SpineVersion::V3_6);
    list(lim, "transform constraint", 44, Some("transform constraints"), move |i, _| {
        let (i, name) = name(lim, "transform constraint")(i)?;
        named(name, i, |i| {
            let (i, order) = varint(i)?;
            let (i, cbones) = indices(lim, "bone", bones)(i)?;
            let (i, target) = index("bone", bones)(i)?;
            let (i, flags) = cond(v36, (bool, bool)).parse(i)?;
            let (local, relative) = flags.unwrap_or((false, false));
            let (i, offsets) = f32s::<6>(i)?;
            let (i, mixes) = f32s::<4>(i)?;
            let c = TransformConstraint {
                name: name.into(),
                order,
                bones: cbones,
                target,
                local,
                relative,
                offsets,
                mixes,
            };
            Ok((i, c))
        })
    })(i)
}

/// The path constraints.
fn paths<'a>(lim: &Lim, bones: usize, slots: usize, i: In<'a>) -> Res<'a, Vec<PathConstraint>> {
    list(lim, "path constraint", 27, Some("path constraints"), |i, _| {
        let (i, name) = name(lim, "path constraint")(i)?;
        named(name, i, |i| {
            let (i, order) = varint(i)?;
            let (i, cbones) = indices(lim, "bone", bones)(i)?;
            let (i, target) = index("slot", slots)(i)?;
            let (i, position_mode) = enum_varint(PositionMode::WHAT, PositionMode::from_wire)(i)?;
            let (i, spacing_mode) = enum_varint(SpacingMode::WHAT, SpacingMode::from_wire)(i)?;
            let (i, rotate_mode) = enum_varint(RotateMode::WHAT, RotateMode::from_wire)(i)?;
            let (i, [offset_rotation, position, spacing, rotate_mix, translate_mix]) = f32s(i)?;
            let c = PathConstraint {
                name: name.into(),
                order,
                bones: cbones,
                target,
                position_mode,
                spacing_mode,
                rotate_mode,
                offset_rotation,
                position,
                spacing,
                rotate_mix,
                translate_mix,
            };
            Ok((i, c))
        })
    })(i)
}

/// The named skins (after the default skin).
fn skins<'a>(ctx: &Ctx, i: In<'a>) -> Res<'a, Vec<Skin>> {
    list(ctx.lim, "skin", 2, Some("skins"), |i, _| {
        let (i, name) = str(ctx.lim)(i)?;
        let skin = |i| {
            let (i, slots) = skin_slots(ctx, i)?;
            Ok((i, Skin { name: name.map(str::to_owned), slots }))
        };
        match name {
            Some(name) => named(name, i, skin),
            None => skin(i),
        }
    })(i)
}

/// The event definitions (3.7+: with audio).
fn events<'a>(lim: &Lim, gen: SpineVersion, i: In<'a>) -> Res<'a, Vec<EventData>> {
    let v37 = since(gen, SpineVersion::V3_7);
    list(lim, "event", 7, Some("events"), move |i, _| {
        let (i, name) = name(lim, "event")(i)?;
        named(name, i, |i| {
            let (i, int) = varint_signed(i)?;
            let (i, float) = f32(i)?;
            let (i, string) = string(lim)(i)?;
            let (i, audio) = cond(v37, |i| {
                let (i, path) = crate::binary::wire::string(lim)(i)?;
                let (i, vb) = cond(path.is_some(), f32s::<2>).parse(i)?;
                let audio = path.zip(vb).map(|(path, [volume, balance])| EventDataAudio {
                    path,
                    volume,
                    balance,
                });
                Ok((i, audio))
            })
            .parse(i)?;
            let e = EventData { name: name.into(), int, float, string, audio: audio.flatten() };
            Ok((i, e))
        })
    })(i)
}
