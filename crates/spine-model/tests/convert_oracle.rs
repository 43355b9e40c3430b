//! Upgraded rigs in the official Spine 4.3 runtime: every corpus rig (3.5–4.2, `.skel` and
//! `.json`) converted to 4.3 binary and 4.3 JSON, loaded by `spine43-oracle` (spine-core
//! 4.3.13), posed at the times of the source version's goldens (`../shared/oracle/spine-<v>`,
//! the official runtime of that version) and compared bone by bone with them (tolerance
//! `1e-3 · max(1, |golden|)`, the oracle README's).
//!
//! Every converted file must load, and every differing bone must be explained by a semantic
//! difference the converter documents (`convert::upgrade`): 3.5/3.6 path constraints
//! (spine-c rules) or 3.5–3.7 IK, found by what can influence the bone (its constraints and
//! their sources, targets and path attachments, recursively). Match rates per version are
//! printed.
//!
//! Ignored by default (it needs node and the npm registry on first use, and takes minutes):
//! `cargo test -p spine-model --test convert_oracle -- --ignored --nocapture`. The oracle is
//! `../shared/tools/spine43-oracle/spine43-oracle` (env `SPINE43_ORACLE` overrides).

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use spine_model::convert::{self, Document, Format};
use spine_model::*;

fn oracle() -> PathBuf {
    std::env::var_os("SPINE43_ORACLE")
        .map(PathBuf::from)
        .unwrap_or_else(|| skel_testkit::shared_dir().join("tools/spine43-oracle/spine43-oracle"))
}

fn close(ours: f64, theirs: f64) -> bool {
    (ours - theirs).abs() <= 1e-3 * theirs.abs().max(1.0)
}

/// A set of constraint types.
type Set = u8;

fn bit(ty: ConstraintType) -> Set {
    match ty {
        ConstraintType::Ik => 1,
        ConstraintType::Transform => 2,
        ConstraintType::Path => 4,
        ConstraintType::Physics => 8,
        ConstraintType::Slider => 16,
    }
}

/// Constraint types that can influence each bone (recursively through ancestors, constraint
/// sources and targets, and the bones a path attachment is weighted to).
fn influences(d: &SkeletonData) -> Vec<Set> {
    let n = d.bones.len();
    // Direct: (constraint type, the bones whose pose feeds it).
    let mut feeds: Vec<Vec<(ConstraintType, Vec<usize>)>> = vec![Vec::new(); n];
    for c in &d.constraints {
        let (ty, bones, inputs): (ConstraintType, Vec<BoneId>, Vec<usize>) = match &c.kind {
            ConstraintKind::Ik(k) => (ConstraintType::Ik, k.bones.clone(), vec![k.target.index()]),
            ConstraintKind::Transform(t) => {
                (ConstraintType::Transform, t.bones.clone(), vec![t.source.index()])
            }
            ConstraintKind::Path(p) => {
                let mut inputs = vec![d.slot(p.slot).bone.index()];
                for s in &d.skins {
                    for e in s.slot_entries(p.slot) {
                        if let AttachmentKind::Path(pa) = &d.attachment(e.attachment).kind {
                            if let Vertices::Weighted(w) = &pa.vertices {
                                inputs.extend(w.bones().iter().map(|b| b.index()));
                            }
                        }
                    }
                }
                (ConstraintType::Path, p.bones.clone(), inputs)
            }
            ConstraintKind::Physics(p) => (ConstraintType::Physics, vec![p.bone], Vec::new()),
            ConstraintKind::Slider(_) => continue,
        };
        for b in bones {
            feeds[b.index()].push((ty, inputs.clone()));
        }
    }
    let mut memo: Vec<Option<Set>> = vec![None; n];
    fn visit(
        i: usize,
        d: &SkeletonData,
        feeds: &[Vec<(ConstraintType, Vec<usize>)>],
        memo: &mut Vec<Option<Set>>,
        stack: &mut Vec<bool>,
    ) -> Set {
        if let Some(s) = memo[i] {
            return s;
        }
        if stack[i] {
            return 0;
        }
        stack[i] = true;
        let mut set = 0;
        if let Some(p) = d.bones[i].parent {
            set |= visit(p.index(), d, feeds, memo, stack);
        }
        for (ty, inputs) in &feeds[i] {
            set |= bit(*ty);
            for &j in inputs {
                set |= visit(j, d, feeds, memo, stack);
            }
        }
        stack[i] = false;
        memo[i] = Some(set);
        set
    }
    let mut stack = vec![false; n];
    (0..n).map(|i| visit(i, d, &feeds, &mut memo, &mut stack)).collect()
}

/// The documented cause of a difference in `bone`, if any.
fn cause(d: &SkeletonData, infl: &[Set], bone: usize) -> Option<&'static str> {
    let b = &d.behaviour;
    let i = infl[bone];
    if b.path_scales_every_spacing && i & bit(ConstraintType::Path) != 0 {
        Some("3.5/3.6 path constraints (spine-c spacing/tangent rules)")
    } else if b.ik_without_inherit && i & bit(ConstraintType::Ik) != 0 {
        Some("3.5-3.7 IK (no inherit handling, parent posed from local rotation)")
    } else {
        None
    }
}

#[derive(Default)]
struct Tally {
    files: usize,
    loaded: usize,
    samples: usize,
    matched: usize,
    rigs_all: usize,
    causes: BTreeMap<&'static str, usize>,
}

#[test]
#[ignore = "needs the official 4.3 runtime (node); minutes"]
fn upgraded_rigs_pose_like_their_goldens_in_the_official_43_runtime() {
    let (Some(corpus), Some(goldens)) = (skel_testkit::spine_corpus(), skel_testkit::oracle_dir())
    else {
        return;
    };
    let tmp = std::env::temp_dir().join(format!("skel-convert-oracle-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut files = skel_testkit::files_with_suffix(&corpus, ".skel");
    files.extend(skel_testkit::files_with_suffix(&corpus, ".json"));
    files.sort();
    let mut tally: BTreeMap<(String, &str), Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    for path in &files {
        let rel = path.strip_prefix(&corpus).unwrap_or(path);
        let version = rel.iter().next().unwrap().to_string_lossy().to_string();
        let golden = goldens
            .join(format!("spine-{version}"))
            .join(rel.parent().and_then(Path::file_name).unwrap())
            .join(format!("{}.json", rel.file_name().unwrap().to_string_lossy()));
        let golden = std::fs::read_to_string(&golden).ok();
        if golden.is_none() {
            eprintln!(
                "{}: no golden (the official runtime of its version could not load it); \
                 only loading is checked",
                rel.display()
            );
        }
        let bytes = std::fs::read(path).unwrap();
        let source = Document::parse(&bytes).and_then(|d| Ok(d.load()?)).unwrap();
        let infl = influences(&source);
        for (format, ext) in [(Format::Binary, "skel"), (Format::Json, "json")] {
            let t = tally.entry((version.clone(), ext)).or_default();
            t.files += 1;
            let out = match convert::convert(&bytes, "4.3", format) {
                Ok(o) => o.bytes,
                Err(e) => {
                    failures.push(format!("{} [{ext}]: {e}", rel.display()));
                    continue;
                }
            };
            let file = tmp.join(format!("{}.{ext}", rel.display().to_string().replace('/', "_")));
            std::fs::write(&file, out).unwrap();
            let result = tmp.join("golden.json");
            let status = Command::new(oracle())
                .args(["pose"])
                .arg(&file)
                .args(["--samples", "10", "--vertices", "none", "--out"])
                .arg(&result)
                .status()
                .expect("the oracle runs");
            if !matches!(status.code(), Some(0 | 3)) {
                failures.push(format!(
                    "{} [{ext}]: the official 4.3 runtime did not load it",
                    rel.display()
                ));
                continue;
            }
            t.loaded += 1;
            let Some(golden) = golden.as_deref() else { continue };
            let golden: Value = serde_json::from_str(golden).unwrap();
            let ours: Value =
                serde_json::from_str(&std::fs::read_to_string(&result).unwrap()).unwrap();
            let (mut n, mut ok) = (0, 0);
            for (anim, g) in golden["pose"].as_object().unwrap() {
                let samples = g["samples"].as_array().unwrap();
                let theirs = ours["pose"][anim]["samples"].as_array().cloned().unwrap_or_default();
                for (i, s) in samples.iter().enumerate() {
                    if s.get("error").is_some() {
                        continue;
                    }
                    n += 1;
                    let Some(o) = theirs.get(i).filter(|o| o.get("error").is_none()) else {
                        failures.push(format!("{} [{ext}] {anim}[{i}]: no sample", rel.display()));
                        continue;
                    };
                    let degenerate: HashSet<u64> = o["degenerate"]
                        .as_array()
                        .map(|a| a.iter().filter_map(Value::as_u64).collect())
                        .unwrap_or_default();
                    let mut bad = Vec::new();
                    let gb = s["bones"].as_array().unwrap();
                    let ob = o["bones"].as_array().unwrap();
                    for (b, (x, y)) in gb.iter().zip(ob).enumerate() {
                        if degenerate.contains(&(b as u64)) {
                            continue;
                        }
                        let same = match (x.as_array(), y.as_array()) {
                            (Some(x), Some(y)) => {
                                x.iter().zip(y).all(|(p, q)| match (p.as_f64(), q.as_f64()) {
                                    (Some(p), Some(q)) => close(q, p),
                                    (p, q) => p.is_none() && q.is_none(),
                                })
                            }
                            (x, y) => x.is_none() == y.is_none(),
                        };
                        if !same {
                            bad.push(b);
                        }
                    }
                    if bad.is_empty() {
                        ok += 1;
                        continue;
                    }
                    let mut explained = true;
                    for &b in &bad {
                        match cause(&source, &infl, b) {
                            Some(c) => *t.causes.entry(c).or_default() += 1,
                            None => {
                                explained = false;
                                failures.push(format!(
                                    "{} [{ext}] {anim} t={}: bone {:?} differs, unexplained",
                                    rel.display(),
                                    s["t"],
                                    source.bones[b].name
                                ));
                            }
                        }
                    }
                    let _ = explained;
                }
            }
            t.samples += n;
            t.matched += ok;
            if ok == n {
                t.rigs_all += 1;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    eprintln!("version format: loaded/files, pose samples matching, rigs matching everywhere");
    for ((v, ext), t) in &tally {
        let pct = 100.0 * t.matched as f64 / t.samples.max(1) as f64;
        eprintln!(
            "{v} {ext}: {}/{} loaded, {}/{} samples ({pct:.1}%), {} rigs; differing bones by cause: {:?}",
            t.loaded, t.files, t.matched, t.samples, t.rigs_all, t.causes
        );
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
