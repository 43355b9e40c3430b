//! `parse_lean` and its `Skins` reader give, through a sink, exactly the skins `parse` builds
//! (default-first, as the reader promises), then the same animations and events, for every
//! JSON skeleton of the corpus; and fail with `parse`'s error on damaged copies.

use spine_format::json::{self, Attachment, Skin, SkinSink, SkinSlot};
use spine_format::Limits;

/// Rebuilds the AST's skins from the sink calls, checking their nesting and counts.
#[derive(Default)]
struct Rebuild {
    skins: Vec<Skin>,
    slots: Vec<SkinSlot>,
    open: Option<(String, usize, usize)>,
    expected_slots: usize,
}

impl SkinSink for Rebuild {
    fn skin(&mut self, skin: &Skin, slots: usize) {
        assert!(skin.slots.is_empty() && skin.color.is_none() && self.open.is_none());
        self.expected_slots = slots;
    }
    fn slot(&mut self, name: &str, count: usize) {
        assert!(self.open.is_none(), "slot {name} inside another");
        self.open = Some((name.to_owned(), count, 0));
        self.slots.push(SkinSlot { slot: name.to_owned(), attachments: Vec::new() });
    }
    fn attachment(&mut self, attachment: Attachment<&str>) {
        let open = self.open.as_mut().expect("an attachment inside a slot");
        open.2 += 1;
        self.slots.last_mut().unwrap().attachments.push(attachment.into_owned());
    }
    fn slot_end(&mut self) {
        let (name, count, seen) = self.open.take().expect("an open slot");
        assert_eq!(count, seen, "slot {name}: announced {count} attachments, fed {seen}");
    }
    fn skin_end(&mut self, mut skin: Skin) {
        assert!(self.open.is_none());
        assert_eq!(self.slots.len(), self.expected_slots, "skin {}", skin.name);
        skin.slots = std::mem::take(&mut self.slots);
        self.skins.push(skin);
    }
}

/// `parse`'s result, rebuilt through the lean reader (skins default-first).
fn streamed(text: &str) -> Result<json::Skeleton, json::JsonError> {
    let (mut s, skins) = json::parse_lean(text, &Limits::default())?;
    let mut sink = Rebuild::default();
    let mut animations = skins.read(&mut sink)?;
    s.skins = sink.skins;
    while let Some(r) = animations.read_next(&mut NoAnimations) {
        r?;
    }
    Ok(s)
}

/// Skips the animations (compared elsewhere).
struct NoAnimations;

impl json::AnimationSink for NoAnimations {
    fn begin(&mut self, _: &str) {}
    fn slot(&mut self, _: &str) {}
    fn slot_timeline(&mut self, _: &json::SlotTimeline) {}
    fn slot_end(&mut self) {}
    fn bone(&mut self, _: &str) {}
    fn bone_timeline(&mut self, _: &json::BoneTimeline) {}
    fn bone_end(&mut self) {}
    fn ik(&mut self, _: &str, _: &[json::Key<json::IkKey>]) {}
    fn transform(&mut self, _: &str, _: &[json::Key<json::TransformMix>]) {}
    fn path(&mut self, _: &str, _: &[json::PathTimeline]) {}
    fn physics(&mut self, _: &str, _: &[json::PhysicsTimeline]) {}
    fn attachment(&mut self, _: &str, _: &str, _: &str, _: &[json::AttachmentTimeline]) {}
    fn draw_order(&mut self, _: &[json::Key<Option<Vec<json::DrawOrderOffset>>>]) {}
    fn events(&mut self, _: &[json::Key<json::EventKey>]) {}
    fn end(&mut self) {}
}

/// `parse`'s skeleton without animations, its skins default-first.
fn parsed(text: &str) -> Result<json::Skeleton, json::JsonError> {
    let mut s = json::parse(text)?;
    s.animations.clear();
    let (default, other): (Vec<Skin>, Vec<Skin>) =
        s.skins.drain(..).partition(|k| k.name == "default");
    s.skins = default.into_iter().chain(other).collect();
    Ok(s)
}

fn same(what: &str, text: &str) {
    match (parsed(text), streamed(text)) {
        (Ok(p), Ok(s)) => assert!(p == s, "{what}: the skins or the head differ"),
        (Err(p), Err(s)) => assert_eq!(p, s, "{what}"),
        (p, s) => panic!("{what}: parse {:?}, stream {:?}", p.err(), s.err()),
    }
}

#[test]
fn streamed_skins_are_parsed_skins() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let files: Vec<_> = skel_testkit::files_with_suffix(&corpus, ".json")
        .into_iter()
        .filter(|f| !f.to_string_lossy().contains("/4.3/"))
        .collect();
    let mut reordered = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        same(&f.display().to_string(), &text);
        // The default skin listed last: read whole, then fed default-first.
        let mut s = json::parse(&text).unwrap();
        if s.skins.len() > 1 {
            s.skins.rotate_left(1);
            same(&format!("{} (default last)", f.display()), &json::write(&s));
            reordered += 1;
        }
    }
    assert!(files.len() >= 100 && reordered >= 20, "{} files, {reordered} reordered", files.len());
}

#[test]
fn damaged_copies_fail_as_parse_does() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let f = corpus.join("4.2/mix-and-match/mix-and-match-pro.json");
    let text = std::fs::read_to_string(&f).unwrap();
    let mut s = json::parse(&text).unwrap();
    s.skins.rotate_left(1);
    let mut checked = 0;
    for text in [text, json::write(&s)] {
        let step = (text.len() / 80).max(1);
        for at in (0..text.len()).step_by(step).filter(|&at| text.is_char_boundary(at)) {
            let mut bytes = text.clone().into_bytes();
            bytes[at] ^= 0x5a;
            for t in
                [Some(text[..at].to_owned()), String::from_utf8(bytes).ok()].into_iter().flatten()
            {
                same(&format!("{} at {at}", f.display()), &t);
                checked += 1;
            }
        }
    }
    assert!(checked >= 300, "only {checked} copies");
}
