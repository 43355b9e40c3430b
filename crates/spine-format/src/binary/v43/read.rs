//! Parser of the setup-pose sections: header, string table, bones, slots, constraints,
//! skins and attachments, events; then animations (see [`super::read_anim`]) and the
//! trailing slider animation indices. nom parsers over the bytes (see `binary::wire`).

use nom::combinator::cond;
use nom::Parser;

use super::ast::*;
use super::read_anim::animation;
use crate::binary::shared::sequence as wire_sequence;
use crate::binary::wire::{
    bool, budgeted, check_count, count, each, enum_u8, enum_varint, expect_end, f32, f32_vec, f32s,
    finish, i32, index, indices, into_binary, item, items, list, name, named, opt_f32, opt_rgba,
    rgba, section, str_ref, string, u8, varint, varint_signed, varints_into, In, Lim, PErr, Res,
};
use crate::error::{BinaryError, BinaryErrorKind};
use crate::Limits;

/// What later sections need to know about earlier ones.
pub(super) struct Ctx<'l> {
    pub lim: &'l Lim,
    pub nonessential: bool,
    pub strings: usize,
    pub bones: usize,
    pub slots: usize,
    pub constraints: Vec<ConstraintType>,
    pub skins: usize,
    pub event_audio: Vec<bool>,
}

pub(super) fn inherit_of(v: u8) -> Option<Inherit> {
    Some(match v {
        0 => Inherit::Normal,
        1 => Inherit::OnlyTranslation,
        2 => Inherit::NoRotationOrReflection,
        3 => Inherit::NoScale,
        4 => Inherit::NoScaleOrReflection,
        _ => return None,
    })
}

fn property_of(v: u8) -> Option<TransformProperty> {
    Some(match v {
        0 => TransformProperty::Rotate,
        1 => TransformProperty::X,
        2 => TransformProperty::Y,
        3 => TransformProperty::ScaleX,
        4 => TransformProperty::ScaleY,
        5 => TransformProperty::ShearY,
        _ => return None,
    })
}

fn blend_of(v: u32) -> Option<BlendMode> {
    Some(match v {
        0 => BlendMode::Normal,
        1 => BlendMode::Additive,
        2 => BlendMode::Multiply,
        3 => BlendMode::Screen,
        _ => return None,
    })
}

fn scale_y_mode_of(v: u8) -> Option<ScaleYMode> {
    Some(match v {
        0 => ScaleYMode::None,
        1 => ScaleYMode::Uniform,
        2 => ScaleYMode::Volume,
        _ => return None,
    })
}

/// Parses a whole 4.3 file.
pub(super) fn read_skeleton(bytes: &[u8], limits: Limits) -> Result<Skeleton, BinaryError> {
    let lim = Lim::new(limits);
    lim.check_file_size(bytes)?;
    finish(skeleton(&lim, bytes), bytes.len())
}

fn skeleton<'a>(lim: &Lim, i: In<'a>) -> Res<'a, Skeleton> {
    let (i, (mut skeleton, ctx)) = head(lim, i)?;
    let (i, animations) = section(
        "animations",
        list(lim, "animation", 12, Some("animations"), |i, _| {
            let (i, name) = name(lim, "animation")(i)?;
            named(name, i, |i| animation(&ctx, i, name.to_owned()))
        }),
    )
    .parse(i)?;

    let (i, ()) = section("slider animations", |mut i| {
        for (k, c) in skeleton.constraints.iter_mut().enumerate() {
            if let ConstraintKind::Slider(s) = &mut c.kind {
                (i, s.animation) = item("constraints", k, i, index("animation", animations.len()))?;
            }
        }
        Ok((i, ()))
    })
    .parse(i)?;
    let (i, ()) = expect_end(i)?;
    skeleton.animations = animations;
    Ok((i, skeleton))
}

/// Everything before the animations: the skeleton (no animations; slider constraints'
/// `animation` left 0, read after the animations) and what the animation reader checks
/// indices against.
fn head<'a, 'l>(lim: &'l Lim, i: In<'a>) -> Res<'a, (Skeleton, Ctx<'l>)> {
    let (i, header) = header(lim, i)?;
    let (i, strings) =
        section("strings", list(lim, "string", 1, Some("strings"), |i, _| string(lim)(i)))
            .parse(i)?;
    let mut ctx = Ctx {
        lim,
        nonessential: header.nonessential.is_some(),
        strings: strings.len(),
        bones: 0,
        slots: 0,
        constraints: Vec::new(),
        skins: 0,
        event_audio: Vec::new(),
    };

    let (i, bones) =
        section("bones", list(lim, "bone", 35, Some("bones"), |i, k| bone(&ctx, i, k))).parse(i)?;
    ctx.bones = bones.len();
    let (i, slots) =
        section("slots", list(lim, "slot", 12, Some("slots"), |i, _| slot(&ctx, i))).parse(i)?;
    ctx.slots = slots.len();
    let (i, constraints) = section(
        "constraints",
        list(lim, "constraint", 3, Some("constraints"), |i, _| constraint(&ctx, i)),
    )
    .parse(i)?;
    ctx.constraints = constraints.iter().map(|c| c.kind.constraint_type()).collect();

    // Linked-mesh skin indices (where they were read, the index) are checked once every
    // skin is known.
    let mut linked = Vec::new();
    let (i, default_skin) = section("default skin", |i| {
        let (i, n) = count(lim, "skin slot", 2)(i)?;
        let r = cond(n > 0, |i| skin_slots(&ctx, i, n, &mut linked)).parse(i);
        r
    })
    .parse(i)?;
    let (i, skins) =
        section("skins", list(lim, "skin", 4, Some("skins"), |i, _| skin(&ctx, i, &mut linked)))
            .parse(i)?;
    ctx.skins = skins.len() + usize::from(default_skin.is_some());
    let (i, ()) = section("linked meshes", |i| {
        match linked.iter().find(|&&(_, skin)| skin as usize >= ctx.skins) {
            Some(&(rest, skin)) => Err(PErr::at_rest(
                rest,
                BinaryErrorKind::IndexOutOfRange {
                    what: "skin",
                    index: u64::from(skin),
                    len: ctx.skins,
                },
            )),
            None => Ok((i, ())),
        }
    })
    .parse(i)?;

    let (i, events) =
        section("events", list(lim, "event", 8, Some("events"), |i, _| event(lim, i))).parse(i)?;
    ctx.event_audio = events.iter().map(Event::has_audio).collect();

    let skeleton = Skeleton {
        header,
        strings,
        bones,
        slots,
        constraints,
        default_skin,
        skins,
        events,
        animations: Vec::new(),
    };
    Ok((i, (skeleton, ctx)))
}

/// The animations of a 4.3 skeleton, read one at a time (see [`super::parse_head`]).
pub struct Animations<'a> {
    /// The input at the next animation (after the last one: at the slider animations).
    rest: In<'a>,
    /// The file length (for error offsets).
    total: usize,
    lim: Lim,
    nonessential: bool,
    strings: usize,
    bones: usize,
    slots: usize,
    constraints: Vec<ConstraintType>,
    skins: usize,
    event_audio: Vec<bool>,
    len: usize,
    next: usize,
}

impl<'a> Animations<'a> {
    /// Number of animations.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the skeleton has no animations.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Reads the next animation; `Ok(None)` once every animation was read. Errors are those
    /// [`super::parse_with_limits`] reports for the same bytes.
    pub fn read_next(&mut self) -> Result<Option<Animation>, BinaryError> {
        if self.next >= self.len {
            return Ok(None);
        }
        let ctx = Ctx {
            lim: &self.lim,
            nonessential: self.nonessential,
            strings: self.strings,
            bones: self.bones,
            slots: self.slots,
            constraints: std::mem::take(&mut self.constraints),
            skins: self.skins,
            event_audio: std::mem::take(&mut self.event_audio),
        };
        let (lim, next) = (&self.lim, self.next);
        let read = section("animations", |i| {
            item("animations", next, i, |i| {
                let (i, name) = name(lim, "animation")(i)?;
                named(name, i, |i| animation(&ctx, i, name.to_owned()))
            })
        })
        .parse(self.rest);
        let Ctx { constraints, event_audio, .. } = ctx;
        self.constraints = constraints;
        self.event_audio = event_audio;
        match read {
            Ok((rest, a)) => {
                self.rest = rest;
                self.next += 1;
                Ok(Some(a))
            }
            Err(e) => Err(into_binary(e, self.total)),
        }
    }

    /// After the last animation: the trailing slider animation indices, as
    /// `(constraint index, animation index)` of each slider constraint in order, and the
    /// end of the input. Errors as [`super::parse_with_limits`]'s (an animation left unread
    /// is read and dropped first).
    pub fn finish(mut self) -> Result<Vec<(usize, u32)>, BinaryError> {
        while self.read_next()?.is_some() {}
        let mut out = Vec::new();
        let (len, constraints) = (self.len, &self.constraints);
        let read = section("slider animations", |mut i| {
            for (k, c) in constraints.iter().enumerate() {
                if *c == ConstraintType::Slider {
                    let animation;
                    (i, animation) = item("constraints", k, i, index("animation", len))?;
                    out.push((k, animation));
                }
            }
            Ok((i, ()))
        })
        .parse(self.rest)
        .and_then(|(i, ())| expect_end(i));
        finish(read, self.total)?;
        Ok(out)
    }
}

/// Reads a 4.3 skeleton up to its animations: the [`Skeleton`] (no animations; each slider
/// constraint's `animation` is 0 until [`Animations::finish`] gives it) and a reader of the
/// animations.
pub(super) fn parse_head(
    bytes: &[u8],
    limits: Limits,
) -> Result<(Skeleton, Animations<'_>), BinaryError> {
    let lim = Lim::new(limits);
    lim.check_file_size(bytes)?;
    let parts = head(&lim, bytes).and_then(|(i, (s, ctx))| {
        let (i, n) = section("animations", count(&lim, "animation", 12)).parse(i)?;
        let Ctx { nonessential, strings, bones, slots, constraints, skins, event_audio, .. } = ctx;
        Ok((i, (s, (nonessential, strings, bones, slots, constraints, skins, event_audio), n)))
    });
    let (rest, (s, parts, len)) = match parts {
        Ok(v) => v,
        Err(e) => return Err(into_binary(e, bytes.len())),
    };
    let (nonessential, strings, bones, slots, constraints, skins, event_audio) = parts;
    let animations = Animations {
        rest,
        total: bytes.len(),
        lim,
        nonessential,
        strings,
        bones,
        slots,
        constraints,
        skins,
        event_audio,
        len,
        next: 0,
    };
    Ok((s, animations))
}

fn header<'a>(lim: &Lim, i: In<'a>) -> Res<'a, Header> {
    let (i, hash_low) = i32(i)?;
    let (at, hash_high) = i32(i)?;
    let (i, version) = string(lim)(at)?;
    let version = version.unwrap_or_default();
    if crate::SpineVersion::parse(&version) != Some(crate::SpineVersion::V4_3) {
        return Err(PErr::at(
            at,
            BinaryErrorKind::UnsupportedVersion { found: version, supported: "4.3" },
        ));
    }
    let (i, [x, y, width, height, reference_scale]) = f32s(i)?;
    let (i, nonessential) = bool(i)?;
    let (i, nonessential) = cond(nonessential, |i| {
        let (i, fps) = f32(i)?;
        let (i, images_path) = string(lim)(i)?;
        let (i, audio_path) = string(lim)(i)?;
        Ok((i, NonessentialHeader { fps, images_path, audio_path }))
    })
    .parse(i)?;
    Ok((
        i,
        Header { hash_low, hash_high, version, x, y, width, height, reference_scale, nonessential },
    ))
}

fn bone<'a>(ctx: &Ctx<'_>, i: In<'a>, k: usize) -> Res<'a, Bone> {
    let (i, name) = name(ctx.lim, "bone")(i)?;
    named(name, i, |i| {
        let (i, parent) = cond(k > 0, index("parent bone", k)).parse(i)?;
        let (i, [rotation, x, y, scale_x, scale_y, shear_x, shear_y]) = f32s(i)?;
        let (i, inherit) = enum_u8("inherit", inherit_of)(i)?;
        let (i, length) = f32(i)?;
        let (i, skin_required) = bool(i)?;
        let (i, nonessential) = cond(ctx.nonessential, |i| {
            let (i, color) = rgba(i)?;
            let (i, icon) = string(ctx.lim)(i)?;
            let (i, [icon_size, icon_rotation]) = f32s(i)?;
            let (i, visible) = bool(i)?;
            Ok((i, BoneExtras { color, icon, icon_size, icon_rotation, visible }))
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
            inherit,
            length,
            skin_required,
            nonessential,
        };
        Ok((i, bone))
    })
}

fn slot<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, Slot> {
    let (i, name) = name(ctx.lim, "slot")(i)?;
    named(name, i, |i| {
        let (i, bone) = index("bone", ctx.bones)(i)?;
        let (i, color) = rgba(i)?;
        let (i, dark_color) = rgba(i)?;
        let (i, attachment) = str_ref(ctx.strings)(i)?;
        let (i, blend) = enum_varint("blend mode", blend_of)(i)?;
        let (i, visible) = cond(ctx.nonessential, bool).parse(i)?;
        let slot =
            Slot { name: name.to_owned(), bone, color, dark_color, attachment, blend, visible };
        Ok((i, slot))
    })
}

fn constraint<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, Constraint> {
    let (i, name) = name(ctx.lim, "constraint")(i)?;
    named(name, i, |at| {
        let (i, kind) = match u8(at)? {
            (i, 0) => ik(ctx, i).map(|(i, c)| (i, ConstraintKind::Ik(c)))?,
            (i, 1) => path(ctx, i).map(|(i, c)| (i, ConstraintKind::Path(c)))?,
            (i, 2) => transform(ctx, i).map(|(i, c)| (i, ConstraintKind::Transform(c)))?,
            (i, 3) => physics(ctx, i).map(|(i, c)| (i, ConstraintKind::Physics(c)))?,
            (i, 4) => slider(ctx, i).map(|(i, c)| (i, ConstraintKind::Slider(c)))?,
            (_, v) => return Err(PErr::bad_enum(at, "constraint type", i64::from(v))),
        };
        Ok((i, Constraint { name: name.to_owned(), kind }))
    })
}

fn ik<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, IkConstraint> {
    let (i, bones) = indices(ctx.lim, "bone", ctx.bones)(i)?;
    let (i, target) = index("bone", ctx.bones)(i)?;
    let (i, flags) = u8(i)?;
    let (i, scale_y_mode) =
        cond(flags & 2 != 0, enum_u8("scale y mode", scale_y_mode_of)).parse(i)?;
    let (i, mix) = opt_f32(flags & 32 != 0 && flags & 64 != 0)(i)?;
    let (i, softness) = opt_f32(flags & 128 != 0)(i)?;
    Ok((i, IkConstraint { bones, target, flags, scale_y_mode, mix, softness }))
}

fn to_property(i: In<'_>) -> Res<'_, ToProperty> {
    let (i, property) = enum_u8("transform property", property_of)(i)?;
    let (i, [offset, max, scale]) = f32s(i)?;
    Ok((i, ToProperty { property, offset, max, scale }))
}

fn transform<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, TransformConstraint> {
    let (i, bones) = indices(ctx.lim, "bone", ctx.bones)(i)?;
    let (i, source) = index("bone", ctx.bones)(i)?;
    let (i, flags) = u8(i)?;
    let (i, properties) = items(usize::from(flags >> 5), Some("from"), |i, _| {
        let (i, property) = enum_u8("transform property", property_of)(i)?;
        let (at, offset) = f32(i)?;
        let (i, n_to) = u8(at)?;
        check_count(ctx.lim, at, i, "to property", u64::from(n_to), 13)?;
        let (i, to) = items(usize::from(n_to), None, |i, _| to_property(i))(i)?;
        Ok((i, FromProperty { property, offset, to }))
    })(i)?;
    let (mut i, offset_flags) = u8(i)?;
    let mut offsets = [None; 6];
    for (bit, o) in offsets.iter_mut().enumerate() {
        (i, *o) = opt_f32(offset_flags & (1 << bit) != 0)(i)?;
    }
    let (mut i, mix_flags) = u8(i)?;
    let mut mixes = [None; 6];
    for (bit, m) in mixes.iter_mut().enumerate() {
        (i, *m) = opt_f32(mix_flags & (1 << bit) != 0)(i)?;
    }
    let c = TransformConstraint {
        bones,
        source,
        flags: flags & 0x1f,
        properties,
        offset_flags,
        offsets,
        mix_flags,
        mixes,
    };
    Ok((i, c))
}

fn path<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, PathConstraint> {
    let (i, bones) = indices(ctx.lim, "bone", ctx.bones)(i)?;
    let (at, slot) = index("slot", ctx.slots)(i)?;
    let (i, flags) = u8(at)?;
    if (flags >> 4) & 3 == 3 {
        return Err(PErr::bad_enum(at, "rotate mode", 3));
    }
    let (i, offset_rotation) = opt_f32(flags & 128 != 0)(i)?;
    let (i, [position, spacing, mix_rotate, mix_x, mix_y]) = f32s(i)?;
    let c = PathConstraint {
        bones,
        slot,
        flags,
        offset_rotation,
        position,
        spacing,
        mix_rotate,
        mix_x,
        mix_y,
    };
    Ok((i, c))
}

fn physics<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, PhysicsConstraint> {
    let (i, bone) = index("bone", ctx.bones)(i)?;
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
    let (i, global_flags) = u8(i)?;
    let (i, mix) = opt_f32(global_flags & 128 != 0)(i)?;
    let c = PhysicsConstraint {
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
        global_flags,
        mix,
    };
    Ok((i, c))
}

fn slider<'a>(ctx: &Ctx<'_>, i: In<'a>) -> Res<'a, SliderConstraint> {
    let (i, flags) = u8(i)?;
    let (i, value) = opt_f32(flags & 8 != 0)(i)?;
    let (i, mix) = opt_f32(flags & 16 != 0 && flags & 32 != 0)(i)?;
    let (i, bone) = cond(flags & 64 != 0, |i| {
        let (i, bone) = index("bone", ctx.bones)(i)?;
        let (i, property_offset) = f32(i)?;
        let (i, property) = enum_u8("transform property", property_of)(i)?;
        let (i, [offset, scale]) = f32s(i)?;
        Ok((i, SliderBone { bone, property_offset, property, offset, scale }))
    })
    .parse(i)?;
    Ok((i, SliderConstraint { flags, value, mix, bone, animation: 0 }))
}

fn skin<'a>(ctx: &Ctx<'_>, i: In<'a>, linked: &mut Vec<(usize, u32)>) -> Res<'a, Skin> {
    let (i, name) = name(ctx.lim, "skin")(i)?;
    named(name, i, |i| {
        let (i, color) = opt_rgba(ctx.nonessential)(i)?;
        let (i, bones) = indices(ctx.lim, "bone", ctx.bones)(i)?;
        let (i, constraints) = indices(ctx.lim, "constraint", ctx.constraints.len())(i)?;
        let (i, n) = count(ctx.lim, "skin slot", 2)(i)?;
        let (i, slots) = skin_slots(ctx, i, n, linked)?;
        Ok((i, Skin { name: name.to_owned(), color, bones, constraints, slots }))
    })
}

/// `n` (checked) slots of a skin, each with its attachments.
fn skin_slots<'a>(
    ctx: &Ctx<'_>,
    i: In<'a>,
    n: usize,
    linked: &mut Vec<(usize, u32)>,
) -> Res<'a, Vec<SkinSlot>> {
    items(n, Some("slots"), |i, _| {
        let (i, slot) = index("slot", ctx.slots)(i)?;
        let (i, attachments) = list(ctx.lim, "attachment", 2, Some("attachments"), |i, _| {
            let (i, placeholder) = str_ref(ctx.strings)(i)?;
            let (i, attachment) = attachment(ctx, i, linked)?;
            Ok((i, SkinEntry { placeholder, attachment }))
        })(i)?;
        Ok((i, SkinSlot { slot, attachments }))
    })(i)
}

fn sequence<'a, 'c>(
    ctx: &'c Ctx<'_>,
    present: bool,
) -> impl FnMut(In<'a>) -> Res<'a, Option<Sequence>> + use<'a, 'c> {
    move |i| {
        cond(present, |i| {
            let (i, [count, start, digits, setup_index]) = wire_sequence(ctx.lim)(i)?;
            Ok((i, Sequence { count, start, digits, setup_index }))
        })
        .parse(i)
    }
}

fn vertices<'a>(ctx: &Ctx<'_>, i: In<'a>, weighted: bool) -> Res<'a, Vertices> {
    section("vertices", |at| {
        let (i, vertex_count) = varint(at)?;
        let lim = ctx.lim;
        if !weighted {
            check_count(lim, at, i, "vertex", u64::from(vertex_count), 8)?;
            let (i, v) = f32_vec(lim, "vertex", vertex_count as usize * 2)(i)?;
            return Ok((i, Vertices::Unweighted(v)));
        }
        check_count(lim, at, i, "vertex", u64::from(vertex_count), 1)?;
        let at = i;
        let (i, bones_length) = varint(at)?;
        let bones_length = bones_length as usize;
        check_count(lim, at, i, "bones entry", bones_length as u64, 1)?;
        // Groups of influences (a count and its influences: `n + 1` entries each) until
        // `bonesLength` entries are read.
        // Influences: at most `bonesLength - vertex count`, each at least 13 bytes.
        let influences = bones_length.saturating_sub(vertex_count as usize).min(i.len() / 13);
        let mut w = WeightedVertices {
            counts: Vec::with_capacity(vertex_count as usize),
            bones: Vec::with_capacity(influences),
            values: Vec::with_capacity(influences * 3),
        };
        let (i, groups) = budgeted(bones_length, 0, |group_at, left| {
            let (j, n) = varint(group_at)?;
            let n = n as usize;
            if n >= left {
                return Err(PErr::invalid(
                    group_at,
                    format!("vertex bone count {n} overruns bonesLength {bones_length}"),
                ));
            }
            check_count(lim, group_at, j, "vertex bone", n as u64, 13)?;
            let (j, ()) = each(n, None, |i, _| {
                let (i, bone) = index("bone", ctx.bones)(i)?;
                let (i, xyw) = f32s::<3>(i)?;
                w.bones.push(bone);
                w.values.extend_from_slice(&xyw);
                Ok((i, ()))
            })(j)?;
            w.counts.push(n as u32);
            Ok((j, ((), n + 1)))
        })(i)?;
        if groups.len() != vertex_count as usize {
            return Err(PErr::invalid(
                at,
                format!(
                    "bonesLength {bones_length} covers {} vertices, not {vertex_count}",
                    groups.len()
                ),
            ));
        }
        Ok((i, Vertices::Weighted(w)))
    })
    .parse(i)
}

fn attachment<'a>(
    ctx: &Ctx<'_>,
    at: In<'a>,
    linked: &mut Vec<(usize, u32)>,
) -> Res<'a, Attachment> {
    let (i, flags) = u8(at)?;
    let (i, name) = cond(flags & 8 != 0, str_ref(ctx.strings)).parse(i)?;
    let ne = ctx.nonessential;
    let lim = ctx.lim;
    let opt_ref = |present: bool| cond(present, str_ref(ctx.strings));
    let (i, kind) = match flags & 7 {
        0 => {
            let (i, path) = opt_ref(flags & 16 != 0).parse(i)?;
            let (i, color) = opt_rgba(flags & 32 != 0)(i)?;
            let (i, sequence) = sequence(ctx, flags & 64 != 0)(i)?;
            let (i, rotation) = opt_f32(flags & 128 != 0)(i)?;
            let (i, [x, y, scale_x, scale_y, width, height]) = f32s(i)?;
            let region = RegionAttachment {
                path,
                color,
                sequence,
                rotation,
                x,
                y,
                scale_x,
                scale_y,
                width,
                height,
            };
            (i, AttachmentKind::Region(region))
        }
        1 => {
            let (i, vertices) = vertices(ctx, i, flags & 16 != 0)?;
            let (i, color) = opt_rgba(ne)(i)?;
            (i, AttachmentKind::BoundingBox(BoundingBoxAttachment { vertices, color }))
        }
        2 => {
            let (i, mesh) = mesh_attachment(ctx, i, flags)?;
            (i, AttachmentKind::Mesh(mesh))
        }
        3 => {
            let (i, path) = opt_ref(flags & 16 != 0).parse(i)?;
            let (i, color) = opt_rgba(flags & 32 != 0)(i)?;
            let (i, sequence) = sequence(ctx, flags & 64 != 0)(i)?;
            let (skin_at, source_slot) = index("slot", ctx.slots)(i)?;
            let (i, skin) = varint(skin_at)?;
            linked.push((skin_at.len(), skin));
            let (i, source) = str_ref(ctx.strings)(i)?;
            let (i, size) = cond(ne, f32s::<2>).parse(i)?;
            let mesh =
                LinkedMeshAttachment { path, color, sequence, source_slot, skin, source, size };
            (i, AttachmentKind::LinkedMesh(mesh))
        }
        4 => {
            let (i, vertices) = vertices(ctx, i, flags & 64 != 0)?;
            let (i, lengths) = f32_vec(lim, "path length", vertices.world_length() / 6)(i)?;
            let (i, color) = opt_rgba(ne)(i)?;
            (i, AttachmentKind::Path(PathAttachment { vertices, lengths, color }))
        }
        5 => {
            let (i, [rotation, x, y]) = f32s(i)?;
            let (i, color) = opt_rgba(ne)(i)?;
            (i, AttachmentKind::Point(PointAttachment { rotation, x, y, color }))
        }
        6 => {
            let (i, end_slot) = index("slot", ctx.slots)(i)?;
            let (i, vertices) = vertices(ctx, i, flags & 16 != 0)?;
            let (i, color) = opt_rgba(ne)(i)?;
            (i, AttachmentKind::Clipping(ClippingAttachment { end_slot, vertices, color }))
        }
        v => return Err(PErr::bad_enum(at, "attachment type", i64::from(v))),
    };
    Ok((i, Attachment { flags, name, kind }))
}

/// A mesh attachment (4.3): path, color and sequence gated by `flags` bits, the hull, the
/// vertices, UVs and triangles, the slots its timelines apply to, and the nonessential extras.
fn mesh_attachment<'a>(ctx: &Ctx<'_>, i: In<'a>, flags: u8) -> Res<'a, MeshAttachment> {
    let ne = ctx.nonessential;
    let lim = ctx.lim;
    let (i, path) = cond(flags & 16 != 0, str_ref(ctx.strings)).parse(i)?;
    let (i, color) = opt_rgba(flags & 32 != 0)(i)?;
    let (i, sequence) = sequence(ctx, flags & 64 != 0)(i)?;
    let (i, hull_length) = varint(i)?;
    let (i, vertices) = vertices(ctx, i, flags & 128 != 0)?;
    let len = vertices.world_length();
    let (at, uvs) = f32_vec(lim, "uv", len)(i)?;
    // Gotcha 1: the hull count is undoubled while `len` is doubled.
    let tri = (len as i64 - i64::from(hull_length) - 2) * 3;
    if tri < 0 {
        return Err(PErr::invalid(
            at,
            format!("hull length {hull_length} too large for {len} vertex floats"),
        ));
    }
    check_count(lim, at, at, "triangle index", tri as u64, 1)?;
    let mut triangles = Vec::with_capacity(tri as usize);
    let (i, ()) = varints_into(at, tri as usize, &mut triangles)?;
    let (i, timeline_slots) = indices(lim, "slot", ctx.slots)(i)?;
    let (i, nonessential) = cond(ne, |i| {
        let (i, n) = count(lim, "edge", 1)(i)?;
        let mut edges = Vec::with_capacity(n);
        let (i, ()) = varints_into(i, n, &mut edges)?;
        let (i, [width, height]) = f32s(i)?;
        Ok((i, MeshExtras { edges, width, height }))
    })
    .parse(i)?;
    let mesh = MeshAttachment {
        path,
        color,
        sequence,
        hull_length,
        vertices,
        uvs,
        triangles,
        timeline_slots,
        nonessential,
    };
    Ok((i, mesh))
}

fn event<'a>(lim: &Lim, i: In<'a>) -> Res<'a, Event> {
    let (i, name) = name(lim, "event")(i)?;
    named(name, i, |i| {
        let (i, int_value) = varint_signed(i)?;
        let (i, float_value) = f32(i)?;
        let (i, string_value) = string(lim)(i)?;
        let (i, audio_path) = string(lim)(i)?;
        let mut e = Event {
            name: name.to_owned(),
            int_value,
            float_value,
            string_value,
            audio_path,
            volume_balance: None,
        };
        let (i, volume_balance) = cond(e.has_audio(), f32s::<2>).parse(i)?;
        e.volume_balance = volume_balance;
        Ok((i, e))
    })
}

/// A constraint index that must point at a constraint of type `want` (gotcha 4).
pub(super) fn constraint_index<'a, 'c>(
    ctx: &'c Ctx<'_>,
    want: ConstraintType,
) -> impl Fn(In<'a>) -> Res<'a, u32> + use<'a, 'c> {
    move |at| {
        let (i, k) = index("constraint", ctx.constraints.len())(at)?;
        check_type(ctx, at, k, want)?;
        Ok((i, k))
    }
}

/// Checks that constraint `k` (read at `at`) is of type `want`.
pub(super) fn check_type(
    ctx: &Ctx<'_>,
    at: In<'_>,
    k: u32,
    want: ConstraintType,
) -> Result<(), nom::Err<PErr>> {
    match ctx.constraints.get(k as usize) {
        Some(&t) if t == want => Ok(()),
        Some(t) => Err(PErr::invalid(at, format!("constraint {k} is {t:?}, expected {want:?}"))),
        None => Err(PErr::at(
            at,
            BinaryErrorKind::IndexOutOfRange {
                what: "constraint",
                index: u64::from(k),
                len: ctx.constraints.len(),
            },
        )),
    }
}
