//! Typed ids: plain indices into the `Vec`s of [`SkeletonData`](crate::SkeletonData).
//!
//! Every id held by a `SkeletonData` is created by its validating constructor, so it is in
//! range of the list it names. Ids are opaque: list them with
//! [`SkeletonData::bone_ids`](crate::SkeletonData::bone_ids) and its siblings, or look them
//! up by name with [`SkeletonData::find_bone`](crate::SkeletonData::find_bone) and its
//! siblings. The accessors ([`SkeletonData::bone`](crate::SkeletonData::bone), ...) index
//! the lists with `[]`, so an out-of-range id panics there; the only way to build one by
//! hand is the explicit `from_index` (for arrays parallel to the data's lists).

macro_rules! id {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        #[derive(bytemuck::Pod, bytemuck::Zeroable)]
        #[repr(transparent)]
        pub struct $name(pub(crate) u32);

        impl $name {
            /// The id of entry `index` of the list this id names. For code that keeps
            /// arrays parallel to a `SkeletonData`'s lists (a posed skeleton's bones and
            /// slots); everything else lists ids from the data or finds them by name. The
            /// index is not checked here: an id past the end of its list panics in the
            /// `SkeletonData` accessor that takes it. An index beyond `u32::MAX` saturates
            /// (it never wraps around to another entry's id).
            #[inline]
            pub const fn from_index(index: usize) -> $name {
                if index > u32::MAX as usize {
                    $name(u32::MAX)
                } else {
                    $name(index as u32)
                }
            }

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

#[cfg(test)]
mod tests {
    use super::BoneId;

    #[test]
    fn an_index_beyond_u32_saturates_instead_of_wrapping() {
        assert_eq!(BoneId::from_index(7).index(), 7);
        let far = usize::try_from(u64::from(u32::MAX) + 8).unwrap_or(usize::MAX);
        if far > u32::MAX as usize {
            assert_eq!(BoneId::from_index(far).index(), u32::MAX as usize);
        }
    }
}
