//! 4.3 timelines of keys without a streamed curve table: attachment switches, IK, deform and
//! sequence, draw order and folders, events (the [`AnimSink`] methods they go through).

use spine_format::binary::shared::{CurveType, DrawOrderChange};
use spine_format::binary::v43 as w;

use super::animation::{constraint_ref, AnimSink};
use crate::anim::*;
use crate::curves;
use crate::data::*;
use crate::ids::*;
use crate::timelines::{
    event_key, ik_table, timeline_attachment, vertices_mut, DrawOrders, EventKeyIn, IkKeyIn,
    TableScratch,
};

impl AnimSink<'_, '_, '_> {
    /// A slot's attachment switches.
    pub(super) fn attachment_keys(&mut self, slot: SlotId, keys: &[w::AttachmentKey]) {
        self.see(keys.last().map_or(0.0, |k| k.time));
        let c = &mut *self.c;
        self.tl.push(Timeline::Attachment {
            slot,
            times: keys.iter().map(|k| k.time).collect(),
            names: keys.iter().map(|k| c.shared(k.attachment)).collect(),
        });
    }

    /// An IK timeline: mix (0 when the key's mix bit is clear) and softness (scaled, its
    /// bezier `cy` too), bend/compress/stretch from the key's flags.
    pub(super) fn ik(&mut self, t: &w::IkTimeline) {
        self.see(t.keys.last().map_or(0.0, |k| k.time));
        let constraint = constraint_ref(self.c, t.constraint, ConstraintType::Ik);
        let beziers = t.keys.iter().filter(|k| k.bezier.is_some()).count() * 2;
        let keys = &mut self.scratch.ik;
        keys.clear();
        keys.extend(t.keys.iter().map(|k| IkKeyIn {
            time: k.time,
            mix: if k.flags & 1 == 0 { 0.0 } else { k.mix.unwrap_or(1.0) },
            softness: k.softness.unwrap_or(0.0),
            flags: IkFlags {
                bend_direction: k.bend_direction(),
                compress: k.flags & 16 != 0,
                stretch: k.flags & 32 != 0,
            },
            curve: match k.bezier {
                Some(_) => CurveType::Bezier,
                None if k.flags & 64 != 0 => CurveType::Stepped,
                None => CurveType::Linear,
            },
            bezier: k.bezier,
        }));
        let TableScratch { ik, table } = &mut self.scratch;
        let (curves, flags) = ik_table(&mut self.c.b, ik, beziers, &mut self.keys, table);
        self.tl.push(Timeline::Ik { constraint, curves, flags });
    }

    /// A skin's deform and sequence timelines, slot by slot.
    pub(super) fn attachment_skin(&mut self, sk: &w::AttachmentTimelinesSkin) {
        let skin_len = self.c.b.data.skins.len();
        let skin = SkinId(self.c.b.check_index("skin", sk.skin, skin_len));
        for sl in &sk.slots {
            let slot = self.c.b.slot(sl.slot);
            for e in &sl.attachments {
                self.attachment_timeline(skin, slot, e);
            }
        }
    }

    /// One deform or sequence timeline (its keys count toward the duration even when the
    /// attachment is not found).
    fn attachment_timeline(&mut self, skin: SkinId, slot: SlotId, e: &w::AttachmentTimeline) {
        let last = match &e.kind {
            w::AttachmentTimelineKind::Deform(d) => d.keys.last().map(|k| k.time),
            w::AttachmentTimelineKind::Sequence(k) => k.last().map(|k| k.time),
        };
        self.see(last.unwrap_or(0.0));
        let c = &mut *self.c;
        let key = c.text(e.attachment).unwrap_or_default();
        let is_deform = matches!(e.kind, w::AttachmentTimelineKind::Deform(_));
        let Some(att) = timeline_attachment(&mut c.b, skin, slot, key, is_deform) else {
            return;
        };
        match &e.kind {
            w::AttachmentTimelineKind::Deform(d) => {
                let (curves, vertices) = self.deform(key, att, d);
                self.tl.push(Timeline::Deform { slot, attachment: att, curves, vertices });
            }
            w::AttachmentTimelineKind::Sequence(keys) => {
                let keys = keys
                    .iter()
                    .map(|k| SequenceKey {
                        time: k.time,
                        mode: seq_mode(k.mode),
                        index: k.index,
                        delay: k.delay,
                    })
                    .collect();
                self.tl.push(Timeline::Sequence { slot, attachment: att, keys });
            }
        }
    }

    /// A deform timeline's table (times only) and vertices per key.
    fn deform(
        &mut self,
        key: &str,
        att: AttachmentId,
        d: &w::DeformTimeline,
    ) -> (Curves, Vec<Vec<f32>>) {
        let c = &mut *self.c;
        // Borrowed out of the attachment for the duration (put back below).
        let vertices = vertices_mut(&mut c.b.data.attachments[att.index()].kind)
            .map(|v| std::mem::replace(v, Vertices::Unweighted(Vec::new())))
            .unwrap_or(Vertices::Unweighted(Vec::new()));
        let n = d.keys.len();
        let beziers = d.curves.iter().filter(|k| **k == CurveType::Bezier).count();
        let curves = &mut self.scratch.table;
        curves.reset(0, n, beziers);
        let mut keys = Vec::with_capacity(n);
        c.b.enter("deform", key);
        for (i, k) in d.keys.iter().enumerate() {
            curves.frames.push(k.time);
            let vals = k.values.as_ref().map(|v| (v.start, v.values.as_slice()));
            keys.push(c.b.deform_key(i, &vertices, vals));
        }
        c.b.pop();
        if let Some(v) = vertices_mut(&mut c.b.data.attachments[att.index()].kind) {
            *v = vertices;
        }
        let mut next = 0;
        let mut controls = d.beziers.iter();
        for (i, &curve) in d.curves.iter().enumerate().take(n.saturating_sub(1)) {
            let ctl: &[[f32; 4]] = if curve == CurveType::Bezier {
                controls.next().map_or(&[], std::slice::from_ref)
            } else {
                &[]
            };
            curves::segment_of(curves, &mut next, i, curve, ctl, 1.0);
        }
        (curves.store(&mut self.keys), keys)
    }

    /// A draw-order timeline of `keys` keys begins (`folder`: the folder's slots).
    pub(super) fn begin_draw_order(&mut self, folder: Option<Vec<u32>>, keys: usize) {
        let b = &mut self.c.b;
        let (slots, n) = match folder {
            None => (None, b.data.slots.len()),
            Some(f) => {
                let slots: Vec<SlotId> = f.iter().map(|&s| b.slot(s)).collect();
                let n = slots.len();
                (Some(slots), n)
            }
        };
        let out = DrawOrders::new(n, keys);
        self.order = Some(OrderTimeline { slots, out, last: None });
    }

    /// A key of the draw-order timeline being read.
    pub(super) fn draw_order_key(&mut self, time: f32, changes: &[DrawOrderChange]) {
        let Some(o) = &mut self.order else { return };
        let index = o.out.times.len();
        o.last = Some(time);
        let changes = (!changes.is_empty()).then(|| changes.iter().map(|ch| (ch.slot, ch.shift)));
        match &o.slots {
            None => o.out.push(&mut self.c.b, (index, time), changes, SlotId),
            Some(slots) => {
                let map = |i: u32| slots.get(i as usize).copied().unwrap_or_default();
                o.out.push(&mut self.c.b, (index, time), changes, map);
            }
        }
    }

    /// The draw-order timeline being read ends: the skeleton's is added when it has keys, a
    /// folder's always; its last key counts toward the duration.
    pub(super) fn end_draw_order(&mut self) {
        let Some(o) = self.order.take() else { return };
        self.see(o.last.unwrap_or(0.0));
        let DrawOrders { times, orders, .. } = o.out;
        match o.slots {
            None if times.is_empty() => {}
            None => self.tl.push(Timeline::DrawOrder { times, orders }),
            Some(slots) => self.tl.push(Timeline::DrawOrderFolder { slots, times, orders }),
        }
    }

    /// The event timeline.
    pub(super) fn event_keys(&mut self, events: Vec<w::EventKey>) {
        self.see(events.last().map_or(0.0, |k| k.time));
        if !events.is_empty() {
            let keys = events.into_iter().map(|e| event_key(&mut self.c.b, event_in(e))).collect();
            self.tl.push(Timeline::Event { keys });
        }
    }
}

/// A draw-order timeline being read: the folder's slots (`None`: the skeleton's
/// timeline), its keys so far, and the last key's time.
pub(super) struct OrderTimeline {
    /// The folder's slots, or `None` for the skeleton's draw order.
    slots: Option<Vec<SlotId>>,
    /// The keys so far.
    out: DrawOrders,
    /// The last key's time.
    last: Option<f32>,
}

/// An event key's own values.
fn event_in(k: w::EventKey) -> EventKeyIn {
    EventKeyIn {
        time: k.time,
        event: k.event,
        int_value: k.int_value,
        float_value: k.float_value,
        string: k.string_value,
        audio: k.volume_balance,
    }
}

/// A sequence timeline's mode.
fn seq_mode(m: w::SequenceMode) -> SequenceMode {
    match m {
        w::SequenceMode::Hold => SequenceMode::Hold,
        w::SequenceMode::Once => SequenceMode::Once,
        w::SequenceMode::Loop => SequenceMode::Loop,
        w::SequenceMode::PingPong => SequenceMode::PingPong,
        w::SequenceMode::OnceReverse => SequenceMode::OnceReverse,
        w::SequenceMode::LoopReverse => SequenceMode::LoopReverse,
        w::SequenceMode::PingPongReverse => SequenceMode::PingPongReverse,
    }
}
