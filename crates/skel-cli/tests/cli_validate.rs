//! `skel validate` through the command line contract.

use std::process::Command;

fn skel(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skel")).args(args).output().expect("skel runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn valid_4_2_rigs_with_their_atlas_pass() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let files: Vec<String> = skel_testkit::files_with_suffix(&corpus.join("4.2"), ".skel")
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    let mut args = vec!["validate"];
    args.extend(files.iter().map(String::as_str));
    let (code, out, err) = skel(&args);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.lines().filter(|l| l.contains(": ok (atlas ")).count() + 1,
        files.len(),
        "{out}"
    );
    assert!(out.contains("spinosaurus-ess.skel: ok (geometry only)"), "{out}");
}

#[test]
fn truncated_and_bit_flipped_files_print_one_line_each_and_exit_1() {
    let dir = std::env::temp_dir().join(format!("skel-validate-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bytes =
        std::fs::read(skel_testkit::project_fixtures().join("spine-4.3/constraints.skel")).unwrap();
    let truncated = dir.join("truncated.skel");
    std::fs::write(&truncated, &bytes[..bytes.len() - 7]).unwrap();
    // Flip a bit of the version string's first character ('4' becomes '5').
    let mut flipped = bytes.clone();
    let at = flipped.windows(3).position(|w| w == b"4.3").expect("version string");
    flipped[at] ^= 0x01;
    let flipped_path = dir.join("flipped.skel");
    std::fs::write(&flipped_path, &flipped).unwrap();
    for (path, expect) in [(&truncated, "unexpected end of input"), (&flipped_path, "5.3")] {
        let (code, out, err) = skel(&["validate", "--no-atlas", path.to_str().unwrap()]);
        assert_eq!(code, 1, "{out}{err}");
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 1, "{err}");
        assert!(lines[0].starts_with(&format!("error: {}: ", path.display())), "{err}");
        assert!(lines[0].contains(expect), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_oversized_file_is_refused_before_reading() {
    let dir = std::env::temp_dir().join(format!("skel-oversized-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("huge.skel");
    let f = std::fs::File::create(&path).unwrap();
    // A sparse file over the default 64 MiB limit: nothing is written to disk.
    f.set_len((64 << 20) + 1).unwrap();
    let (code, out, err) = skel(&["validate", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(lines[0].contains("max_file_bytes"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
