//! [`scale`](./scale.rs) with mimalloc as the global allocator: an embedder's choice, shown
//! because the instances' records are spread over more memory than the TLB covers, and
//! mimalloc asks for transparent huge pages for its segments (THP in `madvise` mode, as on
//! this project's VMs), which the system allocator does only with
//! `GLIBC_TUNABLES=glibc.malloc.hugetlb=1` (see BENCHMARKS.md, 10,000 instances).
//!
//! `cargo run --release -p spine-anim --example scale_mimalloc -- [instances] [frames]`

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/scale.rs"]
mod scale;

fn main() {
    scale::run("mimalloc");
}
