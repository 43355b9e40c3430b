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
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use spine_model::{AnimationId, BoneProperty, HoldRules, RotationMix, SkeletonData, Timeline};

use crate::math;
use crate::skeleton::Skeleton;
use crate::timeline::{
    apply_bone_run, apply_held, apply_timeline, apply_timeline_in, property_ids, ApplyArgs,
    EventRef, MixBlend, MixDirection, PropertyIds, DRAW_ORDER_PROPERTY_ID,
};

mod apply;
mod entry;
mod events;
mod mix;
mod spine35;
#[cfg(test)]
mod tests;
mod update;

use apply::*;
use spine35::*;

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
    /// What each key of each attachment timeline resolved to (see [`KeyCache`]).
    key_cache: KeyCache,
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
        let mut key_counts = Vec::new();
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
                            key_counts.push(times.len());
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
            key_cache: KeyCache::new(&key_counts),
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
    /// and under which skin (see [`AnimationState::resolve_attachment`]); after the
    /// timelines' entries, one per slot for its setup attachment (the reset of slots no
    /// timeline keyed).
    attachment_cache: Vec<ResolvedAttachment>,
    /// A second strong reference to `data`, moved out for the length of
    /// [`AnimationState::apply`] and put back: an owner of the data that does not borrow
    /// the state, without an atomic reference-count round trip per frame (every instance
    /// of a rig shares that count, so the round trips also contended between threads).
    spare_data: Option<Arc<AnimationStateData>>,
}

/// A cached attachment lookup by name: key `key` of an attachment timeline
/// ([`SETUP_KEY`] = the slot's setup attachment) under skin `skin` is `attachment`. For a
/// timeline whose key times never decrease, `from..until` are the times at which `key` is
/// the timeline's key (its time and the next key's, infinity after the last key), so that a
/// frame within them answers from this entry alone (see
/// [`AnimationState::attachment_held`]); an empty span otherwise.
#[derive(Debug, Clone, Copy)]
struct ResolvedAttachment {
    key: u32,
    skin: Option<spine_model::SkinId>,
    attachment: Option<spine_model::AttachmentId>,
    from: f32,
    until: f32,
}

/// What each key of each attachment timeline resolved to, under which skin: one word per
/// key, in the [`AnimationStateData`] (so shared by its states, across threads: each word
/// is written whole, and a word only ever holds a correct answer for the skin it names).
/// A state's own entry per timeline answers while the key stays; this answers at a key
/// change, so a timeline that changes key every few frames (a blink, frame-by-frame art)
/// looks each name up once per skin, not at every change. A word is 0 until resolved, then
/// the skin's tag (1 for no skin, else its index + 2) in the high half and the
/// attachment's index (`u32::MAX` for none) in the low half.
#[derive(Debug, Default)]
struct KeyCache {
    /// Per attachment cache entry: its timeline's first word and key count.
    timelines: Vec<(usize, usize)>,
    words: Vec<AtomicU64>,
}

impl KeyCache {
    /// Words for timelines of `key_counts` keys.
    fn new(key_counts: &[usize]) -> KeyCache {
        let mut timelines = Vec::with_capacity(key_counts.len());
        let mut total = 0usize;
        for &n in key_counts {
            timelines.push((total, n));
            total = total.saturating_add(n);
        }
        KeyCache { timelines, words: (0..total).map(|_| AtomicU64::new(0)).collect() }
    }

    /// The word of key `key` of the timeline with cache entry `timeline`.
    fn entry(&self, timeline: usize, key: u32) -> Option<KeyWord<'_>> {
        let &(first, n) = self.timelines.get(timeline)?;
        let key = key as usize;
        (key < n).then(|| self.words.get(first + key)).flatten().map(KeyWord)
    }
}

impl Clone for KeyCache {
    /// A copy of the answers so far.
    fn clone(&self) -> KeyCache {
        let words = self.words.iter().map(|w| AtomicU64::new(w.load(Ordering::Relaxed))).collect();
        KeyCache { timelines: self.timelines.clone(), words }
    }
}

/// One key's word of a [`KeyCache`].
#[derive(Clone, Copy)]
struct KeyWord<'a>(&'a AtomicU64);

impl KeyWord<'_> {
    /// The tag of `skin` (`None` past the tags' range: not cached).
    fn tag(skin: Option<spine_model::SkinId>) -> Option<u64> {
        match skin {
            None => Some(1),
            Some(s) => u32::try_from(s.index()).ok()?.checked_add(2).map(u64::from),
        }
    }

    /// The attachment the key resolved to under `skin`, if this word holds it.
    fn get(self, skin: Option<spine_model::SkinId>) -> Option<Option<spine_model::AttachmentId>> {
        let word = self.0.load(Ordering::Relaxed);
        if word >> 32 != Self::tag(skin)? {
            return None;
        }
        let a = word as u32;
        Some((a != u32::MAX).then(|| spine_model::AttachmentId::from_index(a as usize)))
    }

    /// Records that the key resolved to `attachment` under `skin` (nothing when either is
    /// out of the word's range).
    fn set(self, skin: Option<spine_model::SkinId>, attachment: Option<spine_model::AttachmentId>) {
        let Some(tag) = Self::tag(skin) else { return };
        let a = match attachment {
            None => u32::MAX,
            Some(a) => match u32::try_from(a.index()) {
                Ok(a) if a != u32::MAX => a,
                _ => return,
            },
        };
        self.0.store(tag << 32 | u64::from(a), Ordering::Relaxed);
    }
}

/// [`ResolvedAttachment::key`] of an empty cache entry.
const NO_KEY: u32 = u32::MAX;
/// [`ResolvedAttachment::key`] of the slot's setup attachment.
const SETUP_KEY: u32 = u32::MAX - 1;
/// [`ResolvedAttachment::from`] and `until` of an entry no time is answered from.
const NO_SPAN: (f32, f32) = (f32::INFINITY, f32::INFINITY);

impl AnimationState {
    /// A state with no tracks.
    pub fn new(data: Arc<AnimationStateData>) -> AnimationState {
        let (from, until) = NO_SPAN;
        let empty = ResolvedAttachment { key: NO_KEY, skin: None, attachment: None, from, until };
        // One entry per attachment timeline, then one per slot (its setup attachment).
        let slots = data.skeleton_data.slots.len();
        let attachment_cache = vec![empty; data.attachment_cache_len + slots];
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
}
