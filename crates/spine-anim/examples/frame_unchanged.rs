//! Counts, per frame, how much of the pose is unchanged since the previous frame (the
//! payoff bound of skipping work by a stamp/compare):
//! bones whose local pose is bit-identical, bones whose local pose *and* parent world are
//! bit-identical (what a skipped world-transform walk could reuse), bones whose final world
//! transform is bit-identical, and IK constraints whose inputs (target world position,
//! constrained bones' local pose, the first bone's parent world, the constraint pose) are
//! bit-identical; and how many of the bones whose local pose moves at some point keep it
//! from one frame to the next (the constant segments a timeline skip could use).
//!
//! `cargo run --release -p spine-anim --example frame_unchanged -- <rig> <file> <skin|-> <anim> [frames]`

#[path = "common/rig.rs"]
mod rig;

use spine_anim::constraints::ConstraintPose;
use spine_anim::{Physics, Skeleton};
use spine_model::{ConstraintKind, Timeline};

fn local(sk: &Skeleton, i: usize) -> [u32; 8] {
    let b = &sk.bones[i];
    [
        b.x.to_bits(),
        b.y.to_bits(),
        b.rotation.to_bits(),
        b.scale_x.to_bits(),
        b.scale_y.to_bits(),
        b.shear_x.to_bits(),
        b.shear_y.to_bits(),
        b.inherit as u32,
    ]
}

fn world(sk: &Skeleton, i: usize) -> [u32; 6] {
    let b = &sk.bones[i];
    [b.a, b.b, b.c, b.d, b.world_x, b.world_y].map(f32::to_bits)
}

fn parent_world(sk: &Skeleton, i: usize) -> [u32; 6] {
    sk.bones[i].parent.map_or([0; 6], |p| world(sk, p.index()))
}

fn main() {
    let args = rig::Args::parse("-", "run", 500);
    let Some(data) = args.load() else { return };
    let (mut sk, mut state) = rig::posed(&data, Some(&args.third), 0.2);
    let anim_id = data.find_animation(&args.fourth).expect("animation exists");
    state.set_animation(0, Some(anim_id), true);
    let (rig, anim, frames) = (&args.rig, &args.fourth, args.frames);
    let dt = 1.0f32 / 60.0;
    let n = sk.bones.len();
    let active = sk.bones.iter().filter(|b| b.active).count();
    // Per frame: the snapshot taken after `apply` (local) and after the world update.
    type Ik = ([u32; 2], Vec<[u32; 8]>, [u32; 6], [u32; 4]);
    type Snapshot = (Vec<[u32; 8]>, Vec<[u32; 6]>, Vec<[u32; 6]>, Vec<Ik>);
    let mut prev: Option<Snapshot> = None;
    let (mut same_local, mut same_local_parent, mut same_world) = (0usize, 0usize, 0usize);
    let (mut iks, mut same_ik, mut idle_ik) = (0usize, 0usize, 0usize);
    let mut counted = 0usize;
    let mut ever_changed = vec![false; n];
    for _ in 0..frames {
        state.update(dt);
        state.apply(&mut sk);
        let locals: Vec<[u32; 8]> = (0..n).map(|i| local(&sk, i)).collect();
        sk.update(dt);
        sk.update_world_transform(Physics::Update);
        state.clear_events();
        let worlds: Vec<[u32; 6]> = (0..n).map(|i| world(&sk, i)).collect();
        let parents: Vec<[u32; 6]> = (0..n).map(|i| parent_world(&sk, i)).collect();
        let mut ik_inputs = Vec::new();
        for (cd, c) in data.constraints.iter().zip(&sk.constraints) {
            if let (ConstraintKind::Ik(d), ConstraintPose::Ik(p)) = (&cd.kind, &c.pose) {
                let t = world(&sk, d.target.index());
                let first = d.bones.first().map_or(0, |b| b.index());
                ik_inputs.push((
                    [t[4], t[5]],
                    d.bones.iter().map(|b| locals[b.index()]).collect(),
                    parent_world(&sk, first),
                    [
                        p.mix.to_bits(),
                        p.softness.to_bits(),
                        p.bend_direction as u32,
                        u32::from(p.compress) | u32::from(p.stretch) << 1,
                    ],
                ));
                if p.mix == 0.0 {
                    idle_ik += 1;
                }
            }
        }
        if let Some((pl, pw, pp, pik)) = &prev {
            counted += 1;
            for i in 0..n {
                if !sk.bones[i].active {
                    continue;
                }
                let l = pl[i] == locals[i];
                ever_changed[i] |= !l;
                same_local += usize::from(l);
                same_local_parent += usize::from(l && pp[i] == parents[i]);
                same_world += usize::from(pw[i] == worlds[i]);
            }
            for (a, b) in pik.iter().zip(&ik_inputs) {
                iks += 1;
                same_ik += usize::from(a == b);
            }
        }
        prev = Some((locals, worlds, parents, ik_inputs));
    }
    let f = counted.max(1) as f64;
    let never = (0..n).filter(|&i| sk.bones[i].active && !ever_changed[i]).count();
    let moving_still = same_local as f64 / f - never as f64;
    let anim_data = data.animations.get(anim_id.index());
    // (bone, key count, all keys' values equal)
    let bone_timelines: Vec<(usize, usize, bool)> = anim_data.map_or(Vec::new(), |a| {
        a.timelines
            .iter()
            .filter_map(|t| match t {
                Timeline::Bone { bone, curves, .. } => {
                    let stride = curves.channels + 1;
                    let keys: Vec<&[f32]> = a.table(curves).frames.chunks(stride).collect();
                    let equal = keys.windows(2).all(|w| w[0][1..] == w[1][1..]);
                    Some((bone.index(), keys.len(), equal))
                }
                _ => None,
            })
            .collect()
    });
    let inactive = bone_timelines.iter().filter(|t| !sk.bones[t.0].active).count();
    let constant =
        bone_timelines.iter().filter(|t| sk.bones[t.0].active && !ever_changed[t.0]).count();
    let single = bone_timelines.iter().filter(|t| t.1 == 1).count();
    let equal = bone_timelines.iter().filter(|t| t.2).count();
    println!(
        "{rig} {anim}: {} bone timelines, {inactive} on inactive bones, {constant} on an active bone whose local pose never changes, {single} with one key, {equal} with all key values equal",
        bone_timelines.len()
    );
    println!(
        "{rig} {anim}: {active} active bones; per frame: local unchanged {:.1}, local+parent world unchanged {:.1}, world unchanged {:.1}; bones whose local pose changes in some frame {}, of them unchanged per frame {:.1}; IK {:.1} per frame, inputs unchanged {:.1}, idle (mix 0) {:.1}",
        same_local as f64 / f,
        same_local_parent as f64 / f,
        same_world as f64 / f,
        active - never,
        moving_still,
        iks as f64 / f,
        same_ik as f64 / f,
        idle_ik as f64 / frames.max(1) as f64,
    );
}
