//! Keyed values: curve timelines, key times and draw-order changes.

use spine_format::binary::shared::{Channels, CurveKey, CurveTimeline, CurveType, DrawOrderChange};
use spine_format::binary::v43::*;

use super::Gen;

impl Gen {
    pub(super) fn curve<V: Channels>(
        &mut self,
        channels: usize,
        mut value: impl FnMut(&mut Gen) -> V,
    ) -> CurveTimeline<V> {
        debug_assert_eq!(channels, V::COUNT);
        let n = self.rng.range(1, self.cfg.max_frames.max(1));
        let mut t = 0.0f32;
        let mut frames: Vec<CurveKey<V>> = Vec::with_capacity(n);
        let mut bezier_count = 0;
        for i in 0..n {
            if i > 0 {
                t += self.rng.range(1, 20) as f32 / 32.0;
                let c = [CurveType::Linear, CurveType::Stepped, CurveType::Bezier][self.next(5, 3)];
                let mut bezier = V::Beziers::default();
                if c == CurveType::Bezier {
                    for b in bezier.as_mut() {
                        *b = [
                            self.rng.unit(),
                            self.rng.float(10),
                            self.rng.unit(),
                            self.rng.float(10),
                        ];
                        bezier_count += 1;
                    }
                }
                if let Some(previous) = frames.last_mut() {
                    previous.curve = c;
                    previous.bezier = bezier;
                }
            }
            frames.push(CurveKey::linear(t, value(self)));
        }
        CurveTimeline { bezier_count, frames }
    }

    pub(super) fn times(&mut self) -> Vec<f32> {
        let n = self.rng.range(1, self.cfg.max_frames.max(1));
        let mut t = 0.0f32;
        (0..n)
            .map(|i| {
                if i > 0 {
                    t += self.rng.range(1, 20) as f32 / 32.0;
                }
                t
            })
            .collect()
    }

    pub(super) fn f1(&mut self) -> CurveTimeline<[f32; 1]> {
        self.curve(1, |g| [g.rng.float(90)])
    }

    pub(super) fn f2(&mut self) -> CurveTimeline<[f32; 2]> {
        self.curve(2, |g| [g.rng.float(90), g.rng.float(90)])
    }

    /// A scale key value: in `[-2, 2]` by quarters, never 0 (one draw, as [`Rng::float`]).
    pub(super) fn scale_value(&mut self) -> f32 {
        match self.rng.float(2) {
            0.0 => 1.0,
            v => v,
        }
    }

    pub(super) fn scale1(&mut self) -> CurveTimeline<[f32; 1]> {
        self.curve(1, |g| [g.scale_value()])
    }

    pub(super) fn scale2(&mut self) -> CurveTimeline<[f32; 2]> {
        self.curve(2, |g| [g.scale_value(), g.scale_value()])
    }

    /// A physics property timeline, its values in the range of the setup value
    /// ([`Gen::constraint`]): inertia, damping and mix in `[0, 1]`, strength in `0..200`, the
    /// mass inverse in `(0, 1]`, wind and gravity in `[-10, 10]` (one draw per value).
    pub(super) fn physics_values(&mut self, p: PhysicsProperty) -> CurveTimeline<[f32; 1]> {
        self.curve(1, |g| {
            [match p {
                PhysicsProperty::Strength => g.rng.below(200) as f32,
                PhysicsProperty::Mass => (g.rng.below(64) + 1) as f32 / 64.0,
                PhysicsProperty::Wind | PhysicsProperty::Gravity => g.rng.float(10),
                _ => g.rng.unit(),
            }]
        })
    }

    pub(super) fn draw_order(&mut self, n: usize) -> Vec<DrawOrderChange> {
        if n < 2 || self.rng.chance(15) {
            return Vec::new();
        }
        // A random permutation expressed as changes, the way the editor writes them.
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            let j = self.rng.below(i + 1);
            order.swap(i, j);
        }
        let mut pos = vec![0usize; n];
        for (p, &s) in order.iter().enumerate() {
            pos[s] = p;
        }
        (0..n)
            .filter(|&s| pos[s] != s)
            .map(|s| DrawOrderChange { slot: s as u32, shift: pos[s] as i32 - s as i32 })
            .collect()
    }
}
