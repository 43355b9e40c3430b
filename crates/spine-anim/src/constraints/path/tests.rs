use super::*;
use crate::{Physics, Skeleton};
use std::sync::Arc;

/// `chord_turn` is the turn of the angle path (`atan2` of the chord less `atan2` of the
/// bone's axis, wrapped, then sine and cosine) within rounding, in every quadrant and at
/// lengths from 1e-3 to 1e3; undefined directions are left to the angles.
#[test]
fn chord_turn_matches_the_angles() {
    let mut rng = crate::test_rng::Rng(0x2545_f491_4f6c_dd1d);
    let mut next = |lo: f32, hi: f32| rng.range(lo, hi);
    let mut worst = 0.0f32;
    for _ in 0..50_000 {
        let size = 10f32.powf(next(-3.0, 3.0));
        let (dx, dy) = (next(-1.0, 1.0) * size, next(-1.0, 1.0) * size);
        let (a, c) = (next(-2.0, 2.0), next(-2.0, 2.0));
        let Some(Turn::SinCos(sin, cos)) = chord_turn(dx, dy, a, c) else {
            panic!("({dx}, {dy}) ({a}, {c}): no turn");
        };
        let (r, bone_r) = math::atan2_pair(dy, dx, c, a);
        let (want_sin, want_cos) = math::sin_cos(wrap_pi(r - bone_r));
        worst = worst.max((sin - want_sin).abs()).max((cos - want_cos).abs());
    }
    assert!(worst < 2e-6, "worst difference {worst:e}");
    assert!(chord_turn(0.0, 0.0, 1.0, 0.0).is_none());
    assert!(chord_turn(1.0, 0.0, 0.0, 0.0).is_none());
    assert!(chord_turn(f32::NAN, 0.0, 1.0, 0.0).is_none());
    assert!(chord_turn(f32::INFINITY, 0.0, 1.0, 0.0).is_none());
}

/// The path constraint of a [`chain_rig`]: its bones and modes.
#[derive(Clone, Copy)]
struct Modes<'a> {
    bones: &'a [&'a str],
    rotate: &'a str,
    spacing_mode: &'a str,
    spacing: f32,
    mix: f32,
    offset: f32,
}

/// A chain `c0 .. c6` (each the child of the previous one) and two loose bones, a
/// four-curve path, and one path constraint on `m.bones` with the given modes.
fn chain_rig(m: Modes<'_>) -> Skeleton {
    let Modes { bones, rotate, spacing_mode, spacing, mix, offset } = m;
    let list = bones.iter().map(|b| format!("\"{b}\"")).collect::<Vec<_>>().join(", ");
    let text = format!(
        r#"{{"skeleton": {{"spine": "4.2.22"}},
        "bones": [
            {{"name": "root"}},
            {{"name": "c0", "parent": "root", "x": 5, "y": 3, "length": 12, "rotation": 10}},
            {{"name": "c1", "parent": "c0", "x": 12, "length": 9, "rotation": -20}},
            {{"name": "c2", "parent": "c1", "x": 9, "length": 15, "rotation": 35, "scaleX": 1.3}},
            {{"name": "c3", "parent": "c2", "x": 15, "length": 7, "rotation": -5}},
            {{"name": "c4", "parent": "c3", "x": 7, "length": 11, "shearY": 12}},
            {{"name": "c5", "parent": "c4", "x": 11, "length": 0, "rotation": 60}},
            {{"name": "c6", "parent": "c5", "x": 4, "length": 13, "scaleY": 0.8}},
            {{"name": "l0", "parent": "root", "x": -30, "y": 8, "length": 10, "rotation": 170}},
            {{"name": "l1", "parent": "root", "x": 40, "y": -12, "length": 6, "rotation": -95}}
        ],
        "slots": [{{"name": "path", "bone": "root", "attachment": "path"}}],
        "skins": [{{"name": "default", "attachments": {{"path": {{"path": {{
            "type": "path", "closed": false, "lengths": [40, 90, 150, 210], "vertexCount": 15,
            "vertices": [-10, -10, 0, 0, 12, 25, 20, 30, 35, 28, 50, 40, 58, 61, 70, 70, 85, 66,
                100, 50, 110, 52, 130, 71, 140, 90, 150, 95, 160, 91]
        }}}}}}}}],
        "path": [{{"name": "p", "bones": [{list}], "target": "path", "positionMode": "fixed",
            "position": 7, "spacingMode": "{spacing_mode}", "spacing": {spacing},
            "rotateMode": "{rotate}", "rotation": {offset}, "mixRotate": {mix}, "mixX": 0.7}}]}}"#
    );
    let data = spine_model::load_json(&text, None).unwrap();
    let mut sk = Skeleton::new(Arc::new(data));
    sk.set_to_setup_pose();
    sk
}

/// Two [`chain_rig`]s of `m` with every bone turned alike, posed: the first as the crate
/// runs, the second with the fast paths of `off` turned off.
fn posed_pair(m: Modes<'_>, off: Off) -> (Skeleton, Skeleton) {
    let (mut a, mut b) = (chain_rig(m), chain_rig(m));
    for (k, (ba, bb)) in a.bones.iter_mut().zip(&mut b.bones).enumerate() {
        let r = k as f32 * 37.3 - 80.0;
        (ba.rotation, bb.rotation) = (r, r);
    }
    a.update_world_transform(Physics::None);
    OFF.with(|c| c.set(off));
    b.update_world_transform(Physics::None);
    OFF.with(|c| c.set(Off::default()));
    (a, b)
}

fn bits(sk: &Skeleton) -> Vec<u32> {
    let mut v = Vec::new();
    for b in &sk.bones {
        let p = b.applied();
        for f in [b.a, b.b, b.c, b.d, b.world_x, b.world_y, p.x, p.y, p.rotation, p.scale_x] {
            v.push(f.to_bits());
        }
        v.extend([p.scale_y.to_bits(), p.shear_x.to_bits(), p.shear_y.to_bits()]);
    }
    v
}

#[test]
fn pairs_equal_the_one_bone_loop_bit_for_bit() {
    let orders: [&[&str]; 5] = [
        &["c0", "c1", "c2", "c3", "c4", "c5", "c6"],
        &["c6", "c5", "c4", "c3", "c2", "c1"],
        &["c1", "l0", "c2", "c0", "l1"],
        &["c3", "c4"],
        &["c2"],
    ];
    let mut paired = 0;
    for order in orders {
        for rotate in ["tangent", "chainScale", "chain"] {
            for mode in ["percent", "length", "fixed", "proportional"] {
                for spacing in [0.0f32, 0.15, 9.0] {
                    // With no offset and a full mix, chords turn by `chord_turn`.
                    for (mix, offset) in [(1.0f32, 23.0f32), (0.6, 23.0), (1.0, 0.0)] {
                        let off = Off { pairs: true, ..Off::default() };
                        let m = Modes {
                            bones: order,
                            rotate,
                            spacing_mode: mode,
                            spacing,
                            mix,
                            offset,
                        };
                        let (a, b) = posed_pair(m, off);
                        assert_eq!(
                            bits(&a),
                            bits(&b),
                            "{order:?} {rotate} {mode} {spacing} {mix} {offset}"
                        );
                        paired += usize::from(order.len() > 1 && rotate != "chain");
                    }
                }
            }
        }
    }
    assert!(paired >= 96, "{paired}");
}

/// Tip to tip (chain mode, no offset, full mix), each bone turned by [`chord_turn`] places
/// the chain where the angle path does, within rounding carried down the chain: a bone's
/// tip moves the next chord's start, so a chord of 0.15 units turns by 1 / 0.15 of the
/// rounding at its start (the looser bound).
#[test]
fn tip_chords_match_the_angles() {
    let orders: [&[&str]; 3] = [
        &["c0", "c1", "c2", "c3", "c4", "c5", "c6"],
        &["c6", "c5", "c4", "c3"],
        &["c1", "l0", "c2"],
    ];
    let (mut worst, mut worst_short, mut compared) = (0.0f32, 0.0f32, 0);
    for order in orders {
        for mode in ["percent", "length", "fixed", "proportional"] {
            for spacing in [0.0f32, 0.15, 9.0] {
                let off = Off { tip_chords: true, ..Off::default() };
                let (rotate, mix, offset) = ("chain", 1.0, 0.0);
                let m = Modes { bones: order, rotate, spacing_mode: mode, spacing, mix, offset };
                let (a, b) = posed_pair(m, off);
                for (ba, bb) in a.bones.iter().zip(&b.bones) {
                    let (wa, wb) = (ba.world(), bb.world());
                    let pairs = [wa.a, wa.b, wa.c, wa.d, wa.world_x, wa.world_y]
                        .into_iter()
                        .zip([wb.a, wb.b, wb.c, wb.d, wb.world_x, wb.world_y]);
                    for (x, y) in pairs {
                        let d = (x - y).abs() / y.abs().max(1.0);
                        let w = if spacing == 0.15 { &mut worst_short } else { &mut worst };
                        *w = w.max(d);
                        compared += 1;
                    }
                }
            }
        }
    }
    assert!(compared > 500, "{compared}");
    // The two paths round differently: identical bits would mean the switch did nothing.
    assert!(worst > 0.0, "the chord and angle paths gave the same bits");
    assert!(worst < 1e-5, "worst relative difference {worst:e}");
    assert!(worst_short < 1e-4, "worst relative difference, short chords {worst_short:e}");
}

#[test]
fn distinct_finds_every_repeat() {
    let ids = |v: &[u32]| v.iter().map(|&i| BoneId::from_index(i as usize)).collect::<Vec<_>>();
    assert!(distinct(&ids(&[])));
    assert!(distinct(&ids(&[5])));
    assert!(distinct(&ids(&[3, 4, 5, 6, 7, 8, 9, 10])));
    // Different ids on the same mask bit (modulo 64) are still distinct.
    assert!(distinct(&ids(&[3, 67, 131, 4])));
    assert!(!distinct(&ids(&[3, 4, 3])));
    assert!(!distinct(&ids(&[3, 67, 4, 67])));
    assert!(!distinct(&ids(&[7, 7])));
    assert!(!distinct(&ids(&[1, 2, 3, 200, 9, 200])));
    // Every pair of positions in an 8-bone list, repeated and not.
    for a in 0..8 {
        for b in a + 1..8 {
            let mut v: Vec<u32> = (10..18).collect();
            assert!(distinct(&ids(&v)));
            v[b] = v[a];
            assert!(!distinct(&ids(&v)), "{v:?}");
        }
    }
}
