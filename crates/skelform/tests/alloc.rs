//! Per-frame work allocates nothing after warm-up: a counting global allocator
//! (`stats_alloc`) around animate + construct (+ draw order into a reused buffer), over
//! every animation of both fixtures, sequential game-loop style, plus smoothing and two
//! animations at once. Built with `harness = false`: a single-threaded process, so the
//! global counter sees only this work.

use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};
use std::alloc::System;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

use skelform::AnimLayer;

fn main() {
    frames_do_not_allocate();
    println!("test frames_do_not_allocate ... ok");
    drawing_does_not_allocate();
    println!("test drawing_does_not_allocate ... ok");
}

/// animate + construct + draw into reused `RenderCommands` (cleared per frame), every
/// animation of both fixtures, after one warm-up pass over the same frames.
fn drawing_does_not_allocate() {
    let Some(dir) = skel_testkit::fixtures_dir() else { return };
    for name in ["skellina_v0.7.0.skf", "skellington_v0.7.0.skf"] {
        let bytes = std::fs::read(dir.join("skelform").join(name)).expect("fixture");
        let mut arm = skelform::load(&bytes).expect("load");
        let mut cmds = spine_render_traits::RenderCommands::new();
        let mut drawer = skelform::SkfDrawer::new(&arm, &mut cmds);
        arm.prepare();
        let mut run = |arm: &mut skelform::Armature| {
            let mut drawn = 0u64;
            for a in 0..arm.animations().len() {
                for counter in 0..120u32 {
                    let frame = arm.format_frame(a, counter, false, true);
                    arm.animate(&[AnimLayer { anim: a, frame, smooth: 0 }]);
                    arm.construct();
                    cmds.clear();
                    let stats = drawer.draw(arm, &mut cmds).expect("draw");
                    drawn += u64::from(stats.sprites + stats.meshes);
                }
            }
            drawn
        };
        run(&mut arm); // warm-up: buffers reach their steady-state capacity
        let region = Region::new(GLOBAL);
        let drawn = run(&mut arm);
        let change = region.change();
        println!(
            "{name}: {} allocations, {} reallocations over {drawn} bone draws",
            change.allocations, change.reallocations
        );
        assert_eq!(change.allocations, 0, "{name}: allocations while drawing");
        assert_eq!(change.reallocations, 0, "{name}: reallocations while drawing");
        assert!(drawn > 0);
    }
}

fn frames_do_not_allocate() {
    let Some(dir) = skel_testkit::fixtures_dir() else { return };
    for name in ["skellina_v0.7.0.skf", "skellington_v0.7.0.skf"] {
        let bytes = std::fs::read(dir.join("skelform").join(name)).expect("fixture");
        let mut arm = skelform::load(&bytes).expect("load");
        let mut order = Vec::new();
        let n = arm.animations().len();
        // Warm-up: easing tables (otherwise built on each animation's first use) and one
        // frame (buffers are sized at load).
        arm.prepare();
        arm.animate(&[AnimLayer { anim: 0, frame: 0, smooth: 0 }]);
        arm.construct();
        arm.draw_order_into(&mut order);
        let mut frames = 0u64;
        let region = Region::new(GLOBAL);
        for a in 0..n {
            for counter in 0..300u32 {
                let frame = arm.format_frame(a, counter, false, true);
                let smooth = if counter < 20 { 10 } else { 0 };
                arm.animate(&[AnimLayer { anim: a, frame, smooth }]);
                arm.construct();
                arm.draw_order_into(&mut order);
                frames += 1;
            }
            let b = (a + 1) % n;
            arm.animate(&[
                AnimLayer { anim: a, frame: 3, smooth: 0 },
                AnimLayer { anim: b, frame: 5, smooth: 0 },
            ]);
            arm.construct();
            frames += 1;
        }
        let change = region.change();
        println!(
            "{name}: {} allocations, {} reallocations, {} bytes over {frames} frames",
            change.allocations, change.reallocations, change.bytes_allocated
        );
        assert_eq!(change.allocations, 0, "{name}: allocations per frame");
        assert_eq!(change.reallocations, 0, "{name}: reallocations per frame");
        // The work happened: the pose is not the bind pose.
        assert!(arm.world().iter().any(|w| w.pos.x != 0.0));
    }
}
