//! `SkeletonRenderer` against what each older version's official engine backend draws
//! (`../shared/oracle/spine-<version>/render/`, 3.5–4.1: spine-sfml's `SkeletonDrawable::draw`
//! walk over spine-c 3.5/3.6 or spine-cpp 3.7–4.1; see "Render goldens" in each README).
//!
//! Procedure, as the goldens': one skeleton per file (the golden's skin), reused for every
//! sample, animations in file order, samples in the golden's order; per sample the POSE step
//! (setup pose, the animation applied at `t` from `t`, world transforms) and then one render
//! with [`Batching::Never`], so that each command is one draw.
//!
//! Every golden draw must match the next command: blend mode and page exactly, vertex count
//! and indices exactly, positions within `1e-3 * max(1, |theirs|)`, UVs within `1e-4`, light
//! and dark colours within one step of 255 (the golden colour is the float product before the
//! backend's truncation; `null` dark is opaque black). Two kinds of golden draw put nothing on
//! screen and are dropped by spine-cpp 4.2's renderer rules, which ours follow; they are
//! skipped and counted: draws whose colour alpha is 0 (the 3.5/3.6 sfml loops have no alpha
//! test) and fully clipped draws (no vertices left). After the last golden draw no command
//! may remain.
//!
//! The only exemption is the named official-runtime bug of spine-c 3.5.51's JSON loader,
//! which drops every path constraint `mix` timeline: a failing sample of a 3.5 JSON load is
//! excused only when the rig with those timelines removed matches it
//! ([`common::spine_c35_json_rig`]); excused samples are counted as such.

mod common;

use common::{apply_pose, load_rig, new_skeleton, spine_c35_json_rig, Rig, EXEMPT};
use serde_json::Value;
use spine_anim::{Skeleton, SkeletonRenderer};
use spine_render_traits::{Batching, RenderCommands};

/// Counts of one version's run.
#[derive(Default, Debug)]
struct Tally {
    files: usize,
    samples: usize,
    /// Samples whose every draw matched.
    matched: usize,
    /// Samples excused by the named loader bug.
    excused: usize,
    /// Golden draws compared (and matched, in matched or excused samples).
    draws: usize,
    /// Golden draws of colour alpha 0, skipped.
    alpha_zero: usize,
    /// Golden draws clipped to nothing, skipped.
    clipped_away: usize,
    /// Golden draws that went through clipping and kept vertices.
    clipped: usize,
    /// Golden draws with a dark colour.
    dark: usize,
    failures: Vec<String>,
}

fn floats(v: &Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()
}

/// A packed channel (`(u8)(c * 255)` on our side) against the golden's float.
fn channel_close(ours: u32, theirs: f64) -> bool {
    (f64::from(ours) - theirs * 255.0).abs() <= 1.0
}

fn argb_close(ours: u32, theirs: &[f64]) -> bool {
    let ch = |shift: u32| (ours >> shift) & 0xff;
    channel_close(ch(16), theirs[0])
        && channel_close(ch(8), theirs[1])
        && channel_close(ch(0), theirs[2])
        && channel_close(ch(24), theirs[3])
}

/// Compares our commands (one per draw) with the golden draws of one sample; returns the
/// first difference. Counts into `tally` what was compared and skipped.
fn compare(ours: &RenderCommands, draws: &[Value], tally: &mut Tally) -> Result<(), String> {
    let mut cmds = ours.iter();
    for (i, g) in draws.iter().enumerate() {
        let what = |s: String| {
            format!("draw {i} ({} / {}): {s}", g["slot"].as_str().unwrap(), g["attachment"])
        };
        let color = floats(&g["color"]);
        let vertices = floats(&g["vertices"]);
        if color[3] == 0.0 {
            tally.alpha_zero += 1;
            continue;
        }
        if vertices.is_empty() {
            tally.clipped_away += 1;
            continue;
        }
        tally.draws += 1;
        tally.clipped += usize::from(g["clipped"].as_bool().unwrap());
        tally.dark += usize::from(!g["dark"].is_null());
        let Some(o) = cmds.next() else {
            return Err(what("no command left".into()));
        };
        if o.blend_mode.as_str() != g["blend"].as_str().unwrap() {
            return Err(what(format!("blend {} vs {}", o.blend_mode.as_str(), g["blend"])));
        }
        if o.page_name != g["page"].as_str().unwrap() {
            return Err(what(format!("page {} vs {}", o.page_name, g["page"])));
        }
        let indices: Vec<u64> =
            g["indices"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
        let ours_idx: Vec<u64> = o.indices.iter().map(|&x| u64::from(x)).collect();
        if o.positions.len() != vertices.len() || ours_idx != indices {
            return Err(what(format!(
                "{} vertices / indices {:?} vs {} / {:?}",
                o.positions.len() / 2,
                &ours_idx[..ours_idx.len().min(6)],
                vertices.len() / 2,
                &indices[..indices.len().min(6)]
            )));
        }
        for (k, (a, b)) in o.positions.iter().zip(&vertices).enumerate() {
            if !common::close(*a, *b) {
                return Err(what(format!("vertices[{k}] {a} vs {b}")));
            }
        }
        for (k, (a, b)) in o.uvs.iter().zip(&floats(&g["uvs"])).enumerate() {
            if (f64::from(*a) - b).abs() > 1e-4 {
                return Err(what(format!("uvs[{k}] {a} vs {b}")));
            }
        }
        if o.colors.iter().any(|c| !argb_close(c.0, &color)) {
            return Err(what(format!("color {:08x} vs {color:?}", o.colors[0].0)));
        }
        let dark = if g["dark"].is_null() { vec![0.0, 0.0, 0.0, 1.0] } else { floats(&g["dark"]) };
        if o.dark_colors.iter().any(|c| !argb_close(c.0, &dark)) {
            return Err(what(format!("dark {:08x} vs {dark:?}", o.dark_colors[0].0)));
        }
    }
    match cmds.len() {
        0 => Ok(()),
        n => Err(format!("{n} commands beyond the golden's {} draws", draws.len())),
    }
}

/// Renders `sk` into `out`, one command per draw.
fn render(renderer: &mut SkeletonRenderer, sk: &Skeleton, out: &mut RenderCommands) {
    renderer.render(sk, out);
    assert_eq!(out.batching(), Batching::Never);
}

/// Runs every render golden of one file; counts into `tally`.
fn run_file(rig: &Rig, twin: Option<&Rig>, tally: &mut Tally) {
    tally.files += 1;
    let samples = rig.golden["samples"].as_object().unwrap();
    let mut renderer = SkeletonRenderer::new();
    let mut out = SkeletonRenderer::commands(&rig.data);
    out.set_batching(Batching::Never);
    let mut sk = new_skeleton(rig);
    let mut twin_sk = twin.map(new_skeleton);
    let mut checked = 0;
    // Animations in file order: spine-cpp 3.7's dark colours carry over between them.
    for (id, anim) in rig.data.animations.iter().enumerate() {
        let Some(list) = samples.get(anim.name.as_str()) else { continue };
        checked += 1;
        let id = spine_model::AnimationId::from_index(id);
        for s in list.as_array().unwrap() {
            let t = s["t"].as_f64().unwrap() as f32;
            apply_pose(&mut sk, id, t, None);
            render(&mut renderer, &sk, &mut out);
            tally.samples += 1;
            let draws = s["draws"].as_array().unwrap();
            let mut scratch = Tally::default();
            let result = compare(&out, draws, &mut scratch);
            // The loader-bug twin, posed in lockstep so that its skeleton's state matches.
            let twin_result = twin_sk.as_mut().map(|tsk| {
                apply_pose(tsk, id, t, None);
                let mut tout = SkeletonRenderer::commands(&twin.unwrap().data);
                tout.set_batching(Batching::Never);
                render(&mut SkeletonRenderer::new(), tsk, &mut tout);
                compare(&tout, draws, &mut Tally::default())
            });
            match result {
                Ok(()) => tally.matched += 1,
                Err(_) if matches!(twin_result, Some(Ok(()))) => tally.excused += 1,
                Err(e) => tally.failures.push(format!("{} {} t={t}: {e}", rig.name, anim.name)),
            }
            tally.draws += scratch.draws;
            tally.alpha_zero += scratch.alpha_zero;
            tally.clipped_away += scratch.clipped_away;
            tally.clipped += scratch.clipped;
            tally.dark += scratch.dark;
        }
    }
    assert_eq!(checked, samples.len(), "{}: golden animations not in the rig", rig.name);
}

fn check(version: &str) {
    let Some(oracle) = skel_testkit::oracle_dir() else { return };
    skel_testkit::spine_corpus().expect("the corpus");
    let dir = oracle.join(format!("spine-{version}")).join("render");
    let goldens = skel_testkit::files_with_suffix(&dir, ".render.json");
    assert!(
        goldens.len() >= 30,
        "{version}: {} render goldens in {}",
        goldens.len(),
        dir.display()
    );
    let mut tally = Tally::default();
    for g in &goldens {
        let rig = load_rig(version, g, EXEMPT);
        let twin = (version == "3.5" && rig.name.ends_with(".json"))
            .then(|| spine_c35_json_rig(&rig))
            .flatten();
        run_file(&rig, twin.as_ref(), &mut tally);
    }
    println!(
        "RENDER {version}: {} files, {} samples: {} match, {} excused (spine-c 3.5 JSON \
         path-mix loader bug), {} fail; {} draws compared ({} clipped, {} with a dark colour); \
         skipped: {} of alpha 0, {} clipped to nothing",
        tally.files,
        tally.samples,
        tally.matched,
        tally.excused,
        tally.failures.len(),
        tally.draws,
        tally.clipped,
        tally.dark,
        tally.alpha_zero,
        tally.clipped_away,
    );
    for f in tally.failures.iter().take(20) {
        println!("  {f}");
    }
    assert!(tally.samples >= 280, "{version}: only {} samples", tally.samples);
    assert!(tally.draws >= 5000, "{version}: only {} draws", tally.draws);
    assert!(tally.failures.is_empty(), "RENDER {version}: {} samples differ", tally.failures.len());
}

#[test]
fn render_matches_spine_c_3_5() {
    check("3.5");
}

#[test]
fn render_matches_spine_c_3_6() {
    check("3.6");
}

#[test]
fn render_matches_spine_cpp_3_7() {
    check("3.7");
}

#[test]
fn render_matches_spine_cpp_3_8() {
    check("3.8");
}

#[test]
fn render_matches_spine_cpp_4_0() {
    check("4.0");
}

#[test]
fn render_matches_spine_cpp_4_1() {
    check("4.1");
}
