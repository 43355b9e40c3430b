//! Drawing a constructed armature through the workspace render contract
//! ([`spine_render_traits::RenderCommands`]).
//!
//! The rules are the SkelForm developer docs' `Draw()` (SEMANTICS §6):
//!
//! - bones are drawn in [`Armature::draw_order_into`] order (visual z-index ascending,
//!   file order among equals), higher z-index on top;
//! - a bone is skipped when it is hidden (itself or an ancestor, as propagated by
//!   [`Armature::construct`]) or when no active style has a texture named like its
//!   visual's current texture;
//! - the texture is looked up in the active styles, highest priority first
//!   ([`Armature::texture_of`]); its pixels are the rectangle `offset .. offset + size` of
//!   atlas page `atlas_idx`;
//! - pivot offset `rotate(pivot_pos · tex.size, bone.rot · dir) · bone.scale ·
//!   pivot_scale`, with `dir = −1` when exactly one scale component is negative;
//! - a plain sprite (no mesh vertices) is a quad of `tex.size · bone.scale · pivot_scale`
//!   centred at `bone.pos + pivot`, rotated by `bone.rot + pivot_rot · dir`;
//! - a mesh uses the constructed world vertices ([`Armature::world_vertices`]) plus the
//!   pivot offset, atlas UVs `(offset + uv · size) / atlas_size` and the visual's triangle
//!   list;
//! - the visual's tint is the light color (straight alpha), blend mode normal.
//!
//! Positions are world units with y up, as constructed. One atlas image is one page,
//! registered in atlas order by [`SkfDrawer::new`].

use spine_render_traits::{Argb, BlendMode, DrawError, PageId, RenderCommands};

use crate::armature::Armature;
use crate::model::{Texture, Vec2};

/// What one [`SkfDrawer::draw`] call appended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DrawStats {
    /// Bones drawn as plain sprites (one quad each).
    pub sprites: u32,
    /// Bones drawn as meshes.
    pub meshes: u32,
    /// Bones with a visual skipped because they are hidden.
    pub hidden: u32,
    /// Bones with a visual skipped because no active style has their texture.
    pub untextured: u32,
    /// Vertices appended.
    pub vertices: u32,
    /// Indices appended (three per triangle).
    pub indices: u32,
}

/// Draws an [`Armature`] into [`RenderCommands`], reusing its buffers: once warm, a frame
/// allocates nothing.
///
/// ```no_run
/// # let bytes = std::fs::read("skellina.skf").unwrap();
/// use spine_render_traits::RenderCommands;
/// let skf = skelform::load_skf(&bytes, &Default::default()).unwrap();
/// let mut arm = skf.armature;
/// let mut cmds = RenderCommands::new();
/// let mut drawer = skelform::SkfDrawer::new(&arm, &mut cmds);
/// arm.construct();
/// cmds.clear();
/// let stats = drawer.draw(&arm, &mut cmds).unwrap();
/// # let _ = stats;
/// ```
#[derive(Debug, Clone)]
pub struct SkfDrawer {
    first_page: PageId,
    pages: u32,
    styles: Vec<usize>,
    order: Vec<u32>,
}

/// The default active styles: the style named `"Default"` if there is one (what the
/// editor activates in the sample files), otherwise every style in file order.
pub fn default_styles(arm: &Armature) -> Vec<usize> {
    match arm.styles().iter().position(|s| s.name == "Default") {
        Some(i) => vec![i],
        None => (0..arm.styles().len()).collect(),
    }
}

impl SkfDrawer {
    /// Registers one page per atlas of `arm` (named after the atlas file, straight alpha)
    /// in `cmds`, and selects [`default_styles`].
    pub fn new(arm: &Armature, cmds: &mut RenderCommands) -> SkfDrawer {
        let first_page = PageId(cmds.pages().len() as u32);
        for a in arm.atlases() {
            cmds.add_page(&a.filename, false);
        }
        let nb = arm.bones().len();
        SkfDrawer {
            first_page,
            pages: arm.atlases().len() as u32,
            styles: default_styles(arm),
            order: Vec::with_capacity(nb),
        }
    }

    /// The page id of atlas `i` (`None` past the armature's atlases).
    pub fn page(&self, atlas: usize) -> Option<PageId> {
        (atlas < self.pages as usize).then(|| PageId(self.first_page.0 + atlas as u32))
    }

    /// The active styles (indices into [`Armature::styles`], highest priority first).
    pub fn styles(&self) -> &[usize] {
        &self.styles
    }

    /// Sets the active styles (indices into [`Armature::styles`], highest priority first).
    pub fn set_styles(&mut self, styles: &[usize]) {
        self.styles.clear();
        self.styles.extend_from_slice(styles);
    }

    /// Appends the armature's current constructed pose (call [`Armature::construct`]
    /// first) to `cmds`, which is not cleared. Errors only when a draw is rejected by the
    /// command buffer (a mesh with more than 65 536 vertices).
    pub fn draw(
        &mut self,
        arm: &Armature,
        cmds: &mut RenderCommands,
    ) -> Result<DrawStats, DrawError> {
        let mut stats = DrawStats::default();
        let mut order = std::mem::take(&mut self.order);
        arm.draw_order_into(&mut order);
        let result =
            order.iter().try_for_each(|&b| self.draw_bone(arm, b as usize, cmds, &mut stats));
        self.order = order;
        result.map(|()| stats)
    }

    fn draw_bone(
        &self,
        arm: &Armature,
        b: usize,
        cmds: &mut RenderCommands,
        stats: &mut DrawStats,
    ) -> Result<(), DrawError> {
        let (Some(bone), Some(w)) = (arm.bones().get(b), arm.world().get(b)) else {
            return Ok(());
        };
        let Some(vi) = bone.visual.map(|v| v as usize) else { return Ok(()) };
        let Some(visual) = arm.visuals().get(vi) else { return Ok(()) };
        if w.hidden {
            stats.hidden += 1;
            return Ok(());
        }
        let Some(tex) = arm.texture_of(vi, &self.styles) else {
            stats.untextured += 1;
            return Ok(());
        };
        let (Some(page), Some(atlas)) =
            (self.page(tex.atlas_idx as usize), arm.atlases().get(tex.atlas_idx as usize))
        else {
            stats.untextured += 1;
            return Ok(());
        };
        let asize = atlas.size;
        if asize.x <= 0.0 || asize.y <= 0.0 {
            stats.untextured += 1;
            return Ok(());
        }
        let dir = if (w.scale.x < 0.0) != (w.scale.y < 0.0) { -1.0 } else { 1.0 };
        let pivot = rotate(visual.pivot_pos * tex.size, w.rot * dir) * w.scale * visual.pivot_scale;
        let light = Argb::from_rgba_f32(visual.tint.r, visual.tint.g, visual.tint.b, visual.tint.a);
        let verts = arm.world_vertices(vi);
        if verts.is_empty() || visual.vertices.is_empty() {
            let centre = w.pos + pivot;
            let half = tex.size * w.scale * visual.pivot_scale * 0.5;
            let (s, c) = (w.rot + visual.pivot_rot * dir).sin_cos();
            let [u0, v0, u1, v1] = tex_rect(tex, asize);
            // Corners counter-clockwise from the bottom-left (y up); v is down, so the
            // texture's top edge (v0) is at +half.y.
            let corners = [
                (-1.0, -1.0, u0, v1),
                (1.0, -1.0, u1, v1),
                (1.0, 1.0, u1, v0),
                (-1.0, 1.0, u0, v0),
            ];
            cmds.push_with(page, BlendMode::Normal, light, Argb::BLACK, 4, 6, |d| {
                for (k, &(sx, sy, u, v)) in corners.iter().enumerate() {
                    let (x, y) = (sx * half.x, sy * half.y);
                    set2(d.positions, k, centre.x + x * c - y * s, centre.y + x * s + y * c);
                    set2(d.uvs, k, u, v);
                }
                d.indices.copy_from_slice(&[0, 1, 2, 2, 3, 0]);
            })?;
            stats.sprites += 1;
            stats.vertices += 4;
            stats.indices += 6;
        } else {
            let nv = verts.len().min(visual.vertices.len());
            let ni = visual.indices.len() - visual.indices.len() % 3;
            cmds.push_with(page, BlendMode::Normal, light, Argb::BLACK, nv, ni, |d| {
                for (k, (p, vx)) in verts.iter().zip(&visual.vertices).enumerate() {
                    set2(d.positions, k, p.x + pivot.x, p.y + pivot.y);
                    let u = (tex.offset.x + vx.uv.x * tex.size.x) / asize.x;
                    let v = (tex.offset.y + vx.uv.y * tex.size.y) / asize.y;
                    set2(d.uvs, k, u, v);
                }
                for (o, &i) in d.indices.iter_mut().zip(&visual.indices) {
                    // An index a u16 cannot hold is out of range for any drawable mesh;
                    // u16::MAX is then rejected by the bounds check after `fill`.
                    *o = u16::try_from(i).unwrap_or(u16::MAX);
                }
            })?;
            if nv > 0 && ni > 0 {
                stats.meshes += 1;
                stats.vertices += nv as u32;
                stats.indices += ni as u32;
            }
        }
        Ok(())
    }
}

/// `[u0, v0, u1, v1]` of a texture rectangle in its atlas (v down).
fn tex_rect(tex: &Texture, atlas: Vec2) -> [f32; 4] {
    [
        tex.offset.x / atlas.x,
        tex.offset.y / atlas.y,
        (tex.offset.x + tex.size.x) / atlas.x,
        (tex.offset.y + tex.size.y) / atlas.y,
    ]
}

fn set2(buf: &mut [f32], k: usize, a: f32, b: f32) {
    if let Some([x, y]) = buf.get_mut(2 * k..2 * k + 2) {
        *x = a;
        *y = b;
    }
}

fn rotate(p: Vec2, a: f32) -> Vec2 {
    let (s, c) = a.sin_cos();
    Vec2::new(p.x * c - p.y * s, p.x * s + p.y * c)
}

impl Armature {
    /// Sets a bone's local hidden flag (a game hiding a part). [`Armature::animate`]
    /// resets it to the initial value unless a `Hidden` keyframe drives it, so set it
    /// after animating and before [`Armature::construct`], which propagates it to the
    /// bone's descendants. Out-of-range bones are ignored.
    pub fn set_hidden(&mut self, bone: usize, hidden: bool) {
        if let Some(b) = self.bones.get_mut(bone) {
            b.hidden = hidden;
        }
    }
}
