//! A track entry's bone timelines grouped by property, for the usual mix
//! ([`AnimationState::apply`](crate::state::AnimationState::apply) mixing an entry in).
//!
//! Timelines that key different fields of a bone give the same pose in any order, and an
//! exported animation keys each field of a bone once. Grouped, each property is one loop
//! with its arithmetic known (no dispatch per timeline, the channel count a constant, the
//! loop's values kept in registers) over compact records of where each table is. The
//! groups are built with the entry's active timeline ranges (when its animation or the
//! skeleton's active bones change), not per frame; when two timelines of a bone touch the
//! same field (or 4.2's scale y, which reads scale x, meets a scale x timeline), or a table
//! is not a 4.x one of the property's channel count, the entry keeps the timelines' order.

use spine_model::{BoneProperty, CurveModel, CurveTable, Curves, SkeletonData, Timeline};

use crate::skeleton::Bone;
use crate::timeline::{
    curve_values_from, relative2_from, relative_from, scale2, scale_value, times_sorted, ApplyArgs,
    BoneRules, KeySpan, MixBlend,
};

/// The properties in the order their groups run.
const KINDS: [BoneProperty; 10] = [
    BoneProperty::Rotate,
    BoneProperty::Translate,
    BoneProperty::TranslateX,
    BoneProperty::TranslateY,
    BoneProperty::Scale,
    BoneProperty::ScaleX,
    BoneProperty::ScaleY,
    BoneProperty::Shear,
    BoneProperty::ShearX,
    BoneProperty::ShearY,
];

/// One bone timeline: its bone, where its table is in the animation's keys, the key its
/// last evaluation found (a cursor: see [`KeySearch`](crate::timeline::KeySearch)) and that
/// key's [`KeySpan`] (while the time stays within it, the next evaluation reads neither key
/// times nor the curve type). 24 bytes, so that a frame of many instances reads few cache
/// lines of them: the bone index and the table's lengths in 16 bits (an entry with a larger
/// one keeps the timelines' order, see [`BoneGroups::build`]); the cursor, a key index, is
/// below `frames_len`.
#[derive(Debug, Clone, Copy)]
struct BoneOp {
    start: u32,
    span: KeySpan,
    bone: u16,
    frames_len: u16,
    curves_len: u16,
    key: u16,
}

impl BoneOp {
    /// The op's key search: its cursor and the span of the key it found last.
    #[inline(always)]
    fn cursor(&mut self) -> (&mut u16, &mut KeySpan) {
        (&mut self.key, &mut self.span)
    }

    /// The timeline's table of `N` channels (as [`Curves::table`]).
    #[inline(always)]
    fn table<'k, const N: usize>(&self, keys: &'k [f32]) -> CurveTable<'k> {
        self.curves::<N>().table(keys)
    }

    /// The timeline's [`Curves`] (for the out-of-line scale arms).
    #[inline(always)]
    fn curves<const N: usize>(&self) -> Curves {
        Curves {
            channels: N,
            start: self.start,
            frames_len: u32::from(self.frames_len),
            curves_len: u32::from(self.curves_len),
            model: CurveModel::Bezier4x,
        }
    }
}

/// The keyed values of scale timeline `o` at `time` when the mix is `full` (alpha 1, not
/// added) and `time` is not before its first key: then the scales are these times the setup
/// scales (spine-cpp `ScaleTimeline::apply`, `getScaleValue`). `None` for the other cases,
/// which the out-of-line functions serving every mix take.
#[inline(always)]
fn full_scale<const N: usize>(
    o: &mut BoneOp,
    keys: &[f32],
    time: f32,
    full: bool,
) -> Option<[f32; N]> {
    let c = o.table::<N>(keys);
    let &first = c.frames.first()?;
    (full && time >= first).then(|| curve_values_from::<N, _>(c, time, o.cursor()).0)
}

/// The bone timelines of a track entry's active timeline ranges, grouped by property.
#[derive(Debug, Clone, Default)]
pub(crate) struct BoneGroups {
    /// The groups apply (see the module doc); otherwise the timelines run in order.
    pub(crate) usable: bool,
    /// The bone timelines, by property in [`KINDS`] order.
    ops: Vec<BoneOp>,
    /// The end in `ops` of each property's group.
    ends: [u32; KINDS.len()],
    /// The indices of the other timelines of the active ranges, in order.
    pub(crate) others: Vec<u32>,
    /// Per bone, the fields its timelines touch (while building).
    touched: Vec<u8>,
}

/// Channels of a property's table.
fn channels(p: BoneProperty) -> usize {
    match p {
        BoneProperty::Translate | BoneProperty::Scale | BoneProperty::Shear => 2,
        _ => 1,
    }
}

/// The bone fields a property's timeline reads or writes, one bit each.
fn fields(p: BoneProperty, rules: BoneRules) -> u8 {
    const ROTATION: u8 = 1;
    const X: u8 = 2;
    const Y: u8 = 4;
    const SCALE_X: u8 = 8;
    const SCALE_Y: u8 = 16;
    const SHEAR_X: u8 = 32;
    const SHEAR_Y: u8 = 64;
    match p {
        BoneProperty::Rotate => ROTATION,
        BoneProperty::Translate => X | Y,
        BoneProperty::TranslateX => X,
        BoneProperty::TranslateY => Y,
        BoneProperty::Scale => SCALE_X | SCALE_Y,
        BoneProperty::ScaleX => SCALE_X,
        // spine-cpp 4.2 reads scale x as the current value.
        BoneProperty::ScaleY if rules.spine43 => SCALE_Y,
        BoneProperty::ScaleY => SCALE_Y | SCALE_X,
        BoneProperty::Shear => SHEAR_X | SHEAR_Y,
        BoneProperty::ShearX => SHEAR_X,
        BoneProperty::ShearY => SHEAR_Y,
    }
}

impl BoneGroups {
    /// A word of the first cache line of each list (see `Skeleton::touch`).
    #[inline]
    pub(crate) fn touch(&self) -> u32 {
        let op = self.ops.first().map_or(0, |o| o.start);
        op ^ self.others.first().copied().unwrap_or(0)
    }

    /// Groups the bone timelines of `timelines` in `runs` (the entry's active ranges) for a
    /// skeleton of `bone_count` bones; the other timelines' indices go to `others`.
    pub(crate) fn build(
        &mut self,
        bone_count: usize,
        rules: BoneRules,
        timelines: &[Timeline],
        keys: &[f32],
        runs: &[(u32, u32)],
    ) {
        self.ops.clear();
        self.others.clear();
        self.touched.clear();
        self.touched.resize(bone_count, 0);
        self.ends = [0; KINDS.len()];
        let mut usable = !rules.rotate_3x;
        let active = || runs.iter().flat_map(|&(s, e)| s..e);
        for i in active() {
            match timelines.get(i as usize) {
                Some(Timeline::Bone { bone, property, curves }) => {
                    // A cursor searches tables whose key times never decrease.
                    usable &= curves.model == CurveModel::Bezier4x
                        && curves.channels == channels(*property)
                        && times_sorted(curves.table(keys).frames, curves.channels + 1);
                    // The op's 16-bit fields hold the bone and the table's lengths.
                    usable &= u16::try_from(bone.index()).is_ok()
                        && u16::try_from(curves.frames_len).is_ok()
                        && u16::try_from(curves.curves_len).is_ok();
                    let f = fields(*property, rules);
                    match self.touched.get_mut(bone.index()) {
                        Some(t) if *t & f == 0 => *t |= f,
                        _ => usable = false,
                    }
                }
                Some(_) => self.others.push(i),
                None => {}
            }
        }
        self.usable = usable;
        if !usable {
            self.others.clear();
            return;
        }
        for (end, kind) in self.ends.iter_mut().zip(KINDS) {
            for i in active() {
                if let Some(Timeline::Bone { bone, property, curves }) = timelines.get(i as usize) {
                    if *property == kind {
                        // In range: checked by the first pass.
                        self.ops.push(BoneOp {
                            start: curves.start,
                            bone: bone.index() as u16,
                            frames_len: curves.frames_len as u16,
                            curves_len: curves.curves_len as u16,
                            key: 0,
                            span: KeySpan::default(),
                        });
                    }
                }
            }
            *end = self.ops.len() as u32;
        }
    }

    /// The ops of group `k` ([`KINDS`]`[k]`). An empty group is told by its two ends, not
    /// cut out of `ops` by a checked range (most of the ten are empty in most animations).
    #[inline(always)]
    fn group(&mut self, k: usize) -> &mut [BoneOp] {
        let start = if k == 0 { 0 } else { self.ends[k - 1] };
        if self.ends[k] <= start {
            return &mut [];
        }
        self.ops.get_mut(start as usize..self.ends[k] as usize).unwrap_or(&mut [])
    }

    /// Applies every group (the timelines' tables in `keys`) to `bones`, as
    /// [`apply_bone_run`](crate::timeline::apply_bone_run) applies them one by one.
    #[inline(always)]
    pub(crate) fn apply(
        &mut self,
        bones: &mut [Bone],
        data: &SkeletonData,
        keys: &[f32],
        args: ApplyArgs,
    ) {
        let ApplyArgs { time, alpha, blend, direction, .. } = args;
        let spine43 = BoneRules::of(data).spine43;
        // Both slices cut to one length: one bounds check per timeline serves both.
        let n = bones.len().min(data.bones.len());
        let (bones, bd) = (&mut bones[..n], &data.bones[..n]);
        // One loop per group, its arm's arithmetic inline (a closure per group would be
        // called out of line, with the table passed through memory).
        macro_rules! each {
            ($k:expr, |$b:ident, $d:ident, $o:ident| $body:expr) => {
                for $o in self.group($k) {
                    let i = $o.bone as usize;
                    if let (Some($b), Some($d)) = (bones.get_mut(i), bd.get(i)) {
                        $body;
                    }
                }
            };
        }
        // A one-channel timeline's relative value (`relative_from` from the op's cursor).
        macro_rules! relative1 {
            ($o:ident, $current:expr, $setup:expr) => {
                relative_from(
                    $o.table::<1>(keys),
                    $o.cursor(),
                    time,
                    alpha,
                    blend,
                    $current,
                    $setup,
                )
            };
        }
        each!(0, |b, d, o| b.rotation = relative1!(o, b.rotation, d.rotation));
        each!(1, |b, d, o| {
            let (cur, setup) = ((&mut b.x, &mut b.y), (d.x, d.y));
            relative2_from(o.table::<2>(keys), o.cursor(), time, alpha, blend, cur, setup)
        });
        each!(2, |b, d, o| b.x = relative1!(o, b.x, d.x));
        each!(3, |b, d, o| b.y = relative1!(o, b.y, d.y));
        // Scales at full alpha (not added) inline (`full_scale`), the other mixes out of line.
        let full = alpha == 1.0 && blend != MixBlend::Add;
        each!(4, |b, d, o| match full_scale::<2>(o, keys, time, full) {
            Some([x, y]) => {
                b.scale_x = x * d.scale_x;
                b.scale_y = y * d.scale_y;
            }
            None => {
                let args = ApplyArgs { last_time: time, time, alpha, blend, direction };
                scale2(b, d, (&o.curves::<2>(), keys), args)
            }
        });
        each!(5, |b, d, o| match full_scale::<1>(o, keys, time, full) {
            Some([x]) => b.scale_x = x * d.scale_x,
            None => {
                let (current, setup, c) = (b.scale_x, d.scale_x, o.curves::<1>());
                b.scale_x = scale_value((&c, keys), args, current, setup)
            }
        });
        each!(6, |b, d, o| match full_scale::<1>(o, keys, time, full) {
            Some([y]) => b.scale_y = y * d.scale_y,
            None => {
                // spine-cpp 4.2 quirk: the current value passed is scale *x* (4.3: scale y).
                let current = if spine43 { b.scale_y } else { b.scale_x };
                let c = o.curves::<1>();
                b.scale_y = scale_value((&c, keys), args, current, d.scale_y)
            }
        });
        each!(7, |b, d, o| {
            let (cur, setup) = ((&mut b.shear_x, &mut b.shear_y), (d.shear_x, d.shear_y));
            relative2_from(o.table::<2>(keys), o.cursor(), time, alpha, blend, cur, setup)
        });
        each!(8, |b, d, o| b.shear_x = relative1!(o, b.shear_x, d.shear_x));
        each!(9, |b, d, o| b.shear_y = relative1!(o, b.shear_y, d.shear_y));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A two-bone rig whose animation `a` keys `bone_a` (a timeline map of bone `a`).
    fn rig(bone_a: &str) -> SkeletonData {
        let text = format!(
            r#"{{"skeleton": {{"spine": "4.2.22"}},
                "bones": [{{"name": "root"}}, {{"name": "a", "parent": "root"}}],
                "events": {{"e": {{}}}},
                "animations": {{"a": {{
                    "bones": {{"a": {bone_a},
                               "root": {{"rotate": [{{"value": 1}}, {{"time": 1, "value": 2}}]}}}},
                    "events": [{{"time": 0.5, "name": "e"}}]}}}}}}"#
        );
        spine_model::load_json(&text, None).unwrap()
    }

    /// Groups animation `a` of `data` with every timeline active.
    fn groups(data: &SkeletonData) -> (BoneGroups, Vec<BoneProperty>) {
        let a = &data.animations[0];
        let runs = [(0, a.timelines.len() as u32)];
        let mut g = BoneGroups::default();
        g.build(data.bones.len(), BoneRules::of(data), &a.timelines, &a.keys, &runs);
        let kind = |op: &BoneOp| {
            a.timelines.iter().find_map(|t| match t {
                Timeline::Bone { bone, property, curves }
                    if bone.index() == op.bone as usize && curves.start == op.start =>
                {
                    Some(*property)
                }
                _ => None,
            })
        };
        let kinds = g.ops.iter().filter_map(kind).collect();
        (g, kinds)
    }

    #[test]
    fn an_op_is_24_bytes() {
        assert_eq!(std::mem::size_of::<BoneOp>(), 24);
    }

    #[test]
    fn timelines_are_grouped_by_property_and_the_others_kept_in_order() {
        let data =
            rig(r#"{"translate": [{"x": 1}], "rotate": [{"value": 3}], "shearx": [{"value": 4}]}"#);
        let (g, kinds) = groups(&data);
        assert!(g.usable);
        use BoneProperty as P;
        assert_eq!(kinds, [P::Rotate, P::Rotate, P::Translate, P::ShearX]);
        assert_eq!(g.ends, [2, 3, 3, 3, 3, 3, 3, 3, 4, 4]);
        let others: Vec<_> =
            g.others.iter().map(|&i| &data.animations[0].timelines[i as usize]).collect();
        assert!(matches!(others[..], [Timeline::Event { .. }]), "{others:?}");
    }

    #[test]
    fn timelines_touching_one_field_keep_their_order() {
        // translate and translate x both write x; 4.2's scale y reads scale x.
        for bone_a in [
            r#"{"translate": [{"x": 1}], "translatex": [{"value": 2}]}"#,
            r#"{"scalex": [{"value": 2}], "scaley": [{"value": 3}]}"#,
        ] {
            let (g, _) = groups(&rig(bone_a));
            assert!(!g.usable, "{bone_a}");
            assert!(g.ops.is_empty() && g.others.is_empty());
        }
        // 4.3's scale y reads scale y: no overlap.
        let mut data = rig(r#"{"scalex": [{"value": 2}], "scaley": [{"value": 3}]}"#);
        data.behaviour.mix_from_add_model = true;
        assert!(groups(&data).0.usable);
    }

    #[test]
    fn a_table_too_long_for_16_bits_keeps_the_order() {
        // An op holds a table's lengths in 16 bits: 40,000 rotate keys are 80,000 floats.
        let keys: Vec<String> = (0..40_000)
            .map(|k| format!(r#"{{"time": {}, "value": {k}}}"#, k as f32 / 100.0))
            .collect();
        let data = rig(&format!(r#"{{"rotate": [{}]}}"#, keys.join(",")));
        let (g, _) = groups(&data);
        assert!(!g.usable);
        assert!(g.ops.is_empty() && g.others.is_empty());
        // The same timeline with a few keys groups.
        assert!(groups(&rig(r#"{"rotate": [{"value": 3}, {"time": 1, "value": 4}]}"#)).0.usable);
    }

    #[test]
    fn a_table_with_decreasing_key_times_keeps_the_order() {
        // The cursor needs key times that never decrease.
        let data = rig(r#"{"rotate": [{"time": 1, "value": 1}, {"time": 0.5, "value": 2}]}"#);
        let (g, _) = groups(&data);
        assert!(!g.usable);
        let data = rig(r#"{"rotate": [{"time": 0.5, "value": 1}, {"time": 1, "value": 2}]}"#);
        assert!(groups(&data).0.usable);
    }
}
