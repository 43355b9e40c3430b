//! One reader per object of the armature schema: bones, visuals, IK families, physics,
//! animations and their keyframes, atlases, styles and textures.

use super::reader::{P, R};
use crate::load::intern;
use crate::model::*;

/// Whether `v` is a valid index into an array of `len`.
#[inline]
pub(super) fn below(v: Option<u32>, len: usize) -> bool {
    v.is_none_or(|v| (v as usize) < len)
}

pub(super) fn bone<'a>(p: &mut P<'a>, index: usize) -> R<Bone> {
    let mut name = String::new();
    let mut parent = None;
    let mut pos = Vec2::ZERO;
    let mut rot = 0.0;
    let mut scale = None;
    let mut hidden = false;
    let (mut init_pos, mut init_rot, mut init_scale, mut init_hidden) = (None, None, None, None);
    let (mut ik_family, mut ik_alias, mut physics, mut visual) = (None, None, None, None);
    fields!(p {
        0 "id" => (p.i64()? == index as i64).then_some(())?,
        1 "name" => name = p.string()?,
        2 "parent_id" => parent = p.opt_id()?,
        3 "pos" => pos = p.vec2()?,
        4 "scale" => scale = Some(p.vec2()?),
        5 "rot" => rot = p.f32()?,
        6 "init_pos" => init_pos = Some(p.vec2()?),
        7 "init_rot" => init_rot = Some(p.f32()?),
        8 "init_scale" => init_scale = Some(p.vec2()?),
        9 "ik_family_id" => ik_family = Some(p.opt_id()?),
        10 "physics_id" => physics = p.opt_id()?,
        11 "visuals_id" => visual = p.opt_id()?,
        12 "hidden" => hidden = p.bool()?,
        13 "init_hidden" => init_hidden = Some(p.bool()?),
        14 "inverse_kinematics_id" => ik_alias = Some(p.opt_id()?),
    });
    // A parent must come before its children.
    if parent.is_some_and(|q| q as usize >= index) {
        return None;
    }
    let scale = scale.unwrap_or(Vec2::ONE);
    Some(Bone {
        name,
        parent,
        pos,
        rot,
        scale,
        hidden,
        init_pos: init_pos.unwrap_or(pos),
        init_rot: init_rot.unwrap_or(rot),
        init_scale: init_scale.unwrap_or(scale),
        init_hidden: init_hidden.unwrap_or(hidden),
        ik_family: ik_family.or(ik_alias).flatten(),
        physics,
        visual,
    })
}

fn vertex(p: &mut P<'_>) -> R<Vertex> {
    let (mut pos, mut uv, mut init_pos) = (Vec2::ZERO, Vec2::ZERO, None);
    fields!(p {
        0 "id" => p.skip()?,
        1 "pos" => pos = p.vec2()?,
        2 "uv" => uv = p.vec2()?,
        3 "init_pos" => init_pos = Some(p.vec2()?),
    });
    Some(Vertex { init_pos: init_pos.unwrap_or(pos), uv })
}

fn bind_vert(p: &mut P<'_>) -> R<BindVert> {
    let (mut id, mut weight) = (0, 1.0);
    fields!(p {
        0 "id" => id = p.id()?,
        1 "weight" => weight = p.f32()?,
    });
    Some(BindVert { id, weight })
}

fn bind(p: &mut P<'_>) -> R<Bind> {
    let (mut bone, mut alias, mut is_path, mut verts) = (None, None, false, Vec::new());
    fields!(p {
        0 "bone_id" => bone = Some(p.opt_id()?),
        1 "is_path" => is_path = p.bool()?,
        2 "verts" => verts = p.array_via(|s| &mut s.verts, bind_vert)?,
        3 "id" => alias = Some(p.opt_id()?),
    });
    Some(Bind { bone: bone.or(alias).flatten(), is_path, verts })
}

pub(super) fn visual<'a>(p: &mut P<'a>, tex_names: &mut Vec<String>) -> R<Visual> {
    let (mut tex, mut init_tex) = ("", None);
    let (mut zindex, mut init_zindex) = (0, None);
    let (mut tint, mut init_tint) = (None, None);
    let (mut pivot_pos, mut pivot_rot, mut pivot_scale) = (Vec2::ZERO, 0.0, None);
    let (mut vertices, mut indices, mut binds) = (Vec::new(), Vec::new(), Vec::new());
    fields!(p {
        0 "tex" => tex = p.str()?,
        1 "zindex" => zindex = p.i32()?,
        2 "pivot_pos" => pivot_pos = p.vec2()?,
        3 "pivot_rot" => pivot_rot = p.f32()?,
        4 "pivot_scale" => pivot_scale = Some(p.vec2()?),
        5 "vertices" => vertices = p.array_via(|s| &mut s.vertices, vertex)?,
        6 "indices" => indices = p.array_via(|s| &mut s.ids, P::id)?,
        7 "binds" => binds = p.array_via(|s| &mut s.binds, bind)?,
        8 "init_tex" => init_tex = Some(p.str()?),
        9 "init_zindex" => init_zindex = Some(p.i32()?),
        10 "tint" => tint = Some(p.color()?),
        11 "init_tint" => init_tint = Some(p.color()?),
    });
    let n = vertices.len();
    let in_mesh = |&i: &u32| (i as usize) < n;
    if !indices.iter().all(in_mesh) || !binds.iter().flat_map(|b| &b.verts).all(|v| in_mesh(&v.id))
    {
        return None;
    }
    // Interned in the order `load::build` uses: a visual's `tex`, then its `init_tex`.
    let tex_id = intern(tex_names, tex);
    let init_tex = match init_tex {
        Some(t) if t != tex => intern(tex_names, t),
        _ => tex_id,
    };
    let tex = tex_id;
    let tint = tint.unwrap_or(Color::WHITE);
    Some(Visual {
        tex,
        init_tex,
        zindex,
        init_zindex: init_zindex.unwrap_or(zindex),
        tint,
        init_tint: init_tint.unwrap_or(tint),
        pivot_pos,
        pivot_rot,
        pivot_scale: pivot_scale.unwrap_or(Vec2::ONE),
        vertices,
        indices,
        binds,
    })
}

fn mode(s: &str) -> IkMode {
    if s == "FABRIK" {
        IkMode::Fabrik
    } else {
        IkMode::Arc
    }
}

pub(super) fn ik(p: &mut P<'_>) -> R<IkFamily> {
    let (mut constraint, mut mode_, mut target, mut bone_ids) = (None, None, None, Vec::new());
    let (mut mimic_target, mut init_constraint, mut init_mode, mut init_mimic) =
        (false, None, None, None);
    fields!(p {
        0 "id" => p.skip()?,
        1 "constraint" => constraint = Some(IkConstraint::from_name(p.str()?)),
        2 "mode" => mode_ = Some(mode(p.str()?)),
        3 "target_id" => target = p.opt_id()?,
        4 "bone_ids" => bone_ids = p.array_via(|s| &mut s.ids, P::id)?,
        5 "init_constraint" => init_constraint = Some(IkConstraint::from_name(p.str()?)),
        6 "init_mode" => init_mode = Some(mode(p.str()?)),
        7 "mimic_target" => mimic_target = p.bool()?,
        8 "init_mimic_target" => init_mimic = Some(p.bool()?),
    });
    let mut sorted = bone_ids.clone();
    sorted.sort_unstable();
    sorted.dedup();
    let constraint = constraint.unwrap_or(IkConstraint::None);
    let mode_ = mode_.unwrap_or(IkMode::Fabrik);
    Some(IkFamily {
        constraint,
        mode: mode_,
        target,
        bone_ids,
        mimic_target,
        init_constraint: init_constraint.unwrap_or(constraint),
        init_mode: init_mode.unwrap_or(mode_),
        init_mimic_target: init_mimic.unwrap_or(mimic_target),
        sorted,
    })
}

pub(super) fn physics(p: &mut P<'_>) -> R<Physics> {
    let mut f = Physics::default();
    fields!(p {
        0 "global_pos" => f.global_pos = p.vec2()?,
        1 "pos_damping" => f.pos_damping = p.f32()?,
        2 "pos_ratio" => f.pos_ratio = p.f32()?,
        3 "global_rot" => f.global_rot = p.f32()?,
        4 "rot_damping" => f.rot_damping = p.f32()?,
        5 "global_orbit" => f.global_orbit = p.f32()?,
        6 "global_orbit_diff" => f.global_orbit_diff = p.f32()?,
        7 "global_orbit_vel" => f.global_orbit_vel = p.f32()?,
        8 "sway" => f.sway = p.f32()?,
        9 "rot_bounce" => f.rot_bounce = p.f32()?,
        10 "global_scale" => f.global_scale = p.vec2()?,
        11 "scale_damping" => f.scale_damping = p.f32()?,
        12 "scale_ratio" => f.scale_ratio = p.f32()?,
    });
    Some(f)
}

/// The element names of the exporters, tried as whole quoted tokens before the general
/// string path.
fn element(p: &mut P<'_>) -> R<Element> {
    if p.lit(b"\"PositionX\"") {
        return Some(Element::PositionX);
    }
    if p.lit(b"\"PositionY\"") {
        return Some(Element::PositionY);
    }
    if p.lit(b"\"Rotation\"") {
        return Some(Element::Rotation);
    }
    Some(Element::from_name(p.str()?))
}

/// A keyframe; `next` is checked against the animation's keyframe count by the caller.
fn keyframe(p: &mut P<'_>) -> R<Keyframe> {
    let (mut frame, mut bone, mut element_, mut value) = (0, 0, Element::Other, 0.0);
    let (mut value_str, mut next) = (None, None);
    let (mut start_handle, mut end_handle, mut handle_preset) = (Vec2::ZERO, Vec2::ZERO, None);
    fields!(p {
        0 "frame" => frame = p.u32()?,
        1 "bone_id" => bone = p.id()?,
        2 "element" => element_ = element(p)?,
        3 "value" => value = p.f32()?,
        4 "start_handle" => start_handle = p.vec2()?,
        5 "end_handle" => end_handle = p.vec2()?,
        6 "next_kf" => next = p.opt_id()?,
        7 "handle_preset" => {
            handle_preset = Some(if p.lit(b"\"Linear\"") {
                HandlePreset::Linear
            } else {
                HandlePreset::from_name(p.str()?)
            })
        },
        8 "value_str" => value_str = Some(p.string()?),
    });
    let constraint = match element_ {
        Element::IkConstraint => IkConstraint::from_name(value_str.as_deref().unwrap_or("")),
        _ => IkConstraint::None,
    };
    Some(Keyframe {
        frame,
        bone,
        element: element_,
        value,
        value_str,
        next,
        start_handle,
        end_handle,
        handle_preset,
        tex: 0,
        constraint,
        table: NO_TABLE,
    })
}

pub(super) fn animation(p: &mut P<'_>) -> R<Animation> {
    let (mut name, mut fps, mut keyframes) = (String::new(), 0, Vec::new());
    fields!(p {
        0 "name" => name = p.string()?,
        1 "id" => p.skip()?,
        2 "fps" => fps = p.u32()?,
        3 "keyframes" => keyframes = p.array_via(|s| &mut s.keyframes, keyframe)?,
    });
    let nk = keyframes.len();
    if !keyframes.iter().all(|k| below(k.next, nk)) {
        return None;
    }
    Some(Animation { name, fps, keyframes, progress: Vec::new(), tabulated: false })
}

pub(super) fn atlas(p: &mut P<'_>) -> R<Atlas> {
    let (mut filename, mut size) = (String::new(), Vec2::ZERO);
    fields!(p {
        0 "filename" => filename = p.string()?,
        1 "size" => size = p.vec2()?,
    });
    Some(Atlas { filename, size })
}

fn texture(p: &mut P<'_>) -> R<Texture> {
    let (mut name, mut offset, mut size, mut atlas_idx) =
        (String::new(), Vec2::ZERO, Vec2::ZERO, 0);
    fields!(p {
        0 "name" => name = p.string()?,
        1 "offset" => offset = p.vec2()?,
        2 "size" => size = p.vec2()?,
        3 "atlas_idx" => atlas_idx = p.u32()?,
    });
    Some(Texture { name, offset, size, atlas_idx })
}

pub(super) fn style(p: &mut P<'_>) -> R<Style> {
    let (mut name, mut textures) = (String::new(), Vec::new());
    fields!(p {
        0 "id" => p.skip()?,
        1 "name" => name = p.string()?,
        2 "textures" => textures = p.array_via(|s| &mut s.textures, texture)?,
    });
    Some(Style { name, textures })
}
