//! Upgrades: every Spine file of the shared corpus (3.5–4.2, `.skel` and `.json`) converted to
//! 4.3 (binary and JSON) and, below 4.2, to 4.2 (binary and JSON) with `convert::convert`.
//! Each output parses, loads, and keeps the rig: bones (names, parents, setup transforms),
//! slots, skins and their entries, constraints (names, types, update order), events,
//! animations (names, durations); the 4.3 binary and the 4.3 JSON load to the same data.
//! Downgrades are refused.
//!
//! Whether the upgraded rigs *play* the same is measured against the official runtimes'
//! goldens by `tests/convert_oracle.rs` (ignored by default: it needs node for the official
//! 4.3 runtime).

use spine_model::convert::{self, ConvertError, Document, Format};
use spine_model::*;

fn load(bytes: &[u8]) -> Result<SkeletonData, String> {
    Document::parse(bytes).map_err(|e| e.to_string())?.load().map_err(|e| e.to_string())
}

/// What must survive an upgrade, as comparable text.
fn outline(d: &SkeletonData) -> Vec<String> {
    let mut out = Vec::new();
    for b in &d.bones {
        out.push(format!(
            "bone {} {:?} {:?}",
            b.name,
            b.parent.map(|p| &d.bone(p).name),
            // `+ 0.0`: a JSON export writes no `-0`.
            [b.x, b.y, b.rotation, b.scale_x, b.scale_y, b.shear_x, b.shear_y, b.length]
                .map(|v| v + 0.0)
        ));
        out.push(format!("  {:?} {}", b.inherit, b.skin_required));
    }
    for s in &d.slots {
        out.push(format!(
            "slot {} {} {:?} {:?} {:?}",
            s.name,
            d.bone(s.bone).name,
            s.attachment,
            s.blend,
            s.dark_color.is_some()
        ));
    }
    for c in &d.constraints {
        out.push(format!("constraint {} {} {}", c.name, c.kind.constraint_type(), c.skin_required));
    }
    for s in &d.skins {
        let mut entries: Vec<String> = s
            .entries
            .iter()
            .map(|e| {
                format!("{}/{}={}", d.slot(e.slot).name, e.name, d.attachment(e.attachment).name)
            })
            .collect();
        entries.sort();
        out.push(format!(
            "skin {} {} bones {} constraints {:?}",
            s.name,
            entries.join(","),
            s.bones.len(),
            s.constraints.len()
        ));
    }
    for e in &d.events {
        out.push(format!(
            "event {} {} {} {:?} {:?}",
            e.name, e.int_value, e.float_value, e.string_value, e.audio_path
        ));
    }
    for a in &d.animations {
        out.push(format!("animation {} {} timelines", a.name, a.timelines.len()));
        out.push(format!("  duration {}", a.duration));
    }
    out
}

fn diff(a: &[String], b: &[String]) -> String {
    match a.iter().zip(b).position(|(x, y)| x != y) {
        Some(i) => format!("source {:?}\n  converted {:?}", a[i], b[i]),
        None => format!("{} vs {} lines", a.len(), b.len()),
    }
}

#[test]
fn every_corpus_rig_upgrades_to_42_and_43() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let mut files = skel_testkit::files_with_suffix(&corpus, ".skel");
    files.extend(skel_testkit::files_with_suffix(&corpus, ".json"));
    files.sort();
    let mut failures = Vec::new();
    let mut count = 0;
    for path in &files {
        let rel = path.strip_prefix(&corpus).unwrap_or(path).display().to_string();
        let bytes = std::fs::read(path).unwrap();
        let Ok(source) = load(&bytes) else {
            eprintln!("{rel}: the source does not load; skipped");
            continue;
        };
        let version = convert::version_pair(&source.behaviour.version).unwrap_or((0, 0));
        let expected = outline(&source);
        let mut targets = vec!["4.3"];
        if version < (4, 2) {
            targets.push("4.2");
        }
        for to in targets {
            let mut loaded = Vec::new();
            for format in [Format::Binary, Format::Json] {
                count += 1;
                let out = match convert::convert(&bytes, to, format) {
                    Ok(o) => o,
                    Err(e) => {
                        failures.push(format!("{rel} -> {to} {format:?}: {e}"));
                        continue;
                    }
                };
                let d = match load(&out.bytes) {
                    Ok(d) => d,
                    Err(e) => {
                        failures.push(format!("{rel} -> {to} {format:?}: does not load: {e}"));
                        continue;
                    }
                };
                if !d.behaviour.version.starts_with(to) {
                    failures
                        .push(format!("{rel} -> {to} {format:?}: version {}", d.behaviour.version));
                }
                let got = outline(&d);
                if got != expected {
                    failures.push(format!("{rel} -> {to} {format:?}: {}", diff(&expected, &got)));
                }
                loaded.push(d);
            }
            if let [b, j] = &mut loaded[..] {
                // The hash is the same 8 bytes, shown hex from binary and base64 from JSON.
                b.hash.clear();
                j.hash.clear();
                if b != j {
                    let (fb, fj) = (format!("{b:#?}"), format!("{j:#?}"));
                    let line = fb.lines().zip(fj.lines()).find(|(x, y)| x != y);
                    failures.push(format!(
                        "{rel} -> {to}: the binary and the JSON load differently: {line:?}"
                    ));
                }
            }
        }
    }
    eprintln!("{count} upgrades checked");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn downgrades_are_refused() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let bytes = std::fs::read(corpus.join("4.2/spineboy/spineboy-pro.skel")).unwrap();
    for to in ["4.1", "3.8", "3.5"] {
        match convert::convert(&bytes, to, Format::Json) {
            Err(ConvertError::Downgrade { .. }) => {}
            other => panic!("4.2 -> {to}: {other:?}"),
        }
    }
    let sk = std::fs::read(skel_testkit::workspace_root().join("fixtures/spine-4.3/physics.skel"))
        .unwrap();
    assert!(matches!(
        convert::convert(&sk, "4.2", Format::Binary),
        Err(ConvertError::Downgrade { .. })
    ));
    // 3.x to another 3.x is not an upgrade this converter makes.
    let old = std::fs::read(corpus.join("3.5/spineboy/spineboy.skel")).unwrap();
    assert!(matches!(
        convert::convert(&old, "3.8", Format::Binary),
        Err(ConvertError::Unsupported(_))
    ));
}
