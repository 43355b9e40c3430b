//! `cargo xtask shape`: the codebase's size figures — the largest library files, the
//! longest library functions, and the `too_many_arguments` allows.
//!
//! Library sources are `crates/*/src/**/*.rs` without `main.rs`, `bin/` and `#[cfg(test)]`
//! test modules kept in their own `tests.rs` files. A function's length runs from its `fn`
//! line to the line of its closing brace; braces inside string and character literals and
//! comments are skipped.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// One function found in a source file.
struct Function {
    file: PathBuf,
    line: usize,
    name: String,
    lines: usize,
}

fn library_sources(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(crates) = std::fs::read_dir(root.join("crates")) else { return out };
    for krate in crates.flatten() {
        collect(&krate.path().join("src"), &mut out);
    }
    out.sort();
    out
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if path.is_dir() {
            if name != "bin" {
                collect(&path, out);
            }
        } else if name.ends_with(".rs") && name != "main.rs" && name != "tests.rs" {
            out.push(path);
        }
    }
}

/// Blanks out comments and the contents of string and character literals, keeping line
/// breaks, so that brace counting sees only code.
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if b[i] == b'\n' {
                        out.push(b'\n');
                    }
                    i += 1;
                }
            }
        } else if c == b'r'
            && matches!(b.get(i + 1), Some(b'"') | Some(b'#'))
            && !ident_before(b, i)
        {
            // raw string r"…" / r#"…"#
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            out.extend_from_slice(b"\"\"");
            while j < b.len() {
                if b[j] == b'"'
                    && b[j + 1..].iter().take(hashes).filter(|&&h| h == b'#').count() == hashes
                {
                    j += 1 + hashes;
                    break;
                }
                if b[j] == b'\n' {
                    out.push(b'\n');
                }
                j += 1;
            }
            i = j;
        } else if c == b'"' {
            out.extend_from_slice(b"\"\"");
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                if b.get(i) == Some(&b'\n') {
                    out.push(b'\n');
                }
                i += 1;
            }
            i += 1;
        } else if c == b'\'' {
            // a char literal ('x', '\n', '\u{..}') or a lifetime ('a)
            if b.get(i + 2) == Some(&b'\'') {
                i += 3;
            } else if b.get(i + 1) == Some(&b'\\') {
                i += 2;
                while i < b.len() && b[i] != b'\'' {
                    i += 1;
                }
                i += 1;
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn ident_before(b: &[u8], i: usize) -> bool {
    i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')
}

/// The name of the function a code line declares, if it declares one.
fn fn_name(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    for prefix in
        ["pub(crate) ", "pub(super) ", "pub ", "const ", "async ", "unsafe ", "extern \"C\" "]
    {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    let rest = rest.strip_prefix("fn ")?;
    let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

fn functions(file: &Path, code: &str) -> Vec<Function> {
    let lines: Vec<&str> = code.lines().collect();
    let mut out = Vec::new();
    for (start, line) in lines.iter().enumerate() {
        let Some(name) = fn_name(line) else { continue };
        let mut depth = 0i32;
        let mut opened = false;
        'scan: for (k, l) in lines.iter().enumerate().skip(start) {
            for ch in l.chars() {
                match ch {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    ';' if !opened && depth == 0 => break 'scan, // a declaration without a body
                    _ => {}
                }
                if opened && depth == 0 {
                    out.push(Function {
                        file: file.to_path_buf(),
                        line: start + 1,
                        name: name.to_string(),
                        lines: k - start + 1,
                    });
                    break 'scan;
                }
            }
        }
    }
    out
}

fn usage() -> ExitCode {
    eprintln!("usage: cargo xtask shape [--top N] [--root DIR]");
    ExitCode::from(2)
}

/// Prints the figures; `--top N` sets how many files and functions are listed, `--root DIR`
/// measures another checkout (an older commit's worktree, say).
pub fn shape(args: &[String]) -> ExitCode {
    let mut top = 10usize;
    let mut root = crate::workspace_root();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match (a.as_str(), it.next()) {
            ("--top", Some(n)) => match n.parse() {
                Ok(n) => top = n,
                Err(_) => return usage(),
            },
            ("--root", Some(dir)) => root = PathBuf::from(dir),
            _ => return usage(),
        }
    }
    let mut files = Vec::new();
    let mut fns = Vec::new();
    let mut allows = 0usize;
    for path in library_sources(&root) {
        let Ok(src) = std::fs::read_to_string(&path) else { continue };
        let rel = path.strip_prefix(&root).unwrap_or(&path).to_path_buf();
        allows += src
            .lines()
            .filter(|l| l.trim_start().starts_with("#[allow(clippy::too_many_arguments"))
            .count();
        let code = code_only(&src);
        files.push((src.lines().count(), rel.clone()));
        fns.extend(functions(&rel, &code));
    }
    files.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    fns.sort_by(|a, b| b.lines.cmp(&a.lines).then_with(|| a.file.cmp(&b.file)));
    let over = |n: usize| fns.iter().filter(|f| f.lines > n).count();
    println!("library files: {}, functions: {}", files.len(), fns.len());
    println!("files over 800 lines: {}", files.iter().filter(|f| f.0 > 800).count());
    println!("functions over 100 lines: {} (over 60: {})", over(100), over(60));
    println!("clippy::too_many_arguments allows: {allows}");
    println!("\nlargest files:");
    for (n, f) in files.iter().take(top) {
        println!("{n:6}  {}", f.display());
    }
    println!("\nlongest functions:");
    for f in fns.iter().take(top) {
        println!("{:6}  {}:{} {}", f.lines, f.file.display(), f.line, f.name);
    }
    ExitCode::SUCCESS
}
