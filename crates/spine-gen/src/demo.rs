//! The project's own demo rig, made from scratch: a small character ("Pip") with a weighted
//! mesh tail, a deforming mesh body, two-bone IK legs, and a star-shaped clipping portal.
//!
//! [`demo_rig`] returns the Spine 4.2 JSON skeleton, the atlas text and the atlas page's
//! RGBA pixels (painted procedurally here); `cargo xtask gen-demo` writes them to
//! `crates/skel-cli/demo/` (`demo.json`, `demo.atlas`, `demo.png`). Everything is deterministic.
//!
//! Animations: `walk` (IK foot targets on loops, hip bob, arm and tail swing), `wave` (arm
//! wave, head tilt, body mesh squash via a deform timeline), `portal` (a star spinning
//! through the clipping portal, the portal pulsing, tinted stripes).

use serde_json::{json, Value};

/// The demo rig's three files.
#[derive(Debug, Clone)]
pub struct DemoRig {
    /// `demo.json`: the skeleton, Spine 4.2 JSON.
    pub skeleton_json: String,
    /// `demo.atlas`: one page, `demo.png`.
    pub atlas: String,
    /// Page width, pixels.
    pub width: u32,
    /// Page height, pixels.
    pub height: u32,
    /// Page pixels, straight RGBA8, row-major, top row first.
    pub rgba: Vec<u8>,
}

/// Page size.
const PAGE: u32 = 256;

/// Atlas regions: name, x, y, width, height.
const REGIONS: [(&str, u32, u32, u32, u32); 6] = [
    ("head", 2, 2, 64, 64),
    ("body", 70, 2, 64, 96),
    ("limb", 138, 2, 24, 72),
    ("star", 166, 2, 48, 48),
    ("stripes", 2, 102, 128, 128),
    ("tail", 138, 102, 32, 128),
];

struct Canvas {
    w: u32,
    px: Vec<u8>,
}

fn smooth_alpha(sdf_px: f32) -> f32 {
    (0.5 - sdf_px).clamp(0.0, 1.0)
}

fn mix(a: [f32; 3], b: [f32; 3], t: f32) -> [f32; 3] {
    [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t]
}

impl Canvas {
    /// Paints region `name`: `f(x, y)` gets pixel-center coordinates relative to the region's
    /// top-left corner and returns straight RGB (0..1) and alpha.
    fn paint(&mut self, name: &str, f: impl Fn(f32, f32, f32, f32) -> ([f32; 3], f32)) {
        let Some(&(_, rx, ry, rw, rh)) = REGIONS.iter().find(|r| r.0 == name) else { return };
        for y in 0..rh {
            for x in 0..rw {
                let (rgb, a) = f(x as f32 + 0.5, y as f32 + 0.5, rw as f32, rh as f32);
                let i = 4 * ((ry + y) * self.w + rx + x) as usize;
                let q = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
                self.px[i] = q(rgb[0]);
                self.px[i + 1] = q(rgb[1]);
                self.px[i + 2] = q(rgb[2]);
                self.px[i + 3] = q(a);
            }
        }
    }
}

fn rounded_rect_sdf(x: f32, y: f32, w: f32, h: f32, r: f32) -> f32 {
    let qx = (x - w / 2.0).abs() - (w / 2.0 - r);
    let qy = (y - h / 2.0).abs() - (h / 2.0 - r);
    let ox = qx.max(0.0);
    let oy = qy.max(0.0);
    (ox * ox + oy * oy).sqrt() + qx.max(qy).min(0.0) - r
}

fn star_sdf(x: f32, y: f32, cx: f32, cy: f32, r_out: f32, r_in: f32) -> f32 {
    // Approximate: radial distance to the star outline.
    let (dx, dy) = (x - cx, y - cy);
    let ang = dy.atan2(dx) + std::f32::consts::FRAC_PI_2;
    let seg = std::f32::consts::TAU / 5.0;
    let t = ((ang.rem_euclid(seg)) / seg - 0.5).abs() * 2.0; // 0 at a tip, 1 between tips
    let r = r_out + (r_in - r_out) * t;
    (dx * dx + dy * dy).sqrt() - r
}

fn paint_page() -> Vec<u8> {
    let mut c = Canvas { w: PAGE, px: vec![0; (4 * PAGE * PAGE) as usize] };
    c.paint("head", |x, y, w, h| {
        let (dx, dy) = (x - w / 2.0, y - h / 2.0);
        let d = (dx * dx + dy * dy).sqrt() - 30.0;
        let mut rgb = mix([1.0, 0.85, 0.65], [0.95, 0.65, 0.45], (y / h).clamp(0.0, 1.0));
        // Eyes and a smile.
        for ex in [22.0, 42.0] {
            let e = ((x - ex).powi(2) + (y - 28.0).powi(2)).sqrt() - 4.5;
            if e < 0.5 {
                rgb = mix(rgb, [0.1, 0.1, 0.2], smooth_alpha(e));
            }
        }
        let s = (((x - 32.0).powi(2) + (y - 36.0).powi(2)).sqrt() - 12.0).abs() - 1.5;
        if s < 0.5 && y > 40.0 {
            rgb = mix(rgb, [0.6, 0.2, 0.2], smooth_alpha(s));
        }
        let outline = d.abs() - 1.5;
        rgb = mix(rgb, [0.35, 0.2, 0.1], smooth_alpha(outline));
        (rgb, smooth_alpha(d - 1.5))
    });
    c.paint("body", |x, y, w, h| {
        let d = rounded_rect_sdf(x, y, w, h, 18.0);
        let mut rgb = mix([0.3, 0.55, 0.95], [0.15, 0.25, 0.6], y / h);
        if ((x - w / 2.0).abs() < 3.0) && y > 10.0 && y < h - 10.0 {
            rgb = [0.95, 0.85, 0.3];
        }
        rgb = mix(rgb, [0.08, 0.12, 0.3], smooth_alpha(d.abs() - 1.5));
        (rgb, smooth_alpha(d - 1.5))
    });
    c.paint("limb", |x, y, w, h| {
        let d = rounded_rect_sdf(x, y, w, h, 11.0);
        let rgb = mix([1.0, 0.6, 0.2], [0.85, 0.35, 0.1], x / w);
        let rgb = mix(rgb, [0.4, 0.15, 0.05], smooth_alpha(d.abs() - 1.2));
        (rgb, smooth_alpha(d - 1.2))
    });
    c.paint("star", |x, y, w, h| {
        let d = star_sdf(x, y, w / 2.0, h / 2.0 + 1.5, 22.0, 10.0);
        let rgb = mix([1.0, 0.95, 0.4], [1.0, 0.7, 0.1], y / h);
        let rgb = mix(rgb, [0.6, 0.35, 0.0], smooth_alpha(d.abs() - 1.2));
        (rgb, smooth_alpha(d - 1.2))
    });
    c.paint("stripes", |x, y, _w, _h| {
        let t = ((x + y) / 16.0).rem_euclid(2.0);
        let rgb = if t < 1.0 { [0.45, 0.2, 0.7] } else { [0.2, 0.8, 0.85] };
        (rgb, 1.0)
    });
    c.paint("tail", |x, y, w, h| {
        let taper = 1.0 - 0.6 * (y / h);
        let half = (w / 2.0 - 2.0) * taper;
        let d = ((x - w / 2.0).abs() - half).max(y - (h - 2.0)).max(2.0 - y);
        let rgb = mix([0.3, 0.75, 0.35], [0.1, 0.45, 0.2], y / h);
        let band = ((y / 16.0).floor() as i32) % 2 == 0;
        let rgb = if band { rgb } else { mix(rgb, [0.9, 0.9, 0.5], 0.35) };
        (rgb, smooth_alpha(d))
    });
    c.px
}

fn atlas_text() -> String {
    let mut s = format!("demo.png\n\tsize: {PAGE}, {PAGE}\n\tfilter: Linear, Linear\n");
    for (name, x, y, w, h) in REGIONS {
        s.push_str(&format!("{name}\n\tbounds: {x}, {y}, {w}, {h}\n"));
    }
    s
}

/// Rounds to 2 decimals (like the editor's JSON export).
fn r2(v: f32) -> f64 {
    (f64::from(v) * 100.0).round() / 100.0
}

/// The body: a 2 × 4 mesh (all vertices on the hull) in `torso` space (x up, y left).
fn body_mesh() -> Value {
    // Hull order: top-left, top-right, down the right side, bottom-right, bottom-left, up.
    let cells: [(f32, f32); 8] = [
        (0.0, 0.0),
        (1.0, 0.0),
        (1.0, 1.0 / 3.0),
        (1.0, 2.0 / 3.0),
        (1.0, 1.0),
        (0.0, 1.0),
        (0.0, 2.0 / 3.0),
        (0.0, 1.0 / 3.0),
    ];
    let mut uvs = Vec::new();
    let mut verts = Vec::new();
    for (u, v) in cells {
        uvs.extend([r2(u), r2(v)]);
        let (wx, wy) = ((u - 0.5) * 64.0, (1.0 - v) * 96.0 - 10.0);
        verts.extend([r2(wy), r2(-wx)]);
    }
    json!({
        "type": "mesh", "uvs": uvs, "vertices": verts, "hull": 8,
        "triangles": [0, 1, 7, 1, 2, 7, 7, 2, 6, 2, 3, 6, 6, 3, 5, 3, 4, 5],
        "width": 64, "height": 96
    })
}

/// The tail: a 2 × 5 weighted mesh over `tail1` (bone 12) and `tail2` (bone 13).
fn tail_mesh() -> Value {
    const TAIL1: usize = 12;
    const TAIL2: usize = 13;
    let weights2 = [0.0, 0.2, 0.5, 0.85, 1.0];
    // Hull order: along the top edge (c = 0) to the tip, back along the bottom edge.
    let mut order: Vec<(usize, usize)> = (0..5).map(|r| (r, 0)).collect();
    order.extend((0..5).rev().map(|r| (r, 1)));
    let mut uvs = Vec::new();
    let mut verts: Vec<f64> = Vec::new();
    for &(r, c) in &order {
        let d = r as f32 * 30.0;
        let across = if c == 0 { 12.0 - r as f32 * 1.5 } else { -12.0 + r as f32 * 1.5 };
        let (wx, wy) = (-20.0 - d, 120.0 + across);
        uvs.extend([r2(c as f32), r2(r as f32 / 4.0)]);
        let w2 = weights2[r];
        let local1 = (-(wx + 20.0), -(wy - 120.0));
        let local2 = (-(wx + 80.0), -(wy - 120.0));
        let mut infl = Vec::new();
        if w2 < 1.0 {
            infl.push((TAIL1, local1, 1.0 - w2));
        }
        if w2 > 0.0 {
            infl.push((TAIL2, local2, w2));
        }
        verts.push(infl.len() as f64);
        for (b, (x, y), w) in infl {
            verts.extend([b as f64, r2(x), r2(y), r2(w)]);
        }
    }
    // Triangles between the two edges: top vertex r is r, bottom vertex r is 9 - r.
    let mut tris = Vec::new();
    for r in 0..4u32 {
        let (t0, t1, b0, b1) = (r, r + 1, 9 - r, 8 - r);
        tris.extend([t0, t1, b0, t1, b1, b0]);
    }
    json!({
        "type": "mesh", "uvs": uvs, "vertices": verts, "hull": 10, "triangles": tris,
        "width": 32, "height": 128
    })
}

/// A five-pointed star polygon (concave), `n` = 10 vertices, counter-clockwise.
fn star_polygon(r_out: f32, r_in: f32) -> Vec<f64> {
    let mut v = Vec::new();
    for k in 0..10 {
        let a = std::f32::consts::FRAC_PI_2 + k as f32 * std::f32::consts::PI / 5.0;
        let r = if k % 2 == 0 { r_out } else { r_in };
        v.extend([r2(r * a.cos()), r2(r * a.sin())]);
    }
    v
}

fn limb(length: f32) -> Value {
    json!({"limb": {"x": r2(length / 2.0), "rotation": -90, "width": 24, "height": length + 12.0}})
}

/// The demo skeleton as Spine 4.2 JSON: setup pose, one skin, IK, three animations.
fn skeleton_json() -> Value {
    let bones = bones_json();
    let slots = slots_json();
    let attachments = attachments_json();
    let ik = ik_json();
    let (walk, wave, portal) = (walk_json(), wave_json(), portal_json());
    json!({
        "skeleton": {
            "hash": "skel-demo-pip", "spine": "4.2.22", "x": -120, "y": 0, "width": 380, "height": 290,
            "images": "./", "audio": ""
        },
        "bones": bones,
        "slots": slots,
        "ik": ik,
        "skins": [{"name": "default", "attachments": attachments}],
        "animations": {"walk": walk, "wave": wave, "portal": portal}
    })
}

/// The bones: a biped with a tail, and a portal with its star.
fn bones_json() -> Value {
    json!([
        {"name": "root"},
        {"name": "hip", "parent": "root", "y": 120},
        {"name": "torso", "parent": "hip", "y": 10, "rotation": 90, "length": 80},
        {"name": "head", "parent": "torso", "x": 96, "rotation": -90, "length": 40},
        {"name": "arm-l", "parent": "torso", "x": 70, "y": 30, "rotation": 160, "length": 60},
        {"name": "arm-r", "parent": "torso", "x": 70, "y": -30, "rotation": -160, "length": 60},
        {"name": "thigh-l", "parent": "hip", "x": -14, "y": -4, "rotation": -95, "length": 58},
        {"name": "shin-l", "parent": "thigh-l", "x": 58, "rotation": 10, "length": 58},
        {"name": "thigh-r", "parent": "hip", "x": 14, "y": -4, "rotation": -85, "length": 58},
        {"name": "shin-r", "parent": "thigh-r", "x": 58, "rotation": -10, "length": 58},
        {"name": "foot-l", "parent": "root", "x": -22, "y": 6},
        {"name": "foot-r", "parent": "root", "x": 22, "y": 6},
        {"name": "tail1", "parent": "hip", "x": -20, "rotation": 180, "length": 60},
        {"name": "tail2", "parent": "tail1", "x": 60, "length": 60},
        {"name": "portal", "parent": "root", "x": 170, "y": 150},
        {"name": "star", "parent": "portal"}
    ])
}

/// The slots, in draw order (the portal behind the character).
fn slots_json() -> Value {
    json!([
        {"name": "portal-clip", "bone": "portal", "attachment": "portal-clip"},
        {"name": "stripes", "bone": "portal", "attachment": "stripes"},
        {"name": "star", "bone": "star", "attachment": "star", "blend": "additive"},
        {"name": "tail", "bone": "hip", "attachment": "tail"},
        {"name": "thigh-l", "bone": "thigh-l", "attachment": "limb", "color": "d0d0d0ff"},
        {"name": "shin-l", "bone": "shin-l", "attachment": "limb", "color": "d0d0d0ff"},
        {"name": "arm-l", "bone": "arm-l", "attachment": "limb", "color": "d0d0d0ff"},
        {"name": "body", "bone": "torso", "attachment": "body"},
        {"name": "head", "bone": "head", "attachment": "head", "dark": "202040"},
        {"name": "thigh-r", "bone": "thigh-r", "attachment": "limb"},
        {"name": "shin-r", "bone": "shin-r", "attachment": "limb"},
        {"name": "arm-r", "bone": "arm-r", "attachment": "limb"}
    ])
}

/// The default skin's attachments: clipping, regions and meshes.
fn attachments_json() -> Value {
    json!({
        "portal-clip": {"portal-clip": {
            "type": "clipping", "end": "star", "vertexCount": 10,
            "vertices": star_polygon(80.0, 38.0), "color": "ce3a3aff"
        }},
        "stripes": {"stripes": {"width": 170, "height": 170, "rotation": 10}},
        "star": {"star": {"width": 64, "height": 64}},
        "tail": {"tail": tail_mesh()},
        "thigh-l": limb(58.0),
        "shin-l": limb(58.0),
        "arm-l": limb(60.0),
        "thigh-r": limb(58.0),
        "shin-r": limb(58.0),
        "arm-r": limb(60.0),
        "body": {"body": body_mesh()},
        "head": {"head": {"y": 8, "width": 64, "height": 64}}
    })
}

/// Two-bone IK for each leg.
fn ik_json() -> Value {
    json!([
        {"name": "leg-l", "order": 0, "bones": ["thigh-l", "shin-l"], "target": "foot-l", "bendPositive": false},
        {"name": "leg-r", "order": 1, "bones": ["thigh-r", "shin-r"], "target": "foot-r", "bendPositive": false}
    ])
}

/// A foot's circular step at `phase` of the 1 s walk cycle.
fn foot(phase: f32) -> Value {
    let keys: Vec<Value> = (0..=8)
        .map(|k| {
            let t = k as f32 / 8.0;
            let a = (t + phase) * std::f32::consts::TAU;
            json!({"time": r2(t), "x": r2(28.0 * a.cos()), "y": r2((18.0 * a.sin()).max(0.0))})
        })
        .collect();
    json!({"translate": keys})
}

/// A rotate timeline swinging `amp` degrees sinusoidally from `phase`, `n` keys over `dur` s.
fn swing(amp: f32, phase: f32, n: usize, dur: f32) -> Value {
    let keys: Vec<Value> = (0..=n)
        .map(|k| {
            let t = k as f32 / n as f32;
            json!({"time": r2(t * dur), "value": r2(amp * ((t + phase) * std::f32::consts::TAU).sin())})
        })
        .collect();
    json!({"rotate": keys})
}

/// walk: 1 s loop.
fn walk_json() -> Value {
    json!({
        "bones": {
            "foot-l": foot(0.0),
            "foot-r": foot(0.5),
            "hip": {"translate": [
                {"time": 0, "y": 0}, {"time": 0.25, "y": 6}, {"time": 0.5, "y": 0},
                {"time": 0.75, "y": 6}, {"time": 1, "y": 0}
            ]},
            "arm-l": swing(25.0, 0.0, 8, 1.0),
            "arm-r": swing(25.0, 0.5, 8, 1.0),
            "tail1": swing(12.0, 0.25, 4, 1.0),
            "tail2": swing(20.0, 0.0, 4, 1.0)
        }
    })
}

/// wave: 1.2 s; arm up and waving, head tilt, body squash (deform).
fn wave_json() -> Value {
    let squash: Vec<f64> = {
        // Offsets in torso space (x up, y left): the top row comes down, the sides bulge.
        let rows = [
            (0.0, 1.0),
            (1.0, 1.0),
            (1.0, 2.0 / 3.0),
            (1.0, 1.0 / 3.0),
            (1.0, 0.0),
            (0.0, 0.0),
            (0.0, 1.0 / 3.0),
            (0.0, 2.0 / 3.0),
        ];
        rows.iter()
            .flat_map(|&(side, up): &(f32, f32)| {
                let dx = -8.0 * up; // down
                let bulge = 6.0 * (1.0 - (up - 0.5).abs() * 2.0);
                let dy = if side > 0.5 { -bulge } else { bulge };
                [r2(dx), r2(dy)]
            })
            .collect()
    };
    json!({
        "bones": {
            "arm-r": {"rotate": [
                {"time": 0, "value": 0},
                {"time": 0.3, "value": 120},
                {"time": 0.45, "value": 95},
                {"time": 0.6, "value": 125},
                {"time": 0.75, "value": 95},
                {"time": 0.9, "value": 120},
                {"time": 1.2, "value": 0}
            ]},
            "head": {"rotate": [{"time": 0, "value": 0}, {"time": 0.6, "value": -12}, {"time": 1.2, "value": 0}]},
            "tail1": swing(10.0, 0.0, 4, 1.2)
        },
        "attachments": {"default": {"body": {"body": {"deform": [
            {"time": 0},
            {"time": 0.6, "vertices": squash},
            {"time": 1.2}
        ]}}}}
    })
}

/// portal: 2 s; the star orbits and spins through the clip, the portal pulses.
fn portal_json() -> Value {
    let orbit: Vec<Value> = (0..=8)
        .map(|k| {
            let t = k as f32 / 8.0;
            let a = t * std::f32::consts::TAU;
            json!({"time": r2(t * 2.0), "x": r2(60.0 * a.cos()), "y": r2(45.0 * a.sin())})
        })
        .collect();
    json!({
        "bones": {
            "star": {
                "translate": orbit,
                "rotate": [{"time": 0, "value": 0}, {"time": 1, "value": -180}, {"time": 2, "value": -360}]
            },
            "portal": {"scale": [
                {"time": 0, "x": 1, "y": 1}, {"time": 1, "x": 1.15, "y": 1.15}, {"time": 2, "x": 1, "y": 1}
            ]},
            "head": {"rotate": [{"time": 0, "value": 0}, {"time": 1, "value": 10}, {"time": 2, "value": 0}]}
        },
        "slots": {
            "stripes": {"rgba": [
                {"time": 0, "color": "ffffffff"}, {"time": 1, "color": "ff9fd0ff"}, {"time": 2, "color": "ffffffff"}
            ]}
        }
    })
}

/// The demo rig (deterministic).
pub fn demo_rig() -> DemoRig {
    let mut skeleton_json = serde_json::to_string_pretty(&skeleton_json()).unwrap_or_default();
    skeleton_json.push('\n');
    DemoRig { skeleton_json, atlas: atlas_text(), width: PAGE, height: PAGE, rgba: paint_page() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_rig_is_deterministic_and_complete() {
        let a = demo_rig();
        let b = demo_rig();
        assert_eq!(a.skeleton_json, b.skeleton_json);
        assert_eq!(a.rgba, b.rgba);
        assert_eq!(a.rgba.len(), (4 * a.width * a.height) as usize);
        for (name, ..) in REGIONS {
            assert!(a.atlas.contains(&format!("{name}\n")), "{name}");
        }
        let v: Value = serde_json::from_str(&a.skeleton_json).unwrap();
        assert_eq!(v["bones"][12]["name"], "tail1");
        assert_eq!(v["bones"][13]["name"], "tail2");
        assert_eq!(v["animations"].as_object().unwrap().len(), 3);
        // Every region has opaque pixels somewhere.
        for (name, x, y, w, h) in REGIONS {
            let opaque = (y..y + h)
                .flat_map(|yy| (x..x + w).map(move |xx| (xx, yy)))
                .filter(|&(xx, yy)| a.rgba[(4 * (yy * a.width + xx) + 3) as usize] == 255)
                .count();
            assert!(opaque > 100, "{name}: {opaque} opaque pixels");
        }
    }
}
