//! The 4.0–4.2 writer: the exact mirror of [`super::read`]. Flag bytes kept in the AST are
//! written as they are, and each optional field is written exactly when its bit is set (a
//! missing value then writes the loader's default).

use crate::binary::prim::{StrRef, Writer};
use crate::SpineVersion;

use super::ast::*;
use super::write_anim::write_animation;

/// What the writer needs to know about the file as a whole.
pub(super) struct Out {
    pub w: Writer,
    pub gen: SpineVersion,
    pub nonessential: bool,
    /// Per event: whether it has an audio path.
    pub event_audio: Vec<bool>,
}

impl Out {
    pub fn v41(&self) -> bool {
        self.gen >= SpineVersion::V4_1
    }

    pub fn v42(&self) -> bool {
        self.gen >= SpineVersion::V4_2
    }

    pub fn opt_f32(&mut self, present: bool, v: Option<f32>, default: f32) {
        if present {
            self.w.f32(v.unwrap_or(default));
        }
    }

    fn indices(&mut self, v: &[u32]) {
        self.w.len(v.len());
        for &i in v {
            self.w.varint(i);
        }
    }
}

/// Writes a whole file.
pub(super) fn write(s: &Skeleton) -> Vec<u8> {
    let mut o = Out {
        w: Writer::with_capacity(64 * 1024),
        gen: s.generation,
        nonessential: s.header.nonessential.is_some(),
        event_audio: s.events.iter().map(|e| e.audio.is_some()).collect(),
    };
    let h = &s.header;
    o.w.i32(h.hash[0]);
    o.w.i32(h.hash[1]);
    o.w.str(Some(&h.version));
    for v in [h.x, h.y, h.width, h.height] {
        o.w.f32(v);
    }
    if o.v42() {
        o.w.f32(h.reference_scale.unwrap_or(100.0));
    }
    o.w.bool(o.nonessential);
    if let Some(e) = &h.nonessential {
        o.w.f32(e.fps);
        o.w.str(e.images_path.as_deref());
        o.w.str(e.audio_path.as_deref());
    }

    o.w.len(s.strings.len());
    for st in &s.strings {
        o.w.str(Some(st));
    }

    o.w.len(s.bones.len());
    for (i, b) in s.bones.iter().enumerate() {
        write_bone(&mut o, b, i);
    }
    o.w.len(s.slots.len());
    for sl in &s.slots {
        write_slot(&mut o, sl);
    }
    o.w.len(s.ik_constraints.len());
    for c in &s.ik_constraints {
        write_ik(&mut o, c);
    }
    o.w.len(s.transform_constraints.len());
    for c in &s.transform_constraints {
        write_transform(&mut o, c);
    }
    o.w.len(s.path_constraints.len());
    for c in &s.path_constraints {
        write_path(&mut o, c);
    }
    if o.v42() {
        o.w.len(s.physics_constraints.len());
        for c in &s.physics_constraints {
            write_physics(&mut o, c);
        }
    }

    match &s.default_skin {
        Some(slots) => write_skin_slots(&mut o, slots),
        None => o.w.varint(0),
    }
    o.w.len(s.skins.len());
    for sk in &s.skins {
        write_skin(&mut o, sk);
    }

    o.w.len(s.events.len());
    for e in &s.events {
        write_name(&mut o, &e.name);
        o.w.varint_signed(e.int);
        o.w.f32(e.float);
        o.w.str(e.string.as_deref());
        match &e.audio {
            Some(a) => {
                o.w.str(Some(&a.path));
                o.w.f32(a.volume);
                o.w.f32(a.balance);
            }
            None => o.w.str(None),
        }
    }

    o.w.len(s.animations.len());
    for a in &s.animations {
        write_animation(&mut o, a);
    }
    o.w.finish()
}

fn write_name(o: &mut Out, n: &Name) {
    match n {
        Name::Ref(r) => o.w.str_ref(*r),
        Name::Inline(s) => o.w.str(Some(s)),
    }
}

fn write_bone(o: &mut Out, b: &Bone, i: usize) {
    o.w.str(Some(&b.name));
    if i > 0 {
        o.w.varint(b.parent.unwrap_or(0));
    }
    for v in [b.rotation, b.x, b.y, b.scale_x, b.scale_y, b.shear_x, b.shear_y, b.length] {
        o.w.f32(v);
    }
    if o.v42() {
        o.w.u8(b.inherit.to_wire());
    } else {
        o.w.varint(b.inherit.to_wire().into());
    }
    o.w.bool(b.skin_required);
    if o.nonessential {
        let e = b.extras.clone().unwrap_or(BoneExtras { color: [0; 4], icon: None, visible: true });
        o.w.rgba(e.color);
        if o.v42() {
            o.w.str(e.icon.as_deref());
            o.w.bool(e.visible);
        }
    }
}

fn write_slot(o: &mut Out, s: &Slot) {
    o.w.str(Some(&s.name));
    o.w.varint(s.bone);
    o.w.rgba(s.color);
    o.w.rgba(s.dark);
    o.w.str_ref(s.attachment);
    o.w.varint(s.blend.to_wire());
    if o.nonessential && o.v42() {
        o.w.bool(s.visible.unwrap_or(true));
    }
}

fn write_ik(o: &mut Out, c: &IkConstraint) {
    o.w.str(Some(&c.name));
    o.w.varint(c.order);
    if o.v42() {
        o.indices(&c.bones);
        o.w.varint(c.target);
        let f = c.flags.unwrap_or(0);
        o.w.u8(f);
        o.opt_f32(f & 32 != 0 && f & 64 != 0, c.mix, 1.0);
        o.opt_f32(f & 128 != 0, c.softness, 0.0);
        return;
    }
    o.w.bool(c.skin_required);
    o.indices(&c.bones);
    o.w.varint(c.target);
    o.w.f32(c.mix.unwrap_or(1.0));
    o.w.f32(c.softness.unwrap_or(0.0));
    o.w.i8(c.bend_direction);
    o.w.bool(c.compress);
    o.w.bool(c.stretch);
    o.w.bool(c.uniform);
}

fn write_transform(o: &mut Out, c: &TransformConstraint) {
    o.w.str(Some(&c.name));
    o.w.varint(c.order);
    if o.v42() {
        o.indices(&c.bones);
        o.w.varint(c.target);
        let [f0, f1] = c.flags.unwrap_or([0, 0]);
        o.w.u8(f0);
        for (k, v) in c.values.iter().enumerate().take(5) {
            o.opt_f32(f0 & (8 << k) != 0, *v, 0.0);
        }
        o.w.u8(f1);
        for (k, v) in c.values.iter().enumerate().skip(5) {
            o.opt_f32(f1 & (1 << (k - 5)) != 0, *v, 0.0);
        }
        return;
    }
    o.w.bool(c.skin_required);
    o.indices(&c.bones);
    o.w.varint(c.target);
    o.w.bool(c.local);
    o.w.bool(c.relative);
    for v in &c.values {
        o.w.f32(v.unwrap_or(0.0));
    }
}

fn write_path(o: &mut Out, c: &PathConstraint) {
    o.w.str(Some(&c.name));
    o.w.varint(c.order);
    o.w.bool(c.skin_required);
    o.indices(&c.bones);
    o.w.varint(c.target);
    let offset_present = match c.flags {
        Some(f) => {
            o.w.u8(f);
            f & 128 != 0
        }
        None => {
            o.w.varint(c.position_mode as u32);
            o.w.varint(c.spacing_mode as u32);
            o.w.varint(c.rotate_mode as u32);
            true
        }
    };
    o.opt_f32(offset_present, c.offset_rotation, 0.0);
    for v in [c.position, c.spacing, c.mix_rotate, c.mix_x, c.mix_y] {
        o.w.f32(v);
    }
}

fn write_physics(o: &mut Out, c: &PhysicsConstraint) {
    o.w.str(Some(&c.name));
    o.w.varint(c.order);
    o.w.varint(c.bone);
    let f = c.flags;
    o.w.u8(f);
    o.opt_f32(f & 2 != 0, c.x, 0.0);
    o.opt_f32(f & 4 != 0, c.y, 0.0);
    o.opt_f32(f & 8 != 0, c.rotate, 0.0);
    o.opt_f32(f & 16 != 0, c.scale_x, 0.0);
    o.opt_f32(f & 32 != 0, c.shear_x, 0.0);
    o.opt_f32(f & 64 != 0, c.limit, 5000.0);
    o.w.u8(c.fps);
    o.w.f32(c.inertia);
    o.w.f32(c.strength);
    o.w.f32(c.damping);
    o.opt_f32(f & 128 != 0, c.mass_inverse, 1.0);
    o.w.f32(c.wind);
    o.w.f32(c.gravity);
    o.w.u8(c.flags2);
    o.opt_f32(c.flags2 & 128 != 0, c.mix, 1.0);
}

fn write_skin(o: &mut Out, s: &Skin) {
    write_name(o, &s.name);
    if o.v42() && o.nonessential {
        o.w.rgba(s.color.unwrap_or([0; 4]));
    }
    o.indices(&s.bones);
    o.indices(&s.ik);
    o.indices(&s.transform);
    o.indices(&s.path);
    if o.v42() {
        o.indices(&s.physics);
    }
    write_skin_slots(o, &s.slots);
}

fn write_skin_slots(o: &mut Out, slots: &SkinSlots) {
    o.w.len(slots.slots.len());
    for (slot, attachments) in slots.groups() {
        o.w.varint(slot);
        o.w.len(attachments.len());
        for a in attachments {
            o.w.str_ref(a.key);
            write_attachment(o, &a.attachment);
        }
    }
}

fn write_sequence(o: &mut Out, s: &Option<Sequence>, flags: u8) {
    let present = if o.v42() {
        flags & 64 != 0
    } else if o.v41() {
        o.w.bool(s.is_some());
        s.is_some()
    } else {
        false
    };
    if present {
        let s = s.unwrap_or(Sequence { count: 0, start: 0, digits: 0, setup_index: 0 });
        for v in [s.count, s.start, s.digits, s.setup_index] {
            o.w.varint(v);
        }
    }
}

fn write_vertices(o: &mut Out, v: &Vertices) {
    match v {
        Vertices::Plain(xy) => {
            for &f in xy {
                o.w.f32(f);
            }
        }
        Vertices::Weighted(vs) => {
            for v in vs.groups() {
                let v: Vec<_> = v.collect();
                o.w.len(v.len());
                for b in v {
                    o.w.varint(b.bone);
                    o.w.f32(b.x);
                    o.w.f32(b.y);
                    o.w.f32(b.weight);
                }
            }
        }
    }
}

/// A vertex count, then (before 4.2) the weighted bool, then the vertices.
fn write_counted_vertices(o: &mut Out, v: &Vertices) {
    o.w.len(v.count());
    if !o.v42() {
        o.w.bool(v.is_weighted());
    }
    write_vertices(o, v);
}

fn write_shorts(o: &mut Out, v: &[u32], counted: bool) {
    if counted {
        o.w.len(v.len());
    }
    for &x in v {
        if o.v42() {
            o.w.varint(x);
        } else {
            o.w.bytes(&(x as u16).to_be_bytes());
        }
    }
}

fn opt_color(o: &mut Out, c: Option<[u8; 4]>) {
    if o.nonessential {
        o.w.rgba(c.unwrap_or([0; 4]));
    }
}

fn opt_ref(o: &mut Out, present: bool, r: StrRef) {
    if present {
        o.w.str_ref(r);
    }
}

fn write_attachment(o: &mut Out, a: &Attachment) {
    let f = a.flags;
    let v42 = o.v42();
    if v42 {
        o.w.u8(f);
        opt_ref(o, f & 8 != 0, a.name);
    } else {
        o.w.str_ref(a.name);
        o.w.u8(f);
    }
    match &a.kind {
        AttachmentKind::Region(r) => {
            if v42 {
                opt_ref(o, f & 16 != 0, r.path);
                if f & 32 != 0 {
                    o.w.rgba(r.color);
                }
                write_sequence(o, &r.sequence, f);
                if f & 128 != 0 {
                    o.w.f32(r.rotation);
                }
                for v in [r.x, r.y, r.scale_x, r.scale_y, r.width, r.height] {
                    o.w.f32(v);
                }
            } else {
                o.w.str_ref(r.path);
                for v in [r.rotation, r.x, r.y, r.scale_x, r.scale_y, r.width, r.height] {
                    o.w.f32(v);
                }
                o.w.rgba(r.color);
                write_sequence(o, &r.sequence, f);
            }
        }
        AttachmentKind::BoundingBox(b) => {
            write_counted_vertices(o, &b.vertices);
            opt_color(o, b.color);
        }
        AttachmentKind::Mesh(m) => write_mesh(o, m, f),
        AttachmentKind::LinkedMesh(l) => {
            if v42 {
                opt_ref(o, f & 16 != 0, l.path);
                if f & 32 != 0 {
                    o.w.rgba(l.color);
                }
                write_sequence(o, &l.sequence, f);
                match l.skin {
                    SkinRef::Index(i) => o.w.varint(i),
                    SkinRef::Name(r) => o.w.varint(r.0),
                }
                o.w.str_ref(l.parent);
            } else {
                o.w.str_ref(l.path);
                o.w.rgba(l.color);
                match l.skin {
                    SkinRef::Name(r) => o.w.str_ref(r),
                    SkinRef::Index(i) => o.w.varint(i),
                }
                o.w.str_ref(l.parent);
                o.w.bool(l.inherit_timelines);
                write_sequence(o, &l.sequence, f);
            }
            if o.nonessential {
                let [w, h] = l.size.unwrap_or([0.0, 0.0]);
                o.w.f32(w);
                o.w.f32(h);
            }
        }
        AttachmentKind::Path(p) => {
            if !v42 {
                o.w.bool(p.closed);
                o.w.bool(p.constant_speed);
            }
            write_counted_vertices(o, &p.vertices);
            for &l in &p.lengths {
                o.w.f32(l);
            }
            opt_color(o, p.color);
        }
        AttachmentKind::Point(p) => {
            o.w.f32(p.rotation);
            o.w.f32(p.x);
            o.w.f32(p.y);
            opt_color(o, p.color);
        }
        AttachmentKind::Clipping(c) => {
            o.w.varint(c.end_slot);
            write_counted_vertices(o, &c.vertices);
            opt_color(o, c.color);
        }
    }
}

fn write_mesh_extras(o: &mut Out, m: &Mesh) {
    if o.nonessential {
        match &m.extras {
            Some(e) => {
                write_shorts(o, &e.edges, true);
                o.w.f32(e.width);
                o.w.f32(e.height);
            }
            None => {
                o.w.varint(0);
                o.w.f32(0.0);
                o.w.f32(0.0);
            }
        }
    }
}

fn write_mesh(o: &mut Out, m: &Mesh, f: u8) {
    if o.v42() {
        opt_ref(o, f & 16 != 0, m.path);
        if f & 32 != 0 {
            o.w.rgba(m.color);
        }
        write_sequence(o, &m.sequence, f);
        o.w.varint(m.hull);
        o.w.len(m.vertices.count());
        write_vertices(o, &m.vertices);
        for &uv in &m.uvs {
            o.w.f32(uv);
        }
        write_shorts(o, &m.triangles, false);
        write_mesh_extras(o, m);
        return;
    }
    o.w.str_ref(m.path);
    o.w.rgba(m.color);
    o.w.len(m.vertices.count());
    for &uv in &m.uvs {
        o.w.f32(uv);
    }
    write_shorts(o, &m.triangles, true);
    o.w.bool(m.vertices.is_weighted());
    write_vertices(o, &m.vertices);
    o.w.varint(m.hull);
    write_sequence(o, &m.sequence, f);
    write_mesh_extras(o, m);
}
