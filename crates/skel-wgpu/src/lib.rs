//! A [`wgpu`] backend for the render contract of `spine-render-traits`, shading and
//! blending exactly as `skel-render`'s reference rasterizer documents it.
//!
//! - [`GpuRenderer`] implements [`RenderBackend`]: atlas pages become `Rgba8Unorm` textures
//!   (premultiplied or not, as the page says) with a sampler from the page's filters and
//!   wraps; [`draw`](RenderBackend::draw) only appends to CPU staging vectors (cleared, never
//!   dropped, between frames), merging consecutive commands with the same page and blend
//!   mode into one draw call (16-bit indices, one `base_vertex` per draw call);
//!   [`end_frame`](RenderBackend::end_frame) uploads vertices, indices and the view into GPU
//!   buffers that grow by doubling and are reused across frames; [`GpuRenderer::encode`]
//!   records the render pass into the caller's encoder, onto the caller's target.
//! - One pipeline per blend mode × premultiplied alpha, with spine-libgdx's blend functions
//!   (alpha channel included): normal `(pma ? 1 : src.a, 1 − src.a)`, additive
//!   `(pma ? 1 : src.a, 1)`, multiply `(dst, 1 − src.a)`, screen `(1, 1 − src)`; alpha
//!   normal and screen `(1, 1 − src.a)`, additive `(1, 1)`, multiply `(0, 1)`.
//! - The WGSL shader is Spine's two-colour tint with spine-ts' vertex colour preparation
//!   (see `shader.wgsl`).
//! - [`Offscreen`] renders [`RenderCommands`](spine_render_traits::RenderCommands) into an
//!   `Rgba8Unorm` texture and reads it back as straight-alpha RGBA8 into a reused
//!   `Vec<u8>`, like `skel_render`'s `read_rgba8`.
//!
//! Many skeletons in one frame: `begin_frame` once, `draw` every command of every skeleton
//! (each skeleton's `RenderCommands` filled in turn, one buffer reused), `end_frame` once,
//! then `encode`: consecutive commands of the same page and blend mode share a draw call
//! across skeletons, and the frame is one vertex and one index upload: 100 spineboys are 1
//! draw call, 1 000 are 5 (65 536 vertices each; `benches/frame.rs`). `examples/window.rs`
//! plays a rig in a window.
//!
//! The frame holds premultiplied colours, as `skel-render`'s does; unlike its `f32` frame,
//! an `Rgba8Unorm` target rounds to 8 bits after every draw (see `tests/reference.rs` for
//! what that and the GPU's rasterization and filtering do to the pixels).

mod offscreen;

use std::borrow::Cow;

use bytemuck::{Pod, Zeroable};
pub use spine_render_traits::ViewTransform;
use spine_render_traits::{
    BlendMode, CommandView, PageId, RenderBackend, TextureDesc, TextureFilter, TextureWrap,
};

pub use offscreen::{Offscreen, OFFSCREEN_FORMAT};
pub use wgpu;

/// What can go wrong.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GpuError {
    /// No adapter matched the request.
    #[error("no GPU adapter found: {0}")]
    NoAdapter(String),
    /// The adapter refused the device.
    #[error("could not create the GPU device: {0}")]
    Device(String),
    /// A command refers to a page without texture.
    #[error("no texture for page {page} ({name:?})")]
    MissingTexture {
        /// The page id.
        page: u32,
        /// The page name.
        name: String,
    },
    /// A page's pixels do not match its size, or it exceeds the device's limit.
    #[error("texture {name:?}: {reason}")]
    BadTexture {
        /// The page name.
        name: String,
        /// Why.
        reason: String,
    },
    /// Mapping the read-back buffer failed.
    #[error("reading the frame back failed: {0}")]
    ReadBack(String),
}

/// One vertex as the shader reads it: world position, texture coordinates, and the packed
/// `0xAARRGGBB` light and dark colours of the command (read as `Unorm8x4`).
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
struct Vertex {
    position: [f32; 2],
    uv: [f32; 2],
    light: u32,
    dark: u32,
}

/// The view uniform: `[scale, offset_x, offset_y, 0]`, `[width, height, 0, 0]`.
#[repr(C)]
#[derive(Debug, Clone, Copy, Pod, Zeroable)]
struct ViewUniform {
    transform: [f32; 4],
    size: [f32; 4],
}

/// One draw call: a run of consecutive commands with the same page and blend mode.
#[derive(Debug, Clone, Copy)]
struct Batch {
    page: u32,
    pipeline: usize,
    base_vertex: u32,
    vertex_count: u32,
    index_start: u32,
    index_count: u32,
}

struct Page {
    bind_group: wgpu::BindGroup,
    pma: bool,
}

/// A growable GPU buffer (doubling), reused across frames.
struct GrowBuffer {
    buffer: wgpu::Buffer,
    usage: wgpu::BufferUsages,
    label: &'static str,
}

impl GrowBuffer {
    fn new(device: &wgpu::Device, label: &'static str, usage: wgpu::BufferUsages) -> GrowBuffer {
        let usage = usage | wgpu::BufferUsages::COPY_DST;
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: 1 << 16,
            usage,
            mapped_at_creation: false,
        });
        GrowBuffer { buffer, usage, label }
    }

    /// Writes `data` (length a multiple of 4) at offset 0, growing the buffer first if it is
    /// too small.
    fn write(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, data: &[u8]) {
        let need = data.len() as u64;
        if need > self.buffer.size() {
            let mut size = self.buffer.size();
            while size < need {
                size *= 2;
            }
            self.buffer = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(self.label),
                size,
                usage: self.usage,
                mapped_at_creation: false,
            });
        }
        if !data.is_empty() {
            queue.write_buffer(&self.buffer, 0, data);
        }
    }
}

/// The bind group layout of the view uniform (group 0).
fn view_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("skel-wgpu view"),
        entries: &[wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::VERTEX,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        }],
    })
}

/// The bind group layout of a page: its texture and sampler (group 1).
fn page_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("skel-wgpu page"),
        entries: &[
            wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: true },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            },
            wgpu::BindGroupLayoutEntry {
                binding: 1,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                count: None,
            },
        ],
    })
}

/// One pipeline per blend mode and alpha mode, in [`pipeline_index`] order.
fn pipelines(
    device: &wgpu::Device,
    shader: &wgpu::ShaderModule,
    layout: &wgpu::PipelineLayout,
    format: wgpu::TextureFormat,
) -> Vec<wgpu::RenderPipeline> {
    let attributes = wgpu::vertex_attr_array![
        0 => Float32x2, 1 => Float32x2, 2 => Unorm8x4, 3 => Unorm8x4
    ];
    let buffers = [Some(wgpu::VertexBufferLayout {
        array_stride: std::mem::size_of::<Vertex>() as u64,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &attributes,
    })];
    let mut pipelines = Vec::with_capacity(8);
    for mode in BlendMode::ALL {
        for pma in [false, true] {
            debug_assert_eq!(pipelines.len(), pipeline_index(mode, pma));
            let (vs, fs) = if pma { ("vs_pma", "fs_pma") } else { ("vs_straight", "fs_straight") };
            let label = format!("skel-wgpu {} pma={pma}", mode.as_str());
            pipelines.push(device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(&label),
                layout: Some(layout),
                vertex: wgpu::VertexState {
                    module: shader,
                    entry_point: Some(vs),
                    compilation_options: Default::default(),
                    buffers: &buffers,
                },
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: None,
                multisample: wgpu::MultisampleState::default(),
                fragment: Some(wgpu::FragmentState {
                    module: shader,
                    entry_point: Some(fs),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format,
                        blend: Some(blend_state(mode, pma)),
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                multiview_mask: None,
                cache: None,
            }));
        }
    }
    pipelines
}

/// The pipeline index of a blend mode and page kind.
fn pipeline_index(mode: BlendMode, pma: bool) -> usize {
    2 * mode as usize + usize::from(pma)
}

/// spine-libgdx's blend functions, as `skel-render` documents them.
pub fn blend_state(mode: BlendMode, pma: bool) -> wgpu::BlendState {
    use wgpu::{BlendComponent as C, BlendFactor as F, BlendOperation::Add};
    let c = |src_factor, dst_factor| C { src_factor, dst_factor, operation: Add };
    let src = if pma { F::One } else { F::SrcAlpha };
    let (color, alpha) = match mode {
        BlendMode::Normal => (c(src, F::OneMinusSrcAlpha), c(F::One, F::OneMinusSrcAlpha)),
        BlendMode::Additive => (c(src, F::One), c(F::One, F::One)),
        BlendMode::Multiply => (c(F::Dst, F::OneMinusSrcAlpha), c(F::Zero, F::One)),
        BlendMode::Screen => (c(F::One, F::OneMinusSrc), c(F::One, F::OneMinusSrcAlpha)),
    };
    wgpu::BlendState { color, alpha }
}

fn filter_mode(f: TextureFilter) -> wgpu::FilterMode {
    if f.is_linear() {
        wgpu::FilterMode::Linear
    } else {
        wgpu::FilterMode::Nearest
    }
}

fn address_mode(w: TextureWrap) -> wgpu::AddressMode {
    match w {
        TextureWrap::ClampToEdge => wgpu::AddressMode::ClampToEdge,
        TextureWrap::Repeat => wgpu::AddressMode::Repeat,
        TextureWrap::MirroredRepeat => wgpu::AddressMode::MirrorRepeat,
    }
}

/// Draws render commands with wgpu. See the crate documentation.
///
/// Per frame: [`set_target_size`](Self::set_target_size) and [`set_view`](Self::set_view)
/// when they change, then [`spine_render_traits::render`] (or `begin_frame`, `draw`…,
/// `end_frame`), then [`encode`](Self::encode) into a command encoder and submit it.
pub struct GpuRenderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    format: wgpu::TextureFormat,
    pipelines: Vec<wgpu::RenderPipeline>,
    page_layout: wgpu::BindGroupLayout,
    view_buffer: wgpu::Buffer,
    view_bind_group: wgpu::BindGroup,
    pages: Vec<Option<Page>>,
    vertex_buffer: GrowBuffer,
    index_buffer: GrowBuffer,
    vertices: Vec<Vertex>,
    indices: Vec<u16>,
    batches: Vec<Batch>,
    view: ViewTransform,
    size: (u32, u32),
}

impl std::fmt::Debug for GpuRenderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GpuRenderer")
            .field("format", &self.format)
            .field("pages", &self.pages.len())
            .field("vertices", &self.vertices.len())
            .field("indices", &self.indices.len())
            .field("draw_calls", &self.batches.len())
            .field("view", &self.view)
            .field("size", &self.size)
            .finish()
    }
}

impl GpuRenderer {
    /// A renderer drawing into targets of `format` (use a non-sRGB format to blend as
    /// Spine's runtimes do). The device and queue are cloned (they are handles).
    pub fn new(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        format: wgpu::TextureFormat,
    ) -> GpuRenderer {
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("skel-wgpu shader"),
            source: wgpu::ShaderSource::Wgsl(Cow::Borrowed(include_str!("shader.wgsl"))),
        });
        let view_layout = view_layout(device);
        let page_layout = page_layout(device);
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("skel-wgpu layout"),
            bind_group_layouts: &[Some(&view_layout), Some(&page_layout)],
            immediate_size: 0,
        });
        let pipelines = pipelines(device, &shader, &layout, format);
        let view_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("skel-wgpu view"),
            size: std::mem::size_of::<ViewUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let view_bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("skel-wgpu view"),
            layout: &view_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: view_buffer.as_entire_binding(),
            }],
        });
        GpuRenderer {
            device: device.clone(),
            queue: queue.clone(),
            format,
            pipelines,
            page_layout,
            view_buffer,
            view_bind_group,
            pages: Vec::new(),
            vertex_buffer: GrowBuffer::new(
                device,
                "skel-wgpu vertices",
                wgpu::BufferUsages::VERTEX,
            ),
            index_buffer: GrowBuffer::new(device, "skel-wgpu indices", wgpu::BufferUsages::INDEX),
            vertices: Vec::new(),
            indices: Vec::new(),
            batches: Vec::new(),
            view: ViewTransform::default(),
            size: (1, 1),
        }
    }

    /// The target format the pipelines were made for.
    pub fn format(&self) -> wgpu::TextureFormat {
        self.format
    }

    /// The device.
    pub fn device(&self) -> &wgpu::Device {
        &self.device
    }

    /// The queue.
    pub fn queue(&self) -> &wgpu::Queue {
        &self.queue
    }

    /// Sets the world → pixel transform (taken by the next `end_frame`).
    pub fn set_view(&mut self, view: ViewTransform) {
        self.view = view;
    }

    /// The world → pixel transform.
    pub fn view(&self) -> ViewTransform {
        self.view
    }

    /// Sets the size in pixels of the target the next frame is encoded onto (taken by the
    /// next `end_frame`).
    pub fn set_target_size(&mut self, width: u32, height: u32) {
        self.size = (width.max(1), height.max(1));
    }

    /// Draw calls the last frame needs (one per run of commands with the same page and blend
    /// mode).
    pub fn draw_calls(&self) -> usize {
        self.batches.len()
    }

    /// Vertices and indices staged for the last frame.
    pub fn staged(&self) -> (usize, usize) {
        (self.vertices.len(), self.indices.len())
    }

    /// Bytes of the GPU vertex and index buffers (they grow by doubling, never shrink).
    pub fn buffer_capacity(&self) -> (u64, u64) {
        (self.vertex_buffer.buffer.size(), self.index_buffer.buffer.size())
    }

    /// Creates (or replaces) the texture of `page`.
    pub fn set_texture(&mut self, page: PageId, desc: &TextureDesc<'_>) -> Result<(), GpuError> {
        let bad = |reason: String| GpuError::BadTexture { name: desc.name.to_owned(), reason };
        let max = self.device.limits().max_texture_dimension_2d;
        if desc.width == 0 || desc.height == 0 || desc.width > max || desc.height > max {
            return Err(bad(format!(
                "{}×{} is empty or exceeds the device limit {max}",
                desc.width, desc.height
            )));
        }
        let len = desc.width as usize * desc.height as usize * 4;
        if desc.pixels.len() != len {
            return Err(bad(format!("{} bytes for {len}", desc.pixels.len())));
        }
        let size =
            wgpu::Extent3d { width: desc.width, height: desc.height, depth_or_array_layers: 1 };
        let texture = self.device.create_texture(&wgpu::TextureDescriptor {
            label: Some(desc.name),
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba8Unorm,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        self.queue.write_texture(
            wgpu::TexelCopyTextureInfo {
                texture: &texture,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            desc.pixels,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(4 * desc.width),
                rows_per_image: Some(desc.height),
            },
            size,
        );
        // No mip levels are made (the reference has none): mipmapped filters sample level 0
        // with their within-level filter.
        let sampler = self.device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some(desc.name),
            address_mode_u: address_mode(desc.wrap_u),
            address_mode_v: address_mode(desc.wrap_v),
            mag_filter: filter_mode(desc.mag_filter),
            min_filter: filter_mode(desc.min_filter),
            ..Default::default()
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        let bind_group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(desc.name),
            layout: &self.page_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&view),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::Sampler(&sampler),
                },
            ],
        });
        let i = page.index();
        if self.pages.len() <= i {
            self.pages.resize_with(i + 1, || None);
        }
        self.pages[i] = Some(Page { bind_group, pma: desc.premultiplied_alpha });
        Ok(())
    }

    /// Forgets the staged frame (keeping every buffer's capacity).
    pub fn clear(&mut self) {
        self.vertices.clear();
        self.indices.clear();
        self.batches.clear();
    }

    /// Stages one command (what [`RenderBackend::draw`] does).
    pub fn draw_command(&mut self, cmd: &CommandView<'_>) -> Result<(), GpuError> {
        let Some(Some(page)) = self.pages.get(cmd.page.index()) else {
            return Err(GpuError::MissingTexture {
                page: cmd.page.0,
                name: cmd.page_name.to_owned(),
            });
        };
        let n = cmd.num_vertices();
        if n == 0 || cmd.indices.is_empty() {
            return Ok(());
        }
        let pipeline = pipeline_index(cmd.blend_mode, page.pma);
        let start = self.vertices.len() as u32;
        let index_start = self.indices.len() as u32;
        // Merge into the previous draw call when it has the same page and pipeline and the
        // merged vertices stay addressable by 16-bit indices from its base vertex.
        let merge = match self.batches.last_mut() {
            Some(b)
                if b.page == cmd.page.0
                    && b.pipeline == pipeline
                    && b.vertex_count as usize + n <= 1 << 16 =>
            {
                Some(b)
            }
            _ => None,
        };
        let offset = match merge {
            Some(b) => {
                let offset = b.vertex_count;
                b.vertex_count += n as u32;
                b.index_count += cmd.indices.len() as u32;
                offset
            }
            None => {
                self.batches.push(Batch {
                    page: cmd.page.0,
                    pipeline,
                    base_vertex: start,
                    vertex_count: n as u32,
                    index_start,
                    index_count: cmd.indices.len() as u32,
                });
                0
            }
        };
        // `offset + i < 65536` for every valid local index: checked above.
        self.indices.extend(cmd.indices.iter().map(|&i| (u32::from(i) + offset) as u16));
        let (pos, uv) = (cmd.positions, cmd.uvs);
        self.vertices.extend((0..n).map(|i| Vertex {
            position: [
                pos.get(2 * i).copied().unwrap_or(f32::NAN),
                pos.get(2 * i + 1).copied().unwrap_or(f32::NAN),
            ],
            uv: [uv.get(2 * i).copied().unwrap_or(0.0), uv.get(2 * i + 1).copied().unwrap_or(0.0)],
            light: cmd.colors.get(i).map_or(0xffff_ffff, |c| c.0),
            dark: cmd.dark_colors.get(i).map_or(0xff00_0000, |c| c.0),
        }));
        Ok(())
    }

    /// Uploads the staged frame and the view (what [`RenderBackend::end_frame`] does).
    pub fn upload(&mut self) {
        if self.indices.len() % 2 == 1 {
            // `write_buffer` takes multiples of 4 bytes; the pad index is never drawn.
            self.indices.push(0);
        }
        self.vertex_buffer.write(&self.device, &self.queue, bytemuck::cast_slice(&self.vertices));
        self.index_buffer.write(&self.device, &self.queue, bytemuck::cast_slice(&self.indices));
        let v = self.view;
        let u = ViewUniform {
            transform: [v.scale, v.offset_x, v.offset_y, 0.0],
            size: [self.size.0 as f32, self.size.1 as f32, 0.0, 0.0],
        };
        self.queue.write_buffer(&self.view_buffer, 0, bytemuck::bytes_of(&u));
    }

    /// Records the frame uploaded by the last `end_frame` as one render pass onto `target`
    /// (of the renderer's format and of the size given to
    /// [`set_target_size`](Self::set_target_size)), first clearing it to `clear` (straight
    /// RGBA8, premultiplied here), or keeping its contents when `None`.
    pub fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        clear: Option<[u8; 4]>,
    ) {
        let load = match clear {
            Some([r, g, b, a]) => {
                let a = f64::from(a) / 255.0;
                let c = |v: u8| f64::from(v) / 255.0 * a;
                wgpu::LoadOp::Clear(wgpu::Color { r: c(r), g: c(g), b: c(b), a })
            }
            None => wgpu::LoadOp::Load,
        };
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("skel-wgpu frame"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: target,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load, store: wgpu::StoreOp::Store },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        if self.batches.is_empty() {
            return;
        }
        pass.set_bind_group(0, &self.view_bind_group, &[]);
        pass.set_vertex_buffer(0, self.vertex_buffer.buffer.slice(..));
        pass.set_index_buffer(self.index_buffer.buffer.slice(..), wgpu::IndexFormat::Uint16);
        let mut current: Option<(usize, u32)> = None;
        for b in &self.batches {
            let Some(Some(page)) = self.pages.get(b.page as usize) else { continue };
            if current.map(|c| c.0) != Some(b.pipeline) {
                pass.set_pipeline(&self.pipelines[b.pipeline]);
            }
            if current.map(|c| c.1) != Some(b.page) {
                pass.set_bind_group(1, &page.bind_group, &[]);
            }
            current = Some((b.pipeline, b.page));
            pass.draw_indexed(
                b.index_start..b.index_start + b.index_count,
                b.base_vertex as i32,
                0..1,
            );
        }
    }
}

impl RenderBackend for GpuRenderer {
    type Error = GpuError;

    fn create_texture(&mut self, page: PageId, desc: &TextureDesc<'_>) -> Result<(), GpuError> {
        self.set_texture(page, desc)
    }

    /// Clears the staged frame.
    fn begin_frame(&mut self) -> Result<(), GpuError> {
        self.clear();
        Ok(())
    }

    fn draw(&mut self, command: &CommandView<'_>) -> Result<(), GpuError> {
        self.draw_command(command)
    }

    /// Uploads the staged frame.
    fn end_frame(&mut self) -> Result<(), GpuError> {
        self.upload();
        Ok(())
    }
}

/// A device and queue without a window: `backends` (e.g. [`wgpu::Backends::VULKAN`]),
/// `software` asking for a fallback (CPU) adapter such as Mesa's lavapipe. Blocks.
pub fn headless_device(
    backends: wgpu::Backends,
    software: bool,
) -> Result<(wgpu::Device, wgpu::Queue, wgpu::AdapterInfo), GpuError> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
        power_preference: wgpu::PowerPreference::None,
        force_fallback_adapter: software,
        compatible_surface: None,
        apply_limit_buckets: false,
    }))
    .map_err(|e| GpuError::NoAdapter(e.to_string()))?;
    let info = adapter.get_info();
    let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
        label: Some("skel-wgpu"),
        required_features: wgpu::Features::empty(),
        required_limits: wgpu::Limits::default().using_resolution(adapter.limits()),
        ..Default::default()
    }))
    .map_err(|e| GpuError::Device(e.to_string()))?;
    Ok((device, queue, info))
}
