//! Binary ⇄ JSON within a version, on every Spine file of the shared corpus (3.5–4.2, the
//! 147 `.skel` and 147 `.json` exports): each file is converted to the other format of its
//! own version (`convert::convert`), and
//! * the converted file's summary (`skel info`) equals the source's: version, hash, bone and
//!   slot counts, skins, constraint counts, events, animation names and durations;
//! * the converted file loads (`spine-model`, as the official runtime of that version loads
//!   it) to the same `SkeletonData` as the source, so every pose is the same, except for the
//!   documented differences in `RULES`, each a place where one format cannot say what the
//!   other says, or where that version's JSON loader reads something differently from its
//!   binary loader.

use spine_model::convert::{self, Document, Format};
use spine_model::*;

const RULES: &str = "\
1. 3.8 JSON `skin` flags: spine-cpp 3.8 reads them as false (Json::getBoolean); a 3.8 binary's
   skin-required bones and constraints are written but load as not skin-required from JSON.
2. 4.0 JSON rgba2 keys: spine-cpp 4.0 reads the dark green as the dark red; compared without
   the dark red.
3. Alpha keys (4.x): JSON holds a float, the binary a byte: JSON -> binary rounds to 1/255.
4. The physics inverse mass: JSON holds `mass` (the loader inverts it); within 1e-6.
5. 3.7/3.8 setup dark colors: spine-cpp 3.7/3.8 SkeletonBinary reads the dark-color int one
   byte off, SkeletonJson does not; compared without setup dark colors.";

fn corpus_files() -> Option<Vec<std::path::PathBuf>> {
    let corpus = skel_testkit::spine_corpus()?;
    let mut files = skel_testkit::files_with_suffix(&corpus, ".skel");
    files.extend(skel_testkit::files_with_suffix(&corpus, ".json"));
    files.sort();
    Some(files)
}

/// The summary (`skel info`'s fields).
fn info(bytes: &[u8]) -> Result<String, String> {
    let doc = Document::parse(bytes).map_err(|e| e.to_string())?;
    let s = match &doc {
        Document::Binary(f) => f.summary(),
        Document::Json(j) => j.summary(),
        Document::Json43(j) => j.summary(),
    };
    Ok(format!("{s:?}"))
}

fn load(bytes: &[u8]) -> Result<SkeletonData, String> {
    match Document::parse(bytes).map_err(|e| e.to_string())? {
        Document::Binary(f) => {
            SkeletonData::from_binary(&f, &LoadOptions::default()).map_err(|e| e.to_string())
        }
        Document::Json(j) => {
            SkeletonData::from_json(&j, &LoadOptions::default()).map_err(|e| e.to_string())
        }
        Document::Json43(j) => {
            SkeletonData::from_json43(&j, &LoadOptions::default()).map_err(|e| e.to_string())
        }
    }
}

/// Applies the rules to one side's data (`json`: the side loaded from JSON).
fn normalise(mut d: SkeletonData, version: (u32, u32)) -> SkeletonData {
    d.hash.clear();
    // Editor-only: a bone color the JSON leaves out is the default one.
    let default_color = Color::from_bytes([0x98, 0x98, 0x98, 0xff]);
    for b in &mut d.bones {
        if b.color == Some(default_color) {
            b.color = None;
        }
    }
    // Editor-only colors of bounding boxes, paths, points and clipping polygons: a binary
    // with nonessential data always has one, a JSON export leaves it out when it is the
    // default.
    for a in &mut d.attachments {
        match &mut a.kind {
            AttachmentKind::BoundingBox(x) => x.color = None,
            AttachmentKind::Path(x) => x.color = None,
            AttachmentKind::Point(x) => x.color = None,
            AttachmentKind::Clipping(x) => x.color = None,
            _ => {}
        }
    }
    for s in &mut d.skins {
        s.color = None;
    }
    // Rule 5.
    if version == (3, 7) || version == (3, 8) {
        d.slots.iter_mut().for_each(|s| s.dark_color = s.dark_color.map(|_| Color::WHITE));
    }
    // Rule 1: compared without skin-required flags in 3.8.
    if version == (3, 8) {
        d.bones.iter_mut().for_each(|b| b.skin_required = false);
        d.constraints.iter_mut().for_each(|c| c.skin_required = false);
    }
    for c in &mut d.constraints {
        if let ConstraintKind::Physics(p) = &mut c.kind {
            // Rule 4.
            p.mass_inverse = (p.mass_inverse * 1e5).round();
        }
    }
    for a in &mut d.animations {
        let keys = &mut a.keys;
        for t in &a.timelines {
            if let Timeline::Color { property, curves, .. } = t {
                let table = curves.table(keys);
                let n = table.frame_count();
                let stride = table.stride();
                let start = curves.start as usize;
                for k in 0..n {
                    let base = start + k * stride + 1;
                    match property {
                        // Rule 3: alpha in bytes.
                        ColorProperty::Alpha => keys[base] = (keys[base] * 255.0).round(),
                        // Rule 2.
                        ColorProperty::Rgba2 if version == (4, 0) => keys[base + 4] = 0.0,
                        _ => {}
                    }
                }
            }
        }
    }
    d
}

fn first_diff(a: &SkeletonData, b: &SkeletonData) -> String {
    let (fa, fb) = (format!("{a:#?}"), format!("{b:#?}"));
    let la: Vec<&str> = fa.lines().collect();
    let lb: Vec<&str> = fb.lines().collect();
    let i = la.iter().zip(&lb).position(|(x, y)| x != y).unwrap_or(la.len().min(lb.len()));
    let ctx = |l: &[&str]| l[i.saturating_sub(6)..(i + 2).min(l.len())].join("\n");
    format!("line {i}:\n--- source\n{}\n--- converted\n{}", ctx(&la), ctx(&lb))
}

#[test]
fn every_corpus_file_converts_within_its_version() {
    let Some(files) = corpus_files() else { return };
    let corpus = skel_testkit::spine_corpus().unwrap();
    assert!(files.len() >= 294, "{} files", files.len());
    let mut failures = Vec::new();
    let (mut converted, mut equal) = (0, 0);
    for path in &files {
        let rel = path.strip_prefix(&corpus).unwrap_or(path).display().to_string();
        let bytes = std::fs::read(path).unwrap();
        let doc = match Document::parse(&bytes) {
            Ok(d) => d,
            Err(e) => {
                failures.push(format!("{rel}: does not parse: {e}"));
                continue;
            }
        };
        let version = convert::version_pair(&doc.version()).unwrap_or((0, 0));
        let to = format!("{}.{}", version.0, version.1);
        let format = match doc {
            Document::Binary(_) => Format::Json,
            _ => Format::Binary,
        };
        let out = match convert::convert(&bytes, &to, format) {
            Ok(o) => o.bytes,
            Err(e) => {
                failures.push(format!("{rel}: conversion failed: {e}"));
                continue;
            }
        };
        converted += 1;
        match (info(&bytes), info(&out)) {
            (Ok(a), Ok(b)) if a == b => {}
            (a, b) => failures.push(format!("{rel}: info differs:\n  {a:?}\n  {b:?}")),
        }
        match (load(&bytes), load(&out)) {
            (Ok(a), Ok(b)) => {
                let (a, b) = (normalise(a, version), normalise(b, version));
                if a == b {
                    equal += 1;
                } else {
                    failures.push(format!("{rel}: data differs at {}", first_diff(&a, &b)));
                }
            }
            (Err(e), _) => eprintln!("{rel}: the source does not load ({e}); not compared"),
            (Ok(_), Err(e)) => {
                failures.push(format!("{rel}: the converted file does not load: {e}"))
            }
        }
    }
    eprintln!("{converted} files converted, {equal} load to equal data; rules:\n{RULES}");
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n\n"));
}
