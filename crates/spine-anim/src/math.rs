//! Float maths as spine-cpp 4.2 `MathUtil` does it (`f32` arithmetic), except the
//! trigonometry: spine-cpp evaluates `(float)sin((double)x)` through libm; here [`sin`],
//! [`cos`], [`sin_cos`], [`sin_cos_deg`] and [`atan2`] are inline polynomial evaluations in
//! `f64` with exact range reduction, rounded once to `f32`. Their results are within 1 ulp of
//! the correctly rounded `f32` value for every finite input of magnitude below 10⁶ (tested
//! against libm over dense sweeps below); larger, infinite or NaN inputs go through libm.

/// π as `f32`.
pub const PI: f32 = std::f32::consts::PI;
/// Degrees to radians (`PI / 180` in `f32`).
pub const DEG_RAD: f32 = PI / 180.0;
/// Radians to degrees (`180 / PI` in `f32`).
pub const RAD_DEG: f32 = 180.0 / PI;

/// Below this magnitude (radians) an angle is in quadrant 0 of the reduction modulo π/2:
/// `x · 2/π` rounds to 0 (0.785 · 2/π < 0.4998; π/4 ≈ 0.7854).
const FIRST_QUADRANT: f64 = 0.785;
/// Inputs at or above this magnitude take the libm path.
const FAST_LIMIT: f64 = 1.0e6;
/// Adding then subtracting this rounds an `f64` of magnitude below 2⁵¹ to an integer
/// (round half to even) without a libm call (`round` is not an SSE2 instruction).
const ROUND_MAGIC: f64 = 6_755_399_441_055_744.0;
/// π/2 split in two: `PIO2_HI` has 33 significant bits so `q * PIO2_HI` is exact for the
/// quadrant numbers the fast path sees (|q| < 2²⁰).
const PIO2_HI: f64 = 1.570_796_326_734_125_614_166_259_765_625;
/// π/2 − `PIO2_HI`.
const PIO2_LO: f64 = 6.077_100_506_506_192e-11;
/// 2/π.
const TWO_OVER_PI: f64 = std::f64::consts::FRAC_2_PI;
/// π/180 in `f64`.
const DEG_TO_RAD_F64: f64 = std::f64::consts::PI / 180.0;

/// `cos r = 1 + z·(C0 + C1·z + C2·z² + C3·z³)`, `z = r²`, for |r| ≤ π/4 (+ a little): a
/// near-minimax fit (Chebyshev interpolation of `(cos √z − 1) / z` over `z ≤ 0.7855²`;
/// `tools/math/fit_kernels.py`), relative error below 3e-10 in `f64`. The Taylor series to
/// r¹⁰ it replaced (2e-10) had one more term, whose Estrin level lengthened every chain
/// through a cosine.
const COS_C: [f64; 4] = [
    -0.499_999_999_690_873_4,
    0.041_666_650_632_086_424,
    -0.001_388_758_848_419_884_8,
    2.446_370_125_009_499_6e-5,
];

/// `atan t = t + t·z·(A0 + A1·z + A2·z² + A3·z³)`, `z = t²`, for 0 ≤ t ≤ tan(π/12) (+ a
/// little): a near-minimax fit as [`COS_C`]'s, relative error below 1.2e-9 in `f64` (the
/// Taylor series to t¹³ had 6e-10 with two more terms and one more Estrin level).
const ATAN_C: [f64; 4] = [
    -0.333_333_316_571_412_96,
    0.199_992_515_083_326_88,
    -0.142_330_558_878_399_15,
    0.099_072_521_968_486_76,
];

/// `sin(r)` and `cos(r)` for |r| ≤ π/4 (+ a little) in `f64`: the Taylor series to r⁹
/// (truncation < 2e-9 relative) and [`COS_C`]'s polynomial (< 3e-10), a few hundredths of
/// an `f32` ulp.
#[inline(always)]
fn sin_cos_kernel(r: f64) -> (f64, f64) {
    // Estrin's scheme (pairs of terms, then powers of z²), not Horner's: the same
    // polynomials with a shorter chain of dependent operations.
    let z = r * r;
    let z2 = z * z;
    let s = r + r
        * z
        * ((-1.0 / 6.0 + z * (1.0 / 120.0)) + z2 * (-1.0 / 5040.0 + z * (1.0 / 362_880.0)));
    let [c0, c1, c2, c3] = COS_C;
    let c = 1.0 + z * ((c0 + z * c1) + z2 * (c2 + z * c3));
    (s, c)
}

/// Maps the kernel's `(sin r, cos r)` to quadrant `q` (the angle is `r + q·π/2`), without
/// branches: odd quadrants swap sine and cosine, then the sign bits flip by quadrant. `qbits`
/// are the bits of `q + ROUND_MAGIC` (`1.5·2⁵²`): their low bits are `2⁵¹ + q`, so bits 0
/// and 1 are those of `q` in two's complement (`2⁵¹` is a multiple of 4), with no
/// float-to-integer conversion.
#[inline(always)]
fn quadrant(qbits: u64, s: f64, c: f64) -> (f32, f32) {
    let (sb, cb) = (s.to_bits(), c.to_bits());
    // All ones for an odd quadrant: then `a, b = c, s`.
    let swap = (sb ^ cb) & (qbits & 1).wrapping_neg();
    let (a, b) = (sb ^ swap, cb ^ swap);
    let sin = f64::from_bits(a ^ ((qbits & 2) << 62));
    let cos = f64::from_bits(b ^ ((qbits.wrapping_add(1) & 2) << 62));
    (sin as f32, cos as f32)
}

/// `(sin x, cos x)` of `x` in radians.
#[inline(always)]
pub fn sin_cos(x: f32) -> (f32, f32) {
    let xd = x as f64;
    if xd.abs() < FIRST_QUADRANT {
        // Quadrant 0: the reduction below leaves `xd` as it is and the mapping changes
        // nothing, so the kernel starts at once (the same bits, without the reduction's
        // chain of dependent operations ahead of it).
        let (s, c) = sin_cos_kernel(xd);
        return (s as f32, c as f32);
    }
    sin_cos_reduced(xd)
}

/// [`sin_cos`] through the reduction modulo π/2 (every input).
#[inline(always)]
fn sin_cos_reduced(xd: f64) -> (f32, f32) {
    let fast = xd.abs() < FAST_LIMIT;
    if !fast {
        let (s, c) = xd.sin_cos();
        return (s as f32, c as f32);
    }
    let t = xd * TWO_OVER_PI + ROUND_MAGIC;
    let q = t - ROUND_MAGIC;
    let r = (xd - q * PIO2_HI) - q * PIO2_LO;
    let (s, c) = sin_cos_kernel(r);
    quadrant(t.to_bits(), s, c)
}

/// `(sin d°, cos d°)` of an angle in degrees. The reduction modulo 90° is exact, so this is
/// more accurate than `sin_cos(d * DEG_RAD)` (which rounds the product to `f32` first).
#[inline]
pub fn sin_cos_deg(d: f32) -> (f32, f32) {
    let dd = d as f64;
    if dd.abs() < 45.0 {
        // Quadrant 0 (see `sin_cos`): `dd - 0 * 90` is `dd`.
        let (s, c) = sin_cos_kernel(dd * DEG_TO_RAD_F64);
        return (s as f32, c as f32);
    }
    sin_cos_deg_reduced(dd)
}

/// [`sin_cos_deg`] through the reduction modulo 90° (every input).
#[inline(always)]
fn sin_cos_deg_reduced(dd: f64) -> (f32, f32) {
    let fast = dd.abs() < FAST_LIMIT;
    if !fast {
        let (s, c) = (dd * DEG_TO_RAD_F64).sin_cos();
        return (s as f32, c as f32);
    }
    let t = dd * (1.0 / 90.0) + ROUND_MAGIC;
    let q = t - ROUND_MAGIC;
    // Exact: `dd` has 24 significant bits and `q * 90` is an integer below 2²⁷.
    let r = (dd - q * 90.0) * DEG_TO_RAD_F64;
    let (s, c) = sin_cos_kernel(r);
    quadrant(t.to_bits(), s, c)
}

/// [`sin_cos_deg`] of two angles at once: the exact reduction modulo 90° and the kernel run
/// in the two lanes of a `wide::f64x2` (per lane the same `f64` operations in the same order,
/// so the same bits), then the quadrant mapping per lane. When either angle is outside the
/// fast range (or NaN) both go through the scalar [`sin_cos_deg`].
#[inline(always)]
pub fn sin_cos_deg_pair(d0: f32, d1: f32) -> ((f32, f32), (f32, f32)) {
    use wide::f64x2;
    let (a0, a1) = (d0 as f64, d1 as f64);
    if !(a0.abs() < FAST_LIMIT && a1.abs() < FAST_LIMIT) {
        return (sin_cos_deg(d0), sin_cos_deg(d1));
    }
    let c = |v: f64| f64x2::splat(v);
    let dd = f64x2::new([a0, a1]);
    let t = dd * c(1.0 / 90.0) + c(ROUND_MAGIC);
    let q = t - c(ROUND_MAGIC);
    let r = (dd - q * c(90.0)) * c(DEG_TO_RAD_F64);
    kernel_pair(t, r)
}

/// `sin_cos_kernel` in both lanes of the reduced angles `r` (quadrant counts in `t`, still
/// offset by `ROUND_MAGIC`), then the quadrant mapping per lane: the shared end of
/// [`sin_cos_pair`] and the degree pair.
#[inline(always)]
fn kernel_pair(t: wide::f64x2, r: wide::f64x2) -> ((f32, f32), (f32, f32)) {
    use wide::f64x2;
    let c = |v: f64| f64x2::splat(v);
    // `sin_cos_kernel`'s Estrin scheme, lane-wise.
    let z = r * r;
    let z2 = z * z;
    let s = r + r
        * z
        * ((c(-1.0 / 6.0) + z * c(1.0 / 120.0)) + z2 * (c(-1.0 / 5040.0) + z * c(1.0 / 362_880.0)));
    let [c0, c1, c2, c3] = COS_C;
    let co = c(1.0) + z * ((c(c0) + z * c(c1)) + z2 * (c(c2) + z * c(c3)));
    let ([t0, t1], [s0, s1], [c0, c1]) = (t.to_array(), s.to_array(), co.to_array());
    (quadrant(t0.to_bits(), s0, c0), quadrant(t1.to_bits(), s1, c1))
}

/// [`sin_cos`] of two angles at once: the reduction and the kernel run in the two lanes of a
/// `wide::f64x2` (per lane the same `f64` operations in the same order, so the same bits),
/// then the quadrant mapping per lane. When either angle is outside the fast range (or NaN)
/// both go through the scalar [`sin_cos`].
#[inline(always)]
pub fn sin_cos_pair(x0: f32, x1: f32) -> ((f32, f32), (f32, f32)) {
    use wide::f64x2;
    let (a0, a1) = (x0 as f64, x1 as f64);
    if !(a0.abs() < FAST_LIMIT && a1.abs() < FAST_LIMIT) {
        return (sin_cos(x0), sin_cos(x1));
    }
    let c = |v: f64| f64x2::splat(v);
    let xd = f64x2::new([a0, a1]);
    let t = xd * c(TWO_OVER_PI) + c(ROUND_MAGIC);
    let q = t - c(ROUND_MAGIC);
    let r = (xd - q * c(PIO2_HI)) - q * c(PIO2_LO);
    kernel_pair(t, r)
}

/// `sin x` (radians).
#[inline]
pub fn sin(x: f32) -> f32 {
    sin_cos(x).0
}

/// `cos x` (radians).
#[inline]
pub fn cos(x: f32) -> f32 {
    sin_cos(x).1
}

/// tan(π/12).
const TAN_PI_12: f64 = 0.267_949_192_431_122_7;
/// √3.
const SQRT3: f64 = 1.732_050_807_568_877_2;

/// `atan2(y, x)` in radians (`(-π, π]`, libm's conventions for zeros, infinities and NaN).
#[inline]
pub fn atan2(y: f32, x: f32) -> f32 {
    let (yd, xd) = (y as f64, x as f64);
    let (ax, ay) = (xd.abs(), yd.abs());
    let swap = ay > ax;
    let (n, m) = if swap { (ax, ay) } else { (ay, ax) };
    // atan(n/m) for n ≤ m; above tan(π/12) through atan t = π/6 + atan((t√3 − 1) / (t + √3)),
    // whose argument is in (0, tan π/12]: one division either way.
    let far = n > m * TAN_PI_12;
    let (num, den, base) =
        if far { (n * SQRT3 - m, n + m * SQRT3, std::f64::consts::FRAC_PI_6) } else { (n, m, 0.0) };
    let t = num / den;
    // The angle is `k ± atan t`: `base + atan t`, turned into `π/2 − that` when swapped and
    // into `π − that` for a negative x. `k ± t` is summed while the polynomial runs, so one
    // addition follows it instead of three.
    let (mut k, mut flip) = (base, false);
    if swap {
        (k, flip) = (std::f64::consts::FRAC_PI_2 - k, true);
    }
    if xd.is_sign_negative() {
        (k, flip) = (std::f64::consts::PI - k, !flip);
    }
    let st = if flip { -t } else { t };
    let z = t * t;
    let z2 = z * z;
    // [`ATAN_C`]'s polynomial by Estrin's scheme (see `sin_cos_kernel`).
    let [a0, a1, a2, a3] = ATAN_C;
    let a = (k + st) + st * z * ((a0 + z * a1) + z2 * (a2 + z * a3));
    // Both zero (0/0), both infinite (∞/∞) or a NaN: libm's conventions.
    if a.is_nan() {
        return yd.atan2(xd) as f32;
    }
    // `a` is in [0, π]: the sign of `y` (also of a zero `y`) gives the half plane.
    a.copysign(yd) as f32
}

/// `(atan2(y0, x0), atan2(y1, x1))`: [`atan2`] for two independent arguments at once, in
/// the two lanes of an `f64x2` (the same `f64` operations per lane, the branches of the
/// scalar version as lane selects), so each result equals [`atan2`]'s bit for bit. A lane
/// whose result is NaN (zeros, infinities or NaN in its arguments) is recomputed by
/// [`atan2`] (libm's conventions).
#[inline(always)]
pub fn atan2_pair(y0: f32, x0: f32, y1: f32, x1: f32) -> (f32, f32) {
    use wide::{f64x2, CmpGt, CmpLt};
    let yd = f64x2::new([y0 as f64, y1 as f64]);
    let xd = f64x2::new([x0 as f64, x1 as f64]);
    let (ax, ay) = (xd.abs(), yd.abs());
    let swap = ay.cmp_gt(ax);
    let n = swap.blend(ax, ay);
    let m = swap.blend(ay, ax);
    let far = n.cmp_gt(m * f64x2::splat(TAN_PI_12));
    let sqrt3 = f64x2::splat(SQRT3);
    let num = far.blend(n * sqrt3 - m, n);
    let den = far.blend(n + m * sqrt3, m);
    let base = far.blend(f64x2::splat(std::f64::consts::FRAC_PI_6), f64x2::splat(0.0));
    let t = num / den;
    let c = |v: f64| f64x2::splat(v);
    // [`atan2`]'s `k ± atan t`, lane-wise.
    let k = swap.blend(c(std::f64::consts::FRAC_PI_2) - base, base);
    // `x` has its sign bit set (also `-0.0`): `1.0` with that sign is negative.
    let x_neg = c(1.0).copysign(xd).cmp_lt(c(0.0));
    let k = x_neg.blend(c(std::f64::consts::PI) - k, k);
    // `-t` where exactly one of the two turns applies (a sign bit flipped).
    let st = t ^ ((swap ^ x_neg) & c(-0.0));
    let z = t * t;
    let z2 = z * z;
    // [`atan2`]'s Estrin scheme, lane-wise.
    let [a0, a1, a2, a3] = ATAN_C;
    let a = (k + st) + st * z * ((c(a0) + z * c(a1)) + z2 * (c(a2) + z * c(a3)));
    let [r0, r1] = a.copysign(yd).to_array();
    let (mut r0, mut r1) = (r0 as f32, r1 as f32);
    if r0.is_nan() {
        r0 = atan2(y0, x0);
    }
    if r1.is_nan() {
        r1 = atan2(y1, x1);
    }
    (r0, r1)
}

/// `atan2(y, x) * RAD_DEG`.
#[inline]
pub fn atan2_deg(y: f32, x: f32) -> f32 {
    atan2(y, x) * RAD_DEG
}

/// `(float)sqrt((double)x)`, computed as the `f32` square root (the same value: both are
/// correctly rounded, and `f64` has more than twice `f32`'s precision).
#[inline]
pub fn sqrt(x: f32) -> f32 {
    x.sqrt()
}

/// The unit vector along `(x, y)`: each coordinate divided by the length (`None` at a zero
/// or non-finite length, where a direction is undefined).
#[inline(always)]
pub fn unit(x: f32, y: f32) -> Option<(f32, f32)> {
    let rr = x * x + y * y;
    if !(rr > 0.0 && rr.is_finite()) {
        return None;
    }
    let r = sqrt(rr);
    Some((x / r, y / r))
}

/// `(sin, cos)` of the turn that brings the direction `(a, c)` onto `(x, y)`: their cross
/// and dot products over the product of the lengths, which is `sin_cos(atan2(y, x) -
/// atan2(c, a))` within rounding without the three transcendental functions. `None` where a
/// direction is undefined (a zero or non-finite length).
#[inline(always)]
pub fn turn_between(x: f32, y: f32, a: f32, c: f32) -> Option<(f32, f32)> {
    let q = (x * x + y * y) * (a * a + c * c);
    if !(q > 0.0 && q.is_finite()) {
        return None;
    }
    let inv = 1.0 / sqrt(q);
    Some(((y * a - x * c) * inv, (x * a + y * c) * inv))
}

/// `(float)fmod((double)a, (double)b)`.
///
/// `fmod` is exact (the remainder is representable), so below 2^24 quotients it is computed
/// without the library call: with `n` the truncated quotient, `|a| - n * |b|` is exact in
/// `f64` (every term is a multiple of `|b|`'s ulp below 2^48 of them), one correction step
/// undoes a quotient rounded across an integer, and the sign is `a`'s. `|a| < |b|` returns
/// `a`; zero divisors, NaN, infinities and larger quotients take the library path.
#[inline]
pub fn fmod(a: f32, b: f32) -> f32 {
    let (ax, ay) = (a.abs(), b.abs());
    if ax < ay {
        return a;
    }
    let (xd, yd) = (f64::from(ax), f64::from(ay));
    let q = xd / yd;
    if q < 16_777_216.0 {
        let mut r = xd - (q as i64 as f64) * yd;
        if r < 0.0 {
            r += yd;
        } else if r >= yd {
            r -= yd;
        }
        return (r as f32).copysign(a);
    }
    fmod_libm(a, b)
}

/// The library `fmod` of [`fmod`].
#[cold]
fn fmod_libm(a: f32, b: f32) -> f32 {
    ((a as f64) % (b as f64)) as f32
}

/// `-1`, `0` or `1` (spine-cpp `MathUtil::sign`).
#[inline]
pub fn sign(v: f32) -> f32 {
    if v < 0.0 {
        -1.0
    } else if v > 0.0 {
        1.0
    } else {
        0.0
    }
}

/// spine-cpp `MathUtil::abs` (`v < 0 ? -v : v`).
#[inline]
pub fn abs(v: f32) -> f32 {
    if v < 0.0 {
        -v
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Distance in ulps between two finite `f32`s (same sign or around zero).
    fn ulps(a: f32, b: f32) -> u32 {
        let key = |v: f32| {
            let i = v.to_bits() as i32;
            if i < 0 {
                i32::MIN.wrapping_sub(i)
            } else {
                i
            }
        };
        key(a).wrapping_sub(key(b)).unsigned_abs()
    }

    /// Absolute error allowed near zero (where ulps are meaningless for a function whose
    /// argument was rounded): a few ulps of 1.
    const ABS_NEAR_ZERO: f64 = 2.0e-7;

    fn check(name: &str, ours: f32, exact: f64, max_ulps: u32) {
        let rounded = exact as f32;
        let ok = ulps(ours, rounded) <= max_ulps || (ours as f64 - exact).abs() <= ABS_NEAR_ZERO;
        assert!(ok, "{name}: ours {ours:e}, exact {exact:e} ({} ulps)", ulps(ours, rounded));
    }

    /// [`fmod`] against the library remainder, bit for bit: durations and times of
    /// animations, quotients near integers and near 2^24, signed zeros, subnormals, NaN
    /// and infinities.
    #[test]
    fn fmod_matches_libm_bit_for_bit() {
        let mut xs: Vec<f32> = vec![
            0.0,
            -0.0,
            f32::MIN_POSITIVE,
            1.0e-45,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            16_777_216.0,
            16_777_215.0,
            360.0,
            1.0,
        ];
        let mut ys = xs.clone();
        ys.extend([0.3333333f32, 0.6666667, 1.0 / 60.0, 2.5, 3.0e-7, 7.0e8]);
        let mut v = 1.0e-6f32;
        while v < 1.0e9 {
            xs.push(v);
            xs.push(-v);
            ys.push(v * 0.7310585);
            v *= 1.37;
        }
        // Multiples (and their neighbours) of the divisors: quotients at integers.
        for &y in &ys.clone() {
            for k in [1.0f32, 2.0, 3.0, 7.0, 10.0, 100.0, 12345.0, 16_777_215.0, 16_777_216.0] {
                let m = y * k;
                xs.extend([m, f32::from_bits(m.to_bits().wrapping_add(1)), -m]);
                xs.push(f32::from_bits(m.to_bits().wrapping_sub(1)));
            }
        }
        let mut t = 0.0f32;
        for _ in 0..3000 {
            t += 1.0 / 60.0;
            xs.push(t);
        }
        for &x in &xs {
            for &y in &ys {
                let want = ((x as f64) % (y as f64)) as f32;
                let got = fmod(x, y);
                assert!(
                    got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                    "fmod({x:e}, {y:e}) = {got:e}, library {want:e}"
                );
            }
        }
    }

    #[test]
    fn sin_cos_radians_match_libm() {
        let mut worst = 0u32;
        let mut x = -800.0f32;
        while x < 800.0 {
            let (s, c) = sin_cos(x);
            check("sin", s, (x as f64).sin(), 1);
            check("cos", c, (x as f64).cos(), 1);
            worst =
                worst.max(ulps(s, (x as f64).sin() as f32).min(ulps(c, (x as f64).cos() as f32)));
            x += 0.000_731;
        }
        assert!(worst <= 1, "worst {worst}");
        for x in [0.0f32, -0.0, 1e-30, -1e-30, 1e-8, 1.0, 1e5, -99_999.9, 999_999.0, 3e7] {
            let (s, c) = sin_cos(x);
            check("sin", s, (x as f64).sin(), 1);
            check("cos", c, (x as f64).cos(), 1);
        }
        assert!(sin_cos(f32::NAN).0.is_nan() && sin_cos(f32::INFINITY).1.is_nan());
    }

    #[test]
    fn sin_cos_degrees_match_libm() {
        let mut d = -3000.0f32;
        while d < 3000.0 {
            let (s, c) = sin_cos_deg(d);
            let r = (d as f64).to_radians();
            check("sind", s, r.sin(), 1);
            check("cosd", c, r.cos(), 1);
            d += 0.001_37;
        }
        // Exact multiples of 90°.
        for k in -40i32..40 {
            let (s, c) = sin_cos_deg(k as f32 * 90.0);
            let want = [(0.0, 1.0), (1.0, 0.0), (0.0, -1.0), (-1.0, 0.0)][k.rem_euclid(4) as usize];
            assert_eq!((s, c), want, "{k} × 90°");
        }
        assert!(sin_cos_deg(f32::NAN).0.is_nan());
        let (s, c) = sin_cos_deg(2.0e7);
        check("sind big", s, (2.0e7f64).to_radians().sin(), 1);
        check("cosd big", c, (2.0e7f64).to_radians().cos(), 1);
    }

    /// The quadrant-0 shortcuts of `sin_cos` and `sin_cos_deg` give the bits of the
    /// reduction path, on a dense sweep up to their limits (both signs, zeros, tiny and
    /// subnormal inputs), and the limits lie in quadrant 0.
    #[test]
    fn quadrant_zero_shortcuts_equal_the_reduction() {
        let mut inputs = vec![0.0f32, -0.0, 1e-40, -1e-40, 1e-30, f32::MIN_POSITIVE];
        let (mut x, mut n) = (0.0f32, 0);
        while x < 45.0 {
            inputs.extend([x, -x]);
            x = (x + 1e-4) * 1.0001;
            n += 1;
        }
        assert!(n > 10_000, "{n} inputs");
        let below = |limit: f64| f32::from_bits((limit as f32).to_bits() - 1);
        let edges = [below(FIRST_QUADRANT), below(45.0), FIRST_QUADRANT as f32, 45.0];
        inputs.extend(edges.iter().flat_map(|&e| [e, -e]));
        let (mut radians, mut degrees) = (0, 0);
        for &v in &inputs {
            let d = v as f64;
            if d.abs() < FIRST_QUADRANT {
                let (a, b) = (sin_cos(v), sin_cos_reduced(d));
                assert_eq!((a.0.to_bits(), a.1.to_bits()), (b.0.to_bits(), b.1.to_bits()), "{v}");
                radians += 1;
            }
            if d.abs() < 45.0 {
                let (a, b) = (sin_cos_deg(v), sin_cos_deg_reduced(d));
                assert_eq!((a.0.to_bits(), a.1.to_bits()), (b.0.to_bits(), b.1.to_bits()), "{v}°");
                degrees += 1;
            }
        }
        assert!(radians > 1_000 && degrees > 10_000, "{radians} / {degrees}");
        // The largest shortcut inputs reduce to quadrant 0 (`x · 2/π`, `d / 90` below ½).
        assert!((below(FIRST_QUADRANT) as f64 * TWO_OVER_PI).abs() < 0.5);
        assert!((below(45.0) as f64 * (1.0 / 90.0)).abs() < 0.5);
    }

    #[test]
    fn sqrt_equals_the_f64_route() {
        // Every 61st bit pattern of the non-negative floats (plus the special ones).
        let mut bits = 0u32;
        while bits < 0x7f80_0000 {
            let x = f32::from_bits(bits);
            assert_eq!(sqrt(x).to_bits(), ((x as f64).sqrt() as f32).to_bits(), "sqrt({x:e})");
            bits += 61;
        }
        assert_eq!(sqrt(f32::INFINITY), f32::INFINITY);
        assert!(sqrt(-1.0).is_nan() && sqrt(f32::NAN).is_nan());
        assert_eq!(sqrt(-0.0).to_bits(), (-0.0f32).to_bits());
    }

    #[test]
    fn atan2_matches_libm() {
        let mut worst = 0u32;
        let n = 2000;
        for i in 0..n {
            let a = (i as f64 / n as f64) * std::f64::consts::TAU;
            for scale in [1e-20f64, 1e-3, 0.7, 1.0, 13.0, 1e6, 1e30] {
                let (y, x) = ((a.sin() * scale) as f32, (a.cos() * scale) as f32);
                let ours = atan2(y, x);
                let exact = (y as f64).atan2(x as f64);
                check("atan2", ours, exact, 1);
                worst = worst.max(ulps(ours, exact as f32));
            }
        }
        assert!(worst <= 1, "worst {worst}");
        for (y, x) in [
            (0.0f32, 0.0f32),
            (-0.0, 0.0),
            (0.0, -0.0),
            (-0.0, -0.0),
            (0.0, -1.0),
            (-0.0, -1.0),
            (1.0, 0.0),
            (-1.0, -0.0),
            (f32::INFINITY, 1.0),
            (1.0, f32::NEG_INFINITY),
            (1.0, 1.0),
            (-1.0, -1.0),
            (3.0, 5.0),
            (1e-40, 1.0),
        ] {
            let ours = atan2(y, x);
            let libm = (y as f64).atan2(x as f64) as f32;
            assert!(ulps(ours, libm) <= 1, "atan2({y}, {x}) = {ours}, libm {libm}");
            assert_eq!(ours.is_sign_negative(), libm.is_sign_negative(), "sign of atan2({y}, {x})");
        }
        assert!(atan2(f32::NAN, 1.0).is_nan() && atan2(1.0, f32::NAN).is_nan());
    }

    #[test]
    fn sin_cos_deg_pair_equals_sin_cos_deg_bit_for_bit() {
        let mut args: Vec<f32> = (-40_000..40_000).map(|i| i as f32 * 0.0173).collect();
        args.extend((-2000..2000).map(|i| i as f32 * 45.0));
        args.extend((0..2000).map(|i| (i as f32 * 0.37).sin() * 1e-3));
        args.extend([0.0, -0.0, 90.0, -90.0, 180.0, 270.0, 360.0, 1e-40, 999_999.9, 1.0e6]);
        args.extend([-1.0e6, 3e7, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, f32::MAX, f32::MIN]);
        let same = |a: f32, b: f32| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
        for w in args.windows(2) {
            let (d0, d1) = (w[0], w[1]);
            let ((s0, c0), (s1, c1)) = sin_cos_deg_pair(d0, d1);
            let ((e0, f0), (e1, f1)) = (sin_cos_deg(d0), sin_cos_deg(d1));
            assert!(same(s0, e0) && same(c0, f0), "sin_cos_deg({d0}): {s0} {c0} vs {e0} {f0}");
            assert!(same(s1, e1) && same(c1, f1), "sin_cos_deg({d1}): {s1} {c1} vs {e1} {f1}");
        }
    }

    #[test]
    fn sin_cos_pair_equals_sin_cos_bit_for_bit() {
        let mut args: Vec<f32> = (-40_000..40_000).map(|i| i as f32 * 0.000_317).collect();
        args.extend((-3000..3000).map(|i| i as f32 * std::f32::consts::FRAC_PI_4));
        args.extend((-2000..2000).map(|i| i as f32 * 517.3));
        args.extend((0..2000).map(|i| (i as f32 * 0.37).sin() * 1e-3));
        args.extend([0.0, -0.0, PI, -PI, 2.0 * PI, 1e-40, -1e-40, 999_999.9, 1.0e6, -1.0e6]);
        args.extend([3e7, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, f32::MAX, f32::MIN]);
        let same = |a: f32, b: f32| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
        for w in args.windows(2) {
            let (x0, x1) = (w[0], w[1]);
            let ((s0, c0), (s1, c1)) = sin_cos_pair(x0, x1);
            let ((e0, f0), (e1, f1)) = (sin_cos(x0), sin_cos(x1));
            assert!(same(s0, e0) && same(c0, f0), "sin_cos({x0}): {s0} {c0} vs {e0} {f0}");
            assert!(same(s1, e1) && same(c1, f1), "sin_cos({x1}): {s1} {c1} vs {e1} {f1}");
        }
    }

    #[test]
    fn atan2_pair_equals_atan2_bit_for_bit() {
        let mut args = Vec::new();
        let n = 1500;
        for i in 0..n {
            let a = (i as f64 / n as f64) * std::f64::consts::TAU;
            for scale in [1e-20f64, 1e-3, 0.7, 1.0, 13.0, 1e6, 1e30] {
                args.push(((a.sin() * scale) as f32, (a.cos() * scale) as f32));
            }
        }
        let special = [0.0f32, -0.0, 1.0, -1.0, 1e-40, f32::INFINITY, f32::NEG_INFINITY, f32::NAN];
        for &y in &special {
            for &x in &special {
                args.push((y, x));
            }
        }
        for w in args.windows(2) {
            let ((y0, x0), (y1, x1)) = (w[0], w[1]);
            let (r0, r1) = atan2_pair(y0, x0, y1, x1);
            let (s0, s1) = (atan2(y0, x0), atan2(y1, x1));
            assert!(
                r0.to_bits() == s0.to_bits() || (r0.is_nan() && s0.is_nan()),
                "atan2({y0}, {x0}): {r0} vs {s0}"
            );
            assert!(
                r1.to_bits() == s1.to_bits() || (r1.is_nan() && s1.is_nan()),
                "atan2({y1}, {x1}): {r1} vs {s1}"
            );
        }
    }
}
