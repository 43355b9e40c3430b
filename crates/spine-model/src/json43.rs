//! 4.3 JSON skeletons (`spine_format::json43::Skeleton`) → [`SkeletonData`].
//!
//! The JSON AST is mapped onto the 4.3 binary AST ([`crate::convert::v43_json::from_json`]:
//! names resolved, the defaults of the official 4.3 `SkeletonJson` applied, the flag bits the
//! values need set) and resolved like a binary file, so a JSON export and its binary twin give
//! the same data. Unknown names are reported as [`ProblemKind::UnknownName`]
//! (crate::ProblemKind::UnknownName) problems with their object path, together with every
//! problem the binary resolver finds.

use spine_format::json43 as j;

use crate::data::SkeletonData;
use crate::error::LoadError;
use crate::LoadOptions;

impl SkeletonData {
    /// Resolves and validates a parsed 4.3 JSON skeleton.
    pub fn from_json43(s: &j::Skeleton, options: &LoadOptions<'_>) -> Result<Self, LoadError> {
        let binary = crate::convert::v43_json::from_json(s).map_err(LoadError::Invalid)?;
        crate::v43::convert(&binary, options)
    }
}

/// When `text` failed to parse as a 3.5–4.2 JSON skeleton with `e`: whether it is a 4.3 one
/// (the 3.5–4.2 reader refuses the declared version; checked only on that error, so loading
/// other JSON costs nothing more).
pub(crate) fn declares_43(e: &spine_format::json::JsonError, text: &str) -> bool {
    e.path == "skeleton.spine" && j::declared_version(text).is_some_and(|v| j::is_43(&v))
}

/// Parses and resolves 4.3 JSON skeleton text with an optional atlas (scale 1).
pub fn load_json43(
    text: &str,
    atlas: Option<&spine_format::atlas::Atlas>,
) -> Result<SkeletonData, LoadError> {
    let s = j::parse(text)?;
    SkeletonData::from_json43(&s, &LoadOptions::with_atlas(atlas))
}
