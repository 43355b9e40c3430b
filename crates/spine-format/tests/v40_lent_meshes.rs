//! Meshes lent while reading (`binary::v40::stream::parse_head_meshes`): in every 4.2 file of
//! the corpus the sink gets exactly the arrays the full AST holds, mesh after mesh in skin
//! order, and the lean AST is the full one with those arrays emptied; 4.0 and 4.1 files
//! keep their arrays and never call the sink; a damaged file fails with the same error.

use std::cell::RefCell;
use std::rc::Rc;

use spine_format::binary::v40::ast::{AttachmentKind, Skeleton, Vertices};
use spine_format::binary::v40::meshes::{MeshRef, MeshSink};
use spine_format::binary::v40::stream::{parse_head_meshes, parse_head_without_icons};
use spine_format::Limits;

/// A lent mesh, copied.
#[derive(Debug, PartialEq)]
struct Owned {
    weighted: bool,
    values: Vec<u32>,
    counts: Vec<u32>,
    bones: Vec<u32>,
    uvs: Vec<u32>,
    triangles: Vec<u32>,
    edges: Vec<u32>,
}

/// Floats by bit pattern (so a NaN compares equal to itself).
fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

impl Owned {
    fn from_ref(m: MeshRef<'_>) -> Owned {
        Owned {
            weighted: m.weighted,
            values: bits(m.values),
            counts: m.counts.to_vec(),
            bones: m.bones.to_vec(),
            uvs: bits(m.uvs),
            triangles: m.triangles.to_vec(),
            edges: m.edges.to_vec(),
        }
    }
}

/// A sink that keeps copies, and the list it fills.
fn recorder() -> (MeshSink, Rc<RefCell<Vec<Owned>>>) {
    let list = Rc::new(RefCell::new(Vec::new()));
    let into = Rc::clone(&list);
    (Box::new(move |m: MeshRef<'_>| into.borrow_mut().push(Owned::from_ref(m))), list)
}

/// Takes every mesh's arrays out of `s`, in skin order, as the sink would have seen them.
fn take_meshes(s: &mut Skeleton) -> Vec<Owned> {
    let mut out = Vec::new();
    let skins = s.default_skin.iter_mut().chain(s.skins.iter_mut().map(|k| &mut k.slots));
    for slots in skins {
        for e in &mut slots.attachments {
            if let AttachmentKind::Mesh(m) = &mut e.attachment.kind {
                let (weighted, values, counts, bones) = match &mut m.vertices {
                    Vertices::Plain(v) => (false, bits(&std::mem::take(v)), vec![], vec![]),
                    Vertices::Weighted(w) => (
                        true,
                        bits(&std::mem::take(&mut w.values)),
                        std::mem::take(&mut w.counts),
                        std::mem::take(&mut w.bones),
                    ),
                };
                let edges = m.extras.as_mut().map(|x| std::mem::take(&mut x.edges));
                out.push(Owned {
                    weighted,
                    values,
                    counts,
                    bones,
                    uvs: bits(&std::mem::take(&mut m.uvs)),
                    triangles: std::mem::take(&mut m.triangles),
                    edges: edges.unwrap_or_default(),
                });
            }
        }
    }
    out
}

#[test]
fn lent_meshes_are_the_asts_arrays_on_the_corpus() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let (mut lent_files, mut lent_meshes, mut kept_files) = (0, 0, 0);
    for v in ["4.0", "4.1", "4.2"] {
        for f in skel_testkit::files_with_suffix(&corpus.join(v), ".skel") {
            let bytes = std::fs::read(&f).unwrap();
            let limits = Limits::default();
            let (mut full, _) = parse_head_without_icons(&bytes, &limits).unwrap();
            let (sink, list) = recorder();
            let (mut lean, _) = parse_head_meshes(&bytes, &limits, sink).unwrap();
            let lent = std::mem::take(&mut *list.borrow_mut());
            if v == "4.2" {
                let expected = take_meshes(&mut full);
                assert!(lent == expected, "{}: lent arrays differ from the AST's", f.display());
                // The lean AST holds no arrays: emptying it again changes nothing.
                let before = format!("{lean:?}");
                assert!(take_meshes(&mut lean).iter().all(|m| m.values.is_empty()
                    && m.uvs.is_empty()
                    && m.triangles.is_empty()
                    && m.edges.is_empty()));
                assert_eq!(before, format!("{lean:?}"), "{}", f.display());
                assert_eq!(format!("{full:?}"), before, "{}: the rest differs", f.display());
                lent_files += 1;
                lent_meshes += lent.len();
            } else {
                assert!(lent.is_empty(), "{}: a {v} file lent meshes", f.display());
                assert_eq!(format!("{full:?}"), format!("{lean:?}"), "{}", f.display());
                kept_files += 1;
            }
        }
    }
    assert!(lent_files >= 20 && lent_meshes >= 400, "{lent_files} files, {lent_meshes} meshes");
    assert!(kept_files >= 20, "{kept_files} 4.0/4.1 files");
}

#[test]
fn a_damaged_file_fails_alike_with_or_without_a_sink() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let f = corpus.join("4.2/mix-and-match/mix-and-match-pro.skel");
    let bytes = std::fs::read(&f).unwrap();
    let limits = Limits::default();
    let mut compared = 0;
    // Cut short at many points, and one byte flipped in the skins.
    for cut in (0..bytes.len()).step_by(397) {
        let short = &bytes[..cut];
        let plain = parse_head_without_icons(short, &limits).map(|(s, _)| s.bones.len());
        let (sink, _) = recorder();
        let lent = parse_head_meshes(short, &limits, sink).map(|(s, _)| s.bones.len());
        assert_eq!(plain, lent, "cut at {cut}");
        compared += usize::from(plain.is_err());
    }
    for at in (bytes.len() / 4..bytes.len() / 2).step_by(211) {
        let mut bad = bytes.clone();
        bad[at] ^= 0x5a;
        let plain = parse_head_without_icons(&bad, &limits).map(|(s, _)| s.bones.len());
        let (sink, _) = recorder();
        let lent = parse_head_meshes(&bad, &limits, sink).map(|(s, _)| s.bones.len());
        assert_eq!(plain, lent, "byte {at} flipped");
    }
    assert!(compared > 100, "{compared} failing cuts");
}
