//! Two skeletons of one rig driven alike and compared bit for bit, shared by
//! `applied_lazy.rs` and `physics_pairs.rs`: the bits a bone is compared by, and a skeleton
//! with its animation state (first non-default skin, setup pose, default mix 0.25).

use std::sync::Arc;

use spine_anim::{AnimationState, AnimationStateData, Bone, Physics, Skeleton};
use spine_model::{SkeletonData, SkinId};

/// The bits of a bone's applied pose and world transform.
pub fn bits(b: &Bone) -> [u32; 13] {
    let p = b.applied();
    [
        p.x, p.y, p.rotation, p.scale_x, p.scale_y, p.shear_x, p.shear_y, b.a, b.b, b.c, b.d,
        b.world_x, b.world_y,
    ]
    .map(f32::to_bits)
}

/// A skeleton and its animation state.
pub struct Runner {
    /// The skeleton.
    pub sk: Skeleton,
    /// Its animation state.
    pub state: AnimationState,
}

impl Runner {
    /// A runner of `data` whose skeleton `setup` configures (before the setup pose).
    pub fn new(data: &Arc<SkeletonData>, setup: impl FnOnce(&mut Skeleton)) -> Runner {
        let mut sk = Skeleton::new(data.clone());
        if data.skins.len() > 1 {
            sk.set_skin(Some(SkinId::from_index(1)));
        }
        setup(&mut sk);
        sk.set_to_setup_pose();
        let mut asd = AnimationStateData::new(data.clone());
        asd.default_mix = 0.25;
        Runner { sk, state: AnimationState::new(Arc::new(asd)) }
    }

    /// One frame of `dt` seconds in physics mode `physics`.
    pub fn frame(&mut self, dt: f32, physics: Physics) {
        self.state.update(dt);
        self.state.apply(&mut self.sk);
        self.sk.update(dt);
        self.sk.update_world_transform(physics);
    }
}
