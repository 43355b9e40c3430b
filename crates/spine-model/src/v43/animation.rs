//! 4.3 animations: [`AnimSink`] receives each timeline in wire order (streamed from the
//! bytes by `load_binary`, replayed from the AST by `from_binary`) and builds the model's
//! timelines; the curve timelines here, the keyed ones in [`super::keyed`].

use spine_format::binary::shared::{CurveFrames, DrawOrderChange};
use spine_format::binary::v43 as w;
use spine_format::binary::v43::stream as wst;
use spine_format::BinaryError;

use super::{inherit, Conv};
use crate::anim::*;
use crate::curves;
use crate::data::*;
use crate::ids::*;
use crate::timelines::{finish_streamed, path_scales, PathScales, Streamed};

/// The constraint at wire index `index`, checked to be of type `ty`.
pub(super) fn constraint_ref(c: &mut Conv<'_, '_>, index: u32, ty: ConstraintType) -> ConstraintId {
    let n = c.b.data.constraints.len();
    let i = c.b.check_index("constraint", index, n);
    if i as usize >= n {
        return ConstraintId(0);
    }
    c.b.constraint(ConstraintId(i), ty)
}

/// Builds one [`AnimationData`] from an animation read in wire order.
pub(super) struct AnimSink<'c, 'a, 'o> {
    /// The conversion.
    pub(super) c: &'c mut Conv<'a, 'o>,
    /// The animation's name.
    name: spine_format::Name,
    /// Its timelines so far.
    pub(super) tl: Vec<Timeline>,
    /// The last key time seen.
    duration: f32,
    /// The slot of the current slot group.
    slot: SlotId,
    /// The bone of the current bone group.
    bone: BoneId,
    /// The path constraint of the current path group and how its values scale.
    path: Option<(ConstraintId, PathScales)>,
    /// The physics constraint of the current physics group (`None` = all).
    physics: Option<ConstraintId>,
    /// The slider constraint of the current slider group.
    slider: ConstraintId,
    /// Indices in `tl` of curve tables with a value that may not be finite (checked, in
    /// order, when the animation ends).
    unchecked: Vec<usize>,
    /// The animation's keys ([`AnimationData::keys`]), given away when it ends.
    pub(super) keys: Vec<f32>,
    /// The draw-order timeline being read.
    pub(super) order: Option<super::keyed::OrderTimeline>,
    /// IK and deform timelines' buffers, reused.
    pub(super) scratch: crate::timelines::TableScratch,
}

impl<'c, 'a, 'o> AnimSink<'c, 'a, 'o> {
    /// A sink building into `c`'s skeleton.
    pub(super) fn new(c: &'c mut Conv<'a, 'o>) -> Self {
        AnimSink {
            c,
            name: spine_format::Name::default(),
            tl: Vec::new(),
            duration: 0.0,
            slot: SlotId(0),
            bone: BoneId(0),
            path: None,
            physics: None,
            slider: ConstraintId(0),
            unchecked: Vec::new(),
            keys: Vec::new(),
            order: None,
            scratch: crate::timelines::TableScratch::default(),
        }
    }

    /// Where a streamed curve table goes.
    fn out(&mut self) -> curves::KeyOut<'_> {
        curves::KeyOut { keys: &mut self.keys }
    }

    /// Extends the duration to `t`.
    pub(super) fn see(&mut self, t: f32) {
        self.duration = self.duration.max(t);
    }

    /// Adds a streamed curve timeline.
    fn push(&mut self, timeline: Timeline, s: curves::Streamed) {
        self.see(s.last_time);
        if !s.finite {
            self.unchecked.push(self.tl.len());
        }
        self.tl.push(timeline);
    }

    /// A float curve timeline's table, values (and bezier `cy`) times `scale`.
    fn floats<const N: usize>(
        &mut self,
        f: CurveFrames<'_, '_, [f32; N]>,
        scale: f32,
    ) -> Result<(Curves, curves::Streamed), BinaryError>
    where
        [f32; N]: spine_format::binary::shared::Channels<Beziers = [[f32; 4]; N]>,
    {
        curves::stream_floats(self.out(), f, scale)
    }

    /// Checks the curve tables and adds the animation (after its color).
    pub(super) fn finish(&mut self) {
        let streamed = Streamed {
            name: &mut self.name,
            duration: self.duration,
            timelines: &mut self.tl,
            keys: &mut self.keys,
            unchecked: &mut self.unchecked,
        };
        finish_streamed(&mut self.c.b, streamed);
    }
}

impl wst::AnimationSink for AnimSink<'_, '_, '_> {
    fn begin(&mut self, name: &str, _: u32, capacity: usize) {
        self.c.b.enter("animation", name);
        self.name = name.into();
        // The wire's timeline count (exact for editor exports), capped by the input and by
        // `TIMELINE_RESERVE`.
        self.tl = timeline_list(capacity);
        self.duration = 0.0;
    }

    fn slot_group(&mut self, slot: u32, _: usize) {
        self.slot = self.c.b.slot(slot);
    }

    fn slot_timeline(&mut self, t: wst::SlotTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        use curves::stream_colors as colors;
        use wst::SlotTimelineIn as I;
        let slot = self.slot;
        let (property, (curves, streamed)) = match t {
            I::Attachment(keys) => {
                self.attachment_keys(slot, &keys);
                return Ok(());
            }
            I::Rgba(f) => (ColorProperty::Rgba, colors(self.out(), f)?),
            I::Rgb(f) => (ColorProperty::Rgb, colors(self.out(), f)?),
            I::Rgba2(f) => (ColorProperty::Rgba2, colors(self.out(), f)?),
            I::Rgb2(f) => (ColorProperty::Rgb2, colors(self.out(), f)?),
            I::Alpha(f) => (ColorProperty::Alpha, colors(self.out(), f)?),
        };
        self.push(Timeline::Color { slot, property, curves }, streamed);
        Ok(())
    }

    fn bone_group(&mut self, bone: u32, _: usize) {
        self.bone = self.c.b.bone(bone);
    }

    fn bone_timeline(&mut self, t: wst::BoneTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        use wst::BoneTimelineIn as I;
        use BoneProperty as P;
        let bone = self.bone;
        let scale = self.c.b.scale;
        let (property, (curves, streamed)) = match t {
            I::Rotate(f) => (P::Rotate, self.floats(f, 1.0)?),
            I::Translate(f) => (P::Translate, self.floats(f, scale)?),
            I::TranslateX(f) => (P::TranslateX, self.floats(f, scale)?),
            I::TranslateY(f) => (P::TranslateY, self.floats(f, scale)?),
            I::Scale(f) => (P::Scale, self.floats(f, 1.0)?),
            I::ScaleX(f) => (P::ScaleX, self.floats(f, 1.0)?),
            I::ScaleY(f) => (P::ScaleY, self.floats(f, 1.0)?),
            I::Shear(f) => (P::Shear, self.floats(f, 1.0)?),
            I::ShearX(f) => (P::ShearX, self.floats(f, 1.0)?),
            I::ShearY(f) => (P::ShearY, self.floats(f, 1.0)?),
            I::Inherit(keys) => {
                self.see(keys.last().map_or(0.0, |k| k.time));
                let keys = keys.iter().map(|k| (k.time, inherit(k.inherit))).collect();
                self.tl.push(Timeline::Inherit { bone, keys });
                return Ok(());
            }
        };
        self.push(Timeline::Bone { bone, property, curves }, streamed);
        Ok(())
    }

    fn ik_timeline(&mut self, t: w::IkTimeline) {
        self.ik(&t);
    }

    fn transform_timeline(
        &mut self,
        constraint: u32,
        t: CurveFrames<'_, '_, [f32; 6]>,
    ) -> Result<(), BinaryError> {
        let constraint = constraint_ref(self.c, constraint, ConstraintType::Transform);
        let (curves, streamed) = self.floats(t, 1.0)?;
        self.push(Timeline::Transform { constraint, curves }, streamed);
        Ok(())
    }

    fn path_group(&mut self, constraint: u32, _: usize) {
        let constraint = constraint_ref(self.c, constraint, ConstraintType::Path);
        self.path = Some((constraint, path_scales(&self.c.b, constraint)));
    }

    fn path_timeline(&mut self, t: wst::PathTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        use wst::PathTimelineIn as I;
        let Some((constraint, scales)) = self.path else { return Ok(()) };
        let (property, (curves, streamed)) = match t {
            I::Position(f) => (PathProperty::Position, self.floats(f, scales.position)?),
            I::Spacing(f) => (PathProperty::Spacing, self.floats(f, scales.spacing)?),
            I::Mix(f) => (PathProperty::Mix, self.floats(f, 1.0)?),
        };
        self.push(Timeline::Path { constraint, property, curves }, streamed);
        Ok(())
    }

    fn physics_group(&mut self, constraint: Option<u32>, _: usize) {
        self.physics = constraint.map(|i| constraint_ref(self.c, i, ConstraintType::Physics));
    }

    fn physics_timeline(&mut self, t: wst::PhysicsTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        let constraint = self.physics;
        match t {
            wst::PhysicsTimelineIn::Property(p, f) => {
                use w::PhysicsProperty as W;
                let property = match p {
                    W::Inertia => PhysicsProperty::Inertia,
                    W::Strength => PhysicsProperty::Strength,
                    W::Damping => PhysicsProperty::Damping,
                    W::Mass => PhysicsProperty::Mass,
                    W::Wind => PhysicsProperty::Wind,
                    W::Gravity => PhysicsProperty::Gravity,
                    W::Mix => PhysicsProperty::Mix,
                };
                let (curves, streamed) = self.floats(f, 1.0)?;
                self.push(Timeline::Physics { constraint, property, curves }, streamed);
            }
            wst::PhysicsTimelineIn::Reset(times) => {
                self.see(times.last().copied().unwrap_or(0.0));
                self.tl.push(Timeline::PhysicsReset { constraint, times });
            }
        }
        Ok(())
    }

    fn slider_group(&mut self, constraint: u32, _: usize) {
        self.slider = constraint_ref(self.c, constraint, ConstraintType::Slider);
    }

    fn slider_timeline(&mut self, t: wst::SliderTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        let constraint = self.slider;
        let (property, (curves, streamed)) = match t {
            wst::SliderTimelineIn::Time(f) => (SliderProperty::Time, self.floats(f, 1.0)?),
            wst::SliderTimelineIn::Mix(f) => (SliderProperty::Mix, self.floats(f, 1.0)?),
        };
        self.push(Timeline::Slider { constraint, property, curves }, streamed);
        Ok(())
    }

    fn attachment_timelines(&mut self, skins: Vec<w::AttachmentTimelinesSkin>) {
        for sk in &skins {
            self.attachment_skin(sk);
        }
    }

    fn draw_order(&mut self, folder: Option<Vec<u32>>, keys: usize) {
        self.begin_draw_order(folder, keys);
    }

    fn draw_order_key(&mut self, time: f32, changes: &[DrawOrderChange]) {
        self.draw_order_key(time, changes);
    }

    fn draw_order_end(&mut self) {
        self.end_draw_order();
    }

    fn events(&mut self, keys: Vec<w::EventKey>) {
        self.event_keys(keys);
    }

    fn color(&mut self, _: Option<[u8; 4]>) {}
}
