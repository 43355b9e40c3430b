//! The 3.5–3.7 writer (mirror of [`super::read`]).

use super::ast::*;
use crate::binary::prim::Writer;
use crate::binary::v3_common::since;
use crate::binary::v3_common::write::{write_animation, write_indices, write_skin_slots};
use crate::SpineVersion;

/// Writes a 3.5–3.7 skeleton with the fields of `s.generation`.
pub(super) fn write(s: &Skeleton) -> Vec<u8> {
    // Only 3.5–3.7 fields exist in this generation.
    let gen = s.generation.clamp(SpineVersion::V3_5, SpineVersion::V3_7);
    let mut w = Writer::with_capacity(64 * 1024);
    let w = &mut w;
    write_header(w, s, gen);
    write_bones(w, s);
    write_slots(w, s, gen);
    write_ik(w, s, gen);
    write_transforms(w, s, gen);
    write_paths(w, s);

    write_skin_slots(w, &s.default_skin);
    w.len(s.skins.len());
    for sk in &s.skins {
        w.str(sk.name.as_deref());
        write_skin_slots(w, &sk.slots);
    }

    write_events(w, s, gen);

    w.len(s.animations.len());
    for a in &s.animations {
        write_animation(w, a, gen);
    }
    std::mem::take(w).finish()
}

/// The header: hash, version, size and the nonessential fields.
fn write_header(w: &mut Writer, s: &Skeleton, gen: SpineVersion) {
    let h = &s.header;
    w.str(h.hash.as_deref());
    w.str(Some(&h.version));
    w.f32(h.width);
    w.f32(h.height);
    w.bool(h.nonessential.is_some());
    if let Some(n) = &h.nonessential {
        w.f32(n.fps);
        w.str(n.images.as_deref());
        if since(gen, SpineVersion::V3_7) {
            w.str(n.audio.as_deref());
        }
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
        if let Some(c) = b.color {
            w.rgba(c);
        }
    }
}

/// The slots, in setup draw order.
fn write_slots(w: &mut Writer, s: &Skeleton, gen: SpineVersion) {
    w.len(s.slots.len());
    for sl in &s.slots {
        w.str(Some(&sl.name));
        w.varint(sl.bone);
        w.rgba(sl.color);
        if since(gen, SpineVersion::V3_6) {
            w.rgba(sl.dark_color);
        }
        w.str(sl.attachment.as_deref());
        w.varint(sl.blend.to_wire());
    }
}

/// The IK constraints.
fn write_ik(w: &mut Writer, s: &Skeleton, gen: SpineVersion) {
    w.len(s.ik.len());
    for c in &s.ik {
        w.str(Some(&c.name));
        w.varint(c.order);
        write_indices(w, &c.bones);
        w.varint(c.target);
        w.f32(c.mix);
        w.i8(c.bend_direction);
        if since(gen, SpineVersion::V3_7) {
            w.bool(c.compress);
            w.bool(c.stretch);
            w.bool(c.uniform);
        }
    }
}

/// The transform constraints.
fn write_transforms(w: &mut Writer, s: &Skeleton, gen: SpineVersion) {
    w.len(s.transform.len());
    for c in &s.transform {
        w.str(Some(&c.name));
        w.varint(c.order);
        write_indices(w, &c.bones);
        w.varint(c.target);
        if since(gen, SpineVersion::V3_6) {
            w.bool(c.local);
            w.bool(c.relative);
        }
        for x in c.offsets.iter().chain(&c.mixes) {
            w.f32(*x);
        }
    }
}

/// The path constraints.
fn write_paths(w: &mut Writer, s: &Skeleton) {
    w.len(s.path.len());
    for c in &s.path {
        w.str(Some(&c.name));
        w.varint(c.order);
        write_indices(w, &c.bones);
        w.varint(c.target);
        w.varint(c.position_mode.to_wire());
        w.varint(c.spacing_mode.to_wire());
        w.varint(c.rotate_mode.to_wire());
        for x in [c.offset_rotation, c.position, c.spacing, c.rotate_mix, c.translate_mix] {
            w.f32(x);
        }
    }
}

/// The event definitions (3.7+: with audio).
fn write_events(w: &mut Writer, s: &Skeleton, gen: SpineVersion) {
    w.len(s.events.len());
    for e in &s.events {
        w.str(Some(&e.name));
        w.varint_signed(e.int);
        w.f32(e.float);
        w.str(e.string.as_deref());
        if since(gen, SpineVersion::V3_7) {
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
}
