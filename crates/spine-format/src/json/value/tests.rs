//! The reader checked against serde_json on valid and invalid documents and the corpus.

use super::*;
use serde_json::Value;

/// The document as a serde_json value (objects keep the last of duplicate keys, as serde does).
fn to_serde(v: J<'_>) -> Value {
    if let Some(items) = v.items() {
        return Value::Array(items.map(to_serde).collect());
    }
    if let Some(entries) = v.entries() {
        return Value::Object(entries.map(|(k, x)| (k.to_owned(), to_serde(x))).collect());
    }
    match (v.num(), v.str(), v.bool()) {
        (Some(n), ..) => serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number),
        (_, Some(s), _) => Value::String(s.to_owned()),
        (.., Some(b)) => Value::Bool(b),
        _ => Value::Null,
    }
}

/// Equal, numbers within an ulp or two (serde_json's default float parsing is not always
/// the nearest double; ours is).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap_or(f64::NAN), y.as_f64().unwrap_or(f64::NAN));
            x == y || (x - y).abs() <= x.abs() * 4e-16
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn check_like_serde(text: &str) {
    let theirs = serde_json::from_str::<Value>(text);
    let ours = Doc::parse(text, &Limits::default());
    match (&theirs, &ours) {
        (Ok(t), Ok(o)) => {
            let o = to_serde(o.root());
            assert!(same(t, &o), "{text:?}: serde {t} vs ours {o}");
        }
        (Err(_), Err(e)) => assert!(e.message.starts_with("invalid JSON: "), "{e}"),
        (t, o) => panic!("{text:?}: serde {t:?} vs ours {:?}", o.as_ref().map(|_| ())),
    }
}

#[test]
fn agrees_with_serde_json_on_valid_documents() {
    for text in [
        r#"{"a": [1, -2.5, 3e2, 4E-2, 5.5e+1, 0, -0, 0.1, 123456789.125], "b": {}, "c": []}"#,
        r#"["", "plain", "a\"b\\c\/d\b\f\n\r\t", "\u00e9\u4e2d\ud83d\ude00", "é中😀"]"#,
        r#"[true, false, null, [[[]]], [{}], {"x": {"y": {"z": null}}}]"#,
        r#"[9007199254740993, 12345678901234567890123, 1e22, 1e23, 1.7976931348623157e308]"#,
        r#"[2.2250738585072014e-308, 5e-324, 0.30000000000000004, 1234567890.0987654321]"#,
        r#"[0.000000000000000000000000001, 1e-22, 123.456e-30, -9.87654321e15]"#,
        " \t\r\n { \"k\" \n : \"v\" } \n ",
        "42",
        "\"top\"",
    ] {
        check_like_serde(text);
    }
    let deep = format!("{}{}", "[".repeat(100), "]".repeat(100));
    check_like_serde(&deep);
}

#[test]
fn agrees_with_serde_json_on_invalid_documents() {
    for text in [
        "",
        " ",
        "[1,]",
        r#"{"a":1,}"#,
        "[01]",
        "[1.]",
        "[.5]",
        "[-]",
        "[1e]",
        "[1e+]",
        "[+1]",
        "\"\u{1}\"",
        r#""\ud800""#,
        r#""\udc00""#,
        r#""\ud800\u0041""#,
        r#""\q""#,
        r#""\u12""#,
        "tru",
        "nul",
        "[1 2]",
        r#"{"a" 1}"#,
        "{1:2}",
        "[",
        "{",
        r#"{"a":"#,
        r#""""x"#,
        r#""abc"#,
        "[1]]",
        "{}}",
        "[}",
        "{]",
        "1 2",
        "[NaN]",
        "[Infinity]",
        "[0x10]",
    ] {
        check_like_serde(text);
    }
    let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
    check_like_serde(&deep);
}

#[test]
fn errors_give_line_column_and_offset() {
    let e = Doc::parse("{\n  \"a\": [1,\n  2,,]}", &Limits::default()).err().map(|e| e.message);
    assert_eq!(e.as_deref(), Some("invalid JSON: expected a value at line 3 column 5 (byte 17)"));
    let e = Doc::parse(&"[".repeat(129), &Limits::default()).err().map(|e| e.message);
    assert!(e.is_some_and(|m| m.contains("nesting deeper than 128")));
}

/// `get2(a, b)` is `(get(a), get(b))` whatever the entries: duplicates (the first wins),
/// nulls, escaped keys, nested values between or before the keys, missing keys.
#[test]
fn get2_reads_like_get_twice() {
    let docs = [
        r#"{"time": 1, "curve": [1, 2], "x": 3}"#,
        r#"{"curve": {"time": 9}, "time": 1, "time": 2, "curve": 4}"#,
        r#"{"t\u0069me": 5, "curve": null, "curve": 6}"#,
        r#"{"a": [[{"time": 7}]], "curve": "stepped", "b": {}, "time": null, "time": 8}"#,
        r#"{"x": 1}"#,
        r#"{}"#,
    ];
    for text in docs {
        let doc = Doc::parse(text, &Limits::default()).expect("parses");
        let p = P::ROOT;
        let o = Obj::new(doc.root(), &p).expect("object");
        for (a, b) in [("time", "curve"), ("curve", "time"), ("x", "y"), ("time", "x")] {
            let (ga, gb) = o.get2(a, b);
            let show = |v: Option<J<'_>>| v.map(|v| format!("{:?}", to_serde(v)));
            assert_eq!((show(ga), show(gb)), (show(o.get(a)), show(o.get(b))), "{text} {a} {b}");
        }
    }
}

#[test]
fn objects_read_the_first_duplicate_and_skip_null() {
    let doc = Doc::parse(r#"{"a": 1, "a": 2, "n": null, "e\u0078": "esc"}"#, &Limits::default())
        .expect("parses");
    let p = P::ROOT;
    let o = Obj::new(doc.root(), &p).expect("object");
    assert_eq!(o.f32("a"), Ok(Some(1.0)));
    assert!(!o.has("n"));
    assert_eq!(o.string("ex"), Ok(Some("esc".to_owned())));
    assert!(o.get("missing").is_none());
}

#[test]
fn corpus_documents_read_like_serde_json() {
    let Some(corpus) = skel_testkit::spine_corpus() else { return };
    let mut files = vec![corpus];
    let mut checked = 0;
    while let Some(path) = files.pop() {
        if path.is_dir() {
            let Ok(dir) = std::fs::read_dir(&path) else { continue };
            files.extend(dir.flatten().map(|e| e.path()));
        } else if path.extension().is_some_and(|x| x == "json") {
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            check_like_serde(&text);
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} JSON files found");
}

use spine_gen::Rng;

/// `n` random decimal digits.
fn digits(r: &mut Rng, n: usize) -> String {
    (0..n).map(|_| char::from(b'0' + r.below(10) as u8)).collect()
}

/// A random decimal number as JSON may write it (and some it may not).
fn random_number(r: &mut Rng) -> String {
    let mut s = String::new();
    if r.below(3) == 0 {
        s.push('-');
    }
    let int = r.below(12);
    s.push_str(&match (int, r.below(6)) {
        (0, _) => "0".to_owned(),
        // A leading zero now and then (invalid unless alone).
        (_, 0) => format!("0{}", digits(r, int)),
        _ => {
            let first = 1 + r.below(9);
            format!("{first}{}", digits(r, int - 1))
        }
    });
    match r.below(4) {
        0 => {}
        1 => {
            let n = r.below(4);
            s.push_str(&format!(".{}", digits(r, n)));
        }
        _ => {
            let n = r.below(20);
            s.push_str(&format!(".{}", digits(r, n)));
        }
    }
    if r.below(6) == 0 {
        let e = ["e", "E", "e+", "e-", "E-"][r.below(5)];
        s.push_str(&format!("{e}{}", {
            let n = r.below(4);
            digits(r, n)
        }));
    }
    s
}

/// Every number parses to exactly the `f64` `str::parse` gives (the nearest), at every
/// distance from the end of the text and before every kind of following byte; invalid ones
/// fail where serde_json fails.
#[test]
fn numbers_parse_to_the_nearest_double() {
    let mut r = Rng::new(0x9E37_79B9_7F4A_7C15);
    let ends = ["", " ", ",", "]", "}", "\n", "\t", ".", "e", "x", "é", "0", "-"];
    let fixed = [
        "0",
        "-0",
        "0.0",
        "-0.0",
        "1",
        "9",
        "10",
        "1.5",
        "0.1",
        "0.3",
        "1234567",
        "12345678",
        "9999999.9999999",
        "9999999.99999999",
        "99999999.9999999",
        "0.0000001",
        "1.0000000",
        "123.4567",
        "-188.63",
        "686.2",
        "9007199254740993",
        "0.1e1",
        "1e0",
        "01",
        "00",
        "0.",
        "1.",
        ".5",
        "-",
        "1.2.3",
        "1e",
        "1e+",
        "18446744073709551615",
        "18446744073709551616",
    ];
    let mut texts: Vec<String> = fixed.iter().map(|s| (*s).to_owned()).collect();
    texts.extend((0..40_000).map(|_| random_number(&mut r)));
    for (i, num) in texts.iter().enumerate() {
        let end = ends[i % ends.len()];
        for pad in 0..3 {
            // Top-level number, then in an array at several distances from the end.
            for text in [format!("{num}{end}"), format!("[{num}{end}]{}", " ".repeat(pad * 7))] {
                let ours = Doc::parse(&text, &Limits::default());
                let theirs = serde_json::from_str::<Value>(&text);
                match (&ours, &theirs) {
                    // serde_json refuses numbers out of the f64 range; ours reads them as
                    // infinities (the loaders reject them where they read a number).
                    (Ok(doc), _) if theirs.is_ok() || num.contains(['e', 'E']) => {
                        let v = doc.root();
                        let v = v.items().and_then(|mut i| i.next()).unwrap_or(v);
                        // The number's text (a following digit, say, is part of it).
                        let token: String = text
                            .trim_start_matches('[')
                            .chars()
                            .take_while(|c| c.is_ascii_digit() || "+-.eE".contains(*c))
                            .collect();
                        let want: f64 = token.parse().expect("valid JSON numbers parse");
                        let got = v.num().expect("a number");
                        assert!(theirs.is_ok() || want.is_infinite(), "{text:?}");
                        assert_eq!(got.to_bits(), want.to_bits(), "{text:?}");
                    }
                    (Err(_), Err(_)) => {}
                    _ => panic!("{text:?}: ours {:?}, serde {:?}", ours.is_ok(), theirs.is_ok()),
                }
            }
        }
    }
}

/// The unchecked reader's number-array path reads what the checked reader (item by item)
/// reads, and fails at the same byte with the same message, for arrays of numbers with every
/// kind of separator, item and end; serde_json agrees on which of them are JSON.
#[test]
fn number_arrays_read_like_item_by_item() {
    let mut r = Rng::new(0x5EED_1234_ABCD_0001);
    let items = [
        "1",
        "-2.5",
        "0",
        "-0",
        "0.125",
        "3e2",
        "1E-7",
        "01",
        "1.",
        "-",
        "\"s\"",
        "[4, 5]",
        "[]",
        "{\"a\": 6}",
        "true",
        "null",
        "12345678901234567890",
        "0.30000000000000004",
        "x",
    ];
    let seps = [",", ", ", ", ", " ,", ",\n\t\t", ",\r\n ", " ", ",,", "", ", ,"];
    let ends = ["]", "]", " ]", "\n]", "", ",]", ", ]", "}"];
    for _ in 0..20_000 {
        let mut t = String::from("[");
        for i in 0..r.below(6) {
            if i > 0 {
                t.push_str(seps[r.below(seps.len())]);
            }
            t.push_str(items[r.below(items.len())]);
        }
        t.push_str(ends[r.below(ends.len())]);
        for text in [t.clone(), format!("{{\"k\": [{t}, 7], \"l\": {t}}}")] {
            read_alike(&text);
        }
    }
}

/// The checked and unchecked readers give the same nodes or the same error on `text`, and
/// serde_json agrees on whether it is JSON.
fn read_alike(text: &str) {
    let limits = Limits::default();
    match (Parser::<true>::run(text, &limits), Parser::<false>::run(text, &limits)) {
        (Ok((a, da)), Ok((b, db))) => {
            assert_eq!(format!("{a:?} {da}"), format!("{b:?} {db}"), "{text:?}")
        }
        (Err(a), Err(b)) => assert_eq!(a, b, "{text:?}"),
        (a, b) => panic!("{text:?}: checked {:?}, unchecked {:?}", a.is_ok(), b.is_ok()),
    }
    check_like_serde(text);
}

/// Runs of 0 to 17 tabs after a newline (skipped 8 bytes at a time) before a value, a
/// separator, other whitespace, a close or the end of input: both readers read them alike and
/// serde_json agrees on which are JSON.
#[test]
fn tab_runs_after_newlines_read_like_serde() {
    for tabs in 0..=17 {
        let t = "\t".repeat(tabs);
        let docs = [
            format!("[1,\n{t}2]"),
            format!("[1\n{t}, 2]"),
            format!("{{\"a\":\n{t}\"b\"}}"),
            format!("[\n{t}]"),
            format!("[\n{t} \r\n{t}3]"),
            format!("[\n{t}"),
            format!("\n{t}[]\n{t}"),
            format!("[\n{t}x]"),
        ];
        for text in docs {
            read_alike(&text);
        }
    }
}

/// The integer readers' round-trip tests accept exactly what `fract() == 0.0` with their range
/// checks accepts, on edge values and random bit patterns.
#[test]
fn integer_tests_match_fract() {
    let mut r = Rng::new(0x1234_5678_9ABC_DEF0);
    let mut xs = vec![
        0.0,
        -0.0,
        0.5,
        -0.5,
        1.0,
        -1.0,
        0.999_999_999,
        4_294_967_295.0,
        4_294_967_295.5,
        4_294_967_296.0,
        2_147_483_647.0,
        2_147_483_647.5,
        -2_147_483_648.0,
        -2_147_483_648.5,
        -2_147_483_649.0,
        4_503_599_627_370_496.0,
        1e300,
        -1e300,
        f64::MIN_POSITIVE,
        5e-324,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::MAX,
        f64::MIN,
    ];
    xs.extend((0..200_000).map(|_| f64::from_bits(r.next_u64())));
    xs.extend(
        (0..200_000).map(|i| (r.below(1 << 20) as f64 - 1000.0) / [1.0, 2.0, 4.0, 10.0][i % 4]),
    );
    for x in xs {
        let u = x.fract() == 0.0 && x >= 0.0 && x <= f64::from(u32::MAX);
        assert_eq!(is_u32(x), u, "{x:?}");
        let i = x.fract() == 0.0 && x >= f64::from(i32::MIN) && x <= f64::from(i32::MAX);
        assert_eq!(is_i32(x), i, "{x:?}");
    }
}

/// The readers' results stay a value and a pointer: the error is boxed (a `JsonError`
/// returned by value would make every `?` between the readers move 80 bytes).
#[test]
fn reader_results_are_small() {
    use std::mem::size_of;
    let word = size_of::<usize>();
    assert!(size_of::<JsonError>() > 4 * word, "JsonError is {} bytes", size_of::<JsonError>());
    assert_eq!(size_of::<R<()>>(), word);
    assert!(size_of::<R<f32>>() <= 2 * word);
    assert!(size_of::<R<Vec<f32>>>() <= size_of::<Vec<f32>>() + word);
}
