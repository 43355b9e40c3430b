//! 4.3 binary → [`SkeletonData`].
//!
//! 4.3 is the model's native shape: constraints are already one list in update order, the
//! transform constraint already uses from/to properties ([`TransformSolver::FromTo`]), and
//! the scaled fields are those listed in `spine_format::binary::v43` (from/to offsets and
//! max × toScale, to `scale` × toScale / fromScale, slider property offset × scale and
//! slider scale ÷ scale for x/y). Physics `scaleX` carries the scale-y mode in its sign
//! (gotcha 8); the IK bend bit is inverted in setup data but not in timelines (gotcha 7);
//! the physics timeline index is 1-based with 0 meaning all (gotcha 5, decoded by the parser).

use spine_format::binary::shared::{Channels, CurveFrames, CurveTimeline, CurveType};
use spine_format::binary::v43 as w;
use spine_format::binary::StrRef;
use spine_format::SpineVersion;

use crate::anim::*;
use crate::build::{draw_order, share, Builder, PendingLink};
use crate::curves;
use crate::data::*;
use crate::error::{LoadError, ProblemKind};
use crate::ids::*;
use crate::v40::{
    check_mesh_parts, scale_xy, timeline_attachment, vertices_of, weighted_parts_valid,
};
use crate::LoadOptions;
use std::collections::VecDeque;
use std::sync::Arc;

fn inherit(i: w::Inherit) -> Inherit {
    match i {
        w::Inherit::Normal => Inherit::Normal,
        w::Inherit::OnlyTranslation => Inherit::OnlyTranslation,
        w::Inherit::NoRotationOrReflection => Inherit::NoRotationOrReflection,
        w::Inherit::NoScale => Inherit::NoScale,
        w::Inherit::NoScaleOrReflection => Inherit::NoScaleOrReflection,
    }
}

fn scale_y_mode(m: w::ScaleYMode) -> ScaleYMode {
    match m {
        w::ScaleYMode::None => ScaleYMode::None,
        w::ScaleYMode::Uniform => ScaleYMode::Uniform,
        w::ScaleYMode::Volume => ScaleYMode::Volume,
    }
}

fn property(p: w::TransformProperty) -> TransformProperty {
    match p {
        w::TransformProperty::Rotate => TransformProperty::Rotate,
        w::TransformProperty::X => TransformProperty::X,
        w::TransformProperty::Y => TransformProperty::Y,
        w::TransformProperty::ScaleX => TransformProperty::ScaleX,
        w::TransformProperty::ScaleY => TransformProperty::ScaleY,
        w::TransformProperty::ShearY => TransformProperty::ShearY,
    }
}

struct Conv<'a, 'o> {
    s: &'a w::Skeleton,
    b: Builder<'o>,
    /// Mesh buffers moved out of an owned tree ([`load_owned`]), in the order [`skins`]
    /// visits the meshes; empty when converting a borrowed tree.
    mesh_buffers: VecDeque<MeshBuffers>,
    /// Bone and slot names moved out of an owned tree, by index (empty: cloned).
    bone_names: Vec<String>,
    slot_names: Vec<String>,
}

/// A mesh's buffers moved out of the tree: the mesh's address (to match it when it is
/// converted), its UVs, triangles, edges and vertices.
type MeshBuffers = (usize, Vec<f32>, Vec<u32>, Vec<u32>, w::Vertices);

/// Moves every mesh's `uvs`, `triangles`, `edges` and vertices out of `s`, in the order
/// [`skins`] visits the meshes.
fn take_mesh_buffers(s: &mut w::Skeleton) -> VecDeque<MeshBuffers> {
    let mut out = VecDeque::new();
    let skins = s.default_skin.iter_mut().chain(s.skins.iter_mut().map(|k| &mut k.slots));
    for slots in skins {
        for e in slots.iter_mut().flat_map(|s| &mut s.attachments) {
            if let w::AttachmentKind::Mesh(m) = &mut e.attachment.kind {
                let key = std::ptr::from_ref::<w::MeshAttachment>(m) as usize;
                let edges = m
                    .nonessential
                    .as_mut()
                    .map(|x| std::mem::take(&mut x.edges))
                    .unwrap_or_default();
                out.push_back((
                    key,
                    std::mem::take(&mut m.uvs),
                    std::mem::take(&mut m.triangles),
                    edges,
                    std::mem::take(&mut m.vertices),
                ));
            }
        }
    }
    out
}

/// The moved name at `i` when there is one, else a copy of `name`.
fn moved_or_cloned(moved: &mut [String], i: usize, name: &str) -> String {
    match moved.get_mut(i) {
        Some(n) => std::mem::take(n),
        None => name.to_owned(),
    }
}

impl Conv<'_, '_> {
    fn text(&self, r: StrRef) -> Option<&str> {
        r.index().and_then(|i| self.s.strings.get(i)).and_then(|s| s.as_deref())
    }

    fn vertices(&mut self, v: &w::Vertices) -> Vertices {
        match v {
            w::Vertices::Unweighted(xy) => self.b.unweighted(xy),
            w::Vertices::Weighted(vs) => {
                let (scale, nbones) = (self.b.scale, self.b.data.bones.len());
                if weighted_parts_valid(&vs.counts, &vs.bones, &vs.values, nbones, scale) {
                    let mut values = vs.values.clone();
                    scale_xy(&mut values, scale);
                    return Vertices::Weighted(WeightedVertices {
                        counts: vs.counts.clone(),
                        bones: vs.bones.iter().map(|&b| BoneId(b)).collect(),
                        values,
                    });
                }
                let groups = vs.groups().map(|v| v.map(|i| (i.bone, i.x, i.y, i.weight)));
                self.b.weighted_with_capacity(groups, vs.influence_count())
            }
        }
    }

    /// [`Conv::vertices`] of vertices moved out of an owned tree: positions are scaled in
    /// place and the buffers reused (same values, same problems in the same order).
    fn vertices_owned(&mut self, v: w::Vertices) -> Vertices {
        match v {
            w::Vertices::Unweighted(mut xy) => {
                for v in &mut xy {
                    *v = self.b.fs("vertex", *v);
                }
                Vertices::Unweighted(xy)
            }
            w::Vertices::Weighted(mut vs) => {
                let (scale, nbones) = (self.b.scale, self.b.data.bones.len());
                if weighted_parts_valid(&vs.counts, &vs.bones, &vs.values, nbones, scale) {
                    scale_xy(&mut vs.values, scale);
                    // `u32` to `BoneId` in place (same layout: no allocation).
                    let bones = vs.bones.into_iter().map(BoneId).collect();
                    let (counts, values) = (vs.counts, vs.values);
                    return Vertices::Weighted(WeightedVertices { counts, bones, values });
                }
                self.vertices(&w::Vertices::Weighted(vs))
            }
        }
    }

    /// The load scale for x/y properties, 1 for the others.
    fn property_scale(&self, p: w::TransformProperty) -> f32 {
        if p.is_scaled() {
            self.b.scale
        } else {
            1.0
        }
    }
}

/// Converts a parsed 4.3 skeleton.
pub(crate) fn convert(
    s: &w::Skeleton,
    options: &LoadOptions<'_>,
) -> Result<SkeletonData, LoadError> {
    convert_with(s, options, VecDeque::new(), Vec::new(), Vec::new())
}

/// Converts a parsed 4.3 skeleton that the caller gives away: the same result as
/// [`convert`], with the mesh buffers and the bone and slot names moved, not copied.
pub(crate) fn load_owned(
    mut s: w::Skeleton,
    options: &LoadOptions<'_>,
) -> Result<SkeletonData, LoadError> {
    let buffers = take_mesh_buffers(&mut s);
    let bones = s.bones.iter_mut().map(|b| std::mem::take(&mut b.name)).collect();
    let slots = s.slots.iter_mut().map(|b| std::mem::take(&mut b.name)).collect();
    convert_with(&s, options, buffers, bones, slots)
}

fn convert_with(
    s: &w::Skeleton,
    options: &LoadOptions<'_>,
    mesh_buffers: VecDeque<MeshBuffers>,
    bone_names: Vec<String>,
    slot_names: Vec<String>,
) -> Result<SkeletonData, LoadError> {
    let mut c = Conv {
        s,
        b: Builder::new(Behaviour::new(SpineVersion::V4_3, &s.header.version), options),
        mesh_buffers,
        bone_names,
        slot_names,
    };
    let h = &s.header;
    c.b.data.hash = format!("{:x}{:x}", h.hash_high, h.hash_low);
    c.b.data.x = h.x;
    c.b.data.y = h.y;
    c.b.data.width = h.width;
    c.b.data.height = h.height;
    c.b.data.reference_scale = h.reference_scale * c.b.scale;
    c.b.data.fps = h.nonessential.as_ref().map_or(30.0, |n| n.fps);
    bones_and_slots(&mut c);
    for con in &s.constraints {
        let data = constraint(&mut c, con);
        c.b.data.constraints.push(data);
    }
    for e in &s.events {
        let [volume, balance] = e.volume_balance.unwrap_or([1.0, 0.0]);
        c.b.data.events.push(EventData {
            name: e.name.clone(),
            int_value: e.int_value,
            float_value: e.float_value,
            string_value: e.string_value.clone().unwrap_or_default(),
            audio_path: e.audio_path.clone().unwrap_or_default(),
            volume,
            balance,
        });
    }
    skins(&mut c);
    c.b.resolve_links();
    c.b.bind_atlas();
    for a in &s.animations {
        animation(&mut c, a);
    }
    c.b.finish()
}

fn bones_and_slots(c: &mut Conv<'_, '_>) {
    for (i, bone) in c.s.bones.iter().enumerate() {
        let name = moved_or_cloned(&mut c.bone_names, i, &bone.name);
        c.b.enter("bone", &name);
        let data = BoneData {
            name,
            parent: None,
            length: c.b.fs("length", bone.length),
            x: c.b.fs("x", bone.x),
            y: c.b.fs("y", bone.y),
            rotation: c.b.f("rotation", bone.rotation),
            scale_x: c.b.f("scale x", bone.scale_x),
            scale_y: c.b.f("scale y", bone.scale_y),
            shear_x: c.b.f("shear x", bone.shear_x),
            shear_y: c.b.f("shear y", bone.shear_y),
            inherit: inherit(bone.inherit),
            skin_required: bone.skin_required,
            color: bone.nonessential.as_ref().map(|e| Color::from_bytes(e.color)),
        };
        c.b.add_bone(i, bone.parent, data);
        c.b.pop();
    }
    for (i, slot) in c.s.slots.iter().enumerate() {
        let name = moved_or_cloned(&mut c.slot_names, i, &slot.name);
        c.b.enter("slot", &name);
        let bone = c.b.bone(slot.bone);
        let attachment = c.text(slot.attachment).map(str::to_owned);
        let blend = match slot.blend {
            w::BlendMode::Normal => BlendMode::Normal,
            w::BlendMode::Additive => BlendMode::Additive,
            w::BlendMode::Multiply => BlendMode::Multiply,
            w::BlendMode::Screen => BlendMode::Screen,
        };
        c.b.data.slots.push(SlotData {
            name,
            bone,
            color: Color::from_bytes(slot.color),
            dark_color: slot.dark_rgb().map(Color::from_rgb),
            attachment,
            blend,
        });
        c.b.pop();
    }
}

fn constraint(c: &mut Conv<'_, '_>, con: &w::Constraint) -> ConstraintData {
    let (kind, skin_required) = match &con.kind {
        w::ConstraintKind::Ik(k) => {
            c.b.enter("IK constraint", &con.name);
            let data = IkData {
                bones: c.b.bones(&k.bones),
                target: c.b.bone(k.target),
                mix: c.b.f("mix", k.mix_value()),
                softness: c.b.fs("softness", k.softness.unwrap_or(0.0)),
                bend_direction: k.bend_direction(),
                compress: k.compress(),
                stretch: k.stretch(),
                scale_y_mode: k.scale_y_mode.map_or(ScaleYMode::None, scale_y_mode),
            };
            if data.bones.is_empty() || data.bones.len() > 2 {
                let n = data.bones.len();
                c.b.report(ProblemKind::Invalid(format!("{n} constrained bones (1 or 2)")));
            }
            (ConstraintKind::Ik(data), k.skin_required())
        }
        w::ConstraintKind::Transform(t) => {
            c.b.enter("transform constraint", &con.name);
            let mut properties = Vec::with_capacity(t.properties.len());
            for from in &t.properties {
                let fs = c.property_scale(from.property);
                let mut to = Vec::with_capacity(from.to.len());
                for p in &from.to {
                    let ts = c.property_scale(p.property);
                    to.push(ToProperty {
                        property: property(p.property),
                        offset: c.b.f("to offset", p.offset * ts),
                        max: c.b.f("to max", p.max * ts),
                        scale: c.b.f("to scale", p.scale * ts / fs),
                    });
                }
                properties.push(FromProperty {
                    property: property(from.property),
                    offset: c.b.f("from offset", from.offset * fs),
                    to,
                });
            }
            let mut offsets = [0.0; 6];
            let mut mixes = [0.0; 6];
            for i in 0..6 {
                let o = t.offsets[i].unwrap_or(0.0);
                offsets[i] =
                    if i == 1 || i == 2 { c.b.fs("offset", o) } else { c.b.f("offset", o) };
                mixes[i] = c.b.f("mix", t.mixes[i].unwrap_or(0.0));
            }
            let data = TransformData {
                bones: c.b.bones(&t.bones),
                source: c.b.bone(t.source),
                local_source: t.local_source(),
                local_target: t.local_target(),
                additive: t.additive(),
                clamp: t.clamp(),
                properties,
                offsets,
                mixes,
                solver: TransformSolver::FromTo,
            };
            (ConstraintKind::Transform(data), t.skin_required())
        }
        w::ConstraintKind::Path(p) => {
            c.b.enter("path constraint", &con.name);
            let position_mode = match p.position_mode() {
                w::PositionMode::Fixed => PositionMode::Fixed,
                w::PositionMode::Percent => PositionMode::Percent,
            };
            let spacing_mode = match p.spacing_mode() {
                w::SpacingMode::Length => SpacingMode::Length,
                w::SpacingMode::Fixed => SpacingMode::Fixed,
                w::SpacingMode::Percent => SpacingMode::Percent,
                w::SpacingMode::Proportional => SpacingMode::Proportional,
            };
            let rotate_mode = match p.rotate_mode() {
                w::RotateMode::Tangent => RotateMode::Tangent,
                w::RotateMode::Chain => RotateMode::Chain,
                w::RotateMode::ChainScale => RotateMode::ChainScale,
            };
            let ps = if position_mode == PositionMode::Fixed { c.b.scale } else { 1.0 };
            let ss = if matches!(spacing_mode, SpacingMode::Length | SpacingMode::Fixed) {
                c.b.scale
            } else {
                1.0
            };
            let data = PathData {
                bones: c.b.bones(&p.bones),
                slot: c.b.slot(p.slot),
                position_mode,
                spacing_mode,
                rotate_mode,
                offset_rotation: c.b.f("offset rotation", p.offset_rotation.unwrap_or(0.0)),
                position: c.b.f("position", p.position * ps),
                spacing: c.b.f("spacing", p.spacing * ss),
                mix_rotate: c.b.f("mix rotate", p.mix_rotate),
                mix_x: c.b.f("mix x", p.mix_x),
                mix_y: c.b.f("mix y", p.mix_y),
            };
            (ConstraintKind::Path(data), p.skin_required())
        }
        w::ConstraintKind::Physics(p) => {
            c.b.enter("physics constraint", &con.name);
            let (scale_x, mode) = p.scale_x_and_mode();
            let g = p.global_flags;
            let data = PhysicsData {
                bone: c.b.bone(p.bone),
                x: c.b.f("x", p.x.unwrap_or(0.0)),
                y: c.b.f("y", p.y.unwrap_or(0.0)),
                rotate: c.b.f("rotate", p.rotate.unwrap_or(0.0)),
                scale_x: c.b.f("scale x", scale_x),
                shear_x: c.b.f("shear x", p.shear_x.unwrap_or(0.0)),
                scale_y_mode: scale_y_mode(mode),
                limit: c.b.fs("limit", p.limit.unwrap_or(5000.0)),
                step: c.b.physics_step(i64::from(p.fps)),
                inertia: c.b.f("inertia", p.inertia),
                strength: c.b.f("strength", p.strength),
                damping: c.b.f("damping", p.damping),
                mass_inverse: c.b.f("mass inverse", p.mass_inverse.unwrap_or(1.0)),
                wind: c.b.f("wind", p.wind),
                gravity: c.b.f("gravity", p.gravity),
                mix: c.b.f("mix", p.mix.unwrap_or(1.0)),
                globals: PhysicsGlobals {
                    inertia: g & 1 != 0,
                    strength: g & 2 != 0,
                    damping: g & 4 != 0,
                    mass: g & 8 != 0,
                    wind: g & 16 != 0,
                    gravity: g & 32 != 0,
                    mix: g & 64 != 0,
                },
            };
            if p.fps == 0 {
                c.b.report(ProblemKind::Invalid("physics fps is 0".into()));
            }
            (ConstraintKind::Physics(data), p.skin_required())
        }
        w::ConstraintKind::Slider(sl) => {
            c.b.enter("slider", &con.name);
            let n = c.s.animations.len();
            let animation = AnimationId(c.b.check_index("animation", sl.animation, n));
            let bone = sl.bone.as_ref().map(|sb| {
                let ps = c.property_scale(sb.property);
                SliderBone {
                    bone: c.b.bone(sb.bone),
                    property: property(sb.property),
                    property_offset: c.b.f("property offset", sb.property_offset * ps),
                    offset: c.b.f("offset", sb.offset),
                    scale: c.b.f("scale", sb.scale / ps),
                }
            });
            // With nonessential data a bone-driven slider's value is the editor's maximum
            // time, not the setup time (spine-ts 4.3 `SkeletonBinary`).
            let setup_time = match sl.value {
                Some(_) if c.s.nonessential() && sl.bone.is_some() => 0.0,
                v => v.unwrap_or(0.0),
            };
            let data = SliderData {
                animation,
                time: c.b.f("time", setup_time),
                mix: c.b.f("mix", sl.mix_value()),
                looping: sl.looping(),
                additive: sl.additive(),
                local: sl.local(),
                bone,
            };
            (ConstraintKind::Slider(data), sl.skin_required())
        }
    };
    c.b.pop();
    ConstraintData { name: con.name.clone(), skin_required, kind }
}

fn skins(c: &mut Conv<'_, '_>) {
    let s = c.s;
    if let Some(slots) = &s.default_skin {
        c.b.data.default_skin = Some(SkinId(0));
        let entries = skin_entries(c, slots);
        c.b.add_skin(SkinData {
            name: "default".into(),
            bones: Vec::new(),
            constraints: Vec::new(),
            entries,
            color: None,
        });
    }
    for skin in &s.skins {
        c.b.enter("skin", &skin.name);
        let bones = c.b.bones(&skin.bones);
        let n = s.constraints.len();
        let constraints = skin
            .constraints
            .iter()
            .map(|&i| ConstraintId(c.b.check_index("constraint", i, n)))
            .collect();
        let entries = skin_entries(c, &skin.slots);
        c.b.pop();
        c.b.add_skin(SkinData {
            name: skin.name.clone(),
            bones,
            constraints,
            entries,
            color: skin.color.map(Color::from_bytes),
        });
    }
}

fn skin_entries(c: &mut Conv<'_, '_>, slots: &[w::SkinSlot]) -> Vec<SkinEntry> {
    let mut entries = Vec::new();
    for sa in slots {
        let slot = c.b.slot(sa.slot);
        let slot_name =
            c.b.data.slots.get(slot.index()).map(|s| s.name.clone()).unwrap_or_default();
        c.b.enter("slot", &slot_name);
        for e in &sa.attachments {
            let key = c.text(e.placeholder).map(str::to_owned);
            let key = c.b.name_shared("attachment", key.as_deref());
            let name = share(&key, e.attachment.name.and_then(|n| c.text(n)));
            c.b.enter("attachment", &key);
            let id = attachment(c, &name, &e.attachment);
            c.b.pop();
            entries.push(SkinEntry { slot, name: key, attachment: id });
        }
        c.b.pop();
    }
    entries
}

fn seq(q: &Option<w::Sequence>) -> Option<[u32; 4]> {
    q.map(|q| [q.count, q.start, q.digits, q.setup_index])
}

fn color(c: Option<[u8; 4]>) -> Color {
    c.map_or(Color::WHITE, Color::from_bytes)
}

fn attachment(c: &mut Conv<'_, '_>, name: &Arc<str>, a: &w::Attachment) -> AttachmentId {
    let next = AttachmentId(c.b.data.attachments.len() as u32);
    let path_of = |c: &Conv<'_, '_>, p: Option<StrRef>| share(name, p.and_then(|p| c.text(p)));
    let kind = match &a.kind {
        w::AttachmentKind::Region(r) => {
            let path = path_of(c, r.path);
            let sequence = c.b.sequence(&path, seq(&r.sequence));
            AttachmentKind::Region(RegionAttachment {
                path,
                color: color(r.color),
                x: c.b.fs("x", r.x),
                y: c.b.fs("y", r.y),
                rotation: c.b.f("rotation", r.rotation.unwrap_or(0.0)),
                scale_x: c.b.f("scale x", r.scale_x),
                scale_y: c.b.f("scale y", r.scale_y),
                width: c.b.fs("width", r.width),
                height: c.b.fs("height", r.height),
                sequence,
                has_sequence: r.sequence.is_some(),
                offsets: None,
                uvs: None,
            })
        }
        w::AttachmentKind::BoundingBox(b) => AttachmentKind::BoundingBox(BoundingBoxAttachment {
            vertices: c.vertices(&b.vertices),
            color: b.color.map(Color::from_bytes),
        }),
        w::AttachmentKind::Mesh(m) => {
            let path = path_of(c, m.path);
            let sequence = c.b.sequence(&path, seq(&m.sequence));
            let key = std::ptr::from_ref::<w::MeshAttachment>(m) as usize;
            let (vertices, uvs, triangles, edges) =
                if c.mesh_buffers.front().is_some_and(|b| b.0 == key) {
                    let (_, uvs, triangles, edges, v) =
                        c.mesh_buffers.pop_front().unwrap_or_default();
                    (c.vertices_owned(v), uvs, triangles, edges)
                } else {
                    let edges =
                        m.nonessential.as_ref().map(|e| e.edges.clone()).unwrap_or_default();
                    (c.vertices(&m.vertices), m.uvs.clone(), m.triangles.clone(), edges)
                };
            check_mesh_parts(&mut c.b, &vertices, &uvs, &triangles, m.hull_length);
            let (width, height) = match &m.nonessential {
                Some(e) => (e.width * c.b.scale, e.height * c.b.scale),
                None => (0.0, 0.0),
            };
            let timeline_slots = m.timeline_slots.iter().map(|&s| c.b.slot(s)).collect();
            AttachmentKind::Mesh(MeshAttachment {
                path,
                color: color(m.color),
                vertices,
                region_uvs: uvs,
                triangles,
                hull_length: m.hull_length,
                edges,
                width,
                height,
                sequence,
                has_sequence: m.sequence.is_some(),
                linked_source: None,
                timeline_attachment: next,
                timeline_slots,
                uvs: None,
            })
        }
        w::AttachmentKind::LinkedMesh(m) => {
            let path = path_of(c, m.path);
            let sequence = c.b.sequence(&path, seq(&m.sequence));
            let source = c.text(m.source).map(str::to_owned);
            let source = c.b.name("linked mesh source", source.as_deref());
            let at = c.b.here();
            c.b.link(PendingLink {
                mesh: next,
                skin: m.skin,
                slot: m.source_slot,
                source,
                inherit_timelines: a.flags & 128 != 0,
                at,
            });
            let [width, height] = m.size.unwrap_or([0.0, 0.0]);
            AttachmentKind::Mesh(MeshAttachment {
                path,
                color: color(m.color),
                vertices: Vertices::Unweighted(Vec::new()),
                region_uvs: Vec::new(),
                triangles: Vec::new(),
                hull_length: 0,
                edges: Vec::new(),
                width: width * c.b.scale,
                height: height * c.b.scale,
                sequence,
                has_sequence: m.sequence.is_some(),
                linked_source: None,
                timeline_attachment: next,
                timeline_slots: Vec::new(),
                uvs: None,
            })
        }
        w::AttachmentKind::Path(p) => AttachmentKind::Path(PathAttachment {
            vertices: c.vertices(&p.vertices),
            lengths: p.lengths.iter().map(|&l| c.b.fs("path length", l)).collect(),
            closed: a.flags & 16 != 0,
            constant_speed: a.flags & 32 != 0,
            color: p.color.map(Color::from_bytes),
        }),
        w::AttachmentKind::Point(p) => AttachmentKind::Point(PointAttachment {
            x: c.b.fs("x", p.x),
            y: c.b.fs("y", p.y),
            rotation: c.b.f("rotation", p.rotation),
            color: p.color.map(Color::from_bytes),
        }),
        w::AttachmentKind::Clipping(k) => AttachmentKind::Clipping(ClippingAttachment {
            end_slot: c.b.slot(k.end_slot),
            vertices: c.vertices(&k.vertices),
            color: k.color.map(Color::from_bytes),
        }),
    };
    c.b.add_attachment(AttachmentData { name: Arc::clone(name), kind })
}

fn constraint_ref(c: &mut Conv<'_, '_>, index: u32, ty: ConstraintType) -> ConstraintId {
    let n = c.b.data.constraints.len();
    let i = c.b.check_index("constraint", index, n);
    if i as usize >= n {
        return ConstraintId(0);
    }
    c.b.constraint(ConstraintId(i), ty)
}

fn orders(
    c: &mut Conv<'_, '_>,
    n: usize,
    keys: &[w::DrawOrderKey],
    map: impl Fn(u32) -> SlotId,
) -> (Vec<f32>, Vec<Option<Vec<SlotId>>>) {
    let mut times = Vec::with_capacity(keys.len());
    let mut out = Vec::with_capacity(keys.len());
    for (i, k) in keys.iter().enumerate() {
        times.push(k.time);
        if k.changes.is_empty() {
            out.push(None);
            continue;
        }
        match draw_order(n, k.changes.iter().map(|ch| (ch.slot, ch.shift))) {
            Ok(o) => out.push(Some(o.into_iter().map(&map).collect())),
            Err(detail) => {
                c.b.report(ProblemKind::BadDrawOrder { key: i, detail });
                out.push(None);
            }
        }
    }
    (times, out)
}

/// An animation's keys being built: curve tables are streamed into `pool` (no table built
/// apart and copied), `unchecked` lists the timelines (indices in the animation's list)
/// whose tables saw a value that may not be finite.
#[derive(Default)]
struct Keys {
    pool: Vec<f32>,
    scratch: Vec<f32>,
    unchecked: Vec<usize>,
}

impl Keys {
    fn note(&mut self, at: usize, (c, s): (Curves, curves::Streamed)) -> Curves {
        if !s.finite {
            self.unchecked.push(at);
        }
        c
    }

    /// A float curve timeline (values and `cy` times `scale`), the `at`-th timeline.
    fn floats<const N: usize>(&mut self, at: usize, t: &CurveTimeline<[f32; N]>, s: f32) -> Curves
    where
        [f32; N]: Channels<Beziers = [[f32; 4]; N]>,
    {
        let out = curves::KeyOut { keys: &mut self.pool, curves: &mut self.scratch };
        match curves::stream_floats(out, CurveFrames::replay(t), s) {
            Ok(r) => self.note(at, r),
            // A replay reads no input and cannot fail; built apart all the same if it did.
            Err(_) => {
                self.unchecked.push(at);
                curves::floats(t, s).store(&mut self.pool)
            }
        }
    }

    /// A color curve timeline, the `at`-th timeline.
    fn colors<const N: usize>(&mut self, at: usize, t: &CurveTimeline<[u8; N]>) -> Curves
    where
        [u8; N]: Channels<Beziers = [[f32; 4]; N]>,
    {
        let out = curves::KeyOut { keys: &mut self.pool, curves: &mut self.scratch };
        match curves::stream_colors(out, CurveFrames::replay(t)) {
            Ok(r) => self.note(at, r),
            Err(_) => {
                self.unchecked.push(at);
                curves::colors(t).store(&mut self.pool)
            }
        }
    }
}

/// The number of timelines `a` becomes (exact).
fn timeline_count(a: &w::Animation) -> usize {
    a.slots.iter().map(|g| g.timelines.len()).sum::<usize>()
        + a.bones.iter().map(|g| g.timelines.len()).sum::<usize>()
        + a.ik.len()
        + a.transform.len()
        + a.path.iter().map(|g| g.timelines.len()).sum::<usize>()
        + a.physics.iter().map(|g| g.timelines.len()).sum::<usize>()
        + a.slider.iter().map(|g| g.timelines.len()).sum::<usize>()
        + a.attachments.iter().flat_map(|s| &s.slots).map(|s| s.attachments.len()).sum::<usize>()
        + usize::from(!a.draw_order.is_empty())
        + a.draw_order_folders.len()
        + usize::from(!a.events.is_empty())
}

fn animation(c: &mut Conv<'_, '_>, a: &w::Animation) {
    c.b.enter("animation", &a.name);
    let scale = c.b.scale;
    let mut tl = Vec::with_capacity(timeline_count(a));
    let mut k = Keys::default();
    for st in &a.slots {
        let slot = c.b.slot(st.slot);
        for t in &st.timelines {
            let (property, curves) = match t {
                w::SlotTimeline::Attachment(keys) => {
                    tl.push(Timeline::Attachment {
                        slot,
                        times: keys.iter().map(|k| k.time).collect(),
                        names: keys.iter().map(|k| c.text(k.attachment).map(Arc::from)).collect(),
                    });
                    continue;
                }
                w::SlotTimeline::Rgba(t) => (ColorProperty::Rgba, k.colors(tl.len(), t)),
                w::SlotTimeline::Rgb(t) => (ColorProperty::Rgb, k.colors(tl.len(), t)),
                w::SlotTimeline::Rgba2(t) => (ColorProperty::Rgba2, k.colors(tl.len(), t)),
                w::SlotTimeline::Rgb2(t) => (ColorProperty::Rgb2, k.colors(tl.len(), t)),
                w::SlotTimeline::Alpha(t) => (ColorProperty::Alpha, k.colors(tl.len(), t)),
            };
            tl.push(Timeline::Color { slot, property, curves });
        }
    }
    for bt in &a.bones {
        let bone = c.b.bone(bt.bone);
        for t in &bt.timelines {
            use BoneProperty as P;
            let at = tl.len();
            let (property, curves) = match t {
                w::BoneTimeline::Rotate(t) => (P::Rotate, k.floats(at, t, 1.0)),
                w::BoneTimeline::Translate(t) => (P::Translate, k.floats(at, t, scale)),
                w::BoneTimeline::TranslateX(t) => (P::TranslateX, k.floats(at, t, scale)),
                w::BoneTimeline::TranslateY(t) => (P::TranslateY, k.floats(at, t, scale)),
                w::BoneTimeline::Scale(t) => (P::Scale, k.floats(at, t, 1.0)),
                w::BoneTimeline::ScaleX(t) => (P::ScaleX, k.floats(at, t, 1.0)),
                w::BoneTimeline::ScaleY(t) => (P::ScaleY, k.floats(at, t, 1.0)),
                w::BoneTimeline::Shear(t) => (P::Shear, k.floats(at, t, 1.0)),
                w::BoneTimeline::ShearX(t) => (P::ShearX, k.floats(at, t, 1.0)),
                w::BoneTimeline::ShearY(t) => (P::ShearY, k.floats(at, t, 1.0)),
                w::BoneTimeline::Inherit(keys) => {
                    let keys = keys.iter().map(|k| (k.time, inherit(k.inherit))).collect();
                    tl.push(Timeline::Inherit { bone, keys });
                    continue;
                }
            };
            tl.push(Timeline::Bone { bone, property, curves });
        }
    }
    for t in &a.ik {
        let constraint = constraint_ref(c, t.constraint, ConstraintType::Ik);
        let n = t.keys.len();
        let beziers = t.keys.iter().filter(|k| k.bezier.is_some()).count() * 2;
        let mut curves = CurveBuf::new(2, n, beziers);
        let mut flags = Vec::with_capacity(n);
        for k in &t.keys {
            let mix = if k.flags & 1 == 0 { 0.0 } else { k.mix.unwrap_or(1.0) };
            curves.frames.extend_from_slice(&[k.time, mix, k.softness.unwrap_or(0.0) * scale]);
            flags.push(IkFlags {
                bend_direction: k.bend_direction(),
                compress: k.flags & 16 != 0,
                stretch: k.flags & 32 != 0,
            });
        }
        let mut next = 0;
        for (i, k) in t.keys.iter().enumerate().skip(1) {
            let (curve, ctl) = match k.bezier {
                Some([m, s]) => {
                    (CurveType::Bezier, vec![m, [s[0], s[1] * scale, s[2], s[3] * scale]])
                }
                None if k.flags & 64 != 0 => (CurveType::Stepped, Vec::new()),
                None => (CurveType::Linear, Vec::new()),
            };
            curves::segment(&mut curves, &mut next, i - 1, curve, &ctl, 1.0);
        }
        c.b.check_curves(curves.table());
        let curves = curves.store(&mut k.pool);
        tl.push(Timeline::Ik { constraint, curves, flags });
    }
    for t in &a.transform {
        let constraint = constraint_ref(c, t.constraint, ConstraintType::Transform);
        let curves = k.floats(tl.len(), &t.timeline, 1.0);
        tl.push(Timeline::Transform { constraint, curves });
    }
    for pt in &a.path {
        let constraint = constraint_ref(c, pt.constraint, ConstraintType::Path);
        let modes = match c.b.data.constraints.get(constraint.index()).map(|d| &d.kind) {
            Some(ConstraintKind::Path(p)) => Some((p.position_mode, p.spacing_mode)),
            _ => None,
        };
        for t in &pt.timelines {
            let at = tl.len();
            let (property, curves) = match t {
                w::PathTimeline::Position(t) => {
                    let s =
                        if matches!(modes, Some((PositionMode::Fixed, _))) { scale } else { 1.0 };
                    (PathProperty::Position, k.floats(at, t, s))
                }
                w::PathTimeline::Spacing(t) => {
                    let fixed =
                        matches!(modes, Some((_, SpacingMode::Length | SpacingMode::Fixed)));
                    (PathProperty::Spacing, k.floats(at, t, if fixed { scale } else { 1.0 }))
                }
                w::PathTimeline::Mix(t) => (PathProperty::Mix, k.floats(at, t, 1.0)),
            };
            tl.push(Timeline::Path { constraint, property, curves });
        }
    }
    for pt in &a.physics {
        let constraint = pt.constraint.map(|i| constraint_ref(c, i, ConstraintType::Physics));
        for t in &pt.timelines {
            match t {
                w::PhysicsTimeline::Property(p, t) => {
                    use w::PhysicsProperty as W;
                    let property = match p {
                        W::Inertia => PhysicsProperty::Inertia,
                        W::Strength => PhysicsProperty::Strength,
                        W::Damping => PhysicsProperty::Damping,
                        W::Mass => PhysicsProperty::Mass,
                        W::Wind => PhysicsProperty::Wind,
                        W::Gravity => PhysicsProperty::Gravity,
                        W::Mix => PhysicsProperty::Mix,
                    };
                    let curves = k.floats(tl.len(), t, 1.0);
                    tl.push(Timeline::Physics { constraint, property, curves });
                }
                w::PhysicsTimeline::Reset(times) => {
                    tl.push(Timeline::PhysicsReset { constraint, times: times.clone() })
                }
            }
        }
    }
    for st in &a.slider {
        let constraint = constraint_ref(c, st.constraint, ConstraintType::Slider);
        for t in &st.timelines {
            let at = tl.len();
            let (property, curves) = match t {
                w::SliderTimeline::Time(t) => (SliderProperty::Time, k.floats(at, t, 1.0)),
                w::SliderTimeline::Mix(t) => (SliderProperty::Mix, k.floats(at, t, 1.0)),
            };
            tl.push(Timeline::Slider { constraint, property, curves });
        }
    }
    for sk in &a.attachments {
        let skin_len = c.b.data.skins.len();
        let skin = SkinId(c.b.check_index("skin", sk.skin, skin_len));
        for sl in &sk.slots {
            let slot = c.b.slot(sl.slot);
            for e in &sl.attachments {
                let key = c.text(e.attachment).unwrap_or_default().to_owned();
                let is_deform = matches!(e.kind, w::AttachmentTimelineKind::Deform(_));
                let Some(att) = timeline_attachment(&mut c.b, skin, slot, &key, is_deform) else {
                    continue;
                };
                match &e.kind {
                    w::AttachmentTimelineKind::Deform(d) => {
                        let vertices = vertices_of(&c.b.data.attachments[att.index()].kind);
                        let n = d.keys.len();
                        let beziers = d.curves.iter().filter(|k| **k == CurveType::Bezier).count();
                        let mut curves = CurveBuf::new(0, n, beziers);
                        let mut keys = Vec::with_capacity(n);
                        c.b.enter("deform", &key);
                        for (i, k) in d.keys.iter().enumerate() {
                            curves.frames.push(k.time);
                            let vals = k.values.as_ref().map(|v| (v.start, v.values.as_slice()));
                            keys.push(c.b.deform_key(i, &vertices, vals));
                        }
                        c.b.pop();
                        let mut next = 0;
                        let mut controls = d.beziers.iter();
                        for (i, &curve) in d.curves.iter().enumerate().take(n.saturating_sub(1)) {
                            let ctl: Vec<[f32; 4]> = if curve == CurveType::Bezier {
                                controls.next().copied().into_iter().collect()
                            } else {
                                Vec::new()
                            };
                            curves::segment(&mut curves, &mut next, i, curve, &ctl, 1.0);
                        }
                        let curves = curves.store(&mut k.pool);
                        tl.push(Timeline::Deform { slot, attachment: att, curves, vertices: keys });
                    }
                    w::AttachmentTimelineKind::Sequence(keys) => {
                        let keys = keys
                            .iter()
                            .map(|k| SequenceKey {
                                time: k.time,
                                mode: seq_mode(k.mode),
                                index: k.index,
                                delay: k.delay,
                            })
                            .collect();
                        tl.push(Timeline::Sequence { slot, attachment: att, keys });
                    }
                }
            }
        }
    }
    if !a.draw_order.is_empty() {
        let n = c.b.data.slots.len();
        let (times, orders) = orders(c, n, &a.draw_order, SlotId);
        tl.push(Timeline::DrawOrder { times, orders });
    }
    for f in &a.draw_order_folders {
        let slots: Vec<SlotId> = f.slots.iter().map(|&s| c.b.slot(s)).collect();
        let map = slots.clone();
        let (times, orders) =
            orders(c, slots.len(), &f.keys, |i| map.get(i as usize).copied().unwrap_or_default());
        tl.push(Timeline::DrawOrderFolder { slots, times, orders });
    }
    if !a.events.is_empty() {
        let mut keys = Vec::with_capacity(a.events.len());
        for k in &a.events {
            let event = c.b.event(k.event);
            let def = c.b.data.events.get(event.index());
            let string_value = k
                .string_value
                .clone()
                .or_else(|| def.map(|d| d.string_value.clone()))
                .unwrap_or_default();
            let [volume, balance] = k
                .volume_balance
                .unwrap_or_else(|| def.map_or([1.0, 0.0], |d| [d.volume, d.balance]));
            keys.push(EventKey {
                time: k.time,
                event,
                int_value: k.int_value,
                float_value: k.float_value,
                string_value,
                volume,
                balance,
            });
        }
        tl.push(Timeline::Event { keys });
    }
    // Only the tables that saw a value that may not be finite can report one (in order).
    for &i in &k.unchecked {
        if let Some(
            Timeline::Bone { curves, .. }
            | Timeline::Color { curves, .. }
            | Timeline::Transform { curves, .. }
            | Timeline::Path { curves, .. }
            | Timeline::Physics { curves, .. }
            | Timeline::Slider { curves, .. },
        ) = tl.get(i)
        {
            c.b.check_curves(curves.table(&k.pool));
        }
    }
    c.b.pop();
    c.b.data.animations.push(AnimationData {
        name: a.name.clone(),
        duration: a.duration(),
        timelines: tl,
        keys: k.pool,
    });
}

fn seq_mode(m: w::SequenceMode) -> SequenceMode {
    match m {
        w::SequenceMode::Hold => SequenceMode::Hold,
        w::SequenceMode::Once => SequenceMode::Once,
        w::SequenceMode::Loop => SequenceMode::Loop,
        w::SequenceMode::PingPong => SequenceMode::PingPong,
        w::SequenceMode::OnceReverse => SequenceMode::OnceReverse,
        w::SequenceMode::LoopReverse => SequenceMode::LoopReverse,
        w::SequenceMode::PingPongReverse => SequenceMode::PingPongReverse,
    }
}
