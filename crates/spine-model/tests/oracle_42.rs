//! Cross-checks against the spine-cpp 4.2 goldens (`../shared/oracle/spine-4.2`): bone and
//! slot names, animation durations, and the draw order of every pose sample (which
//! exercises draw-order resolution, negative shifts included).

use serde_json::Value;
use spine_model::files::{discover_atlas, load_atlas};
use spine_model::{LoadOptions, SkeletonData, Timeline};

/// The draw order `DrawOrderTimeline::apply` gives at `t` (blend setup, applied once).
fn draw_order_at(d: &SkeletonData, anim: usize, t: f32) -> Vec<u32> {
    let setup: Vec<u32> = (0..d.slots.len() as u32).collect();
    for tl in &d.animations[anim].timelines {
        if let Timeline::DrawOrder { times, orders } = tl {
            if t < times[0] {
                return setup;
            }
            let frame = times.iter().rposition(|&k| k <= t).unwrap_or(0);
            return match &orders[frame] {
                Some(o) => o.iter().map(|s| s.index() as u32).collect(),
                None => setup,
            };
        }
    }
    setup
}

#[test]
fn names_durations_and_draw_orders_match_spine_cpp_4_2() {
    let (Some(corpus), Some(oracle)) = (skel_testkit::spine_corpus(), skel_testkit::oracle_dir())
    else {
        return;
    };
    let goldens = skel_testkit::files_with_suffix(&oracle.join("spine-4.2"), ".skel.json");
    assert!(goldens.len() >= 26, "{} goldens", goldens.len());
    let mut samples = 0;
    let mut reordered = 0;
    for g in goldens {
        let golden: Value = serde_json::from_str(&std::fs::read_to_string(&g).unwrap()).unwrap();
        let example = g.parent().unwrap().file_name().unwrap();
        let skel = corpus.join("4.2").join(example).join(golden["file"].as_str().unwrap());
        let atlas = discover_atlas(&skel).map(|p| load_atlas(&p).unwrap());
        let file = spine_format::binary::parse(&std::fs::read(&skel).unwrap()).unwrap();
        let options = LoadOptions {
            scale: 1.0,
            atlas: atlas.as_ref(),
            atlas_name: "atlas",
            ..Default::default()
        };
        let d = SkeletonData::from_binary(&file, &options).unwrap();
        let names = |k: &str| -> Vec<String> {
            golden[k].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_owned()).collect()
        };
        let bones: Vec<String> = d.bones.iter().map(|b| b.name.to_string()).collect();
        let slots: Vec<String> = d.slots.iter().map(|s| s.name.to_string()).collect();
        assert_eq!(bones, names("bones"), "{}", skel.display());
        assert_eq!(slots, names("slots"), "{}", skel.display());
        for (name, pose) in golden["pose"].as_object().unwrap() {
            let id = d.find_animation(name).unwrap();
            let duration = pose["duration"].as_f64().unwrap() as f32;
            assert_eq!(d.animation(id).duration, duration, "{} {name}", skel.display());
            for s in pose["samples"].as_array().unwrap() {
                let t = s["t"].as_f64().unwrap() as f32;
                let expected: Vec<u32> = s["drawOrder"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_u64().unwrap() as u32)
                    .collect();
                let got = draw_order_at(&d, id.index(), t);
                assert_eq!(got, expected, "{} {name} t={t}", skel.display());
                samples += 1;
                if expected.windows(2).any(|w| w[0] > w[1]) {
                    reordered += 1;
                }
            }
        }
    }
    assert!(samples > 1000, "{samples} samples");
    assert!(reordered > 20, "only {reordered} samples with a changed draw order");
}

/// Every UV the spine-cpp renderer emitted (render goldens without clipping) is a UV this
/// crate computed for some region (`RegionAttachment::updateRegion`) or mesh
/// (`MeshAttachment::updateRegion`) frame: checks atlas binding, rotated packing included.
#[test]
fn rendered_uvs_are_computed_uvs() {
    let (Some(corpus), Some(oracle)) = (skel_testkit::spine_corpus(), skel_testkit::oracle_dir())
    else {
        return;
    };
    let mut checked = 0;
    for g in skel_testkit::files_with_suffix(&oracle.join("spine-4.2"), ".skel.json") {
        let golden: Value = serde_json::from_str(&std::fs::read_to_string(&g).unwrap()).unwrap();
        let render = &golden["render"];
        if render["clippingActive"].as_bool() != Some(false) {
            continue;
        }
        let example = g.parent().unwrap().file_name().unwrap();
        let skel = corpus.join("4.2").join(example).join(golden["file"].as_str().unwrap());
        let Some(atlas_path) = discover_atlas(&skel) else { continue };
        let atlas = load_atlas(&atlas_path).unwrap();
        let file = spine_format::binary::parse(&std::fs::read(&skel).unwrap()).unwrap();
        let options = LoadOptions {
            scale: 1.0,
            atlas: Some(&atlas),
            atlas_name: "atlas",
            ..Default::default()
        };
        let d = SkeletonData::from_binary(&file, &options).unwrap();
        let mut ours: Vec<[f32; 2]> = Vec::new();
        for a in &d.attachments {
            match &a.kind {
                spine_model::AttachmentKind::Region(r) => {
                    for tr in r.sequence.regions.iter().flatten() {
                        ours.extend(spine_model::region_uvs(tr).chunks(2).map(|c| [c[0], c[1]]));
                    }
                }
                spine_model::AttachmentKind::Mesh(m) => {
                    for tr in m.sequence.regions.iter().flatten() {
                        let uvs = spine_model::mesh_uvs(m.region_uvs(), tr);
                        ours.extend(uvs.chunks(2).map(|c| [c[0], c[1]]));
                    }
                }
                _ => {}
            }
        }
        ours.sort_by(|a, b| a.partial_cmp(b).unwrap());
        for cmd in render["commands"].as_array().unwrap() {
            let uvs: Vec<f32> =
                cmd["uvs"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap() as f32).collect();
            for uv in uvs.chunks(2) {
                let lo = ours.partition_point(|o| o[0] < uv[0] - 2e-6);
                let hit = ours[lo..]
                    .iter()
                    .take_while(|o| o[0] <= uv[0] + 2e-6)
                    .any(|o| (o[1] - uv[1]).abs() <= 2e-6);
                assert!(hit, "{}: rendered uv {uv:?} not computed", skel.display());
                checked += 1;
            }
        }
    }
    assert!(checked > 5_000, "{checked} uvs");
}
