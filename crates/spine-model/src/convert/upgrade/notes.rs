//! The [`Notes`] of an upgrade, and the notes on what the target version's runtime does
//! differently from the source's (see the module documentation of [`super`]).

use crate::anim::*;
use crate::data::*;

/// Things the conversion could not carry over exactly, one line each (deduplicated).
#[derive(Debug, Default)]
pub struct Notes {
    lines: Vec<String>,
}

impl Notes {
    /// Adds a line once.
    pub fn add(&mut self, line: impl Into<String>) {
        let line = line.into();
        if !self.lines.contains(&line) {
            self.lines.push(line);
        }
    }
    /// The lines.
    pub fn into_lines(self) -> Vec<String> {
        self.lines
    }
}

/// Notes on what the source uses that the target's runtime solves by its own rules.
pub(super) fn semantic_notes(d: &SkeletonData, to43: bool, notes: &mut Notes) {
    let b = &d.behaviour;
    let has = |ty: ConstraintType| d.constraints.iter().any(|c| c.kind.constraint_type() == ty);
    if b.ik_without_inherit && has(ConstraintType::Ik) {
        notes.add(
            "IK: 3.5-3.7 IK (no inherit-mode handling, the chain parent posed from its local \
             rotation) is solved with the target version's IK",
        );
    }
    if b.path_scales_every_spacing && has(ConstraintType::Path) {
        notes.add(
            "path constraints: the 3.5/3.6 spine-c spacing and tangent rules are replaced by \
             the target version's",
        );
    }
    for (ci, c) in d.constraints.iter().enumerate() {
        if let ConstraintKind::Transform(t) = &c.kind {
            transform_notes(d, ci, &c.name, t, to43, notes);
        }
    }
    if to43 && b.physics && !b.physics_lagged_offsets && has(ConstraintType::Physics) {
        notes.add(
            "physics: simulated with the 4.3 rules (lag interpolation, limits, wind, gravity)",
        );
    }
    if b.rotation_mix == RotationMix::Spine3
        || b.mix_without_hold
        || b.event_window == EventWindow::Spine3
    {
        notes.add(
            "AnimationState: mixing between animations, rotation mixing and event windows \
             follow the target version's rules",
        );
    }
}

/// The notes on transform constraint `ci` (named `name`).
fn transform_notes(
    d: &SkeletonData,
    ci: usize,
    name: &str,
    t: &TransformData,
    to43: bool,
    notes: &mut Notes,
) {
    // The mixes of a channel, setup and keys.
    let mixes = |ch: usize| {
        let mut v = vec![t.mixes[ch]];
        for a in &d.animations {
            for x in &a.timelines {
                if let Timeline::Transform { constraint, curves } = x {
                    if constraint.index() == ci {
                        let table = a.table(curves);
                        v.extend((0..table.frame_count()).map(|k| table.value(k, ch)));
                    }
                }
            }
        }
        v
    };
    let (sx, sy, sh) = (
        mixes(transform_slot::SCALE_X),
        mixes(transform_slot::SCALE_Y),
        mixes(transform_slot::SHEAR_Y),
    );
    let local_absolute = t.local_target && !t.additive;
    if t.solver == TransformSolver::Legacy3x {
        if local_absolute {
            notes.add(format!(
                "transform constraint {name:?}: 3.x wraps the local rotation and shear differences \
                 into [-180, 180]; the target does not"
            ));
        }
        if sx.iter().chain(&sy).chain(&sh).any(|&m| m < 0.0) {
            notes.add(format!(
                "transform constraint {name:?}: 3.x ignores negative scale and shear mixes; the \
                 target applies them"
            ));
        }
    }
    let scale_mixed = sx.iter().chain(&sy).any(|&m| m != 0.0);
    if to43 && local_absolute && scale_mixed && t.solver != TransformSolver::FromTo {
        notes.add(format!(
            "transform constraint {name:?}: 4.x local absolute scale mixing (divided by the bone's \
             scale) becomes 4.3's"
        ));
    }
}
