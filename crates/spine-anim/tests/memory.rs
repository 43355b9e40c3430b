//! Heap footprint of every 4.2 example rig: bytes held by the loaded `SkeletonData` (with its
//! atlas bound) and by one `Skeleton` instance (skin set, setup pose, world transforms), and
//! the allocation counts of a load, measured with a counting global allocator. Prints the
//! table (`cargo test -p spine-anim --test memory -- --nocapture`) and checks the budget
//! goal: a spineboy-pro `Skeleton` holds less than 64 KiB.
//!
//! One test only: the counter is process-wide, so no other test may run concurrently.

use std::alloc::System;
use std::sync::Arc;

use spine_anim::{Physics, Skeleton};
use spine_model::SkinId;
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Net bytes held after a region: `stats_alloc` already counts a `realloc`'s growth in
/// `bytes_allocated` (and a shrink in `bytes_deallocated`), so `bytes_reallocated` is not
/// added again (it was, before session 5: buffers grown while loading counted twice).
fn held(s: &stats_alloc::Stats) -> isize {
    s.bytes_allocated as isize - s.bytes_deallocated as isize
}

#[test]
fn heap_bytes_of_skeleton_data_and_skeleton_per_42_rig() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let dir = corpus.join("4.2");
    let mut rigs: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    rigs.sort();
    println!(
        "| rig | SkeletonData bytes | load allocations | Skeleton bytes | Skeleton allocations |"
    );
    println!("|---|---:|---:|---:|---:|");
    let mut spineboy = None;
    let mut measured = 0;
    for rig in rigs {
        let name = rig.file_name().unwrap().to_string_lossy().into_owned();
        let mut skels: Vec<_> = std::fs::read_dir(&rig)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "skel"))
            .collect();
        skels.sort();
        let atlas_path = rig.join(format!("{name}.atlas"));
        let atlas_text = std::fs::read_to_string(&atlas_path).ok();
        let atlas = atlas_text.as_deref().and_then(|t| spine_format::atlas::parse(t).ok());
        for skel in skels {
            let bytes = std::fs::read(&skel).unwrap();
            let file = skel.file_name().unwrap().to_string_lossy().into_owned();
            let region = Region::new(GLOBAL);
            let data = spine_model::load_binary(&bytes, atlas.as_ref())
                .or_else(|_| spine_model::load_binary(&bytes, None))
                .unwrap_or_else(|e| panic!("{file}: {e}"));
            let load = region.change();
            let data = Arc::new(data);
            let region = Region::new(GLOBAL);
            let mut sk = Skeleton::new(data.clone());
            if data.skins.len() > 1 {
                sk.set_skin(Some(SkinId::from_index(1)));
            }
            sk.set_to_setup_pose();
            sk.update_world_transform(Physics::Update);
            let inst = region.change();
            println!(
                "| {file} | {} | {} | {} | {} |",
                held(&load),
                load.allocations,
                held(&inst),
                inst.allocations
            );
            assert!(held(&load) > 0 && held(&inst) > 0, "{file}: the counter sees the heap");
            if file == "spineboy-pro.skel" {
                spineboy = Some(held(&inst));
            }
            measured += 1;
            drop(sk);
        }
    }
    assert!(measured >= 20, "{measured} rigs measured");
    let spineboy = spineboy.expect("spineboy-pro measured");
    assert!(spineboy < 64 * 1024, "spineboy-pro Skeleton holds {spineboy} bytes (budget 64 KiB)");
}
