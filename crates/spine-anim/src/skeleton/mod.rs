//! Skeleton instances: bones, slots, draw order, skin, update cache, world transforms
//! (spine-cpp 4.2 `Skeleton`, `Bone`, `Slot`).

use std::sync::Arc;

use spine_model::{
    AttachmentId, AttachmentKind, BoneData, BoneId, Color, ConstraintId, ConstraintKind, Inherit,
    SkeletonData, SkinId, SlotId, Vertices,
};

use crate::constraints::{self, Constraint, Physics42, SolverCtx};
use crate::math::{self, DEG_RAD, RAD_DEG};

mod applied;
mod bone;
mod physics_pairs;
mod pose;
mod slot;
#[cfg(test)]
pub(crate) mod tests;
mod update_cache;

pub use bone::*;
pub use pose::*;
pub use slot::*;
pub use update_cache::*;

/// Physics mode of [`Skeleton::update_world_transform`] (spine-cpp `Physics`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Physics {
    /// Physics not updated or applied.
    #[default]
    None,
    /// Physics reset to the current pose.
    Reset,
    /// Physics updated and applied.
    Update,
    /// Physics not updated but the current pose applied.
    Pose,
}

/// A posable instance of shared [`SkeletonData`]. `Send`; cheap to create.
#[derive(Debug, Clone)]
pub struct Skeleton {
    /// The shared setup data.
    pub data: Arc<SkeletonData>,
    /// Bones (index = [`BoneId`]).
    pub bones: Vec<Bone>,
    /// Slots (index = [`SlotId`]).
    pub slots: Vec<Slot>,
    /// Slots in draw order.
    pub draw_order: Vec<SlotId>,
    /// Constraints (index = [`ConstraintId`], update order).
    pub constraints: Vec<Constraint>,
    /// Current skin.
    pub skin: Option<SkinId>,
    /// Update order of bones and constraints, built by [`Skeleton::update_cache`] (which
    /// also derives per-bone facts the walk relies on, so it is not public: read it through
    /// [`Skeleton::update_order`]).
    pub(crate) update_cache: Vec<UpdateEntry>,
    /// `update_cache` as the walk runs it (see [`WalkEntry`]).
    walk: Vec<WalkEntry>,
    /// The ranges of bones no [`WalkEntry::Bone`] reaches (inactive for the skin; every bone
    /// with a slider constraint): their applied pose is reset to the local pose before the
    /// walk.
    unwalked: Vec<std::ops::Range<usize>>,
    /// Per slot, the animation states' bookkeeping (spine-cpp `Slot::attachmentState`),
    /// apart from the slots so that the end of `AnimationState::apply` reads a few cache
    /// lines, not every slot (see [`AttachmentStates`]).
    pub(crate) attachment_states: AttachmentStates,
    /// Skeleton tint.
    pub color: Color,
    /// Position x.
    pub x: f32,
    /// Position y.
    pub y: f32,
    /// Scale x (negative flips).
    pub scale_x: f32,
    /// Scale y (negative flips).
    pub scale_y: f32,
    /// Y axis points down (spine-cpp's global `Bone::yDown`; default y-up).
    pub y_down: bool,
    /// Physics time, advanced by [`Skeleton::update`].
    pub time: f32,
    /// The exact time (see [`Skeleton::exact_time`]).
    time64: f64,
    /// [`Skeleton::time`] as [`Skeleton::update`] left it (a different value was set since).
    time_seen: f32,
    /// Direction the physics constraints' wind blows in (spine-cpp 4.3
    /// `Skeleton::setWindX/Y`, default `(1, 0)`). Used by the 4.3 physics solver only; 4.2
    /// and older blow along x.
    pub wind: [f32; 2],
    /// Direction the physics constraints' gravity pulls in (spine-cpp 4.3
    /// `Skeleton::setGravityX/Y`, default `(0, 1)`). Used by the 4.3 physics solver only.
    pub gravity: [f32; 2],
    /// 4.3 lazy-pose state per bone (empty unless
    /// [`Behaviour::lazy_bone_poses`](spine_model::Behaviour::lazy_bone_poses)).
    pub lazy43: Vec<constraints::lazy43::LazyBone>,
    /// 4.3 (spine-ts 4.3 `Slot` / `DrawOrder` poses): per slot, whether a slider's
    /// animation keys it (4.3 `Skeleton.constrained(slot)`). Such a slot's entry in
    /// [`Skeleton::slots`] is its *applied* pose, what the slider changes and rendering
    /// reads; `slot_poses` holds its pose, what animations and the setup pose set (see
    /// [`Skeleton::swap_slot_poses`]), copied to the applied pose at every
    /// [`Skeleton::update_world_transform`]. Empty for other data.
    pub(crate) slot_constrained: Vec<bool>,
    /// The poses of the constrained slots (see `slot_constrained`; other entries unused).
    pub(crate) slot_poses: Vec<Slot>,
    /// 4.3: a slider's animation keys the draw order; then [`Skeleton::draw_order`] is the
    /// applied draw order and `draw_order_pose` the pose (as for slots).
    pub(crate) draw_order_constrained: bool,
    /// The draw order pose (see `draw_order_constrained`).
    pub(crate) draw_order_pose: Vec<SlotId>,
    /// Every bone's children (from the data; one flat list, not a `Vec` in each [`Bone`],
    /// which the frame's walk would carry through the cache).
    pub(crate) children: Children,
    /// Per constraint, what a 4.2 physics update reads of its data (default for other
    /// kinds): the walk's physics pairs read these 36 bytes, not the constraint's and its
    /// bone's data records (celestial-circus: 66 fewer cache lines a frame). `None` for data
    /// without 4.2 physics constraints: nothing allocated (thousands of instances of such a
    /// rig keep their heap as compact as before).
    physics42: Option<Arc<[Physics42]>>,
    /// Test switch (see [`Skeleton::set_eager_applied`]).
    eager_applied: bool,
    /// Test switch (see [`Skeleton::set_paired_physics`]): `false` keeps physics
    /// constraints apart in the walk.
    unpaired: bool,
    /// This thread's [`APPLIES`] count when an animation state last applied to this
    /// skeleton (see [`Skeleton::cold`]).
    applied_at: u64,
    /// Which bones are active, as a stamp: a new process-wide unique value each time
    /// [`Skeleton::update_cache`] runs (a clone keeps it: same bones, same activity). Lets
    /// an [`AnimationState`](crate::AnimationState) keep the timelines of an animation that
    /// reach an active bone (see `TrackEntry`).
    pub(crate) activity: u64,
}

thread_local! {
    /// How many times animation states applied to a skeleton on this thread (see
    /// [`Skeleton::cold`]).
    static APPLIES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// From how many applies to other skeletons on a thread between two frames of one
/// [`Skeleton::cold`] takes its records to be out of the caches: at about 20 KB of records
/// per spineboy instance, 16 others are a few hundred KB.
const COLD_AFTER: u64 = 16;

/// The next [`Skeleton`] `activity` stamp (never 0).
fn next_activity() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl Skeleton {
    /// A skeleton in the setup pose, no skin (world transforms not computed yet).
    pub fn new(data: Arc<SkeletonData>) -> Skeleton {
        let bones: Vec<Bone> = data.bones.iter().map(Bone::new).collect();
        let children = Children::new(&data);
        let slots = data
            .slots
            .iter()
            .map(|s| Slot {
                bone: s.bone,
                color: s.color,
                dark_color: s
                    .dark_color
                    .filter(|_| data.behaviour.setup_pose_sets_dark)
                    .unwrap_or(Color { r: 0.0, g: 0.0, b: 0.0, a: 0.0 }),
                has_dark_color: s.dark_color.is_some(),
                attachment: None,
                deform: Vec::new(),
                sequence_index: 0,
            })
            .collect();
        let constraints = data.constraints.iter().map(Constraint::new).collect();
        let behaviour = &data.behaviour;
        let physics = data.constraints.iter().any(|c| matches!(c.kind, ConstraintKind::Physics(_)));
        let physics42 = (physics
            && !behaviour.physics_lagged_offsets
            && !behaviour.lazy_bone_poses)
            .then(|| {
                let of = |c: &spine_model::ConstraintData| match &c.kind {
                    ConstraintKind::Physics(d) => Physics42::of(d, &data.bones),
                    _ => Physics42::default(),
                };
                data.constraints.iter().map(of).collect()
            });
        let draw_order = data.slot_ids().collect();
        let mut sk = Skeleton {
            data,
            bones,
            slots,
            draw_order,
            constraints,
            skin: None,
            update_cache: Vec::new(),
            walk: Vec::new(),
            unwalked: Vec::new(),
            attachment_states: AttachmentStates::default(),
            color: Color::WHITE,
            x: 0.0,
            y: 0.0,
            scale_x: 1.0,
            scale_y: 1.0,
            y_down: false,
            time: 0.0,
            time64: 0.0,
            time_seen: 0.0,
            wind: [1.0, 0.0],
            gravity: [0.0, 1.0],
            lazy43: Vec::new(),
            slot_constrained: Vec::new(),
            slot_poses: Vec::new(),
            draw_order_constrained: false,
            draw_order_pose: Vec::new(),
            children,
            physics42,
            eager_applied: false,
            unpaired: false,
            applied_at: 0,
            activity: 0,
        };
        if sk.data.behaviour.lazy_bone_poses {
            sk.lazy43 = vec![constraints::lazy43::LazyBone::default(); sk.bones.len()];
            // spine-ts 4.3 `BonePose`: a bone never posed (inactive for the skin) holds a
            // zero world transform, which weighted vertices on it read (spine-cpp 4.2
            // starts from the identity).
            for b in &mut sk.bones {
                (b.a, b.b, b.c, b.d) = (0.0, 0.0, 0.0, 0.0);
            }
        }
        for i in 0..sk.slots.len() {
            sk.set_slot_to_setup_pose(SlotId::from_index(i));
        }
        sk.update_cache();
        sk
    }

    /// The animation states' bookkeeping of slot `slot` (spine-cpp
    /// `Slot::getAttachmentState`; 0 for a slot out of range).
    pub fn attachment_state(&self, slot: SlotId) -> i32 {
        self.attachment_states.get(slot.index())
    }

    /// Whether this skeleton's records are likely out of the caches: at least
    /// [`COLD_AFTER`] applies to other skeletons ran on this thread since the last apply to
    /// this one (a skeleton that moved between threads counts as cold, and so does every
    /// skeleton while the thread's counter is being torn down). Counts this apply. Only
    /// decides whether [`Skeleton::touch`] runs, never what a frame computes.
    #[inline]
    pub(crate) fn cold(&mut self) -> bool {
        let Ok(now) = APPLIES.try_with(|n| {
            let now = n.get().wrapping_add(1);
            n.set(now);
            now
        }) else {
            return true;
        };
        let since = now.wrapping_sub(self.applied_at);
        self.applied_at = now;
        since > COLD_AFTER
    }

    /// Reads a word of every cache line of the bone records, of the lines of the constraint
    /// records the update cache reads and of the walk, and returns them combined (for
    /// [`std::hint::black_box`]): loads that depend on nothing, issued together at the start
    /// of [`AnimationState::apply`](crate::AnimationState::apply) when the skeleton is
    /// [cold](Skeleton::cold). With many instances a frame finds its records in memory, not
    /// in a cache; the timelines and the walk take them in a chain of dependent steps, each
    /// of which would wait for its own miss, while these misses overlap (safe code has no
    /// prefetch instruction). 10,000 spineboy instances: 5300 → 3000 ns per
    /// instance-frame on one core.
    #[inline]
    pub(crate) fn touch(&self) -> u32 {
        // Apart, so that the combining is three short chains, not one long one.
        let [mut h, mut h1, mut h2] = [0; 3];
        for b in &self.bones {
            let [w, w1, w2] = b.touch();
            (h, h1, h2) = (h ^ w, h1 ^ w1, h2 ^ w2);
        }
        for c in &self.constraints {
            h ^= c.touch();
        }
        h ^= h1 ^ h2;
        if let Some(WalkEntry::Other(x)) = self.walk.first() {
            h ^= x;
        }
        h ^ self.attachment_states.get(0) as u32
    }

    /// Position and scale as bones see them.
    pub fn frame(&self) -> WorldFrame {
        WorldFrame {
            x: self.x,
            y: self.y,
            scale_x: self.scale_x,
            scale_y: if self.y_down { -self.scale_y } else { self.scale_y },
        }
    }

    /// Advances the physics time.
    pub fn update(&mut self, delta: f32) {
        self.time64 = self.exact_time() + f64::from(delta);
        self.time += delta;
        self.time_seen = self.time;
    }

    /// The skeleton time as the `f64` sum of the deltas [`Skeleton::update`] added (exact
    /// for any run of frames), or [`Skeleton::time`] when that was set since. The 4.3
    /// physics solver steps by it (spine-ts 4.3 keeps its time in f64).
    pub fn exact_time(&self) -> f64 {
        if self.time == self.time_seen {
            self.time64
        } else {
            f64::from(self.time)
        }
    }

    /// spine-cpp `Skeleton::physicsTranslate`: the next [`Physics::Update`] applies forces
    /// as if every physics bone had moved an additional `(x, y)` in world space (so
    /// `physics_translate(-dx, -dy)` after moving the skeleton by `(dx, dy)` hides the move).
    pub fn physics_translate(&mut self, x: f32, y: f32) {
        for c in &mut self.constraints {
            if let constraints::ConstraintPose::Physics(p) = &mut c.pose {
                p.state.translate(x, y);
            }
        }
    }

    /// spine-cpp `Skeleton::physicsRotate`: the next [`Physics::Update`] applies forces as
    /// if every physics bone had additionally rotated `degrees` around world `(x, y)`.
    pub fn physics_rotate(&mut self, x: f32, y: f32, degrees: f32) {
        for c in &mut self.constraints {
            if let constraints::ConstraintPose::Physics(p) = &mut c.pose {
                p.state.rotate(x, y, degrees);
            }
        }
    }

    /// spine-cpp `PhysicsConstraint::reset()` on every physics constraint (at the current
    /// skeleton time): offsets and velocities cleared, the next update only records.
    pub fn reset_physics(&mut self) {
        let (now, now64) = (self.time, self.exact_time());
        for c in &mut self.constraints {
            if let constraints::ConstraintPose::Physics(p) = &mut c.pose {
                p.state.reset_at(now, now64);
            }
        }
    }

    /// Bones, constraints and slots back to setup (physics state kept).
    pub fn set_to_setup_pose(&mut self) {
        self.set_bones_to_setup_pose();
        self.set_slots_to_setup_pose();
    }

    /// Bones and constraint poses back to setup.
    pub fn set_bones_to_setup_pose(&mut self) {
        let data = &*self.data;
        for (b, d) in self.bones.iter_mut().zip(&data.bones) {
            b.set_to_setup_pose(d);
        }
        for (c, d) in self.constraints.iter_mut().zip(&data.constraints) {
            c.set_to_setup_pose(d);
        }
    }

    /// Copies every bone's local pose to its applied pose, then runs the update cache:
    /// bones compute their world transforms, constraints run their solvers.
    pub fn update_world_transform(&mut self, physics: Physics) {
        let frame = self.frame();
        if !self.lazy43.is_empty() {
            // 4.3 poses (`constraints::lazy43`).
            constraints::lazy43::run_update_cache(self, physics, &frame);
            return;
        }
        // The bones the walk does not reset itself (see `WalkEntry`).
        for r in &self.unwalked {
            for b in self.bones.get_mut(r.clone()).unwrap_or_default() {
                b.reset_applied();
            }
        }
        let mut start = 0;
        // Runs of entries with the fields borrowed once; a slider (which needs the whole
        // skeleton) ends a run.
        while let Some((i, id)) = self.run_update_cache(start, physics, &frame) {
            constraints::slider::update(self, id);
            start = i + 1;
        }
    }

    /// The update cache from entry `start` on, until a slider constraint (returned with its
    /// entry index, not run) or the end (`None`). The skeleton's fields are borrowed once
    /// (slices in registers, not reloaded through `self` per entry).
    #[inline(always)]
    fn run_update_cache(
        &mut self,
        start: usize,
        physics: Physics,
        frame: &WorldFrame,
    ) -> Option<(usize, ConstraintId)> {
        let exact_time = self.exact_time();
        let Skeleton {
            data,
            bones,
            slots,
            constraints,
            walk,
            time,
            y_down,
            wind,
            gravity,
            physics42,
            ..
        } = self;
        let data: &SkeletonData = data;
        let constraints: &mut [Constraint] = constraints;
        let entries = walk.get(start..)?;
        // One solver context for the run; the bone walk uses its bones.
        let mut ctx = SolverCtx {
            data,
            bones,
            slots,
            frame: *frame,
            time: *time,
            time64: exact_time,
            physics,
            y_down: *y_down,
            wind: *wind,
            gravity: *gravity,
        };
        let mut k = 0;
        loop {
            // A run of bone entries with the bones slice in registers (the solver context's
            // address escapes to the solvers, so it is read once per run, not per bone).
            let bones = &mut *ctx.bones;
            let id = loop {
                let id = match entries.get(k) {
                    Some(&WalkEntry::Bone(id)) => id,
                    Some(&WalkEntry::Other(id)) => break id,
                    None => return None,
                };
                k += 1;
                let i = id.index();
                // The common case inline: a child bone of `Inherit::Normal` whose parent
                // has a lower index (always so for validated data), read in place.
                if let Some(Bone { parent: Some(p), inherit: Inherit::Normal, .. }) = bones.get(i) {
                    let p = p.index();
                    if p < i {
                        let (head, tail) = bones.split_at_mut(i);
                        if let (Some(pw), Some(b)) = (head.get(p), tail.first_mut()) {
                            b.reset_update_normal_child(pw);
                            continue;
                        }
                    }
                }
                // The reset and the update in one: the pose goes to the world transform
                // from registers, not stored and read back at other widths (which the CPU
                // cannot forward from its store buffer).
                let parent = parent_world(bones, id);
                if let Some(b) = bones.get_mut(i) {
                    b.update_from_local(parent, frame);
                }
            };
            k += 1;
            let Some(cd) = data.constraints.get(id as usize) else {
                if id & PAIR != 0 {
                    // Two physics constraints (see `Skeleton::pair_physics`).
                    let physics42 = physics42.as_deref().unwrap_or_default();
                    constraints::update_pair_in_cache(
                        &mut ctx,
                        constraints,
                        physics42,
                        pair_of(id),
                    );
                } else if let Some(i) = (id as usize).checked_sub(data.constraints.len()) {
                    // A later entry of a bone (see `WalkEntry::Other`).
                    update_again(ctx.bones, i, frame);
                }
                continue;
            };
            let id = ConstraintId::from_index(id as usize);
            if let ConstraintKind::Slider(_) = cd.kind {
                return Some((start + k - 1, id));
            }
            let Some(c) = constraints.get_mut(id.index()) else { continue };
            constraints::update_in_cache(&mut ctx, cd, c);
        }
    }

    /// Test hook: `true` computes every applied pose a constraint leaves at once (as
    /// spine-cpp does: every bone marked as read after the constraint) instead of on first
    /// read. The results are the same bit for bit; this exists so a test can show it.
    #[doc(hidden)]
    pub fn set_eager_applied(&mut self, eager: bool) {
        self.eager_applied = eager;
        self.mark_read_after();
    }

    /// Test hook: `false` runs the update cache's physics constraints one by one, in its
    /// order, instead of independent pairs side by side (see `update_42_pair`). The results
    /// are the same bit for bit; this exists so a test can show it.
    #[doc(hidden)]
    pub fn set_paired_physics(&mut self, paired: bool) {
        self.unpaired = !paired;
        self.build_walk();
    }

    /// Test hook: how many pairs of physics constraints the walk runs side by side.
    #[doc(hidden)]
    pub fn physics_pairs(&self) -> usize {
        self.walk.iter().filter(|e| matches!(e, WalkEntry::Other(id) if id & PAIR != 0)).count()
    }

    /// A bone by name.
    pub fn find_bone(&self, name: &str) -> Option<BoneId> {
        self.data.find_bone(name)
    }

    /// A slot by name.
    pub fn find_slot(&self, name: &str) -> Option<SlotId> {
        self.data.find_slot(name)
    }

    /// The root bone.
    pub fn root_bone(&self) -> Option<&Bone> {
        self.bones.first()
    }
}
