//! Streaming 3.5–4.2 JSON animations: the animation reader drives an [`AnimationSink`]
//! instead of building the raw AST, so a loader can fill its own timelines while the keys
//! are read (no raw animation to allocate, keep and drop; the key lists of slot, bone, IK and
//! transform timelines, most of an animation, are reused from one timeline to the next).
//!
//! [`parse_head`] reads everything but the animations and returns the [`Skeleton`] (with no
//! animations) and an [`Animations`] reader over the parsed document; each
//! [`Animations::read_next`] reads one animation into a sink. [`super::parse`] is the same
//! reader with the AST builder as sink, and [`Animation::replay`] feeds a parsed animation to
//! a sink in the same order, so a sink sees the same calls either way.
//!
//! The animations are the last part of a skeleton the reader reads, so reading them later,
//! one at a time, finds the same first error as [`super::parse`].
//!
//! [`parse_lean`] leaves the skins out too: its [`Skins`] reader feeds them to a
//! [`SkinSink`] (each attachment lent, its strings borrowed from the text), then hands over
//! the [`Animations`] reader. The events and the `animations` object, which the reader meets
//! after the skins, are read first but their errors come after the skins', so this too finds
//! [`super::parse`]'s first error.

use super::anim::{
    read_animation, AttachmentTimeline, AttachmentTimelines, BoneTimeline, DrawOrderOffset,
    EventKey, IkKey, Key, KeyBuffers, Named, PathTimeline, PhysicsTimeline, SlotTimeline,
};
use super::skins::{read_skins, AstSkins, SkinSink};
use super::value::{Doc, Entries, Obj, P, R};
use super::{Animation, JsonError, Skeleton, TransformMix};
use crate::{Limits, SpineVersion};

/// Receives one animation's timelines in the reader's (file) order: `begin`, the slot
/// groups (`slot`, its timelines, `slot_end`), the bone groups, IK, transform, path and
/// physics constraint timelines, attachment timelines, draw order and events (each only when
/// present), `end`. Names are raw (nothing is resolved) and values unscaled, as in the AST.
/// Key lists are lent: the reader reuses them for the next timeline. When reading fails, the
/// sink has seen `begin` and the calls before the error, never `end`.
pub trait AnimationSink {
    /// The animation named `name` starts.
    fn begin(&mut self, name: &str);
    /// The timelines of slot `name` follow (possibly none), until [`AnimationSink::slot_end`].
    fn slot(&mut self, name: &str);
    /// A timeline of the current slot (a 4.x timeline without keys is left out).
    fn slot_timeline(&mut self, timeline: &SlotTimeline);
    /// The current slot's timelines ended.
    fn slot_end(&mut self);
    /// The timelines of bone `name` follow (possibly none), until [`AnimationSink::bone_end`].
    fn bone(&mut self, name: &str);
    /// A timeline of the current bone (a 4.x timeline without keys is left out).
    fn bone_timeline(&mut self, timeline: &BoneTimeline);
    /// The current bone's timelines ended.
    fn bone_end(&mut self);
    /// The keys of IK constraint `name`.
    fn ik(&mut self, name: &str, keys: &[Key<IkKey>]);
    /// The keys of transform constraint `name`.
    fn transform(&mut self, name: &str, keys: &[Key<TransformMix>]);
    /// The timelines of path constraint `name`.
    fn path(&mut self, name: &str, timelines: &[PathTimeline]);
    /// The timelines of physics constraint `name` (4.2; an empty name: every physics
    /// constraint).
    fn physics(&mut self, name: &str, timelines: &[PhysicsTimeline]);
    /// The timelines of one attachment of one slot of one skin.
    fn attachment(
        &mut self,
        skin: &str,
        slot: &str,
        attachment: &str,
        timelines: &[AttachmentTimeline],
    );
    /// The draw-order keys (only when the animation has them).
    fn draw_order(&mut self, keys: &[Key<Option<Vec<DrawOrderOffset>>>]);
    /// The event keys (only when the animation has them).
    fn events(&mut self, keys: &[Key<EventKey>]);
    /// The animation ended.
    fn end(&mut self);

    /// What the reader calls for a slot timeline, lending one it owns: a sink may take it
    /// (`std::mem::replace` with a timeline without keys, which allocates nothing), or its
    /// keys. By default, [`AnimationSink::slot_timeline`].
    fn take_slot_timeline(&mut self, timeline: &mut SlotTimeline) {
        self.slot_timeline(timeline);
    }
    /// [`AnimationSink::take_slot_timeline`] for a bone timeline.
    fn take_bone_timeline(&mut self, timeline: &mut BoneTimeline) {
        self.bone_timeline(timeline);
    }
    /// [`AnimationSink::take_slot_timeline`] for the keys of an IK constraint.
    fn take_ik(&mut self, name: &str, keys: &mut Vec<Key<IkKey>>) {
        self.ik(name, keys);
    }
    /// [`AnimationSink::take_slot_timeline`] for the keys of a transform constraint.
    fn take_transform(&mut self, name: &str, keys: &mut Vec<Key<TransformMix>>) {
        self.transform(name, keys);
    }
    /// [`AnimationSink::take_slot_timeline`] for the timelines of a path constraint.
    fn take_path(&mut self, name: &str, timelines: &mut Vec<PathTimeline>) {
        self.path(name, timelines);
    }
    /// [`AnimationSink::take_slot_timeline`] for the timelines of a physics constraint.
    fn take_physics(&mut self, name: &str, timelines: &mut Vec<PhysicsTimeline>) {
        self.physics(name, timelines);
    }
    /// [`AnimationSink::take_slot_timeline`] for the timelines of an attachment.
    fn take_attachment(
        &mut self,
        skin: &str,
        slot: &str,
        attachment: &str,
        timelines: &mut Vec<AttachmentTimeline>,
    ) {
        self.attachment(skin, slot, attachment, timelines);
    }
    /// [`AnimationSink::take_slot_timeline`] for the draw-order keys.
    fn take_draw_order(&mut self, keys: &mut Vec<Key<Option<Vec<DrawOrderOffset>>>>) {
        self.draw_order(keys);
    }
    /// [`AnimationSink::take_slot_timeline`] for the event keys.
    fn take_events(&mut self, keys: &mut Vec<Key<EventKey>>) {
        self.events(keys);
    }
}

/// The animations of a JSON skeleton, still to be read ([`parse_head`]).
pub struct Animations<'t> {
    doc: Doc<'t>,
    version: SpineVersion,
    /// The `animations` object's entries left ([`Entries::state`]); `None` when there is no
    /// such object.
    entries: Option<(usize, u32)>,
    buffers: KeyBuffers,
}

impl std::fmt::Debug for Animations<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Animations")
            .field("version", &self.version)
            .field("left", &self.len())
            .finish_non_exhaustive()
    }
}

impl Animations<'_> {
    /// How many animations are left to read.
    pub fn len(&self) -> usize {
        self.entries.map_or(0, |(_, left)| left as usize)
    }

    /// Whether no animation is left to read (all read, or reading failed).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Reads the next animation into `sink`: `None` when none is left. After an error, none
    /// is left (the sink saw that animation's calls up to the error, not its `end`).
    pub fn read_next<S: AnimationSink + ?Sized>(
        &mut self,
        sink: &mut S,
    ) -> Option<Result<(), JsonError>> {
        self.next_boxed(sink).map(|r| r.map_err(|e| *e))
    }

    /// [`Animations::read_next`] with the readers' boxed error.
    pub(super) fn next_boxed<S: AnimationSink + ?Sized>(&mut self, sink: &mut S) -> Option<R<()>> {
        let state = self.entries?;
        let mut entries = Entries::resume(&self.doc, state);
        let (name, v) = entries.next()?;
        self.entries = Some(entries.state());
        let rp = P::ROOT;
        let ap = rp.key("animations");
        let p = ap.key(name);
        let r = Obj::new(v, &p)
            .and_then(|o| read_animation(name, &o, self.version, &mut self.buffers, sink));
        if r.is_err() {
            self.entries = None;
        }
        Some(r)
    }
}

/// Parses a Spine JSON skeleton of editor version 3.5 to 4.2 within `limits`, as
/// [`super::parse_with_limits`] does, except its animations: the [`Skeleton`] has none, and
/// the [`Animations`] reader reads them one at a time into an [`AnimationSink`]. Reading every
/// animation this way meets the errors [`super::parse_with_limits`] reports, in its order.
pub fn parse_head<'t>(
    text: &'t str,
    limits: &Limits,
) -> Result<(Skeleton, Animations<'t>), JsonError> {
    super::read_head(text, limits).map_err(|e| *e)
}

/// The skins of a JSON skeleton, still to be read, then its animations ([`parse_lean`]).
pub struct Skins<'t> {
    doc: Doc<'t>,
    version: SpineVersion,
    /// The node of the `skins` value (`None`: no skins).
    skins: Option<usize>,
    /// What reading the events and checking the `animations` object gave: its entries' state
    /// (`None`: no such object), or the error, reported after any of the skins'.
    rest: R<Option<(usize, u32)>>,
}

impl std::fmt::Debug for Skins<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Skins").field("version", &self.version).finish_non_exhaustive()
    }
}

impl<'t> Skins<'t> {
    /// Reads the skins into `sink`, those named `default` first, then the others in file
    /// order (the binary format's order, in which `spine-model` adds them); then returns the
    /// reader of the animations. When the file lists a skin named `default` after another
    /// one, the skins are read whole in file order first (meeting the first error
    /// [`super::parse`] meets), then fed default-first. Errors are
    /// [`super::parse_with_limits`]'s, in its order.
    pub fn read<S: SkinSink + ?Sized>(self, sink: &mut S) -> Result<Animations<'t>, JsonError> {
        let in_order = self.skins.is_none_or(|i| super::skins::default_first(self.doc.at(i)));
        if in_order {
            return self.read_in_file_order(sink).map_err(|e| *e);
        }
        let mut ast = self.ast_sink();
        let animations = self.read_in_file_order(&mut ast).map_err(|e| *e)?;
        let (default, other): (Vec<_>, Vec<_>) =
            ast.skins.iter_mut().partition(|k| k.name == "default");
        for skin in default.into_iter().chain(other) {
            skin.replay(sink);
        }
        Ok(animations)
    }

    /// The AST builder with room for every skin.
    pub(super) fn ast_sink(&self) -> AstSkins {
        self.skins.map_or_else(AstSkins::default, |i| AstSkins::for_value(self.doc.at(i)))
    }

    /// Reads the skins in file order into `sink`, then returns the events' or the
    /// `animations` object's error, if any, else the animations' reader.
    pub(super) fn read_in_file_order<S: SkinSink + ?Sized>(
        self,
        sink: &mut S,
    ) -> R<Animations<'t>> {
        if let Some(i) = self.skins {
            let rp = P::ROOT;
            read_skins(self.doc.at(i), &rp.key("skins"), self.version, sink)?;
        }
        let at = self.rest?;
        Ok(animations(self.doc, self.version, at))
    }
}

/// Parses a Spine JSON skeleton of editor version 3.5 to 4.2 within `limits` but its skins
/// and animations: the [`Skeleton`] has neither (its events are read), and the [`Skins`]
/// reader feeds the skins to a [`SkinSink`], then hands over the [`Animations`] reader. Reading
/// everything this way meets the errors [`super::parse_with_limits`] reports, in its order.
pub fn parse_lean<'t>(text: &'t str, limits: &Limits) -> Result<(Skeleton, Skins<'t>), JsonError> {
    super::read_lean(text, limits).map_err(|e| *e)
}

/// The reader of the skins of `doc` (the node `skins`), then of its animations.
pub(super) fn skins<'t>(
    doc: Doc<'t>,
    version: SpineVersion,
    skins: Option<usize>,
    rest: R<Option<(usize, u32)>>,
) -> Skins<'t> {
    Skins { doc, version, skins, rest }
}

/// The reader of the animations of `doc`, read with the rules of `version`: `at` is the
/// iteration state of its `animations` object's entries (`None`: no such object).
pub(super) fn animations<'t>(
    doc: Doc<'t>,
    version: SpineVersion,
    at: Option<(usize, u32)>,
) -> Animations<'t> {
    Animations { doc, version, entries: at, buffers: KeyBuffers::default() }
}

/// Builds the raw AST [`Animation`] (the sink behind [`super::parse`]).
#[derive(Default)]
pub(super) struct AstSink {
    a: Animation,
    slots: Groups<SlotTimeline>,
    bones: Groups<BoneTimeline>,
}

/// Named groups of timelines (an animation's slots or bones) gathered in lists kept from one
/// animation to the next and copied out at their exact sizes (growing the AST's own lists
/// one push at a time reallocated them about seven times a file).
struct Groups<T> {
    groups: Vec<Named<Vec<T>>>,
    timelines: Vec<T>,
}

impl<T> Default for Groups<T> {
    fn default() -> Self {
        Groups { groups: Vec::new(), timelines: Vec::new() }
    }
}

impl<T> Groups<T> {
    /// The group `name` starts.
    fn open(&mut self, name: &str) {
        self.groups.push(Named { name: name.into(), timelines: Vec::new() });
        self.timelines.clear();
    }
    /// The current group ends.
    fn close(&mut self) {
        if let Some(n) = self.groups.last_mut() {
            n.timelines = self.timelines.drain(..).collect();
        }
    }
    /// The groups of the animation, exactly sized (none left for the next one).
    fn take(&mut self) -> Vec<Named<Vec<T>>> {
        self.groups.drain(..).collect()
    }
}

impl AstSink {
    /// The animation built since the last call.
    pub(super) fn take(&mut self) -> Animation {
        std::mem::take(&mut self.a)
    }
}

impl AnimationSink for AstSink {
    fn begin(&mut self, name: &str) {
        self.a = Animation { name: name.into(), ..Animation::default() };
        self.slots.groups.clear();
        self.bones.groups.clear();
    }
    fn slot(&mut self, name: &str) {
        self.slots.open(name);
    }
    fn slot_timeline(&mut self, timeline: &SlotTimeline) {
        self.slots.timelines.push(timeline.clone());
    }
    fn slot_end(&mut self) {
        self.slots.close();
    }
    fn bone(&mut self, name: &str) {
        self.bones.open(name);
    }
    fn bone_timeline(&mut self, timeline: &BoneTimeline) {
        self.bones.timelines.push(timeline.clone());
    }
    fn bone_end(&mut self) {
        self.bones.close();
    }
    fn ik(&mut self, name: &str, keys: &[Key<IkKey>]) {
        self.a.ik.push(Named { name: name.into(), timelines: keys.to_vec() });
    }
    fn transform(&mut self, name: &str, keys: &[Key<TransformMix>]) {
        self.a.transform.push(Named { name: name.into(), timelines: keys.to_vec() });
    }
    fn path(&mut self, name: &str, timelines: &[PathTimeline]) {
        self.a.path.push(Named { name: name.into(), timelines: timelines.to_vec() });
    }
    fn physics(&mut self, name: &str, timelines: &[PhysicsTimeline]) {
        self.a.physics.push(Named { name: name.into(), timelines: timelines.to_vec() });
    }
    fn attachment(
        &mut self,
        skin: &str,
        slot: &str,
        attachment: &str,
        timelines: &[AttachmentTimeline],
    ) {
        self.a.attachments.push(AttachmentTimelines {
            skin: skin.to_owned(),
            slot: slot.to_owned(),
            attachment: attachment.to_owned(),
            timelines: timelines.to_vec(),
        });
    }
    fn draw_order(&mut self, keys: &[Key<Option<Vec<DrawOrderOffset>>>]) {
        self.a.draw_order = Some(keys.to_vec());
    }
    fn events(&mut self, keys: &[Key<EventKey>]) {
        self.a.events = Some(keys.to_vec());
    }
    fn end(&mut self) {
        self.a.slots = self.slots.take();
        self.a.bones = self.bones.take();
    }

    // The reader's own timelines and lists are taken, not copied.
    fn take_slot_timeline(&mut self, timeline: &mut SlotTimeline) {
        let taken = std::mem::replace(timeline, SlotTimeline::Attachment(Vec::new()));
        self.slots.timelines.push(taken);
    }
    fn take_bone_timeline(&mut self, timeline: &mut BoneTimeline) {
        let taken = std::mem::replace(timeline, BoneTimeline::Rotate(Vec::new()));
        self.bones.timelines.push(taken);
    }
    fn take_ik(&mut self, name: &str, keys: &mut Vec<Key<IkKey>>) {
        self.a.ik.push(Named { name: name.into(), timelines: std::mem::take(keys) });
    }
    fn take_transform(&mut self, name: &str, keys: &mut Vec<Key<TransformMix>>) {
        self.a.transform.push(Named { name: name.into(), timelines: std::mem::take(keys) });
    }
    fn take_path(&mut self, name: &str, timelines: &mut Vec<PathTimeline>) {
        self.a.path.push(Named { name: name.into(), timelines: std::mem::take(timelines) });
    }
    fn take_physics(&mut self, name: &str, timelines: &mut Vec<PhysicsTimeline>) {
        self.a.physics.push(Named { name: name.into(), timelines: std::mem::take(timelines) });
    }
    fn take_attachment(
        &mut self,
        skin: &str,
        slot: &str,
        attachment: &str,
        timelines: &mut Vec<AttachmentTimeline>,
    ) {
        self.a.attachments.push(AttachmentTimelines {
            skin: skin.to_owned(),
            slot: slot.to_owned(),
            attachment: attachment.to_owned(),
            timelines: std::mem::take(timelines),
        });
    }
    fn take_draw_order(&mut self, keys: &mut Vec<Key<Option<Vec<DrawOrderOffset>>>>) {
        self.a.draw_order = Some(std::mem::take(keys));
    }
    fn take_events(&mut self, keys: &mut Vec<Key<EventKey>>) {
        self.a.events = Some(std::mem::take(keys));
    }
}

impl Animation {
    /// Feeds this animation to `sink` in the order [`Animations::read_next`] does, so a
    /// sink converts a parsed animation and a streamed one alike.
    pub fn replay<S: AnimationSink + ?Sized>(&self, sink: &mut S) {
        sink.begin(&self.name);
        for n in &self.slots {
            sink.slot(&n.name);
            for t in &n.timelines {
                sink.slot_timeline(t);
            }
            sink.slot_end();
        }
        for n in &self.bones {
            sink.bone(&n.name);
            for t in &n.timelines {
                sink.bone_timeline(t);
            }
            sink.bone_end();
        }
        for n in &self.ik {
            sink.ik(&n.name, &n.timelines);
        }
        for n in &self.transform {
            sink.transform(&n.name, &n.timelines);
        }
        for n in &self.path {
            sink.path(&n.name, &n.timelines);
        }
        for n in &self.physics {
            sink.physics(&n.name, &n.timelines);
        }
        for a in &self.attachments {
            sink.attachment(&a.skin, &a.slot, &a.attachment, &a.timelines);
        }
        if let Some(keys) = &self.draw_order {
            sink.draw_order(keys);
        }
        if let Some(keys) = &self.events {
            sink.events(keys);
        }
        sink.end();
    }
}
