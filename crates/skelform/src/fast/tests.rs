//! The fast path against the token readers and against serde_json.

use super::reader::P;

/// The one-scan number readers agree with the token-then-parse ones (value and end
/// position) on plain and unusual tokens.
#[test]
fn fused_numbers_match_token_parsing() {
    let tokens = [
        "0",
        "-0",
        "0.5",
        "-0.0",
        "00.5",
        "05",
        "1.",
        ".5",
        "-.5",
        "1e5",
        "1E-3",
        "1.2.3",
        "123456789012345",
        "1234567890123456",
        "0.123456789012345",
        "-",
        "+1",
        "1-2",
        "3.4028236e38",
        "0.1",
        "-603.1413",
        "1016.6481",
        "999999999999999999",
        "9999999999999999999",
        "-12",
        "7",
        "2.5e",
        "1.5x",
        "12}",
        "-1,",
        "12345678",
        "123456789",
        "-87654321.1",
        "1234567.12345678",
        "0.00044026837",
        "-65.809746",
        "99999999.9999999",
        "9999999.99999999",
        "123456789012345678",
        "1234567890123456789",
        "0.000000000000001",
        "1.2345678x",
        "00000000",
        "0.0",
        "7.0",
        "9.00",
        "1.0e5",
        "0.05",
        "0.0e1",
        "0.0.0",
        "-0.0",
    ];
    for t in tokens {
        for tail in ["", ",", "}", " ]", ",\"abcdefgh\":1", "}]]]]]]]]]]", "        ", "0"] {
            let text = format!("{t}{tail}");
            let run = |slow: bool, int: bool| {
                let mut p = P::new(text.as_bytes());
                let v = match (slow, int) {
                    (false, false) => p.f32().map(|v| v.to_bits() as i64),
                    (true, false) => p.f32_slow().map(|v| v.to_bits() as i64),
                    (false, true) => p.i64(),
                    (true, true) => p.i64_slow(),
                };
                (v, v.map(|_| p.i))
            };
            assert_eq!(run(false, false), run(true, false), "f32 {text:?}");
            assert_eq!(run(false, true), run(true, true), "i64 {text:?}");
        }
    }
}

/// Edited documents (out-of-range and mismatched ids, absent, extra, reordered and
/// optional keys, tints, aliases, value strings): whenever the serde path builds an
/// armature the fast path builds the identical one, and whenever the serde path
/// rejects the document the fast path declines (so the error comes from serde).
#[test]
fn fast_path_agrees_on_edited_documents() {
    let Some(dir) = skel_testkit::fixtures_dir() else { return };
    let path = dir.join("skelform").join("skellington_v0.7.0.skf");
    let Some(bytes) = skel_testkit::read_corpus_file(&path) else { return };
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(&bytes[..])).expect("zip");
    let mut text = String::new();
    std::io::Read::read_to_string(&mut zip.by_name("armature.json").expect("entry"), &mut text)
        .expect("utf8");
    let edits: &[(&str, &str)] = &[
        ("\"parent_id\":-1", "\"parent_id\":40"),
        ("\"parent_id\":-1", "\"parent_id\":-2"),
        ("\"id\":1,\"name\"", "\"id\":2,\"name\""),
        ("\"ik_family_id\":-1", "\"ik_family_id\":5"),
        ("\"ik_family_id\":-1", "\"inverse_kinematics_id\":0"),
        ("\"ik_family_id\":-1", "\"ik_family_id\":-1,\"inverse_kinematics_id\":0"),
        ("\"physics_id\":-1", "\"physics_id\":3"),
        ("\"visuals_id\":-1", "\"visuals_id\":21"),
        ("\"visuals_id\":-1", "\"visuals_id\":4294967296"),
        ("\"bone_id\":5", "\"bone_id\":61"),
        ("\"bone_id\":5", "\"bone_id\":-1"),
        ("\"next_kf\":12", "\"next_kf\":159"),
        ("\"next_kf\":12", "\"next_kf\":-1"),
        ("\"target_id\":", "\"target_id\":70,\"x\":"),
        ("\"bone_ids\":[", "\"bone_ids\":[61,"),
        ("\"bone_ids\":[", "\"bone_ids\":[0,"),
        ("\"atlas_idx\":0", "\"atlas_idx\":1"),
        ("\"indices\":[", "\"indices\":[13,"),
        ("\"verts\":[{\"id\":", "\"verts\":[{\"id\":200,\"z\":"),
        ("\"bone_id\":7,\"is_path\"", "\"id\":7,\"is_path\""),
        ("\"bone_id\":7,\"is_path\"", "\"bone_id\":70,\"is_path\""),
        ("\"rot\":0.0,", ""),
        ("\"scale\":{\"x\":1.0,\"y\":1.0},", "\"hidden\":true,"),
        ("\"init_rot\":0.0,", "\"init_hidden\":true,\"extra\":[1,{\"a\":null}],"),
        ("\"zindex\":0,", "\"zindex\":0,\"tint\":{\"r\":0.5,\"g\":1,\"b\":0,\"a\":1},"),
        ("\"init_zindex\":0", "\"init_zindex\":0,\"init_tint\":{\"a\":0.25}"),
        ("\"init_tex\":\"Right Shoulder\"", "\"init_tex\":\"Elsewhere\""),
        ("\"element\":\"PositionX\"", "\"element\":\"Texture\",\"value_str\":\"Neck\""),
        ("\"element\":\"PositionX\"", "\"element\":\"Tex\",\"value_str\":\"New\""),
        ("\"element\":\"PositionX\"", "\"element\":\"IkConstraint\",\"value_str\":\"Clockwise\""),
        ("\"handle_preset\":\"Linear\"", "\"handle_preset\":\"Bouncy\""),
        ("\"handle_preset\":\"Linear\"", "\"handle_preset\":\"SineIn\""),
        ("\"mode\":\"FABRIK\"", "\"mode\":\"Arc\",\"mimic_target\":true"),
        ("\"version\":\"0.7.0\"", "\"version\":\"0.5.1\""),
        ("\"version\":\"0.7.0\"", "\"clear_color\":{\"r\":255,\"g\":1,\"b\":2,\"a\":3}"),
        ("\"frame\":0,", "\"frame\":0.5,"),
        ("\"frame\":0,", "\"frame\":-1,"),
        ("\"value\":0.0", "\"value\":1e3"),
        ("\"value\":0.0", "\"value\":null"),
        ("{\"id\":0,\"pos\"", "{\"id\":1.2.3,\"pos\""),
        ("{\"id\":0,\"pos\"", "{\"id\":-01,\"pos\""),
        ("{\"id\":0,\"pos\"", "{\"id\":1e5,\"pos\""),
        ("{\"id\":0,\"pos\"", "{\"id\":-2.5E-3,\"pos\""),
        ("{\"id\":0,\"pos\"", "{\"id\":2.,\"pos\""),
        ("{\"id\":0,\"pos\"", "{\"id\":1e+,\"pos\""),
        ("\"y\":0.33333334}", "\"y\":0.33333335}"),
        ("\"x\":0.6666667,", "\"x\":0.6666667 ,"),
        ("\"name\":\"Left", "\"name\":\"\\u0041Left"),
        ("\"name\":\"Left", "\"name\":\"L\u{e9}ft \u{1F480}"),
        ("\"tex\":\"Right", "\"tex\":\"\u{2192}Right"),
        ("\"value\":0.0", "\"value\":0.0,\"note\":\"\u{e9}\""),
    ];
    let mut agreed = 0;
    for (from, to) in edits {
        for all in [false, true] {
            let edited = if all { text.replace(from, to) } else { text.replacen(from, to, 1) };
            assert_ne!(edited, text, "{from} not found");
            let fast = super::parse(edited.as_bytes());
            let slow = crate::load::parse_with_serde(&edited);
            match (&fast, &slow) {
                (Some(a), Ok(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{to}"),
                (Some(_), Err(e)) => panic!("{to} (all: {all}): fast accepted, serde: {e}"),
                (None, _) => {}
            }
            agreed += usize::from(fast.is_some());
        }
    }
    println!("the fast path took {agreed} of {} edited documents", edits.len() * 2);
    // Invalid UTF-8 in a kept or a skipped string, or outside strings: declined, and
    // the document is rejected.
    for (from, to) in [("Left", 0), ("PNG", 1), ("\"element\":", 0)] {
        let at = text.find(from).expect("present");
        let mut bytes = text.as_bytes().to_vec();
        bytes[at + to] = 0xE9;
        assert!(super::parse(&bytes).is_none(), "{from}: invalid UTF-8 accepted");
        assert!(crate::load::parse_armature_json(&bytes).is_err(), "{from}");
    }
    assert!(agreed > 30, "the fast path took only {agreed} edited documents");
}

/// The fast path and serde_json build identical armatures for every current-format
/// sample (and the fast path declines every legacy one).
#[test]
fn fast_path_equals_serde() {
    let Some(dir) = skel_testkit::fixtures_dir() else { return };
    let mut compared = 0;
    for f in skel_testkit::files_with_suffix(&dir.join("skelform"), ".skf") {
        let bytes = std::fs::read(&f).expect("read");
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(&bytes[..])).expect("zip");
        let mut text = String::new();
        std::io::Read::read_to_string(&mut zip.by_name("armature.json").expect("entry"), &mut text)
            .expect("utf8");
        let text = text.trim_start_matches('\u{feff}');
        let legacy = f.to_string_lossy().contains("legacy");
        let fast = super::parse(text.as_bytes());
        if legacy {
            assert!(fast.is_none() || f.to_string_lossy().contains("v0.2"), "{f:?}");
            continue;
        }
        let a = fast.unwrap_or_else(|| panic!("{f:?}: fast path declined"));
        let slow: crate::raw::RawArmature = serde_json::from_str(text).expect("serde");
        let b = crate::load::build_for_test(slow);
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "{f:?}");
        // The same document pretty-printed (whitespace everywhere, keys reordered).
        let v: serde_json::Value = serde_json::from_str(text).expect("value");
        let pretty = serde_json::to_string_pretty(&v).expect("pretty");
        let c = super::parse(pretty.as_bytes()).unwrap_or_else(|| panic!("{f:?}: pretty declined"));
        assert_eq!(format!("{c:?}"), format!("{b:?}"), "{f:?} pretty-printed");
        compared += 1;
    }
    assert_eq!(compared, 4);
}
