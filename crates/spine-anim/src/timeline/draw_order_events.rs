//! Draw-order folders and event firing.

use super::*;

/// Writes `order` (a permutation of the folder's `slots`) into the positions of
/// `draw_order` that hold a folder slot, first to last (spine-cpp 4.3
/// `DrawOrderFolderTimeline::setup` / `apply`). Never allocates.
pub(super) fn place_folder(
    draw_order: &mut [spine_model::SlotId],
    slots: &[spine_model::SlotId],
    order: &[spine_model::SlotId],
) {
    let mut next = order.iter();
    for d in draw_order.iter_mut() {
        if slots.contains(d) {
            let Some(s) = next.next() else { return };
            *d = *s;
        }
    }
}

pub(super) fn fire_events(
    animation: AnimationId,
    timeline: u32,
    keys: &[spine_model::EventKey],
    mut last_time: f32,
    time: f32,
    events: &mut Vec<EventRef>,
) {
    let n = keys.len();
    if n == 0 {
        return;
    }
    if last_time > time {
        fire_events(animation, timeline, keys, last_time, f32::MAX, events);
        last_time = -1.0;
    } else if last_time >= keys[n - 1].time {
        return;
    }
    if time < keys[0].time {
        return;
    }
    let mut i;
    if last_time < keys[0].time {
        i = 0;
    } else {
        let mut s = n - 1;
        for (j, k) in keys.iter().enumerate().skip(1) {
            if k.time > last_time {
                s = j - 1;
                break;
            }
        }
        i = s + 1;
        let frame_time = keys.get(i).map_or(f32::NAN, |k| k.time);
        while i > 0 {
            if keys[i - 1].time != frame_time {
                break;
            }
            i -= 1;
        }
    }
    while i < n && time >= keys[i].time {
        events.push(EventRef { animation, timeline, key: i as u32 });
        i += 1;
    }
}

/// spine-cpp `DrawOrderTimeline::apply`.
#[inline(always)]
pub(super) fn apply_draw_order(
    sk: &mut Skeleton,
    data: &SkeletonData,
    times: &[f32],
    orders: &[Option<Vec<spine_model::SlotId>>],
    args: ApplyArgs,
) {
    let ApplyArgs { time, blend, direction, .. } = args;
    if times.is_empty() {
        return;
    }
    let to_setup = |sk: &mut Skeleton| {
        let n = sk.slots.len() as u32;
        sk.draw_order.clear();
        sk.draw_order.extend((0..n).map(|i| spine_model::SlotId::from_index(i as usize)));
    };
    if direction == MixDirection::Out {
        // 4.3: `out` goes to setup unless mixing from the current pose.
        if blend == MixBlend::Setup
            || (blend == MixBlend::First && data.behaviour.mix_from_add_model)
        {
            to_setup(sk);
            return;
        }
        if !data.behaviour.slot_out_applies_keys {
            return;
        }
    }
    if time < times[0] {
        let first = blend == MixBlend::First && data.behaviour.first_blend_resets_slots;
        if blend == MixBlend::Setup || first {
            to_setup(sk);
        }
        return;
    }
    match orders.get(search_times(times, time)) {
        Some(Some(order)) if !order.is_empty() => {
            for (d, s) in sk.draw_order.iter_mut().zip(order) {
                *d = *s;
            }
        }
        _ => to_setup(sk),
    }
}

/// spine-cpp 4.3 `DrawOrderFolderTimeline::apply`.
#[inline(always)]
pub(super) fn apply_draw_order_folder(
    sk: &mut Skeleton,
    slots: &[spine_model::SlotId],
    times: &[f32],
    orders: &[Option<Vec<spine_model::SlotId>>],
    args: ApplyArgs,
) {
    let ApplyArgs { time, blend, direction, .. } = args;
    // spine-cpp 4.3 `DrawOrderFolderTimeline::apply`: only the draw-order positions
    // holding a folder slot change; "from current" (replace/add) leaves the order
    // alone when mixing out or before the first key, else the folder goes back to
    // its setup order.
    if times.is_empty() {
        return;
    }
    if direction == MixDirection::Out || time < times[0] {
        if matches!(blend, MixBlend::Setup | MixBlend::First) {
            place_folder(&mut sk.draw_order, slots, slots);
        }
        return;
    }
    match orders.get(search_times(times, time)) {
        Some(Some(order)) if order.len() == slots.len() => {
            place_folder(&mut sk.draw_order, slots, order)
        }
        _ => place_folder(&mut sk.draw_order, slots, slots),
    }
}
