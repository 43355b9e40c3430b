//! Streaming 4.0–4.2 animations: the animation reader drives an [`AnimationSink`] instead of
//! building the raw AST, so a loader can fill its own timelines straight from the wire (no
//! per-timeline key lists to build, walk and drop).
//!
//! [`parse_head`] reads everything before the animations and returns the [`Skeleton`] (with
//! no animations) and an [`Animations`] reader; each [`Animations::read_next`] reads one
//! animation into a sink. [`super::parse`] is the same reader with the AST builder as sink,
//! and [`Animation::replay`] feeds a parsed animation to a sink in wire order.

use crate::binary::prim::StrRef;
use nom::Parser;

use crate::binary::shared::{CurveFrames, CurveTimeline};
use crate::binary::wire::{self, expect_end, item, name, named, section, In, PErr};
use crate::error::BinaryError;
use crate::Limits;

use super::animation::*;
use super::ast::Skeleton;
use super::meshes::MeshSink;
use super::read::Ctx;

/// A slot timeline as it is read: curve timelines unread.
pub enum SlotTimelineIn<'r, 'a> {
    /// `0`: attachment switches (borrowed from a buffer the reader reuses).
    Attachment(&'r [AttachmentKey]),
    /// `1`: RGBA bytes.
    Rgba(CurveFrames<'r, 'a, [u8; 4]>),
    /// `2`: RGB bytes.
    Rgb(CurveFrames<'r, 'a, [u8; 3]>),
    /// `3`: RGBA then dark RGB bytes.
    Rgba2(CurveFrames<'r, 'a, [u8; 7]>),
    /// `4`: RGB then dark RGB bytes.
    Rgb2(CurveFrames<'r, 'a, [u8; 6]>),
    /// `5`: alpha byte.
    Alpha(CurveFrames<'r, 'a, [u8; 1]>),
}

/// A bone timeline as it is read (the variants of [`BoneTimeline`]).
pub enum BoneTimelineIn<'r, 'a> {
    /// `0`
    Rotate(CurveFrames<'r, 'a, [f32; 1]>),
    /// `1`
    Translate(CurveFrames<'r, 'a, [f32; 2]>),
    /// `2`
    TranslateX(CurveFrames<'r, 'a, [f32; 1]>),
    /// `3`
    TranslateY(CurveFrames<'r, 'a, [f32; 1]>),
    /// `4`
    Scale(CurveFrames<'r, 'a, [f32; 2]>),
    /// `5`
    ScaleX(CurveFrames<'r, 'a, [f32; 1]>),
    /// `6`
    ScaleY(CurveFrames<'r, 'a, [f32; 1]>),
    /// `7`
    Shear(CurveFrames<'r, 'a, [f32; 2]>),
    /// `8`
    ShearX(CurveFrames<'r, 'a, [f32; 1]>),
    /// `9`
    ShearY(CurveFrames<'r, 'a, [f32; 1]>),
    /// `10` (4.2): inherit switches.
    Inherit(Vec<InheritKey>),
}

/// A path constraint timeline as it is read (the variants of [`PathTimeline`]).
pub enum PathTimelineIn<'r, 'a> {
    /// `0`: position.
    Position(CurveFrames<'r, 'a, [f32; 1]>),
    /// `1`: spacing.
    Spacing(CurveFrames<'r, 'a, [f32; 1]>),
    /// `2`: mix rotate, x, y.
    Mix(CurveFrames<'r, 'a, [f32; 3]>),
}

/// A physics constraint timeline as it is read (the variants of [`PhysicsTimeline`]).
pub enum PhysicsTimelineIn<'r, 'a> {
    /// A curve timeline of one property.
    Value(PhysicsProperty, CurveFrames<'r, 'a, [f32; 1]>),
    /// `8`: reset key times.
    Reset(Vec<f32>),
}

/// Receives one animation's sections in wire order (slot, bone, IK, transform, path,
/// physics, attachment timelines, draw order, events). Indices are raw and checked against
/// the skeleton's counts only; values are unscaled. Curve timelines arrive as unread
/// [`CurveFrames`]: a sink reads them with [`CurveFrames::read`] and must return the error
/// that read returns; a handle left unread is skipped.
pub trait AnimationSink {
    /// The animation starts: its name, the timeline count written first (raw) and a safe
    /// capacity for a timeline list (that count capped by what the rest of the input, or
    /// the replayed animation, can hold).
    fn begin(&mut self, name: &str, timeline_count: u32, capacity: usize);
    /// The next `timelines` slot timelines are of slot `slot`.
    fn slot_group(&mut self, slot: u32, timelines: usize);
    /// A slot timeline.
    fn slot_timeline(&mut self, t: SlotTimelineIn<'_, '_>) -> Result<(), BinaryError>;
    /// The next `timelines` bone timelines are of bone `bone`.
    fn bone_group(&mut self, bone: u32, timelines: usize);
    /// A bone timeline.
    fn bone_timeline(&mut self, t: BoneTimelineIn<'_, '_>) -> Result<(), BinaryError>;
    /// An IK constraint timeline.
    fn ik_timeline(&mut self, t: IkTimeline);
    /// A transform constraint timeline.
    fn transform_timeline(
        &mut self,
        constraint: u32,
        t: CurveFrames<'_, '_, [f32; 6]>,
    ) -> Result<(), BinaryError>;
    /// The next `timelines` path timelines are of path constraint `constraint`.
    fn path_group(&mut self, constraint: u32, timelines: usize);
    /// A path constraint timeline.
    fn path_timeline(&mut self, t: PathTimelineIn<'_, '_>) -> Result<(), BinaryError>;
    /// The next `timelines` physics timelines are of `constraint` (raw: `0` every physics
    /// constraint, `n` constraint `n - 1`).
    fn physics_group(&mut self, constraint: u32, timelines: usize);
    /// A physics constraint timeline.
    fn physics_timeline(&mut self, t: PhysicsTimelineIn<'_, '_>) -> Result<(), BinaryError>;
    /// The next `slots` slot groups of attachment timelines are of skin `skin`.
    fn attachment_skin(&mut self, skin: u32, slots: usize);
    /// The next `attachments` attachment timelines are of slot `slot`.
    fn attachment_slot(&mut self, slot: u32, attachments: usize);
    /// An attachment (deform or sequence) timeline of the attachment keyed `attachment`.
    fn attachment_timeline(&mut self, attachment: StrRef, t: AttachmentTimeline);
    /// The draw-order keys (called once, possibly with none).
    fn draw_order(&mut self, keys: Vec<DrawOrderKey>);
    /// The event keys (called once, possibly with none).
    fn events(&mut self, keys: Vec<EventKey>);
}

/// Builds the raw AST [`Animation`] (the sink behind [`super::parse`]).
#[derive(Default)]
pub(super) struct AstSink {
    a: Option<Animation>,
}

impl AstSink {
    fn a(&mut self) -> &mut Animation {
        self.a.get_or_insert_with(|| Animation {
            name: crate::Name::default(),
            timeline_count: 0,
            slots: Vec::new(),
            slot_timelines: Vec::new(),
            bones: Vec::new(),
            bone_timelines: Vec::new(),
            ik: Vec::new(),
            transform: Vec::new(),
            path: Vec::new(),
            physics: Vec::new(),
            attachments: Vec::new(),
            draw_order: Vec::new(),
            events: Vec::new(),
        })
    }

    /// The animation built since the last call.
    pub(super) fn take(&mut self) -> Option<Animation> {
        self.a.take()
    }
}

fn keys<V: crate::binary::shared::Channels>(
    f: CurveFrames<'_, '_, V>,
) -> Result<CurveTimeline<V>, BinaryError> {
    let bezier_count = f.bezier_count();
    let mut frames = Vec::with_capacity(f.len());
    f.read(&mut frames)?;
    Ok(CurveTimeline { bezier_count, frames })
}

impl AnimationSink for AstSink {
    fn begin(&mut self, name: &str, timeline_count: u32, _: usize) {
        let a = self.a();
        a.name = name.into();
        a.timeline_count = timeline_count;
    }
    fn slot_group(&mut self, slot: u32, timelines: usize) {
        let a = self.a();
        a.slots.push(SlotTimelines { slot, count: timelines as u32 });
        a.slot_timelines.reserve(timelines);
    }
    fn slot_timeline(&mut self, t: SlotTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        let t = match t {
            SlotTimelineIn::Attachment(k) => SlotTimeline::Attachment(k.to_vec()),
            SlotTimelineIn::Rgba(f) => SlotTimeline::Rgba(keys(f)?),
            SlotTimelineIn::Rgb(f) => SlotTimeline::Rgb(keys(f)?),
            SlotTimelineIn::Rgba2(f) => SlotTimeline::Rgba2(keys(f)?),
            SlotTimelineIn::Rgb2(f) => SlotTimeline::Rgb2(keys(f)?),
            SlotTimelineIn::Alpha(f) => SlotTimeline::Alpha(keys(f)?),
        };
        self.a().slot_timelines.push(t);
        Ok(())
    }
    fn bone_group(&mut self, bone: u32, timelines: usize) {
        let a = self.a();
        a.bones.push(BoneTimelines { bone, count: timelines as u32 });
        a.bone_timelines.reserve(timelines);
    }
    fn bone_timeline(&mut self, t: BoneTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        use BoneTimelineIn as I;
        let t = match t {
            I::Rotate(f) => BoneTimeline::Rotate(keys(f)?),
            I::Translate(f) => BoneTimeline::Translate(keys(f)?),
            I::TranslateX(f) => BoneTimeline::TranslateX(keys(f)?),
            I::TranslateY(f) => BoneTimeline::TranslateY(keys(f)?),
            I::Scale(f) => BoneTimeline::Scale(keys(f)?),
            I::ScaleX(f) => BoneTimeline::ScaleX(keys(f)?),
            I::ScaleY(f) => BoneTimeline::ScaleY(keys(f)?),
            I::Shear(f) => BoneTimeline::Shear(keys(f)?),
            I::ShearX(f) => BoneTimeline::ShearX(keys(f)?),
            I::ShearY(f) => BoneTimeline::ShearY(keys(f)?),
            I::Inherit(k) => BoneTimeline::Inherit(k),
        };
        self.a().bone_timelines.push(t);
        Ok(())
    }
    fn ik_timeline(&mut self, t: IkTimeline) {
        self.a().ik.push(t);
    }
    fn transform_timeline(
        &mut self,
        constraint: u32,
        t: CurveFrames<'_, '_, [f32; 6]>,
    ) -> Result<(), BinaryError> {
        let timeline = keys(t)?;
        self.a().transform.push(TransformTimeline { constraint, timeline });
        Ok(())
    }
    fn path_group(&mut self, constraint: u32, timelines: usize) {
        self.a().path.push(PathTimelines { constraint, timelines: Vec::with_capacity(timelines) });
    }
    fn path_timeline(&mut self, t: PathTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        let t = match t {
            PathTimelineIn::Position(f) => PathTimeline::Position(keys(f)?),
            PathTimelineIn::Spacing(f) => PathTimeline::Spacing(keys(f)?),
            PathTimelineIn::Mix(f) => PathTimeline::Mix(keys(f)?),
        };
        if let Some(g) = self.a().path.last_mut() {
            g.timelines.push(t);
        }
        Ok(())
    }
    fn physics_group(&mut self, constraint: u32, timelines: usize) {
        let g = PhysicsTimelines { constraint, timelines: Vec::with_capacity(timelines) };
        self.a().physics.push(g);
    }
    fn physics_timeline(&mut self, t: PhysicsTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        let t = match t {
            PhysicsTimelineIn::Value(p, f) => PhysicsTimeline::Value(p, keys(f)?),
            PhysicsTimelineIn::Reset(times) => PhysicsTimeline::Reset(times),
        };
        if let Some(g) = self.a().physics.last_mut() {
            g.timelines.push(t);
        }
        Ok(())
    }
    fn attachment_skin(&mut self, skin: u32, slots: usize) {
        self.a().attachments.push(SkinTimelines { skin, slots: Vec::with_capacity(slots) });
    }
    fn attachment_slot(&mut self, slot: u32, attachments: usize) {
        if let Some(s) = self.a().attachments.last_mut() {
            let attachments = Vec::with_capacity(attachments);
            s.slots.push(SlotAttachmentTimelines { slot, attachments });
        }
    }
    fn attachment_timeline(&mut self, attachment: StrRef, timeline: AttachmentTimeline) {
        if let Some(s) = self.a().attachments.last_mut().and_then(|s| s.slots.last_mut()) {
            s.attachments.push(AttachmentTimelineEntry { attachment, timeline });
        }
    }
    fn draw_order(&mut self, keys: Vec<DrawOrderKey>) {
        self.a().draw_order = keys;
    }
    fn events(&mut self, keys: Vec<EventKey>) {
        self.a().events = keys;
    }
}

impl Animation {
    /// Feeds this animation to `sink` in wire order, as [`Animations::read_next`] would from
    /// the bytes it was parsed from (IK, attachment, draw-order and event sections are cloned).
    pub fn replay<S: AnimationSink>(&self, sink: &mut S) -> Result<(), BinaryError> {
        let paths: usize = self.path.iter().map(|p| p.timelines.len()).sum();
        let physics: usize = self.physics.iter().map(|p| p.timelines.len()).sum();
        let attachments: usize =
            self.attachments.iter().flat_map(|s| &s.slots).map(|s| s.attachments.len()).sum();
        let total = self.slot_timelines.len()
            + self.bone_timelines.len()
            + self.ik.len()
            + self.transform.len()
            + paths
            + physics
            + attachments
            + 2;
        sink.begin(&self.name, self.timeline_count, (self.timeline_count as usize).min(total));
        for (slot, timelines) in self.slot_groups() {
            sink.slot_group(slot, timelines.len());
            for t in timelines {
                sink.slot_timeline(match t {
                    SlotTimeline::Attachment(k) => SlotTimelineIn::Attachment(k),
                    SlotTimeline::Rgba(t) => SlotTimelineIn::Rgba(CurveFrames::replay(t)),
                    SlotTimeline::Rgb(t) => SlotTimelineIn::Rgb(CurveFrames::replay(t)),
                    SlotTimeline::Rgba2(t) => SlotTimelineIn::Rgba2(CurveFrames::replay(t)),
                    SlotTimeline::Rgb2(t) => SlotTimelineIn::Rgb2(CurveFrames::replay(t)),
                    SlotTimeline::Alpha(t) => SlotTimelineIn::Alpha(CurveFrames::replay(t)),
                })?;
            }
        }
        for (bone, timelines) in self.bone_groups() {
            sink.bone_group(bone, timelines.len());
            for t in timelines {
                use BoneTimelineIn as I;
                use CurveFrames as F;
                sink.bone_timeline(match t {
                    BoneTimeline::Rotate(t) => I::Rotate(F::replay(t)),
                    BoneTimeline::Translate(t) => I::Translate(F::replay(t)),
                    BoneTimeline::TranslateX(t) => I::TranslateX(F::replay(t)),
                    BoneTimeline::TranslateY(t) => I::TranslateY(F::replay(t)),
                    BoneTimeline::Scale(t) => I::Scale(F::replay(t)),
                    BoneTimeline::ScaleX(t) => I::ScaleX(F::replay(t)),
                    BoneTimeline::ScaleY(t) => I::ScaleY(F::replay(t)),
                    BoneTimeline::Shear(t) => I::Shear(F::replay(t)),
                    BoneTimeline::ShearX(t) => I::ShearX(F::replay(t)),
                    BoneTimeline::ShearY(t) => I::ShearY(F::replay(t)),
                    BoneTimeline::Inherit(k) => I::Inherit(k.clone()),
                })?;
            }
        }
        for t in &self.ik {
            sink.ik_timeline(t.clone());
        }
        for t in &self.transform {
            sink.transform_timeline(t.constraint, CurveFrames::replay(&t.timeline))?;
        }
        for p in &self.path {
            sink.path_group(p.constraint, p.timelines.len());
            for t in &p.timelines {
                sink.path_timeline(match t {
                    PathTimeline::Position(t) => PathTimelineIn::Position(CurveFrames::replay(t)),
                    PathTimeline::Spacing(t) => PathTimelineIn::Spacing(CurveFrames::replay(t)),
                    PathTimeline::Mix(t) => PathTimelineIn::Mix(CurveFrames::replay(t)),
                })?;
            }
        }
        for p in &self.physics {
            sink.physics_group(p.constraint, p.timelines.len());
            for t in &p.timelines {
                sink.physics_timeline(match t {
                    PhysicsTimeline::Value(p, t) => {
                        PhysicsTimelineIn::Value(*p, CurveFrames::replay(t))
                    }
                    PhysicsTimeline::Reset(k) => PhysicsTimelineIn::Reset(k.clone()),
                })?;
            }
        }
        for s in &self.attachments {
            sink.attachment_skin(s.skin, s.slots.len());
            for slot in &s.slots {
                sink.attachment_slot(slot.slot, slot.attachments.len());
                for e in &slot.attachments {
                    sink.attachment_timeline(e.attachment, e.timeline.clone());
                }
            }
        }
        sink.draw_order(self.draw_order.clone());
        sink.events(self.events.clone());
        Ok(())
    }
}

/// The animations of a skeleton, read one at a time (see [`parse_head`]).
pub struct Animations<'a> {
    /// The input at the next animation.
    rest: In<'a>,
    /// The file length (for error offsets).
    total: usize,
    c: Ctx,
    strings: Vec<&'a str>,
    len: usize,
    next: usize,
}

impl<'a> Animations<'a> {
    pub(super) fn new(
        rest: In<'a>,
        total: usize,
        c: Ctx,
        strings: Vec<&'a str>,
        len: usize,
    ) -> Result<Animations<'a>, BinaryError> {
        let a = Animations { rest, total, c, strings, len, next: 0 };
        if len == 0 {
            a.finish()?;
        }
        Ok(a)
    }

    /// After the last animation: every byte must be consumed.
    fn finish(&self) -> Result<(), BinaryError> {
        wire::finish(expect_end(self.rest), self.total)
    }

    /// The skeleton's string table (borrowed from the bytes; [`parse_head`] leaves
    /// [`Skeleton::strings`] empty). [`StrRef`]s resolve against it.
    pub fn strings(&self) -> &[&'a str] {
        &self.strings
    }

    /// Number of animations.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Bytes of input left for the animations not read yet.
    pub fn remaining_bytes(&self) -> usize {
        self.rest.len()
    }

    /// Whether the skeleton has no animations.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Reads the next animation into `sink`; `Ok(false)` when every animation was read.
    /// Reading the last one also checks that the input ends there.
    pub fn read_next<S: AnimationSink>(&mut self, sink: &mut S) -> Result<bool, BinaryError> {
        if self.next >= self.len {
            return Ok(false);
        }
        let (c, next) = (&self.c, self.next);
        let read = section("animations", |i| {
            item("animations", next, i, |i| {
                let (i, name) = name(&c.lim, "animation")(i)?;
                let above =
                    |e: PErr| e.in_named(name).in_item("animations", next).in_section("animations");
                named(name, i, |i| super::read_anim::read_animation(c, i, name, &above, sink))
            })
        })
        .parse(self.rest);
        match read {
            Ok((rest, ())) => self.rest = rest,
            Err(e) => return Err(wire::into_binary(e, self.total)),
        }
        self.next += 1;
        if self.next == self.len {
            self.finish()?;
        }
        Ok(true)
    }
}

/// Reads a 4.0, 4.1 or 4.2 skeleton up to its animations: the [`Skeleton`] (its
/// `animations` and `strings` empty: the string table, borrowed from `bytes`, is
/// [`Animations::strings`]) and a reader of the animations. Reading every animation with
/// [`Animations::read_next`] reports exactly the errors [`super::parse_with_limits`] does.
pub fn parse_head<'a>(
    bytes: &'a [u8],
    limits: &Limits,
) -> Result<(Skeleton, Animations<'a>), BinaryError> {
    super::read::parse_head(bytes, *limits, true, None)
}

/// [`parse_head`] for a loader that does not keep the editor's bone icons: each
/// [`BoneExtras::icon`](super::ast::BoneExtras::icon) is read and checked (the same errors)
/// but left `None`, which saves copying one string per bone. Everything else is the same.
pub fn parse_head_without_icons<'a>(
    bytes: &'a [u8],
    limits: &Limits,
) -> Result<(Skeleton, Animations<'a>), BinaryError> {
    super::read::parse_head(bytes, *limits, false, None)
}

/// [`parse_head_without_icons`] for a loader that copies the meshes' arrays into its own
/// storage: in a 4.2 file each mesh's vertices, UVs, triangles and edges are lent to `sink`
/// as the mesh is read (from buffers reused for the next one) and left empty in the AST (a
/// weighted mesh's vertices stay [`Vertices::Weighted`](super::ast::Vertices::Weighted), so
/// the kind is known): the `k`-th call is the `k`-th mesh of the skins. 4.0 and 4.1 files
/// keep their arrays in the AST (`sink` is never called). The same errors as
/// [`parse_head`]; `sink` is dropped before this returns.
pub fn parse_head_meshes<'a>(
    bytes: &'a [u8],
    limits: &Limits,
    sink: MeshSink,
) -> Result<(Skeleton, Animations<'a>), BinaryError> {
    super::read::parse_head(bytes, *limits, false, Some(sink))
}
