//! The spaces between the constrained bones' positions along the path, and the bones' world
//! lengths for the chain scale: spine-cpp 4.2 `PathConstraint::update`'s spacing switch, with
//! the spine-c 3.5 and 3.6 rules.

use super::*;
use spine_model::SkeletonData;

/// How one constraint's spaces are computed this frame.
pub(super) struct Spacing {
    /// The constraint's spacing (pose value).
    pub(super) spacing: f32,
    /// Spaces to fill: one per bone, plus one without tangents (space 0 is left as is).
    pub(super) count: usize,
    /// Chain scale: the bones' world lengths are kept in `PathScratch::lengths`.
    pub(super) scale: bool,
    /// Percent spacing with distinct bones: the bone loop measures the lengths itself.
    pub(super) lazy_lengths: bool,
    /// spine-c 3.5/3.6 rules (every spacing scaled by world / setup length).
    pub(super) spine_c: bool,
    /// spine-c 3.5.51 rules (world length + spacing, no zero-length case).
    pub(super) spine_c35: bool,
    /// Length spacing is at least 0 (`max(0, setup length + spacing)`, spine-ts 4.3).
    pub(super) clamp_length: bool,
}

/// Bone `id`'s setup length and its world-space x and y extent.
#[inline(always)]
fn bone_extent(skel: &SkeletonData, bones: &[Bone], id: BoneId) -> (f32, f32, f32) {
    let setup = skel.bones.get(id.index()).map_or(0.0, |b| b.length);
    let (a, c) = bones.get(id.index()).map_or((0.0, 0.0), |b| (b.a, b.c));
    (setup, setup * a, setup * c)
}

impl Spacing {
    /// Fills `sc.spaces[1..count]` (and `sc.lengths` with the chain scale) for `data`.
    pub(super) fn fill(
        &self,
        skel: &SkeletonData,
        bones: &[Bone],
        data: &PathData,
        sc: &mut PathScratch,
    ) {
        let length_spacing = data.spacing_mode == SpacingMode::Length;
        let extent = |i: usize| bone_extent(skel, bones, data.bones[i]);
        match data.spacing_mode {
            _ if self.spine_c35 => self.spine_c35(sc, length_spacing, extent),
            _ if self.spine_c => self.spine_c36(sc, length_spacing, extent),
            SpacingMode::Percent => self.percent(sc, extent),
            SpacingMode::Proportional => self.proportional(sc, extent),
            SpacingMode::Length | SpacingMode::Fixed => {
                self.length_or_fixed(skel, bones, data, sc, length_spacing)
            }
        }
    }

    /// spine-c 3.5.51: world length + spacing (clamped at 0 as `MAX(0, x)`, which keeps a
    /// NaN), plain spacing otherwise; no zero-length case.
    fn spine_c35(
        &self,
        sc: &mut PathScratch,
        length_spacing: bool,
        extent: impl Fn(usize) -> (f32, f32, f32),
    ) {
        let spacing = self.spacing;
        for i in 0..self.count - 1 {
            if self.scale || length_spacing {
                let (_, x, y) = extent(i);
                let length = math::sqrt(x * x + y * y);
                if self.scale {
                    sc.lengths[i] = length;
                }
                sc.spaces[i + 1] = if !length_spacing {
                    spacing
                } else if 0.0 > length + spacing {
                    0.0
                } else {
                    length + spacing
                };
            } else {
                sc.spaces[i + 1] = spacing;
            }
        }
    }

    /// spine-c 3.6: every spacing scaled by world / setup length; 0 for a zero-length bone.
    fn spine_c36(
        &self,
        sc: &mut PathScratch,
        length_spacing: bool,
        extent: impl Fn(usize) -> (f32, f32, f32),
    ) {
        let spacing = self.spacing;
        if !(self.scale || length_spacing) {
            for s in sc.spaces.iter_mut().skip(1) {
                *s = spacing;
            }
            return;
        }
        for i in 0..self.count - 1 {
            let (setup, x, y) = extent(i);
            if setup < EPSILON {
                if self.scale {
                    sc.lengths[i] = 0.0;
                }
                sc.spaces[i + 1] = 0.0;
            } else {
                let length = math::sqrt(x * x + y * y);
                if self.scale {
                    sc.lengths[i] = length;
                }
                let s = if length_spacing { setup + spacing } else { spacing };
                sc.spaces[i + 1] = s * length / setup;
            }
        }
    }

    /// Percent spacing: the spacing itself; the lengths only for the chain scale, and with
    /// distinct bones each is computed in the bone loop, from the bone's matrix before it
    /// moves (the same values: nothing else moves it before its turn).
    fn percent(&self, sc: &mut PathScratch, extent: impl Fn(usize) -> (f32, f32, f32)) {
        if self.scale && !self.lazy_lengths {
            for i in 0..self.count - 1 {
                let (_, x, y) = extent(i);
                sc.lengths[i] = math::sqrt(x * x + y * y);
            }
        }
        for s in sc.spaces.iter_mut().skip(1) {
            *s = self.spacing;
        }
    }

    /// Proportional spacing: the world lengths, scaled so that they sum to `count × spacing`.
    fn proportional(&self, sc: &mut PathScratch, extent: impl Fn(usize) -> (f32, f32, f32)) {
        let mut sum = 0.0f32;
        for i in 0..self.count - 1 {
            let (setup, x, y) = extent(i);
            if setup < EPSILON {
                if self.scale {
                    sc.lengths[i] = 0.0;
                }
                sc.spaces[i + 1] = self.spacing;
            } else {
                let length = math::sqrt(x * x + y * y);
                if self.scale {
                    sc.lengths[i] = length;
                }
                sc.spaces[i + 1] = length;
                sum += length;
            }
        }
        if sum > 0.0 {
            sum = self.count as f32 / sum * self.spacing;
            for s in sc.spaces.iter_mut().skip(1) {
                *s *= sum;
            }
        }
    }

    /// Length spacing (setup length + spacing) and fixed spacing, both scaled by world /
    /// setup length: spaces `1..` (one per bone but the last with tangents), walked with the
    /// bones.
    fn length_or_fixed(
        &self,
        skel: &SkeletonData,
        bones: &[Bone],
        data: &PathData,
        sc: &mut PathScratch,
        length_spacing: bool,
    ) {
        let spacing = self.spacing;
        let spaces = sc.spaces.get_mut(1..).unwrap_or_default();
        for (i, (space, &id)) in spaces.iter_mut().zip(&data.bones).enumerate() {
            let (setup, x, y) = bone_extent(skel, bones, id);
            if setup < EPSILON {
                if self.scale {
                    sc.lengths[i] = 0.0;
                }
                *space = spacing;
            } else {
                let length = math::sqrt(x * x + y * y);
                if self.scale {
                    sc.lengths[i] = length;
                }
                let s = match (length_spacing, self.clamp_length) {
                    (true, false) => setup + spacing,
                    (true, true) => (setup + spacing).max(0.0),
                    (false, _) => spacing,
                };
                *space = s * length / setup;
            }
        }
    }
}
