use super::{ceil, fmod_360};
use crate::math;

/// Edge values and a spread of magnitudes, both signs.
fn samples() -> Vec<f64> {
    let mut v = vec![
        0.0,
        0.5,
        1.0,
        1.5,
        0.49999999999999994,
        1e-300,
        359.99997,
        360.0,
        720.5,
        4_503_599_627_370_495.5,
        4_503_599_627_370_496.0,
        4_503_599_627_370_497.0,
        9.3e18,
        1e300,
        f64::INFINITY,
        f64::NAN,
        f64::MIN_POSITIVE,
    ];
    let mut x = 1.0e-6f64;
    while x < 1e20 {
        v.extend([x, x + 0.25, x * 1.618_033_988_749_895]);
        x *= 1.7;
    }
    let neg: Vec<f64> = v.iter().map(|x| -x).collect();
    v.extend(neg);
    v
}

#[test]
fn ceil_matches_std_bit_for_bit() {
    for x in samples() {
        assert_eq!(ceil(x).to_bits(), x.ceil().to_bits(), "ceil({x:e})");
    }
}

#[test]
fn fmod_360_matches_fmod_bit_for_bit() {
    for x in samples() {
        let x = x as f32;
        assert_eq!(fmod_360(x).to_bits(), math::fmod(x, 360.0).to_bits(), "fmod({x:e})");
    }
}
