//! Errors of loading a SkelForm armature.

/// Why a `.skf` archive or an `armature.json` could not be loaded.
///
/// Every variant names where the problem is: the zip entry, the JSON path inside
/// `armature.json` (as `bones[3].parent_id`), or the version of a format this crate does
/// not read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SkfError {
    /// The bytes are neither a zip archive nor a JSON document.
    #[error("not a SkelForm file (neither a .skf zip archive nor an armature.json document)")]
    NotSkelForm,
    /// The zip container is damaged or uses an unsupported feature.
    #[error("zip archive: {0}")]
    Zip(String),
    /// The archive has no `armature.json` entry.
    #[error("the archive has no `armature.json` entry")]
    MissingArmature,
    /// A zip entry is larger than the configured limit.
    #[error("zip entry `{entry}`: {size} bytes exceeds the limit of {limit} bytes")]
    EntryTooLarge {
        /// The entry's name.
        entry: String,
        /// Its (declared or actual) uncompressed size.
        size: u64,
        /// The limit in force.
        limit: u64,
    },
    /// A zip entry inflates to more than the allowed multiple of its compressed size.
    #[error("zip entry `{entry}`: compression ratio above {limit}:1 (a zip bomb?)")]
    CompressionRatio {
        /// The entry's name.
        entry: String,
        /// The ratio limit in force.
        limit: u64,
    },
    /// A file name taken from `armature.json` would leave the archive (`..`, absolute path).
    #[error("{path}: unsafe file name `{name}` (path traversal)")]
    UnsafePath {
        /// The JSON path of the offending value.
        path: String,
        /// The name as written.
        name: String,
    },
    /// An atlas named by `atlases[i].filename` is not in the archive.
    #[error("{path}: atlas `{name}` is not in the archive")]
    MissingAtlas {
        /// The JSON path of the name.
        path: String,
        /// The file name.
        name: String,
    },
    /// `armature.json` is not valid JSON or a value has the wrong type.
    #[error("armature.json: {message}, at path {path} (line {line}, column {column})")]
    Json {
        /// The JSON path where the error occurred (`.` for the root).
        path: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What went wrong.
        message: String,
    },
    /// A value is structurally wrong (an id out of range, a parent after its child...).
    #[error("armature.json: {path}: {message}")]
    Invalid {
        /// The JSON path of the offending value.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// The file was written by an editor version this crate cannot read.
    #[error("armature.json: unsupported SkelForm format version {version}: {reason}")]
    UnsupportedVersion {
        /// The `version` string of the file (or a description when it has none).
        version: String,
        /// Why it is not supported.
        reason: String,
    },
}

impl SkfError {
    pub(crate) fn invalid(path: impl Into<String>, message: impl Into<String>) -> Self {
        SkfError::Invalid { path: path.into(), message: message.into() }
    }
}
