//! Pairing 4.2 physics constraints: the walk reordered so that independent physics
//! constraints meet two by two, each pair one [`PAIR`] entry that
//! [`update_42_pair`](crate::constraints::physics) runs side by side.
//!
//! A physics update is one long chain of dependent steps; two chains at once keep the CPU
//! busy. The walk is a list of bone entries and constraints in an order that respects what
//! each reads and writes (by bone); any other order that respects it computes the same
//! values. Here, between the constraints whose accesses are not modelled (IK, path: kept in
//! place, nothing moves across them), the bone entries, 4.2 transform constraints and
//! physics constraints are scheduled again: the first two as soon as what they read is
//! ready, in walk order; physics constraints two at a time when two are ready (those with
//! the most physics constraints depending on them first, so that the chains finish
//! together), and two of a kind when there are: two with rotation or scale springs (a long
//! chain of `atan2` and `sin_cos` each) overlap well, one of them beside a translation-only
//! constraint (a short chain) mostly waits alone. Celestial-circus: 14 pairs of its 30
//! constraints, against 11 when only neighbours in the update cache's order paired; frame
//! 3,012 → 2,871 ns with the new order, → 2,754 ns with pairs of a kind (−8.6 %).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::update_cache::{WalkEntry, PAIR, PAIRABLE};
use super::*;
use spine_model::TransformSolver;

/// What one walk entry is, for the scheduling.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A bone entry or a 4.2 transform constraint: scheduled as soon as ready.
    Plain,
    /// A 4.2 physics constraint: paired when another is ready. `springs`: it has rotation
    /// or scale springs (the long chain of `atan2` and `sin_cos`), else only translation
    /// springs (a short one); two of a kind make the better pair.
    Physics {
        /// It has rotation or scale springs.
        springs: bool,
    },
    /// Anything else (IK, path, 4.3 and 3.x solvers): nothing moves across it.
    Barrier,
}

/// "No entry" in the index lists.
const NONE: u32 = u32::MAX;

/// The scratch lists of one scheduling (reused across the segments of a walk).
#[derive(Default)]
struct Scratch {
    /// Per bone: the last entry (segment index) that wrote it, or [`NONE`].
    writer: Vec<u32>,
    /// Per bone: the head of its list of readers since that write, in `links`.
    readers: Vec<u32>,
    /// The bones whose `writer` / `readers` this segment set (to reset them).
    touched: Vec<u32>,
    /// Singly linked list nodes `(value, next)`: readers, and successors.
    links: Vec<(u32, u32)>,
    /// Per entry: the head of its successor list in `links`.
    succ: Vec<u32>,
    /// Per entry: how many predecessors are not scheduled yet (one per edge).
    waiting: Vec<u32>,
    /// Per entry: the most physics constraints on a path from it to the segment's end.
    height: Vec<u32>,
    /// The bones one entry reads, then those it writes.
    reads: Vec<BoneId>,
    writes: Vec<BoneId>,
}

impl Scratch {
    fn link(&mut self, value: u32, next: u32) -> u32 {
        let at = self.links.len() as u32;
        self.links.push((value, next));
        at
    }

    /// Adds the edge `from → to`.
    fn edge(&mut self, from: u32, to: u32) {
        let Some(&head) = self.succ.get(from as usize) else { return };
        let at = self.link(to, head);
        if let (Some(s), Some(w)) =
            (self.succ.get_mut(from as usize), self.waiting.get_mut(to as usize))
        {
            *s = at;
            *w += 1;
        }
    }

    /// Entry `e` is scheduled: its successors wait for one predecessor less; those ready go
    /// to `ready`.
    fn release(&mut self, e: u32, ready: &mut Vec<u32>) {
        let mut at = self.succ.get(e as usize).copied().unwrap_or(NONE);
        while let Some(&(to, next)) = self.links.get(at as usize) {
            if let Some(w) = self.waiting.get_mut(to as usize) {
                *w -= 1;
                if *w == 0 {
                    ready.push(to);
                }
            }
            at = next;
        }
    }

    /// Entry `e` reads bone `b`: after its last writer, and before its next one.
    fn read(&mut self, e: u32, b: BoneId) {
        let i = b.index();
        let (Some(&w), Some(&head)) = (self.writer.get(i), self.readers.get(i)) else { return };
        if w == NONE && head == NONE {
            self.touched.push(i as u32);
        }
        if w != NONE {
            self.edge(w, e);
        }
        let at = self.link(e, head);
        if let Some(r) = self.readers.get_mut(i) {
            *r = at;
        }
    }

    /// Entry `e` writes bone `b`: after its last writer and every reader since.
    fn write(&mut self, e: u32, b: BoneId) {
        let i = b.index();
        let (Some(&w), Some(&head)) = (self.writer.get(i), self.readers.get(i)) else { return };
        if w == NONE && head == NONE {
            self.touched.push(i as u32);
        }
        if w != NONE && w != e {
            self.edge(w, e);
        }
        let mut r = head;
        while let Some(&(reader, next)) = self.links.get(r as usize) {
            if reader != e {
                self.edge(reader, e);
            }
            r = next;
        }
        if let (Some(w), Some(r)) = (self.writer.get_mut(i), self.readers.get_mut(i)) {
            *w = e;
            *r = NONE;
        }
    }
}

/// The role of `entry` of a walk for `data`, with the bones it reads and writes (a bone
/// stands for its world transform and applied pose; reading a bone counts as reading its
/// parent too, from which a pending applied pose may be computed).
fn role(
    data: &SkeletonData,
    bones: &[Bone],
    entry: WalkEntry,
    reads: &mut Vec<BoneId>,
    writes: &mut Vec<BoneId>,
) -> Role {
    reads.clear();
    writes.clear();
    let parent = |id: BoneId| bones.get(id.index()).and_then(|b| b.parent);
    let read = |reads: &mut Vec<BoneId>, id: BoneId| {
        reads.push(id);
        reads.extend(parent(id));
    };
    let n = data.constraints.len();
    let c = match entry {
        WalkEntry::Bone(b) => b.index(),
        WalkEntry::Other(c) => c as usize,
    };
    let bone = match entry {
        WalkEntry::Bone(b) => Some(b),
        WalkEntry::Other(_) => c.checked_sub(n).map(BoneId::from_index),
    };
    if let Some(b) = bone {
        // Its parent's world transform and its own pose.
        read(reads, b);
        writes.push(b);
        return Role::Plain;
    }
    match data.constraints.get(c).map(|c| &c.kind) {
        Some(ConstraintKind::Physics(p)) if c < PAIRABLE as usize => {
            read(reads, p.bone);
            writes.push(p.bone);
            Role::Physics { springs: p.rotate > 0.0 || p.shear_x > 0.0 || p.scale_x > 0.0 }
        }
        Some(ConstraintKind::Transform(t)) if t.solver == TransformSolver::Legacy4x => {
            read(reads, t.source);
            for &b in &t.bones {
                read(reads, b);
                writes.push(b);
            }
            Role::Plain
        }
        _ => Role::Barrier,
    }
}

impl Skeleton {
    /// Reorders the walk so that independent 4.2 physics constraints run two by two (see the
    /// module documentation). Not for the lagged offsets of 4.0–4.1 or the lazy poses of
    /// 4.3, whose physics differ.
    pub(super) fn pair_physics(&mut self) {
        let data = &*self.data;
        if data.behaviour.physics_lagged_offsets || data.behaviour.lazy_bone_poses {
            return;
        }
        let physics = data.constraints.iter();
        if physics.filter(|c| matches!(c.kind, ConstraintKind::Physics(_))).count() < 2 {
            return;
        }
        let bones = &self.bones;
        let old = std::mem::take(&mut self.walk);
        let mut walk = Vec::with_capacity(old.len());
        let mut s = Scratch {
            writer: vec![NONE; bones.len()],
            readers: vec![NONE; bones.len()],
            ..Scratch::default()
        };
        let mut roles = Vec::with_capacity(old.len());
        let mut start = 0;
        for (i, &entry) in old.iter().enumerate() {
            let (mut reads, mut writes) =
                (std::mem::take(&mut s.reads), std::mem::take(&mut s.writes));
            let r = role(data, bones, entry, &mut reads, &mut writes);
            if r == Role::Barrier {
                schedule(old.get(start..i).unwrap_or_default(), &roles, &mut s, &mut walk);
                walk.push(entry);
                roles.clear();
                start = i + 1;
            } else {
                let e = roles.len() as u32;
                s.succ.push(NONE);
                s.waiting.push(0);
                for &b in &reads {
                    s.read(e, b);
                }
                for &b in &writes {
                    s.write(e, b);
                }
                roles.push(r);
            }
            (s.reads, s.writes) = (reads, writes);
        }
        schedule(old.get(start..).unwrap_or_default(), &roles, &mut s, &mut walk);
        self.walk = walk;
    }
}

/// Appends `segment` (entries of the roles `roles`, whose dependency graph `s` holds) to
/// `walk` in a dependency order, physics constraints paired when two are ready; clears the
/// graph for the next segment.
fn schedule(segment: &[WalkEntry], roles: &[Role], s: &mut Scratch, walk: &mut Vec<WalkEntry>) {
    let len = segment.len();
    for b in s.touched.drain(..) {
        if let (Some(w), Some(r)) = (s.writer.get_mut(b as usize), s.readers.get_mut(b as usize)) {
            *w = NONE;
            *r = NONE;
        }
    }
    // Heights (edges run from earlier entries to later ones).
    s.height.clear();
    s.height.resize(len, 0);
    for e in (0..len).rev() {
        let mut h = 0;
        let mut at = s.succ.get(e).copied().unwrap_or(NONE);
        while let Some(&(to, next)) = s.links.get(at as usize) {
            h = h.max(s.height.get(to as usize).copied().unwrap_or(0));
            at = next;
        }
        let own = matches!(roles.get(e), Some(Role::Physics { .. }));
        if let Some(slot) = s.height.get_mut(e) {
            *slot = h + u32::from(own);
        }
    }
    // List scheduling: plain entries in walk order as soon as ready, physics two by two:
    // the highest first, with one of its kind if one is ready.
    let mut plain = BinaryHeap::new();
    let mut physics = [BinaryHeap::new(), BinaryHeap::new()];
    let mut freed: Vec<u32> =
        (0..len as u32).filter(|&e| s.waiting.get(e as usize) == Some(&0)).collect();
    loop {
        for e in freed.drain(..) {
            match roles.get(e as usize) {
                Some(&Role::Physics { springs }) => {
                    let h = s.height.get(e as usize).copied().unwrap_or(0);
                    physics[usize::from(springs)].push((h, Reverse(e)));
                }
                _ => plain.push(Reverse(e)),
            }
        }
        let entry = |e: u32| segment.get(e as usize).copied();
        if let Some(Reverse(e)) = plain.pop() {
            walk.extend(entry(e));
            s.release(e, &mut freed);
            continue;
        }
        let [short, long] = &mut physics;
        let (same, other) = if long.peek() >= short.peek() { (long, short) } else { (short, long) };
        let Some((_, Reverse(first))) = same.pop() else { break };
        let second = same.pop().or_else(|| other.pop()).map(|(_, Reverse(e))| e);
        match (entry(first), second.and_then(entry)) {
            (Some(WalkEntry::Other(c0)), Some(WalkEntry::Other(c1))) => {
                walk.push(WalkEntry::Other(PAIR | c0 << 15 | c1));
            }
            // One alone (physics entries are all constraint entries: never two otherwise).
            (a, b) => walk.extend(a.into_iter().chain(b)),
        }
        s.release(first, &mut freed);
        if let Some(second) = second {
            s.release(second, &mut freed);
        }
    }
    // Every entry was scheduled: the edges run forward, so none waits for a later one.
    debug_assert!(s.waiting.iter().all(|&w| w == 0), "an entry left out of the walk");
    s.links.clear();
    s.succ.clear();
    s.waiting.clear();
}
