//! What `skel render` draws: the skeleton with its atlas pages (or the embedded demo rig,
//! or the flat geometry page), and the raster textures made of them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::raster::Raster;
use spine_format::atlas::{Atlas, Page, Region};
use spine_model::files::{discover_atlas, page_path};
use spine_model::validate::AtlasChoice;
use spine_model::{AttachmentKind, SkeletonData};
use spine_render_traits::{PageId, TextureDesc, TextureFilter, TextureWrap};

use crate::io::{is_stdin, read_input};
use crate::pose::{load_rig_with, read_atlas, SkeletonInput};

/// The project's demo rig (`cargo xtask gen-demo` writes it to `crates/skel-cli/demo`), rendered
/// when no FILE is given; embedded in the binary with its atlas and page image, so that an
/// installed `skel` draws it from any folder.
pub const DEMO_JSON: &[u8] = include_bytes!("../../demo/demo.json");
/// The demo rig's atlas.
const DEMO_ATLAS: &[u8] = include_bytes!("../../demo/demo.atlas");
/// The demo rig's one page image.
const DEMO_PNG: &[u8] = include_bytes!("../../demo/demo.png");
/// The name the embedded demo rig goes by in messages.
pub const DEMO_NAME: &str = "(demo rig)";

/// Writes the embedded demo rig (skeleton, atlas, page image) into `dir` (created if
/// missing) and returns the skeleton's path: what `skel view` serves when given no path.
pub fn write_demo(dir: &Path) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("demo.atlas"), DEMO_ATLAS)?;
    std::fs::write(dir.join("demo.png"), DEMO_PNG)?;
    let json = dir.join("demo.json");
    std::fs::write(&json, DEMO_JSON)?;
    Ok(json)
}

/// The embedded demo rig, loaded for drawing.
pub(super) fn load_demo(pma: Option<bool>) -> Result<DrawRig, String> {
    let atlas = spine_model::validate::parse_atlas(DEMO_ATLAS)?;
    let data = load_rig_with(DEMO_JSON, Some(&atlas), "demo.atlas")?;
    let pages = data
        .pages
        .iter()
        .map(|p| {
            let declared =
                (p.width > 0 && p.height > 0).then_some((p.width as u32, p.height as u32));
            let page = atlas.pages.iter().find(|a| a.name == p.name);
            let image =
                PageImage::File { path: p.name.clone().into(), bytes: DEMO_PNG.to_vec(), declared };
            (p.name.clone(), image, page_pma(Path::new("demo.atlas"), page, pma))
        })
        .collect();
    Ok(DrawRig { data, pages })
}

/// The page every region and mesh is bound to under `--no-atlas`: a 1×1 flat texture
/// ([`GEOMETRY_TEXEL`]), so that geometry-only drawing is visible.
pub const GEOMETRY_PAGE: &str = "(no atlas)";

/// The texel of [`GEOMETRY_PAGE`], straight RGBA: a 75 %-opaque mid grey, visible on light
/// and dark backgrounds (overlaps more opaque, tinted by slot colors).
const GEOMETRY_TEXEL: [u8; 4] = [0x90, 0x90, 0x90, 0xc0];

/// Where the pixels of one atlas page come from.
#[derive(Debug, Clone)]
pub(super) enum PageImage {
    /// The page image file (beside the atlas), read once: its path, bytes and the size
    /// the atlas declares for it (`size:`), if any.
    File { path: PathBuf, bytes: Vec<u8>, declared: Option<(u32, u32)> },
    /// [`GEOMETRY_TEXEL`] (`--no-atlas`).
    Flat,
}

/// A skeleton loaded for drawing: its data and the image and alpha mode of every page it
/// uses (in the data's page order, which is the render commands' page order).
pub(crate) struct DrawRig {
    pub data: Arc<SkeletonData>,
    pub(super) pages: Vec<(String, PageImage, bool)>,
}

/// `file` with an empty parent made explicit (`x.skel` → `./x.skel`), so that the folder can
/// be listed.
fn with_dir(file: &Path) -> PathBuf {
    match file.parent() {
        Some(p) if p.as_os_str().is_empty() => Path::new(".").join(file),
        _ => file.to_path_buf(),
    }
}

/// The `-pma` naming of 3.x atlases (`raptor-pma.atlas`).
pub(super) fn named_pma(atlas: &Path) -> bool {
    atlas.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
        let n = n.to_ascii_lowercase();
        n.ends_with("-pma.atlas") || n.ends_with("-pma.atlas.txt")
    })
}

/// Premultiplied alpha of `page` of the atlas at `atlas`: `over` (`--pma` / `--no-pma`), else
/// the page's `pma:` field, else the `-pma.atlas` naming.
pub(super) fn page_pma(atlas: &Path, page: Option<&Page>, over: Option<bool>) -> bool {
    over.or(page.and_then(|p| p.pma)).unwrap_or_else(|| named_pma(atlas))
}

/// The contract's atlas rule, failing with what was looked for and where when there is no
/// atlas; `None` only for [`AtlasChoice::None`].
pub(crate) fn resolve_atlas(file: &Path, choice: &AtlasChoice) -> Result<Option<PathBuf>, String> {
    match choice {
        AtlasChoice::None => Ok(None),
        AtlasChoice::File(p) => Ok(Some(p.clone())),
        AtlasChoice::Auto if is_stdin(file) => Err("no atlas found: the skeleton is read from \
             standard input, so there is no folder to look in; pass --atlas FILE, or \
             --no-atlas to draw geometry only"
            .to_owned()),
        AtlasChoice::Auto => {
            let file = with_dir(file);
            discover_atlas(&file).map(Some).ok_or_else(|| no_atlas_message(&file))
        }
    }
}

/// "No atlas found": the names [`discover_atlas`] tried, the folder, and the `.atlas` files
/// that are there.
fn no_atlas_message(file: &Path) -> String {
    let dir = file.parent().unwrap_or(Path::new("."));
    let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let mut tried = vec![format!("{stem}.atlas")];
    if let Some((base, _)) = stem.rsplit_once('-') {
        tried.push(format!("{base}.atlas"));
    }
    let mut plain = Vec::new();
    let mut pma = Vec::new();
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with("-pma.atlas") {
                pma.push(name);
            } else if name.ends_with(".atlas") {
                plain.push(name);
            }
        }
    }
    plain.sort();
    pma.sort();
    let found = match plain.len() {
        0 => "found none".to_owned(),
        n => format!("found {n}: {}", plain.join(", ")),
    };
    let pma = match pma.len() {
        0 => String::new(),
        1 => format!("; {} is used only when given with --atlas", pma[0]),
        _ => format!("; {} are used only when given with --atlas", pma.join(", ")),
    };
    format!(
        "no atlas found: looked in {} for {}, then for a single non-pma .atlas ({found}{pma}); \
         pass --atlas FILE, or --no-atlas to draw geometry only",
        dir.display(),
        tried.join(", "),
    )
}

/// Loads a skeleton for drawing: the atlas by the contract's rule ([`resolve_atlas`]), or
/// the geometry page under `--no-atlas`. Every page path must stay inside the atlas'
/// folder. When `read_images` (drawing pixels), every page image must be a regular file
/// there, and is read once (bounded); otherwise (render commands name pages, they never
/// sample them) the images are neither looked for nor read.
pub(crate) fn load_for_drawing(
    input: &SkeletonInput<'_>,
    choice: &AtlasChoice,
    pma: Option<bool>,
    read_images: bool,
) -> Result<DrawRig, String> {
    let Some(atlas_path) = resolve_atlas(input.path, choice)? else {
        let geometry = load_rig_with(input.bytes, None, "")?;
        let atlas = geometry_atlas(&geometry);
        let data = load_rig_with(input.bytes, Some(&atlas), GEOMETRY_PAGE)?;
        let pages = data.pages.iter().map(|p| (p.name.clone(), PageImage::Flat, false)).collect();
        return Ok(DrawRig { data, pages });
    };
    let atlas = read_atlas(&atlas_path)?;
    let name = atlas_path.file_name().and_then(|n| n.to_str()).unwrap_or("atlas");
    let data = load_rig_with(input.bytes, Some(&atlas), name)?;
    let dir = atlas_path.parent().unwrap_or(Path::new(""));
    let mut pages = Vec::with_capacity(data.pages.len());
    for p in &data.pages {
        let image =
            page_path(dir, &p.name).map_err(|e| format!("{e} (in {})", atlas_path.display()))?;
        if !read_images {
            pages.push((p.name.clone(), PageImage::Flat, false));
            continue;
        }
        let Ok(meta) = std::fs::metadata(&image) else {
            return Err(format!(
                "atlas page image {:?} not found: looked for {} (page of {})",
                p.name,
                image.display(),
                atlas_path.display()
            ));
        };
        if !meta.is_file() {
            return Err(format!(
                "atlas page image {:?} is not a regular file: {} (page of {})",
                p.name,
                image.display(),
                atlas_path.display()
            ));
        }
        let bytes = read_input(&image, "atlas page image")
            .map_err(|e| format!("atlas page image {}: {e}", image.display()))?;
        let declared = (p.width > 0 && p.height > 0).then_some((p.width as u32, p.height as u32));
        let page = atlas.pages.iter().find(|a| a.name == p.name);
        pages.push((
            p.name.clone(),
            PageImage::File { path: image, bytes, declared },
            page_pma(&atlas_path, page, pma),
        ));
    }
    Ok(DrawRig { data, pages })
}

/// A one-page atlas binding every region and mesh path of `data` (every sequence frame
/// included) to the whole of a 1×1 page, [`GEOMETRY_PAGE`].
pub(super) fn geometry_atlas(data: &SkeletonData) -> Atlas {
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
        name: GEOMETRY_PAGE.to_owned(),
        size: Some([1, 1]),
        pma: Some(false),
        regions,
        ..Page::default()
    };
    Atlas { header: Vec::new(), pages: vec![page] }
}

/// Creates the raster's page textures (each PNG header checked before decoding).
pub(super) fn load_textures(
    raster: &mut Raster,
    pages: &[(String, PageImage, bool)],
) -> Result<(), String> {
    for (i, (name, image, pma)) in pages.iter().enumerate() {
        let page = PageId(i as u32);
        match image {
            PageImage::File { path, bytes, declared } => raster
                .load_png_page(page, name, bytes, *pma, *declared)
                .map_err(|e| format!("atlas page image {}: {e}", path.display()))?,
            PageImage::Flat => raster.set_texture(
                page,
                &TextureDesc {
                    name,
                    width: 1,
                    height: 1,
                    pixels: &GEOMETRY_TEXEL,
                    premultiplied_alpha: false,
                    min_filter: TextureFilter::Nearest,
                    mag_filter: TextureFilter::Nearest,
                    wrap_u: TextureWrap::ClampToEdge,
                    wrap_v: TextureWrap::ClampToEdge,
                },
            )?,
        }
    }
    Ok(())
}
