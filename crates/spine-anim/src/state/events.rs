//! The listener-event queue: queueing, draining, disposing entries; event timelines.

use super::*;

impl AnimationState {
    pub(super) fn push(&mut self, q: Queued, id: EntryId) {
        if matches!(q, Queued::Start | Queued::End) {
            self.animations_changed = true;
        }
        self.queue.push((q, id));
    }

    pub(super) fn drain(&mut self) {
        if self.drain_disabled {
            return;
        }
        self.drain_disabled = true;
        let mut i = 0;
        while i < self.queue.len() {
            let (q, id) = self.queue[i];
            let (track, animation) = {
                let e = self.e(id);
                (e.track_index, e.animation)
            };
            let ev = |kind| StateEvent { kind, entry: id, track, animation };
            match q {
                Queued::Start => self.fired.push(ev(StateEventType::Start)),
                Queued::Interrupt => self.fired.push(ev(StateEventType::Interrupt)),
                Queued::Complete => self.fired.push(ev(StateEventType::Complete)),
                Queued::Event(r) => self.fired.push(ev(StateEventType::Event(r))),
                Queued::End | Queued::Dispose => {
                    if matches!(q, Queued::End) {
                        self.fired.push(ev(StateEventType::End));
                    }
                    self.fired.push(ev(StateEventType::Dispose));
                    self.dispose_entry(id);
                }
            }
            i += 1;
        }
        self.queue.clear();
        self.drain_disabled = false;
    }

    pub(super) fn dispose_entry(&mut self, id: EntryId) {
        let e = self.em(id);
        e.animation = None;
        e.previous = None;
        e.next = None;
        e.mixing_from = None;
        e.mixing_to = None;
        e.timeline_mode.clear();
        e.timeline_hold_mix.clear();
        e.timelines_rotation.clear();
        self.free.push(id);
    }

    pub(super) fn queue_events(
        &mut self,
        entry: EntryId,
        animation_time: f32,
        events: &[EventRef],
        sd: &SkeletonData,
    ) {
        let e = self.e(entry);
        let (start, end) = (e.animation_start, e.animation_end);
        let duration = end - start;
        let behaviour = &self.data.skeleton_data.behaviour;
        // Read by the events loop and by the wrapped loop-complete test only (most frames
        // have neither: no division then).
        let wrapped_complete = e.looping && duration != 0.0 && behaviour.loop_complete_wrapped;
        let track_last_wrapped = if duration != 0.0 && (!events.is_empty() || wrapped_complete) {
            math::fmod(e.track_last, duration)
        } else {
            f32::NAN
        };
        let time_of = |r: &EventRef| r.key(sd).map_or(0.0, |k| k.time);
        let mut i = 0;
        let n = events.len();
        while i < n {
            let t = time_of(&events[i]);
            if t < track_last_wrapped {
                break;
            }
            i += 1;
            if t > end {
                continue;
            }
            self.push(Queued::Event(events[i - 1]), entry);
        }
        let e = self.e(entry);
        let complete = if e.looping {
            if duration == 0.0 {
                self.data.skeleton_data.behaviour.empty_loop_completes
            } else if self.data.skeleton_data.behaviour.loop_complete_wrapped {
                track_last_wrapped > math::fmod(e.track_time, duration)
            } else {
                let cycles = (e.track_time / duration) as i32;
                cycles > 0 && cycles > (e.track_last / duration) as i32
            }
        } else {
            animation_time >= end && e.animation_last < end
        };
        if complete {
            self.push(Queued::Complete, entry);
        }
        while i < n {
            let t = time_of(&events[i]);
            if t >= start {
                self.push(Queued::Event(events[i]), entry);
            }
            i += 1;
        }
    }
}
