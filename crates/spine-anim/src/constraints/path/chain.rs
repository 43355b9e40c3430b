//! The bone loop's per-constraint values ([`Chain`]) and the turn of a bone towards a
//! position ([`Turn`], [`chord_turn`]).

use super::*;

/// The per-constraint values of the bone loop: [`Chain::place_each`] for every rule,
/// [`Chain::place_pairs`] without the tip (spine-cpp 4.x rules, `mix_rotate > 0`, distinct
/// bones).
pub(super) struct Chain {
    pub(super) mix_x: f32,
    pub(super) mix_y: f32,
    pub(super) mix_rotate: f32,
    pub(super) scale: bool,
    pub(super) tangents: bool,
    pub(super) lazy_lengths: bool,
    pub(super) offset_rotation: f32,
    /// Chain rotate mode without an offset: each bone's tip feeds the next bone's position.
    pub(super) tip: bool,
    /// spine-c 3.5/3.6 rules.
    pub(super) spine_c: bool,
}

impl Chain {
    /// The bone loop of `update`, one bone at a time: bone `i` reads space `i + 1`: its
    /// position and (zero space) its rotation, or (tangents) the rotation of space `i`, kept
    /// from the previous triple.
    pub(super) fn place_each(
        &self,
        ctx: &mut SolverCtx<'_>,
        ids: &[BoneId],
        sc: &PathScratch,
        mut bone_x: f32,
        mut bone_y: f32,
    ) {
        let (mix_x, mix_y, mix_rotate) = (self.mix_x, self.mix_y, self.mix_rotate);
        let (spine_c, tip, offset_rotation) = (self.spine_c, self.tip, self.offset_rotation);
        let positions = &sc.positions;
        let mut r_prev = positions.get(2).copied().unwrap_or(0.0);
        let triples = positions.get(3..).unwrap_or_default().chunks_exact(3);
        // A full turn without offset (tip to tip or not) is taken from the two directions.
        let chords = !spine_c
            && !self.tangents
            && mix_rotate == 1.0
            && offset_rotation == 0.0
            && (!tip || tip_chords_allowed());
        for (i, (&id, t)) in ids.iter().zip(triples).enumerate() {
            let (x, y, r_next) = (t[0], t[1], t[2]);
            let r_this = std::mem::replace(&mut r_prev, r_next);
            let parent = parent_world(ctx.bones, id);
            let Some(bone) = ctx.bones.get_mut(id.index()) else { continue };
            bone.world_x += (bone_x - bone.world_x) * mix_x;
            bone.world_y += (bone_y - bone.world_y) * mix_y;
            let (dx, dy) = (x - bone_x, y - bone_y);
            if self.scale {
                let length = if self.lazy_lengths {
                    let setup = ctx.data.bones.get(id.index()).map_or(0.0, |b| b.length);
                    let (x, y) = (setup * bone.a, setup * bone.c);
                    math::sqrt(x * x + y * y)
                } else {
                    sc.lengths[i]
                };
                if (spine_c && length != 0.0) || (!spine_c && length >= EPSILON) {
                    let s = (math::sqrt(dx * dx + dy * dy) / length - 1.0) * mix_rotate + 1.0;
                    bone.a *= s;
                    bone.c *= s;
                }
            }
            bone_x = x;
            bone_y = y;
            if mix_rotate > 0.0 {
                let (a, b, c, d) = (bone.a, bone.b, bone.c, bone.d);
                // A full turn toward the chord (4.x rules, no offset): from the two
                // directions, as `place` does, so that both loops give the same bits.
                let chord = chords && sc.spaces[i + 1] >= EPSILON;
                let turn = if chord { chord_turn(dx, dy, a, c) } else { None };
                let (sin, cos) = if let Some(turn) = turn {
                    let (sin, cos) = turn.sin_cos();
                    if tip {
                        // The tip: as below, with the turn's sine and cosine (`mix_rotate`
                        // is 1, so the final rotation is this turn too).
                        let setup = ctx.data.bones.get(id.index()).map_or(0.0, |b| b.length);
                        bone_x += setup * (cos * a - sin * c) - dx;
                        bone_y += setup * (sin * a + cos * c) - dy;
                    }
                    (sin, cos)
                } else {
                    let (mut r, bone_r) = if self.tangents {
                        (r_this, math::atan2(c, a))
                    } else if (spine_c && sc.spaces[i + 1] == 0.0)
                        || (!spine_c && sc.spaces[i + 1] < EPSILON)
                    {
                        (r_next, math::atan2(c, a))
                    } else {
                        math::atan2_pair(dy, dx, c, a)
                    };
                    if spine_c {
                        r -= bone_r - offset_rotation * DEG_RAD;
                    } else {
                        r -= bone_r;
                    }
                    if tip {
                        let (sin, cos) = math::sin_cos(r);
                        let setup = ctx.data.bones.get(id.index()).map_or(0.0, |b| b.length);
                        bone_x += (setup * (cos * a - sin * c) - dx) * mix_rotate;
                        bone_y += (setup * (sin * a + cos * c) - dy) * mix_rotate;
                        // Without a wrap and with `mix_rotate == 1` the final rotation is this
                        // `r` (`r * 1.0 == r`): its sine and cosine are reused.
                        if mix_rotate == 1.0 && (-PI..=PI).contains(&r) {
                            (sin, cos)
                        } else {
                            math::sin_cos(wrap_pi(r) * mix_rotate)
                        }
                    } else {
                        math::sin_cos(wrap_pi(r + offset_rotation) * mix_rotate)
                    }
                };
                rotate(bone, [a, b, c, d], sin, cos);
            }
            // spine-c 3.5/3.6 end with `bone->appliedValid = -1` (true): the applied pose is
            // not recomputed and keeps the values the bone was last posed with.
            if !spine_c {
                bone.update_applied_transform(parent, &ctx.frame);
            }
        }
    }

    /// spine-ts 4.3's bone loop: each bone `modifyWorld`-ed, then moved, scaled (chain scale)
    /// and turned in world space.
    pub(super) fn place43(
        &self,
        poses: &mut crate::constraints::lazy43::Poses<'_>,
        skeleton: &spine_model::SkeletonData,
        ids: &[BoneId],
        sc: &PathScratch,
        start: (f32, f32),
    ) {
        let (mix_x, mix_y, mix_rotate) = (self.mix_x, self.mix_y, self.mix_rotate);
        let (scale, tangents, tip) = (self.scale, self.tangents, self.tip);
        let offset_rotation = self.offset_rotation;
        let positions = &sc.positions;
        let (mut bone_x, mut bone_y) = start;
        for (i, &id) in ids.iter().enumerate() {
            let ip = 3 * (i + 1);
            poses.modify_world(id);
            let Some(bone) = poses.bones.get_mut(id.index()) else { continue };
            bone.world_x += (bone_x - bone.world_x) * mix_x;
            bone.world_y += (bone_y - bone.world_y) * mix_y;
            let (x, y) = (positions[ip], positions[ip + 1]);
            let (dx, dy) = (x - bone_x, y - bone_y);
            if scale {
                let length = sc.lengths[i];
                if length != 0.0 {
                    let s = (math::sqrt(dx * dx + dy * dy) / length - 1.0) * mix_rotate + 1.0;
                    bone.a *= s;
                    bone.c *= s;
                }
            }
            bone_x = x;
            bone_y = y;
            if mix_rotate > 0.0 {
                let (a, b, c, d) = (bone.a, bone.b, bone.c, bone.d);
                let mut r = if tangents {
                    positions[ip - 1]
                } else if sc.spaces[i + 1] == 0.0 {
                    positions[ip + 2]
                } else {
                    math::atan2(dy, dx)
                };
                r -= math::atan2(c, a);
                if tip {
                    let (sin, cos) = math::sin_cos(r);
                    let length = skeleton.bones.get(id.index()).map_or(0.0, |b| b.length);
                    bone_x += (length * (cos * a - sin * c) - dx) * mix_rotate;
                    bone_y += (length * (sin * a + cos * c) - dy) * mix_rotate;
                } else {
                    r += offset_rotation;
                }
                let (sin, cos) = math::sin_cos(wrap_pi(r) * mix_rotate);
                bone.a = cos * a - sin * c;
                bone.b = cos * b - sin * d;
                bone.c = sin * a + cos * c;
                bone.d = sin * b + cos * d;
            }
        }
    }

    /// The bone loop of `update` two bones at a time: each bone's operations and the order of
    /// its writes are those of the one-bone loop; only the two final `sin_cos` share one
    /// [`math::sin_cos_pair`]. Parents are read as that loop reads them: before either bone
    /// moves, except the second bone's parent when it is the first bone (after that is done).
    #[inline(never)]
    pub(super) fn place_pairs(
        &self,
        ctx: &mut SolverCtx<'_>,
        ids: &[BoneId],
        sc: &PathScratch,
        mut bone_x: f32,
        mut bone_y: f32,
    ) {
        let positions = &sc.positions;
        let mut r_prev = positions.get(2).copied().unwrap_or(0.0);
        let triples = positions.get(3..).unwrap_or_default().as_chunks::<3>().0;
        let n = ids.len().min(triples.len());
        let (ids, triples) = (&ids[..n], &triples[..n]);
        let mut i = 0;
        while i + 1 < n {
            let (id, id1) = (ids[i], ids[i + 1]);
            let (t0, t1) = (triples[i], triples[i + 1]);
            let parent = parent_world(ctx.bones, id);
            let after_first = ctx.bones.get(id1.index()).and_then(|b| b.parent) == Some(id);
            let parent1 = if after_first { None } else { parent_world(ctx.bones, id1) };
            let Ok([b0, b1]) = ctx.bones.get_disjoint_mut([id.index(), id1.index()]) else {
                break;
            };
            let r_this1 = t0[2];
            let r_this0 = std::mem::replace(&mut r_prev, t1[2]);
            let w0 = self.place(ctx.data, sc, i, b0, id, [bone_x, bone_y], t0, r_this0);
            let w1 = self.place(ctx.data, sc, i + 1, b1, id1, [t0[0], t0[1]], t1, r_this1);
            (bone_x, bone_y) = (t1[0], t1[1]);
            let ((sin0, cos0), (sin1, cos1)) = match (w0.0, w1.0) {
                (Turn::Angle(r0), Turn::Angle(r1)) => math::sin_cos_pair(r0, r1),
                (t0, t1) => (t0.sin_cos(), t1.sin_cos()),
            };
            rotate(b0, w0.1, sin0, cos0);
            b0.update_applied_transform(parent, &ctx.frame);
            let parent1 = if after_first { Some(b0.world()) } else { parent1 };
            rotate(b1, w1.1, sin1, cos1);
            b1.update_applied_transform(parent1, &ctx.frame);
            i += 2;
        }
        // The last bone of an odd count (or the rest, after a missing bone).
        while i < n {
            let (id, t) = (ids[i], triples[i]);
            let r_this = std::mem::replace(&mut r_prev, t[2]);
            let parent = parent_world(ctx.bones, id);
            if let Some(bone) = ctx.bones.get_mut(id.index()) {
                let w = self.place(ctx.data, sc, i, bone, id, [bone_x, bone_y], t, r_this);
                (bone_x, bone_y) = (t[0], t[1]);
                let (sin, cos) = w.0.sin_cos();
                rotate(bone, w.1, sin, cos);
                bone.update_applied_transform(parent, &ctx.frame);
            }
            i += 1;
        }
    }

    /// Bone `i` of the loop up to its final rotation: moves it to `from`, scales it toward
    /// its position `t` (chain scale) and returns the turn that rotates it, with its matrix
    /// after the scale (not stored: the caller's [`rotate`] writes it).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn place(
        &self,
        data: &spine_model::SkeletonData,
        sc: &PathScratch,
        i: usize,
        bone: &mut Bone,
        id: BoneId,
        from: [f32; 2],
        t: [f32; 3],
        r_this: f32,
    ) -> (Turn, [f32; 4]) {
        let [bone_x, bone_y] = from;
        let (x, y, r_next) = (t[0], t[1], t[2]);
        bone.world_x += (bone_x - bone.world_x) * self.mix_x;
        bone.world_y += (bone_y - bone.world_y) * self.mix_y;
        let (dx, dy) = (x - bone_x, y - bone_y);
        // The matrix is read once and the scaled columns stay in registers: the caller's
        // `rotate` writes the whole matrix (storing the columns here and reading the matrix
        // back whole after two single-float stores stalled store forwarding per bone).
        let (mut a, b, mut c, d) = (bone.a, bone.b, bone.c, bone.d);
        if self.scale {
            let length = if self.lazy_lengths {
                let setup = data.bones.get(id.index()).map_or(0.0, |b| b.length);
                let (x, y) = (setup * a, setup * c);
                math::sqrt(x * x + y * y)
            } else {
                sc.lengths.get(i).copied().unwrap_or(0.0)
            };
            if length >= EPSILON {
                let s = (math::sqrt(dx * dx + dy * dy) / length - 1.0) * self.mix_rotate + 1.0;
                a *= s;
                c *= s;
            }
        }
        let (r, bone_r) = if self.tangents {
            (r_this, math::atan2(c, a))
        } else if sc.spaces.get(i + 1).is_some_and(|&s| s < EPSILON) {
            (r_next, math::atan2(c, a))
        } else {
            // A full turn toward the chord: from the two directions, not their angles.
            if self.mix_rotate == 1.0 && self.offset_rotation == 0.0 {
                if let Some(turn) = chord_turn(dx, dy, a, c) {
                    return (turn, [a, b, c, d]);
                }
            }
            math::atan2_pair(dy, dx, c, a)
        };
        let turn = wrap_pi(r - bone_r + self.offset_rotation) * self.mix_rotate;
        (Turn::Angle(turn), [a, b, c, d])
    }
}

/// How a chain bone turns: by an angle (radians), or by the sine and cosine of one.
#[derive(Debug, Clone, Copy)]
pub(super) enum Turn {
    /// The angle, whose sine and cosine are still to compute.
    Angle(f32),
    /// `(sin, cos)`.
    SinCos(f32, f32),
}

impl Turn {
    /// `(sin, cos)` of the turn.
    #[inline(always)]
    pub(super) fn sin_cos(self) -> (f32, f32) {
        match self {
            Turn::Angle(r) => math::sin_cos(r),
            Turn::SinCos(sin, cos) => (sin, cos),
        }
    }
}

/// The turn that brings the bone's x axis `(a, c)` onto the chord `(dx, dy)`: its sine and
/// cosine from the two directions (their cross and dot products over the product of the
/// lengths), not from the difference of their atan2s. The same turn within rounding
/// (unit-tested against the angle path); `None` where a direction is undefined (a zero or
/// non-finite length), where the angles decide.
#[inline(always)]
pub(super) fn chord_turn(dx: f32, dy: f32, a: f32, c: f32) -> Option<Turn> {
    math::turn_between(dx, dy, a, c).map(|(sin, cos)| Turn::SinCos(sin, cos))
}

/// Rotates `bone`, whose matrix is `m` (`a, b, c, d`), by the angle of `sin`, `cos`.
#[inline(always)]
pub(super) fn rotate(bone: &mut Bone, m: [f32; 4], sin: f32, cos: f32) {
    let [a, b, c, d] = m;
    bone.a = cos * a - sin * c;
    bone.b = cos * b - sin * d;
    bone.c = sin * a + cos * c;
    bone.d = sin * b + cos * d;
}

/// `v.resize(n, 0.0)` (spine-cpp `Vector::setSize`: kept values, new ones 0), with the
/// common case (already `n` long) tested inline instead of calling `resize`.
#[inline(always)]
pub(super) fn set_len(v: &mut Vec<f32>, n: usize) {
    if v.len() != n {
        v.resize(n, 0.0);
    }
}

/// What this crate's unit tests turn off, to compare a fast path with the one it replaces:
/// [`Chain::place_pairs`] (against the one-bone loop, bit for bit) and the tip-to-tip loop's
/// [`chord_turn`] (against the angle path, within rounding).
#[cfg(test)]
#[derive(Clone, Copy, Default)]
pub(super) struct Off {
    /// The paired bone loop.
    pub(super) pairs: bool,
    /// Chords tip to tip.
    pub(super) tip_chords: bool,
}

#[cfg(test)]
thread_local! {
    pub(super) static OFF: std::cell::Cell<Off> = const {
        std::cell::Cell::new(Off { pairs: false, tip_chords: false })
    };
}

/// Whether the bone loop may take [`Chain::place_pairs`] (always outside unit tests).
#[inline(always)]
pub(super) fn pairs_allowed() -> bool {
    #[cfg(test)]
    return !OFF.with(|c| c.get().pairs);
    #[cfg(not(test))]
    true
}

/// Whether the tip-to-tip loop may turn by [`chord_turn`] (always outside unit tests).
#[inline(always)]
pub(super) fn tip_chords_allowed() -> bool {
    #[cfg(test)]
    return !OFF.with(|c| c.get().tip_chords);
    #[cfg(not(test))]
    true
}

/// Whether no bone appears twice in `ids`: a 64-bit mask of the ids modulo 64, and the
/// exact pairwise test only when two of them share a bit.
pub(super) fn distinct(ids: &[BoneId]) -> bool {
    let mut mask = 0u64;
    for id in ids {
        let bit = 1u64 << (id.index() & 63);
        if mask & bit != 0 {
            return ids.iter().enumerate().all(|(k, a)| !ids[..k].contains(a));
        }
        mask |= bit;
    }
    true
}
