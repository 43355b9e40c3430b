//! The command buffer: flat vertex/index storage plus command ranges.

use std::fmt;

use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};

use crate::color::{Argb, BlendMode};

/// Identifies a texture page (an atlas page) registered with [`RenderCommands::add_page`].
///
/// Ids are dense: the n-th registered page has id `n`. A backend may use the id directly as
/// an index into its texture table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize)]
#[serde(transparent)]
pub struct PageId(pub u32);

impl PageId {
    /// The id as a `usize` index.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// What the command buffer knows about a page: its name (the atlas page's file name, e.g.
/// `spineboy.png`, used as `"texture"` in the JSON) and whether its pixels are premultiplied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PageInfo {
    /// The atlas page name.
    pub name: String,
    /// Whether the page's pixels have premultiplied alpha (`pma: true` in the atlas).
    pub premultiplied_alpha: bool,
}

/// When consecutive draws are merged into one command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Batching {
    /// Merge while page and blend mode match (and the merged command stays within the
    /// 16-bit index limits). The fewest commands; the default.
    #[default]
    PageAndBlend,
    /// Exactly spine-cpp 4.2 `SkeletonRenderer`: merge while page, blend mode, the first light
    /// color and the first dark color match the command's first draw, and
    /// `indices + new indices < 0xffff` (and, as for every policy, the merged command stays
    /// within 65 536 vertices). Gives the same command lists as the spine-cpp 4.2 goldens.
    SpineCpp,
    /// Never merge: one command per draw.
    Never,
}

/// Why a draw was rejected. A rejected draw leaves the buffer unchanged.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DrawError {
    /// The page id was never registered with [`RenderCommands::add_page`].
    UnknownPage(PageId),
    /// `positions` has an odd length.
    OddPositions(usize),
    /// `uvs.len()` differs from `positions.len()`.
    UvLength {
        /// Floats in `positions`.
        positions: usize,
        /// Floats in `uvs`.
        uvs: usize,
    },
    /// A per-vertex color slice has the wrong length.
    ColorLength {
        /// Vertices in the draw.
        vertices: usize,
        /// Entries in the offending color slice.
        colors: usize,
    },
    /// `indices.len()` is not a multiple of 3.
    NotTriangles(usize),
    /// An index refers to a vertex the draw does not have.
    IndexOutOfRange {
        /// The offending index.
        index: u16,
        /// Vertices in the draw.
        vertices: usize,
    },
    /// The draw alone has more vertices than 16-bit indices can address (65 536).
    TooManyVertices(usize),
}

impl fmt::Display for DrawError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DrawError::UnknownPage(p) => write!(f, "unknown texture page id {}", p.0),
            DrawError::OddPositions(n) => write!(f, "positions has an odd length ({n})"),
            DrawError::UvLength { positions, uvs } => {
                write!(f, "uvs has {uvs} floats but positions has {positions}")
            }
            DrawError::ColorLength { vertices, colors } => {
                write!(f, "{colors} colors given for {vertices} vertices")
            }
            DrawError::NotTriangles(n) => write!(f, "{n} indices is not a multiple of 3"),
            DrawError::IndexOutOfRange { index, vertices } => {
                write!(f, "index {index} out of range for {vertices} vertices")
            }
            DrawError::TooManyVertices(n) => {
                write!(f, "{n} vertices exceed the 65536 a 16-bit index can address")
            }
        }
    }
}

impl std::error::Error for DrawError {}

/// The colors of a draw's vertices.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum VertexColors<'a> {
    /// Every vertex has the same light and dark color (what Spine attachments produce).
    Uniform {
        /// Light (tint) color, straight alpha.
        light: Argb,
        /// Dark color for two-color tinting; [`Argb::BLACK`] when the slot has none.
        dark: Argb,
    },
    /// One light and one dark color per vertex.
    PerVertex {
        /// Light colors, one per vertex.
        light: &'a [Argb],
        /// Dark colors, one per vertex.
        dark: &'a [Argb],
    },
}

/// One draw to append: a triangle mesh on one page with one blend mode.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Draw<'a> {
    /// The texture page.
    pub page: PageId,
    /// The blend mode.
    pub blend_mode: BlendMode,
    /// World positions, `x, y` pairs (y up, as Spine computes them).
    pub positions: &'a [f32],
    /// Texture coordinates, `u, v` pairs in `[0, 1]` (v down), one pair per position pair.
    pub uvs: &'a [f32],
    /// Vertex colors.
    pub colors: VertexColors<'a>,
    /// Triangle list, indices local to this draw (0 = its first vertex).
    pub indices: &'a [u16],
}

/// Mutable storage for one draw, handed to the closure of [`RenderCommands::push_with`].
/// Slices have exactly the requested lengths; colors come pre-filled with the draw's
/// uniform colors; `indices` must be written local to the draw (0 = its first vertex).
#[derive(Debug)]
pub struct DrawMut<'a> {
    /// `x, y` pairs (`2 * num_vertices` floats), zero-filled.
    pub positions: &'a mut [f32],
    /// `u, v` pairs (`2 * num_vertices` floats), zero-filled.
    pub uvs: &'a mut [f32],
    /// Light colors, pre-filled with the uniform light color.
    pub colors: &'a mut [Argb],
    /// Dark colors, pre-filled with the uniform dark color.
    pub dark_colors: &'a mut [Argb],
    /// Triangle list (`num_indices` entries), zero-filled, local indices.
    pub indices: &'a mut [u16],
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct CommandRange {
    page: PageId,
    blend_mode: BlendMode,
    vertex_start: usize,
    vertex_count: usize,
    index_start: usize,
    index_count: usize,
}

/// Largest vertex count one command may have: every index must fit a `u16`.
const MAX_VERTICES: usize = 1 << 16;

/// The block of [`PaddedIndices`]: 16 `u16` indices, two SSE2 registers.
pub const INDEX_BLOCK: usize = 16;

/// A frame's render commands, in draw order, in flat reusable buffers.
///
/// Draws are appended with [`push`](Self::push) or [`push_with`](Self::push_with); consecutive
/// draws are merged into one command according to the [`Batching`] policy. Each command's
/// `indices` are `u16` and **local to the command** (0 = the command's first vertex), so a
/// command can be uploaded as is; a command therefore never has more than 65 536 vertices.
///
/// [`clear`](Self::clear) forgets the commands but keeps the registered pages and every
/// buffer's capacity: once warm, filling a frame allocates nothing.
#[derive(Debug, Clone, Default)]
pub struct RenderCommands {
    pages: Vec<PageInfo>,
    batching: Batching,
    /// World positions; only the first `2 * colors.len()` floats are the commands' (the rest
    /// is kept from earlier frames, so a draw filled in place needs no zero-fill first).
    positions: Vec<f32>,
    uvs: Vec<f32>,
    colors: Vec<Argb>,
    dark_colors: Vec<Argb>,
    indices: Vec<u16>,
    commands: Vec<CommandRange>,
}

impl RenderCommands {
    /// An empty buffer with the default batching ([`Batching::PageAndBlend`]).
    pub fn new() -> RenderCommands {
        RenderCommands::default()
    }

    /// An empty buffer with the given batching policy.
    pub fn with_batching(batching: Batching) -> RenderCommands {
        RenderCommands { batching, ..RenderCommands::default() }
    }

    /// The batching policy.
    pub fn batching(&self) -> Batching {
        self.batching
    }

    /// Changes the batching policy for draws pushed from now on.
    pub fn set_batching(&mut self, batching: Batching) {
        self.batching = batching;
    }

    /// Registers a texture page and returns its id (the number of pages registered before).
    pub fn add_page(&mut self, name: &str, premultiplied_alpha: bool) -> PageId {
        let id = PageId(self.pages.len() as u32);
        self.pages.push(PageInfo { name: name.to_owned(), premultiplied_alpha });
        id
    }

    /// The registered pages, indexed by [`PageId::index`].
    pub fn pages(&self) -> &[PageInfo] {
        &self.pages
    }

    /// The page registered under `id`.
    pub fn page(&self, id: PageId) -> Option<&PageInfo> {
        self.pages.get(id.index())
    }

    /// The `n` position floats of a draw whose first vertex is `v0`, grown (zero-filled) only
    /// past what earlier frames left: their contents are stale until written.
    #[inline(always)]
    fn positions_at(&mut self, v0: usize, n: usize) -> &mut [f32] {
        let (start, end) = (2 * v0, 2 * v0 + n);
        if self.positions.len() < end {
            self.positions.resize(end, 0.0);
        }
        self.positions.get_mut(start..end).unwrap_or_default()
    }

    /// Forgets all commands, keeping registered pages and buffer capacity.
    pub fn clear(&mut self) {
        // `positions` keeps its floats: its length past `2 * colors.len()` is spare room.
        self.uvs.clear();
        self.colors.clear();
        self.dark_colors.clear();
        self.indices.clear();
        self.commands.clear();
    }

    /// Forgets all commands and all registered pages (capacity is kept).
    pub fn reset(&mut self) {
        self.clear();
        self.positions.clear();
        self.pages.clear();
    }

    /// Number of commands.
    pub fn len(&self) -> usize {
        self.commands.len()
    }

    /// Whether there is no command.
    pub fn is_empty(&self) -> bool {
        self.commands.is_empty()
    }

    /// Total vertices over all commands.
    pub fn num_vertices(&self) -> usize {
        self.colors.len()
    }

    /// Total indices over all commands.
    pub fn num_indices(&self) -> usize {
        self.indices.len()
    }

    /// The `i`-th command.
    pub fn get(&self, i: usize) -> Option<CommandView<'_>> {
        self.commands.get(i).map(|r| self.view(r))
    }

    /// The commands in draw order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = CommandView<'_>> + '_ {
        self.commands.iter().map(|r| self.view(r))
    }

    /// The axis-aligned bounds `[min_x, min_y, max_x, max_y]` of every vertex referenced by a
    /// triangle, ignoring non-finite coordinates; `None` when there is none.
    pub fn bounds(&self) -> Option<[f32; 4]> {
        let mut b = [f32::INFINITY, f32::INFINITY, f32::NEG_INFINITY, f32::NEG_INFINITY];
        for cmd in self.iter() {
            for &i in cmd.indices {
                let i = usize::from(i);
                let (Some(&x), Some(&y)) = (cmd.positions.get(2 * i), cmd.positions.get(2 * i + 1))
                else {
                    continue;
                };
                if x.is_finite() && y.is_finite() {
                    b = [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)];
                }
            }
        }
        (b[0] <= b[2]).then_some(b)
    }

    fn view<'s>(&'s self, r: &CommandRange) -> CommandView<'s> {
        let (page_name, pma) = match self.pages.get(r.page.index()) {
            Some(p) => (p.name.as_str(), p.premultiplied_alpha),
            None => ("", false),
        };
        let v = r.vertex_start..r.vertex_start + r.vertex_count;
        let v2 = 2 * r.vertex_start..2 * (r.vertex_start + r.vertex_count);
        let ix = r.index_start..r.index_start + r.index_count;
        CommandView {
            page: r.page,
            page_name,
            premultiplied_alpha: pma,
            blend_mode: r.blend_mode,
            positions: self.positions.get(v2.clone()).unwrap_or(&[]),
            uvs: self.uvs.get(v2).unwrap_or(&[]),
            colors: self.colors.get(v.clone()).unwrap_or(&[]),
            dark_colors: self.dark_colors.get(v).unwrap_or(&[]),
            indices: self.indices.get(ix).unwrap_or(&[]),
        }
    }

    /// Where a new draw would go, changing nothing: `Some(offset)` (the index offset to add to
    /// the draw's local indices) when it merges into the last command, `None` when it opens a
    /// new command (offset 0). [`commit`](Self::commit) applies the decision.
    #[inline]
    fn plan(
        &self,
        page: PageId,
        blend_mode: BlendMode,
        first_light: Argb,
        first_dark: Argb,
        nv: usize,
        ni: usize,
    ) -> Option<usize> {
        let last = self.commands.last()?;
        let same = last.page == page && last.blend_mode == blend_mode;
        let fits = last.vertex_count + nv <= MAX_VERTICES;
        let merge = match self.batching {
            Batching::Never => false,
            Batching::PageAndBlend => same && fits,
            Batching::SpineCpp => {
                same && fits
                    && self.colors.get(last.vertex_start) == Some(&first_light)
                    && self.dark_colors.get(last.vertex_start) == Some(&first_dark)
                    && last.index_count + ni < 0xffff
            }
        };
        merge.then_some(last.vertex_count)
    }

    /// Applies a [`plan`](Self::plan) made before the draw's vertices and indices were
    /// appended (`vertex_start` / `index_start` are where they begin).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn commit(
        &mut self,
        plan: Option<usize>,
        page: PageId,
        blend_mode: BlendMode,
        vertex_start: usize,
        index_start: usize,
        nv: usize,
        ni: usize,
    ) {
        if let (Some(_), Some(last)) = (plan, self.commands.last_mut()) {
            last.vertex_count += nv;
            last.index_count += ni;
            return;
        }
        self.commands.push(CommandRange {
            page,
            blend_mode,
            vertex_start,
            vertex_count: nv,
            index_start,
            index_count: ni,
        });
    }

    /// Chooses the command a new draw goes to. Returns the index offset to add to the draw's
    /// local indices; opens a new command when it cannot merge.
    fn target(
        &mut self,
        page: PageId,
        blend_mode: BlendMode,
        first_light: Argb,
        first_dark: Argb,
        nv: usize,
        ni: usize,
    ) -> usize {
        let plan = self.plan(page, blend_mode, first_light, first_dark, nv, ni);
        let (v0, i0) = (self.colors.len(), self.indices.len());
        self.commit(plan, page, blend_mode, v0, i0, nv, ni);
        plan.unwrap_or(0)
    }

    /// Appends a draw, merging it into the last command when the batching policy allows.
    /// A draw with no vertex or no index is skipped (`Ok`). On error nothing is appended.
    pub fn push(&mut self, draw: &Draw<'_>) -> Result<(), DrawError> {
        if draw.page.index() >= self.pages.len() {
            return Err(DrawError::UnknownPage(draw.page));
        }
        let p = draw.positions.len();
        if !p.is_multiple_of(2) {
            return Err(DrawError::OddPositions(p));
        }
        if draw.uvs.len() != p {
            return Err(DrawError::UvLength { positions: p, uvs: draw.uvs.len() });
        }
        let nv = p / 2;
        if nv > MAX_VERTICES {
            return Err(DrawError::TooManyVertices(nv));
        }
        let (first_light, first_dark) = match draw.colors {
            VertexColors::Uniform { light, dark } => (light, dark),
            VertexColors::PerVertex { light, dark } => {
                for c in [light.len(), dark.len()] {
                    if c != nv {
                        return Err(DrawError::ColorLength { vertices: nv, colors: c });
                    }
                }
                (
                    light.first().copied().unwrap_or_default(),
                    dark.first().copied().unwrap_or_default(),
                )
            }
        };
        let ni = draw.indices.len();
        if !ni.is_multiple_of(3) {
            return Err(DrawError::NotTriangles(ni));
        }
        if let Some(&bad) = draw.indices.iter().find(|&&i| usize::from(i) >= nv) {
            return Err(DrawError::IndexOutOfRange { index: bad, vertices: nv });
        }
        if nv == 0 || ni == 0 {
            return Ok(());
        }
        let offset = self.target(draw.page, draw.blend_mode, first_light, first_dark, nv, ni);
        self.positions_at(self.colors.len(), draw.positions.len()).copy_from_slice(draw.positions);
        self.uvs.extend_from_slice(draw.uvs);
        match draw.colors {
            VertexColors::Uniform { light, dark } => {
                self.colors.resize(self.colors.len() + nv, light);
                self.dark_colors.resize(self.dark_colors.len() + nv, dark);
            }
            VertexColors::PerVertex { light, dark } => {
                self.colors.extend_from_slice(light);
                self.dark_colors.extend_from_slice(dark);
            }
        }
        // offset + i <= 65535 because the merged command has at most MAX_VERTICES vertices.
        self.indices.extend(draw.indices.iter().map(|&i| (offset + usize::from(i)) as u16));
        Ok(())
    }

    /// Appends a draw with one `light` / `dark` color for every vertex, copying `positions`
    /// and `uvs` (`x, y` and `u, v` pairs) and `indices` (local to the draw, `u8`, `u16` or
    /// `u32`) as whole slices. Same checks, merging and result as [`push`](Self::push) with
    /// [`VertexColors::Uniform`]; on error nothing is appended (an out-of-range `u32` index
    /// is reported saturated to `u16::MAX`).
    #[allow(clippy::too_many_arguments)]
    pub fn push_uniform<I>(
        &mut self,
        page: PageId,
        blend_mode: BlendMode,
        light: Argb,
        dark: Argb,
        positions: &[f32],
        uvs: &[f32],
        indices: &[I],
    ) -> Result<(), DrawError>
    where
        I: TriangleIndex,
    {
        if page.index() >= self.pages.len() {
            return Err(DrawError::UnknownPage(page));
        }
        let p = positions.len();
        if !p.is_multiple_of(2) {
            return Err(DrawError::OddPositions(p));
        }
        if uvs.len() != p {
            return Err(DrawError::UvLength { positions: p, uvs: uvs.len() });
        }
        self.push_uniform_fill(page, blend_mode, light, dark, p / 2, uvs, indices, |dst| {
            dst.copy_from_slice(positions);
            true
        })
        .map(|_| ())
    }

    /// Appends a draw of `num_vertices` vertices with one `light` / `dark` color, whose
    /// positions `fill` writes in place (`2 * num_vertices` floats, all of which it must
    /// write: they hold an earlier frame's values; returning false drops the draw), copying
    /// the first `2 * num_vertices` floats of `uvs` and `indices` (local to the draw).
    /// Checks as [`push_uniform`](Self::push_uniform) (`uvs` may be longer than needed);
    /// `Ok(true)` when the draw was appended, `Ok(false)` when it was skipped (no vertex or
    /// index, or `fill` returned false). On error or `false` nothing is appended. Indices
    /// are mapped and checked in one pass.
    #[doc(hidden)]
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn push_uniform_fill<L, F>(
        &mut self,
        page: PageId,
        blend_mode: BlendMode,
        light: Argb,
        dark: Argb,
        num_vertices: usize,
        uvs: &[f32],
        indices: L,
        fill: F,
    ) -> Result<bool, DrawError>
    where
        L: TriangleList,
        F: FnOnce(&mut [f32]) -> bool,
    {
        let nv = num_vertices;
        if page.index() >= self.pages.len() {
            return Err(DrawError::UnknownPage(page));
        }
        let Some(uvs) = uvs.get(..2 * nv) else {
            return Err(DrawError::UvLength { positions: 2 * nv, uvs: uvs.len() });
        };
        if nv > MAX_VERTICES {
            return Err(DrawError::TooManyVertices(nv));
        }
        let ni = indices.count();
        if !ni.is_multiple_of(3) {
            return Err(DrawError::NotTriangles(ni));
        }
        if ni == 0 {
            return Ok(false);
        }
        if nv == 0 {
            let bad = indices.first().unwrap_or(0);
            return Err(DrawError::IndexOutOfRange {
                index: u16::try_from(bad).unwrap_or(u16::MAX),
                vertices: 0,
            });
        }
        let plan = self.plan(page, blend_mode, light, dark, nv, ni);
        let (v0, i0) = (self.colors.len(), self.indices.len());
        let dst = self.positions_at(v0, 2 * nv);
        if cfg!(debug_assertions) {
            // A `fill` that leaves a float unwritten shows as NaN in debug builds (in release
            // the float would be an earlier frame's).
            dst.fill(f32::NAN);
        }
        if !fill(dst) {
            return Ok(false);
        }
        // Map, append and check in one branch-free pass (no zero-filling first); the
        // offending index is looked up on error.
        // offset + i <= 65535 because the merged command has at most MAX_VERTICES vertices.
        let offset = plan.unwrap_or(0) as u32;
        if !indices.map_into(&mut self.indices, offset, nv) {
            self.indices.truncate(i0);
            let bad = indices.find_out_of_range(nv);
            return Err(DrawError::IndexOutOfRange {
                index: u16::try_from(bad.unwrap_or(u32::MAX)).unwrap_or(u16::MAX),
                vertices: nv,
            });
        }
        self.uvs.extend_from_slice(uvs);
        push_repeated(&mut self.colors, light, nv);
        push_repeated(&mut self.dark_colors, dark, nv);
        self.commit(plan, page, blend_mode, v0, i0, nv, ni);
        Ok(true)
    }

    /// Appends a quad (4 vertices, 2 triangles) with one `light` / `dark` color: as
    /// [`push_uniform`](Self::push_uniform) with fixed-size slices, so the copies are
    /// inlined. Returns `Ok(true)` when appended.
    #[doc(hidden)]
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn push_quad(
        &mut self,
        page: PageId,
        blend_mode: BlendMode,
        light: Argb,
        dark: Argb,
        positions: &[f32; 8],
        uvs: &[f32; 8],
        indices: &[u16; 6],
    ) -> Result<bool, DrawError> {
        if page.index() >= self.pages.len() {
            return Err(DrawError::UnknownPage(page));
        }
        if let Some(&bad) = indices.iter().find(|&&i| i >= 4) {
            return Err(DrawError::IndexOutOfRange { index: bad, vertices: 4 });
        }
        let plan = self.plan(page, blend_mode, light, dark, 4, 6);
        let (v0, i0) = (self.colors.len(), self.indices.len());
        // offset + i <= 65535 because the merged command has at most MAX_VERTICES vertices:
        // the six sums are made in two integers (no carry from one index into the next).
        let offset = plan.unwrap_or(0) as u64 & 0xffff;
        let [q0, q1, q2, q3, q4, q5] = indices.map(u64::from);
        let lo = (q0 | q1 << 16 | q2 << 32 | q3 << 48).wrapping_add(offset * 0x0001_0001_0001_0001);
        let hi = (q4 | q5 << 16).wrapping_add(offset * 0x0001_0001);
        self.indices.extend_from_slice(&[
            lo as u16,
            (lo >> 16) as u16,
            (lo >> 32) as u16,
            (lo >> 48) as u16,
            hi as u16,
            (hi >> 16) as u16,
        ]);
        self.positions_at(v0, 8).copy_from_slice(positions);
        self.uvs.extend_from_slice(uvs);
        self.colors.extend_from_slice(&[light; 4]);
        self.dark_colors.extend_from_slice(&[dark; 4]);
        self.commit(plan, page, blend_mode, v0, i0, 4, 6);
        Ok(true)
    }

    /// Appends a draw whose data `fill` writes in place (no intermediate copy). The slices
    /// handed to `fill` have `num_vertices` / `num_indices` entries; colors are pre-filled
    /// with `light` / `dark`, which also decide merging under [`Batching::SpineCpp`].
    /// Indices are validated after `fill` returns; on error nothing is appended.
    #[allow(clippy::too_many_arguments)]
    pub fn push_with<F>(
        &mut self,
        page: PageId,
        blend_mode: BlendMode,
        light: Argb,
        dark: Argb,
        num_vertices: usize,
        num_indices: usize,
        fill: F,
    ) -> Result<(), DrawError>
    where
        F: FnOnce(DrawMut<'_>),
    {
        if page.index() >= self.pages.len() {
            return Err(DrawError::UnknownPage(page));
        }
        if num_vertices > MAX_VERTICES {
            return Err(DrawError::TooManyVertices(num_vertices));
        }
        if !num_indices.is_multiple_of(3) {
            return Err(DrawError::NotTriangles(num_indices));
        }
        if num_vertices == 0 || num_indices == 0 {
            return Ok(());
        }
        let saved_commands = self.commands.len();
        let saved_last = self.commands.last().copied();
        let (v0, i0) = (self.colors.len(), self.indices.len());
        let offset = self.target(page, blend_mode, light, dark, num_vertices, num_indices);
        self.positions.truncate(2 * v0);
        self.positions.resize(2 * (v0 + num_vertices), 0.0);
        self.uvs.resize(2 * (v0 + num_vertices), 0.0);
        self.colors.resize(v0 + num_vertices, light);
        self.dark_colors.resize(v0 + num_vertices, dark);
        self.indices.resize(i0 + num_indices, 0);
        fill(DrawMut {
            positions: self.positions.get_mut(2 * v0..).unwrap_or_default(),
            uvs: self.uvs.get_mut(2 * v0..).unwrap_or_default(),
            colors: self.colors.get_mut(v0..).unwrap_or_default(),
            dark_colors: self.dark_colors.get_mut(v0..).unwrap_or_default(),
            indices: self.indices.get_mut(i0..).unwrap_or_default(),
        });
        let new = self.indices.get_mut(i0..).unwrap_or_default();
        if let Some(&bad) = new.iter().find(|&&i| usize::from(i) >= num_vertices) {
            // Roll back.
            self.uvs.truncate(2 * v0);
            self.colors.truncate(v0);
            self.dark_colors.truncate(v0);
            self.indices.truncate(i0);
            self.commands.truncate(saved_commands);
            if let (Some(last), Some(saved)) = (self.commands.last_mut(), saved_last) {
                *last = saved;
            }
            return Err(DrawError::IndexOutOfRange { index: bad, vertices: num_vertices });
        }
        for i in new.iter_mut() {
            *i = (usize::from(*i) + offset) as u16;
        }
        Ok(())
    }
}

/// The index type of a draw's triangle list (`u8`, `u16` or `u32`, local to the draw): how
/// a slice of them becomes a merged command's `u16` indices. Sealed: implemented for those
/// three types only.
pub trait TriangleIndex: Copy + sealed::Sealed {
    /// The index as `u32`.
    fn to_u32(self) -> u32;

    /// Appends `offset + src[k]` (exact up to 65 535, whatever above) to `dst` and returns
    /// whether every `src[k]` is below `num_vertices` (1 to 65 536, with `offset +
    /// num_vertices <= 65 536`). The default widens each index to `u32`.
    #[doc(hidden)]
    #[inline]
    fn map_into(dst: &mut Vec<u16>, src: &[Self], offset: u32, num_vertices: usize) -> bool {
        map_indices(dst, src, offset, num_vertices)
    }
}

mod sealed {
    /// Keeps [`TriangleIndex`](super::TriangleIndex) to the types implemented here.
    pub trait Sealed {}
    impl Sealed for u8 {}
    impl Sealed for u16 {}
    impl Sealed for u32 {}

    /// Keeps [`TriangleList`](super::TriangleList) to the types implemented here.
    pub trait SealedList {}
    impl<I: super::TriangleIndex> SealedList for &[I] {}
    impl SealedList for super::PaddedIndices<'_> {}
}

/// A draw's triangle list for [`RenderCommands::push_uniform_fill`]: a slice of
/// [`TriangleIndex`] values, or [`PaddedIndices`]. Sealed: implemented for those only.
pub trait TriangleList: Copy + sealed::SealedList {
    /// The number of indices.
    fn count(self) -> usize;

    /// The first index.
    fn first(self) -> Option<u32>;

    /// As [`TriangleIndex::map_into`], for the whole list.
    #[doc(hidden)]
    fn map_into(self, dst: &mut Vec<u16>, offset: u32, num_vertices: usize) -> bool;

    /// The first index that is not below `num_vertices` (after a failed `map_into`).
    #[doc(hidden)]
    fn find_out_of_range(self, num_vertices: usize) -> Option<u32>;
}

impl<I: TriangleIndex> TriangleList for &[I] {
    #[inline]
    fn count(self) -> usize {
        self.len()
    }

    #[inline]
    fn first(self) -> Option<u32> {
        <[I]>::first(self).map(|&i| i.to_u32())
    }

    #[inline]
    fn map_into(self, dst: &mut Vec<u16>, offset: u32, num_vertices: usize) -> bool {
        I::map_into(dst, self, offset, num_vertices)
    }

    #[cold]
    fn find_out_of_range(self, num_vertices: usize) -> Option<u32> {
        self.iter().map(|&i| i.to_u32()).find(|&i| i as usize >= num_vertices)
    }
}

/// A `u16` triangle list stored in whole blocks of [`INDEX_BLOCK`], the last one padded:
/// mapped a block at a time, with no loop over a remainder (a renderer keeps its meshes'
/// lists this way). The padding is checked like the indices (an index past the draw's
/// vertices fails the draw), so pad with 0; it is never appended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PaddedIndices<'a> {
    blocks: &'a [[u16; INDEX_BLOCK]],
    len: usize,
}

impl<'a> PaddedIndices<'a> {
    /// The first `len` indices of `blocks`: `None` unless the last block holds the last of
    /// them (`len` is 0 exactly when `blocks` is empty).
    pub fn new(blocks: &'a [[u16; INDEX_BLOCK]], len: usize) -> Option<PaddedIndices<'a>> {
        (len.div_ceil(INDEX_BLOCK) == blocks.len()).then_some(PaddedIndices { blocks, len })
    }

    /// The indices, without the padding.
    pub fn indices(&self) -> &'a [u16] {
        self.blocks.as_flattened().get(..self.len).unwrap_or_default()
    }
}

impl TriangleList for PaddedIndices<'_> {
    #[inline]
    fn count(self) -> usize {
        self.len
    }

    #[inline]
    fn first(self) -> Option<u32> {
        self.indices().first().map(|&i| i.into())
    }

    /// The `u16` mapping over whole blocks, the padding cut after.
    #[inline]
    fn map_into(self, dst: &mut Vec<u16>, offset: u32, num_vertices: usize) -> bool {
        let start = dst.len();
        let ok = u16::map_into(dst, self.blocks.as_flattened(), offset, num_vertices);
        dst.truncate(start + self.len);
        ok
    }

    /// Over the padding too (it is checked like the indices).
    #[cold]
    fn find_out_of_range(self, num_vertices: usize) -> Option<u32> {
        self.blocks.as_flattened().find_out_of_range(num_vertices)
    }
}

impl TriangleIndex for u8 {
    #[inline]
    fn to_u32(self) -> u32 {
        self.into()
    }
}

impl TriangleIndex for u16 {
    #[inline]
    fn to_u32(self) -> u32 {
        self.into()
    }

    /// In 16-bit lanes, twice as many per instruction as the default and no narrowing:
    /// `offset + i` wraps in 16 bits, exact for every index that passes the check (the
    /// merged command has at most `MAX_VERTICES` vertices); `i` is in range exactly when
    /// `i - n` saturates to 0.
    #[inline]
    fn map_into(dst: &mut Vec<u16>, src: &[u16], offset: u32, num_vertices: usize) -> bool {
        let n = num_vertices.saturating_sub(1).min(0xffff) as u16;
        let offset = offset as u16;
        let mut acc = 0u16;
        dst.extend(src.iter().map(|&i| {
            acc |= i.saturating_sub(n);
            offset.wrapping_add(i)
        }));
        acc == 0
    }
}

impl TriangleIndex for u32 {
    #[inline]
    fn to_u32(self) -> u32 {
        self
    }
}

/// Appends `n` copies of `v`: written in whole steps of the compiler's loop (8 a step) and
/// the surplus cut, rather than its remainder of up to 7 written one by one. (Rounded up
/// with a mask: `next_multiple_of(8)` cost 5 to 11 instructions more per draw.)
#[inline(always)]
fn push_repeated(dst: &mut Vec<Argb>, v: Argb, n: usize) {
    let len = dst.len();
    dst.extend(std::iter::repeat_n(v, (n + 7) & !7));
    dst.truncate(len + n);
}

/// [`TriangleIndex::map_into`] through `u32` (exact up to 65 535, saturated above), in one
/// pass the compiler vectorizes: for `i < 65536` and `n = num_vertices - 1 < 65536`,
/// `i | (n - i)` (wrapping) has no bit above the 16th exactly when `i <= n`.
#[inline]
fn map_indices<I: TriangleIndex>(
    dst: &mut Vec<u16>,
    src: &[I],
    offset: u32,
    num_vertices: usize,
) -> bool {
    let n = num_vertices.saturating_sub(1) as u32;
    let mut acc = 0u32;
    dst.extend(src.iter().map(|&s| {
        let i = s.to_u32();
        acc |= i | n.wrapping_sub(i);
        // `(offset + i) as u16` through a signed saturating narrowing (SSE2's `packssdw`,
        // one shuffle per 8 indices instead of 7): exact for every value up to 65535, which
        // is all that is kept (a larger one fails the check and nothing is appended).
        let biased = (offset.wrapping_add(i) as i32).wrapping_sub(0x8000);
        (biased.clamp(-0x8000, 0x7fff) as i16 as u16) ^ 0x8000
    }));
    acc >> 16 == 0
}

/// A borrowed view of one command: a triangle list on one page with one blend mode.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CommandView<'a> {
    /// The texture page.
    pub page: PageId,
    /// The page's name (the atlas page file name).
    pub page_name: &'a str,
    /// Whether the page has premultiplied alpha.
    pub premultiplied_alpha: bool,
    /// The blend mode.
    pub blend_mode: BlendMode,
    /// `x, y` pairs, world units, y up.
    pub positions: &'a [f32],
    /// `u, v` pairs, one per vertex.
    pub uvs: &'a [f32],
    /// Light colors (straight alpha), one per vertex.
    pub colors: &'a [Argb],
    /// Dark colors (alpha unused, 0xff), one per vertex.
    pub dark_colors: &'a [Argb],
    /// Triangle list, `u16` indices local to this command.
    pub indices: &'a [u16],
}

impl CommandView<'_> {
    /// Number of vertices.
    pub fn num_vertices(&self) -> usize {
        self.colors.len()
    }

    /// Number of indices (three per triangle).
    pub fn num_indices(&self) -> usize {
        self.indices.len()
    }
}

impl Serialize for CommandView<'_> {
    /// The shape of one entry of the goldens' `render.commands` (and `skel commands`).
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Command", 9)?;
        st.serialize_field("blendMode", &self.blend_mode)?;
        st.serialize_field("texture", self.page_name)?;
        st.serialize_field("numVertices", &self.num_vertices())?;
        st.serialize_field("numIndices", &self.num_indices())?;
        st.serialize_field("positions", self.positions)?;
        st.serialize_field("uvs", self.uvs)?;
        st.serialize_field("colors", self.colors)?;
        st.serialize_field("darkColors", self.dark_colors)?;
        st.serialize_field("indices", self.indices)?;
        st.end()
    }
}

struct CommandList<'a>(&'a RenderCommands);

impl Serialize for CommandList<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for c in self.0.iter() {
            seq.serialize_element(&c)?;
        }
        seq.end()
    }
}

impl Serialize for RenderCommands {
    /// `{"commands": [{"blendMode", "texture", "numVertices", "numIndices", "positions",
    /// "uvs", "colors", "darkColors", "indices"}, ...]}`: the shape of `skel commands --json`
    /// and of the goldens' `render` object.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("RenderCommands", 1)?;
        st.serialize_field("commands", &CommandList(self))?;
        st.end()
    }
}
