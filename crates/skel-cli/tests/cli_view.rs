//! `skel view` without a path serves the embedded demo rig, written into the user's cache
//! folder (`$XDG_CACHE_HOME/skel/demo`) and rewritten on every run.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

#[test]
fn view_without_a_path_serves_the_demo_from_the_cache_folder() {
    let cache = std::env::temp_dir().join(format!("skel-view-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache);
    let demo = cache.join("skel").join("demo");
    // A stale file from an earlier run is overwritten, not kept.
    std::fs::create_dir_all(&demo).unwrap();
    std::fs::write(demo.join("demo.json"), b"stale").unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_skel"))
        .args(["view", "--port", "0"])
        .env("XDG_CACHE_HOME", &cache)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("skel runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.trim().to_string();
    // http://127.0.0.1:PORT/TOKEN/ — fetch the page to see the server is up.
    let rest = url.strip_prefix("http://").expect("an http URL");
    let (host, path) = rest.split_once('/').expect("a path");
    let mut s = TcpStream::connect(host).unwrap();
    write!(s, "GET /{path} HTTP/1.0\r\nHost: {host}\r\n\r\n").unwrap();
    let mut reply = String::new();
    s.read_to_string(&mut reply).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert!(reply.starts_with("HTTP/1.") && reply.contains(" 200"), "{url}: {reply:.200}");
    let written = std::fs::read(demo.join("demo.json")).unwrap();
    assert!(written.len() > 1000 && written.starts_with(b"{"), "demo.json was not rewritten");
    for f in ["demo.atlas", "demo.png"] {
        assert!(demo.join(f).is_file(), "{f} missing");
    }
    let _ = std::fs::remove_dir_all(&cache);
}
