//! Applying the tracks to a skeleton: current entries, attachments, rotation mixing.

use super::*;

/// One track entry's animation mixing in: its timelines and their key tables, the times,
/// alpha and blend (`args`, [`MixDirection::In`]), and whether its attachment keys mark
/// their slots as the entry's (`attachments`: alpha at or above the entry's threshold).
#[derive(Clone, Copy)]
pub(super) struct EntryTimelines<'a> {
    pub timelines: &'a [Timeline],
    pub keys: &'a [f32],
    pub args: ApplyArgs,
    pub attachments: bool,
}

impl AnimationState {
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
    pub(super) fn apply_tracks(&mut self, sk: &mut Skeleton) -> bool {
        // A cold skeleton's records and the entries' timeline lists read at once, so that
        // their cache misses overlap (see `Skeleton::touch`).
        if sk.cold() {
            let mut h = sk.touch();
            for e in &self.entries {
                h ^= e.bone_groups.touch();
            }
            std::hint::black_box(h);
        }
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
            if sd.behaviour.mix_without_hold {
                self.apply_current_35(cur, sk, sd, skd, &mut events);
                continue;
            }
            self.apply_track(i, cur, sk, (sd, skd), &mut events);
        }
        self.events = events;
        self.reset_unkeyed_attachments(sk, sd);
        self.spare_data = Some(data);
        self.drain();
        applied
    }

    /// Track `i`'s current entry `cur` applied (spine-cpp 4.2 rules): the entries it mixes
    /// from first, then its own timelines at the mixed alpha, then its events queued.
    #[inline(always)]
    fn apply_track(
        &mut self,
        i: usize,
        cur: EntryId,
        sk: &mut Skeleton,
        (sd, skd): (&SkeletonData, &SkeletonData),
        events: &mut Vec<EventRef>,
    ) {
        let blend = if i == 0 { MixBlend::First } else { self.e(cur).mix_blend };
        let mut alpha = self.e(cur).alpha;
        if self.e(cur).mixing_from.is_some() {
            alpha *= self.apply_mixing_from(cur, sk, sd, skd, blend, events);
        } else if self.e(cur).track_time >= self.e(cur).track_end && self.e(cur).next.is_none() {
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
                let ev = if reverse { None } else { Some(&mut *events) };
                let (last_time, time) = (animation_last, apply_time);
                let direction = MixDirection::In;
                // The usual case (track 0, alpha 1) with its mix settings as constants.
                if blend == MixBlend::First && alpha == 1.0 {
                    let (alpha, blend) = (1.0, MixBlend::First);
                    let args = ApplyArgs { last_time, time, alpha, blend, direction };
                    let entry = EntryTimelines { timelines, keys, args, attachments };
                    self.apply_in(cur, sk, skd, a, entry, ev);
                } else {
                    let args = ApplyArgs { last_time, time, alpha, blend, direction };
                    let entry = EntryTimelines { timelines, keys, args, attachments };
                    self.apply_in(cur, sk, skd, a, entry, ev);
                }
            }
        } else {
            let ev = if reverse { None } else { Some(&mut *events) };
            let (last_time, time) = (animation_last, apply_time);
            let args = ApplyArgs { last_time, time, alpha, blend, direction: MixDirection::In };
            let entry = EntryTimelines { timelines, keys, args, attachments };
            self.apply_general(cur, sk, skd, entry, ev);
        }
        self.queue_events(cur, animation_time, events, sd);
        events.clear();
        let c = self.em(cur);
        c.next_animation_last = animation_time;
        c.next_track_last = c.track_time;
        c.time64[T_NEXT_LAST] = c.exact(T_TRACK);
    }

    /// Slots no timeline keyed this frame go back to their setup attachment (spine-cpp's
    /// `unkeyedState` pass), and the state counter moves on.
    #[inline(always)]
    fn reset_unkeyed_attachments(&mut self, sk: &mut Skeleton, sd: &SkeletonData) {
        let setup_state = self.unkeyed_state + SETUP;
        // The slots' setup attachments resolve through the cache entries after the
        // timelines' (one per slot), not by name every frame.
        let slot_cache = self.data.attachment_cache_len;
        // The next slot in the setup state, searched over the slice (no reload of the
        // skeleton's slot list per slot).
        let mut si = 0;
        while let Some(i) = sk.attachment_states.find_odd(si, setup_state) {
            si = i;
            let sid = spine_model::SlotId::from_index(si);
            let name = || sd.slot(sid).attachment.as_deref();
            let attachment =
                self.resolve_attachment(sk, Some(slot_cache + si), (SETUP_KEY, NO_SPAN), sid, name);
            sk.set_attachment(sid, attachment);
            si += 1;
        }
        self.unkeyed_state += 2;
    }

    /// The timelines of track entry `cur` by their modes (first / subsequent, shortest
    /// rotation memory), for every case [`AnimationState::apply_in`] does not take. Out of
    /// line, apart from the usual case's code.
    #[inline(never)]
    pub(super) fn apply_general(
        &mut self,
        cur: EntryId,
        sk: &mut Skeleton,
        skd: &SkeletonData,
        entry: EntryTimelines<'_>,
        mut events: Option<&mut Vec<EventRef>>,
    ) {
        let EntryTimelines { timelines, keys, args, attachments } = entry;
        let (apply_time, blend) = (args.time, args.blend);
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
            let targs = ApplyArgs { blend: tblend, ..args };
            if !shortest && is_rotate {
                apply_rotate_timeline(
                    sk,
                    skd,
                    (anim, ii),
                    (tl, keys),
                    targs,
                    &mut rot,
                    first_frame,
                );
            } else if let Timeline::Attachment { .. } = tl {
                let cache = self.attachment_cache_slot(anim, ii);
                self.apply_attachment_timeline(sk, tl, cache, apply_time, blend, attachments);
            } else if let Some(a) = anim {
                apply_held(sk, skd, (a, ii), (tl, keys), events.as_deref_mut(), targs);
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
    pub(super) fn apply_in(
        &mut self,
        cur: EntryId,
        sk: &mut Skeleton,
        skd: &SkeletonData,
        anim: AnimationId,
        entry: EntryTimelines<'_>,
        mut events: Option<&mut Vec<EventRef>>,
    ) {
        let EntryTimelines { timelines, keys, args, .. } = entry;
        let key = (sk.activity, Some(anim));
        let e = self.em(cur);
        if e.active_key != key {
            e.active_key = key;
            active_runs((&sk.bones, &sk.slots), timelines, &mut e.active_runs);
            let rules = crate::timeline::BoneRules::of(skd);
            e.bone_groups.build(sk.bones.len(), rules, timelines, keys, &e.active_runs);
        }
        if self.e(cur).bone_groups.usable {
            // The bone timelines by property, then the others in order (no other kind
            // reads or writes a bone's local pose).
            self.em(cur).bone_groups.apply(&mut sk.bones, skd, keys, args);
            let mut r = 0;
            while let Some(&ii) = self.e(cur).bone_groups.others.get(r) {
                r += 1;
                let ii = ii as usize;
                let Some(tl) = timelines.get(ii) else { continue };
                self.apply_other_in(sk, skd, (anim, ii), tl, entry, events.as_deref_mut());
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
                apply_bone_run(&mut sk.bones, skd, timelines, keys, &mut ii, args);
                let Some(tl) = timelines.get(ii) else { break };
                self.apply_other_in(sk, skd, (anim, ii), tl, entry, events.as_deref_mut());
                ii += 1;
            }
        }
    }

    /// Timeline `ii` of `anim` (`tl`, one of `entry`'s) in [`AnimationState::apply_in`],
    /// not a bone timeline of a run: attachment timelines through the state, the others
    /// through [`apply_held`].
    #[inline(always)]
    pub(super) fn apply_other_in(
        &mut self,
        sk: &mut Skeleton,
        skd: &SkeletonData,
        (anim, ii): (AnimationId, usize),
        tl: &Timeline,
        entry: EntryTimelines<'_>,
        events: Option<&mut Vec<EventRef>>,
    ) {
        let EntryTimelines { keys, args, attachments, .. } = entry;
        if let Timeline::Attachment { slot, .. } = tl {
            let cache = self.attachment_cache_slot(Some(anim), ii);
            // The key of the last frame still holds (the usual frame): its attachment, the
            // slot marked, without the timeline's keys (`active_runs` left out the
            // timelines of inactive bones).
            if let Some(attachment) = self.attachment_held(sk, cache, args.time) {
                self.settle_slot(sk, *slot, Some(attachment), attachments);
                return;
            }
            self.apply_attachment_timeline(sk, tl, cache, args.time, args.blend, attachments);
        } else {
            apply_held(sk, skd, (anim, ii), (tl, keys), events, args);
        }
    }

    /// The cache entry of timeline `index` of `anim` when it is an attachment timeline.
    pub(super) fn attachment_cache_slot(
        &self,
        anim: Option<AnimationId>,
        index: usize,
    ) -> Option<usize> {
        let a = anim?;
        let i = *self.data.attachment_cache_index.get(a.index())?.get(index)?;
        (i != u32::MAX).then_some(i as usize)
    }

    /// `sk.get_attachment(slot, name)` (empty name = none) for key `key` of the attachment
    /// timeline with cache entry `cache`, looked up once per key and skin: the names and
    /// skins are the state's (immutable) skeleton data, so while `sk` plays that same data
    /// the answer depends only on the key and the skeleton's skin. A new answer is kept with
    /// `span`, the times the key holds for (see [`AnimationState::attachment_held`]).
    #[inline(always)]
    pub(super) fn resolve_attachment<'n>(
        &mut self,
        sk: &Skeleton,
        cache: Option<usize>,
        (key, span): (u32, (f32, f32)),
        slot: spine_model::SlotId,
        name: impl FnOnce() -> Option<&'n str>,
    ) -> Option<spine_model::AttachmentId> {
        let same_data = Arc::ptr_eq(&sk.data, &self.data.skeleton_data);
        let cache = cache.filter(|_| same_data);
        let entry = cache.and_then(|i| self.attachment_cache.get_mut(i));
        if let Some(e) = &entry {
            if e.key == key && e.skin == sk.skin {
                return e.attachment;
            }
        }
        // A key change: the key's entry in the data's cache, shared by every state of the
        // data (a timeline that changes key every few frames resolves each name once).
        let shared = cache.and_then(|i| self.data.key_cache.entry(i, key));
        let attachment = match shared.and_then(|k| k.get(sk.skin)) {
            Some(hit) => hit,
            None => {
                // The key's name is looked up only when no cache answers.
                let name = name().filter(|n| !n.is_empty());
                let attachment = name.and_then(|n| sk.get_attachment(slot, n));
                if let Some(k) = shared {
                    k.set(sk.skin, attachment);
                }
                attachment
            }
        };
        if let Some(e) = entry {
            let (from, until) = span;
            *e = ResolvedAttachment { key, skin: sk.skin, attachment, from, until };
        }
        attachment
    }

    /// The attachment of the attachment timeline with cache entry `cache` at `time` when
    /// its entry answers it: `time` within the span of the key it last resolved, under the
    /// same skin and skeleton data. The answer [`AnimationState::apply_attachment_timeline`]
    /// gives for an active slot (whose bone's activity the caller has checked), without
    /// reading the timeline.
    #[inline(always)]
    pub(super) fn attachment_held(
        &self,
        sk: &Skeleton,
        cache: Option<usize>,
        time: f32,
    ) -> Option<Option<spine_model::AttachmentId>> {
        let e = self.attachment_cache.get(cache?)?;
        let held = e.from <= time
            && time < e.until
            && e.skin == sk.skin
            && Arc::ptr_eq(&sk.data, &self.data.skeleton_data);
        held.then_some(e.attachment)
    }

    pub(super) fn apply_attachment_timeline(
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
                Some(self.resolve_attachment(sk, cache, (SETUP_KEY, NO_SPAN), *slot, name))
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
            // The times key `k` holds for (key times that never decrease).
            let sorted = cache.is_some_and(|ci| self.data.attachment_sorted.get(ci) == Some(&true));
            let span = match times.get(k) {
                Some(&from) if sorted => (from, times.get(k + 1).copied().unwrap_or(f32::INFINITY)),
                _ => NO_SPAN,
            };
            Some(self.resolve_attachment(sk, cache, (key, span), *slot, name))
        };
        self.settle_slot(sk, *slot, resolved, attachments);
    }

    /// The end of an attachment timeline on `slot`: the attachment it `resolved` (if any)
    /// set, the slot marked as the entry's (`attachments`), then as the setup pose's when no
    /// timeline of this frame marked it.
    #[inline(always)]
    fn settle_slot(
        &self,
        sk: &mut Skeleton,
        slot: spine_model::SlotId,
        resolved: Option<Option<spine_model::AttachmentId>>,
        attachments: bool,
    ) {
        if let Some(attachment) = resolved {
            sk.set_attachment(slot, attachment);
            if attachments {
                self.mark(sk, slot, CURRENT);
            }
        }
        if sk.attachment_states.get(slot.index()) <= self.unkeyed_state {
            self.mark(sk, slot, SETUP);
        }
    }

    pub(super) fn set_attachment(
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
    #[inline(always)]
    pub(super) fn mark(&self, sk: &mut Skeleton, slot: spine_model::SlotId, mark: i32) {
        let n = sk.slots.len();
        sk.attachment_states.set(slot.index(), n, self.unkeyed_state + mark);
    }
}

/// The ranges of `timelines` that do something on a skeleton with `bones` and `slots` (see
/// `TrackEntry::active_runs`) into `runs`: bone timelines of active bones, attachment
/// timelines of slots of active bones (both with keys), every other kind.
pub(super) fn active_runs(
    (bones, slots): (&[crate::skeleton::Bone], &[crate::skeleton::Slot]),
    timelines: &[Timeline],
    runs: &mut Vec<(u32, u32)>,
) {
    runs.clear();
    let mut start = None;
    let active = |b: spine_model::BoneId| bones.get(b.index()).is_some_and(|b| b.active);
    for (i, tl) in timelines.iter().enumerate() {
        let idle = match tl {
            Timeline::Bone { bone, curves, .. } => curves.is_empty() || !active(*bone),
            Timeline::Attachment { slot, times, .. } => {
                times.is_empty() || !slots.get(slot.index()).is_some_and(|s| active(s.bone))
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
pub(super) fn fmod_360(x: f32) -> f32 {
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
pub(super) fn ceil(x: f64) -> f64 {
    if x.is_nan() || x.abs() >= 4_503_599_627_370_496.0 {
        return x;
    }
    let t = x as i64 as f64;
    let c = if t < x { t + 1.0 } else { t };
    c.copysign(x)
}

/// spine-cpp `AnimationState::applyRotateTimeline` for timeline `index` of `anim` at
/// `args.time`, `args.alpha`, `args.blend`; `rot` is the entry's rotation memory (the
/// timeline's running total and last difference at `index * 2`).
pub(super) fn apply_rotate_timeline(
    sk: &mut Skeleton,
    skd: &SkeletonData,
    (anim, index): (Option<AnimationId>, usize),
    (tl, keys): (&Timeline, &[f32]),
    args: ApplyArgs,
    rot: &mut [f32],
    first_frame: bool,
) {
    let ApplyArgs { time, alpha, blend, .. } = args;
    let i = index << 1;
    if first_frame {
        if let Some(r) = rot.get_mut(i) {
            *r = 0.0;
        }
    }
    let Some(anim) = anim else { return };
    if alpha == 1.0 {
        let args = ApplyArgs { last_time: 0.0, blend, ..ApplyArgs::at(time) };
        apply_held(sk, skd, (anim, index), (tl, keys), None, args);
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
        let spine_c = sk.data.behaviour.rotate_mix_tests_before_wrap;
        let memory = rot.get_mut(i..).unwrap_or_default();
        rotate_mix_3x(b, (curves, setup), args, memory, first_frame, spine_c);
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
