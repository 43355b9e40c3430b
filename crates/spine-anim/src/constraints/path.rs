//! Path constraint solver (spine-cpp 4.2 `PathConstraint::update`).

use spine_model::PathData;

use super::{PathPose, SolverCtx};

/// Buffers reused by the path solver between frames (no allocation after warm-up).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PathScratch {
    /// Spaces.
    pub spaces: Vec<f32>,
    /// Positions.
    pub positions: Vec<f32>,
    /// World vertices of the path.
    pub world: Vec<f32>,
    /// Curve lengths.
    pub curves: Vec<f32>,
    /// Bone lengths.
    pub lengths: Vec<f32>,
    /// Segments.
    pub segments: Vec<f32>,
}

/// Solves one path constraint: places `data.bones` along the path attachment of
/// `data.slot` (`ctx.slots`, deform included). **Stub: does nothing yet.**
pub fn update(ctx: &mut SolverCtx<'_>, data: &PathData, pose: &mut PathPose) {
    let _ = (ctx, data, pose);
}
