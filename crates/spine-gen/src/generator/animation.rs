//! Animations: one builder per timeline family.

use spine_format::binary::shared::CurveType;
use spine_format::binary::v43::*;
use spine_format::binary::StrRef;

use super::{name_ref, Gen, SeqRef, VertexRef};

impl Gen {
    /// Animation `i`: every timeline family in wire order, then the hint and the color.
    pub(super) fn animation(
        &mut self,
        i: usize,
        sk: &Skeleton,
        vrefs: &[VertexRef],
        srefs: &[SeqRef],
    ) -> Animation {
        let mut a = Animation { name: format!("anim{i}").into(), ..Animation::default() };
        a.slots = self.slot_timelines(sk.slots.len());
        a.bones = self.bone_timelines(sk.bones.len());
        a.ik = self.ik_timelines(&of_type(sk, ConstraintType::Ik));
        a.transform = self.transform_timelines(&of_type(sk, ConstraintType::Transform));
        a.path = self.path_timelines(&of_type(sk, ConstraintType::Path));
        a.physics = self.physics_timelines(&of_type(sk, ConstraintType::Physics));
        a.slider = self.slider_timelines(&of_type(sk, ConstraintType::Slider));
        a.attachments = group_by_skin_and_slot(self.attachment_timelines(vrefs, srefs));
        let ns = sk.slots.len();
        if ns > 1 && self.rng.chance(60) {
            a.draw_order = self
                .times()
                .into_iter()
                .map(|time| DrawOrderKey { time, changes: self.draw_order(ns) })
                .collect();
        }
        a.draw_order_folders = self.draw_order_folders(ns);
        if !sk.events.is_empty() {
            a.events = self.event_keys(&sk.events);
        }
        a.timeline_hint = count_timelines(&a) as u32;
        a.color = self.cfg.nonessential.then(|| self.color());
        a
    }

    /// Slot timelines (attachment, colors, alpha) on random slots.
    fn slot_timelines(&mut self, ns: usize) -> Vec<SlotTimelines> {
        let mut out = Vec::new();
        if ns > 0 {
            for _ in 0..self.rng.range(0, self.cfg.timelines) {
                let slot = self.rng.below(ns) as u32;
                let n = self.rng.range(1, 3);
                let timelines = (0..n)
                    .map(|_| match self.next(6, 6) {
                        0 => SlotTimeline::Attachment(
                            self.times()
                                .into_iter()
                                .map(|time| AttachmentKey {
                                    time,
                                    attachment: if self.rng.chance(80) {
                                        name_ref(self.rng.below(4))
                                    } else {
                                        StrRef::NONE
                                    },
                                })
                                .collect(),
                        ),
                        1 => SlotTimeline::Rgba(self.curve(4, |g| {
                            [g.rng.byte(), g.rng.byte(), g.rng.byte(), g.rng.byte()]
                        })),
                        2 => SlotTimeline::Rgb(
                            self.curve(3, |g| [g.rng.byte(), g.rng.byte(), g.rng.byte()]),
                        ),
                        3 => SlotTimeline::Rgba2(self.curve(7, |g| {
                            let mut v = [0u8; 7];
                            v.iter_mut().for_each(|b| *b = g.rng.byte());
                            v
                        })),
                        4 => SlotTimeline::Rgb2(self.curve(6, |g| {
                            let mut v = [0u8; 6];
                            v.iter_mut().for_each(|b| *b = g.rng.byte());
                            v
                        })),
                        _ => SlotTimeline::Alpha(self.curve(1, |g| [g.rng.byte()])),
                    })
                    .collect();
                out.push(SlotTimelines { slot, timelines });
            }
        }
        out
    }

    /// Bone timelines (every transform channel and inherit) on random bones; at least one.
    fn bone_timelines(&mut self, nb: usize) -> Vec<BoneTimelines> {
        let mut out = Vec::new();
        for _ in 0..self.rng.range(1, self.cfg.timelines.max(1) * 2) {
            let bone = self.rng.below(nb) as u32;
            let n = self.rng.range(1, 4);
            let timelines = (0..n)
                .map(|_| match self.next(7, 11) {
                    0 => BoneTimeline::Rotate(self.f1()),
                    1 => BoneTimeline::Translate(self.f2()),
                    2 => BoneTimeline::TranslateX(self.f1()),
                    3 => BoneTimeline::TranslateY(self.f1()),
                    4 => BoneTimeline::Scale(self.scale2()),
                    5 => BoneTimeline::ScaleX(self.scale1()),
                    6 => BoneTimeline::ScaleY(self.scale1()),
                    7 => BoneTimeline::Shear(self.f2()),
                    8 => BoneTimeline::ShearX(self.f1()),
                    9 => BoneTimeline::ShearY(self.f1()),
                    _ => BoneTimeline::Inherit(
                        self.times()
                            .into_iter()
                            .map(|time| InheritKey { time, inherit: self.inherit() })
                            .collect(),
                    ),
                })
                .collect();
            out.push(BoneTimelines { bone, timelines });
        }
        out
    }

    /// IK timelines on the IK constraints `iks` (none when there is none).
    fn ik_timelines(&mut self, iks: &[u32]) -> Vec<IkTimeline> {
        let mut out = Vec::new();
        if !iks.is_empty() {
            for _ in 0..self.rng.range(0, self.cfg.timelines) {
                let constraint = iks[self.rng.below(iks.len())];
                let times = self.times();
                let mut beziers = 0;
                let keys = times
                    .iter()
                    .enumerate()
                    .map(|(j, &time)| {
                        let flags = self.rng.byte();
                        let bezier = (j > 0 && flags & 64 == 0 && flags & 128 != 0).then(|| {
                            beziers += 2;
                            [
                                [
                                    self.rng.unit(),
                                    self.rng.unit(),
                                    self.rng.unit(),
                                    self.rng.unit(),
                                ],
                                [
                                    self.rng.unit(),
                                    self.rng.float(5),
                                    self.rng.unit(),
                                    self.rng.float(5),
                                ],
                            ]
                        });
                        IkKey {
                            flags,
                            time,
                            mix: (flags & 1 != 0 && flags & 2 != 0).then(|| self.rng.unit()),
                            softness: (flags & 4 != 0).then(|| self.rng.float(20)),
                            bezier,
                        }
                    })
                    .collect();
                out.push(IkTimeline { constraint, bezier_count: beziers, keys });
            }
        }
        out
    }

    /// Transform constraint timelines on the constraints `tcs`.
    fn transform_timelines(&mut self, tcs: &[u32]) -> Vec<TransformTimeline> {
        let mut out = Vec::new();
        if !tcs.is_empty() {
            for _ in 0..self.rng.range(0, self.cfg.timelines) {
                let constraint = tcs[self.rng.below(tcs.len())];
                let timeline = self.curve(6, |g| {
                    let mut v = [0.0; 6];
                    v.iter_mut().for_each(|x| *x = g.rng.unit());
                    v
                });
                out.push(TransformTimeline { constraint, timeline });
            }
        }
        out
    }

    /// Path constraint timelines (position, spacing, mix) on the constraints `pcs`.
    fn path_timelines(&mut self, pcs: &[u32]) -> Vec<PathTimelines> {
        let mut out = Vec::new();
        if !pcs.is_empty() {
            for _ in 0..self.rng.range(0, self.cfg.timelines) {
                let constraint = pcs[self.rng.below(pcs.len())];
                let n = self.rng.range(1, 3);
                let timelines = (0..n)
                    .map(|_| match self.next(8, 3) {
                        0 => PathTimeline::Position(self.f1()),
                        1 => PathTimeline::Spacing(self.f1()),
                        _ => PathTimeline::Mix(
                            self.curve(3, |g| [g.rng.unit(), g.rng.unit(), g.rng.unit()]),
                        ),
                    })
                    .collect();
                out.push(PathTimelines { constraint, timelines });
            }
        }
        out
    }

    /// Physics timelines (each property and reset) on the constraints `phs`, or on all.
    fn physics_timelines(&mut self, phs: &[u32]) -> Vec<PhysicsTimelines> {
        let mut out = Vec::new();
        if !phs.is_empty() {
            for _ in 0..self.rng.range(0, self.cfg.timelines) {
                // Gotcha 5: `None` = every physics constraint.
                let constraint =
                    if self.rng.chance(25) { None } else { Some(phs[self.rng.below(phs.len())]) };
                let n = self.rng.range(1, 3);
                let timelines = (0..n)
                    .map(|_| {
                        let props = [
                            PhysicsProperty::Inertia,
                            PhysicsProperty::Strength,
                            PhysicsProperty::Damping,
                            PhysicsProperty::Mass,
                            PhysicsProperty::Wind,
                            PhysicsProperty::Gravity,
                            PhysicsProperty::Mix,
                        ];
                        match self.next(9, 8) {
                            7 => PhysicsTimeline::Reset(self.times()),
                            p => PhysicsTimeline::Property(props[p], self.physics_values(props[p])),
                        }
                    })
                    .collect();
                out.push(PhysicsTimelines { constraint, timelines });
            }
        }
        out
    }

    /// Slider timelines (time, mix) on the constraints `scs`.
    fn slider_timelines(&mut self, scs: &[u32]) -> Vec<SliderTimelines> {
        let mut out = Vec::new();
        if !scs.is_empty() {
            for _ in 0..self.rng.range(0, self.cfg.timelines) {
                let constraint = scs[self.rng.below(scs.len())];
                let n = self.rng.range(1, 2);
                let timelines = (0..n)
                    .map(|_| match self.next(10, 2) {
                        // Times in [0, 2] s, mixes in [0, 1] (one draw per value).
                        0 => SliderTimeline::Time(self.curve(1, |g| [g.rng.unit() * 2.0])),
                        _ => SliderTimeline::Mix(self.curve(1, |g| [g.rng.unit()])),
                    })
                    .collect();
                out.push(SliderTimelines { constraint, timelines });
            }
        }
        out
    }

    /// Deform and sequence timelines, each with its skin and slot, in drawing order.
    fn attachment_timelines(
        &mut self,
        vrefs: &[VertexRef],
        srefs: &[SeqRef],
    ) -> Vec<(u32, u32, AttachmentTimeline)> {
        let mut picks: Vec<(u32, u32, AttachmentTimeline)> = Vec::new();
        for _ in 0..self.rng.range(0, self.cfg.timelines) {
            if self.next(11, 2) == 0 && !vrefs.is_empty() {
                let v = vrefs[self.rng.below(vrefs.len())];
                let d = self.deform_timeline(v.deform_len);
                picks.push((
                    v.skin,
                    v.slot,
                    AttachmentTimeline {
                        attachment: v.name,
                        kind: AttachmentTimelineKind::Deform(d),
                    },
                ));
            } else if !srefs.is_empty() {
                let s = srefs[self.rng.below(srefs.len())];
                let keys = self.sequence_keys();
                picks.push((
                    s.skin,
                    s.slot,
                    AttachmentTimeline {
                        attachment: s.name,
                        kind: AttachmentTimelineKind::Sequence(keys),
                    },
                ));
            }
        }
        picks
    }

    /// A deform timeline of an attachment with `deform_len` values.
    fn deform_timeline(&mut self, deform_len: usize) -> DeformTimeline {
        let times = self.times();
        let mut curves = Vec::new();
        let mut beziers = Vec::new();
        let keys = times
            .iter()
            .enumerate()
            .map(|(j, &time)| {
                if j > 0 {
                    let c = [CurveType::Linear, CurveType::Stepped, CurveType::Bezier]
                        [self.rng.below(3)];
                    if c == CurveType::Bezier {
                        beziers.push([self.rng.unit(), 0.0, self.rng.unit(), 1.0]);
                    }
                    curves.push(c);
                }
                let values = self.rng.chance(80).then(|| {
                    let start = self.rng.below(deform_len);
                    let n = self.rng.range(1, deform_len - start);
                    DeformValues {
                        start: start as u32,
                        values: (0..n).map(|_| self.rng.float(20)).collect(),
                    }
                });
                DeformKey { time, values }
            })
            .collect();
        DeformTimeline { bezier_count: beziers.len() as u32, keys, curves, beziers }
    }

    /// Sequence keys, cycling through every sequence mode.
    fn sequence_keys(&mut self) -> Vec<SequenceKey> {
        let modes = [
            SequenceMode::Hold,
            SequenceMode::Once,
            SequenceMode::Loop,
            SequenceMode::PingPong,
            SequenceMode::OnceReverse,
            SequenceMode::LoopReverse,
            SequenceMode::PingPongReverse,
        ];
        self.times()
            .into_iter()
            .map(|time| SequenceKey {
                time,
                mode: modes[self.next(12, 7)],
                index: self.rng.below(8) as i32,
                delay: self.rng.below(4) as f32 / 30.0,
            })
            .collect()
    }

    /// Draw-order folder timelines over random subsets of the `ns` slots.
    fn draw_order_folders(&mut self, ns: usize) -> Vec<DrawOrderFolder> {
        let mut out = Vec::new();
        if ns > 1 {
            for _ in 0..self.rng.range(0, self.cfg.timelines.min(2)) {
                let n = self.rng.range(2, ns);
                let mut all: Vec<u32> = (0..ns as u32).collect();
                for i in (1..ns).rev() {
                    let j = self.rng.below(i + 1);
                    all.swap(i, j);
                }
                let slots: Vec<u32> = all.into_iter().take(n).collect();
                let keys = self
                    .times()
                    .into_iter()
                    .map(|time| DrawOrderKey { time, changes: self.draw_order(n) })
                    .collect();
                out.push(DrawOrderFolder { slots, keys });
            }
        }
        out
    }

    /// Event keys firing the skeleton's `events` (not empty).
    fn event_keys(&mut self, events: &[Event]) -> Vec<EventKey> {
        self.times()
            .into_iter()
            .map(|time| {
                let event = self.rng.below(events.len());
                EventKey {
                    time,
                    event: event as u32,
                    int_value: self.rng.float(1000) as i32,
                    float_value: self.rng.float(10),
                    string_value: self.rng.chance(40).then(|| format!("s{}", self.rng.below(9))),
                    volume_balance: events[event]
                        .has_audio()
                        .then(|| [self.rng.unit(), self.rng.unit() * 2.0 - 1.0]),
                }
            })
            .collect()
    }
}

/// The indices of the constraints of type `t`.
fn of_type(sk: &Skeleton, t: ConstraintType) -> Vec<u32> {
    sk.constraints
        .iter()
        .enumerate()
        .filter(|(_, c)| c.kind.constraint_type() == t)
        .map(|(i, _)| i as u32)
        .collect()
}

/// Sorts attachment timelines by skin then slot (stable) and groups them as the format does.
fn group_by_skin_and_slot(
    mut picks: Vec<(u32, u32, AttachmentTimeline)>,
) -> Vec<AttachmentTimelinesSkin> {
    let mut out: Vec<AttachmentTimelinesSkin> = Vec::new();
    picks.sort_by_key(|p| (p.0, p.1));
    for (skin, slot, t) in picks {
        if out.last().is_none_or(|s| s.skin != skin) {
            out.push(AttachmentTimelinesSkin { skin, slots: Vec::new() });
        }
        let Some(sk) = out.last_mut() else { continue };
        if sk.slots.last().is_none_or(|s| s.slot != slot) {
            sk.slots.push(AttachmentTimelinesSlot { slot, attachments: Vec::new() });
        }
        if let Some(sl) = sk.slots.last_mut() {
            sl.attachments.push(t);
        }
    }
    out
}

/// Number of runtime timelines an animation makes (what the editor writes as the hint).
fn count_timelines(a: &Animation) -> usize {
    a.slots.iter().map(|s| s.timelines.len()).sum::<usize>()
        + a.bones.iter().map(|b| b.timelines.len()).sum::<usize>()
        + a.ik.len()
        + a.transform.len()
        + a.path.iter().map(|p| p.timelines.len()).sum::<usize>()
        + a.physics.iter().map(|p| p.timelines.len()).sum::<usize>()
        + a.slider.iter().map(|p| p.timelines.len()).sum::<usize>()
        + a.attachments.iter().flat_map(|s| &s.slots).map(|s| s.attachments.len()).sum::<usize>()
        + usize::from(!a.draw_order.is_empty())
        + a.draw_order_folders.len()
        + usize::from(!a.events.is_empty())
}
