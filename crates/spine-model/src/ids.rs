//! Typed ids: plain indices into the `Vec`s of [`SkeletonData`](crate::SkeletonData).
//!
//! An id is only ever created by the validating constructor, so every id held by a
//! `SkeletonData` is in range of the list it names.

macro_rules! id {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        pub struct $name(pub u32);

        impl $name {
            /// The index into the list this id names.
            #[inline]
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id!(
    /// Index into [`SkeletonData::bones`](crate::SkeletonData::bones) (parents first).
    BoneId
);
id!(
    /// Index into [`SkeletonData::slots`](crate::SkeletonData::slots) (setup draw order).
    SlotId
);
id!(
    /// Index into [`SkeletonData::skins`](crate::SkeletonData::skins).
    SkinId
);
id!(
    /// Index into [`SkeletonData::constraints`](crate::SkeletonData::constraints) (update order).
    ConstraintId
);
id!(
    /// Index into [`SkeletonData::animations`](crate::SkeletonData::animations).
    AnimationId
);
id!(
    /// Index into [`SkeletonData::events`](crate::SkeletonData::events).
    EventId
);
id!(
    /// Index into [`SkeletonData::attachments`](crate::SkeletonData::attachments) (the flat
    /// list of every attachment of every skin).
    AttachmentId
);
id!(
    /// Index into [`SkeletonData::pages`](crate::SkeletonData::pages) (atlas pages).
    PageId
);
