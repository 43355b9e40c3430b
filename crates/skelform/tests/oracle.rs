//! The SkelForm goldens (`../shared/oracle/skelform/*.docsorder.json`): every animation,
//! every frame, `sequential` and `fresh`, local and world transforms, mesh vertices and
//! physics state, plus frame formatting, draw order, style textures and the scenarios.
//! Reports the match rate and the worst cases; fails on any value out of tolerance.

use serde_json::Value;
use skelform::{AnimLayer, Armature};

const TOL_POS: f64 = 1e-2;
const TOL_ROT: f64 = 1e-4;
const TOL_SCALE: f64 = 1e-4;

#[derive(Default)]
struct Cat {
    n: u64,
    bad: u64,
    worst: f64,
    worst_at: String,
    first_bad: Vec<String>,
}

#[derive(Default)]
struct Stats {
    cats: std::collections::BTreeMap<&'static str, Cat>,
}

impl Stats {
    fn check(&mut self, cat: &'static str, got: f64, want: f64, tol: f64, at: impl Fn() -> String) {
        let c = self.cats.entry(cat).or_default();
        c.n += 1;
        let err = if got.is_nan() && want.is_nan() { 0.0 } else { (got - want).abs() };
        let err = if err.is_nan() { f64::INFINITY } else { err };
        if err > c.worst {
            c.worst = err;
            c.worst_at = format!("{} (got {got}, want {want})", at());
        }
        if err > tol {
            c.bad += 1;
            if c.first_bad.len() < 5 {
                c.first_bad.push(format!("{} got {got} want {want}", at()));
            }
        }
    }
    fn exact(&mut self, cat: &'static str, ok: bool, at: impl Fn() -> String) {
        self.check(cat, if ok { 0.0 } else { 1.0 }, 0.0, 0.5, at);
    }
    fn report(&self, name: &str) -> u64 {
        let mut bad = 0;
        println!("== {name}");
        for (k, c) in &self.cats {
            let rate = 100.0 * (c.n - c.bad) as f64 / c.n.max(1) as f64;
            println!(
                "  {k:<10} {:>8} values, {:>6} out of tolerance ({rate:.3}% match), worst {:.3e} at {}",
                c.n, c.bad, c.worst, c.worst_at
            );
            for b in &c.first_bad {
                println!("      {b}");
            }
            bad += c.bad;
        }
        bad
    }
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or(f64::NAN)
}

/// Compares one sample (`local`, `world`, `verts`, `physics`) with the armature's state.
fn compare(st: &mut Stats, arm: &Armature, sample: &Value, at: &str) {
    for (i, l) in sample["local"].as_array().expect("local").iter().enumerate() {
        let b = &arm.bones()[i];
        let got = [b.pos.x, b.pos.y, b.rot, b.scale.x, b.scale.y];
        for (k, g) in got.iter().enumerate() {
            let (cat, tol) = match k {
                0 | 1 => ("local.pos", TOL_POS),
                2 => ("local.rot", TOL_ROT),
                _ => ("local.scale", TOL_SCALE),
            };
            st.check(cat, *g as f64, f(&l[k]), tol, || format!("{at} local[{i}][{k}]"));
        }
    }
    for (i, w) in sample["world"].as_array().expect("world").iter().enumerate() {
        let t = &arm.world()[i];
        let got = [t.pos.x, t.pos.y, t.rot, t.scale.x, t.scale.y];
        for (k, g) in got.iter().enumerate() {
            let (cat, tol) = match k {
                0 | 1 => ("world.pos", TOL_POS),
                2 => ("world.rot", TOL_ROT),
                _ => ("world.scale", TOL_SCALE),
            };
            st.check(cat, *g as f64, f(&w[k]), tol, || format!("{at} world[{i}][{k}]"));
        }
        st.exact("hidden", w[5].as_bool() == Some(t.hidden), || format!("{at} world[{i}].hidden"));
    }
    if let Some(verts) = sample["verts"].as_object() {
        for (vid, list) in verts {
            let v: usize = vid.parse().expect("visual id");
            let got = arm.world_vertices(v);
            let list = list.as_array().expect("verts");
            st.exact("verts.len", got.len() == list.len(), || format!("{at} verts[{vid}] count"));
            for (j, p) in list.iter().enumerate() {
                let g = got.get(j).copied().unwrap_or(skelform::Vec2::new(f32::NAN, f32::NAN));
                st.check("verts", g.x as f64, f(&p[0]), TOL_POS, || {
                    format!("{at} verts[{vid}][{j}].x")
                });
                st.check("verts", g.y as f64, f(&p[1]), TOL_POS, || {
                    format!("{at} verts[{vid}][{j}].y")
                });
            }
        }
    }
    if let Some(phys) = sample["physics"].as_array() {
        for p in phys {
            let id = p["physics_id"].as_u64().expect("physics_id") as usize;
            let g = &arm.physics()[id];
            let pairs = [
                ("phys.pos", g.global_pos.x, &p["global_pos"][0], TOL_POS),
                ("phys.pos", g.global_pos.y, &p["global_pos"][1], TOL_POS),
                ("phys.scale", g.global_scale.x, &p["global_scale"][0], TOL_SCALE),
                ("phys.scale", g.global_scale.y, &p["global_scale"][1], TOL_SCALE),
                ("phys.rot", g.global_rot, &p["global_rot"], TOL_ROT),
                ("phys.rot", g.global_orbit, &p["global_orbit"], TOL_ROT),
                ("phys.rot", g.global_orbit_diff, &p["global_orbit_diff"], TOL_ROT),
                ("phys.rot", g.global_orbit_vel, &p["global_orbit_vel"], TOL_ROT),
            ];
            for (cat, got, want, tol) in pairs {
                st.check(cat, got as f64, f(want), tol, || format!("{at} physics[{id}]"));
            }
        }
    }
}

fn layers(step: &Value) -> Vec<AnimLayer> {
    let arr = |k: &str| -> Vec<u64> {
        step[k].as_array().map(|a| a.iter().filter_map(Value::as_u64).collect()).unwrap_or_default()
    };
    let (a, fr, sm) = (arr("animations"), arr("frames"), arr("smooth_frames"));
    a.iter()
        .zip(&fr)
        .zip(&sm)
        .map(|((&a, &f), &s)| AnimLayer { anim: a as usize, frame: f as u32, smooth: s as u32 })
        .collect()
}

fn run(sample: &str) -> u64 {
    let Some(fixtures) = skel_testkit::fixtures_dir() else { return 0 };
    let Some(oracle) = skel_testkit::oracle_dir() else { return 0 };
    let bytes = std::fs::read(fixtures.join(format!("skelform/{sample}.skf"))).expect("fixture");
    let golden: Value = serde_json::from_slice(
        &std::fs::read(oracle.join(format!("skelform/{sample}.docsorder.json"))).expect("golden"),
    )
    .expect("golden json");
    let base = skelform::load(&bytes).expect("load");
    let mut st = Stats::default();

    let anims = golden["animations"].as_array().expect("animations");
    assert_eq!(anims.len(), base.animations().len());
    for a in anims {
        let ai = a["index"].as_u64().expect("index") as usize;
        assert_eq!(a["name"].as_str(), Some(base.animations()[ai].name.as_str()));
        assert_eq!(a["last_frame"].as_u64(), Some(base.animations()[ai].last_frame() as u64));
        let mut seq = base.clone();
        for s in a["sequential"].as_array().expect("sequential") {
            let fr = s["frame"].as_u64().expect("frame") as u32;
            seq.animate(&[AnimLayer { anim: ai, frame: fr, smooth: 0 }]);
            seq.construct();
            compare(&mut st, &seq, s, &format!("anim {ai} sequential frame {fr}"));
        }
        for s in a["fresh"].as_array().expect("fresh") {
            let fr = s["frame"].as_u64().expect("frame") as u32;
            let mut arm = base.clone();
            arm.animate(&[AnimLayer { anim: ai, frame: fr, smooth: 0 }]);
            arm.construct();
            compare(&mut st, &arm, s, &format!("anim {ai} fresh frame {fr}"));
        }
    }

    for t in golden["format_frame"].as_array().expect("format_frame") {
        let ai = t["animation"].as_u64().expect("animation") as usize;
        for row in t["table"].as_array().expect("table") {
            let (fr, lp, rev, want) = (
                row[0].as_u64().unwrap_or(0) as u32,
                row[1].as_bool(),
                row[2].as_bool(),
                row[3].as_u64(),
            );
            let got = base.format_frame(ai, fr, rev == Some(true), lp == Some(true));
            st.exact("format_frame", Some(got as u64) == want, || format!("format_frame {row}"));
        }
    }

    let mut order = Vec::new();
    base.draw_order_into(&mut order);
    let want: Vec<u32> = golden["draw_order"]
        .as_array()
        .expect("draw_order")
        .iter()
        .filter_map(|v| v.as_u64().map(|x| x as u32))
        .collect();
    st.exact("draw_order", order == want, || format!("draw order {order:?} vs {want:?}"));

    for s in golden["style_textures"].as_array().expect("style_textures") {
        let si = s["style"].as_u64().expect("style") as usize;
        for (v, t) in s["textures"].as_array().expect("textures").iter().enumerate() {
            let got = base.texture_of(v, &[si]);
            let ok = match (got, t.is_null()) {
                (None, true) => true,
                (Some(g), false) => {
                    t["name"].as_str() == Some(g.name.as_str())
                        && f(&t["offset"][0]) == g.offset.x as f64
                        && f(&t["offset"][1]) == g.offset.y as f64
                        && f(&t["size"][0]) == g.size.x as f64
                        && f(&t["size"][1]) == g.size.y as f64
                        && t["atlas_idx"].as_u64() == Some(g.atlas_idx as u64)
                }
                _ => false,
            };
            st.exact("styles", ok, || format!("style {si} visual {v}"));
        }
    }

    for sc in golden["scenarios"].as_array().expect("scenarios") {
        let name = sc["name"].as_str().unwrap_or("?");
        let mut arm = base.clone();
        for step in sc["steps"].as_array().expect("steps") {
            let i = step["step"].as_u64().unwrap_or(0);
            if step["construct_only"].as_bool() != Some(true) {
                arm.animate(&layers(step));
            }
            arm.construct();
            compare(&mut st, &arm, &step["result"], &format!("scenario {name} step {i}"));
        }
    }
    st.report(sample)
}

#[test]
fn skellina_matches_goldens() {
    assert_eq!(run("skellina_v0.7.0"), 0, "values out of tolerance (see the report above)");
}

#[test]
fn skellington_matches_goldens() {
    assert_eq!(run("skellington_v0.7.0"), 0, "values out of tolerance (see the report above)");
}
