//! Hostile input all the way down: mutated skeleton files go through parse → resolve →
//! skeleton → every animation applied and posed (physics on) without a panic or a hang;
//! each step ends in `Ok` or a typed error. The unmodified files must pose to finite world
//! transforms everywhere; a mutated file may legitimately overflow (a flipped exponent bit
//! makes a scale of 1e38), so its non-finite poses are counted and reported, not failed.
//! Fixed seeds, bounded work (a deterministic complement to the fuzz targets).

use std::sync::Arc;

use spine_anim::{apply_animation, MixBlend, MixDirection, Physics, Skeleton};
use spine_format::binary;
use spine_model::{AnimationId, LoadOptions, SkeletonData};

struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// How far [`load_and_pose`] got.
#[derive(Debug, PartialEq)]
enum Outcome {
    /// A typed error from the parser or the model.
    Rejected,
    /// Posed; whether every bone's world transform stayed finite at every pose.
    Posed { finite: bool },
}

/// Loads geometry-only and poses every animation at a few times.
fn load_and_pose(bytes: &[u8]) -> Outcome {
    let Ok(file) = binary::parse(bytes) else { return Outcome::Rejected };
    let Ok(data) = SkeletonData::from_binary(&file, &LoadOptions::default()) else {
        return Outcome::Rejected;
    };
    let data = Arc::new(data);
    let mut sk = Skeleton::new(data.clone());
    let mut finite = true;
    for i in 0..data.animations.len() {
        let id = AnimationId::from_index(i);
        let duration = data.animations[i].duration;
        for t in [0.0, 0.37, duration * 0.5, duration] {
            sk.set_to_setup_pose();
            apply_animation(&mut sk, id, t, t, false, None, 1.0, MixBlend::Setup, MixDirection::In);
            sk.update(1.0 / 60.0);
            sk.update_world_transform(Physics::Update);
            finite &= sk
                .bones
                .iter()
                .all(|b| [b.a, b.b, b.c, b.d, b.world_x, b.world_y].iter().all(|v| v.is_finite()));
        }
    }
    Outcome::Posed { finite }
}

fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for name in ["physics.skel", "sliders.skel", "constraints.skel", "draw-order.skel"] {
        let p = skel_testkit::project_fixtures().join("spine-4.3").join(name);
        out.push((name.to_owned(), std::fs::read(p).expect("generated fixture")));
    }
    if let Some(corpus) = skel_testkit::spine_corpus() {
        for v in ["3.5", "3.6", "3.7", "3.8", "4.0", "4.1", "4.2"] {
            let mut files: Vec<_> = skel_testkit::files_with_suffix(&corpus.join(v), ".skel")
                .into_iter()
                .map(|p| (std::fs::metadata(&p).map(|m| m.len()).unwrap_or(u64::MAX), p))
                .collect();
            files.sort();
            if let Some((_, p)) = files.first() {
                out.push((format!("{v}/{}", p.display()), std::fs::read(p).expect("corpus")));
            }
        }
    }
    out
}

#[test]
fn mutated_files_load_and_pose_or_fail_cleanly() {
    let mut rng = SplitMix64(0xdead_beef);
    let (mut posed, mut non_finite, mut total) = (0, 0, 0);
    for (name, bytes) in inputs() {
        assert_eq!(
            load_and_pose(&bytes),
            Outcome::Posed { finite: true },
            "{name}: the unmodified file must load and pose to finite world transforms"
        );
        let mut buf = bytes.clone();
        for _ in 0..250 {
            buf.copy_from_slice(&bytes);
            for _ in 0..1 + rng.next() % 3 {
                let i = (rng.next() % buf.len() as u64) as usize;
                buf[i] ^= 1 << (rng.next() % 8);
            }
            total += 1;
            if let Outcome::Posed { finite } = load_and_pose(&buf) {
                posed += 1;
                non_finite += usize::from(!finite);
            }
        }
    }
    eprintln!(
        "{total} mutated files: {posed} loaded and posed ({non_finite} of them to a \
         non-finite world transform somewhere), the rest typed errors"
    );
    assert!(posed > 0, "no mutated file got as far as posing: the sweep tests nothing");
}

/// A chain 10,000 bones deep loads, resolves and poses: nothing recurses per level (no stack
/// overflow) and nothing is quadratic in depth (bounded time).
#[test]
fn a_bone_chain_10000_deep_loads_and_poses() {
    use spine_format::binary::{v43, SkeletonFile};
    let path = skel_testkit::project_fixtures().join("spine-4.3/physics.skel");
    let SkeletonFile::V43(mut ast) = binary::parse(&std::fs::read(path).unwrap()).unwrap() else {
        panic!("a 4.3 fixture");
    };
    let first = ast.bones.len() as u32;
    let template = ast.bones[0].clone();
    for i in 0..10_000u32 {
        let mut b = template.clone();
        b.name = format!("chain{i}").into();
        b.parent = Some(if i == 0 { 0 } else { first + i - 1 });
        b.rotation = 0.01;
        (b.x, b.y, b.scale_x, b.scale_y, b.shear_x, b.shear_y) = (1.0, 0.0, 1.0, 1.0, 0.0, 0.0);
        b.inherit = v43::Inherit::Normal;
        b.skin_required = false;
        ast.bones.push(b);
    }
    let bytes = v43::write(&ast);
    let start = std::time::Instant::now();
    assert_eq!(load_and_pose(&bytes), Outcome::Posed { finite: true }, "the deep chain");
    let file = binary::parse(&bytes).unwrap();
    let data = Arc::new(SkeletonData::from_binary(&file, &LoadOptions::default()).unwrap());
    let mut sk = Skeleton::new(data.clone());
    sk.set_to_setup_pose();
    sk.update_world_transform(Physics::Update);
    let last = sk.bones.last().expect("bones");
    assert!(last.world_x.is_finite() && last.world_y.is_finite());
    // 10,000 unit steps bending by 0.01° each: the tip is far from the root, not at it.
    assert!(last.world_x.hypot(last.world_y) > 1000.0, "{} {}", last.world_x, last.world_y);
    assert!(start.elapsed().as_secs() < 60, "deep chain took {:?}", start.elapsed());
}
