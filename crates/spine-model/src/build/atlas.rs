//! Atlas binding (spine-cpp 4.2 `AtlasAttachmentLoader`): every sequence frame path is
//! looked up with `Atlas::findRegion`, then the setup frame gives the region's offsets and
//! UVs or the mesh's UVs.

use std::collections::HashMap;

use spine_format::atlas::{Atlas, Page, Region};

use super::{render_path, Builder};
use crate::atlas_bind;
use crate::data::*;
use crate::error::{Problem, ProblemKind};
use crate::ids::*;

/// Atlas regions by name (the first of equal names, in file order), with their page; hashed
/// by foldhash (per-map random seeds).
type RegionIndex<'a> = HashMap<&'a str, (usize, &'a Page, &'a Region), foldhash::fast::RandomState>;

/// `Atlas::findRegion`'s table: the first region with each name, in file order.
fn region_index(atlas: &Atlas) -> RegionIndex<'_> {
    let regions = atlas.pages.iter().map(|p| p.regions.len()).sum();
    let mut by_name = HashMap::with_capacity_and_hasher(regions, Default::default());
    for (pi, page) in atlas.pages.iter().enumerate() {
        for r in &page.regions {
            by_name.entry(r.name.as_str()).or_insert((pi, page, r));
        }
    }
    by_name
}

/// The atlas pages used so far: each atlas page's id once a region of it is bound.
struct Pages<'d> {
    /// The skeleton's page list.
    pages: &'d mut Vec<PageData>,
    /// Per atlas page, its id in `pages`.
    ids: Vec<Option<PageId>>,
}

impl Pages<'_> {
    /// The id of atlas page `pi`, added to the skeleton's pages on first use.
    #[inline]
    fn id(&mut self, pi: usize, page: &Page) -> PageId {
        let pages = &mut *self.pages;
        *self.ids[pi].get_or_insert_with(|| {
            let id = PageId(pages.len() as u32);
            pages.push(PageData {
                name: page.name.clone(),
                width: page.width(),
                height: page.height(),
                pma: page.pma(),
            });
            id
        })
    }
}

/// Binds each frame of `seq` to its region; returns the frame paths the atlas lacks.
/// `path` is scratch for the frame paths (kept between calls for its capacity).
#[inline]
fn bind_frames(
    seq: &mut SequenceData,
    by_name: &RegionIndex<'_>,
    pages: &mut Pages<'_>,
    path: &mut String,
) -> Vec<String> {
    let mut missing = Vec::new();
    for i in 0..seq.len() {
        seq.write_frame_path(i, path);
        let Some(region) = seq.regions.get_mut(i) else { break };
        match by_name.get(path.as_str()).copied() {
            Some((pi, page, r)) => {
                *region = Some(atlas_bind::texture_region(pages.id(pi, page), page, r));
            }
            None => missing.push(path.clone()),
        }
    }
    missing
}

impl Builder<'_> {
    /// Binds atlas regions (spine-cpp 4.2 `AtlasAttachmentLoader`: every sequence frame path
    /// is looked up with `Atlas::findRegion`), then computes setup geometry.
    pub fn bind_atlas(&mut self) {
        let Some(atlas) = self.options.atlas else { return };
        let atlas_name = self.options.atlas_name.to_owned();
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
        let by_name = region_index(atlas);
        let mut page_ids = vec![None; atlas.pages.len()];
        let mut path = String::new();
        for i in 0..self.data.attachments.len() {
            let seq = match &mut self.data.attachments[i].kind {
                AttachmentKind::Region(r) => &mut r.sequence,
                AttachmentKind::Mesh(m) => &mut m.sequence,
                _ => continue,
            };
            let mut pages =
                Pages { pages: &mut self.data.pages, ids: std::mem::take(&mut page_ids) };
            let missing = bind_frames(seq, &by_name, &mut pages, &mut path);
            page_ids = pages.ids;
            if let Some(value) = self.setup_geometry(i) {
                // Finite inputs can still overflow (a width of 1e38 times the region scale).
                let field = match self.data.attachments[i].kind {
                    AttachmentKind::Region(_) => "region corner offset",
                    _ => "mesh UV",
                };
                self.report_attachment(i, ProblemKind::NonFinite { field, value });
            }
            for region in missing {
                let kind = ProblemKind::RegionNotInAtlas { region, atlas: atlas_name.clone() };
                self.report_attachment(i, kind);
            }
        }
    }

    /// The setup frame's geometry of attachment `i`: a region's corner offsets and UVs, a
    /// mesh's UVs. Returns the first value that is not finite.
    fn setup_geometry(&mut self, i: usize) -> Option<f32> {
        let bl_first = self.data.behaviour.region_vertices_bl_first;
        let setup_region = match &self.data.attachments[i].kind {
            AttachmentKind::Region(r) => &r.sequence,
            AttachmentKind::Mesh(m) => &m.sequence,
            _ => return None,
        };
        let setup = setup_region.setup_index as usize;
        let tr = setup_region.regions.get(setup).cloned().flatten()?;
        match &mut self.data.attachments[i].kind {
            AttachmentKind::Region(r) => {
                let offsets = atlas_bind::region_offsets(r, &tr);
                let non_finite = offsets.iter().copied().find(|v| !v.is_finite());
                r.offsets = Some(offsets);
                r.uvs = Some(if bl_first {
                    atlas_bind::region_uvs_bl_first(&tr)
                } else {
                    atlas_bind::region_uvs(&tr)
                });
                non_finite
            }
            AttachmentKind::Mesh(m) => {
                let mut non_finite = None;
                m.arrays.bind_page_uvs(|region, page| {
                    atlas_bind::mesh_uvs_into(region, &tr, page);
                    non_finite = first_non_finite(page);
                });
                non_finite
            }
            _ => None,
        }
    }

    /// Reports a problem at attachment `i`'s recorded path.
    fn report_attachment(&mut self, i: usize, kind: ProblemKind) {
        let at = match self.attachment_at.get(i) {
            Some(&seg) => render_path(&self.path_segs, &self.path_names, seg),
            None => String::new(),
        };
        self.problems.push(Problem { at, kind });
    }
}

/// The first value of `v` that is not finite, if any: a pass without early exit first (it
/// vectorizes; the usual mesh has none), then the search.
fn first_non_finite(v: &[f32]) -> Option<f32> {
    let exponent = 0x7f80_0000;
    if v.iter().fold(false, |bad, x| bad | (x.to_bits() & exponent == exponent)) {
        v.iter().copied().find(|x| !x.is_finite())
    } else {
        None
    }
}
