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
