//! The crate's error type.

use spine_render_traits::PageId;

/// Everything that can go wrong while loading textures, rasterizing or encoding.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RenderError {
    /// A command refers to a page that has no texture.
    #[error("no texture was created for page {} (\"{name}\")", page.0)]
    MissingTexture {
        /// The page id.
        page: PageId,
        /// The page name, as the command gives it.
        name: String,
    },
    /// Texture pixels do not match the stated size, or the size is zero or too large.
    #[error("texture \"{name}\": {width}x{height} needs {expected} bytes of RGBA8, got {got}")]
    BadTexture {
        /// The texture's name.
        name: String,
        /// Stated width.
        width: u32,
        /// Stated height.
        height: u32,
        /// Bytes needed.
        expected: usize,
        /// Bytes given.
        got: usize,
    },
    /// An image size is zero or too large for the operation.
    #[error("bad image size {width}x{height}: {why}")]
    BadSize {
        /// Width.
        width: u32,
        /// Height.
        height: u32,
        /// What the limit is.
        why: &'static str,
    },
    /// A page image far larger than its atlas declares (see
    /// `MAX_PAGE_OVERSIZE`).
    #[error("page image is {width}x{height}, the atlas declares {}x{}", .declared.0, .declared.1)]
    PageSizeMismatch {
        /// The image's width.
        width: u32,
        /// The image's height.
        height: u32,
        /// The atlas's `size:`.
        declared: (u32, u32),
    },
    /// A frame handed to an encoder has the wrong number of bytes.
    #[error("frame has {got} bytes, expected {expected}")]
    FrameSize {
        /// Bytes needed (`width * height * 4`).
        expected: usize,
        /// Bytes given.
        got: usize,
    },
    /// PNG decoding failed.
    #[error("PNG decode: {0}")]
    PngDecode(#[from] png::DecodingError),
    /// PNG encoding failed.
    #[error("PNG encode: {0}")]
    PngEncode(#[from] png::EncodingError),
    /// GIF encoding failed.
    #[error("GIF encode: {0}")]
    Gif(#[from] gif::EncodingError),
    /// WebP encoding failed.
    #[error("WebP encode: {0}")]
    WebP(#[from] image_webp::EncodingError),
    /// An I/O error, with the path when there is one.
    #[error("{path}: {source}")]
    Io {
        /// The file or folder.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
}

impl RenderError {
    pub(crate) fn io(path: &std::path::Path, source: std::io::Error) -> RenderError {
        RenderError::Io { path: path.display().to_string(), source }
    }
}
