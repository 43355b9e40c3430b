//! The raw AST of a 4.3 binary skeleton: one type per wire record, fields in wire order.
//!
//! Conventions (see the module docs of [`super`]): numbers are unscaled, string-table
//! references stay [`StrRef`]s, colors stay bytes, indices are unresolved. A flag byte whose
//! bits gate optional fields is kept raw (`flags`), and each gated field is an `Option` that
//! is `Some` exactly when its bit is set; accessor methods decode the other bits. The writer
//! trusts the flag byte: a gated field is written when its bit is set (its default when the
//! `Option` is `None`) and skipped otherwise.

use crate::binary::shared::{CurveTimeline, DrawOrderChange};
use crate::binary::StrRef;

/// A whole 4.3 skeleton file.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct Skeleton {
    /// Header fields.
    pub header: Header,
    /// The string table that [`StrRef`]s index.
    pub strings: Vec<Option<String>>,
    /// Bones, parent first.
    pub bones: Vec<Bone>,
    /// Slots in setup draw order.
    pub slots: Vec<Slot>,
    /// The unified constraint list, in update order.
    pub constraints: Vec<Constraint>,
    /// The default skin's slots (`None` when the file has no default skin; it is then not
    /// counted in skin indices).
    pub default_skin: Option<Vec<SkinSlot>>,
    /// Named skins (skin index = position + 1 when there is a default skin).
    pub skins: Vec<Skin>,
    /// Event definitions.
    pub events: Vec<Event>,
    /// Animations.
    pub animations: Vec<Animation>,
}

impl Skeleton {
    /// Whether the file carries nonessential data (the header flag).
    pub fn nonessential(&self) -> bool {
        self.header.nonessential.is_some()
    }

    /// Number of skins as indexed on the wire (the default skin counts when present).
    pub fn skin_count(&self) -> usize {
        self.skins.len() + usize::from(self.default_skin.is_some())
    }
}

/// The file header.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct Header {
    /// First hash word (`hashLow`).
    pub hash_low: i32,
    /// Second hash word (`hashHigh`).
    pub hash_high: i32,
    /// Editor version, starting with `"4.3"`.
    pub version: String,
    /// Bounds origin x.
    pub x: f32,
    /// Bounds origin y.
    pub y: f32,
    /// Bounds width.
    pub width: f32,
    /// Bounds height.
    pub height: f32,
    /// Reference scale (scaled).
    pub reference_scale: f32,
    /// Nonessential header fields; `Some` exactly when the nonessential flag is set.
    pub nonessential: Option<NonessentialHeader>,
}

/// Header fields present only in nonessential exports.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct NonessentialHeader {
    /// Dopesheet frames per second.
    pub fps: f32,
    /// Images folder hint.
    pub images_path: Option<String>,
    /// Audio folder hint.
    pub audio_path: Option<String>,
}

/// How a bone inherits its parent's transform (byte enum).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub enum Inherit {
    /// 0
    #[default]
    Normal,
    /// 1
    OnlyTranslation,
    /// 2
    NoRotationOrReflection,
    /// 3
    NoScale,
    /// 4
    NoScaleOrReflection,
}

/// A bone.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct Bone {
    /// Name.
    pub name: String,
    /// Parent bone index (`None` only for bone 0, which has no parent field).
    pub parent: Option<u32>,
    /// Rotation (degrees).
    pub rotation: f32,
    /// X (scaled).
    pub x: f32,
    /// Y (scaled).
    pub y: f32,
    /// Scale x.
    pub scale_x: f32,
    /// Scale y.
    pub scale_y: f32,
    /// Shear x.
    pub shear_x: f32,
    /// Shear y.
    pub shear_y: f32,
    /// Inherit mode.
    pub inherit: Inherit,
    /// Length (scaled).
    pub length: f32,
    /// Only active when a skin lists it.
    pub skin_required: bool,
    /// Nonessential fields (present iff the header flag is set).
    pub nonessential: Option<BoneExtras>,
}

/// Nonessential bone fields.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct BoneExtras {
    /// Editor color.
    pub color: [u8; 4],
    /// Editor icon name.
    pub icon: Option<String>,
    /// Icon size.
    pub icon_size: f32,
    /// Icon rotation.
    pub icon_rotation: f32,
    /// Editor visibility.
    pub visible: bool,
}

/// Slot blend mode (varint enum).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub enum BlendMode {
    /// 0
    #[default]
    Normal,
    /// 1
    Additive,
    /// 2
    Multiply,
    /// 3
    Screen,
}

/// A slot.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct Slot {
    /// Name.
    pub name: String,
    /// Bone index.
    pub bone: u32,
    /// Setup color, RGBA bytes.
    pub color: [u8; 4],
    /// Dark color as the four wire bytes; all `0xFF` means "no dark color".
    pub dark_color: [u8; 4],
    /// Setup attachment name.
    pub attachment: StrRef,
    /// Blend mode.
    pub blend: BlendMode,
    /// Nonessential editor visibility (present iff the header flag is set).
    pub visible: Option<bool>,
}

impl Slot {
    /// The wire value meaning "no dark color".
    pub const NO_DARK_COLOR: [u8; 4] = [0xff; 4];

    /// The dark color's RGB bytes, or `None` for the `-1` sentinel (the high byte is
    /// ignored otherwise).
    pub fn dark_rgb(&self) -> Option<[u8; 3]> {
        let [_, r, g, b] = self.dark_color;
        (self.dark_color != Self::NO_DARK_COLOR).then_some([r, g, b])
    }
}

/// One entry of the unified constraint list.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Constraint {
    /// Name.
    pub name: String,
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

/// A named skin.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct Skin {
    /// Name.
    pub name: String,
    /// Nonessential editor color (present iff the header flag is set).
    pub color: Option<[u8; 4]>,
    /// Skin-required bones it activates.
    pub bones: Vec<u32>,
    /// Constraints it activates (indices into the unified list).
    pub constraints: Vec<u32>,
    /// Attachments per slot.
    pub slots: Vec<SkinSlot>,
}

/// The attachments of one slot in a skin.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct SkinSlot {
    /// Slot index.
    pub slot: u32,
    /// Attachments under their placeholder names.
    pub attachments: Vec<SkinEntry>,
}

/// One attachment of a skin slot.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SkinEntry {
    /// Placeholder (skin key) name.
    pub placeholder: StrRef,
    /// The attachment.
    pub attachment: Attachment,
}

/// An attachment record.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Attachment {
    /// Raw flag byte: low 3 bits = type (must match `kind`), 8 = name follows, other bits
    /// per type (documented on each body).
    pub flags: u8,
    /// Attachment name; present iff `flags & 8` (else the placeholder name).
    pub name: Option<StrRef>,
    /// Type-specific body.
    pub kind: AttachmentKind,
}

/// Attachment bodies by type (`flags & 7`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum AttachmentKind {
    /// 0
    Region(RegionAttachment),
    /// 1
    BoundingBox(BoundingBoxAttachment),
    /// 2
    Mesh(MeshAttachment),
    /// 3
    LinkedMesh(LinkedMeshAttachment),
    /// 4
    Path(PathAttachment),
    /// 5
    Point(PointAttachment),
    /// 6
    Clipping(ClippingAttachment),
}

impl AttachmentKind {
    /// The type code (`flags & 7`).
    pub fn type_code(&self) -> u8 {
        match self {
            AttachmentKind::Region(_) => 0,
            AttachmentKind::BoundingBox(_) => 1,
            AttachmentKind::Mesh(_) => 2,
            AttachmentKind::LinkedMesh(_) => 3,
            AttachmentKind::Path(_) => 4,
            AttachmentKind::Point(_) => 5,
            AttachmentKind::Clipping(_) => 6,
        }
    }
}

/// An explicit sequence record (attachment flag 64).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct Sequence {
    /// Frame count.
    pub count: u32,
    /// First frame number.
    pub start: u32,
    /// Zero-pad width.
    pub digits: u32,
    /// Setup-pose frame.
    pub setup_index: u32,
}

/// Region attachment. Flags: 16 path, 32 color, 64 sequence, 128 rotation.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct RegionAttachment {
    /// Iff `flags & 16` (else the name).
    pub path: Option<StrRef>,
    /// Iff `flags & 32` (else white).
    pub color: Option<[u8; 4]>,
    /// Iff `flags & 64` (else an implicit one-frame sequence without suffix, gotcha 6).
    pub sequence: Option<Sequence>,
    /// Iff `flags & 128` (else 0).
    pub rotation: Option<f32>,
    /// X (scaled).
    pub x: f32,
    /// Y (scaled).
    pub y: f32,
    /// Scale x.
    pub scale_x: f32,
    /// Scale y.
    pub scale_y: f32,
    /// Width (scaled).
    pub width: f32,
    /// Height (scaled).
    pub height: f32,
}

/// One bone influence of a weighted vertex.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct BoneWeight {
    /// Bone index.
    pub bone: u32,
    /// Bind x (scaled).
    pub x: f32,
    /// Bind y (scaled).
    pub y: f32,
    /// Weight.
    pub weight: f32,
}

/// A vertices record (mesh, bounding box, path, clipping).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum Vertices {
    /// Interleaved x, y (scaled); length = 2 × vertex count.
    Unweighted(Vec<f32>),
    /// Per vertex, its bone influences, flat. On the wire: vertex count, `bonesLength`
    /// (= vertex count + total influences, gotcha 9), then each vertex's influences.
    Weighted(WeightedVertices),
}

/// Weighted vertices: vertex `i` has `counts[i]` influences, stored consecutively (in vertex
/// order) in `bones` and `values` — the layout of the model's weighted vertices (three
/// allocations per attachment instead of one per vertex; a loader that owns the tree moves
/// these buffers instead of copying them).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct WeightedVertices {
    /// Number of influences of each vertex.
    pub counts: Vec<u32>,
    /// The bone index of every influence, vertex after vertex.
    pub bones: Vec<u32>,
    /// `x, y, weight` of every influence (`x`, `y` in bone space), vertex after vertex.
    pub values: Vec<f32>,
}

impl WeightedVertices {
    /// The flat form of the influences of each vertex, in order.
    pub fn from_groups<G, I>(groups: G) -> Self
    where
        G: IntoIterator<Item = I>,
        I: IntoIterator<Item = BoneWeight>,
    {
        let mut w = WeightedVertices::default();
        for g in groups {
            let mut n = 0u32;
            for b in g {
                w.bones.push(b.bone);
                w.values.extend_from_slice(&[b.x, b.y, b.weight]);
                n += 1;
            }
            w.counts.push(n);
        }
        w
    }

    /// Number of influences.
    pub fn influence_count(&self) -> usize {
        self.bones.len()
    }

    /// Influence `i`, or `None` past the end of `bones` or `values`.
    pub fn influence(&self, i: usize) -> Option<BoneWeight> {
        let bone = *self.bones.get(i)?;
        let v = self.values.get(i * 3..i * 3 + 3)?;
        Some(BoneWeight { bone, x: v[0], y: v[1], weight: v[2] })
    }

    /// The influences of each vertex, in order (a count that overruns the influences ends
    /// its vertex early, which the parser never produces).
    pub fn groups(&self) -> impl Iterator<Item = impl Iterator<Item = BoneWeight> + '_> + '_ {
        let mut start = 0usize;
        self.counts.iter().map(move |&n| {
            let end = start.saturating_add(n as usize);
            let group = (start..end).map_while(|i| self.influence(i));
            start = end;
            group
        })
    }
}

impl Default for Vertices {
    fn default() -> Self {
        Vertices::Unweighted(Vec::new())
    }
}

impl Vertices {
    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        match self {
            Vertices::Unweighted(v) => v.len() / 2,
            Vertices::Weighted(v) => v.counts.len(),
        }
    }
    /// `verticesLength` = 2 × vertex count (the world vertices length).
    pub fn world_length(&self) -> usize {
        self.vertex_count() * 2
    }
    /// The wire `bonesLength` of a weighted record (0 when unweighted).
    pub fn bones_length(&self) -> usize {
        match self {
            Vertices::Unweighted(_) => 0,
            Vertices::Weighted(v) => v.counts.iter().map(|&n| n as usize + 1).sum(),
        }
    }
    /// Whether the record is weighted.
    pub fn is_weighted(&self) -> bool {
        matches!(self, Vertices::Weighted(_))
    }
}

/// Bounding box attachment. Flags: 16 weighted.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct BoundingBoxAttachment {
    /// Polygon.
    pub vertices: Vertices,
    /// Nonessential color.
    pub color: Option<[u8; 4]>,
}

/// Nonessential mesh fields.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct MeshExtras {
    /// Edge indices.
    pub edges: Vec<u32>,
    /// Width (scaled).
    pub width: f32,
    /// Height (scaled).
    pub height: f32,
}

/// Mesh attachment. Flags: 16 path, 32 color, 64 sequence, 128 weighted.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct MeshAttachment {
    /// Iff `flags & 16`.
    pub path: Option<StrRef>,
    /// Iff `flags & 32`.
    pub color: Option<[u8; 4]>,
    /// Iff `flags & 64`.
    pub sequence: Option<Sequence>,
    /// Hull vertex count as on the wire (undoubled; gotcha 1).
    pub hull_length: u32,
    /// Vertices.
    pub vertices: Vertices,
    /// Region UVs, `world_length()` floats (unscaled).
    pub uvs: Vec<f32>,
    /// Triangle indices, `(world_length - hull_length - 2) * 3` of them.
    pub triangles: Vec<u32>,
    /// Extra slots whose timelines this mesh follows.
    pub timeline_slots: Vec<u32>,
    /// Nonessential edges and size.
    pub nonessential: Option<MeshExtras>,
}

/// Linked mesh attachment. Flags: 16 path, 32 color, 64 sequence, 128 inherit timelines.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct LinkedMeshAttachment {
    /// Iff `flags & 16`.
    pub path: Option<StrRef>,
    /// Iff `flags & 32`.
    pub color: Option<[u8; 4]>,
    /// Iff `flags & 64`.
    pub sequence: Option<Sequence>,
    /// Slot of the source mesh (gotcha 10).
    pub source_slot: u32,
    /// Skin of the source mesh (default skin = 0 when present).
    pub skin: u32,
    /// Placeholder name of the source mesh.
    pub source: StrRef,
    /// Nonessential width and height (scaled).
    pub size: Option<[f32; 2]>,
}

/// Path attachment. Flags: 16 closed, 32 constant speed, 64 weighted.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct PathAttachment {
    /// Control points.
    pub vertices: Vertices,
    /// Segment lengths (scaled), `world_length / 6` of them.
    pub lengths: Vec<f32>,
    /// Nonessential color.
    pub color: Option<[u8; 4]>,
}

/// Point attachment.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct PointAttachment {
    /// Rotation.
    pub rotation: f32,
    /// X (scaled).
    pub x: f32,
    /// Y (scaled).
    pub y: f32,
    /// Nonessential color.
    pub color: Option<[u8; 4]>,
}

/// Clipping attachment. Flags: 16 weighted, 32 convex, 64 inverse.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct ClippingAttachment {
    /// Slot where clipping ends.
    pub end_slot: u32,
    /// Polygon.
    pub vertices: Vertices,
    /// Nonessential color.
    pub color: Option<[u8; 4]>,
}

/// An event definition.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct Event {
    /// Name.
    pub name: String,
    /// Int value (zigzag varint).
    pub int_value: i32,
    /// Float value.
    pub float_value: f32,
    /// String value.
    pub string_value: Option<String>,
    /// Audio path.
    pub audio_path: Option<String>,
    /// Volume and balance; present iff the audio path is non-empty.
    pub volume_balance: Option<[f32; 2]>,
}

impl Event {
    /// Whether keys of this event carry volume and balance.
    pub fn has_audio(&self) -> bool {
        self.audio_path.as_deref().is_some_and(|p| !p.is_empty())
    }
}

/// An animation.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct Animation {
    /// Name.
    pub name: String,
    /// The leading timeline-count hint as written.
    pub timeline_hint: u32,
    /// Slot timelines.
    pub slots: Vec<SlotTimelines>,
    /// Bone timelines.
    pub bones: Vec<BoneTimelines>,
    /// IK constraint timelines.
    pub ik: Vec<IkTimeline>,
    /// Transform constraint timelines.
    pub transform: Vec<TransformTimeline>,
    /// Path constraint timelines.
    pub path: Vec<PathTimelines>,
    /// Physics constraint timelines.
    pub physics: Vec<PhysicsTimelines>,
    /// Slider timelines.
    pub slider: Vec<SliderTimelines>,
    /// Deform and sequence timelines.
    pub attachments: Vec<AttachmentTimelinesSkin>,
    /// Draw-order keys (empty = no timeline).
    pub draw_order: Vec<DrawOrderKey>,
    /// Draw-order folder timelines.
    pub draw_order_folders: Vec<DrawOrderFolder>,
    /// Event keys (empty = no timeline).
    pub events: Vec<EventKey>,
    /// Nonessential animation color (present iff the header flag is set).
    pub color: Option<[u8; 4]>,
}

/// The timelines of one slot.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct SlotTimelines {
    /// Slot index.
    pub slot: u32,
    /// Timelines.
    pub timelines: Vec<SlotTimeline>,
}

/// An attachment key.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct AttachmentKey {
    /// Time.
    pub time: f32,
    /// Attachment name (none = hide).
    pub attachment: StrRef,
}

/// A slot timeline (byte type 0–5).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum SlotTimeline {
    /// 0
    Attachment(Vec<AttachmentKey>),
    /// 1: r g b a bytes.
    Rgba(CurveTimeline<[u8; 4]>),
    /// 2: r g b bytes.
    Rgb(CurveTimeline<[u8; 3]>),
    /// 3: r g b a r2 g2 b2 bytes.
    Rgba2(CurveTimeline<[u8; 7]>),
    /// 4: r g b r2 g2 b2 bytes.
    Rgb2(CurveTimeline<[u8; 6]>),
    /// 5: alpha byte.
    Alpha(CurveTimeline<[u8; 1]>),
}

/// The timelines of one bone.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct BoneTimelines {
    /// Bone index.
    pub bone: u32,
    /// Timelines.
    pub timelines: Vec<BoneTimeline>,
}

/// An inherit key.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct InheritKey {
    /// Time.
    pub time: f32,
    /// Inherit mode.
    pub inherit: Inherit,
}

/// A bone timeline (byte type 0–10). Translate values are scaled.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum BoneTimeline {
    /// 0
    Rotate(CurveTimeline<[f32; 1]>),
    /// 1 (scaled)
    Translate(CurveTimeline<[f32; 2]>),
    /// 2 (scaled)
    TranslateX(CurveTimeline<[f32; 1]>),
    /// 3 (scaled)
    TranslateY(CurveTimeline<[f32; 1]>),
    /// 4
    Scale(CurveTimeline<[f32; 2]>),
    /// 5
    ScaleX(CurveTimeline<[f32; 1]>),
    /// 6
    ScaleY(CurveTimeline<[f32; 1]>),
    /// 7
    Shear(CurveTimeline<[f32; 2]>),
    /// 8
    ShearX(CurveTimeline<[f32; 1]>),
    /// 9
    ShearY(CurveTimeline<[f32; 1]>),
    /// 10
    Inherit(Vec<InheritKey>),
}

/// One IK timeline key.
#[derive(Debug, Clone, Copy, PartialEq, Default, serde::Serialize)]
pub struct IkKey {
    /// Raw flags: 1 mix non-zero, 2 mix float follows, 4 softness follows, 8 bend +1
    /// (not inverted, gotcha 7), 16 compress, 32 stretch, 64 stepped, 128 bezier.
    pub flags: u8,
    /// Time.
    pub time: f32,
    /// Iff `flags & 1` and `flags & 2`.
    pub mix: Option<f32>,
    /// Softness (scaled); iff `flags & 4`.
    pub softness: Option<f32>,
    /// Bezier into this key (mix curve, softness curve); only on keys after the first,
    /// iff `flags & 128` and not `flags & 64`.
    pub bezier: Option<[[f32; 4]; 2]>,
}

impl IkKey {
    /// Bend direction: `1` when `flags & 8`, else `-1`.
    pub fn bend_direction(&self) -> i32 {
        if self.flags & 8 != 0 {
            1
        } else {
            -1
        }
    }
}

/// An IK constraint timeline.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct IkTimeline {
    /// IK constraint index (unified list).
    pub constraint: u32,
    /// `bezierCount`.
    pub bezier_count: u32,
    /// Keys.
    pub keys: Vec<IkKey>,
}

/// A transform constraint timeline (six mixes).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TransformTimeline {
    /// Transform constraint index (unified list).
    pub constraint: u32,
    /// Mix rotate, x, y, scaleX, scaleY, shearY.
    pub timeline: CurveTimeline<[f32; 6]>,
}

/// The timelines of one path constraint.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct PathTimelines {
    /// Path constraint index (unified list).
    pub constraint: u32,
    /// Timelines.
    pub timelines: Vec<PathTimeline>,
}

/// A path constraint timeline (byte type 0–2).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum PathTimeline {
    /// 0 (scaled when the position mode is `Fixed`)
    Position(CurveTimeline<[f32; 1]>),
    /// 1 (scaled when the spacing mode is `Length` or `Fixed`)
    Spacing(CurveTimeline<[f32; 1]>),
    /// 2: mix rotate, x, y.
    Mix(CurveTimeline<[f32; 3]>),
}

/// The timelines of one physics constraint, or of all of them.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct PhysicsTimelines {
    /// Physics constraint index (unified list), `None` for "all". On the wire it is
    /// 1-based with 0 meaning all (gotcha 5).
    pub constraint: Option<u32>,
    /// Timelines.
    pub timelines: Vec<PhysicsTimeline>,
}

/// Which physics property a curve timeline drives (byte type; 3 is unused, 8 is reset).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum PhysicsProperty {
    /// 0
    Inertia,
    /// 1
    Strength,
    /// 2
    Damping,
    /// 4
    Mass,
    /// 5
    Wind,
    /// 6
    Gravity,
    /// 7
    Mix,
}

/// A physics constraint timeline.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum PhysicsTimeline {
    /// Types 0–2 and 4–7.
    Property(PhysicsProperty, CurveTimeline<[f32; 1]>),
    /// Type 8: reset times.
    Reset(Vec<f32>),
}

/// The timelines of one slider.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct SliderTimelines {
    /// Slider index (unified list).
    pub constraint: u32,
    /// Timelines.
    pub timelines: Vec<SliderTimeline>,
}

/// A slider timeline (byte type 0–1).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum SliderTimeline {
    /// 0
    Time(CurveTimeline<[f32; 1]>),
    /// 1
    Mix(CurveTimeline<[f32; 1]>),
}

/// Attachment timelines of one skin.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct AttachmentTimelinesSkin {
    /// Skin index.
    pub skin: u32,
    /// Per slot.
    pub slots: Vec<AttachmentTimelinesSlot>,
}

/// Attachment timelines of one slot of a skin.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct AttachmentTimelinesSlot {
    /// Slot index.
    pub slot: u32,
    /// Per attachment.
    pub attachments: Vec<AttachmentTimeline>,
}

/// A deform or sequence timeline of one attachment.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct AttachmentTimeline {
    /// Attachment (placeholder) name.
    pub attachment: StrRef,
    /// The timeline.
    pub kind: AttachmentTimelineKind,
}

/// Attachment timeline bodies (byte type 0–1).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum AttachmentTimelineKind {
    /// 0
    Deform(DeformTimeline),
    /// 1
    Sequence(Vec<SequenceKey>),
}

/// Changed vertices of a deform key.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct DeformValues {
    /// First changed index.
    pub start: u32,
    /// Values (scaled; offsets from setup for unweighted meshes). Never empty.
    pub values: Vec<f32>,
}

/// A deform key.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct DeformKey {
    /// Time.
    pub time: f32,
    /// `None` (`end == 0`) = setup vertices.
    pub values: Option<DeformValues>,
}

/// A deform timeline: keys, curves between them, one bezier (a 0→1 percent) per bezier curve.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct DeformTimeline {
    /// `bezierCount`.
    pub bezier_count: u32,
    /// Keys (at least one).
    pub keys: Vec<DeformKey>,
    /// `curves[i]` goes from `keys[i]` to `keys[i + 1]`.
    pub curves: Vec<crate::binary::shared::CurveType>,
    /// Control points of each bezier curve, in order.
    pub beziers: Vec<[f32; 4]>,
}

/// Sequence playback mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum SequenceMode {
    /// 0
    Hold,
    /// 1
    Once,
    /// 2
    Loop,
    /// 3
    PingPong,
    /// 4
    OnceReverse,
    /// 5
    LoopReverse,
    /// 6
    PingPongReverse,
}

/// A sequence key.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct SequenceKey {
    /// Time.
    pub time: f32,
    /// Mode (low 4 bits of the wire int).
    pub mode: SequenceMode,
    /// Frame index (wire int `>> 4`, arithmetic).
    pub index: i32,
    /// Delay.
    pub delay: f32,
}

/// A draw-order key.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct DrawOrderKey {
    /// Time.
    pub time: f32,
    /// Changes (empty = setup order).
    pub changes: Vec<DrawOrderChange>,
}

/// A draw-order folder timeline.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct DrawOrderFolder {
    /// The folder's slots; change indices are positions in this list.
    pub slots: Vec<u32>,
    /// Keys.
    pub keys: Vec<DrawOrderKey>,
}

/// An event key.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct EventKey {
    /// Time.
    pub time: f32,
    /// Event index.
    pub event: u32,
    /// Int value.
    pub int_value: i32,
    /// Float value.
    pub float_value: f32,
    /// String value (`None` = the event's default).
    pub string_value: Option<String>,
    /// Volume and balance; present iff the event has a non-empty audio path.
    pub volume_balance: Option<[f32; 2]>,
}
