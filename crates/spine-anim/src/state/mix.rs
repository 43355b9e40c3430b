//! Mixing: applying the entries mixed out from, and the hold-previous timeline modes.

use super::*;

/// What applying an entry mixing out needs besides the entry: its times, alphas, blend and
/// the thresholds' verdicts.
struct MixOut {
    animation_last: f32,
    apply_time: f32,
    /// Alpha of held timelines.
    alpha_hold: f32,
    /// Alpha of the other timelines.
    alpha_mix: f32,
    blend: MixBlend,
    /// Events fire (not reversed, mix below the event threshold).
    fire: bool,
    /// Attachment keys apply (mix below the attachment threshold).
    attachments: bool,
    /// Draw order keys apply (mix below the draw order threshold).
    draw_order: bool,
}

impl AnimationState {
    /// Applies the entries `to` mixes from (innermost first) and returns `to`'s mix (0..1;
    /// 1 when nothing is mixed from): spine-cpp `AnimationState::applyMixingFrom`.
    pub(super) fn apply_mixing_from(
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
        let (alpha_hold, alpha_mix) = self.mix_out_alphas(from, to, mix, from_mix, sd);
        let animation_time = f.animation_time();
        let anim = f.animation;
        let apply_time = if f.reverse {
            anim.map_or(0.0, |a| sd.animation(a).duration) - animation_time
        } else {
            animation_time
        };
        let out = MixOut {
            animation_last: f.animation_last,
            apply_time,
            alpha_hold,
            alpha_mix,
            blend,
            fire: !f.reverse && mix < f.event_threshold,
            attachments: mix < f.mix_attachment_threshold,
            draw_order: mix < f.mix_draw_order_threshold,
        };
        if blend == MixBlend::Add {
            if let Some(a) = anim {
                let n = sd.animation(a).timelines.len();
                for ii in 0..n {
                    let ev = if out.fire { Some(&mut *events) } else { None };
                    let args = ApplyArgs {
                        last_time: out.animation_last,
                        time: out.apply_time,
                        alpha: alpha_mix,
                        blend,
                        direction: MixDirection::Out,
                    };
                    apply_timeline_in(sk, skd, a, ii, ev, args);
                }
            }
        } else {
            self.apply_mixed_out(from, sk, (sd, skd), &out, events);
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

    /// The alphas entry `from` is applied at while `to` mixes in at `mix`: `(held, mixed)`.
    #[inline(always)]
    fn mix_out_alphas(
        &self,
        from: EntryId,
        to: EntryId,
        mix: f32,
        from_mix: f32,
        sd: &SkeletonData,
    ) -> (f32, f32) {
        let f = self.e(from);
        if sd.behaviour.mix_from_add_model {
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
        }
    }

    /// The timelines of entry `from` mixing out, each by its mode (first / subsequent /
    /// held), with the rotation memory and the alpha sum kept on the entry.
    #[inline(always)]
    fn apply_mixed_out(
        &mut self,
        from: EntryId,
        sk: &mut Skeleton,
        (sd, skd): (&SkeletonData, &SkeletonData),
        out: &MixOut,
        events: &mut Vec<EventRef>,
    ) {
        let f = self.e(from);
        let anim = f.animation;
        let timelines: &[Timeline] = anim.map_or(&[], |a| &sd.animation(a).timelines);
        let keys: &[f32] = anim.map_or(&[], |a| &sd.animation(a).keys);
        let n = timelines.len();
        let alpha_attachment_threshold = f.alpha_attachment_threshold;
        let shortest = f.shortest_rotation;
        let first_frame = !shortest && f.timelines_rotation.len() != n << 1;
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
            if mode == SUBSEQUENT && !out.draw_order && matches!(tl, Timeline::DrawOrder { .. }) {
                continue;
            }
            let (tblend, alpha) = self.mode_blend_alpha(from, ii, mode, out);
            total_alpha += alpha;
            let is_rotate = matches!(tl, Timeline::Bone { property: BoneProperty::Rotate, .. });
            if !shortest && is_rotate {
                let args = ApplyArgs { alpha, blend: tblend, ..ApplyArgs::at(out.apply_time) };
                let tl = (tl, keys);
                apply_rotate_timeline(sk, skd, (anim, ii), tl, args, &mut rot, first_frame);
            } else if let Timeline::Attachment { .. } = tl {
                self.apply_attachment_timeline(
                    sk,
                    tl,
                    self.attachment_cache_slot(anim, ii),
                    out.apply_time,
                    tblend,
                    out.attachments && alpha >= alpha_attachment_threshold,
                );
            } else if let Some(a) = anim {
                if out.draw_order
                    && matches!(tl, Timeline::DrawOrder { .. })
                    && tblend == MixBlend::Setup
                {
                    direction = MixDirection::In;
                }
                let ev = if out.fire { Some(&mut *events) } else { None };
                let args = ApplyArgs {
                    last_time: out.animation_last,
                    time: out.apply_time,
                    alpha,
                    blend: tblend,
                    direction,
                };
                apply_held(sk, skd, (a, ii), (tl, keys), ev, args);
            }
        }
        let f = self.em(from);
        f.timeline_mode = modes;
        f.timelines_rotation = rot;
        f.total_alpha = total_alpha;
    }

    /// The blend and alpha of timeline `ii` of entry `from` mixing out, by its `mode`.
    #[inline(always)]
    fn mode_blend_alpha(
        &self,
        from: EntryId,
        ii: usize,
        mode: u8,
        out: &MixOut,
    ) -> (MixBlend, f32) {
        match mode {
            SUBSEQUENT => (out.blend, out.alpha_mix),
            FIRST => (MixBlend::Setup, out.alpha_mix),
            HOLD_SUBSEQUENT => (out.blend, out.alpha_hold),
            HOLD_FIRST => (MixBlend::Setup, out.alpha_hold),
            _ => {
                let hm = self.e(from).timeline_hold_mix.get(ii).copied().flatten();
                let a = hm.map_or(out.alpha_hold, |h| {
                    let h = self.e(h);
                    out.alpha_hold * (1.0 - h.mix_time / h.mix_duration).max(0.0)
                });
                (if mode == HOLD_MIX_SUBSEQUENT { out.blend } else { MixBlend::Setup }, a)
            }
        }
    }

    pub(super) fn compute_hold(&mut self, entry: EntryId) {
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
        if data.skeleton_data.behaviour.mix_without_hold {
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
        } else if data.skeleton_data.behaviour.mix_from_add_model {
            self.compute_hold43(to, ids, timelines, &mut mode, &mut hold, &data);
        } else {
            let folders43 = data.skeleton_data.behaviour.mix_from_add_model;
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
    pub(super) fn compute_hold43(
        &mut self,
        to: Option<EntryId>,
        ids: &[PropertyIds],
        timelines: &[Timeline],
        mode: &mut [u8],
        hold: &mut [Option<EntryId>],
        data: &AnimationStateData,
    ) {
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
    pub(super) fn add_all_new(&mut self, ids: &[i64]) -> bool {
        let mut all_new = true;
        for &i in ids {
            all_new &= self.property_ids.insert(i);
        }
        all_new
    }

    pub(super) fn add_all(&mut self, ids: &[i64]) -> bool {
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
    pub(super) fn add_folder_43(&mut self, ids: &[i64]) -> bool {
        let mut all_new = true;
        for &i in ids {
            all_new &= self.property_ids.insert(i);
        }
        all_new && !self.property_ids.contains(&DRAW_ORDER_PROPERTY_ID)
    }
}
