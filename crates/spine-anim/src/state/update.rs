//! Advancing time: `AnimationState::update` (4.2 and 4.3) and mixing-out progress.

use super::*;

impl AnimationState {
    /// Advances every track by `delta` seconds (spine-cpp `AnimationState::update`).
    ///
    /// 4.3 data follows spine-ts 4.3 `AnimationState.update`, which sums the times in
    /// `f64`: see `AnimationState::update43`.
    pub fn update(&mut self, delta: f32) {
        if self.data.skeleton_data.behaviour.mix_from_add_model {
            self.update43(delta);
            return;
        }
        let delta = delta * self.time_scale;
        for i in 0..self.tracks.len() {
            let Some(cur) = self.tracks[i] else { continue };
            {
                let c = self.em(cur);
                c.animation_last = c.next_animation_last;
                c.track_last = c.next_track_last;
            }
            let mut current_delta = delta * self.e(cur).time_scale;
            if self.e(cur).delay > 0.0 {
                let c = self.em(cur);
                c.delay -= current_delta;
                if c.delay > 0.0 {
                    continue;
                }
                current_delta = -c.delay;
                c.delay = 0.0;
            }
            if let Some(next) = self.e(cur).next {
                let next_time = self.e(cur).track_last - self.e(next).delay;
                if next_time >= 0.0 {
                    let cur_scale = self.e(cur).time_scale;
                    let spine_c = self.data.skeleton_data.behaviour.mix_time_scaled_by_entry;
                    let n = self.em(next);
                    n.delay = 0.0;
                    if spine_c {
                        n.track_time = next_time + delta * n.time_scale;
                    } else {
                        n.track_time += if cur_scale == 0.0 {
                            0.0
                        } else {
                            (next_time / cur_scale + delta) * n.time_scale
                        };
                    }
                    self.em(cur).track_time += current_delta;
                    self.set_current(i, next, true);
                    let mix_delta = if spine_c { current_delta } else { delta };
                    let mut n = Some(next);
                    while let Some(x) = n {
                        let Some(from) = self.e(x).mixing_from else { break };
                        self.em(x).mix_time += mix_delta;
                        n = Some(from);
                    }
                    continue;
                }
            } else if self.e(cur).track_last >= self.e(cur).track_end
                && self.e(cur).mixing_from.is_none()
            {
                self.tracks[i] = None;
                self.push(Queued::End, cur);
                self.clear_next(cur);
                continue;
            }
            if self.data.skeleton_data.behaviour.mix_without_hold {
                self.update_mixing_from_35(cur, delta);
            } else if self.e(cur).mixing_from.is_some() && self.update_mixing_from(cur, delta) {
                let mut from = self.e(cur).mixing_from;
                self.em(cur).mixing_from = None;
                if let Some(f) = from {
                    self.em(f).mixing_to = None;
                }
                while let Some(f) = from {
                    self.push(Queued::End, f);
                    from = self.e(f).mixing_from;
                }
            }
            self.em(cur).track_time += current_delta;
        }
        self.drain();
    }

    /// spine-ts 4.3 `AnimationState.update`. The track times, delays and mix times are
    /// summed in `f64` (the field holds the rounded sum): a key time reached by the sum of
    /// frame deltas is then passed in the frame the official runtime passes it (an `f32` sum
    /// drifts and can reach it a frame later). A mix ends once the entry mixed in was
    /// applied and its mix time reached the mix duration.
    pub(super) fn update43(&mut self, delta: f32) {
        let delta = f64::from(delta) * f64::from(self.time_scale);
        for i in 0..self.tracks.len() {
            let Some(cur) = self.tracks[i] else { continue };
            {
                let c = self.em(cur);
                c.animation_last = c.next_animation_last;
                let last = c.exact(T_NEXT_LAST);
                c.set_exact(T_LAST, last);
            }
            let mut current_delta = delta * f64::from(self.e(cur).time_scale);
            if self.e(cur).delay > 0.0 {
                let c = self.em(cur);
                let d = c.exact(T_DELAY) - current_delta;
                c.set_exact(T_DELAY, d);
                if d > 0.0 {
                    continue;
                }
                current_delta = -d;
                c.set_exact(T_DELAY, 0.0);
            }
            if let Some(next) = self.e(cur).next {
                let next_time = self.em(cur).exact(T_LAST) - self.em(next).exact(T_DELAY);
                if next_time >= 0.0 {
                    let cur_scale = f64::from(self.e(cur).time_scale);
                    let n = self.em(next);
                    n.set_exact(T_DELAY, 0.0);
                    let add = if cur_scale == 0.0 {
                        0.0
                    } else {
                        (next_time / cur_scale + delta) * f64::from(n.time_scale)
                    };
                    let t = n.exact(T_TRACK) + add;
                    n.set_exact(T_TRACK, t);
                    let c = self.em(cur);
                    let t = c.exact(T_TRACK) + current_delta;
                    c.set_exact(T_TRACK, t);
                    self.set_current(i, next, true);
                    let mut n = Some(next);
                    while let Some(x) = n {
                        let Some(from) = self.e(x).mixing_from else { break };
                        let e = self.em(x);
                        let m = e.exact(T_MIX) + delta;
                        e.set_exact(T_MIX, m);
                        n = Some(from);
                    }
                    continue;
                }
            } else if self.e(cur).track_last >= self.e(cur).track_end
                && self.e(cur).mixing_from.is_none()
            {
                self.tracks[i] = None;
                self.push(Queued::End, cur);
                self.clear_next(cur);
                continue;
            }
            if self.e(cur).mixing_from.is_some() && self.update_mixing_from43(cur, delta) {
                let mut from = self.e(cur).mixing_from;
                self.em(cur).mixing_from = None;
                if let Some(f) = from {
                    self.em(f).mixing_to = None;
                }
                while let Some(f) = from {
                    self.push(Queued::End, f);
                    from = self.e(f).mixing_from;
                }
            }
            let c = self.em(cur);
            let t = c.exact(T_TRACK) + current_delta;
            c.set_exact(T_TRACK, t);
        }
        self.drain();
    }

    /// spine-ts 4.3 `AnimationState.updateMixingFrom` (times in `f64`, see
    /// [`AnimationState::update43`]).
    pub(super) fn update_mixing_from43(&mut self, to: EntryId, delta: f64) -> bool {
        let Some(from) = self.e(to).mixing_from else { return true };
        let finished = self.update_mixing_from43(from, delta);
        {
            let f = self.em(from);
            f.animation_last = f.next_animation_last;
            let last = f.exact(T_NEXT_LAST);
            f.set_exact(T_LAST, last);
        }
        let t = self.em(to);
        if t.next_track_last != -1.0 && t.exact(T_MIX) >= f64::from(t.mix_duration) {
            // The from entry was applied at least once and the mix is complete.
            if self.e(from).total_alpha == 0.0 || self.e(to).mix_duration == 0.0 {
                let ff = self.e(from).mixing_from;
                self.em(to).mixing_from = ff;
                if let Some(ff) = ff {
                    self.em(ff).mixing_to = Some(to);
                }
                self.push(Queued::End, from);
            }
            return finished;
        }
        let f = self.em(from);
        let t = f.exact(T_TRACK) + delta * f64::from(f.time_scale);
        f.set_exact(T_TRACK, t);
        let e = self.em(to);
        let m = e.exact(T_MIX) + delta;
        e.set_exact(T_MIX, m);
        false
    }

    pub(super) fn update_mixing_from(&mut self, to: EntryId, delta: f32) -> bool {
        let Some(from) = self.e(to).mixing_from else { return true };
        let finished = self.update_mixing_from(from, delta);
        {
            let f = self.em(from);
            f.animation_last = f.next_animation_last;
            f.track_last = f.next_track_last;
        }
        let (mix_time, mix_duration) = (self.e(to).mix_time, self.e(to).mix_duration);
        let spine_c = self.data.skeleton_data.behaviour.mix_time_scaled_by_entry;
        if mix_time > 0.0 && (mix_time >= mix_duration || (spine_c && self.e(to).time_scale == 0.0))
        {
            if self.e(from).total_alpha == 0.0 || mix_duration == 0.0 {
                let ff = self.e(from).mixing_from;
                self.em(to).mixing_from = ff;
                if let Some(ff) = ff {
                    self.em(ff).mixing_to = Some(to);
                }
                self.em(to).interrupt_alpha = self.e(from).interrupt_alpha;
                self.push(Queued::End, from);
            }
            return finished;
        }
        let ts = self.e(from).time_scale;
        self.em(from).track_time += delta * ts;
        let to_scale = if spine_c { self.e(to).time_scale } else { 1.0 };
        self.em(to).mix_time += delta * to_scale;
        false
    }
}
