//! The serde image of `armature.json` (private): every key optional, with the defaults a
//! robust loader should use (SEMANTICS §2), before validation and resolution.

use serde::de::{self, Deserializer, IgnoredAny, Visitor};
use serde::Deserialize;

use crate::model::{Element, HandlePreset, IkConstraint, IkMode, Vec2};

#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct RawVec2 {
    pub x: f32,
    pub y: f32,
}

impl RawVec2 {
    pub fn v(&self) -> Vec2 {
        Vec2::new(self.x, self.y)
    }
}

#[derive(Deserialize, Default, Clone, Copy)]
#[serde(default)]
pub(crate) struct RawColor {
    pub r: f32,
    pub g: f32,
    pub b: f32,
    pub a: f32,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct RawArmature {
    pub version: Option<String>,
    pub baked_ik: bool,
    pub img_format: Option<String>,
    pub clear_color: Option<RawColor>,
    pub bones: Vec<RawBone>,
    pub animations: Vec<RawAnimation>,
    pub atlases: Vec<RawAtlas>,
    pub styles: Vec<RawStyle>,
    pub visuals: Vec<RawVisual>,
    pub inverse_kinematics: Vec<RawIk>,
    pub physics: Vec<RawPhysics>,
    // Markers of legacy layouts (SEMANTICS §1).
    pub ik_root_ids: Option<IgnoredAny>,
    pub texture_size: Option<IgnoredAny>,
    pub armature: Option<IgnoredAny>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct RawBone {
    pub id: Option<i64>,
    pub name: String,
    pub parent_id: Option<i64>,
    pub pos: RawVec2,
    pub rot: f32,
    pub scale: Option<RawVec2>,
    pub hidden: bool,
    pub init_pos: Option<RawVec2>,
    pub init_rot: Option<f32>,
    pub init_scale: Option<RawVec2>,
    pub init_hidden: Option<bool>,
    pub ik_family_id: Option<i64>,
    /// The key the developer docs use for `ik_family_id`.
    pub inverse_kinematics_id: Option<i64>,
    pub physics_id: Option<i64>,
    pub visuals_id: Option<i64>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct RawVertex {
    pub pos: RawVec2,
    pub uv: RawVec2,
    pub init_pos: Option<RawVec2>,
}

#[derive(Deserialize)]
#[serde(default)]
pub(crate) struct RawBindVert {
    pub id: i64,
    pub weight: f32,
}

impl Default for RawBindVert {
    fn default() -> Self {
        RawBindVert { id: 0, weight: 1.0 }
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct RawBind {
    pub bone_id: Option<i64>,
    /// The key the developer docs use for `bone_id`.
    pub id: Option<i64>,
    pub is_path: bool,
    pub verts: Vec<RawBindVert>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct RawVisual {
    pub tex: String,
    pub zindex: i32,
    pub tint: Option<RawColor>,
    pub pivot_pos: RawVec2,
    pub pivot_rot: f32,
    pub pivot_scale: Option<RawVec2>,
    pub vertices: Vec<RawVertex>,
    pub indices: Vec<i64>,
    pub binds: Vec<RawBind>,
    pub init_tex: Option<String>,
    pub init_tint: Option<RawColor>,
    pub init_zindex: Option<i32>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct RawIk {
    pub constraint: Option<ConstraintKey>,
    pub mode: Option<ModeKey>,
    pub target_id: Option<i64>,
    pub bone_ids: Vec<i64>,
    pub mimic_target: bool,
    pub init_constraint: Option<ConstraintKey>,
    pub init_mode: Option<ModeKey>,
    pub init_mimic_target: Option<bool>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct RawPhysics {
    pub global_pos: RawVec2,
    pub global_scale: RawVec2,
    pub global_rot: f32,
    pub pos_damping: f32,
    pub scale_damping: f32,
    pub rot_damping: f32,
    pub pos_ratio: f32,
    pub scale_ratio: f32,
    pub global_orbit: f32,
    pub global_orbit_diff: f32,
    pub global_orbit_vel: f32,
    pub sway: f32,
    pub rot_bounce: f32,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct RawAnimation {
    pub name: String,
    pub fps: u32,
    pub keyframes: Vec<RawKeyframe>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct RawKeyframe {
    pub frame: u32,
    pub bone_id: i64,
    pub element: ElementKey,
    pub value: f32,
    pub value_str: Option<String>,
    pub next_kf: Option<i64>,
    pub start_handle: RawVec2,
    pub end_handle: RawVec2,
    pub handle_preset: Option<PresetKey>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct RawAtlas {
    pub filename: String,
    pub size: RawVec2,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct RawStyle {
    pub name: String,
    pub textures: Vec<RawTexture>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(crate) struct RawTexture {
    pub name: String,
    pub offset: RawVec2,
    pub size: RawVec2,
    pub atlas_idx: u32,
}

/// Defines a string-keyed enum wrapper that deserializes without allocating.
macro_rules! str_key {
    ($name:ident, $inner:ty, $default:expr, $conv:expr, $what:literal) => {
        pub(crate) struct $name(pub $inner);
        impl Default for $name {
            fn default() -> Self {
                $name($default)
            }
        }
        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                        f.write_str($what)
                    }
                    fn visit_str<E: de::Error>(self, s: &str) -> Result<$name, E> {
                        #[allow(clippy::redundant_closure_call)]
                        Ok($name(($conv)(s)))
                    }
                }
                d.deserialize_str(V)
            }
        }
    };
}

str_key!(ElementKey, Element, Element::Other, Element::from_name, "an element name string");
str_key!(
    ConstraintKey,
    IkConstraint,
    IkConstraint::None,
    IkConstraint::from_name,
    "an IK constraint name string"
);
str_key!(
    ModeKey,
    IkMode,
    IkMode::Fabrik,
    |s: &str| if s == "FABRIK" { IkMode::Fabrik } else { IkMode::Arc },
    "an IK mode string"
);
str_key!(PresetKey, HandlePreset, HandlePreset::Linear, HandlePreset::from_name, "a preset name");
