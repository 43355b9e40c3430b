//! Posing frames: set at a time (physics off), or played by an `AnimationState` as
//! `skel play` runs it.

use std::sync::Arc;

use spine_anim::{
    apply_animation, AnimationState, AnimationStateData, MixBlend, MixDirection, Physics, Skeleton,
};
use spine_model::{AnimationId, SkeletonData, SlotId};

use crate::pose::skeleton;

/// Hides `slots`: no attachment shown (after each pose, before drawing).
pub(super) fn hide(sk: &mut Skeleton, slots: &[SlotId]) {
    for s in slots {
        sk.set_attachment(*s, None);
    }
}

/// How `skel render` poses its frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum PhysicsMode {
    /// Play the animation as a player (and `skel play`) does: an AnimationState stepped
    /// from t = 0 at 1/--fps, physics updated.
    #[default]
    Update,
    /// Pose each frame at its time (setup pose, animation applied once), physics off.
    None,
}

/// Poses `sk` at `t` of `anim` (setup pose first), world transforms without physics.
pub(super) fn pose_at(sk: &mut Skeleton, anim: Option<AnimationId>, t: f32) {
    sk.set_to_setup_pose();
    if let Some(a) = anim {
        apply_animation(sk, a, t, t, true, None, 1.0, MixBlend::Setup, MixDirection::In);
    }
    sk.update_world_transform(Physics::None);
}

/// A skeleton played by an `AnimationState`, as `skel play` runs it.
pub(super) struct Player {
    /// The played skeleton.
    pub(super) sk: Skeleton,
    state: AnimationState,
}

impl Player {
    /// A fresh skeleton (setup pose, chosen skin) and a state with `anim` looping on track 0.
    fn new(
        data: &Arc<SkeletonData>,
        skin: Option<&str>,
        anim: Option<AnimationId>,
    ) -> Result<Player, String> {
        let sk = skeleton(data, skin)?;
        let mut state = AnimationState::new(Arc::new(AnimationStateData::new(data.clone())));
        if let Some(a) = anim {
            state.set_animation(0, Some(a), true);
        }
        state.clear_events();
        Ok(Player { sk, state })
    }

    /// One frame of `skel play`: state update, state apply, skeleton update, world
    /// transforms with physics updated. Delivered callbacks are dropped (their buffer kept).
    fn step(&mut self, dt: f32) {
        self.state.update(dt);
        self.state.apply(&mut self.sk);
        self.state.clear_events();
        self.sk.update(dt);
        self.sk.update_world_transform(Physics::Update);
    }
}

/// A player advanced from t = 0 through `steps` ([`crate::args::played_steps`]: `n` steps
/// of `1 / fps`, then one of the rest); `t = 0` is one step of 0.
pub(super) fn play_to(
    data: &Arc<SkeletonData>,
    skin: Option<&str>,
    anim: Option<AnimationId>,
    (n, rest): (u64, f32),
    fps: f32,
) -> Result<Player, String> {
    let mut p = Player::new(data, skin, anim)?;
    if n == 0 && rest <= 0.0 {
        p.step(0.0);
    }
    let dt = 1.0 / fps;
    for _ in 0..n {
        p.step(dt);
    }
    if rest > 0.0 {
        p.step(rest);
    }
    Ok(p)
}

/// Plays frames `0..n` at `dt` and hands each pose to `f`: frame 0 after one step of 0 on a
/// player of its own, frames 1.. on one player stepped by `dt` (exactly `skel play`'s run).
pub(super) fn play_frames(
    data: &Arc<SkeletonData>,
    skin: Option<&str>,
    anim: Option<AnimationId>,
    dt: f32,
    n: usize,
    f: &mut dyn FnMut(&mut Skeleton) -> Result<(), String>,
) -> Result<(), String> {
    let mut first = Player::new(data, skin, anim)?;
    first.step(0.0);
    f(&mut first.sk)?;
    if n > 1 {
        let mut p = Player::new(data, skin, anim)?;
        for _ in 1..n {
            p.step(dt);
            f(&mut p.sk)?;
        }
    }
    Ok(())
}
