//! `animate`: keyframes → local pose (SEMANTICS §3).

use crate::armature::{AnimLayer, Armature};
use crate::model::{Animation, Bone, Element, IkFamily, Keyframe, Vec2, Visual, NO_TABLE};

/// Cubic bezier with P0 = 0, P3 = 1 (one axis).
#[inline]
fn bezier(t: f32, p1: f32, p2: f32) -> f32 {
    let u = 1. - t;
    3. * u * u * t * p1 + 3. * u * t * t * p2 + t * t * t
}

#[inline]
fn bezier_derivative(t: f32, p1: f32, p2: f32) -> f32 {
    let u = 1. - t;
    3. * u * u * p1 + 6. * u * t * (p2 - p1) + 3. * t * t * (1. - p2)
}

/// The reference interpolation: `a → b` at `current / max`, eased by the CSS-style cubic
/// bezier (P1 = `sh`, P2 = `eh`) solved for t with 5 clamped Newton steps (f32, early
/// exit when the slope is below 1e-5). Handles with y = 999 on both ends hold `a` (Snap).
pub fn interpolate(current: u32, max: u32, a: f32, b: f32, sh: Vec2, eh: Vec2) -> f32 {
    if sh.y == 999. && eh.y == 999. {
        return a;
    }
    if max == 0 || current >= max {
        return b;
    }
    a + (b - a) * progress(current, max, sh, eh)
}

/// The eased progress of [`interpolate`] for `0 <= current < max` (no snap): a pure
/// function of its arguments, so it can be tabulated per keyframe segment at load.
pub(crate) fn progress(current: u32, max: u32, sh: Vec2, eh: Vec2) -> f32 {
    let x0 = current as f32 / max as f32;
    let mut t = x0;
    for _ in 0..5 {
        let x = bezier(t, sh.x, eh.x);
        let dx = bezier_derivative(t, sh.x, eh.x);
        if dx.abs() < 1e-5 {
            break;
        }
        t -= (x - x0) / dx;
        t = t.clamp(0., 1.);
    }
    bezier(t, sh.y, eh.y)
}

/// Longest keyframe segment (frames) whose progress is tabulated.
const TABLE_MAX_SEGMENT: u32 = 4096;
/// Most table entries per animation.
const TABLE_BUDGET: usize = 1 << 20;

/// Hashes the easing-table keys (segment length and handle bits: five `u32`s) with one
/// multiply-rotate step per word; SipHash cost a tenth of `prepare` for keys nobody attacks.
#[derive(Default)]
struct SegmentKeyHasher(u64);

impl std::hash::Hasher for SegmentKeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(4) {
            let mut word = [0u8; 4];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u32(u32::from_le_bytes(word));
        }
    }
    fn write_u32(&mut self, i: u32) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(i)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u32(i as u32);
    }
}

type SegmentKeys =
    std::collections::HashMap<[u32; 5], u32, std::hash::BuildHasherDefault<SegmentKeyHasher>>;

/// Appends [`progress`]`(c, max, sh, eh)` for `c` in `0..max` to `out`: eight entries at a
/// time in `f32x8` lanes doing the scalar steps in the same order (a lane whose slope falls
/// below 1e-5 stops where the scalar loop breaks), so every value is bit-identical; the tail
/// goes through [`progress`].
fn progress_row(max: u32, sh: Vec2, eh: Vec2, out: &mut Vec<f32>) {
    use wide::{f32x8, CmpGt, CmpLt};
    let (p1x, p2x) = (f32x8::splat(sh.x), f32x8::splat(eh.x));
    let (p1y, p2y) = (f32x8::splat(sh.y), f32x8::splat(eh.y));
    let (zero, one, three, six) =
        (f32x8::splat(0.), f32x8::splat(1.), f32x8::splat(3.), f32x8::splat(6.));
    let eps = f32x8::splat(1e-5);
    let full = max - max % 8;
    let mut c = 0;
    while c < full {
        let x0 =
            f32x8::from(std::array::from_fn::<f32, 8, _>(|i| (c + i as u32) as f32 / max as f32));
        let mut t = x0;
        let mut active = f32x8::from([f32::from_bits(u32::MAX); 8]);
        for _ in 0..5 {
            let u = one - t;
            let x = three * u * u * t * p1x + three * u * t * t * p2x + t * t * t;
            let dx = three * u * u * p1x + six * u * t * (p2x - p1x) + three * t * t * (one - p2x);
            active &= !dx.abs().cmp_lt(eps);
            let mut next = t - (x - x0) / dx;
            next = next.cmp_lt(zero).blend(zero, next);
            next = next.cmp_gt(one).blend(one, next);
            t = active.blend(next, t);
        }
        let u = one - t;
        let y = three * u * u * t * p1y + three * u * t * t * p2y + t * t * t;
        out.extend_from_slice(&y.to_array());
        c += 8;
    }
    out.extend((full..max).map(|c| progress(c, max, sh, eh)));
}

/// Fills `anim.progress` with the eased progress of every keyframe segment (keyframe →
/// its `next`, destination handles) and points each keyframe at its slice.
/// Segments with the same length and handles share one slice.
pub(crate) fn tabulate(anim: &mut Animation) {
    let mut table = Vec::new();
    let mut seen = SegmentKeys::default();
    for k in 0..anim.keyframes.len() {
        let Some(kf) = anim.keyframes.get(k) else { break };
        let nk = kf.next.map_or(k, |n| n as usize);
        let Some(next) = anim.keyframes.get(nk) else { continue };
        let max = next.frame.saturating_sub(kf.frame);
        let snap = next.start_handle.y == 999. && next.end_handle.y == 999.;
        if max == 0 || snap || max > TABLE_MAX_SEGMENT || table.len() + max as usize > TABLE_BUDGET
        {
            continue;
        }
        let (sh, eh) = (next.start_handle, next.end_handle);
        let key = [max, sh.x.to_bits(), sh.y.to_bits(), eh.x.to_bits(), eh.y.to_bits()];
        let off = *seen.entry(key).or_insert_with(|| {
            let off = table.len() as u32;
            progress_row(max, sh, eh, &mut table);
            off
        });
        if let Some(kf) = anim.keyframes.get_mut(k) {
            kf.table = off;
        }
    }
    anim.progress = table;
    anim.tabulated = true;
}

#[inline]
fn interpolate_kf(
    field: &mut f32,
    kf: &Keyframe,
    next: &Keyframe,
    table: &[f32],
    frame: u32,
    smooth: u32,
) {
    let total = next.frame.saturating_sub(kf.frame);
    let current = frame.saturating_sub(kf.frame);
    let (a, b) = (kf.value, next.value);
    let result = match table.get((kf.table as usize).wrapping_add(current as usize)) {
        // Same arithmetic as `interpolate` with the progress looked up.
        Some(p) if kf.table != NO_TABLE && current < total => a + (b - a) * p,
        _ => interpolate(current, total, a, b, next.start_handle, next.end_handle),
    };
    *field = interpolate(current, smooth, *field, result, Vec2::ZERO, Vec2::ZERO);
}

impl Armature {
    /// Builds every animation's easing table now (otherwise each animation builds its own
    /// on first use: the only allocation `animate` ever makes).
    pub fn prepare(&mut self) {
        for a in &mut self.animations {
            if !a.tabulated {
                tabulate(a);
            }
        }
    }

    /// Applies animations to the local pose, in order (a field animated by several takes
    /// the last one's value), then moves every field no passed animation keys toward its
    /// initial value (with `layers[0]`'s frame and smoothing). Out-of-range animation
    /// indices are skipped. Allocation-free once each animation's easing table exists
    /// (built on its first use, or by [`Armature::prepare`]).
    pub fn animate(&mut self, layers: &[AnimLayer]) {
        let Armature { bones, visuals, iks, animations, reset, .. } = self;
        let mut pose = Pose { bones, visuals, iks };
        reset.iter_mut().for_each(|r| *r = 0);
        for layer in layers {
            let Some(anim) = animations.get_mut(layer.anim) else { continue };
            if !anim.tabulated {
                tabulate(anim);
            }
            pose.apply_layer(reset, anim, layer.frame, layer.smooth);
        }
        let (f, sf) = layers.first().map_or((0, 0), |l| (l.frame, l.smooth));
        pose.ease_unkeyed(reset, f, sf);
    }
}

/// The parts of an armature an animation writes.
struct Pose<'a> {
    bones: &'a mut [Bone],
    visuals: &'a mut [Visual],
    iks: &'a mut [IkFamily],
}

impl Pose<'_> {
    /// Applies one animation at frame `f` with smoothing `bf`, marking in `reset` (per
    /// bone) every element it keys.
    #[inline]
    fn apply_layer(&mut self, reset: &mut [u32], anim: &Animation, f: u32, bf: u32) {
        let kfs = &anim.keyframes;
        let table = anim.progress.as_slice();
        for (k, kf) in kfs.iter().enumerate() {
            let bi = kf.bone as usize;
            // Validated at load: bone and next indices are in range.
            let Some(mask) = reset.get_mut(bi) else { continue };
            *mask |= kf.element.bit();
            if kf.frame > f {
                break;
            }
            let nk = kf.next.map_or(k, |n| n as usize);
            let Some(next) = kfs.get(nk) else { continue };
            if next.frame < f && nk != k {
                continue;
            }
            self.apply_key(bi, kf, next, table, f, bf);
        }
    }

    /// Applies keyframe `kf` (towards `next`) to bone `bi`, its visual or its IK family.
    #[inline]
    fn apply_key(
        &mut self,
        bi: usize,
        kf: &Keyframe,
        next: &Keyframe,
        table: &[f32],
        f: u32,
        bf: u32,
    ) {
        let Pose { bones, visuals, iks } = self;
        let Some(bone) = bones.get_mut(bi) else { return };
        match kf.element {
            Element::PositionX => interpolate_kf(&mut bone.pos.x, kf, next, table, f, bf),
            Element::PositionY => interpolate_kf(&mut bone.pos.y, kf, next, table, f, bf),
            Element::Rotation => interpolate_kf(&mut bone.rot, kf, next, table, f, bf),
            Element::ScaleX => interpolate_kf(&mut bone.scale.x, kf, next, table, f, bf),
            Element::ScaleY => interpolate_kf(&mut bone.scale.y, kf, next, table, f, bf),
            Element::Hidden => bone.hidden = kf.value == 1.,
            Element::TintR
            | Element::TintG
            | Element::TintB
            | Element::TintA
            | Element::Texture => {
                let Some(v) = bone.visual.and_then(|v| visuals.get_mut(v as usize)) else {
                    return;
                };
                match kf.element {
                    Element::TintR => interpolate_kf(&mut v.tint.r, kf, next, table, f, bf),
                    Element::TintG => interpolate_kf(&mut v.tint.g, kf, next, table, f, bf),
                    Element::TintB => interpolate_kf(&mut v.tint.b, kf, next, table, f, bf),
                    Element::TintA => interpolate_kf(&mut v.tint.a, kf, next, table, f, bf),
                    _ => v.tex = kf.tex,
                }
            }
            Element::IkConstraint | Element::MimicTarget => {
                let Some(ik) = bone.ik_family.and_then(|i| iks.get_mut(i as usize)) else {
                    return;
                };
                if kf.element == Element::IkConstraint {
                    ik.constraint = kf.constraint;
                } else {
                    ik.mimic_target = kf.value == 1.;
                }
            }
            _ => {}
        }
    }

    /// Moves every field no layer keyed (per `reset`) toward its initial value, at frame
    /// `f` with smoothing `sf`.
    #[inline]
    fn ease_unkeyed(&mut self, reset: &[u32], f: u32, sf: u32) {
        let Pose { bones, visuals, iks } = self;
        let z = Vec2::ZERO;
        let has = |m: u32, e: Element| m & e.bit() != 0;
        for (bone, &m) in bones.iter_mut().zip(reset.iter()) {
            if !has(m, Element::PositionX) {
                bone.pos.x = interpolate(f, sf, bone.pos.x, bone.init_pos.x, z, z);
            }
            if !has(m, Element::PositionY) {
                bone.pos.y = interpolate(f, sf, bone.pos.y, bone.init_pos.y, z, z);
            }
            if !has(m, Element::Rotation) {
                bone.rot = interpolate(f, sf, bone.rot, bone.init_rot, z, z);
            }
            if !has(m, Element::ScaleX) {
                bone.scale.x = interpolate(f, sf, bone.scale.x, bone.init_scale.x, z, z);
            }
            if !has(m, Element::ScaleY) {
                bone.scale.y = interpolate(f, sf, bone.scale.y, bone.init_scale.y, z, z);
            }
            if !has(m, Element::Hidden) {
                bone.hidden = bone.init_hidden;
            }
            if let Some(v) = bone.visual.and_then(|v| visuals.get_mut(v as usize)) {
                if !has(m, Element::Texture) {
                    v.tex = v.init_tex;
                }
                if !has(m, Element::TintR) {
                    v.tint.r = interpolate(f, sf, v.tint.r, v.init_tint.r, z, z);
                }
                if !has(m, Element::TintG) {
                    v.tint.g = interpolate(f, sf, v.tint.g, v.init_tint.g, z, z);
                }
                if !has(m, Element::TintB) {
                    v.tint.b = interpolate(f, sf, v.tint.b, v.init_tint.b, z, z);
                }
                if !has(m, Element::TintA) {
                    v.tint.a = interpolate(f, sf, v.tint.a, v.init_tint.a, z, z);
                }
            }
            if let Some(ik) = bone.ik_family.and_then(|i| iks.get_mut(i as usize)) {
                if !has(m, Element::IkConstraint) {
                    ik.constraint = ik.init_constraint;
                }
                if !has(m, Element::MimicTarget) {
                    ik.mimic_target = ik.init_mimic_target;
                }
            }
        }
    }
}

#[cfg(test)]
mod progress_row_tests {
    use super::*;

    #[test]
    fn rows_match_the_scalar_solve_bit_for_bit() {
        let mut seed = 0x2545_f491_u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        let special = [0.0, -0.0, 1.0, 1. / 3., 2. / 3., 0.5, -0.25, 1.75, 999., 1e-7, f32::NAN];
        let mut cases = Vec::new();
        for &a in &special {
            for &b in &special {
                cases.push((Vec2 { x: a, y: b }, Vec2 { x: b, y: a }));
            }
        }
        for _ in 0..300 {
            let mut f = || (next() % 4000) as f32 / 1000. - 1.5;
            cases.push((Vec2 { x: f(), y: f() }, Vec2 { x: f(), y: f() }));
        }
        let mut row = Vec::new();
        for (sh, eh) in cases {
            for max in [1, 7, 8, 9, 16, 23, 64, 121] {
                row.clear();
                progress_row(max, sh, eh, &mut row);
                assert_eq!(row.len(), max as usize);
                for (c, got) in row.iter().enumerate() {
                    let want = progress(c as u32, max, sh, eh);
                    assert_eq!(got.to_bits(), want.to_bits(), "c {c} max {max} {sh:?} {eh:?}");
                }
            }
        }
    }
}
