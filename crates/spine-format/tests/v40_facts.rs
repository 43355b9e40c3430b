//! Facts read from the real 4.0, 4.1 and 4.2 exports by the v40 parser, checked against the
//! JSON twins and the spine-cpp goldens; and crafted malformed files that must fail with typed
//! errors carrying offsets and section paths.

use std::path::{Path, PathBuf};

use spine_format::binary::shared::CurveType;
use spine_format::binary::v40::animation::{
    AttachmentTimeline, PhysicsTimeline, SequenceMode, SlotTimeline,
};
use spine_format::binary::v40::ast::{AttachmentKind, Skeleton, Vertices};
use spine_format::binary::v40::{self, animation::BoneTimeline};
use spine_format::binary::StrRef;
use spine_format::BinaryErrorKind;
use spine_format::SpineVersion;

const VERSIONS: [&str; 3] = ["4.0", "4.1", "4.2"];

fn corpus() -> Option<PathBuf> {
    skel_testkit::spine_corpus()
}

fn load(corpus: &Path, version: &str, example: &str, file: &str) -> (Skeleton, serde_json::Value) {
    let dir = corpus.join(version).join(example);
    let bytes = std::fs::read(dir.join(format!("{file}.skel"))).expect("skel is readable");
    let skel = v40::parse(&bytes).unwrap_or_else(|e| panic!("{version}/{file}: {e}"));
    let json = std::fs::read_to_string(dir.join(format!("{file}.json"))).expect("json twin");
    (skel, serde_json::from_str(&json).expect("json twin parses"))
}

fn str_index(s: &Skeleton, text: &str) -> StrRef {
    let i = s.strings.iter().position(|x| x == text).expect("string in table");
    StrRef(i as u32 + 1)
}

/// The latest `time` anywhere under a JSON animation (keys without `time` are at 0).
fn json_max_time(v: &serde_json::Value) -> f64 {
    match v {
        serde_json::Value::Object(m) => {
            let own = m.get("time").and_then(|t| t.as_f64()).unwrap_or(0.0);
            m.values().map(json_max_time).fold(own, f64::max)
        }
        serde_json::Value::Array(a) => a.iter().map(json_max_time).fold(0.0, f64::max),
        _ => 0.0,
    }
}

#[test]
fn spineboy_pro_bones_animations_durations_and_hash() {
    let Some(corpus) = corpus() else { return };
    for v in VERSIONS {
        let (s, json) = load(&corpus, v, "spineboy", "spineboy-pro");
        let expected_gen = match v {
            "4.0" => SpineVersion::V4_0,
            "4.1" => SpineVersion::V4_1,
            _ => SpineVersion::V4_2,
        };
        assert_eq!(s.generation, expected_gen);
        assert!(s.header.version.starts_with(v));
        // Bones: names and order as in the JSON twin.
        let names: Vec<&str> = s.bones.iter().map(|b| b.name.as_str()).collect();
        let json_names: Vec<&str> =
            json["bones"].as_array().unwrap().iter().map(|b| b["name"].as_str().unwrap()).collect();
        assert_eq!(names, json_names, "{v}");
        assert_eq!(&names[..2], ["root", "hip"]);
        assert!(names.contains(&"head"));
        assert_eq!(s.bones[0].parent, None);
        let hip = names.iter().position(|n| *n == "hip").unwrap();
        assert_eq!(s.bones[hip].parent, Some(0));
        assert_eq!(s.slots.len(), json["slots"].as_array().unwrap().len());
        // Hash: the JSON twin shows the same 8 bytes in base64.
        assert_eq!(s.header.hash_base64(), json["skeleton"]["hash"].as_str().unwrap(), "{v}");
        // Animations: names in file order and durations (JSON rounds times to 4 decimals).
        let summary = s.summary();
        let anims = json["animations"].as_object().unwrap();
        assert_eq!(summary.animations.len(), 11);
        for a in &summary.animations {
            let expected = json_max_time(&anims[&a.name]);
            assert!(
                (f64::from(a.duration) - expected).abs() < 1e-3,
                "{v} {}: {} vs {expected}",
                a.name,
                a.duration
            );
        }
        let run = summary.animations.iter().find(|a| a.name == "run").unwrap();
        assert!((run.duration - 0.6667).abs() < 1e-3);
        assert_eq!(summary.skins, ["default"]);
        assert_eq!(summary.constraints.physics, 0);
        assert_eq!(
            summary.constraints.ik,
            json["ik"].as_array().unwrap().len(),
            "{v}: ik constraint count"
        );
        assert_eq!(summary.hash, s.header.hash_string());
    }
}

#[test]
fn durations_and_names_match_the_spine_cpp_goldens_exactly() {
    let (Some(corpus), Some(oracle)) = (corpus(), skel_testkit::oracle_dir()) else { return };
    let mut checked = 0;
    for v in VERSIONS {
        for golden in
            skel_testkit::files_with_suffix(&oracle.join(format!("spine-{v}")), ".skel.json")
        {
            let example =
                golden.parent().unwrap().file_name().unwrap().to_str().unwrap().to_owned();
            let file = golden.file_name().unwrap().to_str().unwrap().trim_end_matches(".json");
            let bytes = std::fs::read(corpus.join(v).join(&example).join(file)).unwrap();
            let s = v40::parse(&bytes).unwrap();
            let g: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&golden).unwrap()).unwrap();
            assert_eq!(s.header.version, g["skeletonVersion"].as_str().unwrap());
            let bones: Vec<&str> =
                g["bones"].as_array().unwrap().iter().map(|b| b.as_str().unwrap()).collect();
            assert_eq!(s.bones.iter().map(|b| b.name.as_str()).collect::<Vec<_>>(), bones);
            let slots: Vec<&str> =
                g["slots"].as_array().unwrap().iter().map(|b| b.as_str().unwrap()).collect();
            assert_eq!(s.slots.iter().map(|b| b.name.as_str()).collect::<Vec<_>>(), slots);
            let pose = g["pose"].as_object().unwrap();
            assert_eq!(pose.len(), s.animations.len(), "{v}/{file}");
            for a in &s.animations {
                let d = pose[a.name.as_str()]["duration"].as_f64().unwrap() as f32;
                assert_eq!(a.duration().to_bits(), d.to_bits(), "{v}/{file} {}", a.name);
            }
            checked += 1;
        }
    }
    assert!(checked >= 60, "only {checked} goldens");
}

#[test]
fn raptor_body_mesh_counts() {
    let Some(corpus) = corpus() else { return };
    for v in VERSIONS {
        let (s, _) = load(&corpus, v, "raptor", "raptor-pro");
        let slot = s.slots.iter().position(|x| x.name == "raptor-body").unwrap() as u32;
        let key = str_index(&s, "raptor-body");
        let skin = s.default_skin.as_ref().expect("default skin");
        let entry = skin
            .slot(slot)
            .and_then(|e| e.iter().find(|a| a.key == key))
            .expect("raptor-body attachment");
        let AttachmentKind::Mesh(m) = &entry.attachment.kind else { panic!("{v}: not a mesh") };
        assert_eq!(m.vertices.count(), 157, "{v}");
        assert!(matches!(m.vertices, Vertices::Weighted(_)));
        assert_eq!(m.uvs.len(), 2 * 157);
        assert_eq!(m.triangles.len(), 225 * 3, "{v}");
        assert_eq!(m.hull, 87);
        assert!(m.triangles.iter().all(|&t| t < 157));
        assert_eq!(m.sequence, None);
    }
}

#[test]
fn raptor_jump_draw_order_has_a_negative_shift() {
    let Some(corpus) = corpus() else { return };
    for v in VERSIONS {
        let (s, _) = load(&corpus, v, "raptor", "raptor-pro");
        let thigh = s.slots.iter().position(|x| x.name == "front-thigh").unwrap() as u32;
        let jump = s.animations.iter().find(|a| a.name == "jump").unwrap();
        let key = &jump.draw_order[0];
        assert_eq!(key.time, 0.0);
        let change = key.changes.iter().find(|c| c.slot == thigh).expect("front-thigh moves");
        assert_eq!(change.shift, -5, "{v}");
    }
}

#[test]
fn celestial_circus_has_physics_constraints_and_timelines() {
    let Some(corpus) = corpus() else { return };
    let (s, json) = load(&corpus, "4.2", "celestial-circus", "celestial-circus-pro");
    let jp = json["physics"].as_array().unwrap();
    assert_eq!(s.physics_constraints.len(), jp.len());
    assert_eq!(s.physics_constraints.len(), 30);
    assert_eq!(s.summary().constraints.physics, 30);
    for (p, j) in s.physics_constraints.iter().zip(jp) {
        assert_eq!(p.name, j["name"].as_str().unwrap());
        assert_eq!(s.bones[p.bone as usize].name, j["bone"].as_str().unwrap());
        match j.get("limit") {
            Some(l) => assert_eq!(p.limit, Some(l.as_f64().unwrap() as f32)),
            None => assert_eq!(p.limit, None),
        }
        let inertia = j.get("inertia").and_then(|x| x.as_f64()).unwrap_or(1.0);
        assert!((f64::from(p.inertia) - inertia).abs() < 1e-3, "{}", p.name);
    }
    let wind = s.animations.iter().find(|a| a.name == "wind-idle").unwrap();
    assert!(!wind.physics.is_empty());
    let n: usize = wind.physics.iter().map(|p| p.timelines.len()).sum();
    let jn: usize = json["animations"]["wind-idle"]["physics"]
        .as_object()
        .unwrap()
        .values()
        .map(|t| t.as_object().unwrap().len())
        .sum();
    assert_eq!(n, jn);
    assert!(wind.physics.iter().all(|p| p
        .timelines
        .iter()
        .all(|t| matches!(t, PhysicsTimeline::Value(..) | PhysicsTimeline::Reset(_)))));
    // Older versions have no physics at all.
    for v in ["4.0", "4.1"] {
        let (s, _) = load(&corpus, v, "spineboy", "spineboy-pro");
        assert!(s.physics_constraints.is_empty());
        assert!(s.animations.iter().all(|a| a.physics.is_empty()));
    }
}

#[test]
fn dragon_wings_are_sequences_from_4_1_on() {
    let Some(corpus) = corpus() else { return };
    for v in VERSIONS {
        let (s, _) = load(&corpus, v, "dragon", "dragon-ess");
        let slot = s.slots.iter().position(|x| x.name == "left-wing").unwrap() as u32;
        if v == "4.0" {
            // 4.0 had no sequences: nine regions switched by an attachment timeline.
            let entry = s.default_skin.as_ref().unwrap().slot(slot).unwrap();
            assert_eq!(entry.len(), 9);
            assert!(entry.iter().all(|a| matches!(
                &a.attachment.kind,
                AttachmentKind::Region(r) if r.sequence.is_none()
            )));
            let flying = s.animations.iter().find(|a| a.name == "flying").unwrap();
            let (_, st) = flying.slot_groups().find(|(s, _)| *s == slot).unwrap();
            assert!(matches!(&st[0], SlotTimeline::Attachment(k) if k.len() >= 9));
            assert!(flying.attachments.is_empty());
            continue;
        }
        let key = str_index(&s, "left-wing");
        let entry = s
            .default_skin
            .as_ref()
            .unwrap()
            .slot(slot)
            .and_then(|e| e.iter().find(|a| a.key == key))
            .unwrap();
        let AttachmentKind::Region(r) = &entry.attachment.kind else { panic!("not a region") };
        let flying = s.animations.iter().find(|a| a.name == "flying").unwrap();
        let seq_keys: Vec<_> = flying
            .attachments
            .iter()
            .flat_map(|sk| &sk.slots)
            .filter(|sl| sl.slot == slot)
            .flat_map(|sl| &sl.attachments)
            .filter_map(|a| match &a.timeline {
                AttachmentTimeline::Sequence(k) => Some(k),
                AttachmentTimeline::Deform(_) => None,
            })
            .collect();
        let seq = r.sequence.expect("left-wing has a sequence");
        assert_eq!((seq.count, seq.digits), (9, 2), "{v}");
        let keys = seq_keys[0];
        assert_eq!(keys.len(), 5);
        assert_eq!(keys[0].mode(), Some(SequenceMode::Loop));
        assert_eq!(keys[0].index(), 0);
        assert!((keys[0].delay - 0.0667).abs() < 1e-3);
        assert_eq!(keys[1].mode(), Some(SequenceMode::Hold));
        assert!((keys[1].time - 0.6).abs() < 1e-3);
        assert_eq!(keys[3].index(), 2);
        assert_eq!((keys[4].mode(), keys[4].index()), (Some(SequenceMode::Hold), 7));
    }
}

#[test]
fn curves_and_ik_keys_decode() {
    let Some(corpus) = corpus() else { return };
    for v in VERSIONS {
        let (s, _) = load(&corpus, v, "spineboy", "spineboy-pro");
        let run = s.animations.iter().find(|a| a.name == "run").unwrap();
        // Every bezier transition of a rotate timeline carries exactly one control-point set.
        for (_, timelines) in run.bone_groups() {
            for t in timelines {
                if let BoneTimeline::Rotate(t) = t {
                    let beziers = t.curves().filter(|c| *c == CurveType::Bezier).count();
                    assert_eq!(t.bezier_count as usize, beziers);
                    for k in &t.frames {
                        let mut controls = k.bezier.iter().flatten();
                        assert!(k.curve == CurveType::Bezier || controls.all(|&x| x == 0.0));
                    }
                    assert_eq!(t.curves().len() + 1, t.frames.len());
                    assert_eq!(t.frames.last().map(|k| k.curve), Some(CurveType::Linear));
                }
            }
        }
        let aim = s.ik_constraints.iter().find(|c| c.name == "aim-ik").unwrap();
        // The binary stores -1 for one-bone IK in every version (spine-cpp oracle note).
        assert_eq!(aim.bend_direction, -1, "{v}");
        assert_eq!(aim.flags.is_some(), v == "4.2");
    }
}

// ---- crafted malformed files ----

/// A byte builder for hand-made files.
#[derive(Default)]
struct B(Vec<u8>);

impl B {
    fn u8(mut self, v: u8) -> Self {
        self.0.push(v);
        self
    }
    fn var(mut self, mut v: u32) -> Self {
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.0.push(b);
                return self;
            }
            self.0.push(b | 0x80);
        }
    }
    fn f32(mut self, v: f32) -> Self {
        self.0.extend_from_slice(&v.to_be_bytes());
        self
    }
    fn str(self, s: &str) -> Self {
        let mut b = self.var(s.len() as u32 + 1);
        b.0.extend_from_slice(s.as_bytes());
        b
    }
    /// Header of a non-nonessential file of `version`, with an empty string table.
    fn header(version: &str) -> Self {
        let b = B(vec![0, 0, 0, 1, 0, 0, 0, 2]).str(version).f32(0.0).f32(0.0).f32(10.0).f32(10.0);
        let b =
            if SpineVersion::parse(version) == Some(SpineVersion::V4_2) { b.f32(100.0) } else { b };
        b.u8(0).var(0)
    }
    /// A bone record after its name: transform floats, then inherit and skin-required.
    fn bone_body(self, version: &str, inherit: u8) -> Self {
        let mut b = self;
        for v in [0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0] {
            b = b.f32(v);
        }
        let b = if SpineVersion::parse(version) == Some(SpineVersion::V4_2) {
            b.u8(inherit)
        } else {
            b.var(inherit.into())
        };
        b.u8(0)
    }
}

/// A complete minimal file: one bone `root`, no slots, no constraints, no skins, no events,
/// then the given animation bytes (count included).
fn minimal(version: &str, animations: B) -> Vec<u8> {
    let b = B::header(version).var(1).str("root").bone_body(version, 0);
    let b = b.var(0).var(0).var(0).var(0); // slots, ik, transform, path
    let b = if SpineVersion::parse(version) == Some(SpineVersion::V4_2) { b.var(0) } else { b }; // physics
    let mut b = b.var(0).var(0).var(0); // default skin, skins, events
    b.0.extend_from_slice(&animations.0);
    b.0
}

#[test]
fn crafted_minimal_files_round_trip() {
    for v in ["4.0.31", "4.1.17", "4.2.22"] {
        let bytes = minimal(v, B::default().var(0));
        let s = v40::parse(&bytes).unwrap_or_else(|e| panic!("{v}: {e}"));
        assert_eq!(s.bones.len(), 1);
        assert_eq!(s.header.hash, [1, 2]);
        assert_eq!(s.header.hash_string(), "21");
        assert_eq!(v40::write(&s), bytes);
        // Through the version-detecting entry point too.
        let any = spine_format::binary::parse(&bytes).unwrap();
        assert_eq!(spine_format::binary::write(&any), bytes);
    }
}

#[test]
fn truncated_file_is_an_eof_error_with_offset_and_section() {
    let Some(corpus) = corpus() else { return };
    let bytes = std::fs::read(corpus.join("4.2/spineboy/spineboy-pro.skel")).unwrap();
    let cut = bytes.len() - 100;
    let e = v40::parse(&bytes[..cut]).unwrap_err();
    assert!(matches!(e.kind, BinaryErrorKind::UnexpectedEof { .. }), "{e}");
    assert!(e.offset <= cut && e.offset > cut - 64, "{e}");
    assert!(e.section.starts_with("animations > animations[10] \"walk\""), "{}", e.section);
    // Cut inside the string table.
    let e = v40::parse(&bytes[..200]).unwrap_err();
    assert!(e.section.starts_with("strings > strings["), "{}", e.section);
    assert!(matches!(e.kind, BinaryErrorKind::UnexpectedEof { .. }), "{e}");
    // A trailing byte is refused too.
    let mut long = bytes.clone();
    long.push(0);
    let e = v40::parse(&long).unwrap_err();
    assert_eq!(e.kind, BinaryErrorKind::TrailingBytes { count: 1 });
    assert_eq!(e.offset, bytes.len());
}

#[test]
fn bad_enums_are_typed_errors() {
    // Inherit 7 on the first bone (a byte in 4.2).
    let b = B::header("4.2.22").var(1).str("root");
    let at = b.0.len() + 32;
    let bytes = b.bone_body("4.2.22", 7).0;
    let e = v40::parse(&bytes).unwrap_err();
    assert_eq!(e.kind, BinaryErrorKind::BadEnum { what: "inherit", value: 7 });
    assert_eq!(e.offset, at);
    assert_eq!(e.section, "bones > bones[0] \"root\"");

    // Bone timeline type 10 (inherit) does not exist before 4.2.
    let anim = B::default().var(1).str("jump").var(1).var(0).var(1).var(0).var(1);
    let at_type = anim.0.len();
    let anim = anim.u8(10).var(1).f32(0.0).u8(0);
    let anim_len = anim.0.len();
    let bytes = minimal("4.1.17", anim);
    let e = v40::parse(&bytes).unwrap_err();
    assert_eq!(e.kind, BinaryErrorKind::BadEnum { what: "bone timeline type", value: 10 });
    assert_eq!(e.offset, bytes.len() - anim_len + at_type);
    assert_eq!(
        e.section,
        "animations > animations[0] \"jump\" > bone timelines > bones[0] > timelines[0]"
    );

    // Curve type 3 inside a rotate timeline.
    let anim = B::default().var(1).str("a").var(1).var(0).var(1).var(0).var(1);
    let anim = anim.u8(0).var(2).var(0).f32(0.0).f32(1.0).f32(1.0).f32(2.0).u8(3);
    let bytes = minimal("4.0.31", anim);
    let e = v40::parse(&bytes).unwrap_err();
    assert_eq!(e.kind, BinaryErrorKind::BadEnum { what: "curve type", value: 3 });
    assert_eq!(e.offset, bytes.len() - 1);
    assert!(e.section.ends_with("timelines[0] > frames[1]"), "{}", e.section);
}

#[test]
fn indices_out_of_range_are_typed_errors() {
    // Second bone's parent is 5, with one bone read so far.
    let b = B::header("4.0.31").var(2).str("root").bone_body("4.0.31", 0).str("child");
    let at = b.0.len();
    let bytes = b.var(5).bone_body("4.0.31", 0).0;
    let e = v40::parse(&bytes).unwrap_err();
    assert_eq!(e.kind, BinaryErrorKind::IndexOutOfRange { what: "parent bone", index: 5, len: 1 });
    assert_eq!(e.offset, at);
    assert_eq!(e.section, "bones > bones[1] \"child\"");

    // A draw-order key naming slot 0 when there are no slots.
    let anim = B::default().var(1).str("a").var(1);
    let anim = anim.var(0).var(0).var(0).var(0).var(0).var(0); // slot..attachment sections (4.1)
    let anim = anim.var(1).f32(0.0).var(1);
    let at_rel = anim.0.len();
    let anim = anim.var(0).var(0).var(0);
    let anim_len = anim.0.len();
    let bytes = minimal("4.1.17", anim);
    let e = v40::parse(&bytes).unwrap_err();
    assert_eq!(e.kind, BinaryErrorKind::IndexOutOfRange { what: "slot", index: 0, len: 0 });
    assert_eq!(e.offset, bytes.len() - anim_len + at_rel);
    assert_eq!(e.section, "animations > animations[0] \"a\" > draw order > keys[0]");

    // A count that cannot fit in the rest of the input.
    let bytes = B::header("4.2.22").var(50_000).0;
    let e = v40::parse(&bytes).unwrap_err();
    assert!(matches!(e.kind, BinaryErrorKind::CountTooLarge { count: 50_000, .. }), "{e}");
    assert_eq!(e.section, "bones");
}
