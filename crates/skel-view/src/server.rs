//! The HTTP side (tiny_http): the page and its assets, textures by id, exports by job id,
//! and the WebSocket upgrade handed to [`crate::session`]. Every request must carry the
//! token as its first path segment and a loopback `Host`; anything else is a bare 404.

use std::collections::HashMap;
use std::io::Cursor;
use std::sync::{Arc, Mutex};

use tiny_http::{Header, Method, Request, Response, Server, StatusCode};

use crate::catalog::Entry;
use crate::export::Exports;
use crate::rig::{Rig, Textures};

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const STYLE_CSS: &str = include_str!("../assets/style.css");

/// Everything the request handlers and sessions share.
pub struct Shared {
    /// The token (hex), first path segment of every URL.
    pub token: String,
    /// The port bound.
    pub port: u16,
    /// Served skeletons.
    pub catalog: Vec<Entry>,
    /// Rigs loaded from the catalog, by entry id (loaded once, shared by instances).
    pub loaded: Mutex<HashMap<u32, Arc<Rig>>>,
    /// Texture table.
    pub textures: Textures,
    /// Finished exports.
    pub exports: Exports,
}

impl Shared {
    /// The catalog rig `id`, loaded on first use.
    pub fn rig(&self, id: u32) -> Result<Arc<Rig>, String> {
        if let Some(r) = self.loaded.lock().unwrap_or_else(|e| e.into_inner()).get(&id) {
            return Ok(r.clone());
        }
        let e = self.catalog.get(id as usize).ok_or_else(|| format!("no catalog entry {id}"))?;
        let rig = Arc::new(crate::rig::load_file(&e.path, &e.name, &self.textures)?);
        self.loaded.lock().unwrap_or_else(|e| e.into_inner()).insert(id, rig.clone());
        Ok(rig)
    }
}

fn header(name: &str, value: &str) -> Header {
    // Names and values here are ASCII constants or formatted numbers / ASCII names.
    Header::from_bytes(name.as_bytes(), value.as_bytes())
        .unwrap_or_else(|_| Header::from_bytes(&b"X-Invalid"[..], &b"1"[..]).expect("ascii header"))
}

fn common(mut r: Response<Cursor<Vec<u8>>>, shared: &Shared) -> Response<Cursor<Vec<u8>>> {
    let p = shared.port;
    let csp = format!(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; \
         connect-src 'self' ws://127.0.0.1:{p} ws://localhost:{p}; base-uri 'none'; \
         form-action 'none'; frame-ancestors 'none'"
    );
    for (k, v) in [
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
        ("Content-Security-Policy", csp.as_str()),
    ] {
        r.add_header(header(k, v));
    }
    r
}

fn not_found(req: Request) {
    let _ = req.respond(Response::from_string("not found").with_status_code(404));
}

fn reply(req: Request, shared: &Shared, status: u16, mime: &str, body: Vec<u8>) {
    let r = Response::from_data(body)
        .with_status_code(StatusCode(status))
        .with_header(header("Content-Type", mime));
    let _ = req.respond(common(r, shared));
}

fn header_value<'a>(req: &'a Request, name: &'static str) -> Option<&'a str> {
    req.headers().iter().find(|h| h.field.equiv(name)).map(|h| h.value.as_str())
}

/// Constant-time comparison (the token must not leak through timing).
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Whether `Host` names this server on loopback (defeats DNS rebinding).
fn host_ok(req: &Request, port: u16) -> bool {
    header_value(req, "Host")
        .is_some_and(|h| h == format!("127.0.0.1:{port}") || h == format!("localhost:{port}"))
}

/// Whether a browser `Origin`, when sent, is this server.
fn origin_ok(req: &Request, port: u16) -> bool {
    header_value(req, "Origin").is_none_or(|o| {
        o == format!("http://127.0.0.1:{port}") || o == format!("http://localhost:{port}")
    })
}

/// Handles one request (on one of the HTTP worker threads).
pub fn handle(req: Request, shared: &Arc<Shared>) {
    if !host_ok(&req, shared.port) {
        return not_found(req);
    }
    let url = req.url().to_owned();
    let path = url.split(['?', '#']).next().unwrap_or("");
    let mut parts = path.trim_start_matches('/').splitn(2, '/');
    let token = parts.next().unwrap_or("");
    if !same(token.as_bytes(), shared.token.as_bytes()) {
        return not_found(req);
    }
    let Some(rest) = parts.next() else {
        // `/<token>` without the slash: send the browser to the page.
        let loc = format!("/{}/", shared.token);
        let r = Response::from_data(Vec::new())
            .with_status_code(302)
            .with_header(header("Location", &loc));
        let _ = req.respond(common(r, shared));
        return;
    };
    let get = *req.method() == Method::Get;
    match rest {
        "" | "index.html" if get => {
            reply(req, shared, 200, "text/html; charset=utf-8", INDEX_HTML.as_bytes().to_vec())
        }
        "app.js" if get => {
            reply(req, shared, 200, "text/javascript; charset=utf-8", APP_JS.as_bytes().to_vec())
        }
        "style.css" if get => {
            reply(req, shared, 200, "text/css; charset=utf-8", STYLE_CSS.as_bytes().to_vec())
        }
        "ws" if get => {
            if !origin_ok(&req, shared.port) {
                return not_found(req);
            }
            crate::session::upgrade(req, shared.clone());
        }
        _ if get && rest.starts_with("tex/") => {
            let Ok(id) = rest["tex/".len()..].parse::<u32>() else { return not_found(req) };
            match shared.textures.decode(id) {
                Ok((w, h, pixels)) => {
                    let mut body = Vec::with_capacity(8 + pixels.len());
                    body.extend_from_slice(&w.to_le_bytes());
                    body.extend_from_slice(&h.to_le_bytes());
                    body.extend_from_slice(&pixels);
                    reply(req, shared, 200, "application/octet-stream", body);
                }
                Err(e) => reply(req, shared, 422, "text/plain; charset=utf-8", e.into_bytes()),
            }
        }
        _ if get && rest.starts_with("export/") => {
            let Ok(id) = rest["export/".len()..].parse::<u32>() else { return not_found(req) };
            let Some(file) = shared.exports.get(id) else { return not_found(req) };
            let r = Response::from_data(file.bytes.clone())
                .with_header(header("Content-Type", file.mime))
                .with_header(header(
                    "Content-Disposition",
                    &format!("attachment; filename=\"{}\"", file.name),
                ));
            let _ = req.respond(common(r, shared));
        }
        _ => not_found(req),
    }
}

/// Serves requests until the process ends, on `threads` worker threads.
pub fn serve(server: Arc<Server>, shared: Arc<Shared>, threads: usize) {
    let mut handles = Vec::new();
    for _ in 0..threads.max(1) {
        let (server, shared) = (server.clone(), shared.clone());
        handles.push(std::thread::spawn(move || {
            while let Ok(req) = server.recv() {
                handle(req, &shared);
            }
        }));
    }
    for h in handles {
        let _ = h.join();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_comparison() {
        assert!(same(b"abc", b"abc"));
        assert!(!same(b"abc", b"abd"));
        assert!(!same(b"abc", b"ab"));
    }
}
