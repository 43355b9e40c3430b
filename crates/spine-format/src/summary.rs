//! A format-independent summary of a skeleton file (what `skel info` prints).

/// Counts and names read from a skeleton file, without resolving anything.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct Summary {
    /// Editor version string from the file.
    pub version: String,
    /// Skeleton hash as the editor shows it (empty when absent).
    pub hash: String,
    /// Number of bones.
    pub bones: usize,
    /// Number of slots.
    pub slots: usize,
    /// Skin names, the default skin first as `"default"` when present.
    pub skins: Vec<String>,
    /// Constraint counts per type.
    pub constraints: ConstraintCounts,
    /// Event names.
    pub events: Vec<String>,
    /// Animations with their durations (the latest key time of any timeline).
    pub animations: Vec<AnimationSummary>,
}

/// Constraint counts by type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ConstraintCounts {
    /// IK constraints.
    pub ik: usize,
    /// Transform constraints.
    pub transform: usize,
    /// Path constraints.
    pub path: usize,
    /// Physics constraints.
    pub physics: usize,
    /// Slider constraints.
    pub slider: usize,
}

/// An animation's name and duration.
#[derive(Debug, Clone, PartialEq)]
pub struct AnimationSummary {
    /// Animation name.
    pub name: String,
    /// Duration in seconds.
    pub duration: f32,
}
