//! Fixed-work driver for instruction counts (`valgrind --tool=callgrind`):
//! `skf_profile load <file.skf> <n>` runs `skelform::load` n times;
//! `skf_profile frame <file.skf> <animation index> <n>` runs n frames (format_frame +
//! animate + construct) after 600 warm-up frames; count only the measured ones with
//! `--toggle-collect='*measured_frame*'`; `skf_profile allocs <file.skf>` prints the heap
//! allocation calls of one load (a counting global allocator).

use skelform::AnimLayer;
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};
use std::alloc::System;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// One frame: format_frame + animate + construct.
#[inline(never)]
fn frame_step(arm: &mut skelform::Armature, anim: usize, counter: &mut u32) -> f32 {
    let frame = arm.format_frame(anim, *counter, false, true);
    *counter = counter.wrapping_add(1);
    arm.animate(&[AnimLayer { anim, frame, smooth: 0 }]);
    arm.construct();
    arm.world().first().map_or(0.0, |w| w.pos.x)
}

/// The measured frames (`--toggle-collect=*measured_frame*`).
#[inline(never)]
fn measured_frame(arm: &mut skelform::Armature, anim: usize, counter: &mut u32) -> f32 {
    frame_step(arm, anim, counter)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage =
        "usage: skf_profile load <file.skf> <n> | frame <file.skf> <anim> <n> | allocs <file.skf>";
    let (Some(mode), Some(path)) = (args.get(1), args.get(2)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let bytes = std::fs::read(path).expect("read fixture");
    let num = |i: usize| args.get(i).and_then(|s| s.parse::<u32>().ok());
    match mode.as_str() {
        "load" => {
            let n = num(3).unwrap_or(100);
            let mut bones = 0;
            for _ in 0..n {
                let arm = skelform::load(std::hint::black_box(&bytes)).expect("load");
                bones += arm.bones().len();
            }
            println!("{bones}");
        }
        "allocs" => {
            let region = Region::new(GLOBAL);
            let arm = skelform::load(std::hint::black_box(&bytes)).expect("load");
            let change = region.change();
            drop(arm);
            println!(
                "{} allocations, {} reallocations, {} bytes allocated in one load",
                change.allocations, change.reallocations, change.bytes_allocated
            );
        }
        "frame" => {
            let anim = num(3).unwrap_or(0) as usize;
            let n = num(4).unwrap_or(1000);
            let mut arm = skelform::load(&bytes).expect("load");
            arm.prepare();
            let mut counter = 0u32;
            let mut sum = 0.0f32;
            for _ in 0..600 {
                frame_step(&mut arm, anim, &mut counter);
            }
            for _ in 0..n {
                sum += measured_frame(&mut arm, anim, &mut counter);
            }
            println!("{sum}");
        }
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    }
}
