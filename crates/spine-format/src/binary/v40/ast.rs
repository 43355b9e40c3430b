//! The raw AST of 4.0–4.2 skeletons: setup data (header, bones, slots, constraints, skins,
//! attachments, events). Animations are in [`super::animation`].
//!
//! One AST covers the three versions; [`Skeleton::generation`] says which layout the writer
//! produces. Fields that exist in only some versions are documented as such. Where 4.2 packs
//! booleans and "field present" bits into flag bytes, the raw flag byte is kept (so unknown
//! bits round-trip) next to the decoded values; the writer trusts the flag byte and writes an
//! optional field exactly when its bit is set.

use crate::binary::prim::StrRef;
use crate::SpineVersion;

use super::animation::Animation;

/// A parsed 4.0, 4.1 or 4.2 binary skeleton.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Skeleton {
    /// [`SpineVersion::V4_0`], [`SpineVersion::V4_1`] or [`SpineVersion::V4_2`]: the wire layout.
    pub generation: SpineVersion,
    /// Hash, version, bounds and the nonessential header fields.
    pub header: Header,
    /// The string table (`readStringRef` targets).
    pub strings: Vec<String>,
    /// Bones, parents first.
    pub bones: Vec<Bone>,
    /// Slots in setup draw order.
    pub slots: Vec<Slot>,
    /// IK constraints.
    pub ik_constraints: Vec<IkConstraint>,
    /// Transform constraints.
    pub transform_constraints: Vec<TransformConstraint>,
    /// Path constraints.
    pub path_constraints: Vec<PathConstraint>,
    /// Physics constraints (4.2 only; always empty before).
    pub physics_constraints: Vec<PhysicsConstraint>,
    /// The default skin's attachments; `None` when the file has no default skin
    /// (its slot count is 0 on the wire).
    pub default_skin: Option<SkinSlots>,
    /// The named skins, in file order (skin index `i` of the file is `i + 1` when a default
    /// skin exists, `i` otherwise).
    pub skins: Vec<Skin>,
    /// Event definitions.
    pub events: Vec<EventData>,
    /// Animations.
    pub animations: Vec<Animation>,
}

/// The file header.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Header {
    /// The two big-endian `int`s of the hash, in wire order (spine-cpp calls the first one
    /// "low"); see [`Header::hash_string`].
    pub hash: [i32; 2],
    /// Editor version string, e.g. `"4.2.22"`.
    pub version: String,
    /// Bounds origin x.
    pub x: f32,
    /// Bounds origin y.
    pub y: f32,
    /// Bounds width.
    pub width: f32,
    /// Bounds height.
    pub height: f32,
    /// Physics reference scale (4.2 only; `None` before).
    pub reference_scale: Option<f32>,
    /// The nonessential header fields; `Some` exactly when the file's nonessential flag is set
    /// (which also gates nonessential fields throughout the file).
    pub nonessential: Option<HeaderExtras>,
}

impl Header {
    /// The hash as spine-cpp shows it: the second word then the first, each as unpadded
    /// lowercase hex (`"%x%x"`).
    pub fn hash_string(&self) -> String {
        format!("{:x}{:x}", self.hash[1] as u32, self.hash[0] as u32)
    }

    /// The hash as the editor writes it in JSON exports (`skeleton.hash`): the 8 wire bytes
    /// in standard base64 without padding.
    pub fn hash_base64(&self) -> String {
        const ALPHABET: &[u8; 64] =
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        let mut bytes = [0u8; 8];
        bytes[..4].copy_from_slice(&self.hash[0].to_be_bytes());
        bytes[4..].copy_from_slice(&self.hash[1].to_be_bytes());
        let mut out = String::with_capacity(11);
        for chunk in bytes.chunks(3) {
            let mut n = 0u32;
            for (i, &b) in chunk.iter().enumerate() {
                n |= u32::from(b) << (16 - 8 * i);
            }
            for i in 0..=chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            }
        }
        out
    }
}

/// Nonessential header fields.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct HeaderExtras {
    /// Dopesheet frames per second.
    pub fps: f32,
    /// Images folder (null on the wire = `None`).
    pub images_path: Option<String>,
    /// Audio folder (null on the wire = `None`).
    pub audio_path: Option<String>,
}

/// How a bone inherits its parent's transform (`TransformMode` before 4.2, `Inherit` in 4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Inherit {
    /// `0`
    Normal,
    /// `1`
    OnlyTranslation,
    /// `2`
    NoRotationOrReflection,
    /// `3`
    NoScale,
    /// `4`
    NoScaleOrReflection,
}

impl Inherit {
    /// Decodes the wire value.
    pub fn from_wire(v: u32) -> Option<Self> {
        Some(match v {
            0 => Inherit::Normal,
            1 => Inherit::OnlyTranslation,
            2 => Inherit::NoRotationOrReflection,
            3 => Inherit::NoScale,
            4 => Inherit::NoScaleOrReflection,
            _ => return None,
        })
    }

    /// The wire value.
    pub fn to_wire(self) -> u8 {
        self as u8
    }
}

/// A bone.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Bone {
    /// Name.
    pub name: String,
    /// Parent bone index (`None` only for bone 0, which has no parent on the wire).
    pub parent: Option<u32>,
    /// Rotation in degrees.
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
    /// Length (scaled).
    pub length: f32,
    /// Inheritance (a varint before 4.2, a byte in 4.2).
    pub inherit: Inherit,
    /// Only active when a skin contains it.
    pub skin_required: bool,
    /// Nonessential fields, `Some` exactly when the file is nonessential.
    pub extras: Option<BoneExtras>,
}

/// Nonessential bone fields.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct BoneExtras {
    /// Editor color, RGBA.
    pub color: [u8; 4],
    /// Icon name (4.2 only; always `None` before).
    pub icon: Option<String>,
    /// Visible in the editor (4.2 only; ignored before).
    pub visible: bool,
}

/// Slot blend mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum BlendMode {
    /// `0`
    Normal,
    /// `1`
    Additive,
    /// `2`
    Multiply,
    /// `3`
    Screen,
}

impl BlendMode {
    /// Decodes the wire value.
    pub fn from_wire(v: u32) -> Option<Self> {
        Some(match v {
            0 => BlendMode::Normal,
            1 => BlendMode::Additive,
            2 => BlendMode::Multiply,
            3 => BlendMode::Screen,
            _ => return None,
        })
    }

    /// The wire value.
    pub fn to_wire(self) -> u32 {
        self as u32
    }
}

/// A slot.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Slot {
    /// Name.
    pub name: String,
    /// Bone index.
    pub bone: u32,
    /// Setup color, RGBA.
    pub color: [u8; 4],
    /// Dark color as the raw `int` bytes: `ff ff ff ff` (-1) means "no dark color",
    /// otherwise bytes 1..4 are R, G, B. See [`Slot::dark_rgb`].
    pub dark: [u8; 4],
    /// Setup attachment name.
    pub attachment: StrRef,
    /// Blend mode.
    pub blend: BlendMode,
    /// Visible in the editor (4.2 nonessential only; `None` otherwise).
    pub visible: Option<bool>,
}

impl Slot {
    /// The dark color's RGB bytes, or `None` when the slot has no dark color.
    pub fn dark_rgb(&self) -> Option<[u8; 3]> {
        (self.dark != [0xff; 4]).then_some([self.dark[1], self.dark[2], self.dark[3]])
    }
}

/// An IK constraint.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct IkConstraint {
    /// Name.
    pub name: String,
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
    pub name: String,
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
    pub name: String,
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
    pub name: String,
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

/// A name that is a string-table reference before 4.2 and an inline string in 4.2
/// (skin and event names).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub enum Name {
    /// A string-table reference (4.0, 4.1).
    Ref(StrRef),
    /// An inline string (4.2).
    Inline(String),
}

impl Name {
    /// The name's text, resolving references against `strings`.
    pub fn resolve<'a, S: AsRef<str>>(&'a self, strings: &'a [S]) -> Option<&'a str> {
        match self {
            Name::Ref(r) => r.resolve(strings),
            Name::Inline(s) => Some(s),
        }
    }
}

/// A named skin.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Skin {
    /// Name.
    pub name: Name,
    /// Editor color (4.2 nonessential only).
    pub color: Option<[u8; 4]>,
    /// Skin bones.
    pub bones: Vec<u32>,
    /// Skin IK constraints.
    pub ik: Vec<u32>,
    /// Skin transform constraints.
    pub transform: Vec<u32>,
    /// Skin path constraints.
    pub path: Vec<u32>,
    /// Skin physics constraints (4.2 only).
    pub physics: Vec<u32>,
    /// Attachments per slot.
    pub slots: SkinSlots,
}

/// The attachments of a skin, slot after slot, in one list (not one list per slot).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct SkinSlots {
    /// Per slot, in wire order: the slot index and how many of `attachments` (the next ones
    /// in order) it has.
    pub slots: Vec<(u32, u32)>,
    /// Every attachment by skin placeholder name, slot after slot.
    pub attachments: Vec<SkinAttachment>,
}

impl SkinSlots {
    /// Each slot and its attachments, in wire order (a count that overruns `attachments`
    /// is cut short, which the parser never produces).
    pub fn groups(&self) -> impl Iterator<Item = (u32, &[SkinAttachment])> + '_ {
        let mut start = 0usize;
        self.slots.iter().map(move |&(slot, n)| {
            let end = start.saturating_add(n as usize).min(self.attachments.len());
            let group = self.attachments.get(start.min(end)..end).unwrap_or(&[]);
            start = end;
            (slot, group)
        })
    }

    /// The attachments of `slot` (its first group).
    pub fn slot(&self, slot: u32) -> Option<&[SkinAttachment]> {
        self.groups().find(|(s, _)| *s == slot).map(|(_, a)| a)
    }

    /// Appends a slot and its attachments.
    pub fn push_slot(&mut self, slot: u32, attachments: impl IntoIterator<Item = SkinAttachment>) {
        let before = self.attachments.len();
        self.attachments.extend(attachments);
        let n = u32::try_from(self.attachments.len() - before).unwrap_or(u32::MAX);
        self.slots.push((slot, n));
    }

    /// No slot.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }
}

/// One skin entry: the placeholder name and the attachment.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SkinAttachment {
    /// Skin placeholder name.
    pub key: StrRef,
    /// The attachment.
    pub attachment: Attachment,
}

/// An attachment.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Attachment {
    /// Before 4.2: the type byte. In 4.2: the raw flags byte, type in bits 0–2, bit 8 name
    /// on the wire, and per-type bits (see each kind). The writer writes this byte as is.
    pub flags: u8,
    /// Attachment name; [`StrRef::NONE`] means "same as the key" (and, in 4.2, that bit 8 is
    /// clear).
    pub name: StrRef,
    /// The type-specific data.
    pub kind: AttachmentKind,
}

/// Attachment type codes.
pub mod attachment_type {
    /// Region.
    pub const REGION: u8 = 0;
    /// Bounding box.
    pub const BOUNDING_BOX: u8 = 1;
    /// Mesh.
    pub const MESH: u8 = 2;
    /// Linked mesh.
    pub const LINKED_MESH: u8 = 3;
    /// Path.
    pub const PATH: u8 = 4;
    /// Point.
    pub const POINT: u8 = 5;
    /// Clipping.
    pub const CLIPPING: u8 = 6;
}

/// Type-specific attachment data.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum AttachmentKind {
    /// A textured quad.
    Region(Region),
    /// A polygon for hit tests.
    BoundingBox(VertexShape),
    /// A textured mesh.
    Mesh(Mesh),
    /// A mesh sharing another mesh's geometry (unresolved).
    LinkedMesh(LinkedMesh),
    /// A bezier path.
    Path(PathAttachment),
    /// A point.
    Point(Point),
    /// A clipping polygon.
    Clipping(Clipping),
}

/// An image sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Sequence {
    /// Number of regions.
    pub count: u32,
    /// First frame number.
    pub start: u32,
    /// Zero-padding digits.
    pub digits: u32,
    /// Setup frame index.
    pub setup_index: u32,
}

/// A region attachment. In 4.2 the flag bits are 16 path, 32 color, 64 sequence,
/// 128 rotation; absent fields hold the loader's defaults.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Region {
    /// Image path ([`StrRef::NONE`] = the name).
    pub path: StrRef,
    /// Color, RGBA (`ffffffff` when absent in 4.2).
    pub color: [u8; 4],
    /// Sequence (4.1+).
    pub sequence: Option<Sequence>,
    /// Rotation (0 when absent in 4.2).
    pub rotation: f32,
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
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct BoneWeight {
    /// Bone index.
    pub bone: u32,
    /// X in bone space (scaled).
    pub x: f32,
    /// Y in bone space (scaled).
    pub y: f32,
    /// Weight.
    pub weight: f32,
}

/// Attachment vertices.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub enum Vertices {
    /// Unweighted: `x, y` per vertex (scaled).
    Plain(Vec<f32>),
    /// Weighted: the influences of each vertex, flat (two allocations per attachment
    /// instead of one per vertex).
    Weighted(WeightedVertices),
}

/// Weighted vertices: vertex `i` has `counts[i]` influences, stored consecutively (in vertex
/// order) in `bones` and `values` — the layout of the model's weighted vertices, so a loader
/// that owns the tree moves these buffers instead of copying them.
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

impl Vertices {
    /// Number of vertices.
    pub fn count(&self) -> usize {
        match self {
            Vertices::Plain(v) => v.len() / 2,
            Vertices::Weighted(v) => v.counts.len(),
        }
    }

    /// Whether the vertices are weighted.
    pub fn is_weighted(&self) -> bool {
        matches!(self, Vertices::Weighted(_))
    }
}

/// A bounding box: vertices and (nonessential) color. In 4.2 flag 16 means weighted.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct VertexShape {
    /// Vertices.
    pub vertices: Vertices,
    /// Editor color (nonessential).
    pub color: Option<[u8; 4]>,
}

/// A mesh attachment. In 4.2 the flag bits are 16 path, 32 color, 64 sequence, 128 weighted.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Mesh {
    /// Image path ([`StrRef::NONE`] = the name).
    pub path: StrRef,
    /// Color, RGBA (`ffffffff` when absent in 4.2).
    pub color: [u8; 4],
    /// Sequence (4.1+).
    pub sequence: Option<Sequence>,
    /// Texture coordinates, `u, v` per vertex.
    pub uvs: Vec<f32>,
    /// Triangle vertex indices (16-bit before 4.2, varints in 4.2; the count is implied by
    /// the vertex and hull counts in 4.2).
    pub triangles: Vec<u32>,
    /// Vertices.
    pub vertices: Vertices,
    /// Hull vertex count.
    pub hull: u32,
    /// Nonessential fields.
    pub extras: Option<MeshExtras>,
}

/// Nonessential mesh fields.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct MeshExtras {
    /// Edge vertex-index pairs (16-bit before 4.2, varints in 4.2).
    pub edges: Vec<u32>,
    /// Width (scaled).
    pub width: f32,
    /// Height (scaled).
    pub height: f32,
}

/// Which skin a linked mesh's parent is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum SkinRef {
    /// By name (4.0, 4.1); [`StrRef::NONE`] is the default skin.
    Name(StrRef),
    /// By skin index (4.2).
    Index(u32),
}

/// A linked mesh, recorded unresolved. In 4.2 the flag bits are 16 path, 32 color,
/// 64 sequence, 128 inherit timelines.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct LinkedMesh {
    /// Image path ([`StrRef::NONE`] = the name).
    pub path: StrRef,
    /// Color, RGBA (`ffffffff` when absent in 4.2).
    pub color: [u8; 4],
    /// Sequence (4.1+).
    pub sequence: Option<Sequence>,
    /// The skin holding the parent mesh.
    pub skin: SkinRef,
    /// The parent mesh's skin key.
    pub parent: StrRef,
    /// Whether deform (and 4.1+ sequence) timelines of the parent apply.
    pub inherit_timelines: bool,
    /// Width and height (scaled, nonessential).
    pub size: Option<[f32; 2]>,
}

/// A path attachment. In 4.2 the flag bits are 16 closed, 32 constant speed, 64 weighted.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct PathAttachment {
    /// Closed.
    pub closed: bool,
    /// Constant speed.
    pub constant_speed: bool,
    /// Vertices.
    pub vertices: Vertices,
    /// Curve lengths (scaled), one per 3 vertices.
    pub lengths: Vec<f32>,
    /// Editor color (nonessential).
    pub color: Option<[u8; 4]>,
}

/// A point attachment.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Point {
    /// Rotation.
    pub rotation: f32,
    /// X (scaled).
    pub x: f32,
    /// Y (scaled).
    pub y: f32,
    /// Editor color (nonessential).
    pub color: Option<[u8; 4]>,
}

/// A clipping attachment. In 4.2 flag 16 means weighted.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Clipping {
    /// Slot index where clipping ends.
    pub end_slot: u32,
    /// Vertices.
    pub vertices: Vertices,
    /// Editor color (nonessential).
    pub color: Option<[u8; 4]>,
}

/// An event definition.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct EventData {
    /// Name.
    pub name: Name,
    /// Default int.
    pub int: i32,
    /// Default float.
    pub float: f32,
    /// Default string.
    pub string: Option<String>,
    /// Audio, when the audio path is not null.
    pub audio: Option<EventAudio>,
}

/// An event's audio settings.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct EventAudio {
    /// Audio file path.
    pub path: String,
    /// Volume.
    pub volume: f32,
    /// Balance.
    pub balance: f32,
}
