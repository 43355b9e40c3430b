//! Errors: a load either succeeds or reports **every** problem found.

use crate::data::ConstraintType;

/// One problem, naming the object it is about (`at`, a path such as
/// `skin "default" > slot "gun" > attachment "gun"`).
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// Where: the object path, `" > "`-separated.
    pub at: String,
    /// What.
    pub kind: ProblemKind,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.at.is_empty() {
            write!(f, "{}", self.kind)
        } else {
            write!(f, "{} > {}", self.at, self.kind)
        }
    }
}

/// The kinds of problems validation reports.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ProblemKind {
    /// An index past the end of the list it points into.
    #[error("{what} index {index} out of range (0..{len})")]
    IndexOutOfRange {
        /// What the index names ("bone", "slot", …).
        what: &'static str,
        /// The index.
        index: u64,
        /// The list length.
        len: usize,
    },
    /// A bone whose parent does not come before it.
    #[error("parent bone index {parent} does not precede bone {bone}")]
    ParentOrder {
        /// The bone index.
        bone: u32,
        /// Its parent index.
        parent: u32,
    },
    /// A constraint reference to a constraint of another type.
    #[error("constraint {index} \"{name}\" is a {found} constraint, expected {expected}")]
    WrongConstraintType {
        /// Constraint index.
        index: u32,
        /// Its name.
        name: String,
        /// The type required.
        expected: ConstraintType,
        /// The type found.
        found: ConstraintType,
    },
    /// A linked mesh whose source is not in the skin.
    #[error("linked mesh source \"{source_name}\" not found in skin \"{skin}\" slot \"{slot}\"")]
    LinkedMeshSourceMissing {
        /// The source's placeholder name.
        source_name: String,
        /// The skin searched.
        skin: String,
        /// The slot searched.
        slot: String,
    },
    /// A linked mesh whose source is not a mesh.
    #[error("linked mesh source \"{source_name}\" is not a mesh")]
    LinkedMeshSourceNotMesh {
        /// The source's placeholder name.
        source_name: String,
    },
    /// A linked mesh whose source is a linked mesh not resolved before it (the linked mesh
    /// itself, a cycle, or a link later in the file): no geometry to lend.
    #[error("linked mesh source \"{source_name}\" is {}", if *itself { "the linked mesh itself" } else { "a linked mesh not resolved before it (a cycle or a later link)" })]
    LinkedMeshSourceUnresolved {
        /// The source's placeholder name.
        source_name: String,
        /// Whether the source is the linked mesh itself.
        itself: bool,
    },
    /// A deform or sequence timeline on an attachment missing from its skin and slot.
    #[error("attachment \"{name}\" not found in skin \"{skin}\"")]
    TimelineAttachmentMissing {
        /// The placeholder name.
        name: String,
        /// The skin.
        skin: String,
    },
    /// A deform or sequence timeline on an attachment of the wrong type.
    #[error("attachment \"{name}\" cannot have a {timeline} timeline")]
    TimelineAttachmentType {
        /// The placeholder name.
        name: String,
        /// "deform" or "sequence".
        timeline: &'static str,
    },
    /// A region not found in the atlas.
    #[error("region \"{region}\" not in atlas \"{atlas}\"")]
    RegionNotInAtlas {
        /// The region name (frame path).
        region: String,
        /// The atlas name.
        atlas: String,
    },
    /// A NaN or infinite number that would poison a pose.
    #[error("{field} is not finite ({value})")]
    NonFinite {
        /// The field.
        field: &'static str,
        /// The value.
        value: f32,
    },
    /// A deform key writing past the attachment's deform length.
    #[error("deform key {key} writes {start}..{end} beyond the {len} vertex components")]
    DeformOutOfRange {
        /// Key index.
        key: usize,
        /// First component.
        start: u64,
        /// One past the last component.
        end: u64,
        /// Deform length of the attachment.
        len: usize,
    },
    /// A string-table reference that is null or out of range where a name is required.
    #[error("missing {what} name")]
    MissingName {
        /// What is named.
        what: &'static str,
    },
    /// A draw-order key that does not describe a permutation.
    #[error("draw order key {key} is not a permutation ({detail})")]
    BadDrawOrder {
        /// Key index.
        key: usize,
        /// What is wrong.
        detail: String,
    },
    /// A name (JSON reference) that names nothing of its kind.
    #[error("unknown {what} \"{name}\"")]
    UnknownName {
        /// What is named (`"bone"`, `"slot"`, `"IK constraint"`, …).
        what: &'static str,
        /// The name.
        name: String,
    },
    /// Anything else.
    #[error("{0}")]
    Invalid(String),
}

/// Why loading failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The bytes are not a valid binary skeleton.
    #[error("parse error: {0}")]
    Parse(#[from] spine_format::BinaryError),
    /// The text is not a valid JSON skeleton (3.5–4.2 or 4.3).
    #[error("JSON parse error: {0}")]
    Json(#[from] spine_format::json::JsonError),
    /// A JSON skeleton that is not UTF-8 text.
    #[error("JSON is not UTF-8: invalid byte at byte {offset}")]
    NotUtf8 {
        /// The offset in the file (a UTF-8 BOM included) of the first invalid byte.
        offset: usize,
    },
    /// The atlas text is invalid.
    #[error("atlas error: {0}")]
    Atlas(#[from] spine_format::atlas::AtlasError),
    /// The format generation has no resolver yet.
    #[error("{0} is not yet supported by spine-model")]
    Unsupported(String),
    /// The data failed validation; every problem found, in file order.
    #[error("{} problem(s):\n{}", .0.len(), .0.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n"))]
    Invalid(Vec<Problem>),
}

impl LoadError {
    /// The validation problems (empty for other errors).
    pub fn problems(&self) -> &[Problem] {
        match self {
            LoadError::Invalid(p) => p,
            _ => &[],
        }
    }
}
