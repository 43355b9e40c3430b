//! Loads every SkelForm sample under `../shared/fixtures/skelform/` (legacy included) and
//! checks each one loads, or fails with the expected clean error.

use skelform::{load, load_skf, Limits, SkfError};

/// (file-name fragment, expected outcome): `Ok((bones, animations, upgraded))` or the
/// version an `UnsupportedVersion` error must name.
fn expected(name: &str) -> Result<(usize, usize, bool), &'static str> {
    match name {
        "skellina_v0.7.0.skf" => Ok((32, 3, false)),
        "skellington_v0.7.0.skf" => Ok((61, 4, false)),
        "skellina_v0.6.0.skf" => Ok((46, 3, false)),
        "skellington_v0.6.0.skf" => Ok((64, 4, false)),
        "skellina_v0.5.0.skf" => Ok((46, 3, true)),
        "skellington_v0.5.0.skf" => Ok((64, 4, true)),
        "skellina_v0.4.0.skf" => Ok((41, 3, true)),
        "skellington_v0.4.0.skf" | "skellington_v0.4.0_ebiten.skf" => Ok((56, 4, true)),
        "untitled_v0.4.0.skf" => Ok((8, 0, true)),
        "skellina_v0.2.0_ebiten.skf" | "skellina_v0.2.0_gd.skf" => Ok((41, 3, true)),
        "skellington_v0.2.0_gd.skf" | "skellington_baked_v0.2.0_gd.skf" => Ok((56, 4, true)),
        "test_v0.2.0_gd.skf" => Ok((24, 4, true)),
        "baseftanimated_v0.2.0_gd.skf" => Ok((22, 1, true)),
        "picklesvibe_v0.2.0_gd.skf" => Ok((8, 1, true)),
        "untitled_v0.2.0_texture_size.skf" | "untitled_v0.2.0_wrapped.skf" => Err("0.2.0"),
        "skellington2_v0.2_wrapped.skf" => Err("0.2"),
        "skellington_unversioned_wrapped.skf" => Err("(none)"),
        other => panic!("unexpected fixture {other}: add it to this table"),
    }
}

#[test]
fn every_sample_loads_or_fails_cleanly() {
    let Some(dir) = skel_testkit::fixtures_dir() else { return };
    let files = skel_testkit::files_with_suffix(&dir.join("skelform"), ".skf");
    assert!(files.len() >= 21, "expected the 21 SkelForm samples, found {}", files.len());
    let (mut loaded, mut rejected) = (0, 0);
    for f in &files {
        let name = f.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        let bytes = std::fs::read(f).expect("read fixture");
        let got = load(&bytes);
        match (expected(name), got) {
            (Ok((nb, na, upgraded)), Ok(mut arm)) => {
                assert_eq!(arm.bones().len(), nb, "{name}: bones");
                assert_eq!(arm.animations().len(), na, "{name}: animations");
                assert_eq!(arm.upgraded_from().is_some(), upgraded, "{name}: upgraded");
                // Every animation runs on it without panicking, values stay finite.
                for a in 0..arm.animations().len() {
                    let last = arm.animations()[a].last_frame();
                    for fr in [0, last / 2, last] {
                        arm.animate(&[skelform::AnimLayer { anim: a, frame: fr, smooth: 0 }]);
                        arm.construct();
                    }
                }
                arm.construct();
                for (b, w) in arm.world().iter().enumerate() {
                    let v = [w.pos.x, w.pos.y, w.rot, w.scale.x, w.scale.y];
                    assert!(v.iter().all(|x| x.is_finite()), "{name}: bone {b} world {v:?}");
                }
                println!(
                    "{name}: loaded ({nb} bones, {na} animations, from {:?})",
                    arm.upgraded_from()
                );
                loaded += 1;
            }
            (Err(v), Err(SkfError::UnsupportedVersion { version, reason })) => {
                assert_eq!(version, v, "{name}: version named in the error");
                println!("{name}: rejected: {version}: {reason}");
                rejected += 1;
            }
            (want, got) => panic!("{name}: expected {want:?}, got {got:?}"),
        }
    }
    println!("{loaded} loaded, {rejected} rejected cleanly");
    assert_eq!(loaded + rejected, files.len());
    assert_eq!(rejected, 4);
}

#[test]
fn skf_archive_reads_atlases() {
    let Some(dir) = skel_testkit::fixtures_dir() else { return };
    let bytes = std::fs::read(dir.join("skelform/skellina_v0.7.0.skf")).expect("read");
    let skf = load_skf(&bytes, &Limits::default()).expect("load");
    assert_eq!(skf.atlas_images.len(), 1);
    assert!(skf.atlas_images[0].starts_with(b"\x89PNG"));
    assert_eq!(skf.armature.atlases()[0].filename, "atlas0.png");
    assert_eq!(skf.armature.version(), "0.7.0");
    // A limit below the atlas size is enforced while reading.
    let tight = Limits { max_entry_size: 100_000, ..Limits::default() };
    assert!(matches!(load_skf(&bytes, &tight), Err(SkfError::EntryTooLarge { .. })));
}

#[test]
fn bare_json_and_hostile_inputs() {
    let Some(dir) = skel_testkit::fixtures_dir() else { return };
    let bytes = std::fs::read(dir.join("skelform/skellington_v0.7.0.skf")).expect("read");
    let arm = load(&bytes).expect("load");
    assert_eq!(arm.animations()[1].name, "Run ");
    // A zip without armature.json.
    assert!(matches!(
        load(b"PK\x05\x06\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0"),
        Err(SkfError::MissingArmature)
    ));
    assert!(matches!(load(b"not json"), Err(SkfError::NotSkelForm)));
    // Truncations of the archive never panic.
    for cut in (0..bytes.len()).step_by(bytes.len() / 97 + 1) {
        let _ = load(&bytes[..cut]);
    }
    // Truncated or corrupted armature.json text never panics (fast path and serde path).
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(&bytes[..])).expect("zip");
    let mut json = Vec::new();
    std::io::Read::read_to_end(&mut zip.by_name("armature.json").expect("entry"), &mut json)
        .expect("read");
    let mut rejected = 0;
    for cut in (0..json.len()).step_by(json.len() / 151 + 1) {
        rejected += usize::from(skelform::parse_armature_json(&json[..cut]).is_err());
        let mut bad = json.clone();
        if let Some(b) = bad.get_mut(cut) {
            *b = b"\"-0}]9e"[cut % 6];
        }
        let _ = skelform::parse_armature_json(&bad);
    }
    assert!(rejected > 140, "truncated documents must be rejected ({rejected})");
    // Bad ids name the JSON path.
    let e = load(br#"{"version":"0.7.0","bones":[{"id":0,"parent_id":3}]}"#).unwrap_err();
    assert!(e.to_string().contains("bones[0].parent_id"), "{e}");
    let e = load(br#"{"version":"0.7.0","bones":[{"name":7}]}"#).unwrap_err();
    assert!(e.to_string().contains("bones[0].name"), "{e}");
    let e = load(br#"{"version":"0.7.0","bones":[{}],"animations":[{"keyframes":[{"bone_id":0,"next_kf":5}]}]}"#)
        .unwrap_err();
    assert!(e.to_string().contains("animations[0].keyframes[0].next_kf"), "{e}");
    // Defaults: scale (1,1), init_* = base, "Snap" preset loads, "Texture" and "Tex" keys.
    let arm = load(
        br#"{"bones":[{"pos":{"x":2,"y":3}}],"visuals":[{"tex":"a"}],
        "animations":[{"fps":60,"keyframes":[
          {"bone_id":0,"element":"Tex","value_str":"b","handle_preset":"Snap"}]}]}"#,
    )
    .expect("minimal");
    let b = &arm.bones()[0];
    assert_eq!((b.scale.x, b.scale.y, b.init_pos.x, b.init_pos.y), (1.0, 1.0, 2.0, 3.0));
    assert_eq!(b.parent, None);
    assert_eq!(arm.visuals()[0].pivot_scale, skelform::Vec2::ONE);
    assert_eq!(arm.animations()[0].keyframes[0].element, skelform::Element::Texture);
}
