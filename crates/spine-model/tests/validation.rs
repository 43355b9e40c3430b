//! One test per validation problem kind, on crafted 4.3 ASTs, asserting the exact list.

use spine_format::binary::shared::{CurveType, DrawOrderChange};
use spine_format::binary::v43 as w;
use spine_format::binary::{SkeletonFile, StrRef};
use spine_model::{LoadError, LoadOptions, SkeletonData};

/// Bones `root`, `hip`; slots `gun` (on root) and `body` (on hip); strings `gun`, `body`.
fn base() -> w::Skeleton {
    let mut s = w::Skeleton::default();
    s.header.version = "4.3.01".into();
    s.strings = vec![Some("gun".into()), Some("body".into())];
    s.bones = vec![
        w::Bone { name: "root".into(), scale_x: 1.0, scale_y: 1.0, ..Default::default() },
        w::Bone { name: "hip".into(), parent: Some(0), scale_x: 1.0, ..Default::default() },
    ];
    s.slots = vec![
        w::Slot { name: "gun".into(), bone: 0, ..Default::default() },
        w::Slot { name: "body".into(), bone: 1, ..Default::default() },
    ];
    s
}

fn region(w_: f32) -> w::Attachment {
    w::Attachment {
        flags: 0,
        name: None,
        kind: w::AttachmentKind::Region(w::RegionAttachment {
            width: w_,
            height: 10.0,
            scale_x: 1.0,
            scale_y: 1.0,
            ..Default::default()
        }),
    }
}

fn mesh() -> w::Attachment {
    w::Attachment {
        flags: 2,
        name: None,
        kind: w::AttachmentKind::Mesh(w::MeshAttachment {
            hull_length: 3,
            vertices: w::Vertices::Unweighted(vec![0.0, 0.0, 1.0, 0.0, 0.0, 1.0]),
            uvs: vec![0.0, 0.0, 1.0, 0.0, 0.0, 1.0],
            triangles: vec![0, 1, 2],
            ..Default::default()
        }),
    }
}

fn entry(key: u32, attachment: w::Attachment) -> w::SkinEntry {
    w::SkinEntry { placeholder: StrRef(key), attachment }
}

fn problems(s: w::Skeleton) -> Vec<String> {
    problems_with(s, None)
}

fn problems_with(s: w::Skeleton, atlas: Option<&spine_format::atlas::Atlas>) -> Vec<String> {
    let options =
        LoadOptions { scale: 1.0, atlas, atlas_name: "spineboy.atlas", ..Default::default() };
    match SkeletonData::from_binary(&SkeletonFile::V43(s), &options) {
        Ok(_) => Vec::new(),
        Err(LoadError::Invalid(p)) => p.iter().map(ToString::to_string).collect(),
        Err(e) => vec![format!("other: {e}")],
    }
}

#[test]
fn the_base_skeleton_is_valid() {
    let d = SkeletonData::from_binary(&SkeletonFile::V43(base()), &LoadOptions::default()).unwrap();
    assert_eq!(d.find_bone("hip"), d.bone_ids().nth(1));
    assert_eq!(Some(d.slots[1].bone), d.bone_ids().nth(1));
}

#[test]
fn index_out_of_range() {
    let mut s = base();
    s.slots[1].bone = 7;
    s.constraints.push(w::Constraint {
        name: "aim".into(),
        kind: w::ConstraintKind::Ik(w::IkConstraint {
            bones: vec![1],
            target: 9,
            ..Default::default()
        }),
    });
    assert_eq!(
        problems(s),
        [
            "slot \"body\" > bone index 7 out of range (0..2)",
            "IK constraint \"aim\" > bone index 9 out of range (0..2)",
        ]
    );
}

#[test]
fn parent_order() {
    let mut s = base();
    s.bones[1].parent = Some(1);
    assert_eq!(problems(s), ["bone \"hip\" > parent bone index 1 does not precede bone 1"]);
}

#[test]
fn wrong_constraint_type() {
    let mut s = base();
    s.constraints.push(w::Constraint {
        name: "t".into(),
        kind: w::ConstraintKind::Transform(w::TransformConstraint {
            bones: vec![1],
            source: 0,
            ..Default::default()
        }),
    });
    s.animations.push(w::Animation {
        name: "run".into(),
        ik: vec![w::IkTimeline {
            constraint: 0,
            bezier_count: 0,
            keys: vec![w::IkKey { time: 0.0, ..Default::default() }],
        }],
        ..Default::default()
    });
    assert_eq!(
        problems(s),
        ["animation \"run\" > constraint 0 \"t\" is a transform constraint, expected IK"]
    );
}

#[test]
fn linked_mesh_source_missing_or_not_a_mesh() {
    let mut s = base();
    let linked = |source: u32| w::Attachment {
        flags: 3,
        name: None,
        kind: w::AttachmentKind::LinkedMesh(w::LinkedMeshAttachment {
            source_slot: 0,
            skin: 0,
            source: StrRef(source),
            ..Default::default()
        }),
    };
    s.default_skin = Some(vec![
        w::SkinSlot { slot: 0, attachments: vec![entry(1, region(10.0))] },
        w::SkinSlot { slot: 1, attachments: vec![entry(1, linked(1)), entry(2, linked(2))] },
    ]);
    assert_eq!(
        problems(s),
        [
            "slot \"body\" > attachment \"gun\" > linked mesh source \"gun\" is not a mesh",
            "slot \"body\" > attachment \"body\" > linked mesh source \"body\" not found in skin \
             \"default\" slot \"gun\"",
        ]
    );
}

#[test]
fn timeline_on_a_missing_attachment() {
    let mut s = base();
    s.default_skin = Some(vec![w::SkinSlot { slot: 1, attachments: vec![entry(2, mesh())] }]);
    let deform = w::AttachmentTimelineKind::Deform(w::DeformTimeline {
        keys: vec![w::DeformKey { time: 0.0, values: None }],
        ..Default::default()
    });
    s.animations.push(w::Animation {
        name: "wiggle".into(),
        attachments: vec![w::AttachmentTimelinesSkin {
            skin: 0,
            slots: vec![w::AttachmentTimelinesSlot {
                slot: 1,
                attachments: vec![
                    w::AttachmentTimeline { attachment: StrRef(2), kind: deform.clone() },
                    w::AttachmentTimeline { attachment: StrRef(1), kind: deform },
                ],
            }],
        }],
        ..Default::default()
    });
    assert_eq!(
        problems(s),
        ["animation \"wiggle\" > slot \"body\" > attachment \"gun\" not found in skin \"default\""]
    );
}

#[test]
fn region_not_in_atlas() {
    let atlas = spine_format::atlas::parse(
        "spineboy.png\nsize: 64, 64\nfilter: Linear, Linear\nbody\nbounds: 0, 0, 10, 10\n",
    )
    .unwrap();
    let mut s = base();
    s.default_skin = Some(vec![
        w::SkinSlot { slot: 0, attachments: vec![entry(1, region(10.0))] },
        w::SkinSlot { slot: 1, attachments: vec![entry(2, region(10.0))] },
    ]);
    assert_eq!(
        problems_with(s.clone(), Some(&atlas)),
        ["slot \"gun\" > attachment \"gun\" > region \"gun\" not in atlas \"spineboy.atlas\""]
    );
    // Geometry-only: no problem.
    assert_eq!(problems(s), Vec::<String>::new());
}

#[test]
fn non_finite_numbers() {
    let mut s = base();
    s.bones[1].x = f32::NAN;
    s.default_skin =
        Some(vec![w::SkinSlot { slot: 0, attachments: vec![entry(1, region(f32::INFINITY))] }]);
    assert_eq!(
        problems(s),
        [
            "bone \"hip\" > x is not finite (NaN)",
            "slot \"gun\" > attachment \"gun\" > width is not finite (inf)",
        ]
    );
}

#[test]
fn deform_beyond_the_vertex_count() {
    let mut s = base();
    s.default_skin = Some(vec![w::SkinSlot { slot: 1, attachments: vec![entry(2, mesh())] }]);
    s.animations.push(w::Animation {
        name: "wiggle".into(),
        attachments: vec![w::AttachmentTimelinesSkin {
            skin: 0,
            slots: vec![w::AttachmentTimelinesSlot {
                slot: 1,
                attachments: vec![w::AttachmentTimeline {
                    attachment: StrRef(2),
                    kind: w::AttachmentTimelineKind::Deform(w::DeformTimeline {
                        keys: vec![
                            w::DeformKey { time: 0.0, values: None },
                            w::DeformKey {
                                time: 1.0,
                                values: Some(w::DeformValues { start: 4, values: vec![1.0; 3] }),
                            },
                        ],
                        curves: vec![CurveType::Linear],
                        ..Default::default()
                    }),
                }],
            }],
        }],
        ..Default::default()
    });
    assert_eq!(
        problems(s),
        ["animation \"wiggle\" > deform \"body\" > deform key 1 writes 4..7 beyond the 6 vertex components"]
    );
}

#[test]
fn draw_order_that_is_not_a_permutation() {
    let mut s = base();
    s.animations.push(w::Animation {
        name: "swap".into(),
        draw_order: vec![w::DrawOrderKey {
            time: 0.0,
            changes: vec![
                DrawOrderChange { slot: 0, shift: 1 },
                DrawOrderChange { slot: 1, shift: 0 },
            ],
        }],
        ..Default::default()
    });
    assert_eq!(
        problems(s),
        ["animation \"swap\" > draw order key 0 is not a permutation (two slots moved to 1)"]
    );
}

#[test]
fn every_problem_is_reported_not_only_the_first() {
    let mut s = base();
    s.bones[1].parent = Some(5);
    s.slots[0].bone = 3;
    s.bones[0].rotation = f32::NEG_INFINITY;
    let p = problems(s);
    assert_eq!(
        p,
        [
            "bone \"root\" > rotation is not finite (-inf)",
            "bone \"hip\" > parent bone index 5 does not precede bone 1",
            "slot \"gun\" > bone index 3 out of range (0..2)",
        ]
    );
}
