//! The 4.3 JSON reader and writer on a hand-written document that uses every field the
//! official 4.3 `SkeletonJson` reads: `parse(write(x)) == x`, defaults left absent, errors with
//! JSON paths and limits. (The generated 4.3 binaries' JSON twins are tested in
//! `spine-model/tests/json43.rs`.)

use spine_format::json::{BoneTimeline, Curve, JsonErrorKind, PhysicsTimeline, SlotTimeline};
use spine_format::json43::{self, ConstraintKind, Property, ScaleYMode};
use spine_format::Limits;

const DOC: &str = r#"{
"skeleton": { "hash": "Xu0AKgwP/uA", "spine": "4.3.39", "x": -10, "y": -5.5, "width": 100,
  "height": 200, "referenceScale": 50, "fps": 24, "images": "./img/", "audio": "" },
"bones": [
  { "name": "root" },
  { "name": "hip", "parent": "root", "length": 10, "rotation": 90, "x": 1, "y": 2, "scaleX": 2,
    "scaleY": 0.5, "shearX": 3, "shearY": 4, "inherit": "NoScale", "skin": true,
    "color": "ff0000ff", "icon": "star", "iconSize": 2, "iconRotation": 45, "visible": false },
  { "name": "arm", "parent": "hip", "inherit": "onlyTranslation" }
],
"slots": [
  { "name": "body", "bone": "hip", "color": "ffffff80", "dark": "102030", "attachment": "body",
    "blend": "Additive", "visible": false },
  { "name": "path", "bone": "root" },
  { "name": "clip", "bone": "root", "attachment": "clip" }
],
"constraints": [
  { "name": "ik1", "type": "ik", "skin": true, "bones": ["hip", "arm"], "target": "root",
    "scaleY": "volume", "mix": 0.5, "softness": 3, "bendPositive": false, "compress": true,
    "stretch": true },
  { "name": "tc", "type": "transform", "bones": ["arm"], "source": "root", "localSource": true,
    "localTarget": true, "additive": true, "clamp": true,
    "properties": {
      "rotate": { "offset": 5, "to": { "x": { "offset": 1, "max": 10, "scale": 2 },
                                      "shearY": {} } },
      "scaleX": { "to": { "scaleY": { "scale": -1 } } },
      "x": { "offset": 1, "to": { "y": { "offset": 7 } }, "unknown": 1 },
      "x": { "offset": 2, "to": { "rotate": { "max": 3 } } }
    },
    "rotation": 1, "x": 2, "y": 3, "scaleX": 4, "scaleY": 5, "shearY": 6,
    "mixRotate": 0.25, "mixX": 0.5, "mixShearY": 0.75 },
  { "name": "pc", "type": "path", "bones": ["arm"], "slot": "path", "positionMode": "fixed",
    "spacingMode": "proportional", "rotateMode": "ChainScale", "rotation": 9, "position": 8,
    "spacing": 7, "mixRotate": 0.1, "mixX": 0.2, "mixY": 0.3 },
  { "name": "ph", "type": "physics", "bone": "arm", "x": 1, "y": 0.5, "rotate": 0.25,
    "scaleX": 0.75, "scaleY": "uniform", "shearX": 0.125, "limit": 100, "fps": 30,
    "inertia": 0.4, "strength": 50, "damping": 0.9, "mass": 2, "wind": 1, "gravity": -2,
    "mix": 0.8, "inertiaGlobal": true, "mixGlobal": false },
  { "name": "sl", "type": "slider", "animation": "walk", "additive": true, "loop": true,
    "mix": 0.5, "time": 0.25 },
  { "name": "sb", "type": "slider", "animation": "walk", "bone": "hip", "property": "x",
    "from": 1, "to": 2, "scale": 3, "max": 4, "local": true, "time": 99 }
],
"skins": [
  { "name": "default", "attachments": {
    "body": {
      "body": { "path": "images/body", "x": 1, "y": 2, "scaleX": 3, "scaleY": 4, "rotation": 5,
                "width": 6, "height": 7, "color": "ff00ff00",
                "sequence": { "count": 3, "start": 2, "digits": 2, "setup": 1 } },
      "mesh": { "type": "mesh", "name": "m", "uvs": [0, 0, 1, 0, 1, 1], "triangles": [0, 1, 2],
                "vertices": [0, 0, 10, 0, 10, 10], "hull": 3, "edges": [0, 2, 2, 4, 4, 0],
                "width": 10, "height": 10, "color": "00ff00ff" },
      "wmesh": { "type": "mesh", "uvs": [0, 0, 1, 0, 1, 1], "triangles": [0, 1, 2], "hull": 3,
                 "vertices": [1, 0, 1, 2, 1, 2, 1, 3, 4, 0.5, 2, 3, 4, 0.5, 1, 0, 5, 6, 1] },
      "linked": { "type": "linkedmesh", "source": "mesh", "slot": "body", "skin": "default",
                  "timelines": false, "width": 3, "height": 4 },
      "bb": { "type": "boundingbox", "vertexCount": 3, "vertices": [0, 0, 1, 0, 1, 1],
              "color": "60f000ff" },
      "pt": { "type": "point", "x": 1, "y": 2, "rotation": 3, "color": "f1f100ff" }
    },
    "path": {
      "path": { "type": "path", "closed": true, "constantSpeed": false, "vertexCount": 6,
                "vertices": [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5], "lengths": [10, 20] }
    },
    "clip": {
      "clip": { "type": "clipping", "end": "body", "convex": true, "inverse": true,
                "vertexCount": 3, "vertices": [0, 0, 1, 0, 1, 1] }
    }
  }},
  { "name": "extra", "bones": ["hip"], "ik": ["ik1"], "transform": ["tc"], "path": ["pc"],
    "physics": ["ph"], "slider": ["sl"], "color": "fe9e4fff" }
],
"events": {
  "step": { "int": 1, "float": 2.5, "string": "s", "audio": "step.wav", "volume": 0.5,
            "balance": -0.5 },
  "plain": {}
},
"animations": {
  "walk": {
    "color": "ff8000ff",
    "slots": {
      "body": {
        "attachment": [ { "name": "body" }, { "time": 0.5 } ],
        "rgba": [ { "color": "ff0000ff", "curve": [0.1, 0, 0.9, 1, 0.1, 0, 0.9, 1, 0.1, 0, 0.9, 1,
                  0.1, 0, 0.9, 1] }, { "time": 1, "color": "00ff00ff" } ],
        "rgb": [ { "color": "ff0000" } ],
        "alpha": [ { "value": 0.5, "curve": "stepped" }, { "time": 1 } ],
        "rgba2": [ { "light": "ff0000ff", "dark": "00ff00" } ],
        "rgb2": [ { "light": "ff0000", "dark": "00ff00" } ]
      }
    },
    "bones": {
      "hip": {
        "rotate": [ { "value": 10, "curve": [0.25, 10, 0.75, 20] }, { "time": 1, "value": 20 } ],
        "translate": [ { "x": 1, "y": 2 } ],
        "translatex": [ { "value": 1 } ],
        "translatey": [ { "value": 1 } ],
        "scale": [ { "x": 1.5 } ],
        "scalex": [ { "value": 1 } ],
        "scaley": [ { "value": 1 } ],
        "shear": [ { "y": 3 } ],
        "shearx": [ { "value": 1 } ],
        "sheary": [ { "value": 1 } ],
        "inherit": [ { "inherit": "noRotationOrReflection" }, { "time": 0.5 } ],
        "rotate2": []
      }
    },
    "ik": { "ik1": [ { "mix": 0.5, "softness": 2, "bendPositive": false, "compress": true,
                       "stretch": true, "curve": "stepped" }, { "time": 1 } ] },
    "transform": { "tc": [ { "mixRotate": 0.5, "mixX": 0.25 } ], "empty": [] },
    "path": { "pc": { "position": [ { "value": 1 } ], "spacing": [ { "value": 2 } ],
                      "mix": [ { "mixRotate": 0.5, "mixX": 0.25, "mixY": 0.125 } ],
                      "other": [ { } ] } },
    "physics": { "ph": { "inertia": [ { "value": 1 } ], "strength": [ { "value": 1 } ],
                         "damping": [ { "value": 1 } ], "mass": [ { "value": 1 } ],
                         "wind": [ { "value": 1 } ], "gravity": [ { "value": 1 } ],
                         "mix": [ { "value": 1 } ], "reset": [ { "time": 0.5 } ] },
                 "": { "reset": [ { } ] } },
    "slider": { "sl": { "time": [ { "value": 0.5 } ], "mix": [ { "value": 0.25 } ] } },
    "attachments": { "default": { "body": {
      "mesh": { "deform": [ { "offset": 2, "vertices": [1, 1], "curve": [0.5, 0, 0.5, 1] },
                            { "time": 1 } ],
                "sequence": [ { "mode": "pingpongReverse", "index": 2, "delay": 0.1 },
                              { "time": 1 } ] } } } },
    "drawOrder": [ { "offsets": [ { "slot": "body", "offset": 1 } ] }, { "time": 1 } ],
    "drawOrderFolder": [ { "slots": ["body", "clip"],
                           "keys": [ { "offsets": [ { "slot": "clip", "offset": -1 } ] } ] } ],
    "events": [ { "time": 0.5, "name": "step", "int": 3, "float": 4, "string": "x",
                  "volume": 1, "balance": 0 } ]
  }
}
}"#;

#[test]
fn every_field_is_read_and_written_back() {
    let s = json43::parse(DOC).expect("the document parses");
    // A few facts, then the round trip.
    assert_eq!(s.info.reference_scale, Some(50.0));
    assert_eq!(s.bones[1].inherit, Some(spine_format::json::Inherit::NoScale));
    assert_eq!(s.bones[1].icon_size, Some(2.0));
    assert_eq!(s.slots[0].blend, Some(spine_format::json::BlendMode::Additive));
    assert_eq!(s.slots[0].dark, Some([0x10, 0x20, 0x30, 0xff]));
    assert_eq!(s.constraints.len(), 6);
    let ConstraintKind::Ik(ik) = &s.constraints[0].kind else { panic!("ik") };
    assert_eq!(ik.scale_y, Some(ScaleYMode::Volume));
    let ConstraintKind::Transform(t) = &s.constraints[1].kind else { panic!("transform") };
    // `x` is written twice: JSON.parse keeps the first position and the last value.
    let props: Vec<Property> = t.properties.iter().map(|f| f.property).collect();
    assert_eq!(props, [Property::Rotate, Property::ScaleX, Property::X]);
    assert_eq!(t.properties[2].offset, Some(2.0));
    assert_eq!(t.properties[2].to[0].property, Property::Rotate);
    assert_eq!(t.properties[0].to[1].property, Property::ShearY);
    assert_eq!(t.offsets, [Some(1.0), Some(2.0), Some(3.0), Some(4.0), Some(5.0), Some(6.0)]);
    assert_eq!(t.mixes, [Some(0.25), Some(0.5), None, None, None, Some(0.75)]);
    let ConstraintKind::Physics(p) = &s.constraints[3].kind else { panic!("physics") };
    assert_eq!(
        (p.scale_y, p.fps, p.global[0], p.global[6]),
        (Some(ScaleYMode::Uniform), Some(30.0), Some(true), Some(false))
    );
    let ConstraintKind::Slider(b) = &s.constraints[5].kind else { panic!("slider") };
    // With a bone, `time` is not read.
    assert_eq!(b.time, None);
    assert_eq!(b.bone.as_ref().map(|b| (b.property, b.max)), Some((Some(Property::X), Some(4.0))));
    let extra = s.skin("extra").unwrap();
    assert_eq!(extra.slider, ["sl"]);
    let a = s.animation("walk").unwrap();
    assert_eq!(a.color, Some([0xff, 0x80, 0, 0xff]));
    // Empty timelines are skipped, unknown path/physics timelines too.
    assert_eq!(a.slots[0].timelines.len(), 6);
    let empty =
        r#"{"animations": {"a": {"slots": {"s": {"rgba": []}}, "bones": {"b": {"x": []}}}}}"#;
    assert!(json43::parse(empty).unwrap().animations[0].bones[0].timelines.is_empty());
    assert!(
        matches!(&a.slots[0].timelines[1], SlotTimeline::Rgba(k) if matches!(k[0].curve, Some(Curve::Bezier(_))))
    );
    assert_eq!(a.bones[0].timelines.len(), 11);
    assert!(matches!(a.bones[0].timelines[10], BoneTimeline::Inherit(_)));
    assert_eq!(a.transform.len(), 1);
    assert_eq!(a.path[0].timelines.len(), 3);
    assert_eq!(a.physics.len(), 2);
    assert!(matches!(a.physics[1].timelines[0], PhysicsTimeline::Reset(_)));
    assert_eq!(a.physics[1].name, "");
    assert_eq!(a.slider[0].timelines.len(), 2);
    assert_eq!(a.attachments[0].timelines.len(), 2);
    assert_eq!(a.draw_order_folders[0].slots, ["body", "clip"]);
    assert_eq!(a.duration(), 1.0);
    let sum = s.summary();
    assert_eq!(sum.constraints.slider, 2);
    assert_eq!(sum.skins, ["default", "extra"]);
    // The editor's base64 hash is shown as the binary summaries show the same 8 bytes.
    assert_eq!(sum.hash, "c0ffee05eed002a");

    let text = json43::write(&s);
    let again = json43::parse(&text).expect("the written text parses");
    assert_eq!(again, s, "parse(write(x)) == x");
    assert_eq!(json43::write(&again), text, "the writer is deterministic");
}

#[test]
fn version_is_checked_and_sniffed() {
    assert_eq!(json43::declared_version(DOC).as_deref(), Some("4.3.39"));
    assert!(json43::is_43("4.3.39") && json43::is_43("4.3") && !json43::is_43("4.2.11"));
    assert!(!json43::is_43("4.30.1"));
    let e = json43::parse(r#"{"skeleton": {"spine": "4.2.11"}}"#).unwrap_err();
    assert_eq!(e.path, "skeleton.spine");
    // No declared version: read as 4.3.
    assert!(json43::parse(r#"{"bones": [{"name": "root"}]}"#).is_ok());
    let e = json43::parse("[1]").unwrap_err();
    assert_eq!(e.kind, JsonErrorKind::NotASkeleton);
}

#[test]
fn errors_name_the_json_path() {
    let cases = [
        (r#"{"constraints": [{"name": "c", "type": "spring"}]}"#, "constraints[0].type"),
        (r#"{"constraints": [{"name": "c", "type": "ik", "bones": []}]}"#, "constraints[0]"),
        (
            r#"{"constraints": [{"name": "c", "type": "transform", "source": "b", "properties": {"rot": {}}}]}"#,
            "constraints[0].properties.rot",
        ),
        (r#"{"constraints": [{"name": "c", "type": "slider"}]}"#, "constraints[0]"),
        (r#"{"bones": [{"name": "b", "inherit": "sideways"}]}"#, "bones[0].inherit"),
        (
            r#"{"skins": [{"name": "s", "attachments": {"a": {"r": {"width": 1}}}}]}"#,
            "skins[0].attachments.a.r",
        ),
        (
            r#"{"animations": {"a": {"bones": {"b": {"rotate": [{"curve": [1, 2]}, {}]}}}}}"#,
            "animations.a.bones.b.rotate[0].curve",
        ),
        (r#"{"animations": {"a": {"slots": {"s": {"tint": [{}]}}}}}"#, "animations.a.slots.s.tint"),
    ];
    for (text, path) in cases {
        let e = json43::parse(text).unwrap_err();
        assert_eq!(e.path, path, "{text}: {e}");
        assert_eq!(e.kind, JsonErrorKind::Invalid, "{text}");
    }
}

#[test]
fn limits_apply() {
    let limits = Limits { max_bones: 2, ..Limits::default() };
    let e = json43::parse_with_limits(DOC, &limits).unwrap_err();
    assert!(matches!(e.kind, JsonErrorKind::LimitExceeded { limit: "max_bones", .. }), "{e}");
    let limits = Limits { max_keyframes: 1, ..Limits::default() };
    let e = json43::parse_with_limits(DOC, &limits).unwrap_err();
    assert!(matches!(e.kind, JsonErrorKind::LimitExceeded { limit: "max_keyframes", .. }), "{e}");
    let limits = Limits { max_file_bytes: 100, ..Limits::default() };
    let e = json43::parse_with_limits(DOC, &limits).unwrap_err();
    assert!(matches!(e.kind, JsonErrorKind::LimitExceeded { .. }), "{e}");
}
