//! `Skeleton::update_world_transform` sets a bone's applied pose to its local pose at the
//! bone's first entry of the update cache (not in a pass over every bone before the walk),
//! and a later entry of the same bone (re-sorted after a constraint) reads the applied pose
//! as the constraints left it. Compared here with the walk as spine-cpp writes it, built
//! from public pieces: every applied pose reset first, then `update_order()` entry by
//! entry (`update_bone`, `constraints::update`). For every 4.2 rig (and the 3.5–4.1 binary
//! rigs) of the corpus, with skins switched (inactive bones), animations and physics: the
//! applied poses and world transforms of every bone are bit-identical every frame.

use std::sync::Arc;

use spine_anim::constraints::{self, SolverCtx};
use spine_anim::{
    update_bone, AnimationState, AnimationStateData, AppliedPose, Bone, Physics, Skeleton,
    UpdateEntry,
};
use spine_model::{AnimationId, SkeletonData, SkinId};

/// The bits of a bone's applied pose and world transform.
fn bits(b: &Bone) -> [u32; 13] {
    let p = b.applied();
    [
        p.x, p.y, p.rotation, p.scale_x, p.scale_y, p.shear_x, p.shear_y, b.a, b.b, b.c, b.d,
        b.world_x, b.world_y,
    ]
    .map(f32::to_bits)
}

/// spine-cpp 4.2 `Skeleton::updateWorldTransform`: every applied pose reset to the local
/// pose, then the update cache in order.
fn reference_walk(sk: &mut Skeleton, physics: Physics) {
    for b in &mut sk.bones {
        let (x, y, rotation) = (b.x, b.y, b.rotation);
        let (scale_x, scale_y, shear_x, shear_y) = (b.scale_x, b.scale_y, b.shear_x, b.shear_y);
        b.set_applied(AppliedPose { x, y, rotation, scale_x, scale_y, shear_x, shear_y });
    }
    let frame = sk.frame();
    let order = sk.update_order().to_vec();
    let data = sk.data.clone();
    for entry in order {
        match entry {
            UpdateEntry::Bone(id) => update_bone(&mut sk.bones, id, &frame),
            UpdateEntry::Constraint(id) => {
                let time64 = sk.exact_time();
                let (Some(cd), Some(c)) =
                    (data.constraints.get(id.index()), sk.constraints.get_mut(id.index()))
                else {
                    continue;
                };
                let mut ctx = SolverCtx {
                    data: &data,
                    bones: &mut sk.bones,
                    slots: &sk.slots,
                    frame,
                    time: sk.time,
                    time64,
                    physics,
                    y_down: sk.y_down,
                    wind: sk.wind,
                    gravity: sk.gravity,
                };
                constraints::update(&mut ctx, cd, c);
            }
        }
    }
}

/// Plays `data` on two skeletons (one walked by `update_world_transform`, one by
/// [`reference_walk`]) and compares every bone every frame; returns (bone comparisons, bone
/// entries after the first of the same bone that ran, bones inactive for a skin).
fn compare_rig(data: &Arc<SkeletonData>) -> (usize, usize, usize) {
    let n = data.animations.len();
    if n == 0 {
        return (0, 0, 0);
    }
    let mut asd = AnimationStateData::new(data.clone());
    asd.default_mix = 0.2;
    let asd = Arc::new(asd);
    let mut state = [AnimationState::new(asd.clone()), AnimationState::new(asd)];
    let mut sk = [Skeleton::new(data.clone()), Skeleton::new(data.clone())];
    let (mut compared, mut again, mut inactive) = (0usize, 0usize, 0usize);
    let skins = data.skins.len();
    let dt = 1.0f32 / 30.0;
    for f in 0..60usize {
        if f % 20 == 0 {
            let anim = Some(AnimationId::from_index(f / 20 * n / 3));
            let skin =
                (f / 20 % (skins + 1) < skins).then_some(SkinId::from_index(f / 20 % (skins + 1)));
            for (st, s) in state.iter_mut().zip(&mut sk) {
                st.set_animation(0, anim, true);
                s.set_skin(skin);
                s.set_slots_to_setup_pose();
            }
            inactive += sk[0].bones.iter().filter(|b| !b.active).count();
            let order = sk[0].update_order();
            let bone_entries = order.iter().filter(|e| matches!(e, UpdateEntry::Bone(_))).count();
            again += bone_entries - sk[0].bones.iter().filter(|b| b.active).count();
        }
        for (i, (st, s)) in state.iter_mut().zip(&mut sk).enumerate() {
            st.update(dt);
            st.apply(s);
            s.update(dt);
            if i == 0 {
                s.update_world_transform(Physics::Update);
            } else {
                reference_walk(s, Physics::Update);
            }
            st.clear_events();
        }
        for (i, (a, b)) in sk[0].bones.iter().zip(&sk[1].bones).enumerate() {
            assert_eq!(bits(a), bits(b), "frame {f} bone {i}");
            compared += 1;
        }
    }
    (compared, again, inactive)
}

#[test]
fn walk_resets_applied_poses_like_a_pass_before_it() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let files = skel_testkit::files_with_suffix(&corpus.join("4.2"), ".skel");
    assert!(files.len() >= 20, "{} 4.2 rigs", files.len());
    let (mut compared, mut again, mut inactive) = (0usize, 0usize, 0usize);
    for v in ["4.2", "3.5", "3.6", "3.7", "3.8", "4.0", "4.1"] {
        for file in skel_testkit::files_with_suffix(&corpus.join(v), ".skel") {
            let bytes = std::fs::read(&file).unwrap();
            let data = Arc::new(spine_model::load_binary(&bytes, None).unwrap());
            let (c, a, i) = compare_rig(&data);
            compared += c;
            again += a;
            inactive += i;
        }
    }
    assert!(compared > 100_000, "{compared} bone comparisons");
    // Bones walked again after a constraint, and bones no entry reaches, did occur.
    assert!(again > 100, "{again} later bone entries");
    assert!(inactive > 10, "{inactive} inactive bones");
}
