//! Slot timelines: colour, deform and sequence.

use super::*;
use spine_model::{AttachmentId, SequenceKey, SlotId};

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
    let setup = sd.color;
    let setup_dark = sd.dark_color.unwrap_or(spine_model::Color { r: 0.0, g: 0.0, b: 0.0, a: 0.0 });
    let light = &mut slot.color;
    let dark = &mut slot.dark_color;
    let (has_rgb, has_a, has_dark) = match property {
        ColorProperty::Rgba => (true, true, false),
        ColorProperty::Rgb => (true, false, false),
        ColorProperty::Rgba2 => (true, true, true),
        ColorProperty::Rgb2 => (true, false, true),
        ColorProperty::Alpha => (false, true, false),
    };
    if time < c.time(0) {
        match blend {
            MixBlend::Setup => {
                if has_rgb {
                    light.r = setup.r;
                    light.g = setup.g;
                    light.b = setup.b;
                }
                // RGBA sets alpha too; RGB2's before-first-key setup keeps alpha, RGB's
                // `color.set(setup)` copies all four.
                if has_a || property == ColorProperty::Rgb {
                    light.a = setup.a;
                }
                if has_dark {
                    dark.r = setup_dark.r;
                    dark.g = setup_dark.g;
                    dark.b = setup_dark.b;
                }
            }
            MixBlend::First if has_dark && data.behaviour.two_color_first_away => {
                // spine-cpp 3.7/3.8: away from setup, unclamped.
                light.r += (light.r - setup.r) * alpha;
                light.g += (light.g - setup.g) * alpha;
                light.b += (light.b - setup.b) * alpha;
                light.a += (light.a - setup.a) * alpha;
                dark.r += (dark.r - setup_dark.r) * alpha;
                dark.g += (dark.g - setup_dark.g) * alpha;
                dark.b += (dark.b - setup_dark.b) * alpha;
                return;
            }
            MixBlend::First => {
                if has_rgb {
                    light.r += (setup.r - light.r) * alpha;
                    light.g += (setup.g - light.g) * alpha;
                    light.b += (setup.b - light.b) * alpha;
                }
                if has_a || property == ColorProperty::Rgb {
                    light.a += (setup.a - light.a) * alpha;
                }
                if has_dark {
                    dark.r += (setup_dark.r - dark.r) * alpha;
                    dark.g += (setup_dark.g - dark.g) * alpha;
                    dark.b += (setup_dark.b - dark.b) * alpha;
                }
            }
            _ => {}
        }
        if property != ColorProperty::Alpha {
            clamp_color(light);
        }
        return;
    }
    // Values in channel order; RGB2 reads its dark beziers at slots 4, 5, 6 (spine-cpp bug).
    let mut v = [0.0f32; 7];
    match (property, c.channels) {
        (ColorProperty::Rgb2, _) => curve_values(c, time, &mut v[..6], &[0, 1, 2, 4, 5, 6]),
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
    let (r, g, b, a, r2, g2, b2) = match property {
        ColorProperty::Rgba => (v[0], v[1], v[2], v[3], 0.0, 0.0, 0.0),
        ColorProperty::Rgb => (v[0], v[1], v[2], 0.0, 0.0, 0.0, 0.0),
        ColorProperty::Rgba2 => (v[0], v[1], v[2], v[3], v[4], v[5], v[6]),
        ColorProperty::Rgb2 => (v[0], v[1], v[2], 0.0, v[3], v[4], v[5]),
        ColorProperty::Alpha => (0.0, 0.0, 0.0, v[0], 0.0, 0.0, 0.0),
    };
    if alpha == 1.0 {
        if has_rgb {
            light.r = r;
            light.g = g;
            light.b = b;
        }
        if has_a {
            light.a = a;
        }
        if has_dark {
            dark.r = r2;
            dark.g = g2;
            dark.b = b2;
            clamp_color(dark);
        }
    } else {
        if blend == MixBlend::Setup {
            if has_rgb {
                light.r = setup.r;
                light.g = setup.g;
                light.b = setup.b;
            }
            if has_a || property == ColorProperty::Rgba {
                light.a = setup.a;
            }
            if has_dark {
                dark.r = setup_dark.r;
                dark.g = setup_dark.g;
                dark.b = setup_dark.b;
            }
        }
        if has_rgb {
            light.r += (r - light.r) * alpha;
            light.g += (g - light.g) * alpha;
            light.b += (b - light.b) * alpha;
        }
        if has_a {
            light.a += (a - light.a) * alpha;
        }
        if has_dark {
            dark.r += (r2 - dark.r) * alpha;
            dark.g += (g2 - dark.g) * alpha;
            dark.b += (b2 - dark.b) * alpha;
        }
    }
    if property != ColorProperty::Alpha {
        clamp_color(light);
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
    let setup = sd.color;
    let setup_dark = sd.dark_color.unwrap_or(spine_model::Color { r: 0.0, g: 0.0, b: 0.0, a: 0.0 });
    let light = &mut slot.color;
    let dark = &mut slot.dark_color;
    let (has_rgb, has_a, has_dark) = match property {
        ColorProperty::Rgba => (true, true, false),
        ColorProperty::Rgb => (true, false, false),
        ColorProperty::Rgba2 => (true, true, true),
        ColorProperty::Rgb2 => (true, false, true),
        ColorProperty::Alpha => (false, true, false),
    };
    // `Color.add` / `Color.set` clamp all four channels of the light color.
    let via_color = matches!(property, ColorProperty::Rgba | ColorProperty::Rgba2);
    if time < c.time(0) {
        match blend {
            MixBlend::Setup => {
                if has_rgb {
                    (light.r, light.g, light.b) = (setup.r, setup.g, setup.b);
                }
                if has_a {
                    light.a = setup.a;
                }
                if has_dark {
                    (dark.r, dark.g, dark.b) = (setup_dark.r, setup_dark.g, setup_dark.b);
                }
            }
            MixBlend::First => {
                if has_rgb {
                    light.r += (setup.r - light.r) * alpha;
                    light.g += (setup.g - light.g) * alpha;
                    light.b += (setup.b - light.b) * alpha;
                }
                if has_a {
                    light.a += (setup.a - light.a) * alpha;
                }
                if via_color {
                    clamp_color(light);
                }
                if has_dark {
                    dark.r += (setup_dark.r - dark.r) * alpha;
                    dark.g += (setup_dark.g - dark.g) * alpha;
                    dark.b += (setup_dark.b - dark.b) * alpha;
                }
            }
            _ => {}
        }
        return;
    }
    let mut v = [0.0f32; 7];
    match c.channels {
        4 => v[..4].copy_from_slice(&curve_values_n::<4>(c, time)),
        3 => v[..3].copy_from_slice(&curve_values_n::<3>(c, time)),
        1 => v[0] = curve_value1(c, time),
        7 => v = curve_values_n::<7>(c, time),
        n => {
            let slots = &SLOTS[..n.min(7)];
            curve_values(c, time, &mut v[..slots.len()], slots)
        }
    }
    let (mut r, mut g, mut b, mut a, mut r2, mut g2, mut b2) = match property {
        ColorProperty::Rgba => (v[0], v[1], v[2], v[3], 0.0, 0.0, 0.0),
        ColorProperty::Rgb => (v[0], v[1], v[2], 0.0, 0.0, 0.0, 0.0),
        ColorProperty::Rgba2 => (v[0], v[1], v[2], v[3], v[4], v[5], v[6]),
        ColorProperty::Rgb2 => (v[0], v[1], v[2], 0.0, v[3], v[4], v[5]),
        ColorProperty::Alpha => (0.0, 0.0, 0.0, v[0], 0.0, 0.0, 0.0),
    };
    if alpha != 1.0 {
        let (base, base_dark) =
            if blend == MixBlend::Setup { (setup, setup_dark) } else { (*light, *dark) };
        r = base.r + (r - base.r) * alpha;
        g = base.g + (g - base.g) * alpha;
        b = base.b + (b - base.b) * alpha;
        a = base.a + (a - base.a) * alpha;
        r2 = base_dark.r + (r2 - base_dark.r) * alpha;
        g2 = base_dark.g + (g2 - base_dark.g) * alpha;
        b2 = base_dark.b + (b2 - base_dark.b) * alpha;
    }
    let unit = |v: f32| v.clamp(0.0, 1.0);
    if has_rgb {
        (light.r, light.g, light.b) = (unit(r), unit(g), unit(b));
    }
    if has_a {
        light.a = unit(a);
    }
    if via_color {
        clamp_color(light);
    }
    if has_dark {
        (dark.r, dark.g, dark.b) = (unit(r2), unit(g2), unit(b2));
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
    let ApplyArgs { time, mut alpha, mut blend, .. } = args;
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
                        alpha = 1.0 - alpha;
                        for d in deform.iter_mut() {
                            *d *= alpha;
                        }
                    }
                }
            }
            _ => {}
        }
        return;
    }
    deform.resize(count, 0.0);
    let n = c.frame_count();
    let zero: &[f32] = &[];
    let sv = setup.unwrap_or(zero);
    let setup_at = |i: usize| sv.get(i).copied().unwrap_or(0.0);
    if time >= c.time(n - 1) {
        let last = &vertices[vertices.len().min(n) - 1];
        let lv = |i: usize| last.get(i).copied().unwrap_or(0.0);
        if alpha == 1.0 {
            if blend == MixBlend::Add {
                for (i, d) in deform.iter_mut().enumerate() {
                    *d += if setup.is_some() { lv(i) - setup_at(i) } else { lv(i) };
                }
            } else {
                for (i, d) in deform.iter_mut().enumerate() {
                    *d = lv(i);
                }
            }
        } else {
            match blend {
                MixBlend::Setup => {
                    for (i, d) in deform.iter_mut().enumerate() {
                        *d = if setup.is_some() {
                            let s = setup_at(i);
                            s + (lv(i) - s) * alpha
                        } else {
                            lv(i) * alpha
                        };
                    }
                }
                MixBlend::First | MixBlend::Replace => {
                    for (i, d) in deform.iter_mut().enumerate() {
                        *d += (lv(i) - *d) * alpha;
                    }
                }
                MixBlend::Add => {
                    for (i, d) in deform.iter_mut().enumerate() {
                        *d += if setup.is_some() {
                            (lv(i) - setup_at(i)) * alpha
                        } else {
                            lv(i) * alpha
                        };
                    }
                }
            }
        }
        return;
    }
    let k = search(c, time);
    let percent = deform_percent(c, time, k);
    let (Some(prev), Some(next)) = (vertices.get(k), vertices.get(k + 1)) else { return };
    let pv = |i: usize| {
        let p = prev.get(i).copied().unwrap_or(0.0);
        p + (next.get(i).copied().unwrap_or(0.0) - p) * percent
    };
    if alpha == 1.0 {
        if blend == MixBlend::Add {
            for (i, d) in deform.iter_mut().enumerate() {
                *d += if setup.is_some() { pv(i) - setup_at(i) } else { pv(i) };
            }
        } else {
            for (i, d) in deform.iter_mut().enumerate() {
                *d = pv(i);
            }
        }
    } else {
        match blend {
            MixBlend::Setup => {
                for (i, d) in deform.iter_mut().enumerate() {
                    *d = if setup.is_some() {
                        let s = setup_at(i);
                        s + (pv(i) - s) * alpha
                    } else {
                        pv(i) * alpha
                    };
                }
            }
            MixBlend::First | MixBlend::Replace => {
                for (i, d) in deform.iter_mut().enumerate() {
                    *d += (pv(i) - *d) * alpha;
                }
            }
            MixBlend::Add => {
                for (i, d) in deform.iter_mut().enumerate() {
                    *d +=
                        if setup.is_some() { (pv(i) - setup_at(i)) * alpha } else { pv(i) * alpha };
                }
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
