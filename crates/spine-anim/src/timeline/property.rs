//! Property ids (spine-cpp `Property` << 32 | index), used by AnimationState.

use super::*;

// ---------------------------------------------------------------------------------------
// Property ids (spine-cpp `Property` << 32 | index), used by AnimationState.

pub(super) const P_ROTATE: i64 = 1 << 0;
pub(super) const P_X: i64 = 1 << 1;
pub(super) const P_Y: i64 = 1 << 2;
pub(super) const P_SCALE_X: i64 = 1 << 3;
pub(super) const P_SCALE_Y: i64 = 1 << 4;
pub(super) const P_SHEAR_X: i64 = 1 << 5;
pub(super) const P_SHEAR_Y: i64 = 1 << 6;
pub(super) const P_INHERIT: i64 = 1 << 7;
pub(super) const P_RGB: i64 = 1 << 8;
pub(super) const P_ALPHA: i64 = 1 << 9;
pub(super) const P_RGB2: i64 = 1 << 10;
pub(super) const P_ATTACHMENT: i64 = 1 << 11;
pub(super) const P_DEFORM: i64 = 1 << 12;
pub(super) const P_EVENT: i64 = 1 << 13;
pub(super) const P_DRAW_ORDER: i64 = 1 << 14;
pub(super) const P_IK: i64 = 1 << 15;
pub(super) const P_TRANSFORM: i64 = 1 << 16;
pub(super) const P_PATH_POSITION: i64 = 1 << 17;
pub(super) const P_PATH_SPACING: i64 = 1 << 18;
pub(super) const P_PATH_MIX: i64 = 1 << 19;
pub(super) const P_PHYSICS_INERTIA: i64 = 1 << 20;
pub(super) const P_PHYSICS_RESET: i64 = 1 << 27;
pub(super) const P_SEQUENCE: i64 = 1 << 28;
pub(super) const P_SLIDER_TIME: i64 = 1 << 29;
pub(super) const P_SLIDER_MIX: i64 = 1 << 30;

/// spine-cpp 4.3 `Property_DrawOrderFolder` (one id per folder slot).
pub(super) const P_DRAW_ORDER_FOLDER: i64 = 1 << 31;

/// The property id of the (plain) draw-order timeline.
pub const DRAW_ORDER_PROPERTY_ID: i64 = P_DRAW_ORDER << 32;

/// Property ids of a timeline: up to 3 held inline, more (a 4.3 draw-order folder has one
/// per folder slot) as a range of a shared spill table filled by [`property_ids`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PropertyIds {
    ids: [i64; 3],
    len: u8,
    /// `(start, len)` in the spill table when the ids are not inline.
    spill: Option<(u32, u32)>,
}

impl PropertyIds {
    fn of(ids: &[i64]) -> PropertyIds {
        let mut p = PropertyIds::default();
        for (d, s) in p.ids.iter_mut().zip(ids) {
            *d = *s;
        }
        p.len = ids.len().min(3) as u8;
        p
    }

    /// Stores `ids` inline when they fit, else appends them to `spill`.
    fn many(ids: impl ExactSizeIterator<Item = i64>, spill: &mut Vec<i64>) -> PropertyIds {
        let n = ids.len();
        if n <= 3 {
            let mut p = PropertyIds { len: n as u8, ..PropertyIds::default() };
            for (d, s) in p.ids.iter_mut().zip(ids) {
                *d = s;
            }
            return p;
        }
        let start = spill.len();
        spill.extend(ids);
        match (u32::try_from(start), u32::try_from(n)) {
            (Ok(s), Ok(l)) => PropertyIds { spill: Some((s, l)), ..PropertyIds::default() },
            _ => PropertyIds::default(),
        }
    }

    /// The ids; `spill` is the table passed to [`property_ids`] (unused for inline ids).
    pub fn get<'a>(&'a self, spill: &'a [i64]) -> &'a [i64] {
        match self.spill {
            Some((s, n)) => spill.get(s as usize..s as usize + n as usize).unwrap_or(&[]),
            None => &self.ids[..self.len as usize],
        }
    }
}

pub(super) fn id(p: i64, index: i64) -> i64 {
    (p << 32) | index
}

/// Index of constraint `c` among the constraints of its type (spine-cpp's per-type lists).
pub(super) fn type_index(data: &SkeletonData, c: spine_model::ConstraintId) -> i64 {
    let Some(ty) = data.constraints.get(c.index()).map(|x| x.kind.constraint_type()) else {
        return 0;
    };
    data.constraints[..c.index()].iter().filter(|x| x.kind.constraint_type() == ty).count() as i64
}

/// spine-cpp 4.2 property ids of a timeline, quirks included (a shear-y timeline claims the
/// shear-x id; every global physics timeline gets id `-1`). With
/// `Behaviour::mix_from_add_model` (spine-ts 4.3 ids): a draw-order folder timeline gets one
/// id per folder slot (`Property_DrawOrderFolder << 32 | slot`), not the draw-order id;
/// shear y has its own id; a global physics timeline gets its property's id with index
/// `-1` (32 bits); every physics reset timeline gets the one reset id; ids that
/// do not fit inline are appended to `spill` (read them back with [`PropertyIds::get`]).
pub fn property_ids(data: &SkeletonData, tl: &Timeline, spill: &mut Vec<i64>) -> PropertyIds {
    match tl {
        Timeline::Bone { bone, property, .. } => {
            let b = bone.index() as i64;
            match property {
                BoneProperty::Rotate => PropertyIds::of(&[id(P_ROTATE, b)]),
                BoneProperty::Translate => PropertyIds::of(&[id(P_X, b), id(P_Y, b)]),
                BoneProperty::TranslateX => PropertyIds::of(&[id(P_X, b)]),
                BoneProperty::TranslateY => PropertyIds::of(&[id(P_Y, b)]),
                BoneProperty::Scale => PropertyIds::of(&[id(P_SCALE_X, b), id(P_SCALE_Y, b)]),
                BoneProperty::ScaleX => PropertyIds::of(&[id(P_SCALE_X, b)]),
                BoneProperty::ScaleY => PropertyIds::of(&[id(P_SCALE_Y, b)]),
                BoneProperty::Shear => PropertyIds::of(&[id(P_SHEAR_X, b), id(P_SHEAR_Y, b)]),
                // 4.3 gives shear y its own id (spine-cpp 4.2 claims the shear-x one).
                BoneProperty::ShearY if data.behaviour.mix_from_add_model => {
                    PropertyIds::of(&[id(P_SHEAR_Y, b)])
                }
                BoneProperty::ShearX | BoneProperty::ShearY => PropertyIds::of(&[id(P_SHEAR_X, b)]),
            }
        }
        Timeline::Inherit { bone, .. } => PropertyIds::of(&[id(P_INHERIT, bone.index() as i64)]),
        Timeline::Attachment { slot, .. } => {
            PropertyIds::of(&[id(P_ATTACHMENT, slot.index() as i64)])
        }
        Timeline::Color { slot, property, .. } => {
            let s = slot.index() as i64;
            match property {
                ColorProperty::Rgba => PropertyIds::of(&[id(P_RGB, s), id(P_ALPHA, s)]),
                ColorProperty::Rgb => PropertyIds::of(&[id(P_RGB, s)]),
                ColorProperty::Rgba2 => {
                    PropertyIds::of(&[id(P_RGB, s), id(P_ALPHA, s), id(P_RGB2, s)])
                }
                ColorProperty::Rgb2 => PropertyIds::of(&[id(P_RGB, s), id(P_RGB2, s)]),
                ColorProperty::Alpha => PropertyIds::of(&[id(P_ALPHA, s)]),
            }
        }
        Timeline::Deform { slot, attachment, .. } => PropertyIds::of(&[id(
            P_DEFORM,
            ((slot.index() as i64) << 16 | attachment.index() as i64) & 0xffff_ffff,
        )]),
        Timeline::Sequence { slot, attachment, .. } => PropertyIds::of(&[id(
            P_SEQUENCE,
            ((slot.index() as i64) << 16 | attachment.index() as i64) & 0xffff_ffff,
        )]),
        Timeline::Ik { constraint, .. } => {
            PropertyIds::of(&[id(P_IK, type_index(data, *constraint))])
        }
        Timeline::Transform { constraint, .. } => {
            PropertyIds::of(&[id(P_TRANSFORM, type_index(data, *constraint))])
        }
        Timeline::Path { constraint, property, .. } => {
            let p = match property {
                PathProperty::Position => P_PATH_POSITION,
                PathProperty::Spacing => P_PATH_SPACING,
                PathProperty::Mix => P_PATH_MIX,
            };
            PropertyIds::of(&[id(p, type_index(data, *constraint))])
        }
        Timeline::Physics { constraint, property, .. } => {
            let p = P_PHYSICS_INERTIA << (*property as i64);
            match constraint {
                Some(c) => PropertyIds::of(&[id(p, type_index(data, *c))]),
                // 4.3: `property|-1`, one id per property.
                None if data.behaviour.mix_from_add_model => PropertyIds::of(&[id(p, 0xffff_ffff)]),
                None => PropertyIds::of(&[-1]),
            }
        }
        // 4.3: every reset timeline has the one id `physicsConstraintReset`.
        Timeline::PhysicsReset { .. } if data.behaviour.mix_from_add_model => {
            PropertyIds::of(&[id(P_PHYSICS_RESET, 0xffff_ffff)])
        }
        Timeline::PhysicsReset { constraint, .. } => match constraint {
            Some(c) => PropertyIds::of(&[id(P_PHYSICS_RESET, type_index(data, *c))]),
            None => PropertyIds::of(&[-1]),
        },
        Timeline::Slider { constraint, property, .. } => {
            let p = match property {
                SliderProperty::Time => P_SLIDER_TIME,
                SliderProperty::Mix => P_SLIDER_MIX,
            };
            PropertyIds::of(&[id(p, constraint.index() as i64)])
        }
        Timeline::DrawOrderFolder { slots, .. } if data.behaviour.mix_from_add_model => {
            PropertyIds::many(
                slots.iter().map(|s| id(P_DRAW_ORDER_FOLDER, s.index() as i64)),
                spill,
            )
        }
        Timeline::DrawOrder { .. } | Timeline::DrawOrderFolder { .. } => {
            PropertyIds::of(&[id(P_DRAW_ORDER, 0)])
        }
        Timeline::Event { .. } => PropertyIds::of(&[id(P_EVENT, 0)]),
    }
}
