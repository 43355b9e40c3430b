//! The README's library quick start is `examples/quickstart.rs` (between its `quick start`
//! markers), which `cargo test` compiles: the README shows code that builds.

#[test]
fn the_readme_quick_start_is_the_compiled_example() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
    let example =
        std::fs::read_to_string(format!("{root}crates/spine-anim/examples/quickstart.rs"))
            .expect("the example");
    let readme = std::fs::read_to_string(format!("{root}README.md")).expect("the README");
    let body = example
        .split("// quick start: begin\n")
        .nth(1)
        .and_then(|s| s.split("    // quick start: end").next())
        .expect("the example's markers");
    // The README shows the body one indent level out.
    let shown: String =
        body.lines().map(|l| format!("{}\n", l.strip_prefix("    ").unwrap_or(l))).collect();
    assert!(shown.lines().count() >= 20, "{shown}");
    assert!(readme.contains(&shown), "README.md does not show the example's body:\n{shown}");
}
