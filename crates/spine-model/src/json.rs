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

use std::collections::HashMap;

use spine_format::binary::shared::CurveType;
use spine_format::json as j;
use spine_format::SpineVersion;

use crate::anim::*;
use crate::build::{draw_order, share, Builder, PendingLink};
use crate::curves::{self, sampled3x, Curve3};
use crate::data::*;
use crate::error::{LoadError, ProblemKind};
use crate::ids::*;
use crate::v3x::{constraints3, mixes3, Con3, Ik3, Path3, Transform3};
use crate::v40::{check_mesh_parts, seq_mode, timeline_attachment, vertices_of};
use crate::LoadOptions;
use std::sync::Arc;

/// Name → index of a list, the first of equal names winning. Keys borrow the raw skeleton's
/// strings (no copy per name).
fn names<'a, T>(list: &'a [T], name: impl Fn(&'a T) -> &'a str) -> HashMap<&'a str, u32> {
    let mut m = HashMap::with_capacity(list.len());
    for (i, x) in list.iter().enumerate() {
        m.entry(name(x)).or_insert(i as u32);
    }
    m
}

struct Conv<'a, 'o> {
    s: &'a j::Skeleton,
    b: Builder<'o>,
    v3: bool,
    bones: HashMap<&'a str, u32>,
    slots: HashMap<&'a str, u32>,
    events: HashMap<&'a str, u32>,
    /// Per type (IK, transform, path, physics): name → constraint id.
    cons: [HashMap<&'a str, ConstraintId>; 4],
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
        convert(s, options)
    }
}

/// Parses and resolves JSON skeleton text with an optional atlas (scale 1): 3.5–4.2, and 4.3
/// through [`crate::load_json43`].
pub fn load_json(
    text: &str,
    atlas: Option<&spine_format::atlas::Atlas>,
) -> Result<SkeletonData, LoadError> {
    let s = match j::parse(text) {
        Ok(s) => s,
        // A 4.3 skeleton (its own JSON reader).
        Err(e) if crate::json43::declares_43(&e, text) => return crate::load_json43(text, atlas),
        Err(e) => return Err(LoadError::Json(e)),
    };
    SkeletonData::from_json(&s, &LoadOptions::with_atlas(atlas))
}

fn inherit(i: Option<j::Inherit>) -> Inherit {
    match i.unwrap_or(j::Inherit::Normal) {
        j::Inherit::Normal => Inherit::Normal,
        j::Inherit::OnlyTranslation => Inherit::OnlyTranslation,
        j::Inherit::NoRotationOrReflection => Inherit::NoRotationOrReflection,
        j::Inherit::NoScale => Inherit::NoScale,
        j::Inherit::NoScaleOrReflection => Inherit::NoScaleOrReflection,
    }
}

fn convert(s: &j::Skeleton, options: &LoadOptions<'_>) -> Result<SkeletonData, LoadError> {
    let v3 = s.version.is_v3();
    let behaviour = Behaviour::new(s.version, s.info.spine.as_deref().unwrap_or_default());
    let mut c = Conv {
        s,
        b: Builder::new(behaviour, options),
        v3,
        bones: HashMap::with_capacity(s.bones.len()),
        slots: HashMap::with_capacity(s.slots.len()),
        events: names(&s.events, |e| &e.name),
        cons: Default::default(),
    };
    let scale = c.b.scale;
    let i = &s.info;
    c.b.data.hash = i.hash.clone().unwrap_or_default();
    c.b.data.x = i.x.unwrap_or(0.0);
    c.b.data.y = i.y.unwrap_or(0.0);
    c.b.data.width = i.width.unwrap_or(0.0);
    c.b.data.height = i.height.unwrap_or(0.0);
    c.b.data.fps = i.fps.unwrap_or(30.0);
    c.b.data.reference_scale = i.reference_scale.unwrap_or(100.0) * scale;
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
    constraints(&mut c);
    for e in &s.events {
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
    skins(&mut c);
    c.b.resolve_links();
    c.b.bind_atlas();
    for a in &s.animations {
        animation(&mut c, a);
    }
    c.b.finish()
}

fn constraints(c: &mut Conv<'_, '_>) {
    let s = c.s;
    let v3 = c.v3;
    let scale = c.b.scale;
    let order = |h: &j::ConstraintHead| u32::try_from(h.order.unwrap_or(0)).unwrap_or(u32::MAX);
    let mut cons = Vec::new();
    for k in &s.ik {
        let data = Ik3 {
            bones: c.bone_indices(&k.bones),
            target: c.lookup("bone", &k.target).unwrap_or(0),
            mix: k.mix.unwrap_or(1.0),
            softness: k.softness.unwrap_or(0.0),
            bend: if k.bend_positive.unwrap_or(true) { 1 } else { -1 },
            compress: k.compress.unwrap_or(false),
            stretch: k.stretch.unwrap_or(false),
            uniform: k.uniform.unwrap_or(false),
        };
        let skin = skin_flag(s, k.head.skin);
        cons.push(Con3::Ik { name: &k.head.name, order: order(&k.head), skin, data });
    }
    for t in &s.transform {
        let m = &t.mix;
        // 3.x: rotate, translate, scale, shear (default 1); 4.x: six mixes, y defaulting to x.
        let (mixes, solver) = if v3 {
            let four = [
                m.rotate_mix.unwrap_or(1.0),
                m.translate_mix.unwrap_or(1.0),
                m.scale_mix.unwrap_or(1.0),
                m.shear_mix.unwrap_or(1.0),
            ];
            (mixes3(four), TransformSolver::Legacy3x)
        } else {
            let x = m.mix_x.unwrap_or(1.0);
            let sx = m.mix_scale_x.unwrap_or(1.0);
            let six = [
                m.mix_rotate.unwrap_or(1.0),
                x,
                m.mix_y.unwrap_or(x),
                sx,
                m.mix_scale_y.unwrap_or(sx),
                m.mix_shear_y.unwrap_or(1.0),
            ];
            (six, TransformSolver::Legacy4x)
        };
        let data = Transform3 {
            bones: c.bone_indices(&t.bones),
            target: c.lookup("bone", &t.target).unwrap_or(0),
            local: t.local.unwrap_or(false),
            relative: t.relative.unwrap_or(false),
            offsets: [
                t.rotation.unwrap_or(0.0),
                t.x.unwrap_or(0.0),
                t.y.unwrap_or(0.0),
                t.scale_x.unwrap_or(0.0),
                t.scale_y.unwrap_or(0.0),
                t.shear_y.unwrap_or(0.0),
            ],
            mixes,
            solver,
        };
        let skin = skin_flag(s, t.head.skin);
        cons.push(Con3::Transform { name: &t.head.name, order: order(&t.head), skin, data });
    }
    for p in &s.path {
        let m = &p.mix;
        // 3.x: rotateMix, translateMix (x and y); 4.x: mixRotate, mixX, mixY (setup default 1).
        let (r, x, y) = if v3 {
            let t = m.translate_mix.unwrap_or(1.0);
            (m.rotate_mix.unwrap_or(1.0), t, t)
        } else {
            (m.mix_rotate.unwrap_or(1.0), m.mix_x.unwrap_or(1.0), m.mix_y.unwrap_or(1.0))
        };
        let data = Path3 {
            bones: c.bone_indices(&p.bones),
            target: c.lookup("slot", &p.target).unwrap_or(0),
            position_mode: match p.position_mode.unwrap_or(j::PositionMode::Percent) {
                j::PositionMode::Fixed => PositionMode::Fixed,
                j::PositionMode::Percent => PositionMode::Percent,
            },
            spacing_mode: match p.spacing_mode.unwrap_or(j::SpacingMode::Length) {
                j::SpacingMode::Length => SpacingMode::Length,
                j::SpacingMode::Fixed => SpacingMode::Fixed,
                j::SpacingMode::Percent => SpacingMode::Percent,
                j::SpacingMode::Proportional => SpacingMode::Proportional,
            },
            rotate_mode: match p.rotate_mode.unwrap_or(j::RotateMode::Tangent) {
                j::RotateMode::Tangent => RotateMode::Tangent,
                j::RotateMode::Chain => RotateMode::Chain,
                j::RotateMode::ChainScale => RotateMode::ChainScale,
            },
            offset_rotation: p.rotation.unwrap_or(0.0),
            position: p.position.unwrap_or(0.0),
            spacing: p.spacing.unwrap_or(0.0),
            rotate_mix: r,
            mix_x: x,
            mix_y: y,
        };
        let skin = skin_flag(s, p.head.skin);
        cons.push(Con3::Path { name: &p.head.name, order: order(&p.head), skin, data });
    }
    for p in &s.physics {
        c.b.enter("physics constraint", &p.head.name);
        let bone = c.bone(&p.bone);
        let g = |i: usize| p.global[i].unwrap_or(false);
        let step = c.b.physics_step(i64::from(p.fps.unwrap_or(60)));
        let data = PhysicsData {
            bone,
            x: c.b.f("x", p.x.unwrap_or(0.0)),
            y: c.b.f("y", p.y.unwrap_or(0.0)),
            rotate: c.b.f("rotate", p.rotate.unwrap_or(0.0)),
            scale_x: c.b.f("scale x", p.scale_x.unwrap_or(0.0)),
            shear_x: c.b.f("shear x", p.shear_x.unwrap_or(0.0)),
            scale_y_mode: ScaleYMode::None,
            limit: c.b.f("limit", p.limit.unwrap_or(5000.0) * scale),
            step,
            inertia: c.b.f("inertia", p.inertia.unwrap_or(1.0)),
            strength: c.b.f("strength", p.strength.unwrap_or(100.0)),
            damping: c.b.f("damping", p.damping.unwrap_or(1.0)),
            mass_inverse: c.b.f("mass inverse", 1.0 / p.mass.unwrap_or(1.0)),
            wind: c.b.f("wind", p.wind.unwrap_or(0.0)),
            gravity: c.b.f("gravity", p.gravity.unwrap_or(0.0)),
            mix: c.b.f("mix", p.mix.unwrap_or(1.0)),
            globals: PhysicsGlobals {
                inertia: g(0),
                strength: g(1),
                damping: g(2),
                mass: g(3),
                wind: g(4),
                gravity: g(5),
                mix: g(6),
            },
        };
        c.b.pop();
        let skin = skin_flag(s, p.head.skin);
        cons.push(Con3::Physics { name: &p.head.name, order: order(&p.head), skin, data });
    }
    let ids = constraints3(&mut c.b, cons);
    let heads: [Vec<&str>; 4] = [
        s.ik.iter().map(|x| x.head.name.as_str()).collect(),
        s.transform.iter().map(|x| x.head.name.as_str()).collect(),
        s.path.iter().map(|x| x.head.name.as_str()).collect(),
        s.physics.iter().map(|x| x.head.name.as_str()).collect(),
    ];
    for (k, list) in ids.iter().enumerate() {
        for (name, &id) in heads[k].iter().zip(list) {
            c.cons[k].entry(*name).or_insert(id);
        }
    }
}

struct Link {
    mesh: AttachmentId,
    skin: Option<String>,
    slot: u32,
    parent: String,
    inherit: bool,
    at: crate::build::PathAt,
}

fn skins(c: &mut Conv<'_, '_>) {
    let s = c.s;
    let mut links = Vec::new();
    let mut order: Vec<&j::Skin> = Vec::with_capacity(s.skins.len());
    order.extend(s.skins.iter().filter(|k| k.name == "default"));
    order.extend(s.skins.iter().filter(|k| k.name != "default"));
    for skin in order {
        c.b.enter("skin", &skin.name);
        let bones = skin.bones.iter().map(|n| c.bone(n)).collect();
        let mut constraints = Vec::new();
        for (ty, list) in [&skin.ik, &skin.transform, &skin.path, &skin.physics].iter().enumerate()
        {
            for n in list.iter() {
                if let Some(id) = c.constraint(ty, n) {
                    constraints.push(id);
                }
            }
        }
        let mut entries = Vec::new();
        for sa in &skin.slots {
            let slot_index = c.lookup("slot", &sa.slot);
            let slot = SlotId(slot_index.unwrap_or(0));
            c.b.enter("slot", &sa.slot);
            for a in &sa.attachments {
                c.b.enter("attachment", &a.key);
                let key: Arc<str> = Arc::from(a.key.as_str());
                let name = share(&key, a.name.as_deref());
                let id = attachment(c, &name, &a.kind, slot.0, &mut links);
                c.b.pop();
                entries.push(SkinEntry { slot, name: key, attachment: id });
            }
            c.b.pop();
        }
        c.b.pop();
        let id = c.b.add_skin(SkinData {
            name: skin.name.clone(),
            bones,
            constraints,
            entries,
            color: skin.color.map(Color::from_bytes),
        });
        if skin.name == "default" && c.b.data.default_skin.is_none() {
            c.b.data.default_skin = Some(id);
        }
    }
    for l in links {
        let skin = match &l.skin {
            None => c.b.data.default_skin.map(|d| d.0),
            Some(n) => c.b.data.skins.iter().position(|s| &s.name == n).map(|i| i as u32),
        };
        let Some(skin) = skin else {
            let name = l.skin.clone().unwrap_or_else(|| "default".to_owned());
            c.b.report_at(l.at, ProblemKind::UnknownName { what: "linked mesh skin", name });
            continue;
        };
        c.b.link(PendingLink {
            mesh: l.mesh,
            skin,
            slot: l.slot,
            source: l.parent,
            inherit_timelines: l.inherit,
            at: l.at,
        });
    }
}

/// JSON vertices: `x, y` pairs when `values.len() == 2 × vertex_count`, else weighted
/// `boneCount, (bone, x, y, weight) × boneCount` per vertex.
fn vertices(c: &mut Conv<'_, '_>, vertex_count: usize, values: &[f32]) -> Vertices {
    if values.len() == vertex_count * 2 {
        return c.b.unweighted(values);
    }
    let mut out: Vec<Vec<(u32, f32, f32, f32)>> =
        Vec::with_capacity(vertex_count.min(values.len()));
    let mut i = 0;
    let mut bad = false;
    while i < values.len() {
        let n = values[i];
        if n < 0.0 || n.fract() != 0.0 || i + 1 + n as usize * 4 > values.len() {
            bad = true;
            break;
        }
        let n = n as usize;
        let mut v = Vec::with_capacity(n);
        for k in 0..n {
            let o = i + 1 + k * 4;
            let bone = values[o];
            if bone < 0.0 || bone.fract() != 0.0 {
                bad = true;
            }
            v.push((bone as u32, values[o + 1], values[o + 2], values[o + 3]));
        }
        out.push(v);
        i += 1 + n * 4;
    }
    if bad || out.len() != vertex_count {
        c.b.report(ProblemKind::Invalid(format!(
            "{} vertex values are neither {vertex_count} unweighted nor {vertex_count} weighted vertices",
            values.len()
        )));
    }
    c.b.weighted(out)
}

fn attachment(
    c: &mut Conv<'_, '_>,
    name: &Arc<str>,
    kind: &j::AttachmentKind,
    slot: u32,
    links: &mut Vec<Link>,
) -> AttachmentId {
    let next = AttachmentId(c.b.data.attachments.len() as u32);
    let scale = c.b.scale;
    let seq = |q: &Option<j::Sequence>| {
        q.as_ref().map(|q| {
            let u = |v: i32| u32::try_from(v).unwrap_or(0);
            [u(q.count), u(q.start.unwrap_or(1)), u(q.digits.unwrap_or(0)), u(q.setup.unwrap_or(0))]
        })
    };
    let color = |c: &Option<[u8; 4]>| c.map_or(Color::WHITE, Color::from_bytes);
    let kind = match kind {
        j::AttachmentKind::Region {
            path,
            x,
            y,
            scale_x,
            scale_y,
            rotation,
            width,
            height,
            color: col,
            sequence,
        } => {
            let path = share(name, path.as_deref());
            let sq = c.b.sequence(&path, seq(sequence));
            AttachmentKind::Region(RegionAttachment {
                path,
                color: color(col),
                x: c.b.fs("x", x.unwrap_or(0.0)),
                y: c.b.fs("y", y.unwrap_or(0.0)),
                rotation: c.b.f("rotation", rotation.unwrap_or(0.0)),
                scale_x: c.b.f("scale x", scale_x.unwrap_or(1.0)),
                scale_y: c.b.f("scale y", scale_y.unwrap_or(1.0)),
                width: c.b.fs("width", *width),
                height: c.b.fs("height", *height),
                sequence: sq,
                has_sequence: sequence.is_some(),
                offsets: None,
                uvs: None,
            })
        }
        j::AttachmentKind::BoundingBox { vertex_count, vertices: v, color: col } => {
            AttachmentKind::BoundingBox(BoundingBoxAttachment {
                vertices: vertices(c, *vertex_count as usize, v),
                color: col.map(Color::from_bytes),
            })
        }
        j::AttachmentKind::Mesh {
            path,
            color: col,
            width,
            height,
            sequence,
            uvs,
            vertices: v,
            triangles,
            hull,
            edges,
        } => {
            let path = share(name, path.as_deref());
            let sq = c.b.sequence(&path, seq(sequence));
            let verts = vertices(c, uvs.len() / 2, v);
            let hull = hull.unwrap_or(0);
            check_mesh_parts(&mut c.b, &verts, uvs, triangles, hull);
            AttachmentKind::Mesh(MeshAttachment {
                path,
                color: color(col),
                vertices: verts,
                region_uvs: uvs.clone(),
                triangles: triangles.clone(),
                hull_length: hull,
                edges: edges.clone().unwrap_or_default(),
                width: width.unwrap_or(0.0) * scale,
                height: height.unwrap_or(0.0) * scale,
                sequence: sq,
                has_sequence: sequence.is_some(),
                linked_source: None,
                timeline_attachment: next,
                timeline_slots: Vec::new(),
                uvs: None,
            })
        }
        j::AttachmentKind::LinkedMesh {
            path,
            color: col,
            width,
            height,
            sequence,
            parent,
            skin,
            timelines,
        } => {
            let path = share(name, path.as_deref());
            let sq = c.b.sequence(&path, seq(sequence));
            let at = c.b.here();
            links.push(Link {
                mesh: next,
                skin: skin.clone(),
                slot,
                parent: parent.clone(),
                inherit: timelines.unwrap_or(true),
                at,
            });
            AttachmentKind::Mesh(MeshAttachment {
                path,
                color: color(col),
                vertices: Vertices::Unweighted(Vec::new()),
                region_uvs: Vec::new(),
                triangles: Vec::new(),
                hull_length: 0,
                edges: Vec::new(),
                width: width.unwrap_or(0.0) * scale,
                height: height.unwrap_or(0.0) * scale,
                sequence: sq,
                has_sequence: sequence.is_some(),
                linked_source: None,
                timeline_attachment: next,
                timeline_slots: Vec::new(),
                uvs: None,
            })
        }
        j::AttachmentKind::Path {
            closed,
            constant_speed,
            vertex_count,
            vertices: v,
            lengths,
            color: col,
        } => AttachmentKind::Path(PathAttachment {
            vertices: vertices(c, *vertex_count as usize, v),
            lengths: lengths.iter().map(|&l| c.b.fs("path length", l)).collect(),
            closed: closed.unwrap_or(false),
            constant_speed: constant_speed.unwrap_or(true),
            color: col.map(Color::from_bytes),
        }),
        j::AttachmentKind::Point { x, y, rotation, color: col } => {
            AttachmentKind::Point(PointAttachment {
                x: c.b.fs("x", x.unwrap_or(0.0)),
                y: c.b.fs("y", y.unwrap_or(0.0)),
                rotation: c.b.f("rotation", rotation.unwrap_or(0.0)),
                color: col.map(Color::from_bytes),
            })
        }
        j::AttachmentKind::Clipping { end, vertex_count, vertices: v, color: col } => {
            let end_slot = match end {
                Some(e) => c.slot(e),
                None => {
                    c.b.report(ProblemKind::MissingName { what: "clipping end slot" });
                    SlotId(0)
                }
            };
            AttachmentKind::Clipping(ClippingAttachment {
                end_slot,
                vertices: vertices(c, *vertex_count as usize, v),
                color: col.map(Color::from_bytes),
            })
        }
    };
    c.b.add_attachment(AttachmentData { name: Arc::clone(name), kind })
}

/// Builds a curve table from JSON keys: `values` per key (already scaled), and for 4.x the
/// per-channel `cy` scale.
fn table<V>(
    c: &mut Conv<'_, '_>,
    keys: &[j::Key<V>],
    channels: usize,
    values: impl Fn(&V) -> Vals,
    cy_scale: &[f32],
) -> CurveBuf {
    let n = keys.len();
    if c.v3 {
        let v38 = c.s.version >= SpineVersion::V3_8;
        let curves: Vec<Curve3> = keys
            .iter()
            .map(|k| match &k.curve {
                None => Curve3::Linear,
                Some(j::Curve::Stepped) => Curve3::Stepped,
                Some(j::Curve::Other(_)) if v38 => Curve3::Stepped,
                Some(j::Curve::Other(_)) => Curve3::Linear,
                Some(j::Curve::Bezier(b)) if b.len() >= 4 => {
                    Curve3::Bezier([b[0], b[1], b[2], b[3]])
                }
                Some(j::Curve::Bezier(_)) => Curve3::Linear,
                Some(j::Curve::Number { c1, c2, c3, c4 }) => {
                    Curve3::Bezier([*c1, c2.unwrap_or(0.0), c3.unwrap_or(1.0), c4.unwrap_or(1.0)])
                }
            })
            .collect();
        let k: Vec<(f32, Vec<f32>)> =
            keys.iter().map(|k| (k.time, values(&k.value).as_slice().to_vec())).collect();
        return sampled3x(channels, k.into_iter(), &curves);
    }
    let ch = channels.max(1);
    let kinds: Vec<CurveType> = keys
        .iter()
        .take(n.saturating_sub(1))
        .map(|k| match &k.curve {
            Some(j::Curve::Stepped) => CurveType::Stepped,
            Some(j::Curve::Bezier(_)) => CurveType::Bezier,
            _ => CurveType::Linear,
        })
        .collect();
    let mut t = CurveBuf::new(channels, n, curves::bezier_count(&kinds, channels));
    for k in keys {
        t.frames.push(k.time);
        let v = values(&k.value);
        let v = v.as_slice();
        t.frames.extend((0..channels).map(|i| v.get(i).copied().unwrap_or(0.0)));
    }
    let mut next = 0;
    let mut ctl = Vec::new();
    for (i, kind) in kinds.iter().enumerate() {
        ctl.clear();
        if *kind == CurveType::Bezier {
            if let Some(j::Curve::Bezier(b)) = &keys[i].curve {
                if b.len() < 4 * ch {
                    c.b.report(ProblemKind::Invalid(format!(
                        "key {i}: curve has {} numbers, {} expected",
                        b.len(),
                        4 * ch
                    )));
                    continue;
                }
                for q in 0..ch {
                    let s = cy_scale.get(q).copied().unwrap_or(1.0);
                    let o = q * 4;
                    ctl.push([b[o], b[o + 1] * s, b[o + 2], b[o + 3] * s]);
                }
            }
        }
        curves::segment(&mut t, &mut next, i, *kind, &ctl, 1.0);
    }
    t
}

/// The values of one key (at most 7 channels), without a heap allocation per key.
#[derive(Clone, Copy, Default)]
struct Vals {
    v: [f32; 7],
    n: usize,
}

impl Vals {
    fn of(x: &[f32]) -> Vals {
        let mut o = Vals::default();
        o.extend(x);
        o
    }
    fn extend(&mut self, x: &[f32]) {
        for &f in x {
            if let Some(slot) = self.v.get_mut(self.n) {
                *slot = f;
                self.n += 1;
            }
        }
    }
    fn as_slice(&self) -> &[f32] {
        self.v.get(..self.n).unwrap_or_default()
    }
}

fn rgb(c: [u8; 4], n: usize) -> Vals {
    let mut o = Vals::default();
    for &x in c.iter().take(n) {
        o.extend(&[f32::from(x) / 255.0]);
    }
    o
}

fn animation(c: &mut Conv<'_, '_>, a: &j::Animation) {
    c.b.enter("animation", &a.name);
    let scale = c.b.scale;
    let v3 = c.v3;
    let mut tl = Vec::new();
    let mut anim_keys = Vec::new();
    let mut duration = 0.0f32;
    let mut see = |t: f32| duration = duration.max(t);
    for st in &a.slots {
        c.b.enter("slot", &st.name);
        let slot = c.slot(&st.name);
        for t in &st.timelines {
            let (property, curves) = match t {
                j::SlotTimeline::Attachment(keys) => {
                    see(keys.last().map_or(0.0, |k| k.time));
                    tl.push(Timeline::Attachment {
                        slot,
                        times: keys.iter().map(|k| k.time).collect(),
                        names: keys.iter().map(|k| k.value.as_deref().map(Arc::from)).collect(),
                    });
                    continue;
                }
                j::SlotTimeline::Rgba(k) => {
                    (ColorProperty::Rgba, table(c, k, 4, |v| rgb(*v, 4), &[]))
                }
                j::SlotTimeline::Rgb(k) => {
                    (ColorProperty::Rgb, table(c, k, 3, |v| rgb(*v, 3), &[]))
                }
                j::SlotTimeline::Alpha(k) => {
                    (ColorProperty::Alpha, table(c, k, 1, |v| Vals::of(&[v.unwrap_or(0.0)]), &[]))
                }
                j::SlotTimeline::Rgba2(k) => (
                    ColorProperty::Rgba2,
                    table(
                        c,
                        k,
                        7,
                        |v| {
                            let mut o = rgb(v.light, 4);
                            o.extend(rgb(v.dark, 3).as_slice());
                            o
                        },
                        &[],
                    ),
                ),
                j::SlotTimeline::Rgb2(k) => (
                    ColorProperty::Rgb2,
                    table(
                        c,
                        k,
                        6,
                        |v| {
                            let mut o = rgb(v.light, 3);
                            o.extend(rgb(v.dark, 3).as_slice());
                            o
                        },
                        &[],
                    ),
                ),
            };
            let mut curves = curves;
            if property == ColorProperty::Rgba2
                && c.s.version >= SpineVersion::V4_0
                && c.s.version < SpineVersion::V4_1
            {
                // spine-cpp 4.0 SkeletonJson quirk: `setFrame(…, color2.g, color2.g, color2.b)`
                // stores the dark green as the dark red of every key, while the bezier
                // points (built from the key values above) keep the right red.
                let stride = curves.stride();
                for k in 0..curves.frame_count() {
                    let g2 = curves.value(k, 5);
                    if let Some(r2) = curves.frames.get_mut(k * stride + 5) {
                        *r2 = g2;
                    }
                }
            }
            see(curves.last_time());
            let curves = curves.store(&mut anim_keys);
            tl.push(Timeline::Color { slot, property, curves });
        }
        c.b.pop();
    }
    let scale_default = if c.s.version >= SpineVersion::V3_8 { 1.0 } else { 0.0 };
    for bt in &a.bones {
        c.b.enter("bone", &bt.name);
        let bone = c.bone(&bt.name);
        for t in &bt.timelines {
            use j::BoneTimeline as B;
            use BoneProperty as P;
            let one = |d: f32, s: f32| move |v: &Option<f32>| Vals::of(&[v.unwrap_or(d) * s]);
            let two = |d: f32, s: f32| {
                move |v: &j::Xy| Vals::of(&[v.x.unwrap_or(d) * s, v.y.unwrap_or(d) * s])
            };
            let (property, curves) = match t {
                B::Rotate(k) => (P::Rotate, table(c, k, 1, one(0.0, 1.0), &[1.0])),
                B::Translate(k) => (P::Translate, table(c, k, 2, two(0.0, scale), &[scale, scale])),
                B::TranslateX(k) => (P::TranslateX, table(c, k, 1, one(0.0, scale), &[scale])),
                B::TranslateY(k) => (P::TranslateY, table(c, k, 1, one(0.0, scale), &[scale])),
                B::Scale(k) => (P::Scale, table(c, k, 2, two(scale_default, 1.0), &[])),
                B::ScaleX(k) => (P::ScaleX, table(c, k, 1, one(1.0, 1.0), &[])),
                B::ScaleY(k) => (P::ScaleY, table(c, k, 1, one(1.0, 1.0), &[])),
                B::Shear(k) => (P::Shear, table(c, k, 2, two(0.0, 1.0), &[])),
                B::ShearX(k) => (P::ShearX, table(c, k, 1, one(0.0, 1.0), &[])),
                B::ShearY(k) => (P::ShearY, table(c, k, 1, one(0.0, 1.0), &[])),
                B::Inherit(keys) => {
                    see(keys.last().map_or(0.0, |k| k.time));
                    let keys = keys.iter().map(|k| (k.time, inherit(k.value))).collect();
                    tl.push(Timeline::Inherit { bone, keys });
                    continue;
                }
            };
            see(curves.last_time());
            let curves = curves.store(&mut anim_keys);
            tl.push(Timeline::Bone { bone, property, curves });
        }
        c.b.pop();
    }
    for t in &a.ik {
        c.b.enter("IK constraint", &t.name);
        if let Some(constraint) = c.constraint(0, &t.name) {
            let constraint = c.b.constraint(constraint, ConstraintType::Ik);
            let curves = table(
                c,
                &t.timelines,
                2,
                |k| Vals::of(&[k.mix.unwrap_or(1.0), k.softness.unwrap_or(0.0) * scale]),
                &[1.0, scale],
            );
            let flags = t
                .timelines
                .iter()
                .map(|k| IkFlags {
                    bend_direction: if k.value.bend_positive.unwrap_or(true) { 1 } else { -1 },
                    compress: k.value.compress.unwrap_or(false),
                    stretch: k.value.stretch.unwrap_or(false),
                })
                .collect();
            see(curves.last_time());
            let curves = curves.store(&mut anim_keys);
            tl.push(Timeline::Ik { constraint, curves, flags });
        }
        c.b.pop();
    }
    for t in &a.transform {
        c.b.enter("transform constraint", &t.name);
        if let Some(constraint) = c.constraint(1, &t.name) {
            let constraint = c.b.constraint(constraint, ConstraintType::Transform);
            let curves = table(
                c,
                &t.timelines,
                6,
                |m| {
                    if v3 {
                        let t = m.translate_mix.unwrap_or(1.0);
                        let s = m.scale_mix.unwrap_or(1.0);
                        Vals::of(&[
                            m.rotate_mix.unwrap_or(1.0),
                            t,
                            t,
                            s,
                            s,
                            m.shear_mix.unwrap_or(1.0),
                        ])
                    } else {
                        let x = m.mix_x.unwrap_or(1.0);
                        let sx = m.mix_scale_x.unwrap_or(1.0);
                        Vals::of(&[
                            m.mix_rotate.unwrap_or(1.0),
                            x,
                            m.mix_y.unwrap_or(x),
                            sx,
                            m.mix_scale_y.unwrap_or(sx),
                            m.mix_shear_y.unwrap_or(1.0),
                        ])
                    }
                },
                &[],
            );
            see(curves.last_time());
            let curves = curves.store(&mut anim_keys);
            tl.push(Timeline::Transform { constraint, curves });
        }
        c.b.pop();
    }
    for pt in &a.path {
        c.b.enter("path constraint", &pt.name);
        if let Some(constraint) = c.constraint(2, &pt.name) {
            let constraint = c.b.constraint(constraint, ConstraintType::Path);
            let modes = match c.b.data.constraints.get(constraint.index()).map(|d| &d.kind) {
                Some(ConstraintKind::Path(p)) => Some((p.position_mode, p.spacing_mode)),
                _ => None,
            };
            for t in &pt.timelines {
                let (property, curves) = match t {
                    j::PathTimeline::Position(k) => {
                        let s = if matches!(modes, Some((PositionMode::Fixed, _))) {
                            scale
                        } else {
                            1.0
                        };
                        (
                            PathProperty::Position,
                            table(c, k, 1, |v| Vals::of(&[v.unwrap_or(0.0) * s]), &[s]),
                        )
                    }
                    j::PathTimeline::Spacing(k) => {
                        let s =
                            if matches!(modes, Some((_, SpacingMode::Length | SpacingMode::Fixed)))
                            {
                                scale
                            } else {
                                1.0
                            };
                        (
                            PathProperty::Spacing,
                            table(c, k, 1, |v| Vals::of(&[v.unwrap_or(0.0) * s]), &[s]),
                        )
                    }
                    j::PathTimeline::Mix(k) => {
                        let curves = table(
                            c,
                            k,
                            3,
                            |m| {
                                if v3 {
                                    let t = m.translate_mix.unwrap_or(1.0);
                                    Vals::of(&[m.rotate_mix.unwrap_or(1.0), t, t])
                                } else {
                                    let x = m.mix_x.unwrap_or(1.0);
                                    Vals::of(&[
                                        m.mix_rotate.unwrap_or(1.0),
                                        x,
                                        m.mix_y.unwrap_or(x),
                                    ])
                                }
                            },
                            &[],
                        );
                        (PathProperty::Mix, curves)
                    }
                };
                see(curves.last_time());
                let curves = curves.store(&mut anim_keys);
                tl.push(Timeline::Path { constraint, property, curves });
            }
        }
        c.b.pop();
    }
    for pt in &a.physics {
        c.b.enter("physics constraint", &pt.name);
        let constraint = if pt.name.is_empty() {
            None
        } else {
            match c.constraint(3, &pt.name) {
                Some(id) => Some(c.b.constraint(id, ConstraintType::Physics)),
                None => {
                    c.b.pop();
                    continue;
                }
            }
        };
        for t in &pt.timelines {
            match t {
                j::PhysicsTimeline::Reset(keys) => {
                    see(keys.last().map_or(0.0, |k| k.time));
                    tl.push(Timeline::PhysicsReset {
                        constraint,
                        times: keys.iter().map(|k| k.time).collect(),
                    });
                }
                j::PhysicsTimeline::Value(p, k) => {
                    use j::PhysicsProperty as W;
                    let property = match p {
                        W::Inertia => PhysicsProperty::Inertia,
                        W::Strength => PhysicsProperty::Strength,
                        W::Damping => PhysicsProperty::Damping,
                        W::Mass => PhysicsProperty::Mass,
                        W::Wind => PhysicsProperty::Wind,
                        W::Gravity => PhysicsProperty::Gravity,
                        W::Mix => PhysicsProperty::Mix,
                    };
                    let curves = table(c, k, 1, |v| Vals::of(&[v.unwrap_or(0.0)]), &[]);
                    see(curves.last_time());
                    let curves = curves.store(&mut anim_keys);
                    tl.push(Timeline::Physics { constraint, property, curves });
                }
            }
        }
        c.b.pop();
    }
    for at in &a.attachments {
        let skin = c.b.data.skins.iter().position(|s| s.name == at.skin);
        let Some(skin) = skin else {
            c.b.report(ProblemKind::UnknownName { what: "skin", name: at.skin.clone() });
            continue;
        };
        let Some(slot) = c.lookup("slot", &at.slot) else { continue };
        let (skin, slot) = (SkinId(skin as u32), SlotId(slot));
        for t in &at.timelines {
            match t {
                j::AttachmentTimeline::Deform(keys) => {
                    let Some(att) = timeline_attachment(&mut c.b, skin, slot, &at.attachment, true)
                    else {
                        continue;
                    };
                    let verts = vertices_of(&c.b.data.attachments[att.index()].kind);
                    let curves = table(c, keys, 0, |_| Vals::default(), &[]);
                    see(curves.last_time());
                    c.b.enter("deform", &at.attachment);
                    let mut out = Vec::with_capacity(keys.len());
                    for (i, k) in keys.iter().enumerate() {
                        let start = u32::try_from(k.value.offset.unwrap_or(0)).unwrap_or(u32::MAX);
                        let vals = k.value.vertices.as_deref().map(|v| (start, v));
                        out.push(c.b.deform_key(i, &verts, vals));
                    }
                    c.b.pop();
                    let curves = curves.store(&mut anim_keys);
                    tl.push(Timeline::Deform { slot, attachment: att, curves, vertices: out });
                }
                j::AttachmentTimeline::Sequence(keys) => {
                    let Some(att) =
                        timeline_attachment(&mut c.b, skin, slot, &at.attachment, false)
                    else {
                        continue;
                    };
                    see(keys.last().map_or(0.0, |k| k.time));
                    let mut delay = 0.0;
                    let keys = keys
                        .iter()
                        .map(|k| {
                            delay = k.value.delay.unwrap_or(delay);
                            use spine_format::binary::v40::animation::SequenceMode as W;
                            let mode = k.value.mode.map(|m| match m {
                                j::SequenceMode::Hold => W::Hold,
                                j::SequenceMode::Once => W::Once,
                                j::SequenceMode::Loop => W::Loop,
                                j::SequenceMode::Pingpong => W::Pingpong,
                                j::SequenceMode::OnceReverse => W::OnceReverse,
                                j::SequenceMode::LoopReverse => W::LoopReverse,
                                j::SequenceMode::PingpongReverse => W::PingpongReverse,
                            });
                            SequenceKey {
                                time: k.time,
                                mode: seq_mode(mode),
                                index: k.value.index.unwrap_or(0),
                                delay,
                            }
                        })
                        .collect();
                    tl.push(Timeline::Sequence { slot, attachment: att, keys });
                }
            }
        }
    }
    if let Some(keys) = &a.draw_order {
        let n = c.b.data.slots.len();
        let mut times = Vec::with_capacity(keys.len());
        let mut orders = Vec::with_capacity(keys.len());
        for (i, k) in keys.iter().enumerate() {
            times.push(k.time);
            see(k.time);
            let Some(offsets) = &k.value else {
                orders.push(None);
                continue;
            };
            let mut changes = Vec::with_capacity(offsets.len());
            for o in offsets {
                if let Some(s) = c.lookup("slot", &o.slot) {
                    changes.push((s, o.offset));
                }
            }
            match draw_order(n, changes) {
                Ok(o) => orders.push(Some(o.into_iter().map(SlotId).collect())),
                Err(detail) => {
                    c.b.report(ProblemKind::BadDrawOrder { key: i, detail });
                    orders.push(None);
                }
            }
        }
        tl.push(Timeline::DrawOrder { times, orders });
    }
    if let Some(keys) = &a.events {
        let mut out = Vec::with_capacity(keys.len());
        for k in keys {
            see(k.time);
            let Some(e) = c.lookup("event", &k.value.name) else { continue };
            let d = c.b.data.events[e as usize].clone();
            let audio = !d.audio_path.is_empty()
                || c.s.events.get(e as usize).is_some_and(|x| x.audio.is_some());
            out.push(EventKey {
                time: k.time,
                event: EventId(e),
                int_value: k.value.int.unwrap_or(d.int_value),
                float_value: k.value.float.unwrap_or(d.float_value),
                string_value: k.value.string.clone().unwrap_or(d.string_value),
                volume: if audio { k.value.volume.unwrap_or(d.volume) } else { d.volume },
                balance: if audio { k.value.balance.unwrap_or(d.balance) } else { d.balance },
            });
        }
        tl.push(Timeline::Event { keys: out });
    }
    for t in &tl {
        if let Timeline::Bone { curves, .. }
        | Timeline::Color { curves, .. }
        | Timeline::Ik { curves, .. }
        | Timeline::Transform { curves, .. }
        | Timeline::Path { curves, .. }
        | Timeline::Physics { curves, .. } = t
        {
            c.b.check_curves(curves.table(&anim_keys));
        }
    }
    c.b.pop();
    let name = a.name.clone();
    c.b.data.animations.push(AnimationData { name, duration, timelines: tl, keys: anim_keys });
}
