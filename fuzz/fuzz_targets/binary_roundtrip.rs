//! Whatever the binary parser accepts writes back byte for byte and re-parses equal.
#![no_main]

use libfuzzer_sys::fuzz_target;
use spine_format::binary;

fuzz_target!(|data: &[u8]| {
    if let Ok(ast) = binary::parse(data) {
        let written = binary::write(&ast);
        assert_eq!(written, data, "write(parse(b)) != b");
        assert_eq!(binary::parse(&written).as_ref(), Ok(&ast));
    }
});
