//! The 3.5 rules (`HoldRules::Spine35`): current entry, mixing out and 3.x rotation.

use super::*;

impl AnimationState {
    /// spine-c 3.5 `_spAnimationState_updateMixingFrom`: the deepest entry first; an entry
    /// mixed out ends once the mix is done and it is not mixing itself.
    pub(super) fn update_mixing_from_35(&mut self, entry: EntryId, delta: f32) {
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

    /// spine-c 3.5 `spAnimationState_apply` for one track's current entry. The entry fields
    /// 3.5 does not have (`reverse`, `hold_previous`, `shortest_rotation`, `mix_blend`,
    /// `alpha_attachment_threshold`) are ignored.
    pub(super) fn apply_current_35(
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
                let args = ApplyArgs { alpha: mix, blend: tblend, ..ApplyArgs::at(animation_time) };
                apply_rotate_timeline(sk, skd, (anim, ii), (tl, keys), args, &mut rot, first_frame);
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
                let args = ApplyArgs {
                    last_time: animation_last,
                    time: animation_time,
                    alpha: mix,
                    blend: tblend,
                    direction: MixDirection::In,
                };
                apply_timeline(sk, a, ii, Some(&mut *events), args);
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
    pub(super) fn apply_mixing_from_35(
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
                let args = ApplyArgs { alpha, blend: tblend, ..ApplyArgs::at(animation_time) };
                apply_rotate_timeline(sk, skd, (anim, ii), (tl, keys), args, &mut rot, first_frame);
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
                let args = ApplyArgs {
                    last_time: animation_last,
                    time: animation_time,
                    alpha,
                    blend: tblend,
                    direction: MixDirection::Out,
                };
                apply_timeline(sk, a, ii, ev, args);
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
}

/// 3.x `AnimationState::applyRotateTimeline` (spine-c 3.5/3.6, spine-cpp 3.7/3.8,
/// [`RotationMix::Spine3`]): the target rotation is built from wrapped key deltas, the
/// shortest-route direction is kept across frames, and the result is wrapped. `curves` is
/// the timeline's table and `setup` the bone's setup rotation; `rot` the timeline's rotation
/// memory (running total, last difference).
pub(super) fn rotate_mix_3x(
    b: &mut crate::skeleton::Bone,
    (curves, setup): (spine_model::CurveTable<'_>, f32),
    args: ApplyArgs,
    rot: &mut [f32],
    first_frame: bool,
    spine_c: bool,
) {
    let ApplyArgs { time, alpha, blend, .. } = args;
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
        total = rot.first().copied().unwrap_or(0.0);
    } else {
        let (mut last_total, last_diff) = if first_frame {
            (0.0, diff)
        } else {
            (rot.first().copied().unwrap_or(0.0), rot.get(1).copied().unwrap_or(0.0))
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
        if let Some(r) = rot.first_mut() {
            *r = t;
        }
        total = t;
    }
    if let Some(r) = rot.get_mut(1) {
        *r = diff;
    }
    b.rotation = wrap_3x(r1 + total * alpha);
}
