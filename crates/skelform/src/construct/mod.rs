//! `construct`: local pose → world transforms, IK, physics, mesh vertices (SEMANTICS §5).

mod fabrik;
#[cfg(test)]
mod tests;

use crate::armature::{Armature, ConstructOrder};
use crate::model::*;
use wide::{f32x8, CmpLt, CmpNe};

pub(crate) use fabrik::FabrikScratch;
use fabrik::{arc, fabrik, fabrik_lockstep};

#[inline]
fn rotate(p: Vec2, a: f32) -> Vec2 {
    rotate_sc(p, a.sin(), a.cos())
}

#[inline]
fn magnitude(v: Vec2) -> f32 {
    (v.x * v.x + v.y * v.y).sqrt()
}

#[inline]
fn normalize(v: Vec2) -> Vec2 {
    let m = magnitude(v);
    if m == 0. {
        return Vec2::ZERO;
    }
    Vec2::new(v.x / m, v.y / m)
}

#[inline]
fn angle(v: Vec2) -> f32 {
    v.y.atan2(v.x)
}

fn is_facing_left(s: Vec2) -> bool {
    (s.x < 0.) != (s.y < 0.)
}

/// `to − from` wrapped into [−π, π] (the reference's loop, bounded for huge or non-finite
/// inputs).
pub(crate) fn shortest_angle_delta(from: f32, to: f32) -> f32 {
    let pi: f32 = std::f32::consts::PI;
    let tau = pi * 2.0;
    let mut delta = to - from;
    if !delta.is_finite() {
        return 0.0;
    }
    if delta.abs() > 64.0 * tau {
        delta %= tau;
    }
    while delta > pi {
        delta -= tau;
    }
    while delta < -pi {
        delta += tau;
    }
    delta
}

/// (root, target) world positions of a family, or `None` when it is skipped.
fn ends(world: &[Transform], fam: &IkFamily) -> Option<(Vec2, Vec2)> {
    let root = world.get(*fam.bone_ids.first()? as usize)?.pos;
    let target = world.get(fam.target? as usize)?.pos;
    Some((root, target))
}

/// The physics easing of one entry, from its constant settings: for (pos x, pos y, scale x,
/// scale y), the eased progress of the reference's `interpolate(2, damping, a, b,
/// (0.3, 0.3), (0.6, 0.6))`, or `None` where that returns `b` (damping 0 to 2 frames).
pub(crate) fn physics_ease(ph: &Physics) -> [Option<f32>; 4] {
    let (s, e) = (Vec2::new(0.3, 0.3), Vec2::new(0.6, 0.6));
    let ease = |d: f32| {
        let max = d as u32;
        (max > 2).then(|| crate::anim::progress(2, max, s, e))
    };
    let mut d = Vec2::new(ph.pos_damping, ph.pos_damping);
    if ph.pos_ratio < 0. {
        d.y *= 1. - ph.pos_ratio.abs();
    } else if ph.pos_ratio > 0. {
        d.x *= 1. - ph.pos_ratio;
    }
    let mut ds = Vec2::new(ph.scale_damping, ph.scale_damping);
    if ph.scale_ratio < 0. {
        ds.y *= 1. - ph.scale_ratio.abs();
    } else if ph.pos_ratio > 0. {
        // Reference quirk: the x branch tests pos_ratio.
        ds.x *= 1. - ph.scale_ratio;
    }
    [ease(d.x), ease(d.y), ease(ds.x), ease(ds.y)]
}

/// `Armature::affected` flag: the bone is in an IK chain or below one.
pub(crate) const AFFECTED_IK: u8 = 1;
/// `Armature::affected` flag: the bone has physics or is below a bone that has.
pub(crate) const AFFECTED_PHYSICS: u8 = 2;

fn p_index(b: &Bone) -> usize {
    b.parent.map_or(usize::MAX, |p| p as usize)
}

/// A bone's transform for mesh vertices: scale × pivot scale, and the sine and cosine of
/// rot + pivot rot computed once (the same values `rotate` would compute per vertex).
#[derive(Clone, Copy)]
struct VertXf {
    scale: Vec2,
    sin: f32,
    cos: f32,
    pos: Vec2,
}

impl VertXf {
    fn new(b: &Transform, v: &Visual) -> Self {
        let a = b.rot + v.pivot_rot;
        VertXf { scale: b.scale * v.pivot_scale, sin: a.sin(), cos: a.cos(), pos: b.pos }
    }
    /// `inherit_vert(q, b, v) = b.pos + rotate(q * (b.scale * pivot_scale), b.rot + pivot_rot)`.
    #[inline]
    fn apply(&self, q: Vec2) -> Vec2 {
        rotate_sc(q * self.scale, self.sin, self.cos) + self.pos
    }
}

/// `(sin, cos)` of `angle(v)` (the reference's `atan2` then `sin`, `cos`) as `v`'s
/// components over its length: the same values to within an ulp or two, without the three
/// libm calls. A zero or non-finite `v` takes the trigonometric path (atan2's conventions
/// for ±0 and infinities).
#[inline]
fn direction_sin_cos(v: Vec2) -> (f32, f32) {
    let m = magnitude(v);
    if m > 0. && m.is_finite() {
        (v.y / m, v.x / m)
    } else {
        let a = angle(v);
        (a.sin(), a.cos())
    }
}

#[inline]
fn rotate_sc(p: Vec2, s: f32, c: f32) -> Vec2 {
    Vec2::new(p.x * c - p.y * s, p.x * s + p.y * c)
}

impl Armature {
    /// One inheritance pass in bone order (parents first), starting each bone from its
    /// local pose (pos, rot, scale, hidden). With `only != 0`, just the bones whose
    /// `affected` flags intersect it are recomputed: the others would get bit-identical
    /// values from identical inputs (see [`Armature::construct`]).
    /// `USE_IK` / `USE_PHYSICS` are const so each pass compiles without the other's checks.
    fn inheritance<const USE_IK: bool, const USE_PHYSICS: bool>(&mut self, only: u8) {
        let Armature { bones, world, physics, ik_rots, ik_set, affected, trig, .. } = self;
        for i in 0..world.len() {
            if only != 0 && affected.get(i).is_none_or(|a| a & only == 0) {
                continue;
            }
            let Some(bone) = bones.get(i) else { break };
            let w =
                Transform { pos: bone.pos, rot: bone.rot, scale: bone.scale, hidden: bone.hidden };
            let phys =
                if USE_PHYSICS { bone.physics.and_then(|p| physics.get(p as usize)) } else { None };
            let mut w = w;
            if let Some(parent) = bone.parent.and_then(|p| world.get(p as usize)) {
                let mut orbit = parent.rot;
                if let Some(ph) = phys {
                    if ph.sway > 0. {
                        orbit -= ph.global_orbit_diff;
                    }
                }
                if is_facing_left(parent.scale) {
                    w.rot = -w.rot;
                }
                w.rot += orbit;
                w.scale *= parent.scale;
                // Children of one parent share its orbit angle: sine and cosine are cached
                // per parent, keyed by the angle's exact bits (so always the same values).
                let (sn, cs) = match trig.get_mut(p_index(bone)) {
                    Some(t) if t.0 == orbit.to_bits() => (t.1, t.2),
                    Some(t) => {
                        *t = (orbit.to_bits(), orbit.sin(), orbit.cos());
                        (t.1, t.2)
                    }
                    None => (orbit.sin(), orbit.cos()),
                };
                w.pos = rotate_sc(w.pos * parent.scale, sn, cs) + parent.pos;
            }
            if USE_IK && ik_set.get(i).copied().unwrap_or(false) {
                w.rot = ik_rots.get(i).copied().unwrap_or(w.rot);
            }
            if let Some(ph) = phys {
                if ph.rot_damping > 0. {
                    w.rot = ph.global_rot;
                }
                if ph.pos_damping > 0. {
                    w.pos = ph.global_pos;
                }
                if ph.scale_damping > 0. {
                    w.scale = ph.global_scale;
                }
            }
            if let Some(slot) = world.get_mut(i) {
                *slot = w;
            }
        }
    }

    /// Runs every IK family on the current world pose, moving chain bones in place and
    /// recording absolute rotations in `ik_rots`.
    fn solve_ik(&mut self) {
        let Armature { world, iks, ik_rots, ik_set, ik_ends, ik_state, ik_independent, .. } = self;
        ik_set.iter_mut().for_each(|s| *s = false);
        // FABRIK is latency-bound (sqrt, divisions in a serial chain). When the families
        // cannot see each other's moves (checked at load), their iterations run interleaved
        // (iteration-major) so the CPU overlaps independent chains; every family still gets
        // exactly its ten iterations on exactly the inputs it would see sequentially.
        if *ik_independent {
            ik_ends.clear();
            ik_ends.extend(iks.iter().map(|f| ends(world, f)));
            fabrik_lockstep(world, iks, ik_ends, ik_state);
        }
        for fam in iks.iter() {
            let Some((root, target)) = ends(world, fam) else { continue };
            let (Some(target_i), Some(&last)) = (fam.target, fam.bone_ids.last()) else {
                continue;
            };
            match fam.mode {
                IkMode::Fabrik if !*ik_independent => {
                    for _ in 0..10 {
                        fabrik(world, &fam.sorted, root, target);
                    }
                }
                IkMode::Fabrik => {}
                IkMode::Arc => arc(world, &fam.sorted, root, target),
            }
            // The reference reads root and target again after the solve.
            let Some((root, target)) = ends(world, fam) else { continue };
            let target_rot = world.get(target_i as usize).map_or(0.0, |w| w.rot);
            // point_bones: every bone but the last points at the next one's position.
            let mut tip = world.get(last as usize).map_or(Vec2::ZERO, |w| w.pos);
            for &b in fam.bone_ids.iter().rev().skip(1) {
                if let Some(w) = world.get_mut(b as usize) {
                    w.rot = angle(tip - w.pos);
                    tip = w.pos;
                }
            }
            // Constraints mirror the chain's rotations about the root → target line.
            if let Some(&second) = fam.bone_ids.get(1) {
                let joint = world.get(second as usize).map_or(Vec2::ZERO, |w| w.pos);
                let joint_dir = normalize(joint - root);
                let base_dir = normalize(target - root);
                let cross = joint_dir.x * base_dir.y - base_dir.x * joint_dir.y;
                let flip = (fam.constraint == IkConstraint::Clockwise && cross > 0.)
                    || (fam.constraint == IkConstraint::CounterClockwise && cross < 0.);
                if flip {
                    // Only needed (and only computed) when mirroring.
                    let base_angle = angle(base_dir);
                    for &b in &fam.bone_ids {
                        if let Some(w) = world.get_mut(b as usize) {
                            w.rot = -w.rot + base_angle * 2.;
                        }
                    }
                }
            }
            let n = fam.bone_ids.len();
            for &b in &fam.bone_ids[..n - 1] {
                if let (Some(r), Some(s), Some(w)) =
                    (ik_rots.get_mut(b as usize), ik_set.get_mut(b as usize), world.get(b as usize))
                {
                    *r = w.rot;
                    *s = true;
                }
            }
            if fam.mimic_target {
                if let (Some(r), Some(s)) =
                    (ik_rots.get_mut(last as usize), ik_set.get_mut(last as usize))
                {
                    *r = target_rot;
                    *s = true;
                }
            }
        }
    }

    /// Advances the physics state one step on the current world pose.
    fn simulate_physics(&mut self) {
        let Armature { bones, world, physics, phys_ease, .. } = self;
        // `interpolate(2, d, a, b, (0.3, 0.3), (0.6, 0.6))` with the eased progress of the
        // (constant) damping d precomputed by `physics_ease`: the same operations.
        let lerp = |k: Option<f32>, a: f32, b: f32| k.map_or(b, |p| a + (b - a) * p);
        for (i, bone) in bones.iter().enumerate() {
            let Some(p) = bone.physics else { continue };
            let (Some(ph), Some(ease)) = (physics.get_mut(p as usize), phys_ease.get(p as usize))
            else {
                continue;
            };
            let Some(c) = world.get(i).copied() else { continue };
            let prev = ph.global_pos;
            if ph.pos_damping > 0. || ph.sway > 0. {
                ph.global_pos.x = lerp(ease[0], ph.global_pos.x, c.pos.x);
                ph.global_pos.y = lerp(ease[1], ph.global_pos.y, c.pos.y);
            }
            if ph.scale_damping > 0. {
                ph.global_scale.x = lerp(ease[2], ph.global_scale.x, c.scale.x);
                ph.global_scale.y = lerp(ease[3], ph.global_scale.y, c.scale.y);
            }
            if ph.rot_damping > 0. {
                ph.global_rot += shortest_angle_delta(ph.global_rot, c.rot) / ph.rot_damping;
            }
            let parent = bone.parent.and_then(|p| world.get(p as usize));
            if let (true, Some(parent)) = (ph.sway > 0., parent) {
                let diff_angle = angle(normalize(c.pos - parent.pos));
                let mut orbit = shortest_angle_delta(ph.global_orbit, diff_angle);
                if ph.rot_bounce > 0. && ph.rot_bounce <= 1. {
                    orbit += ph.global_orbit_vel / (2. - ph.rot_bounce);
                    ph.global_orbit_vel = orbit;
                }
                ph.global_orbit += orbit / 10.;
                let vel = normalize(ph.global_pos - prev);
                let a = (-vel.y).atan2(-vel.x);
                let vel_rot = shortest_angle_delta(ph.global_orbit, a);
                let strength = magnitude(ph.global_pos - prev) / 1000.;
                ph.global_orbit += vel_rot * strength * ph.sway;
                ph.global_orbit_diff = diff_angle - ph.global_orbit;
            }
        }
    }

    /// World mesh vertices of every visual.
    fn construct_verts(&mut self) {
        let Armature { bones, world, visuals, verts, .. } = self;
        for (i, bone) in bones.iter().enumerate() {
            let Some(vi) = bone.visual else { continue };
            let (Some(v), Some(out), Some(b)) =
                (visuals.get(vi as usize), verts.get_mut(vi as usize), world.get(i))
            else {
                continue;
            };
            let xf = VertXf::new(b, v);
            for (o, vx) in out.iter_mut().zip(&v.vertices) {
                *o = xf.apply(vx.init_pos);
            }
            let nb = v.binds.len();
            for (bi, bind) in v.binds.iter().enumerate() {
                let Some(bb) = bind.bone.and_then(|b| world.get(b as usize)) else { continue };
                if !bind.is_path {
                    let bxf = VertXf::new(bb, v);
                    for bv in &bind.verts {
                        let (Some(o), Some(vx)) =
                            (out.get_mut(bv.id as usize), v.vertices.get(bv.id as usize))
                        else {
                            continue;
                        };
                        let end = bxf.apply(vx.init_pos) - *o;
                        *o += end * bv.weight;
                    }
                    continue;
                }
                let bone_pos = |j: usize| {
                    v.binds
                        .get(j)
                        .and_then(|b| b.bone)
                        .and_then(|b| world.get(b as usize))
                        .map(|w| w.pos)
                };
                let prev = bone_pos(bi.saturating_sub(1));
                let next = bone_pos((bi + 1).min(nb - 1));
                let (Some(prev), Some(next)) = (prev, next) else { continue };
                let pd = bb.pos - prev;
                let nd = next - bb.pos;
                let avg = normalize(Vec2::new(-pd.y, pd.x)) + normalize(Vec2::new(-nd.y, nd.x));
                let (ns, nc) = direction_sin_cos(avg);
                for bv in &bind.verts {
                    let (Some(o), Some(vx)) =
                        (out.get_mut(bv.id as usize), v.vertices.get(bv.id as usize))
                    else {
                        continue;
                    };
                    let moved = vx.init_pos + bb.pos;
                    let rotated = rotate_sc(moved - bb.pos, ns, nc);
                    *o = bb.pos + rotated * bv.weight;
                }
            }
        }
    }

    /// Hidden flags: a bone is hidden when it or its parent (already resolved) is.
    fn propagate_hidden(&mut self) {
        for i in 0..self.world.len() {
            let parent = self.bones.get(i).and_then(|b| b.parent);
            let ph = parent.and_then(|p| self.world.get(p as usize)).is_some_and(|w| w.hidden);
            if let Some(w) = self.world.get_mut(i) {
                w.hidden |= ph;
            }
        }
    }

    /// World transforms, IK, one physics step and mesh vertices from the current local
    /// pose, in the configured [`ConstructOrder`]. Allocation-free.
    pub fn construct(&mut self) {
        self.inheritance::<false, false>(0);
        let run_ik = !self.baked_ik && !self.iks.is_empty();
        if run_ik {
            self.solve_ik();
        } else {
            self.ik_set.iter_mut().for_each(|s| *s = false);
        }
        // `clean`: the world buffer holds exactly inheritance(ik rotations, no physics), so
        // the physics pass only has to redo bones with physics and their descendants.
        let clean = if run_ik && self.order == ConstructOrder::Docs {
            // Only chain bones and their descendants differ from pass 1.
            self.inheritance::<true, false>(AFFECTED_IK);
            true
        } else {
            !run_ik
        };
        if !self.physics.is_empty() {
            self.simulate_physics();
            self.inheritance::<true, true>(if clean { AFFECTED_PHYSICS } else { 0 });
        }
        self.construct_verts();
        self.propagate_hidden();
    }
}
