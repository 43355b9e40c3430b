//! 4.3 binary → [`SkeletonData`].
use crate::data::SkeletonData;
use crate::error::LoadError;
use crate::LoadOptions;
pub(crate) fn convert(
    _s: &spine_format::binary::v43::Skeleton,
    _o: &LoadOptions<'_>,
) -> Result<SkeletonData, LoadError> {
    Err(LoadError::Unsupported("binary 4.3".into()))
}
