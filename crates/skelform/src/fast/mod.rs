//! A fast path for reading `armature.json` straight into the model: a byte-level reader
//! that knows the schema, predicts each object's next key from the exporters' key order
//! (one fixed-size comparison instead of scanning and matching the key), and gives up
//! (returns `None`) on anything unusual (escapes in strings, `null`, deep nesting, a
//! number where an integer is expected with a fraction, an id out of range, a legacy
//! document, malformed input). The caller then falls back to serde_json and
//! `load::build`, which yield the same armature or a precise error with its JSON path.

#[macro_use]
mod fields;
mod objects;
mod reader;
#[cfg(test)]
mod tests;

use crate::armature::Armature;
use crate::load::{assemble, intern, version_pair, Parts};
use crate::model::*;
use objects::{animation, atlas, below, bone, ik, physics, style, visual};
use reader::P;

/// The armature of a current-format document, or `None` to fall back to serde_json
/// (which also reports the errors). Legacy documents (markers `ik_root_ids`,
/// `texture_size`, `armature`, or a version below 0.6) are left to the slow path.
pub(crate) fn parse(text: &[u8]) -> Option<Armature> {
    let mut p = P::new(text);
    let (mut version, mut baked_ik, mut img_format, mut clear_color) = (None, false, None, None);
    let (mut bones, mut animations, mut atlases, mut styles) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut visuals, mut iks, mut physics_) = (Vec::new(), Vec::new(), Vec::new());
    let mut tex_names = vec![String::new()];
    {
        let p = &mut p;
        fields!(p {
            0 "version" => version = Some(p.string()?),
            1 "baked_ik" => baked_ik = p.bool()?,
            2 "img_format" => img_format = Some(p.string()?),
            3 "bones" => {
                let mut i = 0;
                bones = p.array(|p| {
                    i += 1;
                    bone(p, i - 1)
                })?
            },
            4 "animations" => animations = p.array(animation)?,
            5 "atlases" => atlases = p.array(atlas)?,
            6 "styles" => styles = p.array(style)?,
            7 "visuals" => visuals = p.array(|p| visual(p, &mut tex_names))?,
            8 "inverse_kinematics" => iks = p.array(ik)?,
            9 "physics" => physics_ = p.array(physics)?,
            10 "clear_color" => clear_color = Some(p.color()?),
            11 "ik_root_ids" => return None,
            12 "texture_size" => return None,
            13 "armature" => return None,
        });
    }
    // Only whitespace may follow.
    p.peek().is_none().then_some(())?;
    if version.as_deref().and_then(version_pair).is_some_and(|v| v < (0, 6)) {
        return None;
    }
    // Cross-references, now that every array's length is known.
    let (nb, nv, nik, np, na) =
        (bones.len(), visuals.len(), iks.len(), physics_.len(), atlases.len());
    if nb > u32::MAX as usize / 2 {
        return None;
    }
    let bones_ok = bones
        .iter()
        .all(|b: &Bone| below(b.ik_family, nik) && below(b.physics, np) && below(b.visual, nv));
    let visuals_ok = visuals.iter().flat_map(|v: &Visual| &v.binds).all(|b| below(b.bone, nb));
    let iks_ok = iks
        .iter()
        .all(|f: &IkFamily| below(f.target, nb) && f.bone_ids.iter().all(|&b| (b as usize) < nb));
    let styles_ok =
        styles.iter().flat_map(|s: &Style| &s.textures).all(|t| (t.atlas_idx as usize) < na);
    if !(bones_ok && visuals_ok && iks_ok && styles_ok) {
        return None;
    }
    // Keyframe textures are interned after every visual's, as `load::build` does.
    for kf in animations.iter_mut().flat_map(|a: &mut Animation| a.keyframes.iter_mut()) {
        if (kf.bone as usize) >= nb {
            return None;
        }
        if kf.element == Element::Texture {
            if let Some(s) = kf.value_str.as_deref() {
                kf.tex = intern(&mut tex_names, s);
            }
        }
    }
    Some(assemble(Parts {
        version: version.unwrap_or_default(),
        upgraded_from: None,
        baked_ik,
        img_format: img_format.unwrap_or_else(|| "PNG".to_string()),
        clear_color: clear_color.unwrap_or(Color::TRANSPARENT),
        bones,
        animations,
        atlases,
        styles,
        visuals,
        iks,
        physics: physics_,
        tex_names,
    }))
}
