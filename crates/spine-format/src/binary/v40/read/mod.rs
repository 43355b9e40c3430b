//! The 4.0–4.2 reader: header, setup data, skins and attachments (nom, see `binary::wire`).
//! Animations are read by [`super::read_anim`].

use nom::combinator::cond;
use nom::Parser;

use crate::binary::prim::StrRef;
use crate::binary::shared::sequence as wire_sequence;
use crate::binary::wire::{
    bool, check_count, count, each, enum_varint, f32, f32_vec, f32s, f32s_into, i32, i8, index,
    index_f32x3, indices, into_binary, items, list, name, named, opt_f32, opt_rgba, rgba, section,
    str, str_ref, string, u16, u8, varint, varint_signed, varints_into, In, Lim, PErr, Res,
};
use crate::error::{BinaryError, BinaryErrorKind};
use crate::Limits;
use crate::SpineVersion;

use super::ast::*;
use super::meshes::{MeshScratch, MeshSink};
use super::stream::{Animations, AstSink};

mod attachments;
mod bones;
mod constraints;
mod lent_mesh;
mod skins;

use attachments::attachment;
use bones::{bone, slot};
use constraints::{ik, path, physics, transform};
use skins::all_skins;

/// What the rest of the file is checked against: the version and what has been read so far.
pub(super) struct Ctx {
    pub lim: Lim,
    /// The file length (for error offsets).
    pub total: usize,
    pub gen: SpineVersion,
    pub nonessential: bool,
    /// Whether bone icons are copied into the AST (else read, checked and left `None`).
    pub keep_icons: bool,
    pub strings: usize,
    pub bones: usize,
    pub slots: usize,
    pub ik: usize,
    pub transform: usize,
    pub path: usize,
    pub physics: usize,
    pub skins: usize,
    /// Per event: whether it has an audio path (event keys then carry volume and balance).
    pub event_audio: Vec<bool>,
    /// Scratch for the bones of weighted vertices' influences (reused from mesh to mesh).
    pub weight_bones: std::cell::Cell<Vec<u32>>,
    /// Scratch for `x, y, weight` of weighted vertices' influences.
    pub weight_values: std::cell::Cell<Vec<f32>>,
    /// Where 4.2 meshes' arrays go in a lean head read (`None`: into the AST).
    pub mesh_sink: std::cell::Cell<Option<MeshSink>>,
    /// The buffers a mesh lent to [`Ctx::mesh_sink`] is read into.
    pub mesh_scratch: std::cell::Cell<MeshScratch>,
    /// Scratch for the attachments of a skin (reused from skin to skin).
    pub skin_attachments: std::cell::Cell<Vec<SkinAttachment>>,
    /// Scratch for the keys of an attachment timeline handed to a sink.
    pub attachment_keys: std::cell::Cell<Vec<super::animation::AttachmentKey>>,
}

impl Ctx {
    /// The context of a file of `total` bytes before its string table is read.
    fn new(lim: Lim, total: usize, gen: SpineVersion, nonessential: bool, keep_icons: bool) -> Ctx {
        Ctx {
            lim,
            total,
            gen,
            nonessential,
            keep_icons,
            strings: 0,
            bones: 0,
            slots: 0,
            ik: 0,
            transform: 0,
            path: 0,
            physics: 0,
            skins: 0,
            event_audio: Vec::new(),
            weight_bones: Default::default(),
            weight_values: Default::default(),
            mesh_sink: Default::default(),
            mesh_scratch: Default::default(),
            skin_attachments: Default::default(),
            attachment_keys: Default::default(),
        }
    }

    pub fn v41(&self) -> bool {
        self.gen >= SpineVersion::V4_1
    }

    pub fn v42(&self) -> bool {
        self.gen >= SpineVersion::V4_2
    }
}

/// Parses a whole 4.0–4.2 file.
pub(super) fn parse(bytes: &[u8], limits: Limits) -> Result<Skeleton, BinaryError> {
    let (mut skeleton, mut animations) = parse_head(bytes, limits, true, None)?;
    skeleton.animations.reserve_exact(animations.len());
    skeleton.strings = animations.strings().iter().map(|s| (*s).to_owned()).collect();
    let mut sink = AstSink::default();
    while animations.read_next(&mut sink)? {
        skeleton.animations.extend(sink.take());
    }
    Ok(skeleton)
}

/// Reads everything before the animations; the returned [`Animations`] is at the first
/// animation (inside the "animations" section). The skeleton's `strings` are left empty
/// (the table, borrowed from `bytes`, is [`Animations::strings`]).
pub(super) fn parse_head(
    bytes: &[u8],
    limits: Limits,
    keep_icons: bool,
    sink: Option<MeshSink>,
) -> Result<(Skeleton, Animations<'_>), BinaryError> {
    let lim = Lim::new(limits);
    lim.check_file_size(bytes)?;
    match head(lim, keep_icons, sink, bytes) {
        Ok((rest, (skeleton, c, table, n))) => {
            // The sink is the caller's: dropped here, not kept with the animations.
            drop((c.mesh_sink.take(), c.mesh_scratch.take()));
            Animations::new(rest, bytes.len(), c, table, n).map(|a| (skeleton, a))
        }
        Err(e) => Err(into_binary(e, bytes.len())),
    }
}

/// The string table when every length takes one byte, no entry is null or
/// over the string limit, all the bytes are there and the whole table is valid UTF-8 (the
/// usual file): one UTF-8 check for the table instead of one per string. `None` (nothing
/// read) sends the caller to the checked path, which reads the same strings and reports any
/// error. (Each length byte is ASCII, so every entry starts and ends on a char boundary.)
#[inline(never)]
fn string_table_fast<'a>(lim: &Lim, i: In<'a>) -> Option<(In<'a>, Vec<&'a str>)> {
    let (body, n) = varint(i).ok()?;
    let n = n as usize;
    if n as u64 > lim.min_count() || n > body.len() {
        return None;
    }
    let start = i.len() - body.len();
    // Pass 1: the table's end, every length checked.
    let max = lim.limits.max_string_bytes;
    let mut end = start;
    for _ in 0..n {
        let len = usize::from(*i.get(end)?);
        if len == 0 || len >= 0x80 || len - 1 > max {
            return None;
        }
        end += len;
    }
    let (head, rest) = i.split_at_checked(end)?;
    let table = head.get(start..)?;
    let text = std::str::from_utf8(table).ok()?;
    // Pass 2: the entries, sliced from the checked text.
    let mut strings = Vec::with_capacity(n);
    let mut at = 0;
    for _ in 0..n {
        let len = usize::from(*table.get(at)?);
        strings.push(text.get(at + 1..at + len)?);
        at += len;
    }
    Some((rest, strings))
}

/// The header and the setup sections, up to the animation count.
#[allow(clippy::type_complexity)]
fn head(
    lim: Lim,
    keep_icons: bool,
    sink: Option<MeshSink>,
    i: In<'_>,
) -> Res<'_, (Skeleton, Ctx, Vec<&str>, usize)> {
    let total = i.len();
    let (i, (gen, header)) = header(&lim, i)?;
    let mut c = Ctx::new(lim, total, gen, header.nonessential.is_some(), keep_icons);
    c.mesh_sink.set(sink);

    let (i, table) = section("strings", |i| match string_table_fast(&c.lim, i) {
        Some(done) => Ok(done),
        None => list(&c.lim, "string", 1, Some("strings"), |at, _| match str(&c.lim)(at)? {
            (i, Some(s)) => Ok((i, s)),
            (_, None) => Err(PErr::invalid(at, "string table entry is null")),
        })(i),
    })
    .parse(i)?;
    c.strings = table.len();

    let (i, bones) =
        section("bones", list(&c.lim, "bone", 38, Some("bones"), |i, k| bone(&c, i, k)))
            .parse(i)?;
    c.bones = bones.len();
    let (i, slots) =
        section("slots", list(&c.lim, "slot", 12, Some("slots"), |i, _| slot(&c, i))).parse(i)?;
    c.slots = slots.len();
    let (i, ik_constraints) = section(
        "ik constraints",
        list(&c.lim, "ik constraint", 5, Some("ik constraints"), |i, _| ik(&c, i)),
    )
    .parse(i)?;
    c.ik = ik_constraints.len();
    let (i, transform_constraints) = section(
        "transform constraints",
        list(&c.lim, "transform constraint", 6, Some("transform constraints"), |i, _| {
            transform(&c, i)
        }),
    )
    .parse(i)?;
    c.transform = transform_constraints.len();
    let (i, path_constraints) = section(
        "path constraints",
        list(&c.lim, "path constraint", 26, Some("path constraints"), |i, _| path(&c, i)),
    )
    .parse(i)?;
    c.path = path_constraints.len();
    let (i, physics_constraints) = cond(
        c.v42(),
        section(
            "physics constraints",
            list(&c.lim, "physics constraint", 31, Some("physics constraints"), |i, _| {
                physics(&c, i)
            }),
        ),
    )
    .parse(i)?;
    let physics_constraints = physics_constraints.unwrap_or_default();
    c.physics = physics_constraints.len();

    let (i, (default_skin, skins)) = all_skins(&c, &table, i)?;
    c.skins = skins.len() + usize::from(default_skin.is_some());

    let (i, events) =
        section("events", list(&c.lim, "event", 8, Some("events"), |i, _| event(&c, i, &table)))
            .parse(i)?;
    c.event_audio = events.iter().map(|e| e.audio.is_some()).collect();

    let (i, n) = section("animations", count(&c.lim, "animation", 11)).parse(i)?;
    let skeleton = Skeleton {
        generation: gen,
        header,
        strings: Vec::new(),
        bones,
        slots,
        ik_constraints,
        transform_constraints,
        path_constraints,
        physics_constraints,
        default_skin,
        skins,
        events,
        animations: Vec::new(),
    };
    Ok((i, (skeleton, c, table, n)))
}

/// The header: hash, version (4.0–4.2 only), bounds, reference scale (4.2) and the
/// nonessential fields.
fn header<'a>(lim: &Lim, i: In<'a>) -> Res<'a, (SpineVersion, Header)> {
    let (i, (hash_high, hash_low)) = (i32, i32).parse(i)?;
    let version_at = i;
    let (i, version) = name(lim, "version")(version_at)?;
    let version = version.to_owned();
    let gen = match crate::binary::generation_of(&version) {
        Some(g @ (SpineVersion::V4_0 | SpineVersion::V4_1 | SpineVersion::V4_2)) => g,
        _ => {
            return Err(PErr::at(
                version_at,
                BinaryErrorKind::UnsupportedVersion { found: version, supported: "4.0, 4.1, 4.2" },
            ))
        }
    };
    let (i, [x, y, width, height]) = f32s(i)?;
    let (i, reference_scale) = opt_f32(gen >= SpineVersion::V4_2)(i)?;
    let (i, nonessential) = bool(i)?;
    let (i, nonessential) = cond(nonessential, |i| {
        let (i, fps) = f32(i)?;
        let (i, images_path) = string(lim)(i)?;
        let (i, audio_path) = string(lim)(i)?;
        Ok((i, HeaderExtras { fps, images_path, audio_path }))
    })
    .parse(i)?;
    let hash = [hash_high, hash_low];
    let header = Header { hash, version, x, y, width, height, reference_scale, nonessential };
    Ok((i, (gen, header)))
}

/// Runs `f` naming the item `name` when the reference resolves, else fails with `null` (an
/// item's name that must be present, 4.0/4.1).
fn named_ref<'a, T>(
    table: &[&str],
    what: &'static str,
    name: StrRef,
    at: In<'a>,
    i: In<'a>,
    f: impl FnOnce(In<'a>) -> Res<'a, T>,
) -> Res<'a, T> {
    match name.index().and_then(|k| table.get(k)) {
        Some(s) => named(s, i, f),
        None => Err(PErr::invalid(at, format!("{what} name is null"))),
    }
}

fn event<'a>(c: &Ctx, at: In<'a>, table: &[&str]) -> Res<'a, EventData> {
    let rest = |i| {
        let (i, int) = varint_signed(i)?;
        let (i, float) = f32(i)?;
        let (i, string) = string(&c.lim)(i)?;
        let (i, path) = crate::binary::wire::string(&c.lim)(i)?;
        let (i, vb) = cond(path.is_some(), f32s::<2>).parse(i)?;
        let audio =
            path.zip(vb).map(|(path, [volume, balance])| EventAudio { path, volume, balance });
        Ok((i, (int, float, string, audio)))
    };
    let (i, (name, (int, float, string, audio))) = if c.v42() {
        let (i, n) = name(&c.lim, "event")(at)?;
        let (i, r) = named(n, i, rest)?;
        (i, (Name::Inline(n.to_owned()), r))
    } else {
        let (i, n) = str_ref(c.strings)(at)?;
        let (i, r) = named_ref(table, "event", n, at, i, rest)?;
        (i, (Name::Ref(n), r))
    };
    Ok((i, EventData { name, int, float, string, audio }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A string table: the count, then each entry's length + 1 and bytes.
    fn table(entries: &[&str], count: usize) -> Vec<u8> {
        let mut out = Vec::new();
        let mut n = count;
        while n >= 0x80 {
            out.push((n & 0x7f) as u8 | 0x80);
            n >>= 7;
        }
        out.push(n as u8);
        for e in entries {
            out.push(e.len() as u8 + 1);
            out.extend(e.as_bytes());
        }
        out.extend([0xAB, 0xCD]); // what follows the table
        out
    }

    /// The one-check path reads the tables the checked path reads (a two-byte count,
    /// multi-byte UTF-8, empty entries) and declines every table the checked one rejects.
    #[test]
    fn fast_string_table_agrees_with_the_checked_one() {
        let lim = Lim::new(Limits::default());
        fn checked<'a>(lim: &Lim, i: In<'a>) -> Res<'a, Vec<&'a str>> {
            list(lim, "string", 1, None, |at, _| match str(lim)(at)? {
                (i, Some(s)) => Ok((i, s)),
                (_, None) => Err(PErr::invalid(at, "null")),
            })(i)
        }
        let many: Vec<String> = (0..200).map(|k| format!("name-{k}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        for entries in [&["a", "", "héllo", "日本"][..], &many, &[]] {
            let bytes = table(entries, entries.len());
            let (rest, fast) = string_table_fast(&lim, &bytes).unwrap();
            let (rest2, slow) = checked(&lim, &bytes).unwrap();
            assert_eq!((rest, &fast), (rest2, &slow));
            assert_eq!(fast, entries);
        }
        // Invalid UTF-8, a null entry, a truncated table: declined (and rejected).
        let mut bad = table(&["ab"], 1);
        bad[2] = 0xFF;
        let null = [1u8, 0];
        let short = &table(&["abc"], 1)[..3];
        for b in [&bad[..], &null, short] {
            assert!(string_table_fast(&lim, b).is_none());
            assert!(checked(&lim, b).is_err());
        }
    }
}
