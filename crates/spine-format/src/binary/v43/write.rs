//! Writer: the exact mirror of the reader (`write(parse(b)) == b`).

use super::ast::*;
use super::write_anim::write_animation;
use crate::binary::prim::Writer;

pub(super) fn opt_f32(w: &mut Writer, present: bool, v: Option<f32>) {
    if present {
        w.f32(v.unwrap_or_default());
    }
}

fn opt_rgba(w: &mut Writer, present: bool, v: Option<[u8; 4]>) {
    if present {
        w.rgba(v.unwrap_or([0xff; 4]));
    }
}

fn opt_ref(w: &mut Writer, present: bool, v: Option<crate::binary::StrRef>) {
    if present {
        w.str_ref(v.unwrap_or_default());
    }
}

pub(super) fn index_list(w: &mut Writer, v: &[u32]) {
    w.len(v.len());
    for &i in v {
        w.varint(i);
    }
}

pub(super) fn inherit_code(i: Inherit) -> u8 {
    match i {
        Inherit::Normal => 0,
        Inherit::OnlyTranslation => 1,
        Inherit::NoRotationOrReflection => 2,
        Inherit::NoScale => 3,
        Inherit::NoScaleOrReflection => 4,
    }
}

fn property_code(p: TransformProperty) -> u8 {
    match p {
        TransformProperty::Rotate => 0,
        TransformProperty::X => 1,
        TransformProperty::Y => 2,
        TransformProperty::ScaleX => 3,
        TransformProperty::ScaleY => 4,
        TransformProperty::ShearY => 5,
    }
}

/// Writes a whole skeleton.
pub(super) fn write_skeleton(s: &Skeleton) -> Vec<u8> {
    let mut w = Writer::with_capacity(64 * 1024);
    let h = &s.header;
    let ne = h.nonessential.is_some();
    w.i32(h.hash_low);
    w.i32(h.hash_high);
    w.str(Some(&h.version));
    for v in [h.x, h.y, h.width, h.height, h.reference_scale] {
        w.f32(v);
    }
    w.bool(ne);
    if let Some(n) = &h.nonessential {
        w.f32(n.fps);
        w.str(n.images_path.as_deref());
        w.str(n.audio_path.as_deref());
    }

    w.len(s.strings.len());
    for v in &s.strings {
        w.str(v.as_deref());
    }

    write_bones(&mut w, s, ne);

    write_slots(&mut w, s, ne);

    w.len(s.constraints.len());
    for c in &s.constraints {
        w.str(Some(&c.name));
        write_constraint(&mut w, &c.kind);
    }

    write_skins(&mut w, s, ne);

    write_events(&mut w, s);

    w.len(s.animations.len());
    for a in &s.animations {
        write_animation(&mut w, s, a, ne);
    }

    for c in &s.constraints {
        if let ConstraintKind::Slider(sl) = &c.kind {
            w.varint(sl.animation);
        }
    }
    w.finish()
}

/// The bones, parent first (nonessential: color, icon, visibility).
fn write_bones(w: &mut Writer, s: &Skeleton, ne: bool) {
    w.len(s.bones.len());
    for (i, b) in s.bones.iter().enumerate() {
        w.str(Some(&b.name));
        if i > 0 {
            w.varint(b.parent.unwrap_or_default());
        }
        for v in [b.rotation, b.x, b.y, b.scale_x, b.scale_y, b.shear_x, b.shear_y] {
            w.f32(v);
        }
        w.u8(inherit_code(b.inherit));
        w.f32(b.length);
        w.bool(b.skin_required);
        if ne {
            let e = b.nonessential.clone().unwrap_or_default();
            w.rgba(e.color);
            w.str(e.icon.as_deref());
            w.f32(e.icon_size);
            w.f32(e.icon_rotation);
            w.bool(e.visible);
        }
    }
}

/// The slots, in setup draw order.
fn write_slots(w: &mut Writer, s: &Skeleton, ne: bool) {
    w.len(s.slots.len());
    for sl in &s.slots {
        w.str(Some(&sl.name));
        w.varint(sl.bone);
        w.rgba(sl.color);
        w.rgba(sl.dark_color);
        w.str_ref(sl.attachment);
        w.varint(match sl.blend {
            BlendMode::Normal => 0,
            BlendMode::Additive => 1,
            BlendMode::Multiply => 2,
            BlendMode::Screen => 3,
        });
        if ne {
            w.bool(sl.visible.unwrap_or(true));
        }
    }
}

/// The default skin (its slot count 0 when absent) and the named skins.
fn write_skins(w: &mut Writer, s: &Skeleton, ne: bool) {
    match &s.default_skin {
        None => w.varint(0),
        Some(slots) => write_skin_slots(w, slots, ne),
    }
    w.len(s.skins.len());
    for sk in &s.skins {
        w.str(Some(&sk.name));
        if ne {
            w.rgba(sk.color.unwrap_or_default());
        }
        index_list(w, &sk.bones);
        index_list(w, &sk.constraints);
        write_skin_slots(w, &sk.slots, ne);
    }
}

/// The event definitions.
fn write_events(w: &mut Writer, s: &Skeleton) {
    w.len(s.events.len());
    for e in &s.events {
        w.str(Some(&e.name));
        w.varint_signed(e.int_value);
        w.f32(e.float_value);
        w.str(e.string_value.as_deref());
        w.str(e.audio_path.as_deref());
        if e.has_audio() {
            let [v, b] = e.volume_balance.unwrap_or([1.0, 0.0]);
            w.f32(v);
            w.f32(b);
        }
    }
}

fn write_constraint(w: &mut Writer, c: &ConstraintKind) {
    match c {
        ConstraintKind::Ik(k) => {
            w.u8(0);
            index_list(w, &k.bones);
            w.varint(k.target);
            w.u8(k.flags);
            if k.flags & 2 != 0 {
                w.u8(match k.scale_y_mode.unwrap_or_default() {
                    ScaleYMode::None => 0,
                    ScaleYMode::Uniform => 1,
                    ScaleYMode::Volume => 2,
                });
            }
            opt_f32(w, k.flags & 32 != 0 && k.flags & 64 != 0, k.mix);
            opt_f32(w, k.flags & 128 != 0, k.softness);
        }
        ConstraintKind::Path(p) => {
            w.u8(1);
            index_list(w, &p.bones);
            w.varint(p.slot);
            w.u8(p.flags);
            opt_f32(w, p.flags & 128 != 0, p.offset_rotation);
            for v in [p.position, p.spacing, p.mix_rotate, p.mix_x, p.mix_y] {
                w.f32(v);
            }
        }
        ConstraintKind::Transform(t) => {
            w.u8(2);
            index_list(w, &t.bones);
            w.varint(t.source);
            let n = t.properties.len().min(7) as u8;
            w.u8((t.flags & 0x1f) | (n << 5));
            for f in t.properties.iter().take(7) {
                w.u8(property_code(f.property));
                w.f32(f.offset);
                let m = f.to.len().min(255);
                w.u8(m as u8);
                for to in f.to.iter().take(m) {
                    w.u8(property_code(to.property));
                    w.f32(to.offset);
                    w.f32(to.max);
                    w.f32(to.scale);
                }
            }
            w.u8(t.offset_flags);
            for (bit, o) in t.offsets.iter().enumerate() {
                opt_f32(w, t.offset_flags & (1 << bit) != 0, *o);
            }
            w.u8(t.mix_flags);
            for (bit, m) in t.mixes.iter().enumerate() {
                opt_f32(w, t.mix_flags & (1 << bit) != 0, *m);
            }
        }
        ConstraintKind::Physics(p) => {
            w.u8(3);
            w.varint(p.bone);
            w.u8(p.flags);
            opt_f32(w, p.flags & 2 != 0, p.x);
            opt_f32(w, p.flags & 4 != 0, p.y);
            opt_f32(w, p.flags & 8 != 0, p.rotate);
            opt_f32(w, p.flags & 16 != 0, p.scale_x);
            opt_f32(w, p.flags & 32 != 0, p.shear_x);
            opt_f32(w, p.flags & 64 != 0, p.limit);
            w.u8(p.fps);
            w.f32(p.inertia);
            w.f32(p.strength);
            w.f32(p.damping);
            opt_f32(w, p.flags & 128 != 0, p.mass_inverse);
            w.f32(p.wind);
            w.f32(p.gravity);
            w.u8(p.global_flags);
            opt_f32(w, p.global_flags & 128 != 0, p.mix);
        }
        ConstraintKind::Slider(s) => {
            w.u8(4);
            w.u8(s.flags);
            opt_f32(w, s.flags & 8 != 0, s.value);
            opt_f32(w, s.flags & 16 != 0 && s.flags & 32 != 0, s.mix);
            if s.flags & 64 != 0 {
                let b = s.bone.clone().unwrap_or_default();
                w.varint(b.bone);
                w.f32(b.property_offset);
                w.u8(property_code(b.property));
                w.f32(b.offset);
                w.f32(b.scale);
            }
        }
    }
}

fn write_skin_slots(w: &mut Writer, slots: &[SkinSlot], ne: bool) {
    w.len(slots.len());
    for s in slots {
        w.varint(s.slot);
        w.len(s.attachments.len());
        for e in &s.attachments {
            w.str_ref(e.placeholder);
            write_attachment(w, &e.attachment, ne);
        }
    }
}

fn write_sequence(w: &mut Writer, present: bool, s: Option<Sequence>) {
    if present {
        let s = s.unwrap_or_default();
        for v in [s.count, s.start, s.digits, s.setup_index] {
            w.varint(v);
        }
    }
}

fn write_vertices(w: &mut Writer, v: &Vertices) {
    w.len(v.vertex_count());
    match v {
        Vertices::Unweighted(xy) => {
            for &x in xy {
                w.f32(x);
            }
        }
        Vertices::Weighted(vs) => {
            w.len(v.bones_length());
            for (&n, g) in vs.counts.iter().zip(vs.groups()) {
                w.len(n as usize);
                for b in g {
                    w.varint(b.bone);
                    w.f32(b.x);
                    w.f32(b.y);
                    w.f32(b.weight);
                }
            }
        }
    }
}

fn write_attachment(w: &mut Writer, a: &Attachment, ne: bool) {
    let f = (a.flags & !7) | a.kind.type_code();
    w.u8(f);
    opt_ref(w, f & 8 != 0, a.name);
    match &a.kind {
        AttachmentKind::Region(r) => {
            opt_ref(w, f & 16 != 0, r.path);
            opt_rgba(w, f & 32 != 0, r.color);
            write_sequence(w, f & 64 != 0, r.sequence);
            opt_f32(w, f & 128 != 0, r.rotation);
            for v in [r.x, r.y, r.scale_x, r.scale_y, r.width, r.height] {
                w.f32(v);
            }
        }
        AttachmentKind::BoundingBox(b) => {
            write_vertices(w, &b.vertices);
            opt_rgba(w, ne, b.color);
        }
        AttachmentKind::Mesh(m) => {
            opt_ref(w, f & 16 != 0, m.path);
            opt_rgba(w, f & 32 != 0, m.color);
            write_sequence(w, f & 64 != 0, m.sequence);
            w.varint(m.hull_length);
            write_vertices(w, &m.vertices);
            for &u in &m.uvs {
                w.f32(u);
            }
            for &t in &m.triangles {
                w.varint(t);
            }
            index_list(w, &m.timeline_slots);
            if ne {
                let e = m.nonessential.clone().unwrap_or_default();
                index_list(w, &e.edges);
                w.f32(e.width);
                w.f32(e.height);
            }
        }
        AttachmentKind::LinkedMesh(l) => {
            opt_ref(w, f & 16 != 0, l.path);
            opt_rgba(w, f & 32 != 0, l.color);
            write_sequence(w, f & 64 != 0, l.sequence);
            w.varint(l.source_slot);
            w.varint(l.skin);
            w.str_ref(l.source);
            if ne {
                let [a, b] = l.size.unwrap_or_default();
                w.f32(a);
                w.f32(b);
            }
        }
        AttachmentKind::Path(p) => {
            write_vertices(w, &p.vertices);
            for &l in &p.lengths {
                w.f32(l);
            }
            opt_rgba(w, ne, p.color);
        }
        AttachmentKind::Point(p) => {
            w.f32(p.rotation);
            w.f32(p.x);
            w.f32(p.y);
            opt_rgba(w, ne, p.color);
        }
        AttachmentKind::Clipping(c) => {
            w.varint(c.end_slot);
            write_vertices(w, &c.vertices);
            opt_rgba(w, ne, c.color);
        }
    }
}
