//! # spine-gen
//!
//! A deterministic generator of Spine 4.3 binary skeleton ASTs
//! ([`spine_format::binary::v43::Skeleton`]), for committed fixtures and property tests.
//!
//! * [`named_fixtures`] — the fixtures written by `cargo xtask gen-fixtures` to
//!   `fixtures/spine-4.3/*.skel`. Together they cover every section, every enum value, every
//!   flag bit, every attachment and timeline type, with and without nonessential data.
//! * [`random_skeleton`] — a small random skeleton per seed.
//!
//! Every generated AST is valid (indices in range, constraint types consistent, gated
//! fields present exactly when their flag bit is set), so `parse(write(ast)) == ast`.
//! Randomness comes from a private SplitMix64; the same seed always gives the same bytes.

pub mod demo;
mod generator;
mod judge;

pub use generator::generate;

use spine_format::binary::v43::*;

/// SplitMix64: a tiny, fast, well-distributed PRNG.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`0` when `n == 0`).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi.saturating_sub(lo) + 1)
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }

    /// A random byte.
    pub fn byte(&mut self) -> u8 {
        self.next_u64() as u8
    }

    /// A "nice" float in `[-lim, lim]` with quarter steps (exact in f32).
    pub fn float(&mut self, lim: u32) -> f32 {
        let steps = lim as usize * 4;
        (self.below(2 * steps + 1) as f32 - steps as f32) * 0.25
    }

    /// A float in `[0, 1]` with 1/64 steps.
    pub fn unit(&mut self) -> f32 {
        self.below(65) as f32 / 64.0
    }
}

/// The shape of a generated skeleton.
#[derive(Debug, Clone)]
pub struct Config {
    /// Write nonessential data.
    pub nonessential: bool,
    /// Number of bones (at least 1).
    pub bones: usize,
    /// Number of slots.
    pub slots: usize,
    /// Constraint types, in list order.
    pub constraints: Vec<ConstraintType>,
    /// Whether there is a default skin.
    pub default_skin: bool,
    /// Number of named skins.
    pub skins: usize,
    /// Maximum attachments per skin slot.
    pub attachments_per_slot: usize,
    /// Maximum vertices of a vertex attachment.
    pub max_vertices: usize,
    /// Number of events.
    pub events: usize,
    /// Number of animations.
    pub animations: usize,
    /// Rough number of timeline groups per section of an animation.
    pub timelines: usize,
    /// Maximum keys per timeline.
    pub max_frames: usize,
}

impl Config {
    /// A small configuration for property tests.
    pub fn small(rng: &mut Rng) -> Self {
        let n = rng.range(0, 8);
        let all = [
            ConstraintType::Ik,
            ConstraintType::Path,
            ConstraintType::Transform,
            ConstraintType::Physics,
            ConstraintType::Slider,
        ];
        let constraints = (0..n).map(|_| all[rng.below(5)]).collect();
        Config {
            nonessential: rng.chance(50),
            bones: rng.range(1, 8),
            slots: rng.range(0, 6),
            constraints,
            default_skin: rng.chance(70),
            skins: rng.range(0, 3),
            attachments_per_slot: rng.range(1, 3),
            max_vertices: rng.range(3, 8),
            events: rng.range(0, 3),
            animations: rng.range(1, 3),
            timelines: rng.range(0, 3),
            max_frames: rng.range(1, 4),
        }
    }
}

/// A random small skeleton (for property tests).
pub fn random_skeleton(seed: u64) -> Skeleton {
    let mut rng = Rng::new(seed ^ 0xa5a5_5a5a_0f0f_f0f0);
    let cfg = Config::small(&mut rng);
    generate(cfg, seed)
}

fn every_type(n: usize) -> Vec<ConstraintType> {
    let all = [
        ConstraintType::Ik,
        ConstraintType::Path,
        ConstraintType::Transform,
        ConstraintType::Physics,
        ConstraintType::Slider,
    ];
    (0..n).map(|i| all[i % 5]).collect()
}

/// The named fixtures, in a stable order: `(file stem, skeleton)`.
pub fn named_fixtures() -> Vec<(&'static str, Skeleton)> {
    let showcase = |nonessential: bool, bones, slots, animations, seed| {
        generate(
            Config {
                nonessential,
                bones,
                slots,
                constraints: every_type(40),
                default_skin: true,
                skins: 3,
                attachments_per_slot: 3,
                max_vertices: 24,
                events: 6,
                animations,
                timelines: 8,
                max_frames: 10,
            },
            seed,
        )
    };
    let focused = |nonessential, constraints: Vec<ConstraintType>, seed| {
        generate(
            Config {
                nonessential,
                bones: 12,
                slots: 8,
                constraints,
                default_skin: true,
                skins: 1,
                attachments_per_slot: 2,
                max_vertices: 9,
                events: 3,
                animations: 4,
                timelines: 4,
                max_frames: 5,
            },
            seed,
        )
    };
    let mut draw_order = focused(false, Vec::new(), 44);
    for a in &mut draw_order.animations {
        if a.draw_order.is_empty() {
            a.draw_order.push(DrawOrderKey { time: 0.0, changes: Vec::new() });
            a.timeline_hint += 1;
        }
    }
    vec![
        ("showcase-pro", showcase(true, 140, 90, 20, 1)),
        ("showcase-ess", showcase(false, 50, 30, 8, 2)),
        ("sliders", focused(true, vec![ConstraintType::Slider; 6], 41)),
        ("physics", focused(true, vec![ConstraintType::Physics; 6], 42)),
        ("constraints", focused(false, every_type(15), 43)),
        ("draw-order", draw_order),
    ]
}
