//! The conversions both directions share: versions, inherit and blend modes, dark colors,
//! 3.x curves and keyed timelines.

use spine_format::binary::shared::Keyframe;
use spine_format::binary::v3_common as c3;
use spine_format::json::{self as j, Curve, Key};
use spine_format::SpineVersion;

/// The binary layout a 3.x version string selects: 3.5, 3.6, 3.7, else 3.8.
pub(super) fn generation_of(version: &str) -> SpineVersion {
    SpineVersion::parse(version)
        .filter(|v| (SpineVersion::V3_5..SpineVersion::V3_8).contains(v))
        .unwrap_or(SpineVersion::V3_8)
}

/// The JSON version rules of a 3.x export: its declared version, else its generation's.
pub(super) fn json_version(version: &str, gen: SpineVersion) -> SpineVersion {
    j::supported_version(version).unwrap_or(gen.min(SpineVersion::V3_8))
}

/// A bone transform mode as JSON writes it (`None` for normal).
pub(super) fn inherit_to_json(m: c3::TransformMode) -> Option<j::Inherit> {
    use c3::TransformMode as T;
    Some(match m {
        T::Normal => return None,
        T::OnlyTranslation => j::Inherit::OnlyTranslation,
        T::NoRotationOrReflection => j::Inherit::NoRotationOrReflection,
        T::NoScale => j::Inherit::NoScale,
        T::NoScaleOrReflection => j::Inherit::NoScaleOrReflection,
    })
}

/// A JSON inherit mode as a bone transform mode (normal when absent).
pub(super) fn inherit_from_json(i: Option<j::Inherit>) -> c3::TransformMode {
    use c3::TransformMode as T;
    match i.unwrap_or(j::Inherit::Normal) {
        j::Inherit::Normal => T::Normal,
        j::Inherit::OnlyTranslation => T::OnlyTranslation,
        j::Inherit::NoRotationOrReflection => T::NoRotationOrReflection,
        j::Inherit::NoScale => T::NoScale,
        j::Inherit::NoScaleOrReflection => T::NoScaleOrReflection,
    }
}

/// A slot blend mode as JSON writes it (`None` for normal).
pub(super) fn blend_to_json(b: c3::BlendMode) -> Option<j::BlendMode> {
    Some(match b {
        c3::BlendMode::Normal => return None,
        c3::BlendMode::Additive => j::BlendMode::Additive,
        c3::BlendMode::Multiply => j::BlendMode::Multiply,
        c3::BlendMode::Screen => j::BlendMode::Screen,
    })
}

/// A JSON blend mode as a slot blend mode (normal when absent).
pub(super) fn blend_from_json(b: Option<j::BlendMode>) -> c3::BlendMode {
    match b.unwrap_or(j::BlendMode::Normal) {
        j::BlendMode::Normal => c3::BlendMode::Normal,
        j::BlendMode::Additive => c3::BlendMode::Additive,
        j::BlendMode::Multiply => c3::BlendMode::Multiply,
        j::BlendMode::Screen => c3::BlendMode::Screen,
    }
}

pub(super) use crate::convert::json_common::some_if;

/// The dark color of a slot as JSON writes it (`rrggbb`, alpha 255), `None` for the
/// "no dark color" word.
pub(super) fn dark_to_json(d: [u8; 4]) -> Option<[u8; 4]> {
    (d != [0xff; 4]).then(|| [d[1], d[2], d[3], 0xff])
}

/// The slot dark color `int` as the editor writes it: `00 R G B` (all `FF` means none).
pub(super) fn dark_from_json(d: Option<[u8; 4]>) -> [u8; 4] {
    match d {
        None => [0xff; 4],
        Some([r, g, b, _]) => [0, r, g, b],
    }
}

/// The binary `curves` of a 3.x timeline as JSON key curves (3.5–3.7 arrays, 3.8 numbers).
pub(super) fn curve3_to_json(c: c3::Curve, v38: bool) -> Option<Curve> {
    match c {
        c3::Curve::Linear => None,
        c3::Curve::Stepped => Some(Curve::Stepped),
        c3::Curve::Bezier([a, b, cc, d]) if v38 => {
            Some(Curve::Number { c1: a, c2: Some(b), c3: Some(cc), c4: Some(d) })
        }
        c3::Curve::Bezier(b) => Some(Curve::Bezier(j::Bezier::from_slice(&b))),
    }
}

/// A JSON key curve as a 3.x binary curve, read as the version's loader does (3.5–3.7: any
/// string but `stepped` and any non-array is linear; 3.8: any string is stepped, a number is
/// `cx1` with `c2`, `c3`, `c4` defaulting to 0, 1, 1).
pub(super) fn curve3_from_json(c: &Option<Curve>, v38: bool) -> c3::Curve {
    match c {
        None => c3::Curve::Linear,
        Some(Curve::Stepped) => c3::Curve::Stepped,
        Some(Curve::Other(_)) if v38 => c3::Curve::Stepped,
        Some(Curve::Other(_)) => c3::Curve::Linear,
        Some(Curve::Bezier(v)) => {
            let at = |i: usize| v.get(i).copied().unwrap_or(0.0);
            c3::Curve::Bezier([at(0), at(1), at(2), at(3)])
        }
        Some(Curve::Number { c1, c2, c3, c4 }) => {
            c3::Curve::Bezier([*c1, c2.unwrap_or(0.0), c3.unwrap_or(1.0), c4.unwrap_or(1.0)])
        }
    }
}

/// A binary timeline as JSON keys (`value` converts each key value).
pub(super) fn keys_to_json<V, T>(
    t: &c3::Timeline<V>,
    v38: bool,
    mut value: impl FnMut(&V) -> T,
) -> Vec<Key<T>> {
    let n = t.frames.len();
    t.frames
        .iter()
        .enumerate()
        .map(|(i, k)| Key {
            time: k.time,
            curve: if i + 1 < n {
                curve3_to_json(t.curves.get(i).copied().unwrap_or_default(), v38)
            } else {
                None
            },
            value: value(&k.value),
        })
        .collect()
}

/// JSON keys as a binary timeline (`value` converts each key value).
pub(super) fn keys_from_json<V, T>(
    keys: &[Key<T>],
    v38: bool,
    mut value: impl FnMut(&T) -> V,
) -> c3::Timeline<V> {
    let n = keys.len();
    c3::Timeline {
        frames: keys.iter().map(|k| Keyframe { time: k.time, value: value(&k.value) }).collect(),
        curves: keys
            .iter()
            .take(n.saturating_sub(1))
            .map(|k| curve3_from_json(&k.curve, v38))
            .collect(),
    }
}
