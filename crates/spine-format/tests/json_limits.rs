//! The JSON reader enforces the same [`Limits`] as the binary parsers (issue items 1, 10 and
//! 12): every case is crafted here in code, and each fails with a typed error naming the limit
//! and the JSON path. `examples/hostile_inputs.rs` measures the big cases' time and peak
//! memory; `tests/json_limits_memory.rs` checks them.

mod hostile;

use hostile::{json_keys, json_mesh, json_sequence, json_skeleton, push_zeros};
use spine_format::json::{self, JsonError, JsonErrorKind};
use spine_format::Limits;

/// The error of parsing `text` within `limits`.
fn error(text: &str, limits: &Limits) -> JsonError {
    match json::parse_with_limits(text, limits) {
        Ok(_) => panic!("accepted: {}", &text[..text.len().min(200)]),
        Err(e) => e,
    }
}

/// `(limit, value, max, path)` of a limit error; panics on any other error.
fn limit(text: &str, limits: &Limits) -> (&'static str, u64, u64, String) {
    let e = error(text, limits);
    match e.kind {
        JsonErrorKind::LimitExceeded { limit, value, max } => {
            // Limits met while the text is read also give the byte.
            let head = format!("{limit} exceeded: {value} > {max}");
            assert!(e.message == head || e.message.starts_with(&format!("{head} (byte ")), "{e}");
            (limit, value, max, e.path)
        }
        _ => panic!("not a limit error: {e}"),
    }
}

fn with(f: impl FnOnce(&mut Limits)) -> Limits {
    let mut l = Limits::default();
    f(&mut l);
    l
}

const SEQ: &str = "skins[0].attachments.s.r.sequence";

// Item 1: sequence counts are bounded before anything is built from them.

#[test]
fn sequence_counts_are_bounded() {
    let d = Limits::default();
    assert_eq!(d.max_sequence_frames, 100_000);
    for count in [2_000_000_000u64, 1_000_000, 100_001] {
        let text = json_sequence(&format!(r#"{{"count":{count}}}"#));
        assert_eq!(
            limit(&text, &d),
            ("max_sequence_frames", count, 100_000, format!("{SEQ}.count")),
            "count {count}"
        );
    }
    let ok = json::parse(&json_sequence(r#"{"count":100000,"digits":4}"#)).expect("at the limit");
    assert!(format!("{:?}", ok.skins[0].slots[0].attachments[0]).contains("count: 100000"));
    let tight = with(|l| l.max_sequence_frames = 30);
    assert_eq!(
        limit(&json_sequence(r#"{"count":31}"#), &tight).0,
        "max_sequence_frames",
        "the limit is the caller's"
    );
}

#[test]
fn negative_sequence_counts_and_huge_digits_are_errors() {
    let e = error(&json_sequence(r#"{"count":-1}"#), &Limits::default());
    assert_eq!(e.kind, JsonErrorKind::Invalid);
    assert_eq!(e.path, format!("{SEQ}.count"));
    assert_eq!(e.message, "expected a non-negative frame count, found -1");
    let e = error(&json_sequence(r#"{"count":-2000000000}"#), &Limits::default());
    assert_eq!((e.kind, e.path), (JsonErrorKind::Invalid, format!("{SEQ}.count")));
    // A zero-padding width of 2^31 - 1 would make every frame path a 2 GB string.
    assert_eq!(
        limit(&json_sequence(r#"{"count":2,"digits":2147483647}"#), &Limits::default()),
        ("max_string_bytes", 2_147_483_647, 1 << 20, format!("{SEQ}.digits"))
    );
}

// Item 10: one `Limits` for every format.

#[test]
fn a_3m_vertex_mesh_is_refused_while_the_document_is_read() {
    // 30 MB of JSON, 15 million values: the document limit (4,000,000 values, 64 MB of
    // nodes) stops it inside the UV array, before any skeleton field is read.
    let text = json_mesh(3_000_000);
    assert!(text.len() > 30_000_000, "{}", text.len());
    let (name, value, max, path) = limit(&text, &Limits::default());
    assert_eq!((name, value, max), ("max_json_values", 4_000_001, 4_000_000));
    assert!(path.starts_with("skins[0].attachments.s.m.uvs["), "{path}");
    let e = error(&text, &Limits::default());
    assert!(e.message.contains("(byte "), "{e}");
    // With room for the document, the vertex limit names the UV array.
    let roomy = with(|l| l.max_json_values = 20_000_000);
    assert_eq!(
        limit(&text, &roomy),
        ("max_vertices", 3_000_000, 1_000_000, "skins[0].attachments.s.m.uvs".to_owned())
    );
}

#[test]
fn vertex_counts_are_checked_per_attachment() {
    let l = with(|l| l.max_vertices = 10);
    let at = |k: &str| format!("skins[0].attachments.s.m.{k}");
    // 11 vertices: the UV array (22 numbers) says so.
    assert_eq!(limit(&json_mesh(11), &l), ("max_vertices", 11, 10, at("uvs")));
    assert!(json::parse_with_limits(&json_mesh(10), &l).is_ok());
    let mesh = |uvs: usize, vertices: &str, triangles: usize, edges: usize| {
        let mut m = String::from(r#"{"m":{"type":"mesh","uvs":"#);
        push_zeros(&mut m, uvs);
        m.push_str(&format!(r#","vertices":{vertices},"triangles":"#));
        push_zeros(&mut m, triangles);
        m.push_str(r#","edges":"#);
        push_zeros(&mut m, edges);
        m.push_str("}}");
        json_skeleton(&m, "{}")
    };
    // Weighted vertices: 11 vertices of one bone each (5 numbers a vertex).
    let weighted = format!("[{}]", ["1,0,0,0,1"; 11].join(","));
    assert_eq!(limit(&mesh(8, &weighted, 3, 0), &l), ("max_vertices", 11, 10, at("vertices")));
    // A bone count over the limit is checked as the binary parsers' "vertex bone" count.
    let many_bones = format!("[11,{}]", ["0,0,0,1"; 11].join(","));
    assert_eq!(limit(&mesh(8, &many_bones, 3, 0), &l), ("max_vertices", 11, 10, at("vertices[0]")));
    // Unweighted: pairs, when there are as many numbers as UVs.
    let mut pairs = String::new();
    push_zeros(&mut pairs, 22);
    assert_eq!(limit(&mesh(22, &pairs, 3, 0), &l), ("max_vertices", 11, 10, at("uvs")));
    let l2 = with(|l| {
        l.max_vertices = 10;
        l.max_json_values = 1000;
    });
    // Otherwise weighted, as the loaders read it: 22 zeros are 22 vertices of no bones.
    assert_eq!(limit(&mesh(8, &pairs, 3, 0), &l2), ("max_vertices", 22, 10, at("vertices")));
    // Triangles (33 indices = 11 triangles) and edges (11 indices).
    assert_eq!(
        limit(&mesh(8, "[0,0,0,0,0,0,0,0]", 33, 0), &l),
        ("max_vertices", 11, 10, at("triangles"))
    );
    assert_eq!(
        limit(&mesh(8, "[0,0,0,0,0,0,0,0]", 3, 11), &l),
        ("max_vertices", 11, 10, at("edges"))
    );
    assert!(json::parse_with_limits(&mesh(8, "[0,0,0,0,0,0,0,0]", 30, 10), &l).is_ok());
    // Declared vertex counts of bounding boxes, paths and clipping polygons.
    for ty in ["boundingbox", "path", "clipping"] {
        let text = json_skeleton(
            &format!(r#"{{"b":{{"type":"{ty}","vertexCount":11,"vertices":[],"lengths":[]}}}}"#),
            "{}",
        );
        assert_eq!(
            limit(&text, &l),
            ("max_vertices", 11, 10, "skins[0].attachments.s.b.vertexCount".to_owned()),
            "{ty}"
        );
    }
}

#[test]
fn a_1_5m_key_timeline_is_refused() {
    let at = "animations.a.bones.root.rotate".to_owned();
    // Keys of one value each (`{}`, 3 bytes): the document fits, the key limit refuses it.
    let text = json_keys(1_500_000, "{}");
    assert_eq!(
        limit(&text, &Limits::default()),
        ("max_keyframes", 1_500_000, 1_000_000, at.clone())
    );
    // Keys as exported (3 values each, 18 MB): the document limit refuses it first.
    let text = json_keys(1_500_000, r#"{"time":1,"value":2}"#);
    let (name, _, _, path) = limit(&text, &Limits::default());
    assert_eq!(name, "max_json_values");
    assert!(path.starts_with(&format!("{at}[")), "{path}");
    // Event and draw order keys have their own labels but the same limit, as in the binary.
    let l = with(|l| l.max_keyframes = 2);
    for k in ["events", "drawOrder"] {
        let text = json_skeleton("{}", &format!(r#"{{"a":{{"{k}":[{{}},{{}},{{}}]}}}}"#));
        assert_eq!(limit(&text, &l), ("max_keyframes", 3, 2, format!("animations.a.{k}")));
    }
}

#[test]
fn list_limits_have_the_binary_names() {
    let bones = r#"{"bones":[{"name":"a"},{"name":"b"},{"name":"c"}]}"#;
    assert_eq!(limit(bones, &with(|l| l.max_bones = 2)), ("max_bones", 3, 2, "bones".to_owned()));
    let slots = r#"{"slots":[{"name":"a","bone":"r"},{"name":"b","bone":"r"}]}"#;
    assert_eq!(limit(slots, &with(|l| l.max_slots = 1)), ("max_slots", 2, 1, "slots".to_owned()));
    let anims = r#"{"animations":{"a":{},"b":{},"c":{}}}"#;
    assert_eq!(
        limit(anims, &with(|l| l.max_items = 2)),
        ("max_items", 3, 2, "animations".to_owned())
    );
    let ik = r#"{"ik":[{"name":"i","bones":["a","b","c"],"target":"t"}]}"#;
    assert_eq!(
        limit(ik, &with(|l| l.max_bones = 2)),
        ("max_bones", 3, 2, "ik[0].bones".to_owned())
    );
    let curve = json_keys(2, r#"{"curve":[0,0,1,1,2]}"#);
    assert_eq!(
        limit(&curve, &with(|l| l.max_items = 4)),
        ("max_items", 5, 4, "animations.a.bones.root.rotate[0].curve".to_owned())
    );
}

#[test]
fn sizes_strings_and_values_are_bounded_while_reading() {
    let text = json_skeleton("{}", "{}");
    let l = with(|l| l.max_file_bytes = 50);
    assert_eq!(limit(&text, &l), ("max_file_bytes", text.len() as u64, 50, "(root)".to_owned()));
    // A long bone name (the reader checks strings as it scans them, keys too).
    let name = "x".repeat(1000);
    let text = format!(r#"{{"bones":[{{"name":"{name}"}}]}}"#);
    let l = with(|l| l.max_string_bytes = 999);
    assert_eq!(limit(&text, &l), ("max_string_bytes", 1000, 999, "bones[0].name".to_owned()));
    let escaped = format!(r#"{{"bones":[{{"name":"\n{}"}}]}}"#, "x".repeat(999));
    assert_eq!(limit(&escaped, &l), ("max_string_bytes", 1000, 999, "bones[0].name".to_owned()));
    let key = format!(r#"{{"bones":[{{"{name}":1}}]}}"#);
    assert_eq!(limit(&key, &l), ("max_string_bytes", 1000, 999, "bones[0]".to_owned()));
    // The document limit: 10 values at most.
    let l = with(|l| l.max_json_values = 10);
    let text = r#"{"bones":[{"name":"a"},{"name":"b"},{"name":"c"}]}"#;
    // The 11th value is the third bone's key `name`.
    assert_eq!(limit(text, &l), ("max_json_values", 11, 10, "bones[2]".to_owned()));
    assert!(json::parse_with_limits(r#"{"bones":[{"name":"a"},{"name":"b"}]}"#, &l).is_ok());
}

#[test]
fn parse_is_parse_with_default_limits_and_unlimited_accepts_big_documents() {
    let text = json_mesh(1_100_000);
    assert_eq!(limit(&text, &Limits::default()).0, "max_json_values");
    assert_eq!(json::parse(&text), json::parse_with_limits(&text, &Limits::default()));
    let roomy = with(|l| l.max_json_values = 10_000_000);
    assert_eq!(
        limit(&text, &roomy),
        ("max_vertices", 1_100_000, 1_000_000, "skins[0].attachments.s.m.uvs".to_owned())
    );
    let s = json::parse_with_limits(&text, &Limits::unlimited()).expect("no limits");
    assert_eq!(s.skins[0].slots[0].attachments.len(), 1);
    let small = json_mesh(3);
    assert_eq!(json::parse(&small), json::parse_with_limits(&small, &Limits::default()));
    assert!(json::parse(&small).is_ok());
}

// Item 12 (part): what the error says.

#[test]
fn a_non_object_root_is_not_a_spine_json_skeleton() {
    for (text, kind) in [
        ("[1,2]", "an array"),
        ("42", "a number"),
        (r#""skel""#, "a string"),
        ("null", "null"),
        ("true", "a boolean"),
    ] {
        let e = error(text, &Limits::default());
        assert_eq!(e.kind, JsonErrorKind::NotASkeleton, "{text}");
        assert_eq!(e.path, "(root)");
        assert_eq!(
            e.to_string(),
            format!("not a Spine JSON skeleton (the root is {kind}, not an object), at (root)")
        );
    }
    assert_eq!(error("[1,", &Limits::default()).kind, JsonErrorKind::Syntax);
}

#[test]
fn control_characters_in_names_are_escaped_in_messages() {
    // A bone timeline named "\u{1b}[2J\n" under a bone named "a\rb": both are quoted data.
    let text =
        json_skeleton("{}", r#"{"x\u0007":{"bones":{"a\rb":{"\u001b[2J\n":[{"time":0}]}}}}"#);
    let e = error(&text, &Limits::default());
    let shown = e.to_string();
    assert!(!shown.chars().any(char::is_control), "{shown:?}");
    assert_eq!(e.path, r"animations.x\u{7}.bones.a\rb.\u{1b}[2J\n");
    assert_eq!(e.message, r#"unknown bone timeline "\u{1b}[2J\n""#);
    // Limit errors found while reading the text escape their path too.
    let l = with(|l| l.max_string_bytes = 3);
    let e = error(r#"{"a\tb":{"c\n":"long string"}}"#, &l);
    assert_eq!(e.path, r"a\tb.c\n");
}

/// Limits only ever refuse: within any limits a document parses to the same skeleton as with
/// the defaults, or fails with a limit error, or fails with the defaults' error. Checked over
/// every corpus JSON (when the corpus is there) with the limit-checking reader forced on and
/// with tight limits, and over damaged copies (the `json_parse` fuzz target checks the same).
#[test]
fn limits_only_refuse() {
    let check = |text: &str, limits: &Limits, what: &str| {
        let default = json::parse(text);
        match json::parse_with_limits(text, limits) {
            Ok(s) => assert_eq!(default.as_ref(), Ok(&s), "{what}"),
            Err(e) if matches!(e.kind, JsonErrorKind::LimitExceeded { .. }) => {}
            Err(e) => assert_eq!(default.as_ref().err(), Some(&e), "{what}"),
        }
    };
    let tight = Limits {
        max_bones: 20,
        max_slots: 20,
        max_vertices: 50,
        max_keyframes: 10,
        max_string_bytes: 12,
        max_items: 30,
        max_sequence_frames: 6,
        max_json_values: 5000,
        ..Limits::default()
    };
    let mut texts = vec![json_mesh(40), json_keys(30, r#"{"time":1,"value":2}"#)];
    if let Some(corpus) = skel_testkit::spine_corpus() {
        for v in ["3.8", "4.1", "4.2"] {
            for f in skel_testkit::files_with_suffix(&corpus.join(v), ".json") {
                texts.push(std::fs::read_to_string(f).expect("UTF-8"));
            }
        }
    }
    for (i, text) in texts.iter().enumerate() {
        // Strings up to the whole text: the checking reader, and nothing it could refuse.
        let checking = Limits { max_string_bytes: text.len() - 1, ..Limits::default() };
        let s = json::parse_with_limits(text, &checking);
        assert_eq!(s, json::parse(text), "text {i}");
        check(text, &tight, &format!("text {i}, tight"));
        for cut in [text.len() / 3, text.len() / 2, text.len() - 1] {
            let cut = (cut..text.len()).find(|&c| text.is_char_boundary(c)).unwrap_or(0);
            check(&text[..cut], &tight, &format!("text {i} cut at {cut}"));
        }
    }
}
