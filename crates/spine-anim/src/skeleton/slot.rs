//! Slots: slot instances, attachment states, setup pose, attachments and skins.

use super::*;

/// A slot instance.
#[derive(Debug, Clone, PartialEq)]
pub struct Slot {
    /// The bone.
    pub bone: BoneId,
    /// Color.
    pub color: Color,
    /// Dark color (alpha unused), meaningful when `has_dark_color`.
    pub dark_color: Color,
    /// The slot has a dark color (two-color tint).
    pub has_dark_color: bool,
    /// Current attachment.
    pub attachment: Option<AttachmentId>,
    /// Deform offsets (empty = none).
    pub deform: Vec<f32>,
    /// Sequence frame, `-1` = the sequence's setup index.
    pub sequence_index: i32,
}

impl Slot {
    /// Copies `p` into this slot, reusing the deform buffer (4.3 `SlotPose.set`).
    pub(crate) fn set_from(&mut self, p: &Slot) {
        self.bone = p.bone;
        self.color = p.color;
        self.dark_color = p.dark_color;
        self.has_dark_color = p.has_dark_color;
        self.attachment = p.attachment;
        self.deform.clone_from(&p.deform);
        self.sequence_index = p.sequence_index;
    }
}

/// The slots' attachment states (spine-cpp `Slot::attachmentState`, written by
/// [`AnimationState`](crate::AnimationState)s): `unkeyed + 2` (current) when an attachment
/// timeline set the slot's attachment, `unkeyed + 1` (setup) when one was applied without
/// setting it, where `unkeyed` is the state's even counter. So a state is odd exactly when
/// its last mark was a setup mark; the count of odd states lets the end of `apply`, which
/// looks for slots marked setup in this frame, skip the search when there are none.
#[derive(Debug, Clone, Default)]
pub(crate) struct AttachmentStates {
    /// One per slot (a slot past the end reads 0).
    pub(super) states: Vec<i32>,
    /// How many of `states` are odd.
    pub(super) odd: usize,
}

impl AttachmentStates {
    /// The state of slot `i`.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> i32 {
        self.states.get(i).copied().unwrap_or(0)
    }

    /// Sets the state of slot `i` of `slots` (the list grown to the slot count on first
    /// use; a slot out of range is ignored).
    #[inline]
    pub(crate) fn set(&mut self, i: usize, slots: usize, v: i32) {
        if self.states.len() < slots {
            self.states.resize(slots, 0);
        }
        let Some(s) = self.states.get_mut(i) else { return };
        self.odd = self.odd + (v & 1) as usize - (*s & 1) as usize;
        *s = v;
    }

    /// The first slot at or after `from` in state `v`, when `v` is odd and some state is;
    /// `None` otherwise.
    #[inline]
    pub(crate) fn find_odd(&self, from: usize, v: i32) -> Option<usize> {
        if self.odd == 0 || v & 1 == 0 {
            return None;
        }
        let rest = self.states.get(from..)?;
        rest.iter().position(|&s| s == v).map(|i| from + i)
    }
}

impl Skeleton {
    /// Draw order and slots back to setup.
    pub fn set_slots_to_setup_pose(&mut self) {
        // 4.3: the poses of constrained slots (see `slot_constrained`).
        self.swap_slot_poses();
        self.draw_order.clear();
        self.draw_order
            .extend((0..self.slots.len() as u32).map(|i| SlotId::from_index(i as usize)));
        for i in 0..self.slots.len() {
            self.set_slot_to_setup_pose(SlotId::from_index(i));
        }
        self.swap_slot_poses();
    }

    /// One slot back to setup (spine-cpp `Slot::setToSetupPose`).
    pub fn set_slot_to_setup_pose(&mut self, id: SlotId) {
        let data = self.data.clone();
        let sd = data.slot(id);
        let Some(slot) = self.slots.get_mut(id.index()) else { return };
        slot.color = sd.color;
        if let Some(dc) = sd.dark_color.filter(|_| data.behaviour.setup_pose_sets_dark) {
            slot.dark_color = dc;
        }
        match sd.attachment.as_deref() {
            Some(name) if !name.is_empty() => {
                slot.attachment = None;
                let att = self.get_attachment(id, name);
                self.set_attachment(id, att);
            }
            _ => self.set_attachment(id, None),
        }
    }

    /// The attachment `name` of `slot` from the current skin, else the default skin.
    pub fn get_attachment(&self, slot: SlotId, name: &str) -> Option<AttachmentId> {
        if name.is_empty() {
            return None;
        }
        if let Some(s) = self.skin {
            if let Some(a) = self.data.skin(s).attachment(slot, name) {
                return Some(a);
            }
        }
        self.data.default_skin.and_then(|d| self.data.skin(d).attachment(slot, name))
    }

    /// spine-cpp `Slot::setAttachment`: deform cleared unless both are vertex attachments
    /// sharing a timeline attachment; sequence index reset.
    pub fn set_attachment(&mut self, slot: SlotId, attachment: Option<AttachmentId>) {
        let Some(s) = self.slots.get(slot.index()) else { return };
        if s.attachment == attachment {
            return;
        }
        let keep = match (attachment, s.attachment) {
            (Some(new), Some(old)) => {
                match (timeline_attachment(&self.data, new), timeline_attachment(&self.data, old)) {
                    (Some(a), Some(b)) => a == b,
                    _ => false,
                }
            }
            _ => false,
        };
        if let Some(s) = self.slots.get_mut(slot.index()) {
            if !keep {
                s.deform.clear();
            }
            s.attachment = attachment;
            s.sequence_index = -1;
        }
    }

    /// Sets the attachment of slot `slot` by placeholder name (`None` hides).
    pub fn set_attachment_by_name(&mut self, slot: SlotId, name: Option<&str>) {
        let att = name.and_then(|n| self.get_attachment(slot, n));
        self.set_attachment(slot, att);
    }

    /// spine-cpp `Skeleton::setSkin`: attachments of the old skin that are shown are
    /// replaced by the new skin's of the same name; without an old skin, slots get their
    /// setup attachment from the new skin when it has one. Rebuilds the update cache.
    pub fn set_skin(&mut self, skin: Option<SkinId>) {
        if self.skin == skin {
            return;
        }
        if let Some(new) = skin {
            let data = self.data.clone();
            let new_skin = data.skin(new);
            if let Some(old) = self.skin {
                for e in &data.skin(old).entries {
                    let shown = self.slots.get(e.slot.index()).and_then(|s| s.attachment);
                    if shown == Some(e.attachment) {
                        if let Some(a) = new_skin.attachment(e.slot, &e.name) {
                            self.set_attachment(e.slot, Some(a));
                        }
                    }
                }
            } else {
                for (i, sd) in data.slots.iter().enumerate() {
                    if let Some(name) = sd.attachment.as_deref().filter(|n| !n.is_empty()) {
                        if let Some(a) = new_skin.attachment(SlotId::from_index(i), name) {
                            self.set_attachment(SlotId::from_index(i), Some(a));
                        }
                    }
                }
            }
        }
        self.skin = skin;
        self.update_cache();
    }

    /// Sets the skin by name (`None` / unknown name = no skin). Returns whether it exists.
    pub fn set_skin_by_name(&mut self, name: Option<&str>) -> bool {
        let id = name.and_then(|n| self.data.find_skin(n));
        self.set_skin(id);
        id.is_some() || name.is_none()
    }

    /// Exchanges the applied and the pose of every constrained slot and of a constrained
    /// draw order (4.3; see `slot_constrained`): what animations and the setup pose write
    /// is the pose, so the writers run between two calls (`AnimationState::apply`,
    /// [`apply_animation`](crate::apply_animation), [`Skeleton::set_slots_to_setup_pose`]).
    pub(crate) fn swap_slot_poses(&mut self) {
        for (i, c) in self.slot_constrained.iter().enumerate() {
            if *c {
                if let (Some(a), Some(p)) = (self.slots.get_mut(i), self.slot_poses.get_mut(i)) {
                    std::mem::swap(a, p);
                }
            }
        }
        if self.draw_order_constrained {
            std::mem::swap(&mut self.draw_order, &mut self.draw_order_pose);
        }
    }

    /// 4.3 `resetConstrained` of the constrained slots and draw order: the applied poses
    /// start from the poses (no allocation once the buffers have grown).
    pub(crate) fn reset_slot_poses(&mut self) {
        for (i, c) in self.slot_constrained.iter().enumerate() {
            if *c {
                if let (Some(a), Some(p)) = (self.slots.get_mut(i), self.slot_poses.get(i)) {
                    a.set_from(p);
                }
            }
        }
        if self.draw_order_constrained {
            self.draw_order.clone_from(&self.draw_order_pose);
        }
    }
}

/// The timeline attachment of a vertex attachment (`None` for region/point attachments).
pub fn timeline_attachment(data: &SkeletonData, id: AttachmentId) -> Option<AttachmentId> {
    match &data.attachments.get(id.index())?.kind {
        AttachmentKind::Mesh(m) => Some(m.timeline_attachment),
        AttachmentKind::BoundingBox(_) | AttachmentKind::Path(_) | AttachmentKind::Clipping(_) => {
            Some(id)
        }
        AttachmentKind::Region(_) | AttachmentKind::Point(_) => None,
    }
}
