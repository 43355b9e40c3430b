//! Loading: `.skf` zip archives and bare `armature.json`, legacy upgrades, validation.

use std::io::{Cursor, Read};

use serde_json::Value;

use crate::armature::{Armature, ConstructOrder};
use crate::error::SkfError;
use crate::model::*;
use crate::raw::*;

/// Safety limits applied while reading a `.skf` archive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest uncompressed size of any entry read (bytes).
    pub max_entry_size: u64,
    /// Largest uncompressed/compressed ratio of an entry bigger than 1 MiB.
    pub max_ratio: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_entry_size: 256 << 20, max_ratio: 200 }
    }
}

/// A `.skf` archive: the armature plus its atlas images (encoded bytes, PNG or JPG).
#[derive(Debug, Clone)]
pub struct SkfArchive {
    /// The armature.
    pub armature: Armature,
    /// `atlases[i]`'s file bytes, in `Armature::atlases` order.
    pub atlas_images: Vec<Vec<u8>>,
}

fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06")
}

/// Loads an armature from the bytes of a `.skf` archive or of a bare `armature.json`
/// (detected from the content). Atlas images are not read; see [`load_skf`].
pub fn load(bytes: &[u8]) -> Result<Armature, SkfError> {
    if is_zip(bytes) {
        if let Some(stored) = stored_entry_direct(bytes, b"armature.json", &Limits::default()) {
            return parse_armature_json(stored);
        }
        let mut zip = open_zip(bytes)?;
        if let Some(stored) = stored_entry(&mut zip, bytes, "armature.json", &Limits::default()) {
            return parse_armature_json(stored);
        }
        let json =
            read_entry(&mut zip, "armature.json", &Limits::default()).map_err(|e| match e {
                SkfError::Zip(_) if zip.index_for_name("armature.json").is_none() => {
                    SkfError::MissingArmature
                }
                e => e,
            })?;
        parse_armature_json(&json)
    } else {
        let trimmed = strip_bom(bytes);
        match trimmed.iter().find(|b| !b.is_ascii_whitespace()) {
            Some(b'{') => parse_armature_json(trimmed),
            _ => Err(SkfError::NotSkelForm),
        }
    }
}

/// Loads a `.skf` archive with its atlas images, under the given limits.
pub fn load_skf(bytes: &[u8], limits: &Limits) -> Result<SkfArchive, SkfError> {
    if !is_zip(bytes) {
        return Err(SkfError::NotSkelForm);
    }
    let mut zip = open_zip(bytes)?;
    if zip.index_for_name("armature.json").is_none() {
        return Err(SkfError::MissingArmature);
    }
    let json = read_entry(&mut zip, "armature.json", limits)?;
    let armature = parse_armature_json(&json)?;
    let mut atlas_images = Vec::with_capacity(armature.atlases.len());
    for (i, a) in armature.atlases.iter().enumerate() {
        let path = format!("atlases[{i}].filename");
        if !is_plain_name(&a.filename) {
            return Err(SkfError::UnsafePath { path, name: a.filename.clone() });
        }
        if zip.index_for_name(&a.filename).is_none() {
            return Err(SkfError::MissingAtlas { path, name: a.filename.clone() });
        }
        atlas_images.push(read_entry(&mut zip, &a.filename, limits)?);
    }
    Ok(SkfArchive { armature, atlas_images })
}

/// A file name with no directory part: no `/`, `\`, `:`, not `.`/`..`, not empty.
fn is_plain_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', ':', '\0'])
}

type Zip<'a> = zip::ZipArchive<Cursor<&'a [u8]>>;

fn open_zip(bytes: &[u8]) -> Result<Zip<'_>, SkfError> {
    zip::ZipArchive::new(Cursor::new(bytes)).map_err(|e| SkfError::Zip(e.to_string()))
}

/// The bytes of an uncompressed ("Stored"), unencrypted entry borrowed straight from the
/// archive, when its CRC-32 checks out (what reading it would verify) and it is within the
/// limits; `None` sends the caller to [`read_entry`] (which reports any error).
fn stored_entry<'a>(
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
fn stored_entry_direct<'a>(bytes: &'a [u8], name: &[u8], limits: &Limits) -> Option<&'a [u8]> {
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

fn read_entry(zip: &mut Zip<'_>, name: &str, limits: &Limits) -> Result<Vec<u8>, SkfError> {
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

fn strip_bom(b: &[u8]) -> &[u8] {
    b.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(b)
}

/// Parses the text of an `armature.json` (current format 0.6/0.7, or a legacy one that is
/// upgraded: 0.2–0.5).
pub fn parse_armature_json(bytes: &[u8]) -> Result<Armature, SkfError> {
    let bytes = strip_bom(bytes);
    // The fast reader accepts only valid UTF-8 (it checks the strings that are not ASCII).
    if let Some(armature) = crate::fast::parse(bytes) {
        return Ok(armature);
    }
    // Validating UTF-8 once up front lets serde_json skip it for every string and key.
    let text = std::str::from_utf8(bytes).map_err(|e| SkfError::Json {
        path: ".".into(),
        line: 1 + bytes.iter().take(e.valid_up_to()).filter(|&&b| b == b'\n').count(),
        column: 0,
        message: format!("invalid UTF-8 at byte {}", e.valid_up_to()),
    })?;
    parse_with_serde(text)
}

/// The general path: serde_json into the raw structs, legacy upgrades, [`build`]; every
/// error names its JSON path.
pub(crate) fn parse_with_serde(text: &str) -> Result<Armature, SkfError> {
    let bytes = text.as_bytes();
    match serde_json::from_str::<RawArmature>(text) {
        Ok(raw) => {
            if legacy_kind(&raw).is_none() {
                return build(raw, None);
            }
            let v: Value = serde_json::from_slice(bytes).map_err(|e| json_error(e, "."))?;
            upgrade(v)
        }
        Err(first) => {
            // A legacy layout may fail the typed parse (0.2: integer `element`).
            let v: Value = serde_json::from_slice(bytes).map_err(|e| json_error(e, "."))?;
            if value_is_legacy(&v) {
                return upgrade(v);
            }
            let mut de = serde_json::Deserializer::from_slice(bytes);
            match serde_path_to_error::deserialize::<_, RawArmature>(&mut de) {
                Err(e) => {
                    let path = e.path().to_string();
                    Err(json_error(e.into_inner(), &path))
                }
                Ok(_) => Err(json_error(first, ".")),
            }
        }
    }
}

fn json_error(e: serde_json::Error, path: &str) -> SkfError {
    SkfError::Json {
        path: path.to_string(),
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    }
}

/// (major, minor) of a "0.7.0"-style version string.
pub(crate) fn version_pair(v: &str) -> Option<(u32, u32)> {
    let mut it = v.trim().split('.');
    let major = it.next()?.parse().ok()?;
    let minor = it.next().map_or(Some(0), |m| m.parse().ok())?;
    Some((major, minor))
}

/// Why a typed-parsed document needs the legacy path, if it does.
fn legacy_kind(raw: &RawArmature) -> Option<()> {
    let old = raw.version.as_deref().and_then(version_pair).is_some_and(|v| v < (0, 6));
    (old || raw.ik_root_ids.is_some() || raw.texture_size.is_some() || raw.armature.is_some())
        .then_some(())
}

fn value_is_legacy(v: &Value) -> bool {
    let old =
        v.get("version").and_then(Value::as_str).and_then(version_pair).is_some_and(|p| p < (0, 6));
    old || v.get("ik_root_ids").is_some()
        || v.get("texture_size").is_some()
        || v.get("armature").is_some()
}

/// Upgrades a legacy document (SEMANTICS §1: the editor's migrations) and builds it.
fn upgrade(mut v: Value) -> Result<Armature, SkfError> {
    let version = v.get("version").and_then(Value::as_str).map(str::to_string);
    let shown = version.clone().unwrap_or_else(|| "(none)".to_string());
    if v.get("armature").is_some() || v.get("texture_size").is_some() {
        return Err(SkfError::UnsupportedVersion {
            version: shown,
            reason: "the early `texture_size` layout (an `armature` wrapper, or `tex_idx`/\
                     `style_ids` bones) has no documented upgrade"
                .into(),
        });
    }
    let pair = version.as_deref().and_then(version_pair);
    let Some(pair) = pair else {
        return Err(SkfError::UnsupportedVersion {
            version: shown,
            reason: "legacy keys (`ik_root_ids`) with an unreadable `version`".into(),
        });
    };
    if pair < (0, 2) {
        return Err(SkfError::UnsupportedVersion {
            version: shown,
            reason: "versions before 0.2 have no documented upgrade".into(),
        });
    }
    let Some(root) = v.as_object_mut() else { return Err(SkfError::NotSkelForm) };
    if pair < (0, 4) {
        upgrade_02_to_04(root);
    }
    upgrade_04_to_06(root);
    let raw: RawArmature = match serde_path_to_error::deserialize(v) {
        Ok(r) => r,
        Err(e) => {
            let path = e.path().to_string();
            return Err(SkfError::Json {
                path,
                line: 0,
                column: 0,
                message: format!("(after upgrading from {shown}) {}", e.into_inner()),
            });
        }
    };
    build(raw, Some(shown))
}

type Obj = serde_json::Map<String, Value>;

fn arr_mut<'a>(o: &'a mut Obj, key: &str) -> impl Iterator<Item = &'a mut Obj> {
    o.get_mut(key)
        .and_then(Value::as_array_mut)
        .into_iter()
        .flat_map(|a| a.iter_mut().filter_map(Value::as_object_mut))
}

fn rename(o: &mut Obj, from: &str, to: &str) {
    if let Some(x) = o.remove(from) {
        o.insert(to.to_string(), x);
    }
}

/// 0.2/0.3 → 0.4: `element_str` → `element`, `ik_*_str` → `ik_*`, `is_hidden` → `hidden`,
/// `transition` → bezier handles.
fn upgrade_02_to_04(root: &mut Obj) {
    for bone in arr_mut(root, "bones") {
        rename(bone, "ik_constraint_str", "ik_constraint");
        rename(bone, "ik_mode_str", "ik_mode");
        rename(bone, "is_hidden", "hidden");
        rename(bone, "init_is_hidden", "init_hidden");
        rename(bone, "init_ik_constraint_str", "init_ik_constraint");
        for k in ["hidden", "init_hidden"] {
            if let Some(n) = bone.get(k).and_then(Value::as_f64) {
                bone.insert(k.into(), Value::from(n != 0.0));
            }
        }
        for k in ["ik_constraint", "init_ik_constraint", "ik_mode"] {
            if !bone.get(k).is_some_and(Value::is_string) {
                bone.remove(k);
            }
        }
    }
    for anim in arr_mut(root, "animations") {
        for kf in arr_mut(anim, "keyframes") {
            rename(kf, "element_str", "element");
            if !kf.get("element").is_some_and(Value::is_string) {
                kf.insert("element".into(), Value::from("Unknown"));
            }
            let snap = kf.get("transition").and_then(Value::as_str) == Some("None");
            let (s, e) = if snap { (999.0, 999.0) } else { (1.0 / 3.0, 2.0 / 3.0) };
            kf.entry("start_handle").or_insert_with(|| serde_json::json!({"x": s, "y": s}));
            kf.entry("end_handle").or_insert_with(|| serde_json::json!({"x": e, "y": e}));
        }
    }
}

/// 0.4/0.5 → 0.6: frame −1 → 0; `next_kf` computed when absent; bone `tex/zindex/vertices/
/// indices/binds/init_tex/init_zindex` → `visuals[]`, `ik_*` → `inverse_kinematics[]`,
/// `phys_*` → `physics[]`, with `visuals_id`, `physics_id`, `ik_family_id` set.
fn upgrade_04_to_06(root: &mut Obj) {
    for anim in arr_mut(root, "animations") {
        let Some(kfs) = anim.get_mut("keyframes").and_then(Value::as_array_mut) else { continue };
        for kf in kfs.iter_mut().filter_map(Value::as_object_mut) {
            if kf.get("frame").and_then(Value::as_i64).is_some_and(|f| f < 0) {
                kf.insert("frame".into(), Value::from(0));
            }
        }
        let missing = kfs.iter().any(|k| k.get("next_kf").is_none());
        if missing {
            let keys: Vec<(Value, Value)> = kfs
                .iter()
                .map(|k| {
                    (
                        k.get("bone_id").cloned().unwrap_or(Value::Null),
                        k.get("element").cloned().unwrap_or(Value::Null),
                    )
                })
                .collect();
            for (i, kf) in kfs.iter_mut().enumerate() {
                let next = keys
                    .iter()
                    .enumerate()
                    .skip(i + 1)
                    .find(|(_, k)| **k == keys[i])
                    .map_or(-1, |(j, _)| j as i64);
                if let Some(o) = kf.as_object_mut() {
                    o.insert("next_kf".into(), Value::from(next));
                }
            }
        }
    }
    let mut visuals = Vec::new();
    let mut iks = Vec::new();
    let mut physics = Vec::new();
    let mut family_map: Vec<(i64, i64)> = Vec::new();
    let mut bones = arr_mut(root, "bones").collect::<Vec<_>>();
    for bone in bones.iter_mut() {
        let tex = bone.get("tex").and_then(Value::as_str).unwrap_or("").to_string();
        let has_mesh =
            bone.get("vertices").and_then(Value::as_array).is_some_and(|a| !a.is_empty());
        let mut vis = Obj::new();
        for k in
            ["tex", "zindex", "vertices", "indices", "binds", "init_tex", "init_zindex", "tint"]
        {
            if let Some(x) = bone.remove(k) {
                vis.insert(k.into(), x);
            }
        }
        if !tex.is_empty() || has_mesh {
            bone.insert("visuals_id".into(), Value::from(visuals.len()));
            visuals.push(Value::Object(vis));
        } else {
            bone.insert("visuals_id".into(), Value::from(-1));
        }
        let old_family = bone.get("ik_family_id").and_then(Value::as_i64).unwrap_or(-1);
        let ik_ids = bone.remove("ik_bone_ids");
        let mut ik = Obj::new();
        for (from, to) in [
            ("ik_constraint", "constraint"),
            ("ik_mode", "mode"),
            ("ik_target_id", "target_id"),
            ("init_ik_constraint", "init_constraint"),
            ("init_ik_mode", "init_mode"),
        ] {
            if let Some(x) = bone.remove(from) {
                ik.insert(to.into(), x);
            }
        }
        if let Some(ids) = ik_ids.filter(|x| x.as_array().is_some_and(|a| !a.is_empty())) {
            ik.insert("bone_ids".into(), ids);
            family_map.push((old_family, iks.len() as i64));
            iks.push(Value::Object(ik));
        }
        let has_physics = bone.remove("has_physics").and_then(|x| x.as_bool()).unwrap_or(false);
        let mut phys = Obj::new();
        let keys: Vec<String> = bone.keys().filter(|k| k.starts_with("phys_")).cloned().collect();
        for k in keys {
            if let Some(x) = bone.remove(&k) {
                phys.insert(k["phys_".len()..].to_string(), x);
            }
        }
        if has_physics {
            bone.insert("physics_id".into(), Value::from(physics.len()));
            physics.push(Value::Object(phys));
        } else {
            bone.insert("physics_id".into(), Value::from(-1));
        }
    }
    for bone in bones.iter_mut() {
        let old = bone.get("ik_family_id").and_then(Value::as_i64).unwrap_or(-1);
        let new = family_map.iter().find(|(o, _)| *o == old && old != -1).map_or(-1, |p| p.1);
        bone.insert("ik_family_id".into(), Value::from(new));
    }
    root.remove("ik_root_ids");
    root.insert("visuals".into(), Value::Array(visuals));
    root.insert("inverse_kinematics".into(), Value::Array(iks));
    root.insert("physics".into(), Value::Array(physics));
}

/// An optional index: −1 → None; `0..len` → Some; anything else is an error at `path`.
fn opt_index(
    v: Option<i64>,
    len: usize,
    path: impl Fn() -> String,
    what: &str,
) -> Result<Option<u32>, SkfError> {
    match v {
        None | Some(-1) => Ok(None),
        Some(i) if i >= 0 && (i as u64) < len as u64 => Ok(Some(i as u32)),
        Some(i) => {
            Err(SkfError::invalid(path(), format!("{what} {i} out of range (0..{len}, or -1)")))
        }
    }
}

fn req_index(v: i64, len: usize, path: impl Fn() -> String, what: &str) -> Result<u32, SkfError> {
    if v >= 0 && (v as u64) < len as u64 {
        Ok(v as u32)
    } else {
        Err(SkfError::invalid(path(), format!("{what} {v} out of range (0..{len})")))
    }
}

fn color(c: RawColor) -> Color {
    Color { r: c.r, g: c.g, b: c.b, a: c.a }
}

pub(crate) fn intern(names: &mut Vec<String>, s: &str) -> u32 {
    if let Some(i) = names.iter().position(|n| n == s) {
        return i as u32;
    }
    names.push(s.to_string());
    (names.len() - 1) as u32
}

/// Whether no IK family can observe another's position changes: chains pairwise disjoint
/// and no target inside another family's chain. Then the FABRIK iterations of all families
/// may be interleaved without changing any result.
fn families_independent(iks: &[IkFamily], nb: usize) -> bool {
    let mut owner = vec![usize::MAX; nb];
    for (fi, f) in iks.iter().enumerate() {
        for &b in &f.sorted {
            match owner.get_mut(b as usize) {
                Some(o) if *o == usize::MAX => *o = fi,
                _ => return false,
            }
        }
    }
    iks.iter().enumerate().all(|(fi, f)| {
        f.target.is_none_or(|t| owner.get(t as usize).is_some_and(|&o| o == usize::MAX || o == fi))
    })
}

#[cfg(test)]
pub(crate) fn build_for_test(raw: RawArmature) -> Armature {
    build(raw, None).expect("valid")
}

/// Resolves and validates a parsed document.
fn build(raw: RawArmature, upgraded_from: Option<String>) -> Result<Armature, SkfError> {
    let nb = raw.bones.len();
    let nv = raw.visuals.len();
    let nik = raw.inverse_kinematics.len();
    let np = raw.physics.len();
    if nb > u32::MAX as usize / 2 {
        return Err(SkfError::invalid("bones", "too many bones"));
    }
    let mut bones = Vec::with_capacity(nb);
    for (i, b) in raw.bones.into_iter().enumerate() {
        let p = |k: &str| format!("bones[{i}].{k}");
        if let Some(id) = b.id {
            if id != i as i64 {
                return Err(SkfError::invalid(
                    p("id"),
                    format!("id {id} is not the bone's array index {i}"),
                ));
            }
        }
        let parent = opt_index(b.parent_id, nb, || p("parent_id"), "parent")?;
        if parent.is_some_and(|q| q as usize >= i) {
            return Err(SkfError::invalid(
                p("parent_id"),
                "a parent must come before its children in `bones`",
            ));
        }
        let scale = b.scale.map_or(Vec2::ONE, |s| s.v());
        let pos = b.pos.v();
        bones.push(Bone {
            name: b.name,
            parent,
            pos,
            rot: b.rot,
            scale,
            hidden: b.hidden,
            init_pos: b.init_pos.map_or(pos, |v| v.v()),
            init_rot: b.init_rot.unwrap_or(b.rot),
            init_scale: b.init_scale.map_or(scale, |v| v.v()),
            init_hidden: b.init_hidden.unwrap_or(b.hidden),
            ik_family: opt_index(
                b.ik_family_id.or(b.inverse_kinematics_id),
                nik,
                || p("ik_family_id"),
                "IK family",
            )?,
            physics: opt_index(b.physics_id, np, || p("physics_id"), "physics entry")?,
            visual: opt_index(b.visuals_id, nv, || p("visuals_id"), "visual")?,
        });
    }

    let mut tex_names = vec![String::new()];
    let mut visuals = Vec::with_capacity(nv);
    for (i, v) in raw.visuals.into_iter().enumerate() {
        let p = |k: &str| format!("visuals[{i}].{k}");
        let n = v.vertices.len();
        let vertices: Vec<Vertex> = v
            .vertices
            .into_iter()
            .map(|x| Vertex { init_pos: x.init_pos.map_or(x.pos.v(), |q| q.v()), uv: x.uv.v() })
            .collect();
        let mut indices = Vec::with_capacity(v.indices.len());
        for (j, ix) in v.indices.into_iter().enumerate() {
            indices.push(req_index(ix, n, || p(&format!("indices[{j}]")), "vertex")?);
        }
        let mut binds = Vec::with_capacity(v.binds.len());
        for (j, b) in v.binds.into_iter().enumerate() {
            let bone =
                opt_index(b.bone_id.or(b.id), nb, || p(&format!("binds[{j}].bone_id")), "bone")?;
            let mut verts = Vec::with_capacity(b.verts.len());
            for (k, bv) in b.verts.into_iter().enumerate() {
                let id = req_index(bv.id, n, || p(&format!("binds[{j}].verts[{k}].id")), "vertex")?;
                verts.push(BindVert { id, weight: bv.weight });
            }
            binds.push(Bind { bone, is_path: b.is_path, verts });
        }
        let tex = intern(&mut tex_names, &v.tex);
        let init_tex = v.init_tex.as_deref().map_or(tex, |t| intern(&mut tex_names, t));
        let tint = v.tint.map_or(Color::WHITE, color);
        visuals.push(Visual {
            tex,
            init_tex,
            zindex: v.zindex,
            init_zindex: v.init_zindex.unwrap_or(v.zindex),
            tint,
            init_tint: v.init_tint.map_or(tint, color),
            pivot_pos: v.pivot_pos.v(),
            pivot_rot: v.pivot_rot,
            pivot_scale: v.pivot_scale.map_or(Vec2::ONE, |s| s.v()),
            vertices,
            indices,
            binds,
        });
    }

    let mut iks = Vec::with_capacity(nik);
    for (i, f) in raw.inverse_kinematics.into_iter().enumerate() {
        let p = |k: &str| format!("inverse_kinematics[{i}].{k}");
        let target = opt_index(f.target_id, nb, || p("target_id"), "target bone")?;
        let mut bone_ids = Vec::with_capacity(f.bone_ids.len());
        for (j, b) in f.bone_ids.into_iter().enumerate() {
            bone_ids.push(req_index(b, nb, || p(&format!("bone_ids[{j}]")), "bone")?);
        }
        let mut sorted = bone_ids.clone();
        sorted.sort_unstable();
        sorted.dedup();
        let constraint = f.constraint.map_or(IkConstraint::None, |c| c.0);
        let mode = f.mode.map_or(IkMode::Fabrik, |m| m.0);
        iks.push(IkFamily {
            constraint,
            mode,
            target,
            bone_ids,
            mimic_target: f.mimic_target,
            init_constraint: f.init_constraint.map_or(constraint, |c| c.0),
            init_mode: f.init_mode.map_or(mode, |m| m.0),
            init_mimic_target: f.init_mimic_target.unwrap_or(f.mimic_target),
            sorted,
        });
    }

    let physics: Vec<Physics> = raw
        .physics
        .into_iter()
        .map(|p| Physics {
            global_pos: p.global_pos.v(),
            global_scale: p.global_scale.v(),
            global_rot: p.global_rot,
            pos_damping: p.pos_damping,
            scale_damping: p.scale_damping,
            rot_damping: p.rot_damping,
            pos_ratio: p.pos_ratio,
            scale_ratio: p.scale_ratio,
            global_orbit: p.global_orbit,
            global_orbit_diff: p.global_orbit_diff,
            global_orbit_vel: p.global_orbit_vel,
            sway: p.sway,
            rot_bounce: p.rot_bounce,
        })
        .collect();

    let mut animations = Vec::with_capacity(raw.animations.len());
    for (a, anim) in raw.animations.into_iter().enumerate() {
        let nk = anim.keyframes.len();
        let mut keyframes = Vec::with_capacity(nk);
        for (k, kf) in anim.keyframes.into_iter().enumerate() {
            let p = |f: &str| format!("animations[{a}].keyframes[{k}].{f}");
            let bone = req_index(kf.bone_id, nb, || p("bone_id"), "bone")?;
            let next = opt_index(kf.next_kf, nk, || p("next_kf"), "keyframe")?;
            let element = kf.element.0;
            let (tex, constraint) = match (element, kf.value_str.as_deref()) {
                (Element::Texture, Some(s)) => (intern(&mut tex_names, s), IkConstraint::None),
                (Element::Texture, None) => (0, IkConstraint::None),
                (Element::IkConstraint, s) => (0, IkConstraint::from_name(s.unwrap_or(""))),
                _ => (0, IkConstraint::None),
            };
            keyframes.push(Keyframe {
                frame: kf.frame,
                bone,
                element,
                value: kf.value,
                value_str: kf.value_str,
                next,
                start_handle: kf.start_handle.v(),
                end_handle: kf.end_handle.v(),
                handle_preset: kf.handle_preset.map(|h| h.0),
                tex,
                constraint,
                table: NO_TABLE,
            });
        }
        animations.push(Animation {
            name: anim.name,
            fps: anim.fps,
            keyframes,
            progress: Vec::new(),
            tabulated: false,
        });
    }

    let atlases: Vec<Atlas> =
        raw.atlases.into_iter().map(|a| Atlas { filename: a.filename, size: a.size.v() }).collect();
    let na = atlases.len();
    let mut styles = Vec::with_capacity(raw.styles.len());
    for (s, st) in raw.styles.into_iter().enumerate() {
        let mut textures = Vec::with_capacity(st.textures.len());
        for (t, tx) in st.textures.into_iter().enumerate() {
            if tx.atlas_idx as usize >= na {
                return Err(SkfError::invalid(
                    format!("styles[{s}].textures[{t}].atlas_idx"),
                    format!("atlas {} out of range (0..{na})", tx.atlas_idx),
                ));
            }
            textures.push(Texture {
                name: tx.name,
                offset: tx.offset.v(),
                size: tx.size.v(),
                atlas_idx: tx.atlas_idx,
            });
        }
        styles.push(Style { name: st.name, textures });
    }

    Ok(assemble(Parts {
        version: raw.version.unwrap_or_default(),
        upgraded_from,
        baked_ik: raw.baked_ik,
        img_format: raw.img_format.unwrap_or_else(|| "PNG".to_string()),
        clear_color: raw.clear_color.map_or(Color::TRANSPARENT, color),
        bones,
        animations,
        atlases,
        styles,
        visuals,
        iks,
        physics,
        tex_names,
    }))
}

/// The validated content of a document, before the per-instance state is sized.
pub(crate) struct Parts {
    pub version: String,
    pub upgraded_from: Option<String>,
    pub baked_ik: bool,
    pub img_format: String,
    pub clear_color: Color,
    pub bones: Vec<Bone>,
    pub animations: Vec<Animation>,
    pub atlases: Vec<Atlas>,
    pub styles: Vec<Style>,
    pub visuals: Vec<Visual>,
    pub iks: Vec<IkFamily>,
    pub physics: Vec<Physics>,
    pub tex_names: Vec<String>,
}

/// The armature of validated parts: per-instance state and scratch sized, the
/// load-time facts the construct pass uses computed.
pub(crate) fn assemble(parts: Parts) -> Armature {
    let Parts {
        version,
        upgraded_from,
        baked_ik,
        img_format,
        clear_color,
        bones,
        animations,
        atlases,
        styles,
        visuals,
        iks,
        physics,
        tex_names,
    } = parts;
    let nb = bones.len();
    let world = vec![Transform::default(); nb];
    let iks_len = iks.len();
    let ik_independent = families_independent(&iks, nb);
    let longest_fabrik =
        iks.iter().filter(|f| f.mode == IkMode::Fabrik).map(|f| f.sorted.len()).max().unwrap_or(0);
    let mut affected = vec![0u8; nb];
    for f in &iks {
        for &b in &f.sorted {
            if let Some(a) = affected.get_mut(b as usize) {
                *a |= crate::construct::AFFECTED_IK;
            }
        }
    }
    for (i, b) in bones.iter().enumerate() {
        let inherited = b.parent.and_then(|p| affected.get(p as usize)).copied().unwrap_or(0);
        let own = if b.physics.is_some() { crate::construct::AFFECTED_PHYSICS } else { 0 };
        if let Some(a) = affected.get_mut(i) {
            *a |= inherited | own;
        }
    }
    let verts = visuals.iter().map(|v| vec![Vec2::ZERO; v.vertices.len()]).collect();
    Armature {
        version,
        upgraded_from,
        baked_ik,
        img_format,
        clear_color,
        bones,
        animations,
        atlases,
        styles,
        visuals,
        iks,
        phys_ease: physics.iter().map(crate::construct::physics_ease).collect(),
        physics,
        tex_names,
        order: ConstructOrder::Docs,
        world,
        verts,
        ik_rots: vec![0.0; nb],
        ik_set: vec![false; nb],
        reset: vec![0; nb],
        ik_ends: Vec::with_capacity(iks_len),
        ik_state: crate::construct::FabrikScratch::new(longest_fabrik),
        ik_independent,
        affected,
        trig: vec![(0f32.to_bits(), 0.0, 1.0); nb],
    }
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
        assert!(matches!(super::load(&bad), Err(crate::SkfError::Zip(_))), "corrupt entry loaded");
    }
}
