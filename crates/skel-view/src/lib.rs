//! # skel-view
//!
//! `skel view [FILE|DIR]...`: a viewer people open in their browser. A local HTTP server
//! (tiny_http; WebSocket by tungstenite over the upgraded connection) bound to `127.0.0.1`
//! serves one page whose HTML, JavaScript and CSS are embedded in the binary
//! (`include_str!`, hand-written, no build step). The runtime runs in the server: the page
//! sends controls, the server plays the rigs (`spine-anim`, `skelform`) and streams their
//! render commands every frame as binary WebSocket messages, and the page draws them with
//! WebGL2 (atlas pages as textures, two-colour tint, the four blend modes, premultiplied
//! alpha; the shading and blending of `skel-render`'s software renderer).
//!
//! ## Safety
//!
//! * Only loopback: the listener is bound to `127.0.0.1` (never `0.0.0.0`), and a request
//!   whose `Host` is not `127.0.0.1:PORT` / `localhost:PORT` is refused (DNS rebinding);
//!   a WebSocket whose `Origin` is another site is refused.
//! * A token: 128 random bits from the OS (`getrandom`), hex, is the first path segment of
//!   every URL (`http://127.0.0.1:PORT/TOKEN/`); any request without it gets a bare 404.
//! * No path from the browser is trusted: the served skeletons are the catalog built at
//!   start from the command line ([`catalog`]), opened by index; textures are served by
//!   opaque id from a table built at load ([`rig::Textures`]); exports by job id.
//!   Dropped files are uploaded over the WebSocket into memory (each at most
//!   `spine_format::Limits::default().max_file_bytes`, at most 64 files / 4× that limit
//!   per page) and loaded with the same library calls as the CLI.
//!
//! ## HTTP routes (all under `/TOKEN/`)
//!
//! | route | what |
//! | --- | --- |
//! | `` / `index.html`, `app.js`, `style.css` | the page |
//! | `ws` | the WebSocket |
//! | `tex/ID` | texture `ID`: `u32` width, `u32` height (LE), then straight RGBA8 rows, decoded by the server (`skel_render::decode_png_page`, its size limits) |
//! | `export/ID` | a finished export (download) |
//!
//! ## WebSocket: page → server (JSON text)
//!
//! `{"op": "open", "entry": N}` (catalog entry), `{"op": "open_files"}` (the files dropped
//! so far: binary messages `u32` name length, name, bytes), `{"op": "close", "inst": I}`,
//! `{"op": "set", "inst": I, …}` with any of `anim` (name), `loop`, `playing`, `speed`,
//! `physics`, `pma` (`null` = the atlas'), `skins` (names, combined), `stepFps`, `time`
//! (seek: replay from 0 to T), `{"op": "mix", "inst": I, "to": NAME, "duration": S}`,
//! `{"op": "fit", "inst": I, "mode": "animation"|"frame"}` (world bounds as `skel render`
//! fits its view), `{"op": "export", "inst": I, "format": "png"|"gif"|"apng"|"webp",
//! "width": W, "height": H, "view": [scale, offsetX, offsetY], "background": "RRGGBBAA",
//! "fps": F}`, and `{"op": "tick", "seq": N, "dt": S, "debug": FLAGS}`: advance the
//! playing rigs by `dt × speed` and answer with a frame. Debug flags: 1 bones, 2 bounding
//! boxes, 4 mesh hulls, 8 triangles (drawn by the page from the commands), 16 clipping.
//!
//! Server → page JSON: `hello` (catalog), `opened` (rig info), `state`, `bounds`,
//! `events` (fired Spine events and entry start / complete / end), `uploads`,
//! `export_started`, `progress`, `export_done` (`url`), `export_failed`, `error`.
//!
//! ## WebSocket: the frame message (server → page, binary, little-endian)
//!
//! Every field is 4-byte aligned, so the page reads the arrays through typed-array views
//! without copying:
//!
//! ```text
//! u32 magic "SKV1"   u32 seq (the tick's)   f32 server_ms   u32 rig count
//! per rig:
//!   u32 instance id   f32 time (s)   u32 commands C   u32 vertices V   u32 indices I
//!   C × { u32 texture id, u8 blend (0 normal, 1 additive, 2 multiply, 3 screen),
//!         u8 pma, u16 0, u32 vertex count, u32 index count }
//!   f32 positions[2V]  f32 uvs[2V]  u32 light[V]  u32 dark[V]  u16 indices[I]  (u16 0 if I odd)
//!   u32 debug groups G, G × { u32 kind, u32 n, f32[n] }
//! ```
//!
//! Commands are `RenderCommands` (spine-cpp batching for Spine, `SkfDrawer` for
//! SkelForm): vertex data is planar per rig, commands in order, so command `k`'s vertices
//! start after those of commands `0..k` and its `u16` indices are local to it. Colours
//! are ARGB packed in a `u32` (`a << 24 | r << 16 | g << 8 | b`), straight alpha; `pma` is
//! the page's premultiplied-alpha flag after the page's override. `server_ms` is the time
//! from receiving the tick to the frame encoded (stepping every rig, commands, encoding).
//! Debug kinds: 1 bone segments, 2 bone origins (points), 3 bounding boxes, 4 mesh hulls,
//! 5 clipping polygons (segments are `x1, y1, x2, y2`, world units).
//!
//! ## Playback
//!
//! As `skel render` plays ([`player`]): an `AnimationState` from t = 0 with
//! `Physics::Update`; seeking replays from 0 to T at the step rate (`skel render --fps`,
//! default 30) exactly as a still frame of `skel render --time T` is played, so a paused,
//! scrubbed page shows `skel render`'s pose.

pub mod catalog;
pub mod export;
pub mod player;
pub mod rig;
pub mod server;
pub mod session;
pub mod wire;

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// What `skel view` serves and how.
#[derive(Debug, Clone, Default)]
pub struct ViewOptions {
    /// Skeleton files and folders to serve (at least one; `skel view` without paths passes
    /// the demo rig it embeds, written to a temporary folder).
    pub paths: Vec<PathBuf>,
    /// Port on 127.0.0.1 (0: a free one).
    pub port: u16,
    /// Open the page in the default browser.
    pub open: bool,
}

/// A started viewer: its URL, and the server to run.
pub struct Viewer {
    /// `http://127.0.0.1:PORT/TOKEN/`.
    pub url: String,
    server: Arc<tiny_http::Server>,
    shared: Arc<server::Shared>,
}

/// A new 128-bit token from the OS, as hex.
fn new_token() -> Result<String, String> {
    let mut b = [0u8; 16];
    getrandom::fill(&mut b).map_err(|e| format!("no randomness from the OS: {e}"))?;
    Ok(b.iter().map(|x| format!("{x:02x}")).collect())
}

impl Viewer {
    /// Builds the catalog and binds the server (nothing is served until [`Viewer::serve`]).
    pub fn start(opts: &ViewOptions) -> Result<Viewer, String> {
        if opts.paths.is_empty() {
            return Err("nothing to serve: give skeleton files or folders".into());
        }
        let catalog = catalog::build(&opts.paths)?;
        let token = new_token()?;
        let server = tiny_http::Server::http(("127.0.0.1", opts.port))
            .map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", opts.port))?;
        let port = server.server_addr().to_ip().map(|a| a.port()).ok_or("no port bound")?;
        let shared = Arc::new(server::Shared {
            token: token.clone(),
            port,
            catalog,
            loaded: Mutex::default(),
            textures: rig::Textures::default(),
            exports: export::Exports::default(),
        });
        Ok(Viewer {
            url: format!("http://127.0.0.1:{port}/{token}/"),
            server: Arc::new(server),
            shared,
        })
    }

    /// How many skeletons are served.
    pub fn catalog_len(&self) -> usize {
        self.shared.catalog.len()
    }

    /// Serves until the process ends.
    pub fn serve(self) {
        server::serve(self.server, self.shared, 4);
    }
}

/// Opens `url` in the default browser (best effort; says so when it cannot).
fn open_browser(url: &str) {
    let cmd: (&str, Vec<&str>) = if cfg!(target_os = "macos") {
        ("open", vec![url])
    } else if cfg!(windows) {
        ("cmd", vec!["/C", "start", "", url])
    } else {
        ("xdg-open", vec![url])
    };
    if let Err(e) = std::process::Command::new(cmd.0).args(&cmd.1).spawn() {
        eprintln!("skel view: could not open a browser ({}: {e}); open the URL yourself", cmd.0);
    }
}

/// `skel view`: starts the server, prints the URL (and opens it with `--open`), serves
/// until interrupted.
pub fn run(opts: &ViewOptions) -> Result<(), String> {
    let viewer = Viewer::start(opts)?;
    println!("{}", viewer.url);
    eprintln!(
        "skel view: serving {} skeleton{} on 127.0.0.1 only; Ctrl-C to stop",
        viewer.catalog_len(),
        if viewer.catalog_len() == 1 { "" } else { "s" }
    );
    use std::io::Write;
    let _ = std::io::stdout().flush();
    if opts.open {
        open_browser(&viewer.url);
    }
    viewer.serve();
    Ok(())
}
