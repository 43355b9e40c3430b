//! Streaming 4.3 animations: the animation reader drives an [`AnimationSink`] instead of
//! building the raw AST, so a loader fills its own timelines straight from the wire (no
//! per-timeline key lists to build, walk and drop).
//!
//! [`super::parse_head`] reads everything before the animations; each
//! [`Animations::read_next_into`](super::Animations::read_next_into) reads one animation into
//! a sink. [`super::parse`] is the same reader with the AST builder as sink, and
//! [`Animation::replay`] feeds a parsed animation to a sink in wire order.

use crate::binary::shared::{CurveFrames, CurveTimeline, DrawOrderChange};
use crate::error::BinaryError;

use super::ast::*;

/// A slot timeline as it is read: curve timelines unread.
pub enum SlotTimelineIn<'r, 'a> {
    /// `0`: attachment switches.
    Attachment(Vec<AttachmentKey>),
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
    /// `10`: inherit switches.
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
    Property(PhysicsProperty, CurveFrames<'r, 'a, [f32; 1]>),
    /// `8`: reset key times.
    Reset(Vec<f32>),
}

/// A slider timeline as it is read (the variants of [`SliderTimeline`]).
pub enum SliderTimelineIn<'r, 'a> {
    /// `0`: time.
    Time(CurveFrames<'r, 'a, [f32; 1]>),
    /// `1`: mix.
    Mix(CurveFrames<'r, 'a, [f32; 1]>),
}

/// Receives one animation's sections in wire order (slot, bone, IK, transform, path,
/// physics, slider and attachment timelines, draw order, draw-order folders, events, the
/// color). Each group call precedes its group's timelines. A curve timeline arrives unread:
/// [`CurveFrames::read`] streams its keys; one left unread is skipped. An error a sink
/// returns stops the read and is returned as it is (an error reading a curve timeline's
/// keys is the reader's own, with its full section path, whatever the sink returns).
pub trait AnimationSink {
    /// A new animation named `name`; `timeline_hint` is the wire's timeline count and
    /// `capacity` that count capped by what the rest of the input can hold.
    fn begin(&mut self, name: &str, timeline_hint: u32, capacity: usize);
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
    /// A transform constraint timeline of constraint `constraint`.
    fn transform_timeline(
        &mut self,
        constraint: u32,
        t: CurveFrames<'_, '_, [f32; 6]>,
    ) -> Result<(), BinaryError>;
    /// The next `timelines` path timelines are of path constraint `constraint`.
    fn path_group(&mut self, constraint: u32, timelines: usize);
    /// A path constraint timeline.
    fn path_timeline(&mut self, t: PathTimelineIn<'_, '_>) -> Result<(), BinaryError>;
    /// The next `timelines` physics timelines are of `constraint` (`None`: every physics
    /// constraint).
    fn physics_group(&mut self, constraint: Option<u32>, timelines: usize);
    /// A physics constraint timeline.
    fn physics_timeline(&mut self, t: PhysicsTimelineIn<'_, '_>) -> Result<(), BinaryError>;
    /// The next `timelines` slider timelines are of slider constraint `constraint`.
    fn slider_group(&mut self, constraint: u32, timelines: usize);
    /// A slider timeline.
    fn slider_timeline(&mut self, t: SliderTimelineIn<'_, '_>) -> Result<(), BinaryError>;
    /// The deform and sequence timelines (called once, possibly with none).
    fn attachment_timelines(&mut self, skins: Vec<AttachmentTimelinesSkin>);
    /// A draw-order timeline of `keys` keys begins: first the skeleton's (`folder` `None`,
    /// always, possibly with no keys), then each draw-order folder's (`folder` its slots,
    /// whose indices the changes of its keys use).
    fn draw_order(&mut self, folder: Option<Vec<u32>>, keys: usize);
    /// A key of the draw-order timeline begun last (`changes` empty: the setup order).
    fn draw_order_key(&mut self, time: f32, changes: &[DrawOrderChange]);
    /// The draw-order timeline begun last ends.
    fn draw_order_end(&mut self);
    /// The event keys (called once, possibly with none).
    fn events(&mut self, keys: Vec<EventKey>);
    /// The nonessential animation color, last.
    fn color(&mut self, color: Option<[u8; 4]>);
}

/// Builds the raw AST [`Animation`] (the sink behind [`super::parse`]).
#[derive(Default)]
pub(super) struct AstSink {
    a: Animation,
}

impl AstSink {
    /// The animation built since the last call.
    pub(super) fn take(&mut self) -> Animation {
        std::mem::take(&mut self.a)
    }
}

/// The keys of `f` as a parsed timeline.
fn keys<V: crate::binary::shared::Channels>(
    f: CurveFrames<'_, '_, V>,
) -> Result<CurveTimeline<V>, BinaryError> {
    let bezier_count = f.bezier_count();
    let mut frames = Vec::with_capacity(f.len());
    f.read(&mut frames)?;
    Ok(CurveTimeline { bezier_count, frames })
}

impl AnimationSink for AstSink {
    fn begin(&mut self, name: &str, timeline_hint: u32, _: usize) {
        self.a.name = name.into();
        self.a.timeline_hint = timeline_hint;
    }
    fn slot_group(&mut self, slot: u32, timelines: usize) {
        self.a.slots.push(SlotTimelines { slot, timelines: Vec::with_capacity(timelines) });
    }
    fn slot_timeline(&mut self, t: SlotTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        let t = match t {
            SlotTimelineIn::Attachment(k) => SlotTimeline::Attachment(k),
            SlotTimelineIn::Rgba(f) => SlotTimeline::Rgba(keys(f)?),
            SlotTimelineIn::Rgb(f) => SlotTimeline::Rgb(keys(f)?),
            SlotTimelineIn::Rgba2(f) => SlotTimeline::Rgba2(keys(f)?),
            SlotTimelineIn::Rgb2(f) => SlotTimeline::Rgb2(keys(f)?),
            SlotTimelineIn::Alpha(f) => SlotTimeline::Alpha(keys(f)?),
        };
        if let Some(g) = self.a.slots.last_mut() {
            g.timelines.push(t);
        }
        Ok(())
    }
    fn bone_group(&mut self, bone: u32, timelines: usize) {
        self.a.bones.push(BoneTimelines { bone, timelines: Vec::with_capacity(timelines) });
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
        if let Some(g) = self.a.bones.last_mut() {
            g.timelines.push(t);
        }
        Ok(())
    }
    fn ik_timeline(&mut self, t: IkTimeline) {
        self.a.ik.push(t);
    }
    fn transform_timeline(
        &mut self,
        constraint: u32,
        t: CurveFrames<'_, '_, [f32; 6]>,
    ) -> Result<(), BinaryError> {
        let timeline = keys(t)?;
        self.a.transform.push(TransformTimeline { constraint, timeline });
        Ok(())
    }
    fn path_group(&mut self, constraint: u32, timelines: usize) {
        let g = PathTimelines { constraint, timelines: Vec::with_capacity(timelines) };
        self.a.path.push(g);
    }
    fn path_timeline(&mut self, t: PathTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        let t = match t {
            PathTimelineIn::Position(f) => PathTimeline::Position(keys(f)?),
            PathTimelineIn::Spacing(f) => PathTimeline::Spacing(keys(f)?),
            PathTimelineIn::Mix(f) => PathTimeline::Mix(keys(f)?),
        };
        if let Some(g) = self.a.path.last_mut() {
            g.timelines.push(t);
        }
        Ok(())
    }
    fn physics_group(&mut self, constraint: Option<u32>, timelines: usize) {
        let g = PhysicsTimelines { constraint, timelines: Vec::with_capacity(timelines) };
        self.a.physics.push(g);
    }
    fn physics_timeline(&mut self, t: PhysicsTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        let t = match t {
            PhysicsTimelineIn::Property(p, f) => PhysicsTimeline::Property(p, keys(f)?),
            PhysicsTimelineIn::Reset(times) => PhysicsTimeline::Reset(times),
        };
        if let Some(g) = self.a.physics.last_mut() {
            g.timelines.push(t);
        }
        Ok(())
    }
    fn slider_group(&mut self, constraint: u32, timelines: usize) {
        let g = SliderTimelines { constraint, timelines: Vec::with_capacity(timelines) };
        self.a.slider.push(g);
    }
    fn slider_timeline(&mut self, t: SliderTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        let t = match t {
            SliderTimelineIn::Time(f) => SliderTimeline::Time(keys(f)?),
            SliderTimelineIn::Mix(f) => SliderTimeline::Mix(keys(f)?),
        };
        if let Some(g) = self.a.slider.last_mut() {
            g.timelines.push(t);
        }
        Ok(())
    }
    fn attachment_timelines(&mut self, skins: Vec<AttachmentTimelinesSkin>) {
        self.a.attachments = skins;
    }
    fn draw_order(&mut self, folder: Option<Vec<u32>>, keys: usize) {
        match folder {
            None => self.a.draw_order = Vec::with_capacity(keys),
            Some(slots) => {
                let f = DrawOrderFolder { slots, keys: Vec::with_capacity(keys) };
                self.a.draw_order_folders.push(f);
            }
        }
    }
    fn draw_order_key(&mut self, time: f32, changes: &[DrawOrderChange]) {
        let keys = match self.a.draw_order_folders.last_mut() {
            Some(f) => &mut f.keys,
            None => &mut self.a.draw_order,
        };
        keys.push(DrawOrderKey { time, changes: changes.to_vec() });
    }
    fn draw_order_end(&mut self) {}
    fn events(&mut self, keys: Vec<EventKey>) {
        self.a.events = keys;
    }
    fn color(&mut self, color: Option<[u8; 4]>) {
        self.a.color = color;
    }
}

impl Animation {
    /// Feeds this animation to `sink` in wire order, as
    /// [`Animations::read_next_into`](super::Animations::read_next_into) would from the
    /// bytes it was parsed from (the sections that are not curve timelines are cloned).
    pub fn replay<S: AnimationSink>(&self, sink: &mut S) -> Result<(), BinaryError> {
        use CurveFrames as F;
        let timelines = self.slots.iter().map(|g| g.timelines.len()).sum::<usize>()
            + self.bones.iter().map(|g| g.timelines.len()).sum::<usize>()
            + self.ik.len()
            + self.transform.len()
            + self.path.iter().map(|g| g.timelines.len()).sum::<usize>()
            + self.physics.iter().map(|g| g.timelines.len()).sum::<usize>()
            + self.slider.iter().map(|g| g.timelines.len()).sum::<usize>()
            + self
                .attachments
                .iter()
                .flat_map(|s| &s.slots)
                .map(|s| s.attachments.len())
                .sum::<usize>()
            + self.draw_order_folders.len()
            + 2;
        sink.begin(&self.name, self.timeline_hint, (self.timeline_hint as usize).min(timelines));
        for g in &self.slots {
            sink.slot_group(g.slot, g.timelines.len());
            for t in &g.timelines {
                sink.slot_timeline(match t {
                    SlotTimeline::Attachment(k) => SlotTimelineIn::Attachment(k.clone()),
                    SlotTimeline::Rgba(t) => SlotTimelineIn::Rgba(F::replay(t)),
                    SlotTimeline::Rgb(t) => SlotTimelineIn::Rgb(F::replay(t)),
                    SlotTimeline::Rgba2(t) => SlotTimelineIn::Rgba2(F::replay(t)),
                    SlotTimeline::Rgb2(t) => SlotTimelineIn::Rgb2(F::replay(t)),
                    SlotTimeline::Alpha(t) => SlotTimelineIn::Alpha(F::replay(t)),
                })?;
            }
        }
        for g in &self.bones {
            sink.bone_group(g.bone, g.timelines.len());
            for t in &g.timelines {
                use BoneTimelineIn as I;
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
            sink.transform_timeline(t.constraint, F::replay(&t.timeline))?;
        }
        self.replay_constraints(sink)?;
        sink.attachment_timelines(self.attachments.clone());
        for (folder, keys) in std::iter::once((None, &self.draw_order))
            .chain(self.draw_order_folders.iter().map(|f| (Some(f.slots.clone()), &f.keys)))
        {
            sink.draw_order(folder, keys.len());
            for k in keys {
                sink.draw_order_key(k.time, &k.changes);
            }
            sink.draw_order_end();
        }
        sink.events(self.events.clone());
        sink.color(self.color);
        Ok(())
    }

    /// The path, physics and slider timelines of [`Animation::replay`].
    fn replay_constraints<S: AnimationSink>(&self, sink: &mut S) -> Result<(), BinaryError> {
        use CurveFrames as F;
        for g in &self.path {
            sink.path_group(g.constraint, g.timelines.len());
            for t in &g.timelines {
                sink.path_timeline(match t {
                    PathTimeline::Position(t) => PathTimelineIn::Position(F::replay(t)),
                    PathTimeline::Spacing(t) => PathTimelineIn::Spacing(F::replay(t)),
                    PathTimeline::Mix(t) => PathTimelineIn::Mix(F::replay(t)),
                })?;
            }
        }
        for g in &self.physics {
            sink.physics_group(g.constraint, g.timelines.len());
            for t in &g.timelines {
                sink.physics_timeline(match t {
                    PhysicsTimeline::Property(p, t) => {
                        PhysicsTimelineIn::Property(*p, F::replay(t))
                    }
                    PhysicsTimeline::Reset(k) => PhysicsTimelineIn::Reset(k.clone()),
                })?;
            }
        }
        for g in &self.slider {
            sink.slider_group(g.constraint, g.timelines.len());
            for t in &g.timelines {
                sink.slider_timeline(match t {
                    SliderTimeline::Time(t) => SliderTimelineIn::Time(F::replay(t)),
                    SliderTimeline::Mix(t) => SliderTimelineIn::Mix(F::replay(t)),
                })?;
            }
        }
        Ok(())
    }
}
