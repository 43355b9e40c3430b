//! The 4.3 JSON writer: the inverse of [`super::parse`] up to formatting.
//!
//! `parse(&write(&s)) == s` for every `s` that [`super::parse`] returned. Keys are written in a
//! fixed order (the editor's where known), absent `Option`s are left out, every key gets an
//! explicit `time`, colors are lowercase `rrggbbaa`, and numbers are the shortest decimals that
//! read back to the same `f32` (integral values without a fraction). Unknown keys of the
//! original file are not kept, so the text is not the original text.

use super::*;
use crate::json::out::{
    self, attachment_timelines, event_defs, floats, named, sequence, str_, strs, timelines,
    to_text, u32s, uint, Jv, Style, O,
};
use crate::json::{Curve, Key};

/// The 4.3 style: 4.x key spellings, curves as arrays.
const ST: Style = Style { ver: crate::SpineVersion::V4_3, curve };

/// A key's curve. A [`Curve::Number`] (not produced by the 4.3 reader) is written as the 4.x
/// array form.
fn curve(o: &mut O, c: &Option<Curve>) {
    match c {
        Some(Curve::Number { c1, c2, c3, c4 }) => {
            let v = [*c1, c2.unwrap_or(0.0), c3.unwrap_or(1.0), c4.unwrap_or(1.0)];
            o.put("curve", floats(&v));
        }
        c => out::curve(o, c),
    }
}

/// An attachment, keys in the editor's order.
fn attachment(a: &Attachment) -> Jv {
    let mut o = O::default();
    o.s("name", &a.name);
    if let Some(t) = a.declared_type {
        o.put("type", str_(t.as_str()));
    }
    match &a.kind {
        AttachmentKind::Region {
            path,
            x,
            y,
            scale_x,
            scale_y,
            rotation,
            width,
            height,
            color,
            sequence: seq,
        } => {
            o.s("path", path)
                .c("color", *color)
                .f("x", *x)
                .f("y", *y)
                .f("scaleX", *scale_x)
                .f("scaleY", *scale_y)
                .f("rotation", *rotation)
                .f("width", Some(*width))
                .f("height", Some(*height));
            sequence(&mut o, seq);
        }
        AttachmentKind::BoundingBox { vertex_count, vertices, color } => {
            o.put("vertexCount", uint(*vertex_count))
                .put("vertices", floats(vertices))
                .c("color", *color);
        }
        AttachmentKind::Mesh {
            path,
            color,
            width,
            height,
            sequence: seq,
            uvs,
            vertices,
            triangles,
            hull,
            edges,
        } => {
            o.s("path", path).c("color", *color);
            sequence(&mut o, seq);
            o.put("uvs", floats(uvs))
                .put("triangles", u32s(triangles))
                .put("vertices", floats(vertices));
            if let Some(h) = hull {
                o.put("hull", uint(*h));
            }
            if let Some(e) = edges {
                o.put("edges", u32s(e));
            }
            o.f("width", *width).f("height", *height);
        }
        AttachmentKind::LinkedMesh {
            path,
            color,
            width,
            height,
            sequence: seq,
            source,
            slot,
            skin,
            timelines,
        } => {
            o.s("path", path).c("color", *color);
            sequence(&mut o, seq);
            o.s("skin", skin)
                .s("slot", slot)
                .put("source", str_(source))
                .b("timelines", *timelines)
                .f("width", *width)
                .f("height", *height);
        }
        AttachmentKind::Path { closed, constant_speed, vertex_count, vertices, lengths, color } => {
            o.b("closed", *closed)
                .b("constantSpeed", *constant_speed)
                .put("lengths", floats(lengths))
                .put("vertexCount", uint(*vertex_count))
                .put("vertices", floats(vertices))
                .c("color", *color);
        }
        AttachmentKind::Point { x, y, rotation, color } => {
            o.f("x", *x).f("y", *y).f("rotation", *rotation).c("color", *color);
        }
        AttachmentKind::Clipping { end, convex, inverse, vertex_count, vertices, color } => {
            o.s("end", end)
                .b("convex", *convex)
                .b("inverse", *inverse)
                .put("vertexCount", uint(*vertex_count))
                .put("vertices", floats(vertices))
                .c("color", *color);
        }
    }
    o.done()
}

/// An animation's timelines, keys in the editor's order.
fn animation(a: &Animation) -> Jv {
    let mut o = O::default();
    o.c("color", a.color);
    if !a.slots.is_empty() {
        o.put("slots", named(&a.slots, |ts| timelines(ts, |t| ST.slot_timeline(t))));
    }
    if !a.bones.is_empty() {
        o.put("bones", named(&a.bones, |ts| timelines(ts, |t| ST.bone_timeline(t))));
    }
    if !a.ik.is_empty() {
        o.put("ik", named(&a.ik, |k| ST.ik_keys(k)));
    }
    if !a.transform.is_empty() {
        o.put("transform", named(&a.transform, |k| transform_keys(k)));
    }
    if !a.path.is_empty() {
        o.put("path", named(&a.path, |ts| timelines(ts, path_timeline)));
    }
    if !a.physics.is_empty() {
        o.put("physics", named(&a.physics, |ts| timelines(ts, |t| ST.physics_timeline(t))));
    }
    if !a.slider.is_empty() {
        o.put("slider", named(&a.slider, |ts| timelines(ts, slider_timeline)));
    }
    if !a.attachments.is_empty() {
        let j = attachment_timelines(&a.attachments, |ts| ST.attachment_timeline_object(ts));
        o.put("attachments", j);
    }
    if let Some(d) = &a.draw_order {
        o.put("drawOrder", ST.draw_order(d));
    }
    if !a.draw_order_folders.is_empty() {
        let folders = a.draw_order_folders.iter().map(|f| {
            O::default().put("slots", strs(&f.slots)).put("keys", ST.draw_order(&f.keys)).done()
        });
        o.put("drawOrderFolder", Jv::Arr(folders.collect()));
    }
    if let Some(e) = &a.events {
        o.put("events", ST.event_keys(e));
    }
    o.done()
}

/// Transform constraint keys: the mixes.
fn transform_keys(k: &[Key<TransformKey>]) -> Jv {
    ST.keys(k, |o, v| {
        for (key, m) in MIX_KEYS.iter().zip(v.mixes) {
            o.f(key, m);
        }
    })
}

/// A path constraint timeline.
fn path_timeline(t: &PathTimeline) -> (&'static str, Jv) {
    match t {
        PathTimeline::Position(k) => ("position", ST.keys1(k, "value")),
        PathTimeline::Spacing(k) => ("spacing", ST.keys1(k, "value")),
        PathTimeline::Mix(k) => (
            "mix",
            ST.keys(k, |o, v| {
                o.f("mixRotate", v.mix_rotate).f("mixX", v.mix_x).f("mixY", v.mix_y);
            }),
        ),
    }
}

/// A slider constraint timeline.
fn slider_timeline(t: &SliderTimeline) -> (&'static str, Jv) {
    match t {
        SliderTimeline::Time(k) => ("time", ST.keys1(k, "value")),
        SliderTimeline::Mix(k) => ("mix", ST.keys1(k, "value")),
    }
}

/// One entry of `constraints`: `name`, `type`, `skin`, then the fields of its type.
fn constraint(c: &Constraint) -> Jv {
    let mut o = O::default();
    o.put("name", str_(&c.name)).put("type", str_(c.kind.type_name())).b("skin", c.skin);
    match &c.kind {
        ConstraintKind::Ik(k) => ik(&mut o, k),
        ConstraintKind::Transform(t) => transform(&mut o, t),
        ConstraintKind::Path(p) => path(&mut o, p),
        ConstraintKind::Physics(p) => physics(&mut o, p),
        ConstraintKind::Slider(s) => slider(&mut o, s),
    }
    o.done()
}

/// The fields of an IK constraint.
fn ik(o: &mut O, k: &IkConstraint) {
    o.list("bones", &k.bones)
        .put("target", str_(&k.target))
        .e("scaleY", k.scale_y.map(ScaleYMode::as_str))
        .f("mix", k.mix)
        .f("softness", k.softness)
        .b("bendPositive", k.bend_positive)
        .b("compress", k.compress)
        .b("stretch", k.stretch);
}

/// The fields of a transform constraint.
fn transform(o: &mut O, t: &TransformConstraint) {
    o.list("bones", &t.bones)
        .put("source", str_(&t.source))
        .b("localSource", t.local_source)
        .b("localTarget", t.local_target)
        .b("additive", t.additive)
        .b("clamp", t.clamp);
    if !t.properties.is_empty() {
        o.put("properties", properties(&t.properties));
    }
    for (k, v) in OFFSET_KEYS.iter().zip(t.offsets) {
        o.f(k, v);
    }
    for (k, v) in MIX_KEYS.iter().zip(t.mixes) {
        o.f(k, v);
    }
}

/// A transform constraint's `properties: {from: {offset, to: {to: {offset, max, scale}}}}`.
fn properties(properties: &[FromEntry]) -> Jv {
    let to = |t: &ToEntry| {
        let j = O::default().f("offset", t.offset).f("max", t.max).f("scale", t.scale).done();
        (t.property.as_str().to_owned(), j)
    };
    let from = |f: &FromEntry| {
        let j = O::default()
            .f("offset", f.offset)
            .put("to", Jv::Obj(f.to.iter().map(to).collect()))
            .done();
        (f.property.as_str().to_owned(), j)
    };
    Jv::Obj(properties.iter().map(from).collect())
}

/// The fields of a path constraint.
fn path(o: &mut O, p: &PathConstraint) {
    o.list("bones", &p.bones)
        .put("slot", str_(&p.slot))
        .e("positionMode", p.position_mode.map(PositionMode::as_str))
        .e("spacingMode", p.spacing_mode.map(SpacingMode::as_str))
        .e("rotateMode", p.rotate_mode.map(RotateMode::as_str))
        .f("rotation", p.rotation)
        .f("position", p.position)
        .f("spacing", p.spacing)
        .f("mixRotate", p.mix_rotate)
        .f("mixX", p.mix_x)
        .f("mixY", p.mix_y);
}

/// The fields of a physics constraint.
fn physics(o: &mut O, p: &PhysicsConstraint) {
    o.put("bone", str_(&p.bone))
        .f("x", p.x)
        .f("y", p.y)
        .f("rotate", p.rotate)
        .f("scaleX", p.scale_x)
        .e("scaleY", p.scale_y.map(ScaleYMode::as_str))
        .f("shearX", p.shear_x)
        .f("limit", p.limit)
        .f("fps", p.fps)
        .f("inertia", p.inertia)
        .f("strength", p.strength)
        .f("damping", p.damping)
        .f("mass", p.mass)
        .f("wind", p.wind)
        .f("gravity", p.gravity)
        .f("mix", p.mix);
    for (k, g) in GLOBAL_KEYS.iter().zip(p.global) {
        o.b(k, g);
    }
}

/// The fields of a slider constraint: its bone's, or its own `time` without one.
fn slider(o: &mut O, s: &SliderConstraint) {
    o.put("animation", str_(&s.animation))
        .b("additive", s.additive)
        .b("loop", s.looping)
        .f("mix", s.mix);
    match &s.bone {
        Some(b) => {
            o.put("bone", str_(&b.bone))
                .e("property", b.property.map(Property::as_str))
                .f("from", b.from)
                .f("to", b.to)
                .f("scale", b.scale)
                .f("max", b.max)
                .b("local", b.local);
        }
        None => {
            o.f("time", s.time);
        }
    }
}

/// The `skeleton` object.
fn info(i: &Info) -> Jv {
    O::default()
        .s("hash", &i.hash)
        .s("spine", &i.spine)
        .f("x", i.x)
        .f("y", i.y)
        .f("width", i.width)
        .f("height", i.height)
        .f("referenceScale", i.reference_scale)
        .f("fps", i.fps)
        .s("images", &i.images)
        .s("audio", &i.audio)
        .done()
}

/// A bone.
fn bone(b: &Bone) -> Jv {
    O::default()
        .put("name", str_(&b.name))
        .s("parent", &b.parent)
        .f("length", b.length)
        .f("rotation", b.rotation)
        .f("x", b.x)
        .f("y", b.y)
        .f("scaleX", b.scale_x)
        .f("scaleY", b.scale_y)
        .f("shearX", b.shear_x)
        .f("shearY", b.shear_y)
        .e("inherit", b.inherit.map(Inherit::as_str))
        .b("skin", b.skin)
        .c("color", b.color)
        .s("icon", &b.icon)
        .f("iconSize", b.icon_size)
        .f("iconRotation", b.icon_rotation)
        .b("visible", b.visible)
        .done()
}

/// A slot.
fn slot(sl: &Slot) -> Jv {
    O::default()
        .put("name", str_(&sl.name))
        .put("bone", str_(&sl.bone))
        .c("color", sl.color)
        .c("dark", sl.dark)
        .s("attachment", &sl.attachment)
        .e("blend", sl.blend.map(BlendMode::as_str))
        .b("visible", sl.visible)
        .done()
}

/// A skin with its attachments per slot.
fn skin(k: &Skin) -> Jv {
    let mut o = O::default();
    o.put("name", str_(&k.name))
        .c("color", k.color)
        .list("bones", &k.bones)
        .list("ik", &k.ik)
        .list("transform", &k.transform)
        .list("path", &k.path)
        .list("physics", &k.physics)
        .list("slider", &k.slider);
    if !k.slots.is_empty() {
        let slots = k.slots.iter().map(|s| {
            let atts = s.attachments.iter().map(|a| (a.key.clone(), attachment(a))).collect();
            (s.slot.clone(), Jv::Obj(atts))
        });
        o.put("attachments", Jv::Obj(slots.collect()));
    }
    o.done()
}

/// The whole document.
fn root(s: &Skeleton) -> Jv {
    let mut o = O::default();
    o.put("skeleton", info(&s.info));
    o.put("bones", Jv::Arr(s.bones.iter().map(bone).collect()));
    if !s.slots.is_empty() {
        o.put("slots", Jv::Arr(s.slots.iter().map(slot).collect()));
    }
    if !s.constraints.is_empty() {
        o.put("constraints", Jv::Arr(s.constraints.iter().map(constraint).collect()));
    }
    if !s.skins.is_empty() {
        o.put("skins", Jv::Arr(s.skins.iter().map(skin).collect()));
    }
    if !s.events.is_empty() {
        o.put("events", event_defs(&s.events));
    }
    if !s.animations.is_empty() {
        let anims = s.animations.iter().map(|a| (a.name.to_string(), animation(a)));
        o.put("animations", Jv::Obj(anims.collect()));
    }
    o.done()
}

/// Writes a 4.3 skeleton as JSON text (pretty-printed) that [`super::parse`] reads back to `s`.
pub fn write(s: &Skeleton) -> String {
    to_text(&root(s))
}
