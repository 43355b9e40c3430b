//! 4.3 JSON: every generated 4.3 binary (`fixtures/spine-4.3`) written as its JSON twin
//! (`convert::v43_json::to_json`), that JSON written as text and parsed back to the same AST
//! (`parse(write(x)) == x`), and resolved to the same `SkeletonData` as the binary; the twin's
//! summary (`skel info`) equals the binary's; and JSON → binary → JSON is a fixed point.
//!
//! The generator writes what no editor export holds and JSON cannot (JSON object keys are
//! unique; see `convert::v43_json`): a bone, slot or constraint with two timelines of one
//! type in one animation, a transform source property listed twice, random mesh timeline
//! slots. Animations with such duplicates and transform constraints with duplicate source
//! properties are left out of the data comparison (and counted); everything else must be
//! equal.

use std::path::PathBuf;

use spine_format::binary::v43 as w;
use spine_format::binary::{self, SkeletonFile};
use spine_format::json43;
use spine_model::convert::v43_json;
use spine_model::*;

fn fixtures() -> Vec<PathBuf> {
    let dir = skel_testkit::workspace_root().join("fixtures/spine-4.3");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixtures/spine-4.3 exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "skel"))
        .collect();
    v.sort();
    assert!(!v.is_empty());
    v
}

/// The data with what JSON cannot tell apart normalised: skin constraint lists are sets (the
/// JSON lists them per type).
/// Whether an animation holds what JSON cannot (see the module docs).
fn has_duplicates(a: &w::Animation) -> bool {
    use std::collections::HashSet;
    use std::mem::discriminant;
    let mut seen = HashSet::new();
    let mut dup = false;
    // A name in two groups (JSON merges them, which reorders the timelines).
    let mut groups = HashSet::new();
    for s in &a.slots {
        dup |= !groups.insert(("slot", s.slot));
    }
    for b in &a.bones {
        dup |= !groups.insert(("bone", b.bone));
    }
    for p in &a.path {
        dup |= !groups.insert(("path", p.constraint));
    }
    for p in &a.physics {
        dup |= !groups.insert(("physics", p.constraint.map_or(u32::MAX, |c| c)));
    }
    for p in &a.slider {
        dup |= !groups.insert(("slider", p.constraint));
    }
    for s in &a.slots {
        for t in &s.timelines {
            dup |= !seen.insert(("slot", s.slot, format!("{:?}", discriminant(t))));
        }
    }
    for b in &a.bones {
        for t in &b.timelines {
            dup |= !seen.insert(("bone", b.bone, format!("{:?}", discriminant(t))));
        }
    }
    for t in &a.ik {
        dup |= !seen.insert(("ik", t.constraint, String::new()));
    }
    for t in &a.transform {
        dup |= !seen.insert(("transform", t.constraint, String::new()));
    }
    for p in &a.path {
        for t in &p.timelines {
            dup |= !seen.insert(("path", p.constraint, format!("{:?}", discriminant(t))));
        }
    }
    for p in &a.physics {
        for t in &p.timelines {
            let k = match t {
                w::PhysicsTimeline::Property(prop, _) => format!("{prop:?}"),
                w::PhysicsTimeline::Reset(_) => "reset".into(),
            };
            dup |= !seen.insert(("physics", p.constraint.map_or(u32::MAX, |c| c), k));
        }
    }
    for p in &a.slider {
        for t in &p.timelines {
            dup |= !seen.insert(("slider", p.constraint, format!("{:?}", discriminant(t))));
        }
    }
    let mut atts = HashSet::new();
    for s in &a.attachments {
        for sl in &s.slots {
            for at in &sl.attachments {
                let kind = matches!(at.kind, w::AttachmentTimelineKind::Deform(_));
                dup |= !atts.insert((s.skin, sl.slot, at.attachment, kind));
            }
        }
    }
    dup
}

/// Transform constraints (by index) with a source property listed twice.
fn duplicate_froms(s: &w::Skeleton) -> Vec<usize> {
    s.constraints
        .iter()
        .enumerate()
        .filter(|(_, c)| match &c.kind {
            w::ConstraintKind::Transform(t) => {
                let props: Vec<_> =
                    t.properties.iter().filter(|f| !f.to.is_empty()).map(|f| f.property).collect();
                (1..props.len()).any(|i| props[..i].contains(&props[i]))
            }
            _ => false,
        })
        .map(|(i, _)| i)
        .collect()
}

fn normalise(
    mut d: SkeletonData,
    timeline_slots: &mut usize,
    masses: &mut Vec<f32>,
    skip_anims: &[usize],
    skip_froms: &[usize],
) -> SkeletonData {
    for &i in skip_anims {
        d.animations[i].timelines.clear();
        d.animations[i].keys.clear();
        d.animations[i].duration = 0.0;
    }
    for &i in skip_froms {
        if let ConstraintKind::Transform(t) = &mut d.constraints[i].kind {
            t.properties.clear();
        }
    }
    for s in &mut d.skins {
        s.constraints.sort();
    }
    for c in &mut d.constraints {
        match &mut c.kind {
            ConstraintKind::Transform(t) => {
                // The JSON loader keeps only source properties with targets, and reads a
                // mix only for a property some target writes.
                t.properties.retain(|f| !f.to.is_empty());
                let mut written = [false; 6];
                for f in &t.properties {
                    for to in &f.to {
                        written[to.property as usize] = true;
                    }
                }
                for (m, w) in t.mixes.iter_mut().zip(written) {
                    if !w {
                        *m = 0.0;
                    }
                }
            }
            ConstraintKind::Physics(p) => {
                // `mass` is written as a decimal whose inverse is within JSON rounding
                // (compared apart).
                masses.push(p.mass_inverse);
                p.mass_inverse = 0.0;
            }
            ConstraintKind::Slider(s) => {
                // A bone drives the time; `local` is only read with a bone.
                if s.bone.is_some() {
                    s.time = 0.0;
                } else {
                    s.local = false;
                }
            }
            _ => {}
        }
    }
    // The generator draws mesh timeline slots at random; JSON has no field for them (the
    // loader derives them from linked meshes).
    for a in &mut d.attachments {
        if let AttachmentKind::Mesh(m) = &mut a.kind {
            if !m.timeline_slots.is_empty() {
                *timeline_slots += 1;
            }
            m.timeline_slots.clear();
        }
    }
    d
}

#[test]
fn generated_43_binaries_have_json_twins_that_load_the_same() {
    let mut failures = Vec::new();
    let (mut skipped_animations, mut skipped_froms) = (0, 0);
    for path in fixtures() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(&path).unwrap();
        let SkeletonFile::V43(bin) = binary::parse(&bytes).unwrap() else { panic!("{name}") };
        let json = v43_json::to_json(&bin);
        let text = json43::write(&json);
        let again = match json43::parse(&text) {
            Ok(a) => a,
            Err(e) => {
                failures.push(format!("{name}: written JSON does not parse: {e}"));
                continue;
            }
        };
        if again != json {
            failures.push(format!("{name}: parse(write(x)) != x"));
        }
        let skip_anims: Vec<usize> =
            (0..bin.animations.len()).filter(|&i| has_duplicates(&bin.animations[i])).collect();
        let skip_froms = duplicate_froms(&bin);
        skipped_animations += skip_anims.len();
        eprintln!(
            "{name}: {} animations, with duplicates {skip_anims:?}, duplicate froms {skip_froms:?}",
            bin.animations.len()
        );
        skipped_froms += skip_froms.len();
        let mut sum_json = again.summary();
        let mut sum_bin = bin.summary();
        for &i in &skip_anims {
            sum_json.animations[i].duration = 0.0;
            sum_bin.animations[i].duration = 0.0;
        }
        if sum_json != sum_bin {
            failures.push(format!(
                "{name}: summaries differ:\n{:?}\n{:?}",
                again.summary(),
                bin.summary()
            ));
        }
        let from_bin =
            SkeletonData::from_binary(&SkeletonFile::V43(bin.clone()), &LoadOptions::default());
        let from_json = SkeletonData::from_json43(&again, &LoadOptions::default());
        match (from_bin, from_json) {
            (Ok(a), Ok(b)) => {
                let (mut n, mut ma, mut mb) = (0, Vec::new(), Vec::new());
                let a = normalise(a, &mut n, &mut ma, &skip_anims, &skip_froms);
                let b = normalise(b, &mut n, &mut mb, &skip_anims, &skip_froms);
                let close = ma.len() == mb.len()
                    && ma.iter().zip(&mb).all(|(x, y)| (x - y).abs() <= 1e-6 * x.abs().max(1.0));
                if !close {
                    failures.push(format!("{name}: inverse masses {ma:?} vs {mb:?}"));
                }
                if a != b {
                    let fa = format!("{a:#?}");
                    let fb = format!("{b:#?}");
                    if let Ok(dir) = std::env::var("JSON43_DUMP") {
                        let _ = std::fs::write(format!("{dir}/{name}.bin.txt"), &fa);
                        let _ = std::fs::write(format!("{dir}/{name}.json.txt"), &fb);
                    }
                    let diff: Vec<String> = fa
                        .lines()
                        .zip(fb.lines())
                        .enumerate()
                        .filter(|(_, (x, y))| x != y)
                        .take(6)
                        .map(|(i, (x, y))| format!("  line {i}: bin {x} | json {y}"))
                        .collect();
                    failures.push(format!("{name}: SkeletonData differs:\n{}", diff.join("\n")));
                }
            }
            (a, b) => failures.push(format!(
                "{name}: load results differ: binary {:?} json {:?}",
                a.err(),
                b.err()
            )),
        }
        // JSON → binary → JSON is a fixed point.
        match v43_json::from_json(&again) {
            Ok(b2) => {
                let j2 = v43_json::to_json(&b2);
                if j2 != again {
                    let (t1, t2) = (json43::write(&again), json43::write(&j2));
                    let diff: Vec<String> = t1
                        .lines()
                        .zip(t2.lines())
                        .enumerate()
                        .filter(|(_, (x, y))| x != y)
                        .take(4)
                        .map(|(i, (x, y))| format!("  line {i}: {x} | {y}"))
                        .collect();
                    failures.push(format!(
                        "{name}: JSON → binary → JSON changes the JSON:\n{}",
                        diff.join("\n")
                    ));
                }
                let b3 = binary::parse(&binary::write(&SkeletonFile::V43(b2.clone())));
                if !matches!(&b3, Ok(SkeletonFile::V43(x)) if *x == b2) {
                    failures.push(format!("{name}: converted binary does not read back"));
                }
            }
            Err(p) => failures.push(format!("{name}: JSON → binary: {p:?}")),
        }
    }
    eprintln!(
        "left out of the data comparison: {skipped_animations} animations with duplicate \
         timelines, {skipped_froms} transform constraints with a duplicate source property"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Hostile 4.3 JSON: mutated twins of the generated fixtures (numbers changed to large,
/// negative or fractional values, names changed, keys dropped) never make the reader, the
/// resolver or the JSON → binary conversion panic; they load or are refused with problems.
#[test]
fn mutated_43_json_never_panics() {
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut loaded, mut refused) = (0, 0);
    for path in fixtures() {
        if path.file_name().is_some_and(|n| n.to_string_lossy().starts_with("showcase")) {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let SkeletonFile::V43(bin) = binary::parse(&bytes).unwrap() else { unreachable!() };
        let text = json43::write(&v43_json::to_json(&bin));
        let lines: Vec<&str> = text.lines().collect();
        for _ in 0..150 {
            let mut out = lines.clone();
            let i = next() as usize % out.len();
            let owned;
            let replacement = match next() % 5 {
                // A number becomes another.
                0 => ["99999", "-1", "0.5", "1e30", "-70000"][next() as usize % 5],
                // A name becomes an unknown one.
                1 => "\"nope\"",
                // The line disappears (a key and value, or a bracket: then a syntax error).
                2 => "",
                3 => "[]",
                _ => "{}",
            };
            let line = out[i];
            out[i] = match line.find(": ") {
                Some(c) if !replacement.is_empty() => {
                    let end = if line.trim_end().ends_with(',') { "," } else { "" };
                    owned = format!("{}: {replacement}{end}", &line[..c]);
                    &owned
                }
                _ => "",
            };
            let mutated = out.join("\n");
            let result = std::panic::catch_unwind(|| {
                let Ok(j) = json43::parse(&mutated) else { return false };
                let ok = SkeletonData::from_json43(&j, &LoadOptions::default()).is_ok();
                let _ = v43_json::from_json(&j).map(|b| binary::write(&SkeletonFile::V43(b)));
                ok
            });
            match result {
                Ok(true) => loaded += 1,
                Ok(false) => refused += 1,
                Err(_) => {
                    panic!("{}: panicked on line {i} mutated to {:?}", path.display(), out[i])
                }
            }
        }
    }
    eprintln!("{loaded} mutated files loaded, {refused} refused");
    assert!(loaded > 0 && refused > 0);
}
