//! Generated 4.3 skeletons: property round trips, the committed fixtures (no drift, full
//! parse, coverage of every section / enum value / flag bit), and snapshots of their outline.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;

use spine_format::binary::shared::CurveType;
use spine_format::binary::v43::{self, *};
use spine_format::binary::{self, SkeletonFile};

fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/spine-4.3")
}

#[test]
fn random_skeletons_round_trip() {
    let mut total = 0;
    for seed in 0..256u64 {
        let ast = spine_gen::random_skeleton(seed);
        let bytes = v43::write(&ast);
        total += bytes.len();
        let parsed = match v43::parse(&bytes) {
            Ok(p) => p,
            Err(e) => panic!("seed {seed}: {e}"),
        };
        assert_eq!(parsed, ast, "seed {seed}: parse(write(ast)) != ast");
        assert_eq!(v43::write(&parsed), bytes, "seed {seed}: write(parse(write(ast))) differs");
    }
    assert!(total > 256 * 200, "random skeletons are not trivially small ({total} bytes)");
}

#[test]
fn generator_is_deterministic() {
    assert_eq!(
        v43::write(&spine_gen::random_skeleton(7)),
        v43::write(&spine_gen::random_skeleton(7))
    );
    assert_ne!(
        v43::write(&spine_gen::random_skeleton(7)),
        v43::write(&spine_gen::random_skeleton(8))
    );
}

#[test]
fn committed_fixtures_match_the_generator_and_parse_fully() {
    for (name, ast) in spine_gen::named_fixtures() {
        let path = fixtures_dir().join(format!("{name}.skel"));
        let committed = std::fs::read(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (run `cargo xtask gen-fixtures`)", path.display()));
        let generated = v43::write(&ast);
        assert!(
            committed == generated,
            "{name}: the committed fixture drifted from the generator; run `cargo xtask gen-fixtures`"
        );
        // Through the version-dispatching entry point, every byte consumed.
        let parsed = match binary::parse(&committed) {
            Ok(SkeletonFile::V43(s)) => s,
            Ok(other) => {
                panic!("{name}: detected as another generation: {:?}", other.summary().version)
            }
            Err(e) => panic!("{name}: {e}"),
        };
        assert_eq!(parsed, ast, "{name}: parse differs from the generated AST");
        assert_eq!(binary::write(&SkeletonFile::V43(parsed)), committed, "{name}: write differs");
    }
}

#[test]
fn showcase_pro_is_a_meaningful_benchmark_input() {
    let bytes = std::fs::read(fixtures_dir().join("showcase-pro.skel")).expect("fixture exists");
    assert!((100_000..=300_000).contains(&bytes.len()), "size {}", bytes.len());
    let s = v43::parse(&bytes).expect("parses");
    assert!(s.nonessential());
    assert!(s.bones.len() >= 100 && s.slots.len() >= 50 && s.animations.len() >= 10);
    let ess =
        v43::parse(&std::fs::read(fixtures_dir().join("showcase-ess.skel")).unwrap()).unwrap();
    assert!(!ess.nonessential());
}

/// Everything the fixtures exercise, as readable tags.
fn coverage(s: &Skeleton, out: &mut BTreeSet<String>) {
    let mut tag = |t: String| {
        out.insert(t);
    };
    tag(format!("nonessential:{}", s.nonessential()));
    for b in &s.bones {
        tag(format!("inherit:{:?}", b.inherit));
    }
    for sl in &s.slots {
        tag(format!("blend:{:?}", sl.blend));
        tag(format!("dark:{}", sl.dark_rgb().is_some()));
    }
    let bits = |name: &str, f: u8, tag: &mut dyn FnMut(String)| {
        for b in 0..8 {
            if f & (1 << b) != 0 {
                tag(format!("{name}.bit{b}"));
            }
        }
    };
    for c in &s.constraints {
        match &c.kind {
            ConstraintKind::Ik(k) => {
                bits("ik", k.flags, &mut tag);
                if let Some(m) = k.scale_y_mode {
                    tag(format!("ik.scaleYMode:{m:?}"));
                }
            }
            ConstraintKind::Path(p) => {
                bits("path", p.flags, &mut tag);
                tag(format!(
                    "path:{:?}/{:?}/{:?}",
                    p.position_mode(),
                    p.spacing_mode(),
                    p.rotate_mode()
                ));
                tag(format!("path.spacing:{:?}", p.spacing_mode()));
                tag(format!("path.rotate:{:?}", p.rotate_mode()));
            }
            ConstraintKind::Transform(t) => {
                bits("transform", t.flags, &mut tag);
                bits("transform.offsets", t.offset_flags, &mut tag);
                bits("transform.mixes", t.mix_flags, &mut tag);
                tag(format!("transform.from:{}", t.properties.len()));
                for f in &t.properties {
                    tag(format!("property:{:?}", f.property));
                    for to in &f.to {
                        tag(format!("property:{:?}", to.property));
                    }
                }
            }
            ConstraintKind::Physics(p) => {
                bits("physics", p.flags, &mut tag);
                bits("physics.global", p.global_flags, &mut tag);
                if p.scale_x.is_some() {
                    tag(format!("physics.scaleYMode:{:?}", p.scale_x_and_mode().1));
                }
            }
            ConstraintKind::Slider(sl) => {
                bits("slider", sl.flags, &mut tag);
                if let Some(b) = &sl.bone {
                    tag(format!("property:{:?}", b.property));
                }
            }
        }
    }
    let skins = s.default_skin.iter().chain(s.skins.iter().map(|k| &k.slots));
    for slots in skins {
        for e in slots.iter().flat_map(|s| &s.attachments) {
            let a = &e.attachment;
            let ty = match &a.kind {
                AttachmentKind::Region(_) => "region",
                AttachmentKind::BoundingBox(b) => {
                    tag(format!("bbox.weighted:{}", b.vertices.is_weighted()));
                    "bbox"
                }
                AttachmentKind::Mesh(m) => {
                    tag(format!("mesh.weighted:{}", m.vertices.is_weighted()));
                    "mesh"
                }
                AttachmentKind::LinkedMesh(_) => "linkedmesh",
                AttachmentKind::Path(p) => {
                    tag(format!("path-att.weighted:{}", p.vertices.is_weighted()));
                    "path-att"
                }
                AttachmentKind::Point(_) => "point",
                AttachmentKind::Clipping(c) => {
                    tag(format!("clipping.weighted:{}", c.vertices.is_weighted()));
                    "clipping"
                }
            };
            bits(ty, a.flags & !7, &mut tag);
        }
    }
    for e in &s.events {
        tag(format!("event.audio:{}", e.has_audio()));
    }
    for a in &s.animations {
        let curves = |c: &[CurveType], tag: &mut dyn FnMut(String)| {
            for c in c {
                tag(format!("curve:{c:?}"));
            }
        };
        for t in a.slots.iter().flat_map(|s| &s.timelines) {
            let n = match t {
                SlotTimeline::Attachment(_) => "attachment",
                SlotTimeline::Rgba(c) => {
                    curves(&c.curves().collect::<Vec<_>>(), &mut tag);
                    "rgba"
                }
                SlotTimeline::Rgb(_) => "rgb",
                SlotTimeline::Rgba2(_) => "rgba2",
                SlotTimeline::Rgb2(_) => "rgb2",
                SlotTimeline::Alpha(_) => "alpha",
            };
            tag(format!("slot-timeline:{n}"));
        }
        for t in a.bones.iter().flat_map(|s| &s.timelines) {
            let d = format!("{t:?}");
            tag(format!("bone-timeline:{}", d.split('(').next().unwrap_or_default()));
        }
        for t in &a.ik {
            tag("ik-timeline".into());
            for k in &t.keys {
                bits("ik-key", k.flags, &mut tag);
            }
        }
        if !a.transform.is_empty() {
            tag("transform-timeline".into());
        }
        for t in a.path.iter().flat_map(|s| &s.timelines) {
            let d = format!("{t:?}");
            tag(format!("path-timeline:{}", d.split('(').next().unwrap_or_default()));
        }
        for p in &a.physics {
            tag(format!("physics-timeline.all:{}", p.constraint.is_none()));
            for t in &p.timelines {
                match t {
                    PhysicsTimeline::Property(p, _) => tag(format!("physics-timeline:{p:?}")),
                    PhysicsTimeline::Reset(_) => tag("physics-timeline:Reset".into()),
                }
            }
        }
        for t in a.slider.iter().flat_map(|s| &s.timelines) {
            let d = format!("{t:?}");
            tag(format!("slider-timeline:{}", d.split('(').next().unwrap_or_default()));
        }
        for t in a.attachments.iter().flat_map(|s| &s.slots).flat_map(|s| &s.attachments) {
            match &t.kind {
                AttachmentTimelineKind::Deform(d) => {
                    tag("deform".into());
                    curves(&d.curves, &mut tag);
                    if d.keys.iter().any(|k| k.values.is_none()) {
                        tag("deform.setup-key".into());
                    }
                }
                AttachmentTimelineKind::Sequence(keys) => {
                    for k in keys {
                        tag(format!("sequence-mode:{:?}", k.mode));
                    }
                }
            }
        }
        for k in &a.draw_order {
            tag(format!("draw-order.empty:{}", k.changes.is_empty()));
            if k.changes.iter().any(|c| c.shift < 0) {
                tag("draw-order.negative-shift".into());
            }
        }
        if !a.draw_order_folders.is_empty() {
            tag("draw-order-folder".into());
        }
        for e in &a.events {
            tag(format!("event-key.volume:{}", e.volume_balance.is_some()));
        }
    }
}

#[test]
fn fixtures_cover_every_section_enum_value_and_flag_bit() {
    let mut seen = BTreeSet::new();
    for (_, ast) in spine_gen::named_fixtures() {
        coverage(&ast, &mut seen);
    }
    let mut want: Vec<String> = Vec::new();
    let mut add = |s: &str| want.push(s.to_owned());
    for s in ["nonessential:true", "nonessential:false", "dark:true", "dark:false"] {
        add(s);
    }
    for s in
        ["Normal", "OnlyTranslation", "NoRotationOrReflection", "NoScale", "NoScaleOrReflection"]
    {
        add(&format!("inherit:{s}"));
    }
    for s in ["Normal", "Additive", "Multiply", "Screen"] {
        add(&format!("blend:{s}"));
    }
    for s in ["None", "Uniform", "Volume"] {
        add(&format!("ik.scaleYMode:{s}"));
        add(&format!("physics.scaleYMode:{s}"));
    }
    for s in ["Rotate", "X", "Y", "ScaleX", "ScaleY", "ShearY"] {
        add(&format!("property:{s}"));
    }
    for s in ["Length", "Fixed", "Percent", "Proportional"] {
        add(&format!("path.spacing:{s}"));
    }
    for s in ["Tangent", "Chain", "ChainScale"] {
        add(&format!("path.rotate:{s}"));
    }
    for b in 0..8 {
        for f in ["ik", "path", "physics", "physics.global", "slider", "ik-key"] {
            add(&format!("{f}.bit{b}"));
        }
        if b < 6 {
            add(&format!("transform.offsets.bit{b}"));
            add(&format!("transform.mixes.bit{b}"));
        }
        if b < 5 {
            add(&format!("transform.bit{b}"));
        }
        if b >= 3 {
            for t in ["region", "mesh", "linkedmesh", "bbox", "path-att", "point", "clipping"] {
                add(&format!("{t}.bit{b}"));
            }
        }
    }
    for t in ["bbox", "mesh", "path-att", "clipping"] {
        add(&format!("{t}.weighted:true"));
        add(&format!("{t}.weighted:false"));
    }
    for s in ["attachment", "rgba", "rgb", "rgba2", "rgb2", "alpha"] {
        add(&format!("slot-timeline:{s}"));
    }
    for s in [
        "Rotate",
        "Translate",
        "TranslateX",
        "TranslateY",
        "Scale",
        "ScaleX",
        "ScaleY",
        "Shear",
        "ShearX",
        "ShearY",
        "Inherit",
    ] {
        add(&format!("bone-timeline:{s}"));
    }
    for s in ["Position", "Spacing", "Mix"] {
        add(&format!("path-timeline:{s}"));
    }
    for s in ["Inertia", "Strength", "Damping", "Mass", "Wind", "Gravity", "Mix", "Reset"] {
        add(&format!("physics-timeline:{s}"));
    }
    for s in ["Time", "Mix"] {
        add(&format!("slider-timeline:{s}"));
    }
    for s in ["Hold", "Once", "Loop", "PingPong", "OnceReverse", "LoopReverse", "PingPongReverse"] {
        add(&format!("sequence-mode:{s}"));
    }
    for s in ["Linear", "Stepped", "Bezier"] {
        add(&format!("curve:{s}"));
    }
    for s in [
        "ik-timeline",
        "transform-timeline",
        "physics-timeline.all:true",
        "physics-timeline.all:false",
        "deform",
        "deform.setup-key",
        "draw-order.empty:true",
        "draw-order.empty:false",
        "draw-order.negative-shift",
        "draw-order-folder",
        "event.audio:true",
        "event.audio:false",
        "event-key.volume:true",
        "event-key.volume:false",
    ] {
        add(s);
    }
    let missing: Vec<&String> = want.iter().filter(|w| !seen.contains(*w)).collect();
    assert!(missing.is_empty(), "the fixtures never exercise: {missing:?}");
}

/// A compact outline: summary, then per-section counts.
fn outline(s: &Skeleton, detail: bool) -> String {
    let sum = s.summary();
    let mut o = String::new();
    let _ =
        writeln!(o, "version {} hash {} nonessential {}", sum.version, sum.hash, s.nonessential());
    let _ = writeln!(o, "strings {} bones {} slots {}", s.strings.len(), sum.bones, sum.slots);
    let c = sum.constraints;
    let _ = writeln!(
        o,
        "constraints ik {} transform {} path {} physics {} slider {}",
        c.ik, c.transform, c.path, c.physics, c.slider
    );
    let atts: usize = s
        .default_skin
        .iter()
        .chain(s.skins.iter().map(|k| &k.slots))
        .flat_map(|v| v.iter())
        .map(|sl| sl.attachments.len())
        .sum();
    let _ = writeln!(o, "skins {:?} attachments {atts}", sum.skins);
    let _ = writeln!(o, "events {:?}", sum.events);
    let _ = writeln!(o, "animations {}", sum.animations.len());
    for a in s.animations.iter().take(if detail { usize::MAX } else { 5 }) {
        let _ = writeln!(
            o,
            "  {} duration {} timelines {}: slots {} bones {} ik {} transform {} path {} physics {} slider {} attachments {} draw-order {} folders {} events {}",
            a.name,
            a.duration(),
            a.timeline_hint,
            a.slots.len(),
            a.bones.len(),
            a.ik.len(),
            a.transform.len(),
            a.path.len(),
            a.physics.len(),
            a.slider.len(),
            a.attachments.len(),
            a.draw_order.len(),
            a.draw_order_folders.len(),
            a.events.len()
        );
    }
    for (i, c) in s.constraints.iter().enumerate() {
        if let ConstraintKind::Slider(sl) = &c.kind {
            let _ = writeln!(o, "slider {i} {:?} -> animation {}", c.name, sl.animation);
        }
    }
    o
}

#[test]
fn fixture_outlines() {
    for (name, ast) in spine_gen::named_fixtures() {
        let detail = !name.starts_with("showcase");
        insta::assert_snapshot!(format!("outline-{name}"), outline(&ast, detail));
    }
}
