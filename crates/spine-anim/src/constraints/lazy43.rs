//! The effect of spine-cpp 4.3's lazy bone poses on the eager (4.2-style) update of this
//! runtime ([`Behaviour::lazy_pose_spine43`](spine_model::Behaviour::lazy_pose_spine43)).
//!
//! 4.3 `BonePose` keeps two per-update flags: the world transform is valid, and the local
//! pose is stale (a constraint changed the world transform, `modifyWorld`, and the local
//! values are recomputed only when needed). When a constraint then changes a bone
//! (`modifyLocal` / `modifyWorld`), `resetWorld` walks the children whose world is valid,
//! marks them invalid and drops their stale flag: a world-space change made to such a
//! child earlier in the update is discarded, the child is recomputed from its old local
//! pose. A bone already valid is not recomputed by the update cache (`BonePose::update`).
//!
//! This runtime derives the applied local pose right after a world-space change (its inputs
//! are recorded then; the angles are computed on first read, see
//! [`Bone::applied`](crate::Bone::applied), with the same result), so the 4.3 flags live
//! here ([`LazyBone`], one per bone in [`Skeleton::lazy43`](crate::Skeleton::lazy43)), with
//! the local pose a world-space change replaced, which `reset_world` puts back.

use spine_model::{AttachmentKind, BoneId, ConstraintData, ConstraintKind, SkeletonData};

use super::{Constraint, ConstraintPose, SolverCtx};
use crate::skeleton::{
    update_bone, AppliedPose, Bone, Children, Physics, Skeleton, Slot, UpdateEntry, WorldFrame,
};

/// 4.3 lazy-pose state of one bone for the current update.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LazyBone {
    /// The world transform is valid (`_world == update`).
    pub world_valid: bool,
    /// A constraint changed the world transform; the local pose is stale (`_local ==
    /// update`).
    pub local_stale: bool,
    /// The applied local pose before that change (x, y, rotation, scale x/y, shear x/y).
    pub backup: [f32; 7],
}

/// Start of an update: nothing is valid or stale.
pub fn begin(lazy: &mut [LazyBone]) {
    for l in lazy {
        l.world_valid = false;
        l.local_stale = false;
    }
}

/// An update-cache entry for bone `id`: whether its world transform must be computed
/// (`false` when it is still valid, as 4.3 `BonePose::update`). Marks it valid.
pub fn bone_entry(lazy: &mut [LazyBone], id: BoneId) -> bool {
    match lazy.get_mut(id.index()) {
        Some(l) if l.world_valid => false,
        Some(l) => {
            l.world_valid = true;
            true
        }
        None => true,
    }
}

fn local_of(b: &Bone) -> [f32; 7] {
    let p = b.applied();
    [p.x, p.y, p.rotation, p.scale_x, p.scale_y, p.shear_x, p.shear_y]
}

fn set_local(b: &mut Bone, v: [f32; 7]) {
    let [x, y, rotation, scale_x, scale_y, shear_x, shear_y] = v;
    b.set_applied(AppliedPose { x, y, rotation, scale_x, scale_y, shear_x, shear_y });
}

/// 4.3 `BonePose::resetWorld(update)` for the children of `id`.
fn reset_world(lazy: &mut [LazyBone], bones: &mut [Bone], children: &Children, id: BoneId) {
    for &c in children.of(id) {
        let Some(l) = lazy.get_mut(c.index()) else { continue };
        if !l.world_valid {
            continue;
        }
        l.world_valid = false;
        if l.local_stale {
            l.local_stale = false;
            let backup = l.backup;
            if let Some(b) = bones.get_mut(c.index()) {
                set_local(b, backup);
            }
        }
        reset_world(lazy, bones, children, c);
    }
}

/// 4.3 `BonePose::modifyLocal`: the local pose is current (here it always is), the world
/// transform becomes invalid, the children are reset.
pub(crate) fn modify_local(
    lazy: &mut [LazyBone],
    bones: &mut [Bone],
    children: &Children,
    id: BoneId,
) {
    if let Some(l) = lazy.get_mut(id.index()) {
        l.local_stale = false;
        l.world_valid = false;
    }
    reset_world(lazy, bones, children, id);
}

/// 4.3 `BonePose::modifyWorld`: the world transform is valid, the local pose stale (the
/// current one is remembered), the children are reset.
pub(crate) fn modify_world(
    lazy: &mut [LazyBone],
    bones: &mut [Bone],
    children: &Children,
    id: BoneId,
) {
    let local = bones.get(id.index()).map(local_of);
    if let Some(l) = lazy.get_mut(id.index()) {
        if !l.local_stale {
            if let Some(v) = local {
                l.backup = v;
            }
        }
        l.local_stale = true;
        l.world_valid = true;
    }
    reset_world(lazy, bones, children, id);
}

/// The bones constraint `cd` changes this update and whether in world space (`None` when
/// its 4.3 `update` returns before changing any: zero mixes, no path attachment, physics
/// `None`). Sliders are handled by [`slider`](super::slider).
fn changed<'a>(
    data: &SkeletonData,
    bones: &[Bone],
    slots: &[Slot],
    cd: &'a ConstraintData,
    c: &Constraint,
    physics: Physics,
) -> Option<(&'a [BoneId], bool)> {
    match (&cd.kind, &c.pose) {
        (ConstraintKind::Ik(d), ConstraintPose::Ik(p)) => {
            // Two bones: 4.3 returns before `modifyLocal` unless both inherit everything.
            let normal = |id: &BoneId| {
                bones.get(id.index()).is_some_and(|b| b.inherit == spine_model::Inherit::Normal)
            };
            let solves = p.mix != 0.0 && (d.bones.len() != 2 || d.bones.iter().all(normal));
            solves.then_some((&d.bones[..], false))
        }
        (ConstraintKind::Transform(d), ConstraintPose::Transform(p)) => {
            p.mixes.iter().any(|&m| m != 0.0).then_some((&d.bones[..], !d.local_target))
        }
        (ConstraintKind::Path(d), ConstraintPose::Path(p)) => {
            let is_path = slots
                .get(d.slot.index())
                .and_then(|s| s.attachment)
                .and_then(|a| data.attachments.get(a.index()))
                .is_some_and(|a| matches!(a.kind, AttachmentKind::Path(_)));
            let mixed = p.mix_rotate != 0.0 || p.mix_x != 0.0 || p.mix_y != 0.0;
            (is_path && mixed).then_some((&d.bones[..], true))
        }
        (ConstraintKind::Physics(d), ConstraintPose::Physics(p)) => (p.mix != 0.0
            && physics != Physics::None)
            .then_some((std::slice::from_ref(&d.bone), true)),
        _ => None,
    }
}

/// Before constraint `cd` runs: its `modifyLocal` / `modifyWorld` calls. Returns the bones
/// it changes (for [`after`]).
#[allow(clippy::too_many_arguments)]
pub(crate) fn before<'a>(
    lazy: &mut [LazyBone],
    bones: &mut [Bone],
    children: &Children,
    slots: &[Slot],
    data: &SkeletonData,
    cd: &'a ConstraintData,
    c: &Constraint,
    physics: Physics,
) -> &'a [BoneId] {
    let Some((ids, world)) = changed(data, bones, slots, cd, c, physics) else { return &[] };
    for &id in ids {
        if world {
            modify_world(lazy, bones, children, id);
        } else {
            modify_local(lazy, bones, children, id);
        }
    }
    ids
}

/// After the constraint ran: the solvers here leave the changed bones' world transforms
/// computed, so they are valid (4.3 recomputes local-space changes later in the cache, to
/// the same values).
pub fn after(lazy: &mut [LazyBone], ids: &[BoneId]) {
    for &id in ids {
        if let Some(l) = lazy.get_mut(id.index()) {
            l.world_valid = true;
        }
    }
}

/// `Skeleton::update_world_transform`'s update-cache loop for 4.3 data (after the applied
/// poses were reset): bone entries whose world is still valid are skipped, every constraint
/// is bracketed by [`before`] / [`after`].
pub fn run_update_cache(sk: &mut Skeleton, physics: Physics, frame: &WorldFrame) {
    begin(&mut sk.lazy43);
    for i in 0..sk.update_cache.len() {
        match sk.update_cache[i] {
            UpdateEntry::Bone(id) => {
                if bone_entry(&mut sk.lazy43, id) {
                    update_bone(&mut sk.bones, id, frame)
                }
            }
            UpdateEntry::Constraint(id) => {
                let data = &*sk.data;
                let Some(cd) = data.constraints.get(id.index()) else { continue };
                if let ConstraintKind::Slider(_) = cd.kind {
                    super::slider::update(sk, id);
                    continue;
                }
                let Some(c) = sk.constraints.get_mut(id.index()) else { continue };
                let changed = before(
                    &mut sk.lazy43,
                    &mut sk.bones,
                    &sk.children,
                    &sk.slots,
                    data,
                    cd,
                    c,
                    physics,
                );
                let mut ctx = SolverCtx {
                    data,
                    bones: &mut sk.bones,
                    slots: &sk.slots,
                    frame: *frame,
                    time: sk.time,
                    physics,
                    y_down: sk.y_down,
                    wind: sk.wind,
                    gravity: sk.gravity,
                };
                super::update(&mut ctx, cd, c);
                after(&mut sk.lazy43, changed);
            }
        }
    }
}
