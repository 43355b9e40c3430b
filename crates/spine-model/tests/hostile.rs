//! Hostile data the parsers accept but the model must not: each case is crafted here as a
//! small Spine 4.2 JSON document and must come back as the exact list of reported problems
//! (or, for sequences, load without building anything per frame up front).

use spine_model::{load_json, AttachmentKind, BoneId, LoadError, SkeletonData, Vertices};

/// A 4.2 document: bones `root`, slot `s` on root, the given default-skin attachments of
/// slot `s`, physics constraints and atlas-free.
fn doc(attachments: &str, physics: &str) -> String {
    format!(
        r#"{{"skeleton": {{"spine": "4.2.00"}},
            "bones": [{{"name": "root"}}],
            "slots": [{{"name": "s", "bone": "root"}}],
            "skins": [{{"name": "default", "attachments": {{"s": {{{attachments}}}}}}}],
            "physics": [{physics}]}}"#
    )
}

fn problems(text: &str) -> Vec<String> {
    match load_json(text, None) {
        Ok(_) => Vec::new(),
        Err(LoadError::Invalid(p)) => p.iter().map(|p| p.to_string()).collect(),
        Err(e) => vec![format!("error: {e}")],
    }
}

fn load(text: &str) -> SkeletonData {
    load_json(text, None).unwrap_or_else(|e| panic!("{e}"))
}

const MESH: &str = r#""type": "mesh", "uvs": [0,0, 1,0, 0,1], "triangles": [0,1,2],
    "vertices": [0,0, 10,0, 0,10], "hull": 3"#;

#[test]
fn a_long_sequence_builds_no_path_per_frame() {
    let text = doc(
        r#""img": {"width": 10, "height": 10,
            "sequence": {"count": 100000, "start": 7, "digits": 3}}"#,
        "",
    );
    let d = load(&text);
    let att = d.attachments.iter().find(|a| &*a.name == "img").unwrap();
    let spine_model::AttachmentKind::Region(r) = &att.kind else { panic!("region") };
    assert_eq!(r.sequence.len(), 100_000);
    assert_eq!(r.sequence.frame_path(0).as_deref(), Some("img007"));
    assert_eq!(r.sequence.frame_path(99_999).as_deref(), Some("img100006"));
    assert_eq!(r.sequence.frame_path(100_000), None);
    // The frames' regions are one slot each; no path is stored.
    assert!(r.sequence.regions.iter().all(Option::is_none));
}

#[test]
fn absurd_physics_fps_is_reported() {
    let physics = |fps: i64| format!(r#"{{"name": "p", "bone": "root", "x": 1, "fps": {fps}}}"#);
    for fps in [0, -5, 256, 2_147_483_647] {
        assert_eq!(
            problems(&doc("", &physics(fps))),
            [format!("physics constraint \"p\" > physics fps {fps} is outside 1..=255")],
        );
    }
    let d = load(&doc("", &physics(255)));
    let spine_model::ConstraintKind::Physics(p) = &d.constraints[0].kind else { panic!() };
    assert_eq!(p.step, 1.0 / 255.0);
}

#[test]
fn linked_mesh_sources_must_have_geometry() {
    let link = |name: &str, parent: &str| {
        format!(
            r#""{name}": {{"type": "linkedmesh", "parent": "{parent}", "width": 1, "height": 1}}"#
        )
    };
    // Itself.
    assert_eq!(
        problems(&doc(&link("a", "a"), "")),
        [
            r#"skin "default" > slot "s" > attachment "a" > linked mesh source "a" is the linked mesh itself"#
        ]
    );
    // A cycle: both unresolved.
    let cycle = format!("{}, {}", link("a", "b"), link("b", "a"));
    assert_eq!(problems(&doc(&cycle, "")).len(), 2, "{:?}", problems(&doc(&cycle, "")));
    // A chain to a mesh, in file order, resolves as the runtimes resolve it.
    let chain = format!(r#""m": {{{MESH}}}, {}, {}"#, link("a", "m"), link("b", "a"));
    let d = load(&doc(&chain, ""));
    let b = d.attachments.iter().find(|a| &*a.name == "b").unwrap();
    let spine_model::AttachmentKind::Mesh(m) = &b.kind else { panic!() };
    assert_eq!(m.triangles(), [0, 1, 2]);
    // The same chain with the later link first: its source is not resolved yet.
    let forward = format!(r#""m": {{{MESH}}}, {}, {}"#, link("b", "a"), link("a", "m"));
    assert_eq!(
        problems(&doc(&forward, "")),
        [
            r#"skin "default" > slot "s" > attachment "b" > linked mesh source "a" is a linked mesh not resolved before it (a cycle or a later link)"#
        ]
    );
}

#[test]
fn triangles_come_in_threes() {
    let mesh = r#""m": {"type": "mesh", "uvs": [0,0, 1,0, 0,1], "triangles": [0,1,2,0],
        "vertices": [0,0, 10,0, 0,10], "hull": 3}"#;
    assert_eq!(
        problems(&doc(mesh, "")),
        [r#"skin "default" > slot "s" > attachment "m" > 4 triangle indices, not a multiple of 3"#]
    );
}

#[test]
fn geometry_that_overflows_is_reported() {
    let atlas = spine_format::atlas::parse("page.png\nsize: 64, 64\nimg\n  bounds: 0, 0, 8, 8\n")
        .expect("atlas");
    let text = doc(r#""img": {"width": 1e38, "height": 10, "scaleX": 1e10}"#, "");
    let parsed = spine_format::json::parse(&text).unwrap();
    let options = spine_model::LoadOptions { atlas: Some(&atlas), ..Default::default() };
    let err = SkeletonData::from_json(&parsed, &options).unwrap_err();
    let got: Vec<String> = err.problems().iter().map(|p| p.to_string()).collect();
    assert_eq!(got.len(), 1, "{got:?}");
    assert!(
        got[0].contains("region corner offset") && got[0].contains("attachment \"img\""),
        "{got:?}"
    );
}

#[test]
fn a_missing_linked_mesh_skin_is_named() {
    let link =
        r#""a": {"type": "linkedmesh", "parent": "m", "skin": "nope", "width": 1, "height": 1}"#;
    assert_eq!(
        problems(&doc(link, "")),
        [r#"skin "default" > slot "s" > attachment "a" > unknown linked mesh skin "nope""#]
    );
}

#[test]
fn a_huge_weighted_bone_count_is_reported_not_overflowed() {
    // The first vertex claims 1e30 influences: the end index of its group would overflow.
    for count in ["1e30", "4611686018427387904"] {
        let text = doc(
            &format!(
                r#""m": {{"type": "mesh", "uvs": [0,0, 1,0, 0,1], "triangles": [0,1,2],
                    "vertices": [{count}, 0, 1, 2, 1, 0, 0, 0], "hull": 3}}"#
            ),
            "",
        );
        let p = problems(&text);
        assert!(
            p.iter().any(|p| p.contains("8 vertex values are neither 3 unweighted nor 3 weighted")),
            "{count}: {p:?}"
        );
    }
}

/// Asserts that no animation of `data` keeps room for more timelines than it has.
fn no_spare_timeline_room(data: &SkeletonData, what: &str) {
    assert!(!data.animations.is_empty(), "{what}: has animations");
    for a in &data.animations {
        assert_eq!(a.timelines.capacity(), a.timelines.len(), "{what}: animation {}", a.name);
    }
}

/// An animation's timeline count hint far above the timelines that follow leaves no room
/// reserved in the model. Every animation's list lives on, so many animations each claiming a
/// huge count used to reserve memory growing with the square of the file's size (a 884 KB
/// file of empty 4.3 animations: 255 GB of address space).
#[test]
fn a_huge_timeline_count_hint_reserves_nothing_that_lasts() {
    use spine_format::binary::{v40, v43};
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/spine-4.3/showcase-pro.skel");
    let mut sk = v43::parse(&std::fs::read(path).unwrap()).unwrap();
    for a in &mut sk.animations {
        a.timeline_hint = u32::MAX;
    }
    let data = spine_model::load_binary(&v43::write(&sk), None).unwrap();
    no_spare_timeline_room(&data, "4.3");

    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let bytes = std::fs::read(corpus.join("4.2/spineboy/spineboy-pro.skel")).unwrap();
    let mut sk = v40::parse(&bytes).unwrap();
    for a in &mut sk.animations {
        a.timeline_count = u32::MAX;
    }
    let data = spine_model::load_binary(&v40::write(&sk), None).unwrap();
    no_spare_timeline_room(&data, "4.2");
}

#[test]
fn weighted_json_vertices_are_taken_whole_or_each_problem_reported() {
    let mesh = |vertices: &str| {
        doc(
            &format!(
                r#""m": {{"type": "mesh", "uvs": [0,0, 1,0, 0,1], "triangles": [0,1,2],
                    "vertices": [{vertices}], "hull": 3}}"#
            ),
            "",
        )
    };
    // Valid: the buffers as written (one bone: root).
    let d = load(&mesh("1, 0, 1.5, -2, 1, 2, 0, 3, 4, 0.5, 0, 5, 6, 0.5, 1, 0, 7, 8, 1"));
    let Some(AttachmentKind::Mesh(m)) = d.attachments.iter().map(|a| &a.kind).next() else {
        panic!("a mesh")
    };
    let Vertices::Weighted(w) = &m.vertices else { panic!("weighted") };
    assert_eq!(w.counts(), [1, 2, 1]);
    assert_eq!(w.bones(), [BoneId::from_index(0); 4]);
    assert_eq!(w.values(), [1.5, -2.0, 1.0, 3.0, 4.0, 0.5, 5.0, 6.0, 0.5, 7.0, 8.0, 1.0]);
    // Bones out of range: each reported, in order (the JSON reader itself refuses numbers
    // beyond the `f32` range, so the values are finite here).
    let p = problems(&mesh("1, 3, 1.5, -2, 1, 2, 0, 3, 4, 0.5, 0, 5, 6, 0.5, 1, 2, 7, 8, 1"));
    let at = r#"skin "default" > slot "s" > attachment "m" > "#;
    assert_eq!(
        p,
        [
            format!("{at}bone index 3 out of range (0..1)"),
            format!("{at}bone index 2 out of range (0..1)"),
        ]
    );
}
