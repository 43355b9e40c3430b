//! Criterion benches (placeholder).
fn main() {}
