//! Reading entries of a `.skf` zip archive: borrowed when stored, decompressed otherwise,
//! always within the limits.

use std::io::{Cursor, Read};

use super::Limits;
use crate::error::SkfError;

/// A file name with no directory part: no `/`, `\`, `:`, not `.`/`..`, not empty.
pub(super) fn is_plain_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', ':', '\0'])
}

pub(super) type Zip<'a> = zip::ZipArchive<Cursor<&'a [u8]>>;

pub(super) fn open_zip(bytes: &[u8]) -> Result<Zip<'_>, SkfError> {
    zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| SkfError::Zip(e.to_string()))
}

/// The bytes of an uncompressed ("Stored"), unencrypted entry borrowed straight from the
/// archive, when its CRC-32 checks out (what reading it would verify) and it is within the
/// limits; `None` sends the caller to [`read_entry`] (which reports any error).
pub(super) fn stored_entry<'a>(
    zip: &mut Zip<'a>,
    bytes: &'a [u8],
    name: &str,
    limits: &Limits,
) -> Option<&'a [u8]> {
    let entry = zip.by_name(name).ok()?;
    if entry.compression() != zip::CompressionMethod::Stored
        || entry.encrypted()
        || entry.size() != entry.compressed_size()
        || entry.size() > limits.max_entry_size
    {
        return None;
    }
    let start = usize::try_from(entry.data_start()?).ok()?;
    let len = usize::try_from(entry.size()).ok()?;
    let data = bytes.get(start..start.checked_add(len)?)?;
    (crc32fast::hash(data) == entry.crc32()).then_some(data)
}

/// Little-endian `u16` / `u32` at `at`, if readable.
fn le16(b: &[u8], at: usize) -> Option<usize> {
    let w = b.get(at..at.checked_add(2)?)?;
    Some(usize::from(u16::from_le_bytes([*w.first()?, *w.get(1)?])))
}
fn le32(b: &[u8], at: usize) -> Option<u32> {
    let w: [u8; 4] = b.get(at..at.checked_add(4)?)?.try_into().ok()?;
    Some(u32::from_le_bytes(w))
}

/// [`stored_entry`] without building the archive's index: the end-of-central-directory
/// record (at the very end, no zip64, no data before the archive), every central
/// directory record walked, exactly one named `name`, unencrypted and stored, its local
/// header naming it too, within the limits, and its CRC-32 checking out. `None` for
/// anything else, which then goes through the zip crate (which reports any error).
pub(super) fn stored_entry_direct<'a>(
    bytes: &'a [u8],
    name: &[u8],
    limits: &Limits,
) -> Option<&'a [u8]> {
    const EOCD: u32 = 0x0605_4b50;
    const CENTRAL: u32 = 0x0201_4b50;
    const LOCAL: u32 = 0x0403_4b50;
    // The end record: 22 bytes plus a comment of the length it gives, ending the file.
    let lowest = bytes.len().checked_sub(22)?;
    let floor = lowest.saturating_sub(0xFFFF);
    let eocd = (floor..=lowest).rev().find(|&at| {
        le32(bytes, at) == Some(EOCD) && le16(bytes, at + 20) == Some(bytes.len() - at - 22)
    })?;
    let (disk, cd_disk) = (le16(bytes, eocd + 4)?, le16(bytes, eocd + 6)?);
    let (here, total) = (le16(bytes, eocd + 8)?, le16(bytes, eocd + 10)?);
    let cd_size = le32(bytes, eocd + 12)? as usize;
    let cd_start = le32(bytes, eocd + 16)? as usize;
    if disk != 0 || cd_disk != 0 || here != total || total == 0xFFFF {
        return None;
    }
    if cd_start.checked_add(cd_size)? != eocd {
        return None;
    }
    let mut at = cd_start;
    let mut found = None;
    for _ in 0..total {
        if le32(bytes, at)? != CENTRAL {
            return None;
        }
        let n = le16(bytes, at + 28)?;
        let record_end = at + 46 + n + le16(bytes, at + 30)? + le16(bytes, at + 32)?;
        if record_end > eocd {
            return None;
        }
        if bytes.get(at + 46..at + 46 + n)? == name {
            if found.is_some() {
                return None;
            }
            found = Some(at);
        }
        at = record_end;
    }
    let c = found?;
    let flags = le16(bytes, c + 8)?;
    let method = le16(bytes, c + 10)?;
    let crc = le32(bytes, c + 16)?;
    let (compressed, size) = (le32(bytes, c + 20)?, le32(bytes, c + 24)?);
    let local = le32(bytes, c + 42)? as usize;
    if flags & 1 != 0
        || method != 0
        || compressed != size
        || u64::from(size) > limits.max_entry_size
    {
        return None;
    }
    if size == u32::MAX || local == u32::MAX as usize || le32(bytes, local)? != LOCAL {
        return None;
    }
    let n = le16(bytes, local + 26)?;
    if bytes.get(local + 30..local + 30 + n)? != name {
        return None;
    }
    let start = local + 30 + n + le16(bytes, local + 28)?;
    let data = bytes.get(start..start.checked_add(size as usize)?)?;
    if start.checked_add(size as usize)? > cd_start {
        return None;
    }
    (crc32fast::hash(data) == crc).then_some(data)
}

pub(super) fn read_entry(
    zip: &mut Zip<'_>,
    name: &str,
    limits: &Limits,
) -> Result<Vec<u8>, SkfError> {
    let entry = zip.by_name(name).map_err(|e| SkfError::Zip(format!("entry `{name}`: {e}")))?;
    let declared = entry.size();
    let compressed = entry.compressed_size();
    let too_large = |size| SkfError::EntryTooLarge {
        entry: name.to_string(),
        size,
        limit: limits.max_entry_size,
    };
    let ratio_ok = |size: u64| size <= (1 << 20) || size / compressed.max(1) <= limits.max_ratio;
    if declared > limits.max_entry_size {
        return Err(too_large(declared));
    }
    if !ratio_ok(declared) {
        return Err(SkfError::CompressionRatio {
            entry: name.to_string(),
            limit: limits.max_ratio,
        });
    }
    // The declared size may lie: bound the actual inflation too.
    let mut out = Vec::with_capacity(declared as usize);
    let mut limited = entry.take(limits.max_entry_size + 1);
    limited.read_to_end(&mut out).map_err(|e| SkfError::Zip(format!("entry `{name}`: {e}")))?;
    let actual = out.len() as u64;
    if actual > limits.max_entry_size {
        return Err(too_large(actual));
    }
    if !ratio_ok(actual) {
        return Err(SkfError::CompressionRatio {
            entry: name.to_string(),
            limit: limits.max_ratio,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    /// The borrowed "Stored" entry is the entry's content, and a corrupted one is still
    /// rejected (its CRC fails, so the reader path runs and reports it).
    #[test]
    fn stored_entry_is_checked() {
        let Some(dir) = skel_testkit::fixtures_dir() else { return };
        let Ok(bytes) = std::fs::read(dir.join("skelform").join("skellina_v0.7.0.skf")) else {
            return;
        };
        let mut zip = super::open_zip(&bytes).expect("zip");
        let limits = super::Limits::default();
        let stored = super::stored_entry(&mut zip, &bytes, "armature.json", &limits);
        let read = super::read_entry(&mut zip, "armature.json", &limits).expect("read");
        assert_eq!(stored, Some(read.as_slice()));
        // The direct reader finds the same bytes in every current sample, and nothing in
        // a corrupted one.
        let dir_sk = dir.join("skelform");
        for f in skel_testkit::files_with_suffix(&dir_sk, ".skf") {
            let b = std::fs::read(&f).expect("read");
            let Ok(mut z) = super::open_zip(&b) else { continue };
            let via_crate = super::stored_entry(&mut z, &b, "armature.json", &limits);
            let direct = super::stored_entry_direct(&b, b"armature.json", &limits);
            assert_eq!(direct, via_crate, "{f:?}");
        }
        let start = zip.by_name("armature.json").expect("entry").data_start().expect("start");
        let mut bad = bytes.clone();
        let at = start as usize + 20;
        bad[at] ^= 0x01;
        let mut zip = super::open_zip(&bad).expect("zip");
        assert_eq!(super::stored_entry(&mut zip, &bad, "armature.json", &limits), None);
        assert_eq!(super::stored_entry_direct(&bad, b"armature.json", &limits), None);
        assert!(
            matches!(super::super::load(&bad), Err(crate::SkfError::Zip(_))),
            "corrupt entry loaded"
        );
    }
}
