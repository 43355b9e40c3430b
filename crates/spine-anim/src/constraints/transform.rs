//! Transform constraint solver (spine-cpp 4.2 `TransformConstraint::update`; 4.3 from/to).

use spine_model::TransformData;

use super::{SolverCtx, TransformPose};

/// Solves one transform constraint on `ctx.bones` from `data.source` with `pose.mixes`
/// (honour [`TransformData::solver`]). **Stub: does nothing yet.**
pub fn update(ctx: &mut SolverCtx<'_>, data: &TransformData, pose: &mut TransformPose) {
    let _ = (ctx, data, pose);
}
