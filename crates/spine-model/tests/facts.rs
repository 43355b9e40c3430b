//! Facts of real rigs, read from the corpus.

use spine_format::binary::SkeletonFile;
use spine_model::files::{discover_atlas, load_atlas};
use spine_model::*;

fn load(
    version: &str,
    example: &str,
    file: &str,
    scale: f32,
) -> Option<(SkeletonFile, SkeletonData)> {
    let path = skel_testkit::spine_corpus()?.join(version).join(example).join(file);
    let atlas = discover_atlas(&path).map(|p| load_atlas(&p).unwrap());
    let raw = spine_format::binary::parse(&std::fs::read(&path).unwrap()).unwrap();
    let options = LoadOptions {
        scale,
        atlas: atlas.as_ref(),
        atlas_name: "test.atlas",
        ..Default::default()
    };
    let data = SkeletonData::from_binary(&raw, &options).unwrap();
    Some((raw, data))
}

#[test]
fn spineboy_bones_and_animations() {
    for v in ["4.0", "4.1", "4.2"] {
        let Some((_, d)) = load(v, "spineboy", "spineboy-pro.skel", 1.0) else { return };
        assert_eq!(d.bones[0].name, "root");
        let hip = d.find_bone("hip").unwrap();
        let head = d.find_bone("head").unwrap();
        assert_eq!(d.bone(hip).parent, d.bone_ids().next());
        assert!(d.bone(head).parent.unwrap() > hip, "head hangs below the hip chain");
        for (name, duration) in
            [("walk", 1.0), ("run", 0.6666667), ("jump", 1.3333334), ("idle", 1.6666667)]
        {
            let a = d.animation(d.find_animation(name).unwrap());
            assert_eq!(a.duration, duration, "{v} {name}");
            assert!(!a.timelines.is_empty());
        }
        assert_eq!(d.behaviour.physics, v == "4.2");
        assert_eq!(d.behaviour.sequences, v != "4.0");
        assert!(d.default_skin.is_some(), "{v}: no default skin");
        assert_eq!(d.default_skin, d.skin_ids().next());
        // Every attachment of spineboy is bound: one page, every region/mesh has UVs.
        assert_eq!(d.pages.len(), 1);
        assert_eq!((d.pages[0].width, d.pages[0].height), (1024, 256));
    }
}

#[test]
fn spineboy_rotated_region_uvs_come_from_the_atlas() {
    let Some((_, d)) = load("4.2", "spineboy", "spineboy-pro.skel", 1.0) else { return };
    let skin = d.skin(d.default_skin.unwrap());
    let slot = d.find_slot("front-fist").unwrap();
    let id = skin.attachment(slot, "front-fist-open").unwrap();
    let AttachmentKind::Region(r) = &d.attachment(id).kind else { panic!("not a region") };
    let tr = r.sequence.regions[0].as_ref().unwrap();
    // spineboy.atlas: front-fist-open bounds 710, 51, 43, 44, rotate 90, page 1024x256.
    assert_eq!(tr.degrees, 90);
    assert_eq!((tr.u, tr.v), (710.0 / 1024.0, 51.0 / 256.0));
    assert_eq!((tr.u2, tr.v2), ((710.0 + 44.0) / 1024.0, (51.0 + 43.0) / 256.0));
    assert_eq!(
        (tr.width, tr.height, tr.original_width, tr.original_height),
        (43.0, 44.0, 43.0, 44.0)
    );
    assert_eq!(r.uvs, Some([tr.u2, tr.v, tr.u2, tr.v2, tr.u, tr.v2, tr.u, tr.v]));
    let o = r.offsets.unwrap();
    assert!(o.iter().all(|v| v.is_finite()));
}

#[test]
fn scale_applies_to_scaled_fields_only() {
    let Some((_, one)) = load("4.2", "spineboy", "spineboy-pro.skel", 1.0) else { return };
    let Some((_, two)) = load("4.2", "spineboy", "spineboy-pro.skel", 2.0) else { return };
    for (a, b) in one.bones.iter().zip(&two.bones) {
        assert_eq!((b.x, b.y, b.length), (a.x * 2.0, a.y * 2.0, a.length * 2.0));
        assert_eq!((b.rotation, b.scale_x), (a.rotation, a.scale_x));
    }
    let run = one.find_animation("run").unwrap();
    let pairs = one.animation(run).timelines.iter().zip(&two.animation(run).timelines);
    let mut translates = 0;
    for (a, b) in pairs {
        if let (
            Timeline::Bone { property: BoneProperty::Translate, curves: ca, .. },
            Timeline::Bone { curves: cb, .. },
        ) = (a, b)
        {
            let ca = one.animation(run).table(ca);
            let cb = two.animation(run).table(cb);
            for k in 0..ca.frame_count() {
                assert_eq!(cb.time(k), ca.time(k));
                assert_eq!(cb.value(k, 0), ca.value(k, 0) * 2.0);
            }
            translates += 1;
        }
    }
    assert!(translates > 0);
    assert_eq!(two.reference_scale, one.reference_scale * 2.0);
}

#[test]
fn dragon_sequence_regions_resolve() {
    let Some((_, d)) = load("4.2", "dragon", "dragon-ess.skel", 1.0) else { return };
    let skin = d.skin(d.default_skin.unwrap());
    let slot = d.find_slot("L_wing").or_else(|| d.find_slot("left-wing")).unwrap();
    let entries = skin.slot_entries(slot);
    let AttachmentKind::Region(r) = &d.attachment(entries[0].attachment).kind else { panic!() };
    assert!(r.has_sequence);
    assert_eq!(r.sequence.frame_path(0).as_deref(), Some("left-wing01"));
    assert_eq!(r.sequence.frame_path(8).as_deref(), Some("left-wing09"));
    assert_eq!(r.sequence.frame_path(9), None);
    assert_eq!(r.sequence.len(), 9);
    assert!(r.sequence.regions.iter().all(Option::is_some));
    assert_eq!(d.pages.len(), 5, "dragon's atlas has 5 pages, all used");
    // The sequence timelines of the flying animation target this attachment.
    let seq_timelines = d
        .animations
        .iter()
        .flat_map(|a| &a.timelines)
        .filter(|t| matches!(t, Timeline::Sequence { attachment, .. } if *attachment == entries[0].attachment))
        .count();
    assert!(seq_timelines >= 1);
}

#[test]
fn celestial_circus_physics_constraints() {
    let Some((_, d)) = load("4.2", "celestial-circus", "celestial-circus-pro.skel", 1.0) else {
        return;
    };
    let physics: Vec<&ConstraintData> = d
        .constraints
        .iter()
        .filter(|c| c.kind.constraint_type() == ConstraintType::Physics)
        .collect();
    assert_eq!(physics.len(), 30);
    let bench = d.find_constraint("bench-back").unwrap();
    let ConstraintKind::Physics(p) = &d.constraint(bench).kind else { panic!() };
    assert!(p.step > 0.0 && p.step.is_finite());
    assert!(p.mass_inverse > 0.0);
    assert!(d.behaviour.physics);
}

#[test]
fn negative_draw_order_shift_resolves() {
    let Some((raw, d)) = load("4.2", "spineboy", "spineboy-ess.skel", 1.0) else { return };
    let SkeletonFile::V40(raw) = raw else { panic!() };
    let run = raw.animations.iter().find(|a| a.name == "run").unwrap();
    // The wire: slot 9 moves two places back.
    assert_eq!(run.draw_order[0].changes.len(), 1);
    assert_eq!((run.draw_order[0].changes[0].slot, run.draw_order[0].changes[0].shift), (9, -2));
    let id = d.find_animation("run").unwrap();
    let order = d
        .animation(id)
        .timelines
        .iter()
        .find_map(|t| match t {
            Timeline::DrawOrder { orders, .. } => orders[0].clone(),
            _ => None,
        })
        .unwrap();
    let order: Vec<u32> = order.iter().map(|s| s.index() as u32).collect();
    assert_eq!(&order[..12], &[0, 1, 2, 3, 4, 5, 6, 9, 7, 8, 10, 11]);
    assert_eq!(order.len(), d.slots.len());
}

#[test]
fn goblins_linked_meshes_share_their_source_geometry() {
    let Some((_, d)) = load("4.2", "goblins", "goblins-pro.skel", 1.0) else { return };
    let girl = d.skin(d.find_skin("goblingirl").unwrap());
    let slot = d.find_slot("left-foot").unwrap();
    let id = girl.attachment(slot, "left-foot").unwrap();
    let AttachmentKind::Mesh(m) = &d.attachment(id).kind else { panic!() };
    let source = m.linked_source.unwrap();
    let AttachmentKind::Mesh(src) = &d.attachment(source).kind else { panic!() };
    assert_eq!(d.skin(d.find_skin("goblin").unwrap()).attachment(slot, "left-foot"), Some(source));
    assert_eq!(m.vertices, src.vertices);
    assert_eq!(m.triangles(), src.triangles());
    assert_eq!(m.timeline_attachment, source, "goblins' linked meshes inherit timelines");
    assert_eq!(&*m.path, "goblingirl/left-foot");
    assert!(m.uvs().is_some_and(|u| u.len() == m.region_uvs().len()));
    assert_ne!(m.uvs(), src.uvs(), "own region, own UVs");
}

#[test]
fn constraint_update_order_merges_types_by_order() {
    let Some((raw, d)) = load("4.2", "spineboy", "spineboy-pro.skel", 1.0) else { return };
    let SkeletonFile::V40(raw) = raw else { panic!() };
    let mut orders: Vec<(u32, &str)> = Vec::new();
    orders.extend(raw.ik_constraints.iter().map(|c| (c.order, c.name.as_str())));
    orders.extend(raw.transform_constraints.iter().map(|c| (c.order, c.name.as_str())));
    orders.extend(raw.path_constraints.iter().map(|c| (c.order, c.name.as_str())));
    orders.sort();
    let names: Vec<&str> = d.constraints.iter().map(|c| c.name.as_str()).collect();
    let expected: Vec<&str> = orders.iter().map(|o| o.1).collect();
    assert_eq!(names, expected);
    assert_eq!(names[..2], ["shoulder", "board-ik"]);
    // 4.2 transform constraints keep their maths.
    let ConstraintKind::Transform(t) = &d.constraint(d.find_constraint("shoulder").unwrap()).kind
    else {
        panic!()
    };
    assert_eq!(t.solver, TransformSolver::Legacy4x);
}

#[test]
fn spinosaurus_loads_geometry_only() {
    let Some((_, d)) = load("4.2", "spinosaurus", "spinosaurus-ess.skel", 1.0) else { return };
    assert!(d.pages.is_empty());
    assert!(d.attachments.iter().all(|a| match &a.kind {
        AttachmentKind::Region(r) =>
            r.uvs.is_none() && r.sequence.regions.iter().all(Option::is_none),
        AttachmentKind::Mesh(m) => m.uvs().is_none(),
        _ => true,
    }));
}

/// Upgrade rules of 4.0–4.2 checked over every rig: IK `uniform` becomes
/// `ScaleYMode::Uniform`, the 4.2 IK mix flag defaults, the reference scale default, and
/// every transform constraint uses the legacy solver with `local`/`relative` mapped.
#[test]
fn v4x_upgrade_rules_hold_on_every_rig() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let mut iks = 0;
    let mut transforms = 0;
    for v in ["4.0", "4.1", "4.2"] {
        for f in skel_testkit::files_with_suffix(&corpus.join(v), ".skel") {
            let raw = spine_format::binary::parse(&std::fs::read(&f).unwrap()).unwrap();
            let d = SkeletonData::from_binary(&raw, &LoadOptions::default()).unwrap();
            let SkeletonFile::V40(raw) = raw else { panic!() };
            let expected_ref = raw.header.reference_scale.unwrap_or(100.0);
            assert_eq!(d.reference_scale, expected_ref, "{}", f.display());
            assert_eq!(raw.header.reference_scale.is_some(), v == "4.2");
            for k in &raw.ik_constraints {
                let ik = d
                    .constraints
                    .iter()
                    .find_map(|c| match &c.kind {
                        ConstraintKind::Ik(ik) if c.name == k.name => Some(ik),
                        _ => None,
                    })
                    .unwrap();
                let mode = if k.uniform { ScaleYMode::Uniform } else { ScaleYMode::None };
                assert_eq!(ik.scale_y_mode, mode);
                let mix = match k.flags {
                    Some(fl) if fl & 32 == 0 => 0.0,
                    _ => k.mix.unwrap_or(1.0),
                };
                assert_eq!(ik.mix, mix);
                assert_eq!(ik.bend_direction, i32::from(k.bend_direction.signum()).max(-1) | 1);
                iks += 1;
            }
            for t in &raw.transform_constraints {
                let td = d
                    .constraints
                    .iter()
                    .find_map(|c| match &c.kind {
                        ConstraintKind::Transform(td) if c.name == t.name => Some(td),
                        _ => None,
                    })
                    .unwrap();
                assert_eq!(td.solver, TransformSolver::Legacy4x);
                assert_eq!(
                    (td.local_source, td.local_target, td.additive),
                    (t.local, t.local, t.relative)
                );
                assert_eq!(td.mixes[0], t.values[6].unwrap_or(0.0));
                assert_eq!(td.offsets[1], t.values[1].unwrap_or(0.0));
                transforms += 1;
            }
        }
    }
    if skel_testkit::spine_corpus().is_some() {
        assert!(iks > 20 && transforms > 10, "{iks} IK, {transforms} transform constraints");
    }
}

/// 4.3: x/y transform properties and slider bone values are scaled as the spec says.
#[test]
fn v43_scaled_constraint_fields() {
    let dir = skel_testkit::project_fixtures().join("spine-4.3");
    let mut checked = 0;
    for f in skel_testkit::files_with_suffix(&dir, ".skel") {
        let raw = spine_format::binary::parse(&std::fs::read(&f).unwrap()).unwrap();
        let options = LoadOptions { scale: 2.0, ..LoadOptions::default() };
        let d = SkeletonData::from_binary(&raw, &options).unwrap();
        let SkeletonFile::V43(raw) = raw else { panic!() };
        assert_eq!(d.constraints.len(), raw.constraints.len());
        for (rc, c) in raw.constraints.iter().zip(&d.constraints) {
            assert_eq!(rc.name, c.name);
            match (&rc.kind, &c.kind) {
                (
                    spine_format::binary::v43::ConstraintKind::Transform(rt),
                    ConstraintKind::Transform(t),
                ) => {
                    assert_eq!(t.solver, TransformSolver::FromTo);
                    for (rf, from) in rt.properties.iter().zip(&t.properties) {
                        let fs = if rf.property.is_scaled() { 2.0 } else { 1.0 };
                        assert_eq!(from.offset, rf.offset * fs);
                        for (rto, to) in rf.to.iter().zip(&from.to) {
                            let ts = if rto.property.is_scaled() { 2.0 } else { 1.0 };
                            assert_eq!(to.offset, rto.offset * ts);
                            assert_eq!(to.max, rto.max * ts);
                            assert_eq!(to.scale, rto.scale * ts / fs);
                            checked += 1;
                        }
                    }
                }
                (
                    spine_format::binary::v43::ConstraintKind::Slider(rs),
                    ConstraintKind::Slider(s),
                ) => {
                    assert_eq!(s.animation.index(), rs.animation as usize);
                    if let (Some(rb), Some(b)) = (&rs.bone, &s.bone) {
                        let ps = if rb.property.is_scaled() { 2.0 } else { 1.0 };
                        assert_eq!(b.property_offset, rb.property_offset * ps);
                        assert_eq!(b.scale, rb.scale / ps);
                        checked += 1;
                    }
                }
                (rk, k) => assert_eq!(
                    format!("{:?}", rk.constraint_type()),
                    format!("{:?}", k.constraint_type())
                ),
            }
        }
    }
    assert!(checked > 0);
}
