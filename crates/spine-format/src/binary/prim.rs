//! The primitive writers shared by every binary generation (big-endian numbers, varints,
//! strings, string references, colors) and [`StrRef`]. The readers are nom parsers in
//! `binary::wire`.

/// A reference into a file's string table as written on the wire: `0` means none,
/// `n > 0` means entry `n - 1`. Kept unresolved so a written file is byte-identical.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize)]
pub struct StrRef(pub u32);

impl StrRef {
    /// The null reference.
    pub const NONE: StrRef = StrRef(0);

    /// The table index this refers to, or `None`.
    pub fn index(self) -> Option<usize> {
        self.0.checked_sub(1).map(|i| i as usize)
    }

    /// Resolves against a string table (owned or borrowed strings).
    pub fn resolve<S: AsRef<str>>(self, table: &[S]) -> Option<&str> {
        self.index().and_then(|i| table.get(i)).map(AsRef::as_ref)
    }
}

/// A byte sink with the primitive encodings the readers of `binary::wire` parse.
#[derive(Debug, Default)]
pub(crate) struct Writer {
    out: Vec<u8>,
}

impl Writer {
    /// A writer with some capacity.
    pub fn with_capacity(n: usize) -> Self {
        Writer { out: Vec::with_capacity(n) }
    }

    /// The bytes written.
    pub fn finish(self) -> Vec<u8> {
        self.out
    }

    /// `byte`.
    pub fn u8(&mut self, v: u8) {
        self.out.push(v);
    }

    /// `sbyte`.
    pub fn i8(&mut self, v: i8) {
        self.out.push(v as u8);
    }

    /// `bool`.
    pub fn bool(&mut self, v: bool) {
        self.out.push(u8::from(v));
    }

    /// Big-endian `int`.
    pub fn i32(&mut self, v: i32) {
        self.out.extend_from_slice(&v.to_be_bytes());
    }

    /// Big-endian `float`.
    pub fn f32(&mut self, v: f32) {
        self.out.extend_from_slice(&v.to_bits().to_be_bytes());
    }

    /// Four color bytes.
    pub fn rgba(&mut self, v: [u8; 4]) {
        self.out.extend_from_slice(&v);
    }

    /// Raw bytes.
    pub fn bytes(&mut self, v: &[u8]) {
        self.out.extend_from_slice(v);
    }

    /// Unsigned varint, canonical.
    pub fn varint(&mut self, mut v: u32) {
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.out.push(b);
                return;
            }
            self.out.push(b | 0x80);
        }
    }

    /// A `usize` count or index as an unsigned varint (saturating at `u32::MAX`).
    pub fn len(&mut self, v: usize) {
        self.varint(u32::try_from(v).unwrap_or(u32::MAX));
    }

    /// Signed (zigzag) varint.
    pub fn varint_signed(&mut self, v: i32) {
        self.varint(((v << 1) ^ (v >> 31)) as u32);
    }

    /// Length-prefixed string.
    pub fn str(&mut self, v: Option<&str>) {
        match v {
            None => self.varint(0),
            Some(s) => {
                self.len(s.len() + 1);
                self.out.extend_from_slice(s.as_bytes());
            }
        }
    }

    /// A string reference.
    pub fn str_ref(&mut self, v: StrRef) {
        self.varint(v.0);
    }
}
