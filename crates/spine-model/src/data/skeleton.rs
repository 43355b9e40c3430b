//! The whole skeleton's data, events, and look-ups by name and id.

use super::*;
use crate::anim::AnimationData;
use crate::ids::*;

/// An event definition.
#[derive(Debug, Clone, PartialEq)]
pub struct EventData {
    /// Name.
    pub name: crate::Name,
    /// Default int.
    pub int_value: i32,
    /// Default float.
    pub float_value: f32,
    /// Default string.
    pub string_value: String,
    /// Audio path (empty = none).
    pub audio_path: String,
    /// Volume.
    pub volume: f32,
    /// Balance.
    pub balance: f32,
}

/// Validated, version-neutral skeleton data. Immutable; share it behind an `Arc`.
#[derive(Debug, Clone, PartialEq)]
pub struct SkeletonData {
    /// Hash string as spine-cpp shows it.
    pub hash: String,
    /// Per-version behaviour flags.
    pub behaviour: Behaviour,
    /// Bounds x.
    pub x: f32,
    /// Bounds y.
    pub y: f32,
    /// Bounds width.
    pub width: f32,
    /// Bounds height.
    pub height: f32,
    /// Physics reference scale (scaled; 100 before 4.2).
    pub reference_scale: f32,
    /// Dopesheet fps (nonessential; 30 when absent).
    pub fps: f32,
    /// Bones, parents first.
    pub bones: Vec<BoneData>,
    /// Slots, in setup draw order.
    pub slots: Vec<SlotData>,
    /// Constraints in update order.
    pub constraints: Vec<ConstraintData>,
    /// Skins (the default skin first when present).
    pub skins: Vec<SkinData>,
    /// The default skin.
    pub default_skin: Option<SkinId>,
    /// Every attachment of every skin.
    pub attachments: Vec<AttachmentData>,
    /// Atlas pages used by the regions.
    pub pages: Vec<PageData>,
    /// Event definitions.
    pub events: Vec<EventData>,
    /// Animations.
    pub animations: Vec<AnimationData>,
}

fn find<T>(list: &[T], name: &str, get: impl Fn(&T) -> &str) -> Option<u32> {
    list.iter().position(|x| get(x) == name).map(|i| i as u32)
}

/// `0..len` as ids; the lists are indexed by `u32` ids, so `len` fits. `id` is the tuple
/// constructor (a zero-sized fn item, so the iterator is a plain `u32` range).
fn ids<I, F: Fn(u32) -> I + Clone>(
    len: usize,
    id: F,
) -> impl ExactSizeIterator<Item = I> + DoubleEndedIterator + Clone {
    (0..len as u32).map(id)
}

impl SkeletonData {
    /// A bone by name.
    pub fn find_bone(&self, name: &str) -> Option<BoneId> {
        find(&self.bones, name, |b| &b.name).map(BoneId)
    }
    /// A slot by name.
    pub fn find_slot(&self, name: &str) -> Option<SlotId> {
        find(&self.slots, name, |s| &s.name).map(SlotId)
    }
    /// A skin by name.
    pub fn find_skin(&self, name: &str) -> Option<SkinId> {
        find(&self.skins, name, |s| &s.name).map(SkinId)
    }
    /// The first constraint (in update order) named `name`. 4.0–4.2 exports may reuse a
    /// name across constraint types: see [`SkeletonData::find_constraint_of`].
    pub fn find_constraint(&self, name: &str) -> Option<ConstraintId> {
        find(&self.constraints, name, |c| &c.name).map(ConstraintId)
    }
    /// A constraint of type `ty` by name.
    pub fn find_constraint_of(&self, name: &str, ty: ConstraintType) -> Option<ConstraintId> {
        self.constraints
            .iter()
            .position(|c| c.name == name && c.kind.constraint_type() == ty)
            .map(|i| ConstraintId(i as u32))
    }
    /// An event by name.
    pub fn find_event(&self, name: &str) -> Option<EventId> {
        find(&self.events, name, |e| &e.name).map(EventId)
    }
    /// An animation by name.
    pub fn find_animation(&self, name: &str) -> Option<AnimationId> {
        find(&self.animations, name, |a| &a.name).map(AnimationId)
    }
    /// The id of every bone, parents first (`bones[i]` has the `i`-th).
    pub fn bone_ids(&self) -> impl ExactSizeIterator<Item = BoneId> + DoubleEndedIterator + Clone {
        ids(self.bones.len(), BoneId)
    }
    /// The id of every slot, in setup draw order (`slots[i]` has the `i`-th).
    pub fn slot_ids(&self) -> impl ExactSizeIterator<Item = SlotId> + DoubleEndedIterator + Clone {
        ids(self.slots.len(), SlotId)
    }
    /// The id of every constraint, in update order (`constraints[i]` has the `i`-th).
    pub fn constraint_ids(
        &self,
    ) -> impl ExactSizeIterator<Item = ConstraintId> + DoubleEndedIterator + Clone {
        ids(self.constraints.len(), ConstraintId)
    }
    /// The id of every skin (`skins[i]` has the `i`-th).
    pub fn skin_ids(&self) -> impl ExactSizeIterator<Item = SkinId> + DoubleEndedIterator + Clone {
        ids(self.skins.len(), SkinId)
    }
    /// The id of every attachment of every skin (`attachments[i]` has the `i`-th).
    pub fn attachment_ids(
        &self,
    ) -> impl ExactSizeIterator<Item = AttachmentId> + DoubleEndedIterator + Clone {
        ids(self.attachments.len(), AttachmentId)
    }
    /// The id of every atlas page (`pages[i]` has the `i`-th).
    pub fn page_ids(&self) -> impl ExactSizeIterator<Item = PageId> + DoubleEndedIterator + Clone {
        ids(self.pages.len(), PageId)
    }
    /// The id of every event definition (`events[i]` has the `i`-th).
    pub fn event_ids(
        &self,
    ) -> impl ExactSizeIterator<Item = EventId> + DoubleEndedIterator + Clone {
        ids(self.events.len(), EventId)
    }
    /// The id of every animation (`animations[i]` has the `i`-th).
    pub fn animation_ids(
        &self,
    ) -> impl ExactSizeIterator<Item = AnimationId> + DoubleEndedIterator + Clone {
        ids(self.animations.len(), AnimationId)
    }
    /// A bone (ids from this data are always in range).
    pub fn bone(&self, id: BoneId) -> &BoneData {
        &self.bones[id.index()]
    }
    /// A slot.
    pub fn slot(&self, id: SlotId) -> &SlotData {
        &self.slots[id.index()]
    }
    /// A skin.
    pub fn skin(&self, id: SkinId) -> &SkinData {
        &self.skins[id.index()]
    }
    /// A constraint.
    pub fn constraint(&self, id: ConstraintId) -> &ConstraintData {
        &self.constraints[id.index()]
    }
    /// An attachment.
    pub fn attachment(&self, id: AttachmentId) -> &AttachmentData {
        &self.attachments[id.index()]
    }
    /// An animation.
    pub fn animation(&self, id: AnimationId) -> &AnimationData {
        &self.animations[id.index()]
    }
    /// An event definition.
    pub fn event(&self, id: EventId) -> &EventData {
        &self.events[id.index()]
    }
}
