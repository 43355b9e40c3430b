//! A small deterministic generator for the unit tests' random cases (xorshift64).

/// Xorshift64 from a nonzero seed.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// The next 64 random bits.
    pub(crate) fn bits(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A float in `[lo, hi)` (24 random bits).
    pub(crate) fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.bits() >> 40) as f32 / (1u64 << 24) as f32)
    }
}
