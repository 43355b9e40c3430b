//! Sequences (frame paths) and linked meshes resolved against their sources.

use std::sync::Arc;

use super::{render_path, Builder};
use crate::data::*;
use crate::error::Problem;
use crate::error::ProblemKind;
use crate::ids::*;

impl Builder<'_> {
    /// A sequence: frame paths per `Sequence::getPath`, one unsuffixed frame when the export
    /// has none (4.3 gotcha 6: every region and mesh has a sequence).
    #[inline]
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
                    skin: skin.name.to_string(),
                    slot: self.data.slots[link.slot as usize].name.to_string(),
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
                // The geometry only (the source's path, sequence and slots stay its own).
                AttachmentKind::Mesh(m) => {
                    (m.vertices.clone(), m.arrays.clone(), m.hull_length, m.width, m.height)
                }
                _ => {
                    let kind = ProblemKind::LinkedMeshSourceNotMesh { source_name: link.source };
                    self.problems.push(problem(kind));
                    continue;
                }
            };
            if let Some(AttachmentKind::Mesh(m)) =
                self.data.attachments.get_mut(link.mesh.index()).map(|a| &mut a.kind)
            {
                let (vertices, arrays, hull_length, width, height) = src;
                m.vertices = vertices;
                m.arrays = arrays;
                m.hull_length = hull_length;
                if m.width == 0.0 && m.height == 0.0 {
                    m.width = width;
                    m.height = height;
                }
                m.linked_source = Some(source);
                m.timeline_attachment = if link.inherit_timelines { source } else { link.mesh };
            }
            pending.remove(&mesh);
        }
    }
}

/// A mesh without geometry: a linked mesh until [`Builder::resolve_links`] lends it its
/// source's (`size` scaled; `sequence` and whether the export had one; `id` its own id,
/// the timeline attachment until resolved).
pub(crate) fn empty_mesh(
    path: Arc<str>,
    color: Color,
    [width, height]: [f32; 2],
    (sequence, has_sequence): (SequenceData, bool),
    id: AttachmentId,
) -> MeshAttachment {
    MeshAttachment {
        path,
        color,
        vertices: Vertices::Unweighted(Vec::new()),
        arrays: MeshArrays::default(),
        hull_length: 0,
        width,
        height,
        sequence,
        has_sequence,
        linked_source: None,
        timeline_attachment: id,
        timeline_slots: Vec::new(),
    }
}
