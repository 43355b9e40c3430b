//! Reading inputs and writing outputs safely.
//!
//! * Inputs ([`read_input`]): every file is opened and read once, through
//!   `Read::take(max + 1)`, so a device (`/dev/zero`), a pipe or a FIFO is read to at most
//!   [`spine_format::Limits::max_file_bytes`] and then refused; a regular file over the limit
//!   is refused before reading; `-` is standard input (once per command). The bytes are
//!   passed down; nothing reads the file again.
//! * Outputs never replace an input: every input read is remembered by its file identity
//!   (device and inode on unix, the canonical path elsewhere), and [`check_output`] refuses
//!   an output path that is the same file, whatever its name (a hard link, a symlink, `./`).
//! * Outputs are written to a temporary file beside the destination and renamed over it when
//!   complete ([`AtomicFile`]), so a failed or killed run never leaves a truncated or empty
//!   file under the output's name.

use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::{cell::RefCell, rc::Rc};

/// The identity of a file: (device, inode) on unix; the canonical path elsewhere.
#[derive(Debug, Clone, PartialEq, Eq)]
enum FileId {
    #[cfg(unix)]
    Inode(u64, u64),
    #[cfg_attr(unix, allow(dead_code))]
    Path(PathBuf),
}

fn file_id(meta: &std::fs::Metadata, path: &Path) -> Option<FileId> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = path;
        Some(FileId::Inode(meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        std::fs::canonicalize(path).ok().map(FileId::Path)
    }
}

/// Every input read so far: its identity, its name and what it was read as.
static INPUTS: Mutex<Vec<(FileId, PathBuf, &'static str)>> = Mutex::new(Vec::new());
/// Whether standard input was read already.
static STDIN_READ: Mutex<bool> = Mutex::new(false);

fn remember(id: Option<FileId>, path: &Path, role: &'static str) {
    if let (Some(id), Ok(mut list)) = (id, INPUTS.lock()) {
        if !list.iter().any(|(i, _, _)| *i == id) {
            list.push((id, path.to_path_buf(), role));
        }
    }
}

/// The largest input accepted: [`spine_format::Limits::max_file_bytes`].
pub fn max_input_bytes() -> usize {
    spine_format::Limits::default().max_file_bytes
}

fn over_limit(max: usize) -> String {
    format!("over the {max}-byte input limit (max_file_bytes); reading stopped there")
}

/// Whether `path` names standard input (`-`).
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Reads one input (`role`: what it is, e.g. "skeleton", "atlas", "atlas page image") once,
/// bounded by [`max_input_bytes`]; `-` reads standard input. The error does not repeat the
/// path (the caller names the file).
pub fn read_input(path: &Path, role: &'static str) -> Result<Vec<u8>, String> {
    let max = max_input_bytes();
    if is_stdin(path) {
        let mut read = STDIN_READ.lock().map_err(|_| "standard input unavailable".to_owned())?;
        if *read {
            return Err("standard input (-) can be read only once per command".to_owned());
        }
        *read = true;
        let stdin = std::io::stdin();
        #[cfg(unix)]
        {
            use std::os::fd::AsFd;
            if let Ok(fd) = stdin.as_fd().try_clone_to_owned() {
                if let Ok(meta) = File::from(fd).metadata() {
                    remember(file_id(&meta, path), path, role);
                }
            }
        }
        let mut bytes = Vec::new();
        stdin.lock().take(max as u64 + 1).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
        if bytes.len() > max {
            return Err(over_limit(max));
        }
        return Ok(bytes);
    }
    let file = File::open(path).map_err(|e| e.to_string())?;
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if meta.is_dir() {
        return Err("is a directory, not a file".to_owned());
    }
    if meta.is_file() && meta.len() > max as u64 {
        return Err(format!(
            "file is {} bytes, over the {max}-byte input limit (max_file_bytes)",
            meta.len()
        ));
    }
    remember(file_id(&meta, path), path, role);
    let mut bytes = Vec::with_capacity(if meta.is_file() { meta.len() as usize } else { 0 });
    file.take(max as u64 + 1).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if bytes.len() > max {
        return Err(over_limit(max));
    }
    Ok(bytes)
}

/// Refuses to write `out` when it is a file this command read (same file, by identity).
pub fn check_output(out: &Path) -> Result<(), String> {
    let Ok(meta) = std::fs::metadata(out) else { return Ok(()) };
    let Some(id) = file_id(&meta, out) else { return Ok(()) };
    let list = INPUTS.lock().map_err(|_| "input list unavailable".to_owned())?;
    match list.iter().find(|(i, _, _)| *i == id) {
        Some((_, name, role)) => Err(format!(
            "refusing to write {}: it is the {role} this command reads ({})",
            out.display(),
            name.display()
        )),
        None => Ok(()),
    }
}

type Shared = Rc<RefCell<Option<BufWriter<File>>>>;

/// A file written under a temporary name beside its destination and renamed over it by
/// [`AtomicFile::commit`]; dropped uncommitted, the temporary file is removed. Its content
/// is written through [`AtomicFile::writer`] handles (which encoders may own).
pub struct AtomicFile {
    dest: PathBuf,
    tmp: PathBuf,
    out: Shared,
    committed: bool,
}

/// A handle writing to an [`AtomicFile`] (buffered; `Write` and `Seek`).
pub struct FileWriter(Shared);

impl AtomicFile {
    /// Creates the temporary file for `dest` (creating `dest`'s folder if needed), after
    /// [`check_output`].
    pub fn create(dest: &Path) -> Result<AtomicFile, String> {
        check_output(dest)?;
        if dest.is_dir() {
            return Err(format!("{} is a directory", dest.display()));
        }
        let dir = dest.parent().filter(|d| !d.as_os_str().is_empty());
        if let Some(dir) = dir {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        let name = dest.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let tmp_name = format!(".{name}.skel-tmp-{}", std::process::id());
        let tmp = match dir {
            Some(d) => d.join(tmp_name),
            None => PathBuf::from(tmp_name),
        };
        let file = File::create(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
        let out = Rc::new(RefCell::new(Some(BufWriter::with_capacity(1 << 16, file))));
        Ok(AtomicFile { dest: dest.to_path_buf(), tmp, out, committed: false })
    }

    /// The temporary file's path (for a writer in another process, e.g. ffmpeg).
    pub fn tmp_path(&self) -> &Path {
        &self.tmp
    }

    /// A handle to write the content with.
    pub fn writer(&self) -> FileWriter {
        FileWriter(self.out.clone())
    }

    /// Flushes (reporting any write error) and renames the file over its destination.
    pub fn commit(mut self) -> Result<(), String> {
        let out = self.out.borrow_mut().take().ok_or("file already committed")?;
        let file =
            out.into_inner().map_err(|e| format!("{}: {}", self.dest.display(), e.error()))?;
        drop(file);
        // The destination may have become an input's name since `create` (a race): check
        // again right before replacing it.
        check_output(&self.dest)?;
        std::fs::rename(&self.tmp, &self.dest)
            .map_err(|e| format!("{}: {e}", self.dest.display()))?;
        self.committed = true;
        Ok(())
    }
}

fn closed() -> std::io::Error {
    std::io::Error::other("output file already committed")
}

impl Write for FileWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().as_mut().ok_or_else(closed)?.write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.borrow_mut().as_mut().ok_or_else(closed)?.flush()
    }
}

impl Seek for FileWriter {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.0.borrow_mut().as_mut().ok_or_else(closed)?.seek(pos)
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if !self.committed {
            self.out.borrow_mut().take();
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_input_is_never_an_output_and_outputs_appear_whole() {
        let dir = std::env::temp_dir().join(format!("skel-io-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let a = dir.join("a.txt");
        std::fs::write(&a, b"input").unwrap();
        assert_eq!(read_input(&a, "skeleton").unwrap(), b"input");
        // The same file under another name is refused; another file is not.
        let other = dir.join("b.png");
        assert!(check_output(&dir.join(".").join("a.txt")).unwrap_err().contains("skeleton"));
        assert!(check_output(&other).is_ok());
        #[cfg(unix)]
        {
            let link = dir.join("link.png");
            let _ = std::fs::remove_file(&link);
            std::os::unix::fs::symlink(&a, &link).unwrap();
            assert!(check_output(&link).is_err());
            let hard = dir.join("hard.png");
            let _ = std::fs::remove_file(&hard);
            std::fs::hard_link(&a, &hard).unwrap();
            assert!(AtomicFile::create(&hard).is_err());
        }
        // Nothing appears under the destination's name until commit; a dropped file leaves
        // nothing behind.
        let f = AtomicFile::create(&other).unwrap();
        f.writer().write_all(b"png").unwrap();
        assert!(!other.exists());
        f.commit().unwrap();
        assert_eq!(std::fs::read(&other).unwrap(), b"png");
        let g = AtomicFile::create(&dir.join("c.png")).unwrap();
        g.writer().write_all(b"x").unwrap();
        drop(g);
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(!names.iter().any(|n| n.contains("skel-tmp") || n == "c.png"), "{names:?}");
        // A directory is not an input.
        assert!(read_input(&dir, "skeleton").unwrap_err().contains("directory"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
