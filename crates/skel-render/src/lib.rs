//! # skel-render
//!
//! The reference software backend of the workspace: it rasterizes
//! [`spine_render_traits::RenderCommands`] into an RGBA8 image and encodes frames as PNG,
//! PNG sequences, animated GIF, APNG and animated lossless WebP.
//!
//! - [`SoftwareRenderer`] implements [`spine_render_traits::RenderBackend`]: textures come
//!   from atlas page images ([`decode_png`], [`load_png`], or
//!   [`SoftwareRenderer::load_png_texture`]), the world → pixel mapping is a
//!   [`ViewTransform`] (y-up world to y-down image, [`ViewTransform::fit`] centers bounds),
//!   and [`SoftwareRenderer::read_rgba8`] fills a reused buffer. Its exact shading, blending
//!   and fill rules are documented on the type.
//! - [`encode`] has the encoders; the animated ones implement [`FrameSink`].
//!
//! ```
//! use skel_render::{SoftwareRenderer, ViewTransform};
//! use spine_render_traits::{render, Argb, BlendMode, Draw, RenderCommands, TextureDesc, VertexColors};
//!
//! let mut cmds = RenderCommands::new();
//! let page = cmds.add_page("white.png", false);
//! cmds.push(&Draw {
//!     page,
//!     blend_mode: BlendMode::Normal,
//!     positions: &[-1.0, -1.0, 1.0, -1.0, 1.0, 1.0, -1.0, 1.0],
//!     uvs: &[0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0],
//!     colors: VertexColors::Uniform { light: Argb::from_argb8(255, 255, 0, 0), dark: Argb::BLACK },
//!     indices: &[0, 1, 2, 2, 3, 0],
//! })?;
//! let mut r = SoftwareRenderer::new(4, 4)?;
//! r.set_texture(page, &TextureDesc {
//!     name: "white.png", width: 1, height: 1, pixels: &[255; 4], premultiplied_alpha: false,
//!     min_filter: Default::default(), mag_filter: Default::default(),
//!     wrap_u: Default::default(), wrap_v: Default::default(),
//! })?;
//! r.set_view(ViewTransform::new(1.0, 2.0, 2.0)); // world (0, 0) at the image center
//! render(&cmds, &mut r)?;
//! let mut rgba = Vec::new();
//! r.read_rgba8(&mut rgba);
//! assert_eq!(&rgba[4 * 5..4 * 6], &[255, 0, 0, 255]); // pixel (1, 1) is inside
//! assert_eq!(&rgba[..4], &[0, 0, 0, 0]);              // pixel (0, 0) is not
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod encode;
mod error;
mod raster;
mod texture;
mod view;

pub use encode::{FrameSink, OutputKind};
pub use error::RenderError;
pub use raster::{RenderOptions, SoftwareRenderer};
pub use texture::{decode_png, decode_png_page, load_png, RgbaImage, MAX_PIXELS, MAX_SIDE};
pub use view::{parse_rgba_hex, ViewTransform};
