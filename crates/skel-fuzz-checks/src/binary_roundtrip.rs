//! Whatever the binary parser accepts writes back byte for byte and re-parses.
//! (The ASTs are not compared with `==`: a NaN in the file makes `PartialEq` false.)

use spine_format::binary;

/// The `binary_roundtrip` fuzz target's check (module docs).
pub fn check(data: &[u8]) {
    if let Ok(ast) = binary::parse(data) {
        let written = binary::write(&ast);
        assert_eq!(written, data, "write(parse(b)) != b");
        let again = binary::parse(&written).expect("written bytes re-parse");
        assert_eq!(binary::write(&again), written);
    }
}
