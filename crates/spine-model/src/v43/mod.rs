//! 4.3 binary → [`SkeletonData`].
//!
//! 4.3 is the model's native shape: constraints are already one list in update order, the
//! transform constraint already uses from/to properties ([`TransformSolver::FromTo`]), and
//! the scaled fields are those listed in `spine_format::binary::v43` (from/to offsets and
//! max × toScale, to `scale` × toScale / fromScale, slider property offset × scale and
//! slider scale ÷ scale for x/y). Physics `scaleX` carries the scale-y mode in its sign
//! (gotcha 8); the IK bend bit is inverted in setup data but not in timelines (gotcha 7);
//! the physics timeline index is 1-based with 0 meaning all (gotcha 5, decoded by the parser).

mod animation;
mod attachments;
mod constraints;
mod keyed;
mod skins;

use spine_format::binary::v43 as w;
use spine_format::binary::StrRef;
use spine_format::SpineVersion;

use crate::build::{Builder, Counts};
use crate::data::*;
use crate::error::LoadError;
use crate::LoadOptions;
use animation::AnimSink;
use std::collections::VecDeque;
use std::sync::Arc;

/// A bone's inheritance.
fn inherit(i: w::Inherit) -> Inherit {
    match i {
        w::Inherit::Normal => Inherit::Normal,
        w::Inherit::OnlyTranslation => Inherit::OnlyTranslation,
        w::Inherit::NoRotationOrReflection => Inherit::NoRotationOrReflection,
        w::Inherit::NoScale => Inherit::NoScale,
        w::Inherit::NoScaleOrReflection => Inherit::NoScaleOrReflection,
    }
}

/// An IK or physics scale-y mode.
fn scale_y_mode(m: w::ScaleYMode) -> ScaleYMode {
    match m {
        w::ScaleYMode::None => ScaleYMode::None,
        w::ScaleYMode::Uniform => ScaleYMode::Uniform,
        w::ScaleYMode::Volume => ScaleYMode::Volume,
    }
}

/// A transform or slider property.
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

/// The conversion's state: the wire skeleton, the builder, buffers moved out of it.
struct Conv<'a, 'o> {
    s: &'a w::Skeleton,
    b: Builder<'o>,
    /// The vertices of mesh, bounding box, path and clipping attachments moved out of an
    /// owned tree ([`load_streaming`]), each with the address of the field they were taken
    /// from, in the order [`skins`] visits them; empty when converting a borrowed tree.
    vertex_buffers: VecDeque<(usize, w::Vertices)>,
    /// Bone and slot names moved out of an owned tree, by index (empty: cloned).
    bone_names: Vec<spine_format::Name>,
    slot_names: Vec<spine_format::Name>,
    /// The number of animations (slider constraints' animation indices are checked
    /// against it).
    animation_count: usize,
    /// One shared string per string-table entry used by skin keys, attachment names, image
    /// paths and attachment keys (filled on first use): several skins name the same entry.
    shared: Vec<Option<Arc<str>>>,
}

/// Moves the vertices of every mesh, bounding box, path and clipping attachment out of `s`
/// into `moved`, in the order [`skins`] visits the attachments (a mesh's other arrays are
/// copied into the model's packed ones from the tree).
fn take_buffers(s: &mut w::Skeleton, moved: &mut Moved) {
    let skins = s.default_skin.iter_mut().chain(s.skins.iter_mut().map(|k| &mut k.slots));
    for slots in skins {
        for e in slots.iter_mut().flat_map(|s| &mut s.attachments) {
            let vertices = match &mut e.attachment.kind {
                w::AttachmentKind::Mesh(m) => &mut m.vertices,
                w::AttachmentKind::BoundingBox(b) => &mut b.vertices,
                w::AttachmentKind::Path(p) => &mut p.vertices,
                w::AttachmentKind::Clipping(k) => &mut k.vertices,
                _ => continue,
            };
            let key = std::ptr::from_ref::<w::Vertices>(vertices) as usize;
            moved.vertex_buffers.push_back((key, std::mem::take(vertices)));
        }
    }
}

/// The moved name at `i` when there is one, else a copy of `name`.
fn moved_or_cloned(moved: &mut [spine_format::Name], i: usize, name: &str) -> spine_format::Name {
    match moved.get_mut(i) {
        Some(n) => std::mem::take(n),
        None => name.into(),
    }
}

/// The string `r` of the string table of `s` (borrowed from `s`, not from a [`Conv`]).
fn text_of(s: &w::Skeleton, r: StrRef) -> Option<&str> {
    r.index().and_then(|i| s.strings.get(i)).and_then(|s| s.as_deref())
}

impl<'a> Conv<'a, '_> {
    /// The string `r` of the skeleton's string table.
    fn text(&self, r: StrRef) -> Option<&'a str> {
        text_of(self.s, r)
    }

    /// The string `r` refers to as a shared string (one allocation per table entry), or
    /// `None` where [`Conv::text`] gives `None`.
    fn shared(&mut self, r: StrRef) -> Option<Arc<str>> {
        let s = self.text(r)?;
        let slot = self.shared.get_mut(r.index()?)?;
        Some(Arc::clone(slot.get_or_insert_with(|| Arc::from(s))))
    }

    /// [`share`](crate::build::share) through the string cache: `base` when `r` is absent
    /// or spells `base`, else the table entry's shared string.
    fn share_ref(&mut self, base: &Arc<str>, r: Option<StrRef>) -> Arc<str> {
        match r.and_then(|r| self.text(r).map(|s| (r, s))) {
            Some((r, s)) if s != &**base => self.shared(r).unwrap_or_else(|| Arc::clone(base)),
            _ => Arc::clone(base),
        }
    }

    /// Scaled vertices, weighted ones validated.
    fn vertices(&mut self, v: &w::Vertices) -> Vertices {
        match v {
            w::Vertices::Unweighted(xy) => self.b.unweighted(xy),
            w::Vertices::Weighted(vs) => {
                if self.b.weighted_ok(&vs.counts, &vs.bones, &vs.values) {
                    return self.b.weighted_packed(&vs.counts, &vs.bones, &vs.values);
                }
                let groups = vs.groups().map(|v| v.map(|i| (i.bone, i.x, i.y, i.weight)));
                self.b.weighted_with_capacity(groups, vs.influence_count())
            }
        }
    }

    /// [`Conv::vertices`] of the vertices at `v`, moved out of the tree when
    /// [`take_buffers`] took them (the next of [`Conv::vertex_buffers`]).
    fn vertices_at(&mut self, v: &w::Vertices) -> Vertices {
        let key = std::ptr::from_ref::<w::Vertices>(v) as usize;
        match self.vertex_buffers.front() {
            Some(&(k, _)) if k == key => {
                let moved = self.vertex_buffers.pop_front().map(|(_, v)| v).unwrap_or_default();
                self.vertices_owned(moved)
            }
            _ => self.vertices(v),
        }
    }

    /// [`Conv::vertices`] of vertices moved out of an owned tree: positions are scaled in
    /// place and the buffers reused (same values, same problems in the same order).
    fn vertices_owned(&mut self, v: w::Vertices) -> Vertices {
        match v {
            w::Vertices::Unweighted(xy) => self.b.unweighted_owned(xy),
            w::Vertices::Weighted(vs) => {
                if self.b.weighted_ok(&vs.counts, &vs.bones, &vs.values) {
                    return self.b.weighted_packed(&vs.counts, &vs.bones, &vs.values);
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
    convert_with(s, options, Moved::default(), None)
}

/// Loads a 4.3 skeleton from its bytes (`load_binary`): everything before the animations
/// is parsed into the raw AST and converted, its mesh buffers and names moved into the
/// model instead of copied; the animations are then streamed from the bytes into the
/// model's timelines (no AST for them), and the slider constraints' animations, which
/// follow them on the wire, set last. Errors are the parser's, as with `parse`.
pub(crate) fn load_streaming(
    bytes: &[u8],
    options: &LoadOptions<'_>,
) -> Result<SkeletonData, LoadError> {
    let (mut s, animations) = w::parse_head(bytes, &options.limits)?;
    let mut moved = Moved {
        bone_names: s.bones.iter_mut().map(|b| std::mem::take(&mut b.name)).collect(),
        slot_names: s.slots.iter_mut().map(|b| std::mem::take(&mut b.name)).collect(),
        ..Moved::default()
    };
    take_buffers(&mut s, &mut moved);
    convert_with(&s, options, moved, Some(animations))
}

/// What a caller gave away of its tree: vertex attachments' vertices and bone and slot
/// names (empty: they are copied).
#[derive(Default)]
struct Moved {
    /// Vertex attachments' vertices, keyed by their field's address.
    vertex_buffers: VecDeque<(usize, w::Vertices)>,
    /// Bone names, by index.
    bone_names: Vec<spine_format::Name>,
    /// Slot names, by index.
    slot_names: Vec<spine_format::Name>,
}

/// Converts, taking moved buffers and names, and streaming the animations when given.
fn convert_with(
    s: &w::Skeleton,
    options: &LoadOptions<'_>,
    moved: Moved,
    stream: Option<w::Animations<'_>>,
) -> Result<SkeletonData, LoadError> {
    let animation_count = stream.as_ref().map_or(s.animations.len(), |a| a.len());
    let mut c = Conv {
        s,
        b: Builder::new(Behaviour::new(SpineVersion::V4_3, &s.header.version), options),
        vertex_buffers: moved.vertex_buffers,
        bone_names: moved.bone_names,
        slot_names: moved.slot_names,
        animation_count,
        shared: vec![None; s.strings.len()],
    };
    c.b.reserve(counts(s, animation_count));
    header(&mut c);
    bones_and_slots(&mut c);
    for con in &s.constraints {
        let data = constraints::constraint(&mut c, con);
        c.b.data.constraints.push(data);
    }
    events(&mut c);
    skins::skins(&mut c);
    // The skin walk visits the attachments in the order `take_buffers` took their buffers, so
    // it has matched every one back (a drift would leave a moved attachment empty).
    debug_assert!(
        c.vertex_buffers.is_empty(),
        "a moved buffer was not matched back by the skin walk"
    );
    c.b.resolve_links();
    c.b.bind_atlas();
    let mut sink = AnimSink::new(&mut c);
    match stream {
        Some(mut animations) => {
            while animations.read_next_into(&mut sink)? {
                sink.finish();
            }
            set_slider_animations(&mut c, &animations.finish()?);
        }
        None => {
            for a in &s.animations {
                a.replay(&mut sink)?;
                sink.finish();
            }
        }
    }
    c.b.finish()
}

/// Sets each slider constraint's animation, `(constraint index, animation index)` as
/// [`w::Animations::finish`] gives them (both already checked by the parser).
fn set_slider_animations(c: &mut Conv<'_, '_>, sliders: &[(usize, u32)]) {
    for &(k, animation) in sliders {
        if let Some(ConstraintKind::Slider(d)) =
            c.b.data.constraints.get_mut(k).map(|c| &mut c.kind)
        {
            d.animation = crate::ids::AnimationId(animation);
        }
    }
}

/// What the skeleton holds, for reserving the model's lists once.
fn counts(s: &w::Skeleton, animations: usize) -> Counts {
    let skin_slots = s.default_skin.iter().chain(s.skins.iter().map(|k| &k.slots));
    Counts {
        bones: s.bones.len(),
        slots: s.slots.len(),
        constraints: s.constraints.len(),
        skins: s.skin_count(),
        attachments: skin_slots.flatten().map(|k| k.attachments.len()).sum(),
        events: s.events.len(),
        animations,
    }
}

/// The bones (parents first) and slots (setup draw order).
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

/// The skeleton's header fields (bounds, hash, fps, reference scale).
fn header(c: &mut Conv<'_, '_>) {
    let h = &c.s.header;
    c.b.data.hash = format!("{:x}{:x}", h.hash_high, h.hash_low);
    c.b.data.x = h.x;
    c.b.data.y = h.y;
    c.b.data.width = h.width;
    c.b.data.height = h.height;
    c.b.data.reference_scale = h.reference_scale * c.b.scale;
    c.b.data.fps = h.nonessential.as_ref().map_or(30.0, |n| n.fps);
}

/// The event definitions.
fn events(c: &mut Conv<'_, '_>) {
    for e in &c.s.events {
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
}
