//! `spine_model::load`: one entry point for binary, JSON (BOM or not) and 4.3 JSON, with
//! the options' limits honoured and the format crate's errors kept typed.

use std::error::Error;
use std::path::PathBuf;

use spine_format::json::JsonErrorKind;
use spine_format::{BinaryErrorKind, Limits, SpineVersion};
use spine_model::convert::{self, Format};
use spine_model::{load, LoadError, LoadOptions};

fn fixture(rel: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures").join(rel);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The demo rig `skel` embeds (a 4.2 JSON skeleton).
fn demo_json() -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../skel-cli/demo/demo.json");
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn load_tells_binary_json_and_4_3_json_apart() {
    let options = LoadOptions::default();
    let skel = fixture("spine-4.3/constraints.skel");
    let binary = load(&skel, &options).expect("4.3 binary");
    assert_eq!(binary.behaviour.spine_version, SpineVersion::V4_3);

    let json43 = convert::convert(&skel, "4.3", Format::Json).expect("to 4.3 JSON").bytes;
    let from_json43 = load(&json43, &options).expect("4.3 JSON");
    assert_eq!(from_json43.behaviour.spine_version, SpineVersion::V4_3);
    assert_eq!(from_json43.bones.len(), binary.bones.len());

    let json = demo_json();
    let plain = load(&json, &options).expect("JSON");
    let with_bom = load(&[b"\xEF\xBB\xBF".as_slice(), &json].concat(), &options).expect("BOM");
    assert_eq!(plain.bones.len(), with_bom.bones.len());
    assert_eq!(plain.behaviour, with_bom.behaviour);
}

#[test]
fn load_errors_keep_the_format_errors_typed() {
    let options = LoadOptions::default();
    let e = load(br#"{"skeleton": {"spine": "3.8.75"}, "bones": []}"#, &options).unwrap_err();
    let LoadError::Json(json) = &e else { panic!("{e:?}") };
    assert_eq!(json.path, "skeleton.spine");
    assert!(e.source().is_some(), "the JSON error is the source");

    let e = load(b"{\"skeleton\": {}, \"bones\": \xff}", &options).unwrap_err();
    assert!(matches!(e, LoadError::NotUtf8 { offset: 26 }), "{e:?}");

    let tight = LoadOptions { limits: Limits { max_bones: 1, ..Limits::default() }, ..options };
    let e = load(&fixture("spine-4.3/constraints.skel"), &tight).unwrap_err();
    let LoadError::Parse(b) = &e else { panic!("{e:?}") };
    assert!(matches!(b.kind, BinaryErrorKind::LimitExceeded { limit: "max_bones", .. }), "{b}");
    let e = load(&demo_json(), &tight).unwrap_err();
    let LoadError::Json(j) = &e else { panic!("{e:?}") };
    assert!(matches!(j.kind, JsonErrorKind::LimitExceeded { .. }), "{j}");

    let e = load(b"\npage.png\nsize: 2,2\nfilter: Linear,Linear\n", &options).unwrap_err();
    assert!(matches!(&e, LoadError::Unsupported(m) if m.contains("atlas")), "{e:?}");
}
