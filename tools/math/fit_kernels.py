#!/usr/bin/env python3
"""The polynomial coefficients of spine-anim's `math.rs` kernels (`COS_C`, `ATAN_C`).

usage: pip install mpmath && python3 tools/math/fit_kernels.py

Near-minimax fits by Chebyshev interpolation (`mpmath.chebyfit`, 50 digits) of
  (cos √z − 1) / z        over 0 ≤ z ≤ 0.7855²        (cos r = 1 + z·P(z), z = r²)
  (atan √z / √z − 1) / z  over 0 ≤ z ≤ tan(π/12)²     (atan t = t + t·z·P(z), z = t²)
each a cubic P, then the largest relative error of the kernels as `math.rs` evaluates them
(`f64`, Estrin's scheme) over a dense sweep, beside the Taylor polynomials they replaced.
"""
import mpmath as mp

mp.mp.dps = 50


def fit(f, hi):
    poly, _ = mp.chebyfit(f, [mp.mpf(0), hi], 4, error=True)
    return [float(c) for c in poly[::-1]]


def g(z):
    return (mp.cos(mp.sqrt(z)) - 1) / z if z != 0 else mp.mpf(-0.5)


def h(z):
    return (mp.atan(mp.sqrt(z)) / mp.sqrt(z) - 1) / z if z != 0 else mp.mpf(-1) / 3


COS_C = fit(g, (mp.mpf("0.7854") + mp.mpf("1e-4")) ** 2)
ATAN_C = fit(h, (mp.tan(mp.pi / 12) + mp.mpf("1e-6")) ** 2)


def estrin(z, c):
    return (c[0] + z * c[1]) + (z * z) * (c[2] + z * c[3])


def cos_fit(r):
    z = r * r
    return 1.0 + z * estrin(z, COS_C)


def atan_fit(t):
    z = t * t
    return t + t * z * estrin(z, ATAN_C)


def cos_taylor(r):
    z = r * r
    z2 = z * z
    return 1.0 + z * ((-0.5 + z * (1.0 / 24.0))
                      + z2 * ((-1.0 / 720.0 + z * (1.0 / 40320.0)) + z2 * (-1.0 / 3628800.0)))


def atan_taylor(t):
    z = t * t
    z2 = z * z
    return t + t * z * ((-1.0 / 3.0 + z * (1.0 / 5.0))
                        + z2 * ((-1.0 / 7.0 + z * (1.0 / 9.0)) + z2 * (-1.0 / 11.0 + z * (1.0 / 13.0))))


def worst(fn, ref, hi, n=20000):
    w = 0
    for i in range(1, n + 1):
        x = hi * i / n
        e = ref(mp.mpf(x))
        w = max(w, abs((fn(x) - e) / e))
    return w


print("COS_C  =", [repr(c) for c in COS_C])
print("ATAN_C =", [repr(c) for c in ATAN_C])
for name, fn, ref, hi in [("cos fit", cos_fit, mp.cos, 0.7855),
                          ("cos Taylor r^10", cos_taylor, mp.cos, 0.7855),
                          ("atan fit", atan_fit, mp.atan, 0.26795),
                          ("atan Taylor t^13", atan_taylor, mp.atan, 0.26795)]:
    print(f"{name:18} largest relative error {mp.nstr(worst(fn, ref, hi), 3)}")
