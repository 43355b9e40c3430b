//! The 4.0–4.2 reader: header, setup data, skins and attachments. Animations are read by
//! [`super::read_animation`].

use crate::binary::prim::{Reader, StrRef};
use crate::binary::Generation;
use crate::error::{BinaryError, BinaryErrorKind};
use crate::Limits;

use super::ast::*;
use super::stream::{Animations, AstSink};

/// What the rest of the file is checked against: the version and what has been read so far.
pub(super) struct Ctx {
    pub gen: Generation,
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
    pub fn v41(&self) -> bool {
        self.gen >= Generation::V41
    }

    pub fn v42(&self) -> bool {
        self.gen >= Generation::V42
    }
}

pub(super) fn bad_enum(r: &Reader<'_>, at: usize, what: &'static str, value: i64) -> BinaryError {
    r.err_at(at, BinaryErrorKind::BadEnum { what, value })
}

/// Reads a count of indices each `< len`.
fn read_indices(
    r: &mut Reader<'_>,
    what: &'static str,
    len: usize,
) -> Result<Vec<u32>, BinaryError> {
    let n = r.count(what, 1)?;
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        v.push(r.index(what, len)?);
    }
    Ok(v)
}

fn opt_f32(r: &mut Reader<'_>, present: bool) -> Result<Option<f32>, BinaryError> {
    if present {
        Ok(Some(r.f32()?))
    } else {
        Ok(None)
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

/// Reads everything before the animations; the reader is left inside the "animations"
/// section, at the first animation. The skeleton's `strings` are left empty (the table,
/// borrowed from `bytes`, is [`Animations::strings`]).
pub(super) fn parse_head(
    bytes: &[u8],
    limits: Limits,
    keep_icons: bool,
) -> Result<(Skeleton, Animations<'_>), BinaryError> {
    let mut r = Reader::with_limits(bytes, limits);
    r.check_file_size()?;
    let hash = [r.i32()?, r.i32()?];
    let at = r.pos();
    let version = r.name("version")?.to_owned();
    let gen = match crate::binary::generation_of(&version) {
        Some(g @ (Generation::V40 | Generation::V41 | Generation::V42)) => g,
        _ => {
            return Err(r.err_at(
                at,
                BinaryErrorKind::UnsupportedVersion { found: version, supported: "4.0, 4.1, 4.2" },
            ))
        }
    };
    let (x, y, width, height) = (r.f32()?, r.f32()?, r.f32()?, r.f32()?);
    let reference_scale = opt_f32(&mut r, gen >= Generation::V42)?;
    let nonessential = if r.bool()? {
        Some(HeaderExtras { fps: r.f32()?, images_path: r.string()?, audio_path: r.string()? })
    } else {
        None
    };
    let header = Header { hash, version, x, y, width, height, reference_scale, nonessential };
    let mut c = Ctx {
        gen,
        nonessential: header.nonessential.is_some(),
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
    };

    r.enter("strings");
    let n = r.count("string", 1)?;
    let mut table: Vec<&str> = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("strings", i);
        let at = r.pos();
        match r.str()? {
            Some(s) => table.push(s),
            None => return Err(r.invalid_at(at, "string table entry is null")),
        }
        r.leave();
    }
    r.leave();
    c.strings = table.len();

    r.enter("bones");
    let n = r.count("bone", 38)?;
    let mut bones = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("bones", i);
        bones.push(read_bone(&mut r, &c, i)?);
        r.leave();
        c.bones = i + 1;
    }
    r.leave();

    r.enter("slots");
    let n = r.count("slot", 12)?;
    let mut slots = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("slots", i);
        slots.push(read_slot(&mut r, &c)?);
        r.leave();
    }
    r.leave();
    c.slots = slots.len();

    r.enter("ik constraints");
    let n = r.count("ik constraint", 5)?;
    let mut ik_constraints = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("ik constraints", i);
        ik_constraints.push(read_ik(&mut r, &c)?);
        r.leave();
    }
    r.leave();
    c.ik = ik_constraints.len();

    r.enter("transform constraints");
    let n = r.count("transform constraint", 6)?;
    let mut transform_constraints = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("transform constraints", i);
        transform_constraints.push(read_transform(&mut r, &c)?);
        r.leave();
    }
    r.leave();
    c.transform = transform_constraints.len();

    r.enter("path constraints");
    let n = r.count("path constraint", 26)?;
    let mut path_constraints = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("path constraints", i);
        path_constraints.push(read_path(&mut r, &c)?);
        r.leave();
    }
    r.leave();
    c.path = path_constraints.len();

    let mut physics_constraints = Vec::new();
    if c.v42() {
        r.enter("physics constraints");
        let n = r.count("physics constraint", 31)?;
        physics_constraints.reserve_exact(n);
        for i in 0..n {
            r.enter_item("physics constraints", i);
            physics_constraints.push(read_physics(&mut r, &c)?);
            r.leave();
        }
        r.leave();
        c.physics = physics_constraints.len();
    }

    // Linked-mesh skin indices (4.2) are checked once every skin is known.
    let mut linked_skins = Vec::new();
    r.enter("default skin");
    let n = r.count("default skin slot", 2)?;
    let default_skin =
        if n == 0 { None } else { Some(read_skin_slots(&mut r, &c, n, &mut linked_skins)?) };
    r.leave();

    r.enter("skins");
    let n = r.count("skin", 6)?;
    let mut skins = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("skins", i);
        skins.push(read_skin(&mut r, &c, &table, &mut linked_skins)?);
        r.leave();
    }
    r.leave();
    c.skins = skins.len() + usize::from(default_skin.is_some());
    for (at, index) in linked_skins {
        if index as usize >= c.skins {
            return Err(r.err_at(
                at,
                BinaryErrorKind::IndexOutOfRange {
                    what: "linked mesh skin",
                    index: u64::from(index),
                    len: c.skins,
                },
            ));
        }
    }

    r.enter("events");
    let n = r.count("event", 8)?;
    let mut events = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("events", i);
        let e = read_event(&mut r, &c, &table)?;
        c.event_audio.push(e.audio.is_some());
        events.push(e);
        r.leave();
    }
    r.leave();

    r.enter("animations");
    let n = r.count("animation", 11)?;
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
    Ok((skeleton, Animations::new(r, c, table, n)?))
}

fn read_bone(r: &mut Reader<'_>, c: &Ctx, i: usize) -> Result<Bone, BinaryError> {
    let name = r.name("bone")?;
    r.name_item(name);
    let parent = if i == 0 { None } else { Some(r.index("parent bone", i)?) };
    let (rotation, x, y) = (r.f32()?, r.f32()?, r.f32()?);
    let (scale_x, scale_y, shear_x, shear_y) = (r.f32()?, r.f32()?, r.f32()?, r.f32()?);
    let length = r.f32()?;
    let at = r.pos();
    let raw = if c.v42() { u32::from(r.u8()?) } else { r.varint()? };
    let inherit = Inherit::from_wire(raw).ok_or_else(|| bad_enum(r, at, "inherit", raw.into()))?;
    let skin_required = r.bool()?;
    let extras = if c.nonessential {
        let color = r.rgba()?;
        let (icon, visible) = if c.v42() {
            let icon = r.str()?.filter(|_| c.keep_icons).map(str::to_owned);
            (icon, r.bool()?)
        } else {
            (None, true)
        };
        Some(BoneExtras { color, icon, visible })
    } else {
        None
    };
    Ok(Bone {
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
    })
}

fn read_slot(r: &mut Reader<'_>, c: &Ctx) -> Result<Slot, BinaryError> {
    let name = r.name("slot")?;
    r.name_item(name);
    let bone = r.index("bone", c.bones)?;
    let color = r.rgba()?;
    let dark = r.rgba()?;
    let attachment = r.str_ref(c.strings)?;
    let at = r.pos();
    let raw = r.varint()?;
    let blend =
        BlendMode::from_wire(raw).ok_or_else(|| bad_enum(r, at, "blend mode", raw.into()))?;
    let visible = if c.nonessential && c.v42() { Some(r.bool()?) } else { None };
    Ok(Slot { name: name.to_owned(), bone, color, dark, attachment, blend, visible })
}

fn read_ik(r: &mut Reader<'_>, c: &Ctx) -> Result<IkConstraint, BinaryError> {
    let name = r.name("ik constraint")?;
    r.name_item(name);
    let order = r.varint()?;
    if c.v42() {
        let bones = read_indices(r, "bone", c.bones)?;
        let target = r.index("target bone", c.bones)?;
        let flags = r.u8()?;
        let mix = if flags & 32 != 0 && flags & 64 != 0 { Some(r.f32()?) } else { None };
        let softness = opt_f32(r, flags & 128 != 0)?;
        return Ok(IkConstraint {
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
        });
    }
    let skin_required = r.bool()?;
    let bones = read_indices(r, "bone", c.bones)?;
    let target = r.index("target bone", c.bones)?;
    Ok(IkConstraint {
        name: name.to_owned(),
        order,
        bones,
        target,
        flags: None,
        skin_required,
        mix: Some(r.f32()?),
        softness: Some(r.f32()?),
        bend_direction: r.i8()?,
        compress: r.bool()?,
        stretch: r.bool()?,
        uniform: r.bool()?,
    })
}

fn read_transform(r: &mut Reader<'_>, c: &Ctx) -> Result<TransformConstraint, BinaryError> {
    let name = r.name("transform constraint")?;
    r.name_item(name);
    let order = r.varint()?;
    let mut values = [None; 12];
    if c.v42() {
        let bones = read_indices(r, "bone", c.bones)?;
        let target = r.index("target bone", c.bones)?;
        let f0 = r.u8()?;
        for (k, v) in values.iter_mut().enumerate().take(5) {
            *v = opt_f32(r, f0 & (8 << k) != 0)?;
        }
        let f1 = r.u8()?;
        for (k, v) in values.iter_mut().enumerate().skip(5) {
            *v = opt_f32(r, f1 & (1 << (k - 5)) != 0)?;
        }
        return Ok(TransformConstraint {
            name: name.to_owned(),
            order,
            bones,
            target,
            flags: Some([f0, f1]),
            skin_required: f0 & 1 != 0,
            local: f0 & 2 != 0,
            relative: f0 & 4 != 0,
            values,
        });
    }
    let skin_required = r.bool()?;
    let bones = read_indices(r, "bone", c.bones)?;
    let target = r.index("target bone", c.bones)?;
    let local = r.bool()?;
    let relative = r.bool()?;
    for v in &mut values {
        *v = Some(r.f32()?);
    }
    Ok(TransformConstraint {
        name: name.to_owned(),
        order,
        bones,
        target,
        flags: None,
        skin_required,
        local,
        relative,
        values,
    })
}

fn read_path(r: &mut Reader<'_>, c: &Ctx) -> Result<PathConstraint, BinaryError> {
    let name = r.name("path constraint")?;
    r.name_item(name);
    let order = r.varint()?;
    let skin_required = r.bool()?;
    let bones = read_indices(r, "bone", c.bones)?;
    let target = r.index("target slot", c.slots)?;
    let at = r.pos();
    let (flags, p, s, ro) = if c.v42() {
        let f = r.u8()?;
        (Some(f), u32::from(f & 1), u32::from((f >> 1) & 3), u32::from((f >> 3) & 3))
    } else {
        (None, r.varint()?, r.varint()?, r.varint()?)
    };
    let position_mode =
        PositionMode::from_wire(p).ok_or_else(|| bad_enum(r, at, "position mode", p.into()))?;
    let spacing_mode =
        SpacingMode::from_wire(s).ok_or_else(|| bad_enum(r, at, "spacing mode", s.into()))?;
    let rotate_mode =
        RotateMode::from_wire(ro).ok_or_else(|| bad_enum(r, at, "rotate mode", ro.into()))?;
    let offset_rotation = opt_f32(r, flags.is_none_or(|f| f & 128 != 0))?;
    Ok(PathConstraint {
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
        position: r.f32()?,
        spacing: r.f32()?,
        mix_rotate: r.f32()?,
        mix_x: r.f32()?,
        mix_y: r.f32()?,
    })
}

fn read_physics(r: &mut Reader<'_>, c: &Ctx) -> Result<PhysicsConstraint, BinaryError> {
    let name = r.name("physics constraint")?;
    r.name_item(name);
    let order = r.varint()?;
    let bone = r.index("bone", c.bones)?;
    let flags = r.u8()?;
    let x = opt_f32(r, flags & 2 != 0)?;
    let y = opt_f32(r, flags & 4 != 0)?;
    let rotate = opt_f32(r, flags & 8 != 0)?;
    let scale_x = opt_f32(r, flags & 16 != 0)?;
    let shear_x = opt_f32(r, flags & 32 != 0)?;
    let limit = opt_f32(r, flags & 64 != 0)?;
    let fps = r.u8()?;
    let (inertia, strength, damping) = (r.f32()?, r.f32()?, r.f32()?);
    let mass_inverse = opt_f32(r, flags & 128 != 0)?;
    let (wind, gravity) = (r.f32()?, r.f32()?);
    let flags2 = r.u8()?;
    let mix = opt_f32(r, flags2 & 128 != 0)?;
    Ok(PhysicsConstraint {
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
    })
}

fn read_skin<'a>(
    r: &mut Reader<'a>,
    c: &Ctx,
    table: &[&'a str],
    linked_skins: &mut Vec<(usize, u32)>,
) -> Result<Skin, BinaryError> {
    let at = r.pos();
    let name = if c.v42() {
        let n = r.name("skin")?;
        r.name_item(n);
        Name::Inline(n.to_owned())
    } else {
        let n = r.str_ref(c.strings)?;
        match n.index().and_then(|i| table.get(i)) {
            Some(s) => r.name_item(s),
            None => return Err(r.invalid_at(at, "skin name is null")),
        }
        Name::Ref(n)
    };
    let color = if c.v42() && c.nonessential { Some(r.rgba()?) } else { None };
    let bones = read_indices(r, "skin bone", c.bones)?;
    let ik = read_indices(r, "skin ik constraint", c.ik)?;
    let transform = read_indices(r, "skin transform constraint", c.transform)?;
    let path = read_indices(r, "skin path constraint", c.path)?;
    let physics =
        if c.v42() { read_indices(r, "skin physics constraint", c.physics)? } else { Vec::new() };
    let n = r.count("skin slot", 2)?;
    let slots = read_skin_slots(r, c, n, linked_skins)?;
    Ok(Skin { name, color, bones, ik, transform, path, physics, slots })
}

fn read_skin_slots(
    r: &mut Reader<'_>,
    c: &Ctx,
    n: usize,
    linked_skins: &mut Vec<(usize, u32)>,
) -> Result<SkinSlots, BinaryError> {
    let mut slots = Vec::with_capacity(n);
    // The attachments go to a reused scratch list, then are moved into an exact one (their
    // count is only known at the end).
    let mut attachments = c.skin_attachments.take();
    attachments.clear();
    // At least one attachment per slot (bounded by the remaining input).
    attachments.reserve(n.min(r.remaining() / 3));
    for i in 0..n {
        r.enter_item("slots", i);
        let slot = r.index("slot", c.slots)?;
        let m = r.count("attachment", 3)?;
        attachments.reserve(m);
        for j in 0..m {
            r.enter_item("attachments", j);
            let key = r.str_ref(c.strings)?;
            let attachment = read_attachment(r, c, linked_skins)?;
            attachments.push(SkinAttachment { key, attachment });
            r.leave();
        }
        slots.push((slot, m as u32));
        r.leave();
    }
    // Drained, not taken: the scratch keeps its capacity, the skin gets an exact list.
    #[allow(clippy::drain_collect)]
    let skin = SkinSlots { slots, attachments: attachments.drain(..).collect() };
    c.skin_attachments.set(attachments);
    Ok(skin)
}

fn read_sequence(r: &mut Reader<'_>) -> Result<Sequence, BinaryError> {
    let [count, start, digits, setup_index] = crate::binary::shared::read_sequence(r)?;
    Ok(Sequence { count, start, digits, setup_index })
}

/// Reads an optional sequence: 4.1 writes a presence bool, 4.2 uses flag bit 64, 4.0 has none.
fn read_opt_sequence(
    r: &mut Reader<'_>,
    c: &Ctx,
    flags: u8,
) -> Result<Option<Sequence>, BinaryError> {
    let present = if c.v42() {
        flags & 64 != 0
    } else if c.v41() {
        r.bool()?
    } else {
        false
    };
    if present {
        Ok(Some(read_sequence(r)?))
    } else {
        Ok(None)
    }
}

fn opt_color(r: &mut Reader<'_>, present: bool) -> Result<Option<[u8; 4]>, BinaryError> {
    if present {
        Ok(Some(r.rgba()?))
    } else {
        Ok(None)
    }
}

/// Reads `count` vertices, weighted or not.
fn read_vertices(
    r: &mut Reader<'_>,
    c: &Ctx,
    count: usize,
    weighted: bool,
) -> Result<Vertices, BinaryError> {
    if !weighted {
        r.check_count(r.pos(), "vertex", count as u64, 8)?;
        let mut v = Vec::with_capacity(count * 2);
        r.f32s_into(count * 2, &mut v)?;
        return Ok(Vertices::Plain(v));
    }
    r.check_count(r.pos(), "vertex", count as u64, 1)?;
    let mut counts = Vec::with_capacity(count);
    // The influences go to reused scratch buffers, then are copied into exact ones (the
    // influence count is only known at the end; growing two buffers costs more).
    let mut bones = c.weight_bones.take();
    let mut values = c.weight_values.take();
    bones.clear();
    values.clear();
    // Most meshes have one to three influences per vertex; bounded by the remaining input.
    let guess = (count * 2).min(r.remaining() / 13);
    bones.reserve(guess);
    values.reserve(guess * 3);
    for _ in 0..count {
        let n = r.count("vertex bone", 13)?;
        counts.push(n as u32);
        bones.reserve(n);
        values.reserve(n * 3);
        for _ in 0..n {
            let (bone, xyw) = match r.index_f32x3(c.bones) {
                Some(w) => w,
                None => (r.index("vertex bone", c.bones)?, r.f32x3()?),
            };
            bones.push(bone);
            values.extend_from_slice(&xyw);
        }
    }
    let v = WeightedVertices { counts, bones: bones.to_vec(), values: values.to_vec() };
    c.weight_bones.set(bones);
    c.weight_values.set(values);
    Ok(Vertices::Weighted(v))
}

/// Reads a vertex count and the vertices (4.0/4.1: a `weighted` bool follows the count).
fn read_counted_vertices(
    r: &mut Reader<'_>,
    c: &Ctx,
    weighted_flag: bool,
) -> Result<Vertices, BinaryError> {
    let count = r.count("vertex", 1)?;
    let weighted = if c.v42() { weighted_flag } else { r.bool()? };
    read_vertices(r, c, count, weighted)
}

fn read_f32s(r: &mut Reader<'_>, what: &'static str, n: usize) -> Result<Vec<f32>, BinaryError> {
    r.check_count(r.pos(), what, n as u64, 4)?;
    let mut v = Vec::with_capacity(n);
    r.f32s_into(n, &mut v)?;
    Ok(v)
}

/// 4.0/4.1: a count then 16-bit values. 4.2: `n` varints (the caller knows the count).
fn read_shorts(
    r: &mut Reader<'_>,
    c: &Ctx,
    what: &'static str,
    n: Option<usize>,
) -> Result<Vec<u32>, BinaryError> {
    let n = match n {
        Some(n) => n,
        None => r.count(what, if c.v42() { 1 } else { 2 })?,
    };
    r.check_count(r.pos(), what, n as u64, if c.v42() { 1 } else { 2 })?;
    let mut v = Vec::with_capacity(n);
    if c.v42() {
        r.varints_into(n, &mut v)?;
        return Ok(v);
    }
    for _ in 0..n {
        v.push({
            let b = r.bytes(2)?;
            u32::from(u16::from_be_bytes([b[0], b[1]]))
        });
    }
    Ok(v)
}

fn read_attachment(
    r: &mut Reader<'_>,
    c: &Ctx,
    linked_skins: &mut Vec<(usize, u32)>,
) -> Result<Attachment, BinaryError> {
    let v42 = c.v42();
    let (flags, name, ty, type_at) = if v42 {
        let at = r.pos();
        let flags = r.u8()?;
        let name = if flags & 8 != 0 { r.str_ref(c.strings)? } else { StrRef::NONE };
        (flags, name, flags & 7, at)
    } else {
        let name = r.str_ref(c.strings)?;
        let at = r.pos();
        let t = r.u8()?;
        (t, name, t, at)
    };
    let bit = |b: u8| flags & b != 0;
    let kind = match ty {
        attachment_type::REGION => {
            r.enter("region");
            let region = if v42 {
                let path = if bit(16) { r.str_ref(c.strings)? } else { StrRef::NONE };
                let color = if bit(32) { r.rgba()? } else { [0xff; 4] };
                let sequence = read_opt_sequence(r, c, flags)?;
                let rotation = if bit(128) { r.f32()? } else { 0.0 };
                Region {
                    path,
                    color,
                    sequence,
                    rotation,
                    x: r.f32()?,
                    y: r.f32()?,
                    scale_x: r.f32()?,
                    scale_y: r.f32()?,
                    width: r.f32()?,
                    height: r.f32()?,
                }
            } else {
                let path = r.str_ref(c.strings)?;
                let (rotation, x, y) = (r.f32()?, r.f32()?, r.f32()?);
                let (scale_x, scale_y, width, height) = (r.f32()?, r.f32()?, r.f32()?, r.f32()?);
                let color = r.rgba()?;
                let sequence = read_opt_sequence(r, c, flags)?;
                Region { path, color, sequence, rotation, x, y, scale_x, scale_y, width, height }
            };
            AttachmentKind::Region(region)
        }
        attachment_type::BOUNDING_BOX => {
            r.enter("bounding box");
            let vertices = read_counted_vertices(r, c, bit(16))?;
            let color = opt_color(r, c.nonessential)?;
            AttachmentKind::BoundingBox(VertexShape { vertices, color })
        }
        attachment_type::MESH => {
            r.enter("mesh");
            AttachmentKind::Mesh(read_mesh(r, c, flags)?)
        }
        attachment_type::LINKED_MESH => {
            r.enter("linked mesh");
            let lm = if v42 {
                let path = if bit(16) { r.str_ref(c.strings)? } else { StrRef::NONE };
                let color = if bit(32) { r.rgba()? } else { [0xff; 4] };
                let sequence = read_opt_sequence(r, c, flags)?;
                let at = r.pos();
                let skin = r.varint()?;
                linked_skins.push((at, skin));
                let parent = r.str_ref(c.strings)?;
                let size = if c.nonessential { Some([r.f32()?, r.f32()?]) } else { None };
                LinkedMesh {
                    path,
                    color,
                    sequence,
                    skin: SkinRef::Index(skin),
                    parent,
                    inherit_timelines: bit(128),
                    size,
                }
            } else {
                let path = r.str_ref(c.strings)?;
                let color = r.rgba()?;
                let skin = SkinRef::Name(r.str_ref(c.strings)?);
                let parent = r.str_ref(c.strings)?;
                let inherit_timelines = r.bool()?;
                let sequence = read_opt_sequence(r, c, flags)?;
                let size = if c.nonessential { Some([r.f32()?, r.f32()?]) } else { None };
                LinkedMesh { path, color, sequence, skin, parent, inherit_timelines, size }
            };
            AttachmentKind::LinkedMesh(lm)
        }
        attachment_type::PATH => {
            r.enter("path");
            let (closed, constant_speed) =
                if v42 { (bit(16), bit(32)) } else { (r.bool()?, r.bool()?) };
            let vertices = read_counted_vertices(r, c, bit(64))?;
            let lengths = read_f32s(r, "path length", vertices.count() / 3)?;
            let color = opt_color(r, c.nonessential)?;
            AttachmentKind::Path(PathAttachment {
                closed,
                constant_speed,
                vertices,
                lengths,
                color,
            })
        }
        attachment_type::POINT => {
            r.enter("point");
            let (rotation, x, y) = (r.f32()?, r.f32()?, r.f32()?);
            let color = opt_color(r, c.nonessential)?;
            AttachmentKind::Point(Point { rotation, x, y, color })
        }
        attachment_type::CLIPPING => {
            r.enter("clipping");
            let end_slot = r.index("clipping end slot", c.slots)?;
            let vertices = read_counted_vertices(r, c, bit(16))?;
            let color = opt_color(r, c.nonessential)?;
            AttachmentKind::Clipping(Clipping { end_slot, vertices, color })
        }
        t => return Err(bad_enum(r, type_at, "attachment type", t.into())),
    };
    r.leave();
    Ok(Attachment { flags, name, kind })
}

fn read_mesh(r: &mut Reader<'_>, c: &Ctx, flags: u8) -> Result<Mesh, BinaryError> {
    if c.v42() {
        let path = if flags & 16 != 0 { r.str_ref(c.strings)? } else { StrRef::NONE };
        let color = if flags & 32 != 0 { r.rgba()? } else { [0xff; 4] };
        let sequence = read_opt_sequence(r, c, flags)?;
        let hull = r.varint()?;
        let vertices = read_counted_vertices(r, c, flags & 128 != 0)?;
        let n = vertices.count();
        let uvs = read_f32s(r, "uv", n * 2)?;
        let at = r.pos();
        let tri = (2 * n as i64 - i64::from(hull) - 2) * 3;
        if tri < 0 {
            return Err(r.invalid_at(
                at,
                format!("mesh with {n} vertices cannot have a hull of {hull} vertices"),
            ));
        }
        let triangles = read_shorts(r, c, "triangle index", Some(tri as usize))?;
        let extras = if c.nonessential {
            Some(MeshExtras {
                edges: read_shorts(r, c, "edge", None)?,
                width: r.f32()?,
                height: r.f32()?,
            })
        } else {
            None
        };
        return Ok(Mesh { path, color, sequence, uvs, triangles, vertices, hull, extras });
    }
    let path = r.str_ref(c.strings)?;
    let color = r.rgba()?;
    let n = r.count("vertex", 8)?;
    let uvs = read_f32s(r, "uv", n * 2)?;
    let triangles = read_shorts(r, c, "triangle index", None)?;
    let weighted = r.bool()?;
    let vertices = read_vertices(r, c, n, weighted)?;
    let hull = r.varint()?;
    let sequence = read_opt_sequence(r, c, flags)?;
    let extras = if c.nonessential {
        Some(MeshExtras {
            edges: read_shorts(r, c, "edge", None)?,
            width: r.f32()?,
            height: r.f32()?,
        })
    } else {
        None
    };
    Ok(Mesh { path, color, sequence, uvs, triangles, vertices, hull, extras })
}

fn read_event<'a>(
    r: &mut Reader<'a>,
    c: &Ctx,
    table: &[&'a str],
) -> Result<EventData, BinaryError> {
    let at = r.pos();
    let name = if c.v42() {
        let n = r.name("event")?;
        r.name_item(n);
        Name::Inline(n.to_owned())
    } else {
        let n = r.str_ref(c.strings)?;
        match n.index().and_then(|i| table.get(i)) {
            Some(s) => r.name_item(s),
            None => return Err(r.invalid_at(at, "event name is null")),
        }
        Name::Ref(n)
    };
    let int = r.varint_signed()?;
    let float = r.f32()?;
    let string = r.string()?;
    let audio = match r.string()? {
        Some(path) => Some(EventAudio { path, volume: r.f32()?, balance: r.f32()? }),
        None => None,
    };
    Ok(EventData { name, int, float, string, audio })
}
