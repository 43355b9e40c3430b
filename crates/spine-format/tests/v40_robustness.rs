//! Hostile-input and writer-coverage checks for the 4.0–4.2 parser and writer:
//! truncated and byte-mutated corpus files never panic and, when accepted, write back
//! byte-identically; AST edits that reach paths the corpus does not (files without
//! nonessential data, point attachments, inherit timelines, event audio) round-trip.

use spine_format::binary::v40::animation::{BoneTimeline, BoneTimelines, InheritKey};
use spine_format::binary::v40::ast::{
    Attachment, AttachmentKind, EventAudio, Inherit, Point, Skeleton, SkinAttachment,
};
use spine_format::binary::v40::{self};
use spine_format::binary::StrRef;

fn corpus_file(rel: &str) -> Option<Vec<u8>> {
    let corpus = skel_testkit::spine_corpus()?;
    Some(std::fs::read(corpus.join(rel)).expect("corpus file is readable"))
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn check_accepted_round_trips(bytes: &[u8], what: &str) -> bool {
    match v40::parse(bytes) {
        Ok(s) => {
            assert_eq!(v40::write(&s), bytes, "{what}: accepted but does not round-trip");
            true
        }
        Err(e) => {
            assert!(e.offset <= bytes.len(), "{what}: offset {} past the end", e.offset);
            false
        }
    }
}

#[test]
fn truncations_and_mutations_never_panic_and_accepted_inputs_round_trip() {
    let files =
        ["4.0/raptor/raptor-pro.skel", "4.1/dragon/dragon-ess.skel", "4.2/sack/sack-pro.skel"];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut tried, mut accepted) = (0, 0);
    for rel in files {
        let Some(bytes) = corpus_file(rel) else { return };
        for _ in 0..100 {
            let cut = rng.below(bytes.len());
            let e = v40::parse(&bytes[..cut]).expect_err("a truncated file is refused");
            assert!(e.offset <= cut, "{rel} cut at {cut}: {e}");
            tried += 1;
        }
        for i in 0..400 {
            let mut m = bytes.clone();
            let at = rng.below(m.len());
            m[at] = match i % 3 {
                0 => m[at] ^ (1 << rng.below(8)),
                1 => 0xff,
                _ => rng.next() as u8,
            };
            tried += 1;
            accepted += usize::from(check_accepted_round_trips(&m, rel));
        }
    }
    eprintln!("{tried} hostile inputs, {accepted} accepted (all round-tripped)");
    // Most single-byte changes inside float data are still valid files.
    assert!(accepted > 100, "{accepted}");
}

fn round_trip_ast(s: &Skeleton, what: &str) {
    let bytes = v40::write(s);
    let back = v40::parse(&bytes).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(&back, s, "{what}: the AST changed");
    assert_eq!(v40::write(&back), bytes);
}

fn strip_nonessential(s: &mut Skeleton) {
    s.header.nonessential = None;
    for b in &mut s.bones {
        b.extras = None;
    }
    for sl in &mut s.slots {
        sl.visible = None;
    }
    let slots = s.default_skin.iter_mut().chain(s.skins.iter_mut().map(|k| {
        k.color = None;
        &mut k.slots
    }));
    for sl in slots {
        for a in &mut sl.attachments {
            match &mut a.attachment.kind {
                AttachmentKind::Region(_) => {}
                AttachmentKind::BoundingBox(b) => b.color = None,
                AttachmentKind::Mesh(m) => m.extras = None,
                AttachmentKind::LinkedMesh(l) => l.size = None,
                AttachmentKind::Path(p) => p.color = None,
                AttachmentKind::Point(p) => p.color = None,
                AttachmentKind::Clipping(c) => c.color = None,
            }
        }
    }
}

#[test]
fn files_without_nonessential_data_round_trip() {
    for rel in [
        "4.0/spineboy/spineboy-pro.skel",
        "4.1/chibi-stickers/chibi-stickers.skel",
        "4.2/mix-and-match/mix-and-match-pro.skel",
        "4.2/celestial-circus/celestial-circus-pro.skel",
    ] {
        let Some(bytes) = corpus_file(rel) else { return };
        let mut s = v40::parse(&bytes).unwrap();
        assert!(s.header.nonessential.is_some(), "{rel}: the corpus exports are nonessential");
        strip_nonessential(&mut s);
        let stripped = v40::write(&s);
        assert!(stripped.len() < bytes.len(), "{rel}");
        round_trip_ast(&s, rel);
    }
}

#[test]
fn points_inherit_timelines_and_event_audio_round_trip() {
    for rel in [
        "4.0/spineboy/spineboy-pro.skel",
        "4.1/spineboy/spineboy-pro.skel",
        "4.2/spineboy/spineboy-pro.skel",
    ] {
        let Some(bytes) = corpus_file(rel) else { return };
        let mut s = v40::parse(&bytes).unwrap();
        let v42 = rel.starts_with("4.2");
        // A point attachment in the default skin (type 5; 4.2 flags carry no name bit).
        let point = Attachment {
            flags: 5,
            name: StrRef::NONE,
            kind: AttachmentKind::Point(Point {
                rotation: 45.0,
                x: 1.5,
                y: -2.0,
                color: Some([1, 2, 3, 4]),
            }),
        };
        let skin = s.default_skin.as_mut().unwrap();
        // Appended to the first slot's attachments.
        let first = skin.slots[0].1 as usize;
        skin.attachments.insert(first, SkinAttachment { key: StrRef(1), attachment: point });
        skin.slots[0].1 += 1;
        // Event audio: definitions then keys carry volume and balance.
        s.events[0].audio =
            Some(EventAudio { path: "step.ogg".into(), volume: 0.5, balance: -1.0 });
        let mut keys = 0;
        for a in &mut s.animations {
            for k in &mut a.events {
                if k.event == 0 {
                    k.audio = Some([0.25, 0.75]);
                    keys += 1;
                }
            }
        }
        assert!(keys > 0, "{rel}: spineboy fires its event");
        if v42 {
            let a = &mut s.animations[0];
            a.bones.push(BoneTimelines { bone: 1, count: 1 });
            a.bone_timelines.push(BoneTimeline::Inherit(vec![
                InheritKey { time: 0.0, inherit: Inherit::NoScale },
                InheritKey { time: 0.5, inherit: Inherit::Normal },
            ]));
        }
        round_trip_ast(&s, rel);
        let back = v40::parse(&v40::write(&s)).unwrap();
        assert_eq!(back.events[0].audio.as_ref().unwrap().path, "step.ogg");
    }
}
