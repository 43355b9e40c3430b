//! The internal builder every source AST feeds.
//!
//! A conversion walks its AST once and calls the builder's checked helpers: each turns a wire
//! index into a typed id (recording a [`Problem`] when it is out of range), checks numbers
//! are finite, and applies the scale where the conversion says a field is scaled. The
//! builder then resolves what spans objects (linked meshes, atlas regions) and either
//! returns the data or every problem found. Ids handed out after a problem may be
//! placeholders, which is harmless: data with problems is never returned.

use crate::anim::CurveTable;
use crate::atlas_bind;
use crate::data::*;
use crate::error::{LoadError, Problem, ProblemKind};
use crate::ids::*;
use crate::LoadOptions;
use std::sync::Arc;

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

/// One entered object of the builder's path: `kind "name"`, or the name alone (a segment
/// entered by [`Builder::push`]); the name is `start..end` of the builder's name buffer and
/// `parent` the enclosing object's segment (`NO_SEG` at the top).
#[derive(Debug, Clone, Copy)]
struct Seg {
    kind: Option<&'static str>,
    start: usize,
    end: usize,
    parent: usize,
}

/// A recorded object path ([`Builder::here`]), formatted only if a problem needs it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PathAt(usize);

/// The parent of a top-level segment.
const NO_SEG: usize = usize::MAX;

/// Formats the path ending at segment `last`: segments joined by ` > `, each `kind "name"`
/// or its raw text.
fn render_path(segs: &[Seg], names: &str, last: usize) -> String {
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
        }
    }

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
    fn keep_path(&mut self) {
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
            let name = c.name.clone();
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

    /// Converts checked weighted vertices: `(bone, x, y, weight)` per influence, per vertex.
    /// Bind positions are scaled.
    pub fn weighted<I, V>(&mut self, vertices: I) -> Vertices
    where
        I: IntoIterator<Item = V>,
        V: IntoIterator<Item = (u32, f32, f32, f32)>,
    {
        let vertices = vertices.into_iter();
        // Reserve for the usual one to three influences per vertex (no regrowth per push).
        let n = vertices.size_hint().0;
        self.weighted_with_capacity(vertices, n * 2)
    }

    /// [`Builder::weighted`] when the total number of influences is known (exact buffers).
    pub fn weighted_with_capacity<I, V>(&mut self, vertices: I, influences: usize) -> Vertices
    where
        I: IntoIterator<Item = V>,
        V: IntoIterator<Item = (u32, f32, f32, f32)>,
    {
        let mut w = WeightedVertices::default();
        let vertices = vertices.into_iter();
        w.counts.reserve(vertices.size_hint().0);
        w.bones.reserve(influences);
        w.values.reserve(influences * 3);
        for v in vertices {
            let mut n = 0;
            for (bone, x, y, weight) in v {
                n += 1;
                let b = self.bone(bone);
                w.bones.push(b);
                let x = self.fs("vertex x", x);
                let y = self.fs("vertex y", y);
                let weight = self.f("vertex weight", weight);
                w.values.extend_from_slice(&[x, y, weight]);
            }
            w.counts.push(n);
        }
        Vertices::Weighted(w)
    }

    /// Converts unweighted vertices (scaled).
    pub fn unweighted(&mut self, xy: &[f32]) -> Vertices {
        Vertices::Unweighted(xy.iter().map(|&v| self.fs("vertex", v)).collect())
    }

    /// A sequence: frame paths per `Sequence::getPath`, one unsuffixed frame when the export
    /// has none (4.3 gotcha 6: every region and mesh has a sequence).
    pub fn sequence(&mut self, path: &Arc<str>, raw: Option<[u32; 4]>) -> SequenceData {
        match raw {
            None => SequenceData {
                start: 0,
                digits: 0,
                setup_index: 0,
                path: Arc::clone(path),
                numbered: false,
                regions: Frames::One([None]),
            },
            Some([count, start, digits, setup_index]) => {
                if count == 0 {
                    self.report(ProblemKind::Invalid("sequence has no frames".into()));
                }
                // `Sequence::apply` clamps the frame index to the last region.
                let setup_index = setup_index.min(count.saturating_sub(1));
                // The count was checked against `Limits::max_sequence_frames` by the parser;
                // one empty region slot per frame, no path strings.
                let regions = Frames::from_vec(vec![None; count as usize]);
                SequenceData {
                    start,
                    digits,
                    setup_index,
                    path: Arc::clone(path),
                    numbered: true,
                    regions,
                }
            }
        }
    }

    /// Resolves linked meshes (4.3 spec "Linked mesh resolution"): the source is looked up
    /// in the recorded skin and slot, must be a mesh, and lends its geometry; the timeline
    /// attachment is the source when `inheritTimelines`, else the linked mesh itself.
    pub fn resolve_links(&mut self) {
        let links = std::mem::take(&mut self.links);
        // Links resolve in file order, as the runtimes resolve them: a source that is a
        // linked mesh not resolved yet (the link itself, a cycle, a later link) has no
        // geometry to lend (the runtimes would copy empty arrays).
        let mut pending: std::collections::HashSet<AttachmentId> =
            links.iter().map(|l| l.mesh).collect();
        for link in links {
            let mesh = link.mesh;
            let skin_count = self.data.skins.len();
            let slot_count = self.data.slots.len();
            let (segs, names) = (&self.path_segs, &self.path_names);
            let problem = |kind| Problem { at: render_path(segs, names, link.at.0), kind };
            let (Some(skin), true) =
                (self.data.skins.get(link.skin as usize), (link.slot as usize) < slot_count)
            else {
                let (what, index, len) = if link.skin as usize >= skin_count {
                    ("skin", link.skin, skin_count)
                } else {
                    ("slot", link.slot, slot_count)
                };
                self.problems.push(problem(ProblemKind::IndexOutOfRange {
                    what,
                    index: u64::from(index),
                    len,
                }));
                continue;
            };
            let Some(source) = skin.attachment(SlotId(link.slot), &link.source) else {
                let kind = ProblemKind::LinkedMeshSourceMissing {
                    source_name: link.source.clone(),
                    skin: skin.name.clone(),
                    slot: self.data.slots[link.slot as usize].name.clone(),
                };
                self.problems.push(problem(kind));
                continue;
            };
            if pending.contains(&source) {
                let kind = ProblemKind::LinkedMeshSourceUnresolved {
                    source_name: link.source,
                    itself: source == link.mesh,
                };
                self.problems.push(problem(kind));
                continue;
            }
            let src = match &self.data.attachments[source.index()].kind {
                AttachmentKind::Mesh(m) => m.clone(),
                _ => {
                    let kind = ProblemKind::LinkedMeshSourceNotMesh { source_name: link.source };
                    self.problems.push(problem(kind));
                    continue;
                }
            };
            if let Some(AttachmentKind::Mesh(m)) =
                self.data.attachments.get_mut(link.mesh.index()).map(|a| &mut a.kind)
            {
                m.vertices = src.vertices;
                m.region_uvs = src.region_uvs;
                m.triangles = src.triangles;
                m.hull_length = src.hull_length;
                m.edges = src.edges;
                if m.width == 0.0 && m.height == 0.0 {
                    m.width = src.width;
                    m.height = src.height;
                }
                m.linked_source = Some(source);
                m.timeline_attachment = if link.inherit_timelines { source } else { link.mesh };
            }
            pending.remove(&mesh);
        }
    }

    /// Binds atlas regions (spine-cpp 4.2 `AtlasAttachmentLoader`: every sequence frame path
    /// is looked up with `Atlas::findRegion`), then computes setup geometry.
    pub fn bind_atlas(&mut self) {
        let Some(atlas) = self.options.atlas else { return };
        let atlas_name = self.options.atlas_name.to_owned();
        let mut page_ids: Vec<Option<PageId>> = vec![None; atlas.pages.len()];
        for page in &atlas.pages {
            if page.width() <= 0 || page.height() <= 0 {
                self.report(ProblemKind::Invalid(format!(
                    "atlas \"{}\" page \"{}\" has no size ({}x{}): UVs would not be finite",
                    self.options.atlas_name,
                    page.name,
                    page.width(),
                    page.height()
                )));
            }
        }
        // `Atlas::findRegion`: the first region with the name, in file order.
        let regions = atlas.pages.iter().map(|p| p.regions.len()).sum();
        let mut by_name = std::collections::HashMap::with_capacity_and_hasher(
            regions,
            std::hash::BuildHasherDefault::<Fnv1a>::default(),
        );
        for (pi, page) in atlas.pages.iter().enumerate() {
            for r in &page.regions {
                by_name.entry(r.name.as_str()).or_insert((pi, page, r));
            }
        }
        for i in 0..self.data.attachments.len() {
            let seq = match &mut self.data.attachments[i].kind {
                AttachmentKind::Region(r) => &mut r.sequence,
                AttachmentKind::Mesh(m) => &mut m.sequence,
                _ => continue,
            };
            let mut missing = Vec::new();
            let mut path = String::new();
            for i in 0..seq.len() {
                seq.write_frame_path(i, &mut path);
                let Some(region) = seq.regions.get_mut(i) else { break };
                let found = by_name.get(path.as_str()).copied();
                match found {
                    Some((pi, page, r)) => {
                        let pid = *page_ids[pi].get_or_insert_with(|| {
                            let id = PageId(self.data.pages.len() as u32);
                            self.data.pages.push(PageData {
                                name: page.name.clone(),
                                width: page.width(),
                                height: page.height(),
                                pma: page.pma(),
                            });
                            id
                        });
                        *region = Some(atlas_bind::texture_region(pid, page, r));
                    }
                    None => missing.push(path.clone()),
                }
            }
            let setup = seq.setup_index as usize;
            let setup_region = seq.regions.get(setup).cloned().flatten();
            let mut non_finite = None;
            match &mut self.data.attachments[i].kind {
                AttachmentKind::Region(r) => {
                    if let Some(tr) = &setup_region {
                        let offsets = atlas_bind::region_offsets(r, tr);
                        non_finite = offsets.iter().copied().find(|v| !v.is_finite());
                        r.offsets = Some(offsets);
                        r.uvs = Some(if self.data.behaviour.region_vertices_bl_first {
                            atlas_bind::region_uvs_bl_first(tr)
                        } else {
                            atlas_bind::region_uvs(tr)
                        });
                    }
                }
                AttachmentKind::Mesh(m) => {
                    if let Some(tr) = &setup_region {
                        let uvs = atlas_bind::mesh_uvs(&m.region_uvs, tr);
                        non_finite = uvs.iter().copied().find(|v| !v.is_finite());
                        m.uvs = Some(uvs);
                    }
                }
                _ => {}
            }
            if let Some(value) = non_finite {
                // Finite inputs can still overflow (a width of 1e38 times the region scale).
                let at = match self.attachment_at.get(i) {
                    Some(&seg) => render_path(&self.path_segs, &self.path_names, seg),
                    None => String::new(),
                };
                let field = match self.data.attachments[i].kind {
                    AttachmentKind::Region(_) => "region corner offset",
                    _ => "mesh UV",
                };
                self.problems.push(Problem { at, kind: ProblemKind::NonFinite { field, value } });
            }
            for region in missing {
                let at = match self.attachment_at.get(i) {
                    Some(&seg) => render_path(&self.path_segs, &self.path_names, seg),
                    None => String::new(),
                };
                let kind = ProblemKind::RegionNotInAtlas { region, atlas: atlas_name.clone() };
                self.problems.push(Problem { at, kind });
            }
        }
    }

    /// Checks a deform key range and builds the full deform array of a key:
    /// `None` values = setup (zeros for weighted, setup vertices for unweighted); otherwise
    /// zeros with the scaled values written from `start`, plus the setup vertices when
    /// unweighted (spine-cpp 4.2 `SkeletonBinary` deform reading).
    pub fn deform_key(
        &mut self,
        key: usize,
        vertices: &Vertices,
        values: Option<(u32, &[f32])>,
    ) -> Vec<f32> {
        let len = vertices.deform_length();
        let setup: &[f32] = match vertices {
            Vertices::Unweighted(v) => v,
            Vertices::Weighted(_) => &[],
        };
        let mut out = vec![0.0; len];
        if let Some((start, vals)) = values {
            let end = u64::from(start) + vals.len() as u64;
            if end > len as u64 {
                self.report(ProblemKind::DeformOutOfRange {
                    key,
                    start: u64::from(start),
                    end,
                    len,
                });
                return out;
            }
            for (o, &v) in out[start as usize..].iter_mut().zip(vals) {
                *o = v * self.scale;
            }
            for &v in &out {
                if !v.is_finite() {
                    self.report(ProblemKind::NonFinite { field: "deform value", value: v });
                    break;
                }
            }
            for (o, s) in out.iter_mut().zip(setup) {
                *o += s;
            }
        } else {
            for (o, s) in out.iter_mut().zip(setup) {
                *o = *s;
            }
        }
        out
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

/// FNV-1a: a cheap hasher for the atlas region-name table (short keys, not attacker-facing
/// in a way that matters: a colliding atlas only slows its own load).
#[derive(Default)]
struct Fnv1a(u64);

impl std::hash::Hasher for Fnv1a {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 { 0xcbf2_9ce4_8422_2325 } else { self.0 };
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

/// Resolves a draw-order key (spine-cpp 4.2 `SkeletonBinary` draw order reading): each
/// change moves slot `slot` to `slot + shift`, the others keep their relative order and fill
/// the free positions. Returns the order, or why the key is not a permutation.
pub(crate) fn draw_order(
    slot_count: usize,
    changes: impl IntoIterator<Item = (u32, i32)>,
) -> Result<Vec<u32>, String> {
    let mut order: Vec<Option<u32>> = vec![None; slot_count];
    let mut unchanged = Vec::with_capacity(slot_count);
    let mut original = 0u32;
    for (slot, shift) in changes {
        if slot < original || slot as usize >= slot_count {
            return Err(format!("slot {slot} out of order or range"));
        }
        while original != slot {
            unchanged.push(original);
            original += 1;
        }
        let target = i64::from(original) + i64::from(shift);
        let Some(cell) = usize::try_from(target).ok().and_then(|t| order.get_mut(t)) else {
            return Err(format!("slot {slot} moved to {target}"));
        };
        if cell.is_some() {
            return Err(format!("two slots moved to {target}"));
        }
        *cell = Some(original);
        original += 1;
    }
    while (original as usize) < slot_count {
        unchanged.push(original);
        original += 1;
    }
    for cell in order.iter_mut().rev() {
        if cell.is_none() {
            *cell = unchanged.pop();
        }
    }
    order.into_iter().map(|c| c.ok_or_else(|| "unfilled position".to_owned())).collect()
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
    use super::{all_finite, draw_order};

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

    #[test]
    fn draw_order_negative_shift() {
        // Slot 3 moves two positions back: 0 1 2 3 4 -> 0 3 1 2 4.
        assert_eq!(draw_order(5, [(3, -2)]), Ok(vec![0, 3, 1, 2, 4]));
    }

    #[test]
    fn draw_order_positive_and_negative() {
        // Slot 0 to the end, slot 4 to the front.
        assert_eq!(draw_order(5, [(0, 4), (4, -4)]), Ok(vec![4, 1, 2, 3, 0]));
    }

    #[test]
    fn draw_order_collision_is_reported() {
        assert_eq!(draw_order(3, [(0, 1), (1, 0)]), Err("two slots moved to 1".to_owned()));
    }
}
