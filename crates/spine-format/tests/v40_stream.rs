//! Streaming 4.0–4.2 animations (`binary::v40::stream`): a sink that reads every curve
//! timeline sees exactly the keys of the parsed AST (streamed from the bytes and replayed from
//! the AST alike), and a sink that reads none still gets every section, the reader skipping the
//! unread keys.

use spine_format::binary::shared::{Channels, CurveFrames, CurveType, KeySink};
use spine_format::binary::v40::animation::{
    AttachmentTimeline, DrawOrderKey, EventKey, IkTimeline,
};
use spine_format::binary::v40::stream::*;
use spine_format::binary::StrRef;
use spine_format::{BinaryError, Limits};

/// Records what it is given as text (times, values and controls by bit pattern).
#[derive(Default)]
struct Log {
    read_keys: bool,
    lines: Vec<String>,
    /// The first error a key read handed the sink.
    handed: Option<BinaryError>,
}

struct Keys<'l>(&'l mut Vec<String>);

impl<V: Channels> KeySink<V> for Keys<'_> {
    fn key(&mut self, time: f32, value: &V) {
        self.0.push(format!("key {:x} {value:?}", time.to_bits()));
    }
    fn curve(&mut self, segment: usize, curve: CurveType, bezier: &V::Beziers) {
        let bits: Vec<Vec<u32>> =
            bezier.as_ref().iter().map(|b| b.iter().map(|x| x.to_bits()).collect()).collect();
        self.0.push(format!("curve {segment} {curve:?} {bits:?}"));
    }
}

impl Log {
    fn frames<V: Channels>(
        &mut self,
        what: &str,
        f: CurveFrames<'_, '_, V>,
    ) -> Result<(), BinaryError> {
        self.lines.push(format!("{what} {} {}", f.len(), f.bezier_count()));
        if self.read_keys {
            if let Err(e) = f.read(&mut Keys(&mut self.lines)) {
                self.handed.get_or_insert_with(|| e.clone());
                return Err(e);
            }
        }
        Ok(())
    }
}

impl AnimationSink for Log {
    fn begin(&mut self, name: &str, timeline_count: u32, _: usize) {
        self.lines.push(format!("animation {name} {timeline_count}"));
    }
    fn slot_group(&mut self, slot: u32, timelines: usize) {
        self.lines.push(format!("slot {slot} {timelines}"));
    }
    fn slot_timeline(&mut self, t: SlotTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        match t {
            SlotTimelineIn::Attachment(k) => {
                self.lines.push(format!("attachment keys {k:?}"));
                Ok(())
            }
            SlotTimelineIn::Rgba(f) => self.frames("rgba", f),
            SlotTimelineIn::Rgb(f) => self.frames("rgb", f),
            SlotTimelineIn::Rgba2(f) => self.frames("rgba2", f),
            SlotTimelineIn::Rgb2(f) => self.frames("rgb2", f),
            SlotTimelineIn::Alpha(f) => self.frames("alpha", f),
        }
    }
    fn bone_group(&mut self, bone: u32, timelines: usize) {
        self.lines.push(format!("bone {bone} {timelines}"));
    }
    fn bone_timeline(&mut self, t: BoneTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        use BoneTimelineIn as I;
        match t {
            I::Rotate(f) => self.frames("rotate", f),
            I::Translate(f) => self.frames("translate", f),
            I::TranslateX(f) => self.frames("x", f),
            I::TranslateY(f) => self.frames("y", f),
            I::Scale(f) => self.frames("scale", f),
            I::ScaleX(f) => self.frames("scale x", f),
            I::ScaleY(f) => self.frames("scale y", f),
            I::Shear(f) => self.frames("shear", f),
            I::ShearX(f) => self.frames("shear x", f),
            I::ShearY(f) => self.frames("shear y", f),
            I::Inherit(k) => {
                self.lines.push(format!("inherit {k:?}"));
                Ok(())
            }
        }
    }
    fn ik_timeline(&mut self, t: IkTimeline) {
        self.lines.push(format!("ik {t:?}"));
    }
    fn transform_timeline(
        &mut self,
        constraint: u32,
        t: CurveFrames<'_, '_, [f32; 6]>,
    ) -> Result<(), BinaryError> {
        self.frames(&format!("transform {constraint}"), t)
    }
    fn path_group(&mut self, constraint: u32, timelines: usize) {
        self.lines.push(format!("path {constraint} {timelines}"));
    }
    fn path_timeline(&mut self, t: PathTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        match t {
            PathTimelineIn::Position(f) => self.frames("position", f),
            PathTimelineIn::Spacing(f) => self.frames("spacing", f),
            PathTimelineIn::Mix(f) => self.frames("mix", f),
        }
    }
    fn physics_group(&mut self, constraint: u32, timelines: usize) {
        self.lines.push(format!("physics {constraint} {timelines}"));
    }
    fn physics_timeline(&mut self, t: PhysicsTimelineIn<'_, '_>) -> Result<(), BinaryError> {
        match t {
            PhysicsTimelineIn::Value(p, f) => self.frames(&format!("{p:?}"), f),
            PhysicsTimelineIn::Reset(k) => {
                self.lines.push(format!("reset {k:?}"));
                Ok(())
            }
        }
    }
    fn attachment_skin(&mut self, skin: u32, slots: usize) {
        self.lines.push(format!("skin {skin} {slots}"));
    }
    fn attachment_slot(&mut self, slot: u32, attachments: usize) {
        self.lines.push(format!("attachment slot {slot} {attachments}"));
    }
    fn attachment_timeline(&mut self, attachment: StrRef, t: AttachmentTimeline) {
        self.lines.push(format!("attachment {attachment:?} {t:?}"));
    }
    fn draw_order(&mut self, keys: Vec<DrawOrderKey>) {
        self.lines.push(format!("draw order {keys:?}"));
    }
    fn events(&mut self, keys: Vec<EventKey>) {
        self.lines.push(format!("events {keys:?}"));
    }
}

/// Streams every animation of `bytes` into a [`Log`].
fn streamed(bytes: &[u8], read_keys: bool) -> Result<(usize, Vec<String>), BinaryError> {
    let (_, mut animations) = parse_head(bytes, &Limits::default())?;
    let mut log = Log { read_keys, ..Log::default() };
    let mut n = 0;
    while animations.read_next(&mut log)? {
        n += 1;
    }
    Ok((n, log.lines))
}

/// Streams every animation of `bytes`, reading every key: the error `read_next` returns and
/// the one a key read handed the sink (if any).
fn stream_errors(bytes: &[u8]) -> Option<(BinaryError, Option<BinaryError>)> {
    let (_, mut animations) = parse_head(bytes, &Limits::default()).ok()?;
    let mut log = Log { read_keys: true, ..Log::default() };
    loop {
        match animations.read_next(&mut log) {
            Ok(true) => {}
            Ok(false) => return None,
            Err(e) => return Some((e, log.handed)),
        }
    }
}

#[test]
fn streamed_replayed_and_skipped_animations_agree_on_the_corpus() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let mut files = 0;
    let mut keys = 0;
    for v in ["4.0", "4.1", "4.2"] {
        for f in skel_testkit::files_with_suffix(&corpus.join(v), ".skel") {
            let bytes = std::fs::read(&f).unwrap();
            let parsed = spine_format::binary::v40::parse(&bytes).unwrap();
            let mut replayed = Log { read_keys: true, ..Log::default() };
            for a in &parsed.animations {
                a.replay(&mut replayed).unwrap();
            }
            let (n, read) = streamed(&bytes, true).unwrap();
            assert_eq!(n, parsed.animations.len(), "{}", f.display());
            assert!(read == replayed.lines, "{}: streamed keys differ from the AST's", f.display());
            // Skipping every key: the same sections, in the same order, and the input ends.
            let (n, skipped) = streamed(&bytes, false).unwrap();
            assert_eq!(n, parsed.animations.len());
            let sections: Vec<&String> = read
                .iter()
                .filter(|l| !l.starts_with("key ") && !l.starts_with("curve "))
                .collect();
            assert!(skipped.iter().eq(sections), "{}: skipping changed the sections", f.display());
            keys += read.len() - skipped.len();
            files += 1;
        }
    }
    assert!(files >= 40 && keys > 10_000, "only {files} files, {keys} keys and curves");
}

/// The bytes of the 4.2 `spineboy-pro.skel` (`None` without the corpus).
fn spineboy_pro() -> Option<Vec<u8>> {
    let corpus = skel_testkit::spine_corpus()?;
    let f = skel_testkit::files_with_suffix(&corpus.join("4.2"), ".skel")
        .into_iter()
        .find(|f| f.to_string_lossy().contains("spineboy-pro"))
        .expect("spineboy-pro 4.2");
    Some(std::fs::read(&f).unwrap())
}

#[test]
fn streaming_damaged_bytes_fails_like_parse() {
    let Some(bytes) = spineboy_pro() else { return };
    let mut checked = 0;
    for at in (0..bytes.len()).step_by(97) {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0xa5;
        for b in [&bytes[..at], flipped.as_slice()] {
            let parsed = spine_format::binary::v40::parse(b).map(|s| s.animations.len());
            for read_keys in [true, false] {
                let streamed = streamed(b, read_keys).map(|(n, _)| n);
                match (&parsed, &streamed) {
                    (Ok(p), Ok(s)) => assert_eq!(p, s),
                    (Err(p), Err(s)) => assert_eq!(p.to_string(), s.to_string(), "at {at}"),
                    // An unread timeline is skipped with the same checks: same outcome.
                    _ => panic!("at {at}: parse {:?} vs stream {:?}", parsed.is_ok(), streamed),
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn a_sink_is_handed_the_whole_error_of_a_key_read() {
    let Some(bytes) = spineboy_pro() else { return };
    let mut handed = 0;
    for at in (bytes.len() / 3..bytes.len()).step_by(61) {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0x5a;
        for b in [&bytes[..at], flipped.as_slice()] {
            if let Some((e, Some(h))) = stream_errors(b) {
                // The offset, the kind and the section path down from "animations".
                assert_eq!(h, e, "at {at}");
                assert!(e.section.starts_with("animations > animations["), "{e}");
                handed += 1;
            }
        }
    }
    assert!(handed > 100, "only {handed} errors were handed to the sink");
}

#[test]
fn head_without_icons_is_the_head_with_icons_cleared() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let mut icons = 0;
    let mut files = 0;
    for v in ["4.0", "4.1", "4.2"] {
        for f in skel_testkit::files_with_suffix(&corpus.join(v), ".skel") {
            let bytes = std::fs::read(&f).unwrap();
            let (mut full, a) = parse_head(&bytes, &Limits::default()).unwrap();
            let (lean, b) = parse_head_without_icons(&bytes, &Limits::default()).unwrap();
            for bone in &mut full.bones {
                if let Some(e) = &mut bone.extras {
                    icons += usize::from(e.icon.take().is_some());
                }
            }
            assert!(full == lean, "{}: heads differ beyond the icons", f.display());
            assert_eq!(a.len(), b.len());
            files += 1;
        }
    }
    assert!(files >= 40 && icons > 100, "only {files} files, {icons} icons");
    // The icons are still read and checked: a damaged file fails the same way.
    let bytes = spineboy_pro().expect("the corpus was found above");
    for at in (0..bytes.len() / 4).step_by(7) {
        let mut flipped = bytes.clone();
        flipped[at] ^= 0xa5;
        let full = parse_head(&flipped, &Limits::default()).map(|_| ());
        let lean = parse_head_without_icons(&flipped, &Limits::default()).map(|_| ());
        assert_eq!(full.map_err(|e| e.to_string()), lean.map_err(|e| e.to_string()), "at {at}");
    }
}
