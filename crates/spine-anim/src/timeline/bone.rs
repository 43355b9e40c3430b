//! Bone timelines (rotate, translate, scale, shear; the 3.x rotation rules).

use super::*;

/// 3.x rotation wrap: `r - (16384 - (int)(16384.499999999996 - r / 360)) * 360`.
pub(crate) fn wrap_3x(r: f32) -> f32 {
    let n = (16384.499999999996f64 - f64::from(r / 360.0)) as i32;
    r - (16384 - n) as f32 * 360.0
}

/// 3.x `RotateTimeline::apply` ([`RotationMix::Spine3`]): the key delta is wrapped into
/// `[-180, 180]` before interpolating, and the animated offset is wrapped again.
pub(super) fn rotate_3x(
    curves: &Curves,
    keys: &[f32],
    time: f32,
    alpha: f32,
    blend: MixBlend,
    current: f32,
    setup: f32,
) -> f32 {
    let c = curves.table(keys);
    let n = c.frame_count();
    if n == 0 {
        return current;
    }
    if time < c.time(0) {
        return match blend {
            MixBlend::Setup => setup,
            MixBlend::First => current + wrap_3x(setup - current) * alpha,
            _ => current,
        };
    }
    if time >= c.time(n - 1) {
        let mut r = c.value(n - 1, 0);
        return match blend {
            MixBlend::Setup => setup + r * alpha,
            MixBlend::First | MixBlend::Replace => {
                r += setup - current;
                current + wrap_3x(r) * alpha
            }
            MixBlend::Add => current + r * alpha,
        };
    }
    let k = search(c, time);
    let prev = c.value(k, 0);
    let percent = percent_3x(c, time, k);
    let mut r = prev + wrap_3x(c.value(k + 1, 0) - prev) * percent;
    match blend {
        MixBlend::Setup => setup + wrap_3x(r) * alpha,
        MixBlend::First | MixBlend::Replace => {
            r += setup - current;
            current + wrap_3x(r) * alpha
        }
        MixBlend::Add => current + wrap_3x(r) * alpha,
    }
}

#[inline(always)]
pub(super) fn apply_bone(
    sk: &mut Skeleton,
    data: &SkeletonData,
    bi: usize,
    property: BoneProperty,
    (curves, keys): (&Curves, &[f32]),
    args: ApplyArgs,
) {
    if !sk.bones.get(bi).is_some_and(|b| b.active) {
        return;
    }
    let rules = BoneRules::of(data);
    apply_bone_in(&mut sk.bones, &data.bones, rules, bi, property, (curves, keys), args);
}

/// The [`Behaviour`](spine_model::Behaviour) flags bone timelines read.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BoneRules {
    /// 3.x rotation mixing ([`RotationMix::Spine3`]).
    pub(crate) rotate_3x: bool,
    /// 4.3 timelines (scale y reads the current scale y).
    pub(crate) spine43: bool,
}

impl BoneRules {
    /// The flags of `data`.
    #[inline(always)]
    pub(crate) fn of(data: &SkeletonData) -> BoneRules {
        BoneRules {
            rotate_3x: data.behaviour.rotation_mix == RotationMix::Spine3,
            spine43: data.behaviour.mix_from_add_model,
        }
    }
}

/// The bone timelines of `timelines` from `*ii` on, until the first other kind (left at
/// `*ii`) or the end (their tables in `keys`): [`apply_held`] for each, with the skeleton's bones and the data's bone
/// list borrowed once for the whole run (not re-read through the skeleton per timeline).
///
/// The caller passes only bone timelines with keys on active bones (the state's timeline
/// ranges leave the others out, `TrackEntry::active_runs`, rebuilt when the skeleton's
/// update cache, which sets `Bone::active`, is): neither the full no-key test nor the
/// active test is repeated here, only an empty table is stepped over (what keeps the
/// readers in bounds).
#[inline(always)]
pub(crate) fn apply_bone_run(
    bones: &mut [crate::skeleton::Bone],
    data: &SkeletonData,
    timelines: &[Timeline],
    keys: &[f32],
    ii: &mut usize,
    args: ApplyArgs,
) {
    let rules = BoneRules::of(data);
    // Both slices cut to one length: one bounds check per timeline serves both.
    let n = bones.len().min(data.bones.len());
    let (bones, bone_data) = (&mut bones[..n], &data.bones[..n]);
    let Some(rest) = timelines.get(*ii..) else { return };
    for tl in rest {
        let Timeline::Bone { bone, property, curves } = tl else { return };
        *ii += 1;
        debug_assert!(!curves.is_empty(), "bone timeline without keys in a run");
        let (bi, p, c) = (bone.index(), *property, (curves, keys));
        apply_bone_in(bones, bone_data, rules, bi, p, c, args);
    }
}

/// [`apply_bone`] over the bones and bone data slices, for an active bone (the callers test it).
#[inline(always)]
pub(super) fn apply_bone_in(
    bones: &mut [crate::skeleton::Bone],
    bone_data: &[spine_model::BoneData],
    rules: BoneRules,
    bi: usize,
    property: BoneProperty,
    (curves, keys): (&Curves, &[f32]),
    args: ApplyArgs,
) {
    let ApplyArgs { time, alpha, blend, .. } = args;
    let Some(bd) = bone_data.get(bi) else { return };
    let Some(b) = bones.get_mut(bi) else { return };
    // The table is built where it is read inline; the out-of-line arms get its location
    // (see `bezier_value_clamped`).
    let c = curves.table(keys);
    match property {
        BoneProperty::Rotate if rules.rotate_3x => {
            b.rotation = rotate_3x(curves, keys, time, alpha, blend, b.rotation, bd.rotation)
        }
        BoneProperty::Rotate => {
            b.rotation = relative(c, time, alpha, blend, b.rotation, bd.rotation)
        }
        BoneProperty::TranslateX => b.x = relative(c, time, alpha, blend, b.x, bd.x),
        BoneProperty::TranslateY => b.y = relative(c, time, alpha, blend, b.y, bd.y),
        BoneProperty::ShearX => b.shear_x = relative(c, time, alpha, blend, b.shear_x, bd.shear_x),
        BoneProperty::ShearY => b.shear_y = relative(c, time, alpha, blend, b.shear_y, bd.shear_y),
        BoneProperty::ScaleX => {
            let (current, setup) = (b.scale_x, bd.scale_x);
            b.scale_x = scale_value((curves, keys), args, current, setup)
        }
        // spine-cpp 4.2 quirk: the current value passed is scale *x* (4.3 passes scale y).
        BoneProperty::ScaleY => {
            let current = if rules.spine43 { b.scale_y } else { b.scale_x };
            let setup = bd.scale_y;
            b.scale_y = scale_value((curves, keys), args, current, setup)
        }
        BoneProperty::Translate => {
            relative2(c, time, alpha, blend, (&mut b.x, &mut b.y), (bd.x, bd.y))
        }
        BoneProperty::Shear => relative2(
            c,
            time,
            alpha,
            blend,
            (&mut b.shear_x, &mut b.shear_y),
            (bd.shear_x, bd.shear_y),
        ),
        BoneProperty::Scale => scale2(b, bd, (curves, keys), args),
    }
}

/// [`relative`] for a two-channel timeline (translate, shear): spine-cpp
/// `TranslateTimeline::apply` / `ShearTimeline::apply` on `(cx, cy)` with setup `(sx, sy)`.
#[inline(always)]
pub(crate) fn relative2(
    c: CurveTable<'_>,
    time: f32,
    alpha: f32,
    blend: MixBlend,
    current: (&mut f32, &mut f32),
    setup: (f32, f32),
) {
    relative2_from(c, Scan, time, alpha, blend, current, setup)
}

/// [`relative2`] with the key found by `search`.
#[inline(always)]
pub(crate) fn relative2_from(
    c: CurveTable<'_>,
    search: impl KeySearch,
    time: f32,
    alpha: f32,
    blend: MixBlend,
    (cx, cy): (&mut f32, &mut f32),
    (sx, sy): (f32, f32),
) {
    let Some(&first) = c.frames.first() else { return };
    if time < first {
        match blend {
            MixBlend::Setup => {
                *cx = sx;
                *cy = sy;
            }
            MixBlend::First => {
                *cx += (sx - *cx) * alpha;
                *cy += (sy - *cy) * alpha;
            }
            _ => {}
        }
        return;
    }
    let [x, y] = curve_values_from::<2, _>(c, time, search).0;
    match blend {
        MixBlend::Setup => {
            *cx = sx + x * alpha;
            *cy = sy + y * alpha;
        }
        MixBlend::First | MixBlend::Replace => {
            *cx += (sx + x - *cx) * alpha;
            *cy += (sy + y - *cy) * alpha;
        }
        MixBlend::Add => {
            *cx += x * alpha;
            *cy += y * alpha;
        }
    }
}

/// The `Scale` arm of [`apply_bone`] (spine-cpp `ScaleTimeline::apply`).
#[inline(never)]
pub(crate) fn scale2(
    b: &mut crate::skeleton::Bone,
    bd: &spine_model::BoneData,
    (curves, keys): (&Curves, &[f32]),
    args: ApplyArgs,
) {
    let ApplyArgs { time, alpha, blend, direction, .. } = args;
    let c = curves.table(keys);
    let Some(&first) = c.frames.first() else { return };
    if time < first {
        match blend {
            MixBlend::Setup => {
                b.scale_x = bd.scale_x;
                b.scale_y = bd.scale_y;
            }
            MixBlend::First => {
                b.scale_x += (bd.scale_x - b.scale_x) * alpha;
                b.scale_y += (bd.scale_y - b.scale_y) * alpha;
            }
            _ => {}
        }
        return;
    }
    let v = curve_values_n::<2>(c, time);
    let x = v[0] * bd.scale_x;
    let y = v[1] * bd.scale_y;
    if alpha == 1.0 {
        if blend == MixBlend::Add {
            b.scale_x += x - bd.scale_x;
            b.scale_y += y - bd.scale_y;
        } else {
            b.scale_x = x;
            b.scale_y = y;
        }
    } else if direction == MixDirection::Out {
        match blend {
            MixBlend::Setup => {
                let (bx, by) = (bd.scale_x, bd.scale_y);
                b.scale_x = bx + (math::abs(x) * math::sign(bx) - bx) * alpha;
                b.scale_y = by + (math::abs(y) * math::sign(by) - by) * alpha;
            }
            MixBlend::First | MixBlend::Replace => {
                let (bx, by) = (b.scale_x, b.scale_y);
                b.scale_x = bx + (math::abs(x) * math::sign(bx) - bx) * alpha;
                b.scale_y = by + (math::abs(y) * math::sign(by) - by) * alpha;
            }
            MixBlend::Add => {
                b.scale_x += (x - bd.scale_x) * alpha;
                b.scale_y += (y - bd.scale_y) * alpha;
            }
        }
    } else {
        match blend {
            MixBlend::Setup => {
                let bx = math::abs(bd.scale_x) * math::sign(x);
                let by = math::abs(bd.scale_y) * math::sign(y);
                b.scale_x = bx + (x - bx) * alpha;
                b.scale_y = by + (y - by) * alpha;
            }
            MixBlend::First | MixBlend::Replace => {
                let bx = math::abs(b.scale_x) * math::sign(x);
                let by = math::abs(b.scale_y) * math::sign(y);
                b.scale_x = bx + (x - bx) * alpha;
                b.scale_y = by + (y - by) * alpha;
            }
            MixBlend::Add => {
                b.scale_x += (x - bd.scale_x) * alpha;
                b.scale_y += (y - bd.scale_y) * alpha;
            }
        }
    }
}

/// spine-cpp 4.2 `InheritTimeline::apply`: the bone's inherit mode of the key before `time`.
#[inline(always)]
pub(super) fn apply_inherit(
    sk: &mut Skeleton,
    data: &SkeletonData,
    bone: &spine_model::BoneId,
    keys: &[(f32, spine_model::Inherit)],
    args: ApplyArgs,
) {
    let ApplyArgs { time, blend, direction, .. } = args;
    let Some(b) = sk.bones.get_mut(bone.index()) else { return };
    if !b.active || keys.is_empty() {
        return;
    }
    let setup = data.bone(*bone).inherit;
    if direction == MixDirection::Out {
        // 4.3 `InheritTimeline`: mixing out from the setup pose *or* as first
        // (anything but the current pose) restores the setup inherit.
        let first43 = blend == MixBlend::First && data.behaviour.mix_from_add_model;
        if blend == MixBlend::Setup || first43 {
            b.inherit = setup;
        }
        return;
    }
    if time < keys[0].0 {
        if matches!(blend, MixBlend::Setup | MixBlend::First) {
            b.inherit = setup;
        }
        return;
    }
    let mut k = keys.len() - 1;
    for (i, key) in keys.iter().enumerate().skip(1) {
        if key.0 > time {
            k = i - 1;
            break;
        }
    }
    b.inherit = keys[k].1;
}
