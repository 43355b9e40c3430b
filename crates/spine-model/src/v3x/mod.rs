//! 3.5–3.7 and 3.8 binary → [`SkeletonData`].
//!
//! Both generations share their records (`spine_format::binary::v3_common`); they differ in
//! the string encoding (inline vs string table, abstracted by [`Text`]) and in a few header
//! fields, normalised by [`from_v35`] and [`from_v38`] into [`Head`]. Semantics follow
//! spine-libgdx `SkeletonBinary` of each 3.x branch.
//!
//! Upgrade rules applied here (checked over the corpus by `tests/corpus_all.rs` and
//! `tests/twins.rs`; the 3.x curve maths by unit tests in `curves.rs`):
//!
//! * **Behaviour**: [`Behaviour::new`] of the 3.x version: [`CurveModel::Sampled3x`] curve tables (one 3.x
//!   `setCurve` bezier per segment, shared by every channel, see `curves.rs`),
//!   [`RotationMix::Spine3`], [`EventWindow::Spine3`], no physics, no sequences,
//!   `ik_softness` from 3.8.
//! * **Transform modes → [`Inherit`]**: the five 3.x `TransformMode`s map one to one
//!   (`normal`, `onlyTranslation`, `noRotationOrReflection`, `noScale`,
//!   `noScaleOrReflection`).
//! * **Constraint order**: every 3.x runtime (libgdx/spine-c/spine-cpp 3.5–3.8
//!   `Skeleton.updateCache`) loops `i in 0..ik+transform+path` and takes the first IK, else
//!   transform, else path constraint whose `order == i` — the same precedence as 4.x, minus
//!   physics. Constraints the loop never reaches are reported (never updated by the runtime).
//! * **Transform constraints** → [`TransformSolver::Legacy3x`] (the 3.x maths differs from
//!   4.2 in the local absolute variant's angle wrapping), `local_source = local_target =
//!   local`, `additive = relative` (both `false` before 3.6); the four 3.x mixes become the
//!   six 4.x ones: `rotate`, `x = y = translate`, `scale x = scale y = scale`,
//!   `shear y = shear`; transform timelines likewise expand 4 → 6 channels.
//! * **Path constraints**: `rotateMix` → `mix_rotate`, `translateMix` → `mix_x = mix_y`;
//!   path mix timelines expand 2 → 3 channels (rotate, x, y).
//! * **IK**: 3.5/3.6 have no `compress`/`stretch`/`uniform` (false); before 3.8 no softness
//!   (0); `uniform: true` → [`ScaleYMode::Uniform`]. IK timelines get 2 channels (mix,
//!   softness × scale).
//! * **Colors / two-color tint**: slot dark colors (3.6+) from the `_ R G B` int bytes
//!   (3.6, spine-c); 3.7/3.8 as spine-cpp reads them, `R G B _` (see `dark_rgb_cpp`);
//!   two-color timelines become [`ColorProperty::Rgba2`] (light RGBA then dark RGB).
//! * **Deform (3.x FFD)**: keys become full deform arrays exactly like 4.x (setup vertices
//!   added for unweighted attachments); a deform keyed on a linked mesh's parent applies to
//!   linked meshes with `inheritDeform` (3.x `applyDeform`), expressed by
//!   `timeline_attachment`.
//! * **Linked meshes** name their parent's skin (`null` = the default skin).
//! * No bounds x/y before 3.8 (0); reference scale 100 × scale; no skin-required bones or
//!   constraints before 3.8.

mod animation;
mod attachments;
mod constraints;
mod load;
mod skins;

use spine_format::binary::v3_common as w;
use spine_format::binary::StrRef;

use crate::build::Builder;
use crate::data::*;
use crate::ids::*;

pub(crate) use constraints::{constraints3, mixes3, Con3, Ik3, Path3, Transform3};
pub(crate) use load::{from_v35, from_v38};

/// Resolves the generation's string encoding.
pub(crate) trait Text<S> {
    /// The text of a string field (`None` = null).
    fn text<'a>(&'a self, s: &'a S) -> Option<&'a str>;
}

/// 3.5–3.7 inline strings.
struct Inline;

impl Text<Option<String>> for Inline {
    fn text<'a>(&'a self, s: &'a Option<String>) -> Option<&'a str> {
        s.as_deref()
    }
}

/// 3.8 string table.
struct Table<'t>(&'t [String]);

impl Text<StrRef> for Table<'_> {
    fn text<'a>(&'a self, s: &'a StrRef) -> Option<&'a str> {
        s.resolve(self.0)
    }
}

/// 3.x transform modes map one to one onto [`Inherit`].
pub(crate) fn inherit(m: w::TransformMode) -> Inherit {
    match m {
        w::TransformMode::Normal => Inherit::Normal,
        w::TransformMode::OnlyTranslation => Inherit::OnlyTranslation,
        w::TransformMode::NoRotationOrReflection => Inherit::NoRotationOrReflection,
        w::TransformMode::NoScale => Inherit::NoScale,
        w::TransformMode::NoScaleOrReflection => Inherit::NoScaleOrReflection,
    }
}

/// A slot's blend mode.
fn blend(b: w::BlendMode) -> BlendMode {
    match b {
        w::BlendMode::Normal => BlendMode::Normal,
        w::BlendMode::Additive => BlendMode::Additive,
        w::BlendMode::Multiply => BlendMode::Multiply,
        w::BlendMode::Screen => BlendMode::Screen,
    }
}

/// A path position mode.
fn position_mode(m: w::PositionMode) -> PositionMode {
    match m {
        w::PositionMode::Fixed => PositionMode::Fixed,
        w::PositionMode::Percent => PositionMode::Percent,
    }
}

/// A path spacing mode.
fn spacing_mode(m: w::SpacingMode) -> SpacingMode {
    match m {
        w::SpacingMode::Length => SpacingMode::Length,
        w::SpacingMode::Fixed => SpacingMode::Fixed,
        w::SpacingMode::Percent => SpacingMode::Percent,
    }
}

/// A path rotate mode.
fn rotate_mode(m: w::RotateMode) -> RotateMode {
    match m {
        w::RotateMode::Tangent => RotateMode::Tangent,
        w::RotateMode::Chain => RotateMode::Chain,
        w::RotateMode::ChainScale => RotateMode::ChainScale,
    }
}

/// The conversion's state: the string resolver, the builder, the constraint ids per list.
struct Conv<'a, 'o, T> {
    t: &'a T,
    b: Builder<'o>,
    ids: [Vec<ConstraintId>; 4],
}

/// A named skin, normalised.
struct Skin3<'a, S> {
    name: String,
    bones: &'a [u32],
    cons: [&'a [u32]; 3],
    slots: &'a [w::SkinSlot<S>],
}

/// A slot's setup dark color as spine-cpp 3.7/3.8 `SkeletonBinary` reads it: four bytes
/// taken as `R G B A` (libgdx and spine-c read the same `int` as `_ R G B`), none when all
/// four are `FF`. The official C++ runtime of those versions therefore shifts every setup
/// dark color by one byte (`00 c5 7c 1e` gives `(0, c5, 7c)`, not `(c5, 7c, 1e)`).
fn dark_rgb_cpp(bytes: [u8; 4]) -> Option<[u8; 3]> {
    let [r, g, b, _] = bytes;
    (bytes != [0xff; 4]).then_some([r, g, b])
}
