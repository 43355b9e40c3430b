//! The trait a rendering backend implements.

use crate::commands::{CommandView, PageId, RenderCommands};

/// Texture filtering, as named in Spine atlas files (`filter: Linear, Linear`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TextureFilter {
    /// Nearest texel.
    Nearest,
    /// Bilinear between the four nearest texels.
    #[default]
    Linear,
    /// Mipmapped, the GPU chooses (`MipMap`).
    MipMap,
    /// `MipMapNearestNearest`.
    MipMapNearestNearest,
    /// `MipMapLinearNearest`.
    MipMapLinearNearest,
    /// `MipMapNearestLinear`.
    MipMapNearestLinear,
    /// `MipMapLinearLinear`.
    MipMapLinearLinear,
}

impl TextureFilter {
    /// Parses an atlas filter name (`Nearest`, `Linear`, `MipMap`, `MipMapLinearLinear`, …).
    pub fn from_atlas_name(name: &str) -> Option<TextureFilter> {
        Some(match name {
            "Nearest" => TextureFilter::Nearest,
            "Linear" => TextureFilter::Linear,
            "MipMap" => TextureFilter::MipMap,
            "MipMapNearestNearest" => TextureFilter::MipMapNearestNearest,
            "MipMapLinearNearest" => TextureFilter::MipMapLinearNearest,
            "MipMapNearestLinear" => TextureFilter::MipMapNearestLinear,
            "MipMapLinearLinear" => TextureFilter::MipMapLinearLinear,
            _ => return None,
        })
    }

    /// Whether sampling within one mip level is bilinear (everything but `Nearest`,
    /// `MipMapNearestNearest` and `MipMapNearestLinear`).
    pub fn is_linear(self) -> bool {
        !matches!(
            self,
            TextureFilter::Nearest
                | TextureFilter::MipMapNearestNearest
                | TextureFilter::MipMapNearestLinear
        )
    }
}

/// Texture wrapping, as in Spine atlas files (`repeat: x|y|xy|none`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TextureWrap {
    /// Coordinates are clamped to the edge texels (the atlas default).
    #[default]
    ClampToEdge,
    /// Coordinates wrap around.
    Repeat,
    /// Coordinates wrap around, mirrored every other repetition.
    MirroredRepeat,
}

/// Everything a backend needs to create the texture for one atlas page.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextureDesc<'a> {
    /// The page's name (its image file name in the atlas).
    pub name: &'a str,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height` RGBA8 pixels, row-major, top row first.
    pub pixels: &'a [u8],
    /// Whether `pixels` has premultiplied alpha.
    pub premultiplied_alpha: bool,
    /// Minification filter.
    pub min_filter: TextureFilter,
    /// Magnification filter.
    pub mag_filter: TextureFilter,
    /// Wrapping along u.
    pub wrap_u: TextureWrap,
    /// Wrapping along v.
    pub wrap_v: TextureWrap,
}

/// A rendering backend: owns textures, draws commands.
pub trait RenderBackend {
    /// The backend's error.
    type Error;

    /// Creates (or replaces) the texture for `page` (ids as given by
    /// [`RenderCommands::add_page`]).
    fn create_texture(&mut self, page: PageId, desc: &TextureDesc<'_>) -> Result<(), Self::Error>;

    /// Called once before the first command of a frame. Does nothing by default.
    fn begin_frame(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }

    /// Draws one command.
    fn draw(&mut self, command: &CommandView<'_>) -> Result<(), Self::Error>;

    /// Called once after the last command of a frame. Does nothing by default.
    fn end_frame(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}

/// Draws every command in order: `begin_frame`, `draw` for each command, `end_frame`.
/// Stops at the first error.
pub fn render<B: RenderBackend + ?Sized>(
    commands: &RenderCommands,
    backend: &mut B,
) -> Result<(), B::Error> {
    backend.begin_frame()?;
    for cmd in commands.iter() {
        backend.draw(&cmd)?;
    }
    backend.end_frame()
}
