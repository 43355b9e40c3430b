//! `load_json` (which streams each animation from the parsed document into the skeleton)
//! builds exactly what `SkeletonData::from_json` builds from the whole raw AST, and fails
//! exactly as parsing first does, for every 3.5–4.2 JSON rig of the corpus and for damaged
//! copies of some. Both feed the same animation builder (the reader directly, or the AST's
//! replay), so this pins the order of the sink calls and where each error surfaces (in the
//! head, before any animation, or mid-animation); what the builder makes is pinned by the
//! oracle suites and by `twins.rs` (JSON and binary exports load alike). `load_json` also
//! streams the skins too, taking the meshes' arrays where `from_json` copies them from the
//! caller's AST: the comparison covers that, and skins listed with `default` last (which the
//! reader reads whole first, then feeds default-first).

use std::path::{Path, PathBuf};

use spine_format::atlas::Atlas;
use spine_model::files::discover_atlas;
use spine_model::{load_json, LoadError, LoadOptions, SkeletonData};

fn jsons() -> Vec<PathBuf> {
    let Some(dir) = skel_testkit::spine_corpus() else { return Vec::new() };
    let mut files = Vec::new();
    for v in ["3.5", "3.6", "3.7", "3.8", "4.0", "4.1", "4.2"] {
        files.extend(skel_testkit::files_with_suffix(&dir.join(v), ".json"));
    }
    files
}

/// Parse the whole text, then convert (the AST replayed into the animation builder).
fn parse_then_convert(text: &str, atlas: Option<&Atlas>) -> Result<SkeletonData, LoadError> {
    let options = LoadOptions { scale: 1.0, atlas, atlas_name: "atlas", ..Default::default() };
    let s = spine_format::json::parse(text)?;
    SkeletonData::from_json(&s, &options)
}

fn same(
    f: &Path,
    parsed: Result<SkeletonData, LoadError>,
    streamed: Result<SkeletonData, LoadError>,
) {
    match (parsed, streamed) {
        (Ok(p), Ok(s)) => assert!(p == s, "{}: the two paths differ", f.display()),
        (Err(p), Err(s)) => assert_eq!(format!("{p:?}"), format!("{s:?}"), "{}", f.display()),
        (p, s) => panic!("{}: {:?} vs {:?}", f.display(), p.is_ok(), s.is_ok()),
    }
}

#[test]
fn streamed_load_equals_parse_then_convert() {
    let (mut checked, mut with_atlas) = (0, 0);
    for f in jsons() {
        let text = std::fs::read_to_string(&f).unwrap();
        let atlas = discover_atlas(&f)
            .map(|p| spine_format::atlas::parse(&std::fs::read_to_string(p).unwrap()).unwrap());
        for atlas in [atlas.as_ref(), None] {
            same(&f, parse_then_convert(&text, atlas), load_json(&text, atlas));
            with_atlas += usize::from(atlas.is_some());
            checked += 1;
        }
    }
    if skel_testkit::spine_corpus().is_some() {
        assert!(
            checked >= 250 && with_atlas >= 100,
            "only {checked} loads ({with_atlas} with atlas)"
        );
    }
}

/// Damaged text (cut short, a byte changed, a value's type changed, a name changed) gives
/// the same error or problems, or the same data, either way: the animations are the last part
/// the reader reads, so streaming them meets the first error where parsing does.
#[test]
fn streamed_load_of_damaged_text_matches_parse_then_convert() {
    let mut checked = 0;
    const PICKED: [&str; 5] = [
        "3.5/spineboy/spineboy.json",
        "3.8/spineboy/spineboy-pro.json",
        "4.2/spineboy/spineboy-pro.json",
        "4.2/tank/tank-pro.json",
        "4.2/celestial-circus/celestial-circus-pro.json",
    ];
    let picked: Vec<PathBuf> =
        jsons().into_iter().filter(|f| PICKED.iter().any(|p| f.ends_with(p))).collect();
    if skel_testkit::spine_corpus().is_some() {
        assert_eq!(picked.len(), PICKED.len(), "{picked:?}");
    }
    for f in picked {
        let text = std::fs::read_to_string(&f).unwrap();
        let step = (text.len() / 60).max(1);
        let mut variants: Vec<String> = Vec::new();
        for at in (0..text.len()).step_by(step).filter(|&at| text.is_char_boundary(at)) {
            variants.push(text[..at].to_owned());
            let mut bytes = text.clone().into_bytes();
            if bytes[at].is_ascii() {
                bytes[at] ^= 0x5a;
                variants.extend(String::from_utf8(bytes).ok());
            }
            // The next number becomes a string, the next name a different name.
            if let Some(n) = text[at..].find(|c: char| c.is_ascii_digit()).map(|n| n + at) {
                let rest = &text[n..];
                let end = rest.find([',', '}', ']', '\n']).unwrap_or(rest.len());
                variants.push(format!("{}\"{}\"{}", &text[..n], &rest[..end], &rest[end..]));
            }
            if let Some(n) = text[at..].find("\"name\": \"").map(|n| n + at + 9) {
                variants.push(format!("{}x{}", &text[..n], &text[n..]));
            }
        }
        for t in &variants {
            same(&f, parse_then_convert(t, None), load_json(t, None));
            checked += 1;
        }
    }
    if skel_testkit::spine_corpus().is_some() {
        assert!(checked >= 1100, "only {checked} damaged loads");
    }
}

/// Skins listed with `default` last (written back by the JSON writer, skins reordered): the
/// same data as parse-then-convert (the default skin first in both), and the same errors on
/// copies cut short or with a byte changed, both in the 3.8+ array form and the 3.5–3.7
/// object form.
#[test]
fn default_skin_listed_last_loads_as_parse_then_convert() {
    let mut checked = 0;
    let picked: Vec<PathBuf> = jsons()
        .into_iter()
        .filter(|f| {
            f.ends_with("4.2/mix-and-match/mix-and-match-pro.json")
                || f.ends_with("3.7/goblins/goblins-pro.json")
        })
        .collect();
    if skel_testkit::spine_corpus().is_some() {
        assert_eq!(picked.len(), 2, "{picked:?}");
    }
    for f in picked {
        let mut s = spine_format::json::parse(&std::fs::read_to_string(&f).unwrap()).unwrap();
        assert!(s.skins.len() > 1 && s.skins[0].name == "default", "{}", f.display());
        s.skins.rotate_left(1);
        let text = spine_format::json::write(&s);
        let loaded = load_json(&text, None).unwrap();
        assert_eq!(loaded.skins[0].name, "default", "{}", f.display());
        assert_eq!(loaded.default_skin.map(|d| d.index()), Some(0));
        same(&f, parse_then_convert(&text, None), Ok(loaded));
        let step = (text.len() / 40).max(1);
        for at in (0..text.len()).step_by(step).filter(|&at| text.is_char_boundary(at)) {
            let mut bytes = text.clone().into_bytes();
            bytes[at] ^= 0x5a;
            let flipped = String::from_utf8(bytes).ok();
            for t in [Some(text[..at].to_owned()), flipped].into_iter().flatten() {
                same(&f, parse_then_convert(&t, None), load_json(&t, None));
                checked += 1;
            }
        }
    }
    if skel_testkit::spine_corpus().is_some() {
        assert!(checked >= 120, "only {checked} damaged loads");
    }
}
