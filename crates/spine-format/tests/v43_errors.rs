//! Malformed 4.3 input: each error names its kind, the byte offset and the section path.

use spine_format::binary::v43;
use spine_format::BinaryErrorKind;

/// A tiny big-endian byte builder mirroring the wire primitives.
#[derive(Default)]
struct B(Vec<u8>);

impl B {
    fn u8(&mut self, v: u8) -> &mut Self {
        self.0.push(v);
        self
    }
    fn i32(&mut self, v: i32) -> &mut Self {
        self.0.extend_from_slice(&v.to_be_bytes());
        self
    }
    fn f32(&mut self, v: f32) -> &mut Self {
        self.0.extend_from_slice(&v.to_be_bytes());
        self
    }
    fn varint(&mut self, mut v: u32) -> &mut Self {
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.0.push(b);
                return self;
            }
            self.0.push(b | 0x80);
        }
    }
    fn str(&mut self, s: &str) -> &mut Self {
        self.varint(s.len() as u32 + 1);
        self.0.extend_from_slice(s.as_bytes());
        self
    }
    fn pos(&self) -> usize {
        self.0.len()
    }
    /// Hashes, version, bounds, reference scale, essential-only flag.
    fn header(&mut self, version: &str) -> &mut Self {
        self.i32(1).i32(2).str(version);
        for _ in 0..5 {
            self.f32(1.0);
        }
        self.u8(0)
    }
    /// One bone named `name` with the given inherit byte.
    fn bone(&mut self, name: &str, inherit: u8) -> &mut Self {
        self.str(name);
        for _ in 0..7 {
            self.f32(0.0);
        }
        self.u8(inherit).f32(10.0).u8(0)
    }
    /// An animation with every section empty.
    fn empty_animation(&mut self, name: &str) -> &mut Self {
        self.str(name).varint(0);
        for _ in 0..11 {
            self.u8(0);
        }
        self
    }
}

/// A complete valid file: one bone, one slot, no constraints/skins/events, one animation.
fn valid() -> B {
    let mut b = B::default();
    b.header("4.3.39").varint(0).varint(1).bone("root", 0);
    b.varint(1).str("body").varint(0).i32(-1).i32(-1).varint(0).varint(0);
    b.varint(0).varint(0).varint(0).varint(0);
    b.varint(1).empty_animation("idle");
    b
}

#[test]
fn the_valid_baseline_parses() {
    let s = v43::parse(&valid().0).expect("baseline parses");
    assert_eq!(s.bones[0].name, "root");
    assert_eq!(s.slots[0].dark_rgb(), None);
    assert_eq!(s.animations[0].name, "idle");
    assert_eq!(v43::write(&s), valid().0);
}

#[test]
fn version_not_4_3_is_an_error_naming_the_version() {
    let mut b = B::default();
    b.header("4.2.11");
    let e = v43::parse(&b.0).unwrap_err();
    assert_eq!(
        e.kind,
        BinaryErrorKind::UnsupportedVersion { found: "4.2.11".into(), supported: "4.3" }
    );
    assert_eq!(e.offset, 8);
    assert_eq!(e.section, "header");
    assert!(e.to_string().contains("4.2.11"));
}

#[test]
fn varint_longer_than_five_bytes() {
    let mut b = B::default();
    b.header("4.3.1");
    let at = b.pos();
    b.u8(0xff).u8(0xff).u8(0xff).u8(0xff).u8(0xff).u8(0x01);
    let e = v43::parse(&b.0).unwrap_err();
    assert_eq!(e.kind, BinaryErrorKind::VarintTooLong);
    assert_eq!(e.offset, at);
    assert_eq!(e.section, "strings");
}

#[test]
fn bad_enum_value() {
    let mut b = B::default();
    b.header("4.3.1").varint(0).varint(1);
    let at = b.pos() + 6 + 28; // name "root" (5 bytes + length) and seven floats
    b.bone("root", 9);
    let e = v43::parse(&b.0).unwrap_err();
    assert_eq!(e.kind, BinaryErrorKind::BadEnum { what: "inherit", value: 9 });
    assert_eq!(e.offset, at - 1);
    assert_eq!(e.section, "bones > bones[0] \"root\"");
}

#[test]
fn index_out_of_range() {
    let mut b = B::default();
    b.header("4.3.1").varint(0).varint(1).bone("root", 0);
    b.varint(1).str("body");
    let at = b.pos();
    b.varint(5).i32(-1).i32(-1).varint(0).varint(0);
    let e = v43::parse(&b.0).unwrap_err();
    assert_eq!(e.kind, BinaryErrorKind::IndexOutOfRange { what: "bone", index: 5, len: 1 });
    assert_eq!(e.offset, at);
    assert_eq!(e.section, "slots > slots[0] \"body\"");
}

#[test]
fn non_utf8_string() {
    let mut b = B::default();
    b.header("4.3.1").varint(0).varint(1);
    let at = b.pos();
    b.varint(3).u8(0xc3).u8(0x28);
    b.0.extend_from_slice(&[0; 40]); // enough input for the bone count check
    let e = v43::parse(&b.0).unwrap_err();
    assert_eq!(e.kind, BinaryErrorKind::InvalidUtf8);
    assert_eq!(e.offset, at);
    assert_eq!(e.section, "bones > bones[0]");
}

#[test]
fn count_larger_than_the_remaining_bytes() {
    let mut b = B::default();
    b.header("4.3.1").varint(0).varint(1).bone("root", 0);
    b.varint(0).varint(0).varint(0).varint(0); // slots, constraints, default skin, skins
    let at = b.pos();
    b.varint(1_000_000).u8(0).u8(0);
    let e = v43::parse(&b.0).unwrap_err();
    assert_eq!(
        e.kind,
        BinaryErrorKind::CountTooLarge { what: "event", count: 1_000_000, remaining: 2 }
    );
    assert_eq!(e.offset, at);
    assert_eq!(e.section, "events");
}

#[test]
fn trailing_bytes_after_the_slider_indices() {
    let mut b = valid();
    let end = b.pos();
    b.u8(0);
    let e = v43::parse(&b.0).unwrap_err();
    assert_eq!(e.kind, BinaryErrorKind::TrailingBytes { count: 1 });
    assert_eq!(e.offset, end);
    assert_eq!(e.section, "header", "after the last section the path is back at the top");
}

#[test]
fn errors_deep_in_animations_name_the_whole_path() {
    let mut b = B::default();
    b.header("4.3.1").varint(0).varint(1).bone("root", 0);
    b.varint(0).varint(0).varint(0).varint(0).varint(0);
    b.varint(1).str("run").varint(1);
    b.varint(0); // slot timelines
    b.varint(1).varint(0).varint(1); // bone 0, one timeline
    b.u8(0).varint(2).varint(0); // rotate, 2 frames, 0 beziers
    b.f32(0.0).f32(0.0);
    b.f32(1.0).f32(90.0);
    let at = b.pos();
    b.u8(7); // curve type 7 does not exist
    let e = v43::parse(&b.0).unwrap_err();
    assert_eq!(e.kind, BinaryErrorKind::BadEnum { what: "curve type", value: 7 });
    assert_eq!(e.offset, at);
    assert_eq!(
        e.section,
        "animations > animations[0] \"run\" > bone timelines > bones[0] > timelines[0] > frames[1]"
    );
}

#[test]
fn truncated_input_is_an_error_at_every_length() {
    let full = v43::write(&spine_gen::random_skeleton(3));
    for n in 0..full.len() {
        assert!(v43::parse(&full[..n]).is_err(), "prefix of {n} bytes parsed");
    }
}

#[test]
fn mutated_inputs_never_panic_and_accepted_ones_round_trip() {
    let mut rng = spine_gen::Rng::new(99);
    let mut accepted = 0;
    for seed in 0..48u64 {
        let good = v43::write(&spine_gen::random_skeleton(seed));
        for _ in 0..40 {
            let mut bad = good.clone();
            for _ in 0..rng.range(1, 3) {
                let i = rng.below(bad.len());
                bad[i] = rng.byte();
            }
            if let Ok(s) = v43::parse(&bad) {
                accepted += 1;
                assert_eq!(
                    v43::write(&s),
                    bad,
                    "seed {seed}: an accepted mutation must round-trip"
                );
            }
        }
    }
    assert!(accepted > 0, "some mutations (e.g. of float bytes) are still valid files");
}
