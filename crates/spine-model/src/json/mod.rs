//! JSON skeletons (editor 3.5–4.2, `spine_format::json::Skeleton`) → [`SkeletonData`].
//!
//! Semantics and defaults follow spine-libgdx `SkeletonJson.java` of the declared version
//! (not spine-cpp's JSON loader, whose 4.x transform timelines read `mixShearY` wrongly).
//! The parser already folded the version's key spellings and records absent fields as
//! `None`; this module applies the defaults (documented per field in the format crate).
//!
//! Rules (shared with the binary conversions, see `v3x.rs` / `v40.rs`):
//!
//! * Every file gets [`Behaviour::new`] of its declared version;
//!   3.x files get 3.x sampled curves (one `setCurve` bezier per
//!   segment; 3.5–3.7 `curve: [cx1, cy1, cx2, cy2]`, 3.8 `curve: cx1` + `c2`, `c3`, `c4`
//!   with defaults 0, 1, 1, and any string stepped); 4.x files get 4.x per-channel beziers (`cy` scaled like the values).
//! * Names resolve to ids; a name that names nothing is a [`ProblemKind::UnknownName`].
//!   A bone's parent must be defined before it (the loaders look it up among the bones
//!   read so far).
//! * Constraints are merged by `order` as in the binary conversions (IK, then transform,
//!   then path, then physics for equal scan positions).
//! * The default skin is the skin named `"default"`; it is placed first, the others keep
//!   file order (as the binary lists them).
//! * 3.x transform/path mixes expand to the 4.x six/three mixes as in `v3x.rs`; 3.x
//!   transform constraints use [`TransformSolver::Legacy3x`], 4.x ones `Legacy4x`.
//! * 3.5–3.7 `scale` keys default to 0 (the loaders' default), 3.8+ to 1.
//! * 3.8 `skin` flags read as `false` (spine-cpp 3.8 `Json::getBoolean`, see `skin_flag`).

mod animation;
mod attachments;
mod constraints;
mod skins;
mod tables;

use std::collections::HashMap;

use spine_format::json as j;
use spine_format::SpineVersion;

use crate::anim::CurveBuf;
use crate::build::Builder;
use crate::data::*;
use crate::error::{LoadError, ProblemKind};
use crate::ids::*;
use crate::LoadOptions;

/// Names borrowed from the raw skeleton → `V`, hashed by foldhash (per-map random seeds;
/// std's SipHash took ~1.5 % of a spineboy JSON load for ~450 lookups).
type NameMap<'a, V> = HashMap<&'a str, V, foldhash::fast::RandomState>;

/// An empty [`NameMap`] with room for `n` names.
fn name_map<'a, V>(n: usize) -> NameMap<'a, V> {
    HashMap::with_capacity_and_hasher(n, Default::default())
}

/// Name → index of a list, the first of equal names winning. Keys borrow the raw skeleton's
/// strings (no copy per name).
fn names<'a, T>(list: &'a [T], name: impl Fn(&'a T) -> &'a str) -> NameMap<'a, u32> {
    let mut m = name_map(list.len());
    for (i, x) in list.iter().enumerate() {
        m.entry(name(x)).or_insert(i as u32);
    }
    m
}

/// The conversion's state: the raw skeleton, the builder, and name → index maps.
struct Conv<'a, 'o> {
    s: &'a j::Skeleton,
    b: Builder<'o>,
    v3: bool,
    bones: NameMap<'a, u32>,
    slots: NameMap<'a, u32>,
    events: NameMap<'a, u32>,
    /// Per type (IK, transform, path, physics): name → constraint id.
    cons: [NameMap<'a, ConstraintId>; 4],
    /// A curve table's storage, reused by the next table once copied into its animation's
    /// keys.
    spare: CurveBuf,
}

/// The `skin` (skin-required) flag of a bone or constraint. spine-cpp 3.8 reads it with
/// `Json::getBoolean`, which returns the default (`false`) for the literals `true` and
/// `false` (3.7 and 4.0 handle them), so 3.8 JSON loads have no skin-required bones or
/// constraints in the official runtime; the binary loader reads the flag.
fn skin_flag(s: &j::Skeleton, flag: Option<bool>) -> bool {
    let cpp38 = s.version >= SpineVersion::V3_8 && s.version < SpineVersion::V4_0;
    !cpp38 && flag.unwrap_or(false)
}

impl Conv<'_, '_> {
    /// The index of the bone, slot or event (`what`) named `name`, reported if none.
    fn lookup(&mut self, what: &'static str, name: &str) -> Option<u32> {
        let map = match what {
            "bone" => &self.bones,
            "slot" => &self.slots,
            _ => &self.events,
        };
        let found = map.get(name).copied();
        if found.is_none() {
            self.b.report(ProblemKind::UnknownName { what, name: name.to_owned() });
        }
        found
    }
    fn bone(&mut self, name: &str) -> BoneId {
        BoneId(self.lookup("bone", name).unwrap_or(0))
    }
    fn slot(&mut self, name: &str) -> SlotId {
        SlotId(self.lookup("slot", name).unwrap_or(0))
    }
    fn bone_indices(&mut self, names: &[String]) -> Vec<u32> {
        names.iter().map(|n| self.lookup("bone", n).unwrap_or(0)).collect()
    }
    /// The constraint of type `ty` (0 IK … 3 physics) named `name`, reported if none.
    fn constraint(&mut self, ty: usize, name: &str) -> Option<ConstraintId> {
        let found = self.cons[ty].get(name).copied();
        if found.is_none() {
            let what =
                ["IK constraint", "transform constraint", "path constraint", "physics constraint"]
                    [ty];
            self.b.report(ProblemKind::UnknownName { what, name: name.to_owned() });
        }
        found
    }
}

impl SkeletonData {
    /// Resolves and validates a parsed JSON skeleton (editor 3.5–4.2).
    pub fn from_json(s: &j::Skeleton, options: &LoadOptions<'_>) -> Result<Self, LoadError> {
        let mut c = head(s, options);
        let mut skins = skins::SkinConv::new(&mut c);
        let (default, other): (Vec<_>, Vec<_>) = s.skins.iter().partition(|k| k.name == "default");
        for skin in default.into_iter().chain(other) {
            skin.clone().replay(&mut skins);
        }
        skins.finish();
        bind(&mut c);
        let mut sink = animation::AnimSink::new(&mut c);
        for a in &s.animations {
            a.replay(&mut sink);
        }
        c.b.finish()
    }
}

/// Parses and resolves JSON skeleton text with an optional atlas (scale 1): 3.5–4.2, and 4.3
/// through [`crate::load_json43`].
pub fn load_json(
    text: &str,
    atlas: Option<&spine_format::atlas::Atlas>,
) -> Result<SkeletonData, LoadError> {
    load_text(text, &LoadOptions::with_atlas(atlas))
}

/// Parses and resolves JSON skeleton text within `options.limits`: everything but the skins
/// and animations is parsed and resolved first, then the skins and each animation are
/// streamed from the parsed document into the skeleton (no raw skin or animation is built).
/// The errors are [`spine_format::json::parse_with_limits`]'s, in its order, then the
/// problems [`SkeletonData::from_json`] reports; a 4.3 skeleton goes to its own reader.
pub(crate) fn load_text(text: &str, options: &LoadOptions<'_>) -> Result<SkeletonData, LoadError> {
    let (s, skins) = match j::parse_lean(text, &options.limits) {
        Ok(parsed) => parsed,
        // A 4.3 skeleton (its own JSON reader).
        Err(e) if crate::json43::declares_43(&e, text) => {
            let parsed = spine_format::json43::parse_with_limits(text, &options.limits)?;
            return SkeletonData::from_json43(&parsed, options);
        }
        Err(e) => return Err(LoadError::Json(e)),
    };
    let mut c = head(&s, options);
    let mut sink = skins::SkinConv::new(&mut c);
    let mut animations = skins.read(&mut sink).map_err(LoadError::Json)?;
    sink.finish();
    bind(&mut c);
    let mut sink = animation::AnimSink::new(&mut c);
    while let Some(r) = animations.read_next(&mut sink) {
        r.map_err(LoadError::Json)?;
    }
    c.b.finish()
}

/// A bone's inheritance (`Normal` when absent).
fn inherit(i: Option<j::Inherit>) -> Inherit {
    match i.unwrap_or(j::Inherit::Normal) {
        j::Inherit::Normal => Inherit::Normal,
        j::Inherit::OnlyTranslation => Inherit::OnlyTranslation,
        j::Inherit::NoRotationOrReflection => Inherit::NoRotationOrReflection,
        j::Inherit::NoScale => Inherit::NoScale,
        j::Inherit::NoScaleOrReflection => Inherit::NoScaleOrReflection,
    }
}
/// Builds the skeleton but its skins and animations: header, bones, slots, constraints,
/// events.
fn head<'a, 'o>(s: &'a j::Skeleton, options: &LoadOptions<'o>) -> Conv<'a, 'o> {
    let v3 = s.version.is_v3();
    let behaviour = Behaviour::new(s.version, s.info.spine.as_deref().unwrap_or_default());
    let mut c = Conv {
        s,
        b: Builder::new(behaviour, options),
        v3,
        bones: name_map(s.bones.len()),
        slots: name_map(s.slots.len()),
        events: names(&s.events, |e| &e.name),
        cons: Default::default(),
        spare: CurveBuf::default(),
    };
    header(&mut c);
    bones(&mut c);
    slots(&mut c);
    constraints::constraints(&mut c);
    events(&mut c);
    c
}

/// After the skins: linked meshes resolved, the atlas bound.
fn bind(c: &mut Conv<'_, '_>) {
    c.b.resolve_links();
    c.b.bind_atlas();
}

/// The skeleton's header fields (bounds, hash, fps, reference scale).
fn header(c: &mut Conv<'_, '_>) {
    let scale = c.b.scale;
    let i = &c.s.info;
    c.b.data.hash = i.hash.clone().unwrap_or_default();
    c.b.data.x = i.x.unwrap_or(0.0);
    c.b.data.y = i.y.unwrap_or(0.0);
    c.b.data.width = i.width.unwrap_or(0.0);
    c.b.data.height = i.height.unwrap_or(0.0);
    c.b.data.fps = i.fps.unwrap_or(30.0);
    c.b.data.reference_scale = i.reference_scale.unwrap_or(100.0) * scale;
}

/// The bones, each parent looked up among the bones read before it.
fn bones(c: &mut Conv<'_, '_>) {
    let s = c.s;
    for (index, bone) in s.bones.iter().enumerate() {
        c.b.enter("bone", &bone.name);
        let parent = match &bone.parent {
            None => None,
            Some(p) => {
                let found = c.bones.get(p.as_str()).copied();
                if found.is_none() {
                    c.b.report(ProblemKind::UnknownName { what: "parent bone", name: p.clone() });
                }
                found
            }
        };
        let data = BoneData {
            name: bone.name.clone(),
            parent: None,
            length: c.b.fs("length", bone.length.unwrap_or(0.0)),
            x: c.b.fs("x", bone.x.unwrap_or(0.0)),
            y: c.b.fs("y", bone.y.unwrap_or(0.0)),
            rotation: c.b.f("rotation", bone.rotation.unwrap_or(0.0)),
            scale_x: c.b.f("scale x", bone.scale_x.unwrap_or(1.0)),
            scale_y: c.b.f("scale y", bone.scale_y.unwrap_or(1.0)),
            shear_x: c.b.f("shear x", bone.shear_x.unwrap_or(0.0)),
            shear_y: c.b.f("shear y", bone.shear_y.unwrap_or(0.0)),
            inherit: inherit(bone.inherit),
            skin_required: skin_flag(c.s, bone.skin),
            color: bone.color.map(Color::from_bytes),
        };
        if parent.is_none() && bone.parent.is_some() {
            // Reported above; keep the bone parentless without a second problem.
            c.b.data.bones.push(data);
        } else {
            c.b.add_bone(index, parent, data);
        }
        c.bones.entry(bone.name.as_str()).or_insert(index as u32);
        c.b.pop();
    }
}

/// The slots in setup draw order.
fn slots(c: &mut Conv<'_, '_>) {
    let s = c.s;
    for slot in &s.slots {
        c.b.enter("slot", &slot.name);
        let bone = c.bone(&slot.bone);
        let blend = match slot.blend.unwrap_or(j::BlendMode::Normal) {
            j::BlendMode::Normal => BlendMode::Normal,
            j::BlendMode::Additive => BlendMode::Additive,
            j::BlendMode::Multiply => BlendMode::Multiply,
            j::BlendMode::Screen => BlendMode::Screen,
        };
        c.b.data.slots.push(SlotData {
            name: slot.name.clone(),
            bone,
            color: slot.color.map_or(Color::WHITE, Color::from_bytes),
            dark_color: slot.dark.map(|d| Color::from_rgb([d[0], d[1], d[2]])),
            attachment: slot.attachment.clone(),
            blend,
        });
        c.slots.entry(slot.name.as_str()).or_insert(c.b.data.slots.len() as u32 - 1);
        c.b.pop();
    }
}

/// The event definitions (volume and balance only with an audio path).
fn events(c: &mut Conv<'_, '_>) {
    for e in &c.s.events {
        let audio = e.audio.is_some();
        c.b.data.events.push(EventData {
            name: e.name.clone(),
            int_value: e.int.unwrap_or(0),
            float_value: e.float.unwrap_or(0.0),
            string_value: e.string.clone().unwrap_or_default(),
            audio_path: e.audio.clone().unwrap_or_default(),
            volume: if audio { e.volume.unwrap_or(1.0) } else { 1.0 },
            balance: if audio { e.balance.unwrap_or(0.0) } else { 0.0 },
        });
    }
}
