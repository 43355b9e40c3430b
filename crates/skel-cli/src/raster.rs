//! The frame `skel render` draws into: the software rasterizer (`skel-render`, the
//! reference), or with `--gpu` (cargo feature `gpu`) `skel-wgpu` drawing offscreen and
//! reading the frame back. Both take the same render commands, textures, view and
//! background and give straight-alpha RGBA8 frames.

use skel_render::{SoftwareRenderer, ViewTransform};
use spine_render_traits::{render, PageId, RenderCommands, TextureDesc};

/// The GPU target: renderer and offscreen frame.
#[cfg(feature = "gpu")]
pub(crate) struct Gpu {
    renderer: skel_wgpu::GpuRenderer,
    target: skel_wgpu::Offscreen,
}

/// The process's one GPU device and queue, opened by the first `--gpu` frame and shared by
/// every later one (`skel render --gpu --all` draws many outputs; opening an adapter per
/// output cost a device each). A hardware adapter, else a software one such as Mesa's
/// lavapipe.
#[cfg(feature = "gpu")]
fn shared_device() -> Result<(skel_wgpu::wgpu::Device, skel_wgpu::wgpu::Queue), String> {
    use skel_wgpu::{headless_device, wgpu};
    static DEVICE: std::sync::OnceLock<Result<(wgpu::Device, wgpu::Queue), String>> =
        std::sync::OnceLock::new();
    DEVICE
        .get_or_init(|| {
            headless_device(wgpu::Backends::PRIMARY, false)
                .or_else(|_| headless_device(wgpu::Backends::PRIMARY, true))
                .map(|(device, queue, _)| (device, queue))
                .map_err(|e| format!("--gpu: {e}"))
        })
        .clone()
}

/// A `width × height` frame on one backend.
pub(crate) enum Raster {
    /// `skel-render`'s software rasterizer.
    Software(Box<SoftwareRenderer>),
    /// `skel-wgpu`, offscreen.
    #[cfg(feature = "gpu")]
    Gpu(Box<Gpu>),
}

/// The message of `--gpu` in a build without the `gpu` feature.
#[cfg(not(feature = "gpu"))]
pub(crate) const NO_GPU: &str = "--gpu: this skel was built without GPU support (build \
     skel-cli with `--features gpu`)";

impl Raster {
    /// A frame of `width × height`: on the GPU when `gpu` (a hardware adapter, else a
    /// software one such as Mesa's lavapipe), else in software.
    pub(crate) fn new(width: u32, height: u32, gpu: bool) -> Result<Raster, String> {
        if !gpu {
            let r = SoftwareRenderer::new(width, height).map_err(|e| e.to_string())?;
            return Ok(Raster::Software(Box::new(r)));
        }
        #[cfg(feature = "gpu")]
        {
            use skel_wgpu::{GpuRenderer, Offscreen, OFFSCREEN_FORMAT};
            let (device, queue) = shared_device()?;
            let renderer = GpuRenderer::new(&device, &queue, OFFSCREEN_FORMAT);
            let target = Offscreen::new(&renderer, width, height).map_err(|e| e.to_string())?;
            Ok(Raster::Gpu(Box::new(Gpu { renderer, target })))
        }
        #[cfg(not(feature = "gpu"))]
        Err(NO_GPU.to_owned())
    }

    /// Creates the texture of `page`.
    pub(crate) fn set_texture(
        &mut self,
        page: PageId,
        desc: &TextureDesc<'_>,
    ) -> Result<(), String> {
        match self {
            Raster::Software(r) => r.set_texture(page, desc).map_err(|e| e.to_string()),
            #[cfg(feature = "gpu")]
            Raster::Gpu(g) => g.renderer.set_texture(page, desc).map_err(|e| e.to_string()),
        }
    }

    /// Creates the texture of `page` from PNG bytes (the header checked against the pixel
    /// limits and the atlas' declared size before decoding), linear filtering, clamped.
    pub(crate) fn load_png_page(
        &mut self,
        page: PageId,
        name: &str,
        png: &[u8],
        premultiplied_alpha: bool,
        declared: Option<(u32, u32)>,
    ) -> Result<(), String> {
        match self {
            Raster::Software(r) => r
                .load_png_page(page, name, png, premultiplied_alpha, declared)
                .map_err(|e| e.to_string()),
            #[cfg(feature = "gpu")]
            Raster::Gpu(g) => {
                let img = skel_render::decode_png_page(png, declared).map_err(|e| e.to_string())?;
                let desc = TextureDesc {
                    name,
                    width: img.width,
                    height: img.height,
                    pixels: &img.pixels,
                    premultiplied_alpha,
                    min_filter: Default::default(),
                    mag_filter: Default::default(),
                    wrap_u: Default::default(),
                    wrap_v: Default::default(),
                };
                g.renderer.set_texture(page, &desc).map_err(|e| e.to_string())
            }
        }
    }

    /// Sets the world → pixel transform.
    pub(crate) fn set_view(&mut self, view: ViewTransform) {
        match self {
            Raster::Software(r) => r.set_view(view),
            #[cfg(feature = "gpu")]
            Raster::Gpu(g) => g.renderer.set_view(view),
        }
    }

    /// Sets the background (straight RGBA8) every frame starts from.
    pub(crate) fn set_background(&mut self, rgba: [u8; 4]) {
        match self {
            Raster::Software(r) => r.set_background(rgba),
            #[cfg(feature = "gpu")]
            Raster::Gpu(g) => g.target.set_background(rgba),
        }
    }

    /// Draws `cmds` on the background and reads the frame as straight RGBA8 into `rgba`.
    pub(crate) fn draw(&mut self, cmds: &RenderCommands, rgba: &mut Vec<u8>) -> Result<(), String> {
        match self {
            Raster::Software(r) => {
                r.clear();
                render(cmds, r.as_mut()).map_err(|e| e.to_string())?;
                r.read_rgba8(rgba);
                Ok(())
            }
            #[cfg(feature = "gpu")]
            Raster::Gpu(g) => {
                g.target.render(&mut g.renderer, cmds).map_err(|e| e.to_string())?;
                g.target.read_rgba8(rgba).map_err(|e| e.to_string())
            }
        }
    }
}
