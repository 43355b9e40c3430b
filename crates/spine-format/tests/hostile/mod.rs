//! Hostile inputs crafted in code (no licensed file is read), shared by `tests/limits.rs`,
//! `tests/json_limits.rs` and `examples/hostile_inputs.rs` (which measures their time and
//! peak memory).

#![allow(dead_code)] // each user takes what it needs

use spine_format::binary::v40::ast as v40;
use spine_format::binary::v43::{self, AttachmentKind};
use spine_format::binary::StrRef;
use spine_format::SpineVersion;

/// A 4.2 JSON skeleton with one bone `root`, one slot `s`, `attachments` as the default skin's
/// `s` slot map (the text of a JSON object) and `animations` as the `animations` object.
pub fn json_skeleton(attachments: &str, animations: &str) -> String {
    let mut t = String::with_capacity(attachments.len() + animations.len() + 200);
    t.push_str(r#"{"skeleton":{"spine":"4.2.22"},"bones":[{"name":"root"}],"#);
    t.push_str(
        r#""slots":[{"name":"s","bone":"root"}],"skins":[{"name":"default","attachments":{"s":"#,
    );
    t.push_str(attachments);
    t.push_str(r#"}}],"animations":"#);
    t.push_str(animations);
    t.push('}');
    t
}

/// `[0,0,…]` with `n` zeros, appended to `t`.
pub fn push_zeros(t: &mut String, n: usize) {
    t.push('[');
    if n > 0 {
        t.push_str(&"0,".repeat(n - 1));
        t.push('0');
    }
    t.push(']');
}

/// A mesh `m` of `vertices` unweighted vertices, all zeros (`2 × vertices` UVs and vertex
/// numbers, `vertices` triangle indices): about 10 bytes of JSON per vertex, so 3,000,000
/// vertices make 30 MB.
pub fn json_mesh(vertices: usize) -> String {
    let mut m = String::with_capacity(10 * vertices + 100);
    m.push_str(r#"{"m":{"type":"mesh","hull":3,"uvs":"#);
    push_zeros(&mut m, 2 * vertices);
    m.push_str(r#","vertices":"#);
    push_zeros(&mut m, 2 * vertices);
    m.push_str(r#","triangles":"#);
    push_zeros(&mut m, vertices);
    m.push_str("}}");
    json_skeleton(&m, "{}")
}

/// An animation `a` whose bone `root` has a rotate timeline of `n` copies of `key`.
pub fn json_keys(n: usize, key: &str) -> String {
    let mut keys = String::with_capacity(n * (key.len() + 1) + 2);
    keys.push('[');
    for i in 0..n {
        if i > 0 {
            keys.push(',');
        }
        keys.push_str(key);
    }
    keys.push(']');
    json_skeleton("{}", &format!(r#"{{"a":{{"bones":{{"root":{{"rotate":{keys}}}}}}}}}"#))
}

/// A region `r` with `"sequence": sequence` (the text of a JSON object).
pub fn json_sequence(sequence: &str) -> String {
    json_skeleton(&format!(r#"{{"r":{{"width":1,"height":1,"sequence":{sequence}}}}}"#), "{}")
}

/// A 4.0–4.2 binary skeleton (`generation`) with one bone, one slot and a default skin holding
/// one region `r` whose sequence has `count` frames and `digits` zero-padding digits.
pub fn v4x_sequence(generation: SpineVersion, count: u32, digits: u32) -> Vec<u8> {
    let v42 = generation == SpineVersion::V4_2;
    let skeleton = v40::Skeleton {
        generation,
        header: v40::Header {
            hash: [0, 0],
            version: match generation {
                SpineVersion::V4_1 => "4.1.24",
                _ => "4.2.22",
            }
            .to_owned(),
            x: 0.0,
            y: 0.0,
            width: 0.0,
            height: 0.0,
            reference_scale: v42.then_some(100.0),
            nonessential: None,
        },
        strings: vec!["r".to_owned()],
        bones: vec![v40::Bone {
            name: "root".into(),
            parent: None,
            rotation: 0.0,
            x: 0.0,
            y: 0.0,
            scale_x: 1.0,
            scale_y: 1.0,
            shear_x: 0.0,
            shear_y: 0.0,
            length: 0.0,
            inherit: v40::Inherit::Normal,
            skin_required: false,
            extras: None,
        }],
        slots: vec![v40::Slot {
            name: "s".into(),
            bone: 0,
            color: [0xff; 4],
            dark: [0xff; 4],
            attachment: StrRef::NONE,
            blend: v40::BlendMode::Normal,
            visible: None,
        }],
        ik_constraints: vec![],
        transform_constraints: vec![],
        path_constraints: vec![],
        physics_constraints: vec![],
        default_skin: Some(v40::SkinSlots {
            slots: vec![(0, 1)],
            attachments: vec![v40::SkinAttachment {
                key: StrRef(1),
                attachment: v40::Attachment {
                    // 4.2: region (type 0) with flag 64, "sequence follows"; before: the type.
                    flags: if v42 { 64 } else { v40::attachment_type::REGION },
                    name: StrRef::NONE,
                    kind: v40::AttachmentKind::Region(v40::Region {
                        path: StrRef::NONE,
                        color: [0xff; 4],
                        sequence: Some(v40::Sequence { count, start: 1, digits, setup_index: 0 }),
                        rotation: 0.0,
                        x: 0.0,
                        y: 0.0,
                        scale_x: 1.0,
                        scale_y: 1.0,
                        width: 1.0,
                        height: 1.0,
                    }),
                },
            }],
        }),
        skins: vec![],
        events: vec![],
        animations: vec![],
    };
    spine_format::binary::v40::write(&skeleton)
}

/// A generated 4.3 skeleton (spine-gen) whose every explicit sequence has `count` frames; the
/// first seed that has one.
pub fn v43_sequence(count: u32) -> Vec<u8> {
    for seed in 0..1000 {
        let mut s = spine_gen::random_skeleton(seed);
        let mut found = false;
        let skins = s.default_skin.iter_mut().chain(s.skins.iter_mut().map(|k| &mut k.slots));
        for slot in skins.flatten() {
            for e in &mut slot.attachments {
                let seq = match &mut e.attachment.kind {
                    AttachmentKind::Region(a) => &mut a.sequence,
                    AttachmentKind::Mesh(a) => &mut a.sequence,
                    AttachmentKind::LinkedMesh(a) => &mut a.sequence,
                    _ => continue,
                };
                if let Some(q) = seq {
                    q.count = count;
                    found = true;
                }
            }
        }
        if found {
            return v43::write(&s);
        }
    }
    panic!("no generated 4.3 skeleton has a sequence");
}
