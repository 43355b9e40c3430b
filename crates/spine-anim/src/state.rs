//! `AnimationState` (spine-cpp 4.2 `AnimationState.cpp`): tracks of queued entries, mixing,
//! hold-previous, additive tracks, event and listener queue.
//!
//! Listener callbacks are delivered as [`StateEvent`]s appended to a buffer
//! ([`AnimationState::events`]) in the official order, each time the queue drains (end of
//! `update`, `apply`, `set_animation`, …). Read them and call
//! [`AnimationState::clear_events`]. Entries live in a pool and are reused after their
//! `dispose`; buffers are reused so a warmed-up state does not allocate per frame.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use spine_model::{AnimationId, BoneProperty, HoldRules, RotationMix, SkeletonData, Timeline};

use crate::math;
use crate::skeleton::Skeleton;
use crate::timeline::{
    apply_bone_run, apply_held, apply_timeline, apply_timeline_in, property_ids, EventRef,
    MixBlend, MixDirection, PropertyIds, DRAW_ORDER_PROPERTY_ID,
};

/// Mix durations between animations (spine-cpp `AnimationStateData`), plus per-animation
/// property ids precomputed for the state.
#[derive(Debug, Clone)]
pub struct AnimationStateData {
    /// The skeleton data.
    pub skeleton_data: Arc<SkeletonData>,
    /// Mix duration when no pair is set.
    pub default_mix: f32,
    mixes: HashMap<(AnimationId, AnimationId), f32>,
    timeline_ids: Vec<Vec<PropertyIds>>,
    /// Property ids that do not fit inline in a [`PropertyIds`] (4.3 draw-order folders).
    spill_ids: Vec<i64>,
    animation_ids: Vec<IdSet>,
    /// Per animation, per timeline: the index of an attachment timeline's entry in
    /// [`AnimationState`]'s resolved-attachment cache (`u32::MAX` for other timelines).
    attachment_cache_index: Vec<Vec<u32>>,
    /// Number of attachment timelines over all animations.
    attachment_cache_len: usize,
    /// Per attachment cache entry: the timeline's key times never decrease (NaN fails), so
    /// its key search may start at the key resolved last.
    attachment_sorted: Vec<bool>,
}

impl AnimationStateData {
    /// Mix data for `skeleton_data` (default mix 0).
    pub fn new(skeleton_data: Arc<SkeletonData>) -> AnimationStateData {
        let mut spill_ids = Vec::new();
        let timeline_ids: Vec<Vec<PropertyIds>> = skeleton_data
            .animations
            .iter()
            .map(|a| {
                a.timelines
                    .iter()
                    .map(|t| property_ids(&skeleton_data, t, &mut spill_ids))
                    .collect()
            })
            .collect();
        let animation_ids = timeline_ids
            .iter()
            .map(|ids| ids.iter().flat_map(|p| p.get(&spill_ids).iter().copied()).collect())
            .collect();
        let mut attachment_cache_len = 0usize;
        let mut attachment_sorted = Vec::new();
        let attachment_cache_index = skeleton_data
            .animations
            .iter()
            .map(|a| {
                a.timelines
                    .iter()
                    .map(|t| match t {
                        Timeline::Attachment { times, .. } => {
                            let i = u32::try_from(attachment_cache_len).unwrap_or(u32::MAX);
                            attachment_cache_len += 1;
                            attachment_sorted.push(times.windows(2).all(|w| w[0] <= w[1]));
                            i
                        }
                        _ => u32::MAX,
                    })
                    .collect()
            })
            .collect();
        AnimationStateData {
            skeleton_data,
            default_mix: 0.0,
            mixes: HashMap::new(),
            timeline_ids,
            spill_ids,
            animation_ids,
            attachment_cache_index,
            attachment_cache_len,
            attachment_sorted,
        }
    }

    /// Sets the mix duration from `from` to `to`.
    pub fn set_mix(&mut self, from: AnimationId, to: AnimationId, duration: f32) {
        self.mixes.insert((from, to), duration);
    }

    /// Sets the mix duration by animation names; false when a name is unknown.
    pub fn set_mix_by_name(&mut self, from: &str, to: &str, duration: f32) -> bool {
        let d = &self.skeleton_data;
        match (d.find_animation(from), d.find_animation(to)) {
            (Some(a), Some(b)) => {
                self.set_mix(a, b, duration);
                true
            }
            _ => false,
        }
    }

    /// The mix duration from `from` to `to` (the empty animation uses the default).
    pub fn mix(&self, from: Option<AnimationId>, to: Option<AnimationId>) -> f32 {
        match (from, to) {
            (Some(a), Some(b)) => self.mixes.get(&(a, b)).copied().unwrap_or(self.default_mix),
            _ => self.default_mix,
        }
    }

    fn has_timeline(&self, anim: Option<AnimationId>, ids: &PropertyIds) -> bool {
        let Some(a) = anim else { return false };
        self.animation_ids
            .get(a.index())
            .is_some_and(|set| ids.get(&self.spill_ids).iter().any(|i| set.contains(i)))
    }
}

/// A set of property ids (`kind << 32 | index`) with a cheap hash (see [`IdHasher`]): the
/// ids come from the skeleton data, membership is all that is asked, and SipHash was most
/// of the cost of recomputing the timeline modes after an animation change.
type IdSet = HashSet<i64, BuildHasherDefault<IdHasher>>;

/// The splitmix64 finaliser over the id's bits (every input bit reaches every output bit,
/// so ids differing only in their kind, the upper half, spread over the table).
#[derive(Default)]
struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_i64(&mut self, v: i64) {
        self.0 = self.0.rotate_left(32) ^ v as u64;
    }
}

/// A track entry handle (index in the state's pool; reused after `dispose`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EntryId(pub u32);

const SUBSEQUENT: u8 = 0;
const FIRST: u8 = 1;
const HOLD_SUBSEQUENT: u8 = 2;
const HOLD_FIRST: u8 = 3;
const HOLD_MIX: u8 = 4;
/// 4.3: held like [`HOLD_MIX`], mixing from the current pose (a timeline not first on its
/// properties, 4.3 `MixFrom.first | HOLD` with a hold mix).
const HOLD_MIX_SUBSEQUENT: u8 = 5;
const SETUP: i32 = 1;
const CURRENT: i32 = 2;

/// One queued or playing animation on a track (spine-cpp `TrackEntry`).
#[derive(Debug, Clone, Default)]
pub struct TrackEntry {
    /// The animation, `None` = the empty animation.
    pub animation: Option<AnimationId>,
    /// The entry this one was queued after.
    pub previous: Option<EntryId>,
    /// The entry queued after this one.
    pub next: Option<EntryId>,
    /// The entry being mixed out.
    pub mixing_from: Option<EntryId>,
    /// The entry mixing this one out.
    pub mixing_to: Option<EntryId>,
    /// Track index.
    pub track_index: usize,
    /// Loop.
    pub looping: bool,
    /// Hold the previous entry's timelines while mixing in.
    pub hold_previous: bool,
    /// Play backwards (no events).
    pub reverse: bool,
    /// Mix rotations the shortest way (no rotation direction memory).
    pub shortest_rotation: bool,
    /// Events fire while the mix is below this.
    pub event_threshold: f32,
    /// Attachment timelines apply while the mix is below this.
    pub mix_attachment_threshold: f32,
    /// Attachment timelines apply while alpha is at least this.
    pub alpha_attachment_threshold: f32,
    /// Draw order timelines apply while the mix is below this.
    pub mix_draw_order_threshold: f32,
    /// Animation start time.
    pub animation_start: f32,
    /// Animation end time.
    pub animation_end: f32,
    /// Last applied animation time (`-1` before the first apply).
    pub animation_last: f32,
    /// Animation time of the last apply, becomes `animation_last` on the next update.
    pub next_animation_last: f32,
    /// Seconds before this entry starts.
    pub delay: f32,
    /// Track time.
    pub track_time: f32,
    /// Track time of the previous update.
    pub track_last: f32,
    /// Track time of the last apply (`-1` = never applied).
    pub next_track_last: f32,
    /// Track time when the entry ends.
    pub track_end: f32,
    /// Time scale.
    pub time_scale: f32,
    /// Alpha.
    pub alpha: f32,
    /// Mix time so far.
    pub mix_time: f32,
    /// Mix duration.
    pub mix_duration: f32,
    /// Alpha of an interrupted mix.
    pub interrupt_alpha: f32,
    /// Sum of the alphas applied while mixing out.
    pub total_alpha: f32,
    /// Blend of a track above 0.
    pub mix_blend: MixBlend,
    timeline_mode: Vec<u8>,
    timeline_hold_mix: Vec<Option<EntryId>>,
    timelines_rotation: Vec<f32>,
    /// The ranges `[start, end)` of the animation's timelines that [`AnimationState::apply`]
    /// runs when mixing in fully: every timeline except bone timelines without keys or
    /// on a bone that is not active (those do nothing), for the skeleton activity and
    /// animation in `active_key`.
    active_runs: Vec<(u32, u32)>,
    /// The skeleton's `activity` stamp and the animation `active_runs` were built for.
    active_key: (u64, Option<AnimationId>),
    /// The bone timelines of `active_runs` grouped by property, and the others' indices
    /// (built with `active_runs`).
    bone_groups: crate::bone_groups::BoneGroups,
    /// 4.3: the exact (`f64`) values behind `delay`, `track_time`, `track_last`,
    /// `next_track_last` and `mix_time` (see [`AnimationState::update`]); a field set since
    /// to another value is taken as it is.
    time64: [f64; 5],
}

/// [`TrackEntry::time64`] indices.
const T_DELAY: usize = 0;
const T_TRACK: usize = 1;
const T_LAST: usize = 2;
const T_NEXT_LAST: usize = 3;
const T_MIX: usize = 4;

impl TrackEntry {
    fn time_field(&mut self, k: usize) -> &mut f32 {
        match k {
            T_DELAY => &mut self.delay,
            T_TRACK => &mut self.track_time,
            T_LAST => &mut self.track_last,
            T_NEXT_LAST => &mut self.next_track_last,
            _ => &mut self.mix_time,
        }
    }

    /// The exact value of time field `k` (its `f64` value unless the field was set since).
    fn exact(&mut self, k: usize) -> f64 {
        let v = *self.time_field(k);
        let x = self.time64[k];
        if x as f32 == v {
            x
        } else {
            f64::from(v)
        }
    }

    /// Sets time field `k` to `x`, rounded, keeping `x`.
    fn set_exact(&mut self, k: usize, x: f64) {
        self.time64[k] = x;
        *self.time_field(k) = x as f32;
    }

    /// spine-cpp `getAnimationTime`.
    pub fn animation_time(&self) -> f32 {
        if self.looping {
            let duration = self.animation_end - self.animation_start;
            if duration == 0.0 {
                return self.animation_start;
            }
            return math::fmod(self.track_time, duration) + self.animation_start;
        }
        (self.track_time + self.animation_start).min(self.animation_end)
    }

    /// spine-cpp `getTrackComplete`.
    pub fn track_complete(&self) -> f32 {
        let duration = self.animation_end - self.animation_start;
        if duration != 0.0 {
            if self.looping {
                return duration * (1 + (self.track_time / duration) as i32) as f32;
            }
            if self.track_time < duration {
                return duration;
            }
        }
        self.track_time
    }

    /// Whether the animation reached its end at least once.
    pub fn is_complete(&self) -> bool {
        self.track_time >= self.animation_end - self.animation_start
    }

    /// Whether the entry was applied at least once.
    pub fn was_applied(&self) -> bool {
        self.next_track_last != -1.0
    }
}

/// Listener callback types (spine-cpp `EventType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateEventType {
    /// The entry became current.
    Start,
    /// Another entry replaced it.
    Interrupt,
    /// It will never be applied again.
    End,
    /// It is being disposed (after `End`, or when a queued entry is cleared).
    Dispose,
    /// The animation completed a loop (or reached its end).
    Complete,
    /// A key of an event timeline fired.
    Event(EventRef),
}

/// One listener callback, with what it is about copied out (the entry may be reused
/// once disposed).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StateEvent {
    /// Type.
    pub kind: StateEventType,
    /// The entry.
    pub entry: EntryId,
    /// Its track.
    pub track: usize,
    /// Its animation (`None` = empty animation).
    pub animation: Option<AnimationId>,
}

#[derive(Debug, Clone, Copy)]
enum Queued {
    Start,
    Interrupt,
    End,
    Dispose,
    Complete,
    Event(EventRef),
}

/// Applies animations over time, queues them and mixes between them.
#[derive(Debug)]
pub struct AnimationState {
    /// Mix durations.
    pub data: Arc<AnimationStateData>,
    /// Global time scale.
    pub time_scale: f32,
    tracks: Vec<Option<EntryId>>,
    entries: Vec<TrackEntry>,
    free: Vec<EntryId>,
    events: Vec<EventRef>,
    queue: Vec<(Queued, EntryId)>,
    drain_disabled: bool,
    fired: Vec<StateEvent>,
    property_ids: IdSet,
    animations_changed: bool,
    unkeyed_state: i32,
    /// What each attachment timeline's key (or the setup attachment) last resolved to,
    /// and under which skin (see [`AnimationState::resolve_attachment`]).
    attachment_cache: Vec<ResolvedAttachment>,
    /// A second strong reference to `data`, moved out for the length of
    /// [`AnimationState::apply`] and put back: an owner of the data that does not borrow
    /// the state, without an atomic reference-count round trip per frame (every instance
    /// of a rig shares that count, so the round trips also contended between threads).
    spare_data: Option<Arc<AnimationStateData>>,
}

/// A cached attachment lookup by name: key `key` of an attachment timeline
/// ([`SETUP_KEY`] = the slot's setup attachment) under skin `skin` is `attachment`.
#[derive(Debug, Clone, Copy)]
struct ResolvedAttachment {
    key: u32,
    skin: Option<spine_model::SkinId>,
    attachment: Option<spine_model::AttachmentId>,
}

/// [`ResolvedAttachment::key`] of an empty cache entry.
const NO_KEY: u32 = u32::MAX;
/// [`ResolvedAttachment::key`] of the slot's setup attachment.
const SETUP_KEY: u32 = u32::MAX - 1;

impl AnimationState {
    /// A state with no tracks.
    pub fn new(data: Arc<AnimationStateData>) -> AnimationState {
        let empty = ResolvedAttachment { key: NO_KEY, skin: None, attachment: None };
        let attachment_cache = vec![empty; data.attachment_cache_len];
        AnimationState {
            attachment_cache,
            spare_data: Some(data.clone()),
            data,
            time_scale: 1.0,
            tracks: Vec::new(),
            entries: Vec::new(),
            free: Vec::new(),
            events: Vec::new(),
            queue: Vec::new(),
            drain_disabled: false,
            fired: Vec::new(),
            property_ids: IdSet::default(),
            animations_changed: false,
            unkeyed_state: 0,
        }
    }

    /// Listener callbacks delivered so far (in order).
    pub fn events(&self) -> &[StateEvent] {
        &self.fired
    }

    /// Forgets delivered callbacks (keeps the buffer).
    pub fn clear_events(&mut self) {
        self.fired.clear();
    }

    /// An entry.
    pub fn entry(&self, id: EntryId) -> &TrackEntry {
        &self.entries[id.0 as usize]
    }

    /// An entry, mutable (set loop, alpha, thresholds, mix blend, …).
    pub fn entry_mut(&mut self, id: EntryId) -> &mut TrackEntry {
        &mut self.entries[id.0 as usize]
    }

    /// The current entry of a track.
    pub fn current(&self, track: usize) -> Option<EntryId> {
        self.tracks.get(track).copied().flatten()
    }

    /// Number of track slots.
    pub fn track_count(&self) -> usize {
        self.tracks.len()
    }

    fn e(&self, id: EntryId) -> &TrackEntry {
        &self.entries[id.0 as usize]
    }

    fn em(&mut self, id: EntryId) -> &mut TrackEntry {
        &mut self.entries[id.0 as usize]
    }

    fn push(&mut self, q: Queued, id: EntryId) {
        if matches!(q, Queued::Start | Queued::End) {
            self.animations_changed = true;
        }
        self.queue.push((q, id));
    }

    fn drain(&mut self) {
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

    fn dispose_entry(&mut self, id: EntryId) {
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

    /// Advances every track by `delta` seconds (spine-cpp `AnimationState::update`).
    ///
    /// 4.3 data follows spine-ts 4.3 `AnimationState.update`, which sums the times in
    /// `f64`: see [`AnimationState::update43`].
    pub fn update(&mut self, delta: f32) {
        if self.data.skeleton_data.behaviour.timelines_spine43 {
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
                    let spine_c = self.data.skeleton_data.behaviour.state_time_scale_spine_c;
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
            if self.data.skeleton_data.behaviour.state_mix_spine35 {
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
    fn update43(&mut self, delta: f32) {
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
    fn update_mixing_from43(&mut self, to: EntryId, delta: f64) -> bool {
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

    /// spine-c 3.5 `_spAnimationState_updateMixingFrom`: the deepest entry first; an entry
    /// mixed out ends once the mix is done and it is not mixing itself.
    fn update_mixing_from_35(&mut self, entry: EntryId, delta: f32) {
        let Some(from) = self.e(entry).mixing_from else { return };
        self.update_mixing_from_35(from, delta);
        let (mix_time, mix_duration) = (self.e(entry).mix_time, self.e(entry).mix_duration);
        if mix_time >= mix_duration && self.e(from).mixing_from.is_none() && mix_time > 0.0 {
            self.em(entry).mixing_from = None;
            self.em(from).mixing_to = None;
            self.push(Queued::End, from);
            return;
        }
        let f = self.em(from);
        f.animation_last = f.next_animation_last;
        f.track_last = f.next_track_last;
        f.track_time += delta * f.time_scale;
        let e = self.em(entry);
        e.mix_time += delta * e.time_scale;
    }

    fn update_mixing_from(&mut self, to: EntryId, delta: f32) -> bool {
        let Some(from) = self.e(to).mixing_from else { return true };
        let finished = self.update_mixing_from(from, delta);
        {
            let f = self.em(from);
            f.animation_last = f.next_animation_last;
            f.track_last = f.next_track_last;
        }
        let (mix_time, mix_duration) = (self.e(to).mix_time, self.e(to).mix_duration);
        let spine_c = self.data.skeleton_data.behaviour.state_time_scale_spine_c;
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

    /// Poses `skeleton` with every track (spine-cpp `AnimationState::apply`). Returns
    /// whether any track was applied.
    pub fn apply(&mut self, sk: &mut Skeleton) -> bool {
        // 4.3: the poses (not the applied poses) of slots a slider constrains.
        sk.swap_slot_poses();
        let applied = self.apply_tracks(sk);
        sk.swap_slot_poses();
        applied
    }

    /// [`AnimationState::apply`] onto what `sk.slots` hold.
    fn apply_tracks(&mut self, sk: &mut Skeleton) -> bool {
        if self.animations_changed {
            self.compute_animations_changed();
        }
        // Owners of the state's and the skeleton's data that do not borrow `self` or `sk`:
        // the spare reference moved out (a clone only when `data` was replaced), and the
        // skeleton's data is the state's own in the usual case (a clone otherwise).
        let data = match self.spare_data.take() {
            Some(d) if Arc::ptr_eq(&d, &self.data) => d,
            _ => self.data.clone(),
        };
        let sd: &SkeletonData = &data.skeleton_data;
        let skd_own = (!Arc::ptr_eq(&data.skeleton_data, &sk.data)).then(|| sk.data.clone());
        let skd: &SkeletonData = skd_own.as_deref().unwrap_or(sd);
        let mut events = std::mem::take(&mut self.events);
        let mut applied = false;
        for i in 0..self.tracks.len() {
            let Some(cur) = self.tracks[i] else { continue };
            if self.e(cur).delay > 0.0 {
                continue;
            }
            applied = true;
            if sd.behaviour.state_mix_spine35 {
                self.apply_current_35(cur, sk, sd, skd, &mut events);
                continue;
            }
            let blend = if i == 0 { MixBlend::First } else { self.e(cur).mix_blend };
            let mut alpha = self.e(cur).alpha;
            if self.e(cur).mixing_from.is_some() {
                alpha *= self.apply_mixing_from(cur, sk, sd, skd, blend, &mut events);
            } else if self.e(cur).track_time >= self.e(cur).track_end && self.e(cur).next.is_none()
            {
                alpha = 0.0;
            }
            let mut attachments = alpha >= self.e(cur).alpha_attachment_threshold;
            let c = self.e(cur);
            let animation_last = c.animation_last;
            let animation_time = c.animation_time();
            let mut apply_time = animation_time;
            let reverse = c.reverse;
            let anim = c.animation;
            let duration = anim.map_or(0.0, |a| sd.animation(a).duration);
            if reverse {
                apply_time = duration - apply_time;
            }
            let timelines: &[Timeline] = anim.map_or(&[], |a| &sd.animation(a).timelines);
            let keys: &[f32] = anim.map_or(&[], |a| &sd.animation(a).keys);
            let mixed_in_setup = sd.behaviour.state_mixed_in_from_setup && alpha == 1.0;
            if mixed_in_setup || (i == 0 && alpha == 1.0) || blend == MixBlend::Add {
                if i == 0 {
                    attachments = true;
                }
                let blend = if mixed_in_setup { MixBlend::Setup } else { blend };
                if let Some(a) = anim {
                    let ev = if reverse { None } else { Some(&mut events) };
                    let times = (animation_last, apply_time);
                    // The usual case (track 0, alpha 1) with its mix settings as constants.
                    if blend == MixBlend::First && alpha == 1.0 {
                        let (alpha, blend) = (1.0, MixBlend::First);
                        self.apply_in(
                            cur,
                            sk,
                            skd,
                            a,
                            (timelines, keys),
                            times,
                            ev,
                            alpha,
                            blend,
                            attachments,
                        );
                    } else {
                        self.apply_in(
                            cur,
                            sk,
                            skd,
                            a,
                            (timelines, keys),
                            times,
                            ev,
                            alpha,
                            blend,
                            attachments,
                        );
                    }
                }
            } else {
                let ev = if reverse { None } else { Some(&mut events) };
                let times = (animation_last, apply_time);
                let tl = (timelines, keys);
                self.apply_general(cur, sk, skd, tl, times, ev, alpha, blend, attachments);
            }
            self.queue_events(cur, animation_time, &events, sd);
            events.clear();
            let c = self.em(cur);
            c.next_animation_last = animation_time;
            c.next_track_last = c.track_time;
            c.time64[T_NEXT_LAST] = c.exact(T_TRACK);
            c.time64[T_NEXT_LAST] = c.exact(T_TRACK);
        }
        self.events = events;
        let setup_state = self.unkeyed_state + SETUP;
        // The next slot in the setup state, searched over the slice (no reload of the
        // skeleton's slot list per slot).
        let mut si = 0;
        while let Some(i) = sk.attachment_states.find_odd(si, setup_state) {
            si = i;
            let sid = spine_model::SlotId(si as u32);
            let name = sd.slot(sid).attachment.as_deref();
            sk.set_attachment_by_name(sid, name);
            si += 1;
        }
        self.unkeyed_state += 2;
        self.spare_data = Some(data);
        self.drain();
        applied
    }

    /// The timelines of track entry `cur` by their modes (first / subsequent, shortest
    /// rotation memory), for every case [`AnimationState::apply_in`] does not take. Out of
    /// line, apart from the usual case's code.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn apply_general(
        &mut self,
        cur: EntryId,
        sk: &mut Skeleton,
        skd: &SkeletonData,
        (timelines, keys): (&[Timeline], &[f32]),
        (animation_last, apply_time): (f32, f32),
        mut events: Option<&mut Vec<EventRef>>,
        alpha: f32,
        blend: MixBlend,
        attachments: bool,
    ) {
        let n = timelines.len();
        let shortest = self.e(cur).shortest_rotation;
        let anim = self.e(cur).animation;
        let first_frame = !shortest && self.e(cur).timelines_rotation.len() != n << 1;
        if first_frame {
            self.em(cur).timelines_rotation.resize(n << 1, 0.0);
        }
        // The modes and the rotation memory out of the entry for the loop (nothing in it
        // reads them through the entry), put back after.
        let modes = std::mem::take(&mut self.em(cur).timeline_mode);
        let mut rot = std::mem::take(&mut self.em(cur).timelines_rotation);
        for (ii, tl) in timelines.iter().enumerate() {
            let mode = modes.get(ii).copied().unwrap_or(FIRST);
            let tblend = if mode == SUBSEQUENT { blend } else { MixBlend::Setup };
            let is_rotate = matches!(tl, Timeline::Bone { property: BoneProperty::Rotate, .. });
            if !shortest && is_rotate {
                apply_rotate_timeline(
                    sk,
                    skd,
                    anim,
                    ii,
                    (tl, keys),
                    apply_time,
                    alpha,
                    tblend,
                    &mut rot,
                    ii << 1,
                    first_frame,
                );
            } else if let Timeline::Attachment { .. } = tl {
                let cache = self.attachment_cache_slot(anim, ii);
                self.apply_attachment_timeline(sk, tl, cache, apply_time, blend, attachments);
            } else if let Some(a) = anim {
                let ev = events.as_deref_mut();
                let (last, time) = (animation_last, apply_time);
                let d = MixDirection::In;
                apply_held(sk, skd, a, ii, tl, keys, last, time, ev, alpha, tblend, d);
            }
        }
        let c = self.em(cur);
        c.timeline_mode = modes;
        c.timelines_rotation = rot;
    }

    /// Every timeline of `anim` (`timelines`) mixing in with `alpha` and `blend` at
    /// `times = (last, now)`: attachment timelines through the state, the others through
    /// [`apply_held`]. Inlined into [`AnimationState::apply`] so that constant mix settings
    /// fold into the timelines' code.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn apply_in(
        &mut self,
        cur: EntryId,
        sk: &mut Skeleton,
        skd: &SkeletonData,
        anim: AnimationId,
        (timelines, keys): (&[Timeline], &[f32]),
        (last, time): (f32, f32),
        mut events: Option<&mut Vec<EventRef>>,
        alpha: f32,
        blend: MixBlend,
        attachments: bool,
    ) {
        use MixDirection::In;
        let key = (sk.activity, Some(anim));
        let e = self.em(cur);
        if e.active_key != key {
            e.active_key = key;
            active_runs(&sk.bones, timelines, &mut e.active_runs);
            let rules = crate::timeline::BoneRules::of(skd);
            e.bone_groups.build(sk.bones.len(), rules, timelines, keys, &e.active_runs);
        }
        if self.e(cur).bone_groups.usable {
            // The bone timelines by property, then the others in order (no other kind
            // reads or writes a bone's local pose).
            self.em(cur).bone_groups.apply(&mut sk.bones, skd, keys, time, alpha, blend, In);
            let mut r = 0;
            while let Some(&ii) = self.e(cur).bone_groups.others.get(r) {
                r += 1;
                let ii = ii as usize;
                let Some(tl) = timelines.get(ii) else { continue };
                let (ev, at) = (events.as_deref_mut(), (anim, ii, keys));
                self.apply_other_in(sk, skd, at, tl, (last, time), ev, alpha, blend, attachments);
            }
            return;
        }
        let mut r = 0;
        // The ranges read through the entry one at a time (the loop needs `self`).
        while let Some(&(start, end)) = self.e(cur).active_runs.get(r) {
            r += 1;
            let Some(timelines) = timelines.get(..end as usize) else { continue };
            let mut ii = start as usize;
            loop {
                // A run of bone timelines over borrowed slices, then one of another kind.
                apply_bone_run(
                    &mut sk.bones,
                    skd,
                    timelines,
                    keys,
                    &mut ii,
                    time,
                    alpha,
                    blend,
                    In,
                );
                let Some(tl) = timelines.get(ii) else { break };
                let (ev, at) = (events.as_deref_mut(), (anim, ii, keys));
                self.apply_other_in(sk, skd, at, tl, (last, time), ev, alpha, blend, attachments);
                ii += 1;
            }
        }
    }

    /// Timeline `ii` of `anim` (`tl`, its tables in `keys`) in [`AnimationState::apply_in`],
    /// not a bone timeline of a run: attachment timelines through the state, the others
    /// through [`apply_held`].
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn apply_other_in(
        &mut self,
        sk: &mut Skeleton,
        skd: &SkeletonData,
        (anim, ii, keys): (AnimationId, usize, &[f32]),
        tl: &Timeline,
        (last, time): (f32, f32),
        events: Option<&mut Vec<EventRef>>,
        alpha: f32,
        blend: MixBlend,
        attachments: bool,
    ) {
        if let Timeline::Attachment { .. } = tl {
            let cache = self.attachment_cache_slot(Some(anim), ii);
            self.apply_attachment_timeline(sk, tl, cache, time, blend, attachments);
        } else {
            let into = MixDirection::In;
            apply_held(sk, skd, anim, ii, tl, keys, last, time, events, alpha, blend, into);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn apply_mixing_from(
        &mut self,
        to: EntryId,
        sk: &mut Skeleton,
        sd: &SkeletonData,
        skd: &SkeletonData,
        mut blend: MixBlend,
        events: &mut Vec<EventRef>,
    ) -> f32 {
        let Some(from) = self.e(to).mixing_from else { return 1.0 };
        let mut from_mix = 1.0;
        if self.e(from).mixing_from.is_some() {
            from_mix = self.apply_mixing_from(from, sk, sd, skd, blend, events);
        }
        let mix;
        let to_mix_duration = self.e(to).mix_duration;
        if to_mix_duration == 0.0 {
            mix = 1.0;
            if blend == MixBlend::First {
                blend = MixBlend::Setup;
            }
        } else {
            mix = (self.e(to).mix_time / to_mix_duration).min(1.0);
            if blend != MixBlend::First {
                blend = self.e(from).mix_blend;
            }
        }
        let f = self.e(from);
        let attachments = mix < f.mix_attachment_threshold;
        let draw_order = mix < f.mix_draw_order_threshold;
        let anim = f.animation;
        let timelines: &[Timeline] = anim.map_or(&[], |a| &sd.animation(a).timelines);
        let keys: &[f32] = anim.map_or(&[], |a| &sd.animation(a).keys);
        let n = timelines.len();
        let (alpha_hold, alpha_mix) = if sd.behaviour.timelines_spine43 {
            // spine-ts 4.3 `applyMixingFrom`: the entry's alpha scaled by its own mix out
            // (nested mixing), a held timeline at the alpha that keeps the sum with the entry
            // mixed in at the entry's alpha.
            let a = f.alpha * from_mix;
            let keep = 1.0 - mix * self.e(to).alpha;
            let alpha_mix = a * (1.0 - mix);
            (if keep > 0.0 { alpha_mix / keep } else { a }, alpha_mix)
        } else {
            let alpha_hold = f.alpha * self.e(to).interrupt_alpha;
            (alpha_hold, alpha_hold * (1.0 - mix))
        };
        let animation_last = f.animation_last;
        let animation_time = f.animation_time();
        let mut apply_time = animation_time;
        let reverse = f.reverse;
        let fire = !reverse && mix < f.event_threshold;
        if reverse {
            apply_time = anim.map_or(0.0, |a| sd.animation(a).duration) - apply_time;
        }
        let alpha_attachment_threshold = f.alpha_attachment_threshold;
        let shortest = f.shortest_rotation;
        if blend == MixBlend::Add {
            if let Some(a) = anim {
                for ii in 0..n {
                    let ev = if fire { Some(&mut *events) } else { None };
                    apply_timeline_in(
                        sk,
                        skd,
                        a,
                        ii,
                        animation_last,
                        apply_time,
                        ev,
                        alpha_mix,
                        blend,
                        MixDirection::Out,
                    );
                }
            }
        } else {
            let first_frame = !shortest && self.e(from).timelines_rotation.len() != n << 1;
            if first_frame {
                self.em(from).timelines_rotation.resize(n << 1, 0.0);
            }
            // The modes, the rotation memory and the alpha sum out of the entry for the loop
            // (nothing in it reads them through the entry), put back after.
            let modes = std::mem::take(&mut self.em(from).timeline_mode);
            let mut rot = std::mem::take(&mut self.em(from).timelines_rotation);
            let mut total_alpha = 0.0f32;
            for (ii, tl) in timelines.iter().enumerate() {
                let mut direction = MixDirection::Out;
                let mode = modes.get(ii).copied().unwrap_or(FIRST);
                let (tblend, alpha) = match mode {
                    SUBSEQUENT => {
                        if !draw_order && matches!(tl, Timeline::DrawOrder { .. }) {
                            continue;
                        }
                        (blend, alpha_mix)
                    }
                    FIRST => (MixBlend::Setup, alpha_mix),
                    HOLD_SUBSEQUENT => (blend, alpha_hold),
                    HOLD_FIRST => (MixBlend::Setup, alpha_hold),
                    _ => {
                        let hm = self.e(from).timeline_hold_mix.get(ii).copied().flatten();
                        let a = hm.map_or(alpha_hold, |h| {
                            let h = self.e(h);
                            alpha_hold * (1.0 - h.mix_time / h.mix_duration).max(0.0)
                        });
                        (if mode == HOLD_MIX_SUBSEQUENT { blend } else { MixBlend::Setup }, a)
                    }
                };
                total_alpha += alpha;
                let is_rotate = matches!(tl, Timeline::Bone { property: BoneProperty::Rotate, .. });
                if !shortest && is_rotate {
                    apply_rotate_timeline(
                        sk,
                        skd,
                        anim,
                        ii,
                        (tl, keys),
                        apply_time,
                        alpha,
                        tblend,
                        &mut rot,
                        ii << 1,
                        first_frame,
                    );
                } else if let Timeline::Attachment { .. } = tl {
                    self.apply_attachment_timeline(
                        sk,
                        tl,
                        self.attachment_cache_slot(anim, ii),
                        apply_time,
                        tblend,
                        attachments && alpha >= alpha_attachment_threshold,
                    );
                } else if let Some(a) = anim {
                    if draw_order
                        && matches!(tl, Timeline::DrawOrder { .. })
                        && tblend == MixBlend::Setup
                    {
                        direction = MixDirection::In;
                    }
                    let ev = if fire { Some(&mut *events) } else { None };
                    apply_held(
                        sk,
                        skd,
                        a,
                        ii,
                        tl,
                        keys,
                        animation_last,
                        apply_time,
                        ev,
                        alpha,
                        tblend,
                        direction,
                    );
                }
            }
            let f = self.em(from);
            f.timeline_mode = modes;
            f.timelines_rotation = rot;
            f.total_alpha = total_alpha;
        }
        if to_mix_duration > 0.0 {
            self.queue_events(from, animation_time, events, sd);
        }
        events.clear();
        let f = self.em(from);
        f.next_animation_last = animation_time;
        f.next_track_last = f.track_time;
        f.time64[T_NEXT_LAST] = f.exact(T_TRACK);
        mix
    }

    /// spine-c 3.5 `spAnimationState_apply` for one track's current entry. The entry fields
    /// 3.5 does not have (`reverse`, `hold_previous`, `shortest_rotation`, `mix_blend`,
    /// `alpha_attachment_threshold`) are ignored.
    fn apply_current_35(
        &mut self,
        cur: EntryId,
        sk: &mut Skeleton,
        sd: &SkeletonData,
        skd: &SkeletonData,
        events: &mut Vec<EventRef>,
    ) {
        let mut mix = self.e(cur).alpha;
        if self.e(cur).mixing_from.is_some() {
            mix *= self.apply_mixing_from_35(cur, sk, sd, skd, events);
        } else if self.e(cur).track_time >= self.e(cur).track_end {
            mix = 0.0;
        }
        let c = self.e(cur);
        let animation_last = c.animation_last;
        let animation_time = c.animation_time();
        let anim = c.animation;
        let timelines: &[Timeline] = anim.map_or(&[], |a| &sd.animation(a).timelines);
        let keys: &[f32] = anim.map_or(&[], |a| &sd.animation(a).keys);
        let n = timelines.len();
        let first_frame = mix != 1.0 && self.e(cur).timelines_rotation.len() != n << 1;
        if first_frame {
            self.em(cur).timelines_rotation.resize(n << 1, 0.0);
        }
        for (ii, tl) in timelines.iter().enumerate() {
            let first =
                mix == 1.0 || self.e(cur).timeline_mode.get(ii).copied() != Some(SUBSEQUENT);
            let tblend = if first { MixBlend::Setup } else { MixBlend::Replace };
            let is_rotate = matches!(tl, Timeline::Bone { property: BoneProperty::Rotate, .. });
            if mix != 1.0 && is_rotate {
                let mut rot = std::mem::take(&mut self.em(cur).timelines_rotation);
                apply_rotate_timeline(
                    sk,
                    skd,
                    anim,
                    ii,
                    (tl, keys),
                    animation_time,
                    mix,
                    tblend,
                    &mut rot,
                    ii << 1,
                    first_frame,
                );
                self.em(cur).timelines_rotation = rot;
            } else if let Timeline::Attachment { .. } = tl {
                self.apply_attachment_timeline(
                    sk,
                    tl,
                    self.attachment_cache_slot(anim, ii),
                    animation_time,
                    tblend,
                    true,
                );
            } else if let Some(a) = anim {
                apply_timeline(
                    sk,
                    a,
                    ii,
                    animation_last,
                    animation_time,
                    Some(&mut *events),
                    mix,
                    tblend,
                    MixDirection::In,
                );
            }
        }
        self.queue_events(cur, animation_time, events, sd);
        events.clear();
        let c = self.em(cur);
        c.next_animation_last = animation_time;
        c.next_track_last = c.track_time;
        c.time64[T_NEXT_LAST] = c.exact(T_TRACK);
    }

    /// spine-c 3.5 `_spAnimationState_applyMixingFrom`: every timeline of the entry mixed
    /// out fades with `alpha * mixAlpha * (1 - mix)`, no hold.
    fn apply_mixing_from_35(
        &mut self,
        to: EntryId,
        sk: &mut Skeleton,
        sd: &SkeletonData,
        skd: &SkeletonData,
        events: &mut Vec<EventRef>,
    ) -> f32 {
        let Some(from) = self.e(to).mixing_from else { return 1.0 };
        if self.e(from).mixing_from.is_some() {
            self.apply_mixing_from_35(from, sk, sd, skd, events);
        }
        let to_mix_duration = self.e(to).mix_duration;
        let mix = if to_mix_duration == 0.0 {
            1.0
        } else {
            (self.e(to).mix_time / to_mix_duration).min(1.0)
        };
        let f = self.e(from);
        let fire = mix < f.event_threshold;
        let attachments = mix < f.mix_attachment_threshold;
        let draw_order = mix < f.mix_draw_order_threshold;
        let animation_last = f.animation_last;
        let animation_time = f.animation_time();
        let anim = f.animation;
        let timelines: &[Timeline] = anim.map_or(&[], |a| &sd.animation(a).timelines);
        let keys: &[f32] = anim.map_or(&[], |a| &sd.animation(a).keys);
        let n = timelines.len();
        let alpha = f.alpha * self.e(to).interrupt_alpha * (1.0 - mix);
        let first_frame = self.e(from).timelines_rotation.len() != n << 1;
        if first_frame {
            self.em(from).timelines_rotation.resize(n << 1, 0.0);
        }
        for (ii, tl) in timelines.iter().enumerate() {
            let setup = self.e(from).timeline_mode.get(ii).copied() != Some(SUBSEQUENT);
            let tblend = if setup { MixBlend::Setup } else { MixBlend::Replace };
            let is_rotate = matches!(tl, Timeline::Bone { property: BoneProperty::Rotate, .. });
            if is_rotate {
                let mut rot = std::mem::take(&mut self.em(from).timelines_rotation);
                apply_rotate_timeline(
                    sk,
                    skd,
                    anim,
                    ii,
                    (tl, keys),
                    animation_time,
                    alpha,
                    tblend,
                    &mut rot,
                    ii << 1,
                    first_frame,
                );
                self.em(from).timelines_rotation = rot;
                continue;
            }
            if !setup
                && ((!attachments && matches!(tl, Timeline::Attachment { .. }))
                    || (!draw_order && matches!(tl, Timeline::DrawOrder { .. })))
            {
                continue;
            }
            if let Timeline::Attachment { slot, .. } = tl {
                if setup {
                    // Mixing out from the setup pose restores the setup attachment.
                    let name = sd.slot(*slot).attachment.as_deref();
                    self.set_attachment(sk, *slot, name, false);
                } else {
                    self.apply_attachment_timeline(
                        sk,
                        tl,
                        self.attachment_cache_slot(anim, ii),
                        animation_time,
                        tblend,
                        false,
                    );
                }
            } else if let Some(a) = anim {
                let ev = if fire { Some(&mut *events) } else { None };
                apply_timeline(
                    sk,
                    a,
                    ii,
                    animation_last,
                    animation_time,
                    ev,
                    alpha,
                    tblend,
                    MixDirection::Out,
                );
            }
        }
        if to_mix_duration > 0.0 {
            self.queue_events(from, animation_time, events, sd);
        }
        events.clear();
        let f = self.em(from);
        f.next_animation_last = animation_time;
        f.next_track_last = f.track_time;
        f.time64[T_NEXT_LAST] = f.exact(T_TRACK);
        mix
    }

    /// The cache entry of timeline `index` of `anim` when it is an attachment timeline.
    fn attachment_cache_slot(&self, anim: Option<AnimationId>, index: usize) -> Option<usize> {
        let a = anim?;
        let i = *self.data.attachment_cache_index.get(a.index())?.get(index)?;
        (i != u32::MAX).then_some(i as usize)
    }

    /// `sk.get_attachment(slot, name)` (empty name = none) for key `key` of the attachment
    /// timeline with cache entry `cache`, looked up once per key and skin: the names and
    /// skins are the state's (immutable) skeleton data, so while `sk` plays that same data
    /// the answer depends only on the key and the skeleton's skin.
    #[inline(always)]
    fn resolve_attachment<'n>(
        &mut self,
        sk: &Skeleton,
        cache: Option<usize>,
        key: u32,
        slot: spine_model::SlotId,
        name: impl FnOnce() -> Option<&'n str>,
    ) -> Option<spine_model::AttachmentId> {
        let same_data = Arc::ptr_eq(&sk.data, &self.data.skeleton_data);
        let entry = cache.filter(|_| same_data).and_then(|i| self.attachment_cache.get_mut(i));
        if let Some(e) = &entry {
            if e.key == key && e.skin == sk.skin {
                return e.attachment;
            }
        }
        // The key's name is looked up only when the cache does not answer.
        let name = name().filter(|n| !n.is_empty());
        let attachment = name.and_then(|n| sk.get_attachment(slot, n));
        if let Some(e) = entry {
            *e = ResolvedAttachment { key, skin: sk.skin, attachment };
        }
        attachment
    }

    #[allow(clippy::too_many_arguments)]
    fn apply_attachment_timeline(
        &mut self,
        sk: &mut Skeleton,
        tl: &Timeline,
        cache: Option<usize>,
        time: f32,
        blend: MixBlend,
        attachments: bool,
    ) {
        let Timeline::Attachment { slot, times, names } = tl else { return };
        let Some(s) = sk.slots.get(slot.index()) else { return };
        if !sk.bones.get(s.bone.index()).is_some_and(|b| b.active) || times.is_empty() {
            return;
        }
        let resolved = if time < times[0] {
            let first = blend == MixBlend::First && sk.data.behaviour.first_blend_resets_slots;
            if blend == MixBlend::Setup || first {
                let data = &*sk.data;
                let name = || data.slot(*slot).attachment.as_deref();
                Some(self.resolve_attachment(sk, cache, SETUP_KEY, *slot, name))
            } else {
                None
            }
        } else {
            // The search starts at the key resolved last when the key times never decrease
            // and that key's time is not after `time` (every earlier key's then is not either).
            let mut start = 0;
            if let Some(ci) = cache {
                if self.data.attachment_sorted.get(ci) == Some(&true) {
                    let h = self.attachment_cache.get(ci).map_or(NO_KEY, |e| e.key) as usize;
                    if times.get(h).is_some_and(|&t| t <= time) {
                        start = h;
                    }
                }
            }
            let mut k = times.len() - 1;
            for (i, &t) in times.iter().enumerate().skip(start + 1) {
                if t > time {
                    k = i - 1;
                    break;
                }
            }
            let name = || names.get(k).and_then(|n| n.as_deref());
            let (key, cache) = match u32::try_from(k) {
                Ok(key) if key < SETUP_KEY => (key, cache),
                _ => (NO_KEY, None),
            };
            Some(self.resolve_attachment(sk, cache, key, *slot, name))
        };
        if let Some(attachment) = resolved {
            sk.set_attachment(*slot, attachment);
            if attachments {
                self.mark(sk, *slot, CURRENT);
            }
        }
        if sk.attachment_states.get(slot.index()) <= self.unkeyed_state {
            self.mark(sk, *slot, SETUP);
        }
    }

    fn set_attachment(
        &self,
        sk: &mut Skeleton,
        slot: spine_model::SlotId,
        name: Option<&str>,
        attachments: bool,
    ) {
        sk.set_attachment_by_name(slot, name.filter(|n| !n.is_empty()));
        if attachments {
            self.mark(sk, slot, CURRENT);
        }
    }

    /// Sets the attachment state of `slot` to `unkeyed_state + mark` (spine-cpp
    /// `slot->setAttachmentState`).
    fn mark(&self, sk: &mut Skeleton, slot: spine_model::SlotId, mark: i32) {
        let n = sk.slots.len();
        sk.attachment_states.set(slot.index(), n, self.unkeyed_state + mark);
    }

    fn queue_events(
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

    /// The delay of `entry` queued after `last` for a requested `delay <= 0`
    /// ([`AddDelay`](spine_model::AddDelay) rules of the data's runtime).
    fn queued_delay(&self, last: EntryId, entry: EntryId, mut delay: f32) -> f32 {
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

    fn set_current(&mut self, index: usize, current: EntryId, interrupt: bool) {
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
            let v43 = self.data.skeleton_data.behaviour.timelines_spine43;
            if !v43 && self.e(f).mixing_from.is_some() && self.e(f).mix_duration > 0.0 {
                let r = (self.e(f).mix_time / self.e(f).mix_duration).min(1.0);
                self.em(current).interrupt_alpha *= r;
            }
            self.em(f).timelines_rotation.clear();
        }
        self.push(Queued::Start, current);
    }

    fn expand_to_index(&mut self, index: usize) -> Option<EntryId> {
        if index < self.tracks.len() {
            return self.tracks[index];
        }
        self.tracks.resize(index + 1, None);
        None
    }

    fn new_entry(
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

    fn clear_next(&mut self, entry: EntryId) {
        let mut next = self.e(entry).next;
        while let Some(n) = next {
            self.push(Queued::Dispose, n);
            next = self.e(n).next;
        }
        self.em(entry).next = None;
    }

    fn compute_animations_changed(&mut self) {
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

    fn compute_hold(&mut self, entry: EntryId) {
        let data = self.data.clone();
        let to = self.e(entry).mixing_to;
        let anim = self.e(entry).animation;
        let ids: &[PropertyIds] = anim.map_or(&[], |a| &data.timeline_ids[a.index()]);
        let timelines: &[Timeline] =
            anim.map_or(&[], |a| &data.skeleton_data.animation(a).timelines);
        let n = ids.len();
        let mut mode = std::mem::take(&mut self.em(entry).timeline_mode);
        let mut hold = std::mem::take(&mut self.em(entry).timeline_hold_mix);
        mode.clear();
        mode.resize(n, 0);
        hold.clear();
        hold.resize(n, None);
        let rules = data.skeleton_data.behaviour.hold_rules;
        if data.skeleton_data.behaviour.state_mix_spine35 {
            // spine-c 3.5 `timelinesFirst`: first to key the property or not, no hold.
            for (i, p) in ids.iter().enumerate() {
                mode[i] = if self.add_all(p.get(&data.spill_ids)) { FIRST } else { SUBSEQUENT };
            }
        } else if rules == HoldRules::Spine37 && to.is_some_and(|t| self.e(t).hold_previous) {
            // spine-cpp 3.7: every timeline held from the setup pose.
            for (i, p) in ids.iter().enumerate() {
                self.add_all(p.get(&data.spill_ids));
                mode[i] = HOLD_FIRST;
            }
        } else if rules == HoldRules::Spine38 && to.is_some_and(|t| self.e(t).hold_previous) {
            for (i, p) in ids.iter().enumerate() {
                mode[i] =
                    if self.add_all(p.get(&data.spill_ids)) { HOLD_FIRST } else { HOLD_SUBSEQUENT };
            }
        } else if data.skeleton_data.behaviour.timelines_spine43 {
            self.compute_hold43(entry, to, ids, timelines, &mut mode, &mut hold, &data);
        } else {
            let folders43 = data.skeleton_data.behaviour.timelines_spine43;
            for i in 0..n {
                let p = &ids[i];
                let tl = &timelines[i];
                let first = if folders43 && matches!(tl, Timeline::DrawOrderFolder { .. }) {
                    self.add_folder_43(p.get(&data.spill_ids))
                } else {
                    self.add_all(p.get(&data.spill_ids))
                };
                if !first {
                    mode[i] = SUBSEQUENT;
                    continue;
                }
                let plain = rules == HoldRules::Spine38
                    && matches!(
                        tl,
                        Timeline::Attachment { .. }
                            | Timeline::DrawOrder { .. }
                            | Timeline::DrawOrderFolder { .. }
                            | Timeline::Event { .. }
                    );
                let Some(t) = to else {
                    mode[i] = FIRST;
                    continue;
                };
                if plain || !data.has_timeline(self.e(t).animation, p) {
                    mode[i] = FIRST;
                    continue;
                }
                mode[i] = HOLD_FIRST;
                let mut next = self.e(t).mixing_to;
                while let Some(nx) = next {
                    if rules != HoldRules::Spine36 && data.has_timeline(self.e(nx).animation, p) {
                        next = self.e(nx).mixing_to;
                        continue;
                    }
                    if rules == HoldRules::Spine36 && data.has_timeline(self.e(nx).animation, p) {
                        break;
                    }
                    // spine-cpp 3.7 fades with the entry mixed out itself.
                    let fade = if rules == HoldRules::Spine37 { entry } else { nx };
                    if self.e(fade).mix_duration > 0.0 {
                        mode[i] = HOLD_MIX;
                        hold[i] = Some(fade);
                    }
                    break;
                }
            }
        }
        self.em(entry).timeline_mode = mode;
        self.em(entry).timeline_hold_mix = hold;
    }

    /// spine-ts 4.3 `AnimationState.computeHold` with its `from`: a timeline is first
    /// ([`FIRST`], 4.3 `MixFrom.setup`) only when *every* property it keys is new to the
    /// track (4.2: when any is), else subsequent (`MixFrom.first`); either is held when the
    /// entry mixed to keys one of its properties, unless the timeline is instant (inherit,
    /// attachment, sequence, event, draw order, draw-order folder, physics reset), with the
    /// hold fading out with the first entry further up that does not key it (if that has a
    /// mix duration).
    #[allow(clippy::too_many_arguments)]
    fn compute_hold43(
        &mut self,
        entry: EntryId,
        to: Option<EntryId>,
        ids: &[PropertyIds],
        timelines: &[Timeline],
        mode: &mut [u8],
        hold: &mut [Option<EntryId>],
        data: &AnimationStateData,
    ) {
        let _ = entry;
        for (i, (pid, tl)) in ids.iter().zip(timelines).enumerate() {
            let p = pid.get(&data.spill_ids);
            let first = if matches!(tl, Timeline::DrawOrderFolder { .. }) {
                self.add_folder_43(p)
            } else {
                self.add_all_new(p)
            };
            let instant = matches!(
                tl,
                Timeline::Inherit { .. }
                    | Timeline::Attachment { .. }
                    | Timeline::Sequence { .. }
                    | Timeline::Event { .. }
                    | Timeline::DrawOrder { .. }
                    | Timeline::DrawOrderFolder { .. }
                    | Timeline::PhysicsReset { .. }
            );
            let held = to.filter(|&t| !instant && data.has_timeline(self.e(t).animation, pid));
            let Some(t) = held else {
                mode[i] = if first { FIRST } else { SUBSEQUENT };
                continue;
            };
            mode[i] = if first { HOLD_FIRST } else { HOLD_SUBSEQUENT };
            let mut next = self.e(t).mixing_to;
            while let Some(nx) = next {
                if data.has_timeline(self.e(nx).animation, pid) {
                    next = self.e(nx).mixing_to;
                    continue;
                }
                if self.e(nx).mix_duration > 0.0 {
                    mode[i] = if first { HOLD_MIX } else { HOLD_MIX_SUBSEQUENT };
                    hold[i] = Some(nx);
                }
                break;
            }
        }
    }

    /// Records `ids`; whether every one was new (4.3 `AnimationState.from` on one track).
    fn add_all_new(&mut self, ids: &[i64]) -> bool {
        let mut all_new = true;
        for &i in ids {
            all_new &= self.property_ids.insert(i);
        }
        all_new
    }

    fn add_all(&mut self, ids: &[i64]) -> bool {
        let mut added = false;
        for &i in ids {
            added |= self.property_ids.insert(i);
        }
        added
    }

    /// spine-cpp 4.3 `AnimationState::from` for a draw-order folder timeline: it is first
    /// only when none of its folder slots was keyed before (by an earlier entry or a
    /// folder with an overlapping slot) and no draw-order timeline was seen; its ids are
    /// recorded either way.
    fn add_folder_43(&mut self, ids: &[i64]) -> bool {
        let mut all_new = true;
        for &i in ids {
            all_new &= self.property_ids.insert(i);
        }
        all_new && !self.property_ids.contains(&DRAW_ORDER_PROPERTY_ID)
    }
}

/// The ranges of `timelines` that do something on a skeleton with `bones` (see
/// `TrackEntry::active_runs`) into `runs`.
fn active_runs(
    bones: &[crate::skeleton::Bone],
    timelines: &[Timeline],
    runs: &mut Vec<(u32, u32)>,
) {
    runs.clear();
    let mut start = None;
    for (i, tl) in timelines.iter().enumerate() {
        let idle = match tl {
            Timeline::Bone { bone, curves, .. } => {
                curves.is_empty() || !bones.get(bone.index()).is_some_and(|b| b.active)
            }
            _ => false,
        };
        match (idle, start) {
            (false, None) => start = Some(i as u32),
            (true, Some(s)) => {
                runs.push((s, i as u32));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        runs.push((s, timelines.len() as u32));
    }
}

/// `math::fmod(x, 360.0)`: `x` itself when `|x| < 360` (what `fmod` returns then, signed
/// zero included), which is what a rotation's running total usually is.
#[inline]
fn fmod_360(x: f32) -> f32 {
    if x.abs() < 360.0 {
        x
    } else {
        math::fmod(x, 360.0)
    }
}

/// `f64::ceil` without the library call (no SSE4.1 `roundsd` in the baseline target):
/// below 2^52 in magnitude the truncation through `i64` is exact, one is added when it fell
/// below `x`, and the sign is `x`'s (`ceil(-0.5) = -0.0`); NaN, infinities and larger
/// values are integral already and returned as they are.
#[inline]
fn ceil(x: f64) -> f64 {
    if x.is_nan() || x.abs() >= 4_503_599_627_370_496.0 {
        return x;
    }
    let t = x as i64 as f64;
    let c = if t < x { t + 1.0 } else { t };
    c.copysign(x)
}

/// spine-cpp `AnimationState::applyRotateTimeline`.
#[allow(clippy::too_many_arguments)]
fn apply_rotate_timeline(
    sk: &mut Skeleton,
    skd: &SkeletonData,
    anim: Option<AnimationId>,
    index: usize,
    (tl, keys): (&Timeline, &[f32]),
    time: f32,
    alpha: f32,
    blend: MixBlend,
    rot: &mut [f32],
    i: usize,
    first_frame: bool,
) {
    if first_frame {
        if let Some(r) = rot.get_mut(i) {
            *r = 0.0;
        }
    }
    let Some(anim) = anim else { return };
    if alpha == 1.0 {
        let d = MixDirection::In;
        apply_held(sk, skd, anim, index, tl, keys, 0.0, time, None, 1.0, blend, d);
        return;
    }
    let Timeline::Bone { bone, curves, .. } = tl else { return };
    let setup = sk.data.bone(*bone).rotation;
    let Some(b) = sk.bones.get_mut(bone.index()) else { return };
    if !b.active || curves.is_empty() {
        return;
    }
    let curves = curves.table(keys);
    if sk.data.behaviour.rotation_mix == RotationMix::Spine3 {
        let spine_c = sk.data.behaviour.rotate_mix_spine_c;
        rotate_mix_3x(b, curves, setup, time, alpha, blend, rot, i, first_frame, spine_c);
        return;
    }
    let (r1, r2);
    if time < curves.time(0) {
        match blend {
            MixBlend::Setup => {
                b.rotation = setup;
                return;
            }
            MixBlend::First => {
                r1 = b.rotation;
                r2 = setup;
            }
            _ => return,
        }
    } else {
        r1 = if blend == MixBlend::Setup { setup } else { b.rotation };
        r2 = setup + crate::timeline::curve_value1(curves, time);
    }
    let total;
    let mut diff = r2 - r1;
    diff -= (ceil(f64::from(diff / 360.0) - 0.5) as f32) * 360.0;
    if diff == 0.0 {
        total = rot.get(i).copied().unwrap_or(0.0);
    } else {
        let (last_total, last_diff) = if first_frame {
            (0.0, diff)
        } else {
            (rot.get(i).copied().unwrap_or(0.0), rot.get(i + 1).copied().unwrap_or(0.0))
        };
        let loops = last_total - fmod_360(last_total);
        let mut t = diff + loops;
        let current = diff >= 0.0;
        let mut dir = last_total >= 0.0;
        if math::abs(last_diff) <= 90.0 && math::sign(last_diff) != math::sign(diff) {
            if math::abs(last_total - loops) > 180.0 {
                t += 360.0 * math::sign(last_total);
                dir = current;
            } else if loops != 0.0 {
                t -= 360.0 * math::sign(last_total);
            } else {
                dir = current;
            }
        }
        if dir != current {
            t += 360.0 * math::sign(last_total);
        }
        if let Some(r) = rot.get_mut(i) {
            *r = t;
        }
        total = t;
    }
    if let Some(r) = rot.get_mut(i + 1) {
        *r = diff;
    }
    b.rotation = r1 + total * alpha;
}

/// 3.x `AnimationState::applyRotateTimeline` (spine-c 3.5/3.6, spine-cpp 3.7/3.8,
/// [`RotationMix::Spine3`]): the target rotation is built from wrapped key deltas, the
/// shortest-route direction is kept across frames, and the result is wrapped.
#[allow(clippy::too_many_arguments)]
fn rotate_mix_3x(
    b: &mut crate::skeleton::Bone,
    curves: spine_model::CurveTable<'_>,
    setup: f32,
    time: f32,
    alpha: f32,
    blend: MixBlend,
    rot: &mut [f32],
    i: usize,
    first_frame: bool,
    spine_c: bool,
) {
    use crate::timeline::{percent_3x, search, wrap_3x};
    let n = curves.frame_count();
    let (r1, r2);
    if time < curves.time(0) {
        match blend {
            MixBlend::Setup => {
                b.rotation = setup;
                return;
            }
            MixBlend::First if !spine_c => {
                r1 = b.rotation;
                r2 = setup;
            }
            _ => return,
        }
    } else {
        r1 = if blend == MixBlend::Setup { setup } else { b.rotation };
        if time >= curves.time(n - 1) {
            r2 = setup + curves.value(n - 1, 0);
        } else {
            let k = search(curves, time);
            let prev = curves.value(k, 0);
            let percent = percent_3x(curves, time, k);
            let d = wrap_3x(curves.value(k + 1, 0) - prev);
            r2 = wrap_3x(prev + d * percent + setup);
        }
    }
    let total;
    let raw = r2 - r1;
    let diff = wrap_3x(raw);
    if (if spine_c { raw } else { diff }) == 0.0 {
        total = rot.get(i).copied().unwrap_or(0.0);
    } else {
        let (mut last_total, last_diff) = if first_frame {
            (0.0, diff)
        } else {
            (rot.get(i).copied().unwrap_or(0.0), rot.get(i + 1).copied().unwrap_or(0.0))
        };
        let current = diff > 0.0;
        let mut dir = last_total >= 0.0;
        if math::sign(last_diff) != math::sign(diff) && math::abs(last_diff) <= 90.0 {
            if math::abs(last_total) > 180.0 {
                last_total += 360.0 * math::sign(last_total);
            }
            dir = current;
        }
        let mut t = diff + last_total - fmod_360(last_total);
        if dir != current {
            t += 360.0 * math::sign(last_total);
        }
        if let Some(r) = rot.get_mut(i) {
            *r = t;
        }
        total = t;
    }
    if let Some(r) = rot.get_mut(i + 1) {
        *r = diff;
    }
    b.rotation = wrap_3x(r1 + total * alpha);
}

#[cfg(test)]
mod tests {
    use super::{ceil, fmod_360};
    use crate::math;

    /// Edge values and a spread of magnitudes, both signs.
    fn samples() -> Vec<f64> {
        let mut v = vec![
            0.0,
            0.5,
            1.0,
            1.5,
            0.49999999999999994,
            1e-300,
            359.99997,
            360.0,
            720.5,
            4_503_599_627_370_495.5,
            4_503_599_627_370_496.0,
            4_503_599_627_370_497.0,
            9.3e18,
            1e300,
            f64::INFINITY,
            f64::NAN,
            f64::MIN_POSITIVE,
        ];
        let mut x = 1.0e-6f64;
        while x < 1e20 {
            v.extend([x, x + 0.25, x * 1.618_033_988_749_895]);
            x *= 1.7;
        }
        let neg: Vec<f64> = v.iter().map(|x| -x).collect();
        v.extend(neg);
        v
    }

    #[test]
    fn ceil_matches_std_bit_for_bit() {
        for x in samples() {
            assert_eq!(ceil(x).to_bits(), x.ceil().to_bits(), "ceil({x:e})");
        }
    }

    #[test]
    fn fmod_360_matches_fmod_bit_for_bit() {
        for x in samples() {
            let x = x as f32;
            assert_eq!(fmod_360(x).to_bits(), math::fmod(x, 360.0).to_bits(), "fmod({x:e})");
        }
    }
}
