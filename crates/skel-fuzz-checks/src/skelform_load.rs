//! Any bytes as a SkelForm document (zip archive or bare `armature.json`): `Ok` or a typed
//! error; a loaded armature animates and constructs every animation without panicking.

/// The `skelform_load` fuzz target's check (module docs).
pub fn check(data: &[u8]) {
    if let Ok(mut arm) = skelform::load(data) {
        for a in 0..arm.animations().len().min(4) {
            for frame in [0, 1, 7, 30] {
                arm.animate(&[skelform::AnimLayer { anim: a, frame, smooth: 0 }]);
                arm.construct();
            }
        }
    }
}
