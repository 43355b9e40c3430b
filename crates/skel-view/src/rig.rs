//! Rigs loaded for viewing: Spine skeletons with their atlas pages, SkelForm archives with
//! their atlas images, and the texture table the page fetches pixels from by opaque id.
//!
//! Loading uses the same library calls as the `skel` command: [`spine_model::sniff`],
//! [`spine_model::load`], and [`spine_model::files`]' `parse_atlas`, `discover_atlas`,
//! `page_path` and `read_bounded` (with [`spine_format::Limits`]' `max_file_bytes`), and [`skelform::load_skf`]. Premultiplied
//! alpha of an atlas page follows `skel render`: the page's `pma:` field, else an atlas file
//! name ending in `-pma.atlas`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use spine_format::atlas::{Atlas, Page, Region};
use spine_model::files::{discover_atlas, page_path, parse_atlas, read_bounded};
use spine_model::{sniff, FileFormat};
use spine_model::{AttachmentKind, LoadOptions, SkeletonData};

/// The largest file the viewer reads or accepts as an upload (the project's limit).
pub fn max_file_bytes() -> usize {
    spine_format::Limits::default().max_file_bytes
}

/// Where the pixels of one texture come from.
#[derive(Debug, Clone)]
pub enum TexSource {
    /// A PNG file on disk (an atlas page image beside a served atlas), with the atlas'
    /// declared size when it has one.
    File(PathBuf, Option<(u32, u32)>),
    /// PNG bytes in memory (a `.skf` atlas image, an uploaded page image).
    Bytes(Arc<Vec<u8>>, Option<(u32, u32)>),
    /// One flat grey texel: geometry drawn without an atlas.
    Flat,
}

/// The texel of [`TexSource::Flat`] (straight RGBA), as `skel render --no-atlas` draws.
pub const FLAT_TEXEL: [u8; 4] = [0x90, 0x90, 0x90, 0xc0];

/// Every texture the server can hand out, by opaque id (an index). Ids are never reused;
/// the browser never names a path, only an id from this table.
#[derive(Debug, Default)]
pub struct Textures {
    list: Mutex<Vec<TexSource>>,
}

impl Textures {
    /// Registers a texture and returns its id.
    pub fn add(&self, src: TexSource) -> u32 {
        let mut l = self.list.lock().unwrap_or_else(|e| e.into_inner());
        l.push(src);
        (l.len() - 1) as u32
    }

    /// The source of texture `id`.
    pub fn get(&self, id: u32) -> Option<TexSource> {
        self.list.lock().unwrap_or_else(|e| e.into_inner()).get(id as usize).cloned()
    }

    /// Decodes texture `id` to straight RGBA8: `(width, height, pixels)`.
    pub fn decode(&self, id: u32) -> Result<(u32, u32, Vec<u8>), String> {
        let src = self.get(id).ok_or_else(|| format!("no texture {id}"))?;
        let (bytes, declared) = match src {
            TexSource::Flat => return Ok((1, 1, FLAT_TEXEL.to_vec())),
            TexSource::File(p, d) => (Arc::new(read_bounded(&p, max_file_bytes())?), d),
            TexSource::Bytes(b, d) => (b, d),
        };
        let img = skel_render::decode_png_page(&bytes, declared).map_err(|e| e.to_string())?;
        Ok((img.width, img.height, img.pixels))
    }
}

/// One texture page of a rig.
#[derive(Debug, Clone)]
pub struct PageTex {
    /// The page name (atlas page image name, or the `.skf` atlas file name).
    pub name: String,
    /// Id in [`Textures`].
    pub tex: u32,
    /// Whether the page's pixels are premultiplied (before any override).
    pub pma: bool,
}

/// A loaded Spine skeleton.
#[derive(Debug)]
pub struct SpineRig {
    /// The skeleton data, atlas regions bound.
    pub data: Arc<SkeletonData>,
}

/// A loaded SkelForm archive.
#[derive(Debug)]
pub struct SkfRig {
    /// The armature as loaded (each instance plays a clone).
    pub armature: Box<skelform::Armature>,
}

/// What a rig is.
#[derive(Debug)]
pub enum RigKind {
    /// Spine (binary or JSON, 3.5–4.3).
    Spine(SpineRig),
    /// SkelForm (`.skf`).
    Skf(SkfRig),
}

/// A rig ready to be instanced: shared by every instance showing it.
#[derive(Debug)]
pub struct Rig {
    /// Display name.
    pub name: String,
    /// `spine-binary`, `spine-json` or `skelform`.
    pub format: &'static str,
    /// Editor version.
    pub version: String,
    /// The pages, in render-command page order.
    pub pages: Vec<PageTex>,
    /// The data.
    pub kind: RigKind,
}

/// The `-pma` naming of 3.x atlases (`raptor-pma.atlas`).
fn named_pma(atlas_name: &str) -> bool {
    let n = atlas_name.to_ascii_lowercase();
    n.ends_with("-pma.atlas") || n.ends_with("-pma.atlas.txt")
}

fn declared(page: Option<&Page>) -> Option<(u32, u32)> {
    page.and_then(|p| p.size).map(|s| (s[0].max(0) as u32, s[1].max(0) as u32))
}

/// A one-page atlas binding every region and mesh path of `data` to a 1×1 page (geometry
/// drawn without an atlas, as `skel render --no-atlas`).
fn geometry_atlas(data: &SkeletonData) -> Atlas {
    let mut seen = std::collections::HashSet::new();
    let mut regions = Vec::new();
    for a in &data.attachments {
        let seq = match &a.kind {
            AttachmentKind::Region(r) => &r.sequence,
            AttachmentKind::Mesh(m) => &m.sequence,
            _ => continue,
        };
        for path in seq.frame_paths() {
            if seen.insert(path.to_string()) {
                regions.push(Region {
                    name: path.into(),
                    bounds: Some([0, 0, 1, 1]),
                    ..Region::default()
                });
            }
        }
    }
    let page = Page {
        name: "(no atlas)".to_owned(),
        size: Some([1, 1]),
        pma: Some(false),
        regions,
        ..Page::default()
    };
    Atlas { header: Vec::new(), pages: vec![page] }
}

fn load_spine_data(
    bytes: &[u8],
    atlas: Option<&Atlas>,
    atlas_name: &str,
) -> Result<Arc<SkeletonData>, String> {
    let options = LoadOptions { scale: 1.0, atlas, atlas_name, ..Default::default() };
    spine_model::load(bytes, &options).map(Arc::new).map_err(|e| e.to_string())
}

/// The editor version of a Spine skeleton, from its header (binary) or its `skeleton.spine`
/// field (JSON, looked for in the first 64 KiB).
pub fn spine_version(bytes: &[u8]) -> String {
    if let Ok(h) = spine_format::binary::detect(bytes) {
        return h.version;
    }
    let head = &bytes[..bytes.len().min(64 << 10)];
    let text = String::from_utf8_lossy(head);
    if let Some(i) = text.find("\"spine\"") {
        let rest = &text[i + 7..];
        let rest = rest.trim_start().strip_prefix(':').unwrap_or(rest).trim_start();
        if let Some(v) = rest.strip_prefix('"') {
            if let Some(end) = v.find('"') {
                return v[..end].to_owned();
            }
        }
    }
    "?".to_owned()
}

/// Geometry-only data and its flat page, for a skeleton without atlas.
fn geometry_rig(
    bytes: &[u8],
    textures: &Textures,
) -> Result<(Arc<SkeletonData>, Vec<PageTex>), String> {
    let geometry = load_spine_data(bytes, None, "")?;
    let atlas = geometry_atlas(&geometry);
    let data = load_spine_data(bytes, Some(&atlas), "(no atlas)")?;
    let tex = textures.add(TexSource::Flat);
    let pages =
        data.pages.iter().map(|p| PageTex { name: p.name.clone(), tex, pma: false }).collect();
    Ok((data, pages))
}

/// Loads a served skeleton file: the atlas beside it by the contract's rule (none: geometry
/// only, flat grey), page images inside the atlas' folder.
pub fn load_file(path: &Path, name: &str, textures: &Textures) -> Result<Rig, String> {
    let bytes = read_bounded(path, max_file_bytes())?;
    match sniff(&bytes) {
        FileFormat::SkelformArchive => return load_skf_bytes(name, &bytes, textures),
        FileFormat::SpineBinary | FileFormat::SpineJson => {}
        f => return Err(f.refusal().unwrap_or("not a skeleton the viewer can draw").to_owned()),
    }
    let format = sniff(&bytes).name();
    let version = spine_version(&bytes);
    let dir_file = match path.parent() {
        Some(p) if p.as_os_str().is_empty() => Path::new(".").join(path),
        _ => path.to_path_buf(),
    };
    let (data, pages) = match discover_atlas(&dir_file) {
        None => geometry_rig(&bytes, textures)?,
        Some(atlas_path) => {
            let atlas_bytes = read_bounded(&atlas_path, max_file_bytes())?;
            let atlas =
                parse_atlas(&atlas_bytes).map_err(|e| format!("{}: {e}", atlas_path.display()))?;
            let atlas_name =
                atlas_path.file_name().and_then(|n| n.to_str()).unwrap_or("atlas").to_owned();
            let data = load_spine_data(&bytes, Some(&atlas), &atlas_name)?;
            let dir = atlas_path.parent().unwrap_or(Path::new(""));
            let mut pages = Vec::with_capacity(data.pages.len());
            for p in &data.pages {
                let image = page_path(dir, &p.name)?;
                if !image.is_file() {
                    return Err(format!("atlas page image {} not found", image.display()));
                }
                let page = atlas.pages.iter().find(|a| a.name == p.name);
                let pma = page.and_then(|a| a.pma).unwrap_or_else(|| named_pma(&atlas_name));
                let tex = textures.add(TexSource::File(image, declared(page)));
                pages.push(PageTex { name: p.name.clone(), tex, pma });
            }
            (data, pages)
        }
    };
    Ok(Rig {
        name: name.to_owned(),
        format,
        version,
        pages,
        kind: RigKind::Spine(SpineRig { data }),
    })
}

/// Loads a `.skf` archive from bytes; its atlas images become textures (straight alpha).
fn load_skf_bytes(name: &str, bytes: &[u8], textures: &Textures) -> Result<Rig, String> {
    let skf = skelform::load_skf(bytes, &skelform::Limits::default()).map_err(|e| e.to_string())?;
    let version = match skf.armature.upgraded_from() {
        Some(v) => format!("{v} (upgraded)"),
        None => skf.armature.version().to_string(),
    };
    let mut pages = Vec::new();
    for (i, a) in skf.armature.atlases().iter().enumerate() {
        let src = match skf.atlas_images.get(i) {
            Some(img) => TexSource::Bytes(Arc::new(img.clone()), None),
            None => TexSource::Flat,
        };
        pages.push(PageTex { name: a.filename.clone(), tex: textures.add(src), pma: false });
    }
    Ok(Rig {
        name: name.to_owned(),
        format: "skelform",
        version,
        pages,
        kind: RigKind::Skf(SkfRig { armature: Box::new(skf.armature) }),
    })
}

/// The base name of an uploaded file (the browser may send a relative path).
fn base_name(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}

/// Loads a rig from files dropped on the page (held in memory): a `.skf` archive, or a Spine
/// skeleton with (optionally) its atlas and page images, matched by file name.
pub fn load_uploads(
    files: &HashMap<String, Arc<Vec<u8>>>,
    textures: &Textures,
) -> Result<Rig, String> {
    let mut names: Vec<&String> = files.keys().collect();
    names.sort();
    let kind = |n: &String| sniff(files.get(n).map(|b| b.as_slice()).unwrap_or(&[]));
    if let Some(n) = names.iter().find(|n| kind(n) == FileFormat::SkelformArchive) {
        let bytes = files.get(*n).map(|b| b.as_slice()).unwrap_or(&[]);
        return load_skf_bytes(base_name(n), bytes, textures);
    }
    let skeleton = names
        .iter()
        .find(|n| matches!(kind(n), FileFormat::SpineBinary | FileFormat::SpineJson))
        .filter(|n| {
            let l = n.to_ascii_lowercase();
            l.ends_with(".skel") || l.ends_with(".json") || l.ends_with(".bytes")
        })
        .ok_or(
            "drop a .skf archive, or a Spine skeleton (.skel / .json) with its atlas and images",
        )?;
    let bytes = files.get(*skeleton).map(|b| b.as_slice()).unwrap_or(&[]);
    let stem = base_name(skeleton).rsplit_once('.').map_or(base_name(skeleton), |(s, _)| s);
    let atlases: Vec<&&String> = names.iter().filter(|n| kind(n) == FileFormat::Atlas).collect();
    let atlas_name = atlases
        .iter()
        .find(|n| base_name(n).strip_suffix(".atlas") == Some(stem))
        .or_else(|| atlases.iter().find(|n| !named_pma(n)))
        .or_else(|| atlases.first())
        .map(|n| n.as_str());
    let format = sniff(bytes).name();
    let version = spine_version(bytes);
    let (data, pages) = match atlas_name {
        None => geometry_rig(bytes, textures)?,
        Some(an) => {
            let atlas = parse_atlas(files.get(an).map(|b| b.as_slice()).unwrap_or(&[]))
                .map_err(|e| format!("{an}: {e}"))?;
            let data = load_spine_data(bytes, Some(&atlas), base_name(an))?;
            let mut pages = Vec::new();
            for p in &data.pages {
                let want = base_name(&p.name);
                let img = files
                    .iter()
                    .find(|(n, _)| base_name(n) == want)
                    .map(|(_, b)| b.clone())
                    .ok_or_else(|| format!("atlas page image {want:?} was not dropped"))?;
                let page = atlas.pages.iter().find(|a| a.name == p.name);
                let pma = page.and_then(|a| a.pma).unwrap_or_else(|| named_pma(an));
                let tex = textures.add(TexSource::Bytes(img, declared(page)));
                pages.push(PageTex { name: p.name.clone(), tex, pma });
            }
            (data, pages)
        }
    };
    Ok(Rig {
        name: base_name(skeleton).to_owned(),
        format,
        version,
        pages,
        kind: RigKind::Spine(SpineRig { data }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_from_json_and_pma_names() {
        assert_eq!(spine_version(br#"{"skeleton": {"hash": "x", "spine" : "4.2.40"}}"#), "4.2.40");
        assert_eq!(spine_version(b"{}"), "?");
        assert!(named_pma("raptor-pma.atlas"));
        assert!(!named_pma("raptor.atlas"));
        assert_eq!(base_name("a/b\\c.png"), "c.png");
    }

    #[test]
    fn the_demo_rig_loads_with_its_page() {
        let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("../skel-cli/demo/demo.json");
        let t = Textures::default();
        let rig = load_file(&demo, "demo.json", &t).expect("demo rig");
        assert_eq!(rig.format, "spine-json");
        assert_eq!(rig.pages.len(), 1);
        let (w, h, px) = t.decode(rig.pages[0].tex).expect("page decodes");
        assert_eq!(px.len(), (w * h * 4) as usize);
    }
}
