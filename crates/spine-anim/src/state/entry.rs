//! Track entries: setting, queueing and clearing animations on tracks.

use super::*;

impl AnimationState {
    /// The delay of `entry` queued after `last` for a requested `delay <= 0`
    /// ([`AddDelay`](spine_model::AddDelay) rules of the data's runtime).
    pub(super) fn queued_delay(&self, last: EntryId, entry: EntryId, mut delay: f32) -> f32 {
        use spine_model::AddDelay;
        let l = self.e(last);
        let mix = self.e(entry).mix_duration;
        let rules = self.data.skeleton_data.behaviour.add_delay;
        if rules == AddDelay::Spine4 {
            return delay + l.track_complete() - mix;
        }
        let (d, t) = (l.animation_end - l.animation_start, l.track_time);
        if d == 0.0 {
            return if rules == AddDelay::Spine37 { t } else { 0.0 };
        }
        let next_loop = d * (1 + (t / d) as i32) as f32;
        match rules {
            AddDelay::Spine35 => delay += next_loop - mix,
            _ => {
                delay += match (l.looping, rules) {
                    (true, _) => next_loop,
                    (false, AddDelay::Spine36) => d,
                    (false, _) => d.max(t),
                };
                delay -= mix;
            }
        }
        delay
    }

    /// Removes every track (spine-cpp `clearTracks`).
    pub fn clear_tracks(&mut self) {
        let old = self.drain_disabled;
        self.drain_disabled = true;
        for i in 0..self.tracks.len() {
            self.clear_track(i);
        }
        self.tracks.clear();
        self.drain_disabled = old;
        self.drain();
    }

    /// Removes a track's entries (spine-cpp `clearTrack`).
    pub fn clear_track(&mut self, track: usize) {
        let Some(cur) = self.current(track) else { return };
        self.push(Queued::End, cur);
        self.clear_next(cur);
        let mut entry = cur;
        while let Some(from) = self.e(entry).mixing_from {
            self.push(Queued::End, from);
            self.em(entry).mixing_from = None;
            self.em(entry).mixing_to = None;
            entry = from;
        }
        let ti = self.e(cur).track_index;
        if let Some(t) = self.tracks.get_mut(ti) {
            *t = None;
        }
        self.drain();
    }

    /// Sets the current animation of a track, mixing from the previous one
    /// (`None` = the empty animation).
    pub fn set_animation(
        &mut self,
        track: usize,
        animation: Option<AnimationId>,
        looping: bool,
    ) -> EntryId {
        let mut interrupt = true;
        let mut current = self.expand_to_index(track);
        if let Some(c) = current {
            if self.e(c).next_track_last == -1.0 {
                let from = self.e(c).mixing_from;
                self.tracks[track] = from;
                self.push(Queued::Interrupt, c);
                self.push(Queued::End, c);
                self.clear_next(c);
                current = from;
                interrupt = false;
            } else {
                self.clear_next(c);
            }
        }
        let entry = self.new_entry(track, animation, looping, current);
        self.set_current(track, entry, interrupt);
        self.drain();
        entry
    }

    /// Sets the current animation by name; `None` when unknown.
    pub fn set_animation_by_name(
        &mut self,
        track: usize,
        name: &str,
        looping: bool,
    ) -> Option<EntryId> {
        let a = self.data.skeleton_data.find_animation(name)?;
        Some(self.set_animation(track, Some(a), looping))
    }

    /// Queues an animation after the track's last entry, `delay` seconds after it starts
    /// (`<= 0`: relative to its completion minus the mix duration).
    pub fn add_animation(
        &mut self,
        track: usize,
        animation: Option<AnimationId>,
        looping: bool,
        mut delay: f32,
    ) -> EntryId {
        let mut last = self.expand_to_index(track);
        if let Some(mut l) = last {
            while let Some(n) = self.e(l).next {
                l = n;
            }
            last = Some(l);
        }
        let entry = self.new_entry(track, animation, looping, last);
        match last {
            None => {
                self.set_current(track, entry, true);
                self.drain();
            }
            Some(l) => {
                self.em(l).next = Some(entry);
                self.em(entry).previous = Some(l);
                if delay <= 0.0 {
                    delay = self.queued_delay(l, entry, delay);
                }
            }
        }
        self.em(entry).set_exact(T_DELAY, f64::from(delay));
        entry
    }

    /// Queues an animation by name; `None` when unknown.
    pub fn add_animation_by_name(
        &mut self,
        track: usize,
        name: &str,
        looping: bool,
        delay: f32,
    ) -> Option<EntryId> {
        let a = self.data.skeleton_data.find_animation(name)?;
        Some(self.add_animation(track, Some(a), looping, delay))
    }

    /// Mixes the track out to the setup pose over `mix_duration`.
    pub fn set_empty_animation(&mut self, track: usize, mix_duration: f32) -> EntryId {
        let e = self.set_animation(track, None, false);
        let en = self.em(e);
        en.mix_duration = mix_duration;
        en.track_end = mix_duration;
        e
    }

    /// Queues a mix to the setup pose.
    pub fn add_empty_animation(&mut self, track: usize, mix_duration: f32, delay: f32) -> EntryId {
        if self.data.skeleton_data.behaviour.add_delay != spine_model::AddDelay::Spine4 {
            // 3.x: the mix duration comes off the requested delay first.
            let d = if delay <= 0.0 { delay - mix_duration } else { delay };
            let e = self.add_animation(track, None, false, d);
            let en = self.em(e);
            en.mix_duration = mix_duration;
            en.track_end = mix_duration;
            return e;
        }
        let e = self.add_animation(track, None, false, delay);
        let en = self.em(e);
        if delay <= 0.0 {
            en.delay += en.mix_duration - mix_duration;
        }
        en.mix_duration = mix_duration;
        en.track_end = mix_duration;
        e
    }

    /// Mixes every track out to the setup pose.
    pub fn set_empty_animations(&mut self, mix_duration: f32) {
        let old = self.drain_disabled;
        self.drain_disabled = true;
        for i in 0..self.tracks.len() {
            if self.tracks[i].is_some() {
                self.set_empty_animation(i, mix_duration);
            }
        }
        self.drain_disabled = old;
        self.drain();
    }

    /// spine-cpp `TrackEntry::setMixDuration(mixDuration, delay)`.
    pub fn set_mix_duration(&mut self, entry: EntryId, mix_duration: f32, mut delay: f32) {
        self.em(entry).mix_duration = mix_duration;
        if let Some(p) = self.e(entry).previous {
            if delay <= 0.0 {
                delay += self.e(p).track_complete() - mix_duration;
            }
        }
        self.em(entry).set_exact(T_DELAY, f64::from(delay));
    }

    pub(super) fn set_current(&mut self, index: usize, current: EntryId, interrupt: bool) {
        let from = self.expand_to_index(index);
        self.tracks[index] = Some(current);
        self.em(current).previous = None;
        if let Some(f) = from {
            if interrupt {
                self.push(Queued::Interrupt, f);
            }
            self.em(current).mixing_from = Some(f);
            self.em(f).mixing_to = Some(current);
            self.em(current).set_exact(T_MIX, 0.0);
            // (4.3 has no interrupt alpha.)
            let v43 = self.data.skeleton_data.behaviour.mix_from_add_model;
            if !v43 && self.e(f).mixing_from.is_some() && self.e(f).mix_duration > 0.0 {
                let r = (self.e(f).mix_time / self.e(f).mix_duration).min(1.0);
                self.em(current).interrupt_alpha *= r;
            }
            self.em(f).timelines_rotation.clear();
        }
        self.push(Queued::Start, current);
    }

    pub(super) fn expand_to_index(&mut self, index: usize) -> Option<EntryId> {
        if index < self.tracks.len() {
            return self.tracks[index];
        }
        self.tracks.resize(index + 1, None);
        None
    }

    pub(super) fn new_entry(
        &mut self,
        track: usize,
        animation: Option<AnimationId>,
        looping: bool,
        last: Option<EntryId>,
    ) -> EntryId {
        let duration = animation.map_or(0.0, |a| self.data.skeleton_data.animation(a).duration);
        let mix_duration = last.map_or(0.0, |l| self.data.mix(self.e(l).animation, animation));
        let id = match self.free.pop() {
            Some(id) => id,
            None => {
                self.entries.push(TrackEntry::default());
                EntryId(self.entries.len() as u32 - 1)
            }
        };
        let e = self.em(id);
        e.animation = animation;
        e.previous = None;
        e.next = None;
        e.mixing_from = None;
        e.mixing_to = None;
        e.track_index = track;
        e.looping = looping;
        e.hold_previous = false;
        e.reverse = false;
        e.shortest_rotation = false;
        e.event_threshold = 0.0;
        e.alpha_attachment_threshold = 0.0;
        e.mix_attachment_threshold = 0.0;
        e.mix_draw_order_threshold = 0.0;
        e.animation_start = 0.0;
        e.animation_end = duration;
        e.animation_last = -1.0;
        e.next_animation_last = -1.0;
        e.delay = 0.0;
        e.track_time = 0.0;
        e.track_last = -1.0;
        e.next_track_last = -1.0;
        e.time64 = [0.0, 0.0, -1.0, -1.0, 0.0];
        e.track_end = f32::MAX;
        e.time_scale = 1.0;
        e.alpha = 1.0;
        e.mix_time = 0.0;
        e.mix_duration = mix_duration;
        e.interrupt_alpha = 1.0;
        e.total_alpha = 0.0;
        e.mix_blend = MixBlend::Replace;
        e.timeline_mode.clear();
        e.timeline_hold_mix.clear();
        e.timelines_rotation.clear();
        e.active_key = (0, None);
        id
    }

    pub(super) fn clear_next(&mut self, entry: EntryId) {
        let mut next = self.e(entry).next;
        while let Some(n) = next {
            self.push(Queued::Dispose, n);
            next = self.e(n).next;
        }
        self.em(entry).next = None;
    }

    pub(super) fn compute_animations_changed(&mut self) {
        self.animations_changed = false;
        self.property_ids.clear();
        for i in 0..self.tracks.len() {
            let Some(mut entry) = self.tracks[i] else { continue };
            while let Some(f) = self.e(entry).mixing_from {
                entry = f;
            }
            let mut cur = Some(entry);
            while let Some(e) = cur {
                if self.e(e).mixing_to.is_none() || self.e(e).mix_blend != MixBlend::Add {
                    self.compute_hold(e);
                }
                cur = self.e(e).mixing_to;
            }
        }
    }
}
