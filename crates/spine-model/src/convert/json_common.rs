//! What the 4.0–4.2 ([`super::v40_json`]) and 4.3 ([`super::v43_json`]) converters share:
//! the mappings whose JSON shape is the same in both versions — timeline channels with
//! their JSON defaults, slot timeline colours, flag-coded mixes, physics `global` flags,
//! attachment flag bits, the editor's default colours, draw order keys, the wire order of
//! skins, the hash words and the search for a physics `mass`.

use std::collections::HashMap;

use spine_format::binary::shared::{CurveType, DrawOrderChange};
use spine_format::json::{
    AttachmentTimeline, AttachmentTimelines, Curve, DrawOrderOffset, Key, TwoColor, Xy,
};

use super::common::{binary_curve, byte_of, Problems};
use crate::error::ProblemKind;

/// `Some(v)` unless `v` is the JSON default (which JSON leaves out).
pub(super) fn some_if<T: PartialEq>(v: T, default: T) -> Option<T> {
    (v != default).then_some(v)
}

// --- Timeline channels ------------------------------------------------------------------

/// A one-channel key value whose JSON default is 0.
pub(super) fn zero(v: &[f32; 1]) -> Option<f32> {
    some_if(v[0], 0.0)
}

/// A one-channel key value whose JSON default is 1.
pub(super) fn unit(v: &[f32; 1]) -> Option<f32> {
    some_if(v[0], 1.0)
}

/// An `x, y` key value whose JSON defaults are 0 (translate, shear).
pub(super) fn xy0(v: &[f32; 2]) -> Xy {
    Xy { x: some_if(v[0], 0.0), y: some_if(v[1], 0.0) }
}

/// An `x, y` key value whose JSON defaults are 1 (scale).
pub(super) fn xy1(v: &[f32; 2]) -> Xy {
    Xy { x: some_if(v[0], 1.0), y: some_if(v[1], 1.0) }
}

/// The binary channel of a one-value JSON key (`d` when absent).
pub(super) fn one(v: &Option<f32>, d: f32) -> [f32; 1] {
    [v.unwrap_or(d)]
}

/// The binary channels of an `x, y` JSON key (`d` for an absent one).
pub(super) fn xy(v: &Xy, d: f32) -> [f32; 2] {
    [v.x.unwrap_or(d), v.y.unwrap_or(d)]
}

// --- Slot timeline colours ---------------------------------------------------------------

/// An RGBA key (the same bytes on both sides).
pub(super) fn rgba(v: &[u8; 4]) -> [u8; 4] {
    *v
}

/// An RGB key as JSON (opaque alpha).
pub(super) fn rgb_to_json(v: &[u8; 3]) -> [u8; 4] {
    [v[0], v[1], v[2], 0xff]
}

/// An RGBA + dark RGB key as JSON.
pub(super) fn rgba2_to_json(v: &[u8; 7]) -> TwoColor {
    TwoColor { light: [v[0], v[1], v[2], v[3]], dark: [v[4], v[5], v[6], 0xff] }
}

/// An RGB + dark RGB key as JSON.
pub(super) fn rgb2_to_json(v: &[u8; 6]) -> TwoColor {
    TwoColor { light: [v[0], v[1], v[2], 0xff], dark: [v[3], v[4], v[5], 0xff] }
}

/// An alpha byte as the JSON fraction `byte / 255`.
pub(super) fn alpha_to_json(v: &[u8; 1]) -> Option<f32> {
    Some(f32::from(v[0]) / 255.0)
}

/// The binary bytes of a JSON RGB key (its alpha dropped).
pub(super) fn rgb_from_json(v: &[u8; 4]) -> [u8; 3] {
    [v[0], v[1], v[2]]
}

/// The binary bytes of a JSON RGBA + dark RGB key.
pub(super) fn rgba2_from_json(v: &TwoColor) -> [u8; 7] {
    let (l, d) = (v.light, v.dark);
    [l[0], l[1], l[2], l[3], d[0], d[1], d[2]]
}

/// The binary bytes of a JSON RGB + dark RGB key.
pub(super) fn rgb2_from_json(v: &TwoColor) -> [u8; 6] {
    let (l, d) = (v.light, v.dark);
    [l[0], l[1], l[2], d[0], d[1], d[2]]
}

/// The binary byte of a JSON alpha (absent: 0).
pub(super) fn alpha_from_json(v: &Option<f32>) -> [u8; 1] {
    [byte_of(v.unwrap_or(0.0))]
}

// --- Flag-coded values --------------------------------------------------------------------

/// The JSON `mix` of a flag-coded binary mix (IK, IK keys, sliders): `has` says the mix is
/// not 0, `set` that it is not 1 either (then `mix` holds it).
pub(super) fn mix_to_json(has: bool, set: bool, mix: Option<f32>) -> Option<f32> {
    match (has, set) {
        (false, _) => Some(0.0),
        (true, false) => None,
        (true, true) => Some(mix.unwrap_or(1.0)),
    }
}

/// The binary form of a JSON `mix` (default 1): the flag bits (1 "not 0", 2 "written",
/// shifted into place by the caller) and the written value.
pub(super) fn mix_from_json(mix: Option<f32>) -> (u8, Option<f32>) {
    match mix {
        None => (1, None),
        Some(0.0) => (0, None),
        Some(m) => (1 | 2, Some(m)),
    }
}

/// The physics `global` booleans of the binary global flag bits (one bit each).
pub(super) fn global_to_json(flags: u8) -> [Option<bool>; 7] {
    let mut global = [None; 7];
    for (i, g) in global.iter_mut().enumerate() {
        *g = (flags & (1 << i) != 0).then_some(true);
    }
    global
}

/// The binary global flag bits of the physics `global` booleans, 128 when `mix` is written.
pub(super) fn global_flags(global: &[Option<bool>; 7], mix: Option<f32>) -> u8 {
    let mut flags = 0u8;
    for (i, g) in global.iter().enumerate() {
        if g.unwrap_or(false) {
            flags |= 1 << i;
        }
    }
    if mix.is_some() {
        flags |= 128;
    }
    flags
}

/// The attachment flag bits 16, 32, 64, 128 of four booleans (the meaning depends on the
/// attachment type).
pub(super) fn attachment_bits(list: [bool; 4]) -> u8 {
    list.iter().enumerate().fold(0u8, |f, (i, &b)| if b { f | (16 << i) } else { f })
}

// --- Editor defaults and checks -----------------------------------------------------------

/// The editor's default bone color.
pub(super) const BONE_COLOR: [u8; 4] = [0x98, 0x98, 0x98, 0xff];
/// The editor's default bounding box color.
pub(super) const BOUNDING_BOX_COLOR: [u8; 4] = [0x60, 0xf0, 0x00, 0xff];
/// The editor's default path color.
pub(super) const PATH_COLOR: [u8; 4] = [0xff, 0x77, 0x00, 0xff];
/// The editor's default point color.
pub(super) const POINT_COLOR: [u8; 4] = [0xf1, 0xf1, 0x00, 0xff];
/// The editor's default clipping color.
pub(super) const CLIPPING_COLOR: [u8; 4] = [0xce, 0x3a, 0x3a, 0xff];

/// A nonessential editor color: written only when the binary carries nonessential data.
pub(super) fn editor_color(ne: bool, color: Option<[u8; 4]>, default: [u8; 4]) -> Option<[u8; 4]> {
    if ne {
        Some(color.unwrap_or(default))
    } else {
        None
    }
}

/// Reports a mesh whose triangle count is not the one its vertex and hull counts imply
/// (binaries since 4.2 store no count).
pub(super) fn check_triangles(p: &mut Problems, uvs: usize, hull: u32, triangles: usize) {
    let implied = (uvs as i64 - i64::from(hull) - 2) * 3;
    if triangles as i64 != implied {
        p.report(ProblemKind::Invalid(format!(
            "{triangles} triangle indices; a mesh of {} vertices with a hull of {hull} has {implied}",
            uvs / 2
        )));
    }
}

// --- Skeleton-level helpers ---------------------------------------------------------------

/// The binary order of JSON skins: the `default` skin first, then the others in order.
pub(super) struct SkinOrder<'a> {
    /// The JSON index of the `default` skin.
    pub default: Option<usize>,
    /// JSON indexes in wire order.
    pub order: Vec<usize>,
    /// Name → wire index (the first of equal names wins).
    pub index: HashMap<&'a str, u32>,
}

impl<'a> SkinOrder<'a> {
    /// The order of skins named `names` (in JSON order).
    pub fn new(names: &[&'a str]) -> Self {
        let default = names.iter().position(|&n| n == "default");
        let mut order: Vec<usize> = Vec::with_capacity(names.len());
        order.extend(default);
        order.extend((0..names.len()).filter(|&i| Some(i) != default));
        let mut index = HashMap::new();
        for (wire, &i) in order.iter().enumerate() {
            index.entry(names[i]).or_insert(wire as u32);
        }
        SkinOrder { default, order, index }
    }
}

/// The wire index of the `default` skin, which a linked mesh without `skin` names (0,
/// reported, when there is none).
pub(super) fn default_skin_index(skins: &HashMap<&str, u32>, p: &mut Problems) -> u32 {
    match skins.get("default") {
        Some(&i) => i,
        None => {
            p.unknown("skin", "default");
            0
        }
    }
}

/// The binary hash words of a JSON `hash` (0, 0 unless it is the editor's base64 of 8 bytes).
pub(super) fn hash_words(h: Option<&str>) -> [i32; 2] {
    match h.and_then(spine_format::json43::hash_bytes) {
        Some(b) => [
            i32::from_be_bytes([b[0], b[1], b[2], b[3]]),
            i32::from_be_bytes([b[4], b[5], b[6], b[7]]),
        ],
        None => [0, 0],
    }
}

/// A `mass` whose inverse as a loader computes it (`inverse`) is exactly `mass_inverse`,
/// searched within a few ulps of the plain inverse (which is returned when none matches).
pub(super) fn mass_for(mass_inverse: f32, inverse: impl Fn(f32) -> f32) -> Option<f32> {
    if !(mass_inverse.is_finite() && mass_inverse != 0.0) {
        return None;
    }
    let m0 = inverse(mass_inverse);
    if !m0.is_finite() {
        return None;
    }
    if inverse(m0) == mass_inverse {
        return Some(m0);
    }
    let (mut lo, mut hi) = (m0, m0);
    for _ in 0..8 {
        lo = f32::from_bits(lo.to_bits().wrapping_sub(1));
        hi = f32::from_bits(hi.to_bits().wrapping_add(1));
        for m in [lo, hi] {
            if m.is_finite() && inverse(m) == mass_inverse {
                return Some(m);
            }
        }
    }
    Some(m0)
}

// --- Animation helpers --------------------------------------------------------------------

/// Adds a timeline to the JSON entry of its skin, slot and attachment (made when new).
pub(super) fn push_attachment_timeline(
    list: &mut Vec<AttachmentTimelines>,
    (skin, slot, attachment): (String, String, String),
    t: AttachmentTimeline,
) {
    match list.iter_mut().find(|x| x.skin == skin && x.slot == slot && x.attachment == attachment) {
        Some(x) => x.timelines.push(t),
        None => list.push(AttachmentTimelines { skin, slot, attachment, timelines: vec![t] }),
    }
}

/// The JSON key of a binary draw order key (`slot` names a slot index).
pub(super) fn draw_order_key(
    time: f32,
    changes: &[DrawOrderChange],
    slot: impl Fn(u32) -> String,
) -> Key<Option<Vec<DrawOrderOffset>>> {
    Key {
        time,
        curve: None,
        value: (!changes.is_empty()).then(|| {
            changes
                .iter()
                .map(|ch| DrawOrderOffset { slot: slot(ch.slot), offset: ch.shift })
                .collect()
        }),
    }
}

/// The binary changes of a JSON draw order key (`slot` resolves each offset's slot).
pub(super) fn draw_order_changes(
    k: &Key<Option<Vec<DrawOrderOffset>>>,
    mut slot: impl FnMut(&DrawOrderOffset) -> u32,
) -> Vec<DrawOrderChange> {
    k.value.iter().flatten().map(|o| DrawOrderChange { slot: slot(o), shift: o.offset }).collect()
}

/// The binary curve into an IK key (two channels) from the previous JSON key's `curve`
/// (`None` for the first key): its type and, for a bezier, its two channel curves.
pub(super) fn ik_curve_in(prev: Option<&Option<Curve>>) -> (CurveType, Option<[[f32; 4]; 2]>) {
    match prev.map(|c| binary_curve(c, 2)) {
        Some((CurveType::Bezier, b)) => (CurveType::Bezier, Some([b[0], b[1]])),
        Some((ty, _)) => (ty, None),
        None => (CurveType::Linear, None),
    }
}

/// The JSON `delay` of each sequence key: left out when it equals the previous key's.
pub(super) fn delays_to_json(delays: impl IntoIterator<Item = f32>) -> Vec<Option<f32>> {
    let mut last = 0.0;
    delays
        .into_iter()
        .map(|d| {
            let out = some_if(d, last);
            last = d;
            out
        })
        .collect()
}

/// The binary delay of each JSON sequence key: an absent one repeats the previous key's.
pub(super) fn delays_from_json(delays: impl IntoIterator<Item = Option<f32>>) -> Vec<f32> {
    let mut last = 0.0;
    delays
        .into_iter()
        .map(|d| {
            last = d.unwrap_or(last);
            last
        })
        .collect()
}
