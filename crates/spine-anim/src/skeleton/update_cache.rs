//! The update cache: the order bones and constraints update in (spine-cpp
//! `Skeleton::updateCache`), the walk over it and the bones' children.

use super::*;
use spine_model::{ConstraintData, IkData, PathData, SliderData, TransformData};

/// One entry of the update cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpdateEntry {
    /// Compute a bone's world transform.
    Bone(BoneId),
    /// Run a constraint's solver.
    Constraint(ConstraintId),
}

/// One entry of the walk [`Skeleton::update_world_transform`] runs: the update cache with a
/// bone's first entry told apart from its later ones (built with it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum WalkEntry {
    /// A bone's first entry: its applied pose is set to its local pose here (the reset
    /// spine-cpp does for every bone before the walk; no entry before this one reads or
    /// writes this bone's applied pose, since constraints sort the bones they touch before
    /// them).
    Bone(BoneId),
    /// A constraint (index below the constraint count), or `constraint count + bone index`:
    /// a later entry of that bone (re-sorted after a constraint), from its applied pose.
    /// Apart from the bone arm, so the bone entries' dispatch stays one tag test. With
    /// [`PAIR`] set: two independent 4.2 physics constraints run side by side (see
    /// [`pair_of`] and [`Skeleton::pair_physics`]); in the same arm, so that the walk's
    /// dispatch is unchanged.
    Other(u32),
}

/// The bit of a [`WalkEntry::Other`] holding two physics constraints (no entry index
/// reaches it: they are below `u32::MAX >> 1`).
pub(super) const PAIR: u32 = 1 << 31;

/// Constraints below this index can be paired (their two indices fit in a
/// [`WalkEntry::Other`] with [`PAIR`]).
pub(super) const PAIRABLE: u32 = 1 << 15;

/// The two constraints of a [`PAIR`] entry, in update order.
#[inline]
pub(super) fn pair_of(entry: u32) -> (u32, u32) {
    ((entry >> 15) & (PAIRABLE - 1), entry & (PAIRABLE - 1))
}

/// Which `Skeleton.updateCache` rules to follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CacheRules {
    /// spine-cpp 3.x–4.2 (the eager update cache).
    Classic,
    /// spine-ts 4.3 (the lazy poses of `lazy43`).
    V43,
}

/// The children of every bone, in bone order, as one flat list: bone `i`'s are
/// `ids[at[i]..at[i + 1]]` (spine-cpp `Bone::children`).
#[derive(Debug, Clone, Default)]
pub(crate) struct Children {
    pub(super) at: Vec<u32>,
    pub(super) ids: Vec<BoneId>,
}

impl Children {
    /// The lists of `data`'s bones (a parent out of range has no list).
    pub(super) fn new(data: &SkeletonData) -> Children {
        let n = data.bones.len();
        let mut at = vec![0u32; n + 1];
        for b in &data.bones {
            if let Some(c) = b.parent.and_then(|p| at.get_mut(p.index() + 1)) {
                *c += 1;
            }
        }
        for i in 1..at.len() {
            at[i] += at[i - 1];
        }
        let mut ids = vec![BoneId::from_index(0); at[n] as usize];
        let mut fill: Vec<u32> = at[..n].to_vec();
        for (i, b) in data.bones.iter().enumerate() {
            let Some(f) = b.parent.and_then(|p| fill.get_mut(p.index())) else { continue };
            if let Some(slot) = ids.get_mut(*f as usize) {
                *slot = BoneId::from_index(i);
            }
            *f += 1;
        }
        Children { at, ids }
    }

    /// The children of bone `id`.
    pub(crate) fn of(&self, id: BoneId) -> &[BoneId] {
        let i = id.index();
        match (self.at.get(i), self.at.get(i + 1)) {
            (Some(&s), Some(&e)) => self.ids.get(s as usize..e as usize).unwrap_or_default(),
            _ => &[],
        }
    }
}

impl Skeleton {
    /// The update order [`Skeleton::update_cache`] built: bones and constraints in the
    /// order [`Skeleton::update_world_transform`] visits them.
    pub fn update_order(&self) -> &[UpdateEntry] {
        &self.update_cache
    }

    /// Rebuilds the update cache (spine-cpp `Skeleton::updateCache`): bone activity from
    /// the skin, constraints in order with their bones sorted before them.
    pub fn update_cache(&mut self) {
        if self.data.behaviour.lazy_bone_poses {
            self.update_cache43();
            return;
        }
        let data = self.data.clone();
        self.begin_update_cache(&data);
        self.sort_constraints(&data, CacheRules::Classic);
        self.sort_remaining_bones(CacheRules::Classic);
        self.mark_read_after();
        self.build_walk();
    }

    /// [`Skeleton::update_cache`] for 4.3 data: spine-ts 4.3 `Skeleton.updateCache` with
    /// each constraint's 4.3 `sort` (IK: the parent re-sorted after the constraint, the
    /// child not before it; transform: the source only for a world source, the bones before
    /// the constraint only for a world target; path: the current skin, the default skin and
    /// the slot's attachment; sliders are active whatever their bone). The update cache is
    /// run by [`lazy43::run_update_cache`](constraints::lazy43::run_update_cache).
    pub(super) fn update_cache43(&mut self) {
        let data = self.data.clone();
        self.walk.clear();
        self.unwalked.clear();
        self.begin_update_cache(&data);
        self.sort_constraints(&data, CacheRules::V43);
        self.sort_remaining_bones(CacheRules::V43);
        self.constrain_slots43(&data);
    }

    /// The first step of both update caches: a new activity stamp, an empty cache and the
    /// bones' activity from the skin (a skin-required bone is active only when the skin, or
    /// a bone under it in the skin, lists it; an inactive bone counts as sorted).
    fn begin_update_cache(&mut self, data: &SkeletonData) {
        self.activity = next_activity();
        self.update_cache.clear();
        for (b, d) in self.bones.iter_mut().zip(&data.bones) {
            b.sorted = d.skin_required;
            b.active = !b.sorted;
        }
        let Some(skin) = self.skin else { return };
        for &id in &data.skin(skin).bones {
            let mut cur = Some(id);
            while let Some(i) = cur {
                let Some(b) = self.bones.get_mut(i.index()) else { break };
                b.sorted = false;
                b.active = true;
                cur = b.parent;
            }
        }
    }

    /// Sets each constraint's activity and sorts each active one (its bones before it) into
    /// the update cache, in constraint order.
    fn sort_constraints(&mut self, data: &SkeletonData, rules: CacheRules) {
        for (ci, cd) in data.constraints.iter().enumerate() {
            let cid = ConstraintId::from_index(ci);
            let active = self.constraint_active(data, cid, cd, rules);
            if let Some(c) = self.constraints.get_mut(ci) {
                c.active = active;
            }
            if !active {
                continue;
            }
            match &cd.kind {
                ConstraintKind::Ik(d) if rules == CacheRules::Classic => self.sort_ik(cid, d),
                ConstraintKind::Ik(d) => self.sort_ik43(cid, d),
                ConstraintKind::Transform(d) if rules == CacheRules::Classic => {
                    self.sort_transform(cid, d)
                }
                ConstraintKind::Transform(d) => self.sort_transform43(cid, d),
                ConstraintKind::Path(d) => self.sort_path(data, cid, d, rules),
                ConstraintKind::Physics(d) => {
                    self.sort_bone_by(rules, d.bone);
                    self.push_constraint_resetting(cid, std::slice::from_ref(&d.bone));
                    if rules == CacheRules::Classic {
                        self.set_sorted(d.bone);
                    }
                }
                ConstraintKind::Slider(d) => self.sort_slider(data, cid, d, rules),
            }
        }
    }

    /// Whether a constraint is active: its skin (when skin-required) has it and the bone it
    /// reads is active (4.3: a slider always is).
    fn constraint_active(
        &self,
        data: &SkeletonData,
        cid: ConstraintId,
        cd: &ConstraintData,
        rules: CacheRules,
    ) -> bool {
        let skin_ok =
            !cd.skin_required || self.skin.is_some_and(|s| data.skin(s).constraints.contains(&cid));
        skin_ok
            && match &cd.kind {
                ConstraintKind::Ik(d) => self.bone_active(d.target),
                ConstraintKind::Transform(d) => self.bone_active(d.source),
                ConstraintKind::Path(d) => self.bone_active(data.slot(d.slot).bone),
                ConstraintKind::Physics(d) => self.bone_active(d.bone),
                ConstraintKind::Slider(_) if rules == CacheRules::V43 => true,
                ConstraintKind::Slider(d) => {
                    d.bone.as_ref().is_none_or(|b| self.bone_active(b.bone))
                }
            }
    }

    /// The last pass of both update caches: every bone not sorted yet, in bone order.
    fn sort_remaining_bones(&mut self, rules: CacheRules) {
        for i in 0..self.bones.len() {
            self.sort_bone_by(rules, BoneId::from_index(i));
        }
    }

    /// [`Skeleton::sort_bone`] or (4.3) [`Skeleton::sort_bone43`].
    fn sort_bone_by(&mut self, rules: CacheRules, id: BoneId) {
        match rules {
            CacheRules::Classic => self.sort_bone(id),
            CacheRules::V43 => self.sort_bone43(id),
        }
    }

    /// Pushes constraint `cid`, then marks the children of its `bones` for re-sorting.
    fn push_constraint_resetting(&mut self, cid: ConstraintId, bones: &[BoneId]) {
        self.update_cache.push(UpdateEntry::Constraint(cid));
        for &b in bones {
            self.sort_reset_children(b);
        }
    }

    /// spine-cpp `IkConstraint` sort: target, parent (and child) before it; the parent's
    /// children re-sorted after, the child kept sorted.
    fn sort_ik(&mut self, cid: ConstraintId, d: &IkData) {
        self.sort_bone(d.target);
        let Some(&parent) = d.bones.first() else { return };
        self.sort_bone(parent);
        if d.bones.len() == 1 {
            self.push_constraint_resetting(cid, &[parent]);
        } else {
            let child = *d.bones.last().unwrap_or(&parent);
            self.sort_bone(child);
            self.push_constraint_resetting(cid, &[parent]);
            self.set_sorted(child);
        }
    }

    /// 4.3 `IkConstraint.sort`: target and parent before it, the parent re-sorted after.
    fn sort_ik43(&mut self, cid: ConstraintId, d: &IkData) {
        self.sort_bone43(d.target);
        let Some(&parent) = d.bones.first() else { return };
        self.sort_bone43(parent);
        self.update_cache.push(UpdateEntry::Constraint(cid));
        if let Some(b) = self.bones.get_mut(parent.index()) {
            b.sorted = false;
        }
        self.sort_reset_children(parent);
    }

    /// spine-cpp `TransformConstraint` sort: source and bones (with their parents for a
    /// local target) before it, the bones' children re-sorted after.
    fn sort_transform(&mut self, cid: ConstraintId, d: &TransformData) {
        self.sort_bone(d.source);
        for &b in &d.bones {
            if d.local_target {
                if let Some(p) = self.bones.get(b.index()).and_then(|x| x.parent) {
                    self.sort_bone(p);
                }
            }
            self.sort_bone(b);
        }
        self.push_constraint_resetting(cid, &d.bones);
        for &b in &d.bones {
            self.set_sorted(b);
        }
    }

    /// 4.3 `TransformConstraint.sort`: the source only for a world source, the bones only
    /// for a world target (and then kept sorted).
    fn sort_transform43(&mut self, cid: ConstraintId, d: &TransformData) {
        if !d.local_source {
            self.sort_bone43(d.source);
        }
        if !d.local_target {
            for &b in &d.bones {
                self.sort_bone43(b);
            }
        }
        self.push_constraint_resetting(cid, &d.bones);
        for &b in &d.bones {
            if let Some(b) = self.bones.get_mut(b.index()) {
                b.sorted = !d.local_target;
            }
        }
    }

    /// `PathConstraint` sort: the path's bones (from the current skin, the default skin,
    /// before 4.3 every skin, and the slot's attachment) and the constrained bones before it.
    fn sort_path(&mut self, data: &SkeletonData, cid: ConstraintId, d: &PathData, r: CacheRules) {
        let slot_bone = data.slot(d.slot).bone;
        if let Some(s) = self.skin {
            self.sort_path_skin(data, s, d.slot, slot_bone, r);
        }
        if let Some(def) = data.default_skin.filter(|&def| Some(def) != self.skin) {
            self.sort_path_skin(data, def, d.slot, slot_bone, r);
        }
        if r == CacheRules::Classic {
            for s in 0..data.skins.len() {
                self.sort_path_skin(data, SkinId::from_index(s), d.slot, slot_bone, r);
            }
        }
        if let Some(a) = self.slots.get(d.slot.index()).and_then(|s| s.attachment) {
            self.sort_path_attachment(data, a, slot_bone, r);
        }
        for &b in &d.bones {
            self.sort_bone_by(r, b);
        }
        self.push_constraint_resetting(cid, &d.bones);
        for &b in &d.bones {
            self.set_sorted(b);
        }
    }

    /// `SliderConstraint` sort: a world bone before it; the animation's bones (and
    /// children) recomputed after it (before 4.3 only the active ones).
    fn sort_slider(
        &mut self,
        data: &SkeletonData,
        cid: ConstraintId,
        d: &SliderData,
        r: CacheRules,
    ) {
        if let Some(b) = d.bone.as_ref().filter(|_| !d.local) {
            self.sort_bone_by(r, b.bone);
        }
        self.update_cache.push(UpdateEntry::Constraint(cid));
        for b in constraints::slider::animation_bones(data, d) {
            let Some(bone) = self.bones.get_mut(b.index()) else { continue };
            if r == CacheRules::V43 || bone.active {
                bone.sorted = false;
                self.sort_reset_children(b);
            }
        }
    }

    /// The slots and draw order a slider's animation keys (4.3 `Slider.sort`:
    /// `constrained` on the slots of its slot timelines and on the draw order for draw-order
    /// timelines), and the switch of each slot between one pose and pose + applied pose.
    pub(super) fn constrain_slots43(&mut self, data: &SkeletonData) {
        let n = self.slots.len();
        let mut slots = vec![false; n];
        let mut draw_order = false;
        for (ci, cd) in data.constraints.iter().enumerate() {
            let ConstraintKind::Slider(d) = &cd.kind else { continue };
            if !self.constraints.get(ci).is_some_and(|c| c.active) {
                continue;
            }
            let Some(anim) = data.animations.get(d.animation.index()) else { continue };
            for t in &anim.timelines {
                use spine_model::Timeline as T;
                match t {
                    T::Color { slot, .. }
                    | T::Attachment { slot, .. }
                    | T::Deform { slot, .. }
                    | T::Sequence { slot, .. } => {
                        if let Some(c) = slots.get_mut(slot.index()) {
                            *c = true;
                        }
                    }
                    T::DrawOrder { .. } | T::DrawOrderFolder { .. } => draw_order = true,
                    _ => {}
                }
            }
        }
        if slots.iter().all(|c| !c) && !draw_order && self.slot_constrained.is_empty() {
            return;
        }
        if self.slot_poses.len() != n {
            self.slot_poses = self.slots.clone();
            self.slot_constrained = vec![false; n];
        }
        for (i, &c) in slots.iter().enumerate() {
            if c != self.slot_constrained[i] {
                if c {
                    // The pose so far was the one pose: it is the pose from now on.
                    let (a, p) = (&self.slots[i], &mut self.slot_poses[i]);
                    p.set_from(a);
                } else {
                    let (a, p) = (&mut self.slots[i], &self.slot_poses[i]);
                    a.set_from(p);
                }
            }
        }
        self.slot_constrained = slots;
        if draw_order != self.draw_order_constrained {
            if draw_order {
                self.draw_order_pose.clone_from(&self.draw_order);
            } else {
                self.draw_order.clone_from(&self.draw_order_pose);
            }
        }
        self.draw_order_constrained = draw_order;
    }

    /// 4.3 `Skeleton.sortBone`: inactive bones are never sorted.
    pub(super) fn sort_bone43(&mut self, id: BoneId) {
        let Some(b) = self.bones.get(id.index()) else { return };
        if b.sorted || !b.active {
            return;
        }
        if let Some(p) = b.parent {
            self.sort_bone43(p);
        }
        if let Some(b) = self.bones.get_mut(id.index()) {
            b.sorted = true;
        }
        self.update_cache.push(UpdateEntry::Bone(id));
    }

    /// Builds `walk` and `unwalked` from `update_cache`. With a slider constraint (which
    /// poses bones inside the walk) every bone entry is a later one and every bone is reset
    /// before the walk, as spine-cpp does.
    pub(super) fn build_walk(&mut self) {
        let n = self.data.constraints.len();
        let reset_all =
            self.data.constraints.iter().any(|c| matches!(c.kind, ConstraintKind::Slider(_)));
        let again = |id: BoneId| {
            WalkEntry::Other(u32::try_from(n + id.index()).unwrap_or(!PAIR).min(!PAIR))
        };
        self.walk.clear();
        self.walk.reserve_exact(self.update_cache.len());
        for entry in &self.update_cache {
            self.walk.push(match *entry {
                UpdateEntry::Constraint(id) => WalkEntry::Other(id.index() as u32),
                UpdateEntry::Bone(id) => match self.bones.get_mut(id.index()) {
                    Some(b) if !reset_all && b.ap_flags & AP_SEEN == 0 => {
                        b.ap_flags |= AP_SEEN;
                        WalkEntry::Bone(id)
                    }
                    _ => again(id),
                },
            });
        }
        self.unwalked.clear();
        let mut open = None;
        for (i, b) in self.bones.iter_mut().enumerate() {
            match (b.ap_flags & AP_SEEN == 0, open) {
                (true, None) => open = Some(i),
                (false, Some(s)) => {
                    self.unwalked.push(s..i);
                    open = None;
                }
                _ => {}
            }
            b.ap_flags &= !AP_SEEN;
        }
        if let Some(s) = open {
            self.unwalked.push(s..self.bones.len());
        }
        if !reset_all && !self.unpaired {
            self.pair_physics();
        }
    }

    /// Sets [`AP_READ_AFTER`] and [`AP_CACHE_READ`] on the bones the update cache walks, or
    /// an IK constraint of it reads, after a constraint that may defer their applied pose
    /// (transform, path and physics constraints: every bone they list, whatever their mode);
    /// clears them on the others (the test switch of [`Skeleton::set_eager_applied`] sets
    /// [`AP_READ_AFTER`] on every bone).
    pub(super) fn mark_read_after(&mut self) {
        // `AP_MOVED` (this pass only): a constraint before the entry may defer the pose.
        for b in &mut self.bones {
            b.ap_flags &= !(AP_READ_AFTER | AP_CACHE_READ | AP_MOVED);
        }
        let bones = &mut self.bones;
        let flag = |bones: &mut [Bone], id: BoneId, set: u8| {
            if let Some(b) = bones.get_mut(id.index()) {
                if set == AP_MOVED || b.ap_flags & AP_MOVED != 0 {
                    b.ap_flags |= set;
                }
            }
        };
        for entry in &self.update_cache {
            match *entry {
                UpdateEntry::Constraint(cid) => {
                    // IK reads its bones, then (a full-mix pose defers its rotation,
                    // `Bone::pose_normal_aimed`) moves them for the entries after it.
                    let (ids, set, then_moved): (&[BoneId], u8, bool) =
                        match self.data.constraints.get(cid.index()).map(|c| &c.kind) {
                            Some(ConstraintKind::Ik(d)) => (&d.bones, AP_READ_AFTER, true),
                            Some(ConstraintKind::Transform(d)) => (&d.bones, AP_MOVED, false),
                            Some(ConstraintKind::Path(d)) => (&d.bones, AP_MOVED, false),
                            Some(ConstraintKind::Physics(d)) => {
                                (std::slice::from_ref(&d.bone), AP_MOVED, false)
                            }
                            Some(ConstraintKind::Slider(_)) | None => (&[], 0, false),
                        };
                    for &id in ids {
                        flag(bones, id, set);
                    }
                    if then_moved {
                        for &id in ids {
                            flag(bones, id, AP_MOVED);
                        }
                    }
                }
                UpdateEntry::Bone(id) => flag(bones, id, AP_READ_AFTER),
            }
        }
        let every = if self.eager_applied { AP_READ_AFTER } else { 0 };
        for b in bones.iter_mut() {
            let read = if b.ap_flags & AP_READ_AFTER != 0 { AP_CACHE_READ } else { 0 };
            b.ap_flags = (b.ap_flags & !AP_MOVED) | read | every;
        }
    }

    pub(super) fn bone_active(&self, id: BoneId) -> bool {
        self.bones.get(id.index()).is_some_and(|b| b.active)
    }

    pub(super) fn set_sorted(&mut self, id: BoneId) {
        if let Some(b) = self.bones.get_mut(id.index()) {
            b.sorted = true;
        }
    }

    /// `PathConstraint.sortPathSlot`: the path attachments of `slot` in `skin`.
    fn sort_path_skin(
        &mut self,
        data: &SkeletonData,
        skin: SkinId,
        slot: SlotId,
        slot_bone: BoneId,
        rules: CacheRules,
    ) {
        for e in data.skin(skin).slot_entries(slot) {
            self.sort_path_attachment(data, e.attachment, slot_bone, rules);
        }
    }

    /// `PathConstraint.sortPath`: a path's bones (the slot's bone when unweighted).
    fn sort_path_attachment(
        &mut self,
        data: &SkeletonData,
        att: AttachmentId,
        slot_bone: BoneId,
        rules: CacheRules,
    ) {
        let AttachmentKind::Path(p) = &data.attachment(att).kind else { return };
        match &p.vertices {
            Vertices::Unweighted(_) => self.sort_bone_by(rules, slot_bone),
            Vertices::Weighted(w) => {
                for &b in w.bones() {
                    self.sort_bone_by(rules, b);
                }
            }
        }
    }

    pub(super) fn sort_bone(&mut self, id: BoneId) {
        let Some(b) = self.bones.get(id.index()) else { return };
        if b.sorted {
            return;
        }
        if let Some(p) = b.parent {
            self.sort_bone(p);
        }
        if let Some(b) = self.bones.get_mut(id.index()) {
            b.sorted = true;
        }
        self.update_cache.push(UpdateEntry::Bone(id));
    }

    /// The child bones of `id` (empty for a bone without children or out of range).
    pub fn children(&self, id: BoneId) -> &[BoneId] {
        self.children.of(id)
    }

    /// spine-cpp `sortReset(bone->children)`.
    pub(super) fn sort_reset_children(&mut self, id: BoneId) {
        let n = self.children.of(id).len();
        for i in 0..n {
            let Some(&child) = self.children.of(id).get(i) else { continue };
            let Some(c) = self.bones.get(child.index()) else { continue };
            if !c.active {
                continue;
            }
            if c.sorted {
                self.sort_reset_children(child);
            }
            if let Some(c) = self.bones.get_mut(child.index()) {
                c.sorted = false;
            }
        }
    }
}
