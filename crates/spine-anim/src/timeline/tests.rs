use super::*;

/// spine-cpp's `getBezierValue` scan as written there: one sample at a time.
fn scan_reference(c: CurveTable<'_>, time: f32, k: usize, ch: usize, i: usize) -> f32 {
    let p = &c.curves[i..i + BEZIER_SIZE];
    if p[0] > time {
        let x = c.time(k);
        let y = c.value(k, ch);
        return y + (time - x) / (p[0] - x) * (p[1] - y);
    }
    let mut j = 2;
    while j < BEZIER_SIZE {
        if p[j] >= time {
            let x = p[j - 2];
            let y = p[j - 1];
            return y + (time - x) / (p[j] - x) * (p[j + 1] - y);
        }
        j += 2;
    }
    let x = p[BEZIER_SIZE - 2];
    let y = p[BEZIER_SIZE - 1];
    let (nt, nv) = (c.time(k + 1), c.value(k + 1, ch));
    y + (time - x) / (nt - x) * (nv - y)
}

/// `bezier_start` is the saturating conversion it replaced for every type a loader
/// writes (`BEZIER + i`, `i` whole), up to the largest `f32` below 2³¹; any other type
/// (negative, fractional, NaN, infinite, huge) still gives a start below 2³¹.
#[test]
fn bezier_start_matches_the_conversion() {
    let old = |ty: f32| ((ty - BEZIER) as i32).max(0) as usize;
    let mut i = 0u32;
    while i < 1 << 31 {
        let ty = BEZIER + i as f32;
        assert_eq!(bezier_start(ty), old(ty), "type {ty}");
        i = if i < 1 << 20 { i + 1 } else { i + (i >> 12) + 7 };
    }
    let largest = f32::from_bits((2.0f32.powi(31)).to_bits() - 1);
    assert_eq!(bezier_start(largest + BEZIER), old(largest + BEZIER));
    for ty in [-1.0, 0.5, 1.5, -0.0, f32::NAN, f32::INFINITY, -f32::INFINITY, 1e30, -1e30] {
        assert!(bezier_start(ty) < 1 << 31, "type {ty}");
    }
}

/// The masked search stops at the sample the scan stops at, bit for bit, for sorted,
/// unsorted, repeated and NaN samples and times before, on and after every sample.
#[test]
fn bezier_value_matches_the_sample_scan() {
    let mut rng = crate::test_rng::Rng(0x2545_f491_4f6c_dd1d);
    let mut next = move || rng.bits();
    let mut checked = 0;
    for case in 0..2000 {
        let mut xs: Vec<f32> = (0..9).map(|_| (next() % 1000) as f32 / 1000.0).collect();
        match case % 4 {
            0 => xs.sort_by(f32::total_cmp),
            1 => {}
            2 => {
                xs.sort_by(f32::total_cmp);
                xs[(next() % 9) as usize] = f32::NAN;
            }
            _ => {
                xs.sort_by(f32::total_cmp);
                let r = (next() % 8) as usize;
                xs[r + 1] = xs[r];
            }
        }
        let mut curves = vec![BEZIER, STEPPED];
        for x in &xs {
            curves.push(*x);
            curves.push((next() % 500) as f32 / 7.0);
        }
        let c = CurveTable {
            channels: 1,
            frames: &[-0.5, 3.0, 1.5, 9.0],
            curves: &curves,
            model: CurveModel::Bezier4x,
        };
        let mut times: Vec<f32> = xs.clone();
        times.extend([-1.0, 0.0, 0.25, 0.5, 0.999, 1.0, 2.0]);
        times.extend(xs.iter().map(|x| x + 1e-4));
        for time in times {
            let got = bezier_value(c, time, 0, 0, 2);
            let want = scan_reference(c, time, 0, 0, 2);
            assert_eq!(got.to_bits(), want.to_bits(), "case {case} time {time} samples {xs:?}");
            checked += 1;
        }
    }
    assert_eq!(checked, 2000 * 25);
}

/// A random table of 1 to 9 keys of `stride` floats whose times never decrease (a quarter
/// of them repeat the time before): the table, its key count and its last time.
fn sorted_keys(rng: &mut crate::test_rng::Rng, stride: usize) -> (Vec<f32>, usize, f32) {
    let n = 1 + (rng.bits() % 9) as usize;
    let mut t = 0.0f32;
    let mut frames = Vec::new();
    for _ in 0..n {
        if !rng.bits().is_multiple_of(4) {
            t += rng.range(0.0, 1.0);
        }
        frames.push(t);
        frames.extend((1..stride).map(|_| rng.range(-9.0, 9.0)));
    }
    (frames, n, t)
}

/// A cursor finds the key a scan from the first key finds, for sorted key times (with
/// repeats) and any cursor left by an earlier time, earlier or later than this one;
/// `times_sorted` refuses decreasing and NaN times.
#[test]
fn cursor_finds_the_scanned_key() {
    let mut rng = crate::test_rng::Rng(0x2545_f491_4f6c_dd1d);
    for case in 0..300 {
        let stride = 1 + (case % 3);
        let (frames, n, t) = sorted_keys(&mut rng, stride);
        assert!(times_sorted(&frames, stride), "{frames:?}");
        let mut cursor = 0u32;
        for _ in 0..40 {
            let time = if rng.bits().is_multiple_of(3) {
                frames[stride * (rng.bits() as usize % n)]
            } else {
                rng.range(frames[0], t + 0.5)
            };
            let want = scan_from(&frames, stride, time, 0);
            assert_eq!((&mut cursor).key(&frames, stride, time), want, "{frames:?} {time}");
            assert_eq!(cursor as usize, want);
        }
    }
    assert!(!times_sorted(&[0.0, 5.0, 2.0, 3.0, 1.0, 4.0], 2));
    assert!(!times_sorted(&[0.0, f32::NAN, 1.0], 1));
    assert!(!times_sorted(&[f32::NAN], 1));
    assert!(times_sorted(&[1.0, 1.0, 2.0], 1));
}

/// A cursor with its key's span finds the key and the segment kind a scan from the first
/// key and a read of the curve type find, for sorted key times (with repeats, so empty
/// spans), times that go forward, back, repeat or land on keys, and the last key's span.
#[test]
fn key_span_finds_the_scanned_key_and_segment() {
    let mut rng = crate::test_rng::Rng(0x9e37_79b9_7f4a_7c15);
    let mut hits = 0;
    for case in 0..300 {
        let stride = 1 + (case % 3);
        let (frames, n, t) = sorted_keys(&mut rng, stride);
        // Curve types per key but the last: linear, stepped or a bezier.
        let curves: Vec<f32> = (0..n.saturating_sub(1))
            .map(|k| [LINEAR, STEPPED, BEZIER + (k * BEZIER_SIZE) as f32][rng.bits() as usize % 3])
            .collect();
        let c = CurveTable {
            channels: stride - 1,
            frames: &frames,
            curves: &curves,
            model: CurveModel::Bezier4x,
        };
        let (mut cursor, mut span) = (0u16, KeySpan::default());
        let mut time = frames[0];
        for _ in 0..60 {
            time = match rng.bits() % 4 {
                0 => frames[stride * (rng.bits() as usize % n)],
                1 => time,
                2 => time + rng.range(0.0, 0.2),
                _ => rng.range(frames[0], t + 0.5),
            };
            let want = Scan.segment(c, stride, time);
            let was_in = span.holds(time);
            let got = (&mut cursor, &mut span).segment(c, stride, time);
            assert_eq!(got, want, "{frames:?} {curves:?} {time}");
            hits += usize::from(was_in);
        }
    }
    assert!(hits > 1000, "the span answered {hits} times");
}
