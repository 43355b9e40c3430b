//! Resource limits enforced while parsing, before anything is allocated.
//!
//! One [`Limits`] serves every format. Every count the binary parsers read is first checked
//! against the bytes left (so nothing allocates more than the input could hold) and then
//! against these limits, so a small file cannot ask for an absurd number of bones or keys
//! either. The JSON reader checks the same limits, under the same names, on the array and
//! object lengths of the document, and bounds the parsed document itself
//! ([`Limits::max_json_values`]) while it is being read. Exceeding a limit is a typed error
//! naming it ([`crate::BinaryErrorKind::LimitExceeded`],
//! [`crate::json::JsonErrorKind::LimitExceeded`]).

/// Limits for loading untrusted files. [`Limits::default`] is generous for any real export
/// (the largest official example rig has 143 bones) and safe for hostile input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest input file, in bytes (default 64 MiB).
    pub max_file_bytes: usize,
    /// Most bones (default 100,000: chains 10,000 deep load).
    pub max_bones: usize,
    /// Most slots (default 100,000).
    pub max_slots: usize,
    /// Most vertices in one attachment (default 1,000,000).
    pub max_vertices: usize,
    /// Most keyframes in one timeline (default 1,000,000).
    pub max_keyframes: usize,
    /// Longest string, in bytes (default 1 MiB).
    pub max_string_bytes: usize,
    /// Most items in any other list (skins, attachments, animations, …; default 1,000,000).
    pub max_items: usize,
    /// Most frames of one image sequence (`sequence.count`, 4.1+; default 100,000). A
    /// sequence costs no bytes per frame on the wire, so only this limit stops a few bytes
    /// from asking for billions of frame regions; real sequences have tens of frames.
    pub max_sequence_frames: usize,
    /// Most values (scalars, strings, arrays and objects, object keys included) in one JSON
    /// document (default 4,000,000). The JSON reader stores each value in 16 bytes before
    /// any skeleton field is read and checks this limit as it goes, so the default bounds
    /// that document to 64 MB: 25–37 MB of exported JSON (the official examples hold one
    /// value per 6.2–9.3 bytes; the largest, 658 KB, holds 103,471), while a hostile file of
    /// one value per 2 bytes is refused after its first 8 MB.
    pub max_json_values: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_file_bytes: 64 << 20,
            max_bones: 100_000,
            max_slots: 100_000,
            max_vertices: 1_000_000,
            max_keyframes: 1_000_000,
            max_string_bytes: 1 << 20,
            max_items: 1_000_000,
            max_sequence_frames: 100_000,
            max_json_values: 4_000_000,
        }
    }
}

impl Limits {
    /// No limits beyond what the input itself can hold.
    pub fn unlimited() -> Self {
        Limits {
            max_file_bytes: usize::MAX,
            max_bones: usize::MAX,
            max_slots: usize::MAX,
            max_vertices: usize::MAX,
            max_keyframes: usize::MAX,
            max_string_bytes: usize::MAX,
            max_items: usize::MAX,
            max_sequence_frames: usize::MAX,
            max_json_values: usize::MAX,
        }
    }

    /// The limit that applies to a count of `what` (the parsers' item labels), with its name.
    pub(crate) fn for_count(&self, what: &str) -> (&'static str, usize) {
        match what {
            "bone" | "bones" => ("max_bones", self.max_bones),
            "slot" => ("max_slots", self.max_slots),
            "vertex" | "vertex bone" | "uv" | "triangle" | "edge" => {
                ("max_vertices", self.max_vertices)
            }
            "keyframe" | "event key" | "draw order key" => ("max_keyframes", self.max_keyframes),
            "sequence frame" => ("max_sequence_frames", self.max_sequence_frames),
            _ => ("max_items", self.max_items),
        }
    }

    /// The smallest of the count limits (counts at or below it pass every count check).
    pub(crate) fn min_count(&self) -> usize {
        [
            self.max_bones,
            self.max_slots,
            self.max_vertices,
            self.max_keyframes,
            self.max_items,
            self.max_sequence_frames,
        ]
        .into_iter()
        .min()
        .unwrap_or(usize::MAX)
    }
}
