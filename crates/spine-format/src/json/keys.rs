//! What the 3.5–4.2 and the 4.3 animation readers share: the values of the keys both read the
//! same way, and the end time of the timelines both ASTs have (for `Animation::duration`).

use super::anim::{
    AttachmentTimeline, BoneTimeline, DeformKey, DrawOrderOffset, EventKey, IkKey, Key,
    PhysicsProperty, PhysicsTimeline, SequenceKey, SlotTimeline, TwoColor, Xy,
};
use super::value::{as_color, as_f32, as_i32, each, Obj, R};
use super::SequenceMode;

/// The time of the last key (0 without keys).
pub(crate) fn last<V>(keys: &[Key<V>]) -> f32 {
    keys.last().map_or(0.0, |k| k.time)
}

impl SlotTimeline {
    /// The time of its last key.
    pub(crate) fn end(&self) -> f32 {
        match self {
            SlotTimeline::Attachment(k) => last(k),
            SlotTimeline::Rgba(k) | SlotTimeline::Rgb(k) => last(k),
            SlotTimeline::Alpha(k) => last(k),
            SlotTimeline::Rgba2(k) | SlotTimeline::Rgb2(k) => last(k),
        }
    }
}

impl BoneTimeline {
    /// The time of its last key.
    pub(crate) fn end(&self) -> f32 {
        match self {
            BoneTimeline::Rotate(k)
            | BoneTimeline::TranslateX(k)
            | BoneTimeline::TranslateY(k)
            | BoneTimeline::ScaleX(k)
            | BoneTimeline::ScaleY(k)
            | BoneTimeline::ShearX(k)
            | BoneTimeline::ShearY(k) => last(k),
            BoneTimeline::Translate(k) | BoneTimeline::Scale(k) | BoneTimeline::Shear(k) => last(k),
            BoneTimeline::Inherit(k) => last(k),
        }
    }
}

impl PhysicsTimeline {
    /// The time of its last key.
    pub(crate) fn end(&self) -> f32 {
        match self {
            PhysicsTimeline::Reset(k) => last(k),
            PhysicsTimeline::Value(_, k) => last(k),
        }
    }
}

impl AttachmentTimeline {
    /// The time of its last key.
    pub(crate) fn end(&self) -> f32 {
        match self {
            AttachmentTimeline::Deform(k) => last(k),
            AttachmentTimeline::Sequence(k) => last(k),
        }
    }
}

/// The physics property a physics timeline key names (`None`: not a value timeline).
pub(crate) fn physics_property(name: &str) -> Option<PhysicsProperty> {
    use PhysicsProperty as Pp;
    Some(match name {
        "inertia" => Pp::Inertia,
        "strength" => Pp::Strength,
        "damping" => Pp::Damping,
        "mass" => Pp::Mass,
        "wind" => Pp::Wind,
        "gravity" => Pp::Gravity,
        "mix" => Pp::Mix,
        _ => return None,
    })
}

/// A required color `k`.
pub(crate) fn required_color(o: &Obj, k: &str) -> R<[u8; 4]> {
    o.req(k, as_color)
}

/// A two-color key: `light`, `dark` (both required).
pub(crate) fn two_color(o: &Obj) -> R<TwoColor> {
    Ok(TwoColor { light: required_color(o, "light")?, dark: required_color(o, "dark")? })
}

/// An `x`, `y` key.
pub(crate) fn xy(o: &Obj) -> R<Xy> {
    let (x, y) = o.get2("x", "y");
    Ok(Xy { x: o.opt_of("x", x, as_f32)?, y: o.opt_of("y", y, as_f32)? })
}

/// An IK constraint key.
pub(crate) fn ik_key(o: &Obj) -> R<IkKey> {
    Ok(IkKey {
        mix: o.f32("mix")?,
        softness: o.f32("softness")?,
        bend_positive: o.bool("bendPositive")?,
        compress: o.bool("compress")?,
        stretch: o.bool("stretch")?,
    })
}

/// A deform key.
pub(crate) fn deform_key(o: &Obj) -> R<DeformKey> {
    Ok(DeformKey { offset: o.i32("offset")?, vertices: o.floats("vertices", "deform value")? })
}

/// A sequence key.
pub(crate) fn sequence_key(o: &Obj) -> R<SequenceKey> {
    Ok(SequenceKey {
        mode: o.opt("mode", SequenceMode::read)?,
        index: o.i32("index")?,
        delay: o.f32("delay")?,
    })
}

/// A draw order key's `offsets`.
pub(crate) fn draw_order_offsets(o: &Obj) -> R<Option<Vec<DrawOrderOffset>>> {
    o.opt("offsets", |v, p| {
        each(v, p, "draw order change", |x, p| {
            let e = Obj::new(x, p)?;
            Ok(DrawOrderOffset { slot: e.req_string("slot")?, offset: e.req("offset", as_i32)? })
        })
    })
}

/// An event key.
pub(crate) fn event_key(o: &Obj) -> R<EventKey> {
    Ok(EventKey {
        name: o.req_name("name")?,
        int: o.i32("int")?,
        float: o.f32("float")?,
        string: o.string("string")?,
        volume: o.f32("volume")?,
        balance: o.f32("balance")?,
    })
}
