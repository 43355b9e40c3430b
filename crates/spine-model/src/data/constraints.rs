//! Constraints (IK, transform, path, physics, slider) in one update-order list.

use crate::ids::*;

/// A constraint, in the unified update-order list.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstraintData {
    /// Name (unique among constraints in 4.3; 4.0–4.2 only require it unique per type).
    pub name: crate::Name,
    /// Only active when the current skin lists it.
    pub skin_required: bool,
    /// The type-specific data.
    pub kind: ConstraintKind,
}

/// Constraint kinds (the 4.3 set).
#[derive(Debug, Clone, PartialEq)]
pub enum ConstraintKind {
    /// Inverse kinematics.
    Ik(IkData),
    /// Transform constraint.
    Transform(TransformData),
    /// Path constraint.
    Path(PathData),
    /// Physics constraint.
    Physics(PhysicsData),
    /// Slider constraint (4.3).
    Slider(SliderData),
}

/// A constraint type, for error messages and lookups.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConstraintType {
    /// IK.
    Ik,
    /// Transform.
    Transform,
    /// Path.
    Path,
    /// Physics.
    Physics,
    /// Slider.
    Slider,
}

impl std::fmt::Display for ConstraintType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ConstraintType::Ik => "IK",
            ConstraintType::Transform => "transform",
            ConstraintType::Path => "path",
            ConstraintType::Physics => "physics",
            ConstraintType::Slider => "slider",
        })
    }
}

impl ConstraintKind {
    /// The type.
    pub fn constraint_type(&self) -> ConstraintType {
        match self {
            ConstraintKind::Ik(_) => ConstraintType::Ik,
            ConstraintKind::Transform(_) => ConstraintType::Transform,
            ConstraintKind::Path(_) => ConstraintType::Path,
            ConstraintKind::Physics(_) => ConstraintType::Physics,
            ConstraintKind::Slider(_) => ConstraintType::Slider,
        }
    }
}

/// How IK stretch scales a bone's y (4.3 `ScaleYMode`; 4.x `uniform: true` = `Uniform`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ScaleYMode {
    /// Only x is scaled.
    #[default]
    None,
    /// Y scales with x.
    Uniform,
    /// Y scales to keep the area.
    Volume,
}

/// IK constraint setup data.
#[derive(Debug, Clone, PartialEq)]
pub struct IkData {
    /// One or two constrained bones (parent first).
    pub bones: Vec<BoneId>,
    /// Target bone.
    pub target: BoneId,
    /// Mix.
    pub mix: f32,
    /// Softness.
    pub softness: f32,
    /// Bend direction, `1` or `-1`.
    pub bend_direction: i32,
    /// Compress.
    pub compress: bool,
    /// Stretch.
    pub stretch: bool,
    /// How stretch scales y.
    pub scale_y_mode: ScaleYMode,
}

/// A bone property a transform or slider constraint reads or writes (4.3 model).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TransformProperty {
    /// Rotation.
    #[default]
    Rotate,
    /// X.
    X,
    /// Y.
    Y,
    /// Scale x.
    ScaleX,
    /// Scale y.
    ScaleY,
    /// Shear y.
    ShearY,
}

/// A source property of a transform constraint and where it goes (4.3).
#[derive(Debug, Clone, PartialEq)]
pub struct FromProperty {
    /// Read from the source bone.
    pub property: TransformProperty,
    /// Subtracted from the source value.
    pub offset: f32,
    /// Targets.
    pub to: Vec<ToProperty>,
}

/// A target property of a transform constraint (4.3).
#[derive(Debug, Clone, PartialEq)]
pub struct ToProperty {
    /// Written to the constrained bones.
    pub property: TransformProperty,
    /// Added to the converted value.
    pub offset: f32,
    /// Clamp limit (with [`TransformData::clamp`]).
    pub max: f32,
    /// Conversion ratio.
    pub scale: f32,
}

/// Which solver a transform constraint uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransformSolver {
    /// 4.3 from/to property mapping.
    FromTo,
    /// 4.0–4.2 `TransformConstraint::update` (`applyAbsoluteWorld` / `applyRelativeWorld` /
    /// `applyAbsoluteLocal` / `applyRelativeLocal` chosen by `local_target` and `additive`),
    /// reading [`TransformData::offsets`] and [`TransformData::mixes`]. Its world-space
    /// maths (reflection handling, scale by axis lengths) is not expressible as from/to
    /// properties, so the solver must honour this flag.
    Legacy4x,
    /// 3.5–3.8 `TransformConstraint.update` (spine-libgdx 3.8): the four `apply*` variants of
    /// [`TransformSolver::Legacy4x`] with these differences, which is why it is a kind of its
    /// own: the local absolute variant brings the rotation and shear-y deltas
    /// (`target - bone + offset`) into `[-180, 180]` with
    /// `r -= (16384 - (int)(16384.499999999996 - r / 360)) * 360` before mixing (4.x does not
    /// wrap); the world variants apply scale and shear only when their mix is `> 0` (4.x:
    /// scale when `!= 0`). 3.x has one translate and one scale mix, so `mixes` holds
    /// `x == y` and `scale_x == scale_y` (mix timelines keep them equal too).
    Legacy3x,
}

/// Index of each value in [`TransformData::offsets`] and [`TransformData::mixes`].
pub mod transform_slot {
    /// Rotation.
    pub const ROTATE: usize = 0;
    /// X.
    pub const X: usize = 1;
    /// Y.
    pub const Y: usize = 2;
    /// Scale x.
    pub const SCALE_X: usize = 3;
    /// Scale y.
    pub const SCALE_Y: usize = 4;
    /// Shear y.
    pub const SHEAR_Y: usize = 5;
}

/// Transform constraint setup data (4.3 shape).
#[derive(Debug, Clone, PartialEq)]
pub struct TransformData {
    /// Constrained bones.
    pub bones: Vec<BoneId>,
    /// Source ("target" before 4.3) bone.
    pub source: BoneId,
    /// Read the source's local transform.
    pub local_source: bool,
    /// Write the constrained bones' local transforms.
    pub local_target: bool,
    /// Add to the bones' values instead of replacing ("relative" before 4.3).
    pub additive: bool,
    /// Clamp converted values to `max`.
    pub clamp: bool,
    /// From/to mapping (4.3). Empty for [`TransformSolver::Legacy4x`] and
    /// [`TransformSolver::Legacy3x`]: their solvers map each of the six properties onto
    /// itself through [`TransformData::offsets`] and [`TransformData::mixes`] (the mapping
    /// the 4.3 upgrade writes out for them).
    pub properties: Vec<FromProperty>,
    /// Offsets rotate, x, y, scale x, scale y, shear y ([`transform_slot`]).
    pub offsets: [f32; 6],
    /// Mixes rotate, x, y, scale x, scale y, shear y ([`transform_slot`]).
    pub mixes: [f32; 6],
    /// The solver to use.
    pub solver: TransformSolver,
}

/// Path position mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PositionMode {
    /// Fixed distance.
    Fixed,
    /// Fraction of the path length.
    Percent,
}

/// Path spacing mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpacingMode {
    /// Bone length.
    Length,
    /// Fixed.
    Fixed,
    /// Percent.
    Percent,
    /// Proportional.
    Proportional,
}

/// Path rotate mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RotateMode {
    /// Tangent.
    Tangent,
    /// Chain.
    Chain,
    /// Chain with scale.
    ChainScale,
}

/// Path constraint setup data.
#[derive(Debug, Clone, PartialEq)]
pub struct PathData {
    /// Constrained bones.
    pub bones: Vec<BoneId>,
    /// The slot whose path attachment is followed.
    pub slot: SlotId,
    /// Position mode.
    pub position_mode: PositionMode,
    /// Spacing mode.
    pub spacing_mode: SpacingMode,
    /// Rotate mode.
    pub rotate_mode: RotateMode,
    /// Offset rotation, degrees.
    pub offset_rotation: f32,
    /// Position (scaled when fixed).
    pub position: f32,
    /// Spacing (scaled when length or fixed).
    pub spacing: f32,
    /// Mix rotate.
    pub mix_rotate: f32,
    /// Mix x.
    pub mix_x: f32,
    /// Mix y.
    pub mix_y: f32,
}

/// Which physics values a constraint takes from the global (all-constraints) timelines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PhysicsGlobals {
    /// Inertia.
    pub inertia: bool,
    /// Strength.
    pub strength: bool,
    /// Damping.
    pub damping: bool,
    /// Mass.
    pub mass: bool,
    /// Wind.
    pub wind: bool,
    /// Gravity.
    pub gravity: bool,
    /// Mix.
    pub mix: bool,
}

/// Physics constraint setup data (4.2+).
#[derive(Debug, Clone, PartialEq)]
pub struct PhysicsData {
    /// The bone moved by physics.
    pub bone: BoneId,
    /// X influence.
    pub x: f32,
    /// Y influence.
    pub y: f32,
    /// Rotate influence.
    pub rotate: f32,
    /// Scale x influence.
    pub scale_x: f32,
    /// Shear x influence.
    pub shear_x: f32,
    /// How scale x affects y (4.3; `None` before).
    pub scale_y_mode: ScaleYMode,
    /// Velocity limit (scaled).
    pub limit: f32,
    /// Seconds per step (`1 / fps`).
    pub step: f32,
    /// Inertia.
    pub inertia: f32,
    /// Strength.
    pub strength: f32,
    /// Damping.
    pub damping: f32,
    /// Inverse mass.
    pub mass_inverse: f32,
    /// Wind.
    pub wind: f32,
    /// Gravity.
    pub gravity: f32,
    /// Mix.
    pub mix: f32,
    /// Values driven by the global physics timelines.
    pub globals: PhysicsGlobals,
}

/// The bone a slider reads its time from (4.3).
#[derive(Debug, Clone, PartialEq)]
pub struct SliderBone {
    /// Bone.
    pub bone: BoneId,
    /// Property read.
    pub property: TransformProperty,
    /// Subtracted from the property (scaled for x/y).
    pub property_offset: f32,
    /// Added to the time.
    pub offset: f32,
    /// Property-to-time ratio (÷ scale for x/y).
    pub scale: f32,
}

/// Slider constraint setup data (4.3).
#[derive(Debug, Clone, PartialEq)]
pub struct SliderData {
    /// The animation the slider poses.
    pub animation: AnimationId,
    /// Setup time.
    pub time: f32,
    /// Mix.
    pub mix: f32,
    /// Loop the animation.
    pub looping: bool,
    /// Additive.
    pub additive: bool,
    /// Local.
    pub local: bool,
    /// Bone-driven time.
    pub bone: Option<SliderBone>,
}
