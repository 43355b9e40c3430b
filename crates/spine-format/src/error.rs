//! Error types shared by the parsers.

use std::fmt;

/// Any error of this crate.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A binary `.skel` file is malformed or unsupported.
    #[error(transparent)]
    Binary(#[from] BinaryError),
    /// A JSON skeleton is malformed or unsupported.
    #[error(transparent)]
    Json(#[from] crate::json::JsonError),
    /// A texture atlas is malformed.
    #[error(transparent)]
    Atlas(#[from] crate::atlas::AtlasError),
}

/// A binary skeleton could not be parsed (or written): what went wrong, where.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{kind}, at byte {offset} in {section}")]
#[non_exhaustive]
pub struct BinaryError {
    /// Byte offset from the start of the file where the failing read began.
    pub offset: usize,
    /// Section path, e.g. `animations[3] "run" > bone timelines > bones[12] > frames[4]`.
    pub section: String,
    /// What went wrong.
    pub kind: BinaryErrorKind,
}

/// The kinds of [`BinaryError`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BinaryErrorKind {
    /// The input ended before a value was complete.
    #[error("unexpected end of input: needed {needed} more byte(s), {remaining} left")]
    UnexpectedEof {
        /// Bytes the read needed.
        needed: usize,
        /// Bytes that were left.
        remaining: usize,
    },
    /// A varint continued past its fifth byte.
    #[error("varint longer than 5 bytes")]
    VarintTooLong,
    /// A varint's fifth byte carries bits beyond 32.
    #[error("varint overflows 32 bits")]
    VarintOverflow,
    /// A varint was encoded with redundant trailing zero septets (it would not round-trip).
    #[error("non-canonical varint encoding")]
    NonCanonicalVarint,
    /// A boolean byte other than 0 or 1.
    #[error("invalid boolean byte {0}")]
    InvalidBool(u8),
    /// An enum discriminant out of its range.
    #[error("invalid {what} value {value}")]
    BadEnum {
        /// The enum.
        what: &'static str,
        /// The value found.
        value: i64,
    },
    /// An index beyond what has been read so far.
    #[error("{what} index {index} out of range (have {len})")]
    IndexOutOfRange {
        /// What the index points into.
        what: &'static str,
        /// The index found.
        index: u64,
        /// How many items there are.
        len: usize,
    },
    /// A string that is not UTF-8.
    #[error("string is not valid UTF-8")]
    InvalidUtf8,
    /// A count larger than the rest of the input could hold.
    #[error("{what} count {count} cannot fit in the {remaining} remaining byte(s)")]
    CountTooLarge {
        /// What is counted.
        what: &'static str,
        /// The count found.
        count: u64,
        /// Bytes left in the input.
        remaining: usize,
    },
    /// Bytes left over after the last section.
    #[error("{count} trailing byte(s) after the last section")]
    TrailingBytes {
        /// How many.
        count: usize,
    },
    /// The version string names a version this crate does not read.
    #[error("unsupported Spine version {found:?} (supported: {supported})")]
    UnsupportedVersion {
        /// The version string found in the header.
        found: String,
        /// The versions that are supported.
        supported: &'static str,
    },
    /// A count, size or length is over one of the [`crate::Limits`].
    #[error("{limit} exceeded: {value} > {max}")]
    LimitExceeded {
        /// The limit's field name in [`crate::Limits`].
        limit: &'static str,
        /// The value found.
        value: u64,
        /// The limit.
        max: u64,
    },
    /// A structural rule of the format was broken.
    #[error("{0}")]
    Invalid(String),
}

/// One step of a section path.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Seg<'a> {
    pub label: &'static str,
    pub index: Option<usize>,
    pub name: Option<&'a str>,
}

impl fmt::Display for Seg<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label)?;
        if let Some(i) = self.index {
            write!(f, "[{i}]")?;
        }
        if let Some(n) = self.name {
            write!(f, " {n:?}")?;
        }
        Ok(())
    }
}

/// Renders a section path; `"header"` when empty.
pub(crate) fn render_path(segs: &[Seg<'_>]) -> String {
    if segs.is_empty() {
        return "header".to_owned();
    }
    let mut s = String::new();
    for (i, seg) in segs.iter().enumerate() {
        if i > 0 {
            s.push_str(" > ");
        }
        s.push_str(&seg.to_string());
    }
    s
}
