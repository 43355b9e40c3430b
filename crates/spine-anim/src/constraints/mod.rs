//! Constraint runtime state and solvers.
//!
//! Each constraint of [`SkeletonData::constraints`] has one [`Constraint`] in
//! [`Skeleton::constraints`](crate::Skeleton::constraints) (same index). Timelines write the
//! pose fields (mixes, softness, …); the update cache calls the solver of each active
//! constraint through [`update`], which hands it a [`SolverCtx`] (mutable bones, read-only
//! slots, the skeleton's world frame, time and physics mode).
//!
//! Solvers: [`ik`], [`transform`] (4.2 / 3.8 / 4.3 from-to), [`path`] (spine-cpp 4.2),
//! [`physics`] (spine-cpp 4.2, and 4.3 behind
//! [`Behaviour::physics_lagged_offsets`](spine_model::Behaviour::physics_lagged_offsets)),
//! [`slider`] (4.3).

use spine_model::{ConstraintData, ConstraintKind, IkData, SkeletonData};

use crate::skeleton::{Bone, LocalCache, Physics, Slot, WorldFrame};

pub mod ik;
pub mod lazy43;
pub mod path;
pub mod physics;
pub(crate) use physics::Physics42;
pub mod slider;
pub mod transform;
mod transform43;

/// Everything a solver may read or write while the update cache runs.
pub struct SolverCtx<'a> {
    /// The setup data (attachments for path constraints, reference scale for physics).
    pub data: &'a SkeletonData,
    /// Every bone of the skeleton (index = [`BoneId`](spine_model::BoneId)); parents come
    /// before children.
    pub bones: &'a mut [Bone],
    /// Every slot (index = [`SlotId`](spine_model::SlotId)): attachment and deform for path
    /// constraints.
    pub slots: &'a [Slot],
    /// Skeleton position and scale (y-down already folded into `scale_y`).
    pub frame: WorldFrame,
    /// Skeleton time (advanced only by [`Skeleton::update`](crate::Skeleton::update)).
    pub time: f32,
    /// The skeleton time as the exact sum of the updates' deltas (see
    /// [`Skeleton::exact_time`](crate::Skeleton::exact_time)).
    pub time64: f64,
    /// Physics mode of this `update_world_transform` call.
    pub physics: Physics,
    /// The y axis points down (spine-cpp `Bone::yDown`; flips physics gravity).
    pub y_down: bool,
    /// Wind direction of the skeleton (4.3 physics).
    pub wind: [f32; 2],
    /// Gravity direction of the skeleton (4.3 physics).
    pub gravity: [f32; 2],
}

/// IK pose (what IK timelines write; spine-cpp `IkConstraint` fields).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IkPose {
    /// Mix.
    pub mix: f32,
    /// Softness.
    pub softness: f32,
    /// Bend direction, ±1.
    pub bend_direction: i32,
    /// Compress.
    pub compress: bool,
    /// Stretch.
    pub stretch: bool,
}

/// Transform constraint pose: mixes rotate, x, y, scale x, scale y, shear y
/// (indices of [`spine_model::transform_slot`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TransformPose {
    /// Mixes.
    pub mixes: [f32; 6],
}

/// Path constraint pose plus the solver's scratch buffers.
#[derive(Debug, Clone, PartialEq)]
pub struct PathPose {
    /// Position.
    pub position: f32,
    /// Spacing.
    pub spacing: f32,
    /// Mix rotate.
    pub mix_rotate: f32,
    /// Mix x.
    pub mix_x: f32,
    /// Mix y.
    pub mix_y: f32,
    /// Reused buffers of the solver.
    pub scratch: path::PathScratch,
}

/// Physics constraint pose (timeline-driven values) plus the simulation state.
#[derive(Debug, Clone, PartialEq)]
pub struct PhysicsPose {
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
    /// Simulation state (not touched by `set_to_setup_pose`).
    pub state: physics::PhysicsState,
}

/// Slider pose (4.3).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SliderPose {
    /// Time.
    pub time: f32,
    /// Mix.
    pub mix: f32,
}

/// The type-specific runtime part of a constraint.
#[derive(Debug, Clone, PartialEq)]
pub enum ConstraintPose {
    /// IK.
    Ik(IkPose),
    /// Transform.
    Transform(TransformPose),
    /// Path.
    Path(PathPose),
    /// Physics.
    Physics(PhysicsPose),
    /// Slider.
    Slider(SliderPose),
}

/// The timeline-driven values of a constraint pose (no solver state or scratch buffers):
/// what a slider's animation may change for one frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PoseValues {
    /// IK.
    Ik(IkPose),
    /// Transform.
    Transform(TransformPose),
    /// Path: position, spacing, mix rotate, mix x, mix y.
    Path([f32; 5]),
    /// Physics: inertia, strength, damping, inverse mass, wind, gravity, mix.
    Physics([f32; 7]),
    /// Slider.
    Slider(SliderPose),
}

/// One constraint instance.
///
/// Laid out in this order (`repr(C)`) so that what the update cache reads every frame is
/// one run of bytes at the start: the IK caches, the flags, the pose's kind and an IK or
/// transform pose; the larger poses (path, physics state) and a slider's saved values
/// follow. Aligned to a cache line, so that an IK constraint's run is the first two lines
/// of the record and a transform constraint's the second alone (a test pins the layout).
#[derive(Debug, Clone, PartialEq)]
#[repr(C, align(64))]
pub struct Constraint {
    /// IK: the local-matrix caches of the bones the solver poses (see
    /// [`Bone::update_world_transform_cached`](crate::skeleton::Bone)); unused otherwise.
    local: [LocalCache; 2],
    /// Whether the update cache runs it (bones active, skin lists it when skin-required).
    pub active: bool,
    /// `slider_base` holds values to put back (tested every update without reading it).
    slider_saved: bool,
    /// Pose and state.
    pub pose: ConstraintPose,
    /// The pose values before a slider's animation changed them this frame (spine-cpp 4.3
    /// writes those into the constraint's *applied* pose, which every frame starts from the
    /// pose again): restored right after the constraint ran, see [`slider`].
    slider_base: Option<PoseValues>,
}

impl Constraint {
    /// A word of each cache line of the record the update cache reads (see
    /// `Skeleton::touch`): an IK constraint's caches on the first, and for both IK and
    /// transform constraints the pose on the second (a transform pose's last mix).
    #[inline]
    pub(crate) fn touch(&self) -> u32 {
        match &self.pose {
            ConstraintPose::Transform(t) => t.mixes.last().map_or(0, |m| m.to_bits()),
            ConstraintPose::Ik(p) => self.local[0].touch() ^ p.mix.to_bits(),
            _ => 0,
        }
    }

    /// A constraint in its setup pose, with fresh (reset) physics state.
    pub fn new(data: &ConstraintData) -> Constraint {
        let pose = match &data.kind {
            ConstraintKind::Ik(d) => ConstraintPose::Ik(ik_setup(d)),
            ConstraintKind::Transform(d) => {
                ConstraintPose::Transform(TransformPose { mixes: d.mixes })
            }
            ConstraintKind::Path(d) => ConstraintPose::Path(PathPose {
                position: d.position,
                spacing: d.spacing,
                mix_rotate: d.mix_rotate,
                mix_x: d.mix_x,
                mix_y: d.mix_y,
                scratch: path::PathScratch::default(),
            }),
            ConstraintKind::Physics(d) => ConstraintPose::Physics(PhysicsPose {
                inertia: d.inertia,
                strength: d.strength,
                damping: d.damping,
                mass_inverse: d.mass_inverse,
                wind: d.wind,
                gravity: d.gravity,
                mix: d.mix,
                state: physics::PhysicsState::new(),
            }),
            ConstraintKind::Slider(d) => {
                ConstraintPose::Slider(SliderPose { time: d.time, mix: d.mix })
            }
        };
        Constraint {
            active: false,
            slider_saved: false,
            pose,
            slider_base: None,
            local: Default::default(),
        }
    }

    /// The timeline-driven values of the pose.
    pub fn pose_values(&self) -> PoseValues {
        match &self.pose {
            ConstraintPose::Ik(p) => PoseValues::Ik(*p),
            ConstraintPose::Transform(p) => PoseValues::Transform(*p),
            ConstraintPose::Path(p) => {
                PoseValues::Path([p.position, p.spacing, p.mix_rotate, p.mix_x, p.mix_y])
            }
            ConstraintPose::Physics(p) => PoseValues::Physics([
                p.inertia,
                p.strength,
                p.damping,
                p.mass_inverse,
                p.wind,
                p.gravity,
                p.mix,
            ]),
            ConstraintPose::Slider(p) => PoseValues::Slider(*p),
        }
    }

    /// Sets the timeline-driven values of the pose (values of another type are ignored).
    pub fn set_pose_values(&mut self, v: PoseValues) {
        match (&mut self.pose, v) {
            (ConstraintPose::Ik(p), PoseValues::Ik(v)) => *p = v,
            (ConstraintPose::Transform(p), PoseValues::Transform(v)) => *p = v,
            (ConstraintPose::Path(p), PoseValues::Path(v)) => {
                [p.position, p.spacing, p.mix_rotate, p.mix_x, p.mix_y] = v;
            }
            (ConstraintPose::Physics(p), PoseValues::Physics(v)) => {
                [p.inertia, p.strength, p.damping, p.mass_inverse, p.wind, p.gravity, p.mix] = v;
            }
            (ConstraintPose::Slider(p), PoseValues::Slider(v)) => *p = v,
            _ => {}
        }
    }

    /// Whether a slider saved this constraint's pose values (see
    /// [`Constraint::restore_slider_base`]).
    #[inline]
    pub fn slider_saved(&self) -> bool {
        self.slider_saved
    }

    /// Saves the pose values, unless already saved, for
    /// [`Constraint::restore_slider_base`] (a slider is about to change them for one update).
    pub(crate) fn save_slider_base(&mut self) {
        if !self.slider_saved {
            self.slider_base = Some(self.pose_values());
            self.slider_saved = true;
        }
    }

    /// Puts back the pose values a slider saved, if any.
    #[cold]
    pub fn restore_slider_base(&mut self) {
        self.slider_saved = false;
        if let Some(v) = self.slider_base.take() {
            self.set_pose_values(v);
        }
    }

    /// spine-cpp `*Constraint::setToSetupPose`: the timeline-driven values back to setup
    /// (physics simulation state is kept).
    pub fn set_to_setup_pose(&mut self, data: &ConstraintData) {
        self.slider_base = None;
        self.slider_saved = false;
        match (&mut self.pose, &data.kind) {
            (ConstraintPose::Ik(p), ConstraintKind::Ik(d)) => *p = ik_setup(d),
            (ConstraintPose::Transform(p), ConstraintKind::Transform(d)) => p.mixes = d.mixes,
            (ConstraintPose::Path(p), ConstraintKind::Path(d)) => {
                p.position = d.position;
                p.spacing = d.spacing;
                p.mix_rotate = d.mix_rotate;
                p.mix_x = d.mix_x;
                p.mix_y = d.mix_y;
            }
            (ConstraintPose::Physics(p), ConstraintKind::Physics(d)) => {
                p.inertia = d.inertia;
                p.strength = d.strength;
                p.damping = d.damping;
                p.mass_inverse = d.mass_inverse;
                p.wind = d.wind;
                p.gravity = d.gravity;
                p.mix = d.mix;
            }
            (ConstraintPose::Slider(p), ConstraintKind::Slider(d)) => {
                p.time = d.time;
                p.mix = d.mix;
            }
            _ => {}
        }
    }
}

fn ik_setup(d: &IkData) -> IkPose {
    IkPose {
        mix: d.mix,
        softness: d.softness,
        bend_direction: d.bend_direction,
        compress: d.compress,
        stretch: d.stretch,
    }
}

/// Runs the solver of one constraint (called by the update cache for active constraints;
/// sliders excepted, see [`slider::update`]).
pub fn update(ctx: &mut SolverCtx<'_>, data: &ConstraintData, constraint: &mut Constraint) {
    if let ConstraintKind::Ik(d) = &data.kind {
        // The IK solvers read the applied poses without the deferred test, which only the
        // update cache's own walk may (see `Skeleton::update_cache`).
        for id in &d.bones {
            if let Some(b) = ctx.bones.get_mut(id.index()) {
                b.applied_mut();
            }
        }
    }
    update_in_cache(ctx, data, constraint);
}

/// [`update`] from `Skeleton::update_world_transform`'s walk of the update cache.
#[inline]
pub(crate) fn update_in_cache(
    ctx: &mut SolverCtx<'_>,
    data: &ConstraintData,
    constraint: &mut Constraint,
) {
    match (&data.kind, &mut constraint.pose) {
        (ConstraintKind::Ik(d), ConstraintPose::Ik(p)) => {
            ik::update_cached(ctx, d, p, Some(&mut constraint.local))
        }
        (ConstraintKind::Transform(d), ConstraintPose::Transform(p)) => {
            transform::update(ctx, d, p)
        }
        (ConstraintKind::Path(d), ConstraintPose::Path(p)) => path::update(ctx, d, p),
        (ConstraintKind::Physics(d), ConstraintPose::Physics(p)) => physics::update(ctx, d, p),
        // Sliders apply an animation, which needs the whole skeleton:
        // `Skeleton::update_world_transform` calls `slider::update` itself.
        _ => {}
    }
    // What a slider applied to this constraint held for this update only.
    if constraint.slider_saved {
        constraint.restore_slider_base();
    }
}

/// Two entries of the update cache, `first` then `second`, physics constraints paired by
/// `Skeleton::update_cache` (independent of each other): run side by side when both are 4.2
/// physics constraints, else one after the other. (Out of line: inlined, its two updates
/// crowded the registers of the walk's other arms.)
#[inline(never)]
pub(crate) fn update_pair_in_cache(
    ctx: &mut SolverCtx<'_>,
    constraints: &mut [Constraint],
    physics42: &[Physics42],
    (first, second): (u32, u32),
) {
    let data = ctx.data;
    let (i, j) = (first as usize, second as usize);
    let Ok([c0, c1]) = constraints.get_disjoint_mut([i, j]) else { return };
    // The data's fields from `physics42` (see `Skeleton`; empty unless the 4.2 solver runs
    // the data): the constraints' data records are read only when the pair is not two 4.2
    // physics constraints.
    match (&mut c0.pose, &mut c1.pose, physics42.get(i), physics42.get(j)) {
        (ConstraintPose::Physics(p0), ConstraintPose::Physics(p1), Some(k0), Some(k1)) => {
            physics::update_42_pair(ctx, (k0, p0), (k1, p1));
            for c in [c0, c1] {
                if c.slider_saved {
                    c.restore_slider_base();
                }
            }
        }
        _ => {
            let (Some(d0), Some(d1)) = (data.constraints.get(i), data.constraints.get(j)) else {
                return;
            };
            update_in_cache(ctx, d0, c0);
            update_in_cache(ctx, d1, c1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{align_of, offset_of, size_of};

    /// The record's layout is a measured choice (see [`Constraint`]): a change that moves the
    /// pose or grows the record should be re-measured (`BENCHMARKS.md`, "Memory" and the
    /// 10,000-instance figure), not slip in.
    #[test]
    fn constraint_record_keeps_its_measured_layout() {
        assert_eq!(align_of::<Constraint>(), 64);
        assert_eq!(size_of::<Constraint>(), 320);
        // The IK caches fill the first 72 bytes, the flags follow; an IK or transform pose
        // (24 bytes) lies within the second line with the pose's kind.
        assert_eq!(offset_of!(Constraint, active), 72);
        assert_eq!(offset_of!(Constraint, slider_saved), 73);
        assert_eq!(offset_of!(Constraint, pose), 80);
        assert_eq!(size_of::<IkPose>().max(size_of::<TransformPose>()), 24);
        let ik =
            IkPose { mix: 1.0, softness: 0.0, bend_direction: 1, compress: false, stretch: false };
        let poses =
            [ConstraintPose::Ik(ik), ConstraintPose::Transform(TransformPose { mixes: [0.0; 6] })];
        for pose in poses {
            let c = Constraint {
                local: Default::default(),
                active: true,
                slider_saved: false,
                pose,
                slider_base: None,
            };
            let base = &c as *const Constraint as usize;
            let (at, len) = match &c.pose {
                ConstraintPose::Ik(p) => (p as *const IkPose as usize, size_of::<IkPose>()),
                ConstraintPose::Transform(p) => {
                    (p as *const TransformPose as usize, size_of::<TransformPose>())
                }
                _ => unreachable!(),
            };
            let start = at - base;
            assert!((64..=128 - len).contains(&start), "pose at {start}: {:?}", c.pose);
        }
    }
}
