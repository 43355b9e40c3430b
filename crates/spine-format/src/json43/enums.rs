//! Enum values as the 4.3 loader reads them (`Utils.enumValue`), and the 4.3-only enums
//! ([`ScaleYMode`], [`Property`]).

use crate::json::value::{as_str, J, P, R};
use crate::json::{BlendMode, Inherit, PositionMode, RotateMode, SpacingMode};
use serde::Serialize;

/// Reads an enum spelled as the 4.3 loader reads it (`Utils.enumValue`: the first letter is
/// upper-cased before the lookup, so either case is accepted for it).
fn read_enum<T: Copy>(v: J<'_>, p: &P<'_>, all: &[T], name: fn(T) -> &'static str) -> R<T> {
    let s = as_str(v, p)?;
    let same = |n: &str| {
        let (mut a, mut b) = (s.chars(), n.chars());
        match (a.next(), b.next()) {
            (Some(x), Some(y)) => x.eq_ignore_ascii_case(&y) && a.as_str() == b.as_str(),
            (None, None) => true,
            _ => false,
        }
    };
    all.iter().copied().find(|&t| same(name(t))).ok_or_else(|| {
        let names: Vec<&str> = all.iter().map(|&t| name(t)).collect();
        p.err(format!("expected one of {}, found {s:?}", names.join(", ")))
    })
}

/// A slot `blend` mode.
pub(super) fn blend(v: J<'_>, p: &P<'_>) -> R<BlendMode> {
    use BlendMode as B;
    read_enum(v, p, &[B::Normal, B::Additive, B::Multiply, B::Screen], B::as_str)
}

pub(super) fn inherit(v: J<'_>, p: &P<'_>) -> R<Inherit> {
    use Inherit as I;
    let all = [
        I::Normal,
        I::OnlyTranslation,
        I::NoRotationOrReflection,
        I::NoScale,
        I::NoScaleOrReflection,
    ];
    read_enum(v, p, &all, I::as_str)
}

/// A path constraint `positionMode`.
pub(super) fn position_mode(v: J<'_>, p: &P<'_>) -> R<PositionMode> {
    read_enum(v, p, &[PositionMode::Fixed, PositionMode::Percent], PositionMode::as_str)
}

/// A path constraint `spacingMode`.
pub(super) fn spacing_mode(v: J<'_>, p: &P<'_>) -> R<SpacingMode> {
    use SpacingMode as S;
    read_enum(v, p, &[S::Length, S::Fixed, S::Percent, S::Proportional], S::as_str)
}

/// A path constraint `rotateMode`.
pub(super) fn rotate_mode(v: J<'_>, p: &P<'_>) -> R<RotateMode> {
    use RotateMode as M;
    read_enum(v, p, &[M::Tangent, M::Chain, M::ChainScale], M::as_str)
}

/// How IK stretch or physics scale-x changes a bone's scale y (`scaleY`; default `none`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ScaleYMode {
    /// `none`.
    None,
    /// `uniform`.
    Uniform,
    /// `volume`.
    Volume,
}

impl ScaleYMode {
    /// The spelling written.
    pub fn as_str(self) -> &'static str {
        match self {
            ScaleYMode::None => "none",
            ScaleYMode::Uniform => "uniform",
            ScaleYMode::Volume => "volume",
        }
    }
    pub(super) fn read(v: J<'_>, p: &P<'_>) -> R<Self> {
        use ScaleYMode as S;
        read_enum(v, p, &[S::None, S::Uniform, S::Volume], S::as_str)
    }
}

/// A bone property read or written by transform constraints and sliders.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Property {
    /// `rotate`.
    Rotate,
    /// `x` (scaled).
    X,
    /// `y` (scaled).
    Y,
    /// `scaleX`.
    ScaleX,
    /// `scaleY`.
    ScaleY,
    /// `shearY`.
    ShearY,
}

impl Property {
    /// Every property, in the wire order.
    pub const ALL: [Property; 6] = [
        Property::Rotate,
        Property::X,
        Property::Y,
        Property::ScaleX,
        Property::ScaleY,
        Property::ShearY,
    ];
    /// The spelling in the JSON file.
    pub fn as_str(self) -> &'static str {
        match self {
            Property::Rotate => "rotate",
            Property::X => "x",
            Property::Y => "y",
            Property::ScaleX => "scaleX",
            Property::ScaleY => "scaleY",
            Property::ShearY => "shearY",
        }
    }
    /// From the spelling (exact, as the loader's `switch`).
    pub fn from_name(s: &str) -> Option<Property> {
        Property::ALL.into_iter().find(|p| p.as_str() == s)
    }
    pub(super) fn read(v: J<'_>, p: &P<'_>) -> R<Self> {
        let s = as_str(v, p)?;
        Property::from_name(s).ok_or_else(|| {
            p.err(format!("expected one of rotate, x, y, scaleX, scaleY, shearY, found {s:?}"))
        })
    }
}
