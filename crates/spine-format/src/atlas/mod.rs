//! libgdx texture atlases (not implemented yet).

/// An atlas could not be parsed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{message}, at line {line}")]
#[non_exhaustive]
pub struct AtlasError {
    /// 1-based line number.
    pub line: usize,
    /// What went wrong.
    pub message: String,
}
