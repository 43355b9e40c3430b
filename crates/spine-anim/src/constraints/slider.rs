//! Slider constraint solver (4.3).

use spine_model::SliderData;

use super::{SliderPose, SolverCtx};

/// Applies a slider constraint. **Stub: does nothing yet** (4.3 only; it poses an
/// animation, which needs the timeline machinery on bones only).
pub fn update(ctx: &mut SolverCtx<'_>, data: &SliderData, pose: &mut SliderPose) {
    let _ = (ctx, data, pose);
}
