//! spine-anim against the official Spine 4.3 runtime (`@esotericsoftware/spine-core`,
//! through `../shared/tools/spine43-oracle`) on the project's generated 4.3 fixtures.
//!
//! The goldens live in `fixtures/spine-4.3/oracle/NAME.skel.json` (the official runtime's
//! output on our own files, made by `fixtures/spine-4.3/oracle/regenerate.sh`; its README
//! says how). Each golden records the sha256 of the `.skel` it was made from; when the generator
//! changes a fixture the sha256 no longer matches and the test fails, naming the command that
//! regenerates the golden.
//!
//! Procedures (the tool's README is normative):
//! * POSE: one skeleton per file with the golden's skin; for every animation and sample time
//!   `t`: setup pose, `apply(t, t)` at alpha 1 from the setup pose, world transforms without
//!   physics. Bones, slots (attachment, colors), draw order and world vertices are compared.
//! * STATE: `setAnimation(0, A, loop)`, `addAnimation(0, B, loop, 0.5)`, default mix 0.2,
//!   180 frames of 1/60 s with physics (`Physics::Update`); bones, slots, draw order and
//!   vertices every 10th frame, event frames and names (the official runtime gives an event
//!   without audio volume 0 where spine-cpp gives 1: volume and balance are not compared),
//!   track events in order.
//!
//! Tolerance `|ours - theirs| <= 1e-3 * max(1, |theirs|)`. The one thing left out is what
//! the goldens name: each sample's `degenerate` bones (NaN or ±Inf official values, or a
//! strict ancestor with `|det| < 1e-3`), and with them the world vertices computed from
//! such a bone. Nothing else is exempt, and a golden sample where the official runtime threw
//! (`error`) fails the test: the generated fixtures must be data it accepts.

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use common::{compare_sample_skipping, new_skeleton, start_state, Rig, Tally};
use serde_json::Value;
use spine_anim::{apply_animation, MixBlend, MixDirection, Physics, StateEventType};
use spine_model::AnimationId;

/// The six generated fixtures (`cargo xtask gen-fixtures`).
const FIXTURES: [&str; 6] = [
    "constraints.skel",
    "draw-order.skel",
    "physics.skel",
    "showcase-ess.skel",
    "showcase-pro.skel",
    "sliders.skel",
];

fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/spine-4.3")
}

/// `SPINE43_GOLDENS` overrides the folder (e.g. to compare with another set).
fn goldens_dir() -> PathBuf {
    std::env::var_os("SPINE43_GOLDENS")
        .map(PathBuf::from)
        .unwrap_or_else(|| fixtures_dir().join("oracle"))
}

/// The command that remakes the golden of fixture `name` (`fixtures/spine-4.3/oracle/README.md`).
fn regenerate_command(name: &str) -> String {
    format!("fixtures/spine-4.3/oracle/regenerate.sh {}", name.trim_end_matches(".skel"))
}

/// Loads fixture `name` and its golden; panics (with the command that remakes the golden)
/// when the golden is missing or was made from other bytes.
fn load(name: &str) -> Rig {
    let bytes = std::fs::read(fixtures_dir().join(name)).unwrap();
    let golden_path = goldens_dir().join(format!("{name}.json"));
    let text = std::fs::read_to_string(&golden_path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}\nmake it with the official 4.3 runtime (from the workspace root):\n  {}",
            golden_path.display(),
            regenerate_command(name)
        )
    });
    let golden: Value = serde_json::from_str(&text).unwrap();
    let sha = sha256_hex(&bytes);
    assert!(
        golden["sha256"].as_str() == Some(sha.as_str()),
        "\n!!! {name}: the golden {} was made from another file (sha256 {}), the fixture's \
         sha256 is {sha}: the generator changed the fixture. Regenerate the golden with the \
         official 4.3 runtime (from the workspace root):\n  {}\n",
        golden_path.display(),
        golden["sha256"],
        regenerate_command(name)
    );
    let data = spine_model::load_binary(&bytes, Some(&unit_atlas(&bytes)))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(golden["file"].as_str(), Some(name));
    let names: Vec<&str> =
        golden["bones"].as_array().unwrap().iter().map(|b| b.as_str().unwrap()).collect();
    let ours: Vec<&str> = data.bones.iter().map(|b| &*b.name).collect();
    assert_eq!(names, ours, "{name}: bone lists differ");
    let driven = vec![false; data.bones.len()];
    Rig { name: name.to_owned(), golden, data: Arc::new(data), driven }
}

/// The atlas the tool's geometry-only loader amounts to: every region and mesh frame of the
/// skeleton gets a 1×1 region covering its 1×1 page (u, v 0..1, unrotated, not stripped),
/// so a region's quad spans exactly the attachment's width × height.
fn unit_atlas(bytes: &[u8]) -> spine_format::atlas::Atlas {
    let data = spine_model::load_binary(bytes, None).unwrap();
    let mut names = std::collections::BTreeSet::new();
    for a in &data.attachments {
        let sequence = match &a.kind {
            spine_model::AttachmentKind::Region(r) => &r.sequence,
            spine_model::AttachmentKind::Mesh(m) => &m.sequence,
            _ => continue,
        };
        names.extend(sequence.frame_paths());
    }
    let mut text = String::from("unit.png\nsize: 1,1\n");
    for n in names {
        text.push_str(&format!("{n}\n  bounds: 0,0,1,1\n"));
    }
    spine_format::atlas::parse(&text).unwrap()
}

/// The sample's `degenerate` bone indices.
fn degenerate(s: &Value) -> Vec<usize> {
    s["degenerate"]
        .as_array()
        .map(|d| d.iter().map(|i| i.as_u64().unwrap() as usize).collect())
        .unwrap_or_default()
}

/// One file's counts.
struct FileRun {
    name: String,
    tally: Tally,
    /// Samples where the official runtime threw.
    errors: Vec<String>,
    /// Event / track event lists that differ.
    lists: Vec<String>,
}

impl FileRun {
    fn new(name: &str) -> FileRun {
        FileRun {
            name: name.to_owned(),
            tally: Tally::default(),
            errors: Vec::new(),
            lists: vec![],
        }
    }

    fn print(&self, what: &str) {
        let t = &self.tally;
        println!(
            "{what} {:<18} samples {:>4} match {:>4} fail {:>4} threw {:>3} | bones {:>6}/{:<6} \
             numbers {:>6}/{:<6} ({:.2}%) | degenerate bones skipped {:>5} | vertex lists {}",
            self.name,
            t.samples,
            t.matched,
            t.failed,
            self.errors.len(),
            t.bones.1,
            t.bones.0,
            t.numbers.1,
            t.numbers.0,
            100.0 * t.numbers.1 as f64 / t.numbers.0.max(1) as f64,
            t.skipped,
            t.vertices,
        );
    }

    fn ok(&self) -> bool {
        self.tally.failed == 0 && self.errors.is_empty() && self.lists.is_empty()
    }
}

fn pose(rig: &Rig) -> FileRun {
    let mut run = FileRun::new(&rig.name);
    let mut sk = new_skeleton(rig);
    let poses = rig.golden["pose"].as_object().unwrap();
    assert_eq!(poses.len(), rig.data.animations.len(), "{}: golden animations", rig.name);
    let mut events = Vec::new();
    for (i, a) in rig.data.animations.iter().enumerate() {
        let pose = &poses[&*a.name];
        let anim = AnimationId::from_index(i);
        for s in pose["samples"].as_array().unwrap() {
            let t = s["t"].as_f64().unwrap() as f32;
            if let Some(e) = s.get("error") {
                run.errors.push(format!("{} {} t={t}: {e}", rig.name, a.name));
                continue;
            }
            sk.set_to_setup_pose();
            events.clear();
            apply_animation(
                &mut sk,
                anim,
                t,
                t,
                false,
                Some(&mut events),
                1.0,
                MixBlend::Setup,
                MixDirection::In,
            );
            assert!(events.is_empty(), "apply(t, t) fires no events");
            sk.update_world_transform(Physics::None);
            let what = format!("{} {} t={t}", rig.name, a.name);
            let cmp = compare_sample_skipping(rig, &sk, s, &what, &degenerate(s));
            run.tally.add(&rig.name, cmp);
        }
    }
    run
}

fn state(rig: &Rig) -> FileRun {
    let mut run = FileRun::new(&rig.name);
    let st = &rig.golden["state"];
    let d = &rig.data;
    if let Some(e) = st.get("error") {
        run.errors.push(format!("{} state: {e}", rig.name));
    }
    let (mut sk, mut state) = start_state(rig);
    let dt = 1.0f32 / 60.0;
    assert_eq!(dt, st["dt"].as_f64().unwrap() as f32);
    let frames = st["frames"].as_u64().unwrap() as usize;
    let mut events: Vec<Value> = Vec::new();
    let mut track_events: Vec<Value> = Vec::new();
    let anim_name = |a: Option<AnimationId>| {
        a.map_or("<empty>".to_owned(), |a| d.animation(a).name.to_string())
    };
    let mut record = |state: &mut spine_anim::AnimationState, frame: usize| {
        for e in state.events() {
            let ty = match e.kind {
                StateEventType::Start => "start",
                StateEventType::Interrupt => "interrupt",
                StateEventType::End => "end",
                StateEventType::Dispose => "dispose",
                StateEventType::Complete => "complete",
                StateEventType::Event(r) => {
                    let k = r.key(d).unwrap();
                    events.push(serde_json::json!([frame, d.event(k.event).name]));
                    continue;
                }
            };
            track_events.push(serde_json::json!([frame, ty, anim_name(e.animation), e.track]));
        }
        state.clear_events();
    };
    record(&mut state, 0);
    let samples = st["samples"].as_array().unwrap();
    let mut next = samples.iter().peekable();
    for frame in 1..=frames {
        state.update(dt);
        record(&mut state, frame);
        state.apply(&mut sk);
        record(&mut state, frame);
        sk.update(dt);
        sk.update_world_transform(Physics::Update);
        if let Some(s) = next.next_if(|s| s["frame"].as_u64() == Some(frame as u64)) {
            let what = format!("{} state frame {frame}", rig.name);
            let cmp = compare_sample_skipping(rig, &sk, s, &what, &degenerate(s));
            run.tally.add(&rig.name, cmp);
        }
    }
    if st.get("error").is_none() {
        assert!(next.peek().is_none(), "{}: state samples after the last frame", rig.name);
        // Event rows: frame and name (see the module doc for volume and balance).
        let theirs: Vec<Value> = st["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| serde_json::json!([e[0], e[1]]))
            .collect();
        if events != theirs {
            run.lists.push(format!(
                "{} events\n  ours   {}\n  theirs {}",
                rig.name,
                serde_json::to_string(&events).unwrap(),
                serde_json::to_string(&theirs).unwrap()
            ));
        }
        if Value::from(track_events.clone()) != st["trackEvents"] {
            run.lists.push(format!(
                "{} track events\n  ours   {}\n  theirs {}",
                rig.name,
                serde_json::to_string(&track_events).unwrap(),
                st["trackEvents"]
            ));
        }
    }
    run
}

/// Runs `f` on every fixture, prints the counts per file and the worst mismatches, and
/// fails when a file has a mismatch, a sample where the official runtime threw or an event
/// list that differs.
fn check(what: &str, f: fn(&Rig) -> FileRun) {
    let mut runs: Vec<FileRun> = FIXTURES.iter().map(|n| f(&load(n))).collect();
    let mut total = Tally::default();
    for r in &mut runs {
        r.print(what);
        total.samples += r.tally.samples;
        total.matched += r.tally.matched;
        total.failed += r.tally.failed;
        total.bones.0 += r.tally.bones.0;
        total.bones.1 += r.tally.bones.1;
        total.numbers.0 += r.tally.numbers.0;
        total.numbers.1 += r.tally.numbers.1;
        total.skipped += r.tally.skipped;
        total.vertices += r.tally.vertices;
        total.worst.append(&mut r.tally.worst);
    }
    total.report(what);
    println!(
        "{what}: {} of {} bone numbers match ({:.2}%), {} degenerate bones skipped",
        total.numbers.1,
        total.numbers.0,
        100.0 * total.numbers.1 as f64 / total.numbers.0.max(1) as f64,
        total.skipped
    );
    for r in &runs {
        for e in r.errors.iter().take(3) {
            println!("{what}: the official runtime threw: {e}");
        }
        for l in &r.lists {
            println!("{what}: {l}");
        }
    }
    let bad: Vec<&str> = runs.iter().filter(|r| !r.ok()).map(|r| &*r.name).collect();
    assert!(bad.is_empty(), "{what}: {bad:?} differ from the official 4.3 runtime (see above)");
    assert!(total.numbers.0 > 0);
}

#[test]
fn pose_matches_spine_core_4_3() {
    check("POSE", pose);
}

#[test]
fn state_matches_spine_core_4_3() {
    check("STATE", state);
}

#[test]
fn sha256_known_answers() {
    assert_eq!(sha256_hex(b""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    let long = vec![b'a'; 1000];
    assert_eq!(
        sha256_hex(&long),
        "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"
    );
}

/// SHA-256 (FIPS 180-4) of `data`, lowercase hex: the goldens name their input by it.
fn sha256_hex(data: &[u8]) -> String {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut msg = data.to_vec();
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for chunk in msg.chunks(64) {
        let mut w = [0u32; 64];
        for (i, word) in chunk.chunks(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16].wrapping_add(s0).wrapping_add(w[i - 7]).wrapping_add(s1);
        }
        let mut v = h;
        for i in 0..64 {
            let s1 = v[4].rotate_right(6) ^ v[4].rotate_right(11) ^ v[4].rotate_right(25);
            let ch = (v[4] & v[5]) ^ (!v[4] & v[6]);
            let t1 = v[7].wrapping_add(s1).wrapping_add(ch).wrapping_add(K[i]).wrapping_add(w[i]);
            let s0 = v[0].rotate_right(2) ^ v[0].rotate_right(13) ^ v[0].rotate_right(22);
            let maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
            let t2 = s0.wrapping_add(maj);
            v = [v[0], v[0], v[1], v[2], v[3].wrapping_add(t1), v[4], v[5], v[6]];
            v[0] = t1.wrapping_add(t2);
        }
        for (a, b) in h.iter_mut().zip(v) {
            *a = a.wrapping_add(b);
        }
    }
    h.iter().map(|x| format!("{x:08x}")).collect()
}
