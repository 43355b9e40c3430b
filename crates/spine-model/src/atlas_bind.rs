//! Atlas binding maths: atlas regions to [`TextureRegion`]s (spine-cpp 4.2 `Atlas` loading),
//! region attachment corners and UVs (`RegionAttachment::updateRegion`) and mesh UVs
//! (`MeshAttachment::updateRegion`).

use spine_format::atlas::{Page, Region};

use crate::data::{RegionAttachment, TextureRegion};
use crate::ids::PageId;

/// A [`TextureRegion`] from an atlas region: `u = x / pageWidth`, `v = y / pageHeight`,
/// `u2`/`v2` from the packed size (width and height swapped when `degrees == 90`); the
/// original size defaults to the packed size.
#[inline(always)]
pub(crate) fn texture_region(page_id: PageId, page: &Page, r: &Region) -> TextureRegion {
    let [x, y, w, h] = r.bounds();
    let [ox, oy, ow, oh] = r.offsets();
    let degrees = r.degrees();
    let pw = page.width() as f32;
    let ph = page.height() as f32;
    let (u2, v2) = if degrees == 90 {
        ((x + h) as f32 / pw, (y + w) as f32 / ph)
    } else {
        ((x + w) as f32 / pw, (y + h) as f32 / ph)
    };
    TextureRegion {
        page: page_id,
        u: x as f32 / pw,
        v: y as f32 / ph,
        u2,
        v2,
        degrees,
        offset_x: ox as f32,
        offset_y: oy as f32,
        width: w as f32,
        height: h as f32,
        original_width: ow as f32,
        original_height: oh as f32,
    }
}

fn cos_deg(d: f32) -> f32 {
    d.to_radians().cos()
}

fn sin_deg(d: f32) -> f32 {
    d.to_radians().sin()
}

/// The 4 corner offsets `BL, UL, UR, BR` (x, y each) of a region attachment showing
/// `region`, in the slot bone's space (`RegionAttachment::updateRegion`).
pub fn region_offsets(a: &RegionAttachment, region: &TextureRegion) -> [f32; 8] {
    let rsx = a.width / region.original_width * a.scale_x;
    let rsy = a.height / region.original_height * a.scale_y;
    let lx = -a.width / 2.0 * a.scale_x + region.offset_x * rsx;
    let ly = -a.height / 2.0 * a.scale_y + region.offset_y * rsy;
    let lx2 = lx + region.width * rsx;
    let ly2 = ly + region.height * rsy;
    let cos = cos_deg(a.rotation);
    let sin = sin_deg(a.rotation);
    let (lxc, lxs) = (lx * cos + a.x, lx * sin);
    let (lyc, lys) = (ly * cos + a.y, ly * sin);
    let (lx2c, lx2s) = (lx2 * cos + a.x, lx2 * sin);
    let (ly2c, ly2s) = (ly2 * cos + a.y, ly2 * sin);
    [lxc - lys, lyc + lxs, lxc - ly2s, ly2c + lxs, lx2c - ly2s, ly2c + lx2s, lx2c - lys, lyc + lx2s]
}

/// The UVs of the corners `BR, BL, UL, UR` of a region attachment showing `region` (the
/// corner order of `RegionAttachment::computeWorldVertices` in 3.6 and later; see
/// [`region_uvs_bl_first`] for spine-c 3.5's).
pub fn region_uvs(r: &TextureRegion) -> [f32; 8] {
    if r.degrees == 90 {
        // BL, UL, UR, BR
        [r.u2, r.v, r.u2, r.v2, r.u, r.v2, r.u, r.v]
    } else {
        [r.u2, r.v2, r.u, r.v2, r.u, r.v, r.u2, r.v]
    }
}

/// The UVs of the corners `BL, UL, UR, BR` (spine-c 3.5.51's corner order, both for the
/// world vertices and `spRegionAttachment_updateUVs`): [`region_uvs`] moved by one corner,
/// so that vertex `i` keeps the UV of its own corner.
pub fn region_uvs_bl_first(r: &TextureRegion) -> [f32; 8] {
    let uvs = region_uvs(r);
    let mut out = [0.0; 8];
    out[..6].copy_from_slice(&uvs[2..]);
    out[6..].copy_from_slice(&uvs[..2]);
    out
}

/// Mesh UVs in page space from region-relative UVs (`MeshAttachment::updateRegion`,
/// including the 90/180/270 degree packings and whitespace offsets).
pub fn mesh_uvs(region_uvs: &[f32], r: &TextureRegion) -> Vec<f32> {
    // `resize`, not `vec![0.0; n]`: a zeroed allocation is glibc's `calloc`, which costs
    // more than the allocation and the inline fill.
    #[allow(clippy::slow_vector_initialization)]
    let mut uvs = {
        let mut uvs = Vec::with_capacity(region_uvs.len());
        uvs.resize(region_uvs.len(), 0.0);
        uvs
    };
    mesh_uvs_into(region_uvs, r, &mut uvs);
    uvs
}

/// [`mesh_uvs`] into `uvs` (a pair for each pair of `region_uvs`; the rest untouched).
pub fn mesh_uvs_into(region_uvs: &[f32], r: &TextureRegion, uvs: &mut [f32]) {
    let (mut u, mut v) = (r.u, r.v);
    let pairs = uvs.chunks_exact_mut(2).zip(region_uvs.chunks_exact(2));
    match r.degrees {
        90 => {
            let tw = r.height / (r.u2 - r.u);
            let th = r.width / (r.v2 - r.v);
            u -= (r.original_height - r.offset_y - r.height) / tw;
            v -= (r.original_width - r.offset_x - r.width) / th;
            let (w, h) = (r.original_height / tw, r.original_width / th);
            for (o, i) in pairs {
                o[0] = u + i[1] * w;
                o[1] = v + (1.0 - i[0]) * h;
            }
        }
        180 => {
            let tw = r.width / (r.u2 - r.u);
            let th = r.height / (r.v2 - r.v);
            u -= (r.original_width - r.offset_x - r.width) / tw;
            v -= r.offset_y / th;
            let (w, h) = (r.original_width / tw, r.original_height / th);
            for (o, i) in pairs {
                o[0] = u + (1.0 - i[0]) * w;
                o[1] = v + (1.0 - i[1]) * h;
            }
        }
        270 => {
            let th = r.height / (r.v2 - r.v);
            let tw = r.width / (r.u2 - r.u);
            u -= r.offset_y / tw;
            v -= r.offset_x / th;
            let (w, h) = (r.original_height / tw, r.original_width / th);
            for (o, i) in pairs {
                o[0] = u + (1.0 - i[1]) * w;
                o[1] = v + i[0] * h;
            }
        }
        _ => {
            let tw = r.width / (r.u2 - r.u);
            let th = r.height / (r.v2 - r.v);
            u -= r.offset_x / tw;
            v -= (r.original_height - r.offset_y - r.height) / th;
            let (w, h) = (r.original_width / tw, r.original_height / th);
            for (o, i) in pairs {
                o[0] = u + i[0] * w;
                o[1] = v + i[1] * h;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn region(degrees: i32) -> TextureRegion {
        TextureRegion {
            page: PageId(0),
            u: 0.25,
            v: 0.5,
            u2: 0.75,
            v2: 1.0,
            degrees,
            offset_x: 0.0,
            offset_y: 0.0,
            width: 10.0,
            height: 10.0,
            original_width: 10.0,
            original_height: 10.0,
        }
    }

    #[test]
    fn unrotated_mesh_uvs_map_the_unit_square_onto_the_region() {
        let uvs = mesh_uvs(&[0.0, 0.0, 1.0, 1.0], &region(0));
        assert_eq!(uvs, vec![0.25, 0.5, 0.75, 1.0]);
    }

    #[test]
    fn rotated_region_uvs_swap_corners() {
        assert_eq!(region_uvs(&region(0)), [0.75, 1.0, 0.25, 1.0, 0.25, 0.5, 0.75, 0.5]);
        assert_eq!(region_uvs(&region(90)), [0.75, 0.5, 0.75, 1.0, 0.25, 1.0, 0.25, 0.5]);
        // 90°: u follows v of the region, v follows 1 - u.
        let uvs = mesh_uvs(&[0.0, 0.0], &region(90));
        assert_eq!(uvs, vec![0.25, 1.0]);
    }
}
