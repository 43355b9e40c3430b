//! Attachments, their vertices and sequences, and bound atlas regions.

use super::packed::{MeshArrays, WeightedVertices};
use super::Color;
use crate::ids::*;
use std::sync::Arc;

/// An attachment.
#[derive(Debug, Clone, PartialEq)]
pub struct AttachmentData {
    /// Name (the attachment's own name, also the default image path). Shared (`Arc<str>`)
    /// with the skin entry, the image path and the single frame path when they are equal.
    pub name: Arc<str>,
    /// Type-specific data.
    pub kind: AttachmentKind,
}

/// The seven attachment types.
#[derive(Debug, Clone, PartialEq)]
pub enum AttachmentKind {
    /// Textured quad.
    Region(RegionAttachment),
    /// Hit-test polygon.
    BoundingBox(BoundingBoxAttachment),
    /// Textured mesh (linked meshes are resolved into meshes with `linked_source`).
    Mesh(MeshAttachment),
    /// Bezier path.
    Path(PathAttachment),
    /// Point.
    Point(PointAttachment),
    /// Clipping polygon.
    Clipping(ClippingAttachment),
}

/// Attachment vertices.
#[derive(Debug, Clone, PartialEq)]
pub enum Vertices {
    /// `x, y` per vertex in the slot bone's space.
    Unweighted(Vec<f32>),
    /// Weighted vertices.
    Weighted(WeightedVertices),
}

impl Default for Vertices {
    /// No vertices (unweighted).
    fn default() -> Vertices {
        Vertices::Unweighted(Vec::new())
    }
}

impl Vertices {
    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        match self {
            Vertices::Unweighted(v) => v.len() / 2,
            Vertices::Weighted(w) => w.vertex_count(),
        }
    }

    /// Length of a deform array (`2 ×` vertices for unweighted, `2 ×` influences for
    /// weighted; the runtimes' `deform` length).
    pub fn deform_length(&self) -> usize {
        match self {
            Vertices::Unweighted(v) => v.len(),
            Vertices::Weighted(w) => w.influence_count() * 2,
        }
    }
}

/// An image sequence and its frames' regions.
#[derive(Debug, Clone, PartialEq)]
pub struct SequenceData {
    /// First frame number.
    pub start: u32,
    /// Zero-padding digits.
    pub digits: u32,
    /// Setup frame index.
    pub setup_index: u32,
    /// The attachment's path (shared with it), from which the frame paths are made.
    pub path: Arc<str>,
    /// Whether the frames are numbered (an exported sequence: frame `i` is `path` followed by
    /// `start + i` zero-padded to `digits`), or the single frame of a plain image (`path`).
    pub numbered: bool,
    /// The atlas region of each frame (`None` in geometry-only mode); its length is the
    /// frame count.
    pub regions: Frames<Option<TextureRegion>>,
}

/// Zero padding beyond this many digits is not written (`digits` is a count from the file;
/// no real export pads a frame number to more than a few digits).
const MAX_PAD: usize = 32;

impl SequenceData {
    /// The number of frames.
    pub fn len(&self) -> usize {
        self.regions.len()
    }

    /// Whether there is no frame (a sequence exported with `count` 0).
    pub fn is_empty(&self) -> bool {
        self.regions.is_empty()
    }

    /// Writes the path of frame `i` (spine-cpp `Sequence::getPath`) into `out`, replacing its
    /// contents; false (and `out` cleared) when there is no frame `i`. Paths are made on
    /// demand, never stored per frame.
    #[inline]
    pub fn write_frame_path(&self, i: usize, out: &mut String) -> bool {
        use std::fmt::Write;
        out.clear();
        if i >= self.len() {
            return false;
        }
        out.push_str(&self.path);
        if self.numbered {
            let frame = u64::from(self.start) + i as u64;
            let len = frame.checked_ilog10().unwrap_or(0) as usize + 1;
            for _ in len..(self.digits as usize).min(MAX_PAD) {
                out.push('0');
            }
            let _ = write!(out, "{frame}");
        }
        true
    }

    /// The path of frame `i`, if there is one (one allocation; see [`Self::write_frame_path`]).
    pub fn frame_path(&self, i: usize) -> Option<String> {
        let mut s = String::new();
        self.write_frame_path(i, &mut s).then_some(s)
    }

    /// Every frame's path in order, each made when the iterator reaches it.
    pub fn frame_paths(&self) -> impl Iterator<Item = String> + '_ {
        (0..self.len()).filter_map(|i| self.frame_path(i))
    }
}

/// The per-frame list of a [`SequenceData`]: a single frame (every attachment without a
/// sequence) is stored inline, without an allocation; use it as a slice (`Deref<[T]>`).
/// Equality and `Debug` are those of the slice, whichever variant holds the frames.
#[derive(Clone)]
pub enum Frames<T> {
    /// Exactly one frame, inline.
    One([T; 1]),
    /// Any number of frames.
    Many(Vec<T>),
}

impl<T> Frames<T> {
    /// A list of frames, inline when there is exactly one.
    pub fn from_vec(mut v: Vec<T>) -> Frames<T> {
        match (v.len(), v.pop()) {
            (1, Some(x)) => Frames::One([x]),
            (_, Some(x)) => {
                v.push(x);
                Frames::Many(v)
            }
            _ => Frames::Many(v),
        }
    }
}

impl<T> std::ops::Deref for Frames<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match self {
            Frames::One(x) => x,
            Frames::Many(v) => v,
        }
    }
}

impl<T> std::ops::DerefMut for Frames<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            Frames::One(x) => x,
            Frames::Many(v) => v,
        }
    }
}

impl<T: PartialEq> PartialEq for Frames<T> {
    fn eq(&self, other: &Frames<T>) -> bool {
        **self == **other
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for Frames<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

/// A region of an atlas page, as spine-cpp 4.2 `AtlasAttachmentLoader` fills a
/// `TextureRegion`.
#[derive(Debug, Clone, PartialEq)]
pub struct TextureRegion {
    /// Page.
    pub page: PageId,
    /// Left u.
    pub u: f32,
    /// Top v.
    pub v: f32,
    /// Right u.
    pub u2: f32,
    /// Bottom v.
    pub v2: f32,
    /// Packing rotation in degrees (90 for `rotate: true`).
    pub degrees: i32,
    /// Whitespace stripped at the left, pixels (× loader scale).
    pub offset_x: f32,
    /// Whitespace stripped at the bottom, pixels (× loader scale).
    pub offset_y: f32,
    /// Packed width, pixels (× loader scale).
    pub width: f32,
    /// Packed height, pixels (× loader scale).
    pub height: f32,
    /// Original width, pixels (× loader scale).
    pub original_width: f32,
    /// Original height, pixels (× loader scale).
    pub original_height: f32,
}

/// An atlas page referenced by regions.
#[derive(Debug, Clone, PartialEq)]
pub struct PageData {
    /// Image file name.
    pub name: String,
    /// Width in pixels.
    pub width: i32,
    /// Height in pixels.
    pub height: i32,
    /// Premultiplied alpha.
    pub pma: bool,
}

/// A region attachment.
#[derive(Debug, Clone, PartialEq)]
pub struct RegionAttachment {
    /// Image path (base path when there is a sequence); shared with the attachment's name
    /// and the single frame path when they are equal.
    pub path: Arc<str>,
    /// Tint color.
    pub color: Color,
    /// X.
    pub x: f32,
    /// Y.
    pub y: f32,
    /// Rotation, degrees.
    pub rotation: f32,
    /// Scale x.
    pub scale_x: f32,
    /// Scale y.
    pub scale_y: f32,
    /// Width.
    pub width: f32,
    /// Height.
    pub height: f32,
    /// The sequence: always present, one frame for a plain image (4.3 model, gotcha 6).
    pub sequence: SequenceData,
    /// Whether the export had a real sequence (frame paths carry numbers).
    pub has_sequence: bool,
    /// Setup-frame geometry: the 4 corner offsets (`RegionAttachment::updateRegion`),
    /// `None` without an atlas.
    pub offsets: Option<[f32; 8]>,
    /// Setup-frame UVs of the 4 corners, `None` without an atlas.
    pub uvs: Option<[f32; 8]>,
}

/// A bounding box attachment.
#[derive(Debug, Clone, PartialEq)]
pub struct BoundingBoxAttachment {
    /// Vertices.
    pub vertices: Vertices,
    /// Editor color.
    pub color: Option<Color>,
}

/// A mesh attachment (linked meshes are resolved into one of these).
#[derive(Debug, Clone, PartialEq)]
pub struct MeshAttachment {
    /// Image path (base path when there is a sequence); shared like
    /// [`RegionAttachment::path`].
    pub path: Arc<str>,
    /// Tint color.
    pub color: Color,
    /// Vertices (copied from the source of a linked mesh).
    pub vertices: Vertices,
    /// Texture coordinates relative to the region, triangles (vertex indices, checked in
    /// range), the editor's edges (nonessential) and, bound to an atlas, the texture
    /// coordinates in the page (`MeshAttachment::updateRegion`): [`MeshAttachment::region_uvs`],
    /// [`MeshAttachment::triangles`], [`MeshAttachment::edges`], [`MeshAttachment::uvs`].
    pub arrays: MeshArrays,
    /// Hull vertex count.
    pub hull_length: u32,
    /// Editor width.
    pub width: f32,
    /// Editor height.
    pub height: f32,
    /// The sequence (always present, see [`RegionAttachment::sequence`]).
    pub sequence: SequenceData,
    /// Whether the export had a real sequence.
    pub has_sequence: bool,
    /// The source mesh when this is a linked mesh.
    pub linked_source: Option<AttachmentId>,
    /// The attachment whose deform and sequence timelines apply to this one (itself, or the
    /// source of a linked mesh that inherits timelines).
    pub timeline_attachment: AttachmentId,
    /// Extra slots whose timelines apply (4.3).
    pub timeline_slots: Vec<SlotId>,
}

impl MeshAttachment {
    /// Texture coordinates `u, v` per vertex, relative to the region.
    #[inline]
    pub fn region_uvs(&self) -> &[f32] {
        self.arrays.region_uvs()
    }

    /// Triangles (vertex indices, checked in range).
    #[inline]
    pub fn triangles(&self) -> &[u32] {
        self.arrays.triangles()
    }

    /// Editor edges (nonessential).
    #[inline]
    pub fn edges(&self) -> &[u32] {
        self.arrays.edges()
    }

    /// Setup-frame UVs mapped into the page (`MeshAttachment::updateRegion`), `None`
    /// without an atlas.
    #[inline]
    pub fn uvs(&self) -> Option<&[f32]> {
        self.arrays.uvs()
    }
}

/// A path attachment.
#[derive(Debug, Clone, PartialEq)]
pub struct PathAttachment {
    /// Vertices.
    pub vertices: Vertices,
    /// Curve lengths.
    pub lengths: Vec<f32>,
    /// Closed.
    pub closed: bool,
    /// Constant speed.
    pub constant_speed: bool,
    /// Editor color.
    pub color: Option<Color>,
}

/// A point attachment.
#[derive(Debug, Clone, PartialEq)]
pub struct PointAttachment {
    /// X.
    pub x: f32,
    /// Y.
    pub y: f32,
    /// Rotation, degrees.
    pub rotation: f32,
    /// Editor color.
    pub color: Option<Color>,
}

/// A clipping attachment.
#[derive(Debug, Clone, PartialEq)]
pub struct ClippingAttachment {
    /// Clipping ends after this slot.
    pub end_slot: SlotId,
    /// Vertices.
    pub vertices: Vertices,
    /// Editor color.
    pub color: Option<Color>,
}
