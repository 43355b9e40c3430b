//! IK constraint solver (spine-cpp 4.2 `IkConstraint::update`, `apply` one/two bones).

use spine_model::IkData;

use super::{IkPose, SolverCtx};

/// Solves one IK constraint: rotates (and with stretch/compress scales) `data.bones` toward
/// `data.target`, blending by `pose.mix`, writing the bones' world transforms in
/// `ctx.bones`. **Stub: does nothing yet.**
pub fn update(ctx: &mut SolverCtx<'_>, data: &IkData, pose: &mut IkPose) {
    let _ = (ctx, data, pose);
}
