//! The unified constraint list: IK, transform, path, physics and slider constraints.

/// One entry of the unified constraint list.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Constraint {
    /// Name.
    pub name: crate::Name,
    /// Type and body.
    pub kind: ConstraintKind,
}

/// The type byte of a constraint (`0` IK, `1` path, `2` transform, `3` physics, `4` slider).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum ConstraintType {
    /// 0
    Ik,
    /// 1
    Path,
    /// 2
    Transform,
    /// 3
    Physics,
    /// 4
    Slider,
}

/// A constraint body by type.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum ConstraintKind {
    /// IK constraint.
    Ik(IkConstraint),
    /// Path constraint.
    Path(PathConstraint),
    /// Transform constraint.
    Transform(TransformConstraint),
    /// Physics constraint.
    Physics(PhysicsConstraint),
    /// Slider constraint.
    Slider(SliderConstraint),
}

impl ConstraintKind {
    /// The type of this constraint.
    pub fn constraint_type(&self) -> ConstraintType {
        match self {
            ConstraintKind::Ik(_) => ConstraintType::Ik,
            ConstraintKind::Path(_) => ConstraintType::Path,
            ConstraintKind::Transform(_) => ConstraintType::Transform,
            ConstraintKind::Physics(_) => ConstraintType::Physics,
            ConstraintKind::Slider(_) => ConstraintType::Slider,
        }
    }
}

/// IK / physics scale-y mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub enum ScaleYMode {
    /// 0
    #[default]
    None,
    /// 1
    Uniform,
    /// 2
    Volume,
}

/// IK constraint (type 0).
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct IkConstraint {
    /// Constrained bones.
    pub bones: Vec<u32>,
    /// Target bone.
    pub target: u32,
    /// Raw flag byte: 1 skinRequired, 2 scaleYMode byte follows, 4 bend −1 (inverted),
    /// 8 compress, 16 stretch, 32 mix non-zero, 64 mix float follows (with 32),
    /// 128 softness follows.
    pub flags: u8,
    /// Present iff `flags & 2`.
    pub scale_y_mode: Option<ScaleYMode>,
    /// Present iff `flags & 32` and `flags & 64`.
    pub mix: Option<f32>,
    /// Softness (scaled); present iff `flags & 128`.
    pub softness: Option<f32>,
}

impl IkConstraint {
    /// `flags & 1`.
    pub fn skin_required(&self) -> bool {
        self.flags & 1 != 0
    }
    /// Bend direction: `-1` when `flags & 4` (inverted bit, spec gotcha 7), else `1`.
    pub fn bend_direction(&self) -> i32 {
        if self.flags & 4 != 0 {
            -1
        } else {
            1
        }
    }
    /// `flags & 8`.
    pub fn compress(&self) -> bool {
        self.flags & 8 != 0
    }
    /// `flags & 16`.
    pub fn stretch(&self) -> bool {
        self.flags & 16 != 0
    }
    /// Setup mix: 0 without bit 32, the float with bits 32 + 64, else 1.
    pub fn mix_value(&self) -> f32 {
        if self.flags & 32 == 0 {
            0.0
        } else {
            self.mix.unwrap_or(1.0)
        }
    }
}

/// Transform-constraint / slider property (byte enum).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub enum TransformProperty {
    /// 0
    #[default]
    Rotate,
    /// 1 (scaled)
    X,
    /// 2 (scaled)
    Y,
    /// 3
    ScaleX,
    /// 4
    ScaleY,
    /// 5
    ShearY,
}

impl TransformProperty {
    /// Whether values of this property are positions (multiplied by the load scale).
    pub fn is_scaled(self) -> bool {
        matches!(self, TransformProperty::X | TransformProperty::Y)
    }
}

/// A transform constraint's "from" record.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct FromProperty {
    /// Source property.
    pub property: TransformProperty,
    /// Offset (× fromScale).
    pub offset: f32,
    /// Target records (at most 255).
    pub to: Vec<ToProperty>,
}

/// A transform constraint's "to" record.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct ToProperty {
    /// Target property.
    pub property: TransformProperty,
    /// Offset (× toScale).
    pub offset: f32,
    /// Max (× toScale).
    pub max: f32,
    /// Scale ratio (× toScale / fromScale).
    pub scale: f32,
}

/// Transform constraint (type 2).
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct TransformConstraint {
    /// Constrained bones.
    pub bones: Vec<u32>,
    /// Source bone.
    pub source: u32,
    /// Low five bits of the flag byte: 1 skinRequired, 2 localSource, 4 localTarget,
    /// 8 additive, 16 clamp. (The top three bits are `properties.len()`.)
    pub flags: u8,
    /// From records (at most 7).
    pub properties: Vec<FromProperty>,
    /// Raw offsets flag byte (bit `i` gates `offsets[i]`).
    pub offset_flags: u8,
    /// Offsets rotation, x (scaled), y (scaled), scaleX, scaleY, shearY.
    pub offsets: [Option<f32>; 6],
    /// Raw mix flag byte (bit `i` gates `mixes[i]`).
    pub mix_flags: u8,
    /// Mixes rotate, x, y, scaleX, scaleY, shearY (absent = 0).
    pub mixes: [Option<f32>; 6],
}

impl TransformConstraint {
    /// `flags & 1`.
    pub fn skin_required(&self) -> bool {
        self.flags & 1 != 0
    }
    /// `flags & 2`.
    pub fn local_source(&self) -> bool {
        self.flags & 2 != 0
    }
    /// `flags & 4`.
    pub fn local_target(&self) -> bool {
        self.flags & 4 != 0
    }
    /// `flags & 8`.
    pub fn additive(&self) -> bool {
        self.flags & 8 != 0
    }
    /// `flags & 16`.
    pub fn clamp(&self) -> bool {
        self.flags & 16 != 0
    }
}

/// Path constraint position mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum PositionMode {
    /// 0 (position scaled)
    Fixed,
    /// 1
    Percent,
}

/// Path constraint spacing mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum SpacingMode {
    /// 0 (spacing scaled)
    Length,
    /// 1 (spacing scaled)
    Fixed,
    /// 2
    Percent,
    /// 3
    Proportional,
}

/// Path constraint rotate mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum RotateMode {
    /// 0
    Tangent,
    /// 1
    Chain,
    /// 2
    ChainScale,
}

/// Path constraint (type 1).
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct PathConstraint {
    /// Constrained bones.
    pub bones: Vec<u32>,
    /// Target slot.
    pub slot: u32,
    /// Raw flags: 1 skinRequired, bit 1 position mode, bits 2–3 spacing mode, bits 4–5
    /// rotate mode (3 is rejected), 128 offsetRotation follows.
    pub flags: u8,
    /// Present iff `flags & 128`.
    pub offset_rotation: Option<f32>,
    /// Position (scaled when the position mode is `Fixed`).
    pub position: f32,
    /// Spacing (scaled when the spacing mode is `Length` or `Fixed`).
    pub spacing: f32,
    /// Mix rotate.
    pub mix_rotate: f32,
    /// Mix x.
    pub mix_x: f32,
    /// Mix y.
    pub mix_y: f32,
}

impl PathConstraint {
    /// `flags & 1`.
    pub fn skin_required(&self) -> bool {
        self.flags & 1 != 0
    }
    /// Bit 1.
    pub fn position_mode(&self) -> PositionMode {
        if self.flags & 2 != 0 {
            PositionMode::Percent
        } else {
            PositionMode::Fixed
        }
    }
    /// Bits 2–3.
    pub fn spacing_mode(&self) -> SpacingMode {
        match (self.flags >> 2) & 3 {
            0 => SpacingMode::Length,
            1 => SpacingMode::Fixed,
            2 => SpacingMode::Percent,
            _ => SpacingMode::Proportional,
        }
    }
    /// Bits 4–5 (the reader rejects 3).
    pub fn rotate_mode(&self) -> RotateMode {
        match (self.flags >> 4) & 3 {
            0 => RotateMode::Tangent,
            1 => RotateMode::Chain,
            _ => RotateMode::ChainScale,
        }
    }
}

/// Physics constraint (type 3).
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct PhysicsConstraint {
    /// Bone.
    pub bone: u32,
    /// Raw first flag byte: 1 skinRequired, 2 x, 4 y, 8 rotate, 16 scaleX, 32 shearX,
    /// 64 limit, 128 massInverse follow.
    pub flags: u8,
    /// Present iff `flags & 2`.
    pub x: Option<f32>,
    /// Present iff `flags & 4`.
    pub y: Option<f32>,
    /// Present iff `flags & 8`.
    pub rotate: Option<f32>,
    /// Raw scaleX (its sign carries the scale-y mode, gotcha 8); present iff `flags & 16`.
    pub scale_x: Option<f32>,
    /// Present iff `flags & 32`.
    pub shear_x: Option<f32>,
    /// Limit (scaled; default 5000); present iff `flags & 64`.
    pub limit: Option<f32>,
    /// Steps per second (`step = 1 / fps`).
    pub fps: u8,
    /// Inertia.
    pub inertia: f32,
    /// Strength.
    pub strength: f32,
    /// Damping.
    pub damping: f32,
    /// Mass inverse (default 1); present iff `flags & 128`.
    pub mass_inverse: Option<f32>,
    /// Wind.
    pub wind: f32,
    /// Gravity.
    pub gravity: f32,
    /// Raw second flag byte: 1 inertia, 2 strength, 4 damping, 8 mass, 16 wind, 32 gravity,
    /// 64 mix global; 128 mix follows.
    pub global_flags: u8,
    /// Mix (default 1); present iff `global_flags & 128`.
    pub mix: Option<f32>,
}

impl PhysicsConstraint {
    /// `flags & 1`.
    pub fn skin_required(&self) -> bool {
        self.flags & 1 != 0
    }
    /// Decodes the raw scaleX into `(scaleX, scaleYMode)` (spec gotcha 8).
    pub fn scale_x_and_mode(&self) -> (f32, ScaleYMode) {
        let v = self.scale_x.unwrap_or(0.0);
        if v >= 0.0 {
            (v, ScaleYMode::None)
        } else if v >= -2.0 {
            (-1.0 - v, ScaleYMode::Uniform)
        } else {
            (-2.0 - v, ScaleYMode::Volume)
        }
    }
}

/// The bone block of a bone-driven slider.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct SliderBone {
    /// Bone.
    pub bone: u32,
    /// Property offset (× propertyScale).
    pub property_offset: f32,
    /// Property read from the bone.
    pub property: TransformProperty,
    /// Slider offset.
    pub offset: f32,
    /// Slider scale (÷ propertyScale).
    pub scale: f32,
}

/// Slider constraint (type 4).
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct SliderConstraint {
    /// Raw flags: 1 skinRequired, 2 loop, 4 additive, 8 value follows, 16 mix non-zero,
    /// 32 mix float follows (with 16), 64 bone block follows, 128 local.
    pub flags: u8,
    /// Setup time (or the editor max in nonessential bone-driven sliders); iff `flags & 8`.
    pub value: Option<f32>,
    /// Present iff `flags & 16` and `flags & 32`.
    pub mix: Option<f32>,
    /// Present iff `flags & 64`.
    pub bone: Option<SliderBone>,
    /// Index of the animation the slider drives (written after the animations section).
    pub animation: u32,
}

impl SliderConstraint {
    /// `flags & 1`.
    pub fn skin_required(&self) -> bool {
        self.flags & 1 != 0
    }
    /// `flags & 2`.
    pub fn looping(&self) -> bool {
        self.flags & 2 != 0
    }
    /// `flags & 4`.
    pub fn additive(&self) -> bool {
        self.flags & 4 != 0
    }
    /// `flags & 128`.
    pub fn local(&self) -> bool {
        self.flags & 128 != 0
    }
    /// Setup mix: 0 without bit 16, the float with bits 16 + 32, else 1.
    pub fn mix_value(&self) -> f32 {
        if self.flags & 16 == 0 {
            0.0
        } else {
            self.mix.unwrap_or(1.0)
        }
    }
}
