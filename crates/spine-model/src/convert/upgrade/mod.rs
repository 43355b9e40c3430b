//! Upgrading any 3.5–4.2 skeleton to 4.2 or 4.3, the way the editor upgrades old projects:
//! the source is loaded into [`SkeletonData`](crate::SkeletonData) (the version-neutral model
//! every loader of this crate produces) and written back as a 4.3 ([`to_v43`]) or 4.2
//! ([`to_v42`]) binary AST; the JSON forms are those ASTs through [`super::v43_json`] /
//! [`super::v40_json`].
//!
//! # Mappings
//!
//! * **Curves.** 3.x curves are sampled in *percent* space, one bezier per segment shared by
//!   every channel (`setCurve`, 10 linear pieces); 4.x curves are one bezier per channel in
//!   time/value space (9 precomputed points). The 3.x control points are recovered from the
//!   model's sampled table and mapped per channel (`cx → t1 + cx·(t2 − t1)`,
//!   `cy → v1 + cy·(v2 − v1)`; deform curves keep `cy` as a percent): both runtimes then
//!   interpolate linearly between the same 11 points, so the curve is the same up to float
//!   rounding. 4.x tables give their control points back the same way (least squares over
//!   the 9 points, exact up to rounding).
//! * **Rotation.** 3.x `RotateTimeline` interpolates from one key to the next along the
//!   shorter way (the difference wrapped into `[-180, 180]`); 4.x interpolates the values.
//!   Each 3.x key is unwrapped against the previous one (`v'ₖ = v'ₖ₋₁ + wrap(vₖ − vₖ₋₁)`), so
//!   every pose is the same (angles equal modulo 360°).
//! * **Mixes.** The 3.x four transform mixes (rotate, translate, scale, shear) and two path
//!   mixes (rotate, translate) were expanded to the 4.x six and three by the loaders (`x = y`,
//!   `scaleX = scaleY`); timelines likewise.
//! * **Transform constraints** (4.3 target). 3.x and 4.0–4.2 constraints become 4.3 from/to
//!   constraints with the identity mapping (rotate → rotate, x → x, y → y, scaleX → scaleX,
//!   scaleY → scaleY, shearY → shearY; offset 0, scale 1) plus the 4.x offsets, `local` →
//!   `localSource` and `localTarget`, `relative` → `additive`. The 4.3 maths equals the 4.2
//!   maths for the world-space variants and the relative local one.
//! * **IK**: `uniform` → scale-y mode `uniform`; bend, compress, stretch, softness as is.
//! * **Path constraints**: modes, offsets and mixes as is.
//! * **Linked meshes** are written as linked meshes (source skin, slot and placeholder found
//!   in the data); 4.3 mesh `timelineSlots` are derived from them as the 4.3 loaders do.
//! * **Draw orders** are written as the `(slot, offset)` changes that rebuild the model's
//!   order; deform keys as offsets from the setup vertices (unweighted) trimmed to the
//!   changed range.
//! * **Colors** are written as bytes (`round(v × 255)`): exact for binary sources; a JSON
//!   alpha key that is not a multiple of 1/255 rounds.
//!
//! # What cannot be expressed, and what the converter does
//!
//! The converter keeps the data and lets the target version's runtime apply its own rules,
//! and says so in [`Output::notes`](super::Output::notes) when the source uses one of these:
//!
//! * 3.5–3.7 IK (`ik_without_inherit`: no inherit-mode handling, the parent of a two-bone chain posed
//!   from its local rotation): solved with the target's IK.
//! * 3.5/3.6 path constraints (spine-c spacing and tangent rules, `path_scales_every_spacing`): solved
//!   with the target's path constraint.
//! * 3.x transform constraints: the local absolute variant no longer wraps the rotation and
//!   shear differences into `[-180, 180]`, and negative scale/shear mixes apply (3.x applied
//!   them only when `> 0`).
//! * 4.0–4.2 local absolute transform constraints with a scale mix (4.3 target): 4.x divides
//!   the mixed scale by the bone's scale (`(s + (t − s + o)·m) / s`); 4.3 mixes
//!   (`s + (t + o − s)·m`). The 4.3 maths applies.
//! * 4.2 physics (4.3 target): 4.3 interpolates the simulation's lag per step and treats
//!   scale limits, wind and gravity differently; the constraint is kept and simulated with
//!   the 4.3 rules.
//! * AnimationState behaviour (mixing between animations, hold/dip rules, the 3.x rotation
//!   mixing, event windows): not data; the target runtime's rules apply.
//! * Editor-only data the model does not keep: bone icons, editor visibility, the images and
//!   audio folders (kept when the caller passes them in [`Extras`]).
//! * A mesh whose triangle count differs from what its vertex and hull counts imply (3.x–4.1
//!   binaries store the count, 4.2/4.3 binaries do not): the hull count is adjusted (it is
//!   editor data) when that makes the counts agree; otherwise the conversion fails.
//!
//! Downgrades are refused ([`super::convert`]).
//!
//! # Measured, with the official runtimes as referees
//!
//! Every corpus rig (147 `.skel`, 147 `.json`, 3.5–4.2) converted to 4.3 binary and to 4.3
//! JSON loads in the official 4.3 runtime (spine-core 4.3.13, `spine43-oracle`), including
//! 3.8 `hero-pro.json`, which spine-cpp 3.8 itself cannot load. Posed at the times of its own
//! version's goldens (`../shared/oracle/spine-<v>`, that version's official runtime) and
//! compared bone by bone within `1e-3 · max(1, |golden|)` (`tests/convert_oracle.rs`), the 4.3
//! binary and the 4.3 JSON give the same figures:
//!
//! | source | pose samples matching | rigs matching at every sample |
//! | ------ | --------------------- | ----------------------------- |
//! | 3.5    | 986 / 1036 (95.2 %)   | 28 / 36                       |
//! | 3.6    | 1302 / 1366 (95.3 %)  | 30 / 36                       |
//! | 3.7    | 1382 / 1396 (99.0 %)  | 40 / 42                       |
//! | 3.8    | 1452 / 1452 (100 %)   | 41 / 41                       |
//! | 4.0    | 1576 / 1576 (100 %)   | 42 / 42                       |
//! | 4.1    | 2280 / 2280 (100 %)   | 44 / 44                       |
//! | 4.2    | 2654 / 2654 (100 %)   | 52 / 52                       |
//!
//! Each remaining difference is one of the documented semantic ones, and the test checks
//! that every differing bone is explained:
//! * 3.5 `stretchyman`, `tank`, `test`, `vine` and 3.6 `stretchyman-pro`, `tank-pro`,
//!   `vine-pro` (binary and JSON sources): bones on path constraints, which spine-c 3.5/3.6
//!   space and orient with their own rules;
//! * 3.7 `stretchyman-stretchy-ik-pro`: path-constrained legs whose path attachments are
//!   weighted to bones of stretching IK chains, which 3.7 IK solves differently.
//!
//! The 4.2 target, posed by this project's runtime (which matches the 4.2 goldens
//! everywhere), gives exactly the same figures.
//!
//! # Where things are
//!
//! * `keys`: 3.x / 4.x curve tables as 4.x keys (bezier recovery, rotation unwrapping) and
//!   the value encodings (colors as bytes, fixed-size arrays); `draw_order`: draw orders as
//!   `(slot, offset)` changes; `notes`: the [`Notes`] and what the target's runtime does
//!   differently.
//! * `to43`: the model as a 4.3 binary AST (skeleton, constraints, attachments, animations).
//! * `to42`: that 4.3 AST in the 4.2 layout (the same four parts).

mod draw_order;
mod keys;
mod notes;
mod to42;
mod to43;

pub use notes::Notes;
pub use to42::to_v42;
pub use to43::to_v43;

/// What the model does not keep but the source had: carried into the target file.
#[derive(Debug, Clone, Default)]
pub struct Extras {
    /// The 8 bytes of a 4.x hash (or of an 11-character base64 3.x hash).
    pub hash: Option<[u8; 8]>,
    /// The images folder.
    pub images: Option<String>,
    /// The audio folder.
    pub audio: Option<String>,
}

/// Why an upgrade failed.
#[derive(Debug, Clone, PartialEq)]
pub struct UpgradeError(pub String);
