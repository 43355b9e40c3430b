//! Plays any rig `skel` can load in a window:
//! `cargo run -p skel-wgpu --example window -- RIG.skel|RIG.json|RIG.skf` (a Spine skeleton
//! with the atlas `skel` discovers beside it, or a SkelForm archive). Keys: → / space next
//! animation, ← previous (both mixed over 0.25 s), Enter restarts the current one without a
//! mix, Esc quits.
//!
//! The loop an engine needs: load once (skeleton data, atlas pages as textures with
//! [`GpuRenderer::create_texture`]); each frame advance the player (for Spine:
//! `AnimationState::update`/`apply`, `Skeleton::update`, `update_world_transform`,
//! `SkeletonRenderer::render` into `RenderCommands`; see `skel_view::player`), then
//! `spine_render_traits::render` into the `GpuRenderer` (staging and one upload) and
//! [`GpuRenderer::encode`] into the frame's command encoder.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use skel_view::player::{Controls, Instance};
use skel_view::rig::{load_file, Textures};
use skel_wgpu::{GpuRenderer, ViewTransform};
use spine_render_traits::{render, PageId, RenderBackend, TextureDesc};
use winit::application::ApplicationHandler;
use winit::event::{ElementState, KeyEvent, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::keyboard::{Key, NamedKey};
use winit::window::{Window, WindowId};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// What exists once the window does.
struct Gfx {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    gpu: GpuRenderer,
}

struct App {
    player: Instance,
    textures: Textures,
    /// World bounds of the whole first animation: the view does not jump.
    bounds: [f32; 4],
    gfx: Option<Gfx>,
    last: Instant,
}

impl App {
    fn init(&mut self, el: &ActiveEventLoop) -> Res<Gfx> {
        let window = Arc::new(el.create_window(Window::default_attributes().with_title("skel"))?);
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle(
            Box::new(el.owned_display_handle()),
        ));
        let surface = instance.create_surface(window.clone())?;
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            compatible_surface: Some(&surface),
            ..Default::default()
        }))?;
        let (device, queue) = pollster::block_on(adapter.request_device(&Default::default()))?;
        let size = window.inner_size();
        let mut config = surface
            .get_default_config(&adapter, size.width.max(1), size.height.max(1))
            .ok_or("the surface does not fit the adapter")?;
        // Spine blends in the colour space of the texels: draw into a non-sRGB format.
        let caps = surface.get_capabilities(&adapter);
        config.format =
            caps.formats.iter().copied().find(|f| !f.is_srgb()).unwrap_or(config.format);
        surface.configure(&device, &config);
        let mut gpu = GpuRenderer::new(&device, &queue, config.format);
        for (i, page) in self.player.rig.pages.iter().enumerate() {
            let (width, height, pixels) = self.textures.decode(page.tex)?;
            let desc = TextureDesc {
                name: &page.name,
                width,
                height,
                pixels: &pixels,
                premultiplied_alpha: self.player.page_pma(i),
                min_filter: Default::default(),
                mag_filter: Default::default(),
                wrap_u: Default::default(),
                wrap_v: Default::default(),
            };
            gpu.create_texture(PageId(i as u32), &desc)?;
        }
        Ok(Gfx { window, surface, config, gpu })
    }

    /// Mixes to the animation `step` places after the current one (`0`: restarts it).
    fn switch(&mut self, step: isize) {
        let names = self.player.animations();
        if names.is_empty() {
            return;
        }
        let now = self.player.ctl.anim.unwrap_or(0) as isize;
        let next = (now + step).rem_euclid(names.len() as isize) as usize;
        self.player.ctl.anim = Some(next);
        match step {
            0 => self.player.set_animation(Some(next)),
            _ => self.player.mix_to(Some(next), 0.25),
        }
        println!("animation: {}", names[next].0);
    }

    fn frame(&mut self) -> Res<()> {
        let Some(g) = self.gfx.as_mut() else { return Ok(()) };
        let now = Instant::now();
        self.player.step(now.duration_since(self.last).as_secs_f32().min(0.1));
        self.last = now;
        let (w, h) = (g.config.width, g.config.height);
        g.gpu.set_view(ViewTransform::fit(self.bounds, w, h, 16.0));
        g.gpu.set_target_size(w, h);
        render(&self.player.cmds, &mut g.gpu)?;
        let frame = match g.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t)
            | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            _ => {
                g.surface.configure(g.gpu.device(), &g.config);
                return Ok(());
            }
        };
        let view = frame.texture.create_view(&Default::default());
        let mut encoder = g.gpu.device().create_command_encoder(&Default::default());
        g.gpu.encode(&mut encoder, &view, Some([40, 44, 52, 255]));
        g.gpu.queue().submit([encoder.finish()]);
        g.gpu.queue().present(frame);
        g.window.request_redraw();
        Ok(())
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, el: &ActiveEventLoop) {
        if self.gfx.is_none() {
            match self.init(el) {
                Ok(g) => self.gfx = Some(g),
                Err(e) => {
                    eprintln!("cannot open the window: {e}");
                    el.exit();
                }
            }
        }
    }

    fn window_event(&mut self, el: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => el.exit(),
            WindowEvent::Resized(size) => {
                if let Some(g) = self.gfx.as_mut() {
                    g.config.width = size.width.max(1);
                    g.config.height = size.height.max(1);
                    g.surface.configure(g.gpu.device(), &g.config);
                }
            }
            WindowEvent::KeyboardInput {
                event: KeyEvent { state: ElementState::Pressed, logical_key, .. },
                ..
            } => match logical_key {
                Key::Named(NamedKey::ArrowRight | NamedKey::Space) => self.switch(1),
                Key::Named(NamedKey::ArrowLeft) => self.switch(-1),
                Key::Named(NamedKey::Enter) => self.switch(0),
                Key::Named(NamedKey::Escape) => el.exit(),
                _ => {}
            },
            WindowEvent::RedrawRequested => {
                if let Err(e) = self.frame() {
                    eprintln!("frame: {e}");
                    el.exit();
                }
            }
            _ => {}
        }
    }
}

fn main() -> Res<()> {
    let path = std::env::args_os().nth(1).map(PathBuf::from);
    let path = path.ok_or("usage: window RIG.skel|RIG.json|RIG.skf")?;
    let textures = Textures::default();
    let rig = Arc::new(load_file(&path, &path.to_string_lossy(), &textures)?);
    let player = Instance::new(0, rig, Controls::default());
    let mut app = App { player, textures, bounds: [0.0; 4], gfx: None, last: Instant::now() };
    app.switch(0);
    app.bounds = app.player.fit_bounds(true).unwrap_or([-100.0, 0.0, 100.0, 200.0]);
    EventLoop::new()?.run_app(&mut app)?;
    Ok(())
}
