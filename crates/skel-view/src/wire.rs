//! The binary frame message (server → page), little-endian, every section 4-byte aligned so
//! that the page reads it through typed-array views without copying. See the crate docs
//! for the layout.

use spine_render_traits::{BlendMode, RenderCommands};

use crate::player::Instance;

/// `"SKV1"`: the first four bytes of a frame message.
pub const MAGIC: u32 = u32::from_le_bytes(*b"SKV1");

/// Debug overlay flag: bones.
pub const DEBUG_BONES: u32 = 1;
/// Debug overlay flag: bounding-box attachments.
pub const DEBUG_BBOX: u32 = 2;
/// Debug overlay flag: mesh hulls.
pub const DEBUG_HULLS: u32 = 4;
/// Debug overlay flag: triangles (drawn by the page from the commands; no server data).
pub const DEBUG_TRIANGLES: u32 = 8;
/// Debug overlay flag: clipping polygons.
pub const DEBUG_CLIP: u32 = 16;
/// Every debug flag.
pub const DEBUG_ALL: u32 = 31;

/// Debug group kind: bone segments (`x1, y1, x2, y2` each).
pub const KIND_BONES: u32 = 1;
/// Debug group kind: bone origins (`x, y` points).
pub const KIND_JOINTS: u32 = 2;
/// Debug group kind: bounding-box outlines (segments).
pub const KIND_BBOX: u32 = 3;
/// Debug group kind: mesh hull outlines (segments).
pub const KIND_HULLS: u32 = 4;
/// Debug group kind: clipping polygon outlines (segments).
pub const KIND_CLIP: u32 = 5;

/// The blend byte of a command.
pub fn blend_code(b: BlendMode) -> u8 {
    match b {
        BlendMode::Normal => 0,
        BlendMode::Additive => 1,
        BlendMode::Multiply => 2,
        BlendMode::Screen => 3,
    }
}

fn put_u32(buf: &mut Vec<u8>, v: u32) {
    buf.extend_from_slice(&v.to_le_bytes());
}

fn put_f32(buf: &mut Vec<u8>, v: f32) {
    buf.extend_from_slice(&v.to_le_bytes());
}

/// Starts a frame message in `buf` (cleared, capacity kept): magic, `seq`, a server-time
/// placeholder ([`set_server_ms`]) and the rig count.
pub fn begin_frame(buf: &mut Vec<u8>, seq: u32, rigs: u32) {
    buf.clear();
    put_u32(buf, MAGIC);
    put_u32(buf, seq);
    put_f32(buf, 0.0);
    put_u32(buf, rigs);
}

/// Writes the server time of the frame (milliseconds) into its header.
pub fn set_server_ms(buf: &mut [u8], ms: f32) {
    if let Some(b) = buf.get_mut(8..12) {
        b.copy_from_slice(&ms.to_le_bytes());
    }
}

/// Appends one rig: its header, command table, vertex and index data, and debug groups.
pub fn put_rig(buf: &mut Vec<u8>, inst: &Instance, debug: &[(u32, Vec<f32>)]) {
    let cmds: &RenderCommands = &inst.cmds;
    put_u32(buf, inst.id);
    put_f32(buf, inst.time);
    put_u32(buf, cmds.len() as u32);
    put_u32(buf, cmds.num_vertices() as u32);
    put_u32(buf, cmds.num_indices() as u32);
    for c in cmds.iter() {
        let page = c.page.index();
        let tex = inst.rig.pages.get(page).map_or(u32::MAX, |p| p.tex);
        put_u32(buf, tex);
        buf.extend_from_slice(&[blend_code(c.blend_mode), u8::from(inst.page_pma(page)), 0, 0]);
        put_u32(buf, c.num_vertices() as u32);
        put_u32(buf, c.num_indices() as u32);
    }
    for c in cmds.iter() {
        for &v in c.positions {
            put_f32(buf, v);
        }
    }
    for c in cmds.iter() {
        for &v in c.uvs {
            put_f32(buf, v);
        }
    }
    for c in cmds.iter() {
        for &v in c.colors {
            put_u32(buf, v.0);
        }
    }
    for c in cmds.iter() {
        for &v in c.dark_colors {
            put_u32(buf, v.0);
        }
    }
    for c in cmds.iter() {
        for &i in c.indices {
            buf.extend_from_slice(&i.to_le_bytes());
        }
    }
    if cmds.num_indices() % 2 == 1 {
        buf.extend_from_slice(&[0, 0]);
    }
    put_u32(buf, debug.len() as u32);
    for (kind, floats) in debug {
        put_u32(buf, *kind);
        put_u32(buf, floats.len() as u32);
        for &f in floats {
            put_f32(buf, f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_aligned_and_sized() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../skel-cli/demo/demo.json");
        let rig = crate::rig::load_file(&path, "demo", &crate::rig::Textures::default()).unwrap();
        let ctl = crate::player::Controls { anim: Some(0), ..Default::default() };
        let inst = Instance::new(7, std::sync::Arc::new(rig), ctl);
        let mut buf = Vec::new();
        begin_frame(&mut buf, 3, 1);
        put_rig(&mut buf, &inst, &[(KIND_BONES, vec![1.0, 2.0, 3.0, 4.0])]);
        set_server_ms(&mut buf, 1.5);
        assert_eq!(buf.len() % 4, 0);
        let (c, v, i) = (inst.cmds.len(), inst.cmds.num_vertices(), inst.cmds.num_indices());
        let expected = 16 + 20 + 16 * c + 24 * v + 2 * i + (i % 2) * 2 + 4 + 8 + 16;
        assert_eq!(buf.len(), expected);
        assert_eq!(&buf[..4], b"SKV1");
        assert_eq!(f32::from_le_bytes(buf[8..12].try_into().unwrap()), 1.5);
    }
}
