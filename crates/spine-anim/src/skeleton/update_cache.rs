//! The update cache: the order bones and constraints update in (spine-cpp
//! `Skeleton::updateCache`), the walk over it and the bones' children.

use super::*;

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
    /// Apart from the bone arm, so the bone entries' dispatch stays one tag test.
    Other(u32),
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
        self.activity = next_activity();
        self.update_cache.clear();
        for (b, d) in self.bones.iter_mut().zip(&data.bones) {
            b.sorted = d.skin_required;
            b.active = !b.sorted;
        }
        if let Some(skin) = self.skin {
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
        for (ci, cd) in data.constraints.iter().enumerate() {
            let cid = ConstraintId::from_index(ci);
            let skin_ok = !cd.skin_required
                || self.skin.is_some_and(|s| data.skin(s).constraints.contains(&cid));
            let active = skin_ok
                && match &cd.kind {
                    ConstraintKind::Ik(d) => self.bone_active(d.target),
                    ConstraintKind::Transform(d) => self.bone_active(d.source),
                    ConstraintKind::Path(d) => self.bone_active(data.slot(d.slot).bone),
                    ConstraintKind::Physics(d) => self.bone_active(d.bone),
                    ConstraintKind::Slider(d) => {
                        d.bone.as_ref().is_none_or(|b| self.bone_active(b.bone))
                    }
                };
            if let Some(c) = self.constraints.get_mut(ci) {
                c.active = active;
            }
            if !active {
                continue;
            }
            match &cd.kind {
                ConstraintKind::Ik(d) => {
                    self.sort_bone(d.target);
                    let Some(&parent) = d.bones.first() else { continue };
                    self.sort_bone(parent);
                    if d.bones.len() == 1 {
                        self.update_cache.push(UpdateEntry::Constraint(cid));
                        self.sort_reset_children(parent);
                    } else {
                        let child = *d.bones.last().unwrap_or(&parent);
                        self.sort_bone(child);
                        self.update_cache.push(UpdateEntry::Constraint(cid));
                        self.sort_reset_children(parent);
                        self.set_sorted(child);
                    }
                }
                ConstraintKind::Transform(d) => {
                    self.sort_bone(d.source);
                    if d.local_target {
                        for &b in &d.bones {
                            if let Some(p) = self.bones.get(b.index()).and_then(|x| x.parent) {
                                self.sort_bone(p);
                            }
                            self.sort_bone(b);
                        }
                    } else {
                        for &b in &d.bones {
                            self.sort_bone(b);
                        }
                    }
                    self.update_cache.push(UpdateEntry::Constraint(cid));
                    for &b in &d.bones {
                        self.sort_reset_children(b);
                    }
                    for &b in &d.bones {
                        self.set_sorted(b);
                    }
                }
                ConstraintKind::Path(d) => {
                    let slot_bone = data.slot(d.slot).bone;
                    if let Some(s) = self.skin {
                        self.sort_path_skin(&data, s, d.slot, slot_bone);
                    }
                    if let Some(def) = data.default_skin.filter(|&def| Some(def) != self.skin) {
                        self.sort_path_skin(&data, def, d.slot, slot_bone);
                    }
                    for s in 0..data.skins.len() {
                        self.sort_path_skin(&data, SkinId::from_index(s), d.slot, slot_bone);
                    }
                    if let Some(a) = self.slots.get(d.slot.index()).and_then(|s| s.attachment) {
                        self.sort_path_attachment(&data, a, slot_bone);
                    }
                    for &b in &d.bones {
                        self.sort_bone(b);
                    }
                    self.update_cache.push(UpdateEntry::Constraint(cid));
                    for &b in &d.bones {
                        self.sort_reset_children(b);
                    }
                    for &b in &d.bones {
                        self.set_sorted(b);
                    }
                }
                ConstraintKind::Physics(d) => {
                    self.sort_bone(d.bone);
                    self.update_cache.push(UpdateEntry::Constraint(cid));
                    self.sort_reset_children(d.bone);
                    self.set_sorted(d.bone);
                }
                ConstraintKind::Slider(d) => {
                    if let Some(b) = d.bone.as_ref().filter(|_| !d.local) {
                        self.sort_bone(b.bone);
                    }
                    self.update_cache.push(UpdateEntry::Constraint(cid));
                    // The animation's bones (and children) are recomputed after it.
                    for b in constraints::slider::animation_bones(&data, d) {
                        let Some(bone) = self.bones.get_mut(b.index()) else { continue };
                        if bone.active {
                            bone.sorted = false;
                            self.sort_reset_children(b);
                        }
                    }
                }
            }
        }
        for i in 0..self.bones.len() {
            self.sort_bone(BoneId::from_index(i));
        }
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
        self.activity = next_activity();
        self.update_cache.clear();
        self.walk.clear();
        self.unwalked.clear();
        for (b, d) in self.bones.iter_mut().zip(&data.bones) {
            b.sorted = d.skin_required;
            b.active = !b.sorted;
        }
        if let Some(skin) = self.skin {
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
        for (ci, cd) in data.constraints.iter().enumerate() {
            let cid = ConstraintId::from_index(ci);
            let skin_ok = !cd.skin_required
                || self.skin.is_some_and(|s| data.skin(s).constraints.contains(&cid));
            let active = skin_ok
                && match &cd.kind {
                    ConstraintKind::Ik(d) => self.bone_active(d.target),
                    ConstraintKind::Transform(d) => self.bone_active(d.source),
                    ConstraintKind::Path(d) => self.bone_active(data.slot(d.slot).bone),
                    ConstraintKind::Physics(d) => self.bone_active(d.bone),
                    ConstraintKind::Slider(_) => true,
                };
            if let Some(c) = self.constraints.get_mut(ci) {
                c.active = active;
            }
            if !active {
                continue;
            }
            match &cd.kind {
                ConstraintKind::Ik(d) => {
                    self.sort_bone43(d.target);
                    let Some(&parent) = d.bones.first() else { continue };
                    self.sort_bone43(parent);
                    self.update_cache.push(UpdateEntry::Constraint(cid));
                    if let Some(b) = self.bones.get_mut(parent.index()) {
                        b.sorted = false;
                    }
                    self.sort_reset_children(parent);
                }
                ConstraintKind::Transform(d) => {
                    if !d.local_source {
                        self.sort_bone43(d.source);
                    }
                    if !d.local_target {
                        for &b in &d.bones {
                            self.sort_bone43(b);
                        }
                    }
                    self.update_cache.push(UpdateEntry::Constraint(cid));
                    for &b in &d.bones {
                        self.sort_reset_children(b);
                    }
                    for &b in &d.bones {
                        if let Some(b) = self.bones.get_mut(b.index()) {
                            b.sorted = !d.local_target;
                        }
                    }
                }
                ConstraintKind::Path(d) => {
                    let slot_bone = data.slot(d.slot).bone;
                    if let Some(s) = self.skin {
                        self.sort_path_skin43(&data, s, d.slot, slot_bone);
                    }
                    if let Some(def) = data.default_skin.filter(|&def| Some(def) != self.skin) {
                        self.sort_path_skin43(&data, def, d.slot, slot_bone);
                    }
                    if let Some(a) = self.slots.get(d.slot.index()).and_then(|s| s.attachment) {
                        self.sort_path_attachment43(&data, a, slot_bone);
                    }
                    for &b in &d.bones {
                        self.sort_bone43(b);
                    }
                    self.update_cache.push(UpdateEntry::Constraint(cid));
                    for &b in &d.bones {
                        self.sort_reset_children(b);
                    }
                    for &b in &d.bones {
                        self.set_sorted(b);
                    }
                }
                ConstraintKind::Physics(d) => {
                    self.sort_bone43(d.bone);
                    self.update_cache.push(UpdateEntry::Constraint(cid));
                    self.sort_reset_children(d.bone);
                }
                ConstraintKind::Slider(d) => {
                    if let Some(b) = d.bone.as_ref().filter(|_| !d.local) {
                        self.sort_bone43(b.bone);
                    }
                    self.update_cache.push(UpdateEntry::Constraint(cid));
                    for b in constraints::slider::animation_bones(&data, d) {
                        let Some(bone) = self.bones.get_mut(b.index()) else { continue };
                        bone.sorted = false;
                        self.sort_reset_children(b);
                    }
                }
            }
        }
        for i in 0..self.bones.len() {
            self.sort_bone43(BoneId::from_index(i));
        }
        self.constrain_slots43(&data);
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

    /// 4.3 `PathConstraint.sortPathSlot`.
    pub(super) fn sort_path_skin43(
        &mut self,
        data: &SkeletonData,
        skin: SkinId,
        slot: SlotId,
        bone: BoneId,
    ) {
        for e in data.skin(skin).slot_entries(slot) {
            self.sort_path_attachment43(data, e.attachment, bone);
        }
    }

    /// 4.3 `PathConstraint.sortPath`.
    pub(super) fn sort_path_attachment43(
        &mut self,
        data: &SkeletonData,
        att: AttachmentId,
        bone: BoneId,
    ) {
        let AttachmentKind::Path(p) = &data.attachment(att).kind else { return };
        match &p.vertices {
            Vertices::Unweighted(_) => self.sort_bone43(bone),
            Vertices::Weighted(w) => {
                for &b in &w.bones {
                    self.sort_bone43(b);
                }
            }
        }
    }

    /// Builds `walk` and `unwalked` from `update_cache`. With a slider constraint (which
    /// poses bones inside the walk) every bone entry is a later one and every bone is reset
    /// before the walk, as spine-cpp does.
    pub(super) fn build_walk(&mut self) {
        let n = self.data.constraints.len();
        let reset_all =
            self.data.constraints.iter().any(|c| matches!(c.kind, ConstraintKind::Slider(_)));
        let again =
            |id: BoneId| WalkEntry::Other(u32::try_from(n + id.index()).unwrap_or(u32::MAX));
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
    }

    /// Sets [`AP_READ_AFTER`] on the bones the update cache walks, or an IK constraint of it
    /// reads, after a constraint that may defer their applied pose (transform, path and
    /// physics constraints: every bone they list, whatever their mode); clears it on the
    /// others.
    pub(super) fn mark_read_after(&mut self) {
        // `AP_MOVED` (this pass only): a constraint before the entry may defer the pose.
        for b in &mut self.bones {
            b.ap_flags &= !(AP_READ_AFTER | AP_MOVED);
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
            b.ap_flags = (b.ap_flags & !AP_MOVED) | every;
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

    pub(super) fn sort_path_skin(
        &mut self,
        data: &SkeletonData,
        skin: SkinId,
        slot: SlotId,
        slot_bone: BoneId,
    ) {
        for e in data.skin(skin).slot_entries(slot) {
            self.sort_path_attachment(data, e.attachment, slot_bone);
        }
    }

    pub(super) fn sort_path_attachment(
        &mut self,
        data: &SkeletonData,
        att: AttachmentId,
        slot_bone: BoneId,
    ) {
        let AttachmentKind::Path(p) = &data.attachment(att).kind else { return };
        match &p.vertices {
            Vertices::Unweighted(_) => self.sort_bone(slot_bone),
            Vertices::Weighted(w) => {
                for &b in &w.bones {
                    self.sort_bone(b);
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
