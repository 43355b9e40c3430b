//! The server's safety rules over real loopback connections: the token, the `Host` check,
//! textures by id only, the WebSocket handshake and a first frame.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use skel_view::{ViewOptions, Viewer};

/// Starts a viewer on the demo rig; returns `(port, token)`.
fn start() -> (u16, String) {
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../skel-cli/demo");
    let viewer = Viewer::start(&ViewOptions { paths: vec![demo], port: 0, open: false })
        .expect("viewer starts");
    assert_eq!(viewer.catalog_len(), 1);
    let url = viewer.url.clone();
    std::thread::spawn(move || viewer.serve());
    let rest = url.strip_prefix("http://127.0.0.1:").expect("loopback URL");
    let (port, token) = rest.split_once('/').expect("port/token");
    let token = token.trim_end_matches('/').to_owned();
    assert_eq!(token.len(), 32, "128-bit token as hex");
    (port.parse().expect("port"), token)
}

/// Sends a raw request and returns the status line and the whole response.
fn request(port: u16, text: &str) -> (String, Vec<u8>) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
    s.write_all(text.as_bytes()).expect("write");
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let status = String::from_utf8_lossy(&out).lines().next().unwrap_or("").to_owned();
    (status, out)
}

fn get(port: u16, path: &str, host: &str) -> (String, Vec<u8>) {
    request(port, &format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"))
}

#[test]
fn only_the_token_and_loopback_hosts_are_served() {
    let (port, token) = start();
    let host = format!("127.0.0.1:{port}");
    let (status, body) = get(port, &format!("/{token}/"), &host);
    assert!(status.contains("200"), "{status}");
    assert!(String::from_utf8_lossy(&body).contains("<canvas id=\"view\">"));
    assert!(get(port, &format!("/{token}/app.js"), &format!("localhost:{port}")).0.contains("200"));
    // No token, a wrong token, a foreign Host (DNS rebinding): a bare 404.
    assert!(get(port, "/", &host).0.contains("404"));
    assert!(get(port, "/index.html", &host).0.contains("404"));
    let wrong: String = token.chars().rev().collect();
    assert!(get(port, &format!("/{wrong}/"), &host).0.contains("404"));
    assert!(get(port, &format!("/{token}/"), &format!("evil.example:{port}")).0.contains("404"));
    // Paths are never files: traversal and unknown routes are 404; textures are ids.
    assert!(get(port, &format!("/{token}/../Cargo.toml"), &host).0.contains("404"));
    assert!(get(port, &format!("/{token}/tex/..%2F..%2Fetc%2Fpasswd"), &host).0.contains("404"));
    assert!(get(port, &format!("/{token}/tex/999"), &host).0.contains("422"));
    assert!(get(port, &format!("/{token}/export/0"), &host).0.contains("404"));
}

#[test]
fn the_websocket_needs_the_token_and_answers_ticks_with_frames() {
    let (port, token) = start();
    let key = "dGhlIHNhbXBsZSBub25jZQ==";
    let upgrade = |path: &str, origin: &str| {
        format!(
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n\
             Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\
             Origin: {origin}\r\n\r\n"
        )
    };
    assert!(request(port, &upgrade("/ws", "http://127.0.0.1")).0.contains("404"));
    let foreign = upgrade(&format!("/{token}/ws"), "http://evil.example");
    assert!(request(port, &foreign).0.contains("404"));

    let url = format!("ws://127.0.0.1:{port}/{token}/ws");
    let (mut ws, resp) = tungstenite::connect(url).expect("websocket connects");
    assert_eq!(resp.status().as_u16(), 101);
    let hello = ws.read().expect("hello");
    let hello: serde_json::Value = serde_json::from_str(hello.to_text().expect("text")).unwrap();
    assert_eq!(hello["op"], "hello");
    assert_eq!(hello["catalog"][0]["name"], "demo.json");
    assert!(hello["catalog"][0].get("path").is_none(), "no path is sent to the page");
    ws.send(tungstenite::Message::text(r#"{"op":"open","entry":0}"#)).unwrap();
    let opened: serde_json::Value =
        serde_json::from_str(ws.read().unwrap().to_text().unwrap()).unwrap();
    assert_eq!(opened["op"], "opened");
    let inst = opened["inst"].as_u64().unwrap();
    let set = format!(r#"{{"op":"set","inst":{inst},"anim":"walk","playing":false,"time":0.5}}"#);
    ws.send(tungstenite::Message::text(set)).unwrap();
    let state: serde_json::Value =
        serde_json::from_str(ws.read().unwrap().to_text().unwrap()).unwrap();
    assert_eq!(state["op"], "state");
    assert_eq!(state["time"], 0.5);
    ws.send(tungstenite::Message::text(r#"{"op":"tick","seq":9,"dt":0.016,"debug":1}"#)).unwrap();
    let frame = loop {
        match ws.read().unwrap() {
            tungstenite::Message::Binary(b) => break b,
            _ => continue,
        }
    };
    assert_eq!(&frame[..4], b"SKV1");
    assert_eq!(u32::from_le_bytes(frame[4..8].try_into().unwrap()), 9);
    assert_eq!(u32::from_le_bytes(frame[12..16].try_into().unwrap()), 1);
    assert_eq!(frame.len() % 4, 0);
    // Paused: the time stays at the seek.
    assert_eq!(f32::from_le_bytes(frame[20..24].try_into().unwrap()), 0.5);
    ws.send(tungstenite::Message::text(r#"{"op":"open","entry":7}"#)).unwrap();
    let err: serde_json::Value =
        serde_json::from_str(ws.read().unwrap().to_text().unwrap()).unwrap();
    assert_eq!(err["op"], "error");
}
