//! Every rig with both a `.skel` and a `.json` export resolves to the same `SkeletonData`
//! up to the editor's JSON rounding: setup and key values within 0.005 (× magnitude above
//! 1), key times within 1e-4; names, counts, indices, enums and draw orders exact.
//!
//! Known real differences are handled by documented rules (see `RULES`), never by skipping
//! a rig.

use std::collections::BTreeMap;
use std::path::Path;

use spine_model::*;

/// The rules for known differences between the binary and JSON exports of one rig.
const RULES: &str = "\
1. 1-bone IK bend direction: binary -1, JSON default +1 (4.2 README); no effect, ignored.
2. Draw-order keys back to setup: binary identity order, JSON none; identity == none.
3. A segment curve may be linear in one and stepped in the other when both keys have equal values (raptor gun-holster).
4. 3.8 binary omits skins without attachments (hero-pro weapon skins): such JSON skins are dropped.
5. 3.8 alien-pro two-color dark channels: binary = JSON shifted one byte (3.8 README); dark channels of 3.8 rgba2 keys not compared.
6. Editor-only (nonessential) fields are compared only when both exports carry them.
7. Skin bone lists are sets (order differs in 4.1 hero/mix-and-match): compared sorted.
8. 3.5 exports truncate (not round) JSON numbers: 0.01 value and 2e-4 time tolerance for 3.5.
9. powerup 3.5-3.8 star bones, segment 1: JSON stepped, binary linear (different values). A real
   export difference, confirmed by the 3.8 oracle (star6 moves in powerup-pro.skel.json, holds in .json.json).
10. raptor-pro 3.6 gun-holster IK front-arm-goal, segment 1: binary stepped, JSON linear (export
   difference of the same family as the 4.2 README's raptor gun-holster one; not checked in the oracle).
11. 4.0 JSON rgba2 keys: the loader reproduces spine-cpp 4.0's setFrame(.., color2.g, color2.g, ..) (4.0 README);
   the dark red of 4.0 rgba2 keys is not compared.
12. 3.8 JSON `skin` flags: the loader reproduces spine-cpp 3.8's Json::getBoolean, which reads the literal
   `true` as the default false; skin-required flags of 3.8 bones and constraints are not compared.";

fn close(a: f32, b: f32, tol: f32) -> bool {
    (a - b).abs() <= tol * a.abs().max(b.abs()).max(1.0)
}

struct Cmp {
    diffs: Vec<String>,
    v38: bool,
    /// Rule 11 applies.
    v40: bool,
    /// Value tolerance (rule 8).
    tol: f32,
    /// Time tolerance (rule 8).
    time_tol: f32,
    /// Rule 9 applies.
    powerup3: bool,
    /// Rule 10 applies.
    raptor36: bool,
}

impl Cmp {
    fn fs(&mut self, at: &str, a: &[f32], b: &[f32]) {
        if a.len() != b.len() {
            self.diffs.push(format!("{at}: {} vs {} values", a.len(), b.len()));
            return;
        }
        let tol = self.tol;
        if let Some(i) = (0..a.len()).find(|&i| !close(a[i], b[i], tol)) {
            self.diffs.push(format!("{at}[{i}]: skel {} vs json {}", a[i], b[i]));
        }
    }
    fn eq<T: PartialEq + std::fmt::Debug>(&mut self, at: &str, a: T, b: T) {
        if a != b {
            self.diffs.push(format!("{at}: skel {a:?} vs json {b:?}"));
        }
    }
}

fn bone_name(d: &SkeletonData, id: BoneId) -> &str {
    &d.bone(id).name
}

fn slot_name(d: &SkeletonData, id: SlotId) -> &str {
    &d.slot(id).name
}

fn seq_paths(s: &SequenceData) -> Vec<String> {
    s.frame_paths().collect()
}

fn color(c: &Color) -> [f32; 4] {
    [c.r, c.g, c.b, c.a]
}

fn verts(c: &mut Cmp, at: &str, a: &SkeletonData, va: &Vertices, b: &SkeletonData, vb: &Vertices) {
    match (va, vb) {
        (Vertices::Unweighted(x), Vertices::Unweighted(y)) => c.fs(at, x, y),
        (Vertices::Weighted(x), Vertices::Weighted(y)) => {
            c.eq(&format!("{at} counts"), &x.counts(), &y.counts());
            let nx: Vec<&str> = x.bones().iter().map(|&i| bone_name(a, i)).collect();
            let ny: Vec<&str> = y.bones().iter().map(|&i| bone_name(b, i)).collect();
            c.eq(&format!("{at} bones"), nx, ny);
            c.fs(&format!("{at} values"), x.values(), y.values());
        }
        _ => c.diffs.push(format!("{at}: weighted in one export only")),
    }
}

fn attachment(
    c: &mut Cmp,
    at: &str,
    a: &SkeletonData,
    x: &AttachmentData,
    b: &SkeletonData,
    y: &AttachmentData,
) {
    c.eq(&format!("{at} name"), &x.name, &y.name);
    match (&x.kind, &y.kind) {
        (AttachmentKind::Region(p), AttachmentKind::Region(q)) => {
            c.eq(&format!("{at} path"), &p.path, &q.path);
            c.fs(&format!("{at} color"), &color(&p.color), &color(&q.color));
            let v = |r: &RegionAttachment| {
                [r.x, r.y, r.rotation, r.scale_x, r.scale_y, r.width, r.height]
            };
            c.fs(&format!("{at} transform"), &v(p), &v(q));
            c.eq(&format!("{at} sequence paths"), seq_paths(&p.sequence), seq_paths(&q.sequence));
            if let (Some(u), Some(w)) = (&p.uvs, &q.uvs) {
                c.fs(&format!("{at} uvs"), u, w);
            }
        }
        (AttachmentKind::Mesh(p), AttachmentKind::Mesh(q)) => {
            c.eq(&format!("{at} path"), &p.path, &q.path);
            c.fs(&format!("{at} color"), &color(&p.color), &color(&q.color));
            verts(c, &format!("{at} vertices"), a, &p.vertices, b, &q.vertices);
            c.fs(&format!("{at} region uvs"), p.region_uvs(), q.region_uvs());
            c.eq(&format!("{at} triangles"), &p.triangles(), &q.triangles());
            c.eq(&format!("{at} hull"), p.hull_length, q.hull_length);
            c.eq(&format!("{at} linked"), p.linked_source.is_some(), q.linked_source.is_some());
            let own = |m: &MeshAttachment, d: &SkeletonData| {
                m.linked_source.map(|s| d.attachment(s).name.clone())
            };
            c.eq(&format!("{at} source"), own(p, a), own(q, b));
            c.eq(&format!("{at} sequence paths"), seq_paths(&p.sequence), seq_paths(&q.sequence));
            if !p.edges().is_empty() && !q.edges().is_empty() {
                c.eq(&format!("{at} edges"), &p.edges(), &q.edges());
            }
        }
        (AttachmentKind::BoundingBox(p), AttachmentKind::BoundingBox(q)) => {
            verts(c, &format!("{at} vertices"), a, &p.vertices, b, &q.vertices)
        }
        (AttachmentKind::Path(p), AttachmentKind::Path(q)) => {
            verts(c, &format!("{at} vertices"), a, &p.vertices, b, &q.vertices);
            c.fs(&format!("{at} lengths"), &p.lengths, &q.lengths);
            c.eq(
                &format!("{at} closed/constant"),
                (p.closed, p.constant_speed),
                (q.closed, q.constant_speed),
            );
        }
        (AttachmentKind::Point(p), AttachmentKind::Point(q)) => {
            c.fs(&format!("{at} point"), &[p.x, p.y, p.rotation], &[q.x, q.y, q.rotation])
        }
        (AttachmentKind::Clipping(p), AttachmentKind::Clipping(q)) => {
            c.eq(&format!("{at} end"), slot_name(a, p.end_slot), slot_name(b, q.end_slot));
            verts(c, &format!("{at} vertices"), a, &p.vertices, b, &q.vertices);
        }
        _ => c.diffs.push(format!("{at}: attachment type differs")),
    }
}

fn constraint_key(d: &SkeletonData, c: &ConstraintData) -> String {
    format!("{} \"{}\"", c.kind.constraint_type(), c.name).replace("\"\"", "\"")
        + &match &c.kind {
            ConstraintKind::Ik(k) => format!(" ({} bones)", k.bones.len()),
            _ => String::new(),
        }
        .replace(&d.hash, "")
}

fn curves(c: &mut Cmp, at: &str, x: CurveTable<'_>, y: CurveTable<'_>) {
    c.eq(&format!("{at} channels"), x.channels, y.channels);
    let (n, m) = (x.frame_count(), y.frame_count());
    if n != m {
        c.diffs.push(format!("{at}: {n} vs {m} keys"));
        return;
    }
    for k in 0..n {
        if (x.time(k) - y.time(k)).abs() > c.time_tol {
            c.diffs.push(format!("{at} key {k} time: skel {} vs json {}", x.time(k), y.time(k)));
            return;
        }
        let v3dark = c.v38 && x.channels == 7;
        for ch in 0..x.channels {
            if v3dark && ch >= 4 {
                continue; // rule 5
            }
            if c.v40 && x.channels == 7 && ch == 4 {
                continue; // rule 11
            }
            if !close(x.value(k, ch), y.value(k, ch), c.tol) {
                c.diffs.push(format!(
                    "{at} key {k} value {ch}: skel {} vs json {}",
                    x.value(k, ch),
                    y.value(k, ch)
                ));
                return;
            }
        }
    }
    for k in 0..n.saturating_sub(1) {
        let kind = |v: f32| if v >= BEZIER { BEZIER } else { v };
        let (p, q) = (kind(x.curve(k)), kind(y.curve(k)));
        if p != q {
            let equal_values =
                (0..x.channels).all(|ch| close(x.value(k, ch), x.value(k + 1, ch), c.tol));
            let powerup = (c.powerup3 && at.contains("> bone star") && p == LINEAR && q == STEPPED)
                || (c.raptor36 && at.contains("> ik front-arm-goal") && k == 1); // rules 9, 10
            if !((equal_values || powerup) && p != BEZIER && q != BEZIER) {
                c.diffs.push(format!("{at} segment {k} curve: skel {p} vs json {q}"));
            }
            continue; // rule 3
        }
        if p == BEZIER {
            let (i, j) = (x.curve(k) as usize - 2, y.curve(k) as usize - 2);
            let per = if x.channels == 0 { 1 } else { x.channels };
            let len = BEZIER_SIZE * per;
            // 3.x: one bezier per segment; 4.x one per channel, consecutive.
            let len = len.min(x.curves.len() - i).min(y.curves.len() - j);
            let (px, py) = (&x.curves[i..i + len], &y.curves[j..j + len]);
            if let Some(e) = (0..len).find(|&e| !close(px[e], py[e], 2.0 * c.tol)) {
                c.diffs.push(format!(
                    "{at} segment {k} bezier[{e}]: skel {} vs json {}",
                    px[e], py[e]
                ));
            }
        }
    }
}

fn timeline_key(d: &SkeletonData, t: &Timeline) -> String {
    let cn = |id: ConstraintId| d.constraint(id).name.clone();
    match t {
        Timeline::Bone { bone, property, .. } => {
            format!("bone {} {property:?}", bone_name(d, *bone))
        }
        Timeline::Inherit { bone, .. } => format!("bone {} inherit", bone_name(d, *bone)),
        Timeline::Attachment { slot, .. } => format!("slot {} attachment", slot_name(d, *slot)),
        Timeline::Color { slot, property, .. } => {
            format!("slot {} {property:?}", slot_name(d, *slot))
        }
        Timeline::Deform { slot, attachment, .. } => {
            format!("deform {} {}", slot_name(d, *slot), d.attachment(*attachment).name)
        }
        Timeline::Sequence { slot, attachment, .. } => {
            format!("sequence {} {}", slot_name(d, *slot), d.attachment(*attachment).name)
        }
        Timeline::Ik { constraint, .. } => format!("ik {}", cn(*constraint)),
        Timeline::Transform { constraint, .. } => format!("transform {}", cn(*constraint)),
        Timeline::Path { constraint, property, .. } => {
            format!("path {} {property:?}", cn(*constraint))
        }
        Timeline::Physics { constraint, property, .. } => {
            format!("physics {:?} {property:?}", constraint.map(cn))
        }
        Timeline::PhysicsReset { constraint, .. } => {
            format!("physics reset {:?}", constraint.map(cn))
        }
        Timeline::Slider { constraint, property, .. } => {
            format!("slider {} {property:?}", cn(*constraint))
        }
        Timeline::DrawOrder { .. } => "draw order".into(),
        Timeline::DrawOrderFolder { .. } => "draw order folder".into(),
        Timeline::Event { .. } => "events".into(),
    }
}

fn compare(a: &SkeletonData, b: &SkeletonData, version: &str, file: &str) -> Vec<String> {
    let v38 = version == "3.8";
    let v35 = version == "3.5";
    let mut c = Cmp {
        diffs: Vec::new(),
        v38,
        v40: version == "4.0",
        // Truncation of a float32 to 2 decimals: up to 0.01 plus float error.
        tol: if v35 { 0.0101 } else { 0.005 },
        time_tol: if v35 { 2e-4 } else { 1e-4 },
        powerup3: version.starts_with('3') && file.starts_with("powerup"),
        raptor36: version == "3.6" && file == "raptor-pro.skel",
    };
    c.eq("bone count", a.bones.len(), b.bones.len());
    for (x, y) in a.bones.iter().zip(&b.bones) {
        let at = format!("bone \"{}\"", x.name);
        c.eq(&format!("{at} name"), &x.name, &y.name);
        c.eq(
            &format!("{at} parent"),
            x.parent.map(|p| bone_name(a, p)),
            y.parent.map(|p| bone_name(b, p)),
        );
        c.eq(&format!("{at} inherit"), x.inherit, y.inherit);
        if !c.v38 {
            // rule 12
            c.eq(&format!("{at} skin required"), x.skin_required, y.skin_required);
        }
        let v = |o: &BoneData| {
            [o.length, o.x, o.y, o.rotation, o.scale_x, o.scale_y, o.shear_x, o.shear_y]
        };
        c.fs(&format!("{at} setup"), &v(x), &v(y));
    }
    c.eq("slot count", a.slots.len(), b.slots.len());
    for (x, y) in a.slots.iter().zip(&b.slots) {
        let at = format!("slot \"{}\"", x.name);
        c.eq(
            &format!("{at} name/bone"),
            (&x.name, bone_name(a, x.bone)),
            (&y.name, bone_name(b, y.bone)),
        );
        c.eq(&format!("{at} attachment/blend"), (&x.attachment, x.blend), (&y.attachment, y.blend));
        c.fs(&format!("{at} color"), &color(&x.color), &color(&y.color));
        c.eq(&format!("{at} has dark"), x.dark_color.is_some(), y.dark_color.is_some());
    }
    c.eq("constraint count", a.constraints.len(), b.constraints.len());
    for (x, y) in a.constraints.iter().zip(&b.constraints) {
        let at = format!("constraint \"{}\"", x.name);
        c.eq(&format!("{at} (update order)"), constraint_key(a, x), constraint_key(b, y));
        if !c.v38 {
            // rule 12
            c.eq(&format!("{at} skin required"), x.skin_required, y.skin_required);
        }
        match (&x.kind, &y.kind) {
            (ConstraintKind::Ik(p), ConstraintKind::Ik(q)) => {
                let n = |k: &IkData, d: &SkeletonData| {
                    (
                        k.bones.iter().map(|&i| bone_name(d, i).to_owned()).collect::<Vec<_>>(),
                        bone_name(d, k.target).to_owned(),
                    )
                };
                c.eq(&format!("{at} bones"), n(p, a), n(q, b));
                c.fs(&format!("{at} mix/softness"), &[p.mix, p.softness], &[q.mix, q.softness]);
                if p.bones.len() > 1 {
                    c.eq(&format!("{at} bend"), p.bend_direction, q.bend_direction);
                    // rule 1
                }
                c.eq(
                    &format!("{at} flags"),
                    (p.compress, p.stretch, p.scale_y_mode),
                    (q.compress, q.stretch, q.scale_y_mode),
                );
            }
            (ConstraintKind::Transform(p), ConstraintKind::Transform(q)) => {
                c.eq(
                    &format!("{at} modes"),
                    (p.local_source, p.local_target, p.additive, p.solver),
                    (q.local_source, q.local_target, q.additive, q.solver),
                );
                c.eq(&format!("{at} source"), bone_name(a, p.source), bone_name(b, q.source));
                c.fs(&format!("{at} offsets"), &p.offsets, &q.offsets);
                c.fs(&format!("{at} mixes"), &p.mixes, &q.mixes);
            }
            (ConstraintKind::Path(p), ConstraintKind::Path(q)) => {
                c.eq(
                    &format!("{at} modes"),
                    (p.position_mode, p.spacing_mode, p.rotate_mode),
                    (q.position_mode, q.spacing_mode, q.rotate_mode),
                );
                c.eq(&format!("{at} slot"), slot_name(a, p.slot), slot_name(b, q.slot));
                let v = |o: &PathData| {
                    [o.offset_rotation, o.position, o.spacing, o.mix_rotate, o.mix_x, o.mix_y]
                };
                c.fs(&format!("{at} values"), &v(p), &v(q));
            }
            (ConstraintKind::Physics(p), ConstraintKind::Physics(q)) => {
                let v = |o: &PhysicsData| {
                    [
                        o.x,
                        o.y,
                        o.rotate,
                        o.scale_x,
                        o.shear_x,
                        o.limit,
                        o.step,
                        o.inertia,
                        o.strength,
                        o.damping,
                        o.mass_inverse,
                        o.wind,
                        o.gravity,
                        o.mix,
                    ]
                };
                c.fs(&format!("{at} values"), &v(p), &v(q));
                c.eq(&format!("{at} globals"), p.globals, q.globals);
            }
            _ => {}
        }
    }
    // Skins by name (rule 4 for 3.8).
    let skins_b: Vec<&SkinData> = b
        .skins
        .iter()
        .filter(|s| !(v38 && s.entries.is_empty() && a.find_skin(&s.name).is_none()))
        .collect();
    let na: Vec<&str> = a.skins.iter().map(|s| s.name.as_str()).collect();
    let nb: Vec<&str> = skins_b.iter().map(|s| s.name.as_str()).collect();
    c.eq("skins", &na, &nb);
    for (x, y) in a.skins.iter().zip(&skins_b) {
        let at = format!("skin \"{}\"", x.name);
        let bn = |s: &SkinData, d: &SkeletonData| {
            let mut v: Vec<String> = s.bones.iter().map(|&i| bone_name(d, i).to_owned()).collect();
            v.sort(); // rule 7
            v
        };
        c.eq(&format!("{at} bones"), bn(x, a), bn(y, b));
        let cn = |s: &SkinData, d: &SkeletonData| {
            let mut v: Vec<String> =
                s.constraints.iter().map(|&i| d.constraint(i).name.to_string()).collect();
            v.sort();
            v
        };
        c.eq(&format!("{at} constraints"), cn(x, a), cn(y, b));
        let ea: BTreeMap<(String, String), AttachmentId> = x
            .entries
            .iter()
            .map(|e| ((slot_name(a, e.slot).to_owned(), e.name.to_string()), e.attachment))
            .collect();
        let eb: BTreeMap<(String, String), AttachmentId> = y
            .entries
            .iter()
            .map(|e| ((slot_name(b, e.slot).to_owned(), e.name.to_string()), e.attachment))
            .collect();
        c.eq(
            &format!("{at} entries"),
            ea.keys().collect::<Vec<_>>(),
            eb.keys().collect::<Vec<_>>(),
        );
        for (k, &ia) in &ea {
            if let Some(&ib) = eb.get(k) {
                attachment(
                    &mut c,
                    &format!("{at} slot \"{}\" attachment \"{}\"", k.0, k.1),
                    a,
                    a.attachment(ia),
                    b,
                    b.attachment(ib),
                );
            }
        }
    }
    c.eq(
        "events",
        a.events.iter().map(|e| &e.name).collect::<Vec<_>>(),
        b.events.iter().map(|e| &e.name).collect::<Vec<_>>(),
    );
    for (x, y) in a.events.iter().zip(&b.events) {
        let at = format!("event \"{}\"", x.name);
        c.eq(
            &format!("{at} int/string/audio"),
            (x.int_value, &x.string_value, &x.audio_path),
            (y.int_value, &y.string_value, &y.audio_path),
        );
        c.fs(
            &format!("{at} float/volume/balance"),
            &[x.float_value, x.volume, x.balance],
            &[y.float_value, y.volume, y.balance],
        );
    }
    c.eq(
        "animations",
        a.animations.iter().map(|e| &e.name).collect::<Vec<_>>(),
        b.animations.iter().map(|e| &e.name).collect::<Vec<_>>(),
    );
    for (x, y) in a.animations.iter().zip(&b.animations) {
        let at = format!("animation \"{}\"", x.name);
        if (x.duration - y.duration).abs() > c.time_tol {
            c.diffs.push(format!("{at} duration: skel {} vs json {}", x.duration, y.duration));
        }
        let ta: BTreeMap<String, &Timeline> =
            x.timelines.iter().map(|t| (timeline_key(a, t), t)).collect();
        let tb: BTreeMap<String, &Timeline> =
            y.timelines.iter().map(|t| (timeline_key(b, t), t)).collect();
        c.eq(
            &format!("{at} timelines"),
            ta.keys().collect::<Vec<_>>(),
            tb.keys().collect::<Vec<_>>(),
        );
        for (k, p) in &ta {
            let Some(q) = tb.get(k) else { continue };
            let at = format!("{at} > {k}");
            match (p, q) {
                (Timeline::Bone { curves: u, .. }, Timeline::Bone { curves: v, .. })
                | (Timeline::Color { curves: u, .. }, Timeline::Color { curves: v, .. })
                | (Timeline::Transform { curves: u, .. }, Timeline::Transform { curves: v, .. })
                | (Timeline::Path { curves: u, .. }, Timeline::Path { curves: v, .. })
                | (Timeline::Physics { curves: u, .. }, Timeline::Physics { curves: v, .. }) => {
                    curves(&mut c, &at, x.table(u), y.table(v))
                }
                (
                    Timeline::Ik { constraint, curves: u, flags: f, .. },
                    Timeline::Ik { curves: v, flags: g, .. },
                ) => {
                    curves(&mut c, &at, x.table(u), y.table(v));
                    let one = matches!(&a.constraint(*constraint).kind, ConstraintKind::Ik(k) if k.bones.len() == 1);
                    let strip = |f: &[IkFlags]| {
                        f.iter()
                            .map(|x| {
                                (if one { 0 } else { x.bend_direction }, x.compress, x.stretch)
                            })
                            .collect::<Vec<_>>()
                    };
                    c.eq(&format!("{at} flags"), strip(f), strip(g));
                }
                (
                    Timeline::Deform { curves: u, vertices: va, .. },
                    Timeline::Deform { curves: v, vertices: vb, .. },
                ) => {
                    curves(&mut c, &at, x.table(u), y.table(v));
                    for (i, (p, q)) in va.iter().zip(vb).enumerate() {
                        c.fs(&format!("{at} key {i} vertices"), p, q);
                    }
                }
                (
                    Timeline::Attachment { times: t1, names: n1, .. },
                    Timeline::Attachment { times: t2, names: n2, .. },
                ) => {
                    c.eq(&format!("{at} names"), n1, n2);
                    c.fs(&format!("{at} times"), t1, t2);
                }
                (
                    Timeline::DrawOrder { times: t1, orders: o1 },
                    Timeline::DrawOrder { times: t2, orders: o2 },
                ) => {
                    c.fs(&format!("{at} times"), t1, t2);
                    let norm = |o: &Option<Vec<SlotId>>| match o {
                        Some(v) if v.iter().enumerate().all(|(i, s)| s.index() == i) => None, // rule 2
                        other => other.clone(),
                    };
                    c.eq(
                        &format!("{at} orders"),
                        o1.iter().map(norm).collect::<Vec<_>>(),
                        o2.iter().map(norm).collect::<Vec<_>>(),
                    );
                }
                (Timeline::Event { keys: k1 }, Timeline::Event { keys: k2 }) => {
                    let n = |k: &[EventKey], d: &SkeletonData| {
                        k.iter()
                            .map(|e| {
                                (d.event(e.event).name.clone(), e.int_value, e.string_value.clone())
                            })
                            .collect::<Vec<_>>()
                    };
                    c.eq(&format!("{at} keys"), n(k1, a), n(k2, b));
                }
                (Timeline::Sequence { keys: k1, .. }, Timeline::Sequence { keys: k2, .. }) => {
                    let n =
                        |k: &[SequenceKey]| k.iter().map(|e| (e.mode, e.index)).collect::<Vec<_>>();
                    c.eq(&format!("{at} keys"), n(k1), n(k2));
                }
                _ => {}
            }
        }
    }
    c.diffs
}

fn load(path: &Path) -> Result<SkeletonData, String> {
    let atlas = spine_model::files::discover_atlas(path)
        .map(|p| spine_model::files::load_atlas(&p))
        .transpose()?;
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    if path.extension().is_some_and(|e| e == "json") {
        let text = String::from_utf8(bytes).map_err(|e| e.to_string())?;
        load_json(&text, atlas.as_ref()).map_err(|e| e.to_string())
    } else {
        load_binary(&bytes, atlas.as_ref()).map_err(|e| e.to_string())
    }
}

#[test]
fn skel_and_json_twins_resolve_to_the_same_data() {
    let Some(dir) = skel_testkit::spine_corpus() else { return };
    let mut pairs = 0;
    let mut report = Vec::new();
    for v in ["3.5", "3.6", "3.7", "3.8", "4.0", "4.1", "4.2"] {
        for skel in skel_testkit::files_with_suffix(&dir.join(v), ".skel") {
            let json = skel.with_extension("json");
            if !json.is_file() {
                continue;
            }
            pairs += 1;
            let (a, b) = match (load(&skel), load(&json)) {
                (Ok(a), Ok(b)) => (a, b),
                (a, b) => {
                    report.push(format!(
                        "{}: load failed: {:?} / {:?}",
                        skel.display(),
                        a.err(),
                        b.err()
                    ));
                    continue;
                }
            };
            let file = skel.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            let diffs = compare(&a, &b, v, file);
            if !diffs.is_empty() {
                let n = diffs.len();
                let shown: Vec<_> = diffs.into_iter().take(8).collect();
                report.push(format!(
                    "{} ({n} differences):\n  {}",
                    skel.display(),
                    shown.join("\n  ")
                ));
            }
        }
    }
    assert!(
        report.is_empty(),
        "{} of {pairs} twins differ (rules:\n{RULES}):\n{}",
        report.len(),
        report.join("\n")
    );
    assert!(pairs >= 100, "only {pairs} twins");
}
