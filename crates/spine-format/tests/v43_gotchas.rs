//! One test per numbered gotcha of the 4.3 spec (`spine-4.3-binary.md`, "Gotchas"), each on
//! crafted input: an AST built here, written, then read back (or the bytes inspected).

use spine_format::binary::shared::{CurveKey, CurveTimeline, DrawOrderChange};
use spine_format::binary::v43::{self, *};
use spine_format::binary::StrRef;
use spine_format::BinaryErrorKind;

/// A small skeleton: `bones` bones, `slots` slots, one string table entry per slot, and one
/// empty animation. Essential only unless `nonessential`.
fn base(bones: usize, slots: usize, nonessential: bool) -> Skeleton {
    let mut s = Skeleton {
        header: Header {
            version: "4.3.39".into(),
            reference_scale: 100.0,
            nonessential: nonessential.then(NonessentialHeader::default),
            ..Header::default()
        },
        ..Skeleton::default()
    };
    s.strings = (0..slots.max(1)).map(|i| Some(format!("att{i}"))).collect();
    s.bones = (0..bones)
        .map(|i| Bone {
            name: format!("b{i}").into(),
            parent: (i > 0).then_some(0),
            scale_x: 1.0,
            scale_y: 1.0,
            nonessential: nonessential.then(BoneExtras::default),
            ..Bone::default()
        })
        .collect();
    s.slots = (0..slots)
        .map(|i| Slot {
            name: format!("s{i}").into(),
            color: [255; 4],
            dark_color: Slot::NO_DARK_COLOR,
            visible: nonessential.then_some(true),
            ..Slot::default()
        })
        .collect();
    s.animations.push(Animation {
        name: "a".into(),
        color: nonessential.then_some([1, 2, 3, 4]),
        ..Animation::default()
    });
    s
}

fn round_trip(s: &Skeleton) -> (Vec<u8>, Skeleton) {
    let bytes = v43::write(s);
    let parsed = v43::parse(&bytes).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(&parsed, s);
    assert_eq!(v43::write(&parsed), bytes);
    (bytes, parsed)
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn entry(slot: u32, placeholder: u32, flags: u8, kind: AttachmentKind) -> SkinSlot {
    SkinSlot {
        slot,
        attachments: vec![SkinEntry {
            placeholder: StrRef(placeholder),
            attachment: Attachment { flags, name: None, kind },
        }],
    }
}

#[test]
fn gotcha_01_mesh_triangle_count_uses_the_undoubled_hull() {
    // 10 vertices, all hull: (20 - 10 - 2) * 3 = 24 indices (8 triangles).
    let mut s = base(1, 1, false);
    let mesh = MeshAttachment {
        hull_length: 10,
        vertices: Vertices::Unweighted(vec![0.5; 20]),
        uvs: vec![0.25; 20],
        triangles: (0..24).map(|i| i % 10).collect(),
        ..MeshAttachment::default()
    };
    s.default_skin = Some(vec![entry(0, 1, 2, AttachmentKind::Mesh(mesh))]);
    let (bytes, parsed) = round_trip(&s);
    let AttachmentKind::Mesh(m) =
        &parsed.default_skin.as_ref().unwrap()[0].attachments[0].attachment.kind
    else {
        panic!("not a mesh")
    };
    assert_eq!(m.triangles.len(), 24);
    assert_eq!(m.hull_length, 10, "the raw, undoubled hull count is kept");
    // With one triangle index fewer on the wire the file no longer parses to the end.
    let mut short = s.clone();
    if let AttachmentKind::Mesh(m) =
        &mut short.default_skin.as_mut().unwrap()[0].attachments[0].attachment.kind
    {
        m.triangles.pop();
    }
    assert!(v43::parse(&v43::write(&short)).is_err());
    assert!(bytes.len() > 20 * 8);
}

#[test]
fn gotcha_02_draw_order_shift_is_unsigned_as_signed() {
    let mut s = base(1, 3, false);
    // Slot 2 moves to the front: shift -2, written as the five-byte varint of 0xFFFFFFFE.
    let changes = vec![DrawOrderChange { slot: 2, shift: -2 }];
    s.animations[0].draw_order = vec![DrawOrderKey { time: 0.5, changes: changes.clone() }];
    s.animations[0].draw_order_folders = vec![DrawOrderFolder {
        slots: vec![0, 1, 2],
        keys: vec![DrawOrderKey { time: 1.0, changes }],
    }];
    let (bytes, parsed) = round_trip(&s);
    let pattern = [1, 2, 0xfe, 0xff, 0xff, 0xff, 0x0f];
    let first = find(&bytes, &pattern).expect("draw-order record with a 5-byte shift");
    assert!(find(&bytes[first + 1..], &pattern).is_some(), "the folder record uses it too");
    assert_eq!(parsed.animations[0].draw_order[0].changes[0].shift, -2);
    assert_eq!(parsed.animations[0].draw_order_folders[0].keys[0].changes[0].shift, -2);
    // A shift that lands before slot 0 is out of range.
    let mut bad = s.clone();
    bad.animations[0].draw_order[0].changes[0].shift = -3;
    let e = v43::parse(&v43::write(&bad)).unwrap_err();
    assert!(matches!(e.kind, BinaryErrorKind::IndexOutOfRange { what: "draw order target", .. }));
}

fn slider(animation: u32) -> Constraint {
    Constraint {
        name: format!("slider{animation}").into(),
        kind: ConstraintKind::Slider(SliderConstraint { animation, ..SliderConstraint::default() }),
    }
}

#[test]
fn gotcha_03_slider_animation_indices_trail_the_animations() {
    let mut s = base(1, 0, false);
    s.animations.push(Animation { name: "b".into(), ..Animation::default() });
    s.animations.push(Animation { name: "c".into(), ..Animation::default() });
    s.constraints = vec![slider(2), slider(1)];
    let (bytes, parsed) = round_trip(&s);
    assert_eq!(&bytes[bytes.len() - 2..], &[2, 1], "one varint per slider, after the animations");
    let anims: Vec<u32> = parsed
        .constraints
        .iter()
        .filter_map(|c| match &c.kind {
            ConstraintKind::Slider(s) => Some(s.animation),
            _ => None,
        })
        .collect();
    assert_eq!(anims, [2, 1]);
    let e = v43::parse(&bytes[..bytes.len() - 1]).unwrap_err();
    assert_eq!(e.section, "slider animations > constraints[1]");
    assert_eq!(e.offset, bytes.len() - 1);
    let mut out_of_range = s.clone();
    out_of_range.constraints[0] = slider(3);
    let e = v43::parse(&v43::write(&out_of_range)).unwrap_err();
    assert_eq!(e.kind, BinaryErrorKind::IndexOutOfRange { what: "animation", index: 3, len: 3 });
}

#[test]
fn gotcha_04_constraint_indices_are_into_the_unified_list() {
    let mut s = base(2, 0, false);
    s.constraints = vec![
        Constraint {
            name: "ik".into(),
            kind: ConstraintKind::Ik(IkConstraint { bones: vec![1], ..IkConstraint::default() }),
        },
        Constraint {
            name: "tc".into(),
            kind: ConstraintKind::Transform(TransformConstraint::default()),
        },
    ];
    let timeline = CurveTimeline { bezier_count: 0, frames: vec![CurveKey::linear(0.0, [1.0; 6])] };
    // Transform constraint 0 of its type is list entry 1.
    s.animations[0].transform = vec![TransformTimeline { constraint: 1, timeline }];
    let (_, parsed) = round_trip(&s);
    assert_eq!(parsed.animations[0].transform[0].constraint, 1);
    // A per-type index (0) points at the IK constraint: rejected.
    let mut wrong = s.clone();
    wrong.animations[0].transform[0].constraint = 0;
    let e = v43::parse(&v43::write(&wrong)).unwrap_err();
    assert_eq!(e.kind, BinaryErrorKind::Invalid("constraint 0 is Ik, expected Transform".into()));
    assert_eq!(e.section, "animations > animations[0] \"a\" > transform timelines > timelines[0]");
}

#[test]
fn gotcha_05_physics_timeline_index_is_one_based_with_zero_for_all() {
    let mut s = base(1, 0, false);
    s.constraints = vec![
        Constraint { name: "ik".into(), kind: ConstraintKind::Ik(IkConstraint::default()) },
        Constraint {
            name: "ph".into(),
            kind: ConstraintKind::Physics(PhysicsConstraint { fps: 60, ..Default::default() }),
        },
    ];
    let reset = |constraint| PhysicsTimelines {
        constraint,
        timelines: vec![PhysicsTimeline::Reset(vec![0.25])],
    };
    s.animations[0].physics = vec![reset(None), reset(Some(1))];
    let (bytes, parsed) = round_trip(&s);
    let quarter = 0.25f32.to_be_bytes();
    let mut all = vec![2, 0, 1, 8, 1];
    all.extend_from_slice(&quarter);
    all.extend_from_slice(&[2, 1, 8, 1]);
    all.extend_from_slice(&quarter);
    assert!(find(&bytes, &all).is_some(), "wire indices 0 (all) and 2 (constraint 1)");
    assert_eq!(parsed.animations[0].physics[0].constraint, None);
    assert_eq!(parsed.animations[0].physics[1].constraint, Some(1));
    let mut wrong = s.clone();
    wrong.animations[0].physics[1].constraint = Some(0);
    let e = v43::parse(&v43::write(&wrong)).unwrap_err();
    assert_eq!(e.kind, BinaryErrorKind::Invalid("constraint 0 is Ik, expected Physics".into()));
}

#[test]
fn gotcha_06_every_region_and_mesh_has_a_sequence() {
    let region = |flags: u8, sequence| {
        let mut s = base(1, 1, false);
        let r = RegionAttachment { sequence, width: 8.0, height: 8.0, ..Default::default() };
        s.default_skin = Some(vec![entry(0, 1, flags, AttachmentKind::Region(r))]);
        s
    };
    let implicit = region(0, None);
    let explicit = region(64, Some(Sequence { count: 3, start: 1, digits: 2, setup_index: 0 }));
    let (a, pa) = round_trip(&implicit);
    let (b, pb) = round_trip(&explicit);
    assert_eq!(b.len(), a.len() + 4, "flag 64 adds the four varints count/start/digits/setup");
    let seq =
        |s: &Skeleton| match &s.default_skin.as_ref().unwrap()[0].attachments[0].attachment.kind {
            AttachmentKind::Region(r) => r.sequence,
            _ => panic!("not a region"),
        };
    assert_eq!(seq(&pa), None, "no record: the implicit one-frame sequence");
    assert_eq!(seq(&pb), Some(Sequence { count: 3, start: 1, digits: 2, setup_index: 0 }));
}

#[test]
fn gotcha_07_ik_bend_bit_is_inverted_in_data_but_not_in_timelines() {
    let mut s = base(2, 0, false);
    s.constraints = vec![Constraint {
        name: "ik".into(),
        kind: ConstraintKind::Ik(IkConstraint { bones: vec![1], flags: 4, ..Default::default() }),
    }];
    s.animations[0].ik = vec![IkTimeline {
        constraint: 0,
        bezier_count: 0,
        keys: vec![
            IkKey { flags: 8, time: 0.0, ..Default::default() },
            IkKey { flags: 0, time: 1.0, ..Default::default() },
        ],
    }];
    let (_, p) = round_trip(&s);
    let ConstraintKind::Ik(ik) = &p.constraints[0].kind else { panic!("not IK") };
    assert_eq!(ik.bend_direction(), -1, "data: bit 4 set means -1");
    assert_eq!(p.animations[0].ik[0].keys[0].bend_direction(), 1, "timeline: bit 8 set means +1");
    assert_eq!(p.animations[0].ik[0].keys[1].bend_direction(), -1);
    let mut plain = ik.clone();
    plain.flags = 0;
    assert_eq!(plain.bend_direction(), 1);
}

#[test]
fn gotcha_08_physics_scale_x_carries_the_scale_y_mode() {
    let physics = |v: f32| {
        let mut s = base(1, 0, false);
        s.constraints = vec![Constraint {
            name: "p".into(),
            kind: ConstraintKind::Physics(PhysicsConstraint {
                flags: 16,
                scale_x: Some(v),
                fps: 60,
                ..Default::default()
            }),
        }];
        let (_, p) = round_trip(&s);
        match &p.constraints[0].kind {
            ConstraintKind::Physics(p) => {
                assert_eq!(p.scale_x, Some(v), "the raw wire float is kept");
                p.scale_x_and_mode()
            }
            _ => panic!("not physics"),
        }
    };
    assert_eq!(physics(0.5), (0.5, ScaleYMode::None));
    assert_eq!(physics(-1.5), (0.5, ScaleYMode::Uniform));
    assert_eq!(physics(-2.0), (1.0, ScaleYMode::Uniform));
    assert_eq!(physics(-3.0), (1.0, ScaleYMode::Volume));
}

#[test]
fn gotcha_09_weighted_vertices_have_a_bones_length_prefix() {
    let mut s = base(3, 1, false);
    let w = |bone, weight| BoneWeight { bone, x: 1.0, y: 2.0, weight };
    let bbox = BoundingBoxAttachment {
        vertices: Vertices::Weighted(WeightedVertices::from_groups([
            vec![w(1, 1.0)],
            vec![w(1, 0.5), w(2, 0.5)],
        ])),
        color: None,
    };
    s.default_skin = Some(vec![entry(0, 1, 1 | 16, AttachmentKind::BoundingBox(bbox))]);
    let (bytes, p) = round_trip(&s);
    // flags, vertexCount 2, bonesLength 2 + 3 = 5, then the first vertex's bone count 1.
    let at = find(&bytes, &[0x11, 2, 5, 1, 1]).expect("weighted record with bonesLength");
    let AttachmentKind::BoundingBox(b) =
        &p.default_skin.as_ref().unwrap()[0].attachments[0].attachment.kind
    else {
        panic!("not a bounding box")
    };
    assert_eq!(b.vertices.bones_length(), 5);
    assert_eq!(b.vertices.vertex_count(), 2);
    // A wrong bonesLength desynchronises: rejected.
    let mut bad = bytes.clone();
    bad[at + 2] = 4;
    let e = v43::parse(&bad).expect_err("bonesLength 4 of 5");
    // The second vertex's group (count 2: 3 entries) does not fit in the 2 entries left.
    assert!(e.to_string().contains("vertex bone count 2 overruns bonesLength 4"), "{e}");
    // flags, vertexCount, bonesLength, then the first group: count, bone, x, y, weight.
    assert_eq!(e.offset, at + 3 + 1 + 1 + 3 * 4, "at the second group's count");
    // One more entry than the groups take: a third group is read past the two vertices.
    let mut long = bytes.clone();
    long[at + 2] = 6;
    assert!(v43::parse(&long).is_err());
}

#[test]
fn gotcha_10_linked_mesh_source_slot_comes_from_the_record() {
    let mut s = base(1, 2, false);
    let mesh = MeshAttachment {
        hull_length: 3,
        vertices: Vertices::Unweighted(vec![0.0; 6]),
        uvs: vec![0.0; 6],
        triangles: vec![0, 1, 2],
        ..Default::default()
    };
    let linked =
        LinkedMeshAttachment { source_slot: 0, skin: 0, source: StrRef(1), ..Default::default() };
    s.default_skin = Some(vec![
        entry(0, 1, 2, AttachmentKind::Mesh(mesh)),
        entry(1, 2, 3 | 128, AttachmentKind::LinkedMesh(linked)),
    ]);
    let (bytes, p) = round_trip(&s);
    let skin = p.default_skin.as_ref().unwrap();
    assert_eq!(skin[1].slot, 1, "the linked mesh lives in slot 1");
    let AttachmentKind::LinkedMesh(l) = &skin[1].attachments[0].attachment.kind else {
        panic!("not a linked mesh")
    };
    assert_eq!((l.source_slot, l.skin, l.source), (0, 0, StrRef(1)));
    // Wire order: flags, sourceIndex (slot 0), skinIndex 0, source ref 1.
    assert!(find(&bytes, &[0x83, 0, 0, 1]).is_some());
    let attachment = &skin[1].attachments[0].attachment;
    assert_eq!(attachment.flags & 128, 128, "inherit timelines bit kept");
}

#[test]
fn gotcha_11_nonessential_data_appears_in_unexpected_places() {
    let build = |ne: bool| {
        let mut s = base(2, 1, ne);
        s.skins =
            vec![Skin { name: "s".into(), color: ne.then_some([9; 4]), ..Default::default() }];
        let mesh = MeshAttachment {
            hull_length: 3,
            vertices: Vertices::Unweighted(vec![0.0; 6]),
            uvs: vec![0.0; 6],
            triangles: vec![0, 1, 2],
            nonessential: ne.then(|| MeshExtras { edges: vec![0, 2], width: 4.0, height: 5.0 }),
            ..Default::default()
        };
        s.default_skin = Some(vec![entry(0, 1, 2, AttachmentKind::Mesh(mesh))]);
        s.constraints = vec![Constraint {
            name: "slider".into(),
            kind: ConstraintKind::Slider(SliderConstraint {
                flags: 8 | 64,
                value: Some(2.0),
                bone: Some(SliderBone { bone: 1, ..Default::default() }),
                animation: 0,
                ..Default::default()
            }),
        }];
        s
    };
    let (ess, _) = round_trip(&build(false));
    let (pro, p) = round_trip(&build(true));
    // Bones (color, icon, iconSize, iconRotation, visible = 4 + 1 + 4 + 4 + 1 bytes each),
    // the slot's visible, the skin color, mesh edges/width/height, the animation color and
    // the header fps/images/audio all add bytes.
    let expected = 2 * 14 + 1 + 4 + (1 + 2 + 8) + 4 + (4 + 1 + 1);
    assert_eq!(pro.len(), ess.len() + expected);
    assert_eq!(p.animations[0].color, Some([1, 2, 3, 4]));
    // Reading a pro file as essential (flag cleared) desynchronises.
    let mut lie = pro.clone();
    let flag_at = 8 + 1 + "4.3.39".len() + 5 * 4;
    assert_eq!(lie[flag_at], 1);
    lie[flag_at] = 0;
    assert!(v43::parse(&lie).is_err());
}
