//! # spine-render-traits
//!
//! The backend-agnostic render contract of the workspace. A posed skeleton becomes a list of
//! render commands ([`RenderCommands`]): triangle lists batched by texture page
//! ([`PageId`] + page name) and [`BlendMode`], each with positions (`x, y` f32 pairs, world
//! units, y up), UVs, straight-alpha light colors and dark colors packed as ARGB `u32`
//! ([`Argb`], spine-cpp's layout) and `u16` indices local to the command. A backend
//! implements [`RenderBackend`] (texture creation from an atlas page, drawing one
//! [`CommandView`]) and [`render`] walks a frame through it. Every backend maps world
//! positions to pixels with the same [`ViewTransform`] (world y up, pixels y down), so one
//! view gives the same frame on the software rasterizer and on the GPU.
//!
//! The buffer is sink-style: producers append with [`RenderCommands::push`] (copy from
//! slices) or [`RenderCommands::push_with`] (write in place); [`RenderCommands::clear`] keeps
//! capacity, so a warm frame allocates nothing. Merging of consecutive draws follows a
//! [`Batching`] policy; [`Batching::SpineCpp`] reproduces spine-cpp's `SkeletonRenderer`
//! batching exactly.
//!
//! `RenderCommands` serializes (serde) to the JSON shape of `skel commands` and of the
//! spine-cpp goldens' `render` object:
//! `{"commands": [{"blendMode": "normal", "texture": "page.png", "numVertices": n,
//! "numIndices": m, "positions": [...], "uvs": [...], "colors": [...], "darkColors": [...],
//! "indices": [...]}]}`.
//!
//! ```
//! use spine_render_traits::{Argb, BlendMode, Draw, RenderCommands, VertexColors};
//!
//! let mut cmds = RenderCommands::new();
//! let page = cmds.add_page("atlas.png", false);
//! let quad = Draw {
//!     page,
//!     blend_mode: BlendMode::Normal,
//!     positions: &[0.0, 0.0, 10.0, 0.0, 10.0, 10.0, 0.0, 10.0],
//!     uvs: &[0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0],
//!     colors: VertexColors::Uniform { light: Argb::WHITE, dark: Argb::BLACK },
//!     indices: &[0, 1, 2, 2, 3, 0],
//! };
//! cmds.push(&quad).unwrap();
//! cmds.push(&quad).unwrap(); // same page and blend mode: merged
//! assert_eq!(cmds.len(), 1);
//! let cmd = cmds.get(0).unwrap();
//! assert_eq!(cmd.indices[6..], [4, 5, 6, 6, 7, 4]);
//! ```

mod backend;
mod color;
mod commands;
mod view;

pub use backend::{render, RenderBackend, TextureDesc, TextureFilter, TextureWrap};
pub use color::{Argb, BlendMode};
pub use commands::{
    Batching, CommandView, Draw, DrawError, DrawMut, PaddedIndices, PageId, PageInfo,
    RenderCommands, TriangleIndex, TriangleList, VertexColors, INDEX_BLOCK,
};
pub use view::ViewTransform;
