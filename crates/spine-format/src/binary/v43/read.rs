//! Reader of the setup-pose sections: header, string table, bones, slots, constraints,
//! skins and attachments, events; then animations (see [`super::read_anim`]) and the
//! trailing slider animation indices.

use super::ast::*;
use super::read_anim::read_animation;
use crate::binary::prim::{Reader, StrRef};
use crate::error::{BinaryError, BinaryErrorKind};
use crate::Limits;

/// What later sections need to know about earlier ones.
pub(super) struct Ctx {
    pub nonessential: bool,
    pub strings: usize,
    pub bones: usize,
    pub slots: usize,
    pub constraints: Vec<ConstraintType>,
    pub skins: usize,
    pub event_audio: Vec<bool>,
}

pub(super) fn bad_enum(r: &Reader<'_>, at: usize, what: &'static str, v: i64) -> BinaryError {
    r.err_at(at, BinaryErrorKind::BadEnum { what, value: v })
}

/// A byte enum read through `f`, which maps known values.
pub(super) fn enum_u8<T>(
    r: &mut Reader<'_>,
    what: &'static str,
    f: impl Fn(u8) -> Option<T>,
) -> Result<T, BinaryError> {
    let at = r.pos();
    let v = r.u8()?;
    f(v).ok_or_else(|| bad_enum(r, at, what, i64::from(v)))
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

fn opt_f32(r: &mut Reader<'_>, present: bool) -> Result<Option<f32>, BinaryError> {
    if present {
        Ok(Some(r.f32()?))
    } else {
        Ok(None)
    }
}

fn opt_rgba(r: &mut Reader<'_>, present: bool) -> Result<Option<[u8; 4]>, BinaryError> {
    if present {
        Ok(Some(r.rgba()?))
    } else {
        Ok(None)
    }
}

/// A list of indices `< len`: a count, then one varint each.
pub(super) fn index_list(
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

/// Parses a whole 4.3 file.
pub(super) fn read_skeleton(bytes: &[u8], limits: Limits) -> Result<Skeleton, BinaryError> {
    let mut r = Reader::with_limits(bytes, limits);
    r.check_file_size()?;
    let header = read_header(&mut r)?;
    let nonessential = header.nonessential.is_some();

    r.enter("strings");
    let n = r.count("string", 1)?;
    let mut strings = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("strings", i);
        strings.push(r.string()?);
        r.leave();
    }
    r.leave();

    let mut ctx = Ctx {
        nonessential,
        strings: strings.len(),
        bones: 0,
        slots: 0,
        constraints: Vec::new(),
        skins: 0,
        event_audio: Vec::new(),
    };

    let bones = read_bones(&mut r, &ctx)?;
    ctx.bones = bones.len();
    let slots = read_slots(&mut r, &ctx)?;
    ctx.slots = slots.len();
    let mut constraints = read_constraints(&mut r, &ctx)?;
    ctx.constraints = constraints.iter().map(|c| c.kind.constraint_type()).collect();

    let mut linked = Vec::new();
    r.enter("default skin");
    let slot_count = r.count("skin slot", 2)?;
    let default_skin = if slot_count == 0 {
        None
    } else {
        Some(read_skin_slots(&mut r, &ctx, slot_count, &mut linked)?)
    };
    r.leave();

    r.enter("skins");
    let n = r.count("skin", 4)?;
    let mut skins = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("skins", i);
        skins.push(read_skin(&mut r, &ctx, &mut linked)?);
        r.leave();
    }
    r.leave();
    ctx.skins = skins.len() + usize::from(default_skin.is_some());
    r.enter("linked meshes");
    for (at, skin) in linked {
        if skin as usize >= ctx.skins {
            return Err(r.err_at(
                at,
                BinaryErrorKind::IndexOutOfRange {
                    what: "skin",
                    index: u64::from(skin),
                    len: ctx.skins,
                },
            ));
        }
    }
    r.leave();

    let events = read_events(&mut r)?;
    ctx.event_audio = events.iter().map(Event::has_audio).collect();

    r.enter("animations");
    let n = r.count("animation", 12)?;
    let mut animations = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("animations", i);
        let name = r.name("animation")?;
        r.name_item(name);
        animations.push(read_animation(&mut r, &ctx, name.to_owned())?);
        r.leave();
    }
    r.leave();

    r.enter("slider animations");
    for (i, c) in constraints.iter_mut().enumerate() {
        if let ConstraintKind::Slider(s) = &mut c.kind {
            r.enter_item("constraints", i);
            s.animation = r.index("animation", animations.len())?;
            r.leave();
        }
    }
    r.leave();
    r.expect_end()?;

    Ok(Skeleton {
        header,
        strings,
        bones,
        slots,
        constraints,
        default_skin,
        skins,
        events,
        animations,
    })
}

fn read_header(r: &mut Reader<'_>) -> Result<Header, BinaryError> {
    let hash_low = r.i32()?;
    let hash_high = r.i32()?;
    let at = r.pos();
    let version = r.string()?.unwrap_or_default();
    if !version.starts_with("4.3") {
        return Err(
            r.err_at(at, BinaryErrorKind::UnsupportedVersion { found: version, supported: "4.3" })
        );
    }
    let x = r.f32()?;
    let y = r.f32()?;
    let width = r.f32()?;
    let height = r.f32()?;
    let reference_scale = r.f32()?;
    let nonessential = if r.bool()? {
        Some(NonessentialHeader {
            fps: r.f32()?,
            images_path: r.string()?,
            audio_path: r.string()?,
        })
    } else {
        None
    };
    Ok(Header { hash_low, hash_high, version, x, y, width, height, reference_scale, nonessential })
}

fn read_bones(r: &mut Reader<'_>, ctx: &Ctx) -> Result<Vec<Bone>, BinaryError> {
    r.enter("bones");
    let n = r.count("bone", 35)?;
    let mut bones = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("bones", i);
        let name = r.name("bone")?;
        r.name_item(name);
        let parent = if i == 0 { None } else { Some(r.index("parent bone", i)?) };
        let bone = Bone {
            name: name.to_owned(),
            parent,
            rotation: r.f32()?,
            x: r.f32()?,
            y: r.f32()?,
            scale_x: r.f32()?,
            scale_y: r.f32()?,
            shear_x: r.f32()?,
            shear_y: r.f32()?,
            inherit: enum_u8(r, "inherit", inherit_of)?,
            length: r.f32()?,
            skin_required: r.bool()?,
            nonessential: if ctx.nonessential {
                Some(BoneExtras {
                    color: r.rgba()?,
                    icon: r.string()?,
                    icon_size: r.f32()?,
                    icon_rotation: r.f32()?,
                    visible: r.bool()?,
                })
            } else {
                None
            },
        };
        bones.push(bone);
        r.leave();
    }
    r.leave();
    Ok(bones)
}

fn read_slots(r: &mut Reader<'_>, ctx: &Ctx) -> Result<Vec<Slot>, BinaryError> {
    r.enter("slots");
    let n = r.count("slot", 12)?;
    let mut slots = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("slots", i);
        let name = r.name("slot")?;
        r.name_item(name);
        let bone = r.index("bone", ctx.bones)?;
        let color = r.rgba()?;
        let dark_color = r.rgba()?;
        let attachment = r.str_ref(ctx.strings)?;
        let at = r.pos();
        let blend = match r.varint()? {
            0 => BlendMode::Normal,
            1 => BlendMode::Additive,
            2 => BlendMode::Multiply,
            3 => BlendMode::Screen,
            v => return Err(bad_enum(r, at, "blend mode", i64::from(v))),
        };
        let visible = if ctx.nonessential { Some(r.bool()?) } else { None };
        slots.push(Slot {
            name: name.to_owned(),
            bone,
            color,
            dark_color,
            attachment,
            blend,
            visible,
        });
        r.leave();
    }
    r.leave();
    Ok(slots)
}

fn read_constraints(r: &mut Reader<'_>, ctx: &Ctx) -> Result<Vec<Constraint>, BinaryError> {
    r.enter("constraints");
    let n = r.count("constraint", 3)?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("constraints", i);
        let name = r.name("constraint")?;
        r.name_item(name);
        let at = r.pos();
        let kind = match r.u8()? {
            0 => ConstraintKind::Ik(read_ik(r, ctx)?),
            1 => ConstraintKind::Path(read_path(r, ctx)?),
            2 => ConstraintKind::Transform(read_transform(r, ctx)?),
            3 => ConstraintKind::Physics(read_physics(r, ctx)?),
            4 => ConstraintKind::Slider(read_slider(r, ctx)?),
            v => return Err(bad_enum(r, at, "constraint type", i64::from(v))),
        };
        out.push(Constraint { name: name.to_owned(), kind });
        r.leave();
    }
    r.leave();
    Ok(out)
}

fn scale_y_mode_of(v: u8) -> Option<ScaleYMode> {
    Some(match v {
        0 => ScaleYMode::None,
        1 => ScaleYMode::Uniform,
        2 => ScaleYMode::Volume,
        _ => return None,
    })
}

fn read_ik(r: &mut Reader<'_>, ctx: &Ctx) -> Result<IkConstraint, BinaryError> {
    let bones = index_list(r, "bone", ctx.bones)?;
    let target = r.index("bone", ctx.bones)?;
    let flags = r.u8()?;
    let scale_y_mode =
        if flags & 2 != 0 { Some(enum_u8(r, "scale y mode", scale_y_mode_of)?) } else { None };
    let mix = opt_f32(r, flags & 32 != 0 && flags & 64 != 0)?;
    let softness = opt_f32(r, flags & 128 != 0)?;
    Ok(IkConstraint { bones, target, flags, scale_y_mode, mix, softness })
}

fn read_transform(r: &mut Reader<'_>, ctx: &Ctx) -> Result<TransformConstraint, BinaryError> {
    let bones = index_list(r, "bone", ctx.bones)?;
    let source = r.index("bone", ctx.bones)?;
    let flags = r.u8()?;
    let n_from = usize::from(flags >> 5);
    let mut properties = Vec::with_capacity(n_from);
    for i in 0..n_from {
        r.enter_item("from", i);
        let property = enum_u8(r, "transform property", property_of)?;
        let offset = r.f32()?;
        let at = r.pos();
        let n_to = usize::from(r.u8()?);
        r.check_count(at, "to property", n_to as u64, 13)?;
        let mut to = Vec::with_capacity(n_to);
        for _ in 0..n_to {
            to.push(ToProperty {
                property: enum_u8(r, "transform property", property_of)?,
                offset: r.f32()?,
                max: r.f32()?,
                scale: r.f32()?,
            });
        }
        properties.push(FromProperty { property, offset, to });
        r.leave();
    }
    let offset_flags = r.u8()?;
    let mut offsets = [None; 6];
    for (bit, o) in offsets.iter_mut().enumerate() {
        *o = opt_f32(r, offset_flags & (1 << bit) != 0)?;
    }
    let mix_flags = r.u8()?;
    let mut mixes = [None; 6];
    for (bit, m) in mixes.iter_mut().enumerate() {
        *m = opt_f32(r, mix_flags & (1 << bit) != 0)?;
    }
    Ok(TransformConstraint {
        bones,
        source,
        flags: flags & 0x1f,
        properties,
        offset_flags,
        offsets,
        mix_flags,
        mixes,
    })
}

fn read_path(r: &mut Reader<'_>, ctx: &Ctx) -> Result<PathConstraint, BinaryError> {
    let bones = index_list(r, "bone", ctx.bones)?;
    let slot = r.index("slot", ctx.slots)?;
    let at = r.pos();
    let flags = r.u8()?;
    if (flags >> 4) & 3 == 3 {
        return Err(bad_enum(r, at, "rotate mode", 3));
    }
    Ok(PathConstraint {
        bones,
        slot,
        flags,
        offset_rotation: opt_f32(r, flags & 128 != 0)?,
        position: r.f32()?,
        spacing: r.f32()?,
        mix_rotate: r.f32()?,
        mix_x: r.f32()?,
        mix_y: r.f32()?,
    })
}

fn read_physics(r: &mut Reader<'_>, ctx: &Ctx) -> Result<PhysicsConstraint, BinaryError> {
    let bone = r.index("bone", ctx.bones)?;
    let flags = r.u8()?;
    let x = opt_f32(r, flags & 2 != 0)?;
    let y = opt_f32(r, flags & 4 != 0)?;
    let rotate = opt_f32(r, flags & 8 != 0)?;
    let scale_x = opt_f32(r, flags & 16 != 0)?;
    let shear_x = opt_f32(r, flags & 32 != 0)?;
    let limit = opt_f32(r, flags & 64 != 0)?;
    let fps = r.u8()?;
    let inertia = r.f32()?;
    let strength = r.f32()?;
    let damping = r.f32()?;
    let mass_inverse = opt_f32(r, flags & 128 != 0)?;
    let wind = r.f32()?;
    let gravity = r.f32()?;
    let global_flags = r.u8()?;
    let mix = opt_f32(r, global_flags & 128 != 0)?;
    Ok(PhysicsConstraint {
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
    })
}

fn read_slider(r: &mut Reader<'_>, ctx: &Ctx) -> Result<SliderConstraint, BinaryError> {
    let flags = r.u8()?;
    let value = opt_f32(r, flags & 8 != 0)?;
    let mix = opt_f32(r, flags & 16 != 0 && flags & 32 != 0)?;
    let bone = if flags & 64 != 0 {
        Some(SliderBone {
            bone: r.index("bone", ctx.bones)?,
            property_offset: r.f32()?,
            property: enum_u8(r, "transform property", property_of)?,
            offset: r.f32()?,
            scale: r.f32()?,
        })
    } else {
        None
    };
    Ok(SliderConstraint { flags, value, mix, bone, animation: 0 })
}

fn read_skin(
    r: &mut Reader<'_>,
    ctx: &Ctx,
    linked: &mut Vec<(usize, u32)>,
) -> Result<Skin, BinaryError> {
    let name = r.name("skin")?;
    r.name_item(name);
    let color = opt_rgba(r, ctx.nonessential)?;
    let bones = index_list(r, "bone", ctx.bones)?;
    let constraints = index_list(r, "constraint", ctx.constraints.len())?;
    let n = r.count("skin slot", 2)?;
    let slots = read_skin_slots(r, ctx, n, linked)?;
    Ok(Skin { name: name.to_owned(), color, bones, constraints, slots })
}

fn read_skin_slots(
    r: &mut Reader<'_>,
    ctx: &Ctx,
    n: usize,
    linked: &mut Vec<(usize, u32)>,
) -> Result<Vec<SkinSlot>, BinaryError> {
    let mut slots = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("slots", i);
        let slot = r.index("slot", ctx.slots)?;
        let m = r.count("attachment", 2)?;
        let mut attachments = Vec::with_capacity(m);
        for j in 0..m {
            r.enter_item("attachments", j);
            let placeholder = r.str_ref(ctx.strings)?;
            let attachment = read_attachment(r, ctx, linked)?;
            attachments.push(SkinEntry { placeholder, attachment });
            r.leave();
        }
        slots.push(SkinSlot { slot, attachments });
        r.leave();
    }
    Ok(slots)
}

fn read_sequence(r: &mut Reader<'_>, present: bool) -> Result<Option<Sequence>, BinaryError> {
    if !present {
        return Ok(None);
    }
    let [count, start, digits, setup_index] = crate::binary::shared::read_sequence(r)?;
    Ok(Some(Sequence { count, start, digits, setup_index }))
}

fn read_floats(r: &mut Reader<'_>, what: &'static str, n: usize) -> Result<Vec<f32>, BinaryError> {
    r.check_count(r.pos(), what, n as u64, 4)?;
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        v.push(r.f32()?);
    }
    Ok(v)
}

fn read_vertices(r: &mut Reader<'_>, ctx: &Ctx, weighted: bool) -> Result<Vertices, BinaryError> {
    r.enter("vertices");
    let at = r.pos();
    let vertex_count = r.varint()?;
    let out = if !weighted {
        r.check_count(at, "vertex", u64::from(vertex_count), 8)?;
        Vertices::Unweighted(read_floats(r, "vertex", vertex_count as usize * 2)?)
    } else {
        r.check_count(at, "vertex", u64::from(vertex_count), 1)?;
        let at = r.pos();
        let bones_length = r.varint()? as usize;
        r.check_count(at, "bones entry", bones_length as u64, 1)?;
        let mut groups = Vec::with_capacity(vertex_count as usize);
        let mut b = 0usize;
        while b < bones_length {
            let at = r.pos();
            let n = r.varint()? as usize;
            if n >= bones_length - b {
                return Err(r.invalid_at(
                    at,
                    format!("vertex bone count {n} overruns bonesLength {bones_length}"),
                ));
            }
            r.check_count(at, "vertex bone", n as u64, 13)?;
            b += n + 1;
            let mut g = Vec::with_capacity(n);
            for _ in 0..n {
                g.push(BoneWeight {
                    bone: r.index("bone", ctx.bones)?,
                    x: r.f32()?,
                    y: r.f32()?,
                    weight: r.f32()?,
                });
            }
            groups.push(g);
        }
        if groups.len() != vertex_count as usize {
            return Err(r.invalid_at(
                at,
                format!(
                    "bonesLength {bones_length} covers {} vertices, not {vertex_count}",
                    groups.len()
                ),
            ));
        }
        Vertices::Weighted(groups)
    };
    r.leave();
    Ok(out)
}

fn read_attachment(
    r: &mut Reader<'_>,
    ctx: &Ctx,
    linked: &mut Vec<(usize, u32)>,
) -> Result<Attachment, BinaryError> {
    let at = r.pos();
    let flags = r.u8()?;
    let name = if flags & 8 != 0 { Some(r.str_ref(ctx.strings)?) } else { None };
    let ne = ctx.nonessential;
    let opt_ref = |r: &mut Reader<'_>, present: bool| -> Result<Option<StrRef>, BinaryError> {
        if present {
            Ok(Some(r.str_ref(ctx.strings)?))
        } else {
            Ok(None)
        }
    };
    let kind = match flags & 7 {
        0 => AttachmentKind::Region(RegionAttachment {
            path: opt_ref(r, flags & 16 != 0)?,
            color: opt_rgba(r, flags & 32 != 0)?,
            sequence: read_sequence(r, flags & 64 != 0)?,
            rotation: opt_f32(r, flags & 128 != 0)?,
            x: r.f32()?,
            y: r.f32()?,
            scale_x: r.f32()?,
            scale_y: r.f32()?,
            width: r.f32()?,
            height: r.f32()?,
        }),
        1 => AttachmentKind::BoundingBox(BoundingBoxAttachment {
            vertices: read_vertices(r, ctx, flags & 16 != 0)?,
            color: opt_rgba(r, ne)?,
        }),
        2 => {
            let path = opt_ref(r, flags & 16 != 0)?;
            let color = opt_rgba(r, flags & 32 != 0)?;
            let sequence = read_sequence(r, flags & 64 != 0)?;
            let hull_length = r.varint()?;
            let vertices = read_vertices(r, ctx, flags & 128 != 0)?;
            let len = vertices.world_length();
            let uvs = read_floats(r, "uv", len)?;
            // Gotcha 1: the hull count is undoubled while `len` is doubled.
            let at = r.pos();
            let tri = (len as i64 - i64::from(hull_length) - 2) * 3;
            if tri < 0 {
                return Err(r.invalid_at(
                    at,
                    format!("hull length {hull_length} too large for {len} vertex floats"),
                ));
            }
            r.check_count(at, "triangle index", tri as u64, 1)?;
            let mut triangles = Vec::with_capacity(tri as usize);
            for _ in 0..tri {
                triangles.push(r.varint()?);
            }
            let timeline_slots = index_list(r, "slot", ctx.slots)?;
            let nonessential = if ne {
                let n = r.count("edge", 1)?;
                let mut edges = Vec::with_capacity(n);
                for _ in 0..n {
                    edges.push(r.varint()?);
                }
                Some(MeshExtras { edges, width: r.f32()?, height: r.f32()? })
            } else {
                None
            };
            AttachmentKind::Mesh(MeshAttachment {
                path,
                color,
                sequence,
                hull_length,
                vertices,
                uvs,
                triangles,
                timeline_slots,
                nonessential,
            })
        }
        3 => {
            let path = opt_ref(r, flags & 16 != 0)?;
            let color = opt_rgba(r, flags & 32 != 0)?;
            let sequence = read_sequence(r, flags & 64 != 0)?;
            let source_slot = r.index("slot", ctx.slots)?;
            let skin_at = r.pos();
            let skin = r.varint()?;
            linked.push((skin_at, skin));
            let source = r.str_ref(ctx.strings)?;
            let size = if ne { Some([r.f32()?, r.f32()?]) } else { None };
            AttachmentKind::LinkedMesh(LinkedMeshAttachment {
                path,
                color,
                sequence,
                source_slot,
                skin,
                source,
                size,
            })
        }
        4 => {
            let vertices = read_vertices(r, ctx, flags & 64 != 0)?;
            let lengths = read_floats(r, "path length", vertices.world_length() / 6)?;
            AttachmentKind::Path(PathAttachment { vertices, lengths, color: opt_rgba(r, ne)? })
        }
        5 => AttachmentKind::Point(PointAttachment {
            rotation: r.f32()?,
            x: r.f32()?,
            y: r.f32()?,
            color: opt_rgba(r, ne)?,
        }),
        6 => AttachmentKind::Clipping(ClippingAttachment {
            end_slot: r.index("slot", ctx.slots)?,
            vertices: read_vertices(r, ctx, flags & 16 != 0)?,
            color: opt_rgba(r, ne)?,
        }),
        v => return Err(bad_enum(r, at, "attachment type", i64::from(v))),
    };
    Ok(Attachment { flags, name, kind })
}

fn read_events(r: &mut Reader<'_>) -> Result<Vec<Event>, BinaryError> {
    r.enter("events");
    let n = r.count("event", 8)?;
    let mut events = Vec::with_capacity(n);
    for i in 0..n {
        r.enter_item("events", i);
        let name = r.name("event")?;
        r.name_item(name);
        let mut e = Event {
            name: name.to_owned(),
            int_value: r.varint_signed()?,
            float_value: r.f32()?,
            string_value: r.string()?,
            audio_path: r.string()?,
            volume_balance: None,
        };
        if e.has_audio() {
            e.volume_balance = Some([r.f32()?, r.f32()?]);
        }
        events.push(e);
        r.leave();
    }
    r.leave();
    Ok(events)
}
