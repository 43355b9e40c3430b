//! Deterministic robustness sweeps over real files: every prefix of a few small corpus files of
//! each version, and a few thousand random byte flips of each, through `binary::parse`. Each
//! ends in `Ok` or a typed error (a panic fails the test); accepted inputs must round-trip.
//!
//! These complement the cargo-fuzz targets under `fuzz/` with fixed seeds and bounded time.

use spine_format::binary;

/// SplitMix64: a tiny deterministic PRNG so the sweep is the same on every run.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

/// The two smallest `.skel` files of each version folder.
fn sample_files() -> Option<Vec<(String, Vec<u8>)>> {
    let corpus = skel_testkit::spine_corpus()?;
    let mut out = Vec::new();
    let mut versions: Vec<_> = std::fs::read_dir(&corpus)
        .expect("corpus folder is readable")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    versions.sort();
    for v in versions {
        let mut files: Vec<_> = skel_testkit::files_with_suffix(&v, ".skel")
            .into_iter()
            .map(|p| (std::fs::metadata(&p).map(|m| m.len()).unwrap_or(u64::MAX), p))
            .collect();
        files.sort();
        for (_, p) in files.into_iter().take(2) {
            let rel = p.strip_prefix(&corpus).unwrap_or(&p).display().to_string();
            out.push((rel, std::fs::read(&p).expect("corpus file is readable")));
        }
    }
    Some(out)
}

/// Parses, and when accepted checks the round trip; returns whether it was accepted.
fn check(bytes: &[u8]) -> Result<bool, String> {
    match binary::parse(bytes) {
        Ok(ast) => {
            if binary::write(&ast) == bytes {
                Ok(true)
            } else {
                Err("accepted input does not round-trip".into())
            }
        }
        Err(e) => {
            let msg = e.to_string();
            if msg.is_empty() || e.offset > bytes.len() {
                Err(format!("malformed error {e:?}"))
            } else {
                Ok(false)
            }
        }
    }
}

#[test]
fn every_prefix_of_small_corpus_files_is_rejected_cleanly() {
    let Some(files) = sample_files() else { return };
    let mut failures = Vec::new();
    for (name, bytes) in &files {
        for len in 0..bytes.len() {
            match check(&bytes[..len]) {
                Ok(true) => failures.push(format!("{name}: prefix of {len} bytes was accepted")),
                Ok(false) => {}
                Err(e) => failures.push(format!("{name}: prefix of {len} bytes: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn random_byte_flips_end_in_ok_or_a_typed_error() {
    let Some(files) = sample_files() else { return };
    let mut rng = SplitMix64(0x5eed);
    let mut failures = Vec::new();
    let mut accepted = 0usize;
    let mut total = 0usize;
    for (name, bytes) in &files {
        let mut buf = bytes.clone();
        for _ in 0..1500 {
            buf.copy_from_slice(bytes);
            let flips = 1 + (rng.next() % 4) as usize;
            for _ in 0..flips {
                let i = (rng.next() % buf.len() as u64) as usize;
                buf[i] ^= 1 << (rng.next() % 8);
            }
            total += 1;
            match check(&buf) {
                Ok(true) => accepted += 1,
                Ok(false) => {}
                Err(e) => failures.push(format!("{name}: {e}")),
            }
        }
    }
    eprintln!(
        "{total} mutated inputs, {accepted} accepted (and round-tripped), the rest typed errors"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Regression (found by the `binary_roundtrip` fuzz target): a file whose floats are NaN
/// still writes back byte for byte; ASTs holding NaN are not `==` to themselves, so
/// round-trip checks compare bytes, not ASTs.
#[test]
fn nan_floats_round_trip_byte_for_byte() {
    let path = skel_testkit::project_fixtures().join("spine-4.3/physics.skel");
    let mut bytes = std::fs::read(path).expect("generated fixture");
    // 4.3 header: 8 hash bytes, the version string, then the bounds floats x, y, w, h.
    let version_len = usize::from(bytes[8]) - 1;
    let x_at = 9 + version_len;
    bytes[x_at..x_at + 4].copy_from_slice(&0x7fc0_1234u32.to_be_bytes());
    let ast = binary::parse(&bytes).expect("NaN is a valid float");
    assert_eq!(binary::write(&ast), bytes);
    let again = binary::parse(&binary::write(&ast)).expect("re-parses");
    assert_eq!(binary::write(&again), bytes);
}
