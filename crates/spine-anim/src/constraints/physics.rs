//! Physics constraint solver (spine-cpp 4.2 `PhysicsConstraint::update`).

use spine_model::PhysicsData;

use super::{PhysicsPose, SolverCtx};

/// Simulation state of a physics constraint (spine-cpp 4.2 fields of the same names).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PhysicsState {
    /// Next update only records the bone position.
    pub reset: bool,
    /// Last bone world x.
    pub ux: f32,
    /// Last bone world y.
    pub uy: f32,
    /// Last center x.
    pub cx: f32,
    /// Last center y.
    pub cy: f32,
    /// Last tip x.
    pub tx: f32,
    /// Last tip y.
    pub ty: f32,
    /// X offset.
    pub x_offset: f32,
    /// X velocity.
    pub x_velocity: f32,
    /// Y offset.
    pub y_offset: f32,
    /// Y velocity.
    pub y_velocity: f32,
    /// Rotate offset.
    pub rotate_offset: f32,
    /// Rotate velocity.
    pub rotate_velocity: f32,
    /// Scale offset.
    pub scale_offset: f32,
    /// Scale velocity.
    pub scale_velocity: f32,
    /// Unsimulated time.
    pub remaining: f32,
    /// Skeleton time of the last update.
    pub last_time: f32,
}

impl PhysicsState {
    /// The constructor state (`_reset = true`, everything else 0).
    pub fn new() -> PhysicsState {
        PhysicsState { reset: true, ..PhysicsState::default() }
    }

    /// spine-cpp `PhysicsConstraint::reset()` at skeleton time `time`.
    pub fn reset(&mut self, time: f32) {
        *self = PhysicsState { reset: true, last_time: time, ..PhysicsState::default() };
    }
}

/// Steps one physics constraint and applies its offsets to `data.bone` (nothing when
/// `ctx.physics` is [`Physics::None`](crate::Physics::None)). **Stub: does nothing yet.**
pub fn update(ctx: &mut SolverCtx<'_>, data: &PhysicsData, pose: &mut PhysicsPose) {
    let _ = (ctx, data, pose);
}
