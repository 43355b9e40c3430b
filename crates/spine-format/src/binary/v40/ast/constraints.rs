//! Constraints: IK, transform, path and physics (4.2).

/// An IK constraint.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct IkConstraint {
    /// Name.
    pub name: crate::Name,
    /// Update order.
    pub order: u32,
    /// Constrained bone indices.
    pub bones: Vec<u32>,
    /// Target bone index.
    pub target: u32,
    /// 4.2 only: the raw flags byte (1 skinRequired, 2 bend +1, 4 compress, 8 stretch,
    /// 16 uniform, 32 mix present, 64 mix on the wire (else 1), 128 softness on the wire).
    /// The writer writes this byte, not the decoded booleans below.
    pub flags: Option<u8>,
    /// Only active when a skin contains it.
    pub skin_required: bool,
    /// Mix; always on the wire before 4.2, gated by the flags in 4.2.
    pub mix: Option<f32>,
    /// Softness (scaled); always on the wire before 4.2, gated by flag 128 in 4.2.
    pub softness: Option<f32>,
    /// Bend direction (a raw `sbyte` before 4.2; ±1 from flag 2 in 4.2).
    pub bend_direction: i8,
    /// Compress.
    pub compress: bool,
    /// Stretch.
    pub stretch: bool,
    /// Uniform.
    pub uniform: bool,
}

/// Index of each value in [`TransformConstraint::values`].
pub mod transform_value {
    /// Offset rotation.
    pub const OFFSET_ROTATION: usize = 0;
    /// Offset x (scaled).
    pub const OFFSET_X: usize = 1;
    /// Offset y (scaled).
    pub const OFFSET_Y: usize = 2;
    /// Offset scale x.
    pub const OFFSET_SCALE_X: usize = 3;
    /// Offset scale y.
    pub const OFFSET_SCALE_Y: usize = 4;
    /// Offset shear y.
    pub const OFFSET_SHEAR_Y: usize = 5;
    /// Mix rotate.
    pub const MIX_ROTATE: usize = 6;
    /// Mix x.
    pub const MIX_X: usize = 7;
    /// Mix y.
    pub const MIX_Y: usize = 8;
    /// Mix scale x.
    pub const MIX_SCALE_X: usize = 9;
    /// Mix scale y.
    pub const MIX_SCALE_Y: usize = 10;
    /// Mix shear y.
    pub const MIX_SHEAR_Y: usize = 11;
}

/// A transform constraint.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TransformConstraint {
    /// Name.
    pub name: crate::Name,
    /// Update order.
    pub order: u32,
    /// Constrained bone indices.
    pub bones: Vec<u32>,
    /// Target bone index.
    pub target: u32,
    /// 4.2 only: the two raw flag bytes, read as `flags[0] | flags[1] << 8`: bit 0
    /// skinRequired, bit 1 local, bit 2 relative, bit `3 + k` = `values[k]` on the wire.
    pub flags: Option<[u8; 2]>,
    /// Only active when a skin contains it.
    pub skin_required: bool,
    /// Local space.
    pub local: bool,
    /// Relative.
    pub relative: bool,
    /// The six offsets then the six mixes, indexed by [`transform_value`]. All present
    /// before 4.2; in 4.2 `None` when the flag bit is clear (the loader's default applies).
    pub values: [Option<f32>; 12],
}

/// Path constraint position mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum PositionMode {
    /// `0`
    Fixed,
    /// `1`
    Percent,
}

/// Path constraint spacing mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum SpacingMode {
    /// `0`
    Length,
    /// `1`
    Fixed,
    /// `2`
    Percent,
    /// `3`
    Proportional,
}

/// Path constraint rotate mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum RotateMode {
    /// `0`
    Tangent,
    /// `1`
    Chain,
    /// `2`
    ChainScale,
}

impl PositionMode {
    /// Decodes the wire value.
    pub fn from_wire(v: u32) -> Option<Self> {
        Some(match v {
            0 => PositionMode::Fixed,
            1 => PositionMode::Percent,
            _ => return None,
        })
    }
}

impl SpacingMode {
    /// Decodes the wire value.
    pub fn from_wire(v: u32) -> Option<Self> {
        Some(match v {
            0 => SpacingMode::Length,
            1 => SpacingMode::Fixed,
            2 => SpacingMode::Percent,
            3 => SpacingMode::Proportional,
            _ => return None,
        })
    }
}

impl RotateMode {
    /// Decodes the wire value.
    pub fn from_wire(v: u32) -> Option<Self> {
        Some(match v {
            0 => RotateMode::Tangent,
            1 => RotateMode::Chain,
            2 => RotateMode::ChainScale,
            _ => return None,
        })
    }
}

/// A path constraint.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PathConstraint {
    /// Name.
    pub name: crate::Name,
    /// Update order.
    pub order: u32,
    /// Only active when a skin contains it.
    pub skin_required: bool,
    /// Constrained bone indices.
    pub bones: Vec<u32>,
    /// Target slot index.
    pub target: u32,
    /// 4.2 only: the raw mode flags byte (bit 0 position mode, bits 1–2 spacing mode,
    /// bits 3–4 rotate mode, 128 offset rotation on the wire). Before 4.2 the three modes are
    /// varints.
    pub flags: Option<u8>,
    /// Position mode.
    pub position_mode: PositionMode,
    /// Spacing mode.
    pub spacing_mode: SpacingMode,
    /// Rotate mode.
    pub rotate_mode: RotateMode,
    /// Offset rotation (always before 4.2; gated by flag 128 in 4.2).
    pub offset_rotation: Option<f32>,
    /// Position (scaled when the position mode is fixed).
    pub position: f32,
    /// Spacing (scaled when the spacing mode is length or fixed).
    pub spacing: f32,
    /// Mix rotate.
    pub mix_rotate: f32,
    /// Mix x.
    pub mix_x: f32,
    /// Mix y.
    pub mix_y: f32,
}

/// A physics constraint (4.2).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PhysicsConstraint {
    /// Name.
    pub name: crate::Name,
    /// Update order.
    pub order: u32,
    /// Bone index.
    pub bone: u32,
    /// First raw flags byte: 1 skinRequired, 2 x, 4 y, 8 rotate, 16 scaleX, 32 shearX,
    /// 64 limit, 128 massInverse on the wire.
    pub flags: u8,
    /// X mix.
    pub x: Option<f32>,
    /// Y mix.
    pub y: Option<f32>,
    /// Rotate mix.
    pub rotate: Option<f32>,
    /// Scale x mix.
    pub scale_x: Option<f32>,
    /// Shear x mix.
    pub shear_x: Option<f32>,
    /// Limit (scaled; the loader's default is 5000).
    pub limit: Option<f32>,
    /// Steps per second: the step is `1 / fps` (an unsigned byte).
    pub fps: u8,
    /// Inertia.
    pub inertia: f32,
    /// Strength.
    pub strength: f32,
    /// Damping.
    pub damping: f32,
    /// Inverse mass (the loader's default is 1).
    pub mass_inverse: Option<f32>,
    /// Wind.
    pub wind: f32,
    /// Gravity.
    pub gravity: f32,
    /// Second raw flags byte: 1 inertia, 2 strength, 4 damping, 8 mass, 16 wind, 32 gravity,
    /// 64 mix global; 128 mix on the wire.
    pub flags2: u8,
    /// Mix (the loader's default is 1).
    pub mix: Option<f32>,
}

impl PhysicsConstraint {
    /// Whether the constraint is only active when a skin contains it.
    pub fn skin_required(&self) -> bool {
        self.flags & 1 != 0
    }
}
