//! Archive safety: path traversal in atlas names, inflation limits (declared and ratio),
//! missing `armature.json`, and the reference's easing quirk. Archives are built in memory.

use std::io::Write;

use skelform::{interpolate, load, load_skf, Limits, SkfError, Vec2};
use zip::write::SimpleFileOptions;
use zip::CompressionMethod;

fn zip_of(entries: &[(&str, &[u8], CompressionMethod)]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, data, method) in entries {
        w.start_file(*name, SimpleFileOptions::default().compression_method(*method))
            .expect("start");
        w.write_all(data).expect("write");
    }
    w.finish().expect("finish").into_inner()
}

const STORED: CompressionMethod = CompressionMethod::Stored;

#[test]
fn atlas_names_cannot_escape_the_archive() {
    for bad in ["../atlas0.png", "/etc/passwd", "a/b.png", "..", "c:\\x.png", ""] {
        let json = format!(r#"{{"version":"0.7.0","atlases":[{{"filename":{bad:?}}}]}}"#);
        let skf = zip_of(&[("armature.json", json.as_bytes(), STORED)]);
        match load_skf(&skf, &Limits::default()) {
            Err(SkfError::UnsafePath { path, name }) => {
                assert_eq!(path, "atlases[0].filename");
                assert_eq!(name, bad);
            }
            other => panic!("{bad:?}: expected UnsafePath, got {other:?}"),
        }
    }
    // A plain name that is simply absent is reported as such.
    let json = br#"{"version":"0.7.0","atlases":[{"filename":"atlas0.png"}]}"#;
    let skf = zip_of(&[("armature.json", json, STORED)]);
    assert!(matches!(load_skf(&skf, &Limits::default()), Err(SkfError::MissingAtlas { .. })));
    // And one that is present loads.
    let skf = zip_of(&[("armature.json", json, STORED), ("atlas0.png", b"\x89PNG", STORED)]);
    let got = load_skf(&skf, &Limits::default()).expect("loads");
    assert_eq!(got.atlas_images, vec![b"\x89PNG".to_vec()]);
}

#[test]
fn inflation_is_bounded() {
    // 4 MiB of spaces after the JSON deflates far beyond 200:1.
    let mut json = br#"{"version":"0.7.0"}"#.to_vec();
    json.resize(4 << 20, b' ');
    let skf = zip_of(&[("armature.json", &json, CompressionMethod::Deflated)]);
    match load(&skf) {
        Err(SkfError::CompressionRatio { entry, limit }) => {
            assert_eq!((entry.as_str(), limit), ("armature.json", 200));
        }
        other => panic!("expected CompressionRatio, got {other:?}"),
    }
    // With a permissive ratio but a small size limit, the size limit trips.
    let limits = Limits { max_entry_size: 1 << 20, max_ratio: u64::MAX };
    assert!(matches!(load_skf(&skf, &limits), Err(SkfError::EntryTooLarge { .. })));
    // With both permissive it loads.
    let limits = Limits { max_entry_size: 8 << 20, max_ratio: u64::MAX };
    assert_eq!(load_skf(&skf, &limits).expect("loads").armature.version(), "0.7.0");
}

#[test]
fn archive_without_armature_json() {
    let skf = zip_of(&[("atlas0.png", b"x", STORED), ("editor.json", b"{}", STORED)]);
    assert!(matches!(load(&skf), Err(SkfError::MissingArmature)));
    assert!(matches!(load_skf(&skf, &Limits::default()), Err(SkfError::MissingArmature)));
    let e = load(&skf).unwrap_err().to_string();
    assert!(e.contains("armature.json"), "{e}");
}

#[test]
fn easing_reproduces_the_reference_newton_quirk() {
    let z = Vec2::ZERO;
    // Zero handles are linear on paper, but 5 Newton steps on x = t^3 from t = x0 stop short
    // (SEMANTICS §3.2): 1/12 -> 0.0835, 1/60 -> 0.0201.
    let a = interpolate(1, 12, 0.0, 1.0, z, z);
    assert!((a - 0.0835).abs() < 1e-4, "{a}");
    let b = interpolate(1, 60, 0.0, 1.0, z, z);
    assert!((b - 0.0201).abs() < 1e-4, "{b}");
    // Linear handles are linear; Snap holds the start; the end and max = 0 give the end.
    let (l1, l2) = (Vec2::new(1.0 / 3.0, 1.0 / 3.0), Vec2::new(2.0 / 3.0, 2.0 / 3.0));
    assert!((interpolate(3, 12, 0.0, 12.0, l1, l2) - 3.0).abs() < 1e-4);
    let snap = Vec2::new(999.0, 999.0);
    assert_eq!(interpolate(6, 12, 5.0, 9.0, snap, snap), 5.0);
    assert_eq!(interpolate(12, 12, 5.0, 9.0, z, z), 9.0);
    assert_eq!(interpolate(0, 0, 5.0, 9.0, z, z), 9.0);
}

#[test]
fn frame_from_time_and_format_frame() {
    assert_eq!(skelform::frame_at(0.5, 60), 30);
    assert_eq!(skelform::frame_at(0.999, 60), 59);
    assert_eq!(skelform::frame_at(-1.0, 60), 0);
    assert_eq!(skelform::frame_at(f32::NAN, 60), 0);
    // Looping period is last + 1 frames; reverse counts down from last.
    assert_eq!(skelform::format_frame(50, 49, false, true), 0);
    assert_eq!(skelform::format_frame(51, 49, true, true), 48);
    assert_eq!(skelform::format_frame(70, 49, false, false), 70);
    assert_eq!(skelform::format_frame(70, 49, true, false), 0);
}
