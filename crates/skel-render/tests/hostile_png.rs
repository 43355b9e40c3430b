//! PNG decompression bombs: a few bytes that declare a huge image are refused from the
//! header, before any pixel buffer is allocated.

use skel_render::{decode_png, decode_png_page, RenderError};

/// CRC-32 (IEEE) of `bytes`, as PNG chunks need.
fn crc32(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in bytes {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 { 0xedb8_8320 ^ (c >> 1) } else { c >> 1 };
        }
    }
    !c
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// A PNG of `w` x `h` RGBA8 whose image data is a tiny (truncated) zlib stream: only the
/// header is honest.
fn bomb(w: u32, h: u32) -> Vec<u8> {
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&w.to_be_bytes());
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"IDAT", &[0x78, 0x9c, 0x03, 0x00]);
    chunk(&mut out, b"IEND", &[]);
    out
}

#[test]
fn a_huge_declared_image_is_refused_from_its_header() {
    for (w, h) in [(16_384, 16_384), (16_384, 8_193), (100_000, 10)] {
        let err = decode_png(&bomb(w, h)).unwrap_err();
        assert!(
            matches!(err, RenderError::BadSize { width, height, .. } if width == w && height == h),
            "{err}"
        );
    }
}

#[test]
fn a_page_far_larger_than_its_atlas_size_is_refused() {
    let err = decode_png_page(&bomb(4096, 4096), Some((1024, 1024))).unwrap_err();
    assert!(
        matches!(
            err,
            RenderError::PageSizeMismatch { width: 4096, height: 4096, declared: (1024, 1024) }
        ),
        "{err}"
    );
    // Within twice the declared size the header passes (the truncated data then fails).
    let err = decode_png_page(&bomb(2048, 2048), Some((1024, 1024))).unwrap_err();
    assert!(
        !matches!(err, RenderError::PageSizeMismatch { .. } | RenderError::BadSize { .. }),
        "{err}"
    );
}
