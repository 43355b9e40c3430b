//! Timeline building shared by every source (`json`, `v3x`, `v40`, `v43`): the parts that
//! work on values already decoded from the wire, so each source only reads its own AST.

use spine_format::binary::shared::CurveType;

use crate::anim::*;
use crate::build::{draw_order_with, Builder};
use crate::curves;
use crate::data::*;
use crate::error::ProblemKind;
use crate::ids::*;

/// Looks up the attachment a deform (`deform = true`) or sequence timeline targets,
/// reporting a missing attachment or one of the wrong type.
pub(crate) fn timeline_attachment(
    b: &mut Builder<'_>,
    skin: SkinId,
    slot: SlotId,
    key: &str,
    deform: bool,
) -> Option<AttachmentId> {
    let sk = b.data.skins.get(skin.index())?;
    let Some(id) = sk.attachment(slot, key) else {
        let skin = sk.name.to_string();
        let slot_name = b.data.slots.get(slot.index()).map(|s| s.name.clone()).unwrap_or_default();
        b.enter("slot", &slot_name);
        b.report(ProblemKind::TimelineAttachmentMissing { name: key.to_string(), skin });
        b.pop();
        return None;
    };
    let ok = match &b.data.attachments[id.index()].kind {
        AttachmentKind::Mesh(_) => true,
        AttachmentKind::Region(_) => !deform,
        AttachmentKind::BoundingBox(_) | AttachmentKind::Path(_) | AttachmentKind::Clipping(_) => {
            deform
        }
        AttachmentKind::Point(_) => false,
    };
    if !ok {
        let timeline = if deform { "deform" } else { "sequence" };
        b.report(ProblemKind::TimelineAttachmentType { name: key.to_owned(), timeline });
        return None;
    }
    Some(id)
}

/// The vertices a deform timeline deforms (empty for non-vertex attachments).
pub(crate) fn vertices_of(kind: &AttachmentKind) -> Vertices {
    match kind {
        AttachmentKind::Mesh(m) => m.vertices.clone(),
        AttachmentKind::BoundingBox(b) => b.vertices.clone(),
        AttachmentKind::Path(p) => p.vertices.clone(),
        AttachmentKind::Clipping(k) => k.vertices.clone(),
        _ => Vertices::Unweighted(Vec::new()),
    }
}

/// The vertices of a vertex attachment (`None` for the others).
pub(crate) fn vertices_mut(kind: &mut AttachmentKind) -> Option<&mut Vertices> {
    match kind {
        AttachmentKind::Mesh(m) => Some(&mut m.vertices),
        AttachmentKind::BoundingBox(b) => Some(&mut b.vertices),
        AttachmentKind::Path(p) => Some(&mut p.vertices),
        AttachmentKind::Clipping(k) => Some(&mut k.vertices),
        _ => None,
    }
}

/// How a path constraint's position and spacing timelines scale their values: by the
/// load scale when the constraint's mode is a length (fixed position; length or fixed
/// spacing), else 1.
#[derive(Clone, Copy)]
pub(crate) struct PathScales {
    /// The scale of position values (and their bezier `cy`).
    pub position: f32,
    /// The scale of spacing values (and their bezier `cy`).
    pub spacing: f32,
}

/// The [`PathScales`] of the path constraint `constraint` (1 and 1 if it is not one).
pub(crate) fn path_scales(b: &Builder<'_>, constraint: ConstraintId) -> PathScales {
    let modes = match b.data.constraints.get(constraint.index()).map(|d| &d.kind) {
        Some(ConstraintKind::Path(p)) => Some((p.position_mode, p.spacing_mode)),
        _ => None,
    };
    let scale = b.scale;
    let position = if matches!(modes, Some((PositionMode::Fixed, _))) { scale } else { 1.0 };
    let spacing = if matches!(modes, Some((_, SpacingMode::Length | SpacingMode::Fixed))) {
        scale
    } else {
        1.0
    };
    PathScales { position, spacing }
}

/// A draw-order timeline being built key by key.
pub(crate) struct DrawOrders {
    /// The number of slots a key orders.
    slot_count: usize,
    /// Each key's time.
    pub times: Vec<f32>,
    /// Each key's order (`None` = setup order, or a key that was reported bad).
    pub orders: Vec<Option<Vec<SlotId>>>,
    /// Scratch for resolving a key (reused between keys).
    unchanged: Vec<u32>,
}

impl DrawOrders {
    /// An empty timeline ordering `slot_count` slots, room for `keys` keys.
    pub fn new(slot_count: usize, keys: usize) -> Self {
        let (times, orders) = (Vec::with_capacity(keys), Vec::with_capacity(keys));
        DrawOrders { slot_count, times, orders, unchanged: Vec::new() }
    }

    /// Adds key `index` at `time`: `changes` (slot, shift) resolved by [`draw_order_with`]
    /// (`None` = back to the setup order), each resolved index mapped to a slot by `map`;
    /// a key that is no permutation is reported and kept as `None`.
    pub fn push(
        &mut self,
        b: &mut Builder<'_>,
        (index, time): (usize, f32),
        changes: Option<impl IntoIterator<Item = (u32, i32)>>,
        map: impl Fn(u32) -> SlotId,
    ) {
        self.times.push(time);
        let Some(changes) = changes else {
            self.orders.push(None);
            return;
        };
        match draw_order_with(self.slot_count, changes, &mut self.unchanged) {
            Ok(o) => self.orders.push(Some(o.into_iter().map(map).collect())),
            Err(detail) => {
                b.report(ProblemKind::BadDrawOrder { key: index, detail });
                self.orders.push(None);
            }
        }
    }

    /// The finished [`Timeline::DrawOrder`].
    pub fn timeline(self) -> Timeline {
        Timeline::DrawOrder { times: self.times, orders: self.orders }
    }
}

/// An event key as decoded from a binary source: the key's own values, `None` where the
/// key takes the event's default.
pub(crate) struct EventKeyIn {
    /// Time.
    pub time: f32,
    /// The event's wire index.
    pub event: u32,
    /// Integer value.
    pub int_value: i32,
    /// Float value.
    pub float_value: f32,
    /// The key's string (`None` = the event's).
    pub string: Option<String>,
    /// The key's `[volume, balance]` (`None` = the event's).
    pub audio: Option<[f32; 2]>,
}

/// Resolves an [`EventKeyIn`] against its event's defaults.
pub(crate) fn event_key(b: &mut Builder<'_>, k: EventKeyIn) -> EventKey {
    let event = b.event(k.event);
    let def = b.data.events.get(event.index());
    let string_value = k.string.or_else(|| def.map(|d| d.string_value.clone())).unwrap_or_default();
    let [volume, balance] =
        k.audio.unwrap_or_else(|| def.map_or([1.0, 0.0], |d| [d.volume, d.balance]));
    EventKey {
        time: k.time,
        event,
        int_value: k.int_value,
        float_value: k.float_value,
        string_value,
        volume,
        balance,
    }
}

/// The curve table of a timeline whose values must be checked finite (property, IK,
/// transform, path, physics and slider timelines).
fn checked_curves(t: &Timeline) -> Option<&Curves> {
    match t {
        Timeline::Bone { curves, .. }
        | Timeline::Color { curves, .. }
        | Timeline::Ik { curves, .. }
        | Timeline::Transform { curves, .. }
        | Timeline::Path { curves, .. }
        | Timeline::Physics { curves, .. }
        | Timeline::Slider { curves, .. } => Some(curves),
        _ => None,
    }
}

/// Reports the first non-finite value of each of the timelines `which` (indices in
/// `timelines`, in order) whose tables in `keys` are checked.
pub(crate) fn check_tables(
    b: &mut Builder<'_>,
    timelines: &[Timeline],
    keys: &[f32],
    which: impl IntoIterator<Item = usize>,
) {
    for i in which {
        if let Some(curves) = timelines.get(i).and_then(checked_curves) {
            b.check_curves(curves.table(keys));
        }
    }
}

/// The state a binary animation sink (4.0–4.2 and 4.3) gathers while one animation streams
/// in: its name, duration, timelines, keys and the timelines whose tables may hold a value
/// that is not finite.
pub(crate) struct Streamed<'s> {
    /// The animation's name (taken).
    pub name: &'s mut spine_format::Name,
    /// Its duration.
    pub duration: f32,
    /// Its timelines (taken).
    pub timelines: &'s mut Vec<Timeline>,
    /// The keys buffer (copied out; it keeps its capacity for the next animation).
    pub keys: &'s mut Vec<f32>,
    /// Timelines to check (cleared).
    pub unchecked: &'s mut Vec<usize>,
}

/// Ends an animation streamed from a binary file: checks the tables that may hold a value
/// that is not finite, leaves the animation's problem path and adds it to the model.
pub(crate) fn finish_streamed(b: &mut Builder<'_>, s: Streamed<'_>) {
    let mut timelines = std::mem::take(s.timelines);
    // A count hint larger than the timelines read leaves no room behind.
    timelines.shrink_to_fit();
    check_tables(b, &timelines, s.keys, s.unchecked.iter().copied());
    s.unchecked.clear();
    b.pop();
    // One exactly sized copy; the buffer keeps its capacity for the next animation (moving
    // it out and shrinking it made glibc trim and regrow the heap around every animation).
    let keys = s.keys.as_slice().to_vec();
    s.keys.clear();
    b.data.animations.push(AnimationData {
        name: std::mem::take(s.name),
        duration: s.duration,
        timelines,
        keys,
    });
}

/// A binary IK key (4.0–4.3), decoded: `curve` and `bezier` (mix, then softness controls)
/// are those of the segment ending at this key (unused on the first key).
pub(crate) struct IkKeyIn {
    /// Time.
    pub time: f32,
    /// Mix.
    pub mix: f32,
    /// Softness (unscaled).
    pub softness: f32,
    /// Bend direction, compress, stretch.
    pub flags: IkFlags,
    /// The curve of the segment ending here.
    pub curve: CurveType,
    /// Its bezier controls (mix, softness).
    pub bezier: Option<[[f32; 4]; 2]>,
}

/// Buffers a binary animation sink reuses from timeline to timeline: the decoded keys of
/// an IK timeline and the curve table of an IK or deform timeline, built here before it is
/// appended to the animation's keys (two to three allocations a timeline otherwise).
#[derive(Default)]
pub(crate) struct TableScratch {
    /// An IK timeline's keys, decoded.
    pub ik: Vec<IkKeyIn>,
    /// The table being built.
    pub table: CurveBuf,
}

/// A binary IK timeline's table (mix, softness × scale; softness beziers scale their `cy`
/// like the values, mix ones do not), checked finite and stored in `pool`, and its flags.
/// `beziers` is the bezier count the table reserves; `table` is reused scratch.
pub(crate) fn ik_table(
    b: &mut Builder<'_>,
    keys: &[IkKeyIn],
    beziers: usize,
    pool: &mut Vec<f32>,
    table: &mut CurveBuf,
) -> (Curves, Vec<IkFlags>) {
    let scale = b.scale;
    table.reset(2, keys.len(), beziers);
    let mut flags = Vec::with_capacity(keys.len());
    for k in keys {
        table.frames.extend_from_slice(&[k.time, k.mix, k.softness * scale]);
        flags.push(k.flags);
    }
    let mut next = 0;
    for (i, k) in keys.iter().enumerate().skip(1) {
        let ctl = k.bezier.map(|[m, s]| [m, [s[0], s[1] * scale, s[2], s[3] * scale]]);
        let ctl: &[[f32; 4]] = ctl.as_ref().map_or(&[], |c| c.as_slice());
        curves::segment_of(table, &mut next, i - 1, k.curve, ctl, 1.0);
    }
    b.check_curves(table.table());
    (table.store(pool), flags)
}
