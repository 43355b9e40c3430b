//! The `fields!` macro: one object read into the caller's locals, keys predicted.

/// Reads one object into the caller's locals. Each entry is `index "key" => body`, the
/// indices counting up in the exporters' key order: after key `i` the reader first tries
/// `"key i+1":` as a fixed-size byte comparison, and only on a mismatch (another order,
/// an absent key, whitespace, an unknown key) scans the key and looks it up. Unknown keys
/// are skipped and leave the prediction where it was. `body` runs with the reader just
/// before the value and must consume it; `?` in it abandons the fast path.
macro_rules! fields {
    ($p:ident { $($idx:literal $key:literal => $body:expr,)* }) => {{
        $p.eat(b'{')?;
        $p.enter()?;
        if $p.peek()? == b'}' {
            $p.i += 1;
        } else {
            let mut next: usize = 0;
            loop {
                let field: usize = match next {
                    $( $idx if $p.lit(concat!("\"", $key, "\":").as_bytes()) => $idx, )*
                    _ => {
                        let k = $p.raw_str()?;
                        $p.eat(b':')?;
                        $( if k == $key.as_bytes() { $idx } else )* { usize::MAX }
                    }
                };
                match field {
                    $( $idx => { $body; } )*
                    _ => $p.skip()?,
                }
                if field != usize::MAX {
                    next = field + 1;
                }
                match $p.peek()? {
                    b',' => $p.i += 1,
                    b'}' => {
                        $p.i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        $p.depth -= 1;
    }};
}
