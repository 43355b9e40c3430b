//! Rendering into a texture and reading it back, without a window.

use spine_render_traits::{render, RenderCommands};

use crate::{GpuError, GpuRenderer};

/// The format of [`Offscreen`] targets: a [`GpuRenderer`] drawing into one must have been
/// made for it.
pub const OFFSCREEN_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// An `Rgba8Unorm` render target of a fixed size with a read-back buffer: renders
/// [`RenderCommands`] and reads the frame as straight-alpha RGBA8 (the frame itself is
/// premultiplied, as `skel_render::SoftwareRenderer`'s is).
pub struct Offscreen {
    device: wgpu::Device,
    queue: wgpu::Queue,
    width: u32,
    height: u32,
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    readback: wgpu::Buffer,
    /// Bytes per row of the read-back buffer (a multiple of 256).
    row_pitch: u32,
    background: [u8; 4],
}

impl std::fmt::Debug for Offscreen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Offscreen")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("background", &self.background)
            .finish()
    }
}

impl Offscreen {
    /// A `width × height` target (transparent background) on `renderer`'s device.
    pub fn new(renderer: &GpuRenderer, width: u32, height: u32) -> Result<Offscreen, GpuError> {
        let device = renderer.device().clone();
        let max = device.limits().max_texture_dimension_2d;
        if width == 0 || height == 0 || width > max || height > max {
            return Err(GpuError::BadTexture {
                name: "offscreen target".to_owned(),
                reason: format!("{width}×{height} is empty or exceeds the device limit {max}"),
            });
        }
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("skel-wgpu offscreen"),
            size: wgpu::Extent3d { width, height, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: OFFSCREEN_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        let row_pitch = (4 * width).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
            * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let readback = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("skel-wgpu read-back"),
            size: u64::from(row_pitch) * u64::from(height),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        Ok(Offscreen {
            device,
            queue: renderer.queue().clone(),
            width,
            height,
            texture,
            view,
            readback,
            row_pitch,
            background: [0; 4],
        })
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Sets the background (straight-alpha RGBA8) each frame starts from.
    pub fn set_background(&mut self, rgba: [u8; 4]) {
        self.background = rgba;
    }

    /// The target texture (to draw more onto it, or to sample it).
    pub fn texture(&self) -> &wgpu::Texture {
        &self.texture
    }

    /// Draws `commands` with `renderer` (made for [`OFFSCREEN_FORMAT`]) on the background,
    /// and copies the frame to the read-back buffer. Submits; does not wait.
    pub fn render(
        &mut self,
        renderer: &mut GpuRenderer,
        commands: &RenderCommands,
    ) -> Result<(), GpuError> {
        if renderer.format() != OFFSCREEN_FORMAT {
            return Err(GpuError::BadTexture {
                name: "offscreen target".to_owned(),
                reason: format!(
                    "the renderer was made for {:?}, the target is {OFFSCREEN_FORMAT:?}",
                    renderer.format()
                ),
            });
        }
        renderer.set_target_size(self.width, self.height);
        render(commands, renderer)?;
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("skel-wgpu") });
        renderer.encode(&mut encoder, &self.view, Some(self.background));
        encoder.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture: &self.texture,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: &self.readback,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(self.row_pitch),
                    rows_per_image: Some(self.height),
                },
            },
            wgpu::Extent3d { width: self.width, height: self.height, depth_or_array_layers: 1 },
        );
        self.queue.submit([encoder.finish()]);
        Ok(())
    }

    /// Waits for the last [`render`](Self::render) and writes its frame as straight-alpha
    /// RGBA8 into `out` (resized to `width * height * 4`; no allocation once it has that
    /// capacity). A pixel of alpha 0 reads `[0, 0, 0, 0]`; others `round(c · 255 / a)`.
    pub fn read_rgba8(&self, out: &mut Vec<u8>) -> Result<(), GpuError> {
        self.read(out, false)
    }

    /// [`read_rgba8`](Self::read_rgba8) without un-premultiplying: the frame's own
    /// premultiplied RGBA8.
    pub fn read_premultiplied_rgba8(&self, out: &mut Vec<u8>) -> Result<(), GpuError> {
        self.read(out, true)
    }

    fn read(&self, out: &mut Vec<u8>, premultiplied: bool) -> Result<(), GpuError> {
        let (tx, rx) = std::sync::mpsc::channel();
        self.readback.map_async(wgpu::MapMode::Read, .., move |r| {
            let _ = tx.send(r);
        });
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| GpuError::ReadBack(e.to_string()))?;
        rx.recv()
            .map_err(|e| GpuError::ReadBack(e.to_string()))?
            .map_err(|e| GpuError::ReadBack(e.to_string()))?;
        let row = 4 * self.width as usize;
        out.resize(row * self.height as usize, 0);
        {
            let mapped = self
                .readback
                .get_mapped_range(..)
                .map_err(|e| GpuError::ReadBack(e.to_string()))?;
            for (src, dst) in mapped.chunks(self.row_pitch as usize).zip(out.chunks_exact_mut(row))
            {
                let Some(src) = src.get(..row) else { continue };
                if premultiplied {
                    dst.copy_from_slice(src);
                    continue;
                }
                for (s, d) in src.chunks_exact(4).zip(dst.chunks_exact_mut(4)) {
                    d.copy_from_slice(&unpremultiply(s));
                }
            }
        }
        self.readback.unmap();
        Ok(())
    }
}

/// Premultiplied RGBA8 → straight RGBA8, rounded to nearest.
fn unpremultiply(p: &[u8]) -> [u8; 4] {
    let a = u32::from(p[3]);
    if a == 0 {
        return [0; 4];
    }
    let c = |v: u8| ((u32::from(v) * 255 + a / 2) / a).min(255) as u8;
    [c(p[0]), c(p[1]), c(p[2]), p[3]]
}

#[cfg(test)]
mod tests {
    use super::unpremultiply;

    #[test]
    fn unpremultiply_rounds_and_clears_transparent_pixels() {
        assert_eq!(unpremultiply(&[10, 20, 30, 0]), [0; 4]);
        assert_eq!(unpremultiply(&[128, 255, 0, 255]), [128, 255, 0, 255]);
        // 64 * 255 / 128 = 127.5 -> 128.
        assert_eq!(unpremultiply(&[64, 1, 200, 128]), [128, 2, 255, 128]);
    }
}
