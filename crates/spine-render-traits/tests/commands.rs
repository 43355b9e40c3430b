//! Behaviour of the command buffer: batching, validation, views, JSON shape.

use spine_render_traits::{
    render, Argb, Batching, BlendMode, CommandView, Draw, DrawError, PaddedIndices, PageId,
    RenderBackend, RenderCommands, TextureDesc, VertexColors, INDEX_BLOCK,
};

const QUAD_POS: [f32; 8] = [0.0, 0.0, 10.0, 0.0, 10.0, 10.0, 0.0, 10.0];
const QUAD_UV: [f32; 8] = [0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0];
const QUAD_IDX: [u16; 6] = [0, 1, 2, 2, 3, 0];

fn quad(page: PageId, blend_mode: BlendMode, light: Argb) -> Draw<'static> {
    Draw {
        page,
        blend_mode,
        positions: &QUAD_POS,
        uvs: &QUAD_UV,
        colors: VertexColors::Uniform { light, dark: Argb::BLACK },
        indices: &QUAD_IDX,
    }
}

#[test]
fn merges_consecutive_draws_with_same_page_and_blend() {
    let mut c = RenderCommands::new();
    let a = c.add_page("a.png", false);
    let b = c.add_page("b.png", true);
    assert_eq!((a, b), (PageId(0), PageId(1)));
    let red = Argb::from_argb8(255, 255, 0, 0);
    c.push(&quad(a, BlendMode::Normal, Argb::WHITE)).unwrap();
    c.push(&quad(a, BlendMode::Normal, red)).unwrap(); // color differs: still merged
    c.push(&quad(a, BlendMode::Additive, red)).unwrap(); // blend differs
    c.push(&quad(b, BlendMode::Additive, red)).unwrap(); // page differs
    c.push(&quad(a, BlendMode::Normal, red)).unwrap(); // not consecutive with the first
    assert_eq!(c.len(), 4);
    let counts: Vec<(usize, usize)> =
        c.iter().map(|v| (v.num_vertices(), v.num_indices())).collect();
    assert_eq!(counts, vec![(8, 12), (4, 6), (4, 6), (4, 6)]);
    let first = c.get(0).unwrap();
    assert_eq!(first.indices, &[0, 1, 2, 2, 3, 0, 4, 5, 6, 6, 7, 4]);
    assert_eq!(&first.colors[..4], &[Argb::WHITE; 4]);
    assert_eq!(&first.colors[4..], &[red; 4]);
    assert_eq!(first.positions.len(), 16);
    assert_eq!(first.page_name, "a.png");
    assert!(!first.premultiplied_alpha);
    let fourth = c.get(2).unwrap();
    assert_eq!(fourth.page_name, "b.png");
    assert!(fourth.premultiplied_alpha);
    assert_eq!(fourth.blend_mode, BlendMode::Additive);
    assert_eq!(c.num_vertices(), 20);
    assert_eq!(c.num_indices(), 30);
}

#[test]
fn spine_cpp_batching_also_compares_first_colors() {
    let mut c = RenderCommands::with_batching(Batching::SpineCpp);
    let a = c.add_page("a.png", false);
    let red = Argb::from_argb8(255, 255, 0, 0);
    c.push(&quad(a, BlendMode::Normal, Argb::WHITE)).unwrap();
    c.push(&quad(a, BlendMode::Normal, Argb::WHITE)).unwrap();
    c.push(&quad(a, BlendMode::Normal, red)).unwrap();
    c.push(&quad(a, BlendMode::Normal, red)).unwrap();
    assert_eq!(c.len(), 2);
    assert_eq!(c.get(1).unwrap().indices, &[0, 1, 2, 2, 3, 0, 4, 5, 6, 6, 7, 4]);

    let mut n = RenderCommands::with_batching(Batching::Never);
    let a = n.add_page("a.png", false);
    n.push(&quad(a, BlendMode::Normal, Argb::WHITE)).unwrap();
    n.push(&quad(a, BlendMode::Normal, Argb::WHITE)).unwrap();
    assert_eq!(n.len(), 2);
}

#[test]
fn spine_cpp_batching_splits_before_0xffff_indices() {
    let mut c = RenderCommands::with_batching(Batching::SpineCpp);
    let a = c.add_page("a.png", false);
    // 10922 quads * 6 = 65532 indices < 0xffff; the next quad would make 65538.
    for _ in 0..10_922 {
        c.push(&quad(a, BlendMode::Normal, Argb::WHITE)).unwrap();
    }
    assert_eq!(c.len(), 1);
    assert_eq!(c.get(0).unwrap().num_indices(), 65_532);
    c.push(&quad(a, BlendMode::Normal, Argb::WHITE)).unwrap();
    assert_eq!(c.len(), 2);
}

#[test]
fn page_and_blend_batching_splits_at_65536_vertices() {
    let mut c = RenderCommands::new();
    let a = c.add_page("a.png", false);
    for _ in 0..16_384 {
        c.push(&quad(a, BlendMode::Normal, Argb::WHITE)).unwrap();
    }
    assert_eq!(c.len(), 1);
    let v = c.get(0).unwrap();
    assert_eq!(v.num_vertices(), 65_536);
    assert_eq!(v.indices.iter().copied().max(), Some(65_535));
    c.push(&quad(a, BlendMode::Normal, Argb::WHITE)).unwrap();
    assert_eq!(c.len(), 2);
    assert_eq!(c.get(1).unwrap().indices, &QUAD_IDX);
}

#[test]
fn u32_indices_map_exactly_across_the_16_bit_range() {
    // Two merged draws: the second's indices, offset by the first's 40,000 vertices, cover
    // 40,000..=65,535 (both sides of 32,768, where the narrowing to u16 changes sign).
    let mut c = RenderCommands::new();
    let a = c.add_page("a.png", false);
    let (w, d) = (Argb::WHITE, Argb::BLACK);
    let first = 40_000usize;
    let pos = vec![0.0f32; 2 * first];
    let idx: Vec<u32> = (0..first as u32).flat_map(|i| [i, i, i]).collect();
    c.push_uniform(a, BlendMode::Normal, w, d, &pos, &pos, &idx).unwrap();
    let second = (1usize << 16) - first;
    let pos = vec![0.0f32; 2 * second];
    let idx: Vec<u32> = (0..second as u32).rev().flat_map(|i| [i, 0, i]).collect();
    c.push_uniform(a, BlendMode::Normal, w, d, &pos, &pos, &idx).unwrap();
    assert_eq!(c.len(), 1);
    let got = c.get(0).unwrap().indices;
    let want: Vec<u16> = (0..first as u16)
        .flat_map(|i| [i, i, i])
        .chain((0..second as u32).rev().flat_map(|i| {
            let i = (first as u32 + i) as u16;
            [i, first as u16, i]
        }))
        .collect();
    assert_eq!(got, &want[..]);
    // One index past the draw's vertices: rejected, nothing appended.
    let bad = [0u32, 1, second as u32];
    assert_eq!(
        c.push_uniform(a, BlendMode::Normal, w, d, &pos, &pos, &bad),
        Err(DrawError::IndexOutOfRange { index: second as u16, vertices: second })
    );
    assert_eq!(c.num_indices(), want.len());
}

#[test]
fn invalid_draws_are_rejected_and_change_nothing() {
    let mut c = RenderCommands::new();
    let a = c.add_page("a.png", false);
    c.push(&quad(a, BlendMode::Normal, Argb::WHITE)).unwrap();
    let mut d = quad(a, BlendMode::Normal, Argb::WHITE);
    d.page = PageId(7);
    assert_eq!(c.push(&d), Err(DrawError::UnknownPage(PageId(7))));
    let mut d = quad(a, BlendMode::Normal, Argb::WHITE);
    d.indices = &[0, 1, 4];
    assert_eq!(c.push(&d), Err(DrawError::IndexOutOfRange { index: 4, vertices: 4 }));
    d.indices = &[0, 1];
    assert_eq!(c.push(&d), Err(DrawError::NotTriangles(2)));
    let mut d = quad(a, BlendMode::Normal, Argb::WHITE);
    d.uvs = &QUAD_UV[..6];
    assert_eq!(c.push(&d), Err(DrawError::UvLength { positions: 8, uvs: 6 }));
    d.positions = &QUAD_POS[..7];
    assert_eq!(c.push(&d), Err(DrawError::OddPositions(7)));
    let mut d = quad(a, BlendMode::Normal, Argb::WHITE);
    d.colors = VertexColors::PerVertex { light: &[Argb::WHITE; 3], dark: &[Argb::BLACK; 4] };
    assert_eq!(c.push(&d), Err(DrawError::ColorLength { vertices: 4, colors: 3 }));
    assert_eq!(
        c.push_with(a, BlendMode::Normal, Argb::WHITE, Argb::BLACK, 3, 3, |m| {
            m.indices.copy_from_slice(&[0, 1, 3]);
        }),
        Err(DrawError::IndexOutOfRange { index: 3, vertices: 3 })
    );
    // Empty draws are skipped.
    let mut d = quad(a, BlendMode::Additive, Argb::WHITE);
    d.indices = &[];
    c.push(&d).unwrap();
    assert_eq!(c.len(), 1);
    assert_eq!(c.num_vertices(), 4);
    assert_eq!(c.num_indices(), 6);
    assert_eq!(c.get(0).unwrap().positions, &QUAD_POS);
    assert!(DrawError::NotTriangles(2).to_string().contains("multiple of 3"));
}

#[test]
fn push_with_writes_in_place_and_merges() {
    let mut c = RenderCommands::new();
    let a = c.add_page("a.png", true);
    c.push(&quad(a, BlendMode::Screen, Argb::WHITE)).unwrap();
    let tint = Argb::from_argb8(128, 10, 20, 30);
    c.push_with(a, BlendMode::Screen, tint, Argb::WHITE, 3, 3, |m| {
        assert_eq!(m.positions.len(), 6);
        assert_eq!(m.colors, &[tint; 3]);
        m.positions.copy_from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        m.uvs.copy_from_slice(&[0.5; 6]);
        m.indices.copy_from_slice(&[2, 1, 0]);
    })
    .unwrap();
    assert_eq!(c.len(), 1);
    let v = c.get(0).unwrap();
    assert_eq!(v.num_vertices(), 7);
    assert_eq!(&v.indices[6..], &[6, 5, 4]);
    assert_eq!(&v.positions[8..], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    assert_eq!(&v.dark_colors[4..], &[Argb::WHITE; 3]);
}

/// page, blend mode, light color, positions, uvs, indices.
type UniformDraw<'a> = (u32, BlendMode, Argb, &'a [f32], &'a [f32], &'a [u16]);

#[test]
fn push_uniform_matches_push_with_uniform_colors() {
    let tint = Argb::from_argb8(128, 10, 20, 30);
    let tri_pos = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    let tri_uv = [0.5; 6];
    for batching in [Batching::Never, Batching::PageAndBlend, Batching::SpineCpp] {
        let mut by_push = RenderCommands::with_batching(batching);
        let mut by_slices = RenderCommands::with_batching(batching);
        for c in [&mut by_push, &mut by_slices] {
            c.add_page("a.png", false);
            c.add_page("b.png", true);
        }
        let draws: [UniformDraw<'_>; 4] = [
            (0, BlendMode::Normal, Argb::WHITE, &QUAD_POS, &QUAD_UV, &QUAD_IDX),
            (0, BlendMode::Normal, Argb::WHITE, &tri_pos, &tri_uv, &[2, 1, 0]),
            (0, BlendMode::Normal, tint, &QUAD_POS, &QUAD_UV, &QUAD_IDX),
            (1, BlendMode::Additive, tint, &tri_pos, &tri_uv, &[0, 2, 1]),
        ];
        for (page, blend_mode, light, positions, uvs, indices) in draws {
            let page = PageId(page);
            let colors = VertexColors::Uniform { light, dark: Argb::BLACK };
            by_push.push(&Draw { page, blend_mode, positions, uvs, colors, indices }).unwrap();
            let wide: Vec<u32> = indices.iter().map(|&i| u32::from(i)).collect();
            by_slices
                .push_uniform(page, blend_mode, light, Argb::BLACK, positions, uvs, &wide)
                .unwrap();
        }
        assert_eq!(by_push.len(), by_slices.len());
        assert!(by_push.iter().eq(by_slices.iter()), "{batching:?}");
    }
    let mut c = RenderCommands::new();
    let a = c.add_page("a.png", false);
    let (w, k) = (Argb::WHITE, Argb::BLACK);
    let n = BlendMode::Normal;
    // A draw that would merge into this one is rolled back whole when an index is bad.
    c.push_uniform(a, n, w, k, &QUAD_POS, &QUAD_UV, &QUAD_IDX).unwrap();
    assert_eq!(
        c.push_uniform(a, n, w, k, &QUAD_POS, &QUAD_UV, &[0u16, 4, 1]),
        Err(DrawError::IndexOutOfRange { index: 4, vertices: 4 })
    );
    assert_eq!(
        c.push_uniform(a, n, w, k, &QUAD_POS, &QUAD_UV, &[0u32, 1, 70_000]),
        Err(DrawError::IndexOutOfRange { index: u16::MAX, vertices: 4 })
    );
    assert_eq!(
        c.push_uniform(PageId(3), n, w, k, &QUAD_POS, &QUAD_UV, &QUAD_IDX),
        Err(DrawError::UnknownPage(PageId(3)))
    );
    assert_eq!(
        c.push_uniform(a, n, w, k, &QUAD_POS, &QUAD_UV[..6], &QUAD_IDX),
        Err(DrawError::UvLength { positions: 8, uvs: 6 })
    );
    assert_eq!(
        c.push_uniform(a, n, w, k, &QUAD_POS[..7], &QUAD_UV[..7], &QUAD_IDX),
        Err(DrawError::OddPositions(7))
    );
    assert_eq!(
        c.push_uniform(a, n, w, k, &QUAD_POS, &QUAD_UV, &QUAD_IDX[..4]),
        Err(DrawError::NotTriangles(4))
    );
    assert_eq!(
        c.push_uniform(a, n, w, k, &[], &[], &[0u16, 0, 0]),
        Err(DrawError::IndexOutOfRange { index: 0, vertices: 0 })
    );
    c.push_uniform::<u16>(a, n, w, k, &QUAD_POS, &QUAD_UV, &[]).unwrap();
    assert_eq!((c.len(), c.num_vertices(), c.num_indices()), (1, 4, 6));
    let v = c.get(0).unwrap();
    assert_eq!((v.positions, v.indices), (&QUAD_POS[..], &QUAD_IDX[..]));
}

#[test]
fn clear_keeps_pages_reset_forgets_them() {
    let mut c = RenderCommands::new();
    let a = c.add_page("a.png", false);
    c.push(&quad(a, BlendMode::Normal, Argb::WHITE)).unwrap();
    c.clear();
    assert!(c.is_empty());
    assert_eq!(c.pages().len(), 1);
    assert_eq!(c.page(a).map(|p| p.name.as_str()), Some("a.png"));
    assert_eq!(c.bounds(), None);
    c.push(&quad(a, BlendMode::Normal, Argb::WHITE)).unwrap();
    assert_eq!(c.bounds(), Some([0.0, 0.0, 10.0, 10.0]));
    c.reset();
    assert!(c.pages().is_empty());
    assert!(c.push(&quad(a, BlendMode::Normal, Argb::WHITE)).is_err());
}

#[test]
fn json_has_the_golden_render_shape() {
    let mut c = RenderCommands::new();
    let a = c.add_page("spineboy.png", false);
    c.push(&quad(a, BlendMode::Normal, Argb::WHITE)).unwrap();
    c.push(&quad(a, BlendMode::Multiply, Argb::from_argb8(255, 1, 2, 3))).unwrap();
    let v: serde_json::Value = serde_json::to_value(&c).unwrap();
    let cmds = v["commands"].as_array().unwrap();
    assert_eq!(cmds.len(), 2);
    let c0 = &cmds[0];
    assert_eq!(c0["blendMode"], "normal");
    assert_eq!(c0["texture"], "spineboy.png");
    assert_eq!(c0["numVertices"], 4);
    assert_eq!(c0["numIndices"], 6);
    assert_eq!(c0["colors"][0], 4_294_967_295u64);
    assert_eq!(c0["darkColors"][0], 4_278_190_080u64);
    assert_eq!(c0["indices"], serde_json::json!([0, 1, 2, 2, 3, 0]));
    assert_eq!(c0["positions"].as_array().unwrap().len(), 8);
    assert_eq!(c0["uvs"][1], 1.0);
    assert_eq!(cmds[1]["blendMode"], "multiply");
    assert_eq!(cmds[1]["colors"][0], 0xff01_0203u64);
    let mut keys: Vec<&str> = c0.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "blendMode",
            "colors",
            "darkColors",
            "indices",
            "numIndices",
            "numVertices",
            "positions",
            "texture",
            "uvs"
        ]
    );
}

/// A backend that records what it was asked to do.
#[derive(Default)]
struct Recorder {
    log: Vec<String>,
}

impl RenderBackend for Recorder {
    type Error = String;
    fn create_texture(&mut self, page: PageId, desc: &TextureDesc<'_>) -> Result<(), String> {
        self.log.push(format!("tex {} {} {}x{}", page.0, desc.name, desc.width, desc.height));
        Ok(())
    }
    fn begin_frame(&mut self) -> Result<(), String> {
        self.log.push("begin".into());
        Ok(())
    }
    fn draw(&mut self, c: &CommandView<'_>) -> Result<(), String> {
        if c.blend_mode == BlendMode::Screen {
            return Err("no screen".into());
        }
        self.log.push(format!("draw {} {:?} {}", c.page_name, c.blend_mode, c.num_indices()));
        Ok(())
    }
    fn end_frame(&mut self) -> Result<(), String> {
        self.log.push("end".into());
        Ok(())
    }
}

#[test]
fn render_walks_commands_through_a_backend() {
    let mut c = RenderCommands::new();
    let a = c.add_page("a.png", false);
    c.push(&quad(a, BlendMode::Normal, Argb::WHITE)).unwrap();
    c.push(&quad(a, BlendMode::Additive, Argb::WHITE)).unwrap();
    let mut r = Recorder::default();
    let px = [0u8; 4];
    r.create_texture(
        a,
        &TextureDesc {
            name: "a.png",
            width: 1,
            height: 1,
            pixels: &px,
            premultiplied_alpha: false,
            min_filter: Default::default(),
            mag_filter: Default::default(),
            wrap_u: Default::default(),
            wrap_v: Default::default(),
        },
    )
    .unwrap();
    render(&c, &mut r).unwrap();
    assert_eq!(
        r.log,
        ["tex 0 a.png 1x1", "begin", "draw a.png Normal 6", "draw a.png Additive 6", "end"]
    );
    c.push(&quad(a, BlendMode::Screen, Argb::WHITE)).unwrap();
    assert_eq!(render(&c, &mut r), Err("no screen".to_string()));
}

/// `u16` and `u32` indices (mapped by separate code) give the same commands and errors,
/// with merged offsets up to the 65 536-vertex limit and out-of-range indices.
#[test]
fn push_uniform_u16_and_u32_indices_agree() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |m: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % m
    };
    let mut narrow = RenderCommands::with_batching(Batching::SpineCpp);
    let mut wide = RenderCommands::with_batching(Batching::SpineCpp);
    for c in [&mut narrow, &mut wide] {
        c.add_page("a.png", false);
    }
    for _ in 0..400 {
        let big = next(4) == 0;
        let nv = 1 + next(if big { 30_000 } else { 40 }) as usize;
        let positions = vec![1.0f32; 2 * nv];
        let ni = 3 * (1 + next(50) as usize);
        let bad = next(8) == 0;
        let idx16: Vec<u16> = (0..ni)
            .map(|k| if bad && k == ni / 2 { nv as u16 } else { next(nv as u64) as u16 })
            .collect();
        let idx32: Vec<u32> = idx16.iter().map(|&i| u32::from(i)).collect();
        let (w, k, n) = (Argb::WHITE, Argb::BLACK, BlendMode::Normal);
        let a = narrow.push_uniform(PageId(0), n, w, k, &positions, &positions, &idx16);
        let b = wide.push_uniform(PageId(0), n, w, k, &positions, &positions, &idx32);
        assert_eq!(a, b);
    }
    assert!(narrow.iter().eq(wide.iter()));
}

/// `push_quad` (indices offset in two integers) gives `push_uniform`'s commands, merged up to
/// the last vertex a command can hold, with both corner orders the renderer uses.
#[test]
fn push_quad_matches_push_uniform_across_the_16_bit_range() {
    let orders: [[u16; 6]; 3] = [[0, 1, 2, 2, 3, 0], [0, 1, 2, 0, 2, 3], [3, 3, 3, 3, 3, 3]];
    for batching in [Batching::Never, Batching::PageAndBlend, Batching::SpineCpp] {
        for order in orders {
            let mut by_quad = RenderCommands::with_batching(batching);
            let mut by_slices = RenderCommands::with_batching(batching);
            for c in [&mut by_quad, &mut by_slices] {
                c.add_page("a.png", false);
            }
            // 16 385 quads: a command fills up to 65 536 vertices, then a new one.
            for k in 0..16_385u32 {
                let light = Argb(0xff00_0000 | (k / 8_000));
                let (page, n, dark) = (PageId(0), BlendMode::Normal, Argb::BLACK);
                let quad = by_quad.push_quad(page, n, light, dark, &QUAD_POS, &QUAD_UV, &order);
                assert_eq!(quad, Ok(true));
                by_slices.push_uniform(page, n, light, dark, &QUAD_POS, &QUAD_UV, &order).unwrap();
            }
            assert_eq!(by_quad.len(), by_slices.len());
            assert!(by_quad.iter().eq(by_slices.iter()), "{batching:?} {order:?}");
            let last = by_quad.iter().map(|v| v.indices.iter().copied().max()).max();
            // (spine-cpp batching splits earlier: below 65 535 indices, and on a color change.)
            if batching == Batching::PageAndBlend {
                assert_eq!(last, Some(Some(65_535)), "{order:?}");
            }
        }
    }
}

/// One frame of every kind of push (the frame `k` of a test sequence; later frames are
/// smaller), a rejected draw among them.
fn frame(c: &mut RenderCommands, k: usize) {
    let a = PageId(0);
    let n = 40 - 10 * k;
    let pos: Vec<f32> = (0..2 * n).map(|i| (i + 100 * k) as f32).collect();
    let uvs: Vec<f32> = (0..2 * n).map(|i| i as f32 / 100.0).collect();
    let idx: Vec<u16> = (0..n as u16 - 2).flat_map(|i| [i, i + 1, i + 2]).collect();
    let light = Argb::from_argb8(255, k as u8, 2, 3);
    let filled = c
        .push_uniform_fill(a, BlendMode::Normal, light, Argb::BLACK, n, &uvs, &idx[..], |dst| {
            dst.copy_from_slice(&pos);
            true
        })
        .unwrap();
    assert!(filled);
    // Dropped by `fill`, then rejected by its indices: neither leaves anything behind.
    let dropped =
        c.push_uniform_fill(a, BlendMode::Additive, light, Argb::BLACK, n, &uvs, &idx[..], |_| {
            false
        });
    assert_eq!(dropped, Ok(false));
    let bad = [0u16, 1, n as u16];
    let rejected =
        c.push_uniform_fill(a, BlendMode::Additive, light, Argb::BLACK, n, &uvs, &bad[..], |dst| {
            dst.copy_from_slice(&pos);
            true
        });
    assert!(rejected.is_err());
    c.push_quad(a, BlendMode::Normal, light, Argb::BLACK, &[k as f32; 8], &QUAD_UV, &QUAD_IDX)
        .unwrap();
    c.push_uniform(a, BlendMode::Screen, light, Argb::WHITE, &pos, &uvs, &idx).unwrap();
    c.push(&Draw {
        page: a,
        blend_mode: BlendMode::Multiply,
        positions: &pos[..6],
        uvs: &uvs[..6],
        colors: VertexColors::Uniform { light, dark: Argb::BLACK },
        indices: &[0, 1, 2],
    })
    .unwrap();
    // `push_with` hands out zeroed positions even where an earlier frame wrote.
    c.push_with(a, BlendMode::Normal, light, Argb::BLACK, n, 3, |m| {
        assert!(m.positions.iter().all(|&p| p == 0.0), "frame {k}");
        m.indices.copy_from_slice(&[0, 1, 2]);
    })
    .unwrap();
}

/// A command's blend mode, positions and UVs by their bits, colors, dark colors, indices.
type Contents = (BlendMode, Vec<u32>, Vec<u32>, Vec<Argb>, Vec<Argb>, Vec<u16>);

/// The commands of `c` as comparable values (positions by their bits).
fn contents(c: &RenderCommands) -> Vec<Contents> {
    c.iter()
        .map(|v| {
            (
                v.blend_mode,
                v.positions.iter().map(|p| p.to_bits()).collect(),
                v.uvs.iter().map(|p| p.to_bits()).collect(),
                v.colors.to_vec(),
                v.dark_colors.to_vec(),
                v.indices.to_vec(),
            )
        })
        .collect()
}

#[test]
fn a_reused_buffer_holds_what_a_fresh_one_does() {
    let mut reused = RenderCommands::with_batching(Batching::SpineCpp);
    reused.add_page("a.png", false);
    for k in [0, 1, 2, 3, 1, 0, 3] {
        reused.clear();
        frame(&mut reused, k);
        let mut fresh = RenderCommands::with_batching(Batching::SpineCpp);
        fresh.add_page("a.png", false);
        frame(&mut fresh, k);
        assert!(!reused.is_empty(), "frame {k}");
        assert_eq!(reused.len(), fresh.len(), "frame {k}");
        assert_eq!(contents(&reused), contents(&fresh), "frame {k}");
        // The first command: the filled draw, then the quad merged into it.
        let n = 40 - 10 * k;
        let first = reused.get(0).expect("a command");
        let filled: Vec<f32> = (0..2 * n).map(|i| (i + 100 * k) as f32).collect();
        assert_eq!(&first.positions[..2 * n], &filled[..], "frame {k}");
        assert_eq!(&first.positions[2 * n..], &[k as f32; 8], "frame {k}");
        assert_eq!(reused.num_vertices(), fresh.num_vertices());
    }
}

/// `indices` in whole blocks, zero-padded.
fn blocks_of(indices: &[u16]) -> Vec<[u16; INDEX_BLOCK]> {
    let mut blocks = vec![[0u16; INDEX_BLOCK]; indices.len().div_ceil(INDEX_BLOCK)];
    blocks.as_flattened_mut()[..indices.len()].copy_from_slice(indices);
    blocks
}

#[test]
fn padded_indices_take_exactly_the_blocks_their_length_needs() {
    let blocks = blocks_of(&[0, 1, 2, 2, 3, 0, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4, 5, 6]);
    assert_eq!(blocks.len(), 2);
    for len in 0..=40 {
        let ok = PaddedIndices::new(&blocks, len).is_some();
        assert_eq!(ok, (17..=32).contains(&len), "{len}");
    }
    assert!(PaddedIndices::new(&[], 0).is_some());
    assert!(PaddedIndices::new(&[], 1).is_none());
    let p = PaddedIndices::new(&blocks, 18).unwrap();
    assert_eq!(p.indices(), &blocks.as_flattened()[..18]);
}

/// A padded list draws what the same indices as a slice draw, merged or not, at every
/// length around the block boundaries; a bad index or bad padding appends nothing.
#[test]
fn padded_indices_draw_as_the_slice_does() {
    for len in [3usize, 6, 12, 15, 18, 30, 33, 45, 48, 51, 96] {
        let n = 20;
        let idx: Vec<u16> = (0..len).map(|i| ((i * 7 + 3) % n) as u16).collect();
        let pos: Vec<f32> = (0..2 * n).map(|i| i as f32).collect();
        let uvs: Vec<f32> = (0..2 * n).map(|i| i as f32 / 64.0).collect();
        let blocks = blocks_of(&idx);
        let padded = PaddedIndices::new(&blocks, len).unwrap();
        let mut by_slice = RenderCommands::with_batching(Batching::SpineCpp);
        let mut by_blocks = RenderCommands::with_batching(Batching::SpineCpp);
        for c in [&mut by_slice, &mut by_blocks] {
            c.add_page("a.png", false);
        }
        let fill = |dst: &mut [f32]| {
            dst.copy_from_slice(&pos);
            true
        };
        let (a, w, k) = (PageId(0), Argb::WHITE, Argb::BLACK);
        for _ in 0..3 {
            let x = by_slice.push_uniform_fill(a, BlendMode::Normal, w, k, n, &uvs, &idx[..], fill);
            let y = by_blocks.push_uniform_fill(a, BlendMode::Normal, w, k, n, &uvs, padded, fill);
            assert_eq!((x, y), (Ok(true), Ok(true)), "{len}");
        }
        assert_eq!(by_blocks.num_indices(), 3 * len);
        assert!(by_slice.iter().eq(by_blocks.iter()), "{len}");
        let before: Vec<u16> = by_blocks.iter().flat_map(|v| v.indices.to_vec()).collect();
        // An index past the vertices, in the last block; then a bad pad after good indices.
        let mut bad = blocks.clone();
        bad.as_flattened_mut()[len - 1] = n as u16;
        let bad = PaddedIndices::new(&bad, len).unwrap();
        let e = by_blocks.push_uniform_fill(a, BlendMode::Normal, w, k, n, &uvs, bad, fill);
        assert_eq!(e, Err(DrawError::IndexOutOfRange { index: n as u16, vertices: n }));
        if len % INDEX_BLOCK != 0 {
            let mut pad = blocks.clone();
            *pad.as_flattened_mut().last_mut().unwrap() = 999;
            let pad = PaddedIndices::new(&pad, len).unwrap();
            let e = by_blocks.push_uniform_fill(a, BlendMode::Normal, w, k, n, &uvs, pad, fill);
            assert_eq!(e, Err(DrawError::IndexOutOfRange { index: 999, vertices: n }));
        }
        let after: Vec<u16> = by_blocks.iter().flat_map(|v| v.indices.to_vec()).collect();
        assert_eq!(before, after, "{len}");
        assert_eq!(by_blocks.num_vertices(), 3 * n);
    }
}
