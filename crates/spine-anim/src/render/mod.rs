//! Skeleton → render commands, as spine-cpp 4.2 `SkeletonRenderer` (with `SkeletonClipping`
//! and `Triangulator`).
//!
//! [`SkeletonRenderer::render`] walks the draw order and appends one draw per visible region
//! or mesh attachment to a [`RenderCommands`] buffer (clipped by the active clipping
//! attachment, if any). With [`Batching::SpineCpp`] (what [`SkeletonRenderer::commands`]
//! sets up) the command list is the one spine-cpp 4.2 produces:
//!
//! * a slot is skipped when it shows nothing, when its alpha is 0 or its bone is inactive
//!   (clipping attachments excepted), or when the attachment's alpha is 0; a skipped slot
//!   still ends clipping when it is the clip's end slot;
//! * the light color is `(u8)(skeleton * slot * attachment * 255)` per channel (truncated),
//!   the dark color `0xff000000 | rgb` of the slot's dark color, or `0xff000000`;
//! * fully clipped draws are dropped.
//!
//! [`SkeletonRenderer::bounds`] is spine-cpp's `Skeleton::getBounds`; [`SkeletonBounds`] the
//! bounding-box hit tests.
//!
//! Every buffer is kept between frames: once warm, rendering allocates nothing.

mod bounds;
mod clipping;
mod triangulator;

pub use bounds::{polygon_contains_point, polygon_intersects_segment, SkeletonBounds};
pub use clipping::{make_clockwise, SkeletonClipping};
pub use triangulator::Triangulator;

use std::collections::HashMap;
use std::sync::{Arc, Weak};

use wide::{f32x4, i16x8, i32x4, i32x8, u8x16, CmpEq};

use spine_model::{
    mesh_uvs, region_offsets, region_uvs, region_uvs_bl_first, AttachmentKind, SequenceData,
    SkeletonData, TextureRegion, Vertices, WeightedVertices,
};
use spine_render_traits::{
    Argb, Batching, BlendMode, PaddedIndices, PageId, RenderCommands, INDEX_BLOCK,
};

use crate::skeleton::{Skeleton, Slot};
use crate::vertices::{BonePack, PreparedWeights};

/// A region's two triangles: `[0, 1, 2, 2, 3, 0]` (3.6+ `quadIndices`), or spine-sfml 3.5's
/// `[0, 1, 2, 0, 2, 3]` for its `BL, UL, UR, BR` corners (the same two triangles).
const QUAD: [u16; 6] = [0, 1, 2, 2, 3, 0];
const QUAD_BL_FIRST: [u16; 6] = [0, 1, 2, 0, 2, 3];

/// Turns posed skeletons into render commands. Reuse one renderer across frames.
#[derive(Debug, Default, Clone)]
pub struct SkeletonRenderer {
    world: Vec<f32>,
    triangles: Vec<u16>,
    clipper: SkeletonClipping,
    /// What the renderer derives from each skeleton data it draws, one entry per data (see
    /// [`DataCache`]); `current` is the entry of the last render.
    caches: Vec<DataCache>,
    current: usize,
    /// The skeleton's bones packed for weighted vertices during one render.
    bone_pack: BonePack,
    /// An empty cache entry, never used (`select_cache` makes the current one); made once,
    /// not per render (an empty `HashMap` reads its random keys when made).
    spare: DataCache,
}

/// What a renderer derives from one skeleton data and keeps across renders: made on first
/// use, read after (a renderer drawing several datas in turn keeps one of these for each,
/// so it allocates nothing once each has been drawn).
#[derive(Debug, Default, Clone)]
struct DataCache {
    /// The skeleton data (held weakly, so its address is not reused while held; an entry
    /// whose data is gone is reused for the next new data).
    owner: Weak<SkeletonData>,
    /// Page-space UVs of mesh sequence frames other than the setup frame, by
    /// (attachment, frame).
    mesh_uvs: HashMap<(u32, u32), Vec<f32>>,
    /// Mesh triangles as `u16` in whole blocks (see [`PaddedIndices`]), by attachment index
    /// (none for a mesh with an index above 65 535).
    triangles_u16: Vec<Vec<[u16; INDEX_BLOCK]>>,
    /// Weighted mesh influences prepared for drawing, by attachment index (`None`: not made
    /// yet; an entry is made only for a weighted mesh, unusable ones included).
    weights: Vec<Option<PreparedWeights>>,
}

impl SkeletonRenderer {
    /// Makes the cache entry of `data` current: the last one, another live one, a dead one
    /// (cleared), or a new one.
    fn select_cache(&mut self, data: &Arc<SkeletonData>) {
        let is = |c: &DataCache| std::ptr::eq(c.owner.as_ptr(), Arc::as_ptr(data));
        if self.caches.get(self.current).is_some_and(is) {
            return;
        }
        if let Some(i) = self.caches.iter().position(is) {
            self.current = i;
            return;
        }
        let fresh = DataCache { owner: Arc::downgrade(data), ..DataCache::default() };
        match self.caches.iter().position(|c| c.owner.strong_count() == 0) {
            Some(i) => {
                self.current = i;
                if let Some(c) = self.caches.get_mut(i) {
                    *c = fresh;
                }
            }
            None => {
                self.current = self.caches.len();
                self.caches.push(fresh);
            }
        }
    }
}

/// The `u16` copy in `cache` of the mesh triangles `triangles` of attachment `index`, made
/// on first use; `None` when an index does not fit in 16 bits.
#[inline]
fn triangles_u16<'a>(
    cache: &'a mut Vec<Vec<[u16; INDEX_BLOCK]>>,
    index: usize,
    triangles: &[u32],
) -> Option<PaddedIndices<'a>> {
    let made = cache.get(index).is_some_and(|t| PaddedIndices::new(t, triangles.len()).is_some());
    if !made && !make_triangles_u16(cache, index, triangles) {
        return None;
    }
    PaddedIndices::new(cache.get(index)?, triangles.len())
}

/// The prepared influences in `cache` of the weighted vertices `w` of attachment `index`,
/// made on first use.
#[inline]
fn prepared_weights<'a>(
    cache: &'a mut Vec<Option<PreparedWeights>>,
    index: usize,
    w: &WeightedVertices,
) -> Option<&'a PreparedWeights> {
    if cache.get(index).is_none_or(Option::is_none) {
        make_prepared_weights(cache, index, w);
    }
    cache.get(index)?.as_ref()
}

#[cold]
#[inline(never)]
fn make_prepared_weights(
    cache: &mut Vec<Option<PreparedWeights>>,
    index: usize,
    w: &WeightedVertices,
) {
    if cache.len() <= index {
        cache.resize_with(index + 1, || None);
    }
    if let Some(entry) = cache.get_mut(index) {
        *entry = Some(PreparedWeights::new(w));
    }
}

#[cold]
#[inline(never)]
fn make_triangles_u16(
    cache: &mut Vec<Vec<[u16; INDEX_BLOCK]>>,
    index: usize,
    triangles: &[u32],
) -> bool {
    if triangles.iter().any(|&t| t > 0xffff) {
        return false;
    }
    if cache.len() <= index {
        cache.resize_with(index + 1, Vec::new);
    }
    let Some(t) = cache.get_mut(index) else { return false };
    t.clear();
    // Zeros pad the last block: index 0 is in range for any draw with a vertex.
    t.resize(triangles.len().div_ceil(INDEX_BLOCK), [0; INDEX_BLOCK]);
    for (d, &i) in t.as_flattened_mut().iter_mut().zip(triangles) {
        *d = i as u16;
    }
    true
}

/// The current sequence frame's region (spine-cpp `Sequence::apply`).
fn sequence_region<'a>(
    seq: &'a SequenceData,
    has_sequence: bool,
    slot: &Slot,
) -> Option<(usize, &'a TextureRegion)> {
    let n = seq.regions.len();
    if n == 0 {
        return None;
    }
    let mut index = if has_sequence {
        if slot.sequence_index == -1 {
            seq.setup_index as i64
        } else {
            i64::from(slot.sequence_index)
        }
    } else {
        0
    };
    if index >= n as i64 {
        index = n as i64 - 1;
    }
    let index = index.max(0) as usize;
    seq.regions.get(index)?.as_ref().map(|r| (index, r))
}

fn to_blend(b: spine_model::BlendMode) -> BlendMode {
    match b {
        spine_model::BlendMode::Normal => BlendMode::Normal,
        spine_model::BlendMode::Additive => BlendMode::Additive,
        spine_model::BlendMode::Multiply => BlendMode::Multiply,
        spine_model::BlendMode::Screen => BlendMode::Screen,
    }
}

/// The light and dark colors of a draw (spine-cpp `SkeletonRenderer::render`).
#[inline]
fn draw_colors(
    sk_color: spine_model::Color,
    slot: &Slot,
    att_color: spine_model::Color,
) -> (Argb, Argb) {
    // Lanes in the order of an `Argb`'s bytes in memory (blue first), so the four channels
    // pack into one with two narrowing steps; each lane's product is the scalar one.
    let lanes = |c: spine_model::Color| f32x4::from([c.b, c.g, c.r, c.a]);
    let light =
        Argb(argb(lanes(sk_color) * lanes(slot.color) * lanes(att_color) * f32x4::splat(255.0)));
    let dark = if slot.has_dark_color {
        Argb(0xff00_0000 | argb(lanes(slot.dark_color) * f32x4::splat(255.0)))
    } else {
        Argb::BLACK
    };
    (light, dark)
}

/// `static_cast<uint8_t>(v)` of each lane (truncation, out-of-range values saturated and
/// NaN made 0, as `v as u8`), lanes `[b, g, r, a]` packed as `a << 24 | r << 16 | g << 8 | b`.
fn argb(v: f32x4) -> u32 {
    // NaN lanes zeroed first (a NaN compares unequal to itself): `fast_max` / `fast_min`
    // leave NaN to the target (SSE's `maxps` would give 0, wide's scalar fallback 255).
    let v = v & v.cmp_eq(v);
    let clamped = v.fast_max(f32x4::ZERO).fast_min(f32x4::splat(255.0));
    let lanes = clamped.fast_trunc_int();
    // 0 to 255 in each lane: the saturating narrowings to 16 and then 8 bits are exact.
    let words = i16x8::from_i32x8_saturate(bytemuck::cast::<[i32x4; 2], i32x8>([lanes, lanes]));
    let [b, g, r, a, ..] = u8x16::narrow_i16x8(words, words).to_array();
    u32::from_le_bytes([b, g, r, a])
}

impl SkeletonRenderer {
    /// A renderer with empty buffers.
    pub fn new() -> SkeletonRenderer {
        SkeletonRenderer::default()
    }

    /// An empty command buffer for `data`: its atlas pages registered in order (so a model
    /// page id is the command page id) and spine-cpp batching.
    pub fn commands(data: &SkeletonData) -> RenderCommands {
        let mut out = RenderCommands::with_batching(Batching::SpineCpp);
        for p in &data.pages {
            out.add_page(&p.name, p.pma);
        }
        out
    }

    /// Clears `out` and fills it with the commands drawing `skeleton` in its current pose
    /// (world transforms must be up to date). If `out` has fewer pages registered than the
    /// skeleton data has, its pages are replaced by the data's.
    pub fn render(&mut self, skeleton: &Skeleton, out: &mut RenderCommands) {
        let data = &*skeleton.data;
        self.select_cache(&skeleton.data);
        if out.pages().len() < data.pages.len() {
            out.reset();
            for p in &data.pages {
                out.add_page(&p.name, p.pma);
            }
        }
        out.clear();
        // `select_cache` made the entry; the spare is never used. (A `select_cache`
        // returning the entry, indexed, cost this loop 0.7 % more instructions; an early
        // return here, 8 %: LLVM lays the loop out differently.)
        let cache = match self.caches.get_mut(self.current) {
            Some(c) => c,
            None => &mut self.spare,
        };
        let sk_color = skeleton.color;
        // Read once: through the skeleton's `Arc`, the compiler reloads them every slot.
        let bl_first = data.behaviour.region_vertices_bl_first;
        let quad_indices = if bl_first { &QUAD_BL_FIRST } else { &QUAD };
        self.bone_pack.reset();
        for &slot_id in &skeleton.draw_order {
            let Some(slot) = skeleton.slots.get(slot_id.index()) else { continue };
            let Some(att_id) = slot.attachment else {
                self.clipper.clip_end_slot(slot_id);
                continue;
            };
            let att = data.attachment(att_id);
            let bone_active = skeleton.bones.get(slot.bone.index()).is_some_and(|b| b.active);
            let is_clip = matches!(att.kind, AttachmentKind::Clipping(_));
            if (slot.color.a == 0.0 || !bone_active) && !is_clip {
                self.clipper.clip_end_slot(slot_id);
                continue;
            }
            let Some(bone) = skeleton.bones.get(slot.bone.index()) else { continue };
            let blend = to_blend(data.slot(slot_id).blend);
            // Region corners and UVs live on the stack; mesh positions in `self.world`, or,
            // when not clipping, written straight into `out`.
            let mut quad = [0.0f32; 8];
            let mut quad_uvs = [0.0f32; 8];
            let (att_color, region, uvs, triangles, is_region): (_, _, &[f32], &[u32], bool) =
                match &att.kind {
                    AttachmentKind::Region(r) => {
                        if r.color.a == 0.0 {
                            self.clipper.clip_end_slot(slot_id);
                            continue;
                        }
                        let Some((_, region)) = sequence_region(&r.sequence, r.has_sequence, slot)
                        else {
                            continue;
                        };
                        // `Sequence::apply`: the frame's geometry, else the attachment's.
                        let offsets = if r.has_sequence {
                            Some(region_offsets(r, region))
                        } else {
                            r.offsets
                        };
                        let Some(offsets) = offsets else { continue };
                        quad = crate::vertices::region_world(&offsets, bone, bl_first);
                        // The setup frame's UVs were made when the atlas was bound (copied
                        // whole: built here corner by corner, they were read back as 16-byte
                        // halves, a store-forwarding stall on every region).
                        quad_uvs = match r.uvs {
                            Some(uvs) if !r.has_sequence => uvs,
                            _ if bl_first => region_uvs_bl_first(region),
                            _ => region_uvs(region),
                        };
                        if !self.clipper.is_clipping() {
                            let (light, dark) = draw_colors(sk_color, slot, r.color);
                            let page = PageId(region.page.index() as u32);
                            // Validated by construction; a failure drops the draw.
                            let _ = out.push_quad(
                                page,
                                blend,
                                light,
                                dark,
                                &quad,
                                &quad_uvs,
                                quad_indices,
                            );
                            self.clipper.clip_end_slot(slot_id);
                            continue;
                        }
                        (r.color, region, &[], &[], true)
                    }
                    AttachmentKind::Mesh(m) => {
                        if m.color.a == 0.0 {
                            self.clipper.clip_end_slot(slot_id);
                            continue;
                        }
                        let Some((frame, region)) =
                            sequence_region(&m.sequence, m.has_sequence, slot)
                        else {
                            continue;
                        };
                        let uvs: &[f32] = if m.has_sequence
                            && (frame != m.sequence.setup_index as usize || m.uvs().is_none())
                        {
                            cache
                                .mesh_uvs
                                .entry((att_id.index() as u32, frame as u32))
                                .or_insert_with(|| mesh_uvs(m.region_uvs(), region))
                        } else {
                            match m.uvs() {
                                Some(u) => u,
                                None => continue,
                            }
                        };
                        // Not clipping: the world vertices go straight into `out`. When the
                        // weights are inconsistent (or the UVs too short), the general path
                        // below decides.
                        let nv = crate::vertices::world_count(&m.vertices, slot);
                        // (Triangles with an index above 65 535: the general path.)
                        let triangles16 = if self.clipper.is_clipping() || uvs.len() < 2 * nv {
                            None
                        } else {
                            triangles_u16(&mut cache.triangles_u16, att_id.index(), m.triangles())
                        };
                        if let Some(triangles16) = triangles16 {
                            let prepared = match &m.vertices {
                                Vertices::Weighted(w) => {
                                    prepared_weights(&mut cache.weights, att_id.index(), w)
                                }
                                Vertices::Unweighted(_) => None,
                            };
                            let (light, dark) = draw_colors(sk_color, slot, m.color);
                            let page = PageId(region.page.index() as u32);
                            let pushed = out.push_uniform_fill(
                                page,
                                blend,
                                light,
                                dark,
                                nv,
                                uvs,
                                triangles16,
                                |dst| {
                                    let bones = &skeleton.bones;
                                    let pack = &mut self.bone_pack;
                                    let fast = prepared.and_then(|p| {
                                        let v = &m.vertices;
                                        crate::vertices::prepared_world_into(
                                            v, slot, bones, pack, p, dst,
                                        )
                                    });
                                    fast.unwrap_or_else(|| {
                                        let v = &m.vertices;
                                        crate::vertices::world_into(
                                            v,
                                            slot,
                                            bone,
                                            bones,
                                            Some(pack),
                                            dst,
                                        )
                                    })
                                },
                            );
                            // Anything else (inconsistent weights, a rejected or empty
                            // draw) is decided by the general path, as before.
                            if pushed == Ok(true) {
                                self.clipper.clip_end_slot(slot_id);
                                continue;
                            }
                        }
                        self.world.clear();
                        if !crate::vertices::vertices_world(
                            &m.vertices,
                            slot,
                            bone,
                            &skeleton.bones,
                            Some(&mut self.bone_pack),
                            &mut self.world,
                        ) {
                            // Inconsistent weights: the general path decides.
                            self.world.clear();
                            if !skeleton.world_vertices(slot_id, &mut self.world) {
                                continue;
                            }
                        }
                        (m.color, region, uvs, m.triangles(), false)
                    }
                    AttachmentKind::Clipping(c) => {
                        self.world.clear();
                        if skeleton.world_vertices(slot_id, &mut self.world) {
                            self.clipper.clip_start(att_id, c.end_slot, &self.world);
                        }
                        continue;
                    }
                    _ => continue,
                };
            let (positions, uvs): (&[f32], &[f32]) =
                if is_region { (&quad, &quad_uvs) } else { (&self.world, uvs) };
            let nv = positions.len() / 2;
            if uvs.len() < 2 * nv {
                self.clipper.clip_end_slot(slot_id);
                continue;
            }

            let (light, dark) = draw_colors(sk_color, slot, att_color);
            let page = PageId(region.page.index() as u32);
            // Draws are validated by construction; a failure (an index out of range, an
            // unknown page) drops the draw.
            if self.clipper.is_clipping() {
                self.triangles.clear();
                if is_region {
                    self.triangles.extend_from_slice(quad_indices);
                } else if triangles.iter().all(|&t| t <= 0xffff) {
                    self.triangles.extend(triangles.iter().map(|&t| t as u16));
                } else {
                    // An index above 65 535 (not drawable as `u16`, as on the path below).
                    self.clipper.clip_end_slot(slot_id);
                    continue;
                }
                if self.triangles.iter().any(|&t| usize::from(t) >= nv) {
                    self.clipper.clip_end_slot(slot_id);
                    continue;
                }
                self.clipper.clip_triangles(positions, &self.triangles, uvs);
                let _ = out.push_uniform(
                    page,
                    blend,
                    light,
                    dark,
                    self.clipper.clipped_vertices(),
                    self.clipper.clipped_uvs(),
                    self.clipper.clipped_triangles(),
                );
            } else if is_region {
                let _ = out.push_uniform(page, blend, light, dark, positions, uvs, quad_indices);
            } else {
                let _ = out.push_uniform(
                    page,
                    blend,
                    light,
                    dark,
                    positions,
                    &uvs[..2 * nv],
                    triangles,
                );
            }
            self.clipper.clip_end_slot(slot_id);
        }
        self.clipper.clip_end();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channels_truncate_saturate_and_pack_as_casts_to_u8() {
        let mut rng = crate::test_rng::Rng(0x2545_f491_4f6c_dd1d);
        let special = [
            f32::NAN,
            -f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            -0.0,
            0.0,
            -0.5,
            0.5,
            0.999_999,
            254.999_98,
            255.0,
            255.5,
            256.0,
            -1e30,
            1e30,
            f32::MIN_POSITIVE,
        ];
        let mut values: Vec<f32> = special.to_vec();
        values.extend((0..4000).map(|_| rng.range(-300.0, 600.0)));
        for quad in values.chunks_exact(4) {
            // Lanes `[b, g, r, a]`.
            let got = argb(f32x4::from([quad[0], quad[1], quad[2], quad[3]]));
            let [b, g, r, a] = [0, 1, 2, 3].map(|i| u32::from(quad[i] as u8));
            assert_eq!(got, a << 24 | r << 16 | g << 8 | b, "{quad:?}");
        }
    }
}
