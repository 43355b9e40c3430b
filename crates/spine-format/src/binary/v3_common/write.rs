//! Writers for the records shared by the 3.x generations (mirrors of [`super::read`]).

use super::*;
use crate::binary::prim::Writer;
use crate::binary::shared::write_draw_order;

/// Writes a list of varint indices with its count.
pub(crate) fn write_indices(w: &mut Writer, v: &[u32]) {
    w.len(v.len());
    for &i in v {
        w.varint(i);
    }
}

fn write_shorts(w: &mut Writer, v: &[u16]) {
    w.len(v.len());
    for &s in v {
        w.bytes(&s.to_be_bytes());
    }
}

fn write_floats(w: &mut Writer, v: &[f32]) {
    for &x in v {
        w.f32(x);
    }
}

fn write_color_opt(w: &mut Writer, c: Option<[u8; 4]>) {
    if let Some(c) = c {
        w.rgba(c);
    }
}

/// The 3.x curve record.
pub(crate) fn write_curve(w: &mut Writer, c: &Curve) {
    match c {
        Curve::Linear => w.i8(0),
        Curve::Stepped => w.i8(1),
        Curve::Bezier(b) => {
            w.i8(2);
            write_floats(w, b);
        }
    }
}

/// A keyframe value of a curve timeline.
pub(crate) trait WriteKey {
    /// Writes one value.
    fn write(&self, w: &mut Writer, gen: SpineVersion);
}

impl WriteKey for f32 {
    fn write(&self, w: &mut Writer, _: SpineVersion) {
        w.f32(*self);
    }
}

impl<const N: usize> WriteKey for [f32; N] {
    fn write(&self, w: &mut Writer, _: SpineVersion) {
        write_floats(w, self);
    }
}

impl WriteKey for [u8; 4] {
    fn write(&self, w: &mut Writer, _: SpineVersion) {
        w.rgba(*self);
    }
}

impl WriteKey for TwoColor {
    fn write(&self, w: &mut Writer, _: SpineVersion) {
        w.rgba(self.light);
        w.rgba(self.dark);
    }
}

impl WriteKey for IkKey {
    fn write(&self, w: &mut Writer, gen: SpineVersion) {
        w.f32(self.mix);
        if since(gen, SpineVersion::V3_8) {
            w.f32(self.softness);
        }
        w.i8(self.bend_direction);
        if since(gen, SpineVersion::V3_7) {
            w.bool(self.compress);
            w.bool(self.stretch);
        }
    }
}

impl WriteKey for DeformKey {
    fn write(&self, w: &mut Writer, _: SpineVersion) {
        w.len(self.offsets.len());
        if !self.offsets.is_empty() {
            w.varint(self.start);
            write_floats(w, &self.offsets);
        }
    }
}

/// A curve timeline with its frame count.
pub(crate) fn write_timeline<V: WriteKey>(w: &mut Writer, t: &Timeline<V>, gen: SpineVersion) {
    w.len(t.frames.len());
    let last = t.frames.len().saturating_sub(1);
    for (i, f) in t.frames.iter().enumerate() {
        w.f32(f.time);
        f.value.write(w, gen);
        if i < last {
            write_curve(w, t.curves.get(i).unwrap_or(&Curve::Linear));
        }
    }
}

fn write_vertices(w: &mut Writer, v: &Vertices) {
    match v {
        Vertices::Unweighted(xy) => {
            w.bool(false);
            write_floats(w, xy);
        }
        Vertices::Weighted(vs) => {
            w.bool(true);
            for bones in vs {
                w.len(bones.len());
                for b in bones {
                    w.varint(b.bone);
                    w.f32(b.x);
                    w.f32(b.y);
                    w.f32(b.weight);
                }
            }
        }
    }
}

fn write_attachment<S: WireStr>(w: &mut Writer, a: &Attachment<S>) {
    match a {
        Attachment::Region(a) => {
            w.i8(0);
            a.path.write(w);
            write_floats(w, &[a.rotation, a.x, a.y, a.scale_x, a.scale_y, a.width, a.height]);
            w.rgba(a.color);
        }
        Attachment::BoundingBox(a) => {
            w.i8(1);
            w.len(a.vertices.vertex_count());
            write_vertices(w, &a.vertices);
            write_color_opt(w, a.color);
        }
        Attachment::Mesh(a) => {
            w.i8(2);
            a.path.write(w);
            w.rgba(a.color);
            w.len(a.uvs.len() / 2);
            write_floats(w, &a.uvs);
            write_shorts(w, &a.triangles);
            write_vertices(w, &a.vertices);
            w.varint(a.hull_length);
            if let Some(x) = &a.extras {
                write_shorts(w, &x.edges);
                w.f32(x.size.width);
                w.f32(x.size.height);
            }
        }
        Attachment::LinkedMesh(a) => {
            w.i8(3);
            a.path.write(w);
            w.rgba(a.color);
            a.skin.write(w);
            a.parent.write(w);
            w.bool(a.inherit_deform);
            if let Some(s) = a.size {
                w.f32(s.width);
                w.f32(s.height);
            }
        }
        Attachment::Path(a) => {
            w.i8(4);
            w.bool(a.closed);
            w.bool(a.constant_speed);
            w.len(a.vertices.vertex_count());
            write_vertices(w, &a.vertices);
            write_floats(w, &a.lengths);
            write_color_opt(w, a.color);
        }
        Attachment::Point(a) => {
            w.i8(5);
            write_floats(w, &[a.rotation, a.x, a.y]);
            write_color_opt(w, a.color);
        }
        Attachment::Clipping(a) => {
            w.i8(6);
            w.varint(a.end_slot);
            w.len(a.vertices.vertex_count());
            write_vertices(w, &a.vertices);
            write_color_opt(w, a.color);
        }
    }
}

/// The slot list of a skin, with its count.
pub(crate) fn write_skin_slots<S: WireStr>(w: &mut Writer, slots: &[SkinSlot<S>]) {
    w.len(slots.len());
    for s in slots {
        w.varint(s.slot);
        w.len(s.entries.len());
        for e in &s.entries {
            e.key.write(w);
            e.name.write(w);
            write_attachment(w, &e.attachment);
        }
    }
}

/// An animation, name first.
pub(crate) fn write_animation<S: WireStr>(w: &mut Writer, a: &Animation<S>, gen: SpineVersion) {
    w.str(Some(&a.name));

    write_slot_timelines(w, a, gen);
    write_bone_timelines(w, a, gen);

    w.len(a.ik.len());
    for t in &a.ik {
        w.varint(t.constraint);
        write_timeline(w, &t.timeline, gen);
    }

    w.len(a.transform.len());
    for t in &a.transform {
        w.varint(t.constraint);
        write_timeline(w, &t.timeline, gen);
    }

    write_path_timelines(w, a, gen);
    write_deform_timelines(w, a, gen);

    w.len(a.draw_order.len());
    for k in &a.draw_order {
        w.f32(k.time);
        write_draw_order(w, &k.changes);
    }

    write_event_keys(w, a);
}

/// The slot timelines.
fn write_slot_timelines<S: WireStr>(w: &mut Writer, a: &Animation<S>, gen: SpineVersion) {
    w.len(a.slots.len());
    for s in &a.slots {
        w.varint(s.slot);
        w.len(s.timelines.len());
        for t in &s.timelines {
            match t {
                SlotTimeline::Attachment(keys) => {
                    w.i8(0);
                    w.len(keys.len());
                    for k in keys {
                        w.f32(k.time);
                        k.name.write(w);
                    }
                }
                SlotTimeline::Color(t) => {
                    w.i8(1);
                    write_timeline(w, t, gen);
                }
                SlotTimeline::TwoColor(t) => {
                    w.i8(2);
                    write_timeline(w, t, gen);
                }
            }
        }
    }
}

/// The bone timelines.
fn write_bone_timelines<S: WireStr>(w: &mut Writer, a: &Animation<S>, gen: SpineVersion) {
    w.len(a.bones.len());
    for b in &a.bones {
        w.varint(b.bone);
        w.len(b.timelines.len());
        for t in &b.timelines {
            let (ty, t) = match t {
                BoneTimeline::Rotate(t) => {
                    w.i8(0);
                    write_timeline(w, t, gen);
                    continue;
                }
                BoneTimeline::Translate(t) => (1, t),
                BoneTimeline::Scale(t) => (2, t),
                BoneTimeline::Shear(t) => (3, t),
            };
            w.i8(ty);
            write_timeline(w, t, gen);
        }
    }
}

/// The path constraint timelines.
fn write_path_timelines<S: WireStr>(w: &mut Writer, a: &Animation<S>, gen: SpineVersion) {
    w.len(a.path.len());
    for p in &a.path {
        w.varint(p.constraint);
        w.len(p.timelines.len());
        for t in &p.timelines {
            match t {
                PathTimeline::Position(t) => {
                    w.i8(0);
                    write_timeline(w, t, gen);
                }
                PathTimeline::Spacing(t) => {
                    w.i8(1);
                    write_timeline(w, t, gen);
                }
                PathTimeline::Mix(t) => {
                    w.i8(2);
                    write_timeline(w, t, gen);
                }
            }
        }
    }
}

/// The deform timelines, skin > slot > attachment.
fn write_deform_timelines<S: WireStr>(w: &mut Writer, a: &Animation<S>, gen: SpineVersion) {
    w.len(a.deform.len());
    for s in &a.deform {
        w.varint(s.skin);
        w.len(s.slots.len());
        for sl in &s.slots {
            w.varint(sl.slot);
            w.len(sl.attachments.len());
            for d in &sl.attachments {
                d.attachment.write(w);
                write_timeline(w, &d.timeline, gen);
            }
        }
    }
}

/// The event keys.
fn write_event_keys<S: WireStr>(w: &mut Writer, a: &Animation<S>) {
    w.len(a.events.len());
    for k in &a.events {
        w.f32(k.time);
        w.varint(k.event);
        w.varint_signed(k.int);
        w.f32(k.float);
        match &k.string {
            None => w.bool(false),
            Some(s) => {
                w.bool(true);
                w.str(s.as_deref());
            }
        }
        if let Some(au) = k.audio {
            w.f32(au.volume);
            w.f32(au.balance);
        }
    }
}
