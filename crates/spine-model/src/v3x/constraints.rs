//! 3.x-style constraints (3.x binaries and 3.5–4.2 JSON): the per-type lists, normalised,
//! merged by `order` as every 3.x `Skeleton.updateCache` does, then built.

use crate::build::{update_order, Builder};
use crate::data::*;
use crate::error::ProblemKind;
use crate::ids::*;

/// A 3.x constraint in its per-type list, normalised.
pub(crate) enum Con3<'a> {
    /// IK: record, softness, skin required.
    Ik { name: &'a str, order: u32, skin: bool, data: Ik3 },
    /// Transform.
    Transform { name: &'a str, order: u32, skin: bool, data: Transform3 },
    /// Path.
    Path { name: &'a str, order: u32, skin: bool, data: Path3 },
    /// Physics (4.2 JSON), already resolved.
    Physics { name: &'a str, order: u32, skin: bool, data: PhysicsData },
}

/// 3.x IK setup values (indices unresolved).
pub(crate) struct Ik3 {
    pub bones: Vec<u32>,
    pub target: u32,
    pub mix: f32,
    pub softness: f32,
    pub bend: i32,
    pub compress: bool,
    pub stretch: bool,
    pub uniform: bool,
}

/// 3.x transform setup values.
pub(crate) struct Transform3 {
    pub bones: Vec<u32>,
    pub target: u32,
    pub local: bool,
    pub relative: bool,
    /// Rotation, x, y (unscaled), scale x, scale y, shear y.
    pub offsets: [f32; 6],
    /// Rotate, x, y, scale x, scale y, shear y (3.x: expanded from its four mixes).
    pub mixes: [f32; 6],
    /// The solver.
    pub solver: TransformSolver,
}

/// 3.x path setup values.
pub(crate) struct Path3 {
    pub bones: Vec<u32>,
    pub target: u32,
    pub position_mode: PositionMode,
    pub spacing_mode: SpacingMode,
    pub rotate_mode: RotateMode,
    pub offset_rotation: f32,
    pub position: f32,
    pub spacing: f32,
    pub rotate_mix: f32,
    pub mix_x: f32,
    pub mix_y: f32,
}

impl Con3<'_> {
    fn order(&self) -> u32 {
        match self {
            Con3::Ik { order, .. }
            | Con3::Transform { order, .. }
            | Con3::Path { order, .. }
            | Con3::Physics { order, .. } => *order,
        }
    }
    fn name(&self) -> &str {
        match self {
            Con3::Ik { name, .. }
            | Con3::Transform { name, .. }
            | Con3::Path { name, .. }
            | Con3::Physics { name, .. } => name,
        }
    }
}

/// Merges the three per-type lists by `order` as every 3.x `Skeleton.updateCache` does (the
/// first IK, else transform, else path constraint with `order == i`, for `i` in
/// `0..count`; 4.2 JSON: then physics), builds them, and returns the ids of each list
/// (`[ik, transform, path, physics]`). `cons` must list IK constraints, then transform, then
/// path, then physics ones, each in file order.
pub(crate) fn constraints3(b: &mut Builder<'_>, cons: Vec<Con3<'_>>) -> [Vec<ConstraintId>; 4] {
    let kind = |c: &Con3<'_>| match c {
        Con3::Ik { .. } => 0usize,
        Con3::Transform { .. } => 1,
        Con3::Path { .. } => 2,
        Con3::Physics { .. } => 3,
    };
    let n = cons.len();
    let keys: Vec<(u32, &str)> = cons.iter().map(|c| (c.order(), c.name())).collect();
    let sorted = update_order(b, &keys);
    let mut ids: [Vec<ConstraintId>; 4] = Default::default();
    let mut within = vec![0usize; n];
    let mut counts = [0usize; 4];
    for (p, c) in cons.iter().enumerate() {
        let k = kind(c);
        within[p] = counts[k];
        counts[k] += 1;
    }
    for (k, v) in ids.iter_mut().enumerate() {
        *v = vec![ConstraintId(0); counts[k]];
    }
    for (id, &p) in sorted.iter().enumerate() {
        let id = ConstraintId(id as u32);
        ids[kind(&cons[p])][within[p]] = id;
        let data = build(b, &cons[p]);
        b.pop();
        b.data.constraints.push(data);
    }
    ids
}

/// Builds one constraint (its problems under its name; `b.pop()` by the caller).
fn build(b: &mut Builder<'_>, c: &Con3<'_>) -> ConstraintData {
    match c {
        Con3::Ik { name, skin, data, .. } => ik(b, name, *skin, data),
        Con3::Transform { name, skin, data, .. } => transform(b, name, *skin, data),
        Con3::Path { name, skin, data, .. } => path(b, name, *skin, data),
        Con3::Physics { name, skin, data, .. } => physics(b, name, *skin, data),
    }
}

/// An IK constraint (1 or 2 bones; bend direction −1 or 1).
fn ik(b: &mut Builder<'_>, name: &str, skin: bool, data: &Ik3) -> ConstraintData {
    b.enter("IK constraint", name);
    let d = IkData {
        bones: b.bones(&data.bones),
        target: b.bone(data.target),
        mix: b.f("mix", data.mix),
        softness: b.fs("softness", data.softness),
        bend_direction: if data.bend < 0 { -1 } else { 1 },
        compress: data.compress,
        stretch: data.stretch,
        scale_y_mode: if data.uniform { ScaleYMode::Uniform } else { ScaleYMode::None },
    };
    if d.bones.is_empty() || d.bones.len() > 2 {
        b.report(ProblemKind::Invalid(format!("{} constrained bones (1 or 2)", d.bones.len())));
    }
    ConstraintData { name: name.into(), skin_required: skin, kind: ConstraintKind::Ik(d) }
}

/// A transform constraint: identity from/to properties, x/y offsets scaled.
fn transform(b: &mut Builder<'_>, name: &str, skin: bool, data: &Transform3) -> ConstraintData {
    b.enter("transform constraint", name);
    let o = data.offsets;
    let m = data.mixes;
    let offsets = [
        b.f("offset", o[0]),
        b.fs("offset", o[1]),
        b.fs("offset", o[2]),
        b.f("offset", o[3]),
        b.f("offset", o[4]),
        b.f("offset", o[5]),
    ];
    let mixes = m.map(|v| b.f("mix", v));
    let d = TransformData {
        bones: b.bones(&data.bones),
        source: b.bone(data.target),
        local_source: data.local,
        local_target: data.local,
        additive: data.relative,
        clamp: false,
        properties: Vec::new(),
        offsets,
        mixes,
        solver: data.solver,
    };
    ConstraintData { name: name.into(), skin_required: skin, kind: ConstraintKind::Transform(d) }
}

/// A path constraint: position and spacing scaled when their modes are lengths.
fn path(b: &mut Builder<'_>, name: &str, skin: bool, data: &Path3) -> ConstraintData {
    b.enter("path constraint", name);
    let position = if data.position_mode == PositionMode::Fixed {
        b.fs("position", data.position)
    } else {
        b.f("position", data.position)
    };
    let spacing = if matches!(data.spacing_mode, SpacingMode::Length | SpacingMode::Fixed) {
        b.fs("spacing", data.spacing)
    } else {
        b.f("spacing", data.spacing)
    };
    let d = PathData {
        bones: b.bones(&data.bones),
        slot: b.slot(data.target),
        position_mode: data.position_mode,
        spacing_mode: data.spacing_mode,
        rotate_mode: data.rotate_mode,
        offset_rotation: b.f("offset rotation", data.offset_rotation),
        position,
        spacing,
        mix_rotate: b.f("mix rotate", data.rotate_mix),
        mix_x: b.f("mix x", data.mix_x),
        mix_y: b.f("mix y", data.mix_y),
    };
    ConstraintData { name: name.into(), skin_required: skin, kind: ConstraintKind::Path(d) }
}

/// A physics constraint (4.2 JSON), already resolved.
fn physics(b: &mut Builder<'_>, name: &str, skin: bool, data: &PhysicsData) -> ConstraintData {
    b.enter("physics constraint", name);
    ConstraintData {
        name: name.into(),
        skin_required: skin,
        kind: ConstraintKind::Physics(data.clone()),
    }
}

/// 3.x transform mixes (rotate, translate, scale, shear) as the six 4.x ones: translate
/// drives x and y, scale drives scale x and y.
pub(crate) fn mixes3([r, t, s, sh]: [f32; 4]) -> [f32; 6] {
    [r, t, t, s, s, sh]
}
