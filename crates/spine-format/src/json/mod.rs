//! Spine JSON skeletons (not implemented yet).

/// A JSON skeleton could not be parsed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}, at {path}")]
#[non_exhaustive]
pub struct JsonError {
    /// JSON path where the problem is, e.g. `animations.run.bones.hip.rotate[3].curve`.
    pub path: String,
    /// What was expected or found.
    pub message: String,
}
