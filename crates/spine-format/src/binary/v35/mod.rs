//! Binary skeletons, generation v35 (not implemented yet).

use crate::error::{BinaryError, BinaryErrorKind};
use crate::Summary;

/// The raw AST of a v35 skeleton (not implemented yet).
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct Skeleton {}

impl Skeleton {
    /// Counts and names for display.
    pub fn summary(&self) -> Summary {
        Summary::default()
    }
}

/// Parses a v35 skeleton (not implemented yet: always an error).
pub fn parse(bytes: &[u8]) -> Result<Skeleton, BinaryError> {
    let _ = bytes;
    Err(BinaryError {
        offset: 0,
        section: "header".into(),
        kind: BinaryErrorKind::Invalid("the v35 parser is not implemented yet".into()),
    })
}

/// Writes a v35 skeleton (not implemented yet: empty output).
pub fn write(skeleton: &Skeleton) -> Vec<u8> {
    let _ = skeleton;
    Vec::new()
}
