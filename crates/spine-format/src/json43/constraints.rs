//! Constraints (`constraints[i]`, one ordered array with a `type`): IK, transform (source
//! properties mapped to target properties), path, physics and slider.

use super::enums::{position_mode, rotate_mode, spacing_mode, Property, ScaleYMode};
use super::named;
use crate::json::value::{as_str, Obj, J, P, R};
use crate::json::{PositionMode, RotateMode, SpacingMode};
use serde::Serialize;

/// An IK constraint (`type: "ik"`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct IkConstraint {
    /// `bones` names.
    pub bones: Vec<String>,
    /// `target` bone name (required).
    pub target: String,
    /// `scaleY` mode (default `none`).
    pub scale_y: Option<ScaleYMode>,
    /// `mix` (default 1).
    pub mix: Option<f32>,
    /// `softness` (default 0; scaled).
    pub softness: Option<f32>,
    /// `bendPositive` (default true).
    pub bend_positive: Option<bool>,
    /// `compress` (default false).
    pub compress: Option<bool>,
    /// `stretch` (default false).
    pub stretch: Option<bool>,
}

/// A target property of a transform constraint (`properties.<from>.to.<to>`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToEntry {
    /// The key: the property written.
    pub property: Property,
    /// `offset` (default 0; scaled for `x`/`y`).
    pub offset: Option<f32>,
    /// `max` (default 1; scaled for `x`/`y`).
    pub max: Option<f32>,
    /// `scale` (default 1; × toScale / fromScale).
    pub scale: Option<f32>,
}

/// A source property of a transform constraint (`properties.<from>`). The loader keeps it
/// only when it has at least one target.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FromEntry {
    /// The key: the property read.
    pub property: Property,
    /// `offset` (default 0; scaled for `x`/`y`).
    pub offset: Option<f32>,
    /// `to` entries in file order.
    pub to: Vec<ToEntry>,
}

/// A transform constraint (`type: "transform"`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct TransformConstraint {
    /// `bones` names.
    pub bones: Vec<String>,
    /// `source` bone name (required).
    pub source: String,
    /// `localSource` (default false).
    pub local_source: Option<bool>,
    /// `localTarget` (default false).
    pub local_target: Option<bool>,
    /// `additive` (default false).
    pub additive: Option<bool>,
    /// `clamp` (default false).
    pub clamp: Option<bool>,
    /// `properties` in file order.
    pub properties: Vec<FromEntry>,
    /// Offsets `rotation`, `x`, `y` (scaled), `scaleX`, `scaleY`, `shearY` (default 0 each).
    pub offsets: [Option<f32>; 6],
    /// Mixes `mixRotate`, `mixX`, `mixY`, `mixScaleX`, `mixScaleY`, `mixShearY`. The loader
    /// reads each only when some target writes that property (default 1; `mixY` defaults to
    /// `mixX`, `mixScaleY` to `mixScaleX`); a mix of a property no target writes stays 0.
    pub mixes: [Option<f32>; 6],
}

/// The JSON keys of [`TransformConstraint::offsets`].
pub const OFFSET_KEYS: [&str; 6] = ["rotation", "x", "y", "scaleX", "scaleY", "shearY"];
/// The JSON keys of [`TransformConstraint::mixes`] (and of transform timeline keys).
pub const MIX_KEYS: [&str; 6] =
    ["mixRotate", "mixX", "mixY", "mixScaleX", "mixScaleY", "mixShearY"];

/// A path constraint (`type: "path"`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct PathConstraint {
    /// `bones` names.
    pub bones: Vec<String>,
    /// `slot` name of the path attachment (required).
    pub slot: String,
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
    /// `mixRotate` (default 1).
    pub mix_rotate: Option<f32>,
    /// `mixX` (default 1).
    pub mix_x: Option<f32>,
    /// `mixY` (default `mixX`).
    pub mix_y: Option<f32>,
}

/// A physics constraint (`type: "physics"`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct PhysicsConstraint {
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
    /// `scaleY` mode (default `none`).
    pub scale_y: Option<ScaleYMode>,
    /// `shearX` (default 0).
    pub shear_x: Option<f32>,
    /// `limit` (default 5000; scaled).
    pub limit: Option<f32>,
    /// `fps` (default 60; the step is 1/fps).
    pub fps: Option<f32>,
    /// `inertia` (default 0.5).
    pub inertia: Option<f32>,
    /// `strength` (default 100).
    pub strength: Option<f32>,
    /// `damping` (default 0.85).
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

/// The JSON keys of [`PhysicsConstraint::global`].
pub const GLOBAL_KEYS: [&str; 7] = [
    "inertiaGlobal",
    "strengthGlobal",
    "dampingGlobal",
    "massGlobal",
    "windGlobal",
    "gravityGlobal",
    "mixGlobal",
];

/// The bone that drives a slider (`bone` and the keys read with it).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct SliderBone {
    /// `bone` name.
    pub bone: String,
    /// `property` read from the bone (required with `bone`).
    pub property: Option<Property>,
    /// `from`: the property offset (default 0; scaled for `x`/`y`).
    pub from: Option<f32>,
    /// `to`: the time offset (default 0).
    pub to: Option<f32>,
    /// `scale` (default 1; ÷ scale for `x`/`y`).
    pub scale: Option<f32>,
    /// `max` (nonessential editor value; default 0).
    pub max: Option<f32>,
    /// `local` (default false).
    pub local: Option<bool>,
}

/// A slider constraint (`type: "slider"`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct SliderConstraint {
    /// `additive` (default false).
    pub additive: Option<bool>,
    /// `loop` (default false).
    pub looping: Option<bool>,
    /// `mix` (default 1).
    pub mix: Option<f32>,
    /// The driving bone, when `bone` is present (then `time` is not read).
    pub bone: Option<SliderBone>,
    /// `time` (default 0; read only without `bone`).
    pub time: Option<f32>,
    /// `animation` name (required).
    pub animation: String,
}

/// A constraint body by `type`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub enum ConstraintKind {
    /// `ik`.
    Ik(IkConstraint),
    /// `transform`.
    Transform(TransformConstraint),
    /// `path`.
    Path(PathConstraint),
    /// `physics`.
    Physics(PhysicsConstraint),
    /// `slider`.
    Slider(SliderConstraint),
}

impl ConstraintKind {
    /// The `type` spelling.
    pub fn type_name(&self) -> &'static str {
        match self {
            ConstraintKind::Ik(_) => "ik",
            ConstraintKind::Transform(_) => "transform",
            ConstraintKind::Path(_) => "path",
            ConstraintKind::Physics(_) => "physics",
            ConstraintKind::Slider(_) => "slider",
        }
    }
}

/// One entry of `constraints` (update order).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Constraint {
    /// `name` (required).
    pub name: crate::Name,
    /// `skin`: only active when a skin includes it (default false).
    pub skin: Option<bool>,
    /// The `type` and its fields.
    pub kind: ConstraintKind,
}

/// One entry of `constraints`: `name`, `skin`, then the fields of its `type`.
pub(super) fn read_constraint(o: &Obj) -> R<Constraint> {
    let name = o.req_name("name")?;
    let skin = o.bool("skin")?;
    let ty = o.req("type", |v, p| as_str(v, p).map(str::to_owned))?;
    let kind = match ty.as_str() {
        "ik" => ConstraintKind::Ik(read_ik(o)?),
        "transform" => ConstraintKind::Transform(read_transform(o)?),
        "path" => ConstraintKind::Path(read_path(o)?),
        "physics" => ConstraintKind::Physics(read_physics(o)?),
        "slider" => ConstraintKind::Slider(read_slider(o)?),
        other => {
            return Err(o.p.key("type").err(format!(
                "unknown constraint type {other:?} (expected one of ik, transform, path, physics, slider)"
            )))
        }
    };
    Ok(Constraint { name, skin, kind })
}

/// `type: "ik"`.
fn read_ik(o: &Obj) -> R<IkConstraint> {
    Ok(IkConstraint {
        bones: o.strings("bones", "bone")?,
        target: o.req_string("target")?,
        scale_y: o.opt("scaleY", ScaleYMode::read)?,
        mix: o.f32("mix")?,
        softness: o.f32("softness")?,
        bend_positive: o.bool("bendPositive")?,
        compress: o.bool("compress")?,
        stretch: o.bool("stretch")?,
    })
}

/// `type: "transform"`.
fn read_transform(o: &Obj) -> R<TransformConstraint> {
    let properties = o.opt("properties", read_properties)?.unwrap_or_default();
    let mut offsets = [None; 6];
    for (o_, k) in offsets.iter_mut().zip(OFFSET_KEYS) {
        *o_ = o.f32(k)?;
    }
    let mut mixes = [None; 6];
    for (m, k) in mixes.iter_mut().zip(MIX_KEYS) {
        *m = o.f32(k)?;
    }
    Ok(TransformConstraint {
        bones: o.strings("bones", "bone")?,
        source: o.req_string("source")?,
        local_source: o.bool("localSource")?,
        local_target: o.bool("localTarget")?,
        additive: o.bool("additive")?,
        clamp: o.bool("clamp")?,
        properties,
        offsets,
        mixes,
    })
}

/// A transform constraint's `properties: {from: {offset, to: {to: {offset, max, scale}}}}`.
fn read_properties(v: J<'_>, p: &P<'_>) -> R<Vec<FromEntry>> {
    named(v, p, "transform property", |from, v, p| {
        let property = Property::from_name(from)
            .ok_or_else(|| p.err(format!("invalid transform constraint from property {from:?}")))?;
        let f = Obj::new(v, p)?;
        let to = f
            .opt("to", |v, p| {
                named(v, p, "transform property", |to, v, p| {
                    let property = Property::from_name(to).ok_or_else(|| {
                        p.err(format!("invalid transform constraint to property {to:?}"))
                    })?;
                    let t = Obj::new(v, p)?;
                    Ok(ToEntry {
                        property,
                        offset: t.f32("offset")?,
                        max: t.f32("max")?,
                        scale: t.f32("scale")?,
                    })
                })
            })?
            .unwrap_or_default();
        Ok(FromEntry { property, offset: f.f32("offset")?, to })
    })
}

/// `type: "path"`.
fn read_path(o: &Obj) -> R<PathConstraint> {
    Ok(PathConstraint {
        bones: o.strings("bones", "bone")?,
        slot: o.req_string("slot")?,
        position_mode: o.opt("positionMode", position_mode)?,
        spacing_mode: o.opt("spacingMode", spacing_mode)?,
        rotate_mode: o.opt("rotateMode", rotate_mode)?,
        rotation: o.f32("rotation")?,
        position: o.f32("position")?,
        spacing: o.f32("spacing")?,
        mix_rotate: o.f32("mixRotate")?,
        mix_x: o.f32("mixX")?,
        mix_y: o.f32("mixY")?,
    })
}

/// `type: "physics"`.
fn read_physics(o: &Obj) -> R<PhysicsConstraint> {
    let mut global = [None; 7];
    for (g, k) in global.iter_mut().zip(GLOBAL_KEYS) {
        *g = o.bool(k)?;
    }
    Ok(PhysicsConstraint {
        bone: o.req_string("bone")?,
        x: o.f32("x")?,
        y: o.f32("y")?,
        rotate: o.f32("rotate")?,
        scale_x: o.f32("scaleX")?,
        scale_y: o.opt("scaleY", ScaleYMode::read)?,
        shear_x: o.f32("shearX")?,
        limit: o.f32("limit")?,
        fps: o.f32("fps")?,
        inertia: o.f32("inertia")?,
        strength: o.f32("strength")?,
        damping: o.f32("damping")?,
        mass: o.f32("mass")?,
        wind: o.f32("wind")?,
        gravity: o.f32("gravity")?,
        mix: o.f32("mix")?,
        global,
    })
}

/// `type: "slider"`: driven by a `bone` property, or by its own `time` without one.
fn read_slider(o: &Obj) -> R<SliderConstraint> {
    let bone = match o.string("bone")? {
        Some(bone) => Some(SliderBone {
            bone,
            property: Some(o.req("property", Property::read)?),
            from: o.f32("from")?,
            to: o.f32("to")?,
            scale: o.f32("scale")?,
            max: o.f32("max")?,
            local: o.bool("local")?,
        }),
        None => None,
    };
    Ok(SliderConstraint {
        additive: o.bool("additive")?,
        looping: o.bool("loop")?,
        mix: o.f32("mix")?,
        time: if bone.is_none() { o.f32("time")? } else { None },
        bone,
        animation: o.req_string("animation")?,
    })
}
