//! 4.0–4.2 binary → [`SkeletonData`].
//!
//! Upgrade rules applied here (each unit-tested in `tests/`):
//!
//! * Constraints: the four per-type lists are merged into one list in the order spine-cpp
//!   4.2 `Skeleton::updateCache` updates them: for `i in 0..count`, the first IK, then
//!   transform, then path, then physics constraint whose `order == i`. A constraint that
//!   loop never reaches would never be updated by the runtime and is reported.
//! * Transform constraints keep the 4.2 maths: [`TransformSolver::Legacy4x`] with
//!   `local_source = local_target = local` and `additive = relative`; `properties` holds the
//!   identity mapping of the six properties (informational).
//! * IK `uniform: true` becomes [`ScaleYMode::Uniform`].
//! * Before 4.2 there is no reference scale: it is 100 (the 4.2 default), × scale.
//! * Defaults of fields absent from 4.2 flag bytes are the loader's (mixes 0 except IK mix
//!   1 when "mix present" without a value, physics limit 5000, mass inverse 1, mix 1).

mod animation;
mod attachments;
mod constraints;
mod skins;

use spine_format::binary::v40::ast as w;
use spine_format::binary::v40::meshes::MeshRef;
use spine_format::binary::v40::stream as wst;
use spine_format::binary::StrRef;

use crate::build::{Builder, Counts};
use crate::data::*;
use crate::error::LoadError;
use crate::ids::*;
use crate::LoadOptions;
use std::sync::Arc;

pub(crate) use animation::seq_mode;
use animation::AnimSink;

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

/// A slot's blend mode.
fn blend(b: w::BlendMode) -> BlendMode {
    match b {
        w::BlendMode::Normal => BlendMode::Normal,
        w::BlendMode::Additive => BlendMode::Additive,
        w::BlendMode::Multiply => BlendMode::Multiply,
        w::BlendMode::Screen => BlendMode::Screen,
    }
}

/// A mesh whose arrays were lent while reading: the address of the mesh in the AST (which
/// stays in place while it is converted) and its index in [`Conv::lent`].
type LentKey = (usize, usize);

/// A lent mesh's arrays as they were copied: the vertices unscaled and unchecked, the
/// other arrays packed (with room for page UVs when an atlas is bound).
type LentMesh = (Vertices, MeshArrays);

/// The conversion's state: the wire skeleton, its strings, the builder, constraint ids.
struct Conv<'a, 'o> {
    s: &'a w::Skeleton,
    /// The string table (borrowed from the bytes when streaming).
    strings: &'a [&'a str],
    /// The meshes' arrays lent while reading, in reading order (empty: they are in the AST).
    lent: Vec<LentMesh>,
    /// The meshes of [`Conv::lent`], in skin order ([`lent_keys`]).
    lent_keys: std::collections::VecDeque<LentKey>,
    /// Bone and slot names moved out of an owned skeleton (empty: clone them).
    names: Names,
    /// One shared string per string-table entry used by skin keys, attachment names and
    /// image paths (filled on first use): attachments of several skins name the same entry.
    shared: Vec<Option<Arc<str>>>,
    b: Builder<'o>,
    /// Constraint ids of the IK list, by wire index.
    ik: Vec<ConstraintId>,
    /// Constraint ids of the transform list.
    transform: Vec<ConstraintId>,
    /// Constraint ids of the path list.
    path: Vec<ConstraintId>,
    /// Constraint ids of the physics list.
    physics: Vec<ConstraintId>,
}

impl Conv<'_, '_> {
    /// The string `r` of the string table.
    fn text(&self, r: StrRef) -> Option<&str> {
        r.resolve(self.strings)
    }

    /// The string `r` refers to as a shared string (one allocation per table entry), or
    /// `None` where [`Conv::text`] gives `None`.
    fn shared(&mut self, r: StrRef) -> Option<Arc<str>> {
        let i = r.index()?;
        let s = *self.strings.get(i)?;
        let slot = self.shared.get_mut(i)?;
        Some(Arc::clone(slot.get_or_insert_with(|| Arc::from(s))))
    }

    /// [`share`] through the string cache: `base` when `r` is absent or spells `base`, else
    /// the table entry's shared string.
    #[inline]
    fn share_ref(&mut self, base: &Arc<str>, r: StrRef) -> Arc<str> {
        match self.text(r) {
            Some(s) if s != &**base => self.shared(r).unwrap_or_else(|| Arc::clone(base)),
            _ => Arc::clone(base),
        }
    }

    /// Scaled vertices, weighted ones validated.
    fn vertices(&mut self, v: &w::Vertices) -> Vertices {
        match v {
            w::Vertices::Plain(xy) => self.b.unweighted(xy),
            w::Vertices::Weighted(vs) => {
                if self.b.weighted_ok(&vs.counts, &vs.bones, &vs.values) {
                    return self.b.weighted_packed(&vs.counts, &vs.bones, &vs.values);
                }
                let groups = vs.groups().map(|v| v.map(|i| (i.bone, i.x, i.y, i.weight)));
                self.b.weighted_with_capacity(groups, vs.influence_count())
            }
        }
    }

    /// [`Conv::vertices`] of lent vertices (unscaled, unchecked): scaled in place when
    /// nothing needs reporting (same values, same problems).
    fn vertices_lent(&mut self, v: Vertices) -> Vertices {
        match v {
            Vertices::Unweighted(xy) => self.b.unweighted_owned(xy),
            Vertices::Weighted(mut wv) => {
                let bones = bytemuck::cast_slice(wv.bones());
                if self.b.weighted_ok(wv.counts(), bones, wv.values()) {
                    wv.scale_positions(self.b.scale);
                    return Vertices::Weighted(wv);
                }
                let (counts, values) = (wv.counts().to_vec(), wv.values().to_vec());
                let vs = w::WeightedVertices { counts, bones: bones.to_vec(), values };
                self.vertices(&w::Vertices::Weighted(vs))
            }
        }
    }
}

/// Loads a 4.0–4.2 skeleton from its bytes (`load_binary`): everything before the
/// animations is parsed into the raw AST and converted, its mesh buffers and names moved
/// into the model instead of copied; the animations are then streamed from the bytes into
/// the model's timelines (no AST for them). Errors are the parser's, as with `parse`.
pub(crate) fn load_streaming(
    bytes: &[u8],
    options: &LoadOptions<'_>,
) -> Result<SkeletonData, LoadError> {
    let lent = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let (into, page_room) = (std::rc::Rc::clone(&lent), options.atlas.is_some());
    let sink = Box::new(move |m: MeshRef<'_>| into.borrow_mut().push(copy_lent(m, page_room)));
    let (mut s, mut animations) = wst::parse_head_meshes(bytes, &options.limits, sink)?;
    let lent = std::rc::Rc::try_unwrap(lent).map(|l| l.into_inner()).unwrap_or_default();
    let names = Names {
        bones: s.bones.iter_mut().map(|b| std::mem::take(&mut b.name)).collect(),
        slots: s.slots.iter_mut().map(|b| std::mem::take(&mut b.name)).collect(),
    };
    let strings = animations.strings().to_vec();
    convert_with(&s, &strings, options, lent, names, Some(&mut animations))
}

/// Bone and slot names moved out of an owned skeleton, by index.
#[derive(Default)]
struct Names {
    /// Bone names.
    bones: Vec<spine_format::Name>,
    /// Slot names.
    slots: Vec<spine_format::Name>,
}

/// The moved name at `i` when there is one, else a copy of the skeleton's `name`.
fn moved_or_cloned(moved: &mut [spine_format::Name], i: usize, name: &str) -> spine_format::Name {
    match moved.get_mut(i) {
        Some(n) => std::mem::take(n),
        None => name.into(),
    }
}

/// Pairs each mesh of `s` with its lent arrays, in the order [`skins`] visits the meshes
/// (the reading order). Empty when nothing was lent (4.0, 4.1) or, which the reader never
/// does, not one per mesh.
fn lent_keys(s: &w::Skeleton, lent: usize) -> std::collections::VecDeque<LentKey> {
    let skins = || s.default_skin.iter().chain(s.skins.iter().map(|k| &k.slots));
    let meshes = || {
        skins().flat_map(|k| &k.attachments).filter_map(|e| match &e.attachment.kind {
            w::AttachmentKind::Mesh(m) => Some(std::ptr::from_ref::<w::Mesh>(m) as usize),
            _ => None,
        })
    };
    if lent == 0 || meshes().count() != lent {
        return std::collections::VecDeque::new();
    }
    meshes().enumerate().map(|(k, key)| (key, k)).collect()
}

/// Copies a lent mesh: one allocation for the vertices, one for the other arrays.
fn copy_lent(m: MeshRef<'_>, page_room: bool) -> LentMesh {
    let vertices = if m.weighted {
        Vertices::Weighted(WeightedVertices::from_raw(m.counts, m.bones, m.values))
    } else {
        Vertices::Unweighted(m.values.to_vec())
    };
    (vertices, MeshArrays::with_room(m.uvs, m.triangles, m.edges, page_room))
}

/// Converts a parsed 4.0–4.2 skeleton.
pub(crate) fn convert(
    s: &w::Skeleton,
    options: &LoadOptions<'_>,
) -> Result<SkeletonData, LoadError> {
    let strings: Vec<&str> = s.strings.iter().map(String::as_str).collect();
    convert_with(s, &strings, options, Vec::new(), Names::default(), None)
}

/// Converts, taking moved buffers and names, and streaming the animations when given.
fn convert_with<'a>(
    s: &'a w::Skeleton,
    strings: &'a [&'a str],
    options: &LoadOptions<'_>,
    lent: Vec<LentMesh>,
    names: Names,
    stream: Option<&mut wst::Animations<'_>>,
) -> Result<SkeletonData, LoadError> {
    let behaviour = Behaviour::new(s.generation, &s.header.version);
    let mut c = Conv {
        s,
        strings,
        lent_keys: lent_keys(s, lent.len()),
        lent,
        names,
        shared: vec![None; strings.len()],
        b: Builder::new(behaviour, options),
        ik: Vec::new(),
        transform: Vec::new(),
        path: Vec::new(),
        physics: Vec::new(),
    };
    let skin_slots = s.default_skin.iter().chain(s.skins.iter().map(|k| &k.slots));
    c.b.reserve(Counts {
        bones: s.bones.len(),
        slots: s.slots.len(),
        constraints: s.ik_constraints.len()
            + s.transform_constraints.len()
            + s.path_constraints.len()
            + s.physics_constraints.len(),
        skins: usize::from(s.default_skin.is_some()) + s.skins.len(),
        attachments: skin_slots.map(|k| k.attachments.len()).sum(),
        events: s.events.len(),
        animations: stream.as_ref().map_or(s.animations.len(), |a| a.len()),
    });
    header(&mut c);
    bones_and_slots(&mut c);
    constraints::constraints(&mut c);
    events(&mut c);
    skins::skins(&mut c);
    c.b.resolve_links();
    c.b.bind_atlas();
    let mut sink = AnimSink::new(&mut c);
    match stream {
        Some(animations) => {
            sink.reserve_keys(animations.remaining_bytes() / 4);
            while animations.read_next(&mut sink)? {
                sink.finish();
            }
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

/// The skeleton's header fields (bounds, hash, fps, reference scale).
fn header(c: &mut Conv<'_, '_>) {
    let h = &c.s.header;
    let d = &mut c.b.data;
    d.hash = h.hash_string();
    d.x = h.x;
    d.y = h.y;
    d.width = h.width;
    d.height = h.height;
    d.reference_scale = h.reference_scale.unwrap_or(100.0) * c.b.scale;
    d.fps = h.nonessential.as_ref().map_or(30.0, |n| n.fps);
}

/// The bones (parents first) and slots (setup draw order).
fn bones_and_slots(c: &mut Conv<'_, '_>) {
    for (i, bone) in c.s.bones.iter().enumerate() {
        let name = moved_or_cloned(&mut c.names.bones, i, &bone.name);
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
            color: bone.extras.as_ref().map(|e| Color::from_bytes(e.color)),
        };
        c.b.add_bone(i, bone.parent, data);
        c.b.pop();
    }
    for (i, slot) in c.s.slots.iter().enumerate() {
        let name = moved_or_cloned(&mut c.names.slots, i, &slot.name);
        c.b.enter("slot", &name);
        let bone = c.b.bone(slot.bone);
        let attachment = c.text(slot.attachment).map(str::to_owned);
        c.b.data.slots.push(SlotData {
            name,
            bone,
            color: Color::from_bytes(slot.color),
            dark_color: slot.dark_rgb().map(Color::from_rgb),
            attachment,
            blend: blend(slot.blend),
        });
        c.b.pop();
    }
}

/// The event definitions.
fn events(c: &mut Conv<'_, '_>) {
    for e in &c.s.events {
        let name = c.b.name("event", e.name.resolve(c.strings));
        c.b.data.events.push(EventData {
            name: name.into(),
            int_value: e.int,
            float_value: e.float,
            string_value: e.string.clone().unwrap_or_default(),
            audio_path: e.audio.as_ref().map(|a| a.path.clone()).unwrap_or_default(),
            volume: e.audio.as_ref().map_or(1.0, |a| a.volume),
            balance: e.audio.as_ref().map_or(0.0, |a| a.balance),
        });
    }
}
