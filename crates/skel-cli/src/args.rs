//! Every value argument of `skel`, read and range-checked in one place.
//!
//! Each function here is a clap value parser: a bad value is a usage error (exit 2) whose
//! one-line message gives the allowed range. A value starting with `-` is read as the value,
//! not as a flag (`--time -5`, `--delay -0.25`, `--time -inf` refused as not finite). Checks
//! that involve two arguments (`--frames` against `--max-frames`, a played `--time` against
//! `--fps` and `--max-frames`) are the `check_*` functions, called before any work starts.
//!
//! | argument | allowed |
//! | --- | --- |
//! | `--fps` | 1 to 1000 frames per second |
//! | `--time` | any finite number of seconds (read as an `f32` exactly as written); played runs (`render`, `commands --play`) 0 or more, at most `--max-frames` steps |
//! | `--frames` (`play`) | 1 to `--max-frames` |
//! | `--every` | 1 or more |
//! | `--max-frames` | 1 or more (default [`DEFAULT_MAX_FRAMES`]) |
//! | `--mix` | 0 to 3600 seconds |
//! | `--delay` | -3600 to 3600 seconds |
//! | `--size` | `WxH`, each side 1 to 8192 |
//! | `--scale` | 0.0001 to 10000 pixels per world unit |
//! | `--background` | `RRGGBBAA` hex |
//! | `--budget-ms` | 1 to 3,600,000 |
//! | `--shard` | `I/N`, 1 <= I <= N <= 1,000,000 |

/// Most frames one run or output may have unless `--max-frames` raises it: `skel play`'s
/// frames, an animated output's frames, the steps of a played still frame.
pub const DEFAULT_MAX_FRAMES: u32 = 10_000;

/// `--fps`: 1 to 1000.
pub const FPS: (f32, f32) = (1.0, 1000.0);
/// `--mix`: 0 to 3600 s.
pub const MIX: (f32, f32) = (0.0, 3600.0);
/// `--delay`: -3600 to 3600 s.
pub const DELAY: (f32, f32) = (-3600.0, 3600.0);
/// `--scale`: 0.0001 to 10000.
pub const SCALE: (f32, f32) = (1e-4, 1e4);
/// Largest `--size` side.
pub const MAX_SIDE: u32 = 8192;

/// An `f32` as written; NaN and infinities are refused.
fn finite(text: &str) -> Result<f32, String> {
    let x: f32 = text.trim().parse().map_err(|_| "not a number".to_owned())?;
    if x.is_finite() {
        Ok(x)
    } else {
        Err(format!("{x} is not a finite number"))
    }
}

fn ranged(text: &str, (lo, hi): (f32, f32), unit: &str) -> Result<f32, String> {
    let x = finite(text).map_err(|e| format!("{e}: expected {lo} to {hi}{unit}"))?;
    if (lo..=hi).contains(&x) {
        Ok(x)
    } else {
        Err(format!("out of range: expected {lo} to {hi}{unit}"))
    }
}

/// `--fps`.
pub fn fps(text: &str) -> Result<f32, String> {
    ranged(text, FPS, " frames per second")
}

/// `--time`: seconds, any finite `f32`, read exactly as written.
pub fn time(text: &str) -> Result<f32, String> {
    finite(text).map_err(|e| format!("{e}: expected a finite number of seconds"))
}

/// `--mix`.
pub fn mix(text: &str) -> Result<f32, String> {
    ranged(text, MIX, " seconds")
}

/// `--delay`.
pub fn delay(text: &str) -> Result<f32, String> {
    ranged(text, DELAY, " seconds")
}

/// `--scale`.
pub fn scale(text: &str) -> Result<f32, String> {
    ranged(text, SCALE, " pixels per world unit")
}

/// A whole number from 1 up (`--frames`, `--every`, `--max-frames`).
pub fn count(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if (1..=u64::from(u32::MAX)).contains(&n) => Ok(n as u32),
        Ok(_) => Err(format!("out of range: expected a whole number from 1 to {}", u32::MAX)),
        Err(_) => Err(format!("expected a whole number from 1 to {}", u32::MAX)),
    }
}

/// `--budget-ms`.
pub fn budget_ms(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(n) if (1..=3_600_000).contains(&n) => Ok(n),
        _ => Err("expected a whole number of milliseconds from 1 to 3600000".to_owned()),
    }
}

/// `--size WxH`.
pub fn size(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("expected WxH, e.g. 800x600, each side 1 to {MAX_SIDE}");
    let (w, h) = text.trim().split_once(['x', 'X']).ok_or_else(bad)?;
    let w: u32 = w.trim().parse().map_err(|_| bad())?;
    let h: u32 = h.trim().parse().map_err(|_| bad())?;
    if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE {
        return Err(format!("{w}x{h} out of range: each side 1 to {MAX_SIDE}"));
    }
    Ok((w, h))
}

/// `--background RRGGBBAA`.
pub fn background(text: &str) -> Result<[u8; 4], String> {
    skel_render::parse_rgba_hex(text.trim())
        .ok_or_else(|| "expected RRGGBBAA hex, e.g. ffffffff".to_owned())
}

/// `--shard I/N`: 1 <= I <= N <= 1000000.
pub fn shard(text: &str) -> Result<(u32, u32), String> {
    let bad = || "expected I/N, e.g. 2/8: shard I of N, 1 <= I <= N".to_owned();
    let (i, n) = text.trim().split_once('/').ok_or_else(bad)?;
    let i: u32 = i.trim().parse().map_err(|_| bad())?;
    let n: u32 = n.trim().parse().map_err(|_| bad())?;
    if i == 0 || i > n || n > 1_000_000 {
        return Err(format!("{i}/{n} out of range: 1 <= I <= N <= 1000000"));
    }
    Ok((i, n))
}

/// A number for a message: as written when short, else in scientific notation to `f32`
/// precision (`3e31`).
pub fn short(x: f64) -> String {
    if x.is_finite() && x.abs() >= 1e9 {
        format!("{:e}", x as f32)
    } else {
        format!("{x}")
    }
}

/// A usage error: the message for exit code 2.
pub type Usage = String;

/// `skel play --frames N`: at most `--max-frames`.
pub fn check_frames(frames: u32, max_frames: u32) -> Result<(), Usage> {
    if frames > max_frames {
        return Err(format!(
            "--frames {frames} is over --max-frames {max_frames} (raise --max-frames to run \
             more frames)"
        ));
    }
    Ok(())
}

/// The steps of a played run from 0 to exactly `t` at `fps`: `n` steps of `1 / fps`, then
/// one of `rest` (0 when `t · fps` is a whole number, to 1e-4 frame). `t` must be 0 or
/// more and `n` at most `max_frames`.
pub fn played_steps(t: f32, fps: f32, max_frames: u32) -> Result<(u64, f32), Usage> {
    if !(t >= 0.0 && t.is_finite()) {
        return Err(format!(
            "--time must be 0 or more to play the animation from 0 (got {t}; \
             --physics none poses any time)"
        ));
    }
    let dt = 1.0 / fps;
    let x = f64::from(t) * f64::from(fps);
    let whole = x.round();
    let (n, rest) = if (x - whole).abs() < 1e-4 {
        (whole, 0.0)
    } else {
        let n = x.floor();
        (n, (f64::from(t) - n * f64::from(dt)) as f32)
    };
    if n > f64::from(max_frames) {
        return Err(format!(
            "--time {t} at --fps {fps} is {} steps to play, over --max-frames {max_frames} \
             (raise --max-frames, or use --physics none to pose the time directly)",
            short(n)
        ));
    }
    Ok((n as u64, rest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_finite_and_in_range() {
        assert_eq!(fps("30"), Ok(30.0));
        for bad in ["0", "1e-30", "-5", "NaN", "inf", "1001", "x", ""] {
            assert!(fps(bad).is_err(), "{bad}");
        }
        assert!(fps("0").unwrap_err().contains("1 to 1000"));
        assert_eq!(time("-5"), Ok(-5.0));
        assert_eq!(time("0.800000072").map(f32::to_bits), Ok(0.8f32.to_bits() + 1));
        for bad in ["NaN", "nan", "inf", "-inf", "1e39", "x"] {
            assert!(time(bad).is_err(), "{bad}");
        }
        assert!(scale("0").is_err() && scale("-1").is_err() && scale("1e30").is_err());
        assert_eq!(scale("2"), Ok(2.0));
        assert!(mix("-1").is_err() && mix("1e9").is_err());
        assert_eq!(delay("-0.25"), Ok(-0.25));
        assert_eq!(count("1"), Ok(1));
        assert!(count("0").is_err() && count("-3").is_err() && count("99999999999").is_err());
        assert_eq!(size("800x600"), Ok((800, 600)));
        for bad in ["800", "0x5", "9000x10", "axb", "-1x4"] {
            assert!(size(bad).is_err(), "{bad}");
        }
        assert!(background("zz").is_err());
        assert_eq!(shard("2/8"), Ok((2, 8)));
        for bad in ["0/2", "3/2", "1", "a/b", "1/0"] {
            assert!(shard(bad).is_err(), "{bad}");
        }
        assert_eq!(background("ff000080"), Ok([255, 0, 0, 128]));
    }

    #[test]
    fn frames_and_played_steps_are_capped() {
        assert!(check_frames(10, 10).is_ok());
        assert!(check_frames(100_000_000, DEFAULT_MAX_FRAMES)
            .unwrap_err()
            .contains("--max-frames"));
        let max = DEFAULT_MAX_FRAMES;
        assert_eq!(played_steps(0.0, 30.0, max), Ok((0, 0.0)));
        assert_eq!(played_steps(1.0, 30.0, max), Ok((30, 0.0)));
        assert_eq!(played_steps(1.0, 60.0, max), Ok((60, 0.0)));
        // 0.1 s is 3 frames at 30 fps, to the f32 rounding of 0.1.
        assert_eq!(played_steps(0.1, 30.0, max), Ok((3, 0.0)));
        let (n, rest) = played_steps(0.25, 30.0, max).unwrap();
        assert_eq!(n, 7);
        let total = 7.0 * f64::from(1.0f32 / 30.0) + f64::from(rest);
        assert!((total - 0.25).abs() < 1e-7, "{total}");
        assert!(played_steps(-0.5, 30.0, max).is_err());
        assert!(played_steps(f32::NAN, 30.0, max).is_err());
        assert!(played_steps(1e6, 30.0, max).unwrap_err().contains("--max-frames"));
        assert!(played_steps(1e6, 30.0, u32::MAX).is_ok());
    }
}
