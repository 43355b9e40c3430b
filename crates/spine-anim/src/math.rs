//! Float maths exactly as spine-cpp 4.2 `MathUtil` does it: `f32` arithmetic, trig through
//! `f64` libm (`(float)::sin((double)x)`).

/// π as `f32`.
pub const PI: f32 = std::f32::consts::PI;
/// Degrees to radians (`PI / 180` in `f32`).
pub const DEG_RAD: f32 = PI / 180.0;
/// Radians to degrees (`180 / PI` in `f32`).
pub const RAD_DEG: f32 = 180.0 / PI;

/// `(float)sin((double)x)`.
#[inline]
pub fn sin(x: f32) -> f32 {
    (x as f64).sin() as f32
}

/// `(float)cos((double)x)`.
#[inline]
pub fn cos(x: f32) -> f32 {
    (x as f64).cos() as f32
}

/// `(float)atan2((double)y, (double)x)`.
#[inline]
pub fn atan2(y: f32, x: f32) -> f32 {
    (y as f64).atan2(x as f64) as f32
}

/// `atan2(y, x) * RAD_DEG`.
#[inline]
pub fn atan2_deg(y: f32, x: f32) -> f32 {
    atan2(y, x) * RAD_DEG
}

/// `(float)sqrt((double)x)`.
#[inline]
pub fn sqrt(x: f32) -> f32 {
    (x as f64).sqrt() as f32
}

/// `(float)fmod((double)a, (double)b)`.
#[inline]
pub fn fmod(a: f32, b: f32) -> f32 {
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
