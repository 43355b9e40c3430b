//! Parser of the setup-pose sections: header, string table, bones, slots, constraints,
//! skins and attachments, events; then animations (see [`super::read_anim`]) and the
//! trailing slider animation indices. nom parsers over the bytes (see `binary::wire`).

use nom::combinator::cond;
use nom::Parser;

use super::ast::*;
use super::read_anim::animation;
use super::stream::{AnimationSink, AstSink};
use crate::binary::shared::sequence as wire_sequence;
use crate::binary::wire::{
    bool, budgeted, check_count, count, each, enum_u8, enum_varint, expect_end, f32, f32_vec, f32s,
    finish, i32, index, indices, into_binary, item, items, list, name, named, opt_f32, opt_rgba,
    rgba, section, str_ref, string, u8, varint, varint_signed, varints_into, In, Lim, PErr, Res,
};
use crate::error::{BinaryError, BinaryErrorKind};
use crate::Limits;

mod attachments;
mod bones;
mod constraints;
mod skins;

use attachments::attachment;
use bones::{bone, slot};
use constraints::constraint;
use skins::{skin, skin_slots};

/// What later sections need to know about earlier ones.
pub(super) struct Ctx<'l> {
    pub lim: &'l Lim,
    /// The file length (for the errors handed to an animation sink).
    pub total: usize,
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

/// Parses a whole 4.3 file.
pub(super) fn read_skeleton(bytes: &[u8], limits: Limits) -> Result<Skeleton, BinaryError> {
    let lim = Lim::new(limits);
    lim.check_file_size(bytes)?;
    finish(skeleton(&lim, bytes), bytes.len())
}

fn skeleton<'a>(lim: &Lim, i: In<'a>) -> Res<'a, Skeleton> {
    let total = i.len();
    let (i, (mut skeleton, ctx)) = head(lim, i, total)?;
    let mut sink = AstSink::default();
    let (i, animations) = section(
        "animations",
        list(lim, "animation", 12, Some("animations"), |i, k| {
            let (i, name) = name(lim, "animation")(i)?;
            let above =
                |e: PErr| e.in_named(name).in_item("animations", k).in_section("animations");
            let (i, ()) = named(name, i, |i| animation(&ctx, i, name, &above, &mut sink))?;
            Ok((i, sink.take()))
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
fn head<'a, 'l>(lim: &'l Lim, i: In<'a>, total: usize) -> Res<'a, (Skeleton, Ctx<'l>)> {
    let (i, header) = header(lim, i)?;
    let (i, strings) =
        section("strings", list(lim, "string", 1, Some("strings"), |i, _| string(lim)(i)))
            .parse(i)?;
    let mut ctx = Ctx {
        lim,
        total,
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
        let mut sink = AstSink::default();
        Ok(self.read_next_into(&mut sink)?.then(|| sink.take()))
    }

    /// Reads the next animation into `sink` (see [`super::stream`]); `Ok(false)` once every
    /// animation was read. Errors are those [`super::parse_with_limits`] reports for the
    /// same bytes (or the sink's own).
    pub fn read_next_into<S: AnimationSink>(&mut self, sink: &mut S) -> Result<bool, BinaryError> {
        if self.next >= self.len {
            return Ok(false);
        }
        let ctx = Ctx {
            lim: &self.lim,
            total: self.total,
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
                let above =
                    |e: PErr| e.in_named(name).in_item("animations", next).in_section("animations");
                named(name, i, |i| animation(&ctx, i, name, &above, sink))
            })
        })
        .parse(self.rest);
        let Ctx { constraints, event_audio, .. } = ctx;
        self.constraints = constraints;
        self.event_audio = event_audio;
        match read {
            Ok((rest, ())) => {
                self.rest = rest;
                self.next += 1;
                Ok(true)
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
    let parts = head(&lim, bytes, bytes.len()).and_then(|(i, (s, ctx))| {
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

fn event<'a>(lim: &Lim, i: In<'a>) -> Res<'a, Event> {
    let (i, name) = name(lim, "event")(i)?;
    named(name, i, |i| {
        let (i, int_value) = varint_signed(i)?;
        let (i, float_value) = f32(i)?;
        let (i, string_value) = string(lim)(i)?;
        let (i, audio_path) = string(lim)(i)?;
        let mut e = Event {
            name: name.into(),
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
