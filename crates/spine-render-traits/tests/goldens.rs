//! Checks the contract against the spine-cpp 4.2 goldens' `render` objects: every golden
//! command can be expressed, serializes back to the same JSON values, and `Batching::SpineCpp`
//! keeps consecutive golden commands apart exactly as spine-cpp did.

use serde_json::Value;
use spine_render_traits::{Argb, Batching, BlendMode, Draw, PageId, RenderCommands, VertexColors};

fn f32s(v: &Value) -> Vec<f32> {
    v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect()
}

fn u32s(v: &Value) -> Vec<Argb> {
    v.as_array().unwrap().iter().map(|x| Argb(x.as_u64().unwrap() as u32)).collect()
}

fn blend(name: &str) -> BlendMode {
    BlendMode::ALL.into_iter().find(|m| m.as_str() == name).unwrap()
}

/// Loads a golden render object into a buffer with the given batching.
fn load(render: &Value, batching: Batching) -> RenderCommands {
    let mut c = RenderCommands::with_batching(batching);
    let mut pages: Vec<(String, PageId)> = Vec::new();
    for cmd in render["commands"].as_array().unwrap() {
        let name = cmd["texture"].as_str().unwrap();
        let page = match pages.iter().find(|(n, _)| n == name) {
            Some((_, p)) => *p,
            None => {
                let p = c.add_page(name, false);
                pages.push((name.to_owned(), p));
                p
            }
        };
        let (pos, uv) = (f32s(&cmd["positions"]), f32s(&cmd["uvs"]));
        let (light, dark) = (u32s(&cmd["colors"]), u32s(&cmd["darkColors"]));
        let idx: Vec<u16> =
            cmd["indices"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap() as u16).collect();
        c.push(&Draw {
            page,
            blend_mode: blend(cmd["blendMode"].as_str().unwrap()),
            positions: &pos,
            uvs: &uv,
            colors: VertexColors::PerVertex { light: &light, dark: &dark },
            indices: &idx,
        })
        .unwrap();
    }
    c
}

#[test]
fn golden_render_commands_round_trip_through_the_contract() {
    let Some(oracle) = skel_testkit::oracle_dir() else { return };
    let files = skel_testkit::files_with_suffix(&oracle.join("spine-4.2"), ".skel.json");
    assert!(files.len() >= 20, "expected the 26 spine-4.2 goldens, found {}", files.len());
    let (mut total_cmds, mut total_idx) = (0usize, 0usize);
    for f in &files {
        let doc: Value = serde_json::from_slice(&std::fs::read(f).unwrap()).unwrap();
        for key in ["render", "renderClipping"] {
            let Some(render) = doc.get(key) else { continue };
            let golden = render["commands"].as_array().unwrap();
            let c = load(render, Batching::Never);
            assert_eq!(c.len(), golden.len(), "{}", f.display());
            let ours = serde_json::to_value(&c).unwrap();
            for (o, g) in ours["commands"].as_array().unwrap().iter().zip(golden) {
                for k in [
                    "blendMode",
                    "texture",
                    "numVertices",
                    "numIndices",
                    "colors",
                    "darkColors",
                    "indices",
                ] {
                    assert_eq!(o[k], g[k], "{} {key} {k}", f.display());
                }
                for k in ["positions", "uvs"] {
                    assert_eq!(f32s(&o[k]), f32s(&g[k]), "{} {k}", f.display());
                }
            }
            // spine-cpp's batching never merged two consecutive golden commands, so ours must
            // not either.
            let spine = load(render, Batching::SpineCpp);
            assert_eq!(spine.len(), golden.len(), "{} {key}: SpineCpp batching", f.display());
            total_cmds += golden.len();
            total_idx += c.num_indices();
        }
    }
    eprintln!("{} golden files, {total_cmds} commands, {total_idx} indices checked", files.len());
    assert!(total_cmds >= files.len());
}
