//! Prints facts for tests.
use spine_model::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let bytes = std::fs::read(&args[1]).unwrap();
    let atlas = args.get(2).map(|p| spine_format::atlas::parse(&std::fs::read_to_string(p).unwrap()).unwrap());
    let d = load_binary(&bytes, atlas.as_ref()).unwrap();
    println!("bones {} slots {} constraints {} skins {:?} attachments {} pages {:?}", d.bones.len(), d.slots.len(), d.constraints.len(), d.skins.iter().map(|s| &s.name).collect::<Vec<_>>(), d.attachments.len(), d.pages.iter().map(|p| &p.name).collect::<Vec<_>>());
    println!("first bones {:?}", d.bones.iter().take(6).map(|b| (&b.name, b.parent)).collect::<Vec<_>>());
    for a in &d.animations { println!("anim {} {} timelines {}", a.name, a.duration, a.timelines.len()); }
    for c in &d.constraints { println!("constraint {} {:?}", c.name, c.kind.constraint_type()); }
    for (i, a) in d.attachments.iter().enumerate() {
        match &a.kind {
            AttachmentKind::Region(r) if r.has_sequence => println!("seq region {i} {} {:?} {:?}", a.name, r.sequence.paths, r.sequence.regions.iter().map(|r| r.is_some()).collect::<Vec<_>>()),
            AttachmentKind::Mesh(m) if m.has_sequence || m.linked_source.is_some() => println!("mesh {i} {} seq {:?} linked {:?} tl {:?}", a.name, m.sequence.paths, m.linked_source, m.timeline_attachment),
            _ => {}
        }
    }
    for a in &d.animations { for t in &a.timelines { if let Timeline::DrawOrder { times, orders } = t { println!("draworder {} {:?} {:?}", a.name, times, orders.iter().map(|o| o.as_ref().map(|o| o.iter().map(|s| s.0).collect::<Vec<_>>())).collect::<Vec<_>>()); } } }
}
