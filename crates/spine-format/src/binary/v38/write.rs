//! The 3.8 writer (mirror of [`super::read`]).

use super::ast::*;
use crate::binary::prim::Writer;
use crate::binary::v3_common::write::{write_animation, write_indices, write_skin_slots};
use crate::SpineVersion;

fn write_constraint_head(w: &mut Writer, name: &str, order: u32, skin_required: bool, b: &[u32]) {
    w.str(Some(name));
    w.varint(order);
    w.bool(skin_required);
    write_indices(w, b);
}

/// Writes a 3.8 skeleton.
pub(super) fn write(s: &Skeleton) -> Vec<u8> {
    let mut w = Writer::with_capacity(64 * 1024);
    let w = &mut w;
    write_header(w, s);

    w.len(s.strings.len());
    for st in &s.strings {
        w.str(Some(st));
    }

    write_bones(w, s);
    write_slots(w, s);
    write_ik(w, s);
    write_transforms(w, s);
    write_paths(w, s);

    write_skin_slots(w, &s.default_skin);
    w.len(s.skins.len());
    for sk in &s.skins {
        w.str_ref(sk.name);
        write_indices(w, &sk.bones);
        write_indices(w, &sk.ik);
        write_indices(w, &sk.transform);
        write_indices(w, &sk.path);
        write_skin_slots(w, &sk.slots);
    }

    write_events(w, s);

    w.len(s.animations.len());
    for a in &s.animations {
        write_animation(w, a, SpineVersion::V3_8);
    }
    std::mem::take(w).finish()
}

/// The header: hash, version, bounds and the nonessential fields.
fn write_header(w: &mut Writer, s: &Skeleton) {
    let h = &s.header;
    w.str(h.hash.as_deref());
    w.str(Some(&h.version));
    for x in [h.x, h.y, h.width, h.height] {
        w.f32(x);
    }
    w.bool(h.nonessential.is_some());
    if let Some(n) = &h.nonessential {
        w.f32(n.fps);
        w.str(n.images.as_deref());
        w.str(n.audio.as_deref());
    }
}

/// The bones, parent first.
fn write_bones(w: &mut Writer, s: &Skeleton) {
    w.len(s.bones.len());
    for (i, b) in s.bones.iter().enumerate() {
        w.str(Some(&b.name));
        if i > 0 {
            w.varint(b.parent.unwrap_or(0));
        }
        for x in [b.rotation, b.x, b.y, b.scale_x, b.scale_y, b.shear_x, b.shear_y, b.length] {
            w.f32(x);
        }
        w.varint(b.transform_mode.to_wire());
        w.bool(b.skin_required);
        if let Some(c) = b.color {
            w.rgba(c);
        }
    }
}

/// The slots, in setup draw order.
fn write_slots(w: &mut Writer, s: &Skeleton) {
    w.len(s.slots.len());
    for sl in &s.slots {
        w.str(Some(&sl.name));
        w.varint(sl.bone);
        w.rgba(sl.color);
        w.rgba(sl.dark_color);
        w.str_ref(sl.attachment);
        w.varint(sl.blend.to_wire());
    }
}

/// The IK constraints.
fn write_ik(w: &mut Writer, s: &Skeleton) {
    w.len(s.ik.len());
    for c in &s.ik {
        write_constraint_head(w, &c.name, c.order, c.skin_required, &c.bones);
        w.varint(c.target);
        w.f32(c.mix);
        w.f32(c.softness);
        w.i8(c.bend_direction);
        w.bool(c.compress);
        w.bool(c.stretch);
        w.bool(c.uniform);
    }
}

/// The transform constraints.
fn write_transforms(w: &mut Writer, s: &Skeleton) {
    w.len(s.transform.len());
    for c in &s.transform {
        write_constraint_head(w, &c.name, c.order, c.skin_required, &c.bones);
        w.varint(c.target);
        w.bool(c.local);
        w.bool(c.relative);
        for x in c.offsets.iter().chain(&c.mixes) {
            w.f32(*x);
        }
    }
}

/// The path constraints.
fn write_paths(w: &mut Writer, s: &Skeleton) {
    w.len(s.path.len());
    for c in &s.path {
        write_constraint_head(w, &c.name, c.order, c.skin_required, &c.bones);
        w.varint(c.target);
        w.varint(c.position_mode.to_wire());
        w.varint(c.spacing_mode.to_wire());
        w.varint(c.rotate_mode.to_wire());
        for x in [c.offset_rotation, c.position, c.spacing, c.rotate_mix, c.translate_mix] {
            w.f32(x);
        }
    }
}

/// The event definitions.
fn write_events(w: &mut Writer, s: &Skeleton) {
    w.len(s.events.len());
    for e in &s.events {
        w.str_ref(e.name);
        w.varint_signed(e.int);
        w.f32(e.float);
        w.str(e.string.as_deref());
        match &e.audio {
            None => w.str(None),
            Some(a) => {
                w.str(Some(&a.path));
                w.f32(a.volume);
                w.f32(a.balance);
            }
        }
    }
}
