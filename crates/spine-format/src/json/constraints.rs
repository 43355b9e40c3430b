//! Constraints: IK, transform, path and physics (4.2), each in its own top-level array.

use super::value::{Obj, R};
use super::{PositionMode, RotateMode, SpacingMode};
use serde::Serialize;

/// Fields shared by every constraint.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct ConstraintHead {
    /// `name` (required).
    pub name: crate::Name,
    /// `order` (default 0).
    pub order: Option<i32>,
    /// `skin`: only active when a skin includes it (3.8+; default false).
    pub skin: Option<bool>,
}

/// An IK constraint (`ik[i]`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct IkConstraint {
    /// Name, order, skin flag.
    pub head: ConstraintHead,
    /// `bones` names.
    pub bones: Vec<String>,
    /// `target` bone name (required).
    pub target: String,
    /// `mix` (default 1).
    pub mix: Option<f32>,
    /// `softness` (3.8+; default 0).
    pub softness: Option<f32>,
    /// `bendPositive` (default true).
    pub bend_positive: Option<bool>,
    /// `compress` (3.7+; default false).
    pub compress: Option<bool>,
    /// `stretch` (3.7+; default false).
    pub stretch: Option<bool>,
    /// `uniform` (3.7+; default false).
    pub uniform: Option<bool>,
}

/// A transform constraint (`transform[i]`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct TransformConstraint {
    /// Name, order, skin flag.
    pub head: ConstraintHead,
    /// `bones` names.
    pub bones: Vec<String>,
    /// `target` bone name (required).
    pub target: String,
    /// `local` (default false).
    pub local: Option<bool>,
    /// `relative` (default false).
    pub relative: Option<bool>,
    /// `rotation` offset (default 0).
    pub rotation: Option<f32>,
    /// `x` offset (default 0).
    pub x: Option<f32>,
    /// `y` offset (default 0).
    pub y: Option<f32>,
    /// `scaleX` offset (default 0).
    pub scale_x: Option<f32>,
    /// `scaleY` offset (default 0).
    pub scale_y: Option<f32>,
    /// `shearY` offset (default 0).
    pub shear_y: Option<f32>,
    /// Mixes (3.x and 4.x spellings).
    pub mix: TransformMix,
}

/// Transform constraint mixes. 3.x reads `rotateMix`, `translateMix`, `scaleMix`, `shearMix`
/// (default 1 each); 4.x reads `mixRotate`, `mixX`, `mixScaleX`, `mixShearY` (default 1),
/// `mixY` (default `mixX`) and `mixScaleY` (default `mixScaleX`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct TransformMix {
    /// `rotateMix` (3.x).
    pub rotate_mix: Option<f32>,
    /// `translateMix` (3.x).
    pub translate_mix: Option<f32>,
    /// `scaleMix` (3.x).
    pub scale_mix: Option<f32>,
    /// `shearMix` (3.x).
    pub shear_mix: Option<f32>,
    /// `mixRotate` (4.x).
    pub mix_rotate: Option<f32>,
    /// `mixX` (4.x).
    pub mix_x: Option<f32>,
    /// `mixY` (4.x).
    pub mix_y: Option<f32>,
    /// `mixScaleX` (4.x).
    pub mix_scale_x: Option<f32>,
    /// `mixScaleY` (4.x).
    pub mix_scale_y: Option<f32>,
    /// `mixShearY` (4.x).
    pub mix_shear_y: Option<f32>,
}

impl TransformMix {
    pub(super) fn read(o: &Obj) -> R<Self> {
        Ok(TransformMix {
            rotate_mix: o.f32("rotateMix")?,
            translate_mix: o.f32("translateMix")?,
            scale_mix: o.f32("scaleMix")?,
            shear_mix: o.f32("shearMix")?,
            mix_rotate: o.f32("mixRotate")?,
            mix_x: o.f32("mixX")?,
            mix_y: o.f32("mixY")?,
            mix_scale_x: o.f32("mixScaleX")?,
            mix_scale_y: o.f32("mixScaleY")?,
            mix_shear_y: o.f32("mixShearY")?,
        })
    }
}

/// Path constraint mixes: 3.x `rotateMix`, `translateMix` (default 1); 4.x `mixRotate`,
/// `mixX` (default 1), `mixY` (default 1 in the setup pose, `mixX` in timeline keys).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct PathMix {
    /// `rotateMix` (3.x).
    pub rotate_mix: Option<f32>,
    /// `translateMix` (3.x).
    pub translate_mix: Option<f32>,
    /// `mixRotate` (4.x).
    pub mix_rotate: Option<f32>,
    /// `mixX` (4.x).
    pub mix_x: Option<f32>,
    /// `mixY` (4.x).
    pub mix_y: Option<f32>,
}

impl PathMix {
    pub(super) fn read(o: &Obj) -> R<Self> {
        Ok(PathMix {
            rotate_mix: o.f32("rotateMix")?,
            translate_mix: o.f32("translateMix")?,
            mix_rotate: o.f32("mixRotate")?,
            mix_x: o.f32("mixX")?,
            mix_y: o.f32("mixY")?,
        })
    }
}

/// A path constraint (`path[i]`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct PathConstraint {
    /// Name, order, skin flag.
    pub head: ConstraintHead,
    /// `bones` names.
    pub bones: Vec<String>,
    /// `target` slot name (required).
    pub target: String,
    /// `positionMode` (default `percent`).
    pub position_mode: Option<PositionMode>,
    /// `spacingMode` (default `length`).
    pub spacing_mode: Option<SpacingMode>,
    /// `rotateMode` (default `tangent`).
    pub rotate_mode: Option<RotateMode>,
    /// `rotation` offset (default 0).
    pub rotation: Option<f32>,
    /// `position` (default 0; scaled when the position mode is `fixed`).
    pub position: Option<f32>,
    /// `spacing` (default 0; scaled for `length` and `fixed` spacing).
    pub spacing: Option<f32>,
    /// Mixes (3.x and 4.x spellings).
    pub mix: PathMix,
}

/// A physics constraint (`physics[i]`, 4.2).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct PhysicsConstraint {
    /// Name, order, skin flag.
    pub head: ConstraintHead,
    /// `bone` name (required).
    pub bone: String,
    /// `x` (default 0).
    pub x: Option<f32>,
    /// `y` (default 0).
    pub y: Option<f32>,
    /// `rotate` (default 0).
    pub rotate: Option<f32>,
    /// `scaleX` (default 0).
    pub scale_x: Option<f32>,
    /// `shearX` (default 0).
    pub shear_x: Option<f32>,
    /// `limit` (default 5000; scaled).
    pub limit: Option<f32>,
    /// `fps` (default 60; the step is 1/fps).
    pub fps: Option<i32>,
    /// `inertia` (default 1).
    pub inertia: Option<f32>,
    /// `strength` (default 100).
    pub strength: Option<f32>,
    /// `damping` (default 1).
    pub damping: Option<f32>,
    /// `mass` (default 1; the runtime keeps 1/mass).
    pub mass: Option<f32>,
    /// `wind` (default 0).
    pub wind: Option<f32>,
    /// `gravity` (default 0).
    pub gravity: Option<f32>,
    /// `mix` (default 1).
    pub mix: Option<f32>,
    /// `inertiaGlobal`, `strengthGlobal`, `dampingGlobal`, `massGlobal`, `windGlobal`,
    /// `gravityGlobal`, `mixGlobal` (default false each), in that order.
    pub global: [Option<bool>; 7],
}

/// The fields every constraint has.
fn head(o: &Obj) -> R<ConstraintHead> {
    Ok(ConstraintHead { name: o.req_name("name")?, order: o.i32("order")?, skin: o.bool("skin")? })
}

/// An IK constraint (`ik[i]`).
pub(super) fn read_ik(o: &Obj) -> R<IkConstraint> {
    Ok(IkConstraint {
        head: head(o)?,
        bones: o.strings("bones", "bone")?,
        target: o.req_string("target")?,
        mix: o.f32("mix")?,
        softness: o.f32("softness")?,
        bend_positive: o.bool("bendPositive")?,
        compress: o.bool("compress")?,
        stretch: o.bool("stretch")?,
        uniform: o.bool("uniform")?,
    })
}

/// A transform constraint (`transform[i]`).
pub(super) fn read_transform(o: &Obj) -> R<TransformConstraint> {
    Ok(TransformConstraint {
        head: head(o)?,
        bones: o.strings("bones", "bone")?,
        target: o.req_string("target")?,
        local: o.bool("local")?,
        relative: o.bool("relative")?,
        rotation: o.f32("rotation")?,
        x: o.f32("x")?,
        y: o.f32("y")?,
        scale_x: o.f32("scaleX")?,
        scale_y: o.f32("scaleY")?,
        shear_y: o.f32("shearY")?,
        mix: TransformMix::read(o)?,
    })
}

/// A path constraint (`path[i]`).
pub(super) fn read_path(o: &Obj) -> R<PathConstraint> {
    Ok(PathConstraint {
        head: head(o)?,
        bones: o.strings("bones", "bone")?,
        target: o.req_string("target")?,
        position_mode: o.opt("positionMode", PositionMode::read)?,
        spacing_mode: o.opt("spacingMode", SpacingMode::read)?,
        rotate_mode: o.opt("rotateMode", RotateMode::read)?,
        rotation: o.f32("rotation")?,
        position: o.f32("position")?,
        spacing: o.f32("spacing")?,
        mix: PathMix::read(o)?,
    })
}

/// A physics constraint (`physics[i]`).
pub(super) fn read_physics(o: &Obj) -> R<PhysicsConstraint> {
    let g = |k| o.bool(k);
    Ok(PhysicsConstraint {
        head: head(o)?,
        bone: o.req_string("bone")?,
        x: o.f32("x")?,
        y: o.f32("y")?,
        rotate: o.f32("rotate")?,
        scale_x: o.f32("scaleX")?,
        shear_x: o.f32("shearX")?,
        limit: o.f32("limit")?,
        fps: o.i32("fps")?,
        inertia: o.f32("inertia")?,
        strength: o.f32("strength")?,
        damping: o.f32("damping")?,
        mass: o.f32("mass")?,
        wind: o.f32("wind")?,
        gravity: o.f32("gravity")?,
        mix: o.f32("mix")?,
        global: [
            g("inertiaGlobal")?,
            g("strengthGlobal")?,
            g("dampingGlobal")?,
            g("massGlobal")?,
            g("windGlobal")?,
            g("gravityGlobal")?,
            g("mixGlobal")?,
        ],
    })
}
