use super::*;

fn assert_send<T: Send>() {}

#[test]
fn skeleton_is_send() {
    assert_send::<Skeleton>();
}

/// [`Bone::touch`] reads a byte of every cache line a bone record spans, for records
/// starting at any multiple of 16 bytes from a line (a `Vec` from the system allocator).
#[test]
fn bone_touch_meets_every_line() {
    let size = std::mem::size_of::<Bone>();
    let touched = [
        std::mem::offset_of!(Bone, x),
        std::mem::offset_of!(Bone, d),
        std::mem::offset_of!(Bone, inherit),
    ];
    for start in (0..64).step_by(16) {
        for line in start / 64..(start + size).div_ceil(64) {
            let hit = touched.iter().any(|&o| (start + o) / 64 == line);
            assert!(hit, "line {line} of a bone at offset {start} not touched: {touched:?}");
        }
    }
}

/// A root bone's data with `inherit` (unit scale, no offset), for tests.
pub(crate) fn bone_data(inherit: Inherit) -> BoneData {
    BoneData {
        name: "b".into(),
        parent: None,
        length: 1.0,
        x: 0.0,
        y: 0.0,
        rotation: 0.0,
        scale_x: 1.0,
        scale_y: 1.0,
        shear_x: 0.0,
        shear_y: 0.0,
        inherit,
        skin_required: false,
        color: None,
    }
}

/// The applied pose `[x, y, rotation, scale_x, scale_y, shear_x, shear_y]`.
fn pose([x, y, rotation, scale_x, scale_y, shear_x, shear_y]: [f32; 7]) -> AppliedPose {
    AppliedPose { x, y, rotation, scale_x, scale_y, shear_x, shear_y }
}

/// spine-cpp `updateAppliedTransform` for a parent and `Inherit::Normal`, computed at once.
fn applied_at_once(b: &Bone, p: ParentWorld) -> AppliedPose {
    let pid = 1.0 / (p.a * p.d - p.b * p.c);
    let (ia, ib, ic, id) = (p.d * pid, p.b * pid, p.c * pid, p.a * pid);
    let dx = b.world_x - p.world_x;
    let dy = b.world_y - p.world_y;
    let x = dx * ia - dy * ib;
    let y = dy * id - dx * ic;
    let ra = ia * b.a - ib * b.c;
    let rb = ia * b.b - ib * b.d;
    let rc = id * b.c - ic * b.a;
    let rd = id * b.d - ic * b.b;
    let m = AppliedPose { x, y, rotation: ra, scale_x: rb, scale_y: rc, shear_x: rd, shear_y: 0.0 };
    applied_from_local_matrix(m)
}

fn pose_bits(p: AppliedPose) -> [u32; 7] {
    [p.x, p.y, p.rotation, p.scale_x, p.scale_y, p.shear_x, p.shear_y].map(f32::to_bits)
}

/// `Inherit::NoRotationOrReflection` turns the cached local matrix by the direction of
/// the parent's x axis: the world matrix of spine-cpp's angle formula (sine and cosine of
/// the local angles less the parent's `atan2`) within the rounding of those angles, for
/// parents and poses of every quadrant, reflected or not, at any skeleton scale. An
/// error (a sign, a swapped column) is of order one.
#[test]
fn no_rotation_or_reflection_turns_the_local_matrix_by_the_parent_direction() {
    let mut rng = crate::test_rng::Rng(0x9e37_79b9_7f4a_7c15);
    let mut next = |lo: f32, hi: f32| rng.range(lo, hi);
    let mut worst = 0.0f32;
    for _ in 0..20_000 {
        let frame = WorldFrame {
            x: next(-5.0, 5.0),
            y: next(-5.0, 5.0),
            scale_x: next(0.5, 2.0) * if next(0.0, 1.0) < 0.5 { -1.0 } else { 1.0 },
            scale_y: next(0.5, 2.0) * if next(0.0, 1.0) < 0.5 { -1.0 } else { 1.0 },
        };
        let p = ParentWorld {
            a: next(-2.0, 2.0),
            b: next(-2.0, 2.0),
            c: next(-2.0, 2.0),
            d: next(-2.0, 2.0),
            world_x: next(-50.0, 50.0),
            world_y: next(-50.0, 50.0),
        };
        let (r, sx, sy) = (next(-720.0, 720.0), next(-2.0, 2.0), next(-2.0, 2.0));
        let (hx, hy) = (next(-40.0, 40.0), next(-40.0, 40.0));
        let mut b = Bone::new(&bone_data(Inherit::NoRotationOrReflection));
        b.update_world_transform_with(Some(p), &frame, pose([1.0, 2.0, r, sx, sy, hx, hy]));
        // spine-cpp's formula.
        let (mut pa, mut pb, mut pc, mut pd) = (p.a, p.b, p.c, p.d);
        let mut s = pa * pa + pc * pc;
        if s <= 0.0001 {
            continue;
        }
        s = math::abs(pa * pd - pb * pc) / s;
        pa /= frame.scale_x;
        pc /= frame.scale_y;
        pb = pc * s;
        pd = pa * s;
        let prx = math::atan2_deg(pc, pa);
        let ((sin_x, cos_x), (sin_y, cos_y)) =
            math::sin_cos_deg_pair(r + hx - prx, r + hy - prx + 90.0);
        let (la, lb, lc, ld) = (cos_x * sx, cos_y * sy, sin_x * sx, sin_y * sy);
        let want = [
            (pa * la - pb * lc) * frame.scale_x,
            (pa * lb - pb * ld) * frame.scale_x,
            (pc * la + pd * lc) * frame.scale_y,
            (pc * lb + pd * ld) * frame.scale_y,
        ];
        let got = [b.a, b.b, b.c, b.d];
        let size = want.iter().fold(1.0f32, |m, v| m.max(v.abs()));
        for (g, w) in got.iter().zip(want) {
            worst = worst.max((g - w).abs() / size);
        }
    }
    // Angles up to ~800° carry f32 roundings of ~1e-6 rad each.
    assert!(worst < 1e-5, "worst relative difference {worst:e}");
    assert!(worst > 0.0, "the turned matrix rounds like the angles' somewhere");
}

/// A deferred applied pose is the one computed at once from the world transforms of the
/// call, bit for bit, whatever happens to those world transforms before it is read
/// (through `applied`, `applied_mut`, or at once with `AP_READ_AFTER`); a later deferral
/// of another inherit mode is not read in the first one's layout.
#[test]
fn deferred_applied_pose_keeps_its_inputs() {
    let frame = WorldFrame { x: 1.5, y: -2.0, scale_x: 1.25, scale_y: -0.75 };
    let parents = [
        ParentWorld { a: 0.9, b: -0.3, c: 0.2, d: 1.1, world_x: 3.0, world_y: 4.0 },
        ParentWorld { a: -1.5, b: 0.25, c: 0.75, d: 2.0, world_x: -7.0, world_y: 0.5 },
        ParentWorld { a: 0.0, b: 0.0, c: 0.0, d: 0.0, world_x: 0.0, world_y: 0.0 },
        ParentWorld { a: f32::NAN, b: 1.0, c: 0.0, d: 1.0, world_x: 0.0, world_y: 0.0 },
    ];
    let worlds: [[f32; 6]; 4] = [
        [0.5, -0.8, 0.8, 0.5, 10.0, -3.0],
        [0.0, 0.0, 0.0, 0.0, 1.0, 1.0],
        [-2.0, 0.1, 0.3, -1e-6, 1e6, -0.0],
        [1.0, 0.0, 0.0, 1.0, f32::INFINITY, 2.0],
    ];
    for p in parents {
        for [a, b, c, d, wx, wy] in worlds {
            for read in 0..3 {
                let mut bone = Bone::new(&bone_data(Inherit::Normal));
                (bone.a, bone.b, bone.c, bone.d, bone.world_x, bone.world_y) = (a, b, c, d, wx, wy);
                let want = pose_bits(applied_at_once(&bone, p));
                if read == 2 {
                    bone.ap_flags |= AP_READ_AFTER;
                }
                bone.update_applied_transform(Some(p), &frame);
                // The world transforms change before the read.
                (bone.a, bone.b, bone.c, bone.d, bone.world_x, bone.world_y) =
                    (7.0, 8.0, 9.0, 10.0, 11.0, 12.0);
                let got = if read == 1 { *bone.applied_mut() } else { bone.applied() };
                assert_eq!(pose_bits(got), want, "{p:?} {a} {b} {c} {d} {wx} {wy} {read}");
                // Another inherit mode defers in the matrix layout.
                bone.inherit = Inherit::OnlyTranslation;
                (bone.a, bone.b, bone.c, bone.d, bone.world_x, bone.world_y) = (a, b, c, d, wx, wy);
                bone.update_applied_transform(Some(p), &frame);
                let mut fresh = Bone::new(&bone_data(Inherit::OnlyTranslation));
                (fresh.a, fresh.b, fresh.c, fresh.d, fresh.world_x, fresh.world_y) =
                    (a, b, c, d, wx, wy);
                fresh.update_applied_transform(Some(p), &frame);
                assert_eq!(pose_bits(bone.applied()), pose_bits(fresh.applied()));
            }
        }
    }
}

/// `set_world_update_applied` gives what setting the six world fields and calling
/// `update_applied_transform` gives, bit for bit (world and applied pose), for every
/// inherit mode, with and without a parent, deferred and computed at once.
#[test]
fn set_world_update_applied_equals_fields_then_update() {
    let frame = WorldFrame { x: 1.5, y: -2.0, scale_x: 1.25, scale_y: -0.75 };
    let parents = [
        None,
        Some(ParentWorld { a: 0.9, b: -0.3, c: 0.2, d: 1.1, world_x: 3.0, world_y: 4.0 }),
        Some(ParentWorld { a: 0.0, b: 0.0, c: 0.0, d: 0.0, world_x: 0.0, world_y: 0.0 }),
        Some(ParentWorld { a: f32::NAN, b: 1.0, c: 0.0, d: 1.0, world_x: 0.0, world_y: 0.0 }),
    ];
    let worlds: [[f32; 6]; 3] = [
        [0.5, -0.8, 0.8, 0.5, 10.0, -3.0],
        [-2.0, 0.1, 0.3, -1e-6, 1e6, -0.0],
        [1.0, 0.0, 0.0, 1.0, f32::INFINITY, 2.0],
    ];
    let inherits = [
        Inherit::Normal,
        Inherit::OnlyTranslation,
        Inherit::NoRotationOrReflection,
        Inherit::NoScale,
        Inherit::NoScaleOrReflection,
    ];
    let mut checked = 0;
    for inherit in inherits {
        for p in parents {
            for w in worlds {
                for read_after in [false, true] {
                    let mut want = Bone::new(&bone_data(inherit));
                    let mut got = want.clone();
                    if read_after {
                        want.ap_flags |= AP_READ_AFTER;
                        got.ap_flags |= AP_READ_AFTER;
                    }
                    let [a, b, c, d, wx, wy] = w;
                    (want.a, want.b, want.c, want.d, want.world_x, want.world_y) =
                        (a, b, c, d, wx, wy);
                    want.update_applied_transform(p, &frame);
                    got.set_world_update_applied(w, p, &frame);
                    let world =
                        |b: &Bone| [b.a, b.b, b.c, b.d, b.world_x, b.world_y].map(f32::to_bits);
                    assert_eq!(world(&got), world(&want), "{inherit:?} {p:?} {w:?}");
                    assert_eq!(
                        pose_bits(got.applied()),
                        pose_bits(want.applied()),
                        "{inherit:?} {p:?} {w:?} {read_after}"
                    );
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 5 * 4 * 3 * 2);
}

/// The IK solver's paired poses (`sin_cos_deg_pair` of two rotations plus shear x,
/// `local_matrix_equal_shears`, `pose_normal`) give what `pose_cached` gives for each
/// bone, bit for bit (world and applied pose), for equal shears and finite angles (the
/// solver poses the others through `pose_cached`).
#[test]
fn paired_poses_equal_pose_cached() {
    let frame = WorldFrame { x: 1.5, y: -2.0, scale_x: 1.25, scale_y: -0.75 };
    let parent = ParentWorld { a: 0.9, b: -0.3, c: 0.2, d: 1.1, world_x: 3.0, world_y: 4.0 };
    let rotations =
        [0.0, -0.0, 30.0, -45.5, 90.0, 179.99, -270.25, 1234.5, 1e7, -3e9, f32::NAN, f32::INFINITY];
    let shears = [0.0, -0.0, 12.5, f32::NAN];
    let bits = |b: &Bone| {
        let ap = b.applied();
        [b.a, b.b, b.c, b.d, b.world_x, b.world_y, ap.rotation, ap.scale_x, ap.shear_x]
            .map(f32::to_bits)
    };
    for (i, &r0) in rotations.iter().enumerate() {
        let r1 = rotations[(i * 7 + 3) % rotations.len()];
        for &h in &shears {
            if !((r0 + h).is_finite() && (r1 + h).is_finite()) {
                continue; // The solver poses these through `pose_cached`.
            }
            let (sx, sy) = (1.5, -0.5);
            let mut want =
                [Bone::new(&bone_data(Inherit::Normal)), Bone::new(&bone_data(Inherit::Normal))];
            want[0].pose_cached(None, Some(parent), &frame, pose([1.0, 2.0, r0, sx, sy, h, h]));
            want[1].pose_cached(None, Some(parent), &frame, pose([-1.0, 0.5, r1, sy, sx, h, h]));
            let mut got =
                [Bone::new(&bone_data(Inherit::Normal)), Bone::new(&bone_data(Inherit::Normal))];
            let ((s0, c0), (s1, c1)) = math::sin_cos_deg_pair(r0 + h, r1 + h);
            got[0].pose_normal(
                parent,
                pose([1.0, 2.0, r0, sx, sy, h, h]),
                local_matrix_equal_shears(s0, c0, sx, sy),
            );
            got[1].pose_normal(
                parent,
                pose([-1.0, 0.5, r1, sy, sx, h, h]),
                local_matrix_equal_shears(s1, c1, sy, sx),
            );
            assert_eq!(bits(&got[0]), bits(&want[0]), "{r0} {h}");
            assert_eq!(bits(&got[1]), bits(&want[1]), "{r1} {h}");
        }
    }
}

/// The local-matrix cache returns what a fresh computation gives, bit for bit, whatever
/// the previous inputs were (including `-0.0` against `0.0` and NaN).
#[test]
fn local_matrix_cache_is_transparent() {
    let frame = WorldFrame { x: 1.5, y: -2.0, scale_x: 1.25, scale_y: -0.75 };
    let parent = ParentWorld { a: 0.9, b: -0.3, c: 0.2, d: 1.1, world_x: 3.0, world_y: 4.0 };
    let poses: [[f32; 7]; 6] = [
        [1.0, 2.0, 30.0, 1.0, 1.0, 0.0, 0.0],
        [1.0, 2.0, 30.0, 1.0, 1.0, 0.0, 0.0],
        [1.0, 2.0, -0.0, 2.0, 0.5, 10.0, -5.0],
        [1.0, 2.0, 0.0, 2.0, 0.5, 10.0, -5.0],
        [0.0, 0.0, f32::NAN, 1.0, 1.0, 0.0, 0.0],
        [1.0, 2.0, 30.0, 1.0, 1.0, 0.0, 0.0],
    ];
    for inherit in [Inherit::Normal, Inherit::OnlyTranslation] {
        let data = bone_data(inherit);
        let mut cached = Bone::new(&data);
        let mut outside = Bone::new(&data);
        let mut cache = LocalCache::default();
        for parent in [None, Some(parent)] {
            for [x, y, r, sx, sy, hx, hy] in poses {
                let ap = pose([x, y, r, sx, sy, hx, hy]);
                cached.update_world_transform_with(parent, &frame, ap);
                outside.update_world_transform_cached(Some(&mut cache), parent, &frame, ap);
                let mut fresh = Bone::new(&data);
                fresh.update_world_transform_with(parent, &frame, ap);
                let bits = |b: &Bone| [b.a, b.b, b.c, b.d, b.world_x, b.world_y].map(f32::to_bits);
                assert_eq!(bits(&cached), bits(&fresh), "{inherit:?} {r} {sx} {hx}");
                assert_eq!(bits(&outside), bits(&fresh), "{inherit:?} {r} {sx} {hx}");
                // The walk's pose (the applied pose just set) through the bone's own cache.
                outside.update_from_applied(parent, &frame);
                assert_eq!(bits(&outside), bits(&fresh), "{inherit:?} {r} {sx} {hx}");
            }
        }
    }
}

/// `find_odd` finds what a scan of every slot finds, whatever marks were set before
/// (the odd count never lets it skip a slot in the state it looks for).
#[test]
fn attachment_states_find_what_a_scan_finds() {
    let mut rng = crate::test_rng::Rng(0x9e37_79b9_7f4a_7c15);
    let mut st = AttachmentStates::default();
    let n = 9;
    for step in 0..4000 {
        let v = (rng.bits() % 12) as i32 - 4;
        st.set((rng.bits() % n as u64) as usize, n, v);
        assert_eq!(st.odd, st.states.iter().filter(|&&s| s & 1 != 0).count(), "{step}");
        for want in -5..9 {
            for from in 0..=n {
                let scan = (from..n).find(|&i| st.get(i) == want).filter(|_| want & 1 != 0);
                assert_eq!(st.find_odd(from, want), scan, "{step} {want} {from}");
            }
        }
    }
}

/// A translation-only move of a bone the update cache reads later keeps its applied pose
/// but for the position (`Bone::moved_keeping_pose`): the position bit for bit what
/// spine-cpp's `updateAppliedTransform` computes, the rotation and scales within rounding
/// of its square root and `atan2`s, the world transform of an update from either pose
/// within rounding; and the poses it does not take (sheared, a negative scale, a rotation
/// near ±180°, a matrix something turned, a bone no later entry reads) are computed as
/// before, bit for bit.
#[test]
fn a_moved_bone_keeps_its_pose_within_rounding() {
    let mut rng = crate::test_rng::Rng(0x2545_f491_4f6c_dd1d);
    let mut next = |lo: f32, hi: f32| rng.range(lo, hi);
    let frame = WorldFrame { x: 0.0, y: 0.0, scale_x: 1.0, scale_y: 1.0 };
    let (mut kept, mut computed) = (0, 0);
    let (mut worst_angle, mut worst_scale, mut worst_world) = (0.0f32, 0.0f32, 0.0f32);
    for i in 0..4_000 {
        let (pr, psx, psy) = (next(-180.0, 180.0), next(0.5, 2.0), next(0.5, 2.0));
        let [pa, pb, pc, pd] = local_matrix(pr, psx, psy, 0.0, 0.0);
        let (px, py) = (next(-50.0, 50.0), next(-50.0, 50.0));
        let p = ParentWorld { a: pa, b: pb, c: pc, d: pd, world_x: px, world_y: py };
        let mut ap =
            pose([next(-20.0, 20.0), next(-20.0, 20.0), next(-170.0, 170.0), 0.0, 0.0, 0.0, 0.0]);
        (ap.scale_x, ap.scale_y) = (next(0.25, 3.0), next(0.25, 3.0));
        // One case in two the shortcut cannot take.
        let variant = if i % 2 == 0 { 0 } else { 1 + i / 2 % 5 };
        let read = variant != 5;
        match variant {
            1 => ap.shear_x = 10.0,
            2 => ap.shear_y = -5.0,
            3 => ap.scale_x = -ap.scale_x,
            4 => ap.rotation = 179.5,
            _ => {}
        }
        let mut b = Bone::new(&bone_data(Inherit::Normal));
        b.update_world_transform_with(Some(p), &frame, ap);
        if read {
            b.ap_flags |= AP_READ_AFTER | AP_CACHE_READ;
        }
        let (mut a, mut c) = (b.a, b.c);
        if variant == 0 && i % 4 == 2 {
            // Turned by a constraint before the move.
            (a, c) = (b.a * 0.8 - b.c * 0.6, b.a * 0.6 + b.c * 0.8);
        }
        let w = [a, b.b, c, b.d, b.world_x + next(-9.0, 9.0), b.world_y + next(-9.0, 9.0)];
        b.set_world_update_applied(w, Some(p), &frame);
        let got = b.applied();
        let want = applied_at_once(&b, p);
        if pose_bits(got) == pose_bits(want) {
            computed += 1;
            continue;
        }
        assert!(variant == 0 && i % 4 == 0, "case {i} (variant {variant}) kept its pose");
        kept += 1;
        assert_eq!(
            pose_bits(got),
            pose_bits(AppliedPose { x: want.x, y: want.y, ..ap }),
            "case {i}: the pose kept, the position computed"
        );
        worst_angle = worst_angle.max(math::abs(got.rotation - want.rotation));
        worst_angle = worst_angle.max(math::abs(want.shear_y));
        worst_scale = worst_scale.max(math::abs(got.scale_x / want.scale_x - 1.0));
        worst_scale = worst_scale.max(math::abs(got.scale_y / want.scale_y - 1.0));
        // The next update from either pose.
        let (mut from_got, mut from_want) = (b.clone(), b.clone());
        from_got.update_world_transform_with(Some(p), &frame, got);
        from_want.update_world_transform_with(Some(p), &frame, want);
        // Matrices of up to ≈ 6, positions of up to ≈ 100 (the same `x, y`: the same bits).
        let world = |b: &Bone| [b.a, b.b, b.c, b.d, b.world_x / 100.0, b.world_y / 100.0];
        for (x, y) in world(&from_got).into_iter().zip(world(&from_want)) {
            worst_world = worst_world.max(math::abs(x - y));
        }
    }
    assert_eq!((kept, computed), (1_000, 3_000));
    assert!(worst_angle < 1e-4, "rotation or shear off by {worst_angle}°");
    assert!(worst_scale < 1e-6, "scale off by {worst_scale} (relative)");
    assert!(worst_world < 1e-5, "world transform off by {worst_world}");
}
