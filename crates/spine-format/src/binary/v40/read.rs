//! The 4.0–4.2 reader: header, setup data, skins and attachments (nom, see `binary::wire`).
//! Animations are read by [`super::read_anim`].

use nom::combinator::cond;
use nom::Parser;

use crate::binary::prim::StrRef;
use crate::binary::shared::sequence as wire_sequence;
use crate::binary::wire::{
    bool, check_count, count, each, enum_varint, f32, f32_vec, f32s, f32s_into, i32, i8, index,
    index_f32x3, indices, into_binary, items, list, name, named, opt_f32, opt_rgba, rgba, section,
    str, str_ref, string, u16, u8, varint, varint_signed, varints_into, In, Lim, PErr, Res,
};
use crate::error::{BinaryError, BinaryErrorKind};
use crate::Limits;
use crate::SpineVersion;

use super::ast::*;
use super::stream::{Animations, AstSink};

/// What the rest of the file is checked against: the version and what has been read so far.
pub(super) struct Ctx {
    pub lim: Lim,
    /// The file length (for error offsets).
    pub total: usize,
    pub gen: SpineVersion,
    pub nonessential: bool,
    /// Whether bone icons are copied into the AST (else read, checked and left `None`).
    pub keep_icons: bool,
    pub strings: usize,
    pub bones: usize,
    pub slots: usize,
    pub ik: usize,
    pub transform: usize,
    pub path: usize,
    pub physics: usize,
    pub skins: usize,
    /// Per event: whether it has an audio path (event keys then carry volume and balance).
    pub event_audio: Vec<bool>,
    /// Scratch for the bones of weighted vertices' influences (reused from mesh to mesh).
    pub weight_bones: std::cell::Cell<Vec<u32>>,
    /// Scratch for `x, y, weight` of weighted vertices' influences.
    pub weight_values: std::cell::Cell<Vec<f32>>,
    /// Scratch for the attachments of a skin (reused from skin to skin).
    pub skin_attachments: std::cell::Cell<Vec<SkinAttachment>>,
    /// Scratch for the keys of an attachment timeline handed to a sink.
    pub attachment_keys: std::cell::Cell<Vec<super::animation::AttachmentKey>>,
}

impl Ctx {
    /// The context of a file of `total` bytes before its string table is read.
    fn new(lim: Lim, total: usize, gen: SpineVersion, nonessential: bool, keep_icons: bool) -> Ctx {
        Ctx {
            lim,
            total,
            gen,
            nonessential,
            keep_icons,
            strings: 0,
            bones: 0,
            slots: 0,
            ik: 0,
            transform: 0,
            path: 0,
            physics: 0,
            skins: 0,
            event_audio: Vec::new(),
            weight_bones: Default::default(),
            weight_values: Default::default(),
            skin_attachments: Default::default(),
            attachment_keys: Default::default(),
        }
    }

    pub fn v41(&self) -> bool {
        self.gen >= SpineVersion::V4_1
    }

    pub fn v42(&self) -> bool {
        self.gen >= SpineVersion::V4_2
    }
}

/// Parses a whole 4.0–4.2 file.
pub(super) fn parse(bytes: &[u8], limits: Limits) -> Result<Skeleton, BinaryError> {
    let (mut skeleton, mut animations) = parse_head(bytes, limits, true)?;
    skeleton.animations.reserve_exact(animations.len());
    skeleton.strings = animations.strings().iter().map(|s| (*s).to_owned()).collect();
    let mut sink = AstSink::default();
    while animations.read_next(&mut sink)? {
        skeleton.animations.extend(sink.take());
    }
    Ok(skeleton)
}

/// Reads everything before the animations; the returned [`Animations`] is at the first
/// animation (inside the "animations" section). The skeleton's `strings` are left empty
/// (the table, borrowed from `bytes`, is [`Animations::strings`]).
pub(super) fn parse_head(
    bytes: &[u8],
    limits: Limits,
    keep_icons: bool,
) -> Result<(Skeleton, Animations<'_>), BinaryError> {
    let lim = Lim::new(limits);
    lim.check_file_size(bytes)?;
    match head(lim, keep_icons, bytes) {
        Ok((rest, (skeleton, c, table, n))) => {
            Animations::new(rest, bytes.len(), c, table, n).map(|a| (skeleton, a))
        }
        Err(e) => Err(into_binary(e, bytes.len())),
    }
}

/// The header and the setup sections, up to the animation count.
#[allow(clippy::type_complexity)]
fn head(lim: Lim, keep_icons: bool, i: In<'_>) -> Res<'_, (Skeleton, Ctx, Vec<&str>, usize)> {
    let total = i.len();
    let (i, (gen, header)) = header(&lim, i)?;
    let mut c = Ctx::new(lim, total, gen, header.nonessential.is_some(), keep_icons);

    let (i, table) = section(
        "strings",
        list(&c.lim, "string", 1, Some("strings"), |at, _| match str(&c.lim)(at)? {
            (i, Some(s)) => Ok((i, s)),
            (_, None) => Err(PErr::invalid(at, "string table entry is null")),
        }),
    )
    .parse(i)?;
    c.strings = table.len();

    let (i, bones) =
        section("bones", list(&c.lim, "bone", 38, Some("bones"), |i, k| bone(&c, i, k)))
            .parse(i)?;
    c.bones = bones.len();
    let (i, slots) =
        section("slots", list(&c.lim, "slot", 12, Some("slots"), |i, _| slot(&c, i))).parse(i)?;
    c.slots = slots.len();
    let (i, ik_constraints) = section(
        "ik constraints",
        list(&c.lim, "ik constraint", 5, Some("ik constraints"), |i, _| ik(&c, i)),
    )
    .parse(i)?;
    c.ik = ik_constraints.len();
    let (i, transform_constraints) = section(
        "transform constraints",
        list(&c.lim, "transform constraint", 6, Some("transform constraints"), |i, _| {
            transform(&c, i)
        }),
    )
    .parse(i)?;
    c.transform = transform_constraints.len();
    let (i, path_constraints) = section(
        "path constraints",
        list(&c.lim, "path constraint", 26, Some("path constraints"), |i, _| path(&c, i)),
    )
    .parse(i)?;
    c.path = path_constraints.len();
    let (i, physics_constraints) = cond(
        c.v42(),
        section(
            "physics constraints",
            list(&c.lim, "physics constraint", 31, Some("physics constraints"), |i, _| {
                physics(&c, i)
            }),
        ),
    )
    .parse(i)?;
    let physics_constraints = physics_constraints.unwrap_or_default();
    c.physics = physics_constraints.len();

    let (i, (default_skin, skins)) = all_skins(&c, &table, i)?;
    c.skins = skins.len() + usize::from(default_skin.is_some());

    let (i, events) =
        section("events", list(&c.lim, "event", 8, Some("events"), |i, _| event(&c, i, &table)))
            .parse(i)?;
    c.event_audio = events.iter().map(|e| e.audio.is_some()).collect();

    let (i, n) = section("animations", count(&c.lim, "animation", 11)).parse(i)?;
    let skeleton = Skeleton {
        generation: gen,
        header,
        strings: Vec::new(),
        bones,
        slots,
        ik_constraints,
        transform_constraints,
        path_constraints,
        physics_constraints,
        default_skin,
        skins,
        events,
        animations: Vec::new(),
    };
    Ok((i, (skeleton, c, table, n)))
}

/// The header: hash, version (4.0–4.2 only), bounds, reference scale (4.2) and the
/// nonessential fields.
fn header<'a>(lim: &Lim, i: In<'a>) -> Res<'a, (SpineVersion, Header)> {
    let (i, (hash_high, hash_low)) = (i32, i32).parse(i)?;
    let version_at = i;
    let (i, version) = name(lim, "version")(version_at)?;
    let version = version.to_owned();
    let gen = match crate::binary::generation_of(&version) {
        Some(g @ (SpineVersion::V4_0 | SpineVersion::V4_1 | SpineVersion::V4_2)) => g,
        _ => {
            return Err(PErr::at(
                version_at,
                BinaryErrorKind::UnsupportedVersion { found: version, supported: "4.0, 4.1, 4.2" },
            ))
        }
    };
    let (i, [x, y, width, height]) = f32s(i)?;
    let (i, reference_scale) = opt_f32(gen >= SpineVersion::V4_2)(i)?;
    let (i, nonessential) = bool(i)?;
    let (i, nonessential) = cond(nonessential, |i| {
        let (i, fps) = f32(i)?;
        let (i, images_path) = string(lim)(i)?;
        let (i, audio_path) = string(lim)(i)?;
        Ok((i, HeaderExtras { fps, images_path, audio_path }))
    })
    .parse(i)?;
    let hash = [hash_high, hash_low];
    let header = Header { hash, version, x, y, width, height, reference_scale, nonessential };
    Ok((i, (gen, header)))
}

/// The default skin and the named skins. Linked-mesh skin indices (4.2; where they were read,
/// the index) are checked once every skin is known.
fn all_skins<'a>(c: &Ctx, table: &[&str], i: In<'a>) -> Res<'a, (Option<SkinSlots>, Vec<Skin>)> {
    let mut linked_skins = Vec::new();
    let (i, default_skin) = section("default skin", |i| {
        let (i, n) = count(&c.lim, "default skin slot", 2)(i)?;
        let r = cond(n > 0, |i| skin_slots(c, i, n, &mut linked_skins)).parse(i);
        r
    })
    .parse(i)?;
    let (i, skins) = section(
        "skins",
        list(&c.lim, "skin", 6, Some("skins"), |i, _| skin(c, i, table, &mut linked_skins)),
    )
    .parse(i)?;
    let n_skins = skins.len() + usize::from(default_skin.is_some());
    if let Some(&(rest, index)) = linked_skins.iter().find(|&&(_, k)| k as usize >= n_skins) {
        return Err(PErr::at_rest(
            rest,
            BinaryErrorKind::IndexOutOfRange {
                what: "linked mesh skin",
                index: u64::from(index),
                len: n_skins,
            },
        ));
    }
    Ok((i, (default_skin, skins)))
}

fn bone<'a>(c: &Ctx, i: In<'a>, k: usize) -> Res<'a, Bone> {
    let (i, name) = name(&c.lim, "bone")(i)?;
    named(name, i, |i| {
        let (i, parent) = cond(k > 0, index("parent bone", k)).parse(i)?;
        let (at, [rotation, x, y, scale_x, scale_y, shear_x, shear_y, length]) = f32s(i)?;
        let (i, raw) = if c.v42() { u8(at).map(|(i, v)| (i, u32::from(v)))? } else { varint(at)? };
        let Some(inherit) = Inherit::from_wire(raw) else {
            return Err(PErr::bad_enum(at, "inherit", raw.into()));
        };
        let (i, skin_required) = bool(i)?;
        let (i, extras) = cond(c.nonessential, |i| {
            let (i, color) = rgba(i)?;
            let (i, icon_visible) = cond(c.v42(), |i| {
                let (i, icon) = str(&c.lim)(i)?;
                let (i, visible) = bool(i)?;
                Ok((i, (icon.filter(|_| c.keep_icons).map(str::to_owned), visible)))
            })
            .parse(i)?;
            let (icon, visible) = icon_visible.unwrap_or((None, true));
            Ok((i, BoneExtras { color, icon, visible }))
        })
        .parse(i)?;
        let bone = Bone {
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
            inherit,
            skin_required,
            extras,
        };
        Ok((i, bone))
    })
}

fn slot<'a>(c: &Ctx, i: In<'a>) -> Res<'a, Slot> {
    let (i, name) = name(&c.lim, "slot")(i)?;
    named(name, i, |i| {
        let (i, bone) = index("bone", c.bones)(i)?;
        let (i, color) = rgba(i)?;
        let (i, dark) = rgba(i)?;
        let (i, attachment) = str_ref(c.strings)(i)?;
        let (i, blend) = enum_varint("blend mode", BlendMode::from_wire)(i)?;
        let (i, visible) = cond(c.nonessential && c.v42(), bool).parse(i)?;
        Ok((i, Slot { name: name.to_owned(), bone, color, dark, attachment, blend, visible }))
    })
}

fn ik<'a>(c: &Ctx, i: In<'a>) -> Res<'a, IkConstraint> {
    let (i, name) = name(&c.lim, "ik constraint")(i)?;
    named(name, i, |i| {
        let (i, order) = varint(i)?;
        if c.v42() {
            let (i, bones) = indices(&c.lim, "bone", c.bones)(i)?;
            let (i, target) = index("target bone", c.bones)(i)?;
            let (i, flags) = u8(i)?;
            let (i, mix) = opt_f32(flags & 32 != 0 && flags & 64 != 0)(i)?;
            let (i, softness) = opt_f32(flags & 128 != 0)(i)?;
            let ik = IkConstraint {
                name: name.to_owned(),
                order,
                bones,
                target,
                flags: Some(flags),
                skin_required: flags & 1 != 0,
                mix,
                softness,
                bend_direction: if flags & 2 != 0 { 1 } else { -1 },
                compress: flags & 4 != 0,
                stretch: flags & 8 != 0,
                uniform: flags & 16 != 0,
            };
            return Ok((i, ik));
        }
        let (i, skin_required) = bool(i)?;
        let (i, bones) = indices(&c.lim, "bone", c.bones)(i)?;
        let (i, target) = index("target bone", c.bones)(i)?;
        let (i, [mix, softness]) = f32s(i)?;
        let (i, bend_direction) = i8(i)?;
        let (i, (compress, stretch, uniform)) = (bool, bool, bool).parse(i)?;
        let ik = IkConstraint {
            name: name.to_owned(),
            order,
            bones,
            target,
            flags: None,
            skin_required,
            mix: Some(mix),
            softness: Some(softness),
            bend_direction,
            compress,
            stretch,
            uniform,
        };
        Ok((i, ik))
    })
}

fn transform<'a>(c: &Ctx, i: In<'a>) -> Res<'a, TransformConstraint> {
    let (i, name) = name(&c.lim, "transform constraint")(i)?;
    named(name, i, |i| {
        let (i, order) = varint(i)?;
        let mut values = [None; 12];
        if c.v42() {
            let (i, bones) = indices(&c.lim, "bone", c.bones)(i)?;
            let (i, target) = index("target bone", c.bones)(i)?;
            let (mut i, f0) = u8(i)?;
            for (k, v) in values.iter_mut().enumerate().take(5) {
                (i, *v) = opt_f32(f0 & (8 << k) != 0)(i)?;
            }
            let (mut i, f1) = u8(i)?;
            for (k, v) in values.iter_mut().enumerate().skip(5) {
                (i, *v) = opt_f32(f1 & (1 << (k - 5)) != 0)(i)?;
            }
            let t = TransformConstraint {
                name: name.to_owned(),
                order,
                bones,
                target,
                flags: Some([f0, f1]),
                skin_required: f0 & 1 != 0,
                local: f0 & 2 != 0,
                relative: f0 & 4 != 0,
                values,
            };
            return Ok((i, t));
        }
        let (i, skin_required) = bool(i)?;
        let (i, bones) = indices(&c.lim, "bone", c.bones)(i)?;
        let (i, target) = index("target bone", c.bones)(i)?;
        let (i, (local, relative)) = (bool, bool).parse(i)?;
        let (i, all) = f32s::<12>(i)?;
        for (v, x) in values.iter_mut().zip(all) {
            *v = Some(x);
        }
        let t = TransformConstraint {
            name: name.to_owned(),
            order,
            bones,
            target,
            flags: None,
            skin_required,
            local,
            relative,
            values,
        };
        Ok((i, t))
    })
}

fn path<'a>(c: &Ctx, i: In<'a>) -> Res<'a, PathConstraint> {
    let (i, name) = name(&c.lim, "path constraint")(i)?;
    named(name, i, |i| {
        let (i, order) = varint(i)?;
        let (i, skin_required) = bool(i)?;
        let (i, bones) = indices(&c.lim, "bone", c.bones)(i)?;
        let (at, target) = index("target slot", c.slots)(i)?;
        let (i, (flags, p, s, ro)) = if c.v42() {
            let (i, f) = u8(at)?;
            (i, (Some(f), u32::from(f & 1), u32::from((f >> 1) & 3), u32::from((f >> 3) & 3)))
        } else {
            let (i, (p, s, ro)) = (varint, varint, varint).parse(at)?;
            (i, (None, p, s, ro))
        };
        let Some(position_mode) = PositionMode::from_wire(p) else {
            return Err(PErr::bad_enum(at, "position mode", p.into()));
        };
        let Some(spacing_mode) = SpacingMode::from_wire(s) else {
            return Err(PErr::bad_enum(at, "spacing mode", s.into()));
        };
        let Some(rotate_mode) = RotateMode::from_wire(ro) else {
            return Err(PErr::bad_enum(at, "rotate mode", ro.into()));
        };
        let (i, offset_rotation) = opt_f32(flags.is_none_or(|f| f & 128 != 0))(i)?;
        let (i, [position, spacing, mix_rotate, mix_x, mix_y]) = f32s(i)?;
        let p = PathConstraint {
            name: name.to_owned(),
            order,
            skin_required,
            bones,
            target,
            flags,
            position_mode,
            spacing_mode,
            rotate_mode,
            offset_rotation,
            position,
            spacing,
            mix_rotate,
            mix_x,
            mix_y,
        };
        Ok((i, p))
    })
}

fn physics<'a>(c: &Ctx, i: In<'a>) -> Res<'a, PhysicsConstraint> {
    let (i, name) = name(&c.lim, "physics constraint")(i)?;
    named(name, i, |i| {
        let (i, order) = varint(i)?;
        let (i, bone) = index("bone", c.bones)(i)?;
        let (i, flags) = u8(i)?;
        let (i, x) = opt_f32(flags & 2 != 0)(i)?;
        let (i, y) = opt_f32(flags & 4 != 0)(i)?;
        let (i, rotate) = opt_f32(flags & 8 != 0)(i)?;
        let (i, scale_x) = opt_f32(flags & 16 != 0)(i)?;
        let (i, shear_x) = opt_f32(flags & 32 != 0)(i)?;
        let (i, limit) = opt_f32(flags & 64 != 0)(i)?;
        let (i, fps) = u8(i)?;
        let (i, [inertia, strength, damping]) = f32s(i)?;
        let (i, mass_inverse) = opt_f32(flags & 128 != 0)(i)?;
        let (i, [wind, gravity]) = f32s(i)?;
        let (i, flags2) = u8(i)?;
        let (i, mix) = opt_f32(flags2 & 128 != 0)(i)?;
        let p = PhysicsConstraint {
            name: name.to_owned(),
            order,
            bone,
            flags,
            x,
            y,
            rotate,
            scale_x,
            shear_x,
            limit,
            fps,
            inertia,
            strength,
            damping,
            mass_inverse,
            wind,
            gravity,
            flags2,
            mix,
        };
        Ok((i, p))
    })
}

/// Runs `f` naming the item `name` when the reference resolves, else fails with `null` (an
/// item's name that must be present, 4.0/4.1).
fn named_ref<'a, T>(
    table: &[&str],
    what: &'static str,
    name: StrRef,
    at: In<'a>,
    i: In<'a>,
    f: impl FnOnce(In<'a>) -> Res<'a, T>,
) -> Res<'a, T> {
    match name.index().and_then(|k| table.get(k)) {
        Some(s) => named(s, i, f),
        None => Err(PErr::invalid(at, format!("{what} name is null"))),
    }
}

fn skin<'a>(
    c: &Ctx,
    at: In<'a>,
    table: &[&str],
    linked_skins: &mut Vec<(usize, u32)>,
) -> Res<'a, Skin> {
    let rest = |i| {
        let lim = &c.lim;
        let (i, color) = opt_rgba(c.v42() && c.nonessential)(i)?;
        let (i, bones) = indices(lim, "skin bone", c.bones)(i)?;
        let (i, ik) = indices(lim, "skin ik constraint", c.ik)(i)?;
        let (i, transform) = indices(lim, "skin transform constraint", c.transform)(i)?;
        let (i, path) = indices(lim, "skin path constraint", c.path)(i)?;
        let (i, physics) =
            cond(c.v42(), indices(lim, "skin physics constraint", c.physics)).parse(i)?;
        let (i, n) = count(lim, "skin slot", 2)(i)?;
        let (i, slots) = skin_slots(c, i, n, linked_skins)?;
        Ok((i, (color, bones, ik, transform, path, physics.unwrap_or_default(), slots)))
    };
    let (i, (name, (color, bones, ik, transform, path, physics, slots))) = if c.v42() {
        let (i, n) = name(&c.lim, "skin")(at)?;
        let (i, r) = named(n, i, rest)?;
        (i, (Name::Inline(n.to_owned()), r))
    } else {
        let (i, n) = str_ref(c.strings)(at)?;
        let (i, r) = named_ref(table, "skin", n, at, i, rest)?;
        (i, (Name::Ref(n), r))
    };
    Ok((i, Skin { name, color, bones, ik, transform, path, physics, slots }))
}

/// `n` (checked) slots of a skin, each with its attachments.
fn skin_slots<'a>(
    c: &Ctx,
    i: In<'a>,
    n: usize,
    linked_skins: &mut Vec<(usize, u32)>,
) -> Res<'a, SkinSlots> {
    // The attachments go to a reused scratch list, then are moved into an exact one (their
    // count is only known at the end).
    let mut attachments = c.skin_attachments.take();
    attachments.clear();
    // At least one attachment per slot (bounded by the remaining input).
    attachments.reserve(n.min(i.len() / 3));
    let r = items(n, Some("slots"), |i, _| {
        let (i, slot) = index("slot", c.slots)(i)?;
        let (i, m) = count(&c.lim, "attachment", 3)(i)?;
        attachments.reserve(m);
        let (i, ()) = each(m, Some("attachments"), |i, _| {
            let (i, key) = str_ref(c.strings)(i)?;
            let (i, attachment) = attachment(c, i, linked_skins)?;
            attachments.push(SkinAttachment { key, attachment });
            Ok((i, ()))
        })(i)?;
        Ok((i, (slot, m as u32)))
    })(i);
    // Drained, not taken: the scratch keeps its capacity, the skin gets an exact list.
    #[allow(clippy::drain_collect)]
    let r =
        r.map(|(i, slots)| (i, SkinSlots { slots, attachments: attachments.drain(..).collect() }));
    c.skin_attachments.set(attachments);
    r
}

/// An optional sequence: 4.1 writes a presence bool, 4.2 uses flag bit 64, 4.0 has none.
fn opt_sequence<'a>(c: &Ctx, i: In<'a>, flags: u8) -> Res<'a, Option<Sequence>> {
    let (i, present) = if c.v42() {
        (i, flags & 64 != 0)
    } else if c.v41() {
        bool(i)?
    } else {
        (i, false)
    };
    cond(present, |i| {
        let (i, [count, start, digits, setup_index]) = wire_sequence(&c.lim)(i)?;
        Ok((i, Sequence { count, start, digits, setup_index }))
    })
    .parse(i)
}

/// `count` vertices, weighted or not.
fn vertices<'a>(c: &Ctx, i: In<'a>, count: usize, weighted: bool) -> Res<'a, Vertices> {
    let lim = &c.lim;
    if !weighted {
        check_count(lim, i, i, "vertex", count as u64, 8)?;
        let mut v = Vec::with_capacity(count * 2);
        let (i, ()) = f32s_into(i, count * 2, &mut v)?;
        return Ok((i, Vertices::Plain(v)));
    }
    check_count(lim, i, i, "vertex", count as u64, 1)?;
    // The influences go to reused scratch buffers, then are copied into exact ones (the
    // influence count is only known at the end; growing two buffers costs more).
    let mut bones = c.weight_bones.take();
    let mut values = c.weight_values.take();
    bones.clear();
    values.clear();
    // Most meshes have one to three influences per vertex; bounded by the remaining input.
    let guess = (count * 2).min(i.len() / 13);
    bones.reserve(guess);
    values.reserve(guess * 3);
    let r = items(count, None, |i, _| {
        let (i, n) = crate::binary::wire::count(lim, "vertex bone", 13)(i)?;
        bones.reserve(n);
        values.reserve(n * 3);
        let (i, ()) = each(n, None, |i, _| {
            let (i, (bone, xyw)) = match index_f32x3(i, c.bones) {
                Some(w) => w,
                None => {
                    let (i, bone) = index("vertex bone", c.bones)(i)?;
                    let (i, xyw) = f32s::<3>(i)?;
                    (i, (bone, xyw))
                }
            };
            bones.push(bone);
            values.extend_from_slice(&xyw);
            Ok((i, ()))
        })(i)?;
        Ok((i, n as u32))
    })(i);
    let r = r.map(|(i, counts)| {
        let v = WeightedVertices { counts, bones: bones.to_vec(), values: values.to_vec() };
        (i, Vertices::Weighted(v))
    });
    c.weight_bones.set(bones);
    c.weight_values.set(values);
    r
}

/// A vertex count and the vertices (4.0/4.1: a `weighted` bool follows the count).
fn counted_vertices<'a>(c: &Ctx, i: In<'a>, weighted_flag: bool) -> Res<'a, Vertices> {
    let (i, count) = count(&c.lim, "vertex", 1)(i)?;
    let (i, weighted) = if c.v42() { (i, weighted_flag) } else { bool(i)? };
    vertices(c, i, count, weighted)
}

/// 4.0/4.1: a count then 16-bit values. 4.2: `n` varints (the caller knows the count).
fn shorts<'a>(c: &Ctx, i: In<'a>, what: &'static str, n: Option<usize>) -> Res<'a, Vec<u32>> {
    let min = if c.v42() { 1 } else { 2 };
    let (i, n) = match n {
        Some(n) => (i, n),
        None => count(&c.lim, what, min)(i)?,
    };
    check_count(&c.lim, i, i, what, n as u64, min)?;
    if c.v42() {
        let mut v = Vec::with_capacity(n);
        let (i, ()) = varints_into(i, n, &mut v)?;
        return Ok((i, v));
    }
    items(n, None, |i, _| u16(i).map(|(i, v)| (i, u32::from(v))))(i)
}

fn attachment<'a>(c: &Ctx, i: In<'a>, linked_skins: &mut Vec<(usize, u32)>) -> Res<'a, Attachment> {
    let v42 = c.v42();
    let (i, (flags, name, ty, type_at)) = if v42 {
        let (j, flags) = u8(i)?;
        let (j, name) = cond(flags & 8 != 0, str_ref(c.strings)).parse(j)?;
        (j, (flags, name.unwrap_or(StrRef::NONE), flags & 7, i))
    } else {
        let (at, name) = str_ref(c.strings)(i)?;
        let (j, t) = u8(at)?;
        (j, (t, name, t, at))
    };
    let bit = |b: u8| flags & b != 0;
    let (i, kind) = match ty {
        attachment_type::REGION => {
            section("region", |i| region(c, i, flags).map(|(i, r)| (i, AttachmentKind::Region(r))))
                .parse(i)?
        }
        attachment_type::BOUNDING_BOX => section("bounding box", |i| {
            let (i, vertices) = counted_vertices(c, i, bit(16))?;
            let (i, color) = opt_rgba(c.nonessential)(i)?;
            Ok((i, AttachmentKind::BoundingBox(VertexShape { vertices, color })))
        })
        .parse(i)?,
        attachment_type::MESH => {
            section("mesh", |i| mesh(c, i, flags).map(|(i, m)| (i, AttachmentKind::Mesh(m))))
                .parse(i)?
        }
        attachment_type::LINKED_MESH => section("linked mesh", |i| {
            let (i, lm) = linked_mesh(c, i, flags, linked_skins)?;
            Ok((i, AttachmentKind::LinkedMesh(lm)))
        })
        .parse(i)?,
        attachment_type::PATH => section("path", |i| {
            let (i, (closed, constant_speed)) =
                if v42 { (i, (bit(16), bit(32))) } else { (bool, bool).parse(i)? };
            let (i, vertices) = counted_vertices(c, i, bit(64))?;
            let (i, lengths) = f32_vec(&c.lim, "path length", vertices.count() / 3)(i)?;
            let (i, color) = opt_rgba(c.nonessential)(i)?;
            let p = PathAttachment { closed, constant_speed, vertices, lengths, color };
            Ok((i, AttachmentKind::Path(p)))
        })
        .parse(i)?,
        attachment_type::POINT => section("point", |i| {
            let (i, [rotation, x, y]) = f32s(i)?;
            let (i, color) = opt_rgba(c.nonessential)(i)?;
            Ok((i, AttachmentKind::Point(Point { rotation, x, y, color })))
        })
        .parse(i)?,
        attachment_type::CLIPPING => section("clipping", |i| {
            let (i, end_slot) = index("clipping end slot", c.slots)(i)?;
            let (i, vertices) = counted_vertices(c, i, bit(16))?;
            let (i, color) = opt_rgba(c.nonessential)(i)?;
            Ok((i, AttachmentKind::Clipping(Clipping { end_slot, vertices, color })))
        })
        .parse(i)?,
        t => return Err(PErr::bad_enum(type_at, "attachment type", t.into())),
    };
    Ok((i, Attachment { flags, name, kind }))
}

/// A string-table reference when `present` (4.2 flag bits), else [`StrRef::NONE`].
fn opt_ref<'a>(c: &Ctx, present: bool, i: In<'a>) -> Res<'a, StrRef> {
    cond(present, str_ref(c.strings)).parse(i).map(|(i, r)| (i, r.unwrap_or_default()))
}

/// A color when `present` (4.2 flag bits), else white.
fn color_or_white(present: bool, i: In<'_>) -> Res<'_, [u8; 4]> {
    opt_rgba(present)(i).map(|(i, r)| (i, r.unwrap_or([0xff; 4])))
}

/// A region attachment: 4.2 gates path, color, sequence and rotation by `flags` bits.
fn region<'a>(c: &Ctx, i: In<'a>, flags: u8) -> Res<'a, Region> {
    if c.v42() {
        let (i, path) = opt_ref(c, flags & 16 != 0, i)?;
        let (i, color) = color_or_white(flags & 32 != 0, i)?;
        let (i, sequence) = opt_sequence(c, i, flags)?;
        let (i, rotation) = opt_f32(flags & 128 != 0)(i)?;
        let (i, [x, y, scale_x, scale_y, width, height]) = f32s(i)?;
        let rotation = rotation.unwrap_or(0.0);
        let r = Region { path, color, sequence, rotation, x, y, scale_x, scale_y, width, height };
        Ok((i, r))
    } else {
        let (i, path) = str_ref(c.strings)(i)?;
        let (i, [rotation, x, y, scale_x, scale_y, width, height]) = f32s(i)?;
        let (i, color) = rgba(i)?;
        let (i, sequence) = opt_sequence(c, i, flags)?;
        let r = Region { path, color, sequence, rotation, x, y, scale_x, scale_y, width, height };
        Ok((i, r))
    }
}

/// A linked mesh: 4.2 names its skin by index (checked once every skin is known, so its
/// position goes to `linked_skins`), earlier versions by name.
fn linked_mesh<'a>(
    c: &Ctx,
    i: In<'a>,
    flags: u8,
    linked_skins: &mut Vec<(usize, u32)>,
) -> Res<'a, LinkedMesh> {
    let mut size = cond(c.nonessential, f32s::<2>);
    if c.v42() {
        let (i, path) = opt_ref(c, flags & 16 != 0, i)?;
        let (i, color) = color_or_white(flags & 32 != 0, i)?;
        let (skin_at, sequence) = opt_sequence(c, i, flags)?;
        let (i, skin) = varint(skin_at)?;
        linked_skins.push((skin_at.len(), skin));
        let (i, parent) = str_ref(c.strings)(i)?;
        let (i, size) = size.parse(i)?;
        let lm = LinkedMesh {
            path,
            color,
            sequence,
            skin: SkinRef::Index(skin),
            parent,
            inherit_timelines: flags & 128 != 0,
            size,
        };
        Ok((i, lm))
    } else {
        let (i, path) = str_ref(c.strings)(i)?;
        let (i, color) = rgba(i)?;
        let (i, skin) = str_ref(c.strings)(i)?;
        let (i, parent) = str_ref(c.strings)(i)?;
        let (i, inherit_timelines) = bool(i)?;
        let (i, sequence) = opt_sequence(c, i, flags)?;
        let (i, size) = size.parse(i)?;
        let skin = SkinRef::Name(skin);
        Ok((i, LinkedMesh { path, color, sequence, skin, parent, inherit_timelines, size }))
    }
}

fn mesh<'a>(c: &Ctx, i: In<'a>, flags: u8) -> Res<'a, Mesh> {
    let lim = &c.lim;
    let extras = |i| {
        let (i, edges) = shorts(c, i, "edge", None)?;
        let (i, [width, height]) = f32s(i)?;
        Ok((i, MeshExtras { edges, width, height }))
    };
    if c.v42() {
        let (i, path) = cond(flags & 16 != 0, str_ref(c.strings)).parse(i)?;
        let (i, color) = opt_rgba(flags & 32 != 0)(i)?;
        let (i, sequence) = opt_sequence(c, i, flags)?;
        let (i, hull) = varint(i)?;
        let (i, vertices) = counted_vertices(c, i, flags & 128 != 0)?;
        let n = vertices.count();
        let (at, uvs) = f32_vec(lim, "uv", n * 2)(i)?;
        let tri = (2 * n as i64 - i64::from(hull) - 2) * 3;
        if tri < 0 {
            return Err(PErr::invalid(
                at,
                format!("mesh with {n} vertices cannot have a hull of {hull} vertices"),
            ));
        }
        let (i, triangles) = shorts(c, at, "triangle index", Some(tri as usize))?;
        let (i, extras) = cond(c.nonessential, extras).parse(i)?;
        let m = Mesh {
            path: path.unwrap_or_default(),
            color: color.unwrap_or([0xff; 4]),
            sequence,
            uvs,
            triangles,
            vertices,
            hull,
            extras,
        };
        return Ok((i, m));
    }
    let (i, path) = str_ref(c.strings)(i)?;
    let (i, color) = rgba(i)?;
    let (i, n) = count(lim, "vertex", 8)(i)?;
    let (i, uvs) = f32_vec(lim, "uv", n * 2)(i)?;
    let (i, triangles) = shorts(c, i, "triangle index", None)?;
    let (i, weighted) = bool(i)?;
    let (i, vertices) = vertices(c, i, n, weighted)?;
    let (i, hull) = varint(i)?;
    let (i, sequence) = opt_sequence(c, i, flags)?;
    let (i, extras) = cond(c.nonessential, extras).parse(i)?;
    Ok((i, Mesh { path, color, sequence, uvs, triangles, vertices, hull, extras }))
}

fn event<'a>(c: &Ctx, at: In<'a>, table: &[&str]) -> Res<'a, EventData> {
    let rest = |i| {
        let (i, int) = varint_signed(i)?;
        let (i, float) = f32(i)?;
        let (i, string) = string(&c.lim)(i)?;
        let (i, path) = crate::binary::wire::string(&c.lim)(i)?;
        let (i, vb) = cond(path.is_some(), f32s::<2>).parse(i)?;
        let audio =
            path.zip(vb).map(|(path, [volume, balance])| EventAudio { path, volume, balance });
        Ok((i, (int, float, string, audio)))
    };
    let (i, (name, (int, float, string, audio))) = if c.v42() {
        let (i, n) = name(&c.lim, "event")(at)?;
        let (i, r) = named(n, i, rest)?;
        (i, (Name::Inline(n.to_owned()), r))
    } else {
        let (i, n) = str_ref(c.strings)(at)?;
        let (i, r) = named_ref(table, "event", n, at, i, rest)?;
        (i, (Name::Ref(n), r))
    };
    Ok((i, EventData { name, int, float, string, audio }))
}
