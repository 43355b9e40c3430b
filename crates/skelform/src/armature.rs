//! [`Armature`]: loaded data plus the per-instance animation and construction state.

use crate::model::*;

/// In which order [`Armature::construct`] applies IK and physics (SEMANTICS §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ConstructOrder {
    /// The developer docs' and the editor's order (the goldens): IK rotations are applied by
    /// a re-inheritance pass right after the solve, physics is simulated on that IK pose.
    #[default]
    Docs,
    /// rusty_skelform 0.8.0's published order: physics is simulated on the pre-IK pose and
    /// IK rotations are only applied when the armature has physics entries.
    Runtime,
}

/// A loaded SkelForm armature and its live state.
///
/// Clone it to get an independent instance (physics state included). The structure (bones,
/// animations, visuals, ids) is validated at load and cannot be changed afterwards, which is
/// what lets the per-frame code index without checks failing.
#[derive(Debug, Clone)]
pub struct Armature {
    pub(crate) version: String,
    pub(crate) upgraded_from: Option<String>,
    pub(crate) baked_ik: bool,
    pub(crate) img_format: String,
    pub(crate) clear_color: Color,
    pub(crate) bones: Vec<Bone>,
    pub(crate) animations: Vec<Animation>,
    pub(crate) atlases: Vec<Atlas>,
    pub(crate) styles: Vec<Style>,
    pub(crate) visuals: Vec<Visual>,
    pub(crate) iks: Vec<IkFamily>,
    pub(crate) physics: Vec<Physics>,
    /// `construct::physics_ease` of every physics entry (their settings never change).
    pub(crate) phys_ease: Vec<[Option<f32>; 4]>,
    pub(crate) tex_names: Vec<String>,
    pub(crate) order: ConstructOrder,
    // Per-frame state and scratch, sized at load.
    pub(crate) world: Vec<Transform>,
    pub(crate) verts: Vec<Vec<Vec2>>,
    pub(crate) ik_rots: Vec<f32>,
    pub(crate) ik_set: Vec<bool>,
    pub(crate) reset: Vec<u32>,
    pub(crate) ik_ends: Vec<Option<(Vec2, Vec2)>>,
    pub(crate) ik_state: crate::construct::FabrikScratch,
    pub(crate) ik_independent: bool,
    pub(crate) affected: Vec<u8>,
    pub(crate) trig: Vec<(u32, f32, f32)>,
}

/// One animation to apply in [`Armature::animate`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnimLayer {
    /// Animation index.
    pub anim: usize,
    /// Integer frame (see [`Armature::format_frame`]).
    pub frame: u32,
    /// Smoothing frames (0 = snap to the keyframe values).
    pub smooth: u32,
}

impl Armature {
    /// The editor version that wrote the file (`version`), as written.
    pub fn version(&self) -> &str {
        &self.version
    }
    /// `Some(original version)` when the file was read through a legacy upgrade.
    pub fn upgraded_from(&self) -> Option<&str> {
        self.upgraded_from.as_deref()
    }
    /// Whether IK is baked into the rotation keyframes (the solver is skipped).
    pub fn baked_ik(&self) -> bool {
        self.baked_ik
    }
    /// Atlas image format ("PNG", "JPG").
    pub fn img_format(&self) -> &str {
        &self.img_format
    }
    /// Clear colour of the exported atlases (0..255 components).
    pub fn clear_color(&self) -> Color {
        self.clear_color
    }
    /// Bones in file order (parents first), with the current local pose.
    pub fn bones(&self) -> &[Bone] {
        &self.bones
    }
    /// Animations.
    pub fn animations(&self) -> &[Animation] {
        &self.animations
    }
    /// Index of the animation with exactly this name.
    pub fn animation_index(&self, name: &str) -> Option<usize> {
        self.animations.iter().position(|a| a.name == name)
    }
    /// Atlases.
    pub fn atlases(&self) -> &[Atlas] {
        &self.atlases
    }
    /// Styles.
    pub fn styles(&self) -> &[Style] {
        &self.styles
    }
    /// Visuals with their current texture and tint.
    pub fn visuals(&self) -> &[Visual] {
        &self.visuals
    }
    /// IK families with their current constraint.
    pub fn ik_families(&self) -> &[IkFamily] {
        &self.iks
    }
    /// Physics entries with their live state.
    pub fn physics(&self) -> &[Physics] {
        &self.physics
    }
    /// Texture names referenced by visuals (`Visual::tex` indexes this).
    pub fn texture_names(&self) -> &[String] {
        &self.tex_names
    }
    /// The texture name a visual currently shows ("" for none).
    pub fn visual_texture(&self, visual: usize) -> &str {
        self.visuals
            .get(visual)
            .and_then(|v| self.tex_names.get(v.tex as usize))
            .map_or("", String::as_str)
    }
    /// The construct pass order in use.
    pub fn construct_order(&self) -> ConstructOrder {
        self.order
    }
    /// Chooses the construct pass order.
    pub fn set_construct_order(&mut self, order: ConstructOrder) {
        self.order = order;
    }
    /// World transforms from the last [`Armature::construct`], one per bone.
    pub fn world(&self) -> &[Transform] {
        &self.world
    }
    /// World mesh vertices of a visual from the last construct (empty for plain sprites).
    pub fn world_vertices(&self, visual: usize) -> &[Vec2] {
        self.verts.get(visual).map_or(&[], Vec::as_slice)
    }

    /// The draw order: indices of the bones that have a visual, sorted by the visual's
    /// current z-index ascending (stable, so file order among equals); draw first to last.
    /// Writes into `out` (cleared first) so a caller can reuse the buffer.
    pub fn draw_order_into(&self, out: &mut Vec<u32>) {
        out.clear();
        out.extend(
            self.bones
                .iter()
                .enumerate()
                .filter(|(_, b)| b.visual.is_some())
                .map(|(i, _)| i as u32),
        );
        // (z, index) keys make the unstable (allocation-free) sort stable.
        let z = |i: &u32| {
            let z = self
                .bones
                .get(*i as usize)
                .and_then(|b| b.visual)
                .and_then(|v| self.visuals.get(v as usize))
                .map_or(0, |v| v.zindex);
            (z, *i)
        };
        out.sort_unstable_by_key(z);
    }

    /// The texture a visual shows with the given active styles (indices into
    /// [`Armature::styles`], highest priority first): the first texture named like the
    /// visual's current texture.
    pub fn texture_of(&self, visual: usize, styles: &[usize]) -> Option<&Texture> {
        let name = self.visual_texture(visual);
        styles
            .iter()
            .filter_map(|&s| self.styles.get(s))
            .find_map(|s| s.textures.iter().find(|t| t.name == name))
    }

    /// Frame from an integer frame counter: `frame % (last + 1)` when looping, then
    /// `last − frame` when reversed (saturating where the reference underflows).
    pub fn format_frame(&self, anim: usize, frame: u32, reverse: bool, looping: bool) -> u32 {
        let last = self.animations.get(anim).map_or(0, Animation::last_frame);
        format_frame(frame, last, reverse, looping)
    }

    /// Frame from elapsed seconds: [`frame_at`] (`trunc(t · fps)`), then
    /// [`Armature::format_frame`].
    pub fn time_frame(&self, anim: usize, seconds: f32, reverse: bool, looping: bool) -> u32 {
        let fps = self.animations.get(anim).map_or(0, |a| a.fps);
        self.format_frame(anim, frame_at(seconds, fps), reverse, looping)
    }
}

/// `trunc(seconds * fps)` in f32 (saturating; negative or NaN → 0), the frame-from-time
/// rule of the CLI contract. The reference's `time_frame` divides by the frame time
/// instead (`seconds / (1 / fps)`), which can land one frame lower on exact multiples
/// (0.5 s at 60 fps gives 29 there, 30 here).
pub fn frame_at(seconds: f32, fps: u32) -> u32 {
    (seconds * fps as f32) as u32
}

/// The reference `format_frame` on a last-keyframe frame number.
pub fn format_frame(mut frame: u32, last: u32, reverse: bool, looping: bool) -> u32 {
    if looping {
        frame %= last.saturating_add(1).max(1);
    }
    if reverse {
        frame = last.saturating_sub(frame);
    }
    frame
}
