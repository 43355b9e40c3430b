//! Every `.skel` of the shared corpus parses with every byte consumed and writes back
//! byte-identically. One test over the whole corpus that lists every failure before failing.
//!
//! `SKEL_CORPUS_VERSIONS=4.0,4.1` limits the run to some version folders (for local work).

use spine_format::binary;

#[test]
fn every_corpus_skel_parses_fully_and_round_trips() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let only: Option<Vec<String>> = std::env::var("SKEL_CORPUS_VERSIONS")
        .ok()
        .map(|v| v.split(',').map(|s| s.trim().to_owned()).collect());
    let files = skel_testkit::files_with_suffix(&corpus, ".skel");
    assert!(!files.is_empty(), "no .skel files under {}", corpus.display());
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in &files {
        let rel = path.strip_prefix(&corpus).unwrap_or(path).display().to_string();
        if let Some(only) = &only {
            if !only.iter().any(|v| rel.starts_with(&format!("{v}/"))) {
                continue;
            }
        }
        checked += 1;
        let bytes = std::fs::read(path).expect("corpus file is readable");
        match binary::parse(&bytes) {
            Err(e) => failures.push(format!("{rel}: parse: {e}")),
            Ok(ast) => {
                let written = binary::write(&ast);
                if written != bytes {
                    let at = written.iter().zip(&bytes).position(|(a, b)| a != b);
                    failures.push(format!(
                        "{rel}: round trip differs (first difference at byte {:?}; {} vs {} bytes)",
                        at.unwrap_or(written.len().min(bytes.len())),
                        written.len(),
                        bytes.len()
                    ));
                } else if binary::parse(&written).as_ref() != Ok(&ast) {
                    failures.push(format!("{rel}: re-parse of the written bytes differs"));
                }
            }
        }
    }
    eprintln!("{checked} .skel files checked, {} failed", failures.len());
    if let Some(only) = &only {
        eprintln!("SKEL_CORPUS_VERSIONS limited the run to {only:?}");
    }
    assert!(checked > 0, "no .skel file checked (SKEL_CORPUS_VERSIONS = {only:?})");
    assert!(
        failures.is_empty(),
        "{} of {checked} files failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn corpus_versions_are_detected_from_the_header() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let mut failures = Vec::new();
    for path in skel_testkit::files_with_suffix(&corpus, ".skel") {
        let rel = path.strip_prefix(&corpus).unwrap_or(&path).display().to_string();
        let folder = rel.split('/').next().unwrap_or_default().to_owned();
        let bytes = std::fs::read(&path).expect("corpus file is readable");
        match binary::detect(&bytes) {
            Err(e) => failures.push(format!("{rel}: {e}")),
            // The 3.5 folder holds files declaring 3.5.x; every other folder matches its branch.
            Ok(h) if !h.version.starts_with(&format!("{folder}.")) => {
                failures.push(format!("{rel}: detected {:?} in folder {folder}", h.version))
            }
            Ok(_) => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn unsupported_versions_name_the_version_found() {
    // A 4.x-style header declaring 5.0.1.
    let mut bytes = vec![0u8; 8];
    bytes.push(6);
    bytes.extend_from_slice(b"5.0.1");
    let e = binary::parse(&bytes).unwrap_err();
    let msg = e.to_string();
    assert!(msg.contains("\"5.0.1\"") && msg.contains("3.5, 3.6"), "{msg}");
    // A 3.x-style header declaring 2.1.27.
    let mut bytes = vec![3u8, b'a', b'b', 7];
    bytes.extend_from_slice(b"2.1.27");
    let msg = binary::parse(&bytes).unwrap_err().to_string();
    assert!(msg.contains("\"2.1.27\""), "{msg}");
}
