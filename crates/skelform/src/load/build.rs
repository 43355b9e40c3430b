//! From the raw document to the model: indices checked and resolved, defaults applied,
//! texture names interned; then the per-instance state sized ([`assemble`]).

use crate::armature::{Armature, ConstructOrder};
use crate::error::SkfError;
use crate::model::*;
use crate::raw::*;

/// An optional index: −1 → None; `0..len` → Some; anything else is an error at `path`.
fn opt_index(
    v: Option<i64>,
    len: usize,
    path: impl Fn() -> String,
    what: &str,
) -> Result<Option<u32>, SkfError> {
    match v {
        None | Some(-1) => Ok(None),
        Some(i) if i >= 0 && (i as u64) < len as u64 => Ok(Some(i as u32)),
        Some(i) => {
            Err(SkfError::invalid(path(), format!("{what} {i} out of range (0..{len}, or -1)")))
        }
    }
}

/// A required index: `0..len`, else an error at `path`.
fn req_index(v: i64, len: usize, path: impl Fn() -> String, what: &str) -> Result<u32, SkfError> {
    if v >= 0 && (v as u64) < len as u64 {
        Ok(v as u32)
    } else {
        Err(SkfError::invalid(path(), format!("{what} {v} out of range (0..{len})")))
    }
}

/// The model color of a raw one.
fn color(c: RawColor) -> Color {
    Color { r: c.r, g: c.g, b: c.b, a: c.a }
}

/// The id of texture name `s` in `names`, added when new.
pub(crate) fn intern(names: &mut Vec<String>, s: &str) -> u32 {
    if let Some(i) = names.iter().position(|n| n == s) {
        return i as u32;
    }
    names.push(s.to_string());
    (names.len() - 1) as u32
}

/// Whether no IK family can observe another's position changes: chains pairwise disjoint
/// and no target inside another family's chain. Then the FABRIK iterations of all families
/// may be interleaved without changing any result.
fn families_independent(iks: &[IkFamily], nb: usize) -> bool {
    let mut owner = vec![usize::MAX; nb];
    for (fi, f) in iks.iter().enumerate() {
        for &b in &f.sorted {
            match owner.get_mut(b as usize) {
                Some(o) if *o == usize::MAX => *o = fi,
                _ => return false,
            }
        }
    }
    iks.iter().enumerate().all(|(fi, f)| {
        f.target.is_none_or(|t| owner.get(t as usize).is_some_and(|&o| o == usize::MAX || o == fi))
    })
}

/// [`build`] of a valid current-format document.
#[cfg(test)]
pub(crate) fn build_for_test(raw: RawArmature) -> Armature {
    build(raw, None).expect("valid")
}

/// Resolves and validates a parsed document (errors in document order: bones, visuals, IK
/// families, keyframes, styles).
pub(super) fn build(raw: RawArmature, upgraded_from: Option<String>) -> Result<Armature, SkfError> {
    let counts = Counts {
        bones: raw.bones.len(),
        visuals: raw.visuals.len(),
        iks: raw.inverse_kinematics.len(),
        physics: raw.physics.len(),
    };
    if counts.bones > u32::MAX as usize / 2 {
        return Err(SkfError::invalid("bones", "too many bones"));
    }
    let bones = bones(raw.bones, &counts)?;
    let mut tex_names = vec![String::new()];
    let visuals = visuals(raw.visuals, counts.bones, &mut tex_names)?;
    let iks = ik_families(raw.inverse_kinematics, counts.bones)?;
    let physics: Vec<Physics> = raw.physics.into_iter().map(physics).collect();
    let animations = animations(raw.animations, counts.bones, &mut tex_names)?;
    let atlases: Vec<Atlas> =
        raw.atlases.into_iter().map(|a| Atlas { filename: a.filename, size: a.size.v() }).collect();
    let styles = styles(raw.styles, atlases.len())?;

    Ok(assemble(Parts {
        version: raw.version.unwrap_or_default(),
        upgraded_from,
        baked_ik: raw.baked_ik,
        img_format: raw.img_format.unwrap_or_else(|| "PNG".to_string()),
        clear_color: raw.clear_color.map_or(Color::TRANSPARENT, color),
        bones,
        animations,
        atlases,
        styles,
        visuals,
        iks,
        physics,
        tex_names,
    }))
}

/// The lengths of the arrays a bone refers into.
struct Counts {
    bones: usize,
    visuals: usize,
    iks: usize,
    physics: usize,
}

/// The bones: ids match indices, parents come first, references in range, `init_*`
/// defaulted to the base values.
fn bones(raw: Vec<RawBone>, n: &Counts) -> Result<Vec<Bone>, SkfError> {
    let nb = n.bones;
    let mut bones = Vec::with_capacity(nb);
    for (i, b) in raw.into_iter().enumerate() {
        let p = |k: &str| format!("bones[{i}].{k}");
        if let Some(id) = b.id {
            if id != i as i64 {
                return Err(SkfError::invalid(
                    p("id"),
                    format!("id {id} is not the bone's array index {i}"),
                ));
            }
        }
        let parent = opt_index(b.parent_id, nb, || p("parent_id"), "parent")?;
        if parent.is_some_and(|q| q as usize >= i) {
            return Err(SkfError::invalid(
                p("parent_id"),
                "a parent must come before its children in `bones`",
            ));
        }
        let scale = b.scale.map_or(Vec2::ONE, |s| s.v());
        let pos = b.pos.v();
        bones.push(Bone {
            name: b.name,
            parent,
            pos,
            rot: b.rot,
            scale,
            hidden: b.hidden,
            init_pos: b.init_pos.map_or(pos, |v| v.v()),
            init_rot: b.init_rot.unwrap_or(b.rot),
            init_scale: b.init_scale.map_or(scale, |v| v.v()),
            init_hidden: b.init_hidden.unwrap_or(b.hidden),
            ik_family: opt_index(
                b.ik_family_id.or(b.inverse_kinematics_id),
                n.iks,
                || p("ik_family_id"),
                "IK family",
            )?,
            physics: opt_index(b.physics_id, n.physics, || p("physics_id"), "physics entry")?,
            visual: opt_index(b.visuals_id, n.visuals, || p("visuals_id"), "visual")?,
        });
    }
    Ok(bones)
}

/// The visuals: vertices, triangle indices and binds checked, textures interned.
fn visuals(
    raw: Vec<RawVisual>,
    nb: usize,
    tex_names: &mut Vec<String>,
) -> Result<Vec<Visual>, SkfError> {
    let mut visuals = Vec::with_capacity(raw.len());
    for (i, v) in raw.into_iter().enumerate() {
        let p = |k: &str| format!("visuals[{i}].{k}");
        let n = v.vertices.len();
        let vertices: Vec<Vertex> = v
            .vertices
            .into_iter()
            .map(|x| Vertex { init_pos: x.init_pos.map_or(x.pos.v(), |q| q.v()), uv: x.uv.v() })
            .collect();
        let mut indices = Vec::with_capacity(v.indices.len());
        for (j, ix) in v.indices.into_iter().enumerate() {
            indices.push(req_index(ix, n, || p(&format!("indices[{j}]")), "vertex")?);
        }
        let binds = binds(v.binds, nb, n, &p)?;
        let tex = intern(tex_names, &v.tex);
        let init_tex = v.init_tex.as_deref().map_or(tex, |t| intern(tex_names, t));
        let tint = v.tint.map_or(Color::WHITE, color);
        visuals.push(Visual {
            tex,
            init_tex,
            zindex: v.zindex,
            init_zindex: v.init_zindex.unwrap_or(v.zindex),
            tint,
            init_tint: v.init_tint.map_or(tint, color),
            pivot_pos: v.pivot_pos.v(),
            pivot_rot: v.pivot_rot,
            pivot_scale: v.pivot_scale.map_or(Vec2::ONE, |s| s.v()),
            vertices,
            indices,
            binds,
        });
    }
    Ok(visuals)
}

/// A visual's binds: bones among `nb`, vertex ids among the visual's `n` (paths by `p`).
fn binds(
    raw: Vec<RawBind>,
    nb: usize,
    n: usize,
    p: &impl Fn(&str) -> String,
) -> Result<Vec<Bind>, SkfError> {
    let mut binds = Vec::with_capacity(raw.len());
    for (j, b) in raw.into_iter().enumerate() {
        let bone = opt_index(b.bone_id.or(b.id), nb, || p(&format!("binds[{j}].bone_id")), "bone")?;
        let mut verts = Vec::with_capacity(b.verts.len());
        for (k, bv) in b.verts.into_iter().enumerate() {
            let id = req_index(bv.id, n, || p(&format!("binds[{j}].verts[{k}].id")), "vertex")?;
            verts.push(BindVert { id, weight: bv.weight });
        }
        binds.push(Bind { bone, is_path: b.is_path, verts });
    }
    Ok(binds)
}

/// The IK families: target and chain bones in range, the chain's sorted set kept.
fn ik_families(raw: Vec<RawIk>, nb: usize) -> Result<Vec<IkFamily>, SkfError> {
    let mut iks = Vec::with_capacity(raw.len());
    for (i, f) in raw.into_iter().enumerate() {
        let p = |k: &str| format!("inverse_kinematics[{i}].{k}");
        let target = opt_index(f.target_id, nb, || p("target_id"), "target bone")?;
        let mut bone_ids = Vec::with_capacity(f.bone_ids.len());
        for (j, b) in f.bone_ids.into_iter().enumerate() {
            bone_ids.push(req_index(b, nb, || p(&format!("bone_ids[{j}]")), "bone")?);
        }
        let mut sorted = bone_ids.clone();
        sorted.sort_unstable();
        sorted.dedup();
        let constraint = f.constraint.map_or(IkConstraint::None, |c| c.0);
        let mode = f.mode.map_or(IkMode::Fabrik, |m| m.0);
        iks.push(IkFamily {
            constraint,
            mode,
            target,
            bone_ids,
            mimic_target: f.mimic_target,
            init_constraint: f.init_constraint.map_or(constraint, |c| c.0),
            init_mode: f.init_mode.map_or(mode, |m| m.0),
            init_mimic_target: f.init_mimic_target.unwrap_or(f.mimic_target),
            sorted,
        });
    }
    Ok(iks)
}

/// A physics entry (nothing to check).
fn physics(p: RawPhysics) -> Physics {
    Physics {
        global_pos: p.global_pos.v(),
        global_scale: p.global_scale.v(),
        global_rot: p.global_rot,
        pos_damping: p.pos_damping,
        scale_damping: p.scale_damping,
        rot_damping: p.rot_damping,
        pos_ratio: p.pos_ratio,
        scale_ratio: p.scale_ratio,
        global_orbit: p.global_orbit,
        global_orbit_diff: p.global_orbit_diff,
        global_orbit_vel: p.global_orbit_vel,
        sway: p.sway,
        rot_bounce: p.rot_bounce,
    }
}

/// The animations: keyframe bones and links in range, texture names interned after every
/// visual's, IK constraint names resolved.
fn animations(
    raw: Vec<RawAnimation>,
    nb: usize,
    tex_names: &mut Vec<String>,
) -> Result<Vec<Animation>, SkfError> {
    let mut animations = Vec::with_capacity(raw.len());
    for (a, anim) in raw.into_iter().enumerate() {
        let nk = anim.keyframes.len();
        let mut keyframes = Vec::with_capacity(nk);
        for (k, kf) in anim.keyframes.into_iter().enumerate() {
            let p = |f: &str| format!("animations[{a}].keyframes[{k}].{f}");
            let bone = req_index(kf.bone_id, nb, || p("bone_id"), "bone")?;
            let next = opt_index(kf.next_kf, nk, || p("next_kf"), "keyframe")?;
            let element = kf.element.0;
            let (tex, constraint) = match (element, kf.value_str.as_deref()) {
                (Element::Texture, Some(s)) => (intern(tex_names, s), IkConstraint::None),
                (Element::Texture, None) => (0, IkConstraint::None),
                (Element::IkConstraint, s) => (0, IkConstraint::from_name(s.unwrap_or(""))),
                _ => (0, IkConstraint::None),
            };
            keyframes.push(Keyframe {
                frame: kf.frame,
                bone,
                element,
                value: kf.value,
                value_str: kf.value_str,
                next,
                start_handle: kf.start_handle.v(),
                end_handle: kf.end_handle.v(),
                handle_preset: kf.handle_preset.map(|h| h.0),
                tex,
                constraint,
                table: NO_TABLE,
            });
        }
        animations.push(Animation {
            name: anim.name,
            fps: anim.fps,
            keyframes,
            progress: Vec::new(),
            tabulated: false,
        });
    }
    Ok(animations)
}

/// The styles: each texture's atlas among the `na` atlases.
fn styles(raw: Vec<RawStyle>, na: usize) -> Result<Vec<Style>, SkfError> {
    let mut styles = Vec::with_capacity(raw.len());
    for (s, st) in raw.into_iter().enumerate() {
        let mut textures = Vec::with_capacity(st.textures.len());
        for (t, tx) in st.textures.into_iter().enumerate() {
            if tx.atlas_idx as usize >= na {
                return Err(SkfError::invalid(
                    format!("styles[{s}].textures[{t}].atlas_idx"),
                    format!("atlas {} out of range (0..{na})", tx.atlas_idx),
                ));
            }
            textures.push(Texture {
                name: tx.name,
                offset: tx.offset.v(),
                size: tx.size.v(),
                atlas_idx: tx.atlas_idx,
            });
        }
        styles.push(Style { name: st.name, textures });
    }
    Ok(styles)
}

/// The validated content of a document, before the per-instance state is sized.
pub(crate) struct Parts {
    pub version: String,
    pub upgraded_from: Option<String>,
    pub baked_ik: bool,
    pub img_format: String,
    pub clear_color: Color,
    pub bones: Vec<Bone>,
    pub animations: Vec<Animation>,
    pub atlases: Vec<Atlas>,
    pub styles: Vec<Style>,
    pub visuals: Vec<Visual>,
    pub iks: Vec<IkFamily>,
    pub physics: Vec<Physics>,
    pub tex_names: Vec<String>,
}

/// The armature of validated parts: per-instance state and scratch sized, the
/// load-time facts the construct pass uses computed.
pub(crate) fn assemble(parts: Parts) -> Armature {
    let Parts {
        version,
        upgraded_from,
        baked_ik,
        img_format,
        clear_color,
        bones,
        animations,
        atlases,
        styles,
        visuals,
        iks,
        physics,
        tex_names,
    } = parts;
    let nb = bones.len();
    let world = vec![Transform::default(); nb];
    let iks_len = iks.len();
    let ik_independent = families_independent(&iks, nb);
    let longest_fabrik =
        iks.iter().filter(|f| f.mode == IkMode::Fabrik).map(|f| f.sorted.len()).max().unwrap_or(0);
    let mut affected = vec![0u8; nb];
    for f in &iks {
        for &b in &f.sorted {
            if let Some(a) = affected.get_mut(b as usize) {
                *a |= crate::construct::AFFECTED_IK;
            }
        }
    }
    for (i, b) in bones.iter().enumerate() {
        let inherited = b.parent.and_then(|p| affected.get(p as usize)).copied().unwrap_or(0);
        let own = if b.physics.is_some() { crate::construct::AFFECTED_PHYSICS } else { 0 };
        if let Some(a) = affected.get_mut(i) {
            *a |= inherited | own;
        }
    }
    let verts = visuals.iter().map(|v| vec![Vec2::ZERO; v.vertices.len()]).collect();
    Armature {
        version,
        upgraded_from,
        baked_ik,
        img_format,
        clear_color,
        bones,
        animations,
        atlases,
        styles,
        visuals,
        iks,
        phys_ease: physics.iter().map(crate::construct::physics_ease).collect(),
        physics,
        tex_names,
        order: ConstructOrder::Docs,
        world,
        verts,
        ik_rots: vec![0.0; nb],
        ik_set: vec![false; nb],
        reset: vec![0; nb],
        ik_ends: Vec::with_capacity(iks_len),
        ik_state: crate::construct::FabrikScratch::new(longest_fabrik),
        ik_independent,
        affected,
        trig: vec![(0f32.to_bits(), 0.0, 1.0); nb],
    }
}
