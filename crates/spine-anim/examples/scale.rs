//! Scaling: `N` (default 10,000) independent spineboy-pro instances advanced frame by
//! frame, on one thread and then on rayon's threads (see `common/scale.rs`), with the system
//! allocator (see `scale_mimalloc` for the same with mimalloc).
//!
//! `cargo run --release -p spine-anim --example scale -- [instances] [frames]`
//! (with `GLIBC_TUNABLES=glibc.malloc.hugetlb=1` in the environment: the heap in 2 MiB pages)

#[path = "common/scale.rs"]
mod scale;

fn main() {
    scale::run("system allocator");
}
