//! `Limits` are enforced before allocation and name the limit that was exceeded.

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
