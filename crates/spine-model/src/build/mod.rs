//! The internal builder every source AST feeds.
//!
//! A conversion walks its AST once and calls the builder's checked helpers: each turns a wire
//! index into a typed id (recording a [`Problem`] when it is out of range), checks numbers
//! are finite, and applies the scale where the conversion says a field is scaled. The
//! builder then resolves what spans objects (linked meshes, atlas regions) and either
//! returns the data or every problem found. Ids handed out after a problem may be
//! placeholders, which is harmless: data with problems is never returned.

mod atlas;
mod links;
mod order;
mod path;
mod vertices;

use crate::anim::CurveTable;
use crate::data::*;
use crate::error::{LoadError, Problem, ProblemKind};
use crate::ids::*;
use crate::LoadOptions;
use std::sync::Arc;

pub(crate) use links::empty_mesh;
pub(crate) use order::{draw_order_with, update_order};
pub(crate) use path::PathAt;
use path::{render_path, Seg, NO_SEG};
pub(crate) use vertices::check_mesh_parts;

/// A linked mesh waiting for its source.
pub(crate) struct PendingLink {
    /// The linked mesh (already added, with empty geometry).
    pub mesh: AttachmentId,
    /// Skin index of the source.
    pub skin: u32,
    /// Slot index of the source.
    pub slot: u32,
    /// Placeholder name of the source.
    pub source: String,
    /// Whether the source's deform/sequence timelines apply.
    pub inherit_timelines: bool,
    /// Where the linked mesh is (for problems).
    pub at: PathAt,
}

/// Expected record counts for [`Builder::reserve`].
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Counts {
    /// Bones.
    pub bones: usize,
    /// Slots.
    pub slots: usize,
    /// Constraints of every kind.
    pub constraints: usize,
    /// Skins (the default skin included).
    pub skins: usize,
    /// Attachments over every skin.
    pub attachments: usize,
    /// Events.
    pub events: usize,
    /// Animations.
    pub animations: usize,
}

/// The builder.
pub(crate) struct Builder<'o> {
    /// The load scale.
    pub scale: f32,
    options: LoadOptions<'o>,
    /// Problems found so far.
    pub problems: Vec<Problem>,
    /// The object path (`bone "hip" > …`), kept unformatted so entering an object only
    /// copies its name: each entered object is a segment of `path_segs` (so a recorded path
    /// is one index), its name in `path_names`; `path_at` is the current one. A path is
    /// formatted only when a problem is reported.
    path_segs: Vec<Seg>,
    path_names: String,
    path_at: usize,
    /// Segments below this index stay: a recorded path ([`Builder::here`], an attachment's)
    /// names them. Leaving a later segment that is the last one drops it.
    path_kept: usize,
    /// The data under construction.
    pub data: SkeletonData,
    /// Object path of each attachment (its segment), for problems.
    attachment_at: Vec<usize>,
    links: Vec<PendingLink>,
    /// Reused while weighted vertices are converted one influence at a time: counts,
    /// bone indices, values (packed into one allocation when done).
    pub weighted_scratch: (Vec<u32>, Vec<u32>, Vec<f32>),
}

impl<'o> Builder<'o> {
    /// A builder for an export following `behaviour`.
    pub fn new(behaviour: Behaviour, options: &LoadOptions<'o>) -> Self {
        Builder {
            scale: options.scale,
            options: *options,
            problems: Vec::new(),
            path_segs: Vec::new(),
            path_names: String::new(),
            path_at: NO_SEG,
            path_kept: 0,
            data: SkeletonData {
                hash: String::new(),
                behaviour,
                x: 0.0,
                y: 0.0,
                width: 0.0,
                height: 0.0,
                reference_scale: 100.0,
                fps: 30.0,
                bones: Vec::new(),
                slots: Vec::new(),
                constraints: Vec::new(),
                skins: Vec::new(),
                default_skin: None,
                attachments: Vec::new(),
                pages: Vec::new(),
                events: Vec::new(),
                animations: Vec::new(),
            },
            attachment_at: Vec::new(),
            links: Vec::new(),
            weighted_scratch: Default::default(),
        }
    }
}

impl Builder<'_> {
    /// A mesh's arrays packed, with room for the page UVs when an atlas will be bound.
    pub fn mesh_arrays(&self, region_uvs: &[f32], triangles: &[u32], edges: &[u32]) -> MeshArrays {
        MeshArrays::with_room(region_uvs, triangles, edges, self.options.atlas.is_some())
    }

    /// Checks `index < len`.
    pub fn check_index(&mut self, what: &'static str, index: u32, len: usize) -> u32 {
        if index as usize >= len {
            self.report(ProblemKind::IndexOutOfRange { what, index: u64::from(index), len });
            0
        } else {
            index
        }
    }

    /// A bone reference (bones must be built).
    pub fn bone(&mut self, index: u32) -> BoneId {
        BoneId(self.check_index("bone", index, self.data.bones.len()))
    }

    /// Several bone references.
    pub fn bones(&mut self, indices: &[u32]) -> Vec<BoneId> {
        indices.iter().map(|&i| self.bone(i)).collect()
    }

    /// A slot reference (slots must be built).
    pub fn slot(&mut self, index: u32) -> SlotId {
        SlotId(self.check_index("slot", index, self.data.slots.len()))
    }

    /// An event reference.
    pub fn event(&mut self, index: u32) -> EventId {
        EventId(self.check_index("event", index, self.data.events.len()))
    }

    /// A constraint reference that must be of type `expected` (constraints must be built).
    pub fn constraint(&mut self, id: ConstraintId, expected: ConstraintType) -> ConstraintId {
        let Some(c) = self.data.constraints.get(id.index()) else {
            let len = self.data.constraints.len();
            self.report(ProblemKind::IndexOutOfRange {
                what: "constraint",
                index: u64::from(id.0),
                len,
            });
            return ConstraintId(0);
        };
        let found = c.kind.constraint_type();
        if found != expected {
            let name = c.name.to_string();
            self.report(ProblemKind::WrongConstraintType { index: id.0, name, expected, found });
        }
        id
    }

    /// A finite number.
    pub fn f(&mut self, field: &'static str, value: f32) -> f32 {
        if !value.is_finite() {
            self.report(ProblemKind::NonFinite { field, value });
        }
        value
    }

    /// A physics constraint's step, `1 / fps`. The editor stores fps in one byte, so 1–255 is
    /// the range real data has; anything else (0, negative, 2^31) is reported and clamped
    /// into it, so that no step is infinite or too small to advance the simulation clock.
    pub fn physics_step(&mut self, fps: i64) -> f32 {
        if !(1..=255).contains(&fps) {
            self.report(ProblemKind::Invalid(format!("physics fps {fps} is outside 1..=255")));
        }
        1.0 / fps.clamp(1, 255) as f32
    }

    /// A finite number times the load scale (a "scaled" field).
    pub fn fs(&mut self, field: &'static str, value: f32) -> f32 {
        let s = self.scale;
        self.f(field, value * s)
    }

    /// A required name as a shared string; reports [`ProblemKind::MissingName`] when absent.
    pub fn name_shared(&mut self, what: &'static str, name: Option<&str>) -> Arc<str> {
        match name {
            Some(n) => Arc::from(n),
            None => {
                self.report(ProblemKind::MissingName { what });
                Arc::from("")
            }
        }
    }

    /// A required name as a `String`; reports [`ProblemKind::MissingName`] when absent.
    pub fn name(&mut self, what: &'static str, name: Option<&str>) -> String {
        match name {
            Some(n) => n.to_owned(),
            None => {
                self.report(ProblemKind::MissingName { what });
                String::new()
            }
        }
    }

    /// Adds a bone, checking its parent precedes it.
    pub fn add_bone(&mut self, index: usize, parent: Option<u32>, mut bone: BoneData) {
        if let Some(p) = parent {
            if p as usize >= index {
                self.report(ProblemKind::ParentOrder { bone: index as u32, parent: p });
                bone.parent = None;
            } else {
                bone.parent = Some(BoneId(p));
            }
        } else if index > 0 {
            self.report(ProblemKind::Invalid("only the first bone may have no parent".into()));
        }
        self.data.bones.push(bone);
    }

    /// Adds an attachment found at the current path.
    pub fn add_attachment(&mut self, attachment: AttachmentData) -> AttachmentId {
        let id = AttachmentId(self.data.attachments.len() as u32);
        self.data.attachments.push(attachment);
        self.keep_path();
        self.attachment_at.push(self.path_at);
        id
    }

    /// Reserves the exact room for the lists a converter knows the length of up front (they
    /// are pushed one by one; growing them copies every record built so far).
    pub fn reserve(&mut self, counts: Counts) {
        let d = &mut self.data;
        d.bones.reserve_exact(counts.bones);
        d.slots.reserve_exact(counts.slots);
        d.constraints.reserve_exact(counts.constraints);
        d.skins.reserve_exact(counts.skins);
        d.attachments.reserve_exact(counts.attachments);
        self.attachment_at.reserve_exact(counts.attachments);
        d.events.reserve_exact(counts.events);
        d.animations.reserve_exact(counts.animations);
        // The object path keeps a skin, slot and attachment segment per attachment at most
        // (each records its path); names average well under 16 bytes. (The counts are of
        // records already read, so this is of the order of what they hold already.)
        let segs =
            counts.attachments.saturating_mul(2).saturating_add(counts.skins).saturating_add(8);
        self.path_segs.reserve(segs);
        self.path_names.reserve(segs.saturating_mul(16));
    }

    /// Records a linked mesh to resolve in [`Builder::resolve_links`].
    pub fn link(&mut self, link: PendingLink) {
        self.links.push(link);
    }

    /// Adds a skin; sorts its entries for lookups.
    pub fn add_skin(&mut self, mut skin: SkinData) -> SkinId {
        skin.entries.sort_by(|a, b| (a.slot, &a.name).cmp(&(b.slot, &b.name)));
        let id = SkinId(self.data.skins.len() as u32);
        self.data.skins.push(skin);
        id
    }

    /// Checks every key of a curve table is finite.
    pub fn check_curves(&mut self, curves: CurveTable<'_>) {
        // Branch-free scan first; the search only when something is off.
        if all_finite(curves.frames) && all_finite(curves.curves) {
            return;
        }
        if let Some(v) = curves.frames.iter().chain(curves.curves).find(|v| !v.is_finite()) {
            let value = *v;
            self.report(ProblemKind::NonFinite { field: "timeline value", value });
        }
    }

    /// Finishes: returns the data, or every problem.
    pub fn finish(self) -> Result<SkeletonData, LoadError> {
        if self.problems.is_empty() {
            Ok(self.data)
        } else {
            Err(LoadError::Invalid(self.problems))
        }
    }
}

/// Whether every value is finite. A float is not finite when its exponent bits are all
/// ones: adding one to the exponent field then carries into bit 31. Integer and/add/or only,
/// so the scan vectorizes on baseline SSE2 (`f32::is_finite` in a fold did not).
fn all_finite(s: &[f32]) -> bool {
    let carry = s.iter().fold(0u32, |acc, v| acc | crate::curves::non_finite_bit(*v));
    carry & 0x8000_0000 == 0
}

/// The physics "global" flags of the binary formats: bits 0–6 = inertia, strength,
/// damping, mass, wind, gravity, mix.
pub(crate) fn physics_globals(g: u8) -> PhysicsGlobals {
    PhysicsGlobals {
        inertia: g & 1 != 0,
        strength: g & 2 != 0,
        damping: g & 4 != 0,
        mass: g & 8 != 0,
        wind: g & 16 != 0,
        gravity: g & 32 != 0,
        mix: g & 64 != 0,
    }
}

/// `base` shared when `s` is absent or spells the same string, else a new allocation of `s`
/// (attachment names, image paths and single frame paths are usually one string).
pub(crate) fn share(base: &Arc<str>, s: Option<&str>) -> Arc<str> {
    match s {
        Some(s) if s != &**base => Arc::from(s),
        _ => Arc::clone(base),
    }
}

#[cfg(test)]
mod tests {
    use super::all_finite;

    #[test]
    fn all_finite_agrees_with_is_finite() {
        let specials = [
            0.0,
            -0.0,
            1.0,
            -1.5e-40,
            f32::MIN_POSITIVE,
            f32::MAX,
            f32::MIN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
            f32::from_bits(0x7f80_0001),
            f32::from_bits(0xff7f_ffff),
        ];
        for a in specials {
            for b in specials {
                let s = [1.0, a, 2.0, b, 3.0];
                assert_eq!(all_finite(&s), a.is_finite() && b.is_finite(), "{a:?} {b:?}");
            }
        }
        assert!(all_finite(&[]));
    }
}
