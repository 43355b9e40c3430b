//! Facts read from the real 3.5–3.8 exports, checked against their `.json` twins and against
//! values read off those twins by hand; plus crafted malformed files that must fail with
//! typed errors carrying offsets and section paths.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use spine_format::binary::v3_common::{Attachment, SkinSlot, SlotTimeline};
use spine_format::binary::{self, v35, v38, SkeletonFile, StrRef};
use spine_format::BinaryErrorKind;
use spine_format::SpineVersion;

fn corpus_file(rel: &str) -> Option<PathBuf> {
    Some(skel_testkit::spine_corpus()?.join(rel))
}

fn parse_file(path: &Path) -> SkeletonFile {
    let bytes = std::fs::read(path).expect("corpus file is readable");
    binary::parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// What the tests compare, extracted from either 3.x AST.
#[derive(Debug, Default)]
struct Facts {
    bones: Vec<String>,
    slots: Vec<String>,
    /// Attachment type name → count, over every skin.
    kinds: BTreeMap<&'static str, usize>,
    /// (animation, slot name, shift) of every negative draw-order shift.
    negative_shifts: Vec<(String, String, i32)>,
    /// Clipping attachments: (key name, end slot name).
    clippings: Vec<(String, String)>,
    /// Number of two-color slot timelines.
    two_color_timelines: usize,
}

fn kind<S>(a: &Attachment<S>) -> &'static str {
    match a {
        Attachment::Region(_) => "region",
        Attachment::BoundingBox(_) => "boundingbox",
        Attachment::Mesh(_) => "mesh",
        Attachment::LinkedMesh(_) => "linkedmesh",
        Attachment::Path(_) => "path",
        Attachment::Point(_) => "point",
        Attachment::Clipping(_) => "clipping",
    }
}

fn facts_of(file: &SkeletonFile) -> Facts {
    let mut f = Facts::default();
    fn skins_walk<S>(
        f: &mut Facts,
        skins: Vec<&Vec<SkinSlot<S>>>,
        slots: &[String],
        key: impl Fn(&S) -> String,
    ) {
        for skin in skins {
            for slot in skin {
                for e in &slot.entries {
                    *f.kinds.entry(kind(&e.attachment)).or_default() += 1;
                    if let Attachment::Clipping(c) = &e.attachment {
                        f.clippings.push((key(&e.key), slots[c.end_slot as usize].clone()));
                    }
                }
            }
        }
    }
    match file {
        SkeletonFile::V35(s) => {
            f.bones = s.bones.iter().map(|b| b.name.to_string()).collect();
            f.slots = s.slots.iter().map(|b| b.name.to_string()).collect();
            let mut skins = vec![&s.default_skin];
            skins.extend(s.skins.iter().map(|s| &s.slots));
            let slots = f.slots.clone();
            skins_walk(&mut f, skins, &slots, |k| k.clone().unwrap_or_default());
            for a in &s.animations {
                for k in &a.draw_order {
                    for c in k.changes.iter().filter(|c| c.shift < 0) {
                        let slot = slots[c.slot as usize].clone();
                        f.negative_shifts.push((a.name.to_string(), slot, c.shift));
                    }
                }
                f.two_color_timelines += a
                    .slots
                    .iter()
                    .flat_map(|s| &s.timelines)
                    .filter(|t| matches!(t, SlotTimeline::TwoColor(_)))
                    .count();
            }
        }
        SkeletonFile::V38(s) => {
            f.bones = s.bones.iter().map(|b| b.name.to_string()).collect();
            f.slots = s.slots.iter().map(|b| b.name.to_string()).collect();
            let mut skins = vec![&s.default_skin];
            skins.extend(s.skins.iter().map(|s| &s.slots));
            let slots = f.slots.clone();
            skins_walk(&mut f, skins, &slots, |k: &StrRef| s.str(*k).unwrap_or_default().into());
            for a in &s.animations {
                for k in &a.draw_order {
                    for c in k.changes.iter().filter(|c| c.shift < 0) {
                        let slot = slots[c.slot as usize].clone();
                        f.negative_shifts.push((a.name.to_string(), slot, c.shift));
                    }
                }
                f.two_color_timelines += a
                    .slots
                    .iter()
                    .flat_map(|s| &s.timelines)
                    .filter(|t| matches!(t, SlotTimeline::TwoColor(_)))
                    .count();
            }
        }
        other => panic!("not a 3.x file: {:?}", other.summary().version),
    }
    f
}

fn json_max_time(v: &Value, max: &mut f64) {
    match v {
        Value::Object(m) => {
            if let Some(t) = m.get("time").and_then(Value::as_f64) {
                *max = max.max(t);
            }
            m.values().for_each(|x| json_max_time(x, max));
        }
        Value::Array(a) => a.iter().for_each(|x| json_max_time(x, max)),
        _ => {}
    }
}

fn names(v: &Value, key: &str) -> Vec<String> {
    v[key]
        .as_array()
        .map(|a| a.iter().map(|b| b["name"].as_str().unwrap_or_default().to_owned()).collect())
        .unwrap_or_default()
}

/// Every 3.x `.skel` with a `.json` twin agrees with it: bone and slot names in order,
/// constraint counts, events, skins, animation names and durations, attachment kinds,
/// negative draw-order shifts.
#[test]
fn every_3x_skel_agrees_with_its_json_twin() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let mut checked = 0;
    let mut failures = Vec::new();
    for path in skel_testkit::files_with_suffix(&corpus, ".skel") {
        let rel = path.strip_prefix(&corpus).unwrap_or(&path).display().to_string();
        if !["3.5/", "3.6/", "3.7/", "3.8/"].iter().any(|v| rel.starts_with(v)) {
            continue;
        }
        let json_path = path.with_extension("json");
        let Ok(text) = std::fs::read_to_string(&json_path) else { continue };
        let json: Value = serde_json::from_str(&text).expect("twin is JSON");
        let file = parse_file(&path);
        let summary = file.summary();
        let facts = facts_of(&file);
        let mut fail = |what: &str, bin: String, js: String| {
            if bin != js {
                failures.push(format!("{rel}: {what}: binary {bin} vs json {js}"));
            }
        };
        fail("bones", format!("{:?}", facts.bones), format!("{:?}", names(&json, "bones")));
        fail("slots", format!("{:?}", facts.slots), format!("{:?}", names(&json, "slots")));
        for (k, n) in [
            ("ik", summary.constraints.ik),
            ("transform", summary.constraints.transform),
            ("path", summary.constraints.path),
        ] {
            let js = json[k].as_array().map_or(0, Vec::len);
            fail(k, n.to_string(), js.to_string());
        }
        let mut events = summary.events.clone();
        events.sort();
        let js_events: Vec<String> =
            json["events"].as_object().map(|m| m.keys().cloned().collect()).unwrap_or_default();
        fail("events", format!("{events:?}"), format!("{js_events:?}"));

        // Skins: 3.5–3.7 JSON has an object, 3.8 an array.
        let mut js_skins: Vec<(String, &Value)> = match &json["skins"] {
            Value::Object(m) => m.iter().map(|(k, v)| (k.clone(), v)).collect(),
            Value::Array(a) => a
                .iter()
                .map(|s| (s["name"].as_str().unwrap_or_default().to_owned(), &s["attachments"]))
                .collect(),
            _ => Vec::new(),
        };
        // Skins without attachments are not in the binary (3.8 hero-pro's JSON has two that
        // only list bones and constraints).
        js_skins.retain(|(_, v)| v.as_object().is_some_and(|m| !m.is_empty()));
        let mut js_names: Vec<String> = js_skins.iter().map(|(n, _)| n.clone()).collect();
        js_names.sort();
        let mut bin_skins = summary.skins.clone();
        bin_skins.sort();
        fail("skins", format!("{bin_skins:?}"), format!("{js_names:?}"));
        let mut js_kinds: BTreeMap<&'static str, usize> = BTreeMap::new();
        for (_, slots) in &js_skins {
            for atts in slots.as_object().into_iter().flat_map(|m| m.values()) {
                for a in atts.as_object().into_iter().flat_map(|m| m.values()) {
                    let t = a["type"].as_str().unwrap_or("region");
                    let t = if t == "skinnedmesh" || t == "weightedmesh" { "mesh" } else { t };
                    for k in
                        ["region", "boundingbox", "mesh", "linkedmesh", "path", "point", "clipping"]
                    {
                        if k == t {
                            *js_kinds.entry(k).or_default() += 1;
                        }
                    }
                }
            }
        }
        fail("attachment kinds", format!("{:?}", facts.kinds), format!("{js_kinds:?}"));

        let anims = json["animations"].as_object().cloned().unwrap_or_default();
        let mut bin_anims: Vec<&str> = summary.animations.iter().map(|a| a.name.as_str()).collect();
        bin_anims.sort_unstable();
        let js_anims: Vec<&str> = anims.keys().map(String::as_str).collect();
        fail("animations", format!("{bin_anims:?}"), format!("{js_anims:?}"));
        for a in &summary.animations {
            let mut max = 0.0;
            if let Some(v) = anims.get(&a.name) {
                json_max_time(v, &mut max);
            }
            let ok = (f64::from(a.duration) - max).abs() <= 1e-3;
            fail(&format!("{} duration", a.name), ok.to_string(), "true".into());
            if !ok {
                eprintln!("{rel}: {} duration {} vs json {max}", a.name, a.duration);
            }
        }
        let mut js_neg = 0;
        for a in anims.values() {
            let keys = a.get("drawOrder").or_else(|| a.get("draworder"));
            for k in keys.and_then(Value::as_array).into_iter().flatten() {
                for o in k["offsets"].as_array().into_iter().flatten() {
                    js_neg += usize::from(o["offset"].as_i64().unwrap_or(0) < 0);
                }
            }
        }
        fail("negative shifts", facts.negative_shifts.len().to_string(), js_neg.to_string());
        checked += 1;
    }
    eprintln!("{checked} .skel/.json pairs compared, {} differences", failures.len());
    assert!(checked >= 70, "only {checked} pairs found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const SPINEBOY_ANIMS: [(&str, f32); 7] = [
    ("death", 4.9333),
    ("hit", 0.3333),
    ("idle", 1.6667),
    ("jump", 1.3333),
    ("run", 0.8),
    ("shoot", 0.4),
    ("walk", 0.8),
];

fn assert_anims(file: &SkeletonFile, expected: &[(&str, f32)]) {
    let s = file.summary();
    for (name, d) in expected {
        let a = s.animations.iter().find(|a| a.name == *name).unwrap_or_else(|| panic!("{name}"));
        assert!((a.duration - d).abs() < 1e-3, "{name}: {} vs {d}", a.duration);
    }
}

#[test]
fn spineboy_bones_and_animations_per_version() {
    let Some(p35) = corpus_file("3.5/spineboy/spineboy.skel") else { return };
    let f = parse_file(&p35);
    let SkeletonFile::V35(s) = &f else { panic!("3.5 parses as v35") };
    assert_eq!(s.generation, SpineVersion::V3_5);
    assert_eq!(s.header.version, "3.5.03-beta");
    let facts = facts_of(&f);
    assert_eq!(facts.bones.len(), 17);
    assert_eq!(facts.bones[..3], ["hip", "torso", "front_upper_arm"]);
    let mut anims = SPINEBOY_ANIMS.to_vec();
    anims[2].1 = 1.6666; // 3.5's idle ends at 1.6666
    anims.push(("test", 2.0));
    assert_anims(&f, &anims);
    assert_eq!(f.summary().animations.len(), 8);

    for (v, gen) in
        [("3.6", SpineVersion::V3_6), ("3.7", SpineVersion::V3_7), ("3.8", SpineVersion::V3_8)]
    {
        let path = corpus_file(&format!("{v}/spineboy/spineboy-ess.skel")).expect("corpus");
        let f = parse_file(&path);
        let facts = facts_of(&f);
        match (&f, gen) {
            (SkeletonFile::V35(s), g) => assert_eq!(s.generation, g),
            (SkeletonFile::V38(s), SpineVersion::V3_8) => {
                assert!(s.header.version.starts_with("3.8."))
            }
            _ => panic!("{v}: wrong generation"),
        }
        let expected_bones = if v == "3.6" {
            vec!["root", "dust", "hip", "torso"]
        } else {
            vec!["root", "hip", "torso", "front-upper-arm"]
        };
        assert_eq!(facts.bones[..4], expected_bones[..], "{v}");
        assert_eq!(facts.bones.len(), if v == "3.6" { 19 } else { 18 }, "{v}");
        assert_anims(&f, &SPINEBOY_ANIMS);
        assert_eq!(f.summary().animations.len(), 7, "{v}");
        assert_eq!(f.summary().skins, ["default"], "{v}");
    }
}

#[test]
fn raptor_mesh_counts() {
    for (rel, meshes) in [
        ("3.5/raptor/raptor.skel", 10),
        ("3.6/raptor/raptor-pro.skel", 15),
        ("3.7/raptor/raptor-pro.skel", 14),
        ("3.8/raptor/raptor-pro.skel", 13),
    ] {
        let Some(p) = corpus_file(rel) else { return };
        let facts = facts_of(&parse_file(&p));
        assert_eq!(facts.kinds.get("mesh").copied(), Some(meshes), "{rel}");
        assert_eq!(facts.kinds.get("linkedmesh"), None, "{rel}");
    }
}

#[test]
fn negative_draw_order_shifts() {
    let Some(p) = corpus_file("3.5/spineboy/spineboy.skel") else { return };
    let f = facts_of(&parse_file(&p));
    assert_eq!(f.negative_shifts.len(), 4);
    assert!(f.negative_shifts.contains(&("test".into(), "head".into(), -9)), "{f:?}");
    for v in ["3.6", "3.7", "3.8"] {
        let p = corpus_file(&format!("{v}/tank/tank-pro.skel")).expect("corpus");
        let f = facts_of(&parse_file(&p));
        assert_eq!(f.negative_shifts.len(), 19, "{v}");
        assert!(
            f.negative_shifts.contains(&("shoot".into(), "smoke-puff1-fg7".into(), -4)),
            "{v}: {:?}",
            f.negative_shifts
        );
    }
}

#[test]
fn clipping_attachments_from_3_6_on() {
    for (rel, clip_count) in [
        ("3.6/coin/coin-pro.skel", 1),
        ("3.6/tank/tank-pro.skel", 1),
        ("3.7/coin/coin-pro.skel", 1),
        ("3.8/coin/coin-pro.skel", 1),
        ("3.8/spineboy/spineboy-pro.skel", 1),
    ] {
        let Some(p) = corpus_file(rel) else { return };
        let f = facts_of(&parse_file(&p));
        assert_eq!(f.clippings.len(), clip_count, "{rel}");
        let (key, end) = &f.clippings[0];
        assert!(!key.is_empty() && !end.is_empty(), "{rel}: {key:?} ends at {end:?}");
    }
    let p = corpus_file("3.8/spineboy/spineboy-pro.skel").expect("corpus");
    let f = facts_of(&parse_file(&p));
    assert_eq!(f.clippings[0].0, "clipping");
}

#[test]
fn version_specific_fields() {
    let Some(p) = corpus_file("3.7/spineboy/spineboy-pro.skel") else { return };
    let SkeletonFile::V35(s) = parse_file(&p) else { panic!("3.7 is v35") };
    assert_eq!(s.generation, SpineVersion::V3_7);
    assert!(s.header.nonessential.is_some());
    // 3.8: the string table holds the attachment names the skins refer to.
    let p = corpus_file("3.8/mix-and-match/mix-and-match-pro.skel").expect("corpus");
    let SkeletonFile::V38(s) = parse_file(&p) else { panic!("3.8 is v38") };
    assert!(!s.strings.is_empty());
    let summary = s.summary();
    assert!(summary.skins.len() > 10, "{:?}", summary.skins);
    assert!(s.skins.iter().any(|k| !k.bones.is_empty() || !k.slots.is_empty()));
    for sk in &s.skins {
        assert!(s.str(sk.name).is_some(), "skin names resolve");
    }
}

// ---------------------------------------------------------------------------------------
// Crafted malformed files.

fn str_bytes(out: &mut Vec<u8>, s: &str) {
    out.push(s.len() as u8 + 1);
    out.extend_from_slice(s.as_bytes());
}

/// A 3.6 header without nonessential data, then one bone "root" with transform mode `mode`.
fn crafted_36(mode: u8) -> Vec<u8> {
    let mut b = Vec::new();
    str_bytes(&mut b, "hash");
    str_bytes(&mut b, "3.6.32");
    b.extend_from_slice(&[0; 8]); // width, height
    b.push(0); // nonessential
    b.push(1); // bones
    str_bytes(&mut b, "root");
    b.extend_from_slice(&[0; 32]);
    b.push(mode);
    b
}

#[test]
fn crafted_minimal_file_round_trips() {
    let mut b = crafted_36(0);
    b.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0, 0]); // slots ik tc path default skins events anims
    let s = v35::parse(&b).expect("minimal 3.6 file parses");
    assert_eq!(s.bones[0].name, "root");
    assert_eq!(v35::write(&s), b);
}

#[test]
fn bad_enum_is_typed_with_offset_and_path() {
    let b = crafted_36(9);
    let e = binary::parse(&b).unwrap_err();
    assert_eq!(e.kind, BinaryErrorKind::BadEnum { what: "transform mode", value: 9 });
    assert_eq!(e.offset, b.len() - 1);
    assert_eq!(e.section, "bones > bones[0] \"root\"");
}

#[test]
fn index_out_of_range_is_typed_with_offset_and_path() {
    let mut b = crafted_36(0);
    b.push(1); // slots
    str_bytes(&mut b, "body");
    let at = b.len();
    b.push(3); // bone index 3 of 1
    b.extend_from_slice(&[0xff; 8]);
    b.extend_from_slice(&[0, 0]);
    let e = binary::parse(&b).unwrap_err();
    assert_eq!(e.kind, BinaryErrorKind::IndexOutOfRange { what: "bone", index: 3, len: 1 });
    assert_eq!(e.offset, at);
    assert_eq!(e.section, "slots > slots[0] \"body\"");
}

#[test]
fn clipping_is_rejected_in_3_5() {
    // 3.5 header, one bone, one slot, a default skin with one attachment of type 6.
    let mut b = Vec::new();
    str_bytes(&mut b, "");
    str_bytes(&mut b, "3.5.51");
    b.extend_from_slice(&[0; 8]);
    b.push(0);
    b.push(1);
    str_bytes(&mut b, "root");
    b.extend_from_slice(&[0; 33]);
    b.push(1);
    str_bytes(&mut b, "s");
    b.push(0);
    b.extend_from_slice(&[0xff; 4]);
    b.extend_from_slice(&[0, 0]);
    b.extend_from_slice(&[0, 0, 0]); // ik, transform, path
    b.extend_from_slice(&[1, 0, 1]); // default skin: 1 slot, slot 0, 1 attachment
    str_bytes(&mut b, "clip");
    b.push(0); // name: null
    let at = b.len();
    b.push(6);
    let e = v35::parse(&b).unwrap_err();
    assert_eq!(e.kind, BinaryErrorKind::BadEnum { what: "attachment type", value: 6 });
    assert_eq!(e.offset, at);
    assert_eq!(e.section, "default skin > slots[0] > attachments[0]");
}

#[test]
fn truncated_and_padded_files_fail_with_typed_errors() {
    let Some(p) = corpus_file("3.8/spineboy/spineboy-ess.skel") else { return };
    let bytes = std::fs::read(p).expect("corpus");
    let cut = &bytes[..bytes.len() - 3];
    let e = v38::parse(cut).unwrap_err();
    assert!(matches!(e.kind, BinaryErrorKind::UnexpectedEof { .. }), "{e}");
    assert!(e.offset <= cut.len());
    assert!(e.section.starts_with("animations > animations["), "{}", e.section);
    let mut padded = bytes.clone();
    padded.push(0);
    let e = v38::parse(&padded).unwrap_err();
    assert_eq!(e.kind, BinaryErrorKind::TrailingBytes { count: 1 });
    assert_eq!(e.offset, bytes.len());
}

/// Every prefix of a small file fails without panicking; every single-byte corruption
/// either fails or round-trips exactly.
#[test]
fn prefixes_and_corruptions_never_panic_and_accepted_inputs_round_trip() {
    for rel in ["3.5/spinosaurus/spinosaurus.skel", "3.8/spinosaurus/spinosaurus-ess.skel"] {
        let Some(p) = corpus_file(rel) else { return };
        let bytes = std::fs::read(p).expect("corpus");
        for n in 0..bytes.len() {
            assert!(binary::parse(&bytes[..n]).is_err(), "{rel}: prefix {n} parsed");
        }
        let mut accepted = 0;
        for i in 0..bytes.len() {
            for x in [0x01u8, 0x80, 0xff] {
                let mut b = bytes.clone();
                b[i] ^= x;
                if let Ok(ast) = binary::parse(&b) {
                    accepted += 1;
                    assert_eq!(binary::write(&ast), b, "{rel}: byte {i} ^ {x:#x}");
                }
            }
        }
        assert!(accepted > 0, "{rel}: float corruptions are accepted");
    }
}

/// The writer serialises the AST (not a byte copy): an edited value survives a write and
/// re-parse, everything else stays equal.
#[test]
fn edited_asts_write_and_reparse() {
    let Some(p) = corpus_file("3.7/stretchyman/stretchyman-stretchy-ik-pro.skel") else { return };
    let SkeletonFile::V35(mut s) = parse_file(&p) else { panic!("3.7 is v35") };
    s.bones[1].x += 10.0;
    s.ik[0].stretch = !s.ik[0].stretch;
    let reparsed = v35::parse(&v35::write(&s)).expect("edited 3.7 file parses");
    assert_eq!(reparsed, s);

    let p = corpus_file("3.8/spineboy/spineboy-pro.skel").expect("corpus");
    let SkeletonFile::V38(mut s) = parse_file(&p) else { panic!("3.8 is v38") };
    s.strings.push("added".into());
    s.slots[0].attachment = StrRef(s.strings.len() as u32);
    s.animations.truncate(1);
    let reparsed = v38::parse(&v38::write(&s)).expect("edited 3.8 file parses");
    assert_eq!(reparsed.str(reparsed.slots[0].attachment), Some("added"));
    assert_eq!(reparsed, s);
}
