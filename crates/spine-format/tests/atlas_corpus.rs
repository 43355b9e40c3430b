//! Every `.atlas` of the shared corpus parses (one test listing every failure), plus facts
//! read from real files of both syntaxes.

use spine_format::atlas::{self, Rotate};
use std::path::Path;

fn read(corpus: &Path, rel: &str) -> atlas::Atlas {
    let text = std::fs::read_to_string(corpus.join(rel)).expect("corpus atlas is readable");
    atlas::parse(&text).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn every_corpus_atlas_parses() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let files = skel_testkit::files_with_suffix(&corpus, ".atlas");
    assert!(!files.is_empty(), "no .atlas files under {}", corpus.display());
    let mut failures = Vec::new();
    let mut regions = 0;
    for path in &files {
        let rel = path.strip_prefix(&corpus).unwrap_or(path).display().to_string();
        let text = std::fs::read_to_string(path).expect("corpus atlas is readable");
        match atlas::parse(&text) {
            Err(e) => failures.push(format!("{rel}: {e}")),
            Ok(a) if a.pages.is_empty() => failures.push(format!("{rel}: no pages")),
            Ok(a) => {
                regions += a.regions().count();
                for (p, r) in a.regions() {
                    let [_, _, w, h] = r.bounds();
                    if p.size.is_none() || w <= 0 || h <= 0 {
                        failures.push(format!("{rel}: region {:?} has no size", r.name));
                    }
                }
            }
        }
    }
    eprintln!("{} .atlas files, {regions} regions, {} failed", files.len(), failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn spineboy_3x_syntax_facts() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let a = read(&corpus, "3.5/spineboy/spineboy.atlas");
    assert_eq!(a.pages.len(), 1);
    let p = &a.pages[0];
    assert_eq!(p.name, "spineboy.png");
    assert_eq!((p.width(), p.height()), (1024, 1024));
    assert_eq!(p.format.as_deref(), Some("RGBA8888"));
    assert_eq!(p.filters(), ("Linear", "Linear"));
    assert_eq!(p.repeat_uv(), (false, false));
    // The file starts with a blank line; the first region follows the page entries.
    assert_eq!(p.line, 2);
    let (_, r) = a.find_region("eye_indifferent").expect("eye_indifferent");
    assert_eq!(r.rotate, Some(Rotate::Bool(true)));
    assert_eq!(r.degrees(), 90);
    assert_eq!(r.bounds(), [648, 629, 93, 89]);
    assert_eq!(r.offsets(), [0, 0, 93, 89]);
    assert_eq!(r.index(), -1);
    let (_, r) = a.find_region("front_bracer").expect("front_bracer");
    assert_eq!((r.degrees(), r.bounds()), (0, [245, 2, 58, 80]));
}

#[test]
fn spineboy_4x_syntax_facts() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let a = read(&corpus, "4.2/spineboy/spineboy.atlas");
    assert_eq!(a.pages.len(), 1);
    let p = &a.pages[0];
    assert_eq!(p.name, "spineboy.png");
    assert_eq!(p.size, Some([1024, 256]));
    assert_eq!(p.scale, Some(0.5));
    assert!(!p.pma());
    assert_eq!(p.regions.len(), 40);
    let (_, r) = a.find_region("front-fist-open").expect("front-fist-open");
    assert_eq!(r.rotate, Some(Rotate::Degrees(90)));
    assert_eq!(r.bounds(), [710, 51, 43, 44]);
    let (_, r) = a.find_region("crosshair").expect("crosshair");
    assert_eq!((r.degrees(), r.bounds(), r.offsets()), (0, [352, 7, 45, 45], [0, 0, 45, 45]));

    // A sequence of numbered regions sharing one name.
    let a = read(&corpus, "4.2/spineboy/spineboy-run.atlas");
    assert!(a.pages[0].pma());
    let (_, r8) = a.find_region_index("spineboy-pro-run", 8).expect("index 8");
    assert_eq!(r8.bounds(), [2, 369, 302, 314]);
    assert_eq!(r8.offsets(), [12, 22, 316, 341]);
    let (_, r9) = a.find_region_index("spineboy-pro-run", 9).expect("index 9");
    assert_eq!(r9.offsets(), [30, 2, 316, 341]);
    assert!(a.find_region_index("spineboy-pro-run", 99).is_none());
}

#[test]
fn damaged_atlases_error_without_panicking() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    for rel in ["3.5/spineboy/spineboy.atlas", "4.2/spineboy/spineboy-run.atlas"] {
        let text = std::fs::read_to_string(corpus.join(rel)).expect("corpus atlas is readable");
        let bytes = text.as_bytes();
        let mut errors = 0;
        for i in (1..bytes.len()).step_by(7) {
            for sub in [b':', b',', b'\n', b'x'] {
                let mut m = bytes.to_vec();
                m[i] = sub;
                if let Ok(t) = std::str::from_utf8(&m) {
                    if let Err(e) = atlas::parse(t) {
                        errors += 1;
                        assert!(e.line >= 1 && e.line <= t.lines().count() + 1, "{rel}: {e}");
                    }
                }
            }
        }
        assert!(errors > 0, "{rel}: some damage must be detected");
    }
}
