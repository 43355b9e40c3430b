//! Every encoder's output is read back by a decoder: frame count, size, pixels / alpha.

use std::io::Cursor;

use skel_render::encode::{
    open_animation, save_png, write_png, write_webp, ApngWriter, GifWriter, PngSequence, WebpWriter,
};
use skel_render::{decode_png, load_png, FrameSink, OutputKind};

const W: u32 = 16;
const H: u32 = 12;

/// Frame `k`: a color gradient; alpha by column band: 0, 100, 200, 255.
fn frame(k: u32) -> Vec<u8> {
    let mut v = Vec::new();
    for y in 0..H {
        for x in 0..W {
            let a = [0u8, 100, 200, 255][(x / 4) as usize];
            v.extend_from_slice(&[(x * 16) as u8, (y * 20) as u8, (k * 70) as u8, a]);
        }
    }
    v
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("skel-render-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn png_round_trips_exactly() {
    let f = frame(1);
    let mut bytes = Vec::new();
    write_png(&mut bytes, W, H, &f).unwrap();
    let img = decode_png(&bytes).unwrap();
    assert_eq!((img.width, img.height), (W, H));
    assert_eq!(img.pixels, f);
    assert_eq!(img.pixel(4, 0), Some([64, 0, 70, 100]));
    assert_eq!(img.pixel(W, 0), None);
    let dir = temp_dir("png");
    let p = dir.join("one.png");
    save_png(&p, W, H, &f).unwrap();
    assert_eq!(load_png(&p).unwrap().pixels, f);
    // Wrong sizes are errors.
    assert!(write_png(Vec::new(), W, H, &f[4..]).is_err());
    assert!(decode_png(b"not a png").is_err());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn png_sequence_writes_numbered_files() {
    let dir = temp_dir("seq");
    let mut s = PngSequence::new(&dir.join("out"), "f_", W, H).unwrap();
    for k in 0..3 {
        s.write_frame(&frame(k)).unwrap();
    }
    s.finish().unwrap();
    assert_eq!(s.frames_written(), 3);
    for k in 0..3 {
        let img = load_png(&s.frame_path(k)).unwrap();
        assert_eq!(img.pixels, frame(k));
    }
    assert!(s.frame_path(2).ends_with("f_00002.png"));
    assert_eq!(std::fs::read_dir(dir.join("out")).unwrap().count(), 3);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn gif_has_frames_size_and_one_bit_alpha() {
    let mut bytes = Vec::new();
    {
        let mut g = GifWriter::new(&mut bytes, W, H, 30.0).unwrap();
        for k in 0..4 {
            g.write_frame(&frame(k)).unwrap();
        }
        assert_eq!(g.frames_written(), 4);
        g.finish().unwrap();
    }
    let mut opts = gif::DecodeOptions::new();
    opts.set_color_output(gif::ColorOutput::RGBA);
    let mut dec = opts.read_info(Cursor::new(&bytes)).unwrap();
    assert_eq!((u32::from(dec.width()), u32::from(dec.height())), (W, H));
    let mut n = 0;
    let mut delays = 0;
    while let Some(f) = dec.read_next_frame().unwrap() {
        assert_eq!((u32::from(f.width), u32::from(f.height)), (W, H));
        delays += u32::from(f.delay);
        let src = frame(n);
        for (i, (p, s)) in f.buffer.chunks_exact(4).zip(src.chunks_exact(4)).enumerate() {
            let want_a = if s[3] < 128 { 0 } else { 255 };
            assert_eq!(p[3], want_a, "frame {n} pixel {i}");
            if want_a == 255 {
                // <= 256 colors per frame: the palette is exact.
                assert_eq!(&p[..3], &s[..3], "frame {n} pixel {i}");
            }
        }
        n += 1;
    }
    assert_eq!(n, 4);
    // 4 frames at 30 fps = 13.33 cs, rounded without drift: 3 + 4 + 3 + 3.
    assert_eq!(delays, 13);
}

#[test]
fn apng_has_frames_and_full_alpha() {
    let mut bytes = Vec::new();
    {
        let mut a = ApngWriter::new(&mut bytes, W, H, 3, 24.0).unwrap();
        for k in 0..3 {
            a.write_frame(&frame(k)).unwrap();
        }
        assert!(a.write_frame(&frame(0)).is_err(), "a 4th frame was announced as 3");
        a.finish().unwrap();
    }
    let mut reader = png::Decoder::new(Cursor::new(&bytes)).read_info().unwrap();
    let actl = reader.info().animation_control().copied().unwrap();
    assert_eq!(actl.num_frames, 3);
    assert_eq!(actl.num_plays, 0);
    assert_eq!((reader.info().width, reader.info().height), (W, H));
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    for k in 0..3 {
        reader.next_frame(&mut buf).unwrap();
        assert_eq!(&buf[..(W * H * 4) as usize], &frame(k)[..], "frame {k}");
        let fc = reader.info().frame_control().copied().unwrap();
        assert_eq!((fc.delay_num, fc.delay_den), (1, 24));
    }
    assert!(ApngWriter::new(Vec::new(), W, H, 0, 24.0).is_err());
}

#[test]
fn animated_webp_is_lossless_with_alpha() {
    let mut bytes = Vec::new();
    {
        let mut w = WebpWriter::new(&mut bytes, W, H, 20.0).unwrap();
        for k in 0..3 {
            w.write_frame(&frame(k)).unwrap();
        }
        w.finish().unwrap();
    }
    let mut dec = image_webp::WebPDecoder::new(Cursor::new(&bytes)).unwrap();
    assert!(dec.is_animated());
    assert!(dec.has_alpha());
    assert_eq!(dec.num_frames(), 3);
    assert_eq!(dec.dimensions(), (W, H));
    let mut buf = vec![0; dec.output_buffer_size().unwrap()];
    for k in 0..3 {
        let ms = dec.read_frame(&mut buf).unwrap();
        assert_eq!(ms, 50);
        // Alpha-0 pixels may lose their color in the lossless encoder; compare the rest.
        for (i, (p, s)) in buf.chunks_exact(4).zip(frame(k).chunks_exact(4)).enumerate() {
            assert_eq!(p[3], s[3], "frame {k} pixel {i}");
            if s[3] != 0 {
                assert_eq!(p, s, "frame {k} pixel {i}");
            }
        }
    }
    // Single-frame WebP.
    let mut one = Vec::new();
    write_webp(&mut one, W, H, &frame(2)).unwrap();
    let mut dec = image_webp::WebPDecoder::new(Cursor::new(&one)).unwrap();
    assert!(!dec.is_animated());
    let mut buf = vec![0; dec.output_buffer_size().unwrap()];
    dec.read_image(&mut buf).unwrap();
    assert_eq!(buf[4 * 15 + 3], 255);
}

#[test]
fn open_animation_picks_the_encoder_from_the_path() {
    let dir = temp_dir("open");
    for (name, frames) in [("a.gif", 2), ("a.apng", 2), ("a.webp", 2), ("seq/", 2)] {
        let kind = OutputKind::from_path(name).unwrap();
        let path = dir.join(name);
        let mut sink = open_animation(&path, kind, W, H, 30.0, frames).unwrap();
        for k in 0..frames {
            sink.write_frame(&frame(k)).unwrap();
        }
        sink.finish().unwrap();
        assert_eq!(sink.frames_written(), frames);
        assert!(path.exists(), "{name}");
    }
    assert!(open_animation(&dir.join("x.png"), OutputKind::Png, W, H, 30.0, 1).is_err());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn real_atlas_page_decodes_to_the_atlas_size() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let dir = corpus.join("4.2").join("spineboy");
    let atlas = std::fs::read_to_string(dir.join("spineboy.atlas")).unwrap();
    // "size: 1024, 256" on the page's header.
    let size_line = atlas.lines().find(|l| l.trim_start().starts_with("size:")).unwrap();
    let nums: Vec<u32> = size_line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    let img = load_png(&dir.join("spineboy.png")).unwrap();
    assert_eq!(vec![img.width, img.height], nums);
    assert_eq!(img.pixels.len(), (img.width * img.height * 4) as usize);
    // The page has both transparent and opaque texels.
    assert!(img.pixels.chunks_exact(4).any(|p| p[3] == 0));
    assert!(img.pixels.chunks_exact(4).any(|p| p[3] == 255));
}
