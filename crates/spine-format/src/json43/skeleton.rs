//! The setup pose outside skins and constraints: the `skeleton` object, bones, slots and
//! event definitions.

use super::enums::{blend, inherit};
use super::named;
use crate::json::common::event_def;
use crate::json::value::{Obj, J, P, R};
use crate::json::EventDef;
use crate::json::{BlendMode, Inherit};
use serde::Serialize;

/// The `skeleton` object (every field optional; the whole object may be absent).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Info {
    /// `hash`.
    pub hash: Option<String>,
    /// `spine`: the editor version string.
    pub spine: Option<String>,
    /// `x` (default 0).
    pub x: Option<f32>,
    /// `y` (default 0).
    pub y: Option<f32>,
    /// `width` (default 0).
    pub width: Option<f32>,
    /// `height` (default 0).
    pub height: Option<f32>,
    /// `referenceScale` (default 100; scaled).
    pub reference_scale: Option<f32>,
    /// `fps` (nonessential; default 30).
    pub fps: Option<f32>,
    /// `images` path.
    pub images: Option<String>,
    /// `audio` path.
    pub audio: Option<String>,
}

/// A bone (`bones[i]`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Bone {
    /// `name` (required).
    pub name: crate::Name,
    /// `parent` bone name (absent for the root).
    pub parent: Option<String>,
    /// `length` (default 0; scaled).
    pub length: Option<f32>,
    /// `x` (default 0; scaled).
    pub x: Option<f32>,
    /// `y` (default 0; scaled).
    pub y: Option<f32>,
    /// `rotation` (default 0).
    pub rotation: Option<f32>,
    /// `scaleX` (default 1).
    pub scale_x: Option<f32>,
    /// `scaleY` (default 1).
    pub scale_y: Option<f32>,
    /// `shearX` (default 0).
    pub shear_x: Option<f32>,
    /// `shearY` (default 0).
    pub shear_y: Option<f32>,
    /// `inherit` (default `normal`).
    pub inherit: Option<Inherit>,
    /// `skin`: only active when a skin includes it (default false).
    pub skin: Option<bool>,
    /// `color` (nonessential; default `989898FF`).
    pub color: Option<[u8; 4]>,
    /// `icon` (nonessential).
    pub icon: Option<String>,
    /// `iconSize` (nonessential; default 1).
    pub icon_size: Option<f32>,
    /// `iconRotation` (nonessential; default 0).
    pub icon_rotation: Option<f32>,
    /// `visible` (nonessential; default true; not read by the runtime loader).
    pub visible: Option<bool>,
}

/// A slot (`slots[i]`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Slot {
    /// `name` (required).
    pub name: crate::Name,
    /// `bone` name (required).
    pub bone: String,
    /// `color` (default `FFFFFFFF`).
    pub color: Option<[u8; 4]>,
    /// `dark` color for two-color tinting (absent = no dark color; alpha ignored).
    pub dark: Option<[u8; 4]>,
    /// `attachment` visible in the setup pose.
    pub attachment: Option<String>,
    /// `blend` (default `normal`).
    pub blend: Option<BlendMode>,
    /// `visible` (nonessential; default true).
    pub visible: Option<bool>,
}

/// The `skeleton` object.
pub(super) fn read_info(o: &Obj) -> R<Info> {
    Ok(Info {
        hash: o.string("hash")?,
        spine: o.string("spine")?,
        x: o.f32("x")?,
        y: o.f32("y")?,
        width: o.f32("width")?,
        height: o.f32("height")?,
        reference_scale: o.f32("referenceScale")?,
        fps: o.f32("fps")?,
        images: o.string("images")?,
        audio: o.string("audio")?,
    })
}

/// A bone (`bones[i]`).
pub(super) fn read_bone(o: &Obj) -> R<Bone> {
    Ok(Bone {
        name: o.req_name("name")?,
        parent: o.string("parent")?,
        length: o.f32("length")?,
        x: o.f32("x")?,
        y: o.f32("y")?,
        rotation: o.f32("rotation")?,
        scale_x: o.f32("scaleX")?,
        scale_y: o.f32("scaleY")?,
        shear_x: o.f32("shearX")?,
        shear_y: o.f32("shearY")?,
        inherit: o.opt("inherit", inherit)?,
        skin: o.bool("skin")?,
        color: o.color("color")?,
        icon: o.string("icon")?,
        icon_size: o.f32("iconSize")?,
        icon_rotation: o.f32("iconRotation")?,
        visible: o.bool("visible")?,
    })
}

/// A slot (`slots[i]`).
pub(super) fn read_slot(o: &Obj) -> R<Slot> {
    Ok(Slot {
        name: o.req_name("name")?,
        bone: o.req_string("bone")?,
        color: o.color("color")?,
        dark: o.color("dark")?,
        attachment: o.string("attachment")?,
        blend: o.opt("blend", blend)?,
        visible: o.bool("visible")?,
    })
}

/// The `events` object (one per key, [`super::last_wins`]).
pub(super) fn read_events(v: J<'_>, p: &P<'_>) -> R<Vec<EventDef>> {
    named(v, p, "event", event_def)
}
