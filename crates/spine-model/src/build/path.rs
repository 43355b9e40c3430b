//! The builder's object path (`skin "default" > slot "s" > attachment "a"`), kept
//! unformatted until a problem is reported.

use super::Builder;
use crate::error::{Problem, ProblemKind};
use crate::ids::*;

/// One entered object of the builder's path: `kind "name"`, or the name alone (a segment
/// entered by [`Builder::push`]); the name is `start..end` of the builder's name buffer and
/// `parent` the enclosing object's segment (`NO_SEG` at the top).
#[derive(Debug, Clone, Copy)]
pub(super) struct Seg {
    kind: Option<&'static str>,
    start: usize,
    end: usize,
    parent: usize,
}

/// A recorded object path ([`Builder::here`]), formatted only if a problem needs it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PathAt(pub(super) usize);

/// The parent of a top-level segment.
pub(super) const NO_SEG: usize = usize::MAX;

/// Formats the path ending at segment `last`: segments joined by ` > `, each `kind "name"`
/// or its raw text.
pub(super) fn render_path(segs: &[Seg], names: &str, last: usize) -> String {
    let mut chain = Vec::new();
    let mut at = last;
    while let Some(seg) = segs.get(at) {
        chain.push(seg);
        at = seg.parent;
    }
    let mut out = String::new();
    for seg in chain.iter().rev() {
        let name = names.get(seg.start..seg.end).unwrap_or_default();
        if !out.is_empty() {
            out.push_str(" > ");
        }
        match seg.kind {
            Some(kind) => {
                out.push_str(kind);
                out.push_str(" \"");
                out.push_str(name);
                out.push('"');
            }
            None => out.push_str(name),
        }
    }
    out
}

impl Builder<'_> {
    /// Enters an object (`bone "hip"`, `animation "run"`, …).
    pub fn push(&mut self, seg: impl AsRef<str>) {
        let start = self.path_names.len();
        self.path_names.push_str(seg.as_ref());
        self.add_segment(None, start);
    }

    /// Enters a named object: `kind "name"` (`bone "hip"`), without formatting.
    pub fn enter(&mut self, kind: &'static str, name: &str) {
        let start = self.path_names.len();
        self.path_names.push_str(name);
        self.add_segment(Some(kind), start);
    }

    /// [`Builder::enter`] with the name of slot `slot` (empty when out of range), without
    /// copying the name out first.
    pub fn enter_slot(&mut self, slot: SlotId) {
        let start = self.path_names.len();
        if let Some(s) = self.data.slots.get(slot.index()) {
            self.path_names.push_str(&s.name);
        }
        self.add_segment(Some("slot"), start);
    }

    /// Enters the segment whose name was just appended from `start`.
    fn add_segment(&mut self, kind: Option<&'static str>, start: usize) {
        let end = self.path_names.len();
        self.path_segs.push(Seg { kind, start, end, parent: self.path_at });
        self.path_at = self.path_segs.len() - 1;
    }

    /// Leaves the current object.
    pub fn pop(&mut self) {
        let at = self.path_at;
        if let Some(&seg) = self.path_segs.get(at) {
            // The last segment is dropped unless a recorded path names it.
            if at + 1 == self.path_segs.len() && at >= self.path_kept {
                self.path_segs.pop();
                self.path_names.truncate(seg.start);
            }
            self.path_at = seg.parent;
        }
    }

    /// The current object path.
    pub fn at(&self) -> String {
        render_path(&self.path_segs, &self.path_names, self.path_at)
    }

    /// The current object path, recorded without formatting it.
    pub fn here(&mut self) -> PathAt {
        self.keep_path();
        PathAt(self.path_at)
    }

    /// Keeps the current path's segments (a recorded path names them).
    pub(super) fn keep_path(&mut self) {
        if self.path_at != NO_SEG && self.path_at >= self.path_kept {
            self.path_kept = self.path_at + 1;
        }
    }

    /// Records a problem at the current path.
    pub fn report(&mut self, kind: ProblemKind) {
        let at = self.at();
        self.problems.push(Problem { at, kind });
    }

    /// Reports a problem at a place recorded earlier (e.g. a linked mesh's).
    pub(crate) fn report_at(&mut self, at: PathAt, kind: ProblemKind) {
        let at = render_path(&self.path_segs, &self.path_names, at.0);
        self.problems.push(Problem { at, kind });
    }
}
