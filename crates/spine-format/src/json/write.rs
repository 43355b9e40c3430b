//! The JSON writer: the inverse of [`super::parse`] up to formatting.
//!
//! `parse(&write(&s)) == s` for every `s` that [`super::parse`] returned. Key spellings follow
//! `s.version` (the same rules as the reader); keys are written in a fixed order, absent
//! `Option`s are left out, every key gets an explicit `time`, colors are lowercase `rrggbbaa`, and
//! numbers are the shortest decimals that read back to the same `f32`. Unknown keys of the
//! original file are not kept, so the text is not the original text.
//!
//! A hand-built AST holding something its version cannot spell (e.g. an `rgb` slot timeline in a
//! 3.x skeleton, skin constraints in a 3.5–3.7 skeleton) is written with the 4.x spelling, or
//! dropped for skin extras; such text may not read back.

use super::anim::*;
use super::out::{
    self, attachment_timelines, event_defs, floats, named, sequence, str_, timelines, to_text,
    u32s, uint, Jv, Style, O,
};
use super::*;

/// The fields every constraint has.
fn head(o: &mut O, h: &ConstraintHead) {
    o.put("name", str_(&h.name)).i("order", h.order).b("skin", h.skin);
}

/// Transform constraint mixes (both spellings; absent ones left out).
fn transform_mix(o: &mut O, m: &TransformMix) {
    o.f("rotateMix", m.rotate_mix)
        .f("translateMix", m.translate_mix)
        .f("scaleMix", m.scale_mix)
        .f("shearMix", m.shear_mix)
        .f("mixRotate", m.mix_rotate)
        .f("mixX", m.mix_x)
        .f("mixY", m.mix_y)
        .f("mixScaleX", m.mix_scale_x)
        .f("mixScaleY", m.mix_scale_y)
        .f("mixShearY", m.mix_shear_y);
}

/// Path constraint mixes (both spellings; absent ones left out).
fn path_mix(o: &mut O, m: &PathMix) {
    o.f("rotateMix", m.rotate_mix)
        .f("translateMix", m.translate_mix)
        .f("mixRotate", m.mix_rotate)
        .f("mixX", m.mix_x)
        .f("mixY", m.mix_y);
}

/// An attachment, its keys spelled as `ver` spells them.
fn attachment(a: &Attachment, ver: SpineVersion) -> Jv {
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
                .f("x", *x)
                .f("y", *y)
                .f("scaleX", *scale_x)
                .f("scaleY", *scale_y)
                .f("rotation", *rotation)
                .f("width", Some(*width))
                .f("height", Some(*height))
                .c("color", *color);
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
            o.s("path", path).c("color", *color).f("width", *width).f("height", *height);
            sequence(&mut o, seq);
            o.put("uvs", floats(uvs))
                .put("vertices", floats(vertices))
                .put("triangles", u32s(triangles));
            if let Some(h) = hull {
                o.put("hull", uint(*h));
            }
            if let Some(e) = edges {
                o.put("edges", u32s(e));
            }
        }
        AttachmentKind::LinkedMesh {
            path,
            color,
            width,
            height,
            sequence: seq,
            parent,
            skin,
            timelines,
        } => {
            o.s("path", path).c("color", *color).f("width", *width).f("height", *height);
            sequence(&mut o, seq);
            o.put("parent", str_(parent))
                .s("skin", skin)
                .b(if ver >= SpineVersion::V4_1 { "timelines" } else { "deform" }, *timelines);
        }
        AttachmentKind::Path { closed, constant_speed, vertex_count, vertices, lengths, color } => {
            o.b("closed", *closed)
                .b("constantSpeed", *constant_speed)
                .put("vertexCount", uint(*vertex_count))
                .put("vertices", floats(vertices))
                .put("lengths", floats(lengths))
                .c("color", *color);
        }
        AttachmentKind::Point { x, y, rotation, color } => {
            o.f("x", *x).f("y", *y).f("rotation", *rotation).c("color", *color);
        }
        AttachmentKind::Clipping { end, vertex_count, vertices, color } => {
            o.s("end", end)
                .put("vertexCount", uint(*vertex_count))
                .put("vertices", floats(vertices))
                .c("color", *color);
        }
    }
    o.done()
}

/// The `<slot>: {<key>: attachment}` object of a skin.
fn skin_slots(slots: &[SkinSlot], ver: SpineVersion) -> Jv {
    Jv::Obj(
        slots
            .iter()
            .map(|s| {
                let atts =
                    s.attachments.iter().map(|a| (a.key.clone(), attachment(a, ver))).collect();
                (s.slot.clone(), Jv::Obj(atts))
            })
            .collect(),
    )
}

/// The style of `ver`: its key spellings, curves as the 3.x keys `curve`, `c2`…`c4`.
fn style(ver: SpineVersion) -> Style {
    Style { ver, curve: out::curve }
}

/// An animation's timelines, spelled as `ver` spells them.
fn animation(a: &Animation, ver: SpineVersion) -> Jv {
    let st = style(ver);
    let mut o = O::default();
    if !a.slots.is_empty() {
        o.put("slots", named(&a.slots, |ts| timelines(ts, |t| st.slot_timeline(t))));
    }
    if !a.bones.is_empty() {
        o.put("bones", named(&a.bones, |ts| timelines(ts, |t| st.bone_timeline(t))));
    }
    if !a.ik.is_empty() {
        o.put("ik", named(&a.ik, |k| st.ik_keys(k)));
    }
    if !a.transform.is_empty() {
        o.put("transform", named(&a.transform, |k| st.keys(k, transform_mix)));
    }
    if !a.path.is_empty() {
        let key = if ver < SpineVersion::V3_8 { "paths" } else { "path" };
        o.put(key, named(&a.path, |ts| timelines(ts, |t| path_timeline(st, t))));
    }
    if !a.physics.is_empty() {
        o.put("physics", named(&a.physics, |ts| timelines(ts, |t| st.physics_timeline(t))));
    }
    if !a.attachments.is_empty() {
        if ver < SpineVersion::V4_1 {
            o.put("deform", attachment_timelines(&a.attachments, |ts| deform_only(st, ts)));
        } else {
            let j = attachment_timelines(&a.attachments, |ts| st.attachment_timeline_object(ts));
            o.put("attachments", j);
        }
    }
    if let Some(d) = &a.draw_order {
        o.put("drawOrder", st.draw_order(d));
    }
    if let Some(e) = &a.events {
        o.put("events", st.event_keys(e));
    }
    o.done()
}

/// A path constraint timeline; 3.x names the value `position` / `spacing`.
fn path_timeline(st: Style, t: &PathTimeline) -> (&'static str, Jv) {
    let v3 = st.ver.is_v3();
    match t {
        PathTimeline::Position(k) => {
            ("position", st.keys1(k, if v3 { "position" } else { "value" }))
        }
        PathTimeline::Spacing(k) => ("spacing", st.keys1(k, if v3 { "spacing" } else { "value" })),
        PathTimeline::Mix(k) => ("mix", st.keys(k, path_mix)),
    }
}

/// An attachment's ≤4.0 `deform` keys (its sequence timelines have no spelling there).
fn deform_only(st: Style, ts: &[AttachmentTimeline]) -> Jv {
    ts.iter()
        .find_map(|t| match t {
            AttachmentTimeline::Deform(k) => Some(st.deform_keys(k)),
            AttachmentTimeline::Sequence(_) => None,
        })
        .unwrap_or(Jv::Arr(Vec::new()))
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

/// A bone, its inheritance key spelled as `ver` spells it.
fn bone(b: &Bone, ver: SpineVersion) -> Jv {
    let mut o = O::default();
    o.put("name", str_(&b.name))
        .s("parent", &b.parent)
        .f("length", b.length)
        .f("x", b.x)
        .f("y", b.y)
        .f("rotation", b.rotation)
        .f("scaleX", b.scale_x)
        .f("scaleY", b.scale_y)
        .f("shearX", b.shear_x)
        .f("shearY", b.shear_y);
    if let Some(inh) = b.inherit {
        let key = if ver >= SpineVersion::V4_2 { "inherit" } else { "transform" };
        o.put(key, str_(inh.as_str()));
    }
    o.b("skin", b.skin).c("color", b.color).s("icon", &b.icon).b("visible", b.visible).done()
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

/// An IK constraint.
fn ik(c: &IkConstraint) -> Jv {
    let mut o = O::default();
    head(&mut o, &c.head);
    o.list("bones", &c.bones)
        .put("target", str_(&c.target))
        .f("mix", c.mix)
        .f("softness", c.softness)
        .b("bendPositive", c.bend_positive)
        .b("compress", c.compress)
        .b("stretch", c.stretch)
        .b("uniform", c.uniform)
        .done()
}

/// A transform constraint.
fn transform(c: &TransformConstraint) -> Jv {
    let mut o = O::default();
    head(&mut o, &c.head);
    o.list("bones", &c.bones)
        .put("target", str_(&c.target))
        .b("local", c.local)
        .b("relative", c.relative)
        .f("rotation", c.rotation)
        .f("x", c.x)
        .f("y", c.y)
        .f("scaleX", c.scale_x)
        .f("scaleY", c.scale_y)
        .f("shearY", c.shear_y);
    transform_mix(&mut o, &c.mix);
    o.done()
}

/// A path constraint.
fn path(c: &PathConstraint) -> Jv {
    let mut o = O::default();
    head(&mut o, &c.head);
    o.list("bones", &c.bones)
        .put("target", str_(&c.target))
        .e("positionMode", c.position_mode.map(PositionMode::as_str))
        .e("spacingMode", c.spacing_mode.map(SpacingMode::as_str))
        .e("rotateMode", c.rotate_mode.map(RotateMode::as_str))
        .f("rotation", c.rotation)
        .f("position", c.position)
        .f("spacing", c.spacing);
    path_mix(&mut o, &c.mix);
    o.done()
}

/// A physics constraint (4.2).
fn physics(c: &PhysicsConstraint) -> Jv {
    let mut o = O::default();
    head(&mut o, &c.head);
    o.put("bone", str_(&c.bone))
        .f("x", c.x)
        .f("y", c.y)
        .f("rotate", c.rotate)
        .f("scaleX", c.scale_x)
        .f("shearX", c.shear_x)
        .f("limit", c.limit)
        .i("fps", c.fps)
        .f("inertia", c.inertia)
        .f("strength", c.strength)
        .f("damping", c.damping)
        .f("mass", c.mass)
        .f("wind", c.wind)
        .f("gravity", c.gravity)
        .f("mix", c.mix);
    let names = [
        "inertiaGlobal",
        "strengthGlobal",
        "dampingGlobal",
        "massGlobal",
        "windGlobal",
        "gravityGlobal",
        "mixGlobal",
    ];
    for (n, g) in names.iter().zip(c.global) {
        o.b(n, g);
    }
    o.done()
}

/// The skins: the 3.5–3.7 object form or the 3.8+ array form.
fn skins(skins: &[Skin], ver: SpineVersion) -> Jv {
    if ver < SpineVersion::V3_8 {
        return Jv::Obj(
            skins.iter().map(|k| (k.name.to_string(), skin_slots(&k.slots, ver))).collect(),
        );
    }
    let skins = skins.iter().map(|k| {
        let mut o = O::default();
        o.put("name", str_(&k.name))
            .list("bones", &k.bones)
            .list("ik", &k.ik)
            .list("transform", &k.transform)
            .list("path", &k.path)
            .list("physics", &k.physics);
        if !k.slots.is_empty() {
            o.put("attachments", skin_slots(&k.slots, ver));
        }
        o.c("color", k.color).done()
    });
    Jv::Arr(skins.collect())
}

/// An array of `items` written by `f`.
fn arr<T>(items: &[T], f: impl Fn(&T) -> Jv) -> Jv {
    Jv::Arr(items.iter().map(f).collect())
}

/// The whole document.
fn root(s: &Skeleton) -> Jv {
    let ver = s.version;
    let mut o = O::default();
    o.put("skeleton", info(&s.info));
    o.put("bones", arr(&s.bones, |b| bone(b, ver)));
    o.put("slots", arr(&s.slots, slot));
    if !s.ik.is_empty() {
        o.put("ik", arr(&s.ik, ik));
    }
    if !s.transform.is_empty() {
        o.put("transform", arr(&s.transform, transform));
    }
    if !s.path.is_empty() {
        o.put("path", arr(&s.path, path));
    }
    if !s.physics.is_empty() {
        o.put("physics", arr(&s.physics, physics));
    }
    o.put("skins", skins(&s.skins, ver));
    if !s.events.is_empty() {
        o.put("events", event_defs(&s.events));
    }
    if !s.animations.is_empty() {
        let anims = s.animations.iter().map(|a| (a.name.to_string(), animation(a, ver)));
        o.put("animations", Jv::Obj(anims.collect()));
    }
    o.done()
}

/// Writes a skeleton as JSON text (pretty-printed) that [`super::parse`] reads back to `s`.
pub fn write(s: &Skeleton) -> String {
    to_text(&root(s))
}
