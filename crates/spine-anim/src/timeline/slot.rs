//! Slot timelines: colour, deform and sequence.

use super::*;
use spine_model::{AttachmentId, SequenceKey, SlotId};

/// The slot colours a colour timeline writes, their setup values, and the channels its
/// property keys.
struct ColorTarget<'a> {
    light: &'a mut spine_model::Color,
    dark: &'a mut spine_model::Color,
    setup: spine_model::Color,
    setup_dark: spine_model::Color,
    property: ColorProperty,
    has_rgb: bool,
    has_a: bool,
    has_dark: bool,
}

impl<'a> ColorTarget<'a> {
    /// The colours of `slot` (setup values from `sd`) that `property` keys.
    #[inline(always)]
    fn new(
        slot: &'a mut crate::skeleton::Slot,
        sd: &spine_model::SlotData,
        property: ColorProperty,
    ) -> Self {
        let (has_rgb, has_a, has_dark) = match property {
            ColorProperty::Rgba => (true, true, false),
            ColorProperty::Rgb => (true, false, false),
            ColorProperty::Rgba2 => (true, true, true),
            ColorProperty::Rgb2 => (true, false, true),
            ColorProperty::Alpha => (false, true, false),
        };
        let no_dark = spine_model::Color { r: 0.0, g: 0.0, b: 0.0, a: 0.0 };
        ColorTarget {
            light: &mut slot.color,
            dark: &mut slot.dark_color,
            setup: sd.color,
            setup_dark: sd.dark_color.unwrap_or(no_dark),
            property,
            has_rgb,
            has_a,
            has_dark,
        }
    }

    /// The keyed channels set to their setup values (alpha only when `with_alpha`).
    #[inline(always)]
    fn reset(&mut self, with_alpha: bool) {
        let (light, dark, setup, setup_dark) =
            (&mut *self.light, &mut *self.dark, self.setup, self.setup_dark);
        if self.has_rgb {
            light.r = setup.r;
            light.g = setup.g;
            light.b = setup.b;
        }
        if with_alpha {
            light.a = setup.a;
        }
        if self.has_dark {
            dark.r = setup_dark.r;
            dark.g = setup_dark.g;
            dark.b = setup_dark.b;
        }
    }

    /// Before the first key: back to setup (`Setup`), or part of the way there (`First`;
    /// spine-cpp 3.7/3.8's two-colour timelines move away from setup, unclamped, and return
    /// false: no clamp). Returns whether the light colour is then clamped.
    #[inline(always)]
    fn before_first(&mut self, blend: MixBlend, alpha: f32, first_away: bool) -> bool {
        let (setup, setup_dark) = (self.setup, self.setup_dark);
        // RGBA sets alpha too; RGB2's before-first-key setup keeps alpha, RGB's
        // `color.set(setup)` copies all four.
        let with_alpha = self.has_a || self.property == ColorProperty::Rgb;
        match blend {
            MixBlend::Setup => self.reset(with_alpha),
            MixBlend::First if self.has_dark && first_away => {
                let (light, dark) = (&mut *self.light, &mut *self.dark);
                light.r += (light.r - setup.r) * alpha;
                light.g += (light.g - setup.g) * alpha;
                light.b += (light.b - setup.b) * alpha;
                light.a += (light.a - setup.a) * alpha;
                dark.r += (dark.r - setup_dark.r) * alpha;
                dark.g += (dark.g - setup_dark.g) * alpha;
                dark.b += (dark.b - setup_dark.b) * alpha;
                return false;
            }
            MixBlend::First => {
                let (light, dark) = (&mut *self.light, &mut *self.dark);
                if self.has_rgb {
                    light.r += (setup.r - light.r) * alpha;
                    light.g += (setup.g - light.g) * alpha;
                    light.b += (setup.b - light.b) * alpha;
                }
                if with_alpha {
                    light.a += (setup.a - light.a) * alpha;
                }
                if self.has_dark {
                    dark.r += (setup_dark.r - dark.r) * alpha;
                    dark.g += (setup_dark.g - dark.g) * alpha;
                    dark.b += (setup_dark.b - dark.b) * alpha;
                }
            }
            _ => {}
        }
        true
    }

    /// The keyed values `(r, g, b, a, r2, g2, b2)` applied: set at full alpha, else mixed
    /// from the current (or, with `Setup`, the setup) colours.
    #[inline(always)]
    fn apply(&mut self, v: [f32; 7], blend: MixBlend, alpha: f32) {
        let [r, g, b, a, r2, g2, b2] = v;
        if alpha == 1.0 {
            let (light, dark) = (&mut *self.light, &mut *self.dark);
            if self.has_rgb {
                light.r = r;
                light.g = g;
                light.b = b;
            }
            if self.has_a {
                light.a = a;
            }
            if self.has_dark {
                dark.r = r2;
                dark.g = g2;
                dark.b = b2;
                clamp_color(dark);
            }
            return;
        }
        if blend == MixBlend::Setup {
            self.reset(self.has_a || self.property == ColorProperty::Rgba);
        }
        let (light, dark) = (&mut *self.light, &mut *self.dark);
        if self.has_rgb {
            light.r += (r - light.r) * alpha;
            light.g += (g - light.g) * alpha;
            light.b += (b - light.b) * alpha;
        }
        if self.has_a {
            light.a += (a - light.a) * alpha;
        }
        if self.has_dark {
            dark.r += (r2 - dark.r) * alpha;
            dark.g += (g2 - dark.g) * alpha;
            dark.b += (b2 - dark.b) * alpha;
        }
    }
}

/// The keyed colour at `time` as `(r, g, b, a, r2, g2, b2)` (unkeyed channels 0). With
/// `rgb2_dark_at_4`, RGB2 reads its dark beziers at slots 4, 5, 6 (spine-cpp 3.x–4.2 bug;
/// 4.3 reads 3, 4, 5).
#[inline(always)]
fn keyed_color(
    c: CurveTable<'_>,
    time: f32,
    property: ColorProperty,
    rgb2_dark_at_4: bool,
) -> [f32; 7] {
    let mut v = [0.0f32; 7];
    match (property, c.channels) {
        (ColorProperty::Rgb2, _) if rgb2_dark_at_4 => {
            curve_values(c, time, &mut v[..6], &[0, 1, 2, 4, 5, 6])
        }
        // The usual shapes read at once (the same values as the general read).
        (_, 4) => v[..4].copy_from_slice(&curve_values_n::<4>(c, time)),
        (_, 3) => v[..3].copy_from_slice(&curve_values_n::<3>(c, time)),
        (_, 1) => v[0] = curve_value1(c, time),
        (_, 7) => v = curve_values_n::<7>(c, time),
        (_, n) => {
            let slots = &SLOTS[..n.min(7)];
            curve_values(c, time, &mut v[..slots.len()], slots)
        }
    }
    match property {
        ColorProperty::Rgba => [v[0], v[1], v[2], v[3], 0.0, 0.0, 0.0],
        ColorProperty::Rgb => [v[0], v[1], v[2], 0.0, 0.0, 0.0, 0.0],
        ColorProperty::Rgba2 => v,
        ColorProperty::Rgb2 => [v[0], v[1], v[2], 0.0, v[3], v[4], v[5]],
        ColorProperty::Alpha => [0.0, 0.0, 0.0, v[0], 0.0, 0.0, 0.0],
    }
}

/// The colour timelines of spine-cpp 3.5–4.2 (RGBA, RGB, alpha, RGBA2, RGB2).
pub(super) fn apply_color(
    sk: &mut Skeleton,
    data: &SkeletonData,
    si: usize,
    property: ColorProperty,
    c: CurveTable<'_>,
    args: ApplyArgs,
) {
    let ApplyArgs { time, alpha, blend, .. } = args;
    let Some(sd) = data.slots.get(si) else { return };
    let Some(slot) = sk.slots.get_mut(si) else { return };
    let mut target = ColorTarget::new(slot, sd, property);
    let clamp = if time < c.time(0) {
        target.before_first(blend, alpha, data.behaviour.two_color_first_away)
    } else {
        target.apply(keyed_color(c, time, property, true), blend, alpha);
        true
    };
    if clamp && property != ColorProperty::Alpha {
        clamp_color(target.light);
    }
}

/// The color timelines of spine-ts 4.3 (`RGBATimeline`, `RGBTimeline`, `AlphaTimeline`,
/// `RGBA2Timeline`, `RGB2Timeline` `apply1`), which differ from spine-cpp 4.2 in what they
/// clamp: every keyed value is clamped to `0..=1` (alpha too; the dark color whatever the
/// alpha), `Color.set` / `Color.add` clamp the light color of RGBA and RGBA2, and before the
/// first key `MixFrom.first` moves RGB, RGB2 and the dark colors unclamped; `MixFrom.setup`
/// before the first key leaves alpha alone for RGB and RGB2. The dark channels of RGB2 are
/// the curve's channels 3..6 (spine-cpp 4.2 reads the beziers of 4..7).
pub(super) fn apply_color43(
    sk: &mut Skeleton,
    data: &SkeletonData,
    si: usize,
    property: ColorProperty,
    c: CurveTable<'_>,
    args: ApplyArgs,
) {
    let ApplyArgs { time, alpha, blend, .. } = args;
    let Some(sd) = data.slots.get(si) else { return };
    let Some(slot) = sk.slots.get_mut(si) else { return };
    let mut target = ColorTarget::new(slot, sd, property);
    if time < c.time(0) {
        target.before_first43(blend, alpha);
    } else {
        target.apply43(keyed_color(c, time, property, false), blend, alpha);
    }
}

impl ColorTarget<'_> {
    /// `Color.add` / `Color.set` clamp all four channels of the light color (RGBA, RGBA2).
    #[inline(always)]
    fn via_color(&self) -> bool {
        matches!(self.property, ColorProperty::Rgba | ColorProperty::Rgba2)
    }

    /// spine-ts 4.3 before the first key: `Setup` resets the keyed channels, `First` moves
    /// them toward setup (the light colour clamped through `Color`, the dark one not).
    #[inline(always)]
    fn before_first43(&mut self, blend: MixBlend, alpha: f32) {
        match blend {
            MixBlend::Setup => self.reset(self.has_a),
            MixBlend::First => {
                let (setup, setup_dark, via_color) =
                    (self.setup, self.setup_dark, self.via_color());
                let (light, dark) = (&mut *self.light, &mut *self.dark);
                if self.has_rgb {
                    light.r += (setup.r - light.r) * alpha;
                    light.g += (setup.g - light.g) * alpha;
                    light.b += (setup.b - light.b) * alpha;
                }
                if self.has_a {
                    light.a += (setup.a - light.a) * alpha;
                }
                if via_color {
                    clamp_color(light);
                }
                if self.has_dark {
                    dark.r += (setup_dark.r - dark.r) * alpha;
                    dark.g += (setup_dark.g - dark.g) * alpha;
                    dark.b += (setup_dark.b - dark.b) * alpha;
                }
            }
            _ => {}
        }
    }

    /// spine-ts 4.3's keyed colour: mixed from setup (`Setup`) or the current colours by
    /// `alpha`, every value clamped to `0..=1`.
    #[inline(always)]
    fn apply43(&mut self, v: [f32; 7], blend: MixBlend, alpha: f32) {
        let [mut r, mut g, mut b, mut a, mut r2, mut g2, mut b2] = v;
        if alpha != 1.0 {
            let (base, base_dark) = if blend == MixBlend::Setup {
                (self.setup, self.setup_dark)
            } else {
                (*self.light, *self.dark)
            };
            r = base.r + (r - base.r) * alpha;
            g = base.g + (g - base.g) * alpha;
            b = base.b + (b - base.b) * alpha;
            a = base.a + (a - base.a) * alpha;
            r2 = base_dark.r + (r2 - base_dark.r) * alpha;
            g2 = base_dark.g + (g2 - base_dark.g) * alpha;
            b2 = base_dark.b + (b2 - base_dark.b) * alpha;
        }
        let unit = |v: f32| v.clamp(0.0, 1.0);
        let via_color = self.via_color();
        let (light, dark) = (&mut *self.light, &mut *self.dark);
        if self.has_rgb {
            (light.r, light.g, light.b) = (unit(r), unit(g), unit(b));
        }
        if self.has_a {
            light.a = unit(a);
        }
        if via_color {
            clamp_color(light);
        }
        if self.has_dark {
            (dark.r, dark.g, dark.b) = (unit(r2), unit(g2), unit(b2));
        }
    }
}

/// spine-cpp `Color::set`/`add` clamp every channel to `0..=1`.
pub(super) fn clamp_color(c: &mut spine_model::Color) {
    c.r = c.r.clamp(0.0, 1.0);
    c.g = c.g.clamp(0.0, 1.0);
    c.b = c.b.clamp(0.0, 1.0);
    c.a = c.a.clamp(0.0, 1.0);
}

/// 3.x segment percent (`CurveModel::Sampled3x`): with `frame` the key after `time`,
/// `getCurvePercent(frame - 1, 1 - (time - frameTime) / (prevTime - frameTime))`.
pub(crate) fn percent_3x(c: CurveTable<'_>, time: f32, k: usize) -> f32 {
    let frame_time = c.time(k + 1);
    let linear = 1.0 - (time - frame_time) / (c.time(k) - frame_time);
    c.curve_percent_3x(k, linear)
}

/// spine-cpp `DeformTimeline::getCurvePercent`.
pub(super) fn deform_percent(c: CurveTable<'_>, time: f32, k: usize) -> f32 {
    if c.model == CurveModel::Sampled3x {
        return if k + 1 >= c.frame_count() { 0.0 } else { percent_3x(c, time, k) };
    }
    let ty = curve_type(c, k);
    if ty == LINEAR {
        let x = c.time(k);
        return (time - x) / (c.time(k + 1) - x);
    }
    if ty == STEPPED {
        return 0.0;
    }
    let mut i = (ty - BEZIER) as usize;
    if cv(c, i) > time {
        let x = c.time(k);
        return cv(c, i + 1) * (time - x) / (cv(c, i) - x);
    }
    let n = i + BEZIER_SIZE;
    i += 2;
    while i < n {
        if cv(c, i) >= time {
            let x = cv(c, i - 2);
            let y = cv(c, i - 1);
            return y + (time - x) / (cv(c, i) - x) * (cv(c, i + 1) - y);
        }
        i += 2;
    }
    let x = cv(c, n - 2);
    let y = cv(c, n - 1);
    y + (1.0 - y) * (time - x) / (c.time(k + 1) - x)
}

/// The extra slots whose deform and sequence timelines of attachment `a` apply to (4.3
/// `Attachment.timelineSlots`, meshes only).
pub(super) fn timeline_slots(
    data: &SkeletonData,
    a: spine_model::AttachmentId,
) -> &[spine_model::SlotId] {
    match data.attachments.get(a.index()).map(|x| &x.kind) {
        Some(AttachmentKind::Mesh(m)) => &m.timeline_slots,
        _ => &[],
    }
}

/// spine-ts 4.3 `SequenceTimeline` on slot `si` (`setupPose` / `applyToSlot`): the slot's
/// attachment must have `target` as its timeline attachment; mixing out or before the first
/// key restores the setup frame unless mixing from the current pose; the frame count is the
/// slot attachment's; the frame offset is `((time - key) / delay + 0.00001) | 0` (a zero
/// delay adds nothing).
pub(super) fn apply_sequence43(
    sk: &mut Skeleton,
    data: &SkeletonData,
    si: usize,
    target: spine_model::AttachmentId,
    keys: &[spine_model::SequenceKey],
    args: ApplyArgs,
) {
    let ApplyArgs { time, blend, direction, .. } = args;
    let out = direction == MixDirection::Out;
    if !slot_active(sk, si) {
        return;
    }
    let Some(s) = sk.slots.get_mut(si) else { return };
    let Some(current) = s.attachment else { return };
    if timeline_attachment(data, current) != Some(target) {
        return;
    }
    if out || time < keys[0].time {
        if !matches!(blend, MixBlend::Replace | MixBlend::Add) {
            s.sequence_index = -1;
        }
        return;
    }
    let mut k = keys.len() - 1;
    for (i, key) in keys.iter().enumerate().skip(1) {
        if key.time > time {
            k = i - 1;
            break;
        }
    }
    let key = &keys[k];
    let count = match &data.attachment(current).kind {
        AttachmentKind::Region(r) => r.sequence.len() as i32,
        AttachmentKind::Mesh(m) => m.sequence.len() as i32,
        _ => return,
    };
    let mut index = key.index;
    if key.mode != SequenceMode::Hold {
        // JavaScript `| 0`: truncation to 32 bits, non-finite values give 0.
        let q = f64::from((time - key.time) / key.delay) + 0.00001;
        let add = if q.is_finite() { (q.trunc() as i64) as i32 } else { 0 };
        index = index.wrapping_add(add);
        index = sequence_frame(key.mode, index, count);
    }
    s.sequence_index = index;
}

/// spine-cpp `DeformTimeline::apply` on slot `si`: the slot's attachment must have `target`
/// as its timeline attachment; `c` holds the keys' times and curves, `vertices` each key's
/// vertex offsets.
pub(super) fn apply_deform(
    sk: &mut Skeleton,
    data: &SkeletonData,
    si: usize,
    target: spine_model::AttachmentId,
    (c, vertices): (CurveTable<'_>, &[Vec<f32>]),
    args: ApplyArgs,
) {
    let ApplyArgs { time, alpha, mut blend, .. } = args;
    if !slot_active(sk, si) || c.frames.len() < c.stride() {
        return;
    }
    let Some(slot) = sk.slots.get_mut(si) else { return };
    let Some(current) = slot.attachment else { return };
    if timeline_attachment(data, current) != Some(target) {
        return;
    }
    let setup: Option<&[f32]> = match &data.attachment(current).kind {
        AttachmentKind::Mesh(m) => vert_setup(&m.vertices),
        AttachmentKind::BoundingBox(m) => vert_setup(&m.vertices),
        AttachmentKind::Path(m) => vert_setup(&m.vertices),
        AttachmentKind::Clipping(m) => vert_setup(&m.vertices),
        _ => return,
    };
    let deform = &mut slot.deform;
    if deform.is_empty() {
        blend = MixBlend::Setup;
    }
    let Some(first) = vertices.first() else { return };
    let count = first.len();
    if time < c.time(0) {
        deform_before_first(deform, setup, count, blend, alpha);
        return;
    }
    deform.resize(count, 0.0);
    let n = c.frame_count();
    if time >= c.time(n - 1) {
        let last = &vertices[vertices.len().min(n) - 1];
        mix_deform(deform, setup, |i| last.get(i).copied().unwrap_or(0.0), blend, alpha);
        return;
    }
    let k = search(c, time);
    let percent = deform_percent(c, time, k);
    let (Some(prev), Some(next)) = (vertices.get(k), vertices.get(k + 1)) else { return };
    let keyed = |i: usize| {
        let p = prev.get(i).copied().unwrap_or(0.0);
        p + (next.get(i).copied().unwrap_or(0.0) - p) * percent
    };
    mix_deform(deform, setup, keyed, blend, alpha);
}

/// A deform timeline before its first key: the deform cleared (`Setup`, or `First` at full
/// alpha), or moved toward the setup vertices (zero for weighted ones) by `alpha`.
#[inline(always)]
fn deform_before_first(
    deform: &mut Vec<f32>,
    setup: Option<&[f32]>,
    count: usize,
    blend: MixBlend,
    alpha: f32,
) {
    match blend {
        MixBlend::Setup => deform.clear(),
        MixBlend::First => {
            if alpha == 1.0 {
                deform.clear();
                return;
            }
            deform.resize(count, 0.0);
            match setup {
                Some(sv) => {
                    for (d, s) in deform.iter_mut().zip(sv) {
                        *d += (s - *d) * alpha;
                    }
                }
                None => {
                    let alpha = 1.0 - alpha;
                    for d in deform.iter_mut() {
                        *d *= alpha;
                    }
                }
            }
        }
        _ => {}
    }
}

/// The keyed vertex offsets `value(i)` mixed into `deform` by `blend` and `alpha`; added
/// relative to the setup vertices (unweighted attachments) with `Add`.
#[inline(always)]
fn mix_deform(
    deform: &mut [f32],
    setup: Option<&[f32]>,
    value: impl Fn(usize) -> f32,
    blend: MixBlend,
    alpha: f32,
) {
    let sv = setup.unwrap_or(&[]);
    let setup_at = |i: usize| sv.get(i).copied().unwrap_or(0.0);
    if alpha == 1.0 {
        if blend == MixBlend::Add {
            for (i, d) in deform.iter_mut().enumerate() {
                *d += if setup.is_some() { value(i) - setup_at(i) } else { value(i) };
            }
        } else {
            for (i, d) in deform.iter_mut().enumerate() {
                *d = value(i);
            }
        }
        return;
    }
    match blend {
        MixBlend::Setup => {
            for (i, d) in deform.iter_mut().enumerate() {
                *d = if setup.is_some() {
                    let s = setup_at(i);
                    s + (value(i) - s) * alpha
                } else {
                    value(i) * alpha
                };
            }
        }
        MixBlend::First | MixBlend::Replace => {
            for (i, d) in deform.iter_mut().enumerate() {
                *d += (value(i) - *d) * alpha;
            }
        }
        MixBlend::Add => {
            for (i, d) in deform.iter_mut().enumerate() {
                *d += if setup.is_some() {
                    (value(i) - setup_at(i)) * alpha
                } else {
                    value(i) * alpha
                };
            }
        }
    }
}

/// Setup vertices of an unweighted attachment, `None` for weighted ones.
pub(super) fn vert_setup(v: &Vertices) -> Option<&[f32]> {
    match v {
        Vertices::Unweighted(v) => Some(v),
        Vertices::Weighted(_) => None,
    }
}

/// spine-cpp 4.2 `SequenceTimeline::apply`: the sequence index of the slot's attachment
/// at the key before `time`, advanced by the key's mode.
#[inline(always)]
pub(super) fn apply_sequence(
    sk: &mut Skeleton,
    data: &SkeletonData,
    slot: &SlotId,
    attachment: &AttachmentId,
    keys: &[SequenceKey],
    args: ApplyArgs,
) {
    let ApplyArgs { time, blend, .. } = args;
    if !slot_active(sk, slot.index()) || keys.is_empty() {
        return;
    }
    let Some(s) = sk.slots.get_mut(slot.index()) else { return };
    let Some(current) = s.attachment else { return };
    if current != *attachment && timeline_attachment(data, current) != Some(*attachment) {
        return;
    }
    if time < keys[0].time {
        if matches!(blend, MixBlend::Setup | MixBlend::First) {
            s.sequence_index = -1;
        }
        return;
    }
    let mut k = keys.len() - 1;
    for (i, key) in keys.iter().enumerate().skip(1) {
        if key.time > time {
            k = i - 1;
            break;
        }
    }
    let key = &keys[k];
    let count = match &data.attachment(*attachment).kind {
        AttachmentKind::Region(r) => r.sequence.len() as i32,
        AttachmentKind::Mesh(m) => m.sequence.len() as i32,
        _ => return,
    };
    let mut index = key.index;
    if key.mode != SequenceMode::Hold {
        // `delay == 0` gives +inf, saturated by `as`: saturate the sum too.
        index = index.saturating_add((f64::from((time - key.time) / key.delay) + 0.0001) as i32);
        index = sequence_frame(key.mode, index, count);
    }
    s.sequence_index = index;
}

/// spine-cpp `AttachmentTimeline::apply`: the slot's attachment named by the key before
/// `time`.
#[inline(always)]
pub(super) fn apply_attachment(
    sk: &mut Skeleton,
    data: &SkeletonData,
    slot: &SlotId,
    times: &[f32],
    names: &[Option<std::sync::Arc<str>>],
    args: ApplyArgs,
) {
    let ApplyArgs { time, blend, direction, .. } = args;
    if !slot_active(sk, slot.index()) || times.is_empty() {
        return;
    }
    let setup = data.slot(*slot).attachment.as_deref();
    if direction == MixDirection::Out {
        if blend == MixBlend::Setup {
            sk.set_attachment_by_name(*slot, setup);
            return;
        }
        if !data.behaviour.slot_out_applies_keys {
            return;
        }
    }
    if time < times[0] {
        let first = blend == MixBlend::First && data.behaviour.first_blend_resets_slots;
        if blend == MixBlend::Setup || first {
            sk.set_attachment_by_name(*slot, setup);
        }
        return;
    }
    let k = search_times(times, time);
    let name = names.get(k).and_then(|n| n.as_deref());
    sk.set_attachment_by_name(*slot, name);
}

/// The frame a sequence key's `mode` shows, `index` frames after the key's own (the
/// official runtimes' `SequenceTimeline` mode switch; `count` frames). `PingPongReverse`
/// works in `i64`: `index` may be saturated at `i32::MAX` (a delay of 0).
#[inline]
fn sequence_frame(mode: SequenceMode, index: i32, count: i32) -> i32 {
    match mode {
        SequenceMode::Hold => index,
        SequenceMode::Once => (count - 1).min(index),
        SequenceMode::Loop => index.checked_rem(count).unwrap_or(0),
        SequenceMode::PingPong => {
            let n = (count << 1) - 2;
            let i = if n == 0 { 0 } else { index % n };
            if i >= count {
                n - i
            } else {
                i
            }
        }
        SequenceMode::OnceReverse => (count - 1).saturating_sub(index).max(0),
        SequenceMode::LoopReverse => count - 1 - index.checked_rem(count).unwrap_or(0),
        SequenceMode::PingPongReverse => {
            let n = (count << 1) - 2;
            let i = if n == 0 {
                0
            } else {
                ((i64::from(index) + i64::from(count) - 1) % i64::from(n)) as i32
            };
            if i >= count {
                n - i
            } else {
                i
            }
        }
    }
}
