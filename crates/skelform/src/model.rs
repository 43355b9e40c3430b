//! The in-memory armature: data as loaded, plus the animated local pose.

use serde::Serialize;

/// A 2D vector (pixels or a scale factor; y up): `glam::Vec2`, so engines built on glam
/// (bevy, macroquad, wgpu code) take positions and scales without conversion. With serde it
/// serializes as `[x, y]`.
pub use glam::Vec2;

/// An RGBA colour, components 0..1 (tints) or 0..255 (`clear_color`), as in the file.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Color {
    /// Red.
    pub r: f32,
    /// Green.
    pub g: f32,
    /// Blue.
    pub b: f32,
    /// Alpha.
    pub a: f32,
}

impl Color {
    /// Opaque white in the 0..1 range: the neutral tint.
    pub const WHITE: Color = Color { r: 1.0, g: 1.0, b: 1.0, a: 1.0 };
    /// All zero.
    pub const TRANSPARENT: Color = Color { r: 0.0, g: 0.0, b: 0.0, a: 0.0 };
}

/// A bone: hierarchy links, the local (parent-relative) pose that `animate` changes, and
/// the initial values that non-animated fields return to.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bone {
    /// Name as written (not necessarily unique).
    pub name: String,
    /// Index of the parent bone (always lower than this bone's index), or `None` for a root.
    pub parent: Option<u32>,
    /// Local position.
    pub pos: Vec2,
    /// Local rotation (radians, counter-clockwise, y up).
    pub rot: f32,
    /// Local scale.
    pub scale: Vec2,
    /// Whether the bone is hidden (animated by `Hidden` keyframes).
    pub hidden: bool,
    /// Initial position.
    pub init_pos: Vec2,
    /// Initial rotation.
    pub init_rot: f32,
    /// Initial scale.
    pub init_scale: Vec2,
    /// Initial hidden flag.
    pub init_hidden: bool,
    /// Index into the armature's IK families, if the bone belongs to one.
    pub ik_family: Option<u32>,
    /// Index into the armature's physics entries.
    pub physics: Option<u32>,
    /// Index into the armature's visuals.
    pub visual: Option<u32>,
}

/// Which way an IK chain may bend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum IkConstraint {
    /// Either way.
    None,
    /// Only clockwise.
    Clockwise,
    /// Only counter-clockwise.
    CounterClockwise,
}

impl IkConstraint {
    /// From the file's string; any unknown string behaves as `None` (as in the reference).
    pub fn from_name(s: &str) -> Self {
        match s {
            "Clockwise" => IkConstraint::Clockwise,
            "CounterClockwise" => IkConstraint::CounterClockwise,
            _ => IkConstraint::None,
        }
    }
    /// The file's string.
    pub fn name(self) -> &'static str {
        match self {
            IkConstraint::None => "None",
            IkConstraint::Clockwise => "Clockwise",
            IkConstraint::CounterClockwise => "CounterClockwise",
        }
    }
}

/// IK solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum IkMode {
    /// Ten iterations of FABRIK.
    Fabrik,
    /// The arc solver (every string other than "FABRIK" selects it, as in the reference).
    Arc,
}

/// An inverse-kinematics family (chain).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct IkFamily {
    /// Bend constraint (animated by `IkConstraint` keyframes).
    pub constraint: IkConstraint,
    /// Solver.
    pub mode: IkMode,
    /// Target bone.
    pub target: Option<u32>,
    /// Chain bones, root first, as written.
    pub bone_ids: Vec<u32>,
    /// Whether the last bone copies the target's rotation (animated by `MimicTarget`).
    pub mimic_target: bool,
    /// Initial constraint.
    pub init_constraint: IkConstraint,
    /// Initial mode.
    pub init_mode: IkMode,
    /// Initial mimic flag.
    pub init_mimic_target: bool,
    /// The chain's bones in bone-array order (the solver's order).
    pub(crate) sorted: Vec<u32>,
}

/// Physics settings and live simulation state of one bone.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[allow(missing_docs)]
pub struct Physics {
    pub global_pos: Vec2,
    pub global_scale: Vec2,
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

/// A mesh vertex as written (bone-local, y up).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Vertex {
    /// Initial (rest) position in the bone's space.
    pub init_pos: Vec2,
    /// Texture coordinate, 0..1 of the texture rectangle, v down.
    pub uv: Vec2,
}

/// One vertex influenced by a bind.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BindVert {
    /// Vertex index.
    pub id: u32,
    /// Weight.
    pub weight: f32,
}

/// A bone bound to a set of mesh vertices.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bind {
    /// The bound bone, or `None` (skipped).
    pub bone: Option<u32>,
    /// Path bind (vertices follow the line through neighbouring binds).
    pub is_path: bool,
    /// Influenced vertices.
    pub verts: Vec<BindVert>,
}

/// A bone's texture and mesh.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Visual {
    /// Current texture, an index into [`crate::Armature::texture_names`].
    pub tex: u32,
    /// Initial texture.
    pub init_tex: u32,
    /// Draw order key (higher on top).
    pub zindex: i32,
    /// Initial z-index.
    pub init_zindex: i32,
    /// Current tint.
    pub tint: Color,
    /// Initial tint.
    pub init_tint: Color,
    /// Pivot position (fraction of the texture size).
    pub pivot_pos: Vec2,
    /// Pivot rotation (radians).
    pub pivot_rot: f32,
    /// Pivot scale.
    pub pivot_scale: Vec2,
    /// Mesh vertices (empty for a plain sprite).
    pub vertices: Vec<Vertex>,
    /// Triangle list (indices into `vertices`).
    pub indices: Vec<u32>,
    /// Bone binds, in order.
    pub binds: Vec<Bind>,
}

/// What a keyframe animates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[allow(missing_docs)]
pub enum Element {
    PositionX,
    PositionY,
    Rotation,
    ScaleX,
    ScaleY,
    Zindex,
    /// `"Texture"` (editor) or `"Tex"` (reference runtime): both are applied.
    Texture,
    IkConstraint,
    Hidden,
    IkMode,
    IkFamilyId,
    TintR,
    TintG,
    TintB,
    TintA,
    MimicTarget,
    /// Any other element name (never applied).
    Other,
}

impl Element {
    /// From the file's string.
    pub fn from_name(s: &str) -> Self {
        use Element::*;
        match s {
            "PositionX" => PositionX,
            "PositionY" => PositionY,
            "Rotation" => Rotation,
            "ScaleX" => ScaleX,
            "ScaleY" => ScaleY,
            "Zindex" => Zindex,
            "Texture" | "Tex" => Texture,
            "IkConstraint" => IkConstraint,
            "Hidden" => Hidden,
            "IkMode" => IkMode,
            "IkFamilyId" => IkFamilyId,
            "TintR" => TintR,
            "TintG" => TintG,
            "TintB" => TintB,
            "TintA" => TintA,
            "MimicTarget" => MimicTarget,
            _ => Other,
        }
    }
    pub(crate) fn bit(self) -> u32 {
        1 << (self as u32)
    }
}

/// The editor's easing preset name (informational; the handles carry the curve).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[allow(missing_docs)]
pub enum HandlePreset {
    Linear,
    SineIn,
    SineOut,
    SineInOut,
    Snap,
    None,
    Custom,
    /// Any other name, kept as written.
    Other(String),
}

impl HandlePreset {
    pub(crate) fn from_name(s: &str) -> Self {
        match s {
            "Linear" => HandlePreset::Linear,
            "SineIn" => HandlePreset::SineIn,
            "SineOut" => HandlePreset::SineOut,
            "SineInOut" => HandlePreset::SineInOut,
            "Snap" => HandlePreset::Snap,
            "None" => HandlePreset::None,
            "Custom" => HandlePreset::Custom,
            o => HandlePreset::Other(o.to_string()),
        }
    }
}

/// One keyframe.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Keyframe {
    /// Frame number.
    pub frame: u32,
    /// Animated bone.
    pub bone: u32,
    /// Animated element.
    pub element: Element,
    /// Numeric value.
    pub value: f32,
    /// String value as written (texture name, IK constraint), if any.
    pub value_str: Option<String>,
    /// Index of the next keyframe of the same bone and element, if any.
    pub next: Option<u32>,
    /// Bezier handle P1 (used when this keyframe is the destination).
    pub start_handle: Vec2,
    /// Bezier handle P2.
    pub end_handle: Vec2,
    /// Preset name, informational.
    pub handle_preset: Option<HandlePreset>,
    /// `value_str` resolved: texture-name index for `Texture`, unused otherwise.
    pub(crate) tex: u32,
    /// `value_str` resolved for `IkConstraint`.
    pub(crate) constraint: IkConstraint,
    /// Offset of this segment's progress table in `Animation::progress`, or [`NO_TABLE`].
    #[serde(skip)]
    pub(crate) table: u32,
}

/// `Keyframe::table` when the segment is not tabulated.
pub(crate) const NO_TABLE: u32 = u32::MAX;

/// An animation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Animation {
    /// Name as written (may have trailing spaces).
    pub name: String,
    /// Frames per second.
    pub fps: u32,
    /// Keyframes, in file order (sorted by frame in editor exports).
    pub keyframes: Vec<Keyframe>,
    /// Eased progress per frame of every keyframe segment (see `anim::tabulate`).
    #[serde(skip)]
    pub(crate) progress: Vec<f32>,
    /// Whether `progress` has been built (on first use, or by [`crate::Armature::prepare`]).
    #[serde(skip)]
    pub(crate) tabulated: bool,
}

impl Animation {
    /// Frame of the last keyframe (0 when there is none).
    pub fn last_frame(&self) -> u32 {
        self.keyframes.last().map_or(0, |k| k.frame)
    }
}

/// A texture atlas image.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Atlas {
    /// File name inside the archive.
    pub filename: String,
    /// Size in pixels.
    pub size: Vec2,
}

/// A texture rectangle in an atlas.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Texture {
    /// Name (matched against visuals' `tex`).
    pub name: String,
    /// Top-left corner in the atlas, pixels.
    pub offset: Vec2,
    /// Size in pixels.
    pub size: Vec2,
    /// Atlas index.
    pub atlas_idx: u32,
}

/// A style: a named group of textures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Style {
    /// Name.
    pub name: String,
    /// Textures.
    pub textures: Vec<Texture>,
}

/// A constructed (world-space) bone transform.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Transform {
    /// World position (y up).
    pub pos: Vec2,
    /// World rotation (radians).
    pub rot: f32,
    /// World scale (component-wise product along the chain).
    pub scale: Vec2,
    /// Hidden (itself or an ancestor).
    pub hidden: bool,
}
