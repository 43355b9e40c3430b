//! `Limits` are enforced before allocation and name the limit that was exceeded.

mod hostile;

use spine_format::SpineVersion;
use spine_format::{binary, BinaryErrorKind, Limits};

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(skel_testkit::project_fixtures().join("spine-4.3").join(name)).expect("fixture")
}

fn limit_of(bytes: &[u8], limits: &Limits) -> Option<(&'static str, u64, u64)> {
    match binary::parse_with_limits(bytes, limits) {
        Err(e) => match e.kind {
            BinaryErrorKind::LimitExceeded { limit, value, max } => Some((limit, value, max)),
            _ => None,
        },
        Ok(_) => None,
    }
}

#[test]
fn file_size_limit() {
    let bytes = fixture("constraints.skel");
    let limits = Limits { max_file_bytes: 1000, ..Limits::default() };
    assert_eq!(limit_of(&bytes, &limits), Some(("max_file_bytes", bytes.len() as u64, 1000)));
    assert!(binary::parse_with_limits(&bytes, &Limits::default()).is_ok());
}

#[test]
fn count_limits_name_the_limit_and_the_section() {
    let bytes = fixture("showcase-pro.skel");
    let ast = binary::parse(&bytes).expect("fixture parses");
    let s = ast.summary();
    let limits = Limits { max_bones: s.bones - 1, ..Limits::default() };
    assert_eq!(limit_of(&bytes, &limits), Some(("max_bones", s.bones as u64, s.bones as u64 - 1)));
    let e = binary::parse_with_limits(&bytes, &limits).unwrap_err();
    assert_eq!(e.section, "bones");
    let limits = Limits { max_slots: 3, ..Limits::default() };
    assert_eq!(limit_of(&bytes, &limits).map(|l| l.0), Some("max_slots"));
    let limits = Limits { max_keyframes: 1, ..Limits::default() };
    assert_eq!(limit_of(&bytes, &limits).map(|l| l.0), Some("max_keyframes"));
    let limits = Limits { max_string_bytes: 2, ..Limits::default() };
    assert_eq!(limit_of(&bytes, &limits).map(|l| l.0), Some("max_string_bytes"));
}

#[test]
fn limits_apply_to_every_generation() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    for v in ["3.5", "3.8", "4.0", "4.2"] {
        let path = corpus.join(v).join("spineboy");
        let file =
            skel_testkit::files_with_suffix(&path, ".skel").into_iter().next().expect("spineboy");
        let bytes = std::fs::read(&file).unwrap();
        let limits = Limits { max_bones: 4, ..Limits::default() };
        assert_eq!(limit_of(&bytes, &limits).map(|l| l.0), Some("max_bones"), "{}", file.display());
    }
}

/// Issue item 1: a sequence's frame count costs no bytes on the wire, so only
/// `max_sequence_frames` bounds it (4.2 dragon-ess with its count set to 2^31 asked the loader
/// for 32 GB). Crafted in code for every generation with sequences.
#[test]
fn sequence_frame_counts_are_bounded_in_every_generation() {
    for count in [1u32 << 31, 2_000_000_000, 1_000_000, 100_001] {
        for generation in [SpineVersion::V4_1, SpineVersion::V4_2] {
            let bytes = hostile::v4x_sequence(generation, count, 4);
            let e = binary::parse(&bytes).expect_err("refused");
            assert_eq!(
                e.kind,
                BinaryErrorKind::LimitExceeded {
                    limit: "max_sequence_frames",
                    value: count.into(),
                    max: 100_000
                },
                "{generation:?}: {e}"
            );
            // The count is the first varint of the record, right after the region's fields
            // (4.1) or its flag byte (4.2): 5 bytes for 2^31, 3 for a million.
            let varint = if count >= 1 << 28 { 5 } else { 3 };
            assert_eq!(&bytes[e.offset..e.offset + varint + 3], {
                let mut w = vec![];
                let mut v = count;
                while v >= 0x80 {
                    w.push((v as u8 & 0x7f) | 0x80);
                    v >>= 7;
                }
                w.extend([v as u8, 1, 4, 0]);
                w
            });
            assert_eq!(e.section, "default skin > slots[0] > attachments[0] > region", "{e}");
        }
        let bytes = hostile::v43_sequence(count);
        let e = binary::parse(&bytes).expect_err("refused");
        assert_eq!(
            e.kind,
            BinaryErrorKind::LimitExceeded {
                limit: "max_sequence_frames",
                value: count.into(),
                max: 100_000
            },
            "4.3: {e}"
        );
    }
    // At the limit a file of under 200 bytes is fine: the count is not checked against the
    // bytes left, as counts of things with bytes of their own are.
    for generation in [SpineVersion::V4_1, SpineVersion::V4_2] {
        let bytes = hostile::v4x_sequence(generation, 100_000, 4);
        assert!(bytes.len() < 200, "{}", bytes.len());
        assert!(binary::parse(&bytes).is_ok(), "{generation:?}");
    }
    assert!(binary::parse(&hostile::v43_sequence(100_000)).is_ok());
    let tight = Limits { max_sequence_frames: 10, ..Limits::default() };
    let bytes = hostile::v4x_sequence(SpineVersion::V4_2, 11, 4);
    assert_eq!(limit_of(&bytes, &tight), Some(("max_sequence_frames", 11, 10)));
    assert!(binary::parse_with_limits(&bytes, &Limits::unlimited()).is_ok());
}

/// A zero-padding width of 2^31 would make every frame's region path a 2 GB string.
#[test]
fn sequence_digits_are_bounded_by_the_string_limit() {
    for generation in [SpineVersion::V4_1, SpineVersion::V4_2] {
        let bytes = hostile::v4x_sequence(generation, 2, u32::MAX);
        assert_eq!(
            limit_of(&bytes, &Limits::default()),
            Some(("max_string_bytes", u64::from(u32::MAX), 1 << 20)),
            "{generation:?}"
        );
        let bytes = hostile::v4x_sequence(generation, 2, 1 << 20);
        assert!(binary::parse(&bytes).is_ok(), "{generation:?}");
    }
}
