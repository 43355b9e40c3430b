//! One page connection: a WebSocket (tungstenite over the connection tiny_http upgraded), on
//! a thread of its own. The page sends JSON controls; each `tick` is answered with the fired
//! events and export progress (JSON) and one binary frame (see the crate docs).

use std::collections::HashMap;
use std::io::{Read, Write};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use serde_json::{json, Value};
use skel_render::{OutputKind, ViewTransform};
use tiny_http::{Header, Request, Response};
use tungstenite::protocol::{Role, WebSocketConfig};
use tungstenite::{Bytes, Message, WebSocket};

use crate::export::{ExportRequest, Job};
use crate::player::{Controls, Instance};
use crate::rig::max_file_bytes;
use crate::server::Shared;
use crate::wire;

/// Most files one page may hold as uploads at once.
const MAX_UPLOADS: usize = 64;
/// Most rigs one page may show at once.
const MAX_INSTANCES: usize = 64;

/// Answers the WebSocket handshake of `req` and runs the session on a new thread.
pub fn upgrade(req: Request, shared: Arc<Shared>) {
    let key = req
        .headers()
        .iter()
        .find(|h| h.field.equiv("Sec-WebSocket-Key"))
        .map(|h| h.value.as_str().to_owned());
    let is_ws = req
        .headers()
        .iter()
        .any(|h| h.field.equiv("Upgrade") && h.value.as_str().eq_ignore_ascii_case("websocket"));
    let Some(key) = key.filter(|_| is_ws) else {
        let _ =
            req.respond(Response::from_string("websocket upgrade expected").with_status_code(400));
        return;
    };
    let accept = tungstenite::handshake::derive_accept_key(key.as_bytes());
    let mut resp = Response::new_empty(tiny_http::StatusCode(101));
    for (k, v) in [
        ("Upgrade", "websocket"),
        ("Connection", "Upgrade"),
        ("Sec-WebSocket-Accept", accept.as_str()),
    ] {
        if let Ok(h) = Header::from_bytes(k.as_bytes(), v.as_bytes()) {
            resp.add_header(h);
        }
    }
    let stream = req.upgrade("websocket", resp);
    std::thread::spawn(move || run(stream, shared));
}

/// A session's state.
struct Session {
    shared: Arc<Shared>,
    instances: Vec<Instance>,
    next_id: u32,
    uploads: HashMap<String, Arc<Vec<u8>>>,
    upload_bytes: usize,
    jobs: Vec<(u32, Arc<Job>, u32)>,
    buf: Vec<u8>,
    debug: Vec<(u32, Vec<f32>)>,
}

fn run<S: Read + Write>(stream: S, shared: Arc<Shared>) {
    let limit = max_file_bytes() + (64 << 10);
    let config =
        WebSocketConfig::default().max_message_size(Some(limit)).max_frame_size(Some(limit));
    let mut ws = WebSocket::from_raw_socket(stream, Role::Server, Some(config));
    let mut s = Session {
        shared,
        instances: Vec::new(),
        next_id: 1,
        uploads: HashMap::new(),
        upload_bytes: 0,
        jobs: Vec::new(),
        buf: Vec::new(),
        debug: Vec::new(),
    };
    let hello = json!({
        "op": "hello",
        "catalog": s.shared.catalog,
        "maxFileBytes": max_file_bytes(),
        "version": env!("CARGO_PKG_VERSION"),
    });
    if ws.send(Message::text(hello.to_string())).is_err() {
        return;
    }
    loop {
        let out = match ws.read() {
            Ok(Message::Text(t)) => {
                let started = Instant::now();
                match serde_json::from_str::<Value>(t.as_str()) {
                    Ok(v) => s.handle(&v, started),
                    Err(e) => vec![error_msg(None, &format!("bad message: {e}"))],
                }
            }
            Ok(Message::Binary(b)) => vec![s.upload(&b)],
            Ok(Message::Close(_)) => break,
            Ok(_) => Vec::new(),
            Err(_) => break,
        };
        for m in out {
            if ws.write(m).is_err() {
                return;
            }
        }
        if ws.flush().is_err() {
            return;
        }
    }
}

fn error_msg(inst: Option<u32>, message: &str) -> Message {
    Message::text(json!({"op": "error", "inst": inst, "message": message}).to_string())
}

fn text(v: Value) -> Message {
    Message::text(v.to_string())
}

fn f32_of(v: &Value, key: &str) -> Option<f32> {
    v.get(key).and_then(Value::as_f64).map(|x| x as f32).filter(|x| x.is_finite())
}

impl Session {
    fn inst(&mut self, v: &Value) -> Result<&mut Instance, String> {
        let id = v.get("inst").and_then(Value::as_u64).ok_or("no \"inst\"")? as u32;
        self.instances.iter_mut().find(|i| i.id == id).ok_or_else(|| format!("no rig {id}"))
    }

    fn handle(&mut self, v: &Value, started: Instant) -> Vec<Message> {
        let op = v.get("op").and_then(Value::as_str).unwrap_or("");
        let inst_id = v.get("inst").and_then(Value::as_u64).map(|x| x as u32);
        let r = match op {
            "tick" => return self.tick(v, started),
            "open" => self.open(v),
            "open_files" => self.open_files(),
            "clear_uploads" => {
                self.uploads.clear();
                self.upload_bytes = 0;
                Ok(vec![text(json!({"op": "uploads", "files": 0}))])
            }
            "close" => {
                self.instances.retain(|i| Some(i.id) != inst_id);
                Ok(vec![text(json!({"op": "closed", "inst": inst_id}))])
            }
            "set" => self.set(v),
            "mix" => self.mix(v),
            "fit" => self.fit(v),
            "export" => self.export(v),
            _ => Err(format!("unknown op {op:?}")),
        };
        r.unwrap_or_else(|e| vec![error_msg(inst_id, &e)])
    }

    fn add(&mut self, rig: Arc<crate::rig::Rig>) -> Result<Vec<Message>, String> {
        if self.instances.len() >= MAX_INSTANCES {
            return Err(format!("at most {MAX_INSTANCES} rigs at once"));
        }
        let id = self.next_id;
        self.next_id += 1;
        let has_anims = match &rig.kind {
            crate::rig::RigKind::Spine(s) => !s.data.animations.is_empty(),
            crate::rig::RigKind::Skf(s) => !s.armature.animations().is_empty(),
        };
        let ctl = Controls { anim: has_anims.then_some(0), ..Controls::default() };
        let inst = Instance::new(id, rig, ctl);
        let info = json!({
            "op": "opened",
            "inst": id,
            "name": inst.rig.name,
            "format": inst.rig.format,
            "version": inst.rig.version,
            "animations": inst.animations().iter().map(|(n, d)| json!({"name": n, "duration": d})).collect::<Vec<_>>(),
            "skins": inst.skin_names(),
            "defaultSkins": inst.default_skins(),
            "pages": inst.rig.pages.iter().map(|p| json!({"tex": p.tex, "name": p.name, "pma": p.pma})).collect::<Vec<_>>(),
            "anim": inst.ctl.anim,
            "end": inst.timeline_end(),
            "stepFps": inst.ctl.step_fps,
        });
        self.instances.push(inst);
        Ok(vec![text(info)])
    }

    fn open(&mut self, v: &Value) -> Result<Vec<Message>, String> {
        let entry = v.get("entry").and_then(Value::as_u64).ok_or("no \"entry\"")? as u32;
        let rig = self.shared.rig(entry)?;
        self.add(rig)
    }

    fn open_files(&mut self) -> Result<Vec<Message>, String> {
        let rig = crate::rig::load_uploads(&self.uploads, &self.shared.textures);
        self.uploads.clear();
        self.upload_bytes = 0;
        self.add(Arc::new(rig?))
    }

    /// A dropped file: `u32` name length, the name (UTF-8), the bytes.
    fn upload(&mut self, b: &Bytes) -> Message {
        let parsed = (|| {
            let n = u32::from_le_bytes(b.get(..4)?.try_into().ok()?) as usize;
            let name = std::str::from_utf8(b.get(4..4 + n)?).ok()?;
            Some((name.to_owned(), b.get(4 + n..)?.to_vec()))
        })();
        let Some((name, data)) = parsed else { return error_msg(None, "bad upload message") };
        if data.len() > max_file_bytes() {
            return error_msg(None, &format!("{name}: over the {}-byte limit", max_file_bytes()));
        }
        if self.uploads.len() >= MAX_UPLOADS
            || self.upload_bytes + data.len() > 4 * max_file_bytes()
        {
            return error_msg(None, "too many dropped files; drop fewer at once");
        }
        self.upload_bytes += data.len();
        self.uploads.insert(name, Arc::new(data));
        text(json!({"op": "uploads", "files": self.uploads.len()}))
    }

    fn state(inst: &Instance) -> Message {
        text(json!({
            "op": "state",
            "inst": inst.id,
            "time": inst.time,
            "end": inst.timeline_end(),
            "anim": inst.ctl.anim,
            "playing": inst.ctl.playing,
            "loop": inst.ctl.looping,
            "speed": inst.ctl.speed,
            "physics": inst.ctl.physics,
            "pma": inst.ctl.pma,
            "skins": inst.ctl.skins,
            "stepFps": inst.ctl.step_fps,
        }))
    }

    fn set(&mut self, v: &Value) -> Result<Vec<Message>, String> {
        let inst = self.inst(v)?;
        let names = inst.animations();
        let skins = inst.skin_names();
        let mut replay = false;
        if let Some(a) = v.get("anim") {
            let anim = match a.as_str() {
                Some(n) => Some(
                    names
                        .iter()
                        .position(|x| x.0 == n)
                        .ok_or_else(|| format!("no animation {n:?}"))?,
                ),
                None => None,
            };
            inst.set_animation(anim);
        }
        if let Some(b) = v.get("loop").and_then(Value::as_bool) {
            replay |= inst.ctl.looping != b;
            inst.ctl.looping = b;
        }
        if let Some(b) = v.get("physics").and_then(Value::as_bool) {
            replay |= inst.ctl.physics != b;
            inst.ctl.physics = b;
        }
        if let Some(b) = v.get("playing").and_then(Value::as_bool) {
            inst.ctl.playing = b;
        }
        if let Some(x) = f32_of(v, "speed") {
            inst.ctl.speed = x.clamp(0.0, 10.0);
        }
        if let Some(p) = v.get("pma") {
            inst.ctl.pma = p.as_bool();
        }
        if let Some(x) = f32_of(v, "stepFps") {
            if !(x > 0.0 && x <= 1000.0) {
                return Err(format!("step fps must be in (0, 1000] (got {x})"));
            }
            inst.ctl.step_fps = x;
        }
        if let Some(list) = v.get("skins").and_then(Value::as_array) {
            let mut idx = Vec::new();
            for n in list {
                let n = n.as_str().unwrap_or("");
                idx.push(
                    skins.iter().position(|s| s == n).ok_or_else(|| format!("no skin {n:?}"))?,
                );
            }
            inst.set_skins(idx);
        }
        if let Some(t) = f32_of(v, "time") {
            inst.seek(t.max(0.0))?;
        } else if replay {
            let t = inst.time;
            inst.seek(t)?;
        }
        Ok(vec![Self::state(inst)])
    }

    fn mix(&mut self, v: &Value) -> Result<Vec<Message>, String> {
        let inst = self.inst(v)?;
        let to = v.get("to").and_then(Value::as_str).ok_or("no \"to\"")?;
        let anim = inst
            .animations()
            .iter()
            .position(|x| x.0 == to)
            .ok_or_else(|| format!("no animation {to:?}"))?;
        let d = f32_of(v, "duration").unwrap_or(0.2).clamp(0.0, 60.0);
        inst.mix_to(Some(anim), d);
        Ok(vec![Self::state(inst)])
    }

    fn fit(&mut self, v: &Value) -> Result<Vec<Message>, String> {
        let whole = v.get("mode").and_then(Value::as_str) != Some("frame");
        let req = v.get("req").cloned().unwrap_or(Value::Null);
        let inst = self.inst(v)?;
        let b = inst.fit_bounds(whole);
        Ok(vec![text(json!({"op": "bounds", "inst": inst.id, "bounds": b, "req": req}))])
    }

    fn export(&mut self, v: &Value) -> Result<Vec<Message>, String> {
        let kind = match v.get("format").and_then(Value::as_str) {
            Some("png") => OutputKind::Png,
            Some("gif") => OutputKind::Gif,
            Some("apng") => OutputKind::Apng,
            Some("webp") => OutputKind::Webp,
            f => return Err(format!("unknown export format {f:?}")),
        };
        let dim =
            |k: &str| v.get(k).and_then(Value::as_u64).unwrap_or(0).min(u64::from(u32::MAX)) as u32;
        let view = v.get("view").and_then(Value::as_array).ok_or("no \"view\"")?;
        let num = |i: usize| view.get(i).and_then(Value::as_f64).unwrap_or(f64::NAN) as f32;
        let bg = v.get("background").and_then(Value::as_str).unwrap_or("00000000");
        let req = ExportRequest {
            kind,
            width: dim("width"),
            height: dim("height"),
            view: ViewTransform::new(num(0), num(1), num(2)),
            background: skel_render::parse_rgba_hex(bg).ok_or("background must be RRGGBBAA")?,
            fps: f32_of(v, "fps").unwrap_or(30.0),
        };
        crate::export::check(&req)?;
        if !self.jobs.is_empty() {
            return Err("an export is running; wait for it to finish".into());
        }
        let inst = self.inst(v)?;
        let copy = inst.snapshot();
        let id = self.shared.exports.next_id();
        let job = Arc::new(Job::default());
        let (shared, j) = (self.shared.clone(), job.clone());
        std::thread::spawn(move || {
            let r = crate::export::run(id, copy, req, &shared.textures, &shared.exports, &j);
            *j.result.lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
        });
        self.jobs.push((id, job, u32::MAX));
        Ok(vec![text(json!({"op": "export_started", "job": id}))])
    }

    fn tick(&mut self, v: &Value, started: Instant) -> Vec<Message> {
        let seq = v.get("seq").and_then(Value::as_u64).unwrap_or(0) as u32;
        let dt = f32_of(v, "dt").unwrap_or(0.0).clamp(0.0, 0.25);
        let flags = v.get("debug").and_then(Value::as_u64).unwrap_or(0) as u32 & wire::DEBUG_ALL;
        let mut out = Vec::new();
        for inst in &mut self.instances {
            if inst.ctl.playing && dt > 0.0 && inst.ctl.speed > 0.0 {
                inst.step(dt * inst.ctl.speed);
            }
            let events = inst.take_events();
            if !events.is_empty() {
                out.push(text(json!({"op": "events", "inst": inst.id, "events": events})));
            }
        }
        self.jobs.retain_mut(|(id, job, last)| {
            let done = job.done.load(Ordering::Relaxed);
            let total = job.total.load(Ordering::Relaxed);
            if let Some(r) = job.result.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
                out.push(text(match r {
                    Ok(name) => json!({"op": "export_done", "job": *id, "url": format!("export/{id}"), "name": name}),
                    Err(e) => json!({"op": "export_failed", "job": *id, "message": e}),
                }));
                return false;
            }
            if done != *last {
                *last = done;
                out.push(text(json!({"op": "progress", "job": *id, "done": done, "total": total})));
            }
            true
        });
        wire::begin_frame(&mut self.buf, seq, self.instances.len() as u32);
        for inst in &mut self.instances {
            self.debug.clear();
            if flags & !wire::DEBUG_TRIANGLES != 0 {
                inst.debug(flags, &mut self.debug);
            }
            wire::put_rig(&mut self.buf, inst, &self.debug);
        }
        let ms = started.elapsed().as_secs_f32() * 1000.0;
        wire::set_server_ms(&mut self.buf, ms);
        let cap = self.buf.capacity();
        let frame = std::mem::replace(&mut self.buf, Vec::with_capacity(cap));
        out.push(Message::Binary(Bytes::from(frame)));
        out
    }
}
