//! The 3.8 reader (nom, see `binary::wire`).

use nom::combinator::cond;
use nom::Parser;

use super::ast::*;
use crate::binary::v3_common::read::{animation, skin_slots, Ctx};
use crate::binary::wire::{
    bool, enum_varint, expect_end, f32, f32s, finish, i8, index, indices, list, name, named, rgba,
    section, str_ref, string, varint, varint_signed, In, Lim, PErr, Res,
};
use crate::binary::{generation_of, StrRef};
use crate::error::{BinaryError, BinaryErrorKind};
use crate::Limits;
use crate::SpineVersion;

fn header<'a>(lim: &Lim, i: In<'a>) -> Res<'a, Header> {
    let (at, hash) = string(lim)(i)?;
    let (i, version) = name(lim, "version")(at)?;
    let version = version.to_owned();
    // The 3.8 loaders refuse 3.8.75 exports ("please export with a newer version").
    if generation_of(&version) != Some(SpineVersion::V3_8) || version == "3.8.75" {
        return Err(PErr::at(
            at,
            BinaryErrorKind::UnsupportedVersion { found: version, supported: "3.8 (not 3.8.75)" },
        ));
    }
    let (i, [x, y, width, height]) = f32s(i)?;
    let (i, nonessential) = bool(i)?;
    let (i, nonessential) = cond(nonessential, |i| {
        let (i, fps) = f32(i)?;
        let (i, images) = string(lim)(i)?;
        let (i, audio) = string(lim)(i)?;
        Ok((i, Nonessential { fps, images, audio }))
    })
    .parse(i)?;
    Ok((i, Header { hash, version, x, y, width, height, nonessential }))
}

/// Name and order of a constraint, then its `skinRequired` flag and bone list; `body` reads
/// the rest (errors name the constraint).
fn constraint<'a, T>(
    lim: &Lim,
    what: &'static str,
    bones: usize,
    i: In<'a>,
    body: impl FnOnce(In<'a>, (String, u32, bool, Vec<u32>)) -> Res<'a, T>,
) -> Res<'a, T> {
    let (i, name) = name(lim, what)(i)?;
    named(name, i, |i| {
        let (i, order) = varint(i)?;
        let (i, skin_required) = bool(i)?;
        let (i, cbones) = indices(lim, "bone", bones)(i)?;
        body(i, (name.to_owned(), order, skin_required, cbones))
    })
}

/// Runs `f`, naming the item by the string-table entry `name` refers to (if any).
fn named_ref<'a, T>(
    table: &[&str],
    name: StrRef,
    i: In<'a>,
    f: impl FnOnce(In<'a>) -> Res<'a, T>,
) -> Res<'a, T> {
    match name.index().and_then(|k| table.get(k)) {
        Some(s) => named(s, i, f),
        None => f(i),
    }
}

/// Parses a 3.8 skeleton.
pub(super) fn parse(bytes: &[u8], limits: Limits) -> Result<Skeleton, BinaryError> {
    let lim = Lim::new(limits);
    lim.check_file_size(bytes)?;
    finish(skeleton(&lim, bytes), bytes.len())
}

fn skeleton<'a>(lim: &Lim, i: In<'a>) -> Res<'a, Skeleton> {
    let (i, header) = header(lim, i)?;
    let nonessential = header.nonessential.is_some();

    let (i, table) = section(
        "strings",
        list(lim, "string", 1, Some("strings"), |i, _| name(lim, "string table entry")(i)),
    )
    .parse(i)?;
    let strings: Vec<String> = table.iter().map(|s| (*s).to_owned()).collect();

    let (i, bones) = section("bones", |i| bones(lim, nonessential, i)).parse(i)?;
    let (i, slots) = section("slots", |i| slots(lim, &strings, bones.len(), i)).parse(i)?;
    let (i, ik) = section("ik constraints", |i| ik(lim, bones.len(), i)).parse(i)?;
    let (i, transform) =
        section("transform constraints", |i| transforms(lim, bones.len(), i)).parse(i)?;
    let (i, path) =
        section("path constraints", |i| paths(lim, bones.len(), slots.len(), i)).parse(i)?;

    let mut ctx = Ctx {
        lim,
        gen: SpineVersion::V3_8,
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

    let (i, default_skin) = section("default skin", |i| skin_slots(&ctx, i)).parse(i)?;
    let (i, skins) = section("skins", |i| skins(&ctx, &table, i)).parse(i)?;
    ctx.skins = usize::from(!default_skin.is_empty()) + skins.len();
    let (i, events) = section("events", |i| events(lim, &table, i)).parse(i)?;
    ctx.event_audio = events.iter().map(|e| e.audio.is_some()).collect();

    let (i, animations) = section(
        "animations",
        list(lim, "animation", 9, Some("animations"), |i, _| animation(&ctx, i)),
    )
    .parse(i)?;
    let (i, ()) = expect_end(i)?;

    let skeleton = Skeleton {
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
    };
    Ok((i, skeleton))
}

/// The bones, parent first.
fn bones<'a>(lim: &Lim, nonessential: bool, i: In<'a>) -> Res<'a, Vec<Bone>> {
    list(lim, "bone", 35, Some("bones"), |i, k| {
        let (i, name) = name(lim, "bone")(i)?;
        named(name, i, |i| {
            let (i, parent) = cond(k > 0, index("parent bone", k)).parse(i)?;
            let (i, [rotation, x, y, scale_x, scale_y, shear_x, shear_y, length]) = f32s(i)?;
            let (i, transform_mode) =
                enum_varint(TransformMode::WHAT, TransformMode::from_wire)(i)?;
            let (i, skin_required) = bool(i)?;
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
                skin_required,
                color,
            };
            Ok((i, bone))
        })
    })(i)
}

/// The slots, in setup draw order.
fn slots<'a>(lim: &Lim, strings: &[String], bones: usize, i: In<'a>) -> Res<'a, Vec<Slot>> {
    list(lim, "slot", 12, Some("slots"), |i, _| {
        let (i, name) = name(lim, "slot")(i)?;
        named(name, i, |i| {
            let (i, bone) = index("bone", bones)(i)?;
            let (i, color) = rgba(i)?;
            let (i, dark_color) = rgba(i)?;
            let (i, attachment) = str_ref(strings.len())(i)?;
            let (i, blend) = enum_varint(BlendMode::WHAT, BlendMode::from_wire)(i)?;
            Ok((i, Slot { name: name.into(), bone, color, dark_color, attachment, blend }))
        })
    })(i)
}

/// The IK constraints.
fn ik<'a>(lim: &Lim, bones: usize, i: In<'a>) -> Res<'a, Vec<IkConstraint>> {
    list(lim, "ik constraint", 17, Some("ik constraints"), |i, _| {
        constraint(lim, "ik constraint", bones, i, |i, head| {
            let (name, order, skin_required, cbones) = head;
            let (i, target) = index("bone", bones)(i)?;
            let (i, [mix, softness]) = f32s(i)?;
            let (i, bend_direction) = i8(i)?;
            let (i, (compress, stretch, uniform)) = (bool, bool, bool).parse(i)?;
            let c = IkConstraint {
                name: name.into(),
                order,
                skin_required,
                bones: cbones,
                target,
                mix,
                softness,
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
fn transforms<'a>(lim: &Lim, bones: usize, i: In<'a>) -> Res<'a, Vec<TransformConstraint>> {
    list(lim, "transform constraint", 47, Some("transform constraints"), |i, _| {
        constraint(lim, "transform constraint", bones, i, |i, head| {
            let (name, order, skin_required, cbones) = head;
            let (i, target) = index("bone", bones)(i)?;
            let (i, (local, relative)) = (bool, bool).parse(i)?;
            let (i, offsets) = f32s::<6>(i)?;
            let (i, mixes) = f32s::<4>(i)?;
            let c = TransformConstraint {
                name: name.into(),
                order,
                skin_required,
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
    list(lim, "path constraint", 28, Some("path constraints"), |i, _| {
        constraint(lim, "path constraint", bones, i, |i, head| {
            let (name, order, skin_required, cbones) = head;
            let (i, target) = index("slot", slots)(i)?;
            let (i, position_mode) = enum_varint(PositionMode::WHAT, PositionMode::from_wire)(i)?;
            let (i, spacing_mode) = enum_varint(SpacingMode::WHAT, SpacingMode::from_wire)(i)?;
            let (i, rotate_mode) = enum_varint(RotateMode::WHAT, RotateMode::from_wire)(i)?;
            let (i, [offset_rotation, position, spacing, rotate_mix, translate_mix]) = f32s(i)?;
            let c = PathConstraint {
                name: name.into(),
                order,
                skin_required,
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

/// The named skins (after the default skin), with the bones and constraints they activate.
fn skins<'a>(ctx: &Ctx, table: &[&str], i: In<'a>) -> Res<'a, Vec<Skin>> {
    let lim = ctx.lim;
    list(lim, "skin", 6, Some("skins"), |i, _| {
        let (i, name) = str_ref(ctx.strings)(i)?;
        named_ref(table, name, i, |i| {
            let (i, sbones) = indices(lim, "bone", ctx.bones)(i)?;
            let (i, sik) = indices(lim, "ik constraint", ctx.ik)(i)?;
            let (i, stc) = indices(lim, "transform constraint", ctx.transforms)(i)?;
            let (i, spc) = indices(lim, "path constraint", ctx.paths)(i)?;
            let (i, sslots) = skin_slots(ctx, i)?;
            let skin =
                Skin { name, bones: sbones, ik: sik, transform: stc, path: spc, slots: sslots };
            Ok((i, skin))
        })
    })(i)
}

/// The event definitions, named by string-table references.
fn events<'a>(lim: &Lim, table: &[&str], i: In<'a>) -> Res<'a, Vec<EventData>> {
    list(lim, "event", 8, Some("events"), |i, _| {
        let (i, name) = str_ref(table.len())(i)?;
        named_ref(table, name, i, |i| {
            let (i, int) = varint_signed(i)?;
            let (i, float) = f32(i)?;
            let (i, string) = string(lim)(i)?;
            let (i, path) = crate::binary::wire::string(lim)(i)?;
            let (i, vb) = cond(path.is_some(), f32s::<2>).parse(i)?;
            let audio = path.zip(vb).map(|(path, [volume, balance])| EventDataAudio {
                path,
                volume,
                balance,
            });
            Ok((i, EventData { name, int, float, string, audio }))
        })
    })(i)
}
